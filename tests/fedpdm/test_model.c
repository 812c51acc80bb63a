/* SPDX-License-Identifier: Apache-2.0 */
/* test_model.c -- the model of 003 Sec. V-A (loss (25), gradient, test
 * rule (26)) in both wings, against oracles that do not share the method:
 *   - fr_pdm_loss: f against the naive formula ln(1 + exp(-u)) evaluated
 *     in MPFR at 400 bits (no overflow in MPFR's exponent range) and
 *     rounded to 53 bits: equal (correct rounding); X = 0: f = RN(ln 2)
 *     exactly for every beta, g_kl = -(1/(2b)) sum_{y_t = k} A_tl (an exact
 *     rational, the GMP path) and bit-exact; g against the naive sigma at
 *     400 bits; |u| = 1e4 (no overflow; f = 1e4/b + ... for u = -1e4);
 *     beta = 0; labels 0 and m - 1 only;
 *   - ff_pdm_loss: |f^ - f| <= ef, |g^ - g| <= eg against fr_pdm_loss at
 *     200 bits, and the bound is not vacuous (ef <= 2^-40 (1 + f));
 *   - predictions: ref ties go to the smallest k; fast's certified
 *     decisions equal ref's; a margin below fast's error bound is counted
 *     uncertain.
 * Replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT multiplies the cases. */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fedpdm_model(void);

static frng_t rng;

/* a dyadic in [-2, 2) with 8 fractional bits */
static double dy(void) { return ((double)(frng_next64(&rng) >> 54) - 512) / 256; }

static mpfr_t *mk(const double *v, size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc(k * sizeof *a);
    for (size_t i = 0; i < k; i++) {
        mpfr_init2(a[i], p);
        mpfr_set_d(a[i], v[i], MPFR_RNDN);
    }
    return a;
}

