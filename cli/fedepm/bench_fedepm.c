/* SPDX-License-Identifier: Apache-2.0 */
/* bench_fedepm.c -- module fedepm's section of `fedref bench`: ref (MPFR,
 * 53 bits) against fast on ff_logreg_fi and ff_fedepm_step; a FedEPM round
 * against its BLAS floor; and the inputs of ff_logreg_fi that
 * bench/fedepm_numpy.py times against numpy.
 *
 * The BLAS floor of a round is what its dgemv calls cost alone: for each
 * client whose gradient the round needs (all m for the records f(w^r),
 * grad f(w^r), then the |S| selected ones for (18)), u = X_i w and
 * X_i^T u as one dgemv each over the client's d_i rows.  A round is timed
 * as (time(R = 3) - time(R = 1)) / 2 over whole runs (both have the same
 * set-up), paired per repetition; the run with R = 1 is also compared with
 * its own floor (m pairs for (39)'s initial noise, 2 m for the records of
 * two aggregations, |S| for one block).  The problems are sealed
 * (fr_logreg_seal) once, as a user running many calls on the same data
 * would. */
#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define PREC 53

static void uniform(double *x, size_t len, uint64_t seed, uint64_t s, double scale)
{
    frng_t g;
    frng_init(&g, seed, s);
    for (size_t i = 0; i < len; i++)
        x[i] = ((double)frng_u53(&g) * 0x1p-53 - 0.5) * scale;
}

static void labels(double *b, size_t len, uint64_t seed, uint64_t s)
{
    frng_t g;
    frng_init(&g, seed, s);
    for (size_t i = 0; i < len; i++)
        b[i] = (double)(frng_next64(&g) >> 63);
}


/* ---- ref against fast ------------------------------------------------------ */

typedef struct {
    int which;                  /* 0 logreg_fi, 1 fedepm_step */
    fr_logreg P;
    size_t n;
    const double *wi, *w, *g;   /* logreg: w; step: wi, w, g */
    double lambda, eta, mu;
    double *out;                /* n + 1 */
    mpfr_t *rwi, *rw, *rg, *rout, rl, re, rm;
} cf_t;

static int run_fast(cf_t *c)
{
    if (c->which == 0)
        return ff_logreg_fi(&c->out[c->n], c->out, &c->P, 0, c->w);
    return ff_fedepm_step(c->out, c->wi, c->w, c->g, c->n, c->lambda, c->eta, c->mu);
}

static int run_ref(cf_t *c)
{
    if (c->which == 0)
        return fr_logreg_fi(c->rout[c->n], c->rout, &c->P, 0, c->rw);
    return fr_fedepm_step(c->rout, c->rwi, c->rw, c->rg, c->n, c->rl, c->re, c->rm);
}

static void fast_once(void *p)
{
    (void)run_fast(p);
}

static void ref_once(void *p)
{
    (void)run_ref(p);
}

/* The largest |fast - ref| / (bound + ulp(ref)/2) over the outputs. */
static double agreement(cf_t *c)
{
    const size_t n = c->n;
    double *abs = malloc((n + 1) * sizeof *abs);
    if (!abs)
        return INFINITY;
    int st = c->which == 0
        ? ff_logreg_fi_bound(&abs[n], abs, &c->P, 0, c->w)
        : ff_fedepm_step_bound(abs, c->wi, c->w, c->g, n, c->lambda, c->eta, c->mu);
    double worst = st == FR_OK ? 0 : INFINITY;
    for (size_t j = 0; j < n + (c->which == 0) && st == FR_OK; j++) {
        double r = mpfr_get_d(c->rout[j], MPFR_RNDN);
        worst = fmax(worst, fabs(c->out[j] - r) / (abs[j] + 0x1p-53 * fabs(r) + 0x1p-1074));
    }
    free(abs);
    return worst;
}

