/* SPDX-License-Identifier: Apache-2.0 */
/* run_measure.c -- the records of a state of Algorithm 1 (fedspec/fedpdm.h,
 * section "Algorithm 1"): the stationarity measure (21), with the 1/N of
 * (9a) and f_j client j's loss (25) on its whole data,
 *   Px   = sum_j || (1/N) (grad f_j(x_j) - lambda_j - rho (x_0 - x_j)) ||^2
 *   Plam = sum_j || (1/N) (x_0 - x_j) ||^2
 *   Px0  = sum_k (c_k + gamma sgn x_0k)^2 (x_0k != 0), max(0, |c_k| - gamma)^2
 *          (x_0k = 0), c = (1/N) sum_j (lambda_j + rho (x_0 - x_j))
 *   P    = (Px + Plam) + Px0,
 * and the objective (24) at x_0, F = ((1/N) sum_j L_j + beta R) + gamma
 * ||x_0||_1, L_j = (1/d_j) sum_t sp(u_t) (ff_pdm_objective's formula; u_t
 * here by ddot, so not its bits).
 * One pass over the data per state: client j's contiguous rows are read
 * once for both, u_t = x_{j,y_t}^T a_t and x_{0,y_t}^T a_t by ddot, the
 * residual of grad f_j by one daxpy into the label row (run_grad.c's exact
 * structure).  The pass is bound by reading A (D_total n doubles). */
#include "run.h"
#include "model.h"

void ffi_pdm_measure(double *out, int doP, int doF, const double *x0, const double *xs, const double *ls,
                     ffi_pdm_ws *ws)
{
    const fr_pdm_problem *Pb = ws->P;
    const size_t N = ws->N, D = ws->D, n = ws->n;
    const double rho = ws->prm->rho, dN = (double)N, gam = Pb->gamma, beta = Pb->beta;
    double *g = ws->g, *c = ws->c;
    double sx = 0, sl = 0, s0 = 0, Ls = 0;
    if (doP)
        memset(c, 0, D * sizeof *c);
    for (size_t j = 0; j < N; j++) {
        const double *x = xs + j * D, *l = ls + j * D, *A = Pb->A + ws->off[j] * n;
        const size_t *y = Pb->y + ws->off[j], dj = Pb->d[j];
        const double dd = (double)dj;
        if (doP)
            ffi_pdm_hgrad(g, x, D, beta);
        double L = 0;
        for (size_t t = 0; t < dj; t++) {
            const double *a = A + t * n;
            const size_t k = y[t];
            if (doP) {
                const double ut = cblas_ddot((int)n, x + k * n, 1, a, 1);
                cblas_daxpy((int)n, -(s_of(ut) / dd), a, 1, g + k * n, 1);
            }
            if (doF)
                L += sp_of(cblas_ddot((int)n, x0 + k * n, 1, a, 1));
        }
        Ls += L / dd;
        if (!doP)
            continue;
        for (size_t k = 0; k < D; k++) {
            const double dx = x0[k] - x[k], rl = l[k] + rho * dx;
            const double e = (g[k] - rl) / dN, q = dx / dN;
            sx += e * e;
            sl += q * q;
            c[k] += rl;
        }
    }
    if (doP) {
        for (size_t k = 0; k < D; k++) {
            const double ck = c[k] / dN;
            double e;
            if (x0[k] != 0)
                e = ck + copysign(gam, x0[k]);
            else
                e = fmax(0, fabs(ck) - gam);
            s0 += e * e;
        }
        out[0] = (sx + sl) + s0;
        out[1] = sx;
        out[2] = sl;
        out[3] = s0;
    }
    if (doF) {
        double R = 0, S = 0;
        for (size_t k = 0; k < D; k++) {
            R += r_of(x0[k]);
            S += fabs(x0[k]);
        }
        out[4] = (Ls / dN + beta * R) + gam * S;
    }
}
