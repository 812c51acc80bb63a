/* SPDX-License-Identifier: Apache-2.0 */
/* run_feature.c -- Algorithms 3 and 4 of 000 (feature-based, on (32) and
 * (40) with M = 1) in binary64, one round each (docs/SSCA.md section 10;
 * contract: include/fedfast/ssca.h).
 *
 * The server's batch (B of the N samples, stream (seed, 1)); Steps 4-6:
 * client i sends h_i = Z_i W1_i^T over the batch (its features P_i), the
 * clients sum u = h_0 + h_1 + ..., the aggregator sends A = sum_n abar_n
 * (20) (and F = sum_n loss_n for (40)), client i sends B_i = sum_n delta_n
 * z_{n,i}^T (21).  u is the product Z W1^T over the batch and the B_i are
 * the column blocks P_i of one product Delta^T Z: the run forms each by
 * one dgemm, in the layout of w (the same sums as the clients' messages,
 * added in another order: run.h, ffi_ssca_pass).  Then the surrogate step of run_sample.c with one "client" of
 * weight q = B/(B B) = 1/B (ff_ssca_lin / ff_ssca_const with nc = 1,
 * N_1 = B, docs/SSCA.md 3). */
#include "run.h"

int ffi_ssca_feature_grad(ffi_ssca_ws *ws, const double *w, int defer, double *f)
{
    const int full = ws->B == ws->N;             /* the whole data set: rows in place */
    return ffi_ssca_pass(ws, w, full ? NULL : ws->draw, 0, ws->B, NULL, defer, f, ws->g);
}

int ffi_ssca_round_feature(ffi_ssca_ws *ws, double *w, unsigned long t, double *nu,
                           double *slack, int *branch)
{
    const int cons = fr_ssca_algo_constrained(ws->prm->algo);
    double F = 0;
    int st = ffi_ssca_feature_grad(ws, w, !cons, cons ? &F : NULL);
    if (st != FR_OK)
        return st;
    const double Bd = (double)ws->B, q = Bd / (Bd * Bd);   /* ffi_ssca_weights, nc = 1 */
    return ffi_ssca_surrogate_step(ws, w, t, ws->g, q, F, nu, slack, branch);
}
