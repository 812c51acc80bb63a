/* SPDX-License-Identifier: Apache-2.0 */
/* acct_improved.c -- fr_fedpdm_rdp_rounds_improved: the per-round RDP of
 * fr_fedpdm_rdp_order summed over the rounds, converted to (eps, delta)-DP
 * by the conversion of Canonne, Kamath & Steinke 2020 / Balle et al. 2020
 * instead of Mironov's (docs/DP.md section 2, with its derivation):
 *   eps = min_alpha max(0, rho(alpha) + ln(1 - 1/alpha)
 *                          - (ln delta + ln alpha)/(alpha - 1)).
 * Every rounding is toward a larger eps (the direction is written next to
 * each); rho(alpha) = sum over runs of equal rounds of the run's length
 * times fr_fedpdm_rdp_order (itself rounded up). */
#include <stdlib.h>
#include "../internal.h"
#include "fedref/fedpdm.h"
#include "acct.h"

int fr_fedpdm_rdp_rounds_improved(mpfr_t eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                                  unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                                  const mpfr_t delta, unsigned long alpha_max)
{
    int st = fri_pdm_rdp_rounds_args(eps, alpha, sigma, s, T, first, K, N, delta, alpha_max);
    if (st != FR_OK)
        return st;
    const mpfr_prec_t wp = mpfr_get_prec(eps) + 64;
    mpfr_t rho, r, ld, la, c, best;
    mpfr_inits2(wp, rho, r, ld, la, c, best, (mpfr_ptr)0);
    mpfr_log(ld, delta, MPFR_RNDD);                     /* ln delta, down */
    mpfr_set_inf(best, 1);
    unsigned long ab = 2;
    st = FR_OK;
    for (unsigned long al = 2; st == FR_OK && al <= alpha_max; al++) {
        mpfr_set_zero(rho, 1);
        for (unsigned long t0 = 0; st == FR_OK && t0 < T;) {
            const int sub = t0 >= first && K < N;
            unsigned long t1 = t0 + 1;                  /* the run [t0, t1) */
            while (t1 < T && (t1 >= first && K < N) == sub && mpfr_equal_p(sigma[t1], sigma[t0])
                   && mpfr_equal_p(s[t1], s[t0]))
                t1++;
            st = fr_fedpdm_rdp_order(r, sigma[t0], s[t0], sub ? K : N, N, al);   /* up */
            mpfr_mul_ui(r, r, t1 - t0, MPFR_RNDU);
            mpfr_add(rho, rho, r, MPFR_RNDU);
            t0 = t1;
        }
        mpfr_set_ui(c, al, MPFR_RNDN);
        mpfr_ui_div(c, 1, c, MPFR_RNDD);                /* 1/alpha, down */
        mpfr_neg(c, c, MPFR_RNDN);
        mpfr_log1p(c, c, MPFR_RNDU);                    /* ln(1 - 1/alpha), up */
        mpfr_add(c, rho, c, MPFR_RNDU);
        mpfr_log_ui(la, al, MPFR_RNDD);                 /* ln alpha, down */
        mpfr_add(la, la, ld, MPFR_RNDD);                /* ln delta + ln alpha, down */
        mpfr_div_ui(la, la, al - 1, MPFR_RNDD);
        mpfr_sub(c, c, la, MPFR_RNDU);
        if (mpfr_sgn(c) < 0)
            mpfr_set_zero(c, 1);                        /* eps >= 0: (0, delta)-DP follows */
        if (mpfr_less_p(c, best)) {
            mpfr_set(best, c, MPFR_RNDN);
            ab = al;
        }
    }
    if (st == FR_OK) {
        mpfr_set(eps, best, MPFR_RNDU);
        *alpha = ab;
    }
    mpfr_clears(rho, r, ld, la, c, best, (mpfr_ptr)0);
    return st;
}
