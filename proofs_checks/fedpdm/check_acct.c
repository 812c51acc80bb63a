/* SPDX-License-Identifier: Apache-2.0 */
/* check_acct.c -- the privacy accountant of FedPDM-DP (fedref/fedpdm.h,
 * privacy accounting).
 *
 * pc_fedpdm_rdp: the per-round subsampled RDP bound e(alpha)
 *   (fr_fedpdm_rdp_order, WBK 2019 Thm 9 with eps(inf) = inf, min alpha mu)
 *   is >= the exact Renyi divergence of a neighbouring pair of the K-of-N
 *   subsampled Gaussian mechanism: D (client i holds x, f(x) = s) and D'
 *   (x', f(x') = 0), every other client's upload 0, so the output is
 *   P = (1-g) N(0, sigma^2) + g N(s, sigma^2) against Q = N(0, sigma^2),
 *   g = K/N, and for integer alpha
 *     E_Q[(P/Q)^alpha] = sum_k C(alpha,k) (1-g)^{alpha-k} g^k e^{k(k-1) mu}
 *   (expand the binomial; E_Q e^{k(2 s z - s^2)/(2 sigma^2)} =
 *   e^{k(k-1) mu}): D_alpha(P||Q) = ln(that)/(alpha - 1), computed at
 *   ctx->prec bits rounded DOWN (a certified lower bound).  Random sigma,
 *   s, K <= N, alpha in [2, 40]; plus K = N (equality alpha mu, both
 *   sides: the bound must be tight there, within 2^-40).
 *
 * pc_fedpdm_acct_order: on random (sigma, s, T, delta, K, N):
 *   (a) basic, advanced (fr_fedpdm_compose) and the unsubsampled RDP
 *       (fr_fedpdm_rdp, K = N) are all >= the EXACT least eps of the T-fold
 *       composed Gaussian mechanism, which is the Gaussian mechanism with
 *       sigma / sqrt(T) (fr_fedpdm_gauss_eps at sigma_T rounded down);
 *   (b) RDP with K < N <= RDP with K = N (amplification never hurts here:
 *       the min with alpha mu);
 *   (c) monotonicity of fr_fedpdm_rdp: non-decreasing in T and in K,
 *       non-increasing in sigma.
 *   Not asserted (not theorems): advanced <= basic (false for per-round
 *   eps_0 >~ 1: e.g. the paper's eps = 1 row) and RDP <= advanced (false
 *   for T = 1 and small delta). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "../pc.h"
#include "../pc_util.h"
#include "fedref/fedpdm.h"

static double u01(frng_t *g)
{
    return (double)frng_u53(g) * 0x1p-53;
}

/* D_alpha(P||Q) of the pair above, rounded down at prec */
static void div_lower(mpfr_t r, const mpfr_t sigma, const mpfr_t s, unsigned long K,
                      unsigned long N, unsigned long al, mpfr_prec_t prec)
{
    mpfr_t mu, g, h, t, u, acc;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(prec, mu, g, h, t, u, acc, (mpfr_ptr)0);
    mpfr_sqr(mu, s, MPFR_RNDD);
    mpfr_sqr(t, sigma, MPFR_RNDU);
    mpfr_div(mu, mu, t, MPFR_RNDD);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDD);
    mpfr_set_ui(g, K, MPFR_RNDD);
    mpfr_div_ui(g, g, N, MPFR_RNDD);                  /* g down */
    mpfr_set_ui(h, N - K, MPFR_RNDD);
    mpfr_div_ui(h, h, N, MPFR_RNDD);                  /* 1 - g down */
    mpfr_set_zero(acc, 1);
    for (unsigned long k = 0; k <= al; k++) {
        mpz_bin_uiui(bin, al, k);
        mpfr_set_z(t, bin, MPFR_RNDD);
        mpfr_pow_ui(u, h, al - k, MPFR_RNDD);
        mpfr_mul(t, t, u, MPFR_RNDD);
        mpfr_pow_ui(u, g, k, MPFR_RNDD);
        mpfr_mul(t, t, u, MPFR_RNDD);
        mpfr_mul_ui(u, mu, k * (k - (k > 0)), MPFR_RNDD);
        mpfr_exp(u, u, MPFR_RNDD);
        mpfr_mul(t, t, u, MPFR_RNDD);
        mpfr_add(acc, acc, t, MPFR_RNDD);
    }
    mpfr_log(acc, acc, MPFR_RNDD);
    mpfr_div_ui(r, acc, al - 1, MPFR_RNDD);
    mpfr_clears(mu, g, h, t, u, acc, (mpfr_ptr)0);
    mpz_clear(bin);
}

