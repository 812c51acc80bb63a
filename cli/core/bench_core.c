/* SPDX-License-Identifier: Apache-2.0 */
/* bench_core.c -- module core's section of `fedref bench`: ref (MPFR, 53
 * bits) against fast on the closed forms soft, prox_l1, median and ens,
 * after checking fast against ref with fast's bound functions; and the
 * inputs of ff_ens that bench/fedepm_numpy.py times against numpy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define PREC 53                 /* ref's outputs: the binary64 answers, correctly rounded */

/* len values uniform on [-1/2, 1/2), exact binary64, from stream (seed, s). */
static void uniform(double *x, size_t len, uint64_t seed, uint64_t s)
{
    frng_t g;
    frng_init(&g, seed, s);
    for (size_t i = 0; i < len; i++)
        x[i] = (double)frng_u53(&g) * 0x1p-53 - 0.5;
}


/* One closed form: its ref and fast calls on prepared arguments, and the
 * agreement of fast (out) with ref (rout) under the bound (rel, abs[j]). */
typedef struct {
    const char *name;
    size_t m, n, nout;          /* nout outputs */
    const double *W;            /* m x n (or the vector, m = 1) */
    double a, b;                /* scalar parameters */
    double *out, *abs;          /* fast's outputs, the bound per output */
    double rel;
    mpfr_t *rW, *rout, ra, rb;
} cf_t;

static int run_fast(cf_t *c)
{
    if (!strcmp(c->name, "soft")) return ff_soft(c->out, c->W, c->n, c->a);
    if (!strcmp(c->name, "prox_l1")) return ff_prox_l1(c->out, c->W, c->n, c->a, c->b);
    if (!strcmp(c->name, "median")) return ff_median(c->out, c->W, c->m, c->n);
    return ff_ens(c->out, c->W, c->m, c->n, c->a, c->b);
}

static int run_ref(cf_t *c)
{
    if (!strcmp(c->name, "soft")) return fr_soft(c->rout, c->rW, c->n, c->ra);
    if (!strcmp(c->name, "prox_l1")) return fr_prox_l1(c->rout, c->rW, c->n, c->ra, c->rb);
    if (!strcmp(c->name, "median")) return fr_median(c->rout, c->rW, c->m, c->n);
    return fr_ens(c->rout, c->rW, c->m, c->n, c->ra, c->rb);
}

/* The bound of fast's output j: rel |ref_j| + abs[j]. */
static int run_bound(cf_t *c)
{
    double rel, abs;
    int st;
    if (!strcmp(c->name, "ens")) {
        c->rel = 0;
        return ff_ens_bound(c->abs, c->W, c->m, c->n, c->a, c->b);
    }
    if (!strcmp(c->name, "soft")) st = ff_soft_bound(&rel, &abs, c->W, c->n, c->a);
    else if (!strcmp(c->name, "prox_l1")) st = ff_prox_l1_bound(&rel, &abs, c->W, c->n, c->a, c->b);
    else st = ff_median_bound(&rel, &abs, c->W, c->m, c->n);
    c->rel = rel;
    for (size_t j = 0; j < c->nout; j++)
        c->abs[j] = abs;
    return st;
}

static void fast_once(void *p)
{
    (void)run_fast(p);
}

static void ref_once(void *p)
{
    (void)run_ref(p);
}

