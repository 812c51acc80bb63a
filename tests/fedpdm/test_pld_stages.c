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
            mpfr_set_prec(lo, w - c % 2);               /* outputs of w or w - 1 bits */
            mpfr_set_prec(hi, w - c % 2);
            fri_pdm_pld_h_encl(lo, hi, e, s, sg, K, N, w);
            mpfr_div(mu, s, sg, MPFR_RNDN);
            mpfr_set_ui(q, K, MPFR_RNDN);
            mpfr_div_ui(q, q, N, MPFR_RNDN);
            tu_pld_H_hp(H, e, mu, q);
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
                tu_pld_H_hp(Hx[i], e, mu, q);
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

static double u01(frng_t *g)
{
    return (double)frng_u53(g) * 0x1p-53;
}

/* a draw with at most b bits (b random in 1..p) at precision p, log-uniform on [lo, hi] */
static void draw_b(mpfr_t x, frng_t *g, mpfr_prec_t p, double lo, double hi)
{
    tu_draw_wbit(x, g, 1 + (mpfr_prec_t)(frng_u53(g) % (unsigned long)p), lo, hi);
    mpfr_prec_round(x, p, MPFR_RNDN);                  /* exact */
}

#define NW 300

/* ctx: alo sigma <= s <= ahi sigma, qlo N <= K' <= qhi N, plo N <= N - K' <= phi N (K' = K, or N when K = N) */
START_TEST(ctx_enclosed)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d3), 0);
    mpfr_t v[6], s, sg, t;
    for (int k = 0; k < 6; k++) mpfr_init2(v[k], 64);
    mpfr_inits2(53, s, sg, (mpfr_ptr)0);
    mpfr_init2(t, HP);
    for (int k = 0; k < NW; k++) {
        const mpfr_prec_t w = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        const unsigned long N = 2 + frng_u53(&rng) % 999, K = k % 4 ? 1 + frng_u53(&rng) % (N - 1) : N;
        tu_draw_wbit(s, &rng, 53, 0.1, 4);
        tu_draw_wbit(sg, &rng, 53, 0.2, 8);
        fri_pdm_pld_ctx(v, s, sg, K, N, w);
        int ok = 1;
        mpfr_mul(t, v[0], sg, MPFR_RNDN);               /* exact at HP */
        ok &= mpfr_lessequal_p(t, s);
        mpfr_mul(t, v[1], sg, MPFR_RNDN);
        ok &= mpfr_greaterequal_p(t, s);
        mpfr_mul_ui(t, v[2], N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, K) <= 0;
        mpfr_mul_ui(t, v[3], N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, K) >= 0;
        mpfr_mul_ui(t, v[4], N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, N - K) <= 0 && mpfr_sgn(v[4]) >= 0;
        mpfr_mul_ui(t, v[5], N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, N - K) >= 0;
        ck_assert_msg(ok, "w %d K %lu N %lu: an end on the wrong side", (int)w, K, N);
    }
    for (int k = 0; k < 6; k++) mpfr_clear(v[k]);
    mpfr_clears(s, sg, t, (mpfr_ptr)0);
}
END_TEST

