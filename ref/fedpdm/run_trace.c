/* SPDX-License-Identifier: Apache-2.0 */
/* run_trace.c -- the record of one run of Algorithm 1 of 003 (fr_pdm_trace:
 * fedref/fedpdm.h, section "Algorithm 1"): allocation, reset, release.
 * Every mpfr_t of a trace has the working precision given to
 * fr_pdm_trace_init; fr_pdm_run takes its precision from it. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

static int mul_ok(size_t a, size_t b, size_t *r)
{
    if (a != 0 && b > FR_COUNT_MAX / a)
        return 0;
    *r = a * b;
    return 1;
}

static size_t nx0(const fr_pdm_trace *t)
{
    return (t->keep & FR_PDM_KEEP_X0) ? (t->T + 1) * t->D : t->D;
}

void fr_pdm_trace_clear(fr_pdm_trace *t)
{
    if (t == NULL)
        return;
    size_t R = t->T * t->N;
    fri_vec_free(t->x0, nx0(t));
    fri_vec_free(t->x, t->N * t->D);
    fri_vec_free(t->lam, t->N * t->D);
    fri_vec_free(t->P, t->T + 1);
    fri_vec_free(t->Px, t->T + 1);
    fri_vec_free(t->Plam, t->T + 1);
    fri_vec_free(t->Px0, t->T + 1);
    fri_vec_free(t->F, t->T + 1);
    fri_vec_free(t->sigma, R);
    fri_vec_free(t->stop2, R);
    free(t->part);
    free(t->capped);
    free(t->Q);
    free(t->draws);
    memset(t, 0, sizeof *t);
}

void fri_pdm_trace_reset(fr_pdm_trace *t)
{
    size_t R = t->T * t->N, nd = t->N * t->D, k;
    for (k = 0; k < nx0(t); k++)
        mpfr_set_nan(t->x0[k]);
    for (k = 0; k < nd; k++) {
        mpfr_set_nan(t->x[k]);
        mpfr_set_nan(t->lam[k]);
    }
    for (k = 0; k <= t->T; k++) {
        mpfr_set_nan(t->P[k]);
        mpfr_set_nan(t->Px[k]);
        mpfr_set_nan(t->Plam[k]);
        mpfr_set_nan(t->Px0[k]);
        mpfr_set_nan(t->F[k]);
    }
    for (k = 0; k < R; k++) {
        mpfr_set_nan(t->sigma[k]);
        mpfr_set_nan(t->stop2[k]);
        t->part[k] = 0;
        t->capped[k] = 0;
        t->Q[k] = 0;
    }
    for (k = 0; k < t->ndmax; k++)
        t->draws[k] = SIZE_MAX;
    t->rounds = 0;
    t->nd = 0;
}

int fri_pdm_trace_sizes(const fr_pdm_problem *P, const fr_pdm_params *prm, size_t *ndmax)
{
    size_t D = P->m * P->n, T = (size_t)prm->T, r;
    if (!mul_ok(T + 1, D, &r) || !mul_ok(P->N, D, &r) || !mul_ok(T, P->N, &r))
        return 0;
    *ndmax = 0;
    if (prm->keep & FR_PDM_KEEP_DRAWS)
        if (!mul_ok(r, (size_t)prm->Qmax, &r) || !mul_ok(r, prm->b, ndmax))
            return 0;
    return 1;
}

/* Argument errors leave *t unchanged; FR_ENOMEM leaves it zeroed.  Class
 * order: fr_pdm_run_check's FR_ENULL (and t), FR_ESIZE (and the record
 * counts), FR_EPREC (prec), then its FR_ENONFINITE, FR_EDOM. */
int fr_pdm_trace_init(fr_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm, mpfr_prec_t prec)
{
    const int sc = fr_pdm_run_check(P, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    size_t ndmax = 0;
    if (sc == FR_ESIZE || !fri_pdm_trace_sizes(P, prm, &ndmax))
        return FR_ESIZE;
    if (prec < MPFR_PREC_MIN || prec > FR_PREC_MAX)
        return FR_EPREC;
    if (sc != FR_OK)
        return sc;
    fr_pdm_trace u;
    memset(&u, 0, sizeof u);
    u.T = (size_t)prm->T;
    u.N = P->N;
    u.D = P->m * P->n;
    u.keep = prm->keep;
    const size_t R = u.T * u.N;
    u.x0 = fri_vec_new(nx0(&u), prec);
    u.x = fri_vec_new(u.N * u.D, prec);
    u.lam = fri_vec_new(u.N * u.D, prec);
    u.P = fri_vec_new(u.T + 1, prec);
    u.Px = fri_vec_new(u.T + 1, prec);
    u.Plam = fri_vec_new(u.T + 1, prec);
    u.Px0 = fri_vec_new(u.T + 1, prec);
    u.F = fri_vec_new(u.T + 1, prec);
    u.sigma = fri_vec_new(R, prec);
    u.stop2 = fri_vec_new(R, prec);
    u.part = malloc(R);
    u.capped = malloc(R);
    u.Q = malloc(R * sizeof *u.Q);
    u.draws = malloc((ndmax ? ndmax : 1) * sizeof *u.draws);
    u.ndmax = u.draws != NULL ? ndmax : 0;
    if (u.x0 == NULL || u.x == NULL || u.lam == NULL || u.P == NULL || u.Px == NULL || u.Plam == NULL
        || u.Px0 == NULL || u.F == NULL || u.sigma == NULL || u.stop2 == NULL || u.part == NULL
        || u.capped == NULL || u.Q == NULL || u.draws == NULL) {
        fr_pdm_trace_clear(&u);               /* vec_free skips the NULL ones */
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    fri_pdm_trace_reset(&u);
    *t = u;
    return FR_OK;
}
