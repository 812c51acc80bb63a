/* SPDX-License-Identifier: Apache-2.0 */
/* test_acct.c -- the privacy accountant of FedPDM-DP (fedref/fedpdm.h,
 * privacy accounting), both wings, against oracles that do not share the
 * library's method:
 *   - gauss_eps: the analytic Gaussian condition delta(e) <= delta
 *     re-evaluated at 320 bits (Phi by 1 - erfc/2 or erfc/2 by the sign of
 *     the argument, to nearest) at the returned e (must hold) and at the
 *     p-bit number just below it (must fail: the result is the least e
 *     rounded up); fast: the condition holds at its e and e is within
 *     2^-30 of ref; the zeros (s = 0, delta >= delta(0) = erf(a/(2 sqrt2))),
 *     the sign of zero;
 *   - compose: basic and advanced recomputed at 300 bits from the
 *     definitions (per-round eps from the 256-bit ref, checked above):
 *     ref >= oracle, within 2^-45; fast >= oracle, within 2^-30;
 *   - rdp: the whole accountant recomputed by plain loops at 256 bits
 *     (mu exact, mpz binomials, no min shortcut order): ref >= oracle,
 *     within 2^-45, the same order alpha; fast within 2^-30;
 *   - rdp_order with K = N: alpha mu, exactly representable cases exact;
 *   - thm2: an exact case (p T/(1 - q) = 1) and 256-bit oracles;
 *   - rdp_rounds: the sum over rounds of plain-loop per-round RDPs (256
 *     bits) then the conversion: ref >= oracle within 2^-45, fast within
 *     2^-30; identities with fr_fedpdm_rdp (constant arrays), first = T vs K
 *     = N, Algorithm 1's first = 1 between first = 0 and first = T.
 * Replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT multiplies the cases. */
#include <check.h>
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"
#include "../test_util.h"

Suite *suite_fedpdm_acct(void);

static frng_t rng;
static unsigned long long seed;

#define SUITE_SEED 20261123u    /* the seed without FEDREF_SEED */

static double U01(void)
{
    return (double)frng_u53(&rng) * 0x1p-53;
}

static double unif(double a, double b)
{
    return a + (b - a) * U01();
}

/* Phi(x) to nearest at the precision of r, by the sign of x. */
static void phi_o(mpfr_t r, const mpfr_t x)
{
    mpfr_t y;
    mpfr_init2(y, mpfr_get_prec(r));
    mpfr_sqrt_ui(y, 2, MPFR_RNDN);
    mpfr_div(y, x, y, MPFR_RNDN);
    if (mpfr_sgn(x) >= 0) {
        mpfr_erfc(r, y, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
        mpfr_ui_sub(r, 1, r, MPFR_RNDN);
    } else {
        mpfr_neg(y, y, MPFR_RNDN);
        mpfr_erfc(r, y, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    }
    mpfr_clear(y);
}

/* delta(e) - delta at 320 bits (sign is what matters) */
static int cond_sign(const mpfr_t e, double sigma, double s, double delta)
{
    mpfr_t a, x, p1, p2, t;
    mpfr_inits2(320, a, x, p1, p2, t, (mpfr_ptr)0);
    mpfr_set_d(a, s, MPFR_RNDN);
    mpfr_div_d(a, a, sigma, MPFR_RNDN);
    mpfr_div(t, e, a, MPFR_RNDN);
    mpfr_div_2ui(x, a, 1, MPFR_RNDN);
    mpfr_sub(x, x, t, MPFR_RNDN);
    phi_o(p1, x);
    mpfr_div_2ui(x, a, 1, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);
    mpfr_neg(x, x, MPFR_RNDN);
    phi_o(p2, x);
    mpfr_exp(t, e, MPFR_RNDN);
    mpfr_mul(p2, p2, t, MPFR_RNDN);
    mpfr_sub(p1, p1, p2, MPFR_RNDN);
    mpfr_sub_d(p1, p1, delta, MPFR_RNDN);
    int sg = mpfr_sgn(p1);
    mpfr_clears(a, x, p1, p2, t, (mpfr_ptr)0);
    return sg;
}

static void rand_case(double *sigma, double *s, double *delta)
{
    *sigma = exp(unif(log(0.3), log(60)));
    *s = unif(0.1, 3);
    *delta = pow(10, -unif(1, 12));
}

START_TEST(gauss_eps_least_rounded_up)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 1);
    const mpfr_prec_t precs[3] = {24, 53, 113};
    int n = tu_effort(12);
    for (int i = 0; i < n; i++) {
        double sigma, s, delta;
        rand_case(&sigma, &s, &delta);
        if (i == 0) {                                  /* the paper's eps = 1 */
            sigma = sqrt(2 * log(1.25 / 1e-5));
            s = 1;
            delta = 1e-5;
        }
        for (int k = 0; k < 3; k++) {
            mpfr_t e, S, sg, D;
            mpfr_init2(e, precs[k]);
            mpfr_inits2(53, S, sg, D, (mpfr_ptr)0);
            mpfr_set_d(sg, sigma, MPFR_RNDN);
            mpfr_set_d(S, s, MPFR_RNDN);
            mpfr_set_d(D, delta, MPFR_RNDN);
            ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
            ck_assert_msg(cond_sign(e, sigma, s, delta) <= 0, "seed %llu case %d: delta(e) > delta", seed, i);
            if (mpfr_sgn(e) > 0) {
                mpfr_nextbelow(e);
                ck_assert_msg(cond_sign(e, sigma, s, delta) > 0,
                              "seed %llu case %d prec %d: not the least (rounded up)", seed, i, (int)precs[k]);
                mpfr_nextabove(e);
            }
            if (precs[k] == 53) {
                double f;
                ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, sigma, s, delta), FR_OK);
                mpfr_t fe;
                mpfr_init2(fe, 53);
                mpfr_set_d(fe, f, MPFR_RNDN);
                ck_assert_msg(cond_sign(fe, sigma, s, delta) <= 0, "seed %llu: fast below", seed);
                ck_assert_msg(f <= mpfr_get_d(e, MPFR_RNDU) * (1 + 0x1p-26),   /* the vector's tol */
                              "seed %llu: fast %.17g ref %.17g (sigma %a s %a delta %a)", seed, f,
                              mpfr_get_d(e, MPFR_RNDU), sigma, s, delta);
                mpfr_clear(fe);
            }
            mpfr_clears(e, S, sg, D, (mpfr_ptr)0);
        }
    }
}
END_TEST

