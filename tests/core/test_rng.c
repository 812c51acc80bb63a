/* SPDX-License-Identifier: Apache-2.0 */
/* test_rng.c -- the deterministic generator (spec/core/rng.c) and the draws of
 * ref/core/rng_draws.c and fast/core/rng_draws.c, against docs/RNG.md.
 *
 * Every number of the known-answer tables of docs/RNG.md is checked here;
 * those tables were computed by docs/rng_reference.py, an independent
 * Python implementation (decimal arithmetic for the real-valued draws). */
#include <check.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_rng(void);

#define P2_51 ((uint64_t)1 << 51)
#define P2_52 ((uint64_t)1 << 52)
#define P2_63 ((uint64_t)1 << 63)
#define EPS53 0x1p-53                   /* LAPACK's eps */

/* ---- helpers ----------------------------------------------------------- */

/* Words consumed since frng_init (block b filled, pos used of it). */
static uint64_t words_used(const frng_t *g)
{
    return 4 * g->block + g->pos - 4;
}

static int same_state(const frng_t *a, const frng_t *b)
{
    return a->key[0] == b->key[0] && a->key[1] == b->key[1]
        && a->block == b->block && a->pos == b->pos
        && memcmp(a->buf, b->buf, sizeof a->buf) == 0;
}

/* Make the next words of g exactly w[0..n-1] (n <= 4). */
static void inject(frng_t *g, const uint64_t *w, unsigned n)
{
    frng_init(g, 0, 0);
    g->block = 1;
    g->pos = 4 - n;
    for (unsigned i = 0; i < n; i++)
        g->buf[4 - n + i] = w[i];
}

/* Distance in units in the last place between two finite doubles. */
static uint64_t ulp_dist(double a, double b)
{
    int64_t ia, ib;
    memcpy(&ia, &a, sizeof ia);
    memcpy(&ib, &b, sizeof ib);
    if (ia < 0)
        ia = INT64_MIN - ia;
    if (ib < 0)
        ib = INT64_MIN - ib;
    return ia > ib ? (uint64_t)ia - (uint64_t)ib : (uint64_t)ib - (uint64_t)ia;
}

#define ck_assert_ulps(got, want, maxu, what, i) do {                        \
        double g_ = (got), w_ = (want);                                      \
        uint64_t d_ = ulp_dist(g_, w_);                                      \
        ck_assert_msg(d_ <= (uint64_t)(maxu),                                \
            "%s[%d]: got %a (%.17g), want %a (%.17g): %" PRIu64 " ulps > %d", \
            (what), (int)(i), g_, g_, w_, w_, d_, (int)(maxu));              \
    } while (0)

/* Equal as values and in the sign of zero. */
#define ck_assert_same_double(got, want, what, i) do {                      \
        double g_ = (got), w_ = (want);                                      \
        ck_assert_msg(g_ == w_ && signbit(g_) == signbit(w_),               \
            "%s[%d]: got %a (%.17g), want %a (%.17g)",                       \
            (what), (int)(i), g_, g_, w_, w_);                               \
    } while (0)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov statistic of x[0..n-1] (sorted in place) against F. */
static double ks_stat(double *x, size_t n, double (*F)(double))
{
    qsort(x, n, sizeof *x, cmp_double);
    double d = 0;
    for (size_t i = 0; i < n; i++) {
        double f = F(x[i]);
        double lo = f - (double)i / (double)n, hi = (double)(i + 1) / (double)n - f;
        if (lo > d) d = lo;
        if (hi > d) d = hi;
    }
    return d;
}

/* Critical value of the KS statistic at level 1e-3: sqrt(-ln(5e-4)/2)/sqrt(n). */
static double ks_crit(size_t n)
{
    return 1.9495 / sqrt((double)n);
}

static double laplace_cdf(double x)
{
    return x < 0 ? 0.5 * exp(x) : 1 - 0.5 * exp(-x);
}

static double normal_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* ---- an independent Philox4x64-10 (32-bit limbs, random access) -------- */

static void mul64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Word j of stream (seed, stream): block j/4, word j%4 (docs/RNG.md). */
static uint64_t slow_word(uint64_t seed, uint64_t stream, uint64_t j)
{
    static const uint64_t M[2] = {0xD2E7470EE14C6C93u, 0xCA5A826395121157u};
    static const uint64_t W[2] = {0x9E3779B97F4A7C15u, 0xBB67AE8584CAA73Bu};
    uint64_t x[4] = {j / 4, 0, 0, 0};
    for (unsigned r = 0; r < 10; r++) {
        uint64_t k0 = seed + r * W[0], k1 = stream + r * W[1];
        uint64_t h0, l0, h1, l1;
        mul64x64(M[0], x[0], &h0, &l0);
        mul64x64(M[1], x[2], &h1, &l1);
        uint64_t y[4] = {h1 ^ x[1] ^ k0, l1, h0 ^ x[3] ^ k1, l0};
        memcpy(x, y, sizeof x);
    }
    return x[j % 4];
}

/* ---- Philox known answers ---------------------------------------------- */

/* Random123 kat_vectors, "philox4x64 10 CTR0..3 KEY0..1 OUT0..3" lines.
 * The first three (zero, all-ones, pi digits) are the lines that
 * DEShawResearch/Random123-Boost libs/random/test/test_philox.cpp says were
 * "cut-and-pasted from the kat_vectors file in the original Random123
 * distribution"; the last two are from the extended examples/kat_vectors
 * of the Random123 distribution (mirror girving/random123-manual). */
