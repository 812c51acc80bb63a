/* fedfast/proxal.h -- libfedfast, module proxal: paper 004 (federated
 * learning with convex global and local constraints) in binary64.
 * Conventions: fedfast.h.  docs/PROXAL.md is the normative description. */
#ifndef FEDFAST_PROXAL_H
#define FEDFAST_PROXAL_H

#include "fedref_common.h"
#include "fedspec/proxal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== KKT residuals (Definition 1) ======================================== */

/* ff_proxal_kkt: UPPER BOUNDS of the residuals of 004 Definition 1,
 *   eps1 >= dist_inf(0, grad_f + dh(w) + J mu),  eps2 >= dist_inf(c, N_{R+^m}(mu)),
 * never below the exact values of the given binary64 numbers (a KKT
 * certificate "eps1 <= e1" from fast is then a proof).
 * Math, Domain, Arguments: as fr_proxal_kkt (fedref/proxal.h): the same
 *            per-coordinate formulas; J row-major d x m.
 * Statuses:  as fr_proxal_kkt, in the same order, without FR_EPREC and
 *            FR_ENOMEM; after the start FR_ENONFINITE if binary64 overflows
 *            (a sum or the bound is +Inf).  Outputs untouched on error.
 * Aliasing:  eps1 and eps2 may point into the inputs (written last); not
 *            at each other (FR_EDOM).
 * Algorithm: s_k = fl(g_k + J_k1 mu_1 + ... + J_km mu_m) (recursive, left
 *            to right), a_k = fl(|g_k| + sum_j |fl(J_kj mu_j)|); then
 *            |s_k - r_k| <= E_k = fl(c_m a_k) + (m + 1) 2^-1074, c_m = (m +
 *            1) 2^-53 (1 + 2^-22) (Higham's recursive-sum bound, proved in
 *            fast/proxal/kkt.c; E_k = 0 when m = 0); every e1_k formula is
 *            1-Lipschitz in r_k, so e1_k(r) <= RU(e1_k(s)) + E_k, rounded up
 *            (each addition rounded upward exactly by TwoSum); eps2 is exact
 *            (|c_j| and max(c_j, 0) are binary64 numbers).  Zeros are +0.
 * Accuracy:  ff_proxal_kkt_bound: 0 <= eps1 - exact <= abs1 and eps2 =
 *            exact (abs2 = 0).
 * Checked by: proofs_checks/proxal/check_kkt.c (fast >= the exact rational
 *            residual and within abs1), tests/proxal/test_kkt.c, the audit
 *            (section proxal_kkt), vectors/kkt_residual.json. */
int ff_proxal_kkt(double *eps1, double *eps2, const double *grad_f, size_t d, const double *J,
                  size_t m, const double *c, const double *mu, const double *w, int h,
                  double gamma, const double *lo, const double *hi);
/* Accuracy of ff_proxal_kkt (same inputs and checks; gamma is a value, so
 * never a NULL argument): abs1 = max_k (2 E_k + 2 ulp(e1_k)) as computed,
 * an upper bound of eps1 - exact; abs2 = 0.  Statuses as ff_proxal_kkt
 * (abs1 == abs2: FR_EDOM).  fast/proxal/kkt.c. */
int ff_proxal_kkt_bound(double *abs1, double *abs2, const double *grad_f, size_t d, const double *J,
                        size_t m, const double *c, const double *mu, const double *w, int h,
                        double gamma, const double *lo, const double *hi);

/* ==== end of KKT residuals ================================================ */

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_PROXAL_H */
