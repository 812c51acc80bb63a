/* SPDX-License-Identifier: Apache-2.0 */
/* fedspec/fedepm.h -- the specification layer of the federated algorithms of 002
 * (FedEPM, Algorithm 2; SFedAvg and SFedProx, Algorithms 3-4), shared by ref
 * (fedref.h) and fast (fedfast.h): the problem (logistic regression, 002
 * Sec. VII-A), the parameters, the random streams, the round structure and
 * the argument checks.  Nothing numerical lives here: every function below
 * is integer arithmetic or a comparison of binary64 inputs.
 *
 * docs/FEDEPM.md is the normative description of the algorithms as fedref
 * runs them (round structure, the order of random draws, what is recorded);
 * docs/RNG.md section 3.8 gives the stream numbers. */
#ifndef FEDREF_FL_H
#define FEDREF_FL_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the problem: logistic regression, 002 Sec. VII-A -------------------
 * Client i (0-based) owns the d[i] consecutive rows of X starting at row
 * off_i = d[0] + ... + d[i-1], and the labels b[off_i .. off_i + d[i] - 1].
 *   f_i(w) = (1/d_i) sum_t ( ln(1 + e^{<x_t, w>}) - b_t <x_t, w> + beta/2 ||w||^2 )
 *          = (1/d_i) sum_t ( ln(1 + e^{<x_t, w>}) - b_t <x_t, w> ) + beta/2 ||w||^2
 * (the beta term inside the 1/d_i sum, as printed), f = sum_i f_i (002 (1)).
 * All values are the exact binary64 numbers given. */
typedef struct {
    size_t m, n;          /* clients (>= 1), features (>= 1) */
    const size_t *d;      /* d[i] >= 1 samples of client i */
    const double *X;      /* (d[0] + ... + d[m-1]) x n, row-major, finite */
    const double *b;      /* labels, each exactly 0 or 1 */
    double beta;          /* > 0, finite */
    uint64_t seal;        /* rule 6 of fedref_common.h; zero-initialise, never write */
} fr_logreg;

/* Total number of samples; 0 if P or P->d is NULL or a sum overflows
 * (no status). */
size_t fr_logreg_samples(const fr_logreg *P);

/* FR_OK, or the first class that fails (fedref_common.h): FR_ENULL (P, d,
 * X, b), FR_ESIZE (m, n or a d[i] zero, D = sum d_i overflows, D n >
 * FR_COUNT_MAX), FR_ENONFINITE (NaN/Inf in X, b or beta), FR_EDOM (beta <= 0,
 * a label not in {0, 1}).  The functions that take a problem report P's
 * class in the same order among their other arguments. */
int fr_logreg_check(const fr_logreg *P);

/* The seal of P (fedref_common.h, rule 6).  fr_logreg_seal makes
 * fr_logreg_check(P) in full; on FR_OK it stores in P->seal a keyed hash
 * of m, n, the pointers d, X, b, the bits of beta and the total extent
 * D = d[0] + ... + d[m-1], and returns FR_OK; otherwise it stores 0 and
 * returns the check's status (FR_ENULL, nothing stored, for P NULL).
 * fr_logreg_sealed(P) is 1 iff P != NULL, P->seal != 0 and P->seal is the
 * hash of P's current fields (O(m): D is summed; no status).  While P is
 * sealed, every function taking P (fr_logreg_check, the family checks
 * below, ref's and fast's logreg functions and runs) skips the O(D n)
 * scans of X and b: NaN/Inf in X and b and the labels in {0, 1}.  It
 * still checks the pointers, m, n, every d[i] and D n (the sizes every
 * index is computed from) and beta, so every status is that of the
 * unsealed problem when the contract holds.  The contract: the contents
 * of X and b are not changed while the seal is in use (changing d[i]
 * within the same total D counts as contents too: the scans cover all D
 * rows either way); after changing them, seal again (or set seal = 0).
 * A changed field (m, n, d, X, b, beta, or a d[i] that changes D) voids
 * the seal by itself. */
int fr_logreg_seal(fr_logreg *P);
int fr_logreg_sealed(const fr_logreg *P);

/* ---- parameters of a run --------------------------------------------------
 * One struct for the family (FedEPM, SFedAvg, SFedProx); each algorithm
 * checks the fields it uses (fr_fedepm_check, fr_sfedavg_check,
 * fr_sfedprox_check) and ignores the others. */
