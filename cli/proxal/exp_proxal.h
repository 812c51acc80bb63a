/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal.h -- the experiment proxal (004 Sec. 5,
 * Tables 1-2): the internal interface of its files.
 *   exp_proxal.c       the entry point: plan, the two parts, verdicts
 *   exp_proxal_qp.c    (a) Table 1 (QP (25)) through table1_run.c
 *   exp_proxal_data.c  breast_cancer.csv -> standardised rows with an
 *                      intercept, a stratified train/test split, clients
 *   exp_proxal_np.c    (b) Table 2 (Neyman-Pearson (26)-(27)) on it
 *   exp_proxal_fair.c  (c) Table 3 (fairness (28)) on adult-b
 *   exp_proxal_ref.c   ref's spot checks of the first outer iterations */
#ifndef FEDREF_CLI_PROXAL_EXP_PROXAL_H
#define FEDREF_CLI_PROXAL_EXP_PROXAL_H

#include "../experiments.h"
#include "fedref.h"
#include "fedfast.h"

/* The breast-cancer data as (26) uses it: row = (1, z_1, .., z_30), z the
 * features standardised by the TRAINING split's mean and population std;
 * y = 1 for malignant (sklearn's label 0: the minority class, whose loss
 * (26) constrains), 0 for benign.  The split is stratified: a fraction of
 * each class (seeded permutation) is held out for testing. */
typedef struct {
    size_t d;                   /* 31 */
    size_t ntr, nte, ntr1, nte1;/* rows; rows of class 1 */
    double *xtr, *xte;          /* rows of d */
    unsigned char *ytr, *yte;
} px_bc;
/* 0, or 2 after cli_error (data missing or rejected, memory). */
int px_bc_load(exp_ctx *ctx, double test_frac, px_bc *bc);
void px_bc_free(px_bc *bc);

/* Problem (26) for n clients: the training rows of each class dealt in a
 * seeded random order round robin over the clients (the same amount of
 * data and imbalance ratio per client, as Sec. 5.2 says), r_i = r.
 * per_class > 0 keeps only the first per_class rows of each class per
 * client and dkeep > 0 the first dkeep columns (the intercept and the
 * first dkeep - 1 features): the reduced slice of ref's spot check. */
typedef struct {
    size_t *cnt;
    double *X, *r;
    unsigned char *y;
    fr_proxal_problem P;
} px_np;
int px_np_make(const px_bc *bc, size_t n, double r, uint64_t seed, uint64_t stream, size_t per_class,
               size_t dkeep, px_np *np);
void px_np_free(px_np *np);
/* Client i's (1..n) losses: mean phi over its class-0 rows (l0) and its
 * class-1 rows (l1), from ff_proxal_client_eval (f_i n and c_i + r_i). */
int px_np_losses(const px_np *np, size_t i, const double *w, double *l0, double *l1);

/* The two parts; 0, 1 (a check of fedref's own failed) or 2 (cli_error). */
int px_part_qp(exp_ctx *ctx);
int px_part_np(exp_ctx *ctx);
int px_part_fair(exp_ctx *ctx);
/* ref (128 bits) against fast on the first `kmax` outer iterations of
 * Algorithms 1 and 3 on P (same parameters): iteration and inner counts
 * equal, the drift of every w^k below 1e-7, the KKT residuals within 1e-6
 * relative; a line of the report per algorithm; exp_fail if not.  0, 1 or
 * 2 as above. */
int px_ref_spot(exp_ctx *ctx, const char *what, const fr_proxal_problem *P, const fr_proxal_alg_params *prm,
                size_t kmax);
/* The runs the experiment plans (exp_plan) for ctx->quick. */
unsigned long px_qp_runs(const exp_ctx *ctx);
unsigned long px_np_runs(const exp_ctx *ctx);
unsigned long px_fair_runs(const exp_ctx *ctx);
/* Table 3's Algorithm-1 runs, each 100 to 1000 times a cProx-AL run, as
 * runs of kinds of their own (exp_plan_kind): after exp_plan. */
void px_fair_plan_kinds(exp_ctx *ctx);

#endif
