/* SPDX-License-Identifier: Apache-2.0 */
/* rng.c -- the deterministic counter-based generator (fedref_common.h).
 * docs/RNG.md is the normative text; section names below refer to it.
 * Integer arithmetic only: this file is the specification layer shared by
 * ref and fast, so it contains no floating point. */
#include <stdlib.h>
#include "fedref_common.h"

/* Philox4x64 constants (Salmon et al. SC'11, Random123 philox.h):
 * round multipliers and the Weyl increments of the key schedule. */
#define PHILOX_M0 0xD2E7470EE14C6C93u
#define PHILOX_M1 0xCA5A826395121157u
#define PHILOX_W0 0x9E3779B97F4A7C15u
#define PHILOX_W1 0xBB67AE8584CAA73Bu
#define PHILOX_ROUNDS 10

_Static_assert(sizeof(size_t) <= sizeof(uint64_t),
               "frng_sample draws indices with 64-bit frng_below");

/* 128-bit product a*b = hi 2^64 + lo (docs/RNG.md, "Philox4x64-10"). */
static uint64_t mulhilo(uint64_t a, uint64_t b, uint64_t *hi)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
}

void frng_philox4x64_10(uint64_t out[4], const uint64_t ctr[4], const uint64_t key[2])
{
    if (out == NULL || ctr == NULL || key == NULL)
        return;
    uint64_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
    uint64_t k0 = key[0], k1 = key[1];
    for (int r = 0; r < PHILOX_ROUNDS; r++) {
        if (r > 0) {            /* key schedule: bump before rounds 1..9 */
            k0 += PHILOX_W0;
            k1 += PHILOX_W1;
        }
        uint64_t hi0, hi1;
        uint64_t lo0 = mulhilo(PHILOX_M0, x0, &hi0);
        uint64_t lo1 = mulhilo(PHILOX_M1, x2, &hi1);
        uint64_t y0 = hi1 ^ x1 ^ k0;
        uint64_t y2 = hi0 ^ x3 ^ k1;
        x0 = y0;
        x1 = lo1;
        x2 = y2;
        x3 = lo0;
    }
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
}

void frng_init(frng_t *g, uint64_t seed, uint64_t stream)
{
    if (g == NULL)
        return;
    g->key[0] = seed;
    g->key[1] = stream;
    g->block = 0;
    for (int i = 0; i < 4; i++)
        g->buf[i] = 0;
    g->pos = 4;
}

/* "Stream": block b is Philox(counter (b,0,0,0), key (seed,stream));
 * words x0..x3 of block 0, then of block 1, ...  The block number wraps
 * modulo 2^64 (after 2^66 words; never reached in practice).  A NULL
 * generator yields 0 (no status can be returned here). */
uint64_t frng_next64(frng_t *g)
{
    if (g == NULL)
        return 0;
    if (g->pos >= 4) {
        const uint64_t ctr[4] = {g->block, 0, 0, 0};
        frng_philox4x64_10(g->buf, ctr, g->key);
        g->block++;
        g->pos = 0;
    }
    return g->buf[g->pos++];
}

/* "Integers": with r = 2^64 mod n, draw words x until x < 2^64 - r, and
 * return x mod n.  Each attempt uses one word; the acceptance region is a
 * whole number of copies of [0, n), so the result is exactly uniform. */
int frng_below(frng_t *g, uint64_t n, uint64_t *out)
{
    if (g == NULL || out == NULL)
        return FR_ENULL;
    if (n == 0)
        return FR_EDOM;
    const uint64_t r = (0 - n) % n;         /* (2^64 - n) mod n = 2^64 mod n */
    const uint64_t last = UINT64_MAX - r;   /* largest accepted word */
    uint64_t x;
    do
        x = frng_next64(g);
    while (x > last);
    *out = x % n;
    return FR_OK;
}

/* "Sampling without replacement": partial Fisher-Yates on the identity. */
int frng_sample(frng_t *g, size_t n, size_t k, size_t *out)
{
    if (g == NULL || out == NULL)
        return FR_ENULL;
    if (n > FR_COUNT_MAX)               /* the n-entry workspace: a size, not memory */
        return FR_ESIZE;
    if (k > n)
        return FR_EDOM;
    if (k == 0)
        return FR_OK;
    size_t *a = malloc(n * sizeof *a);
    if (a == NULL)
        return FR_ENOMEM;
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    for (size_t i = 0; i < k; i++) {
        uint64_t d;
        (void)frng_below(g, (uint64_t)(n - i), &d);   /* n - i >= 1: cannot fail */
        size_t j = i + (size_t)d;
        size_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        out[i] = a[i];
    }
    free(a);
    return FR_OK;
}

/* "Uniform reals": the integers behind u in [0,1) and u in (0,1). */
uint64_t frng_u53(frng_t *g)
{
    return frng_next64(g) >> 11;
}

uint64_t frng_u52_open(frng_t *g)
{
    return frng_next64(g) >> 12;
}
