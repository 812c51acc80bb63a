/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedpdm_check.c -- experiment `fedpdm`: the ref spot-check of a run.
 * A slice of the experiment's own data (the first XC clients, the first XS
 * samples of each, all 785 features) runs the first XT rounds of the
 * classical-DP configuration (rule (11), (13), start x_i, NOISE_PAPER with
 * clipping) in fast (ff_pdm_run) and in ref (fr_pdm_run, 128 bits); the
 * participation, Q_i^t, capped flags and batch indices must agree exactly,
 * sigma_{i,t} within 2^-40 relative, and x_0^t within the checkpoint
 * vectors' empirical tolerance VPDM_RUN_TOL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_fedpdm.h"
#include "fedref.h"
#include "../../vectors/fedpdm/pdm_runs.h"

#define XC 4
#define XS 40
#define XT 2

int xpdm_check_run(exp_ctx *ctx, const xpdm_data *D, double *seconds)
{
    double t0 = exp_now();
    const size_t n = D->P.n, m = D->P.m;
    size_t d[XC], off = 0, y[XC * XS];
    double *A = malloc((size_t)XC * XS * n * sizeof *A), eta[XT];
    if (A == NULL) return exp_fail(ctx, "out of memory in the run spot-check");
    for (size_t i = 0; i < XC; i++) {
        d[i] = XS;
        memcpy(&A[i * XS * n], &D->A[off * n], XS * n * sizeof *A);
        memcpy(&y[i * XS], &D->y[off], XS * sizeof *y);
        off += D->d[i];
    }
    fr_pdm_problem P = {.N = XC, .m = m, .n = n, .d = d, .A = A, .y = y, .beta = D->P.beta, .gamma = D->P.gamma};
    fr_pdm_eta_paper(eta, XT, 0.1);
    fr_pdm_params prm = {.T = XT, .K = 2, .b = 30, .Qmax = 2, .rule = FR_PDM_RULE_11, .nu = 1e-2, .rho = 10,
                         .eta = eta, .start = FR_PDM_START_XI, .server = FR_PDM_SERVER_PART,
                         .noise = FR_PDM_NOISE_PAPER, .eps = 7.3, .delta = 1e-5, .G = 1, .clip = 1,
                         .seed = ctx->seed, .keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS};
    fr_pdm_trace rt;
    ff_pdm_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    int s1 = fr_pdm_trace_init(&rt, &P, &prm, 128), s2 = ff_pdm_trace_init(&ft, &P, &prm);
    if (s1 == FR_OK) s1 = fr_pdm_run(&rt, &P, &prm);
    if (s2 == FR_OK) s2 = ff_pdm_run(&ft, &P, &prm);
    int fail = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        fail = exp_fail(ctx, "run spot-check: ref %s, fast %s", fr_strerror(s1), fr_strerror(s2));
    } else {
        size_t R = (size_t)XT * XC, dpart = 0, dq = 0, dcap = 0, ddraw = 0;
        double dsig = 0, drift = 0;
        for (size_t k = 0; k < R; k++) {
            dpart += rt.part[k] != ft.part[k];
            dq += rt.Q[k] != ft.Q[k];
            dcap += rt.capped[k] != ft.capped[k];
            double rs = mpfr_get_d(rt.sigma[k], MPFR_RNDN);
            if (rs > 0) dsig = fmax(dsig, fabs(ft.sigma[k] - rs) / rs);
            else if (ft.sigma[k] != 0) dsig = INFINITY;
        }
        ddraw = rt.nd != ft.nd;
        for (size_t k = 0; k < rt.nd && k < ft.nd; k++) ddraw += rt.draws[k] != ft.draws[k];
        for (size_t t = 0; t <= XT; t++) drift = fmax(drift, cli_drift(&ft.x0[t * rt.D], &rt.x0[t * rt.D], rt.D));
        int ok = !dpart && !dq && !dcap && !ddraw && dsig <= 0x1p-40 && drift < VPDM_RUN_TOL;
        exp_md(ctx, "\nref spot-check of a run (fr_pdm_run at 128 bits against ff_pdm_run): the first %d clients "
                    "of this split, %d samples each, all %zu features; rounds t = 0..%d of the classical-DP "
                    "configuration (rule (11), nu = 1e-2, (13), start x_i, eps = 7.3 per round by (18)/(19), "
                    "G = 1 with clipping, rho = 10, eta^t = 0.1/sqrt(1+t), K = 2, b = 30, Qmax = 2). "
                    "Participation, Q_i^t, capped flags: %zu, %zu, %zu differences; batch indices (%zu): %zu "
                    "differences; sigma_{i,t}: largest relative difference %.2g (tolerance 2^-40); x_0^t: "
                    "largest drift %.2g (tolerance %.2g = VPDM_RUN_TOL, empirical): %s.\n",
               XC, XS, n, XT - 1, dpart, dq, dcap, rt.nd, ddraw, dsig, drift, VPDM_RUN_TOL,
               ok ? "agree" : "**DISAGREE**");
        if (!ok)
            fail = exp_fail(ctx, "run spot-check: S %zu, Q %zu, capped %zu, draws %zu differ; sigma %.3g, x0 drift %.3g",
                            dpart, dq, dcap, ddraw, dsig, drift);
    }
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
    free(A);
    *seconds = exp_now() - t0;
    return fail;
}
