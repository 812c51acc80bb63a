/* SPDX-License-Identifier: Apache-2.0 */
/* run.c -- ff_pdm_run: Algorithm 1 of 003 (FedPDM-DP) end to end in
 * binary64, as fedspec/fedpdm.h (section "Algorithm 1") specifies it
 * (contract: include/fedfast/fedpdm.h; the records of fr_pdm_trace).
 * This file holds the argument checks, the rounds and the server; the
 * workspace and the draws' replay are in run_ws.c, the gradient of (25) in
 * run_grad.c, (21) in run_measure.c, the trace in run_trace.c.
 *
 * Method.  One workspace (run.h), allocated before round 0; the round loop
 * allocates nothing.  x_i and lambda_i live in the trace (its x, lam: their
 * final values are the records), x_0^t and the uploads yt_i in the
 * workspace.  Per local step (10a): the draw (replayed), the mini-batch
 * gradient (run_grad.c), the clip, then one fused pass over the D entries
 * for v, ||v||^2 and the step.  After the loop (10b)-(10d) and (12) in one
 * pass, the noise by ff_rng_gaussian2 pairs.  The server's sum over the
 * uploads in increasing i, then ff_prox_l1 (E-003-A1). */
#include "run.h"
#include "model.h"

/* sigma_{i,t} of (12): NOISE_PAPER: sqrt((18)) with s = (19), both upper
 * bounds, the square root rounded up: r = RN(sqrt(s2)); r^2 < s2 (decided
 * exactly by the fma residual, exact for s2 >= 2^-900) moves r up one ulp;
 * below 2^-900 r is moved up unconditionally. */
static int client_sigma(double *sig, const fr_pdm_params *prm, unsigned long t, unsigned long Q)
{
    if (prm->noise == FR_PDM_NOISE_NONE) {
        *sig = 0;
        return FR_OK;
    }
    if (prm->noise == FR_PDM_NOISE_GIVEN) {
        *sig = prm->sigma[t] + 0.0;                        /* -0: no noise, +0 */
        return FR_OK;
    }
    double s, s2;
    int st = ff_fedpdm_sensitivity(&s, prm->eta[t], prm->rho, Q, prm->G);
    if (st != FR_OK)
        return st;
    st = ff_gauss_sigma2_classical_upper(&s2, prm->eps, prm->delta, s);
    if (st != FR_OK)
        return st;
    double r = sqrt(s2);
    if (!isfinite(r))
        return FR_ENONFINITE;
    if (s2 < 0x1p-900 || fma(r, r, -s2) < 0)
        r = ffi_next_up(r);
    *sig = r;
    return FR_OK;
}

