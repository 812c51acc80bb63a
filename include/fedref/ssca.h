/* SPDX-License-Identifier: Apache-2.0 */
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
 *            gamma^(t) = a2 t^-alpha2 of 000 (001: (3) and (5)), t = 1, 2, ...,
 *            each decided exactly by the rules of fedspec/ssca.h (p-series
 *            and ratio limits; never by summing a prefix).
 * Output:    *rho_fail: the failing bits of (4) (within FR_SSCA_RHO_CONDS);
 *            *gamma_fail: the failing bits of (6) (within
 *            FR_SSCA_GAMMA_CONDS; RATIO couples it to rho).  0: every
 *            condition holds.  fr_ssca_cond_reason names each bit.
 * Domain:    any finite a1, alpha1, a2, alpha2, of any precision (the
 *            verdict is the answer: a schedule that breaks (4) or (6) is a
 *            result, not an error).
 * Specials:  -0 is 0 (a = -0: POS and SUM fail, LE1, LIM0, SQSUM hold;
 *            a1 = 0: RATIO fails, gamma^(t)/rho^(t) is undefined); alpha = 0
 *            is a constant schedule.
 * Statuses:  FR_ENULL (an output or parameter), FR_ENONFINITE (NaN or an
 *            infinity in a parameter), FR_EDOM (rho_fail and gamma_fail
 *            overlap: two outputs).  Outputs untouched on error.
 * Accuracy:  exact (comparisons of the given numbers with 0, 1/2, 1 and
 *            each other); ff_ssca_stepsize returns the same bits on the
 *            same binary64 numbers. */
int fr_ssca_stepsize(unsigned *rho_fail, unsigned *gamma_fail,
                     const mpfr_t a1, const mpfr_t alpha1,
                     const mpfr_t a2, const mpfr_t alpha2);

/* ==== surrogate recursions (sample- and feature-based) ====================
 * Client i (of I) draws a mini-batch of B of its N_i samples and sends
 * G_i = sum_{n in batch} grad f(w; x_n) (d reals; the q of 000), and for a
 * constraint also F_i = sum_{n in batch} f(w; x_n) (1 real).  The server
 * weighs client i by N_i / (B N), N = sum_i N_i (000 (3)).  The
 * feature-based forms (16), (23), (25) are the same recursions with I = 1
 * and weight 1/B (N_1 = N), G the concatenation of the aggregator's block
 * (20) and the clients' blocks (21) (fr_ssca_net_top, fr_ssca_net_bottom).
 *
 * The total weight.  With Fbar^(0) = 0 the surrogate Fbar^(t) of (3) with
 * (7) is sum_{s<=t} c_s q_s(w), c_s = rho^(s) prod_{r=s+1..t} (1 - rho^(r)),
 * q_s the round-s term of (3), i.e.
 *   f1^T w + tau W_t ||w||^2 + const,   W_t = sum_s c_s = 1 - P_t,
 *   P_t = prod_{s<=t} (1 - rho^(s)),
 * not f1^T w + tau ||w||^2 as (8), (22), (34) and (14)'s Fbar_m print: the
 * two agree at every t iff rho^(1) = 1 (at a given t iff some rho^(s) = 1,
 * s <= t), and 000's experiments use rho^(1) = 0.9, 0.3, 0.2 (001's: 0.4,
 * 0.6, 0.9) (docs/ERRATA.md E-000-8).  fr_ssca_ema with y = NULL carries P
 * (from P_0 = 1); the closed forms take P.
 *
 * Common to the six functions below:
 * Names:     nc is 000's I, the number of clients (a parameter named I
 *            breaks with <complex.h>, whose I macro OpenBLAS's cblas.h
 *            pulls in).
 * Zeros:     every exact zero result is returned as +0 (the numerators are
 *            formed exactly; an exact zero is +0 whatever the signs of the
 *            zero inputs), in ref and in fast.
 * Precision: each output keeps its own precision; the inputs are read
 *            exactly (any precisions).
 * Limits:    FR_EPREC after the checks if an exact intermediate needs more
 *            than 2^24 bits (inputs whose exponents differ by millions);
 *            FR_ENOMEM.  On every error no output is written.
 * Algorithm: each result is (an exact numerator) / (an exact positive
 *            denominator), one rounding (mpfr_div, or one mpfr_add/mul
 *            where the denominator is 1).
 * Checked by: proofs_checks/ssca/check_surrogate.c (pc_ssca_argmin_defined,
 *            pc_ssca_momentum), tests/ssca/test_surrogate.c (exact GMP
 *            rational oracles: the results are the correctly rounded
 *            values), tests/ssca/test_status_surrogate.c, vectors
 *            ssca_ema, ssca_lin, ssca_const, ssca_argmin, ssca_update,
 *            ssca_momentum, ssca_app_rounds. */