static int bench_cf(bench_ctx *ctx, cf_t *c, const char *name, const char *size)
{
    const size_t n = c->n;
    c->out = malloc((n + 1) * sizeof *c->out);
    c->rout = bench_mp_array(NULL, n + 1);
    c->rw = bench_mp_array(c->w, n);
    c->rwi = bench_mp_array(c->wi, c->wi ? n : 0);
    c->rg = bench_mp_array(c->g, c->g ? n : 0);
    double *t = malloc(3 * ctx->reps * sizeof *t);
    int rc = 0;
    if (!c->out || !c->rout || !c->rw || !c->rwi || !c->rg || !t) {
        cli_error("out of memory", name);
        rc = 2;
        goto done;
    }
    mpfr_inits2(PREC, c->rl, c->re, c->rm, (mpfr_ptr)0);
    mpfr_set_d(c->rl, c->lambda, MPFR_RNDN);
    mpfr_set_d(c->re, c->eta, MPFR_RNDN);
    mpfr_set_d(c->rm, c->mu, MPFR_RNDN);
    int s1 = run_fast(c), s2 = run_ref(c);
    double agree = bench_agree(ctx, name, s1 == FR_OK && s2 == FR_OK ? agreement(c) : INFINITY, 1);
    unsigned long inner = bench_inner(fast_once, c);
    double *tr = t + ctx->reps, *tf = t + 2 * ctx->reps;
    bench_ref_fast(ctx, ref_once, fast_once, c, inner, tr, tf, t);
    bench_row(name, size, "%10.3g %10.3g %9.0f %11.3g\n", bench_median(tr, ctx->reps),
              bench_median(tf, ctx->reps), bench_median(t, ctx->reps), agree);
    mpfr_clears(c->rl, c->re, c->rm, (mpfr_ptr)0);
done:
    free(c->out);
    free(t);
    bench_mp_free(c->rout, n + 1);
    bench_mp_free(c->rw, n);
    bench_mp_free(c->rwi, c->wi ? n : 0);
    bench_mp_free(c->rg, c->g ? n : 0);
    return rc;
}

static int closed_forms(bench_ctx *ctx)
{
    const int q = ctx->quick;
    size_t d = q ? 50 : 200, nl = q ? 5 : 20, ns = q ? 1000 : 100000;
    double *X = malloc((d * nl + d + nl + 3 * ns) * sizeof *X);
    if (!X) {
        cli_error("out of memory", "bench fedepm");
        return 2;
    }
    double *b = X + d * nl, *w = b + d, *v = w + nl;
    uniform(X, d * nl, ctx->seed, 201, 1);
    labels(b, d, ctx->seed, 202);
    uniform(w, nl, ctx->seed, 203, 0.5);
    uniform(v, 3 * ns, ctx->seed, 204, 1);
    printf("\nfedepm: ref (MPFR, %d bits) against fast, agree as for core\n", PREC);
    printf("  %-22s %-26s%10s %10s %9s %11s\n", "function", "size", "ref (s)", "fast (s)",
           "ref/fast", "agree");
    char size[64];
    snprintf(size, sizeof size, "d = %zu, n = %zu", d, nl);
    cf_t lr = {.which = 0, .P = {.m = 1, .n = nl, .d = &d, .X = X, .b = b, .beta = 1e-3},
               .n = nl, .w = w};
    int rc = 0;
    if (fr_logreg_seal(&lr.P) != FR_OK) {        /* both wings then skip the scans */
        cli_error("the logistic problem is invalid", "bench fedepm");
        rc = 2;
    }
    if (rc == 0)
        rc = bench_cf(ctx, &lr, "logreg_fi", size);
    snprintf(size, sizeof size, "n = %zu", ns);
    cf_t st = {.which = 1, .n = ns, .wi = v, .w = v + ns, .g = v + 2 * ns,
               .lambda = 0.01, .eta = 0.02, .mu = 0.5};
    if (rc == 0)
        rc = bench_cf(ctx, &st, "fedepm_step", size);
    free(X);
    return rc;
}

/* ---- a FedEPM round against its BLAS floor ---------------------------------- */

/* The dgemv pairs u = X_i w, g = X_i^T u of `count` clients, each over its
 * d_i rows in one call (clients cycle through 0..m-1 from `first`). */
static void floor_pairs(const fr_logreg *P, const size_t *off, size_t first, size_t count,
                        const double *w, double *u, double *g)
{
    const size_t n = P->n;
    for (size_t k = 0; k < count; k++) {
        size_t i = (first + k) % P->m;
        const double *X = P->X + off[i] * n;
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)P->d[i], (int)n, 1.0, X, (int)n, w, 1,
                    0.0, u, 1);
        cblas_dgemv(CblasRowMajor, CblasTrans, (int)P->d[i], (int)n, 1.0, X, (int)n, u, 1,
                    0.0, g, 1);
    }
}