/* Client i's round t (lines 5-16): (10a) Q_i^t times, (10b)-(10d), (12). */
static int client_round(ff_pdm_trace *tr, ffi_pdm_ws *ws, unsigned long t, size_t i)
{
    const fr_pdm_problem *P = ws->P;
    const fr_pdm_params *prm = ws->prm;
    const size_t D = ws->D, n = ws->n, b = prm->b, di = P->d[i], R = t * ws->N + i;
    const double rho = prm->rho, eta = prm->eta[t], nu = prm->nu;
    const int rule11 = prm->rule == FR_PDM_RULE_11;
    double *x = tr->x + i * D, *lam = tr->lam + i * D, *yt = ws->yt + i * D;
    double *xr = ws->xr, *g = ws->g;
    const double *x0 = ws->x0, *A = P->A + ws->off[i] * n;
    const size_t *y = P->y + ws->off[i];
    memcpy(xr, prm->start == FR_PDM_START_XI ? x : x0, D * sizeof *xr);
    unsigned long Q = 0;
    int stopped = 0;
    double s2 = NAN;
    while (Q < prm->Qmax && !stopped) {
        ffi_pdm_sample(&ws->rng[1 + i], ws->perm, di, b, ws->batch);
        if (tr->draws != NULL) {
            memcpy(tr->draws + tr->nd, ws->batch, b * sizeof *ws->batch);
            tr->nd += b;
        }
        ffi_pdm_grad(g, xr, A, y, ws->batch, b, ws);
        if (prm->clip) {                                   /* g min(1, G / ||g||) */
            double q = ffi_pdm_sumsq(g, D), Gs = prm->G, up = 1;
            if (q == INFINITY) {                           /* ||g|| > 2^511: g scaled by 2^-600 */
                for (size_t k = 0; k < D; k++)
                    g[k] *= 0x1p-600;
                q = ffi_pdm_sumsq(g, D);
                Gs *= 0x1p-600;                            /* ||g|| > G iff ||g 2^-600|| > Gs */
                up = 0x1p600;
            }
            const double nr = sqrt(q), sc = nr > Gs ? prm->G / nr : up;
            if (nr > Gs || up != 1)
                for (size_t k = 0; k < D; k++)
                    g[k] *= sc;
        }
        const double q = ffi_pdm_step(xr, g, lam, x0, D, rho, eta);   /* (10a), ||v||^2 of (11) */
        s2 = q;
        Q++;
        stopped = rule11 && q <= nu;                       /* (11) */
    }
    double sig;
    int st = client_sigma(&sig, prm, t, Q);
    if (st != FR_OK)
        return st;
    ffi_pdm_close(x, lam, yt, xr, x0, D, rho);            /* (10b)-(10d) */
    if (sig != 0) {                                        /* (12): sigma = 0 draws nothing */
        frng_t *gn = &ws->rng[1 + ws->N + i];
        for (size_t k = 0; k < D; k += 2) {
            double z0, z1;
            (void)ff_rng_gaussian2(&z0, &z1, gn);          /* distinct outputs: cannot fail */
            yt[k] += sig * z0;
            if (k + 1 < D)
                yt[k + 1] += sig * z1;
        }
    }
    if (!ffi_all_finite(yt, D) || !isfinite(s2))
        return FR_ENONFINITE;
    tr->part[R] = 1;
    tr->Q[R] = Q;
    tr->capped[R] = (unsigned char)(rule11 && !stopped);
    tr->sigma[R] = sig;
    tr->stop2[R] = s2;
    return FR_OK;
}

/* The records of state t: (21) (KEEP_P) and (24) (KEEP_F) at x_0^t, one
 * pass over the data; x_0^t (KEEP_X0). */
static int state_records(ff_pdm_trace *tr, ffi_pdm_ws *ws, size_t t)
{
    const int doP = (tr->keep & FR_PDM_KEEP_P) != 0, doF = (tr->keep & FR_PDM_KEEP_F) != 0;
    if (doP || doF) {
        double o[5];
        ffi_pdm_measure(o, doP, doF, ws->x0, tr->x, tr->lam, ws);
        if (doP) {
            if (!isfinite(o[0]))
                return FR_ENONFINITE;
            tr->P[t] = o[0];
            tr->Px[t] = o[1];
            tr->Plam[t] = o[2];
            tr->Px0[t] = o[3];
        }
        if (doF) {
            if (!isfinite(o[4]))
                return FR_ENONFINITE;
            tr->F[t] = o[4];
        }
    }
    if (tr->keep & FR_PDM_KEEP_X0)
        memcpy(tr->x0 + t * ws->D, ws->x0, ws->D * sizeof *ws->x0);
    return FR_OK;
}

