/* SPDX-License-Identifier: Apache-2.0 */
/* test_enclosures.c -- white-box: the enclosures of the Gaussian privacy
 * profile that ref's calibration (gauss.c) and accountant (acct.c) decide
 * on, and that of the classical variance (5) (ref/fedpdm/enclosures.h),
 * contain the true value at every working precision w = 2..WMAX, on
 * inputs that are themselves w-bit numbers.
 *
 * At the precisions the public functions use (p + 32 bits and more, then
 * Ziv doubling) one step rounded the wrong way moves an end by about
 * 2^-(p+32): a decision is then wrong only when delta lies in that sliver,
 * so no output-level test sees it.  At w bits it moves the end by 2^-w
 * relative, of the order of the enclosure's own width, and on a few hundred
 * inputs per precision some end falls on the wrong side of the true value
 * (ci/mutate-privacy.sh flips each direction and runs this suite).
 *
 * The true value: delta(eps) = Phi(a/2 - eps/a) - e^eps Phi(-a/2 - eps/a),
 * a = s/sigma, and the Mills ratio R(z) = Phi(-z)/phi(z), each by MPFR's
 * erfc and exp at HP bits to nearest (relative error below 2^-(HP-8) of the
 * larger term; the slack allowed is 2^-(HP-16) of it, far below the 2^-30
 * resolution of the enclosures checked). */
#include <check.h>
#include "fedref.h"
#include "../test_util.h"
#include "delta_hp.h"
#include "../../ref/fedpdm/enclosures.h"

Suite *suite_fedpdm_enclosures(void);

#define HP 96
#define WMAX 30
#define NCASE 80
/* cases at precision w: many at the lowest precisions, where a rounding
 * moves an end by up to half its value */
#define NCASES(w) ((w) <= 6 ? 8 * NCASE : NCASE / 2)

static frng_t rng;

/* eps (w bits) for a = s/sigma, by regime (case i mod 5): 0 anywhere; 1
 * the cancellation a/2 ~ eps/a in the first argument a/2 - eps/a, where
 * an ulp of eps/a is many ulps of the difference; 2 and 3 a small delta
 * (first argument -t, t in [1, 6], in Phi's tail, where an ulp of the
 * argument is 2 t^2 ulps of Phi), 3 with a large a (the callers draw it),
 * where the first term dominates and the lower end is not clamped to 0;
 * 4 moderate. */
static void draw_eps(mpfr_t e, frng_t *g, mpfr_prec_t w, int i, double a)
{
    double u = (double)frng_u53(g) * 0x1p-53, v;
    switch (i % 5) {
    case 0: tu_draw_wbit(e, g, w, 0.01, 20); return;
    case 1: v = a * a / 2 * (0.9 + 0.2 * u); break;
    case 2: case 3: v = a * a / 2 + a * (1 + 5 * u); break;
    default: v = 0.1 + 5 * u; break;
    }
    mpfr_set_prec(e, w);
    mpfr_set_d(e, v, MPFR_RNDN);
}

/* D = delta(e) at a (HP + 32 bits, delta_hp.h), slack = 2^-(HP-16) times
 * its first term */
static void delta_hp(mpfr_t D, mpfr_t slack, const mpfr_t e, const mpfr_t a)
{
    tu_delta_hp(D, slack, e, a, HP + 32);
    mpfr_div_2ui(slack, slack, HP - 16, MPFR_RNDU);
}

/* lo <= D + slack and hi >= D - slack */
static void contains(const mpfr_t lo, const mpfr_t hi, const mpfr_t D, const mpfr_t slack,
                     const char *what, mpfr_prec_t w, int i)
{
    mpfr_t t;
    mpfr_init2(t, HP + 32);
    mpfr_add(t, D, slack, MPFR_RNDU);
    ck_assert_msg(mpfr_lessequal_p(lo, t), "%s w %d case %d: lower end %.10g above the true %.17g",
                  what, (int)w, i, mpfr_get_d(lo, MPFR_RNDN), mpfr_get_d(D, MPFR_RNDN));
    mpfr_sub(t, D, slack, MPFR_RNDD);
    ck_assert_msg(mpfr_greaterequal_p(hi, t), "%s w %d case %d: upper end %.10g below the true %.17g",
                  what, (int)w, i, mpfr_get_d(hi, MPFR_RNDN), mpfr_get_d(D, MPFR_RNDN));
    mpfr_clear(t);
}

