/* SPDX-License-Identifier: Apache-2.0 */
/* kkt.c -- fr_proxal_kkt: the residuals of 004 Definition 1, rounded up.
 *
 * Both sets are products of intervals, so each residual is the max over
 * coordinates of a 1-D distance (fedref/proxal.h gives the formulas and the
 * proof).  Each coordinate distance is |S|, max(S, 0) or max(-S, 0) of ONE
 * sum S of exact terms: g_k, the products J_kj mu_j (exact, fri_mul_exact)
 * and possibly -+gamma.  mpfr_sum rounds S correctly in any mode, and the
 * sign of a correctly rounded number is the sign of the exact one, so
 *   |RNDA(S)| = RU(|S|),  max(RNDU(S), 0) = RU(max(S, 0)),
 *   max(-RNDD(S), 0) = RU(max(-S, 0)),
 * each at the output's precision.  RU is monotone, hence max_k RU(e_k) =
 * RU(max_k e_k): the result is correctly rounded upward.
 * Contract: fedref/proxal.h. */
#include <stdlib.h>
#include "../internal.h"

/* The argument checks in class order (fedref_common.h). */
static int kkt_args(mpfr_t eps1, mpfr_t eps2, mpfr_t *const g, size_t d, mpfr_t *const J, size_t m,
                    mpfr_t *const c, mpfr_t *const mu, mpfr_t *const w, int h, mpfr_srcptr gamma,
                    mpfr_t *const lo, mpfr_t *const hi)
{
    if (!eps1 || !eps2 || !g || !w || (m > 0 && (!J || !c || !mu)) || (h == FR_PROXAL_H_L1 && !gamma)
        || (h == FR_PROXAL_H_BOX && (!lo || !hi)))
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX || m > FR_PROXAL_M_MAX || (m > 0 && d > FR_COUNT_MAX / m))
        return FR_ESIZE;
    if (!fri_finite(g, d) || !fri_finite(w, d) || (m > 0 && (!fri_finite(J, d * m) || !fri_finite(c, m)
                                                           || !fri_finite(mu, m))))
        return FR_ENONFINITE;
    if (h == FR_PROXAL_H_L1 && !mpfr_number_p(gamma))
        return FR_ENONFINITE;
    if (h == FR_PROXAL_H_BOX && (!fri_finite(lo, d) || !fri_finite(hi, d)))
        return FR_ENONFINITE;
    if (h != FR_PROXAL_H_ZERO && h != FR_PROXAL_H_L1 && h != FR_PROXAL_H_BOX)
        return FR_EDOM;
    if (h == FR_PROXAL_H_L1 && mpfr_sgn(gamma) < 0)
        return FR_EDOM;
    for (size_t j = 0; j < m; j++)
        if (mpfr_sgn(mu[j]) < 0)                          /* -0 is the multiplier 0 */
            return FR_EDOM;
    if (h == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < d; k++)
            if (mpfr_cmp(lo[k], hi[k]) > 0 || mpfr_cmp(w[k], lo[k]) < 0 || mpfr_cmp(w[k], hi[k]) > 0)
                return FR_EDOM;
    return eps1 == eps2 ? FR_EDOM : FR_OK;
}

/* The kinds of coordinate distance: |S|, max(S, 0), max(-S, 0), 0. */
enum { D_ABS, D_POS, D_NEG, D_ZERO };

/* e = RU(dist) at e's precision, dist of kind `kind` of the exact sum of
 * t[0..n-1]. */
static void coord_dist(mpfr_ptr e, const mpfr_ptr *t, size_t n, int kind)
{
    switch (kind) {
    case D_ABS:
        mpfr_sum(e, t, (unsigned long)n, MPFR_RNDA);
        mpfr_abs(e, e, MPFR_RNDN);                         /* exact */
        break;
    case D_POS:
        mpfr_sum(e, t, (unsigned long)n, MPFR_RNDU);
        break;
    case D_NEG:
        mpfr_sum(e, t, (unsigned long)n, MPFR_RNDD);
        mpfr_neg(e, e, MPFR_RNDN);                         /* exact */
        break;
    default:
        mpfr_set_zero(e, 1);
    }
    if (mpfr_sgn(e) <= 0)
        mpfr_set_zero(e, 1);                               /* max(., 0), a zero is +0 */
}

