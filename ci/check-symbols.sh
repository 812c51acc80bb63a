#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every symbol a library exports carries the project's prefix: public fr_
# (ref and the shared spec), ff_ (fast), frng_ (the generator); internal
# fri_ (ref) and ffi_ (fast).  A shared library (.so) exports the public
# prefixes only (ci/exports.map hides fri_ and ffi_).  And every public
# fr_/ff_/frng_ function the libraries define is declared in an installed
# header.
#   check-symbols.sh LIB.a... LIB.so... -- HEADER...
set -eu
libs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do libs="$libs $1"; shift; done
[ $# -gt 0 ] && shift
defined() { # the global symbols a library defines (dynamic ones for a .so)
  case $1 in
  *.so|*.so.*) nm -D --defined-only "$1" | awk 'NF == 3 && $2 != "A" { print $3 }' ;;
  *) nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }' ;;
  esac
}
bad="" leaked=""
for l in $libs; do
  case $l in
  *.so|*.so.*)
    for s in $(defined "$l" | grep -v -E '^(fr_|ff_|frng_)' || true); do leaked="$leaked $l:$s"; done ;;
  esac
done
syms=$(for l in $libs; do defined "$l"; done | sort -u)
bad=$(printf '%s\n' "$syms" | grep -v -E '^(fr_|ff_|frng_|fri_|ffi_)' || true)
undeclared=""
for s in $(printf '%s\n' "$syms" | grep -E '^(fr_|ff_|frng_)' || true); do
  grep -q -E "(^|[^A-Za-z0-9_])$s\(" "$@" || undeclared="$undeclared $s"
done
if [ -n "$bad" ] || [ -n "$undeclared" ] || [ -n "$leaked" ]; then
  [ -n "$bad" ] && echo "check-symbols: exported without a project prefix:" $bad >&2
  [ -n "$leaked" ] && echo "check-symbols: a shared library exports a non-public name:$leaked" >&2
  [ -n "$undeclared" ] && echo "check-symbols: public prefix but in no installed header:$undeclared" >&2
  exit 1
fi
n=$(printf '%s\n' "$syms" | wc -l)
echo "check-symbols: $n exported symbols, all prefixed; public ones declared; the shared libraries export public names only"
