/* SPDX-License-Identifier: Apache-2.0 */
/* test_compose_tight.c -- fr_dp_compose_tight and ff_dp_compose_tight_upper
 * (the optimal composition of pure eps_j-DP releases, docs/DP.md section 5)
 * against oracles that share none of their method (no grid, no
 * convolution, no suffix sums), at 256 bits:
 *   - the hockey-stick divergence of the k-fold randomized response pair,
 *     every one of the 2^k outcomes enumerated (unequal eps_j), or the
 *     binomial sum (equal eps_j), which Kairouz, Oh & Viswanath's closed
 *     form (Thm 3.3 of their 2015 paper) must reproduce at e = (k - 2i) eps;
 *   - validity: delta(result) <= delta; tightness: for equal eps_j (the grid
 *     is then exact) delta(result (1 - 2^-40)) > delta, for unequal ones the
 *     result is within k h of the least e;
 *   - the output rounding (prec 2..12: result >= the least e, which fails
 *     when the final rounding is flipped to RNDD or RNDN);
 *   - fast >= ref and within 1e-9 relative; both <= fr_dp_compose's adv.
 * Replayable: FEDREF_SEED=<n>. */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_dp_compose_tight(void);

#define HP 256

/* delta(e) of the product of RR_{eps_j}, j < k: sum over the 2^k outcomes
 * of P(outcome) (1 - e^{e - L})_+, L = sum of +-eps_j (k <= 16). */
