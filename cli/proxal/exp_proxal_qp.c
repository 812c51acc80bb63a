/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_qp.c -- the experiment proxal, part (a): 004 Sec. 5.1, Table
 * 1 (the QP (25)) through the runner of `fedref table1` (table1_run.c:
 * the same instances, w0 and parameters, so its numbers are table1's):
 * the nine settings with 10 trials (--quick: n = 1 and 5 at d = 100, 2
 * trials), a CSV per run (every outer iteration), a summary CSV, the
 * table beside the paper's, fedref's own columns, a plot of the KKT
 * residuals, ref's spot check and the verdicts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_proxal.h"
#include "table1.h"

#define QP_SEED 10   /* table1's default seed: the authors' seed */
#define QP_Q 0.95    /* table1's default q */

static const size_t ROWS_FULL[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, ROWS_QUICK[2] = {0, 3};
static size_t n_rows(const exp_ctx *ctx) { return ctx->quick ? 2 : 9; }
static unsigned long n_trials(const exp_ctx *ctx) { return ctx->quick ? 2 : 10; }
unsigned long px_qp_runs(const exp_ctx *ctx) { return 2 * n_rows(ctx) * n_trials(ctx); }

typedef struct {
    exp_ctx *ctx;
    FILE *sum;
    int rc;
    double feasmax, thm_runs, thm_ok;
} qp_state;

static int trace_csv(exp_ctx *ctx, const char *file, const ff_proxal_trace *t, const cli_t1_run *r)
{
    FILE *f = exp_csv_open(ctx, file, "k,tau,dw,dmu,kkt1,kkt2,sub,inner_ok,obj,feas,inner");
    if (f == NULL) return 2;
    if (r->st == FR_OK)
        for (size_t k = 0; k < t->iters; k++)
            fprintf(f, "%zu,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%d,%.12e,%.6e,%lu\n", k + 1, t->tau[k], t->dw[k], t->dmu[k],
                    t->kkt1[k], t->kkt2[k], t->sub[k], t->inner_ok[k], t->obj[k], t->feas[k], t->inner[k]);
    return exp_csv_close(ctx, f, file);
}

static void on_trial(void *arg, const cli_t1_paper *S, unsigned long tr, const cli_t1_run *r1,
                     const ff_proxal_trace *t1, const cli_t1_run *r3, const ff_proxal_trace *t3,
                     const fr_proxal_alg_params *prm)
{
    qp_state *q = arg;
    (void)prm;
    const cli_t1_run *R[2] = {r1, r3};
    const ff_proxal_trace *T[2] = {t1, t3};
    for (int a = 0; a < 2; a++) {
        char file[96];
        snprintf(file, sizeof file, "proxal_qp_n%u_d%u_t%lu_%s.csv", S->n, S->d, tr, a ? "alg3" : "alg1");
        if (q->rc == 0) q->rc = trace_csv(q->ctx, file, T[a], R[a]);
        fprintf(q->sum, "%u,%u,%u,%lu,%s,%d,%d,%d,%lu,%lu,%.12e,%.6e,%.6e,%.6e,%.4f\n", S->n, S->d, S->mt, tr,
                a ? "cproxal" : "alg1", R[a]->st, R[a]->terminated, R[a]->thm31, R[a]->outer, R[a]->inner, R[a]->obj,
                R[a]->feas, R[a]->kkt1, R[a]->kkt2, R[a]->time);
        q->feasmax = fmax(q->feasmax, R[a]->feas);
        q->thm_runs += 1;
        q->thm_ok += R[a]->thm31 != 0;
        if (cli_t1_run_failed(R[a]))
            exp_md(q->ctx, "- run n = %u, d = %u, trial %lu, %s: status %s, terminated %d, thm31_ok %d, outer %lu, "
                           "inner (7) not certified %d\n",
                   S->n, S->d, tr, a ? "cProx-AL" : "Algorithm 1", fr_strerror(R[a]->st), R[a]->terminated,
                   R[a]->thm31, R[a]->outer, R[a]->inner_bad);
        exp_run_done(q->ctx, R[a]->time, "QP n = %u, d = %u, trial %lu, %s", S->n, S->d, tr,
                     a ? "cProx-AL" : "Algorithm 1");
    }
}

/* ref's spot check: the first outer iteration of both algorithms on the
 * smallest setting (n = 1, d = 100, mt = 1) from trial 0's w0 */
static int qp_spot(exp_ctx *ctx)
{
    const size_t n = 1, d = 100, mt = 1;
    double *A = malloc(n * d * d * sizeof *A), *b = malloc(n * d * sizeof *b);
    double *C = malloc((n + 1) * mt * d * sizeof *C), *e = malloc((n + 1) * mt * sizeof *e);
    double *w0 = malloc(d * sizeof *w0), rho[1] = {1};
    int rc = 0, st = A && b && C && e && w0 ? FR_OK : FR_ENOMEM;
    if (st == FR_OK) st = fr_proxal_gen_qp(A, b, C, e, n, d, mt, QP_SEED);
    if (st == FR_OK) st = cli_t1_sphere_w0(w0, d, QP_SEED, ((uint64_t)6 << 32) + 1000 * n + 0);
    if (st != FR_OK) {
        cli_error("cannot make the spot check's QP", fr_strerror(st));
        rc = 2;
    } else {
        fr_proxal_problem P = {.kind = FR_PROXAL_QP, .n = n, .d = d, .mt = mt, .A = A, .b = b, .C = C, .e = e,
                               .h = FR_PROXAL_H_ZERO};
        fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 0.1, .beta = 10, .kmax = 1,
                                    .admm = {.tau = 1, .q = QP_Q, .rho = rho, .tmax = 10000, .newton_max = 50,
                                             .eps18 = FR_PROXAL_EPS18_PRINTED},
                                    .w0 = w0, .mu0 = NULL, .keep = 0};
        int s = px_ref_spot(ctx, "QP n = 1, d = 100, mt = 1", &P, &prm, 1);
        if (s == 2) rc = 2;
    }
    free(A); free(b); free(C); free(e); free(w0);
    return rc;
}

int px_part_qp(exp_ctx *ctx)
{
    size_t nr = n_rows(ctx);
    const size_t *rows = ctx->quick ? ROWS_QUICK : ROWS_FULL;
    unsigned long trials = n_trials(ctx);
    exp_md(ctx, "### (a) Table 1: the linearly constrained QP (25)\n\n"
                "The runner of `fedref table1` (docs/PROXAL.md 6): per setting one instance from "
                "fr_proxal_gen_qp (seed %d, the authors' seed; their numpy stream is not reproduced, so the "
                "instances differ from theirs), %lu trials of Algorithm 1 and cProx-AL from the same w0 on the "
                "unit sphere; Sec. 5.1's parameters mu0 = 0, sbar = 0.1, beta = 10, rho_i = 1, eps1 = eps2 = "
                "1e-3; Algorithm 2's q = %.2f (the paper solves (14)-(15) exactly and gives none). Settings: %s.\n\n"
                "**Deviations.** Different instances (the objective values cannot match the paper's digits; "
                "the relative difference, the feasibility and the spread can be compared). The authors' code "
                "departs from the paper (docs/PROXAL.md 7: e_0 = 0, w0 on the positive orthant, Algorithm 1 "
                "started from cProx-AL's final multipliers); fedref follows the paper.\n\n",
           QP_SEED, trials, QP_Q,
           ctx->quick ? "n = 1 and 5 at d = 100, mt = 1 (--quick)"
                      : "all nine, n in {1, 5, 10} x (d, mt) in {(100, 1), (300, 3), (500, 5)}");
    char sumfile[] = "proxal_qp_summary.csv";
    qp_state q = {.ctx = ctx};
    q.sum = exp_csv_open(ctx, sumfile, "n,d,mt,trial,alg,status,terminated,thm31_ok,outer,inner,objective,feas,"
                                       "kkt1,kkt2,seconds");
    if (q.sum == NULL) return 2;
    cli_t1_opts opt = {.trials = trials, .seed = QP_SEED, .q = QP_Q, .on_trial = on_trial, .arg = &q};
    cli_t1_setting R[9];
    int rc = 0;
    for (size_t s = 0; s < nr && rc == 0 && q.rc == 0; s++) rc = cli_t1_setting_run(rows[s], &opt, &R[s]);
    int rc2 = exp_csv_close(ctx, q.sum, sumfile);
    if (rc == 0) rc = q.rc;
    if (rc == 0) rc = rc2;
    if (rc) return rc;
    exp_md(ctx, "\n**Table 1 columns** (mean (population std) over the trials; paper rows: 004 Table 1 as "
                "printed, 10 trials). Relative difference = |f_Alg1 - f_cProx| / |f_cProx| per trial; feasibility "
                "violation = max_i ||C_i w + e_i||_inf.\n\n"
                "| | n | d | mt | objective Alg. 1 | objective cProx-AL | relative difference | feas. viol. Alg. 1 | "
                "feas. viol. cProx-AL |\n|---|---|---|---|---|---|---|---|---|\n");
    double rdmax = 0, rdmin = INFINITY, sdrel = 0, sdabs = 0;
    unsigned long fails = 0;
    for (size_t s = 0; s < nr; s++) {
        const cli_t1_paper *S = &cli_t1_rows[rows[s]];
        const cli_t1_setting *r = &R[s];
        exp_md(ctx, "| fedref | %u | %u | %u | %.4f (%.2e) | %.4f (%.2e) | %.2e (%.2e) | %.2e (%.2e) | %.2e (%.2e) |\n",
               S->n, S->d, S->mt, r->m[0], r->sd[0], r->m[1], r->sd[1], r->m[2], r->sd[2], r->m[3], r->sd[3], r->m[4],
               r->sd[4]);
        exp_md(ctx, "| paper | | | | %.2f (%.2e) | %.2f (%.2e) | %.2e (%.2e) | %.2e (%.2e) | %.2e (%.2e) |\n", S->o1,
               S->o1s, S->o3, S->o3s, S->rd, S->rds, S->f1, S->f1s, S->f3, S->f3s);
        rdmax = fmax(rdmax, r->m[2]);
        rdmin = fmin(rdmin, r->m[2]);
        sdrel = fmax(sdrel, fmax(r->sd[0], r->sd[1]) / fabs(r->m[1]));
        sdabs = fmax(sdabs, fmax(r->sd[0], r->sd[1]));
        fails += r->fails;
    }
    exp_md(ctx, "\n**fedref's own columns**: the true KKT residuals (Definition 1, certified upper bounds) of the "
                "outputs, max over the trials; Theorem 3.1 certified; mean outer and inner iterations (Algorithm 2 "
                "iterations; cProx-AL: Newton steps), Cholesky factorisations per run; seconds (instance "
                "generation, all Algorithm 1 runs, all cProx-AL runs).\n\n"
                "| n | d | mt | kkt1 A1 | kkt2 A1 | kkt1 cP | kkt2 cP | thm 3.1 A1 | thm 3.1 cP | outer A1 | outer cP | "
                "inner A1 | inner cP | fact. A1 | fact. cP | gen s | A1 s | cP s |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < nr; s++) {
        const cli_t1_paper *S = &cli_t1_rows[rows[s]];
        const cli_t1_setting *r = &R[s];
        exp_md(ctx, "| %u | %u | %u | %.2e | %.2e | %.2e | %.2e | %lu/%lu | %lu/%lu | %.1f | %.1f | %.1f | %.1f | %.1f | "
                    "%.1f | %.2f | %.2f | %.2f |\n",
               S->n, S->d, S->mt, r->k1max, r->k2max, r->k1max3, r->k2max3, r->ok1, trials, r->ok3, trials, r->out1,
               r->out3, r->in1, r->in3, r->fact1, r->fact3, r->tgen, r->time1, r->time3);
    }
    exp_md(ctx, "\nCSV: `proxal_qp_summary.csv` (one row per run), `proxal_qp_n<N>_d<D>_t<T>_alg1.csv` / "
                "`_alg3.csv` (every outer iteration).\n");
    char sc[1536];
    snprintf(sc, sizeof sc,
             "set datafile separator ','\n"
             "set title '004 Table 1: QP (25), d = 100, trial 0: stationarity eps1 of (w^{k+1}, mu^{k+1}) (Definition 1)'\n"
             "set xlabel 'outer iteration k'\nset ylabel 'eps1 (certified upper bound)'\n"
             "set logscale y\nset format y '10^{%%L}'\nset key top right\nset grid\n"
             "plot 'proxal_qp_n1_d100_t0_alg1.csv' using 1:5 with linespoints lw 2 lc rgb '#1f4e9c' title 'Algorithm 1, n = 1', \\\n"
             "     'proxal_qp_n1_d100_t0_alg3.csv' using 1:5 with linespoints lw 2 dt 2 lc rgb '#1f4e9c' title 'cProx-AL, n = 1', \\\n"
             "     'proxal_qp_n5_d100_t0_alg1.csv' using 1:5 with linespoints lw 2 lc rgb '#9c4e1f' title 'Algorithm 1, n = 5', \\\n"
             "     'proxal_qp_n5_d100_t0_alg3.csv' using 1:5 with linespoints lw 2 dt 2 lc rgb '#9c4e1f' title 'cProx-AL, n = 5', \\\n"
             "     1e-3 with lines dt 3 lc rgb 'black' title 'eps1 = 1e-3'\n");
    rc = exp_plot(ctx, "proxal_qp_kkt.png", "QP (25), d = 100: stationarity over the outer iterations", sc);
    if (rc) return rc;
    exp_md(ctx, "\nref's spot check (MPFR, 128 bits, against fast; the first outer iteration, trial 0's w0):\n\n"
                "| problem | algorithm | outer ref / fast | inner counts differing | max drift of w^k | "
                "max KKT rel. diff | kkt1 / kkt2 (ref, last) | time ref / fast (s) | result |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    rc = qp_spot(ctx);
    if (rc == 2) return 2;
    exp_md(ctx, "\n");
    unsigned long runs = (unsigned long)q.thm_runs, ok = (unsigned long)q.thm_ok;
    exp_verdict(ctx, "Algorithm 1 and cProx-AL both find nearly feasible solutions", "004 Sec. 5.1, Table 1",
                q.feasmax <= 1e-3 ? EXP_HOLDS : EXP_FAILS,
                "largest feasibility violation over all %lu runs: %.2e (the paper's: up to 9.29e-4; the target "
                "eps2 = 1e-3)", runs, q.feasmax);
    exp_verdict(ctx, "Algorithm 1 and cProx-AL reach a similar objective value", "004 Sec. 5.1, Table 1",
                rdmax <= 1e-2 ? EXP_HOLDS : EXP_FAILS,
                "mean relative difference per setting from %.2e to %.2e (the paper's: 5.59e-4 to 1.63e-3); "
                "fedref's is smaller for n >= 5, see docs/PROXAL.md 6", rdmin, rdmax);
    exp_verdict(ctx, "the behaviour is stable across the trials (small standard deviations)", "004 Sec. 5.1, Table 1",
                sdabs <= 1e-3 ? EXP_HOLDS : sdrel <= 1e-2 ? EXP_PARTLY : EXP_FAILS,
                "largest std of an objective over the trials %.2e, largest relative to its mean %.2e (the "
                "paper's largest std is 9.02e-5, %.0f times smaller): small against the objectives; the runs stop "
                "at (1e-3, 1e-3)-KKT points, which fixes the objective only to about the tolerance times the size "
                "of the multipliers", sdabs, sdrel, sdabs / 9.02e-5);
    exp_verdict(ctx, "Theorem 3.1: an output of Algorithm 1 (or 3) that stops by (8) is a (1e-3, 1e-3)-KKT point",
                "004 Theorem 3.1, on the QP runs", ok == runs && fails == 0 ? EXP_HOLDS : EXP_FAILS,
                "%lu of %lu runs terminated with kkt1 <= 1e-3 and kkt2 <= 1e-3 certified (and every inner (7) "
                "certified); %lu runs with a problem", ok, runs, fails);
    return 0;
}