static const uint64_t philox_kat[5][10] = {
    {0, 0, 0, 0, 0, 0,
     0x16554d9eca36314cu, 0xdb20fe9d672d0fdcu, 0xd7e772cee186176bu, 0x7e68b68aec7ba23bu},
    {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
     0x87b092c3013fe90bu, 0x438c3c67be8d0224u, 0x9cc7d7c69cd777b6u, 0xa09caebf594f0ba0u},
    {0x243f6a8885a308d3u, 0x13198a2e03707344u, 0xa4093822299f31d0u, 0x082efa98ec4e6c89u,
     0x452821e638d01377u, 0xbe5466cf34e90c6cu,
     0xa528f45403e61d95u, 0x38c72dbd566e9788u, 0xa5a1610e72fd18b5u, 0x57bd43b5e52b7fe6u},
    {1, 0, 0, 0, 1, 0,
     0x4db6a27b756282dfu, 0xd944fa03babe0e2fu, 0x27f872e577060d32u, 0x07f697696a0482a2u},
    {0x243f6a8885a308d3u, 0x13198a2e03707344u, 0xa4093822299f31d0u, 0x082efa98ec4e6c89u,
     0, UINT64_MAX,
     0x7abbd897f6d97f60u, 0xa35c61aae7c5a341u, 0x939a3dd4f55b2e11u, 0xaca6e644802e2b83u},
};

START_TEST(philox_known_answers)
{
    for (int i = 0; i < 5; i++) {
        const uint64_t *v = philox_kat[i];
        uint64_t out[4];
        frng_philox4x64_10(out, v, v + 4);
        for (int j = 0; j < 4; j++)
            ck_assert_msg(out[j] == v[6 + j], "KAT %d word %d: %016" PRIx64
                          " != %016" PRIx64, i, j, out[j], v[6 + j]);
    }
    /* NULL arguments are ignored, not dereferenced. */
    uint64_t out[4] = {7, 7, 7, 7};
    frng_philox4x64_10(out, NULL, philox_kat[0]);
    frng_philox4x64_10(NULL, philox_kat[0], philox_kat[0]);
    ck_assert(out[0] == 7);
}
END_TEST

/* ---- the word stream (docs/RNG.md table "Streams") --------------------- */

static const uint64_t stream_0_0[8] = {
    0x16554d9eca36314cu, 0xdb20fe9d672d0fdcu, 0xd7e772cee186176bu, 0x7e68b68aec7ba23bu,
    0x02f4ba6408e4d89bu, 0x3dd62b0b9ca8c5b2u, 0x1c8667a55d902e79u, 0x907d7a052fd5b4dcu};
static const uint64_t stream_42_7[8] = {
    0x2fd1bc0d2c8697bbu, 0x8ee17f67a549bba6u, 0x1bdce1f847e7df47u, 0xe123b6bbe4e89f03u,
    0xa64064f34e84b9a3u, 0xe287959a866a08fdu, 0x8dc181f009b96c03u, 0xf3f6001d4fa83454u};

START_TEST(stream_known_answers)
{
    frng_t g;
    frng_init(&g, 0, 0);
    for (int j = 0; j < 8; j++)
        ck_assert_msg(frng_next64(&g) == stream_0_0[j], "(0,0) word %d", j);
    frng_init(&g, 42, 7);
    for (int j = 0; j < 8; j++)
        ck_assert_msg(frng_next64(&g) == stream_42_7[j], "(42,7) word %d", j);
    ck_assert_uint_eq(words_used(&g), 8);
    /* (seed 1, stream 0) block 1 = published KAT ctr (1,0,0,0), key (1,0). */
    frng_init(&g, 1, 0);
    for (int j = 0; j < 8; j++) {
        uint64_t w = frng_next64(&g);
        if (j >= 4)
            ck_assert_msg(w == philox_kat[3][6 + j - 4], "(1,0) word %d", j);
    }
    ck_assert_uint_eq(frng_next64(NULL), 0);
}
END_TEST

START_TEST(stream_vs_independent)
{
    static const uint64_t pairs[][2] = {
        {0, 0}, {42, 7}, {1, 0}, {0, 1}, {UINT64_MAX, UINT64_MAX},
        {0x243f6a8885a308d3u, 3}, {123456789, 987654321}};
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        frng_t g;
        frng_init(&g, pairs[p][0], pairs[p][1]);
        for (uint64_t j = 0; j < 1000; j++) {
            uint64_t w = frng_next64(&g);
            ck_assert_msg(w == slow_word(pairs[p][0], pairs[p][1], j),
                          "pair %zu word %" PRIu64, p, j);
        }
    }
    /* A copied state replays the same words. */
    frng_t a, b;
    frng_init(&a, 5, 6);
    (void)frng_next64(&a);
    b = a;
    for (int j = 0; j < 9; j++)
        ck_assert(frng_next64(&a) == frng_next64(&b));
}
END_TEST

/* ---- integers ---------------------------------------------------------- */

START_TEST(below_known_answers)
{
    static const uint64_t b10[10] = {5, 1, 1, 0, 4, 6, 5, 8, 4, 5};
    static const uint64_t big[5] = {
        5896771555552553360u, 5644481278234197288u, 7875269822477881160u,
        3104045519373542640u, 688541030585784169u};
    frng_t g;
    uint64_t x;
    frng_init(&g, 42, 1);
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(frng_below(&g, 10, &x), FR_OK);
        ck_assert_msg(x == b10[i], "below(10)[%d] = %" PRIu64, i, x);
    }
    ck_assert_uint_eq(words_used(&g), 10);
    frng_init(&g, 42, 2);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(frng_below(&g, P2_63 + 1, &x), FR_OK);
        ck_assert_msg(x == big[i], "below(2^63+1)[%d] = %" PRIu64, i, x);
    }
    ck_assert_uint_eq(words_used(&g), 14);      /* 9 rejections */
}
END_TEST

/* The rule of docs/RNG.md written out again: x < 2^64 - (2^64 mod n). */
static uint64_t below_again(frng_t *g, uint64_t n)
{
    unsigned __int128 two64 = (unsigned __int128)1 << 64;
    unsigned __int128 limit = two64 - two64 % n;
    for (;;) {
        uint64_t x = frng_next64(g);
        if (x < limit)
            return x % n;
    }
}

