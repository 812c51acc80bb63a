#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The reports of `fedref vectors check --format text|json|tap|junit`
# (docs/VECTORS.md, "Checking") and of `fedref audit --format` (the same
# writers; 5. below), each on a passing committed file, on a
# copy with two wrong fields in one case (both reported, for each impl)
# and on a rejected file:
#   - the case counts are the file's own (read here with python3's json);
#   - json: the failing case alone fails, its messages name both fields
#     for ref and for fast; the rejected file is listed;
#   - tap: accepted by prove on the passing file, "Failed 1/N" on the
#     other (skipped, with the reason, without prove);
#   - junit: read by python3-junitparser with the same counts (skipped,
#     with the reason, when it is absent).
# Usage: sh ci/vectors-report-test.sh build/bin/fedref
set -eu
FEDREF=$1
PY=${FEDREF_PYTHON3:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "vectors-report-test: ok: $1"; }
bad() { echo "vectors-report-test: FAIL: $1" >&2; fails=$((fails + 1)); }
run() { set +e; "$@"; st=$?; set -e; }

good=vectors/ssca_stepsize.json
# the copy: the first case's rho_fail and gamma_fail (exact integers) off by one
"$PY" - "$good" "$tmp/two.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["groups"][0]["cases"][0]["expect"]
for k in ("rho_fail", "gamma_fail"):
    e[k] = str(int(e[k]) + 1)
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
n=$("$PY" -c 'import json,sys; print(sum(len(g["cases"]) for g in json.load(open(sys.argv[1]))["groups"]))' "$good")
id1=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["groups"][0]["cases"][0]["id"])' "$good")

# 1. text: the summary counts cases and files apart; every wrong field a line
run "$FEDREF" vectors check "$good" >"$tmp/good.txt"
if [ "$st" -eq 0 ] && [ "$(cat "$tmp/good.txt")" = "$n cases passed, 0 failed, in 1 file (0 rejected)" ]; then
  ok "text, passing: '$(cat "$tmp/good.txt")'"
else bad "text, passing: exit $st: $(tail -n 2 "$tmp/good.txt")"; fi
run "$FEDREF" vectors check "$tmp/two.json" >"$tmp/two.txt"
lines=$(grep -c "^$tmp/two.json: id $id1: \(rho\|gamma\)_fail: \(ref\|fast\) got" "$tmp/two.txt" || true)
if [ "$st" -eq 1 ] && [ "$lines" -eq 4 ] \
   && tail -n 1 "$tmp/two.txt" | grep -qx "$((n - 1)) cases passed, 1 failed, in 1 file (0 rejected)"; then
  ok "text, two wrong fields: both reported for ref and fast (4 lines), one case failed"
else bad "text, two wrong fields: exit $st, $lines lines: $(cat "$tmp/two.txt")"; fi
# a field of many values: its first wrong value shown, the count of wrong ones
"$PY" - vectors/soft.json "$tmp/soft.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["groups"][0]["cases"][0]["expect"]["soft"]
assert len(e) == 5 and e[0] == "2" and e[1] == "-2", e
e[0], e[1] = "3", "-3"
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
run "$FEDREF" vectors check --impl ref "$tmp/soft.json" >"$tmp/soft.txt"
if [ "$st" -eq 1 ] && grep -qx "$tmp/soft.json: id 1: soft\[0\]: ref got 2 expected 3 (certified 130 bits); 2 of its 5 values wrong" "$tmp/soft.txt"; then
  ok "text, two wrong values of one field: the first shown, 2 of 5 counted"
else bad "text, two wrong values of one field: exit $st: $(cat "$tmp/soft.txt")"; fi
run "$FEDREF" vectors check "$good" "$tmp/missing.json" >"$tmp/rej.txt" 2>/dev/null
if [ "$st" -eq 2 ] && [ "$(cat "$tmp/rej.txt")" = "$n cases passed, 0 failed, in 2 files (1 rejected)" ]; then
  ok "text, a rejected file: exit 2, counted apart"
else bad "text, a rejected file: exit $st: $(cat "$tmp/rej.txt")"; fi

