/* SPDX-License-Identifier: Apache-2.0 */
/* test_acct_stages.c -- white-box: the stages of ref's FedPDM accountant
 * (ref/fedpdm/acct.c through ref/fedpdm/enclosures.h) keep their
 * directions at working precisions w = 2..WMAX, where the public functions
 * use the output's precision + 64 (+ 32 for gauss_eps) and more:
 *   mu = s^2/(2 sigma^2) rounded up; one round's RDP of order alpha (plain
 *   and K-of-N subsampled) at given mu and g; the whole RDP accountant
 *   (one sigma, and per-round sigma_t with the first rounds unsampled)
 *   with its conversion to (eps, delta); basic and advanced composition;
 *   the evaluation of Theorem 2; the Mills-ratio enclosure at small z and
 *   the ranges of its argument z and of x1 over an interval of a.
 * Each result must be on its promised side (above, for all of them but the
 * lower end of the Mills ratio) of the exact value, computed here from the
 * definition at HP bits to nearest: the subsampled RDP term by term with
 * e^{j(j-1) mu} by one exp each, the least eps of a Gaussian release by
 * Newton's method on delta(eps) (delta_hp.h), R(z) = Phi(-z)/phi(z).  At
 * w bits one step rounded the wrong way moves a result by about 2^-w
 * relative, of the order of the slack of the steps after it, so that on
 * the w-bit inputs drawn here (where many steps are exact) some result
 * lands on the wrong side; at the library's precisions only an aimed input
 * shows it (test_round_sweep.c).  ci/mutate-privacy.sh runs this suite
 * first for ref/fedpdm/acct.c. */
#include <check.h>
#include <gmp.h>
#include "fedref.h"
#include "fedref/fedpdm.h"
#include "../test_util.h"
#include "delta_hp.h"
#include "rdp_hp.h"
#include "../../ref/fedpdm/enclosures.h"

Suite *suite_fedpdm_acct_stages(void);

#define HP 192
#define WMAX 64

static frng_t rng;

/* got >= x - 2^-(HP-24) |x| (x's own error at HP bits is far smaller) */
static void above(const mpfr_t got, const mpfr_t x, const char *what, mpfr_prec_t w, int i)
{
    mpfr_t t;
    mpfr_init2(t, HP);
    mpfr_abs(t, x, MPFR_RNDN);
    mpfr_div_2ui(t, t, HP - 24, MPFR_RNDU);
    mpfr_sub(t, x, t, MPFR_RNDD);
    ck_assert_msg(mpfr_greaterequal_p(got, t), "%s w %d case %d: %.17g below the exact %.17g", what,
                  (int)w, i, mpfr_get_d(got, MPFR_RNDN), mpfr_get_d(x, MPFR_RNDN));
    mpfr_clear(t);
}

/* got <= x + 2^-(HP-24) |x| */
static void below(const mpfr_t got, const mpfr_t x, const char *what, mpfr_prec_t w, int i)
{
    mpfr_t t;
    mpfr_init2(t, HP);
    mpfr_abs(t, x, MPFR_RNDN);
    mpfr_div_2ui(t, t, HP - 24, MPFR_RNDU);
    mpfr_add(t, x, t, MPFR_RNDU);
    ck_assert_msg(mpfr_lessequal_p(got, t), "%s w %d case %d: %.17g above the exact %.17g", what,
                  (int)w, i, mpfr_get_d(got, MPFR_RNDN), mpfr_get_d(x, MPFR_RNDN));
    mpfr_clear(t);
}

/* ---- the RDP of one round, from its definition ---------------------------- */


/* mu = s^2 / (2 sigma^2) at HP bits */
static void mu_exact(mpfr_t mu, const mpfr_t sigma, const mpfr_t s)
{
    mpfr_t t;
    mpfr_init2(t, HP);
    mpfr_sqr(mu, s, MPFR_RNDN);
    mpfr_sqr(t, sigma, MPFR_RNDN);
    mpfr_div(mu, mu, t, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);
    mpfr_clear(t);
}

/* mu_up: s, sigma w-bit numbers; mu >= s^2/(2 sigma^2), compared exactly
 * (2 sigma^2 mu and s^2 are exact at 4 WMAX bits).  Then at the bottom of
 * the exponent range, where the halving is inexact: s^2 = 2^(emin-1) (the
 * least positive number), sigma = 1, mu must stay positive. */
START_TEST(mu_up_dir)
{
    frng_init(&rng, tu_seed(0xacc7), 1);
    mpfr_t s, sg, m, a, b;
    mpfr_inits2(WMAX, s, sg, m, (mpfr_ptr)0);
    mpfr_inits2(4 * WMAX + 8, a, b, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 16; i++) {
            tu_draw_wbit(s, &rng, w, 0.01, 100);
            tu_draw_wbit(sg, &rng, w, 0.01, 100);
            mpfr_set_prec(m, w);
            ck_assert_int_eq(fri_pdm_mu_up(m, sg, s), FR_OK);
            mpfr_sqr(a, sg, MPFR_RNDN);
            mpfr_mul(a, a, m, MPFR_RNDN);
            mpfr_mul_2ui(a, a, 1, MPFR_RNDN);
            mpfr_sqr(b, s, MPFR_RNDN);
            ck_assert_msg(mpfr_greaterequal_p(a, b), "mu_up w %d case %d: %.17g below s^2/(2 sigma^2)",
                          (int)w, i, mpfr_get_d(m, MPFR_RNDN));
        }
    mpfr_set_prec(s, 8);
    mpfr_set_ui_2exp(s, 1, (mpfr_get_emin() - 1) / 2, MPFR_RNDN);
    mpfr_sqr(a, s, MPFR_RNDN);
    if (mpfr_cmp_ui_2exp(a, 1, mpfr_get_emin() - 1) == 0) {     /* emin odd: s^2 exact */
        mpfr_set_ui(sg, 1, MPFR_RNDN);
        for (mpfr_prec_t w = 2; w <= WMAX; w += 7) {
            mpfr_set_prec(m, w);
            ck_assert_int_eq(fri_pdm_mu_up(m, sg, s), FR_OK);
            ck_assert_msg(mpfr_sgn(m) > 0, "mu_up w %d: s^2/2 below the least positive number rounded to 0",
                          (int)w);
        }
    }
    mpfr_clears(s, sg, m, a, b, (mpfr_ptr)0);
}
END_TEST

