/* SPDX-License-Identifier: Apache-2.0 */
/* test_gauss.c -- module fedpdm, Gaussian calibration: ref against
 * independent high-precision evaluations of (5) and of delta_eps, fast
 * against ref (never below it), the validator's verdicts at and next to
 * the root, and the edges (s = 0, sign of zero, tiny delta, large eps). */
#include <check.h>
#include <float.h>
#include <math.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_fedpdm_gauss(void);

#define HP 600

/* delta_eps(sigma) naively at HP bits (round to nearest throughout; the
 * comparisons below leave a margin far above 2^-500 relative). */
static void delta_hp(mpfr_t D, double eps, double s, mpfr_srcptr sigma)
{
    mpfr_t A, B, t, u, e;
    mpfr_inits2(HP, A, B, t, u, e, (mpfr_ptr)0);
    mpfr_set_d(t, s, MPFR_RNDN);
    mpfr_div(A, t, sigma, MPFR_RNDN);
    mpfr_div_2ui(A, A, 1, MPFR_RNDN);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_mul(B, e, sigma, MPFR_RNDN);
    mpfr_div(B, B, t, MPFR_RNDN);
    mpfr_sqrt_ui(u, 2, MPFR_RNDN);
    mpfr_sub(t, B, A, MPFR_RNDN);             /* -(A - B) */
    mpfr_div(t, t, u, MPFR_RNDN);
    mpfr_erfc(t, t, MPFR_RNDN);                /* 2 Phi(A - B) */
    mpfr_add(D, A, B, MPFR_RNDN);
    mpfr_div(D, D, u, MPFR_RNDN);
    mpfr_erfc(D, D, MPFR_RNDN);                /* 2 Phi(-A - B) */
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul(D, D, e, MPFR_RNDN);
    mpfr_sub(D, t, D, MPFR_RNDN);
    mpfr_div_2ui(D, D, 1, MPFR_RNDN);
    mpfr_clears(A, B, t, u, e, (mpfr_ptr)0);
}

static const double EPS[] = {0.01, 0.1, 0.5, 1, 2, 7, 10, 20, 30, 700, 750};
static const double DEL[] = {0.2, 1e-5, 1e-12, 1e-300};

/* (5) at 53 bits is RU of the value computed at HP bits. */
START_TEST(classical_ru)
{
    for (size_t i = 0; i < sizeof EPS / sizeof EPS[0]; i++)
        for (size_t j = 0; j < sizeof DEL / sizeof DEL[0]; j++) {
            double s = 0.75;
            mpfr_t e, d, sv, r, x, y;
            mpfr_inits2(53, e, d, sv, r, y, (mpfr_ptr)0);
            mpfr_init2(x, HP);
            mpfr_set_d(e, EPS[i], MPFR_RNDN);
            mpfr_set_d(d, DEL[j], MPFR_RNDN);
            mpfr_set_d(sv, s, MPFR_RNDN);
            ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, d, sv), FR_OK);
            mpfr_ui_div(x, 5, d, MPFR_RNDN);
            mpfr_div_2ui(x, x, 2, MPFR_RNDN);
            mpfr_log(x, x, MPFR_RNDN);
            mpfr_mul_d(x, x, 2 * s * s, MPFR_RNDN);
            mpfr_div(x, x, e, MPFR_RNDN);
            mpfr_div(x, x, e, MPFR_RNDN);
            mpfr_set(y, x, MPFR_RNDU);
            ck_assert_msg(mpfr_equal_p(r, y), "eps %g delta %g", EPS[i], DEL[j]);
            ck_assert(mpfr_cmp(r, x) >= 0);
            double f;
            ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&f, EPS[i], DEL[j], s), FR_OK);
            ck_assert_msg(mpfr_cmp_d(x, f) <= 0, "fast below exact: eps %g delta %g", EPS[i], DEL[j]);
            ck_assert(f <= mpfr_get_d(x, MPFR_RNDU) * (1 + 0x1p-47));
            mpfr_clears(e, d, sv, r, x, y, (mpfr_ptr)0);
        }
}
END_TEST

