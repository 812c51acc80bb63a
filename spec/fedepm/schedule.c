/* SPDX-License-Identifier: Apache-2.0 */
/* schedule.c -- the family's integer schedule (fedspec/fedepm.h): the
 * selection size |S| = rho m and the paper's bracket tau_k.  Integer
 * arithmetic and one binary64 product. */
#include <math.h>
#include "fedspec/fedepm.h"

int fr_selection_size(double rho, size_t m, size_t *nsel)
{
    if (nsel == NULL)
        return FR_ENULL;
    if (m == 0)
        return FR_ESIZE;
    if (!isfinite(rho))
        return FR_ENONFINITE;
    if (!(rho > 0 && rho <= 1))
        return FR_EDOM;
    double p = round(rho * (double)m);    /* nearest, ties away from zero */
    size_t k = (size_t)p;
    *nsel = k < 1 ? 1 : k > m ? m : k;
    return FR_OK;
}

unsigned long fr_tau(unsigned long k, unsigned long k0)
{
    if (k0 == 0)
        return 0;
    return k / k0 + (k % k0 != 0);       /* ceil(k / k0): the paper's bracket */
}
