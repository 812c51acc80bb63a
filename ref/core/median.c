/* SPDX-License-Identifier: Apache-2.0 */
/* median.c -- coordinatewise median, 002 eq. (5), midpoint rule for even m.
 * Contract: fedref.h. */
#include <stdlib.h>
#include "../internal.h"

int fr_median(mpfr_t *med, mpfr_t *const W, size_t m, size_t n)
{
    if (med == NULL || W == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(m, n))
        return FR_ESIZE;
    if (!fri_finite(W, m * n))
        return FR_ENONFINITE;
    mpfr_ptr *v = malloc(m * sizeof *v);
    if (v == NULL)
        return FR_ENOMEM;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < m; i++)
            v[i] = W[i * n + j];
        fri_sort_ptrs(v, m);
        if (m % 2 == 1) {
            mpfr_set(med[j], v[m / 2], MPFR_RNDN);
        } else {
            /* (v_(m/2) + v_(m/2+1)) / 2: one rounding, exact halving */
            mpfr_add(med[j], v[m / 2 - 1], v[m / 2], MPFR_RNDN);
            mpfr_div_2ui(med[j], med[j], 1, MPFR_RNDN);
        }
    }
    free(v);
    return FR_OK;
}