static int round_bench(bench_ctx *ctx)
{
    const int q = ctx->quick;
    const size_t m = q ? 10 : 100, n = q ? 20 : 784, dmin = q ? 20 : 550, dmax = q ? 30 : 650;
    size_t *d = malloc(2 * m * sizeof *d), D = 0, dm = 0, nsel;
    if (!d) {
        cli_error("out of memory", "bench round");
        return 2;
    }
    size_t *off = d + m;
    fr_synth_sizes(ctx->seed, m, dmin, dmax, d);
    for (size_t i = 0; i < m; i++) {
        off[i] = D;
        D += d[i];
        dm = d[i] > dm ? d[i] : dm;
    }
    cli_progress("bench: a synthetic problem of %.0f MB (docs/FEDEPM.md section 6)",
                 (double)(D * n * sizeof(double)) / 1e6);
    double *X = malloc(D * n * sizeof *X), *b = malloc(D * sizeof *b);
    double *ws = malloc((dm + 2 * n) * sizeof *ws), *t = malloc(5 * ctx->reps * sizeof *t);
    ff_fedepm_trace t1 = {0}, t3 = {0};
    int rc = 0;
    if (!X || !b || !ws || !t) {
        cli_error("out of memory", "bench round");
        rc = 2;
        goto done;
    }
    fr_synth_data(ctx->seed, m, n, d, X, b);
    fr_selection_size(0.5, m, &nsel);
    const double rho = 0.5, eta = (0.02 * (double)m + 1) * (rho + 0.1) * 1e-5;
    fr_logreg P = {.m = m, .n = n, .d = d, .X = X, .b = b, .beta = 1e-3};
    if (fr_logreg_seal(&P) != FR_OK) {          /* checked once: the runs skip the scans */
        cli_error("the synthetic problem is invalid", "bench round");
        rc = 2;
        goto done;
    }
    fr_fedepm_params prm = {.k0 = 4, .rounds = 1, .nsel = nsel, .lambda = eta / 2, .eta = eta,
                            .mu0 = 0.05, .c = 1e-8, .alpha = 1.001, .eps = 0.1,
                            .noise = FR_NOISE_EQ39, .stopping = 0, .seed = ctx->seed,
                            .mu_prox = 1e-5, .ell = 3};
    fr_fedepm_params prm3 = prm;
    prm3.rounds = 3;
    if (ff_fedepm_trace_init(&t1, &P, &prm) != FR_OK || ff_fedepm_trace_init(&t3, &P, &prm3) != FR_OK) {
        cli_error("cannot initialise a trace", "bench round");
        rc = 2;
        goto done;
    }
    double *u = ws, *g = ws + dm, *w = g + n;
    for (size_t j = 0; j < n; j++)
        w[j] = 0.01 * (double)(j % 7) - 0.03;

    /* agreement: the run's records f(w^r) against the public ff_logreg_f
     * (the runs use the internal path without the per-call check of P) */
    int s1 = ff_fedepm_run(&t3, &P, &prm3);
    double worst = s1 == FR_OK ? 0 : INFINITY;
    for (size_t r = 0; r < t3.rounds && s1 == FR_OK; r++) {
        double f, fb;
        if (ff_logreg_f(&f, NULL, &P, &t3.w[r * n]) != FR_OK
            || ff_logreg_f_bound(&fb, NULL, &P, &t3.w[r * n]) != FR_OK)
            worst = INFINITY;
        else
            worst = fmax(worst, fabs(f - t3.f[r]) / fb);
    }
    double agree = bench_agree(ctx, "FedEPM records", worst, 1);

    double *tr1 = t, *tr3 = t + ctx->reps, *tfl = t + 2 * ctx->reps, *tfr = t + 3 * ctx->reps,
           *rnd = t + 4 * ctx->reps;
    for (unsigned long r = 0; r < ctx->reps; r++) {
        for (int k = 0; k < 3; k++) {          /* the order rotates per repetition */
            int which = (int)((r + (unsigned long)k) % 3);
            double t0 = bench_now();
            if (which == 0)
                s1 = ff_fedepm_run(&t1, &P, &prm);
            else if (which == 1)
                s1 = ff_fedepm_run(&t3, &P, &prm3);
            else
                floor_pairs(&P, off, 0, m + nsel, w, u, g);
            double dt = bench_now() - t0;
            if (s1 != FR_OK) {
                cli_error(fr_strerror(s1), "bench round: a run failed");
                rc = 2;
                goto done;
            }
            (which == 0 ? tr1 : which == 1 ? tr3 : tfl)[r] = dt;
        }
        double t0 = bench_now();
        floor_pairs(&P, off, 0, m + 2 * m + nsel, w, u, g);   /* the run R = 1 */
        tfr[r] = bench_now() - t0;
        rnd[r] = (tr3[r] - tr1[r]) / 2;
    }
    double round = bench_median(rnd, ctx->reps), fl = bench_median(tfl, ctx->reps);
    double run1 = bench_median(tr1, ctx->reps), flr = bench_median(tfr, ctx->reps);
    printf("\nfedepm: a FedEPM round against its BLAS floor: m = %zu, n = %zu, d_i in [%zu, %zu]\n"
           "(D = %zu, X = %.0f MB), |S| = %zu, k0 = 4, noise (39); floor: client-blocked dgemv\n"
           "pairs u = X_i w, X_i^T u (round: m records + |S| clients; run R = 1: m + 2m + |S|)\n",
           m, n, dmin, dmax, D, (double)(D * n * sizeof(double)) / 1e6, nsel);
    printf("  %-22s %-26s%10s %10s %10s %11s\n", "what", "", "time (s)", "floor (s)", "time/floor",
           "agree");
    bench_row("one round", "(t(R=3) - t(R=1)) / 2", "%10.4g %10.4g %10.3f %11.3g\n", round, fl,
              round / fl, agree);
    bench_row("run, R = 1", "set-up, 2 aggregations", "%10.4g %10.4g %10.3f\n", run1, flr,
              run1 / flr);
    printf("  target: one round <= 1.25 x its floor (time/floor <= 1.25)\n");
done:
    ff_fedepm_trace_clear(&t1);
    ff_fedepm_trace_clear(&t3);
    free(X);
    free(b);
    free(ws);
    free(t);
    free(d);
    return rc;
}

