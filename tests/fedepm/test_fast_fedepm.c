/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_fedepm.c -- Check unit tests of the binary64 FedEPM building
 * blocks of libfedfast: ff_logreg_fi/_f (002 Sec. VII-A), ff_fedepm_mu and
 * ff_fedepm_step (20), ff_laplace_scale_upper (27), _eq39_upper (39),
 * ff_laplace_density (25), ff_lambda_star (11), ff_stationarity_9/_10
 * (9)-(10), ff_stop_rule (Sec. VII-B).
 *
 * The oracle is MPFR code written here (exact sums and products at 4400
 * bits, transcendental functions at OP = 320 bits), independent of both
 * libraries; each test asserts the error bound of the contract through its
 * bound function (ff_*_bound, include/fedfast/fedepm.h; no formula is
 * re-typed here), the upward rounding of the Laplace scales exactly, the
 * exact decisions of the stopping rule, argument checks with outputs
 * unchanged (bound functions included).  Random cases come from the shared
 * generator (frng) with seed FEDREF_SEED (printed on failure). */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>                /* before mpfr.h, for mpfr_fprintf */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fast_fedepm(void);

#define OP 320                   /* oracle precision for exp, log1p, ... */
#define XP 4400                  /* exact sums of products of binary64 */
#define SENTINEL (-12345.678)

/* ---- replayable randomness from the shared generator --------------------- */

static uint64_t seed;
static frng_t rng;

#define SUITE_SEED 20240601u    /* the seed without FEDREF_SEED */
#define SUITE_STREAM 0x7e57fed0u    /* plus each test's own stream */

static int rnd_int(int lo, int hi)            /* uniform in [lo, hi] */
{
    uint64_t k;
    frng_below(&rng, (uint64_t)(hi - lo + 1), &k);
    return lo + (int)k;
}

/* Random sign, random 53-bit significand, exponent uniform in [elo, ehi]. */
static double rnd_double(int elo, int ehi)
{
    double f = (double)((frng_next64(&rng) >> 11) | (1ull << 52)) * 0x1p-53;
    double x = ldexp(f, rnd_int(elo, ehi));
    return frng_next64(&rng) & 1 ? -x : x;
}

/* A short dyadic k 2^-e, |k| < 2^10: exact arithmetic, kinks, ties. */
static double rnd_dyadic(void)
{
    return ldexp((double)rnd_int(-1023, 1023), -rnd_int(0, 8));
}

/* ---- MPFR helpers --------------------------------------------------------- */

/* The oracle's relative error is below 2^-(OP - 20): CK_WITHIN_ABS_REL
 * widens each absolute bound by that much of the oracle's value. */
#define ORACLE_BITS (OP - 20)

#define CK_EXACT(got, want) check_exact((got), (want), #got, __FILE__, __LINE__)
static void check_exact(double got, double want, const char *what,
                        const char *file, int line)
{
    ck_assert_msg(got == want || (got != got && want != want),
                  "%s:%d: %s = %a (%.17g), want %a (%.17g) [FEDREF_SEED=%llu]",
                  file, line, what, got, got, want, want, (unsigned long long)seed);
}

static void fill(double *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        x[i] = v;
}

#define CK_UNCHANGED(x, n) ck_unchanged((x), (n), __LINE__)
static void ck_unchanged(const double *x, size_t n, int line)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(x[i] == SENTINEL, "line %d: output %zu written on error", line, i);
}

/* ========================================================================= */
/* logistic loss and gradient                                                */
/* ========================================================================= */

/* Oracle of client i: f_i, g_i, and for the proved bound (former test)
 * A_i = (1/d) sum a_t, E_ij, X1_j = (1/d) sum_t |x_tj|. */
typedef struct {
    mpfr_t f, A;
    mpfr_t *g, *E, *X1;
} lr_oracle;

static void lr_init(lr_oracle *o, size_t n)
{
    mpfr_inits2(XP, o->f, o->A, (mpfr_ptr)0);
    o->g = malloc(3 * n * sizeof(mpfr_t));
    ck_assert_ptr_nonnull(o->g);
    o->E = o->g + n;
    o->X1 = o->E + n;
    for (size_t j = 0; j < 3 * n; j++)
        mpfr_init2(o->g[j], XP);
}

static void lr_clear(lr_oracle *o, size_t n)
{
    for (size_t j = 0; j < 3 * n; j++)
        mpfr_clear(o->g[j]);
    free(o->g);
    mpfr_clears(o->f, o->A, (mpfr_ptr)0);
}

/* g = gamma_k = k u / (1 - k u), rounded up. */
static void mp_gamma(mpfr_t g, unsigned long k)
{
    mpfr_t t;
    mpfr_init2(t, OP);
    mpfr_set_ui_2exp(t, k, -53, MPFR_RNDU);
    mpfr_ui_sub(g, 1, t, MPFR_RNDD);
    mpfr_div(g, t, g, MPFR_RNDU);
    mpfr_clear(t);
}

/* bound = gk * (x + y) + 2^-1068 (1 + z): the proved statement of the
 * former test, from the oracle's values (tighter than the input-based
 * ff_logreg_*_bound). */
static void mk_bound(mpfr_t bound, const mpfr_t gk, const mpfr_t x, const mpfr_t y,
                     const mpfr_t z)
{
    mpfr_t t;
    mpfr_init2(t, OP);
    mpfr_add(bound, x, y, MPFR_RNDU);
    mpfr_mul(bound, bound, gk, MPFR_RNDU);
    mpfr_add_ui(t, z, 1, MPFR_RNDU);
    mpfr_mul_2si(t, t, -1068, MPFR_RNDU);
    mpfr_add(bound, bound, t, MPFR_RNDU);
    mpfr_clear(t);
}

