/* SPDX-License-Identifier: Apache-2.0 */
/* rounds.h -- pieces shared by fr_fedepm_run, fr_sfedavg_run and
 * fr_sfedprox_run (not installed): argument checks, temporaries, the
 * initial and the later noisy uploads (002 (21), (37), (39), (27)), the
 * aggregation (34) of the baselines, the stepsize (38), the per-round
 * records, the stopping rule and the SNR (Sec. VII-B/C).
 * docs/FEDEPM.md is the normative description.  Every temporary has the
 * working precision p of the trace; the binary64 parameters are held
 * exactly at 53 bits. */
#ifndef FEDREF_REF_FL_ROUNDS_H
#define FEDREF_REF_FL_ROUNDS_H

#include "fedref.h"

typedef struct {
    fr_fedepm_trace *t;
    const fr_logreg *P;
    const fr_fedepm_params *prm;
    size_t m, n;
    mpfr_prec_t p;                 /* working precision */
    /* the parameters, exact (53 bits) */
    mpfr_t lambda, eta, mu0, c, alpha, eps, mu_prox, delta;
    /* scalars at p */
    mpfr_t mu, nu, gamma, s;
    mpfr_t iv;                     /* 136 bits: the exact integer 2 k0 + tau of (38) */
    mpfr_t *g;                     /* n: grad f_i(w^r) of the client being served */
    mpfr_t *h;                     /* n: a second gradient / work vector */
    mpfr_t *e;                     /* n: the noise vector of an upload */
    mpfr_t *sq;                    /* n at 2p: exact squares or products */
    mpfr_ptr *ptr;                 /* max(n, m) + 1 pointers for mpfr_sum */
    mpfr_t *snr;                   /* m: log10(||w_i|| / ||eps_i||) at i's last upload */
    unsigned char *uploaded;       /* m: uploaded after k = 0 */
    /* privacy bookkeeping (docs/FEDEPM.md section 9) */
    mpfr_t *S;                     /* m: l1 sensitivity bound of w_i (at p, rounded up; +Inf: none) */
    unsigned long *steps;          /* m: client updates done by client i */
    mpfr_t *lst;                   /* cap + 1: one client's upload losses, for fr_dp_compose */
    mpfr_t one, acct;              /* 1; delta' of the accountant (53 bits) */
    size_t row;                    /* the round being run, r - 1 */
    int sens_known;                /* 1: the algorithm's blocks update S (FedEPM) */
    frng_t sel;                    /* (seed, FR_STREAM_SELECT) */
    frng_t *noise;                 /* m: (seed, FR_STREAM_NOISE + i) */
} fri_fl_ctx;

/* Check (t, P, prm) for one algorithm in the class order of
 * fedref_common.h, with check (its fr_*_check of fedspec/fedepm.h)
 * reporting P's and prm's classes at their places: FR_ENULL (also a
 * zeroed trace), FR_ESIZE (also a trace not initialised for P->m, P->n,
 * prm->nsel with at least rounds + 1 rows), FR_ENONFINITE, FR_EDOM.
 * Writes nothing. */
int fri_fl_check(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
                 int (*check)(const fr_logreg *, const fr_fedepm_params *));

/* Allocate every temporary for checked arguments (FR_ENOMEM, nothing
 * written) and reset the records.  On success the caller must call
 * fri_fl_ctx_clear. */