START_TEST(gauss_eps_zeros)
{
    mpfr_t e, S, sg, D;
    mpfr_inits2(53, e, S, sg, D, (mpfr_ptr)0);
    mpfr_set_d(sg, 2, MPFR_RNDN);
    mpfr_set_d(S, -0.0, MPFR_RNDN);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    mpfr_set_d(e, -7, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
    ck_assert(mpfr_zero_p(e) && !mpfr_signbit(e));
    double f = -7;
    ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, 2, -0.0, 1e-5), FR_OK);
    ck_assert(f == 0 && !signbit(f));
    /* a = 1/100: delta(0) = erf(a/(2 sqrt2)) = 0.0028209...; above: 0 */
    const double d0 = erf(0.01 / (2 * sqrt(2.0)));
    mpfr_set_d(sg, 100, MPFR_RNDN);
    mpfr_set_d(S, 1, MPFR_RNDN);
    mpfr_set_d(D, d0 * (1 + 1e-9), MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
    ck_assert(mpfr_zero_p(e) && !mpfr_signbit(e));
    ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, 100, 1, d0 * (1 + 1e-9)), FR_OK);
    ck_assert(f == 0 && !signbit(f));
    mpfr_set_d(D, d0 * (1 - 1e-6), MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
    ck_assert(mpfr_sgn(e) > 0);
    ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, 100, 1, d0 * (1 - 1e-6)), FR_OK);
    ck_assert(f > 0);
    /* delta of 400 bits just above delta(0) (a = 1/8): 0 when the gap
     * passes the enclosure's width at p + 32 = 85 bits (2^-60 relative),
     * a positive bound below 2^-4000 when it does not (2^-120) */
    mpfr_t d0x, Dx;
    mpfr_inits2(400, d0x, Dx, (mpfr_ptr)0);
    mpfr_set_ui(sg, 8, MPFR_RNDN);
    mpfr_set_ui(d0x, 2, MPFR_RNDN);
    mpfr_sqrt(d0x, d0x, MPFR_RNDN);
    mpfr_mul_ui(d0x, d0x, 16, MPFR_RNDN);
    mpfr_ui_div(d0x, 1, d0x, MPFR_RNDN);
    mpfr_erf(d0x, d0x, MPFR_RNDU);                 /* >= delta(0), within 2^-399 */
    mpfr_mul_2si(Dx, d0x, -60, MPFR_RNDN);
    mpfr_add(Dx, Dx, d0x, MPFR_RNDU);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, Dx), FR_OK);
    ck_assert(mpfr_zero_p(e) && !mpfr_signbit(e));
    mpfr_mul_2si(Dx, d0x, -120, MPFR_RNDN);
    mpfr_add(Dx, Dx, d0x, MPFR_RNDU);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, Dx), FR_OK);
    ck_assert(mpfr_sgn(e) > 0 && mpfr_cmp_ui_2exp(e, 1, -4000) < 0);
    mpfr_clears(d0x, Dx, (mpfr_ptr)0);
    mpfr_clears(e, S, sg, D, (mpfr_ptr)0);
}
END_TEST

/* The sign of delta(e) - delta at a = s/sigma of any size, by t = e/a - a/2:
 * delta(e) = Phi(-t) - phi(t) R(a + t), R the Mills ratio Phi(-z)/phi(z),
 * enclosed by Gordon's inequality z/(z^2 + 1) < R(z) < 1/z (z > 0; an
 * oracle independent of the library's continued fraction).  t and z at
 * 4400 bits (e/a exact for a power of 2), Phi(-t) - delta then T = phi(t)
 * R at 320 (T may be far below 2^-320 delta: Phi(-t) - delta is formed
 * first); +1 / -1 certified, 0 undecided. */
