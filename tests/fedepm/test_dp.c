/* SPDX-License-Identifier: Apache-2.0 */
/* test_dp.c -- the privacy bookkeeping of FedEPM (docs/FEDEPM.md section 9)
 * in both wings, against oracles that do not share their method:
 *   - fr_dp_sens_step: the exact rational (mu delta + Delta)/(eta + mu)
 *     (GMP mpq) rounded by mpfr_set_q, in every direction; aliasing;
 *   - ff_dp_sens_step_upper: >= that rational (exact comparison), within
 *     its bound function, whose absolute term is >= 2^-1071/(eta + mu) +
 *     2^-1073 exactly;
 *   - fr_dp_compose / ff_dp_compose_upper: basic from an mpq sum; adv from
 *     a naive enclosure at 4p + 64 bits (ln via 1/delta, e^x - 1 via exp,
 *     plain loops; every operation rounded outward), +Inf and 0 cases;
 *   - the runs: every scale nu and loss of the trace against the same
 *     quantities recomputed from the definitions with mpq (mu_k = mu0
 *     alpha^k exact, then rounded as the contract says): (27) with c = 0
 *     (nu = RU(Delta_i/(eps mu_K)): a scale rounded down, or to nearest,
 *     in ref/fedepm/rounds.c fails here: Delta/(eps mu) is inexact), the
 *     certified rule (S_i by the recursion rounded up each step, nu =
 *     RU(S_i/eps)), fast's scales >= the exact calibration of its own
 *     mu^; the special accounts of (39), no noise, (27) with c > 0, the
 *     stopping rule and the baselines; the certified rule's domain.
 * Replayable: FEDREF_SEED=<n> (printed on failure); FEDREF_TEST_EFFORT
 * multiplies the random cases. */
#include <check.h>
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_dp(void);

static frng_t rng;
static unsigned long long seed;

#define SUITE_SEED 20240607u    /* the seed without FEDREF_SEED */

static int effort(int n) { return tu_effort(n); }

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

/* A positive binary64 m 2^e, m in [1, 2) with random bits, e in [emin, emax]. */
static double rpos(int emin, int emax)
{
    return ldexp(1 + (double)frng_u53(&rng) * 0x1p-53, emin + (int)below((uint64_t)(emax - emin + 1)));
}

static const mpfr_rnd_t RNDS[5] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD, MPFR_RNDA};

/* q = (mu delta + Delta)/(eta + mu), exactly. */
static void sens_q(mpq_t q, double delta, double Delta, double eta, double mu)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_d(a, mu);
    mpq_set_d(b, delta);
    mpq_mul(q, a, b);
    mpq_set_d(b, Delta);
    mpq_add(q, q, b);
    mpq_set_d(b, eta);
    mpq_add(b, b, a);
    mpq_div(q, q, b);
    mpq_clears(a, b, NULL);
}

/* ---- fr_dp_sens_step / ff_dp_sens_step_upper ------------------------------ */

/* mu delta overflows inside, the answer fits: eta = 1, mu = 4, Delta = 1,
 * delta in [1e308, 1.5e308] gives 0.8 delta (fast returned +Inf with
 * FR_OK): fast >= the exact value, within its bound (rel 2^-49). */
START_TEST(sens_step_overflow_inside)
{
    static const double D[][4] = {{1e308, 1, 1, 4}, {1.5e308, 1, 1, 4}, {1.25e308, 0, 3, 5},
                                  {DBL_MAX, DBL_MAX, 1e300, 2}, {0x1p1000, 0x1p-1074, 1, 0x1p30}};
    mpq_t q;
    mpq_init(q);
    mpfr_t want;
    mpfr_init2(want, 53);
    for (size_t i = 0; i < sizeof D / sizeof D[0]; i++) {
        sens_q(q, D[i][0], D[i][1], D[i][2], D[i][3]);
        mpfr_set_q(want, q, MPFR_RNDU);
        double o, rel, abs;
        ck_assert_int_eq(ff_dp_sens_step_upper(&o, D[i][0], D[i][1], D[i][2], D[i][3]), FR_OK);
        ck_assert_int_eq(ff_dp_sens_step_upper_bound(&rel, &abs, D[i][0], D[i][1], D[i][2], D[i][3]),
                         FR_OK);
        ck_assert_msg(mpfr_number_p(want) && isfinite(o), "case %zu: %g", i, o);
        ck_assert_msg(o >= mpfr_get_d(want, MPFR_RNDU), "case %zu: fast below the exact value", i);
        ck_assert_msg(o <= mpfr_get_d(want, MPFR_RNDU) * (1 + rel) + abs, "case %zu: fast %.17g", i, o);
    }
    mpfr_clear(want);
    mpq_clear(q);
}
END_TEST

