/* fedref/ssca.h -- libfedref, module ssca: mini-batch SSCA of papers 000
 * (journal) and 001 (conference version): the stepsize validator, the
 * surrogate recursions and their closed forms, Lemma 1, Problem 5 for M
 * constraints, and the two-layer network of 000 Sec. V.  Conventions:
 * fedref.h; the specification layer (condition bits, network layout,
 * message counts, the certificate type): fedspec/ssca.h; the derivations
 * and the errata: docs/SSCA.md, docs/ERRATA.md. */
#ifndef FEDREF_SSCA_H
#define FEDREF_SSCA_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/ssca.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== stepsize validator ==================================================
 * Math:      the conditions (4) on rho^(t) = a1 t^-alpha1 and (6) on
 *            gamma^(t) = a2 t^-alpha2, each decided exactly (fedspec/ssca.h).
 * Output:    *rho_fail, *gamma_fail: the failing condition bits (0: all hold).
 * Domain:    any finite a1, alpha1, a2, alpha2 (the verdict is the answer).
 * Statuses:  FR_ENULL (an output or parameter), FR_ENONFINITE, FR_EDOM
 *            (rho_fail == gamma_fail: two outputs).
 * Accuracy:  exact (comparisons of the given numbers). */
int fr_ssca_stepsize(unsigned *rho_fail, unsigned *gamma_fail,
                     const mpfr_t a1, const mpfr_t alpha1,
                     const mpfr_t a2, const mpfr_t alpha2);

/* ==== surrogate recursions (sample- and feature-based) ====================
 * Client i (of I) draws a mini-batch of B of its N_i samples and sends
 * G_i = sum_{n in batch} grad f(w; x_n) (d reals; the q of 000), and for a
 * constraint also F_i = sum_{n in batch} f(w; x_n) (1 real).  The server
 * weighs client i by N_i / (B N), N = sum_i N_i (000 (3)).  The
 * feature-based forms (16), (23), (25) are the same recursions with I = 1
 * and weight 1/B, G the concatenation of the aggregator's block (20) and
 * the clients' blocks (21) (fr_ssca_net_top, fr_ssca_net_bottom).
 *
 * The total weight.  With Fbar^(0) = 0 the surrogate Fbar^(t) of (3) is
 *   f1^T w + tau W_t ||w||^2 + const,   W_t = 1 - P_t,  P_t = prod_{s<=t} (1 - rho^(s)),
 * not f1^T w + tau ||w||^2 as (8), (22), (34) print: the two agree iff
 * rho^(1) = 1 (docs/ERRATA.md E-000-8).  fr_ssca_ema with y = NULL carries
 * P (from P_0 = 1); the closed forms take P. */

/* Exponential average, (35) and the mass P:
 *   x_k <- (1 - rho) x_k + rho y_k   (y = NULL: y_k = 0),  k < n.
 * Domain:    0 < rho <= 1 (4); n >= 1; finite x, y.
 * Statuses:  FR_ENULL (x, rho), FR_ESIZE (n == 0 or > FR_COUNT_MAX),
 *            FR_ENONFINITE, FR_EDOM (rho outside (0, 1]), FR_ENOMEM.
 * Aliasing:  y may alias x.  Accuracy: correctly rounded. */
int fr_ssca_ema(mpfr_t *x, mpfr_t *const y, size_t n, const mpfr_t rho);

/* The linear coefficient, (9) / (14) / (23) / (36)-(37):
 *   f1 <- (1 - rho) f1 + rho ( sum_i N_i/(B N) G_i - 2 tau w ).
 * G is I x d row-major.  Domain: 0 < rho <= 1, tau > 0, I >= 1, d >= 1,
 * B >= 1, 1 <= B <= N_i (000 Sec. III), N = sum N_i <= FR_COUNT_MAX;
 * finite f1, w, G.
 * Statuses:  FR_ENULL, FR_ESIZE (I, d, B zero, I d > FR_COUNT_MAX, N
 *            overflows), FR_ENONFINITE, FR_EDOM (rho, tau, B > N_i),
 *            FR_ENOMEM.
 * Aliasing:  none.  Accuracy: correctly rounded (exact numerator, one
 *            division by B N). */
