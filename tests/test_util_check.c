/* SPDX-License-Identifier: Apache-2.0 */
/* test_util_check.c -- the helpers the suites share (test_util.h): the
 * start of a suite's generator (the seed from FEDREF_SEED or the suite's
 * default, the stream the suite's own) against frng_init itself, and the
 * two error predicates at the edge of their bounds: equality passes, one
 * ulp of the bound below fails, and what each does with Inf and NaN. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

Suite *suite_test_util(void);

/* tu_rng_start(&g, dflt, stream) under FEDREF_SEED = env (NULL: unset)
 * returns want and leaves g where frng_init(want, stream) does. */
static void rng_start_case(const char *env, uint64_t dflt, uint64_t stream, uint64_t want)
{
    const char *old = getenv("FEDREF_SEED");
    char *keep = old ? strdup(old) : NULL;
    if (env)
        setenv("FEDREF_SEED", env, 1);
    else
        unsetenv("FEDREF_SEED");
    frng_t g, h;
    uint64_t seed = tu_rng_start(&g, dflt, stream);
    if (keep) {
        setenv("FEDREF_SEED", keep, 1);
        free(keep);
    } else {
        unsetenv("FEDREF_SEED");
    }
    ck_assert_msg(seed == want, "FEDREF_SEED=%s: seed %llu, want %llu", env ? env : "(unset)",
                  (unsigned long long)seed, (unsigned long long)want);
    frng_init(&h, want, stream);
    for (int k = 0; k < 16; k++)
        ck_assert_uint_eq(frng_next64(&g), frng_next64(&h));
}

START_TEST(rng_start_seed_and_stream)
{
    rng_start_case(NULL, 20240601u, 7, 20240601u);
    rng_start_case("", 20240601u, 7, 20240601u);        /* empty: the default */
    rng_start_case("0x2a", 20240601u, 7, 42);
    rng_start_case("12345", 1, 0x7e57fed0u + 3, 12345);
    frng_t g, h;                                        /* the stream is used */
    uint64_t s = tu_rng_start(&g, 99, 1);
    frng_init(&h, s, 2);
    ck_assert_uint_ne(frng_next64(&g), frng_next64(&h));
}
END_TEST

START_TEST(within_abs_edges)
{
    mpfr_t exact, bound;
    mpfr_inits2(128, exact, bound, (mpfr_ptr)0);
    mpfr_set_ui_2exp(exact, 1, -60, MPFR_RNDN);
    mpfr_add_ui(exact, exact, 1, MPFR_RNDN);            /* 1 + 2^-60, exact */
    mpfr_set_ui_2exp(bound, 1, -60, MPFR_RNDN);
    ck_assert_int_eq(tu_within_abs(1.0, exact, bound), 1);           /* error = bound */
    ck_assert_int_eq(tu_within_abs(nextafter(1.0, 2.0), exact, bound), 0);
    mpfr_nextbelow(bound);
    ck_assert_int_eq(tu_within_abs(1.0, exact, bound), 0);           /* bound - 1 ulp */
    mpfr_set_inf(bound, 1);
    ck_assert_int_eq(tu_within_abs(NAN, exact, bound), 0);
    ck_assert_int_eq(tu_within_abs(INFINITY, exact, bound), 1);      /* not NaN: Inf <= Inf */
    /* the error of a subnormal against 2^1000 is formed exactly */
    mpfr_set_prec(exact, 64);
    mpfr_set_ui_2exp(exact, 1, 1000, MPFR_RNDN);
    mpfr_set_prec(bound, TU_XP);
    mpfr_set_ui_2exp(bound, 1, 1000, MPFR_RNDN);
    mpfr_sub_d(bound, bound, 0x1p-1074, MPFR_RNDN);                 /* 2^1000 - 2^-1074 */
    ck_assert_int_eq(tu_within_abs(0x1p-1074, exact, bound), 1);
    mpfr_nextbelow(bound);
    ck_assert_int_eq(tu_within_abs(0x1p-1074, exact, bound), 0);
    mpfr_clears(exact, bound, (mpfr_ptr)0);
}
END_TEST

START_TEST(within_abs_rel_edges)
{
    mpfr_t approx, abs;
    mpfr_inits2(64, approx, abs, (mpfr_ptr)0);
    mpfr_set_si(approx, -1, MPFR_RNDN);
    mpfr_set_ui_2exp(abs, 1, -53, MPFR_RNDN);
    const double got = -1.0 - 0x1p-52;                  /* error 2^-52 */
    ck_assert_int_eq(tu_within_abs_rel(got, approx, abs, 53), 1);    /* 2^-53 + 2^-53 */
    ck_assert_int_eq(tu_within_abs_rel(got, approx, abs, 54), 0);    /* 1.5 2^-53 */
    mpfr_nextbelow(abs);
    ck_assert_int_eq(tu_within_abs_rel(got, approx, abs, 53), 0);
    mpfr_set_inf(abs, 1);
    ck_assert_int_eq(tu_within_abs_rel(-INFINITY, approx, abs, 53), 0); /* not finite */
    ck_assert_int_eq(tu_within_abs_rel(NAN, approx, abs, 53), 0);
    ck_assert_int_eq(tu_within_abs_rel(-1e300, approx, abs, 53), 1);
    mpfr_clears(approx, abs, (mpfr_ptr)0);
}
END_TEST

Suite *suite_test_util(void)
{
    Suite *s = suite_create("test_util");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, rng_start_seed_and_stream);
    tcase_add_test(tc, within_abs_edges);
    tcase_add_test(tc, within_abs_rel_edges);
    suite_add_tcase(s, tc);
    return s;
}
