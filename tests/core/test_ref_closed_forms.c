/* SPDX-License-Identifier: Apache-2.0 */
/* test_ref_closed_forms.c -- libfedref soft, prox_l1, median, ens against
 * an independent oracle in exact rational arithmetic (GMP mpq): the exact
 * result is computed by brute force from the optimality conditions and
 * rounded once (mpfr_set_q); ref must agree bit for bit (correct rounding).
 * Plus: argument checking, outputs unchanged on error, aliasing. */
#include <check.h>
#include <gmp.h>
#include <stdlib.h>
#include "fedref.h"

#define NRAND 3000

static frng_t rng;

/* A random dyadic with a few bits, sometimes a repeat (ties, kinks). */
static void rnd_dyadic(mpfr_t x, const mpfr_t *pool, size_t npool)
{
    uint64_t k, e, r;
    frng_below(&rng, 8, &r);
    if (r == 0 && npool > 0) {
        frng_below(&rng, npool, &k);
        mpfr_set(x, pool[k], MPFR_RNDN);
        frng_below(&rng, 2, &r);                 /* either sign */
        if (r) mpfr_neg(x, x, MPFR_RNDN);
        return;
    }
    frng_below(&rng, 1u << 12, &k);
    frng_below(&rng, 12, &e);
    frng_below(&rng, 2, &r);
    mpfr_set_ui_2exp(x, (unsigned long)k, -(mpfr_exp_t)e, MPFR_RNDN);
    if (r) mpfr_neg(x, x, MPFR_RNDN);
}

/* The exact minimiser of sum_i lam|x - v_i| + eta/2 (x - v_i)^2 by brute
 * force: every data value and every interval formula, checked exactly. */
static int oracle_ens(mpq_t out, mpq_t *v, size_t m, const mpq_t lam, const mpq_t eta)
{
    mpq_t S, x, d, t, r;
    mpq_inits(S, x, d, t, r, NULL);
    int found = 0;
    for (size_t i = 0; i < m; i++) mpq_add(S, S, v[i]);
    for (size_t k = 0; k <= 2 * m; k++) {
        long cl = 0, cr = 0;       /* counts for D-, D+ */
        if (k < m) {
            mpq_set(x, v[k]);
        } else {                   /* s = k - m values above: x = S/m + (lam/eta)(2s/m - 1) */
            long s = (long)(k - m);
            mpq_set_si(t, 2 * s - (long)m, m);
            mpq_div(r, lam, eta);
            mpq_mul(t, t, r);
            mpq_set_ui(d, m, 1);
            mpq_div(x, S, d);
            mpq_add(x, x, t);
        }
        int on_data = 0;
        for (size_t i = 0; i < m; i++) {
            int c = mpq_cmp(v[i], x);
            on_data |= c == 0;
            cl += c < 0 ? 1 : -1;
            cr += c <= 0 ? 1 : -1;
        }
        if (k >= m && on_data) continue;   /* interval formula must be off the data */
        /* eta(m x - S) */
        mpq_set_ui(d, m, 1);
        mpq_mul(d, d, x);
        mpq_sub(d, d, S);
        mpq_mul(d, d, eta);
        mpq_set_si(t, cl, 1); mpq_mul(t, t, lam); mpq_add(t, t, d);
        int left_ok = mpq_sgn(t) <= 0;
        mpq_set_si(t, cr, 1); mpq_mul(t, t, lam); mpq_add(t, t, d);
        int right_ok = mpq_sgn(t) >= 0;
        if (left_ok && right_ok) {
            if (found && mpq_cmp(out, x) != 0) { found = -1; break; }   /* two minimisers: impossible */
            mpq_set(out, x);
            found = 1;
        }
    }
    mpq_clears(S, x, d, t, r, NULL);
    return found;
}

/* got must be the correctly rounded exact value; a zero result must be +0
 * when plus_zero (the contracts of soft and prox_l1 promise +0, and a
 * mutant returning -0 must fail here), of either sign otherwise. */
