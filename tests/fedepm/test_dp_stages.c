/* SPDX-License-Identifier: Apache-2.0 */
/* test_dp_stages.c -- white-box: the stages of fast's DP bookkeeping
 * (fast/fedepm/dp.c, declared in fast/fedepm/dp.h) against the exact
 * value of their own inputs (GMP mpq, MPFR at HP bits):
 *   - the scaled numerator of ff_dp_sens_step_upper's overflow path: Ns >=
 *     (mu delta + Delta) 2^-j, and the quotient by a few-bit D (so that
 *     the rounded-down denominator adds no slack): >= (mu delta + Delta)/D;
 *   - the sums of the advanced bound: Q >= sum eps_j^2, E >= sum eps_j
 *     (e^eps_j - 1) with each e^eps_j - 1 given as low as the libm
 *     assumption allows (below RD by one ulp), and T >= sqrt(2 L Q) (T^2
 *     against 2 L Q exactly) for L a power of 2.
 * In the results a step rounded the wrong way is covered by the outward
 * steps around it, so ci/mutate-privacy.sh runs this suite first. */
#include <check.h>
#include <float.h>
#include <gmp.h>
#include <math.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../fast/fedepm/dp.h"

Suite *suite_dp_stages(void);

#define HP 256

static frng_t rng;
static uint64_t seed;

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

/* m 2^e, m in [1, 2) with `bits` random bits after the point */
static double draw(int e, int bits)
{
    const double m = 1 + (double)(frng_u53(&rng) >> (53 - bits)) * ldexp(1, -bits);
    return ldexp(m, e);
}

/* q = (mu delta + Delta) 2^-j / D exactly */
static void num_q(mpq_t q, double mu, double delta, double Delta, int j, double D)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_d(q, mu);
    mpq_set_d(t, delta);
    mpq_mul(q, q, t);
    mpq_set_d(t, Delta);
    mpq_add(q, q, t);
    if (j >= 0) mpq_div_2exp(q, q, (mp_bitcnt_t)j); else mpq_mul_2exp(q, q, (mp_bitcnt_t)-j);
    mpq_set_d(t, D);
    mpq_div(q, q, t);
    mpq_clear(t);
}

START_TEST(sens_overflow_path)
{
    seed = tu_rng_start(&rng, 20261204u, 51);
    mpq_t q, v;
    mpq_inits(q, v, NULL);
    for (int i = 0; i < tu_effort(3000); i++) {
        const int k = 971 + (int)below(60);              /* mu delta near 2^k */
        const int em = (int)below(40) - 10;
        const double mu = draw(em, below(2) ? 52 : 1 + (int)below(8));
        const double delta = draw(k - em, below(2) ? 52 : 1 + (int)below(8));
        double Delta;
        switch (below(4)) {
        case 0: Delta = 0; break;
        case 1: Delta = draw(k - 53 + (int)below(20), 52); break;         /* about ulp(mu delta) */
        case 2: Delta = nextafter(DBL_MAX, 0) - ldexp((double)below(1u << 20), 971); break;
        default: Delta = draw(1000 + (int)below(24), 52); break;
        }
        if (!isfinite(delta) || !isfinite(Delta) || !(Delta >= 0)) continue;
        int j;
        const double Ns = ffi_dp_sens_num_scaled(mu, delta, Delta, &j);
        num_q(q, mu, delta, Delta, j, 1);
        if (isfinite(Ns)) {
            mpq_set_d(v, Ns);
            ck_assert_msg(mpq_cmp(v, q) >= 0, "seed %llu: Ns %a below (mu delta + Delta) 2^-j (mu %a delta %a Delta %a)",
                          (unsigned long long)seed, Ns, mu, delta, Delta);
        }
        const double D = below(2) ? ldexp(1, (int)below(40) - 10) : draw((int)below(40) - 10, 1 + (int)below(6));
        const double o = ffi_dp_sens_scaled(mu, delta, Delta, D);
        num_q(q, mu, delta, Delta, 0, D);
        if (isfinite(o)) {
            mpq_set_d(v, o);
            ck_assert_msg(mpq_cmp(v, q) >= 0, "seed %llu: %a below (mu delta + Delta)/D (mu %a delta %a Delta %a D %a)",
                          (unsigned long long)seed, o, mu, delta, Delta, D);
        }
    }
    mpq_clears(q, v, NULL);
}
END_TEST

START_TEST(adv_sums)
{
    seed = tu_rng_start(&rng, 20261204u, 52);
    mpq_t q, v, t;
    mpq_inits(q, v, t, NULL);
    mpfr_t f, e, x;
    mpfr_inits2(HP, f, e, x, (mpfr_ptr)0);
    double eps[4], m[4];
    for (int i = 0; i < tu_effort(10000); i++) {
        const size_t k = below(2) ? 1 : 1 + below(4);
        mpq_set_ui(q, 0, 1);
        mpfr_set_zero(e, 1);
        for (size_t j = 0; j < k; j++) {
            eps[j] = below(8) ? draw((int)below(34) - 30, below(2) ? 52 : 1 + (int)below(10)) : 0;
            mpq_set_d(t, eps[j]);
            mpq_mul(t, t, t);
            mpq_add(q, q, t);                    /* sum eps_j^2 */
            mpfr_set_d(x, eps[j], MPFR_RNDN);
            mpfr_expm1(f, x, MPFR_RNDN);
            m[j] = nextafter(mpfr_get_d(f, MPFR_RNDD), 0);   /* f - m < 2 ulp(f) */
            mpfr_mul(f, f, x, MPFR_RNDN);
            mpfr_add(e, e, f, MPFR_RNDN);        /* sum eps_j (e^eps_j - 1) */
        }
        double Q, E;
        ffi_dp_adv_sums(&Q, &E, eps, m, k);
        mpq_set_d(v, Q);
        ck_assert_msg(mpq_cmp(v, q) >= 0, "seed %llu case %d: Q %a below sum eps^2", (unsigned long long)seed, i, Q);
        ck_assert_msg(mpfr_cmp_d(e, E) <= 0, "seed %llu case %d: E %a below sum eps (e^eps - 1)",
                      (unsigned long long)seed, i, E);
    }
    mpfr_clears(f, e, x, (mpfr_ptr)0);
    mpq_clears(q, v, t, NULL);
}
END_TEST

START_TEST(adv_T)
{
    seed = tu_rng_start(&rng, 20261204u, 53);
    mpfr_t a, b;
    mpfr_inits2(HP, a, b, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(4000); i++) {
        const double L = ldexp(1, (int)below(12) - 4), Q = draw((int)below(80) - 60, 52);
        const double T = ffi_dp_adv_T(L, Q);
        mpfr_set_d(a, T, MPFR_RNDN);
        mpfr_sqr(a, a, MPFR_RNDN);               /* exact */
        mpfr_set_d(b, Q, MPFR_RNDN);
        mpfr_mul_d(b, b, 2 * L, MPFR_RNDN);      /* exact */
        ck_assert_msg(mpfr_cmp(a, b) >= 0, "seed %llu: T(%a, %a) = %a below sqrt(2 L Q)", (unsigned long long)seed,
                      L, Q, T);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}
END_TEST

Suite *suite_dp_stages(void)
{
    Suite *s = suite_create("dp_stages");
    TCase *tc = tcase_create("stages");
    tcase_add_test(tc, sens_overflow_path);
    tcase_add_test(tc, adv_sums);
    tcase_add_test(tc, adv_T);
    suite_add_tcase(s, tc);
    return s;
}
