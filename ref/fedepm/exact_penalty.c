/* SPDX-License-Identifier: Apache-2.0 */
/* exact_penalty.c -- the exact-penalty threshold (11) and the residuals of
 * the stationarity systems (9) and (10) of 002.  Every intermediate value is
 * exact; each result is rounded once, upward for the residuals (rounding up
 * is monotone, so the maximum of rounded-up values is the rounded-up
 * maximum).  Contract: fedref.h. */
#include <stdlib.h>
#include "../internal.h"

/* 1 iff G, W (when W != NULL) and w (when w != NULL) are finite; m, n valid. */
static int mats_finite(mpfr_t *const G, mpfr_t *const W, mpfr_t *const w, size_t m, size_t n)
{
    return fri_finite(G, m * n) && (W == NULL || fri_finite(W, m * n))
        && (w == NULL || fri_finite(w, n));
}

/* (11): lam = max_ij |G_ij|. */
int fr_lambda_star(mpfr_t lam, mpfr_t *const G, size_t m, size_t n)
{
    if (lam == NULL || G == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(m, n))
        return FR_ESIZE;
    if (!mats_finite(G, NULL, NULL, m, n))
        return FR_ENONFINITE;
    size_t best = 0;
    for (size_t k = 1; k < m * n; k++)
        if (mpfr_cmpabs(G[k], G[best]) > 0)
            best = k;
    mpfr_abs(lam, G[best], MPFR_RNDN);
    return FR_OK;
}

/* r = max(r, |s|) where s is an exact sum; |s| rounded up (RNDA then abs). */
static int max_abs_sum(mpfr_ptr r, const mpfr_ptr *t, size_t k, mpfr_ptr tmp)
{
    mpfr_set_prec(tmp, mpfr_get_prec(r));
    mpfr_sum(tmp, t, (unsigned long)k, MPFR_RNDA);
    mpfr_abs(tmp, tmp, MPFR_RNDN);
    if (mpfr_greater_p(tmp, r))
        mpfr_set(r, tmp, MPFR_RNDN);
    return FR_OK;
}

/* (9) with pi_i := -G_i: r_cons = max_ij |w_ij - w_j|, r_sum = max_j |sum_i G_ij|. */
int fr_stationarity_9(mpfr_t r_cons, mpfr_t r_sum, mpfr_t *const G, mpfr_t *const W,
                      mpfr_t *const w, size_t m, size_t n)
{
    if (r_cons == NULL || r_sum == NULL || G == NULL || W == NULL || w == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(m, n))
        return FR_ESIZE;
    if (!mats_finite(G, W, w, m, n))
        return FR_ENONFINITE;
    if (r_cons == r_sum)
        return FR_EDOM;                                  /* two outputs */
    mpfr_ptr *col = malloc(m * sizeof *col);
    if (col == NULL)
        return FR_ENOMEM;
    mpfr_t rc, rs, tmp;
    mpfr_init2(rc, mpfr_get_prec(r_cons));
    mpfr_init2(rs, mpfr_get_prec(r_sum));
    mpfr_init2(tmp, mpfr_get_prec(r_cons));
    mpfr_set_zero(rc, 1);
    mpfr_set_zero(rs, 1);
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < m; i++) {
            mpfr_ptr a = W[i * n + j];
            mpfr_set_prec(tmp, mpfr_get_prec(rc));
            if (mpfr_cmp(a, w[j]) >= 0)
                mpfr_sub(tmp, a, w[j], MPFR_RNDU);       /* |w_ij - w_j| rounded up */
            else
                mpfr_sub(tmp, w[j], a, MPFR_RNDU);
            if (mpfr_greater_p(tmp, rc))
                mpfr_set(rc, tmp, MPFR_RNDN);
            col[i] = G[i * n + j];
        }
        max_abs_sum(rs, col, m, tmp);
    }
    mpfr_set(r_cons, rc, MPFR_RNDN);
    mpfr_set(r_sum, rs, MPFR_RNDN);
    mpfr_clears(rc, rs, tmp, (mpfr_ptr)0);
    free(col);
    return FR_OK;
}

/* (10) with pi_i in sgn(w_i - w) as a set.  For d = w_ij - w_j != 0 the set
 * is one point, G + lambda sign(d) + eta d; for d = 0 it is
 * G + [-lambda, lambda], at distance max(|G| - lambda, 0), and the nearest
 * pi gives lambda pi = -clamp(G, -lambda, lambda). */
