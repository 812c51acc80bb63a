/* fedfast/ssca.h -- libfedfast, module ssca: papers 000/001 (mini-batch
 * SSCA) in binary64.  Definitions, domains, statuses and aliasing as in
 * fedref/ssca.h; each accuracy statement is against the exact result of
 * the binary64 inputs, proved in the source file and returned by the
 * function's ff_*_bound.  Conventions: fedfast.h. */
#ifndef FEDFAST_SSCA_H
#define FEDFAST_SSCA_H

#include "fedref_common.h"
#include "fedspec/ssca.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== stepsize validator (exact comparisons) ============================== */
int ff_ssca_stepsize(unsigned *rho_fail, unsigned *gamma_fail,
                     double a1, double alpha1, double a2, double alpha2);

/* ==== surrogate recursions =================================================
 * fr_ssca_ema ... fr_ssca_momentum in binary64 (fedref/ssca.h: math,
 * domains, statuses, aliasing; every exact zero result is +0).  Each
 * function computes into a temporary and copies out only when every entry
 * is finite: a binary64 overflow gives FR_ENONFINITE with the outputs
 * untouched (so FR_ENOMEM is possible too).  lin, const and momentum
 * combine the nc messages (nc: 000's I, the number of clients) with BLAS
 * dgemv, weights q_i = N_i / (B N) in binary64 (normal numbers:
 * q_i >= 2^-117).
 * Accuracy (proved in the fast/ssca/ sources): per entry an absolute upper bound,
 * returned by the function's ff_*_bound, which takes the same inputs (the
 * in-place arrays' values before the call), makes the same checks in the
 * same order, and returns FR_ENULL for a NULL output, FR_EDOM for
 * overlapping outputs or a bound that is not finite (outside the proof),
 * FR_ESIZE beyond the proof's sizes.  With u = 2^-53:
 *   ema, update:  2^-51 T_k + 2^-1073,  T_k = (1 - rho)|x_k| + rho |y_k|
 *                 (update: rho -> gamma, x -> w, y -> wbar);
 *   lin:          (nc + 10) u T_j + (nc + 4) 2^-1072,
 *                 T_j = (1 - rho)|f1_j| + rho (sum_i q_i |G_ij| + 2 tau |w_j|);
 *   const:        (d + nc + 11) u T + (d + nc + 3 + d tau) 2^-1072,
 *                 T = (1 - rho)|f0| + rho (sum_i q_i (|F_i| + sum_j |G_ij w_j|)
 *                     + tau ||w||^2);
 *   argmin:       7 u T_j + 2^-1072 (1 + (1 + 1/tau)/(1 - P)),
 *                 T_j = (|f1_j| + 2 lambda |beta_j|) / (2 tau (1 - P));
 *   momentum, v:  (nc + 10) u T_j + 2^-1073 (1 + (nc + 1)/tau),
 *                 T_j = (1 - rho)(1 - gamma_prev)|v_j| + rho/(2 tau) sum_i q_i |G_ij|;
 *   momentum, w:  4u (|w_j| + gamma (T_j + vb_j)) + gamma vb_j + 2^-1072
 *                 (against w - gamma v with the exact new v),
 * each evaluated in binary64 so that it stays an upper bound despite its
 * own rounding.  Size limits of the proofs: nc <= 2^25 (lin, momentum),
 * d + nc <= 2^25 (const). */
int ff_ssca_ema(double *x, const double *y, size_t n, double rho);
int ff_ssca_ema_bound(double *abs, const double *x, const double *y, size_t n, double rho);
int ff_ssca_lin(double *f1, const double *w, const double *G, const size_t *Ni,
                size_t nc, size_t d, size_t B, double rho, double tau);
int ff_ssca_lin_bound(double *abs, const double *f1, const double *w, const double *G,
                      const size_t *Ni, size_t nc, size_t d, size_t B, double rho, double tau);
int ff_ssca_const(double *f0, const double *w, const double *G, const double *F,
                  const size_t *Ni, size_t nc, size_t d, size_t B,
                  double rho, double tau);
int ff_ssca_const_bound(double *abs, const double *f0, const double *w, const double *G,
                        const double *F, const size_t *Ni, size_t nc, size_t d, size_t B,
                        double rho, double tau);
int ff_ssca_argmin(double *wbar, const double *f1, const double *beta, size_t d,
                   double lambda, double tau, double P);
int ff_ssca_argmin_bound(double *abs, const double *f1, const double *beta, size_t d,
                         double lambda, double tau, double P);
int ff_ssca_update(double *w, const double *wbar, size_t d, double gamma);
int ff_ssca_update_bound(double *abs, const double *w, const double *wbar, size_t d,
                         double gamma);
int ff_ssca_momentum(double *v, double *w, const double *G, const size_t *Ni,
                     size_t nc, size_t d, size_t B, double rho,
                     double gamma_prev, double gamma, double tau);
int ff_ssca_momentum_bound(double *vb, double *wb, const double *v, const double *w,
                           const double *G, const size_t *Ni, size_t nc, size_t d, size_t B,
                           double rho, double gamma_prev, double gamma, double tau);

/* ==== Lemma 1 and Problem 5 ================================================ */
int ff_ssca_lemma1(double *nu, double *w, int *branch, const double *a, size_t d,
                   double C, double tau, double c, double U);
int ff_ssca_problem5(double *w, double *s, double *nu, fr_ssca_kkt *cert,
                     const double *g0, const double *kappa, const double *G,
                     size_t M, size_t d, double t0, double tau, double c);

/* ==== the two-layer network of 000 Sec. V ==================================
 * Stable for |u|, |o| up to 1e4 and beyond: swish and its derivative
 * through e^-|u| only, log-sum-exp softmax, no 0 log 0. */
int ff_ssca_net(double *f, double *g, const double *w, size_t L, size_t J, size_t P,
                const double *Z, const size_t *y, size_t nb);
int ff_ssca_net_partial(double *h, const double *w1i, const double *Zi,
                        size_t nb, size_t J, size_t Pi);
int ff_ssca_net_top(double *f, double *A, const double *H, size_t nc,
                    const double *w0, const size_t *y, size_t nb, size_t L, size_t J);
int ff_ssca_net_bottom(double *Bi, const double *H, size_t nc, const double *w0,
                       const size_t *y, const double *Zi, size_t nb, size_t L,
                       size_t J, size_t Pi);

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_SSCA_H */
