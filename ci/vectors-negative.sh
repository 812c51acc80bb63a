#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end checks that `fedref vectors check` fails loudly on bad files:
# a changed expected digit, a truncated file, unknown function/field, a
# non-numeric string, a ragged matrix, a valid case marked invalid, a
# number written as a JSON number, a non-finite expected value or tolerance,
# an unbounded certified_bits, an unbounded run, a flipped or misspelt
# boolean, a choice not in its list, an optional field present or missing
# against its condition, an exact integer off by one or not an integer, a
# value below an upper bound, an exact eps2 one ulp off, a flag not declared
# in "notes", a note no case uses.  Each must exit non-zero
# with a clear message, a rejected file counting as failed; the unmodified
# file must pass.  Usage: vectors-negative.sh CLI
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass=0

# expect CODE PATTERN FILE: run the checker (--impl $impl when impl is
# set), compare exit code and output.
impl=
expect() {
  code=$1; pat=$2; file=$3; what=$4
  out=$(timeout 120 "$cli" vectors check ${impl:+--impl "$impl"} "$file" 2>&1); rc=$?
  if [ "$rc" -eq "$code" ] && printf '%s' "$out" | grep -q -- "$pat"; then
    pass=$((pass + 1))
  else
    fails=$((fails + 1))
    echo "vectors-negative: FAIL: $what: exit $rc (wanted $code), output:"
    printf '%s\n' "$out" | tail -3
  fi
}

src=vectors/ens.json
cp "$src" "$tmp/ok.json"
expect 0 "0 failed" "$tmp/ok.json" "unmodified file"

# the expected value 3 of case 1 becomes 3.0000001 (beyond tol)
sed '0,/"w": \[/{s/"w": \[/"w": [/}' "$src" | awk 'BEGIN{d=0} /"expect"/ && !d {e=1} e && /"3"/ && !d {sub(/"3"/, "\"3.0000001\""); d=1} {print}' > "$tmp/digit.json"
expect 1 "id 1: w: .* expected 3.0000001" "$tmp/digit.json" "changed expected digit"

# the 30th significant digit of case 9 changed: beyond binary64 (fast passes)
# but beyond the certified 130 bits, so ref must catch it
sed 's/"3.333333333333333333044212754003865484265"/"3.333333333333333333044212754013865484265"/' "$src" > "$tmp/digit31.json"
expect 1 "ref got" "$tmp/digit31.json" "changed 31st digit (ref, certified bits)"

head -c 700 "$src" > "$tmp/trunc.json"
expect 2 "malformed JSON: .*:[0-9]*:[0-9]*)" "$tmp/trunc.json" "truncated file"

sed '0,/"changelog": \[/s/"changelog": \[/"changelog": [7, /' vectors/ssca_alg2.json > "$tmp/log.json"
expect 2 'must be an array of strings' "$tmp/log.json" "changelog not an array of strings"

sed 's/"function": "ens"/"function": "enz"/' "$src" > "$tmp/fn.json"
expect 2 'unknown function "enz"' "$tmp/fn.json" "unknown function"

sed '0,/"comment": "the printed/s/"comment": "the printed/"commment": "the printed/' "$src" > "$tmp/field.json"
expect 2 'unknown field "commment"' "$tmp/field.json" "unknown field"

sed '0,/"10"/s/"10"/"ten"/' "$src" > "$tmp/nonnum.json"
expect 2 'non-numeric string "ten"' "$tmp/nonnum.json" "non-numeric string"

sed '0,/"10"/s/"10"/10/' "$src" > "$tmp/jsonnum.json"
expect 2 'must be a decimal string' "$tmp/jsonnum.json" "JSON number instead of string"

# ragged matrix: the first row of case 5 ("0", "1") loses an entry
awk 'BEGIN{d=0} /"ties around/ {t=1} t && !d && /"0",$/ {getline nxt; d=1; next} {print}' "$src" > "$tmp/ragged.json"
expect 2 "mismatched sizes" "$tmp/ragged.json" "ragged matrix"

# a valid case relabelled invalid (its expect dropped): must fail
sed '0,/"expect": {/s/"expect": {/"result": "invalid", "x_expect": {/' "$src" > "$tmp/inv.json"
expect 2 'unknown field "x_expect"' "$tmp/inv.json" "invalid case with stray field"

expect 2 "cannot read file" "$tmp/missing.json" "missing file"

