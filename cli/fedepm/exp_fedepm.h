/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedepm.h -- internal to the experiment `fedepm` (cli/fedepm/exp_fedepm*.c):
 * 002 Sec. VII (FedEPM against SFedAvg and SFedProx, Figs. 2-5, Table I) on
 * real data.  exp_fedepm_data.c: the data set and its random division into
 * clients; exp_fedepm_runs.c: one configuration run over trials (fast) and
 * the ref spot check; exp_fedepm.c: the experiment (groups, CSV, plots,
 * report, verdicts). */
#ifndef FEDREF_CLI_EXP_FEDEPM_H
#define FEDREF_CLI_EXP_FEDEPM_H

#include <stddef.h>
#include <stdint.h>
#include "../experiments.h"
#include "fedfast.h"

/* A data set: D samples x n features (row-major), labels in {0, 1}. */
typedef struct {
    size_t D, n;
    double *X, *b;
    double X1;        /* max_t ||x_t||_1 (the domain bound of the certified rule) */
    const char *name; /* "Adult", "breast cancer" */
} efp_set;

/* The data set of ctx->dataset: Adult (the default) or breast cancer. */
int efp_load(exp_ctx *ctx, efp_set *s);
/* UCI Adult as 002 Sec. VII-A prepares it (fdata_adult_002: adult.data and
 * adult.test without the rows with a "?", categories as integers from 1,
 * unit-length columns, not centred; b = 1 for >50K): 45 222 x 14, from
 * ctx->data if it holds adult.data.gz, else the repository's data/adult/.
 * 0, or 2 after cli_error. */
int efp_load_adult(exp_ctx *ctx, efp_set *s);

/* Breast cancer (breast_cancer.csv, 569 x 30): each feature standardised
 * (mean 0, population std 1), then every column divided by sqrt(D), so that
 * each column has unit Euclidean length (the paper's step (iii)); label 1 =
 * benign (sklearn's label).  0, or 2 after cli_error. */
int efp_load_bc(exp_ctx *ctx, efp_set *s);
void efp_set_free(efp_set *s);

/* A random division of s into m clients as the authors' code does it
 * (effectk0.m): the rows shuffled, then m - 1 distinct cut points drawn
 * until every d_i > 0.01 D/m; the shuffle and cuts from stream (seed, 0)
 * of frng.  Fills P (owning X, b, d through *own) and Delta_i = 2 X1 / d_i.
 * 0, or 2 after cli_error. */
typedef struct {
    size_t *d;
    double *X, *b, *Delta;
} efp_split_mem;
int efp_split(const efp_set *s, size_t m, uint64_t seed, fr_logreg *P, efp_split_mem *own);
void efp_split_free(efp_split_mem *own);

/* Fraction of the samples of (X, b) (D x n) with [<x_t, w> > 0] == b_t. */
double efp_accuracy(const double *X, const double *b, size_t D, size_t n, const double *w);

/* The algorithms. */
enum { EFP_FEDEPM, EFP_SFEDAVG, EFP_SFEDPROX, EFP_NALG };
extern const char *const efp_alg_name[EFP_NALG];

/* One run's summary. */
typedef struct {
    size_t rounds;
    unsigned long cr;
    int stop;
    double fm, snr, tct, lct, acc, eps_basic, eps_adv;
} efp_result;

/* Runs algorithm alg with prm on P (fast), recording the summary; if traj
 * is not NULL, writes one line per aggregation "r,cr,f/m,gnorm2" to it.
 * t_eval: the time of one evaluation of f and grad f on P (subtracted per
 * aggregation from TCT to give LCT).  0, or 2 after cli_error. */
int efp_run(int alg, const fr_logreg *P, const fr_fedepm_params *prm, double t_eval,
            efp_result *res, FILE *traj);

/* The seconds of one ff_logreg_f (f and gradient) on P (median of a few). */
double efp_time_eval(const fr_logreg *P);

/* ref (MPFR, 256 bits) against fast on the first rounds of alg with prm:
 * the same rounds, stop, selections, and the drift of every server point
 * below FF_RUN_DRIFT_TOL.  Returns 0 if they agree (*drift the largest),
 * 1 if not (a message in why), 2 after cli_error. */
int efp_spot_check(int alg, const fr_logreg *P, const fr_fedepm_params *prm, double *drift,
                   char *why, size_t whylen);

/* ---- the experiment (exp_fedepm.c) and its report (exp_fedepm_report.c) ---- */

/* One configuration of the sweeps: group K (k0), R (rho), E (epsilon). */
typedef struct {
    char grp;
    size_t m;
    unsigned long k0;
    double rho, eps;
} efp_cfg;

/* Mean, median and quartiles of k values (NaN entries skipped). */
typedef struct {
    double mean, med, q25, q75;
} efp_stat;
typedef struct {
    efp_stat cr, tct, lct, fm, snr, acc;
    size_t capped;     /* runs that reached the round cap (no stopping rule fired) */
} efp_summary;
void efp_summarise(const efp_result *r, size_t k, efp_summary *s);

/* The privacy comparison: FedEPM under one noise mode at a fixed number of rounds. */
typedef struct {
    const char *name;  /* e.g. "(39)", "certified" */
    int noise;
    double eps, c;
} efp_pmode;

/* Everything the report needs. */
typedef struct {
    const efp_cfg *cfg;
    size_t ncfg, T;
    const efp_summary *sum;     /* ncfg x EFP_NALG */
    const efp_result *res;      /* ncfg x EFP_NALG x T */
    unsigned long cap;          /* the round cap R of the sweeps */
    const efp_pmode *pm;
    size_t npm;
    unsigned long prounds;      /* R of the privacy runs */
    const efp_summary *psum;    /* npm */
    const efp_result *pres;     /* npm x T */
    double spot_drift;          /* the largest drift of the spot checks */
    size_t D, n;
    double X1;
    const char *dname;          /* the data set's name */
} efp_all;

/* Tables, CSV summaries, plots and verdicts; 0, or 2 after cli_error. */
int efp_report(exp_ctx *ctx, const efp_all *a);

#endif
