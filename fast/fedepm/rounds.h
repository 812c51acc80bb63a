/* SPDX-License-Identifier: Apache-2.0 */
/* rounds.h -- internal to libfedfast (not installed): the round loop of
 * docs/FEDEPM.md section 1 shared by ff_fedepm_run, ff_sfedavg_run and
 * ff_sfedprox_run, the initialisation of section 2, the uploads with the
 * noise rule of section 4 ((27), (39)), the SNR of Sec. VII-C and the
 * aggregation (34) of the two baselines.  Each algorithm supplies its
 * server step and its client block (fast/fedepm_run.c, fast/sfedavg_run.c,
 * fast/sfedprox_run.c). */
#ifndef FF_FL_ROUNDS_H
#define FF_FL_ROUNDS_H

#include <cblas.h>
#include <limits.h>

#include "fedfast.h"

/* y = x and y += a x (BLAS level 1; a plain loop beyond int range). */
static inline void ffi_fl_copy(double *y, const double *x, size_t n)
{
    if (n <= INT_MAX)
        cblas_dcopy((int)n, x, 1, y, 1);
    else
        for (size_t j = 0; j < n; j++)
            y[j] = x[j];
}

static inline void ffi_fl_axpy(double *y, double a, const double *x, size_t n)
{
    if (n <= INT_MAX)
        cblas_daxpy((int)n, a, x, 1, y, 1);
    else
        for (size_t j = 0; j < n; j++)
            y[j] += a * x[j];
}

/* The state of one run.  All buffers are allocated once by ffi_fl_drive and
 * freed on every path; the records are copied into the trace only when the
 * run succeeds (an error after the start resets the trace instead). */
typedef struct {
    const fr_logreg *P;
    const fr_fedepm_params *prm;
    size_t m, n, nsel;
    double *W, *Z;          /* m x n: client iterates w_i, last uploads z_i */
    double *w;              /* the current server point (a row of rec_w) */
    double *g;              /* n: g_i = grad f_i(w^r) of the client at work */
    double *a, *b, *c;      /* n: scratch of the client blocks */
    double *eps;            /* n: the noise of the upload in progress */
    double *snr_i;          /* m: log10(||w_i|| / ||eps_i||) of the last upload */
    unsigned char *up;      /* m: 1 iff client i uploaded after k = 0 */
    double *rec_w, *rec_f, *rec_g2;
    size_t *rec_sel;
    frng_t sel_rng;         /* (seed, FR_STREAM_SELECT) */
    frng_t *noise;          /* m: (seed, FR_STREAM_NOISE + i) */
    /* privacy bookkeeping (docs/FEDEPM.md section 9) */
    double *S;              /* m: l1 sensitivity bound of w_i (upper; +Inf: none) */
    unsigned long *steps;   /* m: client updates done by client i */
    double *rec_nu0, *rec_loss0, *rec_eb, *rec_ea;   /* m */
    double *rec_nu, *rec_loss;                       /* cap x nsel */
    double *lst;            /* cap + 1: one client's upload losses */
    size_t row;             /* the round being run, r - 1 */
    int sens_known;         /* the algorithm's blocks call ffi_fl_sens */
} ffi_fl_state;

/* One algorithm: its argument check (fedspec/fedepm.h), the order of the
 * selection draw (1: before the aggregation, as (34) needs), the server
 * step writing s->w from s->Z (and S^r), and the local block of client i
 * for k = kfirst, ..., kfirst + k0 - 1 ending with its upload. */
typedef struct {
    int (*check)(const fr_logreg *, const fr_fedepm_params *);
    int select_first;
    int (*aggregate)(ffi_fl_state *s, const size_t *S);
    int (*client_block)(ffi_fl_state *s, size_t i, unsigned long kfirst);
    int sens_known;         /* 1: client_block calls ffi_fl_sens after each
                             * update (FedEPM); 0: no sensitivity bound */
} ffi_fl_algo;

/* Runs A on (P, prm) into t (docs/FEDEPM.md sections 1-5).  Checks in
 * the class order of fedref_common.h, A->check(P, prm) reporting P's and
 * prm's classes at their places: FR_ENULL (t, or a zeroed trace: arrays
 * NULL), FR_ESIZE (m, n, nsel different from P's and prm's, or cap <
 * rounds + 1), FR_ENONFINITE, FR_EDOM; these leave t untouched.  A
 * building block's error (e.g. FR_ENONFINITE when an iterate overflows
 * binary64) ends the run with that status, FR_ENOMEM on allocation
 * failure; both reset the trace (ffi_fl_trace_reset).  The records are
 * written only on success. */
int ffi_fl_drive(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
                const ffi_fl_algo *A);

/* The reset state of a trace (fedref_common.h, rule 3): every value NaN,
 * every sel entry SIZE_MAX, rounds = iters = cr = 0, stop =
 * FR_STOP_ROUNDS, snr_clients = 0.  trace.c. */
void ffi_fl_trace_reset(ff_fedepm_trace *t);

/* The upload of client i at the end of a block (k + 1 in K): scale nu by
 * the noise rule with mu = mu_{i,k+1} and g = g_i ((39): 2||g||_1/(eps mu);
 * (27): Delta_i/(eps mu); certified: S_i/eps; all rounded up), n
 * Laplace(0, nu) draws from client i's stream (none when nu = 0: the noise
 * is then exactly 0), z_i = w_i + eps_i, the client's SNR term, and nu and
 * the upload's privacy loss in row s->row (docs/FEDEPM.md section 9). */
int ffi_fl_upload(ffi_fl_state *s, size_t i, double mu, const double *g);

/* After a client update (20) of client i with weight mu: S_i <-
 * ff_dp_sens_step_upper(S_i, Delta_i, eta, mu) under (27) and the
 * certified rule, +Inf under the others; counts the step. */
int ffi_fl_sens(ffi_fl_state *s, size_t i, double mu);

/* (34): w = (1/nsel) sum_{i in S} z_i, a compensated sum per coordinate
 * (Neumaier) in draw order, scaled by a power of two when it could
 * overflow; |w_j - exact| <= 2 eps |exact| + 2 (nsel eps)^2 max_i |z_ij|
 * + 2^-1074 (the last for subnormal results). */
int ffi_fl_mean_aggregate(ffi_fl_state *s, const size_t *S);

/* (38): gamma_i^k = 2 d_i / sqrt(2 k0 + ceil(k / k0)) (the bracket is the
 * ceiling, fr_tau); relative error <= 2 eps (for d_i, 2 k0 + tau < 2^52). */
double ffi_fl_gamma38(size_t d_i, unsigned long k0, unsigned long k);

/* sum_j x_j^2 without spurious overflow or underflow (scaled by a power
 * of two); relative error <= (n + 1) eps. */
double ffi_fl_sumsq(const double *x, size_t n);

/* ||x||_2 = sqrt(ffi_fl_sumsq) computed the same scaled way. */
double ffi_fl_nrm2(const double *x, size_t n);

/* ff_logreg_fi and ff_logreg_f for the runs (fast/fedepm/logreg.c): the
 * same computation and bounds, but P is taken as checked (the run's
 * fr_*_check did it once), so a call reads X_i once instead of scanning
 * the whole problem again: P valid, i < m, fi or gi non-NULL, not
 * overlapping.  FR_ENONFINITE if w is not finite (an iterate that
 * overflowed), FR_ENOMEM, else FR_OK. */
int ffi_logreg_fi(double *fi, double *gi, const fr_logreg *P, size_t i, const double *w);
int ffi_logreg_f(double *f, double *g, const fr_logreg *P, const double *w);

#endif /* FF_FL_ROUNDS_H */