/* gauss.c's enclosure of (5): 2 s^2 ln(1.25/delta) / eps^2 */
START_TEST(sigma2)
{
    frng_init(&rng, tu_seed(0xe4c1), 3);
    mpfr_t e, d, s, vL, vU, V, t, sl;
    mpfr_inits2(HP, e, d, s, vL, vU, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, V, t, sl, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NCASES(w); i++) {
            tu_draw_wbit(e, &rng, w, 0.01, 20);
            tu_draw_wbit(d, &rng, w, 1e-12, 0.9);
            tu_draw_wbit(s, &rng, w, 0.1, 4);
            if (i % 3 == 1)                 /* s a power of 2: s^2 exact */
                mpfr_set_ui_2exp(s, 1, (long)(frng_u53(&rng) % 3) - 1, MPFR_RNDN);
            if (i % 3 == 2)                 /* eps a power of 2: eps^2 exact */
                mpfr_set_ui_2exp(e, 1, (long)(frng_u53(&rng) % 5) - 2, MPFR_RNDN);
            fri_pdm_sigma2_encl(vL, vU, e, d, s, w);
            mpfr_ui_div(V, 5, d, MPFR_RNDN);
            mpfr_div_2ui(V, V, 2, MPFR_RNDN);
            mpfr_log(V, V, MPFR_RNDN);
            mpfr_sqr(t, s, MPFR_RNDN);
            mpfr_mul(V, V, t, MPFR_RNDN);
            mpfr_sqr(t, e, MPFR_RNDN);
            mpfr_div(V, V, t, MPFR_RNDN);
            mpfr_mul_2ui(V, V, 1, MPFR_RNDN);
            mpfr_div_2ui(sl, V, HP - 16, MPFR_RNDU);
            contains(vL, vU, V, sl, "sigma2", w, i);
        }
    mpfr_clears(e, d, s, vL, vU, V, t, sl, (mpfr_ptr)0);
}
END_TEST

/* gauss.c's enclosure of delta_eps(sigma) */
START_TEST(delta_sigma)
{
    frng_init(&rng, tu_seed(0xe4c1), 0);
    mpfr_t e, s, sg, lo, hi, a, D, sl;
    mpfr_inits2(HP, e, s, sg, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, a, D, sl, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NCASES(w); i++) {
            tu_draw_wbit(s, &rng, w, i % 5 == 3 ? 1 : 0.1, 4);
            tu_draw_wbit(sg, &rng, w, 0.05, i % 5 == 3 ? 0.4 : 40);
            /* s or sigma (or both) a power of 2: fewer inexact steps, whose
             * safe-side errors would hide the one rounded the wrong way */
            if (i % 10 == 3)
                mpfr_set_ui_2exp(sg, 1, -(long)(frng_u53(&rng) % 4), MPFR_RNDN);
            if (i % 10 == 8 || i % 20 == 13)
                mpfr_set_ui_2exp(s, 1, (long)(frng_u53(&rng) % 3), MPFR_RNDN);
            draw_eps(e, &rng, w, i, mpfr_get_d(s, MPFR_RNDN) / mpfr_get_d(sg, MPFR_RNDN));
            mpfr_set_prec(lo, w);
            mpfr_set_prec(hi, w);
            fri_pdm_delta_sigma_encl(lo, hi, e, s, sg, w);
            mpfr_div(a, s, sg, MPFR_RNDN);
            delta_hp(D, sl, e, a);
            contains(lo, hi, D, sl, "delta_sigma", w, i);
        }
    mpfr_clears(e, s, sg, lo, hi, a, D, sl, (mpfr_ptr)0);
}
END_TEST

/* The stages of gauss.c's enclosure, each against its exact value: there
 * every rounding shows, where in the whole enclosure one step turned the
 * wrong way hides behind the slack of the steps after it.  XP bits hold
 * every product and difference of the <= 2 * 64 + 8-bit numbers met here
 * exactly (the ternary values are checked). */
#define XP 1024
#define SWMAX 64

/* r = x y exactly (XP bits) */
static void xmul(mpfr_t r, const mpfr_t x, const mpfr_t y)
{
    ck_assert_int_eq(mpfr_mul(r, x, y, MPFR_RNDN), 0);
}

/* fri_pdm_gauss_args: with D = 2 s sigma > 0, A - B = (s^2 - 2 eps sigma^2)
 * / D and -(A + B) = -(s^2 + 2 eps sigma^2) / D, so aL <= A - B iff aL D <=
 * s^2 - 2 eps sigma^2, all exact.  Inputs by case: free; sigma = s 2^k (A
 * exact, B formed by two roundings that must not cancel); s and sigma powers
 * of 2 (A and B exact: only the final sums round); s = m 2^i and sigma = m
 * 2^j (m odd). Outputs at w bits (the sums round) or 2w + 8 (exact: the
 * bounds of A and B show alone). */
