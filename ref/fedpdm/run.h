/* SPDX-License-Identifier: Apache-2.0 */
/* run.h -- what the sources of fr_pdm_run share (not installed): the
 * workspace of one run, the trace's reset, one client's round (10a)-(12)
 * and the measure (21).  Contract: fedref/fedpdm.h, section "Algorithm 1". */
#ifndef FEDREF_REF_FEDPDM_RUN_H
#define FEDREF_REF_FEDPDM_RUN_H

#include "../internal.h"
#include "fedref/fedpdm.h"

/* Exact temporaries (their precisions are set by the fri_*_exact calls). */
#define FRI_PDM_NTMP 8

typedef struct {
    size_t m, n, D, N, dmax;
    mpfr_prec_t p;                     /* the trace's working precision */
    /* the binary64 parameters, exact (53 bits) */
    mpfr_t rho, beta, gamma, nu, G, eps, delta, eta, neta, Nm, Ng, Nsq;
    mpfr_t *xr, *g, *v;                /* D each, precision p */
    mpfr_t *z;                         /* 2 ceil(D/2) Gaussian draws, precision p */
    mpfr_t *Ab;                        /* dmax n feature rows, 53 bits (exact) */
    size_t *yb, *idx;                  /* dmax labels, b batch indices */
    mpfr_ptr *pp;                      /* max(N, D) pointers for exact sums */
    mpfr_t *sq;                        /* D exact squares */
    mpfr_t tmp[FRI_PDM_NTMP];          /* exact scalars */
    mpfr_t s, sig2, sig;               /* (19), (18), sigma at precision p */
} fri_pdm_ws;

/* Allocate / free the workspace of (P, prm) at precision p (FR_ENOMEM). */
int fri_pdm_ws_init(fri_pdm_ws *w, const fr_pdm_problem *P, const fr_pdm_params *prm, mpfr_prec_t p);
void fri_pdm_ws_clear(fri_pdm_ws *w);

/* The state fr_pdm_trace_init gives: every value NaN, part/Q/capped 0,
 * draws SIZE_MAX, rounds = nd = 0. */
void fri_pdm_trace_reset(fr_pdm_trace *t);

/* 1 iff every record count of (P, prm) is at most FR_COUNT_MAX; *ndmax =
 * the draws' capacity (T N Qmax b under KEEP_DRAWS, else 0).  P and prm
 * have passed fr_pdm_run_check's FR_ENULL and FR_ESIZE classes. */
int fri_pdm_trace_sizes(const fr_pdm_problem *P, const fr_pdm_params *prm, size_t *ndmax);

/* Client i's round t, (10a)-(12) (run_local.c): x, lam (D entries) are
 * x_i^t, lambda_i^t on entry and x_i^{t+1}, lambda_i^{t+1} on return; yt
 * receives the upload; x0 is x_0^t.  gb, gn: the client's batch and noise
 * streams.  Writes the records Q, capped, sigma, stop2 at rec = t N + i
 * and appends the draws (KEEP_DRAWS). */
int fri_pdm_client(fri_pdm_ws *w, fr_pdm_trace *tr, const fr_pdm_problem *P, const fr_pdm_params *prm,
                   unsigned long t, size_t i, size_t off, mpfr_t *x, mpfr_t *lam, mpfr_t *yt,
                   mpfr_t *const x0, frng_t *gb, frng_t *gn);

/* The measure (21) at the state (x0, x, lam) (run_p.c): each part the
 * exact value of the state's numbers (the full-data gradients rounded by
 * fr_pdm_loss at precision p) rounded once; P = RN(Px + Plam + Px0). */
int fri_pdm_measure(fri_pdm_ws *w, mpfr_ptr Pt, mpfr_ptr Px, mpfr_ptr Plam, mpfr_ptr Px0,
                    mpfr_t *const x0, mpfr_t *const x, mpfr_t *const lam, const fr_pdm_problem *P);

#endif
