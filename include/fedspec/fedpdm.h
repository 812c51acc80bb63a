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



/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */



/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */



/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_FEDPDM_H */