START_TEST(gauss_args)
{
    frng_init(&rng, tu_seed(0xe4c1), 4);
    mpfr_t e, s, sg, aL, aU, bL, bU, D, N, M, t;
    mpfr_inits2(SWMAX, e, s, sg, (mpfr_ptr)0);
    mpfr_inits2(2 * SWMAX + 8, aL, aU, bL, bU, (mpfr_ptr)0);
    mpfr_inits2(XP, D, N, M, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= SWMAX; w++)
        for (int i = 0; i < 160; i++) {
            tu_draw_wbit(s, &rng, w, 0.05, 40);
            tu_draw_wbit(sg, &rng, w, 0.05, 40);
            tu_draw_wbit(e, &rng, w, 0.01, 1000);
            const long k = (long)(frng_u53(&rng) % 7) - 3;
            switch (i % 4) {
            case 1: mpfr_mul_2si(sg, s, k, MPFR_RNDN); break;
            case 2:
                mpfr_set_ui_2exp(s, 1, k, MPFR_RNDN);
                mpfr_set_ui_2exp(sg, 1, (long)(frng_u53(&rng) % 7) - 3, MPFR_RNDN);
                break;
            case 3:
                mpfr_set_ui(s, (unsigned long)(2 * (frng_u53(&rng) % (w < 8 ? 1UL << (w - 1) : 128)) + 1), MPFR_RNDN);
                mpfr_mul_2si(sg, s, k, MPFR_RNDN);
                mpfr_mul_2si(s, s, (long)(frng_u53(&rng) % 5) - 2, MPFR_RNDN);
                break;
            default: break;
            }
            const mpfr_prec_t po = i % 8 < 4 ? w : 2 * w + 8;
            mpfr_set_prec(aL, po), mpfr_set_prec(aU, po), mpfr_set_prec(bL, po), mpfr_set_prec(bU, po);
            fri_pdm_gauss_args(aL, aU, bL, bU, e, s, sg, w);
            xmul(D, s, sg);
            mpfr_mul_2ui(D, D, 1, MPFR_RNDN);               /* 2 s sigma */
            xmul(N, s, s);                                  /* s^2 */
            xmul(M, sg, sg);
            xmul(M, M, e);
            mpfr_mul_2ui(M, M, 1, MPFR_RNDN);               /* 2 eps sigma^2 */
            mpfr_srcptr end[4] = {aL, aU, bL, bU};
            for (int j = 0; j < 4; j++) {
                ck_assert_int_eq((j < 2 ? mpfr_sub : mpfr_add)(t, N, M, MPFR_RNDN), 0);
                if (j >= 2) mpfr_neg(t, t, MPFR_RNDN);      /* numerator of A - B or -(A + B) */
                mpfr_t v;
                mpfr_init2(v, XP);
                xmul(v, end[j], D);
                const int c = mpfr_cmp(v, t);
                ck_assert_msg(j % 2 ? c >= 0 : c <= 0, "gauss_args w %d case %d: %s end %s %.17g on the wrong side",
                              (int)w, i, j % 2 ? "upper" : "lower", j < 2 ? "of A - B" : "of -(A + B)",
                              mpfr_get_d(end[j], MPFR_RNDN));
                mpfr_clear(v);
            }
        }
    mpfr_clears(e, s, sg, aL, aU, bL, bU, D, N, M, t, (mpfr_ptr)0);
}
END_TEST

/* fri_pdm_phi_diff: r on its side of p - E q (exact at XP bits), clamped
 * to [0, 1]; a third of the cases with p near E q, where the difference is
 * formed exactly and the rounding of E q alone decides the side. */
