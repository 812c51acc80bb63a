/* SPDX-License-Identifier: Apache-2.0 */
/* run.h -- the private workspace of ff_pdm_run (fast/fedpdm/run*.c):
 * every buffer a run of Algorithm 1 of 003 needs, allocated once before
 * round 0 (run_ws.c), so the round loop allocates nothing.  Not installed.
 * fedspec/fedpdm.h (section "Algorithm 1") is the normative description. */
#ifndef FEDREF_FAST_FEDPDM_RUN_H
#define FEDREF_FAST_FEDPDM_RUN_H

#include "fedfast.h"
#include "../internal.h"

/* The mini-batch gradient's products (run_grad.c): the exact structure
 * (b label-row ddots and b daxpys, 2 b n flops) or the one-hot dgemm of
 * main's ff_pdm_loss (2 b m n flops plus the gather of the b rows).
 * Measured at m = 10, n = 785, b = 30, K = 5, Qmax = 50, one BLAS thread
 * (perf, CPU time): a round t >= 1 in 6.1 ms against 8.7 ms, (21) of a
 * state in 42 ms against 72 ms.  The structure path is the default;
 * -DFFI_PDM_GRAD_DGEMM=1 compiles the dgemm path (for the profile). */
#ifndef FFI_PDM_GRAD_DGEMM
#define FFI_PDM_GRAD_DGEMM 0
#endif

typedef struct {
    const fr_pdm_problem *P;
    const fr_pdm_params *prm;
    size_t N, m, n, D, dmax;
    size_t *off;        /* N + 1 sample offsets: client i's rows off[i] .. off[i+1]-1 */
    /* the state (x_i, lambda_i live in the trace: its x, lam) */
    double *x0;         /* D: x_0^t */
    double *yt;         /* N x D: the last uploads yt_i */
    /* a client's round */
    double *xr;         /* D: x^{t,r} */
    double *g;          /* D: a gradient */
    double *Rm;         /* b x m one-hot residuals (dgemm path) */
    double *Ab;         /* b x n gathered rows (dgemm path) */
    size_t *yb;         /* b gathered labels (dgemm path) */
    size_t *batch;      /* b: this step's draw */
    size_t *perm;       /* identity of max(N, dmax) entries (the draws' replay) */
    size_t *sel;        /* K: this round's draw of S_t */
    unsigned char *in;  /* N: i in S_t */
    /* the server and (21) */
    double *c;          /* D: the server's sum; (21)'s c */
    frng_t *rng;        /* 1 + 2N streams: select, batch i, noise i */
} ffi_pdm_ws;

/* run_ws.c: allocate / free the workspace for (P, prm) (checked); the
 * streams keyed by prm->seed (docs/RNG.md 3.10).  FR_ENOMEM. */
int ffi_pdm_ws_alloc(ffi_pdm_ws *ws, const fr_pdm_problem *P, const fr_pdm_params *prm);
void ffi_pdm_ws_free(ffi_pdm_ws *ws);

/* run_ws.c: k distinct indices of [0, n) into out, frng_sample's partial
 * Fisher-Yates (docs/RNG.md 3.3) replayed on the identity perm[0 .. n-1]
 * (restored afterwards): the same words, the same indices, no allocation. */
void ffi_pdm_sample(frng_t *g, size_t *perm, size_t n, size_t k, size_t *out);

/* run_grad.c: g = the gradient of (25) at X on nr rows of client data
 * (A, y: the client's rows; rows: nr local indices, NULL for rows 0 .. nr-1)
 *   g = beta h(X) - (1/nr) sum_t s(u_t) e_{y_t} a_t^T,  u_t = x_{y_t}^T a_t.
 * g may not alias X.  Uses the dgemm buffers (FFI_PDM_GRAD_DGEMM). */
void ffi_pdm_grad(double *g, const double *X, const double *A, const size_t *y, const size_t *rows,
                  size_t nr, ffi_pdm_ws *ws);

/* run_measure.c: the records of a state (x_j = xs + j D, lambda_j = ls +
 * j D, x_0 = x0) in one pass over the data: doP: out[0..3] = P, Px, Plam,
 * Px0 of (21); doF: out[4] = (24) at x_0.  Uses ws->g, ws->c. */
void ffi_pdm_measure(double *out, int doP, int doF, const double *x0, const double *xs, const double *ls,
                     ffi_pdm_ws *ws);

/* run_vec.c: the O(D) passes in blocks of 8 (FFI_VERSIONS):
 *   hgrad: g = beta h(X) (h_of's bits);
 *   step:  v = (g - lam) + rho (x - x0), x <- x - eta v; returns ||v||^2;
 *   sumsq: ||x||^2;  addto: c += y.  No aliasing between the arrays. */
void ffi_pdm_hgrad(double *g, const double *X, size_t D, double beta);
double ffi_pdm_step(double *x, const double *g, const double *lam, const double *x0, size_t D, double rho,
                    double eta);
double ffi_pdm_sumsq(const double *x, size_t n);
void ffi_pdm_addto(double *c, const double *y, size_t D);
/* run_vec.c: close: x = xr, lam += rho (x0 - x), yt = x - lam / rho
 * ((10b)-(10d)); divby: c /= dn.  No aliasing. */
void ffi_pdm_close(double *x, double *lam, double *yt, const double *xr, const double *x0, size_t D,
                   double rho);
void ffi_pdm_divby(double *c, size_t D, double dn);

/* run_trace.c: every record to its initial state (NaN; part, Q, capped 0;
 * draws SIZE_MAX; rounds, nd 0). */
void ffi_pdm_trace_reset(ff_pdm_trace *t);
/* run_trace.c: the same but x and lam left as they are (ff_pdm_run's
 * start: its line 2 writes both (2 N D entries) before anything can fail). */
void ffi_pdm_trace_reset_records(ff_pdm_trace *t);
/* run_trace.c: the record sizes of (P, prm) after fr_pdm_run_check's
 * FR_ENULL and FR_ESIZE passed; FR_ESIZE if one exceeds FR_COUNT_MAX. */
int ffi_pdm_rec_sizes(const fr_pdm_problem *P, const fr_pdm_params *prm, size_t *D, size_t *R,
                      size_t *nx0, size_t *ndmax);

#endif /* FEDREF_FAST_FEDPDM_RUN_H */
