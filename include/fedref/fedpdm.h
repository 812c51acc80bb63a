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

/* fr_fedpdm_sensitivity: the l2 sensitivity (19) of 003 Theorem 1,
 * rounded upward (privacy's safe side).
 * Math: a = |1 - eta rho|, S_Q(a) = sum_{r=0}^{Q-1} a^r, s = 4 eta G S_Q(a).
 *   This is (19) in both branches: (1 - a^Q)/(1 - a) = S_Q(a) for a != 1,
 *   S_Q(1) = Q (eta rho = 2); it is continuous in eta rho and has no 0/0
 *   (eta rho -> 0 and eta rho = 2 both give a = 1).  a > 1 (eta rho > 2)
 *   is allowed: s grows like a^(Q-1).  What (19) bounds, and what it does
 *   not (the whole path), is docs/FEDPDM.md's sensitivity section
 *   (pc_fedpdm_sens19).
 * Domain: eta > 0, rho > 0, 1 <= Q <= FR_FEDPDM_Q_MAX, G >= 0 (G = +-0
 *   gives s = +0).
 * Statuses: FR_ENULL (s, eta, rho, G), FR_ESIZE (Q > FR_FEDPDM_Q_MAX),
 *   FR_ENONFINITE (eta, rho, G), FR_EDOM (Q = 0, eta <= 0, rho <= 0,
 *   G < 0), FR_EPREC (the Ziv loop would pass 2^24 bits: not reached for
 *   binary64-sized inputs), FR_ENOMEM.
 * Aliasing: s may alias eta, rho or G (written last).
 * Accuracy: s = RU(exact) at s's precision, the exact value of the given
 *   numbers (eta rho and 1 - eta rho are formed exactly; S_Q(a) is enclosed
 *   by Horner's rule rounded down and up, exact when every step is, with the
 *   precision doubled until both bounds round up alike).
 * Checked by: vectors/fedpdm_sensitivity.json, tests/fedpdm/test_sens.c
 *   (closed forms, monotonicity, the branch point), pc_fedpdm_sens19.
 *   ref/fedpdm/sens.c. */
int fr_fedpdm_sensitivity(mpfr_t s, const mpfr_t eta, const mpfr_t rho, unsigned long Q,
                          const mpfr_t G);

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */



/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */



/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FEDPDM_H */
