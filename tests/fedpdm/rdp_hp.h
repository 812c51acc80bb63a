/* SPDX-License-Identifier: Apache-2.0 */
/* rdp_hp.h -- test oracle: one round's RDP of order alpha, written from its
 * definition (independent of ref/fedpdm/acct.c's recursions), to nearest. */
#ifndef FEDREF_TESTS_RDP_HP_H
#define FEDREF_TESTS_RDP_HP_H
#include <mpfr.h>

/* r = min{alpha mu, 1/(alpha-1) ln(1 + g^2 C(alpha,2) min{4(e^{2mu} - 1),
 * 2 e^{2mu}} + sum_{j>=3} 2 g^j C(alpha,j) e^{j(j-1) mu})}, the second term
 * only when sub (subsampling g < 1); temporaries at wp bits. */
void tu_rdp_round_hp(mpfr_t r, unsigned long al, const mpfr_t mu, const mpfr_t g, int sub, mpfr_prec_t wp);

/* S = g^2 C(alpha,2) min{4(e^{2mu} - 1), 2 e^{2mu}} + sum_{j>=3} 2 g^j
 * C(alpha,j) e^{j(j-1) mu}, the sum in the logarithm above; temporaries at
 * wp bits. */
void tu_rdp_sum_hp(mpfr_t S, unsigned long al, const mpfr_t mu, const mpfr_t g, mpfr_prec_t wp);

#endif
