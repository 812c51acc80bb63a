/* SPDX-License-Identifier: Apache-2.0 */
/* net_dim.c -- the size of the two-layer network of 000 Sec. V
 * (fedspec/ssca.h): d = J (L + P) parameters, 000's ordering of w
 * (omega_0 = L x J, then omega_1 = J x P).  Integer arithmetic only. */
#include "fedspec/ssca.h"

int fr_ssca_net_dim(size_t L, size_t J, size_t P, size_t *d)
{
    if (L == 0 || J == 0 || P == 0 || L > FR_COUNT_MAX - P)
        return FR_ESIZE;
    const size_t k = L + P;                   /* no overflow: L + P <= FR_COUNT_MAX */
    if (J > FR_COUNT_MAX / k)
        return FR_ESIZE;
    if (d != NULL)
        *d = J * k;
    return FR_OK;
}