START_TEST(below_rule_and_edges)
{
    static const uint64_t ns[] = {1, 2, 3, 7, 10, 1000, P2_63, P2_63 + 1,
                                  3 * (P2_63 / 2), UINT64_MAX - 1, UINT64_MAX};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        frng_t g, h;
        frng_init(&g, 9, t);
        h = g;
        for (int i = 0; i < 2000; i++) {
            uint64_t x;
            ck_assert_int_eq(frng_below(&g, ns[t], &x), FR_OK);
            ck_assert(x < ns[t]);
            ck_assert_msg(x == below_again(&h, ns[t]), "n=%" PRIu64 " i=%d", ns[t], i);
            ck_assert(same_state(&g, &h));
        }
        if ((ns[t] & (ns[t] - 1)) == 0)   /* powers of two never reject */
            ck_assert_uint_eq(words_used(&g), 2000);
    }
    /* Errors consume nothing and write nothing. */
    frng_t g;
    uint64_t x = 77;
    frng_init(&g, 1, 1);
    ck_assert_int_eq(frng_below(&g, 0, &x), FR_EDOM);
    ck_assert_int_eq(frng_below(NULL, 5, &x), FR_ENULL);
    ck_assert_int_eq(frng_below(&g, 5, NULL), FR_ENULL);
    ck_assert_uint_eq(x, 77);
    ck_assert_uint_eq(words_used(&g), 0);
}
END_TEST

START_TEST(below_rejection_rate)
{
    /* n = 2^63 + 1: 2^64 mod n = 2^63 - 1, acceptance (2^63+1)/2^64 ~ 1/2,
     * so about 2 words per draw; and the two halves of [0,n) are equally
     * likely (chi-square, 1 dof, 1e-3 critical value 10.83). */
    frng_t g;
    frng_init(&g, 2024, 0);
    const int N = 20000;
    long half[2] = {0, 0};
    for (int i = 0; i < N; i++) {
        uint64_t x;
        ck_assert_int_eq(frng_below(&g, P2_63 + 1, &x), FR_OK);
        half[x >= P2_63 / 2 + 1]++;
    }
    double words = (double)words_used(&g) / N;
    ck_assert_msg(words > 1.9 && words < 2.1, "words per draw %.4f", words);
    double e = N / 2.0, chi2 = 0;
    for (int i = 0; i < 2; i++)
        chi2 += ((double)half[i] - e) * ((double)half[i] - e) / e;
    ck_assert_msg(chi2 < 10.83, "chi2 %.3f", chi2);
}
END_TEST

START_TEST(below_chi_square)
{
    /* 1e-3 critical values of chi-square: 6 dof 22.46, 9 dof 27.88. */
    static const struct { uint64_t n; double crit; } c[] = {{7, 22.46}, {10, 27.88}};
    for (int t = 0; t < 2; t++) {
        frng_t g;
        frng_init(&g, 31337, (uint64_t)t);
        const long N = 100000;
        long cnt[10] = {0};
        for (long i = 0; i < N; i++) {
            uint64_t x;
            ck_assert_int_eq(frng_below(&g, c[t].n, &x), FR_OK);
            cnt[x]++;
        }
        double e = (double)N / (double)c[t].n, chi2 = 0;
        for (uint64_t v = 0; v < c[t].n; v++)
            chi2 += ((double)cnt[v] - e) * ((double)cnt[v] - e) / e;
        ck_assert_msg(chi2 < c[t].crit, "n=%" PRIu64 " chi2 %.3f", c[t].n, chi2);
    }
}
END_TEST

/* ---- sampling without replacement ------------------------------------- */

START_TEST(sample_known_answers)
{
    static const size_t s10[5] = {9, 7, 6, 8, 0};
    static const size_t s1000[6] = {931, 495, 175, 575, 1, 603};
    size_t out[6];
    frng_t g;
    frng_init(&g, 42, 3);
    ck_assert_int_eq(frng_sample(&g, 10, 5, out), FR_OK);
    for (int i = 0; i < 5; i++)
        ck_assert_msg(out[i] == s10[i], "sample(10,5)[%d] = %zu", i, out[i]);
    ck_assert_uint_eq(words_used(&g), 5);
    frng_init(&g, 42, 4);
    ck_assert_int_eq(frng_sample(&g, 1000, 6, out), FR_OK);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(out[i] == s1000[i], "sample(1000,6)[%d] = %zu", i, out[i]);
    ck_assert_uint_eq(words_used(&g), 6);
}
END_TEST

START_TEST(sample_properties)
{
    size_t out[1000];
    unsigned char seen[1000];
    /* k = n: a permutation of [0, n). */
    static const size_t ns[] = {1, 2, 3, 10, 100, 1000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        frng_t g;
        frng_init(&g, 77, t);
        ck_assert_int_eq(frng_sample(&g, ns[t], ns[t], out), FR_OK);
        memset(seen, 0, sizeof seen);
        for (size_t i = 0; i < ns[t]; i++) {
            ck_assert(out[i] < ns[t]);
            ck_assert_msg(!seen[out[i]], "n=%zu repeated %zu", ns[t], out[i]);
            seen[out[i]] = 1;
        }
    }
    /* k < n: distinct, in range; the words are those of below(n-i). */
    for (uint64_t s = 0; s < 50; s++) {
        frng_t g, h;
        frng_init(&g, s, 99);
        h = g;
        ck_assert_int_eq(frng_sample(&g, 1000, 100, out), FR_OK);
        memset(seen, 0, sizeof seen);
        for (size_t i = 0; i < 100; i++) {
            ck_assert(out[i] < 1000 && !seen[out[i]]);
            seen[out[i]] = 1;
            (void)below_again(&h, 1000 - i);
        }
        ck_assert(same_state(&g, &h));
    }
    /* Ordered pairs from n=4, k=2: 12 equally likely outcomes
     * (chi-square, 11 dof, 1e-3 critical value 31.26). */
    frng_t g;
    frng_init(&g, 4, 2);
    long cnt[16] = {0};
    const long N = 24000;
    for (long i = 0; i < N; i++) {
        ck_assert_int_eq(frng_sample(&g, 4, 2, out), FR_OK);
        ck_assert(out[0] != out[1]);
        cnt[out[0] * 4 + out[1]]++;
    }
    double e = (double)N / 12.0, chi2 = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (a != b)
                chi2 += ((double)cnt[a * 4 + b] - e) * ((double)cnt[a * 4 + b] - e) / e;
    ck_assert_msg(chi2 < 31.26, "chi2 %.3f", chi2);
}
END_TEST

