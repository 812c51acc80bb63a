/* SPDX-License-Identifier: Apache-2.0 */
/* check_dp_laplace.c -- the privacy claim of 002 Theorem V.1 for ONE client
 * update (20) with w_i^k held fixed, with the Laplace noise (25), (27), and
 * the experiments' rule (39).  Over a block of k0 >= 2 updates and over a
 * run the upload's sensitivity is larger (the client's state carries the
 * data): check_dp_run.c, E-002-V1.
 *
 * pc_dp_sensitivity: for random (lambda, eta, mu, wi, w, g, g'),
 *   (a) ||w(g) - w(g')||_1 <= ||g - g'||_1 / (eta + mu), w(g) the exact (20),
 *       decided exactly (soft is 1-Lipschitz, E-002-A1b), with equality on
 *       every case where no coordinate meets the dead zone [-lambda, lambda];
 *   (b) with nu = Delta / (eps mu) (27), Delta >= ||g - g'||_1: the privacy
 *       loss sup_z ln p(z|D)/p(z|D') = ||w - w'||_1 / nu <= eps mu/(eta+mu)
 *       < eps for the Lap(0, nu) density, and ||w - w'||_1 / (2 nu), half
 *       that, for (25) read literally (its normaliser cancels): decided
 *       exactly, and evaluated with fr_laplace_density (nu from
 *       fr_laplace_scale rounded up, w from fr_fedepm_step) at the
 *       worst-case z (beyond w_j on the side away from w'_j) and at random z.
 *
 * pc_dp_density_25: erratum E-002-25.  (25) prints exp(-|x|/(2 nu))/(2 nu),
 *   which integrates to 2; (59) E|eps| = 4 nu, E eps^2 = 16 nu^2 are the
 *   moments of that unnormalised function, while Lap(0, nu) has nu and
 *   2 nu^2 (so (59) over-estimates: harmless upper bounds in Lemma A.2).
 *   Rigorous Riemann brackets on [0, X] from fr_laplace_density values
 *   (monotone: lower/upper sums; x^k p(x) unimodal: error <= 2 h max) plus
 *   bounded tails.
 *
 * pc_dp_eq39: erratum E-002-39.  (39) uses nu = 2 ||g_i(D)||_1 / (eps mu):
 *   data-dependent, and 2 ||g||_1 does not bound the sensitivity.  Witness 1:
 *   n = 1, d_i = 2, x = (1, 1), labels (1, 0), w = wi = 0: g(D) = 0, nu = 0,
 *   the upload is noiseless, while D' (labels (1, 1)) has g(D') = -1/2 and a
 *   different output: infinite privacy loss.  Witness 2 (w = wi = 1): both
 *   scales positive but different, so ln p(z|D')/p(z|D) grows linearly in
 *   |z| and exceeds eps.  Random label flips: how often 2||g(D)||_1 <
 *   ||g(D) - g(D')||_1 and how often the scales differ (then no eps works);
 *   the corrected rule (27) with Delta = ||g(D) - g(D')||_1 keeps the loss
 *   <= eps mu/(eta+mu) on the same pairs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_SENS UINT64_C(0x70632d73656e73)   /* "pc-sens" */
#define STREAM_E39 UINT64_C(0x70632d65333900)    /* "pc-e39" */
#define NVEC 4

/* r = soft(t, lambda) exactly. */
static int soft_exact(mpfr_t r, const mpfr_t t, const mpfr_t lambda)
{
    if (mpfr_cmpabs(t, lambda) <= 0) {
        mpfr_set_prec(r, MPFR_PREC_MIN);
        mpfr_set_zero(r, 1);
        return 0;
    }
    return mpfr_sgn(t) > 0 ? pcu_sub(r, t, lambda) : pcu_add(r, t, lambda);
}

/* sum_j ln p(z_j - a_j; nu_a) - ln p(z_j - b_j; nu_b) with fr_laplace_density
 * at precision q; *mag (may be NULL) += sum of |ln p| (for the rounding
 * tolerance).  0, or -1 on failure (or a zero density). */
static int log_ratio(mpfr_t L, mpfr_t *z, mpfr_t *a, const mpfr_t nua, mpfr_t *b,
                     const mpfr_t nub, size_t n, int printed, mpfr_prec_t q,
                     mpfr_t mag)
{
    mpfr_t x, pd, l;
    int rc = 0;
    mpfr_init2(x, MPFR_PREC_MIN);
    mpfr_inits2(q, pd, l, (mpfr_ptr)0);
    mpfr_set_zero(L, 1);
    for (size_t j = 0; j < n && rc == 0; j++)
        for (int s = 0; s < 2 && rc == 0; s++) {
            if (pcu_sub(x, z[j], s ? b[j] : a[j]) ||
                fr_laplace_density(pd, x, s ? nub : nua, printed) != FR_OK ||
                mpfr_zero_p(pd)) {
                rc = -1;
                break;
            }
            mpfr_log(l, pd, MPFR_RNDN);
            if (mag) {
                mpfr_t al;
                mpfr_init2(al, q);
                mpfr_abs(al, l, MPFR_RNDN);
                mpfr_add(mag, mag, al, MPFR_RNDU);
                mpfr_clear(al);
            }
            s ? mpfr_sub(L, L, l, MPFR_RNDN) : mpfr_add(L, L, l, MPFR_RNDN);
        }
    mpfr_clears(x, pd, l, (mpfr_ptr)0);
    return rc;
}

/* ---- pc_dp_sensitivity ---------------------------------------------------------*/