/* The absolute term of ff_dp_sens_step_upper_bound: abs >= 2^-1071/(eta +
 * mu) + 2^-1073 exactly, eta + mu from 2^-1021 (abs near 2^-50) to 2^10
 * (abs subnormal), powers of 2 among them. */
START_TEST(sens_step_bound_abs)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 33);
    mpq_t b, t;
    mpq_inits(b, t, NULL);
    for (int c = 0; c < effort(3000); c++) {
        const int e = -1021 + (int)below(1032);
        const double eta = below(2) ? ldexp(1, e - 1) : rpos(e - 1, e - 1), mu = below(2) ? eta : rpos(e - 1, e - 1);
        double rel, abs;
        ck_assert_int_eq(ff_dp_sens_step_upper_bound(&rel, &abs, 1, 1, eta, mu), FR_OK);
        mpq_set_d(b, eta);
        mpq_set_d(t, mu);
        mpq_add(b, b, t);
        mpq_inv(b, b);
        mpq_div_2exp(b, b, 1071);
        mpq_set_ui(t, 1, 1);
        mpq_div_2exp(t, t, 1073);
        mpq_add(b, b, t);
        mpq_set_d(t, abs);
        ck_assert_msg(mpq_cmp(t, b) >= 0, "abs %a below 2^-1071/(eta + mu) + 2^-1073 (eta %a mu %a) [FEDREF_SEED=%llu]",
                      abs, eta, mu, seed);
    }
    mpq_clears(b, t, NULL);
}
END_TEST

START_TEST(sens_step_against_mpq)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 31);
    mpq_t q, r;
    mpq_inits(q, r, NULL);
    mpfr_t out, want, d, D, e, m;
    mpfr_inits2(53, d, D, e, m, (mpfr_ptr)0);
    mpfr_inits2(64, out, want, (mpfr_ptr)0);
    for (int c = 0; c < effort(3000); c++) {
        double delta = below(8) ? rpos(-40, 40) : 0, Delta = below(8) ? rpos(-40, 10) : 0;
        double eta = rpos(-30, 5), mu = rpos(-10, 20);
        if (c % 7 == 0) {                            /* extremes: subnormal and huge */
            delta = below(2) ? ldexp(1, -1070) : rpos(900, 1000);
            eta = rpos(-1021, -1000);
        }
        mpfr_prec_t p = 2 + (mpfr_prec_t)below(200);
        mpfr_set_prec(out, p);
        mpfr_set_prec(want, p);
        mpfr_set_d(d, delta, MPFR_RNDN);
        mpfr_set_d(D, Delta, MPFR_RNDN);
        mpfr_set_d(e, eta, MPFR_RNDN);
        mpfr_set_d(m, mu, MPFR_RNDN);
        sens_q(q, delta, Delta, eta, mu);
        for (int k = 0; k < 5; k++) {
            ck_assert_int_eq(fr_dp_sens_step(out, d, D, e, m, RNDS[k]), FR_OK);
            mpfr_set_q(want, q, RNDS[k]);
            ck_assert_msg(mpfr_equal_p(out, want), "case %d rnd %d [FEDREF_SEED=%llu]", c, k, seed);
        }
        /* out aliasing delta */
        mpfr_set_prec(out, 53);
        mpfr_set_d(out, delta, MPFR_RNDN);
        ck_assert_int_eq(fr_dp_sens_step(out, out, D, e, m, MPFR_RNDU), FR_OK);
        mpfr_set_prec(want, 53);
        mpfr_set_q(want, q, MPFR_RNDU);
        ck_assert(mpfr_equal_p(out, want));
        /* fast: exact <= out <= exact (1 + rel) + abs */
        double f, rel, abs;
        ck_assert_int_eq(ff_dp_sens_step_upper(&f, delta, Delta, eta, mu), FR_OK);
        if (isinf(f)) {
            ck_assert(mpq_get_d(q) > 0x1p1000);      /* only near overflow */
            continue;
        }
        mpq_set_d(r, f);
        ck_assert_msg(mpq_cmp(r, q) >= 0, "fast below the exact value, case %d [FEDREF_SEED=%llu]",
                      c, seed);
        if (ff_dp_sens_step_upper_bound(&rel, &abs, delta, Delta, eta, mu) == FR_OK) {
            mpq_t b;
            mpq_init(b);
            mpq_set_d(b, 1 + rel);
            mpq_mul(b, b, q);
            mpq_set_d(r, abs);
            mpq_add(b, b, r);
            mpq_set_d(r, f);
            ck_assert_msg(mpq_cmp(r, b) <= 0, "fast above its bound, case %d [FEDREF_SEED=%llu]",
                          c, seed);
            mpq_clear(b);
        }
    }
    mpfr_clears(out, want, d, D, e, m, (mpfr_ptr)0);
    mpq_clears(q, r, NULL);
}
END_TEST

