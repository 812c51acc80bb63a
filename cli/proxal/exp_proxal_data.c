/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_data.c -- breast_cancer.csv (make data; docs/DATA.md) as the
 * Neyman-Pearson problem (26) of 004 uses it (exp_proxal.h): a stratified
 * train/test split, features standardised by the training split's mean
 * and population std, an intercept column, class 1 = malignant; and the
 * problem for n clients dealt from the training rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_proxal.h"

/* Philox streams of this experiment (fedspec/proxal.h's generator streams
 * are 1..5 << 32, table1's w0 6 << 32). */
#define PX_STREAM_SPLIT (((uint64_t)7 << 32) + 0)

void px_bc_free(px_bc *bc)
{
    free(bc->xtr);
    free(bc->xte);
    free(bc->ytr);
    free(bc->yte);
    memset(bc, 0, sizeof *bc);
}

int px_bc_load(exp_ctx *ctx, double test_frac, px_bc *bc)
{
    fdata_table t;
    memset(bc, 0, sizeof *bc);
    int rc = exp_load_csv(ctx, "breast_cancer.csv", &t);
    if (rc) return rc;
    if (t.d != 30 || t.nclasses != 2 || t.n < 20) {
        fdata_table_free(&t);
        cli_error("breast_cancer.csv: expected 30 features and 2 classes", "make data");
        return 2;
    }
    size_t n = t.n, D = t.d, d = D + 1;
    size_t *idx = malloc(n * sizeof *idx), *perm = malloc(n * sizeof *perm);
    unsigned char *test = calloc(n, 1);
    double *mean = calloc(D, sizeof *mean), *sd = calloc(D, sizeof *sd);
    int st = idx && perm && test && mean && sd ? FR_OK : FR_ENOMEM;
    /* per class: a seeded permutation of its rows; the first round(frac
     * count) of them are the test rows */
    for (unsigned cls = 0; cls < 2 && st == FR_OK; cls++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (t.y[j] == cls) idx[k++] = j;
        frng_t g;
        frng_init(&g, ctx->seed, PX_STREAM_SPLIT + cls);
        st = frng_sample(&g, k, k, perm);
        size_t nt = (size_t)floor(test_frac * (double)k + 0.5);
        for (size_t j = 0; j < nt && st == FR_OK; j++) test[idx[perm[j]]] = 1;
    }
    size_t nte = 0;
    for (size_t j = 0; j < n; j++) nte += test[j];
    bc->d = d;
    bc->ntr = n - nte;
    bc->nte = nte;
    if (st == FR_OK) {
        bc->xtr = malloc(bc->ntr * d * sizeof(double));
        bc->xte = malloc((nte ? nte : 1) * d * sizeof(double));
        bc->ytr = malloc(bc->ntr);
        bc->yte = malloc(nte ? nte : 1);
        if (!bc->xtr || !bc->xte || !bc->ytr || !bc->yte) st = FR_ENOMEM;
    }
    if (st == FR_OK) {
        /* the training split's mean and population std per feature */
        for (size_t j = 0; j < n; j++)
            if (!test[j])
                for (size_t k = 0; k < D; k++) mean[k] += t.x[j * D + k];
        for (size_t k = 0; k < D; k++) mean[k] /= (double)bc->ntr;
        for (size_t j = 0; j < n; j++)
            if (!test[j])
                for (size_t k = 0; k < D; k++) {
                    double c = t.x[j * D + k] - mean[k];
                    sd[k] += c * c;
                }
        for (size_t k = 0; k < D; k++) {
            sd[k] = sqrt(sd[k] / (double)bc->ntr);
            if (!(sd[k] > 0)) sd[k] = 1;
        }
        size_t a = 0, b = 0;
        for (size_t j = 0; j < n; j++) {
            double *row = test[j] ? bc->xte + b * d : bc->xtr + a * d;
            unsigned char yy = t.y[j] == 0;   /* malignant (label 0) is class 1 of (26) */
            row[0] = 1;
            for (size_t k = 0; k < D; k++) row[k + 1] = (t.x[j * D + k] - mean[k]) / sd[k];
            if (test[j]) bc->yte[b++] = yy, bc->nte1 += yy;
            else bc->ytr[a++] = yy, bc->ntr1 += yy;
        }
    }
    free(idx);
    free(perm);
    free(test);
    free(mean);
    free(sd);
    fdata_table_free(&t);
    if (st != FR_OK) {
        px_bc_free(bc);
        cli_error("cannot prepare breast_cancer.csv", fr_strerror(st));
        return 2;
    }
    return 0;
}

