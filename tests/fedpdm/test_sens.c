/* SPDX-License-Identifier: Apache-2.0 */
/* test_sens.c -- the sensitivity (19) of 003 (fedpdm "sens") in both wings,
 * against an oracle that does not share their method: the exact rational
 * s = 4 eta G sum_{r<Q} |1 - eta rho|^r (GMP mpq, summed term by term from
 * the binary64 inputs), rounded by mpfr_set_q.
 *   - fr_fedpdm_sensitivity = RU(s) at 24, 53 and 200 bits, random cases
 *     with eta rho near 0, near 1, near 2 (+- a few ulps), exactly 2 and
 *     > 2 (a > 1), Q in [1, 60]; aliasing s = eta; G = -0 gives +0;
 *   - ff_fedpdm_sensitivity >= s exactly (mpq comparison) and within
 *     ff_fedpdm_sensitivity_bound; overflow is FR_ENONFINITE (s untouched)
 *     while ref stays finite;
 *   - the branch point: at eta rho = 2 exactly both wings give 4 eta Q G;
 *     one ulp either side s moves the right way (s increasing in a);
 *   - fr_fedpdm_thm3: every flag against closed forms decided in mpq (B3 =
 *     (32L - 16 + L rho)/(rho (4L - 2)), B8 over a common denominator), B2
 *     against its factored form at 300 bits; ff_fedpdm_thm3 within
 *     ff_fedpdm_thm3_bound, every ref flag set, extra flags only where |b_k|
 *     is within its bound; L = 1/2, L = rho/4, the ends of 2 sqrt 5 - 4.
 *   - fr/ff_fedpdm_path_sens: the header's recursion in exact rationals
 *     (mpq): ref >= exact, at most one ulp above RU(exact), at 24, 53, 200
 *     bits, s[0] = (19); fast >= exact within 2^-30; eta rho = 2 with Q odd
 *     (B = -1): s[t] = (3t + 2)(19)/2 exactly; G = +-0; T = 1, Q = 1; the
 *     prefix property; aliasing; fast's overflow.
 * Replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT multiplies the cases. */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fedpdm_sens(void);

static frng_t rng;
static unsigned long long seed;

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

static double rpos(int emin, int emax)
{
    return ldexp(1 + (double)frng_u53(&rng) * 0x1p-53, emin + (int)below((uint64_t)(emax - emin + 1)));
}

/* q = 4 eta G sum_{r<Q} |1 - eta rho|^r exactly. */
static void exact_s(mpq_t q, double eta, double rho, unsigned long Q, double G)
{
    mpq_t a, t, p, sum;
    mpq_inits(a, t, p, sum, NULL);
    mpq_set_d(a, eta);
    mpq_set_d(t, rho);
    mpq_mul(a, a, t);
    mpq_set_ui(t, 1, 1);
    mpq_sub(a, t, a);
    mpq_abs(a, a);
    mpq_set_ui(p, 1, 1);
    mpq_set_ui(sum, 0, 1);
    for (unsigned long r = 0; r < Q; r++) {
        mpq_add(sum, sum, p);
        mpq_mul(p, p, a);
    }
    mpq_set_d(t, eta);
    mpq_mul(sum, sum, t);
    mpq_set_d(t, G);
    mpq_mul(sum, sum, t);
    mpq_set_ui(t, 4, 1);
    mpq_mul(q, sum, t);
    mpq_clears(a, t, p, sum, NULL);
}