static void check_same_z(mpfr_srcptr got, const mpq_t exact, const char *what, size_t i, int plus_zero)
{
    mpfr_t want;
    mpfr_init2(want, mpfr_get_prec(got));
    mpfr_set_q(want, exact, MPFR_RNDN);                   /* +0 for a zero exact */
    if (plus_zero && mpfr_zero_p(got) && mpfr_signbit(got))
        ck_abort_msg("%s case %zu: -0 where the contract promises +0", what, i);
    if (!mpfr_equal_p(got, want) && !(mpfr_zero_p(got) && mpfr_zero_p(want)))
        ck_abort_msg("%s case %zu: got %s, correctly rounded exact is %s", what, i,
                     mpfr_get_str(NULL, NULL, 10, 0, got, MPFR_RNDN),
                     mpfr_get_str(NULL, NULL, 10, 0, want, MPFR_RNDN));
    mpfr_clear(want);
}

static void check_same(mpfr_srcptr got, const mpq_t exact, const char *what, size_t i)
{
    check_same_z(got, exact, what, i, 0);
}

START_TEST(ens_vs_rational_oracle)
{
    frng_init(&rng, 1, 11);
    mpfr_t W[9 * 2], w[2], lam, eta;
    mpq_t q[9], ql, qe, ex;
    for (size_t i = 0; i < 18; i++) mpfr_init2(W[i], 64);
    for (size_t i = 0; i < 9; i++) mpq_init(q[i]);
    mpq_inits(ql, qe, ex, NULL);
    mpfr_inits2(64, lam, eta, (mpfr_ptr)0);
    mpfr_init2(w[0], 53); mpfr_init2(w[1], 113);
    for (size_t c = 0; c < NRAND; c++) {
        uint64_t m;
        frng_below(&rng, 9, &m); m++;
        for (size_t i = 0; i < 2 * m; i++) rnd_dyadic(W[i], W, i);
        rnd_dyadic(lam, NULL, 0); mpfr_abs(lam, lam, MPFR_RNDN);
        rnd_dyadic(eta, NULL, 0); mpfr_abs(eta, eta, MPFR_RNDN);
        if (mpfr_zero_p(lam)) mpfr_set_ui(lam, 3, MPFR_RNDN);
        if (mpfr_zero_p(eta)) mpfr_set_ui(eta, 5, MPFR_RNDN);
        ck_assert_int_eq(fr_ens(w, W, m, 2, lam, eta), FR_OK);
        mpfr_get_q(ql, lam); mpfr_get_q(qe, eta);
        for (size_t j = 0; j < 2; j++) {
            for (size_t i = 0; i < m; i++) mpfr_get_q(q[i], W[i * 2 + j]);
            ck_assert_int_eq(oracle_ens(ex, q, m, ql, qe), 1);
            check_same(w[j], ex, "ens", c);
        }
    }
    for (size_t i = 0; i < 18; i++) mpfr_clear(W[i]);
    for (size_t i = 0; i < 9; i++) mpq_clear(q[i]);
    mpq_clears(ql, qe, ex, NULL);
    mpfr_clears(lam, eta, w[0], w[1], (mpfr_ptr)0);
}
END_TEST

START_TEST(ens_worked_examples)
{
    /* column {10, 0, 0}, lambda = eta = 1: the minimiser is 3 (h'(3) = 0);
     * the printed (13) gives 11/3.  m = 1: the value itself. */
    mpfr_t W[3], w[1], one, p;
    for (int i = 0; i < 3; i++) mpfr_init2(W[i], 53);
    mpfr_inits2(53, w[0], one, p, (mpfr_ptr)0);
    mpfr_set_ui(W[0], 10, MPFR_RNDN); mpfr_set_ui(W[1], 0, MPFR_RNDN); mpfr_set_ui(W[2], 0, MPFR_RNDN);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ens(w, W, 3, 1, one, one), FR_OK);
    ck_assert(mpfr_cmp_ui(w[0], 3) == 0);
    ck_assert_int_eq(fr_ens_as_printed(w, W, 3, 1, one, one), FR_OK);
    mpfr_set_ui(p, 11, MPFR_RNDN); mpfr_div_ui(p, p, 3, MPFR_RNDN);
    ck_assert(mpfr_equal_p(w[0], p));
    ck_assert_int_eq(fr_ens(w, W, 1, 1, one, one), FR_OK);
    ck_assert(mpfr_cmp_ui(w[0], 10) == 0);
    ck_assert_int_eq(fr_ens_as_printed(w, W, 1, 1, one, one), FR_OK);
    ck_assert(mpfr_cmp_ui(w[0], 9) == 0);   /* printed: w1 - lambda/eta */
    for (int i = 0; i < 3; i++) mpfr_clear(W[i]);
    mpfr_clears(w[0], one, p, (mpfr_ptr)0);
}
END_TEST