/* Exponential average, (35) and the mass P:
 *   x_k <- (1 - rho) x_k + rho y_k   (y = NULL: y_k = 0),  k < n.
 * (35): x = beta, y = w^(t), beta^(0) = 0.  y = NULL from x = 1: P_t.
 * Domain:    0 < rho <= 1 (4); n >= 1; finite x, y.
 * Statuses:  FR_ENULL (x, rho), FR_ESIZE (n == 0 or > FR_COUNT_MAX),
 *            FR_ENONFINITE, FR_EDOM (rho outside (0, 1]), FR_EPREC,
 *            FR_ENOMEM.
 * Aliasing:  y may alias x (the same array).
 * Accuracy:  correctly rounded. */
int fr_ssca_ema(mpfr_t *x, mpfr_t *const y, size_t n, const mpfr_t rho);

/* The linear coefficient, (9) / (14) second line / (23) / (36)-(37):
 *   f1 <- (1 - rho) f1 + rho ( sum_i N_i/(B N) G_i - 2 tau w )
 *       = [(1 - rho) B N f1 + rho sum_i N_i G_i - 2 tau rho B N w] / (B N).
 * G is nc x d row-major (row i: client i's G_i), Ni the nc sizes N_i.
 * Domain:    0 < rho <= 1, tau > 0, nc >= 1, d >= 1, B >= 1,
 *            B <= N_i (000 Sec. III), N = sum N_i <= FR_COUNT_MAX;
 *            finite f1, w, G.
 * Statuses:  FR_ENULL (f1, w, G, Ni, rho, tau), FR_ESIZE (nc, d or B zero,
 *            nc d > FR_COUNT_MAX, N > FR_COUNT_MAX), FR_ENONFINITE (rho,
 *            tau, f1, w, G), FR_EDOM (rho outside (0, 1], tau <= 0, some
 *            N_i < B), FR_EPREC, FR_ENOMEM.
 * Aliasing:  none.  Accuracy: correctly rounded (exact numerator, one
 *            division by B N). */
int fr_ssca_lin(mpfr_t *f1, mpfr_t *const w, mpfr_t *const G, const size_t *Ni,
                size_t nc, size_t d, size_t B, const mpfr_t rho, const mpfr_t tau);

/* The constant term, (14) first line / (25) / (42):
 *   f0 <- (1 - rho) f0 + rho ( sum_i N_i/(B N) (F_i - G_i^T w) + tau ||w||^2 ),
 * F_i = the sum of the client's batch losses (the constraint function
 * f_{s,m} of (15)).  (42) with c-bar = the loss, i.e. -sum_l y log Q: 000
 * (31) prints c-bar = +sum_l y log Q, which makes (41)'s constraint at
 * w = w^(t) read -F - U <= s (docs/ERRATA.md).  Domain, statuses as
 * fr_ssca_lin (F: nc finite values; FR_ENULL also for f0 and F).
 * Aliasing:  none.  Accuracy: correctly rounded (exact numerator, one
 *            division by B N). */
int fr_ssca_const(mpfr_t f0, mpfr_t *const w, mpfr_t *const G, mpfr_t *const F,
                  const size_t *Ni, size_t nc, size_t d, size_t B,
                  const mpfr_t rho, const mpfr_t tau);