enum fr_noise_rule {
    FR_NOISE_NONE = 0,  /* no noise: z_i = w_i (eps, Delta unused) */
    FR_NOISE_EQ39 = 1,  /* 002 (39): Lap(0, 2 ||g_i||_1 / (eps mu_{i,k+1})), the experiments' rule */
    FR_NOISE_EQ27 = 2,  /* 002 (27): Lap(0, Delta_i / (eps mu_{i,k+1})), Delta_i given */
    FR_NOISE_CERT = 3   /* fedref's certified rule (not the paper's; FedEPM only):
                         * Lap(0, S_i / eps), S_i the l1 sensitivity bound of the
                         * upload from the recursion of docs/FEDEPM.md section 9
                         * with Delta_i; needs c = 0 and stopping = 0; each
                         * upload is eps-DP given everything released before it */
};

/* delta' of the advanced-composition accountant when acct_delta is 0. */
#define FR_ACCT_DELTA_DEFAULT 1e-5

typedef struct {
    unsigned long k0;      /* >= 1: the communication period, K = {0, k0, 2k0, ...} */
    unsigned long rounds;  /* R >= 1: at most R+1 aggregations, R k0 iterations */
    size_t nsel;           /* |S^r| in [1, m] (fr_selection_size gives rho m) */
    double lambda, eta;    /* FedEPM, 002 (8): lambda > 0, eta > 0 */
    double mu0, c, alpha;  /* 002 (20), (39): mu_{i,0} > 0, c_i >= 0, alpha_i > 1 (all clients alike;
                            * the paper has c_i > 0; c = 0, fedref's extension, makes
                            * mu_{i,k} = mu0 alpha^k data-independent) */
    double eps;            /* privacy budget epsilon > 0 (unless noise == FR_NOISE_NONE) */
    int noise;             /* enum fr_noise_rule */
    const double *Delta;   /* FR_NOISE_EQ27, FR_NOISE_CERT: m l1 sensitivities, each > 0: a
                            * data-independent bound on ||g_i(D) - g_i(D')||_1 over all
                            * server points and neighbours D' of D (docs/FEDEPM.md 9) */
    int stopping;          /* 1: the stopping rule of 002 Sec. VII-B; 0: run all rounds */
    uint64_t seed;         /* key word 0 of every stream (docs/RNG.md section 3.8) */
    double mu_prox;        /* SFedProx (36): mu > 0 */
    unsigned long ell;     /* SFedProx, Algorithm 4: inner steps >= 1 */
    double acct_delta;     /* delta' in (0, 1) of the advanced-composition accountant
                            * (the trace's eps_adv); 0: FR_ACCT_DELTA_DEFAULT */
} fr_fedepm_params;

/* Limits of a run (FR_ESIZE beyond them), so that no count makes a run
 * unbounded.  With any one of them at its maximum and the rest as in the
 * golden vectors (R = 5, k0 = 3, ell = 3 on m = 4 clients, 22 samples,
 * n = 3), a ref run through the vector checker's three precisions (258, 516
 * and 1032 bits) takes about 6 s; the paper's regime and the audit use
 * k0 <= 4 and R <= 150 (docs/FEDEPM.md section 7).  The product of the counts
 * and the size of the data are not bounded here; the vector schema bounds
 * the work of a run as a whole (vectors/fedepm/runs.h). */
#define FR_FEDEPM_K0_MAX 1000ul       /* k0: local steps per round */
#define FR_FEDEPM_ROUNDS_MAX 1000ul   /* R: rounds (R + 1 aggregations) */
#define FR_FEDEPM_ELL_MAX 1000ul      /* ell: SFedProx's inner steps */

/* The argument checks of the family.  Each returns FR_OK or the first
 * failing class in the order of fedref_common.h (FR_ENULL, FR_ESIZE,
 * FR_ENONFINITE, FR_EDOM), over P (as fr_logreg_check) and the fields the
 * algorithm uses:
 *   FR_ENULL      prm, P or its arrays; Delta under FR_NOISE_EQ27 and
 *                 FR_NOISE_CERT;
 *   FR_ESIZE      k0, rounds or nsel zero, nsel > m, rounds k0 + 1
 *                 overflows unsigned long, k0 above FR_FEDEPM_K0_MAX,
 *                 rounds above FR_FEDEPM_ROUNDS_MAX; (SFedProx) ell zero or
 *                 above FR_FEDEPM_ELL_MAX;
 *   FR_ENONFINITE mu0, c, alpha, acct_delta, eps and Delta (when the noise
 *                 rule uses them); (FedEPM) lambda, eta; (SFedProx) mu_prox;
 *   FR_EDOM       mu0 <= 0, c < 0, alpha <= 1, an unknown noise rule,
 *                 eps <= 0, Delta_i <= 0, stopping not 0 or 1, acct_delta
 *                 outside [0, 1); FR_NOISE_CERT with c != 0 or stopping = 1,
 *                 and (SFedAvg, SFedProx) FR_NOISE_CERT at all; (FedEPM)
 *                 lambda, eta <= 0; (SFedProx) mu_prox <= 0.
 * fr_fedepm_sizes_check checks P and the sizes only (FR_ENULL, FR_ESIZE and
 * P's classes): what a trace needs. */
