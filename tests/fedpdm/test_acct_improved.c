/* SPDX-License-Identifier: Apache-2.0 */
/* test_acct_improved.c -- fr/ff_fedpdm_rdp_rounds_improved (the RDP
 * accountant with the conversion of Canonne-Kamath-Steinke / Balle et al.
 * 2020, docs/DP.md section 2):
 *   - directions: at every precision 2..24 bits, on a grid of cases, the
 *     result is >= the 512-bit one; and at a sigma where eps is about to
 *     reach 0 (the conversion's terms cancel), where each rounding of the
 *     conversion toward a smaller eps, even at the working precision,
 *     makes the result 0 (each flip shown to fail this test by hand);
 *   - K = N, every round alike: rho(alpha) = T alpha mu, so eps is a closed
 *     form, evaluated here at 320 bits by plain loops (no library call):
 *     ref >= it and within 2^-100; and, independently of the formula, it
 *     is no lower than the exact eps of one Gaussian at sigma/sqrt(T);
 *   - the conversion is never above Mironov's: <= fr_fedpdm_rdp_rounds at
 *     the same inputs, strictly below at the settings of 003's table;
 *   - fast >= ref (128 bits) and within 2^-30 relative. */
#include <check.h>
#include <math.h>
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

Suite *suite_fedpdm_acct_improved(void);

typedef struct {
    double sigma, s, delta;
    unsigned long T, first, K, N, amax;
} icase;

static const icase CASES[] = {
    {48.448052626, 1, 1e-5, 300, 1, 5, 100, 64},
    {4.8448052626, 1, 1e-5, 300, 0, 5, 100, 64},
    {0.69211503752, 1, 1e-5, 300, 1, 5, 100, 16},
    {4.8448052626, 1, 1e-5, 300, 0, 100, 100, 64},
    {2.5, 0.75, 0.3, 3, 0, 1, 2, 8},
    {1, 1, 0.5, 1, 0, 7, 7, 2},
    {30, 2, 1e-9, 17, 2, 3, 10, 32},
};
#define NC (sizeof CASES / sizeof CASES[0])

/* eps at precision p (sigma, s, delta exact at 53 bits) */
static int ref_at(mpfr_t out, const icase *c, mpfr_prec_t p)
{
    mpfr_t sg[300], sv[300], d;
    for (unsigned long t = 0; t < c->T; t++) {
        mpfr_init2(sg[t], 53);
        mpfr_init2(sv[t], 53);
        mpfr_set_d(sg[t], c->sigma, MPFR_RNDN);
        mpfr_set_d(sv[t], c->s, MPFR_RNDN);
    }
    mpfr_init2(d, 53);
    mpfr_set_d(d, c->delta, MPFR_RNDN);
    mpfr_set_prec(out, p);
    unsigned long al = 0;
    int st = fr_fedpdm_rdp_rounds_improved(out, &al, sg, sv, c->T, c->first, c->K, c->N, d, c->amax);
    ck_assert_uint_ge(al, 2);
    ck_assert_uint_le(al, c->amax);
    for (unsigned long t = 0; t < c->T; t++) mpfr_clears(sg[t], sv[t], (mpfr_ptr)0);
    mpfr_clear(d);
    return st;
}

START_TEST(directions)
{
    mpfr_t hi, lo, lim;
    mpfr_inits2(512, hi, lo, lim, (mpfr_ptr)0);
    for (size_t i = 0; i < NC; i++) {
        ck_assert_int_eq(ref_at(hi, &CASES[i], 512), FR_OK);
        mpfr_set_prec(lim, 512);
        mpfr_mul_d(lim, hi, 1 - 0x1p-400, MPFR_RNDD);
        for (mpfr_prec_t p = 2; p <= 24; p++) {
            ck_assert_int_eq(ref_at(lo, &CASES[i], p), FR_OK);
            ck_assert_msg(mpfr_greaterequal_p(lo, lim), "case %zu at %ld bits: %.17g below the 512-bit %.17g", i,
                          (long)p, mpfr_get_d(lo, MPFR_RNDD), mpfr_get_d(hi, MPFR_RNDU));
        }
    }
    mpfr_clears(hi, lo, lim, (mpfr_ptr)0);
}
END_TEST

/* eps at precision p for K = N = 1, T = 4, s = 1, sigma_0 = ratio sigma,
 * the others sigma (two runs, of lengths 1 and 3), alpha <= 16 */
