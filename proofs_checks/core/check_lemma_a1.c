/* SPDX-License-Identifier: Apache-2.0 */
/* check_lemma_a1.c -- Lemma A.1 of 002 (Appendix, proof of Theorem V.1):
 *   "For any given a > 0,  |soft(t, a) - soft(t', a)| < 2 |t - t'|."  (45)
 *
 * pc_lemma_a1_strict (erratum E-002-A1a): with the strict '<' the printed
 *   statement is false at t = t' (0 < 0); it holds strictly for t != t'.
 *   Passes iff the printed form fails at t = t' AND the inequality holds
 *   for every t != t'.
 * pc_lemma_a1_sharp (erratum E-002-A1b): the constant 2 is not tight.
 *   soft(., a) is the prox of a|.|, hence firmly nonexpansive: its
 *   Lipschitz constant is 1, i.e. |soft(t,a) - soft(t',a)| <= |t - t'|,
 *   checked exactly on every case, with equality attained for t != t'
 *   (both t, t' > a: the constant 1 is sharp).  In case C3 of the proof
 *   (t > a, t' < -a) the difference is exactly |t - t'| - 2a, below
 *   |t - t'|, where the proof bounds it by |t - t'| + 2a <= 2|t - t'|.
 *
 * soft is fr_soft at a precision large enough that its correctly rounded
 * result is exact (the lemma is about the real function); differences are
 * exact (pcu_sub) and comparisons exact (mpfr_cmp).  Cases: every pair of
 * the regions t > a, |t| <= a, t < -a (C1..C9 of Table II), |t| = a
 * exactly, t' = t, t' = t + tiny, a from 2^-300 to 2^300. */
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_A1 UINT64_C(0x70632d6c656d61) /* "pc-lema" */

typedef struct { long m, e; } dy;
static const struct { dy t, u, a; } adv[] = {
    {{0, 0}, {0, 0}, {1, 0}},      /* t = t': the strict form fails */
    {{3, 0}, {2, 0}, {1, 0}},      /* C1: ratio 1 */
    {{2, 0}, {-2, 0}, {1, 0}},     /* C3: delta 2, |t-t'| 4 */
    {{1, 0}, {-1, 0}, {1, 0}},     /* |t| = |t'| = a */
    {{5, 0}, {5, 0}, {1, 0}},
    {{1, 0}, {1, -300}, {1, 0}},
    {{1, 200}, {-1, 200}, {1, 0}},
    {{1, 0}, {-1, 0}, {1, -300}},  /* C3 with a tiny: ratio near 1 */
    {{3, 300}, {1, 300}, {1, 299}},
    {{-7, 0}, {7, 0}, {3, 0}},     /* C8 */
};
#define NADV (sizeof adv / sizeof adv[0])

typedef struct {
    pc_ctx *ctx;
    frng_t g;
    mpfr_t tu[2];             /* t, t' */
    mpfr_t so[2];             /* soft(t, a), soft(t', a) */
    mpfr_t a, d, D, D2, tmp, eps, twoa;
    int region_t, region_u;   /* 1: > a, 0: |.| <= a, -1: < -a */
} a1;

static int region(const mpfr_t t, const mpfr_t a)
{
    if (mpfr_cmpabs(t, a) <= 0)
        return 0;
    return mpfr_sgn(t) > 0 ? 1 : -1;
}

static void a1_init(a1 *S, pc_ctx *ctx, uint64_t stream)
{
    memset(S, 0, sizeof *S);
    S->ctx = ctx;
    frng_init(&S->g, ctx->seed, stream);
    mpfr_inits2(64, S->tu[0], S->tu[1], S->a, S->so[0], S->so[1], S->d, S->D,
                S->D2, S->tmp, S->eps, S->twoa, (mpfr_ptr)0);
}

static void a1_clear(a1 *S)
{
    mpfr_clears(S->tu[0], S->tu[1], S->a, S->so[0], S->so[1], S->d, S->D,
                 S->D2, S->tmp, S->eps, S->twoa, (mpfr_ptr)0);
}

/* a random point of region r (1, 0, -1) for threshold a */
static void rand_in(a1 *S, mpfr_t x, int r)
{
    frng_t *g = &S->g;
    long ea = (long)mpfr_get_exp(S->a);
    if (r == 0) {
        unsigned long k = pcu_below(g, 8);
        if (k == 0) {                               /* |x| = a */
            pcu_set(x, S->a);
        } else {                                    /* a * f, |f| < 1 */
            mpfr_set_prec(S->eps, 64);
            pcu_rand_dyadic(S->eps, g, 1 + (unsigned)pcu_below(g, 40), -40, 0, 1);
            pcu_mul(x, S->a, S->eps);
        }
        if (pcu_below(g, 2))
            mpfr_neg(x, x, MPFR_RNDN);
        return;
    }
    mpfr_set_prec(S->eps, 64);
    switch (pcu_below(g, 4)) {
    case 0:                                         /* just outside */
        pcu_rand_dyadic_nz(S->eps, g, 1 + (unsigned)pcu_below(g, 8),
                           ea - 300, ea - 1, 1);
        break;
    case 1:                                         /* far outside */
        pcu_rand_dyadic_nz(S->eps, g, 1 + (unsigned)pcu_below(g, 53),
                           ea + 1, ea + 200, 1);
        break;
    default:
        pcu_rand_dyadic_nz(S->eps, g, 1 + (unsigned)pcu_below(g, 53),
                           ea - 4, ea + 4, 1);
    }
    pcu_add(x, S->a, S->eps);
    if (r < 0)
        mpfr_neg(x, x, MPFR_RNDN);
}

