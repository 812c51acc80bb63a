/* SPDX-License-Identifier: Apache-2.0 */
/* model_problem.c -- the problem of 003 Sec. V-A (fedspec/fedpdm.h, the
 * model section): its check and the seeded synthetic generator.  Integer
 * arithmetic only (the features are k 2^-8). */
#include <math.h>
#include "fedspec/fedepm.h"
#include "fedspec/fedpdm.h"
#include "../internal.h"

static int isfin(double x) { return x - x == 0; }

/* The per-call part of the check (every call, sealed or not): the
 * pointers, N, m, n and every d_i (the extents, *D = sum d_i); FR_OK,
 * FR_ENULL or FR_ESIZE.  The labels are checked by the caller. */
static int sizes(const fr_pdm_problem *P, size_t *D)
{
    if (P == NULL || P->d == NULL || P->A == NULL || P->y == NULL)
        return FR_ENULL;
    if (P->N == 0 || P->m == 0 || P->n == 0 || P->N > FR_COUNT_MAX || P->m > FR_COUNT_MAX / P->n)
        return FR_ESIZE;
    size_t s = 0;
    for (size_t i = 0; i < P->N; i++) {
        if (P->d[i] == 0 || P->d[i] > FR_COUNT_MAX / P->n - s)
            return FR_ESIZE;
        s += P->d[i];
    }
    *D = s;
    return FR_OK;
}

/* The seal's hash (fedspec/fedpdm.h): N, m, n, d, A, y, D, beta, gamma. */
#define PDM_SEAL_KEY 0x6664706d70726f62ull   /* "fdpmprob" */
static uint64_t seal_hash(const fr_pdm_problem *P, size_t D)
{
    uint64_t h = spec_seal_start(PDM_SEAL_KEY);
    h = spec_seal_u64(h, P->N);
    h = spec_seal_u64(h, P->m);
    h = spec_seal_u64(h, P->n);
    h = spec_seal_ptr(h, P->d);
    h = spec_seal_ptr(h, P->A);
    h = spec_seal_ptr(h, P->y);
    h = spec_seal_u64(h, D);
    h = spec_seal_dbl(h, P->beta);
    h = spec_seal_dbl(h, P->gamma);
    return spec_seal_end(h);
}

/* sealed = 1: the scan of A is skipped (rule 6); everything else is
 * checked as unsealed, in the same class order. */
static int check(const fr_pdm_problem *P, int use_seal)
{
    size_t D = 0;
    int st = sizes(P, &D);
    if (st != FR_OK)
        return st;
    /* the labels are indices: checked on every call (no vectorised early
     * exit: the largest label, one compare) */
    size_t ymax = 0;
    const size_t *y = P->y;
    for (size_t t = 0; t < D; t++)
        ymax = y[t] > ymax ? y[t] : ymax;
    if (ymax >= P->m)
        return FR_ESIZE;
    const int sealed = use_seal && P->seal != 0 && P->seal == seal_hash(P, D);
    if (!sealed)
        for (size_t k = 0; k < D * P->n; k++)
            if (!isfin(P->A[k]))
                return FR_ENONFINITE;
    if (!isfin(P->beta) || !isfin(P->gamma))
        return FR_ENONFINITE;
    if (P->beta < 0 || P->gamma < 0)
        return FR_EDOM;
    return FR_OK;
}

int fr_pdm_problem_check(const fr_pdm_problem *P)
{
    return check(P, 1);
}

int fr_pdm_problem_seal(fr_pdm_problem *P)
{
    if (P == NULL)
        return FR_ENULL;
    int st = check(P, 0);
    size_t D = 0;
    P->seal = st == FR_OK && sizes(P, &D) == FR_OK ? seal_hash(P, D) : 0;
    return st;
}

int fr_pdm_problem_sealed(const fr_pdm_problem *P)
{
    size_t D = 0;
    return P != NULL && P->seal != 0 && sizes(P, &D) == FR_OK && P->seal == seal_hash(P, D);
}

/* The sizes are drawn as module fedepm's synthetic problems draw theirs
 * (the same stream, the same rule, the same statuses). */
int fr_pdm_synth_sizes(uint64_t seed, size_t N, size_t dmin, size_t dmax, size_t *d)
{
    return fr_synth_sizes(seed, N, dmin, dmax, d);
}

static int overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

int fr_pdm_synth_data(uint64_t seed, size_t N, size_t m, size_t n, const size_t *d, double *A, size_t *y)
{
    if (d == NULL || A == NULL || y == NULL)
        return FR_ENULL;
    if (N == 0 || N > FR_COUNT_MAX || m == 0 || n == 0 || n > 4096 || m > 256)
        return FR_ESIZE;
    size_t D = 0;
    for (size_t i = 0; i < N; i++) {
        if (d[i] == 0 || d[i] > FR_COUNT_MAX / n - D)
            return FR_ESIZE;
        D += d[i];
    }
    if (overlap(A, D * n * sizeof *A, y, D * sizeof *y))
        return FR_EDOM;                           /* two outputs */
    frng_t g;
    frng_init(&g, seed, 1);
    uint64_t r;
    unsigned char proto[256 * 64];               /* first 64 features' prototypes */
    unsigned char *pr = proto;
    size_t nl = n < 65 ? n - 1 : 64;              /* features 1..nl have prototypes */
    for (size_t k = 0; k < m; k++)
        for (size_t l = 0; l < nl; l++) {
            frng_below(&g, 2, &r);
            pr[k * 64 + l] = (unsigned char)r;
        }
    for (size_t t = 0; t < D; t++) {
        frng_below(&g, m, &r);
        y[t] = (size_t)r;
        A[t * n] = 1;                             /* the bias feature */
        for (size_t l = 1; l < n; l++) {
            frng_below(&g, 128, &r);
            unsigned hi = l <= nl ? pr[y[t] * 64 + l - 1] : 0;
            A[t * n + l] = ldexp((double)(hi * 128 + r), -8);
        }
    }
    return FR_OK;
}
