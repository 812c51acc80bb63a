/* SPDX-License-Identifier: Apache-2.0 */
/* vcheck.c -- check ref and fast against a vector file (docs/VECTORS.md).
 * ref must meet the certified bits: |ref - expected| <= 2^-b |expected|
 * (b = certified_bits, 64 when absent; ref evaluated at max(b, 130) + 32
 * bits, its inputs read as the binary64 they are whatever b is).
 * fast must meet the case's tol: |fast - expected| <= abs + rel |expected|.
 * A boolean field (VK_BOOL) and an exact integer (VC_INT) must match
 * exactly in both: no tol, no bits; a real fast computes exactly
 * (VC_EXACT) must match it in fast up to the 40-digit rounding of expected,
 * 2^-130 |expected|.  An upper bound (VC_UPPER) fails
 * below expected by more than the 40-digit rounding of expected,
 * 2^-130 |expected|, whatever tol and b say (VC_LOWER: the mirror).
 * Invalid cases pass only if the implementation reports a domain error.
 * All comparisons are done in MPFR, exactly enough not to add error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vectors.h"

#define CMP_PREC 256

static void fieldname(char *buf, size_t len, const char *name, const vtensor *v, size_t k)
{
    if (v->rows * v->cols == 1 && v->rows == 1) snprintf(buf, len, "%s", name);
    else if (v->rows == 1) snprintf(buf, len, "%s[%zu]", name, k);
    else snprintf(buf, len, "%s[%zu][%zu]", name, k / v->cols, k % v->cols);
}

/* ulps of d against the expectation e, in binary64 terms (NaN unless both
 * are numbers; the reader makes e finite). */
static double ulps_of(mpfr_srcptr diff, mpfr_srcptr e)
{
    if (!mpfr_number_p(e) || !mpfr_number_p(diff)) return NAN;
    mpfr_t u;
    mpfr_init2(u, 64);
    long ex = mpfr_zero_p(e) ? -1074 : (long)mpfr_get_exp(e) - 53;
    if (ex < -1074) ex = -1074;
    mpfr_div_2si(u, diff, ex, MPFR_RNDU);
    double r = fabs(mpfr_get_d(u, MPFR_RNDU));
    mpfr_clear(u);
    return r;
}

/* The sizes of a result and of the expected field agree: the same number
 * of values and, when there are any, the same rows and columns.  Prints the
 * mismatch (unless out is NULL) and returns 0 otherwise. */
static int same_shape(const vfile *f, const vcase *c, const char *impl, const char *name,
                      size_t rows, size_t cols, const vtensor *x, FILE *out)
{
    if (vshape_ok(rows, cols, x)) return 1;
    if (rows * cols != x->rows * x->cols) {
        if (out) fprintf(out, "%s: id %ld: %s: %s got %zu values expected %zu (size mismatch)\n",
                         f->path, c->id, name, impl, rows * cols, x->rows * x->cols);
        return 0;
    }
    if (rows * cols > 0 && (rows != x->rows || cols != x->cols)) {
        if (out) fprintf(out, "%s: id %ld: %s: %s got %zu x %zu values expected %zu x %zu (shape mismatch)\n",
                         f->path, c->id, name, impl, rows, cols, x->rows, x->cols);
        return 0;
    }
    return 1;
}

/* One ref evaluation at precision P against the certified bits; failures
 * are printed to out unless out is NULL.  Returns 1 if it passes: a result
 * that is NaN or infinite passes only an expected value that is the same
 * special (mpfr_cmpabs alone would say 0 for a NaN). */
/* An expected NaN or infinity is met only by the same special value. */
static int special_ok(mpfr_srcptr got, mpfr_srcptr e)
{
    return (mpfr_nan_p(e) && mpfr_nan_p(got))
        || (mpfr_inf_p(e) && mpfr_inf_p(got) && mpfr_sgn(e) == mpfr_sgn(got));
}