/* h_args: x around log1p((t - 1)/q), cc around 1 - p t, y around log(q t / (1 - p t)), q = K/N, p = 1 - q */
START_TEST(h_args_enclosed)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d4), 0);
    mpfr_t v[6], tl, th, q, p, t, u, c;
    for (int k = 0; k < 6; k++) mpfr_init2(v[k], 64);
    mpfr_inits2(2, tl, th, (mpfr_ptr)0);
    mpfr_inits2(HP, q, p, t, u, c, (mpfr_ptr)0);
    int n2 = 0;
    for (int k = 0; k < 4 * NW; k++) {
        const mpfr_prec_t w = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        /* half the draws with N a power of two: q exact, the divisions by it too */
        const unsigned long N = k % 4 < 2 ? 2 + frng_u53(&rng) % 199 : 2ul << frng_u53(&rng) % 7,
                            K = 1 + frng_u53(&rng) % (N - 1);
        draw_b(tl, &rng, 3 * w, 1, k % 2 ? 2 : 64);
        mpfr_set_prec(th, 3 * w);
        if (k % 3) draw_b(th, &rng, 3 * w, 1, 1.25);
        else mpfr_set_ui(th, 1, MPFR_RNDN);
        mpfr_mul(th, th, tl, MPFR_RNDU);               /* th >= tl */
        mpfr_set_ui(q, K, MPFR_RNDN);
        mpfr_div_ui(q, q, N, MPFR_RNDN);
        mpfr_ui_sub(p, 1, q, MPFR_RNDN);
        const int kind = fri_pdm_pld_h_args(v, tl, th, K, N, w);
        int ok = 1;
        for (int e = 0; e < 2; e++) {                   /* e = 0: at tl, lower ends; 1: at th, upper */
            mpfr_srcptr x = e ? th : tl;
            mpfr_sub_ui(t, x, 1, MPFR_RNDN);
            mpfr_div(t, t, q, MPFR_RNDN);
            mpfr_log1p(t, t, MPFR_RNDN);
            ok &= e ? mpfr_greaterequal_p(v[1], t) : mpfr_lessequal_p(v[0], t);
            mpfr_mul_ui(c, x, N - K, MPFR_RNDN);        /* N (1 - p x), exact */
            mpfr_ui_sub(c, N, c, MPFR_RNDN);
            mpfr_mul_ui(u, v[e ? 2 : 3], N, MPFR_RNDN);
            ok &= e ? mpfr_lessequal_p(u, c) : mpfr_greaterequal_p(u, c);
            if (kind == 2) {
                mpfr_mul_ui(t, x, K, MPFR_RNDN);
                mpfr_div(t, t, c, MPFR_RNDN);
                mpfr_log(t, t, MPFR_RNDN);
                ok &= e ? mpfr_greaterequal_p(v[5], t) : mpfr_lessequal_p(v[4], t);
            }
        }
        n2 += kind == 2;
        ck_assert_msg(ok, "w %d K %lu N %lu t [%.17g, %.17g] kind %d: an end on the wrong side", (int)w, K, N,
                      mpfr_get_d(tl, MPFR_RNDN), mpfr_get_d(th, MPFR_RNDN), kind);
    }
    ck_assert_int_ge(n2, NW);
    for (int k = 0; k < 6; k++) mpfr_clear(v[k]);
    mpfr_clears(tl, th, q, p, t, u, c, (mpfr_ptr)0);
}
END_TEST

/* h_join: lo <= max(q da_lo, b_lo), hi >= max(q da_hi, b_hi): b = 0, [0, cc_hi], cc db by kind */
START_TEST(h_join_enclosed)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d5), 0);
    mpfr_t in[6], out[2], a, b;
    for (int k = 0; k < 6; k++) mpfr_init2(in[k], 2);
    mpfr_inits2(64, out[0], out[1], (mpfr_ptr)0);
    mpfr_inits2(HP, a, b, (mpfr_ptr)0);
    for (int k = 0; k < NW; k++) {
        const mpfr_prec_t w = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        const unsigned long N = 2 + frng_u53(&rng) % 199, K = 1 + frng_u53(&rng) % (N - 1);
        const int kind = k % 3;
        for (int j = 0; j < 3; j++) {
            draw_b(in[2 * j], &rng, 2 * w, 1e-3, 1);
            draw_b(in[2 * j + 1], &rng, 2 * w, 1, 1.5);
            mpfr_mul(in[2 * j + 1], in[2 * j + 1], in[2 * j], MPFR_RNDU);
        }
        if (kind == 0) mpfr_neg(in[5], in[5], MPFR_RNDN), mpfr_neg(in[4], in[4], MPFR_RNDN), mpfr_swap(in[4], in[5]);
        if (kind == 1) mpfr_neg(in[4], in[4], MPFR_RNDN);
        fri_pdm_pld_h_join(out, in, kind, K, N, w);
        int ok = 1;
        for (int e = 0; e < 2; e++) {                   /* N max(q da, b), exact */
            mpfr_mul_ui(a, in[e], K, MPFR_RNDN);
            mpfr_set_zero(b, 1);
            if (kind == 1 && e) mpfr_set(b, in[5], MPFR_RNDN);
            if (kind == 2) mpfr_mul(b, in[2 + e], in[4 + e], MPFR_RNDN);
            mpfr_mul_ui(b, b, N, MPFR_RNDN);
            mpfr_max(a, a, b, MPFR_RNDN);
            mpfr_mul_ui(b, out[e], N, MPFR_RNDN);
            ok &= e ? mpfr_greaterequal_p(b, a) : mpfr_lessequal_p(b, a);
        }
        ck_assert_msg(ok, "w %d K %lu N %lu kind %d: [%.17g, %.17g] on the wrong side", (int)w, K, N, kind,
                      mpfr_get_d(out[0], MPFR_RNDN), mpfr_get_d(out[1], MPFR_RNDN));
    }
    for (int k = 0; k < 6; k++) mpfr_clear(in[k]);
    mpfr_clears(out[0], out[1], a, b, (mpfr_ptr)0);
}
END_TEST

