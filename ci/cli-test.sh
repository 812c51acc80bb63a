#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fedref command as a new user meets it: every subcommand answers
# --help, usage errors say what is wrong and exit 2, nothing is written
# where the user did not say.  Usage: cli-test.sh CLI
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass=0
before=$(cat vectors/*.json | cksum)

# t CODE PATTERN ARGS...: run the CLI, compare exit code and stdout+stderr.
t() {
  code=$1; pat=$2; shift 2
  out=$("$cli" "$@" 2>&1 < /dev/null); rc=$?
  if [ "$rc" -eq "$code" ] && printf '%s' "$out" | grep -q -- "$pat"; then
    pass=$((pass + 1))
  else
    fails=$((fails + 1))
    echo "cli-test: FAIL: fedref $*: exit $rc (wanted $code, /$pat/), output:"
    printf '%s\n' "$out" | tail -3
  fi
}

t 2 "usage: fedref COMMAND"                        # no command
t 0 "usage: fedref COMMAND" --help
t 0 "usage: fedref COMMAND" -h
t 0 "usage: fedref COMMAND" help
t 0 "usage: fedref audit" help audit
t 0 "^fedref [0-9]" --version
t 0 "^fedref [0-9]" version
t 0 "Apache License, Version 2.0" --version
t 0 "usage: fedref version" version --help
t 0 "usage: fedref version" help version
t 0 "usage: fedref COMMAND" help --help
t 0 "usage: fedref COMMAND" help help
t 2 "version takes no argument (frob)" version frob
t 2 "unknown command (frob)" frob
t 2 "missing subcommand" vectors
t 2 "unknown subcommand of vectors.*(frob)" vectors frob
t 0 "usage: fedref vectors check" vectors --help
t 0 "usage: fedref vectors check" vectors check --help
t 0 "usage: fedref vectors check" vectors gen -h
t 0 "usage: fedref audit" audit --help
t 0 "usage: fedref audit" audit -h
t 2 "unknown argument of audit" audit --frob
t 2 "option needs a value" audit --sweep
t 2 "not an unsigned decimal integer (x)" audit --sweep x
t 2 "not an unsigned decimal integer (x)" audit --sweep=x
t 2 "not an unsigned decimal integer (-1)" audit --seed -1
t 2 "out of range: the largest value is 18446744073709551615 (18446744073709551616)" audit --seed 18446744073709551616
FEDREF_SEED=x "$cli" audit 2>&1 | grep -q "not an unsigned decimal integer (FEDREF_SEED=x)" && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: a bad FEDREF_SEED is not named"; }
t 0 "usage: fedref audit \[--quick\]" audit --help
t 2 "no golden-vector directory" audit --vectors "$tmp/none"
t 0 "\[--function NAME\]... \[--format text|json|tap|junit\]" audit --help
t 2 "--format takes text, json, tap or junit (xml)" audit --format xml
t 2 "option needs a value" audit --format
t 2 "no such vector function .* (sofft)" audit --function sofft
t 0 "^soft  *[0-9][0-9]*  *3 " audit --quick --function soft --sweep 3
t 0 '^{"protocol": "fedref-vectors/2", "rule": "certified,tol"' audit --quick --function soft --sweep 3 --format json
t 0 "^ok 15 - sweep soft" audit --quick --function soft --sweep 3 --format tap
t 0 '<testsuite name="sweep" tests="1" failures="0"' audit --quick --function soft --sweep 3 --format junit
# conform (ci/conform-test.sh runs it on programs; here its usage)
t 0 "usage: fedref conform" conform --help
t 0 "usage: fedref conform" help conform
t 0 "fedref-conform/1" conform -h
t 2 "give exactly one of -- PROGRAM, --results FILE, --emit-cases" conform
t 2 "give exactly one of" conform --emit-cases -- true
t 2 "unknown option (--frob)" conform --frob
t 2 "the program goes after --" conform python3
t 2 "-- must be followed by the program" conform --
t 2 "the option needs a value (--timeout)" conform --timeout
t 2 "--timeout takes seconds, > 0 and at most 86400 (0)" conform --timeout 0 -- true
t 2 "--format takes text, json, tap or junit (xml)" conform --format xml -- true
t 2 "--rule takes tol or certified (fast)" conform --rule fast -- true
t 2 "no such vector function (nosuch)" conform --function nosuch --emit-cases
t 2 "no such flag" conform --flag nosuch --emit-cases
t 2 "--id takes a case id (x)" conform --id x --emit-cases
t 2 "no case matches the filters" conform --function soft --id 999 --emit-cases
t 2 "no such vector file or directory" conform --vectors "$tmp/none" --emit-cases
t 2 "cannot open the results file" conform --results "$tmp/none"
t 2 "cannot execute $tmp/none" conform -- "$tmp/none"
t 0 '^{"protocol":"fedref-conform/1","file":"soft.json","function":"soft","id":1,"params":{"a":"1"},"input":{"t":\["3","-3","0.5","-0.5","0"\]}}$' \
  conform --vectors vectors/soft.json --id 1 --emit-cases
[ "$("$cli" conform --function median --flag even-m --emit-cases | wc -l)" -eq \
  "$(grep -c '^ *"even-m",*$' vectors/median.json)" ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: conform --flag even-m selects another count of median cases"; }
t 2 "needs a value" vectors check --impl
t 2 "takes ref, fast or both (x)" vectors check --impl x vectors/soft.json
t 2 "no vector file given" vectors check
t 2 "unknown option" vectors check --frob
t 2 "is a directory" vectors check vectors
t 2 "No such file" vectors check "$tmp/missing.json"
t 0 "0 failed" vectors check --impl ref -- vectors/soft.json
t 0 "0 failed" vectors check --impl=ref vectors/soft.json
t 2 "takes ref, fast or both (x)" vectors check --impl=x vectors/soft.json
t 2 "--format needs a value" vectors check vectors/soft.json --format
t 2 "takes text, json, tap or junit (xml)" vectors check --format xml vectors/soft.json
t 0 '"cases": {"total": [1-9][0-9]*, "passed": [1-9][0-9]*, "failed": 0' vectors check --format=json vectors/soft.json
t 2 "needs the output directory" vectors gen
t 2 "No such file or directory" vectors gen "$tmp/none"
t 2 "cannot use the output directory (it must exist): No such file or directory ($tmp/none)" vectors gen "$tmp/none" soft
t 2 "not a directory" vectors gen vectors/soft.json
t 2 "no such vector function.*(frob)" vectors gen "$tmp" soft frob
[ ! -e "$tmp/soft.json" ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: vectors gen wrote soft.json before rejecting frob"; }
t 0 "wrote .*/soft.json" vectors gen "$tmp" soft
cmp -s "$tmp/soft.json" vectors/soft.json && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: vectors gen DIR soft differs from vectors/soft.json"; }
t 0 "usage: fedref bench" bench --help
t 0 "usage: fedref bench" help bench
t 2 "unknown argument of bench" bench --frob
t 2 "option needs a value" bench --reps
t 2 "not an unsigned decimal integer (x)" bench --reps x
t 2 "needs at least one repetition" bench --reps 0
t 2 "no such bench section (nope)" bench --section nope
t 0 "fedpdm: 003's loss" bench --quick --reps 1 --section fedpdm
t 0 "proxal: 004's QP (25)" bench --quick --reps 1 --section proxal
t 2 "No such file or directory" bench --quick --write-inputs "$tmp/none"
# --quick: small sizes, for its agreement checks only (never its timings)
t 0 "bench: 0 disagreement" bench --quick --reps 1
mkdir -p "$tmp/in"
t 0 "bench: 0 disagreement" bench --quick --reps 1 --write-inputs "$tmp/in"
[ -s "$tmp/in/manifest.txt" ] && [ -s "$tmp/in/logreg_b_X.f64" ] \
  && [ -s "$tmp/in/fedpdm/manifest.txt" ] && [ -s "$tmp/in/fedpdm/round0_batch.f64" ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: bench --write-inputs wrote no inputs"; }
# the experiments (make experiments runs them; make check at reduced sizes)
t 0 "usage: fedref experiments" experiments --help
t 0 "usage: fedref experiments" help experiments
t 2 "unknown argument of experiments" experiments --frob
t 2 "option needs a value" experiments --out
t 2 "no such experiment" experiments --only frob
t 2 "dataset must be adult or breast-cancer (iris)" experiments --dataset iris
t 2 "not an unsigned decimal integer (x)" experiments --seed x
t 2 "not an unsigned decimal integer (x)" experiments --seed=x
t 2 "out of range" experiments --seed=99999999999999999999
t 2 "Not a directory" experiments --out vectors/soft.json/x
# an experiment that cannot run (no data: fedepm on breast cancer, ssca) is
# recorded in the report and the others still run; the exit status says so
mkdir -p "$tmp/nodata"
"$cli" experiments --quick --only fedepm --dataset breast-cancer --only ssca --data "$tmp/nodata" --out "$tmp/xe" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -c '^| .* | \*\*FAILED\*\* | .*nodata/.*cannot open' "$tmp/xe/report.md")" -eq 2 ] \
  && grep -q "EXPERIMENT FAILED: ssca did not run to the end" "$tmp/xe/report.md" && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: failed experiments not recorded (exit $rc)"; }
