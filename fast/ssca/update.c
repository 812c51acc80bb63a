/* SPDX-License-Identifier: Apache-2.0 */
/* update.c -- ff_ssca_update: the iterate update of 000 (5) / (18),
 *   w_j <- (1 - gamma) w_j + gamma wbar_j,
 * binary64, computed as fl(fl(fl(1 - gamma) w_j) + fl(gamma wbar_j)) + 0
 * (ffi_ssca_mix; the form of (5), so gamma = 1 copies wbar exactly).  The
 * error analysis is ema.c's with rho -> gamma, x -> w, y -> wbar:
 *   |w^ - w'| <= gamma_3 ((1 - gamma)|w_j| + gamma |wbar_j|) + 2^-1074 (1 + u),
 * and ff_ssca_update_bound returns 2^-51 T^ + 2^-1073 (rounded), an upper
 * bound despite its own rounding (ema.c).  Contract: include/fedfast/ssca.h. */
#include "surrogate.h"

/* The checks of ff_ssca_update and its bound after the output's NULL
 * test, in class order. */
static int update_args(const double *w, const double *wbar, size_t d, double gamma)
{
    if (!w || !wbar)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(gamma) || !ffi_all_finite(w, d) || !ffi_all_finite(wbar, d))
        return FR_ENONFINITE;
    return gamma > 0 && gamma <= 1 ? FR_OK : FR_EDOM;
}

int ff_ssca_update(double *w, const double *wbar, size_t d, double gamma)
{
    int st = update_args(w, wbar, d, gamma);
    if (st != FR_OK)
        return st;
    double *t = malloc(d * sizeof *t);
    if (t == NULL)
        return FR_ENOMEM;
    ffi_ssca_mix(t, w, wbar, d, gamma);
    st = ffi_ssca_publish(w, t, d);
    free(t);
    return st;
}

int ff_ssca_update_bound(double *abs, const double *w, const double *wbar, size_t d,
                         double gamma)
{
    int st = abs ? update_args(w, wbar, d, gamma) : FR_ENULL;   /* ff_ssca_update's */
    if (st != FR_OK)
        return st;
    return ffi_ssca_mix_bound(abs, w, wbar, d, gamma);
}