# 2. json: one object, per-case verdicts with the failing fields
run "$FEDREF" vectors check --format json "$good" >"$tmp/good.json"; s1=$st
run "$FEDREF" vectors check --format json "$tmp/two.json" >"$tmp/two.json.out"; s2=$st
run "$FEDREF" vectors check --format json "$good" "$tmp/missing.json" >"$tmp/rej.json" 2>/dev/null; s3=$st
if [ "$s1$s2$s3" = 012 ] && "$PY" - "$tmp/good.json" "$tmp/two.json.out" "$tmp/rej.json" "$n" "$id1" <<'EOF'
import json, sys
good, two, rej = (json.load(open(p)) for p in sys.argv[1:4])
n, id1 = int(sys.argv[4]), int(sys.argv[5])
assert good["cases"] == {"total": n, "passed": n, "failed": 0, "skipped": 0}, good["cases"]
assert good["files"] == {"total": 1, "passed": 1, "failed": 0, "skipped": 0, "rejected": 0}, good["files"]
assert len(good["results"]) == n and all(r["result"] == "pass" and not r["messages"] for r in good["results"])
assert two["cases"]["failed"] == 1 and two["files"]["failed"] == 1, (two["cases"], two["files"])
bad = [r for r in two["results"] if r["result"] == "fail"]
assert [r["id"] for r in bad] == [id1], bad
want = {(f, i) for f in ("rho_fail", "gamma_fail") for i in ("ref", "fast")}
got = {(m.split(":")[0], m.split()[1]) for m in bad[0]["messages"]}
assert got == want and len(bad[0]["messages"]) == 4, bad[0]["messages"]
assert rej["files"]["rejected"] == 1 and rej["files"]["total"] == 2, rej["files"]
assert [x["file"] for x in rej["rejected"]] == ["missing.json"], rej["rejected"]
EOF
then ok "json: $n cases counted; the two wrong fields of id $id1 for ref and fast; the rejected file listed"
else bad "json reports (exit $s1 $s2 $s3)"; fi

# 3. tap through prove
if command -v prove >/dev/null 2>&1; then
  "$FEDREF" vectors check --format tap "$good" >"$tmp/good.tap"
  if prove -e cat "$tmp/good.tap" >"$tmp/prove.out" 2>&1; then ok "tap: prove accepts the passing run"
  else bad "tap: prove rejects the passing run: $(tail -n 3 "$tmp/prove.out")"; fi
  run "$FEDREF" vectors check --format tap "$tmp/two.json" >"$tmp/two.tap"
  if ! prove -e cat "$tmp/two.tap" >"$tmp/prove2.out" 2>&1 && grep -q "Failed 1/$n subtests" "$tmp/prove2.out" \
     && grep -q "^    rho_fail: fast got" "$tmp/two.tap" && grep -q "^    gamma_fail: ref got" "$tmp/two.tap"; then
    ok "tap: prove reads the failing run, 1 of $n failed, both fields in its block"
  else bad "tap on the failing run: $(grep -i failed "$tmp/prove2.out" | head -n 2)"; fi
else
  echo "vectors-report-test: skipped: the TAP check needs prove (Debian's perl; ci/install-deps.sh installs it)"
fi

# 4. junit through junitparser
if "$PY" -c 'import junitparser' 2>/dev/null; then
  "$FEDREF" vectors check --format junit "$good" >"$tmp/good.xml"
  run "$FEDREF" vectors check --format junit "$tmp/two.json" "$tmp/missing.json" >"$tmp/two.xml" 2>/dev/null
  if "$PY" - "$tmp/good.xml" "$tmp/two.xml" "$n" "$id1" <<'EOF'
import sys
from junitparser import JUnitXml, Failure, Error
good, two = JUnitXml.fromfile(sys.argv[1]), JUnitXml.fromfile(sys.argv[2])
n, id1 = int(sys.argv[3]), int(sys.argv[4])
cases = [c for s in good for c in s]
assert len(cases) == n and all(not c.result for c in cases), len(cases)
suites = list(two)
assert [s.name for s in suites] == ["missing.json", "two.json"], [s.name for s in suites]
err = [r for c in suites[0] for r in c.result]
assert len(err) == 1 and isinstance(err[0], Error), err
failed = [(c.name, r) for c in suites[1] for r in c.result if isinstance(r, Failure)]
assert [f[0] for f in failed] == ["id %d" % id1], failed
text = failed[0][1].text
assert all(f in text for f in ("rho_fail: ref", "gamma_fail: ref", "rho_fail: fast", "gamma_fail: fast")), text
EOF
  then ok "junit: junitparser reads $n cases; the failure names both fields; the rejected file an error"
  else bad "junit reports"; fi
else
  echo "vectors-report-test: skipped: the JUnit check needs python3-junitparser (ci/install-deps.sh installs it)"
fi

