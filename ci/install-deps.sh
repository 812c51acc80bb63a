#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages fedref needs, only those missing.  Idempotent.
# Uses sudo when not root; when it cannot install, prints the exact command
# and fails.  NO_DEPS=1 in the environment: installs nothing (says what
# is missing and succeeds; the step that needs the package then fails or,
# for gnuplot, runs without plots).
set -eu
# clang: the compilers check of make check, and with libclang-rt-14-dev the
# fuzz target (libFuzzer; make fuzz, fuzz-replay); binutils: nm for the
# exported-symbol check; python3: docs/rng_reference.py (ci/vectors-docs.sh);
# libmpfi-dev: MPFI, the interval arithmetic of libfedref's enclosures (no
# .pc file: linked with -lmpfi, fedref.pc's Libs.private)
# zlib1g-dev: the data loaders (data/) read the gzip files of make data
# perl (prove) and python3-junitparser: ci/conform-test.sh and
# ci/vectors-report-test.sh read the TAP and JUnit reports with them;
# python3-jsonschema: ci/vectors-schema.sh validates every vector file
# against its schema; libopenmpi-dev, openmpi-bin: fedref-mpi, the MPI
# program of fedref certify (ci/certify-test.sh compares its bytes)
PKGS="libmpfr-dev libgmp-dev libmpfi-dev zlib1g-dev check liblapacke-dev libopenblas-dev libjansson-dev pkgconf make gcc clang libclang-rt-14-dev binutils python3 perl python3-junitparser python3-jsonschema libopenmpi-dev openmpi-bin"
# extra packages for one target, as arguments (make bench: python3-numpy
# python3-scipy)
PKGS="$PKGS $*"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0
# NO_DEPS=1 (make NO_DEPS=1 ...): say what is missing, install nothing
if [ -n "${NO_DEPS:-}" ]; then
  echo "install-deps: NO_DEPS=$NO_DEPS: not installing the missing Debian packages:$missing" >&2
  exit 0
fi
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
echo "install-deps: missing Debian packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  sh -c "$cmd" >&2
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo sh -c "$cmd" >&2
else
  echo "install-deps: cannot install as $(id -un); run as root:" >&2
  echo "  $cmd" >&2
  exit 1
fi
