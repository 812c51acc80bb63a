/* SPDX-License-Identifier: Apache-2.0 */
/* test_ref_fedepm.c -- libfedref's FedEPM building blocks (002) against
 * independent oracles:
 *  - exact GMP rationals (mpq) for the step (20), mu (20), the Laplace
 *    scales (27)/(39), lambda* (11), the residuals of (9)/(10) (the set
 *    distance brute-forced over candidate pi) and the stopping rule (another
 *    variance formula); ref must equal the exact value rounded once;
 *  - for the logistic loss/gradient and the Laplace density: the naive
 *    formula (mpfr_log(1 + exp(u)), 1/(1 + exp(-u)), exp(-|x|/nu)/(2 nu))
 *    at 4p + 64 bits with a generous error bound; ref must be the rounding of
 *    every point of that interval (correct rounding);
 *  - huge <x, w> (w ~ 1e300): the exact rational limit with an error below
 *    2^-1000, finite results;
 *  - every status code, outputs unchanged on error, aliasing wnext == wi.
 * Replayable: FEDREF_SEED=<n> (printed on failure); FEDREF_TEST_EFFORT
 * multiplies the number of random cases. */
#include <check.h>
#include <stdio.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"

Suite *suite_ref_fedepm(void);

static frng_t rng;
static unsigned long long seed;

#define SUITE_SEED 20240607u    /* the seed without FEDREF_SEED */

static int effort(int n)
{
    const char *s = getenv("FEDREF_TEST_EFFORT");
    int k = s ? atoi(s) : 1;
    return n * (k > 0 ? k : 1);
}

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

/* A random dyadic k 2^-e (k < 2^bits, e < emax), either sign; with
 * probability 1/8 a value of the pool (either sign), 1/16 a zero of either
 * sign. */
static void rnd_dyadic(mpfr_ptr x, mpfr_t *const pool, size_t npool, unsigned bits, unsigned emax)
{
    uint64_t r = below(16);
    if (r == 0) {
        mpfr_set_zero(x, below(2) ? -1 : 1);
        return;
    }
    if (r <= 2 && npool > 0) {
        mpfr_set(x, pool[below(npool)], MPFR_RNDN);
        if (below(2)) mpfr_neg(x, x, MPFR_RNDN);
        return;
    }
    mpfr_set_ui_2exp(x, (unsigned long)below(1ull << bits), -(mpfr_exp_t)below(emax), MPFR_RNDN);
    if (below(2)) mpfr_neg(x, x, MPFR_RNDN);
}

static void rnd_pos(mpfr_ptr x, unsigned bits, unsigned emax)
{
    mpfr_set_ui_2exp(x, (unsigned long)(1 + below((1ull << bits) - 1)),
                     (mpfr_exp_t)below(2 * emax) - (mpfr_exp_t)emax, MPFR_RNDN);
}

static const mpfr_prec_t precs[] = {2, 11, 24, 53, 64, 113, 200};
static mpfr_prec_t rnd_prec(void)
{
    return precs[below(sizeof precs / sizeof precs[0])];
}

static char *str(mpfr_srcptr x)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    mpfr_snprintf(buf[k], sizeof buf[k], "%.40Rg", x);
    return buf[k];
}

/* got must be the exact rational q rounded in direction rnd. */
static void check_q(mpfr_srcptr got, const mpq_t q, mpfr_rnd_t rnd, const char *what, int c)
{
    mpfr_t want;
    mpfr_init2(want, mpfr_get_prec(got));
    mpfr_set_q(want, q, rnd);
    if (!mpfr_equal_p(got, want) && !(mpfr_zero_p(got) && mpfr_zero_p(want)))
        ck_abort_msg("%s case %d: got %s, the exact value rounded is %s [FEDREF_SEED=%llu]",
                     what, c, str(got), str(want), seed);
    mpfr_clear(want);
}

/* got must be the rounding to nearest of every point of [y - e, y + e];
 * returns 0 (and checks nothing) if that interval straddles a rounding
 * boundary, which happens with probability about 2^-p. */
static int check_interval(mpfr_srcptr got, mpfr_srcptr y, mpfr_srcptr e, const char *what, int c)
{
    mpfr_prec_t q = mpfr_get_prec(y) + 8;
    mpfr_t a, b, ra, rb;
    mpfr_inits2(q, a, b, (mpfr_ptr)0);
    mpfr_inits2(mpfr_get_prec(got), ra, rb, (mpfr_ptr)0);
    mpfr_sub(a, y, e, MPFR_RNDD);
    mpfr_add(b, y, e, MPFR_RNDU);
    mpfr_set(ra, a, MPFR_RNDN);
    mpfr_set(rb, b, MPFR_RNDN);
    int ok = mpfr_equal_p(ra, rb);
    if (ok && !mpfr_equal_p(got, ra))
        ck_abort_msg("%s case %d: got %s, the oracle gives %s [FEDREF_SEED=%llu]",
                     what, c, str(got), str(ra), seed);
    mpfr_clears(a, b, ra, rb, (mpfr_ptr)0);
    return ok;
}

/* ======================================================================
 * the client step and mu, 002 (20)
 * ====================================================================== */

/* soft(t, a) in rationals */
static void q_soft(mpq_t r, const mpq_t t, const mpq_t a)
{
    mpq_t b;
    mpq_init(b);
    mpq_abs(b, t);
    mpq_sub(b, b, a);
    if (mpq_sgn(b) <= 0) mpq_set_ui(r, 0, 1);
    else if (mpq_sgn(t) < 0) mpq_neg(r, b);
    else mpq_set(r, b);
    mpq_clear(b);
}

START_TEST(step_vs_rationals)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 101);
    enum { N = 6 };
    mpfr_t wi[N], w[N], g[N], out[N], lam, eta, mu;
    mpq_t qwi, qw, qg, ql, qe, qm, t, s, ex;
    for (int j = 0; j < N; j++) {
        mpfr_inits2(64, wi[j], w[j], g[j], (mpfr_ptr)0);
        mpfr_init2(out[j], 53);
    }
    mpfr_inits2(64, lam, eta, mu, (mpfr_ptr)0);
    mpq_inits(qwi, qw, qg, ql, qe, qm, t, s, ex, NULL);
    int ncase = effort(1500), kinks = 0;
    for (int c = 0; c < ncase; c++) {
        rnd_pos(lam, 8, 6); rnd_pos(eta, 8, 6); rnd_pos(mu, 12, 8);
        for (int j = 0; j < N; j++) {
            mpfr_set_prec(out[j], rnd_prec());
            rnd_dyadic(w[j], w, (size_t)j, 20, 12);
            uint64_t k = below(4);
            if (k == 0) mpfr_set(wi[j], w[j], MPFR_RNDN);            /* w_i = w */
            else rnd_dyadic(wi[j], wi, (size_t)j, 20, 12);
            rnd_dyadic(g[j], g, (size_t)j, 20, 12);
            if (below(4) == 0) {
                /* the kink: g = mu (wi - w) -+ lambda, so |wt| = lambda */
                mpfr_set_prec(g[j], 200);
                mpfr_sub(g[j], wi[j], w[j], MPFR_RNDN);
                mpfr_mul(g[j], g[j], mu, MPFR_RNDN);
                if (below(2)) mpfr_sub(g[j], g[j], lam, MPFR_RNDN);
                else mpfr_add(g[j], g[j], lam, MPFR_RNDN);
                kinks++;
            } else {
                mpfr_set_prec(g[j], 64);
                rnd_dyadic(g[j], g, (size_t)j, 20, 12);
            }
        }
        ck_assert_int_eq(fr_fedepm_step(out, wi, w, g, N, lam, eta, mu), FR_OK);
        mpfr_get_q(ql, lam); mpfr_get_q(qe, eta); mpfr_get_q(qm, mu);
        for (int j = 0; j < N; j++) {
            mpfr_get_q(qwi, wi[j]); mpfr_get_q(qw, w[j]); mpfr_get_q(qg, g[j]);
            mpq_sub(t, qwi, qw);                  /* wt = mu (wi - w) - g */
            mpq_mul(t, t, qm);
            mpq_sub(t, t, qg);
            q_soft(s, t, ql);
            mpq_add(t, qe, qm);                   /* w + soft / (eta + mu) */
            mpq_div(s, s, t);
            mpq_add(ex, qw, s);
            check_q(out[j], ex, MPFR_RNDN, "fedepm_step", c);
        }
    }
    ck_assert(kinks > 0);
    for (int j = 0; j < N; j++) mpfr_clears(wi[j], w[j], g[j], out[j], (mpfr_ptr)0);
    mpfr_clears(lam, eta, mu, (mpfr_ptr)0);
    mpq_clears(qwi, qw, qg, ql, qe, qm, t, s, ex, NULL);
}
END_TEST

