/* SPDX-License-Identifier: Apache-2.0 */
/* run.c -- Algorithm 1 of 003 (FedPDM-DP) end to end in MPFR: the
 * initialisation, the rounds (S_t, the participants' rounds in increasing
 * i, the server step) and the records (fedspec/fedpdm.h and
 * fedref/fedpdm.h, section "Algorithm 1").
 * Rounding of the server step (line 19): u_k = RN((sum_{i in U} yt_ik) /
 * n) (the sum exact, one rounding), U = [N] and n = N (SERVER_ALL,
 * E-003-P1), U = S_t and n = |S_t| (SERVER_PART) or n = K
 * (SERVER_13_AS_PRINTED, (13)'s 1/K: E-003-13); x_0^{t+1} = fr_prox_l1(u, gamma, rho) = soft(u,
 * gamma/rho), correctly rounded from u (E-003-A1).  The client's side:
 * run_local.c; the measure (21): run_p.c. */
#include <stdlib.h>
#include "run.h"

/* the state t's records: x_0^t (KEEP_X0), (21) (KEEP_P), (24) (KEEP_F) */
static int record_state(fri_pdm_ws *w, fr_pdm_trace *tr, size_t s, mpfr_t *const x0,
                        const fr_pdm_problem *P)
{
    int st = FR_OK;
    if (tr->keep & FR_PDM_KEEP_X0)
        for (size_t k = 0; k < w->D; k++)
            mpfr_set(tr->x0[s * w->D + k], x0[k], MPFR_RNDN);            /* same precision */
    if (tr->keep & FR_PDM_KEEP_P)
        st = fri_pdm_measure(w, tr->P[s], tr->Px[s], tr->Plam[s], tr->Px0[s], x0, tr->x, tr->lam, P);
    if (st == FR_OK && (tr->keep & FR_PDM_KEEP_F))
        st = fr_pdm_objective(tr->F[s], x0, P);
    return st;
}

/* x_0^{t+1} into x0n from the uploads yt of the clients in U (line 19):
 * their sum divided by n, or by |U| when n = 0. */
static int server(fri_pdm_ws *w, mpfr_t *x0n, mpfr_t *u, mpfr_t *const yt, const unsigned char *in, size_t n)
{
    const size_t D = w->D;
    int st = FR_OK;
    for (size_t k = 0; k < D && st == FR_OK; k++) {
        size_t c = 0;
        for (size_t i = 0; i < w->N; i++)
            if (in == NULL || in[i])
                w->pp[c++] = yt[i * D + k];
        st = fri_sum_exact(w->tmp[0], w->pp, c);
        if (st == FR_OK)
            mpfr_div_ui(u[k], w->tmp[0], (unsigned long)(n ? n : c), MPFR_RNDN);
    }
    if (st == FR_OK && !fri_finite(u, D))
        st = FR_ENONFINITE;
    if (st == FR_OK)
        st = fr_prox_l1(x0n, u, D, w->gamma, w->rho);
    return st;
}

