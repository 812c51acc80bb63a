/* SPDX-License-Identifier: Apache-2.0 */
/* soft.c -- ff_soft: soft-thresholding, 002 eq. (2)-(3), binary64.
 *
 * out_j = t_j - a (t_j > a), t_j + a (t_j < -a), +0 (|t_j| <= a).
 * Correctly rounded: one binary64 subtraction (never 0 when t_j != +-a).
 * No overflow: |out_j| <= |t_j|.
 *
 * ff_soft_bound returns rel = 2^-53, abs = 2^-1074 (exact constants): the
 * exact value x = |t_j| - a and RN(x) differ by at most ulp(x)/2 <=
 * 2^-53 |x| for |x| >= 2^-1022 and by at most 2^-1075 below (in fact 0: a
 * subnormal difference of two binary64 is exact); the dead zone gives +0,
 * exact.
 * Contract: include/fedfast.h. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

/* The checks of ff_soft and ff_soft_bound after their outputs' NULL test,
 * in class order. */
static int soft_args(const double *t, size_t n, double a)
{
    if (!t)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(a) || !ffi_all_finite(t, n))
        return FR_ENONFINITE;
    return a >= 0 ? FR_OK : FR_EDOM;
}

int ff_soft(double *out, const double *t, size_t n, double a)
{
    int st = out ? soft_args(t, n, a) : FR_ENULL;
    if (st != FR_OK)
        return st;
    for (size_t j = 0; j < n; j++) {
        double x = t[j];                  /* read before write: out may be t */
        out[j] = x > a ? x - a : x < -a ? x + a : 0.0;
    }
    return FR_OK;
}

int ff_soft_bound(double *rel, double *abs, const double *t, size_t n, double a)
{
    int st = rel && abs ? soft_args(t, n, a) : FR_ENULL;   /* ff_soft's checks */
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    *rel = 0x1p-53;
    *abs = 0x1p-1074;
    return FR_OK;
}