static void lr_oracle_client(lr_oracle *o, const fr_logreg *P, size_t i, const double *w)
{
    size_t n = P->n, off = 0, d = P->d[i];
    for (size_t k = 0; k < i; k++)
        off += P->d[k];
    mpfr_t u, a, t, s, r, pr;
    mpfr_inits2(XP, u, a, t, pr, (mpfr_ptr)0);
    mpfr_inits2(OP, s, r, (mpfr_ptr)0);
    mpfr_set_zero(o->f, 1);
    mpfr_set_zero(o->A, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_set_zero(o->g[j], 1);
        mpfr_set_zero(o->E[j], 1);
        mpfr_set_zero(o->X1[j], 1);
    }
    for (size_t q = 0; q < d; q++) {
        const double *x = P->X + (off + q) * n;
        mpfr_set_zero(u, 1);
        mpfr_set_zero(a, 1);
        for (size_t j = 0; j < n; j++) {          /* exact at XP bits */
            mpfr_set_d(pr, x[j], MPFR_RNDN);
            mpfr_mul_d(pr, pr, w[j], MPFR_RNDN);
            mpfr_add(u, u, pr, MPFR_RNDN);
            mpfr_abs(pr, pr, MPFR_RNDN);
            mpfr_add(a, a, pr, MPFR_RNDN);
        }
        mpfr_add(o->A, o->A, a, MPFR_RNDN);
        /* loss: ln(1 + e^u) - b u; ln(1 + e^u) = u + ln(1 + e^-u) for u > 0
         * keeps MPFR's exponent range for |u| ~ 2^400 */
        mpfr_abs(s, u, MPFR_RNDN);
        mpfr_neg(s, s, MPFR_RNDN);
        mpfr_exp(s, s, MPFR_RNDN);
        mpfr_log1p(t, s, MPFR_RNDN);
        if (mpfr_sgn(u) > 0)
            mpfr_add(t, t, u, MPFR_RNDN);
        if (P->b[off + q] != 0)
            mpfr_sub(t, t, u, MPFR_RNDN);
        mpfr_add(o->f, o->f, t, MPFR_RNDN);
        /* r = 1/(1 + e^-u) - b */
        mpfr_neg(r, u, MPFR_RNDN);
        mpfr_exp(r, r, MPFR_RNDN);
        mpfr_add_ui(r, r, 1, MPFR_RNDN);
        mpfr_ui_div(r, 1, r, MPFR_RNDN);
        if (P->b[off + q] != 0)
            mpfr_sub_ui(r, r, 1, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_mul_d(t, r, x[j], MPFR_RNDN);
            mpfr_add(o->g[j], o->g[j], t, MPFR_RNDN);
            mpfr_abs(t, r, MPFR_RNDN);
            mpfr_add(t, t, a, MPFR_RNDN);
            mpfr_mul_d(t, t, fabs(x[j]), MPFR_RNDN);
            mpfr_add(o->E[j], o->E[j], t, MPFR_RNDN);
            mpfr_add_d(o->X1[j], o->X1[j], fabs(x[j]), MPFR_RNDN);
        }
    }
    mpfr_div_ui(o->f, o->f, (unsigned long)d, MPFR_RNDN);
    mpfr_div_ui(o->A, o->A, (unsigned long)d, MPFR_RNDN);
    mpfr_set_zero(s, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_set_d(t, w[j], MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    mpfr_mul_d(s, s, P->beta / 2, MPFR_RNDN);      /* beta/2 exact for normal beta */
    mpfr_add(o->f, o->f, s, MPFR_RNDN);
    for (size_t j = 0; j < n; j++) {
        mpfr_div_ui(o->g[j], o->g[j], (unsigned long)d, MPFR_RNDN);
        mpfr_div_ui(o->E[j], o->E[j], (unsigned long)d, MPFR_RNDN);
        mpfr_div_ui(o->X1[j], o->X1[j], (unsigned long)d, MPFR_RNDN);
        mpfr_set_d(t, P->beta, MPFR_RNDN);
        mpfr_mul_d(t, t, w[j], MPFR_RNDN);
        mpfr_add(o->g[j], o->g[j], t, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_add(o->E[j], o->E[j], t, MPFR_RNDN);
    }
    mpfr_clears(u, a, t, s, r, pr, (mpfr_ptr)0);
}

/* CK_WITHIN_ABS_REL with an absolute bound from a bound function. */
#define CK_WITHIN_D(got, exact, bd) check_within_d((got), (exact), (bd), #got, __FILE__, __LINE__)
static void check_within_d(double got, const mpfr_t exact, double bd, const char *what,
                           const char *file, int line)
{
    mpfr_t b;
    mpfr_init2(b, 64);
    mpfr_set_d(b, bd, MPFR_RNDN);
    tu_check_within_abs_rel(got, exact, b, ORACLE_BITS, seed, what, file, line);
    mpfr_clear(b);
}

/* Check ff_logreg_fi for every client and ff_logreg_f against the oracle,
 * within ff_logreg_fi_bound and ff_logreg_f_bound. */
static void check_logreg(const fr_logreg *P, const double *w)
{
    size_t m = P->m, n = P->n, dmax = 0;
    double fi, *gi = malloc(n * sizeof *gi), f, *g = malloc(n * sizeof *g);
    double fb, *gb = malloc(n * sizeof *gb);
    ck_assert(gi && g && gb);
    lr_oracle o, tot;
    lr_init(&o, n);
    lr_init(&tot, n);
    mpfr_t gk, bound, z, tz;
    mpfr_inits2(OP, gk, bound, z, tz, (mpfr_ptr)0);
    mpfr_set_zero(tz, 1);
    for (size_t j = 0; j < n; j++)
        mpfr_set_zero(tot.g[j], 1), mpfr_set_zero(tot.E[j], 1), mpfr_set_zero(tot.X1[j], 1);
    mpfr_set_zero(tot.f, 1);
    mpfr_set_zero(tot.A, 1);
    for (size_t i = 0; i < m; i++) {
        dmax = P->d[i] > dmax ? P->d[i] : dmax;
        ck_assert_int_eq(ff_logreg_fi(&fi, gi, P, i, w), FR_OK);
        ck_assert_int_eq(ff_logreg_fi_bound(&fb, gb, P, i, w), FR_OK);
        lr_oracle_client(&o, P, i, w);
        CK_WITHIN_D(fi, o.f, fb);
        /* and the proved bound gamma_K (f_i + A_i) + 2^-1068 (1 + n beta),
         * K = d_i + n + 13, from the oracle (the former test's check) */
        mp_gamma(gk, P->d[i] + n + 13);
        mpfr_set_d(z, (double)n * P->beta, MPFR_RNDU);
        mpfr_add(tz, tz, z, MPFR_RNDU);
        mk_bound(bound, gk, o.f, o.A, z);
        CK_WITHIN_ABS_REL(fi, o.f, bound, ORACLE_BITS);
        mpfr_add(tot.f, tot.f, o.f, MPFR_RNDN);
        mpfr_add(tot.A, tot.A, o.A, MPFR_RNDN);
        mpfr_set_zero(z, 1);
        for (size_t j = 0; j < n; j++) {
            CK_WITHIN_D(gi[j], o.g[j], gb[j]);
            mk_bound(bound, gk, o.E[j], z, o.X1[j]);
            CK_WITHIN_ABS_REL(gi[j], o.g[j], bound, ORACLE_BITS);
            mpfr_add(tot.g[j], tot.g[j], o.g[j], MPFR_RNDN);
            mpfr_add(tot.E[j], tot.E[j], o.E[j], MPFR_RNDN);
            mpfr_add(tot.X1[j], tot.X1[j], o.X1[j], MPFR_RNDN);
            mpfr_add_ui(tot.X1[j], tot.X1[j], i == 0 ? 0 : 1, MPFR_RNDN);
        }
        /* f alone and g alone give the same values, and so do the bounds */
        double f2 = SENTINEL, *g2 = malloc(n * sizeof *g2);
        ck_assert_ptr_nonnull(g2);
        ck_assert_int_eq(ff_logreg_fi(&f2, NULL, P, i, w), FR_OK);
        ck_assert_int_eq(ff_logreg_fi(NULL, g2, P, i, w), FR_OK);
        CK_EXACT(f2, fi);
        for (size_t j = 0; j < n; j++)
            CK_EXACT(g2[j], gi[j]);
        ck_assert_int_eq(ff_logreg_fi_bound(&f2, NULL, P, i, w), FR_OK);
        ck_assert_int_eq(ff_logreg_fi_bound(NULL, g2, P, i, w), FR_OK);
        CK_EXACT(f2, fb);
        for (size_t j = 0; j < n; j++)
            CK_EXACT(g2[j], gb[j]);
        free(g2);
    }
    /* f = sum f_i, g = sum g_i */
    ck_assert_int_eq(ff_logreg_f(&f, g, P, w), FR_OK);
    ck_assert_int_eq(ff_logreg_f_bound(&fb, gb, P, w), FR_OK);
    CK_WITHIN_D(f, tot.f, fb);
    for (size_t j = 0; j < n; j++)
        CK_WITHIN_D(g[j], tot.g[j], gb[j]);
    /* the proved bound: gamma_{K+m}, K = max d_i + n + 13, m absolute terms */
    mp_gamma(gk, dmax + n + 13 + m);
    mpfr_add_ui(tz, tz, (unsigned long)m - 1, MPFR_RNDU);
    mk_bound(bound, gk, tot.f, tot.A, tz);
    CK_WITHIN_ABS_REL(f, tot.f, bound, ORACLE_BITS);
    mpfr_set_zero(z, 1);
    for (size_t j = 0; j < n; j++) {
        mk_bound(bound, gk, tot.E[j], z, tot.X1[j]);
        CK_WITHIN_ABS_REL(g[j], tot.g[j], bound, ORACLE_BITS);
    }
    mpfr_clears(gk, bound, z, tz, (mpfr_ptr)0);
    lr_clear(&o, n);
    lr_clear(&tot, n);
    free(gi);
    free(g);
    free(gb);
}

typedef struct {
    fr_logreg P;
    size_t d[8];
    double *X, *b;
} lr_problem;

/* m clients of 1..dmax samples, n features, X entries with exponents in
 * [elo, ehi], random labels. */
static void lr_random(lr_problem *p, size_t m, size_t n, size_t dmax, int elo, int ehi)
{
    size_t D = 0;
    for (size_t i = 0; i < m; i++)
        D += p->d[i] = (size_t)rnd_int(1, (int)dmax);
    p->X = malloc(D * n * sizeof *p->X);
    p->b = malloc(D * sizeof *p->b);
    ck_assert(p->X && p->b);
    for (size_t t = 0; t < D * n; t++)
        p->X[t] = rnd_double(elo, ehi);
    for (size_t t = 0; t < D; t++)
        p->b[t] = (double)(frng_next64(&rng) & 1);
    p->P = (fr_logreg){m, n, p->d, p->X, p->b, fabs(rnd_double(-12, 0)), 0};
}

static void lr_free(lr_problem *p)
{
    free(p->X);
    free(p->b);
}

START_TEST(logreg_random)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 1);
    for (int it = 0; it < 40; it++) {
        lr_problem p;
        size_t m = (size_t)rnd_int(1, 4), n = (size_t)rnd_int(1, 9);
        lr_random(&p, m, n, 12, -8, 1);
        double w[9];
        for (size_t j = 0; j < n; j++)
            w[j] = it % 4 == 0 ? 0.0 : rnd_double(-6, it % 3 == 0 ? 8 : 3);
        check_logreg(&p.P, w);
        lr_free(&p);
    }
}
END_TEST

START_TEST(logreg_synthetic)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 2);
    size_t m = 3, n = 6, d[3];
    ck_assert_int_eq(fr_synth_sizes(seed, m, 5, 20, d), FR_OK);
    size_t D = d[0] + d[1] + d[2];
    double *X = malloc(D * n * sizeof *X), *b = malloc(D * sizeof *b), w[6];
    ck_assert(X && b);
    ck_assert_int_eq(fr_synth_data(seed, m, n, d, X, b), FR_OK);
    fr_logreg P = {m, n, d, X, b, 0.001, 0};
    for (int it = 0; it < 5; it++) {
        for (size_t j = 0; j < n; j++)
            w[j] = rnd_double(-4, 4);
        check_logreg(&P, w);
    }
    free(X);
    free(b);
}
END_TEST

