/* SPDX-License-Identifier: Apache-2.0 */
/* run.c -- fr_ssca_run and its trace: Algorithms 1-4 of 000 and the
 * baselines of 000 Sec. VI end to end (docs/SSCA.md section 10): the
 * trace (init, clear, the reset state), the argument checks
 * (fr_ssca_run_check plus the trace's), the run's context, the draws
 * (docs/RNG.md 3.9), the records of each point w^(t) (F(w^(t)) of (28),
 * ||w^(t)||^2, F - U) and the dispatch to the rounds of run_sample.c,
 * run_feature.c and run_sgd.c.  Contract: include/fedref/ssca.h. */
#include <stdlib.h>
#include <string.h>
#include "run.h"

#define PARAM_PREC 53                  /* binary64 parameters and data are read exactly */

/* ---- the trace ------------------------------------------------------------ */

/* Rows of w: T with KEEP_W, else 1. */
static size_t w_rows(const fr_ssca_trace *t)
{
    return (t->keep & FR_SSCA_KEEP_W) ? t->T : 1;
}

void fr_ssca_trace_clear(fr_ssca_trace *t)
{
    if (t == NULL)
        return;
    if (t->T > 0) {
        fri_vec_free(t->w, w_rows(t) * t->d);
        fri_vec_free(t->cost, t->T);
        fri_vec_free(t->norm2, t->T);
        fri_vec_free(t->cons, t->T);
        fri_vec_free(t->nu, t->T - 1);
        fri_vec_free(t->slack, t->T - 1);
    }
    free(t->branch);
    free(t->draws);
    memset(t, 0, sizeof *t);
}

/* The reset state (fedref_common.h, rule 3): every value NaN, every draw
 * SIZE_MAX, branch 0, rounds 0; msgs keeps the counts trace_init gave. */
static void trace_reset(fr_ssca_trace *t)
{
    for (size_t k = 0; k < w_rows(t) * t->d; k++)
        mpfr_set_nan(t->w[k]);
    for (size_t k = 0; k < t->T; k++) {
        mpfr_set_nan(t->cost[k]);
        mpfr_set_nan(t->norm2[k]);
        mpfr_set_nan(t->cons[k]);
    }
    for (size_t k = 0; k + 1 < t->T; k++) {
        mpfr_set_nan(t->nu[k]);
        mpfr_set_nan(t->slack[k]);
        t->branch[k] = 0;
    }
    if (t->draws != NULL)
        for (size_t k = 0; k < (t->T - 1) * t->nd; k++)
            t->draws[k] = SIZE_MAX;
    t->rounds = 0;
}

size_t fri_ssca_run_nd(const fr_ssca_data *D, const fr_ssca_params *prm)
{
    switch (prm->algo) {
    case FR_SSCA_ALG1: case FR_SSCA_ALG2:
        return D->nc * prm->B;
    case FR_SSCA_SGD_S: case FR_SSCA_SGDM_S:
        return D->nc * (size_t)prm->E * prm->B;
    case FR_SSCA_ALG3: case FR_SSCA_ALG4: case FR_SSCA_SGD_F: case FR_SSCA_SGDM_F:
        return prm->B;
    default:
        return 0;
    }
}

/* The record counts of a trace for checked sizes and a known algo:
 * FR_ESIZE if T d, nc B (E) or (T - 1) nd is above FR_COUNT_MAX (T d is
 * checked with or without KEEP_W, as fast does). */
static int trace_sizes(const fr_ssca_data *D, const fr_ssca_params *prm, size_t *d, size_t *nd)
{
    if (fr_ssca_net_dim(D->L, D->J, D->P, d) != FR_OK)
        return FR_ESIZE;
    const size_t T = (size_t)prm->T;
    if (prm->algo == FR_SSCA_SGD_S || prm->algo == FR_SSCA_SGDM_S) {
        if (D->nc > FR_COUNT_MAX / prm->B || D->nc * prm->B > FR_COUNT_MAX / prm->E)
            return FR_ESIZE;
    } else if (D->nc > FR_COUNT_MAX / prm->B) {
        return FR_ESIZE;
    }
    *nd = fri_ssca_run_nd(D, prm);
    if (T > FR_COUNT_MAX / *d || T - 1 > FR_COUNT_MAX / *nd)
        return FR_ESIZE;
    return FR_OK;
}

