#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fedref conform against the example adapters (docs/CONFORM.md):
#   - the Python adapter (examples/conform_adapter.py, standard library) and
#     the C adapter on libfedfast (examples/conform_adapter.c) pass every
#     case they support, on every committed vector file;
#   - each deliberately wrong variant of the Python adapter fails exactly
#     the cases it breaks: the ids are read from the JSON report and
#     compared with the ids derived here from the vector files themselves
#     (sign of zero, one ulp past the tolerance, a missed domain error, a
#     crash, a hang, a line that is not JSON);
#   - the results-file mode gives the same verdicts as the live one;
#   - the TAP report is accepted by prove, the JUnit report parsed by
#     python3-junitparser (skipped, with the reason, when it is absent),
#     both with the JSON report's counts.
# Usage: sh ci/conform-test.sh build/bin/fedref [CC [FLAGS]]
#   (FLAGS: what the C adapter needs to link against that tree's
#   libfedfast.a, e.g. the sanitizer flags of build/asan)
set -eu
FEDREF=$1
CC=${2:-${CC:-cc}}
FLAGS=${3:-}
BUILD=$(dirname "$(dirname "$FEDREF")")
PY=${FEDREF_PYTHON3:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "conform-test: ok: $1"; }
bad() { echo "conform-test: FAIL: $1" >&2; fails=$((fails + 1)); }

# conform's exit status, without set -e stopping at 1
run() { set +e; "$@"; st=$?; set -e; }

# the ids of the cases with result "fail" in a JSON report, "function:id" sorted
failed_ids() {
  "$PY" -c 'import json,sys
r=json.load(open(sys.argv[1]))
print(" ".join(sorted("%s:%d" % (c["function"], c["id"]) for c in r["results"] if c["result"] == "fail")))' "$1"
}

# the cases a wrong variant breaks, derived from the vector files alone
expected_ids() {
  "$PY" - "$1" vectors <<'EOF'
import json, sys
from fractions import Fraction
kind, vdir = sys.argv[1], sys.argv[2]
def load(fn):
    d = json.load(open("%s/%s.json" % (vdir, fn)))
    return [(g["params"], c) for g in d["groups"] for c in g["cases"]]
def num(s):
    return None if s.lower() in ("nan", "inf", "-inf", "+inf") else Fraction(s)
def ok(c):
    return c.get("result", "valid") == "valid"
out = []
if kind == "zero-sign":      # soft of a negative t with |t| <= a is +0
    out = ["soft:%d" % c["id"] for p, c in load("soft") if ok(c)
           and any(num(t) is not None and num(t) < 0 and -num(t) <= num(p["a"]) for t in c["input"]["t"])]
elif kind == "ulp":          # one ulp beyond 2^-53 |e| + 2^-1074 unless e is 0 or subnormal
    out = ["soft:%d" % c["id"] for p, c in load("soft") if ok(c)
           and any(abs(num(e)) >= Fraction(1, 2**1022) for e in c["expect"]["soft"])]
elif kind == "domain":       # a finite a < 0 is FR_EDOM
    out = ["soft:%d" % c["id"] for p, c in load("soft") if not ok(c)
           and num(p["a"]) is not None and num(p["a"]) < 0]
elif kind == "crash":        # an even number of rows, at least 2
    out = ["median:%d" % c["id"] for p, c in load("median")
           if len(c["input"]["W"]) >= 2 and len(c["input"]["W"]) % 2 == 0]
elif kind == "hang":
    out = ["laplace_scale:%d" % c["id"] for p, c in load("laplace_scale") if num(p["eps"]) == Fraction(1, 2)]
elif kind == "garbage":
    out = ["ssca_update:%d" % c["id"] for p, c in load("ssca_update") if num(p["gamma"]) == 1]
print(" ".join(sorted(out)))
EOF
}

count() {   # count REPORT files|cases passed|failed|skipped
  "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' "$1" "$2" "$3"
}

ADAPTER="$PY examples/conform_adapter.py"

# 1. the correct Python adapter: every supported case passes, in every format
run "$FEDREF" conform --format json -- $ADAPTER >"$tmp/right.json"
if [ "$st" = 0 ] && [ "$(count "$tmp/right.json" cases failed)" = 0 ] \
   && [ "$(count "$tmp/right.json" cases passed)" -gt 80 ]; then
  ok "python adapter: $(count "$tmp/right.json" cases passed) cases passed, $(count "$tmp/right.json" cases skipped) skipped (unsupported), in $(count "$tmp/right.json" files passed) files"
