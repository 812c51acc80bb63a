/* SPDX-License-Identifier: Apache-2.0 */
/* fedepm_run.c -- FedEPM, 002 Algorithm 2, as docs/FEDEPM.md runs it:
 * server step (19) by ENS over all m latest uploads, then S^r, then for
 * each selected client k0 steps (20) from the server point and a noisy
 * upload (21); unselected clients keep their state (22).
 * Contract: fedref.h. */
#include "rounds.h"

/* One block k = (r-1) k0 .. r k0 - 1 for the clients of S^r, (20)-(21). */
static int local_block(fri_fl_ctx *c, size_t r, mpfr_t *const w)
{
    const size_t n = c->n, nsel = c->prm->nsel;
    const unsigned long k0 = c->prm->k0, kb = (unsigned long)(r - 1) * k0;
    const size_t *S = c->t->sel + (r - 1) * nsel;
    int st;
    for (size_t q = 0; q < nsel; q++) {
        const size_t i = S[q];
        mpfr_t *wi = c->t->W + i * n;
        if ((st = fri_logreg_fi(NULL, c->g, c->P, i, w)) != FR_OK)   /* g_i of (18) */
            return st;
        for (unsigned long k = kb; k < kb + k0; k++) {
            if ((st = fri_fl_mu(c, i, k + 1, w)) != FR_OK                 /* mu_{i,k+1} */
                || (st = fr_fedepm_step(wi, wi, w, c->g, n, c->lambda, c->eta, c->mu)) != FR_OK
                || (st = fri_fl_sens(c, i, c->mu)) != FR_OK)                /* section 9 */
                return st;
        }
        if ((st = fri_fl_upload(c, i, c->mu)) != FR_OK)                 /* k + 1 = r k0 */
            return st;
    }
    return FR_OK;
}

/* (19): w^r = ENS of all m latest uploads, then S^r (section 1). */
static int aggregate(fri_fl_ctx *c, size_t r)
{
    int st = fr_ens(c->t->w + (r - 1) * c->n, c->t->Z, c->m, c->n, c->lambda, c->eta);
    return st != FR_OK ? st : fri_fl_select(c, r);
}

int fr_fedepm_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return fri_fl_run(t, P, prm, fr_fedepm_check, aggregate, local_block, 1);
}
