/* SPDX-License-Identifier: Apache-2.0 */
/* audit_runs.c -- module fedpdm's section of `fedref audit` for Algorithm 1
 * of 003 end to end (fedspec/fedpdm.h, section "Algorithm 1"; docs/FEDPDM.md
 * 5): ref (MPFR, 256 bits) and fast (binary64) on a small seeded problem
 * (fr_pdm_synth with seed 2026: N = 6 clients of 8..16 samples, m = 3, n =
 * 8, beta = 1e-2, gamma = 1e-3; T = 8, b = 3, Qmax = 4, rho = 10, eta^t =
 * 0.05/sqrt(1 + t), x_0^0 = 0), one row per option combination: how many
 * participation flags, Q_i^t and batch indices differ between the wings
 * (each must be 0), fast's drift from ref on x_0^t (the largest over t),
 * the largest Px0 after a server step (t >= 1: 0 for SERVER_ALL without
 * noise, > 0 for SERVER_PART with K < N, E-003-P1), the final P (21), the
 * capped and early-stopped (round, client) pairs of rule (11), the time of
 * each wing.  The run seed is the audit seed.  A row fails when S_t, Q or
 * the draws differ, the drift reaches VPDM_RUN_TOL (the checkpoint
 * vectors' empirical tolerance), or Px0 after a SERVER_ALL noise-free step
 * exceeds 2^-200 (the exact value is 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "../../vectors/fedpdm/pdm_runs.h"
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 256
#define AN 6
#define AM 3
#define ANF 8
#define AT 8

typedef struct {
    const char *label;
    size_t K;
    int rule, start, server, noise, clip;
} combo;

static int row(const combo *c, const fr_pdm_problem *P, const double *eta, const double *sig, uint64_t seed)
{
    fr_pdm_params prm = {.T = AT, .K = c->K, .b = 3, .Qmax = 4, .rule = c->rule, .nu = 5e-2, .rho = 10,
                         .eta = eta, .start = c->start, .server = c->server, .noise = c->noise, .eps = 1,
                         .delta = 1e-5, .G = 1, .sigma = sig, .clip = c->clip, .x0 = NULL, .seed = seed,
                         .keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P};
    fr_pdm_trace rt;
    ff_pdm_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    int s1 = fr_pdm_trace_init(&rt, P, &prm, REF_PREC), s2 = ff_pdm_trace_init(&ft, P, &prm);
    double t0 = bench_now();
    if (s1 == FR_OK) s1 = fr_pdm_run(&rt, P, &prm);
    double t1 = bench_now();
    if (s2 == FR_OK) s2 = ff_pdm_run(&ft, P, &prm);
    double t2 = bench_now();
    int fail = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        printf("%-26s run failed: ref %s, fast %s\n", c->label, fr_strerror(s1), fr_strerror(s2));
        fail = 1;
    } else {
        const size_t R = (size_t)AT * AN, D = rt.D;
        size_t dpart = 0, dq = 0, ddraw = 0, ncap = 0, nstop = 0;
        for (size_t k = 0; k < R; k++) {
            dpart += rt.part[k] != ft.part[k];
            dq += rt.Q[k] != ft.Q[k];
            if (rt.part[k] && c->rule == FR_PDM_RULE_11) {
                ncap += rt.capped[k];
                nstop += rt.Q[k] < prm.Qmax;
            }
        }
        size_t nd = rt.nd < ft.nd ? rt.nd : ft.nd;
        for (size_t k = 0; k < nd; k++)
            ddraw += rt.draws[k] != ft.draws[k];
        ddraw += rt.nd > ft.nd ? rt.nd - ft.nd : ft.nd - rt.nd;
        double drift = 0, px0 = 0;
        for (size_t t = 0; t <= AT; t++)
            drift = fmax(drift, cli_drift(&ft.x0[t * D], &rt.x0[t * D], D));
        for (size_t t = 1; t <= AT; t++)
            px0 = fmax(px0, mpfr_get_d(rt.Px0[t], MPFR_RNDU));
        double Pfin = mpfr_get_d(rt.P[AT], MPFR_RNDN), fPfin = ft.P[AT];
        int exact = c->server == FR_PDM_SERVER_ALL && c->noise == FR_PDM_NOISE_NONE;
        fail = dpart || dq || ddraw || !(drift < VPDM_RUN_TOL) || (exact && !(px0 <= 0x1p-200));
        char caps[24] = "-";
        if (c->rule == FR_PDM_RULE_11)
            snprintf(caps, sizeof caps, "%zu/%zu", ncap, nstop);
        printf("%-26s %4zu %4zu %5zu %9.2g %9.3g %11.6g %9.2g %-7s %7.3f %7.4f%s\n", c->label, dpart, dq, ddraw,
               drift, px0, Pfin, fabs(fPfin - Pfin) / fmax(fabs(Pfin), 1e-300), caps, t1 - t0, t2 - t1,
               fail ? "  FAIL" : "");
    }
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
    return fail;
}

int audit_fedpdm_runs(uint64_t seed)
{
    size_t d[AN], Dt = 0;
    if (fr_pdm_synth_sizes(2026, AN, 8, 16, d) != FR_OK) {
        cli_error("the default problem could not be made", "audit fedpdm runs");
        return 1;
    }
    for (size_t i = 0; i < AN; i++) Dt += d[i];
    double *A = malloc(Dt * ANF * sizeof *A), eta[AT], sig[AT];
    size_t *y = malloc(Dt * sizeof *y);
    if (A == NULL || y == NULL || fr_pdm_synth_data(2026, AN, AM, ANF, d, A, y) != FR_OK
        || fr_pdm_eta_paper(eta, AT, 0.05) != FR_OK) {
        free(A);
        free(y);
        cli_error("the default problem could not be made", "audit fedpdm runs");
        return 1;
    }
    for (size_t t = 0; t < AT; t++) sig[t] = t ? 0.01 : 0;
    fr_pdm_problem P = {.N = AN, .m = AM, .n = ANF, .d = d, .A = A, .y = y, .beta = 1e-2, .gamma = 1e-3};
    printf("\nfedpdm runs (003 Algorithm 1, (9)-(13), (21)): ref at %d bits vs fast, default problem\n"
           "  fr_pdm_synth seed 2026: N = %d clients of 8..16 samples (D = %zu), m = %d, n = %d, beta = 1e-2,\n"
           "  gamma = 1e-3; T = %d, b = 3, Qmax = 4, rho = 10, eta^t = 0.05/sqrt(1 + t), x_0^0 = 0, nu = 5e-2,\n"
           "  PAPER: eps = 1, delta = 1e-5, G = 1; GIVEN: sigma^0 = 0, sigma^t = 0.01; run seed %llu\n",
           REF_PREC, AN, Dt, AM, ANF, AT, (unsigned long long)seed);
    printf("%-26s %4s %4s %5s %9s %9s %11s %9s %-7s %7s %7s\n", "options", "S", "Q", "draws", "drift x0",
           "max Px0", "P(T) ref", "P rel", "cap/stp", "ref s", "fast s");
    static const combo C[] = {
        {"K=N ALL XI FIXED", AN, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 0},
        {"K=N PART XI FIXED", AN, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_PART, FR_PDM_NOISE_NONE, 0},
        {"K=2 ALL XI FIXED", 2, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 0},
        {"K=2 PART XI FIXED", 2, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_PART, FR_PDM_NOISE_NONE, 0},
        {"K=2 ALL X0 FIXED", 2, FR_PDM_RULE_FIXED, FR_PDM_START_X0, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 0},
        {"K=2 PART X0 FIXED", 2, FR_PDM_RULE_FIXED, FR_PDM_START_X0, FR_PDM_SERVER_PART, FR_PDM_NOISE_NONE, 0},
        {"K=2 ALL XI rule11", 2, FR_PDM_RULE_11, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 0},
        {"K=2 PART X0 rule11", 2, FR_PDM_RULE_11, FR_PDM_START_X0, FR_PDM_SERVER_PART, FR_PDM_NOISE_NONE, 0},
        {"K=N ALL XI clip", AN, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 1},
        {"K=N ALL XI PAPER clip", AN, FR_PDM_RULE_FIXED, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_PAPER, 1},
        {"K=2 PART XI PAPER rule11", 2, FR_PDM_RULE_11, FR_PDM_START_XI, FR_PDM_SERVER_PART, FR_PDM_NOISE_PAPER, 1},
        {"K=2 ALL X0 GIVEN", 2, FR_PDM_RULE_FIXED, FR_PDM_START_X0, FR_PDM_SERVER_ALL, FR_PDM_NOISE_GIVEN, 0},
    };
    int failures = 0;
    for (size_t k = 0; k < sizeof C / sizeof C[0]; k++)
        failures += row(&C[k], &P, eta, sig, seed);
    printf("S, Q, draws: (round, client) participation flags, local step counts Q_i^t and batch indices\n"
           "that differ between ref and fast (each must be 0); drift x0: max_t max_j |x0_fast - x0_ref| /\n"
           "max_j |x0_ref| over x_0^0..x_0^T (fails at %.2g = VPDM_RUN_TOL, the checkpoint vectors' tol,\n"
           "empirical); max Px0: the largest Px0 (21) after a server step (t >= 1): ~0 (rounding residue,\n"
           "must be <= 2^-200) when the step is the argmin of (8c) (SERVER_ALL without noise), > 0 for\n"
           "SERVER_PART with K < N (E-003-P1) or with noise; P(T) ref: (21) at x_0^T; P rel: fast's relative\n"
           "difference; cap/stp: rule (11)'s capped and early-stopped (round, client) pairs.\n", VPDM_RUN_TOL);
    free(A);
    free(y);
    return failures;
}
