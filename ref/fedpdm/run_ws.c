/* SPDX-License-Identifier: Apache-2.0 */
/* run_ws.c -- the workspace of one run of Algorithm 1 (ref/fedpdm/run.h):
 * allocated once before round 0, freed after the run. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

static size_t nz(size_t D) { return D + (D & 1); }

void fri_pdm_ws_clear(fri_pdm_ws *w)
{
    fri_vec_free(w->xr, w->D);
    fri_vec_free(w->g, w->D);
    fri_vec_free(w->v, w->D);
    fri_vec_free(w->sq, w->D);
    fri_vec_free(w->z, nz(w->D));
    fri_vec_free(w->Ab, w->dmax * w->n);
    free(w->yb);
    free(w->idx);
    free(w->pp);
    mpfr_clears(w->rho, w->beta, w->gamma, w->nu, w->G, w->eps, w->delta, w->eta, w->neta, w->Nm, w->Ng,
                w->Nsq, w->s, w->sig2, w->sig, (mpfr_ptr)0);
    for (int q = 0; q < FRI_PDM_NTMP; q++)
        mpfr_clear(w->tmp[q]);
    memset(w, 0, sizeof *w);
}

/* P and prm have passed fr_pdm_run_check; the trace's sizes bound every
 * count (N D, dmax n <= (sum d_i) n: FR_COUNT_MAX). */
int fri_pdm_ws_init(fri_pdm_ws *w, const fr_pdm_problem *P, const fr_pdm_params *prm, mpfr_prec_t p)
{
    memset(w, 0, sizeof *w);
    w->m = P->m;
    w->n = P->n;
    w->D = P->m * P->n;
    w->N = P->N;
    w->p = p;
    for (size_t i = 0; i < P->N; i++)
        if (P->d[i] > w->dmax)
            w->dmax = P->d[i];
    mpfr_inits2(53, w->rho, w->beta, w->gamma, w->nu, w->G, w->eps, w->delta, w->eta, w->neta,
                (mpfr_ptr)0);
    mpfr_init2(w->Nm, 64);
    mpfr_init2(w->Ng, 53 + 64);
    mpfr_init2(w->Nsq, 128);
    mpfr_inits2(p, w->s, w->sig2, w->sig, (mpfr_ptr)0);
    for (int q = 0; q < FRI_PDM_NTMP; q++)
        mpfr_init2(w->tmp[q], MPFR_PREC_MIN);
    mpfr_set_d(w->rho, prm->rho, MPFR_RNDN);              /* binary64: exact at 53 bits */
    mpfr_set_d(w->beta, P->beta, MPFR_RNDN);
    mpfr_set_d(w->gamma, P->gamma, MPFR_RNDN);
    if (prm->rule == FR_PDM_RULE_11)
        mpfr_set_d(w->nu, prm->nu, MPFR_RNDN);
    if (prm->noise == FR_PDM_NOISE_PAPER || prm->clip)
        mpfr_set_d(w->G, prm->G, MPFR_RNDN);
    if (prm->noise == FR_PDM_NOISE_PAPER) {
        mpfr_set_d(w->eps, prm->eps, MPFR_RNDN);
        mpfr_set_d(w->delta, prm->delta, MPFR_RNDN);
    }
    mpfr_set_uj(w->Nm, (uintmax_t)P->N, MPFR_RNDN);       /* N < 2^64: exact */
    mpfr_mul(w->Ng, w->gamma, w->Nm, MPFR_RNDN);           /* 53 + 64 bits: exact */
    mpfr_sqr(w->Nsq, w->Nm, MPFR_RNDN);                    /* 128 bits: exact */
    size_t npp = w->N > w->D ? w->N : w->D;
    w->xr = fri_vec_new(w->D, p);
    w->g = fri_vec_new(w->D, p);
    w->v = fri_vec_new(w->D, p);
    w->sq = fri_vec_new(w->D, MPFR_PREC_MIN);
    w->z = fri_vec_new(nz(w->D), p);
    w->Ab = fri_vec_new(w->dmax * w->n, 53);
    w->yb = malloc(w->dmax * sizeof *w->yb);
    w->idx = malloc(prm->b * sizeof *w->idx);
    w->pp = malloc(npp * sizeof *w->pp);
    if (w->xr == NULL || w->g == NULL || w->v == NULL || w->sq == NULL || w->z == NULL || w->Ab == NULL
        || w->yb == NULL || w->idx == NULL || w->pp == NULL)
        return FR_ENOMEM;
    return FR_OK;
}
