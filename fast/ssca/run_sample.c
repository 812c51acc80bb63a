/* SPDX-License-Identifier: Apache-2.0 */
/* run_sample.c -- Algorithms 1 and 2 of 000 (sample-based, on (32) and
 * (40) with M = 1) in binary64, one round each, and the surrogate step
 * they share with Algorithms 3-4 (docs/SSCA.md section 10; contract:
 * include/fedfast/ssca.h).
 *
 * The clients' messages (Step 4) are G_i = sum_{n in batch_i} grad loss_n(w)
 * and, for (40), F_i = sum_{n in batch_i} loss_n(w); the server only ever
 * uses s = sum_i q_i G_i and sum_i q_i F_i, q_i = N_i/(B N) (000 (3), (9),
 * (42)).  Both are linear in the rows of R = Q - Y and in the losses, so
 * the run evaluates them in ONE pass over the nc B stacked batch rows with
 * row n of client i weighted by q_i (ffi_ssca_net_eval_ws): A = R_q^T S,
 * B = (R_q W0 .* S')^T Z -- the same products as sum_i q_i G_i, each
 * summand through one more rounding (the weight), summed in another order
 * (a few ulps of the result's magnitude; tests/ssca/test_run_fast.c checks
 * it against per-client ff_ssca_net and ff_ssca_lin).  With B = N_i for
 * every client the batches are the clients' whole data and the pass reads
 * Z in place, without a gather.
 *
 The surrogate step (ffi_ssca_surrogate_step) is the arithmetic of
 * ff_ssca_const, ff_ssca_lin, ff_ssca_ema, ff_ssca_argmin, ff_ssca_lemma1
 * and ff_ssca_update (fast/ssca/) fused into one or two vectorised passes
 * over d, without their temporaries (the same formulas; the sums in 8
 * partial sums, wbar by one multiplication with -1/(tau W) instead of two
 * divisions: a few ulps from the building blocks, tests/ssca/
 * test_run_fast.c):
 *   C   <- (1 - rho) C + rho ((sum_i q_i F_i - s^T w) + tau ||w||^2)   (42), E-000-31
 *   f1  <- (1 - rho) f1 + rho (s - 2 tau w)                            (9), (36)-(37)
 *   beta <- (1 - rho) beta + rho w                                     (35)
 *   (Algorithms 1, 3: f1 + 2 lambda beta as one recursion, see below)
 *   W   <- (1 - rho) W + rho (= 1 - P_t) (FR_SSCA_W_EXACT) or 1 (printed)  docs/SSCA.md 3, 10
 *   wbar = -(f1 + 2 lambda beta) / (2 tau W)                           (38)-(39) corrected
 *        or Lemma 1 (41) with tau W for tau, a = f1, C, c, U           (43)-(45)
 *   w   <- (1 - gamma) w + gamma wbar                                  (5) */
#include "run.h"

/* Algorithms 1 and 3 carry m = f1 + 2 lambda beta instead of f1 and beta:
 * the minimiser (38)-(39) reads only that sum, and (9) plus 2 lambda (35)
 * is one recursion,
 *   m <- (1 - rho) m + rho (s - 2 (tau - lambda) w),
 * the same surrogate with one state array instead of two (two fewer
 * d-sized streams per round; the roundings differ from separate f1 and
 * beta by a few ulps).  Entry j: m, wbar = m k2 with k2 = -1/(2 tau W),
 * the update (5); each + 0.0 turns -0 into +0. */
FFI_INLINE double unc_entry(size_t j, double *restrict w, double *restrict m,
                            const double *restrict s, double sq, double a, double rho,
                            double cm, double k2, double b, double gam)
{
    const double tt = sq * s[j] - cm * w[j];
    const double mn = (a * m[j] + rho * tt) + 0.0;
    const double wb = mn * k2 + 0.0;
    const double wn = (b * w[j] + gam * wb) + 0.0;
    m[j] = mn;
    w[j] = wn;
    return wn;
}

/* The unconstrained step on n entries in one pass, blocks of 8 entries
 * (vectorised by the compiler; FFI_VERSIONS picks AVX-512 / AVX2);
 * returns the new ||w||^2 of those entries (8 partial sums). */