START_TEST(step_minimises_23)
{
    /* wnext minimises h(v) = <g, v - w> + mu/2 ||v - wi||^2 + lambda|v - w|
     * + eta/2 (v - w)^2 coordinatewise (002 (23)): the exact rational
     * minimiser x (0 in the subdifferential) rounds to the output, and h at
     * the output is no smaller than at its two neighbours. */
    seed = tu_rng_start(&rng, SUITE_SEED, 102);
    mpfr_t wi[1], w[1], g[1], out[1], lam, eta, mu;
    mpfr_inits2(64, wi[0], w[0], g[0], lam, eta, mu, (mpfr_ptr)0);
    mpfr_init2(out[0], 53);
    mpq_t x, dp, dm, t;
    mpq_inits(x, dp, dm, t, NULL);
    for (int c = 0; c < effort(500); c++) {
        rnd_pos(lam, 8, 4); rnd_pos(eta, 8, 4); rnd_pos(mu, 8, 4);
        rnd_dyadic(w[0], NULL, 0, 16, 8);
        rnd_dyadic(wi[0], w, 1, 16, 8);
        rnd_dyadic(g[0], NULL, 0, 16, 8);
        ck_assert_int_eq(fr_fedepm_step(out, wi, w, g, 1, lam, eta, mu), FR_OK);
        /* the exact minimiser: try v - w = 0 and the two smooth branches */
        mpq_t qg, qm, qe, ql, qwi, qw, sc;
        mpq_inits(qg, qm, qe, ql, qwi, qw, sc, NULL);
        mpfr_get_q(qg, g[0]); mpfr_get_q(qm, mu); mpfr_get_q(qe, eta); mpfr_get_q(ql, lam);
        mpfr_get_q(qwi, wi[0]); mpfr_get_q(qw, w[0]);
        /* h'(w + z) = g + mu (w + z - wi) + eta z + lambda sign(z) */
        mpq_sub(sc, qw, qwi); mpq_mul(sc, sc, qm); mpq_add(sc, sc, qg);   /* h' at z = 0 without lambda */
        int found = 0;
        if (mpq_cmp(sc, ql) <= 0) {
            mpq_neg(t, ql);
            if (mpq_cmp(sc, t) >= 0) { mpq_set(x, qw); found++; }       /* |sc| <= lambda: z = 0 */
        }
        for (int sgn = -1; sgn <= 1; sgn += 2) {                         /* z = -(sc + sgn lambda)/(mu + eta) */
            mpq_set(t, ql);
            if (sgn < 0) mpq_neg(t, t);
            mpq_add(t, t, sc);
            mpq_neg(t, t);
            mpq_add(dp, qm, qe);
            mpq_div(t, t, dp);
            if (mpq_sgn(t) == sgn) { mpq_add(x, qw, t); found++; }
        }
        ck_assert_int_eq(found, 1);                                      /* unique minimiser */
        check_q(out[0], x, MPFR_RNDN, "step vs (23)", c);
        mpq_clears(qg, qm, qe, ql, qwi, qw, sc, NULL);
    }
    mpfr_clears(wi[0], w[0], g[0], out[0], lam, eta, mu, (mpfr_ptr)0);
    mpq_clears(x, dp, dm, t, NULL);
}
END_TEST

START_TEST(step_aliasing_and_zeros)
{
    mpfr_t wi[3], w[3], g[3], o[3], lam, eta, mu;
    for (int j = 0; j < 3; j++) mpfr_inits2(53, wi[j], w[j], g[j], o[j], (mpfr_ptr)0);
    mpfr_inits2(53, lam, eta, mu, (mpfr_ptr)0);
    mpfr_set_ui(lam, 1, MPFR_RNDN); mpfr_set_ui(eta, 2, MPFR_RNDN); mpfr_set_ui(mu, 3, MPFR_RNDN);
    mpfr_set_si(wi[0], 2, MPFR_RNDN); mpfr_set_zero(w[0], -1); mpfr_set_si(g[0], -1, MPFR_RNDN);
    mpfr_set_zero(wi[1], -1); mpfr_set_zero(w[1], -1); mpfr_set_zero(g[1], -1);
    mpfr_set_si(wi[2], -1, MPFR_RNDN); mpfr_set_si(w[2], 1, MPFR_RNDN); mpfr_set_si(g[2], -5, MPFR_RNDN);
    /* wt = 3*2 + 1 = 7 -> 6/5; wt = 0 -> w = -0 (value 0); wt = 3(-2) + 5 = -1 -> kink -> w = 1 */
    ck_assert_int_eq(fr_fedepm_step(o, wi, w, g, 3, lam, eta, mu), FR_OK);
    ck_assert_int_eq(fr_fedepm_step(wi, wi, w, g, 3, lam, eta, mu), FR_OK);   /* wnext == wi */
    for (int j = 0; j < 3; j++) ck_assert(mpfr_equal_p(o[j], wi[j]) || (mpfr_zero_p(o[j]) && mpfr_zero_p(wi[j])));
    mpfr_set_ui(lam, 6, MPFR_RNDN); mpfr_div_ui(lam, lam, 5, MPFR_RNDN);
    ck_assert(mpfr_equal_p(o[0], lam));
    ck_assert(mpfr_zero_p(o[1]) && mpfr_cmp_ui(o[2], 1) == 0);
    for (int j = 0; j < 3; j++) mpfr_clears(wi[j], w[j], g[j], o[j], (mpfr_ptr)0);
    mpfr_clears(lam, eta, mu, (mpfr_ptr)0);
}
END_TEST

/* mu0 (1 + c ||wik - w||^2) alpha^kp1 exactly: alpha = M 2^e, alpha^kp1 = M^kp1 2^(e kp1) */
static void q_mu(mpq_t r, mpfr_srcptr mu0, mpfr_srcptr c, mpfr_srcptr alpha, unsigned long kp1,
                 mpfr_t *wik, mpfr_t *w, size_t n)
{
    mpq_t a, b, s;
    mpq_inits(a, b, s, NULL);
    for (size_t j = 0; j < n; j++) {
        mpfr_get_q(a, wik[j]); mpfr_get_q(b, w[j]);
        mpq_sub(a, a, b); mpq_mul(a, a, a); mpq_add(s, s, a);
    }
    mpfr_get_q(a, c); mpq_mul(s, s, a);
    mpq_set_ui(a, 1, 1); mpq_add(s, s, a);
    mpfr_get_q(a, mu0); mpq_mul(s, s, a);
    mpz_t M;
    mpz_init(M);
    mpfr_exp_t e = mpfr_get_z_2exp(M, alpha);
    mpz_pow_ui(M, M, kp1);
    mpq_set_z(a, M);
    if (e >= 0) mpq_mul_2exp(a, a, (mp_bitcnt_t)e * kp1);
    else mpq_div_2exp(a, a, (mp_bitcnt_t)(-e) * kp1);
    mpq_mul(r, s, a);
    mpz_clear(M);
    mpq_clears(a, b, s, NULL);
}

START_TEST(mu_vs_rationals)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 103);
    enum { N = 4 };
    mpfr_t wik[N], w[N], mu, mu0, c, alpha;
    for (int j = 0; j < N; j++) mpfr_inits2(64, wik[j], w[j], (mpfr_ptr)0);
    mpfr_inits2(64, mu0, c, alpha, (mpfr_ptr)0);
    mpfr_init2(mu, 53);
    mpq_t ex;
    mpq_init(ex);
    int ncase = effort(800);
    for (int k = 0; k < ncase; k++) {
        mpfr_set_prec(mu, k % 5 == 0 ? (mpfr_prec_t)(1 + below(4)) : rnd_prec());
        rnd_pos(mu0, 10, 8); rnd_pos(c, 10, 8);
        unsigned long kp1;
        uint64_t kind = below(4);
        if (kind == 0) {                       /* alpha = 1.001 in binary64, long runs */
            mpfr_set_d(alpha, 1.001, MPFR_RNDN);
            kp1 = 1 + (unsigned long)below(3000);
        } else if (kind == 1) {                /* a power of two: often exact */
            mpfr_set_ui_2exp(alpha, 1, 1 + (long)below(3), MPFR_RNDN);
            kp1 = (unsigned long)below(40);
        } else {                               /* a few bits: small exact powers, ties */
            mpfr_set_ui_2exp(alpha, (unsigned long)(9 + below(120)), -3, MPFR_RNDN);
            kp1 = (unsigned long)below(20);
        }
        for (int j = 0; j < N; j++) {
            rnd_dyadic(w[j], w, (size_t)j, 12, 8);
            if (below(3) == 0) mpfr_set(wik[j], w[j], MPFR_RNDN);
            else rnd_dyadic(wik[j], wik, (size_t)j, 12, 8);
        }
        ck_assert_int_eq(fr_fedepm_mu(mu, mu0, c, alpha, kp1, wik, w, N), FR_OK);
        q_mu(ex, mu0, c, alpha, kp1, wik, w, N);
        check_q(mu, ex, MPFR_RNDN, "fedepm_mu", k);
    }
    /* a tie at one bit: mu0 = 1, wik = w, alpha = 3, kp1 = 1 -> 3 -> 4 (even) */
    mpfr_set_prec(mu, 1);
    mpfr_set_ui(mu0, 1, MPFR_RNDN); mpfr_set_ui(alpha, 3, MPFR_RNDN);
    ck_assert_int_eq(fr_fedepm_mu(mu, mu0, c, alpha, 1, w, w, N), FR_OK);
    ck_assert(mpfr_cmp_ui(mu, 4) == 0);
    for (int j = 0; j < N; j++) mpfr_clears(wik[j], w[j], (mpfr_ptr)0);
    mpfr_clears(mu, mu0, c, alpha, (mpfr_ptr)0);
    mpq_clear(ex);
}
END_TEST

