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



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */



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
