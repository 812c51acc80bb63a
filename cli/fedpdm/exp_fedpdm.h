/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedpdm.h -- the internals of experiment `fedpdm` (003
 * Sec. V, Figs. 1-2 on Fashion-MNIST): the data conversion
 * (exp_fedpdm_data.c), the calibrations and the accountant
 * (exp_fedpdm_acct.c), the ref spot-checks (exp_fedpdm_check.c); the
 * experiment itself is exp_fedpdm.c. */
#ifndef FEDREF_CLI_EXP_FEDPDM_H
#define FEDREF_CLI_EXP_FEDPDM_H

#include <stddef.h>
#include <stdint.h>
#include "../experiments.h"
#include "fedfast.h"

/* The problem of 003 Sec. V-A on Fashion-MNIST: features = pixels / 255
 * (in [0, 1]) and a constant 1 as the 785th feature (the bias: n = 785);
 * the training samples shuffled (frng stream (seed, XPDM_STREAM_SPLIT))
 * and dealt to N clients of dper samples each (iid, "uniformly
 * distributed"), stored client by client; the first ntest test samples. */
#define XPDM_STREAM_SPLIT 14003u
typedef struct {
    fr_pdm_problem P;
    size_t *d;             /* N sizes, all dper */
    double *A, *At;        /* training rows (client by client), test rows */
    size_t *y, *yt;
    size_t ntest;
} xpdm_data;

/* 0, or 2 after cli_error (data missing or rejected, no memory). */
int xpdm_load(exp_ctx *ctx, xpdm_data *D, size_t N, size_t dper, size_t ntest, double beta, double gamma);
void xpdm_free(xpdm_data *D);

/* Calibrations (s = 1; sigma scales with the sensitivity).
 * xpdm_thm2_eps: the per-round eps that makes (20) with c0 = 1 equal
 * eps_bar (q = Q b / d_i, p = K / N): eps = eps_bar / (q^2 sqrt(p T /
 * (1 - q))); checked by evaluating (20) with ff_fedpdm_thm2.
 * xpdm_sigma1_for_total: the least noise multiplier sigma1 (to relative
 * 2^-30, the returned end certified: total <= eps_bar) whose accountant
 * total (ff_fedpdm_rdp_rounds, mu = 1/(2 sigma1^2) every round, first = 1,
 * K of N) is at most eps_bar.  0 or -1 (a status other than FR_OK). */
int xpdm_thm2_eps(double *eps, double eps_bar, double c0, unsigned long K, unsigned long N, unsigned long T,
                  double q);
int xpdm_sigma1_for_total(double *sigma1, double eps_bar, unsigned long K, unsigned long N, unsigned long T,
                          double delta);

/* The ref spot-checks (each returns 0, or 1 after exp_fail):
 * xpdm_check_acct: the calibrations and accountant values the report uses,
 * fast against ref (sigma (5), sigma analytic, the RDP totals, (20));
 * xpdm_check_run: the first rounds of a run (noise (18)/(19), rule (11),
 * the paper's server and start) on a slice of the data, ff_pdm_run
 * against fr_pdm_run at 128 bits. */
int xpdm_check_acct(exp_ctx *ctx, const double *eps_round, size_t neps, double delta, unsigned long K,
                    unsigned long N, unsigned long T, double q, double *seconds);
int xpdm_check_run(exp_ctx *ctx, const xpdm_data *D, double *seconds);

#endif
