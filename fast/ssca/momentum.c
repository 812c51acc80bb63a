/* SPDX-License-Identifier: Apache-2.0 */
/* momentum.c -- ff_ssca_momentum: the momentum form of 000 (11)-(12),
 * binary64:
 *   v_j <- (1 - rho)(1 - gamma_prev) v_j + rho/(2 tau) s_j,  s = sum_i q_i G_i,
 *   w_j <- w_j - gamma v_j   (the new v_j),
 * q_i = N_i/(B N) (ffi_ssca_weights), s by BLAS dgemv (ffi_ssca_colsum),
 * evaluated as
 *   e_j = fl(fl(rho s_j) / tau) / 2,   v^_j = fl(fl(a v_j) + e_j) + 0,
 *   w^_j = fl(w_j - fl(gamma v^_j)) + 0,   a = fl(fl(1 - rho) fl(1 - gamma_prev)),
 * (rho/(2 tau) is not formed: it could underflow; / 2 is exact unless the
 * result is subnormal; an overflow of / tau gives FR_ENONFINITE).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u); the model of ema.c).
 * v: s^_j as in lin.c (theta_{nc+5} per term with the weights, absolute
 *   eta_s <= nc 2^-1075 (1 + u)^nc); rho s (1), / tau (1), / 2 (exact or
 *   2^-1075), the sum (1): the G terms pass through nc + 8 roundings; a
 *   (3) and a v_j (1), the sum (1): theta_5.  The absolute terms: rho
 *   eta_s and the 2^-1075 of rho s are divided by 2 tau, the others are at
 *   most 2^-1075 each (/ tau, / 2, a v_j):
 *     |v^_j - v'_j| <= E_j = gamma_{nc+8} T_j + 2^-1075 (2.51 + (nc + 1)(1 + 2^-20)/(2 tau)),
 *     T_j = (1 - rho)(1 - gamma_prev)|v_j| + rho/(2 tau) sum_i q_i |G_ij|
 *   (the errors of / tau, / 2 and a v_j, 2^-1075 (1/2 + 1 + 1)(1 + u),
 *   and of rho s and dgemv, (nc + 1) 2^-1075 (1 + u)^(nc+3)/(2 tau)).
 * w: against the exact w_j - gamma v'_j (ref's contract: w from the exact
 *   new v), |w^_j - (w_j - gamma v'_j)| <= gamma_2 (|w_j| + gamma |v^_j|)
 *   + 2^-1075 (1 + u) + gamma E_j, and |v^_j| <= T_j + E_j (|v'_j| <= T_j).
 *
 * The bound function returns, per j, with T^_j evaluated left to right by
 * a loop over i with the same q^_i:
 *   vb_j = fl(fl(K T^_j) + A^),  K = (nc + 10) u,
 *          A^ = fl(2^-1073 fl(1 + fl(fl(nc + 1) / tau))),
 *   wb_j = fl(fl(fl(4u fl(|w_j| + fl(gamma fl(T^_j + vb_j)))) + fl(gamma vb_j)) + 2^-1072).
 * As in lin.c (nc <= 2^25), vb_j >= E_j (1 + 2^-26) (K has two units of
 * room over nc + 8; A^ >= (1 - u)^4 2^-1073 (1 + (nc + 1)/tau) - 2^-1075
 * >= 2^-1075 (2.99 + 7.99 (nc + 1)/(2 tau)) covers the absolute terms of
 * E_j and K times T^'s absolute losses); hence fl(gamma
 * vb_j) >= gamma E_j - 2^-1075, 4u (1 - u)^5 (|w_j| + gamma (T_j (1 -
 * u)^(nc+8) + E_j)) exceeds gamma_2 (|w_j| + gamma (T_j + E_j)) (the
 * missing (1 - u)^(nc+8) of T^_j is far inside the factor 2 of 4u over
 * gamma_2), and 2^-1072 covers 2^-1075 (1 + u) and the roundings'
 * subnormal losses: both are upper bounds despite their own rounding,
 * within 1.25 (v) and 2 (w) times the proved gamma terms and 8 times the
 * absolute ones.  FR_ESIZE beyond
 * nc = 2^25; FR_EDOM if some bound is not finite (tau tiny).
 * Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

#define NC_MAX ((size_t)1 << 25)               /* the bound's proof */

/* The checks of ff_ssca_momentum and its bound after the outputs' NULL
 * test, in class order (ncmax: the bound's FR_ESIZE). */
