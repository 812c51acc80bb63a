#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The experiments at reduced sizes (fedref experiments --quick), the step
# of make check that needs the real data sets: run when the files of make
# data are in DATA or can be fetched (ci/fetch-data.sh); when they are
# missing and cannot be fetched (no network, no apt-get, FEDREF_OFFLINE=1)
# the step runs only the experiment whose data ship in the repository
# (fedepm, on UCI Adult: data/adult/), with one line saying why and how to
# run the others, and succeeds unless that one fails (FEDREF_REQUIRE_DATA=1:
# fails instead, for a CI that must run them all).  A data file with the wrong checksum, or a failed experiment, fails.  gnuplot is installed for the plots unless NO_DEPS is set; without
# it the experiments run and the report says the plots were skipped.
#   experiments-quick.sh CLI DATA OUT
set -u
cli=$1
data=$2
out=$3
only=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT
sh "$(dirname "$0")/fetch-data.sh" "$data" > "$log" 2>&1
rc=$?
case $rc in
  0) ;;
  3)
    why=$(grep 'cannot fetch:' "$log" | tail -n 1 | sed 's/^fetch-data: cannot fetch: //')
    if [ -n "${FEDREF_REQUIRE_DATA:-}" ]; then
      echo "experiments QUICK=1: the data sets cannot be fetched ($why) and FEDREF_REQUIRE_DATA is set" >&2
      exit 1
    fi
    echo "experiments QUICK=1: SKIPPED but fedepm: the data sets of make data are not in $data and cannot be fetched ($why); to run them all, make data where the Debian mirrors are reachable (or copy the files of docs/DATA.md into $data), then make check again. fedepm runs on UCI Adult, which ships in data/adult/"
    only="--only fedepm" ;;
  *)
    cat "$log" >&2
    echo "experiments QUICK=1: make data failed (exit $rc)" >&2
    exit 1 ;;
esac
sh "$(dirname "$0")/install-deps.sh" gnuplot-nox \
  || echo "experiments QUICK=1: gnuplot could not be installed: running without the plots" >&2
# shellcheck disable=SC2086
exec "$cli" experiments --quick $only --data "$data" --out "$out"
