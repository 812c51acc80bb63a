/* SPDX-License-Identifier: Apache-2.0 */
/* median.c -- ff_median: coordinatewise median, 002 eq. (5), binary64.
 *
 * Odd m: the middle order statistic (exact).  Even m: the midpoint of the
 * two middle order statistics a <= b, correctly rounded:
 *   (a + b) / 2 when a + b is finite: if |a + b| < 2^-1021 the sum is exact
 *   and the halving is the only rounding; otherwise the sum is the only
 *   rounding and the halving is exact;
 *   a/2 + b/2 when a + b overflows: then |a|, |b| >= 2^970, both halvings
 *   are exact and the sum is the only rounding.
 *
 * ff_median_bound returns rel = 2^-53, abs = 2^-1074 (exact constants): a
 * correctly rounded x^ of x is within ulp(x)/2 <= 2^-53 |x| for
 * |x| >= 2^-1022 and within 2^-1075 below.
 * Contract: include/fedfast.h. */
#include <math.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"

/* The checks of ff_median and ff_median_bound after their outputs' NULL
 * test, in class order. */
static int median_args(const double *W, size_t m, size_t n)
{
    if (!W)
        return FR_ENULL;
    int st = ffi_check_mn(m, n);
    if (st != FR_OK)
        return st;
    return ffi_all_finite(W, m * n) ? FR_OK : FR_ENONFINITE;
}

int ff_median(double *med, const double *W, size_t m, size_t n)
{
    int st = med ? median_args(W, m, n) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double *v = malloc(m * sizeof *v);
    uint64_t *ws = malloc(m * sizeof *ws);
    if (!v || !ws) {
        free(v);
        free(ws);
        return FR_ENOMEM;
    }
    for (size_t j = 0; j < n; j++) {
        ffi_sorted_column(v, ws, W, m, n, j);
        if (m % 2) {
            med[j] = v[m / 2];
        } else {
            double a = v[m / 2 - 1], b = v[m / 2], s = a + b;
            med[j] = isinf(s) ? a / 2 + b / 2 : s / 2;
        }
    }
    free(v);
    free(ws);
    return FR_OK;
}

int ff_median_bound(double *rel, double *abs, const double *W, size_t m, size_t n)
{
    int st = rel && abs ? median_args(W, m, n) : FR_ENULL;   /* ff_median's checks */
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    *rel = 0x1p-53;
    *abs = 0x1p-1074;
    return FR_OK;
}