static void fr(mpfr_t *a, size_t k)
{
    for (size_t i = 0; i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

/* the naive oracle at prec bits: f and g straight from the formulas */
static void naive(mpfr_t f, mpfr_t *g, const double *X, size_t m, size_t n, const double *A, const size_t *y,
                  size_t b, double beta, mpfr_prec_t p)
{
    mpfr_t u, t, s;
    mpfr_inits2(p, u, t, s, (mpfr_ptr)0);
    mpfr_set_ui(f, 0, MPFR_RNDN);
    for (size_t k = 0; k < m * n; k++)
        mpfr_set_ui(g[k], 0, MPFR_RNDN);
    for (size_t i = 0; i < b; i++) {
        mpfr_set_ui(u, 0, MPFR_RNDN);
        for (size_t l = 0; l < n; l++) {
            mpfr_set_d(t, X[y[i] * n + l], MPFR_RNDN);
            mpfr_mul_d(t, t, A[i * n + l], MPFR_RNDN);
            mpfr_add(u, u, t, MPFR_RNDN);
        }
        mpfr_neg(t, u, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);           /* ln(1 + e^-u) */
        mpfr_add(f, f, t, MPFR_RNDN);
        mpfr_exp(s, u, MPFR_RNDN);
        mpfr_add_ui(s, s, 1, MPFR_RNDN);
        mpfr_ui_div(s, 1, s, MPFR_RNDN);       /* sigma(-u) */
        for (size_t l = 0; l < n; l++) {
            mpfr_mul_d(t, s, A[i * n + l], MPFR_RNDN);
            mpfr_div_ui(t, t, (unsigned long)b, MPFR_RNDN);
            mpfr_sub(g[y[i] * n + l], g[y[i] * n + l], t, MPFR_RNDN);
        }
    }
    mpfr_div_ui(f, f, (unsigned long)b, MPFR_RNDN);
    for (size_t k = 0; k < m * n; k++) {
        mpfr_set_d(t, X[k], MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add_ui(s, t, 1, MPFR_RNDN);
        mpfr_div(u, t, s, MPFR_RNDN);
        mpfr_mul_d(u, u, beta, MPFR_RNDN);
        mpfr_add(f, f, u, MPFR_RNDN);
        mpfr_sqr(s, s, MPFR_RNDN);
        mpfr_set_d(t, X[k], MPFR_RNDN);
        mpfr_mul_d(t, t, 2 * beta, MPFR_RNDN);
        mpfr_div(t, t, s, MPFR_RNDN);
        mpfr_add(g[k], g[k], t, MPFR_RNDN);
    }
    mpfr_clears(u, t, s, (mpfr_ptr)0);
}

/* ref at 53 bits equals the naive oracle at 400 bits rounded to 53 */
static void ref_vs_naive(const double *X, size_t m, size_t n, const double *A, const size_t *y, size_t b,
                         double beta)
{
    mpfr_t *Xm = mk(X, m * n, 53), *Am = mk(A, b * n, 53), *g = mk(X, m * n, 53), *gn = mk(X, m * n, 400);
    mpfr_t f, fn, be;
    mpfr_init2(f, 53);
    mpfr_init2(fn, 400);
    mpfr_init2(be, 53);
    mpfr_set_d(be, beta, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_loss(f, g, Xm, m, n, Am, y, b, be), FR_OK);
    naive(fn, gn, X, m, n, A, y, b, beta, 400);
    ck_assert_double_eq(mpfr_get_d(f, MPFR_RNDN), mpfr_get_d(fn, MPFR_RNDN));
    for (size_t k = 0; k < m * n; k++)
        ck_assert_msg(mpfr_get_d(g[k], MPFR_RNDN) == mpfr_get_d(gn[k], MPFR_RNDN), "g[%zu] %a vs %a", k,
                      mpfr_get_d(g[k], MPFR_RNDN), mpfr_get_d(gn[k], MPFR_RNDN));
    mpfr_clears(f, fn, be, (mpfr_ptr)0);
    fr(Xm, m * n);
    fr(Am, b * n);
    fr(g, m * n);
    fr(gn, m * n);
}

/* fast within its bound of ref at 200 bits; the bound not vacuous */
static void fast_vs_ref(const double *X, size_t m, size_t n, const double *A, const size_t *y, size_t b,
                        double beta, double *worst)
{
    size_t mn = m * n;
    double f, ef, *g = malloc(mn * sizeof *g), *eg = malloc(mn * sizeof *eg);
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, beta), FR_OK);
    ck_assert_int_eq(ff_pdm_loss_bound(&ef, eg, X, m, n, A, y, b, beta), FR_OK);
    mpfr_t *Xm = mk(X, mn, 53), *Am = mk(A, b * n, 53), *gr = mk(X, mn, 200);
    mpfr_t fr_, be, d;
    mpfr_inits2(200, fr_, be, d, (mpfr_ptr)0);
    mpfr_set_d(be, beta, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_loss(fr_, gr, Xm, m, n, Am, y, b, be), FR_OK);
    mpfr_sub_d(d, fr_, f, MPFR_RNDN);
    double e = fabs(mpfr_get_d(d, MPFR_RNDU));
    ck_assert_msg(e <= ef, "f: error %a > bound %a", e, ef);
    ck_assert_msg(ef <= 0x1p-40 * (1 + fabs(f)), "f bound vacuous %a", ef);
    if (worst && ef > 0 && e / ef > worst[0])
        worst[0] = e / ef;
    for (size_t k = 0; k < mn; k++) {
        mpfr_sub_d(d, gr[k], g[k], MPFR_RNDN);
        e = fabs(mpfr_get_d(d, MPFR_RNDU));
        ck_assert_msg(e <= eg[k], "g[%zu]: error %a > bound %a", k, e, eg[k]);
        if (worst && eg[k] > 0 && e / eg[k] > worst[1])
            worst[1] = e / eg[k];
    }
    mpfr_clears(fr_, be, d, (mpfr_ptr)0);
    fr(Xm, mn);
    fr(Am, b * n);
    fr(gr, mn);
    free(g);
    free(eg);
}

START_TEST(zero_model_is_ln2)
{
    /* X = 0: every u_t = 0, f = ln 2 (r(0) = 0 for any beta), g = -(1/2b) sum A */
    enum { m = 3, n = 4, b = 5 };
    double X[m * n] = {0}, A[b * n];
    size_t y[b] = {0, 2, 2, 1, 0};
    frng_init(&rng, tu_seed(3001), 0);
    for (size_t k = 0; k < b * n; k++)
        A[k] = dy();
    double betas[3] = {0, 0.01, 7};
    for (int j = 0; j < 3; j++) {
        mpfr_t *Xm = mk(X, m * n, 53), *Am = mk(A, b * n, 53), *g = mk(X, m * n, 24);
        mpfr_t f, l2, be;
        mpfr_inits2(200, f, l2, be, (mpfr_ptr)0);
        mpfr_set_d(be, betas[j], MPFR_RNDN);
        ck_assert_int_eq(fr_pdm_loss(f, g, Xm, m, n, Am, y, b, be), FR_OK);
        mpfr_const_log2(l2, MPFR_RNDN);
        ck_assert(mpfr_equal_p(f, l2));
        for (size_t k = 0; k < m; k++)
            for (size_t l = 0; l < n; l++) {
                double s = 0;                  /* exact: few dyadics */
                for (size_t t = 0; t < b; t++)
                    if (y[t] == k)
                        s += A[t * n + l];
                mpq_t Q;                       /* -s/(2b), exact, rounded once */
                mpq_init(Q);
                mpq_set_d(Q, -s);
                mpq_div_2exp(Q, Q, 1);
                mpq_t bq;
                mpq_init(bq);
                mpq_set_ui(bq, b, 1);
                mpq_div(Q, Q, bq);
                mpfr_t q;
                mpfr_init2(q, 24);
                mpfr_set_q(q, Q, MPFR_RNDN);
                ck_assert_msg(mpfr_equal_p(g[k * n + l], q), "g[%zu][%zu]", k, l);
                mpfr_clear(q);
                mpq_clear(Q);
                mpq_clear(bq);
            }
        mpfr_clears(f, l2, be, (mpfr_ptr)0);
        fr(Xm, m * n);
        fr(Am, b * n);
        fr(g, m * n);
        double ff, gf[m * n];
        ck_assert_int_eq(ff_pdm_loss(&ff, gf, X, m, n, A, y, b, betas[j]), FR_OK);
        ck_assert_double_eq_tol(ff, 0.69314718055994530942, 0x1p-50);
    }
}
END_TEST

START_TEST(random_ref_correctly_rounded)
{
    frng_init(&rng, tu_seed(3002), 1);
    int cases = tu_effort(6);
    for (int c = 0; c < cases; c++) {
        size_t m = 1 + (size_t)(frng_next64(&rng) % 4), n = 1 + (size_t)(frng_next64(&rng) % 5),
               b = 1 + (size_t)(frng_next64(&rng) % 6);
        double X[20], A[30];
        size_t y[6];
        for (size_t k = 0; k < m * n; k++)
            X[k] = dy();
        for (size_t k = 0; k < b * n; k++)
            A[k] = dy();
        for (size_t t = 0; t < b; t++)
            y[t] = (size_t)(frng_next64(&rng) % m);
        ref_vs_naive(X, m, n, A, y, b, c % 2 ? 0.01 : 0);
        fast_vs_ref(X, m, n, A, y, b, c % 2 ? 0.01 : 0, NULL);
    }
}
END_TEST

START_TEST(large_margins_no_overflow)
{
    /* u = +-1e4 (and 1e4 + 0.5 ...): f = 1e4/b-ish, e^-1e4 far below binary64 */
    enum { m = 2, n = 2, b = 3 };
    double X[m * n] = {10000, 0.5, -10000, 0.25};
    double A[b * n] = {1, 1, 1, 0, -1, 2};
    size_t y[b] = {0, 1, 1};        /* labels at the boundary: 0 and m - 1 */
    ref_vs_naive(X, m, n, A, y, b, 0.01);
    ref_vs_naive(X, m, n, A, y, b, 0);
    fast_vs_ref(X, m, n, A, y, b, 0.01, NULL);
    double f, g[m * n];
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, 0.01), FR_OK);
    ck_assert(isfinite(f) && f > 3000);
}
END_TEST