/* fast (5) where sigma^2 is subnormal (s near 2^-520): >= the value at HP
 * bits, the last rounding of ldexp a half-ulp of 2^-1074 away */
START_TEST(classical_subnormal)
{
    mpfr_t x;
    mpfr_init2(x, HP);
    for (int k = 0; k < 600; k++) {
        const double s = ldexp(1 + (double)((k * 2654435761u) & 0xfffff) * 0x1p-20, -540 + k % 24);
        const double eps = EPS[k % 6], delta = DEL[k % 4];
        mpfr_set_d(x, delta, MPFR_RNDN);
        mpfr_ui_div(x, 5, x, MPFR_RNDN);
        mpfr_div_2ui(x, x, 2, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        mpfr_mul_d(x, x, 2 * s, MPFR_RNDN);
        mpfr_mul_d(x, x, s, MPFR_RNDN);
        mpfr_div_d(x, x, eps, MPFR_RNDN);
        mpfr_div_d(x, x, eps, MPFR_RNDN);
        double f;
        ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&f, eps, delta, s), FR_OK);
        ck_assert_msg(mpfr_cmp_d(x, f) <= 0, "fast %a below exact %a: eps %g delta %g s %a", f,
                      mpfr_get_d(x, MPFR_RNDN), eps, delta, s);
    }
    mpfr_clear(x);
}
END_TEST

/* The analytic sigma is RU(sigma*): delta_eps(sigma) <= delta <
 * delta_eps(nextbelow(sigma)) at HP bits, at 53 bits (the bisection) and at
 * 200 bits (the Newton estimate, galloping and bisection of p > 96); fast >=
 * ref (both are >= sigma*, ref the least binary64 that is) and within
 * 2^-26; the validators agree. */
START_TEST(analytic_root)
{
    static const mpfr_prec_t P[] = {53, 200};
    for (size_t i = 0; i < sizeof EPS / sizeof EPS[0]; i++)
        for (size_t j = 0; j < sizeof DEL / sizeof DEL[0]; j++)
            for (size_t k = 0; k < 2; k++) {
                mpfr_t e, d, sv, r, b, D, lo, hi;
                mpfr_inits2(53, e, d, sv, lo, hi, (mpfr_ptr)0);
                mpfr_inits2(P[k], r, b, (mpfr_ptr)0);
                mpfr_init2(D, HP);
                mpfr_set_d(e, EPS[i], MPFR_RNDN);
                mpfr_set_d(d, DEL[j], MPFR_RNDN);
                mpfr_set_d(sv, 1, MPFR_RNDN);
                ck_assert_int_eq(fr_gauss_sigma_analytic(r, e, d, sv), FR_OK);
                delta_hp(D, EPS[i], 1, r);
                ck_assert_msg(mpfr_cmp(D, d) <= 0, "eps %g delta %g prec %d: delta_eps(sigma) > delta",
                              EPS[i], DEL[j], (int)P[k]);
                mpfr_set(b, r, MPFR_RNDN);
                mpfr_nextbelow(b);
                delta_hp(D, EPS[i], 1, b);
                ck_assert_msg(mpfr_cmp(D, d) > 0, "eps %g delta %g prec %d: not the least", EPS[i], DEL[j],
                              (int)P[k]);
                int v = 7;
                ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, r), FR_OK);
                ck_assert_int_eq(v, FR_GAUSS_HOLDS);
                ck_assert(mpfr_sgn(lo) >= 0 && mpfr_cmp(lo, hi) <= 0);
                ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, b), FR_OK);
                ck_assert_int_eq(v, FR_GAUSS_FAILS);
                ck_assert(mpfr_sgn(hi) < 0);
                if (P[k] == 53) {
                    double f = 0, ml, mh;
                    ck_assert_int_eq(ff_gauss_sigma_analytic_upper(&f, EPS[i], DEL[j], 1), FR_OK);
                    double rr = mpfr_get_d(r, MPFR_RNDN);
                    ck_assert_msg(f >= rr, "fast %.17g below ref %.17g", f, rr);
                    ck_assert_msg(f <= rr * (1 + 0x1p-26), "fast %.17g far from ref %.17g", f, rr);
                    ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, EPS[i], DEL[j], 1, f), FR_OK);
                    ck_assert_int_eq(v, FR_GAUSS_HOLDS);
                    ck_assert(ml >= 0 && ml <= mh);
                    /* just below the root: fast may say FAILS or UNKNOWN, never HOLDS */
                    ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, EPS[i], DEL[j], 1, nextafter(rr, 0)), FR_OK);
                    ck_assert_int_ne(v, FR_GAUSS_HOLDS);
                }
                mpfr_clears(e, d, sv, r, b, D, lo, hi, (mpfr_ptr)0);
            }
}
END_TEST

