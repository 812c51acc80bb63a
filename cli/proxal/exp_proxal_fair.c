/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_fair.c -- the experiment proxal, part (c): 004 Sec. 5.3,
 * Table 3: the fairness problem (28) on 'adult-b' (data/adult_b.c,
 * docs/DATA.md 4b; sensitive attribute sex), r_i = 0.1, Sec. 5.3's
 * parameters (mu0 = 0, sbar = 0.001, beta = 10, rho_i = 1e8, eps1 = eps2 =
 * 1e-3), w0 on the unit sphere per trial, the rows of each part split into
 * n equal contiguous folds.  cProx-AL (Algorithm 3) runs to (8) on all
 * the rows; Algorithm 1 is timed on its first outer iteration only (with
 * rho_i = 1e8 Algorithm 2 moves w by about grad / rho_i per iteration: it
 * does not reach (19) within tmax), on a slice in quick mode. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../cli.h"
#include "exp_proxal.h"
#include "table1.h"

#define PX_STREAM_FAIR_W0 ((uint64_t)10 << 32)
#define FAIR_R 0.1

/* 004 Table 3 as printed: n, objective Alg. 1 (std), cProx-AL (std),
 * relative difference (std), loss disparity Alg. 1 mean, max, cProx-AL
 * mean, max (their stds omitted). */
typedef struct {
    unsigned n;
    double o1, o1s, o3, o3s, rd, rds, m1, x1, m3, x3;
} fair_paper;
static const fair_paper PAPER3[4] = {
    {1, 0.37, 9.83e-5, 0.37, 4.14e-5, 1.97e-3, 2.53e-4, 0.10, 0.10, 0.10, 0.10},
    {5, 0.37, 3.99e-3, 0.37, 4.05e-3, 1.86e-3, 4.69e-4, 0.09, 0.10, 0.09, 0.10},
    {10, 0.37, 6.39e-3, 0.37, 6.52e-3, 2.39e-3, 8.40e-4, 0.08, 0.10, 0.08, 0.10},
    {20, 0.38, 9.46e-3, 0.37, 9.86e-3, 4.61e-3, 2.43e-3, 0.08, 0.10, 0.08, 0.10},
};
static const size_t NS_FULL[4] = {1, 5, 10, 20}, NS_QUICK[2] = {1, 5};
static size_t n_settings(const exp_ctx *ctx) { return ctx->quick ? 2 : 4; }
static unsigned long n_trials(const exp_ctx *ctx) { return ctx->quick ? 2 : 10; }
/* quick: Algorithm 1 on SLICE rows per owner, tmax A1_TMAX_QUICK */
#define SLICE 100
#define A1_TMAX_QUICK 200ul
#define A1_TMAX_FULL 2000ul
/* per n: the cProx-AL trials and one timed Algorithm-1 iteration */
unsigned long px_fair_runs(const exp_ctx *ctx) { return n_settings(ctx) * (n_trials(ctx) + 1); }

static int load(exp_ctx *ctx, fdata_adult_b *b)
{
    char err[PATH_MAX + 512];
    fdata_uci u[2];
    if (exp_adult_load(ctx, u) != 0)
        return 2;
    int st = fdata_adult_004b(b, &u[0], &u[1], err, sizeof err);
    fdata_uci_free(&u[0]);
    fdata_uci_free(&u[1]);
    if (st != FR_OK) { cli_error(err, "adult-b"); return 2; }
    return 0;
}

/* (28) for n clients: owner 0 = the first `cap` (0: all) test rows, client
 * i = fold i of the training rows (equal contiguous folds, at most cap). */