static int cond_sign_large(const mpfr_t e, double sigma, double s, double delta)
{
    mpfr_t a, t, z, p, f, lo, hi, w;
    mpfr_inits2(4400, a, t, z, (mpfr_ptr)0);
    mpfr_inits2(320, p, f, lo, hi, w, (mpfr_ptr)0);
    mpfr_set_d(a, s, MPFR_RNDN);
    mpfr_div_d(a, a, sigma, MPFR_RNDN);
    mpfr_div(t, e, a, MPFR_RNDN);
    mpfr_div_2ui(z, a, 1, MPFR_RNDN);
    mpfr_sub(t, t, z, MPFR_RNDN);                 /* t */
    mpfr_add(z, a, t, MPFR_RNDN);                 /* z = a + t */
    mpfr_neg(w, t, MPFR_RNDN);
    phi_o(p, w);                                  /* Phi(-t) */
    mpfr_sub_d(p, p, delta, MPFR_RNDN);           /* Phi(-t) - delta */
    mpfr_sqr(f, t, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);
    mpfr_neg(f, f, MPFR_RNDN);
    mpfr_exp(f, f, MPFR_RNDN);
    mpfr_const_pi(w, MPFR_RNDN);
    mpfr_mul_2ui(w, w, 1, MPFR_RNDN);
    mpfr_sqrt(w, w, MPFR_RNDN);
    mpfr_div(f, f, w, MPFR_RNDN);                 /* phi(t) */
    mpfr_ui_div(w, 1, z, MPFR_RNDN);              /* R < 1/z */
    mpfr_mul(lo, f, w, MPFR_RNDN);
    mpfr_sub(lo, p, lo, MPFR_RNDN);               /* delta(e) - delta > lo */
    mpfr_sqr(w, z, MPFR_RNDN);
    mpfr_add_ui(w, w, 1, MPFR_RNDN);
    mpfr_div(w, z, w, MPFR_RNDN);                 /* R > z/(z^2 + 1) */
    mpfr_mul(hi, f, w, MPFR_RNDN);
    mpfr_sub(hi, p, hi, MPFR_RNDN);               /* delta(e) - delta < hi */
    int sg = mpfr_sgn(lo) > 0 ? 1 : mpfr_sgn(hi) < 0 ? -1 : 0;
    mpfr_clears(a, t, z, p, f, lo, hi, w, (mpfr_ptr)0);
    return sg;
}

/* Extreme valid inputs: s/sigma from 2^30 (ref's bracket gave 2^60, twice
 * the least eps) to 2^2098 (e^eps and Phi beyond MPFR's exponent range:
 * FR_EINTERNAL before): ref is the least eps rounded up at 24 and 53 bits,
 * fast (FR_OK too) never below it (+Inf beyond DBL_MAX). */
START_TEST(gauss_eps_extreme)
{
    static const double C[][3] = {{0x1p-30, 1, 1e-5}, {0x1p-30, 1, 0.5}, {0x1p-24, 3, 1e-12},
                                  {0x1p-1074, 1, 0.5}, {1, DBL_MAX, 0.5},
                                  {0x1p-1074, DBL_MAX, 1e-5}};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (mpfr_prec_t p = 24; p <= 53; p += 29) {
            mpfr_t e, S, sg, D;
            mpfr_init2(e, p);
            mpfr_inits2(53, S, sg, D, (mpfr_ptr)0);
            mpfr_set_d(sg, C[i][0], MPFR_RNDN);
            mpfr_set_d(S, C[i][1], MPFR_RNDN);
            mpfr_set_d(D, C[i][2], MPFR_RNDN);
            ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
            ck_assert_msg(mpfr_number_p(e), "case %zu: eps not finite", i);
            ck_assert_msg(cond_sign_large(e, C[i][0], C[i][1], C[i][2]) < 0,
                          "case %zu prec %d: delta(eps) > delta", i, (int)p);
            mpfr_nextbelow(e);
            ck_assert_msg(cond_sign_large(e, C[i][0], C[i][1], C[i][2]) > 0,
                          "case %zu prec %d: not the least eps rounded up", i, (int)p);
            mpfr_nextabove(e);
            double f;
            ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, C[i][0], C[i][1], C[i][2]), FR_OK);
            double r = mpfr_get_d(e, MPFR_RNDU);
            ck_assert_msg(p < 53 || f >= r, "case %zu: fast %.17g below ref %.17g", i, f, r);
            if (p == 53 && isfinite(r))
                ck_assert_msg(f <= r * (1 + 0x1p-26), "case %zu: fast %.17g far from ref %.17g", i, f, r);
            double b, a;
            mpfr_t ad;
            mpfr_init2(ad, p);
            ck_assert_int_eq(fr_fedpdm_compose(e, ad, sg, S, 3, D), FR_OK);    /* status only */
            ck_assert_int_eq(ff_fedpdm_compose(&b, &a, C[i][0], C[i][1], 3, C[i][2]), FR_OK);
            ck_assert(mpfr_number_p(e) && !mpfr_nan_p(ad));        /* adv: +Inf once e^eps_1 is */
            ck_assert(p < 53 || (b >= mpfr_get_d(e, MPFR_RNDD) && a >= mpfr_get_d(ad, MPFR_RNDD)));
            mpfr_clears(e, ad, S, sg, D, (mpfr_ptr)0);
        }
}
END_TEST

/* fast's accuracy where it broke (all upper bounds): near eps = 0 (an
 * absolute error: 2^-36), at eps = 818 (Phi(-z) underflowed: 1.2e-3
 * high), at delta = 1 - 2^-53 (Phi near 1: 67 % high); within 2^-26 of
 * ref plus 2^-36, never below it. */
START_TEST(gauss_eps_fast_accuracy)
{
    const double d0 = erf(1.0 / 8 / (2 * sqrt(2.0)));     /* delta(0) at a = 1/8 */
    static double C[][3] = {{8, 1, 0}, {8, 1, 0}, {1, 37.5, 1e-3}, {1, 20, 0x1.fffffffffffffp-1},
                            {2, 45, 1e-300}, {0.5, 1, 0x1.fffffffffffffp-1}};
    C[0][2] = nextafter(d0, 1);
    C[1][2] = d0 * (1 - 0x1p-30);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        mpfr_t e, S, sg, D;
        mpfr_inits2(53, e, S, sg, D, (mpfr_ptr)0);
        mpfr_set_d(sg, C[i][0], MPFR_RNDN);
        mpfr_set_d(S, C[i][1], MPFR_RNDN);
        mpfr_set_d(D, C[i][2], MPFR_RNDN);
        ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, S, D), FR_OK);
        double f, r = mpfr_get_d(e, MPFR_RNDU);
        ck_assert_int_eq(ff_fedpdm_gauss_eps(&f, C[i][0], C[i][1], C[i][2]), FR_OK);
        ck_assert_msg(f >= r && f <= r * (1 + 0x1p-26) + 0x1p-36,
                      "case %zu: fast %.17g ref %.17g", i, f, r);
        mpfr_clears(e, S, sg, D, (mpfr_ptr)0);
    }
}
END_TEST

