/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.c -- the seed and effort of the Check suites' random cases,
 * and the draws they share. */
#include <math.h>
#include <stdlib.h>
#include "test_util.h"

uint64_t tu_seed(uint64_t dflt)
{
    const char *s = getenv("FEDREF_SEED");
    return s && *s ? strtoull(s, NULL, 0) : dflt;
}

int tu_effort(int n)
{
    const char *s = getenv("FEDREF_TEST_EFFORT");
    int k = s && *s ? atoi(s) : 1;
    return n * (k > 0 ? k : 1);
}

void tu_draw_wbit(mpfr_t x, frng_t *g, mpfr_prec_t w, double lo, double hi)
{
    double u = (double)frng_u53(g) * 0x1p-53;
    mpfr_set_prec(x, w);
    mpfr_set_d(x, exp(log(lo) + u * (log(hi) - log(lo))), MPFR_RNDN);
}
