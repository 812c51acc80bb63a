/* SPDX-License-Identifier: Apache-2.0 */
/* test_round_sweep.c -- the rounding directions of the privacy code of
 * module fedpdm (Gaussian calibration, accountant, sensitivity (19)) at
 * every output precision p = 2..64, where a directed rounding moves a
 * result by 2^-(p+32) or more.
 *
 * Each case is aimed: a p-bit grid point g is chosen and an input is set
 * (at 400 bits: ref reads its inputs at their own precision) so that the
 * exact result is g (1 + 2^-200) or g (1 - 2^-200), an exact result
 * computed independently at 400 bits (or with GMP rationals).  A result
 * correctly rounded upward must then be the grid point just above, any
 * upper bound at least the exact value: one step rounded the wrong way
 * anywhere before the last rounding puts the result on the wrong side of
 * g (ci/mutate-privacy.sh flips each direction and runs this suite first).
 * The exact value: (5) in closed form; the analytic sigma and the least
 * eps from the defining condition (delta set to delta(target)); the RDP
 * terms by plain loops (the aimed input found by the secant method); (19)
 * and (20) exactly.  fast is checked against the same exact value where
 * both wings claim an upper bound (p = 53: fast >= ref). */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"
#include "delta_hp.h"
#include "rdp_hp.h"
#include "../../ref/fedpdm/enclosures.h"

Suite *suite_fedpdm_round_sweep(void);

#define HP 400
#define PMIN 2
#define PMAX 64

/* x = g (1 + side 2^-200), g = RN_p(v) (exact at HP bits) */
static void aim(mpfr_t x, mpfr_t g, double v, mpfr_prec_t p, int side)
{
    mpfr_set_prec(g, p);
    mpfr_set_d(g, v, MPFR_RNDN);
    mpfr_set_prec(x, HP);
    mpfr_div_2ui(x, g, 200, MPFR_RNDN);
    if (side > 0)
        mpfr_add(x, g, x, MPFR_RNDN);
    else
        mpfr_sub(x, g, x, MPFR_RNDN);
}

/* the result must be RU_p(exact) */
static void is_ru(const mpfr_t got, const mpfr_t exact, const char *what, mpfr_prec_t p, int side)
{
    mpfr_t w;
    mpfr_init2(w, mpfr_get_prec(got));
    mpfr_set(w, exact, MPFR_RNDU);
    ck_assert_msg(mpfr_equal_p(got, w), "%s p %d side %d: %.17g, RU(exact) %.17g", what, (int)p, side,
                  mpfr_get_d(got, MPFR_RNDN), mpfr_get_d(w, MPFR_RNDN));
    mpfr_clear(w);
}

/* the result must be >= exact */
static void is_up(const mpfr_t got, const mpfr_t exact, const char *what, mpfr_prec_t p, int side)
{
    ck_assert_msg(mpfr_cmp(got, exact) >= 0, "%s p %d side %d: %.17g below the exact value", what, (int)p,
                  side, mpfr_get_d(got, MPFR_RNDN));
}

/* delta(e) at HP + 64 bits (delta_hp.h) */
static void delta_hp(mpfr_t D, const mpfr_t e, const mpfr_t a)
{
    tu_delta_hp(D, NULL, e, a, HP + 64);
}

/* ---- (5): sigma2 = 2 s^2 ln(1.25/delta) / eps^2, RU ----------------------- */
START_TEST(classical)
{
    static const double C[][3] = {{1, 1, 3.7}, {1, 1, 50.3}, {0.7, 1.1, 3.7}, {2.9, 0.3, 0.011}};
    mpfr_t x, g, e, s, d, X, r, t;
    mpfr_inits2(HP, x, g, e, s, d, X, t, (mpfr_ptr)0);
    mpfr_init2(r, 2);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i][2], p, side);
                mpfr_set_d(e, C[i][0], MPFR_RNDN);
                mpfr_set_d(s, C[i][1], MPFR_RNDN);
                /* delta = 1.25 exp(-x eps^2 / (2 s^2)) */
                mpfr_sqr(t, e, MPFR_RNDN);
                mpfr_mul(t, t, x, MPFR_RNDN);
                mpfr_sqr(d, s, MPFR_RNDN);
                mpfr_div(t, t, d, MPFR_RNDN);
                mpfr_div_2ui(t, t, 1, MPFR_RNDN);
                mpfr_neg(t, t, MPFR_RNDN);
                mpfr_exp(d, t, MPFR_RNDN);
                mpfr_mul_d(d, d, 1.25, MPFR_RNDN);
                /* the exact (5) of that delta */
                mpfr_ui_div(X, 5, d, MPFR_RNDN);
                mpfr_div_2ui(X, X, 2, MPFR_RNDN);
                mpfr_log(X, X, MPFR_RNDN);
                mpfr_sqr(t, s, MPFR_RNDN);
                mpfr_mul(X, X, t, MPFR_RNDN);
                mpfr_sqr(t, e, MPFR_RNDN);
                mpfr_div(X, X, t, MPFR_RNDN);
                mpfr_mul_2ui(X, X, 1, MPFR_RNDN);
                mpfr_set_prec(r, p);
                ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, d, s), FR_OK);
                is_ru(r, X, "sigma2_classical", p, side);
                if (p == 53) {
                    double f;
                    ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&f, C[i][0], mpfr_get_d(d, MPFR_RNDN),
                                                                     C[i][1]), FR_OK);
                    mpfr_set_d(t, mpfr_get_d(d, MPFR_RNDN), MPFR_RNDN);
                    mpfr_set_d(d, f, MPFR_RNDN);
                    ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, t, s), FR_OK);
                    ck_assert_msg(mpfr_cmp(d, r) >= 0, "fast (5) below ref");
                }
            }
    mpfr_clears(x, g, e, s, d, X, r, t, (mpfr_ptr)0);
}
END_TEST

/* ---- the analytic sigma (RU of the root) and the validator's margin ------- */
START_TEST(analytic)
{
    static const double C[][3] = {{1, 1, 3.3}, {1, 1, 0.9}, {0.3, 1.7, 3.3}, {0.3, 1.7, 0.9}};
    mpfr_t x, g, e, s, d, a, r, lo, hi, M, t;
    mpfr_inits2(HP, x, g, e, s, d, a, M, t, (mpfr_ptr)0);
    mpfr_inits2(2, r, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i][2], p, side);                /* the target sigma */
                mpfr_set_d(e, C[i][0], MPFR_RNDN);
                mpfr_set_d(s, C[i][1], MPFR_RNDN);
                mpfr_div(a, s, x, MPFR_RNDN);
                delta_hp(d, e, a);                          /* delta = delta_eps(target) */
                mpfr_set_prec(r, p);
                ck_assert_int_eq(fr_gauss_sigma_analytic(r, e, d, s), FR_OK);
                is_ru(r, x, "sigma_analytic", p, side);
                /* the validator at g, margin enclosure at p bits */
                mpfr_set_prec(lo, p);
                mpfr_set_prec(hi, p);
                int v;
                ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, s, g), FR_OK);
                ck_assert_int_eq(v, side > 0 ? FR_GAUSS_FAILS : FR_GAUSS_HOLDS);
                mpfr_div(t, s, g, MPFR_RNDN);
                delta_hp(M, e, t);
                mpfr_sub(M, d, M, MPFR_RNDN);               /* delta - delta_eps(g) */
                ck_assert_msg(mpfr_cmp(lo, M) <= 0 && mpfr_cmp(M, hi) <= 0,
                              "dp_check margin p %d side %d: [%g, %g] misses %g", (int)p, side,
                              mpfr_get_d(lo, MPFR_RNDN), mpfr_get_d(hi, MPFR_RNDN), mpfr_get_d(M, MPFR_RNDN));
                if (p == 53) {
                    double f, dd = mpfr_get_d(d, MPFR_RNDN);
                    ck_assert_int_eq(ff_gauss_sigma_analytic_upper(&f, C[i][0], dd, C[i][1]), FR_OK);
                    mpfr_set_d(t, dd, MPFR_RNDN);
                    ck_assert_int_eq(fr_gauss_sigma_analytic(r, e, t, s), FR_OK);
                    ck_assert_msg(f >= mpfr_get_d(r, MPFR_RNDU), "fast sigma below ref");
                }
            }
    mpfr_clears(x, g, e, s, d, a, r, lo, hi, M, t, (mpfr_ptr)0);
}
END_TEST

