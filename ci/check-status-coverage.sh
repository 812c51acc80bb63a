#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every public function has rows in a status table (the one error rule of
# include/fedref_common.h, "Error semantics"): each function declared in
# include/fedref/*.h, include/fedfast/*.h, include/fedspec/*.h and
# include/fedref_common.h must appear in some tests/*/test_status*.c.
# Exit 1, naming the missing ones, if a name does not.  Run from anywhere.
# Optional argument: the root of the tree to check (default: this checkout).
set -eu
cd "${1:-$(dirname "$0")/..}"

headers=$(ls include/fedref/*.h include/fedfast/*.h include/fedspec/*.h include/fedref_common.h 2>/dev/null)
tables=$(ls tests/*/test_status*.c 2>/dev/null || true)
if [ -z "$tables" ]; then
  echo "check-status-coverage: no tests/*/test_status*.c" >&2
  exit 1
fi

# The declarations: comments removed, then every fr_/ff_/frng_ identifier
# followed by "(" (in these headers only prototypes have that form).
names=$(awk '
  {
    line = $0; out = ""
    while (length(line) > 0) {
      if (incomment) {
        i = index(line, "*/")
        if (i == 0) { line = "" } else { line = substr(line, i + 2); incomment = 0 }
      } else {
        i = index(line, "/*")
        if (i == 0) { out = out line; line = "" }
        else { out = out substr(line, 1, i - 1) " "; line = substr(line, i + 2); incomment = 1 }
      }
    }
    print out
  }' $headers \
  | grep -oE '(^|[^A-Za-z0-9_])(fr|ff|frng)_[A-Za-z0-9_]*[[:space:]]*\(' \
  | sed -e 's/^[^A-Za-z0-9_]//' -e 's/[[:space:]]*($//' | sort -u)

# The tables' code: comments and string literals removed (a name in a
# comment or in a row's label is no row), so that only a call or a function
# pointer counts.
code=$(mktemp)
trap 'rm -f "$code"' EXIT
perl -0777 -pe 's{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"}{ }gs' $tables > "$code"

missing=""
count=0
for n in $names; do
  count=$((count + 1))
  if ! grep -qw "$n" "$code"; then
    missing="$missing $n"
  fi
done

if [ -n "$missing" ]; then
  echo "check-status-coverage: public functions without a row in tests/*/test_status*.c:" >&2
  for n in $missing; do echo "  $n" >&2; done
  exit 1
fi
echo "check-status-coverage: all $count public functions have status rows"
