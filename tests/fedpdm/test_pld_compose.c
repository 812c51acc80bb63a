/* SPDX-License-Identifier: Apache-2.0 */
/* test_pld_compose.c -- white-box: the composition and the cell solve of
 * ref's PLD accountant (ref/fedpdm/pld.h, enclosures.h) keep their
 * directions at working precisions of 2..16 bits, where
 * fr_fedpdm_pld_rounds uses 64 (the error bounds) and 128 and more (the
 * masses): the FFT's a-priori bound c (Higham 2002, Thm 24.2), the bounds
 * of the norms, of the spectra's products and powers, of the composed
 * masses' error, W_inf, and the least eps from the composed masses.  Each
 * against its definition in exact rationals or at HP bits, on few-bit
 * inputs so that a step rounded the wrong way shows. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../ref/fedpdm/enclosures.h"
#include "../../ref/fedpdm/pld.h"

Suite *suite_fedpdm_pld_compose(void);

#define HP 256
#define NDRAW 400

/* a p-bit draw with at most b bits, log-uniform on [lo, hi] */
static void draw(mpfr_t x, frng_t *g, mpfr_prec_t p, double lo, double hi)
{
    mpfr_prec_t b = 1 + (mpfr_prec_t)(frng_u53(g) % (unsigned long)p);
    tu_draw_wbit(x, g, b, lo, hi);
    mpfr_prec_round(x, p, MPFR_RNDN);                  /* exact: b <= p */
}

/* c >= L eta / (1 - L eta), eta = u + gamma_4 (sqrt2 + u), gamma_4 = 4u/(1 - 4u), u = 2^-wp */
START_TEST(fft_bound_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9a01), 0);
    mpfr_t c, u, g, e, t;
    mpfr_init2(c, 2);
    mpfr_inits2(HP, u, g, e, t, (mpfr_ptr)0);
    int n = 0;
    for (int k = 0; k < 4 * NDRAW; k++) {
        const mpfr_prec_t wp = 3 + (mpfr_prec_t)(frng_u53(&rng) % 22), p = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        const unsigned long L = 1 + frng_u53(&rng) % 8;
        mpfr_set_ui_2exp(u, 1, -(long)wp, MPFR_RNDN);
        mpfr_mul_ui(g, u, 4, MPFR_RNDN);
        mpfr_ui_sub(t, 1, g, MPFR_RNDN);
        mpfr_div(g, g, t, MPFR_RNDN);
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_add(t, t, u, MPFR_RNDN);
        mpfr_mul(e, g, t, MPFR_RNDN);
        mpfr_add(e, e, u, MPFR_RNDN);
        mpfr_mul_ui(e, e, L, MPFR_RNDN);
        if (mpfr_cmp_d(e, 0.25) > 0) continue;
        mpfr_ui_sub(t, 1, e, MPFR_RNDN);
        mpfr_div(e, e, t, MPFR_RNDN);
        mpfr_set_prec(c, p);
        fri_fft_bound(c, (size_t)1 << L, wp);
        n++;
        ck_assert_msg(mpfr_greaterequal_p(c, e), "n 2^%lu wp %d p %d: c %.10g below %.17g", L, (int)wp, (int)p,
                      mpfr_get_d(c, MPFR_RNDN), mpfr_get_d(e, MPFR_RNDN));
    }
    ck_assert_int_ge(n, NDRAW);
    mpfr_clears(c, u, g, e, t, (mpfr_ptr)0);
}
END_TEST

