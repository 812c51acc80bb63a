/* SPDX-License-Identifier: Apache-2.0 */
/* fedref/proxal.h -- libfedref, module proxal: paper 004 (federated learning
 * with convex global and local constraints: proximal AL + inexact ADMM) in
 * MPFR.  Conventions: fedref.h.  docs/PROXAL.md is the normative
 * description. */
#ifndef FEDREF_PROXAL_H
#define FEDREF_PROXAL_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/proxal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== KKT residuals (Definition 1) ======================================== */

/* fr_proxal_kkt: the two residuals of 004 Definition 1 at (w, mu),
 *   eps1 = dist_inf(0, grad_f + dh(w) + J mu),
 *   eps2 = dist_inf(c, N_{R+^m}(mu)),
 * with grad_f = grad f(w) (d entries), J = grad c(w) (d x m row-major: J[k
 * m + j] = dc_j/dw_k), c = c(w) and mu (m entries each).  (w, mu) is a KKT
 * pair, (5), iff eps1 = eps2 = 0; it is an (e1, e2)-KKT solution iff eps1
 * <= e1 and eps2 <= e2.  The subdifferential and the normal cone are used
 * as SETS, never approximated.
 * Math:      both sets are products of closed intervals, and for a product
 *            P = prod_k I_k, dist_inf(x, P) = max_k dist(x_k, I_k): the
 *            point v*_k = proj_{I_k}(x_k) lies in P and ||x - v*||_inf =
 *            max_k dist(x_k, I_k); any v in P has |x_k - v_k| >=
 *            dist(x_k, I_k) for every k, so nothing in P is closer.  With
 *            r = grad_f + J mu (exact), eps1 = max_k e1_k, e1_k = dist(0,
 *            r_k + dh_k(w_k)):
 *              h = 0:             e1_k = |r_k|
 *              h = gamma |.|_1:   w_k > 0: |r_k + gamma|;  w_k < 0: |r_k -
 *                                 gamma|;  w_k = 0 (either sign): dh_k =
 *                                 [-gamma, gamma], e1_k = max(|r_k| - gamma, 0)
 *              h = box indicator: lo_k < w_k < hi_k: |r_k|;  w_k = lo_k <
 *                                 hi_k: dh_k = (-inf, 0], e1_k = max(-r_k, 0);
 *                                 w_k = hi_k > lo_k: dh_k = [0, inf), e1_k =
 *                                 max(r_k, 0);  lo_k = w_k = hi_k: dh_k =
 *                                 R, e1_k = 0;
 *            N_{R+}(mu_j) = {0} if mu_j > 0, (-inf, 0] if mu_j = 0, so
 *            eps2 = max_j e2_j, e2_j = |c_j| (mu_j > 0), max(c_j, 0) (mu_j =
 *            0).  m = 0 (no constraint): J mu = 0 and eps2 = +0.
 * Domain:    1 <= d <= FR_COUNT_MAX, 0 <= m <= FR_PROXAL_M_MAX, d m <=
 *            FR_COUNT_MAX; mu_j >= 0 (-0 is the multiplier 0: the sign of
 *            a zero is not a sign of the number); h one of FR_PROXAL_H_*;
 *            l1: gamma >= 0 (-0 is 0); box: lo_k <= hi_k and lo_k <= w_k <=
 *            hi_k (w in dom h); every input finite.
 * Arguments: gamma is read only for h = L1 (may be NULL otherwise); lo, hi
 *            only for h = BOX (may be NULL otherwise); J, c, mu only when m
 *            >= 1 (may be NULL when m = 0).
 * Statuses:  FR_ENULL (eps1, eps2, grad_f, w; J, c, mu when m >= 1; gamma
 *            when h = L1; lo, hi when h = BOX), FR_ESIZE (d = 0, d or d m
 *            above FR_COUNT_MAX, m > FR_PROXAL_M_MAX), FR_ENONFINITE (any
 *            read input NaN or infinite), FR_EDOM (h unknown, gamma < 0,
 *            some lo_k > hi_k, some w_k outside [lo_k, hi_k], some mu_j <
 *            0, eps1 == eps2: two outputs), after the start FR_EPREC (a
 *            product J_kj mu_j needs more than 2^24 bits, or leaves MPFR's
 *            exponent range), FR_ENOMEM.  Outputs untouched on error.
 * Aliasing:  eps1 and eps2 may be entries of the inputs (results are
 *            formed in temporaries and written last); not each other.
 * Accuracy:  eps1, eps2 correctly rounded UPWARD (MPFR_RNDU) at their
 *            precisions from the exact residuals of the given numbers:
 *            every product J_kj mu_j is exact, each e1_k is ONE mpfr_sum of
 *            exact terms (g_k, the products, -+gamma) in a directed mode
 *            whose sign is exact (so |.| and max(., 0) commute with the
 *            rounding), and RU is monotone, so max_k RU(e1_k) = RU(eps1).
 *            A zero residual is +0.
 * Checked by: proofs_checks/proxal/check_kkt.c (pc_proxal_kkt_char: the
 *            minimiser v* exhibited and certified in the set, the
 *            per-coordinate lower bound, exact KKT pairs give 0, all in
 *            GMP rationals), tests/proxal/test_kkt.c (hand cases, a
 *            brute-force 1-D search per coordinate at 256 bits),
 *            tests/proxal/test_status_kkt.c, vectors/kkt_residual.json.
 *            ref/proxal/kkt.c. */