int pc_fedpdm_rdp(pc_ctx *ctx)
{
    ctx->function = "fedpdm_rdp_order";
    ctx->vector = "fedpdm_rdp";
    ctx->claim = "003 accounting: WBK19 Thm 9 subsampled-Gaussian RDP bound >= the exact Renyi "
                 "divergence of a K-of-N neighbouring pair; tight (alpha mu) at K = N";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    frng_t g;
    frng_init(&g, ctx->seed, 1);
    mpfr_t sg, s, e, d, hi;
    mpfr_inits2(53, sg, s, (mpfr_ptr)0);
    mpfr_init2(e, 64);
    mpfr_inits2(ctx->prec, d, hi, (mpfr_ptr)0);
    double worst = 0;                                  /* max D / e over the cases */
    unsigned long n = ctx->cases / 4 + 20;
    for (unsigned long i = 0; i < n; i++) {
        mpfr_set_d(sg, exp(log(0.3) + u01(&g) * log(200.0)), MPFR_RNDN);
        mpfr_set_d(s, 0.05 + 3 * u01(&g), MPFR_RNDN);
        unsigned long N = 1 + pcu_below(&g, 200), K = 1 + pcu_below(&g, N);
        unsigned long al = 2 + pcu_below(&g, 39);
        if (i < 20)
            K = N;
        ctx->ran++;
        int st = fr_fedpdm_rdp_order(e, sg, s, K, N, al);
        div_lower(d, sg, s, K, N, al, ctx->prec);
        int bad = st != FR_OK || mpfr_cmp(d, e) > 0;
        if (K == N && !bad) {                          /* tight: e <= alpha mu (1 + 2^-40) */
            mpfr_mul_2ui(hi, d, 0, MPFR_RNDU);
            mpfr_mul_d(hi, hi, 1 + 0x1p-40, MPFR_RNDU);
            bad = mpfr_cmp(e, hi) > 0;
        }
        if (mpfr_sgn(e) > 0) {
            double r = mpfr_get_d(d, MPFR_RNDU) / mpfr_get_d(e, MPFR_RNDD);
            if (K < N && r > worst)
                worst = r;
        }
        if (bad) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail,
                         "sigma %.6g s %.6g K %lu N %lu alpha %lu: bound %.17g, divergence %.17g (st %d)",
                         mpfr_get_d(sg, MPFR_RNDN), mpfr_get_d(s, MPFR_RNDN), K, N, al,
                         mpfr_get_d(e, MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN), st);
            ctx->failed++;
        }
    }
    if (!ctx->failed)
        snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu cases: bound >= exact divergence (K < N: largest ratio divergence/bound %.4f); "
                 "K = N tight", ctx->ran, worst);
    mpfr_clears(sg, s, e, d, hi, (mpfr_ptr)0);
    return ctx->failed != 0;
}