/* ======================================================================
 * the Laplace mechanism, 002 (25), (27), (39)
 * ====================================================================== */

START_TEST(scales_vs_rationals)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 104);
    enum { N = 5 };
    const mpfr_rnd_t rnds[] = {MPFR_RNDN, MPFR_RNDU, MPFR_RNDD, MPFR_RNDZ};
    mpfr_t nu, D, eps, mu, g[N];
    mpfr_inits2(64, D, eps, mu, (mpfr_ptr)0);
    mpfr_init2(nu, 53);
    for (int j = 0; j < N; j++) mpfr_init2(g[j], 64);
    mpq_t q, t;
    mpq_inits(q, t, NULL);
    for (int c = 0; c < effort(1000); c++) {
        mpfr_rnd_t r = rnds[below(4)];
        mpfr_set_prec(nu, rnd_prec());
        rnd_pos(D, 20, 10); rnd_pos(eps, 20, 10); rnd_pos(mu, 20, 10);
        ck_assert_int_eq(fr_laplace_scale(nu, D, eps, mu, r), FR_OK);
        mpfr_get_q(q, D); mpfr_get_q(t, eps); mpq_div(q, q, t);
        mpfr_get_q(t, mu); mpq_div(q, q, t);
        check_q(nu, q, r, "laplace_scale (27)", c);
        int allzero = below(8) == 0;
        for (int j = 0; j < N; j++) {
            rnd_dyadic(g[j], g, (size_t)j, 30, 40);
            if (allzero) mpfr_set_zero(g[j], below(2) ? 1 : -1);
        }
        ck_assert_int_eq(fr_laplace_scale_eq39(nu, g, N, eps, mu, r), FR_OK);
        mpq_set_ui(q, 0, 1);
        for (int j = 0; j < N; j++) { mpfr_get_q(t, g[j]); mpq_abs(t, t); mpq_add(q, q, t); }
        mpq_mul_2exp(q, q, 1);
        mpfr_get_q(t, eps); mpq_div(q, q, t);
        mpfr_get_q(t, mu); mpq_div(q, q, t);
        check_q(nu, q, r, "laplace_scale_eq39", c);
        if (allzero) ck_assert(mpfr_zero_p(nu));
    }
    mpfr_clears(nu, D, eps, mu, (mpfr_ptr)0);
    for (int j = 0; j < N; j++) mpfr_clear(g[j]);
    mpq_clears(q, t, NULL);
}
END_TEST

START_TEST(density_vs_naive)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 105);
    mpfr_t p, x, nu, y, e, t;
    mpfr_inits2(64, x, nu, (mpfr_ptr)0);
    mpfr_init2(p, 53);
    mpfr_inits2(64, y, e, t, (mpfr_ptr)0);
    int checked = 0, ncase = effort(1500);
    mpq_t q;
    mpq_init(q);
    for (int c = 0; c < ncase; c++) {
        mpfr_prec_t pr = rnd_prec();
        int printed = (int)below(2);
        mpfr_set_prec(p, pr);
        rnd_dyadic(x, NULL, 0, 24, 16);
        if (c % 7 == 0) mpfr_mul_2ui(x, x, 6, MPFR_RNDN);     /* far tails */
        rnd_pos(nu, 20, 10);
        ck_assert_int_eq(fr_laplace_density(p, x, nu, printed), FR_OK);
        if (mpfr_zero_p(x)) {                                   /* 1/(2 nu), exactly */
            mpfr_get_q(q, nu); mpq_inv(q, q); mpq_div_2exp(q, q, 1);
            check_q(p, q, MPFR_RNDN, "density at 0", c);
            checked++;
            continue;
        }
        /* naive at Q = 4p + 64 (doubled while undecided; the value is
         * transcendental for x != 0, so never a rounding boundary):
         * y = exp(-|x|/s)/(2 nu), s = nu or 2 nu; relative error
         * <= (t + 4) 2^-Q (t = |x|/s), we allow 2^(1-Q)(t + 4). */
        int ok = 0;
        for (mpfr_prec_t Q = 4 * pr + 64; !ok && Q <= 64 * pr + 1024; Q *= 2) {
            mpfr_set_prec(y, Q); mpfr_set_prec(t, Q); mpfr_set_prec(e, 64);
            mpfr_abs(t, x, MPFR_RNDN);
            mpfr_div(t, t, nu, MPFR_RNDN);
            if (printed) mpfr_div_2ui(t, t, 1, MPFR_RNDN);
            mpfr_neg(y, t, MPFR_RNDN);
            mpfr_exp(y, y, MPFR_RNDN);
            mpfr_div(y, y, nu, MPFR_RNDN);
            mpfr_div_2ui(y, y, 1, MPFR_RNDN);
            mpfr_add_ui(e, t, 4, MPFR_RNDU);
            mpfr_mul(e, e, y, MPFR_RNDU);
            mpfr_abs(e, e, MPFR_RNDU);
            mpfr_mul_2si(e, e, 1 - (long)Q, MPFR_RNDU);
            ok = check_interval(p, y, e, "laplace_density", c);
        }
        checked += ok;
    }
    ck_assert_int_eq(checked, ncase);                   /* every case decided */
    mpfr_clears(p, x, nu, y, e, t, (mpfr_ptr)0);
    mpq_clear(q);
}
END_TEST

/* ======================================================================
 * exact penalty, 002 (9)-(11)
 * ====================================================================== */

