/* SPDX-License-Identifier: Apache-2.0 */
/* synth.c -- the seeded synthetic problems and initial points of the SSCA
 * runs (fedspec/ssca.h fr_ssca_synth, fr_ssca_init_w; docs/SSCA.md 10):
 * exact dyadic values from the shared generator (docs/RNG.md).  Integer
 * arithmetic and ldexp only. */
#include <math.h>
#include <stdlib.h>
#include "fedspec/ssca.h"

static long draw(frng_t *g, uint64_t n)
{
    uint64_t r;
    frng_below(g, n, &r);
    return (long)r;
}

int fr_ssca_synth(uint64_t seed, size_t N, size_t P, size_t L, double *Z, size_t *y)
{
    if (Z == NULL || y == NULL)
        return FR_ENULL;
    if (N == 0 || P == 0 || P > 4096 || L == 0 || N > FR_COUNT_MAX / P || L > FR_COUNT_MAX / P)
        return FR_ESIZE;
    if (L < 2)
        return FR_EDOM;
    long *v = malloc(L * P * sizeof *v);
    if (v == NULL)
        return FR_ENOMEM;
    frng_t g;
    frng_init(&g, seed, 0);
    for (size_t k = 0; k < N * P; k++)                /* z = k 2^-10, |k| <= 1024 */
        Z[k] = ldexp((double)(draw(&g, 2049) - 1024), -10);
    for (size_t k = 0; k < L * P; k++)                /* planted class map, entries in [-2, 2] */
        v[k] = draw(&g, 5) - 2;
    for (size_t n = 0; n < N; n++) {
        size_t best = 0;
        long bestv = 0;
        for (size_t l = 0; l < L; l++) {
            long s = 0;                               /* |s| <= 4096 * 1024 * 2: exact */
            for (size_t p = 0; p < P; p++)
                s += v[l * P + p] * (long)ldexp(Z[n * P + p], 10);
            if (l == 0 || s > bestv) {                /* ties to the smaller l */
                best = l;
                bestv = s;
            }
        }
        if (draw(&g, 10) == 0)                        /* 10% label noise */
            best = (size_t)draw(&g, L);
        y[n] = best;
    }
    free(v);
    return FR_OK;
}

/* e = ceil(lg / 2), lg the least integer with 2^lg >= fan_in. */
static int scale_exp(size_t fan_in)
{
    int lg = 0;
    while (lg < 63 && ((size_t)1 << lg) < fan_in)
        lg++;
    return (lg + 1) / 2;
}

int fr_ssca_init_w(uint64_t seed, size_t L, size_t J, size_t P, double *w)
{
    if (w == NULL)
        return FR_ENULL;
    size_t d;
    int s = fr_ssca_net_dim(L, J, P, &d);
    if (s != FR_OK)
        return s;
    const int e0 = scale_exp(J), e1 = scale_exp(P);
    frng_t g;
    frng_init(&g, seed, 1);
    for (size_t k = 0; k < d; k++)
        w[k] = ldexp((double)(draw(&g, 2049) - 1024), -(10 + (k < L * J ? e0 : e1)));
    return FR_OK;
}