/* |<x, w>| up to ~2^400: finite, no NaN, and within the bound. */
START_TEST(logreg_huge_inner_products)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 3);
    for (int it = 0; it < 12; it++) {
        lr_problem p;
        size_t n = (size_t)rnd_int(1, 5);
        lr_random(&p, 2, n, 6, -2, 0);
        double w[5];
        for (size_t j = 0; j < n; j++)
            w[j] = rnd_double(it < 6 ? 395 : 8, it < 6 ? 400 : 12);
        double f, g[5];
        ck_assert_int_eq(ff_logreg_f(&f, g, &p.P, w), FR_OK);
        ck_assert(isfinite(f) && f >= 0);
        for (size_t j = 0; j < n; j++)
            ck_assert(isfinite(g[j]));
        check_logreg(&p.P, w);
        lr_free(&p);
    }
    /* one sample, x = 1: f = ln(1 + e^w) - b w + beta/2 w^2 at w = -+2^400:
     * the loss part is exactly representable-limited; the value is finite */
    size_t d1 = 1;
    double x1 = 1, b1 = 0, w1 = -0x1p400, f1, g1;
    fr_logreg P1 = {1, 1, &d1, &x1, &b1, 0x1p-900, 0};
    ck_assert_int_eq(ff_logreg_fi(&f1, &g1, &P1, 0, &w1), FR_OK);
    ck_assert(isfinite(f1) && isfinite(g1));
    check_logreg(&P1, &w1);
    w1 = 0x1p400;
    b1 = 1;
    check_logreg(&P1, &w1);
}
END_TEST

/* Wide rows: the rows go in blocks of about 16 KiB (4 rows at n = 600),
 * so a client spans several blocks; the results stay within the bounds. */
START_TEST(logreg_blocks)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 5);
    for (int it = 0; it < 4; it++) {
        lr_problem p;
        size_t n = it % 2 ? 600 : 257;
        lr_random(&p, (size_t)rnd_int(1, 3), n, 23, -6, 0);
        double *w = malloc(n * sizeof *w);
        ck_assert_ptr_nonnull(w);
        for (size_t j = 0; j < n; j++)
            w[j] = rnd_double(-8, 0);
        check_logreg(&p.P, w);
        free(w);
        lr_free(&p);
    }
}
END_TEST

/* The public functions test the client's rows of X block by block during
 * the pass, the results going to temporaries: a NaN in a late block, in
 * another client, or with a bad label is reported in class order and
 * leaves the outputs untouched; finite X whose <x, w> overflows is no
 * argument error. */
START_TEST(logreg_checks_in_pass)
{
    const size_t n = 600, d[3] = {5, 23, 9}, D = 37;
    double *X = malloc(D * n * sizeof *X), b[37], *w = malloc(n * sizeof *w);
    double f = SENTINEL, *g = malloc(n * sizeof *g);
    ck_assert(X && w && g);
    for (size_t t = 0; t < D * n; t++)
        X[t] = (double)((t * 7919) % 17) / 16 - 0.5;
    for (size_t t = 0; t < D; t++)
        b[t] = (double)(t % 2);
    for (size_t j = 0; j < n; j++)
        w[j] = 0.01 * (double)(j % 5);
    fill(g, n, SENTINEL);
    fr_logreg P = {3, n, d, X, b, 0.01, 0};
    const size_t late = (5 + 22) * n + 599;   /* the last entry of client 1 */
#define LR_UNTOUCHED(expect, call1, call2) do { \
        ck_assert_int_eq((call1), (expect)); ck_assert_int_eq((call2), (expect)); \
        CK_UNCHANGED(&f, 1); CK_UNCHANGED(g, n); } while (0)
    X[late] = NAN;
    LR_UNTOUCHED(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 1, w), ff_logreg_f(&f, g, &P, w));
    b[6] = 0.5;                                /* a bad label of client 1 as well */
    LR_UNTOUCHED(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 1, w), ff_logreg_f(&f, g, &P, w));
    P.beta = 0;
    LR_UNTOUCHED(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 1, w), ff_logreg_f(&f, g, &P, w));
    LR_UNTOUCHED(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 1, w), ff_logreg_fi(&f, g, &P, 2, w));
    LR_UNTOUCHED(FR_ESIZE, ff_logreg_fi(&f, g, &P, 3, w), ff_logreg_fi(&f, g, &P, SIZE_MAX, w));
    P.beta = 0.01;
    X[late] = INFINITY;
    LR_UNTOUCHED(FR_ENONFINITE, ff_logreg_fi(NULL, g, &P, 0, w), ff_logreg_f(&f, NULL, &P, w));
    X[late] = 1;
    LR_UNTOUCHED(FR_EDOM, ff_logreg_fi(&f, g, &P, 1, w), ff_logreg_fi(&f, g, &P, 0, w));
    b[6] = 1;
    LR_UNTOUCHED(FR_EDOM, ff_logreg_fi(&f, (double *)&f, &P, 1, w), ff_logreg_f(g + 3, g, &P, w));
    ck_assert_int_eq(ff_logreg_fi(&f, g, &P, 1, w), FR_OK);
    ck_assert(isfinite(f));
    /* finite X, <x, w> = +-Inf: FR_OK, the values may be infinite */
    double xo[2] = {0x1p1000, 0x1p1000}, bo = 0, wo[2] = {0x1p1000, 0x1p1000}, fo, go[2];
    size_t d1 = 1;
    fr_logreg O = {1, 2, &d1, xo, &bo, 0.5, 0};
    ck_assert_int_eq(ff_logreg_fi(&fo, go, &O, 0, wo), FR_OK);
    ck_assert(isinf(fo));
#undef LR_UNTOUCHED
    free(X);
    free(w);
    free(g);
}
END_TEST

/* gi may alias w. */
START_TEST(logreg_alias)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 4);
    lr_problem p;
    lr_random(&p, 2, 4, 5, -3, 0);
    double w[4], v[4], g[4];
    for (size_t j = 0; j < 4; j++)
        w[j] = v[j] = rnd_double(-3, 2);
    ck_assert_int_eq(ff_logreg_fi(NULL, g, &p.P, 1, w), FR_OK);
    ck_assert_int_eq(ff_logreg_fi(NULL, v, &p.P, 1, v), FR_OK);
    for (size_t j = 0; j < 4; j++)
        CK_EXACT(v[j], g[j]);
    lr_free(&p);
}
END_TEST

