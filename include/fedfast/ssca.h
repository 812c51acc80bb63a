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

/* ==== Lemma 1 and Problem 5 ================================================
 * ff_ssca_lemma1: fr_ssca_lemma1 in binary64 (A scaled by a power of 2:
 * no overflow of ||a||^2, no subnormal squares).  The branches U >= C are
 * decided exactly (nu = 0 or c, w = +0 exactly); for U < C, near D = 0 or
 * nu^ = c fast may report DNONPOS / CLIPC where ref reports the
 * neighbouring branch (nu is continuous there; the bound covers it).
 * Statuses as fr_ssca_lemma1 without FR_EPREC; FR_ENONFINITE also when
 * C - U or 4 tau overflows (outputs untouched).  Aliasing: none.
 * ff_ssca_lemma1_bound (same inputs and checks; FR_EDOM where
 * ff_ssca_lemma1 overflows): |nu^ - nu| <= *nu_abs and |w^_j - w_j| <=
 * w_abs[j], an a-posteriori enclosure proved in fast/ssca/lemma1.c: nu is
 * monotone in (||a||^2, C - U), both enclosed by outward (nextafter)
 * steps, nu evaluated at the two corners the same way, w_j = -a_j g(nu)
 * with g increasing; exact (0) on the branches U >= C.  No u-based
 * formula: the bound is the width of the enclosure, about the condition
 * number times u (a few hundred u on the tests' well-conditioned cases),
 * up to c near D = 0 with b tiny. */
int ff_ssca_lemma1(double *nu, double *w, int *branch, const double *a, size_t d,
                   double C, double tau, double c, double U);
int ff_ssca_lemma1_bound(double *nu_abs, double *w_abs, const double *a, size_t d,
                         double C, double tau, double c, double U);
/* ff_ssca_problem5: the active-set method of fr_ssca_problem5 in binary64
 * (no exact stage): w = w(nu) for the final nu, s_m = max(0, Fbar_m(w))
 * when nu_m = c and +0 otherwise (complementarity);
 * cert: the enclosure below at the returned values.  Statuses as
 * fr_ssca_problem5 without FR_EPREC; FR_EINTERNAL past 200 + 40 M
 * iterations; FR_ENONFINITE on binary64 overflow.  Aliasing: none.
 * ff_ssca_problem5_bound (same inputs and checks, the bounds in w_abs (d),
 * s_abs (M); FR_EDOM where the enclosure is not finite): an a-posteriori
 * bound proved in fast/ssca/problem5.c from the duality gap at the
 * returned (w, nu),
 *   gap = sum_m [(c - nu_m) Fbar_m(w)^+ + nu_m Fbar_m(w)^-] + S ||w - w(nu)||^2,
 * enclosed by outward (nextafter) steps; w_abs[j] = sqrt(gap / t0) rounded
 * up (Phi is 2 t0-strongly convex), s_abs from |Fbar_m(w*) - Fbar_m(w)| <=
 * (||g_m|| + tau (2 ||w|| + R)) R and s*_m <= gap / (c - nu_m) when nu_m < c.
 * It is of order u when every multiplier sits strictly at a bound, of
 * order sqrt(u) when a constraint is active with a free multiplier (the
 * gap is then linear in the rounding of w): proved, not tight. */
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
