/* SPDX-License-Identifier: Apache-2.0 */
/* sens_path.c -- the whole-path sensitivity of one client's uploads under
 * Algorithm 1 of 003 with a fixed Q (E-003-S1).  Contract: fedref/fedpdm.h.
 *
 * Derivation (neighbours D, D' of client i, the same public history: x_0^t,
 * the batches, the participation pattern).  Write b = 1 - eta^t rho, B =
 * b^Q, X = x_i - x_i', L = (lambda_i - lambda_i')/rho, Delta_r = x^{t,r} -
 * x'^{t,r}.  (10a): Delta_{r+1} = b Delta_r + eta rho L - eta (g_r - g'_r),
 * so with eta rho sum_{r<Q} b^r = 1 - B
 *   Delta_Q = B Delta_0 + (1 - B) L + w,  w = -eta sum_r b^(Q-1-r) (g_r - g'_r),
 *   ||w|| <= 2 eta G S_Q(|b|) = W = (19)/2;
 * (10c): L+ = L - Delta_Q; (10d): y - y' = Delta_Q - L+ = 2 Delta_Q - L.
 *   XI (Delta_0 = X): y-diff = 2B X + (1 - 2B) L + 2w,
 *                     X+ = B X + (1 - B) L + w,  L+ = -B X + B L - w;
 *   X0 (Delta_0 = 0): y-diff = (1 - 2B) L + 2w,  L+ = B L - w
 *   (x_i does not enter a later round under X0).
 * Pattern-robust bounds (claim: ||X_t|| <= Xb_t, ||L_t|| <= Lb_t for every
 * participation pattern and every admissible gradient sequence).  Induction
 * on t; t = 0: X = L = 0 (x_i^0 = x_0^0, lambda_i^0 = 0 for both).  Round t:
 * absent, the client keeps (X, L): ||X_{t+1}|| = ||X_t|| <= Xb_t <= Xb_{t+1};
 * present, by the triangle inequality ||X_{t+1}|| <= |B| Xb_t + |1 - B| Lb_t
 * + W_t <= Xb_{t+1} (all coefficients >= 0, so the bound is monotone in Xb_t,
 * Lb_t), and likewise ||L_{t+1}|| <= |B| Xb_t + |B| Lb_t + W_t (XI) or |B|
 * Lb_t + W_t (X0).  Taking the max of the two cases gives the recursion of
 * the header, and s[t] bounds the upload of round t whenever it happens.
 * Every quantity is >= 0 and every operation is rounded up at wp = max
 * prec(s[t]) + 64; B is enclosed from the exact b by mpfr_pow_ui down/up,
 * W_t by fr_fedpdm_sensitivity (rounded up) halved exactly. */
#include <stdlib.h>
#include "../internal.h"
#include "fedref/fedpdm.h"
#include "enclosures.h"

/* r = x y rounded up, x, y >= 0, with 0 * anything = 0 (no NaN from 0 Inf). */
static void mulu(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y)
{
    if (mpfr_zero_p(x) || mpfr_zero_p(y))
        mpfr_set_zero(r, 1);
    else
        mpfr_mul(r, x, y, MPFR_RNDU);
}

/* c = an upper bound of |1 - k B| for B in sgnB [lo, hi] (0 <= lo <= hi),
 * k = 1 or 2. */
static void one_minus(mpfr_ptr c, int sgnB, mpfr_srcptr lo, mpfr_srcptr hi, unsigned k, mpfr_ptr tmp)
{
    if (sgnB < 0) {                                   /* 1 + k |B| > 0 */
        mpfr_mul_ui(c, hi, k, MPFR_RNDU);
        mpfr_add_ui(c, c, 1, MPFR_RNDU);
        return;
    }
    mpfr_mul_ui(c, lo, k, MPFR_RNDD);                 /* 1 - k lo: the largest */
    mpfr_ui_sub(c, 1, c, MPFR_RNDU);
    mpfr_mul_ui(tmp, hi, k, MPFR_RNDU);               /* 1 - k hi: the smallest */
    mpfr_ui_sub(tmp, 1, tmp, MPFR_RNDD);
    mpfr_neg(tmp, tmp, MPFR_RNDN);                    /* -(1 - k hi) */
    if (mpfr_cmp(tmp, c) > 0)
        mpfr_set(c, tmp, MPFR_RNDN);
    if (mpfr_sgn(c) < 0)
        mpfr_set_zero(c, 1);
}

/* One pass at working precision wp: r[t] (their own precisions) rounded
 * up from the wp-bit upper bounds.  *k: the bits the absolute errors of the
 * |1 - kB| and |B| terms (about 2^-wp (Xb + Lb) max(1, |B|) per round) can
 * cost relative to the round's s[t] >= 2W_t and bounds >= W_t, i.e. max_t
 * log2((Xb_t + Lb_t) max(1, |B_t|) / W_t), at least 0: the caller re-runs
 * at wp + k so that every s[t] is within about 2^-(p + 40) of the exact
 * value (T <= 10^5 rounds of a few operations each). */