START_TEST(logreg_errors)
{
    size_t d[2] = {2, 1};
    double X[6] = {1, 2, -1, 0.5, 0, 3}, b[3] = {0, 1, 1}, w[2] = {0.5, -1};
    fr_logreg P = {2, 2, d, X, b, 0.1, 0};
    double f = SENTINEL, g[2];
    fill(g, 2, SENTINEL);
#define LR_BOTH(expect, call1, call2) do { \
        ck_assert_int_eq((call1), (expect)); ck_assert_int_eq((call2), (expect)); \
        CK_UNCHANGED(&f, 1); CK_UNCHANGED(g, 2); } while (0)
    LR_BOTH(FR_ENULL, ff_logreg_fi(NULL, NULL, &P, 0, w), ff_logreg_f(NULL, NULL, &P, w));
    LR_BOTH(FR_ENULL, ff_logreg_fi(&f, g, NULL, 0, w), ff_logreg_f(&f, g, NULL, w));
    LR_BOTH(FR_ENULL, ff_logreg_fi(&f, g, &P, 0, NULL), ff_logreg_f(&f, g, &P, NULL));
    ck_assert_int_eq(ff_logreg_fi(&f, g, &P, 2, w), FR_ESIZE);
    CK_UNCHANGED(&f, 1);
    CK_UNCHANGED(g, 2);
    double wn[2] = {NAN, 0}, wi[2] = {0, -INFINITY};
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 0, wn), ff_logreg_f(&f, g, &P, wn));
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi(&f, g, &P, 1, wi), ff_logreg_f(&f, g, &P, wi));
    fr_logreg Q = P;
    Q.beta = 0;
    LR_BOTH(FR_EDOM, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q.beta = -1;
    LR_BOTH(FR_EDOM, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q.beta = INFINITY;
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q = P;
    Q.m = 0;
    LR_BOTH(FR_ESIZE, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q = P;
    Q.n = 0;
    LR_BOTH(FR_ESIZE, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    size_t d0[2] = {2, 0};
    Q = P;
    Q.d = d0;
    LR_BOTH(FR_ESIZE, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    double bb[3] = {0, 0.5, 1}, XX[6] = {1, 2, -1, NAN, 0, 3};
    Q = P;
    Q.b = bb;
    LR_BOTH(FR_EDOM, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q = P;
    Q.X = XX;
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    Q = P;
    Q.X = NULL;
    LR_BOTH(FR_ENULL, ff_logreg_fi(&f, g, &Q, 0, w), ff_logreg_f(&f, g, &Q, w));
    /* the bound functions check the same way, and refuse beyond 2^400 */
    LR_BOTH(FR_ENULL, ff_logreg_fi_bound(NULL, NULL, &P, 0, w), ff_logreg_f_bound(NULL, NULL, &P, w));
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi_bound(&f, g, &P, 0, wn), ff_logreg_f_bound(&f, g, &P, wn));
    ck_assert_int_eq(ff_logreg_fi_bound(&f, g, &P, 2, w), FR_ESIZE);
    Q = P;
    Q.b = bb;
    LR_BOTH(FR_EDOM, ff_logreg_fi_bound(&f, g, &Q, 0, w), ff_logreg_f_bound(&f, g, &Q, w));
    Q = P;
    Q.X = XX;
    LR_BOTH(FR_ENONFINITE, ff_logreg_fi_bound(&f, g, &Q, 0, w), ff_logreg_f_bound(&f, g, &Q, w));
    double wbig[2] = {0x1.0000000000001p400, 0}, Xbig[6] = {1, 2, -1, 0.5, 0, -0x1p401};
    LR_BOTH(FR_EDOM, ff_logreg_fi_bound(&f, g, &P, 0, wbig), ff_logreg_f_bound(&f, g, &P, wbig));
    Q = P;
    Q.X = Xbig;
    LR_BOTH(FR_EDOM, ff_logreg_fi_bound(&f, g, &Q, 1, w), ff_logreg_f_bound(&f, g, &Q, w));
    ck_assert_int_eq(ff_logreg_fi_bound(&f, g, &Q, 0, w), FR_OK);   /* client 0 is in range */
#undef LR_BOTH
}
END_TEST

/* ========================================================================= */
/* mu of (20) and the client step                                            */
/* ========================================================================= */

static void mu_oracle(mpfr_t mu, double mu0, double c, double alpha, unsigned long kp1,
                      const double *wik, const double *w, size_t n)
{
    mpfr_t s, t;
    mpfr_inits2(XP, s, t, (mpfr_ptr)0);
    mpfr_set_zero(s, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_set_d(t, wik[j], MPFR_RNDN);
        mpfr_sub_d(t, t, w[j], MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    mpfr_mul_d(s, s, c, MPFR_RNDN);
    mpfr_add_ui(s, s, 1, MPFR_RNDN);
    mpfr_mul_d(s, s, mu0, MPFR_RNDN);
    mpfr_set_d(t, alpha, MPFR_RNDN);
    mpfr_prec_round(t, OP, MPFR_RNDN);
    mpfr_pow_ui(t, t, kp1, MPFR_RNDN);
    mpfr_set_prec(mu, OP);
    mpfr_mul(mu, s, t, MPFR_RNDN);
    mpfr_clears(s, t, (mpfr_ptr)0);
}

START_TEST(mu_random)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 5);
    mpfr_t mu, bound, gk;
    mpfr_inits2(OP, mu, bound, gk, (mpfr_ptr)0);
    for (int it = 0; it < 400; it++) {
        size_t n = (size_t)rnd_int(1, 20);
        double wik[20], w[20], got = SENTINEL;
        for (size_t j = 0; j < n; j++) {
            wik[j] = rnd_double(-10, 4);
            w[j] = it % 5 == 0 ? wik[j] : rnd_double(-10, 4);
        }
        double mu0 = fabs(rnd_double(-10, 3)), c = fabs(rnd_double(-30, 2));
        double alpha = 1 + fabs(rnd_double(-51, -2));
        unsigned long kp1 = (unsigned long)rnd_int(0, 2000);
        if (it % 7 == 0) {                 /* kp1 beyond 2^53, alpha near 1 */
            alpha = 1 + ldexp((double)rnd_int(1, 8), -52);
            kp1 = (1ul << 54) + (unsigned long)(frng_next64(&rng) >> 14);
        }
        ck_assert_int_eq(ff_fedepm_mu(&got, mu0, c, alpha, kp1, wik, w, n), FR_OK);
        double rel;
        ck_assert_int_eq(ff_fedepm_mu_bound(&rel, mu0, c, alpha, kp1, wik, w, n), FR_OK);
        mu_oracle(mu, mu0, c, alpha, kp1, wik, w, n);
        mpfr_mul_d(bound, mu, rel, MPFR_RNDU);
        CK_WITHIN_ABS_REL(got, mu, bound, ORACLE_BITS);
        /* and the proved tight bound of the former test, gamma_{n+14} mu */
        mp_gamma(gk, n + 14);
        mpfr_mul(bound, gk, mu, MPFR_RNDU);
        CK_WITHIN_ABS_REL(got, mu, bound, ORACLE_BITS);
    }
    mpfr_clears(mu, bound, gk, (mpfr_ptr)0);
}
END_TEST

START_TEST(mu_errors)
{
    double a[2] = {1, 2}, b[2] = {0, 0}, bad[2] = {0, NAN}, mu = SENTINEL;
    ck_assert_int_eq(ff_fedepm_mu(NULL, 1, 1, 2, 1, a, b, 2), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 2, 1, NULL, b, 2), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 2, 1, a, NULL, 2), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 2, 1, a, b, 0), FR_ESIZE);
    ck_assert_int_eq(ff_fedepm_mu(&mu, NAN, 1, 2, 1, a, b, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, INFINITY, 2, 1, a, b, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, -INFINITY, 1, a, b, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 0, 1, 2, 1, a, b, 2), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, -1, 2, 1, a, b, 2), FR_EDOM);   /* c = 0 is valid */
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 1, 1, a, b, 2), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 2, 1, bad, b, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_mu(&mu, 1, 1, 2, 1, a, bad, 2), FR_ENONFINITE);
    /* the bound function checks the same way */
    ck_assert_int_eq(ff_fedepm_mu_bound(NULL, 1, 1, 2, 1, a, b, 2), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_mu_bound(&mu, 1, 1, 2, 1, a, b, 0), FR_ESIZE);
    ck_assert_int_eq(ff_fedepm_mu_bound(&mu, NAN, 1, 2, 1, a, b, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_mu_bound(&mu, 1, 1, 1, 1, a, b, 2), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_mu_bound(&mu, 1, 1, 2, 1, bad, b, 2), FR_ENONFINITE);
    CK_UNCHANGED(&mu, 1);
}
END_TEST

/* Oracle of (20), component j, and the bound of the contract,
 * ff_fedepm_step_bound (one component). */
static void step_oracle(mpfr_t out, mpfr_t bound, double wi, double w, double g,
                        double lambda, double eta, double mu)
{
    double bd;
    ck_assert_int_eq(ff_fedepm_step_bound(&bd, &wi, &w, &g, 1, lambda, eta, mu), FR_OK);
    mpfr_set_d(bound, bd, MPFR_RNDN);
    mpfr_t wt, den;
    mpfr_inits2(XP, wt, den, (mpfr_ptr)0);
    mpfr_set_d(wt, wi, MPFR_RNDN);
    mpfr_sub_d(wt, wt, w, MPFR_RNDN);
    mpfr_mul_d(wt, wt, mu, MPFR_RNDN);
    mpfr_sub_d(wt, wt, g, MPFR_RNDN);                 /* exact */
    if (mpfr_cmp_d(wt, lambda) > 0)
        mpfr_sub_d(wt, wt, lambda, MPFR_RNDN);
    else if (mpfr_cmp_d(wt, -lambda) < 0)
        mpfr_add_d(wt, wt, lambda, MPFR_RNDN);
    else
        mpfr_set_zero(wt, 1);
    mpfr_set_d(den, eta, MPFR_RNDN);
    mpfr_add_d(den, den, mu, MPFR_RNDN);
    mpfr_set_prec(out, OP);
    mpfr_div(out, wt, den, MPFR_RNDN);
    mpfr_add_d(out, out, w, MPFR_RNDN);
    mpfr_clears(wt, den, (mpfr_ptr)0);
}

/* The proved tight bound of the former test, component j, from the
 * oracle: gamma_7 (|w| + (mu |wi - w| + |g|)/(eta + mu))
 * + 2^-1072 (1 + 1/(eta + mu)). */
static void step_tight_bound(mpfr_t bound, double wi, double w, double g, double eta,
                             double mu)
{
    mpfr_t den, t, T;
    mpfr_inits2(XP, den, t, T, (mpfr_ptr)0);
    mpfr_set_d(T, wi, MPFR_RNDN);
    mpfr_sub_d(T, T, w, MPFR_RNDN);
    mpfr_mul_d(T, T, mu, MPFR_RNDN);
    mpfr_abs(T, T, MPFR_RNDN);
    mpfr_add_d(T, T, fabs(g), MPFR_RNDN);             /* exact */
    mpfr_set_d(den, eta, MPFR_RNDN);
    mpfr_add_d(den, den, mu, MPFR_RNDN);
    mpfr_set_prec(bound, OP);
    mpfr_div(T, T, den, MPFR_RNDU);
    mpfr_add_d(T, T, fabs(w), MPFR_RNDU);
    mp_gamma(bound, 7);
    mpfr_mul(bound, bound, T, MPFR_RNDU);
    mpfr_ui_div(t, 1, den, MPFR_RNDU);
    mpfr_add_ui(t, t, 1, MPFR_RNDU);
    mpfr_mul_2si(t, t, -1072, MPFR_RNDU);
    mpfr_add(bound, bound, t, MPFR_RNDU);
    mpfr_clears(den, t, T, (mpfr_ptr)0);
}

