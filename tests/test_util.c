/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.c -- the seed and effort of the Check suites' random cases,
 * the draws they share, and the error assertions against an MPFR oracle. */
#include <check.h>
#include <math.h>
#include <stdio.h>                /* before mpfr.h, for mpfr_fprintf */
#include <stdlib.h>
#include "test_util.h"

uint64_t tu_seed(uint64_t dflt)
{
    const char *s = getenv("FEDREF_SEED");
    return s && *s ? strtoull(s, NULL, 0) : dflt;
}

uint64_t tu_rng_start(frng_t *g, uint64_t dflt, uint64_t stream)
{
    const uint64_t seed = tu_seed(dflt);
    frng_init(g, seed, stream);
    return seed;
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

/* d = |got - oracle| at TU_XP bits. */
static void abs_error(mpfr_t d, double got, const mpfr_t oracle)
{
    mpfr_init2(d, TU_XP);
    mpfr_sub_d(d, oracle, got, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
}

int tu_within_abs(double got, const mpfr_t exact, const mpfr_t bound)
{
    mpfr_t d;
    abs_error(d, got, exact);
    int ok = !isnan(got) && mpfr_lessequal_p(d, bound);
    mpfr_clear(d);
    return ok;
}

int tu_within_abs_rel(double got, const mpfr_t approx, const mpfr_t abs, int relbits)
{
    mpfr_t d, slack;
    abs_error(d, got, approx);
    mpfr_init2(slack, TU_XP);
    mpfr_abs(slack, approx, MPFR_RNDN);
    mpfr_mul_2si(slack, slack, -relbits, MPFR_RNDU);
    mpfr_add(slack, slack, abs, MPFR_RNDU);
    int ok = isfinite(got) && mpfr_lessequal_p(d, slack);
    mpfr_clears(d, slack, (mpfr_ptr)0);
    return ok;
}

void tu_check_within_abs(double got, const mpfr_t exact, const mpfr_t bound, uint64_t seed,
                         const char *what, const char *file, int line)
{
    int ok = tu_within_abs(got, exact, bound);
    if (!ok) {
        mpfr_t d;
        abs_error(d, got, exact);
        mpfr_fprintf(stderr, "%s:%d: %s = %a (%.17g), exact %.25Rg,"
                     " error %.3Rg > bound %.3Rg\n", file, line, what, got,
                     got, exact, d, bound);
        mpfr_clear(d);
    }
    ck_assert_msg(ok, "%s:%d: %s = %a (%.17g) outside the bound (see stderr)"
                  " [FEDREF_SEED=%llu]", file, line, what, got, got,
                  (unsigned long long)seed);
}

void tu_check_within_abs_rel(double got, const mpfr_t approx, const mpfr_t abs, int relbits,
                             uint64_t seed, const char *what, const char *file, int line)
{
    int ok = tu_within_abs_rel(got, approx, abs, relbits);
    if (!ok) {
        mpfr_t d, rel;
        abs_error(d, got, approx);
        mpfr_init2(rel, 64);
        mpfr_div(rel, d, approx, MPFR_RNDN);
        mpfr_fprintf(stderr, "%s:%d: %s = %a (%.17g), exact %.25Rg, error %.3Rg"
                     " > bound %.3Rg (relative error %.3Rg)\n", file, line, what,
                     got, got, approx, d, abs, rel);
        mpfr_clears(d, rel, (mpfr_ptr)0);
    }
    ck_assert_msg(ok, "%s:%d: %s = %a (%.17g) outside the bound (see stderr)"
                  " [FEDREF_SEED=%llu]", file, line, what, got, got,
                  (unsigned long long)seed);
}
