/* SPDX-License-Identifier: Apache-2.0 */
/* table1_run.c -- the per-setting runner of 004's Table 1 (table1.h),
 * shared by `fedref table1` and the experiment proxal: one QP instance
 * (25) from fr_proxal_gen_qp(seed), then `trials` runs of Algorithm 1 and
 * of cProx-AL (Algorithm 3) from the same w0 on the unit sphere (the
 * Gaussian tape of Philox stream (seed, TABLE1_STREAM_W0 + 1000 n + 10 (row
 * mod 3) + trial), fr_rng_gaussian2 pairs at 53 bits, z0 then z1, w0 = z /
 * ||z||_2: sum of squares left to right, one sqrt, d divisions, as
 * fr_proxal_gen_qp's unit vectors), with Sec. 5.1's parameters (table1.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "table1.h"

/* Philox streams of w0 (fedspec/proxal.h's generator streams are 1..5 << 32). */
#define TABLE1_STREAM_W0 ((uint64_t)6 << 32)

/* 004 Sec. 5.1, "Table 1: Numerical results for problem (25)"
 * (004 in docs/PAPERS.md), as printed. */
const cli_t1_paper cli_t1_rows[9] = {
    {1, 100, 1, -0.23, 4.65e-6, -0.23, 2.38e-5, 1.63e-3, 1.01e-4, 3.33e-4, 1.14e-5, 5.68e-4, 2.82e-5},
    {1, 300, 3, -0.37, 2.74e-6, -0.37, 1.32e-6, 1.01e-3, 3.51e-5, 3.52e-4, 1.44e-5, 4.45e-4, 1.70e-5},
    {1, 500, 5, -0.30, 1.36e-5, -0.30, 7.54e-6, 1.34e-3, 4.62e-5, 4.38e-4, 5.36e-5, 3.85e-4, 1.05e-5},
    {5, 100, 1, 9.81, 7.18e-5, 9.80, 1.46e-5, 1.09e-3, 7.96e-6, 1.34e-4, 9.02e-6, 8.03e-4, 1.57e-6},
    {5, 300, 3, 8.47, 8.12e-5, 8.45, 1.30e-5, 1.36e-3, 9.62e-6, 1.09e-4, 1.31e-5, 8.28e-4, 1.98e-6},
    {5, 500, 5, 9.92, 4.43e-5, 9.91, 4.87e-6, 8.26e-4, 4.27e-6, 1.33e-4, 9.68e-6, 3.73e-4, 2.43e-7},
    {10, 100, 1, 49.40, 9.02e-5, 49.37, 5.82e-6, 5.59e-4, 1.67e-5, 7.31e-5, 7.54e-6, 5.88e-4, 1.34e-7},
    {10, 300, 3, 41.49, 7.04e-5, 41.44, 5.48e-6, 1.14e-3, 1.77e-6, 8.56e-5, 2.27e-7, 8.73e-4, 7.26e-6},
    {10, 500, 5, 41.45, 2.25e-5, 41.41, 5.30e-6, 9.39e-4, 4.94e-7, 9.29e-4, 2.55e-6, 7.66e-4, 1.37e-7},
};

int cli_t1_sphere_w0(double *w, size_t d, uint64_t seed, uint64_t stream)
{
    frng_t g;
    mpfr_t z0, z1;
    int st = FR_OK;
    double s = 0;
    frng_init(&g, seed, stream);
    mpfr_init2(z0, 53);
    mpfr_init2(z1, 53);
    for (size_t k = 0; k < d && st == FR_OK; k += 2) {
        st = fr_rng_gaussian2(z0, z1, &g);
        if (st != FR_OK) break;
        w[k] = mpfr_get_d(z0, MPFR_RNDN);
        if (k + 1 < d) w[k + 1] = mpfr_get_d(z1, MPFR_RNDN);
    }
    mpfr_clear(z0);
    mpfr_clear(z1);
    if (st != FR_OK) return st;
    for (size_t k = 0; k < d; k++) s = s + w[k] * w[k];
    s = sqrt(s);
    if (!(s > 0)) return FR_EINTERNAL;
    for (size_t k = 0; k < d; k++) w[k] = w[k] / s;
    return FR_OK;
}

static void mean_std(const double *x, size_t k, double *m, double *s)
{
    double a = 0, v = 0;
    for (size_t i = 0; i < k; i++) a += x[i];
    a /= (double)k;
    for (size_t i = 0; i < k; i++) v += (x[i] - a) * (x[i] - a);
    *m = a;
    *s = sqrt(v / (double)k);                   /* population std (np.std) */
}

static void summarise(cli_t1_run *r, const ff_proxal_trace *t, int st, double time)
{
    memset(r, 0, sizeof *r);
    r->st = st;
    r->time = time;
    r->obj = r->feas = r->kkt1 = r->kkt2 = NAN;
    if (st != FR_OK) return;
    size_t K = t->iters;
    r->outer = K;
    r->terminated = t->terminated;
    r->thm31 = t->thm31_ok;
    r->fact = t->factorisations;
    for (size_t k = 0; k < K; k++) {
        r->inner += t->inner[k];
        if (!t->inner_ok[k]) r->inner_bad++;
    }
    if (K > 0) {
        r->obj = t->obj[K - 1];
        r->feas = t->feas[K - 1];
        r->kkt1 = t->kkt1[K - 1];
        r->kkt2 = t->kkt2[K - 1];
    }
}