START_TEST(prox_soft_median_vs_oracle)
{
    frng_init(&rng, 2, 11);
    mpfr_t u[8], x[8], g, r;
    mpq_t qu, qg, qr, ex, t;
    for (int i = 0; i < 8; i++) { mpfr_init2(u[i], 64); mpfr_init2(x[i], 24 + 16 * i); }
    mpfr_inits2(64, g, r, (mpfr_ptr)0);
    mpq_inits(qu, qg, qr, ex, t, NULL);
    for (size_t c = 0; c < NRAND; c++) {
        rnd_dyadic(g, NULL, 0); mpfr_abs(g, g, MPFR_RNDN);
        rnd_dyadic(r, NULL, 0); mpfr_abs(r, r, MPFR_RNDN);
        if (mpfr_zero_p(r)) mpfr_set_ui(r, 3, MPFR_RNDN);
        for (int i = 0; i < 8; i++) {
            rnd_dyadic(u[i], u, (size_t)i);
            if (i == 7) mpfr_div(u[i], g, r, MPFR_RNDN);   /* at (or next to) the kink */
        }
        mpfr_get_q(qg, g); mpfr_get_q(qr, r);
        /* prox: soft(u, gamma/rho), exact: sign(u)(|u| - g/r) or 0 */
        ck_assert_int_eq(fr_prox_l1(x, u, 8, g, r), FR_OK);
        for (int i = 0; i < 8; i++) {
            mpfr_get_q(qu, u[i]);
            mpq_div(t, qg, qr);
            mpq_abs(ex, qu);
            mpq_sub(ex, ex, t);
            if (mpq_sgn(ex) <= 0) mpq_set_ui(ex, 0, 1);
            else if (mpq_sgn(qu) < 0) mpq_neg(ex, ex);
            check_same_z(x[i], ex, "prox_l1", c, 1);
        }
        /* soft with a = gamma (exact subtraction, rounded once) */
        ck_assert_int_eq(fr_soft(x, u, 8, g), FR_OK);
        for (int i = 0; i < 8; i++) {
            mpfr_get_q(qu, u[i]);
            mpq_abs(ex, qu);
            mpq_sub(ex, ex, qg);
            if (mpq_sgn(ex) <= 0) mpq_set_ui(ex, 0, 1);
            else if (mpq_sgn(qu) < 0) mpq_neg(ex, ex);
            check_same_z(x[i], ex, "soft", c, 1);
        }
        /* median of the 8 values as an 8 x 1 matrix: mean of the middle two */
        ck_assert_int_eq(fr_median(x, u, 8, 1), FR_OK);
        int below = 0, above = 0;
        for (int i = 0; i < 8; i++) { below += mpfr_less_p(u[i], x[0]); above += mpfr_greater_p(u[i], x[0]); }
        ck_assert(below <= 4 && above <= 4);
    }
    for (int i = 0; i < 8; i++) { mpfr_clear(u[i]); mpfr_clear(x[i]); }
    mpfr_clears(g, r, (mpfr_ptr)0);
    mpq_clears(qu, qg, qr, ex, t, NULL);
}
END_TEST

