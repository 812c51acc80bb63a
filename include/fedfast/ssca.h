/* SPDX-License-Identifier: Apache-2.0 */
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

/* ==== stepsize validator (exact comparisons) ==============================
 * fr_ssca_stepsize on binary64 parameters: the same Math, Domain,
 * Specials and Statuses (fedref/ssca.h).  Accuracy: exact -- each
 * condition is an IEEE comparison of the given numbers with 0, 0.5, 1 or
 * each other, which rounds nothing, so the bits equal ref's on the same
 * numbers.  No ff_ssca_stepsize_bound: there is no error to bound
 * (vectors: tol 0, booleans compared exactly). */
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
 * Definitions, layout, domains, statuses (without FR_EPREC) and aliasing
 * as fr_ssca_net and the feature-based messages (fedref/ssca.h); the
 * results are against the exact values of the binary64 inputs.
 * Method: BLAS level 3 (U = Z W1^T, O = S(U) W0^T, A = (Q - Y)^T S(U),
 * C = (Q - Y) W0, B = (C .* S'(U))^T Z), the workspace allocated once per
 * call; swish and its derivative through e^-|u| only, log-sum-exp with
 * the max shift (every exponent <= 0), no 0 log 0: stable for |u|, |o| up
 * to 1e4 and far beyond (no NaN while the results are finite; S'(u) -> 0
 * as u -> -inf).  A zero result is +0.  A binary64 overflow (of U, O or a
 * result) gives FR_ENONFINITE with the outputs untouched.
 * Accuracy: each function's _bound writes per-entry absolute upper bounds
 * on |computed - exact|, proved in fast/ssca/net_eval.c ((a)-(i)).  With
 * u = 2^-53, gamma_k = k u/(1 - k u), U the computed pre-activations and
 *   eu  >= |U - u|: gamma_P sum_p |w1_{j,p} z_{n,p}| + P 2^-1074 (net,
 *         partial), gamma_{I-1} sum_i |H_i[n,j]| (top, bottom),
 *   sb  = max(U, 0) + 2 eu + 0.2785 >= |S(u)|,
 *   eS  = gamma_13 sb + 1.1 eu + 2^-1060 >= |S^ - S(u)|,
 *   eSp = 1.1 gamma_23 + 0.5 eu + 2^-1060 >= |S'^ - S'(u)|,
 *   EO_n = max_l gamma_J sum_j (sb + eS)|w0_{l,j}| + sum_j eS |w0_{l,j}| + J 2^-1074
 *         (the output layer), EO'_n = EO_n + u (spread of o_n + 4 EO_n),
 *   er_n = gamma_{L+8} + EO'_n/2 + (L + 1) 2^-1072 + u >= |(Q - Y)^ - (Q - Y)|,
 *   rb = min(1, |Q - Y| + 2 er_n),
 * the bounds are
 *   partial:     |h^ - h| <= eu,
 *   net, top:    |f^ - f| <= gamma_{nb+L+8} sum_n (ln L + max_l o_{n,l} -
 *                o_{n,y_n} + 2 EO_n + 2 EO'_n) + (1 + gamma_nb) sum_n (2 EO'_n + L 2^-1072),
 *                |A^_{l,j} - A_{l,j}| <= sum_n ((gamma_nb rb + er_n)(sb + eS)
 *                + rb eS) + nb 2^-1074,
 *   net, bottom: |B^_{j,p} - B_{j,p}| <= sum_n (gamma_nb db + ed)|z_{n,p}| + nb 2^-1074,
 *                cb = sum_l rb |w0_{l,j}|, ec = gamma_L cb + er_n sum_l |w0_{l,j}|
 *                + L 2^-1074, ed = (u (cb + ec) + ec)(1.1 + eSp) + cb eSp +
 *                2^-1075, db = 1.1 cb + ed,
 * evaluated in long double (o_n and Q - Y from the bound's own forward
 * pass) and rounded up with a factor 1 + 2^-39.  They assume exp, log1p
 * and logl within 2 ulp (docs/ACCURACY.md).  Each _bound takes the same
 * inputs, makes the same checks (same statuses), writes where the
 * function would (fb or gb may be NULL, not both; fb inside gb is
 * FR_EDOM), and also returns FR_ESIZE for a size > 2^22 and FR_EDOM when a
 * magnitude of the proof reaches 2^1000 (or a bound 2^940), or where long
 * double is binary64: outside the proof.  It says nothing when the
 * function overflows (FR_ENONFINITE).  The vector tolerances are the
 * largest of these bounds (vectors/ssca/net*.c).
 * ff_ssca_net_bound writes the bounds of f and of g = (A, B). */
int ff_ssca_net(double *f, double *g, const double *w, size_t L, size_t J, size_t P,
                const double *Z, const size_t *y, size_t nb);
int ff_ssca_net_bound(double *fb, double *gb, const double *w, size_t L, size_t J, size_t P,
                      const double *Z, const size_t *y, size_t nb);
int ff_ssca_net_partial(double *h, const double *w1i, const double *Zi,
                        size_t nb, size_t J, size_t Pi);
int ff_ssca_net_partial_bound(double *hb, const double *w1i, const double *Zi,
                              size_t nb, size_t J, size_t Pi);
int ff_ssca_net_top(double *f, double *A, const double *H, size_t nc,
                    const double *w0, const size_t *y, size_t nb, size_t L, size_t J);
int ff_ssca_net_top_bound(double *fb, double *Ab, const double *H, size_t nc,
                          const double *w0, const size_t *y, size_t nb, size_t L, size_t J);
int ff_ssca_net_bottom(double *Bi, const double *H, size_t nc, const double *w0,
                       const size_t *y, const double *Zi, size_t nb, size_t L,
                       size_t J, size_t Pi);
int ff_ssca_net_bottom_bound(double *Bb, const double *H, size_t nc, const double *w0,
                             const size_t *y, const double *Zi, size_t nb, size_t L,
                             size_t J, size_t Pi);


/* ==== Algorithms 1-4 and the baselines, end to end (000 Sec. III-VI) =======
 * As fr_ssca_run (fedref/ssca.h) in binary64, same records, same draws,
 * same statuses (no FR_EPREC).  Zero-initialise a trace (ff_ssca_trace t =
 * {0}) before ff_ssca_trace_init.  Method: every mini-batch forward and
 * backward pass is BLAS level 3 (the engine of ff_ssca_net, on a gathered
 * batch), the surrogate recursions and updates level 1; the workspace is
 * allocated once in ff_ssca_run before round 1, never inside the round
 * loop.  No error bound on a trajectory: the audit reports fast's drift
 * from ref, and the vectors' tolerance is empirical (vectors/ssca/runs.c).
 * Checked by: vectors/ssca_alg1.json .. ssca_sgdm_f.json, the audit. */
typedef struct {
    size_t T, d, nd;
    int algo;
    unsigned keep;
    size_t rounds;
    double *w, *cost, *norm2, *cons, *nu, *slack;
    int *branch;
    size_t *draws;
    fr_ssca_round_msgs msgs;
} ff_ssca_trace;
int ff_ssca_trace_init(ff_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm);
void ff_ssca_trace_clear(ff_ssca_trace *t);
int ff_ssca_run(ff_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm);

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_SSCA_H */
