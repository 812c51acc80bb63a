/* SPDX-License-Identifier: Apache-2.0 */
/* soft.c -- soft-thresholding, 002 eq. (2)-(3).  Contract: fedref.h. */
#include "../internal.h"

int fr_soft(mpfr_t *out, mpfr_t *const t, size_t n, const mpfr_t a)
{
    if (out == NULL || t == NULL || a == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(a) || !fri_finite(t, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(a) < 0)
        return FR_EDOM;
    for (size_t j = 0; j < n; j++) {
        if (mpfr_cmpabs(t[j], a) <= 0)           /* |t| <= a: the kink */
            mpfr_set_zero(out[j], 1);
        else if (mpfr_sgn(t[j]) > 0)
            mpfr_sub(out[j], t[j], a, MPFR_RNDN);  /* t - a, one rounding */
        else
            mpfr_add(out[j], t[j], a, MPFR_RNDN);  /* t + a, one rounding */
    }
    return FR_OK;
}
