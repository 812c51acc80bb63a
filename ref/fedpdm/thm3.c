/* SPDX-License-Identifier: Apache-2.0 */
/* thm3.c -- the parameter validator of 003 Lemma 2 / Theorem 3 (Appendix
 * B): the constants B1..B8, theta1, theta2, C0 as exact rationals (GMP
 * mpq, from the exact binary64-or-wider inputs), each rounded to nearest
 * once, and every condition decided exactly.  Contract: fedref/fedpdm.h. */
#include <gmp.h>
#include "../internal.h"

int fr_fedpdm_thm3(fr_fedpdm_thm3_consts *out, const mpfr_t L, const mpfr_t rho, unsigned long N)
{
    if (out == NULL || L == NULL || rho == NULL)
        return FR_ENULL;
    if (N == 0 || N > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(L) || !mpfr_number_p(rho))
        return FR_ENONFINITE;
    if (mpfr_sgn(L) <= 0 || mpfr_sgn(rho) <= 0)
        return FR_EDOM;
    mpq_t l, r, n, b[8], t, u, d, th1, th2;
    mpq_inits(l, r, n, t, u, d, th1, th2, NULL);
    for (int k = 0; k < 8; k++) mpq_init(b[k]);
    mpfr_get_q(l, L);
    mpfr_get_q(r, rho);
    mpq_set_ui(n, N, 1);
    unsigned fail = 0;
    /* conditions */
    mpq_set_ui(t, 4, 1);
    mpq_add(u, l, t);
    mpq_mul(u, u, u);                                  /* (L + 4)^2 */
    mpq_set_ui(t, 20, 1);
    if (mpq_cmp(u, t) < 0) fail |= FR_FEDPDM_T3_L_LOW;
    mpq_set_ui(t, 4, 1);
    mpq_mul(u, l, t);
    if (mpq_cmp(u, r) > 0) fail |= FR_FEDPDM_T3_L_HIGH;
    if (mpq_cmp(u, r) >= 0) fail |= FR_FEDPDM_T3_B2_NONPOS;
    mpq_div(u, r, t);                                  /* rho/4 */
    mpq_add(u, u, t);
    mpq_mul(u, u, u);
    mpq_set_ui(t, 20, 1);
    if (mpq_cmp(u, t) < 0) fail |= FR_FEDPDM_T3_EMPTY;
    mpq_set_ui(t, 4, 1);
    mpq_mul(d, l, t);
    mpq_set_ui(t, 2, 1);
    mpq_sub(d, d, t);                                  /* 4L - 2 */
    int undef = mpq_sgn(d) == 0;
    if (undef) fail |= FR_FEDPDM_T3_UNDEF;
    /* B1 = N rho / 2 */
    mpq_mul(b[0], n, r);
    mpq_div_2exp(b[0], b[0], 1);
    /* B2 = rho/2 - 4L^2/rho - L */
    mpq_div_2exp(b[1], r, 1);
    mpq_mul(t, l, l);
    mpq_mul_2exp(t, t, 2);
    mpq_div(t, t, r);                                  /* 4L^2/rho (kept in t for B7) */
    mpq_sub(b[1], b[1], t);
    mpq_sub(b[1], b[1], l);
    /* B4 = 16/rho, B5 = 2 */
    mpq_set_ui(b[3], 16, 1);
    mpq_div(b[3], b[3], r);
    mpq_set_ui(b[4], 2, 1);
    /* B6 = (1 + 4 rho/N) 16/rho^2; u = 1 + 4 rho/N */
    mpq_mul_2exp(u, r, 2);
    mpq_div(u, u, n);
    mpq_set_ui(b[5], 1, 1);
    mpq_add(u, u, b[5]);
    mpq_mul(b[5], r, r);
    mpq_inv(b[5], b[5]);
    mpq_mul_2exp(b[5], b[5], 4);
    mpq_mul(b[5], b[5], u);
    /* B7 = (L^2 + rho^2) + (4/N)(rho + 4L^2/rho) + 4L^2/rho^2 */
    mpq_add(b[6], r, t);
    mpq_mul_2exp(b[6], b[6], 2);
    mpq_div(b[6], b[6], n);
    mpq_div(t, t, r);                                  /* 4L^2/rho^2 */
    mpq_add(b[6], b[6], t);
    mpq_mul(t, l, l);
    mpq_add(b[6], b[6], t);
    mpq_mul(t, r, r);
    mpq_add(b[6], b[6], t);
    if (!undef) {
        /* B3 = 8/rho + L/(4L - 2) */
        mpq_set_ui(b[2], 8, 1);
        mpq_div(b[2], b[2], r);
        mpq_div(t, l, d);
        mpq_add(b[2], b[2], t);
        if (mpq_sgn(b[2]) <= 0) fail |= FR_FEDPDM_T3_B3_NONPOS;
        /* B8 = L^2/(4L - 2) + (1 + 4rho/N) 8/rho^2 = L^2/(4L - 2) + B6/2 */
        mpq_mul(b[7], l, l);
        mpq_div(b[7], b[7], d);
        mpq_div_2exp(t, b[5], 1);
        mpq_add(b[7], b[7], t);
        if (mpq_sgn(b[7]) <= 0) fail |= FR_FEDPDM_T3_B8_NONPOS;
        mpq_set(th1, b[0]);
        for (int k = 1; k < 4; k++) if (mpq_cmp(b[k], th1) < 0) mpq_set(th1, b[k]);
        if (mpq_sgn(th1) <= 0) fail |= FR_FEDPDM_T3_THETA1_NONPOS;
    } else {
        fail |= FR_FEDPDM_T3_THETA1_NONPOS;
    }
    mpq_set(th2, b[4]);
    for (int k = 5; k < 8; k++)
        if ((!undef || k != 7) && mpq_cmp(b[k], th2) > 0) mpq_set(th2, b[k]);
    /* write the results (no error can follow) */
    for (int k = 0; k < 8; k++) {
        if (undef && (k == 2 || k == 7)) mpfr_set_nan(out->b[k]);
        else mpfr_set_q(out->b[k], b[k], MPFR_RNDN);
    }
    if (undef) {
        mpfr_set_nan(out->theta1);
        mpfr_set_nan(out->theta2);
        mpfr_set_nan(out->C0);
    } else {
        mpfr_set_q(out->theta1, th1, MPFR_RNDN);
        mpfr_set_q(out->theta2, th2, MPFR_RNDN);
        if (mpq_sgn(th1) == 0) {
            mpfr_set_inf(out->C0, 1);
        } else {
            mpq_div(t, th2, th1);
            mpfr_set_q(out->C0, t, MPFR_RNDN);
        }
    }
    out->fail = fail;
    mpq_clears(l, r, n, t, u, d, th1, th2, NULL);
    for (int k = 0; k < 8; k++) mpq_clear(b[k]);
    return FR_OK;
}