int pc_fedpdm_acct_order(pc_ctx *ctx)
{
    ctx->function = "fedpdm_rdp";
    ctx->vector = "fedpdm_rdp";
    ctx->claim = "003 accounting: basic, advanced, RDP >= the exact eps of the T-fold Gaussian; "
                 "subsampled RDP <= unsubsampled; RDP monotone in T, K, sigma";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    frng_t g;
    frng_init(&g, ctx->seed, 2);
    mpfr_t sg, sgT, s, D, b, a, r0, r1, r2, ex;
    mpfr_inits2(53, sg, sgT, s, D, b, a, r0, r1, r2, ex, (mpfr_ptr)0);
    unsigned long n = ctx->cases / 200 + 10, adv_worse = 0;
    for (unsigned long i = 0; i < n; i++) {
        const double sig = exp(log(0.3) + u01(&g) * log(100.0));
        mpfr_set_d(sg, sig, MPFR_RNDN);
        mpfr_set_d(s, 0.1 + 2 * u01(&g), MPFR_RNDN);
        mpfr_set_d(D, pow(10, -1 - 11 * u01(&g)), MPFR_RNDN);
        unsigned long T = 1 + pcu_below(&g, 400), N = 2 + pcu_below(&g, 150);
        unsigned long K = 1 + pcu_below(&g, N - 1), al, al2;
        const unsigned long am = 48;
        char why[96] = "";
        ctx->ran++;
        /* sigma / sqrt(T) rounded down: the exact eps of the composed
         * mechanism is decreasing in sigma, so this is >= the exact one...
         * we need a LOWER bound of it: round sigma_T UP */
        mpfr_sqrt_ui(sgT, T, MPFR_RNDD);
        mpfr_div(sgT, sg, sgT, MPFR_RNDU);
        int st = fr_fedpdm_gauss_eps(ex, sgT, s, D);
        mpfr_nextbelow(ex);                            /* the least eps > this (RNDU result) */
        st |= fr_fedpdm_compose(b, a, sg, s, T, D);
        st |= fr_fedpdm_rdp(r0, &al, sg, s, N, N, T, D, am);
        st |= fr_fedpdm_rdp(r1, &al2, sg, s, K, N, T, D, am);
        if (st != FR_OK)
            snprintf(why, sizeof why, "status %d", st);
        else if (mpfr_cmp(b, ex) < 0 || mpfr_cmp(a, ex) < 0 || mpfr_cmp(r0, ex) < 0)
            snprintf(why, sizeof why, "an accountant below the exact eps %.10g", mpfr_get_d(ex, MPFR_RNDN));
        else if (mpfr_cmp(r1, r0) > 0)
            snprintf(why, sizeof why, "subsampled RDP above unsubsampled");
        adv_worse += mpfr_cmp(a, b) > 0;
        if (!why[0]) {                                 /* T + 1 */
            st = fr_fedpdm_rdp(r2, &al, sg, s, K, N, T + 1, D, am);
            if (st != FR_OK || mpfr_cmp(r2, r1) < 0)
                snprintf(why, sizeof why, "RDP decreased with T");
        }
        if (!why[0] && K < N) {                        /* K + 1 */
            st = fr_fedpdm_rdp(r2, &al, sg, s, K + 1, N, T, D, am);
            if (st != FR_OK || mpfr_cmp(r2, r1) < 0)
                snprintf(why, sizeof why, "RDP decreased with K");
        }
        if (!why[0]) {                                 /* sigma * 1.01 */
            mpfr_mul_d(sgT, sg, 1.01, MPFR_RNDN);
            st = fr_fedpdm_rdp(r2, &al, sgT, s, K, N, T, D, am);
            if (st != FR_OK || mpfr_cmp(r2, r1) > 0)
                snprintf(why, sizeof why, "RDP increased with sigma");
        }
        if (why[0]) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail, "sigma %.6g s %.6g T %lu K %lu N %lu: %s",
                         sig, mpfr_get_d(s, MPFR_RNDN), T, K, N, why);
            ctx->failed++;
        }
    }
    if (!ctx->failed)
        snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu cases: all >= the exact composed eps; sub <= unsub; monotone; "
                 "advanced > basic in %lu of them (not a theorem)", ctx->ran, adv_worse);
    mpfr_clears(sg, sgT, s, D, b, a, r0, r1, r2, ex, (mpfr_ptr)0);
    return ctx->failed != 0;
}

/* Phibar(y) = erfc(y/sqrt2)/2 bounded below (dir < 0, y then an upper bound
 * of the argument) or above (dir > 0, y a lower bound) at prec. */
static void phibar_b(mpfr_t r, const mpfr_t y, int dir, mpfr_prec_t prec)
{
    mpfr_t t, c;
    mpfr_inits2(prec, t, c, (mpfr_ptr)0);
    mpfr_set_ui(c, 2, MPFR_RNDN);
    /* y / sqrt2 = y * (1/sqrt2): toward +inf for dir < 0 (erfc decreasing) */
    if (dir < 0) {
        mpfr_rec_sqrt(c, c, mpfr_sgn(y) >= 0 ? MPFR_RNDU : MPFR_RNDD);
        mpfr_mul(t, y, c, MPFR_RNDU);
        mpfr_erfc(r, t, MPFR_RNDD);
    } else {
        mpfr_rec_sqrt(c, c, mpfr_sgn(y) >= 0 ? MPFR_RNDD : MPFR_RNDU);
        mpfr_mul(t, y, c, MPFR_RNDD);
        mpfr_erfc(r, t, MPFR_RNDU);
    }
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    mpfr_clears(t, c, (mpfr_ptr)0);
}

