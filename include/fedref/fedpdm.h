/* fedref/fedpdm.h -- libfedref, module fedpdm: paper 003 (FedPDM-DP) in MPFR.  Conventions: fedref.h.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDREF_FEDPDM_H
#define FEDREF_FEDPDM_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/fedpdm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */



/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */



/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */

/* The model of 003 Sec. V-A.  X is m x n row-major (row k = x_k, class
 * k's weights), A a mini-batch of b feature rows (b x n, row-major), y
 * their labels (class indices < m).  Notation erratum E-003-25: as
 * printed X_ij = a b^T is n x m and Tr(X X_ij^T) is undefined for m != n;
 * fedref uses X_ij = b a^T (m x n), Tr(X X_ij^T) = x_{y}^T a.
 *
 * ---- the mini-batch loss (25) and its gradient -----------------------------
 * Math:      f = (1/b) sum_t ln(1 + exp(-u_t)) + beta sum_{j,l} X_jl^2/(1 + X_jl^2),
 *            u_t = x_{y_t}^T a_t;
 *            g_kl = -(1/b) sum_{t: y_t = k} sigma(-u_t) A_tl + 2 beta X_kl/(1 + X_kl^2)^2,
 *            sigma(v) = 1/(1 + e^-v).  The loss is separable over the rows
 *            x_k (docs: no class competes with another).
 * Domain:    m, n, b >= 1, m n and b n <= FR_COUNT_MAX; y_t < m; X, A
 *            finite; beta >= 0 finite; f or g may be NULL, not both.
 * Statuses:  FR_ENULL (f and g both NULL, X, A, y, beta), FR_ESIZE (m, n
 *            or b zero or too large, some y_t >= m), FR_ENONFINITE (X, A,
 *            beta), FR_EDOM (beta < 0; f inside g: two outputs), after the
 *            start FR_EPREC (an exact u_t needs more than 2^24 bits),
 *            FR_ENOMEM, FR_EINTERNAL (Ziv loop beyond 2^20 bits: only if
 *            some |u_t| > ~7e8, e^-|u| beyond MPFR's exponent range).
 * Aliasing:  g may alias X (results are formed in temporaries); nothing else.
 * Algorithm: u_t exact; f by a Ziv loop on an MPFI enclosure (f is never a
 *            dyadic number nor a midpoint: ref/fedpdm/model.c); g_kl =
 *            Q + sum_a K_a tau(a), tau(a) = 1/(1 + e^a) over the distinct
 *            |u_t| > 0 of class k, Q, K_a exact rationals (GMP): g_kl = Q
 *            rounded once if every K_a = 0, else a Ziv loop.
 * Accuracy:  correctly rounded (MPFR_RNDN), f and each g_kl.
 * Precision: that of f and of each g_kl.
 * Checked by: tests/fedpdm/test_model.c (X = 0: f = ln 2 + 0, g = -(1/2b)
 *            sum a; mpq/closed-form oracles), proofs_checks/fedpdm/
 *            check_model.c (pc_fedpdm_loss_grad: g against central
 *            differences of f at 256 bits). */
int fr_pdm_loss(mpfr_t f, mpfr_t *g, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A, const size_t *y,
                size_t b, const mpfr_t beta);

/* ---- the test rule (26) -------------------------------------------------------
 * Math:      pred_t = argmax_k x_k^T a_t (softmax (26) is increasing in
 *            x_k^T a, so it does not change the argmax); ties: the smallest
 *            k.  correct = #{t : pred_t = y_t}.
 * Domain:    as fr_pdm_loss; y may be NULL when correct is NULL (then
 *            labels are not read); pred (b entries) or correct may be
 *            NULL, not both.
 * Statuses:  FR_ENULL (pred and correct both NULL, X, A, y when correct),
 *            FR_ESIZE, FR_ENONFINITE as fr_pdm_loss; FR_EPREC (an exact
 *            x_k^T a_t beyond 2^24 bits), FR_ENOMEM.  Aliasing: none.
 * Accuracy:  exact: every x_k^T a_t is formed exactly and compared exactly.
 * Checked by: tests/fedpdm/test_model.c (ties, hand-made margins). */
int fr_pdm_predict(size_t *pred, size_t *correct, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A,
                   const size_t *y, size_t b);

/* ---- the objective (24) -------------------------------------------------------
 * Math:      F = (1/N) sum_i f_i(X; D_i) + gamma ||X||_1, f_i the loss (25) on
 *            client i's full data set (b = d_i), ||X||_1 = sum |X_jl|.  Not
 *            differentiable: value only (the prox is core's prox_l1).
 * Domain:    fr_pdm_problem_check(P); X finite (m n entries); N d_i fits an
 *            unsigned long.
 * Statuses:  FR_ENULL (F, X, P and P's), FR_ESIZE (P's), FR_ENONFINITE (P's,
 *            X), FR_EDOM (P's), after the start as fr_pdm_loss.
 * Aliasing:  none.  Algorithm: as fr_pdm_loss's f (the weights 1/(N d_i)
 *            are positive rationals: F is never dyadic nor a midpoint).
 * Accuracy:  correctly rounded.  Precision: that of F.
 * Checked by: tests/fedpdm/test_model.c (against the mean of fr_pdm_loss
 *            per client at 400 bits), vectors/fedpdm_objective.json. */
int fr_pdm_objective(mpfr_t F, mpfr_t *const X, const fr_pdm_problem *P);


/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FEDPDM_H */