START_TEST(penalty_vs_rationals)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 106);
    enum { M = 4, N = 3 };
    mpfr_t G[M * N], W[M * N], w[N], lam, eta, r1, r2, ls;
    for (int k = 0; k < M * N; k++) mpfr_inits2(64, G[k], W[k], (mpfr_ptr)0);
    for (int j = 0; j < N; j++) mpfr_init2(w[j], 64);
    mpfr_inits2(64, lam, eta, (mpfr_ptr)0);
    mpfr_inits2(24, r1, r2, ls, (mpfr_ptr)0);
    mpq_t qg, qd, ql, qe, best, cand, sum, mx, mx2, piv, t;
    mpq_inits(qg, qd, ql, qe, best, cand, sum, mx, mx2, piv, t, NULL);
    for (int c = 0; c < effort(600); c++) {
        size_t m = 1 + below(M), n = 1 + below(N);
        mpfr_set_prec(r1, rnd_prec()); mpfr_set_prec(r2, rnd_prec()); mpfr_set_prec(ls, rnd_prec());
        rnd_pos(lam, 8, 4); rnd_pos(eta, 8, 4);
        for (size_t j = 0; j < n; j++) rnd_dyadic(w[j], NULL, 0, 30, 20);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                if (below(2)) mpfr_set(W[i * n + j], w[j], MPFR_RNDN);      /* w_ij = w_j: the set case */
                else rnd_dyadic(W[i * n + j], w, n, 30, 20);
                rnd_dyadic(G[i * n + j], &lam, 1, 30, 4);                    /* sometimes |G| = lambda */
            }
        /* (11) */
        ck_assert_int_eq(fr_lambda_star(ls, G, m, n), FR_OK);
        mpq_set_ui(mx, 0, 1);
        for (size_t k = 0; k < m * n; k++) {
            mpfr_get_q(t, G[k]); mpq_abs(t, t);
            if (mpq_cmp(t, mx) > 0) mpq_set(mx, t);
        }
        check_q(ls, mx, MPFR_RNDN, "lambda_star", c);
        /* (9) */
        ck_assert_int_eq(fr_stationarity_9(r1, r2, G, W, w, m, n), FR_OK);
        mpq_set_ui(mx, 0, 1); mpq_set_ui(mx2, 0, 1);
        for (size_t j = 0; j < n; j++) {
            mpq_set_ui(sum, 0, 1);
            for (size_t i = 0; i < m; i++) {
                mpfr_get_q(qd, W[i * n + j]); mpfr_get_q(t, w[j]);
                mpq_sub(qd, qd, t); mpq_abs(qd, qd);
                if (mpq_cmp(qd, mx) > 0) mpq_set(mx, qd);
                mpfr_get_q(t, G[i * n + j]); mpq_add(sum, sum, t);
            }
            mpq_abs(sum, sum);
            if (mpq_cmp(sum, mx2) > 0) mpq_set(mx2, sum);
        }
        check_q(r1, mx, MPFR_RNDU, "stationarity_9 r_cons", c);
        check_q(r2, mx2, MPFR_RNDU, "stationarity_9 r_sum", c);
        /* (10): brute force over candidate pi in sgn(d): {sign d} if d != 0,
         * else {-1, 1, -G/lambda if in [-1, 1]} */
        ck_assert_int_eq(fr_stationarity_10(r1, r2, G, W, w, m, n, lam, eta), FR_OK);
        mpfr_get_q(ql, lam); mpfr_get_q(qe, eta);
        mpq_set_ui(mx, 0, 1); mpq_set_ui(mx2, 0, 1);
        for (size_t j = 0; j < n; j++) {
            mpq_set_ui(sum, 0, 1);
            for (size_t i = 0; i < m; i++) {
                mpfr_get_q(qg, G[i * n + j]);
                mpfr_get_q(qd, W[i * n + j]); mpfr_get_q(t, w[j]); mpq_sub(qd, qd, t);
                mpq_t cands[3];
                int nc = 0;
                for (int k = 0; k < 3; k++) mpq_init(cands[k]);
                if (mpq_sgn(qd) != 0) {
                    mpq_set_si(cands[nc++], mpq_sgn(qd), 1);
                } else {
                    mpq_set_si(cands[nc++], -1, 1);
                    mpq_set_si(cands[nc++], 1, 1);
                    mpq_div(t, qg, ql); mpq_neg(t, t);
                    mpq_abs(cand, t);
                    if (mpq_cmp_ui(cand, 1, 1) <= 0) mpq_set(cands[nc++], t);
                }
                int first = 1;
                for (int k = 0; k < nc; k++) {        /* |G + lambda pi + eta d| */
                    mpq_mul(cand, ql, cands[k]);
                    mpq_add(cand, cand, qg);
                    mpq_mul(t, qe, qd);
                    mpq_add(cand, cand, t);
                    mpq_abs(cand, cand);
                    if (first || mpq_cmp(cand, best) < 0) { mpq_set(best, cand); mpq_set(piv, cands[k]); }
                    first = 0;
                }
                if (mpq_cmp(best, mx) > 0) mpq_set(mx, best);
                mpq_mul(t, ql, piv); mpq_add(sum, sum, t);   /* lambda pi + eta d */
                mpq_mul(t, qe, qd); mpq_add(sum, sum, t);
                for (int k = 0; k < 3; k++) mpq_clear(cands[k]);
            }
            mpq_abs(sum, sum);
            if (mpq_cmp(sum, mx2) > 0) mpq_set(mx2, sum);
        }
        check_q(r1, mx, MPFR_RNDU, "stationarity_10 r_set", c);
        check_q(r2, mx2, MPFR_RNDU, "stationarity_10 r_sum", c);
    }
    for (int k = 0; k < M * N; k++) mpfr_clears(G[k], W[k], (mpfr_ptr)0);
    for (int j = 0; j < N; j++) mpfr_clear(w[j]);
    mpfr_clears(lam, eta, r1, r2, ls, (mpfr_ptr)0);
    mpq_clears(qg, qd, ql, qe, best, cand, sum, mx, mx2, piv, t, NULL);
}
END_TEST

START_TEST(penalty_theorem_iii1)
{
    /* At a point with w_i = w and sum_i G_i = 0, (9) holds; for lambda >=
     * lambda* (10) holds too (Theorem III.1); below lambda* it does not. */
    seed = tu_rng_start(&rng, SUITE_SEED, 107);
    enum { M = 3, N = 2 };
    mpfr_t G[M * N], W[M * N], w[N], lam, eta, r1, r2;
    for (int k = 0; k < M * N; k++) mpfr_inits2(64, G[k], W[k], (mpfr_ptr)0);
    mpfr_inits2(64, w[0], w[1], lam, eta, r1, r2, (mpfr_ptr)0);
    for (int c = 0; c < effort(200); c++) {
        for (int j = 0; j < N; j++) {
            rnd_dyadic(w[j], NULL, 0, 20, 8);
            mpfr_set_zero(G[(M - 1) * N + j], 1);
            for (int i = 0; i < M; i++) mpfr_set(W[i * N + j], w[j], MPFR_RNDN);
            for (int i = 0; i < M - 1; i++) {
                rnd_dyadic(G[i * N + j], NULL, 0, 20, 8);
                mpfr_sub(G[(M - 1) * N + j], G[(M - 1) * N + j], G[i * N + j], MPFR_RNDN);   /* exact */
            }
        }
        rnd_pos(eta, 8, 4);
        ck_assert_int_eq(fr_stationarity_9(r1, r2, G, W, w, M, N), FR_OK);
        ck_assert(mpfr_zero_p(r1) && mpfr_zero_p(r2));
        ck_assert_int_eq(fr_lambda_star(lam, G, M, N), FR_OK);
        if (mpfr_zero_p(lam)) continue;
        ck_assert_int_eq(fr_stationarity_10(r1, r2, G, W, w, M, N, lam, eta), FR_OK);
        ck_assert(mpfr_zero_p(r1) && mpfr_zero_p(r2));
        mpfr_nextbelow(lam);
        ck_assert_int_eq(fr_stationarity_10(r1, r2, G, W, w, M, N, lam, eta), FR_OK);
        ck_assert(mpfr_sgn(r1) > 0);
    }
    for (int k = 0; k < M * N; k++) mpfr_clears(G[k], W[k], (mpfr_ptr)0);
    mpfr_clears(w[0], w[1], lam, eta, r1, r2, (mpfr_ptr)0);
}
END_TEST

/* ======================================================================
 * the stopping rule, 002 Sec. VII-B
 * ====================================================================== */

/* The rule in rationals, variance by 12 var = 4 sum f^2 - (sum f)^2. */
static int q_stop(mpfr_srcptr g2, mpfr_t *f, size_t nf, unsigned long n)
{
    mpq_t a, s, s2, t;
    mpq_inits(a, s, s2, t, NULL);
    mpfr_get_q(a, g2);
    mpq_set_ui(t, 1, 1000000);
    int res = FR_STOP_ROUNDS;
    if (mpq_cmp(a, t) < 0) {
        res = FR_STOP_GRAD;
    } else if (nf >= 4) {
        for (size_t k = nf - 4; k < nf; k++) {
            mpfr_get_q(a, f[k]); mpq_add(s, s, a);
            mpq_mul(a, a, a); mpq_add(s2, s2, a);
        }
        mpq_set_ui(t, 4, 1); mpq_mul(s2, s2, t);
        mpq_mul(s, s, s); mpq_sub(s2, s2, s);                /* 12 var */
        mpfr_get_q(a, f[nf - 1]); mpq_abs(a, a);
        mpq_set_ui(t, 1, 1); mpq_add(a, a, t);               /* 1 + |f| */
        mpq_set_ui(t, n * 12, 100000000);
        mpq_div(t, t, a);                                    /* 12 n 10^-8 / (1 + |f|) */
        if (mpq_cmp(s2, t) <= 0) res = FR_STOP_VAR;
    }
    mpq_clears(a, s, s2, t, NULL);
    return res;
}