/* ---- the validator with A = s/(2 sigma) and B = eps sigma/s near 1000:
 * the roundings of A, B and of the arguments weigh 1000 times more than
 * those of erfc and exp, so one of them flipped moves an end of the
 * enclosure past delta_eps; delta aimed 2^-200 beside delta_eps(sigma), at
 * every precision of the margin (working precision p + 32 and up). */
START_TEST(validator)
{
    mpfr_t e, s, sg, a, D, d, lo, hi, t;
    mpfr_inits2(53, e, s, sg, (mpfr_ptr)0);
    mpfr_inits2(HP, a, D, d, t, (mpfr_ptr)0);
    mpfr_inits2(2, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < 24; i++) {           /* sigma = 1 +- k 2^-17, eps = 2e6 (1 + j 1e-7) */
        mpfr_set_d(e, 2e6 * (1 + (double)(i % 5) * 1e-7), MPFR_RNDN);
        mpfr_set_d(s, i % 3 ? 2000 : 1500, MPFR_RNDN);
        mpfr_set_d(sg, (i % 3 ? 1 : 0.75) * (1 + ((double)i - 11.5) * 0x1p-17), MPFR_RNDN);
        mpfr_div(a, s, sg, MPFR_RNDN);
        delta_hp(D, e, a);                                  /* delta_eps(sigma) */
        ck_assert(mpfr_sgn(D) > 0 && mpfr_cmp_ui(D, 1) < 0);
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                mpfr_div_2ui(t, D, 200, MPFR_RNDN);
                if (side > 0) mpfr_add(d, D, t, MPFR_RNDN); else mpfr_sub(d, D, t, MPFR_RNDN);
                mpfr_set_prec(lo, p);
                mpfr_set_prec(hi, p);
                int v;
                ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, s, sg), FR_OK);
                ck_assert_msg(v == (side > 0 ? FR_GAUSS_HOLDS : FR_GAUSS_FAILS), "validator case %zu p %d side %d: %d",
                              i, (int)p, side, v);
                mpfr_sub(t, d, D, MPFR_RNDN);                   /* the margin */
                ck_assert_msg(mpfr_cmp(lo, t) <= 0 && mpfr_cmp(t, hi) <= 0, "validator margin p %d", (int)p);
            }
    }
    mpfr_clears(e, s, sg, a, D, d, lo, hi, t, (mpfr_ptr)0);
}
END_TEST

/* ---- the decision's tie: the enclosure's upper end equal to delta ---------
 * eps = 8e8, s = 40000, sigma = 1: A = B = 20000 (exact), a = A - B = 0,
 * Phi(0) = 1/2 exactly; e^eps passes MPFR's range and Phi(-40000)
 * underflows, so the second term's lower bound is 0 and the upper end is
 * exactly 1/2.  The truth (e^eps phi(-z) = phi(a): the second term is
 * phi(0) R(40000), about 1e-5): delta_eps = 1/2 - 1e-5 < delta = 1/2, and
 * the validator must say HOLDS (hi <= delta, not hi < delta). */
START_TEST(decision_tie)
{
    mpfr_t e, d, s, sg, lo, hi;
    mpfr_inits2(53, e, d, s, sg, lo, hi, (mpfr_ptr)0);
    mpfr_set_d(e, 8e8, MPFR_RNDN);
    mpfr_set_d(d, 0.5, MPFR_RNDN);
    mpfr_set_d(s, 40000, MPFR_RNDN);
    mpfr_set_d(sg, 1, MPFR_RNDN);
    int v;
    ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, s, sg), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_HOLDS);
    ck_assert(mpfr_sgn(hi) > 0 && mpfr_cmp_d(hi, 1e-5) >= 0 && mpfr_sgn(lo) <= 0);
    double ml, mh;
    ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, 8e8, 0.5, 40000, 1), FR_OK);
    ck_assert_int_ne(v, FR_GAUSS_FAILS);
    mpfr_clears(e, d, s, sg, lo, hi, (mpfr_ptr)0);
}
END_TEST

/* ---- the least eps (RU), basic composition (>= T eps_0) -------------------- */
START_TEST(gauss_eps)
{
    /* sigma, s, eps; the last: s/sigma = 1024, the continued-fraction path */
    static const double C[][3] = {{0x1p-10, 1, 525619.2}, {4.8, 1, 0.8}, {1, 2.5, 3.1}};
    static const mpfr_prec_t STEP[] = {1, 1, 3};     /* the run time: about 2 s */
    mpfr_t x, g, sg, s, d, a, r, ad, t;
    mpfr_inits2(HP, x, g, sg, s, d, a, t, (mpfr_ptr)0);
    mpfr_inits2(2, r, ad, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (mpfr_prec_t p = PMIN; p <= PMAX; p += STEP[i])
            for (int side = -1; side <= 1; side += 2) {
                mpfr_set_d(sg, C[i][0], MPFR_RNDN);
                mpfr_set_d(s, C[i][1], MPFR_RNDN);
                mpfr_div(a, s, sg, MPFR_RNDN);
                aim(x, g, C[i][2], p, side);
                delta_hp(d, x, a);                          /* delta = delta(target) */
                mpfr_set_prec(r, p);
                ck_assert_int_eq(fr_fedpdm_gauss_eps(r, sg, s, d), FR_OK);
                is_ru(r, x, "gauss_eps", p, side);
                if (p == 53) {
                    double f, dd = mpfr_get_d(d, MPFR_RNDN);
                    ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, C[i][0], C[i][1], dd), FR_OK);
                    mpfr_set_d(t, dd, MPFR_RNDN);
                    ck_assert_int_eq(fr_fedpdm_gauss_eps(r, sg, s, t), FR_OK);
                    ck_assert_msg(f >= mpfr_get_d(r, MPFR_RNDU), "fast eps below ref");
                }
                if (i != 1 || p % 3 != 2)
                    continue;
                /* basic = T eps_0(delta/T), T = 4: aimed at x, eps_0 = x/4 */
                mpfr_div_2ui(t, x, 2, MPFR_RNDN);
                delta_hp(d, t, a);
                mpfr_mul_2ui(d, d, 2, MPFR_RNDN);
                if (mpfr_cmp_ui(d, 1) >= 0)
                    continue;
                mpfr_set_prec(ad, p);
                ck_assert_int_eq(fr_fedpdm_compose(r, ad, sg, s, 4, d), FR_OK);
                is_up(r, x, "compose basic", p, side);     /* delta/T rounded down: >= */
            }
    mpfr_clears(x, g, sg, s, d, a, r, ad, t, (mpfr_ptr)0);
}
END_TEST

/* ---- fast's eps certificate at the points its search decides -------------
 * ff_fedpdm_gauss_eps decides eps = 0, then 1, 2, 4, ... until certified,
 * then bisects (the first midpoint 3/4 of the last power of 2).  delta is
 * set to the largest binary64 below delta(m) (HP bits, a = s/sigma = s
 * exact) at such a point m: the least eps is then above m (delta(eps)
 * decreasing), so the result must exceed m, while a certificate rounded
 * the wrong way anywhere certifies m itself.  a from 1/8 to 2^16, m up to
 * 2^34: phi_b at erfc near 0 and near 2, lphi_neg's erfc and asymptotic
 * series, both tests (on delta(eps) and on its complement near delta = 1),
 * x1 = a/2 - eps/a near 0 at a >= 2^12 (an ulp of a is 2^11 ulps of x1).
 * ff_fedpdm_compose's basic (T = 1: delta_0 = delta rounded down) too. */