/* The minimiser of the surrogate, (10) / (24) / (38)-(39), corrected:
 *   wbar = -(f1 + 2 lambda beta) / (2 tau (1 - P)).
 * The 2 lambda beta term is (33): lambda ||w||^2 of (32) linearised at
 * each w^(s), weighed by c_s (beta of (35)).  beta = NULL or lambda = 0:
 * (10), (24).  P = 0 (rho^(1) = 1): the printed forms.  (38) prints
 * beta_{2,l,j}, 001's index of the output block, for 000's beta_{0,l,j}.
 * Domain:    tau > 0, lambda >= 0, 0 <= P < 1; d >= 1; finite f1, beta.
 * Statuses:  FR_ENULL (wbar, f1, lambda, tau, P), FR_ESIZE (d == 0 or
 *            > FR_COUNT_MAX), FR_ENONFINITE (lambda, tau, P, f1, beta),
 *            FR_EDOM (tau <= 0, lambda < 0, P outside [0, 1)), FR_EPREC,
 *            FR_ENOMEM.
 * Aliasing:  wbar may alias f1 (the same array).
 * Accuracy:  correctly rounded (exact numerator and denominator, one
 *            division). */
int fr_ssca_argmin(mpfr_t *wbar, mpfr_t *const f1, mpfr_t *const beta, size_t d,
                   const mpfr_t lambda, const mpfr_t tau, const mpfr_t P);

/* The iterate update, (5) / (18):  w <- (1 - gamma) w + gamma wbar.
 * Domain: 0 < gamma <= 1 (6); d >= 1; finite w, wbar.
 * Statuses:  FR_ENULL (w, wbar, gamma), FR_ESIZE (d == 0 or
 *            > FR_COUNT_MAX), FR_ENONFINITE, FR_EDOM (gamma), FR_EPREC,
 *            FR_ENOMEM.
 * Aliasing:  none (w is updated in place; wbar may not alias it).
 * Accuracy:  correctly rounded. */
int fr_ssca_update(mpfr_t *w, mpfr_t *const wbar, size_t d, const mpfr_t gamma);