/* the per-round eps at 256 bits (the ref, checked by the test above) */
static void eps256(mpfr_t r, double sigma, double s, const mpfr_t d)
{
    mpfr_t S, sg;
    mpfr_inits2(53, S, sg, (mpfr_ptr)0);
    mpfr_set_d(sg, sigma, MPFR_RNDN);
    mpfr_set_d(S, s, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(r, sg, S, d), FR_OK);
    mpfr_clears(S, sg, (mpfr_ptr)0);
}

static void rel_ok(double got, const mpfr_t want, double tol, const char *what)
{
    mpfr_t g, hi;
    mpfr_inits2(mpfr_get_prec(want), g, hi, (mpfr_ptr)0);
    mpfr_set_d(g, got, MPFR_RNDN);
    ck_assert_msg(mpfr_cmp(g, want) >= 0, "seed %llu: %s %.17g below the oracle %.17g", seed, what,
                  got, mpfr_get_d(want, MPFR_RNDN));
    mpfr_mul_d(hi, want, 1 + tol, MPFR_RNDU);
    ck_assert_msg(mpfr_cmp(g, hi) <= 0, "seed %llu: %s %.17g too far above %.17g", seed, what, got,
                  mpfr_get_d(want, MPFR_RNDN));
    mpfr_clears(g, hi, (mpfr_ptr)0);
}