static int bench_one(bench_ctx *ctx, cf_t *c)
{
    const size_t len = c->m * c->n;
    c->out = malloc(2 * c->nout * sizeof *c->out);
    c->rW = bench_mp_array(c->W, len);
    c->rout = bench_mp_array(NULL, c->nout);
    if (!c->out || !c->rW || !c->rout) {
        free(c->out);
        bench_mp_free(c->rW, len);
        bench_mp_free(c->rout, c->nout);
        cli_error("out of memory", c->name);
        return 2;
    }
    c->abs = c->out + c->nout;
    mpfr_inits2(PREC, c->ra, c->rb, (mpfr_ptr)0);
    mpfr_set_d(c->ra, c->a, MPFR_RNDN);
    mpfr_set_d(c->rb, c->b, MPFR_RNDN);

    /* agreement first: |fast - ref| <= rel |ref| + abs + ulp(ref)/2 (ref
     * is the correctly rounded binary64 of the exact result) */
    int s1 = run_fast(c), s2 = run_ref(c), s3 = run_bound(c);
    double worst = 0;
    if (s1 != FR_OK || s2 != FR_OK || s3 != FR_OK) {
        printf("  %s: status fast %s, ref %s, bound %s\n", c->name, fr_strerror(s1),
               fr_strerror(s2), fr_strerror(s3));
        worst = INFINITY;
    } else {
        for (size_t j = 0; j < c->nout; j++) {
            double r = mpfr_get_d(c->rout[j], MPFR_RNDN);
            double tol = c->rel * fabs(r) + c->abs[j] + 0x1p-53 * fabs(r) + 0x1p-1074;
            worst = fmax(worst, fabs(c->out[j] - r) / tol);
        }
    }
    double agree = bench_agree(ctx, c->name, worst, 1);

    unsigned long inner = bench_inner(fast_once, c);
    double *t = malloc(3 * ctx->reps * sizeof *t);
    if (!t) {
        cli_error("out of memory", c->name);
        return 2;
    }
    double *tr = t + ctx->reps, *tf = t + 2 * ctx->reps;
    bench_ref_fast(ctx, ref_once, fast_once, c, inner, tr, tf, t);
    char size[64];
    if (c->m > 1)
        snprintf(size, sizeof size, "m = %zu, n = %zu", c->m, c->n);
    else
        snprintf(size, sizeof size, "n = %zu", c->n);
    char name[32];
    snprintf(name, sizeof name, "%s", c->name);
    bench_row(name, size, "%10.3g %10.3g %9.0f %11.3g\n", bench_median(tr, ctx->reps),
              bench_median(tf, ctx->reps), bench_median(t, ctx->reps), agree);
    free(t);
    free(c->out);
    bench_mp_free(c->rW, len);
    bench_mp_free(c->rout, c->nout);
    mpfr_clears(c->ra, c->rb, (mpfr_ptr)0);
    return 0;
}

/* The inputs of ff_ens for the numpy script: W uniform, lambda/eta = 1/2
 * (FedEPM's lambda = eta/2). */
static int ens_inputs(bench_ctx *ctx, const char *name, size_t m, size_t n, uint64_t stream)
{
    if (ctx->inputs == NULL)
        return 0;
    double *W = malloc(m * n * sizeof *W);
    if (!W) {
        cli_error("out of memory", name);
        return 2;
    }
    uniform(W, m * n, ctx->seed, stream);
    int rc = bench_input(ctx, name, W, m * n);
    bench_manifest(ctx, "ens %s %zu %zu %a %a\n", name, m, n, 0.5, 1.0);
    free(W);
    return rc;
}

int bench_core(bench_ctx *ctx)
{
    const int q = ctx->quick;
    const size_t nv = q ? 1000 : 100000, mm = q ? 21 : 21, nm = q ? 100 : 10000;
    double *v = malloc((nv + mm * nm) * sizeof *v);
    if (!v) {
        cli_error("out of memory", "bench core");
        return 2;
    }
    double *W = v + nv;
    uniform(v, nv, ctx->seed, 101);
    uniform(W, mm * nm, ctx->seed, 102);
    printf("\ncore: ref (MPFR, %d bits) against fast; agree: the largest |fast - ref| as a\n"
           "fraction of fast's ff_*_bound + ulp(ref)/2 (<= 1 agrees)\n", PREC);
    printf("  %-22s %-26s%10s %10s %9s %11s\n", "function", "size", "ref (s)", "fast (s)",
           "ref/fast", "agree");
    cf_t rows[] = {
        {.name = "soft", .m = 1, .n = nv, .nout = nv, .W = v, .a = 0.25},
        {.name = "prox_l1", .m = 1, .n = nv, .nout = nv, .W = v, .a = 0.25, .b = 0.75},
        {.name = "median", .m = mm, .n = nm, .nout = nm, .W = W},
        {.name = "ens", .m = mm - 1, .n = nm, .nout = nm, .W = W, .a = 0.5, .b = 1.0},
    };
    int rc = 0;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0] && rc == 0; k++)
        rc = bench_one(ctx, &rows[k]);
    free(v);
    if (rc == 0 && ctx->inputs) {
        cli_progress("bench: writing the inputs of ff_ens to %s", ctx->inputs);
        rc = ens_inputs(ctx, "ens_a", q ? 20 : 100, q ? 500 : 100000, 103);
        if (rc == 0)
            rc = ens_inputs(ctx, "ens_b", q ? 50 : 1000, q ? 200 : 10000, 104);
    }
    return rc;
}
