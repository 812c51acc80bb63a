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
} fr_pdm_problem;

/* FR_OK or the first failing class: FR_ENULL (P, d, A, y), FR_ESIZE (N, m,
 * n zero; a d_i zero; D n or m n above FR_COUNT_MAX; a label >= m),
 * FR_ENONFINITE (A, beta, gamma), FR_EDOM (beta < 0, gamma < 0).  Shared by
 * both wings (fr_pdm_objective, ff_pdm_objective report it first).
 * Checked by: tests/fedpdm/test_status_model.c. */
int fr_pdm_problem_check(const fr_pdm_problem *P);

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

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_FEDPDM_H */
