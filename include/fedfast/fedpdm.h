/* SPDX-License-Identifier: Apache-2.0 */
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

/* Math, Domain, Statuses: as fr_gauss_sigma2_classical, fr_gauss_sigma_analytic,
 *            fr_gauss_dp_check (fedref/fedpdm.h), same order, no FR_EPREC,
 *            no FR_EINTERNAL (ff_gauss_sigma_analytic_upper: +Inf when no
 *            binary64 <= DBL_MAX is certified, e.g. sigma* > DBL_MAX; ref
 *            then returns its finite value).  Outputs untouched on error.  Aliasing:
 *            none (scalar outputs).  The guarantees below assume exp, log,
 *            erfc within 2 ulp (docs/ACCURACY.md); derivation in
 *            fast/fedpdm/gauss.c.
 * ff_gauss_sigma2_classical_upper: sigma2 >= the exact (5) (subnormal or
 *            underflowing results: >= and within 2^-1073; +Inf beyond
 *            DBL_MAX).  Accuracy: ff_gauss_sigma2_classical_upper_bound:
 *            0 <= sigma2 - exact <= rel exact + abs, rel = 2^-47, abs = 2^-1073
 *            (proved: m (1 + 46u)).
 * ff_gauss_sigma_analytic_upper: a binary64 search on a point estimate of
 *            delta_eps, then stepped up (geometrically) until an
 *            outward-rounded enclosure of delta_eps(sigma) or of its
 *            logarithm (both terms subnormal: delta down to 2^-1074) is
 *            <= delta: the result is >= sigma* (never below the true value).  Accuracy
 *            EMPIRICAL (no proof): within 2^-26 relative of sigma* for
 *            normal delta (>= 2^-1022) on the vectors, the tests and the audit
 *            (vectors/gauss_sigma_analytic.json tol); subnormal delta: the
 *            absolute rounding of the enclosure dominates (4.4e-7 relative
 *            measured at delta = 4e-320), still never below sigma*.
 * ff_gauss_dp_check: verdict HOLDS only when the outward enclosure of
 *            delta_eps(sigma) is <= delta (never a wrong HOLDS), FAILS only
 *            when it is > delta, else UNKNOWN; mlo <= delta - delta_eps(sigma)
 *            <= mhi. */
int ff_gauss_sigma2_classical_upper(double *sigma2, double eps, double delta, double s);
int ff_gauss_sigma2_classical_upper_bound(double *rel, double *abs, double eps, double delta,
                                          double s);
int ff_gauss_sigma_analytic_upper(double *sigma, double eps, double delta, double s);
int ff_gauss_dp_check(int *verdict, double *mlo, double *mhi, double eps, double delta, double s,
                      double sigma);



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */

/* ff_fedpdm_sensitivity: an upper bound of the sensitivity (19),
 * s = 4 eta G S_Q(a), a = |1 - eta rho|, S_Q(a) = sum_{r<Q} a^r
 * (definitions, domain and statuses as fr_fedpdm_sensitivity, without
 * FR_EPREC/FR_ENOMEM), plus FR_ENONFINITE when the upper bound overflows
 * binary64 (large Q with eta rho > 2; fedref_common.h: libfedfast
 * overflow), *s untouched.
 * Method (no 0/0, no cancellation): a is formed from eta rho = p + e (p =
 *   fl(eta rho), e = fma(eta, rho, -p) exact) by TwoSum as a
 *   double-double within 4u^2 a (u = 2^-53); S_Q(a) by Horner's rule in
 *   double-double (error-free products and sums; within (16Q + 16)u^2);
 *   the product 4 eta G S likewise, then rounded upward with that margin:
 *   *s >= the exact value and at most about one ulp above it (eta rho = 2
 *   exactly gives 4 eta Q G exactly when that is a binary64).
 * Aliasing: none (scalars).
 * Accuracy: ff_fedpdm_sensitivity_bound.  fast/fedpdm/sens.c. */
int ff_fedpdm_sensitivity(double *s, double eta, double rho, unsigned long Q, double G);
/* 0 <= *s - exact <= rel exact + abs with rel = 2^-51 + (64Q + 64)
 * 2^-106 and abs = 0 (proof in fast/fedpdm/sens.c); when eta G < 2^-960
 * (near underflow) rel = 2^-50 and abs = 2^-1070 (S_up + 1), S_up >= S_Q(a)
 * the double-double sum rounded up.  Same checks and statuses as
 * ff_fedpdm_sensitivity (FR_ENONFINITE also when S_up overflows).
 * fast/fedpdm/sens.c. */
