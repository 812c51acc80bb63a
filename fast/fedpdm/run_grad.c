/* SPDX-License-Identifier: Apache-2.0 */
/* run_grad.c -- the gradient of (25) inside Algorithm 1 (ff_pdm_run): on a
 * mini-batch (the b rows B^{t,r} of client i, (10a)) and on a client's whole
 * data ((21)), no allocation (the buffers of run.h).
 *   g = beta h(X) - (1/nr) sum_t s(u_t) e_{y_t} a_t^T,  u_t = x_{y_t}^T a_t
 * (the formulas and the scalar functions of ff_pdm_loss, model.h).
 * Products: only the label row of X meets a_t, so u_t is one ddot of n and
 * the residual term one daxpy of n into the label row of g: 2 nr n flops,
 * the exact structure of the one-hot R of ff_pdm_loss's dgemm G = C - R^T A
 * (2 nr m n flops, m - 1 of every m products with a zero).  With
 * FFI_PDM_GRAD_DGEMM the dgemm path (the mini-batch rows gathered first) is
 * compiled instead, for the profile (run.h).  The two differ only in the
 * summation order of each g_kl (ff_pdm_loss_bound holds for any order). */
#include "run.h"
#include "model.h"

void ffi_pdm_grad(double *g, const double *X, const double *A, const size_t *y, const size_t *rows,
                  size_t nr, ffi_pdm_ws *ws)
{
    const size_t m = ws->m, n = ws->n, D = ws->D;
    const double beta = ws->P->beta, inv = (double)nr;
    ffi_pdm_hgrad(g, X, D, beta);
    if (!FFI_PDM_GRAD_DGEMM) {
        for (size_t t = 0; t < nr; t++) {
            const size_t q = rows != NULL ? rows[t] : t;
            const double *a = A + q * n;
            const size_t k = y[q];
            double ut = cblas_ddot((int)n, X + k * n, 1, a, 1);
            cblas_daxpy((int)n, -(s_of(ut) / inv), a, 1, g + k * n, 1);
        }
        return;
    }
    /* the dgemm path: G = C - R^T A_B, R one-hot (ff_pdm_loss) */
    const double *Ab = A;
    const size_t *yb = y;
    if (rows != NULL) {
        for (size_t t = 0; t < nr; t++) {
            memcpy(ws->Ab + t * n, A + rows[t] * n, n * sizeof *A);
            ws->yb[t] = y[rows[t]];
        }
        Ab = ws->Ab;
        yb = ws->yb;
    }
    memset(ws->Rm, 0, nr * m * sizeof *ws->Rm);
    for (size_t t = 0; t < nr; t++) {
        double ut = cblas_ddot((int)n, X + yb[t] * n, 1, Ab + t * n, 1);
        ws->Rm[t * m + yb[t]] = s_of(ut) / inv;
    }
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)m, (int)n, (int)nr, -1.0, ws->Rm, (int)m,
                Ab, (int)n, 1.0, g, (int)n);
}