/* Generates case c, computes st = soft(t), su = soft(u) with fr_soft
 * (exactly), d = |st - su|, D = |t - u|.  Returns 0, or -1 on failure
 * (ctx->detail receives the reason if it is the first). */
static int a1_case(a1 *S, unsigned long c)
{
    if (c < NADV) {
        mpfr_set_prec(S->tu[0], 64);
        mpfr_set_prec(S->tu[1], 64);
        mpfr_set_prec(S->a, 64);
        mpfr_set_si_2exp(S->tu[0], adv[c].t.m, adv[c].t.e, MPFR_RNDN);
        mpfr_set_si_2exp(S->tu[1], adv[c].u.m, adv[c].u.e, MPFR_RNDN);
        mpfr_set_si_2exp(S->a, adv[c].a.m, adv[c].a.e, MPFR_RNDN);
    } else {
        frng_t *g = &S->g;
        mpfr_set_prec(S->a, 64);
        unsigned long am = pcu_below(g, 8);
        long lo = am == 0 ? -300 : am == 1 ? 250 : -8;
        pcu_rand_dyadic_nz(S->a, g, 1 + (unsigned)pcu_below(g, 53), lo,
                           lo + (am < 2 ? 50 : 16), 1);
        rand_in(S, S->tu[0], (int)pcu_below(g, 3) - 1);
        unsigned long um = pcu_below(g, 8);
        if (um == 0) {
            pcu_set(S->tu[1], S->tu[0]);                       /* t' = t */
        } else if (um == 1 && !mpfr_zero_p(S->tu[0])) {    /* t' = t + tiny */
            mpfr_set_prec(S->eps, 64);
            pcu_rand_dyadic_nz(S->eps, g, 4, (long)mpfr_get_exp(S->tu[0]) - 300,
                               (long)mpfr_get_exp(S->tu[0]) - 60, 0);
            pcu_add(S->tu[1], S->tu[0], S->eps);
        } else {
            rand_in(S, S->tu[1], (int)pcu_below(g, 3) - 1);
        }
    }
    S->region_t = region(S->tu[0], S->a);
    S->region_u = region(S->tu[1], S->a);
    /* output precision at which soft is exact */
    mpfr_prec_t need = 2;
    for (int k = 0; k < 2; k++) {
        if (pcu_sub(S->tmp, S->tu[k], S->a))
            return -1;
        if (mpfr_get_prec(S->tmp) > need)
            need = mpfr_get_prec(S->tmp);
        if (pcu_add(S->tmp, S->tu[k], S->a))
            return -1;
        if (mpfr_get_prec(S->tmp) > need)
            need = mpfr_get_prec(S->tmp);
    }
    mpfr_set_prec(S->so[0], need);
    mpfr_set_prec(S->so[1], need);
    if (fr_soft(S->so, S->tu, 2, S->a) != FR_OK)
        return -1;
    if (pcu_sub(S->tmp, S->so[0], S->so[1]) || pcu_abs(S->d, S->tmp) ||
        pcu_sub(S->tmp, S->tu[0], S->tu[1]) || pcu_abs(S->D, S->tmp) ||
        pcu_mul_si(S->D2, S->D, 2) || pcu_mul_si(S->twoa, S->a, 2))
        return -1;
    return 0;
}

static void fmt3(a1 *S, char *buf, size_t size)
{
    char bt[64], bu[64], ba[64];
    pcu_fmt(bt, sizeof bt, S->tu[0]);
    pcu_fmt(bu, sizeof bu, S->tu[1]);
    pcu_fmt(ba, sizeof ba, S->a);
    pcu_snprintf(buf, size, "t=%s t'=%s a=%s", bt, bu, ba);
}

