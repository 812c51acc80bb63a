#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The registries cannot drop an entry silently (make check): a suite, a
# proof check or a vector function whose declaring line is not in the one
# form ci/gen-registry.sh reads must make the generator fail, and a public
# function named only in a comment or a string of the status tables must
# make ci/check-status-coverage.sh fail.  Each case is also run in its
# correct form, which must pass.
set -eu
cd "$(dirname "$0")/.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 cases=0
expect() { # expect 0|1 WHAT COMMAND...
  want=$1 what=$2; shift 2
  cases=$((cases + 1))
  if "$@" > "$t/out" 2> "$t/err"; then got=0; else got=1; fi
  if [ "$got" != "$want" ]; then
    echo "registry-test: FAIL: $what (exit $got, expected $want)"; cat "$t/err"; fails=$((fails + 1))
  fi
}
gen() { sh ci/gen-registry.sh "$@"; }

printf 'Suite *suite_a(void)\n{\n}\n' > "$t/ok.c"
expect 0 "a suite in the registry's form" gen suite_registry "$t/ok.c"
printf 'Suite *suite_a (void)\n{\n}\n' > "$t/s1.c"
expect 1 "a suite with a space before (void)" gen suite_registry "$t/s1.c"
printf 'Suite *\nsuite_a(void) {\n}\n' > "$t/s2.c"
expect 1 "a suite split over two lines" gen suite_registry "$t/s2.c"
printf 'static Suite *suite_a(void)\n{\n}\n/* Suite *suite_b(void) { */\n' > "$t/s3.c"
expect 0 "a static suite and one in a comment (no entries)" gen suite_registry "$t/s3.c"
printf 'int pc_a(pc_ctx *c)\n{\n}\n' > "$t/p1.c"
expect 1 "a proof check with another parameter name" gen proof_registry "$t/p1.c"
printf 'int pc_a(pc_ctx *ctx)\n{\n}\n' > "$t/p2.c"
expect 0 "a proof check in the registry's form" gen proof_registry "$t/p2.c"
printf 'const vfunc vfunc_a = {\n    0};\n' > "$t/v1.c"
expect 0 "a vector function in the registry's form" gen vfunc_registry "$t/v1.c"
printf 'const vfunc  vfunc_a = {0};\n' > "$t/v2.c"
expect 1 "a vector function with two spaces" gen vfunc_registry "$t/v2.c"
printf 'int audit_a(uint64_t seed) {\n}\n' > "$t/a1.c"
expect 1 "an audit section with its brace on the line" gen audit_registry "$t/a1.c"

# status coverage: fr_soft's row renamed away, the name left in a comment
# and in a row label only
mkdir -p "$t/tree"
cp -R include "$t/tree/include"
for f in tests/*/test_status*.c; do mkdir -p "$t/tree/${f%/*}"; cp "$f" "$t/tree/$f"; done
expect 0 "status coverage of the tables as they are" sh ci/check-status-coverage.sh "$t/tree"
sed -i -e 's/\bfr_soft(/fr_soft_gone(/g' -e '1i /* fr_soft */ static const char *lbl = "fr_soft";' \
  "$t/tree/tests/core/test_status.c"
expect 1 "status coverage with fr_soft only in a comment and a string" sh ci/check-status-coverage.sh "$t/tree"

if [ $fails -eq 0 ]; then echo "registry-test: $cases cases, all as expected"; exit 0; fi
echo "registry-test: $fails of $cases cases failed"
exit 1