START_TEST(fast_within_bound_paper_shape)
{
    /* m = 10, n = 50, b = 30 (the paper's b), beta = 0.01 */
    enum { m = 10, n = 50, b = 30 };
    static double X[m * n], A[b * n];
    size_t y[b];
    frng_init(&rng, tu_seed(3003), 2);
    for (size_t k = 0; k < m * n; k++)
        X[k] = dy() / 4;
    for (size_t k = 0; k < b * n; k++)
        A[k] = fabs(dy()) / 2;
    for (size_t t = 0; t < b; t++)
        y[t] = (size_t)(frng_next64(&rng) % m);
    double worst[2] = {0, 0};
    fast_vs_ref(X, m, n, A, y, b, 0.01, worst);
    ck_assert(worst[0] <= 1 && worst[1] <= 1);
}
END_TEST

START_TEST(predict_ties_and_certificate)
{
    enum { m = 3, n = 2, b = 4 };
    /* rows: x0 = (1, 0), x1 = (1, 0) (ties with x0), x2 = (0, 1) */
    double X[m * n] = {1, 0, 1, 0, 0, 1};
    double A[b * n] = {2, 1,    /* s = (2, 2, 1): tie 0/1 -> 0 */
                       1, 3,    /* s = (1, 1, 3) -> 2 */
                       0, 0,    /* all 0 -> 0 */
                       1, 1};   /* (1, 1, 1) -> 0 */
    size_t y[b] = {1, 2, 0, 0};
    mpfr_t *Xm = mk(X, m * n, 53), *Am = mk(A, b * n, 53);
    size_t pr[b], cr, pf[b], cf, un;
    ck_assert_int_eq(fr_pdm_predict(pr, &cr, Xm, m, n, Am, y, b), FR_OK);
    ck_assert_uint_eq(pr[0], 0);
    ck_assert_uint_eq(pr[1], 2);
    ck_assert_uint_eq(pr[2], 0);
    ck_assert_uint_eq(pr[3], 0);
    ck_assert_uint_eq(cr, 3);
    ck_assert_int_eq(ff_pdm_predict(pf, &cf, &un, X, m, n, A, y, b), FR_OK);
    for (size_t t = 0; t < b; t++)
        ck_assert_uint_eq(pf[t], pr[t]);
    ck_assert_uint_eq(cf, cr);
    ck_assert_uint_eq(un, 3);                 /* the three ties are not certified */
    fr(Xm, m * n);
    fr(Am, b * n);
    /* a margin of 2^-60 on values ~1: ref decides it, fast cannot certify */
    double X2[2 * 2] = {1, 0x1p-60, 1, 0};
    double A2[2] = {1, 1};
    size_t y2 = 0;
    Xm = mk(X2, 4, 53);
    Am = mk(A2, 2, 53);
    ck_assert_int_eq(fr_pdm_predict(pr, &cr, Xm, 2, 2, Am, &y2, 1), FR_OK);
    ck_assert_uint_eq(pr[0], 0);
    ck_assert_int_eq(ff_pdm_predict(pf, NULL, &un, X2, 2, 2, A2, NULL, 1), FR_OK);
    ck_assert_uint_eq(un, 1);
    fr(Xm, 4);
    fr(Am, 2);
    /* random: every certified fast decision equals ref's */
    frng_init(&rng, tu_seed(3004), 3);
    for (int c = 0; c < tu_effort(5); c++) {
        double X3[4 * 6], A3[8 * 6];
        size_t y3[8], p3[8], q3[8], c3, d3, u3;
        for (size_t k = 0; k < 24; k++)
            X3[k] = dy();
        for (size_t k = 0; k < 48; k++)
            A3[k] = dy();
        for (size_t t = 0; t < 8; t++)
            y3[t] = (size_t)(frng_next64(&rng) % 4);
        Xm = mk(X3, 24, 53);
        Am = mk(A3, 48, 53);
        ck_assert_int_eq(fr_pdm_predict(p3, &c3, Xm, 4, 6, Am, y3, 8), FR_OK);
        ck_assert_int_eq(ff_pdm_predict(q3, &d3, &u3, X3, 4, 6, A3, y3, 8), FR_OK);
        size_t diff = 0;
        for (size_t t = 0; t < 8; t++)
            diff += p3[t] != q3[t];
        ck_assert_uint_le(diff, u3);
        fr(Xm, 24);
        fr(Am, 48);
    }
}
END_TEST

