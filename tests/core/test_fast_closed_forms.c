/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_closed_forms.c -- Check unit tests of the binary64 closed forms
 * of libfedfast: ff_soft (002 eq. (2)-(3)), ff_prox_l1 (003 eq. (13)),
 * ff_median (002 eq. (5)), ff_ens (002 eq. (8), (14)-(16), corrected).
 *
 * The oracles are independent of both libraries: exact MPFR arithmetic
 * written here (signs of exact sums, correctly rounded differences), brute
 * force in MPFR, and values checked by hand.  Every error measured
 * against an MPFR oracle is checked against the bound function of the
 * contract (ff_*_bound, include/fedfast/core.h), never a re-typed formula.
 * Random cases are replayable: FEDREF_SEED=<n> (the seed is printed on
 * failure). */
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

Suite *suite_fast_closed_forms(void);

#define EPS 0x1p-53              /* unit roundoff of binary64 */
#define SENTINEL (-12345.678)

/* ---- replayable randomness (splitmix64) ---------------------------------- */

static uint64_t seed, rng_state;

static void splitmix_start(void)
{
    seed = tu_seed(20240601u);
    rng_state = seed;
}

static uint64_t rng64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Number of random cases: n times FEDREF_TEST_EFFORT (default 1). */
static int effort(int n)
{
    const char *s = getenv("FEDREF_TEST_EFFORT");
    int k = s ? atoi(s) : 1;
    return n * (k > 0 ? k : 1);
}

static int rnd_int(int lo, int hi)            /* uniform in [lo, hi] */
{
    return lo + (int)(rng64() % (uint64_t)(hi - lo + 1));
}

/* Random sign, random 53-bit significand, exponent uniform in [elo, ehi]. */
static double rnd_double(int elo, int ehi)
{
    double f = (double)((rng64() >> 11) | (1ull << 52)) * 0x1p-53;   /* [1/2, 1) */
    double x = ldexp(f, rnd_int(elo, ehi));
    return rng64() & 1 ? -x : x;
}

/* ---- assertion helpers ---------------------------------------------------- */

static uint64_t ulp_dist(double a, double b)
{
    int64_t i, j;
    memcpy(&i, &a, sizeof i);
    memcpy(&j, &b, sizeof j);
    i = i >= 0 ? i : -(i & INT64_MAX);       /* monotone map, -0 and +0 -> 0 */
    j = j >= 0 ? j : -(j & INT64_MAX);
    return i >= j ? (uint64_t)i - (uint64_t)j : (uint64_t)j - (uint64_t)i;
}