int fr_ssca_trace_init(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm,
                       mpfr_prec_t prec)
{
    /* the one check of this call: fr_ssca_run_msgs makes fr_ssca_run_check;
     * its FR_ESIZE is the check's (found before the scans: the check again
     * costs O(nc)) or, when the check passes, a count beyond 64 bits: msgs 0 */
    fr_ssca_round_msgs msgs = {0, 0, 0};
    int sc = fr_ssca_run_msgs(&msgs, D, prm);
    if (sc == FR_ESIZE)
        sc = fr_ssca_run_check(D, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    size_t d = 0, nd = 0;
    /* an unknown algo has no records: its FR_EDOM after the precision */
    const int known = fr_ssca_algo_name(prm->algo) != NULL;
    if (known && trace_sizes(D, prm, &d, &nd) != FR_OK)
        return FR_ESIZE;
    if (prec < MPFR_PREC_MIN || prec > FR_PREC_MAX)
        return FR_EPREC;
    if (sc != FR_OK)
        return sc;
    fr_ssca_trace u;
    memset(&u, 0, sizeof u);
    u.msgs = msgs;
    u.T = (size_t)prm->T;
    u.d = d;
    u.nd = nd;
    u.algo = prm->algo;
    u.keep = prm->keep;
    u.w = fri_vec_new(w_rows(&u) * d, prec);
    u.cost = fri_vec_new(u.T, prec);
    u.norm2 = fri_vec_new(u.T, prec);
    u.cons = fri_vec_new(u.T, prec);
    u.nu = fri_vec_new(u.T - 1, prec);
    u.slack = fri_vec_new(u.T - 1, prec);
    u.branch = calloc(u.T - 1, sizeof *u.branch);
    if ((prm->keep & FR_SSCA_KEEP_DRAWS) != 0)
        u.draws = malloc((u.T - 1) * nd * sizeof *u.draws);
    if (u.w == NULL || u.cost == NULL || u.norm2 == NULL || u.cons == NULL || u.nu == NULL
        || u.slack == NULL || u.branch == NULL
        || ((prm->keep & FR_SSCA_KEEP_DRAWS) != 0 && u.draws == NULL)) {
        fr_ssca_trace_clear(&u);       /* vec_free ignores the NULL ones */
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    trace_reset(&u);
    *t = u;
    return FR_OK;
}

/* ---- argument checks -------------------------------------------------------
 * Class order: fr_ssca_run_check's classes at their places, a zeroed
 * trace with FR_ENULL, a trace initialised for another run (d, T, nd,
 * keep or algo differ: the records are the algorithm's) with FR_ESIZE;
 * an unknown algo is fr_ssca_run_check's FR_EDOM (no records to compare),
 * as in fast.  Writes nothing. */
static int run_args(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    const int sc = fr_ssca_run_check(D, prm);
    if (sc == FR_ENULL || t == NULL || t->w == NULL || t->cost == NULL || t->norm2 == NULL
        || t->cons == NULL || t->nu == NULL || t->slack == NULL || t->branch == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE)
        return FR_ESIZE;
    if (fr_ssca_algo_name(prm->algo) == NULL)
        return sc;                         /* FR_EDOM (or FR_ENONFINITE first): no records */
    size_t d = 0, nd = 0;
    if (trace_sizes(D, prm, &d, &nd) != FR_OK || t->d != d || t->nd != nd
        || t->T != (size_t)prm->T || t->keep != prm->keep || t->algo != prm->algo
        || ((t->keep & FR_SSCA_KEEP_DRAWS) != 0 && t->draws == NULL))
        return FR_ESIZE;                   /* initialised for another run */
    return sc;
}

/* ---- the context ---------------------------------------------------------- */

static size_t max_pi(const fr_ssca_data *D)
{
    size_t m = 0;
    for (size_t i = 0; i < D->nc; i++)
        if (D->Pi[i] > m)
            m = D->Pi[i];
    return m;
}

/* Rows of Z held as mpfr_t: all N for the cost record F(w^t) (KEEP_COST,
 * one fr_ssca_net over every sample), else none (a round converts only its
 * batch rows, fri_ssca_gather: the set-up stays O(d), not O(N P)). */
static size_t zrows(const fri_ssca_run_ctx *c)
{
    return (c->prm->keep & FR_SSCA_KEEP_COST) ? c->D->N : 0;
}

static void ctx_free(fri_ssca_run_ctx *c)
{
    const fr_ssca_data *D = c->D;
    const size_t d = c->d, nc = c->nc, pm = c->feature ? max_pi(D) : 0;
    const int sgd_s = c->prm->algo == FR_SSCA_SGD_S || c->prm->algo == FR_SSCA_SGDM_S;
    fri_vec_free(c->w, d);
    fri_vec_free(c->f1, d);
    fri_vec_free(c->beta, d);
    fri_vec_free(c->wbar, d);
    fri_vec_free(c->v, d);
    fri_vec_free(c->G, c->feature ? d : nc * d);
    fri_vec_free(c->F, nc);
    fri_vec_free(c->wi, sgd_s ? nc * d : 0);
    fri_vec_free(c->vi, sgd_s ? nc * d : 0);
    fri_vec_free(c->Z, zrows(c) * D->P);
    fri_vec_free(c->Zb, c->nb * D->P);
    fri_vec_free(c->H, c->feature ? nc * c->nb * D->J : 0);
    fri_vec_free(c->w1i, D->J * pm);
    fri_vec_free(c->Bi, D->J * pm);
    fri_vec_free(c->Zi, c->nb * pm);
    fri_vec_free(c->ex, c->nex);
    free(c->yb);
    free(c->off);
    free(c->draw);
    free(c->rng);
    free(c->ptr);
    mpfr_clears(c->tau, c->lambda, c->U, c->c, c->mom, c->rho, c->gamma, c->r, c->Wm, c->C,
                c->nu, c->s, c->tw, c->fsum, (mpfr_ptr)0);
    memset(c, 0, sizeof *c);
}

/* Every temporary of the run, for checked arguments; FR_ENOMEM (nothing
 * to clear) or FR_OK. */
static int ctx_init(fri_ssca_run_ctx *c, fr_ssca_trace *t, const fr_ssca_data *D,
                    const fr_ssca_params *prm)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    c->D = D;
    c->prm = prm;
    c->p = mpfr_get_prec(t->norm2[0]);
    c->d = t->d;
    c->LJ = D->L * D->J;
    c->nc = D->nc;
    c->B = prm->B;
    c->nd = t->nd;
    c->nb = prm->B;
    c->feature = fr_ssca_algo_feature(prm->algo);
    const mpfr_prec_t p = c->p;
    const size_t d = c->d, nc = c->nc, pm = c->feature ? max_pi(D) : 0;
    const int sgd_s = prm->algo == FR_SSCA_SGD_S || prm->algo == FR_SSCA_SGDM_S;
    mpfr_inits2(PARAM_PREC, c->tau, c->lambda, c->U, c->c, c->mom, (mpfr_ptr)0);
    mpfr_inits2(p, c->rho, c->gamma, c->r, c->Wm, c->C, c->nu, c->s, c->fsum, (mpfr_ptr)0);
    mpfr_init2(c->tw, MPFR_PREC_MIN);
    c->w = fri_vec_new(d, p);
    c->f1 = fri_vec_new(d, p);
    c->beta = fri_vec_new(d, p);
    c->wbar = fri_vec_new(d, p);
    c->v = fri_vec_new(d, p);
    c->G = fri_vec_new(c->feature ? d : nc * d, p);
    c->F = fri_vec_new(nc, p);
    c->wi = fri_vec_new(sgd_s ? nc * d : 0, p);
    c->vi = fri_vec_new(sgd_s ? nc * d : 0, p);
    c->Z = fri_vec_new(zrows(c) * D->P, PARAM_PREC);      /* all of Z only for the cost */
    c->Zb = fri_vec_new(c->nb * D->P, PARAM_PREC);
    c->H = fri_vec_new(c->feature ? nc * c->nb * D->J : 0, p);
    c->w1i = fri_vec_new(D->J * pm, p);
    c->Bi = fri_vec_new(D->J * pm, p);
    c->Zi = fri_vec_new(c->nb * pm, PARAM_PREC);
    c->nex = (d > nc ? d : nc) + 4;
    c->ex = fri_vec_new(c->nex, MPFR_PREC_MIN);
    c->yb = malloc(c->nb * sizeof *c->yb);
    c->off = malloc(nc * sizeof *c->off);
    c->draw = malloc(c->nd * sizeof *c->draw);
    c->rng = malloc(nc * sizeof *c->rng);
    c->ptr = malloc(c->nex * sizeof *c->ptr);
    if (c->w == NULL || c->f1 == NULL || c->beta == NULL || c->wbar == NULL || c->v == NULL
        || c->G == NULL || c->F == NULL || c->wi == NULL || c->vi == NULL || c->Z == NULL
        || c->Zb == NULL || c->H == NULL || c->w1i == NULL || c->Bi == NULL || c->Zi == NULL
        || c->ex == NULL || c->yb == NULL || c->off == NULL || c->draw == NULL
        || c->rng == NULL || c->ptr == NULL) {
        ctx_free(c);
        return FR_ENOMEM;
    }
    mpfr_set_d(c->tau, prm->tau, MPFR_RNDN);       /* exact (NaN-free: checked) */
    mpfr_set_d(c->lambda, prm->lambda, MPFR_RNDN);
    mpfr_set_d(c->U, prm->U, MPFR_RNDN);
    mpfr_set_d(c->c, prm->c, MPFR_RNDN);
    mpfr_set_d(c->mom, prm->mom, MPFR_RNDN);
    for (size_t k = 0; k < zrows(c) * D->P; k++)
        mpfr_set_d(c->Z[k], D->Z[k], MPFR_RNDN);   /* exact */
    const size_t *part = c->feature ? D->Pi : D->Ni;
    for (size_t i = 0, o = 0; i < nc; i++) {
        c->off[i] = o;
        o += part[i];
    }
    if (c->feature)
        frng_init(&c->rng[0], prm->seed, FR_SSCA_STREAM_BATCH);
    else
        for (size_t i = 0; i < nc; i++)
            frng_init(&c->rng[i], prm->seed, FR_SSCA_STREAM_BATCH + (uint64_t)i);
    return FR_OK;
}

/* ---- draws and batches ---------------------------------------------------- */

int fri_ssca_draw(fri_ssca_run_ctx *c, size_t t)
{
    int st = FR_OK;
    if (c->feature) {
        st = frng_sample(&c->rng[0], c->D->N, c->B, c->draw);
    } else {
        const size_t k = c->nd / c->nc;            /* B, or E B */
        for (size_t i = 0; i < c->nc && st == FR_OK; i++)
            st = frng_sample(&c->rng[i], c->D->Ni[i], k, c->draw + i * k);
    }
    if (st == FR_OK && c->t->draws != NULL)
        memcpy(c->t->draws + (t - 1) * c->nd, c->draw, c->nd * sizeof *c->draw);
    return st;
}

void fri_ssca_gather(fri_ssca_run_ctx *c, size_t off, const size_t *idx, size_t nb)
{
    const size_t P = c->D->P;
    for (size_t n = 0; n < nb; n++) {
        const size_t g = off + idx[n];
        for (size_t p = 0; p < P; p++)
            mpfr_set_d(c->Zb[n * P + p], c->D->Z[g * P + p], MPFR_RNDN);   /* exact: 53 bits */
        c->yb[n] = c->D->y[g];
    }
}

/* ---- records ---------------------------------------------------------------
 * Point t (1 .. T): w^(t) into its row, ||w^(t)||^2 (exact squares, one
 * rounding), F(w^(t)) = (1/N) sum_n loss_n over all N samples (28)
 * (fr_ssca_net at p, then one division at p) and F - U (Algorithms 2, 4). */
static int record(fri_ssca_run_ctx *c, size_t t)
{
    fr_ssca_trace *tr = c->t;
    const fr_ssca_data *D = c->D;
    const size_t d = c->d;
    mpfr_t *row = (tr->keep & FR_SSCA_KEEP_W) ? tr->w + (t - 1) * d : tr->w;
    int st = FR_OK;
    for (size_t j = 0; j < d; j++)
        mpfr_set(row[j], c->w[j], MPFR_RNDN);      /* exact: same precision */
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        st = fri_mul_exact(c->ex[j], c->w[j], c->w[j]);
        c->ptr[j] = c->ex[j];
    }
    if (st != FR_OK)
        return st;
    mpfr_sum(tr->norm2[t - 1], c->ptr, d, MPFR_RNDN);
    if (!mpfr_number_p(tr->norm2[t - 1]))
        return FR_ENONFINITE;                      /* beyond MPFR's exponent range */
    if ((tr->keep & FR_SSCA_KEEP_COST) != 0) {
        if ((st = fr_ssca_net(c->fsum, NULL, c->w, D->L, D->J, D->P, c->Z, D->y, D->N)) != FR_OK)
            return st;
        mpfr_div_ui(tr->cost[t - 1], c->fsum, (unsigned long)D->N, MPFR_RNDN);
        if (fr_ssca_algo_constrained(c->prm->algo))
            mpfr_sub(tr->cons[t - 1], tr->cost[t - 1], c->U, MPFR_RNDN);
        if (!mpfr_number_p(tr->cost[t - 1])
            || (fr_ssca_algo_constrained(c->prm->algo) && !mpfr_number_p(tr->cons[t - 1])))
            return FR_ENONFINITE;
    }
    return FR_OK;
}

