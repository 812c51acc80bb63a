/* SPDX-License-Identifier: Apache-2.0 */
/* test_kkt.c -- the KKT residuals of 004 Definition 1 (module proxal) in
 * both wings:
 *   - hand cases (every branch of every coordinate formula, worked out by
 *     hand from the sets: h = 0, l1 at w = 0 with |r| <= gamma and > gamma,
 *     w > 0, w < 0; the box interior, both faces, lo = hi; mu_j = 0 with
 *     c_j < 0 and > 0, mu_j > 0), m = 0, signed zeros (w = -0, mu = -0,
 *     gamma = -0: read as 0; a zero residual is +0 in both wings);
 *   - rounding: ref is RU at its precision (1 + 2^-30 at 24 bits gives 1 +
 *     2^-23), and the cancellation 1 + 2^60 - 2^60 (binary64 gives 0: fast
 *     must still be >= 1);
 *   - a brute-force oracle: per coordinate, a ternary search at 256 bits of
 *     min |v| over the interval r_k + dh_k(w_k) (infinite ends cut at
 *     +-2^40), r_k summed at 1100 bits (exact for these inputs); eps1 and
 *     eps2 from ref at 200 bits within 2^-150 relative + 2^-180;
 *   - fast >= ref at 53 bits (= RU_53 of the exact value: fast >= the exact
 *     residual, exactly) and fast - ref_53 <= ff_proxal_kkt_bound's abs1;
 *     eps2 equal.
 * Replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT multiplies the cases. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_proxal_kkt(void);

#define DM 5
#define MM 4

typedef struct {
    size_t d, m;
    int h;
    double g[DM], J[DM * MM], c[MM], mu[MM], w[DM], lo[DM], hi[DM], gamma;
} kcase;

/* ref at precision p on the binary64 case; returns the status. */
static int ref_at(mpfr_t e1, mpfr_t e2, const kcase *K)
{
    mpfr_t g[DM], J[DM * MM], c[MM], mu[MM], w[DM], lo[DM], hi[DM], gm;
    mpfr_init2(gm, 53);
    mpfr_set_d(gm, K->gamma, MPFR_RNDN);
    for (size_t k = 0; k < K->d; k++) {
        mpfr_inits2(53, g[k], w[k], lo[k], hi[k], (mpfr_ptr)0);
        mpfr_set_d(g[k], K->g[k], MPFR_RNDN);
        mpfr_set_d(w[k], K->w[k], MPFR_RNDN);
        mpfr_set_d(lo[k], K->lo[k], MPFR_RNDN);
        mpfr_set_d(hi[k], K->hi[k], MPFR_RNDN);
    }
    for (size_t i = 0; i < K->d * K->m; i++) { mpfr_init2(J[i], 53); mpfr_set_d(J[i], K->J[i], MPFR_RNDN); }
    for (size_t j = 0; j < K->m; j++) {
        mpfr_inits2(53, c[j], mu[j], (mpfr_ptr)0);
        mpfr_set_d(c[j], K->c[j], MPFR_RNDN);
        mpfr_set_d(mu[j], K->mu[j], MPFR_RNDN);
    }
    int st = fr_proxal_kkt(e1, e2, g, K->d, K->m ? J : NULL, K->m, K->m ? c : NULL, K->m ? mu : NULL, w, K->h,
                           gm, lo, hi);
    mpfr_clear(gm);
    for (size_t k = 0; k < K->d; k++) mpfr_clears(g[k], w[k], lo[k], hi[k], (mpfr_ptr)0);
    for (size_t i = 0; i < K->d * K->m; i++) mpfr_clear(J[i]);
    for (size_t j = 0; j < K->m; j++) mpfr_clears(c[j], mu[j], (mpfr_ptr)0);
    return st;
}

/* Both wings on K: ref at 53 bits equals (want1, want2) exactly (+0 for a
 * zero), fast >= ref and within its bound, eps2 equal. */
static void both(const kcase *K, double want1, double want2)
{
    mpfr_t e1, e2;
    mpfr_inits2(53, e1, e2, (mpfr_ptr)0);
    ck_assert_int_eq(ref_at(e1, e2, K), FR_OK);
    ck_assert_msg(mpfr_cmp_d(e1, want1) == 0 && mpfr_signbit(e1) == signbit(want1),
                  "ref eps1 %.17g, want %.17g", mpfr_get_d(e1, MPFR_RNDN), want1);
    ck_assert_msg(mpfr_cmp_d(e2, want2) == 0 && mpfr_signbit(e2) == signbit(want2),
                  "ref eps2 %.17g, want %.17g", mpfr_get_d(e2, MPFR_RNDN), want2);
    double f1, f2, a1, a2;
    const double *J = K->m ? K->J : NULL, *c = K->m ? K->c : NULL, *mu = K->m ? K->mu : NULL;
    ck_assert_int_eq(ff_proxal_kkt(&f1, &f2, K->g, K->d, J, K->m, c, mu, K->w, K->h, K->gamma, K->lo, K->hi), FR_OK);
    ck_assert_int_eq(ff_proxal_kkt_bound(&a1, &a2, K->g, K->d, J, K->m, c, mu, K->w, K->h, K->gamma, K->lo, K->hi),
                     FR_OK);
    ck_assert_msg(f1 >= want1 && f1 - want1 <= a1, "fast eps1 %.17g, exact %.17g, abs %.3g", f1, want1, a1);
    ck_assert(f2 == want2 && !signbit(f2) && a2 == 0);
    if (K->m == 0) ck_assert(f1 == want1);          /* no sum: exact */
    mpfr_clears(e1, e2, (mpfr_ptr)0);
}

