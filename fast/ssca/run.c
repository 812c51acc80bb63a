/* SPDX-License-Identifier: Apache-2.0 */
/* run.c -- ff_ssca_trace_init, ff_ssca_trace_clear, ff_ssca_run: Algorithms
 * 1-4 of 000 and the baselines of 000 Sec. VI end to end in binary64, as
 * docs/SSCA.md section 10 specifies them (contract: include/fedfast/ssca.h,
 * the records of fr_ssca_trace in include/fedref/ssca.h).  This file holds
 * the trace, the argument checks, the records, the draws, the batch pass
 * and the dispatch; the rounds are in run_sample.c (Algorithms 1-2),
 * run_feature.c (3-4) and run_sgd.c (the baselines).
 *
 * Method.  One workspace (run.h) is allocated before round 1; the round
 * loop allocates nothing:
 *   - the draws replay frng_sample (docs/RNG.md 3.3: partial Fisher-Yates
 *     on the identity, words of below(n), below(n - 1), ...) on a
 *     preallocated identity array that is restored after each draw, so
 *     they are frng_sample's indices on the same streams (checked against
 *     frng_sample itself in tests/ssca/test_run_fast.c);
 *   - a batch pass gathers its rows of Z into a contiguous chunk buffer (at
 *     most FFI_SSCA_CHUNK rows; no copy when the batch is a client's whole
 *     data, B = N_i, or the whole data set: a gradient sum does not depend
 *     on the order of its rows) and runs the network engine of
 *     net_eval.c on it: U = Z W1^T (dgemm), then O, A, C, B by dgemm,
 *     the gradient of the chunks accumulated by dgemm with beta = 1;
 *   - a batch of at most FFI_SSCA_DEFER_MAX rows leaves B = Delta^T Z to
 *     the unconstrained rounds, which form it in blocks of FFI_SSCA_TILE
 *     hidden cells and apply the step to each block in cache
 *     (ffi_ssca_grad_tile, run_sample.c);
 *   - the server step is one or two vectorised passes over d
 *     (run_sample.c), the record ||w||^2 comes out of it;
 *   - F(w^t) over all N samples (KEEP_COST) is the same pass over the
 *     contiguous rows, in chunks.
 * Measured (perf, P = 784, J = 128, L = 10, I = 10, one BLAS thread, CPU
 * time): a round of Algorithm 1 at B = 6000 runs at 0.90 of the rate of
 * cblas_dgemm alone on the same shapes; the rest is exp (one per hidden
 * entry), the gather of the batch rows and the O(d) step.
 * Numerics are ff_ssca_net's (stable swish, log-sum-exp, net_eval.c). */
#include "run.h"

/* ---- the trace -------------------------------------------------------------- */

void ff_ssca_trace_clear(ff_ssca_trace *t)
{
    if (t == NULL)
        return;
    free(t->w);
    free(t->cost);
    free(t->norm2);
    free(t->cons);
    free(t->nu);
    free(t->slack);
    free(t->branch);
    free(t->draws);
    memset(t, 0, sizeof *t);
}

/* The sizes of the records of (D, prm) after fr_ssca_run_check's FR_ENULL
 * and FR_ESIZE have passed: d, nd, T; FR_ESIZE if a record count exceeds
 * FR_COUNT_MAX. */
static int rec_sizes(const fr_ssca_data *D, const fr_ssca_params *prm, size_t *d, size_t *nd,
                     size_t *T)
{
    const int algo = prm->algo;
    *d = D->J * (D->L + D->P);                      /* run_check: no overflow */
    *T = (size_t)prm->T;
    if (fr_ssca_algo_feature(algo))
        *nd = prm->B;
    else if (algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S) {
        if (ffi_check_mn(D->nc, prm->B) != FR_OK
            || ffi_check_mn(D->nc * prm->B, (size_t)prm->E) != FR_OK)
            return FR_ESIZE;
        *nd = D->nc * prm->B * (size_t)prm->E;
    } else {
        if (ffi_check_mn(D->nc, prm->B) != FR_OK)
            return FR_ESIZE;
        *nd = D->nc * prm->B;
    }
    if (ffi_check_mn(*T, *d) != FR_OK || ffi_check_mn(*T - 1, *nd) != FR_OK)
        return FR_ESIZE;
    return FR_OK;
}

static void fill_nan(double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        x[k] = NAN;
}