START_TEST(gauss_eps_fast_cert)
{
    static const double A[] = {0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 4096, 65536};
    mpfr_t m, a, D;
    mpfr_inits2(HP, m, a, D, (mpfr_ptr)0);
    int n = 0;
    for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
        for (int k = -1; k <= 34; k++)
            for (int q = 0; q <= 1; q++) {
                if (k < 0 && q)
                    continue;
                const double mv = k < 0 ? 0 : ldexp(q ? 0.75 : 1, k);
                mpfr_set_d(m, mv, MPFR_RNDN);
                mpfr_set_d(a, A[i], MPFR_RNDN);
                delta_hp(D, m, a);
                const double d = mpfr_get_d(D, MPFR_RNDD);
                if (!(d > 0) || !(d < 1) || mpfr_cmp_d(D, d) <= 0)
                    continue;                       /* delta(m) not above a binary64 in (0, 1) */
                double f, b, ad;
                ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, 1, A[i], d), FR_OK);
                ck_assert_msg(f > mv, "fast eps a %g m %g delta %.17g: %.17g, not above m", A[i], mv, d, f);
                ck_assert_int_eq(ff_fedpdm_compose(&b, &ad, 1, A[i], 1, d), FR_OK);
                ck_assert_msg(b > mv, "fast basic a %g m %g delta %.17g: %.17g, not above m", A[i], mv, d, b);
                n++;
            }
    ck_assert_int_ge(n, 120);                     /* the grid is not empty */
    /* a = 2^500, delta = 1/2: the least eps is just below a^2/2 = 2^999
     * (delta(a^2/2) = 1/2 - e^eps Phi(-a) < 1/2), so the doubling's first
     * certified point is 2^1000, a finite bracket: the result is finite */
    double f;
    ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, 1, 0x1p500, 0.5), FR_OK);
    ck_assert_msg(f >= 0x1p998 && f <= 0x1p1000, "fast eps at a = 2^500: %g", f);
    mpfr_clears(m, a, D, (mpfr_ptr)0);
}
END_TEST

/* One secant step on (a, f(a) = fa), (b, f(b) = fb): a, fa <- b, fb and
 * b <- b - (b - a) fb / (fb - fa); the caller evaluates fb = f(b) again.
 * t is scratch. */
static void secant_step(mpfr_t a, mpfr_t b, mpfr_t fa, const mpfr_t fb, mpfr_t t)
{
    mpfr_sub(t, b, a, MPFR_RNDN);
    mpfr_mul(t, t, fb, MPFR_RNDN);
    mpfr_sub(fa, fb, fa, MPFR_RNDN);
    mpfr_div(t, t, fa, MPFR_RNDN);
    mpfr_set(a, b, MPFR_RNDN);
    mpfr_set(fa, fb, MPFR_RNDN);
    mpfr_sub(b, b, t, MPFR_RNDN);
}

/* ---- advanced composition (RU at the output's precision), aimed ------------
 * adv = sqrt(2T ln(1/delta')) eps_0 + T eps_0 (e^eps_0 - 1), delta' = delta/2,
 * eps_0 the least eps at delta/(2T).  T = 4 and delta binary64 make
 * delta/(2T) and delta/2 exact, so ref's eps_0 is RU_wp of the true one:
 * the target x is aimed at by solving adv(e) = x for e (Newton), then
 * delta(e) = delta/8 for a = s/sigma (secant), at HP + 64 bits. */
static void adv_hp(mpfr_t r, mpfr_t dr, const mpfr_t e, const mpfr_t L8)
{
    mpfr_t t, u;
    mpfr_inits2(HP + 64, t, u, (mpfr_ptr)0);
    mpfr_sqrt(t, L8, MPFR_RNDN);                          /* sqrt(2T L), 2T L = L8 */
    mpfr_expm1(u, e, MPFR_RNDN);
    mpfr_mul(r, u, e, MPFR_RNDN);
    mpfr_mul_ui(r, r, 4, MPFR_RNDN);
    mpfr_fma(r, t, e, r, MPFR_RNDN);                      /* adv(e) */
    if (dr) {                                             /* adv'(e) = sqrt(2TL) + T(e^e - 1 + e e^e) */
        mpfr_add_ui(dr, u, 1, MPFR_RNDN);
        mpfr_mul(dr, dr, e, MPFR_RNDN);
        mpfr_add(dr, dr, u, MPFR_RNDN);
        mpfr_mul_ui(dr, dr, 4, MPFR_RNDN);
        mpfr_add(dr, dr, t, MPFR_RNDN);
    }
    mpfr_clears(t, u, (mpfr_ptr)0);
}

START_TEST(compose_adv)
{
    static const double C[][2] = {{1e-3, 4.1}, {0.37, 0.9}};   /* delta, adv */
    mpfr_t x, g, e, f, df, L8, D, d8, a, b, fa, fb, t, sg, r, bs;
    mpfr_inits2(HP + 64, e, f, df, L8, D, d8, a, b, fa, fb, t, (mpfr_ptr)0);
    mpfr_inits2(HP, x, g, sg, (mpfr_ptr)0);
    mpfr_inits2(2, r, bs, (mpfr_ptr)0);
    mpfr_set_ui(sg, 1, MPFR_RNDN);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        mpfr_set_d(d8, C[i][0], MPFR_RNDN);
        mpfr_div_2ui(t, d8, 1, MPFR_RNDN);
        mpfr_log(L8, t, MPFR_RNDN);
        mpfr_mul_si(L8, L8, -8, MPFR_RNDN);               /* 2T ln(1/delta') */
        mpfr_div_2ui(d8, d8, 3, MPFR_RNDN);               /* delta/(2T), exact */
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i][1], p, side);
                mpfr_set_d(e, 0.5, MPFR_RNDN);
                for (int k = 0; k < 60; k++) {            /* adv(e) = x */
                    adv_hp(f, df, e, L8);
                    mpfr_sub(f, f, x, MPFR_RNDN);
                    mpfr_div(f, f, df, MPFR_RNDN);
                    mpfr_sub(e, e, f, MPFR_RNDN);
                }
                mpfr_set_d(a, 0.5, MPFR_RNDN);            /* delta(e) at a = delta/8 */
                mpfr_set_d(b, 0.6, MPFR_RNDN);
                tu_delta_hp(fa, NULL, e, a, HP + 64);
                mpfr_sub(fa, fa, d8, MPFR_RNDN);
                tu_delta_hp(fb, NULL, e, b, HP + 64);
                mpfr_sub(fb, fb, d8, MPFR_RNDN);
                for (int k = 0; k < 200 && !mpfr_zero_p(fb) && !mpfr_equal_p(fa, fb); k++) {
                    secant_step(a, b, fa, fb, t);
                    if (mpfr_sgn(b) <= 0) mpfr_div_2ui(b, a, 1, MPFR_RNDN);
                    tu_delta_hp(fb, NULL, e, b, HP + 64);
                    mpfr_sub(fb, fb, d8, MPFR_RNDN);
                    mpfr_div(t, fb, d8, MPFR_RNDN);
                    if (mpfr_zero_p(fb) || mpfr_get_exp(t) < -330) break;
                }
                mpfr_set(x, b, MPFR_RNDN);                /* s = a (HP bits), sigma = 1 */
                tu_delta_hp(D, NULL, e, x, HP + 64);
                mpfr_sub(t, D, d8, MPFR_RNDN);
                mpfr_div(t, t, d8, MPFR_RNDN);
                ck_assert_msg(mpfr_zero_p(t) || mpfr_get_exp(t) < -300, "compose case %d p %d: aim failed",
                              (int)i, (int)p);
                adv_hp(f, NULL, e, L8);                   /* the exact adv at that s */
                mpfr_set_prec(r, p);
                mpfr_set_prec(bs, p);
                mpfr_set_d(t, C[i][0], MPFR_RNDN);
                ck_assert_int_eq(fr_fedpdm_compose(bs, r, sg, x, 4, t), FR_OK);
                is_up(r, f, "compose adv", p, side);
                mpfr_set(x, g, MPFR_RNDN);
            }
    }
    mpfr_clears(x, g, e, f, df, L8, D, d8, a, b, fa, fb, t, sg, r, bs, (mpfr_ptr)0);
}
END_TEST

