/* SPDX-License-Identifier: Apache-2.0 */
/* problem.c -- ff_proxal_client_eval: f_i, c_i and their derivatives for
 * the problems (25)-(28) of 004 in binary64 (contract: fedfast/proxal.h).
 *   QP (25):    f_i = w^T A_i w / 2 + b_i^T w, grad = A_i w + b_i, Hess = A_i;
 *               c_i = C_i w + e_i, grad c_i = C_i^T, Hess c_i = 0.
 *   NP, FAIR:   phi (27) in the stable form max(t, 0) + log1p(e^-|t|) - y t,
 *               phi' = s(t) - y, phi'' = e^-|t| / (1 + e^-|t|)^2 = s(t) s(-t)
 *               (never 1 - s, which cancels), t = w^T x.
 * The Hessians X^T diag(a) X are sums of rank-1 updates (BLAS dsyr on the
 * upper triangle, then mirrored: exactly symmetric).  Everything is formed
 * in a workspace and copied out on success. */
#include "../internal.h"
#include "fedfast/proxal.h"
#include "eval.h"

static int allfin(const double *x, size_t k)
{
    for (size_t t = 0; t < k; t++)
        if (!isfinite(x[t]))
            return 0;
    return 1;
}

static int ovl(const double *p, size_t np, const double *q, size_t nq)
{
    if (p == NULL || q == NULL || np == 0 || nq == 0)
        return 0;
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq * sizeof(double) && b < a + np * sizeof(double);
}

/* Stable pieces of (27) at t: sp = ln(1 + e^t), s = 1/(1 + e^-t), h = s(t) s(-t). */
static void logi(double t, double *sp, double *s, double *h)
{
    double e = exp(-fabs(t));
    *sp = (t > 0 ? t : 0) + log1p(e);
    *s = t >= 0 ? 1 / (1 + e) : e / (1 + e);
    *h = e / ((1 + e) * (1 + e));
}

static void mirror(double *H, size_t d)
{
    for (size_t a = 0; a < d; a++)
        for (size_t b = a + 1; b < d; b++)
            H[b * d + a] = H[a * d + b];
}

int ff_proxal_client_eval(const fr_proxal_problem *P, size_t i, const double *w, double *fi, double *gi,
                          double *Hi, double *ci, double *Ji, const double *y, double *Hy)
{
    if (P == NULL || w == NULL)
        return FR_ENULL;
    int st = fr_proxal_problem_check(P);
    if (st == FR_ENULL)
        return st;
    size_t m = fr_proxal_mi(P, i);            /* 0 for i > n or a bad shape */
    if (Hy != NULL && y == NULL && m > 0)
        return FR_ENULL;
    if (st == FR_ESIZE || i > P->n)
        return FR_ESIZE;
    if (st == FR_ENONFINITE || !allfin(w, P->d) || (Hy != NULL && m > 0 && !allfin(y, m)))
        return FR_ENONFINITE;
    if (st != FR_OK)
        return st;
    return ffi_proxal_client_eval_body(P, i, w, fi, gi, Hi, ci, Ji, y, Hy);
}

/* The evaluation of ff_proxal_client_eval after its argument checks (the
 * problem's check costs O(n d^2): the oracles of Algorithms 1-3 check the
 * problem once per run and call this; fast/proxal/eval.h). */