START_TEST(sample_errors)
{
    frng_t g;
    size_t out[3] = {5, 5, 5};
    frng_init(&g, 1, 2);
    ck_assert_int_eq(frng_sample(&g, 2, 3, out), FR_EDOM);
    ck_assert_int_eq(frng_sample(&g, 0, 1, out), FR_EDOM);
    ck_assert_int_eq(frng_sample(NULL, 3, 1, out), FR_ENULL);
    ck_assert_int_eq(frng_sample(&g, 3, 1, NULL), FR_ENULL);
    ck_assert_int_eq(frng_sample(&g, SIZE_MAX, 1, out), FR_ESIZE);   /* a size, not memory */
    ck_assert_int_eq(frng_sample(&g, 3, 0, out), FR_OK);      /* k = 0 */
    ck_assert_int_eq(frng_sample(&g, 0, 0, out), FR_OK);
    ck_assert_int_eq(frng_sample(&g, 0, 0, NULL), FR_ENULL);  /* NULL even when k = 0 */
    ck_assert(out[0] == 5 && out[1] == 5 && out[2] == 5);
    ck_assert_uint_eq(words_used(&g), 0);
}
END_TEST

/* ---- uniform reals ----------------------------------------------------- */

START_TEST(uniform_known_answers)
{
    static const uint64_t k53[4] = {6497089857050192u, 6838982864753548u,
                                    8353590122893645u, 6382625751130054u};
    static const double u53[4] = {0.72132187523556901, 0.75927962414663019,
                                  0.92743480927178157, 0.70861380664700202};
    static const uint64_t k52[4] = {2036174453691719u, 1115903002821746u,
                                    3284668782651661u, 3843807208874927u};
    static const double u52[4] = {0.45212155212841931, 0.2477802413962108,
                                  0.72934298215347171, 0.85349665310262057};
    frng_t g, f, r;
    mpfr_t u;
    mpfr_init2(u, 53);
    frng_init(&g, 42, 5);
    f = r = g;
    for (int i = 0; i < 4; i++) {
        uint64_t k = frng_u53(&g);
        ck_assert_msg(k == k53[i], "u53 k[%d] = %" PRIu64, i, k);
        ck_assert_same_double((double)k * 0x1p-53, u53[i], "u53", i);
        double uf = -1;
        ck_assert_int_eq(ff_rng_uniform(&uf, &f), FR_OK);
        ck_assert_same_double(uf, u53[i], "ff_rng_uniform", i);
        ck_assert_int_eq(fr_rng_uniform(u, &r), FR_OK);
        ck_assert_same_double(mpfr_get_d(u, MPFR_RNDN), u53[i], "fr_rng_uniform", i);
    }
    frng_init(&g, 42, 6);
    for (int i = 0; i < 4; i++) {
        uint64_t k = frng_u52_open(&g);
        ck_assert_msg(k == k52[i], "u52_open k[%d] = %" PRIu64, i, k);
        ck_assert_same_double((double)(2 * k + 1) * 0x1p-53, u52[i], "u52_open", i);
    }
    mpfr_clear(u);
}
END_TEST

START_TEST(uniform_ranges)
{
    frng_t g, h, r;
    mpfr_t u, v;
    mpfr_init2(u, 10);
    mpfr_init2(v, 10);
    frng_init(&g, 8, 8);
    h = r = g;
    for (int i = 0; i < 100000; i++) {
        uint64_t w = frng_next64(&h);
        uint64_t k = frng_u53(&g);
        ck_assert(k == w >> 11 && k < ((uint64_t)1 << 53));
        ck_assert(same_state(&g, &h));
        double x = (double)k * 0x1p-53;
        ck_assert(x >= 0 && x < 1);
        if (i < 2000) {     /* fr_rng_uniform at 10 bits: one rounding */
            ck_assert_int_eq(fr_rng_uniform(u, &r), FR_OK);
            mpfr_set_d(v, x, MPFR_RNDN);
            ck_assert_msg(mpfr_equal_p(u, v) || (mpfr_zero_p(u) && mpfr_zero_p(v)),
                          "i=%d x=%a", i, x);
        }
    }
    frng_init(&g, 8, 9);
    for (int i = 0; i < 100000; i++) {
        uint64_t k = frng_u52_open(&g);
        ck_assert(k < P2_52);
        double x = (double)(2 * k + 1) * 0x1p-53;
        ck_assert(x > 0 && x < 1);
    }
    mpfr_clears(u, v, (mpfr_ptr)0);
}
END_TEST

START_TEST(uniform_errors)
{
    frng_t g;
    mpfr_t big;
    mpfr_init2(big, FR_PREC_MAX + 1);
    mpfr_set_ui(big, 3, MPFR_RNDN);
    frng_init(&g, 1, 1);
    ck_assert_int_eq(fr_rng_uniform(big, &g), FR_EPREC);
    ck_assert_int_eq(fr_rng_uniform(big, NULL), FR_ENULL);
    ck_assert(mpfr_cmp_ui(big, 3) == 0);
    double uf = 3;
    ck_assert_int_eq(ff_rng_uniform(&uf, NULL), FR_ENULL);
    ck_assert_int_eq(ff_rng_uniform(NULL, &g), FR_ENULL);
    ck_assert(uf == 3);
    ck_assert_uint_eq(words_used(&g), 0);
    mpfr_clear(big);
}
END_TEST

