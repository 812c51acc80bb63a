/* problem_lkstub.c -- TEMPORARY stand-in for h-prob's problem check (branch
 * h-lk only, so that l_k links before h-prob lands; deleted when h-prob is
 * merged).  Contract: fedspec/proxal.h. */
#include <math.h>
#include "fedspec/proxal.h"

static int fin(const double *x, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (!isfinite(x[j]))
            return 0;
    return 1;
}

int fr_proxal_problem_check(const fr_proxal_problem *P)
{
    if (!P)
        return FR_ENULL;
    size_t n = P->n, d = P->d;
    if (P->kind == FR_PROXAL_QP) {
        if (!P->A || !P->b || (P->mt && (!P->C || !P->e)))
            return FR_ENULL;
        if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX || P->mt > FR_PROXAL_D_MAX)
            return FR_ESIZE;
        if (!fin(P->A, n * d * d) || !fin(P->b, n * d) || !fin(P->C, (n + 1) * P->mt * d)
            || !fin(P->e, (n + 1) * P->mt))
            return FR_ENONFINITE;
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < d; k++)
                for (size_t l = 0; l < k; l++)
                    if (P->A[i * d * d + k * d + l] != P->A[i * d * d + l * d + k])
                        return FR_EDOM;
    } else if (P->kind == FR_PROXAL_NP || P->kind == FR_PROXAL_FAIR) {
        int fair = P->kind == FR_PROXAL_FAIR;
        if (!P->cnt || !P->X || !P->y || !P->r || (fair && !P->grp))
            return FR_ENULL;
        if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX)
            return FR_ESIZE;
        size_t tot = 0;
        for (size_t i = 0; i <= n; i++)
            tot += P->cnt[i];
        if (!fin(P->X, tot * d) || !fin(P->r, fair ? n + 1 : n))
            return FR_ENONFINITE;
        for (size_t s = 0; s < tot; s++)
            if (P->y[s] > 1 || (fair && P->grp[s] > 1))
                return FR_EDOM;
        for (size_t j = 0; j < (fair ? n + 1 : n); j++)
            if (P->r[j] < 0)
                return FR_EDOM;
        size_t off = P->cnt[0];
        for (size_t i = 1; i <= n && !fair; i++) {
            int c0 = 0, c1 = 0;
            for (size_t s = off; s < off + P->cnt[i]; s++)
                { if (P->y[s]) c1++; else c0++; }
            if (!c0 || !c1)
                return FR_EDOM;
            off += P->cnt[i];
        }
        if (!fair && P->cnt[0] != 0)
            return FR_EDOM;
    } else {
        return FR_EDOM;
    }
    if (P->h != FR_PROXAL_H_ZERO && P->h != FR_PROXAL_H_L1 && P->h != FR_PROXAL_H_BOX)
        return FR_EDOM;
    return FR_OK;
}

size_t fr_proxal_mi(const fr_proxal_problem *P, size_t i)
{
    if (fr_proxal_problem_check(P) != FR_OK || i > P->n)
        return 0;
    return P->kind == FR_PROXAL_QP ? P->mt : P->kind == FR_PROXAL_NP ? (i ? 1 : 0) : 2;
}

size_t fr_proxal_mtot(const fr_proxal_problem *P)
{
    size_t s = 0;
    if (fr_proxal_problem_check(P) != FR_OK)
        return 0;
    for (size_t i = 0; i <= P->n; i++)
        s += fr_proxal_mi(P, i);
    return s;
}

int fr_proxal_row_eq(const fr_proxal_problem *P, size_t i, size_t j)
{
    return fr_proxal_mi(P, i) > j && P->kind == FR_PROXAL_QP;
}
