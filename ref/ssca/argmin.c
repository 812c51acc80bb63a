/* SPDX-License-Identifier: Apache-2.0 */
/* argmin.c -- fr_ssca_argmin: the minimiser of the surrogate of 000 (3)
 * with (7) (and (33) for the regularised problem (32)):
 *   Fbar(w) = f1^T w + 2 lambda beta^T w + tau (1 - P) ||w||^2 + const,
 *   grad = f1 + 2 lambda beta + 2 tau (1 - P) w = 0
 *   =>  wbar = -(f1 + 2 lambda beta) / (2 tau (1 - P)),
 * (10) / (24) / (38)-(39) corrected: they print 1 - P = 1, i.e. the total
 * weight of (3) as if rho^(1) = 1 (docs/ERRATA.md E-000-8).  Numerator and
 * denominator are exact, one division.  Contract: fedref/ssca.h. */
#include "surrogate.h"

int fr_ssca_argmin(mpfr_t *wbar, mpfr_t *const f1, mpfr_t *const beta, size_t d,
                   const mpfr_t lambda, const mpfr_t tau, const mpfr_t P)
{
    if (wbar == NULL || f1 == NULL || lambda == NULL || tau == NULL || P == NULL)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(lambda) || !mpfr_number_p(tau) || !mpfr_number_p(P)
        || !fri_finite(f1, d) || (beta != NULL && !fri_finite(beta, d)))
        return FR_ENONFINITE;
    if (mpfr_sgn(tau) <= 0 || mpfr_sgn(lambda) < 0 || mpfr_sgn(P) < 0 || mpfr_cmp_ui(P, 1) >= 0)
        return FR_EDOM;
    mpfr_t *num = fri_ssca_nums(d);
    if (num == NULL)
        return FR_ENOMEM;
    mpfr_t one, om, den, t;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, om, den, t, (mpfr_ptr)0);
    int st = fri_sub_exact(om, one, P);                      /* 1 - P > 0 */
    if (st == FR_OK && (st = fri_mul_exact(den, tau, om)) == FR_OK)
        st = fri_ssca_twice(den);                            /* 2 tau (1 - P), exact */
    int reg = beta != NULL && !mpfr_zero_p(lambda);
    /* all numerators first: wbar may be f1 */
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        if (reg && (st = fri_mul_exact(t, lambda, beta[j])) == FR_OK
            && (st = fri_ssca_twice(t)) == FR_OK) {          /* 2 lambda beta_j, exact */
            st = fri_add_exact(num[j], f1[j], t);
        } else if (!reg) {
            mpfr_set_prec(num[j], mpfr_get_prec(f1[j]));
            mpfr_set(num[j], f1[j], MPFR_RNDN);              /* exact */
        }
        if (st == FR_OK)
            mpfr_neg(num[j], num[j], MPFR_RNDN);             /* exact */
    }
    if (st == FR_OK)
        fri_ssca_write(wbar, num, d, den);
    mpfr_clears(one, om, den, t, (mpfr_ptr)0);
    fri_ssca_nums_free(num, d);
    return st;
}
