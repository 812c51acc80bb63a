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



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */



/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */

/* The binary64 accountant: the same quantities, domains and statuses as
 * fr_fedpdm_gauss_eps, fr_fedpdm_compose, fr_fedpdm_rdp, fr_fedpdm_rdp_order,
 * fr_fedpdm_thm2
 * (fedref/fedpdm.h), each returned epsilon an UPPER BOUND by outward
 * rounding factors: every computed q is replaced by q + |q| r + 2^-1060
 * (or q - |q| r - 2^-1060) in the direction that raises the result, r =
 * 2^-50 after + - * / sqrt, r = 2^-40 after exp, expm1, log, log1p, erfc.
 * Assumption (libm): those five functions are within 2^-40 relative error
 * (2^-1060 absolute in the subnormal range); glibc documents a few ulps.
 * No FR_EINTERNAL: where no finite bracket below 2^1000 is found, eps =
 * +Inf (a valid upper bound).  ff_fedpdm_gauss_eps bisects to a relative
 * width 2^-46 and returns the certified end hi; ff_fedpdm_rdp's alpha is
 * its own arg-min (may differ from ref's where two orders tie within the
 * rounding).  Checked by: tests/fedpdm/test_acct.c (fast >= ref, within
 * 2^-30 relative), cli/fedpdm/audit_acct.c. */
int ff_fedpdm_gauss_eps(double *eps, double sigma, double s, double delta);
int ff_fedpdm_compose(double *basic, double *adv, double sigma, double s, unsigned long T,
                      double delta);
int ff_fedpdm_rdp(double *eps, unsigned long *alpha, double sigma, double s, unsigned long K,
                  unsigned long N, unsigned long T, double delta, unsigned long alpha_max);
int ff_fedpdm_rdp_order(double *e, double sigma, double s, unsigned long K, unsigned long N,
                        unsigned long alpha);
int ff_fedpdm_thm2(double *eps_bar, double c0, double eps, unsigned long K, unsigned long N,
                   unsigned long T, double q);

/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */



/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_FEDPDM_H */
