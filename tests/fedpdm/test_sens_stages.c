/* SPDX-License-Identifier: Apache-2.0 */
/* test_sens_stages.c -- white-box: the directed products of fast's path
 * sensitivity (fast/fedpdm/sens_path.c, declared in
 * fast/fedpdm/sens_path.h) against the exact product x y (MPFR at 106
 * bits, exact for two doubles): ffi_path_mul_up(x, y) >= x y >=
 * ffi_path_mul_down(x, y) >= 0, both equal to x y when it is a binary64 >=
 * 2^-969, on products from 2^-1100 (underflow to 0) to 2^40, dyadic and
 * not.  In ff_fedpdm_path_sens a product below 2^-969 rounded the wrong
 * way is absorbed by the upward sums that follow, so ci/mutate-privacy.sh
 * runs this suite first. */
#include <check.h>
#include <float.h>
#include <math.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../fast/fedpdm/sens_path.h"

Suite *suite_fedpdm_sens_stages(void);

static frng_t rng;
static uint64_t seed;

static void one(double x, double y)
{
    mpfr_t p;
    mpfr_init2(p, 106);
    mpfr_set_d(p, x, MPFR_RNDN);
    mpfr_mul_d(p, p, y, MPFR_RNDN);          /* exact */
    const double u = ffi_path_mul_up(x, y), d = ffi_path_mul_down(x, y);
    ck_assert_msg(mpfr_cmp_d(p, u) <= 0, "seed %llu: up(%a, %a) = %a below x y", (unsigned long long)seed, x, y, u);
    ck_assert_msg(mpfr_cmp_d(p, d) >= 0 && d >= 0, "seed %llu: down(%a, %a) = %a above x y or negative",
                  (unsigned long long)seed, x, y, d);
    if (mpfr_cmp_d(p, 0x1p-969) >= 0 && mpfr_cmp_d(p, DBL_MAX) <= 0 && mpfr_cmp_d(p, x * y) == 0)
        ck_assert_msg(u == x * y && d == x * y, "up/down(%a, %a) not exact", x, y);
    mpfr_clear(p);
}

START_TEST(products)
{
    seed = tu_rng_start(&rng, 20261204u, 41);
    for (int i = 0; i < tu_effort(4000); i++) {
        uint64_t r;
        frng_below(&rng, 1141, &r);
        const int ep = (int)r - 1100;         /* the product's exponent, -1100 .. 40 */
        frng_below(&rng, 500, &r);
        const int ex = ep / 2 + (int)r - 250;  /* x and y normal */
        frng_below(&rng, 4, &r);
        double mx = 1 + (double)frng_u53(&rng) * 0x1p-53, my = 1 + (double)frng_u53(&rng) * 0x1p-53;
        if (r == 0) mx = 1;                   /* dyadic x or both: exact products */
        if (r <= 1) my = 1;
        one(ldexp(mx, ex), ldexp(my, ep - ex));
    }
    one(0x1p-600, 0x1p-600);                  /* underflows to 0 */
    one(0x1p-537, 0x1p-537);                  /* the least subnormal */
    one(0x1.8p-500, 0x1p-500);                /* exact, tiny */
    one(0x1p-484, 0x1p-485);                  /* 2^-969: exact */
    one(0, 3);
    one(2, 0);
}
END_TEST

Suite *suite_fedpdm_sens_stages(void)
{
    Suite *s = suite_create("fedpdm_sens_stages");
    TCase *tc = tcase_create("products");
    tcase_add_test(tc, products);
    suite_add_tcase(s, tc);
    return s;
}