/* ---- the inputs of ff_logreg_fi for the numpy script ------------------------ */

static int logreg_inputs(bench_ctx *ctx, const char *name, size_t d, size_t n, uint64_t stream)
{
    double *X = malloc((d * n + d + n) * sizeof *X);
    if (!X) {
        cli_error("out of memory", name);
        return 2;
    }
    double *b = X + d * n, *w = b + d;
    uniform(X, d * n, ctx->seed, stream, 1);
    labels(b, d, ctx->seed, stream + 1);
    uniform(w, n, ctx->seed, stream + 2, 0.2);
    char file[64];
    int rc = 0;
    snprintf(file, sizeof file, "%s_X", name);
    rc = bench_input(ctx, file, X, d * n);
    snprintf(file, sizeof file, "%s_b", name);
    if (rc == 0)
        rc = bench_input(ctx, file, b, d);
    snprintf(file, sizeof file, "%s_w", name);
    if (rc == 0)
        rc = bench_input(ctx, file, w, n);
    bench_manifest(ctx, "logreg %s %zu %zu %a\n", name, d, n, 1e-3);
    free(X);
    return rc;
}

int bench_fedepm(bench_ctx *ctx)
{
    int rc = closed_forms(ctx);
    if (rc == 0)
        rc = round_bench(ctx);
    if (rc == 0 && ctx->inputs) {
        cli_progress("bench: writing the inputs of ff_logreg_fi to %s", ctx->inputs);
        rc = logreg_inputs(ctx, "logreg_a", ctx->quick ? 1000 : 10000, ctx->quick ? 20 : 100, 210);
        if (rc == 0)
            rc = logreg_inputs(ctx, "logreg_b", ctx->quick ? 2000 : 100000, ctx->quick ? 50 : 784, 220);
    }
    return rc;
}
