/* SPDX-License-Identifier: Apache-2.0 */
/* argmin.c -- ff_ssca_argmin: the minimiser of the surrogate of 000 (3)
 * with (7) and (33), corrected (10) / (24) / (38)-(39) (docs/ERRATA.md
 * E-000-8), binary64:
 *   wbar_j = -(f1_j + 2 lambda beta_j) / (2 tau (1 - P))
 * evaluated as -fl(fl(fl(fl(f1_j / 2) + fl(lambda beta_j)) / tau) / om) + 0,
 * om = fl(1 - P) (beta = NULL or lambda = 0: the lambda term is left out).
 * No 2 tau (1 - P) is formed: it could underflow or overflow; om is in
 * [2^-53, 1] (P < 1 is a binary64), a normal number.
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u); the model of ema.c;
 * f1_j / 2 is exact unless subnormal, then within 2^-1075):
 *   the f1 term passes through 4 roundings (the sum, / tau, om, / om), the
 *   lambda term through 5; the absolute errors of f1/2 and lambda beta
 *   (<= 2^-1075 each) are divided by tau (1 - P), that of / tau by
 *   (1 - P), that of / om stays:
 *   |wbar^_j - wbar_j| <= gamma_5 T_j + 2^-1074 (1 + 4u)/(tau (1 - P))
 *                         + 2^-1075 (1 + 3u)/(1 - P) + 2^-1075
 *                      <= gamma_5 T_j + 2^-1072 (1 + (1 + 1/tau)/(1 - P)),
 *   T_j = (|f1_j| + 2 lambda |beta_j|) / (2 tau (1 - P)).
 * Zeros: -x + 0 is +0 for x = +-0.
 *
 * The bound function returns b_j = fl(fl(7u T^_j) + A^), T^_j =
 * fl(fl(fl(fl(|f1_j| / 2) + fl(lambda |beta_j|)) / tau) / om) and A^ =
 * fl(2^-1072 fl(1 + fl(fl(1 + fl(1/tau)) / om))).  The same model gives
 * T^_j >= (1 - u)^6 T_j - 2^-1074/(tau (1 - P)(1 - u)) - 2^-1075/((1 - P)
 * (1 - u)) - 2^-1075 (om <= (1 - P)(1 + u)), A^ >= (1 - u)^5 2^-1072 (1 +
 * (1 + 1/tau)/(1 - P)) - 2^-1075 (the product by 2^-1072 may be
 * subnormal), at least 3.4 times the absolute term above plus 7u times
 * T^'s absolute losses; and 7u (1 - u)^8 > gamma_5 = 5u/(1 - 5u).  So b_j
 * is an upper bound despite its own rounding, within 1.4 times the gamma
 * term and 4.1 times the absolute term.  FR_EDOM if some b_j is not finite
 * (tau tiny: 1/tau or T^ overflows).
 * Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

/* The checks of ff_ssca_argmin and its bound after the output's NULL test,
 * in class order. */
static int argmin_args(const double *f1, const double *beta, size_t d, double lambda,
                       double tau, double P)
{
    if (!f1)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(lambda) || !isfinite(tau) || !isfinite(P) || !ffi_all_finite(f1, d)
        || (beta && !ffi_all_finite(beta, d)))
        return FR_ENONFINITE;
    return tau > 0 && lambda >= 0 && P >= 0 && P < 1 ? FR_OK : FR_EDOM;
}

int ff_ssca_argmin(double *wbar, const double *f1, const double *beta, size_t d,
                   double lambda, double tau, double P)
{
    int st = wbar ? argmin_args(f1, beta, d, lambda, tau, P) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double *t = malloc(d * sizeof *t);
    if (t == NULL)
        return FR_ENOMEM;
    const double om = 1 - P;
    const int reg = beta != NULL && lambda != 0;
    for (size_t j = 0; j < d; j++) {
        double num = f1[j] * 0.5 + (reg ? lambda * beta[j] : 0.0);
        t[j] = -((num / tau) / om) + 0.0;        /* + 0: -0 -> +0 */
    }
    st = ffi_ssca_publish(wbar, t, d);           /* wbar may be f1: t first */
    free(t);
    return st;
}

int ff_ssca_argmin_bound(double *abs, const double *f1, const double *beta, size_t d,
                         double lambda, double tau, double P)
{
    int st = abs ? argmin_args(f1, beta, d, lambda, tau, P) : FR_ENULL;   /* ff_ssca_argmin's */
    if (st != FR_OK)
        return st;
    const double om = 1 - P, A = 0x1p-1072 * (1 + (1 + 1 / tau) / om);
    const int reg = beta != NULL && lambda != 0;
    for (int pass = 0; pass < 2; pass++)         /* first all finite, then written */
        for (size_t j = 0; j < d; j++) {
            double T = ((fabs(f1[j]) * 0.5 + (reg ? lambda * fabs(beta[j]) : 0.0)) / tau) / om;
            double b = 7 * FFI_U * T + A;
            if (pass == 0 && !isfinite(b))
                return FR_EDOM;
            if (pass == 1)
                abs[j] = b;
        }
    return FR_OK;
}
