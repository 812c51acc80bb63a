/* SPDX-License-Identifier: Apache-2.0 */
/* test_pld.c -- fr/ff_fedpdm_pld_rounds (the PLD accountant, docs/DP.md
 * section 3):
 *   - the two closed forms of one round's profile (d_AB, d_BA) against a
 *     direct numerical integration of sup_E P(E) - e^e Q(E) = integral of
 *     (p - e^e q)_+ (composite Simpson, long double);
 *   - T = 1: eps_lower <= the eps read off the profile H itself (bisection
 *     on the integral-checked closed forms) <= eps, and eps within 0.2 %
 *     of it: the discretised profile lies above H (connect-the-dots) and
 *     the achievable pair's below;
 *   - K = N: the rounds compose to one Gaussian at sigma/sqrt(T), whose
 *     exact eps fr_fedpdm_gauss_eps certifies: pld >= it, within 0.1 %;
 *   - lower <= upper, upper <= the RDP bound (fr/ff_fedpdm_rdp_rounds) at
 *     the four settings of docs/DP.md (T = 300, fast) and their reference
 *     interval; fast >= ref and within 3 % (T = 3, ref is slow at 300);
 *   - outputs of 5 bits: eps_lower rounded down;
 *   - more than 2^18 - 1 rounds: FR_ESIZE in both. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

Suite *suite_fedpdm_pld(void);

static long double Phi(long double x)
{
    return 0.5L * erfcl(-x / sqrtl(2.0L));
}
/* dG(x) = Phi(-x/mu + mu/2) - e^x Phi(-x/mu - mu/2) */
static long double dG(long double x, long double mu)
{
    return Phi(-x / mu + mu / 2) - expl(x) * Phi(-x / mu - mu / 2);
}
static long double dAB(long double e, long double mu, long double q)
{
    return q * dG(log1pl(expm1l(e) / q), mu);
}
static long double dBA(long double e, long double mu, long double q)
{
    long double c = 1 - (1 - q) * expl(e);
    return c > 0 ? c * dG(logl(q * expl(e) / c), mu) : 0;
}
static long double H(long double e, long double mu, long double q)
{
    long double a = dAB(e, mu, q), b = dBA(e, mu, q);
    return a > b ? a : b;
}
/* integral of (p - e^e r)_+, p the density of P, r of R; which = 0: P = A,
 * R = B; 1: P = B, R = A (A = (1-q) N(0,1) + q N(mu,1), B = N(0,1)) */
static long double hockey_f(long double x, long double ee, long double mu, long double q, int which)
{
    const long double c = 0.39894228040143267794L;
    long double pb = c * expl(-x * x / 2), pa = (1 - q) * pb + q * c * expl(-(x - mu) * (x - mu) / 2);
    return which == 0 ? pa - ee * pb : pb - ee * pa;
}
/* integral of (p - e^e r)_+, p the density of P, r of R; which = 0: P = A,
 * R = B; 1: P = B, R = A (A = (1-q) N(0,1) + q N(mu,1), B = N(0,1)).  The
 * likelihood ratio is monotone in x: the positive part is one half-line,
 * its end x* found by bisection, then composite Simpson on it (smooth) */
static long double hockey(long double e, long double mu, long double q, int which)
{
    long double ee = expl(e), lo = -40, hi = 40 + mu;
    const int inc = which == 0;                       /* the integrand's sign rises with x */
    if ((hockey_f(lo, ee, mu, q, which) > 0) == inc && (hockey_f(hi, ee, mu, q, which) > 0) == inc)
        return 0;
    long double a = lo, b = hi;
    if ((hockey_f(a, ee, mu, q, which) > 0) != (hockey_f(b, ee, mu, q, which) > 0))
        for (int k = 0; k < 200; k++) {
            long double m = (a + b) / 2;
            if ((hockey_f(m, ee, mu, q, which) > 0) == (hockey_f(a, ee, mu, q, which) > 0)) a = m; else b = m;
        }
    long double x0 = inc ? b : lo, x1 = inc ? hi : a;
    const long n = 200000;
    long double h = (x1 - x0) / n, sum = 0;
    for (long i = 0; i <= n; i++) {
        long double f = hockey_f(x0 + h * i, ee, mu, q, which);
        if (f < 0) f = 0;
        sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
    }
    return sum * h / 3;
}