int fri_fl_ctx_init(fri_fl_ctx *c, fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
void fri_fl_ctx_clear(fri_fl_ctx *c);

/* The reset state of a trace (fedref_common.h, rule 3): every value NaN,
 * every sel entry SIZE_MAX, rounds = iters = cr = 0, stop =
 * FR_STOP_ROUNDS, snr_clients = 0.  trace.c. */
void fri_fl_trace_reset(fr_fedepm_trace *t);

/* Section 2: w_i^0 = 0, z_i^0 = eps_i^0 with the scale of mu_{i,0}. */
int fri_fl_initial_uploads(fri_fl_ctx *c);

/* Upload of client i at the end of a block (21)/(37): z_i = w_i + eps_i,
 * eps_i n Laplace draws of scale nu (docs/FEDEPM.md section 4) rounded
 * upward, nu from c->g (= grad f_i(w^r)), mu = mu_{i,k+1} and (certified
 * rule) S_i; records the client's SNR, nu and the upload's privacy loss
 * in row c->row of the trace (docs/FEDEPM.md section 9). */
int fri_fl_upload(fri_fl_ctx *c, size_t i, mpfr_srcptr mu);

/* After a client update (20) of client i with weight mu: one step of the
 * sensitivity recursion S_i <- RU((mu S_i + Delta_i) / (eta + mu))
 * (fr_dp_sens_step) under (27) and the certified rule, S_i = +Inf (no
 * bound) under the other rules; counts the step. */
int fri_fl_sens(fri_fl_ctx *c, size_t i, mpfr_srcptr mu);

/* mu_{i,k+1} of (20) into c->mu, from w_i^k = row i of W and w. */
int fri_fl_mu(fri_fl_ctx *c, size_t i, unsigned long kp1, mpfr_t *const w);

/* S^r into row r-1 of t->sel (section 3). */
int fri_fl_select(fri_fl_ctx *c, size_t r);

/* (34): row r-1 of t->w = mean of z_i over i in S^r. */
int fri_fl_mean_selected(fri_fl_ctx *c, size_t r);

/* (38): c->gamma = 2 d_i / sqrt(2 k0 + ceil(k / k0)). */
void fri_fl_gamma(fri_fl_ctx *c, size_t i, unsigned long k);

/* out_j = src_j - gamma x_j, correctly rounded (one fused operation);
 * out may alias src.  The gradient steps (35), Algorithm 4. */
void fri_fl_step(mpfr_t *out, mpfr_t *const src, mpfr_srcptr gamma, mpfr_t *const x, size_t n);

/* f, ||grad f||^2 at w^r (row r-1), the rule of section 5 when
 * prm->stopping; *stop = enum fr_stop (FR_STOP_ROUNDS: go on). */
int fri_fl_record(fri_fl_ctx *c, size_t r, int *stop);

/* rounds, iters, cr, stop, the SNR and the per-client privacy totals of
 * the trace (fr_dp_compose, rounded up); a status from fr_dp_compose. */
int fri_fl_finish(fri_fl_ctx *c, size_t rounds, int stop);

/* On an error after the run started: the trace is reset. */
void fri_fl_abandon(fri_fl_ctx *c);

/* The round loop of docs/FEDEPM.md section 1, shared by the three runs:
 * for r = 1, 2, ...: aggregate (w^r into row r-1 of t->w, and S^r drawn,
 * in the algorithm's order), record and test the stopping rule, then the
 * local block of the selected clients.  Checks (an argument error writes
 * nothing), runs, finishes, or resets the trace on an error after the
 * start (FR_ENOMEM included); returns the status.  sens_known: 1 if the
 * blocks call fri_fl_sens after each client update (FedEPM); 0: fedref
 * has no sensitivity bound for the algorithm's updates (the baselines). */
typedef int (*fri_fl_aggregate_fn)(fri_fl_ctx *c, size_t r);
typedef int (*fri_fl_block_fn)(fri_fl_ctx *c, size_t r, mpfr_t *const w);
int fri_fl_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
               int (*check)(const fr_logreg *, const fr_fedepm_params *),
               fri_fl_aggregate_fn aggregate, fri_fl_block_fn block, int sens_known);

/* The baselines' aggregation: S^r first, then the mean (34). */
int fri_fl_select_then_mean(fri_fl_ctx *c, size_t r);

/* fr_logreg_fi and fr_logreg_f for the runs (ref/fedepm/logreg.c): the
 * same computation, but P is taken as checked (the run's fr_*_check did it
 * once), so a call does not scan the whole problem again: P valid, i < m,
 * fi or gi non-NULL, not overlapping.  FR_ENONFINITE if w is not finite,
 * FR_ENOMEM, else FR_OK. */
int fri_logreg_fi(mpfr_t fi, mpfr_t *gi, const fr_logreg *P, size_t i, mpfr_t *const w);
int fri_logreg_f(mpfr_t f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w);

#endif