/* ---- the RDP accountant: exact terms by plain loops ----------------------- */

/* e(alpha) of fr_fedpdm_rdp_order at HP (mu = s^2/(2 sigma^2), g = K/N) */
static void rdp_e(mpfr_t r, unsigned long al, const mpfr_t s, const mpfr_t sigma, unsigned long K,
                  unsigned long N)
{
    mpfr_t mu, g, t;
    mpfr_inits2(HP + 64, mu, g, t, (mpfr_ptr)0);
    mpfr_sqr(mu, s, MPFR_RNDN);
    mpfr_sqr(t, sigma, MPFR_RNDN);
    mpfr_div(mu, mu, t, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);
    mpfr_set_ui(g, K, MPFR_RNDN);
    mpfr_div_ui(g, g, N, MPFR_RNDN);
    tu_rdp_round_hp(r, al, mu, g, K < N, HP + 64);
    mpfr_clears(mu, g, t, (mpfr_ptr)0);
}

/* the whole accountant: min_alpha sum_t e_t(alpha) + ln(1/delta)/(alpha - 1),
 * rounds 0..T-1 with sigma[t] (t < first: K = N) */
static void rdp_total(mpfr_t r, const mpfr_t s, mpfr_t *const sigma, unsigned long T,
                      unsigned long first, unsigned long K, unsigned long N, const mpfr_t delta,
                      unsigned long amax)
{
    mpfr_t acc, e, L;
    mpfr_inits2(HP + 64, acc, e, L, (mpfr_ptr)0);
    mpfr_log(L, delta, MPFR_RNDN);
    mpfr_neg(L, L, MPFR_RNDN);
    mpfr_set_inf(r, 1);
    for (unsigned long al = 2; al <= amax; al++) {
        mpfr_div_ui(acc, L, al - 1, MPFR_RNDN);
        for (unsigned long t = 0; t < T; t++) {
            rdp_e(e, al, s, sigma[t], K, t < first ? K : N);
            mpfr_add(acc, acc, e, MPFR_RNDN);
        }
        mpfr_min(r, r, acc, MPFR_RNDN);
    }
    mpfr_clears(acc, e, L, (mpfr_ptr)0);
}

typedef struct {
    unsigned long al, T, first, K, N, amax;
    mpfr_t *sigma;
    mpfr_ptr delta;
    int total;
} rdp_case;

static void rdp_f(mpfr_t r, const mpfr_t s, const rdp_case *c)
{
    if (c->total)
        rdp_total(r, s, c->sigma, c->T, c->first, c->K, c->N, c->delta, c->amax);
    else
        rdp_e(r, c->al, s, c->sigma[0], c->K, c->N);
}

/* s (HP bits) with f(s) = x, f increasing in s: regula falsi (Illinois) on
 * a bracket grown from s0 (once per case: slow, robust) */
static void aim_bracket(mpfr_t s, double s0, const mpfr_t x, const rdp_case *c, long tol)
{
    mpfr_t a, b, m, fa, fb, fm, t;
    mpfr_inits2(HP + 64, a, b, m, fa, fb, fm, t, (mpfr_ptr)0);
    mpfr_set_d(a, s0, MPFR_RNDN);
    mpfr_set_d(b, s0, MPFR_RNDN);
    do {
        mpfr_div_2ui(a, a, 1, MPFR_RNDN);
        rdp_f(fa, a, c);
        mpfr_sub(fa, fa, x, MPFR_RNDN);
    } while (mpfr_sgn(fa) > 0);
    do {
        mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
        rdp_f(fb, b, c);
        mpfr_sub(fb, fb, x, MPFR_RNDN);
    } while (mpfr_sgn(fb) < 0);
    int last = 0;
    for (int k = 0; k < 2000; k++) {
        mpfr_sub(t, b, a, MPFR_RNDN);
        mpfr_mul(t, t, fb, MPFR_RNDN);
        mpfr_sub(m, fb, fa, MPFR_RNDN);
        mpfr_div(t, t, m, MPFR_RNDN);
        mpfr_sub(m, b, t, MPFR_RNDN);
        if (!(mpfr_greater_p(m, a) && mpfr_less_p(m, b))) {
            mpfr_add(m, a, b, MPFR_RNDN);
            mpfr_div_2ui(m, m, 1, MPFR_RNDN);
        }
        rdp_f(fm, m, c);
        mpfr_sub(fm, fm, x, MPFR_RNDN);
        mpfr_abs(t, fm, MPFR_RNDN);
        mpfr_div(t, t, x, MPFR_RNDN);
        if (mpfr_cmp_ui_2exp(t, 1, tol) < 0)
            break;
        if (mpfr_sgn(fm) < 0) {
            mpfr_set(a, m, MPFR_RNDN);
            mpfr_set(fa, fm, MPFR_RNDN);
            if (last < 0) mpfr_div_2ui(fb, fb, 1, MPFR_RNDN);   /* Illinois */
            last = -1;
        } else {
            mpfr_set(b, m, MPFR_RNDN);
            mpfr_set(fb, fm, MPFR_RNDN);
            if (last > 0) mpfr_div_2ui(fa, fa, 1, MPFR_RNDN);
            last = 1;
        }
    }
    mpfr_set_prec(s, HP);
    mpfr_set(s, m, MPFR_RNDN);
    mpfr_clears(a, b, m, fa, fb, fm, t, (mpfr_ptr)0);
}

/* then the secant method from that s (sv): near the root, a few steps to
 * 2^-300 relative (each target within 2^-p of the case's value) */
static void aim_s(mpfr_t s, const mpfr_t sv, const mpfr_t x, const rdp_case *c)
{
    mpfr_t a, b, fa, fb, t;
    mpfr_inits2(HP + 64, a, b, fa, fb, t, (mpfr_ptr)0);
    mpfr_set(a, sv, MPFR_RNDN);
    mpfr_mul_d(b, sv, 1 + 0x1p-30, MPFR_RNDN);
    rdp_f(fa, a, c);
    mpfr_sub(fa, fa, x, MPFR_RNDN);
    rdp_f(fb, b, c);
    mpfr_sub(fb, fb, x, MPFR_RNDN);
    for (int k = 0; k < 40 && !mpfr_zero_p(fb) && !mpfr_equal_p(fa, fb); k++) {
        secant_step(a, b, fa, fb, t);
        rdp_f(fb, b, c);
        mpfr_sub(fb, fb, x, MPFR_RNDN);
        mpfr_abs(t, fb, MPFR_RNDN);
        mpfr_div(t, t, x, MPFR_RNDN);
        if (mpfr_cmp_ui_2exp(t, 1, -300) < 0)
            break;
    }
    mpfr_set_prec(s, HP);
    mpfr_set(s, b, MPFR_RNDN);
    mpfr_clears(a, b, fa, fb, t, (mpfr_ptr)0);
}