/* For a closed form (ref correctly rounded) an expected zero is signed
 * ("0" is +0, "-0" is -0): a zero result must carry the same sign (the
 * contracts promise +0 where they say so, e.g. soft and prox_l1 at the kink;
 * a -0 is a different binary64).  An iterative run's exact zeros come out
 * of long chains of operations whose sign of zero no contract fixes: not
 * compared there. */
static int zero_sign_ok(const vfunc *fn, mpfr_srcptr got, mpfr_srcptr e)
{
    return fn->iterative || !(mpfr_zero_p(e) && mpfr_zero_p(got))
        || mpfr_signbit(got) == mpfr_signbit(e);
}

/* A boolean field (VK_BOOL): the result must be exactly 1 or 0 (a zero of
 * either sign) and equal to the expected "true"/"false"; no tolerance, no
 * certified bits apply.  got is rt_bool/ft_bool of the result (-1: not a
 * boolean); prints the failure (unless out is NULL) and returns 1 if it
 * passes. */
static int bool_ok(const vfile *f, const vcase *c, const char *impl, const char *name,
                   const vtensor *x, int got, const char *shown, FILE *out)
{
    if (vbool_ok(x, got)) return 1;
    if (out) {
        if (got < 0)
            fprintf(out, "%s: id %ld: %s: %s got %s expected %s (not a boolean)\n",
                    f->path, c->id, name, impl, shown, x->s[0]);
        else
            fprintf(out, "%s: id %ld: %s: %s got %s expected %s\n",
                    f->path, c->id, name, impl, got ? "true" : "false", x->s[0]);
    }
    return 0;
}

/* The unsafe side's margin of a one-sided field: 2^-max(b, 130) |e|,
 * rounded up (b = the case's certified bits: a file may claim more, never
 * buy a wider margin by claiming less). */
static void one_sided_margin(mpfr_ptr m, mpfr_srcptr e, long bits)
{
    mpfr_abs(m, e, MPFR_RNDU);
    mpfr_mul_2si(m, m, -(bits > VEC_ONE_SIDED_BITS ? bits : VEC_ONE_SIDED_BITS), MPFR_RNDU);
}

/* Whether got (a number) passes the finite expected e of a field compared
 * as cmp, tol being the two-sided allowance (ref: 2^-b |e|, fast: abs +
 * rel |e|); d and margin are scratch.  VC_INT: got = e exactly (the sign
 * of a zero aside; e is an integer written exactly); exact (VC_EXACT in
 * fast): |got - e| <= margin, the 40-digit rounding of e; VC_UPPER:
 * -margin <= got - e <= tol; VC_LOWER: -tol <= got - e <= margin; VC_REAL:
 * |got - e| <= tol.  got - e is rounded away from zero: never a pass it
 * does not earn. */
static int within(mpfr_srcptr got, mpfr_srcptr e, enum vcmp cmp, int exact, mpfr_srcptr tol, long bits,
                  mpfr_ptr d, mpfr_ptr margin)
{
    if (!mpfr_number_p(got)) return 0;
    if (cmp == VC_INT) return mpfr_cmp(got, e) == 0;
    mpfr_sub(d, got, e, MPFR_RNDA);
    one_sided_margin(margin, e, bits);
    if (exact) return mpfr_cmpabs(d, margin) <= 0;
    if (cmp == VC_REAL || cmp == VC_EXACT) return mpfr_cmpabs(d, tol) <= 0;
    if (cmp == VC_LOWER) mpfr_neg(d, d, MPFR_RNDN);          /* the mirror */
    if (mpfr_sgn(d) < 0) return mpfr_cmpabs(d, margin) <= 0;  /* the unsafe side */
    return mpfr_cmp(d, tol) <= 0;
}

/* Why a field failed, for the message: the unsafe side of a bound, an
 * exact value missed, or "" (outside the tolerance). */
