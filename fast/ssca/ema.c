/* SPDX-License-Identifier: Apache-2.0 */
/* ema.c -- ff_ssca_ema: the exponential average of 000 (35) and the mass
 * P_t of the surrogate (3), binary64:
 *   x_k <- (1 - rho) x_k + rho y_k      (y = NULL: x_k <- (1 - rho) x_k).
 * (update.c uses the same kernel, ffi_ssca_mix, with rho -> gamma.)
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u), Higham's model: each
 * operation fl(a op b) = (a op b)(1 + delta), |delta| <= u, plus for a
 * product or quotient with a subnormal result an absolute eta, |eta| <=
 * 2^-1075; a sum with a subnormal result is exact).  With
 * a = fl(1 - rho) = (1 - rho)(1 + d0):
 *   t = fl(fl(a x) + fl(rho y))
 *     = [(1 - rho) x (1 + d0)(1 + d1) + eta1 + rho y (1 + d2) + eta2](1 + d3),
 *   |t - ((1 - rho) x + rho y)| <= gamma_3 T + 2^-1074 (1 + u),
 *   T = (1 - rho)|x| + rho |y|;
 * with y = NULL, t = fl(a x): |t - (1 - rho) x| <= gamma_2 (1 - rho)|x| + 2^-1075.
 * Adding +0 is exact for t != 0 and turns a -0 into +0 (the contract's
 * zero).  An exact zero result ((1 - rho) x = -rho y exactly) may come out
 * as a tiny non-zero within the bound; a computed zero is always +0.
 *
 * The bound function returns b = fl(fl(2^-51 T^) + 2^-1073), T^ =
 * fl(fl(a |x|) + fl(rho |y|)).  Every rounding of these non-negative
 * quantities loses at most a factor (1 - u), or 2^-1075 when subnormal, so
 * T^ >= (1 - u)^3 T - 2^-1074 and, 2^-51 being a power of two,
 *   b >= (2^-51 (1 - u)^3 T - 2^-1125 - 2^-1075 + 2^-1073)(1 - u)
 *     >= 3.9999 u T + 1.49 2^-1074 >= gamma_3 T + 2^-1074 (1 + u):
 * an upper bound despite its own rounding (gamma_3 <= 3.0000001 u).  It
 * is at most 4/3 of gamma_3 T plus twice the absolute term: tight within
 * a factor 2.  FR_EDOM (outside the proof) if some T^ overflows (|x| or
 * |y| within a rounding of DBL_MAX).
 * Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

/* The checks of ff_ssca_ema and ff_ssca_ema_bound after the output's NULL
 * test, in class order. */
static int ema_args(const double *x, const double *y, size_t n, double rho)
{
    if (!x)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(rho) || !ffi_all_finite(x, n) || (y && !ffi_all_finite(y, n)))
        return FR_ENONFINITE;
    return rho > 0 && rho <= 1 ? FR_OK : FR_EDOM;
}

int ff_ssca_ema(double *x, const double *y, size_t n, double rho)
{
    int st = ema_args(x, y, n, rho);
    if (st != FR_OK)
        return st;
    double *t = malloc(n * sizeof *t);
    if (t == NULL)
        return FR_ENOMEM;
    ffi_ssca_mix(t, x, y, n, rho);               /* y may be x: t first */
    st = ffi_ssca_publish(x, t, n);
    free(t);
    return st;
}

int ff_ssca_ema_bound(double *abs, const double *x, const double *y, size_t n, double rho)
{
    int st = abs ? ema_args(x, y, n, rho) : FR_ENULL;   /* ff_ssca_ema's */
    if (st != FR_OK)
        return st;
    return ffi_ssca_mix_bound(abs, x, y, n, rho);
}
