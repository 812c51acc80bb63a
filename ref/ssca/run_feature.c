/* SPDX-License-Identifier: Apache-2.0 */
/* run_feature.c -- one round of the feature-based Algorithms 3 ((32)) and
 * 4 ((40), M = 1) of 000 Sec. IV (docs/SSCA.md section 10): the server
 * draws the batch N^(t) (B of the N samples) and sends it with (w_0, w_i)
 * to client i; Step 4: client i sends h_i = Z_i w_{1,i}^T over the batch
 * (fr_ssca_net_partial, (17) with H = J); Step 5: the aggregator (client
 * 0, which holds every label) sends A = sum_n abar_n (20) and, for (40),
 * F = sum_n loss_n (fr_ssca_net_top); Step 6: client i sends B_i = sum_n
 * bbar_n over its features (21) (fr_ssca_net_bottom).  The server
 * assembles g = (A, B_1 .. B_I) in the layout of w and runs the step of
 * Algorithms 1-2 with one "client" of weight 1/B ((16), (23), (25):
 * fr_ssca_lin / _const with nc = 1, N_1 = B).  The messages h_i, A, B_i,
 * F are rounded to the working precision p (they cross the network).
 * Contract: include/fedref/ssca.h. */
#include "run.h"

int fri_ssca_feature_grad(fri_ssca_run_ctx *c, mpfr_t *g, mpfr_ptr f, mpfr_t *const x)
{
    const fr_ssca_data *D = c->D;
    const size_t nb = c->B, J = D->J, L = D->L, P = D->P, nc = c->nc, LJ = c->LJ;
    int st = FR_OK;
    for (size_t n = 0; n < nb; n++)
        c->yb[n] = D->y[c->draw[n]];
    /* Step 4: h_i for every client */
    for (size_t i = 0; i < nc && st == FR_OK; i++) {
        const size_t Pi = D->Pi[i], o = c->off[i];
        for (size_t j = 0; j < J; j++)
            for (size_t q = 0; q < Pi; q++)
                mpfr_set(c->w1i[j * Pi + q], x[LJ + j * P + o + q], MPFR_RNDN);   /* exact */
        for (size_t n = 0; n < nb; n++)
            for (size_t q = 0; q < Pi; q++)
                mpfr_set_d(c->Zi[n * Pi + q], D->Z[c->draw[n] * P + o + q], MPFR_RNDN);   /* exact */
        st = fr_ssca_net_partial(c->H + i * nb * J, c->w1i, c->Zi, nb, J, Pi);
    }
    /* Step 5: the aggregator's A (and F) */
    if (st == FR_OK && (st = fr_ssca_net_top(f, g, c->H, nc, x, c->yb, nb, L, J)) != FR_OK)
        return st;
    /* Step 6: B_i, into the columns P_i of w1's block of g */
    for (size_t i = 0; i < nc && st == FR_OK; i++) {
        const size_t Pi = D->Pi[i], o = c->off[i];
        for (size_t n = 0; n < nb; n++)
            for (size_t q = 0; q < Pi; q++)
                mpfr_set_d(c->Zi[n * Pi + q], D->Z[c->draw[n] * P + o + q], MPFR_RNDN);   /* exact */
        if ((st = fr_ssca_net_bottom(c->Bi, c->H, nc, x, c->yb, c->Zi, nb, L, J, Pi)) != FR_OK)
            break;
        for (size_t j = 0; j < J; j++)
            for (size_t q = 0; q < Pi; q++)
                mpfr_set(g[LJ + j * P + o + q], c->Bi[j * Pi + q], MPFR_RNDN);     /* exact */
    }
    return st;
}

int fri_ssca_round_feature(fri_ssca_run_ctx *c, size_t t)
{
    const int cons = fr_ssca_algo_constrained(c->prm->algo);
    int st = fri_ssca_draw(c, t);
    if (st == FR_OK)
        st = fri_ssca_feature_grad(c, c->G, cons ? c->F[0] : NULL, c->w);
    if (st != FR_OK)
        return st;
    const size_t n1 = c->B;                /* one "client" of weight N_1/(B N_1) = 1/B */
    return fri_ssca_sca_step(c, t, c->G, c->F, &n1, 1);
}
