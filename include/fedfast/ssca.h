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

/* ==== surrogate recursions ================================================= */
int ff_ssca_ema(double *x, const double *y, size_t n, double rho);
int ff_ssca_lin(double *f1, const double *w, const double *G, const size_t *Ni,
                size_t nc, size_t d, size_t B, double rho, double tau);
int ff_ssca_const(double *f0, const double *w, const double *G, const double *F,
                  const size_t *Ni, size_t nc, size_t d, size_t B,
                  double rho, double tau);
int ff_ssca_argmin(double *wbar, const double *f1, const double *beta, size_t d,
                   double lambda, double tau, double P);
int ff_ssca_update(double *w, const double *wbar, size_t d, double gamma);
int ff_ssca_momentum(double *v, double *w, const double *G, const size_t *Ni,
                     size_t nc, size_t d, size_t B, double rho,
                     double gamma_prev, double gamma, double tau);

/* ==== Lemma 1 and Problem 5 ================================================ */
int ff_ssca_lemma1(double *nu, double *w, int *branch, const double *a, size_t d,
                   double C, double tau, double c, double U);
int ff_ssca_lemma1_bound(double *nu_abs, double *w_abs, const double *a, size_t d,
                         double C, double tau, double c, double U);
int ff_ssca_problem5(double *w, double *s, double *nu, fr_ssca_kkt *cert,
                     const double *g0, const double *kappa, const double *G,
                     size_t M, size_t d, double t0, double tau, double c);
int ff_ssca_problem5_bound(double *w_abs, double *s_abs, const double *g0,
                           const double *kappa, const double *G, size_t M, size_t d,
                           double t0, double tau, double c);

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
