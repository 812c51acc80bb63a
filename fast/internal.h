/* internal.h -- internal helpers of libfedfast (not installed): argument
 * checks and the sorted column of a row-major m x n matrix.  No numerics. */
#ifndef FF_COLUMN_H
#define FF_COLUMN_H

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fedref_common.h"

/* 1 iff all len entries of x are finite. */
static inline int ff_all_finite(const double *x, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* The argument checks follow the class order of fedref_common.h
 * ("Error semantics"): all pointers (FR_ENULL), then sizes (FR_ESIZE),
 * finiteness (FR_ENONFINITE) and domain (FR_EDOM); the size limits are
 * libfedref's (FR_COUNT_MAX), so both wings give the same status. */

/* FR_OK iff m, n >= 1 and m n <= FR_COUNT_MAX. */
static inline int ff_check_mn(size_t m, size_t n)
{
    if (m == 0 || n == 0 || n > FR_COUNT_MAX / m)
        return FR_ESIZE;
    return FR_OK;
}

/* 1 iff the byte ranges [p, p + np) and [q, q + nq) overlap (two outputs
 * that must be distinct: FR_EDOM). */
static inline int ff_overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

/* Total order on finite doubles: -0 before +0, so sorting is deterministic. */
static inline int ff_cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (a != b)
        return (a > b) - (a < b);
    return !!signbit(b) - !!signbit(a);
}

/* col[0..m-1] = column j of W (row-major m x n), sorted ascending. */
static inline void ff_sorted_column(double *col, const double *W, size_t m,
                                    size_t n, size_t j)
{
    if (m <= INT_MAX && n <= INT_MAX)
        cblas_dcopy((int)m, W + j, (int)n, col, 1);   /* stride-n gather */
    else
        for (size_t i = 0; i < m; i++)
            col[i] = W[i * n + j];
    qsort(col, m, sizeof *col, ff_cmp_double);
}

#endif /* FF_COLUMN_H */