/* ---- fr_dp_compose / ff_dp_compose_upper ---------------------------------- */

/* The naive enclosure [lo, hi] of adv at precision wp: each operation
 * rounded outward; another evaluation order than the library's. */
static void adv_naive(mpfr_t lo, mpfr_t hi, const double *eps, size_t k, double delta,
                      mpfr_prec_t wp)
{
    for (int side = 0; side < 2; side++) {
        const mpfr_rnd_t r = side ? MPFR_RNDU : MPFR_RNDD;
        mpfr_t L, Q, E, t, x;
        mpfr_inits2(wp, L, Q, E, t, x, (mpfr_ptr)0);
        mpfr_set_d(x, delta, MPFR_RNDN);
        mpfr_ui_div(L, 1, x, r);                        /* 1/delta */
        mpfr_log(L, L, r);
        mpfr_set_zero(Q, 1);
        mpfr_set_zero(E, 1);
        for (size_t j = 0; j < k; j++) {
            mpfr_set_d(x, eps[j], MPFR_RNDN);
            mpfr_mul(t, x, x, r);
            mpfr_add(Q, Q, t, r);
            mpfr_exp(t, x, r);
            mpfr_sub_ui(t, t, 1, r);
            mpfr_mul(t, t, x, r);
            mpfr_add(E, E, t, r);
        }
        mpfr_mul(t, L, Q, r);
        mpfr_mul_ui(t, t, 2, r);
        mpfr_sqrt(t, t, r);
        mpfr_add(side ? hi : lo, t, E, r);
        mpfr_clears(L, Q, E, t, x, (mpfr_ptr)0);
    }
}

