/* SPDX-License-Identifier: Apache-2.0 */
/* test_enclosures.c -- white-box: the enclosure of 002's advanced
 * composition adv = sqrt(2 ln(1/delta) sum_j eps_j^2) + sum_j eps_j
 * (e^eps_j - 1) that ref's Ziv loop decides on (ref/fedepm/enclosures.h)
 * holds the true value at every working precision w = 2..WMAX, on w-bit
 * inputs.  At the precisions fr_dp_compose uses, a step rounded the wrong
 * way moves an end by about 2^-(p+32) and no output-level test sees it; at
 * w bits it moves the end by about the enclosure's own width
 * (ci/mutate-privacy.sh flips each direction and runs this suite).  The
 * true value: the same formula at HP bits to nearest (relative error far
 * below the slack 2^-(HP-16) allowed). */
#include <check.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../ref/fedepm/enclosures.h"

Suite *suite_dp_enclosures(void);

#define HP 160
#define WMAX 30
#define NCASE 60
#define KMAX 4

START_TEST(adv)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0xadc0), 0);
    mpfr_t eps[KMAX], sq[KMAX], tm[KMAX], d, lo, hi, A, t, q, sl;
    mpfr_ptr ptr[KMAX];
    for (int j = 0; j < KMAX; j++) {
        mpfr_init2(eps[j], 53);
        mpfr_init2(sq[j], MPFR_PREC_MIN);
        mpfr_init2(tm[j], MPFR_PREC_MIN);
    }
    mpfr_inits2(53, d, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(HP, A, t, q, sl, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NCASE; i++) {
            size_t k = 1 + (size_t)(i % KMAX);
            for (size_t j = 0; j < k; j++)
                tu_draw_wbit(eps[j], &rng, w, 1e-3, 3);
            tu_draw_wbit(d, &rng, w, 1e-12, 0.5);
            mpfr_set_prec(lo, w);
            mpfr_set_prec(hi, w);
            fri_dp_adv_bound(lo, -1, w, eps, k, d, sq, tm, ptr);
            fri_dp_adv_bound(hi, +1, w, eps, k, d, sq, tm, ptr);
            /* the true adv at HP bits */
            mpfr_set_zero(A, 1);
            mpfr_set_zero(q, 1);
            for (size_t j = 0; j < k; j++) {
                mpfr_sqr(t, eps[j], MPFR_RNDN);
                mpfr_add(q, q, t, MPFR_RNDN);
            }
            mpfr_log(t, d, MPFR_RNDN);
            mpfr_mul(q, q, t, MPFR_RNDN);
            mpfr_mul_si(q, q, -2, MPFR_RNDN);
            mpfr_sqrt(A, q, MPFR_RNDN);
            for (size_t j = 0; j < k; j++) {
                mpfr_expm1(t, eps[j], MPFR_RNDN);
                mpfr_mul(t, t, eps[j], MPFR_RNDN);
                mpfr_add(A, A, t, MPFR_RNDN);
            }
            mpfr_div_2ui(sl, A, HP - 16, MPFR_RNDU);
            mpfr_add(t, A, sl, MPFR_RNDU);
            ck_assert_msg(mpfr_lessequal_p(lo, t), "w %d case %d: lower end %.10g above the true %.17g",
                          (int)w, i, mpfr_get_d(lo, MPFR_RNDN), mpfr_get_d(A, MPFR_RNDN));
            mpfr_sub(t, A, sl, MPFR_RNDD);
            ck_assert_msg(mpfr_greaterequal_p(hi, t), "w %d case %d: upper end %.10g below the true %.17g",
                          (int)w, i, mpfr_get_d(hi, MPFR_RNDN), mpfr_get_d(A, MPFR_RNDN));
        }
    for (int j = 0; j < KMAX; j++) {
        mpfr_clear(eps[j]);
        mpfr_clear(sq[j]);
        mpfr_clear(tm[j]);
    }
    mpfr_clears(d, lo, hi, A, t, q, sl, (mpfr_ptr)0);
}
END_TEST

Suite *suite_dp_enclosures(void)
{
    Suite *s = suite_create("dp_enclosures");
    TCase *tc = tcase_create("containment");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, adv);
    suite_add_tcase(s, tc);
    return s;
}
