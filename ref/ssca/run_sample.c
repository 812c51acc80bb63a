/* SPDX-License-Identifier: Apache-2.0 */
/* run_sample.c -- one round of the sample-based Algorithms 1 ((32)) and 2
 * ((40), M = 1) of 000 Sec. III, and the server step that Algorithms 1-4
 * share (docs/SSCA.md section 10):
 *   Step 4 (clients): G_i = sum_{n in batch_i} grad loss_n(w^(t)) and, for
 *     (40), F_i = sum loss_n (fr_ssca_net on the client's batch rows);
 *   Step 5 (server): C^(t) (42) with the loss as c-bar (fr_ssca_const,
 *     E-000-31), f1^(t) (9)/(36)-(37) (fr_ssca_lin), beta^(t) (35)
 *     (fr_ssca_ema), W_t = (1 - rho^(t)) W_{t-1} + rho^(t) = 1 - P_t
 *     (fr_ssca_ema, y = 1; W_0 = 0);
 *     the minimiser: (38)-(39) corrected, -(f1 + 2 lambda beta) / (2 tau
 *     W_t) (fr_ssca_argmin), or Lemma 1 (43)-(45) on (41) with tau W_t
 *     for tau (fr_ssca_lemma1); W_t = 1 - P_t (FR_SSCA_W_EXACT) or 1
 *     (FR_SSCA_W_PRINTED);
 *   Step 6: w^(t+1) = (1 - gamma^(t)) w^(t) + gamma^(t) wbar (5)
 *     (fr_ssca_update).
 * Every state variable is at the working precision p; the building blocks
 * round once to it.  Contract: include/fedref/ssca.h. */
#include "run.h"

/* The slack of (41) at its solution wbar when nu = c, s = max(0, f1^T
 * wbar + tau W ||wbar||^2 + C - U), the exact value rounded once to p
 * (exact products, one mpfr_sum). */
static int slack(fri_ssca_run_ctx *c, mpfr_ptr s)
{
    const size_t d = c->d;
    mpfr_t *ex = c->ex;
    int st = FR_OK;
    /* ex[j] = (f1_j + tau W wbar_j) wbar_j, exact */
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        if ((st = fri_mul_exact(ex[d], c->tw, c->wbar[j])) == FR_OK
            && (st = fri_add_exact(ex[d + 1], ex[d], c->f1[j])) == FR_OK)
            st = fri_mul_exact(ex[j], ex[d + 1], c->wbar[j]);
        c->ptr[j] = ex[j];
    }
    if (st != FR_OK)
        return st;
    if ((st = fri_sub_exact(ex[d + 2], c->C, c->U)) != FR_OK)   /* C - U */
        return st;
    c->ptr[d] = ex[d + 2];
    mpfr_sum(s, c->ptr, d + 1, MPFR_RNDN);
    if (mpfr_sgn(s) <= 0)
        mpfr_set_ui(s, 0, MPFR_RNDN);                            /* max(0, .): +0 */
    return FR_OK;
}

int fri_ssca_sca_step(fri_ssca_run_ctx *c, size_t t, mpfr_t *const G, mpfr_t *const F,
                      const size_t *Ni, size_t nc)
{
    const fr_ssca_params *prm = c->prm;
    const size_t d = c->d;
    const int cons = fr_ssca_algo_constrained(prm->algo);
    int st = FR_OK;
    /* (42) before (9): both read w^(t) and the messages, not f1 */
    if (cons && (st = fr_ssca_const(c->C, c->w, G, F, Ni, nc, d, c->B, c->rho, c->tau)) != FR_OK)
        return st;
    if ((st = fr_ssca_lin(c->f1, c->w, G, Ni, nc, d, c->B, c->rho, c->tau)) != FR_OK)
        return st;
    if (!cons && (st = fr_ssca_ema(c->beta, c->w, d, c->rho)) != FR_OK)          /* (35) */
        return st;
    /* W_t = 1 - P_t carried as W_t = (1 - rho) W_{t-1} + rho, W_0 = 0
     * (fr_ssca_ema with y = 1): W_t >= rho^(1) > 0 at every precision,
     * where P_t = (1 - rho) P_{t-1} rounds to 1 once rho^(1) < 2^-p */
    mpfr_t one[1];
    mpfr_init2(one[0], 2);
    mpfr_set_ui(one[0], 1, MPFR_RNDN);
    if ((st = fr_ssca_ema(&c->Wm, one, 1, c->rho)) != FR_OK) {
        mpfr_clear(one[0]);
        return st;
    }
    /* the weight: W_t (exact weight) or 1 (the printed forms); P = 1 - W
     * exactly (fri_sub_exact: no rounding), in [0, 1) */
    mpfr_srcptr Ww = prm->weight == FR_SSCA_W_PRINTED ? one[0] : c->Wm;
    if ((st = fri_sub_exact(c->ex[0], one[0], Ww)) != FR_OK) {
        mpfr_clear(one[0]);
        return st;
    }
    if (!cons) {
        st = fr_ssca_argmin(c->wbar, c->f1, c->beta, d, c->lambda, c->tau, c->ex[0]);
    } else {
        /* tau W exactly: the same exact denominator fr_ssca_argmin forms
         * (2 tau (1 - P)), so no rounding enters Lemma 1's tau */
        if ((st = fri_mul_exact(c->tw, c->tau, Ww)) == FR_OK)
            st = fr_ssca_lemma1(c->nu, c->wbar, &c->t->branch[t - 1], c->f1, d, c->C, c->tw,
                                c->c, c->U);
        /* nu < c (branches ZERO, INTERIOR): complementary slackness
         * (c - nu) s = 0 makes the optimal slack exactly 0 (in the
         * interior the residual is 0 and would round to noise) */
        const int br = st == FR_OK ? c->t->branch[t - 1] : 0;
        if (st == FR_OK && (br == FR_SSCA_L1_ZERO || br == FR_SSCA_L1_INTERIOR))
            mpfr_set_zero(c->s, 1);
        else if (st == FR_OK)
            st = slack(c, c->s);
        if (st == FR_OK) {
            mpfr_set(c->t->nu[t - 1], c->nu, MPFR_RNDN);                     /* exact */
            mpfr_set(c->t->slack[t - 1], c->s, MPFR_RNDN);
        }
    }
    mpfr_clear(one[0]);
    if (st != FR_OK)
        return st;
    return fr_ssca_update(c->w, c->wbar, d, c->gamma);                           /* (5) */
}

int fri_ssca_round_sample(fri_ssca_run_ctx *c, size_t t)
{
    const fr_ssca_data *D = c->D;
    const size_t d = c->d, B = c->B;
    const int cons = fr_ssca_algo_constrained(c->prm->algo);
    int st = fri_ssca_draw(c, t);
    for (size_t i = 0; i < c->nc && st == FR_OK; i++) {                          /* Step 4 */
        fri_ssca_gather(c, c->off[i], c->draw + i * B, B);
        st = fr_ssca_net(cons ? c->F[i] : NULL, c->G + i * d, c->w, D->L, D->J, D->P, c->Zb,
                         c->yb, B);
    }
    if (st != FR_OK)
        return st;
    return fri_ssca_sca_step(c, t, c->G, c->F, D->Ni, c->nc);
}