START_TEST(compose_against_oracle)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 32);
    mpfr_t b, a, w, lo, hi, rl, rh, dl;
    mpfr_t *E = malloc(40 * sizeof *E);
    double eps[40];
    mpq_t s, f;
    mpq_inits(s, f, NULL);
    mpfr_init2(dl, 53);
    mpfr_inits2(64, b, a, w, rl, rh, (mpfr_ptr)0);
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    for (size_t j = 0; j < 40; j++)
        mpfr_init2(E[j], 53);
    for (int c = 0; c < effort(600); c++) {
        size_t k = 1 + below(40);
        int eq = below(3) == 0;
        for (size_t j = 0; j < k; j++) {
            eps[j] = below(10) == 0 ? 0 : rpos(-12, 3);
            if (eq)
                eps[j] = eps[0];
            mpfr_set_d(E[j], eps[j], MPFR_RNDN);
        }
        double delta = rpos(-40, -2);
        mpfr_set_d(dl, delta, MPFR_RNDN);
        mpfr_prec_t p = 2 + (mpfr_prec_t)below(150);
        mpfr_set_prec(b, p);
        mpfr_set_prec(a, p);
        mpfr_set_prec(w, p);
        mpfr_set_prec(rl, p);
        mpfr_set_prec(rh, p);
        mpq_set_ui(s, 0, 1);
        int pos = 0;
        for (size_t j = 0; j < k; j++) {
            mpq_set_d(f, eps[j]);
            mpq_add(s, s, f);
            pos |= eps[j] > 0;
        }
        mpfr_prec_t wp = 4 * p + 64;
        for (int k5 = 0; k5 < 5; k5++) {
            ck_assert_int_eq(fr_dp_compose(b, a, E, k, dl, RNDS[k5]), FR_OK);
            mpfr_set_q(w, s, RNDS[k5]);
            ck_assert_msg(mpfr_equal_p(b, w), "basic, case %d [FEDREF_SEED=%llu]", c, seed);
            if (!pos) {
                ck_assert(mpfr_zero_p(a));
                continue;
            }
            for (;; wp *= 2) {                       /* the oracle's own enclosure */
                mpfr_set_prec(lo, wp);
                mpfr_set_prec(hi, wp);
                adv_naive(lo, hi, eps, k, delta, wp);
                mpfr_set(rl, lo, RNDS[k5]);
                mpfr_set(rh, hi, RNDS[k5]);
                if (mpfr_equal_p(rl, rh))
                    break;
                ck_assert_msg(wp < 100000, "oracle undecided [FEDREF_SEED=%llu]", seed);
            }
            ck_assert_msg(mpfr_equal_p(a, rl), "adv, case %d rnd %d [FEDREF_SEED=%llu]", c, k5, seed);
        }
        /* fast: upper bounds within the bound function */
        double fb, fa, rel, abs;
        ck_assert_int_eq(ff_dp_compose_upper(&fb, &fa, eps, k, delta), FR_OK);
        mpq_set_d(f, fb);
        ck_assert_msg(mpq_cmp(f, s) >= 0, "fast basic below, case %d [FEDREF_SEED=%llu]", c, seed);
        if (pos) {
            mpfr_set_prec(rh, 53);
            mpfr_set_d(rh, fa, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp(rh, hi) >= 0, "fast adv below, case %d [FEDREF_SEED=%llu]", c, seed);
        } else {
            ck_assert(fa == 0);
        }
        ck_assert_int_eq(ff_dp_compose_upper_bound(&rel, &abs, eps, k, delta), FR_OK);
        ck_assert(fb <= mpq_get_d(s) * (1 + rel) * (1 + 0x1p-52) + abs);
        ck_assert(fa <= mpfr_get_d(lo, MPFR_RNDU) * (1 + rel) * (1 + 0x1p-52) + abs);
    }
    /* +Inf: both totals +Inf in both wings; -Inf and NaN refused */
    mpfr_set_prec(b, 53);
    mpfr_set_prec(a, 53);
    mpfr_set_d(E[0], 0.5, MPFR_RNDN);
    mpfr_set_inf(E[1], 1);
    mpfr_set_d(dl, 1e-5, MPFR_RNDN);
    ck_assert_int_eq(fr_dp_compose(b, a, E, 2, dl, MPFR_RNDU), FR_OK);
    ck_assert(mpfr_inf_p(b) && mpfr_inf_p(a) && mpfr_sgn(a) > 0);
    double fb, fa, e2[2] = {0.5, INFINITY};
    ck_assert_int_eq(ff_dp_compose_upper(&fb, &fa, e2, 2, 1e-5), FR_OK);
    ck_assert(isinf(fb) && isinf(fa) && fa > 0);
    /* equal losses: the homogeneous DRV formula sqrt(2 k ln(1/delta)) eps +
     * k eps (e^eps - 1), k = 25, eps = 1/8, delta = 2^-20 */
    for (size_t j = 0; j < 25; j++) {
        eps[j] = 0.125;
        mpfr_set_d(E[j], 0.125, MPFR_RNDN);
    }
    mpfr_set_d(dl, 0x1p-20, MPFR_RNDN);
    mpfr_set_prec(a, 100);
    ck_assert_int_eq(fr_dp_compose(b, a, E, 25, dl, MPFR_RNDN), FR_OK);
    mpfr_set_prec(w, 200);
    mpfr_set_prec(lo, 200);
    mpfr_const_log2(w, MPFR_RNDN);
    mpfr_mul_ui(w, w, 2 * 25 * 20, MPFR_RNDN);                   /* 2 k ln(1/delta) */
    mpfr_sqrt(w, w, MPFR_RNDN);
    mpfr_div_2ui(w, w, 3, MPFR_RNDN);
    mpfr_set_d(lo, 0.125, MPFR_RNDN);
    mpfr_expm1(lo, lo, MPFR_RNDN);
    mpfr_mul_d(lo, lo, 25 * 0.125, MPFR_RNDN);
    mpfr_add(w, w, lo, MPFR_RNDN);
    mpfr_sub(w, w, a, MPFR_RNDN);
    mpfr_abs(w, w, MPFR_RNDN);
    ck_assert(mpfr_cmp_d(w, 0x1p-95) < 0);
    for (size_t j = 0; j < 40; j++)
        mpfr_clear(E[j]);
    free(E);
    mpfr_clears(b, a, w, lo, hi, rl, rh, dl, (mpfr_ptr)0);
    mpq_clears(s, f, NULL);
}
END_TEST

/* ---- the runs ------------------------------------------------------------ */

typedef struct {
    size_t d[8];
    double *X, *b, Delta[8];
    fr_logreg P;
} prob;

static void prob_make(prob *q, uint64_t sd, size_t m, size_t n)
{
    ck_assert_int_eq(fr_synth_sizes(sd, m, 3, 7, q->d), FR_OK);
    size_t D = 0;
    for (size_t i = 0; i < m; i++) {
        D += q->d[i];
        q->Delta[i] = 2.0 / (double)q->d[i];
    }
    q->X = malloc(D * n * sizeof *q->X);
    q->b = malloc(D * sizeof *q->b);
    ck_assert(q->X && q->b);
    ck_assert_int_eq(fr_synth_data(sd, m, n, q->d, q->X, q->b), FR_OK);
    q->P = (fr_logreg){.m = m, .n = n, .d = q->d, .X = q->X, .b = q->b, .beta = 1e-3};
}

static void prob_free(prob *q)
{
    free(q->X);
    free(q->b);
}