int fr_proxal_kkt(mpfr_t eps1, mpfr_t eps2, mpfr_t *const grad_f, size_t d, mpfr_t *const J,
                  size_t m, mpfr_t *const c, mpfr_t *const mu, mpfr_t *const w, int h,
                  const mpfr_t gamma, mpfr_t *const lo, mpfr_t *const hi);

/* ==== end of KKT residuals ================================================ */

/* ==== the problems of Sec. 5: evaluation of f_i, c_i and their derivatives  */

/* fr_proxal_client_eval: ff_proxal_client_eval (fedfast/proxal.h: the same
 * outputs, layout, optional outputs, domain and statuses, plus after the
 * start FR_EPREC (an exact product or t = w^T x needs more than 2^24 bits
 * or leaves MPFR's exponent range), FR_EINTERNAL (the Ziv loop undecided at
 * 2^16 bits), FR_ENOMEM; no overflow) at the precision of each output,
 * to nearest: QP outputs correctly rounded (one mpfr_sum of exact
 * products); NP/FAIR values and derivatives correctly rounded by a Ziv
 * loop on MPFI enclosures of the stable forms (the logistic terms are
 * transcendental; samples of equal (t, y) merged with exact coefficients,
 * so equal terms of FAIR's two groups cancel exactly).  Zeros are +0.  A
 * value that is a number of the output precision reached by cancelling
 * pieces at distinct t would not be decided: FR_EINTERNAL, outputs
 * untouched (never seen; not proved impossible).  Outputs are computed in
 * temporaries (w may be any precision; outputs must not overlap each
 * other: FR_EDOM).
 * Checked by: tests/proxal/test_problem.c (independent formulas, central
 * differences at 256 bits, ref vs fast), tests/proxal/test_status_problem.c,
 * the audit (section proxal_problem). */
int fr_proxal_client_eval(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t fi,
                          mpfr_t *gi, mpfr_t *Hi, mpfr_t *ci, mpfr_t *Ji, mpfr_t *const y,
                          mpfr_t *Hy);