/* The momentum form (11)-(12):
 *   v <- (1 - rho)(1 - gamma_prev) v + rho/(2 tau) sum_i N_i/(B N) G_i,
 *   w <- w - gamma v   (the new v).
 * (11)-(12) reproduce (5) with (9) and the printed (10) for every rho^(1)
 * iff v^(0) = w^(1) (gamma^(0) = 0); the printed v^(0) = 0 needs
 * rho^(1) = 1 or w^(1) = 0, and neither reproduces the corrected argmin
 * when rho^(1) != 1 (docs/ERRATA.md E-000-12).  000 also says rho, gamma
 * "satisfy (3) and (5)": it means (4) and (6).
 * Domain: 0 < rho <= 1, 0 <= gamma_prev <= 1, 0 < gamma <= 1, tau > 0;
 * sizes and Ni as fr_ssca_lin; finite v, w, G.
 * Statuses:  FR_ENULL (v, w, G, Ni, rho, gamma_prev, gamma, tau),
 *            FR_ESIZE and FR_ENONFINITE as fr_ssca_lin, FR_EDOM (rho,
 *            gamma_prev, gamma, tau, some N_i < B, v and w overlap: two
 *            outputs), FR_EPREC, FR_ENOMEM.
 * Aliasing:  none.
 * Accuracy:  v and w each correctly rounded: v = [(1 - rho)(1 - gamma_prev)
 *            2 tau B N v + rho sum_i N_i G_i] / (2 tau B N), and w from the
 *            exact new v, w - gamma v = (w 2 tau B N - gamma n_v) / (2 tau
 *            B N) with n_v that numerator (so w is a closed form of the
 *            inputs, not of the rounded v; the two differ by at most
 *            gamma ulp(v)/2). */
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
 *   S'(u) = sigma(u) (1 + u sigma(-u)),  sigma(u) = 1 / (1 + e^-u),
 *   o_{n,l} = sum_j w0_{l,j} S(u_{n,j}),  Q = softmax(o_n),
 *   loss_n = -log Q_{y_n} = logsumexp(o_n) - o_{n,y_n}                  (28)
 *   abar_{n,l,j} = (Q_l - [l = y_n]) S(u_{n,j})                          (29)
 *   bbar_{n,j,p} = delta_{n,j} z_{n,p},
 *     delta_{n,j} = S'(u_{n,j}) sum_l (Q_l - [l = y_n]) w0_{l,j}         (30)
 * (29)-(30) are the gradient of loss_n because the label is one-hot
 * (sum_l y_{n,l} = 1), which class indices enforce.
 * fr_ssca_net: f = sum_n loss_n and g = sum_n (abar_n, bbar_n) (d entries,
 * the layout of w): the sample-based client message of Algorithms 1-2
 * (000 Sec. V-A, Step 4 of Algorithm 1: each client sends g; for (40)
 * also f).  f or g may be NULL, not both.
 * Domain:    L >= 2 (a softmax over one class is outside 000's model:
 *            FR_EDOM; fr_ssca_net_dim accepts L = 1 as a size), J, P,
 *            nb >= 1; finite w, Z; y[n] < L.
 * Statuses:  FR_ENULL (f and g both NULL, w, Z, y), FR_ESIZE (L, J, P or
 *            nb zero; d, nb P, nb J or nb L > FR_COUNT_MAX), FR_EPREC (the
 *            precision of f or of a g_k above FR_PREC_MAX; after the start,
 *            an exact u_{n,j} needing more than 2^24 bits), FR_ENONFINITE
 *            (w, Z), FR_EDOM (L < 2, a label >= L, f inside g), and after
 *            the start FR_ENOMEM, FR_EINTERNAL (Limits).  Outputs untouched
 *            on error.
 * Aliasing:  g may alias w (the same array); nothing else.
 * Specials:  an exact zero is +0: u = 0 gives S = 0 (w1 = 0: A = 0); a w0
 *            column constant over l (w0 = 0) gives delta = 0, so that block
 *            of B is 0; a zero feature column p gives B_{.,p} = 0; labels
 *            split evenly over equal samples with a uniform softmax cancel
 *            in A exactly.
 * Algorithm: u exact (exact products, one exact sum); every other quantity
 *            enclosed in MPFI intervals (swish through e^-|u|, log-sum-exp
 *            shifted by the largest o, loss = (o_m - o_y) + log1p(T), Q_y - 1
 *            as -T/(1 + T)), Ziv loop on the working precision; exact
 *            structure (u = 0, constant w0 columns, samples whose softmax is
 *            exactly uniform: their terms have rational coefficients,
 *            grouped by the exact u and decided on integers) ends the loop
 *            for exact results (ref/ssca/net_eval.c).
 * Accuracy:  f and each g_k correctly rounded.  Precision: that of f and
 *            of each g_k.
 * Limits:    FR_EINTERNAL when the working precision would exceed 16 p +
 *            8192 (p the largest output precision) without a decision: an
 *            exact value on a rounding boundary that the structure above
 *            does not reveal (an exact cancellation in a sum over samples
 *            whose softmax is not exactly uniform by that rule, e.g. equal
 *            hidden units whose w0 entries differ but sum alike; none is
 *            known to occur otherwise), or a result below MPFR's smallest
 *            positive number (every term carries e^-|x|, |x| > ~7.4e8:
 *            e.g. |u| ~ 1e9); FR_EPREC for exact u beyond 2^24 bits (inputs
 *            whose exponents differ by millions: not binary64).
 * Checked by: tests/ssca/test_net.c (a plain-MPFR evaluation at 4p + 64
 *            bits, central differences of f), vectors/ssca_net.json,
 *            proofs_checks/ssca/check_net_feature.c. */
int fr_ssca_net(mpfr_t f, mpfr_t *g, mpfr_t *const w, size_t L, size_t J, size_t P,
                mpfr_t *const Z, const size_t *y, size_t nb);

