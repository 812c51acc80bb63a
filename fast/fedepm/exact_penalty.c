/* SPDX-License-Identifier: Apache-2.0 */
/* exact_penalty.c -- the exact-penalty quantities of 002 (9)-(11), binary64:
 * lambda* of (11) and the residuals of the stationarity systems (9), (10)
 * (definitions in include/fedref/fedepm.h; pi in sgn(.) taken as a set).
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
 *       Counted honestly, the only operation inexact below 2^-1022 is the
 *       product eta delta (sums and differences of binary64 with a
 *       subnormal result are exact): the absolute terms are in fact
 *       2^-1075 (1 + u) and m 2^-1075 (1 + u)^m.
 *
 * The bound functions evaluate in binary64 (every operation combines
 * nonnegative numbers: it loses at most a factor (1 - u) or, below
 * 2^-1022, 2^-1075).
 * ff_stationarity_9_bound: cons_rel = u (RN(y) within u y; a subnormal
 *   difference is exact).  sum_abs = RN(m u S^), S^ = max_j of the
 *   recursive sums of |G_ij| >= (1 - u)^{m-1} S.  The real m u S^ is
 *   >= gamma_{m-1} S (m (1 - u)^{m-1} (1 - (m - 1) u) >= m - 1 for
 *   2 m^2 u <= 1).  If m u S^ >= 2^-1022, RN loses (1 - u): m u (1 - u)^m
 *   S >= gamma_{m-1} S still, for m <= 2^26 (FR_ESIZE beyond).  If not,
 *   the error E <= gamma_{m-1} S <= m u S^ < 2^-1022 is a multiple of
 *   2^-1074 (binary64 and exact sums of binary64 are), so a binary64, and
 *   RN monotone gives RN(m u S^) >= E.
 * ff_stationarity_10_bound: set_abs = RN(RN(4u E^) + 2^-1073), E^ = max_ij
 *   RN(|G_ij| + RN(lambda + RN(eta RN|w_ij - w_j|))) >= (1 - u)^4 e -
 *   2^-1075 for each entry's e = |G_ij| + lambda + eta |w_ij - w_j|:
 *   set_abs >= (1 - u)(4u (1 - u)^5 e - 2^-1074 + 2^-1073) >= 3.99 u e +
 *   2^-1074 >= gamma_3 e + 2^-1075 (1 + u).  sum_abs = RN(RN((m + 3) u T^)
 *   + m 2^-1073) ((m + 3) u and m 2^-1073 exact), T^ the largest recursive
 *   column sum of RN(lambda + RN(eta RN|w_ij - w_j|)), T^ >= (1 - u)^{m+2} T
 *   - m 2^-1075: sum_abs >= (m + 3) u (1 - u)^{m+4} T + (1 - u)(m 2^-1073
 *   - 2^-1074) >= gamma_{m+2} T + 1.01 m 2^-1075, using (m + 3)(1 -
 *   2(m + 3) u) >= m + 2 for m + 3 <= 2^26 (FR_ESIZE beyond).
 * Contract: include/fedfast.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"

int ff_lambda_star(double *lam, const double *G, size_t m, size_t n)
{
    if (!lam || !G)
        return FR_ENULL;
    int st = ffi_check_mn(m, n);
    if (st != FR_OK)
        return st;
    if (!ffi_all_finite(G, m * n))
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
    return ffi_all_finite(G, m * n) && ffi_all_finite(W, m * n) && ffi_all_finite(w, n);
}

/* The checks of (9) and (10) and of their bounds, in class order: the two
 * outputs o1, o2 (distinct), G, W, w; m above mmax is FR_ESIZE too (a
 * bound's proof); with_le: lambda, eta of (10) as well. */
static int pen_args(const void *o1, const void *o2, const double *G, const double *W,
                    const double *w, size_t m, size_t n, size_t mmax, int with_le,
                    double lambda, double eta)
{
    if (!o1 || !o2 || !G || !W || !w)
        return FR_ENULL;
    int st = ffi_check_mn(m, n);
    if (st != FR_OK || m > mmax)
        return st != FR_OK ? st : FR_ESIZE;
    if ((with_le && (!isfinite(lambda) || !isfinite(eta))) || !gww_finite(G, W, w, m, n))
        return FR_ENONFINITE;
    if (with_le && (!(lambda > 0) || !(eta > 0)))
        return FR_EDOM;
    return o1 == o2 ? FR_EDOM : FR_OK;             /* two outputs */
}

int ff_stationarity_9(double *r_cons, double *r_sum, const double *G, const double *W,
                      const double *w, size_t m, size_t n)
{
    int st = pen_args(r_cons, r_sum, G, W, w, m, n, SIZE_MAX, 0, 0, 0);
    if (st != FR_OK)
        return st;
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
    int st = pen_args(r_set, r_sum, G, W, w, m, n, SIZE_MAX, 1, lambda, eta);
    if (st != FR_OK)
        return st;
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

int ff_stationarity_9_bound(double *cons_rel, double *sum_abs, const double *G, const double *W,
                            const double *w, size_t m, size_t n)
{
    /* (9)'s checks; the proof needs m <= 2^26 */
    int st = pen_args(cons_rel, sum_abs, G, W, w, m, n, (size_t)1 << 26, 0, 0, 0);
    if (st != FR_OK)
        return st;
    double S = 0;
    for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++)
            s += fabs(G[i * n + j]);
        S = fmax(S, s);
    }
    *cons_rel = 0x1p-53;
    *sum_abs = (double)m * 0x1p-53 * S;
    return FR_OK;
}

int ff_stationarity_10_bound(double *set_abs, double *sum_abs, const double *G, const double *W,
                             const double *w, size_t m, size_t n, double lambda, double eta)
{
    /* (10)'s checks; the proof needs m + 3 <= 2^26 */
    int st = pen_args(set_abs, sum_abs, G, W, w, m, n, ((size_t)1 << 26) - 3, 1, lambda, eta);
    if (st != FR_OK)
        return st;
    double E = 0, T = 0;
    for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++) {
            double t = lambda + eta * fabs(W[i * n + j] - w[j]);
            E = fmax(E, fabs(G[i * n + j]) + t);
            s += t;
        }
        T = fmax(T, s);
    }
    *set_abs = 4 * 0x1p-53 * E + 0x1p-1073;
    *sum_abs = (double)(m + 3) * 0x1p-53 * T + (double)m * 0x1p-1073;
    return FR_OK;
}