static const char *why(mpfr_srcptr got, mpfr_srcptr e, enum vcmp cmp, int exact)
{
    if (cmp == VC_INT) return ", an exact integer";
    if (exact) return ", exact";
    if (!mpfr_number_p(got)) return "";
    if (cmp == VC_UPPER && mpfr_cmp(got, e) < 0) return ", below an upper bound";
    if (cmp == VC_LOWER && mpfr_cmp(got, e) > 0) return ", above a lower bound";
    return "";
}

/* The line of a wrong field: its first wrong value, and how many of its
 * values are wrong when more than one. */
static void wrong_line(FILE *out, const char *line, size_t wrong, size_t n)
{
    if (out == NULL) return;
    if (wrong > 1) fprintf(out, "%s; %zu of its %zu values wrong\n", line, wrong, n);
    else fprintf(out, "%s\n", line);
}

int vshape_ok(size_t rows, size_t cols, const vtensor *x)
{
    return rows * cols == x->rows * x->cols && (rows * cols == 0 || (rows == x->rows && cols == x->cols));
}

int vbool_ok(const vtensor *x, int got)
{
    int want = vt_bool_parse(x->s[0]);
    return want >= 0 && got == want;
}

/* The one comparison of a number against an expected value, for ref
 * (VCHECK_REF: the certified bits, 2^-b |e|) and fast or any binary64
 * implementation (VCHECK_FAST: the case's tol, abs + rel |e|), by the
 * field's kind (within above); the sign of a zero by zero_sign_ok; an
 * expected special by special_ok.  Statistics (fast, a real judged by
 * tol): the ulps and relative error where tol's relative part dominates,
 * the fraction of tol used. */
int vvalue_judge(const vfunc *fn, const vcase *c, size_t k, size_t i, mpfr_srcptr got, int impl,
                 mpfr_prec_t prec, vverdict *v)
{
    enum vcmp cmp = fn->expects[k].cmp;
    long bits = c->certified_bits ? c->certified_bits : 64;
    int exact = impl == VCHECK_FAST && cmp == VC_EXACT;            /* in fast: no tol */
    int pass;
    mpfr_t e, d, bound, m, q;
    mpfr_inits2(prec, e, d, bound, m, q, (mpfr_ptr)0);
    memset(v, 0, sizeof *v);
    num_parse_mpfr(e, c->expect[k].s[i]);
    if (!mpfr_number_p(e)) {
        v->special = 1;
        pass = special_ok(got, e);
        v->why = pass ? "" : why(got, e, cmp, exact);
        goto out;
    }
    if (impl == VCHECK_REF) {
        mpfr_abs(bound, e, MPFR_RNDU);
        mpfr_mul_2si(bound, bound, -bits, MPFR_RNDU);
    } else {
        num_parse_mpfr(bound, c->tol_rel);
        mpfr_abs(d, e, MPFR_RNDU);
        mpfr_mul(bound, bound, d, MPFR_RNDU);
        num_parse_mpfr(d, c->tol_abs);
        /* ulps and relative error only where the tol's relative part
         * dominates: a result that cancels to ~0 is judged by tol.abs */
        v->relative = !mpfr_zero_p(e) && mpfr_cmp(bound, d) >= 0;
        mpfr_add(bound, bound, d, MPFR_RNDU);
    }
    int zs = cmp == VC_INT || zero_sign_ok(fn, got, e);
    int near = within(got, e, cmp, exact, bound, bits, d, m);
    pass = near && zs;
    v->why = !near ? why(got, e, cmp, exact) : !zs ? ", the sign of zero" : "";
    if (impl == VCHECK_FAST && cmp != VC_INT && !exact) {      /* the error statistics */
        v->stat = 1;
        mpfr_sub(d, got, e, MPFR_RNDA);
        if (v->relative) {
            v->ulps = ulps_of(d, e);
            mpfr_div(q, d, e, MPFR_RNDA);
            v->rel = fabs(mpfr_get_d(q, MPFR_RNDU));
        }
        if (!mpfr_zero_p(bound)) {
            mpfr_div(q, d, bound, MPFR_RNDA);
            v->tolfrac = fabs(mpfr_get_d(q, MPFR_RNDU));
        }
        if (!mpfr_number_p(d) || !mpfr_number_p(bound)) pass = 0;
    }
out:
    mpfr_clears(e, d, bound, m, q, (mpfr_ptr)0);
    return pass;
}

