/* SPDX-License-Identifier: Apache-2.0 */
/* audit_runs.c -- module ssca's section of `fedref audit` for the runs of
 * Algorithms 1-4 and the baselines of 000 Sec. VI (docs/SSCA.md section
 * 10): ref (MPFR, 256 bits) and fast (binary64) on the embedded default
 * problem (fr_ssca_synth and fr_ssca_init_w with seed 2026: N = 200,
 * P = 16, L = 3, J = 6, nc = 4 clients of 50 samples or 4 features,
 * B = 5, T = 30), compared round by round: the same draws, the same
 * Lemma 1 branches (Algorithms 2, 4), the same reals per round, and how
 * far fast's iterates drift from ref's.  (a) 000 Sec. VI's schedules
 * (sample-based rho = 0.9 t^-0.1, gamma = 0.5 t^-0.1, tau = 0.2;
 * feature-based rho = 0.9 t^-0.3, gamma = 0.3 t^-0.3, tau = 0.1;
 * lambda = 1e-5, c = 1e5; SGD r = 0.3 t^-0.3, SGD-m r = 0.3, m = 0.1;
 * E = 1 and E = 2 (PR-SGD)); (b) a schedule satisfying (4) and (6)
 * (rho = t^-0.6, gamma = 0.9 t^-0.9) for the four SSCA algorithms.
 * U = 0.9 (below the initial cost ln 3 ~ 1.1: the constraint binds).
 * The run seed is the audit seed.  A row fails when the draws, branches
 * or reals differ or the largest drift reaches VSSCA_RUN_TOL (the
 * checkpoint vectors' empirical tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "../../vectors/ssca/runs.h"
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 256
#define AN 200
#define AP 16
#define AL 3
#define AJ 6
#define ANC 4
#define AB 5
#define AT 30

/* One algorithm: ref vs fast, one row; returns 1 on a failure. */
static int row(const char *label, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    fr_ssca_trace rt;
    ff_ssca_trace ft = {0};
    memset(&rt, 0, sizeof rt);
    int s1 = fr_ssca_trace_init(&rt, D, prm, REF_PREC), s2 = ff_ssca_trace_init(&ft, D, prm);
    double t0 = bench_now();
    if (s1 == FR_OK) s1 = fr_ssca_run(&rt, D, prm);
    double t1 = bench_now();
    if (s2 == FR_OK) s2 = ff_ssca_run(&ft, D, prm);
    double t2 = bench_now();
    int fail = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        printf("%-12s run failed: ref %s, fast %s\n", label, fr_strerror(s1), fr_strerror(s2));
        fail = 1;
    } else {
        const size_t T = rt.T, d = rt.d;
        int same = rt.rounds == ft.rounds && rt.nd == ft.nd
                && memcmp(rt.draws, ft.draws, (T - 1) * rt.nd * sizeof *rt.draws) == 0;
        int br = memcmp(rt.branch, ft.branch, (T - 1) * sizeof *rt.branch) == 0;
        int msg = rt.msgs.down == ft.msgs.down && rt.msgs.up == ft.msgs.up && rt.msgs.peer == ft.msgs.peer;
        double dmax = 0, dr[3] = {0};
        for (size_t t = 0; t < T; t++) {
            double x = cli_drift(&ft.w[t * d], &rt.w[t * d], d);
            dmax = fmax(dmax, x);
            if (t == 1) dr[0] = x;               /* w^2: after round 1 */
            if (t == T / 2) dr[1] = x;
            if (t + 1 == T) dr[2] = x;
        }
        double numin = INFINITY, numax = -INFINITY;
        for (size_t t = 0; t + 1 < T; t++)
            if (!mpfr_nan_p(rt.nu[t])) {
                numin = fmin(numin, mpfr_get_d(rt.nu[t], MPFR_RNDD));
                numax = fmax(numax, mpfr_get_d(rt.nu[t], MPFR_RNDU));
            }
        unsigned nb[5] = {0};
        for (size_t t = 0; t + 1 < T; t++)
            if (rt.branch[t] >= 1 && rt.branch[t] <= 4) nb[rt.branch[t]]++;
        char nu[40] = "-", brs[24] = "-";
        if (numin <= numax) snprintf(nu, sizeof nu, "[%.3g, %.3g]", numin, numax);
        if (nb[1] + nb[2] + nb[3] + nb[4] > 0) snprintf(brs, sizeof brs, "%u/%u/%u/%u", nb[1], nb[2], nb[3], nb[4]);
        printf("%-12s %6s %9.2g %9.2g %9.2g %9.2g %11.6g %10.5g %-19s %-11s %6llu %6llu %5llu %8.3f %8.4f\n",
               label, same && br && msg ? "same" : "DIFFER", dr[0], dr[1], dr[2], dmax,
               mpfr_get_d(rt.cost[T - 1], MPFR_RNDN), mpfr_get_d(rt.norm2[T - 1], MPFR_RNDN), nu, brs,
               (unsigned long long)rt.msgs.up, (unsigned long long)rt.msgs.down,
               (unsigned long long)rt.msgs.peer, t1 - t0, t2 - t1);
        fail = !same || !br || !msg || !(dmax < VSSCA_RUN_TOL);
    }
    fr_ssca_trace_clear(&rt);
    ff_ssca_trace_clear(&ft);
    return fail;
}