START_TEST(hand_zero_and_cone)
{
    /* r = (1 + 0.5*2, -2 + 1*2) = (2, 0); mu = 2 > 0: e2 = |c| = 3 */
    kcase K = {.d = 2, .m = 1, .h = FR_PROXAL_H_ZERO, .g = {1, -2}, .J = {0.5, 1}, .c = {-3}, .mu = {2},
               .w = {7, -7}};
    both(&K, 2, 3);
    /* mu_j = 0: e2 = max(c, 0): c < 0 gives 0, c > 0 gives c; mu > 0: |c| */
    kcase C = {.d = 1, .m = 4, .h = FR_PROXAL_H_ZERO, .g = {0}, .J = {0, 0, 0, 0}, .c = {-1, 2, 0, -0.5},
               .mu = {0, 0, 1, 1}, .w = {0}};
    both(&C, 0.0, 2);
    C.c[1] = 0.25;                                  /* then the -0.5 with mu > 0 wins */
    both(&C, 0.0, 0.5);
    C.mu[3] = -0.0;                                 /* -0 is the multiplier 0: max(-0.5, 0) */
    both(&C, 0.0, 0.25);
    C.c[1] = -4;
    C.c[2] = -0.0;
    both(&C, 0.0, 0.0);                             /* every e2_j zero: +0 */
}
END_TEST

START_TEST(hand_l1)
{
    /* gamma = 1, w = (0, 0, 1, -1, -0), r = g (m = 0):
     * w = 0, |r| = 0.5 <= 1: 0; w = 0, r = -3: 3 - 1 = 2; w = 1: |r + 1| = 0;
     * w = -1: |r - 1| = 0.5; w = -0, r = 1.5: 0.5 */
    kcase K = {.d = 5, .m = 0, .h = FR_PROXAL_H_L1, .g = {0.5, -3, -1, 1.5, 1.5}, .w = {0, 0, 1, -1, -0.0},
               .gamma = 1};
    both(&K, 2, 0.0);
    K.g[1] = -1;                                    /* |r| = gamma exactly: 0 */
    both(&K, 0.5, 0.0);
    K.g[3] = 1;
    K.g[4] = -1;                                    /* w = -0, |r| = gamma: 0 */
    both(&K, 0.0, 0.0);
    K.gamma = -0.0;                                 /* gamma = -0 is 0: e1 = |r| at w = 0 */
    K.g[2] = 0;
    K.g[3] = 0;
    both(&K, 1, 0.0);
    /* with constraints: r = 0.25 + 3*0.5 = 1.75 at w = 2: |1.75 + 0.5| */
    kcase L = {.d = 1, .m = 1, .h = FR_PROXAL_H_L1, .g = {0.25}, .J = {3}, .c = {0}, .mu = {0.5}, .w = {2},
               .gamma = 0.5};
    both(&L, 2.25, 0.0);
}
END_TEST

START_TEST(hand_box)
{
    /* lo = (0, 0, 0, 1), hi = (1, 1, 1, 1), w = (lo, hi, interior, lo = hi):
     * at lo: max(-r, 0); at hi: max(r, 0); interior: |r|; lo = hi: 0 */
    kcase K = {.d = 4, .m = 0, .h = FR_PROXAL_H_BOX, .g = {3, -2, 0.25, 7}, .w = {0, 1, 0.5, 1},
               .lo = {0, 0, 0, 1}, .hi = {1, 1, 1, 1}};
    both(&K, 0.25, 0.0);
    K.g[0] = -3;
    K.g[1] = 2;
    K.g[2] = 0;
    K.g[3] = -1e300;
    both(&K, 3, 0.0);
    K.w[0] = -0.0;                                  /* -0 = lo = 0: still the face */
    both(&K, 3, 0.0);
}
END_TEST

