/* soft.c -- soft-thresholding, 002 eq. (2)-(3).  Contract: fedref.h. */
#include "../internal.h"

int fr_soft(mpfr_t *out, mpfr_t *const t, size_t n, const mpfr_t a)
{
    int st;
    if (out == NULL)
        return FR_ENULL;
    if (n == 0)
        return FR_ESIZE;
    if ((st = fri_check_param(a, 1)) != FR_OK || (st = fri_check_finite(t, n)) != FR_OK)
        return st;
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