int fr_proxal_kkt(mpfr_t eps1, mpfr_t eps2, mpfr_t *const grad_f, size_t d, mpfr_t *const J,
                  size_t m, mpfr_t *const c, mpfr_t *const mu, mpfr_t *const w, int h,
                  const mpfr_t gamma, mpfr_t *const lo, mpfr_t *const hi)
{
    int st = kkt_args(eps1, eps2, grad_f, d, J, m, c, mu, w, h, gamma, lo, hi);
    if (st != FR_OK)
        return st;
    mpfr_t *prod = malloc((m ? m : 1) * sizeof *prod);
    mpfr_ptr *t = malloc((m + 2) * sizeof *t);
    if (prod == NULL || t == NULL) {
        free(prod);
        free(t);
        return FR_ENOMEM;
    }
    mpfr_t e1, e2, e, f, ng, sg;
    mpfr_init2(e1, mpfr_get_prec(eps1));
    mpfr_init2(e2, mpfr_get_prec(eps2));
    mpfr_init2(e, mpfr_get_prec(eps1));
    mpfr_init2(f, mpfr_get_prec(eps2));
    mpfr_init2(sg, MPFR_PREC_MIN);
    mpfr_init2(ng, h == FR_PROXAL_H_L1 ? mpfr_get_prec(gamma) : MPFR_PREC_MIN);
    if (h == FR_PROXAL_H_L1)
        mpfr_neg(ng, gamma, MPFR_RNDN);                    /* exact */
    for (size_t j = 0; j < m; j++)
        mpfr_init2(prod[j], MPFR_PREC_MIN);
    mpfr_set_zero(e1, 1);
    mpfr_set_zero(e2, 1);
    for (size_t k = 0; k < d && st == FR_OK; k++) {
        /* r_k = g_k + sum_j J_kj mu_j: the terms, exact */
        size_t n = 0;
        t[n++] = grad_f[k];
        for (size_t j = 0; j < m && st == FR_OK; j++) {
            st = fri_mul_exact(prod[j], J[k * m + j], mu[j]);
            t[n++] = prod[j];
        }
        if (st != FR_OK)
            break;
        int kind = D_ABS;                                  /* h = 0, box interior */
        if (h == FR_PROXAL_H_L1) {
            int sw = mpfr_sgn(w[k]);
            if (sw > 0) {
                t[n++] = (mpfr_ptr)gamma;                  /* |r + gamma| */
            } else if (sw < 0) {
                t[n++] = ng;                               /* |r - gamma| */
            } else {                                       /* max(|r| - gamma, 0) */
                mpfr_sum(sg, t, (unsigned long)n, MPFR_RNDN);   /* the exact sign of r */
                if (mpfr_sgn(sg) >= 0) {
                    t[n++] = ng;
                    kind = D_POS;                          /* max(r - gamma, 0) */
                } else {
                    t[n++] = (mpfr_ptr)gamma;
                    kind = D_NEG;                          /* max(-(r + gamma), 0) */
                }
            }
        } else if (h == FR_PROXAL_H_BOX) {
            int atlo = mpfr_equal_p(w[k], lo[k]), athi = mpfr_equal_p(w[k], hi[k]);
            kind = atlo && athi ? D_ZERO : atlo ? D_NEG : athi ? D_POS : D_ABS;
        }
        coord_dist(e, t, n, kind);
        mpfr_max(e1, e1, e, MPFR_RNDU);                    /* exact: same precision */
    }
    for (size_t j = 0; j < m && st == FR_OK; j++) {
        /* e2_j = |c_j| (mu_j > 0) or max(c_j, 0) (mu_j = 0), rounded up */
        if (mpfr_sgn(mu[j]) > 0)
            mpfr_abs(f, c[j], MPFR_RNDU);
        else
            mpfr_set(f, c[j], MPFR_RNDU);
        if (mpfr_sgn(f) <= 0)
            mpfr_set_zero(f, 1);
        mpfr_max(e2, e2, f, MPFR_RNDU);                    /* exact: same precision */
    }
    if (st == FR_OK) {
        mpfr_set(eps1, e1, MPFR_RNDU);                     /* exact: same precision */
        mpfr_set(eps2, e2, MPFR_RNDU);
    }
    for (size_t j = 0; j < m; j++)
        mpfr_clear(prod[j]);
    mpfr_clears(e1, e2, e, f, ng, sg, (mpfr_ptr)0);
    free(prod);
    free(t);
    return st;
}
