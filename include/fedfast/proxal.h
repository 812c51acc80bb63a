/* SPDX-License-Identifier: Apache-2.0 */
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

/* ==== the problems of Sec. 5: evaluation of f_i, c_i and their derivatives  */

/* ff_proxal_client_eval: owner i's parts at w (i = 0 the server: f_0 = 0):
 *   fi = f_i(w), gi = grad f_i(w) (d), Hi = Hess f_i(w) (d x d row-major),
 *   ci = c_i(w) (m_i), Ji = grad c_i(w) (d x m_i row-major: Ji[k m_i + j] =
 *   dc_ij/dw_k), Hy = sum_j y_j Hess c_ij(w) (d x d) for weights y (m_i).
 * Any output may be NULL (not computed; y is read only when Hy is wanted).
 * Stable forms: phi(w; x, y) = max(t, 0) + log1p(e^{-|t|}) - y t, t = w^T x;
 * phi' = s(t) - y with s the logistic function formed without overflow;
 * phi'' = s(t) s(-t).
 * Domain: fr_proxal_problem_check(P), i <= n, w finite (d); y (m_i) finite
 *   when Hy is wanted.  When m_i = 0 (NP's server) ci, Ji are not written
 *   and y may be NULL.  f_0 = 0 (the server has no objective).
 * Statuses: in class order: FR_ENULL (P, w; y when Hy and m_i >= 1, m_i
 *   as fr_proxal_mi: 0 for i > n or a bad shape; the problem's arrays),
 *   FR_ESIZE (the problem's; i > n), FR_ENONFINITE (the
 *   problem's; w; y when read), FR_EDOM (the problem's; two outputs that
 *   overlap); after the start FR_ENOMEM (the workspace), FR_ENONFINITE
 *   (an output overflows).  Outputs untouched on error (computed in a
 *   workspace, copied out).
 * Algorithm: QP by dgemv/ddot; NP/FAIR t = ddot(x, w) per sample, the
 *   gradients by daxpy, the Hessians X^T diag(a) X as dsyr rank-1 updates
 *   of the upper triangle, mirrored (exactly symmetric).
 * Accuracy: QP: each output within the usual dot-product bound (BLAS);
 *   NP/FAIR: within a few ulps per term of the stable forms (no proved
 *   bound; the audit reports fast vs ref).
 * Checked by: tests/proxal/test_problem.c (against ref, which is checked
 *   against independent formulas and central differences; edges),
 *   tests/proxal/test_status_problem.c, the audit (section proxal_problem). */
int ff_proxal_client_eval(const fr_proxal_problem *P, size_t i, const double *w, double *fi,
                          double *gi, double *Hi, double *ci, double *Ji, const double *y,
                          double *Hy);

/* ==== end of the problems ================================================= */



/* ==== the proximal AL subproblem: l_k (6), P_{i,k} (10)-(11), multipliers === */