/* ---- the seeded generators (docs/RNG.md, proxal; docs/PROXAL.md) --------
 * Data generation, not a wing's numerics: they live in libfedref (they use
 * the correctly rounded Gaussians of fr_rng_gaussian2 at 53 bits) and
 * output binary64 data that fast's users take as input.  Every other
 * operation is one IEEE binary64 +, -, *, / or sqrt (to nearest, no FMA,
 * no libm, no BLAS) in the order below, so the output is the same bits in
 * any implementation of docs/RNG.md (docs/rng_reference.py).  The Gaussian
 * tape of a stream: z0, z1 of its successive Box-Muller pairs, each RN to
 * binary64, used one by one (an unused z1 at the end is dropped).
 *
 * fr_proxal_gen_qp: an instance of (25) as 004 Sec. 5.1 describes it,
 * n clients, dimension d, mt rows per owner.  Outputs (caller's arrays, as
 * fr_proxal_problem reads them): A (n d d), b (n d), C ((n + 1) mt d),
 * e ((n + 1) mt; the paper's d_i).
 *   For i = 0..n, tape of stream FR_PROXAL_STREAM_C + i: C_i row-major,
 *     C_i[j][k] = z / sqrt(d) (sqrt(d) rounded once, one division); then
 *     e_i, then (i >= 1) b_i, each "on the unit sphere": z_1..z_k from the
 *     tape, s = sum z_j^2 left to right, r = sqrt(s), entries z_j / r.
 *     Then (i >= 1) A_i:
 *   D_i: d words of stream FR_PROXAL_STREAM_D + i, D_kk = 1/2 + (word >> 12)
 *     2^-53 (exact, uniform on [1/2, 1) at 52 bits).
 *   U_i = H_0 H_1 .. H_{d-2}: the tape of stream FR_PROXAL_STREAM_U + i
 *     gives x_0 (d entries), x_1 (d - 1), .., x_{d-2} (2) in order; H_k =
 *     I - tau v v^T acts on indices k..d-1 with v = x_k except v_0 = x_0 +
 *     sign(x_0) sqrt(sum x_j^2) (sign(+-0) = +), tau = 2 / sum v_j^2 (sums
 *     left to right; a zero sum skips H_k).  Gaussian vectors give a Haar
 *     U_i up to the signs of its columns (Stewart 1980), which cancel in
 *     U D U^T.
 *   A_i = U_i D_i U_i^T, formed as M = diag(D_i), then for k = d-2 down to
 *     0: p_a = tau (sum_b M_ab v_b) (b left to right), beta = 0.5 (tau
 *     sum_a p_a v_a), w_a = p_a - beta v_a, M_ab = M_ab - (v_a w_b + w_a
 *     v_b) for a, b in k..d-1 (bit-for-bit symmetric).  A_i = M: within a
 *     few d^2 2^-53 of a matrix with spectrum D_i (the tests measure
 *     ||A_i - U D U^T|| and the eigenvalue range).
 *   The authors' LCQP/utils.py departs: e_0 = 0 and no f_0 (the server is
 *   their last index with A = 0, b = 0): docs/PROXAL.md.
 * Statuses: FR_ENULL (A, b, C, e), FR_ESIZE (n, d, mt = 0 or above
 *   FR_PROXAL_N_MAX, FR_PROXAL_D_MAX), FR_ENOMEM, FR_EINTERNAL (a Gaussian's
 *   Ziv loop; never).  Outputs untouched on error.  Cost: ~d^3 (4/3) flops
 *   and d^2 / 2 Gaussians per client (Table 1's largest, n = 10, d = 500:
 *   a few seconds).
 *
 * fr_proxal_gen_lg: a synthetic NP (kind FR_PROXAL_NP: clients 1..n,
 * cnt[0] = 0) or FAIR (FR_PROXAL_FAIR: owners 0..n) problem with s >= 2
 * samples per owner (cnt[i] = s), rows x = (1, x_1, .., x_{d-1}):
 *   NP:   sample j of client i has label y = j mod 2 (both classes),
 *         x_k = z + (y ? 1/2 : -1/2);
 *   FAIR: group j mod 2 (both groups), label y = below(2) from stream
 *         FR_PROXAL_STREAM_Y + i, x_k = z + (y ? 1/2 : -1/2) + (grp ? 1/4 :
 *         -1/4) (the shift exact, one rounding);
 *   z from the tape of stream FR_PROXAL_STREAM_X + i, row by row.  Outputs:
 *   cnt (n + 1), X (sum cnt rows of d), y, grp (FAIR only; NULL allowed for
 *   NP).  The caller sets r (and h) in the fr_proxal_problem.
 * Statuses: FR_ENULL (cnt, X, y; grp for FAIR), FR_ESIZE (n, d = 0 or above
 *   the limits, s < 2 or > FR_PROXAL_S_MAX), FR_EDOM (kind not NP/FAIR),
 *   FR_ENOMEM, FR_EINTERNAL (never).  Outputs untouched on error.
 * Checked by: tests/proxal/test_problem.c (orthogonality of U through the
 * spectrum of A, symmetry, unit norms, moments, reproducibility),
 * tests/proxal/test_status_problem.c. */