START_TEST(step_random)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 6);
    mpfr_t ex, bound;
    mpfr_inits2(OP, ex, bound, (mpfr_ptr)0);
    for (int it = 0; it < 300; it++) {
        size_t n = (size_t)rnd_int(1, 12);
        double wi[12], w[12], g[12], out[12];
        double lambda = fabs(rnd_double(-8, 2)), eta = fabs(rnd_double(-8, 2));
        double mu = fabs(rnd_double(-8, 8));
        for (size_t j = 0; j < n; j++) {
            w[j] = rnd_double(-6, 3);
            wi[j] = j % 4 == 0 ? w[j] : rnd_double(-6, 3);   /* w_i = w */
            g[j] = rnd_double(-6, 3);
        }
        ck_assert_int_eq(ff_fedepm_step(out, wi, w, g, n, lambda, eta, mu), FR_OK);
        double bd[12];
        ck_assert_int_eq(ff_fedepm_step_bound(bd, wi, w, g, n, lambda, eta, mu), FR_OK);
        for (size_t j = 0; j < n; j++) {
            step_oracle(ex, bound, wi[j], w[j], g[j], lambda, eta, mu);
            CK_EXACT(bd[j], mpfr_get_d(bound, MPFR_RNDN));   /* componentwise */
            CK_WITHIN_ABS_REL(out[j], ex, bound, ORACLE_BITS);
            step_tight_bound(bound, wi[j], w[j], g[j], eta, mu);
            CK_WITHIN_ABS_REL(out[j], ex, bound, ORACLE_BITS);
        }
    }
    mpfr_clears(ex, bound, (mpfr_ptr)0);
}
END_TEST

/* Kinks |wt| = lambda (short dyadics: wt exact): wnext = w exactly; w_i = w:
 * wnext = w + soft(-g, lambda)/(eta + mu). */
START_TEST(step_kinks)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 7);
    mpfr_t ex, bound;
    mpfr_inits2(OP, ex, bound, (mpfr_ptr)0);
    int kinks = 0;
    for (int it = 0; it < 500; it++) {
        double w = rnd_dyadic(), wi = rnd_dyadic(), g = rnd_dyadic();
        double mu = ldexp((double)rnd_int(1, 64), -rnd_int(0, 4));
        double eta = ldexp((double)rnd_int(1, 64), -rnd_int(0, 4));
        double wt = mu * (wi - w) - g;                  /* exact: few bits */
        double lambda = fabs(wt), out;
        if (lambda == 0)
            continue;
        ck_assert_int_eq(ff_fedepm_step(&out, &wi, &w, &g, 1, lambda, eta, mu), FR_OK);
        CK_EXACT(out, w);
        kinks++;
        /* just past the kink: a nonzero step in the direction of wt */
        double l2 = nextafter(lambda, 0);
        ck_assert_int_eq(ff_fedepm_step(&out, &wi, &w, &g, 1, l2, eta, mu), FR_OK);
        step_oracle(ex, bound, wi, w, g, l2, eta, mu);
        CK_WITHIN_ABS_REL(out, ex, bound, ORACLE_BITS);
        ck_assert(wt > 0 ? out >= w : out <= w);
        /* w_i = w */
        ck_assert_int_eq(ff_fedepm_step(&out, &w, &w, &g, 1, lambda, eta, mu), FR_OK);
        step_oracle(ex, bound, w, w, g, lambda, eta, mu);
        CK_WITHIN_ABS_REL(out, ex, bound, ORACLE_BITS);
        if (fabs(g) <= lambda)
            CK_EXACT(out, w);
    }
    ck_assert_int_gt(kinks, 400);
    /* a hand case: mu = 2, wi = 3, w = 1, g = 2.5: wt = 1.5 */
    double wi = 3, w = 1, g = 2.5, out;
    ck_assert_int_eq(ff_fedepm_step(&out, &wi, &w, &g, 1, 1.5, 1, 2), FR_OK);
    CK_EXACT(out, 1);
    ck_assert_int_eq(ff_fedepm_step(&out, &wi, &w, &g, 1, 0.5, 1, 2), FR_OK);
    CK_EXACT(out, 1 + 1.0 / 3);                       /* 1 + 1/3, one rounding */
    mpfr_clears(ex, bound, (mpfr_ptr)0);
}
END_TEST

START_TEST(step_alias)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 8);
    for (int it = 0; it < 50; it++) {
        double wi[7], w[7], g[7], out[7];
        for (size_t j = 0; j < 7; j++)
            wi[j] = rnd_double(-4, 4), w[j] = rnd_double(-4, 4), g[j] = rnd_double(-4, 4);
        ck_assert_int_eq(ff_fedepm_step(out, wi, w, g, 7, 0.25, 0.5, 3), FR_OK);
        ck_assert_int_eq(ff_fedepm_step(wi, wi, w, g, 7, 0.25, 0.5, 3), FR_OK);
        for (size_t j = 0; j < 7; j++)
            CK_EXACT(wi[j], out[j]);
    }
}
END_TEST

START_TEST(step_errors)
{
    double a[2] = {1, 2}, z[2] = {0, 0}, bad[2] = {INFINITY, 0}, out[2];
    fill(out, 2, SENTINEL);
    ck_assert_int_eq(ff_fedepm_step(NULL, a, z, z, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_step(out, NULL, z, z, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_step(out, a, NULL, z, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, NULL, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 0, 1, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, NAN, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, 1, INFINITY, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, 1, 1, NAN), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, 0, 1, 1), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, 1, -1, 1), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, z, 2, 1, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_step(out, bad, z, z, 2, 1, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step(out, a, bad, z, 2, 1, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step(out, a, z, bad, 2, 1, 1, 1), FR_ENONFINITE);
    CK_UNCHANGED(out, 2);
    /* error with wnext == wi: wi unchanged */
    double wi[2] = {SENTINEL, SENTINEL};
    ck_assert_int_eq(ff_fedepm_step(wi, wi, z, bad, 2, 1, 1, 1), FR_ENONFINITE);
    CK_UNCHANGED(wi, 2);
    /* the bound function checks the same way; eta + mu must not overflow */
    ck_assert_int_eq(ff_fedepm_step_bound(NULL, a, z, z, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_fedepm_step_bound(out, a, z, z, 0, 1, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_fedepm_step_bound(out, a, z, z, 2, 0, 1, 1), FR_EDOM);
    ck_assert_int_eq(ff_fedepm_step_bound(out, a, z, z, 2, 1, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step_bound(out, a, z, bad, 2, 1, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedepm_step_bound(out, a, z, z, 2, 1, DBL_MAX, DBL_MAX), FR_EDOM);
    CK_UNCHANGED(out, 2);
}
END_TEST

/* ========================================================================= */
/* Laplace mechanism                                                         */
/* ========================================================================= */

/* nu is RU(num/(eps mu)): nu eps mu >= num > nextdown(nu) eps mu (exact
 * products), or nu = +Inf and DBL_MAX eps mu < num. */
static void check_ru(double nu, const mpfr_t num, double eps, double mu)
{
    mpfr_t p;
    mpfr_init2(p, XP);
    int ok;
    if (isinf(nu)) {
        mpfr_set_d(p, DBL_MAX, MPFR_RNDN);
        mpfr_mul_d(p, p, eps, MPFR_RNDN);
        mpfr_mul_d(p, p, mu, MPFR_RNDN);
        ok = nu > 0 && mpfr_less_p(p, num);
    } else {
        mpfr_set_d(p, nu, MPFR_RNDN);
        mpfr_mul_d(p, p, eps, MPFR_RNDN);
        mpfr_mul_d(p, p, mu, MPFR_RNDN);
        ok = nu > 0 && mpfr_greaterequal_p(p, num);
        mpfr_set_d(p, nextafter(nu, 0), MPFR_RNDN);
        mpfr_mul_d(p, p, eps, MPFR_RNDN);
        mpfr_mul_d(p, p, mu, MPFR_RNDN);
        ok = ok && mpfr_less_p(p, num);
    }
    if (!ok)
        mpfr_fprintf(stderr, "nu = %a (%.17g) is not RU(%.25Rg / (%a * %a))\n", nu, nu,
                     num, eps, mu);
    mpfr_clear(p);
    ck_assert_msg(ok, "nu = %a (%.17g) not the upward-rounded scale [FEDREF_SEED=%llu]",
                  nu, nu, (unsigned long long)seed);
}

START_TEST(scale27_upward)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 9);
    mpfr_t num, ex, bound;
    mpfr_init2(num, 64);
    mpfr_inits2(OP, ex, bound, (mpfr_ptr)0);
    for (int it = 0; it < 6000; it++) {
        int wide = it % 3 == 0;
        double Delta = fabs(rnd_double(wide ? -1074 : -20, wide ? 1023 : 20));
        double eps = fabs(rnd_double(wide ? -1074 : -20, wide ? 1023 : 20));
        double mu = fabs(rnd_double(wide ? -1074 : -20, wide ? 1023 : 20));
        if (it % 5 == 1)                    /* exact quotients: Delta = k eps mu */
            eps = ldexp(1, rnd_int(-30, 30)), Delta = ldexp(mu, rnd_int(-60, 60));
        if (!isfinite(Delta) || Delta == 0 || eps == 0 || mu == 0)
            continue;
        double nu = SENTINEL, rel, abs;
        ck_assert_int_eq(ff_laplace_scale_upper(&nu, Delta, eps, mu), FR_OK);
        mpfr_set_d(num, Delta, MPFR_RNDN);
        check_ru(nu, num, eps, mu);
        /* the bound function: 0 <= nu - exact <= rel exact + abs (finite nu) */
        ck_assert_int_eq(ff_laplace_scale_upper_bound(&rel, &abs, Delta, eps, mu), FR_OK);
        if (isinf(nu))
            continue;
        mpfr_set_d(ex, Delta, MPFR_RNDN);
        mpfr_div_d(ex, ex, eps, MPFR_RNDN);
        mpfr_div_d(ex, ex, mu, MPFR_RNDN);
        mpfr_mul_d(bound, ex, rel, MPFR_RNDU);
        mpfr_add_d(bound, bound, abs, MPFR_RNDU);
        CK_WITHIN_ABS_REL(nu, ex, bound, ORACLE_BITS);
    }
    /* the experiments' magnitudes, and a hand value: 1/(3 * 1) rounded up */
    double nu;
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 1, 3, 1), FR_OK);
    CK_EXACT(nu, nextafter(1.0 / 3, 1));              /* RN(1/3) < 1/3 */
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 2, 1, 0.5), FR_OK);
    CK_EXACT(nu, 4);
    mpfr_clears(num, ex, bound, (mpfr_ptr)0);
}
END_TEST