/* Both wings against the oracle on one input. */
static void one(double eta, double rho, unsigned long Q, double G)
{
    mpq_t q, d, b;
    mpq_inits(q, d, b, NULL);
    exact_s(q, eta, rho, Q, G);
    static const mpfr_prec_t P[3] = {24, 53, 200};
    mpfr_t e, r, g, s, want;
    mpfr_inits2(53, e, r, g, (mpfr_ptr)0);
    mpfr_set_d(e, eta, MPFR_RNDN);
    mpfr_set_d(r, rho, MPFR_RNDN);
    mpfr_set_d(g, G, MPFR_RNDN);
    for (int k = 0; k < 3; k++) {
        mpfr_inits2(P[k], s, want, (mpfr_ptr)0);
        ck_assert_int_eq(fr_fedpdm_sensitivity(s, e, r, Q, g), FR_OK);
        mpfr_set_q(want, q, MPFR_RNDU);
        if (!mpfr_equal_p(s, want) || mpfr_signbit(s))
            ck_abort_msg("seed %llu: eta %a rho %a Q %lu G %a prec %ld: ref %s", seed, eta, rho, Q, G,
                         (long)P[k], mpfr_get_str(NULL, NULL, 10, 0, s, MPFR_RNDN));
        mpfr_clears(s, want, (mpfr_ptr)0);
    }
    double fs = -1, rel, abs;
    int st = ff_fedpdm_sensitivity(&fs, eta, rho, Q, G);
    ck_assert_int_eq(st, FR_OK);
    ck_assert_int_eq(ff_fedpdm_sensitivity_bound(&rel, &abs, eta, rho, Q, G), FR_OK);
    ck_assert(!signbit(fs));
    mpq_set_d(d, fs);
    ck_assert_msg(mpq_cmp(d, q) >= 0, "seed %llu: fast %a below the exact s (eta %a rho %a Q %lu)", seed, fs,
                  eta, rho, Q);
    mpq_sub(d, d, q);                       /* fs - s >= 0 */
    mpq_set_d(b, rel);
    mpq_mul(b, b, q);
    mpq_t t;
    mpq_init(t);
    mpq_set_d(t, abs);
    mpq_add(b, b, t);
    ck_assert_msg(mpq_cmp(d, b) <= 0, "seed %llu: fast %a beyond its bound (eta %a rho %a Q %lu)", seed, fs,
                  eta, rho, Q);
    mpq_clears(q, d, b, t, NULL);
    mpfr_clears(e, r, g, (mpfr_ptr)0);
}

START_TEST(random_regimes)
{
    seed = tu_seed(20261123u);
    frng_init(&rng, seed, 31);
    for (int i = 0; i < tu_effort(300); i++) {
        double eta = rpos(-8, 2), rho;
        switch (below(5)) {
        case 0: rho = rpos(-60, -10) / eta; break;                         /* eta rho ~ 0 */
        case 1: rho = nextafter(1 / eta, (double)below(2) * 8 - 4); break; /* ~ 1 */
        case 2: {                                                          /* 2 +- k ulps */
            rho = 2 / eta;
            for (uint64_t k = below(4); k > 0; k--) rho = nextafter(rho, below(2) ? 0 : INFINITY);
            break;
        }
        case 3: rho = rpos(1, 3) / eta; break;                            /* a in (1, 15) */
        default: rho = rpos(-8, 8); break;
        }
        if (!(rho > 0) || !isfinite(rho)) continue;
        one(eta, rho, 1 + below(60), rpos(-10, 10));
    }
}
END_TEST