/* ---- Laplace ------------------------------------------------------------ */

static const double laplace_kat[6] = {
    3.7120491514770619, 0.41957086623086937, 0.71086465476828331,
    0.81604340790940255, -2.3802551552996016, 0.14231105459238788};

START_TEST(laplace_known_answers)
{
    frng_t g, f;
    mpfr_t x, b;
    mpfr_init2(x, 53);
    mpfr_init2(b, 53);
    mpfr_set_ui(b, 1, MPFR_RNDN);
    frng_init(&g, 42, 8);
    f = g;
    for (int i = 0; i < 6; i++) {
        double y;
        ck_assert_int_eq(fr_rng_laplace(x, &g, b), FR_OK);
        ck_assert_same_double(mpfr_get_d(x, MPFR_RNDN), laplace_kat[i], "fr_rng_laplace", i);
        ck_assert_int_eq(ff_rng_laplace(&y, &f, 1.0), FR_OK);
        ck_assert_ulps(y, laplace_kat[i], 3, "ff_rng_laplace", i);
    }
    ck_assert_uint_eq(words_used(&g), 6);
    ck_assert(same_state(&g, &f));
    mpfr_clears(x, b, (mpfr_ptr)0);
}
END_TEST

/* |fast - X| <= rel |X| + abs, ff_rng_laplace_bound (fedfast/core.h),
 * X = ref at 113 bits (its own rounding, 2^-113 |X|, is allowed for). */
static int laplace_within(double y, const mpfr_t X, double b)
{
    double rel, abs;
    ck_assert_int_eq(ff_rng_laplace_bound(&rel, &abs, b), FR_OK);
    mpfr_t d, bound;
    mpfr_inits2(256, d, bound, (mpfr_ptr)0);
    mpfr_sub_d(d, X, y, MPFR_RNDN);                 /* exact at 256 bits */
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_abs(bound, X, MPFR_RNDU);
    mpfr_mul_d(bound, bound, rel + 0x1p-112, MPFR_RNDU);
    mpfr_add_d(bound, bound, abs, MPFR_RNDU);
    int ok = mpfr_cmp(d, bound) <= 0;
    mpfr_clears(d, bound, (mpfr_ptr)0);
    return ok;
}

START_TEST(laplace_ref_vs_fast)
{
    static const double bs[] = {1.0, 0.3, 1e-3, 7e5};
    const int N = 10000;
    double *xs = malloc((size_t)N * sizeof *xs), *ys = malloc((size_t)N * sizeof *ys);
    ck_assert(xs != NULL && ys != NULL);
    mpfr_t X, b, x53;
    mpfr_init2(X, 113);
    mpfr_init2(b, 53);
    mpfr_init2(x53, 53);
    for (int t = 0; t < 4; t++) {
        frng_t g, f, g53;
        frng_init(&g, 2718, (uint64_t)t);
        f = g53 = g;
        mpfr_set_d(b, bs[t], MPFR_RNDN);
        for (int i = 0; i < N; i++) {
            double y;
            ck_assert_int_eq(fr_rng_laplace(X, &g, b), FR_OK);
            ck_assert_int_eq(ff_rng_laplace(&y, &f, bs[t]), FR_OK);
            ck_assert(same_state(&g, &f));
            ck_assert_msg(laplace_within(y, X, bs[t]),
                          "b=%g i=%d: fast %a (%.17g), ref %a (%.17g)", bs[t], i,
                          y, y, mpfr_get_d(X, MPFR_RNDN), mpfr_get_d(X, MPFR_RNDN));
            ys[i] = y / bs[t];
            if (t == 0) {
                ck_assert_int_eq(fr_rng_laplace(x53, &g53, b), FR_OK);
                xs[i] = mpfr_get_d(x53, MPFR_RNDN);
            }
        }
        if (t == 0) {
            /* Laplace(0,1): mean 0 (sd 0.014), variance 2 (sd 0.045). */
            double s = 0, s2 = 0;
            for (int i = 0; i < N; i++) {
                s += ys[i];
                s2 += ys[i] * ys[i];
            }
            double mean = s / N, var = s2 / N - mean * mean;
            ck_assert_msg(fabs(mean) < 0.07, "mean %.17g", mean);
            ck_assert_msg(fabs(var - 2) < 0.25, "variance %.17g", var);
            double d = ks_stat(xs, N, laplace_cdf);
            ck_assert_msg(d < ks_crit(N), "KS ref %.5f >= %.5f", d, ks_crit(N));
        }
        double d = ks_stat(ys, N, laplace_cdf);
        ck_assert_msg(d < ks_crit(N), "b=%g KS fast %.5f >= %.5f", bs[t], d, ks_crit(N));
    }
    mpfr_clears(X, b, x53, (mpfr_ptr)0);
    free(xs);
    free(ys);
}
END_TEST