rmdir "$tmp/nodata"
# 004's Table 1 (make table1 runs it whole)
t 0 "usage: fedref table1" table1 --help
t 0 "usage: fedref table1" help table1
t 2 "unknown argument of table1" table1 --frob
t 2 "option needs a value" table1 --trials
t 2 "trials must be 1..1000 (0)" table1 --trials 0
t 2 "q must be a number in (0, 1) (1)" table1 --q 1
t 0 "table1: 8 runs, 0 failures" table1 --quick
t 2 "trials must be 1..1000 (0)" table1 --trials=0
# fedref data info on tiny files written here (make data's files are not needed)
t 0 "usage: fedref data info" data --help
t 0 "usage: fedref data info" help data
t 2 "missing subcommand: info" data
t 2 "unknown subcommand of data.*(frob)" data frob
t 2 "no data file given" data info
t 2 "option needs a value" data info --classes
t 2 "classes must be 1..256 (0)" data info --classes 0
t 2 "unknown option of data info" data info --frob
printf '\000\000\010\001\000\000\000\003\000\001\002' > "$tmp/l.idx"
printf '\000\000\010\001\000\000\000\004\000\001\002' > "$tmp/short.idx"
printf '2,1,a,b\n1.5,0\n-2,1\n' > "$tmp/t.csv"
printf '2,1,a,b\n1.5,0\nnan,1\n' > "$tmp/nan.csv"
t 0 "idx labels 3, classes 10, counts 1 1 1 0 0 0 0 0 0 0, fnv1a" data info "$tmp/l.idx"
t 2 "short.idx: offset 11: file ends early" data info "$tmp/short.idx"
t 2 "label 2 of item 2 is not below 2 classes" data info --classes 2 "$tmp/l.idx"
t 0 "csv 2 x 1, classes 2 (a 1, b 1), features in \[-2, 1.5\]" data info "$tmp/t.csv"
t 2 "nan.csv: line 3, field 1: NaN or infinity" data info "$tmp/nan.csv"
t 2 "cannot open" data info "$tmp/none.idx"
# the format from the name and the first bytes: IDX messages for IDX files
: > "$tmp/empty.idx"
printf '\003\010\000\000\000\000\000\001\000\000\000\001\000\000\000\001\005' > "$tmp/le.bin"
printf '\000\000\015\003\000\000\000\001\000\000\000\001\000\000\000\001\005' > "$tmp/float.bin"
printf '2,1,a,b\r\n1.5,0\r\n-2,1\r\n' > "$tmp/crlf.csv"
printf '\357\273\2772,1,a,b\n1.5,0\n-2,1\n' > "$tmp/bom.csv"
t 2 "empty.idx: offset 0: file ends inside the 4-byte magic" data info "$tmp/empty.idx"
t 2 "le.bin: offset 0: bad magic 0x03080000: the bytes of 0x00000803 in little-endian order" data info "$tmp/le.bin"
t 2 "float.bin: offset 2: bad magic 0x00000d03: IDX type 0x0d (float) is not read" data info "$tmp/float.bin"
t 2 "crlf.csv: line 1: CRLF line ending" data info "$tmp/crlf.csv"
t 2 "bom.csv: line 1: a UTF-8 byte order mark (bytes EF BB BF)" data info "$tmp/bom.csv"
# UCI Adult, shipped in data/adult/: its rows, and 002's 45 222 without a '?'
t 0 "adult.data.gz: uci adult 32561 x 14, rows with '?' 2399" data info data/adult/adult.data.gz data/adult/adult.test.gz
t 0 "adult.test.gz: uci adult (test) 16281 x 14, rows with '?' 1221" data info data/adult/adult.data.gz data/adult/adult.test.gz
t 0 "002 Sec. VII-A (the 2 files above, rows with '?' dropped): 45222 x 14" data info data/adult/adult.data.gz data/adult/adult.test.gz
printf '39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, Atlantis, <=50K\n' > "$tmp/bad.adult.data"
t 2 "bad.adult.data: line 1, field 14: unknown category \"Atlantis\" of native-country" data info "$tmp/bad.adult.data"
# fedref dp: the auditor's accountant (the certified values themselves are
# checked against ref at 200 bits by the cli_dp suite, tests/cli/test_dp.c)
G="--sensitivity 1 --rounds 300 --delta 1e-5"
t 0 "usage: fedref dp eps" dp --help
t 0 "usage: fedref dp eps" help dp
t 0 "usage: fedref dp eps" dp eps --help
t 2 "missing subcommand: eps, sigma or laplace" dp
t 2 "unknown subcommand of dp.*(frob)" dp frob
t 0 '^{"command":"dp eps","eps":"0.703002239[0-9]*","eps_lower":"0.62641946[0-9]*","eps_lower_note":"PLD of an achievable pair.*"method":"PLD: .*"eps_rdp":"2.88156840[0-9]".*"eps_pld":"0.703002239[0-9]*"' \
  dp eps --sigma 4.844805262605389421 --sensitivity 1 --rounds 300 --clients 100 --sampled 5 --delta 1e-5 --json