typedef struct {
    size_t *cnt;
    double *X, *r;
    unsigned char *y, *g;
    fr_proxal_problem P;
} fair_pb;
static void fair_free(fair_pb *f) { free(f->cnt); free(f->X); free(f->r); free(f->y); free(f->g); }
static int fair_make(const fdata_adult_b *b, size_t n, size_t cap, fair_pb *f)
{
    size_t d = b->train.d, per = b->train.n / n, ns = b->test.n;
    if (cap) per = per < cap ? per : cap, ns = ns < cap ? ns : cap;
    size_t S = ns + n * per;
    memset(f, 0, sizeof *f);
    f->cnt = malloc((n + 1) * sizeof *f->cnt);
    f->r = malloc((n + 1) * sizeof *f->r);
    f->X = malloc(S * d * sizeof *f->X);
    f->y = malloc(S);
    f->g = malloc(S);
    if (!f->cnt || !f->r || !f->X || !f->y || !f->g) { fair_free(f); cli_error("out of memory", "experiment proxal"); return 2; }
    f->cnt[0] = ns;
    memcpy(f->X, b->test.x, ns * d * sizeof *f->X);
    memcpy(f->y, b->test.y, ns);
    memcpy(f->g, b->group_test, ns);
    for (size_t i = 0; i < n; i++) {
        size_t o = ns + i * per, src = i * (b->train.n / n);
        f->cnt[i + 1] = per;
        memcpy(f->X + o * d, b->train.x + src * d, per * d * sizeof *f->X);
        memcpy(f->y + o, b->train.y + src, per);
        memcpy(f->g + o, b->group_train + src, per);
    }
    for (size_t i = 0; i <= n; i++) f->r[i] = FAIR_R;
    fr_proxal_problem P = {.kind = FR_PROXAL_FAIR, .n = n, .d = d, .cnt = f->cnt, .X = f->X, .y = f->y,
                           .grp = f->g, .r = f->r};
    f->P = P;
    return 0;
}

/* |D_i(w)| for owner i: c_i's first row + r_i = D_i (ff_proxal_client_eval) */
static double disparity(const fair_pb *f, size_t i, const double *w)
{
    double fi, c[2];
    if (ff_proxal_client_eval(&f->P, i, w, &fi, NULL, NULL, c, NULL, NULL, NULL) != FR_OK) return NAN;
    return fabs(c[0] + f->r[i]);
}

static void mean_std(const double *x, size_t k, double *m, double *s)
{
    double a = 0, v = 0;
    size_t c = 0;
    for (size_t i = 0; i < k; i++) if (isfinite(x[i])) a += x[i], c++;
    a = c ? a / (double)c : NAN;
    for (size_t i = 0; i < k; i++) if (isfinite(x[i])) v += (x[i] - a) * (x[i] - a);
    *m = a;
    *s = c ? sqrt(v / (double)c) : NAN;
}

