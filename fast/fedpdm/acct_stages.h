/* SPDX-License-Identifier: Apache-2.0 */
/* acct_stages.h -- internal to fast: the decision of ff_fedpdm_gauss_eps
 * (acct.c) and its stages, declared here so that the white-box tests
 * (tests/fedpdm/test_fast_acct_stages.c) can check its verdicts against
 * delta(eps) at high precision next to the root, where one bound rounded
 * the wrong way shows: the search's tolerance (2^-46) hides it in eps.
 * Not part of the library's interface (hidden in the shared library). */
#ifndef FEDREF_FAST_FEDPDM_ACCT_STAGES_H
#define FEDREF_FAST_FEDPDM_ACCT_STAGES_H

/* s, sigma > 0, eps >= 0, 0 < delta < 1 finite: 1 if delta(eps) <= delta
 * is certified, -1 if delta(eps) > delta is, else 0; delta(eps) =
 * Phi(a/2 - eps/a) - e^eps Phi(-a/2 - eps/a), a = s/sigma. */
int ffi_pdm_eps_cert(double eps, double s, double sigma, double delta);

/* Its arguments, a = s/sigma: b[0] <= a/2 - eps/a <= b[1] and b[2] <=
 * a/2 + eps/a <= b[3]. */
void ffi_pdm_cert_args(double b[4], double eps, double s, double sigma);

/* Phi(x) bounded above (dir > 0, x an upper bound of the argument) or
 * below (dir < 0, x a lower bound); ln Phi(-z) bounded above (dir > 0, z
 * >= 0 a lower bound) or below (dir < 0, z an upper bound). */
double ffi_pdm_phi_b(double x, int dir);
double ffi_pdm_lphi_neg(double z, int dir);

/* <= e^{eps + l} (T = e^eps Phi(-z) from below, l <= ln Phi(-z)). */
double ffi_pdm_T_lo(double eps, double l);

/* 1 only if PU - TL <= delta or QL + TL >= 1 - delta (exactly, for the
 * binary64 values given): with PU >= Phi(x1), TL <= T and QL <= Phi(-x1),
 * delta(eps) = Phi(x1) - T <= delta certified. */
int ffi_pdm_cert_holds(double PU, double QL, double TL, double delta);

/* ff_fedpdm_compose's share of delta per release, n = T or 2T: <= delta /
 * n (n d0 <= delta exactly). */
double ffi_pdm_delta_share(double delta, double n);

/* Its advanced composition from e0 >= 0 (the per-release epsilon at delta
 * / (2T)), T = Td releases: >= sqrt(2 T ln(2/delta)) e0 + T e0 (e^e0 - 1). */
double ffi_pdm_compose_adv(double e0, double Td, double delta);

#endif
