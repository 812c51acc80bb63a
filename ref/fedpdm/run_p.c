/* SPDX-License-Identifier: Apache-2.0 */
/* run_p.c -- the stationarity measure (21) of 003 at a state (x_i, x_0,
 * lambda_i) of Algorithm 1 (fedspec/fedpdm.h, section "Algorithm 1"):
 *   Px   = (1/N^2) sum_j ||grad f_j(x_j) - lam_j - rho (x_0 - x_j)||^2
 *   Plam = (1/N^2) sum_j ||x_0 - x_j||^2
 *   Px0  = (1/N^2) sum_k e_k^2, S_k = sum_j (lam_jk + rho (x_0k - x_jk)):
 *          e_k = S_k + N gamma sgn x_0k (x_0k != 0), max(0, |S_k| - N gamma)
 *          (x_0k = 0): the least-norm subgradient of (9a) in x_0, times N.
 * Rounding: grad f_j(x_j) by fr_pdm_loss on client j's d_j rows at
 * precision p (correctly rounded); everything after it exact (products,
 * sums, squares), each part divided by N^2 with one rounding; P = RN(Px +
 * Plam + Px0) of the rounded parts. */
#include <stdint.h>
#include "run.h"

/* acc <- acc + e^2 exactly (tmp[6] scratch, acc and tmp[7] swap roles). */
static int acc_sq(fri_pdm_ws *w, mpfr_ptr acc, mpfr_srcptr e)
{
    int st = fri_mul_exact(w->tmp[6], e, e);
    if (st == FR_OK)
        st = fri_add_exact(w->tmp[7], acc, w->tmp[6]);
    if (st == FR_OK)
        mpfr_swap(acc, w->tmp[7]);
    return st;
}

static int part_px(fri_pdm_ws *w, mpfr_ptr acc, mpfr_t *const x0, mpfr_t *const x, mpfr_t *const lam,
                   const fr_pdm_problem *P)
{
    const size_t D = w->D, n = w->n;
    mpfr_ptr a = w->tmp[0], b = w->tmp[1], c = w->tmp[2], e = w->tmp[3];
    mpfr_set_zero(acc, 1);
    int st = FR_OK;
    for (size_t j = 0, off = 0; j < w->N && st == FR_OK; off += P->d[j], j++) {
        for (size_t q = 0; q < P->d[j] * n; q++)
            mpfr_set_d(w->Ab[q], P->A[off * n + q], MPFR_RNDN);          /* exact */
        st = fr_pdm_loss(NULL, w->g, x + j * D, w->m, n, w->Ab, P->y + off, P->d[j], w->beta);
        for (size_t k = 0; k < D && st == FR_OK; k++) {
            st = fri_mul_exact(a, w->rho, x[j * D + k]);                 /* rho x_j */
            if (st == FR_OK) st = fri_mul_exact(b, w->rho, x0[k]);        /* rho x_0 */
            if (st == FR_OK) st = fri_sub_exact(c, a, b);
            if (st == FR_OK) st = fri_add_exact(a, c, w->g[k]);
            if (st == FR_OK) st = fri_sub_exact(e, a, lam[j * D + k]);
            if (st == FR_OK) st = acc_sq(w, acc, e);
        }
    }
    return st;
}

static int part_plam(fri_pdm_ws *w, mpfr_ptr acc, mpfr_t *const x0, mpfr_t *const x)
{
    mpfr_set_zero(acc, 1);
    int st = FR_OK;
    for (size_t j = 0; j < w->N && st == FR_OK; j++)
        for (size_t k = 0; k < w->D && st == FR_OK; k++) {
            st = fri_sub_exact(w->tmp[0], x0[k], x[j * w->D + k]);
            if (st == FR_OK)
                st = acc_sq(w, acc, w->tmp[0]);
        }
    return st;
}

static int part_px0(fri_pdm_ws *w, mpfr_ptr acc, mpfr_t *const x0, mpfr_t *const x, mpfr_t *const lam)
{
    const size_t D = w->D, N = w->N;
    mpfr_ptr sl = w->tmp[0], sx = w->tmp[1], nx = w->tmp[2], S = w->tmp[3], e = w->tmp[4],
             d = w->tmp[5];
    mpfr_set_zero(acc, 1);
    int st = FR_OK;
    for (size_t k = 0; k < D && st == FR_OK; k++) {
        for (size_t j = 0; j < N; j++)
            w->pp[j] = lam[j * D + k];
        st = fri_sum_exact(sl, w->pp, N);                                 /* sum_j lam_jk */
        for (size_t j = 0; j < N; j++)
            w->pp[j] = x[j * D + k];
        if (st == FR_OK) st = fri_sum_exact(sx, w->pp, N);                /* sum_j x_jk */
        if (st == FR_OK) st = fri_mul_exact(nx, x0[k], w->Nm);            /* N x_0k */
        if (st == FR_OK) st = fri_sub_exact(d, nx, sx);
        if (st == FR_OK) st = fri_mul_exact(nx, w->rho, d);
        if (st == FR_OK) st = fri_add_exact(S, sl, nx);                   /* S_k */
        if (st != FR_OK)
            break;
        if (mpfr_sgn(x0[k]) > 0)
            st = fri_add_exact(e, S, w->Ng);
        else if (mpfr_sgn(x0[k]) < 0)
            st = fri_sub_exact(e, S, w->Ng);
        else {
            mpfr_abs(S, S, MPFR_RNDN);                                    /* exact */
            if (mpfr_cmp(S, w->Ng) > 0)
                st = fri_sub_exact(e, S, w->Ng);
            else {
                mpfr_set_prec(e, MPFR_PREC_MIN);
                mpfr_set_zero(e, 1);
            }
        }
        if (st == FR_OK)
            st = acc_sq(w, acc, e);
    }
    return st;
}

int fri_pdm_measure(fri_pdm_ws *w, mpfr_ptr Pt, mpfr_ptr Px, mpfr_ptr Plam, mpfr_ptr Px0,
                    mpfr_t *const x0, mpfr_t *const x, mpfr_t *const lam, const fr_pdm_problem *P)
{
    mpfr_t a[3];
    for (int q = 0; q < 3; q++)
        mpfr_init2(a[q], MPFR_PREC_MIN);
    int st = part_px(w, a[0], x0, x, lam, P);
    if (st == FR_OK)
        st = part_plam(w, a[1], x0, x);
    if (st == FR_OK)
        st = part_px0(w, a[2], x0, x, lam);
    if (st == FR_OK) {
        mpfr_ptr out[3] = {Px, Plam, Px0};
        for (int q = 0; q < 3; q++)
            mpfr_div(out[q], a[q], w->Nsq, MPFR_RNDN);                   /* 1/N^2, one rounding */
        mpfr_sum(Pt, out, 3, MPFR_RNDN);
    }
    for (int q = 0; q < 3; q++)
        mpfr_clear(a[q]);
    return st;
}