int fr_ssca_lin(mpfr_t *f1, mpfr_t *const w, mpfr_t *const G, const size_t *Ni,
                size_t nc, size_t d, size_t B, const mpfr_t rho, const mpfr_t tau);

/* The constant term, (14) first line / (25) / (42):
 *   f0 <- (1 - rho) f0 + rho ( sum_i N_i/(B N) (F_i - G_i^T w) + tau ||w||^2 ).
 * (42) with c-bar = the loss, i.e. -sum_l y log Q: 000 (31) prints the
 * opposite sign (docs/ERRATA.md).  Domain, statuses as fr_ssca_lin
 * (F: I values).  Accuracy: correctly rounded. */
int fr_ssca_const(mpfr_t f0, mpfr_t *const w, mpfr_t *const G, mpfr_t *const F,
                  const size_t *Ni, size_t nc, size_t d, size_t B,
                  const mpfr_t rho, const mpfr_t tau);

/* The minimiser of the surrogate, (10) / (24) / (38)-(39), corrected:
 *   wbar = -(f1 + 2 lambda beta) / (2 tau (1 - P)).
 * beta = NULL or lambda = 0: (10), (24).  P = 0 (rho^(1) = 1): the printed
 * forms.  Domain: tau > 0, lambda >= 0, 0 <= P < 1; d >= 1; finite.
 * Statuses:  FR_ENULL (wbar, f1, lambda, tau, P), FR_ESIZE, FR_ENONFINITE,
 *            FR_EDOM (tau <= 0, lambda < 0, P outside [0, 1)), FR_ENOMEM.
 * Aliasing:  wbar may alias f1.  Accuracy: correctly rounded. */
int fr_ssca_argmin(mpfr_t *wbar, mpfr_t *const f1, mpfr_t *const beta, size_t d,
                   const mpfr_t lambda, const mpfr_t tau, const mpfr_t P);

/* The iterate update, (5) / (18):  w <- (1 - gamma) w + gamma wbar.
 * Domain: 0 < gamma <= 1 (6); d >= 1; finite.  Statuses: FR_ENULL,
 * FR_ESIZE, FR_ENONFINITE, FR_EDOM (gamma), FR_ENOMEM.
 * Aliasing:  none (w is updated in place; wbar may not alias it).
 * Accuracy:  correctly rounded. */
int fr_ssca_update(mpfr_t *w, mpfr_t *const wbar, size_t d, const mpfr_t gamma);

/* The momentum form (11)-(12):
 *   v <- (1 - rho)(1 - gamma_prev) v + rho/(2 tau) sum_i N_i/(B N) G_i,
 *   w <- w - gamma v.
 * (11)-(12) reproduce (5) with (9)-(10) iff v^(0) = w^(1) (gamma^(0) = 0);
 * the printed v^(0) = 0 needs rho^(1) = 1 or w^(1) = 0 (docs/ERRATA.md).
 * Domain: 0 < rho <= 1, 0 <= gamma_prev <= 1, 0 < gamma <= 1, tau > 0;
 * sizes as fr_ssca_lin.  Statuses as fr_ssca_lin (and gamma, gamma_prev).
 * Aliasing:  none.  Accuracy: v correctly rounded; w correctly rounded
 *            from the rounded v. */
int fr_ssca_momentum(mpfr_t *v, mpfr_t *w, mpfr_t *const G, const size_t *Ni,
                     size_t nc, size_t d, size_t B, const mpfr_t rho,
                     const mpfr_t gamma_prev, const mpfr_t gamma, const mpfr_t tau);

