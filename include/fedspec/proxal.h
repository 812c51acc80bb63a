/* SPDX-License-Identifier: Apache-2.0 */
/* fedspec/proxal.h -- the specification layer of module proxal (paper 004,
 * the proximal augmented-Lagrangian FL algorithm with inexact ADMM), shared
 * by ref and fast: integer logic only.  docs/PROXAL.md is the normative
 * description. */
#ifndef FEDSPEC_PROXAL_H
#define FEDSPEC_PROXAL_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== KKT residuals (Definition 1) ======================================== */

/* The regulariser h of 004 (1), a closed convex function with an exact
 * prox (Assumption 2(a)), as the KKT residuals handle it:
 *   FR_PROXAL_H_ZERO  h = 0                      dh(w) = {0}
 *   FR_PROXAL_H_L1    h = gamma ||.||_1, gamma >= 0
 *   FR_PROXAL_H_BOX   h = the indicator of the box [lo, hi] (lo_k <= hi_k
 *                     finite), dh(w) = N_[lo,hi](w), dom h = [lo, hi]
 * Any other value is outside the domain (FR_EDOM).  The golden vectors
 * spell them "zero", "l1", "box" (docs/VECTORS.md). */
enum { FR_PROXAL_H_ZERO = 0, FR_PROXAL_H_L1 = 1, FR_PROXAL_H_BOX = 2 };

/* The largest number m of constraints (c: R^d -> R^m) accepted by
 * fr_proxal_kkt and ff_proxal_kkt; beyond it FR_ESIZE in both.  fast's
 * error bound for r = grad_f + J mu, a sum of m + 1 terms, is proved for
 * (m + 1) 2^-53 <= 2^-26 (fast/proxal/kkt.c). */
#define FR_PROXAL_M_MAX ((size_t)1 << 26)

/* ==== end of KKT residuals ================================================ */

/* ==== the problems of Sec. 5: QP (25), Neyman-Pearson (26)-(27), fairness (28) */

/* Problem (1) of 004 restricted to the paper's three families, with binary64
 * data.  n >= 1 clients, dimension d; index i = 0 is the server (f_0 = 0,
 * c_0 the global constraint), i = 1..n the clients.  m_i = the number of
 * constraint rows of c_i (fr_proxal_mi); the multipliers mu are stored as
 * the blocks mu_0, mu_1, .., mu_n (sum m_i entries).  h is one of the
 * three of the section above, in the residuals and in Algorithms 1 and 3
 * (lk, pik, mu_update and pk_fsum, which are the smooth parts, take
 * h = 0: FR_EDOM otherwise).
 *   FR_PROXAL_QP   (25): f_i(w) = w^T A_i w / 2 + b_i^T w (A_i symmetric
 *                  PSD, d x d), c_i(w) = C_i w + e_i (mt x d, mt; the
 *                  paper's d_i), EQUALITY constraints c_i(w) = 0, m_i = mt
 *                  for every i = 0..n (the multipliers of equality rows are
 *                  free in sign: docs/PROXAL.md, E-004-25).
 *   FR_PROXAL_NP   (26)-(27): client i's samples (x, y), y in {0, 1};
 *                  f_i(w) = (1/n) mean_{y = 0} phi(w; x, 0), c_i(w) =
 *                  mean_{y = 1} phi(w; x, 1) - r_i <= 0 (m_i = 1), no server
 *                  constraint (m_0 = 0), phi(w; x, y) = -y w^T x + ln(1 +
 *                  e^{w^T x}) (27).  Every client needs samples of both
 *                  classes.
 *   FR_PROXAL_FAIR (28): f_i(w) = (1/n) mean_{client i} phi, and for i =
 *                  0..n the two inequality rows  D_i(w) - r_i <= 0,
 *                  -D_i(w) - r_i <= 0, D_i = mean_{grp 0} phi - mean_{grp 1}
 *                  phi over i's samples (m_i = 2; the server's samples are
 *                  i = 0's).  D_i is a difference of convex functions: the
 *                  constraints are NOT convex in general (docs/PROXAL.md).
 * Samples (NP, FAIR) are stored by owner i = 0..n: cnt[i] rows of d
 * features in X, labels y (0/1), groups grp (0/1; FAIR only). */
