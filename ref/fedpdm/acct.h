/* SPDX-License-Identifier: Apache-2.0 */
/* acct.h -- internal to ref: what the RDP accountants of acct.c and
 * acct_improved.c share. */
#ifndef FEDREF_REF_FEDPDM_ACCT_H
#define FEDREF_REF_FEDPDM_ACCT_H
#include <mpfr.h>

#define ACCT_ALPHA_MAX 1024ul   /* largest alpha_max accepted */

/* The argument checks of fr_fedpdm_rdp_rounds and its _improved variant,
 * in their documented order (fedref/fedpdm.h): FR_ENULL, FR_ESIZE,
 * FR_ENONFINITE, FR_EDOM; FR_OK when the arguments are valid. */
int fri_pdm_rdp_rounds_args(mpfr_srcptr eps, const unsigned long *alpha, mpfr_t *const sigma,
                            mpfr_t *const s, unsigned long T, unsigned long first, unsigned long K,
                            unsigned long N, mpfr_srcptr delta, unsigned long alpha_max);

#endif