/* The parameters: eps * mu and Delta/(eps mu) inexact (eps = 0.1). */
static fr_fedepm_params dp_params(const prob *q, int noise, double c)
{
    return (fr_fedepm_params){
        .k0 = 3, .rounds = 5, .nsel = 2, .lambda = 6e-6, .eta = 1.2e-5, .mu0 = 0.05, .c = c,
        .alpha = 1.001, .eps = 0.1, .noise = noise, .Delta = q->Delta, .stopping = 0,
        .seed = 7, .mu_prox = 1e-5, .ell = 2};
}

/* mu_k = mu0 alpha^k exactly. */
static void mu_exact(mpq_t mu, double mu0, double alpha, unsigned long k)
{
    mpq_t a;
    mpq_init(a);
    mpq_set_d(a, alpha);
    mpz_pow_ui(mpq_numref(a), mpq_numref(a), k);
    mpz_pow_ui(mpq_denref(a), mpq_denref(a), k);
    mpq_canonicalize(a);
    mpq_set_d(mu, mu0);
    mpq_mul(mu, mu, a);
    mpq_clear(a);
}

/* x = the value q rounded to p bits in direction rnd, as an mpq. */
static void q_round(mpq_t x, const mpq_t q, mpfr_prec_t p, mpfr_rnd_t rnd)
{
    mpfr_t t;
    mpfr_init2(t, p);
    mpfr_set_q(t, q, rnd);
    mpfr_get_q(x, t);
    mpfr_clear(t);
}

/* 1 iff x (mpfr) equals the rational q. */
static int eq_q(const mpfr_t x, const mpq_t q)
{
    if (!mpfr_number_p(x))
        return 0;
    mpq_t t;
    mpq_init(t);
    mpfr_get_q(t, x);
    int r = mpq_equal(t, q);
    mpq_clear(t);
    return r;
}

/* Does client i run the block of round r (row r - 1)?  Its position q. */
static int in_row(const size_t *sel, size_t nsel, size_t row, size_t i, size_t *q)
{
    for (size_t k = 0; k < nsel; k++)
        if (sel[row * nsel + k] == i) {
            *q = k;
            return 1;
        }
    return 0;
}

/* ref, (27) with c = 0 and the certified rule: every nu and loss of the
 * trace equals the definition recomputed with mpq (mu^_k = RN_p(mu0
 * alpha^k); (27): nu = RU_p(Delta_i/(eps mu^_K)); certified: S rounded up
 * at each update, nu = RU_p(S/eps); loss = RU_p(S/nu)), and the totals
 * basic = RU_p(sum of the client's losses).  A scale rounded down or to
 * nearest in ref/fedepm/rounds.c fails: the quotients are inexact. */
static void ref_scales(int noise)
{
    prob q;
    prob_make(&q, 5, 4, 2);
    fr_fedepm_params prm = dp_params(&q, noise, 0);
    const mpfr_prec_t p = 113;
    fr_fedepm_trace t;
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, p), FR_OK);
    ck_assert_int_eq(fr_fedepm_run(&t, &q.P, &prm), FR_OK);
    mpq_t mu, muh, S, x, y, e, D, et, sum;
    mpq_inits(mu, muh, S, x, y, e, D, et, sum, NULL);
    mpq_set_d(e, prm.eps);
    mpq_set_d(et, prm.eta);
    unsigned long inexact = 0;
    for (size_t i = 0; i < q.P.m; i++) {
        mpq_set_d(D, q.Delta[i]);
        mpq_set_ui(S, 0, 1);
        mpq_set_ui(sum, 0, 1);
        /* z_i^0: (27) Delta_i/(eps mu0) rounded up, loss 0; certified: no noise */
        if (noise == FR_NOISE_EQ27) {
            mpq_set_d(x, prm.mu0);
            mpq_mul(x, x, e);
            mpq_div(x, D, x);
            q_round(y, x, p, MPFR_RNDU);
            ck_assert(eq_q(t.nu0[i], y));
        } else {
            ck_assert(mpfr_zero_p(t.nu0[i]));
        }
        ck_assert(mpfr_zero_p(t.loss0[i]));
        for (size_t row = 0; row + 1 < t.rounds; row++) {
            size_t qq;
            if (!in_row(t.sel, t.nsel, row, i, &qq))
                continue;
            for (unsigned long k = row * prm.k0; k < (row + 1) * prm.k0; k++) {
                mu_exact(mu, prm.mu0, prm.alpha, k + 1);
                q_round(muh, mu, p, MPFR_RNDN);          /* fr_fedepm_mu's value */
                mpq_mul(S, S, muh);
                mpq_add(S, S, D);
                mpq_add(x, et, muh);
                mpq_div(S, S, x);
                q_round(S, S, p, MPFR_RNDU);             /* fr_dp_sens_step, RNDU */
            }
            mpfr_ptr nu = t.nu[row * t.nsel + qq], L = t.loss[row * t.nsel + qq];
            if (noise == FR_NOISE_EQ27) {
                mpq_mul(x, e, muh);
                mpq_div(x, D, x);                        /* Delta_i/(eps mu^_K), exact */
            } else {
                mpq_div(x, S, e);                        /* S/eps */
            }
            q_round(y, x, p, MPFR_RNDU);
            inexact += !mpq_equal(x, y);
            ck_assert_msg(eq_q(nu, y), "client %zu round %zu: nu is not RU(exact)", i, row + 1);
            mpfr_get_q(y, nu);
            mpq_div(x, S, y);                            /* S/nu */
            q_round(y, x, p, MPFR_RNDU);
            ck_assert_msg(eq_q(L, y), "client %zu round %zu: loss is not RU(S/nu)", i, row + 1);
            if (noise == FR_NOISE_CERT)
                ck_assert(mpfr_cmp_d(L, prm.eps) <= 0);  /* eps-DP given the past */
            mpq_add(sum, sum, y);
        }
        q_round(y, sum, p, MPFR_RNDU);
        ck_assert_msg(eq_q(t.eps_basic[i], y), "client %zu: eps_basic", i);
        ck_assert(mpfr_number_p(t.eps_adv[i]) && mpfr_sgn(t.eps_adv[i]) >= 0);
    }
    ck_assert_msg(inexact > 0, "no inexact scale: the rounding direction is not tested");
    mpq_clears(mu, muh, S, x, y, e, D, et, sum, NULL);
    fr_fedepm_trace_clear(&t);
    prob_free(&q);
}

