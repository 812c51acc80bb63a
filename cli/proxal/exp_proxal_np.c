/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_np.c -- the experiment proxal, part (b): 004 Sec. 5.2, Table 2
 * and Fig. 1: the Neyman-Pearson problem (26)-(27) on sklearn's
 * breast_cancer.csv (exp_proxal_data.c), n clients, Algorithm 1 against
 * cProx-AL (Algorithm 3) in fast with Sec. 5.2's parameters (mu0 = 0,
 * sbar = 0.001, beta = 300, rho_i = 0.01, eps1 = eps2 = 1e-3, r = 0.2);
 * Algorithm 2's q = 0.97 (the paper gives none; the authors' NP code uses
 * 0.9, which full mode also runs: fast's Algorithm 2 then often stops with
 * FR_EDOM at its precision floor).  Per trial a new random deal of the training rows over the clients
 * (stratified) and a new w0 on the unit sphere, both algorithms from the
 * same w0.  Table 2's columns (class-0 loss = the objective, relative
 * difference, class-1 loss mean and max over the clients) beside the
 * paper's figures, then the true KKT residuals, Theorem 3.1, iterations,
 * time and the held-out test errors; a CSV per run (every outer
 * iteration), a summary CSV, two plots, the verdicts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_proxal.h"
#include "table1.h"

#define PX_STREAM_FOLDS ((uint64_t)8 << 32)
#define PX_STREAM_W0 ((uint64_t)9 << 32)
#define NP_R 0.2
#define NP_TEST 0.2
/* ref's slice: 2 clients, SLICE_ROWS rows of each class per client, the
 * intercept and the first SLICE_D - 1 features (mean radius, texture,
 * perimeter, area, smoothness).  With all 31 columns and a few rows the
 * slice is separable, Algorithm 2's iterates reach |w^T x| ~ 2^18, and ref's
 * NP evaluator cannot decide s(t) - 1 there (ref/proxal/problem.c
 * logi_enclose forms it by a subtraction that cancels: about 1.44 t bits are
 * needed, more than its 2^16-bit cap; FR_EINTERNAL): reported, not fixed
 * here. */
#define SLICE_ROWS 8
#define SLICE_D 6

/* 004 Table 2, breast-cancer-wisc rows as printed: n, class-0 loss mean
 * (std) Alg. 1, cProx-AL, relative difference mean (std), class-1 loss
 * Alg. 1 mean (std), max (std), cProx-AL mean (std), max (std). */
typedef struct {
    unsigned n;
    double o1, o1s, o3, o3s, rd, rds, m1, m1s, x1, x1s, m3, m3s, x3, x3s;
} np_paper;
static const np_paper PAPER2[4] = {
    {1, 0.27, 1.52e-4, 0.27, 3.02e-5, 7.09e-4, 2.02e-4, 0.20, 1.80e-7, 0.20, 1.80e-7, 0.20, 1.84e-8, 0.20, 1.84e-8},
    {5, 0.34, 4.50e-2, 0.33, 4.55e-2, 1.15e-2, 5.17e-3, 0.19, 7.33e-6, 0.20, 1.08e-6, 0.19, 1.13e-4, 0.20, 1.72e-5},
    {10, 0.37, 1.08e-1, 0.37, 1.08e-1, 3.92e-4, 2.76e-4, 0.17, 1.15e-5, 0.20, 6.05e-9, 0.17, 1.14e-5, 0.20, 2.95e-8},
    {20, 0.46, 2.12e-1, 0.45, 2.12e-1, 3.43e-2, 2.91e-2, 0.16, 3.52e-5, 0.20, 3.76e-6, 0.16, 7.03e-6, 0.20, 7.70e-8},
};

static const size_t NS_FULL[4] = {1, 5, 10, 20}, NS_QUICK[2] = {1, 5};

static size_t n_settings(const exp_ctx *ctx) { return ctx->quick ? 2 : 4; }
static unsigned long n_trials(const exp_ctx *ctx) { return ctx->quick ? 2 : 10; }
/* full mode: a third run per trial, Algorithm 1 with the authors' q = 0.9 */
unsigned long px_np_runs(const exp_ctx *ctx) { return (ctx->quick ? 2 : 3) * n_settings(ctx) * n_trials(ctx); }

/* One run's numbers. */
typedef struct {
    int st, terminated, thm31;
    size_t outer, inner_bad;
    unsigned long inner, floors;
    double obj, l1mean, l1max, kkt1, kkt2, feas, time;
    double acc, miss, alarm;      /* test: accuracy, class-1 rows called 0, class-0 rows called 1 */
    double wnorm;                 /* ||w||_2 of the output */
} np_run;