enum { FR_PROXAL_QP = 1, FR_PROXAL_NP = 2, FR_PROXAL_FAIR = 3 };
typedef struct {
    int kind;
    size_t n, d;
    /* QP */
    size_t mt;
    const double *A;           /* n blocks d x d (client i at A + (i-1) d d) */
    const double *b;           /* n blocks of d */
    const double *C;           /* n + 1 blocks mt x d (block 0: the server's) */
    const double *e;           /* n + 1 blocks of mt */
    /* NP, FAIR */
    const size_t *cnt;         /* n + 1 sample counts (NP: cnt[0] = 0) */
    const double *X;           /* sum cnt rows of d */
    const unsigned char *y;    /* labels 0/1 */
    const unsigned char *grp;  /* FAIR: sensitive group 0/1; NP: NULL */
    const double *r;           /* NP: r_1..r_n at r[0..n-1]; FAIR: r_0..r_n */
    /* the regulariser h of (1) (FR_PROXAL_H_*) */
    int h;                     /* FR_PROXAL_H_* */
    double gamma;
    const double *lo, *hi;
    uint64_t seal;             /* rule 6 of fedref_common.h; zero-initialise, never write */
} fr_proxal_problem;

/* The limits of the problems (FR_ESIZE beyond): n <= FR_PROXAL_N_MAX,
 * d <= FR_PROXAL_D_MAX, mt <= FR_PROXAL_D_MAX. */
#define FR_PROXAL_N_MAX 4096u
#define FR_PROXAL_D_MAX 8192u

/* FR_OK or the first failing class: FR_ENULL (P; the kind's arrays: QP A,
 * b, C, e; NP cnt, X, y, r; FAIR also grp; lo, hi when h = BOX), FR_ESIZE
 * (n, d, mt = 0 or above the limits; NP cnt[0] != 0; sum cnt d above
 * FR_COUNT_MAX), FR_ENONFINITE (any double read: the kind's data, r,
 * gamma when h = L1, lo/hi when h = BOX), FR_EDOM (an unknown kind or h,
 * labels/groups not 0/1, a client without both classes (NP), an owner
 * i = 0..n without both groups (FAIR: D_i needs both means), r_i < 0
 * (-0 is 0), A_i not exactly symmetric, gamma < 0, some lo_k > hi_k).
 * A_i PSD is NOT checked (it would need a factorisation): the generator
 * below makes A_i positive definite by construction.
 * Checked by: tests/proxal/test_status_problem.c. */
int fr_proxal_problem_check(const fr_proxal_problem *P);
/* The seal of P (fedref_common.h rule 6).  fr_proxal_problem_seal: the
 * full check above (whatever P->seal holds); on FR_OK P->seal = a keyed
 * hash of P's fields, else P->seal = 0 and the check's status (FR_ENULL
 * for P NULL, nothing written).  fr_proxal_problem_sealed: 1 iff P != NULL,
 * P->seal != 0 and P->seal equals the hash of P's current fields; no
 * status.  Hashed, in this order: kind, n, d, mt, the pointers A, b, C, e,
 * cnt, X, y, grp, r, h, gamma (its bits), lo, hi, and the total extent
 * sum_i cnt[i] (NP, FAIR); a change of any of them voids the seal.  While
 * P is sealed fr_proxal_problem_check -- and with it every ff_ and fr_
 * function taking P -- skips the O(data) scans of the binary64 arrays
 * (finiteness of A, b, C, e, X, r, lo, hi; r_i >= 0, A_i symmetric, lo_k <=
 * hi_k); it still checks the pointers, n, d, mt, every cnt[i] (the extents),
 * the labels y and groups grp (used as indices: values 0/1, both classes
 * and groups per owner) and the scalars (kind, h, gamma), so every status
 * is the one the unsealed check gives.  The contract: the contents of A, b,
 * C, e, X, r, lo, hi are not changed while the seal is in use (a change is
 * not seen until P is sealed again, or P->seal set to 0).
 * Checked by: tests/proxal/test_seal.c. */
int fr_proxal_problem_seal(fr_proxal_problem *P);
int fr_proxal_problem_sealed(const fr_proxal_problem *P);
/* m_i of P; the total sum m_i by fr_proxal_mtot.  0 if P is NULL, its kind
 * unknown, n, d or mt outside the limits, or i > n: only these structural
 * fields are read (the data are fr_proxal_problem_check's). */