int fr_stationarity_10(mpfr_t r_set, mpfr_t r_sum, mpfr_t *const G, mpfr_t *const W,
                       mpfr_t *const w, size_t m, size_t n,
                       const mpfr_t lambda, const mpfr_t eta)
{
    int st;
    if (r_set == NULL || r_sum == NULL || G == NULL || W == NULL || w == NULL
        || lambda == NULL || eta == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(m, n))
        return FR_ESIZE;
    if (!mpfr_number_p(lambda) || !mpfr_number_p(eta) || !mats_finite(G, W, w, m, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(lambda) <= 0 || mpfr_sgn(eta) <= 0 || r_set == r_sum)
        return FR_EDOM;                                  /* r_set == r_sum: two outputs */
    mpfr_t *sterm = malloc(2 * m * sizeof *sterm);
    mpfr_ptr *ptr = malloc(2 * m * sizeof *ptr);
    if (sterm == NULL || ptr == NULL) {
        free(sterm); free(ptr);
        return FR_ENOMEM;
    }
    for (size_t k = 0; k < 2 * m; k++)
        mpfr_init2(sterm[k], MPFR_PREC_MIN);
    mpfr_t rset, rsum, d, tmp, nlam;
    mpfr_init2(rset, mpfr_get_prec(r_set));
    mpfr_init2(rsum, mpfr_get_prec(r_sum));
    mpfr_inits2(MPFR_PREC_MIN, d, tmp, (mpfr_ptr)0);
    mpfr_init2(nlam, mpfr_get_prec(lambda));
    mpfr_neg(nlam, lambda, MPFR_RNDN);
    mpfr_set_zero(rset, 1);
    mpfr_set_zero(rsum, 1);
    st = FR_OK;
    for (size_t j = 0; j < n && st == FR_OK; j++) {
        for (size_t i = 0; i < m && st == FR_OK; i++) {
            mpfr_ptr gij = G[i * n + j];
            mpfr_ptr *lt = &ptr[2 * i];                 /* lambda pi_ij and eta d */
            if ((st = fri_sub_exact(d, W[i * n + j], w[j])) != FR_OK)
                break;
            mpfr_set_prec(tmp, mpfr_get_prec(rset));
            if (mpfr_zero_p(d)) {
                /* dist = max(|G| - lambda, 0), rounded up */
                mpfr_set_prec(sterm[2 * i], mpfr_get_prec(gij));
                mpfr_abs(sterm[2 * i], gij, MPFR_RNDN);     /* exact */
                mpfr_sub(tmp, sterm[2 * i], lambda, MPFR_RNDU);
                if (mpfr_sgn(tmp) < 0)
                    mpfr_set_zero(tmp, 1);
                /* lambda pi = -clamp(G, -lambda, lambda) */
                mpfr_srcptr cl = mpfr_cmp(gij, lambda) > 0 ? lambda
                               : mpfr_cmp(gij, nlam) < 0 ? nlam : gij;
                mpfr_set_prec(sterm[2 * i], mpfr_get_prec(cl));
                mpfr_neg(sterm[2 * i], cl, MPFR_RNDN);
                mpfr_set_zero(sterm[2 * i + 1], 1);
            } else {
                mpfr_set_prec(sterm[2 * i], mpfr_get_prec(lambda));
                if (mpfr_sgn(d) > 0)
                    mpfr_set(sterm[2 * i], lambda, MPFR_RNDN);
                else
                    mpfr_set(sterm[2 * i], nlam, MPFR_RNDN);
                if ((st = fri_mul_exact(sterm[2 * i + 1], eta, d)) != FR_OK)
                    break;
                /* |G + lambda sign(d) + eta d|, rounded up */
                mpfr_ptr three[3] = {gij, sterm[2 * i], sterm[2 * i + 1]};
                mpfr_sum(tmp, three, 3, MPFR_RNDA);
                mpfr_abs(tmp, tmp, MPFR_RNDN);
            }
            if (mpfr_greater_p(tmp, rset))
                mpfr_set(rset, tmp, MPFR_RNDN);
            lt[0] = sterm[2 * i];
            lt[1] = sterm[2 * i + 1];
        }
        if (st == FR_OK)
            max_abs_sum(rsum, ptr, 2 * m, tmp);
    }
    if (st == FR_OK) {
        mpfr_set(r_set, rset, MPFR_RNDN);
        mpfr_set(r_sum, rsum, MPFR_RNDN);
    }
    for (size_t k = 0; k < 2 * m; k++)
        mpfr_clear(sterm[k]);
    mpfr_clears(rset, rsum, d, tmp, nlam, (mpfr_ptr)0);
    free(sterm); free(ptr);
    return st;
}
