/* SPDX-License-Identifier: Apache-2.0 */
/* runs.h -- the checkpoint schema shared by the runs of module fedepm
 * (runs.c): each run_<algorithm>.c defines its vfunc from these pieces. */
#ifndef FEDREF_VECTORS_FEDEPM_RUNS_H
#define FEDREF_VECTORS_FEDEPM_RUNS_H

#include "../vectors.h"

typedef int (*ref_run_fn)(fr_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);
typedef int (*fast_run_fn)(ff_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);

/* One algorithm of the family: its name (the vector function's, and the
 * audit's row) and its two runs.  Each run_<algorithm>.c defines
 * `const vrun_algo vrun_algo_<algorithm> = {...};` on a line of its own;
 * the audit's trajectory section (cli/fedepm/) takes the list from the
 * generated vrun_registry.h. */
typedef struct {
    const char *name;
    ref_run_fn ref;
    fast_run_fn fast;
} vrun_algo;

extern const vspec vrun_params[], vrun_inputs[], vrun_expects[];
extern const vdata vrun_data;   /* X, b (0/1), d */
/* vfunc.ref and vfunc.fast of one run */
int vrun_ref(ref_run_fn run, rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec);
int vrun_fast(fast_run_fn run, ftensor *par, ftensor *in, ftensor *out);
void vrun_tol(const ftensor *par, const ftensor *in, double *rel, double *abs);
void vrun_golden(vgen *g);
/* fedepm_dp (run_fedepm_dp.c): the privacy checkpoints of FedEPM and their sweep */
void vrun_golden_dp(vgen *g);
void vrun_sample_dp(frng_t *g, ftensor *par, ftensor *in);
void vrun_sample(frng_t *g, ftensor *par, ftensor *in);

/* The schema's bounds on a run (FR_ESIZE beyond them, for ref and fast
 * alike, before the run starts), besides the library's limits on k0, rounds
 * and ell (fedspec/fedepm.h), which bound each count but neither their
 * product nor the data (so that each case is checked in seconds):
 *   work    (rounds + 1) k0 ell (4 m + D)(n + 1) <= VRUN_WORK_MAX (2^19;
 *           D = sum d_i; ell counted for every algorithm): (4m + D)(n + 1)
 *           bounds one local step of every client and one pass over the
 *           data, in units of about one sample-feature term; a ref run costs
 *           about 10-13 us per unit when the checker needs all three of its
 *           precisions (258, 516, 1032 bits at certified_bits 130), so a case
 *           at the bound takes under 7 s (11 s at certified_bits 256).  The
 *           largest committed case (R = 60, k0 = 3, ell = 3, m = 5, D = 263,
 *           n = 2) is 466101;
 *   record  (rounds + 1)(n + nsel) <= VRUN_RECORD_MAX (2^16): the memory of
 *           the trajectory (committed: at most 427).
 * vrun_work_max is VRUN_WORK_MAX; the fuzz target (tests/fuzz/) lowers it
 * to keep every input well under a second. */
#define VRUN_WORK_MAX (1ul << 19)
#define VRUN_RECORD_MAX (1ul << 16)
extern unsigned long vrun_work_max;

/* The sweep of `make run` runs at most this many random runs per algorithm. */
#define VRUN_SWEEP_MAX 60

/* The vfunc callbacks of algorithm A (a vrun_algo), then its fields with
 * name NAME and source SRC. */
#define VRUN_WRAPPERS(A)                                                         \
    static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)  \
    { return vrun_ref(A.ref, par, in, out, prec); }                            \
    static int fast(ftensor *par, ftensor *in, ftensor *out)                   \
    { return vrun_fast(A.fast, par, in, out); }
#define VRUN_FIELDS(NAME, SRC) \
    NAME, SRC, vrun_params, vrun_inputs, vrun_expects, ref, fast, vrun_tol, vrun_golden, vrun_sample, VRUN_SWEEP_MAX, 1, \
    .data = &vrun_data

#endif