/* The state of outer iteration k: wk = w^k (d), mu = mu^k (blocks mu_0..mu_n,
 * fr_proxal_mtot entries; inequality rows >= 0), beta > 0.  The AL term of a
 * row j of c_i is (1/(2 beta)) ([mu_j + beta c_j(w)]_+^2 - mu_j^2) for an
 * inequality row and (1/(2 beta)) ((mu_j + beta c_j(w))^2 - mu_j^2) for an
 * equality row (QP).
 * ff_proxal_lk:  l_k(w) of (6) (h = 0) and its gradient.
 * ff_proxal_pik: P_{i,k}(w) of (10) (i = 0) / (11) (i >= 1), gradient, and
 *   a Hessian (an element of the generalised Hessian where [.]_+ has a kink:
 *   the active set {mu_j + beta c_j > 0}), each output optional.
 * ff_proxal_mu_update: mu_next = [mu + beta c(w)]_+ per inequality row,
 *   mu + beta c(w) per equality row (Algorithm 1's server and client
 *   updates; mu_next may alias mu).
 * ff_proxal_pk_fsum: fills *F (Algorithm 2's oracle, below) with F_i =
 *   P_{i,k} for the state (P, wk, mu, beta), context in *ctx (which must
 *   outlive F; no allocation); quad(i) is nonzero for QP (the Hessian
 *   A_i + beta C_i^T C_i + I/((n+1) beta) does not depend on k).
 * Math (derivation in ref/proxal/lk.c): with t_j = mu_j + beta c_j(w) and
 *   y_j = [t_j]_+ (inequality) or t_j (equality), grad P_{i,k} = grad f_i +
 *   sum_j y_j grad c_ij + (w - w^k)/((n+1) beta); the Hessian is Hess f_i +
 *   sum_{j active} beta grad c_ij grad c_ij^T + sum_j y_j Hess c_ij +
 *   I/((n+1) beta), active = equality or t_j > 0: at the kink t_j = 0 the
 *   row is INACTIVE (both one-sided limits are in the generalised
 *   Hessian); sum_{i=0}^n P_{i,k} = l_k - h.
 * Domain: P valid with h = 0; wk, mu, w finite; mu_j >= 0 on inequality
 *   rows (-0 is the multiplier 0; equality multipliers are free); beta > 0
 *   finite.  Outputs: val, g (and H for pik) each optional (NULL: not
 *   computed; all NULL: FR_OK after the checks); mu_next required.
 * Statuses: in class order: FR_ENULL (P, w, wk, mu; mu_next; F, ctx; the
 *   problem's arrays), FR_ESIZE (the problem's; i > n), FR_ENONFINITE (the
 *   problem's; w, wk, mu, beta), FR_EDOM (the problem's; h != 0, a negative
 *   inequality multiplier, beta <= 0 or -0; two outputs that overlap: val
 *   in g or H, g in H); after the start FR_ENOMEM, FR_ENONFINITE (an
 *   output overflows), or the evaluator's status.  Outputs untouched on
 *   error; mu_next may alias mu (written last).
 * Accuracy: no proved bound (the NP/FAIR terms use libm); measured against
 *   ref and bounded in vectors/proxal_lk.json by 2^-40 times the sum of the
 *   terms' magnitudes (vectors/proxal/proxal_lk.c).
 * Checked by: tests/proxal/test_lk.c, proofs_checks/proxal/check_lk.c
 *   (Remark 3.1; l_k = sum_i P_{i,k} + h), vectors/proxal_lk.json. */
int ff_proxal_lk(double *val, double *g, const fr_proxal_problem *P, const double *w,
                 const double *wk, const double *mu, double beta);
int ff_proxal_pik(double *val, double *g, double *H, const fr_proxal_problem *P, size_t i,
                  const double *w, const double *wk, const double *mu, double beta);
int ff_proxal_mu_update(double *mu_next, const fr_proxal_problem *P, const double *w,
                        const double *mu, double beta);

/* ==== end of the proximal AL subproblem =================================== */



/* ==== Algorithm 2 (inexact ADMM) =========================================== */

/* Algorithm 2's objective (13) with h = 0: F_0 (the server's) .. F_n,
 * strongly convex, C^1 with locally Lipschitz gradients (Assumption 3).
 * eval(ctx, i, w, F, g, H): F_i(w), its gradient (d) and a Hessian (d x d
 * row-major; for a piecewise-C^2 F_i an element of the generalised
 * Hessian); an output pointer may be NULL (not computed).  It returns FR_OK
 * or a status the solver returns unchanged.  quad(ctx, i): nonzero if F_i
 * is quadratic with a Hessian that does not change while a workspace is
 * used with this oracle (its factorisation is then reused). */
typedef struct {
    size_t n, d;
    void *ctx;
    int (*eval)(void *ctx, size_t i, const double *w, double *F, double *g, double *H);
    int (*quad)(void *ctx, size_t i);
} ff_proxal_fsum;

