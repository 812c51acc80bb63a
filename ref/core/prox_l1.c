/* SPDX-License-Identifier: Apache-2.0 */
/* prox_l1.c -- prox of gamma||.||_1 in 003's convention, eq. (13), (A.1):
 * argmin_x gamma||x||_1 + rho/2 ||x - u||^2 = soft(u, gamma/rho).
 * Contract: fedref.h. */
#include "../internal.h"

/* |x| = (rho|u| - gamma)/rho, correctly rounded to the precision of x. */
static void shrink_cr(mpfr_ptr x, mpfr_srcptr u, mpfr_srcptr gamma,
                      mpfr_srcptr rho, mpfr_ptr num, mpfr_ptr q)
{
    mpfr_prec_t p = mpfr_get_prec(x), wp = p + 32;
    for (;;) {
        mpfr_set_prec(num, wp);
        mpfr_set_prec(q, wp);
        int inex = mpfr_fms(num, rho, u, gamma, MPFR_RNDN);  /* one rounding */
        inex |= mpfr_div(q, num, rho, MPFR_RNDN);  /* one more: |err| < 2^(EXP-wp+2) */
        if (inex == 0 || mpfr_can_round(q, wp - 2, MPFR_RNDN, MPFR_RNDZ, p + 1))
            break;                                 /* exact, or roundable */
        wp += wp / 2;
    }
    mpfr_set(x, q, MPFR_RNDN);
}

int fr_prox_l1(mpfr_t *x, mpfr_t *const u, size_t n,
               const mpfr_t gamma, const mpfr_t rho)
{
    if (x == NULL || u == NULL || gamma == NULL || rho == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(gamma) || !mpfr_number_p(rho) || !fri_finite(u, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(gamma) < 0 || mpfr_sgn(rho) <= 0)
        return FR_EDOM;
    mpfr_t au, num, q;
    mpfr_inits2(MPFR_PREC_MIN, num, q, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(au, mpfr_get_prec(u[j]));
        mpfr_abs(au, u[j], MPFR_RNDN);                     /* exact */
        mpfr_set_prec(num, mpfr_get_prec(rho) + mpfr_get_prec(au) + 2);
        mpfr_fms(num, rho, au, gamma, MPFR_RNDN);          /* sign is exact */
        int neg = mpfr_sgn(u[j]) < 0;
        if (mpfr_sgn(num) <= 0) {
            mpfr_set_zero(x[j], 1);                        /* rho|u| <= gamma */
        } else {
            shrink_cr(x[j], au, gamma, rho, num, q);
            if (neg)
                mpfr_neg(x[j], x[j], MPFR_RNDN);
        }
        mpfr_clear(au);
    }
    mpfr_clears(num, q, (mpfr_ptr)0);
    return FR_OK;
}
