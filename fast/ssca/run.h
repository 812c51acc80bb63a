/* SPDX-License-Identifier: Apache-2.0 */
/* run.h -- the private workspace of ff_ssca_run (fast/ssca/run*.c): every
 * buffer a run needs, allocated once before round 1 (run.c), so the round
 * loop allocates nothing.  Not installed.  docs/SSCA.md section 10 is the
 * normative description of the rounds. */
#ifndef FEDREF_FAST_SSCA_RUN_H
#define FEDREF_FAST_SSCA_RUN_H

#include "fedfast.h"
#include "../internal.h"
#include "net_eval.h"
#include "surrogate.h"

/* Rows of one chunk of a batch pass: a batch of nb rows is processed in
 * ceil(nb / ch) chunks of at most ch rows, the gradient accumulated by
 * BLAS beta = 1 (ffi_ssca_net_eval_ws), so the per-chunk buffers stay in
 * cache-friendly sizes whatever B is. */
#ifndef FFI_SSCA_CHUNK
#define FFI_SSCA_CHUNK 2048
#endif

/* A batch of at most FFI_SSCA_DEFER_MAX rows in one chunk leaves the
 * hidden-layer gradient B = Delta^T Z to the unconstrained rounds, which
 * form it FFI_SSCA_TILE rows (of B, i.e. hidden cells) at a time and apply
 * the step to each block while it is in cache (run_sample.c): no d-sized
 * gradient is written and read back.  Above it one product (the rows
 * packed once) is cheaper: measured CPU time of an Algorithm 3 round at
 * P = 784, J = 128, L = 10, one BLAS thread, 0.19 ms deferred vs 0.23 ms
 * at B = 10, 1.12 ms vs 1.05 ms at B = 100. */
#ifndef FFI_SSCA_DEFER_MAX
#define FFI_SSCA_DEFER_MAX 64
#endif
#ifndef FFI_SSCA_TILE
#define FFI_SSCA_TILE 16
#endif

typedef struct {
    const fr_ssca_data *D;
    const fr_ssca_params *prm;
    size_t N, P, J, L, nc, d, LJ, B, E, nd, ch;
    int feature;
    size_t *off;        /* nc + 1 offsets: samples (sample-based) or features (feature-based) */
    double *q;          /* nc weights N_i / (B N) (Algorithms 1-2), binary64 as ffi_ssca_weights */
    /* the batch pass (run.c) */
    double *U;          /* ch x J pre-activations */
    double *netws;      /* ffi_ssca_net_ws_len(ch, L, J) */
    double *Zb;         /* ch x P gathered rows */
    size_t *yb;         /* ch gathered labels */
    size_t *rows;       /* the global rows of a pass (at most nbmax) */
    double *gt;         /* FFI_SSCA_TILE x P: a block of rows of B (deferred passes) */
    const double *Zc;   /* the last chunk's rows (gathered or in place) ... */
    size_t nbc;         /* ... and their count */
    int deferred;       /* the last pass left B to ffi_ssca_grad_tile */
    double *rw;         /* their weights */
    /* the state of the algorithms */
    double *g;          /* d: a gradient sum (layout of w) */
    double *f1;         /* d: f1 (Algorithms 2, 4), m = f1 + 2 lambda beta (1, 3; run_sample.c) */
    double *wbar, *wi, *vi, *v, *wacc, *vacc;               /* d each */
    double C, Ww;       /* (42)'s constant C^(t); W_t = 1 - prod (1 - rho) */
    double n2;          /* ||w||^2 of the new point when a round computed it (else NaN) */
    /* the draws */
    size_t *draw;       /* nd: this round's draws (local indices, draw order) */
    size_t *perm;       /* identity permutation of max(N_i) (sample) or N (feature) entries */
    frng_t *rng;        /* nc streams (sample-based) or 1 (feature-based) */
} ffi_ssca_ws;

/* run.c: the draws of round t into ws->draw (docs/SSCA.md 10, docs/RNG.md
 * 3.3 and 3.9: frng_sample's partial Fisher-Yates shuffle replayed on the
 * preallocated identity ws->perm, which is restored afterwards: the same
 * words, the same indices, no allocation). */
