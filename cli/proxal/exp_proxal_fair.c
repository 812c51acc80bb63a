/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_fair.c -- the experiment proxal, part (c): 004 Sec. 5.3,
 * Table 3: the fairness problem (28) on 'adult-b' (data/adult_b.c,
 * docs/DATA.md 4b; sensitive attribute sex), r_i = 0.1, Sec. 5.3's
 * parameters (mu0 = 0, sbar = 0.001, beta = 10, rho_i = 1e8, eps1 = eps2 =
 * 1e-3), w0 on the unit sphere per trial, the rows of each part split into
 * n equal contiguous folds.  cProx-AL (Algorithm 3) runs to (8) on all
 * the rows in every trial; Algorithm 1 runs to (8) from the same w0 in the
 * first a1_trials() trials with rho_i = A1_RHO (Sec. 5.3's rho_i = 1e8 makes
 * Algorithm 2 move w by about grad / rho_i per iteration: its first outer
 * iteration is timed, and does not reach (19) within tmax).  In quick mode
 * Algorithm 1, and the cProx-AL run it is compared with, see a slice. */
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
/* Algorithm 1 to (8): rho_i = A1_RHO, tmax A1_TMAX, in the first
 * a1_trials trials (quick: on SLICE rows per owner, with its own cProx-AL
 * run on the same slice); rho_i = 1e8: the first outer iteration timed,
 * tmax A1E8_TMAX_{QUICK,FULL}.  A1_RHO: the fewest ADMM iterations of the
 * values measured on all rows at n = 5 (0.3: 7 846 to (8); 1: 9 120; 3 and
 * 100 slower from the first outer iteration); at 0.01 (all rows) and 0.03
 * (100 rows per owner) fast's Algorithm 2 stops with FR_EDOM on (28),
 * whose client subproblems are convex only for rho_i large enough. */
#define SLICE 100
#define A1_RHO 0.3
#define A1_TMAX 20000ul
#define A1E8_TMAX_QUICK 200ul
#define A1E8_TMAX_FULL 500ul
static unsigned long a1_trials(const exp_ctx *ctx) { return ctx->quick ? 1 : 2; }
/* per n: the cProx-AL trials, the Algorithm-1 runs, one timed rho = 1e8 iteration */
/* the kinds of exp_plan_kind: Algorithm 1 to (8), and its first outer
 * iteration at rho_i = 1e8 */
enum { KIND_A1 = 1, KIND_E8 = 2 };
unsigned long px_fair_runs(const exp_ctx *ctx) { return n_settings(ctx) * n_trials(ctx); }
void px_fair_plan_kinds(exp_ctx *ctx)
{
    exp_plan_kind(ctx, KIND_A1, n_settings(ctx) * a1_trials(ctx));
    exp_plan_kind(ctx, KIND_E8, n_settings(ctx));
}

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

/* Fig. 2's CSV of a run kept with FR_PROXAL_KEEP_W: per outer iteration k
 * (0: w0) the objective and KKT records, the clients' classification loss
 * (the mean logistic loss over their rows: n f_i) and disparity |D_i|,
 * mean/min/max over the clients, and the server's disparity.  0, or 2
 * after cli_error. */
static int fig2_csv(exp_ctx *ctx, const char *file, const fair_pb *f, const ff_proxal_trace *t)
{
    size_t n = f->P.n, d = f->P.d;
    FILE *o = exp_csv_open(ctx, file, "k,obj,kkt1,kkt2,loss_mean,loss_min,loss_max,disp_mean,disp_min,disp_max,"
                                      "disp_server");
    if (o == NULL) return 2;
    for (size_t k = 0; k <= t->iters; k++) {
        const double *w = t->w + k * d;
        double la = 0, llo = INFINITY, lhi = -INFINITY, da = 0, dlo = INFINITY, dhi = -INFINITY;
        for (size_t i = 1; i <= n; i++) {
            double fi, D = disparity(f, i, w);
            if (ff_proxal_client_eval(&f->P, i, w, &fi, NULL, NULL, NULL, NULL, NULL, NULL) != FR_OK) fi = NAN;
            fi *= (double)n;
            la += fi, llo = fmin(llo, fi), lhi = fmax(lhi, fi);
            da += D, dlo = fmin(dlo, D), dhi = fmax(dhi, D);
        }
        if (k == 0) fprintf(o, "0,,,");
        else fprintf(o, "%zu,%.10e,%.6e,%.6e", k, t->obj[k - 1], t->kkt1[k - 1], t->kkt2[k - 1]);
        fprintf(o, ",%.8e,%.8e,%.8e,%.8e,%.8e,%.8e,%.8e\n", la / (double)n, llo, lhi, da / (double)n, dlo, dhi,
                disparity(f, 0, w));
    }
    return exp_csv_close(ctx, o, file);
}