/* A certified lower bound of the hockey-stick divergence
 * H_e(P||Q) = sup_S P(S) - e^e Q(S) >= P(x > x0) - e^e Q(x > x0) for the pair
 * P = (1-p) N(0, sigma^2) + p N(s, sigma^2), Q = N(0, sigma^2), any x0:
 *   = p Phibar((x0 - s)/sigma) - (e^e - 1 + p) Phibar(x0/sigma). */
static void hs_lower(mpfr_t r, const mpfr_t e, const mpfr_t p, const mpfr_t sigma, const mpfr_t s,
                     mpfr_prec_t prec)
{
    mpfr_t c, x0, y, a, b;
    mpfr_inits2(prec, c, x0, y, a, b, (mpfr_ptr)0);
    mpfr_expm1(c, e, MPFR_RNDN);
    mpfr_add(c, c, p, MPFR_RNDN);
    mpfr_div(x0, c, p, MPFR_RNDN);
    mpfr_log(x0, x0, MPFR_RNDN);
    mpfr_mul(x0, x0, sigma, MPFR_RNDN);
    mpfr_mul(x0, x0, sigma, MPFR_RNDN);
    mpfr_div(x0, x0, s, MPFR_RNDN);
    mpfr_div_2ui(y, s, 1, MPFR_RNDN);
    mpfr_add(x0, x0, y, MPFR_RNDN);                   /* any x0 is valid: to nearest */
    mpfr_sub(y, x0, s, MPFR_RNDU);
    mpfr_div(y, y, sigma, MPFR_RNDU);                 /* sigma > 0 */
    phibar_b(a, y, -1, prec);
    mpfr_mul(a, a, p, MPFR_RNDD);                     /* p Phibar, down */
    mpfr_div(y, x0, sigma, MPFR_RNDD);
    phibar_b(b, y, 1, prec);
    mpfr_expm1(c, e, MPFR_RNDU);
    mpfr_add(c, c, p, MPFR_RNDU);
    mpfr_mul(b, b, c, MPFR_RNDU);
    mpfr_sub(r, a, b, MPFR_RNDD);
    mpfr_clears(c, x0, y, a, b, (mpfr_ptr)0);
}

/* A certified upper bound of the same H_e(P||Q) (P = (1-p) N(0, sigma^2) +
 * p N(s, sigma^2), Q = N(0, sigma^2)): the likelihood ratio is increasing
 * in x, so the optimal set is {x > x0*}, x0* = (sigma^2/s) ln((e^e - 1 +
 * p)/p) + s/2; with x0lo <= x0* <= x0hi,
 *   H <= p Phibar((x0lo - s)/sigma) - (e^e - 1 + p) Phibar(x0hi/sigma). */
static void hs_upper(mpfr_t r, const mpfr_t e, const mpfr_t p, const mpfr_t sigma, const mpfr_t s,
                     mpfr_prec_t prec)
{
    mpfr_t c, x0l, x0h, y, a, b;
    mpfr_inits2(prec, c, x0l, x0h, y, a, b, (mpfr_ptr)0);
    for (int hi = 0; hi < 2; hi++) {
        mpfr_rnd_t m = hi ? MPFR_RNDU : MPFR_RNDD, n = hi ? MPFR_RNDD : MPFR_RNDU;
        mpfr_ptr x = hi ? x0h : x0l;
        mpfr_expm1(c, e, m);
        mpfr_add(c, c, p, m);
        mpfr_div(x, c, p, m);                         /* p > 0; c/p >= 1 */
        mpfr_log(x, x, m);
        mpfr_mul(x, x, sigma, m);
        mpfr_mul(x, x, sigma, m);
        mpfr_div(x, x, s, m);
        mpfr_div_2ui(y, s, 1, n == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU);
        mpfr_add(x, x, y, m);
    }
    mpfr_sub(y, x0l, s, MPFR_RNDD);
    mpfr_div(y, y, sigma, MPFR_RNDD);
    phibar_b(a, y, 1, prec);
    mpfr_mul(a, a, p, MPFR_RNDU);
    mpfr_div(y, x0h, sigma, MPFR_RNDU);
    phibar_b(b, y, -1, prec);
    mpfr_expm1(c, e, MPFR_RNDD);
    mpfr_add(c, c, p, MPFR_RNDD);
    mpfr_mul(b, b, c, MPFR_RNDD);
    mpfr_sub(r, a, b, MPFR_RNDU);
    mpfr_clears(c, x0l, x0h, y, a, b, (mpfr_ptr)0);
}

