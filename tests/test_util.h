/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.h -- what the Check suites share about their random cases:
 * the seed and the effort, both from the environment (tests/main.c's
 * usage text).  Each suite draws from the shared generator frng (docs/RNG.md)
 * on a stream of its own. */
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

/* x (precision set to w) = a w-bit number, rounded to nearest from a
 * log-uniform draw on [lo, hi] (0 < lo < hi): the inputs of the white-box
 * enclosure tests, whose every rounding then matters. */
void tu_draw_wbit(mpfr_t x, frng_t *g, mpfr_prec_t w, double lo, double hi);

#endif