int pc_lemma_a1_strict(pc_ctx *ctx)
{
    a1 S;
    unsigned long eq_fail = 0, neq = 0;
    char wit[200] = "", first[260] = "";

    ctx->function = "soft";
    ctx->vector = "soft";
    ctx->claim = "002 Lemma A.1 (45): |soft(t,a)-soft(t',a)| < 2|t-t'| is false at t = t' (holds for t != t')";
    ctx->erratum = "E-002-A1a";
    a1_init(&S, ctx, STREAM_A1);
    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        ctx->ran++;
        const char *why = NULL;
        if (a1_case(&S, c)) {
            why = "internal error or fr_soft failed";
        } else if (mpfr_equal_p(S.tu[0], S.tu[1])) {
            if (!(mpfr_cmp(S.d, S.D2) < 0)) {    /* the printed form fails */
                if (eq_fail++ == 0)
                    fmt3(&S, wit, sizeof wit);
            } else {
                why = "t = t' but the strict inequality holds?";
            }
        } else {
            neq++;
            if (!(mpfr_cmp(S.d, S.D2) < 0))
                why = "t != t' and |soft(t)-soft(t')| >= 2|t-t'|";
        }
        if (why && ctx->failed++ == 0) {
            char b[200];
            fmt3(&S, b, sizeof b);
            pcu_snprintf(first, sizeof first, "%s: %s", b, why);
        }
    }
    if (eq_fail == 0 && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "no case with t = t' refuted the strict form");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
             "printed (45) '<' fails at t = t' (0 < 0): witness %s, "
             "|soft-soft| = 0 = 2|t-t'| (%lu such cases); correct form '<=' "
             "(and '<' for t != t', %lu cases)%s%s",
             wit, eq_fail, neq, first[0] ? "; FIRST FAILURE " : "", first);
    a1_clear(&S);
    return ctx->failed ? 1 : 0;
}

int pc_lemma_a1_sharp(pc_ctx *ctx)
{
    a1 S;
    unsigned long attained = 0, c3 = 0;
    double sup = 0.0;
    char watt[200] = "", wc3[200] = "", first[260] = "", bgap[64] = "?";
    mpfr_t r, Dm2a, Dp2a, gap;

    ctx->function = "soft";
    ctx->vector = "soft";
    ctx->claim = "002 Lemma A.1: the Lipschitz constant of soft(.,a) is 1, not 2 (sharp); C3: delta = |t-t'| - 2a";
    ctx->erratum = "E-002-A1b";
    a1_init(&S, ctx, STREAM_A1 + 1);
    mpfr_inits2(64, r, Dm2a, Dp2a, gap, (mpfr_ptr)0);
    mpfr_set_inf(gap, 1);   /* min over C3 of 1 - ratio = 2a/|t-t'| */
    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        ctx->ran++;
        const char *why = NULL;
        if (a1_case(&S, c)) {
            why = "internal error or fr_soft failed";
        } else if (mpfr_cmp(S.d, S.D) > 0) {
            why = "|soft(t)-soft(t')| > |t-t'|: not 1-Lipschitz";
        } else if (!mpfr_zero_p(S.D)) {
            mpfr_div(r, S.d, S.D, MPFR_RNDN);   /* only for the report */
            double q = mpfr_get_d(r, MPFR_RNDN);
            if (q > sup)
                sup = q;
            if (mpfr_equal_p(S.d, S.D) && attained++ == 0)
                fmt3(&S, watt, sizeof watt);
            if (S.region_t * S.region_u == -1) {   /* C3 or C8 */
                c3++;
                mpfr_div(r, S.twoa, S.D, MPFR_RNDN);   /* report only */
                if (mpfr_cmp(r, gap) < 0)
                    mpfr_set(gap, r, MPFR_RNDN);
                if (pcu_sub(Dm2a, S.D, S.twoa) || pcu_add(Dp2a, S.D, S.twoa))
                    why = "internal error";
                else if (!mpfr_equal_p(S.d, Dm2a))
                    why = "C3: delta != |t-t'| - 2a";
                else if (!(mpfr_cmp(S.d, Dp2a) < 0 && mpfr_cmp(Dp2a, S.D2) <= 0))
                    why = "C3: the printed chain delta <= |t-t'|+2a <= 2|t-t'| fails";
                else if (c == 2)
                    fmt3(&S, wc3, sizeof wc3);
            }
        }
        if (why && ctx->failed++ == 0) {
            char b[200];
            fmt3(&S, b, sizeof b);
            pcu_snprintf(first, sizeof first, "%s: %s", b, why);
        }
    }
    if (attained == 0 && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "ratio 1 never attained: sharpness not shown");
    mpfr_snprintf(bgap, sizeof bgap, "%.3Rg", gap);
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
             "|soft(t,a)-soft(t',a)| <= |t-t'| on all cases (constant 1, not 2); "
             "ratio 1 attained on %lu cases (e.g. %s), sup %.17g; C3/C8 "
             "(t>a>-a>t'): delta = |t-t'|-2a exactly on %lu cases (%s: delta 2, "
             "|t-t'| 4, proof's bound |t-t'|+2a = 6, lemma's 2|t-t'| = 8), "
             "C3 ratio 1-2a/|t-t'| < 1, sup 1-%s%s%s",
             attained, watt, sup, c3, wc3, bgap,
             first[0] ? "; FIRST FAILURE " : "", first);
    mpfr_clears(r, Dm2a, Dp2a, gap, (mpfr_ptr)0);
    a1_clear(&S);
    return ctx->failed ? 1 : 0;
}