/* mean and population std of the finite entries (a failed run's are NaN) */
static void mean_std(const double *x, size_t k, double *m, double *s)
{
    double a = 0, v = 0;
    size_t c = 0;
    for (size_t i = 0; i < k; i++)
        if (isfinite(x[i])) a += x[i], c++;
    a = c ? a / (double)c : NAN;
    for (size_t i = 0; i < k; i++)
        if (isfinite(x[i])) v += (x[i] - a) * (x[i] - a);
    *m = a;
    *s = c ? sqrt(v / (double)c) : NAN;
}

/* test errors of the linear rule w^T x > 0 -> class 1 */
static void test_errors(const px_bc *bc, const double *w, np_run *r)
{
    size_t ok = 0, m1 = 0, m0 = 0, n1 = 0, n0 = 0;
    for (size_t j = 0; j < bc->nte; j++) {
        double t = 0;
        for (size_t k = 0; k < bc->d; k++) t += w[k] * bc->xte[j * bc->d + k];
        int pred = t > 0, y = bc->yte[j];
        ok += pred == y;
        if (y) n1++, m1 += !pred;
        else n0++, m0 += pred;
    }
    r->acc = (double)ok / (double)bc->nte;
    r->miss = n1 ? (double)m1 / (double)n1 : NAN;
    r->alarm = n0 ? (double)m0 / (double)n0 : NAN;
}

/* The run's per-iteration CSV (the client losses at every w^{k+1}) and its
 * summary; 0, or 2 after cli_error. */
static int record(exp_ctx *ctx, const char *file, const px_np *np, const px_bc *bc, const ff_proxal_trace *t, int st,
                  double time, np_run *r)
{
    size_t n = np->P.n, d = np->P.d;
    memset(r, 0, sizeof *r);
    r->st = st;
    r->time = time;
    r->obj = r->l1mean = r->l1max = r->kkt1 = r->kkt2 = r->feas = r->acc = r->miss = r->alarm = NAN;
    if (st != FR_OK || t->iters == 0) return 0;
    size_t K = t->iters;
    r->outer = K;
    r->terminated = t->terminated;
    r->thm31 = t->thm31_ok;
    r->floors = t->floors;
    r->obj = t->obj[K - 1];
    r->kkt1 = t->kkt1[K - 1];
    r->kkt2 = t->kkt2[K - 1];
    r->feas = t->feas[K - 1];
    FILE *f = exp_csv_open(ctx, file,
                           "k,tau,dw,dmu,kkt1,kkt2,sub,inner_ok,obj,feas,inner,loss0_mean,loss0_min,loss0_max,"
                           "loss1_mean,loss1_min,loss1_max");
    if (f == NULL) return 2;
    for (size_t k = 0; k <= K; k++) {
        /* row 0: the losses at w0 (the records are empty) */
        const double *w = t->w + k * d;
        double a0 = 0, lo0 = INFINITY, hi0 = -INFINITY, a1 = 0, lo1 = INFINITY, hi1 = -INFINITY;
        for (size_t i = 1; i <= n; i++) {
            double l0, l1;
            if (px_np_losses(np, i, w, &l0, &l1) != FR_OK) l0 = l1 = NAN;
            a0 += l0, a1 += l1;
            lo0 = fmin(lo0, l0), hi0 = fmax(hi0, l0), lo1 = fmin(lo1, l1), hi1 = fmax(hi1, l1);
        }
        a0 /= (double)n;
        a1 /= (double)n;
        if (k == K) r->l1mean = a1, r->l1max = hi1;
        if (k == 0) {
            fprintf(f, "0,,,,,,,,,,,%.8e,%.8e,%.8e,%.8e,%.8e,%.8e\n", a0, lo0, hi0, a1, lo1, hi1);
            continue;
        }
        size_t j = k - 1;
        r->inner += t->inner[j];
        r->inner_bad += !t->inner_ok[j];
        fprintf(f, "%zu,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%d,%.10e,%.6e,%lu,%.8e,%.8e,%.8e,%.8e,%.8e,%.8e\n", k,
                t->tau[j], t->dw[j], t->dmu[j], t->kkt1[j], t->kkt2[j], t->sub[j], t->inner_ok[j], t->obj[j],
                t->feas[j], t->inner[j], a0, lo0, hi0, a1, lo1, hi1);
    }
    int rc = exp_csv_close(ctx, f, file);
    test_errors(bc, t->w + K * d, r);
    for (size_t k = 0; k < d; k++) r->wnorm += t->w[K * d + k] * t->w[K * d + k];
    r->wnorm = sqrt(r->wnorm);
    return rc;
}