/* Judge ref's status st and results res (at precision P) against case c;
 * conv: the inputs could not be converted. */
static int ref_judge(const vfile *f, const vcase *c, int conv, int st, rtensor *res, mpfr_prec_t P, long bits,
                     FILE *out)
{
    const vfunc *fn = f->fn;
    size_t ne = vspec_count(fn->expects);
    int ok = 1;
    if (conv) {
        if (out) fprintf(out, "%s: id %ld: ref: cannot convert the inputs (out of memory)\n", f->path, c->id);
        ok = 0;
    } else if (c->invalid) {
        if (!fr_is_domain_error(st)) {
            if (out) fprintf(out, "%s: id %ld: result: ref got status %d (%s) expected a domain error\n",
                    f->path, c->id, st, fr_strerror(st));
            ok = 0;
        }
    } else if (st != FR_OK) {
        if (out) fprintf(out, "%s: id %ld: result: ref got status %d (%s) expected success\n",
                f->path, c->id, st, fr_strerror(st));
        ok = 0;
    } else {
        for (size_t k = 0; k < ne; k++) {        /* every field: each wrong one reported */
            const vtensor *x = &c->expect[k];
            if (!same_shape(f, c, "ref", fn->expects[k].name, res[k].rows, res[k].cols, x, out)) {
                ok = 0;
                continue;
            }
            if (fn->expects[k].kind == VK_BOOL) {
                char *g = num_round_decimal(res[k].v[0], VEC_DIGITS, MPFR_RNDN);
                ok &= bool_ok(f, c, "ref", fn->expects[k].name, x, rt_bool(res[k].v[0]), g ? g : "?", out);
                free(g);
                continue;
            }
            enum vcmp cmp = fn->expects[k].cmp;
            size_t n = x->rows * x->cols, wrong = 0;
            char line[1024] = "";
            for (size_t i = 0; i < n; i++) {
                vverdict v;
                if (vvalue_judge(fn, c, k, i, res[k].v[i], VCHECK_REF, P + 64, &v)) continue;
                if (wrong++) continue;                  /* the first wrong value is shown */
                char name[96], *g = num_round_decimal(res[k].v[i], VEC_DIGITS, MPFR_RNDN);
                fieldname(name, sizeof name, fn->expects[k].name, x, i);
                if (cmp == VC_INT)
                    snprintf(line, sizeof line, "%s: id %ld: %s: ref got %s expected %s (an exact integer)",
                             f->path, c->id, name, g ? g : "?", x->s[i]);
                else
                    snprintf(line, sizeof line, "%s: id %ld: %s: ref got %s expected %s (certified %ld bits%s)",
                             f->path, c->id, name, g ? g : "?", x->s[i], bits, v.why);
                free(g);
            }
            if (wrong) { wrong_line(out, line, wrong, n); ok = 0; }
        }
    }
    return ok;
}

/* One ref evaluation of case c at precision P, judged against c and, when
 * alt is not NULL (c with other expected values), against alt (*alt_ok,
 * nothing printed): the same evaluation serves both. */
static int check_ref_at(const vfile *f, const vcase *c, const vcase *alt, int *alt_ok, mpfr_prec_t P, long bits,
                        FILE *out)
{
    const vfunc *fn = f->fn;
    rtensor par[VEC_MAX_FIELDS] = {{0}}, in[VEC_MAX_FIELDS] = {{0}}, res[VEC_MAX_FIELDS] = {{0}};
    size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
    int conv = 0;
    for (size_t k = 0; k < np; k++) conv |= rt_from_v(&par[k], &c->param[k], P);
    for (size_t k = 0; k < ni; k++) conv |= rt_from_v(&in[k], &c->input[k], P);
    int st = conv ? FR_ENOMEM : fn->ref(par, in, res, P);
    int ok = ref_judge(f, c, conv, st, res, P, bits, out);
    if (alt) *alt_ok |= ref_judge(f, alt, conv, st, res, P, bits, NULL);
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { rt_free(&par[k]); rt_free(&in[k]); rt_free(&res[k]); }
    return ok;
}