static void zero_at(mpfr_t out, const mpfr_t sigma, mpfr_prec_t p, double ratio, double delta)
{
    mpfr_t sg[4], sv[4], d;
    for (int t = 0; t < 4; t++) {
        mpfr_inits2(mpfr_get_prec(sigma) + 2, sg[t], sv[t], (mpfr_ptr)0);
        mpfr_set(sg[t], sigma, MPFR_RNDN);
        mpfr_set_ui(sv[t], 1, MPFR_RNDN);
    }
    mpfr_mul_d(sg[0], sg[0], ratio, MPFR_RNDN);        /* exact */
    mpfr_init2(d, 53);
    mpfr_set_d(d, delta, MPFR_RNDN);
    mpfr_set_prec(out, p);
    unsigned long al;
    ck_assert_int_eq(fr_fedpdm_rdp_rounds_improved(out, &al, sg, sv, 4, 0, 1, 1, d, 16), FR_OK);
    for (int t = 0; t < 4; t++) mpfr_clears(sg[t], sv[t], (mpfr_ptr)0);
    mpfr_clear(d);
}

/* Where eps is about to reach 0 (sigma bracketed to 2^-200 relative, eps
 * below 2^-170 at 512 bits; 24 cases of sigma_0/sigma and delta): the
 * terms of the conversion cancel, so that a rounding toward a smaller eps
 * at the working precision p + 64 can make the result 0, below the 512-bit
 * value.  Flipping the direction of ln delta, 1/alpha, ln(1 - 1/alpha) or
 * ln alpha fails this test (at 9, 7, 82 and 4 bits); the sums, the
 * quotient and the products of rho are exact or masked by the others'
 * one-ulp slack here (docs/DP.md section 2). */