START_TEST(laplace_edges)
{
    /* k = 0 and k = 2^52-1 give -+52 ln 2 (v = 2^-52); k and 2^52-1-k give
     * opposite values exactly; k = 2^51-1, 2^51 give -+b ln(1 - 2^-52). */
    static const uint64_t ks[4] = {0, P2_51 - 1, P2_51, P2_52 - 1};
    mpfr_t x[4], b, e;
    mpfr_init2(b, 53);
    mpfr_init2(e, 300);
    mpfr_set_d(b, 0.75, MPFR_RNDN);
    double y[4];
    for (int i = 0; i < 4; i++) {
        frng_t g, f;
        uint64_t w = ks[i] << 12;
        inject(&g, &w, 1);
        f = g;
        mpfr_init2(x[i], 64);
        ck_assert_int_eq(fr_rng_laplace(x[i], &g, b), FR_OK);
        ck_assert_int_eq(ff_rng_laplace(&y[i], &f, 0.75), FR_OK);
        ck_assert(same_state(&g, &f));
    }
    ck_assert(mpfr_cmpabs(x[0], x[3]) == 0 && mpfr_sgn(x[0]) < 0 && mpfr_sgn(x[3]) > 0);
    ck_assert(mpfr_cmpabs(x[1], x[2]) == 0 && mpfr_sgn(x[1]) < 0 && mpfr_sgn(x[2]) > 0);
    ck_assert_same_double(y[0], -y[3], "fast symmetry", 0);
    ck_assert_same_double(y[1], -y[2], "fast symmetry", 1);
    /* x(0) = -52 (3/4) ln 2, computed another way at 300 bits. */
    mpfr_const_log2(e, MPFR_RNDN);
    mpfr_mul_si(e, e, -39, MPFR_RNDN);              /* 52 * 3/4 = 39 */
    mpfr_prec_round(e, 64, MPFR_RNDN);
    ck_assert_msg(mpfr_equal_p(e, x[0]), "x(0) at 64 bits");
    ck_assert_ulps(y[0], mpfr_get_d(e, MPFR_RNDN), 2, "fast x(0)", 0);
    for (int i = 0; i < 4; i++)
        mpfr_clear(x[i]);
    mpfr_clears(b, e, (mpfr_ptr)0);
}
END_TEST

START_TEST(laplace_errors)
{
    static const double bad[] = {0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY};
    static const int want[] = {FR_EDOM, FR_EDOM, FR_EDOM,
                               FR_ENONFINITE, FR_ENONFINITE, FR_ENONFINITE};
    frng_t g;
    frng_init(&g, 3, 3);
    mpfr_t x, b, big;
    mpfr_init2(x, 53);
    mpfr_init2(b, 53);
    mpfr_init2(big, FR_PREC_MAX + 1);
    mpfr_set_ui(x, 9, MPFR_RNDN);
    for (int i = 0; i < 6; i++) {
        double y = 9;
        mpfr_set_d(b, bad[i], MPFR_RNDN);
        ck_assert_int_eq(fr_rng_laplace(x, &g, b), want[i]);
        ck_assert_int_eq(ff_rng_laplace(&y, &g, bad[i]), want[i]);
        ck_assert(y == 9 && mpfr_cmp_ui(x, 9) == 0);
        double rel = 9, abs = 9;                   /* the bound checks b the same way */
        ck_assert_int_eq(ff_rng_laplace_bound(&rel, &abs, bad[i]), want[i]);
        ck_assert(rel == 9 && abs == 9);
    }
    ck_assert_int_eq(ff_rng_laplace_bound(NULL, (double[1]){0}, 1.0), FR_ENULL);
    mpfr_set_ui(b, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_rng_laplace(big, &g, b), FR_EPREC);
    ck_assert_int_eq(fr_rng_laplace(x, NULL, b), FR_ENULL);
    ck_assert_int_eq(ff_rng_laplace(NULL, &g, 1.0), FR_ENULL);
    ck_assert_int_eq(ff_rng_laplace((double[1]){0}, NULL, 1.0), FR_ENULL);
    ck_assert_uint_eq(words_used(&g), 0);
    mpfr_clears(x, b, big, (mpfr_ptr)0);
}
END_TEST

/* ---- Gaussian pairs ---------------------------------------------------- */

static const double gauss_kat[6] = {
    0.94918198447367574, 1.2723133454326883, 0.74583072049080579,
    -0.36552568694887483, 0.30110733740906631, -0.25628676691921021};

START_TEST(gaussian_known_answers)
{
    frng_t g, f;
    mpfr_t z0, z1;
    mpfr_init2(z0, 53);
    mpfr_init2(z1, 53);
    frng_init(&g, 42, 9);
    f = g;
    for (int i = 0; i < 3; i++) {
        double y0, y1;
        ck_assert_int_eq(fr_rng_gaussian2(z0, z1, &g), FR_OK);
        ck_assert_same_double(mpfr_get_d(z0, MPFR_RNDN), gauss_kat[2 * i], "fr z0", i);
        ck_assert_same_double(mpfr_get_d(z1, MPFR_RNDN), gauss_kat[2 * i + 1], "fr z1", i);
        ck_assert_int_eq(ff_rng_gaussian2(&y0, &y1, &f), FR_OK);
        ck_assert_ulps(y0, gauss_kat[2 * i], 8, "ff z0", i);
        ck_assert_ulps(y1, gauss_kat[2 * i + 1], 8, "ff z1", i);
    }
    ck_assert_uint_eq(words_used(&g), 6);
    ck_assert(same_state(&g, &f));
    mpfr_clears(z0, z1, (mpfr_ptr)0);
}
END_TEST

/* |fast - Z| <= ff_rng_gaussian2_bound(y0, y1) (fedfast/core.h) per
 * component, Z = ref at 113 bits (its own rounding, 2^-112 r, allowed for). */
static int gauss_within(double y0, double y1, const mpfr_t Z0, const mpfr_t Z1)
{
    double B;
    ck_assert_int_eq(ff_rng_gaussian2_bound(&B, y0, y1), FR_OK);
    mpfr_t r, d, t;
    mpfr_inits2(256, r, d, t, (mpfr_ptr)0);
    mpfr_hypot(r, Z0, Z1, MPFR_RNDU);
    mpfr_mul_2si(r, r, -112, MPFR_RNDU);
    mpfr_add_d(r, r, B, MPFR_RNDU);
    mpfr_sub_d(d, Z0, y0, MPFR_RNDN);
    mpfr_sub_d(t, Z1, y1, MPFR_RNDN);
    int ok = mpfr_cmpabs(d, r) <= 0 && mpfr_cmpabs(t, r) <= 0;
    mpfr_clears(r, d, t, (mpfr_ptr)0);
    return ok;
}