START_TEST(rdp)
{
    mpfr_t sig[3], d, x, g, s, r, X;
    for (int k = 0; k < 3; k++)
        mpfr_init2(sig[k], 200);
    mpfr_inits2(HP, d, x, g, s, X, (mpfr_ptr)0);
    mpfr_init2(r, 2);
    /* sigma with 200 bits: sigma^2 inexact at every working precision */
    mpfr_set_ui(sig[0], 3, MPFR_RNDN);
    mpfr_sqrt(sig[0], sig[0], MPFR_RNDN);                  /* sqrt 3 */
    mpfr_mul_ui(sig[1], sig[0], 2, MPFR_RNDN);
    mpfr_set_ui(sig[2], 5, MPFR_RNDN);
    mpfr_sqrt(sig[2], sig[2], MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    mpfr_t sc[5], sr[3], sk[3];                            /* constant; Algorithm 1's; K = N */
    for (int k = 0; k < 5; k++) {
        mpfr_init2(sc[k], 200);
        mpfr_set(sc[k], sig[0], MPFR_RNDN);
    }
    for (int k = 0; k < 3; k++) {
        mpfr_init2(sr[k], 200);
        mpfr_set(sr[k], sig[k < 2 ? 0 : 1], MPFR_RNDN);
        mpfr_init2(sk[k], 200);
        mpfr_set(sk[k], sig[k == 0 ? 1 : 2], MPFR_RNDN);
    }
    rdp_case cs[5] = {{.al = 3, .K = 4, .N = 4, .sigma = sig},                 /* alpha mu */
                      {.al = 4, .K = 1, .N = 3, .sigma = sig},                 /* subsampled */
                      {.T = 5, .K = 1, .N = 3, .amax = 2, .sigma = sc, .delta = d, .total = 1},
                      {.T = 3, .first = 1, .K = 2, .N = 5, .amax = 2, .sigma = sr, .delta = d,
                       .total = 1},
                      {.T = 3, .K = 5, .N = 5, .amax = 2, .sigma = sk, .delta = d, .total = 1}};
    static const double V[5] = {0.7, 0.05, 9.7, 8.3, 10.1}, S0[5] = {1.2, 1.1, 1.5, 1.4, 1.6};
    mpfr_t sv;
    mpfr_init2(sv, HP);
    for (int i = 0; i < 5; i++) {
        mpfr_set_d(x, V[i], MPFR_RNDN);
        if (cs[i].total)
            mpfr_set_d(sv, S0[i], MPFR_RNDN);
        else
            aim_bracket(sv, S0[i], x, &cs[i], -60);
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                const rdp_case *c = &cs[i];
                aim(x, g, V[i], p, side);
                if (c->total) {
                    /* alpha_max = 2: eps = sum_t e_t(2) + ln(1/delta), delta aimed */
                    mpfr_set(s, sv, MPFR_RNDN);
                    mpfr_set_ui(d, 1, MPFR_RNDN);
                    rdp_f(X, s, c);
                    mpfr_sub(X, x, X, MPFR_RNDN);
                    mpfr_neg(X, X, MPFR_RNDN);
                    mpfr_exp(d, X, MPFR_RNDN);
                } else {
                    aim_s(s, sv, x, c);
                }
                rdp_f(X, s, c);                           /* the exact value at s */
                mpfr_sub(g, X, x, MPFR_RNDN);
                mpfr_div(g, g, x, MPFR_RNDN);
                ck_assert_msg(mpfr_sgn(s) > 0 && mpfr_cmpabs_ui(g, 0) >= 0
                              && mpfr_cmp_si_2exp(g, 1, -250) < 0 && mpfr_cmp_si_2exp(g, -1, -250) > 0,
                              "case %d p %d: aim failed", i, (int)p);
                mpfr_set_prec(r, p);
                unsigned long al;
                if (!c->total) {
                    ck_assert_int_eq(fr_fedpdm_rdp_order(r, c->sigma[0], s, c->K, c->N, c->al), FR_OK);
                    is_up(r, X, "rdp_order", p, side);
                } else if (i == 2) {
                    ck_assert_int_eq(fr_fedpdm_rdp(r, &al, c->sigma[0], s, c->K, c->N, c->T, d, c->amax),
                                     FR_OK);
                    is_up(r, X, "rdp", p, side);
                } else {
                    mpfr_t ss[3];
                    for (int k = 0; k < 3; k++) {
                        mpfr_init2(ss[k], HP);
                        mpfr_set(ss[k], s, MPFR_RNDN);
                    }
                    ck_assert_int_eq(fr_fedpdm_rdp_rounds(r, &al, c->sigma, ss, c->T, c->first, c->K, c->N,
                                                          d, c->amax), FR_OK);
                    is_up(r, X, "rdp_rounds", p, side);
                    for (int k = 0; k < 3; k++)
                        mpfr_clear(ss[k]);
                }
            }
    }
    mpfr_clear(sv);
    for (int k = 0; k < 3; k++) {
        mpfr_clear(sig[k]);
        mpfr_clear(sr[k]);
        mpfr_clear(sk[k]);
    }
    for (int k = 0; k < 5; k++)
        mpfr_clear(sc[k]);
    mpfr_clears(d, x, g, s, r, X, (mpfr_ptr)0);
}
END_TEST

/* ---- fast's mu = s^2/(2 sigma^2) at the subnormal edge ---------------------
 * s^2, sigma^2 or mu near 2^-1060, where the absolute term 2^-1060 of
 * up/dn is the whole margin: a step rounded the wrong way there loses
 * half the value or more.  K = N, alpha 2: the exact e(2) = s^2/sigma^2,
 * eps = T e(2) + ln(1/delta) (alpha_max 2), from MPFR at HP bits. */
START_TEST(rdp_fast_tiny)
{
    static const double C[][2] = {{1, 0x1p-530}, {0x1p-530, 0x1p-530}, {0x1p-530, 0x1p-531},
                                  {0x1p-520, 0x1p-525}};     /* sigma, s */
    mpfr_t X, t;
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        const double sg = C[i][0], sv = C[i][1];
        mpfr_set_d(X, sv, MPFR_RNDN);
        mpfr_div_d(X, X, sg, MPFR_RNDN);
        mpfr_sqr(X, X, MPFR_RNDN);                          /* e(2) = 2 mu, exact */
        double e, r, r2;
        unsigned long al;
        ck_assert_int_eq(ff_fedpdm_rdp_order(&e, sg, sv, 3, 3, 2), FR_OK);
        ck_assert_msg(!isnan(e) && mpfr_cmp_d(X, e) <= 0, "rdp_order sigma %g s %g: %g below the exact", sg, sv, e);
        mpfr_mul_ui(X, X, 3, MPFR_RNDN);
        mpfr_set_d(t, 0.5, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_sub(X, X, t, MPFR_RNDN);                       /* 3 e(2) + ln 2 */
        ck_assert_int_eq(ff_fedpdm_rdp(&r, &al, sg, sv, 3, 3, 3, 0.5, 2), FR_OK);
        ck_assert_msg(!isnan(r) && mpfr_cmp_d(X, r) <= 0, "rdp sigma %g s %g: %g below the exact", sg, sv, r);
        const double sgs[3] = {sg, sg, sg}, ss[3] = {sv, sv, sv};
        ck_assert_int_eq(ff_fedpdm_rdp_rounds(&r2, &al, sgs, ss, 3, 0, 3, 3, 0.5, 2), FR_OK);
        ck_assert_msg(!isnan(r2) && mpfr_cmp_d(X, r2) <= 0, "rdp_rounds sigma %g s %g: %g below the exact", sg, sv, r2);
    }
    mpfr_clears(X, t, (mpfr_ptr)0);
}
END_TEST

