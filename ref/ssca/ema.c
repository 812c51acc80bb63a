/* SPDX-License-Identifier: Apache-2.0 */
/* ema.c -- fr_ssca_ema: the exponential average of 000 (35),
 *   x <- (1 - rho) x + rho y,
 * and with y = NULL the mass P_t = prod_{s<=t} (1 - rho^(s)) of the
 * surrogate (3) (fedref/ssca.h, "The total weight").  Each entry is the
 * exact (1 - rho) x_k + rho y_k rounded once.  Contract: fedref/ssca.h. */
#include "surrogate.h"

int fr_ssca_ema(mpfr_t *x, mpfr_t *const y, size_t n, const mpfr_t rho)
{
    if (x == NULL || rho == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(rho) || !fri_finite(x, n) || (y != NULL && !fri_finite(y, n)))
        return FR_ENONFINITE;
    if (!fri_ssca_unit(rho))
        return FR_EDOM;
    mpfr_t *num = fri_ssca_nums(n);
    if (num == NULL)
        return FR_ENOMEM;
    mpfr_t one, om, t1, t2;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, om, t1, t2, (mpfr_ptr)0);
    int st = fri_sub_exact(om, one, rho);                    /* 1 - rho, exact */
    /* all numerators first (y may be x): nothing is written unless all are exact */
    for (size_t k = 0; k < n && st == FR_OK; k++) {
        if (y == NULL) {
            st = fri_mul_exact(num[k], om, x[k]);
        } else if ((st = fri_mul_exact(t1, om, x[k])) == FR_OK
                   && (st = fri_mul_exact(t2, rho, y[k])) == FR_OK) {
            st = fri_add_exact(num[k], t1, t2);
        }
    }
    if (st == FR_OK)
        fri_ssca_write(x, num, n, NULL);
    mpfr_clears(one, om, t1, t2, (mpfr_ptr)0);
    fri_ssca_nums_free(num, n);
    return st;
}
