/* fedfast/fedpdm.h -- libfedfast, module fedpdm: paper 003 (FedPDM-DP) in binary64.  Conventions: fedfast.h.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDFAST_FEDPDM_H
#define FEDFAST_FEDPDM_H

#include "fedref_common.h"
#include "fedspec/fedpdm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */

/* Math, Domain, Statuses: as fr_gauss_sigma2_classical, fr_gauss_sigma_analytic,
 *            fr_gauss_dp_check (fedref/fedpdm.h), same order, no FR_EPREC;
 *            ff_gauss_sigma_analytic_upper: FR_EINTERNAL if no binary64 <=
 *            DBL_MAX is certified.  Outputs untouched on error.  Aliasing:
 *            none (scalar outputs).  The guarantees below assume exp, log,
 *            erfc within 2 ulp (docs/ACCURACY.md); derivation in
 *            fast/fedpdm/gauss.c.
 * ff_gauss_sigma2_classical_upper: sigma2 >= the exact (5) (subnormal or
 *            underflowing results: >= and within 2^-1073; +Inf beyond
 *            DBL_MAX).  Accuracy: ff_gauss_sigma2_classical_upper_bound:
 *            0 <= sigma2 - exact <= rel exact + abs, rel = 2^-47, abs = 2^-1073
 *            (proved: m (1 + 46u)).
 * ff_gauss_sigma_analytic_upper: a binary64 search on a point estimate of
 *            delta_eps, then stepped up (geometrically) until an
 *            outward-rounded enclosure of delta_eps(sigma) is <= delta: the
 *            result is >= sigma* (never below the true value).  Accuracy
 *            EMPIRICAL (no proof): within 2^-26 relative of sigma* for
 *            normal delta (>= 2^-1022) on the vectors, the tests and the audit
 *            (vectors/gauss_sigma_analytic.json tol); subnormal delta: the
 *            absolute rounding of the enclosure dominates (4.4e-7 relative
 *            measured at delta = 4e-320), still never below sigma*.
 * ff_gauss_dp_check: verdict HOLDS only when the outward enclosure of
 *            delta_eps(sigma) is <= delta (never a wrong HOLDS), FAILS only
 *            when it is > delta, else UNKNOWN; mlo <= delta - delta_eps(sigma)
 *            <= mhi. */
int ff_gauss_sigma2_classical_upper(double *sigma2, double eps, double delta, double s);
int ff_gauss_sigma2_classical_upper_bound(double *rel, double *abs, double eps, double delta,
                                          double s);
int ff_gauss_sigma_analytic_upper(double *sigma, double eps, double delta, double s);
int ff_gauss_dp_check(int *verdict, double *mlo, double *mhi, double eps, double delta, double s,
                      double sigma);



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
#endif /* FEDFAST_FEDPDM_H */
