/* SPDX-License-Identifier: Apache-2.0 */
/* stepsize.c -- fr_ssca_stepsize: the stepsize conditions (4) on
 * rho^(t) = a1 t^-alpha1 and (6) on gamma^(t) = a2 t^-alpha2 of 000
 * (001: (3) and (5)), t = 1, 2, ...  Contract: fedref/ssca.h.
 *
 * Derivation (x^(t) = a t^-alpha; t^-alpha > 0 for every t >= 1, equal to
 * 1 at t = 1, decreasing in t iff alpha > 0, constant iff alpha = 0):
 *   POS    x^(t) > 0 for all t   iff a > 0.
 *   LE1    x^(t) <= 1 for all t  iff a <= 0 (then x^(t) <= 0), or alpha >= 0
 *          and a <= 1 (the largest term is x^(1) = a); with a > 0 and
 *          alpha < 0, x^(t) -> +inf.
 *   LIM0   x^(t) -> 0            iff a = 0 or alpha > 0 (alpha <= 0 and
 *          a != 0: |x^(t)| >= |a|).
 *   SUM    sum x^(t) = +inf      iff a > 0 and alpha <= 1 (p-series: sum
 *          t^-alpha diverges iff alpha <= 1; a < 0 gives -inf, a = 0 gives 0).
 *   SQSUM  sum (x^(t))^2 < inf   iff a = 0 or 2 alpha > 1 (p-series with
 *          exponent 2 alpha).
 *   RATIO  gamma^(t)/rho^(t) = (a2/a1) t^(alpha1 - alpha2) -> 0 iff a1 != 0
 *          (else the ratio is undefined at every t: fails) and (a2 = 0 or
 *          alpha2 > alpha1).
 * Every rule compares the given numbers with 0, 1/2, 1 or each other, so
 * the verdict is exact at any precision of the inputs: no rounding, no
 * partial sum, no limit taken numerically.  -0 is 0. */
#include "../internal.h"

/* The failing bits of POS, LE1, LIM0, SUM and SQSUM for x^(t) = a t^-alpha. */
static unsigned seq_fail(mpfr_srcptr a, mpfr_srcptr alpha)
{
    int sa = mpfr_sgn(a), sal = mpfr_sgn(alpha);      /* -0 has sign 0 */
    unsigned f = 0;
    if (!(sa > 0))
        f |= FR_SSCA_POS;
    if (!(sa <= 0 || (sal >= 0 && mpfr_cmp_ui(a, 1) <= 0)))
        f |= FR_SSCA_LE1;
    if (!(sa == 0 || sal > 0))
        f |= FR_SSCA_LIM0;
    if (!(sa > 0 && mpfr_cmp_ui(alpha, 1) <= 0))
        f |= FR_SSCA_SUM;
    if (!(sa == 0 || mpfr_cmp_ui_2exp(alpha, 1, -1) > 0))      /* alpha > 1/2 */
        f |= FR_SSCA_SQSUM;
    return f;
}

int fr_ssca_stepsize(unsigned *rho_fail, unsigned *gamma_fail,
                     const mpfr_t a1, const mpfr_t alpha1,
                     const mpfr_t a2, const mpfr_t alpha2)
{
    if (rho_fail == NULL || gamma_fail == NULL || a1 == NULL || alpha1 == NULL
        || a2 == NULL || alpha2 == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(a1) || !mpfr_number_p(alpha1) || !mpfr_number_p(a2)
        || !mpfr_number_p(alpha2))
        return FR_ENONFINITE;
    if (fri_overlap(rho_fail, sizeof *rho_fail, gamma_fail, sizeof *gamma_fail))
        return FR_EDOM;                                  /* two outputs */
    unsigned r = seq_fail(a1, alpha1) & FR_SSCA_RHO_CONDS;   /* (4): no SQSUM */
    unsigned g = seq_fail(a2, alpha2);
    if (!(!mpfr_zero_p(a1) && (mpfr_zero_p(a2) || mpfr_cmp(alpha2, alpha1) > 0)))
        g |= FR_SSCA_RATIO;
    *rho_fail = r;
    *gamma_fail = g;
    return FR_OK;
}
