#!/bin/sh
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
# the installed command finds the installed vectors (outside any checkout)
(cd / && FEDREF_VECTORS_DIR="$stage$prefix/share/fedref/vectors" "$stage$prefix/bin/fedref" vectors check \
  "$stage$prefix"/share/fedref/vectors/soft.json > /dev/null)
test -s "$stage$prefix/share/man/man1/fedref.1"
echo "install-test: staged install, pkg-config consumer shared and static: ok"