START_TEST(directions_at_zero)
{
    static const double ratio[] = {1.5, 1.25, 3}, delta[] = {0.1, 0.05, 0.2, 0.03, 0.15, 0.07, 0.25, 0.04};
    mpfr_t lo, hi, mid, e, f;
    mpfr_inits2(600, lo, hi, mid, (mpfr_ptr)0);
    mpfr_inits2(512, e, f, (mpfr_ptr)0);
    for (int i = 0; i < 24; i++) {
        const double r = ratio[i % 3], d = delta[i / 3];
        mpfr_set_d(lo, 0.5, MPFR_RNDN);                 /* eps > 0 */
        mpfr_set_ui(hi, 4096, MPFR_RNDN);               /* eps = 0 */
        zero_at(e, lo, 512, r, d);
        ck_assert(mpfr_sgn(e) > 0);
        zero_at(e, hi, 512, r, d);
        ck_assert(mpfr_zero_p(e));
        for (int k = 0; k < 212; k++) {
            mpfr_add(mid, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
            zero_at(e, mid, 320, r, d);
            if (mpfr_sgn(e) > 0) mpfr_set(lo, mid, MPFR_RNDN);
            else mpfr_set(hi, mid, MPFR_RNDN);
        }
        zero_at(e, lo, 512, r, d);
        ck_assert(mpfr_sgn(e) > 0 && mpfr_cmp_ui_2exp(e, 1, -170) < 0);
        mpfr_mul_d(e, e, 1 - 0x1p-100, MPFR_RNDD);
        for (mpfr_prec_t p = 2; p <= 96; p++) {
            zero_at(f, lo, p, r, d);
            ck_assert_msg(mpfr_greaterequal_p(f, e), "case %d at %ld bits: %.17g below the 512-bit value %.17g", i,
                          (long)p, mpfr_get_d(f, MPFR_RNDD), mpfr_get_d(e, MPFR_RNDU));
        }
    }
    mpfr_clears(lo, hi, mid, e, f, (mpfr_ptr)0);
}
END_TEST

START_TEST(closed_form_k_eq_n)
{
    /* eps = min_alpha max(0, T alpha mu + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1)),
     * mu = s^2/(2 sigma^2), at 320 bits to nearest */
    const icase *c = &CASES[3];
    mpfr_t mu, e, best, t, got;
    mpfr_inits2(320, mu, e, best, t, got, (mpfr_ptr)0);
    mpfr_set_d(mu, c->s, MPFR_RNDN);
    mpfr_div_d(mu, mu, c->sigma, MPFR_RNDN);
    mpfr_sqr(mu, mu, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);
    mpfr_set_inf(best, 1);
    for (unsigned long al = 2; al <= c->amax; al++) {
        mpfr_mul_ui(e, mu, c->T * al, MPFR_RNDN);
        mpfr_set_ui(t, al - 1, MPFR_RNDN);
        mpfr_div_ui(t, t, al, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(e, e, t, MPFR_RNDN);
        mpfr_set_d(t, c->delta, MPFR_RNDN);
        mpfr_mul_ui(t, t, al, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_div_ui(t, t, al - 1, MPFR_RNDN);
        mpfr_sub(e, e, t, MPFR_RNDN);
        if (mpfr_less_p(e, best)) mpfr_set(best, e, MPFR_RNDN);
    }
    ck_assert_int_eq(ref_at(got, c, 256), FR_OK);
    ck_assert_msg(mpfr_greaterequal_p(got, best), "%.17g below the closed form %.17g", mpfr_get_d(got, MPFR_RNDN),
                  mpfr_get_d(best, MPFR_RNDN));
    mpfr_sub(t, got, best, MPFR_RNDN);
    mpfr_div(t, t, best, MPFR_RNDN);
    ck_assert_msg(mpfr_cmp_d(t, 0x1p-100) <= 0, "%.17g not within 2^-100 of %.17g", mpfr_get_d(got, MPFR_RNDN),
                  mpfr_get_d(best, MPFR_RNDN));
    /* independent of the conversion's formula: an upper bound of eps can
     * never be below the exact eps of the mechanism, T Gaussian releases
     * = one at sigma/sqrt(T) (fr_fedpdm_gauss_eps, the least eps, rounded
     * up at 256 bits: compared with a 2^-200 allowance) */
    mpfr_t sg, sv, d, ex;
    mpfr_inits2(256, sg, sv, d, ex, (mpfr_ptr)0);
    mpfr_set_d(sg, c->sigma, MPFR_RNDN);
    mpfr_sqrt_ui(t, c->T, MPFR_RNDN);
    mpfr_div(sg, sg, t, MPFR_RNDN);
    mpfr_set_d(sv, c->s, MPFR_RNDN);
    mpfr_set_d(d, c->delta, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(ex, sg, sv, d), FR_OK);
    mpfr_mul_d(ex, ex, 1 - 0x1p-200, MPFR_RNDD);
    ck_assert_msg(mpfr_greaterequal_p(got, ex), "%.17g below the exact eps %.17g of one Gaussian at sigma/sqrt(T)",
                  mpfr_get_d(got, MPFR_RNDN), mpfr_get_d(ex, MPFR_RNDN));
    mpfr_clears(sg, sv, d, ex, (mpfr_ptr)0);
    mpfr_clears(mu, e, best, t, got, (mpfr_ptr)0);
}
END_TEST

START_TEST(below_mironov_and_fast)
{
    mpfr_t a, b;
    mpfr_inits2(128, a, b, (mpfr_ptr)0);
    for (size_t i = 0; i < NC; i++) {
        const icase *c = &CASES[i];
        mpfr_t sg[300], sv[300], d;
        double fs[300], fv[300];
        for (unsigned long t = 0; t < c->T; t++) {
            mpfr_inits2(53, sg[t], sv[t], (mpfr_ptr)0);
            mpfr_set_d(sg[t], c->sigma, MPFR_RNDN);
            mpfr_set_d(sv[t], c->s, MPFR_RNDN);
            fs[t] = c->sigma;
            fv[t] = c->s;
        }
        mpfr_init2(d, 53);
        mpfr_set_d(d, c->delta, MPFR_RNDN);
        unsigned long al, fal;
        ck_assert_int_eq(fr_fedpdm_rdp_rounds_improved(a, &al, sg, sv, c->T, c->first, c->K, c->N, d, c->amax),
                         FR_OK);
        ck_assert_int_eq(fr_fedpdm_rdp_rounds(b, &al, sg, sv, c->T, c->first, c->K, c->N, d, c->amax), FR_OK);
        ck_assert_msg(mpfr_lessequal_p(a, b), "case %zu: improved %.17g above Mironov's %.17g", i,
                      mpfr_get_d(a, MPFR_RNDN), mpfr_get_d(b, MPFR_RNDN));
        if (i < 4) ck_assert_msg(mpfr_less_p(a, b), "case %zu: not below Mironov's", i);
        double f;
        ck_assert_int_eq(ff_fedpdm_rdp_rounds_improved(&f, &fal, fs, fv, c->T, c->first, c->K, c->N, c->delta,
                                                       c->amax), FR_OK);
        ck_assert_msg(mpfr_cmp_d(a, f) <= 0, "case %zu: fast %.17g below ref %.17g", i, f, mpfr_get_d(a, MPFR_RNDU));
        mpfr_mul_d(b, a, 1 + 0x1p-30, MPFR_RNDU);
        if (mpfr_sgn(a) > 0) ck_assert_msg(mpfr_cmp_d(b, f) >= 0, "case %zu: fast %.17g not within 2^-30", i, f);
        for (unsigned long t = 0; t < c->T; t++) mpfr_clears(sg[t], sv[t], (mpfr_ptr)0);
        mpfr_clear(d);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_acct_improved(void)
{
    Suite *s = suite_create("fedpdm_acct_improved");
    TCase *tc = tcase_create("acct_improved");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, directions);
    tcase_add_test(tc, directions_at_zero);
    tcase_add_test(tc, closed_form_k_eq_n);
    tcase_add_test(tc, below_mironov_and_fast);
    suite_add_tcase(s, tc);
    return s;
}