START_TEST(rounding_and_cancellation)
{
    /* RU at 24 bits: r = 1 + 2^-30 -> 1 + 2^-23 */
    kcase K = {.d = 1, .m = 1, .h = FR_PROXAL_H_ZERO, .g = {1}, .J = {0x1p-30}, .c = {0x1p-40}, .mu = {1},
               .w = {0}};
    mpfr_t e1, e2;
    mpfr_inits2(24, e1, e2, (mpfr_ptr)0);
    ck_assert_int_eq(ref_at(e1, e2, &K), FR_OK);
    ck_assert(mpfr_cmp_d(e1, 1 + 0x1p-23) == 0 && mpfr_cmp_d(e2, 0x1p-40) == 0);
    /* cancellation: r = 1 + 2^60 - 2^60 = 1 exactly; binary64 left to right gives 0 */
    kcase C = {.d = 1, .m = 2, .h = FR_PROXAL_H_ZERO, .g = {1}, .J = {0x1p60, -0x1p60}, .c = {0, 0},
               .mu = {1, 1}, .w = {0}};
    both(&C, 1, 0.0);
    /* l1 at w = 0, |r| = 2^-1074 above gamma = 0 */
    kcase T = {.d = 1, .m = 1, .h = FR_PROXAL_H_L1, .g = {0x1p-1074}, .J = {0x1p-600}, .c = {0}, .mu = {0x1p-500},
               .w = {0}, .gamma = 0};
    mpfr_set_prec(e1, 200);
    mpfr_set_prec(e2, 200);
    ck_assert_int_eq(ref_at(e1, e2, &T), FR_OK);
    mpfr_set_ui_2exp(e2, (1UL << 26) + 1, -1100, MPFR_RNDN);    /* 2^-1074 + 2^-1100, exact */
    ck_assert(mpfr_equal_p(e1, e2));
    mpfr_clears(e1, e2, (mpfr_ptr)0);
}
END_TEST

/* ---- brute force ---------------------------------------------------------- */

static frng_t rng;

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

static double rd(unsigned bits, int emin, int emax)
{
    double k = (double)below((uint64_t)1 << bits);
    int e = emin + (int)below((uint64_t)(emax - emin + 1));
    return (below(2) ? -1 : 1) * ldexp(k, e - (int)bits);
}

/* min |v| over [a, b] (a <= b) by ternary search at x's precision. */
static void ternary(mpfr_t x, const mpfr_t a0, const mpfr_t b0)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t a, b, m1, m2, t;
    mpfr_inits2(p, a, b, m1, m2, t, (mpfr_ptr)0);
    mpfr_set(a, a0, MPFR_RNDN);
    mpfr_set(b, b0, MPFR_RNDN);
    for (int it = 0; it < 400; it++) {
        mpfr_sub(t, b, a, MPFR_RNDN);
        mpfr_div_ui(t, t, 3, MPFR_RNDN);
        mpfr_add(m1, a, t, MPFR_RNDN);
        mpfr_sub(m2, b, t, MPFR_RNDN);
        if (mpfr_cmpabs(m1, m2) <= 0) mpfr_set(b, m2, MPFR_RNDN);
        else mpfr_set(a, m1, MPFR_RNDN);
    }
    mpfr_set(x, a, MPFR_RNDN);
    mpfr_abs(x, x, MPFR_RNDN);
    mpfr_abs(t, b, MPFR_RNDN);
    mpfr_min(x, x, t, MPFR_RNDN);
    mpfr_clears(a, b, m1, m2, t, (mpfr_ptr)0);
}

static void draw(kcase *K)
{
    K->d = 1 + below(DM);
    K->m = below(MM + 1);
    K->h = (int)below(3);
    K->gamma = fabs(rd(8, -2, 2));
    for (size_t j = 0; j < K->m; j++) {
        uint64_t t = below(3);
        K->mu[j] = t == 0 ? 0.0 : t == 1 ? -0.0 : fabs(rd(10, -3, 3));
        K->c[j] = below(4) == 0 ? 0.0 : rd(10, -3, 3);
    }
    for (size_t k = 0; k < K->d; k++) {
        for (size_t j = 0; j < K->m; j++) K->J[k * K->m + j] = rd(12, -3, 3);
        K->g[k] = rd(20, -3, 3);
        uint64_t t = below(3);
        K->w[k] = t == 0 ? 0.0 : t == 1 ? -0.0 : rd(6, -1, 1);
        double a = rd(6, -1, 1), b = rd(6, -1, 1);
        K->lo[k] = fmin(a, b);
        K->hi[k] = below(5) == 0 ? K->lo[k] : fmax(a, b);
        if (K->h == FR_PROXAL_H_BOX) {
            t = below(3);
            K->w[k] = t == 0 ? K->lo[k] : t == 1 ? K->hi[k] : (K->lo[k] + K->hi[k]) / 2;
        }
    }
}

