/* fedref/fedpdm.h -- libfedref, module fedpdm: paper 003 (FedPDM-DP) in MPFR.  Conventions: fedref.h.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDREF_FEDPDM_H
#define FEDREF_FEDPDM_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/fedpdm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */



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
#endif /* FEDREF_FEDPDM_H */