START_TEST(edges)
{
    seed = 0;
    one(0.25, 8, 10, 1);                        /* eta rho = 2 exactly */
    one(0.25, 8 + 0x1p-49, 10, 1);              /* 2 + 2^-51 */
    one(0.25, nextafter(8, 0), 10, 1);          /* 2 - 2^-52 */
    one(0.125, 8, 7, 3);                        /* a = 0 */
    one(0x1p-30, 0x1p-30, 1000, 1);             /* a = 1 - 2^-60 */
    one(0x1p-500, 0x1p-500, 64, 0.5);           /* a = 1 - 2^-1000: fast takes a_up = 1 */
    one(0x1p-600, 0x1p-600, 20, 0x1p-400);      /* eta G underflows in binary64 */
    one(1, 10, 5, 1);                           /* the paper at t = 0 */
    one(1 / sqrt(25.0), 10, 20, 1);             /* t = 24 */
    one(0.3, 17, 1, 0.7);                       /* Q = 1 */
    one(0.3, 17, 9, 0);                         /* G = 0 */
    one(0.3, 17, 9, -0.0);                      /* G = -0: +0 */
    /* exactly 2: both 4 eta Q G = 10 */
    double fs;
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 0.25, 8, 10, 1), FR_OK);
    ck_assert(fs == 10);                        /* exact steps add no margin */
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 1, 10, 5, 1), FR_OK);
    ck_assert(fs == 29524);                     /* the paper at t = 0: 4 (9^5 - 1)/8 */
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 0.5, 10, 10, 1), FR_OK);
    ck_assert(fs == 699050);                    /* t = 3: 2 (4^10 - 1)/3 */
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 0.3, 17, 1, 0.5), FR_OK);
    ck_assert(fs >= 4 * 0.3 * 0.5 && fs <= nextafter(4 * 0.3 * 0.5, 1));   /* Q = 1: RU(4 eta G) */
    /* s increasing in a: 2 - ulp < 2 < 2 + ulp (ref, 200 bits) */
    mpfr_t s0, s1, s2, e, g, r;
    mpfr_inits2(200, s0, s1, s2, (mpfr_ptr)0);
    mpfr_inits2(53, e, g, r, (mpfr_ptr)0);
    mpfr_set_d(e, 0.25, MPFR_RNDN);
    mpfr_set_d(g, 1, MPFR_RNDN);
    mpfr_set_d(r, nextafter(8, 0), MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(s0, e, r, 10, g), FR_OK);
    mpfr_set_d(r, 8, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(s1, e, r, 10, g), FR_OK);
    ck_assert(mpfr_cmp_ui(s1, 10) == 0);
    mpfr_set_d(r, 8 + 0x1p-49, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(s2, e, r, 10, g), FR_OK);
    ck_assert(mpfr_less_p(s0, s1) && mpfr_less_p(s1, s2));
    /* aliasing: s = eta */
    mpfr_set_d(r, 10, MPFR_RNDN);
    mpfr_set_d(e, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(e, e, r, 5, g), FR_OK);
    ck_assert(mpfr_cmp_ui(e, 29524) == 0);
    /* overflow: a = 9, Q = 400: 9^399 > DBL_MAX; ref finite, fast FR_ENONFINITE untouched */
    mpfr_set_d(e, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(s0, e, r, 400, g), FR_OK);
    ck_assert(mpfr_number_p(s0) && mpfr_get_exp(s0) > 1024);
    fs = 7;
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 1, 10, 400, 1), FR_ENONFINITE);
    ck_assert(fs == 7);
    /* Q = FR_FEDPDM_Q_MAX with a just below 1 and a = 1 + 2^-20 (finite) */
    ck_assert_int_eq(ff_fedpdm_sensitivity(&fs, 0x1p-10, 0x1p-10, FR_FEDPDM_Q_MAX, 1), FR_OK);
    mpfr_set_d(e, 0x1p-10, MPFR_RNDN);
    mpfr_set_d(r, 0x1p-10, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_sensitivity(s0, e, r, FR_FEDPDM_Q_MAX, g), FR_OK);
    ck_assert(fs >= mpfr_get_d(s0, MPFR_RNDD) && fs <= mpfr_get_d(s0, MPFR_RNDU) * (1 + 0x1p-30));
    mpfr_clears(s0, s1, s2, e, g, r, (mpfr_ptr)0);
}
END_TEST

/* The near-underflow absolute term: abs >= 2^-1070 (S_Q(a) + 1), S_Q(a) =
 * sum_{r<Q} a^r exactly (mpq), a = |1 - eta rho| in (2, 3), S_Q >= 2^50 so
 * that the term is normal and a one-ulp move of S_up shows. */
START_TEST(bound_abs_underflow)
{
    seed = tu_seed(20261204u);
    frng_init(&rng, seed, 37);
    mpq_t a, p, sum, t;
    mpq_inits(a, p, sum, t, NULL);
    for (int i = 0; i < tu_effort(200); i++) {
        const double rho = 3 + (double)frng_u53(&rng) * 0x1p-53, G = rpos(-1000, -970);
        const unsigned long Q = 50 + below(100);
        double rel, abs;
        ck_assert_int_eq(ff_fedpdm_sensitivity_bound(&rel, &abs, 1, rho, Q, G), FR_OK);
        mpq_set_d(a, rho);
        mpq_set_ui(t, 1, 1);
        mpq_sub(a, a, t);                   /* a = rho - 1 (eta = 1) */
        mpq_set_ui(p, 1, 1);
        mpq_set_ui(sum, 1, 1);              /* S_Q + 1 */
        for (unsigned long r = 0; r < Q; r++) {
            mpq_add(sum, sum, p);
            mpq_mul(p, p, a);
        }
        mpq_div_2exp(sum, sum, 1070);
        mpq_set_d(t, abs);
        ck_assert_msg(mpq_cmp(t, sum) >= 0, "seed %llu: abs %a below 2^-1070 (S_Q + 1) (rho %a Q %lu)", seed, abs,
                      rho, Q);
    }
    mpq_clears(a, p, sum, t, NULL);
}
END_TEST

/* ---- the validator of Lemma 2 / Theorem 3 ---- */

#define CRD 0x1.e3779b97f4a7cp-2    /* RD(2 sqrt 5 - 4) */

