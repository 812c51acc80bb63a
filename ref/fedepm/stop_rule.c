/* SPDX-License-Identifier: Apache-2.0 */
/* stop_rule.c -- the stopping rule of 002 Sec. VII-B, decided exactly in
 * rational arithmetic (10^-6 and 10^-8 are not dyadic).  Contract: fedref.h. */
#include <gmp.h>
#include "../internal.h"

int fr_stop_rule(int *stop, const mpfr_t gnorm2, mpfr_t *const f, size_t nf, size_t n)
{
    if (stop == NULL || gnorm2 == NULL || f == NULL)
        return FR_ENULL;
    if (nf == 0 || nf > FR_COUNT_MAX || n == 0)
        return FR_ESIZE;
    /* only the last four values are read; all must be finite */
    if (!mpfr_number_p(gnorm2) || !fri_finite(f, nf))
        return FR_ENONFINITE;
    if (mpfr_sgn(gnorm2) < 0)
        return FR_EDOM;
    /* ||grad f||^2 < 10^-6 (a value >= 1 cannot be: no rational needed) */
    if (mpfr_cmp_ui(gnorm2, 1) < 0) {
        mpq_t g, lim;
        mpq_inits(g, lim, NULL);
        mpfr_get_q(g, gnorm2);
        mpq_set_ui(lim, 1, 1000000);
        int below = mpq_cmp(g, lim) < 0;
        mpq_clears(g, lim, NULL);
        if (below) {
            *stop = FR_STOP_GRAD;
            return FR_OK;
        }
    }
    if (nf < 4) {
        *stop = FR_STOP_ROUNDS;
        return FR_OK;
    }
    /* var = sum (f_k - mean)^2 / 3 <= n 10^-8 / (1 + |f_last|)
     * <=>  var (1 + |f_last|) 10^8 <= n */
    mpq_t q[4], mean, v, t;
    for (int k = 0; k < 4; k++) {
        mpq_init(q[k]);
        mpfr_get_q(q[k], f[nf - 4 + (size_t)k]);
    }
    mpq_inits(mean, v, t, NULL);
    for (int k = 0; k < 4; k++)
        mpq_add(mean, mean, q[k]);
    mpq_set_ui(t, 1, 4);
    mpq_mul(mean, mean, t);
    for (int k = 0; k < 4; k++) {
        mpq_sub(t, q[k], mean);
        mpq_mul(t, t, t);
        mpq_add(v, v, t);
    }
    mpq_set_ui(t, 1, 3);
    mpq_mul(v, v, t);                                  /* the sample variance */
    mpq_abs(t, q[3]);
    mpq_set_ui(mean, 1, 1);
    mpq_add(t, t, mean);                               /* 1 + |f_last| */
    mpq_mul(v, v, t);
    mpq_set_ui(t, 100000000, 1);
    mpq_mul(v, v, t);
    mpz_t nz;
    mpz_init(nz);
    mpz_import(nz, 1, 1, sizeof n, 0, 0, &n);          /* n exactly, any size_t */
    mpq_set_z(t, nz);
    mpz_clear(nz);
    *stop = mpq_cmp(v, t) <= 0 ? FR_STOP_VAR : FR_STOP_ROUNDS;
    for (int k = 0; k < 4; k++)
        mpq_clear(q[k]);
    mpq_clears(mean, v, t, NULL);
    return FR_OK;
}
