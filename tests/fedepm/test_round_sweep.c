/* SPDX-License-Identifier: Apache-2.0 */
/* test_round_sweep.c -- the rounding directions of FedEPM's privacy
 * bookkeeping (fr_dp_sens_step, fr_dp_compose) at every output precision
 * p = 2..64 and every rounding mode they accept, on aimed cases (as
 * tests/fedpdm/test_round_sweep.c): an input set at 400 bits so that the
 * exact result is g (1 + 2^-200) or g (1 - 2^-200) for a p-bit g; a
 * correctly rounded result must then be the grid point on the side its
 * mode says.  The exact value: GMP rationals for the sensitivity step, the
 * defining formula at 400 bits for the advanced composition.  At p = 53
 * fast's upper bounds are checked against RU of the same exact value. */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_dp_round_sweep(void);

#define HP 400

static const mpfr_rnd_t RNDS[5] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD, MPFR_RNDA};

/* x = g (1 + side 2^-200), g = RN_p(v) */
static void aim(mpfr_t x, mpfr_t g, double v, mpfr_prec_t p, int side)
{
    mpfr_set_prec(g, p);
    mpfr_set_d(g, v, MPFR_RNDN);
    mpfr_set_prec(x, HP);
    mpfr_div_2ui(x, g, 200, MPFR_RNDN);
    if (side > 0)
        mpfr_add(x, g, x, MPFR_RNDN);
    else
        mpfr_sub(x, g, x, MPFR_RNDN);
}

/* (mu delta + Delta)/(eta + mu) aimed by Delta (400 bits), exact by mpq */
START_TEST(sens_step)
{
    static const double C[][4] = {{0.75, 1.2e-5, 0.05, 1.9}, {3.1, 0.7, 2.3, 5.3}};  /* delta eta mu v */
    mpq_t q, t, u;
    mpq_inits(q, t, u, NULL);
    mpfr_t x, g, d, D, e, m, r, w;
    mpfr_inits2(HP, x, g, D, (mpfr_ptr)0);
    mpfr_inits2(53, d, e, m, (mpfr_ptr)0);
    mpfr_inits2(2, r, w, (mpfr_ptr)0);
    for (size_t i = 0; i < 2; i++)
        for (mpfr_prec_t p = 2; p <= 64; p++)
            for (int side = -1; side <= 1; side += 2) {
                aim(x, g, C[i][3], p, side);
                mpfr_set_d(d, C[i][0], MPFR_RNDN);
                mpfr_set_d(e, C[i][1], MPFR_RNDN);
                mpfr_set_d(m, C[i][2], MPFR_RNDN);
                mpfr_add(D, e, m, MPFR_RNDN);
                mpfr_mul(D, D, x, MPFR_RNDN);
                mpfr_fms(D, m, d, D, MPFR_RNDN);
                mpfr_neg(D, D, MPFR_RNDN);             /* x (eta + mu) - mu delta */
                mpq_set_d(q, C[i][2]);
                mpq_set_d(t, C[i][0]);
                mpq_mul(q, q, t);
                mpfr_get_q(t, D);
                mpq_add(q, q, t);
                mpq_set_d(t, C[i][1]);
                mpq_set_d(u, C[i][2]);
                mpq_add(t, t, u);
                mpq_div(q, q, t);                      /* the exact step */
                mpfr_set_prec(r, p);
                mpfr_set_prec(w, p);
                for (int k = 0; k < 5; k++) {
                    ck_assert_int_eq(fr_dp_sens_step(r, d, D, e, m, RNDS[k]), FR_OK);
                    mpfr_set_q(w, q, RNDS[k]);
                    ck_assert_msg(mpfr_equal_p(r, w), "sens_step p %d side %d rnd %d", (int)p, side, k);
                }
                if (p == 53) {
                    double f, Dd = mpfr_get_d(D, MPFR_RNDU);
                    ck_assert_int_eq(ff_dp_sens_step_upper(&f, C[i][0], Dd, C[i][1], C[i][2]), FR_OK);
                    mpfr_set_d(D, Dd, MPFR_RNDN);
                    ck_assert_int_eq(fr_dp_sens_step(r, d, D, e, m, MPFR_RNDU), FR_OK);
                    ck_assert_msg(f >= mpfr_get_d(r, MPFR_RNDU), "fast sens_step below ref");
                }
            }
    mpfr_clears(x, g, d, D, e, m, r, w, (mpfr_ptr)0);
    mpq_clears(q, t, u, NULL);
}
END_TEST

