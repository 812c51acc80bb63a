#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mutate-privacy.sh -- mutation testing of the privacy roundings: every
# rounding direction of the privacy code flipped one at a time must make a
# test fail.  Not part of `make check` (each mutant costs a compile, a link
# and a test run: about 10 s, a full run about an hour); rerun it by hand
# after touching a rounding direction:
#
#   sh ci/mutate-privacy.sh                   all mutants of the files below
#   sh ci/mutate-privacy.sh ref/fedpdm/acct.c the mutants of one file
#   MUTANTS=list sh ci/mutate-privacy.sh      only the mutants listed (lines
#                                             "file line col" of a report)
#   MUTATE_LIST=1 sh ci/mutate-privacy.sh     print the mutants, run nothing
#
# Operators (in code, never in comments): MPFR_RNDU <-> MPFR_RNDD; fast's
# directed helpers of fast/rounding.h, ffi_pad_up( <-> ffi_pad_down(,
# ffi_next_down( / ffi_next_down_clamp0( / ffi_next_down_pos( -> ffi_next_up(
# and ffi_next_up( -> the file's downward variant (the first by name), and
# any local up( <-> dn( (definitions excepted); the direction of a
# nextafter (+Inf <-> -Inf, 0 -> +Inf); the comparisons of a DP decision
# (lines naming delta or an enclosure end): <= <-> <, >= <-> >,
# mpfr_lessequal_p <-> mpfr_less_p, mpfr_greater_p <-> mpfr_greaterequal_p.
# The tree is copied to MUTATE_DIR (default /tmp/fedref-mutate-$USER; build/
# reused when present), so the working tree is never touched.  A mutant is
# KILLED when a suite of its file fails (first the round-sweep suite, then
# the others; timeout 300 s counts as killed), INVALID when it does not
# compile, EQUIV when ci/mutate-equivalent.txt lists it with the reason no
# test can kill it (not built), SURVIVED otherwise: then the proof checks
# of its module and its vector files run too before it is reported (not
# with MUTATE_QUICK=1).
# Report: MUTATE_REPORT
# (default $MUTATE_DIR/report.txt); exit 1 if a mutant survived.
set -eu
top=$(pwd)
W=${MUTATE_DIR:-/tmp/fedref-mutate-${USER:-user}}
REPORT=${MUTATE_REPORT:-$W/report.txt}
FILES=${*:-"ref/fedpdm/gauss.c ref/fedpdm/acct.c ref/fedepm/dp.c ref/fedpdm/sens.c
ref/fedpdm/sens_path.c ref/fedpdm/pld.c ref/fedpdm/pld_fft.c ref/fedepm/compose_tight.c
fast/fedpdm/gauss.c fast/fedpdm/acct.c fast/fedepm/dp.c fast/fedpdm/sens.c
fast/fedpdm/sens_path.c fast/fedpdm/pld.c fast/fedepm/compose_tight.c"}

mkdir -p "$W"
git ls-files | tar -cf - -T - | (cd "$W" && tar -xf -)          # mtimes kept
[ -d build ] && [ ! -d "$W/build" ] && cp -a build "$W/build"
cd "$W"
# The copy above gives every source its original time, older than an
# object a mutant left behind (the last mutant of each file of any earlier
# run is restored in the source but not rebuilt): every file ever mutated
# here ($W/.mutated) and every file of this run is rebuilt.
[ -f .mutated ] && sort -u -o .mutated .mutated
touch $FILES $(cat .mutated 2>/dev/null)
MAKE="make -s BUILD=build"
[ -n "${MUTATE_LIST:-}" ] || $MAKE build/bin/fedref_tests build/bin/proofs_checks build/bin/fedref > /dev/null

# the suites, proof checks and vector files that cover a file
suites() {
  case $1 in
  ref/fedpdm/gauss.c) echo "fedpdm_enclosures fedpdm_round_sweep fedpdm_gauss status_fedpdm_gauss" ;;
  */fedpdm/gauss.c) echo "fedpdm_round_sweep fedpdm_gauss status_fedpdm_gauss" ;;
  ref/fedpdm/acct.c) echo "fedpdm_acct_stages fedpdm_enclosures fedpdm_round_sweep fedpdm_acct status_fedpdm_acct" ;;
  fast/fedpdm/acct.c) echo "fedpdm_fast_acct_stages fedpdm_round_sweep fedpdm_acct status_fedpdm_acct" ;;
  ref/fedepm/dp.c) echo "dp_enclosures dp_round_sweep dp status_fedepm" ;;
  fast/fedepm/dp.c) echo "dp_stages dp_round_sweep dp status_fedepm" ;;
  fast/fedpdm/sens*.c) echo "fedpdm_sens_stages fedpdm_round_sweep fedpdm_sens status_fedpdm_sens" ;;
  */fedpdm/sens*.c) echo "fedpdm_round_sweep fedpdm_sens status_fedpdm_sens" ;;
  ref/fedpdm/pld.c) echo "fedpdm_pld_compose fedpdm_pld_stages fedpdm_pld status_fedpdm_acct" ;;
  ref/fedpdm/pld_fft.c) echo "fedpdm_pld_compose fedpdm_pld status_fedpdm_acct" ;;
  fast/fedpdm/pld.c) echo "fedpdm_pld_fast_stages fedpdm_pld status_fedpdm_acct" ;;
  ref/fedepm/compose_tight.c) echo "dp_tight_enclosures dp_compose_tight status_fedepm" ;;
  fast/fedepm/compose_tight.c) echo "dp_fast_tight_stages dp_compose_tight status_fedepm" ;;
  esac
}
proofs() {
  case $1 in
  */fedpdm/gauss.c) echo "fedpdm_gauss_grid fedpdm_gauss_pld" ;;
  */fedpdm/acct.c) echo "fedpdm_rdp fedpdm_acct_order fedpdm_thm2" ;;
  */fedepm/dp.c) echo "dp_sensitivity dp_eq39 dp_upload_sensitivity dp_loss_eq27" ;;
  */fedpdm/sens*.c) echo "fedpdm_sens19 fedpdm_sens19_path fedpdm_sens_path" ;;
  */fedpdm/pld*.c) echo "fedpdm_pld_bracket fedpdm_gauss_pld" ;;
  esac
}
vfiles() {
  case $1 in
  */fedpdm/gauss.c) echo "vectors/gauss_sigma_analytic.json vectors/gauss_sigma_classical.json" ;;
  */fedpdm/acct.c) echo "vectors/fedpdm_gauss_eps.json vectors/fedpdm_compose.json