START_TEST(gaussian_ref_vs_fast)
{
    const int N = 10000;
    double *zs = malloc(2 * (size_t)N * sizeof *zs), *ws = malloc(2 * (size_t)N * sizeof *ws);
    ck_assert(zs != NULL && ws != NULL);
    mpfr_t Z0, Z1, a0, a1;
    mpfr_inits2(113, Z0, Z1, (mpfr_ptr)0);
    mpfr_inits2(53, a0, a1, (mpfr_ptr)0);
    frng_t g, f, h;
    frng_init(&g, 1618, 0);
    f = h = g;
    double s = 0, s2 = 0, s01 = 0;
    for (int i = 0; i < N; i++) {
        double y0, y1;
        ck_assert_int_eq(fr_rng_gaussian2(Z0, Z1, &g), FR_OK);
        ck_assert_int_eq(ff_rng_gaussian2(&y0, &y1, &f), FR_OK);
        ck_assert(same_state(&g, &f));
        ck_assert_msg(gauss_within(y0, y1, Z0, Z1),
                      "i=%d: fast (%a, %a) = (%.17g, %.17g), ref (%.17g, %.17g)", i,
                      y0, y1, y0, y1, mpfr_get_d(Z0, MPFR_RNDN), mpfr_get_d(Z1, MPFR_RNDN));
        zs[2 * i] = y0;
        zs[2 * i + 1] = y1;
        s += y0 + y1;
        s2 += y0 * y0 + y1 * y1;
        s01 += y0 * y1;
        ck_assert_int_eq(fr_rng_gaussian2(a0, a1, &h), FR_OK);
        ws[2 * i] = mpfr_get_d(a0, MPFR_RNDN);
        ws[2 * i + 1] = mpfr_get_d(a1, MPFR_RNDN);
    }
    /* N(0,1): mean sd 0.007, variance sd 0.01, correlation sd 0.01. */
    double mean = s / (2 * N), var = s2 / (2 * N) - mean * mean, cor = s01 / N;
    ck_assert_msg(fabs(mean) < 0.05, "mean %.17g", mean);
    ck_assert_msg(fabs(var - 1) < 0.08, "variance %.17g", var);
    ck_assert_msg(fabs(cor) < 0.05, "z0 z1 correlation %.17g", cor);
    double d = ks_stat(zs, 2 * N, normal_cdf);
    ck_assert_msg(d < ks_crit(2 * N), "KS fast %.5f >= %.5f", d, ks_crit(2 * N));
    d = ks_stat(ws, 2 * N, normal_cdf);
    ck_assert_msg(d < ks_crit(2 * N), "KS ref %.5f >= %.5f", d, ks_crit(2 * N));
    mpfr_clears(Z0, Z1, a0, a1, (mpfr_ptr)0);
    free(zs);
    free(ws);
}
END_TEST

START_TEST(gaussian_edges)
{
    /* u2 = q/4: cos/sin are exactly 0 or +-1; zeros are +0 in both.
     * u1 = 2^-53 (k1 = 0): r = sqrt(106 ln 2), the largest radius. */
    mpfr_t z0, z1, r;
    mpfr_inits2(64, z0, z1, (mpfr_ptr)0);
    mpfr_init2(r, 300);
    mpfr_const_log2(r, MPFR_RNDN);
    mpfr_mul_ui(r, r, 106, MPFR_RNDN);
    mpfr_sqrt(r, r, MPFR_RNDN);
    mpfr_prec_round(r, 64, MPFR_RNDN);
    static const int cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (uint64_t q = 0; q < 4; q++) {
        uint64_t w[2] = {0, (q * P2_51) << 11};
        frng_t g, f;
        inject(&g, w, 2);
        f = g;
        double y0, y1;
        ck_assert_int_eq(fr_rng_gaussian2(z0, z1, &g), FR_OK);
        ck_assert_int_eq(ff_rng_gaussian2(&y0, &y1, &f), FR_OK);
        ck_assert(same_state(&g, &f));
        mpfr_ptr z[2] = {z0, z1};
        double y[2] = {y0, y1};
        double rd = mpfr_get_d(r, MPFR_RNDN);
        for (int j = 0; j < 2; j++) {
            if (cs[q][j] == 0) {
                ck_assert_msg(mpfr_zero_p(z[j]) && !mpfr_signbit(z[j]), "q=%d z%d", (int)q, j);
                ck_assert_same_double(y[j], 0.0, "fast exact zero", (int)q);
            } else {
                ck_assert_msg(mpfr_cmpabs(z[j], r) == 0 && mpfr_sgn(z[j]) == cs[q][j],
                              "q=%d z%d", (int)q, j);
                ck_assert_ulps(y[j], cs[q][j] * rd, 2, "fast +-r", (int)q);
            }
        }
    }
    /* u1 = 1 - 2^-53 (k1 = 2^52 - 1): r ~ 2^-26, tiny but nonzero. */
    uint64_t w[2] = {(P2_52 - 1) << 12, 12345u << 11};
    frng_t g;
    inject(&g, w, 2);
    ck_assert_int_eq(fr_rng_gaussian2(z0, z1, &g), FR_OK);
    ck_assert(mpfr_regular_p(z0) && mpfr_regular_p(z1));
    mpfr_clears(z0, z1, r, (mpfr_ptr)0);
}
END_TEST