START_TEST(stop_rule_vs_rationals)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 108);
    mpfr_t g2, f[6];
    mpfr_init2(g2, 53);
    for (int k = 0; k < 6; k++) mpfr_init2(f[k], 80);
    int seen[3] = {0, 0, 0};
    for (int c = 0; c < effort(2000); c++) {
        size_t nf = 1 + below(6);
        unsigned long n = 1 + (unsigned long)below(1000);
        /* gnorm2 around 10^-6: RN(1e-6) at 53 bits and its neighbours */
        mpfr_set_prec(g2, rnd_prec());
        mpfr_set_str(g2, "1e-6", 10, MPFR_RNDN);
        uint64_t r = below(4);
        if (r == 0) mpfr_nextbelow(g2);
        else if (r == 1) mpfr_nextabove(g2);
        else if (r == 2) mpfr_mul_2ui(g2, g2, 1 + below(4), MPFR_RNDN);
        /* f: a base value and small perturbations around the threshold */
        rnd_dyadic(f[0], NULL, 0, 10, 4);
        for (size_t k = 1; k < nf; k++) {
            mpfr_set(f[k], f[0], MPFR_RNDN);
            mpfr_t d;
            mpfr_init2(d, 64);
            mpfr_set_ui_2exp(d, (unsigned long)below(64), -(long)(14 + below(6)), MPFR_RNDN);
            mpfr_add(f[k], f[k], d, MPFR_RNDN);
            mpfr_clear(d);
        }
        int st;
        ck_assert_int_eq(fr_stop_rule(&st, g2, f, nf, n), FR_OK);
        ck_assert_int_eq(st, q_stop(g2, f, nf, n));
        seen[st]++;
    }
    ck_assert(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    /* equality at the boundary: f = (-1/8, -1/8, -1/8, 0) has var = 1/256 =
     * n 10^-8 / (1 + 0) for n = 5^8 (<= fires), not for n = 5^8 - 1 */
    int st;
    mpfr_set_ui(g2, 1, MPFR_RNDN);
    for (int k = 0; k < 3; k++) mpfr_set_si_2exp(f[k], -1, -3, MPFR_RNDN);
    mpfr_set_zero(f[3], 1);
    ck_assert_int_eq(fr_stop_rule(&st, g2, f, 4, 390625), FR_OK);
    ck_assert_int_eq(st, FR_STOP_VAR);
    ck_assert_int_eq(fr_stop_rule(&st, g2, f, 4, 390624), FR_OK);
    ck_assert_int_eq(st, FR_STOP_ROUNDS);
    mpfr_clear(g2);
    for (int k = 0; k < 6; k++) mpfr_clear(f[k]);
}
END_TEST

/* ======================================================================
 * the logistic loss and gradient, 002 Sec. VII-A
 * ====================================================================== */

enum { LM = 3, LD = 5, LN = 4 };
typedef struct {
    size_t d[LM];
    double X[LM * LD * LN], b[LM * LD];
    fr_logreg P;
} prob_t;

static void rnd_problem(prob_t *pb, size_t m, size_t n)
{
    size_t D = 0;
    for (size_t i = 0; i < m; i++) { pb->d[i] = 1 + below(LD); D += pb->d[i]; }
    for (size_t t = 0; t < D * n; t++)
        pb->X[t] = below(6) == 0 ? 0.0 : ldexp((double)below(1u << 20) - (double)(1u << 19), -(int)(19 + below(3)));
    for (size_t t = 0; t < D; t++) pb->b[t] = (double)below(2);
    pb->P = (fr_logreg){m, n, pb->d, pb->X, pb->b, ldexp(1.0 + (double)below(255), -(int)below(12)), 0};
}

/* Naive oracle at precision Q: f = sum_i (1/d_i) sum_t (log(1 + exp(u)) - b u)
 * + m' beta/2 ||w||^2 and g = sum_i (1/d_i) sum_t (1/(1 + exp(-u)) - b) x_t
 * + m' beta w, every operation rounded to nearest; scale_f, scale_g collect
 * the magnitudes (sum of |operands|) that bound its error: the error is
 * below (number of operations) 2^-Q scale, far below 2^-(4p+32) scale. */
static void naive(mpfr_ptr f, mpfr_t *g, mpfr_ptr sf, mpfr_t *sg, const fr_logreg *P,
                  size_t i0, size_t i1, mpfr_t *w, mpfr_prec_t Q)
{
    size_t n = P->n, off = 0;
    for (size_t i = 0; i < i0; i++) off += P->d[i];
    mpfr_t u, su, a, e, ci, cs, gi[LN], gs[LN];
    mpfr_inits2(Q, u, su, a, e, ci, cs, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++) mpfr_inits2(Q, gi[j], gs[j], (mpfr_ptr)0);
    mpfr_set_zero(f, 1); mpfr_set_zero(sf, 1);
    for (size_t j = 0; j < n; j++) { mpfr_set_zero(g[j], 1); mpfr_set_zero(sg[j], 1); }
    for (size_t i = i0; i < i1; i++) {
        mpfr_set_zero(ci, 1); mpfr_set_zero(cs, 1);
        for (size_t j = 0; j < n; j++) { mpfr_set_zero(gi[j], 1); mpfr_set_zero(gs[j], 1); }
        for (size_t t = off; t < off + P->d[i]; t++) {
            mpfr_set_zero(u, 1); mpfr_set_zero(su, 1);
            for (size_t j = 0; j < n; j++) {
                mpfr_mul_d(a, w[j], P->X[t * n + j], MPFR_RNDN);
                mpfr_add(u, u, a, MPFR_RNDN);
                mpfr_abs(a, a, MPFR_RNDN);
                mpfr_add(su, su, a, MPFR_RNDN);
            }
            mpfr_exp(e, u, MPFR_RNDN);                  /* log(1 + exp(u)) - b u */
            mpfr_add_ui(e, e, 1, MPFR_RNDN);
            mpfr_log(e, e, MPFR_RNDN);
            mpfr_add(cs, cs, e, MPFR_RNDN);
            mpfr_add(cs, cs, su, MPFR_RNDN);
            mpfr_add(cs, cs, su, MPFR_RNDN);
            if (P->b[t] != 0.0) mpfr_sub(e, e, u, MPFR_RNDN);
            mpfr_add(ci, ci, e, MPFR_RNDN);
            mpfr_neg(e, u, MPFR_RNDN);                   /* 1/(1 + exp(-u)) - b */
            mpfr_exp(e, e, MPFR_RNDN);
            mpfr_add_ui(e, e, 1, MPFR_RNDN);
            mpfr_ui_div(e, 1, e, MPFR_RNDN);
            if (P->b[t] != 0.0) mpfr_sub_ui(e, e, 1, MPFR_RNDN);
            mpfr_add_ui(su, su, 2, MPFR_RNDN);
            for (size_t j = 0; j < n; j++) {
                mpfr_mul_d(a, e, P->X[t * n + j], MPFR_RNDN);
                mpfr_add(gi[j], gi[j], a, MPFR_RNDN);
                mpfr_mul_d(a, su, fabs(P->X[t * n + j]), MPFR_RNDN);
                mpfr_add(gs[j], gs[j], a, MPFR_RNDN);
            }
        }
        mpfr_div_ui(ci, ci, P->d[i], MPFR_RNDN);
        mpfr_add(f, f, ci, MPFR_RNDN);
        mpfr_div_ui(cs, cs, P->d[i], MPFR_RNDN);
        mpfr_add(sf, sf, cs, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_div_ui(gi[j], gi[j], P->d[i], MPFR_RNDN);
            mpfr_add(g[j], g[j], gi[j], MPFR_RNDN);
            mpfr_div_ui(gs[j], gs[j], P->d[i], MPFR_RNDN);
            mpfr_add(sg[j], sg[j], gs[j], MPFR_RNDN);
        }
        off += P->d[i];
    }
    size_t mc = i1 - i0;
    for (size_t j = 0; j < n; j++) {
        mpfr_sqr(a, w[j], MPFR_RNDN);
        mpfr_mul_d(a, a, P->beta * 0.5 * (double)mc, MPFR_RNDN);
        mpfr_add(f, f, a, MPFR_RNDN);
        mpfr_add(sf, sf, a, MPFR_RNDN);
        mpfr_mul_d(a, w[j], P->beta * (double)mc, MPFR_RNDN);
        mpfr_add(g[j], g[j], a, MPFR_RNDN);
        mpfr_abs(a, a, MPFR_RNDN);
        mpfr_add(sg[j], sg[j], a, MPFR_RNDN);
    }
    mpfr_clears(u, su, a, e, ci, cs, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++) mpfr_clears(gi[j], gs[j], (mpfr_ptr)0);
}