/* one round's RDP at w bits, mu and g w-bit numbers, alpha 2..12; half the
 * cases with g small, where the subsampled bound is the smaller one */
START_TEST(rdp_round)
{
    frng_init(&rng, tu_seed(0xacc7), 2);
    mpfr_t mu, g, r, X;
    mpfr_inits2(WMAX, mu, g, r, (mpfr_ptr)0);
    mpfr_init2(X, HP);
    int subwins = 0;
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 24; i++) {
            const unsigned long al = 2 + (unsigned long)(i % 11);
            const int sub = i % 6 != 5;
            tu_draw_wbit(mu, &rng, w, i % 2 ? 0.002 : 0.05, i % 2 ? 0.5 : 4);
            tu_draw_wbit(g, &rng, w, i % 3 ? 0.001 : 0.05, i % 3 ? 0.1 : 0.9);
            mpfr_set_prec(r, w);
            ck_assert_int_eq(fri_pdm_rdp_round(r, al, mu, g, sub, w), FR_OK);
            tu_rdp_round_hp(X, al, mu, g, sub, HP);
            above(r, X, "rdp_round", w, i);
            mpfr_mul_ui(mu, mu, al, MPFR_RNDN);
            subwins += sub && mpfr_less_p(X, mu);
        }
    ck_assert_msg(subwins >= (WMAX - 1) * 8, "only %d cases where the subsampled bound is the smaller",
                  subwins);
    mpfr_clears(mu, g, r, X, (mpfr_ptr)0);
}
END_TEST

/* the whole RDP accountant at wp = w (output at w or w/2 + 1 bits): T rounds
 * of one sigma (fri_pdm_rdp_wp), or sigma_t with rounds before `first`
 * unsampled (fri_pdm_rdp_rounds_wp); exact: min_alpha sum_t e_t(alpha) +
 * ln(1/delta)/(alpha - 1), alpha <= alpha_max */
START_TEST(rdp_total)
{
    frng_init(&rng, tu_seed(0xacc7), 3);
    mpfr_t sg[3], ss[3], d, g, gN, mu, e, X, L, acc, r;
    for (int k = 0; k < 3; k++) {
        mpfr_init2(sg[k], WMAX);
        mpfr_init2(ss[k], WMAX);
    }
    mpfr_inits2(WMAX, d, r, (mpfr_ptr)0);
    mpfr_inits2(HP, g, gN, mu, e, X, L, acc, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 12; i++) {
            const int rounds = i % 2;
            const unsigned long T = 1 + (unsigned long)(i % 3), K = 1 + (unsigned long)(i % 4),
                                N = i % 5 == 4 ? K : 7 + (unsigned long)(i % 3) * 4, amax = 2 + (unsigned long)(i % 7),
                                first = rounds ? (unsigned long)(i % 3) % T : 0;
            for (unsigned long t = 0; t < T; t++) {
                tu_draw_wbit(sg[t], &rng, w, 0.7, 4);
                tu_draw_wbit(ss[t], &rng, w, 0.3, 2);
                if (!rounds && t > 0) {
                    mpfr_set(sg[t], sg[0], MPFR_RNDN);
                    mpfr_set(ss[t], ss[0], MPFR_RNDN);
                }
            }
            if (rounds && i % 4 == 1 && T > 1) {             /* a run of equal rounds */
                mpfr_set(sg[1], sg[0], MPFR_RNDN);
                mpfr_set(ss[1], ss[0], MPFR_RNDN);
            }
            tu_draw_wbit(d, &rng, w, 1e-9, 0.3);
            mpfr_set_prec(r, i % 3 == 2 ? w / 2 + 1 : w);
            unsigned long al;
            if (rounds)
                ck_assert_int_eq(fri_pdm_rdp_rounds_wp(r, &al, sg, ss, T, first, K, N, d, amax, w), FR_OK);
            else
                ck_assert_int_eq(fri_pdm_rdp_wp(r, &al, sg[0], ss[0], K, N, T, d, amax, w), FR_OK);
            mpfr_set_ui(gN, K, MPFR_RNDN);
            mpfr_div_ui(gN, gN, N, MPFR_RNDN);
            mpfr_log(L, d, MPFR_RNDN);
            mpfr_neg(L, L, MPFR_RNDN);
            mpfr_set_inf(X, 1);
            for (unsigned long a = 2; a <= amax; a++) {
                mpfr_div_ui(acc, L, a - 1, MPFR_RNDN);
                for (unsigned long t = 0; t < T; t++) {
                    mu_exact(mu, sg[t], ss[t]);
                    tu_rdp_round_hp(e, a, mu, gN, K < N && t >= first, HP);
                    mpfr_add(acc, acc, e, MPFR_RNDN);
                }
                mpfr_min(X, X, acc, MPFR_RNDN);
            }
            above(r, X, rounds ? "rdp_rounds" : "rdp", w, i);
        }
    for (int k = 0; k < 3; k++) {
        mpfr_clear(sg[k]);
        mpfr_clear(ss[k]);
    }
    mpfr_clears(d, r, g, gN, mu, e, X, L, acc, (mpfr_ptr)0);
}
END_TEST

/* a draw in [0, n) */
static unsigned long pick(unsigned long n)
{
    return (unsigned long)(frng_next64(&rng) % n);
}

