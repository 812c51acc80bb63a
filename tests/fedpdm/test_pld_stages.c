/* SPDX-License-Identifier: Apache-2.0 */
/* test_pld_stages.c -- white-box: one round's upper and lower loss
 * distributions of ref's PLD accountant (fri_pdm_pld_pmf_upper, _lower:
 * ref/fedpdm/enclosures.h) keep their directions at working precisions far
 * below the library's (w = 8 or 16..WMAX bits, where fr_fedpdm_pld_rounds
 * uses 128 and more): every upper mass is at least the exact mass of the
 * chord of H on the grid and the atom at infinity is enclosed; every lower
 * mass is between 0 and the exact mass of its cell of the realised pair's
 * loss.  At the library's precision a step rounded
 * the wrong way moves a mass by about 2^-128 relative, far inside the
 * outward steps after it; at w bits by about the enclosure's own width, so
 * ci/mutate-privacy.sh runs this suite first.  The oracles at HP bits: H
 * from its definition (Dong, Roth & Su's profile of the pair (A, B), pld.c's
 * header) and the chord masses from it directly; the lower masses from the
 * thresholds x(g) and the law F of the loss, directly. */
#include <check.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../ref/fedpdm/enclosures.h"
#include "delta_hp.h"

Suite *suite_fedpdm_pld_stages(void);

#define HP 192
#define WMAX 64
#define NCASE 8
#define MMAX 40

/* H(e) = max(q dG(log(1 + (e^e - 1)/q)), (1 - p e^e) dG(log(q e^e / (1 - p e^e)))), p = 1 - q
 * (the second 0 when p e^e >= 1); q = 1: dG(e); dG = delta_hp.h's delta with a = mu */
static void H_exact(mpfr_t r, mpfr_srcptr e, mpfr_srcptr mu, mpfr_srcptr q)
{
    if (mpfr_cmp_ui(q, 1) == 0) {
        tu_delta_hp(r, NULL, e, mu, HP);
        return;
    }
    mpfr_t t, x, p, c, b;
    mpfr_inits2(HP, t, x, p, c, b, (mpfr_ptr)0);
    mpfr_exp(t, e, MPFR_RNDN);
    mpfr_sub_ui(x, t, 1, MPFR_RNDN);
    mpfr_div(x, x, q, MPFR_RNDN);
    mpfr_log1p(x, x, MPFR_RNDN);
    tu_delta_hp(r, NULL, x, mu, HP);
    mpfr_mul(r, r, q, MPFR_RNDN);
    mpfr_ui_sub(p, 1, q, MPFR_RNDN);
    mpfr_mul(c, p, t, MPFR_RNDN);
    mpfr_ui_sub(c, 1, c, MPFR_RNDN);
    if (mpfr_sgn(c) > 0) {
        mpfr_mul(x, q, t, MPFR_RNDN);
        mpfr_div(x, x, c, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        tu_delta_hp(b, NULL, x, mu, HP);
        mpfr_mul(b, b, c, MPFR_RNDN);
        mpfr_max(r, r, b, MPFR_RNDN);
    }
    mpfr_clears(t, x, p, c, b, (mpfr_ptr)0);
}

/* v >= t - 2^-(HP-40) max(|t|, 1) (t's own error at HP bits is far smaller) */
static int above(mpfr_srcptr v, mpfr_srcptr t)
{
    mpfr_t s;
    mpfr_init2(s, HP);
    mpfr_set_ui_2exp(s, 1, -(HP - 40), MPFR_RNDN);
    mpfr_sub(s, t, s, MPFR_RNDN);
    int ok = mpfr_greaterequal_p(v, s);
    mpfr_clear(s);
    return ok;
}

/* v <= t + 2^-(HP-40) */
static int below(mpfr_srcptr v, mpfr_srcptr t)
{
    mpfr_t s;
    mpfr_init2(s, HP);
    mpfr_set_ui_2exp(s, 1, -(HP - 40), MPFR_RNDN);
    mpfr_add(s, t, s, MPFR_RNDN);
    int ok = mpfr_lessequal_p(v, s);
    mpfr_clear(s);
    return ok;
}

#define NH 40

/* H's enclosure: lo <= H(e) <= hi at w = 4..WMAX bits on w-bit e */
START_TEST(profile_enclosed)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d2), 0);
    mpfr_t lo, hi, e, s, sg, mu, q, H;
    mpfr_inits2(53, lo, hi, e, s, sg, (mpfr_ptr)0);
    mpfr_inits2(HP, mu, q, H, (mpfr_ptr)0);
    for (mpfr_prec_t w = 4; w <= WMAX; w += 2)
        for (int c = 0; c < NH; c++) {
            unsigned long N = 2 + frng_u53(&rng) % 19, K = c % 2 ? N : 1 + frng_u53(&rng) % (N - 1);
            tu_draw_wbit(s, &rng, w, 0.5, 2);
            tu_draw_wbit(sg, &rng, w, 0.4, 4);
            if (c % 8 == 7) mpfr_set_zero(e, 1);
            else tu_draw_wbit(e, &rng, w, 1e-3, 8);
            mpfr_set_prec(lo, w);
            mpfr_set_prec(hi, w);
            fri_pdm_pld_h_encl(lo, hi, e, s, sg, K, N, w);
            mpfr_div(mu, s, sg, MPFR_RNDN);
            mpfr_set_ui(q, K, MPFR_RNDN);
            mpfr_div_ui(q, q, N, MPFR_RNDN);
            H_exact(H, e, mu, q);
            ck_assert_msg(below(lo, H) && above(hi, H), "w %d case %d (K %lu N %lu e %.6g): [%.10g, %.10g] misses %.17g",
                          (int)w, c, K, N, mpfr_get_d(e, MPFR_RNDN), mpfr_get_d(lo, MPFR_RNDN),
                          mpfr_get_d(hi, MPFR_RNDN), mpfr_get_d(H, MPFR_RNDN));
            /* not vacuous: at 40 bits and more the enclosure is narrow */
            ck_assert_msg(w < 40 || mpfr_get_d(hi, MPFR_RNDU) - mpfr_get_d(lo, MPFR_RNDD) <= 1e-6,
                          "w %d case %d: width %.3g", (int)w, c, mpfr_get_d(hi, MPFR_RNDU) - mpfr_get_d(lo, MPFR_RNDD));
        }
    mpfr_clears(lo, hi, e, s, sg, mu, q, H, (mpfr_ptr)0);
}
END_TEST