/* the flags from closed forms (exact mpq): B3 = (32L - 16 + L rho)/(rho (4L - 2)),
 * B8 = (N L^2 rho^2 + 8 (4L - 2)(N + 4 rho)) / (N rho^2 (4L - 2)) */
static unsigned flags_oracle(double L, double rho, unsigned long N)
{
    unsigned f = 0;
    mpq_t l, r, n, t, u, d;
    mpq_inits(l, r, n, t, u, d, NULL);
    mpq_set_d(l, L);
    mpq_set_d(r, rho);
    mpq_set_ui(n, N, 1);
    if (L <= CRD) f |= FR_FEDPDM_T3_L_LOW;
    if (4 * L > rho) f |= FR_FEDPDM_T3_L_HIGH;
    if (4 * L >= rho) f |= FR_FEDPDM_T3_B2_NONPOS;
    if (rho / 4 <= CRD) f |= FR_FEDPDM_T3_EMPTY;
    mpq_set_ui(t, 4, 1);
    mpq_mul(d, l, t);
    mpq_set_ui(t, 2, 1);
    mpq_sub(d, d, t);
    if (mpq_sgn(d) == 0) {
        f |= FR_FEDPDM_T3_UNDEF | FR_FEDPDM_T3_THETA1_NONPOS;
    } else {
        mpq_set_ui(t, 32, 1);
        mpq_add(t, t, r);
        mpq_mul(t, t, l);
        mpq_set_ui(u, 16, 1);
        mpq_sub(t, t, u);                               /* 32L - 16 + L rho */
        if (mpq_sgn(t) * mpq_sgn(d) <= 0) f |= FR_FEDPDM_T3_B3_NONPOS;
        mpq_mul(t, l, l);
        mpq_mul(t, t, r);
        mpq_mul(t, t, r);
        mpq_mul(t, t, n);                               /* N L^2 rho^2 */
        mpq_mul_2exp(u, r, 2);
        mpq_add(u, u, n);
        mpq_mul(u, u, d);
        mpq_mul_2exp(u, u, 3);
        mpq_add(t, t, u);
        if (mpq_sgn(t) * mpq_sgn(d) <= 0) f |= FR_FEDPDM_T3_B8_NONPOS;
        if (f & (FR_FEDPDM_T3_B2_NONPOS | FR_FEDPDM_T3_B3_NONPOS)) f |= FR_FEDPDM_T3_THETA1_NONPOS;
    }
    mpq_clears(l, r, n, t, u, d, NULL);
    return f;
}

static void thm3_one(double L, double rho, unsigned long N)
{
    fr_fedpdm_thm3_consts R;
    ff_fedpdm_thm3_consts F;
    double be[8];
    mpfr_ptr all[11];
    for (int k = 0; k < 8; k++) all[k] = R.b[k];
    all[8] = R.theta1; all[9] = R.theta2; all[10] = R.C0;
    for (int k = 0; k < 11; k++) mpfr_init2(all[k], 200);
    mpfr_t l, r;
    mpfr_inits2(53, l, r, (mpfr_ptr)0);
    mpfr_set_d(l, L, MPFR_RNDN);
    mpfr_set_d(r, rho, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm3(&R, l, r, N), FR_OK);
    ck_assert_int_eq(ff_fedpdm_thm3(&F, L, rho, N), FR_OK);
    ck_assert_int_eq(ff_fedpdm_thm3_bound(be, L, rho, N), FR_OK);
    unsigned want = flags_oracle(L, rho, N);
    ck_assert_msg(R.fail == want, "seed %llu L %a rho %a N %lu: ref flags %#x, closed forms %#x", seed, L, rho, N,
                  R.fail, want);
    ck_assert_msg((F.fail & want) == want, "fast misses a flag: L %a rho %a: %#x vs %#x", L, rho, F.fail, want);
    for (int k = 0; k < 8; k++) {
        if (mpfr_nan_p(R.b[k])) { ck_assert(isnan(F.b[k])); continue; }
        double rb = mpfr_get_d(R.b[k], MPFR_RNDN);
        mpfr_t e;
        mpfr_init2(e, 200);
        mpfr_set_d(e, F.b[k], MPFR_RNDN);
        mpfr_sub(e, e, R.b[k], MPFR_RNDN);
        ck_assert_msg(fabs(mpfr_get_d(e, MPFR_RNDA)) <= be[k], "b[%d] beyond its bound: L %a rho %a", k, L, rho);
        /* an extra flag in fast only where |b| <= its bound */
        if (k == 2 && (F.fail & ~want & FR_FEDPDM_T3_B3_NONPOS)) ck_assert(fabs(rb) <= 2 * be[k]);
        if (k == 7 && (F.fail & ~want & FR_FEDPDM_T3_B8_NONPOS)) ck_assert(fabs(rb) <= 2 * be[k]);
        mpfr_clear(e);
    }
    /* B2 through its factored form -(4L - rho)(2L + rho)/(2 rho) */
    mpfr_t f2, g2;
    mpfr_inits2(300, f2, g2, (mpfr_ptr)0);
    mpfr_mul_ui(f2, l, 4, MPFR_RNDN);
    mpfr_sub(f2, f2, r, MPFR_RNDN);
    mpfr_mul_ui(g2, l, 2, MPFR_RNDN);
    mpfr_add(g2, g2, r, MPFR_RNDN);
    mpfr_mul(f2, f2, g2, MPFR_RNDN);
    mpfr_div(f2, f2, r, MPFR_RNDN);
    mpfr_div_si(f2, f2, -2, MPFR_RNDN);
    mpfr_sub(f2, f2, R.b[1], MPFR_RNDN);
    ck_assert(mpfr_zero_p(f2) || mpfr_get_exp(f2) < mpfr_get_exp(R.b[1]) - 190 || mpfr_zero_p(R.b[1]));
    if (!(R.fail & FR_FEDPDM_T3_UNDEF) && mpfr_zero_p(R.theta1))
        ck_assert(mpfr_inf_p(R.C0) && mpfr_sgn(R.C0) > 0);
    mpfr_clears(f2, g2, l, r, (mpfr_ptr)0);
    for (int k = 0; k < 11; k++) mpfr_clear(all[k]);
}