else
  bad "python adapter: exit $st, $(count "$tmp/right.json" cases failed) failed"
fi

# 2. each wrong variant fails exactly the cases it breaks, among all the
# cases of the functions the adapter implements (it answers every other
# function "unsupported", wrong or not: step 1 covers those)
supported="--function soft --function prox_l1 --function median --function laplace_scale
  --function dp_sens_step --function ssca_ema --function ssca_update"
for kind in zero-sign ulp domain crash hang garbage; do
  filt=$supported
  want=$(expected_ids $kind)
  run "$FEDREF" conform --timeout 2 --format json $filt -- $ADAPTER --wrong $kind >"$tmp/$kind.json" 2>"$tmp/$kind.err"
  got=$(failed_ids "$tmp/$kind.json")
  if [ "$st" = 1 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
    ok "--wrong $kind fails exactly: $got"
  else
    bad "--wrong $kind: exit $st, failed [$got], expected [$want]"
  fi
done
grep -q '"the sign of zero\|, the sign of zero)' "$tmp/zero-sign.json" && ok "the sign of zero is named" \
  || bad "the zero-sign report does not name the sign of zero"
grep -q 'killed by signal 11' "$tmp/crash.json" && ok "a crash is reported with its signal" \
  || bad "the crash report does not name the signal"
grep -q 'no reply within 2 s (timeout)' "$tmp/hang.json" && ok "a hang is reported as a timeout" \
  || bad "the hang report does not say timeout"

# 3. offline: --emit-cases, the adapter on the lines, --results: the same verdicts
"$FEDREF" conform --emit-cases --function soft --function median >"$tmp/cases.jsonl"
"$PY" - "$tmp/cases.jsonl" "$tmp/results.jsonl" <<'EOF'
import json, subprocess, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
p = subprocess.run([sys.executable, "examples/conform_adapter.py", "--wrong", "ulp"],
                   input="".join(json.dumps(r) + "\n" for r in reqs), capture_output=True, text=True, check=True)
with open(sys.argv[2], "w") as out:
    for req, line in zip(reqs, p.stdout.splitlines()):
        rep = json.loads(line)
        rep["function"] = req["function"]      # a results file names the function of each line
        out.write(json.dumps(rep) + "\n")
EOF
run "$FEDREF" conform --format json --function soft --function median --results "$tmp/results.jsonl" >"$tmp/offline.json"
if [ "$st" = 1 ] && [ "$(failed_ids "$tmp/offline.json")" = "$(expected_ids ulp)" ]; then
  ok "--results: the same failures as the live run"
else
  bad "--results: exit $st, failed [$(failed_ids "$tmp/offline.json")]"
fi
head -n 3 "$tmp/results.jsonl" >"$tmp/short.jsonl"
run "$FEDREF" conform --function soft --results "$tmp/short.jsonl" >"$tmp/short.txt"
[ "$st" = 1 ] && grep -q "no result line for this case" "$tmp/short.txt" && ok "a case without a result line fails" \
  || bad "a missing result line: exit $st"
echo 'not json' >"$tmp/garbage.jsonl"
run "$FEDREF" conform --results "$tmp/garbage.jsonl" >/dev/null 2>"$tmp/garbage.err"
[ "$st" = 2 ] && grep -q "garbage.jsonl:1" "$tmp/garbage.err" && ok "a malformed results file is an input error (exit 2)" \
  || bad "a malformed results file: exit $st"

# 3b. an oracle that replies each file's own expected values (and, for an
# invalid case, the status its comment names) passes every case of every
# committed file under --rule certified: every function's fields, shapes,
# booleans and specials go through the reply reader; one value moved by
# 10^-30 (relative) fails certified and still passes tol
"$PY" - vectors "$tmp/oracle.jsonl" "$tmp/moved.jsonl" <<'EOF'
import glob, json, re, sys
vdir, out, moved = sys.argv[1:4]
with open(out, "w") as o, open(moved, "w") as m:
    for path in sorted(glob.glob(vdir + "/*.json")):
        if path.endswith("/index.json"):
            continue                    # the index, not a vector file
        d = json.load(open(path))
        for g in d["groups"]:
            for c in g["cases"]:
                r = {"function": d["function"], "id": c["id"]}
                if c.get("result") == "invalid":
                    r["error"] = re.search(r"status (FR_[A-Z]+)", c["comment"]).group(1)
                else:
                    r["output"] = c["expect"]
                o.write(json.dumps(r) + "\n")
                if d["function"] == "soft" and c["id"] == 1:
                    r["output"] = {"soft": ["2.000000000000000000000000000002"] + c["expect"]["soft"][1:]}
                if d["function"] == "fedpdm_thm3" and c["id"] == 1:      # three wrong fields
                    e = dict(c["expect"])
                    e["b"] = e["b"][:6] + ["1", "2"]
                    e["theta2"] = "-" + e["theta2"]
                    e["l_low"] = "true" if e["l_low"] == "false" else "false"
                    r["output"] = e
                m.write(json.dumps(r) + "\n")
EOF
ncases=$("$FEDREF" conform --emit-cases | wc -l)
run "$FEDREF" conform --rule certified --format json --results "$tmp/oracle.jsonl" >"$tmp/oracle.json"
if [ "$st" = 0 ] && [ "$(count "$tmp/oracle.json" cases failed)" = 0 ] && [ "$(count "$tmp/oracle.json" cases skipped)" = 0 ] \
   && [ "$(count "$tmp/oracle.json" cases passed)" = "$ncases" ]; then
  ok "the files' own values pass under --rule certified: $ncases cases, $(count "$tmp/oracle.json" files passed) files"
else
  bad "the files' own values under --rule certified: exit $st, $(count "$tmp/oracle.json" cases failed) failed of $ncases"
fi
# read to nearest binary64 (--rule tol), the same values fail only the
# unsafe side of a bound (an upper bound must be rounded up, a lower one
# down)
run "$FEDREF" conform --rule tol --format json --results "$tmp/oracle.jsonl" >"$tmp/oracle-tol.json"
other=$("$PY" -c 'import json,sys
r=json.load(open(sys.argv[1]))["results"]
unsafe=(", below an upper bound)", ", above a lower bound)")
print(sum(1 for c in r if c["result"] == "fail" and not all(any(u in m for u in unsafe) for m in c["messages"])))' "$tmp/oracle-tol.json")
if [ "$st" = 1 ] && [ "$other" = 0 ]; then
  ok "the files' values read to nearest fail only on the unsafe side of a bound ($(count "$tmp/oracle-tol.json" cases failed) cases)"
else
  bad "the files' values under --rule tol: exit $st, $other cases fail otherwise"
fi
run "$FEDREF" conform --rule certified --format json --function soft --results "$tmp/moved.jsonl" >"$tmp/moved.json"
st1=$st
run "$FEDREF" conform --rule tol --format json --function soft --results "$tmp/moved.jsonl" >"$tmp/moved-tol.json"
if [ "$st1" = 1 ] && [ "$(failed_ids "$tmp/moved.json")" = "soft:1" ] && grep -q "certified 130 bits" "$tmp/moved.json" && [ "$st" = 0 ]; then
  ok "a value 10^-30 off fails --rule certified (soft:1) and passes --rule tol"
else
  bad "a value 10^-30 off: certified exit $st1 [$(failed_ids "$tmp/moved.json")], tol exit $st"
fi

run "$FEDREF" conform --function fedpdm_thm3 --id 1 --format json --results "$tmp/moved.jsonl" >"$tmp/thm3.json"
msgs=$("$PY" -c 'import json,sys; print(" ".join(m.split(":")[0] for m in json.load(open(sys.argv[1]))["results"][0]["messages"]))' "$tmp/thm3.json")
if [ "$st" = 1 ] && [ "$msgs" = "b[6] theta2 l_low" ] && grep -q "2 of its 8 values wrong" "$tmp/thm3.json"; then
  ok "every wrong field of a case is reported: $msgs"
else
  bad "three wrong fields of fedpdm_thm3 id 1: exit $st, reported [$msgs]"
fi

# 4. TAP through prove, JUnit through junitparser, with the JSON counts
# (the failing reports from the results file of step 3: no program to run)
offline="--function soft --function median --results $tmp/results.jsonl"
if command -v prove >/dev/null 2>&1; then
  "$FEDREF" conform --format tap -- $ADAPTER >"$tmp/right.tap"
  if prove -e cat "$tmp/right.tap" >"$tmp/prove.out" 2>&1; then ok "prove accepts the TAP of a passing run"
  else bad "prove rejects the TAP of a passing run: $(tail -n 3 "$tmp/prove.out")"; fi
  run "$FEDREF" conform --format tap $offline >"$tmp/ulp.tap"
  nf=$(count "$tmp/offline.json" cases failed)
  nt=$(count "$tmp/offline.json" cases total)
  if ! prove -e cat "$tmp/ulp.tap" >"$tmp/prove2.out" 2>&1 && grep -q "Failed $nf/$nt subtests" "$tmp/prove2.out"; then
    ok "prove reads the TAP of a failing run: $nf of $nt failed"
  else
    bad "prove on the failing TAP: $(grep -i failed "$tmp/prove2.out" | head -n 2)"
  fi
else
  echo "conform-test: skipped: the TAP check needs prove (Debian's perl; ci/install-deps.sh installs it)"
fi
if "$PY" -c 'import junitparser' 2>/dev/null; then
  run "$FEDREF" conform --format junit $offline >"$tmp/ulp.xml"
  "$PY" - "$tmp/ulp.xml" "$tmp/offline.json" <<'EOF' && ok "junitparser reads the JUnit report with the JSON counts" || bad "junitparser on the JUnit report"
import json, sys
from junitparser import JUnitXml, Failure, Skipped
xml, rep = JUnitXml.fromfile(sys.argv[1]), json.load(open(sys.argv[2]))
cases = [(s.name, c) for s in xml for c in s]
failed = sorted("%s:%s" % (c.classname, c.name.split()[1]) for _, c in cases
                if any(isinstance(r, Failure) for r in c.result))
skipped = sum(1 for _, c in cases if any(isinstance(r, Skipped) for r in c.result))
want = sorted("%s:%d" % (r["function"], r["id"]) for r in rep["results"] if r["result"] == "fail")
assert len(cases) == rep["cases"]["total"], (len(cases), rep["cases"])
assert failed == want, (failed, want)
assert skipped == rep["cases"]["skipped"], skipped
assert len(list(xml)) == rep["files"]["total"]
EOF
else
  echo "conform-test: skipped: the JUnit check needs python3-junitparser (ci/install-deps.sh installs it)"
fi

# 5. the C adapter on libfedfast
# shellcheck disable=SC2086,SC2046
if "$CC" -std=c17 -O2 -ffp-contract=off $FLAGS -Iinclude examples/conform_adapter.c \
     "$BUILD/lib/libfedfast.a" $(pkg-config --cflags --libs jansson lapacke blas) -lm -o "$tmp/c_adapter" 2>"$tmp/cc.err"; then
  run "$FEDREF" conform --format json -- "$tmp/c_adapter" >"$tmp/c.json"
  if [ "$st" = 0 ] && [ "$(count "$tmp/c.json" cases passed)" -gt "$(count "$tmp/right.json" cases passed)" ]; then
    ok "C adapter (libfedfast): $(count "$tmp/c.json" cases passed) cases passed in $(count "$tmp/c.json" files passed) files"
  else
    bad "C adapter: exit $st, $(count "$tmp/c.json" cases failed) failed"
  fi
else
  bad "the C adapter does not build: $(head -n 5 "$tmp/cc.err")"
fi

# 6. usage errors
run "$FEDREF" conform --function no_such -- true 2>/dev/null; [ "$st" = 2 ] && ok "an unknown function is a usage error" || bad "unknown function: exit $st"
run "$FEDREF" conform -- /nonexistent/program 2>/dev/null; [ "$st" = 2 ] && ok "a program that cannot run is exit 2" || bad "no program: exit $st"
run "$FEDREF" conform --emit-cases --results x 2>/dev/null; [ "$st" = 2 ] && ok "two sources are a usage error" || bad "two sources: exit $st"

[ "$fails" = 0 ] || { echo "conform-test: $fails failed" >&2; exit 1; }
echo "conform-test: all passed"