START_TEST(closed_forms)
{
    static const double P[][3] = {{0.2064, 0.05, 0.01}, {0.2064, 0.05, 0.05}, {1.4448, 0.05, 0.3},
                                  {2.064, 0.05, 2.0}, {2.064, 0.3, 0.0}, {0.5, 0.5, 0.2}};
    for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
        long double mu = P[k][0], q = P[k][1], e = P[k][2];
        long double a = dAB(e, mu, q), ia = hockey(e, mu, q, 0);
        long double b = dBA(e, mu, q), ib = hockey(e, mu, q, 1);
        ck_assert_msg(fabsl(a - ia) <= 1e-12L + 1e-9L * ia, "d_AB mu %g q %g e %g: %.17Lg vs %.17Lg", P[k][0],
                      P[k][1], P[k][2], a, ia);
        ck_assert_msg(fabsl(b - ib) <= 1e-12L + 1e-9L * ib, "d_BA mu %g q %g e %g: %.17Lg vs %.17Lg", P[k][0],
                      P[k][1], P[k][2], b, ib);
    }
}
END_TEST

/* the least e with H(e) <= delta (H decreasing), bisection */
static double eps_of_H(double mu, double q, double delta)
{
    double lo = 0, hi = 1;
    while (H(hi, mu, q) > delta) hi *= 2;
    if (H(0, mu, q) <= delta) return 0;
    for (int k = 0; k < 200; k++) {
        double m = (lo + hi) / 2;
        if (H(m, mu, q) > delta) lo = m; else hi = m;
    }
    return hi;
}

static int pld_ref(double *e, double *l, const double *sig, const double *s, unsigned long T,
                   unsigned long first, unsigned long K, unsigned long N, double delta)
{
    mpfr_t *a = malloc(2 * T * sizeof *a), E, L, D;
    for (unsigned long t = 0; t < 2 * T; t++) {
        mpfr_init2(a[t], 53);
        mpfr_set_d(a[t], t < T ? sig[t] : s[t - T], MPFR_RNDN);
    }
    mpfr_inits2(53, E, L, D, (mpfr_ptr)0);
    mpfr_set_d(D, delta, MPFR_RNDN);
    int st = fr_fedpdm_pld_rounds(E, l ? L : NULL, a, a + T, T, first, K, N, D);
    *e = mpfr_get_d(E, MPFR_RNDU);                     /* exact: 53 bits */
    if (l) *l = mpfr_get_d(L, MPFR_RNDD);
    for (unsigned long t = 0; t < 2 * T; t++) mpfr_clear(a[t]);
    free(a);
    mpfr_clears(E, L, D, (mpfr_ptr)0);
    return st;
}

START_TEST(one_round)
{
    static const double C[][2] = {{4.8448052626, 1e-5}, {0.69211503752, 1e-5}, {0.69211503752, 1e-3}};
    for (size_t k = 0; k < sizeof C / sizeof C[0]; k++) {
        const double sig = C[k][0], one = 1, d = C[k][1];
        double e, l, ef, lf;
        ck_assert_int_eq(pld_ref(&e, &l, &sig, &one, 1, 0, 5, 100, d), FR_OK);
        ck_assert_int_eq(ff_fedpdm_pld_rounds(&ef, &lf, &sig, &one, 1, 0, 5, 100, d), FR_OK);
        const double eh = eps_of_H(1 / sig, 0.05, d);
        ck_assert_msg(l <= eh * (1 + 1e-12) && eh <= e * (1 + 1e-12) && e <= eh * 1.002,
                      "sigma %g delta %g: lower %.17g, H's %.17g, upper %.17g", sig, d, l, eh, e);
        ck_assert_msg(ef >= e && lf <= eh * (1 + 1e-12), "fast %.17g %.17g vs ref %.17g", ef, lf, e);
    }
}
END_TEST