/* ---- (20): eps_bar = c0 q^2 eps sqrt(p T / (1 - q)), aimed by c0 ----------- */
START_TEST(thm2)
{
    mpfr_t x, g, q, e, c0, r, X, t;
    mpfr_inits2(HP, x, g, q, e, c0, X, t, (mpfr_ptr)0);
    mpfr_init2(r, 2);
    mpfr_set_ui(q, 3, MPFR_RNDN);
    mpfr_sqrt(q, q, MPFR_RNDN);
    mpfr_sub_ui(q, q, 1, MPFR_RNDN);
    mpfr_prec_round(q, 200, MPFR_RNDN);                  /* 1 - q inexact */
    mpfr_set_d(e, 0.37, MPFR_RNDN);
    for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
        for (int side = -1; side <= 1; side += 2) {
            aim(x, g, 1.9, p, side);
            mpfr_ui_sub(t, 1, q, MPFR_RNDN);             /* exact: q has 200 bits */
            mpfr_ui_div(t, 3 * 7, t, MPFR_RNDN);
            mpfr_div_ui(t, t, 11, MPFR_RNDN);
            mpfr_sqrt(t, t, MPFR_RNDN);
            mpfr_mul(t, t, e, MPFR_RNDN);
            mpfr_mul(t, t, q, MPFR_RNDN);
            mpfr_mul(t, t, q, MPFR_RNDN);                /* all but c0 */
            mpfr_div(c0, x, t, MPFR_RNDN);
            mpfr_mul(X, c0, t, MPFR_RNDN);
            mpfr_set_prec(r, p);
            ck_assert_int_eq(fr_fedpdm_thm2(r, c0, e, 3, 11, 7, q), FR_OK);
            is_up(r, X, "thm2", p, side);
        }
    /* q = 2^-200, K = N = T = 1, c0 = eps = 1: every step exact but 1 - q
     * (inexact below 200 bits), so eps_bar = 2^-400 / sqrt(1 - 2^-200) >
     * 2^-400 rests on 1 - q rounded down alone */
    mpfr_set_ui_2exp(q, 1, -200, MPFR_RNDN);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    for (mpfr_prec_t p = PMIN; p <= PMAX; p++) {
        mpfr_set_prec(r, p);
        ck_assert_int_eq(fr_fedpdm_thm2(r, e, e, 1, 1, 1, q), FR_OK);
        ck_assert_msg(mpfr_cmp_ui_2exp(r, 1, -400) > 0, "thm2 q = 2^-200 p %d: not above 2^-400", (int)p);
    }
    mpfr_clears(x, g, q, e, c0, r, X, t, (mpfr_ptr)0);
}
END_TEST

/* ---- (19): s = 4 eta G S_Q(|1 - eta rho|), RU; aimed by G, exact by GMP ---- */
START_TEST(sensitivity)
{
    /* eta, rho, value; eta and rho binary64 (53-bit variables: 1 - eta rho
     * then has about 110 bits and Horner's steps are inexact at the working
     * precision, so that their directions show) */
    static const double C[][3] = {{0.01, 3, 0.9}, {0.3, 5, 4.4}, {0.9, 2, 1.5}, {0.01, 3.1, 0.7},
                                  {0.37, 4.3, 2.6}};
    static const unsigned long Q[] = {3, 5, 2, 3, 4};
    mpq_t a, S, q, t;
    mpq_inits(a, S, q, t, NULL);
    mpfr_t x, g, eta, rho, G, r, X;
    mpfr_inits2(HP, x, g, G, X, (mpfr_ptr)0);
    mpfr_inits2(53, eta, rho, (mpfr_ptr)0);
    mpfr_init2(r, 2);
    for (size_t i = 0; i < sizeof Q / sizeof Q[0]; i++)
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i][2], p, side);
                mpfr_set_d(eta, C[i][0], MPFR_RNDN);
                mpfr_set_d(rho, C[i][1], MPFR_RNDN);
                mpq_set_d(a, C[i][0]);
                mpq_set_d(t, C[i][1]);
                mpq_mul(a, a, t);
                mpq_set_ui(t, 1, 1);
                mpq_sub(a, t, a);
                mpq_abs(a, a);                           /* |1 - eta rho| */
                mpq_set_ui(S, 0, 1);
                for (unsigned long k = 0; k < Q[i]; k++) {  /* Horner */
                    mpq_mul(S, S, a);
                    mpq_add(S, S, t);
                }
                mpq_set_d(q, 4 * C[i][0]);                /* 4 eta exact */
                mpq_mul(q, q, S);
                mpfr_div_q(G, x, q, MPFR_RNDN);           /* G = x / (4 eta S) */
                mpfr_get_q(t, G);
                mpq_mul(q, q, t);                         /* the exact s */
                mpfr_set_q(X, q, MPFR_RNDN);
                mpfr_set_prec(r, p);
                ck_assert_int_eq(fr_fedpdm_sensitivity(r, eta, rho, Q[i], G), FR_OK);
                mpfr_t w;
                mpfr_init2(w, p);
                mpfr_set_q(w, q, MPFR_RNDU);
                ck_assert_msg(mpfr_equal_p(r, w), "sensitivity p %d side %d: %.17g, RU(exact) %.17g",
                              (int)p, side, mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(w, MPFR_RNDN));
                if (p == 53) {
                    double f, gd = mpfr_get_d(G, MPFR_RNDU);
                    ck_assert_int_eq(ff_fedpdm_sensitivity(&f, C[i][0], C[i][1], Q[i], gd), FR_OK);
                    mpfr_set_d(G, gd, MPFR_RNDN);
                    ck_assert_int_eq(fr_fedpdm_sensitivity(r, eta, rho, Q[i], G), FR_OK);
                    ck_assert_msg(f >= mpfr_get_d(r, MPFR_RNDU), "fast (19) below ref");
                }
                mpfr_clear(w);
            }
    mpfr_clears(x, g, eta, rho, G, r, X, (mpfr_ptr)0);
    mpq_clears(a, S, q, t, NULL);
}
END_TEST

/* ---- the whole-path sensitivity: the header's recursion, aimed by G ------
 * s[t] is homogeneous of degree 1 in G (W_t = 2 eta_t G S_Q(|b_t|), the
 * rest linear in the W's with max of nonnegative terms), so G = x / s[T-1](1)
 * puts the last round's exact value 2^-200 beside a p-bit grid point;
 * every s[t] >= its exact value.  The cases reach each branch of the
 * recursion: b > 0 with 1 - 2B > 0 and < 0, b < 0 with Q odd (B < 0) and
 * even, |B| > 1 (the second pass at more bits), starts XI and X0. */
static void path_hp(mpfr_t *out, const double *eta, unsigned long T, double rho, unsigned long Q,
                    const mpfr_t G, int xi)
{
    mpfr_t b, B, W, S, xb, lb, u, v, nx, nl;
    mpfr_inits2(HP + 64, b, B, W, S, xb, lb, u, v, nx, nl, (mpfr_ptr)0);
    mpfr_set_zero(xb, 1);
    mpfr_set_zero(lb, 1);
    for (unsigned long t = 0; t < T; t++) {
        mpfr_set_d(b, eta[t], MPFR_RNDN);
        mpfr_mul_d(b, b, rho, MPFR_RNDN);
        mpfr_ui_sub(b, 1, b, MPFR_RNDN);                       /* b, exact */
        mpfr_pow_ui(B, b, Q, MPFR_RNDN);
        mpfr_abs(u, b, MPFR_RNDN);
        mpfr_set_ui(S, 0, MPFR_RNDN);
        for (unsigned long k = 0; k < Q; k++) {                /* S_Q(|b|), Horner */
            mpfr_mul(S, S, u, MPFR_RNDN);
            mpfr_add_ui(S, S, 1, MPFR_RNDN);
        }
        mpfr_mul_d(W, S, 2 * eta[t], MPFR_RNDN);
        mpfr_mul(W, W, G, MPFR_RNDN);                          /* W_t = (19)/2 */
        mpfr_mul_2ui(u, B, 1, MPFR_RNDN);
        mpfr_ui_sub(u, 1, u, MPFR_RNDN);
        mpfr_abs(u, u, MPFR_RNDN);
        mpfr_mul(out[t], u, lb, MPFR_RNDN);                    /* |1 - 2B| Lb */
        mpfr_mul_2ui(u, W, 1, MPFR_RNDN);
        mpfr_add(out[t], out[t], u, MPFR_RNDN);
        mpfr_abs(v, B, MPFR_RNDN);
        if (xi) {
            mpfr_mul(u, v, xb, MPFR_RNDN);
            mpfr_mul_2ui(u, u, 1, MPFR_RNDN);
            mpfr_add(out[t], out[t], u, MPFR_RNDN);            /* + |2B| Xb */
            mpfr_ui_sub(nx, 1, B, MPFR_RNDN);
            mpfr_abs(nx, nx, MPFR_RNDN);
            mpfr_mul(nx, nx, lb, MPFR_RNDN);
            mpfr_mul(u, v, xb, MPFR_RNDN);
            mpfr_add(nx, nx, u, MPFR_RNDN);
            mpfr_add(nx, nx, W, MPFR_RNDN);                    /* |B| Xb + |1 - B| Lb + W */
            mpfr_mul(nl, v, lb, MPFR_RNDN);
            mpfr_add(nl, nl, u, MPFR_RNDN);
            mpfr_add(nl, nl, W, MPFR_RNDN);                    /* |B| Xb + |B| Lb + W */
            mpfr_max(xb, xb, nx, MPFR_RNDN);
        } else {
            mpfr_mul(nl, v, lb, MPFR_RNDN);
            mpfr_add(nl, nl, W, MPFR_RNDN);                    /* |B| Lb + W */
        }
        mpfr_max(lb, lb, nl, MPFR_RNDN);
    }
    mpfr_clears(b, B, W, S, xb, lb, u, v, nx, nl, (mpfr_ptr)0);
}

