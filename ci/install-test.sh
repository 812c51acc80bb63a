#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Stage `make install` under STAGE and build tests/install/consumer.c as a
# user would: flags from pkg-config only, linked against the shared
# libraries and again statically; run both.  Exit non-zero on any failure.
#   install-test.sh STAGE
set -eu
stage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
prefix=/usr/local
rm -rf "$stage"
make --no-print-directory install DESTDIR="$stage" PREFIX="$prefix" > "$stage.log" 2>&1 \
  || { cat "$stage.log" >&2; echo "install-test: make install failed" >&2; exit 1; }
export PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_PATH="$stage$prefix/lib/pkgconfig"
cc=${CC:-cc}
cflags=$(pkg-config --cflags fedfast fedref)
"$cc" -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/consumer-shared" tests/install/consumer.c \
  $(pkg-config --libs fedfast fedref)
"$cc" -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/consumer-static" tests/install/consumer.c \
  -Wl,-Bstatic $(pkg-config --libs-only-L fedfast fedref) -lfedfast -lfedref -Wl,-Bdynamic \
  $(pkg-config --static --libs fedfast fedref | sed -e 's/-lfedfast//g' -e 's/-lfedref//g')
LD_LIBRARY_PATH="$stage$prefix/lib" "$stage/consumer-shared"
"$stage/consumer-static"
# the shared binary really loads the staged libraries; the static one none
LD_LIBRARY_PATH="$stage$prefix/lib" ldd "$stage/consumer-shared" | grep -q "$stage$prefix/lib/libfedref.so.0"
! ldd "$stage/consumer-static" | grep -q libfed
for f in "$stage$prefix"/share/fedref/vectors/*.json; do cmp -s "$f" "vectors/$(basename "$f")"; done
test -s "$stage$prefix/share/man/man1/fedref.1"
for f in README.md LICENSE DESIGN.md VECTORS.md examples/consumer.c; do
  test -s "$stage$prefix/share/doc/fedref/$f" || { echo "install-test: no share/doc/fedref/$f" >&2; exit 1; }
done
# the manual points into the installed docs, not into a source tree
if grep -q 'source tree' "$stage$prefix/share/man/man1/fedref.1"; then
  echo "install-test: the installed manual points into the source tree" >&2; exit 1
fi
echo "install-test: staged install, pkg-config consumer shared and static: ok"

# An install at a fresh PREFIX with `make install PREFIX=P` alone, after the
# plain `make` above (nothing rebuilt for P): the installed fedref finds its
# vectors relative to itself, outside any checkout and with no
# FEDREF_VECTORS_DIR; the staged (DESTDIR) copy too.  Then the installed
# `fedref audit --quick` runs from P; `make uninstall` leaves P empty.
fresh="$stage-prefix"
rm -rf "$fresh"
make --no-print-directory -q all 2>/dev/null \
  || echo "install-test: note: the build was not up to date before make install PREFIX=$fresh" >&2
make --no-print-directory install PREFIX="$fresh" > "$stage.log" 2>&1 \
  || { cat "$stage.log" >&2; echo "install-test: make install PREFIX=$fresh failed" >&2; exit 1; }
(cd / && env -u FEDREF_VECTORS_DIR "$stage$prefix/bin/fedref" vectors check \
  "$stage$prefix"/share/fedref/vectors/soft.json > /dev/null) \
  || { echo "install-test: the staged fedref does not check its vectors" >&2; exit 1; }
audit_log="$stage-audit.log"
if ! (cd / && env -u FEDREF_VECTORS_DIR OPENBLAS_NUM_THREADS=1 "$fresh/bin/fedref" audit --quick \
      > "$audit_log" 2> "$audit_log.err"); then
  tail -n 20 "$audit_log" "$audit_log.err" >&2
  echo "install-test: the installed fedref audit --quick failed (PREFIX=$fresh)" >&2
  exit 1
fi
# the installed vectors, not the checkout's (P is inside the checkout's build tree)
grep -qx "golden vectors from $fresh/bin/../share/fedref/vectors" "$audit_log"
grep -q '^audit: 0 function(s) or algorithm(s) with failures' "$audit_log"
grep -q "audit: done in" "$audit_log.err"
make --no-print-directory uninstall PREFIX="$fresh" > "$stage.log" 2>&1 \
  || { cat "$stage.log" >&2; echo "install-test: make uninstall failed" >&2; exit 1; }
left=$(find "$fresh" -type f -o -type l)
[ -z "$left" ] || { echo "install-test: make uninstall left:" >&2; echo "$left" >&2; exit 1; }
rm -rf "$fresh"
echo "install-test: make install PREFIX=$fresh alone, installed fedref audit --quick, make uninstall: ok"