START_TEST(gaussian_errors)
{
    frng_t g;
    frng_init(&g, 4, 4);
    mpfr_t z0, z1, big;
    mpfr_inits2(53, z0, z1, (mpfr_ptr)0);
    mpfr_init2(big, FR_PREC_MAX + 1);
    mpfr_set_ui(z0, 9, MPFR_RNDN);
    mpfr_set_ui(z1, 9, MPFR_RNDN);
    double y0 = 9, y1 = 9;
    ck_assert_int_eq(fr_rng_gaussian2(z0, big, &g), FR_EPREC);
    ck_assert_int_eq(fr_rng_gaussian2(big, z1, &g), FR_EPREC);
    ck_assert_int_eq(fr_rng_gaussian2(z0, z0, &g), FR_EDOM);
    ck_assert_int_eq(fr_rng_gaussian2(z0, z1, NULL), FR_ENULL);
    ck_assert_int_eq(ff_rng_gaussian2(&y0, &y0, &g), FR_EDOM);
    ck_assert_int_eq(ff_rng_gaussian2(&y0, NULL, &g), FR_ENULL);
    ck_assert_int_eq(ff_rng_gaussian2(&y0, &y1, NULL), FR_ENULL);
    ck_assert_int_eq(ff_rng_gaussian2_bound(&y0, NAN, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_rng_gaussian2_bound(&y0, 1, -INFINITY), FR_ENONFINITE);
    ck_assert_int_eq(ff_rng_gaussian2_bound(NULL, 1, 1), FR_ENULL);
    ck_assert(mpfr_cmp_ui(z0, 9) == 0 && mpfr_cmp_ui(z1, 9) == 0 && y0 == 9 && y1 == 9);
    ck_assert_uint_eq(words_used(&g), 0);
    mpfr_clears(z0, z1, big, (mpfr_ptr)0);
}
END_TEST

/* ---- correct rounding at any precision (MPFR tgeneric pattern) -------
 * The draw at precision p must equal the draw at p + 128 rounded to p
 * (a double rounding could differ only if 128 bits after the p-th were a
 * tie pattern, probability ~2^-128). */

START_TEST(rounding_across_precisions)
{
    static const mpfr_prec_t ps[] = {MPFR_PREC_MIN, 2, 5, 24, 53, 64, 113, 300, 2000};
    mpfr_t b;
    mpfr_init2(b, 53);
    mpfr_set_d(b, 0.3, MPFR_RNDN);
    for (size_t t = 0; t < sizeof ps / sizeof ps[0]; t++) {
        mpfr_prec_t p = ps[t];
        mpfr_t x, y, z0, z1, h0, h1;
        mpfr_inits2(p, x, z0, z1, (mpfr_ptr)0);
        mpfr_inits2(p + 128, y, h0, h1, (mpfr_ptr)0);
        frng_t g, h;
        frng_init(&g, 555, (uint64_t)p);
        h = g;
        for (int i = 0; i < 100; i++) {
            ck_assert_int_eq(fr_rng_laplace(x, &g, b), FR_OK);
            ck_assert_int_eq(fr_rng_laplace(y, &h, b), FR_OK);
            mpfr_prec_round(y, p, MPFR_RNDN);
            ck_assert_msg(mpfr_equal_p(x, y), "laplace p=%ld i=%d", (long)p, i);
            mpfr_set_prec(y, p + 128);
            ck_assert_int_eq(fr_rng_gaussian2(z0, z1, &g), FR_OK);
            ck_assert_int_eq(fr_rng_gaussian2(h0, h1, &h), FR_OK);
            mpfr_prec_round(h0, p, MPFR_RNDN);
            mpfr_prec_round(h1, p, MPFR_RNDN);
            ck_assert_msg(mpfr_equal_p(z0, h0) && mpfr_equal_p(z1, h1),
                          "gaussian p=%ld i=%d", (long)p, i);
            mpfr_set_prec(h0, p + 128);
            mpfr_set_prec(h1, p + 128);
            ck_assert(same_state(&g, &h));
        }
        mpfr_clears(x, y, z0, z1, h0, h1, (mpfr_ptr)0);
    }
    mpfr_clear(b);
}
END_TEST

/* ---- suite ------------------------------------------------------------- */

static TCase *tcase(const char *name, double timeout)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, timeout);
    return tc;
}

Suite *suite_rng(void)
{
    Suite *s = suite_create("rng");
    TCase *tc;

    tc = tcase("philox", 10);
    tcase_add_test(tc, philox_known_answers);
    suite_add_tcase(s, tc);

    tc = tcase("frng_next64", 30);
    tcase_add_test(tc, stream_known_answers);
    tcase_add_test(tc, stream_vs_independent);
    suite_add_tcase(s, tc);

    tc = tcase("frng_below", 60);
    tcase_add_test(tc, below_known_answers);
    tcase_add_test(tc, below_rule_and_edges);
    tcase_add_test(tc, below_rejection_rate);
    tcase_add_test(tc, below_chi_square);
    suite_add_tcase(s, tc);

    tc = tcase("frng_sample", 60);
    tcase_add_test(tc, sample_known_answers);
    tcase_add_test(tc, sample_properties);
    tcase_add_test(tc, sample_errors);
    suite_add_tcase(s, tc);

    tc = tcase("uniform", 60);
    tcase_add_test(tc, uniform_known_answers);
    tcase_add_test(tc, uniform_ranges);
    tcase_add_test(tc, uniform_errors);
    suite_add_tcase(s, tc);

    tc = tcase("laplace", 120);
    tcase_add_test(tc, laplace_known_answers);
    tcase_add_test(tc, laplace_ref_vs_fast);
    tcase_add_test(tc, laplace_edges);
    tcase_add_test(tc, laplace_errors);
    suite_add_tcase(s, tc);

    tc = tcase("correct_rounding", 120);
    tcase_add_test(tc, rounding_across_precisions);
    suite_add_tcase(s, tc);

    tc = tcase("gaussian2", 120);
    tcase_add_test(tc, gaussian_known_answers);
    tcase_add_test(tc, gaussian_ref_vs_fast);
    tcase_add_test(tc, gaussian_edges);
    tcase_add_test(tc, gaussian_errors);
    suite_add_tcase(s, tc);

    return s;
}
