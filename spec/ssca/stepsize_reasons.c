/* SPDX-License-Identifier: Apache-2.0 */
/* stepsize_reasons.c -- why a stepsize condition of 000 (4) / (6) fails
 * (fedspec/ssca.h): one fixed English sentence per (sequence, condition
 * bit).  Each sentence is the exact negation of the bit's decision rule
 * for x^(t) = a t^-alpha (fedspec/ssca.h), written with the parameter
 * names of fr_ssca_stepsize: rho^(t) = a1 t^-alpha1, gamma^(t) = a2
 * t^-alpha2.  Strings only. */
#include "fedspec/ssca.h"

/* [sequence][k]: the sentence of bit 1 << k; NULL where the bit is not a
 * condition of that sequence (SQSUM and RATIO belong to (6) only). */
static const char *const reasons[2][6] = {
    {   /* rho, 000 (4) */
        "rho^(t) > 0 fails: a1 <= 0",
        "rho^(t) <= 1 fails: a1 > 1, or a1 > 0 and alpha1 < 0",
        "rho^(t) does not tend to 0: a1 != 0 and alpha1 <= 0",
        "sum rho is not +inf: a1 <= 0 or alpha1 > 1",
        NULL,
        NULL,
    },
    {   /* gamma, 000 (6) */
        "gamma^(t) > 0 fails: a2 <= 0",
        "gamma^(t) <= 1 fails: a2 > 1, or a2 > 0 and alpha2 < 0",
        "gamma^(t) does not tend to 0: a2 != 0 and alpha2 <= 0",
        "sum gamma is not +inf: a2 <= 0 or alpha2 > 1",
        "sum gamma^2 diverges: alpha2 <= 1/2 and a2 != 0",
        "gamma^(t) / rho^(t) does not tend to 0: a1 = 0, or a2 != 0 and alpha2 <= alpha1",
    },
};

const char *fr_ssca_cond_reason(int gamma, unsigned bit)
{
    if (gamma != 0 && gamma != 1)
        return NULL;                       /* 0: rho, 1: gamma, nothing else */
    for (unsigned k = 0; k < 6; k++)
        if (bit == 1u << k)
            return reasons[gamma][k];
    return NULL;                           /* 0, several bits, or an unknown bit */
}