/* err_mul: M' >= M M2, E' >= M E2 + (M2 + E2) E + (M + E)(M2 + E2) u4 */
START_TEST(err_mul_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9a02), 0);
    mpfr_t M, E, M2, E2, u4, xm, xe, t;
    mpfr_inits2(2, M, E, M2, E2, u4, (mpfr_ptr)0);
    mpfr_inits2(HP, xm, xe, t, (mpfr_ptr)0);
    for (int k = 0; k < 2 * NDRAW; k++) {
        const mpfr_prec_t p = 2 + (mpfr_prec_t)(frng_u53(&rng) % 11);
        draw(M, &rng, p, 0.1, 4);
        draw(E, &rng, p, 1e-3, 1);
        draw(M2, &rng, p, 0.1, 4);
        draw(E2, &rng, p, 1e-3, 1);
        draw(u4, &rng, p, 1e-3, 0.5);
        mpfr_mul(xm, M, M2, MPFR_RNDN);                 /* exact at HP */
        mpfr_add(xe, M, E, MPFR_RNDN);
        mpfr_add(t, M2, E2, MPFR_RNDN);
        mpfr_mul(xe, xe, t, MPFR_RNDN);
        mpfr_mul(xe, xe, u4, MPFR_RNDN);
        mpfr_mul(t, t, E, MPFR_RNDN);
        mpfr_add(xe, xe, t, MPFR_RNDN);
        mpfr_mul(t, M, E2, MPFR_RNDN);
        mpfr_add(xe, xe, t, MPFR_RNDN);
        fri_pdm_pld_err_mul(M, E, M2, E2, u4);
        ck_assert_msg(mpfr_greaterequal_p(M, xm) && mpfr_greaterequal_p(E, xe), "p %d: (%.10g, %.10g) below (%.17g, %.17g)",
                      (int)p, mpfr_get_d(M, MPFR_RNDN), mpfr_get_d(E, MPFR_RNDN), mpfr_get_d(xm, MPFR_RNDN),
                      mpfr_get_d(xe, MPFR_RNDN));
    }
    mpfr_clears(M, E, M2, E2, u4, xm, xe, t, (mpfr_ptr)0);
}
END_TEST

#define NX 8

/* norms: M1 >= sum x, X2^2 >= sum x^2; spec_err: E1^2 >= c^2 n X2^2; u4^2 >= 16 n 4^-wp */
START_TEST(norms_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9a03), 0);
    mpfr_t x[NX], M1, X2, E1, cn, s1, s2, t;
    for (int i = 0; i < NX; i++) mpfr_init2(x[i], 2);
    mpfr_inits2(2, M1, X2, E1, cn, (mpfr_ptr)0);
    mpfr_inits2(HP, s1, s2, t, (mpfr_ptr)0);
    for (int k = 0; k < 2 * NDRAW; k++) {
        const mpfr_prec_t p = 2 + (mpfr_prec_t)(frng_u53(&rng) % 11);
        const size_t len = 1 + frng_u53(&rng) % NX;
        mpfr_set_zero(s1, 1);
        mpfr_set_zero(s2, 1);
        for (size_t i = 0; i < len; i++) {
            draw(x[i], &rng, p, 1e-3, 1);
            mpfr_add(s1, s1, x[i], MPFR_RNDN);          /* exact at HP */
            mpfr_sqr(t, x[i], MPFR_RNDN);
            mpfr_add(s2, s2, t, MPFR_RNDN);
        }
        mpfr_set_prec(M1, p);
        mpfr_set_prec(X2, p);
        fri_pdm_pld_norms(M1, X2, x, len);
        mpfr_sqr(t, X2, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(M1, s1) && mpfr_sgn(X2) >= 0 && mpfr_greaterequal_p(t, s2),
                      "p %d len %zu: (%.10g, %.10g) below (%.17g, sqrt %.17g)", (int)p, len, mpfr_get_d(M1, MPFR_RNDN),
                      mpfr_get_d(X2, MPFR_RNDN), mpfr_get_d(s1, MPFR_RNDN), mpfr_get_d(s2, MPFR_RNDN));
        /* spec_err on n = 2^L */
        const unsigned long L = 1 + frng_u53(&rng) % 10;
        draw(cn, &rng, p, 1e-6, 0.1);
        draw(X2, &rng, p, 1e-3, 1);
        mpfr_set_prec(E1, p);
        fri_pdm_pld_spec_err(E1, cn, (size_t)1 << L, X2);
        mpfr_mul(s1, cn, X2, MPFR_RNDN);
        mpfr_sqr(s1, s1, MPFR_RNDN);
        mpfr_mul_2ui(s1, s1, L, MPFR_RNDN);
        mpfr_sqr(t, E1, MPFR_RNDN);
        ck_assert_msg(mpfr_sgn(E1) >= 0 && mpfr_greaterequal_p(t, s1), "p %d n 2^%lu: E1 %.10g below", (int)p, L,
                      mpfr_get_d(E1, MPFR_RNDN));
        /* u4 */
        const mpfr_prec_t wp = 2 + (mpfr_prec_t)(frng_u53(&rng) % 200);
        mpfr_set_prec(E1, p);
        fri_pdm_pld_u4(E1, (size_t)1 << L, wp);
        mpfr_sqr(t, E1, MPFR_RNDN);
        mpfr_mul_2si(t, t, 2 * (long)wp - 4 - (long)L, MPFR_RNDN);   /* u4^2 4^wp / (16 n) */
        ck_assert_msg(mpfr_cmp_ui(t, 1) >= 0, "p %d n 2^%lu wp %d: u4 %.10g below", (int)p, L, (int)wp,
                      mpfr_get_d(E1, MPFR_RNDN));
    }
    for (int i = 0; i < NX; i++) mpfr_clear(x[i]);
    mpfr_clears(M1, X2, E1, cn, s1, s2, t, (mpfr_ptr)0);
}
END_TEST