/* The initial state: every value NaN, every draw SIZE_MAX, branch 0,
 * rounds 0. */
static void trace_reset(ff_ssca_trace *t)
{
    const size_t nw = (t->keep & FR_SSCA_KEEP_W) ? t->T * t->d : t->d;
    fill_nan(t->w, nw);
    fill_nan(t->cost, t->T);
    fill_nan(t->norm2, t->T);
    fill_nan(t->cons, t->T);
    fill_nan(t->nu, t->T - 1);
    fill_nan(t->slack, t->T - 1);
    for (size_t k = 0; k + 1 < t->T; k++)
        t->branch[k] = 0;
    if (t->draws)
        for (size_t k = 0; k < (t->T - 1) * t->nd; k++)
            t->draws[k] = SIZE_MAX;
    t->rounds = 0;
}

int ff_ssca_trace_init(ff_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    /* the one check of this call: fr_ssca_run_msgs makes fr_ssca_run_check;
     * its FR_ESIZE is the check's (found before the scans: the check again
     * costs O(nc)) or, when the check passes, a count beyond 64 bits: msgs 0, as ref */
    fr_ssca_round_msgs msgs = {0, 0, 0};
    int sc = fr_ssca_run_msgs(&msgs, D, prm);
    if (sc == FR_ESIZE)
        sc = fr_ssca_run_check(D, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    if (fr_ssca_algo_name(prm->algo) == NULL)
        return sc;                                         /* FR_EDOM: no records */
    size_t d, nd, T;
    if (rec_sizes(D, prm, &d, &nd, &T) != FR_OK)
        return FR_ESIZE;
    if (sc != FR_OK)
        return sc;
    ff_ssca_trace u = {0};
    u.T = T;
    u.d = d;
    u.nd = nd;
    u.algo = prm->algo;
    u.keep = prm->keep;
    const size_t nw = (prm->keep & FR_SSCA_KEEP_W) ? T * d : d;
    u.w = malloc(nw * sizeof *u.w);
    u.cost = malloc(T * sizeof *u.cost);
    u.norm2 = malloc(T * sizeof *u.norm2);
    u.cons = malloc(T * sizeof *u.cons);
    u.nu = malloc((T - 1) * sizeof *u.nu);
    u.slack = malloc((T - 1) * sizeof *u.slack);
    u.branch = malloc((T - 1) * sizeof *u.branch);
    if (prm->keep & FR_SSCA_KEEP_DRAWS)
        u.draws = malloc((T - 1) * nd * sizeof *u.draws);
    u.msgs = msgs;
    if (!u.w || !u.cost || !u.norm2 || !u.cons || !u.nu || !u.slack || !u.branch
        || ((prm->keep & FR_SSCA_KEEP_DRAWS) && !u.draws)) {
        ff_ssca_trace_clear(&u);
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    trace_reset(&u);
    *t = u;
    return FR_OK;
}

/* ---- the workspace ----------------------------------------------------------- */

static void ws_free(ffi_ssca_ws *ws)
{
    free(ws->off);
    free(ws->q);
    free(ws->U);
    free(ws->netws);
    free(ws->Zb);
    free(ws->gt);
    free(ws->yb);
    free(ws->rows);
    free(ws->rw);
    free(ws->g);
    free(ws->draw);
    free(ws->perm);
    free(ws->rng);
    memset(ws, 0, sizeof *ws);
}

/* Everything the rounds need, before round 1 (FR_ENOMEM: nothing kept). */
static int ws_alloc(ffi_ssca_ws *ws, const fr_ssca_data *D, const fr_ssca_params *prm,
                    size_t nd)
{
    memset(ws, 0, sizeof *ws);
    const int algo = prm->algo;
    ws->D = D;
    ws->prm = prm;
    ws->N = D->N;
    ws->P = D->P;
    ws->J = D->J;
    ws->L = D->L;
    ws->nc = D->nc;
    ws->LJ = D->L * D->J;
    ws->d = ws->LJ + D->J * D->P;
    ws->B = prm->B;
    ws->E = (algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S) ? (size_t)prm->E : 1;
    ws->nd = nd;
    ws->feature = fr_ssca_algo_feature(algo);
    const size_t nc = ws->nc, d = ws->d, J = ws->J, P = ws->P;
    /* rows of one pass: Algorithms 1-2 stack every client's batch */
    size_t nbmax = (algo == FR_SSCA_ALG1 || algo == FR_SSCA_ALG2) ? nc * ws->B : ws->B;
    size_t want = nbmax;
    if ((prm->keep & FR_SSCA_KEEP_COST) && ws->N > want)
        want = ws->N;
    ws->ch = want < FFI_SSCA_CHUNK ? want : FFI_SSCA_CHUNK;
    const size_t ch = ws->ch;
    size_t pmax = ws->feature ? ws->N : 0;
    ws->off = malloc((nc + 1) * sizeof *ws->off);
    ws->q = malloc(nc * sizeof *ws->q);
    ws->U = malloc(ch * J * sizeof *ws->U);
    ws->netws = malloc(ffi_ssca_net_ws_len(ch, ws->L, J) * sizeof *ws->netws);
    ws->Zb = malloc(ch * P * sizeof *ws->Zb);
    ws->gt = malloc(FFI_SSCA_TILE * P * sizeof *ws->gt);
    ws->yb = malloc(ch * sizeof *ws->yb);
    ws->rows = malloc(nbmax * sizeof *ws->rows);
    ws->rw = malloc(nbmax * sizeof *ws->rw);
    ws->g = malloc(9 * d * sizeof *ws->g);    /* g, f1, wbar, wi, vi, v, wacc, vacc, w */
    ws->draw = malloc(nd * sizeof *ws->draw);
    if (ws->off)
        for (size_t i = 0; i <= nc; i++)
            ws->off[i] = i == 0 ? 0 : ws->off[i - 1] + (ws->feature ? D->Pi : D->Ni)[i - 1];
    if (!ws->feature)
        for (size_t i = 0; i < nc; i++)
            pmax = D->Ni[i] > pmax ? D->Ni[i] : pmax;
    ws->perm = malloc(pmax * sizeof *ws->perm);
    ws->rng = malloc((ws->feature ? 1 : nc) * sizeof *ws->rng);
    if (!ws->off || !ws->q || !ws->U || !ws->netws || !ws->Zb
        || !ws->gt || !ws->yb || !ws->rows || !ws->rw || !ws->g || !ws->draw || !ws->perm
        || !ws->rng) {
        ws_free(ws);
        return FR_ENOMEM;
    }
    ws->f1 = ws->g + d;
    ws->wbar = ws->f1 + d;
    ws->wi = ws->wbar + d;
    ws->vi = ws->wi + d;
    ws->v = ws->vi + d;
    ws->wacc = ws->v + d;
    ws->vacc = ws->wacc + d;
    /* f1 (m) = 0 (SSCA), v = 0 (momentum); every other slot is written
     * before it is read, and its pages are not touched before (a run with
     * few rounds does not pay the page faults of 9 d entries) */
    if (!fr_ssca_algo_baseline(algo))
        memset(ws->f1, 0, d * sizeof *ws->f1);
    if (algo == FR_SSCA_SGDM_S || algo == FR_SSCA_SGDM_F)
        memset(ws->v, 0, d * sizeof *ws->v);
    ws->C = 0.0;
    ws->Ww = 0.0;                                      /* W_0 = 1 - P_0 */
    ws->n2 = NAN;
    if (!ws->feature)                         /* q_i = N_i / (B N) as ffi_ssca_weights */
        ffi_ssca_weights(ws->q, D->Ni, nc, ws->B, ws->N);
    if (algo == FR_SSCA_ALG1 || algo == FR_SSCA_ALG2)   /* row i B + k of a pass: q_i */
        for (size_t i = 0; i < nc; i++)
            for (size_t k = 0; k < ws->B; k++)
                ws->rw[i * ws->B + k] = ws->q[i];
    for (size_t k = 0; k < pmax; k++)
        ws->perm[k] = k;
    if (ws->feature)
        frng_init(&ws->rng[0], prm->seed, FR_SSCA_STREAM_BATCH);
    else
        for (size_t i = 0; i < nc; i++)
            frng_init(&ws->rng[i], prm->seed, FR_SSCA_STREAM_BATCH + (uint64_t)i);
    return FR_OK;
}

/* ---- the draws ---------------------------------------------------------------- */

/* k distinct indices of [0, n) into out, as frng_sample (docs/RNG.md 3.3)
 * on the identity perm[0 .. n-1], restored afterwards: the positions the
 * shuffle touched are 0 .. k-1 and the positions p >= k whose value p was
 * drawn (the first swap that touches p moves the value p into the final
 * prefix). */
static void sample(frng_t *g, size_t *perm, size_t n, size_t k, size_t *out)
{
    for (size_t m = 0; m < k; m++) {
        uint64_t r;
        (void)frng_below(g, (uint64_t)(n - m), &r);   /* n - m >= 1: cannot fail */
        size_t j = m + (size_t)r, x = perm[m];
        perm[m] = perm[j];
        perm[j] = x;
        out[m] = perm[m];
    }
    for (size_t m = 0; m < k; m++) {
        perm[m] = m;
        if (out[m] >= k)
            perm[out[m]] = out[m];
    }
}

void ffi_ssca_draw_round(ffi_ssca_ws *ws)
{
    if (ws->feature) {
        sample(&ws->rng[0], ws->perm, ws->N, ws->B, ws->draw);
        return;
    }
    const size_t k = ws->E * ws->B;
    for (size_t i = 0; i < ws->nc; i++)
        sample(&ws->rng[i], ws->perm, ws->D->Ni[i], k, ws->draw + i * k);
}

/* ---- the batch pass ----------------------------------------------------------- */

int ffi_ssca_pass(ffi_ssca_ws *ws, const double *w, const size_t *rows, size_t row0,
                  size_t nrows, const double *rw, int defer, double *f, double *g)
{
    const fr_ssca_data *D = ws->D;
    const size_t P = ws->P, J = ws->J, L = ws->L, ch = ws->ch;
    const double *w1 = w + ws->LJ;
    double *A = g, *Bm = g ? g + ws->LJ : NULL;
    ws->deferred = 0;
    if (defer && g && nrows <= ch && nrows <= FFI_SSCA_DEFER_MAX) {
        ws->deferred = 1;                      /* one chunk: B left to the caller's tiles */
        Bm = NULL;
    }
    for (size_t c0 = 0; c0 < nrows; c0 += ch) {
        const size_t nb = nrows - c0 < ch ? nrows - c0 : ch;
        const double *Zc;
        const size_t *yc;
        if (rows) {                                         /* gather */
            for (size_t k = 0; k < nb; k++) {
                memcpy(ws->Zb + k * P, D->Z + rows[c0 + k] * P, P * sizeof *ws->Zb);
                ws->yb[k] = D->y[rows[c0 + k]];
            }
            Zc = ws->Zb;
            yc = ws->yb;
        } else {
            Zc = D->Z + (row0 + c0) * P;
            yc = D->y + row0 + c0;
        }
        ffi_ssca_gemm(0, 1, nb, J, P, Zc, P, w1, P, ws->U, J);              /* U = Z W1^T */
        const unsigned fl = (c0 > 0 ? FFI_NET_ACC : 0u) | (ws->deferred ? FFI_NET_DELTA : 0u)
                            | FFI_NET_NOSCAN;
        int st = ffi_ssca_net_eval_ws(f, A, Bm, ws->U, w, yc, Zc, rw ? rw + c0 : NULL, fl,
                                      nb, L, J, P, ws->netws);
        if (st != FR_OK)
            return st;
        ws->Zc = Zc;
        ws->nbc = nb;
    }
    return FR_OK;
}

void ffi_ssca_grad_tile(ffi_ssca_ws *ws, size_t j0, size_t jt)
{
    const double *Dl = ffi_ssca_net_ws_delta(ws->netws, ws->nbc, ws->L, ws->J);
    ffi_ssca_gemm(1, 0, jt, ws->P, ws->nbc, Dl + j0, ws->J, ws->Zc, ws->P, ws->gt, ws->P);
}

/* ---- the run -------------------------------------------------------------------- */

/* ||x||^2 in 8 partial sums (vectorised; FFI_VERSIONS). */
FFI_INLINE double sumsq_body(const double *restrict x, size_t n)
{
    double a[8] = {0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (size_t l = 0; l < 8; l++)
            a[l] += x[j + l] * x[j + l];
    for (size_t l = 0; j < n; j++, l++)
        a[l] += x[j] * x[j];
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

FFI_VERSIONS(double, sumsq, (const double *restrict x, size_t n), (x, n))

double ffi_ssca_sumsq(const double *x, size_t n)
{
    return sumsq(x, n);
}

/* The records of the point w^t (t = 1 .. T): cost, norm2, cons. */
static int record_point(ff_ssca_trace *t, ffi_ssca_ws *ws, const double *w, size_t tt,
                        double n2)
{
    const fr_ssca_params *prm = ws->prm;
    t->norm2[tt - 1] = n2;
    if (prm->keep & FR_SSCA_KEEP_COST) {
        double f;
        int st = ffi_ssca_pass(ws, w, NULL, 0, ws->N, NULL, 0, &f, NULL);
        if (st != FR_OK)
            return st;
        const double F = f / (double)ws->N;               /* (28), the mean */
        t->cost[tt - 1] = F;
        if (fr_ssca_algo_constrained(prm->algo))
            t->cons[tt - 1] = F - prm->U;
    }
    if (prm->keep & FR_SSCA_KEEP_W)
        memcpy(t->w + (tt - 1) * ws->d, w, ws->d * sizeof *w);
    return FR_OK;
}

static int run_rounds(ff_ssca_trace *t, ffi_ssca_ws *ws, double *w)
{
    const fr_ssca_params *prm = ws->prm;
    const int algo = prm->algo;
    int st = FR_OK;
    double n2 = sumsq(w, ws->d);
    for (unsigned long r = 1; r < prm->T; r++) {
        if ((st = record_point(t, ws, w, r, n2)) != FR_OK)
            return st;
        ffi_ssca_draw_round(ws);
        if (t->draws)
            memcpy(t->draws + (r - 1) * ws->nd, ws->draw, ws->nd * sizeof *ws->draw);
        double nu = NAN, slack = NAN;
        int br = 0;
        if (algo == FR_SSCA_ALG1 || algo == FR_SSCA_ALG2)
            st = ffi_ssca_round_sample(ws, w, r, &nu, &slack, &br);
        else if (algo == FR_SSCA_ALG3 || algo == FR_SSCA_ALG4)
            st = ffi_ssca_round_feature(ws, w, r, &nu, &slack, &br);
        else
            st = ffi_ssca_round_sgd(ws, w, r);
        if (st != FR_OK)
            return st;
        n2 = isnan(ws->n2) ? sumsq(w, ws->d) : ws->n2;
        ws->n2 = NAN;
        if (!isfinite(n2) && !ffi_all_finite(w, ws->d))
            return FR_ENONFINITE;                          /* a binary64 overflow */
        if (fr_ssca_algo_constrained(algo)) {
            t->nu[r - 1] = nu;
            t->slack[r - 1] = slack;
            t->branch[r - 1] = br;
        }
        t->rounds = r;
    }
    if ((st = record_point(t, ws, w, prm->T, n2)) != FR_OK)
        return st;
    if (!(prm->keep & FR_SSCA_KEEP_W))
        memcpy(t->w, w, ws->d * sizeof *w);
    return FR_OK;
}

int ff_ssca_run(ff_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    if (t == NULL)
        return FR_ENULL;
    const int sc = fr_ssca_run_check(D, prm);
    if (sc == FR_ENULL || t->w == NULL || t->cost == NULL || t->norm2 == NULL
        || t->cons == NULL || t->nu == NULL || t->slack == NULL || t->branch == NULL)
        return FR_ENULL;                                   /* a zeroed trace */
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    if (fr_ssca_algo_name(prm->algo) == NULL)
        return sc;                                         /* FR_EDOM */
    size_t d, nd, T;
    if (rec_sizes(D, prm, &d, &nd, &T) != FR_OK || t->d != d || t->nd != nd || t->T != T
        || t->keep != prm->keep || t->algo != prm->algo
        || ((prm->keep & FR_SSCA_KEEP_DRAWS) && t->draws == NULL))
        return FR_ESIZE;                                   /* initialised for another run */
    if (sc != FR_OK)
        return sc;
    trace_reset(t);
    ffi_ssca_ws ws;
    int st = ws_alloc(&ws, D, prm, nd);
    if (st != FR_OK)
        return st;
    double *w = ws.vacc + d;                               /* the server point: slot 9 */
    memcpy(w, prm->w1, d * sizeof *w);
    st = run_rounds(t, &ws, w);                            /* msgs: from trace_init */
    if (st != FR_OK)
        trace_reset(t);                                    /* the initial state */
    ws_free(&ws);
    return st;
}