START_TEST(pmf_upper_masses)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d0), 0);
    mpfr_t x[2 * MMAX + 1], Hx[MMAX + 2], a[MMAX + 1], sl[MMAX + 2], wih, wil, s, sg, h, mu, q, e, t, u, sum;
    for (int i = 0; i < 2 * MMAX + 1; i++) mpfr_init2(x[i], 53);
    for (int i = 0; i <= MMAX + 1; i++) mpfr_inits2(HP, Hx[i], sl[i], (mpfr_ptr)0);
    for (int i = 0; i <= MMAX; i++) mpfr_init2(a[i], HP);
    mpfr_inits2(53, wih, wil, s, sg, h, (mpfr_ptr)0);
    mpfr_inits2(HP, mu, q, e, t, u, sum, (mpfr_ptr)0);
    int ncase = 0, nfinite = 0;
    for (mpfr_prec_t w = 16; w <= WMAX; w += 4)
        for (int c = 0; c < NCASE; c++) {
            unsigned long N = 2 + frng_u53(&rng) % 19, K = c % 2 ? N : 1 + frng_u53(&rng) % (N - 1);
            unsigned long m = 8 + frng_u53(&rng) % (MMAX - 7);
            tu_draw_wbit(s, &rng, 53, 0.5, 2);
            tu_draw_wbit(sg, &rng, 53, 0.4, 4);
            mpfr_set_ui_2exp(h, 1, -(long)(3 + frng_u53(&rng) % 4), MPFR_RNDN);   /* 1/8 .. 1/64 */
            for (unsigned long i = 0; i <= 2 * m; i++) mpfr_set_prec(x[i], w);
            mpfr_set_prec(wih, w);
            mpfr_set_prec(wil, w);
            int st = fri_pdm_pld_pmf_upper(x, wih, wil, m, s, sg, K, N, h, w);
            ncase++;
            if (st == FR_EINTERNAL) continue;          /* x[m] certified negative: the caller's error */
            ck_assert_int_eq(st, FR_OK);
            int fin = 1;
            for (unsigned long i = 0; i <= 2 * m; i++) fin &= mpfr_number_p(x[i]) != 0;
            nfinite += fin;
            /* the chord of H at HP */
            mpfr_div(mu, s, sg, MPFR_RNDN);
            mpfr_set_ui(q, K, MPFR_RNDN);
            mpfr_div_ui(q, q, N, MPFR_RNDN);
            for (unsigned long i = 0; i <= m; i++) {
                mpfr_mul_ui(e, h, i, MPFR_RNDN);
                H_exact(Hx[i], e, mu, q);
                mpfr_exp(a[i], e, MPFR_RNDN);
            }
            for (unsigned long i = 1; i <= m; i++) {    /* s_i on [a_{i-1}, a_i] */
                mpfr_sub(t, Hx[i], Hx[i - 1], MPFR_RNDN);
                mpfr_sub(u, a[i], a[i - 1], MPFR_RNDN);
                mpfr_div(sl[i], t, u, MPFR_RNDN);
            }
            mpfr_set_zero(sl[m + 1], 1);
            mpfr_set_zero(sum, 1);
            for (unsigned long i = 1; i <= m; i++) {
                mpfr_sub(t, sl[i + 1], sl[i], MPFR_RNDN);    /* Delta_i */
                ck_assert_msg(above(x[m - i], t), "w %d case %d (K %lu N %lu m %lu): w_-%lu %.10g below %.17g",
                              (int)w, c, K, N, m, i, mpfr_get_d(x[m - i], MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
                mpfr_add(sum, sum, t, MPFR_RNDN);
                mpfr_mul(t, t, a[i], MPFR_RNDN);
                ck_assert_msg(above(x[m + i], t), "w %d case %d (K %lu N %lu m %lu): w_%lu %.10g below %.17g",
                              (int)w, c, K, N, m, i, mpfr_get_d(x[m + i], MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
                mpfr_add(sum, sum, t, MPFR_RNDN);
            }
            ck_assert_msg(above(wih, Hx[m]) && mpfr_lessequal_p(wil, Hx[m]), "w %d case %d: H(e_m) not enclosed",
                          (int)w, c);
            mpfr_add(sum, sum, Hx[m], MPFR_RNDN);
            mpfr_ui_sub(t, 1, sum, MPFR_RNDN);               /* w_0 */
            ck_assert_msg(above(x[m], t), "w %d case %d: w_0 %.10g below %.17g", (int)w, c,
                          mpfr_get_d(x[m], MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
        }
    /* not vacuous: most cases give finite masses (an infinite slope bound,
     * where the grid's a_i are not yet separated at w bits, gives +Inf) */
    ck_assert_msg(2 * nfinite >= ncase, "%d of %d cases with finite masses", nfinite, ncase);
    for (int i = 0; i < 2 * MMAX + 1; i++) mpfr_clear(x[i]);
    for (int i = 0; i <= MMAX + 1; i++) mpfr_clears(Hx[i], sl[i], (mpfr_ptr)0);
    for (int i = 0; i <= MMAX; i++) mpfr_clear(a[i]);
    mpfr_clears(wih, wil, s, sg, h, mu, q, e, t, u, sum, (mpfr_ptr)0);
}
END_TEST

/* x(g) = (log((e^g - p)/q) + a^2/2)/a, -Inf where e^g <= p (q = 1: (g + a^2/2)/a) */
static void thresh_exact(mpfr_t r, mpfr_srcptr g, mpfr_srcptr a, mpfr_srcptr q)
{
    mpfr_t t, p;
    mpfr_inits2(HP, t, p, (mpfr_ptr)0);
    mpfr_ui_sub(p, 1, q, MPFR_RNDN);
    mpfr_exp(t, g, MPFR_RNDN);
    mpfr_sub(t, t, p, MPFR_RNDN);
    if (mpfr_sgn(t) <= 0) {
        mpfr_set_inf(r, -1);
    } else {
        mpfr_div(t, t, q, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_sqr(p, a, MPFR_RNDN);
        mpfr_div_2ui(p, p, 1, MPFR_RNDN);
        mpfr_add(t, t, p, MPFR_RNDN);
        mpfr_div(r, t, a, MPFR_RNDN);
    }
    mpfr_clears(t, p, (mpfr_ptr)0);
}

/* order 1: F(x) = p Phi(x) + q Phi(x - a); order 2: Phi(x) */
static void cdf_exact(mpfr_t r, mpfr_srcptr x, int order, mpfr_srcptr a, mpfr_srcptr q)
{
    mpfr_t u, v;
    mpfr_inits2(HP, u, v, (mpfr_ptr)0);
    tu_phi_hp(u, x);
    if (order == 1) {
        mpfr_ui_sub(v, 1, q, MPFR_RNDN);
        mpfr_mul(u, u, v, MPFR_RNDN);
        mpfr_sub(v, x, a, MPFR_RNDN);
        tu_phi_hp(v, v);
        mpfr_mul(v, v, q, MPFR_RNDN);
        mpfr_add(u, u, v, MPFR_RNDN);
    }
    mpfr_set(r, u, MPFR_RNDN);
    mpfr_clears(u, v, (mpfr_ptr)0);
}

START_TEST(pmf_lower_masses)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d1), 0);
    mpfr_t x[2 * MMAX + 1], Fv[2 * MMAX + 2], s, sg, h, a, q, g, t;
    for (int i = 0; i < 2 * MMAX + 1; i++) mpfr_init2(x[i], 53);
    for (int i = 0; i < 2 * MMAX + 2; i++) mpfr_init2(Fv[i], HP);
    mpfr_inits2(53, s, sg, h, (mpfr_ptr)0);
    mpfr_inits2(HP, a, q, g, t, (mpfr_ptr)0);
    int ncase = 0, nmass = 0;
    for (mpfr_prec_t w = 8; w <= WMAX; w += 4)
        for (int c = 0; c < NCASE; c++) {
            unsigned long N = 2 + frng_u53(&rng) % 19, K = c % 2 ? N : 1 + frng_u53(&rng) % (N - 1);
            unsigned long m = 8 + frng_u53(&rng) % (MMAX - 7);
            int order = 1 + (c / 2) % 2;
            tu_draw_wbit(s, &rng, 53, 0.5, 2);
            tu_draw_wbit(sg, &rng, 53, 0.4, 4);
            mpfr_set_ui_2exp(h, 1, -(long)(3 + frng_u53(&rng) % 4), MPFR_RNDN);
            for (unsigned long i = 0; i <= 2 * m; i++) mpfr_set_prec(x[i], w);
            fri_pdm_pld_pmf_lower(x, m, order, s, sg, K, N, h, w);
            double tot = 0;
            for (unsigned long i = 0; i <= 2 * m; i++) tot += mpfr_get_d(x[i], MPFR_RNDN);
            ncase++;
            nmass += tot >= 0.5;
            mpfr_div(a, s, sg, MPFR_RNDN);
            mpfr_set_ui(q, K, MPFR_RNDN);
            mpfr_div_ui(q, q, N, MPFR_RNDN);
            /* Fv[m + j] = F(x(g_j)) (order 1) or Phi(x(-g_j)) (order 2), j = -m..m */
            for (long j = -(long)m; j <= (long)m; j++) {
                mpfr_mul_si(g, h, order == 1 ? j : -j, MPFR_RNDN);
                thresh_exact(t, g, a, q);
                cdf_exact(Fv[m + j], t, order, a, q);
            }
            for (long j = -(long)m; j <= (long)m; j++) {
                if (j == (long)m) {
                    if (order == 1) mpfr_ui_sub(t, 1, Fv[2 * m], MPFR_RNDN);
                    else mpfr_set(t, Fv[2 * m], MPFR_RNDN);
                } else if (order == 1) {
                    mpfr_sub(t, Fv[m + j + 1], Fv[m + j], MPFR_RNDN);
                } else {
                    mpfr_sub(t, Fv[m + j], Fv[m + j + 1], MPFR_RNDN);
                }
                ck_assert_msg(mpfr_sgn(x[m + j]) >= 0 && below(x[m + j], t),
                              "w %d case %d (order %d, K %lu N %lu m %lu): mass at %ld h %.10g above %.17g", (int)w,
                              c, order, K, N, m, j, mpfr_get_d(x[m + j], MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
            }
        }
    /* not vacuous: most cases keep at least half the mass */
    ck_assert_msg(2 * nmass >= ncase, "%d of %d cases with mass >= 0.5", nmass, ncase);
    for (int i = 0; i < 2 * MMAX + 1; i++) mpfr_clear(x[i]);
    for (int i = 0; i < 2 * MMAX + 2; i++) mpfr_clear(Fv[i]);
    mpfr_clears(s, sg, h, a, q, g, t, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_pld_stages(void)
{
    Suite *s = suite_create("fedpdm_pld_stages");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, profile_enclosed);
    tcase_add_test(tc, pmf_upper_masses);
    tcase_add_test(tc, pmf_lower_masses);
    suite_add_tcase(s, tc);
    return s;
}
