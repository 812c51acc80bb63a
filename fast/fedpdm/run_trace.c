/* SPDX-License-Identifier: Apache-2.0 */
/* run_trace.c -- ff_pdm_trace_init, ff_pdm_trace_clear and the trace's
 * initial state (the records of fr_pdm_trace, include/fedref/fedpdm.h,
 * section "Algorithm 1", in doubles).  R = T N records per (round,
 * client), round-major (entry t N + i). */
#include "run.h"

void ff_pdm_trace_clear(ff_pdm_trace *t)
{
    if (t == NULL)
        return;
    free(t->x0);
    free(t->x);
    free(t->lam);
    free(t->P);
    free(t->Px);
    free(t->Plam);
    free(t->Px0);
    free(t->F);
    free(t->sigma);
    free(t->stop2);
    free(t->part);
    free(t->capped);
    free(t->Q);
    free(t->draws);
    memset(t, 0, sizeof *t);
}

/* The record sizes of (P, prm) once fr_pdm_run_check's FR_ENULL and
 * FR_ESIZE have passed: FR_ESIZE if one exceeds FR_COUNT_MAX. */
int ffi_pdm_rec_sizes(const fr_pdm_problem *P, const fr_pdm_params *prm, size_t *D, size_t *R,
                      size_t *nx0, size_t *ndmax)
{
    const size_t T = prm->T, N = P->N;
    *D = P->m * P->n;                                      /* <= FR_COUNT_MAX: problem check */
    if (ffi_check_mn(T, N) != FR_OK || ffi_check_mn(N, *D) != FR_OK
        || ffi_check_mn(T + 1, *D) != FR_OK)
        return FR_ESIZE;
    *R = T * N;
    *nx0 = (prm->keep & FR_PDM_KEEP_X0) ? (T + 1) * *D : *D;
    *ndmax = 0;
    if (prm->keep & FR_PDM_KEEP_DRAWS) {
        if (ffi_check_mn(*R, prm->Qmax) != FR_OK || ffi_check_mn(*R * prm->Qmax, prm->b) != FR_OK)
            return FR_ESIZE;
        *ndmax = *R * prm->Qmax * prm->b;
    }
    return FR_OK;
}

static void fill_nan(double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        x[k] = NAN;
}

void ffi_pdm_trace_reset(ff_pdm_trace *t)
{
    fill_nan(t->x, t->N * t->D);
    fill_nan(t->lam, t->N * t->D);
    ffi_pdm_trace_reset_records(t);
}

void ffi_pdm_trace_reset_records(ff_pdm_trace *t)
{
    const size_t R = t->T * t->N;
    const size_t nx0 = (t->keep & FR_PDM_KEEP_X0) ? (t->T + 1) * t->D : t->D;
    fill_nan(t->x0, nx0);
    fill_nan(t->P, t->T + 1);
    fill_nan(t->Px, t->T + 1);
    fill_nan(t->Plam, t->T + 1);
    fill_nan(t->Px0, t->T + 1);
    fill_nan(t->F, t->T + 1);
    fill_nan(t->sigma, R);
    fill_nan(t->stop2, R);
    memset(t->part, 0, R);
    memset(t->capped, 0, R);
    for (size_t k = 0; k < R; k++)
        t->Q[k] = 0;
    for (size_t k = 0; t->draws != NULL && k < t->ndmax; k++)
        t->draws[k] = SIZE_MAX;
    t->rounds = 0;
    t->nd = 0;
}

int ff_pdm_trace_init(ff_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm)
{
    const int sc = fr_pdm_run_check(P, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    size_t D, R, nx0, ndmax;
    if (ffi_pdm_rec_sizes(P, prm, &D, &R, &nx0, &ndmax) != FR_OK)
        return FR_ESIZE;
    if (sc != FR_OK)
        return sc;
    ff_pdm_trace u = {0};
    u.T = prm->T;
    u.N = P->N;
    u.D = D;
    u.ndmax = ndmax;
    u.keep = prm->keep;
    u.x0 = malloc(nx0 * sizeof *u.x0);
    u.x = malloc(P->N * D * sizeof *u.x);
    u.lam = malloc(P->N * D * sizeof *u.lam);
    u.P = malloc((u.T + 1) * sizeof *u.P);
    u.Px = malloc((u.T + 1) * sizeof *u.Px);
    u.Plam = malloc((u.T + 1) * sizeof *u.Plam);
    u.Px0 = malloc((u.T + 1) * sizeof *u.Px0);
    u.F = malloc((u.T + 1) * sizeof *u.F);
    u.sigma = malloc(R * sizeof *u.sigma);
    u.stop2 = malloc(R * sizeof *u.stop2);
    u.part = malloc(R);
    u.capped = malloc(R);
    u.Q = malloc(R * sizeof *u.Q);
    if (ndmax > 0)
        u.draws = malloc(ndmax * sizeof *u.draws);
    if (!u.x0 || !u.x || !u.lam || !u.P || !u.Px || !u.Plam || !u.Px0 || !u.F || !u.sigma || !u.stop2
        || !u.part || !u.capped || !u.Q || (ndmax > 0 && !u.draws)) {
        ff_pdm_trace_clear(&u);
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    ffi_pdm_trace_reset(&u);
    *t = u;
    return FR_OK;
}
