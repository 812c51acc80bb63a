/* SPDX-License-Identifier: Apache-2.0 */
/* fedepm_run.c -- ff_fedepm_run: FedEPM, 002 Algorithm 2, as
 * docs/FEDEPM.md specifies it, in binary64.  The server step is (19),
 * w^r = ENS(z_0, ..., z_{m-1}) (ff_ens, corrected E-002-13); the client
 * block is (20) with g_i = grad f_i(w^r) computed once per round (18),
 * the upload (21) at k + 1 in K with the noise scale at mu_{i,k+1}; the
 * round loop, records and noise: rounds.c.
 * Contract (include/fedfast/fedepm.h, fr_fedepm_trace in include/fedref/fedepm.h): domain
 * fr_fedepm_check(P, prm) and a trace initialised for (P, prm);
 * every operation is a binary64 building block with its own bound, the
 * trajectory itself carries no error bound (the audit compares it with
 * the MPFR run); the draws are those of docs/RNG.md section 3.8. */
#include "rounds.h"

/* (19): the elastic-net aggregation of all m latest uploads. */
static int fedepm_aggregate(ffi_fl_state *s, const size_t *S)
{
    (void)S;                               /* (19) does not depend on S^r */
    return ff_ens(s->w, s->Z, s->m, s->n, s->prm->lambda, s->prm->eta);
}

/* (20) for k = kfirst .. kfirst + k0 - 1, then the upload (21). */
static int fedepm_block(ffi_fl_state *s, size_t i, unsigned long kfirst)
{
    const fr_fedepm_params *prm = s->prm;
    const size_t n = s->n;
    double *wi = s->W + i * n;
    int st = ffi_logreg_fi(NULL, s->g, s->P, i, s->w);     /* g_i, (18) */
    if (st != FR_OK)
        return st;
    double mu = prm->mu0;
    for (unsigned long k = kfirst; k < kfirst + prm->k0; k++) {
        if ((st = ff_fedepm_mu(&mu, prm->mu0, prm->c, prm->alpha, k + 1, wi, s->w, n)) != FR_OK
            || (st = ff_fedepm_step(wi, wi, s->w, s->g, n, prm->lambda, prm->eta, mu)) != FR_OK
            || (st = ffi_fl_sens(s, i, mu)) != FR_OK)              /* section 9 */
            return st;
    }
    return ffi_fl_upload(s, i, mu, s->g);                   /* mu = mu_{i,k+1} */
}

int ff_fedepm_run(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    static const ffi_fl_algo A = {fr_fedepm_check, 0, fedepm_aggregate, fedepm_block, 1};
    return ffi_fl_drive(t, P, prm, &A);
}