int ff_fedpdm_sensitivity_bound(double *rel, double *abs, double eta, double rho, unsigned long Q,
                                double G);

/* The constants of 003 Lemma 2 / Theorem 3 in binary64 (definitions as
 * fr_fedpdm_thm3_consts, fedref/fedpdm.h). */
typedef struct {
    double b[8];
    double theta1, theta2, C0;
    unsigned fail;
} ff_fedpdm_thm3_consts;

/* ff_fedpdm_thm3: definitions, domain and statuses as fr_fedpdm_thm3
 * (without FR_ENOMEM).  The b_k are evaluated in binary64 as printed (B2
 * = rho/2 - 4L^2/rho - L; 0 exactly at L = rho/4 when 4L^2/rho and rho/2
 * are exact, otherwise within its bound).  L_LOW, L_HIGH, EMPTY, UNDEF and
 * B2_NONPOS are decided exactly (L < 2 sqrt 5 - 4 iff L <= RD(2 sqrt 5 - 4)
 * = 0x1.e3779b97f4a7cp-2, 4L and rho/4 exact); B3/B8/THETA1_NONPOS are
 * conservative: set unless the computed b_k exceeds its error bound
 * (ff_fedpdm_thm3_bound), so every bit ref sets is set here (the safe side
 * for a validator), and an extra bit only when |b_k| <= its bound.  Under
 * UNDEF b[2], b[7], theta1, theta2, C0 are NaN; theta1 = 0 gives C0 = +Inf; an
 * overflowing b_k gives FR_ENONFINITE, *out untouched.
 * Aliasing: none.  fast/fedpdm/thm3.c. */
int ff_fedpdm_thm3(ff_fedpdm_thm3_consts *out, double L, double rho, unsigned long N);
/* berr[k] >= |b[k] - B_{k+1}| for the values ff_fedpdm_thm3 returns:
 * 16u M_k (u = 2^-53), M_k the sum of the magnitudes of B_{k+1}'s terms
 * (at most 6 roundings per term, 2 per sum: <= 8u M_k), computed with a
 * final upward step; 0 for b[4] = 2; NaN for b[2], b[7] under UNDEF.  Same
 * checks and statuses, and FR_EDOM outside its range L, rho in [2^-300,
 * 2^300], N <= 2^53 (no underflow, N exact), where ff_fedpdm_thm3's
 * conservative flags are not claimed.  fast/fedpdm/thm3.c. */
int ff_fedpdm_thm3_bound(double berr[8], double L, double rho, unsigned long N);

/* ff_fedpdm_path_sens: fr_fedpdm_path_sens (fedref/fedpdm.h) in binary64:
 * every s[t] >= the recursion's exact value (the (19) terms by
 * ff_fedpdm_sensitivity, B_t = (1 - eta rho)^Q enclosed, each operation of
 * the recursion rounded upward by nextafter), under the libm assumption of
 * docs/ACCURACY.md; FR_ENONFINITE when a bound overflows (s untouched: a
 * first pass checks, a second writes).  Same domain and statuses (no
 * FR_ENOMEM).  Aliasing: s may be eta.  Accuracy: not proved tight.
 * B_t is also formed in double-double (relative error <= (Q + 64) 2^-100
 * while its values stay in [2^-800, 2^800]) and the smaller of the two
 * upper bounds of |B_t|, |1 - B_t|, |1 - 2B_t| is used, so the cancellation
 * in |1 - 2B_t| near B_t = 1/2 costs about 2^-94 Lb_t absolute; measured: 2e-14
 * relative at T = 300 on the paper's schedule (audit), 1.8e-13 at worst on
 * 20000 random schedules with T <= 25; the vector's tol is 2^-30
 * (empirical).  fast/fedpdm/sens_path.c. */
int ff_fedpdm_path_sens(double *s, const double *eta, unsigned long T, double rho, unsigned long Q,
                        double G, int start);

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */

/* The binary64 accountant: the same quantities, domains and statuses as
 * fr_fedpdm_gauss_eps, fr_fedpdm_compose, fr_fedpdm_rdp, fr_fedpdm_rdp_order,
 * fr_fedpdm_thm2
 * (fedref/fedpdm.h), the same neighbouring relation (one client's data
 * replaced) and observers (K = N: no amplification, against the server
 * and every observer; K < N: the stateless K-of-N subsampled Gaussian,
 * against an observer of the broadcasts only, NOT a bound for Algorithm 1,
 * whose clients keep state: docs/FEDPDM.md 3.6), each returned epsilon an
 * UPPER BOUND by outward
 * rounding factors: every computed q is replaced by q + |q| r + 2^-1060
 * (or q - |q| r - 2^-1060) in the direction that raises the result, r =
 * 2^-50 after + - * / sqrt, r = 2^-40 after exp, expm1, log, log1p, erfc.
 * Assumption (libm): those five functions are within 2^-40 relative error
 * (2^-1060 absolute in the subnormal range); glibc documents a few ulps.
 * No FR_EINTERNAL: where no finite bracket below 2^1000 is found, eps =
 * +Inf (a valid upper bound); so also ff_fedpdm_compose's basic (adv)
 * where delta/T (delta/(2T)) is below DBL_MIN, where ref is finite
 * (tests/fedpdm/test_acct.c compose_fast_tiny_delta).  ff_fedpdm_gauss_eps decides delta(e) <=
 * delta on an enclosure with the second term e^e Phi(-z) in log space (no
 * underflow of Phi(-z) at large eps) and on its complement 1 - delta(e) =
 * Phi(-x1) + e^e Phi(-z) (no loss at delta near 1), bisects to a relative
 * width 2^-46 and returns the certified end hi: within 2^-26 relative plus
 * 2^-36 absolute of ref (EMPIRICAL; the absolute part is the 2^-40 libm
 * margin near eps = 0: 3.4e-12 measured at sigma = 8, s = 1, delta one ulp
 * above delta(0)), never below it; ff_fedpdm_rdp's alpha is
 * its own arg-min (may differ from ref's where two orders tie within the
 * rounding).  Checked by: tests/fedpdm/test_acct.c (fast >= ref, within
 * 2^-30 relative; ff_fedpdm_gauss_eps within 2^-26 + 2^-36 absolute,
 * extreme inputs gauss_eps_extreme, gauss_eps_fast_accuracy; measured 3.0e-9 >
 * 2^-30 on the audit's sweep), cli/fedpdm/audit_acct.c, the vectors
 * fedpdm_gauss_eps (rel 2^-26), fedpdm_compose (2^-28, abs 2^-1050),
 * fedpdm_rdp, fedpdm_rdp_rounds (2^-30), fedpdm_thm2 (2^-45). */
int ff_fedpdm_gauss_eps(double *eps, double sigma, double s, double delta);
int ff_fedpdm_compose(double *basic, double *adv, double sigma, double s, unsigned long T,
                      double delta);
int ff_fedpdm_rdp(double *eps, unsigned long *alpha, double sigma, double s, unsigned long K,
                  unsigned long N, unsigned long T, double delta, unsigned long alpha_max);
int ff_fedpdm_rdp_order(double *e, double sigma, double s, unsigned long K, unsigned long N,
                        unsigned long alpha);
int ff_fedpdm_thm2(double *eps_bar, double c0, double eps, unsigned long K, unsigned long N,
                   unsigned long T, double q);

/* ff_fedpdm_rdp_rounds: fr_fedpdm_rdp_rounds in binary64, an upper bound
 * under the same assumptions as ff_fedpdm_rdp; same domain and statuses
 * (FR_ENOMEM if its workspace cannot be allocated). */
int ff_fedpdm_rdp_rounds(double *eps, unsigned long *alpha, const double *sigma, const double *s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         double delta, unsigned long alpha_max);

/* ff_fedpdm_rdp_rounds_improved: fr_fedpdm_rdp_rounds_improved in
 * binary64, an upper bound (never below ref) under the assumptions of
 * ff_fedpdm_rdp; same domain and statuses. */
int ff_fedpdm_rdp_rounds_improved(double *eps, unsigned long *alpha, const double *sigma, const double *s,
                                  unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                                  double delta, unsigned long alpha_max);