# 5. fedref audit --format: the same writers.  --function keeps it to a
# second: soft and ssca_stepsize (their vectors and sweeps; no proof checks,
# no module sections); then a copy of the vectors with ssca_stepsize's two
# wrong fields and median.json truncated (rejected)
av=$tmp/av
mkdir "$av"
cp vectors/soft.json "$av/soft.json"
cp "$tmp/two.json" "$av/ssca_stepsize.json"
head -c 300 vectors/median.json > "$av/median.json"
nsoft=$("$PY" -c 'import json,sys; print(sum(len(g["cases"]) for g in json.load(open(sys.argv[1]))["groups"]))' vectors/soft.json)
aud() { "$FEDREF" audit --quick --sweep 20 --function soft --function ssca_stepsize "$@"; }
run aud --format json >"$tmp/aud.json" 2>/dev/null; s1=$st
run aud --format json --vectors "$av" --function median >"$tmp/aud2.json" 2>/dev/null; s2=$st
if [ "$s1$s2" = 01 ] && "$PY" - "$tmp/aud.json" "$tmp/aud2.json" "$n" "$nsoft" "$id1" <<'EOF'
import json, sys
good, two = (json.load(open(p)) for p in sys.argv[1:3])
n, nsoft, id1 = (int(x) for x in sys.argv[3:6])
assert good["files"] == {"total": 2, "passed": 2, "failed": 0, "skipped": 0, "rejected": 0}, good["files"]
assert good["cases"] == {"total": n + nsoft, "passed": n + nsoft, "failed": 0, "skipped": 0}, good["cases"]
assert good["checks"] == {"total": 2, "passed": 2, "failed": 0, "skipped": 0}, good["checks"]
assert [(c["group"], c["check"], c["result"]) for c in good["check_results"]] == \
    [("sweep", "soft", "pass"), ("sweep", "ssca_stepsize", "pass")], good["check_results"]
assert two["files"] == {"total": 3, "passed": 1, "failed": 1, "skipped": 0, "rejected": 1}, two["files"]
assert two["cases"]["failed"] == 1 and two["cases"]["total"] == n + nsoft, two["cases"]
assert [x["file"] for x in two["rejected"]] == ["median.json"] and "malformed JSON" in two["rejected"][0]["message"]
bad = [r for r in two["results"] if r["result"] == "fail"]
assert [(r["file"], r["id"]) for r in bad] == [("ssca_stepsize.json", id1)], bad
want = {(f, i) for f in ("rho_fail", "gamma_fail") for i in ("ref", "fast")}
got = {(m.split(":")[0], m.split()[1]) for m in bad[0]["messages"]}
assert got == want and len(bad[0]["messages"]) == 4, bad[0]["messages"]
assert two["checks"]["passed"] == 3, two["checks"]             # the median sweep runs without its file
EOF
then ok "audit json: files, cases and checks counted apart; the two wrong fields for ref and fast; the rejected file"
else bad "audit json reports (exit $s1 $s2)"; fi
if command -v prove >/dev/null 2>&1; then
  aud --format tap >"$tmp/aud.tap" 2>/dev/null
  run aud --format tap --vectors "$av" --function median >"$tmp/aud2.tap" 2>/dev/null
  total=$((n + nsoft + 3 + 1))                                 # cases, 3 sweeps, the rejected file
  if prove -e cat "$tmp/aud.tap" >"$tmp/aprove.out" 2>&1 \
     && ! prove -e cat "$tmp/aud2.tap" >"$tmp/aprove2.out" 2>&1 && grep -q "Failed 2/$total subtests" "$tmp/aprove2.out" \
     && grep -q "^    gamma_fail: fast got" "$tmp/aud2.tap" && grep -q "^ok [0-9]* - sweep soft$" "$tmp/aud2.tap"; then
    ok "audit tap: prove accepts the passing audit and reads the failing one (2 of $total failed)"
  else bad "audit tap: $(tail -n 3 "$tmp/aprove.out") / $(grep -i failed "$tmp/aprove2.out" | head -n 2)"; fi
fi
if "$PY" -c 'import junitparser' 2>/dev/null; then
  run aud --format junit --vectors "$av" --function median >"$tmp/aud2.xml" 2>/dev/null
  if [ "$st" -eq 1 ] && "$PY" - "$tmp/aud2.xml" "$id1" <<'EOF'
import sys
from junitparser import JUnitXml, Failure, Error
xml = JUnitXml.fromfile(sys.argv[1])
suites = {s.name: s for s in xml}
assert list(suites) == ["median.json", "soft.json", "ssca_stepsize.json", "sweep"], list(suites)
assert [type(r) for c in suites["median.json"] for r in c.result] == [Error]
assert all(not c.result for c in suites["soft.json"])
failed = [(c.name, r) for c in suites["ssca_stepsize.json"] for r in c.result if isinstance(r, Failure)]
assert [f[0] for f in failed] == ["id %s" % sys.argv[2]], failed
assert all(f in failed[0][1].text for f in ("rho_fail: ref", "gamma_fail: fast")), failed[0][1].text
assert sorted(c.name for c in suites["sweep"]) == ["median", "soft", "ssca_stepsize"]
EOF
  then ok "audit junit: junitparser reads the suites, the failure with both fields, the rejected file an error"
  else bad "audit junit report (exit $st)"; fi
fi

if [ "$fails" -ne 0 ]; then echo "vectors-report-test: $fails failed" >&2; exit 1; fi
echo "vectors-report-test: all passed"
