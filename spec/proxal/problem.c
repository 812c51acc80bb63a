/* SPDX-License-Identifier: Apache-2.0 */
/* problem.c -- the problems (25)-(28) of 004 (fedspec/proxal.h, section
 * "the problems"): the check, the constraint counts m_i and which rows are
 * equalities, and the seal (fedref_common.h rule 6).  Integer logic and
 * comparisons only. */
#include "fedspec/proxal.h"
#include "../internal.h"
#include "seal.h"

static int isfin(double x) { return spec_all_finite(&x, 1); }

static int allfin(const double *x, size_t k) { return spec_all_finite(x, k); }

/* The structural fields only (no data read): kind, n, d, mt. */
static int shape_ok(const fr_proxal_problem *P)
{
    if (P == NULL || P->n == 0 || P->n > FR_PROXAL_N_MAX || P->d == 0 || P->d > FR_PROXAL_D_MAX)
        return 0;
    if (P->kind == FR_PROXAL_QP)
        return P->mt >= 1 && P->mt <= FR_PROXAL_D_MAX;
    return P->kind == FR_PROXAL_NP || P->kind == FR_PROXAL_FAIR;
}

int fr_proxal_problem_sealed(const fr_proxal_problem *P)
{
    return P != NULL && P->seal != 0 && P->seal == spec_proxal_seal_hash(P);
}

/* The check; sealed: skip the O(data) scans of the binary64 arrays (their
 * finiteness; r >= 0, A_i symmetric, lo <= hi).  The pointers, sizes, cnt
 * (the extents) and the labels y, grp (indices: seen[y], sg[grp]) and the
 * scalars are checked either way, in the same class order. */
static int check(const fr_proxal_problem *P, int sealed)
{
    if (P == NULL)
        return FR_ENULL;
    int k = P->kind, qp = k == FR_PROXAL_QP, np = k == FR_PROXAL_NP, fair = k == FR_PROXAL_FAIR;
    if ((qp && (!P->A || !P->b || !P->C || !P->e)) || ((np || fair) && (!P->cnt || !P->X || !P->y || !P->r))
        || (fair && !P->grp) || (P->h == FR_PROXAL_H_BOX && (!P->lo || !P->hi)))
        return FR_ENULL;
    size_t n = P->n, d = P->d, S = 0;
    if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX)
        return FR_ESIZE;
    if (qp && (P->mt == 0 || P->mt > FR_PROXAL_D_MAX))
        return FR_ESIZE;
    if (np || fair) {
        if (np && P->cnt[0] != 0)
            return FR_ESIZE;
        for (size_t i = 0; i <= n; i++) {
            if (P->cnt[i] > FR_COUNT_MAX / d - S)
                return FR_ESIZE;
            S += P->cnt[i];
        }
    }
    /* n d^2 <= 2^12 2^26 and (n + 1) mt d <= 2^39: far below FR_COUNT_MAX */
    if (!sealed) {
        if (qp && (!allfin(P->A, n * d * d) || !allfin(P->b, n * d) || !allfin(P->C, (n + 1) * P->mt * d)
                   || !allfin(P->e, (n + 1) * P->mt)))
            return FR_ENONFINITE;
        if ((np || fair) && (!allfin(P->X, S * d) || !allfin(P->r, np ? n : n + 1)))
            return FR_ENONFINITE;
        if (P->h == FR_PROXAL_H_BOX && (!allfin(P->lo, d) || !allfin(P->hi, d)))
            return FR_ENONFINITE;
    }
    if (P->h == FR_PROXAL_H_L1 && !isfin(P->gamma))
        return FR_ENONFINITE;
    if (!qp && !np && !fair)
        return FR_EDOM;
    if (P->h != FR_PROXAL_H_ZERO && P->h != FR_PROXAL_H_L1 && P->h != FR_PROXAL_H_BOX)
        return FR_EDOM;
    if (P->h == FR_PROXAL_H_L1 && P->gamma < 0)
        return FR_EDOM;
    if (P->h == FR_PROXAL_H_BOX && !sealed)
        for (size_t j = 0; j < d; j++)
            if (P->lo[j] > P->hi[j])
                return FR_EDOM;
    if (qp) {
        for (size_t i = 0; i < n && !sealed; i++) {
            const double *A = P->A + i * d * d;
            for (size_t a = 0; a < d; a++)
                for (size_t b = a + 1; b < d; b++)
                    if (A[a * d + b] != A[b * d + a])
                        return FR_EDOM;
        }
        return FR_OK;
    }
    for (size_t i = 0; i < (np ? n : n + 1) && !sealed; i++)
        if (P->r[i] < 0)
            return FR_EDOM;
    size_t t = 0;
    for (size_t i = 0; i <= n; i++) {
        size_t seen[2] = {0, 0}, sg[2] = {0, 0};
        for (size_t j = 0; j < P->cnt[i]; j++, t++) {
            if (P->y[t] > 1 || (fair && P->grp[t] > 1))
                return FR_EDOM;
            seen[P->y[t]]++;
            if (fair)
                sg[P->grp[t]]++;
        }
        if (np && i >= 1 && (seen[0] == 0 || seen[1] == 0))
            return FR_EDOM;                     /* (26) needs both classes */
        if (fair && (sg[0] == 0 || sg[1] == 0))
            return FR_EDOM;                     /* (28b) needs both groups */
    }
    return FR_OK;
}

int fr_proxal_problem_check(const fr_proxal_problem *P)
{
    return check(P, fr_proxal_problem_sealed(P));
}

int fr_proxal_problem_seal(fr_proxal_problem *P)
{
    if (P == NULL)
        return FR_ENULL;
    int st = check(P, 0);
    P->seal = st == FR_OK ? spec_proxal_seal_hash(P) : 0;
    return st;
}

size_t fr_proxal_mi(const fr_proxal_problem *P, size_t i)
{
    if (!shape_ok(P) || i > P->n)
        return 0;
    if (P->kind == FR_PROXAL_QP)
        return P->mt;
    if (P->kind == FR_PROXAL_NP)
        return i == 0 ? 0 : 1;
    return 2;
}

size_t fr_proxal_mtot(const fr_proxal_problem *P)
{
    if (!shape_ok(P))
        return 0;
    size_t s = 0;
    for (size_t i = 0; i <= P->n; i++)
        s += fr_proxal_mi(P, i);
    return s;
}

int fr_proxal_row_eq(const fr_proxal_problem *P, size_t i, size_t j)
{
    return shape_ok(P) && P->kind == FR_PROXAL_QP && i <= P->n && j < P->mt;
}