START_TEST(ref_scale_rounding_eq27)
{
    ref_scales(FR_NOISE_EQ27);
}
END_TEST

START_TEST(ref_scale_rounding_certified)
{
    ref_scales(FR_NOISE_CERT);
}
END_TEST

/* fast, (27) with c = 0 and the certified rule: nu >= the exact scale of
 * fast's own mu^ (ff_fedepm_mu recomputed; certified: the exact recursion
 * with those mu^), (27) the least binary64 above it, certified within
 * 2^-40 of it; losses <= eps (certified); fast's accounts within 2^-32 of
 * ref's. */
static void fast_scales(int noise)
{
    prob q;
    prob_make(&q, 5, 4, 2);
    fr_fedepm_params prm = dp_params(&q, noise, 0);
    ff_fedepm_trace t = {0};
    fr_fedepm_trace rt;
    ck_assert_int_eq(ff_fedepm_trace_init(&t, &q.P, &prm), FR_OK);
    ck_assert_int_eq(ff_fedepm_run(&t, &q.P, &prm), FR_OK);
    ck_assert_int_eq(fr_fedepm_trace_init(&rt, &q.P, &prm, 128), FR_OK);
    ck_assert_int_eq(fr_fedepm_run(&rt, &q.P, &prm), FR_OK);
    mpq_t S, x, y, e, D, et;
    mpq_inits(S, x, y, e, D, et, NULL);
    mpq_set_d(e, prm.eps);
    mpq_set_d(et, prm.eta);
    const double zero[2] = {0, 0};
    for (size_t i = 0; i < q.P.m; i++) {
        mpq_set_d(D, q.Delta[i]);
        mpq_set_ui(S, 0, 1);
        double mu = 0;
        for (size_t row = 0; row + 1 < t.rounds; row++) {
            size_t qq;
            if (!in_row(t.sel, t.nsel, row, i, &qq))
                continue;
            for (unsigned long k = row * prm.k0; k < (row + 1) * prm.k0; k++) {
                ck_assert_int_eq(ff_fedepm_mu(&mu, prm.mu0, 0, prm.alpha, k + 1, zero, zero, 2), FR_OK);
                mpq_set_d(x, mu);
                mpq_mul(S, S, x);
                mpq_add(S, S, D);
                mpq_add(y, et, x);
                mpq_div(S, S, y);
            }
            double nu = t.nu[row * t.nsel + qq];
            if (noise == FR_NOISE_EQ27) {
                mpq_set_d(x, mu);
                mpq_mul(x, x, e);
                mpq_div(x, D, x);
            } else {
                mpq_div(x, S, e);
            }
            mpq_set_d(y, nu);
            ck_assert_msg(mpq_cmp(y, x) >= 0, "client %zu round %zu: fast nu below the exact scale",
                          i, row + 1);
            if (noise == FR_NOISE_EQ27) {
                mpq_set_d(y, nextafter(nu, 0));
                ck_assert(mpq_cmp(y, x) < 0);                       /* the least such binary64 */
            } else {
                ck_assert(nu <= mpq_get_d(x) * (1 + 0x1p-40));
                ck_assert(t.loss[row * t.nsel + qq] <= prm.eps);
            }
            double r = mpfr_get_d(rt.nu[row * t.nsel + qq], MPFR_RNDN);
            ck_assert(fabs(nu - r) <= 0x1p-32 * r);
        }
        double r = mpfr_get_d(rt.eps_basic[i], MPFR_RNDN);
        ck_assert(fabs(t.eps_basic[i] - r) <= 0x1p-32 * r);
        r = mpfr_get_d(rt.eps_adv[i], MPFR_RNDN);
        ck_assert(fabs(t.eps_adv[i] - r) <= 0x1p-32 * r);
    }
    mpq_clears(S, x, y, e, D, et, NULL);
    ff_fedepm_trace_clear(&t);
    fr_fedepm_trace_clear(&rt);
    prob_free(&q);
}

