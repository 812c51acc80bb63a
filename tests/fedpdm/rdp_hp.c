/* SPDX-License-Identifier: Apache-2.0 */
/* rdp_hp.c -- rdp_hp.h: one round's RDP of the subsampled Gaussian from its
 * definition, by plain loops at high precision, every step to nearest. */
#include <gmp.h>
#include "rdp_hp.h"

/* S = g^2 C(alpha,2) min{4(e^{2mu} - 1), 2 e^{2mu}} + sum_{j>=3} 2 g^j C(alpha,j) e^{j(j-1) mu} */
void tu_rdp_sum_hp(mpfr_t S, unsigned long al, const mpfr_t mu, const mpfr_t g, mpfr_prec_t wp)
{
    mpfr_t t, u;
    mpz_t b;
    mpz_init(b);
    mpfr_inits2(wp, t, u, (mpfr_ptr)0);
    mpfr_mul_2ui(t, mu, 1, MPFR_RNDN);
    mpfr_expm1(u, t, MPFR_RNDN);
    mpfr_mul_2ui(u, u, 2, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_min(u, u, t, MPFR_RNDN);
    mpz_bin_uiui(b, al, 2);
    mpfr_mul_z(u, u, b, MPFR_RNDN);
    mpfr_sqr(t, g, MPFR_RNDN);
    mpfr_mul(S, u, t, MPFR_RNDN);
    for (unsigned long j = 3; j <= al; j++) {
        mpfr_mul_ui(t, mu, j * (j - 1), MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpz_bin_uiui(b, al, j);
        mpfr_mul_z(t, t, b, MPFR_RNDN);
        mpfr_pow_ui(u, g, j, MPFR_RNDN);
        mpfr_mul(t, t, u, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
        mpfr_add(S, S, t, MPFR_RNDN);
    }
    mpfr_clears(t, u, (mpfr_ptr)0);
    mpz_clear(b);
}

/* min{alpha mu, 1/(alpha-1) ln(1 + S)} (the second when sub) */
void tu_rdp_round_hp(mpfr_t r, unsigned long al, const mpfr_t mu, const mpfr_t g, int sub, mpfr_prec_t wp)
{
    mpfr_t acc;
    mpfr_init2(acc, wp);
    mpfr_mul_ui(r, mu, al, MPFR_RNDN);
    if (sub) {
        tu_rdp_sum_hp(acc, al, mu, g, wp);
        mpfr_log1p(acc, acc, MPFR_RNDN);
        mpfr_div_ui(acc, acc, al - 1, MPFR_RNDN);
        mpfr_min(r, r, acc, MPFR_RNDN);
    }
    mpfr_clear(acc);
}
