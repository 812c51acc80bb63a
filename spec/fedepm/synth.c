/* SPDX-License-Identifier: Apache-2.0 */
/* synth.c -- the seeded synthetic problems of the family
 * (fedspec/fedepm.h, docs/FEDEPM.md "synthetic problems"): exact dyadic
 * data from the shared generator.  Integer arithmetic and ldexp only. */
#include <math.h>
#include "fedspec/fedepm.h"

int fr_synth_sizes(uint64_t seed, size_t m, size_t dmin, size_t dmax, size_t *d)
{
    if (d == NULL)
        return FR_ENULL;
    if (m == 0 || m > FR_COUNT_MAX)
        return FR_ESIZE;
    if (dmin < 1 || dmin > dmax)
        return FR_EDOM;
    frng_t g;
    frng_init(&g, seed, 0);
    for (size_t i = 0; i < m; i++) {
        uint64_t r;
        frng_below(&g, (uint64_t)(dmax - dmin) + 1, &r);
        d[i] = dmin + (size_t)r;
    }
    return FR_OK;
}

/* 1 iff the byte ranges [p, p + np) and [q, q + nq) overlap. */
static int overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

int fr_synth_data(uint64_t seed, size_t m, size_t n, const size_t *d, double *X, double *b)
{
    if (d == NULL || X == NULL || b == NULL)
        return FR_ENULL;
    if (m == 0 || m > FR_COUNT_MAX || n == 0 || n > 4096)
        return FR_ESIZE;
    size_t D = 0;
    for (size_t i = 0; i < m; i++) {
        if (d[i] == 0 || d[i] > FR_COUNT_MAX / n - D)
            return FR_ESIZE;
        D += d[i];
    }
    if (overlap(X, D * n * sizeof *X, b, D * sizeof *b))
        return FR_EDOM;                           /* two outputs */
    int s = 0;
    while (s < 31 && ((size_t)1 << (2 * s)) < D)   /* least s with 4^s >= D */
        s++;
    frng_t g;
    frng_init(&g, seed, 1);
    long wstar[4096];
    uint64_t r;
    for (size_t j = 0; j < n; j++) {
        frng_below(&g, 9, &r);
        wstar[j] = (long)r - 4;
    }
    for (size_t t = 0; t < D; t++) {
        long dot = 0;
        for (size_t j = 0; j < n; j++) {
            frng_below(&g, 2049, &r);
            long k = (long)r - 1024;
            dot += k * wstar[j];                  /* |dot| <= 4096 * 1024 * 4: exact */
            X[t * n + j] = ldexp((double)k, -(10 + s));
        }
        int y = dot > 0;
        frng_below(&g, 10, &r);
        if (r == 0)
            y = !y;
        b[t] = y;
    }
    return FR_OK;
}
