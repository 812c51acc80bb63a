/* SPDX-License-Identifier: Apache-2.0 */
/* acct.h -- internal to fast: what the RDP accountants of acct.c and
 * acct_improved.c share: the outward factors (acct.c's header comment
 * states them) and the argument checks. */
#ifndef FEDREF_FAST_FEDPDM_ACCT_H
#define FEDREF_FAST_FEDPDM_ACCT_H
#include <math.h>

#define R_OP 0x1p-50            /* after + - * / sqrt */
#define R_LM 0x1p-40            /* after a libm call */
#define ABS_T 0x1p-1060
#define ACCT_ALPHA_MAX 1024ul


/* The argument checks of ff_fedpdm_rdp_rounds and its _improved variant,
 * in their documented order (fedfast/fedpdm.h); FR_OK when valid. */
int ffi_pdm_rdp_rounds_args(const double *eps, const unsigned long *alpha, const double *sigma,
                            const double *s, unsigned long T, unsigned long first, unsigned long K,
                            unsigned long N, double delta, unsigned long alpha_max);

#endif