int fr_proxal_gen_qp(double *A, double *b, double *C, double *e, size_t n, size_t d, size_t mt,
                     uint64_t seed);
int fr_proxal_gen_lg(int kind, size_t *cnt, double *X, unsigned char *y, unsigned char *grp, size_t n,
                     size_t d, size_t s, uint64_t seed);

/* ==== end of the problems ================================================= */



/* ==== the proximal AL subproblem: l_k (6), P_{i,k} (10)-(11), multipliers === */

/* As ff_proxal_lk, ff_proxal_pik, ff_proxal_mu_update (fedfast/proxal.h),
 * in MPFR at the precision of the outputs: every output correctly rounded
 * to nearest at its own precision (w, wk, mu, beta may have any precision).
 * One Ziv loop for all kinds: fr_proxal_client_eval's outputs at a working
 * precision wp are enclosed (a point for QP once wp makes them exact), the
 * formulas evaluated in MPFI, wp doubled until both ends of every
 * enclosure round alike (and, for H, every inequality t_j has a certified
 * sign), up to 2^18 bits.  Statuses: as fast's, with beta NULL FR_ENULL;
 * after the start FR_EPREC (the Ziv loop undecided at 2^18 bits: an exact
 * result on a rounding boundary reached only through transcendental
 * terms), FR_ENOMEM, and fr_proxal_client_eval's (FR_EINTERNAL when its
 * own Ziv loop cannot decide an exactly cancelling sum).  An exact kink
 * t_j = 0 is decided exactly when c_j is (e.g. FAIR's D_i = 0 from
 * samples of equal (t, y)): the row is inactive, as in fast.  Checked by:
 * tests/proxal/test_lk.c, proofs_checks/proxal/check_lk.c,
 * vectors/proxal_lk.json. */
int fr_proxal_lk(mpfr_t val, mpfr_t *g, const fr_proxal_problem *P, mpfr_t *const w,
                 mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta);
int fr_proxal_pik(mpfr_t val, mpfr_t *g, mpfr_t *H, const fr_proxal_problem *P, size_t i,
                  mpfr_t *const w, mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta);
int fr_proxal_mu_update(mpfr_t *mu_next, const fr_proxal_problem *P, mpfr_t *const w,
                        mpfr_t *const mu, const mpfr_t beta);

/* ==== end of the proximal AL subproblem =================================== */



/* ==== Algorithm 2 (inexact ADMM) =========================================== */

/* ff_proxal_fsum in MPFR: eval writes F (may be NULL), g (d), H (d x d) at
 * their precisions. */
typedef struct {
    size_t n, d;
    void *ctx;
    int (*eval)(void *ctx, size_t i, mpfr_t *const w, mpfr_t F, mpfr_t *g, mpfr_t *H);
    int (*quad)(void *ctx, size_t i);
} fr_proxal_fsum;

/* What a call reports (as ff_proxal_admm_info; the reals at the working
 * precision, thm41 an upper bound rounded up). */
typedef struct {
    unsigned long iters;
    int terminated;
    mpfr_t eps, eps_tilde_sum, thm41;
    int thm41_ok;
    unsigned long newton, factorisations;
    unsigned long floors;   /* subproblem solves accepted at the precision floor */
} fr_proxal_admm_info;
/* fr_proxal_admm_info_init / _clear: the info's reals at precision prec. */
int fr_proxal_admm_info_init(fr_proxal_admm_info *info, mpfr_prec_t prec);
void fr_proxal_admm_info_clear(fr_proxal_admm_info *info);