int cli_t1_run_failed(const cli_t1_run *r)
{
    return r->st != FR_OK || !r->terminated || !r->thm31 || r->inner_bad > 0;
}

int cli_t1_setting_run(size_t row, const cli_t1_opts *o, cli_t1_setting *res)
{
    const cli_t1_paper *S = &cli_t1_rows[row];
    size_t n = S->n, d = S->d, mt = S->mt;
    unsigned long trials = o->trials;
    uint64_t seed = o->seed;
    double ts = cli_now();
    memset(res, 0, sizeof *res);
    double *A = malloc(n * d * d * sizeof *A), *b = malloc(n * d * sizeof *b);
    double *C = malloc((n + 1) * mt * d * sizeof *C), *e = malloc((n + 1) * mt * sizeof *e);
    double *w0 = calloc(d, sizeof *w0), *mu0 = calloc((n + 1) * mt, sizeof *mu0);
    double *rho = malloc(n * sizeof *rho);
    double *o1 = malloc(trials * sizeof(double)), *o3 = malloc(trials * sizeof(double));
    double *f1 = malloc(trials * sizeof(double)), *f3 = malloc(trials * sizeof(double));
    double *rd = malloc(trials * sizeof(double));
    ff_proxal_trace t1, t3;
    memset(&t1, 0, sizeof t1);
    memset(&t3, 0, sizeof t3);
    int st = FR_OK, hard = 0;
    if (!A || !b || !C || !e || !w0 || !mu0 || !rho || !o1 || !o3 || !f1 || !f3 || !rd) st = FR_ENOMEM;
    if (st == FR_OK) st = fr_proxal_gen_qp(A, b, C, e, n, d, mt, seed);
    for (size_t i = 0; i < n && st == FR_OK; i++) rho[i] = 1;
    fr_proxal_problem P = {.kind = FR_PROXAL_QP, .n = n, .d = d, .mt = mt, .A = A, .b = b, .C = C, .e = e,
                           .h = FR_PROXAL_H_ZERO};
    fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 0.1, .beta = 10, .kmax = 10000,
                                .admm = {.tau = 1, .q = o->q, .rho = rho, .tmax = 10000, .newton_max = 50,
                                         .eps18 = FR_PROXAL_EPS18_PRINTED},
                                .w0 = w0, .mu0 = mu0, .keep = 0};
    res->tgen = cli_now() - ts;
    if (st == FR_OK) st = ff_proxal_trace_init(&t1, &P, &prm);
    if (st == FR_OK) st = ff_proxal_trace_init(&t3, &P, &prm);
    if (st != FR_OK) {
        cli_error("cannot set up the setting (generator or trace)", fr_strerror(st));
        hard = 1;
    }
    for (unsigned long tr = 0; tr < trials && !hard; tr++) {
        st = cli_t1_sphere_w0(w0, d, seed, TABLE1_STREAM_W0 + 1000 * n + 10 * (row % 3) + tr);
        if (st != FR_OK) { cli_error("cannot draw w0", fr_strerror(st)); hard = 1; break; }
        cli_t1_run r1, r3;
        double t0 = cli_now();
        st = ff_proxal_alg1(&t1, &P, &prm);
        summarise(&r1, &t1, st, cli_now() - t0);
        t0 = cli_now();
        st = ff_proxal_alg3(&t3, &P, &prm);
        summarise(&r3, &t3, st, cli_now() - t0);
        res->runs += 2;
        res->fails += (unsigned long)cli_t1_run_failed(&r1) + (unsigned long)cli_t1_run_failed(&r3);
        if (o->on_trial) o->on_trial(o->arg, S, tr, &r1, &t1, &r3, &t3, &prm);
        res->ok1 += r1.thm31 != 0;
        res->ok3 += r3.thm31 != 0;
        o1[tr] = r1.obj;
        o3[tr] = r3.obj;
        f1[tr] = r1.feas;
        f3[tr] = r3.feas;
        rd[tr] = fabs(r1.obj - r3.obj) / fabs(r3.obj);
        res->k1max = fmax(res->k1max, r1.kkt1);
        res->k2max = fmax(res->k2max, r1.kkt2);
        res->k1max3 = fmax(res->k1max3, r3.kkt1);
        res->k2max3 = fmax(res->k2max3, r3.kkt2);
        res->out1 += (double)r1.outer;
        res->out3 += (double)r3.outer;
        res->in1 += (double)r1.inner;
        res->in3 += (double)r3.inner;
        res->fact1 += (double)r1.fact;
        res->fact3 += (double)r3.fact;
        res->time1 += r1.time;
        res->time3 += r3.time;
    }
    if (!hard) {
        mean_std(o1, trials, &res->m[0], &res->sd[0]);
        mean_std(o3, trials, &res->m[1], &res->sd[1]);
        mean_std(rd, trials, &res->m[2], &res->sd[2]);
        mean_std(f1, trials, &res->m[3], &res->sd[3]);
        mean_std(f3, trials, &res->m[4], &res->sd[4]);
        double T = (double)trials;
        res->out1 /= T;
        res->out3 /= T;
        res->in1 /= T;
        res->in3 /= T;
        res->fact1 /= T;
        res->fact3 /= T;
    }
    ff_proxal_trace_clear(&t1);
    ff_proxal_trace_clear(&t3);
    free(A); free(b); free(C); free(e); free(w0); free(mu0); free(rho);
    free(o1); free(o3); free(f1); free(f3); free(rd);
    res->total = cli_now() - ts;
    return hard ? 2 : 0;
}