#define MC 8

/* grid: alo[i] <= e^{ih} <= ahi[i]; chord: on exact point enclosures of a
 * convex decreasing H (built from increasing slopes), every mass >= the
 * chord's own, the atom at infinity enclosed, the atom at 0 >= its own */
START_TEST(grid_chord_masses)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d6), 0);
    mpfr_t x[2 * MC + 1], alo[MC + 1], ahi[MC + 1], Hv[MC + 1], a[MC + 1], sl[MC + 2], wh, wl, h, t, u, sum, r;
    for (int i = 0; i <= 2 * MC; i++) mpfr_init2(x[i], 64);
    for (int i = 0; i <= MC; i++) mpfr_inits2(HP, alo[i], ahi[i], Hv[i], a[i], (mpfr_ptr)0);
    for (int i = 0; i <= MC + 1; i++) mpfr_init2(sl[i], HP);
    mpfr_inits2(64, wh, wl, (mpfr_ptr)0);
    mpfr_inits2(HP, h, t, u, sum, r, (mpfr_ptr)0);
    int nok = 0;
    for (int k = 0; k < 2 * NW; k++) {
        const mpfr_prec_t w = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        const unsigned long mm = (1ul << w) - 1 < MC ? (1ul << w) - 1 : MC, m = 1 + frng_u53(&rng) % mm;
        mpfr_set_ui_2exp(h, 1, -(long)(frng_u53(&rng) % 5), MPFR_RNDN);
        fri_pdm_pld_grid(alo, ahi, m, h, w);
        for (unsigned long i = 0; i <= m; i++) {
            mpfr_mul_ui(t, h, i, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            ck_assert_msg(mpfr_lessequal_p(alo[i], t) && mpfr_greaterequal_p(ahi[i], t), "w %d: a_%lu not enclosed",
                          (int)w, i);
        }
        /* a_i = a_{i-1} + d_i, slopes -u_i with u_i = u_{i+1} + v_i; H_{i-1} = H_i + u_i d_i.
         * Odd draws (w >= 6): d_i and u_i of w/2 bits (u_i on a fixed grid or
         * growing by 10 % and more), so that the differences and slopes are exact
         * at w bits and only the last steps round */
        const int ex = k % 2 && w >= 6;
        const long hb = ex ? 1l << (w / 2) : 0;
        mpfr_set_ui(a[0], 1, MPFR_RNDN);
        for (unsigned long i = 1; i <= m; i++) {
            if (ex) mpfr_set_ui_2exp(r, 1 + frng_u53(&rng) % (unsigned long)(hb - 1), -(long)(w / 2) - 2, MPFR_RNDN);
            else draw_b(r, &rng, 2 * w, 0.05, 0.3);
            mpfr_add(a[i], a[i - 1], r, MPFR_RNDN);    /* exact at HP */
        }
        mpfr_set_zero(sl[m + 1], 1);
        const unsigned long step = hb / (long)(m + 1) > 1 ? (unsigned long)(hb / (long)(m + 1)) : 1;
        long ku = 0;
        for (unsigned long i = m; i >= 1; i--) {
            if (ex && k % 4 == 1) {                     /* u_i = k_i 2^-(w/2 + 6), k_i increasing */
                ku += 1 + (long)(frng_u53(&rng) % step);
                mpfr_set_si_2exp(sl[i], -ku, -(long)(w / 2) - 6, MPFR_RNDN);
                continue;
            }
            if (ex) {                                   /* u_i of w/2 bits, u_i >= 1.1 u_{i+1} */
                if (i == m) draw_b(r, &rng, w / 2, 1e-3, 2e-3);
                else mpfr_mul_d(r, sl[i + 1], -(1.1 + u01(&rng)), MPFR_RNDN);
                mpfr_prec_round(r, w / 2, MPFR_RNDU);
                mpfr_neg(sl[i], r, MPFR_RNDN);
                continue;
            }
            draw_b(r, &rng, 2 * w, 1e-3, 1e-2);
            mpfr_sub(sl[i], sl[i + 1], r, MPFR_RNDN);
        }
        draw_b(r, &rng, 2 * w, 1e-4, 1e-2);
        mpfr_set(Hv[m], r, MPFR_RNDN);
        for (unsigned long i = m; i >= 1; i--) {
            mpfr_sub(t, a[i], a[i - 1], MPFR_RNDN);
            mpfr_mul(t, t, sl[i], MPFR_RNDN);
            mpfr_sub(Hv[i - 1], Hv[i], t, MPFR_RNDN);
        }
        for (unsigned long i = 0; i <= 2 * m; i++) mpfr_set_prec(x[i], ex ? w : 64);
        const int st = fri_pdm_pld_chord(x, wh, wl, Hv, Hv, a, a, m, w);
        if (st == FR_EINTERNAL) continue;
        ck_assert_int_eq(st, FR_OK);
        nok++;
        mpfr_set_zero(sum, 1);
        int ok = mpfr_greaterequal_p(wh, Hv[m]) && mpfr_lessequal_p(wl, Hv[m]);
        for (unsigned long i = 1; i <= m; i++) {
            mpfr_sub(t, sl[i + 1], sl[i], MPFR_RNDN);   /* Delta_i, exact */
            ok &= mpfr_greaterequal_p(x[m - i], t);
            mpfr_add(sum, sum, t, MPFR_RNDN);
            mpfr_mul(t, t, a[i], MPFR_RNDN);
            ok &= mpfr_greaterequal_p(x[m + i], t);
            mpfr_add(sum, sum, t, MPFR_RNDN);
        }
        mpfr_add(sum, sum, Hv[m], MPFR_RNDN);
        mpfr_ui_sub(u, 1, sum, MPFR_RNDN);
        ok &= mpfr_greaterequal_p(x[m], u);
        ck_assert_msg(ok, "w %d m %lu: a mass below the chord's", (int)w, m);
    }
    ck_assert_int_ge(nok, NW);
    /* m = 2 on a = 1, 2, 4, slopes -u_1 < -u_2 of w bits, u_2 a few ulps of u_1 - u_2: all
     * but Delta_1 = u_1 - u_2 and the sum's steps exact, the atom at 0 given 64 bits */
    for (int k = 0; k < NW; k++) {
        const mpfr_prec_t w = 4 + (mpfr_prec_t)(frng_u53(&rng) % 13);
        for (int i = 0; i <= 2; i++) mpfr_set_ui_2exp(a[i], 1, i, MPFR_RNDN);
        draw_b(r, &rng, w, 0.02, 0.05);                 /* u_1 */
        mpfr_neg(sl[1], r, MPFR_RNDN);
        mpfr_set_ui_2exp(t, 1 + frng_u53(&rng) % 7, mpfr_get_exp(r) - (long)w - (long)(frng_u53(&rng) % 6), MPFR_RNDN);
        mpfr_neg(sl[2], t, MPFR_RNDN);                  /* -u_2 */
        mpfr_set_zero(sl[3], 1);
        mpfr_set_ui_2exp(Hv[2], 1, -12, MPFR_RNDN);
        mpfr_mul_2ui(u, t, 1, MPFR_RNDN);
        mpfr_add(Hv[1], Hv[2], u, MPFR_RNDN);          /* H_1 = H_2 + 2 u_2 */
        mpfr_add(Hv[0], Hv[1], r, MPFR_RNDN);          /* H_0 = H_1 + u_1 */
        for (int i = 0; i <= 4; i++) mpfr_set_prec(x[i], 64);
        ck_assert_int_eq(fri_pdm_pld_chord(x, wh, wl, Hv, Hv, a, a, 2, w), FR_OK);
        mpfr_sub(u, sl[2], sl[1], MPFR_RNDN);           /* Delta_1 */
        mpfr_mul_2ui(sum, u, 1, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(x[1], u) && mpfr_greaterequal_p(x[3], sum) && mpfr_greaterequal_p(x[0], t),
                      "w %d: a mass below the chord's", (int)w);
        mpfr_mul_ui(u, u, 3, MPFR_RNDN);
        mpfr_mul_ui(sum, t, 5, MPFR_RNDN);              /* (1 + a_2) Delta_2 */
        mpfr_add(sum, sum, u, MPFR_RNDN);
        mpfr_add(sum, sum, Hv[2], MPFR_RNDN);
        mpfr_ui_sub(u, 1, sum, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(x[2], u), "w %d: w_0 %.17g below %.17g", (int)w, mpfr_get_d(x[2], MPFR_RNDN),
                      mpfr_get_d(u, MPFR_RNDN));
    }
    for (int i = 0; i <= 2 * MC; i++) mpfr_clear(x[i]);
    for (int i = 0; i <= MC; i++) mpfr_clears(alo[i], ahi[i], Hv[i], a[i], (mpfr_ptr)0);
    for (int i = 0; i <= MC + 1; i++) mpfr_clear(sl[i]);
    mpfr_clears(wh, wl, h, t, u, sum, r, (mpfr_ptr)0);
}
END_TEST

