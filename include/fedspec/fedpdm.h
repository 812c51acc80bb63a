/* SPDX-License-Identifier: Apache-2.0 */
/* fedspec/fedpdm.h -- the specification layer of module fedpdm (paper 003, FedPDM-DP), shared by ref and fast: integer and string logic only.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDSPEC_FEDPDM_H
#define FEDSPEC_FEDPDM_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */

/* The verdict of fr_gauss_dp_check / ff_gauss_dp_check: does the Gaussian
 * mechanism with L2 sensitivity s and noise sigma satisfy (eps, delta)-DP?
 * HOLDS and FAILS are certified (ref: by an enclosure; fast: by an
 * outward-rounded enclosure under the libm assumption of docs/ACCURACY.md);
 * UNKNOWN: the enclosure straddles delta (fast near the boundary, ref only
 * if 8192 bits do not decide).  A caller must treat UNKNOWN as FAILS. */
enum { FR_GAUSS_FAILS = -1, FR_GAUSS_UNKNOWN = 0, FR_GAUSS_HOLDS = 1 };



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */

/* The largest local step count Q accepted by fr_fedpdm_sensitivity and
 * ff_fedpdm_sensitivity (Q_i^t of (10a)-(10b)); beyond it FR_ESIZE.  It
 * keeps a^Q inside MPFR's exponent range for every binary64 a. */
#define FR_FEDPDM_Q_MAX 65536UL

/* The failure bits of fr_fedpdm_thm3 / ff_fedpdm_thm3: the conditions of
 * 003 Lemma 2 / Theorem 3 (Appendix B) and the signs of the constants they
 * define (docs/FEDPDM.md, sensitivity section). */
#define FR_FEDPDM_T3_L_LOW        0x01u  /* L < 2 sqrt 5 - 4 */
#define FR_FEDPDM_T3_L_HIGH       0x02u  /* L > rho/4 */
#define FR_FEDPDM_T3_EMPTY        0x04u  /* rho < 4 (2 sqrt 5 - 4): no admissible L */
#define FR_FEDPDM_T3_UNDEF        0x08u  /* L = 1/2: 4L - 2 = 0, B3 and B8 undefined */
#define FR_FEDPDM_T3_B2_NONPOS    0x10u  /* B2 = rho/2 - 4L^2/rho - L <= 0 (iff L >= rho/4) */
#define FR_FEDPDM_T3_B3_NONPOS    0x20u  /* B3 = 8/rho + L/(4L - 2) <= 0 */
#define FR_FEDPDM_T3_B8_NONPOS    0x40u  /* B8 = L^2/(4L - 2) + (1 + 4rho/N) 8/rho^2 <= 0 */
#define FR_FEDPDM_T3_THETA1_NONPOS 0x80u /* theta1 = min(B1..B4) <= 0 or undefined: C0 = theta2/theta1 is no bound */

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */

/* (no shared spec function: fedref/fedpdm.h and fedfast/fedpdm.h hold the
 * accountant's contracts) */

/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */

/* ---- the problem of Sec. V-A ------------------------------------------------
 * N clients; client i holds d[i] samples, stored client by client: rows
 * A[t n .. t n + n - 1] (features a_t, n per row) and labels y[t] (class
 * indices < m), t < D = sum d_i.  X (m x n, row-major) is not part of the
 * problem.  beta: the weight of the nonconvex term of (25); gamma: that of
 * ||X||_1 in (24) (the paper's experiments: beta = 1e-2, gamma = 1e-4;
 * gamma = 0 and beta = 0 are allowed). */
typedef struct {
    size_t N, m, n;     /* clients, classes, features */
    const size_t *d;    /* N sample counts, each >= 1 */
    const double *A;    /* D x n features */
    const size_t *y;    /* D labels */
    double beta, gamma;
    uint64_t seal;      /* rule 6 of fedref_common.h; zero-initialise, never write */
} fr_pdm_problem;

/* FR_OK or the first failing class: FR_ENULL (P, d, A, y), FR_ESIZE (N, m,
 * n zero; a d_i zero; D n or m n above FR_COUNT_MAX; a label >= m),
 * FR_ENONFINITE (A, beta, gamma), FR_EDOM (beta < 0, gamma < 0).  Shared by
 * both wings (fr_pdm_objective, ff_pdm_objective report it first).
 * Checked by: tests/fedpdm/test_status_model.c. */