START_TEST(compose_against_definitions)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 2);
    int n = tu_effort(4);
    for (int i = 0; i < n; i++) {
        double sigma, s, delta;
        rand_case(&sigma, &s, &delta);
        unsigned long T = 1 + (unsigned long)(U01() * 400);
        mpfr_t d, e, b, a, t, u, rb, ra, S, sg, D;
        mpfr_inits2(300, d, b, a, t, u, (mpfr_ptr)0);
        mpfr_init2(e, 256);
        mpfr_inits2(53, rb, ra, S, sg, D, (mpfr_ptr)0);
        mpfr_set_d(D, delta, MPFR_RNDN);
        mpfr_div_ui(d, D, T, MPFR_RNDN);
        eps256(e, sigma, s, d);
        mpfr_mul_ui(b, e, T, MPFR_RNDN);
        mpfr_div_ui(d, D, 2 * T, MPFR_RNDN);
        eps256(e, sigma, s, d);
        mpfr_ui_div(t, 2, D, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_mul_ui(t, t, 2 * T, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_mul(t, t, e, MPFR_RNDN);
        mpfr_exp(u, e, MPFR_RNDN);
        mpfr_sub_ui(u, u, 1, MPFR_RNDN);
        mpfr_mul(u, u, e, MPFR_RNDN);
        mpfr_mul_ui(u, u, T, MPFR_RNDN);
        mpfr_add(a, t, u, MPFR_RNDN);
        mpfr_set_d(sg, sigma, MPFR_RNDN);
        mpfr_set_d(S, s, MPFR_RNDN);
        ck_assert_int_eq(fr_fedpdm_compose(rb, ra, sg, S, T, D), FR_OK);
        /* the oracle's e is RNDU at 256 bits: 2^-250 below counts as equal */
        mpfr_mul_d(b, b, 1 - 0x1p-240, MPFR_RNDN);
        mpfr_mul_d(a, a, 1 - 0x1p-240, MPFR_RNDN);
        rel_ok(mpfr_get_d(rb, MPFR_RNDN), b, 0x1p-45, "ref basic");
        rel_ok(mpfr_get_d(ra, MPFR_RNDN), a, 0x1p-45, "ref adv");
        double fb, fa;
        ck_assert_int_eq(ff_fedpdm_compose(&fb, &fa, sigma, s, T, delta), FR_OK);
        rel_ok(fb, b, 0x1p-30, "fast basic");
        rel_ok(fa, a, 0x1p-30, "fast adv");
        mpfr_clears(d, e, b, a, t, u, rb, ra, S, sg, D, (mpfr_ptr)0);
    }
}
END_TEST

/* the RDP accountant by plain loops at 256 bits; returns alpha */
static unsigned long rdp_oracle(mpfr_t best, double sigma, double s, unsigned long K, unsigned long N,
                                unsigned long T, double delta, unsigned long amax, mpfr_t second)
{
    mpfr_t mu, g, L, r, acc, t, m1, m2;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(256, mu, g, L, r, acc, t, m1, m2, (mpfr_ptr)0);
    mpfr_set_d(mu, s, MPFR_RNDN);
    mpfr_sqr(mu, mu, MPFR_RNDN);
    mpfr_div_d(mu, mu, sigma, MPFR_RNDN);
    mpfr_div_d(mu, mu, sigma, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);
    mpfr_set_ui(g, K, MPFR_RNDN);
    mpfr_div_ui(g, g, N, MPFR_RNDN);
    mpfr_set_d(L, delta, MPFR_RNDN);
    mpfr_ui_div(L, 1, L, MPFR_RNDN);
    mpfr_log(L, L, MPFR_RNDN);
    mpfr_set_inf(best, 1);
    mpfr_set_inf(second, 1);
    unsigned long ab = 0;
    for (unsigned long al = 2; al <= amax; al++) {
        mpfr_mul_ui(r, mu, al, MPFR_RNDN);
        if (K < N) {
            mpfr_mul_ui(t, mu, 2, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_sub_ui(m1, t, 1, MPFR_RNDN);
            mpfr_mul_ui(m1, m1, 4, MPFR_RNDN);
            mpfr_mul_ui(m2, t, 2, MPFR_RNDN);
            mpfr_min(m1, m1, m2, MPFR_RNDN);
            mpz_bin_uiui(bin, al, 2);
            mpfr_mul_z(m1, m1, bin, MPFR_RNDN);
            mpfr_pow_ui(t, g, 2, MPFR_RNDN);
            mpfr_mul(acc, m1, t, MPFR_RNDN);
            mpfr_add_ui(acc, acc, 1, MPFR_RNDN);
            for (unsigned long j = 3; j <= al; j++) {
                mpfr_mul_ui(t, mu, j * (j - 1), MPFR_RNDN);
                mpfr_exp(t, t, MPFR_RNDN);
                mpz_bin_uiui(bin, al, j);
                mpfr_mul_z(t, t, bin, MPFR_RNDN);
                mpfr_pow_ui(m1, g, j, MPFR_RNDN);
                mpfr_mul(t, t, m1, MPFR_RNDN);
                mpfr_mul_ui(t, t, 2, MPFR_RNDN);
                mpfr_add(acc, acc, t, MPFR_RNDN);
            }
            mpfr_log(acc, acc, MPFR_RNDN);
            mpfr_div_ui(acc, acc, al - 1, MPFR_RNDN);
            mpfr_min(r, r, acc, MPFR_RNDN);
        }
        mpfr_mul_ui(r, r, T, MPFR_RNDN);
        mpfr_div_ui(t, L, al - 1, MPFR_RNDN);
        mpfr_add(r, r, t, MPFR_RNDN);
        if (mpfr_less_p(r, best)) {
            mpfr_set(second, best, MPFR_RNDN);
            mpfr_set(best, r, MPFR_RNDN);
            ab = al;
        } else if (mpfr_less_p(r, second)) {
            mpfr_set(second, r, MPFR_RNDN);
        }
    }
    mpfr_clears(mu, g, L, r, acc, t, m1, m2, (mpfr_ptr)0);
    mpz_clear(bin);
    return ab;
}

/* fast's composition where delta/T or delta/(2T) is below binary64's
 * normal range: no binary64 delta_0 is a lower bound there, so fast must
 * not return less than ref (an upper bound at 160 bits, delta/T and
 * delta/(2T) formed in MPFR's range).  Before the fix fast took
 * DBL_TRUE_MIN, above the true delta_0, and returned an eps below ref's. */
START_TEST(compose_fast_tiny_delta)
{
    static const double D[] = {0x1p-1074, 0x3p-1074, 0x1p-1060, 0x1p-1023, 0x1.8p-1022, 0x1p-1000};
    static const unsigned long T[] = {1, 2, 3, 300, 1ul << 20};
    mpfr_t sg, sv, dl, rb, ra;
    mpfr_inits2(160, sg, sv, dl, rb, ra, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof D / sizeof D[0]; i++)
        for (size_t j = 0; j < sizeof T / sizeof T[0]; j++) {
            double fb, fa;
            mpfr_set_d(sg, 1.5, MPFR_RNDN);
            mpfr_set_d(sv, 1.0, MPFR_RNDN);
            mpfr_set_d(dl, D[i], MPFR_RNDN);
            ck_assert_int_eq(fr_fedpdm_compose(rb, ra, sg, sv, T[j], dl), FR_OK);
            ck_assert_int_eq(ff_fedpdm_compose(&fb, &fa, 1.5, 1.0, T[j], D[i]), FR_OK);
            ck_assert_msg(!isnan(fb) && mpfr_cmp_d(rb, fb) <= 0,
                          "basic below ref at delta %a, T %lu: %a < %.17g", D[i], T[j], fb, mpfr_get_d(rb, MPFR_RNDU));
            ck_assert_msg(!isnan(fa) && mpfr_cmp_d(ra, fa) <= 0,
                          "adv below ref at delta %a, T %lu: %a < %.17g", D[i], T[j], fa, mpfr_get_d(ra, MPFR_RNDU));
            if (D[i] < 0.5 * DBL_MIN * (double)T[j])          /* delta/T well below DBL_MIN: documented +Inf */
                ck_assert_msg(isinf(fb) && isinf(fa), "delta %a, T %lu: %a %a", D[i], T[j], fb, fa);
            if (D[i] >= 4 * DBL_MIN * (double)T[j])           /* delta/(2T) normal: finite */
                ck_assert_msg(isfinite(fb) && isfinite(fa), "delta %a, T %lu: %a %a", D[i], T[j], fb, fa);
        }
    mpfr_clears(sg, sv, dl, rb, ra, (mpfr_ptr)0);
}
END_TEST

START_TEST(rdp_against_loops)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 3);
    int n = tu_effort(6);
    const double paper_eps[4] = {0.1, 1, 7, 10};
    for (int i = 0; i < n + 8; i++) {
        double sigma, s, delta;
        unsigned long K, N, T, amax;
        rand_case(&sigma, &s, &delta);
        N = 1 + (unsigned long)(U01() * 200);
        K = 1 + (unsigned long)(U01() * (double)N);
        T = 1 + (unsigned long)(U01() * 500);
        amax = 2 + (unsigned long)(U01() * 62);
        if (i < 8) {                                   /* the paper's settings */
            sigma = sqrt(2 * log(1.25 / 1e-5)) / paper_eps[i % 4];
            s = 1;
            delta = 1e-5;
            N = 100;
            K = i < 4 ? 5 : 100;
            T = 300;
            amax = 64;
        }
        mpfr_t o, o2, r, S, sg, D;
        mpfr_inits2(256, o, o2, (mpfr_ptr)0);
        mpfr_inits2(53, r, S, sg, D, (mpfr_ptr)0);
        unsigned long ao = rdp_oracle(o, sigma, s, K, N, T, delta, amax, o2), ar, af;
        mpfr_set_d(sg, sigma, MPFR_RNDN);
        mpfr_set_d(S, s, MPFR_RNDN);
        mpfr_set_d(D, delta, MPFR_RNDN);
        ck_assert_int_eq(fr_fedpdm_rdp(r, &ar, sg, S, K, N, T, D, amax), FR_OK);
        mpfr_mul_d(o, o, 1 - 0x1p-200, MPFR_RNDN);   /* the oracle's own rounding */
        rel_ok(mpfr_get_d(r, MPFR_RNDN), o, 0x1p-45, "ref rdp");
        mpfr_div(o2, o2, o, MPFR_RNDN);
        if (mpfr_cmp_d(o2, 1 + 0x1p-40) > 0)
            ck_assert_msg(ar == ao, "seed %llu case %d: alpha %lu, oracle %lu", seed, i, ar, ao);
        double f;
        ck_assert_int_eq(ff_fedpdm_rdp(&f, &af, sigma, s, K, N, T, delta, amax), FR_OK);
        rel_ok(f, o, 0x1p-30, "fast rdp");
        mpfr_clears(o, o2, r, S, sg, D, (mpfr_ptr)0);
    }
}
END_TEST

