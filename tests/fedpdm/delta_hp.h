/* SPDX-License-Identifier: Apache-2.0 */
/* delta_hp.h -- the Gaussian mechanism's privacy profile to nearest at a
 * high precision, the independent value the fedpdm privacy suites check
 * ref's directed results and enclosures against. */
#ifndef FEDREF_TESTS_DELTA_HP_H
#define FEDREF_TESTS_DELTA_HP_H
#include <mpfr.h>

/* Phi(x) = erfc(-x/sqrt 2)/2 at prec(r), to nearest. */
void tu_phi_hp(mpfr_t r, const mpfr_t x);

/* D = delta(e) = Phi(a/2 - e/a) - e^e Phi(-a/2 - e/a) (= delta_eps(sigma)
 * of 003 with a = s/sigma), every step to nearest at wp bits; T1 (may be
 * NULL) = its first term Phi(a/2 - e/a). */
void tu_delta_hp(mpfr_t D, mpfr_t T1, const mpfr_t e, const mpfr_t a, mpfr_prec_t wp);

/* The PLD accountant's profile of one K-of-N round (ref/fedpdm/pld.c):
 * H(e) = max(q dG(log(1 + (e^e - 1)/q)), (1 - p e^e) dG(log(q e^e / (1 -
 * p e^e)))), p = 1 - q (the second 0 when p e^e >= 1); q = 1: dG(e); dG =
 * tu_delta_hp with a = mu; every step to nearest at prec(r). */
void tu_pld_H_hp(mpfr_t r, mpfr_srcptr e, mpfr_srcptr mu, mpfr_srcptr q);

#endif