/* fr_proxal_admm: Algorithm 2 as ff_proxal_admm (fedfast/proxal.h), every
 * step at the precision of w (the working precision): the quadratic
 * subproblems by an MPFR Cholesky factorisation (once per call per
 * quadratic block) and solve, the others by damped Newton with the same
 * stopping rules; the same statuses plus FR_EPREC, FR_ENOMEM (FR_ENULL also
 * for an info not initialised by fr_proxal_admm_info_init).  Every
 * tolerance test, (18), (19) and thm41 are certified for the stored
 * numbers (exact sums by mpfr_sum rounded both ways; the oracle's values
 * taken as exact); eps_{t+1} = RD(q^t).  The precision floor and
 * info->floors as in ff_proxal_admm, with the unit 2^-p of the working
 * precision and no rounding of the sum (exact): fl(x) = 64 (K + 2) 2^-p
 * max_k S_k rounded up, S_k the sum of the terms' magnitudes (RU), K = 5
 * (client) or n + 3 (server); the same acceptance points and FR_EDOM
 * cases.  No workspace argument: ref is for small instances.
 * Checked by: tests/proxal/test_admm.c, proofs_checks/proxal/check_admm.c. */
int fr_proxal_admm(mpfr_t *w, fr_proxal_admm_info *info, const fr_proxal_fsum *F, mpfr_t *const w0,
                   const fr_proxal_admm_params *prm);
/* fr_proxal_admm_h: ff_proxal_admm_h (fedfast/proxal.h) in MPFR: the
 * server step (14) with h by the same method (fri_proxal_hsolve: MPFR
 * Cholesky of the face's Hessian), its residual certified with every
 * operation rounded outward; thm41 certified for dist_inf(0, sum_i grad
 * F_i(w) + dh(w)).  Statuses: fr_proxal_admm's plus fr_proxal_hreg_check's
 * (earliest class first) and FR_EDOM for w0 outside the box.  Checked by:
 * tests/proxal/test_alg_h.c, tests/proxal/test_status_admm.c. */
int fr_proxal_admm_h(mpfr_t *w, fr_proxal_admm_info *info, const fr_proxal_fsum *F, mpfr_t *const w0,
                     const fr_proxal_admm_params *prm, const fr_proxal_hreg *H);

/* The oracle F_i = P_{i,k} of the state (P, wk, mu, beta); ctx must outlive F. */
typedef struct {
    const fr_proxal_problem *P;
    mpfr_t *wk, *mu;
    mpfr_srcptr beta;
} fr_proxal_pk_ctx;
int fr_proxal_pk_fsum(fr_proxal_fsum *F, fr_proxal_pk_ctx *ctx, const fr_proxal_problem *P,
                      mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta);

/* ==== end of Algorithm 2 ================================================== */

/* ==== Algorithms 1 and 3 (proximal AL, federated and centralised) ========= */