#define CK_ULPS(got, want, maxu) \
    check_ulps((got), (want), (maxu), #got, __FILE__, __LINE__)
static void check_ulps(double got, double want, uint64_t maxu,
                       const char *what, const char *file, int line)
{
    ck_assert_msg(!isnan(got) && ulp_dist(got, want) <= maxu,
                  "%s:%d: %s = %a (%.17g), want %a (%.17g): %llu ulps > %llu"
                  " [FEDREF_SEED=%llu]", file, line, what, got, got, want,
                  want, (unsigned long long)ulp_dist(got, want),
                  (unsigned long long)maxu, (unsigned long long)seed);
}

#define CK_PLUS_ZERO(got) check_plus_zero((got), #got, __FILE__, __LINE__)
static void check_plus_zero(double got, const char *what, const char *file,
                            int line)
{
    ck_assert_msg(got == 0 && !signbit(got), "%s:%d: %s = %a (%.17g), want +0"
                  " [FEDREF_SEED=%llu]", file, line, what, got, got,
                  (unsigned long long)seed);
}

/* |got - exact| <= rel |exact| + abs, (rel, abs) from a bound function. */
#define CK_BOUND(got, exact, rel, abs) \
    check_bound((got), (exact), (rel), (abs), #got, __FILE__, __LINE__)
static void check_bound(double got, const mpfr_t exact, double rel, double abs,
                        const char *what, const char *file, int line)
{
    mpfr_t b;
    mpfr_init2(b, 64);
    mpfr_abs(b, exact, MPFR_RNDU);
    mpfr_mul_d(b, b, rel, MPFR_RNDU);
    mpfr_add_d(b, b, abs, MPFR_RNDU);
    tu_check_within_abs(got, exact, b, seed, what, file, line);
    mpfr_clear(b);
}

static void fill(double *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        x[i] = v;
}

static void ck_unchanged(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(x[i] == SENTINEL, "output %zu written on error", i);
}

/* ========================================================================= */
/* soft                                                                      */
/* ========================================================================= */

/* Correctly rounded t - a, by MPFR (exact difference, then one rounding). */
static double rn_diff(double t, double a)
{
    mpfr_t x;
    mpfr_init2(x, 2200);
    mpfr_set_d(x, t, MPFR_RNDN);
    mpfr_sub_d(x, x, a, MPFR_RNDN);
    double r = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return r;
}

START_TEST(soft_known_values)
{
    static const struct { double t, a, want; } c[] = {
        {3, 1, 2}, {-3, 1, -2}, {2.5, 0, 2.5}, {-2.5, 0, -2.5},
        {1 + 0x1p-52, 1, 0x1p-52}, {-DBL_MAX, 1, -DBL_MAX},
        {1, 0x1p-60, 1},                          /* 1 - 2^-60 rounds to 1 */
        {0x1p-1074, 0, 0x1p-1074}, {0x1.8p-1073, 0x1p-1074, 0x1p-1073},
        {DBL_MAX, 0x1p1023, 0x1.ffffffffffffep1022},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        double out = SENTINEL;
        ck_assert_int_eq(ff_soft(&out, &c[i].t, 1, c[i].a), FR_OK);
        CK_ULPS(out, c[i].want, 0);
        ck_assert(signbit(out) == signbit(c[i].want));
    }
    /* |t| <= a gives +0, never -0 */
    static const double zt[] = {-0.5, 0.5, 1, -1, -0.0, 0.0, 0.1};
    static const double za[] = {1, 1, 1, 1, 0, 0, 0.3};
    double out[7];
    for (size_t i = 0; i < 7; i++) {
        ck_assert_int_eq(ff_soft(&out[i], &zt[i], 1, za[i]), FR_OK);
        CK_PLUS_ZERO(out[i]);
    }
    /* vector form, eq. (3) */
    const double t[5] = {-3, -1, 0, 0.25, 7};
    const double want[5] = {-2, 0, 0, 0, 6};
    ck_assert_int_eq(ff_soft(out, t, 5, 1), FR_OK);
    for (size_t i = 0; i < 5; i++)
        CK_ULPS(out[i], want[i], 0);
}
END_TEST

START_TEST(soft_random_correctly_rounded)
{
    splitmix_start();
    for (int it = 0; it < effort(4000); it++) {
        double t = rnd_double(-1080, 1024), a = fabs(rnd_double(-1080, 1024));
        if (it % 3 == 0)                            /* near the threshold */
            a = fabs(t) * (1 + rnd_double(-60, -1));
        if (!isfinite(a))
            continue;
        double out, rel, abs;
        ck_assert_int_eq(ff_soft(&out, &t, 1, a), FR_OK);
        if (fabs(t) <= a) {
            CK_PLUS_ZERO(out);
        } else {
            CK_ULPS(out, copysign(rn_diff(fabs(t), a), t), 0);
            ck_assert(out != 0 && signbit(out) == signbit(t) && fabs(out) <= fabs(t));
        }
        /* the bound function against the exact value */
        ck_assert_int_eq(ff_soft_bound(&rel, &abs, &t, 1, a), FR_OK);
        mpfr_t ex;
        mpfr_init2(ex, 2200);
        mpfr_set_zero(ex, 1);
        if (fabs(t) > a) {
            mpfr_set_d(ex, fabs(t), MPFR_RNDN);
            mpfr_sub_d(ex, ex, a, MPFR_RNDN);          /* exact at 2200 bits */
            if (t < 0)
                mpfr_neg(ex, ex, MPFR_RNDN);
        }
        CK_BOUND(out, ex, rel, abs);
        mpfr_clear(ex);
    }
}
END_TEST

START_TEST(soft_alias)
{
    double t[4] = {3, -0.5, -4, 0.75};
    ck_assert_int_eq(ff_soft(t, t, 4, 1), FR_OK);
    CK_ULPS(t[0], 2, 0);
    CK_PLUS_ZERO(t[1]);
    CK_ULPS(t[2], -3, 0);
    CK_PLUS_ZERO(t[3]);
}
END_TEST

START_TEST(soft_errors)
{
    double out[3], t[3] = {1, 2, 3};
    fill(out, 3, SENTINEL);
    ck_assert_int_eq(ff_soft(NULL, t, 3, 1), FR_ENULL);
    ck_assert_int_eq(ff_soft(out, NULL, 3, 1), FR_ENULL);
    ck_assert_int_eq(ff_soft(out, t, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_soft(out, t, 3, -1), FR_EDOM);
    ck_assert_int_eq(ff_soft(out, t, 3, -0x1p-1074), FR_EDOM);
    ck_assert_int_eq(ff_soft(out, t, 3, NAN), FR_ENONFINITE);
    ck_assert_int_eq(ff_soft(out, t, 3, INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_soft(out, t, 3, -INFINITY), FR_ENONFINITE);
    t[2] = NAN;
    ck_assert_int_eq(ff_soft(out, t, 3, 1), FR_ENONFINITE);
    t[2] = -INFINITY;
    ck_assert_int_eq(ff_soft(out, t, 3, 1), FR_ENONFINITE);
    ck_unchanged(out, 3);
    /* in place: t unchanged too */
    ck_assert_int_eq(ff_soft(t, t, 3, 1), FR_ENONFINITE);
    ck_assert(t[0] == 1 && t[1] == 2 && isinf(t[2]));
    /* the bound function checks the same way */
    double rel = SENTINEL, abs = SENTINEL, ok[3] = {1, 2, 3};
    ck_assert_int_eq(ff_soft_bound(&rel, &abs, t, 3, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_soft_bound(&rel, &abs, ok, 3, -1), FR_EDOM);
    ck_assert_int_eq(ff_soft_bound(&rel, &abs, ok, 0, 1), FR_ESIZE);
    ck_assert_int_eq(ff_soft_bound(NULL, &abs, ok, 3, 1), FR_ENULL);
    ck_assert(rel == SENTINEL && abs == SENTINEL);
}
END_TEST

/* ========================================================================= */
/* prox_l1                                                                   */
/* ========================================================================= */

/* exact = sign(u) max(rho|u| - gamma, 0) / rho at 300 bits (numerator exact);
 * returns the sign of rho|u| - gamma. */
static int prox_exact(mpfr_t exact, double u, double gamma, double rho)
{
    mpfr_t num;
    mpfr_init2(num, 3400);
    mpfr_set_d(num, fabs(u), MPFR_RNDN);
    mpfr_mul_d(num, num, rho, MPFR_RNDN);
    mpfr_sub_d(num, num, gamma, MPFR_RNDN);
    int sgn = mpfr_sgn(num);
    if (sgn <= 0)
        mpfr_set_zero(exact, 1);
    else
        mpfr_div_d(exact, num, u < 0 ? -rho : rho, MPFR_RNDN);
    mpfr_clear(num);
    return sgn;
}

/* The contract: |x - exact| <= rel |exact| + abs, ff_prox_l1_bound.
 * Returns the relative error in units of 2^-53 (0 if |exact| < 2^-1000). */
static double check_prox_case(double u, double gamma, double rho)
{
    mpfr_t exact, bound;
    mpfr_inits2(300, exact, bound, (mpfr_ptr)0);
    double x = SENTINEL, rel_b, abs_b;
    ck_assert_int_eq(ff_prox_l1(&x, &u, 1, gamma, rho), FR_OK);
    ck_assert_int_eq(ff_prox_l1_bound(&rel_b, &abs_b, &u, 1, gamma, rho), FR_OK);
    int sgn = prox_exact(exact, u, gamma, rho);
    if (sgn <= 0)
        CK_PLUS_ZERO(x);               /* rho |u| <= gamma, decided exactly */
    CK_BOUND(x, exact, rel_b, abs_b);
    /* and the tight proved statement (fast/core/prox_l1.c), which the bound
     * function rounds up to 2^-51: (1 + 2^-53)^2 - 1 = 2^-52 + 2^-106 */
    CK_BOUND(x, exact, 0x1p-52 + 0x1p-106, 0x1p-1072);
    ck_assert(x == 0 || signbit(x) == signbit(u));
    double rel = 0;
    if (fabs(mpfr_get_d(exact, MPFR_RNDN)) >= 0x1p-1000) {
        mpfr_sub_d(bound, exact, x, MPFR_RNDN);
        mpfr_div(bound, bound, exact, MPFR_RNDN);
        rel = fabs(mpfr_get_d(bound, MPFR_RNDN)) / EPS;
    }
    mpfr_clears(exact, bound, (mpfr_ptr)0);
    return rel;
}

START_TEST(prox_known_values)
{
    double x;
    const double u3 = 3, um3 = -3, uhalf = 0.5;
    ck_assert_int_eq(ff_prox_l1(&x, &u3, 1, 2, 1), FR_OK);
    CK_ULPS(x, 1, 0);
    /* threshold gamma/rho = 1/2 (003's convention), not rho*gamma = 2 */
    ck_assert_int_eq(ff_prox_l1(&x, &u3, 1, 1, 2), FR_OK);
    CK_ULPS(x, 2.5, 0);
    ck_assert_int_eq(ff_prox_l1(&x, &um3, 1, 1, 2), FR_OK);
    CK_ULPS(x, -2.5, 0);
    ck_assert_int_eq(ff_prox_l1(&x, &uhalf, 1, 1, 2), FR_OK);  /* rho|u| = gamma */
    CK_PLUS_ZERO(x);
    /* 10 * 0.1 = 1 + 2^-54 (exactly) > gamma = 1, although fl(10 * 0.1) = 1:
     * the answer is (10 * 0.1 - 1)/10 = 2^-54/10 > 0, not 0. */
    const double u01 = 0.1;
    ck_assert_int_eq(ff_prox_l1(&x, &u01, 1, 1, 10), FR_OK);
    ck_assert(x > 0);
    check_prox_case(0.1, 1, 10);
    check_prox_case(-0.1, 1, 10);
    /* 10 * 0.3 < 3 exactly: +0 */
    const double u03 = 0.3;
    ck_assert_int_eq(ff_prox_l1(&x, &u03, 1, 3, 10), FR_OK);
    CK_PLUS_ZERO(x);
    /* extremes: rho |u| overflows; gamma/rho overflows; tiny rho; subnormals */
    check_prox_case(1e10, 1e305, 1e300);
    check_prox_case(-3e10, 1e-290, 1e-300);
    check_prox_case(DBL_MAX, 1, 0x1p-1074);
    check_prox_case(DBL_MAX, DBL_MAX, DBL_MAX);
    check_prox_case(DBL_MAX, 0x1p-1074, DBL_MAX);
    check_prox_case(0x1p-1074, 0x1p-1074, DBL_MAX);
    check_prox_case(0x1p-1070, 0x1.8p-1010, 0x1p60);
    check_prox_case(0x1.8p-1070, 0x1p-1010, 0x1p60);
    check_prox_case(0x1p-1000, 0x1p-1074, 0x1p-74);
    /* rho = 0.75 2^61, gamma 2^-61 / 0.75 = 3 2^-1074 exactly, but the scaled
     * gamma 2^-61 = 2.25 2^-1074 is subnormal and rounds to 2 2^-1074:
     * rho |u| = gamma must still give +0 */
    const double usub = 0x1.8p-1073;
    ck_assert_int_eq(ff_prox_l1(&x, &usub, 1, 0x1.2p-1012, 0x1.8p60), FR_OK);
    CK_PLUS_ZERO(x);
    check_prox_case(0x1.8p-1073, 0x1.2p-1012, 0x1.8p60);
    check_prox_case(0x1p-1072, 0x1.2p-1012, 0x1.8p60);
}
END_TEST

START_TEST(prox_gamma_zero_is_identity)
{
    splitmix_start();
    double u[64], x[64];
    for (int i = 0; i < 64; i++)
        u[i] = rnd_double(-1080, 1024);
    u[0] = -0.0;
    u[1] = 0x1p-1074;
    ck_assert_int_eq(ff_prox_l1(x, u, 64, 0, 0.75), FR_OK);
    CK_PLUS_ZERO(x[0]);
    for (int i = 1; i < 64; i++)
        CK_ULPS(x[i], u[i], 0);
}
END_TEST

START_TEST(prox_random)
{
    splitmix_start();
    double worst = 0;
    for (int it = 0; it < effort(3000); it++) {
        double u = rnd_double(-1080, 1024), rho = fabs(rnd_double(-1080, 1024));
        double gamma = fabs(rnd_double(-1080, 1024));
        if (it % 2) {                       /* make rho |u| close to gamma */
            int e = rnd_int(-300, 300);
            u = rnd_double(-100, 100);
            rho = ldexp(fabs(rnd_double(-20, 20)), e);
            gamma = fabs(u) * rho * (1 + rnd_double(-60, -2));
        }
        if (!isfinite(gamma) || gamma == 0 || rho == 0)
            continue;
        worst = fmax(worst, check_prox_case(u, gamma, rho));
    }
    if (getenv("FEDREF_VERBOSE"))
        fprintf(stderr, "ff_prox_l1: worst relative error %.3f * 2^-53\n", worst);
}
END_TEST

START_TEST(prox_alias)
{
    double u[3] = {3, -0.25, -3};
    ck_assert_int_eq(ff_prox_l1(u, u, 3, 1, 2), FR_OK);
    CK_ULPS(u[0], 2.5, 0);
    CK_PLUS_ZERO(u[1]);
    CK_ULPS(u[2], -2.5, 0);
}
END_TEST

START_TEST(prox_errors)
{
    double x[2], u[2] = {1, 2};
    fill(x, 2, SENTINEL);
    ck_assert_int_eq(ff_prox_l1(NULL, u, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_prox_l1(x, NULL, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_prox_l1(x, u, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, -1, 1), FR_EDOM);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, -0.0), FR_EDOM);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, -2), FR_EDOM);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_prox_l1(x, u, 2, INFINITY, 1), FR_ENONFINITE);
    u[1] = NAN;
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, 1), FR_ENONFINITE);
    u[1] = INFINITY;
    ck_assert_int_eq(ff_prox_l1(x, u, 2, 1, 1), FR_ENONFINITE);
    ck_unchanged(x, 2);
    /* the bound function checks the same way */
    double rel = SENTINEL, abs = SENTINEL;
    ck_assert_int_eq(ff_prox_l1_bound(&rel, &abs, u, 2, 1, 1), FR_ENONFINITE);
    u[1] = 2;
    ck_assert_int_eq(ff_prox_l1_bound(&rel, &abs, u, 2, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_prox_l1_bound(&rel, &abs, u, 2, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_prox_l1_bound(&rel, &abs, u, 0, 1, 1), FR_ESIZE);
    ck_assert(rel == SENTINEL && abs == SENTINEL);
}
END_TEST

/* ========================================================================= */
/* median                                                                    */
/* ========================================================================= */

static void sort_copy(double *v, const double *x, size_t m)   /* insertion */
{
    for (size_t i = 0; i < m; i++) {
        size_t k = i;
        for (; k > 0 && v[k - 1] > x[i]; k--)
            v[k] = v[k - 1];
        v[k] = x[i];
    }
}

/* Correctly rounded (a + b)/2 by MPFR. */
static double rn_mid(double a, double b)
{
    mpfr_t x;
    mpfr_init2(x, 2200);
    mpfr_set_d(x, a, MPFR_RNDN);
    mpfr_add_d(x, x, b, MPFR_RNDN);
    mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    double r = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return r;
}

START_TEST(median_known_values)
{
    double med[3];
    const double w1[1] = {-7.5};
    ck_assert_int_eq(ff_median(med, w1, 1, 1), FR_OK);
    CK_ULPS(med[0], -7.5, 0);
    /* row-major: client i is row i; columns {1,2,3}, {10,30,20}, {5,-1,5} */
    const double W[9] = {1, 10, 5, 2, 30, -1, 3, 20, 5};
    ck_assert_int_eq(ff_median(med, W, 3, 3), FR_OK);
    CK_ULPS(med[0], 2, 0);
    CK_ULPS(med[1], 20, 0);
    CK_ULPS(med[2], 5, 0);
    static const struct { double a, b, c, d, want; } e[] = {
        {4, 1, 3, 2, 2.5},
        {5, 5, 1, 5, 5},
        {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX},      /* a + b overflows */
        {-DBL_MAX, DBL_MAX, -DBL_MAX, DBL_MAX, 0},
        {-DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX},
        {0, 0x1p-1074, -1, 1, 0},             /* 2^-1075: tie, to even 0 */
        {0x1p-1074, 0x1p-1073, -1, 1, 0x1p-1073},   /* 1.5 ulp -> 2 */
        {0x1p-1073, 0x1.8p-1073, -1, 1, 0x1p-1073},  /* 2.5 ulp -> 2 */
        {1, 1 + 0x1p-52, -5, 5, 1},                 /* tie, to even */
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        const double col[4] = {e[i].a, e[i].b, e[i].c, e[i].d};
        ck_assert_int_eq(ff_median(med, col, 4, 1), FR_OK);
        CK_ULPS(med[0], e[i].want, 0);
    }
    const double big[2] = {DBL_MAX, 0x1.ffffffffffffep1023};
    ck_assert_int_eq(ff_median(med, big, 2, 1), FR_OK);
    CK_ULPS(med[0], rn_mid(big[0], big[1]), 0);
    ck_assert(isfinite(med[0]));
}
END_TEST

/* Integer data: sum |w - w_i| is exact in binary64 (integers
 * and halves below 2^10; no long double, which is binary64 on some targets),
 * so the brute-force minimum over the data values is exact; the result must reach it, satisfy
 * the counting certificate #{< w} <= m/2 >= #{> w}, and for even m be the
 * midpoint of the minimising interval. */
START_TEST(median_brute_force)
{
    splitmix_start();
    for (int it = 0; it < effort(2000); it++) {
        size_t m = (size_t)rnd_int(1, 15), n = (size_t)rnd_int(1, 4);
        double W[60], med[4];
        for (size_t i = 0; i < m * n; i++)
            W[i] = rnd_int(-20, 20);
        ck_assert_int_eq(ff_median(med, W, m, n), FR_OK);
        for (size_t j = 0; j < n; j++) {
            double best = INFINITY, f = 0;
            double lo = INFINITY, hi = -INFINITY;      /* minimising interval */
            size_t below = 0, above = 0;
            for (size_t i = 0; i < m; i++) {
                double g = 0;
                for (size_t k = 0; k < m; k++)
                    g += fabs(W[i * n + j] - W[k * n + j]);
                if (g < best) {
                    best = g;
                    lo = hi = W[i * n + j];
                } else if (g == best) {
                    lo = fmin(lo, W[i * n + j]);
                    hi = fmax(hi, W[i * n + j]);
                }
                f += fabs(med[j] - W[i * n + j]);
                below += W[i * n + j] < med[j];
                above += W[i * n + j] > med[j];
            }
            ck_assert_msg(f == best, "sum |w - w_i| = %g > min %g", f, best);
            ck_assert(2 * below <= m && 2 * above <= m);
            CK_ULPS(med[j], (lo + hi) / 2, 0);
        }
    }
}
END_TEST

START_TEST(median_random_wide)
{
    splitmix_start();
    for (int it = 0; it < effort(3000); it++) {
        size_t m = (size_t)rnd_int(1, 9);
        double col[9], v[9], med;
        for (size_t i = 0; i < m; i++)
            col[i] = rnd_double(-1080, 1024);
        if (it % 4 == 0 && m > 1)                 /* a tie in the middle */
            col[1] = col[0];
        ck_assert_int_eq(ff_median(&med, col, m, 1), FR_OK);
        sort_copy(v, col, m);
        CK_ULPS(med, m % 2 ? v[m / 2] : rn_mid(v[m / 2 - 1], v[m / 2]), 0);
        /* the bound function against the exact median */
        double rel, abs;
        ck_assert_int_eq(ff_median_bound(&rel, &abs, col, m, 1), FR_OK);
        mpfr_t ex;
        mpfr_init2(ex, 2200);
        mpfr_set_d(ex, v[m / 2], MPFR_RNDN);
        if (m % 2 == 0) {
            mpfr_add_d(ex, ex, v[m / 2 - 1], MPFR_RNDN);   /* exact */
            mpfr_div_2ui(ex, ex, 1, MPFR_RNDN);
        }
        CK_BOUND(med, ex, rel, abs);
        mpfr_clear(ex);
    }
}
END_TEST

/* m beyond the insertion sort (16): the typed introsort and its three-way
 * partition, with many duplicates and signed zeros; the median of a column
 * equals the one of an independent sort, numerically. */
START_TEST(median_large_m)
{
    splitmix_start();
    static const size_t ms[] = {17, 33, 100, 257, 1000};
    for (int it = 0; it < effort(40); it++) {
        size_t m = ms[it % 5], n = (size_t)rnd_int(1, 3);
        double *W = malloc(m * n * sizeof *W), *col = malloc(m * sizeof *col);
        double *v = malloc(m * sizeof *v), med[3];
        ck_assert(W && col && v);
        for (size_t k = 0; k < m * n; k++) {
            int kind = it % 4;
            W[k] = kind == 0 ? (double)rnd_int(-3, 3)                 /* ties */
                 : kind == 1 ? (rng64() & 1 ? 0.0 : -0.0)             /* zeros */
                 : kind == 2 ? (double)(m * n - k)                    /* descending */
                 : rnd_double(-1080, 1024);
        }
        ck_assert_int_eq(ff_median(med, W, m, n), FR_OK);
        for (size_t j = 0; j < n; j++) {
            for (size_t i = 0; i < m; i++)
                col[i] = W[i * n + j];
            sort_copy(v, col, m);
            double want = m % 2 ? v[m / 2] : rn_mid(v[m / 2 - 1], v[m / 2]);
            ck_assert_msg(med[j] == want, "m = %zu: median %a, want %a", m, med[j], want);
        }
        free(W);
        free(col);
        free(v);
    }
}
END_TEST

START_TEST(median_errors)
{
    double med[2], W[4] = {1, 2, 3, 4};
    fill(med, 2, SENTINEL);
    ck_assert_int_eq(ff_median(NULL, W, 2, 2), FR_ENULL);
    ck_assert_int_eq(ff_median(med, NULL, 2, 2), FR_ENULL);
    ck_assert_int_eq(ff_median(med, W, 0, 2), FR_ESIZE);
    ck_assert_int_eq(ff_median(med, W, 2, 0), FR_ESIZE);
    ck_assert_int_eq(ff_median(med, W, SIZE_MAX / 2, 3), FR_ESIZE);
    ck_assert_int_eq(ff_median(med, W, 3, SIZE_MAX / 2), FR_ESIZE);
    W[3] = NAN;
    ck_assert_int_eq(ff_median(med, W, 2, 2), FR_ENONFINITE);
    W[3] = -INFINITY;
    ck_assert_int_eq(ff_median(med, W, 2, 2), FR_ENONFINITE);
    ck_unchanged(med, 2);
    /* the bound function checks the same way */
    double rel = SENTINEL, abs = SENTINEL;
    ck_assert_int_eq(ff_median_bound(&rel, &abs, W, 2, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_median_bound(&rel, &abs, W, 0, 2), FR_ESIZE);
    ck_assert_int_eq(ff_median_bound(&rel, NULL, W, 2, 2), FR_ENULL);
    ck_assert(rel == SENTINEL && abs == SENTINEL);
}
END_TEST

/* ========================================================================= */
/* ens                                                                       */
/* ========================================================================= */

/* Sign of eta h'(z) = lambda (2k - m) + eta (m z - sum_i v_i), exactly
 * (exact products, correctly rounded mpfr_sum), with k = #{v_i <= z} for
 * side > 0 (right derivative) and k = #{v_i < z} for side < 0 (left). */
static int ens_dsign(const double *v, size_t m, double lambda, double eta,
                     const mpfr_t z, int side)
{
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        k += side > 0 ? mpfr_cmp_d(z, v[i]) >= 0 : mpfr_cmp_d(z, v[i]) > 0;
    mpfr_t *t = malloc((m + 2) * sizeof *t);
    mpfr_ptr *p = malloc((m + 2) * sizeof *p);
    ck_assert(t && p);
    mpfr_init2(t[0], 128);
    mpfr_set_d(t[0], lambda, MPFR_RNDN);
    mpfr_mul_si(t[0], t[0], 2 * (long)k - (long)m, MPFR_RNDN);
    mpfr_init2(t[1], mpfr_get_prec(z) + 128);
    mpfr_mul_d(t[1], z, eta, MPFR_RNDN);
    mpfr_mul_ui(t[1], t[1], (unsigned long)m, MPFR_RNDN);
    for (size_t i = 0; i < m; i++) {
        mpfr_init2(t[i + 2], 110);
        mpfr_set_d(t[i + 2], -v[i], MPFR_RNDN);
        mpfr_mul_d(t[i + 2], t[i + 2], eta, MPFR_RNDN);
    }
    for (size_t i = 0; i < m + 2; i++)
        p[i] = t[i];
    mpfr_t s;
    mpfr_init2(s, 64);
    mpfr_sum(s, p, m + 2, MPFR_RNDN);
    int sgn = mpfr_sgn(s);
    mpfr_clear(s);
    for (size_t i = 0; i < m + 2; i++)
        mpfr_clear(t[i]);
    free(t);
    free(p);
    return sgn;
}

/* The exact minimiser, to 2^-150 of the data range, by bisection on the
 * exact signs of the one-sided derivatives. */
static void ens_exact(mpfr_t x, const double *v, size_t m, double lambda,
                      double eta)
{
    mpfr_t lo, hi;
    mpfr_inits2(mpfr_get_prec(x), lo, hi, (mpfr_ptr)0);
    mpfr_set_d(lo, v[0], MPFR_RNDN);
    mpfr_set_d(hi, v[0], MPFR_RNDN);
    for (size_t i = 1; i < m; i++) {
        if (mpfr_cmp_d(lo, v[i]) > 0)
            mpfr_set_d(lo, v[i], MPFR_RNDN);
        if (mpfr_cmp_d(hi, v[i]) < 0)
            mpfr_set_d(hi, v[i], MPFR_RNDN);
    }
    for (int it = 0; it < 150 && mpfr_less_p(lo, hi); it++) {
        mpfr_add(x, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        if (ens_dsign(v, m, lambda, eta, x, +1) < 0)
            mpfr_set(lo, x, MPFR_RNDN);
        else if (ens_dsign(v, m, lambda, eta, x, -1) > 0)
            mpfr_set(hi, x, MPFR_RNDN);
        else
            mpfr_set(lo, x, MPFR_RNDN), mpfr_set(hi, x, MPFR_RNDN);
    }
    mpfr_set(x, lo, MPFR_RNDN);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* The contract bound B of one column, ff_ens_bound. */
static void ens_bound(mpfr_t b, const double *v, size_t m, double lambda,
                      double eta)
{
    double B = SENTINEL;
    ck_assert_int_eq(ff_ens_bound(&B, v, m, 1, lambda, eta), FR_OK);
    mpfr_set_d(b, B, MPFR_RNDN);
}

/* Optimality certificate: with B the contract bound, h'_-(w - B) <= 0 <=
 * h'_+(w + B) in exact arithmetic, i.e. the exact minimiser is within B of
 * w.  Returns |w - exact| / B for the record. */
static double check_ens_column(double w, const double *v, size_t m,
                               double lambda, double eta)
{
    mpfr_t b, z, x;
    mpfr_init2(b, 64);
    mpfr_inits2(4400, z, x, (mpfr_ptr)0);
    ens_bound(b, v, m, lambda, eta);
    mpfr_sub_d(z, b, w, MPFR_RNDN);            /* exact at 4400 bits */
    mpfr_neg(z, z, MPFR_RNDN);
    ck_assert_msg(ens_dsign(v, m, lambda, eta, z, -1) <= 0,
                  "h'_-(w - B) > 0: w = %a (%.17g) is too large, m = %zu,"
                  " lambda = %a, eta = %a [FEDREF_SEED=%llu]", w, w, m,
                  lambda, eta, (unsigned long long)seed);
    mpfr_add_d(z, b, w, MPFR_RNDN);
    ck_assert_msg(ens_dsign(v, m, lambda, eta, z, +1) >= 0,
                  "h'_+(w + B) < 0: w = %a (%.17g) is too small, m = %zu,"
                  " lambda = %a, eta = %a [FEDREF_SEED=%llu]", w, w, m,
                  lambda, eta, (unsigned long long)seed);
    /* measured error, against the bisection oracle */
    mpfr_set_prec(x, 300);
    ens_exact(x, v, m, lambda, eta);
    CK_WITHIN_ABS(w, x, b);
    /* and against the contract's formula evaluated here in MPFR, rounded
     * up, with the tighter absolute term 2^-1075 of the former test:
     * 8 eps (M + min(lambda/eta, 4 m M)) + 2^-1075, independent of the
     * binary64 evaluation in ff_ens_bound */
    {
        mpfr_t c, bt;
        mpfr_inits2(128, c, bt, (mpfr_ptr)0);
        double M = 0;
        for (size_t i = 0; i < m; i++)
            M = fmax(M, fabs(v[i]));
        mpfr_set_d(c, lambda, MPFR_RNDU);
        mpfr_div_d(c, c, eta, MPFR_RNDU);
        mpfr_set_d(bt, M, MPFR_RNDU);
        mpfr_mul_ui(bt, bt, 4 * (unsigned long)m, MPFR_RNDU);
        mpfr_min(c, c, bt, MPFR_RNDU);
        mpfr_add_d(c, c, M, MPFR_RNDU);
        mpfr_mul_d(c, c, 8 * EPS, MPFR_RNDU);
        mpfr_set_d(bt, 0x1p-1074, MPFR_RNDU);
        mpfr_div_2ui(bt, bt, 1, MPFR_RNDU);
        mpfr_add(bt, bt, c, MPFR_RNDU);
        CK_WITHIN_ABS(w, x, bt);
        mpfr_clears(c, bt, (mpfr_ptr)0);
    }
    mpfr_sub_d(x, x, w, MPFR_RNDN);
    mpfr_div(x, x, b, MPFR_RNDN);
    double ratio = fabs(mpfr_get_d(x, MPFR_RNDN));
    mpfr_clears(b, z, x, (mpfr_ptr)0);
    return ratio;
}

/* Independent brute force: ternary search on the strictly convex objective
 * in MPFR at 128 bits (every objective value correctly rounded; no long
 * double, whose precision depends on the target and on valgrind).  The
 * objective is flat at its minimum, so this locates the minimiser only to
 * about 2^-31 (M + lambda/eta): a loose check, but it catches a wrong
 * formula (e.g. the printed sign, 11/3 for 3). */
static void ens_objective(mpfr_t f, mpfr_srcptr x, const double *v, size_t m, double lambda, double eta)
{
    mpfr_t d, t;
    mpfr_inits2(128, d, t, (mpfr_ptr)0);
    mpfr_set_zero(f, 1);
    for (size_t i = 0; i < m; i++) {
        mpfr_sub_d(d, x, v[i], MPFR_RNDN);
        mpfr_sqr(t, d, MPFR_RNDN);
        mpfr_mul_d(t, t, eta / 2, MPFR_RNDN);            /* eta/2 exact: a power-of-2 scaling */
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_mul_d(d, d, lambda, MPFR_RNDN);
        mpfr_add(f, f, d, MPFR_RNDN);
        mpfr_add(f, f, t, MPFR_RNDN);
    }
    mpfr_clears(d, t, (mpfr_ptr)0);
}

static void check_ens_ternary(double w, const double *v, size_t m,
                              double lambda, double eta)
{
    double M = 0, vmin = INFINITY, vmax = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        vmin = fmin(vmin, v[i]);
        vmax = fmax(vmax, v[i]);
        M = fmax(M, fabs(v[i]));
    }
    mpfr_t lo, hi, a, b, fa, fb, t;
    mpfr_inits2(128, lo, hi, a, b, fa, fb, t, (mpfr_ptr)0);
    mpfr_set_d(lo, vmin, MPFR_RNDN);
    mpfr_set_d(hi, vmax, MPFR_RNDN);
    for (int it = 0; it < 300; it++) {
        mpfr_sub(t, hi, lo, MPFR_RNDN);
        mpfr_div_ui(t, t, 3, MPFR_RNDN);
        mpfr_add(a, lo, t, MPFR_RNDN);
        mpfr_sub(b, hi, t, MPFR_RNDN);
        ens_objective(fa, a, v, m, lambda, eta);
        ens_objective(fb, b, v, m, lambda, eta);
        if (mpfr_less_p(fa, fb))
            mpfr_set(hi, b, MPFR_RNDN);
        else
            mpfr_set(lo, a, MPFR_RNDN);
    }
    mpfr_add(t, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    double mid = mpfr_get_d(t, MPFR_RNDN), tol = 1e-7 * (M + lambda / eta);
    ck_assert_msg(fabs(w - mid) <= tol, "ternary search: %.17g,"
                  " ff_ens: %a (%.17g) [FEDREF_SEED=%llu]", mid,
                  w, w, (unsigned long long)seed);
    mpfr_clears(lo, hi, a, b, fa, fb, t, (mpfr_ptr)0);
}

static double ens1(const double *col, size_t m, double lambda, double eta)
{
    double w = SENTINEL;
    ck_assert_int_eq(ff_ens(&w, col, m, 1, lambda, eta), FR_OK);
    return w;
}

START_TEST(ens_worked_example)
{
    /* m = 3 clients, column {10, 0, 0}, lambda = eta = 1.  h'(x) = 0 on the
     * piece with one value above (s = 1): 3x - 10 - 1 = 0 ... with the
     * correct sign, x = 10/3 + (2/3 - 1) = 3, and h'_+(3) = -1 + 9 - 10 = 0.
     * The printed (13) gives 10/3 - (2/3 - 1) = 11/3. */
    const double W[3] = {10, 0, 0};
    double w = ens1(W, 3, 1, 1);
    CK_ULPS(w, 3, 0);
    check_ens_column(w, W, 3, 1, 1);
    check_ens_ternary(w, W, 3, 1, 1);
}
END_TEST

START_TEST(ens_special_cases)
{
    splitmix_start();
    /* m = 1: the value itself, for any lambda/eta */
    for (int it = 0; it < 500; it++) {
        double v = rnd_double(-1080, 1024);
        double lambda = fabs(rnd_double(-1074, 1024)), eta = fabs(rnd_double(-1074, 1024));
        CK_ULPS(ens1(&v, 1, lambda, eta), v, 0);
    }
    /* all values equal */
    const double seven[5] = {7, 7, 7, 7, 7};
    CK_ULPS(ens1(seven, 5, 1e-300, 1), 7, 0);
    CK_ULPS(ens1(seven, 4, 1, 1), 7, 0);
    CK_ULPS(ens1(seven, 5, 1e300, 1e-300), 7, 0);
    const double third[3] = {0.1, 0.1, 0.1};
    CK_ULPS(ens1(third, 3, 0x1p-80, 1), 0.1, 0);
    /* {0, 1, 10}, mean 11/3, C = lambda/eta.  On the piece 1 < x < 10 (s=1):
     * x = 11/3 + C(2/3 - 1) = (11 - C)/3, valid while (11 - C)/3 > 1, i.e.
     * C < 8.  For C >= 8, h'_-(1) = -C - 8 < 0 <= C - 8 = h'_+(1): the
     * minimiser is the data value 1. */
    const double v3[3] = {0, 1, 10};
    CK_ULPS(ens1(v3, 3, 0.5, 1), 3.5, 0);      /* (11 - 1/2)/3 */
    CK_ULPS(ens1(v3, 3, 4, 0.5), 1, 0);        /* C = 8: both rules give 1 */
    CK_ULPS(ens1(v3, 3, 5, 0.5), 1, 0);        /* C = 10: a data value */
    CK_ULPS(ens1(v3, 3, 1e12, 1), 1, 0);
    /* lambda/eta = 1e-12: the mean.  {1, 2, 3, 10}: mean 4, three values
     * below, x = 4 + 1e-12 (2/4 - 1) = 4 - 5e-13 */
    const double v4[4] = {1, 2, 3, 10};
    double w = ens1(v4, 4, 1e-12, 1), B;
    ck_assert_int_eq(ff_ens_bound(&B, v4, 4, 1, 1e-12, 1), FR_OK);
    ck_assert(fabs(w - (4 - 5e-13)) <= B + 4 * EPS);   /* + the literal's rounding */
    check_ens_column(w, v4, 4, 1e-12, 1);
    /* lambda/eta = 1e12: odd m gives the median exactly; even m gives the
     * mean clamped into the middle interval [2, 3] */
    const double v5[5] = {3, -1, 4, 1, 5};
    CK_ULPS(ens1(v5, 5, 1e12, 1), 3, 0);
    CK_ULPS(ens1(v4, 4, 1e12, 1), 3, 0);
    const double v4b[4] = {1, 2.25, 3, 3.75};        /* mean 2.5 */
    CK_ULPS(ens1(v4b, 4, 1e12, 1), 2.5, 0);
    /* lambda/eta overflows / underflows binary64 */
    const double v3b[3] = {1, 2, 6};
    CK_ULPS(ens1(v3b, 3, DBL_MAX, 0x1p-1074), 2, 0);
    CK_ULPS(ens1(v3b, 3, 0x1p-1074, DBL_MAX), 3, 0);
    CK_ULPS(ens1(v4b, 4, DBL_MAX, 0x1p-1074), 2.5, 0);   /* even m: the mean */
    /* huge magnitudes: no overflow of the sum */
    const double hugev[3] = {DBL_MAX, DBL_MAX, -DBL_MAX};
    w = ens1(hugev, 3, 1, 1);
    ck_assert(isfinite(w));
    check_ens_column(w, hugev, 3, 1, 1);
    CK_ULPS(ens1(hugev, 2, 1, 1), DBL_MAX, 0);
    const double hugev2[3] = {DBL_MAX, DBL_MAX, 0x1.ffffffffffffep1023};
    w = ens1(hugev2, 3, 1, 1e-300);
    check_ens_column(w, hugev2, 3, 1, 1e-300);
    /* subnormal data: C = 1 dominates, the median */
    const double sub[3] = {0x1p-1074, 0x1p-1073, 0};
    CK_ULPS(ens1(sub, 3, 1, 1), 0x1p-1074, 0);
    w = ens1(sub, 3, 0x1p-1074, 1);
    check_ens_column(w, sub, 3, 0x1p-1074, 1);
    /* several columns at once, row-major (client i = row i) */
    const double W[9] = {10, 0, 1,
                         0, 1, 1,
                         0, 10, 1};
    double out[3];
    ck_assert_int_eq(ff_ens(out, W, 3, 3, 0.5, 1), FR_OK);
    CK_ULPS(out[0], ens1((const double[]){10, 0, 0}, 3, 0.5, 1), 0);
    CK_ULPS(out[1], 3.5, 0);
    CK_ULPS(out[2], 1, 0);
}
END_TEST

/* A column where plain recursive summation (in sorted order) fails the
 * bound: 48 values -1, then 152 values t below half an ulp of the running
 * sum (-24, after scaling by 1/2), all lost: the mean is off by
 * 152 t / 200 ~ 24 eps. */
START_TEST(ens_compensated_sum)
{
    double v[200];
    for (int i = 0; i < 200; i++)
        v[i] = i < 48 ? -1 : 0.49 * 0x1p-47;
    double w = ens1(v, 200, 1e-30, 1);
    check_ens_column(w, v, 200, 1e-30, 1);
}
END_TEST

/* Random columns of several kinds; every result must pass the exact
 * certificate, the bisection oracle and the ternary search. */
START_TEST(ens_random)
{
    splitmix_start();
    double worst = 0;
    for (int it = 0; it < effort(1500); it++) {
        size_t m = (size_t)(it % 10 == 0 ? rnd_int(20, 60) : rnd_int(1, 12));
        double v[60];
        int kind = it % 4;
        double centre = rnd_double(-30, 30);
        for (size_t i = 0; i < m; i++) {
            if (kind == 0)                              /* ties */
                v[i] = rnd_int(-5, 5);
            else if (kind == 1)                         /* wide range */
                v[i] = rnd_double(-60, 60);
            else if (kind == 2)                         /* clustered */
                v[i] = centre * (1 + rnd_double(-50, -10));
            else                                        /* one scale */
                v[i] = rnd_double(-3, 3) * 0x1p900;
        }
        double eta = fabs(rnd_double(-40, 40));
        double lambda = eta * fabs(rnd_double(-70, 70));
        if (kind == 3)
            lambda = eta * 0x1p900 * fabs(rnd_double(-10, 10));
        if (!isfinite(lambda) || lambda == 0)
            continue;
        double w = ens1(v, m, lambda, eta);
        worst = fmax(worst, check_ens_column(w, v, m, lambda, eta));
        check_ens_ternary(w, v, m, lambda, eta);
    }
    if (getenv("FEDREF_VERBOSE"))
        fprintf(stderr, "ff_ens: worst error %.3f of ff_ens_bound\n", worst);
}
END_TEST

/* Many columns, processed 8 at a time: each column's result is the one it
 * gets alone (the lanes are independent), for full and partial blocks
 * and for columns that leave the vector path (|e| > 1000, all zeros)
 * next to ordinary ones; a sample passes the exact certificate. */
START_TEST(ens_blocks)
{
    splitmix_start();
    static const size_t ns[] = {8, 9, 16, 17, 33};
    for (int it = 0; it < effort(60); it++) {
        size_t n = ns[it % 5], m = (size_t)(it % 3 == 0 ? rnd_int(17, 120) : rnd_int(1, 12));
        double *W = malloc(m * n * sizeof *W), *col = malloc(m * sizeof *col);
        double *w = malloc(n * sizeof *w);
        ck_assert(W && col && w);
        for (size_t j = 0; j < n; j++) {
            int kind = (int)((j + (size_t)it) % 6);
            double centre = rnd_double(-30, 30);
            for (size_t i = 0; i < m; i++) {
                double x;
                if (kind == 0)                              /* ties */
                    x = rnd_int(-4, 4);
                else if (kind == 1)                         /* signed zeros */
                    x = rng64() & 1 ? 0.0 : -0.0;
                else if (kind == 2)                         /* huge: |e| > 1000 */
                    x = rnd_double(1005, 1023);
                else if (kind == 3)                         /* tiny: subnormal */
                    x = rnd_double(-1074, -1030);
                else if (kind == 4)                         /* clustered */
                    x = centre * (1 + rnd_double(-50, -10));
                else
                    x = rnd_double(-40, 40);
                W[i * n + j] = x;
            }
        }
        double eta = fabs(rnd_double(-20, 20)), lambda = eta * fabs(rnd_double(-30, 30));
        ck_assert_int_eq(ff_ens(w, W, m, n, lambda, eta), FR_OK);
        for (size_t j = 0; j < n; j++) {
            for (size_t i = 0; i < m; i++)
                col[i] = W[i * n + j];
            double alone = ens1(col, m, lambda, eta);
            ck_assert_msg(memcmp(&alone, &w[j], sizeof alone) == 0,
                          "column %zu of %zu: %a in a block, %a alone", j, n, w[j], alone);
            if (j == (size_t)it % n)
                check_ens_column(w[j], col, m, lambda, eta);
        }
        free(W);
        free(col);
        free(w);
    }
}
END_TEST

/* The finiteness of W is tested block by block while the results go to a
 * temporary: a NaN in the last block leaves w untouched. */
START_TEST(ens_nonfinite_late)
{
    const size_t m = 3, n = 20;
    double W[60], w[20];
    for (size_t k = 0; k < m * n; k++)
        W[k] = (double)(k % 7) - 3;
    fill(w, n, SENTINEL);
    W[2 * n + 19] = NAN;
    ck_assert_int_eq(ff_ens(w, W, m, n, 1, 2), FR_ENONFINITE);
    ck_assert_int_eq(ff_ens(w, W, m, n, 0, 2), FR_ENONFINITE);   /* before FR_EDOM */
    W[2 * n + 19] = -INFINITY;
    ck_assert_int_eq(ff_ens(w, W, m, n, 1, 2), FR_ENONFINITE);
    ck_unchanged(w, n);
    W[2 * n + 19] = 1;
    ck_assert_int_eq(ff_ens(w, W, m, n, -1, 2), FR_EDOM);
    ck_unchanged(w, n);
    ck_assert_int_eq(ff_ens(w, W, m, n, 1, 2), FR_OK);
}
END_TEST

START_TEST(ens_errors)
{
    double w[2], W[4] = {1, 2, 3, 4};
    fill(w, 2, SENTINEL);
    ck_assert_int_eq(ff_ens(NULL, W, 2, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_ens(w, NULL, 2, 2, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_ens(w, W, 0, 2, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_ens(w, W, 2, 0, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_ens(w, W, SIZE_MAX / 4, 5, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, -1, 1), FR_EDOM);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 1, 0), FR_EDOM);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 1, -0x1p-1074), FR_EDOM);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 1, INFINITY), FR_ENONFINITE);
    W[2] = NAN;
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 1, 1), FR_ENONFINITE);
    W[2] = INFINITY;
    ck_assert_int_eq(ff_ens(w, W, 2, 2, 1, 1), FR_ENONFINITE);
    ck_unchanged(w, 2);
    /* the bound function checks the same way */
    ck_assert_int_eq(ff_ens_bound(w, W, 2, 2, 1, 1), FR_ENONFINITE);
    W[2] = 3;
    ck_assert_int_eq(ff_ens_bound(w, W, 2, 2, 0, 1), FR_EDOM);
    ck_assert_int_eq(ff_ens_bound(w, W, 2, 2, 1, NAN), FR_ENONFINITE);
    ck_assert_int_eq(ff_ens_bound(w, W, 0, 2, 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_ens_bound(NULL, W, 2, 2, 1, 1), FR_ENULL);
    ck_unchanged(w, 2);
}
END_TEST

Suite *suite_fast_closed_forms(void)
{
    Suite *s = suite_create("fast_closed_forms");
    TCase *tc;

    tc = tcase_create("ff_soft");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, soft_known_values);
    tcase_add_test(tc, soft_random_correctly_rounded);
    tcase_add_test(tc, soft_alias);
    tcase_add_test(tc, soft_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_prox_l1");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, prox_known_values);
    tcase_add_test(tc, prox_gamma_zero_is_identity);
    tcase_add_test(tc, prox_random);
    tcase_add_test(tc, prox_alias);
    tcase_add_test(tc, prox_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_median");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, median_known_values);
    tcase_add_test(tc, median_brute_force);
    tcase_add_test(tc, median_random_wide);
    tcase_add_test(tc, median_large_m);
    tcase_add_test(tc, median_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("ff_ens");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ens_worked_example);
    tcase_add_test(tc, ens_special_cases);
    tcase_add_test(tc, ens_compensated_sum);
    tcase_add_test(tc, ens_random);
    tcase_add_test(tc, ens_blocks);
    tcase_add_test(tc, ens_nonfinite_late);
    tcase_add_test(tc, ens_errors);
    suite_add_tcase(s, tc);
    return s;
}
