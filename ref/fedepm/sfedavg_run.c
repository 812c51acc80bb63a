/* SPDX-License-Identifier: Apache-2.0 */
/* sfedavg_run.c -- SFedAvg, 002 Algorithm 3 with full gradients, as
 * docs/FEDEPM.md runs it: S^r first, the server point (34) = the mean of
 * the selected uploads, then for each selected client k0 gradient steps
 * (35) with the stepsize (38) and a noisy upload (37).
 * Contract: fedref.h. */
#include "rounds.h"

/* One block k = (r-1) k0 .. r k0 - 1 for the clients of S^r, (35), (37). */
static int local_block(fri_fl_ctx *c, size_t r, mpfr_t *const w)
{
    const size_t n = c->n, nsel = c->prm->nsel;
    const unsigned long k0 = c->prm->k0, kb = (unsigned long)(r - 1) * k0;
    const size_t *S = c->t->sel + (r - 1) * nsel;
    int st;
    for (size_t q = 0; q < nsel; q++) {
        const size_t i = S[q];
        mpfr_t *wi = c->t->W + i * n;
        if ((st = fri_logreg_fi(NULL, c->g, c->P, i, w)) != FR_OK)   /* grad f_i(w^r) */
            return st;
        for (unsigned long k = kb; k < kb + k0; k++) {
            if (k + 1 == kb + k0 && c->prm->noise != FR_NOISE_NONE
                && (st = fri_fl_mu(c, i, k + 1, w)) != FR_OK)            /* mu_{i,k+1} from w_i^k */
                return st;
            fri_fl_gamma(c, i, k);                                       /* (38) */
            if (k == kb) {
                fri_fl_step(wi, w, c->gamma, c->g, n);                   /* k in K */
            } else {
                if ((st = fri_logreg_fi(NULL, c->h, c->P, i, wi)) != FR_OK)
                    return st;
                fri_fl_step(wi, wi, c->gamma, c->h, n);                  /* k not in K */
            }
        }
        if ((st = fri_fl_upload(c, i, c->mu)) != FR_OK)                 /* k + 1 = r k0 */
            return st;
    }
    return FR_OK;
}

int fr_sfedavg_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return fri_fl_run(t, P, prm, fr_sfedavg_check, fri_fl_select_then_mean, local_block, 0);
}