START_TEST(scale39_upper)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 10);
    mpfr_t S, x, bound, gk, tight;
    mpfr_init2(S, XP);
    mpfr_inits2(OP, x, bound, gk, tight, (mpfr_ptr)0);
    for (int it = 0; it < 1500; it++) {
        size_t n = (size_t)rnd_int(1, 30);
        double g[30];
        int wide = it % 4 == 0;
        for (size_t j = 0; j < n; j++)
            g[j] = rnd_double(wide ? -1074 : -30, wide ? 1000 : 10);
        if (it % 6 == 0)
            g[0] = 0;
        double eps = fabs(rnd_double(-10, 5)), mu = fabs(rnd_double(-10, 10)), nu, rel, abs;
        ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, g, n, eps, mu), FR_OK);
        ck_assert_int_eq(ff_laplace_scale_eq39_upper_bound(&rel, &abs, g, n, eps, mu), FR_OK);
        mpfr_set_zero(S, 1);
        for (size_t j = 0; j < n; j++)
            mpfr_add_d(S, S, fabs(g[j]), MPFR_RNDN);            /* exact */
        mpfr_mul_2ui(S, S, 1, MPFR_RNDN);
        mpfr_div_d(x, S, eps, MPFR_RNDU);
        mpfr_div_d(x, x, mu, MPFR_RNDU);
        mpfr_mul_d(bound, x, rel, MPFR_RNDU);
        mpfr_add(bound, bound, x, MPFR_RNDU);                /* x (1 + rel) */
        mp_gamma(gk, 3 * n + 10);            /* the former test's x (1 + gamma_{3n+10}) */
        mpfr_add_ui(gk, gk, 1, MPFR_RNDU);
        mpfr_mul(tight, x, gk, MPFR_RNDU);
        if (isinf(nu)) {                   /* only if the upper bound overflows */
            ck_assert(nu > 0 && mpfr_cmp_d(bound, DBL_MAX) > 0);
            ck_assert(mpfr_cmp_d(tight, DBL_MAX) > 0);
            continue;
        }
        mpfr_t p;                                     /* lower: nu eps mu >= 2S */
        mpfr_init2(p, XP);
        mpfr_set_d(p, nu, MPFR_RNDN);
        mpfr_mul_d(p, p, eps, MPFR_RNDN);
        mpfr_mul_d(p, p, mu, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(p, S), "nu = %a below 2||g||_1/(eps mu)"
                      " [FEDREF_SEED=%llu]", nu, (unsigned long long)seed);
        mpfr_clear(p);
        /* upper: nu <= x (1 + rel) + abs, ff_laplace_scale_eq39_upper_bound */
        mpfr_add_d(bound, bound, abs, MPFR_RNDU);
        ck_assert_msg(mpfr_cmp_d(bound, nu) >= 0, "nu = %a (%.17g) too far above"
                      " [FEDREF_SEED=%llu]", nu, nu, (unsigned long long)seed);
        /* and the proved tight bound of the former test:
         * nu <= x (1 + gamma_{3n+10}) + 2^-1074 */
        mpfr_add_d(tight, tight, 0x1p-1074, MPFR_RNDU);
        ck_assert_msg(mpfr_cmp_d(tight, nu) >= 0, "nu = %a (%.17g) above x (1 +"
                      " gamma_{3n+10}) + 2^-1074 [FEDREF_SEED=%llu]", nu, nu,
                      (unsigned long long)seed);
    }
    double z[3] = {0, -0.0, 0}, nu = SENTINEL;
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, z, 3, 0.5, 2), FR_OK);
    ck_assert(nu == 0 && !signbit(nu));
    mpfr_clears(S, x, bound, gk, tight, (mpfr_ptr)0);
}
END_TEST

START_TEST(density_random)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 11);
    mpfr_t p, t, bound, c;
    mpfr_inits2(OP, p, t, bound, c, (mpfr_ptr)0);
    for (int it = 0; it < 3000; it++) {
        double nu = fabs(rnd_double(it % 4 == 0 ? -1000 : -20, it % 4 == 0 ? 1000 : 20));
        double x = rnd_double(-30, 10) * nu * (it % 3 == 0 ? 100 : 1);
        int printed = it & 1;
        if (!isfinite(x) || nu == 0)
            continue;
        double got, rel, abs;
        ck_assert_int_eq(ff_laplace_density(&got, x, nu, printed), FR_OK);
        ck_assert_int_eq(ff_laplace_density_bound(&rel, &abs, x, nu, printed), FR_OK);
        ck_assert(got >= 0);
        mpfr_set_d(t, fabs(x), MPFR_RNDN);
        mpfr_div_d(t, t, printed ? 2 * nu : nu, MPFR_RNDN);    /* t */
        if (printed && !isfinite(2 * nu)) {
            mpfr_set_d(t, fabs(x), MPFR_RNDN);
            mpfr_div_d(t, t, nu, MPFR_RNDN);
            mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        }
        mpfr_neg(p, t, MPFR_RNDN);
        mpfr_exp(p, p, MPFR_RNDN);
        mpfr_div_d(p, p, nu, MPFR_RNDN);
        mpfr_div_2ui(p, p, 1, MPFR_RNDN);                       /* / (2 nu) */
        /* bound rel p + abs, ff_laplace_density_bound */
        mpfr_mul_d(bound, p, rel, MPFR_RNDU);
        mpfr_add_d(bound, bound, abs, MPFR_RNDU);
        CK_WITHIN_ABS_REL(got, p, bound, ORACLE_BITS);
        /* and the proved tight bound of the former test:
         * (1.01 t + 6) u p + 2^-1072 (1 + 1/nu) */
        mpfr_mul_d(bound, t, 1.01, MPFR_RNDU);
        mpfr_add_ui(bound, bound, 6, MPFR_RNDU);
        mpfr_mul(bound, bound, p, MPFR_RNDU);
        mpfr_mul_2si(bound, bound, -53, MPFR_RNDU);
        mpfr_set_d(c, nu, MPFR_RNDN);
        mpfr_ui_div(c, 1, c, MPFR_RNDU);
        mpfr_add_ui(c, c, 1, MPFR_RNDU);
        mpfr_mul_2si(c, c, -1072, MPFR_RNDU);
        mpfr_add(bound, bound, c, MPFR_RNDU);
        CK_WITHIN_ABS_REL(got, p, bound, ORACLE_BITS);
    }
    /* hand values: x = 0 gives 1/(2 nu) in both forms; the printed form at
     * x gives the standard form at x/2 */
    double a, b;
    ck_assert_int_eq(ff_laplace_density(&a, 0, 0.25, 0), FR_OK);
    CK_EXACT(a, 2);
    ck_assert_int_eq(ff_laplace_density(&a, -0.0, 0.25, 1), FR_OK);
    CK_EXACT(a, 2);
    ck_assert_int_eq(ff_laplace_density(&a, 3, 0.75, 1), FR_OK);
    ck_assert_int_eq(ff_laplace_density(&b, 1.5, 0.75, 0), FR_OK);
    CK_EXACT(a, b);
    ck_assert_int_eq(ff_laplace_density(&a, 1e300, 1e-300, 0), FR_OK);
    CK_EXACT(a, 0);                                            /* underflow */
    mpfr_clears(p, t, bound, c, (mpfr_ptr)0);
}
END_TEST