#define PATH_T 4
START_TEST(path_sens)
{
    static const struct { double eta[PATH_T], rho; unsigned long Q; int xi; double v; } C[] = {
        {{0.1, 0.23, 0.31, 0.17}, 2.7, 3, 1, 1.7},       /* b > 0, 1 - 2B > 0 */
        {{0.03, 0.05, 0.07, 0.11}, 1.3, 2, 1, 2.9},      /* b > 0, 1 - 2B < 0, 1 - B > 0 */
        {{0.53, 0.61, 0.7, 0.57}, 2.9, 3, 0, 0.9},       /* b < 0, Q odd: B < 0, X0 */
        {{0.53, 0.61, 0.7, 0.57}, 2.9, 3, 1, 5.3},       /* b < 0, Q odd: B < 0, XI */
        {{0.8, 0.9, 0.85, 0.95}, 2.9, 2, 1, 3.3},        /* b < 0, Q even, |B| > 1 */
        {{0.8, 0.9, 0.85, 0.95}, 2.9, 3, 0, 7.1},        /* |B| > 1, B < 0, X0 */
    };
    mpfr_t ex[PATH_T], s[PATH_T], e[PATH_T], x, g, G, rho, one;
    for (int t = 0; t < PATH_T; t++) {
        mpfr_init2(ex[t], HP + 64);
        mpfr_init2(s[t], 2);
        mpfr_init2(e[t], 53);
    }
    mpfr_inits2(HP, x, g, G, one, (mpfr_ptr)0);
    mpfr_init2(rho, 53);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        const int start = C[i].xi ? FR_PDM_START_XI : FR_PDM_START_X0;
        for (int t = 0; t < PATH_T; t++)
            mpfr_set_d(e[t], C[i].eta[t], MPFR_RNDN);
        mpfr_set_d(rho, C[i].rho, MPFR_RNDN);
        mpfr_set_ui(one, 1, MPFR_RNDN);
        path_hp(ex, C[i].eta, PATH_T, C[i].rho, C[i].Q, one, C[i].xi);
        mpfr_set(one, ex[PATH_T - 1], MPFR_RNDN);            /* s[T-1] at G = 1 */
        for (mpfr_prec_t p = PMIN; p <= PMAX; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i].v, p, side);
                mpfr_div(G, x, one, MPFR_RNDN);
                path_hp(ex, C[i].eta, PATH_T, C[i].rho, C[i].Q, G, C[i].xi);
                mpfr_sub(g, ex[PATH_T - 1], x, MPFR_RNDN);
                mpfr_div(g, g, x, MPFR_RNDN);
                ck_assert_msg(mpfr_cmpabs(g, x) < 0 && mpfr_cmp_si_2exp(g, 1, -300) < 0
                              && mpfr_cmp_si_2exp(g, -1, -300) > 0, "path case %zu p %d: aim failed", i, (int)p);
                for (int t = 0; t < PATH_T; t++)
                    mpfr_set_prec(s[t], p);
                ck_assert_int_eq(fr_fedpdm_path_sens(s, e, PATH_T, rho, C[i].Q, G, start), FR_OK);
                for (int t = 0; t < PATH_T; t++)
                    ck_assert_msg(mpfr_cmp(s[t], ex[t]) >= 0, "path_sens case %zu t %d p %d side %d: %.17g below %.17g",
                                  i, t, (int)p, side, mpfr_get_d(s[t], MPFR_RNDN), mpfr_get_d(ex[t], MPFR_RNDN));
            }
    }
    for (int t = 0; t < PATH_T; t++) {
        mpfr_clear(ex[t]);
        mpfr_clear(s[t]);
        mpfr_clear(e[t]);
    }
    mpfr_clears(x, g, G, rho, one, (mpfr_ptr)0);
}
END_TEST

/* the recursion's pass white-box (fri_pdm_path_pass) at working precisions
 * 2..17, where each rounding is as wide as the slack of all the others (at
 * p + 64 bits one step turned down hides behind the next steps' upward
 * roundings): on 320 random cases a precision, every r[t] >= s[t]. */
