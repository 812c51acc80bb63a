/* SPDX-License-Identifier: Apache-2.0 */
/* sfedprox_run.c -- SFedProx, 002 Algorithm 3 with (36) solved inexactly
 * by Algorithm 4 (ell gradient steps on f_i + mu/2 ||. - w^r||^2, mu =
 * mu_prox, stepsize (38)), as docs/FEDEPM.md runs it: S^r first, the
 * server point (34), then each selected client's block and a noisy upload
 * (37).  Contract: fedref.h. */
#include "rounds.h"

/* One block k = (r-1) k0 .. r k0 - 1 for the clients of S^r. */
static int local_block(fri_fl_ctx *c, size_t r, mpfr_t *const w)
{
    const size_t n = c->n, nsel = c->prm->nsel;
    const unsigned long k0 = c->prm->k0, kb = (unsigned long)(r - 1) * k0;
    const size_t *S = c->t->sel + (r - 1) * nsel;
    int st;
    for (size_t q = 0; q < nsel; q++) {
        const size_t i = S[q];
        mpfr_t *wi = c->t->W + i * n;                                /* holds v^t */
        if ((st = fri_logreg_fi(NULL, c->g, c->P, i, w)) != FR_OK)   /* grad f_i(w^r) */
            return st;
        for (unsigned long k = kb; k < kb + k0; k++) {
            if (k + 1 == kb + k0 && c->prm->noise != FR_NOISE_NONE
                && (st = fri_fl_mu(c, i, k + 1, w)) != FR_OK)            /* mu_{i,k+1} from w_i^k */
                return st;
            fri_fl_gamma(c, i, k);                                       /* (38) */
            if (k == kb)
                for (size_t j = 0; j < n; j++)
                    mpfr_set(wi[j], w[j], MPFR_RNDN);                /* v^1 = w^r, exact */
            for (unsigned long s = 1; s <= c->prm->ell; s++) {
                mpfr_t *grad = c->g;                                 /* grad f_i(v^1) when v^1 = w^r */
                if (k != kb || s != 1) {
                    if ((st = fri_logreg_fi(NULL, c->h, c->P, i, wi)) != FR_OK)
                        return st;
                    grad = c->h;
                }
                for (size_t j = 0; j < n; j++) {                     /* grad + mu (v - w^r) */
                    mpfr_sub(c->e[j], wi[j], w[j], MPFR_RNDN);
                    mpfr_fma(c->e[j], c->mu_prox, c->e[j], grad[j], MPFR_RNDN);
                }
                fri_fl_step(wi, wi, c->gamma, c->e, n);                  /* v^{t+1} */
            }
        }
        if ((st = fri_fl_upload(c, i, c->mu)) != FR_OK)                 /* k + 1 = r k0 */
            return st;
    }
    return FR_OK;
}

int fr_sfedprox_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return fri_fl_run(t, P, prm, fr_sfedprox_check, fri_fl_select_then_mean, local_block, 0);
}