/* ff_fedpdm_pld_rounds: fr_fedpdm_pld_rounds in binary64: the same
 * construction and grid rule, every quantity widened by the outward
 * factors above (the libm assumption), the FFT's error by Higham 2002 Thm
 * 24.2 with u = 2^-53 and the twiddle error 2^-39.  eps an upper bound,
 * eps_lower a lower bound, under that assumption; eps never below ref's
 * (EMPIRICAL: both build the same grid; checked at the settings of
 * tests/fedpdm/test_pld.c).  Same domain and statuses (eps_lower may be
 * NULL). */
int ff_fedpdm_pld_rounds(double *eps, double *eps_lower, const double *sigma, const double *s, unsigned long T,
                         unsigned long first, unsigned long K, unsigned long N, double delta);

/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */

/* The model of 003 Sec. V-A in binary64; same layout, notation (erratum
 * E-003-25) and formulas as fedref/fedpdm.h.
 *
 * ---- the mini-batch loss (25) and its gradient -----------------------------
 * ff_pdm_loss: f and g as fr_pdm_loss.  BLAS level 1, one pass over the
 *            batch: per sample u_t = x_{y_t}^T a_t (ddot: only the label
 *            column of A X^T is needed) then G_{y_t} -= (sigma(-u_t)/b) a_t
 *            (daxpy), from G = C, C_kl = 2 beta X_kl/(1 + X_kl^2)^2: the
 *            one-hot product R^T A without the dgemm's m-fold work and
 *            second pass over A.
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
 *            A sealed P (fr_pdm_problem_seal) is not re-scanned for NaN/Inf:
 *            the check is O(N + D + m n) (sizes, labels, X).
 * Checked by: tests/fedpdm/test_model.c, vectors/fedpdm_objective.json,
 *            tests/fedpdm/test_seal.c. */
int ff_pdm_objective(double *F, const double *X, const fr_pdm_problem *P);
int ff_pdm_objective_bound(double *eF, const double *X, const fr_pdm_problem *P);


/* ==== end of the model ==================================================== */

/* ==== Algorithm 1 (FedPDM-DP), end to end: (9)-(13), (21) ================
 * ff_pdm_run: fr_pdm_run (fedref/fedpdm.h) in binary64, the same records in
 * a trace of doubles, the same draws and statuses (no FR_EPREC).  The local
 * gradient on a mini-batch uses the one-hot structure of (25): per sample
 * one ddot (u_t, the label row of X) and one daxpy (into the label row of
 * g), 2 b n flops instead of the 2 b m n of a one-hot dgemm (measured 1.4x
 * faster per round at the paper's shapes); (21) and (24) of a state take
 * one such pass over each client's contiguous rows (F: ff_pdm_objective's
 * formula, not its bits); the O(D) passes in vectorised blocks of 8.  The
 * draws replay frng_sample on a preallocated identity; the workspace is
 * allocated once in ff_pdm_run before round 0, never inside the round
 * loop.  The clip multiplies by fl(G / fl(||g||)): ||g|| <= G within a few
 * ulps (ref: exactly).  Noise by ff_rng_gaussian2;
 * NOISE_PAPER's sigma by ff_fedpdm_sensitivity and
 * ff_gauss_sigma2_classical_upper, then sqrt rounded up (never below the
 * exact (18) of (19)).  No error bound on a trajectory: the audit reports
 * fast's drift from ref, the vectors' tolerance is empirical, and Q_i^t may
 * differ from ref's where a ||v||^2 is within rounding of nu (the audit
 * counts such rounds).
 * Sealed problems (fr_pdm_problem_seal, rule 6 of fedref_common.h):
 * ff_pdm_trace_init and ff_pdm_run check P once per call without the scan
 * of A (sizes and labels always), the rounds never re-check it.
 * Checked by: vectors/fedpdm_run_*.json, the audit (section fedpdm_runs),
 *            tests/fedpdm/test_run_fast.c, tests/fedpdm/test_seal.c. */
typedef struct {
    size_t T, N, D, ndmax;
    unsigned keep;
    size_t rounds, nd;
    double *x0, *x, *lam;
    double *P, *Px, *Plam, *Px0, *F;
    double *sigma, *stop2;
    unsigned char *part, *capped;
    unsigned long *Q;
    size_t *draws;
} ff_pdm_trace;
int ff_pdm_trace_init(ff_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm);
void ff_pdm_trace_clear(ff_pdm_trace *t);
int ff_pdm_run(ff_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm);

/* ==== end of Algorithm 1 ================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_FEDPDM_H */