void ffi_ssca_draw_round(ffi_ssca_ws *ws);

/* run.c: one batch pass at w over nrows rows: rows (global sample
 * indices, NULL: the contiguous rows row0 .. row0 + nrows - 1), row
 * weights rw (NULL: 1); U = Z W1^T by one dgemm.  In the feature-based
 * Steps 4-6 of Algorithms 3-4, u = sum_i h_i with h_i =
 * Z_i W1_i^T over client i's features is the same product Z W1^T, and
 * the run forms it by the same one dgemm (the per-feature terms summed in
 * the kernel's order instead of within the blocks P_i and then in client
 * order as ff_ssca_net_partial/_top/_bottom: gamma_P instead of
 * gamma_{P_i} + gamma_{I-1}, a rounding difference only; nc small dgemms
 * with k = P_i cost several times the one product at B <= 100).
 * f (may be NULL) = sum rw_n loss_n, g (may be NULL; d entries, layout of
 * w) = sum rw_n grad loss_n.  FR_OK or FR_ENONFINITE (U, O, f); g is
 * not scanned (FFI_NET_NOSCAN): the rounds test what they form from it
 * (a non-finite entry of g makes the new point, f1 or v non-finite:
 * run_rounds, ffi_ssca_surrogate_step, ffi_ssca_round_sgd), so the status
 * is the same, without one pass over d per chunk. */
int ffi_ssca_pass(ffi_ssca_ws *ws, const double *w, const size_t *rows, size_t row0,
                  size_t nrows, const double *rw, int defer, double *f, double *g);
/* defer != 0 and nrows <= min(ch, FFI_SSCA_DEFER_MAX): g receives only A
 * (the first L J entries), ws->deferred = 1, and ffi_ssca_grad_tile(ws,
 * j0, jt) writes rows j0 .. j0 + jt - 1 of B (jt <= FFI_SSCA_TILE) into
 * ws->gt (jt x P) by one dgemm on the pass's Delta and rows. */
void ffi_ssca_grad_tile(ffi_ssca_ws *ws, size_t j0, size_t jt);

/* The rounds (w: the server point, in place; t: the round index).  The
 * constrained ones also return round t's nu, slack and branch. */
int ffi_ssca_round_sample(ffi_ssca_ws *ws, double *w, unsigned long t, double *nu,
                          double *slack, int *branch);                 /* run_sample.c: 1, 2 */
int ffi_ssca_round_feature(ffi_ssca_ws *ws, double *w, unsigned long t, double *nu,
                           double *slack, int *branch);                /* run_feature.c: 3, 4 */
int ffi_ssca_round_sgd(ffi_ssca_ws *ws, double *w, unsigned long t);  /* run_sgd.c: 5-8 */

/* run_feature.c: the batch gradient sum ws->g (and the loss sum f, may be
 * NULL) at w over the server's batch ws->draw, collected as Steps 4-6 of
 * Algorithms 3-4 (ffi_ssca_pass, defer as there). */
int ffi_ssca_feature_grad(ffi_ssca_ws *ws, const double *w, int defer, double *f);

/* run_sample.c: the surrogate step shared by Algorithms 1-4 after the
 * message: sq s = sum_i q_i G_i (d), sq fq = sum_i q_i F_i (Algorithms 2,
 * 4; sq = 1 sample-based, the weight 1/B of the one "client" feature-based);
 * C (2, 4), f1 (9), beta (35) (1, 3), P, then wbar by (38)-(39) or Lemma 1
 * (41), then the update (5). */
int ffi_ssca_surrogate_step(ffi_ssca_ws *ws, double *w, unsigned long t, const double *s,
                            double sq, double fq, double *nu, double *slack, int *branch);

/* run.c: ||x||^2 in 8 partial sums (vectorised), the norm2 record. */
double ffi_ssca_sumsq(const double *x, size_t n);

/* x^(t) = a t^-alpha in binary64 (alpha = 0: a exactly). */
static inline double ffi_ssca_sched(double a, double alpha, unsigned long t)
{
    return alpha == 0 ? a : a * pow((double)t, -alpha);
}

#endif
