#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make data: the real data sets of the experiments, from Debian
# packages only, into DIR (default build/data), each file verified against
# data/SHA256SUMS.  No Python is installed: the packages are fetched with
# `apt-get download` and unpacked with `dpkg-deb -x` under DIR/pkg/.
# Idempotent: a file already present with the right SHA-256 is kept, and a
# package is fetched only when one of its files is missing (or its unpacked
# copy from an earlier run has the wrong SHA-256).  A file of a freshly
# downloaded package with the wrong SHA-256 is an error (the file is moved
# to NAME.rejected; data/SHA256SUMS names the package versions expected).
# Exit 0: every file verified; 3: a file is missing and cannot be fetched
# (no apt-get, no network or mirror, or FEDREF_OFFLINE=1, which forbids any
# download: make check's offline path); 1: any other error (a file with the
# wrong SHA-256).
# Usage: sh ci/fetch-data.sh [DIR]     (run from anywhere)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build/data}
sums=$root/data/SHA256SUMS

# stable name, Debian package, path inside the package
files='fashion-train-images.idx.gz dataset-fashion-mnist usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
fashion-train-labels.idx.gz dataset-fashion-mnist usr/share/datasets/fashion-mnist/train-labels-idx1-ubyte.gz
fashion-test-images.idx.gz dataset-fashion-mnist usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz
fashion-test-labels.idx.gz dataset-fashion-mnist usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz
breast_cancer.csv python3-sklearn usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv
digits.csv.gz python3-sklearn usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz'

die() { echo "fetch-data: error: $*" >&2; exit 1; }
unavailable() { echo "fetch-data: cannot fetch: $*" >&2; exit 3; }
for tool in sha256sum awk; do
  command -v $tool >/dev/null 2>&1 || die "$tool not found (Debian package coreutils/mawk)"
done
[ -r "$sums" ] || die "no checksum file $sums"

want() { awk -v n="$1" '$1 !~ /^#/ && $2 == n { print $1 }' "$sums"; }
have() { sha256sum "$1" | awk '{ print $1 }'; }
# ok NAME: NAME is in DIR with the SHA-256 of data/SHA256SUMS
ok() { [ -f "$dir/$1" ] && [ "$(have "$dir/$1")" = "$(want "$1")" ]; }

mkdir -p "$dir"
fetched=""
# fetch PKG: download and unpack PKG once (DIR/pkg/PKG/)
fetch() {
  case " $fetched " in *" $1 "*) return 0 ;; esac
  [ -z "${FEDREF_OFFLINE:-}" ] || unavailable "FEDREF_OFFLINE=$FEDREF_OFFLINE forbids downloading Debian package $1"
  command -v apt-get >/dev/null 2>&1 || unavailable "apt-get not found: cannot download Debian package $1 (a Debian system is needed)"
  command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found: cannot unpack Debian package $1"
  mkdir -p "$dir/deb" "$dir/pkg/$1"
  echo "fetch-data: downloading Debian package $1" >&2
  if ! log=$(cd "$dir/deb" && apt-get download "$1" 2>&1); then
    why="apt-get download $1 said: $(printf '%s' "$log" | grep -E '^(E|W):' | tr '\n' ' ')"
    ls "$dir/deb/$1"_*.deb >/dev/null 2>&1 \
      || unavailable "Debian package $1 ($why); try 'apt-get update' first, or put its .deb (the version in data/SHA256SUMS) into $dir/deb/ by hand"
    echo "fetch-data: cannot download $1 ($why): using the .deb already in $dir/deb/" >&2
  fi
  deb=$(ls -t "$dir/deb/$1"_*.deb 2>/dev/null | head -n 1)
  [ -n "$deb" ] || die "apt-get download $1 left no .deb in $dir/deb/"
  dpkg-deb -x "$deb" "$dir/pkg/$1" || die "dpkg-deb -x $deb failed"
  echo "fetch-data: unpacked $(basename "$deb")" >&2
  fetched="$fetched $1"
}

n=0
kept=0
printf '%s\n' "$files" | {
  while read -r name pkg path; do
    n=$((n + 1))
    w=$(want "$name")
    [ -n "$w" ] || die "$name has no line in $sums"
    if ok "$name"; then kept=$((kept + 1)); continue; fi
    [ -f "$dir/pkg/$pkg/$path" ] || fetch "$pkg"
    [ -f "$dir/pkg/$pkg/$path" ] || die "Debian package $pkg has no /$path (another version? data/SHA256SUMS names the one expected)"
    h=$(have "$dir/pkg/$pkg/$path")
    if [ "$h" != "$w" ]; then
      case " $fetched " in        # unpacked by an earlier run: fetch it again, once
        *" $pkg "*) ;;
        *) rm -rf "$dir/pkg/$pkg"; fetch "$pkg" ;;
      esac
    fi
    cp "$dir/pkg/$pkg/$path" "$dir/$name.tmp"
    h=$(have "$dir/$name.tmp")
    if [ "$h" != "$w" ]; then
      mv "$dir/$name.tmp" "$dir/$name.rejected"
      die "$name (/$path of Debian package $pkg): SHA-256 $h, expected $w (data/SHA256SUMS); kept as $dir/$name.rejected"
    fi
    mv "$dir/$name.tmp" "$dir/$name"
    echo "fetch-data: $name verified" >&2
  done
  echo "fetch-data: $n files in $dir verified against data/SHA256SUMS ($kept already present)"
}