vectors/fedpdm_rdp.json vectors/fedpdm_rdp_rounds.json vectors/fedpdm_thm2.json" ;;
  */fedepm/dp.c) echo "vectors/dp_sens_step.json vectors/dp_compose.json" ;;
  */fedpdm/sens*.c) echo "vectors/fedpdm_sensitivity.json vectors/fedpdm_path_sens.json" ;;
  */fedpdm/pld*.c) echo "vectors/fedpdm_pld_rounds.json" ;;
  */fedepm/compose_tight.c) echo "vectors/dp_compose_tight.json" ;;
  esac
}

# The mutants of a file: "file line col len replacement", code columns only
# (comments blanked first, block comments across lines included).
list() {
  awk -v F="$1" -v FAST="$(case $1 in fast/*) echo 1;; *) echo 0;; esac)" \
    -v DN="$(grep -oE 'ffi_next_down(_clamp0|_pos)?\(' "$1" | sort -u | head -1 | grep . || echo 'ffi_next_down(')" '
  function emit(re, tok, rep,    s, off, p, len) {
    s = code; off = 0
    while ((p = match(s, re)) > 0) {
      len = tok == "0" ? RLENGTH - 3 : length(tok)
      printf "%s %d %d %d %s\n", F, NR, off + p + index(substr(s, p, RLENGTH), tok) - 1, len, rep
      off += p + RLENGTH - 1; s = substr(code, off + 1)
    }
  }
  {
    line = $0; code = ""; i = 1; n = length(line)
    while (i <= n) {
      if (inc) {
        if (substr(line, i, 2) == "*/") { inc = 0; code = code "  "; i += 2 } else { code = code " "; i++ }
      } else if (substr(line, i, 2) == "/*") { inc = 1; code = code "  "; i += 2
      } else if (substr(line, i, 2) == "//") { while (i <= n) { code = code " "; i++ }
      } else { code = code substr(line, i, 1); i++ }
    }
    emit("MPFR_RNDU", "MPFR_RNDU", "MPFR_RNDD"); emit("MPFR_RNDD", "MPFR_RNDD", "MPFR_RNDU")
    if (FAST && code !~ /^static /) {
      emit("(^|[^A-Za-z0-9_])up\\(", "up(", "dn("); emit("(^|[^A-Za-z0-9_])dn\\(", "dn(", "up(")
      emit("(^|[^A-Za-z0-9_])ffi_pad_up\\(", "ffi_pad_up(", "ffi_pad_down(")
      emit("(^|[^A-Za-z0-9_])ffi_pad_down\\(", "ffi_pad_down(", "ffi_pad_up(")
      emit("(^|[^A-Za-z0-9_])ffi_next_up\\(", "ffi_next_up(", DN)
      emit("(^|[^A-Za-z0-9_])ffi_next_down\\(", "ffi_next_down(", "ffi_next_up(")
      emit("(^|[^A-Za-z0-9_])ffi_next_down_clamp0\\(", "ffi_next_down_clamp0(", "ffi_next_up(")
      emit("(^|[^A-Za-z0-9_])ffi_next_down_pos\\(", "ffi_next_down_pos(", "ffi_next_up(")
    }
    if (code ~ /nextafter/) {
      emit(", -INFINITY\\)", "-INFINITY", "INFINITY"); emit(", INFINITY\\)", "INFINITY", "-INFINITY")
      emit(", 0(\\.0)?\\)", "0", "INFINITY")
    }
    if (code ~ /delta|[^A-Za-z_](du|DU|dl|DL|hi|lo)[^A-Za-z_0-9]/) {
      emit("<=", "<=", "<"); emit("[^<-]<[^<=]", "<", "<=")
      emit(">=", ">=", ">"); emit("[^->]>[^>=]", ">", ">=")
      emit("mpfr_lessequal_p", "mpfr_lessequal_p", "mpfr_less_p")
      emit("mpfr_less_p", "mpfr_less_p", "mpfr_lessequal_p")
      emit("mpfr_greater_p", "mpfr_greater_p", "mpfr_greaterequal_p")
      emit("mpfr_greaterequal_p", "mpfr_greaterequal_p", "mpfr_greater_p")
    }
  }' "$1"
}