size_t fr_proxal_mi(const fr_proxal_problem *P, size_t i);
size_t fr_proxal_mtot(const fr_proxal_problem *P);
/* 1 if row j of c_i is an equality (QP), else 0. */
int fr_proxal_row_eq(const fr_proxal_problem *P, size_t i, size_t j);

/* The seeded generators (fedref/proxal.h: fr_proxal_gen_qp, _gen_lg) draw
 * from these streams of Philox key (seed, stream) (docs/RNG.md):
 *   FR_PROXAL_STREAM_D + i   QP: the eigenvalues D_i (i = 1..n)
 *   FR_PROXAL_STREAM_U + i   QP: the Householder vectors of U_i
 *   FR_PROXAL_STREAM_C + i   QP: C_i, e_i, then b_i (i = 0..n)
 *   FR_PROXAL_STREAM_X + i   NP/FAIR: owner i's features
 *   FR_PROXAL_STREAM_Y + i   FAIR: owner i's labels
 * and FR_PROXAL_S_MAX bounds the samples per owner. */
#define FR_PROXAL_STREAM_D ((uint64_t)1 << 32)
#define FR_PROXAL_STREAM_U ((uint64_t)2 << 32)
#define FR_PROXAL_STREAM_C ((uint64_t)3 << 32)
#define FR_PROXAL_STREAM_X ((uint64_t)4 << 32)
#define FR_PROXAL_STREAM_Y ((uint64_t)5 << 32)
#define FR_PROXAL_S_MAX ((size_t)1 << 20)

/* ==== end of the problems ================================================= */



/* ==== Algorithm 2 (inexact ADMM) =========================================== */

/* Which iterate (18) uses.  PRINTED: (18) as printed, eps~_{i,t+1} =
 * ||grad phi_{i,t}(w^{t+1}) - rho_i (w^{t+1} - u_i^t)||_inf with u_i^t the
 * PREVIOUS local iterate (what Theorem 4.1's proof needs: docs/PROXAL.md).
 * CODE: u_i^{t+1} in place of u_i^t (PL97/Constr_FL's admm.py: `up = uc`
 * aliases the array that is then overwritten). */
enum { FR_PROXAL_EPS18_PRINTED = 0, FR_PROXAL_EPS18_CODE = 1 };

typedef struct {
    double tau;                /* (0, 1]: the tolerance of (19) */
    double q;                  /* (0, 1): eps_{t+1} = q^t */
    const double *rho;         /* n penalties rho_i > 0 finite */
    unsigned long tmax;        /* iteration cap, 1 .. FR_PROXAL_TMAX */
    unsigned long newton_max;  /* Newton iterations per subproblem, 1 .. FR_PROXAL_TMAX */
    int eps18;                 /* FR_PROXAL_EPS18_* */
} fr_proxal_admm_params;
#define FR_PROXAL_TMAX 1000000ul

/* FR_OK or the first failing class of the parameters for n clients:
 * FR_ENULL (prm, rho), FR_ESIZE (n = 0 or > FR_PROXAL_N_MAX, tmax or
 * newton_max = 0 or > FR_PROXAL_TMAX), FR_ENONFINITE (tau, q, rho),
 * FR_EDOM (tau outside (0, 1], q outside (0, 1), rho_i <= 0, eps18). */
int fr_proxal_admm_check(const fr_proxal_admm_params *prm, size_t n);

/* The regulariser h of (13)/(14) for Algorithm 2 called directly
 * (ff_/fr_proxal_admm_h): kind one of FR_PROXAL_H_* (the first section),
 * gamma read for L1, lo and hi (d entries each) for BOX.  The server step
 * (14) then minimises F_0 + h + sum_i rho_i/2 ||u~_i - w||^2
 * (docs/PROXAL.md 4.5); the clients' steps (15) do not see h.
 * fr_proxal_hreg_check: FR_OK or the first failing class: FR_ENULL (H;
 * lo, hi when BOX), FR_ESIZE (d = 0 or above FR_PROXAL_D_MAX),
 * FR_ENONFINITE (gamma when L1, lo/hi when BOX: NaN or +-Inf), FR_EDOM (an
 * unknown kind, gamma < 0 (-0 is 0), some lo_k > hi_k).  The same checks
 * as fr_proxal_problem_check makes on the problem's h.
 * Checked by: tests/proxal/test_status_admm.c. */