/* Feature-based messages (Algorithms 3-4 Steps 4-6, 000 Sec. V, the chain
 * rule (20)-(21)): client i holds the features P_i (Zi: nb x Pi) and its
 * block w1_i (J x Pi, rows j: the columns p in P_i of w1).
 *  Step 4: fr_ssca_net_partial: client i sends h_i = Zi w1_i^T (nb x J,
 *    h[n J + j] = sum_{p in P_i} w1_{j,p} z_{n,p}: the h_{0,i} of (17),
 *    H_0 = J reals per sample) to the other clients.  Every client forms
 *    u = sum_i h_i (H: nc blocks of nb x J, block i at H + i nb J).
 *  Step 5: fr_ssca_net_top: the aggregator sends A = sum_n abar_n (L x J,
 *    (20): the block of g for omega_0), and for (40) also f = sum_n
 *    loss_n (f or A may be NULL, not both; f inside A: FR_EDOM).
 *  Step 6: fr_ssca_net_bottom: client i sends Bi = sum_n bbar_n restricted
 *    to p in P_i (J x Pi, (21): the block of g for omega_i).
 * 000 Sec. V prints the Step-4 message as the products (omega_{1,j,p}
 * x_{n,p})_{j, p in P_i} (J P_i reals per sample, from which x_{n,p} is
 * read off whenever omega_{1,j,p} != 0); the sums h_i suffice
 * (proofs_checks/ssca/check_net_feature.c; docs/ERRATA.md).
 * Domain:    as fr_ssca_net, nc >= 1, Pi >= 1 (w0: L x J).
 * Statuses:  partial: FR_ENULL (h, w1i, Zi), FR_ESIZE (nb, J, Pi zero, J Pi,
 *            nb Pi or nb J > FR_COUNT_MAX), FR_EPREC (an h precision above
 *            FR_PREC_MAX; an exact dot product beyond 2^24 bits),
 *            FR_ENONFINITE (w1i, Zi), FR_ENOMEM.  top and bottom: FR_ENULL
 *            (top: f and A both NULL, H, w0, y; bottom: Bi, H, w0, y, Zi),
 *            FR_ESIZE (a size zero, nc nb J, L J, nb L, nb Pi or J Pi
 *            > FR_COUNT_MAX), FR_EPREC (an output precision above
 *            FR_PREC_MAX; u = sum_i h_i beyond 2^24 bits), FR_ENONFINITE (H,
 *            w0, Zi), FR_EDOM (L < 2, a label >= L, top's f inside A),
 *            FR_ENOMEM, FR_EINTERNAL (Limits of fr_ssca_net).
 * Aliasing:  none.
 * Accuracy:  correctly rounded, each output (partial: one exact dot
 *            product, one rounding; top, bottom: u = sum_i h_i exactly, then
 *            as fr_ssca_net).  For exact h_i (precision large enough), top
 *            and bottom return exactly the blocks of fr_ssca_net's g.
 * Checked by: proofs_checks/ssca/check_net_feature.c, tests/ssca/test_net.c,
 *            vectors/ssca_net_partial.json, ssca_net_top.json,
 *            ssca_net_bottom.json. */
int fr_ssca_net_partial(mpfr_t *h, mpfr_t *const w1i, mpfr_t *const Zi,
                        size_t nb, size_t J, size_t Pi);
int fr_ssca_net_top(mpfr_t f, mpfr_t *A, mpfr_t *const H, size_t nc,
                    mpfr_t *const w0, const size_t *y, size_t nb, size_t L, size_t J);
int fr_ssca_net_bottom(mpfr_t *Bi, mpfr_t *const H, size_t nc, mpfr_t *const w0,
                       const size_t *y, mpfr_t *const Zi, size_t nb, size_t L,
                       size_t J, size_t Pi);


