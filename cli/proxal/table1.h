/* SPDX-License-Identifier: Apache-2.0 */
/* table1.h -- the per-setting runner of 004's Table 1 (Sec. 5.1, problem
 * (25)), shared by `fedref table1` (table1.c) and `fedref experiments
 * --only proxal` (exp_proxal_qp.c).  table1_run.c has the runner and the
 * paper's rows; the header comment of table1.c the setting (instance,
 * w0 streams, parameters). */
#ifndef FEDREF_CLI_PROXAL_TABLE1_H
#define FEDREF_CLI_PROXAL_TABLE1_H

#include <stdint.h>
#include "fedref.h"
#include "fedfast.h"

/* Table 1 of 004 as printed: objective mean (std) of Algorithm 1 and
 * cProx-AL, relative difference mean (std), feasibility violation mean
 * (std) of Algorithm 1 and cProx-AL, over 10 trials. */
typedef struct {
    unsigned n, d, mt;
    double o1, o1s, o3, o3s, rd, rds, f1, f1s, f3, f3s;
} cli_t1_paper;
extern const cli_t1_paper cli_t1_rows[9];

/* One run's summary. */
typedef struct {
    double obj, feas, kkt1, kkt2, time;
    unsigned long outer, inner, fact;
    int st, terminated, thm31, inner_bad;
} cli_t1_run;

/* A run failed: a status, (8) not reached, thm31_ok = 0 or an inner (7)
 * not certified. */
int cli_t1_run_failed(const cli_t1_run *r);

/* What a setting gives: m/sd = mean/population std of the objective of
 * Algorithm 1 and cProx-AL, the relative difference, the feasibility of
 * Algorithm 1 and cProx-AL; max KKT residuals over the trials; mean outer,
 * inner iterations and factorisations; Theorem 3.1 counts; seconds. */
typedef struct {
    double m[5], sd[5];
    double k1max, k2max, k1max3, k2max3;
    double out1, out3, in1, in3, fact1, fact3;
    unsigned long ok1, ok3, runs, fails;
    double tgen, time1, time3, total;
} cli_t1_setting;

/* The options of a setting: trials, seed, Algorithm 2's q; on_trial (may
 * be NULL) is called after each trial with both runs and their traces. */
typedef struct {
    unsigned long trials;
    uint64_t seed;
    double q;
    void (*on_trial)(void *arg, const cli_t1_paper *S, unsigned long trial, const cli_t1_run *r1,
                     const ff_proxal_trace *t1, const cli_t1_run *r3, const ff_proxal_trace *t3,
                     const fr_proxal_alg_params *prm);
    void *arg;
} cli_t1_opts;

/* Row `row` (0..8) of Table 1: one instance, o->trials runs of Algorithm 1
 * and cProx-AL.  0, or 2 after cli_error (the setting could not be set up:
 * the generator, a trace, w0, memory). */
int cli_t1_setting_run(size_t row, const cli_t1_opts *o, cli_t1_setting *res);

/* w (d) uniform on the unit sphere from the Gaussian tape of Philox stream
 * (seed, stream): fr_rng_gaussian2 pairs at 53 bits, z0 then z1, w = z /
 * ||z||_2 (sum of squares left to right, one sqrt, d divisions).  FR_OK or
 * the Gaussian's status (FR_EINTERNAL if z = 0). */
int cli_t1_sphere_w0(double *w, size_t d, uint64_t seed, uint64_t stream);

#endif