/* One run of Algorithm 1 (alg1) or 3 on f from w0 (rho_i for Algorithm 2,
 * tmax its iterations per outer step, kmax outer steps), what a trial
 * records into o; with fig2 (not NULL) every w^k is kept and Fig. 2's CSV
 * written to that file.  0, or 2 after cli_error (the CSV). */
typedef struct {
    int st, ok;                 /* status; stopped by (8) with Theorem 3.1 certified */
    double obj, dmean, dmax, kkt1, kkt2, secs, sub0;
    unsigned long outer, inner, inner0;
} fair_out;
static int fair_run(exp_ctx *ctx, const fair_pb *f, int alg1, const double *w0, double rho_i, unsigned long tmax,
                    size_t kmax, const char *fig2, fair_out *o)
{
    int rc = 0;
    size_t n = f->P.n;
    memset(o, 0, sizeof *o);
    o->obj = o->dmean = o->dmax = o->kkt1 = o->kkt2 = o->sub0 = NAN;
    double *rho = malloc(n * sizeof *rho);
    if (!rho) { o->st = FR_ENOMEM; return 0; }
    for (size_t i = 0; i < n; i++) rho[i] = rho_i;
    fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 1e-3, .beta = 10, .kmax = kmax,
                                .admm = {.tau = 1, .q = 0.97, .rho = rho, .tmax = tmax, .newton_max = 100,
                                         .eps18 = FR_PROXAL_EPS18_PRINTED},
                                .w0 = w0, .mu0 = NULL, .keep = fig2 ? FR_PROXAL_KEEP_W : 0};
    ff_proxal_trace t;
    memset(&t, 0, sizeof t);
    double t0 = exp_now();
    int st = ff_proxal_trace_init(&t, &f->P, &prm);
    if (st == FR_OK) st = alg1 ? ff_proxal_alg1(&t, &f->P, &prm) : ff_proxal_alg3(&t, &f->P, &prm);
    o->secs = exp_now() - t0;
    o->st = st;
    if (st == FR_OK && t.iters > 0) {
        size_t K = t.iters - 1;
        o->obj = t.obj[K], o->kkt1 = t.kkt1[K], o->kkt2 = t.kkt2[K];
        o->ok = t.terminated && t.thm31_ok;
        o->outer = t.iters, o->inner0 = t.inner[0], o->sub0 = t.sub[0];
        for (size_t k = 0; k < t.iters; k++) o->inner += t.inner[k];
        double sm = 0, mx = 0;
        const double *w = fig2 ? t.w + t.iters * f->P.d : t.w;   /* the output */
        for (size_t i = 0; i <= n; i++) {
            double D = disparity(f, i, w);
            sm += D, mx = fmax(mx, D);
        }
        o->dmean = sm / (double)(n + 1), o->dmax = mx;
        if (fig2) rc = fig2_csv(ctx, fig2, f, &t);
    }
    ff_proxal_trace_clear(&t);
    free(rho);
    return rc;
}