t 0 '^{"command":"dp eps","eps":"2.88156840[0-9]","eps_lower":null,.*"relation":"replace-one: one client.s data replaced' \
  dp eps --sigma 4.844805262605389421 --sensitivity 1 --rounds 300 --clients 100 --sampled 5 --delta 1e-5 --json --accountant rdp
t 0 '"observer":"an observer who does not learn which clients took part' \
  dp eps --sigma 4.844805262605389421 $G --clients 100 --sampled 5 --json --impl fast
t 0 "eps        0.70525189[0-9]*  (certified upper bound, pld)" dp eps --sigma 4.8448052626 $G --clients 100 --sampled 5 --impl fast
t 0 "eps        1.06465028[0-9]*  (certified upper bound, pld)" dp eps --sigma 4.8448052626 $G --clients 100 --sampled 5 --first-full 1 --impl fast
t 0 "pld        21.003[0-9]*" dp eps --sigma 4.8448052626 $G --clients 100 --sampled 100 --accountant pld --impl fast
t 2 "accountant pld composes fewer than 2^18 rounds" dp eps --sigma 1 --sensitivity 1 --rounds 262144 --delta 1e-5 --accountant pld
t 0 "eps_lower  0.75097695[0-9]*  the 1 round(s) with all clients alone" dp eps --sigma 4.8448052626 $G --clients 100 --sampled 5 --first-full 1 --accountant rdp
t 0 "eps        20.982409[0-9]*  (certified upper bound, exact)" dp eps --sigma 4.8448052626 $G --clients 100 --sampled 100
t 0 "observer   the server, who learns which clients took part" dp eps --sigma 4.8448052626 $G --impl fast
t 0 "rdp        24.294036[0-9]*  (alpha 2)" dp eps --sigma 4.8448052626 $G --accountant rdp
t 2 "sigma must be finite (nan)" dp eps --sigma nan $G
t 2 "sigma must be > 0 (-1)" dp eps --sigma -1 $G
t 2 "sigma must be a decimal number (1x)" dp eps --sigma 1x $G
t 2 "sensitivity must be >= 0 (-0.5)" dp eps --sigma 1 --sensitivity -0.5 --rounds 3 --delta 1e-5
t 2 "sampled must be <= --clients" dp eps --sigma 1 $G --clients 4 --sampled 5
t 2 "clients and --sampled go together" dp eps --sigma 1 $G --clients 4
t 2 "delta must be in (0, 1) (1)" dp eps --sigma 1 --sensitivity 1 --rounds 3 --delta 1
t 2 "delta must be in (0, 1) (0)" dp eps --sigma 1 --sensitivity 1 --rounds 3 --delta 0
t 2 "delta is missing" dp eps --sigma 1 --sensitivity 1 --rounds 3
t 2 "rounds must be 1..1099511627776 (0)" dp eps --sigma 1 --sensitivity 1 --rounds 0 --delta 1e-5
t 2 "rounds must be 1..1099511627776 (1099511627777)" dp eps --sigma 1 --sensitivity 1 --rounds 1099511627777 --delta 1e-5
t 2 "rounds must be <= 2^20 when every round needs its own entry" dp eps --sigma 1 --sensitivity 1 --rounds 1048577 --delta 1e-5 --clients 9 --sampled 3 --first-full 1
t 2 "first-full must be <= the number of rounds" dp eps --sigma 1 $G --clients 9 --sampled 3 --first-full 301
t 2 "accountant exact needs every round with all clients" dp eps --sigma 1 $G --clients 9 --sampled 3 --accountant exact
t 2 "accountant takes pld, rdp, rdp-improved, exact or all (x)" dp eps --sigma 1 $G --accountant x
t 0 '"eps":"2.41423059[0-9]*".*Canonne-Kamath-Steinke 2020 / Balle et al. 2020 conversion at alpha' \
  dp eps --sigma 4.8448052626 $G --clients 100 --sampled 5 --accountant rdp-improved --json
