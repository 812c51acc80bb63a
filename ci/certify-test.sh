#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fedref certify (docs/CERTIFY.md) as a user runs it:
#  1. the template of each module's first run, certified again, gives the
#     committed file's expected values (certify and vectors gen agree);
#  2. each module's example case on a CSV of examples/certify/ certifies to
#     a file that vectors check passes with ref and fast;
#  3. a certification killed after its first checkpoint and resumed writes
#     the same bytes as one never stopped; a stale checkpoint is refused;
#  4. with the MPI program (second argument): mpirun -n 1, 2, 3 write the
#     same bytes as the one-process fedref;
#  5. bad input exits 2 with a message.
# Usage: certify-test.sh FEDREF [FEDREF_MPI]
set -u
cli=$1
mpi=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
E=examples/certify
fails=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { fails=$((fails + 1)); echo "certify-test: FAIL: $*"; }

# 1. template -> certify -> the committed expected values
for f in fedepm fedpdm_run_full ssca_alg1 proxal_alg3; do
  "$cli" certify --template $f > "$tmp/$f.tpl.json" &&
  "$cli" certify $f "$tmp/$f.tpl.json" -o "$tmp/$f.tpl.out.json" --quiet > /dev/null &&
  python3 - "$tmp/$f.tpl.json" "$tmp/$f.tpl.out.json" vectors/$f.json <<'PY' && ok || bad "$f: the template's certified values are not the committed ones"
import json, sys
tpl, out, ref = (json.load(open(p)) for p in sys.argv[1:])
got = out["groups"][0]["cases"][0]["expect"]
for g in ref["groups"]:
    for c in g["cases"]:
        if c.get("input") == tpl["input"] and g["params"] == tpl["params"]:
            sys.exit(0 if c["expect"] == got else 1)
sys.exit(1)
PY
done

# 2. each module on a user's CSV, checked by both wings
for spec in fedepm:4:two_classes fedpdm_run_full:4:three_classes ssca_alg1:3:three_classes \
            proxal_alg1:2:two_classes; do
  f=${spec%%:*}; rest=${spec#*:}; n=${rest%%:*}; csv=${rest#*:}
  if "$cli" certify $f $E/$f.case.json --data $E/$csv.csv --clients $n -o "$tmp/$f.json" --quiet > /dev/null &&
     "$cli" vectors check --impl both "$tmp/$f.json" > "$tmp/check.txt" &&
     grep -q "1 case passed, 0 failed" "$tmp/check.txt" &&
     grep -q "data: $csv.csv (" "$tmp/$f.json"; then ok; else bad "$f on $csv.csv"; fi
done

# 3. killed and resumed: the same bytes (a run of a few seconds: 250 rounds)
python3 -c "
import json; c = json.load(open('$E/fedepm.case.json')); c['params']['rounds'] = '250'
json.dump(c, open('$tmp/long.json', 'w'))"
run_long() { "$cli" certify fedepm "$tmp/long.json" --data $E/two_classes.csv --clients 4 --quiet "$@" > /dev/null; }
run_long -o "$tmp/whole.json" || bad "the uninterrupted run failed"
# in a subshell that execs fedref, so that $! is fedref's pid and the kill
# leaves no run behind to rewrite the checkpoint
(exec "$cli" certify fedepm "$tmp/long.json" --data $E/two_classes.csv --clients 4 --quiet -o "$tmp/cut.json" > /dev/null) & pid=$!
i=0
while [ ! -s "$tmp/cut.json.checkpoint" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL $pid 2> /dev/null; wait $pid 2> /dev/null
if [ -e "$tmp/cut.json" ]; then
  echo "certify-test: note: the run ended before it was killed (a fast machine): resuming a complete run"
fi
if [ -s "$tmp/cut.json.checkpoint" ] && ! [ -e "$tmp/cut.json" ]; then
  out=$(run_long -o "$tmp/cut.json" 2>&1); rc=$?
  [ $rc -eq 2 ] && printf '%s' "$out" | grep -q -- "--resume to continue it" && ok || bad "a checkpoint was not refused without --resume (exit $rc)"
  run_long -o "$tmp/cut.json" --resume && cmp -s "$tmp/whole.json" "$tmp/cut.json" && ok || bad "the resumed run differs"
  [ -e "$tmp/cut.json.checkpoint" ] && bad "the checkpoint was left after success" || ok
fi
# a checkpoint of another case is refused
run_long -o "$tmp/other.json" --no-checkpoint || bad "--no-checkpoint"
printf 'fedref-certify-checkpoint/1\nfunction fedepm\nversion 0\ncases 0\nend\n' > "$tmp/x.json.checkpoint"
out=$(run_long -o "$tmp/x.json" --resume 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "is not a checkpoint of this certification" && ok || bad "a foreign checkpoint was accepted"

# 4. MPI: the same bytes for every number of ranks
if [ -n "$mpi" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  if ! mpirun -n 1 --oversubscribe "$mpi" --version > "$tmp/mpi.txt" 2>&1; then
    echo "certify-test: SKIP MPI: mpirun cannot start a job here:"; tail -3 "$tmp/mpi.txt"
  else
    "$cli" certify fedepm $E/fedepm.case.json --data $E/two_classes.csv --clients 4 -o "$tmp/one.json" --quiet > /dev/null
    for P in 1 2 3; do
      mpirun -n $P --oversubscribe "$mpi" certify fedepm $E/fedepm.case.json --data $E/two_classes.csv \
        --clients 4 -o "$tmp/mpi$P.json" --quiet > /dev/null 2> "$tmp/mpi.txt" &&
        cmp -s "$tmp/one.json" "$tmp/mpi$P.json" && ok || { bad "mpirun -n $P differs"; tail -3 "$tmp/mpi.txt"; }
    done
  fi
else
  echo "certify-test: SKIP MPI: no fedref-mpi given (mpicc not found at build time, or a sanitizer build)"
fi

# 5. bad input
t() {
  code=$1; pat=$2; shift 2
  out=$("$cli" certify "$@" 2>&1 < /dev/null); rc=$?
  [ "$rc" -eq "$code" ] && printf '%s' "$out" | grep -q -- "$pat" && ok || bad "certify $*: exit $rc, wanted $code /$pat/: $out"
}
t 0 "usage: fedref certify" --help
t 2 "unknown vector function" frob $E/fedepm.case.json -o "$tmp/o.json"
t 2 "missing -o OUT" fedepm $E/fedepm.case.json
t 2 "a case of another function" ssca_alg1 $E/fedepm.case.json -o "$tmp/o.json"
t 2 "go together" fedepm $E/fedepm.case.json -o "$tmp/o.json" --data $E/two_classes.csv
t 2 "must be 1 to 12" fedepm $E/fedepm.case.json -o "$tmp/o.json" --data $E/two_classes.csv --clients 13
t 2 "needs labels 0 and 1" fedepm $E/fedepm.case.json -o "$tmp/o.json" --data $E/three_classes.csv --clients 4
t 2 "missing field" fedepm $E/fedepm.case.json -o "$tmp/o.json"
t 2 "status FR_ESIZE (inputs as filled: d 1x3, X 12x3, b 1x12, Delta 1x4;" fedepm $E/fedepm.case.json -o "$tmp/o.json" --data $E/two_classes.csv --clients 3
echo '{"params": {}}' > "$tmp/nofn.json"
t 2 "takes no data set" soft "$tmp/nofn.json" -o "$tmp/o.json" --data $E/two_classes.csv --clients 3
[ -e "$tmp/o.json" ] && bad "a failed certification wrote its output" || ok

echo "certify-test: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