/* ==== Lemma 1 and Problem 5 ===============================================
 * Lemma 1, (43)-(45), derived again from the KKT conditions of (41):
 *   min_{w, s} ||w||^2 + c s  s.t.  a^T w + tau ||w||^2 + C - U <= s,  s >= 0
 * (a = all A_{l,j} and B_{j,p}; tau: pass tau (1 - P) when rho^(1) != 1).
 * The dual h(nu) = nu (C - U) - b nu^2 / (4 (1 + tau nu)) is concave on
 * [0, c] (Appendix C says convex).  With b = ||a||^2 and D = b + 4 tau (U - C):
 *   D <= 0                  nu = c          (h increasing on [0, c])
 *   D > 0, U >= C           nu = 0
 *   D > 0, U < C            nu = min(c, 4 (C - U) / (D + sqrt(b D)))
 *                           (= (sqrt(b/D) - 1)/tau of (45), without its
 *                           cancellation and its division by tau)
 *   w_j = -nu a_j / (2 (1 + nu tau)); in the interior -a_j 2 (C - U) /
 *   (b + sqrt(b D)); +0 when nu = 0 or a_j = 0.
 * b = 0 and U = C: every nu in [0, c] is optimal; fedref returns c (the
 * printed choice); w = 0 in every case with b = 0.  Appendix C's second
 * case "b + 4 tau C <= 0" is wrong (E-000-45).
 * Output:    nu, w (d), and *branch (may be NULL): enum fr_ssca_l1_branch
 *            (fedspec/ssca.h).
 * Domain:    tau > 0, c > 0; d >= 1; finite a, C, U.
 * Statuses:  FR_ENULL (nu, w, a, C, tau, c, U), FR_ESIZE (d == 0 or
 *            > FR_COUNT_MAX), FR_EPREC (||a||^2, D or D (1 + tau c)^2
 *            exactly needs more than 2^24 bits), FR_ENONFINITE, FR_EDOM
 *            (tau <= 0, c <= 0; nu inside w), FR_ENOMEM, FR_EINTERNAL.
 *            Outputs and *branch untouched on error.
 * Accuracy:  nu and each w_j correctly rounded at their own precisions;
 *            branches decided exactly (D, U - C, D (1 + tau c)^2 - b are
 *            exact dyadic numbers); the interior values by a Ziv loop
 *            (irrational unless b D is a dyadic square, then exact).
 * Checked by: proofs_checks/ssca/check_lemma1.c (pc_ssca_lemma1: exact
 *            certificate of rounding through h', KKT of (41), bisection;
 *            pc_ssca_lemma1_appc: E-000-45); tests/ssca/test_lemma1.c;
 *            vectors/ssca_lemma1.json. */
int fr_ssca_lemma1(mpfr_t nu, mpfr_t *w, int *branch, mpfr_t *const a, size_t d,
                   const mpfr_t C, const mpfr_t tau, const mpfr_t c, const mpfr_t U);

/* Problem 5 for M constraints (000 Sec. III-B with (7) and (15)):
 *   min_{w, s} t0 ||w||^2 + g0^T w + c sum_m s_m
 *   s.t. Fbar_m(w) = kappa_m + g_m^T w + tau ||w||^2 <= s_m,  s_m >= 0,
 * solved through its dual, concave on the box [0, c]^M:
 *   D(nu) = kappa^T nu - ||g0 + G^T nu||^2 / (4 (t0 + tau sum nu)),
 *   w(nu) = -(g0 + G^T nu) / (2 (t0 + tau sum nu)),  grad D = Fbar(w(nu)).
 * With (7)/(15): t0 = tau (1 - P), g0 = f1 of (9), kappa_m = f0 of (14),
 * g_m = f1 of (14).  (41) is M = 1, t0 = 1, g0 = 0, kappa = C - U.
 * Method (ref/ssca/problem5.c): an active-set method on the dual box at a
 * working precision proposes which multipliers are 0, c or free; the
 * exact KKT point of that proposal is built in Q(sqrt(Delta)) (GMP
 * rationals: the free multipliers lie on a line cut out by linear
 * equations, and one quadratic fixes the point) and accepted only if every
 * KKT condition holds exactly; otherwise the precision doubles (6 times).
 * Output:    w (d), s (M) = max(0, Fbar(w*)), nu (M, an exact dual
 *            solution: not unique with duplicated or dependent
 *            constraints), cert (may be NULL): fedspec/ssca.h, evaluated
 *            at the returned (rounded) values, nu clamped to [0, c]:
 *            gap = Phi(w) - D(nu) as a sum of nonnegative terms, radius =
 *            sqrt(gap / t0), the KKT residuals, each rounded up; iters =
 *            the active-set iterations.
 * Domain:    t0 > 0, tau >= 0, c > 0; M >= 1, d >= 1, (M + 1) d and
 *            (M + 1)^2 <= FR_COUNT_MAX; finite g0 (NULL: 0), kappa, G
 *            (M x d row-major).
 * Statuses:  FR_ENULL (w, s, nu, kappa, G, t0, tau, c), FR_ESIZE,
 *            FR_EPREC (an exact Gram entry, or a rational of the exact
 *            solution, beyond 2^24 bits), FR_ENONFINITE, FR_EDOM (t0 <= 0,
 *            tau < 0, c <= 0; w, s, nu overlapping), FR_ENOMEM,
 *            FR_EINTERNAL (no exactly verified KKT point within the limits:
 *            not seen on the tests' and checks' cases).  Outputs and *cert
 *            untouched on error.
 * Accuracy:  w, s and nu correctly rounded at their own precisions (exact
 *            zeros +0): the values of an exactly verified KKT point.
 * Checked by: proofs_checks/ssca/check_problem5.c (pc_ssca_problem5: M = 1
 *            against Lemma 1, M <= 3 against an enumeration of the active
 *            sets, the certificate recomputed); tests/ssca/test_problem5.c;
 *            vectors/ssca_problem5.json. */