# a rejected file is counted apart (exit 2): the summary names it
expect 2 "^0 cases passed, 0 failed, in 1 file (1 rejected)$" "$tmp/missing.json" "rejected file counted"
ncases=$("$cli" vectors check "$tmp/ok.json" 2>/dev/null | sed -n 's/^\([0-9]*\) cases passed, 0 failed, in 1 file (0 rejected)$/\1/p')
out=$(timeout 120 "$cli" vectors check "$tmp/ok.json" "$tmp/missing.json" 2>&1); rc=$?
if [ -n "$ncases" ] && [ "$rc" -eq 2 ] \
   && printf '%s' "$out" | grep -q "^$ncases cases passed, 0 failed, in 2 files (1 rejected)$"; then
  pass=$((pass + 1))
else
  fails=$((fails + 1)); echo "vectors-negative: FAIL: good and rejected file: exit $rc: $out" | tail -3
fi

# an expected special (nan, inf, -inf) is met only by the same special (ref
# used to pass them all): on ens, whose result is finite, the case fails;
# a numeral beyond MPFR's exponent range is rejected
for v in nan inf -inf 1e99999999999999999999; do
  awk -v v="$v" 'BEGIN{d=0} /"expect"/ && !d {e=1} e && /"3"/ && !d {sub(/"3"/, "\"" v "\""); d=1} {print}' \
    "$src" > "$tmp/exp.json"
  case $v in
    1e*) expect 2 "an expected value must be a number or nan, inf, -inf, found \"$v\".*expect.w\[0\]" \
           "$tmp/exp.json" "expected $v" ;;
    *) expect 1 "id 1: w: .*expected $v" "$tmp/exp.json" "expected $v" ;;
  esac
done

# tolerances must be finite and >= 0 (a NaN one passed everything for fast)
for v in nan -1 inf; do
  sed "0,/\"rel\": \"0\"/s//\"rel\": \"$v\"/" "$src" > "$tmp/tol.json"
  expect 2 "a tolerance must be a finite number >= 0, found \"$v\".*tol.rel" "$tmp/tol.json" "tol.rel $v"
done

# certified_bits is bounded (65408 took 27 s for one case)
sed '0,/"certified_bits": 130/s//"certified_bits": 65408/' "$src" > "$tmp/bits.json"
expect 2 '"certified_bits" must be an integer in \[1, 256\]' "$tmp/bits.json" "certified_bits 65408"

# run counts are bounded: FR_ESIZE at once instead of minutes or all memory
for kv in 'k0 9007199254740992' 'ell 1000000000' 'rounds 1000000000'; do
  set -- $kv
  sed "0,/\"$1\": \"[0-9]*\"/s//\"$1\": \"$2\"/" vectors/sfedprox.json > "$tmp/run.json"
  expect 1 "id 1: result: ref got status -3 .*expected success" "$tmp/run.json" "run with $1 = $2"
done

# booleans (VK_BOOL, ssca_stepsize): a flipped value fails ref and fast (no
# tolerance applies); any spelling but the strings "true" and "false" (a
# JSON literal, another case, a digit, a number field holding "true")
# rejects the file
bsrc=vectors/ssca_stepsize.json
cp "$bsrc" "$tmp/bool_ok.json"
expect 0 "0 failed" "$tmp/bool_ok.json" "unmodified boolean file"
sed '0,/"gamma_conditions": "false"/s//"gamma_conditions": "true"/' "$bsrc" > "$tmp/bool.json"
expect 1 "id 1: gamma_conditions: fast got false expected true" "$tmp/bool.json" "flipped boolean"
for v in '"False"' 'false' '"0"' '""' 'null'; do
  sed "0,/\"gamma_conditions\": \"false\"/s//\"gamma_conditions\": $v/" "$bsrc" > "$tmp/bool.json"
  expect 2 'a boolean must be the string "true" or "false", found .*expect.gamma_conditions' \
    "$tmp/bool.json" "boolean written $v"
done
sed '0,/"rho_fail": "0"/s//"rho_fail": "true"/' "$bsrc" > "$tmp/bool.json"
expect 2 'non-numeric string "true".*expect.rho_fail' "$tmp/bool.json" "a boolean in a number field"