START_TEST(rdp_order_no_subsampling)
{
    mpfr_t e, S, sg, x;
    mpfr_inits2(53, e, S, sg, x, (mpfr_ptr)0);
    mpfr_set_ui(sg, 1, MPFR_RNDN);
    mpfr_set_ui(S, 1, MPFR_RNDN);
    for (unsigned long al = 2; al <= 40; al++) {
        ck_assert_int_eq(fr_fedpdm_rdp_order(e, sg, S, 7, 7, al), FR_OK);
        ck_assert(mpfr_cmp_d(e, (double)al / 2.0) == 0);       /* alpha / 2 exact */
        double f;
        ck_assert_int_eq(ff_fedpdm_rdp_order(&f, 1, 1, 7, 7, al), FR_OK);
        ck_assert(f >= (double)al / 2.0 && f <= (double)al / 2.0 * (1 + 0x1p-45));
    }
    /* sigma = 3, s = 1: alpha / 18, inexact: RNDU of it or one ulp more */
    mpfr_set_ui(sg, 3, MPFR_RNDN);
    mpq_t q;
    mpq_init(q);
    for (unsigned long al = 2; al <= 40; al++) {
        ck_assert_int_eq(fr_fedpdm_rdp_order(e, sg, S, 1, 1, al), FR_OK);
        mpq_set_ui(q, al, 18);
        mpq_canonicalize(q);
        mpfr_set_q(x, q, MPFR_RNDU);
        ck_assert(mpfr_cmp(e, x) >= 0);
        mpfr_nextabove(x);
        ck_assert(mpfr_cmp(e, x) <= 0);
    }
    mpq_clear(q);
    mpfr_clears(e, S, sg, x, (mpfr_ptr)0);
}
END_TEST

START_TEST(thm2_values)
{
    mpfr_t r, c0, e, q, o;
    mpfr_inits2(53, r, c0, e, q, (mpfr_ptr)0);
    mpfr_init2(o, 256);
    /* p = 1/4, T = 2, q = 1/2: p T/(1 - q) = 1, eps_bar = c0 eps / 4 */
    mpfr_set_ui(c0, 3, MPFR_RNDN);
    mpfr_set_ui(e, 5, MPFR_RNDN);
    mpfr_set_d(q, 0.5, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm2(r, c0, e, 1, 4, 2, q), FR_OK);
    ck_assert(mpfr_cmp_d(r, 3.75) == 0);
    double f;
    ck_assert_int_eq(ff_fedpdm_thm2(&f, 3, 5, 1, 4, 2, 0.5), FR_OK);
    ck_assert(f >= 3.75 && f <= 3.75 * (1 + 0x1p-45));
    /* the paper's settings, Q = 1 and 5 (q = 0.05, 0.25); Q = 20: q = 1 */
    const double qs[2] = {0.05, 0.25};
    for (int k = 0; k < 2; k++) {
        mpfr_set_d(q, qs[k], MPFR_RNDN);
        mpfr_set_ui(c0, 1, MPFR_RNDN);
        mpfr_set_ui(e, 1, MPFR_RNDN);
        ck_assert_int_eq(fr_fedpdm_thm2(r, c0, e, 5, 100, 300, q), FR_OK);
        mpfr_ui_sub(o, 1, q, MPFR_RNDN);
        mpfr_ui_div(o, 15, o, MPFR_RNDN);              /* p T = 15 */
        mpfr_sqrt(o, o, MPFR_RNDN);
        mpfr_mul(o, o, q, MPFR_RNDN);
        mpfr_mul(o, o, q, MPFR_RNDN);
        mpfr_mul_d(o, o, 1 - 0x1p-200, MPFR_RNDN);
        rel_ok(mpfr_get_d(r, MPFR_RNDN), o, 0x1p-50, "ref thm2");
        ck_assert_int_eq(ff_fedpdm_thm2(&f, 1, 1, 5, 100, 300, qs[k]), FR_OK);
        rel_ok(f, o, 0x1p-45, "fast thm2");
    }
    mpfr_set_ui(q, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm2(r, c0, e, 5, 100, 300, q), FR_EDOM);
    mpfr_clears(r, c0, e, q, o, (mpfr_ptr)0);
}
END_TEST

