/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgd.c -- one round of the baselines of 000 Sec. VI on (32)
 * (docs/SSCA.md section 10), with r = r^(t) and the batch-mean gradient
 * g/B + 2 lambda w:
 *   SGD_S   each client i starts from w^(t) and runs E local steps
 *           w_i <- w_i - r (G_i/B + 2 lambda w_i) on its E disjoint batches
 *           (the entries e B .. e B + B - 1 of its frng_sample(Ni, E B));
 *           w^(t+1) = sum_i (Ni/N) w_i.  E = 1 FedSGD, E > 1 PR-SGD, E B = Ni
 *           FedAvg.
 *   SGDM_S  the same from (w^(t), v^(t)) with v_i <- mom v_i + (G_i/B +
 *           2 lambda w_i), w_i <- w_i - r v_i (000's [7]); the server
 *           averages both with weights Ni/N (v^(1) = 0).
 *   SGD_F   w <- w - r (g/B + 2 lambda w), g collected as in Algorithm 3.
 *   SGDM_F  v <- mom v + (g/B + 2 lambda w), w <- w - r v.
 * Each assignment is its exact right-hand side (of the values at p)
 * rounded once to the working precision p.  Contract: include/fedref/ssca.h. */
#include "run.h"

typedef struct {
    mpfr_t Bm;          /* B, exact */
    mpfr_t lB2;         /* 2 lambda B, exact */
    mpfr_t a, b, e;     /* exact temporaries */
} sgd_tmp;

static void tmp_init(sgd_tmp *s, const fri_ssca_run_ctx *c)
{
    mpfr_init2(s->Bm, 64);
    mpfr_set_ui(s->Bm, (unsigned long)c->B, MPFR_RNDN);            /* exact */
    mpfr_init2(s->lB2, 64 + 64);
    mpfr_mul(s->lB2, c->lambda, s->Bm, MPFR_RNDN);                  /* exact: 53 + 64 bits */
    mpfr_mul_2ui(s->lB2, s->lB2, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, s->a, s->b, s->e, (mpfr_ptr)0);
}

static void tmp_clear(sgd_tmp *s)
{
    mpfr_clears(s->Bm, s->lB2, s->a, s->b, s->e, (mpfr_ptr)0);
}

/* n = B x + g + 2 lambda B x' where ... : the exact gradient numerator
 * B (g/B + 2 lambda x) = g + 2 lambda B x into s->e. */
static int grad_num(sgd_tmp *s, mpfr_srcptr g, mpfr_srcptr x)
{
    int st = fri_mul_exact(s->a, s->lB2, x);
    return st != FR_OK ? st : fri_add_exact(s->e, g, s->a);
}

/* SGD: x <- RN(x - r (g/B + 2 lambda x)) = RN((B x - r n) / B), n = grad_num,
 * entrywise (x updated in place). */
static int sgd_step(const fri_ssca_run_ctx *c, sgd_tmp *s, mpfr_t *x, mpfr_t *const g)
{
    int st = FR_OK;
    for (size_t j = 0; j < c->d && st == FR_OK; j++) {
        if ((st = grad_num(s, g[j], x[j])) == FR_OK
            && (st = fri_mul_exact(s->a, c->r, s->e)) == FR_OK
            && (st = fri_mul_exact(s->b, s->Bm, x[j])) == FR_OK
            && (st = fri_sub_exact(s->e, s->b, s->a)) == FR_OK)
            mpfr_div(x[j], s->e, s->Bm, MPFR_RNDN);
    }
    return st;
}

/* SGD-m: v <- RN((mom B v + n) / B), then x <- RN(x - r v) with the new
 * (rounded) v, entrywise. */
static int sgdm_step(const fri_ssca_run_ctx *c, sgd_tmp *s, mpfr_t *x, mpfr_t *v,
                     mpfr_t *const g)
{
    int st = FR_OK;
    for (size_t j = 0; j < c->d && st == FR_OK; j++) {
        if ((st = grad_num(s, g[j], x[j])) == FR_OK
            && (st = fri_mul_exact(s->a, c->mom, v[j])) == FR_OK
            && (st = fri_mul_exact(s->b, s->a, s->Bm)) == FR_OK
            && (st = fri_add_exact(s->a, s->b, s->e)) == FR_OK) {
            mpfr_div(v[j], s->a, s->Bm, MPFR_RNDN);
            if ((st = fri_mul_exact(s->a, c->r, v[j])) == FR_OK
                && (st = fri_sub_exact(s->b, x[j], s->a)) == FR_OK)
                mpfr_set(x[j], s->b, MPFR_RNDN);
        }
    }
    return st;
}

/* out_j = RN(sum_i Ni x_{i,j} / N) (exact numerator, one division). */
static int average(fri_ssca_run_ctx *c, mpfr_t *out, mpfr_t *const x)
{
    const size_t d = c->d, nc = c->nc;
    const size_t *Ni = c->D->Ni;
    int st = FR_OK;
    mpfr_t ni;
    mpfr_init2(ni, 64);
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        for (size_t i = 0; i < nc && st == FR_OK; i++) {
            mpfr_set_ui(ni, (unsigned long)Ni[i], MPFR_RNDN);          /* exact */
            st = fri_mul_exact(c->ex[i], ni, x[i * d + j]);
            c->ptr[i] = c->ex[i];
        }
        if (st == FR_OK && (st = fri_sum_exact(c->ex[nc], c->ptr, nc)) == FR_OK)
            mpfr_div_ui(out[j], c->ex[nc], (unsigned long)c->D->N, MPFR_RNDN);
    }
    mpfr_clear(ni);
    return st;
}

