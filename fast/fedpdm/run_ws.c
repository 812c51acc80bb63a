/* SPDX-License-Identifier: Apache-2.0 */
/* run_ws.c -- the workspace of ff_pdm_run (run.h) and the replay of the
 * draws.  Everything a run needs is allocated here, once, before round 0.
 * The draws: frng_sample allocates an n-entry identity at every call; the
 * run replays its partial Fisher-Yates shuffle (docs/RNG.md 3.3: words of
 * below(n), below(n - 1), ...) on one preallocated identity of max(N,
 * max_i d_i) entries restored after each draw (as fast/ssca/run.c), so the
 * indices are frng_sample's on the same streams (checked against
 * frng_sample in tests/fedpdm/test_run_fast.c). */
#include "run.h"
#include "model.h"

void ffi_pdm_ws_free(ffi_pdm_ws *ws)
{
    free(ws->off);
    free(ws->x0);
    free(ws->yt);
    free(ws->xr);
    free(ws->g);
    free(ws->Rm);
    free(ws->Ab);
    free(ws->yb);
    free(ws->batch);
    free(ws->perm);
    free(ws->sel);
    free(ws->in);
    free(ws->c);
    free(ws->rng);
    memset(ws, 0, sizeof *ws);
}

int ffi_pdm_ws_alloc(ffi_pdm_ws *ws, const fr_pdm_problem *P, const fr_pdm_params *prm)
{
    memset(ws, 0, sizeof *ws);
    ws->P = P;
    ws->prm = prm;
    ws->N = P->N;
    ws->m = P->m;
    ws->n = P->n;
    ws->D = P->m * P->n;
    for (size_t i = 0; i < P->N; i++)
        ws->dmax = P->d[i] > ws->dmax ? P->d[i] : ws->dmax;
    const size_t N = ws->N, D = ws->D, b = prm->b;
    const size_t np = N > ws->dmax ? N : ws->dmax;
    ws->off = malloc((N + 1) * sizeof *ws->off);
    ws->x0 = malloc(D * sizeof *ws->x0);
    ws->yt = malloc(N * D * sizeof *ws->yt);
    ws->xr = malloc(D * sizeof *ws->xr);
    ws->g = malloc(D * sizeof *ws->g);
    if (FFI_PDM_GRAD_DGEMM) {
        ws->Rm = malloc(ws->dmax * ws->m * sizeof *ws->Rm);   /* b <= dmax; (21): d_j rows */
        ws->Ab = malloc(b * ws->n * sizeof *ws->Ab);
        ws->yb = malloc(b * sizeof *ws->yb);
    }
    ws->batch = malloc(b * sizeof *ws->batch);
    ws->perm = malloc(np * sizeof *ws->perm);
    ws->sel = malloc(prm->K * sizeof *ws->sel);
    ws->in = malloc(N);
    ws->c = malloc(D * sizeof *ws->c);
    ws->rng = malloc((1 + 2 * N) * sizeof *ws->rng);
    if (!ws->off || !ws->x0 || !ws->yt || !ws->xr || !ws->g || !ws->batch
        || !ws->perm || !ws->sel || !ws->in || !ws->c || !ws->rng
        || (FFI_PDM_GRAD_DGEMM && (!ws->Rm || !ws->Ab || !ws->yb))) {
        ffi_pdm_ws_free(ws);
        return FR_ENOMEM;
    }
    ws->off[0] = 0;
    for (size_t i = 0; i < N; i++)
        ws->off[i + 1] = ws->off[i] + P->d[i];
    for (size_t k = 0; k < np; k++)
        ws->perm[k] = k;
    frng_init(&ws->rng[0], prm->seed, FR_PDM_STREAM_SELECT);
    for (size_t i = 0; i < N; i++) {
        frng_init(&ws->rng[1 + i], prm->seed, FR_PDM_STREAM_BATCH + (uint64_t)i);
        frng_init(&ws->rng[1 + N + i], prm->seed, FR_PDM_STREAM_NOISE + (uint64_t)i);
    }
    return FR_OK;
}

/* The positions the shuffle touched are 0 .. k-1 and the positions p >= k
 * whose value p was drawn (the first swap that touches p moves the value p
 * into the final prefix): restoring those restores the identity. */
void ffi_pdm_sample(frng_t *g, size_t *perm, size_t n, size_t k, size_t *out)
{
    for (size_t j = 0; j < k; j++) {
        uint64_t r;
        (void)frng_below(g, (uint64_t)(n - j), &r);   /* n - j >= 1: cannot fail */
        size_t p = j + (size_t)r, x = perm[j];
        perm[j] = perm[p];
        perm[p] = x;
        out[j] = perm[j];
    }
    for (size_t j = 0; j < k; j++) {
        perm[j] = j;
        if (out[j] >= k)
            perm[out[j]] = out[j];
    }
}