START_TEST(thm3_random)
{
    seed = tu_seed(20261124u);
    frng_init(&rng, seed, 32);
    for (int i = 0; i < tu_effort(2000); i++) {
        double rho = rpos(-2, 6), L;
        switch (below(4)) {
        case 0: L = rpos(-3, 1); break;
        case 1: L = nextafter(0.5, below(2) ? 0 : 1); break;
        case 2: L = nextafter(rho / 4, below(2) ? 0 : INFINITY); break;
        default: L = 16 / (32 + rho); break;                    /* B3 near 0 */
        }
        thm3_one(L, rho, 1 + below(1000));
    }
}
END_TEST

START_TEST(thm3_edges)
{
    seed = 0;
    thm3_one(0.5, 10, 100);                   /* UNDEF */
    thm3_one(2.5, 10, 100);                   /* L = rho/4: B2 = 0, theta1 = 0, C0 = +Inf */
    thm3_one(CRD, 10, 100);                   /* L_LOW */
    thm3_one(nextafter(CRD, 1), 10, 100);     /* not L_LOW, B3 < 0 */
    thm3_one(1, 10, 100);                     /* the admissible case */
    thm3_one(0.6, 4 * CRD, 5);                /* EMPTY */
    thm3_one(0.6, 4 * nextafter(CRD, 1), 5);  /* not EMPTY */
    thm3_one(0.4, 1, 1);
    fr_fedpdm_thm3_consts R;
    ff_fedpdm_thm3_consts F;
    mpfr_ptr all[11];
    for (int k = 0; k < 8; k++) all[k] = R.b[k];
    all[8] = R.theta1; all[9] = R.theta2; all[10] = R.C0;
    for (int k = 0; k < 11; k++) mpfr_init2(all[k], 64);
    mpfr_t l, r;
    mpfr_inits2(53, l, r, (mpfr_ptr)0);
    mpfr_set_d(l, 2.5, MPFR_RNDN);
    mpfr_set_d(r, 10, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm3(&R, l, r, 100), FR_OK);
    ck_assert(mpfr_zero_p(R.b[1]) && mpfr_inf_p(R.C0) && (R.fail & FR_FEDPDM_T3_THETA1_NONPOS));
    ck_assert(!(R.fail & (FR_FEDPDM_T3_L_HIGH | FR_FEDPDM_T3_L_LOW)));
    ck_assert_int_eq(ff_fedpdm_thm3(&F, 2.5, 10, 100), FR_OK);
    ck_assert(F.b[1] == 0 && isinf(F.C0));
    mpfr_set_d(l, 0.5, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm3(&R, l, r, 100), FR_OK);
    ck_assert(mpfr_nan_p(R.b[2]) && mpfr_nan_p(R.b[7]) && mpfr_nan_p(R.C0) && (R.fail & FR_FEDPDM_T3_UNDEF));
    /* the whole admissible range [2 sqrt 5 - 4, 1/2) has B3 < 0 (rho = 10) */
    mpfr_set_d(l, nextafter(CRD, 1), MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_thm3(&R, l, r, 100), FR_OK);
    ck_assert(mpfr_sgn(R.b[2]) < 0 && mpfr_sgn(R.b[7]) < 0 && R.fail == (FR_FEDPDM_T3_B3_NONPOS | FR_FEDPDM_T3_B8_NONPOS | FR_FEDPDM_T3_THETA1_NONPOS));
    mpfr_clears(l, r, (mpfr_ptr)0);
    for (int k = 0; k < 11; k++) mpfr_clear(all[k]);
}
END_TEST