START_TEST(fast_scale_rounding)
{
    fast_scales(FR_NOISE_EQ27);
    fast_scales(FR_NOISE_CERT);
}
END_TEST

enum { ALGO_FEDEPM, ALGO_SFEDAVG, ALGO_SFEDPROX };

static int ref_run(int a, fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return a == ALGO_FEDEPM ? fr_fedepm_run(t, P, prm)
         : a == ALGO_SFEDAVG ? fr_sfedavg_run(t, P, prm) : fr_sfedprox_run(t, P, prm);
}

static int fast_run(int a, ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return a == ALGO_FEDEPM ? ff_fedepm_run(t, P, prm)
         : a == ALGO_SFEDAVG ? ff_sfedavg_run(t, P, prm) : ff_sfedprox_run(t, P, prm);
}

/* The expected special accounts: loss0 (0 or +Inf), and the later uploads:
 * first_finite 0: all +Inf; 1: the client's first finite, the others
 * +Inf; 2: all finite.  The totals: +Inf iff totals_inf, or an upload is. */
static void check_accounts(int a, const fr_fedepm_params *prm, const prob *q, int loss0_inf,
                           int first_finite, int totals_inf)
{
    fr_fedepm_trace rt;
    ff_fedepm_trace ft = {0};
    ck_assert_int_eq(fr_fedepm_trace_init(&rt, &q->P, prm, 64), FR_OK);
    ck_assert_int_eq(ff_fedepm_trace_init(&ft, &q->P, prm), FR_OK);
    ck_assert_int_eq(ref_run(a, &rt, &q->P, prm), FR_OK);
    ck_assert_int_eq(fast_run(a, &ft, &q->P, prm), FR_OK);
    for (size_t i = 0; i < q->P.m; i++) {
        ck_assert(loss0_inf ? mpfr_inf_p(rt.loss0[i]) && isinf(ft.loss0[i])
                            : mpfr_zero_p(rt.loss0[i]) && ft.loss0[i] == 0);
        int seen = 0, ups = 0;
        for (size_t row = 0; row + 1 < rt.rounds; row++) {
            size_t qq;
            if (!in_row(rt.sel, rt.nsel, row, i, &qq))
                continue;
            const size_t at = row * rt.nsel + qq;
            if (first_finite == 2 || (first_finite && !seen))
                ck_assert(mpfr_number_p(rt.loss[at]) && isfinite(ft.loss[at]));
            else
                ck_assert_msg(mpfr_inf_p(rt.loss[at]) && mpfr_sgn(rt.loss[at]) > 0
                              && isinf(ft.loss[at]) && ft.loss[at] > 0, "algo %d client %zu row %zu",
                              a, i, row);
            seen = 1;
            ups++;
        }
        const int inf = totals_inf || loss0_inf
                     || (first_finite == 0 && ups > 0) || (first_finite == 1 && ups > 1);
        if (inf)
            ck_assert(mpfr_inf_p(rt.eps_basic[i]) && mpfr_inf_p(rt.eps_adv[i])
                      && isinf(ft.eps_basic[i]) && isinf(ft.eps_adv[i]));
        else
            ck_assert(mpfr_number_p(rt.eps_basic[i]) && mpfr_number_p(rt.eps_adv[i])
                      && isfinite(ft.eps_basic[i]) && isfinite(ft.eps_adv[i]));
    }
    /* rows without a block: NaN */
    for (size_t k = (rt.rounds - 1) * rt.nsel; k < rt.cap * rt.nsel; k++)
        ck_assert(mpfr_nan_p(rt.nu[k]) && mpfr_nan_p(rt.loss[k]) && isnan(ft.nu[k]) && isnan(ft.loss[k]));
    fr_fedepm_trace_clear(&rt);
    ff_fedepm_trace_clear(&ft);
}