static int mom_args(const double *v, const double *w, const double *G, const size_t *Ni,
                    size_t nc, size_t d, size_t B, double rho, double gamma_prev, double gamma,
                    double tau, size_t ncmax, size_t *N)
{
    if (!v || !w || !G || !Ni)
        return FR_ENULL;
    if (ffi_ssca_sizes(Ni, nc, d, B, N) != FR_OK || nc > ncmax)
        return FR_ESIZE;
    if (!isfinite(rho) || !isfinite(gamma_prev) || !isfinite(gamma) || !isfinite(tau)
        || !ffi_all_finite(v, d) || !ffi_all_finite(w, d) || !ffi_all_finite(G, nc * d))
        return FR_ENONFINITE;
    if (!(rho > 0 && rho <= 1 && gamma_prev >= 0 && gamma_prev <= 1 && gamma > 0 && gamma <= 1
          && tau > 0 && ffi_ssca_batch_ok(Ni, nc, B)))
        return FR_EDOM;
    return ffi_overlap(v, d * sizeof *v, w, d * sizeof *w) ? FR_EDOM : FR_OK;   /* two outputs */
}

int ff_ssca_momentum(double *v, double *w, const double *G, const size_t *Ni,
                     size_t nc, size_t d, size_t B, double rho,
                     double gamma_prev, double gamma, double tau)
{
    size_t N;
    int st = mom_args(v, w, G, Ni, nc, d, B, rho, gamma_prev, gamma, tau, SIZE_MAX, &N);
    if (st != FR_OK)
        return st;
    double *q = malloc(nc * sizeof *q), *s = malloc(2 * d * sizeof *s);
    if (q == NULL || s == NULL) {
        free(q); free(s);
        return FR_ENOMEM;
    }
    double *tw = s + d;
    ffi_ssca_weights(q, Ni, nc, B, N);
    ffi_ssca_colsum(s, G, q, nc, d);
    const double a = (1 - rho) * (1 - gamma_prev);
    for (size_t j = 0; j < d; j++) {
        double e = ((rho * s[j]) / tau) * 0.5;
        double vn = (a * v[j] + e) + 0.0;         /* + 0: -0 -> +0 */
        tw[j] = (w[j] - gamma * vn) + 0.0;
        s[j] = vn;
    }
    st = ffi_all_finite(s, 2 * d) ? FR_OK : FR_ENONFINITE;
    if (st == FR_OK) {
        memcpy(v, s, d * sizeof *v);
        memcpy(w, tw, d * sizeof *w);
    }
    free(q); free(s);
    return st;
}

int ff_ssca_momentum_bound(double *vb, double *wb, const double *v, const double *w,
                           const double *G, const size_t *Ni, size_t nc, size_t d, size_t B,
                           double rho, double gamma_prev, double gamma, double tau)
{
    size_t N;
    int st = vb && wb ? mom_args(v, w, G, Ni, nc, d, B, rho, gamma_prev, gamma, tau, NC_MAX, &N)
                      : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (ffi_overlap(vb, d * sizeof *vb, wb, d * sizeof *wb))
        return FR_EDOM;                          /* two outputs */
    double *q = malloc(nc * sizeof *q), *b = malloc(2 * d * sizeof *b);
    if (q == NULL || b == NULL) {
        free(q); free(b);
        return FR_ENOMEM;
    }
    ffi_ssca_weights(q, Ni, nc, B, N);
    const double a = (1 - rho) * (1 - gamma_prev), K = (double)(nc + 10) * FFI_U;
    const double A = 0x1p-1073 * (1 + (double)(nc + 1) / tau);
    for (size_t j = 0; j < d; j++) {
        double sg = 0;
        for (size_t i = 0; i < nc; i++)
            sg += q[i] * fabs(G[i * d + j]);
        double T = a * fabs(v[j]) + ((rho * sg) / tau) * 0.5;
        double bv = K * T + A;
        b[j] = bv;
        b[d + j] = (4 * FFI_U * (fabs(w[j]) + gamma * (T + bv)) + gamma * bv) + 0x1p-1072;
    }
    st = ffi_all_finite(b, 2 * d) ? FR_OK : FR_EDOM;
    if (st == FR_OK) {
        memcpy(vb, b, d * sizeof *vb);
        memcpy(wb, b + d, d * sizeof *wb);
    }
    free(q); free(b);
    return st;
}
