/* SPDX-License-Identifier: Apache-2.0 */
/* delta_hp.c -- delta_hp.h: delta(e) of the Gaussian mechanism at high
 * precision, by MPFR's erfc and exp, every step to nearest. */
#include "delta_hp.h"

void tu_phi_hp(mpfr_t r, const mpfr_t x)
{
    mpfr_t y;
    mpfr_init2(y, mpfr_get_prec(r) + 16);
    mpfr_sqrt_ui(y, 2, MPFR_RNDN);
    mpfr_div(y, x, y, MPFR_RNDN);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_erfc(r, y, MPFR_RNDN);
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    mpfr_clear(y);
}

void tu_delta_hp(mpfr_t D, mpfr_t T1, const mpfr_t e, const mpfr_t a, mpfr_prec_t wp)
{
    mpfr_t h, q, x, t;
    mpfr_inits2(wp, h, q, x, t, (mpfr_ptr)0);
    mpfr_div_2ui(h, a, 1, MPFR_RNDN);
    mpfr_div(q, e, a, MPFR_RNDN);
    mpfr_sub(x, h, q, MPFR_RNDN);
    tu_phi_hp(t, x);
    if (T1) mpfr_set(T1, t, MPFR_RNDN);
    mpfr_add(x, h, q, MPFR_RNDN);
    mpfr_neg(x, x, MPFR_RNDN);
    tu_phi_hp(x, x);
    mpfr_exp(q, e, MPFR_RNDN);
    mpfr_mul(x, x, q, MPFR_RNDN);
    mpfr_sub(D, t, x, MPFR_RNDN);
    mpfr_clears(h, q, x, t, (mpfr_ptr)0);
}