static int rounds(fri_pdm_ws *w, fr_pdm_trace *tr, const fr_pdm_problem *P, const fr_pdm_params *prm,
                  mpfr_t *yt, mpfr_t *x0c, mpfr_t *x0n, mpfr_t *u, frng_t *gb, frng_t *gn, size_t *sel,
                  size_t *off)
{
    const size_t N = w->N, D = w->D;
    /* line 2: x_0^0, x_i^0 = x_0^0, lambda_i^0 = 0, yt_i = x_0^0 */
    for (size_t k = 0; k < D; k++) {
        if (prm->x0 != NULL)
            mpfr_set_d(x0c[k], prm->x0[k], MPFR_RNDN);
        else
            mpfr_set_zero(x0c[k], 1);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < D; k++) {
            mpfr_set(tr->x[i * D + k], x0c[k], MPFR_RNDN);
            mpfr_set_zero(tr->lam[i * D + k], 1);
            mpfr_set(yt[i * D + k], x0c[k], MPFR_RNDN);
        }
    frng_t gs;
    frng_init(&gs, prm->seed, FR_PDM_STREAM_SELECT);
    for (size_t i = 0, o = 0; i < N; o += P->d[i], i++) {
        frng_init(&gb[i], prm->seed, FR_PDM_STREAM_BATCH + (uint64_t)i);
        frng_init(&gn[i], prm->seed, FR_PDM_STREAM_NOISE + (uint64_t)i);
        off[i] = o;
    }
    int st = record_state(w, tr, 0, x0c, P);
    for (unsigned long t = 0; t < prm->T && st == FR_OK; t++) {
        unsigned char *part = tr->part + (size_t)t * N;
        if (t == 0)                                      /* S_0 = [N] */
            for (size_t i = 0; i < N; i++)
                part[i] = 1;
        else {                                           /* line 20, drawn after round t-1 */
            st = frng_sample(&gs, N, prm->K, sel);
            for (size_t j = 0; j < prm->K && st == FR_OK; j++)
                part[sel[j]] = 1;
        }
        for (size_t i = 0; i < N && st == FR_OK; i++) {
            if (part[i])
                st = fri_pdm_client(w, tr, P, prm, t, i, off[i], tr->x + i * D, tr->lam + i * D,
                                    yt + i * D, x0c, &gb[i], &gn[i]);
            else
                mpfr_set_zero(tr->sigma[(size_t)t * N + i], 1);
        }
        if (st == FR_OK)
            st = server(w, x0n, u, yt, prm->server == FR_PDM_SERVER_ALL ? NULL : part,
                        prm->server == FR_PDM_SERVER_13_AS_PRINTED ? prm->K : 0);
        if (st != FR_OK)
            break;
        mpfr_t *sw = x0c;
        x0c = x0n;
        x0n = sw;
        st = record_state(w, tr, (size_t)t + 1, x0c, P);
        tr->rounds = (size_t)t + 1;
    }
    if (st == FR_OK && !(tr->keep & FR_PDM_KEEP_X0))
        for (size_t k = 0; k < D; k++)
            mpfr_set(tr->x0[k], x0c[k], MPFR_RNDN);
    return st;
}

/* Argument errors leave *t untouched; an error after the start leaves it
 * reset (fri_pdm_trace_reset). */
int fr_pdm_run(fr_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm)
{
    const int sc = fr_pdm_run_check(P, prm);
    if (sc == FR_ENULL || t == NULL || t->x == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    size_t ndmax = 0;
    if (!fri_pdm_trace_sizes(P, prm, &ndmax) || t->T != (size_t)prm->T || t->N != P->N
        || t->D != P->m * P->n || t->keep != prm->keep || t->ndmax != ndmax)
        return FR_ESIZE;
    if (sc != FR_OK)
        return sc;
    const size_t N = P->N, D = t->D;
    const mpfr_prec_t p = mpfr_get_prec(t->x[0]);
    fri_pdm_trace_reset(t);
    fri_pdm_ws w;
    int st = fri_pdm_ws_init(&w, P, prm, p);
    mpfr_t *yt = fri_vec_new(N * D, p), *x0a = fri_vec_new(D, p), *x0b = fri_vec_new(D, p), *u = fri_vec_new(D, p);
    frng_t *gb = malloc(N * sizeof *gb), *gn = malloc(N * sizeof *gn);
    size_t *sel = malloc(prm->K * sizeof *sel), *off = malloc(N * sizeof *off);
    if (yt == NULL || x0a == NULL || x0b == NULL || u == NULL || gb == NULL || gn == NULL || sel == NULL
        || off == NULL)
        st = FR_ENOMEM;
    if (st == FR_OK)
        st = rounds(&w, t, P, prm, yt, x0a, x0b, u, gb, gn, sel, off);
    if (st != FR_OK)
        fri_pdm_trace_reset(t);
    fri_pdm_ws_clear(&w);
    fri_vec_free(yt, N * D);
    fri_vec_free(x0a, D);
    fri_vec_free(x0b, D);
    fri_vec_free(u, D);
    free(gb);
    free(gn);
    free(sel);
    free(off);
    return st;
}
