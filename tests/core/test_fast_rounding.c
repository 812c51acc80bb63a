/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_rounding.c -- fast's directed-rounding helpers (fast/rounding.h)
 * at their edges: +-0, subnormals, +-DBL_MAX, +-Inf, NaN, each as its
 * comment documents; and next_up(x) > x > next_down(x) for finite x. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "../../fast/rounding.h"

Suite *suite_fast_rounding(void);

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static const double FIN[] = {0.0, -0.0, 0x1p-1074, -0x1p-1074, 0x1p-1060, 0x1.8p-1023,
                             -0x1p-1022, DBL_MIN, 1.0, -1.0, 0x1.fffffffffffffp-1, 3.5e300,
                             -DBL_MAX, DBL_MAX};
#define NFIN (sizeof FIN / sizeof FIN[0])

START_TEST(next_up_down)
{
    for (size_t i = 0; i < NFIN; i++) {
        double x = FIN[i];
        ck_assert(ffi_next_up(x) > x);
        ck_assert(ffi_next_down(x) < x);
    }
    ck_assert(same(ffi_next_up(0.0), 0x1p-1074));
    ck_assert(same(ffi_next_up(-0.0), 0x1p-1074));
    ck_assert(same(ffi_next_down(0.0), -0x1p-1074));
    ck_assert(same(ffi_next_down(-0.0), -0x1p-1074));
    ck_assert(same(ffi_next_up(-0x1p-1074), -0.0));
    ck_assert(same(ffi_next_down(0x1p-1074), 0.0));
    ck_assert(same(ffi_next_up(DBL_MAX), INFINITY));
    ck_assert(same(ffi_next_down(-DBL_MAX), -INFINITY));
    ck_assert(same(ffi_next_up(INFINITY), INFINITY));
    ck_assert(same(ffi_next_up(-INFINITY), -DBL_MAX));
    ck_assert(same(ffi_next_down(-INFINITY), -INFINITY));
    ck_assert(same(ffi_next_down(INFINITY), DBL_MAX));
    ck_assert(isnan(ffi_next_up(NAN)) && isnan(ffi_next_down(NAN)));
}
END_TEST

START_TEST(next_down_clamped)
{
    for (size_t i = 0; i < NFIN; i++) {
        double x = FIN[i];
        double c = ffi_next_down_clamp0(x), p = ffi_next_down_pos(x);
        if (x > 0) {
            ck_assert(c >= 0 && c < x && ffi_next_up(x) > x);
            ck_assert(same(c, p) && same(c, ffi_next_down(x)));
        } else {
            ck_assert(same(c, 0.0));
            ck_assert(same(p, x));
        }
    }
    ck_assert(same(ffi_next_down_clamp0(0x1p-1074), 0.0));
    ck_assert(same(ffi_next_down_pos(0x1p-1074), 0.0));
    ck_assert(same(ffi_next_down_clamp0(DBL_MAX), nextafter(DBL_MAX, 0)));
    ck_assert(same(ffi_next_down_clamp0(INFINITY), DBL_MAX));
    ck_assert(same(ffi_next_down_pos(INFINITY), DBL_MAX));
    ck_assert(same(ffi_next_down_clamp0(-INFINITY), 0.0));
    ck_assert(same(ffi_next_down_pos(-INFINITY), -INFINITY));
    ck_assert(same(ffi_next_down_clamp0(NAN), 0.0));
    ck_assert(isnan(ffi_next_down_pos(NAN)));
}
END_TEST

START_TEST(pads)
{
    const double R[] = {0x1p-52, 0x1p-50, 0x1p-40, 0.5};
    for (size_t j = 0; j < sizeof R / sizeof R[0]; j++)
        for (size_t i = 0; i < NFIN; i++) {
            double q = FIN[i], r = R[j];
            if (fabs(q) > 0x1p1000)
                continue;                               /* no overflow */
            ck_assert(ffi_pad_up(q, r) > q);
            ck_assert(ffi_pad_down(q, r) < q);
            ck_assert(same(ffi_pad_up(q, r), q + fabs(q) * r + 0x1p-1060));
            ck_assert(same(ffi_pad_down(q, r), q - fabs(q) * r - 0x1p-1060));
        }
    ck_assert(same(ffi_pad_up(0.0, 0x1p-50), 0x1p-1060));
    ck_assert(same(ffi_pad_down(-0.0, 0x1p-50), -0x1p-1060));
    ck_assert(same(ffi_pad_up(1.0, 0x1p-52), 1 + 0x1p-52));
    ck_assert(same(ffi_pad_up(DBL_MAX, 0x1p-50), INFINITY));
    ck_assert(same(ffi_pad_down(-DBL_MAX, 0x1p-50), -INFINITY));
    ck_assert(same(ffi_pad_up(INFINITY, 0x1p-50), INFINITY));
    ck_assert(same(ffi_pad_down(-INFINITY, 0x1p-50), -INFINITY));
    ck_assert(isnan(ffi_pad_up(-INFINITY, 0x1p-50)) && isnan(ffi_pad_down(INFINITY, 0x1p-50)));
    ck_assert(isnan(ffi_pad_up(NAN, 0x1p-50)) && isnan(ffi_pad_down(NAN, 0x1p-50)));
}
END_TEST

Suite *suite_fast_rounding(void)
{
    Suite *s = suite_create("fast_rounding");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, next_up_down);
    tcase_add_test(tc, next_down_clamped);
    tcase_add_test(tc, pads);
    suite_add_tcase(s, tc);
    return s;
}