START_TEST(special_accounts)
{
    prob q;
    prob_make(&q, 5, 4, 2);
    fr_fedepm_params p;
    for (int a = 0; a < 3; a++) {
        /* (39): a data-dependent scale, every upload +Inf, z_i^0 too */
        p = dp_params(&q, FR_NOISE_EQ39, 1e-8);
        check_accounts(a, &p, &q, 1, 0, 1);
        /* no noise: z_i^0 = 0 is free, a noiseless data-dependent upload is not */
        p = dp_params(&q, FR_NOISE_NONE, 1e-8);
        check_accounts(a, &p, &q, 0, 0, 0);
        /* (27), c > 0, k0 = 3: mu from a data-dependent w_i^k from the 2nd update */
        p = dp_params(&q, FR_NOISE_EQ27, 1e-8);
        check_accounts(a, &p, &q, 0, 0, 0);
        /* (27), c = 0, stopping on: finite losses (FedEPM), totals +Inf */
        p = dp_params(&q, FR_NOISE_EQ27, 0);
        p.stopping = 1;
        check_accounts(a, &p, &q, 0, a == ALGO_FEDEPM ? 2 : 0, 1);
    }
    /* (27), c > 0, k0 = 1: the first upload's mu uses w_i^0 = 0: finite */
    p = dp_params(&q, FR_NOISE_EQ27, 1e-8);
    p.k0 = 1;
    check_accounts(ALGO_FEDEPM, &p, &q, 0, 1, 0);
    /* (27), c = 0: the baselines have no bound after k = 0 */
    p = dp_params(&q, FR_NOISE_EQ27, 0);
    check_accounts(ALGO_SFEDAVG, &p, &q, 0, 0, 0);
    check_accounts(ALGO_SFEDPROX, &p, &q, 0, 0, 0);
    prob_free(&q);
}
END_TEST

/* The certified rule's domain: c = 0 and no stopping rule, FedEPM only;
 * acct_delta in [0, 1). */
START_TEST(certified_domain)
{
    prob q;
    prob_make(&q, 5, 4, 2);
    fr_fedepm_params p = dp_params(&q, FR_NOISE_CERT, 0);
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_OK);
    ck_assert_int_eq(fr_sfedavg_check(&q.P, &p), FR_EDOM);
    ck_assert_int_eq(fr_sfedprox_check(&q.P, &p), FR_EDOM);
    p.c = 1e-8;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_EDOM);
    p.c = 0;
    p.stopping = 1;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_EDOM);
    p.stopping = 0;
    p.Delta = NULL;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_ENULL);
    p.Delta = q.Delta;
    p.acct_delta = 1;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_EDOM);
    p.acct_delta = NAN;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_ENONFINITE);
    p.acct_delta = 0.25;
    ck_assert_int_eq(fr_fedepm_check(&q.P, &p), FR_OK);
    /* a larger delta' lowers the advanced total, not the basic one */
    fr_fedepm_trace t1, t2;
    ck_assert_int_eq(fr_fedepm_trace_init(&t1, &q.P, &p, 64), FR_OK);
    ck_assert_int_eq(fr_fedepm_trace_init(&t2, &q.P, &p, 64), FR_OK);
    ck_assert_int_eq(fr_fedepm_run(&t1, &q.P, &p), FR_OK);
    p.acct_delta = 0;                                   /* FR_ACCT_DELTA_DEFAULT */
    ck_assert_int_eq(fr_fedepm_run(&t2, &q.P, &p), FR_OK);
    for (size_t i = 0; i < q.P.m; i++) {
        ck_assert(mpfr_equal_p(t1.eps_basic[i], t2.eps_basic[i]));
        if (mpfr_sgn(t1.eps_basic[i]) > 0)
            ck_assert(mpfr_less_p(t1.eps_adv[i], t2.eps_adv[i]));
    }
    fr_fedepm_trace_clear(&t1);
    fr_fedepm_trace_clear(&t2);
    prob_free(&q);
}
END_TEST

Suite *suite_dp(void)
{
    Suite *s = suite_create("dp");
    TCase *tc = tcase_create("dp");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sens_step_against_mpq);
    tcase_add_test(tc, sens_step_overflow_inside);
    tcase_add_test(tc, sens_step_bound_abs);
    tcase_add_test(tc, compose_against_oracle);
    tcase_add_test(tc, ref_scale_rounding_eq27);
    tcase_add_test(tc, ref_scale_rounding_certified);
    tcase_add_test(tc, fast_scale_rounding);
    tcase_add_test(tc, special_accounts);
    tcase_add_test(tc, certified_domain);
    suite_add_tcase(s, tc);
    return s;
}
