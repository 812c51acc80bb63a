/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedpdm_data.c -- experiment `fedpdm`: Fashion-MNIST (make data) as
 * the problem of 003 Sec. V-A (fr_pdm_problem): pixels / 255 and a bias
 * feature 1 (n = 785, the paper's (m, n) = (10, 785)), the training set
 * shuffled and dealt to N clients of equal size, and a test slice. */
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_fedpdm.h"

#define NPIX 784
#define NF (NPIX + 1)

static void row(double *a, const unsigned char *px)
{
    for (size_t l = 0; l < NPIX; l++) a[l] = (double)px[l] / 255.0;
    a[NPIX] = 1.0;
}

void xpdm_free(xpdm_data *D)
{
    free(D->d);
    free(D->A);
    free(D->At);
    free(D->y);
    free(D->yt);
    memset(D, 0, sizeof *D);
}

int xpdm_load(exp_ctx *ctx, xpdm_data *D, size_t N, size_t dper, size_t ntest, double beta, double gamma)
{
    memset(D, 0, sizeof *D);
    fdata_idx im, lb, tim, tlb;
    if (exp_load_fashion(ctx, 0, &im, &lb) != 0) return 2;
    if (exp_load_fashion(ctx, 1, &tim, &tlb) != 0) {
        fdata_idx_free(&im);
        fdata_idx_free(&lb);
        return 2;
    }
    int rc = 0;
    size_t ntr = N * dper, *perm = NULL;
    if (im.rows * im.cols != NPIX || tim.rows * tim.cols != NPIX || ntr > im.n || ntest > tim.n) {
        cli_error("Fashion-MNIST: 28 x 28 images and enough samples expected", "experiment fedpdm");
        rc = 2;
        goto out;
    }
    D->d = malloc(N * sizeof *D->d);
    D->A = malloc(ntr * NF * sizeof *D->A);
    D->y = malloc(ntr * sizeof *D->y);
    D->At = malloc(ntest * NF * sizeof *D->At);
    D->yt = malloc(ntest * sizeof *D->yt);
    perm = malloc(im.n * sizeof *perm);
    frng_t g;
    frng_init(&g, ctx->seed, XPDM_STREAM_SPLIT);
    if (!D->d || !D->A || !D->y || !D->At || !D->yt || !perm || frng_sample(&g, im.n, im.n, perm) != FR_OK) {
        cli_error("out of memory", "experiment fedpdm");
        rc = 2;
        goto out;
    }
    /* client i holds the shuffled samples perm[i dper .. (i + 1) dper - 1] */
    for (size_t t = 0; t < ntr; t++) {
        row(&D->A[t * NF], &im.v[perm[t] * NPIX]);
        D->y[t] = lb.v[perm[t]];
    }
    for (size_t i = 0; i < N; i++) D->d[i] = dper;
    for (size_t t = 0; t < ntest; t++) {
        row(&D->At[t * NF], &tim.v[t * NPIX]);
        D->yt[t] = tlb.v[t];
    }
    D->ntest = ntest;
    D->P = (fr_pdm_problem){.N = N, .m = 10, .n = NF, .d = D->d, .A = D->A, .y = D->y, .beta = beta, .gamma = gamma};
out:
    free(perm);
    fdata_idx_free(&im);
    fdata_idx_free(&lb);
    fdata_idx_free(&tim);
    fdata_idx_free(&tlb);
    if (rc) xpdm_free(D);
    return rc;
}
