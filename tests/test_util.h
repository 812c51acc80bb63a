/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.h -- what the Check suites share about their random cases:
 * the seed and the effort, both from the environment (tests/main.c's
 * usage text).  Each suite draws from the shared generator frng (docs/RNG.md)
 * on a stream of its own.  And the error assertions of a binary64 result
 * against an MPFR oracle. */
#ifndef FEDREF_TEST_UTIL_H
#define FEDREF_TEST_UTIL_H

#include <stdint.h>
#include <mpfr.h>
#include "fedref_common.h"

/* $FEDREF_SEED (any base strtoull accepts), else (unset or empty) dflt. */
uint64_t tu_seed(uint64_t dflt);
/* n times $FEDREF_TEST_EFFORT (a positive integer; 1 when unset or not
 * positive): how many random cases a test runs. */
int tu_effort(int n);
/* *g = stream `stream` of the generator seeded by tu_seed(dflt); returns
 * that seed, which a suite prints on failure (FEDREF_SEED replays it). */
uint64_t tu_rng_start(frng_t *g, uint64_t dflt, uint64_t stream);

/* x (precision set to w) = a w-bit number, rounded to nearest from a
 * log-uniform draw on [lo, hi] (0 < lo < hi): the inputs of the white-box
 * enclosure tests, whose every rounding then matters. */
void tu_draw_wbit(mpfr_t x, frng_t *g, mpfr_prec_t w, double lo, double hi);

/* ---- a binary64 result against an MPFR oracle ------------------------------
 * The predicates form |got - oracle| at TU_XP bits (exactly, for a binary64
 * got and an oracle of a few hundred bits).  The assertions CK_WITHIN_ABS
 * and CK_WITHIN_ABS_REL print got, the oracle, the error and the bound on
 * stderr when they fail, and the calling suite's `seed` in the message
 * (FEDREF_SEED replays it). */
#define TU_XP 4400

/* 1 iff got is not NaN and |got - exact| <= bound: an absolute bound
 * against an exact oracle. */
int tu_within_abs(double got, const mpfr_t exact, const mpfr_t bound);
/* 1 iff got is finite and |got - approx| <= abs + 2^-relbits |approx|: an
 * absolute bound widened by the oracle's own relative error (approx within
 * 2^-relbits of the exact value, relatively); the sum is rounded up. */
int tu_within_abs_rel(double got, const mpfr_t approx, const mpfr_t abs, int relbits);

void tu_check_within_abs(double got, const mpfr_t exact, const mpfr_t bound, uint64_t seed,
                         const char *what, const char *file, int line);
void tu_check_within_abs_rel(double got, const mpfr_t approx, const mpfr_t abs, int relbits,
                             uint64_t seed, const char *what, const char *file, int line);
#define CK_WITHIN_ABS(got, exact, bound) \
    tu_check_within_abs((got), (exact), (bound), seed, #got, __FILE__, __LINE__)
#define CK_WITHIN_ABS_REL(got, approx, abs, relbits) \
    tu_check_within_abs_rel((got), (approx), (abs), (relbits), seed, #got, __FILE__, __LINE__)

#endif