int fr_ssca_problem5(mpfr_t *w, mpfr_t *s, mpfr_t *nu, fr_ssca_kkt *cert,
                     mpfr_t *const g0, mpfr_t *const kappa, mpfr_t *const G,
                     size_t M, size_t d, const mpfr_t t0, const mpfr_t tau,
                     const mpfr_t c);

/* ==== the two-layer network of 000 Sec. V ==================================
 * Layout: fedspec/ssca.h.  For samples n < nb with features Z (nb x P
 * row-major) and labels y[n] in [0, L):
 *   u_{n,j} = sum_p w1_{j,p} z_{n,p},  S(u) = u / (1 + e^-u) (swish),
 *   o_{n,l} = sum_j w0_{l,j} S(u_{n,j}),  Q = softmax(o_n),
 *   loss_n = -log Q_{y_n}                                   (28)
 *   abar_{n,l,j} = (Q_l - [l = y_n]) S(u_{n,j})             (29)
 *   bbar_{n,j,p} = sum_l (Q_l - [l = y_n]) S'(u_{n,j}) w0_{l,j} z_{n,p}   (30)
 * fr_ssca_net: f = sum_n loss_n and g = sum_n (abar_n, bbar_n) (d entries,
 * the layout of w): the sample-based client message of Algorithms 1-2
 * (000 Sec. V-A: each client sends g; for (40) also f).  f or g may be
 * NULL, not both.
 * Domain:    L >= 2, J, P, nb >= 1; finite w, Z; y[n] < L.
 * Statuses:  FR_ENULL, FR_ESIZE, FR_EPREC, FR_ENONFINITE, FR_EDOM (a
 *            label >= L; f inside g), FR_ENOMEM, FR_EINTERNAL.
 * Accuracy:  f and each g_k correctly rounded. */
int fr_ssca_net(mpfr_t f, mpfr_t *g, mpfr_t *const w, size_t L, size_t J, size_t P,
                mpfr_t *const Z, const size_t *y, size_t nb);

/* Feature-based messages (Algorithm 3-4 steps 4-6, 000 Sec. V):
 * client i holds features P_i (Zi: nb x Pi) and its block w1_i (J x Pi,
 * rows j).  Step 4: it sends h_i = Zi w1_i^T (nb x J: h_{0,i}) to the other
 * clients.  Every client forms u = sum_i h_i (H: I blocks of nb x J).
 * Step 5: the aggregator sends A = sum_n abar_n (L x J), and for (40) also
 * f = sum_n loss_n (f or A may be NULL, not both).
 * Step 6: client i sends Bi = sum_n bbar_n restricted to p in P_i (J x Pi).
 * Domain, statuses and accuracy as fr_ssca_net (w0: L x J). */
int fr_ssca_net_partial(mpfr_t *h, mpfr_t *const w1i, mpfr_t *const Zi,
                        size_t nb, size_t J, size_t Pi);
int fr_ssca_net_top(mpfr_t f, mpfr_t *A, mpfr_t *const H, size_t nc,
                    mpfr_t *const w0, const size_t *y, size_t nb, size_t L, size_t J);
int fr_ssca_net_bottom(mpfr_t *Bi, mpfr_t *const H, size_t nc, mpfr_t *const w0,
                       const size_t *y, mpfr_t *const Zi, size_t nb, size_t L,
                       size_t J, size_t Pi);

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_SSCA_H */
