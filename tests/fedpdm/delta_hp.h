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

#endif