START_TEST(phi_diff)
{
    frng_init(&rng, tu_seed(0xe4c1), 5);
    mpfr_t p, q, E, r, x, t;
    mpfr_inits2(SWMAX, p, q, E, r, (mpfr_ptr)0);
    mpfr_inits2(XP, x, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= SWMAX; w++)
        for (int i = 0; i < 240; i++) {
            tu_draw_wbit(q, &rng, w, 1e-6, 0.5);
            tu_draw_wbit(E, &rng, w, 1, 1e6);
            tu_draw_wbit(p, &rng, w, 1e-6, 1);
            xmul(x, q, E);
            if (i % 3 == 0) {                               /* p within a few ulps of E q */
                mpfr_set(p, x, MPFR_RNDN);
                for (int k = 0; k < (int)(frng_u53(&rng) % 4); k++) mpfr_nextabove(p);
            }
            ck_assert_int_eq(mpfr_sub(x, p, x, MPFR_RNDN), 0);     /* p - E q exactly */
            for (int up = 0; up <= 1; up++) {
                mpfr_set_prec(r, w);
                fri_pdm_phi_diff(r, p, q, E, up);
                if (up) {
                    mpfr_set(t, x, MPFR_RNDN);
                    if (mpfr_cmp_ui(t, 1) > 0) mpfr_set_ui(t, 1, MPFR_RNDN);
                    ck_assert_msg(mpfr_cmp(r, t) >= 0, "phi_diff w %d case %d: upper %.17g below %.17g", (int)w, i,
                                  mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
                } else {
                    mpfr_set(t, x, MPFR_RNDN);
                    if (mpfr_sgn(t) < 0) mpfr_set_zero(t, 1);
                    ck_assert_msg(mpfr_cmp(r, t) <= 0, "phi_diff w %d case %d: lower %.17g above %.17g", (int)w, i,
                                  mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
                }
            }
        }
    mpfr_clears(p, q, E, r, x, t, (mpfr_ptr)0);
}
END_TEST

/* fri_pdm_phi_dir where erfc lands in the lowest binade of the exponent
 * range: the emin is narrowed to the exponent of erfc(z) (z as the stage
 * forms it), so that erfc(z) is a normal number and its halving underflows:
 * the lower bound must round to 0, the upper to the least positive number,
 * against Phi(x) at HP bits in the full range. */
START_TEST(phi_underflow)
{
    const mpfr_exp_t emin = mpfr_get_emin();
    mpfr_t x, r2L, r2U, z, f, rl, ru, P;
    mpfr_inits2(SWMAX, x, r2L, r2U, z, f, rl, ru, (mpfr_ptr)0);
    mpfr_init2(P, HP);
    int hit = 0;
    for (mpfr_prec_t w = 8; w <= SWMAX; w += 4)
        for (int k = 0; k < 4; k++) {
            mpfr_set_prec(x, w), mpfr_set_prec(r2L, w), mpfr_set_prec(r2U, w);
            mpfr_set_prec(z, w), mpfr_set_prec(f, w), mpfr_set_prec(rl, w), mpfr_set_prec(ru, w);
            mpfr_set_si(x, -20 - 7 * k, MPFR_RNDN);
            mpfr_sqrt_ui(r2L, 2, MPFR_RNDD);
            mpfr_sqrt_ui(r2U, 2, MPFR_RNDU);
            mpfr_neg(z, x, MPFR_RNDN);
            mpfr_div(z, z, r2L, MPFR_RNDU);
            mpfr_erfc(f, z, MPFR_RNDD);
            tu_phi_hp(P, x);
            ck_assert_int_eq(mpfr_set_emin(mpfr_get_exp(f)), 0);
            fri_pdm_phi_dir(rl, x, 0, r2L, r2U);
            fri_pdm_phi_dir(ru, x, 1, r2L, r2U);
            mpfr_set_emin(emin);
            hit += mpfr_zero_p(rl);
            ck_assert_msg(mpfr_cmp(rl, P) <= 0, "phi_dir w %d x %d: lower %a above Phi", (int)w, -20 - 7 * k,
                          mpfr_get_d(rl, MPFR_RNDN));
            ck_assert_msg(mpfr_cmp(ru, P) >= 0 && mpfr_sgn(ru) > 0, "phi_dir w %d x %d: upper below Phi", (int)w,
                          -20 - 7 * k);
        }
    ck_assert_msg(hit > 0, "no case underflowed to 0");
    mpfr_clears(x, r2L, r2U, z, f, rl, ru, P, (mpfr_ptr)0);
}
END_TEST

/* fr_gauss_dp_check's FAILS is certified: with delta equal to the lower end
 * of the first enclosure it computes (precision p + 32), delta_eps > delta
 * (at HP bits) and the verdict is FAILS with a margin whose upper end is < 0;
 * a verdict taken from lo >= delta would leave 0 there. */
START_TEST(dp_check_tie)
{
    mpfr_t e, s, sg, lo, hi, mlo, mhi, a, D;
    mpfr_inits2(53, e, s, sg, mlo, mhi, (mpfr_ptr)0);
    mpfr_inits2(53 + 32, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, a, D, (mpfr_ptr)0);
    const double cases[][3] = {{1, 1, 1}, {0.5, 1, 3}, {4, 2, 0.75}};  /* eps, s, sigma */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mpfr_set_d(e, cases[k][0], MPFR_RNDN);
        mpfr_set_d(s, cases[k][1], MPFR_RNDN);
        mpfr_set_d(sg, cases[k][2], MPFR_RNDN);
        fri_pdm_delta_sigma_encl(lo, hi, e, s, sg, 53 + 32);
        mpfr_div(a, s, sg, MPFR_RNDN);
        tu_delta_hp(D, NULL, e, a, HP + 32);
        ck_assert_msg(mpfr_cmp(D, lo) > 0, "case %d: delta_eps not above the lower end", (int)k);
        int v = -1;
        ck_assert_int_eq(fr_gauss_dp_check(&v, mlo, mhi, e, lo, s, sg), FR_OK);
        ck_assert_int_eq(v, FR_GAUSS_FAILS);
        ck_assert_msg(mpfr_sgn(mhi) < 0, "case %d: FAILS with margin [%g, %g]", (int)k,
                      mpfr_get_d(mlo, MPFR_RNDN), mpfr_get_d(mhi, MPFR_RNDN));
    }
    mpfr_clears(e, s, sg, lo, hi, mlo, mhi, a, D, (mpfr_ptr)0);
}
END_TEST

/* acct.c's enclosure of delta(eps) over a in [alo, ahi]: delta increases
 * with a, so it must hold delta(alo) from above ... delta(ahi) from below;
 * a fifth of the cases take the Mills branch (a/2 + eps/a >= 256). */
START_TEST(delta_eps)
{
    frng_init(&rng, tu_seed(0xe4c1), 1);
    mpfr_t e, alo, ahi, r2lo, r2hi, dl, du, D, sl;
    mpfr_inits2(HP, e, alo, ahi, r2lo, r2hi, dl, du, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, D, sl, (mpfr_ptr)0);
    int mills = 0;
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NCASES(w); i++) {
            if (i % 5 == 4) {                          /* the Mills branch */
                tu_draw_wbit(e, &rng, w, 600, 3000);
                tu_draw_wbit(alo, &rng, w, 0.05, 2);
            } else {
                tu_draw_wbit(alo, &rng, w, i % 5 == 3 ? 4 : 0.05, i % 5 == 3 ? 60 : 8);
                draw_eps(e, &rng, w, i, mpfr_get_d(alo, MPFR_RNDN));
            }
            mpfr_set_prec(ahi, w);
            mpfr_set(ahi, alo, MPFR_RNDN);
            if (i % 2)
                for (int k = 0; k < 1 + i % 5; k++) mpfr_nextabove(ahi);
            mpfr_set_prec(r2lo, w);
            mpfr_set_prec(r2hi, w);
            mpfr_set_ui(r2lo, 2, MPFR_RNDN);
            mpfr_rec_sqrt(r2lo, r2lo, MPFR_RNDD);
            mpfr_set_ui(r2hi, 2, MPFR_RNDN);
            mpfr_rec_sqrt(r2hi, r2hi, MPFR_RNDU);
            mpfr_set_prec(dl, w);
            mpfr_set_prec(du, w);
            fri_pdm_delta_eps_encl(dl, du, e, alo, ahi, r2lo, r2hi, w);
            mpfr_div(D, e, alo, MPFR_RNDN);
            mills += mpfr_cmp_ui(D, 256) >= 0;
            delta_hp(D, sl, e, alo);
            contains(dl, du, D, sl, "delta_eps at alo", w, i);
            delta_hp(D, sl, e, ahi);
            contains(dl, du, D, sl, "delta_eps at ahi", w, i);
        }
    ck_assert_msg(mills >= (WMAX - 1) * NCASE / 10, "only %d cases took the Mills branch", mills);
    mpfr_clears(e, alo, ahi, r2lo, r2hi, dl, du, D, sl, (mpfr_ptr)0);
}
END_TEST