static uint64_t sweep_rng = 0x9e3779b97f4a7c15u;
static double sweep_u(void)                        /* in [0, 1), 53 bits (splitmix64) */
{
    uint64_t z = (sweep_rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double short_odd(void)                     /* 1, 3, 5 or 7 */
{
    return 1 + 2 * (int)(4 * sweep_u());
}

#define PASS_T 6
START_TEST(path_pass)
{
    mpfr_t ex[PASS_T], r[PASS_T], e[PASS_T], G, rho;
    for (int t = 0; t < PASS_T; t++) {
        mpfr_init2(ex[t], HP + 64);
        mpfr_init2(r[t], 2);
        mpfr_init2(e[t], 53);
    }
    mpfr_inits2(53, G, rho, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= 17; w++)
        for (int i = 0; i < 640; i++) {
            /* odd cases: inputs of 1 to 3 bits, so that at most w most steps are
             * exact and the few inexact ones carry no slack for the others */
            const int sh = i & 1;
            double eta[PASS_T], rh = sh ? ldexp(short_odd(), -1) : 0.25 + 3 * sweep_u();
            double Gd = sh ? short_odd() : 0.5 + sweep_u();
            const unsigned long Q = 1 + (unsigned long)(4 * sweep_u());
            const int xi = sweep_u() < 0.5;
            for (int t = 0; t < PASS_T; t++) {
                if (sh)
                    eta[t] = ldexp(short_odd(), -2 - (int)(3 * sweep_u()));
                else
                    eta[t] = (0.05 + sweep_u()) / rh * (i % 3 == 0 ? 0.9 : i % 3 == 1 ? 1.6 : 2.3);
                mpfr_set_d(e[t], eta[t], MPFR_RNDN);
                mpfr_set_prec(r[t], w);
            }
            mpfr_set_d(rho, rh, MPFR_RNDN);
            mpfr_set_d(G, Gd, MPFR_RNDN);
            path_hp(ex, eta, PASS_T, rh, Q, G, xi);
            long k;
            ck_assert_int_eq(fri_pdm_path_pass(r, e, PASS_T, rho, Q, G, xi ? FR_PDM_START_XI : FR_PDM_START_X0, w, &k),
                             FR_OK);
            for (int t = 0; t < PASS_T; t++)
                ck_assert_msg(mpfr_cmp(r[t], ex[t]) >= 0, "path pass w %d case %d t %d: %g below %.17g", (int)w, i, t,
                              mpfr_get_d(r[t], MPFR_RNDN), mpfr_get_d(ex[t], MPFR_RNDN));
        }
    for (int t = 0; t < PASS_T; t++) {
        mpfr_clear(ex[t]);
        mpfr_clear(r[t]);
        mpfr_clear(e[t]);
    }
    mpfr_clears(G, rho, (mpfr_ptr)0);
}
END_TEST

/* the path sensitivity where 2|B| passes the exponent range but s fits:
 * b = -3, Q = 2, B = 9 with emax = 4 (numbers below 16), W_t = 1/8; the
 * exact s[1] (4.625 with start XI, 2.375 with X0) is at most the result
 * (+Inf: 2|B| rounded up overflows).  The caller's exponent range is
 * MPFR's, so a reduced emax stands for the real one with |B| near 2^emax. */
START_TEST(path_overflow)
{
    mpfr_t e[2], s[2], ex[2], rho, G;
    const double eta[2] = {1, 1};
    for (int t = 0; t < 2; t++) {
        mpfr_init2(e[t], 53);
        mpfr_set_ui(e[t], 1, MPFR_RNDN);
        mpfr_init2(s[t], 24);
        mpfr_init2(ex[t], HP + 64);
    }
    mpfr_inits2(53, rho, G, (mpfr_ptr)0);
    mpfr_set_ui(rho, 4, MPFR_RNDN);
    mpfr_set_ui_2exp(G, 1, -6, MPFR_RNDN);
    for (int xi = 0; xi <= 1; xi++) {
        path_hp(ex, eta, 2, 4, 2, G, xi);
        ck_assert(mpfr_cmp_d(ex[1], xi ? 4.625 : 2.375) == 0);
        const mpfr_exp_t emax = mpfr_get_emax();
        ck_assert_int_eq(mpfr_set_emax(4), 0);
        const int st = fr_fedpdm_path_sens(s, e, 2, rho, 2, G, xi ? FR_PDM_START_XI : FR_PDM_START_X0);
        mpfr_set_emax(emax);
        ck_assert_int_eq(st, FR_OK);
        for (int t = 0; t < 2; t++)
            ck_assert_msg(mpfr_cmp(s[t], ex[t]) >= 0, "path_sens emax 4 start %d t %d: %g below %g", xi, t,
                          mpfr_get_d(s[t], MPFR_RNDN), mpfr_get_d(ex[t], MPFR_RNDN));
    }
    for (int t = 0; t < 2; t++) {
        mpfr_clear(e[t]);
        mpfr_clear(s[t]);
        mpfr_clear(ex[t]);
    }
    mpfr_clears(rho, G, (mpfr_ptr)0);
}
END_TEST

/* fast's path sensitivity >= the exact recursion, on G spread over 2^12
 * binary64 values per case: one upward step of fast turned down leaves the
 * result below the exact value on some of them (the others' slack is an
 * ulp or two).  The same cases, and eta rho < 2^-900 (fast's enclosure of
 * b = 1 - eta rho without its double-double refinement). */
START_TEST(path_sens_fast)
{
    static const struct { double eta[PATH_T], rho; unsigned long Q; int xi; } C[] = {
        {{0.1, 0.23, 0.31, 0.17}, 2.7, 3, 1}, {{0.03, 0.05, 0.07, 0.11}, 1.3, 2, 1},
        {{0.53, 0.61, 0.7, 0.57}, 2.9, 3, 0}, {{0.53, 0.61, 0.7, 0.57}, 2.9, 3, 1},
        {{0.8, 0.9, 0.85, 0.95}, 2.9, 2, 1}, {{0x1p-480, 0x1p-481, 0x1.8p-480, 0x1p-479}, 0x1p-470, 3, 1},
        {{0.1, 0.2, 0.3, 0.4}, 0.25, 1, 1},
        /* B = 0.86^8 = 0.3: |1 - 2B| from the lower end of B's enclosure, the
         * products of binary powering rounded down weighing 8 ulps */
        {{0.05, 0.05, 0.05, 0.05}, 2.8, 8, 0}, {{0.05, 0.05, 0.05, 0.05}, 2.8, 8, 1},
        {{0.05, 0.06, 0.05, 0.07}, 2.8, 6, 0}};
    mpfr_t ex[PATH_T], G;
    for (int t = 0; t < PATH_T; t++)
        mpfr_init2(ex[t], HP + 64);
    mpfr_init2(G, 53);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (unsigned k = 0; k < 4096; k++) {
            double Gd = ldexp(1 + (double)((k * 2654435761u) & 0xfffff) * 0x1p-20 + 0x1p-40 * (k | 1),
                              C[i].eta[0] < 0x1p-400 ? 900 : (int)(k % 7) - 3);
            mpfr_set_d(G, Gd, MPFR_RNDN);
            path_hp(ex, C[i].eta, PATH_T, C[i].rho, C[i].Q, G, C[i].xi);
            double f[PATH_T];
            ck_assert_int_eq(ff_fedpdm_path_sens(f, C[i].eta, PATH_T, C[i].rho, C[i].Q, Gd,
                                                 C[i].xi ? FR_PDM_START_XI : FR_PDM_START_X0), FR_OK);
            for (int t = 0; t < PATH_T; t++)
                ck_assert_msg(mpfr_cmp_d(ex[t], f[t]) <= 0, "fast path_sens case %zu G %a t %d: %a below %.17g", i,
                              Gd, t, f[t], mpfr_get_d(ex[t], MPFR_RNDN));
        }
    for (int t = 0; t < PATH_T; t++)
        mpfr_clear(ex[t]);
    mpfr_clear(G);
}
END_TEST

/* fast (19) with eta G below 2^-960 (its path of upward products, the fma
 * residual's and the one-step ones): >= ref's RU at 53 bits, the exact
 * value rounded up, on 4096 cases from eta G = 2^-976 to 2^-960 */
START_TEST(sens_fast_tiny)
{
    mpfr_t e, r, G, s;
    mpfr_inits2(53, e, r, G, s, (mpfr_ptr)0);
    for (unsigned k = 0; k < 4096; k++) {
        const double eta = ldexp(0.5 + sweep_u(), -500 + (int)(k % 5)), rho = 0.3 + 2 * sweep_u();
        const double Gd = ldexp(0.5 + sweep_u(), -476 + (int)(k % 17));
        const unsigned long Q = 1 + k % 4;
        mpfr_set_d(e, eta, MPFR_RNDN);
        mpfr_set_d(r, rho, MPFR_RNDN);
        mpfr_set_d(G, Gd, MPFR_RNDN);
        double f;
        ck_assert_int_eq(ff_fedpdm_sensitivity(&f, eta, rho, Q, Gd), FR_OK);
        ck_assert_int_eq(fr_fedpdm_sensitivity(s, e, r, Q, G), FR_OK);
        ck_assert_msg(mpfr_cmp_d(s, f) <= 0, "fast (19) eta %a rho %a Q %lu G %a: %a below RU %a", eta, rho, Q, Gd, f,
                      mpfr_get_d(s, MPFR_RNDN));
    }
    mpfr_clears(e, r, G, s, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_round_sweep(void)
{
    Suite *s = suite_create("fedpdm_round_sweep");
    const struct { const char *name; const TTest *t; } T[] = {
        {"classical", classical}, {"analytic", analytic}, {"decision_tie", decision_tie},
        {"validator", validator},
        {"gauss_eps", gauss_eps}, {"gauss_eps_fast_cert", gauss_eps_fast_cert},
        {"compose_adv", compose_adv},
        {"rdp", rdp}, {"rdp_fast_tiny", rdp_fast_tiny}, {"thm2", thm2}, {"sensitivity", sensitivity}, {"path_sens", path_sens}, {"path_pass", path_pass},
        {"path_overflow", path_overflow},
        {"path_sens_fast", path_sens_fast}, {"sens_fast_tiny", sens_fast_tiny}};
    for (size_t k = 0; k < sizeof T / sizeof T[0]; k++) {    /* one case each: CK_RUN_CASE */
        TCase *tc = tcase_create(T[k].name);
        tcase_set_timeout(tc, 300);
        tcase_add_test(tc, T[k].t);
        suite_add_tcase(s, tc);
    }
    return s;
}