int fr_pdm_problem_check(const fr_pdm_problem *P);

/* The seal of the problem (fedref_common.h, rule 6).
 * fr_pdm_problem_seal: fr_pdm_problem_check(P) in full; on FR_OK P->seal
 *   = the hash, else P->seal = 0 and the check's status (FR_ENULL for P
 *   NULL, nothing written).
 * fr_pdm_problem_sealed: 1 iff P != NULL, P->seal != 0 and P->seal is the
 *   hash of P's current fields; 0 otherwise (no status).
 * The hash: N, m, n, the pointers d, A, y, the total extent D = sum d_i
 *   (so a changed d_i that changes D voids the seal), beta, gamma (their
 *   bits), in this order.
 * What the seal skips (in fr_pdm_problem_check, hence in every function
 *   of both wings that checks P): only the scan of A's D n entries for
 *   NaN/Inf.  Checked on every call, sealed or not: the pointers, N, m, n,
 *   every d_i (the extents), every label y_t < m (an index), beta and
 *   gamma; every status is the same sealed or not.
 * The contract: A's contents are not changed while the seal is in use
 *   (after a change, seal again or set seal = 0); a NaN written into A
 *   after sealing is not seen until then.
 * Checked by: tests/fedpdm/test_seal.c. */
int fr_pdm_problem_seal(fr_pdm_problem *P);
int fr_pdm_problem_sealed(const fr_pdm_problem *P);

/* ---- a seeded synthetic problem (the audit's and the tests' data) ---------
 * Exact and language-independent (frng, docs/RNG.md):
 *   sizes: stream (seed, 0): d_i = dmin + below(dmax - dmin + 1), i = 0..N-1;
 *   data:  stream (seed, 1): prototypes p_kl = below(2) for k = 0..m-1,
 *          l = 1..L (L = min(n - 1, 64)), k-major; then for each sample t in
 *          order: y_t = below(m); A_t0 = 1 (a bias feature, as MNIST's 785th);
 *          A_tl = (128 p_{y_t l} + below(128)) 2^-8 for l = 1..n-1 (p = 0
 *          beyond L): pixel-like values in [0, 1) whose mean depends on the
 *          class.
 * fr_pdm_synth_sizes: FR_ENULL (d), FR_ESIZE (N == 0 or N > FR_COUNT_MAX),
 *   FR_EDOM unless 1 <= dmin <= dmax.
 * fr_pdm_synth_data: FR_ENULL (d, A, y), FR_ESIZE (N, m or n zero, n above
 *   4096 or m above 256, a d_i zero, D n above FR_COUNT_MAX), FR_EDOM (A and y
 *   overlap: two outputs).
 * Checked by: tests/fedpdm/test_model.c (the draw order re-done with frng
 *            calls), tests/fedpdm/test_status_model.c. */
int fr_pdm_synth_sizes(uint64_t seed, size_t N, size_t dmin, size_t dmax, size_t *d);
int fr_pdm_synth_data(uint64_t seed, size_t N, size_t m, size_t n, const size_t *d, double *A, size_t *y);

/* ==== end of the model ==================================================== */

