/* fedspec/fedpdm.h -- the specification layer of module fedpdm (paper 003, FedPDM-DP), shared by ref and fast: integer and string logic only.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDSPEC_FEDPDM_H
#define FEDSPEC_FEDPDM_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */

/* The verdict of fr_gauss_dp_check / ff_gauss_dp_check: does the Gaussian
 * mechanism with L2 sensitivity s and noise sigma satisfy (eps, delta)-DP?
 * HOLDS and FAILS are certified (ref: by an enclosure; fast: by an
 * outward-rounded enclosure under the libm assumption of docs/ACCURACY.md);
 * UNKNOWN: the enclosure straddles delta (fast near the boundary, ref only
 * if 8192 bits do not decide).  A caller must treat UNKNOWN as FAILS. */
enum { FR_GAUSS_FAILS = -1, FR_GAUSS_UNKNOWN = 0, FR_GAUSS_HOLDS = 1 };



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */

/* The largest local step count Q accepted by fr_fedpdm_sensitivity and
 * ff_fedpdm_sensitivity (Q_i^t of (10a)-(10b)); beyond it FR_ESIZE.  It
 * keeps a^Q inside MPFR's exponent range for every binary64 a. */
#define FR_FEDPDM_Q_MAX 65536UL

/* The failure bits of fr_fedpdm_thm3 / ff_fedpdm_thm3: the conditions of
 * 003 Lemma 2 / Theorem 3 (Appendix B) and the signs of the constants they
 * define (docs/FEDPDM.md, sensitivity section). */
#define FR_FEDPDM_T3_L_LOW        0x01u  /* L < 2 sqrt 5 - 4 */
#define FR_FEDPDM_T3_L_HIGH       0x02u  /* L > rho/4 */
#define FR_FEDPDM_T3_EMPTY        0x04u  /* rho < 4 (2 sqrt 5 - 4): no admissible L */
#define FR_FEDPDM_T3_UNDEF        0x08u  /* L = 1/2: 4L - 2 = 0, B3 and B8 undefined */
#define FR_FEDPDM_T3_B2_NONPOS    0x10u  /* B2 = rho/2 - 4L^2/rho - L <= 0 (iff L >= rho/4) */
#define FR_FEDPDM_T3_B3_NONPOS    0x20u  /* B3 = 8/rho + L/(4L - 2) <= 0 */
#define FR_FEDPDM_T3_B8_NONPOS    0x40u  /* B8 = L^2/(4L - 2) + (1 + 4rho/N) 8/rho^2 <= 0 */
#define FR_FEDPDM_T3_THETA1_NONPOS 0x80u /* theta1 = min(B1..B4) <= 0 or undefined: C0 = theta2/theta1 is no bound */

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */

/* (no shared spec function: fedref/fedpdm.h and fedfast/fedpdm.h hold the
 * accountant's contracts) */

/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */



/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_FEDPDM_H */
