/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_common.h -- shared by the fedpdm model vector schemas: the labels of
 * a vector field (nonnegative integers, else FR_EDOM) and the shape checks. */
#ifndef FEDREF_VECTORS_PDM_COMMON_H
#define FEDREF_VECTORS_PDM_COMMON_H
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

/* y[t] from binary64 values; FR_EDOM if one is not an integer in [0, 2^52]. */
static inline int pdm_labels(size_t *y, const double *v, size_t b)
{
    for (size_t t = 0; t < b; t++) {
        if (!(v[t] >= 0 && v[t] <= 0x1p52 && v[t] == floor(v[t])))
            return FR_EDOM;
        y[t] = (size_t)v[t];
    }
    return FR_OK;
}
#endif