/* Fig. 2: the run it shows (n = FIG2_N, trial 0, Algorithm 1); its plot */
#define FIG2_N 5
#define FIG2_CSV "proxal_fair_n5_t0_alg1.csv"
static int fig2_plot(exp_ctx *ctx, const char *rows)
{
    char s[2048];
    snprintf(s, sizeof s,
             "set datafile separator ','\n"
             "set title '004 Fig. 2: (28) on adult-b, n = %d (%s), trial 0, Algorithm 1, rho_i = %g'\n"
             "set xlabel 'outer iteration k of Algorithm 1 (0: w0)'\nset ylabel 'per client'\n"
             "set key top right\nset grid\nset yrange [0:*]\n"
             "f = '" FIG2_CSV "'\n"
             "plot f using 1:9:10 with filledcurves lc rgb '#c8d8f0' title 'loss disparity |D_i|: min..max over clients', \\\n"
             "     f using 1:8 with lines lw 2 lc rgb '#1f4e9c' title 'loss disparity: mean', \\\n"
             "     f using 1:11 with lines lw 2 dt 4 lc rgb '#1f4e9c' title 'global disparity (server)', \\\n"
             "     f using 1:6:7 with filledcurves lc rgb '#f0d8c0' fs transparent solid 0.6 title 'classification loss: min..max', \\\n"
             "     f using 1:5 with lines lw 2 lc rgb '#9c4e1f' title 'classification loss: mean', \\\n"
             "     0.1 with lines dt 2 lc rgb 'black' title 'r = 0.1'\n",
             FIG2_N, rows, A1_RHO);
    return exp_plot(ctx, "proxal_fair_fig2.png", "004 Fig. 2: loss disparity and classification loss over the outer "
                    "iterations of Algorithm 1", s);
}

/* |obj1 - obj3| / |obj3|: Table 3's relative difference of one trial */
static double rel_diff(const fair_out *a1, const fair_out *a3) { return fabs(a1->obj - a3->obj) / fabs(a3->obj); }