static int run_bad(const np_run *r) { return r->st != FR_OK || !r->terminated || !r->thm31 || r->inner_bad; }

/* the aggregate of one n */
typedef struct {
    size_t n;
    double m[7], sd[7];   /* obj A1, obj A3, rel diff, l1 mean A1, l1 max A1, l1 mean A3, l1 max A3 */
    double k1, k2, k13, k23, l1maxall;
    double out1, out3, in1, in3, time1, time3;
    double acc1, miss1, alarm1, acc3, miss3, alarm3, wn1, wn3;
    unsigned long ok1, ok3, bad, trials, floors;
    unsigned long term, failst;           /* runs stopped by (8); runs with a status other than FR_OK */
    unsigned long c1, c3;                 /* runs of each algorithm that returned FR_OK */
    unsigned long q9runs, q9ok, q9edom;   /* Algorithm 1 with q = 0.9: runs, thm31_ok, FR_EDOM */
    double q9rd;                          /* its largest relative difference to cProx-AL */
} np_agg;

static int np_setting(exp_ctx *ctx, const px_bc *bc, size_t n, unsigned long trials, FILE *sum, np_agg *A,
                      int *failed)
{
    size_t d = bc->d;
    memset(A, 0, sizeof *A);
    A->n = n;
    A->trials = trials;
    double *w0 = malloc(d * sizeof *w0), *rho = malloc(n * sizeof *rho);
    double *v[7];
    for (int k = 0; k < 7; k++) v[k] = malloc(trials * sizeof(double));
    int rc = 0;
    if (!w0 || !rho || !v[0] || !v[1] || !v[2] || !v[3] || !v[4] || !v[5] || !v[6]) {
        cli_error("out of memory", "experiment proxal");
        rc = 2;
    }
    for (size_t i = 0; i < n && rc == 0; i++) rho[i] = 0.01;
    for (unsigned long tr = 0; tr < trials && rc == 0; tr++) {
        px_np np;
        rc = px_np_make(bc, n, NP_R, ctx->seed, PX_STREAM_FOLDS + 2 * (1000 * n + tr), 0, 0, &np);
        if (rc) break;
        int st = cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_W0 + 1000 * n + tr);
        if (st != FR_OK) {
            px_np_free(&np);
            cli_error("cannot draw w0", fr_strerror(st));
            rc = 2;
            break;
        }
        fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 1e-3, .beta = 300, .kmax = 2000,
                                    .admm = {.tau = 1, .q = 0.97, .rho = rho, .tmax = 20000, .newton_max = 100,
                                             .eps18 = FR_PROXAL_EPS18_PRINTED},
                                    .w0 = w0, .mu0 = NULL, .keep = FR_PROXAL_KEEP_W};
        np_run r[2];
        for (int a = 0; a < 2 && rc == 0; a++) {
            ff_proxal_trace t;
            memset(&t, 0, sizeof t);
            double t0 = exp_now();
            st = ff_proxal_trace_init(&t, &np.P, &prm);
            if (st == FR_OK) st = a ? ff_proxal_alg3(&t, &np.P, &prm) : ff_proxal_alg1(&t, &np.P, &prm);
            double el = exp_now() - t0;
            char file[96];
            snprintf(file, sizeof file, "proxal_np_n%zu_t%lu_%s.csv", n, tr, a ? "alg3" : "alg1");
            rc = record(ctx, file, &np, bc, &t, st, el, &r[a]);
            ff_proxal_trace_clear(&t);
            if (rc) break;
            fprintf(sum, "%zu,%lu,%s,%d,%d,%d,%zu,%lu,%.10e,%.8e,%.8e,%.6e,%.6e,%.6e,%.4f,%.4f,%.4f,%.4f,%lu\n", n, tr,
                    a ? "cproxal" : "alg1", r[a].st, r[a].terminated, r[a].thm31, r[a].outer, r[a].inner, r[a].obj,
                    r[a].l1mean, r[a].l1max, r[a].kkt1, r[a].kkt2, r[a].feas, r[a].acc, r[a].miss, r[a].alarm,
                    r[a].time, r[a].floors);
            if (run_bad(&r[a])) {
                A->bad++;
                *failed = 1;
                exp_md(ctx, "- run n = %zu, trial %lu, %s: status %s, terminated %d, thm31_ok %d, outer %zu, "
                            "inner (7) not certified %zu, kkt1 %.3e, kkt2 %.3e\n",
                       n, tr, a ? "cProx-AL" : "Algorithm 1", fr_strerror(r[a].st), r[a].terminated, r[a].thm31,
                       r[a].outer, r[a].inner_bad, r[a].kkt1, r[a].kkt2);
            }
            exp_run_done(ctx, el, "NP n = %zu, trial %lu, %s: %zu outer", n, tr, a ? "cProx-AL" : "Algorithm 1",
                         r[a].outer);
        }
        /* full mode: Algorithm 1 again with the authors' q = 0.9 */
        if (rc == 0 && !ctx->quick) {
            fr_proxal_alg_params p9 = prm;
            p9.admm.q = 0.9;
            ff_proxal_trace t;
            memset(&t, 0, sizeof t);
            np_run r9;
            double t0 = exp_now();
            st = ff_proxal_trace_init(&t, &np.P, &p9);
            if (st == FR_OK) st = ff_proxal_alg1(&t, &np.P, &p9);
            double el = exp_now() - t0;
            char file[96];
            snprintf(file, sizeof file, "proxal_np_n%zu_t%lu_alg1_q09.csv", n, tr);
            size_t it = t.iters;
            rc = record(ctx, file, &np, bc, &t, st, el, &r9);
            ff_proxal_trace_clear(&t);
            if (rc == 0) {
                fprintf(sum, "%zu,%lu,%s,%d,%d,%d,%zu,%lu,%.10e,%.8e,%.8e,%.6e,%.6e,%.6e,%.4f,%.4f,%.4f,%.4f,%lu\n", n,
                        tr, "alg1_q0.9", r9.st, r9.terminated, r9.thm31, st == FR_OK ? r9.outer : it, r9.inner, r9.obj,
                        r9.l1mean, r9.l1max, r9.kkt1, r9.kkt2, r9.feas, r9.acc, r9.miss, r9.alarm, r9.time, r9.floors);
                A->q9runs++;
                A->q9ok += r9.thm31 != 0;
                A->q9edom += st == FR_EDOM;
                if (st == FR_OK) A->q9rd = fmax(A->q9rd, fabs(r9.obj - r[1].obj) / fabs(r[1].obj));
                exp_run_done(ctx, el, "NP n = %zu, trial %lu, Algorithm 1 with q = 0.9: %s", n, tr, fr_strerror(st));
            }
        }
        /* ref's spot check: the first two outer iterations on a reduced
         * slice of the first trial's problem (SLICE_ROWS, SLICE_D above) */
        if (rc == 0 && tr == 0 && n == 5) {
            px_np sl;
            rc = px_np_make(bc, 2, NP_R, ctx->seed, PX_STREAM_FOLDS + 2 * (1000 * n + tr), SLICE_ROWS, SLICE_D, &sl);
            if (rc == 0) {
                exp_md(ctx, "\nref's spot check (MPFR, 128 bits, against fast; the first 2 outer iterations, Sec. 5.2's "
                            "parameters, the first %d entries of trial 0's w0) on a reduced slice: 2 clients with %d "
                            "rows of each class each (of n = 5 trial 0's deal), the intercept and the first %d "
                            "features (ref's NP oracles are Ziv loops in MPFI: the whole problem would take minutes). "
                            "With all 31 columns and 4 rows per class the slice is separable, Algorithm 2's iterates "
                            "reach |w^T x| ~ 2^18 and ref's Algorithm 1 stops with FR_EINTERNAL: its evaluator forms "
                            "s(t) - 1 (y = 1) and phi = max(t, 0) + log1p(e^-|t|) - t by subtractions that cancel, "
                            "so about 1.44 t bits are needed, beyond its 2^16-bit cap for t > ~45 000 "
                            "(ref/proxal/problem.c, logi_enclose; fast uses the stable forms and is unaffected). "
                            "This is a limitation of ref, reported and not changed here.\n\n"
                            "| problem | algorithm | outer ref / fast | inner counts differing | max drift of w^k | "
                            "max KKT rel. diff | kkt1 / kkt2 (ref, last) | time ref / fast (s) | result |\n"
                            "|---|---|---|---|---|---|---|---|---|\n",
                       SLICE_D, SLICE_ROWS, SLICE_D - 1);
                int s = px_ref_spot(ctx, "NP slice (n = 2, 16 rows each, d = 6)", &sl.P, &prm, 2);
                if (s == 2) rc = 2;
                exp_md(ctx, "\n");
                px_np_free(&sl);
            }
        }
        px_np_free(&np);
        if (rc) break;
        v[0][tr] = r[0].obj;
        v[1][tr] = r[1].obj;
        v[2][tr] = fabs(r[0].obj - r[1].obj) / fabs(r[1].obj);
        v[3][tr] = r[0].l1mean;
        v[4][tr] = r[0].l1max;
        v[5][tr] = r[1].l1mean;
        v[6][tr] = r[1].l1max;
        A->k1 = fmax(A->k1, r[0].kkt1);
        A->k2 = fmax(A->k2, r[0].kkt2);
        A->k13 = fmax(A->k13, r[1].kkt1);
        A->k23 = fmax(A->k23, r[1].kkt2);
        A->l1maxall = fmax(A->l1maxall, fmax(r[0].l1max, r[1].l1max));
        A->ok1 += r[0].thm31 != 0;
        A->ok3 += r[1].thm31 != 0;
        for (int a = 0; a < 2; a++) {
            A->term += r[a].terminated != 0;
            A->failst += r[a].st != FR_OK;
        }
        A->time1 += r[0].time;
        A->time3 += r[1].time;
        if (r[0].st == FR_OK) {
            A->c1++;
            A->out1 += (double)r[0].outer;
            A->in1 += (double)r[0].inner;
            A->acc1 += r[0].acc;
            A->miss1 += r[0].miss;
            A->alarm1 += r[0].alarm;
            A->wn1 += r[0].wnorm;
            A->floors += r[0].floors;
        }
        if (r[1].st == FR_OK) {
            A->c3++;
            A->out3 += (double)r[1].outer;
            A->in3 += (double)r[1].inner;
            A->acc3 += r[1].acc;
            A->miss3 += r[1].miss;
            A->alarm3 += r[1].alarm;
            A->wn3 += r[1].wnorm;
        }
    }
    if (rc == 0) {
        for (int k = 0; k < 7; k++) mean_std(v[k], trials, &A->m[k], &A->sd[k]);
        double c1 = A->c1 ? (double)A->c1 : NAN, c3 = A->c3 ? (double)A->c3 : NAN;
        A->out1 /= c1, A->in1 /= c1, A->acc1 /= c1, A->miss1 /= c1, A->alarm1 /= c1, A->wn1 /= c1;
        A->out3 /= c3, A->in3 /= c3, A->acc3 /= c3, A->miss3 /= c3, A->alarm3 /= c3, A->wn3 /= c3;
        A->time1 /= (double)trials;
        A->time3 /= (double)trials;
    }
    free(w0);
    free(rho);
    for (int k = 0; k < 7; k++) free(v[k]);
    return rc;
}