void px_np_free(px_np *np)
{
    free(np->cnt);
    free(np->X);
    free(np->r);
    free(np->y);
    memset(np, 0, sizeof *np);
}

int px_np_make(const px_bc *bc, size_t n, double r, uint64_t seed, uint64_t stream, size_t per_class,
               size_t dkeep, px_np *np)
{
    size_t D = bc->d, d = dkeep && dkeep < D ? dkeep : D, N = bc->ntr;
    memset(np, 0, sizeof *np);
    size_t *idx = malloc(N * sizeof *idx), *perm = malloc(N * sizeof *perm);
    size_t *owner = malloc(N * sizeof *owner), *pos = calloc(n + 1, sizeof *pos);
    unsigned char *keep = calloc(N, 1);
    np->cnt = calloc(n + 1, sizeof *np->cnt);
    np->X = malloc(N * d * sizeof *np->X);
    np->y = malloc(N);
    np->r = malloc(n * sizeof *np->r);
    int st = idx && perm && owner && pos && keep && np->cnt && np->X && np->y && np->r ? FR_OK : FR_ENOMEM;
    for (unsigned cls = 0; cls < 2 && st == FR_OK; cls++) {
        size_t k = 0;
        for (size_t j = 0; j < N; j++)
            if (bc->ytr[j] == cls) idx[k++] = j;
        frng_t g;
        frng_init(&g, seed, stream + cls);
        st = frng_sample(&g, k, k, perm);
        for (size_t j = 0; j < k && st == FR_OK; j++) {
            size_t row = idx[perm[j]], i = 1 + j % n;
            owner[row] = i;
            keep[row] = per_class == 0 || j / n < per_class;
        }
    }
    if (st == FR_OK) {
        for (size_t j = 0; j < N; j++)
            if (keep[j]) np->cnt[owner[j]]++;
        size_t off = 0;
        for (size_t i = 1; i <= n; i++) pos[i] = off, off += np->cnt[i];
        /* rows of client i in their dealt order */
        for (unsigned cls = 0; cls < 2; cls++) {
            size_t k = 0;
            for (size_t j = 0; j < N; j++)
                if (bc->ytr[j] == cls) idx[k++] = j;
            frng_t g;
            frng_init(&g, seed, stream + cls);
            frng_sample(&g, k, k, perm);
            for (size_t j = 0; j < k; j++) {
                size_t row = idx[perm[j]];
                if (!keep[row]) continue;
                size_t p = pos[owner[row]]++;
                memcpy(np->X + p * d, bc->xtr + row * D, d * sizeof(double));
                np->y[p] = bc->ytr[row];
            }
        }
        for (size_t i = 0; i < n; i++) np->r[i] = r;
        np->P = (fr_proxal_problem){.kind = FR_PROXAL_NP, .n = n, .d = d, .cnt = np->cnt, .X = np->X,
                                    .y = np->y, .r = np->r, .h = FR_PROXAL_H_ZERO};
        st = fr_proxal_problem_check(&np->P);
    }
    free(idx);
    free(perm);
    free(owner);
    free(pos);
    free(keep);
    if (st != FR_OK) {
        px_np_free(np);
        cli_error("cannot make the Neyman-Pearson problem", fr_strerror(st));
        return 2;
    }
    return 0;
}

int px_np_losses(const px_np *np, size_t i, const double *w, double *l0, double *l1)
{
    double f, c;
    int st = ff_proxal_client_eval(&np->P, i, w, &f, NULL, NULL, &c, NULL, NULL, NULL);
    if (st != FR_OK) return st;
    *l0 = f * (double)np->P.n;
    *l1 = c + np->r[i - 1];
    return FR_OK;
}
