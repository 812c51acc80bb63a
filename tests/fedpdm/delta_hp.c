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

/* delta_hp.h */
void tu_pld_H_hp(mpfr_t r, mpfr_srcptr e, mpfr_srcptr mu, mpfr_srcptr q)
{
    if (mpfr_cmp_ui(q, 1) == 0) {
        tu_delta_hp(r, NULL, e, mu, mpfr_get_prec(r));
        return;
    }
    mpfr_t t, x, p, c, b;
    mpfr_inits2(mpfr_get_prec(r), t, x, p, c, b, (mpfr_ptr)0);
    mpfr_exp(t, e, MPFR_RNDN);
    mpfr_sub_ui(x, t, 1, MPFR_RNDN);
    mpfr_div(x, x, q, MPFR_RNDN);
    mpfr_log1p(x, x, MPFR_RNDN);
    tu_delta_hp(r, NULL, x, mu, mpfr_get_prec(r));
    mpfr_mul(r, r, q, MPFR_RNDN);
    mpfr_ui_sub(p, 1, q, MPFR_RNDN);
    mpfr_mul(c, p, t, MPFR_RNDN);
    mpfr_ui_sub(c, 1, c, MPFR_RNDN);
    if (mpfr_sgn(c) > 0) {
        mpfr_mul(x, q, t, MPFR_RNDN);
        mpfr_div(x, x, c, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        tu_delta_hp(b, NULL, x, mu, mpfr_get_prec(r));
        mpfr_mul(b, b, c, MPFR_RNDN);
        mpfr_max(r, r, b, MPFR_RNDN);
    }
    mpfr_clears(t, x, p, c, b, (mpfr_ptr)0);
}