START_TEST(laplace_errors)
{
    double nu = SENTINEL, g[2] = {1, NAN}, h[2] = {1, 2};
    ck_assert_int_eq(ff_laplace_scale_upper(NULL, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, NAN, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 1, INFINITY, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 1, 1, -INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 0, 1, 1), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 1, -1, 1), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, 1, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(NULL, h, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, NULL, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, h, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, h, 2, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, h, 2, 1, INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, h, 2, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, h, 2, 1, -2), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, g, 2, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_density(NULL, 1, 1, 0), FR_ENULL);
    ck_assert_int_eq(ff_laplace_density(&nu, NAN, 1, 0), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_density(&nu, 1, INFINITY, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_density(&nu, 1, 0, 0), FR_EDOM);
    ck_assert_int_eq(ff_laplace_density(&nu, 1, -1, 1), FR_EDOM);
    CK_UNCHANGED(&nu, 1);
    /* the bound functions check the same way */
    double rel = SENTINEL, abs = SENTINEL;
    ck_assert_int_eq(ff_laplace_scale_upper_bound(NULL, &abs, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_laplace_scale_upper_bound(&rel, &abs, NAN, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_scale_upper_bound(&rel, &abs, 1, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper_bound(&rel, &abs, h, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper_bound(&rel, &abs, h, 2, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_laplace_scale_eq39_upper_bound(&rel, &abs, g, 2, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_density_bound(&rel, &abs, 1, INFINITY, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_laplace_density_bound(&rel, &abs, 1, -1, 0), FR_EDOM);
    ck_assert_int_eq(ff_laplace_density_bound(&rel, NULL, 1, 1, 0), FR_ENULL);
    ck_assert(rel == SENTINEL && abs == SENTINEL);
}
END_TEST

/* ========================================================================= */
/* exact penalty (9)-(11)                                                    */
/* ========================================================================= */

START_TEST(penalty_random)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 12);
    mpfr_t s, t, r1, r2, mx, bound;
    mpfr_inits2(XP, s, t, r1, r2, mx, (mpfr_ptr)0);
    mpfr_init2(bound, OP);
    for (int it = 0; it < 300; it++) {
        size_t m = (size_t)rnd_int(1, 7), n = (size_t)rnd_int(1, 6);
        double G[42], W[42], w[6];
        int dy = it % 2;                       /* short dyadics: many kinks */
        double lambda = fabs(rnd_dyadic()) + 0.125;
        double eta = dy ? ldexp((double)rnd_int(1, 64), -3) : fabs(rnd_double(-6, 3));
        for (size_t j = 0; j < n; j++)
            w[j] = dy ? rnd_dyadic() : rnd_double(-8, 4);
        for (size_t k = 0; k < m * n; k++) {
            G[k] = dy ? rnd_dyadic() : rnd_double(-8, 4);
            W[k] = rnd_int(0, 2) == 0 ? w[k % n] : dy ? rnd_dyadic() : rnd_double(-8, 4);
            if (rnd_int(0, 5) == 0)
                G[k] = rnd_int(0, 1) ? lambda : -lambda;           /* |G| = lambda */
        }
        double lam = SENTINEL, rc, rs, rset, rs10, cons_rel, sum9, set_abs, sum10;
        ck_assert_int_eq(ff_lambda_star(&lam, G, m, n), FR_OK);
        ck_assert_int_eq(ff_stationarity_9(&rc, &rs, G, W, w, m, n), FR_OK);
        ck_assert_int_eq(ff_stationarity_10(&rset, &rs10, G, W, w, m, n, lambda, eta), FR_OK);
        ck_assert_int_eq(ff_stationarity_9_bound(&cons_rel, &sum9, G, W, w, m, n), FR_OK);
        ck_assert_int_eq(ff_stationarity_10_bound(&set_abs, &sum10, G, W, w, m, n, lambda, eta),
                         FR_OK);
        /* lambda*: exact */
        double lmx = 0;
        for (size_t k = 0; k < m * n; k++)
            lmx = fabs(G[k]) > lmx ? fabs(G[k]) : lmx;
        CK_EXACT(lam, lmx);
        /* (9): r_cons correctly rounded, and within cons_rel; r_sum within sum9 */
        mpfr_set_zero(mx, 1);
        for (size_t k = 0; k < m * n; k++) {
            mpfr_set_d(t, W[k], MPFR_RNDN);
            mpfr_sub_d(t, t, w[k % n], MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_max(mx, mx, t, MPFR_RNDN);
        }
        CK_EXACT(rc, mpfr_get_d(mx, MPFR_RNDN));
        mpfr_mul_d(bound, mx, cons_rel, MPFR_RNDU);
        CK_WITHIN_ABS_REL(rc, mx, bound, ORACLE_BITS);
        mpfr_set_zero(r1, 1);
        for (size_t j = 0; j < n; j++) {
            mpfr_set_zero(s, 1);
            for (size_t i = 0; i < m; i++)
                mpfr_add_d(s, s, G[i * n + j], MPFR_RNDN);
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(r1, r1, s, MPFR_RNDN);
        }
        mpfr_set_d(bound, sum9, MPFR_RNDN);
        CK_WITHIN_ABS_REL(rs, r1, bound, ORACLE_BITS);
        /* (10): exact residuals from the definition (pi in sgn as a set) */
        mpfr_set_zero(r1, 1);                  /* r_set */
        mpfr_set_zero(r2, 1);                  /* r_sum */
        for (size_t j = 0; j < n; j++) {
            mpfr_set_zero(s, 1);
            for (size_t i = 0; i < m; i++) {
                double Gij = G[i * n + j];
                mpfr_t dl, v;
                mpfr_inits2(XP, dl, v, (mpfr_ptr)0);
                mpfr_set_d(dl, W[i * n + j], MPFR_RNDN);
                mpfr_sub_d(dl, dl, w[j], MPFR_RNDN);
                mpfr_mul_d(dl, dl, eta, MPFR_RNDN);            /* eta delta */
                int sg = mpfr_sgn(dl);
                /* distance from 0 to G + lambda [lo, hi] + eta delta */
                mpfr_add_d(v, dl, Gij, MPFR_RNDN);
                if (sg != 0) {
                    mpfr_add_d(v, v, sg > 0 ? lambda : -lambda, MPFR_RNDN);
                    mpfr_abs(v, v, MPFR_RNDN);
                    mpfr_add_d(t, dl, sg > 0 ? lambda : -lambda, MPFR_RNDN);
                } else {
                    mpfr_abs(v, v, MPFR_RNDN);
                    mpfr_sub_d(v, v, lambda, MPFR_RNDN);
                    if (mpfr_sgn(v) < 0)
                        mpfr_set_zero(v, 1);
                    mpfr_set_d(t, -fmin(fmax(Gij, -lambda), lambda), MPFR_RNDN);
                }
                mpfr_max(r1, r1, v, MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
                mpfr_clears(dl, v, (mpfr_ptr)0);
            }
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(r2, r2, s, MPFR_RNDN);
        }
        mpfr_set_d(bound, set_abs, MPFR_RNDN);
        CK_WITHIN_ABS_REL(rset, r1, bound, ORACLE_BITS);
        mpfr_set_d(bound, sum10, MPFR_RNDN);
        CK_WITHIN_ABS_REL(rs10, r2, bound, ORACLE_BITS);
        if (dy) {                               /* dyadics: everything exact */
            CK_EXACT(rset, mpfr_get_d(r1, MPFR_RNDN));
            CK_EXACT(rs10, mpfr_get_d(r2, MPFR_RNDN));
        }
    }
    mpfr_clears(s, t, r1, r2, mx, bound, (mpfr_ptr)0);
}
END_TEST

/* A stationary point of (6) is one of (7) for lambda >= lambda* (Theorem
 * III.1): with W = w (rows) and sum_i G_i = 0, both residuals vanish. */
START_TEST(penalty_theorem)
{
    double G[6] = {0.5, -0.25, 1.5, -0.5, 0.25, -1.5}, W[6] = {1, 2, 3, 1, 2, 3};
    double w[3] = {1, 2, 3}, lam, rc, rs, rset, rs10;
    ck_assert_int_eq(ff_lambda_star(&lam, G, 2, 3), FR_OK);
    CK_EXACT(lam, 1.5);
    ck_assert_int_eq(ff_stationarity_9(&rc, &rs, G, W, w, 2, 3), FR_OK);
    CK_EXACT(rc, 0);
    CK_EXACT(rs, 0);
    ck_assert_int_eq(ff_stationarity_10(&rset, &rs10, G, W, w, 2, 3, lam, 0.1), FR_OK);
    CK_EXACT(rset, 0);
    CK_EXACT(rs10, 0);
    ck_assert_int_eq(ff_stationarity_10(&rset, &rs10, G, W, w, 2, 3, 1.0, 0.1), FR_OK);
    CK_EXACT(rset, 0.5);                       /* lambda < lambda*: |1.5| - 1 */
}
END_TEST

START_TEST(penalty_errors)
{
    double G[2] = {1, 2}, W[2] = {0, 1}, w[1] = {0}, bad[2] = {1, NAN}, o1 = SENTINEL,
           o2 = SENTINEL;
    ck_assert_int_eq(ff_lambda_star(NULL, G, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_lambda_star(&o1, NULL, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_lambda_star(&o1, G, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_lambda_star(&o1, G, 2, 0), FR_ESIZE);
    ck_assert_int_eq(ff_lambda_star(&o1, bad, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_9(NULL, &o2, G, W, w, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9(&o1, NULL, G, W, w, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, NULL, W, w, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, G, NULL, w, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, G, W, NULL, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, G, W, w, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, bad, W, w, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, G, bad, w, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_9(&o1, &o2, G, W, bad + 1, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10(NULL, &o2, G, W, w, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, NULL, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, w, 2, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, w, 2, 1, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, w, 2, 1, 1, INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, w, 2, 1, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, W, w, 2, 1, 1, -1), FR_EDOM);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, bad, W, w, 2, 1, 1, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10(&o1, &o2, G, bad, w, 2, 1, 1, 1), FR_ENONFINITE);
    /* the bound functions check the same way */
    ck_assert_int_eq(ff_stationarity_9_bound(NULL, &o2, G, W, w, 2, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_9_bound(&o1, &o2, G, W, w, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_stationarity_9_bound(&o1, &o2, bad, W, w, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10_bound(&o1, &o2, G, W, NULL, 2, 1, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_stationarity_10_bound(&o1, &o2, G, W, w, 2, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_stationarity_10_bound(&o1, &o2, G, W, w, 2, 1, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_stationarity_10_bound(&o1, &o2, G, W, w, 2, 1, 1, INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_stationarity_10_bound(&o1, &o2, G, bad, w, 2, 1, 1, 1), FR_ENONFINITE);
    CK_UNCHANGED(&o1, 1);
    CK_UNCHANGED(&o2, 1);
}
END_TEST

/* ========================================================================= */
/* stopping rule                                                             */
/* ========================================================================= */

/* Exact decision of gnorm2 < 10^-6. */
static int grad_exact(double g2)
{
    mpfr_t t;
    mpfr_init2(t, 200);
    mpfr_set_d(t, g2, MPFR_RNDN);
    mpfr_mul_ui(t, t, 1000000, MPFR_RNDN);             /* exact */
    int r = mpfr_cmp_ui(t, 1) < 0;
    mpfr_clear(t);
    return r;
}

START_TEST(stop_gradient_exact)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 13);
    double f[1] = {1};
    double probes[] = {0, 1e-6, nextafter(1e-6, 0), nextafter(1e-6, 1), 2e-6, 1e300};
    for (int it = 0; it < 1000 + 6; it++) {
        double g2 = it < 6 ? probes[it] : fabs(rnd_double(-22, -17));
        int st = -1;
        ck_assert_int_eq(ff_stop_rule(&st, g2, f, 1, 3), FR_OK);
        ck_assert_msg((st == FR_STOP_GRAD) == grad_exact(g2),
                      "gnorm2 = %a (%.17g): stop = %d [FEDREF_SEED=%llu]", g2, g2, st,
                      (unsigned long long)seed);
        ck_assert(st == FR_STOP_GRAD || st == FR_STOP_ROUNDS);
    }
}
END_TEST

/* var and thr in MPFR (1200 bits), the gap of the contract
 * (ff_stop_rule_bound), the decision. */
START_TEST(stop_variance)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 14);
    mpfr_t mean, var, thr, t, diff;
    mpfr_inits2(1200, mean, var, thr, t, diff, (mpfr_ptr)0);
    int decided = 0, fired = 0, quiet = 0;
    for (int it = 0; it < 3000; it++) {
        size_t n = (size_t)rnd_int(1, 100), nf = (size_t)rnd_int(4, 9);
        double f[9], base = rnd_double(-10, 12);
        /* deviations scaled around the threshold: var ~ thr 2^k */
        double thr_d = (double)n * 1e-8 / (1 + fabs(base));
        double sc = sqrt(thr_d) * ldexp(1, rnd_int(-3, 3)) * (1 + rnd_double(-40, -1));
        for (size_t k = 0; k < nf; k++)
            f[k] = base + sc * rnd_double(-1, 0);
        if (it % 10 == 0)
            f[nf - 1] = f[nf - 2] = f[nf - 3] = f[nf - 4] = base;
        int st = -1;
        double gap;
        ck_assert_int_eq(ff_stop_rule(&st, 1.0, f, nf, n), FR_OK);
        ck_assert_int_eq(ff_stop_rule_bound(&gap, 1.0, f, nf, n), FR_OK);
        const double *v = f + nf - 4;
        mpfr_set_zero(mean, 1);
        for (int k = 0; k < 4; k++)
            mpfr_add_d(mean, mean, v[k], MPFR_RNDN);
        mpfr_div_2ui(mean, mean, 2, MPFR_RNDN);
        mpfr_set_zero(var, 1);
        for (int k = 0; k < 4; k++) {
            mpfr_set_d(t, v[k], MPFR_RNDN);
            mpfr_sub(t, t, mean, MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_add(var, var, t, MPFR_RNDN);
        }
        mpfr_div_ui(var, var, 3, MPFR_RNDN);
        mpfr_set_ui(thr, (unsigned long)n, MPFR_RNDN);
        mpfr_div_ui(thr, thr, 100000000, MPFR_RNDN);
        mpfr_set_d(t, fabs(v[3]), MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_div(thr, thr, t, MPFR_RNDN);
        mpfr_sub(diff, var, thr, MPFR_RNDN);
        mpfr_abs(diff, diff, MPFR_RNDN);
        ck_assert(st == FR_STOP_VAR || st == FR_STOP_ROUNDS);
        if (mpfr_cmp_d(diff, gap) > 0) {
            int want = mpfr_lessequal_p(var, thr);
            ck_assert_msg((st == FR_STOP_VAR) == want, "stop = %d, exact var <= thr: %d;"
                          " f[last 4] = %a %a %a %a, n = %zu [FEDREF_SEED=%llu]", st, want,
                          v[0], v[1], v[2], v[3], n, (unsigned long long)seed);
            decided++;
            fired += want;
            quiet += !want;
        }
    }
    ck_assert_int_gt(decided, 2500);
    ck_assert_int_gt(fired, 300);
    ck_assert_int_gt(quiet, 300);
    /* fewer than 4 values: the variance test is not applied */
    double f3[3] = {1, 1, 1};
    int st = -1;
    ck_assert_int_eq(ff_stop_rule(&st, 1.0, f3, 3, 5), FR_OK);
    ck_assert_int_eq(st, FR_STOP_ROUNDS);
    double gap = SENTINEL;
    ck_assert_int_eq(ff_stop_rule_bound(&gap, 1.0, f3, 3, 5), FR_OK);
    CK_EXACT(gap, 0);                          /* no variance test: nothing to decide */
    mpfr_clears(mean, var, thr, t, diff, (mpfr_ptr)0);
}
END_TEST

START_TEST(stop_errors)
{
    double f[4] = {1, 2, 3, 4}, bad[4] = {1, 2, NAN, 4};
    int st = -77;
    ck_assert_int_eq(ff_stop_rule(NULL, 1, f, 4, 1), FR_ENULL);
    ck_assert_int_eq(ff_stop_rule(&st, 1, NULL, 4, 1), FR_ENULL);
    ck_assert_int_eq(ff_stop_rule(&st, 1, f, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_stop_rule(&st, 1, f, 4, 0), FR_ESIZE);
    ck_assert_int_eq(ff_stop_rule(&st, NAN, f, 4, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stop_rule(&st, INFINITY, f, 4, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stop_rule(&st, -1e-300, f, 4, 1), FR_EDOM);
    ck_assert_int_eq(ff_stop_rule(&st, 1, bad, 4, 1), FR_ENONFINITE);
    ck_assert_int_eq(st, -77);
    /* the bound function checks the same way, and refuses |f_k| > 2^500 */
    double gap = SENTINEL, big[5] = {0x1p501, 1, 2, 3, 4};
    ck_assert_int_eq(ff_stop_rule_bound(NULL, 1, f, 4, 1), FR_ENULL);
    ck_assert_int_eq(ff_stop_rule_bound(&gap, 1, f, 4, 0), FR_ESIZE);
    ck_assert_int_eq(ff_stop_rule_bound(&gap, -1, f, 4, 1), FR_EDOM);
    ck_assert_int_eq(ff_stop_rule_bound(&gap, 1, bad, 4, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_stop_rule_bound(&gap, 1, big, 4, 1), FR_EDOM);
    CK_UNCHANGED(&gap, 1);
    ck_assert_int_eq(ff_stop_rule_bound(&gap, 1, big, 5, 1), FR_OK);   /* f[0] is not used */
}
END_TEST

Suite *suite_fast_fedepm(void)
{
    Suite *s = suite_create("fast_fedepm");
    TCase *tc;

    tc = tcase_create("ff_logreg");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, logreg_random);
    tcase_add_test(tc, logreg_synthetic);
    tcase_add_test(tc, logreg_huge_inner_products);
    tcase_add_test(tc, logreg_blocks);
    tcase_add_test(tc, logreg_checks_in_pass);
    tcase_add_test(tc, logreg_alias);
    tcase_add_test(tc, logreg_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_fedepm_step");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, mu_random);
    tcase_add_test(tc, mu_errors);
    tcase_add_test(tc, step_random);
    tcase_add_test(tc, step_kinks);
    tcase_add_test(tc, step_alias);
    tcase_add_test(tc, step_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_laplace");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, scale27_upward);
    tcase_add_test(tc, scale39_upper);
    tcase_add_test(tc, density_random);
    tcase_add_test(tc, laplace_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_exact_penalty");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, penalty_random);
    tcase_add_test(tc, penalty_theorem);
    tcase_add_test(tc, penalty_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_stop_rule");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, stop_gradient_exact);
    tcase_add_test(tc, stop_variance);
    tcase_add_test(tc, stop_errors);
    suite_add_tcase(s, tc);
    return s;
}
