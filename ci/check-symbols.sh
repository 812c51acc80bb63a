#!/bin/sh
# Every symbol a library exports carries the project's prefix: public fr_
# (ref and the shared spec), ff_ (fast), frng_ (the generator); internal
# fri_ (ref) and ffi_ (fast).  And every public fr_/ff_/frng_ function the
# libraries define is declared in an installed header.
#   check-symbols.sh LIB.a... -- HEADER...
set -eu
libs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do libs="$libs $1"; shift; done
[ $# -gt 0 ] && shift
syms=$(for l in $libs; do nm -g --defined-only "$l" | awk 'NF == 3 { print $3 }'; done | sort -u)
bad=$(printf '%s\n' "$syms" | grep -v -E '^(fr_|ff_|frng_|fri_|ffi_)' || true)
undeclared=""
for s in $(printf '%s\n' "$syms" | grep -E '^(fr_|ff_|frng_)' || true); do
  grep -q -E "(^|[^A-Za-z0-9_])$s\(" "$@" || undeclared="$undeclared $s"
done
if [ -n "$bad" ] || [ -n "$undeclared" ]; then
  [ -n "$bad" ] && echo "check-symbols: exported without a project prefix:" $bad >&2
  [ -n "$undeclared" ] && echo "check-symbols: public prefix but in no installed header:$undeclared" >&2
  exit 1
fi
echo "check-symbols: $(printf '%s\n' "$syms" | wc -l) exported symbols, all prefixed; public ones declared"