# field kinds (docs/VECTORS.md): an exact integer (VC_INT) is compared
# exactly whatever tol and certified_bits say, and must be written as an
# integer; ref reads its inputs as the binary64 they are and runs at >= 162
# bits whatever certified_bits says (alpha1 = 1 + 2^-52 is a summable rho,
# rho_fail 8: written 0 with certified_bits 1 it passed --impl ref, ref
# reading alpha1 at 33 bits as 1); an upper bound (VC_UPPER) fails below
# expected though within tol; kkt_residual's eps2 (VC_EXACT) never gets
# eps1's abs tolerance.  Each passed the checker before.
cat > "$tmp/int.json" <<'EOF'
{"schema": "fedref-vectors/1", "function": "ssca_stepsize", "groups": [{"params": {"a1": "0.5",
 "alpha1": "1.0000000000000002220446049250313080847263336181640625", "a2": "0.5", "alpha2": "0.75"},
 "cases": [{"id": 1, "input": {}, "expect": {"rho_conditions": "false", "gamma_conditions": "false",
 "rho_fail": "0", "gamma_fail": "32"}, "tol": {"rel": "0", "abs": "0"}, "certified_bits": 1}]}]}
EOF
impl=ref
expect 1 "id 1: rho_fail: ref got 8 expected 0 (an exact integer)" "$tmp/int.json" "integer verdict at certified_bits 1"
sed 's/"rho_fail": "0"/"rho_fail": "8"/' "$tmp/int.json" > "$tmp/int8.json"
expect 0 "1 case passed, 0 failed" "$tmp/int8.json" "the true verdict at certified_bits 1"
impl=fast
sed -e '0,/"rho_fail": "8"/s//"rho_fail": "9"/' -e 's/"rel": "0"/"rel": "1e300"/g' \
    -e 's/"abs": "0"/"abs": "1e300"/g' "$bsrc" > "$tmp/int.json"
expect 1 "rho_fail: fast got 8 expected 9 (an exact integer)" "$tmp/int.json" "bitmask off by one, huge tol"
impl=
sed '0,/"rho_fail": "8"/s//"rho_fail": "8.5"/' "$bsrc" > "$tmp/int.json"
expect 2 'an exact integer field must be an integer of at most 40 digits, found "8.5".*expect.rho_fail' \
  "$tmp/int.json" "a fraction in an integer field"
cat > "$tmp/upper.json" <<'EOF'
{"schema": "fedref-vectors/1", "function": "fedpdm_compose", "groups": [{"params": {"sigma":
 "48.44805262605388662677796673960983753204345703125", "s": "1", "T": "300", "delta":
 "0.000010000000000000000818030539140313095458623138256371021270751953125"}, "cases": [{"id": 1,
 "input": {}, "expect": {"basic": "26.83707833",
 "adv": "10.59654872770641882678785872591425925439"}, "tol": {"rel": "3.7252902984619141e-9",
 "abs": "8.289046058458095e-317"}, "certified_bits": 130}]}]}
EOF
impl=fast
expect 1 "basic: fast got 26.83707831[0-9]* expected 26.83707833 .*below an upper bound" "$tmp/upper.json" \
  "fast below an upper bound, within tol"
impl=ref
sed -e 's/"basic": "[0-9.]*"/"basic": "26.8370783079043017828657985008265892389174605672866"/' \
    -e 's/"certified_bits": 130/"certified_bits": 64/' "$tmp/upper.json" > "$tmp/upper_ref.json"
expect 1 "basic: ref got .*below an upper bound" "$tmp/upper_ref.json" "ref below an upper bound, within 2^-64"
impl=fast
cat > "$tmp/eps2.json" <<'EOF'
{"schema": "fedref-vectors/1", "function": "kkt_residual", "groups": [{"params": {"h": "zero"},
 "cases": [{"id": 1, "input": {"grad_f": ["1", "-2"], "jac_c": [["0.5"], ["1"]], "c": ["-3"],
 "mu": ["2"], "w": ["7", "-7"]}, "expect": {"eps1": "2", "eps2": "3.000000000000000444089209850062616169453"},
 "tol": {"rel": "7.8886090522101181e-31", "abs": "1e300"}, "certified_bits": 130}]}]}
EOF
expect 1 "eps2: fast got 3 expected 3.000000000000000444089209850062616169453 (exact)" "$tmp/eps2.json" \
  "eps2 one ulp off, eps1's huge abs tol"
impl=