START_TEST(logreg_vs_naive)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 109);
    prob_t pb;
    mpfr_t w[LN], f, g[LN], yf, sf, yg[LN], sg[LN], e;
    for (int j = 0; j < LN; j++) mpfr_inits2(64, w[j], g[j], yg[j], sg[j], (mpfr_ptr)0);
    mpfr_inits2(64, f, yf, sf, e, (mpfr_ptr)0);
    int ncase = effort(300), checked = 0, total = 0;
    for (int c = 0; c < ncase; c++) {
        size_t m = 1 + below(LM), n = 1 + below(LN);
        rnd_problem(&pb, m, n);
        int zero_w = below(8) == 0;
        for (size_t j = 0; j < n; j++) {
            mpfr_set_prec(w[j], below(2) ? 53 : 100);
            rnd_dyadic(w[j], w, j, 24, 24);
            mpfr_div_2ui(w[j], w[j], 20, MPFR_RNDN);                /* |w_j| < 16: |u| < 64 */
            if (zero_w) mpfr_set_zero(w[j], 1);
        }
        mpfr_prec_t p = rnd_prec(), pmax = p;
        mpfr_set_prec(f, p);
        for (size_t j = 0; j < n; j++) {
            mpfr_set_prec(g[j], below(2) ? p : rnd_prec());
            if (mpfr_get_prec(g[j]) > pmax) pmax = mpfr_get_prec(g[j]);
        }
        int all = below(2);
        size_t i = below(m);
        int st = all ? fr_logreg_f(f, g, &pb.P, w) : fr_logreg_fi(f, g, &pb.P, i, w);
        ck_assert_int_eq(st, FR_OK);
        /* the naive oracle at Q = 4 pmax + 64, doubled while a component
         * is undecided (its interval straddles a rounding boundary) */
        int done_f = 0, done_g[LN] = {0};
        for (mpfr_prec_t Q = 4 * pmax + 64; Q <= 64 * pmax + 1024; Q *= 2) {
            mpfr_set_prec(yf, Q); mpfr_set_prec(sf, Q);
            for (size_t j = 0; j < n; j++) { mpfr_set_prec(yg[j], Q); mpfr_set_prec(sg[j], Q); }
            naive(yf, yg, sf, sg, &pb.P, all ? 0 : i, all ? m : i + 1, w, Q);
            mpfr_mul_2si(e, sf, 32 - (long)Q, MPFR_RNDU);
            if (!done_f) done_f = check_interval(f, yf, e, all ? "logreg_f f" : "logreg_fi f", c);
            int left = !done_f;
            for (size_t j = 0; j < n; j++) {
                mpfr_mul_2si(e, sg[j], 32 - (long)Q, MPFR_RNDU);
                if (!done_g[j]) done_g[j] = check_interval(g[j], yg[j], e, all ? "logreg_f g" : "logreg_fi g", c);
                left += !done_g[j];
            }
            if (!left) break;
        }
        /* a gradient entry is rational when every sample with x_tj != 0
         * has u_t = 0 exactly (sigma(0) = 1/2; e.g. w = 0, or a zero
         * column: beta w_j alone); it may then be a rounding boundary, and
         * is checked exactly:
         *   g_j = sum_i (1/d_i) sum_t (1/2 - b_t) x_tj + beta mc w_j */
        for (size_t j = 0; j < n; j++) {
            if (done_g[j]) continue;
            mpq_t qg, qi, qx, qu, qw;
            mpq_inits(qg, qi, qx, qu, qw, NULL);
            int rational = 1;
            size_t off = 0, mc = 0;
            for (size_t l = 0; l < m; l++) {
                int mine = all || l == i;
                mc += mine;
                mpq_set_ui(qi, 0, 1);
                for (size_t t = off; t < off + pb.P.d[l] && mine; t++) {
                    if (pb.P.X[t * n + j] == 0.0) continue;
                    mpq_set_ui(qu, 0, 1);                              /* u_t exactly */
                    for (size_t k = 0; k < n; k++) {
                        mpfr_get_q(qw, w[k]);
                        mpq_set_d(qx, pb.P.X[t * n + k]);
                        mpq_mul(qx, qx, qw);
                        mpq_add(qu, qu, qx);
                    }
                    if (mpq_sgn(qu) != 0) { rational = 0; break; }
                    mpq_set_d(qx, pb.P.X[t * n + j]);
                    mpq_div_2exp(qx, qx, 1);                          /* x/2 */
                    if (pb.P.b[t] != 0.0) mpq_neg(qx, qx);            /* (1/2 - b) x */
                    mpq_add(qi, qi, qx);
                }
                if (mine) {
                    mpq_set_ui(qx, (unsigned long)pb.P.d[l], 1);
                    mpq_div(qi, qi, qx);
                    mpq_add(qg, qg, qi);
                }
                off += pb.P.d[l];
            }
            if (rational) {
                mpfr_get_q(qw, w[j]);
                mpq_set_d(qx, pb.P.beta);
                mpq_mul(qw, qw, qx);
                mpq_set_ui(qx, (unsigned long)mc, 1);
                mpq_mul(qw, qw, qx);
                mpq_add(qg, qg, qw);
                check_q(g[j], qg, MPFR_RNDN, "logreg g (rational entry)", c);
                done_g[j] = 1;
            }
            mpq_clears(qg, qi, qx, qu, qw, NULL);
        }
        checked += done_f;
        total++;
        for (size_t j = 0; j < n; j++) { checked += done_g[j]; total++; }
        /* f alone and g alone give the same values */
        mpfr_t f2, g2[LN];
        mpfr_init2(f2, p);
        for (size_t j = 0; j < n; j++) mpfr_init2(g2[j], mpfr_get_prec(g[j]));
        ck_assert_int_eq(all ? fr_logreg_f(f2, NULL, &pb.P, w) : fr_logreg_fi(f2, NULL, &pb.P, i, w), FR_OK);
        ck_assert_int_eq(all ? fr_logreg_f(NULL, g2, &pb.P, w) : fr_logreg_fi(NULL, g2, &pb.P, i, w), FR_OK);
        ck_assert(mpfr_equal_p(f, f2));
        for (size_t j = 0; j < n; j++) {
            ck_assert(mpfr_equal_p(g[j], g2[j]) || (mpfr_zero_p(g[j]) && mpfr_zero_p(g2[j])));
            mpfr_clear(g2[j]);
        }
        mpfr_clear(f2);
    }
    ck_assert_int_eq(checked, total);                   /* every component decided */
    for (int j = 0; j < LN; j++) mpfr_clears(w[j], g[j], yg[j], sg[j], (mpfr_ptr)0);
    mpfr_clears(f, yf, sf, e, (mpfr_ptr)0);
}
END_TEST

START_TEST(logreg_exact_gradients)
{
    /* Rational gradients, checked against mpq: at w = 0 every sigma is 1/2;
     * duplicated rows with both labels at w = 0 give exactly 0; x_1 = (1, 0),
     * x_2 = (1, -2), w = (1, 1) give u = 1 and -1, and component 0 is
     * sigma(1) + sigma(-1) - b_1 - b_2 = 1 - b_1 - b_2 (+ beta w_0 d): rational,
     * component 1 is not (checked by the naive oracle instead). */
    size_t d[2] = {2, 2};
    double X[8] = {0.75, -0.5, 0.75, -0.5, 1, 0, 1, -2}, b[4] = {0, 1, 1, 1};
    fr_logreg P = {2, 2, d, X, b, 0.125, 0};
    mpfr_t w[2], g[2], f;
    mpfr_inits2(53, w[0], w[1], g[0], g[1], f, (mpfr_ptr)0);
    mpq_t q, t;
    mpq_inits(q, t, NULL);
    mpfr_set_zero(w[0], 1); mpfr_set_zero(w[1], -1);
    ck_assert_int_eq(fr_logreg_fi(f, g, &P, 0, w), FR_OK);
    ck_assert(mpfr_zero_p(g[0]) && mpfr_zero_p(g[1]));
    ck_assert_int_eq(fr_logreg_fi(f, g, &P, 1, w), FR_OK);      /* (1/2)((1/2 - 1)(1,0) + (1/2 - 1)(1,-2)) */
    mpq_set_si(q, -1, 2); check_q(g[0], q, MPFR_RNDN, "exact grad w=0", 0);
    mpq_set_si(q, 1, 2); check_q(g[1], q, MPFR_RNDN, "exact grad w=0", 1);
    mpfr_set_ui(w[0], 1, MPFR_RNDN); mpfr_set_ui(w[1], 1, MPFR_RNDN);
    ck_assert_int_eq(fr_logreg_fi(f, g, &P, 1, w), FR_OK);
    /* g_0 = (1/2)(sigma(1) - 1 + sigma(-1) - 1) + beta = -1/2 + 1/8 */
    mpq_set_si(q, -3, 8); check_q(g[0], q, MPFR_RNDN, "exact grad pair", 0);
    /* g_1 = (1/2)(-2)(sigma(-1) - 1) + 1/8 = sigma(1) + 1/8: transcendental */
    mpfr_t s;
    mpfr_init2(s, 200);
    mpfr_set_si(s, -1, MPFR_RNDN); mpfr_exp(s, s, MPFR_RNDN); mpfr_add_ui(s, s, 1, MPFR_RNDN);
    mpfr_ui_div(s, 1, s, MPFR_RNDN); mpfr_add_d(s, s, 0.125, MPFR_RNDN);
    mpfr_set(f, s, MPFR_RNDN);
    ck_assert(mpfr_equal_p(g[1], f));
    /* f over both clients at w = 0 is 2 ln 2 */
    mpfr_set_zero(w[0], 1); mpfr_set_zero(w[1], 1);
    ck_assert_int_eq(fr_logreg_f(f, g, &P, w), FR_OK);
    mpfr_const_log2(s, MPFR_RNDN); mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
    mpfr_set(w[0], s, MPFR_RNDN);
    ck_assert(mpfr_equal_p(f, w[0]));
    mpfr_clears(w[0], w[1], g[0], g[1], f, s, (mpfr_ptr)0);
    mpq_clears(q, t, NULL);
}
END_TEST

