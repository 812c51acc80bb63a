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

/* The constants of 003 Lemma 2 / Theorem 3 (Appendix B), as coefficients
 * (the printed B_k include the norms they multiply): b[0..7] = B1..B8,
 * theta1 = min(B1..B4), theta2 = max(B5..B8), C0 = theta2/theta1.  The
 * caller initialises every mpfr_t (its precision is the result's). */
typedef struct {
    mpfr_t b[8];
    mpfr_t theta1, theta2, C0;
    unsigned fail;               /* FR_FEDPDM_T3_* bits (fedspec/fedpdm.h) */
} fr_fedpdm_thm3_consts;

/* fr_fedpdm_thm3: the parameter validator of Lemma 2 / Theorem 3.
 * Math: B1 = N rho/2, B2 = rho/2 - 4L^2/rho - L = -(4L - rho)(2L + rho)/(2
 *   rho), B3 = 8/rho + L/(4L - 2), B4 = 16/rho, B5 = 2, B6 = (1 + 4 rho/N)
 *   16/rho^2, B7 = (L^2 + rho^2) + (4/N)(rho + 4L^2/rho) + 4L^2/rho^2, B8 =
 *   L^2/(4L - 2) + (1 + 4 rho/N) 8/rho^2.  fail: L_LOW iff (L + 4)^2 < 20,
 *   L_HIGH iff 4L > rho, EMPTY iff rho^2 < 16 (2 sqrt 5 - 4)^2 i.e. (rho/4
 *   + 4)^2 < 20, UNDEF iff L = 1/2, B2/B3/B8_NONPOS from the exact signs,
 *   THETA1_NONPOS iff theta1 <= 0 or UNDEF.  C1..C3 are not defined by the
 *   paper (E-003-T3) and not computed.
 * Domain: L > 0, rho > 0, 1 <= N <= FR_COUNT_MAX.
 * Statuses: FR_ENULL (out), FR_ESIZE (N = 0 or > FR_COUNT_MAX),
 *   FR_ENONFINITE (L, rho), FR_EDOM (L <= 0, rho <= 0), FR_ENOMEM.
 * Results: every value correctly rounded to nearest from the exact rational
 *   (GMP mpq from the exact inputs); under UNDEF, b[2], b[7], theta1, theta2
 *   and C0 are NaN; theta1 = 0 gives C0 = +Inf; every flag decided exactly.
 * Aliasing: L, rho must not be members of *out.
 * Checked by: tests/fedpdm/test_sens.c, pc_fedpdm_thm3_conditions.
 *   ref/fedpdm/thm3.c. */
int fr_fedpdm_thm3(fr_fedpdm_thm3_consts *out, const mpfr_t L, const mpfr_t rho, unsigned long N);

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */



/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */



/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FEDPDM_H */