int fri_pdm_path_pass(mpfr_t *r, mpfr_t *const eta, unsigned long T, const mpfr_t rho, unsigned long Q,
                      const mpfr_t G, int start, mpfr_prec_t wp, long *k)
{
    int st = FR_OK;
    long kmax = 0;
    mpfr_t one, c, b, lo, hi, W, c1, c2, xb, lb, nx, nl, u, v;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, c, b, (mpfr_ptr)0);
    mpfr_inits2(wp, lo, hi, W, c1, c2, xb, lb, nx, nl, u, v, (mpfr_ptr)0);
    mpfr_set_zero(xb, 1);
    mpfr_set_zero(lb, 1);
    const int xi = start == FR_PDM_START_XI;
    for (unsigned long t = 0; t < T && st == FR_OK; t++) {
        st = fr_fedpdm_sensitivity(W, eta[t], rho, Q, G);              /* (19), up */
        if (st == FR_OK) st = fri_mul_exact(c, eta[t], rho);
        if (st == FR_OK) st = fri_sub_exact(b, one, c);                 /* b exact */
        if (st != FR_OK)
            break;
        mpfr_div_2ui(W, W, 1, MPFR_RNDU);                               /* W_t */
        int sgnB = mpfr_sgn(b) < 0 && (Q & 1) ? -1 : 1;
        mpfr_abs(b, b, MPFR_RNDN);
        mpfr_pow_ui(lo, b, Q, MPFR_RNDD);                               /* |B| enclosed */
        mpfr_pow_ui(hi, b, Q, MPFR_RNDU);
        if (!mpfr_zero_p(W) && mpfr_number_p(hi)) {                     /* the bits at risk */
            mpfr_add(u, xb, lb, MPFR_RNDU);
            if (mpfr_cmp_ui(hi, 1) > 0) mulu(u, u, hi);
            if (!mpfr_zero_p(u) && mpfr_number_p(u)) {
                long e = (long)(mpfr_get_exp(u) - mpfr_get_exp(W)) + 1;
                if (e > kmax) kmax = e;
            }
        }
        /* s[t] = |2B| Xb + |1 - 2B| Lb + 2W */
        one_minus(c2, sgnB, lo, hi, 2, u);
        mulu(u, c2, lb);
        mpfr_mul_2ui(v, W, 1, MPFR_RNDU);
        mpfr_add(u, u, v, MPFR_RNDU);
        if (xi) {
            mpfr_mul_2ui(v, hi, 1, MPFR_RNDU);
            mulu(v, v, xb);
            mpfr_add(u, u, v, MPFR_RNDU);
        }
        mpfr_set(r[t], u, MPFR_RNDU);
        if (t + 1 == T)
            break;
        if (xi) {
            one_minus(c1, sgnB, lo, hi, 1, u);
            mulu(u, hi, xb);                  /* X+ <= |B| Xb + |1 - B| Lb + W */
            mulu(v, c1, lb);
            mpfr_add(nx, u, v, MPFR_RNDU);
            mpfr_add(nx, nx, W, MPFR_RNDU);
            mulu(v, hi, lb);                  /* L+ <= |B| Xb + |B| Lb + W */
            mpfr_add(nl, u, v, MPFR_RNDU);
            mpfr_add(nl, nl, W, MPFR_RNDU);
            if (mpfr_cmp(nx, xb) > 0) mpfr_set(xb, nx, MPFR_RNDN);
        } else {
            mulu(nl, hi, lb);                 /* L+ <= |B| Lb + W */
            mpfr_add(nl, nl, W, MPFR_RNDU);
        }
        if (mpfr_cmp(nl, lb) > 0) mpfr_set(lb, nl, MPFR_RNDN);
    }
    mpfr_clears(one, c, b, lo, hi, W, c1, c2, xb, lb, nx, nl, u, v, (mpfr_ptr)0);
    *k = kmax;
    return st;
}

int fr_fedpdm_path_sens(mpfr_t *s, mpfr_t *const eta, unsigned long T, const mpfr_t rho,
                        unsigned long Q, const mpfr_t G, int start)
{
    if (s == NULL || eta == NULL || rho == NULL || G == NULL)
        return FR_ENULL;
    if (T == 0 || T > FR_PDM_T_MAX || Q > FR_FEDPDM_Q_MAX)
        return FR_ESIZE;
    for (unsigned long t = 0; t < T; t++)
        if (!mpfr_number_p(eta[t]))
            return FR_ENONFINITE;
    if (!mpfr_number_p(rho) || !mpfr_number_p(G))
        return FR_ENONFINITE;
    for (unsigned long t = 0; t < T; t++)
        if (mpfr_sgn(eta[t]) <= 0)
            return FR_EDOM;
    if (mpfr_sgn(rho) <= 0 || mpfr_sgn(G) < 0 || Q == 0
        || (start != FR_PDM_START_XI && start != FR_PDM_START_X0))
        return FR_EDOM;

    mpfr_prec_t pmax = MPFR_PREC_MIN;
    for (unsigned long t = 0; t < T; t++)
        if (mpfr_get_prec(s[t]) > pmax)
            pmax = mpfr_get_prec(s[t]);
    mpfr_t *r = malloc(T * sizeof *r);
    if (r == NULL)
        return FR_ENOMEM;
    for (unsigned long t = 0; t < T; t++)
        mpfr_init2(r[t], mpfr_get_prec(s[t]));
    long k = 0;
    int st = fri_pdm_path_pass(r, eta, T, rho, Q, G, start, pmax + 64, &k);
    if (st == FR_OK && k > 0) {                      /* cancellation: more bits */
        const mpfr_prec_t wp = pmax + 64 + (mpfr_prec_t)k;
        st = wp > FRI_EXACT_PREC_MAX ? FR_EPREC : fri_pdm_path_pass(r, eta, T, rho, Q, G, start, wp, &k);
    }
    if (st == FR_OK)
        for (unsigned long t = 0; t < T; t++)
            mpfr_set(s[t], r[t], MPFR_RNDN);                           /* same precision */
    for (unsigned long t = 0; t < T; t++)
        mpfr_clear(r[t]);
    free(r);
    return st;
}