int px_part_fair(exp_ctx *ctx)
{
    fdata_adult_b b;
    int rc = load(ctx, &b);
    if (rc) return rc;
    size_t ns = n_settings(ctx), d = b.train.d;
    const size_t *N = ctx->quick ? NS_QUICK : NS_FULL;
    unsigned long trials = n_trials(ctx), t1 = a1_trials(ctx), tmax8 = ctx->quick ? A1E8_TMAX_QUICK : A1E8_TMAX_FULL;
    const char *rows1 = ctx->quick ? "100 rows per owner" : "all rows";
    exp_md(ctx, "### (c) Table 3: classification with fairness constraints (28) on adult-b\n\n"
                "**Data.** 004's 'adult-b' (docs/DATA.md 4b): %zu training rows at the clients, %zu test rows at "
                "the server, d = %zu, sensitive attribute sex; each part split into n equal contiguous folds "
                "(Sec. 5.3). r_i = 0.1, mu0 = 0, sbar = 0.001, beta = 10, eps1 = eps2 = 1e-3, kmax = 2000; "
                "cProx-AL's subproblems by fedref's certified damped Newton (shifted when l_k's Hessian is "
                "indefinite: (28) is not convex), not scipy's L-BFGS; w0 on the unit sphere per trial; n in {%s}, "
                "%lu trials of cProx-AL on all rows. Algorithm 1 runs to (8) from the same w0 in the first %lu "
                "trial(s) (%s%s), with **rho_i = %g, not Sec. 5.3's 1e8** (below), tmax = %lu.\n\n",
           b.train.n, b.test.n, d, ctx->quick ? "1, 5" : "1, 5, 10, 20", trials, t1, rows1,
           ctx->quick ? ", against a cProx-AL run on the same rows" : "", A1_RHO, A1_TMAX);
    double *w0 = malloc(d * sizeof *w0);
    fair_out *o3 = malloc(trials * sizeof *o3), *o1 = malloc(t1 * sizeof *o1), *c1 = malloc(t1 * sizeof *c1);
    double *obj = malloc(trials * sizeof *obj), *dm = malloc(trials * sizeof *dm), *dx = malloc(trials * sizeof *dx),
           *rd = malloc(t1 * sizeof *rd);
    if (!w0 || !o3 || !o1 || !c1 || !obj || !dm || !dx || !rd) {
        free(w0); free(o3); free(o1); free(c1); free(obj); free(dm); free(dx); free(rd); fdata_adult_b_free(&b);
        cli_error("out of memory", "experiment proxal"); return 2; }
    exp_md(ctx, "| | n | objective Alg. 1 | objective cProx-AL | relative difference | disparity Alg. 1 mean | max | "
                "disparity cProx-AL mean | max | kkt1 cP (max) | kkt2 cP (max) | Thm 3.1 cP | outer cP | s/run cP |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    /* per setting: Algorithm 1's table, written after the main one */
    fair_out a1sum[4], e8[4];
    double a1rd[4] = {0}, a1rds[4] = {0}, a1obj[4] = {0}, a3obj[4] = {0};
    unsigned long okall = 0, runs = 0, ok1all = 0, runs1 = 0;
    double objn1 = NAN, dmaxall = 0, rdmax = 0, dmax1 = 0;
    memset(a1sum, 0, sizeof a1sum);
    memset(e8, 0, sizeof e8);
    for (size_t s = 0; s < ns && rc == 0; s++) {
        size_t n = N[s];
        fair_pb f, fs;
        if ((rc = fair_make(&b, n, 0, &f))) break;
        double k1 = 0, k2 = 0, tsum = 0, out = 0;
        unsigned long ok = 0;
        for (unsigned long tr = 0; tr < trials; tr++) {
            int st = cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_FAIR_W0 + 1000 * n + tr);
            if (st == FR_OK) (void)fair_run(ctx, &f, 0, w0, 1, 1, 2000, NULL, &o3[tr]);
            else memset(&o3[tr], 0, sizeof o3[tr]), o3[tr].st = st, o3[tr].obj = NAN;
            const fair_out *o = &o3[tr];
            obj[tr] = o->obj, dm[tr] = o->dmean, dx[tr] = o->dmax;
            runs++;
            if (o->st == FR_OK && o->outer > 0) {
                k1 = fmax(k1, o->kkt1), k2 = fmax(k2, o->kkt2);
                ok += (unsigned long)o->ok;
                out += (double)o->outer;
                dmaxall = fmax(dmaxall, o->dmax);
            } else
                exp_md(ctx, "- cProx-AL n = %zu, trial %lu: status %s\n", n, tr, fr_strerror(o->st));
            tsum += o->secs;
            exp_run_done(ctx, o->secs, "FAIR n = %zu, trial %lu, cProx-AL", n, tr);
        }
        okall += ok;
        /* Algorithm 1 from the first t1 trials' w0: on f (full) or a slice with its own cProx-AL run (quick) */
        const fair_pb *f1 = &f;
        if (ctx->quick) {
            if ((rc = fair_make(&b, n, SLICE, &fs))) { fair_free(&f); break; }
            f1 = &fs;
        }
        double o1v[4];
        for (unsigned long tr = 0; tr < t1; tr++) {
            (void)cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_FAIR_W0 + 1000 * n + tr);   /* drawn above: FR_OK */
            if (ctx->quick) (void)fair_run(ctx, f1, 0, w0, 1, 1, 2000, NULL, &c1[tr]);
            else c1[tr] = o3[tr];
            if ((rc = fair_run(ctx, f1, 1, w0, A1_RHO, A1_TMAX, 2000, n == FIG2_N && tr == 0 ? FIG2_CSV : NULL,
                               &o1[tr])))
                break;
            const fair_out *o = &o1[tr];
            runs1++;
            ok1all += (unsigned long)(o->ok && c1[tr].ok);
            rd[tr] = rel_diff(o, &c1[tr]);
            o1v[tr < 4 ? tr : 3] = o->obj;
            if (o->st != FR_OK) exp_md(ctx, "- Algorithm 1 n = %zu, trial %lu: status %s\n", n, tr, fr_strerror(o->st));
            rdmax = fmax(rdmax, isfinite(rd[tr]) ? rd[tr] : INFINITY);
            dmax1 = fmax(dmax1, isfinite(o->dmax) ? o->dmax : INFINITY);
            fair_out *A = &a1sum[s];
            A->ok += o->ok, A->outer += o->outer, A->inner += o->inner, A->secs += o->secs;
            A->kkt1 = fmax(A->kkt1, o->kkt1), A->kkt2 = fmax(A->kkt2, o->kkt2);
            a1obj[s] += o->obj / (double)t1, a3obj[s] += c1[tr].obj / (double)t1;
            exp_run_done_kind(ctx, KIND_A1, o->secs, "FAIR n = %zu, trial %lu, Algorithm 1 (%lu ADMM iterations)", n,
                              tr, o->inner);
        }
        mean_std(rd, t1, &a1rd[s], &a1rds[s]);
        double mo, so, mdm, sdm, mdx, sdx, mo1, so1, m1dm, s1dm, m1dx, s1dx;
        mean_std(obj, trials, &mo, &so);
        mean_std(dm, trials, &mdm, &sdm);
        mean_std(dx, trials, &mdx, &sdx);
        for (unsigned long tr = 0; tr < t1; tr++) dm[tr] = o1[tr].dmean, dx[tr] = o1[tr].dmax;
        mean_std(o1v, t1 < 4 ? t1 : 4, &mo1, &so1);
        mean_std(dm, t1, &m1dm, &s1dm);
        mean_std(dx, t1, &m1dx, &s1dx);
        if (n == 1) objn1 = mo;
        if (ctx->quick)
            exp_md(ctx, "| fedref | %zu | on a slice (below) | %.4f (%.2e) | on a slice (below) | %.4f | %.4f | %.4f | "
                        "%.4f | %.2e | %.2e | %lu/%lu | %.1f | %.2f |\n", n, mo, so, m1dm, m1dx, mdm, mdx, k1, k2,
                   ok, trials, out / (double)trials, tsum / (double)trials);
        else
            exp_md(ctx, "| fedref | %zu | %.4f (%.2e) | %.4f (%.2e) | %.2e (%.2e) | %.4f | %.4f | %.4f | %.4f | %.2e | "
                        "%.2e | %lu/%lu | %.1f | %.2f |\n", n, mo1, so1, mo, so, a1rd[s], a1rds[s], m1dm, m1dx, mdm,
                   mdx, k1, k2, ok, trials, out / (double)trials, tsum / (double)trials);
        const fair_paper *p = &PAPER3[0];
        for (int k = 0; k < 4; k++) if (PAPER3[k].n == n) p = &PAPER3[k];
        exp_md(ctx, "| paper | %u | %.2f (%.2e) | %.2f (%.2e) | %.2e (%.2e) | %.2f | %.2f | %.2f | %.2f | | | | | |\n",
               p->n, p->o1, p->o1s, p->o3, p->o3s, p->rd, p->rds, p->m1, p->x1, p->m3, p->x3);
        /* Sec. 5.3's rho_i = 1e8: Algorithm 1's first outer iteration, timed */
        (void)cli_t1_sphere_w0(w0, d, ctx->seed, PX_STREAM_FAIR_W0 + 1000 * n);
        if (rc) { if (ctx->quick) fair_free(&fs); fair_free(&f); break; }
        (void)fair_run(ctx, f1, 1, w0, 1e8, tmax8, 1, NULL, &e8[s]);
        exp_run_done_kind(ctx, KIND_E8, e8[s].secs, "FAIR n = %zu, Algorithm 1 with rho_i = 1e8, first outer iteration",
                          n);
        if (ctx->quick) fair_free(&fs);
        fair_free(&f);
    }
    if (rc == 0) {
        exp_md(ctx, "\nDisparity = |D_i(w)| = |mean loss(group 0) - mean loss(group 1)| over owner i's rows, mean "
                    "and max over the n clients and the server (the constraint: <= r = 0.1); kkt1, kkt2: the true "
                    "KKT residuals of Definition 1 (ff_proxal_kkt's certified upper bounds) of each output, max "
                    "over the trials. Relative difference: |obj Alg. 1 - obj cProx-AL| / obj cProx-AL from the "
                    "same w0, mean (std) over the Algorithm-1 trials.\n\n"
                    "**Algorithm 1** (rho_i = %g, %s, %lu trial(s) per n; cP = the cProx-AL run from the same w0 "
                    "on the same rows):\n\n"
                    "| n | Thm 3.1 | outer | ADMM iterations | kkt1 (max) | kkt2 (max) | objective | objective cP | "
                    "relative difference | s/run |\n|---|---|---|---|---|---|---|---|---|---|\n", A1_RHO, rows1, t1);
        for (size_t s = 0; s < ns; s++)
            exp_md(ctx, "| %zu | %d/%lu | %.1f | %.0f | %.2e | %.2e | %.6f | %.6f | %.2e | %.1f |\n", N[s], a1sum[s].ok,
                   t1, (double)a1sum[s].outer / (double)t1, (double)a1sum[s].inner / (double)t1, a1sum[s].kkt1,
                   a1sum[s].kkt2, a1obj[s], a3obj[s], a1rd[s], a1sum[s].secs / (double)t1);
        exp_md(ctx, "\n**Why not rho_i = 1e8.** With Sec. 5.3's rho_i = 1e8, Algorithm 2 moves w by about "
                    "grad / rho_i per iteration; its first outer iteration, run with tmax = %lu (%s):\n\n"
                    "| n | status | ADMM iterations | (19) residual at the end (tau_0 = 1e-3) | s per ADMM iteration |\n"
                    "|---|---|---|---|---|\n", tmax8, rows1);
        for (size_t s = 0; s < ns; s++)
            exp_md(ctx, "| %zu | %s | %lu | %.3e | %.2e |\n", N[s], fr_strerror(e8[s].st), e8[s].inner0, e8[s].sub0,
                   e8[s].inner0 ? e8[s].secs / (double)e8[s].inner0 : NAN);
        exp_md(ctx, "\nCSV: `" FIG2_CSV "` (Algorithm 1, n = %d, trial 0: per outer iteration the objective, "
                    "the KKT residuals, the clients' classification loss and loss disparity mean/min/max and the "
                    "server's disparity).\n\n", FIG2_N);
        rc = fig2_plot(ctx, rows1);
    }
    if (rc == 0) {
        exp_verdict(ctx, "cProx-AL reaches a (1e-3, 1e-3)-KKT point of (28) with objective 0.37",
                    "004 Sec. 5.3, Table 3 (cProx-AL 0.37 at every n)",
                    okall == runs && fabs(objn1 - 0.37) <= 0.01 ? EXP_HOLDS : EXP_FAILS,
                    "%lu of %lu cProx-AL runs stopped by (8) with kkt1, kkt2 <= 1e-3 certified; mean objective at "
                    "n = 1: %.4f (paper 0.37)", okall, runs, objn1);
        exp_verdict(ctx, "the loss disparity of every client and the server is kept below 0.1",
                    "004 Table 3 (max columns 0.10), Fig. 2",
                    fmax(dmaxall, dmax1) <= FAIR_R + 1e-3 ? EXP_HOLDS : EXP_FAILS,
                    "largest |D_i| of any owner at any output: %.5f cProx-AL, %.5f Algorithm 1 (r = 0.1)", dmaxall,
                    dmax1);
        /* holds: every run certified and within the paper's largest mean relative difference */
        int v = ok1all < runs1 ? EXP_FAILS : rdmax <= 4.61e-3 ? EXP_HOLDS : EXP_PARTLY;
        exp_verdict(ctx, "Algorithm 1 and cProx-AL yield solutions of similar quality on (28)",
                    "004 Sec. 5.3, Table 3 (relative difference 1.9e-3 to 4.6e-3)", v,
                    "%lu of %lu Algorithm-1 runs (rho_i = %g, not the paper's 1e8; %s) and their cProx-AL runs "
                    "stopped by (8) with Theorem 3.1 certified; largest relative difference of the objectives %.2e",
                    ok1all, runs1, A1_RHO, rows1, rdmax);
    }
    free(w0); free(o3); free(o1); free(c1); free(obj); free(dm); free(dx); free(rd);
    fdata_adult_b_free(&b);
    return rc;
}
