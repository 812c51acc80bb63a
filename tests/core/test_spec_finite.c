/* SPDX-License-Identifier: Apache-2.0 */
/* test_spec_finite.c -- the finiteness scan of the argument checks
 * (spec/internal.h spec_all_finite) and libfedfast's per-instruction-set
 * compilation of it (ffi_all_finite, fast/internal.c), against the oracle
 * of one isfinite per entry: every length around the block edges (8, 256),
 * a non-finite value (+-Inf, quiet and signalling NaN of either sign) at
 * every position, the largest finite exponent (the carry edge of the bit
 * trick) in every lane, and unaligned starts. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "fedref.h"
#include "../../spec/internal.h"
#include "../../fast/internal.h"

Suite *suite_spec_finite(void);

#define NMAX 1040

static int oracle(const double *x, size_t len)
{
    for (size_t k = 0; k < len; k++)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Finite values with every exponent class: zeros, subnormals, the
 * smallest normal, the largest finite (exponent field 0x7fe, one below
 * the carry into bit 63). */
static double finite_value(size_t k)
{
    const double v[] = {0.0, -0.0, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, -DBL_MAX,
                        DBL_MAX, 1.0, -0x1.fffffffffffffp-1, 0x1p1023};
    return v[k % (sizeof v / sizeof v[0])];
}

/* The lengths the scan treats differently: short tails, one block of 256
 * and its edges, two blocks, and a long tail after them. */
static int interesting(size_t len)
{
    return len <= 24 || (len >= 252 && len <= 260) || (len >= 508 && len <= 516)
           || len >= NMAX - 3;
}

START_TEST(all_finite_inputs)
{
    static double buf[NMAX + 4];
    for (size_t off = 0; off < 4; off++)
        for (size_t len = 0; len <= NMAX; len++) {
            double *x = buf + off;
            for (size_t k = 0; k < len; k++)
                x[k] = finite_value(k + off);
            ck_assert_int_eq(oracle(x, len), 1);
            ck_assert_msg(spec_all_finite(x, len) == 1, "len %zu off %zu", len, off);
            ck_assert_msg(ffi_all_finite(x, len) == 1, "len %zu off %zu", len, off);
            for (size_t k = 0; k < len; k++)
                x[k] = DBL_MAX;                     /* 0x7fe in every lane */
            ck_assert_msg(spec_all_finite(x, len) == 1 && ffi_all_finite(x, len) == 1,
                          "DBL_MAX, len %zu off %zu", len, off);
        }
}
END_TEST

START_TEST(one_non_finite_anywhere)
{
    const uint64_t bad[] = {
        0x7ff0000000000000u, 0xfff0000000000000u,   /* +Inf, -Inf */
        0x7ff8000000000000u, 0xfff8000000000000u,   /* quiet NaN, both signs */
        0x7ff0000000000001u, 0xfff7ffffffffffffu,   /* signalling NaN payloads */
    };
    static double x[NMAX];
    for (size_t len = 1; len <= NMAX; len++) {
        if (!interesting(len))
            continue;
        for (size_t k = 0; k < len; k++)
            x[k] = finite_value(k);
        for (size_t p = 0; p < len; p++)
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                const double keep = x[p];
                x[p] = from_bits(bad[b]);
                if (oracle(x, len) != 0 || spec_all_finite(x, len) != 0
                    || ffi_all_finite(x, len) != 0 || spec_all_finite(x, p) != 1
                    || ffi_all_finite(x, p) != 1)
                    ck_abort_msg("len %zu, %016llx at %zu: spec %d, ffi %d, prefix %d %d",
                                 len, (unsigned long long)bad[b], p, spec_all_finite(x, len),
                                 ffi_all_finite(x, len), spec_all_finite(x, p),
                                 ffi_all_finite(x, p));
                x[p] = keep;
            }
    }
}
END_TEST

Suite *suite_spec_finite(void)
{
    Suite *s = suite_create("spec_finite");
    TCase *tc = tcase_create("scan");
    tcase_add_test(tc, all_finite_inputs);
    tcase_add_test(tc, one_non_finite_anywhere);
    suite_add_tcase(s, tc);
    return s;
}