/* What a call of Algorithm 2 reports. */
typedef struct {
    unsigned long iters;         /* iterations t + 1 done */
    int terminated;              /* (19) held at the last iteration */
    double eps, eps_tilde_sum;   /* eps_{t+1} and sum_i eps~_{i,t+1} at the end */
    double thm41;                /* an upper bound of dist_inf(0, grad F_h(w_out)) */
    int thm41_ok;                /* 1: thm41 <= tau (Theorem 4.1 certified), 0: not */
    unsigned long newton;        /* Newton iterations in all subproblems */
    unsigned long factorisations;/* Cholesky factorisations done */
    unsigned long floors;        /* subproblem solves accepted at the precision floor */
    unsigned long newton_server; /* of newton: those of the server's problems (14) */
} ff_proxal_admm_info;

/* A workspace: the iterates and the factorisations of the quadratic F_i +
 * rho_i I (and of the server's F_0 + sum rho_i I), kept between calls as
 * long as the oracle's quad() Hessians and the rho_i do not change (a
 * changed rho_i refactors that block; the caller clears the workspace when
 * a quadratic Hessian changes).  ff_proxal_admm_ws_init: FR_ENULL,
 * FR_ESIZE (n, d), FR_ENOMEM (leaves *ws zeroed).  _clear: frees and
 * zeroes; safe on NULL and a zeroed workspace. */
typedef struct ff_proxal_admm_ws ff_proxal_admm_ws;
int ff_proxal_admm_ws_init(ff_proxal_admm_ws **ws, size_t n, size_t d);
void ff_proxal_admm_ws_clear(ff_proxal_admm_ws **ws);

/* ff_proxal_admm: Algorithm 2 from w~^0 = w0 (d): the initialisation as
 * printed (u_i^0 = w~^0, lambda_i^0 = -grad F_i(w~^0), u~_i^0 = w~^0 -
 * grad F_i(w~^0)/rho_i), eps_{t+1} = q^t, the server problem (14) solved to
 * dist_inf(0, grad phi_{0,t}) <= eps_{t+1}, the client problems (15) to
 * ||grad phi_{i,t}||_inf <= eps_{t+1}: one Cholesky solve (LAPACK dpotrf
 * once per workspace, then two cblas_dtrsv per solve: what dpotrs
 * computes) when F_i is quadratic, its warm-start test from the gradient
 * the last evaluation at u_i^t gave (no re-evaluation), with the residual
 * checked and refined; otherwise damped Newton with Armijo backtracking,
 * which stops when the tolerance is reached or reports FR_EDOM at
 * newton_max (Statuses), both subject to the precision floor below; then
 * (16), (17), (18) per prm->eps18, and the test (19).
 * Output w = w^{t+1} at termination or at tmax.  After the last iteration
 * info->thm41 bounds dist_inf(0, sum_i grad F_i(w)) from above.
 * Statuses: FR_ENULL, FR_ESIZE (the oracle's n, d differ from the
 *   workspace's), fr_proxal_admm_check's, FR_ENONFINITE (w0; after the
 *   start an iterate or an oracle value non-finite), FR_EDOM (a
 *   subproblem's Newton iteration did not reach its tolerance within
 *   newton_max, or Armijo found no step, with the verified residual above
 *   the floor; or a Cholesky factorisation failed: F_i + rho_i I not
 *   positive definite in binary64 -- reported, never a silent hang), or
 *   the oracle's status.  Not terminating within tmax is NOT an error:
 *   info->terminated = 0.
 * Precision floor: eps_{t+1} = q^t -> 0 eventually drops below what
 *   binary64 can verify for a point that solves the subproblem up to
 *   rounding.  With S_k the sum of the magnitudes of grad phi's terms in
 *   coordinate k and K its roundings (client 5, server n + 3), the
 *   verified bound is |fl(grad phi)_k| + rb_k, rb_k = (K + 2) 2^-53 S_k
 *   (1 + 2^-20) + K 2^-1074, and a point exact up to rounding (x = x*(1 +
 *   d), |d| <= 2^-53) has |fl(grad phi)_k| <= rb_k + (its H-term) ~ a few
 *   rb_k: so the attainable floor is fl(x) = 64 max_k rb_k.  A subproblem
 *   whose verified residual res > eps_{t+1} is ACCEPTED (info->floors
 *   counts it) iff eps_{t+1} < fl(x) and res <= fl(x), checked at the warm
 *   start, after the solve and its one refinement step (quadratic
 *   blocks), and (other blocks) when a full Newton step does not decrease
 *   res, Armijo finds no step, or newton_max is reached.  Otherwise the
 *   FR_EDOM above.  The algorithm stays well-defined: every subproblem
 *   returns a point whose residual is certified <= max(eps_{t+1}, fl),
 *   so (16)-(18) are computed as printed, (19) is tested as printed, and
 *   the run ends by (19) or at tmax.  What Theorem 4.1's proof then gives
 *   (A.1): ||sum_i grad F_i(w)||_inf <= max(eps_{t+1}, fl_0) + sum_i
 *   eps~_{i,t+1}, fl_0 the server's floor (~1e-14 for O(1) data) -- not
 *   "eps + sum eps~ <= tau" alone; so fedref does not rely on the proof
 *   here: thm41 is computed directly at the output (Tolerances) and
 *   thm41_ok = thm41 <= tau is the certificate; terminated still means
 *   (19) held as printed.  A Hessian whose rows cancel strongly (|H||x|
 *   >> S_k) can keep res above fl: then FR_EDOM as before.
 * Tolerances: every "<= eps" is verified on the returned point with the
 *   rounding of the gradient's assembly bounded (fast/proxal/admm.c), and
 *   thm41 is computed directly from the oracle's gradients at w (not from
 *   (19)): both relative to the oracle's returned values, taken as exact.
 *   info->factorisations counts the dpotrf calls of THIS call (0 when the
 *   workspace already holds every quadratic block's factor; the factors
 *   are also dropped when the oracle's (eval, ctx) pair changes).
 * Checked by: tests/proxal/test_admm.c, tests/proxal/test_admm_pik.c
 *   (qp_floor: q = 1/2 and 0.7 at the floor, both wings),
 *   proofs_checks/proxal/check_admm.c (Theorem 4.1 on >= 100 seeded
 *   instances, floor acceptances counted), the audit. */