/* ==== Algorithm 1 (FedPDM-DP), end to end: (9)-(13), (21) ================
 * docs/FEDPDM.md section 5 is normative.  Notation: D = m n (the model X,
 * row-major, as the model section); client i's local model x_i, multiplier
 * lambda_i, last upload yt_i (all D entries); the global model x_0.
 *
 * Initialisation (Algorithm 1, line 2): x_0^0 = prm->x0 (NULL: 0),
 * x_i^0 = x_0^0, lambda_i^0 = 0, yt_i = x_0^0 for every i; S_0 = [N].
 * Round t = 0 .. T-1:
 *   S_t: t = 0: all N clients; t >= 1: one frng_sample(N, K) from stream
 *     (seed, FR_PDM_STREAM_SELECT) (line 20: drawn after round t-1), the
 *     set of its K indices.
 *   every i in S_t, in increasing i (line 5-16):
 *     x^{t,0} = x_i^t (start XI) or x_0^t (start X0): the paper does not
 *       say (x_i^{t,0} is defined for t = 0 only: E-003-Q0);
 *     for r = 0 .. Qmax-1:  B = frng_sample(d_i, b) from stream (seed,
 *       FR_PDM_STREAM_BATCH + i) (indices local to client i; b distinct
 *       samples, a fresh draw every step: "without replacement" read as
 *       within the batch);
 *       g = the gradient of (25) on B at x^{t,r} (fr_pdm_loss with b rows),
 *         clipped when prm->clip: g <- g min(1, G / ||g||) (fedref's
 *         extension: it makes Assumption 3 true by construction);
 *       v = g - lambda_i^t + rho (x^{t,r} - x_0^t);
 *       x^{t,r+1} = x^{t,r} - eta^t v                                 (10a)
 *       rule 11: stop with Q_i^t = r + 1 when ||v||^2 <= nu           (11)
 *       (v is the vector of (11) at x^{t,r}, B^{t,r}: the same one the
 *       step used); rule FIXED never stops early.  Q_i^t = Qmax when the
 *       loop runs out (rule 11: "capped", recorded);
 *     x_i^{t+1} = x^{t,Q}                                             (10b)
 *     lambda_i^{t+1} = lambda_i^t + rho (x_0^t - x_i^{t+1})           (10c)
 *     y = x_i^{t+1} - lambda_i^{t+1} / rho                            (10d)
 *     yt_i = y + sigma_{i,t} xi, xi ~ N(0, I_D): ceil(D/2) Box-Muller
 *       pairs from stream (seed, FR_PDM_STREAM_NOISE + i), entries 2j, 2j+1
 *       from pair j (the last z1 unused when D is odd); sigma_{i,t} = 0
 *       draws nothing                                                 (12)
 *       NOISE_NONE: sigma = 0; NOISE_PAPER: sigma^2 = (18) with s =
 *       (19)(eta^t, rho, Q_i^t, G), rounded up (fr_gauss_sigma2_classical /
 *       ff_gauss_sigma2_classical_upper, then sqrt rounded up);
 *       NOISE_GIVEN: sigma_{i,t} = prm->sigma[t].
 *   clients not in S_t keep x_i, lambda_i, yt_i.
 *   server (line 19): u = (1/N) sum_{i in [N]} yt_i (SERVER_ALL: the
 *     argmin of (8c) for (9a), E-003-P1), (1/|S_t|) sum_{i in S_t} yt_i
 *     (SERVER_PART: the participants' mean, (13) with K read as |S_t|) or
 *     (1/K) sum_{i in S_t} yt_i (SERVER_13_AS_PRINTED: (13) as printed; with
 *     S_0 = [N], N/K times the mean at t = 0, E-003-13); x_0^{t+1} =
 *     prox_{rho h}(u) = soft(u, gamma / rho) (fr_prox_l1's convention,
 *     E-003-A1).
 * The stationarity measure (21) at state t (x_i^t, x_0^t, lambda_i^t),
 * with the 1/N of (9a) and f_j client j's loss (25) on its whole data:
 *   Px   = sum_j || (1/N) (grad f_j(x_j) - lambda_j - rho (x_0 - x_j)) ||^2
 *   Plam = sum_j || (1/N) (x_0 - x_j) ||^2
 *   Px0  = dist(0, d_{x0} L)^2, c = (1/N) sum_j (lambda_j + rho (x_0 - x_j)):
 *          per entry (c + gamma sgn x_0k)^2 if x_0k != 0, else
 *          max(0, |c| - gamma)^2 (h = gamma ||.||_1 is not differentiable:
 *          the least-norm subgradient, E-003-21)
 *   P = Px + Plam + Px0.
 * Px0 at state t + 1 certifies the server step: it is 0 iff x_0^{t+1} is
 * the argmin of (8c) over all N clients (SERVER_ALL without noise, and round
 * 0 for SERVER_ALL and SERVER_PART), and > 0 for SERVER_PART with K < N when
 * the stale uploads differ (E-003-P1). */

enum fr_pdm_rule   { FR_PDM_RULE_11 = 0, FR_PDM_RULE_FIXED = 1 };
enum fr_pdm_start  { FR_PDM_START_XI = 0, FR_PDM_START_X0 = 1 };
enum fr_pdm_server { FR_PDM_SERVER_ALL = 0, FR_PDM_SERVER_PART = 1, FR_PDM_SERVER_13_AS_PRINTED = 2 };
enum fr_pdm_noise  { FR_PDM_NOISE_NONE = 0, FR_PDM_NOISE_PAPER = 1, FR_PDM_NOISE_GIVEN = 2 };

