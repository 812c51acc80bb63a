/* SPDX-License-Identifier: Apache-2.0 */
/* run_cases.h -- small seeded end-to-end problems for the proof checks of
 * the runs (proofs_checks/ssca/check_runs*.c): the data and initial point
 * of fr_ssca_synth / fr_ssca_init_w, the parameters of a run, the batch
 * gradient at high precision through fr_ssca_net, the schedules, and the
 * distance of two iterates in bits.  Names start with pcr_ (never pc_:
 * ci/gen-registry.sh). */
#ifndef FEDREF_PC_SSCA_RUN_CASES_H
#define FEDREF_PC_SSCA_RUN_CASES_H

#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>
#include "fedref.h"

#define PCR_MAXC 4          /* clients */

/* A problem: N samples, P features, J hidden cells, L classes; Z and y
 * from fr_ssca_synth(seed), w1 from fr_ssca_init_w(seed); D uses nc
 * clients with near-equal partitions of the samples (Ni) and of the
 * features (Pi), the first ones one larger. */
typedef struct {
    size_t N, P, J, L, d;
    double *Z, *w1;
    size_t *y;
    size_t Ni[PCR_MAXC], Pi[PCR_MAXC], off[PCR_MAXC];   /* off: first sample of client i */
    mpfr_t *Zm;              /* N x P, exact (64 bits) */
    mpfr_t *Zb;              /* batch scratch, N x P (64 bits) */
    size_t *yb;              /* batch labels, N */
    fr_ssca_data D;
} pcr_prob;

/* 0, or -1 (a status of fr_ssca_synth / fr_ssca_init_w, or no memory). */
int pcr_prob_init(pcr_prob *pr, uint64_t seed, size_t N, size_t P, size_t J, size_t L,
                  size_t nc);
void pcr_prob_clear(pcr_prob *pr);
/* The partitions for nc clients (1 <= nc <= PCR_MAXC, nc <= N, P). */
void pcr_prob_split(pcr_prob *pr, size_t nc);

/* Parameters of a run of algo on pr (T points, batch B): 000 Sec. VI's
 * shapes at a small scale (rho = 0.9 t^-0.1, gamma = 0.5 t^-0.1, tau = 1/2,
 * lambda = 1/64, U = log L - 1/8, c = 8, r = 0.3 t^-0.3, mom = 0.1),
 * weight exact, E = 1, keep W and DRAWS, prm->seed = seed. */
void pcr_params(fr_ssca_params *prm, const pcr_prob *pr, int algo, unsigned long T, size_t B,
                uint64_t seed);

/* fr_ssca_trace_init + fr_ssca_run at p bits; the status (on error the
 * trace is cleared). */
int pcr_run(fr_ssca_trace *t, const pcr_prob *pr, const fr_ssca_params *prm, mpfr_prec_t p);

/* f = sum loss_n and g = sum grad loss_n (fr_ssca_net, correctly rounded at
 * the precisions of f and g) over the nb samples of global indices idx, at
 * w (000's layout).  f may be NULL.  The status of fr_ssca_net. */
int pcr_batch(mpfr_t f, mpfr_t *g, pcr_prob *pr, mpfr_t *const w, const size_t *idx, size_t nb);

/* x = a t^-alpha at x's precision (t^-alpha rounded, then the product
 * rounded; exact for alpha = 0). */
void pcr_sched(mpfr_t x, double a, double alpha, unsigned long t);

/* Agreement of two vectors in bits: -log2(max_k |a_k - b_k| / max(1,
 * max_k |b_k|)), +inf (HUGE_VAL) when equal.  Exact differences. */
double pcr_bits(mpfr_t *const a, mpfr_t *const b, size_t n);
/* The same for two scalars. */
double pcr_bits1(const mpfr_t a, const mpfr_t b);

/* mpfr arrays */
mpfr_t *pcr_vec(size_t n, mpfr_prec_t p);   /* n values, +0; NULL on failure */
void pcr_vec_free(mpfr_t *v, size_t n);

#endif