START_TEST(beta_minus_zero_and_absent_class)
{
    /* beta = -0 is beta = 0 (not FR_EDOM); a class absent from the batch
     * has the gradient row 2 beta x/(1 + x^2)^2 alone (x = 1: beta/2) */
    double X[4] = {1, 1, 0.5, -2}, A[2] = {1, 1}, f, g[4];
    size_t y[1] = {1};
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, 2, 2, A, y, 1, -0.0), FR_OK);
    ck_assert(g[0] == 0 && g[1] == 0);
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, 2, 2, A, y, 1, 0.25), FR_OK);
    ck_assert_double_eq(g[0], 0.125);
    mpfr_t *Xm = mk(X, 4, 53), *Am = mk(A, 2, 53), *gm = mk(X, 4, 53);
    mpfr_t fm, be;
    mpfr_inits2(53, fm, be, (mpfr_ptr)0);
    mpfr_set_d(be, -0.0, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_loss(fm, gm, Xm, 2, 2, Am, y, 1, be), FR_OK);
    ck_assert(mpfr_zero_p(gm[0]) && mpfr_zero_p(gm[1]));
    mpfr_set_d(be, 0.25, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_loss(fm, gm, Xm, 2, 2, Am, y, 1, be), FR_OK);
    ck_assert(mpfr_cmp_d(gm[0], 0.125) == 0 && mpfr_cmp_d(gm[1], 0.125) == 0);
    mpfr_clears(fm, be, (mpfr_ptr)0);
    fr(Xm, 4);
    fr(Am, 2);
    fr(gm, 4);
}
END_TEST