/* What a trace keeps besides the per-(round, client) records (bits of keep). */
enum fr_pdm_keep {
    FR_PDM_KEEP_X0 = 1u,     /* every x_0^t, t = 0..T (else x_0^T only) */
    FR_PDM_KEEP_DRAWS = 2u,  /* every mini-batch index drawn */
    FR_PDM_KEEP_P = 4u,      /* (21) and its parts at every state t = 0..T (else NaN) */
    FR_PDM_KEEP_F = 8u       /* (24) at x_0^t, t = 0..T (else NaN) */
};

typedef struct {
    unsigned long T;     /* rounds t = 0 .. T-1, 1 <= T <= FR_PDM_T_MAX */
    size_t K;            /* |S_t| for t >= 1: 1 <= K <= N (S_0 = [N]) */
    size_t b;            /* mini-batch: 1 <= b <= min d_i */
    unsigned long Qmax;  /* the inner loop's cap: 1 <= Qmax <= FR_FEDPDM_Q_MAX */
    int rule;            /* enum fr_pdm_rule */
    double nu;           /* (11): >= 0 finite (rule 11) */
    double rho;          /* > 0 finite */
    const double *eta;   /* T stepsizes eta^t > 0 finite (fr_pdm_eta_paper: 003's) */
    int start;           /* enum fr_pdm_start */
    int server;          /* enum fr_pdm_server */
    int noise;           /* enum fr_pdm_noise */
    double eps, delta;   /* NOISE_PAPER: (18)'s eps > 0, 0 < delta < 1 */
    double G;            /* NOISE_PAPER and clip: > 0 finite (Assumption 3) */
    const double *sigma; /* NOISE_GIVEN: T scales >= 0 finite */
    int clip;            /* nonzero: clip every mini-batch gradient to norm G */
    const double *x0;    /* x_0^0 (D entries, finite) or NULL (0) */
    uint64_t seed;       /* key word 0 of the run's streams (docs/RNG.md 3.10) */
    unsigned keep;       /* enum fr_pdm_keep bits */
} fr_pdm_params;

#define FR_PDM_T_MAX 100000ul
/* Stream numbers keyed by prm->seed (docs/RNG.md 3.10). */
#define FR_PDM_STREAM_SELECT 1u
#define FR_PDM_STREAM_BATCH  2u                     /* + i */
#define FR_PDM_STREAM_NOISE  ((uint64_t)1 << 32)   /* + i */

/* The argument check of a run, FR_OK or the first failing class:
 *   FR_ENULL      P (and fr_pdm_problem_check's), prm, prm->eta,
 *                 prm->sigma (NOISE_GIVEN);
 *   FR_ESIZE      fr_pdm_problem_check's; T = 0 or > FR_PDM_T_MAX; K = 0
 *                 or K > N; b = 0 or b > min d_i; Qmax = 0 or >
 *                 FR_FEDPDM_Q_MAX;
 *   FR_ENONFINITE fr_pdm_problem_check's; x0, eta, rho, nu (rule 11),
 *                 eps, delta, G (NOISE_PAPER; G also under clip), sigma
 *                 (NOISE_GIVEN);
 *   FR_EDOM       fr_pdm_problem_check's; an unknown rule, start, server,
 *                 noise or keep bit; rho <= 0; an eta^t <= 0; nu < 0;
 *                 eps <= 0, delta outside (0, 1) (NOISE_PAPER); G <= 0
 *                 (NOISE_PAPER or clip); a sigma[t] < 0 (NOISE_GIVEN).
 * Checked by: tests/fedpdm/test_status_run.c. */
int fr_pdm_run_check(const fr_pdm_problem *P, const fr_pdm_params *prm);

/* 003's schedule eta^t = eta0 / sqrt(1 + t), t = 0 .. T-1, in binary64:
 * eta[t] = fl(eta0 / fl(sqrt(t + 1))) (IEEE sqrt and division, correctly
 * rounded: the same numbers in every language).  FR_ENULL (eta), FR_ESIZE
 * (T = 0 or > FR_PDM_T_MAX), FR_ENONFINITE (eta0), FR_EDOM (eta0 <= 0). */
int fr_pdm_eta_paper(double *eta, unsigned long T, double eta0);

/* ==== end of Algorithm 1 ================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_FEDPDM_H */