FFI_INLINE double unc_step_body(size_t n, double *restrict w, double *restrict m,
                                const double *restrict s, double sq, double a, double rho,
                                double cm, double k2, double b, double gam)
{
    double n2[8] = {0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (size_t l = 0; l < 8; l++) {
            const double x = unc_entry(j + l, w, m, s, sq, a, rho, cm, k2, b, gam);
            n2[l] += x * x;
        }
    for (size_t l = 0; j < n; j++, l++) {
        const double x = unc_entry(j, w, m, s, sq, a, rho, cm, k2, b, gam);
        n2[l] += x * x;
    }
    return ((n2[0] + n2[1]) + (n2[2] + n2[3])) + ((n2[4] + n2[5]) + (n2[6] + n2[7]));
}

FFI_VERSIONS(double, unc_step,
             (size_t n, double *restrict w, double *restrict m, const double *restrict s,
              double sq, double a, double rho, double cm, double k2, double b, double gam),
             (n, w, m, s, sq, a, rho, cm, k2, b, gam))

/* Algorithms 2 and 4, first pass: ||w||^2 and s^T w at the old w (8
 * partial sums), and f1 (9). */
FFI_INLINE int con_pass_body(size_t d, const double *restrict w, double *restrict f1,
                             const double *restrict s, double sq, double a, double rho,
                             double c2, double *restrict out)
{
    double n2[8] = {0}, gw[8] = {0};
    size_t j = 0;
    for (; j + 8 <= d; j += 8)
        for (size_t l = 0; l < 8; l++) {
            const double sj = sq * s[j + l], wj = w[j + l];
            n2[l] += wj * wj;
            gw[l] += sj * wj;
            f1[j + l] = (a * f1[j + l] + rho * (sj - c2 * wj)) + 0.0;
        }
    for (size_t l = 0; j < d; j++, l++) {
        const double sj = sq * s[j], wj = w[j];
        n2[l] += wj * wj;
        gw[l] += sj * wj;
        f1[j] = (a * f1[j] + rho * (sj - c2 * wj)) + 0.0;
    }
    out[0] = ((n2[0] + n2[1]) + (n2[2] + n2[3])) + ((n2[4] + n2[5]) + (n2[6] + n2[7]));
    out[1] = ((gw[0] + gw[1]) + (gw[2] + gw[3])) + ((gw[4] + gw[5]) + (gw[6] + gw[7]));
    return 0;
}

FFI_VERSIONS(int, con_pass,
             (size_t d, const double *restrict w, double *restrict f1, const double *restrict s,
              double sq, double a, double rho, double c2, double *restrict out),
             (d, w, f1, s, sq, a, rho, c2, out))

/* Second pass: f1^T wbar and ||wbar||^2 (the slack) and the update (5). */
FFI_INLINE int con_update_body(size_t d, double *restrict w, const double *restrict f1,
                               const double *restrict wbar, double b, double gam,
                               double *restrict out)
{
    double fw[8] = {0}, n2[8] = {0};
    size_t j = 0;
    for (; j + 8 <= d; j += 8)
        for (size_t l = 0; l < 8; l++) {
            const double wb = wbar[j + l];
            fw[l] += f1[j + l] * wb;
            n2[l] += wb * wb;
            w[j + l] = (b * w[j + l] + gam * wb) + 0.0;
        }
    for (size_t l = 0; j < d; j++, l++) {
        const double wb = wbar[j];
        fw[l] += f1[j] * wb;
        n2[l] += wb * wb;
        w[j] = (b * w[j] + gam * wb) + 0.0;
    }
    out[0] = ((fw[0] + fw[1]) + (fw[2] + fw[3])) + ((fw[4] + fw[5]) + (fw[6] + fw[7]));
    out[1] = ((n2[0] + n2[1]) + (n2[2] + n2[3])) + ((n2[4] + n2[5]) + (n2[6] + n2[7]));
    return 0;
}

FFI_VERSIONS(int, con_update,
             (size_t d, double *restrict w, const double *restrict f1,
              const double *restrict wbar, double b, double gam, double *restrict out),
             (d, w, f1, wbar, b, gam, out))

int ffi_ssca_surrogate_step(ffi_ssca_ws *ws, double *w, unsigned long t, const double *s,
                            double sq, double fq, double *nu, double *slack, int *branch)
{
    const fr_ssca_params *prm = ws->prm;
    const size_t d = ws->d;
    const double rho = ffi_ssca_sched(prm->a1, prm->alpha1, t);
    const double gam = ffi_ssca_sched(prm->a2, prm->alpha2, t);
    const double a = 1 - rho, tau = prm->tau, c2 = 2 * tau, b = 1 - gam;
    /* W_t = 1 - P_t carried as W <- (1 - rho) W + rho (W_0 = 0): stays >=
     * rho^(1) > 0 where prod (1 - rho) would round to 1 (rho^(1) < 2^-53) */
    ws->Ww = (a * ws->Ww + rho) + 0.0;
    const double om = prm->weight == FR_SSCA_W_EXACT ? ws->Ww : 1.0;      /* W_t */
    if (!fr_ssca_algo_constrained(prm->algo)) {            /* the caller checks w */
        const double k2 = -0.5 / (tau * om), cm = c2 - 2 * prm->lambda;
        double *m = ws->f1;
        if (!ws->deferred) {
            ws->n2 = unc_step(d, w, m, s, sq, a, rho, cm, k2, b, gam);
            return FR_OK;
        }
        /* s holds A only: the output layer, then B in blocks of hidden cells */
        const size_t LJ = ws->LJ, P = ws->P, J = ws->J;
        double n2 = unc_step(LJ, w, m, s, sq, a, rho, cm, k2, b, gam);
        for (size_t j0 = 0; j0 < J; j0 += FFI_SSCA_TILE) {
            const size_t jt = J - j0 < FFI_SSCA_TILE ? J - j0 : FFI_SSCA_TILE;
            ffi_ssca_grad_tile(ws, j0, jt);
            const size_t o = LJ + j0 * P;
            n2 += unc_step(jt * P, w + o, m + o, ws->gt, sq, a, rho, cm, k2, b, gam);
        }
        ws->n2 = n2;
        return FR_OK;
    }
    double r[2];
    (void)con_pass(d, w, ws->f1, s, sq, a, rho, c2, r);
    const double h = (sq * fq - r[1]) + tau * r[0];        /* (42): sum q (F - G^T w) + tau ||w||^2 */
    ws->C = (a * ws->C + rho * h) + 0.0;
    if (!isfinite(ws->C) || !ffi_all_finite(ws->f1, d))
        return FR_ENONFINITE;
    const double tW = tau * om;                            /* Lemma 1, (41) with tau W */
    int st = ffi_ssca_lemma1_core(nu, ws->wbar, branch, ws->f1, d, ws->C, tW, prm->c, prm->U);
    if (st != FR_OK)
        return st;
    (void)con_update(d, w, ws->f1, ws->wbar, b, gam, r);
    const double Fb = (r[0] + tW * r[1]) + (ws->C - prm->U);   /* Fbar(wbar) + C - U */
    /* nu < c: the optimal slack is exactly 0 (complementary slackness;
     * the interior residual Fb is rounding noise) */
    *slack = *branch == FR_SSCA_L1_ZERO || *branch == FR_SSCA_L1_INTERIOR ? 0.0
             : Fb > 0 ? Fb : 0.0;
    return FR_OK;
}

int ffi_ssca_round_sample(ffi_ssca_ws *ws, double *w, unsigned long t, double *nu,
                          double *slack, int *branch)
{
    const size_t nc = ws->nc, B = ws->B;
    const size_t *Ni = ws->D->Ni;
    int full = 1;
    for (size_t i = 0; i < nc; i++)
        full &= Ni[i] == B;
    for (size_t i = 0; i < nc; i++)                /* the row weights ws->rw: ws_alloc */
        for (size_t k = 0; k < B; k++)
            ws->rows[i * B + k] = ws->off[i] + ws->draw[i * B + k];
    /* full: the batches are the clients' whole data, rows in place */
    const int cons = fr_ssca_algo_constrained(ws->prm->algo);
    double fq = 0;
    int st = ffi_ssca_pass(ws, w, full ? NULL : ws->rows, 0, nc * B, ws->rw, !cons,
                           cons ? &fq : NULL, ws->g);
    if (st != FR_OK)
        return st;
    return ffi_ssca_surrogate_step(ws, w, t, ws->g, 1.0, fq, nu, slack, branch);
}
