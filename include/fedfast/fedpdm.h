/* fedfast/fedpdm.h -- libfedfast, module fedpdm: paper 003 (FedPDM-DP) in binary64.  Conventions: fedfast.h.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDFAST_FEDPDM_H
#define FEDFAST_FEDPDM_H

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

/* The model of 003 Sec. V-A in binary64; same layout, notation (erratum
 * E-003-25) and formulas as fedref/fedpdm.h.
 *
 * ---- the mini-batch loss (25) and its gradient -----------------------------
 * ff_pdm_loss: f and g as fr_pdm_loss.  BLAS: u_t = x_{y_t}^T a_t by a
 *            loop of n products (only the label column of A X^T is needed:
 *            m times fewer operations than the dgemm of all of it); g by one
 *            dgemm G = C - R^T A, C_kl = 2 beta X_kl/(1 + X_kl^2)^2, R (b x m)
 *            the one-hot weighted residuals sigma(-u_t)/b.
 * ff_pdm_loss_bound: ef >= |f^ - f| and eg_kl >= |g^_kl - g_kl| for the
 *            f^, g^ ff_pdm_loss returns on the same inputs:
 *            ef = 2 gamma_K (L + Abar + beta R) + (K + 4) 2^-1070 (1 + beta),
 *              K = b + n + mn + 16, L the loss part, Abar = (1/b) sum_t a_t,
 *              a_t = sum_l |X_{y_t l} A_tl|, R = sum r(X_jl);
 *            eg_kl = 2 gamma_K' (|C_kl| + sum_{t: y_t = k} |A_tl| (sigma(-u_t)/b
 *              + a_t/(4b))) + (K' + 4) 2^-1070 (1 + beta + Abar), K' = b + n + 13
 *            (proof: fast/fedpdm/model.c; assumption (L): exp, log1p within
 *            2 ulp).
 * Domain:    as fr_pdm_loss (f/ef or g/eg may be NULL, not both).
 * Statuses:  FR_ENULL, FR_ESIZE (also a size beyond INT32_MAX: BLAS),
 *            FR_ENONFINITE, FR_EDOM as fr_pdm_loss; after the start
 *            FR_ENONFINITE (a result overflowed: not expected for |X|, |A|
 *            <= 2^400), FR_ENOMEM.  Aliasing: g may alias X.
 * Checked by: tests/fedpdm/test_model.c (against fr_pdm_loss at 53 bits,
 *            measured error <= bound). */
int ff_pdm_loss(double *f, double *g, const double *X, size_t m, size_t n, const double *A, const size_t *y,
                size_t b, double beta);
int ff_pdm_loss_bound(double *ef, double *eg, const double *X, size_t m, size_t n, const double *A,
                      const size_t *y, size_t b, double beta);

/* ---- the test rule (26) -------------------------------------------------------
 * Math:      pred_t = argmax_k fl(x_k^T a_t) (one dgemm S = A X^T), ties the
 *            smallest k; correct = #{t : pred_t = y_t}; uncertain = the
 *            number of samples whose decision is not certified: certified
 *            iff fl(S_tk* - S_tk) > (e_tk* + e_tk)(1 + 2^-50) for all k != k*,
 *            e_tk = 2 gamma_n (|A| |X|^T)_tk + n 2^-1070 (a second dgemm);
 *            a certified decision equals fr_pdm_predict's.
 * Domain:    as fr_pdm_predict; pred, correct, uncertain may be NULL, not
 *            all three.
 * Statuses:  FR_ENULL, FR_ESIZE, FR_ENONFINITE (also an overflowed
 *            product), FR_ENOMEM.  Aliasing: none.
 * Checked by: tests/fedpdm/test_model.c (against fr_pdm_predict). */
int ff_pdm_predict(size_t *pred, size_t *correct, size_t *uncertain, const double *X, size_t m, size_t n,
                   const double *A, const size_t *y, size_t b);

/* ---- the objective (24) -------------------------------------------------------
 * ff_pdm_objective: F as fr_pdm_objective, client by client (the loss part
 *            of each by the loop of ff_pdm_loss).
 * ff_pdm_objective_bound: eF >= |F^ - F|:
 *            eF = 2 gamma_K (Lbar + Abar + beta R + gamma ||X||_1)
 *                 + (K + 4) 2^-1070 (1 + beta + gamma),
 *            K = max_i d_i + N + n + mn + 20 (proof: fast/fedpdm/model.c).
 * Domain, statuses: as fr_pdm_objective (FR_ESIZE also for N or n above
 *            INT32_MAX); after the start FR_ENONFINITE (overflow), FR_ENOMEM.
 * Checked by: tests/fedpdm/test_model.c, vectors/fedpdm_objective.json. */
int ff_pdm_objective(double *F, const double *X, const fr_pdm_problem *P);
int ff_pdm_objective_bound(double *eF, const double *X, const fr_pdm_problem *P);


/* ==== end of the model ==================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_FEDPDM_H */