static int run_rounds(ff_pdm_trace *tr, ffi_pdm_ws *ws)
{
    const fr_pdm_problem *P = ws->P;
    const fr_pdm_params *prm = ws->prm;
    const size_t N = ws->N, D = ws->D;
    double *x0 = ws->x0, *c = ws->c;
    /* line 2: x_0^0, x_i^0 = x_0^0, lambda_i^0 = 0, yt_i = x_0^0 */
    if (prm->x0 != NULL)
        for (size_t k = 0; k < D; k++)
            x0[k] = prm->x0[k];
    else
        memset(x0, 0, D * sizeof *x0);
    for (size_t i = 0; i < N; i++) {
        memcpy(tr->x + i * D, x0, D * sizeof *x0);
        memcpy(ws->yt + i * D, x0, D * sizeof *x0);
        memset(tr->lam + i * D, 0, D * sizeof *x0);
    }
    int st;
    for (unsigned long t = 0; t < prm->T; t++) {
        if ((st = state_records(tr, ws, t)) != FR_OK)
            return st;
        size_t ns = N;                                     /* S_0 = [N] */
        if (t == 0) {
            memset(ws->in, 1, N);
        } else {                                           /* line 20 */
            memset(ws->in, 0, N);
            ffi_pdm_sample(&ws->rng[0], ws->perm, N, prm->K, ws->sel);
            for (size_t j = 0; j < prm->K; j++)
                ws->in[ws->sel[j]] = 1;
            ns = prm->K;
        }
        for (size_t i = 0; i < N; i++) {
            if (ws->in[i]) {
                if ((st = client_round(tr, ws, t, i)) != FR_OK)
                    return st;
            } else {
                tr->sigma[t * N + i] = 0;
            }
        }
        /* line 19: u = the sum of the uploads over [N] (SERVER_ALL) or S_t,
         * divided by N, |S_t| (SERVER_PART) or K (SERVER_13_AS_PRINTED) */
        const int all = prm->server == FR_PDM_SERVER_ALL;
        memset(c, 0, D * sizeof *c);
        for (size_t i = 0; i < N; i++)
            if (all || ws->in[i]) {
                ffi_pdm_addto(c, ws->yt + i * D, D);
            }
        const double dn = (double)(all ? N : prm->server == FR_PDM_SERVER_13_AS_PRINTED ? prm->K : ns);
        ffi_pdm_divby(c, D, dn);
        if ((st = ff_prox_l1(x0, c, D, P->gamma, prm->rho)) != FR_OK)
            return st;                                     /* FR_ENONFINITE: overflow */
        tr->rounds = t + 1;
    }
    if ((st = state_records(tr, ws, prm->T)) != FR_OK)
        return st;
    if (!(tr->keep & FR_PDM_KEEP_X0))
        memcpy(tr->x0, x0, D * sizeof *x0);
    return FR_OK;
}

int ff_pdm_run(ff_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm)
{
    if (t == NULL)
        return FR_ENULL;
    const int sc = fr_pdm_run_check(P, prm);
    if (sc == FR_ENULL || t->x0 == NULL || t->x == NULL || t->lam == NULL || t->P == NULL
        || t->F == NULL || t->sigma == NULL || t->Q == NULL || t->part == NULL)
        return FR_ENULL;                                   /* a zeroed trace */
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    size_t D, R, nx0, ndmax;
    if (ffi_pdm_rec_sizes(P, prm, &D, &R, &nx0, &ndmax) != FR_OK || t->T != prm->T || t->N != P->N
        || t->D != D || t->ndmax != ndmax || t->keep != prm->keep
        || (ndmax > 0 && t->draws == NULL))
        return FR_ESIZE;                                   /* initialised for another run */
    if (sc != FR_OK)
        return sc;
    ffi_pdm_trace_reset_records(t);                        /* the start (x, lam: line 2) */
    ffi_pdm_ws ws;
    int st = ffi_pdm_ws_alloc(&ws, P, prm);
    if (st != FR_OK) {
        ffi_pdm_trace_reset(t);
        return st;                                         /* FR_ENOMEM: the initial state */
    }
    st = run_rounds(t, &ws);
    if (st != FR_OK)
        ffi_pdm_trace_reset(t);                            /* the initial state */
    ffi_pdm_ws_free(&ws);
    return st;
}