/* pc_fedpdm_thm2: erratum E-003-20, under 003's own relation (Definition 1:
 * D, D' differ in one data sample; q = Q b/|D_i| a record fraction).
 * Paper's settings: N = 100, K = 5 (p = 1/20), T = 300, delta = 1e-5, b =
 * 30, |D_i| = 600, s = 1, sigma the binary64 (5) at eps.
 * (a) Round 0 (S_0 = [N]: client i takes part for sure), Q = 1: record j
 *     lies in the one batch with probability q = b/|D_i| = 1/20.  A
 *     neighbouring pair under Assumption 3 (mini-batch gradients of norm <=
 *     G; nothing bounds one record's gradient): in D' every record has
 *     gradient -G u (linear losses), in D record j has (2b - 1) G u, so a
 *     batch holding j has gradient G u and any other -G u.  The round-0
 *     upload is then (1-q) N(0, sigma^2) + q N(s, sigma^2) against N(0,
 *     sigma^2) (s = (19) at Q = 1, = 4 eta G; one unit here).  The value e of
 *     (20) with c0 = 1 (fr_fedpdm_thm2, rounded up) has a certified
 *     H_e > delta at every eps in {0.1, 1, 7, 10}: (20) is not a total of
 *     the run (the run's loss is at least round 0's, by post-processing,
 *     against the server).  The largest e with a certified H_e > delta
 *     (bisection): a lower bound eps_L of round 0's eps alone.
 * (b) What this route cannot show (certified upper bounds of H for the same
 *     pair): at eps = 1, Q = 1, a round t >= 1 (client sampled with
 *     probability p, record in the batch with q: weight p q) has H at (20)
 *     below delta; at q = 2^-14 even round 0 (weight q) has H at (20) below
 *     delta.  So the one-round argument refutes (20) only at the paper's q,
 *     not "every c0 at some q" (one round's loss vanishes with q as well).
 * (c) The client-level relation (one client's data replaced, fedref's
 *     accountant's: not 003's): the pair (1-p) N(0) + p N(s) vs N(0) of a
 *     round t >= 1 does not depend on q, and every c0 in {1, 10, ...,
 *     10^6} is refuted at some q = 2^-j.
 * (d) fedref's totals without amplification (fr_fedpdm_rdp, K = N) are not
 *     refuted by the pair of (a) (H at them <= delta, as they must be). */
