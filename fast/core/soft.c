/* soft.c -- ff_soft: soft-thresholding, 002 eq. (2)-(3), binary64.
 *
 * out_j = t_j - a (t_j > a), t_j + a (t_j < -a), +0 (|t_j| <= a).
 * Correctly rounded: one binary64 subtraction (never 0 when t_j != +-a).
 * Contract: include/fedfast.h. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

int ff_soft(double *out, const double *t, size_t n, double a)
{
    if (!out || !t)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(a) || !ff_all_finite(t, n))
        return FR_ENONFINITE;
    if (!(a >= 0))
        return FR_EDOM;
    for (size_t j = 0; j < n; j++) {
        double x = t[j];                  /* read before write: out may be t */
        out[j] = x > a ? x - a : x < -a ? x + a : 0.0;
    }
    return FR_OK;
}