/* ---- the whole-path sensitivity (fr/ff_fedpdm_path_sens) ------------------
 * Oracle: the recursion of the header in exact rationals (B_t = (1 - eta^t
 * rho)^Q and W_t = exact_s / 2 as mpq, |.| and max exact), independent of
 * both wings' enclosures. */
static void path_exact(mpq_t *q, const double *eta, unsigned long T, double rho, unsigned long Q, double G,
                       int start)
{
    mpq_t B, W, xb, lb, c, u, v, nx, nl, one;
    mpq_inits(B, W, xb, lb, c, u, v, nx, nl, one, NULL);
    mpq_set_ui(one, 1, 1);
    for (unsigned long t = 0; t < T; t++) {
        exact_s(W, eta[t], rho, Q, G);
        mpq_div_2exp(W, W, 1);
        mpq_set_d(c, eta[t]);
        mpq_set_d(u, rho);
        mpq_mul(c, c, u);
        mpq_sub(c, one, c);                       /* b */
        mpq_set_ui(B, 1, 1);
        for (unsigned long r = 0; r < Q; r++) mpq_mul(B, B, c);
        /* s = |2B| Xb + |1 - 2B| Lb + 2W */
        mpq_mul_2exp(u, B, 1);
        mpq_sub(u, one, u);
        mpq_abs(u, u);
        mpq_mul(q[t], u, lb);
        mpq_mul_2exp(u, W, 1);
        mpq_add(q[t], q[t], u);
        if (start == FR_PDM_START_XI) {
            mpq_mul_2exp(u, B, 1);
            mpq_abs(u, u);
            mpq_mul(u, u, xb);
            mpq_add(q[t], q[t], u);
        }
        mpq_abs(v, B);
        if (start == FR_PDM_START_XI) {
            mpq_sub(u, one, B);
            mpq_abs(u, u);
            mpq_mul(nx, u, lb);
            mpq_mul(u, v, xb);
            mpq_add(nx, nx, u);
            mpq_add(nx, nx, W);
            mpq_mul(nl, v, lb);
            mpq_add(nl, nl, u);
            mpq_add(nl, nl, W);
            if (mpq_cmp(nx, xb) > 0) mpq_set(xb, nx);
        } else {
            mpq_mul(nl, v, lb);
            mpq_add(nl, nl, W);
        }
        if (mpq_cmp(nl, lb) > 0) mpq_set(lb, nl);
    }
    mpq_clears(B, W, xb, lb, c, u, v, nx, nl, one, NULL);
}

/* both wings against path_exact: ref at 24, 53, 200 bits >= exact and at
 * most nextabove(RU(exact)); fast >= exact within 2^-40 relative */
