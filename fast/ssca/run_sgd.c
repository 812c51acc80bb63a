/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgd.c -- the baselines of 000 Sec. VI on (32) in binary64, one round
 * each (docs/SSCA.md section 10; contract: include/fedfast/ssca.h), with
 * r = lr_a t^-lr_alpha and the batch-mean gradient g/B + 2 lambda w:
 *   SGD_S   each client from w, E local steps w_i <- w_i - r (G_i/B + 2 lambda w_i)
 *           on its E disjoint batches; server w <- sum_i (N_i/N) w_i (FedSGD
 *           E = 1, PR-SGD E > 1, FedAvg E B = N_i);
 *   SGDM_S  each client from (w, v), v_i <- m v_i + (G_i/B + 2 lambda w_i),
 *           w_i <- w_i - r v_i; the server averages both (000's [7], MFL);
 *   SGD_F, SGDM_F  one step per round on the server's batch, g collected
 *           as in Algorithm 3 (run_feature.c).
 * A client's batch pass is one gathered B x P block (no gather when
 * B = N_i); the averages are accumulated in client order. */
#include "run.h"

/* E local steps of client i from (w, v) into (wi, vi). */
static int local_steps(ffi_ssca_ws *ws, size_t i, const double *w, double r, int mom)
{
    const fr_ssca_params *prm = ws->prm;
    const size_t d = ws->d, B = ws->B, EB = ws->E * B;
    const double Bd = (double)B, tl = 2 * prm->lambda, m = prm->mom;
    double *wi = ws->wi, *vi = ws->vi, *g = ws->g;
    memcpy(wi, w, d * sizeof *wi);
    if (mom)
        memcpy(vi, ws->v, d * sizeof *vi);
    const int full = ws->D->Ni[i] == B;                    /* E = 1, the client's data */
    for (size_t e = 0; e < ws->E; e++) {
        for (size_t k = 0; k < B; k++)
            ws->rows[k] = ws->off[i] + ws->draw[i * EB + e * B + k];
        int st = ffi_ssca_pass(ws, wi, full ? NULL : ws->rows, ws->off[i], B, NULL, 0, NULL, g);
        if (st != FR_OK)
            return st;
        if (mom)
            for (size_t j = 0; j < d; j++) {
                vi[j] = m * vi[j] + (g[j] / Bd + tl * wi[j]);
                wi[j] = wi[j] - r * vi[j];
            }
        else
            for (size_t j = 0; j < d; j++)
                wi[j] = wi[j] - r * (g[j] / Bd + tl * wi[j]);
    }
    return FR_OK;
}

int ffi_ssca_round_sgd(ffi_ssca_ws *ws, double *w, unsigned long t)
{
    const fr_ssca_params *prm = ws->prm;
    const int algo = prm->algo, mom = algo == FR_SSCA_SGDM_S || algo == FR_SSCA_SGDM_F;
    const size_t d = ws->d;
    const double r = ffi_ssca_sched(prm->lr_a, prm->lr_alpha, t);
    if (algo == FR_SSCA_SGD_F || algo == FR_SSCA_SGDM_F) {
        int st = ffi_ssca_feature_grad(ws, w, 0, NULL);
        if (st != FR_OK)
            return st;
        const double Bd = (double)ws->B, tl = 2 * prm->lambda, m = prm->mom;
        double *g = ws->g, *v = ws->v;
        if (mom)
            for (size_t j = 0; j < d; j++) {
                v[j] = m * v[j] + (g[j] / Bd + tl * w[j]);
                w[j] = w[j] - r * v[j];
            }
        else
            for (size_t j = 0; j < d; j++)
                w[j] = w[j] - r * (g[j] / Bd + tl * w[j]);
        return ffi_all_finite(v, mom ? d : 0) ? FR_OK : FR_ENONFINITE;
    }
    const double N = (double)ws->N;
    for (size_t i = 0; i < ws->nc; i++) {
        int st = local_steps(ws, i, w, r, mom);
        if (st != FR_OK)
            return st;
        const double pi = (double)ws->D->Ni[i] / N;
        for (size_t j = 0; j < d; j++)
            ws->wacc[j] = i == 0 ? pi * ws->wi[j] : ws->wacc[j] + pi * ws->wi[j];
        if (mom)
            for (size_t j = 0; j < d; j++)
                ws->vacc[j] = i == 0 ? pi * ws->vi[j] : ws->vacc[j] + pi * ws->vi[j];
    }
    memcpy(w, ws->wacc, d * sizeof *w);
    if (mom) {
        memcpy(ws->v, ws->vacc, d * sizeof *w);
        if (!ffi_all_finite(ws->v, d))
            return FR_ENONFINITE;
    }
    return FR_OK;
}