START_TEST(logreg_huge_w)
{
    /* |<x_t, w>| huge (w ~ 1e300, or ~ 2^20): the limit (e^-|u| dropped,
     * sigma in {0, 1}) is exact in rationals and within 2^-1000 (relative)
     * of the true value; ref must round like every point of that interval,
     * and results are finite. */
    seed = tu_rng_start(&rng, SUITE_SEED, 110);
    prob_t pb;
    mpfr_t w[LN], f, g[LN];
    for (int j = 0; j < LN; j++) mpfr_inits2(53, w[j], g[j], (mpfr_ptr)0);
    mpfr_init2(f, 53);
    mpq_t F, G[LN], t, u, tiny;
    mpq_inits(F, t, u, tiny, NULL);
    for (int j = 0; j < LN; j++) mpq_init(G[j]);
    int checked = 0, ncase = effort(200);
    for (int c = 0; c < ncase; c++) {
        size_t m = 1 + below(LM), n = 1 + below(LN);
        rnd_problem(&pb, m, n);
        /* column 0 in +-[1/2, 1), w_0 ~ 2^E0 dominates <x_t, w> (the other
         * w_j are 2^60 smaller): |u| >= 2^(E0 - 1).  E0 = 990: e^-|u| is
         * below MPFR's range; E0 = 20: it is representable (~2^-750000) */
        int E0 = below(2) ? 990 : 20;
        size_t D = 0;
        for (size_t i = 0; i < m; i++) D += pb.d[i];
        for (size_t s = 0; s < D; s++)
            pb.X[s * n] = (below(2) ? -1 : 1) * (0.5 + ldexp((double)below(1u << 20), -21));
        for (size_t j = 0; j < n; j++)
            mpfr_set_d(w[j], ldexp(1.0 + (double)below(15), E0 - (int)(j * 60)), MPFR_RNDN);
        ck_assert_int_eq(fr_logreg_f(f, g, &pb.P, w), FR_OK);
        ck_assert(mpfr_number_p(f));
        for (size_t j = 0; j < n; j++) ck_assert(mpfr_number_p(g[j]));
        /* the limit in rationals */
        mpq_set_ui(F, 0, 1);
        for (size_t j = 0; j < n; j++) mpq_set_ui(G[j], 0, 1);
        int degenerate = 0;
        size_t off = 0;
        for (size_t i = 0; i < m; i++) {
            for (size_t s = off; s < off + pb.d[i]; s++) {
                mpq_set_ui(u, 0, 1);
                for (size_t j = 0; j < n; j++) {
                    mpfr_get_q(t, w[j]); mpq_set_d(tiny, pb.X[s * n + j]);
                    mpq_mul(t, t, tiny); mpq_add(u, u, t);
                }
                if (mpq_sgn(u) == 0) degenerate = 1;
                int sig = mpq_sgn(u) > 0;                          /* sigma(u) in {0, 1} */
                /* (log(1 + e^u) - b u) / d_i -> (max(u, 0) - b u) / d_i */
                mpq_set_ui(t, 0, 1);
                if (sig) mpq_set(t, u);
                if (pb.b[s] != 0.0) mpq_sub(t, t, u);
                mpq_set_ui(tiny, pb.d[i], 1);
                mpq_div(t, t, tiny);
                mpq_add(F, F, t);
                for (size_t j = 0; j < n; j++) {
                    mpq_set_d(t, pb.X[s * n + j]);
                    mpq_set_si(tiny, sig - (pb.b[s] != 0.0), pb.d[i]);
                    mpq_mul(t, t, tiny);
                    mpq_add(G[j], G[j], t);
                }
            }
            off += pb.d[i];
        }
        if (degenerate) continue;
        for (size_t j = 0; j < n; j++) {
            mpfr_get_q(t, w[j]);
            mpq_set_d(tiny, pb.P.beta);
            mpq_mul(t, t, tiny);
            mpq_set_ui(tiny, m, 1);
            mpq_mul(t, t, tiny);
            mpq_add(G[j], G[j], t);
            mpfr_get_q(t, w[j]); mpq_mul(t, t, t);
            mpq_set_d(tiny, pb.P.beta * 0.5 * (double)m);
            mpq_mul(t, t, tiny);
            mpq_add(F, F, t);
        }
        /* both ends of [X (1 - 2^-1000), X (1 + 2^-1000)] round alike -> ref */
        mpfr_t lo, hi, r1, r2;
        mpfr_inits2(53, r1, r2, (mpfr_ptr)0);
        mpfr_inits2(4096, lo, hi, (mpfr_ptr)0);
        for (size_t j = 0; j <= n; j++) {
            mpq_srcptr X = j < n ? G[j] : F;
            mpfr_srcptr got = j < n ? g[j] : f;
            mpfr_set_prec(r1, mpfr_get_prec(got)); mpfr_set_prec(r2, mpfr_get_prec(got));
            mpfr_set_q(lo, X, MPFR_RNDN);
            mpfr_set_q(hi, X, MPFR_RNDN);
            mpfr_t d;
            mpfr_init2(d, 64);
            mpfr_abs(d, lo, MPFR_RNDU);
            mpfr_mul_2si(d, d, -1000, MPFR_RNDU);
            mpfr_sub(lo, lo, d, MPFR_RNDD);
            mpfr_add(hi, hi, d, MPFR_RNDU);
            mpfr_clear(d);
            mpfr_set(r1, lo, MPFR_RNDN); mpfr_set(r2, hi, MPFR_RNDN);
            if (mpfr_equal_p(r1, r2)) {
                checked++;
                if (!mpfr_equal_p(r1, got))
                    ck_abort_msg("huge w case %d comp %zu: got %s, limit %s [FEDREF_SEED=%llu]",
                                 c, j, str(got), str(r1), seed);
            }
        }
        mpfr_clears(lo, hi, r1, r2, (mpfr_ptr)0);
    }
    ck_assert_int_gt(checked, ncase);
    for (int j = 0; j < LN; j++) { mpfr_clears(w[j], g[j], (mpfr_ptr)0); mpq_clear(G[j]); }
    mpfr_clear(f);
    mpq_clears(F, t, u, tiny, NULL);
}
END_TEST

/* ======================================================================
 * invalid arguments: every status code, outputs unchanged
 * ====================================================================== */

static void set77(mpfr_t *o, size_t k)
{
    for (size_t j = 0; j < k; j++) mpfr_set_ui(o[j], 77, MPFR_RNDN);
}

static void assert77(mpfr_t *o, size_t k)
{
    for (size_t j = 0; j < k; j++) ck_assert(mpfr_cmp_ui(o[j], 77) == 0);
}