/* Scale covariance: sigma*(s) = s sigma*(1) exactly for s a power of 2
 * (delta_eps depends on sigma/s only), and the result at 200 bits rounds
 * to the 53-bit one (RU of RU). */
START_TEST(analytic_scale_prec)
{
    mpfr_t e, d, s1, s2, r1, r2, r3;
    mpfr_inits2(53, e, d, s1, s2, r1, r2, (mpfr_ptr)0);
    mpfr_init2(r3, 200);
    mpfr_set_d(e, 2, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    mpfr_set_ui(s1, 1, MPFR_RNDN);
    mpfr_set_d(s2, 0x1p-300, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma_analytic(r1, e, d, s1), FR_OK);
    ck_assert_int_eq(fr_gauss_sigma_analytic(r2, e, d, s2), FR_OK);
    mpfr_mul_2si(r2, r2, 300, MPFR_RNDN);
    ck_assert(mpfr_equal_p(r1, r2));
    ck_assert_int_eq(fr_gauss_sigma_analytic(r3, e, d, s1), FR_OK);
    mpfr_set(r2, r3, MPFR_RNDU);
    ck_assert(mpfr_equal_p(r1, r2));
    /* subnormal delta: fast still >= ref (the contract's looser accuracy) */
    double f;
    mpfr_set_d(d, 4e-320, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma_analytic(r1, e, d, s1), FR_OK);
    ck_assert_int_eq(ff_gauss_sigma_analytic_upper(&f, 2, 4e-320, 1), FR_OK);
    ck_assert(mpfr_cmp_d(r1, f) <= 0);
    ck_assert(f <= mpfr_get_d(r1, MPFR_RNDU) * (1 + 0x1p-16));
    mpfr_clears(e, d, s1, s2, r1, r2, r3, (mpfr_ptr)0);
}
END_TEST

/* s = 0: +0 in both wings (sign of zero), s = -0 valid too; sigma = 0
 * with s > 0 fails with margin delta - 1 exactly enclosed; (5) is NOT
 * sufficient at eps = 30, delta = 1e-5 (both wings say FAILS). */
START_TEST(edges)
{
    mpfr_t e, d, sv, r, lo, hi, sg;
    mpfr_inits2(53, e, d, sv, r, lo, hi, sg, (mpfr_ptr)0);
    mpfr_set_d(e, 1, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    mpfr_set_d(sv, -0.0, MPFR_RNDN);
    mpfr_set_d(r, -1, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma_analytic(r, e, d, sv), FR_OK);
    ck_assert(mpfr_zero_p(r) && !mpfr_signbit(r));
    mpfr_set_d(r, -1, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, d, sv), FR_OK);
    ck_assert(mpfr_zero_p(r) && !mpfr_signbit(r));
    double f = -1;
    ck_assert_int_eq(ff_gauss_sigma_analytic_upper(&f, 1, 1e-5, -0.0), FR_OK);
    ck_assert(f == 0 && !signbit(f));
    f = -1;
    ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&f, 1, 1e-5, -0.0), FR_OK);
    ck_assert(f == 0 && !signbit(f));
    int v;
    mpfr_set_ui(sv, 1, MPFR_RNDN);
    mpfr_set_zero(sg, 1);
    ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, sg), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_FAILS);
    mpfr_sub_ui(r, d, 1, MPFR_RNDN);          /* delta - 1 */
    ck_assert(mpfr_cmp(lo, r) <= 0 && mpfr_cmp(hi, r) >= 0);
    double ml, mh;
    ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, 1, 1e-5, 1, 0), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_FAILS);
    ck_assert(ml <= 1e-5 - 1 && mh >= 1e-5 - 1);
    /* (5) at eps = 30 */
    mpfr_set_d(e, 30, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, d, sv), FR_OK);
    mpfr_sqrt(sg, r, MPFR_RNDU);
    ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, sg), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_FAILS);
    ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, 30, 1e-5, 1, mpfr_get_d(sg, MPFR_RNDU)), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_FAILS);
    /* and at eps = 0.5 it holds */
    mpfr_set_d(e, 0.5, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma2_classical(r, e, d, sv), FR_OK);
    mpfr_sqrt(sg, r, MPFR_RNDU);
    ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, sg), FR_OK);
    ck_assert_int_eq(v, FR_GAUSS_HOLDS);
    mpfr_clears(e, d, sv, r, lo, hi, sg, (mpfr_ptr)0);
}
END_TEST