int ffi_proxal_client_eval_body(const fr_proxal_problem *P, size_t i, const double *w, double *fi,
                                double *gi, double *Hi, double *ci, double *Ji, const double *y,
                                double *Hy)
{
    size_t m = fr_proxal_mi(P, i);
    size_t d = P->d, dd = d * d, n = P->n;
    if (m == 0)
        ci = Ji = NULL;                        /* nothing to write */
    const double *outs[6] = {fi, gi, Hi, ci, Ji, Hy};
    size_t lens[6] = {1, d, dd, m, d * m, dd};
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++)
            if (ovl(outs[a], lens[a], outs[b], lens[b]))
                return FR_EDOM;
    /* the workspace: f, g, c, J always; H, Q only when wanted */
    size_t nH = Hi ? dd : 0, nQ = Hy ? dd : 0, nT = 1 + d + nH + m + d * m + nQ;
    double *T = calloc(nT, sizeof *T);
    if (T == NULL)
        return FR_ENOMEM;
    double *f = T, *g = f + 1, *H = g + d, *c = H + nH, *J = c + m, *Q = J + d * m;
    int di = (int)d;
    if (P->kind == FR_PROXAL_QP) {
        size_t mt = P->mt;
        if (i >= 1 && (fi || gi)) {            /* the product with A_i only when f_i or its gradient is wanted */
            const double *A = P->A + (i - 1) * dd, *b = P->b + (i - 1) * d;
            cblas_dgemv(CblasRowMajor, CblasNoTrans, di, di, 1.0, A, di, w, 1, 0.0, g, 1);   /* A w */
            f[0] = 0.5 * cblas_ddot(di, w, 1, g, 1) + cblas_ddot(di, b, 1, w, 1);
            for (size_t k = 0; k < d; k++)
                g[k] += b[k];
        }
        if (i >= 1 && Hi)
            memcpy(H, P->A + (i - 1) * dd, dd * sizeof *H);
        const double *C = P->C + i * mt * d, *e = P->e + i * mt;
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)mt, di, 1.0, C, di, w, 1, 0.0, c, 1);
        for (size_t j = 0; j < mt; j++) {
            c[j] += e[j];
            for (size_t k = 0; k < d; k++)
                J[k * mt + j] = C[j * d + k];
        }
    } else {
        int np = P->kind == FR_PROXAL_NP;
        size_t off = 0, cls[2] = {0, 0};
        for (size_t k = 0; k < i; k++)
            off += P->cnt[k];
        const double *X = P->X + off * d;
        const unsigned char *lab = P->y + off, *grp = np ? NULL : P->grp + off;
        size_t S = P->cnt[i];
        for (size_t t = 0; t < S; t++)
            cls[np ? lab[t] : grp[t]]++;
        /* NP: f from class 0, c from class 1.  FAIR: f from all, D = group 0 - group 1. */
        double fw = 0, cw[2] = {0, 0};
        if (i >= 1)
            fw = np ? 1.0 / ((double)n * (double)cls[0]) : 1.0 / ((double)n * (double)S);
        if (np && i >= 1)
            cw[1] = 1.0 / (double)cls[1];
        if (!np)
            cw[0] = 1.0 / (double)cls[0], cw[1] = -1.0 / (double)cls[1];
        double fs = 0, cs = 0;
        for (size_t t = 0; t < S; t++) {
            const double *x = X + t * d;
            double tt = cblas_ddot(di, x, 1, w, 1), sp, s, h;
            logi(tt, &sp, &s, &h);
            double yl = lab[t], phi = sp - yl * tt, dphi = s - yl;
            int inf = np ? lab[t] == 0 : 1;                  /* term of f_i */
            double a = np ? (lab[t] == 1 ? cw[1] : 0) : cw[grp[t]];   /* weight in c */
            if (inf && i >= 1) {
                fs += phi;
                if (gi)
                    cblas_daxpy(di, dphi * fw, x, 1, g, 1);
                if (Hi)
                    cblas_dsyr(CblasRowMajor, CblasUpper, di, h * fw, x, 1, H, di);
            }
            if (a != 0) {
                cs += a * phi;
                if (Ji)
                    cblas_daxpy(di, a * dphi, x, 1, J, (int)m);
                if (Hy)
                    cblas_dsyr(CblasRowMajor, CblasUpper, di, a * h, x, 1, Q, di);
            }
        }
        f[0] = fs * fw;
        if (Hi)
            mirror(H, d);
        if (Hy)
            mirror(Q, d);
        if (m >= 1) {
            double r = np ? P->r[i - 1] : P->r[i];
            c[0] = cs - r;
            if (m == 2) {
                c[1] = -cs - r;
                for (size_t k = 0; k < d; k++)
                    J[2 * k + 1] = -J[2 * k];
            }
            double yw = m == 2 && y != NULL ? y[0] - y[1] : (y != NULL ? y[0] : 0);
            for (size_t k = 0; k < nQ; k++)
                Q[k] *= yw;
        }
    }
    if (!allfin(T, nT)) {
        free(T);
        return FR_ENONFINITE;
    }
    if (fi)
        fi[0] = f[0];
    if (gi)
        memcpy(gi, g, d * sizeof *g);
    if (Hi)
        memcpy(Hi, H, dd * sizeof *H);
    if (ci)
        memcpy(ci, c, m * sizeof *c);
    if (Ji)
        memcpy(Ji, J, d * m * sizeof *J);
    if (Hy)
        memcpy(Hy, Q, dd * sizeof *Q);
    free(T);
    return FR_OK;
}
