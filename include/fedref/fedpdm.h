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

/* Math:      the Gaussian mechanism M(D) = g(D) + N(0, sigma^2 I), (4), with
 *            L2 sensitivity s (6).  delta_eps(sigma) = Phi(s/(2 sigma) -
 *            eps sigma/s) - e^eps Phi(-s/(2 sigma) - eps sigma/s) (Balle &
 *            Wang, ICML 2018, Thm 8): M is (eps, delta)-DP iff
 *            delta_eps(sigma) <= delta.  delta_eps is strictly decreasing in
 *            sigma (d delta_eps/d mu = phi(mu/2 - eps/mu) > 0, mu = s/sigma),
 *            from 1 to 0 (docs/FEDPDM.md).
 * fr_gauss_sigma2_classical: sigma2 = 2 s^2 ln(1.25/delta) / eps^2, (5) =
 *            (18) (Dwork & Roth Thm 3.22, proved there for eps < 1 only;
 *            computed for every eps > 0: the verdicts of
 *            proofs_checks/fedpdm/check_gauss.c say where it suffices).
 * fr_gauss_sigma_analytic: sigma = the least sigma >= 0 with
 *            delta_eps(sigma) <= delta (s = 0: +0).
 * fr_gauss_dp_check: *verdict = FR_GAUSS_HOLDS / FAILS / UNKNOWN
 *            (fedspec/fedpdm.h) for delta_eps(sigma) <= delta, and
 *            [mlo, mhi] an enclosure of the margin delta - delta_eps(sigma)
 *            (sigma = 0: delta_eps = 1 if s > 0, 0 if s = 0).
 * Domain:    eps > 0, 0 < delta < 1, s >= 0, all finite; dp_check: sigma >= 0
 *            finite.
 * Statuses:  FR_ENULL (any pointer), FR_ENONFINITE (eps, delta, s; sigma),
 *            FR_EDOM (eps <= 0, delta <= 0 or >= 1, s < 0, sigma < 0),
 *            FR_EINTERNAL (the Ziv loop of sigma2_classical beyond 2^24 bits;
 *            the bracket of sigma_analytic leaving MPFR's exponent range).
 *            Outputs untouched on error.  Aliasing: outputs may be inputs
 *            (results are formed in temporaries); mlo, mhi distinct.
 * Accuracy:  sigma2_classical: RU at prec(sigma2) (correctly rounded upward;
 *            Ziv on a directed-rounding enclosure).  sigma_analytic: the least
 *            number of precision prec(sigma) whose delta_eps is certified
 *            <= delta, i.e. RU(sigma*) (every comparison decided by an
 *            enclosure of delta_eps, precision doubled up to 8192 bits; an
 *            undecided comparison counts as "fails", so the result is never
 *            below sigma*, at most one ulp above RU(sigma*) in that case).
 *            dp_check: HOLDS/FAILS certified; mlo <= margin <= mhi (rounded
 *            outward at their precisions; not necessarily tight).
 * Checked by: proofs_checks/fedpdm/check_gauss.c (grid vs (5); the
 *            privacy-loss-distribution characterisation at 256 bits),
 *            tests/fedpdm/test_gauss.c, vectors/gauss_sigma_classical.json,
 *            vectors/gauss_sigma_analytic.json. */
int fr_gauss_sigma2_classical(mpfr_t sigma2, const mpfr_t eps, const mpfr_t delta, const mpfr_t s);
int fr_gauss_sigma_analytic(mpfr_t sigma, const mpfr_t eps, const mpfr_t delta, const mpfr_t s);
int fr_gauss_dp_check(int *verdict, mpfr_t mlo, mpfr_t mhi, const mpfr_t eps, const mpfr_t delta,
                      const mpfr_t s, const mpfr_t sigma);



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