START_TEST(errors_leave_outputs_unchanged)
{
    mpfr_t t[2], o[2], a, b;
    mpfr_inits2(53, t[0], t[1], o[0], o[1], a, b, (mpfr_ptr)0);
    mpfr_set_ui(t[0], 1, MPFR_RNDN); mpfr_set_ui(t[1], 2, MPFR_RNDN);
    mpfr_set_ui(o[0], 77, MPFR_RNDN); mpfr_set_ui(o[1], 77, MPFR_RNDN);
    mpfr_set_si(a, -1, MPFR_RNDN); mpfr_set_ui(b, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_soft(o, t, 2, a), FR_EDOM);
    ck_assert_int_eq(fr_soft(o, t, 0, b), FR_ESIZE);
    ck_assert_int_eq(fr_soft(NULL, t, 2, b), FR_ENULL);
    ck_assert_int_eq(fr_prox_l1(o, t, 2, b, a), FR_EDOM);
    mpfr_set_zero(a, 1);
    ck_assert_int_eq(fr_prox_l1(o, t, 2, b, a), FR_EDOM);     /* rho = 0 */
    ck_assert_int_eq(fr_ens(o, t, 2, 1, a, b), FR_EDOM);      /* lambda = 0 */
    ck_assert_int_eq(fr_ens(o, t, 2, 1, b, a), FR_EDOM);      /* eta = 0 */
    ck_assert_int_eq(fr_ens(o, t, 0, 1, b, b), FR_ESIZE);
    ck_assert_int_eq(fr_median(o, t, 2, 0), FR_ESIZE);
    mpfr_set_nan(a);
    ck_assert_int_eq(fr_soft(o, t, 2, a), FR_ENONFINITE);
    ck_assert_int_eq(fr_ens(o, t, 2, 1, a, b), FR_ENONFINITE);
    mpfr_set_inf(t[1], -1);
    ck_assert_int_eq(fr_soft(o, t, 2, b), FR_ENONFINITE);
    ck_assert_int_eq(fr_median(o, t, 2, 1), FR_ENONFINITE);
    ck_assert_int_eq(fr_ens(o, t, 2, 1, b, b), FR_ENONFINITE);
    ck_assert(mpfr_cmp_ui(o[0], 77) == 0 && mpfr_cmp_ui(o[1], 77) == 0);
    ck_assert(fr_is_domain_error(FR_EDOM) && !fr_is_domain_error(FR_ENOMEM));
    mpfr_clears(t[0], t[1], o[0], o[1], a, b, (mpfr_ptr)0);
}
END_TEST

START_TEST(aliasing_soft_prox)
{
    mpfr_t t[2], a, r;
    mpfr_inits2(53, t[0], t[1], a, r, (mpfr_ptr)0);
    mpfr_set_si(t[0], 5, MPFR_RNDN); mpfr_set_si(t[1], -5, MPFR_RNDN);
    mpfr_set_ui(a, 2, MPFR_RNDN); mpfr_set_ui(r, 4, MPFR_RNDN);
    ck_assert_int_eq(fr_soft(t, t, 2, a), FR_OK);              /* 3, -3 */
    ck_assert(mpfr_cmp_si(t[0], 3) == 0 && mpfr_cmp_si(t[1], -3) == 0);
    ck_assert_int_eq(fr_prox_l1(t, t, 2, a, r), FR_OK);        /* threshold 1/2 */
    ck_assert(mpfr_cmp_d(t[0], 2.5) == 0 && mpfr_cmp_d(t[1], -2.5) == 0);
    mpfr_clears(t[0], t[1], a, r, (mpfr_ptr)0);
}
END_TEST

Suite *suite_ref_closed_forms(void)
{
    Suite *s = suite_create("ref_closed_forms");
    TCase *tc = tcase_create("ens");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ens_vs_rational_oracle);
    tcase_add_test(tc, ens_worked_examples);
    suite_add_tcase(s, tc);
    tc = tcase_create("prox_soft_median");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, prox_soft_median_vs_oracle);
    tcase_add_test(tc, aliasing_soft_prox);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, errors_leave_outputs_unchanged);
    suite_add_tcase(s, tc);
    return s;
}
