#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every source file of the tree (C, shell, Python, the makefile, the
# pkg-config templates, the linker map) names its licence in its first two
# lines with an SPDX identifier, Apache-2.0 as LICENSE says.  Exit 1, naming
# the files that do not.  Run from anywhere.
set -eu
cd "$(dirname "$0")/.."
[ -f LICENSE ] || { echo "check-licence: no LICENSE file" >&2; exit 1; }
missing=""
n=0
for f in $(git ls-files 2>/dev/null || find . -type f | sed 's|^\./||'); do
  case $f in
  tests/fuzz/corpus*) continue ;;
  *.c|*.h|*.sh|*.py|*.in|*.map|GNUmakefile|.ci/run) ;;
  *) continue ;;
  esac
  n=$((n + 1))
  head -n 2 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || missing="$missing $f"
done
if [ -n "$missing" ]; then
  echo "check-licence: no 'SPDX-License-Identifier: Apache-2.0' in the first two lines of:$missing" >&2
  exit 1
fi
echo "check-licence: all $n source files carry the SPDX licence line"
