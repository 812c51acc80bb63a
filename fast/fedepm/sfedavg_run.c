/* SPDX-License-Identifier: Apache-2.0 */
/* sfedavg_run.c -- ff_sfedavg_run: SFedAvg, 002 Algorithm 3 with the full
 * gradient, as docs/FEDEPM.md specifies it, in binary64.  Server: the mean
 * (34) of the uploads of S^r (drawn first).  Client i in S^r, for each k
 * of the block, with the step (38) gamma = 2 d_i / sqrt(2 k0 + ceil(k/k0)):
 *   k = (r-1) k0:  w_i^{k+1} = w^r - gamma grad f_i(w^r)              (35)
 *   otherwise:     w_i^{k+1} = w_i^k - gamma grad f_i(w_i^k)
 * then the upload (37) with the noise rule at mu_{i,k+1} = mu0 (1 + c
 * ||w_i^k - w^r||^2) alpha^{k+1} (w_i^k before the last step) and
 * g_i = grad f_i(w^r).  Contract as ff_fedepm_run (fast/fedepm_run.c),
 * domain fr_sfedavg_check(P, prm). */
#include "rounds.h"

static int sfedavg_block(ffi_fl_state *s, size_t i, unsigned long kfirst)
{
    const fr_fedepm_params *prm = s->prm;
    const size_t n = s->n;
    const unsigned long klast = kfirst + prm->k0 - 1;
    double *wi = s->W + i * n;
    double mu = prm->mu0;
    int st;
    for (unsigned long k = kfirst; k <= klast; k++) {
        const double gamma = ffi_fl_gamma38(s->P->d[i], prm->k0, k);
        if (k == klast && prm->noise != FR_NOISE_NONE
            && (st = ff_fedepm_mu(&mu, prm->mu0, prm->c, prm->alpha, k + 1, wi, s->w, n)) != FR_OK)
            return st;
        if (k == kfirst) {
            if ((st = ffi_logreg_fi(NULL, s->g, s->P, i, s->w)) != FR_OK)
                return st;
            ffi_fl_copy(wi, s->w, n);
            ffi_fl_axpy(wi, -gamma, s->g, n);
        } else {
            if ((st = ffi_logreg_fi(NULL, s->a, s->P, i, wi)) != FR_OK)
                return st;
            ffi_fl_axpy(wi, -gamma, s->a, n);
        }
    }
    return ffi_fl_upload(s, i, mu, s->g);
}

int ff_sfedavg_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    static const ffi_fl_algo A = {fr_sfedavg_check, 1, ffi_fl_mean_aggregate, sfedavg_block, 0};
    return ffi_fl_drive(t, P, prm, &A);
}