/* fr_proxal_alg1 / fr_proxal_alg3: Algorithm 1 / Algorithm 3 of 004 as
 * fedspec/proxal.h defines them, every step at the trace's precision
 * (fr_proxal_admm, fr_proxal_mu_update, fr_proxal_kkt).  The trace (K =
 * kmax records per outer iteration k, entry k):
 *   w         KEEP_W: (kmax + 1) x d, row k = w^k; else d: the output w
 *   mu        fr_proxal_mtot entries: the output multipliers
 *   tau, dw, dmu   tau_k, ||w^{k+1} - w^k||_inf, max_i ||mu_i^{k+1} - mu_i^k||_inf
 *   kkt1, kkt2     the true residuals of (w^{k+1}, mu^{k+1}) (rounded up)
 *   sub       an upper bound of dist_inf(0, grad l_k(w^{k+1})): (7)
 *   obj, feas f(w^{k+1}) and max_j of the violation (c_j)_+ (|c_j| for
 *             equality rows)
 *   inner     Algorithm 2's iterations (Algorithm 3: Newton iterations; with
 *             h != 0 the iterations of docs/PROXAL.md 4.5's method)
 *   inner_ok  1 iff sub <= tau_k (Theorem 4.1 / (7) certified)
 *   iters     outer iterations done; terminated: (8) held;
 *   thm31_ok  at termination, kkt1 <= eps1 and kkt2 <= eps2 (Theorem 3.1
 *             certified); 0 if not terminated.
 * ref makes every test in the safe direction, so the flags hold for the
 * exact values of the stored numbers: tau records tau_k = sbar/(k+1)^2
 * rounded DOWN (the inner tolerance; Algorithm 2 receives the binary64
 * RD(min(tau_k, 1))); dw, dmu rounded up; (8) as RU(dw + beta RU(tau_k))
 * <= RD(beta eps1) and dmu <= RD(beta eps2).  sub: Algorithm 1:
 * fr_proxal_admm's thm41; Algorithm 3: max_k max(RU(G_k), -RD(G_k)), G =
 * sum_i grad P_{i,k} (the oracle's gradients taken as exact in both); with
 * h != 0 (docs/PROXAL.md 4.5) the certified dist_inf(0, G + dh(w^{k+1})),
 * and Algorithm 1's thm41 is fr_proxal_admm_h's (with dh).
 * kkt1, kkt2 by fr_proxal_kkt with the problem's h on an extended system: client gradients
 * g_2..g_n as columns with multiplier 1 (so the sum of gradients is inside
 * the exact residual), equality rows as the column pair (grad c_j, c_j,
 * mu+) and (-grad c_j, -c_j, mu-).  Algorithm 3's Newton: the summed
 * P_{i,k} Hessians, an MPFR Cholesky at the trace's precision, shifted by
 * lam I when the Hessian does not factor (FAIR (28) is not convex; lam as
 * docs/PROXAL.md 5 step 2; no shift factors: FR_EDOM), full step if Armijo (c1 = 1e-4) holds or the certified
 * residual halves, else Armijo halvings (at most 60, then FR_EDOM), at
 * most newton_max steps per outer iteration (then FR_EDOM).
 * A theorem that fails (inner_ok 0 for a terminated inner call, thm31_ok 0
 * after (8)) is NOT an error status: the run returns FR_OK with the flags
 * and the numbers; the proof checks, the audit and `fedref table1` report
 * it as a failure.
 * Statuses: argument errors (trace untouched): FR_ENULL (t, a zeroed
 *   trace), fr_proxal_alg_check's, FR_ESIZE (a trace for other sizes);
 *   after the start (trace reset: values NaN, counts 0, then the records
 *   of the iterations done): FR_ENOMEM, FR_EPREC, or the subproblem
 *   solver's or an oracle's status (FR_EDOM: a Newton solve that did not
 *   reach its tolerance, reported with the iteration in t->iters;
 *   FR_EINTERNAL: an oracle's Ziv loop undecided).
 * fr_proxal_trace_init: every value NaN, counts 0, values at precision
 * prec; statuses: FR_ENULL (t), then fr_proxal_alg_check(P, prm, 1)'s
 * (only newton_max of the admm fields is read: a trace serves both
 * algorithms) with FR_EPREC (prec outside [MPFR_PREC_MIN, FR_PREC_MAX])
 * after FR_ESIZE, FR_ESIZE ((kmax + 1) d above FR_COUNT_MAX with KEEP_W),
 * FR_ENOMEM.
 * fr_proxal_trace_clear frees and zeroes (safe on NULL and zeroed traces).
 * Checked by: tests/proxal/test_alg.c, proofs_checks/proxal/check_alg.c
 *   (Theorems 3.1, 4.1 on >= 100 seeded instances; Lemma 3.2), the audit,
 *   vectors/proxal_alg*.json. */
typedef struct {
    size_t kmax, d, mtot;
    unsigned keep;
    size_t iters;
    int terminated, thm31_ok;
    mpfr_t *w, *mu;
    mpfr_t *tau, *dw, *dmu, *kkt1, *kkt2, *sub, *obj, *feas;
    unsigned long *inner;
    unsigned char *inner_ok;
    unsigned long floors;   /* Algorithm 1: Algorithm 2's solves accepted at the precision floor */
} fr_proxal_trace;
int fr_proxal_trace_init(fr_proxal_trace *t, const fr_proxal_problem *P,
                         const fr_proxal_alg_params *prm, mpfr_prec_t prec);
void fr_proxal_trace_clear(fr_proxal_trace *t);
int fr_proxal_alg1(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm);
int fr_proxal_alg3(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm);

/* ==== end of Algorithms 1 and 3 =========================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_PROXAL_H */