/* ew: EW >= E/sqrt n + c (M + E/sqrt n); winf: Winf >= 1 - prod (1 - wh_g)^T_g */
START_TEST(ew_winf_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9a04), 0);
    mpfr_t EW, M, E, cn, wh[3], W, s, t;
    mpfr_inits2(2, EW, M, E, cn, W, (mpfr_ptr)0);
    for (int g = 0; g < 3; g++) mpfr_init2(wh[g], 2);
    mpfr_inits2(HP, s, t, (mpfr_ptr)0);
    for (int k = 0; k < 2 * NDRAW; k++) {
        const mpfr_prec_t p = 2 + (mpfr_prec_t)(frng_u53(&rng) % 11);
        const unsigned long L = 1 + frng_u53(&rng) % 10;
        draw(M, &rng, p, 0.1, 4);
        draw(E, &rng, p, 1e-3, 1);
        draw(cn, &rng, p, 1e-3, 0.5);
        mpfr_set_prec(EW, p);
        fri_pdm_pld_ew(EW, M, E, cn, (size_t)1 << L);
        mpfr_sqrt_ui(t, 1ul << L, MPFR_RNDN);
        mpfr_div(t, E, t, MPFR_RNDN);
        mpfr_add(s, M, t, MPFR_RNDN);
        mpfr_mul(s, s, cn, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(EW, s), "p %d n 2^%lu: EW %.10g below %.17g", (int)p, L,
                      mpfr_get_d(EW, MPFR_RNDN), mpfr_get_d(s, MPFR_RNDN));
        const size_t ng = 1 + frng_u53(&rng) % 3;
        unsigned long T[3];
        mpfr_set_ui(s, 1, MPFR_RNDN);
        for (size_t g = 0; g < ng; g++) {
            T[g] = 1 + frng_u53(&rng) % 5;
            draw(wh[g], &rng, p, 1e-3, 0.5);
            mpfr_ui_sub(t, 1, wh[g], MPFR_RNDN);        /* exact at HP */
            mpfr_pow_ui(t, t, T[g], MPFR_RNDN);
            mpfr_mul(s, s, t, MPFR_RNDN);
        }
        mpfr_ui_sub(s, 1, s, MPFR_RNDN);
        mpfr_set_prec(W, p);
        ck_assert_int_eq(fri_pdm_pld_winf(W, wh, T, ng), FR_OK);
        ck_assert_msg(mpfr_greaterequal_p(W, s), "p %d ng %zu: Winf %.10g below %.17g", (int)p, ng,
                      mpfr_get_d(W, MPFR_RNDN), mpfr_get_d(s, MPFR_RNDN));
    }
    for (int g = 0; g < 3; g++) mpfr_clear(wh[g]);
    mpfr_clears(EW, M, E, cn, W, s, t, (mpfr_ptr)0);
}
END_TEST

#define OFFMAX 10

/* D = A_c - e^{(c-1)h} B_c, the profile at the left end of cell c (enclosures.h, fri_pdm_pld_eps_from) */
static void left_profile(mpfr_t D, mpfr_t *w, size_t OFF, mpfr_srcptr EW, mpfr_srcptr Winf, int dir,
                         mpfr_srcptr h, size_t c)
{
    mpfr_t A, B, t, e;
    mpfr_inits2(HP, A, B, t, e, (mpfr_ptr)0);
    mpfr_set(A, Winf, MPFR_RNDN);
    mpfr_set_zero(B, 1);
    for (size_t i = OFF; i >= c; i--) {
        mpfr_add(A, A, w[OFF + i], MPFR_RNDN);
        mpfr_mul_si(e, h, -(long)i, MPFR_RNDN);
        mpfr_exp(t, e, MPFR_RNDN);
        mpfr_mul(t, t, w[OFF + i], MPFR_RNDN);
        mpfr_add(B, B, t, MPFR_RNDN);
    }
    mpfr_sqrt_ui(t, (unsigned long)(OFF - c + 1), MPFR_RNDN);
    mpfr_mul(t, t, EW, MPFR_RNDN);
    if (dir > 0) mpfr_add(A, A, t, MPFR_RNDN);
    else mpfr_sub(A, A, t, MPFR_RNDN);
    mpfr_mul_ui(e, h, (unsigned long)(c - 1), MPFR_RNDN);
    mpfr_exp(t, e, MPFR_RNDN);
    mpfr_mul(t, t, B, MPFR_RNDN);
    mpfr_sub(D, A, t, MPFR_RNDN);
    mpfr_clears(A, B, t, e, (mpfr_ptr)0);
}