START_TEST(brute_force)
{
    frng_init(&rng, tu_seed(0x6b6b74), 1);
    const double BIG = 0x1p40;
    mpfr_t r, x, a, b, p, e1, e2, want1, want2, d;
    mpfr_inits2(1100, r, p, (mpfr_ptr)0);
    mpfr_inits2(256, x, a, b, want1, want2, d, (mpfr_ptr)0);
    mpfr_inits2(200, e1, e2, (mpfr_ptr)0);
    int n = tu_effort(300);
    for (int i = 0; i < n; i++) {
        kcase K;
        draw(&K);
        mpfr_set_zero(want1, 1);
        mpfr_set_zero(want2, 1);
        for (size_t k = 0; k < K.d; k++) {
            mpfr_set_d(r, K.g[k], MPFR_RNDN);
            for (size_t j = 0; j < K.m; j++) {
                mpfr_set_d(p, K.J[k * K.m + j], MPFR_RNDN);
                mpfr_mul_d(p, p, K.mu[j], MPFR_RNDN);
                mpfr_add(r, r, p, MPFR_RNDN);
            }
            /* the interval r + dh_k(w_k), from the set's definition */
            double lo = 0, hi = 0;
            if (K.h == FR_PROXAL_H_L1) {
                lo = K.w[k] > 0 ? K.gamma : -K.gamma;
                hi = K.w[k] < 0 ? -K.gamma : K.gamma;
            } else if (K.h == FR_PROXAL_H_BOX) {
                lo = K.w[k] == K.lo[k] ? -BIG : 0;
                hi = K.w[k] == K.hi[k] ? BIG : 0;
            }
            mpfr_add_d(a, r, lo, MPFR_RNDN);
            mpfr_add_d(b, r, hi, MPFR_RNDN);
            ternary(x, a, b);
            mpfr_max(want1, want1, x, MPFR_RNDN);
        }
        for (size_t j = 0; j < K.m; j++) {          /* c - N(mu): [c, c] or [c, inf) */
            mpfr_set_d(a, K.c[j], MPFR_RNDN);
            mpfr_set_d(b, K.mu[j] > 0 ? K.c[j] : K.c[j] + BIG, MPFR_RNDN);
            ternary(x, a, b);
            mpfr_max(want2, want2, x, MPFR_RNDN);
        }
        ck_assert_int_eq(ref_at(e1, e2, &K), FR_OK);
        mpfr_t *pair[2] = {&e1, &e2}, *want[2] = {&want1, &want2};
        for (int q = 0; q < 2; q++) {
            mpfr_sub(d, *pair[q], *want[q], MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_mul_2si(x, *want[q], -150, MPFR_RNDN);
            mpfr_abs(x, x, MPFR_RNDN);
            mpfr_add_d(x, x, 0x1p-180, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp(d, x) <= 0, "case %d: eps%d ref %.17g brute force %.17g", i, q + 1,
                          mpfr_get_d(*pair[q], MPFR_RNDN), mpfr_get_d(*want[q], MPFR_RNDN));
        }
        /* fast against ref at 53 bits (RU_53 of the exact value) */
        mpfr_t r1, r2;
        mpfr_inits2(53, r1, r2, (mpfr_ptr)0);
        ck_assert_int_eq(ref_at(r1, r2, &K), FR_OK);
        double f1, f2, a1, a2;
        ck_assert_int_eq(ff_proxal_kkt(&f1, &f2, K.g, K.d, K.J, K.m, K.c, K.mu, K.w, K.h, K.gamma, K.lo, K.hi), FR_OK);
        ck_assert_int_eq(ff_proxal_kkt_bound(&a1, &a2, K.g, K.d, K.J, K.m, K.c, K.mu, K.w, K.h, K.gamma, K.lo,
                                             K.hi), FR_OK);
        ck_assert_msg(mpfr_cmp_d(r1, f1) <= 0, "case %d: fast eps1 %.17g below the exact residual", i, f1);
        ck_assert_msg(f1 - mpfr_get_d(r1, MPFR_RNDN) <= a1, "case %d: fast eps1 beyond its bound", i);
        ck_assert(mpfr_cmp_d(r2, f2) == 0 && a2 == 0);
        mpfr_clears(r1, r2, (mpfr_ptr)0);
    }
    mpfr_clears(r, p, x, a, b, want1, want2, d, e1, e2, (mpfr_ptr)0);
}
END_TEST

Suite *suite_proxal_kkt(void)
{
    Suite *s = suite_create("proxal_kkt");
    TCase *tc = tcase_create("kkt");
    tcase_add_test(tc, hand_zero_and_cone);
    tcase_add_test(tc, hand_l1);
    tcase_add_test(tc, hand_box);
    tcase_add_test(tc, rounding_and_cancellation);
    tcase_add_test(tc, brute_force);
    suite_add_tcase(s, tc);
    return s;
}