/* Returns 1 if the ref result passes; alt, alt_ok as check_ref_at (alt is
 * judged at every precision tried: *alt_ok if it passes at any). */
static int check_ref(const vfile *f, const vcase *c, const vcase *alt, int *alt_ok, FILE *out)
{
    const vfunc *fn = f->fn;
    long bits = c->certified_bits ? c->certified_bits : 64;
    /* at P = max(bits, VEC_EVAL_BITS) + 32: never below what certifies the
     * generator's bits, whatever the file claims (a small certified_bits
     * loosens the comparison of reals, never ref's accuracy, its decisions
     * or its integers); iterative functions: + 128, then 2P and 4P (three
     * tries: the precision the trajectory needs depends on the case, as in
     * vgen.c) */
    mpfr_prec_t P = (bits > VEC_EVAL_BITS ? bits : VEC_EVAL_BITS) + (fn->iterative ? 128 : 32);
    int tries = fn->iterative ? 3 : 1;
    int ok = 0;
    for (int t = 0; t < tries && !ok; t++, P *= 2)
        ok = check_ref_at(f, c, alt, alt_ok, P, bits, t + 1 == tries ? out : NULL);
    return ok;
}

/* Judge fast's status s and results res against case c (statistics in
 * st); conv: the inputs could not be converted. */
static int fast_judge(const vfile *f, const vcase *c, int conv, int s, ftensor *res, FILE *out, vcheck_stats *st)
{
    const vfunc *fn = f->fn;
    size_t ne = vspec_count(fn->expects);
    int ok = 1;
    if (conv) {
        fprintf(out, "%s: id %ld: fast: cannot convert the inputs (out of memory)\n", f->path, c->id);
        ok = 0;
    } else if (c->invalid) {
        if (!fr_is_domain_error(s)) {
            fprintf(out, "%s: id %ld: result: fast got status %d (%s) expected a domain error\n",
                    f->path, c->id, s, fr_strerror(s));
            ok = 0;
        }
    } else if (s != FR_OK) {
        fprintf(out, "%s: id %ld: result: fast got status %d (%s) expected success\n",
                f->path, c->id, s, fr_strerror(s));
        ok = 0;
    } else {
        mpfr_t t;
        mpfr_init2(t, 53);
        for (size_t k = 0; k < ne; k++) {        /* every field: each wrong one reported */
            const vtensor *x = &c->expect[k];
            if (!same_shape(f, c, "fast", fn->expects[k].name, res[k].rows, res[k].cols, x, out)) {
                ok = 0;
                continue;
            }
            if (fn->expects[k].kind == VK_BOOL) {       /* exact; not in the error statistics */
                char g[32];
                snprintf(g, sizeof g, "%.17g", res[k].v[0]);
                ok &= bool_ok(f, c, "fast", fn->expects[k].name, x, ft_bool(res[k].v[0]), g, out);
                continue;
            }
            enum vcmp cmp = fn->expects[k].cmp;
            size_t n = x->rows * x->cols, wrong = 0;
            char line[1024] = "";
            for (size_t i = 0; i < n; i++) {
                vverdict v;
                mpfr_set_d(t, res[k].v[i], MPFR_RNDN);          /* exact */
                int pass = vvalue_judge(fn, c, k, i, t, VCHECK_FAST, CMP_PREC, &v);
                if (v.stat) {
                    if (v.relative) {
                        if (v.ulps > st->max_ulps) st->max_ulps = v.ulps;
                        if (v.rel > st->max_rel) st->max_rel = v.rel;
                        st->nrelative++;
                    }
                    if (v.tolfrac > st->max_tolfrac) st->max_tolfrac = v.tolfrac;
                }
                if (pass || wrong++) continue;          /* the first wrong value is shown */
                char name[96];
                fieldname(name, sizeof name, fn->expects[k].name, x, i);
                if (v.special)
                    snprintf(line, sizeof line, "%s: id %ld: %s: fast got %.17g expected %s",
                             f->path, c->id, name, res[k].v[i], x->s[i]);
                else if (cmp == VC_INT || cmp == VC_EXACT)
                    snprintf(line, sizeof line, "%s: id %ld: %s: fast got %.17g expected %s (%s)",
                             f->path, c->id, name, res[k].v[i], x->s[i], v.why + 2);
                else
                    snprintf(line, sizeof line, "%s: id %ld: %s: fast got %.17g expected %s (tol rel %s abs %s%s)",
                             f->path, c->id, name, res[k].v[i], x->s[i], c->tol_rel, c->tol_abs, v.why);
            }
            if (wrong) { wrong_line(out, line, wrong, n); ok = 0; }
        }
        mpfr_clear(t);
    }
    return ok;
}