START_TEST(no_subsampling)
{
    /* T = 4 rounds of sigma = 2: one Gaussian at sigma = 1 */
    const double sig[4] = {2, 2, 2, 2}, s[4] = {1, 1, 1, 1};
    double e, l, ef, lf;
    ck_assert_int_eq(pld_ref(&e, &l, sig, s, 4, 0, 100, 100, 1e-5), FR_OK);
    ck_assert_int_eq(ff_fedpdm_pld_rounds(&ef, &lf, sig, s, 4, 0, 100, 100, 1e-5), FR_OK);
    mpfr_t x, one, D;
    mpfr_inits2(128, x, one, D, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(x, one, one, D), FR_OK);
    const double ex = mpfr_get_d(x, MPFR_RNDU);
    mpfr_clears(x, one, D, (mpfr_ptr)0);
    ck_assert_msg(e >= ex && e <= ex * 1.001 && l <= ex && l >= ex * 0.9, "pld [%.17g, %.17g], exact %.17g", l, e,
                  ex);
    ck_assert_msg(ef >= e && ef <= ex * 1.003 && lf <= ex, "fast [%.17g, %.17g], exact %.17g", lf, ef, ex);
}
END_TEST

START_TEST(four_settings_fast)
{
    /* the settings of docs/DP.md: T = 300, K = 5 of N = 100, delta = 1e-5;
     * the reference interval [lo, hi] of the true eps (an achievable pair's
     * PLD and a certified bound computed independently of fedref) */
    static const double C[][3] = {{48.448052626, 0.0504, 0.0538}, {4.8448052626, 0.648, 0.724},
                                  {0.69211503752, 12.95, 15.62}, {0.48448052626, 32.7, 37.9}};
    enum { T = 300 };
    static double sig[T], s[T];
    for (size_t k = 0; k < 4; k++) {
        for (int t = 0; t < T; t++) sig[t] = C[k][0], s[t] = 1;
        double e, l, r;
        unsigned long al;
        ck_assert_int_eq(ff_fedpdm_pld_rounds(&e, &l, sig, s, T, 0, 5, 100, 1e-5), FR_OK);
        ck_assert_int_eq(ff_fedpdm_rdp_rounds(&r, &al, sig, s, T, 0, 5, 100, 1e-5, 256), FR_OK);
        ck_assert_msg(l <= e && e <= r, "sigma %g: lower %.17g upper %.17g rdp %.17g", C[k][0], l, e, r);
        ck_assert_msg(e >= C[k][1] && e <= 1.1 * C[k][2], "sigma %g: eps %.17g outside [%g, 1.1 x %g]", C[k][0], e,
                      C[k][1], C[k][2]);
        ck_assert_msg(l <= C[k][2], "sigma %g: eps_lower %.17g above %g", C[k][0], l, C[k][2]);
    }
}
END_TEST

START_TEST(fast_vs_ref)
{
    /* heterogeneous rounds, a first round with all clients, an s = 0 round */
    const double sig[3] = {0.69211503752, 0.69211503752, 2}, s[3] = {1, 1, 0.5};
    const double s0[3] = {1, 0, 1};
    for (unsigned long first = 0; first <= 1; first++)
        for (int z = 0; z <= 1; z++) {
            double e, l, ef, lf, r;
            unsigned long al;
            const double *sv = z ? s0 : s;
            ck_assert_int_eq(pld_ref(&e, &l, sig, sv, 3, first, 5, 100, 1e-5), FR_OK);
            ck_assert_int_eq(ff_fedpdm_pld_rounds(&ef, &lf, sig, sv, 3, first, 5, 100, 1e-5), FR_OK);
            ck_assert_int_eq(ff_fedpdm_rdp_rounds(&r, &al, sig, sv, 3, first, 5, 100, 1e-5, 256), FR_OK);
            ck_assert_msg(l <= e && ef >= e && ef <= e * 1.03 && lf <= ef && e <= r,
                          "first %lu z %d: ref [%.17g, %.17g] fast [%.17g, %.17g] rdp %.17g", first, z, l, e, lf,
                          ef, r);
        }
}
END_TEST