typedef struct {
    int kind;                  /* FR_PROXAL_H_* */
    double gamma;
    const double *lo, *hi;
} fr_proxal_hreg;
int fr_proxal_hreg_check(const fr_proxal_hreg *H, size_t d);

/* ==== end of Algorithm 2 ================================================== */

/* ==== Algorithms 1 and 3 (proximal AL, federated and centralised) ========= */

/* Algorithm 1 of 004 (k = 0, 1, ..): tau_k = sbar / (k+1)^2; w^{k+1} =
 * Algorithm 2 on (9) (F_i = P_{i,k}, prm->admm with tau = tau_k) from
 * w~^0 = w^k (warm start); mu^{k+1} = [mu^k + beta c(w^{k+1})]_+ per
 * inequality row (mu + beta c per equality row, QP); stop when (8):
 * ||w^{k+1} - w^k||_inf + beta tau_k <= beta eps1 and max_i ||mu_i^{k+1} -
 * mu_i^k||_inf <= beta eps2.  Every run starts from prm->w0, prm->mu0 (no
 * state shared between runs).  Algorithm 3 (cProx-AL, Appendix C): the
 * same outer loop, with w^{k+1} found centrally: damped Newton on l_k to
 * dist_inf(0, grad l_k) <= tau_k (7).  After every outer iteration the
 * true KKT residuals of (w^{k+1}, mu^{k+1}) (Definition 1; equality rows
 * as the pair c <= 0, -c <= 0 with mu = mu+ - mu-, which gives e2_j =
 * |c_j| for either sign of mu_j) are computed, and at termination Theorem
 * 3.1 is certified: kkt1 <= eps1 and kkt2 <= eps2.  With h != 0 (l1, box)
 * the server step (14) of Algorithm 2 and Algorithm 3's subproblem solve
 * the nonsmooth problems exactly as docs/PROXAL.md 4.5 derives (w^0 must
 * lie in dom h), and every residual is taken with dh.  Algorithm 2 is called with tau = min(tau_k, 1) (its domain
 * is (0, 1]; sbar > 1 makes tau_0 > 1, and a smaller tolerance still gives
 * (7)); prm->admm.tau is not read. */
enum { FR_PROXAL_KEEP_W = 1u };     /* keep every w^k (else the output only) */
typedef struct {
    double eps1, eps2;              /* (0, 1) */
    double sbar, beta;              /* > 0 finite */
    unsigned long kmax;             /* outer iterations, 1 .. FR_PROXAL_TMAX */
    fr_proxal_admm_params admm;     /* Algorithm 1's inner solver (its tau is replaced by tau_k);
                                       Algorithm 3 reads newton_max only */
    const double *w0;               /* d entries, finite */
    const double *mu0;              /* fr_proxal_mtot entries (inequality rows >= 0), or NULL (0) */
    unsigned keep;                  /* FR_PROXAL_KEEP_* bits */
} fr_proxal_alg_params;

/* FR_OK or the first failing class over all the checks (fedref_common.h
 * order): fr_proxal_problem_check's, FR_ENULL (P, prm, w0; admm.rho for
 * Algorithm 1), FR_ESIZE (kmax; newton_max; Algorithm 1: tmax),
 * FR_ENONFINITE (eps1, eps2, sbar, beta, w0, mu0; Algorithm 1: q, rho),
 * FR_EDOM (eps1, eps2 outside (0, 1), sbar or beta <= 0 (-0 included), a
 * negative inequality multiplier (-0 is 0; equality multipliers are free),
 * h = BOX and w0 outside [lo, hi] (w^0 in dom h), unknown keep bits; Algorithm 1: the admm fields as
 * fr_proxal_admm_check except tau, which is not read).  alg3 = 1 reads
 * newton_max only of the admm fields.  When a size is bad (FR_ENULL or
 * FR_ESIZE) the arrays are not read.  Checked by:
 * tests/proxal/test_status_alg.c.  spec/proxal/alg_check.c. */
int fr_proxal_alg_check(const fr_proxal_problem *P, const fr_proxal_alg_params *prm, int alg3);

/* ==== end of Algorithms 1 and 3 =========================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_PROXAL_H */