/* ==== Algorithms 1-4 and the baselines, end to end (000 Sec. III-VI) =======
 * fr_ssca_run runs prm->algo on D (fedspec/ssca.h, docs/SSCA.md 10): rounds
 * t = 1 .. T-1 from w^1 = prm->w1, every step at the trace's working
 * precision through the building blocks above (fr_ssca_net or the
 * feature-based messages, fr_ssca_lin, _const, _ema, _argmin, _lemma1,
 * _update; the baselines' steps directly).  A trace holds the records of
 * one run at one precision (every mpfr_t in it):
 *   w         KEEP_W: T x d, row t-1 = w^t; else d entries: w^T
 *   cost[t-1] F(w^t) = (1/N) sum_n loss_n over all N samples (28), t = 1..T
 *             (KEEP_COST; NaN otherwise)
 *   norm2[t-1] ||w^t||^2, t = 1..T
 *   cons[t-1] F(w^t) - U (Algorithms 2, 4 with KEEP_COST; NaN otherwise)
 *   nu[t-1], slack[t-1], branch[t-1]  round t's Lemma 1 multiplier nu, the
 *             slack s of (41) at its solution (+0 when nu < c, by
 *             complementary slackness; else max(0, Fbar(wbar) + C - U))
 *             and the branch (enum fr_ssca_l1_branch), t = 1..T-1
 *             (Algorithms 2, 4; NaN and 0 otherwise)
 *   draws     KEEP_DRAWS: (T-1) rows of nd indices: sample-based nd = nc B
 *             (nc E B for SGD_S, SGDM_S), client i's entries at i B
 *             (i E B), indices local to the client (0 .. Ni[i]-1);
 *             feature-based nd = B (0 .. N-1); in draw order
 *   msgs      the reals one round moves (fr_ssca_run_msgs); totals over
 *             the run are (T-1) times these
 *   rounds    rounds done (T-1 after success)
 * Domain:    fr_ssca_run_check (fedspec/ssca.h), a trace initialised for
 *            (D, prm).
 * Statuses:  argument errors (trace untouched): FR_ENULL (t, D, prm, a
 *            zeroed trace), FR_ESIZE (fr_ssca_run_check's, a trace
 *            initialised for other sizes, T, keep or algo), FR_ENONFINITE,
 *            FR_EDOM (fr_ssca_run_check's); after the start (trace reset to
 *            its initial state): FR_ENOMEM, or a building block's status
 *            (FR_EPREC, FR_EINTERNAL, FR_ENONFINITE if a value leaves
 *            MPFR's exponent range).  Aliasing: none.
 * Accuracy:  every step at the working precision; the trajectory is not
 *            correctly rounded: golden vectors certify it by precision
 *            doubling (docs/ACCURACY.md).  The draws do not depend on the
 *            precision.
 * fr_ssca_trace_init allocates a trace for (D, prm) at precision prec:
 * every value NaN, every draw SIZE_MAX, branch 0, rounds 0.  Statuses:
 * fr_ssca_run_check's, FR_EPREC (prec outside [MPFR_PREC_MIN,
 * FR_PREC_MAX]), FR_ESIZE (a record count above FR_COUNT_MAX), FR_ENOMEM
 * (leaves *t zeroed).  fr_ssca_trace_clear frees and zeroes; safe on NULL,
 * a zeroed or a failed trace.
 * Checked by: vectors/ssca_alg1.json .. ssca_sgdm_f.json, the audit
 *            (section ssca_runs), proofs_checks/ssca/check_runs*.c,
 *            tests/ssca/test_runs.c. */
typedef struct {
    size_t T, d, nd;           /* points, parameters, draws per round */
    int algo;
    unsigned keep;
    size_t rounds;
    mpfr_t *w, *cost, *norm2, *cons, *nu, *slack;
    int *branch;
    size_t *draws;
    fr_ssca_round_msgs msgs;
} fr_ssca_trace;
int fr_ssca_trace_init(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm,
                       mpfr_prec_t prec);
void fr_ssca_trace_clear(fr_ssca_trace *t);
int fr_ssca_run(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm);

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_SSCA_H */