/* acct.c's enclosure of the Mills ratio over [zl, zu]: both R(zl) and
 * R(zu) inside [rl, ru]; z from 0.5 (the continued fraction's levels damp
 * an error by about (k-1)/z^2 each: small z lets an inner one show). */
START_TEST(mills)
{
    frng_init(&rng, tu_seed(0xe4c1), 2);
    mpfr_t zl, zu, rl, ru, R, t, sl;
    mpfr_inits2(HP, zl, zu, rl, ru, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, R, t, sl, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NCASE / 4; i++) {
            tu_draw_wbit(zl, &rng, w, i % 2 ? 0.5 : 16, i % 2 ? 16 : 4000);
            mpfr_set_prec(zu, w);
            mpfr_set(zu, zl, MPFR_RNDN);
            if (i % 2) mpfr_nextabove(zu);
            mpfr_set_prec(rl, w);
            mpfr_set_prec(ru, w);
            fri_pdm_mills_encl(rl, ru, zl, zu, w);
            for (int end = 0; end < 2; end++) {
                /* R(z) = Phi(-z) sqrt(2 pi) e^{z^2/2} */
                mpfr_neg(t, end ? zl : zu, MPFR_RNDN);
                tu_phi_hp(R, t);
                mpfr_sqr(t, end ? zl : zu, MPFR_RNDN);
                mpfr_div_2ui(t, t, 1, MPFR_RNDN);
                mpfr_exp(t, t, MPFR_RNDN);
                mpfr_mul(R, R, t, MPFR_RNDN);
                mpfr_const_pi(t, MPFR_RNDN);
                mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
                mpfr_sqrt(t, t, MPFR_RNDN);
                mpfr_mul(R, R, t, MPFR_RNDN);
                mpfr_div_2ui(sl, R, HP - 16, MPFR_RNDU);
                contains(rl, ru, R, sl, end ? "mills at zl" : "mills at zu", w, i);
            }
        }
    mpfr_clears(zl, zu, rl, ru, R, t, sl, (mpfr_ptr)0);
}
END_TEST