/* the steps of the RDP accountant, each at w = 2..24 bits on w-bit inputs
 * (exact steps around the one checked: g a power of two, alpha - 1 and T
 * powers of two in half the cases):
 *   S = g^2 C(alpha,2) min{4(e^{2mu} - 1), 2 e^{2mu}} + sum_{j=3}^{alpha}
 *   2 g^j C(alpha,j) e^{j(j-1) mu}, alpha = 2..5, against the definition;
 *   ln(1 + S)/(alpha - 1); K/N (g N >= K exactly); T e + L/(alpha - 1);
 *   acc + n r (exactly, at 4 WMAX bits); ln(1/x). */
START_TEST(rdp_steps)
{
    frng_init(&rng, tu_seed(0xacc7), 9);
    mpfr_t mu, g, S, r, e, L, x, X, t;
    mpfr_inits2(WMAX, mu, g, S, r, e, L, x, (mpfr_ptr)0);
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= 24; w++)
        for (int i = 0; i < 24; i++) {
            const unsigned long al = 2 + pick(4);
            tu_draw_wbit(mu, &rng, w, 0.01, 3);
            if (i % 2)
                tu_draw_wbit(g, &rng, w, 0.01, 0.99);
            else
                mpfr_set_ui_2exp(g, 1, -1 - (long)pick(4), MPFR_RNDN);
            mpfr_set_prec(S, w);
            fri_pdm_rdp_sum(S, al, mu, g);
            tu_rdp_sum_hp(X, al, mu, g, HP);
            above(S, X, "rdp_sum", w, i);
            /* S with the e^{..} steps exact (mu = 0: S = sum_{j>=3} 2 C(alpha,j)
             * g^j; g a w-bit number, alpha <= 5, or g = 2^-k, alpha <= 8), or
             * the j = 2 term ruling (g = 2^-k, mu < ln(2)/2), or the last
             * terms (g near 1, mu in [0.3, 2], alpha <= 4) */
            for (int k = 0; k < 8; k++) {
                const int c = (i + k) % 4;
                unsigned long al3 = 3 + pick(3);
                if (c < 2) {
                    mpfr_set_zero(mu, 1);
                    if (c)
                        mpfr_set_ui_2exp(g, 1, -1 - (long)pick(4), MPFR_RNDN), al3 = 3 + pick(6);
                    else
                        tu_draw_wbit(g, &rng, w, 0.05, 0.99);
                } else if (c == 2) {
                    tu_draw_wbit(mu, &rng, w, 0.02, 0.3);
                    mpfr_set_ui_2exp(g, 1, -2 - (long)pick(4), MPFR_RNDN);
                } else {
                    tu_draw_wbit(mu, &rng, w, 0.3, 2);
                    tu_draw_wbit(g, &rng, w, 0.5, 0.99);
                    al3 = 3 + pick(2);
                }
                fri_pdm_rdp_sum(S, al3, mu, g);
                tu_rdp_sum_hp(X, al3, mu, g, HP);
                above(S, X, "rdp_sum, exact steps", w, i);
            }
            /* ln(1 + S)/(alpha - 1) at an exact w-bit S */
            tu_draw_wbit(x, &rng, w, 0.01, 100);
            mpfr_set_prec(r, w);
            fri_pdm_rdp_log(r, x, al);
            mpfr_log1p(X, x, MPFR_RNDN);
            mpfr_div_ui(X, X, al - 1, MPFR_RNDN);
            above(r, X, "rdp_log", w, i);
            /* K/N */
            const unsigned long K = 1 + pick(1000), N = K + pick(5000);
            mpfr_set_prec(r, w);
            fri_pdm_ratio_up(r, K, N);
            mpfr_mul_ui(X, r, N, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp_ui(X, K) >= 0, "ratio_up w %d: %lu/%lu above %.17g", (int)w, K, N,
                          mpfr_get_d(r, MPFR_RNDN));
            /* T e + L/(alpha - 1) */
            const unsigned long T = i % 2 ? 1ul << pick(5) : 1 + pick(40);
            tu_draw_wbit(e, &rng, w, 0.01, 10);
            tu_draw_wbit(L, &rng, w, 0.1, 30);
            mpfr_set_prec(r, w);
            fri_pdm_rdp_conv(r, e, T, L, al);
            mpfr_mul_ui(X, e, T, MPFR_RNDN);
            mpfr_div_ui(t, L, al - 1, MPFR_RNDN);
            mpfr_add(X, X, t, MPFR_RNDN);
            above(r, X, "rdp_conv", w, i);
            /* acc + n r */
            tu_draw_wbit(S, &rng, w, 0.01, 10);
            tu_draw_wbit(e, &rng, w, 0.01, 10);
            mpfr_mul_ui(X, e, T, MPFR_RNDN);
            mpfr_add(X, X, S, MPFR_RNDN);                  /* exact at HP */
            fri_pdm_rdp_run(S, e, T);
            above(S, X, "rdp_run", w, i);
            /* ln(1/x), x with up to 2w bits */
            tu_draw_wbit(x, &rng, w + (mpfr_prec_t)pick((unsigned long)w + 1), 1e-12, 0.9);
            mpfr_set_prec(L, w);
            fri_pdm_ln_inv_up(L, x);
            mpfr_log(X, x, MPFR_RNDN);
            mpfr_neg(X, X, MPFR_RNDN);
            above(L, X, "ln_inv_up", w, i);
        }
    mpfr_clears(mu, g, S, r, e, L, x, X, t, (mpfr_ptr)0);
}
END_TEST

/* S at the top of the exponent range, alpha = 2, g = 1/2: 2 mu = ln(max)
 * - 0.3 (max the largest number), so e^{2mu} and 4(e^{2mu} - 1) are
 * finite but 2 e^{2mu} and 4(e^{2mu} - 1) are not: S = +Inf, or ln S >=
 * 2 mu + ln(2 g^2) (min{..} = 2 e^{2mu} as e^{2mu} > 2). */
