/* exact_penalty.c -- the exact-penalty quantities of 002 (9)-(11), binary64:
 * lambda* of (11) and the residuals of the stationarity systems (9), (10)
 * (definitions in include/fedref.h; pi in sgn(.) taken as a set).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u); no overflow; the
 * absolute terms cover underflow, each operation within 2^-1075):
 *  lambda*: a maximum of |G_ij|, exact.
 *  (9)  r_cons = max_ij RN(|w_ij - w_j|): RN is monotone, so this is the
 *       correctly rounded exact maximum: |err| <= u r_cons.
 *       r_sum: column sums by recursive summation over i:
 *       |err| <= gamma_{m-1} max_j sum_i |G_ij|.
 *  (10) delta = RN(w_ij - w_j) has the sign of w_ij - w_j (RN(a - b) = 0
 *       iff a = b, subnormals included), so the branch of sgn is exact.
 *       delta != 0: RN(RN(G +- lambda) + RN(eta delta)), 3 roundings and
 *       the rounding of delta: |err| <= gamma_3 (|G| + lambda + eta |delta|);
 *       delta = 0: max(RN(|G| - lambda), 0): |err| <= u (|G| + lambda).
 *       r_set: |err| <= gamma_3 max_ij (|G_ij| + lambda + eta|w_ij - w_j|)
 *                        + 2^-1073.
 *       r_sum: the terms lambda pi + eta delta are +-lambda + RN(eta delta)
 *       (gamma_3 (lambda + eta |delta|)) or -clamp(G, -lambda, lambda)
 *       (exact), then m - 1 additions:
 *       |err| <= gamma_{m+2} max_j sum_i (lambda + eta|w_ij - w_j|)
 *                + m 2^-1073.
 * Contract: include/fedfast.h. */
#include <math.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"

int ff_lambda_star(double *lam, const double *G, size_t m, size_t n)
{
    if (!lam || !G)
        return FR_ENULL;
    int st = ff_check_mn(m, n);
    if (st != FR_OK)
        return st;
    if (!ff_all_finite(G, m * n))
        return FR_ENONFINITE;
    double mx = 0;
    for (size_t k = 0; k < m * n; k++)
        mx = fmax(mx, fabs(G[k]));
    *lam = mx;
    return FR_OK;
}

/* 1 iff G, W (m x n) and w (n) are finite. */
static int gww_finite(const double *G, const double *W, const double *w, size_t m, size_t n)
{
    return ff_all_finite(G, m * n) && ff_all_finite(W, m * n) && ff_all_finite(w, n);
}

int ff_stationarity_9(double *r_cons, double *r_sum, const double *G, const double *W,
                      const double *w, size_t m, size_t n)
{
    if (!r_cons || !r_sum || !G || !W || !w)
        return FR_ENULL;
    int st = ff_check_mn(m, n);
    if (st != FR_OK)
        return st;
    if (!gww_finite(G, W, w, m, n))
        return FR_ENONFINITE;
    if (r_cons == r_sum)
        return FR_EDOM;                            /* two outputs */
    double *col = malloc(n * sizeof *col);
    if (!col)
        return FR_ENOMEM;
    double rc = 0, rs = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            rc = fmax(rc, fabs(W[i * n + j] - w[j]));
            col[j] = i == 0 ? G[j] : col[j] + G[i * n + j];
        }
    for (size_t j = 0; j < n; j++)
        rs = fmax(rs, fabs(col[j]));
    free(col);
    *r_cons = rc;
    *r_sum = rs;
    return FR_OK;
}

int ff_stationarity_10(double *r_set, double *r_sum, const double *G, const double *W,
                       const double *w, size_t m, size_t n, double lambda, double eta)
{
    if (!r_set || !r_sum || !G || !W || !w)
        return FR_ENULL;
    int st = ff_check_mn(m, n);
    if (st != FR_OK)
        return st;
    if (!isfinite(lambda) || !isfinite(eta) || !gww_finite(G, W, w, m, n))
        return FR_ENONFINITE;
    if (!(lambda > 0) || !(eta > 0) || r_set == r_sum)
        return FR_EDOM;                            /* r_set == r_sum: two outputs */
    double *col = malloc(n * sizeof *col);
    if (!col)
        return FR_ENOMEM;
    double rset = 0, rs = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double Gij = G[i * n + j], delta = W[i * n + j] - w[j], dist, term;
            if (delta != 0) {                      /* sgn = {+-1}: a point */
                double lp = delta > 0 ? lambda : -lambda, ed = eta * delta;
                dist = fabs((Gij + lp) + ed);
                term = lp + ed;                    /* lambda pi + eta delta */
            } else {                               /* sgn(0) = [-1, 1] */
                dist = fmax(fabs(Gij) - lambda, 0.0);
                term = -fmin(fmax(Gij, -lambda), lambda);
            }
            rset = fmax(rset, dist);
            col[j] = i == 0 ? term : col[j] + term;
        }
    for (size_t j = 0; j < n; j++)
        rs = fmax(rs, fabs(col[j]));
    free(col);
    *r_set = rset;
    *r_sum = rs;
    return FR_OK;
}
