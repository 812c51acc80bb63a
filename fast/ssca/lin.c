/* SPDX-License-Identifier: Apache-2.0 */
/* lin.c -- ff_ssca_lin: the linear coefficient of the surrogate, 000 (9)
 * (also (14) second line, (23), (36)-(37)), binary64:
 *   f1_j <- (1 - rho) f1_j + rho (s_j - 2 tau w_j),  s = sum_i q_i G_i,
 * q_i = N_i/(B N) (ffi_ssca_weights), s by BLAS dgemv (ffi_ssca_colsum),
 * evaluated as fl(fl(a f1_j) + fl(rho fl(s_j - fl(c w_j)))) + 0 with
 * a = fl(1 - rho), c = 2 tau (exact; an overflow gives FR_ENONFINITE).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u); the model of ema.c).
 *   q^_i = q_i (1 + theta_5) (three conversions, exact below 2^53, a
 *   product and a quotient), a normal number;
 *   s^_j = sum_i q^_i G_ij (1 + theta_nc^(i)) + eta_s, |eta_s| <= nc
 *   2^-1075 (1 + u)^nc: dgemv sums the nc products in some order (with or
 *   without FMA), each product through at most nc roundings, and each
 *   rounding with a subnormal result adds at most 2^-1075;
 *   then one rounding each for c w_j, the difference, rho times it, a f1_j,
 *   and the sum.  Collecting the factors per term:
 *     (1 - rho) f1_j: theta_3;  rho q_i G_ij: theta_{nc+8};  rho 2 tau w_j: theta_4,
 *   and the absolute terms (eta_s, c w_j, a f1_j, rho t) add at most
 *   (nc + 3) 2^-1075 (1 + u)^(nc+3) <= (nc + 4) 2^-1075.  Hence
 *     |f1^_j - f1'_j| <= gamma_{nc+8} T_j + (nc + 4) 2^-1075,
 *     T_j = (1 - rho)|f1_j| + rho (sum_i q_i |G_ij| + 2 tau |w_j|).
 *
 * The bound function returns b_j = fl(fl(K T^_j) + A), K = (nc + 10) u and
 * A = (nc + 4) 2^-1072 (both exact: nc + 10 < 2^53), T^_j the same
 * expression evaluated left to right with the same weights q^_i (a plain
 * loop over i).  Each of its at most nc + 8 roundings of non-negative
 * quantities (5 in q^_i included) loses a factor (1 - u) or 2^-1075, so
 * T^_j >= (1 - u)^(nc+8) T_j - (nc + 3) 2^-1075 and
 *   b_j >= (nc + 10) u (1 - u)^(nc+10) T_j - (nc+10)(nc+3) u 2^-1075
 *          - 2^-1075 + (1 - u) A.
 * For nc <= 2^25, (nc + 10)(1 - (nc + 10) u)(1 - (nc + 8) u) >= nc + 10 -
 * 2 (nc + 10)^2 u > nc + 8.7, so the first term exceeds gamma_{nc+8} T_j
 * = (nc + 8) u T_j / (1 - (nc + 8) u), and (1 - u) A - 2^-1074 > (nc + 4)
 * 2^-1075: an upper bound despite its own rounding, at most (nc + 10)/
 * (nc + 8) <= 1.25 times the proved gamma term plus 8 times its absolute
 * term.  Beyond nc = 2^25 the bound function returns FR_ESIZE; FR_EDOM if
 * some b_j is not finite (an overflow, e.g. 2 tau > DBL_MAX).
 * Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

#define NC_MAX ((size_t)1 << 25)               /* the bound's proof */

/* The checks of ff_ssca_lin and its bound after the output's NULL test, in
 * class order (ncmax: the bound's FR_ESIZE). */
static int lin_args(const double *f1, const double *w, const double *G, const size_t *Ni,
                    size_t nc, size_t d, size_t B, double rho, double tau, size_t ncmax,
                    size_t *N)
{
    if (!f1 || !w || !G || !Ni)
        return FR_ENULL;
    if (ffi_ssca_sizes(Ni, nc, d, B, N) != FR_OK || nc > ncmax)
        return FR_ESIZE;
    if (!isfinite(rho) || !isfinite(tau) || !ffi_all_finite(f1, d) || !ffi_all_finite(w, d)
        || !ffi_all_finite(G, nc * d))
        return FR_ENONFINITE;
    return rho > 0 && rho <= 1 && tau > 0 && ffi_ssca_batch_ok(Ni, nc, B) ? FR_OK : FR_EDOM;
}

int ff_ssca_lin(double *f1, const double *w, const double *G, const size_t *Ni,
                size_t nc, size_t d, size_t B, double rho, double tau)
{
    size_t N;
    int st = lin_args(f1, w, G, Ni, nc, d, B, rho, tau, SIZE_MAX, &N);
    if (st != FR_OK)
        return st;
    double *q = malloc(nc * sizeof *q), *s = malloc(d * sizeof *s);
    if (q == NULL || s == NULL) {
        free(q); free(s);
        return FR_ENOMEM;
    }
    ffi_ssca_weights(q, Ni, nc, B, N);
    ffi_ssca_colsum(s, G, q, nc, d);
    const double a = 1 - rho, c = 2 * tau;
    for (size_t j = 0; j < d; j++) {
        double t = s[j] - c * w[j];
        s[j] = (a * f1[j] + rho * t) + 0.0;      /* + 0: -0 -> +0 */
    }
    st = ffi_ssca_publish(f1, s, d);
    free(q); free(s);
    return st;
}

int ff_ssca_lin_bound(double *abs, const double *f1, const double *w, const double *G,
                      const size_t *Ni, size_t nc, size_t d, size_t B, double rho, double tau)
{
    size_t N;
    int st = abs ? lin_args(f1, w, G, Ni, nc, d, B, rho, tau, NC_MAX, &N) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double *q = malloc(nc * sizeof *q), *b = malloc(d * sizeof *b);
    if (q == NULL || b == NULL) {
        free(q); free(b);
        return FR_ENOMEM;
    }
    ffi_ssca_weights(q, Ni, nc, B, N);
    const double a = 1 - rho, c = 2 * tau, K = (double)(nc + 10) * FFI_U;
    const double A = (double)(nc + 4) * 0x1p-1072;
    for (size_t j = 0; j < d; j++) {
        double sg = 0;
        for (size_t i = 0; i < nc; i++)
            sg += q[i] * fabs(G[i * d + j]);
        double T = a * fabs(f1[j]) + rho * (sg + c * fabs(w[j]));
        b[j] = K * T + A;
    }
    st = ffi_ssca_publish(abs, b, d) == FR_OK ? FR_OK : FR_EDOM;
    free(q); free(b);
    return st;
}