int fr_fedepm_sizes_check(const fr_logreg *P, const fr_fedepm_params *prm);
int fr_fedepm_check(const fr_logreg *P, const fr_fedepm_params *prm);
int fr_sfedavg_check(const fr_logreg *P, const fr_fedepm_params *prm);
int fr_sfedprox_check(const fr_logreg *P, const fr_fedepm_params *prm);

/* The family check with an algorithm's own fields: npos binary64 fields
 * that must be finite and > 0 and ncount counts that must be in
 * [1, FR_FEDEPM_ELL_MAX] (the algorithm checks above are this with their
 * fields).  FR_ENULL also for a NULL pos (npos > 0), count (ncount > 0) or
 * entry of them. */
int fr_fedepm_check_fields(const fr_logreg *P, const fr_fedepm_params *prm,
                           const double *const *pos, size_t npos,
                           const unsigned long *const *count, size_t ncount);

/* |S| = rho m of 002 Sec. VI/VII-B, as fedref defines it: the integer
 * nearest to the binary64 product fl(rho * m) (ties away from zero), at
 * least 1.  FR_EDOM unless 0 < rho <= 1; FR_ESIZE if m == 0.  (The authors'
 * MATLAB code uses ceil(rho*m); docs/FEDEPM.md.) */
int fr_selection_size(double rho, size_t m, size_t *nsel);
/* Statuses of fr_selection_size: FR_ENULL (nsel), FR_ESIZE (m == 0),
 * FR_ENONFINITE (rho), FR_EDOM (rho outside (0, 1]). */

/* The paper's bracket of 002 Sec. II-A: "the largest integer smaller than
 * t + 1", i.e. the ceiling of t (e.g. [1.1] = [2] = 2).  fr_tau(k, k0) =
 * ceil(k / k0) = tau_k of (18).  k0 must be >= 1 (returns 0 otherwise; no
 * status). */
unsigned long fr_tau(unsigned long k, unsigned long k0);

/* Stream numbers (docs/RNG.md section 3.8): selection S^1, S^2, ... from
 * (seed, FR_STREAM_SELECT); the noise of client i (0-based) from
 * (seed, FR_STREAM_NOISE + i). */
#define FR_STREAM_SELECT 1u
#define FR_STREAM_NOISE 2u

/* Why a run ended. */
enum fr_stop {
    FR_STOP_ROUNDS = 0,  /* R+1 aggregations done */
    FR_STOP_GRAD = 1,    /* ||grad f(w^r)||^2 < 10^-6 */
    FR_STOP_VAR = 2      /* var{f(w^{r-3}), ..., f(w^r)} <= n 10^-8 / (1 + |f(w^r)|), r >= 4 */
};

/* ---- a seeded synthetic problem (the audit's and the vectors' data) ------
 * Exact and language-independent (docs/FEDEPM.md "synthetic problems"):
 *   sizes:  stream (seed, 0): d_i = dmin + below(dmax - dmin + 1), i = 0..m-1;
 *   data:   stream (seed, 1): wstar_j = below(9) - 4 (j = 0..n-1); then for
 *           each sample t in order, k_tj = below(2049) - 1024 (j = 0..n-1),
 *           x_tj = k_tj 2^-(10 + s), s = the least integer with 4^s >= D
 *           (D the total number of samples; columns then have norm <= 1,
 *           like the unit-length attributes of Sec. VII-A);
 *           b_t = [sum_j k_tj wstar_j > 0] (an exact integer test), then
 *           flipped when below(10) == 0 (10% label noise).
 * fr_synth_sizes fills d[0..m-1]: FR_ENULL (d), FR_ESIZE (m == 0 or m >
 * FR_COUNT_MAX), FR_EDOM unless 1 <= dmin <= dmax.
 * fr_synth_data fills X (D x n) and b (D) for those sizes: FR_ENULL (d, X,
 * b), FR_ESIZE (m or n zero, n > 4096, m or D n > FR_COUNT_MAX, a d[i]
 * zero), FR_EDOM (X and b overlap: two outputs). */
int fr_synth_sizes(uint64_t seed, size_t m, size_t dmin, size_t dmax, size_t *d);
int fr_synth_data(uint64_t seed, size_t m, size_t n, const size_t *d, double *X, double *b);

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FL_H */