/* e_t(alpha) by plain loops at 256 bits (mu exact from the binary64 inputs,
 * mpz binomials, exp per term), added to acc */
static void round_oracle_add(mpfr_t acc, unsigned long al, double sigma, double s, unsigned long K,
                             unsigned long N, int sub)
{
    mpfr_t mu, g, r, a, t, m1, m2;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(256, mu, g, r, a, t, m1, m2, (mpfr_ptr)0);
    mpfr_set_d(mu, s, MPFR_RNDN);
    mpfr_sqr(mu, mu, MPFR_RNDN);
    mpfr_div_d(mu, mu, sigma, MPFR_RNDN);
    mpfr_div_d(mu, mu, sigma, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);
    mpfr_mul_ui(r, mu, al, MPFR_RNDN);
    if (sub) {
        mpfr_set_ui(g, K, MPFR_RNDN);
        mpfr_div_ui(g, g, N, MPFR_RNDN);
        mpfr_mul_ui(t, mu, 2, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_sub_ui(m1, t, 1, MPFR_RNDN);
        mpfr_mul_ui(m1, m1, 4, MPFR_RNDN);
        mpfr_mul_ui(m2, t, 2, MPFR_RNDN);
        mpfr_min(m1, m1, m2, MPFR_RNDN);
        mpz_bin_uiui(bin, al, 2);
        mpfr_mul_z(m1, m1, bin, MPFR_RNDN);
        mpfr_pow_ui(t, g, 2, MPFR_RNDN);
        mpfr_mul(a, m1, t, MPFR_RNDN);
        mpfr_add_ui(a, a, 1, MPFR_RNDN);
        for (unsigned long j = 3; j <= al; j++) {
            mpfr_mul_ui(t, mu, j * (j - 1), MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpz_bin_uiui(bin, al, j);
            mpfr_mul_z(t, t, bin, MPFR_RNDN);
            mpfr_pow_ui(m1, g, j, MPFR_RNDN);
            mpfr_mul(t, t, m1, MPFR_RNDN);
            mpfr_mul_ui(t, t, 2, MPFR_RNDN);
            mpfr_add(a, a, t, MPFR_RNDN);
        }
        mpfr_log(a, a, MPFR_RNDN);
        mpfr_div_ui(a, a, al - 1, MPFR_RNDN);
        mpfr_min(r, r, a, MPFR_RNDN);
    }
    mpfr_add(acc, acc, r, MPFR_RNDN);
    mpfr_clears(mu, g, r, a, t, m1, m2, (mpfr_ptr)0);
    mpz_clear(bin);
}

/* fr_fedpdm_rdp_rounds / ff_fedpdm_rdp_rounds against the sum over rounds
 * of the plain-loop per-round RDP (256 bits), then the conversion; random
 * per-round (sigma, s) with repeated runs (the grouping), every first in
 * 0..T, K < N and K = N. */
START_TEST(rdp_rounds_against_loops)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 7);
    int n = tu_effort(10);
    for (int i = 0; i < n; i++) {
        unsigned long T = 1 + (unsigned long)(U01() * 12), N = 1 + (unsigned long)(U01() * 100);
        unsigned long K = 1 + (unsigned long)(U01() * (double)N), first = (unsigned long)(U01() * (double)(T + 1));
        unsigned long amax = 2 + (unsigned long)(U01() * 30);
        if (first > T) first = T;
        double sg[12], sv[12], delta = pow(10, -unif(1, 10));
        for (unsigned long t = 0; t < T; t++) {
            if (t > 0 && U01() < 0.4) {               /* a run of equal rounds */
                sg[t] = sg[t - 1];
                sv[t] = sv[t - 1];
            } else {
                sg[t] = exp(unif(log(0.3), log(30)));
                sv[t] = t % 5 == 4 ? 0 : unif(0.1, 3);
            }
        }
        mpfr_t best, acc, L, x, r, D, rs[12], rsv[12];
        mpfr_inits2(256, best, acc, L, x, (mpfr_ptr)0);
        mpfr_inits2(53, r, D, (mpfr_ptr)0);
        mpfr_set_d(L, delta, MPFR_RNDN);
        mpfr_log(L, L, MPFR_RNDN);
        mpfr_neg(L, L, MPFR_RNDN);
        mpfr_set_inf(best, 1);
        for (unsigned long al = 2; al <= amax; al++) {
            mpfr_set_zero(acc, 1);
            for (unsigned long t = 0; t < T; t++)
                round_oracle_add(acc, al, sg[t], sv[t], K, N, t >= first && K < N);
            mpfr_div_ui(x, L, al - 1, MPFR_RNDN);
            mpfr_add(acc, acc, x, MPFR_RNDN);
            mpfr_min(best, best, acc, MPFR_RNDN);
        }
        for (unsigned long t = 0; t < T; t++) {
            mpfr_init2(rs[t], 53);
            mpfr_init2(rsv[t], 53);
            mpfr_set_d(rs[t], sg[t], MPFR_RNDN);
            mpfr_set_d(rsv[t], sv[t], MPFR_RNDN);
        }
        mpfr_set_d(D, delta, MPFR_RNDN);
        unsigned long ar, af;
        ck_assert_int_eq(fr_fedpdm_rdp_rounds(r, &ar, rs, rsv, T, first, K, N, D, amax), FR_OK);
        mpfr_mul_d(best, best, 1 - 0x1p-200, MPFR_RNDN);   /* the oracle's own rounding */
        rel_ok(mpfr_get_d(r, MPFR_RNDN), best, 0x1p-45, "ref rdp_rounds");
        ck_assert(ar >= 2 && ar <= amax);
        double f;
        ck_assert_int_eq(ff_fedpdm_rdp_rounds(&f, &af, sg, sv, T, first, K, N, delta, amax), FR_OK);
        rel_ok(f, best, 0x1p-30, "fast rdp_rounds");
        for (unsigned long t = 0; t < T; t++)
            mpfr_clears(rs[t], rsv[t], (mpfr_ptr)0);
        mpfr_clears(best, acc, L, x, r, D, (mpfr_ptr)0);
    }
}
END_TEST

