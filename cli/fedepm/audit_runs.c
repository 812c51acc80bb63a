/* SPDX-License-Identifier: Apache-2.0 */
/* audit_runs.c -- module fedepm's section of `fedref audit`: FedEPM, SFedAvg
 * and SFedProx run by ref (MPFR, 256 bits) and fast (binary64) on the
 * embedded default problem (a synthetic problem of docs/FEDEPM.md section 6
 * with the constants of 002 Sec. VII-B), compared round by round: the same
 * draws and decisions, and how far fast's server points drift from ref's;
 * and the privacy accountant of each run (docs/FEDEPM.md section 9): the
 * largest per-upload loss and the largest per-client totals under basic
 * and advanced composition (ref's values, rounded up; +Inf when fedref has
 * no finite bound), which fast must reproduce (same specials, within the
 * runs' tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "../../vectors/fedepm/runs.h"
#include "vrun_registry.h"
#include "fedref.h"
#include "fedfast.h"

#define DEF_M 20
#define DEF_N 6
#define REF_PREC 256

/* Every algorithm of the family (vectors/fedepm/run_*.c), in file order. */
static const vrun_algo *const algos[] = {VRUN_REGISTRY};

/* The largest of k ref values (NaN entries skipped; -Inf if none) and
 * whether fast's k values have the same specials and lie within 2^-32
 * relative of ref's (the runs' tolerance). */
static double acct_max(mpfr_t *const r, const double *f, size_t k, int *agree)
{
    double mx = -INFINITY;
    mpfr_t t;
    mpfr_init2(t, REF_PREC);
    for (size_t q = 0; q < k; q++) {
        if (mpfr_nan_p(r[q])) {
            *agree &= isnan(f[q]);
            continue;
        }
        double v = mpfr_get_d(r[q], MPFR_RNDU);
        mx = fmax(mx, v);
        if (!mpfr_number_p(r[q]) || !isfinite(f[q])) {
            *agree &= mpfr_inf_p(r[q]) && isinf(f[q]) && (mpfr_sgn(r[q]) > 0) == (f[q] > 0);
            continue;
        }
        mpfr_sub_d(t, r[q], f[q], MPFR_RNDN);
        *agree &= fabs(mpfr_get_d(t, MPFR_RNDU)) <= 0x1p-32 * fabs(v) + 0x1p-32;
    }
    mpfr_clear(t);
    return mx;
}

/* One configuration: the three algorithms (or FedEPM only), ref vs fast;
 * returns failures. */
static int compare(const fr_logreg *P, const fr_fedepm_params *prm, int fedepm_only)
{
    const size_t n = P->n;
    int failures = 0;
    printf("%-9s %6s %4s %4s %6s %12s %9s %10s %10s %10s %10s %9s %9s %9s %9s\n", "algorithm",
           "rounds", "cr", "stop", "draws", "f/m", "SNR", "drift r=1", "drift mid", "drift last",
           "max drift", "ref/fast", "eps/up", "eps basic", "eps adv");
    for (size_t a = 0; algos[a]; a++) {
        if (fedepm_only && algos[a]->ref != fr_fedepm_run)
            continue;
        fr_fedepm_trace rt = {0};
        ff_fedepm_trace ft = {0};
        int s1 = fr_fedepm_trace_init(&rt, P, prm, REF_PREC), s2 = ff_fedepm_trace_init(&ft, P, prm);
        double t0 = bench_now();
        if (s1 == FR_OK) s1 = algos[a]->ref(&rt, P, prm);
        double t1 = bench_now();
        if (s2 == FR_OK) s2 = algos[a]->fast(&ft, P, prm);
        double t2 = bench_now();
        if (s1 != FR_OK || s2 != FR_OK) {
            printf("%-9s run failed: ref %s, fast %s\n", algos[a]->name, fr_strerror(s1), fr_strerror(s2));
            failures++;
        } else {
            int same = rt.rounds == ft.rounds && rt.stop == ft.stop && rt.cr == ft.cr
                    && memcmp(rt.sel, ft.sel, rt.rounds * rt.nsel * sizeof *rt.sel) == 0;
            double dmax = 0, dr[3] = {0};
            size_t R = same ? rt.rounds : 0;
            for (size_t r = 0; r < R; r++) {
                double x = cli_drift(&ft.w[r * n], &rt.w[r * n], n);
                dmax = fmax(dmax, x);
                if (r == 0) dr[0] = x;
                if (r == R / 2) dr[1] = x;
                if (r + 1 == R) dr[2] = x;
            }
            double fm = mpfr_get_d(rt.f[rt.rounds - 1], MPFR_RNDN) / (double)P->m;
            /* privacy: the largest upload loss after k = 0 and client totals */
            int agree = same;
            const size_t m = P->m, nup = (rt.rounds - 1) * rt.nsel;
            double lmax = agree ? acct_max(rt.loss, ft.loss, nup, &agree) : NAN;
            double eb = acct_max(rt.eps_basic, ft.eps_basic, m, &agree);
            double ea = acct_max(rt.eps_adv, ft.eps_adv, m, &agree);
            acct_max(rt.nu, ft.nu, agree ? nup : 0, &agree);
            acct_max(rt.loss0, ft.loss0, m, &agree);
            printf("%-9s %6zu %4lu %4d %6s %12.6g %9.3g %10.2g %10.2g %10.2g %10.2g %9.0f %9.4g %9.4g "
                   "%9.4g%s\n",
                   algos[a]->name, rt.rounds, rt.cr, rt.stop, same ? "same" : "DIFFER", fm,
                   mpfr_get_d(rt.snr, MPFR_RNDN), dr[0], dr[1], dr[2], dmax,
                   (t1 - t0) / fmax(t2 - t1, 1e-9), lmax, eb, ea, agree ? "" : "  ACCOUNTS DIFFER");
            failures += !same || !(dmax < FF_RUN_DRIFT_TOL) || !agree;
        }
        fr_fedepm_trace_clear(&rt);
        ff_fedepm_trace_clear(&ft);
    }
    return failures;
}

