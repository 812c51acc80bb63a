/* SPDX-License-Identifier: Apache-2.0 */
/* exp_ssca_check.c -- the ref spot-check of experiment_ssca: the first
 * rounds of a run on a slice of Fashion-MNIST, in ref (MPFR at 256 bits)
 * and in fast, with the same parameters, draws and initial point; the
 * experiment fails when the draws or Lemma 1 branches differ or fast's
 * iterates drift from ref's by VSSCA_RUN_TOL or more (the checkpoint
 * vectors' empirical tolerance, as the audit). */
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_ssca.h"
#include "fedref.h"
#include "fedfast.h"

#define SPOT_PREC 256

int xssca_spot(const fr_ssca_data *D, const fr_ssca_params *prm0, unsigned long rounds,
               const double *w1, double *drift, int *same, double *ref_s)
{
    fr_ssca_params prm = *prm0;
    prm.T = rounds + 1;
    prm.w1 = w1;
    prm.keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS;
    fr_ssca_trace rt;
    ff_ssca_trace ft = {0};
    memset(&rt, 0, sizeof rt);
    int st = fr_ssca_trace_init(&rt, D, &prm, SPOT_PREC);
    if (st == FR_OK) st = ff_ssca_trace_init(&ft, D, &prm);
    double t0 = bench_now();
    if (st == FR_OK) st = fr_ssca_run(&rt, D, &prm);
    *ref_s = bench_now() - t0;
    if (st == FR_OK) st = ff_ssca_run(&ft, D, &prm);
    if (st == FR_OK) {
        const size_t T = rt.T, d = rt.d;
        *same = rt.rounds == ft.rounds && rt.nd == ft.nd
             && memcmp(rt.draws, ft.draws, (T - 1) * rt.nd * sizeof *rt.draws) == 0
             && memcmp(rt.branch, ft.branch, (T - 1) * sizeof *rt.branch) == 0;
        double dmax = 0;
        for (size_t t = 0; t < T; t++) {
            double x = cli_drift(&ft.w[t * d], &rt.w[t * d], d);
            if (!(x <= dmax)) dmax = x;    /* NaN propagates */
        }
        *drift = dmax;
    }
    fr_ssca_trace_clear(&rt);
    ff_ssca_trace_clear(&ft);
    return st;
}