static void path_one(const double *eta, unsigned long T, double rho, unsigned long Q, double G, int start)
{
    mpq_t q[32], d;
    for (unsigned long t = 0; t < T; t++) mpq_init(q[t]);
    mpq_init(d);
    path_exact(q, eta, T, rho, Q, G, start);
    static const mpfr_prec_t P[3] = {24, 53, 200};
    mpfr_t e[32], s[32], r, g, w;
    for (unsigned long t = 0; t < T; t++) {
        mpfr_init2(e[t], 53);
        mpfr_set_d(e[t], eta[t], MPFR_RNDN);
    }
    mpfr_inits2(53, r, g, (mpfr_ptr)0);
    mpfr_set_d(r, rho, MPFR_RNDN);
    mpfr_set_d(g, G, MPFR_RNDN);
    for (int k = 0; k < 3; k++) {
        for (unsigned long t = 0; t < T; t++) mpfr_init2(s[t], P[k]);
        mpfr_init2(w, P[k]);
        ck_assert_int_eq(fr_fedpdm_path_sens(s, e, T, r, Q, g, start), FR_OK);
        for (unsigned long t = 0; t < T; t++) {
            mpfr_set_q(w, q[t], MPFR_RNDU);
            int lo_ok = mpfr_cmp(s[t], w) >= 0 && !mpfr_signbit(s[t]);
            mpfr_nextabove(w);
            if (mpfr_zero_p(s[t])) mpfr_set_zero(w, 1);
            if (!lo_ok || mpfr_cmp(s[t], w) > 0)
                ck_abort_msg("seed %llu: path_sens ref t %lu (T %lu Q %lu rho %a start %d prec %ld): %g vs exact %g",
                             seed, t, T, Q, rho, start, (long)P[k], mpfr_get_d(s[t], MPFR_RNDN), mpq_get_d(q[t]));
        }
        if (k == 1) {                                         /* s[0] = (19) exactly */
            mpfr_set_prec(w, 53);
            ck_assert_int_eq(fr_fedpdm_sensitivity(w, e[0], r, Q, g), FR_OK);
            ck_assert(mpfr_equal_p(w, s[0]));
        }
        for (unsigned long t = 0; t < T; t++) mpfr_clear(s[t]);
        mpfr_clear(w);
    }
    double fs[32];
    ck_assert_int_eq(ff_fedpdm_path_sens(fs, eta, T, rho, Q, G, start), FR_OK);
    for (unsigned long t = 0; t < T; t++) {
        mpq_set_d(d, fs[t]);
        ck_assert_msg(mpq_cmp(d, q[t]) >= 0 && !signbit(fs[t]), "seed %llu: fast path_sens t %lu below exact", seed, t);
        mpq_set_d(d, 1 + 0x1p-30);                 /* the vector's empirical tol */
        mpq_mul(d, d, q[t]);
        mpq_t f;
        mpq_init(f);
        mpq_set_d(f, fs[t]);
        ck_assert_msg(mpq_cmp(f, d) <= 0, "seed %llu: fast path_sens t %lu %a too far above %g", seed, t, fs[t],
                      mpq_get_d(q[t]));
        mpq_clear(f);
    }
    for (unsigned long t = 0; t < T; t++) {
        mpq_clear(q[t]);
        mpfr_clear(e[t]);
    }
    mpq_clear(d);
    mpfr_clears(r, g, (mpfr_ptr)0);
}

START_TEST(path_random)
{
    seed = tu_seed(20261123u);
    frng_init(&rng, seed, 32);
    for (int i = 0; i < tu_effort(40); i++) {
        unsigned long T = 1 + below(25), Q = 1 + below(10);
        double eta[32], rho = rpos(-2, 4);
        const uint64_t kind = below(4);
        for (unsigned long t = 0; t < T; t++) {
            switch (kind) {
            case 0: eta[t] = t == 0 ? rpos(-6, 0) : eta[0]; break;            /* constant */
            case 1: eta[t] = 1 / sqrt((double)t + 1); break;                  /* the paper's */
            case 2: eta[t] = t == 0 ? 2 / rho : eta[0]; break;                /* eta rho = 2 */
            default: eta[t] = rpos(-6, 0); break;                            /* random */
            }
        }
        path_one(eta, T, rho, Q, rpos(-4, 4), (int)below(2));
    }
}
END_TEST

