/* SPDX-License-Identifier: Apache-2.0 */
/* check_schedule.c -- 003 Sec. V's parameters (rho = 10, eta^t = 1/sqrt(1+t))
 * make the local steps (10a) diverge in the first rounds (finding E-003-V1).
 *
 * (10a) is gradient descent with step eta^t on the local function
 *   phi(x) = f_i(x; B) - lambda^T x + (rho/2) ||x - x_0||^2,
 * whose Hessian is Hess f_i + rho I.  For the model (25) with features in
 * [0, 1)^n, -2 beta I <= Hess f_i <= (n/4 + 2 beta) I (the logistic term's
 * curvature is at most ||a||^2 / 4 <= n / 4, and |r''| <= 2 for r(x) =
 * x^2/(1 + x^2)).  Gradient descent on phi contracts only if eta (rho + L)
 * < 2; with eta^t rho >= 2 + 2 eta^t beta the linear part of the step has
 * a factor |1 - eta^t (rho + h)| > 1 for every curvature h in the range, so
 * deviations grow geometrically (factor 9 - eta L at t = 0).  eta^t rho > 2
 * iff t + 1 < 25, i.e. rounds t = 0..23 of the paper's schedule.
 * pc_fedpdm_paper_schedule: (a) eta^t rho > 2 exactly for t <= 23 and <= 2
 * for t >= 24 (exact rationals: 100 > 4 (t + 1)); (b) on seeded small
 * problems, one round of fr_pdm_run (rule FIXED, Q = 6, K = N, no noise,
 * 128 bits) with the paper's eta^0 = 1 has P of (21) at state 1 above 1e8
 * while the same round with eta0 = 0.05 (eta rho = 0.5) keeps it below 10
 * (P at state 0 is below 1 in every case): the paper's schedule, not the
 * problem, makes the iterates explode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_SCHED UINT64_C(0x70632d7363686564)   /* "pc-sched" */
#define NCASE_MAX 40

static int one_run(mpfr_t P1, mpfr_t P0, const fr_pdm_problem *P, double eta0, uint64_t seed)
{
    double eta[1] = {eta0};
    fr_pdm_params prm = {.T = 1, .K = P->N, .b = 2, .Qmax = 6, .rule = FR_PDM_RULE_FIXED, .nu = 0,
                         .rho = 10, .eta = eta, .start = FR_PDM_START_XI, .server = FR_PDM_SERVER_ALL,
                         .noise = FR_PDM_NOISE_NONE, .x0 = NULL, .seed = seed, .keep = FR_PDM_KEEP_P};
    fr_pdm_trace t;
    memset(&t, 0, sizeof t);
    int st = fr_pdm_trace_init(&t, P, &prm, 128);
    if (st == FR_OK) st = fr_pdm_run(&t, P, &prm);
    if (st == FR_OK) {
        mpfr_set(P0, t.P[0], MPFR_RNDN);
        mpfr_set(P1, t.P[1], MPFR_RNDN);
    }
    fr_pdm_trace_clear(&t);
    return st;
}

int pc_fedpdm_paper_schedule(pc_ctx *ctx)
{
    ctx->function = "pdm_run";
    ctx->vector = NULL;
    ctx->claim = "003 Sec. V: rho = 10, eta^t = 1/sqrt(1+t) gives eta^t rho > 2 for t <= 23, and the local "
                 "steps (10a) diverge there";
    ctx->erratum = "E-003-V1";
    char first[300] = "";
    /* (a) exact: eta^t rho > 2  <=>  10 > 2 sqrt(t + 1)  <=>  25 > t + 1 */
    for (unsigned long t = 0; t < 300; t++) {
        ctx->ran++;
        int expansive = 100 > 4 * (t + 1);
        if (expansive != (t <= 23)) {
            ctx->failed++;
            if (!first[0]) snprintf(first, sizeof first, "t = %lu: eta rho > 2 misclassified", t);
        }
    }
    /* (b) whole rounds in ref */
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_SCHED);
    mpfr_t P0a, P1a, P0b, P1b;
    mpfr_inits2(128, P0a, P1a, P0b, P1b, (mpfr_ptr)0);
    unsigned long ncase = ctx->cases < NCASE_MAX ? ctx->cases : NCASE_MAX;
    double minratio = 1e300;
    for (unsigned long r = 0; r < ncase; r++) {
        size_t N = 2 + pcu_below(&g, 3), m = 2 + pcu_below(&g, 2), n = 3 + pcu_below(&g, 3), d[4];
        uint64_t dseed = pcu_below(&g, 1ul << 30), rseed = pcu_below(&g, 1ul << 30);
        double *A = NULL;
        size_t *y = NULL, Dt = 0;
        int st = fr_pdm_synth_sizes(dseed, N, 4, 8, d);
        for (size_t i = 0; st == FR_OK && i < N; i++) Dt += d[i];
        if (st == FR_OK) {
            A = malloc(Dt * n * sizeof *A);
            y = malloc(Dt * sizeof *y);
            st = A && y ? fr_pdm_synth_data(dseed, N, m, n, d, A, y) : FR_ENOMEM;
        }
        fr_pdm_problem P = {.N = N, .m = m, .n = n, .d = d, .A = A, .y = y, .beta = 1e-2, .gamma = 1e-4};
        if (st == FR_OK) st = one_run(P1a, P0a, &P, 1.0, rseed);
        if (st == FR_OK) st = one_run(P1b, P0b, &P, 0.05, rseed);
        ctx->ran++;
        const char *why = NULL;
        if (st != FR_OK)
            why = fr_strerror(st);
        else if (!(mpfr_cmp_d(P0a, 1) < 0 && mpfr_equal_p(P0a, P0b)))
            why = "P at state 0 is not below 1, or differs between the runs";
        else if (!(mpfr_cmp_d(P1a, 1e8) > 0))
            why = "the paper's eta^0 = 1 did not make P explode";
        else if (!(mpfr_cmp_d(P1b, 10) < 0))
            why = "eta0 = 0.05 did not keep P bounded";
        else {
            double ratio = mpfr_get_d(P1a, MPFR_RNDD) / mpfr_get_d(P1b, MPFR_RNDU);
            if (ratio < minratio) minratio = ratio;
        }
        if (why) {
            ctx->failed++;
            if (!first[0]) snprintf(first, sizeof first, "case %lu (N %zu m %zu n %zu): %s", r, N, m, n, why);
        }
        free(A);
        free(y);
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail, "eta^t rho > 2 exactly for t <= 23; %lu one-round runs "
                 "(Q = 6): P(state 1) with eta^0 = 1 is >= %.3g times that with eta0 = 0.05", ncase, minratio);
    mpfr_clears(P0a, P1a, P0b, P1b, (mpfr_ptr)0);
    return ctx->failed != 0;
}