static int np_plots(exp_ctx *ctx, size_t n)
{
    char s[2048];
    snprintf(s, sizeof s,
             "set datafile separator ','\n"
             "set title '004 Fig. 1: Neyman-Pearson (26) on breast cancer, n = %zu clients, trial 0, Algorithm 1'\n"
             "set xlabel 'outer iteration k of Algorithm 1 (0: w0)'\nset ylabel 'logistic loss per client'\n"
             "set xtics 1\nset key top right\nset grid\n"
             "f = 'proxal_np_n%zu_t0_alg1.csv'\n"
             "plot f using 1:13:14 with filledcurves lc rgb '#c8d8f0' title 'class 0 (benign): min..max over clients', \\\n"
             "     f using 1:12 with lines lw 2 lc rgb '#1f4e9c' title 'class 0: mean (the objective)', \\\n"
             "     f using 1:16:17 with filledcurves lc rgb '#f0d8c0' fs transparent solid 0.6 title 'class 1 (malignant): min..max', \\\n"
             "     f using 1:15 with lines lw 2 lc rgb '#9c4e1f' title 'class 1: mean', \\\n"
             "     0.2 with lines dt 2 lc rgb 'black' title 'r = 0.2'\n",
             n, n);
    int rc = exp_plot(ctx, "proxal_np_losses.png", "class-0 and class-1 losses over the outer iterations", s);
    if (rc) return rc;
    snprintf(s, sizeof s,
             "set datafile separator ','\n"
             "set title '004 Table 2: Neyman-Pearson (26), n = %zu, trial 0: KKT residuals (Definition 1) of (w^{k+1}, mu^{k+1})'\n"
             "set xlabel 'outer iteration k'\nset ylabel 'residual (certified upper bound)'\n"
             "set logscale y\nset format y '10^{%%L}'\nset xtics 1\nset key top right\nset grid\n"
             "a = 'proxal_np_n%zu_t0_alg1.csv'; c = 'proxal_np_n%zu_t0_alg3.csv'\n"
             "plot a using 1:5 with linespoints lw 2 lc rgb '#1f4e9c' title 'Algorithm 1: stationarity eps1', \\\n"
             "     a using 1:6 with linespoints lw 2 dt 2 lc rgb '#1f4e9c' title 'Algorithm 1: feasibility eps2', \\\n"
             "     c using 1:5 with linespoints lw 2 lc rgb '#9c4e1f' title 'cProx-AL: eps1', \\\n"
             "     c using 1:6 with linespoints lw 2 dt 2 lc rgb '#9c4e1f' title 'cProx-AL: eps2', \\\n"
             "     1e-3 with lines dt 3 lc rgb 'black' title 'tolerance 1e-3'\n",
             n, n, n);
    return exp_plot(ctx, "proxal_np_kkt.png", "KKT residuals over the outer iterations", s);
}

