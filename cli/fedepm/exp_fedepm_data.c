/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedepm_data.c -- the data of the experiment `fedepm`: UCI Adult as
 * 002 Sec. VII-A prepares it (data/adult.c), or breast cancer standardised
 * and scaled to unit-length columns; and the random division into m
 * clients as the authors' code divides Adult (exp_fedepm.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fedref_common.h"
#include "../cli.h"
#include "exp_fedepm.h"

void efp_set_free(efp_set *s)
{
    free(s->X);
    free(s->b);
    memset(s, 0, sizeof *s);
}

/* X1 = max_t ||x_t||_1, rounded above. */
static void set_x1(efp_set *s)
{
    s->X1 = 0;
    for (size_t r = 0; r < s->D; r++) {
        double a = 0;
        for (size_t j = 0; j < s->n; j++) a += fabs(s->X[r * s->n + j]);
        s->X1 = fmax(s->X1, a * (1 + 1e-12));   /* above the rounding of the sum */
    }
}

int efp_load_adult(exp_ctx *ctx, efp_set *s)
{
    memset(s, 0, sizeof *s);
    char err[PATH_MAX + 512];
    fdata_uci u[2];
    if (exp_adult_load(ctx, u) != 0)
        return 2;
    const fdata_uci *parts[2] = {&u[0], &u[1]};
    fdata_table t;
    int st = fdata_adult_002(&t, parts, 2, err, sizeof err);
    fdata_uci_free(&u[0]);
    fdata_uci_free(&u[1]);
    if (st != FR_OK) { cli_error(err, "adult"); return 2; }
    s->D = t.n;
    s->n = t.d;
    s->X = t.x;          /* handed over */
    t.x = NULL;
    s->b = malloc(t.n * sizeof *s->b);
    if (s->b == NULL) {
        fdata_table_free(&t);
        efp_set_free(s);
        cli_error("out of memory", "adult");
        return 2;
    }
    for (size_t r = 0; r < t.n; r++) s->b[r] = t.y[r] == 1 ? 1.0 : 0.0;
    fdata_table_free(&t);
    s->name = "Adult";
    set_x1(s);
    return 0;
}

int efp_load(exp_ctx *ctx, efp_set *s)
{
    if (ctx->dataset != NULL && strcmp(ctx->dataset, "breast-cancer") == 0) return efp_load_bc(ctx, s);
    return efp_load_adult(ctx, s);
}

int efp_load_bc(exp_ctx *ctx, efp_set *s)
{
    fdata_table t;
    memset(s, 0, sizeof *s);
    if (exp_load_csv(ctx, "breast_cancer.csv", &t) != 0) return 2;
    if (t.nclasses != 2 || t.n < 2) {
        fdata_table_free(&t);
        cli_error("breast_cancer.csv: expected 2 classes", "make data");
        return 2;
    }
    const size_t D = t.n, n = t.d;
    s->X = malloc(D * n * sizeof *s->X);
    s->b = malloc(D * sizeof *s->b);
    if (s->X == NULL || s->b == NULL) {
        fdata_table_free(&t);
        efp_set_free(s);
        cli_error("out of memory", "breast cancer data");
        return 2;
    }
    s->D = D;
    s->n = n;
    for (size_t j = 0; j < n; j++) {
        double mean = 0, var = 0;
        for (size_t r = 0; r < D; r++) mean += t.x[r * n + j];
        mean /= (double)D;
        for (size_t r = 0; r < D; r++) var += (t.x[r * n + j] - mean) * (t.x[r * n + j] - mean);
        /* (x - mean)/std/sqrt(D) = (x - mean)/sqrt(sum (x - mean)^2): unit length */
        double nrm = sqrt(var);
        for (size_t r = 0; r < D; r++)
            s->X[r * n + j] = nrm > 0 ? (t.x[r * n + j] - mean) / nrm : 0.0;
    }
    for (size_t r = 0; r < D; r++) s->b[r] = t.y[r] == 1 ? 1.0 : 0.0;
    fdata_table_free(&t);
    s->name = "breast cancer";
    set_x1(s);
    return 0;
}

void efp_split_free(efp_split_mem *own)
{
    free(own->d);
    free(own->X);
    free(own->b);
    free(own->Delta);
    memset(own, 0, sizeof *own);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

int efp_split(const efp_set *s, size_t m, uint64_t seed, fr_logreg *P, efp_split_mem *own)
{
    const size_t D = s->D, n = s->n;
    memset(own, 0, sizeof *own);
    if (m < 1 || m > D) { cli_error("more clients than samples", "fedepm split"); return 2; }
    size_t *perm = malloc(D * sizeof *perm), *cut = malloc(m * sizeof *cut);
    own->d = malloc(m * sizeof *own->d);
    own->X = malloc(D * n * sizeof *own->X);
    own->b = malloc(D * sizeof *own->b);
    own->Delta = malloc(m * sizeof *own->Delta);
    if (perm == NULL || cut == NULL || own->d == NULL || own->X == NULL || own->b == NULL
        || own->Delta == NULL) {
        free(perm);
        free(cut);
        efp_split_free(own);
        cli_error("out of memory", "fedepm split");
        return 2;
    }
    frng_t g;
    frng_init(&g, seed, 0);
    int st = frng_sample(&g, D, D, perm);
    /* cut points in [1, D-1]; accept when every d_i > 0.01 D / m (i.e. 100 m d_i > D) */
    for (int tries = 0; st == FR_OK; tries++) {
        if (m > 1) st = frng_sample(&g, D - 1, m - 1, cut);
        if (st != FR_OK) break;
        for (size_t i = 0; i + 1 < m; i++) cut[i] += 1;
        cut[m - 1] = D;
        qsort(cut, m, sizeof *cut, cmp_size);
        size_t prev = 0, ok = 1;
        for (size_t i = 0; i < m; i++) {
            own->d[i] = cut[i] - prev;
            prev = cut[i];
            ok &= 100 * m * own->d[i] > D;
        }
        if (ok) break;
        if (tries > 100000) st = FR_EDOM;
    }
    if (st != FR_OK) {
        free(perm);
        free(cut);
        efp_split_free(own);
        cli_error("cannot draw the client sizes", "fedepm split");
        return 2;
    }
    for (size_t t = 0; t < D; t++) {
        memcpy(&own->X[t * n], &s->X[perm[t] * n], n * sizeof *own->X);
        own->b[t] = s->b[perm[t]];
    }
    for (size_t i = 0; i < m; i++) own->Delta[i] = 2.0 * s->X1 / (double)own->d[i];
    /* RN(2 X1 / d_i) may lie below the exact value: one step up */
    for (size_t i = 0; i < m; i++) own->Delta[i] = nextafter(own->Delta[i], INFINITY);
    free(perm);
    free(cut);
    *P = (fr_logreg){.m = m, .n = n, .d = own->d, .X = own->X, .b = own->b, .beta = 1e-3};
    return 0;
}

double efp_accuracy(const double *X, const double *b, size_t D, size_t n, const double *w)
{
    size_t ok = 0;
    for (size_t t = 0; t < D; t++) {
        double u = 0;
        for (size_t j = 0; j < n; j++) u += X[t * n + j] * w[j];
        ok += (u > 0) == (b[t] > 0.5);
    }
    return D ? (double)ok / (double)D : NAN;
}