START_TEST(rdp_sum_overflow)
{
    mpfr_t mu, g, S, X, t;
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    mpfr_inits2(WMAX, mu, g, S, (mpfr_ptr)0);
    mpfr_set_ui_2exp(g, 1, -1, MPFR_RNDN);
    mpfr_const_log2(X, MPFR_RNDN);
    mpfr_mul_si(X, X, mpfr_get_emax(), MPFR_RNDN);          /* ln 2^emax > ln max */
    mpfr_sub_d(X, X, 0.3, MPFR_RNDN);
    mpfr_div_2ui(mu, X, 1, MPFR_RNDN);
    for (mpfr_prec_t w = 40; w <= WMAX; w += 8) {
        mpfr_set_prec(S, w);
        fri_pdm_rdp_sum(S, 2, mu, g);
        if (mpfr_inf_p(S))
            continue;
        mpfr_log(X, S, MPFR_RNDN);
        mpfr_mul_2ui(t, mu, 1, MPFR_RNDN);
        mpfr_sub_d(t, t, 0.6931471805599453, MPFR_RNDN);    /* 2 mu + ln(2/4) */
        ck_assert_msg(mpfr_greaterequal_p(X, t), "rdp_sum w %d: ln S = %.17g below 2 mu + ln(2 g^2) = %.17g",
                      (int)w, mpfr_get_d(X, MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
    }
    mpfr_clears(mu, g, S, X, t, (mpfr_ptr)0);
}
END_TEST

/* ---- the least eps of one release ------------------------------------------ */

/* fri_pdm_gauss_eps_wp at output precision p = 2..32, its bisection started
 * at wp0 = p + 1..p + 4 bits (fr_fedpdm_gauss_eps: p + 32): the result e
 * must have delta(e) <= delta at a = s/sigma (delta decreasing: e >= the
 * least eps).  sigma and s w-bit numbers (a = s/sigma inexact), delta a
 * w-bit number; a third of the cases with a in [250, 3000], where the
 * bisection's decisions take the Mills branch. */
START_TEST(gauss_eps)
{
    frng_init(&rng, tu_seed(0xacc7), 7);
    mpfr_t s, sg, d, r, a, D, T1;
    mpfr_inits2(WMAX, s, sg, d, r, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, a, D, T1, (mpfr_ptr)0);
    for (mpfr_prec_t p = 2; p <= 32; p++)
        for (int i = 0; i < 6; i++) {
            const mpfr_prec_t w = p + 1 + i % 4;
            if (i % 3 == 2) {
                tu_draw_wbit(s, &rng, w, 1, 3);
                tu_draw_wbit(sg, &rng, w, 0.001, 0.004);
            } else {
                tu_draw_wbit(s, &rng, w, 0.3, 3);
                tu_draw_wbit(sg, &rng, w, 0.3, 8);
            }
            tu_draw_wbit(d, &rng, w, 1e-10, 0.3);
            mpfr_set_prec(r, p);
            ck_assert_int_eq(fri_pdm_gauss_eps_wp(r, sg, s, d, w), FR_OK);
            ck_assert_msg(mpfr_number_p(r) && mpfr_sgn(r) >= 0, "gauss_eps p %d case %d: not a finite eps",
                          (int)p, i);
            mpfr_div(a, s, sg, MPFR_RNDN);
            tu_delta_hp(D, T1, r, a, HP + 32);
            mpfr_div_2ui(T1, T1, HP - 16, MPFR_RNDU);
            mpfr_sub(D, D, T1, MPFR_RNDD);
            ck_assert_msg(mpfr_lessequal_p(D, d), "gauss_eps p %d case %d: delta(%.17g) = %.17g above delta %.17g",
                          (int)p, i, mpfr_get_d(r, MPFR_RNDN), mpfr_get_d(D, MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN));
        }
    mpfr_clears(s, sg, d, r, a, D, T1, (mpfr_ptr)0);
}
END_TEST

/* The tie at eps = 0: delta set to the upper end of the enclosure of
 * delta(0) that the bisection computes first (a = s/sigma rounded down and
 * up, 1/sqrt 2 rounded down and up, at wp0 bits): delta(0) <= delta, so
 * the least eps is 0 and the result must be 0 (du <= delta decides, not
 * du < delta). */
START_TEST(gauss_eps_zero_tie)
{
    frng_init(&rng, tu_seed(0xacc7), 8);
    mpfr_t s, sg, alo, ahi, r2lo, r2hi, z, dl, du, r, a, D;
    mpfr_inits2(WMAX, s, sg, alo, ahi, r2lo, r2hi, z, dl, du, r, (mpfr_ptr)0);
    mpfr_inits2(HP + 32, a, D, (mpfr_ptr)0);
    int ties = 0;
    for (mpfr_prec_t p = 2; p <= 32; p++)
        for (int i = 0; i < 4; i++) {
            const mpfr_prec_t w = p + 1 + i;
            tu_draw_wbit(s, &rng, w, 0.01, 2);
            tu_draw_wbit(sg, &rng, w, 0.5, 4);
            mpfr_set_prec(alo, w), mpfr_set_prec(ahi, w), mpfr_set_prec(r2lo, w), mpfr_set_prec(r2hi, w);
            mpfr_set_prec(dl, w), mpfr_set_prec(du, w), mpfr_set_prec(z, w);
            mpfr_div(alo, s, sg, MPFR_RNDD);
            mpfr_div(ahi, s, sg, MPFR_RNDU);
            mpfr_set_ui(r2lo, 2, MPFR_RNDN);
            mpfr_rec_sqrt(r2lo, r2lo, MPFR_RNDD);
            mpfr_set_ui(r2hi, 2, MPFR_RNDN);
            mpfr_rec_sqrt(r2hi, r2hi, MPFR_RNDU);
            mpfr_set_zero(z, 1);
            fri_pdm_delta_eps_encl(dl, du, z, alo, ahi, r2lo, r2hi, w);
            if (mpfr_sgn(du) <= 0 || mpfr_cmp_ui(du, 1) >= 0)
                continue;
            mpfr_div(a, s, sg, MPFR_RNDN);
            tu_delta_hp(D, NULL, z, a, HP + 32);
            ck_assert_msg(mpfr_lessequal_p(D, du), "p %d case %d: the enclosure's upper end below delta(0)",
                          (int)p, i);
            mpfr_set_prec(r, p);
            ck_assert_int_eq(fri_pdm_gauss_eps_wp(r, sg, s, du, w), FR_OK);
            ck_assert_msg(mpfr_zero_p(r), "gauss_eps p %d case %d: %.17g for delta >= delta(0)", (int)p, i,
                          mpfr_get_d(r, MPFR_RNDN));
            ties++;
        }
    ck_assert_msg(ties >= 100, "only %d ties", ties);
    mpfr_clears(s, sg, alo, ahi, r2lo, r2hi, z, dl, du, r, a, D, (mpfr_ptr)0);
}
END_TEST

/* ---- composition ----------------------------------------------------------- */

/* e = the least eps with delta(eps) <= D for a = s/sigma (delta decreasing,
 * delta(0) > D): Newton's method on ln delta(eps) - ln D from the right,
 * d delta/d eps = -e^eps Phi(-a/2 - eps/a), at HP + 32 bits */
static void eps_exact(mpfr_t e, const mpfr_t a, const mpfr_t D)
{
    mpfr_t f, t, u, lD;
    mpfr_inits2(HP + 32, f, t, u, lD, (mpfr_ptr)0);
    mpfr_log(lD, D, MPFR_RNDN);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    for (;;) {                                       /* a start with delta(e) < D */
        tu_delta_hp(f, NULL, e, a, HP + 32);
        if (mpfr_less_p(f, D)) break;
        mpfr_mul_2ui(e, e, 1, MPFR_RNDN);
    }
    for (int k = 0, done = 0; k < 100; k++) {
        tu_delta_hp(f, NULL, e, a, HP + 32);
        mpfr_div_2ui(t, a, 1, MPFR_RNDN);
        mpfr_div(u, e, a, MPFR_RNDN);
        mpfr_add(t, t, u, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        tu_phi_hp(u, t);
        mpfr_exp(t, e, MPFR_RNDN);
        mpfr_mul(u, u, t, MPFR_RNDN);                /* -delta'(e) */
        mpfr_log(t, f, MPFR_RNDN);
        mpfr_sub(t, t, lD, MPFR_RNDN);
        mpfr_mul(t, t, f, MPFR_RNDN);
        mpfr_div(t, t, u, MPFR_RNDN);                /* (ln f - ln D) f / -f' <= 0: e moves down */
        mpfr_add(e, e, t, MPFR_RNDN);
        if (done) break;
        done = mpfr_zero_p(t) || mpfr_get_exp(t) < mpfr_get_exp(e) - (HP - 8);   /* one more step */
    }
    mpfr_clears(f, t, u, lD, (mpfr_ptr)0);
}

/* fri_pdm_compose_wp at wp = w = 2..32 (outputs at w bits): basic >= T eps_0, eps_0
 * the least eps for delta/T; adv >= sqrt(2T ln(2/delta)) eps_0 + T eps_0
 * (e^eps_0 - 1), eps_0 that for delta/(2T).  T = 3, 5, 6, 7 (delta/T
 * inexact), sigma = 1, s a w-bit number. */
START_TEST(compose)
{
    frng_init(&rng, tu_seed(0xacc7), 4);
    mpfr_t s, sg, d, b, a, D, e0, X, t;
    mpfr_inits2(WMAX, s, sg, d, b, a, (mpfr_ptr)0);
    mpfr_inits2(HP, D, e0, X, t, (mpfr_ptr)0);
    mpfr_set_ui(sg, 1, MPFR_RNDN);
    static const unsigned long TT[4] = {3, 5, 6, 7};
    for (mpfr_prec_t w = 2; w <= 32; w++)
        for (int i = 0; i < 2; i++) {
            const unsigned long T = TT[(w + i) % 4];
            tu_draw_wbit(s, &rng, w, 0.2, 3);
            tu_draw_wbit(d, &rng, w, 1e-6, 0.05);
            mpfr_set_prec(b, w);
            mpfr_set_prec(a, w);
            ck_assert_int_eq(fri_pdm_compose_wp(b, a, sg, s, T, d, w), FR_OK);
            mpfr_div_ui(D, d, T, MPFR_RNDN);
            eps_exact(e0, s, D);
            mpfr_mul_ui(X, e0, T, MPFR_RNDN);
            above(b, X, "compose basic", w, i);
            mpfr_div_ui(D, d, 2 * T, MPFR_RNDN);
            eps_exact(e0, s, D);
            mpfr_div_2ui(t, d, 1, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_mul_si(t, t, -2 * (long)T, MPFR_RNDN);
            mpfr_sqrt(t, t, MPFR_RNDN);
            mpfr_mul(X, t, e0, MPFR_RNDN);
            mpfr_expm1(t, e0, MPFR_RNDN);
            mpfr_mul(t, t, e0, MPFR_RNDN);
            mpfr_mul_ui(t, t, T, MPFR_RNDN);
            mpfr_add(X, X, t, MPFR_RNDN);
            above(a, X, "compose adv", w, i);
        }
    mpfr_clears(s, sg, d, b, a, D, e0, X, t, (mpfr_ptr)0);
}
END_TEST

/* the per-round delta of composition: d0 (w bits) = delta/k rounded down,
 * k = T, 2T not powers of two, delta with up to 2w bits: k d0 <= delta
 * (exact at 3 WMAX bits) */
START_TEST(round_delta)
{
    frng_init(&rng, tu_seed(0xacc7), 10);
    mpfr_t d, d0, X;
    mpfr_inits2(WMAX, d, d0, (mpfr_ptr)0);
    mpfr_init2(X, 3 * WMAX);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 8; i++) {
            const unsigned long k = 2 * (1 + pick(40)) + (i % 2 ? 0 : 1);
            tu_draw_wbit(d, &rng, w + (mpfr_prec_t)pick((unsigned long)w + 1), 1e-12, 0.9);
            mpfr_set_prec(d0, w);
            fri_pdm_round_delta(d0, d, k);
            mpfr_mul_ui(X, d0, k, MPFR_RNDN);
            ck_assert_msg(mpfr_lessequal_p(X, d), "round_delta w %d k %lu: %lu d0 above delta", (int)w, k, k);
        }
    mpfr_clears(d, d0, X, (mpfr_ptr)0);
}
END_TEST

/* the advanced composition at a given w-bit e0, wp = w = 2..24, the result
 * at 4w + 8 bits (the sum's rounding then negligible) or at w bits:
 * a >= sqrt(2T ln(2/delta)) e0 + T e0 (e^e0 - 1).  Cases: e0 = 2^-k or
 * below 1e-3 (the first term rules; 2T a power of two), or e0 in [2, 6] with
 * T in [16, 64] and delta near 1/2 (the second rules); delta with up to
 * 3w bits (delta/2 rounded to w bits). */
START_TEST(adv_eps)
{
    frng_init(&rng, tu_seed(0xacc7), 11);
    mpfr_t e0, d, a, X, t;
    mpfr_inits2(WMAX, e0, d, (mpfr_ptr)0);
    mpfr_init2(a, 4 * WMAX + 8);
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= 24; w++)
        for (int i = 0; i < 24; i++) {
            const int first = i % 2;
            const unsigned long T = first ? (i % 4 == 1 ? 1ul << pick(6) : 1 + pick(100)) : 16 + pick(49);
            if (first && i % 3)
                mpfr_set_ui_2exp(e0, 1, -8 - (long)pick(12), MPFR_RNDN);
            else if (first)
                tu_draw_wbit(e0, &rng, w, 1e-6, 1e-3);
            else
                tu_draw_wbit(e0, &rng, w, 2, 6);
            tu_draw_wbit(d, &rng, w + (mpfr_prec_t)pick(2 * (unsigned long)w + 1), first ? 1e-9 : 0.3,
                         first ? 0.5 : 0.9);
            mpfr_set_prec(a, i % 3 == 2 ? w : 4 * w + 8);
            fri_pdm_adv_eps(a, e0, d, T, w);
            mpfr_div_2ui(t, d, 1, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_mul_si(t, t, -2 * (long)T, MPFR_RNDN);
            mpfr_sqrt(t, t, MPFR_RNDN);
            mpfr_mul(X, t, e0, MPFR_RNDN);
            mpfr_expm1(t, e0, MPFR_RNDN);
            mpfr_mul(t, t, e0, MPFR_RNDN);
            mpfr_mul_ui(t, t, T, MPFR_RNDN);
            mpfr_add(X, X, t, MPFR_RNDN);
            above(a, X, "adv_eps", w, i);
        }
    mpfr_clears(e0, d, a, X, t, (mpfr_ptr)0);
}
END_TEST

/* X = c0 q^2 eps sqrt(K T / (N (1 - q))) to nearest at X's precision (t scratch) */
static void thm2_exact(mpfr_t X, mpfr_t t, const mpfr_t c0, const mpfr_t e, unsigned long K, unsigned long N,
                       unsigned long T, const mpfr_t q)
{
    mpfr_ui_sub(t, 1, q, MPFR_RNDN);
    mpfr_ui_div(t, K * T, t, MPFR_RNDN);
    mpfr_div_ui(t, t, N, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_mul(t, t, q, MPFR_RNDN);
    mpfr_mul(t, t, q, MPFR_RNDN);
    mpfr_mul(t, t, e, MPFR_RNDN);
    mpfr_mul(X, t, c0, MPFR_RNDN);
}

/* fri_pdm_thm2_wp at wp = w: c0 q^2 eps sqrt(K T / (N (1 - q))), w-bit c0,
 * eps, q */
START_TEST(thm2)
{
    frng_init(&rng, tu_seed(0xacc7), 5);
    mpfr_t c0, e, q, r, X, t;
    mpfr_inits2(WMAX, c0, e, q, r, (mpfr_ptr)0);
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 8; i++) {
            const unsigned long K = 1 + (unsigned long)i, N = 3 + 2 * (unsigned long)i, T = 5 + (unsigned long)(i % 3);
            tu_draw_wbit(c0, &rng, w, 0.1, 10);
            tu_draw_wbit(e, &rng, w, 0.01, 5);
            tu_draw_wbit(q, &rng, w, 0.01, 0.99);
            mpfr_set_prec(r, w);
            ck_assert_int_eq(fri_pdm_thm2_wp(r, c0, e, K, N, T, q, w), FR_OK);
            thm2_exact(X, t, c0, e, K, N, T, q);
            above(r, X, "thm2", w, i);
        }
    mpfr_clears(c0, e, q, r, X, t, (mpfr_ptr)0);
}
END_TEST

/* fri_pdm_thm2_wp with the steps around each one exact: wp = w = 2..16,
 * the result at 4w bits, N a power of two, K T < 2^w or K not a w-bit
 * number, q = 1/2 or 3/4 (1 - q and q^2 exact) or a w-bit q, c0 and eps
 * powers of two or w-bit numbers */
START_TEST(thm2_steps)
{
    frng_init(&rng, tu_seed(0xacc7), 12);
    mpfr_t c0, e, q, r, X, t;
    mpfr_inits2(WMAX, c0, e, q, r, (mpfr_ptr)0);
    mpfr_inits2(HP, X, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= 16; w++)
        for (int i = 0; i < 48; i++) {
            const unsigned long N = i % 4 ? 1ul << pick(8) : 1 + pick(300);
            const unsigned long K = i % 3 ? 1 + pick(1ul << (w < 8 ? w : 8)) : 1 + pick(5000),
                                T = i % 5 < 2 ? 1ul << pick(6) : 1 + pick(60);
            if (i % 2)
                mpfr_set_ui_2exp(q, 1 + 2 * (unsigned long)(i % 4 == 1), -1 - (i % 4 == 1), MPFR_RNDN);
            else
                tu_draw_wbit(q, &rng, w, 0.01, 0.8);         /* < 1 at every w */
            if (i % 3 == 1) {
                mpfr_set_ui_2exp(c0, 1, (long)pick(5) - 2, MPFR_RNDN);
                mpfr_set_ui_2exp(e, 1, (long)pick(5) - 2, MPFR_RNDN);
            } else {
                tu_draw_wbit(c0, &rng, w, 0.1, 10);
                tu_draw_wbit(e, &rng, w, 0.01, 5);
            }
            mpfr_set_prec(r, i % 7 == 3 ? w : 4 * w);
            ck_assert_int_eq(fri_pdm_thm2_wp(r, c0, e, K, N, T, q, w), FR_OK);
            thm2_exact(X, t, c0, e, K, N, T, q);
            above(r, X, "thm2 steps", w, i);
        }
    mpfr_clears(c0, e, q, r, X, t, (mpfr_ptr)0);
}
END_TEST

/* ---- the Mills ratio ------------------------------------------------------- */

/* fri_pdm_mills_encl at w = 2..WMAX, zl = zu or a few ulps apart, z in
 * [0.6, 6]: there the continued fraction's inner levels are damped by
 * little ((k-1)/z^2 a level, about 1 below the top levels) and the depth
 * reached makes the truncation's share of the width small, so the
 * roundings of the inner levels set it */
START_TEST(mills_small_z)
{
    frng_init(&rng, tu_seed(0xacc7), 6);
    mpfr_t zl, zu, rl, ru, R, t;
    mpfr_inits2(WMAX, zl, zu, rl, ru, (mpfr_ptr)0);
    mpfr_inits2(HP, R, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 16; i++) {
            tu_draw_wbit(zl, &rng, w, 0.6, 6);
            mpfr_set_prec(zu, w);
            mpfr_set(zu, zl, MPFR_RNDN);
            for (int k = 0; k < i % 3; k++) mpfr_nextabove(zu);
            mpfr_set_prec(rl, w);
            mpfr_set_prec(ru, w);
            fri_pdm_mills_encl(rl, ru, zl, zu, w);
            for (int end = 0; end < 2; end++) {
                mpfr_srcptr z = end ? zl : zu;          /* R decreasing: rl <= R(zu), ru >= R(zl) */
                mpfr_neg(t, z, MPFR_RNDN);
                tu_phi_hp(R, t);
                mpfr_sqr(t, z, MPFR_RNDN);
                mpfr_div_2ui(t, t, 1, MPFR_RNDN);
                mpfr_exp(t, t, MPFR_RNDN);
                mpfr_mul(R, R, t, MPFR_RNDN);
                mpfr_const_pi(t, MPFR_RNDN);
                mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
                mpfr_sqrt(t, t, MPFR_RNDN);
                mpfr_mul(R, R, t, MPFR_RNDN);
                if (end)
                    above(ru, R, "mills upper at zl", w, i);
                else
                    below(rl, R, "mills lower at zu", w, i);
            }
        }
    mpfr_clears(zl, zu, rl, ru, R, t, (mpfr_ptr)0);
}
END_TEST

/* fri_pdm_mills_encl at the inputs (zl = zu = z, w bits) where the lower
 * end is the tightest, found by a search over w <= 10, z in [1/8, 64):
 * rl <= R(z) there takes the inner levels' w = zl + L rounded down (an
 * upper bound of the tail from it) */
START_TEST(mills_aimed)
{
    static const struct { int w; long m, e; } Z[] = {{7, 103, -6}, {8, 199, -7}, {9, 365, -8}};
    mpfr_t z, rl, ru, R, t;
    mpfr_inits2(WMAX, z, rl, ru, (mpfr_ptr)0);
    mpfr_inits2(HP, R, t, (mpfr_ptr)0);
    for (int i = 0; i < 3; i++) {
        const mpfr_prec_t w = Z[i].w;
        mpfr_set_prec(z, w), mpfr_set_prec(rl, w), mpfr_set_prec(ru, w);
        ck_assert_int_eq(mpfr_set_si_2exp(z, Z[i].m, Z[i].e, MPFR_RNDN), 0);
        fri_pdm_mills_encl(rl, ru, z, z, w);
        mpfr_neg(t, z, MPFR_RNDN);
        tu_phi_hp(R, t);
        mpfr_sqr(t, z, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(R, R, t, MPFR_RNDN);
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_mul(R, R, t, MPFR_RNDN);
        below(rl, R, "mills lower, aimed", w, i);
        above(ru, R, "mills upper, aimed", w, i);
    }
    mpfr_clears(z, rl, ru, R, t, (mpfr_ptr)0);
}
END_TEST

/* fri_pdm_mills_args at w = 2..WMAX: alo, eps w-bit numbers, ahi = alo in
 * three cases of four (the bounds are then those of z and x1 at one point,
 * so each rounding toward the wrong side shows) and a few ulps above it in
 * the fourth; z = a/2 + eps/a and x1 = a/2 - eps/a at HP bits at the end
 * points: zl <= z(alo), z(ahi) <= zu (z convex, its maximum at an end
 * point, and its minimum above alo/2 + eps/ahi, itself checked by zl),
 * x1l <= x1(alo), x1(ahi) <= x1u (x1 increasing). */
START_TEST(mills_args)
{
    frng_init(&rng, tu_seed(0xacc7), 7);
    mpfr_t alo, ahi, eps, zl, zu, x1l, x1u, z, t;
    mpfr_inits2(WMAX, alo, ahi, eps, zl, zu, x1l, x1u, (mpfr_ptr)0);
    mpfr_inits2(HP, z, t, (mpfr_ptr)0);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < 16; i++) {
            tu_draw_wbit(alo, &rng, w, 0.01, 100);
            tu_draw_wbit(eps, &rng, w, 0.01, 3e4);
            mpfr_set_prec(ahi, w);
            mpfr_set(ahi, alo, MPFR_RNDN);
            if (i % 4 == 3)
                for (int k = 0; k < 1 + i % 3; k++) mpfr_nextabove(ahi);
            mpfr_set_prec(zl, w), mpfr_set_prec(zu, w), mpfr_set_prec(x1l, w), mpfr_set_prec(x1u, w);
            fri_pdm_mills_args(zl, zu, x1l, x1u, eps, alo, ahi);
            for (int end = 0; end < 2; end++) {
                mpfr_srcptr a = end ? ahi : alo;
                mpfr_div(t, eps, a, MPFR_RNDN);
                mpfr_div_2ui(z, a, 1, MPFR_RNDN);
                mpfr_add(z, z, t, MPFR_RNDN);
                below(zl, z, end ? "mills_args zl at ahi" : "mills_args zl at alo", w, i);
                above(zu, z, end ? "mills_args zu at ahi" : "mills_args zu at alo", w, i);
                mpfr_div_2ui(z, a, 1, MPFR_RNDN);
                mpfr_sub(z, z, t, MPFR_RNDN);
                if (end)
                    above(x1u, z, "mills_args x1u", w, i);
                else
                    below(x1l, z, "mills_args x1l", w, i);
            }
        }
    mpfr_clears(alo, ahi, eps, zl, zu, x1l, x1u, z, t, (mpfr_ptr)0);
}
END_TEST

/* the Mills branch's ranges and the enclosure of delta(eps) where halvings
 * and erfc's results underflow: (i) alo = ahi = the least positive number
 * m, eps = 0, in the default exponent range: z = x1 = m/2 is not a number,
 * so 2 zl <= m <= 2 zu and 2 x1l <= m <= 2 x1u (exact doublings) pin the
 * halvings' directions; (ii) the exponent range narrowed to emin = -1074
 * (numbers from 2^-1075), a = 2, eps = 75: z = 38.5 (below the Mills
 * branch), erfc(z/sqrt2) = 2 Phi(-z) ~ 2^-1074.8 is a number but its half
 * is not, while delta(eps) ~ 2^-968 is: dl <= delta(eps) <= du, against
 * the profile at HP bits in the default range. */
START_TEST(underflow_edges)
{
    const mpfr_exp_t emin = mpfr_get_emin();
    mpfr_t a, e, zl, zu, x1l, x1u, t, r2lo, r2hi, dl, du, D;
    mpfr_inits2(WMAX, a, e, zl, zu, x1l, x1u, t, r2lo, r2hi, dl, du, (mpfr_ptr)0);
    mpfr_init2(D, HP);
    mpfr_set_ui_2exp(a, 1, emin - 1, MPFR_RNDN);
    mpfr_set_zero(e, 1);
    fri_pdm_mills_args(zl, zu, x1l, x1u, e, a, a);
    mpfr_srcptr lower[] = {zl, x1l}, upper[] = {zu, x1u};
    for (int k = 0; k < 2; k++) {
        mpfr_mul_2ui(t, lower[k], 1, MPFR_RNDN);
        ck_assert_msg(mpfr_lessequal_p(t, a), "%s above half the least positive number", k ? "x1l" : "zl");
        mpfr_mul_2ui(t, upper[k], 1, MPFR_RNDN);
        ck_assert_msg(mpfr_greaterequal_p(t, a), "%s below half the least positive number", k ? "x1u" : "zu");
    }
    mpfr_set_ui(a, 2, MPFR_RNDN);
    mpfr_set_ui(e, 75, MPFR_RNDN);
    tu_delta_hp(D, NULL, e, a, HP);
    for (mpfr_prec_t w = 24; w <= WMAX; w += 8) {
        mpfr_set_prec(r2lo, w), mpfr_set_prec(r2hi, w), mpfr_set_prec(dl, w), mpfr_set_prec(du, w);
        mpfr_set_ui(r2lo, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2lo, r2lo, MPFR_RNDD);
        mpfr_set_ui(r2hi, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2hi, r2hi, MPFR_RNDU);
        ck_assert_int_eq(mpfr_set_emin(-1074), 0);
        fri_pdm_delta_eps_encl(dl, du, e, a, a, r2lo, r2hi, w);
        mpfr_set_emin(emin);
        below(dl, D, "delta(eps) lower, emin -1074", w, 0);
        above(du, D, "delta(eps) upper, emin -1074", w, 0);
    }
    mpfr_clears(a, e, zl, zu, x1l, x1u, t, r2lo, r2hi, dl, du, D, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_acct_stages(void)
{
    Suite *s = suite_create("fedpdm_acct_stages");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mu_up_dir);
    tcase_add_test(tc, rdp_round);
    tcase_add_test(tc, rdp_total);
    tcase_add_test(tc, rdp_steps);
    tcase_add_test(tc, rdp_sum_overflow);
    tcase_add_test(tc, gauss_eps);
    tcase_add_test(tc, gauss_eps_zero_tie);
    tcase_add_test(tc, compose);
    tcase_add_test(tc, round_delta);
    tcase_add_test(tc, adv_eps);
    tcase_add_test(tc, thm2);
    tcase_add_test(tc, thm2_steps);
    tcase_add_test(tc, mills_small_z);
    tcase_add_test(tc, mills_aimed);
    tcase_add_test(tc, mills_args);
    tcase_add_test(tc, underflow_edges);
    suite_add_tcase(s, tc);
    return s;
}