/* the synthetic problem against the documented draw order, re-done here
 * with frng calls; then fr_pdm_objective against the mean of the clients'
 * fr_pdm_loss at 400 bits plus gamma ||X||_1, and fast within its bound */
START_TEST(synth_and_objective)
{
    enum { N = 3, m = 4, n = 6 };
    size_t d[N], dd[N];
    uint64_t seed = tu_seed(3005), r;
    ck_assert_int_eq(fr_pdm_synth_sizes(seed, N, 2, 5, d), FR_OK);
    frng_t g;
    frng_init(&g, seed, 0);
    size_t D = 0;
    for (size_t i = 0; i < N; i++) {
        frng_below(&g, 4, &r);
        dd[i] = 2 + (size_t)r;
        ck_assert_uint_eq(d[i], dd[i]);
        D += d[i];
    }
    double *A = malloc(D * n * sizeof *A), X[m * n];
    size_t *y = malloc(D * sizeof *y);
    ck_assert_int_eq(fr_pdm_synth_data(seed, N, m, n, d, A, y), FR_OK);
    frng_init(&g, seed, 1);
    unsigned pr[m][n];
    for (size_t k = 0; k < m; k++)
        for (size_t l = 1; l < n; l++) {
            frng_below(&g, 2, &r);
            pr[k][l] = (unsigned)r;
        }
    for (size_t t = 0; t < D; t++) {
        frng_below(&g, m, &r);
        ck_assert_uint_eq(y[t], r);
        ck_assert(A[t * n] == 1);
        for (size_t l = 1; l < n; l++) {
            frng_below(&g, 128, &r);
            ck_assert(A[t * n + l] == (double)(128 * pr[y[t]][l] + r) / 256);
        }
    }
    frng_init(&rng, seed, 4);
    for (size_t k = 0; k < m * n; k++)
        X[k] = dy();
    fr_pdm_problem P = {.N = N, .m = m, .n = n, .d = d, .A = A, .y = y, .beta = 0.01, .gamma = 1e-4};
    mpfr_t *Xm = mk(X, m * n, 53), F, Fo, fi, be, t;
    mpfr_init2(F, 53);
    mpfr_inits2(400, Fo, fi, t, (mpfr_ptr)0);
    mpfr_init2(be, 53);
    mpfr_set_d(be, 0.01, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_objective(F, Xm, &P), FR_OK);
    mpfr_set_ui(Fo, 0, MPFR_RNDN);
    size_t off = 0;
    for (size_t i = 0; i < N; i++) {
        mpfr_t *Am = mk(A + off * n, d[i] * n, 53);
        ck_assert_int_eq(fr_pdm_loss(fi, NULL, Xm, m, n, Am, y + off, d[i], be), FR_OK);
        mpfr_add(Fo, Fo, fi, MPFR_RNDN);
        fr(Am, d[i] * n);
        off += d[i];
    }
    mpfr_div_ui(Fo, Fo, N, MPFR_RNDN);
    for (size_t k = 0; k < m * n; k++) {
        mpfr_set_d(t, fabs(X[k]), MPFR_RNDN);
        mpfr_mul_d(t, t, 1e-4, MPFR_RNDN);
        mpfr_add(Fo, Fo, t, MPFR_RNDN);
    }
    ck_assert_double_eq(mpfr_get_d(F, MPFR_RNDN), mpfr_get_d(Fo, MPFR_RNDN));
    double Ff, eF;
    ck_assert_int_eq(ff_pdm_objective(&Ff, X, &P), FR_OK);
    ck_assert_int_eq(ff_pdm_objective_bound(&eF, X, &P), FR_OK);
    mpfr_sub_d(t, Fo, Ff, MPFR_RNDN);
    ck_assert(fabs(mpfr_get_d(t, MPFR_RNDU)) <= eF);
    ck_assert(eF <= 0x1p-40);
    mpfr_clears(F, Fo, fi, be, t, (mpfr_ptr)0);
    fr(Xm, m * n);
    free(A);
    free(y);
}
END_TEST

Suite *suite_fedpdm_model(void)
{
    Suite *s = suite_create("fedpdm_model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, zero_model_is_ln2);
    tcase_add_test(tc, random_ref_correctly_rounded);
    tcase_add_test(tc, large_margins_no_overflow);
    tcase_add_test(tc, fast_within_bound_paper_shape);
    tcase_add_test(tc, predict_ties_and_certificate);
    tcase_add_test(tc, beta_minus_zero_and_absent_class);
    tcase_add_test(tc, synth_and_objective);
    suite_add_tcase(s, tc);
    return s;
}
