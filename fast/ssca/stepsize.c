/* SPDX-License-Identifier: Apache-2.0 */
/* stepsize.c -- ff_ssca_stepsize: the stepsize conditions (4) on
 * rho^(t) = a1 t^-alpha1 and (6) on gamma^(t) = a2 t^-alpha2 of 000
 * (001: (3) and (5)), decided in binary64.  Contract: fedfast/ssca.h.
 *
 * The decision rules (derived in fedspec/ssca.h and ref/ssca/stepsize.c)
 * compare the four given numbers with the constants 0, 0.5 and 1 and with
 * each other.  These constants are binary64 numbers and an IEEE 754
 * comparison of two finite binary64 numbers is exact (it rounds nothing;
 * -0 == +0), so the verdict is exact and equals ref's on the same inputs.
 * Nothing is computed: no a t^-alpha, no partial sum, no limit taken
 * numerically.  Hence there is no ff_ssca_stepsize_bound: there is no
 * error to bound. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

/* The failing bits of POS, LE1, LIM0, SUM and SQSUM for x^(t) = a t^-alpha. */
static unsigned seq_fail(double a, double alpha)
{
    unsigned f = 0;
    if (!(a > 0))
        f |= FR_SSCA_POS;
    if (!(a <= 0 || (alpha >= 0 && a <= 1)))
        f |= FR_SSCA_LE1;
    if (!(a == 0 || alpha > 0))
        f |= FR_SSCA_LIM0;
    if (!(a > 0 && alpha <= 1))
        f |= FR_SSCA_SUM;
    if (!(a == 0 || alpha > 0.5))        /* 2 alpha > 1, without the product */
        f |= FR_SSCA_SQSUM;
    return f;
}

int ff_ssca_stepsize(unsigned *rho_fail, unsigned *gamma_fail,
                     double a1, double alpha1, double a2, double alpha2)
{
    if (rho_fail == NULL || gamma_fail == NULL)
        return FR_ENULL;
    if (!isfinite(a1) || !isfinite(alpha1) || !isfinite(a2) || !isfinite(alpha2))
        return FR_ENONFINITE;
    if (ffi_overlap(rho_fail, sizeof *rho_fail, gamma_fail, sizeof *gamma_fail))
        return FR_EDOM;                                  /* two outputs */
    unsigned r = seq_fail(a1, alpha1) & FR_SSCA_RHO_CONDS;   /* (4): no SQSUM */
    unsigned g = seq_fail(a2, alpha2);
    if (!(a1 != 0 && (a2 == 0 || alpha2 > alpha1)))
        g |= FR_SSCA_RATIO;
    *rho_fail = r;
    *gamma_fail = g;
    return FR_OK;
}
