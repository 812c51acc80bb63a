/* SPDX-License-Identifier: Apache-2.0 */
/* sfedprox_run.c -- ff_sfedprox_run: SFedProx, 002 Algorithm 3 with (36)
 * solved inexactly by Algorithm 4, as docs/FEDEPM.md specifies it, in
 * binary64.  Server: the mean (34) of the uploads of S^r (drawn first).
 * Client i in S^r, for each k of the block, with gamma of (38) and
 * mu = mu_prox:
 *   v^1 = w^r if k = (r-1) k0, else w_i^k;
 *   v^{t+1} = v^t - gamma (grad f_i(v^t) + mu (v^t - w^r)),  t = 1..ell;
 *   w_i^{k+1} = v^{ell+1};
 * then the upload (37) as in SFedAvg (fast/sfedavg_run.c), with
 * g_i = grad f_i(w^r) (= grad f_i(v^1) of the first step).  Contract as
 * ff_fedepm_run, domain fr_sfedprox_check(P, prm). */
#include "rounds.h"

static int sfedprox_block(ffi_fl_state *s, size_t i, unsigned long kfirst)
{
    const fr_fedepm_params *prm = s->prm;
    const size_t n = s->n;
    const unsigned long klast = kfirst + prm->k0 - 1;
    double *wi = s->W + i * n, *v = s->a, *gv = s->b, *dv = s->c;
    double mu = prm->mu0;
    int st;
    for (unsigned long k = kfirst; k <= klast; k++) {
        const double gamma = ffi_fl_gamma38(s->P->d[i], prm->k0, k);
        if (k == klast && prm->noise != FR_NOISE_NONE
            && (st = ff_fedepm_mu(&mu, prm->mu0, prm->c, prm->alpha, k + 1, wi, s->w, n)) != FR_OK)
            return st;
        ffi_fl_copy(v, k == kfirst ? s->w : wi, n);                 /* v^1 */
        for (unsigned long t = 1; t <= prm->ell; t++) {
            if ((st = ffi_logreg_fi(NULL, gv, s->P, i, v)) != FR_OK)
                return st;
            if (k == kfirst && t == 1)
                ffi_fl_copy(s->g, gv, n);                           /* g_i */
            for (size_t j = 0; j < n; j++)
                dv[j] = v[j] - s->w[j];
            ffi_fl_axpy(gv, prm->mu_prox, dv, n);
            ffi_fl_axpy(v, -gamma, gv, n);
        }
        ffi_fl_copy(wi, v, n);
    }
    return ffi_fl_upload(s, i, mu, s->g);
}

int ff_sfedprox_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    static const ffi_fl_algo A = {fr_sfedprox_check, 1, ffi_fl_mean_aggregate, sfedprox_block, 0};
    return ffi_fl_drive(t, P, prm, &A);
}