if [ -n "${MUTANTS:-}" ]; then
  case $MUTANTS in /*) m=$MUTANTS ;; *) m=$top/$MUTANTS ;; esac
  all=$(for f in $FILES; do list "$f"; done | awk 'NR == FNR { k[$1 " " $2 " " $3] = 1; next }
        ($1 " " $2 " " $3) in k' "$m" -)
else
  all=$(for f in $FILES; do list "$f"; done)
fi
if [ -n "${MUTATE_LIST:-}" ]; then echo "$all"; exit 0; fi
# ci/mutate-equivalent.txt: the mutants no test can kill because the
# program stays correct (an exact operation, a bound that holds either way),
# each with its reason; keyed by file, the source line (blanks trimmed), the
# token and its replacement, so that edits elsewhere do not disturb it.
EQ=$top/ci/mutate-equivalent.txt
equivalent() {
  [ -f "$EQ" ] || return 0
  awk -F'\t' -v f="$1" -v line="$2" -v t="$3" -v r="$4" '
    BEGIN { gsub(/^[ \t]+|[ \t]+$/, "", line) }
    /^#/ || NF < 5 { next }
    $1 == f && $2 == line && $3 == t && $4 == r { print $5; exit }' "$EQ"
}
: > "$REPORT"
restore() { [ -n "${cur:-}" ] && cp "$W/.orig" "$cur"; cur=; }
trap 'restore' EXIT INT TERM
nk=0; ns=0; ni=0; ne=0
echo "$all" | { while read -r f l c n r; do
  [ -n "$f" ] || continue
  cp "$f" "$W/.orig"; cur=$f; echo "$f" >> "$W/.mutated"
  awk -v L="$l" -v C="$c" -v N="$n" -v R="$r" \
    'NR == L { $0 = substr($0, 1, C - 1) R substr($0, C + N) } { print }' "$W/.orig" > "$f"
  tok=$(sed -n "${l}p" "$W/.orig" | cut -c"$c-$((c + n - 1))")
  what="$f $l $c $tok -> $r"
  why=$(equivalent "$f" "$(sed -n "${l}p" "$W/.orig")" "$tok" "$r")
  if [ -n "$why" ]; then
    echo "EQUIV    $what  ($why)" >> "$REPORT"; ne=$((ne + 1)); restore; continue
  fi
  if ! $MAKE build/bin/fedref_tests > /dev/null 2>&1; then
    echo "INVALID  $what" >> "$REPORT"; ni=$((ni + 1)); restore; continue
  fi
  by=
  for s in $(suites "$f"); do
    if ! CK_RUN_SUITE=$s timeout 300 build/bin/fedref_tests > /dev/null 2>&1; then by=$s; break; fi
  done
  if [ -z "$by" ] && [ -z "${MUTATE_QUICK:-}" ] \
     && $MAKE build/bin/proofs_checks build/bin/fedref > /dev/null 2>&1; then
    pc=$(proofs "$f")                     # none: no proof check (not all of them)
    [ -z "$pc" ] || timeout 600 build/bin/proofs_checks $pc > /dev/null 2>&1 || by=proofs_checks
    [ -n "$by" ] || timeout 600 build/bin/fedref vectors check $(vfiles "$f") > /dev/null 2>&1 \
      || by="vectors check"
  fi
  if [ -n "$by" ]; then
    echo "KILLED   $what  ($by)" >> "$REPORT"; nk=$((nk + 1))
  else
    echo "SURVIVED $what" >> "$REPORT"; ns=$((ns + 1))
  fi
  restore
done
echo "mutate-privacy: $((nk + ns + ni + ne)) mutants: $nk killed, $ns survived, $ne equivalent, $ni invalid (report: $REPORT)"
[ "$ns" -eq 0 ]; }
