/* SPDX-License-Identifier: Apache-2.0 */
/* fedfast/fedepm.h -- libfedfast, module fedepm: paper 002 (FedEPM, SFedAvg,
 * SFedProx) in binary64.  Conventions: fedfast.h. */
#ifndef FEDFAST_FEDEPM_H
#define FEDFAST_FEDEPM_H

#include "fedref_common.h"
#include "fedspec/fedepm.h"

#ifdef __cplusplus
extern "C" {
#endif
/* ======================================================================
 * FedEPM (002): model, client step, Laplace mechanism, exact penalty,
 * stopping rule and algorithms; definitions and domains as in fedref.h.
 * Each accuracy statement is against the exact result of the binary64
 * inputs; the bounds are proved in the source files.
 * Notation: u = 2^-53, gamma_k = k u / (1 - k u).  Assumption (L): libm
 * exp, expm1, log, log1p and pow are within 2 ulp (glibc documents <= 1
 * ulp).  The
 * bounds assume no overflow (sufficient conditions stated per function);
 * the absolute terms 2^-10xx cover underflow.
 * ====================================================================== */

/* Logistic loss and gradient (Sec. VII-A).  Stable for every finite
 * <x, w> (ln(1+e^u) - b u = softplus((1-2b) u) with log1p/exp on -|u|,
 * sigma without overflow); BLAS dgemv for X_i w and X_i^T r, over row
 * blocks of about 512 KiB so that X is read from memory once, with one exp
 * per sample; the checks of X run block by block in the same pass, and the
 * outputs are written only after all checks passed.  fi or gi may
 * be NULL, not both; aliasing: gi (g) may alias w (the same array), nothing
 * else.  Statuses as fr_logreg_fi / fr_logreg_f: FR_ENULL (fi and gi both
 * NULL, w, P or its arrays), FR_ESIZE (P's sizes, i >= m), FR_ENONFINITE
 * (P's X, b, beta; w), FR_EDOM (P's beta, labels; fi inside gi), FR_ENOMEM.
 * On a sealed P (fr_logreg_seal, fedspec/fedepm.h) the scans of X and b
 * are skipped: a call costs O(m + n) checks and one read of X_i.
 * Accuracy: ff_logreg_fi_bound, ff_logreg_f_bound.  No overflow if
 * |x_tj|, |w_j| <= 2^400 and
 * n, d_i <= 2^100; beyond, +-Inf is possible. */
int ff_logreg_fi(double *fi, double *gi, const fr_logreg *P, size_t i, const double *w);
int ff_logreg_f(double *f, double *g, const fr_logreg *P, const double *w);
/* Accuracy of ff_logreg_fi / ff_logreg_f (same inputs and checks; fb or gb
 * may be NULL, not both; also FR_EDOM if some |x_tj| or |w_j| > 2^400 and
 * FR_ESIZE if K + 1 > 2^26, outside the proof): absolute upper bounds
 * |fi - f_i| <= fb and |gi_j - g_ij| <= gb[j], evaluated in binary64 over
 * the d = d_i rows of client i, K = d_i + n + 13, as
 *   a_t  = sum_l |x_tl w_l|,  k = (K + 1) 2^-53,
 *   sf   = (1/d) sum_t (2 a_t + ln 2) + beta ||w||^2,
 *   sg_j = (1/d) sum_t |x_tj| (1 + a_t) + beta |w_j|,
 *   Ab   = 2^-1067 (1 + n beta + max_j (1/d) sum_t |x_tj|),
 *   fb   = k sf (1 + 2^-40) + Ab,   gb[j] = k sg_j (1 + 2^-40) + Ab;
 * for ff_logreg_f_bound, sf, sg_j and Ab are summed over the clients and
 * K = max_i d_i + n + 13 + m.  The proof (fast/fedepm/logreg.c), with
 * A_i = (1/d_i) sum_t a_t and r_t = sigma(<x_t, w>) - b_t, gives
 *   |fi - f_i|    <= gamma_{K_i} (f_i + A_i) + 2^-1068 (1 + n beta),
 *   |gi_j - g_ij| <= gamma_{K_i} E_ij + 2^-1068 (1 + (1/d_i) sum_t |x_tj|),
 *   E_ij = (1/d_i) sum_t |x_tj| (|r_t| + a_t) + beta |w_j|,
 * (for the sums gamma_{K+m} and the m absolute terms added), and
 * sf >= f_i + A_i, sg_j >= E_ij. */
int ff_logreg_fi_bound(double *fb, double *gb, const fr_logreg *P, size_t i, const double *w);
int ff_logreg_f_bound(double *fb, double *gb, const fr_logreg *P, const double *w);

/* mu_{i,k+1} of (20), alpha^kp1 with exact exponents for every kp1, when
 * no step overflows or underflows (beyond: +Inf, FR_OK).  c = 0 (fedref's
 * extension, as fr_fedepm_mu) gives mu0 alpha^kp1.  Accuracy:
 * ff_fedepm_mu_bound.  Statuses: FR_ENULL (mu, wik, w), FR_ESIZE (n == 0 or
 * n > FR_COUNT_MAX), FR_ENONFINITE (mu0, c, alpha, wik, w), FR_EDOM
 * (mu0 <= 0, c < 0, alpha <= 1).  Aliasing: none. */
int ff_fedepm_mu(double *mu, double mu0, double c, double alpha, unsigned long kp1,
                 const double *wik, const double *w, size_t n);
/* Accuracy of ff_fedepm_mu (same inputs and checks; FR_ESIZE also for
 * n > 2^26 - 15): |mu^ - mu| <= rel mu with rel = (n + 15) 2^-53 >=
 * gamma_{n+14}, provided no step of ff_fedepm_mu overflows or underflows
 * (not checked: the caller's condition).  fast/fedepm/fedepm_step.c. */
int ff_fedepm_mu_bound(double *rel, double mu0, double c, double alpha, unsigned long kp1,
                       const double *wik, const double *w, size_t n);

/* The client update (20).  Aliasing: wnext may alias wi (not w or g).
 * Statuses: FR_ENULL (wnext, wi, w, g), FR_ESIZE (n == 0 or n >
 * FR_COUNT_MAX), FR_ENONFINITE (lambda, eta, mu, wi, w, g), FR_EDOM
 * (lambda, eta or mu <= 0).  Accuracy: ff_fedepm_step_bound; a computed
 * |wt_j| <= lambda gives wnext_j = w_j exactly. */
int ff_fedepm_step(double *wnext, const double *wi, const double *w, const double *g,
                   size_t n, double lambda, double eta, double mu);
/* Accuracy of ff_fedepm_step (same inputs and checks; FR_EDOM also when
 * eta + mu overflows, outside the proof): absolute upper bounds abs[0..n-1],
 *   |wnext^_j - wnext_j| <= abs_j = 8 eps (|w_j| + (mu |wi_j - w_j| + |g_j|
 *                                   + lambda)/(eta + mu)) + 2^-1072 (1 + 1/(eta + mu)),
 * eps = 2^-53, evaluated in binary64 (proved: gamma_7 (|w_j| + (mu |wi_j - w_j|
 * + |g_j|)/(eta + mu)) + 2^-1075 (1 + 6 eps)(1 + 1/(eta + mu)); the lambda
 * term makes it hold for any few-rounding evaluation of (20)).
 * fast/fedepm/fedepm_step.c. */
int ff_fedepm_step_bound(double *abs, const double *wi, const double *w, const double *g,
                         size_t n, double lambda, double eta, double mu);

/* Laplace scales (27), (39), rounded up; the density (25).
 * ff_laplace_scale_upper: nu = RU(Delta/(eps mu)), the least binary64 >=
 *   the exact value (so exact <= nu < exact + ulp; +Inf iff exact > DBL_MAX).
 * ff_laplace_scale_eq39_upper: exact <= nu (exact = 2 ||g||_1/(eps mu));
 *   g = 0 gives +0; +Inf only when exact (1 + gamma_{3n+10}) > DBL_MAX.
 * ff_laplace_density: printed: exp(-|x|/(2 nu))/(2 nu); standard:
 *   exp(-|x|/nu)/(2 nu).
 * Accuracy: the _bound functions below (same inputs and checks each).
 * Statuses: scale_upper: FR_ENULL (nu), FR_ENONFINITE (Delta, eps, mu),
 * FR_EDOM (one <= 0); eq39_upper: FR_ENULL (nu, g), FR_ESIZE (n == 0 or
 * n > FR_COUNT_MAX), FR_ENONFINITE (eps, mu, g), FR_EDOM (eps or mu <= 0);
 * density: FR_ENULL (p), FR_ENONFINITE (x, nu), FR_EDOM (nu <= 0).  They
 * match fr_laplace_scale(..., MPFR_RNDU), fr_laplace_scale_eq39(...,
 * MPFR_RNDU) and fr_laplace_density.  Aliasing: none. */
int ff_laplace_scale_upper(double *nu, double Delta, double eps, double mu);
int ff_laplace_scale_eq39_upper(double *nu, const double *g, size_t n, double eps, double mu);
int ff_laplace_density(double *p, double x, double nu, int printed);
/* 0 <= nu - exact <= rel exact + abs: rel = 2^-51, abs = 2^-1074 (from
 * nu < exact + ulp(exact)).  fast/fedepm/laplace.c. */
int ff_laplace_scale_upper_bound(double *rel, double *abs, double Delta, double eps, double mu);
/* 0 <= nu - exact <= rel exact + abs: rel = (3n + 11) 2^-53 >= gamma_{3n+10},
 * abs = 2^-1074; FR_ESIZE also for n > 2^24.  fast/fedepm/laplace.c. */
int ff_laplace_scale_eq39_upper_bound(double *rel, double *abs, const double *g, size_t n,
                                      double eps, double mu);
/* |p^ - p| <= rel p + abs: rel = (1.01 t + 6) 2^-53, abs = 2^-1072 (1 + 1/nu),
 * t the exponent's argument |x|/nu (standard) or that halved (printed) as
 * ff_laplace_density computes it, all evaluated in binary64 (underflow to 0
 * for large t lies within it).  fast/fedepm/laplace.c. */
int ff_laplace_density_bound(double *rel, double *abs, double x, double nu, int printed);

/* Privacy bookkeeping of FedEPM (docs/FEDEPM.md section 9; definitions,
 * domains and statuses as fr_dp_sens_step and fr_dp_compose, without rnd
 * and FR_EPREC/FR_ENOMEM/FR_EINTERNAL), each result an upper bound of the
 * exact value, proved in fast/fedepm/dp.c from nextafter steps after each
 * rounding (no change of rounding mode):
 * ff_dp_sens_step_upper: *out >= (mu delta + Delta)/(eta + mu) always
 *   (+Inf only when the result overflows: a numerator past DBL_MAX is
 *   scaled by a power of two first).  Statuses: FR_ENULL (out), FR_ENONFINITE
 *   (delta, Delta, eta, mu), FR_EDOM (delta < 0, Delta < 0, eta <= 0,
 *   mu <= 0).
 * ff_dp_compose_upper: *basic >= sum_j eps_j and *adv >= sqrt(2 ln(1/delta)
 *   sum_j eps_j^2) + sum_j eps_j (e^eps_j - 1) always; an eps_j = +Inf
 *   gives +Inf for both, all eps_j = 0 give 0 (exact sums stay exact).
 *   Statuses: FR_ENULL (basic, adv, eps), FR_ESIZE (k == 0 or k >
 *   FR_COUNT_MAX), FR_ENONFINITE (delta non-finite, an eps_j NaN or -Inf),
 *   FR_EDOM (an eps_j < 0, delta outside (0, 1), basic == adv).
 * Aliasing: none for the sensitivity step (scalars); basic and adv may
 * alias entries of eps (written last), not each other.
 * Accuracy: the _bound functions (same inputs and checks, then their own
 * range: FR_EDOM / FR_ESIZE outside it): 0 <= result - exact <= rel exact
 * + abs. */
int ff_dp_sens_step_upper(double *out, double delta, double Delta, double eta, double mu);
int ff_dp_compose_upper(double *basic, double *adv, const double *eps, size_t k, double delta);
/* rel = 2^-49, abs >= 2^-1071/(eta + mu) + 2^-1073 (computed upward);
 * FR_EDOM also when eta + mu < 2^-1021.  fast/fedepm/dp.c. */
int ff_dp_sens_step_upper_bound(double *rel, double *abs, double delta, double Delta,
                                double eta, double mu);
/* rel = (4k + 32) 2^-53 and abs = 2^-530, for both outputs; FR_ESIZE also
 * for k > 2^30, FR_EDOM also for a non-zero eps_j outside [2^-500, 709].
 * fast/fedepm/dp.c. */
int ff_dp_compose_upper_bound(double *rel, double *abs, const double *eps, size_t k,
                              double delta);
/* ff_dp_compose_tight_upper: fr_dp_compose_tight in binary64 (the same
 * grid, every operation rounded outward: fast/fedepm/compose_tight.c), an
 * upper bound of the same optimum; domain and statuses as
 * fr_dp_compose_tight (FR_ENULL: eps, epsj). */
int ff_dp_compose_tight_upper(double *eps, const double *epsj, size_t k, double delta);

/* Exact penalty (9)-(11), the binary64 evaluation (fedref.h defines the
 * residuals; pi in sgn(.) as a set; the branch on sgn(w_ij - w_j) is exact):
 *   lambda_star: exact (no bound function: the error is 0).
 *   stationarity_9: r_cons correctly rounded; ff_stationarity_9_bound.
 *   stationarity_10: ff_stationarity_10_bound.
 * Statuses: FR_ENULL (outputs, G, W, w), FR_ESIZE (m or n zero, m n >
 * FR_COUNT_MAX), FR_ENONFINITE (lambda, eta, G, W, w), FR_EDOM (lambda or
 * eta <= 0; r_cons == r_sum, r_set == r_sum: two outputs), FR_ENOMEM
 * (stationarity_9, _10).  Aliasing: none. */
int ff_lambda_star(double *lam, const double *G, size_t m, size_t n);
int ff_stationarity_9(double *r_cons, double *r_sum, const double *G, const double *W,
                      const double *w, size_t m, size_t n);
int ff_stationarity_10(double *r_set, double *r_sum, const double *G, const double *W,
                       const double *w, size_t m, size_t n, double lambda, double eta);
/* Accuracy of ff_stationarity_9 (same inputs and checks; FR_ESIZE also for
 * m > 2^26): |r_cons^ - r_cons| <= cons_rel r_cons with cons_rel = 2^-53;
 * |r_sum^ - r_sum| <= sum_abs = m 2^-53 S (>= gamma_{m-1} S), S = max_j
 * sum_i |G_ij|, evaluated in binary64.  fast/fedepm/exact_penalty.c. */
int ff_stationarity_9_bound(double *cons_rel, double *sum_abs, const double *G, const double *W,
                            const double *w, size_t m, size_t n);
/* Accuracy of ff_stationarity_10 (same inputs and checks; FR_ESIZE also for
 * m + 3 > 2^26), evaluated in binary64:
 *   |r_set^ - r_set| <= set_abs = 4 2^-53 max_ij (|G_ij| + lambda
 *                                 + eta |w_ij - w_j|) + 2^-1073,
 *   |r_sum^ - r_sum| <= sum_abs = (m + 3) 2^-53 max_j sum_i (lambda
 *                                 + eta |w_ij - w_j|) + m 2^-1073
 * (proved: gamma_3 and gamma_{m+2} with 2^-1075 and m 2^-1075).
 * fast/fedepm/exact_penalty.c. */
int ff_stationarity_10_bound(double *set_abs, double *sum_abs, const double *G, const double *W,
                             const double *w, size_t m, size_t n, double lambda, double eta);

/* Stopping rule of Sec. VII-B.  gnorm2 < 10^-6 is decided exactly
 * (gnorm2 <= 1e-6: the binary64 1e-6 lies below 10^-6).  The variance
 * test var <= thr (var the sample variance of the last four values,
 * thr = n 10^-8/(1 + |f[nf-1]|)): ff_stop_rule_bound.
 * Statuses: FR_ENULL (stop, f), FR_ESIZE (nf == 0, nf > FR_COUNT_MAX,
 * n == 0), FR_ENONFINITE (gnorm2, f), FR_EDOM (gnorm2 < 0); *stop is
 * written only on success.  Aliasing: none. */
int ff_stop_rule(int *stop, double gnorm2, const double *f, size_t nf, size_t n);
/* Decision margin of ff_stop_rule (same inputs and checks; FR_EDOM also if
 * one of the last four |f_k| > 2^500): the variance decision equals the
 * exact one whenever |var - thr| > gap (var, thr exact), with
 *   gap = 2^-46 (A D + var + thr) + 2^-96 A^2 + 2^-1069
 * evaluated in binary64 from A = mean |f_k|, D = max |f_k - mean| over the
 * last four values, var and thr as ff_stop_rule computes them (proved:
 * 2^-47 (A D + var + thr) + 2^-97 A^2 + 2^-1070 of the exact A, D, var,
 * thr).  nf < 4: gap = 0 (no variance test).  fast/fedepm/stop_rule.c. */
int ff_stop_rule_bound(double *gap, double gnorm2, const double *f, size_t nf, size_t n);

/* Tolerance of the trajectories of ff_fedepm_run, ff_sfedavg_run and
 * ff_sfedprox_run against ref: EMPIRICAL, not proved (a run composes
 * thousands of roundings).  The checkpoint vectors (vectors/fedepm/runs.c)
 * use it as rel and abs; `fedref audit` fails when the drift
 * max_j |w_fast - w_ref| / max_j |w_ref| of a round reaches it.  Measured
 * (fedref audit, seed 20261122): drift <= 1.6e-14 on the default problem,
 * relative error <= 6.5e-13 over the checkpoint vectors and their sweep;
 * 2^-32 = 2.3e-10 leaves a factor of about 350 (docs/FEDEPM.md section 7). */
#define FF_RUN_DRIFT_TOL 0x1p-32

/* The algorithms; the trace has the fields of fr_fedepm_trace in binary64
 * (the privacy fields nu0, nu, loss0, loss, eps_basic, eps_adv too, each
 * an upper bound of the exact value for the binary64 trajectory: scales by
 * ff_laplace_scale_upper / ff_laplace_scale_eq39_upper, the sensitivity by
 * ff_dp_sens_step_upper, a loss S/nu by ff_laplace_scale_upper (the least
 * binary64 >= S/nu), the totals by ff_dp_compose_upper).
 * Zero-initialise a trace (ff_fedepm_trace t = {0}) before ff_fedepm_trace_init.
 * ff_fedepm_trace_init: every value NaN, every sel entry SIZE_MAX, rounds =
 * iters = cr = 0, stop = FR_STOP_ROUNDS, snr_clients = 0; statuses as
 * fr_fedepm_trace_init without FR_EPREC: the classes of
 * fr_fedepm_sizes_check at their places (FR_ENULL also for t), FR_ESIZE
 * also when (rounds + 1) n, (rounds + 1) nsel exceed FR_COUNT_MAX,
 * FR_ENOMEM; argument errors leave t unchanged, FR_ENOMEM leaves it zeroed.
 * ff_fedepm_trace_clear (no status): frees and zeroes; safe on NULL, a
 * zeroed or a failed trace.
 * Runs: statuses as fr_fedepm_run and the others: argument errors (trace
 * untouched) FR_ENULL (t, P, prm, Delta under (27), a zeroed trace),
 * FR_ESIZE (P's and prm's sizes, a trace initialised for other m, n, nsel
 * or with fewer than rounds + 1 rows), FR_ENONFINITE, FR_EDOM; after the
 * start (trace reset, fedref_common.h rule 3) FR_ENOMEM or a building
 * block's error (e.g. FR_ENONFINITE when binary64 overflows where the exact
 * run would not).  On success unused rows are NaN (sel: SIZE_MAX).
 * Aliasing: none (the trace shares no memory with P or prm).  No
 * bound is proved for a whole trajectory: `make run` measures the drift
 * from ref (docs/FEDEPM.md section 7). */
typedef struct {
    size_t m, n, nsel, cap;
    size_t rounds;
    unsigned long iters, cr;
    int stop;
    double *w, *f, *gnorm2;
    size_t *sel;
    double *W, *Z;
    double snr;
    size_t snr_clients;
    double *nu0, *nu, *loss0, *loss;   /* m, cap x nsel, m, cap x nsel */
    double *eps_basic, *eps_adv;       /* m */
} ff_fedepm_trace;

int ff_fedepm_trace_init(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
void ff_fedepm_trace_clear(ff_fedepm_trace *t);
int ff_fedepm_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
int ff_sfedavg_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
int ff_sfedprox_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);


#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_FEDEPM_H */
