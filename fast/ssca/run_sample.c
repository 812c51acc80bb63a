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
 * The surrogate step (ffi_ssca_surrogate_step) is, entry by entry, the
 * arithmetic of ff_ssca_const, ff_ssca_lin, ff_ssca_ema, ff_ssca_argmin,
 * ff_ssca_lemma1 and ff_ssca_update (fast/ssca/) fused into loops over
 * d, without their temporaries:
 *   C   <- (1 - rho) C + rho ((sum_i q_i F_i - s^T w) + tau ||w||^2)   (42), E-000-31
 *   f1  <- (1 - rho) f1 + rho (s - 2 tau w)                            (9), (36)-(37)
 *   beta <- (1 - rho) beta + rho w                                     (35)
 *   P   <- (1 - rho) P,  W = 1 - P (FR_SSCA_W_EXACT) or 1 (printed)    docs/SSCA.md 3
 *   wbar = -(f1 + 2 lambda beta) / (2 tau W)                           (38)-(39) corrected
 *        or Lemma 1 (41) with tau W for tau, a = f1, C, c, U           (43)-(45)
 *   w   <- (1 - gamma) w + gamma wbar                                  (5) */
#include "run.h"

int ffi_ssca_surrogate_step(ffi_ssca_ws *ws, double *w, unsigned long t, const double *s,
                            double fq, double *nu, double *slack, int *branch)
{
    const fr_ssca_params *prm = ws->prm;
    const size_t d = ws->d;
    const int cons = fr_ssca_algo_constrained(prm->algo);
    const double rho = ffi_ssca_sched(prm->a1, prm->alpha1, t);
    const double gam = ffi_ssca_sched(prm->a2, prm->alpha2, t);
    const double a = 1 - rho, tau = prm->tau, c2 = 2 * tau;
    double *f1 = ws->f1, *beta = ws->beta, *wbar = ws->wbar;
    if (cons) {                                            /* (42), as ff_ssca_const */
        double n2 = 0, gw = 0;
        for (size_t j = 0; j < d; j++) {
            n2 += w[j] * w[j];
            gw += s[j] * w[j];
        }
        const double h = (fq - gw) + tau * n2;
        ws->C = (a * ws->C + rho * h) + 0.0;
        if (!isfinite(ws->C))
            return FR_ENONFINITE;
    }
    for (size_t j = 0; j < d; j++) {                       /* (9), as ff_ssca_lin */
        const double tt = s[j] - c2 * w[j];
        f1[j] = (a * f1[j] + rho * tt) + 0.0;
    }
    if (!cons)
        for (size_t j = 0; j < d; j++)                     /* (35), as ff_ssca_ema */
            beta[j] = (a * beta[j] + rho * w[j]) + 0.0;
    ws->Pw = a * ws->Pw + 0.0;                             /* ff_ssca_ema, y = NULL */
    if (!ffi_all_finite(f1, d))
        return FR_ENONFINITE;
    const double om = prm->weight == FR_SSCA_W_EXACT ? 1 - ws->Pw : 1.0;
    if (!cons) {                                           /* as ff_ssca_argmin */
        const double lam = prm->lambda;
        const int reg = lam != 0;
        for (size_t j = 0; j < d; j++) {
            const double num = f1[j] * 0.5 + (reg ? lam * beta[j] : 0.0);
            wbar[j] = -((num / tau) / om) + 0.0;
        }
    } else {                                               /* Lemma 1, (41) with tau W */
        const double tW = tau * om;
        int st = ffi_ssca_lemma1_core(nu, wbar, branch, f1, d, ws->C, tW, prm->c, prm->U);
        if (st != FR_OK)
            return st;
        double fw = 0, n2 = 0;
        for (size_t j = 0; j < d; j++) {
            fw += f1[j] * wbar[j];
            n2 += wbar[j] * wbar[j];
        }
        const double Fb = (fw + tW * n2) + (ws->C - prm->U);   /* Fbar(wbar) + C - U */
        *slack = Fb > 0 ? Fb : 0.0;
    }
    if (!ffi_all_finite(wbar, d))
        return FR_ENONFINITE;
    const double b = 1 - gam;                              /* (5), as ff_ssca_update */
    for (size_t j = 0; j < d; j++)
        w[j] = (b * w[j] + gam * wbar[j]) + 0.0;
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
    for (size_t i = 0; i < nc; i++)
        for (size_t k = 0; k < B; k++) {
            ws->rw[i * B + k] = ws->q[i];
            ws->rows[i * B + k] = ws->off[i] + ws->draw[i * B + k];
        }
    /* full: the batches are the clients' whole data, rows in place */
    const int cons = fr_ssca_algo_constrained(ws->prm->algo);
    double fq = 0;
    int st = ffi_ssca_pass(ws, w, full ? NULL : ws->rows, 0, nc * B, ws->rw, 0,
                           cons ? &fq : NULL, ws->g);
    if (st != FR_OK)
        return st;
    return ffi_ssca_surrogate_step(ws, w, t, ws->g, fq, nu, slack, branch);
}