int audit_fedepm(uint64_t seed)
{
    size_t d[DEF_M], D = 0, nsel;
    fr_synth_sizes(2026, DEF_M, 20, 60, d);
    for (size_t i = 0; i < DEF_M; i++) D += d[i];
    double *X = malloc(D * DEF_N * sizeof *X), *b = malloc(D * sizeof *b);
    if (X == NULL || b == NULL) { free(X); free(b); cli_error("out of memory", "audit trajectories"); return 1; }
    fr_synth_data(2026, DEF_M, DEF_N, d, X, b);
    fr_selection_size(0.5, DEF_M, &nsel);
    const double rho = 0.5, eta = (0.02 * DEF_M + 1) * (rho + 0.1) * 1e-5;
    fr_logreg P = {.m = DEF_M, .n = DEF_N, .d = d, .X = X, .b = b, .beta = 1e-3};
    fr_fedepm_params prm = {.k0 = 4, .rounds = 25, .nsel = nsel, .lambda = eta / 2, .eta = eta,
                        .mu0 = 0.05, .c = 1e-8, .alpha = 1.001, .eps = 0.1, .noise = FR_NOISE_EQ39,
                        .stopping = 1, .seed = seed, .mu_prox = 1e-5, .ell = 3};
    printf("\ntrajectories: ref at %d bits vs fast, default problem m = %d, n = %d, d_i in [20, 60]"
           " (D = %zu),\n  |S| = %zu, eta = (0.02 m + 1)(rho + 0.1) 1e-5 = %.3g, lambda = eta/2,"
           " mu0 = 0.05, c = 1e-8, alpha = 1.001, stopping rule on\n", REF_PREC, DEF_M, DEF_N, D,
           nsel, eta);
    printf("(a) the paper's regime: k0 = 4, R = 25, eps = 0.1, noise (39)\n");
    int failures = compare(&P, &prm, 0);
    prm.k0 = 2;
    prm.rounds = 150;
    prm.eps = 1e5;
    printf("(b) weak noise, long run: k0 = 2, R = 150, eps = 1e5, noise (39)\n");
    failures += compare(&P, &prm, 0);
    /* the privacy configurations: Delta_i = 2/d_i bounds ||g_i(D) - g_i(D')||_1
     * for one replaced sample since every ||x_t||_1 <= n 2^-5 < 1 here */
    double Delta[DEF_M];
    for (size_t i = 0; i < DEF_M; i++)
        Delta[i] = 2.0 / (double)d[i];
    prm.k0 = 4;
    prm.rounds = 25;
    prm.eps = 0.1;
    prm.c = 0;
    prm.stopping = 0;
    prm.Delta = Delta;
    prm.noise = FR_NOISE_EQ27;
    printf("(c) noise (27) with c = 0 (mu data-independent), Delta_i = 2/d_i: k0 = 4, R = 25,\n"
           "    eps = 0.1, stopping off\n");
    failures += compare(&P, &prm, 0);
    prm.noise = FR_NOISE_CERT;
    printf("(d) the certified rule (fedref's, FedEPM only): nu = S_i/eps, eps = 0.1 per upload,\n"
           "    c = 0, Delta_i = 2/d_i, k0 = 4, R = 25, stopping off\n");
    failures += compare(&P, &prm, 1);
    printf("stop: 0 all rounds, 1 gradient rule, 2 variance rule (Sec. VII-B); draws: rounds, stop,\n"
           "cr and every selection S^r identical in ref and fast; drift: max_j |w_fast - w_ref| /\n"
           "max_j |w_ref| of the server point of a round (the audit fails at %.2g =\n"
           "FF_RUN_DRIFT_TOL, the checkpoint vectors' tol, empirical); ref/fast: time ratio of\n"
           "the two runs.  Privacy (docs/FEDEPM.md section 9): eps/up the largest loss of an\n"
           "upload after k = 0, eps basic and eps adv the largest per-client total (basic\n"
           "composition; advanced composition with delta' = %g), ref's upper bounds; inf: no\n"
           "finite bound ((39): data-dependent scale; the stopping rule on: a data-dependent\n"
           "release; the baselines: no sensitivity bound); fast's accounts must match (same\n"
           "specials, within 2^-32).\n", FF_RUN_DRIFT_TOL, FR_ACCT_DELTA_DEFAULT);
    free(X);
    free(b);
    return failures;
}