/* phi: r >= Phi(x) (dir > 0), r <= Phi(x) (dir < 0), r given more bits than wp;
 * cell_mass: 0 <= x <= a - b (1 - b, a at the top) on 3w-bit a, b */
START_TEST(phi_cell_mass)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x91d7), 0);
    mpfr_t r, xv, P, a, b, m, t;
    mpfr_inits2(64, r, (mpfr_ptr)0);
    mpfr_inits2(2, xv, a, b, m, (mpfr_ptr)0);
    mpfr_inits2(HP, P, t, (mpfr_ptr)0);
    for (int k = 0; k < 4 * NW; k++) {
        const mpfr_prec_t w = 2 + (mpfr_prec_t)(frng_u53(&rng) % 15);
        const int dir = k % 2 ? 1 : -1;
        draw_b(xv, &rng, 2 * w, 1e-2, 6);
        if (k % 3 == 0) mpfr_neg(xv, xv, MPFR_RNDN);
        if (k % 29 == 0) mpfr_set_inf(xv, -1);
        fri_pdm_pld_phi(r, xv, dir, w);
        tu_phi_hp(P, xv);
        ck_assert_msg(dir > 0 ? mpfr_greaterequal_p(r, P) : mpfr_lessequal_p(r, P),
                      "w %d dir %d x %.17g: Phi bound %.17g vs %.17g", (int)w, dir, mpfr_get_d(xv, MPFR_RNDN),
                      mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(P, MPFR_RNDN));
        const int top = k % 5 == 0, order = 1 + (k / 2) % 2;
        draw_b(a, &rng, 3 * w, 0.05, 1);
        draw_b(b, &rng, 3 * w, 0.01, 1);
        mpfr_set_prec(m, w);
        fri_pdm_pld_cell_mass(m, a, b, top, order);
        if (!top) mpfr_sub(t, a, b, MPFR_RNDN);         /* exact at HP */
        else if (order == 1) mpfr_ui_sub(t, 1, b, MPFR_RNDN);
        else mpfr_set(t, a, MPFR_RNDN);
        ck_assert_msg(mpfr_sgn(m) >= 0 && (mpfr_zero_p(m) || mpfr_lessequal_p(m, t)),
                      "w %d top %d order %d: mass %.17g above %.17g", (int)w, top, order, mpfr_get_d(m, MPFR_RNDN),
                      mpfr_get_d(t, MPFR_RNDN));
    }
    /* at the underflow edge: Phi(-2^20) > 0 has a positive upper bound; with
     * emin = -100 and x where erfc(-x/sqrt2) = 1.5 2^-101, Phi(x) = 1.5 2^-102
     * underflows and its lower bound is 0 */
    mpfr_set_prec(xv, 64);
    mpfr_set_si_2exp(xv, -1, 20, MPFR_RNDN);
    fri_pdm_pld_phi(r, xv, 1, 16);
    ck_assert_msg(mpfr_sgn(r) > 0, "Phi(-2^20) bounded above by 0");
    mpfr_t lo, hi;
    mpfr_inits2(HP, lo, hi, (mpfr_ptr)0);
    mpfr_set_ui(lo, 10, MPFR_RNDN);
    mpfr_set_ui(hi, 30, MPFR_RNDN);
    for (int k = 0; k < 80; k++) {                      /* Phi(-x) = 1.5 2^-102, bisection */
        mpfr_add(t, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_neg(P, t, MPFR_RNDN);
        tu_phi_hp(P, P);
        mpfr_mul_2ui(P, P, 102, MPFR_RNDN);
        if (mpfr_cmp_d(P, 1.5) > 0) mpfr_set(lo, t, MPFR_RNDN);
        else mpfr_set(hi, t, MPFR_RNDN);
    }
    mpfr_neg(xv, lo, MPFR_RNDN);
    const mpfr_exp_t emin = mpfr_get_emin();
    ck_assert(mpfr_set_emin(-100) == 0);
    fri_pdm_pld_phi(r, xv, -1, 64);
    mpfr_set_emin(emin);
    ck_assert_msg(mpfr_zero_p(r), "Phi lower bound %.6g above Phi = 1.5 2^-102 (emin -100)", mpfr_get_d(r, MPFR_RNDN));
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpfr_clears(r, xv, P, a, b, m, t, (mpfr_ptr)0);
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
    tcase_add_test(tc, ctx_enclosed);
    tcase_add_test(tc, h_args_enclosed);
    tcase_add_test(tc, h_join_enclosed);
    tcase_add_test(tc, grid_chord_masses);
    tcase_add_test(tc, phi_cell_mass);
    suite_add_tcase(s, tc);
    return s;
}