/* The margins of the two closed-form verdicts, at 2..16 bits where each
 * rounding shows: sigma = 0 < s (delta_eps = 1: [mlo, mhi] holds delta - 1)
 * and s = 0 (delta_eps = 0: it holds delta), against delta - 1 and delta
 * exactly (128 bits; delta is a 53-bit number). */
START_TEST(margins_closed_form)
{
    mpfr_t e, d, sv, sg, lo, hi, x;
    mpfr_inits2(53, e, d, sv, sg, (mpfr_ptr)0);
    mpfr_inits2(128, lo, hi, x, (mpfr_ptr)0);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    mpfr_set_d(d, 0.3, MPFR_RNDN);                 /* not a 16-bit number */
    for (int zero_s = 0; zero_s < 2; zero_s++)
        for (mpfr_prec_t p = 2; p <= 16; p++) {
            mpfr_set_ui(sv, zero_s ? 0 : 1, MPFR_RNDN);
            mpfr_set_zero(sg, 1);
            if (zero_s) mpfr_set_ui(sg, 2, MPFR_RNDN);
            mpfr_set_prec(lo, p);
            mpfr_set_prec(hi, p);
            int v;
            ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, sg), FR_OK);
            ck_assert_int_eq(v, zero_s ? FR_GAUSS_HOLDS : FR_GAUSS_FAILS);
            if (zero_s) mpfr_set(x, d, MPFR_RNDN); else mpfr_sub_ui(x, d, 1, MPFR_RNDN);   /* exact */
            ck_assert_msg(mpfr_lessequal_p(lo, x) && mpfr_greaterequal_p(hi, x),
                          "p %d, s %d: [%g, %g] misses %.17g", (int)p, !zero_s, mpfr_get_d(lo, MPFR_RNDN),
                          mpfr_get_d(hi, MPFR_RNDN), mpfr_get_d(x, MPFR_RNDN));
        }
    mpfr_clears(e, d, sv, sg, lo, hi, x, (mpfr_ptr)0);
}
END_TEST

/* Extreme valid inputs, FR_OK in both wings (fast returned FR_EINTERNAL):
 * delta = 2^-1074 (both terms of delta_eps subnormal in binary64: fast
 * certifies in log space), s = DBL_MAX (sigma* = 9.1e307 > DBL_MAX / 2:
 * 2 sigma overflowed), sigma* beyond DBL_MAX (fast: +Inf).  The root is
 * checked at HP bits (ref: least, fast: >= ref within 2^-26). */
