/* SPDX-License-Identifier: Apache-2.0 */
/* update.c -- fr_ssca_update: the iterate update of 000 (5) / (18),
 *   w <- (1 - gamma) w + gamma wbar,
 * each entry the exact value rounded once.  Contract: fedref/ssca.h. */
#include "surrogate.h"

int fr_ssca_update(mpfr_t *w, mpfr_t *const wbar, size_t d, const mpfr_t gamma)
{
    if (w == NULL || wbar == NULL || gamma == NULL)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(gamma) || !fri_finite(w, d) || !fri_finite(wbar, d))
        return FR_ENONFINITE;
    if (!fri_ssca_unit(gamma))
        return FR_EDOM;
    mpfr_t *num = fri_ssca_nums(d);
    if (num == NULL)
        return FR_ENOMEM;
    mpfr_t one, om, t1, t2;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, om, t1, t2, (mpfr_ptr)0);
    int st = fri_sub_exact(om, one, gamma);                  /* 1 - gamma, exact */
    for (size_t j = 0; j < d && st == FR_OK; j++)
        if ((st = fri_mul_exact(t1, om, w[j])) == FR_OK
            && (st = fri_mul_exact(t2, gamma, wbar[j])) == FR_OK)
            st = fri_add_exact(num[j], t1, t2);
    if (st == FR_OK)
        fri_ssca_write(w, num, d, NULL);
    mpfr_clears(one, om, t1, t2, (mpfr_ptr)0);
    fri_ssca_nums_free(num, d);
    return st;
}