int px_part_fair(exp_ctx *ctx)
{
    fdata_adult_b b;
    int rc = load(ctx, &b);
    if (rc) return rc;
    size_t ns = n_settings(ctx), d = b.train.d;
    const size_t *N = ctx->quick ? NS_QUICK : NS_FULL;
    unsigned long trials = n_trials(ctx), tmax1 = ctx->quick ? A1_TMAX_QUICK : A1_TMAX_FULL;
    exp_md(ctx, "### (c) Table 3: classification with fairness constraints (28) on adult-b\n\n"
                "**Data.** 004's 'adult-b' (docs/DATA.md 4b): %zu training rows at the clients, %zu test rows at "
                "the server, d = %zu, sensitive attribute sex; each part split into n equal contiguous folds "
                "(Sec. 5.3). r_i = 0.1, mu0 = 0, sbar = 0.001, beta = 10, eps1 = eps2 = 1e-3, kmax = 2000; "
                "cProx-AL's subproblems by fedref's certified damped Newton (shifted when l_k's Hessian is "
                "indefinite: (28) is not convex), not scipy's L-BFGS; w0 on the unit sphere per trial; n in {%s}, "
                "%lu trials.\n\n",
           b.train.n, b.test.n, d, ctx->quick ? "1, 5" : "1, 5, 10, 20", trials);
    double *w0 = malloc(d * sizeof *w0), *obj = malloc(trials * sizeof *obj), *dm = malloc(trials * sizeof *dm),
           *dx = malloc(trials * sizeof *dx);
    if (!w0 || !obj || !dm || !dx) { free(w0); free(obj); free(dm); free(dx); fdata_adult_b_free(&b);
        cli_error("out of memory", "experiment proxal"); return 2; }
    exp_md(ctx, "| | n | objective Alg. 1 | objective cProx-AL | relative difference | disparity Alg. 1 mean | max | "
                "disparity cProx-AL mean | max | kkt1 cP (max) | kkt2 cP (max) | Thm 3.1 cP | outer cP | s/run cP |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    double a1_sper[4] = {0}, a1_res[4] = {0};
    unsigned long a1_it[4] = {0};
    int a1_st[4] = {0};
    unsigned long okall = 0, runs = 0;
    double objn1 = NAN, dmaxall = 0;
    for (size_t s = 0; s < ns && rc == 0; s++) {
        size_t n = N[s];
        fair_pb f;
        if ((rc = fair_make(&b, n, 0, &f))) break;
        double rho1 = 1e8, k1 = 0, k2 = 0, tsum = 0, out = 0;
        unsigned long ok = 0;
        for (unsigned long tr = 0; tr < trials && rc == 0; tr++) {
            int st = cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_FAIR_W0 + 1000 * n + tr);
            fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 1e-3, .beta = 10, .kmax = 2000,
                                        .admm = {.tau = 1, .q = 0.97, .rho = &rho1, .tmax = 1, .newton_max = 100,
                                                 .eps18 = FR_PROXAL_EPS18_PRINTED},
                                        .w0 = w0, .mu0 = NULL, .keep = 0};
            ff_proxal_trace t;
            memset(&t, 0, sizeof t);
            double t0 = exp_now();
            if (st == FR_OK) st = ff_proxal_trace_init(&t, &f.P, &prm);
            if (st == FR_OK) st = ff_proxal_alg3(&t, &f.P, &prm);
            double el = exp_now() - t0;
            obj[tr] = dm[tr] = dx[tr] = NAN;
            runs++;
            if (st == FR_OK && t.iters > 0) {
                size_t K = t.iters - 1;
                obj[tr] = t.obj[K];
                k1 = fmax(k1, t.kkt1[K]), k2 = fmax(k2, t.kkt2[K]);
                ok += t.terminated && t.thm31_ok;
                out += (double)t.iters;
                double sm = 0, mx = 0;
                for (size_t i = 0; i <= n; i++) {
                    double D = disparity(&f, i, t.w);
                    sm += D, mx = fmax(mx, D);
                }
                dm[tr] = sm / (double)(n + 1), dx[tr] = mx;
                dmaxall = fmax(dmaxall, mx);
            } else
                exp_md(ctx, "- cProx-AL n = %zu, trial %lu: status %s\n", n, tr, fr_strerror(st));
            tsum += el;
            ff_proxal_trace_clear(&t);
            exp_run_done(ctx, el, "FAIR n = %zu, trial %lu, cProx-AL", n, tr);
        }
        okall += ok;
        double mo, so, mdm, sdm, mdx, sdx;
        mean_std(obj, trials, &mo, &so);
        mean_std(dm, trials, &mdm, &sdm);
        mean_std(dx, trials, &mdx, &sdx);
        if (n == 1) objn1 = mo;
        exp_md(ctx, "| fedref | %zu | not run to (8) (below) | %.4f (%.2e) | n/a | n/a | n/a | %.4f | %.4f | %.2e | %.2e | "
                    "%lu/%lu | %.1f | %.2f |\n", n, mo, so, mdm, mdx, k1, k2, ok, trials,
               out / (double)trials, tsum / (double)trials);
        const fair_paper *p = &PAPER3[0];
        for (int k = 0; k < 4; k++) if (PAPER3[k].n == n) p = &PAPER3[k];
        exp_md(ctx, "| paper | %u | %.2f (%.2e) | %.2f (%.2e) | %.2e (%.2e) | %.2f | %.2f | %.2f | %.2f | | | | | |\n",
               p->n, p->o1, p->o1s, p->o3, p->o3s, p->rd, p->rds, p->m1, p->x1, p->m3, p->x3);
        fair_free(&f);
        /* Algorithm 1: its first outer iteration, timed (a slice in quick mode) */
        if (rc == 0 && (rc = fair_make(&b, n, ctx->quick ? SLICE : 0, &f)) == 0) {
            double *rho = malloc(n * sizeof *rho);
            if (!rho) { fair_free(&f); cli_error("out of memory", "experiment proxal"); rc = 2; break; }
            for (size_t i = 0; i < n; i++) rho[i] = 1e8;
            (void)cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_FAIR_W0 + 1000 * n);   /* drawn above: FR_OK */
            fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 1e-3, .beta = 10, .kmax = 1,
                                        .admm = {.tau = 1, .q = 0.97, .rho = rho, .tmax = tmax1, .newton_max = 100,
                                                 .eps18 = FR_PROXAL_EPS18_PRINTED},
                                        .w0 = w0, .mu0 = NULL, .keep = 0};
            ff_proxal_trace t;
            memset(&t, 0, sizeof t);
            double t0 = exp_now();
            int st = ff_proxal_trace_init(&t, &f.P, &prm);
            if (st == FR_OK) st = ff_proxal_alg1(&t, &f.P, &prm);
            double el = exp_now() - t0;
            a1_st[s] = st;
            if (st == FR_OK && t.iters) {
                a1_it[s] = t.inner[0];
                a1_res[s] = t.sub[0];
                a1_sper[s] = t.inner[0] ? el / (double)t.inner[0] : NAN;
            }
            ff_proxal_trace_clear(&t);
            free(rho);
            fair_free(&f);
            exp_run_done(ctx, el, "FAIR n = %zu, Algorithm 1, first outer iteration", n);
        }
    }
    if (rc == 0) {
        exp_md(ctx, "\nDisparity = |D_i(w)| = |mean loss(group 0) - mean loss(group 1)| over owner i's rows, mean "
                    "and max over the n clients and the server (the constraint: <= r = 0.1); kkt1, kkt2: the true "
                    "KKT residuals of Definition 1 (ff_proxal_kkt's certified upper bounds) of each output, max "
                    "over the trials.\n\n**Algorithm 1 is not run to (8).** With Sec. 5.3's rho_i = 1e8, "
                    "Algorithm 2 moves w by about grad / rho_i per iteration; its first outer iteration was run "
                    "with tmax = %lu (%s) and timed:\n\n"
                    "| n | status | ADMM iterations | (19) residual at the end (tau_0 = 1e-3) | s per ADMM iteration |\n"
                    "|---|---|---|---|---|\n", tmax1, ctx->quick ? "on 100 rows per owner" : "all rows");
        for (size_t s = 0; s < ns; s++)
            exp_md(ctx, "| %zu | %s | %lu | %.3e | %.2e |\n", N[s], fr_strerror(a1_st[s]), a1_it[s], a1_res[s],
                   a1_sper[s]);
        exp_md(ctx, "\nThe paper's Algorithm-1 columns are therefore not reproduced here.\n\n");
        exp_verdict(ctx, "cProx-AL reaches a (1e-3, 1e-3)-KKT point of (28) with objective 0.37",
                    "004 Sec. 5.3, Table 3 (cProx-AL 0.37 at every n)",
                    okall == runs && fabs(objn1 - 0.37) <= 0.01 ? EXP_HOLDS : EXP_FAILS,
                    "%lu of %lu cProx-AL runs stopped by (8) with kkt1, kkt2 <= 1e-3 certified; mean objective at "
                    "n = 1: %.4f (paper 0.37)", okall, runs, objn1);
        exp_verdict(ctx, "the loss disparity of every client and the server is kept below 0.1",
                    "004 Table 3 (max columns 0.10), Fig. 2", dmaxall <= FAIR_R + 1e-3 ? EXP_HOLDS : EXP_FAILS,
                    "largest |D_i| of any owner at any cProx-AL output: %.5f (r = 0.1)", dmaxall);
        exp_verdict(ctx, "Algorithm 1 and cProx-AL yield solutions of similar quality on (28)",
                    "004 Sec. 5.3, Table 3 (relative difference 1.9e-3 to 4.6e-3)", EXP_UNTESTED,
                    "Algorithm 1 with rho_i = 1e8 was timed on its first outer iteration only: after tmax = %lu "
                    "ADMM iterations its (19) residual is %.3e at n = %zu (tau_0 = 1e-3; %.2e s per iteration%s)",
                    tmax1, a1_res[ns - 1], N[ns - 1], a1_sper[ns - 1], ctx->quick ? ", 100 rows per owner" : "");
    }
    free(w0); free(obj); free(dm); free(dx);
    fdata_adult_b_free(&b);
    return rc;
}