/* x = a t^-alpha at p: t^-alpha correctly rounded (mpfr_pow of the exact
 * t and the binary64 alpha), then the product with a rounded once.  For
 * 0 < a <= 1 and alpha >= 0 the result is in (0, 1] (monotone rounding). */
static void schedule(mpfr_ptr x, double a, double alpha, size_t t)
{
    mpfr_t tt, ma;
    mpfr_init2(tt, 64);
    mpfr_init2(ma, PARAM_PREC);
    mpfr_set_ui(tt, (unsigned long)t, MPFR_RNDN);  /* exact: t <= FR_SSCA_T_MAX */
    mpfr_set_d(ma, -alpha, MPFR_RNDN);             /* exact */
    mpfr_pow(x, tt, ma, MPFR_RNDN);
    mpfr_set_d(ma, a, MPFR_RNDN);
    mpfr_mul(x, x, ma, MPFR_RNDN);
    mpfr_clears(tt, ma, (mpfr_ptr)0);
}

/* ---- the run ---------------------------------------------------------------- */

int fr_ssca_run(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    int st = run_args(t, D, prm);
    if (st != FR_OK)
        return st;                                 /* argument error: t untouched */
    fri_ssca_run_ctx c;
    trace_reset(t);
    if ((st = ctx_init(&c, t, D, prm)) != FR_OK)
        return st;                                 /* FR_ENOMEM: t in its reset state */
    const size_t d = c.d, T = (size_t)prm->T;
    const int algo = prm->algo;
    for (size_t j = 0; j < d; j++) {
        mpfr_set_d(c.w[j], prm->w1[j], MPFR_RNDN); /* w^(1) at p */
        mpfr_set_ui(c.f1[j], 0, MPFR_RNDN);        /* f1^(0) = 0 */
        mpfr_set_ui(c.beta[j], 0, MPFR_RNDN);      /* beta^(0) = 0 */
        mpfr_set_ui(c.v[j], 0, MPFR_RNDN);         /* v = 0 at t = 1 */
    }
    mpfr_set_ui(c.Wm, 0, MPFR_RNDN);               /* W_0 = 1 - P_0 = 0 */
    mpfr_set_ui(c.C, 0, MPFR_RNDN);                /* C^(0) = 0 */
    for (size_t r = 1; r < T && st == FR_OK; r++) {
        if ((st = record(&c, r)) != FR_OK)
            break;
        if (fr_ssca_algo_baseline(algo)) {
            schedule(c.r, prm->lr_a, prm->lr_alpha, r);
            st = fri_ssca_round_sgd(&c, r);
        } else {
            schedule(c.rho, prm->a1, prm->alpha1, r);
            schedule(c.gamma, prm->a2, prm->alpha2, r);
            st = c.feature ? fri_ssca_round_feature(&c, r) : fri_ssca_round_sample(&c, r);
        }
        /* a rounding to p beyond MPFR's exponent range gives an infinity
         * without a status: FR_ENONFINITE (fedref/ssca.h) */
        if (st == FR_OK && (!fri_finite(c.w, d) || !fri_finite(c.v, d)))
            st = FR_ENONFINITE;
        if (st == FR_OK)
            t->rounds = r;
    }
    if (st == FR_OK)
        st = record(&c, T);
    if (st != FR_OK)
        trace_reset(t);                            /* after the start: the reset state */
    ctx_free(&c);
    return st;
}