START_TEST(errors_leave_outputs_unchanged)
{
    mpfr_t v[3], o[3], one, neg, zero, nan, inf, two;
    for (int j = 0; j < 3; j++) {
        mpfr_inits2(53, v[j], o[j], (mpfr_ptr)0);
        mpfr_set_ui(v[j], (unsigned long)j + 1, MPFR_RNDN);
    }
    mpfr_inits2(53, one, neg, zero, nan, inf, two, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN); mpfr_set_si(neg, -1, MPFR_RNDN); mpfr_set_zero(zero, -1);
    mpfr_set_nan(nan); mpfr_set_inf(inf, 1); mpfr_set_ui(two, 2, MPFR_RNDN);
    mpfr_t bad[3];                                   /* a vector with an infinity */
    for (int j = 0; j < 3; j++) { mpfr_init2(bad[j], 53); mpfr_set(bad[j], v[j], MPFR_RNDN); }
    mpfr_set_inf(bad[2], -1);
    set77(o, 3);

    /* step */
    ck_assert_int_eq(fr_fedepm_step(NULL, v, v, v, 3, one, one, one), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_step(o, NULL, v, v, 3, one, one, one), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 0, one, one, one), FR_ESIZE);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, zero, one, one), FR_EDOM);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, one, neg, one), FR_EDOM);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, one, one, zero), FR_EDOM);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, nan, one, one), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, one, one, inf), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, bad, 3, one, one, one), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_step(o, bad, v, v, 3, one, one, one), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_step(o, v, v, v, 3, one, NULL, one), FR_ENULL);
    assert77(o, 3);
    /* mu */
    ck_assert_int_eq(fr_fedepm_mu(NULL, one, one, two, 1, v, v, 3), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, one, two, 1, v, NULL, 3), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, one, two, 1, v, v, 0), FR_ESIZE);
    ck_assert_int_eq(fr_fedepm_mu(o[0], zero, one, two, 1, v, v, 3), FR_EDOM);
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, neg, two, 1, v, v, 3), FR_EDOM);
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, one, one, 1, v, v, 3), FR_EDOM);    /* alpha = 1 */
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, one, inf, 1, v, v, 3), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_mu(o[0], nan, one, two, 1, v, v, 3), FR_ENONFINITE);
    ck_assert_int_eq(fr_fedepm_mu(o[0], one, one, two, 1, bad, v, 3), FR_ENONFINITE);
    assert77(o, 3);
    /* scales and density */
    ck_assert_int_eq(fr_laplace_scale(NULL, one, one, one, MPFR_RNDU), FR_ENULL);
    ck_assert_int_eq(fr_laplace_scale(o[0], zero, one, one, MPFR_RNDU), FR_EDOM);
    ck_assert_int_eq(fr_laplace_scale(o[0], one, neg, one, MPFR_RNDU), FR_EDOM);
    ck_assert_int_eq(fr_laplace_scale(o[0], one, one, zero, MPFR_RNDU), FR_EDOM);
    ck_assert_int_eq(fr_laplace_scale(o[0], inf, one, one, MPFR_RNDU), FR_ENONFINITE);
    ck_assert_int_eq(fr_laplace_scale(o[0], one, one, one, (mpfr_rnd_t)99), FR_EDOM);
    ck_assert_int_eq(fr_laplace_scale_eq39(NULL, v, 3, one, one, MPFR_RNDU), FR_ENULL);
    ck_assert_int_eq(fr_laplace_scale_eq39(o[0], NULL, 3, one, one, MPFR_RNDU), FR_ENULL);
    ck_assert_int_eq(fr_laplace_scale_eq39(o[0], v, 0, one, one, MPFR_RNDU), FR_ESIZE);
    ck_assert_int_eq(fr_laplace_scale_eq39(o[0], v, 3, zero, one, MPFR_RNDU), FR_EDOM);
    ck_assert_int_eq(fr_laplace_scale_eq39(o[0], v, 3, one, nan, MPFR_RNDU), FR_ENONFINITE);
    ck_assert_int_eq(fr_laplace_scale_eq39(o[0], bad, 3, one, one, MPFR_RNDU), FR_ENONFINITE);
    ck_assert_int_eq(fr_laplace_density(NULL, one, one, 0), FR_ENULL);
    ck_assert_int_eq(fr_laplace_density(o[0], nan, one, 0), FR_ENONFINITE);
    ck_assert_int_eq(fr_laplace_density(o[0], one, inf, 0), FR_ENONFINITE);
    ck_assert_int_eq(fr_laplace_density(o[0], one, zero, 1), FR_EDOM);
    ck_assert_int_eq(fr_laplace_density(o[0], one, neg, 0), FR_EDOM);
    assert77(o, 3);
    /* exact penalty */
    ck_assert_int_eq(fr_lambda_star(NULL, v, 3, 1), FR_ENULL);
    ck_assert_int_eq(fr_lambda_star(o[0], v, 0, 1), FR_ESIZE);
    ck_assert_int_eq(fr_lambda_star(o[0], v, 3, 0), FR_ESIZE);
    ck_assert_int_eq(fr_lambda_star(o[0], bad, 3, 1), FR_ENONFINITE);
    ck_assert_int_eq(fr_stationarity_9(o[0], o[1], v, v, NULL, 3, 1), FR_ENULL);
    ck_assert_int_eq(fr_stationarity_9(o[0], NULL, v, v, v, 3, 1), FR_ENULL);
    ck_assert_int_eq(fr_stationarity_9(o[0], o[1], v, v, v, 0, 1), FR_ESIZE);
    ck_assert_int_eq(fr_stationarity_9(o[0], o[1], v, bad, v, 3, 1), FR_ENONFINITE);
    ck_assert_int_eq(fr_stationarity_9(o[0], o[1], v, v, bad, 1, 3), FR_ENONFINITE);
    ck_assert_int_eq(fr_stationarity_10(o[0], o[1], v, v, v, 3, 1, zero, one), FR_EDOM);
    ck_assert_int_eq(fr_stationarity_10(o[0], o[1], v, v, v, 3, 1, one, neg), FR_EDOM);
    ck_assert_int_eq(fr_stationarity_10(o[0], o[1], v, v, v, 3, 1, nan, one), FR_ENONFINITE);
    ck_assert_int_eq(fr_stationarity_10(o[0], o[1], bad, v, v, 3, 1, one, one), FR_ENONFINITE);
    ck_assert_int_eq(fr_stationarity_10(o[0], o[1], v, v, v, 3, 0, one, one), FR_ESIZE);
    ck_assert_int_eq(fr_stationarity_10(NULL, o[1], v, v, v, 3, 1, one, one), FR_ENULL);
    assert77(o, 3);
    /* stopping rule */
    int st = 99;
    ck_assert_int_eq(fr_stop_rule(NULL, one, v, 3, 1), FR_ENULL);
    ck_assert_int_eq(fr_stop_rule(&st, one, NULL, 3, 1), FR_ENULL);
    ck_assert_int_eq(fr_stop_rule(&st, one, v, 0, 1), FR_ESIZE);
    ck_assert_int_eq(fr_stop_rule(&st, one, v, 3, 0), FR_ESIZE);
    ck_assert_int_eq(fr_stop_rule(&st, neg, v, 3, 1), FR_EDOM);
    ck_assert_int_eq(fr_stop_rule(&st, nan, v, 3, 1), FR_ENONFINITE);
    ck_assert_int_eq(fr_stop_rule(&st, one, bad, 3, 1), FR_ENONFINITE);
    ck_assert_int_eq(st, 99);
    /* logistic loss */
    size_t d[2] = {1, 2};
    double X[3] = {0.5, -1, 2}, b[3] = {0, 1, 1};
    fr_logreg P = {2, 1, d, X, b, 0.5, 0};
    ck_assert_int_eq(fr_logreg_fi(NULL, NULL, &P, 0, v), FR_ENULL);
    ck_assert_int_eq(fr_logreg_fi(o[0], o, NULL, 0, v), FR_ENULL);
    ck_assert_int_eq(fr_logreg_fi(o[0], o, &P, 0, NULL), FR_ENULL);
    ck_assert_int_eq(fr_logreg_fi(o[0], o, &P, 2, v), FR_ESIZE);          /* i >= m */
    ck_assert_int_eq(fr_logreg_fi(o[0], o, &P, 0, bad + 2), FR_ENONFINITE);
    ck_assert_int_eq(fr_logreg_f(o[0], o, &P, bad + 2), FR_ENONFINITE);
    ck_assert_int_eq(fr_logreg_f(NULL, NULL, &P, v), FR_ENULL);
    fr_logreg Q = P;
    Q.m = 0;
    ck_assert_int_eq(fr_logreg_f(o[0], o, &Q, v), FR_ESIZE);
    size_t d0[2] = {1, 0};
    Q = P; Q.d = d0;
    ck_assert_int_eq(fr_logreg_fi(o[0], o, &Q, 0, v), FR_ESIZE);
    Q = P; Q.beta = 0;
    ck_assert_int_eq(fr_logreg_f(o[0], o, &Q, v), FR_EDOM);
    Q = P; Q.beta = NAN;
    ck_assert_int_eq(fr_logreg_f(o[0], o, &Q, v), FR_ENONFINITE);
    double Xn[3] = {0.5, INFINITY, 2}, bh[3] = {0, 0.5, 1};
    Q = P; Q.X = Xn;
    ck_assert_int_eq(fr_logreg_f(o[0], o, &Q, v), FR_ENONFINITE);
    Q = P; Q.b = bh;
    ck_assert_int_eq(fr_logreg_fi(o[0], NULL, &Q, 1, v), FR_EDOM);
    assert77(o, 3);
    for (int j = 0; j < 3; j++) mpfr_clears(v[j], o[j], bad[j], (mpfr_ptr)0);
    mpfr_clears(one, neg, zero, nan, inf, two, (mpfr_ptr)0);
}
END_TEST

Suite *suite_ref_fedepm(void)
{
    Suite *s = suite_create("ref_fedepm");
    TCase *tc = tcase_create("step_mu");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, step_vs_rationals);
    tcase_add_test(tc, step_minimises_23);
    tcase_add_test(tc, step_aliasing_and_zeros);
    tcase_add_test(tc, mu_vs_rationals);
    suite_add_tcase(s, tc);
    tc = tcase_create("laplace");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, scales_vs_rationals);
    tcase_add_test(tc, density_vs_naive);
    suite_add_tcase(s, tc);
    tc = tcase_create("exact_penalty");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, penalty_vs_rationals);
    tcase_add_test(tc, penalty_theorem_iii1);
    suite_add_tcase(s, tc);
    tc = tcase_create("stop_rule");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, stop_rule_vs_rationals);
    suite_add_tcase(s, tc);
    tc = tcase_create("logreg");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, logreg_vs_naive);
    tcase_add_test(tc, logreg_exact_gradients);
    tcase_add_test(tc, logreg_huge_w);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, errors_leave_outputs_unchanged);
    suite_add_tcase(s, tc);
    return s;
}
