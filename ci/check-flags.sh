#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The flags the numerics depend on survive any user CFLAGS: with
# CFLAGS='-O3 -march=native -ffp-contract=fast -std=gnu89', the compile
# command of a fast/ source still ends with -std=c17 and -ffp-contract=off
# (the last occurrence of an option wins in gcc and clang).
set -eu
cmd=$(make --no-print-directory -n -B BUILD=build/flags-check \
      CFLAGS='-O3 -march=native -ffp-contract=fast -std=gnu89' build/flags-check/obj/fast/core/soft.o \
      | grep -- ' -c fast/core/soft.c')
last() { printf '%s\n' "$cmd" | tr ' ' '\n' | grep -- "^$1" | tail -n 1; }
[ "$(last -ffp-contract=)" = "-ffp-contract=off" ] || { echo "check-flags: -ffp-contract=off lost: $cmd" >&2; exit 1; }
[ "$(last -std=)" = "-std=c17" ] || { echo "check-flags: -std=c17 lost: $cmd" >&2; exit 1; }
echo "check-flags: user CFLAGS cannot drop -std=c17 or -ffp-contract=off"