/* the exact cell solve (enclosures.h, fri_pdm_pld_eps_from) at HP */
static void eps_exact(mpfr_t r, mpfr_t *w, size_t OFF, mpfr_srcptr EW, mpfr_srcptr Winf, int dir,
                      mpfr_srcptr delta, mpfr_srcptr h)
{
    mpfr_t A, B, Ae, t, e;
    mpfr_inits2(HP, A, B, Ae, t, e, (mpfr_ptr)0);
    mpfr_set(A, Winf, MPFR_RNDN);
    mpfr_set_zero(B, 1);
    size_t i0 = 0;
    if (dir > 0 && mpfr_greater_p(Winf, delta)) {
        mpfr_set_inf(r, 1);
        goto done;
    }
    for (size_t i = OFF; i >= 1 && i0 == 0; i--) {
        mpfr_add(A, A, w[OFF + i], MPFR_RNDN);
        mpfr_sqrt_ui(t, (unsigned long)(OFF - i + 1), MPFR_RNDN);
        mpfr_mul(t, t, EW, MPFR_RNDN);
        if (dir > 0) mpfr_add(Ae, A, t, MPFR_RNDN);
        else mpfr_sub(Ae, A, t, MPFR_RNDN);
        mpfr_mul_si(e, h, -(long)i, MPFR_RNDN);
        mpfr_exp(t, e, MPFR_RNDN);
        mpfr_mul(t, t, w[OFF + i], MPFR_RNDN);
        mpfr_add(B, B, t, MPFR_RNDN);
        mpfr_mul_ui(e, h, (unsigned long)(i - 1), MPFR_RNDN);
        mpfr_exp(t, e, MPFR_RNDN);
        mpfr_mul(t, t, B, MPFR_RNDN);
        mpfr_sub(t, Ae, t, MPFR_RNDN);
        if (mpfr_greater_p(t, delta)) i0 = i;
    }
    if (i0 == 0) {
        mpfr_set_zero(r, 1);
        goto done;
    }
    mpfr_sub(t, Ae, delta, MPFR_RNDN);
    mpfr_mul_ui(e, h, (unsigned long)i0, MPFR_RNDN);
    if (mpfr_sgn(B) > 0 && mpfr_sgn(t) > 0) {
        mpfr_div(t, t, B, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        if (mpfr_greater_p(t, e)) mpfr_set(t, e, MPFR_RNDN);
    } else {
        mpfr_set(t, e, MPFR_RNDN);
    }
    mpfr_mul_ui(e, h, (unsigned long)(i0 - 1), MPFR_RNDN);
    if (mpfr_less_p(t, e)) mpfr_set(t, e, MPFR_RNDN);
    mpfr_set(r, t, MPFR_RNDN);
done:
    mpfr_clears(A, B, Ae, t, e, (mpfr_ptr)0);
}

/* dir > 0: out >= the exact solve; dir < 0: out <= it */
START_TEST(cell_solve)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9a05), 0);
    mpfr_t w[2 * OFFMAX + 1], EW, Winf, delta, h, out, x;
    for (int i = 0; i <= 2 * OFFMAX; i++) mpfr_init2(w[i], 2);
    mpfr_inits2(2, EW, Winf, delta, h, (mpfr_ptr)0);
    mpfr_init2(out, 64);
    mpfr_init2(x, HP);
    int nin = 0;
    for (int k = 0; k < 6 * NDRAW; k++) {
        const mpfr_prec_t wp = 2 + (mpfr_prec_t)(frng_u53(&rng) % 11);
        const unsigned long omax = (1ul << wp) - 1 < OFFMAX ? (1ul << wp) - 1 : OFFMAX;
        const size_t OFF = 1 + frng_u53(&rng) % omax;  /* i h exact at wp bits */
        const int dir = k % 2 ? 1 : -1;
        for (size_t i = 0; i <= 2 * OFF; i++) {
            if (i <= OFF || frng_u53(&rng) % 8 == 0) {
                mpfr_set_prec(w[i], wp);
                mpfr_set_zero(w[i], 1);
            } else {
                draw(w[i], &rng, wp, 1e-3, 0.3);
                if (frng_u53(&rng) % 6 == 0) mpfr_div_2ui(w[i], w[i], 6, MPFR_RNDN), mpfr_neg(w[i], w[i], MPFR_RNDN);
            }
        }
        draw(EW, &rng, wp, 1e-4, 1e-2);
        if (k % 3 == 0) mpfr_set_zero(EW, 1);
        draw(Winf, &rng, wp, 1e-4, 1e-2);
        if (dir < 0 || k % 5 == 0) mpfr_set_zero(Winf, 1);
        if (k % 8 >= 6) {                               /* A exact: no error term, W_inf 0, few-bit masses */
            mpfr_set_zero(EW, 1);
            mpfr_set_zero(Winf, 1);
            for (size_t i = OFF + 1; i <= 2 * OFF; i++)
                if (mpfr_sgn(w[i]) < 0 || (i < 2 * OFF && frng_u53(&rng) % 2)) mpfr_set_zero(w[i], 1);
                else mpfr_prec_round(w[i], 2, MPFR_RNDN), mpfr_prec_round(w[i], wp, MPFR_RNDN);
        }
        draw(delta, &rng, wp, 1e-3, 0.2);
        mpfr_set_ui_2exp(h, 1, -(long)(frng_u53(&rng) % 4), MPFR_RNDN);
        if (k % 4 >= 2) {                               /* delta just on the far side of a cell's left end */
            left_profile(x, w, OFF, EW, Winf, dir, h, 1 + frng_u53(&rng) % OFF);
            if (mpfr_sgn(x) > 0) {
                mpfr_set_prec(delta, 64);
                mpfr_set_ui_2exp(delta, 1, -(long)(wp + frng_u53(&rng) % 12), MPFR_RNDN);
                mpfr_mul(delta, delta, x, MPFR_RNDN);
                if (dir > 0) mpfr_sub(delta, x, delta, MPFR_RNDD);
                else mpfr_add(delta, x, delta, MPFR_RNDU);
            }
        }
        fri_pdm_pld_eps_from(out, w, OFF, EW, Winf, dir, delta, h, wp);
        eps_exact(x, w, OFF, EW, Winf, dir, delta, h);
        nin += mpfr_sgn(x) > 0 && mpfr_number_p(x);

        ck_assert_msg(dir > 0 ? mpfr_greaterequal_p(out, x) : mpfr_lessequal_p(out, x),
                      "draw %d (wp %d OFF %zu dir %d): eps %.17g vs exact %.17g", k, (int)wp, OFF, dir,
                      mpfr_get_d(out, MPFR_RNDN), mpfr_get_d(x, MPFR_RNDN));
    }
    ck_assert_int_ge(nin, NDRAW);                      /* not vacuous: most solves inside the grid */
    /* a tie, profile = delta exactly (no mass, W_inf = delta): not above it, 0 */
    for (size_t i = 0; i <= 2 * 4; i++) mpfr_set_zero(w[i], 1);
    mpfr_set_zero(EW, 1);
    mpfr_set_ui_2exp(delta, 1, -4, MPFR_RNDN);
    mpfr_set(Winf, delta, MPFR_RNDN);
    mpfr_set_ui(h, 1, MPFR_RNDN);
    fri_pdm_pld_eps_from(out, w, 4, EW, delta, -1, delta, h, 8);
    ck_assert_msg(mpfr_zero_p(out), "lower eps at a tie %.17g, not 0", mpfr_get_d(out, MPFR_RNDN));
    for (int i = 0; i <= 2 * OFFMAX; i++) mpfr_clear(w[i]);
    mpfr_clears(EW, Winf, delta, h, out, x, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_pld_compose(void)
{
    Suite *s = suite_create("fedpdm_pld_compose");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fft_bound_up);
    tcase_add_test(tc, err_mul_up);
    tcase_add_test(tc, norms_up);
    tcase_add_test(tc, ew_winf_up);
    tcase_add_test(tc, cell_solve);
    suite_add_tcase(s, tc);
    return s;
}
