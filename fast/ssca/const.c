/* SPDX-License-Identifier: Apache-2.0 */
/* const.c -- ff_ssca_const: the constant term of the constraint surrogate,
 * 000 (14) first line (also (25), (42)), binary64:
 *   f0 <- (1 - rho) f0 + rho ( sum_i q_i (F_i - G_i^T w) + tau ||w||^2 ),
 * q_i = N_i/(B N) (ffi_ssca_weights); r = G w by BLAS dgemv
 * (ffi_ssca_rowdot), ||w||^2 by a loop, then
 *   S = sum_i fl(q_i fl(F_i - r_i)) (in order i),  h = fl(S + fl(tau n2)),
 *   f0^ = fl(fl(a f0) + fl(rho h)) + 0,  a = fl(1 - rho).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u); the model of ema.c).
 * Per term of the exact value, the roundings it passes through:
 *   rho q_i F_i:       q_i (5), F_i - r_i (1), the sum over i (nc, the
 *                      product included), + tau n2 (1), rho (1), last sum (1);
 *   rho q_i G_ij w_j:  the dot product r_i (d), then as F_i: theta_{d+nc+9};
 *   rho tau w_j^2:     the sum of squares (d), tau (1), + (1), rho (1), + (1);
 *   (1 - rho) f0:      a (1), product (1), sum (1).
 * The absolute terms (subnormal products: d per r_i, weighed by q_i with
 * sum_i q_i = 1/B <= 1; d in n2, weighed by tau; nc in S; tau n2; a f0;
 * rho h) add at most 2^-1075 (1 + 2^-20)(d + d tau + nc + 3) (the
 * factor: the later roundings, (1 + u)^(d+nc+9)).  So
 *   |f0^ - f0'| <= gamma_{d+nc+9} T + (d + nc + 3 + d tau) 2^-1072,
 *   T = (1 - rho)|f0| + rho (sum_i q_i (|F_i| + sum_j |G_ij w_j|) + tau ||w||^2).
 *
 * The bound function returns b = fl(fl(K T^) + A^), K = (d + nc + 11) u
 * (exact), A^ = fl(fl(fl(d tau) + (d + nc + 3)) 2^-1072), T^ evaluated by
 * loops with the same q^_i.  As in lin.c, T^ >= (1 - u)^(d+nc+9) T -
 * (d nc + d + nc + 3) 2^-1075, and for d + nc <= 2^25, (d + nc + 11)(1 -
 * u)^(d+nc+11) u > gamma_{d+nc+9}: K T^ covers the gamma term (and K
 * times T^'s absolute losses is below 2^-1100); A^ >= (1 - u)^2 A -
 * 2^-1075 (the product by 2^-1072 may be subnormal) >= 7.9 (d + d tau +
 * nc + 3) 2^-1075 covers the absolute errors.  So b is an upper bound
 * despite its own rounding, within a factor (d + nc + 11)/(d + nc + 9) of
 * the gamma term and 8 of the absolute term.  FR_ESIZE beyond d + nc =
 * 2^25; FR_EDOM if b is not finite.
 * Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

#define DNC_MAX ((size_t)1 << 25)              /* the bound's proof: d + nc */

/* The checks of ff_ssca_const and its bound after the output's NULL test,
 * in class order (dncmax: the bound's FR_ESIZE on d + nc). */
static int const_args(const double *f0, const double *w, const double *G, const double *F,
                      const size_t *Ni, size_t nc, size_t d, size_t B, double rho, double tau,
                      size_t dncmax, size_t *N)
{
    if (!f0 || !w || !G || !F || !Ni)
        return FR_ENULL;
    if (ffi_ssca_sizes(Ni, nc, d, B, N) != FR_OK || nc > dncmax || d > dncmax - nc)
        return FR_ESIZE;
    if (!isfinite(rho) || !isfinite(tau) || !isfinite(*f0) || !ffi_all_finite(w, d)
        || !ffi_all_finite(G, nc * d) || !ffi_all_finite(F, nc))
        return FR_ENONFINITE;
    return rho > 0 && rho <= 1 && tau > 0 && ffi_ssca_batch_ok(Ni, nc, B) ? FR_OK : FR_EDOM;
}

int ff_ssca_const(double *f0, const double *w, const double *G, const double *F,
                  const size_t *Ni, size_t nc, size_t d, size_t B,
                  double rho, double tau)
{
    size_t N;
    int st = const_args(f0, w, G, F, Ni, nc, d, B, rho, tau, SIZE_MAX, &N);
    if (st != FR_OK)
        return st;
    double *q = malloc(nc * sizeof *q), *r = malloc(nc * sizeof *r);
    if (q == NULL || r == NULL) {
        free(q); free(r);
        return FR_ENOMEM;
    }
    ffi_ssca_weights(q, Ni, nc, B, N);
    ffi_ssca_rowdot(r, G, w, nc, d);
    double n2 = 0, S = 0;
    for (size_t j = 0; j < d; j++)
        n2 += w[j] * w[j];
    for (size_t i = 0; i < nc; i++)
        S += q[i] * (F[i] - r[i]);
    const double a = 1 - rho, h = S + tau * n2;
    double t = (a * *f0 + rho * h) + 0.0;        /* + 0: -0 -> +0 */
    st = ffi_ssca_publish(f0, &t, 1);
    free(q); free(r);
    return st;
}

int ff_ssca_const_bound(double *abs, const double *f0, const double *w, const double *G,
                        const double *F, const size_t *Ni, size_t nc, size_t d, size_t B,
                        double rho, double tau)
{
    size_t N;
    int st = abs ? const_args(f0, w, G, F, Ni, nc, d, B, rho, tau, DNC_MAX, &N) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double *q = malloc(nc * sizeof *q);
    if (q == NULL)
        return FR_ENOMEM;
    ffi_ssca_weights(q, Ni, nc, B, N);
    double n2 = 0, S = 0;
    for (size_t j = 0; j < d; j++)
        n2 += w[j] * w[j];
    for (size_t i = 0; i < nc; i++) {
        double gw = 0;
        for (size_t j = 0; j < d; j++)
            gw += fabs(G[i * d + j] * w[j]);
        S += q[i] * (fabs(F[i]) + gw);
    }
    const double T = (1 - rho) * fabs(*f0) + rho * (S + tau * n2);
    const double K = (double)(d + nc + 11) * FFI_U;
    const double A = ((double)d * tau + (double)(d + nc + 3)) * 0x1p-1072;
    double b = K * T + A;
    free(q);
    if (!isfinite(b))
        return FR_EDOM;
    *abs = b;
    return FR_OK;
}