int ff_proxal_admm(double *w, ff_proxal_admm_info *info, ff_proxal_admm_ws *ws,
                   const ff_proxal_fsum *F, const double *w0, const fr_proxal_admm_params *prm);
/* ff_proxal_admm_h: Algorithm 2 on (13) with the regulariser H (fedspec:
 * fr_proxal_hreg; kind ZERO is ff_proxal_admm).  The server step (14)
 * becomes min F_0 + h + sum_i rho_i/2 ||u~_i - w||^2 (docs/PROXAL.md 4.5),
 * solved by proximal-gradient steps (soft-threshold / clip; the closed
 * form when the Hessian of F_0 + (sum rho_i) I is a multiple of I) and
 * Newton steps on the identified face, to the certified dist_inf(0,
 * d phi_0(w^{t+1})) <= eps_{t+1} (or the floor); every iterate w^{t+1}
 * lies in dom h.  thm41 bounds dist_inf(0, sum_i grad F_i(w) + dh(w)),
 * Theorem 4.1 as printed.  Statuses: ff_proxal_admm's, plus
 * fr_proxal_hreg_check's (H NULL: FR_ENULL), the earliest class first,
 * and FR_EDOM for a w0 outside [lo, hi] (w~^0 in dom h); newton_max
 * bounds the server's iterations too.  Checked by: tests/proxal/test_admm.c
 * (the l1 and box cases against independent KKT checks at 256 bits),
 * tests/proxal/test_status_admm.c. */
int ff_proxal_admm_h(double *w, ff_proxal_admm_info *info, ff_proxal_admm_ws *ws,
                     const ff_proxal_fsum *F, const double *w0, const fr_proxal_admm_params *prm,
                     const fr_proxal_hreg *H);

/* The oracle F_i = P_{i,k} of the state (P, wk, mu, beta) (section above);
 * ctx is filled and must outlive F.  Statuses as ff_proxal_pik's checks. */
typedef struct {
    const fr_proxal_problem *P;
    const double *wk, *mu;
    double beta;
} ff_proxal_pk_ctx;
int ff_proxal_pk_fsum(ff_proxal_fsum *F, ff_proxal_pk_ctx *ctx, const fr_proxal_problem *P,
                      const double *wk, const double *mu, double beta);

