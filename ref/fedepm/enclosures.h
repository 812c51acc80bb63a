/* SPDX-License-Identifier: Apache-2.0 */
/* enclosures.h -- internal to ref: the enclosure of 002's advanced
 * composition that dp.c's Ziv loop decides on, declared here so that the
 * white-box tests (tests/fedepm/test_enclosures.c) can check it at every
 * working precision from 2 bits.  Not part of the library's interface
 * (hidden in the shared library). */
#ifndef FEDREF_REF_FEDEPM_ENCLOSURES_H
#define FEDREF_REF_FEDEPM_ENCLOSURES_H
#include <stddef.h>
#include <mpfr.h>

/* r (precision wp) bounds adv = sqrt(2 ln(1/delta) sum_j eps_j^2) + sum_j
 * eps_j (e^eps_j - 1) from below (dir = -1) or above (dir = +1), eps_j >= 0
 * finite, 0 < delta < 1.  Scratch: sq[k], tm[k] initialised (precisions set
 * here), ptr[k]. */
void fri_dp_adv_bound(mpfr_ptr r, int dir, mpfr_prec_t wp, mpfr_t *const eps, size_t k,
                      mpfr_srcptr delta, mpfr_t *sq, mpfr_t *tm, mpfr_ptr *ptr);

#endif