int px_part_np(exp_ctx *ctx)
{
    px_bc bc;
    int rc = px_bc_load(ctx, NP_TEST, &bc);
    if (rc) return rc;
    size_t ns = n_settings(ctx);
    const size_t *N = ctx->quick ? NS_QUICK : NS_FULL;
    unsigned long trials = n_trials(ctx);
    exp_md(ctx, "### (b) Table 2: Neyman-Pearson classification (26)-(27) on breast cancer\n\n"
                "**Data.** sklearn's `breast_cancer.csv` (UCI WDBC, %zu x 30; make data), class 1 of (26) = "
                "malignant (the minority, %zu + %zu rows), class 0 = benign. A stratified held-out test split "
                "of %.0f%% (%zu rows, %zu malignant; seeded), the rest (%zu rows, %zu malignant) for training. "
                "Features standardised by the training split's mean and population std, plus an intercept "
                "column of ones: d = %zu. Per trial the training rows of each class are dealt in a new random "
                "order round robin over the n clients (the same amount of data and imbalance ratio per client, "
                "as Sec. 5.2 says) and w0 is drawn on the unit sphere; both algorithms start from it.\n\n"
                "**Parameters (Sec. 5.2).** r_i = 0.2, mu0 = 0, sbar = 0.001, beta = 300, rho_i = 0.01, "
                "eps1 = eps2 = 1e-3; Algorithm 2: q = 0.97 (not in the paper; the authors' code uses 0.9, which "
                "makes fast's Algorithm 2 fail for many clients: see below), "
                "(18) as printed, tmax = 20000, Newton for the logistic subproblems (newton_max = 100); "
                "kmax = 2000 outer iterations; n in {%s}, %lu trials each.\n\n",
           bc.ntr + bc.nte, bc.ntr1, bc.nte1, 100 * NP_TEST, bc.nte, bc.nte1, bc.ntr, bc.ntr1, bc.d,
           ctx->quick ? "1, 5" : "1, 5, 10, 20", trials);
    exp_md(ctx, "**Deviations.** (1) The paper's `breast-cancer-wisc` is a different UCI file (its Table 4: "
                "455/240 rows of classes 0/1, 20 features; WDBC has 357/212 and 30): its figures are quoted, "
                "not expected digit for digit. (2) The paper does not say whether it standardises or adds an "
                "intercept; fedref does both (without an intercept the decision boundary must pass through the "
                "origin). (3) It trains on all rows; fedref holds out 20%% for the test columns. "
                "(4) cProx-AL's subproblems are solved by certified damped Newton (fedref's Algorithm 3) instead "
                "of scipy's L-BFGS, whose tolerance is not checked (docs/PROXAL.md 7). (5) The authors' code caps "
                "Algorithm 1 at 100 outer iterations and restarts Algorithm 2 from w0 (docs/PROXAL.md 7); fedref "
                "runs Algorithm 1 as printed until (8).\n\n");
    char sumfile[] = "proxal_np_summary.csv";
    FILE *sum = exp_csv_open(ctx, sumfile,
                             "n,trial,alg,status,terminated,thm31_ok,outer,inner,loss0,loss1_mean,loss1_max,kkt1,kkt2,"
                             "feas,test_acc,test_miss_malignant,test_false_alarm_benign,seconds,floors");
    if (sum == NULL) { px_bc_free(&bc); return 2; }
    np_agg A[4];
    int failed = 0;
    for (size_t s = 0; s < ns && rc == 0; s++) rc = np_setting(ctx, &bc, N[s], trials, sum, &A[s], &failed);
    int rc2 = exp_csv_close(ctx, sum, sumfile);
    if (rc == 0) rc = rc2;
    if (rc) { px_bc_free(&bc); return rc; }

    exp_md(ctx, "\n**Table 2 columns** (mean (population std) over the %lu trials; paper rows: 004 Table 2, "
                "breast-cancer-wisc, as printed). Class-0 loss = the objective of (26) (the mean over clients of "
                "their class-0 mean loss); relative difference = |f_Alg1 - f_cProx| / |f_cProx| per trial; "
                "class-1 loss: mean and max over the clients of their class-1 mean loss (<= r = 0.2 is the "
                "constraint). Means over the runs that returned FR_OK (a failed run is listed above and counted in "
                "the next table).\n\n"
                "| | n | class-0 loss Alg. 1 | class-0 loss cProx-AL | relative difference | class-1 Alg. 1 mean | "
                "class-1 Alg. 1 max | class-1 cProx-AL mean | class-1 cProx-AL max |\n"
                "|---|---|---|---|---|---|---|---|---|\n", trials);
    for (size_t s = 0; s < ns; s++) {
        const np_agg *a = &A[s];
        const np_paper *p = NULL;
        for (int k = 0; k < 4; k++)
            if (PAPER2[k].n == a->n) p = &PAPER2[k];
        exp_md(ctx, "| fedref | %zu | %.4f (%.2e) | %.4f (%.2e) | %.2e (%.2e) | %.4f (%.2e) | %.4f (%.2e) | %.4f (%.2e) | "
                    "%.4f (%.2e) |\n",
               a->n, a->m[0], a->sd[0], a->m[1], a->sd[1], a->m[2], a->sd[2], a->m[3], a->sd[3], a->m[4], a->sd[4],
               a->m[5], a->sd[5], a->m[6], a->sd[6]);
        if (p)
            exp_md(ctx, "| paper | %u | %.2f (%.2e) | %.2f (%.2e) | %.2e (%.2e) | %.2f (%.2e) | %.2f (%.2e) | %.2f (%.2e) | "
                        "%.2f (%.2e) |\n",
                   p->n, p->o1, p->o1s, p->o3, p->o3s, p->rd, p->rds, p->m1, p->m1s, p->x1, p->x1s, p->m3, p->m3s,
                   p->x3, p->x3s);
    }
    exp_md(ctx, "\n**What the paper does not report** (fedref's columns): the true KKT residuals (Definition 1; "
                "ff_proxal_kkt's certified upper bounds) of every output, max over the trials; Theorem 3.1 "
                "certified (kkt1 <= eps1 and kkt2 <= eps2 after (8)); mean outer and inner iterations "
                "(Algorithm 2 iterations; cProx-AL: Newton steps); mean seconds per run; held-out test "
                "accuracy, miss rate on malignant rows (the error (26) controls) and false-alarm rate on benign "
                "rows, rule w^T x > 0 -> malignant (means over the trials); the mean ‖w‖_2 of the outputs.\n\n"
                "| n | kkt1 A1 | kkt2 A1 | kkt1 cP | kkt2 cP | thm 3.1 A1 | thm 3.1 cP | outer A1 | outer cP | "
                "inner A1 | inner cP | s/run A1 | s/run cP | test acc A1 | miss A1 | alarm A1 | test acc cP | "
                "miss cP | alarm cP | ‖w‖ A1 | ‖w‖ cP |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < ns; s++) {
        const np_agg *a = &A[s];
        exp_md(ctx, "| %zu | %.2e | %.2e | %.2e | %.2e | %lu/%lu | %lu/%lu | %.1f | %.1f | %.0f | %.1f | %.3f | %.3f | "
                    "%.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f |\n",
               a->n, a->k1, a->k2, a->k13, a->k23, a->ok1, a->trials, a->ok3, a->trials, a->out1, a->out3, a->in1,
               a->in3, a->time1, a->time3, a->acc1, a->miss1, a->alarm1, a->acc3, a->miss3, a->alarm3, a->wn1, a->wn3);
    }
    if (!ctx->quick) {
        exp_md(ctx, "\n**Algorithm 2's q.** The runs above use q = 0.97. With the authors' q = 0.9 (their NP code) "
                    "Algorithm 1 was run again on every trial (CSV rows `alg1_q0.9`):\n\n"
                    "| n | runs | Theorem 3.1 certified | FR_EDOM | largest rel. diff to cProx-AL (successful runs) |\n"
                    "|---|---|---|---|---|\n");
        for (size_t s = 0; s < ns; s++)
            exp_md(ctx, "| %zu | %lu | %lu | %lu | %.2e |\n", A[s].n, A[s].q9runs, A[s].q9ok, A[s].q9edom, A[s].q9rd);
        exp_md(ctx, "\nFR_EDOM is fast's Algorithm 2 refusing a client subproblem: with q = 0.9 the tolerance "
                    "q^t falls below binary64's reach after a few hundred ADMM iterations (rho_i = 0.01 makes the "
                    "ADMM slow for many clients), and a client's damped Newton then stops at newton_max with a "
                    "verified residual just above the attainable floor it accepts (64 max_k rb_k; in a development "
                    "run at n = 20: residual 7.60e-15 against a floor of 7.46e-15 at q^t = 4.8e-22, with "
                    "newton_max = 1000 as with 100). This is the limitation docs/PROXAL.md 4.3 describes as never "
                    "seen; real data hit it. q = 0.97 keeps q^t above the floor until (19) holds.\n");
    }
    exp_md(ctx, "\nCSV: `proxal_np_summary.csv` (one row per run), `proxal_np_n<N>_t<T>_alg1.csv` / `_alg3.csv` "
                "(every outer iteration: tau_k, dw, dmu, the KKT residuals, (7)'s residual, the objective, the "
                "clients' class-0 and class-1 losses mean/min/max).\n");
    rc = np_plots(ctx, 5);

    /* verdicts */
    unsigned long okall = 0, runs = 0, bad = 0, term = 0, failst = 0;
    double rdmax = 0, sd1 = A[0].sd[0], l1max = 0, rdn1 = A[0].m[2];
    for (size_t s = 0; s < ns; s++) {
        okall += A[s].ok1 + A[s].ok3;
        runs += 2 * A[s].trials;
        bad += A[s].bad;
        term += A[s].term;
        failst += A[s].failst;
        rdmax = fmax(rdmax, A[s].m[2]);
        l1max = fmax(l1max, A[s].l1maxall);
    }
    exp_verdict(ctx, "Algorithm 1 and cProx-AL yield solutions of similar quality on Neyman-Pearson",
                "004 Sec. 5.2, Table 2 (relative difference 3.9e-4 to 3.4e-2 on breast-cancer-wisc)",
                rdmax <= 5e-2 ? (failst ? EXP_PARTLY : EXP_HOLDS) : EXP_FAILS,
                "mean relative difference of the class-0 loss at most %.2e over n in {%s} (n = 1: %.2e); the paper's "
                "largest on this data set is 3.43e-2 (n = 20). %lu of %lu runs returned no solution (fast's "
                "Algorithm 2 stopped with FR_EDOM at its precision floor; listed above)",
                rdmax, ctx->quick ? "1, 5" : "1, 5, 10, 20", rdn1, failst, runs);
    exp_verdict(ctx, "the class-1 loss of every client is kept below r = 0.2",
                "004 Table 2 (max column 0.20), Fig. 1", l1max <= NP_R + 1e-3 ? EXP_HOLDS : EXP_FAILS,
                "largest class-1 loss of any client at any output: %.5f (r = 0.2; the KKT tolerance eps2 = 1e-3 "
                "allows 0.201)", l1max);
    exp_verdict(ctx, "Algorithm 1 is stable across the trials (small standard deviation)",
                "004 Sec. 5.2, Table 2 (std 1.52e-4 at n = 1)",
                sd1 <= 1e-3 ? EXP_HOLDS : EXP_FAILS,
                "at n = 1 (trials differ only in w0) the std of Algorithm 1's class-0 loss is %.2e; for n > 1 the "
                "std also measures the random deal of the rows over the clients (the paper's grows to 0.21 at "
                "n = 20, ours: %.2e at n = %zu)", sd1, A[ns - 1].sd[0], A[ns - 1].n);
    exp_verdict(ctx, "Theorem 3.1: when Algorithm 1 (or 3) stops by (8), its output is a (1e-3, 1e-3)-KKT point",
                "004 Theorem 3.1, on the NP runs", okall == term ? EXP_HOLDS : EXP_FAILS,
                "%lu of the %lu runs that stopped by (8) have kkt1 <= 1e-3 and kkt2 <= 1e-3 certified "
                "(ff_proxal_kkt's upper bounds); of %lu runs, %lu did not stop by (8) because fast's Algorithm 2 "
                "returned a status (FR_EDOM at its precision floor, listed above): not a case of the theorem",
                okall, term, runs, failst);
    (void)bad;
    int mono = 1;
    char byn[256] = "";
    for (size_t s = 0; s < ns; s++) {
        if (s > 0) mono &= A[s].m[0] >= A[s - 1].m[0];
        size_t L = strlen(byn);
        snprintf(byn + L, sizeof byn - L, "%s%.4f (n = %zu)", s ? ", " : "", A[s].m[0], A[s].n);
    }
    exp_verdict(ctx, "the class-0 loss grows with the number of clients (0.27, 0.34, 0.37, 0.46 for n = 1, 5, 10, 20)",
                "004 Table 2", mono ? EXP_HOLDS : EXP_PARTLY,
                "fedref's Algorithm 1 class-0 loss: %s (every client's own class-1 constraint must hold, which "
                "constrains more as the rows are spread over more clients)", byn);
    px_bc_free(&bc);
    (void)failed;
    return rc;
}