/* The sample-based baselines: E local steps per client, then the averages. */
static int round_sgd_s(fri_ssca_run_ctx *c, sgd_tmp *s, size_t t)
{
    const fr_ssca_data *D = c->D;
    const size_t d = c->d, B = c->B, E = (size_t)c->prm->E;
    const int m = c->prm->algo == FR_SSCA_SGDM_S;
    int st = fri_ssca_draw(c, t);
    for (size_t i = 0; i < c->nc && st == FR_OK; i++) {
        mpfr_t *wi = c->wi + i * d, *vi = c->vi + i * d, *g = c->G + i * d;
        for (size_t j = 0; j < d; j++) {
            mpfr_set(wi[j], c->w[j], MPFR_RNDN);                        /* exact */
            mpfr_set(vi[j], c->v[j], MPFR_RNDN);
        }
        for (size_t e = 0; e < E && st == FR_OK; e++) {
            fri_ssca_gather(c, c->off[i], c->draw + i * E * B + e * B, B);
            if ((st = fr_ssca_net(NULL, g, wi, D->L, D->J, D->P, c->Zb, c->yb, B)) == FR_OK)
                st = m ? sgdm_step(c, s, wi, vi, g) : sgd_step(c, s, wi, g);
        }
    }
    if (st == FR_OK)
        st = average(c, c->w, c->wi);
    if (st == FR_OK && m)
        st = average(c, c->v, c->vi);
    return st;
}

int fri_ssca_round_sgd(fri_ssca_run_ctx *c, size_t t)
{
    sgd_tmp s;
    tmp_init(&s, c);
    int st;
    const int algo = c->prm->algo;
    if (algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S) {
        st = round_sgd_s(c, &s, t);
    } else {
        st = fri_ssca_draw(c, t);
        if (st == FR_OK)
            st = fri_ssca_feature_grad(c, c->G, NULL, c->w);
        if (st == FR_OK)
            st = algo == FR_SSCA_SGDM_F ? sgdm_step(c, &s, c->w, c->v, c->G)
                                        : sgd_step(c, &s, c->w, c->G);
    }
    tmp_clear(&s);
    return st;
}