START_TEST(path_edges)
{
    seed = 0;
    double eta[32];
    /* eta rho = 2, Q = 3 (B = -1), start X0: s[t] = (3t + 2) W, W = 3/2, exact in both wings */
    for (int t = 0; t < 8; t++) eta[t] = 0.25;
    double fs[8];
    mpfr_t e[8], s[8], r, g;
    mpfr_inits2(53, r, g, (mpfr_ptr)0);
    mpfr_set_ui(r, 8, MPFR_RNDN);
    mpfr_set_ui(g, 1, MPFR_RNDN);
    for (int t = 0; t < 8; t++) {
        mpfr_inits2(53, e[t], s[t], (mpfr_ptr)0);
        mpfr_set_d(e[t], 0.25, MPFR_RNDN);
    }
    ck_assert_int_eq(fr_fedpdm_path_sens(s, e, 8, r, 3, g, FR_PDM_START_X0), FR_OK);
    ck_assert_int_eq(ff_fedpdm_path_sens(fs, eta, 8, 8, 3, 1, FR_PDM_START_X0), FR_OK);
    for (int t = 0; t < 8; t++) {
        ck_assert(mpfr_cmp_d(s[t], 1.5 * (3 * t + 2)) == 0);
        ck_assert(fs[t] == 1.5 * (3 * t + 2));
    }
    /* the prefix property (causal recursion) and aliasing s = eta (ref) */
    ck_assert_int_eq(fr_fedpdm_path_sens(e, e, 5, r, 3, g, FR_PDM_START_X0), FR_OK);
    for (int t = 0; t < 5; t++) ck_assert(mpfr_equal_p(e[t], s[t]));
    {   /* fast: s may be eta */
        double al[5] = {0.25, 0.25, 0.25, 0.25, 0.25};
        ck_assert_int_eq(ff_fedpdm_path_sens(al, al, 5, 8, 3, 1, FR_PDM_START_X0), FR_OK);
        for (int t = 0; t < 5; t++) ck_assert(al[t] == 1.5 * (3 * t + 2));
    }
    /* G = +-0: every s[t] = +0 in both wings */
    for (int t = 0; t < 8; t++) mpfr_set_d(e[t], 0.3 + t, MPFR_RNDN);
    for (int z = 0; z < 2; z++) {
        mpfr_set_d(g, z ? -0.0 : 0.0, MPFR_RNDN);
        for (int st = 0; st < 2; st++) {
            ck_assert_int_eq(fr_fedpdm_path_sens(s, e, 8, r, 4, g, st), FR_OK);
            ck_assert_int_eq(ff_fedpdm_path_sens(fs, eta, 8, 8, 4, z ? -0.0 : 0.0, st), FR_OK);
            for (int t = 0; t < 8; t++) ck_assert(mpfr_zero_p(s[t]) && !mpfr_signbit(s[t]) && fs[t] == 0 && !signbit(fs[t]));
        }
    }
    /* constant eta: the bounds only grow, s[t] nondecreasing; XI >= X0 */
    for (int t = 0; t < 8; t++) eta[t] = 0.013;
    double fx[8];
    ck_assert_int_eq(ff_fedpdm_path_sens(fs, eta, 8, 10, 5, 1, FR_PDM_START_X0), FR_OK);
    ck_assert_int_eq(ff_fedpdm_path_sens(fx, eta, 8, 10, 5, 1, FR_PDM_START_XI), FR_OK);
    for (int t = 1; t < 8; t++) ck_assert(fs[t] >= fs[t - 1] && fx[t] >= fx[t - 1] && fx[t] >= fs[t]);
    /* T = 1, Q = 1 */
    path_one(eta, 1, 10, 1, 1, FR_PDM_START_XI);
    path_one(eta, 1, 10, 7, 1, FR_PDM_START_X0);
    /* fast overflow: a = 9, Q = 300 (9^300 ~ 1.9e286): FR_ENONFINITE, s untouched; ref finite */
    for (int t = 0; t < 3; t++) { eta[t] = 1; fs[t] = -7; mpfr_set_ui(e[t], 1, MPFR_RNDN); }
    ck_assert_int_eq(ff_fedpdm_path_sens(fs, eta, 3, 10, 300, 1, FR_PDM_START_X0), FR_ENONFINITE);
    ck_assert(fs[0] == -7 && fs[2] == -7);
    mpfr_set_ui(r, 10, MPFR_RNDN);
    mpfr_set_ui(g, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_path_sens(s, e, 3, r, 300, g, FR_PDM_START_X0), FR_OK);
    ck_assert(mpfr_number_p(s[2]) && mpfr_cmp_d(s[2], 1e300) > 0);
    for (int t = 0; t < 8; t++) mpfr_clears(e[t], s[t], (mpfr_ptr)0);
    mpfr_clears(r, g, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_sens(void)
{
    Suite *s = suite_create("fedpdm_sens");
    TCase *tc = tcase_create("sensitivity19");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_regimes);
    tcase_add_test(tc, edges);
    tcase_add_test(tc, bound_abs_underflow);
    tcase_add_test(tc, thm3_random);
    tcase_add_test(tc, thm3_edges);
    tcase_add_test(tc, path_random);
    tcase_add_test(tc, path_edges);
    suite_add_tcase(s, tc);
    return s;
}
