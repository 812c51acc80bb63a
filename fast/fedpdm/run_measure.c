/* run_measure.c -- the stationarity measure (21) of 003 at a state of
 * Algorithm 1 (fedspec/fedpdm.h, section "Algorithm 1"), with the 1/N of
 * (9a) and f_j client j's loss (25) on its whole data:
 *   Px   = sum_j || (1/N) (grad f_j(x_j) - lambda_j - rho (x_0 - x_j)) ||^2
 *   Plam = sum_j || (1/N) (x_0 - x_j) ||^2
 *   Px0  = sum_k (c_k + gamma sgn x_0k)^2 (x_0k != 0), max(0, |c_k| - gamma)^2
 *          (x_0k = 0), c = (1/N) sum_j (lambda_j + rho (x_0 - x_j))
 *   P    = (Px + Plam) + Px0.
 * grad f_j(x_j): one pass over client j's contiguous rows (ffi_pdm_grad,
 * rows = NULL), N passes per state; no allocation. */
#include "run.h"

void ffi_pdm_measure(double *P, double *Px, double *Plam, double *Px0, const double *x0,
                     const double *xs, const double *ls, ffi_pdm_ws *ws)
{
    const fr_pdm_problem *Pb = ws->P;
    const size_t N = ws->N, D = ws->D, n = ws->n;
    const double rho = ws->prm->rho, dN = (double)N, gam = Pb->gamma;
    double *g = ws->g, *c = ws->c;
    double sx = 0, sl = 0, s0 = 0;
    memset(c, 0, D * sizeof *c);
    for (size_t j = 0; j < N; j++) {
        const double *x = xs + j * D, *l = ls + j * D;
        ffi_pdm_grad(g, x, Pb->A + ws->off[j] * n, Pb->y + ws->off[j], NULL, Pb->d[j], ws);
        for (size_t k = 0; k < D; k++) {
            const double dx = x0[k] - x[k], rl = l[k] + rho * dx;
            const double e = (g[k] - rl) / dN, q = dx / dN;
            sx += e * e;
            sl += q * q;
            c[k] += rl;
        }
    }
    for (size_t k = 0; k < D; k++) {
        const double ck = c[k] / dN;
        double e;
        if (x0[k] != 0)
            e = ck + copysign(gam, x0[k]);
        else
            e = fmax(0, fabs(ck) - gam);
        s0 += e * e;
    }
    *Px = sx;
    *Plam = sl;
    *Px0 = s0;
    *P = (sx + sl) + s0;
}
