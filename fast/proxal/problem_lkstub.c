/* problem_lkstub.c -- TEMPORARY stand-in for h-prob's ff_proxal_client_eval
 * (branch h-lk only; deleted when h-prob is merged).  Contract:
 * fedfast/proxal.h. */
#include <math.h>
#include <string.h>
#include "fedfast/proxal.h"

static double lg(double t) { return fmax(t, 0) + log1p(exp(-fabs(t))); }
static double sg(double t) { return t >= 0 ? 1 / (1 + exp(-t)) : exp(t) / (1 + exp(t)); }

int ff_proxal_client_eval(const fr_proxal_problem *P, size_t i, const double *w, double *fi,
                          double *gi, double *Hi, double *ci, double *Ji, const double *y,
                          double *Hy)
{
    if (!P || !w || (Hy && !y))
        return FR_ENULL;
    int st = fr_proxal_problem_check(P);
    if (st != FR_OK)
        return st;
    size_t n = P->n, d = P->d, m = fr_proxal_mi(P, i);
    if (i > n)
        return FR_ESIZE;
    for (size_t k = 0; k < d; k++)
        if (!isfinite(w[k]))
            return FR_ENONFINITE;
    if (fi) *fi = 0;
    if (gi) memset(gi, 0, d * sizeof *gi);
    if (Hi) memset(Hi, 0, d * d * sizeof *Hi);
    if (ci) memset(ci, 0, m * sizeof *ci);
    if (Ji) memset(Ji, 0, d * m * sizeof *Ji);
    if (Hy) memset(Hy, 0, d * d * sizeof *Hy);
    if (P->kind == FR_PROXAL_QP) {
        if (i >= 1) {
            const double *A = P->A + (i - 1) * d * d, *b = P->b + (i - 1) * d;
            double f = 0;
            for (size_t k = 0; k < d; k++) {
                double Aw = 0;
                for (size_t l = 0; l < d; l++)
                    Aw += A[k * d + l] * w[l];
                f += w[k] * (Aw / 2 + b[k]);
                if (gi) gi[k] = Aw + b[k];
            }
            if (fi) *fi = f;
            if (Hi) memcpy(Hi, A, d * d * sizeof *Hi);
        }
        const double *C = P->C + i * m * d, *e = P->e + i * m;
        for (size_t j = 0; j < m; j++) {
            double s = e[j];
            for (size_t k = 0; k < d; k++)
                s += C[j * d + k] * w[k];
            if (ci) ci[j] = s;
            if (Ji)
                for (size_t k = 0; k < d; k++)
                    Ji[k * m + j] = C[j * d + k];
        }
        return FR_OK;
    }
    int fair = P->kind == FR_PROXAL_FAIR;
    size_t off = 0;
    for (size_t l = 0; l < i; l++)
        off += P->cnt[l];
    size_t cn = P->cnt[i], n0 = 0, n1 = 0, g0 = 0, g1 = 0;
    for (size_t s = off; s < off + cn; s++) {
        { if (P->y[s]) n1++; else n0++; }
        if (fair) { if (P->grp[s]) g1++; else g0++; }
    }
    double cv[2] = {0, 0};
    for (size_t s = off; s < off + cn; s++) {
        const double *x = P->X + s * d;
        double t = 0;
        for (size_t k = 0; k < d; k++)
            t += w[k] * x[k];
        int yy = P->y[s];
        double ph = lg(t) - yy * t, d1 = sg(t) - yy, d2 = sg(t) * sg(-t);
        double wf = 0, wc = 0;
        if (!fair) {
            if (!yy) wf = 1.0 / ((double)n * (double)n0);
            else wc = 1.0 / (double)n1;
        } else {
            if (i >= 1) wf = 1.0 / ((double)n * (double)cn);
            wc = P->grp[s] ? (g1 ? -1.0 / (double)g1 : 0) : (g0 ? 1.0 / (double)g0 : 0);
        }
        if (fi) *fi += wf * ph;
        if (gi) for (size_t k = 0; k < d; k++) gi[k] += wf * d1 * x[k];
        if (Hi) for (size_t k = 0; k < d; k++) for (size_t l = 0; l < d; l++) Hi[k * d + l] += wf * d2 * x[k] * x[l];
        if (m) {
            cv[0] += wc * ph;
            if (Ji) for (size_t k = 0; k < d; k++) {
                Ji[k * m] += wc * d1 * x[k];
                if (fair) Ji[k * m + 1] -= wc * d1 * x[k];
            }
            if (Hy) {
                double yw = fair ? y[0] - y[1] : y[0];
                for (size_t k = 0; k < d; k++) for (size_t l = 0; l < d; l++) Hy[k * d + l] += yw * wc * d2 * x[k] * x[l];
            }
        }
    }
    if (ci && m) {
        double r = fair ? P->r[i] : P->r[i - 1];
        ci[0] = cv[0] - r;
        if (fair) ci[1] = -cv[0] - r;
    }
    return FR_OK;
}