t 2 "delta is outside binary64's range" dp eps --sigma 1 --sensitivity 1 --rounds 3 --delta 1e-400 --impl fast
t 2 "dp eps does not take this option (--eps)" dp eps --sigma 1 $G --eps 1
t 2 "option given twice (--sigma)" dp eps --sigma 1 $G --sigma 2
printf '# sigma,sensitivity\n4.8448052626,1\n2,0.5\n' > "$tmp/r.csv"
printf '1,1\n1,x\n' > "$tmp/rx.csv"
printf '1,1\n\n2,1\n' > "$tmp/re.csv"
printf '1,1,5\n' > "$tmp/r3.csv"
t 0 "rounds 2, clients 1, sampled 1, first-full 0, delta 1e-5, rounds file" dp eps --rounds-file "$tmp/r.csv" --delta 1e-5
t 2 "rx.csv line 2: sensitivity must be a decimal number (x)" dp eps --rounds-file "$tmp/rx.csv" --delta 1e-5
t 2 "rounds file: empty line (.*re.csv line 2)" dp eps --rounds-file "$tmp/re.csv" --delta 1e-5
t 2 "a line must be 'sigma,sensitivity' (.*r3.csv line 1)" dp eps --rounds-file "$tmp/r3.csv" --delta 1e-5
t 2 "rounds-file replaces --sigma" dp eps --rounds-file "$tmp/r.csv" --sigma 1 --delta 1e-5
t 0 '"sigma":"1.3271226[0-9]*"' dp sigma --eps 10 $G --clients 100 --sampled 5 --first-full 1 --alpha-max 64 --json --accountant rdp
t 2 "eps must be > 0 (-1)" dp sigma --eps -1 $G
t 2 "dp sigma does not take this option (--sigma)" dp sigma --eps 1 --sigma 1 $G
t 0 "eps        0.1118946458  (certified upper bound, optimal)" dp laplace --scale 40,20 --sensitivity 0.5 --uploads 3 --delta 1e-5
t 2 "scale must be > 0 (0)" dp laplace --scale 0 --sensitivity 1 --delta 1e-5
t 2 "sensitivity takes one value or one per --scale value" dp laplace --scale 1,2,3 --sensitivity 1,2 --delta 1e-5
t 2 "more than 2^16 uploads" dp laplace --scale 1,2 --sensitivity 1 --uploads 65536 --delta 1e-5
mkdir -p "$tmp/out/ens.json.tmp"                    # an unwritable target
t 2 "cannot write .*Is a directory" vectors gen "$tmp/out"
# make check's experiments step offline: the data sets absent and no
# download allowed (FEDREF_OFFLINE=1, as without network): one line saying
# why the others are skipped and how to enable them, then fedepm alone (its
# data ship in data/adult/), run here by a stub that prints its arguments
printf '#!/bin/sh\necho "stub $*"\n' > "$tmp/stub"
chmod +x "$tmp/stub"
# (install-deps' own line on a missing optional package, e.g. gnuplot, is
# not the step's output: it depends on the machine)
out=$(FEDREF_OFFLINE=1 NO_DEPS=1 sh ci/experiments-quick.sh "$tmp/stub" "$tmp/nodata" "$tmp/xq" 2>&1); rc=$?
out=$(printf '%s\n' "$out" | grep -v '^install-deps: NO_DEPS=1: ')
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] \
   && printf '%s' "$out" | grep -q "^experiments QUICK=1: SKIPPED but fedepm: the data sets of make data are not in $tmp/nodata and cannot be fetched (FEDREF_OFFLINE=1 forbids .*make data.*ships in data/adult/" \
   && printf '%s' "$out" | grep -q "^stub experiments --quick --only fedepm --data $tmp/nodata --out $tmp/xq$" \
   && [ ! -e "$tmp/xq" ]; then
  pass=$((pass + 1))
else
  fails=$((fails + 1)); echo "cli-test: FAIL: offline experiments step: exit $rc, output:"; printf '%s\n' "$out"
fi
FEDREF_OFFLINE=1 FEDREF_REQUIRE_DATA=1 NO_DEPS=1 sh ci/experiments-quick.sh "$cli" "$tmp/nodata" "$tmp/xq" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 1 ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: FEDREF_REQUIRE_DATA=1 offline: exit $rc (wanted 1)"; }
FEDREF_OFFLINE=1 sh ci/fetch-data.sh "$tmp/nodata2" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 3 ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: fetch-data.sh offline: exit $rc (wanted 3)"; }
# nothing was written into the checkout by any of the above
[ "$(cat vectors/*.json | cksum)" = "$before" ] && pass=$((pass + 1)) \
  || { fails=$((fails + 1)); echo "cli-test: FAIL: vectors/*.json were modified"; }
echo "cli-test: $pass passed, $fails failed"
[ "$fails" -eq 0 ]