/* adv = sqrt(2 ln(1/delta) sum eps_j^2) + sum eps_j (e^eps_j - 1), aimed by
 * delta = exp(-(x - E)^2 / (2 Q)); basic = sum eps_j (exact inputs: RU/RD of
 * the rational sum) */
START_TEST(compose)
{
    static const double EPS[3] = {0.31, 0.05, 0.9};
    mpfr_t ep[3], x, g, Q, E, t, d, X, b, a, w;
    for (int j = 0; j < 3; j++) {
        mpfr_init2(ep[j], 53);
        mpfr_set_d(ep[j], EPS[j], MPFR_RNDN);
    }
    mpfr_inits2(HP, x, g, Q, E, t, d, X, (mpfr_ptr)0);
    mpfr_inits2(2, b, a, w, (mpfr_ptr)0);
    for (mpfr_prec_t p = 2; p <= 64; p++)
        for (int side = -1; side <= 1; side += 2) {
            aim(x, g, 6.7, p, side);
            mpfr_set_zero(Q, 1);
            mpfr_set_zero(E, 1);
            for (int j = 0; j < 3; j++) {
                mpfr_sqr(t, ep[j], MPFR_RNDN);
                mpfr_add(Q, Q, t, MPFR_RNDN);
                mpfr_expm1(t, ep[j], MPFR_RNDN);
                mpfr_mul(t, t, ep[j], MPFR_RNDN);
                mpfr_add(E, E, t, MPFR_RNDN);
            }
            mpfr_sub(t, x, E, MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_div(t, t, Q, MPFR_RNDN);
            mpfr_div_2ui(t, t, 1, MPFR_RNDN);
            mpfr_neg(t, t, MPFR_RNDN);
            mpfr_exp(d, t, MPFR_RNDN);                 /* delta */
            mpfr_log(t, d, MPFR_RNDN);
            mpfr_neg(t, t, MPFR_RNDN);
            mpfr_mul(t, t, Q, MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_sqrt(t, t, MPFR_RNDN);
            mpfr_add(X, t, E, MPFR_RNDN);              /* the exact adv of that delta */
            mpfr_set_prec(b, p);
            mpfr_set_prec(a, p);
            mpfr_set_prec(w, p);
            for (int k = 0; k < 5; k++) {
                ck_assert_int_eq(fr_dp_compose(b, a, ep, 3, d, RNDS[k]), FR_OK);
                mpfr_set(w, X, RNDS[k]);
                ck_assert_msg(mpfr_equal_p(a, w), "compose adv p %d side %d rnd %d", (int)p, side, k);
            }
            if (p == 53) {
                double fb, fa, dd = mpfr_get_d(d, MPFR_RNDN);
                ck_assert_int_eq(ff_dp_compose_upper(&fb, &fa, EPS, 3, dd), FR_OK);
                mpfr_set_d(t, dd, MPFR_RNDN);
                ck_assert_int_eq(fr_dp_compose(b, a, ep, 3, t, MPFR_RNDU), FR_OK);
                ck_assert_msg(fa >= mpfr_get_d(a, MPFR_RNDU) && fb >= mpfr_get_d(b, MPFR_RNDU),
                              "fast compose below ref");
            }
        }
    for (int j = 0; j < 3; j++)
        mpfr_clear(ep[j]);
    mpfr_clears(x, g, Q, E, t, d, X, b, a, w, (mpfr_ptr)0);
}
END_TEST

Suite *suite_dp_round_sweep(void)
{
    Suite *s = suite_create("dp_round_sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sens_step);
    tcase_add_test(tc, compose);
    suite_add_tcase(s, tc);
    return s;
}