/* ==== end of Algorithm 2 ================================================== */

/* ==== Algorithms 1 and 3 (proximal AL, federated and centralised) ========= */

/* ff_proxal_alg1 / ff_proxal_alg3: fr_proxal_alg1 / fr_proxal_alg3
 * (fedref/proxal.h) in binary64, the same records in a trace of doubles,
 * the same statuses (no FR_EPREC).  Algorithm 1 keeps one Algorithm-2
 * workspace for the whole run: for QP the blocks A_i + beta C_i^T C_i +
 * I/((n+1) beta) + rho_i I do not change with k and are factorised once
 * per run (never refactored): the oracle context (wk, mu) is updated in
 * place so the workspace's key stays the same.  kkt1, kkt2 are upper
 * bounds (ff_proxal_kkt's, on the extended system of fr_proxal_alg1: the
 * client gradients and the equality pairs inside its error bound); sub is
 * Algorithm 2's thm41 (Algorithm 1) or the same recursive-sum bound of
 * sum_i grad P_{i,k} (Algorithm 3), the oracle's gradients taken as exact;
 * so thm31_ok and inner_ok are certificates for the oracle's numbers.
 * With h != 0 (P->h: l1, box; docs/PROXAL.md 4.5) Algorithm 1 calls
 * ff_proxal_admm_h, Algorithm 3 solves min l_k = sum_i P_{i,k} + h by the
 * same method as (14)'s (proximal-gradient and face-Newton steps, dpotrf on
 * the face's Hessian, counted in factorisations), sub is its certified
 * dist_inf(0, dl_k), and kkt1 is taken with dh.
 * tau_k = RN(sbar/(k+1)^2); (8) is tested in the safe direction, each
 * side moved one ulp past its last rounding (nextafter), so a tie of the
 * rounded values does not stop a run that (8) does not stop; thm31_ok may
 * still fail by rounding when (8) holds within a few ulps (docs/PROXAL.md;
 * never seen in pc_proxal_thm31).  Algorithm 3: LAPACK
 * dpotrf and two cblas_dtrsv per solve on the summed Hessians (formed where a Newton step starts;
 * for QP once per run, the matrix being the same at every step); dpotrf
 * only when the matrix differs bit for bit from the last one factored in
 * the run (else its factor is reused: the same solve bit for bit), and
 * factorisations counts the dpotrf calls (QP: 1 per run).
 * ff_proxal_trace_init: as fr_proxal_trace_init without FR_EPREC.
 * Checked by: tests/proxal/test_alg.c, the audit, `fedref table1`,
 *   vectors/proxal_alg*.json. */
typedef struct {
    size_t kmax, d, mtot;
    unsigned keep;
    size_t iters;
    int terminated, thm31_ok;
    double *w, *mu;
    double *tau, *dw, *dmu, *kkt1, *kkt2, *sub, *obj, *feas;
    unsigned long *inner;
    unsigned char *inner_ok;
    unsigned long factorisations;   /* Cholesky factorisations (dpotrf calls) in the whole run
                                       (QP: Algorithm 1 n + 1, one per distinct block matrix;
                                       Algorithm 3 1) */
    unsigned long floors;           /* Algorithm 1: Algorithm 2's solves accepted at the floor */
    unsigned long newton;           /* Newton steps of the subproblem solves in the whole run
                                       (Algorithm 1: Algorithm 2's info.newton summed;
                                       Algorithm 3: the sum of inner) */
    unsigned long newton_server;    /* Algorithm 1: of newton, the server's (info.newton_server) */
} ff_proxal_trace;
int ff_proxal_trace_init(ff_proxal_trace *t, const fr_proxal_problem *P,
                         const fr_proxal_alg_params *prm);
void ff_proxal_trace_clear(ff_proxal_trace *t);
int ff_proxal_alg1(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm);
int ff_proxal_alg3(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm);

/* ==== end of Algorithms 1 and 3 =========================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_PROXAL_H */
