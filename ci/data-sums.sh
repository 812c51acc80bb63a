#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# data-sums.sh -- the data shipped in the repository (data/adult/, UCI
# Adult) against data/SHA256SUMS: each .gz file as shipped, and the
# content it inflates to (the original file; the "#   sha256 HASH  NAME"
# comment lines).  POSIX sh; needs sha256sum, gzip and awk.  Exit 1 on a
# mismatch.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sums=$root/data/SHA256SUMS
cd "$root/data"
fail=0 n=0
for f in $(awk '$1 !~ /^#/ && $2 ~ /^adult\// { print $2 }' "$sums"); do
  want=$(awk -v n="$f" '$1 !~ /^#/ && $2 == n { print $1 }' "$sums")
  have=$(sha256sum "$f" | awk '{ print $1 }')
  if [ "$have" != "$want" ]; then echo "data-sums: $f: SHA-256 $have, expected $want" >&2; fail=1; fi
  base=$(basename "$f" .gz)
  want=$(awk -v n="$base" '$1 == "#" && $2 == "sha256" && $4 == n { print $3 }' "$sums")
  have=$(gzip -dc "$f" | sha256sum | awk '{ print $1 }')
  if [ -z "$want" ] || [ "$have" != "$want" ]; then
    echo "data-sums: $f inflates to SHA-256 $have, expected ${want:-(no line for $base)}" >&2; fail=1
  fi
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "data-sums: no shipped file in $sums" >&2; exit 1; }
[ "$fail" = 0 ] || exit 1
echo "data-sums: $n shipped files and their contents verified against data/SHA256SUMS"