# choices and optional fields (kkt_residual: h is "zero" | "l1" | "box",
# gamma only with h = "l1", lo and hi only with h = "box")
csrc=vectors/kkt_residual.json
cp "$csrc" "$tmp/choice_ok.json"
expect 0 "0 failed" "$tmp/choice_ok.json" "unmodified choice file"
for v in '"L1"' '"l1 "' '1' '""' 'null'; do
  sed "0,/\"h\": \"l1\"/s//\"h\": $v/" "$csrc" > "$tmp/choice.json"
  expect 2 'a choice must be one of the strings "zero", "l1", "box", found .*params.h' \
    "$tmp/choice.json" "choice written $v"
done
sed '0,/"h": "l1"/s//"h": "zero"/' "$csrc" > "$tmp/choice.json"
expect 2 'field "gamma" is only allowed when h is "l1"' "$tmp/choice.json" "optional field with the wrong choice"
sed '0,/"gamma": "0.5"/s//"gamma_": "0.5"/' "$csrc" > "$tmp/choice.json"
expect 2 'unknown field "gamma_"' "$tmp/choice.json" "misspelt optional field"
python3 - "$csrc" "$tmp/choice.json" <<'PY' 2>/dev/null || sed 's/"h": "box",/"h": "box", "junk": "1",/' "$csrc" > "$tmp/choice.json"
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["groups"]:
    if g["params"].get("h") == "box":
        del g["params"]["hi"]
        break
json.dump(d, open(sys.argv[2], "w"))
PY
expect 2 'missing field "hi"\|unknown field "junk"' "$tmp/choice.json" "optional field missing when required"
sed '0,/"h": "zero"/s//"h": "box"/' "$csrc" > "$tmp/choice.json"
expect 2 'missing field "lo"' "$tmp/choice.json" "box without lo, hi"

# "notes" declares exactly the flags of the file's cases (fedref-vectors/2):
# a case flag not declared, a note no case uses, no "notes", a flag twice
# in a case are errors; a fedref-vectors/1 file is still read
notes() {   # notes MUTATION OUT: ens.json with one change (python3)
  python3 - "$src" "$2" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = next(c for g in d["groups"] for c in g["cases"] if c["flags"])
m = sys.argv[3]
if m == "undeclared": c["flags"].append("acct-paper")          # a flag of another module
if m == "dropped": del d["notes"][c["flags"][0]]
if m == "unused": d["notes"]["acct-paper"] = "a note no case of ens uses"
if m == "missing": del d["notes"]
if m == "twice": c["flags"].append(c["flags"][0])
if m == "unknown": d["notes"]["no-such-flag"] = "x"
if m.startswith("v1"):
    d["schema"] = "fedref-vectors/1"
    if m == "v1-none": del d["notes"]
    if m == "v1-undeclared": del d["notes"][c["flags"][0]]
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
}
notes undeclared "$tmp/n.json"
expect 2 'flag "acct-paper" is not declared in "notes" .*groups\[0\]' "$tmp/n.json" "a case flag not declared"
notes dropped "$tmp/n.json"
expect 2 'is not declared in "notes"' "$tmp/n.json" "a used flag's note removed"
notes unused "$tmp/n.json"
expect 2 'note "acct-paper" is not used by any case (.*: notes)' "$tmp/n.json" "a note no case uses"
notes missing "$tmp/n.json"
expect 2 'missing "notes"' "$tmp/n.json" "no notes"
notes twice "$tmp/n.json"
expect 2 'twice in "flags"' "$tmp/n.json" "a flag twice in a case"
notes unknown "$tmp/n.json"
expect 2 'unknown flag "no-such-flag" (.*: notes)' "$tmp/n.json" "a note of no flag"
notes v1-all "$tmp/n.json"
expect 0 "0 failed" "$tmp/n.json" "fedref-vectors/1 with the file's notes"
notes v1-none "$tmp/n.json"
expect 0 "0 failed" "$tmp/n.json" "fedref-vectors/1 without notes"
notes v1-undeclared "$tmp/n.json"
expect 2 'is not declared in "notes"' "$tmp/n.json" "fedref-vectors/1 with notes, a flag not declared"
sed 's|"schema": "fedref-vectors/2"|"schema": "fedref-vectors/3"|' "$src" > "$tmp/n.json"
expect 2 'unsupported schema, expected "fedref-vectors/2" (or "fedref-vectors/1")' "$tmp/n.json" "schema /3"

echo "vectors-negative: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