START_TEST(analytic_extreme)
{
    static const double C[][3] = {{1, 0x1p-1074, 1}, {1, 0.5, DBL_MAX}, {20, 0x1p-1074, 1},
                                  {1e-300, 1e-5, DBL_MAX}};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        mpfr_t e, d, sv, r, b, D;
        mpfr_inits2(53, e, d, sv, r, b, (mpfr_ptr)0);
        mpfr_init2(D, HP);
        mpfr_set_d(e, C[i][0], MPFR_RNDN);
        mpfr_set_d(d, C[i][1], MPFR_RNDN);
        mpfr_set_d(sv, C[i][2], MPFR_RNDN);
        ck_assert_int_eq(fr_gauss_sigma_analytic(r, e, d, sv), FR_OK);
        delta_hp(D, C[i][0], C[i][2], r);
        ck_assert_msg(mpfr_cmp(D, d) <= 0, "case %zu: delta_eps(sigma) > delta", i);
        mpfr_set(b, r, MPFR_RNDN);
        mpfr_nextbelow(b);
        delta_hp(D, C[i][0], C[i][2], b);
        ck_assert_msg(mpfr_cmp(D, d) > 0, "case %zu: not the least", i);
        double f;
        ck_assert_int_eq(ff_gauss_sigma_analytic_upper(&f, C[i][0], C[i][1], C[i][2]), FR_OK);
        double rr = mpfr_get_d(r, MPFR_RNDU);
        ck_assert_msg(f >= rr, "case %zu: fast %.17g below ref %.17g", i, f, rr);
        if (isfinite(rr))
            ck_assert_msg(f <= rr * (1 + 0x1p-26), "case %zu: fast %.17g far from ref %.17g", i, f, rr);
        else
            ck_assert(isinf(f));
        int v;
        double ml, mh;
        if (isfinite(f)) {
            ck_assert_int_eq(ff_gauss_dp_check(&v, &ml, &mh, C[i][0], C[i][1], C[i][2], f), FR_OK);
            ck_assert_int_eq(v, FR_GAUSS_HOLDS);
            ck_assert(ml >= 0 && ml <= mh);
        }
        mpfr_clears(e, d, sv, r, b, D, (mpfr_ptr)0);
    }
}
END_TEST

/* delta_eps decreasing: the margin's enclosures on an increasing sigma grid
 * are ordered (lo of the next >= hi of the previous unless they overlap). */
START_TEST(monotone)
{
    mpfr_t e, d, sv, sg, lo, hi, plo;
    mpfr_inits2(53, e, d, sv, sg, lo, hi, (mpfr_ptr)0);
    mpfr_init2(plo, 53);
    mpfr_set_d(e, 3, MPFR_RNDN);
    mpfr_set_d(d, 0.5, MPFR_RNDN);
    mpfr_set_ui(sv, 1, MPFR_RNDN);
    mpfr_set_inf(plo, -1);
    for (int k = -20; k <= 40; k++) {
        int v;
        mpfr_set_d(sg, exp2(0.25 * k), MPFR_RNDN);   /* increasing in k */
        ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, sv, sg), FR_OK);
        ck_assert(mpfr_cmp(hi, plo) >= 0);    /* margin = delta - delta_eps increases */
        mpfr_set(plo, lo, MPFR_RNDN);
    }
    mpfr_clears(e, d, sv, sg, lo, hi, plo, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_gauss(void)
{
    Suite *s = suite_create("fedpdm_gauss");
    TCase *tc = tcase_create("gauss");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, classical_ru);
    tcase_add_test(tc, classical_subnormal);
    tcase_add_test(tc, analytic_root);
    tcase_add_test(tc, analytic_scale_prec);
    tcase_add_test(tc, edges);
    tcase_add_test(tc, margins_closed_form);
    tcase_add_test(tc, analytic_extreme);
    tcase_add_test(tc, monotone);
    suite_add_tcase(s, tc);
    return s;
}