/* outputs of 5 bits (the working precision stays 128): eps_lower rounded
 * down, below one Gaussian round's exact eps (4.377..., certified above by
 * fr_fedpdm_gauss_eps), where rounding up would pass it */
START_TEST(low_precision_outputs)
{
    mpfr_t sg, s, d, x, e, l;
    mpfr_inits2(53, sg, s, d, (mpfr_ptr)0);
    mpfr_init2(x, 128);
    mpfr_inits2(5, e, l, (mpfr_ptr)0);
    mpfr_set_ui(sg, 1, MPFR_RNDN);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(x, sg, s, d), FR_OK);
    ck_assert_int_eq(fr_fedpdm_pld_rounds(e, l, &sg, &s, 1, 0, 100, 100, d), FR_OK);
    ck_assert_msg(mpfr_lessequal_p(l, x) && mpfr_cmp_d(l, 4) >= 0 && mpfr_lessequal_p(l, e),
                  "[%.6g, %.6g] vs exact %.17g", mpfr_get_d(l, MPFR_RNDN), mpfr_get_d(e, MPFR_RNDN),
                  mpfr_get_d(x, MPFR_RNDN));
    mpfr_clears(sg, s, d, x, e, l, (mpfr_ptr)0);
}
END_TEST

START_TEST(too_many_rounds)
{
    const unsigned long T = 1ul << 18;
    double *v = malloc(T * sizeof *v), e, l;
    for (unsigned long t = 0; t < T; t++) v[t] = 1;
    ck_assert_int_eq(ff_fedpdm_pld_rounds(&e, &l, v, v, T, 0, 5, 100, 1e-5), FR_ESIZE);
    mpfr_t *a = malloc(T * sizeof *a), E, L, D;
    for (unsigned long t = 0; t < T; t++) {
        mpfr_init2(a[t], 8);
        mpfr_set_ui(a[t], 1, MPFR_RNDN);
    }
    mpfr_inits2(53, E, L, D, (mpfr_ptr)0);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_pld_rounds(E, L, a, a, T, 0, 5, 100, D), FR_ESIZE);
    /* every s = 0: no loss, both 0 */
    v[0] = 0;
    ck_assert_int_eq(ff_fedpdm_pld_rounds(&e, &l, v, v, 1, 0, 5, 100, 1e-5), FR_EDOM);   /* sigma = 0 */
    double one = 1, zero = 0;
    ck_assert_int_eq(ff_fedpdm_pld_rounds(&e, &l, &one, &zero, 1, 0, 5, 100, 1e-5), FR_OK);
    ck_assert(e == 0 && l == 0);
    for (unsigned long t = 0; t < T; t++) mpfr_clear(a[t]);
    free(a);
    free(v);
    mpfr_clears(E, L, D, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_pld(void)
{
    Suite *s = suite_create("fedpdm_pld");
    TCase *tc = tcase_create("pld");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, closed_forms);
    tcase_add_test(tc, one_round);
    tcase_add_test(tc, no_subsampling);
    tcase_add_test(tc, four_settings_fast);
    tcase_add_test(tc, fast_vs_ref);
    tcase_add_test(tc, low_precision_outputs);
    tcase_add_test(tc, too_many_rounds);
    suite_add_tcase(s, tc);
    return s;
}