int pc_fedpdm_thm2(pc_ctx *ctx)
{
    ctx->function = "fedpdm_thm2";
    ctx->vector = "fedpdm_thm2";
    ctx->claim = "003 Theorem 2 (20) with c0 = 1 at the paper's settings is below round 0's record-level "
                 "loss (hockey-stick > delta); the one-round route stops there under Definition 1";
    ctx->erratum = "E-003-20";
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t pr = ctx->prec;
    mpfr_t sg, s, D, p, w, c0, ep, q, e, H, r, lo, hi, m;
    mpfr_inits2(pr, sg, s, D, p, w, c0, ep, q, e, H, r, lo, hi, m, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    mpfr_set_ui(p, 1, MPFR_RNDN);
    mpfr_div_ui(p, p, 20, MPFR_RNDD);                 /* 1/20 down: H is increasing in the weight */
    static const double epss[4] = {0.1, 1, 7, 10};
    char el[4][16], h1[24] = "", hb[2][24];
    /* (a) and (d) */
    for (int i = 0; i < 4; i++) {
        ctx->ran++;
        mpfr_set_d(sg, sqrt(2 * log(1.25 / 1e-5)) / epss[i], MPFR_RNDN);
        mpfr_set_ui(c0, 1, MPFR_RNDN);
        mpfr_set_d(ep, epss[i], MPFR_RNDN);
        mpfr_set_ui(q, 30, MPFR_RNDN);
        mpfr_div_ui(q, q, 600, MPFR_RNDN);
        int st = fr_fedpdm_thm2(e, c0, ep, 5, 100, 300, q);
        hs_lower(H, e, p, sg, s, pr);
        unsigned long al;
        st |= fr_fedpdm_rdp(r, &al, sg, s, 100, 100, 300, D, 256);
        mpfr_t Hr;
        mpfr_init2(Hr, pr);
        hs_upper(Hr, r, p, sg, s, pr);
        int refuted = st == FR_OK && mpfr_cmp(H, D) > 0;
        int acct_ok = mpfr_cmp(Hr, D) <= 0;
        /* eps_L: bisection, lo certified H > delta */
        mpfr_set_zero(lo, 1);
        mpfr_set_ui(hi, 50, MPFR_RNDN);
        for (int k = 0; k < 60; k++) {
            mpfr_add(m, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(m, m, 1, MPFR_RNDN);
            hs_lower(Hr, m, p, sg, s, pr);
            if (mpfr_cmp(Hr, D) > 0) mpfr_set(lo, m, MPFR_RNDN);
            else mpfr_set(hi, m, MPFR_RNDN);
        }
        mpfr_snprintf(el[i], sizeof el[i], "%.4RDg", lo);
        if (i == 1) mpfr_snprintf(h1, sizeof h1, "%.6RDg", H);
        if (!refuted || !acct_ok || mpfr_cmp(lo, e) <= 0) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail,
                         "eps %g: (20) = %.6g, H lower %.6g (refuted %d); K = N total %.6g, H %.3g", epss[i],
                         mpfr_get_d(e, MPFR_RNDU), mpfr_get_d(H, MPFR_RNDD), refuted, mpfr_get_d(r, MPFR_RNDU),
                         mpfr_get_d(Hr, MPFR_RNDU));
            ctx->failed++;
        }
        mpfr_clear(Hr);
    }
    /* (b) eps = 1, Q = 1: a round t >= 1 (weight p q = 1/400, up); round 0 at q = 2^-14 */
    mpfr_set_d(sg, sqrt(2 * log(1.25 / 1e-5)), MPFR_RNDN);
    mpfr_set_ui(c0, 1, MPFR_RNDN);
    mpfr_set_ui(ep, 1, MPFR_RNDN);
    for (int k = 0; k < 2; k++) {
        ctx->ran++;
        if (k == 0) {
            mpfr_set_ui(q, 30, MPFR_RNDN);
            mpfr_div_ui(q, q, 600, MPFR_RNDN);
            mpfr_set_ui(w, 1, MPFR_RNDN);
            mpfr_div_ui(w, w, 400, MPFR_RNDU);
        } else {
            mpfr_set_ui_2exp(q, 1, -14, MPFR_RNDN);
            mpfr_set(w, q, MPFR_RNDN);
        }
        int st = fr_fedpdm_thm2(e, c0, ep, 5, 100, 300, q);
        mpfr_t Hl;
        mpfr_init2(Hl, pr);
        hs_upper(H, e, w, sg, s, pr);
        hs_lower(Hl, e, w, sg, s, pr);
        mpfr_snprintf(hb[k], sizeof hb[k], "%.3RUg", H);
        if (st != FR_OK || mpfr_cmp(H, D) >= 0 || mpfr_cmp(Hl, H) > 0) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail, "(b) case %d: H upper %s not below delta", k, hb[k]);
            ctx->failed++;
        }
        mpfr_clear(Hl);
    }
    /* (c) client level, any c0: q = 2^-j, j up to 60, at eps = 1 */
    unsigned long jmax = 0;
    for (int k = 0; k <= 6; k++) {
        ctx->ran++;
        mpfr_set_d(c0, pow(10, k), MPFR_RNDN);
        int found = 0;
        for (unsigned long j = 1; j <= 60 && !found; j++) {
            mpfr_set_ui_2exp(q, 1, -(long)j, MPFR_RNDN);
            if (fr_fedpdm_thm2(e, c0, ep, 5, 100, 300, q) != FR_OK)
                break;
            hs_lower(H, e, p, sg, s, pr);
            if (mpfr_cmp(H, D) > 0) {
                found = 1;
                if (j > jmax)
                    jmax = j;
            }
        }
        if (!found) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail, "c0 = 1e%d: no q = 2^-j refutes (20) (client level)", k);
            ctx->failed++;
        }
    }
    if (!ctx->failed)
        snprintf(ctx->detail, sizeof ctx->detail,
                 "record level, round 0, Q = 1, c0 = 1: (20) refuted at eps 0.1/1/7/10 (eps 1: H >= %s > 1e-5); "
                 "round 0 alone has eps >= %s/%s/%s/%s; not shown by this route: t >= 1 (H <= %s), q = 2^-14 "
                 "(H <= %s); client level: every c0 <= 1e6 refuted at some q >= 2^-%lu; K = N totals not refuted",
                 h1, el[0], el[1], el[2], el[3], hb[0], hb[1], jmax);
    mpfr_clears(sg, s, D, p, w, c0, ep, q, e, H, r, lo, hi, m, (mpfr_ptr)0);
    return ctx->failed != 0;
}
