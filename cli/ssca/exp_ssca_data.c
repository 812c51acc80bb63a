/* SPDX-License-Identifier: Apache-2.0 */
/* exp_ssca_data.c -- Fashion-MNIST as the data of 000 Sec. V's network
 * (pixels / 255, so every feature is in [0, 1]; labels are class indices),
 * and the evaluation of a point: the mean cross-entropy loss (28) and the
 * accuracy of argmax_l o_l (ties to the smaller l), by a forward pass in
 * blocks of rows with BLAS dgemm (u = Z w1^T, S(u) = u sigma(u),
 * o = S(u) w0^T).  This is the experiment's own measuring instrument, not
 * library numerics; experiment_ssca checks its cost against ff_ssca_net on
 * a slice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "../cli.h"
#include "exp_ssca.h"
#include "fedref_common.h"

int xssca_load(exp_ctx *ctx, int test, size_t nmax, xssca_set *s)
{
    fdata_idx im, lb;
    memset(s, 0, sizeof *s);
    int r = exp_load_fashion(ctx, test, &im, &lb);
    if (r != 0) return r;
    size_t n = im.n, P = im.rows * im.cols;
    if (nmax && nmax < n) n = nmax;
    s->Z = malloc(n * P * sizeof *s->Z);
    s->y = malloc(n * sizeof *s->y);
    if (s->Z == NULL || s->y == NULL) {
        fdata_idx_free(&im);
        fdata_idx_free(&lb);
        xssca_free(s);
        cli_error("out of memory", "experiment ssca");
        return 2;
    }
    for (size_t k = 0; k < n * P; k++) s->Z[k] = (double)im.v[k] / 255.0;
    for (size_t k = 0; k < n; k++) s->y[k] = lb.v[k];
    s->n = n;
    s->P = P;
    fdata_idx_free(&im);
    fdata_idx_free(&lb);
    return 0;
}

void xssca_free(xssca_set *s)
{
    free(s->Z);
    free(s->y);
    memset(s, 0, sizeof *s);
}

#define EVAL_ROWS 1000

int xssca_eval(const double *w, size_t L, size_t J, const xssca_set *s, size_t n,
               double *cost, double *acc)
{
    const size_t P = s->P;
    double *U = malloc(EVAL_ROWS * J * sizeof *U), *O = malloc(EVAL_ROWS * L * sizeof *O);
    if (U == NULL || O == NULL) {
        free(U);
        free(O);
        return FR_ENOMEM;
    }
    const double *w0 = w, *w1 = w + L * J;
    double loss = 0;
    size_t hits = 0;
    for (size_t r0 = 0; r0 < n; r0 += EVAL_ROWS) {
        size_t m = n - r0 < EVAL_ROWS ? n - r0 : EVAL_ROWS;
        /* U (m x J) = Z_rows (m x P) w1^T (P x J) */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)J, (int)P, 1.0,
                    s->Z + r0 * P, (int)P, w1, (int)P, 0.0, U, (int)J);
        for (size_t k = 0; k < m * J; k++) {
            double u = U[k];
            U[k] = u >= 0 ? u / (1 + exp(-u)) : u * exp(u) / (1 + exp(u));
        }
        /* O (m x L) = S (m x J) w0^T (J x L) */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)L, (int)J, 1.0, U, (int)J,
                    w0, (int)J, 0.0, O, (int)L);
        for (size_t i = 0; i < m; i++) {
            const double *o = O + i * L;
            size_t best = 0;
            for (size_t l = 1; l < L; l++)
                if (o[l] > o[best]) best = l;
            double sum = 0;
            for (size_t l = 0; l < L; l++) sum += exp(o[l] - o[best]);
            loss += o[best] + log(sum) - o[s->y[r0 + i]];
            hits += best == s->y[r0 + i];
        }
    }
    free(U);
    free(O);
    *cost = loss / (double)n;
    *acc = (double)hits / (double)n;
    return FR_OK;
}
