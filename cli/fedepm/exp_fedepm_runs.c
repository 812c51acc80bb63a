/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedepm_runs.c -- one run of FedEPM, SFedAvg or SFedProx (fast) with
 * its summary (CR, TCT, LCT, f/m, SNR, accuracy, the accountant's totals),
 * and the ref spot check of a run's first rounds (exp_fedepm.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_fedepm.h"
#include "fedref.h"

const char *const efp_alg_name[EFP_NALG] = {"FedEPM", "SFedAvg", "SFedProx"};

typedef int (*ff_run_fn)(ff_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);
typedef int (*fr_run_fn)(fr_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);
static const ff_run_fn ff_runs[EFP_NALG] = {ff_fedepm_run, ff_sfedavg_run, ff_sfedprox_run};
static const fr_run_fn fr_runs[EFP_NALG] = {fr_fedepm_run, fr_sfedavg_run, fr_sfedprox_run};

double efp_time_eval(const fr_logreg *P)
{
    double t[9], f, *g = malloc(P->n * sizeof *g), *w = calloc(P->n, sizeof *w);
    if (g == NULL || w == NULL) { free(g); free(w); return 0; }
    for (int k = 0; k < 9; k++) {
        double t0 = exp_now();
        for (int r = 0; r < 20; r++) ff_logreg_f(&f, g, P, w);
        t[k] = (exp_now() - t0) / 20;
    }
    free(g);
    free(w);
    return bench_median(t, 9);
}

int efp_run(int alg, const fr_logreg *P, const fr_fedepm_params *prm, double t_eval,
            efp_result *res, FILE *traj)
{
    ff_fedepm_trace t = {0};
    int st = ff_fedepm_trace_init(&t, P, prm);
    double t0 = exp_now();
    if (st == FR_OK) st = ff_runs[alg](&t, P, prm);
    double tct = exp_now() - t0;
    if (st != FR_OK) {
        ff_fedepm_trace_clear(&t);
        cli_error(fr_strerror(st), efp_alg_name[alg]);
        return 2;
    }
    const size_t n = P->n, m = P->m, D = fr_logreg_samples(P);
    res->rounds = t.rounds;
    res->cr = t.cr;
    res->stop = t.stop;
    res->fm = t.f[t.rounds - 1] / (double)m;
    res->snr = t.snr;
    res->tct = tct;
    res->lct = t.cr ? fmax(tct - (double)t.rounds * t_eval, 0) / (double)t.cr : NAN;
    res->acc = efp_accuracy(P->X, P->b, D, n, &t.w[(t.rounds - 1) * n]);
    res->eps_basic = res->eps_adv = 0;
    for (size_t i = 0; i < m; i++) {
        res->eps_basic = fmax(res->eps_basic, t.eps_basic[i]);
        res->eps_adv = fmax(res->eps_adv, t.eps_adv[i]);
    }
    if (traj)
        for (size_t r = 0; r < t.rounds; r++)
            fprintf(traj, "%zu,%zu,%.10g,%.6g\n", r + 1, r, t.f[r] / (double)m, t.gnorm2[r]);
    ff_fedepm_trace_clear(&t);
    return 0;
}

int efp_spot_check(int alg, const fr_logreg *P, const fr_fedepm_params *prm, double *drift,
                   char *why, size_t whylen)
{
    fr_fedepm_trace rt = {0};
    ff_fedepm_trace ft = {0};
    int s1 = fr_fedepm_trace_init(&rt, P, prm, 256), s2 = ff_fedepm_trace_init(&ft, P, prm);
    if (s1 == FR_OK) s1 = fr_runs[alg](&rt, P, prm);
    if (s2 == FR_OK) s2 = ff_runs[alg](&ft, P, prm);
    int rc = 0;
    *drift = NAN;
    if (s1 != FR_OK || s2 != FR_OK) {
        snprintf(why, whylen, "%s: ref %s, fast %s", efp_alg_name[alg], fr_strerror(s1), fr_strerror(s2));
        rc = 1;
    } else if (rt.rounds != ft.rounds || rt.stop != ft.stop || rt.cr != ft.cr
               || memcmp(rt.sel, ft.sel, rt.rounds * rt.nsel * sizeof *rt.sel) != 0) {
        snprintf(why, whylen, "%s: ref and fast differ in rounds (%zu, %zu), stop or selections",
                 efp_alg_name[alg], rt.rounds, ft.rounds);
        rc = 1;
    } else {
        double dmax = 0;
        for (size_t r = 0; r < rt.rounds; r++)
            dmax = fmax(dmax, cli_drift(&ft.w[r * P->n], &rt.w[r * P->n], P->n));
        *drift = dmax;
        if (!(dmax < FF_RUN_DRIFT_TOL)) {
            snprintf(why, whylen, "%s: drift of fast's server points from ref's %.3g >= %.3g",
                     efp_alg_name[alg], dmax, FF_RUN_DRIFT_TOL);
            rc = 1;
        }
    }
    fr_fedepm_trace_clear(&rt);
    ff_fedepm_trace_clear(&ft);
    return rc;
}