/* One fast evaluation of case c, judged against c and alt as check_ref_at. */
static int check_fast(const vfile *f, const vcase *c, const vcase *alt, int *alt_ok, FILE *out, vcheck_stats *st)
{
    const vfunc *fn = f->fn;
    ftensor par[VEC_MAX_FIELDS] = {{0}}, in[VEC_MAX_FIELDS] = {{0}}, res[VEC_MAX_FIELDS] = {{0}};
    size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
    int conv = 0;
    for (size_t k = 0; k < np; k++) conv |= ft_from_v(&par[k], &c->param[k]);
    for (size_t k = 0; k < ni; k++) conv |= ft_from_v(&in[k], &c->input[k]);
    int s = conv ? FR_ENOMEM : fn->fast(par, in, res);
    int ok = fast_judge(f, c, conv, s, res, out, st);
    if (alt) {
        vcheck_stats ignored = {0};
        FILE *sink = fopen("/dev/null", "w");
        if (sink == NULL) *alt_ok = 1;            /* cannot judge: never claim a rejection */
        else { *alt_ok |= fast_judge(f, alt, conv, s, res, sink, &ignored); fclose(sink); }
    }
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { ft_free(&par[k]); ft_free(&in[k]); ft_free(&res[k]); }
    return ok;
}

int vcase_check(const vfile *f, const vcase *c, int impls, FILE *out, vcheck_stats *st)
{
    int ok = 1;
    if (impls & VCHECK_REF) ok &= check_ref(f, c, NULL, NULL, out);
    if (impls & VCHECK_FAST) ok &= check_fast(f, c, NULL, NULL, out, st);
    if (ok) st->passed++; else st->failed++;
    if (!c->invalid && c->certified_bits
        && (st->min_certified_bits == 0 || c->certified_bits < st->min_certified_bits))
        st->min_certified_bits = c->certified_bits;
    return ok;
}

void vfile_check(const vfile *f, int impls, FILE *out, vcheck_stats *st)
{
    for (size_t i = 0; i < f->ncases; i++) vcase_check(f, &f->cases[i], impls, out, st);
}

int vcase_check_pair(const vfile *f, const vcase *c, const vcase *alt, int impls, FILE *out, vcheck_stats *st)
{
    int ok = 1, alt_ref = 0, alt_fast = 0;
    if (impls & VCHECK_REF) ok &= check_ref(f, c, alt, &alt_ref, out);
    if (impls & VCHECK_FAST) ok &= check_fast(f, c, alt, &alt_fast, out, st);
    if (ok) st->passed++; else st->failed++;
    return (alt_ref ? VCHECK_REF : 0) | (alt_fast ? VCHECK_FAST : 0);
}
