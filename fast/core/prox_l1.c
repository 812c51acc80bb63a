/* SPDX-License-Identifier: Apache-2.0 */
/* prox_l1.c -- ff_prox_l1: prox of gamma ||.||_1 in 003's convention,
 * 003 eq. (13): x = argmin gamma ||x||_1 + rho/2 ||x - u||^2 = soft(u, gamma/rho).
 *
 * The prox is unchanged when gamma and rho are scaled together, so with
 * rho = r 2^k, r in [1/2, 1) exact (frexp), and g = gamma 2^-k:
 *     x_j = sign(u_j) max(r|u_j| - g, 0) / r,
 * evaluated as d = fma(r, |u_j|, -g) (one rounding, exact sign), x = d / r.
 * r|u_j| <= |u_j| cannot overflow, and d / r <= |u_j|.
 * g is exact unless it is subnormal, then |g - gamma 2^-k| <= 2^-1075; so
 * rho|u_j| <= gamma gives r|u_j| - g <= 2^-1075, which rounds to d <= 0
 * (ties to even): +0 exactly whenever rho|u_j| <= gamma.
 * Error: relative (1 + 2^-53)^2 - 1 from the two roundings, plus at most
 * 2^-1075/r + 2^-1075/r + 2^-1075 < 2^-1072 absolute when g, d or x is
 * subnormal.  gamma = 0 is the identity (exact; -0 gives +0).
 *
 * ff_prox_l1_bound returns rel = 2^-51 > (1 + 2^-53)^2 - 1 = 2^-52 + 2^-106
 * (a round factor 2 above the proved relative term) and abs = 2^-1072, the
 * absolute term above; both exact constants.
 * Contract: include/fedfast.h. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

/* The checks of ff_prox_l1 and ff_prox_l1_bound after their outputs' NULL
 * test, in class order. */
static int prox_args(const double *u, size_t n, double gamma, double rho)
{
    if (!u)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(gamma) || !isfinite(rho) || !ffi_all_finite(u, n))
        return FR_ENONFINITE;
    return gamma >= 0 && rho > 0 ? FR_OK : FR_EDOM;
}

int ff_prox_l1(double *x, const double *u, size_t n, double gamma, double rho)
{
    int st = x ? prox_args(u, n, gamma, rho) : FR_ENULL;
    if (st != FR_OK)
        return st;

    int k;
    double r = frexp(rho, &k);               /* rho = r 2^k, exact */
    double g = ldexp(gamma, -k);             /* inf if gamma/rho > DBL_MAX */
    for (size_t j = 0; j < n; j++) {
        double uj = u[j];                    /* read before write: x may be u */
        double d = fma(r, fabs(uj), -g);
        if (gamma == 0)
            x[j] = uj + 0.0;                 /* soft(u, 0) = u exactly, -0 -> +0 */
        else
            x[j] = d > 0 ? copysign(d / r, uj) : 0.0;
    }
    return FR_OK;
}

int ff_prox_l1_bound(double *rel, double *abs, const double *u, size_t n,
                     double gamma, double rho)
{
    int st = rel && abs ? prox_args(u, n, gamma, rho) : FR_ENULL;   /* ff_prox_l1's */
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    *rel = 0x1p-51;
    *abs = 0x1p-1072;
    return FR_OK;
}
