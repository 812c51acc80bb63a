/* SPDX-License-Identifier: Apache-2.0 */
/* runs.h -- the checkpoint schema shared by the runs of Algorithms 1-4 and
 * the baselines of 000 (runs.c; docs/SSCA.md section 10): each
 * run_<algorithm>.c defines its vfunc from these pieces. */
#ifndef FEDREF_VECTORS_SSCA_RUNS_H
#define FEDREF_VECTORS_SSCA_RUNS_H

#include "../vectors.h"

extern const vspec vssca_params[], vssca_inputs[], vssca_expects[];

/* vfunc.ref, .fast, .tol, .golden and .sample of the run of algorithm
 * `algo` (enum fr_ssca_algo). */
int vssca_ref(int algo, rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec);
int vssca_fast(int algo, ftensor *par, ftensor *in, ftensor *out);
void vssca_tol(const ftensor *par, const ftensor *in, double *rel, double *abs);
void vssca_golden(vgen *g, int algo);
void vssca_sample(int algo, frng_t *g, ftensor *par, ftensor *in);

/* The tolerance of fast on a checkpoint (rel = abs), empirical: the largest
 * relative error measured between fast and ref on the committed files is
 * 1.3e-11 (about 2^-36, ssca_alg4: Lemma 1's interior branch amplifies the
 * differences of C and f1), 1.4e-13 or less on the other seven; the
 * largest |fast - expected| / tol is 2.6e-4.  2^-32 (the fedepm runs'
 * FF_RUN_DRIFT_TOL) leaves a factor of about 4000.  Not a proved bound
 * (fedfast/ssca.h: no error bound on a trajectory; a Lemma 1 branch
 * decided differently would exceed any tol, so the golden problems keep
 * every branch decision far from its threshold). */
#define VSSCA_RUN_TOL 0x1p-32

/* The schema's bounds on a run (FR_ESIZE beyond them, for ref and fast
 * alike, before the run starts), besides the library's limits
 * (FR_SSCA_T_MAX, FR_SSCA_E_MAX, FR_COUNT_MAX), so that each case is
 * checked in seconds:
 *   work    T (N + nb) J (L + P + 1) <= VSSCA_WORK_MAX (2^18), nb the
 *           samples of a round's mini-batches (nc E B for SGD_S and
 *           SGDM_S, nc B for Algorithms 1-2, B feature-based): every round
 *           evaluates F(w^t) on all N samples (KEEP_COST) and one
 *           forward/backward pass per batch sample, each about J (L + P)
 *           multiply-adds; ref at the checker's three precisions (258,
 *           516, 1032 bits) costs about 20 us per unit, so a case at the
 *           bound (e.g. Algorithm 2, T = 16, N = 150, nc = 3, B = 4, J = 6,
 *           L = 3, P = 12: 248832) takes about 5 s.  The largest
 *           committed case (ssca_alg3 id 4: T = 8, N = 36, B = 2, J = 4,
 *           L = 2, P = 8) is 13376, under the fuzz target's 2^14;
 *           generating all 104 committed cases takes about 7 s;
 *   record  T (d + nd + 8) <= VSSCA_RECORD_MAX (2^16), d = J (L + P), nd
 *           the draws per round: the memory of the trajectory.
 * vssca_work_max is VSSCA_WORK_MAX (the fuzz target lowers it). */
#define VSSCA_WORK_MAX (1ul << 18)
#define VSSCA_RECORD_MAX (1ul << 16)
extern unsigned long vssca_work_max;

/* The sweep of `make run` runs at most this many random runs per algorithm. */
#define VSSCA_SWEEP_MAX 40

/* The vfunc callbacks of algorithm ALGO, then the vfunc's fields. */
#define VSSCA_WRAPPERS(ALGO)                                                   \
    static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec) \
    { return vssca_ref(ALGO, par, in, out, prec); }                           \
    static int fast(ftensor *par, ftensor *in, ftensor *out)                  \
    { return vssca_fast(ALGO, par, in, out); }                                \
    static void golden(vgen *g) { vssca_golden(g, ALGO); }                    \
    static void sample(frng_t *g, ftensor *par, ftensor *in)                  \
    { vssca_sample(ALGO, g, par, in); }
/* The data fields of the sample-based runs (parts: sample counts) and of
 * the feature-based ones (parts: feature counts). */
extern const vdata vssca_data_samples, vssca_data_features;
#define VSSCA_FIELDS(NAME, SRC) \
    NAME, SRC, vssca_params, vssca_inputs, vssca_expects, ref, fast, vssca_tol, golden, sample, VSSCA_SWEEP_MAX, 1

#endif