static void delta_enum(mpfr_t d, const double *eps, int k, mpfr_srcptr e)
{
    mpfr_t P, L, t, p, q;
    mpfr_inits2(HP, P, L, t, p, q, (mpfr_ptr)0);
    mpfr_set_zero(d, 1);
    for (unsigned long m = 0; m < (1ul << k); m++) {
        mpfr_set_ui(P, 1, MPFR_RNDN);
        mpfr_set_zero(L, 1);
        for (int j = 0; j < k; j++) {
            mpfr_set_d(t, eps[j], MPFR_RNDN);
            mpfr_exp(q, t, MPFR_RNDN);
            mpfr_add_ui(q, q, 1, MPFR_RNDN);       /* 1 + e^eps */
            if (m >> j & 1) {                      /* +eps_j: probability e^eps/(1 + e^eps) */
                mpfr_exp(p, t, MPFR_RNDN);
                mpfr_div(p, p, q, MPFR_RNDN);
                mpfr_add(L, L, t, MPFR_RNDN);
            } else {
                mpfr_ui_div(p, 1, q, MPFR_RNDN);
                mpfr_sub(L, L, t, MPFR_RNDN);
            }
            mpfr_mul(P, P, p, MPFR_RNDN);
        }
        if (mpfr_cmp(L, e) <= 0) continue;
        mpfr_sub(t, e, L, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_mul(t, t, P, MPFR_RNDN);
        mpfr_sub(d, d, t, MPFR_RNDN);              /* + P (1 - e^{e - L}) */
    }
    mpfr_clears(P, L, t, p, q, (mpfr_ptr)0);
}

/* c = C(k, l) (exact: GMP) */
static void binom(mpfr_t c, unsigned long k, unsigned long l)
{
    mpz_t z;
    mpz_init(z);
    mpz_bin_uiui(z, k, l);
    mpfr_set_z(c, z, MPFR_RNDN);
    mpz_clear(z);
}

/* delta(e) for k releases of RR_eps: sum_l C(k, l) p^(k-l) (1-p)^l
 * (1 - e^{e - (k - 2l) eps})_+. */
static void delta_binom(mpfr_t d, double eps, unsigned long k, mpfr_srcptr e)
{
    mpfr_t c, t, u, L, lp, lq;
    mpfr_inits2(HP, c, t, u, L, lp, lq, (mpfr_ptr)0);
    mpfr_set_d(t, eps, MPFR_RNDN);
    mpfr_exp(u, t, MPFR_RNDN);
    mpfr_log1p(lq, u, MPFR_RNDN);                  /* log(1 + e^eps) */
    mpfr_sub(lp, t, lq, MPFR_RNDN);                /* log p */
    mpfr_neg(lq, lq, MPFR_RNDN);                   /* log(1 - p) */
    mpfr_set_zero(d, 1);
    for (unsigned long l = 0; l <= k; l++) {
        mpfr_set_d(L, eps, MPFR_RNDN);
        mpfr_mul_si(L, L, (long)k - 2 * (long)l, MPFR_RNDN);
        if (mpfr_cmp(L, e) <= 0) break;
        binom(c, k, l);
        mpfr_mul_ui(t, lp, k - l, MPFR_RNDN);
        mpfr_mul_ui(u, lq, l, MPFR_RNDN);
        mpfr_add(t, t, u, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(c, c, t, MPFR_RNDN);
        mpfr_sub(t, e, L, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_mul(t, t, c, MPFR_RNDN);
        mpfr_sub(d, d, t, MPFR_RNDN);
    }
    mpfr_clears(c, t, u, L, lp, lq, (mpfr_ptr)0);
}

/* Kairouz-Oh-Viswanath (2015) Thm 3.3: at e_i = (k - 2i) eps,
 * delta_i = sum_{l < i} C(k, l) (e^{(k-l) eps} - e^{(k-2i+l) eps}) / (1 + e^eps)^k. */
static void delta_kov(mpfr_t d, double eps, unsigned long k, unsigned long i)
{
    mpfr_t c, t, u, x;
    mpfr_inits2(HP, c, t, u, x, (mpfr_ptr)0);
    mpfr_set_d(x, eps, MPFR_RNDN);
    mpfr_set_zero(d, 1);
    for (unsigned long l = 0; l < i; l++) {
        binom(c, k, l);
        mpfr_mul_ui(t, x, k - l, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul_si(u, x, (long)k - 2 * (long)i + (long)l, MPFR_RNDN);
        mpfr_exp(u, u, MPFR_RNDN);
        mpfr_sub(t, t, u, MPFR_RNDN);
        mpfr_mul(t, t, c, MPFR_RNDN);
        mpfr_add(d, d, t, MPFR_RNDN);
    }
    mpfr_exp(t, x, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_pow_ui(t, t, k, MPFR_RNDN);
    mpfr_div(d, d, t, MPFR_RNDN);
    mpfr_clears(c, t, u, x, (mpfr_ptr)0);
}

/* ref at precision prec on eps[0..k-1], delta; fast too; returns ref */
static double both(mpfr_t out, const double *eps, size_t k, double delta, double *fast)
{
    mpfr_t *E = malloc(k * sizeof *E), d;
    for (size_t j = 0; j < k; j++) {
        mpfr_init2(E[j], 53);
        mpfr_set_d(E[j], eps[j], MPFR_RNDN);
    }
    mpfr_init2(d, 53);
    mpfr_set_d(d, delta, MPFR_RNDN);
    ck_assert_int_eq(fr_dp_compose_tight(out, E, k, d), FR_OK);
    ck_assert_int_eq(ff_dp_compose_tight_upper(fast, eps, k, delta), FR_OK);
    for (size_t j = 0; j < k; j++) mpfr_clear(E[j]);
    free(E);
    mpfr_clear(d);
    return mpfr_get_d(out, MPFR_RNDU);
}

START_TEST(kov_closed_form_and_equal_losses)
{
    static const struct { double eps; unsigned long k; } C[] = {{0.25, 20}, {1, 5}, {0.03125, 200}};
    mpfr_t d, dk, e, out;
    mpfr_inits2(HP, d, dk, e, (mpfr_ptr)0);
    mpfr_init2(out, 53);
    for (size_t c = 0; c < sizeof C / sizeof C[0]; c++) {
        /* the binomial sum is Kairouz-Oh-Viswanath's closed form at its points */
        for (unsigned long i = 1; i <= C[c].k / 2; i += 1 + C[c].k / 16) {
            mpfr_set_d(e, C[c].eps, MPFR_RNDN);
            mpfr_mul_si(e, e, (long)C[c].k - 2 * (long)i, MPFR_RNDN);
            delta_binom(d, C[c].eps, C[c].k, e);
            delta_kov(dk, C[c].eps, C[c].k, i);
            mpfr_sub(d, d, dk, MPFR_RNDN);
            mpfr_div(d, d, dk, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp_ui_2exp(d, 1, -200) <= 0, "KOV k %lu i %lu", C[c].k, i);
        }
        double *eps = malloc(C[c].k * sizeof *eps);
        for (unsigned long j = 0; j < C[c].k; j++) eps[j] = C[c].eps;
        static const double D[] = {1e-3, 1e-6, 1e-10};
        for (size_t t = 0; t < 3; t++) {
            double fast, r = both(out, eps, C[c].k, D[t], &fast);
            mpfr_set(e, out, MPFR_RNDN);
            delta_binom(d, C[c].eps, C[c].k, e);
            ck_assert_msg(mpfr_cmp_d(d, D[t]) <= 0, "valid: k %lu eps %g delta %g", C[c].k, C[c].eps, D[t]);
            if (r > 0) {                           /* tight: the grid is exact here */
                mpfr_mul_d(e, e, 1 - 0x1p-40, MPFR_RNDN);
                delta_binom(d, C[c].eps, C[c].k, e);
                ck_assert_msg(mpfr_cmp_d(d, D[t]) > 0, "tight: k %lu eps %g delta %g", C[c].k, C[c].eps, D[t]);
            }
            ck_assert_msg(fast >= r && fast <= r * (1 + 1e-9) + 1e-300, "fast %.17g ref %.17g", fast, r);
            /* no worse than advanced composition */
            mpfr_t *E = malloc(C[c].k * sizeof *E), b, a, dd;
            for (unsigned long j = 0; j < C[c].k; j++) mpfr_init_set_d(E[j], eps[j], MPFR_RNDN);
            mpfr_inits2(53, b, a, dd, (mpfr_ptr)0);
            mpfr_set_d(dd, D[t], MPFR_RNDN);
            ck_assert_int_eq(fr_dp_compose(b, a, E, C[c].k, dd, MPFR_RNDU), FR_OK);
            ck_assert(mpfr_cmp(out, a) <= 0 && mpfr_cmp(out, b) <= 0);
            for (unsigned long j = 0; j < C[c].k; j++) mpfr_clear(E[j]);
            free(E);
            mpfr_clears(b, a, dd, (mpfr_ptr)0);
        }
        free(eps);
    }
    mpfr_clears(d, dk, e, out, (mpfr_ptr)0);
}
END_TEST

/* the least e with delta_enum(e) <= delta, to 2^-60 relative (bisection) */
static void least_enum(mpfr_t lo, const double *eps, int k, double delta)
{
    mpfr_t hi, m, d;
    mpfr_inits2(HP, hi, m, d, (mpfr_ptr)0);
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (int j = 0; j < k; j++) mpfr_add_d(hi, hi, eps[j], MPFR_RNDU);
    delta_enum(d, eps, k, lo);
    if (mpfr_cmp_d(d, delta) > 0)
        for (int it = 0; it < 80; it++) {
            mpfr_add(m, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(m, m, 1, MPFR_RNDN);
            delta_enum(d, eps, k, m);
            if (mpfr_cmp_d(d, delta) > 0) mpfr_set(lo, m, MPFR_RNDN); else mpfr_set(hi, m, MPFR_RNDN);
        }
    mpfr_clears(hi, m, d, (mpfr_ptr)0);
}

START_TEST(unequal_losses_enumerated)
{
    frng_t rng;
    frng_init(&rng, tu_seed(20261202u), 0);
    mpfr_t d, e, least, out;
    mpfr_inits2(HP, d, e, least, (mpfr_ptr)0);
    mpfr_init2(out, 53);
    for (int c = 0; c < tu_effort(6); c++) {
        uint64_t r;
        frng_below(&rng, 8, &r);
        const int k = 3 + (int)r;                  /* 3..10 */
        double eps[10], emin = INFINITY;
        for (int j = 0; j < k; j++) {
            eps[j] = 0.05 + (double)frng_u53(&rng) * 0x1p-53;
            emin = fmin(emin, eps[j]);
        }
        const double delta = c % 2 ? 1e-6 : 1e-3;
        double fast, res = both(out, eps, (size_t)k, delta, &fast);
        mpfr_set(e, out, MPFR_RNDN);
        delta_enum(d, eps, k, e);
        ck_assert_msg(mpfr_cmp_d(d, delta) <= 0, "valid: seed %llu case %d", (unsigned long long)tu_seed(20261202u), c);
        least_enum(least, eps, k, delta);
        ck_assert(mpfr_cmp(out, least) >= 0);
        mpfr_sub(e, out, least, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(e, k * emin / 64) <= 0, "within the grid: %g", mpfr_get_d(e, MPFR_RNDN));
        ck_assert_msg(fast >= res && fast <= res * (1 + 1e-9), "fast %.17g ref %.17g", fast, res);
    }
    mpfr_clears(d, e, least, out, (mpfr_ptr)0);
}
END_TEST

/* The final rounding: at 2..12 bits the result is above the least e. */
START_TEST(output_rounded_up)
{
    const double eps[4] = {0.3, 0.7, 0.45, 1.1};
    mpfr_t least, out;
    mpfr_init2(least, HP);
    least_enum(least, eps, 4, 1e-4);
    for (mpfr_prec_t p = 2; p <= 12; p++) {
        double fast;
        mpfr_init2(out, p);
        both(out, eps, 4, 1e-4, &fast);
        ck_assert_msg(mpfr_cmp(out, least) >= 0, "prec %ld", (long)p);
        mpfr_clear(out);
    }
    mpfr_clear(least);
}
END_TEST

/* An eps_j of more bits than the working precision (output 200 bits, wp
 * 264; eps_1 = 1 + 2^-280 at 300 bits, so the grid 1/64 must count 65
 * steps, not 64) still gives an upper bound.  One release: delta(e) = p (1
 * - e^{e - eps_1}), p = 1/(1 + e^-eps_1); delta is aimed so that the least
 * e is g + 2^-300 for a 200-bit g, as close above a 200-bit number as the
 * input resolves.  (A step count rounded down would lose less than
 * 2^(1-wp), which the outward roundings after it cover here: the mutation
 * script reports that mutant as surviving.) */
START_TEST(input_beyond_working_precision)
{
    mpfr_t e1, g, t, p, delta, out;
    mpfr_init2(e1, 300);
    mpfr_inits2(1000, g, t, p, (mpfr_ptr)0);
    mpfr_init2(delta, 600);
    mpfr_init2(out, 200);
    mpfr_set_ui_2exp(e1, 1, -280, MPFR_RNDN);
    mpfr_add_ui(e1, e1, 1, MPFR_RNDN);            /* exact at 300 bits */
    mpfr_set_d(g, 0.99, MPFR_RNDN);
    mpfr_prec_round(g, 200, MPFR_RNDN);
    mpfr_prec_round(g, 1000, MPFR_RNDN);
    mpfr_set_ui_2exp(t, 1, -300, MPFR_RNDN);
    mpfr_add(g, g, t, MPFR_RNDN);                 /* the least e aimed at */
    mpfr_neg(t, e1, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_ui_div(p, 1, t, MPFR_RNDN);
    mpfr_sub(t, g, e1, MPFR_RNDN);
    mpfr_expm1(t, t, MPFR_RNDN);
    mpfr_mul(t, t, p, MPFR_RNDN);
    mpfr_neg(delta, t, MPFR_RNDN);                /* p (1 - e^{g - eps_1}) at 600 bits */
    mpfr_t *ej = &e1;
    ck_assert_int_eq(fr_dp_compose_tight(out, ej, 1, delta), FR_OK);
    /* the least e for the delta as rounded: eps_1 + log(1 - delta / p) */
    mpfr_div(t, delta, p, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_log1p(t, t, MPFR_RNDN);
    mpfr_add(t, t, e1, MPFR_RNDN);
    ck_assert_msg(mpfr_cmp(out, t) >= 0, "%.20g below the least e %.20g", mpfr_get_d(out, MPFR_RNDN),
                  mpfr_get_d(t, MPFR_RNDN));
    mpfr_clears(e1, g, t, p, delta, out, (mpfr_ptr)0);
}
END_TEST

/* delta far below every mass: the least e is just below the basic sum,
 * eps_1 + ln(1 - delta/p) (one release, p = 1/(1 + e^-eps_1)), and the
 * result is the basic sum rounded up (never rounded down below it) */
START_TEST(basic_sum_cap)
{
    static const double E[] = {1, 0.3, 2.5, 0x1.8p-3, 7};
    mpfr_t e, p, t, out;
    mpfr_inits2(HP, e, p, t, (mpfr_ptr)0);
    mpfr_init2(out, 53);
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++) {
        const double delta = 1e-300;
        mpfr_set_d(e, -E[i], MPFR_RNDN);
        mpfr_exp(p, e, MPFR_RNDN);
        mpfr_add_ui(p, p, 1, MPFR_RNDN);
        mpfr_ui_div(p, 1, p, MPFR_RNDN);
        mpfr_d_div(t, delta, p, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);
        mpfr_add_d(t, t, E[i], MPFR_RNDN);       /* the least e */
        double f;
        ck_assert_int_eq(ff_dp_compose_tight_upper(&f, &E[i], 1, delta), FR_OK);
        ck_assert_msg(mpfr_cmp_d(t, f) <= 0, "fast %a below the least e (eps %a)", f, E[i]);
        mpfr_t *ej = &e;
        mpfr_set_d(e, E[i], MPFR_RNDN);
        mpfr_set_d(p, delta, MPFR_RNDN);
        ck_assert_int_eq(fr_dp_compose_tight(out, ej, 1, p), FR_OK);
        ck_assert_msg(mpfr_cmp(out, t) >= 0, "ref below the least e (eps %a)", E[i]);
    }
    mpfr_clears(e, p, t, out, (mpfr_ptr)0);
}
END_TEST

START_TEST(special_values)
{
    mpfr_t out;
    mpfr_init2(out, 53);
    double fast;
    const double z[3] = {0, 0, 0}, inf[2] = {0.5, INFINITY}, one[1] = {1};
    both(out, z, 3, 1e-5, &fast);
    ck_assert(mpfr_zero_p(out) && mpfr_signbit(out) == 0 && fast == 0 && !signbit(fast));
    both(out, inf, 2, 1e-5, &fast);
    ck_assert(mpfr_inf_p(out) && mpfr_sgn(out) > 0 && fast == INFINITY);
    /* one release: delta(e) = p (1 - e^{e-1}), p = e/(1+e): e = 1 + log(1 - delta (1 + 1/e)) */
    both(out, one, 1, 1e-5, &fast);
    const double want = 1 + log1p(-1e-5 * (1 + exp(-1)));
    ck_assert(fabs(mpfr_get_d(out, MPFR_RNDN) - want) < 1e-14 && fast >= mpfr_get_d(out, MPFR_RNDN));
    mpfr_clear(out);
}
END_TEST

Suite *suite_dp_compose_tight(void)
{
    Suite *s = suite_create("dp_compose_tight");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kov_closed_form_and_equal_losses);
    tcase_add_test(tc, unequal_losses_enumerated);
    tcase_add_test(tc, output_rounded_up);
    tcase_add_test(tc, input_beyond_working_precision);
    tcase_add_test(tc, special_values);
    tcase_add_test(tc, basic_sum_cap);
    suite_add_tcase(s, tc);
    return s;
}