/* Both terms below MPFR's least positive number (Phi(A - B) about
 * e^-(5e11)): the true delta is positive (Phi(A - B) > e^eps Phi(-A - B)
 * for every finite sigma), so the upper end must be > 0 and the lower end
 * >= 0 (gauss.c clamps) -- the halvings of an underflowed erfc rounded in
 * their direction, not to nearest. */
START_TEST(underflow)
{
    mpfr_t e, s, sg, lo, hi, r2lo, r2hi;
    mpfr_inits2(53, e, s, sg, lo, hi, r2lo, r2hi, (mpfr_ptr)0);
    mpfr_set_ui(e, 1000, MPFR_RNDN);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_ui(sg, 1000, MPFR_RNDN);
    for (mpfr_prec_t w = 2; w <= 64; w += 31) {
        mpfr_set_prec(lo, w);
        mpfr_set_prec(hi, w);
        fri_pdm_delta_sigma_encl(lo, hi, e, s, sg, w);
        ck_assert_msg(mpfr_sgn(hi) > 0 && mpfr_sgn(lo) >= 0, "delta_sigma w %d: [%g, %g]", (int)w,
                      mpfr_get_d(lo, MPFR_RNDN), mpfr_get_d(hi, MPFR_RNDN));
        /* a = s/sigma = 1e-3: eps/a = 1e6 takes the Mills branch */
        mpfr_set_prec(r2lo, w);
        mpfr_set_prec(r2hi, w);
        mpfr_set_ui(r2lo, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2lo, r2lo, MPFR_RNDD);
        mpfr_set_ui(r2hi, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2hi, r2hi, MPFR_RNDU);
        mpfr_div(sg, s, sg, MPFR_RNDD);
        mpfr_set(s, sg, MPFR_RNDN);
        mpfr_nextabove(s);
        fri_pdm_delta_eps_encl(lo, hi, e, sg, s, r2lo, r2hi, w);
        ck_assert_msg(mpfr_sgn(hi) > 0, "delta_eps w %d: upper end %g", (int)w, mpfr_get_d(hi, MPFR_RNDN));
        mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_set_ui(sg, 1000, MPFR_RNDN);
    }
    mpfr_clears(e, s, sg, lo, hi, r2lo, r2hi, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_enclosures(void)
{
    Suite *s = suite_create("fedpdm_enclosures");
    TCase *tc = tcase_create("containment");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sigma2);
    tcase_add_test(tc, delta_sigma);
    tcase_add_test(tc, delta_eps);
    tcase_add_test(tc, mills);
    tcase_add_test(tc, underflow);
    tcase_add_test(tc, gauss_args);
    tcase_add_test(tc, phi_diff);
    tcase_add_test(tc, phi_underflow);
    tcase_add_test(tc, dp_check_tie);
    suite_add_tcase(s, tc);
    return s;
}