static void header(void)
{
    printf("%-12s %6s %9s %9s %9s %9s %11s %10s %-19s %-11s %6s %6s %5s %8s %8s\n", "algorithm", "draws",
           "drift t=2", "mid", "last", "max", "F(w^T)", "||w^T||^2", "nu range", "branches", "up", "down", "peer",
           "ref s", "fast s");
}

int audit_ssca_runs(uint64_t seed)
{
    double *Z = malloc(AN * AP * sizeof *Z), *w1 = malloc(AJ * (AL + AP) * sizeof *w1);
    size_t *y = malloc(AN * sizeof *y);
    const size_t Ni[ANC] = {50, 50, 50, 50}, Pi[ANC] = {4, 4, 4, 4};
    if (Z == NULL || w1 == NULL || y == NULL) {
        free(Z); free(w1); free(y);
        cli_error("out of memory", "audit ssca runs");
        return 1;
    }
    int failures = 0;
    if (fr_ssca_synth(2026, AN, AP, AL, Z, y) != FR_OK || fr_ssca_init_w(2026, AL, AJ, AP, w1) != FR_OK) {
        cli_error("the default problem could not be made", "audit ssca runs");
        free(Z); free(w1); free(y);
        return 1;
    }
    fr_ssca_data D = {.N = AN, .P = AP, .J = AJ, .L = AL, .Z = Z, .y = y, .nc = ANC, .Ni = Ni, .Pi = Pi};
    const unsigned keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST;
    printf("\nssca runs (000 Algorithms 1-4, Sec. VI baselines): ref at %d bits vs fast, default problem\n"
           "  N = %d, P = %d, L = %d, J = %d (d = %d), %d clients (50 samples or 4 features each),\n"
           "  B = %d, T = %d, lambda = 1e-5, U = 0.9, c = 1e5, weight exact, run seed %llu\n",
           REF_PREC, AN, AP, AL, AJ, AJ * (AL + AP), ANC, AB, AT, (unsigned long long)seed);
    printf("(a) 000 Sec. VI's schedules\n");
    header();
    static const struct { int algo; unsigned long E; const char *label; } A[] = {
        {FR_SSCA_ALG1, 1, "alg1"}, {FR_SSCA_ALG2, 1, "alg2"}, {FR_SSCA_ALG3, 1, "alg3"},
        {FR_SSCA_ALG4, 1, "alg4"}, {FR_SSCA_SGD_S, 1, "sgd_s E=1"}, {FR_SSCA_SGD_S, 2, "sgd_s E=2"},
        {FR_SSCA_SGDM_S, 1, "sgdm_s E=1"}, {FR_SSCA_SGD_F, 1, "sgd_f"}, {FR_SSCA_SGDM_F, 1, "sgdm_f"}};
    for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
        int feat = fr_ssca_algo_feature(A[k].algo), mom = A[k].algo == FR_SSCA_SGDM_S || A[k].algo == FR_SSCA_SGDM_F;
        fr_ssca_params prm = {.algo = A[k].algo, .T = AT, .B = AB, .E = A[k].E,
                              .a1 = 0.9, .alpha1 = feat ? 0.3 : 0.1, .a2 = feat ? 0.3 : 0.5,
                              .alpha2 = feat ? 0.3 : 0.1, .tau = feat ? 0.1 : 0.2, .lambda = 1e-5,
                              .U = 0.9, .c = 1e5, .lr_a = 0.3, .lr_alpha = mom ? 0 : 0.3, .mom = 0.1,
                              .weight = FR_SSCA_W_EXACT, .seed = seed, .w1 = w1, .keep = keep};
        failures += row(A[k].label, &D, &prm);
    }
    printf("(b) rho = t^-0.6 (rho^(1) = 1), gamma = 0.9 t^-0.9, tau = 0.1: (4) and (6) hold\n");
    header();
    for (int algo = FR_SSCA_ALG1; algo <= FR_SSCA_ALG4; algo++) {
        fr_ssca_params prm = {.algo = algo, .T = AT, .B = AB, .E = 1, .a1 = 1, .alpha1 = 0.6,
                              .a2 = 0.9, .alpha2 = 0.9, .tau = 0.1, .lambda = 1e-5, .U = 0.9,
                              .c = 1e5, .lr_a = 0.3, .lr_alpha = 0.3, .mom = 0.1,
                              .weight = FR_SSCA_W_EXACT, .seed = seed, .w1 = w1, .keep = keep};
        failures += row(fr_ssca_algo_name(algo), &D, &prm);
    }
    printf("draws: every batch index, Lemma 1 branch and per-round real count identical in ref and\n"
           "fast; drift: max_j |w_fast - w_ref| / max_j |w_ref| of the iterate w^t (t = 2, T/2, T, and\n"
           "the largest over t; the audit fails at %.2g = VSSCA_RUN_TOL, the checkpoint vectors'\n"
           "tol, empirical); F(w^T) (28) and ||w^T||^2 ref's; nu range: Lemma 1's multiplier over the\n"
           "rounds (Algorithms 2, 4); branches: rounds in Lemma 1's cases D <= 0 / nu = 0 / interior /\n"
           "clipped at c (docs/SSCA.md 6); up, down, peer: reals moved per round, every client summed\n"
           "(fr_ssca_run_msgs); ref s, fast s: seconds of each run.\n", VSSCA_RUN_TOL);
    free(Z);
    free(w1);
    free(y);
    return failures;
}
