/* SPDX-License-Identifier: Apache-2.0 */
/* run_noise.c -- the noise of (12) in ff_pdm_run: yt += sigma xi, xi the
 * Gaussian tape of client i's noise stream (docs/RNG.md: the pairs (z0, z1)
 * of ff_rng_gaussian2, entries 2j, 2j+1 from pair j, the last z1 unused
 * when D is odd), bit for bit the values of D/2 calls of ff_rng_gaussian2
 * and the same stream state afterwards.
 *
 * Why not ff_rng_gaussian2 per pair (perf, one round at b = 30, Q = 1, m =
 * 10, n = 785: the noise was ~75% of the round, half of it outside libm):
 *  - the words: frng_next64 runs one Philox4x64-10 block at a time, a
 *    chain of 10 dependent 64x64 -> 128 products; here four consecutive
 *    blocks (counters b .. b+3, the stream's next ones) are computed side
 *    by side, so the products overlap (the same rounds, the same words);
 *  - the quadrant: the switch on q = k2 >> 51 (random: a mispredicted
 *    branch per pair) becomes selects of the same operands, 0.0 - t for a
 *    negated one as in ff_rng_gaussian2 (so -0 never appears where it does
 *    not there);
 *  - one loop over a chunk of pairs: log, sqrt and sincos of independent
 *    pairs overlap in the pipeline.
 * log, sqrt, cos and sin are the same libm calls on the same arguments as
 * ff_rng_gaussian2's, so the bits are equal (tests/fedpdm/test_run_fast.c,
 * noise_bits, checks them against ff_rng_gaussian2 pair by pair, odd and even D, any
 * stream position). */
#include "run.h"

#define PHILOX_M0 0xD2E7470EE14C6C93u
#define PHILOX_M1 0xCA5A826395121157u
#define PHILOX_W0 0x9E3779B97F4A7C15u
#define PHILOX_W1 0xBB67AE8584CAA73Bu

/* Blocks b .. b+3 of the stream keyed (k0, k1) (docs/RNG.md, counter (b,
 * 0, 0, 0)), words x0..x3 of each in order into out[0 .. 15]. */
static void philox4(uint64_t *out, uint64_t b, uint64_t k0, uint64_t k1)
{
    uint64_t x0[4], x1[4], x2[4], x3[4];
    for (int l = 0; l < 4; l++) {
        x0[l] = b + (uint64_t)l;
        x1[l] = x2[l] = x3[l] = 0;
    }
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 += PHILOX_W0;
            k1 += PHILOX_W1;
        }
        for (int l = 0; l < 4; l++) {
            const unsigned __int128 p0 = (unsigned __int128)PHILOX_M0 * x0[l];
            const unsigned __int128 p1 = (unsigned __int128)PHILOX_M1 * x2[l];
            const uint64_t y0 = (uint64_t)(p1 >> 64) ^ x1[l] ^ k0;
            const uint64_t y2 = (uint64_t)(p0 >> 64) ^ x3[l] ^ k1;
            x1[l] = (uint64_t)p1;
            x3[l] = (uint64_t)p0;
            x0[l] = y0;
            x2[l] = y2;
        }
    }
    for (int l = 0; l < 4; l++) {
        out[4 * l] = x0[l];
        out[4 * l + 1] = x1[l];
        out[4 * l + 2] = x2[l];
        out[4 * l + 3] = x3[l];
    }
}

/* The next cnt words of g, as cnt calls of frng_next64 (and g's state
 * after them). */
static void words(frng_t *g, uint64_t *out, size_t cnt)
{
    size_t i = 0;
    while (i < cnt && g->pos < 4)
        out[i++] = g->buf[g->pos++];
    for (; cnt - i >= 16; i += 16) {
        philox4(out + i, g->block, g->key[0], g->key[1]);
        g->block += 4;
    }
    while (i < cnt)
        out[i++] = frng_next64(g);
}

#define NOISE_CHUNK 256          /* pairs per chunk */

void ffi_pdm_noise(double *yt, size_t D, double sig, frng_t *g)
{
    uint64_t w[2 * NOISE_CHUNK];
    double z[2 * NOISE_CHUNK];
    const size_t np = D / 2 + D % 2;
    for (size_t p0 = 0; p0 < np; p0 += NOISE_CHUNK) {
        const size_t cp = np - p0 < NOISE_CHUNK ? np - p0 : NOISE_CHUNK;
        words(g, w, 2 * cp);
        for (size_t j = 0; j < cp; j++) {
            /* ff_rng_gaussian2's operations (fast/core/rng_draws.c) */
            /* the integers are < 2^53: converted as int64_t, the same
             * (exact) doubles without the unsigned conversion's branch */
            const double u1 = (double)(int64_t)(2 * (w[2 * j] >> 12) + 1) * 0x1p-53;
            const uint64_t k2 = w[2 * j + 1] >> 11;
            const double r = sqrt(-2 * log(u1));
            const unsigned q = (unsigned)(k2 >> 51);
            const double f = (double)(int64_t)(k2 & (((uint64_t)1 << 51) - 1)) * 0x1p-51;
            const double phi = 0x1.921fb54442d18p+0 * f;
            const double c = cos(phi), s = sin(phi);
            const double a = (q & 1) ? s : c, b = (q & 1) ? c : s;
            const double cq = (q == 1 || q == 2) ? 0.0 - a : a;
            const double sq = q >= 2 ? 0.0 - b : b;
            z[2 * j] = r * cq;
            z[2 * j + 1] = r * sq;
        }
        double *y = yt + 2 * p0;
        const size_t ne = 2 * p0 + 2 * cp <= D ? 2 * cp : D - 2 * p0;
        for (size_t k = 0; k < ne; k++)
            y[k] += sig * z[k];
    }
}