/* Identities: constant arrays with first = 0 give fr_fedpdm_rdp exactly
 * (the same operations), the same alpha; first = T (no round subsampled)
 * gives the K = N value exactly in both wings; fast_rounds >= fast_rdp
 * within 2^-45; T = 1, first = 1 (round 0 = S_0 = [N]) is K-independent. */
START_TEST(rdp_rounds_identities)
{
    const double sigma = 4.845, s = 1, delta = 1e-5;
    const unsigned long T = 300, K = 5, N = 100;
    mpfr_t a, b, sg[300], sv[300], D, S1, S2;
    mpfr_inits2(53, a, b, D, S1, S2, (mpfr_ptr)0);
    double fs[300], fv[300];
    for (unsigned long t = 0; t < T; t++) {
        mpfr_init2(sg[t], 53);
        mpfr_init2(sv[t], 53);
        mpfr_set_d(sg[t], sigma, MPFR_RNDN);
        mpfr_set_d(sv[t], s, MPFR_RNDN);
        fs[t] = sigma;
        fv[t] = s;
    }
    mpfr_set_d(D, delta, MPFR_RNDN);
    mpfr_set_d(S1, sigma, MPFR_RNDN);
    mpfr_set_d(S2, s, MPFR_RNDN);
    unsigned long aa, ab;
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(a, &aa, sg, sv, T, 0, K, N, D, 64), FR_OK);
    ck_assert_int_eq(fr_fedpdm_rdp(b, &ab, S1, S2, K, N, T, D, 64), FR_OK);
    ck_assert(mpfr_equal_p(a, b) && aa == ab);
    double fa, fb;
    ck_assert_int_eq(ff_fedpdm_rdp_rounds(&fa, &aa, fs, fv, T, 0, K, N, delta, 64), FR_OK);
    ck_assert_int_eq(ff_fedpdm_rdp(&fb, &ab, sigma, s, K, N, T, delta, 64), FR_OK);
    ck_assert(fa >= fb && fa <= fb * (1 + 0x1p-45));
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(a, &aa, sg, sv, T, T, K, N, D, 64), FR_OK);
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(b, &ab, sg, sv, T, 0, N, N, D, 64), FR_OK);
    ck_assert(mpfr_equal_p(a, b) && aa == ab);
    ck_assert_int_eq(ff_fedpdm_rdp_rounds(&fa, &aa, fs, fv, T, T, K, N, delta, 64), FR_OK);
    ck_assert_int_eq(ff_fedpdm_rdp_rounds(&fb, &ab, fs, fv, T, 0, N, N, delta, 64), FR_OK);
    ck_assert(fa == fb && aa == ab);
    /* Algorithm 1 (first = 1) lies between every round subsampled and none */
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(b, &ab, sg, sv, T, 1, K, N, D, 64), FR_OK);
    ck_assert(mpfr_lessequal_p(b, a));
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(a, &aa, sg, sv, T, 0, K, N, D, 64), FR_OK);
    ck_assert(mpfr_lessequal_p(a, b));
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(a, &aa, sg, sv, 1, 1, K, N, D, 64), FR_OK);
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(b, &ab, sg, sv, 1, 1, N, N, D, 64), FR_OK);
    ck_assert(mpfr_equal_p(a, b) && aa == ab);
    /* s = 0 in every round: eps = min_alpha ln(1/delta)/(alpha - 1) at alpha_max */
    for (unsigned long t = 0; t < 4; t++)
        mpfr_set_zero(sv[t], 1);
    ck_assert_int_eq(fr_fedpdm_rdp_rounds(a, &aa, sg, sv, 4, 1, K, N, D, 64), FR_OK);
    ck_assert_uint_eq(aa, 64);
    for (unsigned long t = 0; t < T; t++)
        mpfr_clears(sg[t], sv[t], (mpfr_ptr)0);
    mpfr_clears(a, b, D, S1, S2, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_acct(void)
{
    Suite *s = suite_create("fedpdm_acct");
    TCase *tc = tcase_create("acct");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gauss_eps_least_rounded_up);
    tcase_add_test(tc, gauss_eps_zeros);
    tcase_add_test(tc, gauss_eps_extreme);
    tcase_add_test(tc, gauss_eps_fast_accuracy);
    tcase_add_test(tc, compose_against_definitions);
    tcase_add_test(tc, compose_fast_tiny_delta);
    tcase_add_test(tc, rdp_against_loops);
    tcase_add_test(tc, rdp_order_no_subsampling);
    tcase_add_test(tc, thm2_values);
    tcase_add_test(tc, rdp_rounds_against_loops);
    tcase_add_test(tc, rdp_rounds_identities);
    suite_add_tcase(s, tc);
    return s;
}