int pc_dp_sensitivity(pc_ctx *ctx)
{
    frng_t G;
    mpfr_prec_t p = ctx->prec, q = ctx->prec + 32;
    mpfr_t wi[NVEC], w[NVEC], g[NVEC], g2[NVEC], y[NVEC], y2[NVEC], z[NVEC];
    mpfr_t lambda, eta, mu, eps, Delta, nu, nun, t, t2, s, s2, d, S, D1, A, B, Q,
        L, Lf, mag, bound, tol, r, fs;
    unsigned long equal = 0, nocross = 0, zeval = 0;
    double ratio_sup = 0.0;
    char first[400] = "";

    ctx->function = "fedepm_step";
    ctx->vector = "fedepm_step";
    ctx->claim = "002 Thm V.1, one update (20) with w_i^k fixed: ||w(g)-w(g')||_1 <= ||g-g'||_1/(eta+mu) (sharp); with (27) its loss is ||w-w'||_1/nu <= eps mu/(eta+mu) (half for (25)); a whole block: check_dp_run.c";
    ctx->erratum = NULL;
    mpfr_inits2(64, lambda, eta, mu, eps, Delta, t, t2, s, s2, d, S, D1, A, B, Q,
                r, (mpfr_ptr)0);
    mpfr_inits2(p, nu, nun, (mpfr_ptr)0);
    mpfr_inits2(q, L, Lf, mag, bound, tol, fs, (mpfr_ptr)0);
    for (int j = 0; j < NVEC; j++) {
        mpfr_inits2(64, wi[j], w[j], g[j], g2[j], z[j], (mpfr_ptr)0);
        mpfr_inits2(p, y[j], y2[j], (mpfr_ptr)0);
    }
    frng_init(&G, ctx->seed, STREAM_SENS);

    for (unsigned long c = 0; c < ctx->cases; c++) {
        size_t n = 1 + pcu_below(&G, NVEC);
        const char *why = NULL;
        ctx->ran++;
        pcu_rand_dyadic_nz(lambda, &G, 1 + (unsigned)pcu_below(&G, 53), -6, 2, 1);
        pcu_rand_dyadic_nz(eta, &G, 1 + (unsigned)pcu_below(&G, 53), -8, 4, 1);
        pcu_rand_dyadic_nz(mu, &G, 1 + (unsigned)pcu_below(&G, 53), -6, 30, 1);
        pcu_rand_dyadic_nz(eps, &G, 1 + (unsigned)pcu_below(&G, 20), -4, 2, 1);
        int mode = (int)pcu_below(&G, 3);   /* 0: no crossing, 1: small, 2: any */
        for (size_t j = 0; j < n; j++) {
            mpfr_set_prec(g[j], 64);
            mpfr_set_prec(g2[j], 64);
            mpfr_set_prec(d, 64);
            mpfr_set_prec(s, 64);
            pcu_rand_dyadic(wi[j], &G, 1 + (unsigned)pcu_below(&G, 53), -4, 4, 0);
            pcu_rand_dyadic(w[j], &G, 1 + (unsigned)pcu_below(&G, 53), -4, 4, 0);
            pcu_rand_dyadic(g[j], &G, 1 + (unsigned)pcu_below(&G, 53), -4, 2, 0);
            pcu_rand_dyadic(d, &G, 1 + (unsigned)pcu_below(&G, 53),
                            mode == 1 ? -20 : -4, mode == 1 ? -8 : 2, 0);
            if (mode == 0) {
                /* g and g' both leave wt beyond the same threshold: put
                 * g = mu (wi - w) - (lambda + |e|) sgn, g' = g - |d| sgn */
                pcu_sub(t, wi[j], w[j]);
                pcu_mul(t2, mu, t);
                pcu_rand_dyadic_nz(s, &G, 20, -4, 2, 1);
                pcu_add(s2, lambda, s);
                if (pcu_below(&G, 2))
                    mpfr_neg(s2, s2, MPFR_RNDN);
                pcu_sub(g[j], t2, s2);                 /* wt = +-(lambda + s) */
                mpfr_abs(d, d, MPFR_RNDN);
                if (mpfr_sgn(s2) < 0)
                    mpfr_neg(d, d, MPFR_RNDN);
                pcu_sub(g2[j], g[j], d);               /* wt' further out */
            } else {
                pcu_add(g2[j], g[j], d);
            }
        }
        /* exact: t = mu (wi - w) - g, soft, S = sum |soft - soft'|, D1 */
        mpfr_set_prec(S, MPFR_PREC_MIN);
        mpfr_set_zero(S, 1);
        mpfr_set_prec(D1, MPFR_PREC_MIN);
        mpfr_set_zero(D1, 1);
        int cross = 0;
        for (size_t j = 0; j < n && why == NULL; j++) {
            if (pcu_sub(t, wi[j], w[j]) || pcu_mul(A, mu, t) || pcu_sub(t, A, g[j]) ||
                pcu_sub(t2, A, g2[j]) || soft_exact(s, t, lambda) ||
                soft_exact(s2, t2, lambda) || pcu_sub(d, s, s2) ||
                pcu_abs(B, d) || pcu_add(A, S, B) || pcu_set(S, A) ||
                pcu_sub(d, g[j], g2[j]) || pcu_abs(B, d) || pcu_add(A, D1, B) ||
                pcu_set(D1, A)) {
                why = "internal error";
                break;
            }
            /* fr_soft at a precision holding s exactly must return s */
            mpfr_set_prec(fs, mpfr_zero_p(s) ? 2 : mpfr_min_prec(s) + 1);
            if (fr_soft(&fs, &t, 1, lambda) != FR_OK || !mpfr_equal_p(fs, s))
                why = "fr_soft differs from the exact soft";
            if (!((mpfr_cmp(t, lambda) > 0 && mpfr_cmp(t2, lambda) > 0) ||
                  (mpfr_cmp_si(t, 0) < 0 && mpfr_cmpabs(t, lambda) > 0 &&
                   mpfr_cmp_si(t2, 0) < 0 && mpfr_cmpabs(t2, lambda) > 0)))
                cross = 1;
        }
        mpfr_set_prec(fs, q);
        if (why == NULL && mpfr_zero_p(D1))
            continue;                               /* g = g': nothing to test */
        /* (a) S <= D1, equality without crossing */
        if (why == NULL && mpfr_cmp(S, D1) > 0)
            why = "(a) ||soft(t)-soft(t')||_1 > ||g-g'||_1";
        if (why == NULL && !cross) {
            nocross++;
            if (!mpfr_equal_p(S, D1))
                why = "(a) no crossing but ||soft-soft'||_1 != ||g-g'||_1";
        }
        equal += why == NULL && mpfr_equal_p(S, D1);
        if (why == NULL) {
            mpfr_div(r, S, D1, MPFR_RNDN);          /* report only */
            double v = mpfr_get_d(r, MPFR_RNDN);
            if (v > ratio_sup)
                ratio_sup = v;
        }
        /* (b) Delta = D1 or D1 (1 + r), r in (0, 1] */
        if (why == NULL) {
            if (pcu_below(&G, 2)) {
                pcu_set(Delta, D1);
            } else {
                mpfr_set_prec(r, 64);
                pcu_rand_dyadic_nz(r, &G, 8, -8, 0, 1);
                pcu_mul(A, D1, r);
                pcu_add(Delta, D1, A);
            }
            /* exact: loss <= eps mu/(eta+mu) <=> S <= Delta; < eps <=> S mu < Delta (eta+mu) */
            if (pcu_add(Q, eta, mu) || pcu_mul(A, S, mu) || pcu_mul(B, Delta, Q))
                why = "internal error";
            else if (mpfr_cmp(S, Delta) > 0)
                why = "(b) loss > eps mu/(eta+mu) (exact)";
            else if (mpfr_cmp(A, B) >= 0)
                why = "(b) loss >= eps (exact)";
        }
        /* (b) numerically: the mechanism's nu and outputs */
        if (why == NULL) {
            if (fr_laplace_scale(nu, Delta, eps, mu, MPFR_RNDU) != FR_OK ||
                fr_laplace_scale(nun, Delta, eps, mu, MPFR_RNDN) != FR_OK ||
                fr_fedepm_step(y, wi, w, g, n, lambda, eta, mu) != FR_OK ||
                fr_fedepm_step(y2, wi, w, g2, n, lambda, eta, mu) != FR_OK)
                why = "fr_laplace_scale or fr_fedepm_step failed";
            else if (mpfr_cmp(nun, nu) > 0)
                why = "fr_laplace_scale: RNDU below RNDN";
        }
        /* the two readings of the density on alternate cases */
        for (int printed = (int)(c & 1); printed == (int)(c & 1) && why == NULL; printed++) {
            /* bound = eps mu / (eta + mu) (/2 for (25)), rounded up slightly */
            mpfr_mul(bound, eps, mu, MPFR_RNDU);
            mpfr_div(bound, bound, Q, MPFR_RNDU);
            if (printed)
                mpfr_div_2ui(bound, bound, 1, MPFR_RNDU);
            /* Lf = ||y - y'||_1 / nu (/2) */
            mpfr_set_zero(Lf, 1);
            for (size_t j = 0; j < n; j++) {
                pcu_sub(d, y[j], y2[j]);
                mpfr_abs(d, d, MPFR_RNDN);
                mpfr_add(Lf, Lf, d, MPFR_RNDN);
            }
            mpfr_div(Lf, Lf, nu, MPFR_RNDN);
            if (printed)
                mpfr_div_2ui(Lf, Lf, 1, MPFR_RNDN);
            for (int zk = 1; zk < 3 && why == NULL; zk++) {
                /* zk 1: worst case z_j = y_j + sgn(y_j - y'_j) k nu,
                 * k in 0..4; zk 2: z_j = y_j + u nu, |u| < 8 */
                for (size_t j = 0; j < n; j++) {
                    mpfr_set_prec(t, 64);
                    if (zk < 2) {
                        mpfr_set_ui(t, pcu_below(&G, 5), MPFR_RNDN);
                        if (mpfr_cmp(y[j], y2[j]) < 0)
                            mpfr_neg(t, t, MPFR_RNDN);
                    } else {
                        pcu_rand_dyadic(t, &G, 12, -2, 3, 0);
                    }
                    pcu_mul(A, t, nu);
                    pcu_add(z[j], y[j], A);
                }
                mpfr_set_zero(mag, 1);
                if (log_ratio(L, z, y, nu, y2, nu, n, printed, q, mag)) {
                    why = "fr_laplace_density failed";
                    break;
                }
                zeval++;
                /* tol = 2^-(p-40) (1 + sum |ln p|): the densities' rounding
                 * and that of y, y' relative to a small |y - y'| */
                mpfr_add_ui(tol, mag, 1, MPFR_RNDU);
                mpfr_mul_2si(tol, tol, -(long)(p - 40), MPFR_RNDU);
                mpfr_sub(A, L, Lf, MPFR_RNDN);     /* A at 64 bits: report */
                if (zk < 2) {
                    mpfr_set_prec(B, q);
                    mpfr_sub(B, L, Lf, MPFR_RNDN);
                    mpfr_abs(B, B, MPFR_RNDN);
                    if (mpfr_cmp(B, tol) > 0)
                        why = printed ? "(b) (25): loss at worst-case z != ||w-w'||_1/(2nu)"
                                      : "(b) loss at worst-case z != ||w-w'||_1/nu";
                }
                /* + sum_j (|y_j| + |y'_j|) 2^-p / nu: the rounding of the
                 * outputs (noise is added to fl(w), not to w) */
                mpfr_set_prec(B, q);
                mpfr_set_zero(B, 1);
                for (size_t j = 0; j < n; j++) {
                    mpfr_abs(A, y[j], MPFR_RNDU);
                    mpfr_add(B, B, A, MPFR_RNDU);
                    mpfr_abs(A, y2[j], MPFR_RNDU);
                    mpfr_add(B, B, A, MPFR_RNDU);
                }
                mpfr_mul_2si(B, B, -(long)p, MPFR_RNDU);
                mpfr_div(B, B, nu, MPFR_RNDU);
                if (printed)
                    mpfr_div_2ui(B, B, 1, MPFR_RNDU);
                mpfr_add(B, B, bound, MPFR_RNDU);
                mpfr_add(B, B, tol, MPFR_RNDU);
                if (why == NULL && mpfr_cmp(L, B) > 0)
                    why = printed ? "(b) (25): loss > eps mu/(2(eta+mu))"
                                  : "(b) loss > eps mu/(eta+mu)";
                if (why == NULL && mpfr_cmp(L, eps) >= 0)
                    why = "(b) loss >= eps";
                mpfr_set_prec(B, 64);
            }
        }
        if (why && ctx->failed++ == 0) {
            char b[5][64];
            pcu_fmt(b[0], sizeof b[0], lambda);
            pcu_fmt(b[1], sizeof b[1], eta);
            pcu_fmt(b[2], sizeof b[2], mu);
            pcu_fmt(b[3], sizeof b[3], eps);
            pcu_fmt(b[4], sizeof b[4], g[0]);
            pcu_snprintf(first, sizeof first, "case %lu n=%zu lambda=%s eta=%s mu=%s "
                         "eps=%s g_0=%s: %s", c, n, b[0], b[1], b[2], b[3], b[4], why);
        }
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "||w-w'||_1 (eta+mu) <= ||g-g'||_1 on all %lu cases, equality on %lu "
                     "(all %lu without dead-zone crossing), sup ratio %.17g; loss <= eps "
                     "mu/(eta+mu) exactly and at %lu z (worst case = ||w-w'||_1/nu, "
                     "/(2nu) for (25))",
                     ctx->ran, equal, nocross, ratio_sup, zeval);
    for (int j = 0; j < NVEC; j++)
        mpfr_clears(wi[j], w[j], g[j], g2[j], z[j], y[j], y2[j], (mpfr_ptr)0);
    mpfr_clears(lambda, eta, mu, eps, Delta, t, t2, s, s2, d, S, D1, A, B, Q, r,
                nu, nun, L, Lf, mag, bound, tol, fs, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_dp_density_25 -------------------------------------------------------------*/

/* Brackets of M_k = int_R |x|^k p(x) dx, k = 0, 1, 2, for the density
 * p = fr_laplace_density(., nu, printed), from the grid x = j h, h = a/256,
 * j = 0..N, X = N h = 48 a (a = nu, or 2 nu for (25)).  lo/hi at q bits. */
static int moments(mpfr_t lo[3], mpfr_t hi[3], const mpfr_t nu, int printed,
                   mpfr_prec_t p, mpfr_prec_t q)
{
    const unsigned long N = 48 * 256;
    mpfr_t a, h, x, pd, f, sum[3], sumN[3], mx, tail, tt;
    int rc = 0;
    mpfr_inits2(q, a, h, x, f, mx, tail, tt, (mpfr_ptr)0);
    mpfr_init2(pd, p);
    for (int k = 0; k < 3; k++) {
        mpfr_inits2(q, sum[k], sumN[k], (mpfr_ptr)0);
        mpfr_set_zero(sum[k], 1);
    }
    mpfr_mul_2ui(a, nu, printed ? 1 : 0, MPFR_RNDN);   /* exact */
    mpfr_div_2ui(h, a, 8, MPFR_RNDN);                  /* exact */
    /* sum[k] = sum_{j=0}^{N-1} (jh)^k p(jh); sumN[k] = the j = N term */
    for (unsigned long j = 0; j <= N && rc == 0; j++) {
        mpfr_mul_ui(x, h, j, MPFR_RNDN);               /* exact: j < 2^16 */
        if (fr_laplace_density(pd, x, nu, printed) != FR_OK) {
            rc = -1;
            break;
        }
        if (j % 1024 == 7) {   /* symmetry of the density */
            mpfr_neg(tt, x, MPFR_RNDN);
            mpfr_t pm;
            mpfr_init2(pm, p);
            if (fr_laplace_density(pm, tt, nu, printed) != FR_OK || !mpfr_equal_p(pm, pd))
                rc = -1;
            mpfr_clear(pm);
        }
        mpfr_set(f, pd, MPFR_RNDN);
        for (int k = 0; k < 3; k++) {
            if (j < N)
                mpfr_add(sum[k], sum[k], f, MPFR_RNDN);
            else
                mpfr_set(sumN[k], f, MPFR_RNDN);
            mpfr_mul(f, f, x, MPFR_RNDN);
        }
    }
    /* each density is within 2^-p relative, each sum operation at q bits:
     * widen by the relative factor 2^-(p-20) */
    for (int k = 0; k < 3 && rc == 0; k++) {
        mpfr_mul(sum[k], sum[k], h, MPFR_RNDN);
        mpfr_mul(sumN[k], sumN[k], h, MPFR_RNDN);
        if (k == 0) {
            /* decreasing: h sum_{1..N} <= int_0^X <= h sum_{0..N-1};
             * tail int_X^inf = a p(X) */
            mpfr_div(tail, sumN[0], h, MPFR_RNDU);
            mpfr_mul(tail, tail, a, MPFR_RNDU);
            mpfr_set(hi[0], sum[0], MPFR_RNDU);
            mpfr_add(hi[0], hi[0], tail, MPFR_RNDU);
            mpfr_ui_div(tt, 1, a, MPFR_RNDN);          /* p(0) = 1/(2 nu) */
            mpfr_div_2ui(tt, tt, printed ? 0 : 1, MPFR_RNDN);
            mpfr_mul(tt, tt, h, MPFR_RNDU);            /* h p(0) */
            mpfr_sub(lo[0], sum[0], tt, MPFR_RNDD);
            mpfr_add(lo[0], lo[0], sumN[0], MPFR_RNDD);
        } else {
            /* unimodal with f(0) = 0, max at k a: |Riemann - int| <= 2 h max;
             * max = (k a)^k e^-k / (2 nu); tail <= 2 a f(X) (X >= 2 k a) */
            mpfr_mul_ui(mx, a, (unsigned long)k, MPFR_RNDU);
            mpfr_pow_ui(mx, mx, (unsigned long)k, MPFR_RNDU);
            mpfr_set_si(tt, -k, MPFR_RNDN);
            mpfr_exp(tt, tt, MPFR_RNDU);
            mpfr_mul(mx, mx, tt, MPFR_RNDU);
            mpfr_div(mx, mx, nu, MPFR_RNDU);
            mpfr_div_2ui(mx, mx, 1, MPFR_RNDU);
            mpfr_mul(mx, mx, h, MPFR_RNDU);
            mpfr_mul_2ui(mx, mx, 1, MPFR_RNDU);        /* 2 h max */
            mpfr_div(tail, sumN[k], h, MPFR_RNDU);
            mpfr_mul(tail, tail, a, MPFR_RNDU);
            mpfr_mul_2ui(tail, tail, 1, MPFR_RNDU);
            mpfr_sub(lo[k], sum[k], mx, MPFR_RNDD);
            mpfr_add(hi[k], sum[k], mx, MPFR_RNDU);
            mpfr_add(hi[k], hi[k], tail, MPFR_RNDU);
        }
        /* both sides of 0, and the rounding widening */
        mpfr_mul_2ui(lo[k], lo[k], 1, MPFR_RNDD);
        mpfr_mul_2ui(hi[k], hi[k], 1, MPFR_RNDU);
        mpfr_mul_2si(tt, lo[k], -(long)(p - 20), MPFR_RNDU);
        mpfr_sub(lo[k], lo[k], tt, MPFR_RNDD);
        mpfr_mul_2si(tt, hi[k], -(long)(p - 20), MPFR_RNDU);
        mpfr_add(hi[k], hi[k], tt, MPFR_RNDU);
    }
    for (int k = 0; k < 3; k++)
        mpfr_clears(sum[k], sumN[k], (mpfr_ptr)0);
    mpfr_clears(a, h, x, pd, f, mx, tail, tt, (mpfr_ptr)0);
    return rc;
}

/* lo <= v <= hi for v = c nu^k (c an integer) */
static int in_bracket(const mpfr_t lo, const mpfr_t hi, unsigned long c,
                      const mpfr_t nu, int k, mpfr_prec_t q)
{
    mpfr_t v;
    mpfr_init2(v, q + 64);
    mpfr_pow_ui(v, nu, (unsigned long)k, MPFR_RNDN);
    mpfr_mul_ui(v, v, c, MPFR_RNDN);
    int r = mpfr_cmp(lo, v) <= 0 && mpfr_cmp(v, hi) <= 0;
    mpfr_clear(v);
    return r;
}

int pc_dp_density_25(pc_ctx *ctx)
{
    mpfr_prec_t p = ctx->prec, q = ctx->prec + 32;
    mpfr_t lo[3], hi[3], nu;
    char first[300] = "", wit[300] = "";
    /* nu: 1, 3/32, 129 (dyadic, as the scales are binary numbers) */
    static const struct { long m, e; } NU[] = {{1, 0}, {3, -5}, {129, 0}};

    ctx->function = "laplace_density";
    ctx->vector = NULL;
    ctx->claim = "002 (25): exp(-|x|/(2nu))/(2nu) integrates to 2; (59) E|eps| = 4nu, E eps^2 = 16nu^2 are its moments; Lap(0,nu): 1, nu, 2nu^2";
    ctx->erratum = "E-002-25";
    mpfr_init2(nu, 64);
    for (int k = 0; k < 3; k++)
        mpfr_inits2(q, lo[k], hi[k], (mpfr_ptr)0);
    for (size_t c = 0; c < sizeof NU / sizeof NU[0]; c++) {
        mpfr_set_si_2exp(nu, NU[c].m, NU[c].e, MPFR_RNDN);
        for (int printed = 0; printed < 2; printed++) {
            const char *why = NULL;
            ctx->ran++;
            if (moments(lo, hi, nu, printed, p, q)) {
                why = "fr_laplace_density failed or is not symmetric";
            } else if (printed) {
                /* (25): mass 2, E|x| 4 nu, E x^2 16 nu^2; not 1, nu, 2 nu^2;
                 * not 2 nu, 8 nu^2 (the normalised (25) = Lap(0, 2 nu)) */
                if (!in_bracket(lo[0], hi[0], 2, nu, 0, q) ||
                    in_bracket(lo[0], hi[0], 1, nu, 0, q))
                    why = "(25) does not integrate to 2";
                else if (!in_bracket(lo[1], hi[1], 4, nu, 1, q) ||
                         !in_bracket(lo[2], hi[2], 16, nu, 2, q))
                    why = "(59) are not the moments of (25) as printed";
                else if (in_bracket(lo[1], hi[1], 1, nu, 1, q) ||
                         in_bracket(lo[1], hi[1], 2, nu, 1, q) ||
                         in_bracket(lo[2], hi[2], 2, nu, 2, q) ||
                         in_bracket(lo[2], hi[2], 8, nu, 2, q))
                    why = "brackets too wide to separate the moments";
                if (why == NULL && c == 0)
                    mpfr_snprintf(wit, sizeof wit,
                                  "nu=1: int (25) in [%.8Rf, %.8Rf], int |x|(25) in "
                                  "[%.6Rf, %.6Rf], int x^2(25) in [%.5Rf, %.5Rf]",
                                  lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
            } else {
                if (!in_bracket(lo[0], hi[0], 1, nu, 0, q))
                    why = "Lap(0,nu) does not integrate to 1";
                else if (!in_bracket(lo[1], hi[1], 1, nu, 1, q) ||
                         !in_bracket(lo[2], hi[2], 2, nu, 2, q))
                    why = "Lap(0,nu) moments are not nu, 2 nu^2";
                else if (in_bracket(lo[1], hi[1], 4, nu, 1, q) ||
                         in_bracket(lo[2], hi[2], 16, nu, 2, q))
                    why = "brackets too wide";
            }
            if (why && ctx->failed++ == 0)
                mpfr_snprintf(first, sizeof first, "nu=%Rg printed=%d: %s", nu, printed, why);
        }
    }
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "(25) as printed integrates to 2 (not a density; Lap(0,nu) is "
                 "exp(-|x|/nu)/(2nu)): %s; (59) 4nu, 16nu^2 = moments of the unnormalised "
                 "(25); Lap(0,nu) gives 1, nu, 2nu^2 (nu = 1, 3/32, 129): (59) "
                 "over-estimates by 4 and 8, harmless as upper bounds%s%s",
                 wit, first[0] ? "; FIRST FAILURE " : "", first);
    for (int k = 0; k < 3; k++)
        mpfr_clears(lo[k], hi[k], (mpfr_ptr)0);
    mpfr_clear(nu);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_dp_eq39 --------------------------------------------------------------------*/

#define E39_N 3
#define E39_D 6

/* One client's data set and its label-flipped neighbour. */
typedef struct {
    size_t d[1];
    double X[E39_D * E39_N], b[E39_D], b2[E39_D];
    fr_logreg P, P2;
} e39_data;

static void e39_set(e39_data *E, size_t n, size_t d)
{
    E->d[0] = d;
    E->P = (fr_logreg){1, n, E->d, E->X, E->b, 1e-3, 0};
    E->P2 = (fr_logreg){1, n, E->d, E->X, E->b2, 1e-3, 0};
}

/* z far beyond the outputs on the side where the wider density wins:
 * ln p_a(z - ya)/p_b(z - yb) with nu_a > nu_b >= ... exceeds eps for
 * z = c + K, c = max(ya, yb) (n = 1 is enough: other coordinates at
 * z_j = y_j contribute a bounded term; here all coordinates move).
 * Returns the log ratio in L (evaluated), or -1. */
static int e39_violation(mpfr_t L, mpfr_t K, mpfr_t *ya, const mpfr_t nua,
                         mpfr_t *yb, const mpfr_t nub, size_t n, const mpfr_t eps,
                         int printed, mpfr_prec_t q)
{
    mpfr_t num, den, t, z[E39_N];
    int rc = 0;
    mpfr_inits2(q, num, den, t, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++)
        mpfr_init2(z[j], q);
    /* K >= 2 (eps + n ln(a/b) + sum |ya - yb|/b + 1) / (1/b - 1/a) / n */
    mpfr_div(t, nua, nub, MPFR_RNDU);
    mpfr_log(num, t, MPFR_RNDU);
    mpfr_mul_ui(num, num, n, MPFR_RNDU);
    mpfr_add(num, num, eps, MPFR_RNDU);
    mpfr_add_ui(num, num, 1, MPFR_RNDU);
    for (size_t j = 0; j < n; j++) {
        mpfr_sub(t, ya[j], yb[j], MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDU);
        mpfr_div(t, t, nub, MPFR_RNDU);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDU);
        mpfr_add(num, num, t, MPFR_RNDU);
    }
    mpfr_ui_div(den, 1, nub, MPFR_RNDD);
    mpfr_ui_div(t, 1, nua, MPFR_RNDU);
    mpfr_sub(den, den, t, MPFR_RNDD);
    mpfr_mul_ui(den, den, n, MPFR_RNDD);
    if (mpfr_sgn(den) <= 0) {
        rc = -1;
        goto done;
    }
    mpfr_div(K, num, den, MPFR_RNDU);
    mpfr_mul_2ui(K, K, 1, MPFR_RNDU);
    mpfr_ceil(K, K);
    /* the densities at |x|/nu up to ~K/nub must stay inside MPFR's range */
    mpfr_div(t, K, nub, MPFR_RNDU);
    if (mpfr_cmp_ui(t, 1UL << 26) > 0) {
        rc = -2;
        goto done;
    }
    for (size_t j = 0; j < n; j++) {
        mpfr_set(z[j], mpfr_cmp(ya[j], yb[j]) > 0 ? ya[j] : yb[j], MPFR_RNDN);
        mpfr_add(z[j], z[j], K, MPFR_RNDN);
    }
    if (log_ratio(L, z, ya, nua, yb, nub, n, printed, q, NULL))
        rc = -1;
done:
    for (size_t j = 0; j < n; j++)
        mpfr_clear(z[j]);
    mpfr_clears(num, den, t, (mpfr_ptr)0);
    return rc;
}

int pc_dp_eq39(pc_ctx *ctx)
{
    frng_t G;
    mpfr_prec_t p = ctx->prec, q = ctx->prec + 32;
    e39_data E;
    mpfr_t w[E39_N], wi[E39_N], g[E39_N], g2[E39_N], y[E39_N], y2[E39_N];
    mpfr_t lambda, eta, mu, eps, nu, nu2, L, K, d, D1, n1, t, t2, s, s2, S, A, B, Q;
    char w1[200] = "", w2[200] = "", first[200] = "";
    unsigned long under = 0, differ = 0, viol = 0, analytic = 0, ok27 = 0;

    ctx->function = "laplace_scale_eq39";
    ctx->vector = "laplace_scale";
    ctx->claim = "002 (39): nu = 2||g_i(D)||_1/(eps mu) is data-dependent and 2||g||_1 does not bound Delta: not eps-DP for any eps; (27) with the true Delta is";
    ctx->erratum = "E-002-39";
    mpfr_inits2(p, lambda, eta, mu, eps, nu, nu2, (mpfr_ptr)0);
    mpfr_inits2(q, L, K, (mpfr_ptr)0);
    mpfr_inits2(64, d, D1, n1, t, t2, s, s2, S, A, B, Q, (mpfr_ptr)0);
    for (int j = 0; j < E39_N; j++) {
        mpfr_inits2(p, w[j], wi[j], g[j], g2[j], y[j], y2[j], (mpfr_ptr)0);
    }
    frng_init(&G, ctx->seed, STREAM_E39);

    /* ---- witness 1: g(D) = 0 ---- */
    {
        const char *why = NULL;
        ctx->ran++;
        e39_set(&E, 1, 2);
        E.X[0] = 1.0; E.X[1] = 1.0;
        E.b[0] = 1.0; E.b[1] = 0.0;
        E.b2[0] = 1.0; E.b2[1] = 1.0;
        mpfr_set_zero(w[0], 1);
        mpfr_set_zero(wi[0], 1);
        mpfr_set_ui_2exp(lambda, 1, -2, MPFR_RNDN);
        mpfr_set_ui(eta, 1, MPFR_RNDN);
        mpfr_set_ui(mu, 1, MPFR_RNDN);
        mpfr_set_ui_2exp(eps, 1, -1, MPFR_RNDN);
        if (fr_logreg_fi(NULL, g, &E.P, 0, w) != FR_OK ||
            fr_logreg_fi(NULL, g2, &E.P2, 0, w) != FR_OK)
            why = "fr_logreg_fi failed";
        else if (!mpfr_zero_p(g[0]) || mpfr_cmp_si_2exp(g2[0], -1, -1) != 0)
            why = "g(D) != 0 or g(D') != -1/2";
        int st = why ? FR_OK : fr_laplace_scale_eq39(nu, g, 1, eps, mu, MPFR_RNDU);
        if (why == NULL && st == FR_OK && !mpfr_zero_p(nu))
            why = "(39) scale at g = 0 is not 0";
        /* the rule's value is 0 whatever the library returns (FR_EDOM is
         * also a refusal of the rule): the upload is noiseless */
        if (why == NULL && (fr_laplace_scale_eq39(nu2, g2, 1, eps, mu, MPFR_RNDU) != FR_OK ||
                            mpfr_cmp_ui(nu2, 2) != 0))
            why = "(39) scale at D' is not 2 ||g||_1/(eps mu) = 2";
        if (why == NULL && (fr_fedepm_step(y, wi, w, g, 1, lambda, eta, mu) != FR_OK ||
                            fr_fedepm_step(y2, wi, w, g2, 1, lambda, eta, mu) != FR_OK))
            why = "fr_fedepm_step failed";
        if (why == NULL && (!mpfr_zero_p(y[0]) || mpfr_cmp_ui_2exp(y2[0], 1, -3) != 0))
            why = "outputs are not 0 and 1/8";
        if (why == NULL)
            pcu_snprintf(w1, sizeof w1,
                         "W1 (n=1 d_i=2 x=(1,1) labels (1,0)/(1,1) w=wi=0 lambda=1/4 "
                         "eta=mu=1 eps=1/2): g(D)=0, scale %s, z=w(D)=0 noiseless; "
                         "g(D')=-1/2, scale 2, w(D')=1/8: loss infinite",
                         st == FR_OK ? "0" : "refused");
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "witness 1: %s", why);
    }

    /* ---- witness 2: w = wi = 1, both scales positive ---- */
    {
        const char *why = NULL;
        ctx->ran++;
        mpfr_set_ui(w[0], 1, MPFR_RNDN);
        mpfr_set_ui(wi[0], 1, MPFR_RNDN);
        if (fr_logreg_fi(NULL, g, &E.P, 0, w) != FR_OK ||
            fr_logreg_fi(NULL, g2, &E.P2, 0, w) != FR_OK ||
            fr_laplace_scale_eq39(nu, g, 1, eps, mu, MPFR_RNDU) != FR_OK ||
            fr_laplace_scale_eq39(nu2, g2, 1, eps, mu, MPFR_RNDU) != FR_OK ||
            fr_fedepm_step(y, wi, w, g, 1, lambda, eta, mu) != FR_OK ||
            fr_fedepm_step(y2, wi, w, g2, 1, lambda, eta, mu) != FR_OK)
            why = "a library call failed";
        /* 2|g(D)| < |g(D) - g(D')| (= 1/2 up to rounding) */
        mpfr_set_prec(d, q);
        mpfr_set_prec(n1, q);
        if (why == NULL) {
            mpfr_sub(d, g[0], g2[0], MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_abs(n1, g[0], MPFR_RNDN);
            mpfr_mul_2ui(n1, n1, 1, MPFR_RNDN);
            if (!(mpfr_cmp(n1, d) < 0))
                why = "2||g(D)||_1 >= Delta";
            else if (mpfr_cmp(nu, nu2) >= 0)
                why = "expected nu(D) < nu(D')";
        }
        mpfr_t Lp;
        mpfr_init2(Lp, q);
        int rc1 = why ? 0 : e39_violation(L, K, y2, nu2, y, nu, 1, eps, 0, q);
        int rc2 = why ? 0 : e39_violation(Lp, K, y2, nu2, y, nu, 1, eps, 1, q);
        if (why == NULL && (rc1 || rc2))
            why = "no violating z found";
        else if (why == NULL && (mpfr_cmp(L, eps) <= 0 || mpfr_cmp(Lp, eps) <= 0))
            why = "the log ratio at the far z does not exceed eps";
        if (why == NULL)
            mpfr_snprintf(w2, sizeof w2,
                          "W2 (w=wi=1): 2|g(D)|=%.4Rf < Delta=%.4Rf, scales %.4Rf/%.4Rf; "
                          "z=%.0Rf: ln p(z|D')/p(z|D) = %.2Rf (Lap), %.2Rf ((25)) > eps",
                          n1, d, nu, nu2, K, L, Lp);
        mpfr_clear(Lp);
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "witness 2: %s", why);
    }
    mpfr_set_prec(d, 64);
    mpfr_set_prec(n1, 64);

    /* ---- random label flips ---- */
    for (unsigned long c = 0; c < ctx->cases; c++) {
        const char *why = NULL;
        size_t n = 1 + pcu_below(&G, E39_N), dd = 2 + pcu_below(&G, E39_D - 1);
        ctx->ran++;
        e39_set(&E, n, dd);
        for (size_t k = 0; k < dd * n; k++)
            E.X[k] = ldexp((double)((long)pcu_below(&G, 2049) - 1024), -10);
        for (size_t k = 0; k < dd; k++)
            E.b[k] = E.b2[k] = (double)pcu_below(&G, 2);
        size_t f = pcu_below(&G, dd);
        E.b2[f] = 1.0 - E.b[f];
        for (size_t j = 0; j < n; j++) {
            mpfr_set_prec(t, 64);
            pcu_rand_dyadic(t, &G, 20, -2, 3, 0);
            mpfr_set(w[j], t, MPFR_RNDN);
            pcu_rand_dyadic(t, &G, 20, -2, 3, 0);
            mpfr_set(wi[j], t, MPFR_RNDN);
        }
        mpfr_set_prec(t, 64);
        pcu_rand_dyadic_nz(t, &G, 12, -8, 0, 1);
        mpfr_set(lambda, t, MPFR_RNDN);
        pcu_rand_dyadic_nz(t, &G, 12, -6, 2, 1);
        mpfr_set(eta, t, MPFR_RNDN);
        pcu_rand_dyadic_nz(t, &G, 12, -6, 10, 1);
        mpfr_set(mu, t, MPFR_RNDN);
        pcu_rand_dyadic_nz(t, &G, 12, -4, 1, 1);
        mpfr_set(eps, t, MPFR_RNDN);
        if (fr_logreg_fi(NULL, g, &E.P, 0, w) != FR_OK ||
            fr_logreg_fi(NULL, g2, &E.P2, 0, w) != FR_OK ||
            fr_fedepm_step(y, wi, w, g, n, lambda, eta, mu) != FR_OK ||
            fr_fedepm_step(y2, wi, w, g2, n, lambda, eta, mu) != FR_OK) {
            why = "a library call failed";
        }
        /* exact (the g's are the rounded values the step uses): D1 =
         * ||g - g'||_1, n1 = 2||g||_1, S = ||soft(t) - soft(t')||_1 */
        mpfr_set_prec(D1, 2); mpfr_set_zero(D1, 1);
        mpfr_set_prec(n1, 2); mpfr_set_zero(n1, 1);
        mpfr_set_prec(S, 2); mpfr_set_zero(S, 1);
        for (size_t j = 0; j < n && why == NULL; j++) {
            if (pcu_sub(d, g[j], g2[j]) || pcu_abs(A, d) || pcu_add(B, D1, A) ||
                pcu_set(D1, B) || pcu_abs(A, g[j]) || pcu_add(B, n1, A) ||
                pcu_set(n1, B) || pcu_sub(d, wi[j], w[j]) || pcu_mul(A, mu, d) ||
                pcu_sub(t, A, g[j]) || pcu_sub(t2, A, g2[j]) ||
                soft_exact(s, t, lambda) || soft_exact(s2, t2, lambda) ||
                pcu_sub(d, s, s2) || pcu_abs(A, d) || pcu_add(B, S, A) || pcu_set(S, B))
                why = "internal error";
        }
        if (why == NULL) {
            mpfr_mul_2ui(n1, n1, 1, MPFR_RNDN);
            under += mpfr_cmp(n1, D1) < 0;
            /* (27) with Delta = D1: loss <= eps mu/(eta+mu) <=> S <= D1 */
            if (!mpfr_zero_p(D1)) {
                if (mpfr_cmp(S, D1) > 0)
                    why = "(27) with the true Delta: loss > eps mu/(eta+mu)";
                else
                    ok27++;
            }
        }
        if (why == NULL &&
            (fr_laplace_scale_eq39(nu, g, n, eps, mu, MPFR_RNDU) != FR_OK ||
             fr_laplace_scale_eq39(nu2, g2, n, eps, mu, MPFR_RNDU) != FR_OK))
            why = "fr_laplace_scale_eq39 failed";
        if (why == NULL && !mpfr_equal_p(nu, nu2)) {
            differ++;
            /* the wider density over the narrower one, far out */
            int wide2 = mpfr_cmp(nu2, nu) > 0;
            int rc = e39_violation(L, K, wide2 ? y2 : y, wide2 ? nu2 : nu,
                                   wide2 ? y : y2, wide2 ? nu : nu2, n, eps, 0, q);
            if (rc == -2)
                analytic++;   /* scales too close to evaluate that far out */
            else if (rc != 0 || mpfr_cmp(L, eps) <= 0)
                why = "no z found where the (39) loss exceeds eps";
            else
                viol++;
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "random case %lu (n=%zu d=%zu): %s", c, n,
                         dd, why);
    }
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%s%s%s%s; %s; %lu label flips: 2||g(D)||_1 < Delta on %lu, scales differ "
                 "on %lu (loss > eps at a z on %lu, %lu too far out); (27) with the true "
                 "Delta: loss <= eps mu/(eta+mu) on all %lu",
                 first[0] ? "FIRST FAILURE " : "", first, first[0] ? "; " : "",
                 w1, w2, ctx->cases, under, differ, viol, analytic, ok27);
    for (int j = 0; j < E39_N; j++)
        mpfr_clears(w[j], wi[j], g[j], g2[j], y[j], y2[j], (mpfr_ptr)0);
    mpfr_clears(lambda, eta, mu, eps, nu, nu2, L, K, d, D1, n1, t, t2, s, s2, S, A,
                B, Q, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
