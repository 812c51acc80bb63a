/* SPDX-License-Identifier: Apache-2.0 */
/* test_pld_fast_stages.c -- white-box: the stages of fast's PLD accountant
 * (fast/fedpdm/pld.c, declared in fast/fedpdm/pld.h) each keep their
 * direction against the exact value of their own inputs, at HP bits: the
 * enclosures of s/sigma, q and p, Phi's bounds, the chord's masses from
 * exact point enclosures of a convex H, the lower cells' CDF bounds, the
 * composition's error bounds (err_mul, err_pow, the norms, c sqrt(n) X2,
 * EW, Thm 24.2's c and r4, W_inf), and the cell solve (deltas random or
 * aimed just past a cell's left end).  ff_fedpdm_pld_rounds's output
 * carries several outward pads of margin, so a direction reversed inside
 * it rarely shows there: ci/mutate-privacy.sh runs this suite first. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../fast/fedpdm/pld.h"
#include "delta_hp.h"

Suite *suite_fedpdm_pld_fast_stages(void);

#define HP 192
#define NDRAW 400

static double u01(frng_t *g)
{
    return (double)frng_u53(g) * 0x1p-53;
}
/* log-uniform on [lo, hi] */
static double lu(frng_t *g, double lo, double hi)
{
    return exp(log(lo) + u01(g) * (log(hi) - log(lo)));
}

/* enclosures of s/sigma, q = K/N, p = 1 - q: checked exactly (HP products) */
START_TEST(ctx_enclosed)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b01), 0);
    mpfr_t t, v;
    mpfr_inits2(HP, t, v, (mpfr_ptr)0);
    for (int k = 0; k < NDRAW; k++) {
        const double s = lu(&rng, 0.1, 4), sg = lu(&rng, 0.2, 8);
        const unsigned long N = 2 + frng_u53(&rng) % 999, K = 1 + frng_u53(&rng) % (N - 1);
        const int sub = k % 4 != 0;
        ffi_pld_ctx c;
        ffi_pdm_pld_ctx(&c, s, sg, sub, K, N, 0.25);
        const unsigned long k1 = sub ? K : N;
        int ok = 1;
        mpfr_set_d(t, c.alo, MPFR_RNDN);
        mpfr_mul_d(t, t, sg, MPFR_RNDN);
        ok &= mpfr_cmp_d(t, s) <= 0;
        mpfr_set_d(t, c.ahi, MPFR_RNDN);
        mpfr_mul_d(t, t, sg, MPFR_RNDN);
        ok &= mpfr_cmp_d(t, s) >= 0;
        mpfr_set_d(t, c.qlo, MPFR_RNDN);
        mpfr_mul_ui(t, t, N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, k1) <= 0;
        mpfr_set_d(t, c.qhi, MPFR_RNDN);
        mpfr_mul_ui(t, t, N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, k1) >= 0;
        mpfr_set_d(t, c.plo, MPFR_RNDN);
        mpfr_mul_ui(t, t, N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, N - k1) <= 0 && c.plo >= 0;
        mpfr_set_d(t, c.phi, MPFR_RNDN);
        mpfr_mul_ui(t, t, N, MPFR_RNDN);
        ok &= mpfr_cmp_ui(t, N - k1) >= 0;
        ck_assert_msg(ok, "s %.17g sigma %.17g K %lu N %lu sub %d: an end on the wrong side", s, sg, K, N, sub);
    }
    mpfr_clears(t, v, (mpfr_ptr)0);
}
END_TEST

/* Phi's bounds, x in [-38, 8] (the deep tail, where the argument's pad shows) */
START_TEST(phi_bounds)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b02), 0);
    mpfr_t x, P;
    mpfr_inits2(HP, x, P, (mpfr_ptr)0);
    for (int k = 0; k < 2 * NDRAW; k++) {
        const double xv = k % 3 ? -lu(&rng, 1e-3, 38) : lu(&rng, 1e-3, 8);
        const int dir = k % 2 ? 1 : -1;
        const double r = ffi_pdm_pld_phi(xv, dir);
        mpfr_set_d(x, xv, MPFR_RNDN);
        tu_phi_hp(P, x);
        ck_assert_msg(dir > 0 ? mpfr_cmp_d(P, r) <= 0 : mpfr_cmp_d(P, r) >= 0, "x %.17g dir %d: %.17g vs %.17g", xv,
                      dir, r, mpfr_get_d(P, MPFR_RNDN));
    }
    mpfr_clears(x, P, (mpfr_ptr)0);
}
END_TEST

#define MC 8

/* the chord on exact point enclosures of a convex decreasing H (built from
 * increasing slopes; ref's test_pld_stages.c): every mass >= the chord's */
START_TEST(chord_masses)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b03), 0);
    double x[2 * MC + 1], Hv[MC + 1], a[MC + 1], sl[MC + 2], winf;
    mpfr_t t, u, sum;
    mpfr_inits2(HP, t, u, sum, (mpfr_ptr)0);
    int nok = 0;
    for (int k = 0; k < NDRAW; k++) {
        const unsigned long m = 1 + frng_u53(&rng) % MC;
        a[0] = 1;
        for (unsigned long i = 1; i <= m; i++) a[i] = a[i - 1] + ldexp(floor(ldexp(lu(&rng, 0.05, 0.3), 20)), -20);
        sl[m + 1] = 0;
        for (unsigned long i = m; i >= 1; i--) sl[i] = sl[i + 1] - ldexp(floor(ldexp(lu(&rng, 1e-3, 1e-2), 24)), -24);
        Hv[m] = ldexp(floor(ldexp(lu(&rng, 1e-4, 1e-2), 24)), -24);
        for (unsigned long i = m; i >= 1; i--) Hv[i - 1] = Hv[i] - (a[i] - a[i - 1]) * sl[i];   /* exact: few bits */
        const int st = ffi_pdm_pld_chord(x, &winf, m, Hv, Hv, a, a);
        if (st == FR_EINTERNAL) continue;
        ck_assert_int_eq(st, FR_OK);
        nok++;
        int ok = winf >= Hv[m];
        mpfr_set_zero(sum, 1);
        for (unsigned long i = 1; i <= m; i++) {
            mpfr_set_d(t, sl[i + 1], MPFR_RNDN);
            mpfr_sub_d(t, t, sl[i], MPFR_RNDN);        /* Delta_i, exact */
            ok &= mpfr_cmp_d(t, x[m - i]) <= 0;
            mpfr_add(sum, sum, t, MPFR_RNDN);
            mpfr_mul_d(t, t, a[i], MPFR_RNDN);
            ok &= mpfr_cmp_d(t, x[m + i]) <= 0;
            mpfr_add(sum, sum, t, MPFR_RNDN);
        }
        mpfr_add_d(sum, sum, Hv[m], MPFR_RNDN);
        mpfr_ui_sub(u, 1, sum, MPFR_RNDN);
        ok &= mpfr_cmp_d(u, x[m]) <= 0;
        ck_assert_msg(ok, "m %lu: a mass below the chord's", m);
    }
    ck_assert_int_ge(nok, NDRAW / 2);
    mpfr_clears(t, u, sum, (mpfr_ptr)0);
}
END_TEST

/* the lower cells' CDF bounds: cdf(x, order, dir) on the side dir of F(x) = p Phi(x) + q Phi(x - a) or Phi(x) */
START_TEST(cdf_bounds)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b04), 0);
    mpfr_t x, F, t, q;
    mpfr_inits2(HP, x, F, t, q, (mpfr_ptr)0);
    for (int k = 0; k < NDRAW; k++) {
        const double s = lu(&rng, 0.1, 4), sg = lu(&rng, 0.2, 8);
        const unsigned long N = 2 + frng_u53(&rng) % 199, K = 1 + frng_u53(&rng) % (N - 1);
        ffi_pld_ctx c;
        ffi_pdm_pld_ctx(&c, s, sg, 1, K, N, 0.25);
        const double xv = k % 3 ? -lu(&rng, 1e-3, 30) : lu(&rng, 1e-3, 8);
        const int order = 1 + k % 2, dir = (k / 2) % 2 ? 1 : -1;
        const double r = ffi_pdm_pld_cdf(xv, order, dir, &c);
        mpfr_set_d(x, xv, MPFR_RNDN);
        tu_phi_hp(F, x);
        if (order == 1) {                               /* F = p Phi(x) + q Phi(x - a), a = s/sigma */
            mpfr_set_ui(q, K, MPFR_RNDN);
            mpfr_div_ui(q, q, N, MPFR_RNDN);
            mpfr_ui_sub(t, 1, q, MPFR_RNDN);
            mpfr_mul(F, F, t, MPFR_RNDN);
            mpfr_set_d(t, s, MPFR_RNDN);
            mpfr_div_d(t, t, sg, MPFR_RNDN);
            mpfr_sub(t, x, t, MPFR_RNDN);
            tu_phi_hp(t, t);
            mpfr_mul(t, t, q, MPFR_RNDN);
            mpfr_add(F, F, t, MPFR_RNDN);
        }
        ck_assert_msg(dir > 0 ? mpfr_cmp_d(F, r) <= 0 : mpfr_cmp_d(F, r) >= 0, "x %.17g order %d dir %d: %.17g vs %.17g",
                      xv, order, dir, r, mpfr_get_d(F, MPFR_RNDN));
    }
    mpfr_clears(x, F, t, q, (mpfr_ptr)0);
}
END_TEST


/* dG's bounds at a in [alo, ahi], H's enclosure, the thresholds x(g) = (log((e^g - p)/q) + a^2/2)/a */
START_TEST(profile_thresholds)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b07), 0);
    mpfr_t x, a, q, D, t, p;
    mpfr_inits2(HP, x, a, q, D, t, p, (mpfr_ptr)0);
    for (int k = 0; k < NDRAW; k++) {
        const double s = lu(&rng, 0.1, 4), sg = lu(&rng, 0.2, 8);
        const unsigned long N = 2 + frng_u53(&rng) % 199, K = 1 + frng_u53(&rng) % (N - 1);
        const int sub = k % 3 != 0;
        ffi_pld_ctx c;
        ffi_pdm_pld_ctx(&c, s, sg, sub, K, N, 0.25);
        mpfr_set_d(a, s, MPFR_RNDN);
        mpfr_div_d(a, a, sg, MPFR_RNDN);
        mpfr_set_ui(q, sub ? K : N, MPFR_RNDN);
        mpfr_div_ui(q, q, N, MPFR_RNDN);
        /* dG */
        const double xv = k % 7 == 0 ? 0 : lu(&rng, 1e-3, 12);
        mpfr_set_d(x, xv, MPFR_RNDN);
        tu_delta_hp(D, NULL, x, a, HP);
        const double dh = ffi_pdm_pld_dg(xv, 1, &c), dl = ffi_pdm_pld_dg(xv, -1, &c);
        ck_assert_msg(mpfr_cmp_d(D, dh) <= 0 && mpfr_cmp_d(D, dl) >= 0, "dG(%.17g), a %.17g: [%.17g, %.17g] misses %.17g",
                      xv, mpfr_get_d(a, MPFR_RNDN), dl, dh, mpfr_get_d(D, MPFR_RNDN));
        /* H */
        const double e = k % 7 == 1 ? 0 : lu(&rng, 1e-3, 6), ee = exp(e);
        double lo, hi;
        ffi_pdm_pld_h(&lo, &hi, e, e == 0 ? 1 : ee * (1 - 0x1p-45), e == 0 ? 1 : ee * (1 + 0x1p-45), sub, &c);
        mpfr_set_d(x, e, MPFR_RNDN);
        tu_pld_H_hp(D, x, a, q);
        ck_assert_msg(mpfr_cmp_d(D, hi) <= 0 && mpfr_cmp_d(D, lo) >= 0, "H(%.17g) K %lu N %lu sub %d: [%.17g, %.17g] misses %.17g",
                      e, K, N, sub, lo, hi, mpfr_get_d(D, MPFR_RNDN));
        /* x(g) */
        const double g = ldexp((double)((long)(frng_u53(&rng) % 129) - 64), -4);
        double xl, xh;
        ffi_pdm_pld_thresh(&xl, &xh, g, &c);
        mpfr_ui_sub(p, 1, q, MPFR_RNDN);
        mpfr_set_d(t, g, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_sub(t, t, p, MPFR_RNDN);
        if (mpfr_sgn(t) <= 0) {
            ck_assert_msg(xl == -INFINITY, "g %.17g: x(g) = -Inf, lower end %.17g", g, xl);
        } else {
            mpfr_div(t, t, q, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_sqr(D, a, MPFR_RNDN);
            mpfr_div_2ui(D, D, 1, MPFR_RNDN);
            mpfr_add(t, t, D, MPFR_RNDN);
            mpfr_div(t, t, a, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp_d(t, xh) <= 0 && (xl == -INFINITY || mpfr_cmp_d(t, xl) >= 0),
                          "g %.17g K %lu N %lu sub %d: [%.17g, %.17g] misses %.17g", g, K, N, sub, xl, xh, mpfr_get_d(t, MPFR_RNDN));
        }
    }
    mpfr_clears(x, a, q, D, t, p, (mpfr_ptr)0);
}
END_TEST

/* one round's upper PMF: its grid enclosures (ws) contain a_i = e^{ih} and H(e_i);
 * the lower cells' masses: 0 <= cell_mass <= a - b (1 - b, a at the top) */
START_TEST(grid_cells)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b08), 0);
    double x[2 * MC + 1], ws[4 * (MC + 1)], winf;
    mpfr_t t, a, q, H;
    mpfr_inits2(HP, t, a, q, H, (mpfr_ptr)0);
    for (int k = 0; k < NDRAW / 8; k++) {
        const double s = lu(&rng, 0.1, 4), sg = lu(&rng, 0.2, 8);
        const unsigned long N = 2 + frng_u53(&rng) % 199, K = 1 + frng_u53(&rng) % (N - 1), m = 1 + frng_u53(&rng) % MC;
        const int sub = k % 3 != 0;
        ffi_pld_ctx c;
        ffi_pdm_pld_ctx(&c, s, sg, sub, K, N, ldexp(1, -(int)(frng_u53(&rng) % 4)));
        const int st = ffi_pdm_pld_pmf_upper(x, &winf, m, sub, &c, ws);
        ck_assert(st == FR_OK || st == FR_EINTERNAL);
        mpfr_set_d(a, s, MPFR_RNDN);
        mpfr_div_d(a, a, sg, MPFR_RNDN);
        mpfr_set_ui(q, sub ? K : N, MPFR_RNDN);
        mpfr_div_ui(q, q, N, MPFR_RNDN);
        for (unsigned long i = 0; i <= m; i++) {
            mpfr_set_d(t, c.h * (double)i, MPFR_RNDN);
            tu_pld_H_hp(H, t, a, q);
            mpfr_exp(t, t, MPFR_RNDN);
            const double *Hl = ws, *Hh = ws + (m + 1), *al = ws + 2 * (m + 1), *ah = ws + 3 * (m + 1);
            ck_assert_msg(mpfr_cmp_d(t, al[i]) >= 0 && mpfr_cmp_d(t, ah[i]) <= 0 && mpfr_cmp_d(H, Hl[i]) >= 0 &&
                              mpfr_cmp_d(H, Hh[i]) <= 0, "i %lu of %lu: a grid enclosure misses", i, m);
        }
    }
    for (int k = 0; k < NDRAW; k++) {
        const double av = lu(&rng, 0.05, 1), bv = lu(&rng, 0.01, 1);
        const int top = k % 5 == 0, order = 1 + (k / 2) % 2;
        const double v = ffi_pdm_pld_cell_mass(av, bv, top, order);
        mpfr_set_d(t, top && order == 2 ? av : top ? 1 : av, MPFR_RNDN);
        if (!(top && order == 2)) mpfr_sub_d(t, t, bv, MPFR_RNDN);   /* exact at HP */
        ck_assert_msg(v >= 0 && (v == 0 || mpfr_cmp_d(t, v) >= 0), "cell mass %.17g above %.17g", v, mpfr_get_d(t, MPFR_RNDN));
    }
    mpfr_clears(t, a, q, H, (mpfr_ptr)0);
}
END_TEST

/* (M, E) <- (M M2, M E2 + (M2 + E2) E + (M + E)(M2 + E2) r4) at HP (M2, E2 not M, E) */
static void mul_hp(mpfr_t M, mpfr_t E, mpfr_srcptr M2, mpfr_srcptr E2, double r4)
{
    mpfr_t a, b, t;
    mpfr_inits2(HP, a, b, t, (mpfr_ptr)0);
    mpfr_add(a, M, E, MPFR_RNDN);
    mpfr_add(b, M2, E2, MPFR_RNDN);
    mpfr_mul(t, a, b, MPFR_RNDN);
    mpfr_mul_d(t, t, r4, MPFR_RNDN);
    mpfr_mul(a, M, E2, MPFR_RNDN);
    mpfr_add(t, t, a, MPFR_RNDN);
    mpfr_mul(a, b, E, MPFR_RNDN);
    mpfr_add(E, t, a, MPFR_RNDN);
    mpfr_mul(M, M, M2, MPFR_RNDN);
    mpfr_clears(a, b, t, (mpfr_ptr)0);
}

/* err_mul, err_pow (against the exact recursion), norms, spec_err, ew, fft_consts, winf */
START_TEST(error_bounds)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b05), 0);
    mpfr_t xm, xe, t, a, b, bm, be;
    mpfr_inits2(HP, xm, xe, t, a, b, bm, be, (mpfr_ptr)0);
    for (int k = 0; k < NDRAW; k++) {
        /* err_mul: M' >= M M2, E' >= M E2 + (M2 + E2) E + (M + E)(M2 + E2) r4 */
        double M = lu(&rng, 0.01, 4), E = lu(&rng, 1e-30, 1), M2 = lu(&rng, 0.01, 4), E2 = lu(&rng, 1e-30, 1),
               r4 = lu(&rng, 1e-20, 0.5);
        mpfr_set_d(xm, M, MPFR_RNDN);
        mpfr_mul_d(xm, xm, M2, MPFR_RNDN);
        mpfr_set_d(a, M, MPFR_RNDN);
        mpfr_add_d(a, a, E, MPFR_RNDN);
        mpfr_set_d(b, M2, MPFR_RNDN);
        mpfr_add_d(b, b, E2, MPFR_RNDN);
        mpfr_mul(xe, a, b, MPFR_RNDN);
        mpfr_mul_d(xe, xe, r4, MPFR_RNDN);
        mpfr_mul_d(t, b, E, MPFR_RNDN);
        mpfr_add(xe, xe, t, MPFR_RNDN);
        mpfr_set_d(t, M, MPFR_RNDN);
        mpfr_mul_d(t, t, E2, MPFR_RNDN);
        mpfr_add(xe, xe, t, MPFR_RNDN);
        ffi_pdm_pld_err_mul(&M, &E, M2, E2, r4);
        ck_assert_msg(mpfr_cmp_d(xm, M) <= 0 && mpfr_cmp_d(xe, E) <= 0, "err_mul: (%.17g, %.17g) below", M, E);
        /* err_pow: the exact recursion along T's binary powering */
        const unsigned long T = 1 + frng_u53(&rng) % 12;
        double P = lu(&rng, 0.5, 1), Q = lu(&rng, 1e-30, 1e-3);
        mpfr_set_ui(xm, 1, MPFR_RNDN);
        mpfr_set_zero(xe, 1);
        mpfr_set_d(bm, P, MPFR_RNDN);
        mpfr_set_d(be, Q, MPFR_RNDN);
        for (unsigned long TT = T;;) {
            if (TT & 1) mul_hp(xm, xe, bm, be, r4);
            TT >>= 1;
            if (TT == 0) break;
            mpfr_set(a, bm, MPFR_RNDN);
            mpfr_set(b, be, MPFR_RNDN);
            mul_hp(bm, be, a, b, r4);
        }
        ffi_pdm_pld_err_pow(&P, &Q, T, r4);
        ck_assert_msg(mpfr_cmp_d(xm, P) <= 0 && mpfr_cmp_d(xe, Q) <= 0, "err_pow T %lu: (%.17g, %.17g) below (%.17g, %.17g)",
                      T, P, Q, mpfr_get_d(xm, MPFR_RNDN), mpfr_get_d(xe, MPFR_RNDN));
        /* norms */
        double x[8], M1, X2;
        const size_t len = 1 + frng_u53(&rng) % 8;
        mpfr_set_zero(a, 1);
        mpfr_set_zero(b, 1);
        for (size_t i = 0; i < len; i++) {
            x[i] = lu(&rng, 1e-6, 1);
            mpfr_add_d(a, a, x[i], MPFR_RNDN);
            mpfr_set_d(t, x[i], MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_add(b, b, t, MPFR_RNDN);
        }
        ffi_pdm_pld_norms(&M1, &X2, x, len);
        mpfr_set_d(t, X2, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(a, M1) <= 0 && mpfr_cmp(b, t) <= 0, "norms below");
        /* spec_err >= cn sq X2; ew >= E/sqrt n + cn (M + E/sqrt n) */
        const unsigned long L = 1 + frng_u53(&rng) % 19;
        const double cn = lu(&rng, 1e-15, 1e-3), X = lu(&rng, 1e-3, 1);
        const double E1 = ffi_pdm_pld_spec_err(cn, (size_t)1 << L, X);
        mpfr_sqrt_ui(t, 1ul << L, MPFR_RNDN);
        mpfr_mul_d(t, t, cn, MPFR_RNDN);
        mpfr_mul_d(t, t, X, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(t, E1) <= 0, "spec_err %.17g below", E1);
        const double Mw = lu(&rng, 0.01, 2), Ew = lu(&rng, 1e-30, 1e-3);
        const double EW = ffi_pdm_pld_ew(Mw, Ew, cn, (size_t)1 << L);
        mpfr_sqrt_ui(t, 1ul << L, MPFR_RNDN);
        mpfr_ui_div(t, 1, t, MPFR_RNDN);
        mpfr_mul_d(t, t, Ew, MPFR_RNDN);                /* E / sqrt n */
        mpfr_add_d(a, t, Mw, MPFR_RNDN);
        mpfr_mul_d(a, a, cn, MPFR_RNDN);
        mpfr_add(a, a, t, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(a, EW) <= 0, "ew %.17g below %.17g", EW, mpfr_get_d(a, MPFR_RNDN));
        /* winf >= 1 - prod (1 - w_g)^T_g */
        double wv[3];
        unsigned long Tg[3];
        const size_t ng = 1 + frng_u53(&rng) % 3;
        mpfr_set_ui(a, 1, MPFR_RNDN);
        for (size_t g = 0; g < ng; g++) {
            wv[g] = lu(&rng, 1e-12, 0.3);
            Tg[g] = 1 + frng_u53(&rng) % 300;
            mpfr_set_d(t, wv[g], MPFR_RNDN);
            mpfr_ui_sub(t, 1, t, MPFR_RNDN);
            mpfr_pow_ui(t, t, Tg[g], MPFR_RNDN);
            mpfr_mul(a, a, t, MPFR_RNDN);
        }
        mpfr_ui_sub(a, 1, a, MPFR_RNDN);
        const double W = ffi_pdm_pld_winf(wv, Tg, ng);
        ck_assert_msg(mpfr_cmp_d(a, W) <= 0, "winf %.17g below %.17g", W, mpfr_get_d(a, MPFR_RNDN));
    }
    /* fft_consts on every n = 2^L of ff_fedpdm_pld_rounds (L = 1..19): cn >= L eta / (1 - L eta), r4 >= 4u sqrt(n) */
    for (unsigned long L = 1; L <= 19; L++) {
        double c0, r0;
        ffi_pdm_pld_fft_consts(&c0, &r0, (size_t)1 << L);
        mpfr_set_ui_2exp(a, 1, -51, MPFR_RNDN);         /* 4u */
        mpfr_ui_sub(t, 1, a, MPFR_RNDN);
        mpfr_div(a, a, t, MPFR_RNDN);                   /* gamma_4 */
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_set_ui_2exp(b, 1, -39, MPFR_RNDN);
        mpfr_add(t, t, b, MPFR_RNDN);
        mpfr_mul(a, a, t, MPFR_RNDN);
        mpfr_add(a, a, b, MPFR_RNDN);
        mpfr_mul_ui(a, a, L, MPFR_RNDN);
        mpfr_ui_sub(t, 1, a, MPFR_RNDN);
        mpfr_div(a, a, t, MPFR_RNDN);
        mpfr_set_d(t, r0, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_mul_2si(t, t, 102 - (long)L, MPFR_RNDN);   /* r4^2 / (16 u^2 n) */
        ck_assert_msg(mpfr_cmp_d(a, c0) <= 0 && mpfr_cmp_ui(t, 1) >= 0, "n 2^%lu: cn %.17g r4 %.17g below", L, c0, r0);
    }
    mpfr_clears(xm, xe, t, a, b, bm, be, (mpfr_ptr)0);
}
END_TEST

#define OFFMAX 12

/* D_c = A_c - e^{(c-1)h} B_c at the left end of cell c, at HP (ref's fri_pdm_pld_eps_from) */
static void left_profile(mpfr_t D, const double *w, size_t OFF, double EW, double Winf, int dir, double h, size_t c)
{
    mpfr_t A, B, t;
    mpfr_inits2(HP, A, B, t, (mpfr_ptr)0);
    mpfr_set_d(A, Winf, MPFR_RNDN);
    mpfr_set_zero(B, 1);
    for (size_t i = OFF; i >= c; i--) {
        mpfr_add_d(A, A, w[OFF + i], MPFR_RNDN);
        mpfr_set_d(t, -h * (double)i, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul_d(t, t, w[OFF + i], MPFR_RNDN);
        mpfr_add(B, B, t, MPFR_RNDN);
    }
    mpfr_sqrt_ui(t, (unsigned long)(OFF - c + 1), MPFR_RNDN);
    mpfr_mul_d(t, t, EW, MPFR_RNDN);
    if (dir > 0) mpfr_add(A, A, t, MPFR_RNDN);
    else mpfr_sub(A, A, t, MPFR_RNDN);
    mpfr_set_d(t, h * (double)(c - 1), MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul(t, t, B, MPFR_RNDN);
    mpfr_sub(D, A, t, MPFR_RNDN);
    mpfr_clears(A, B, t, (mpfr_ptr)0);
}

/* the exact solve: i0 the largest c with D_c > delta, then log((A - delta)/B) clamped to the cell */
static void eps_exact(mpfr_t r, const double *w, size_t OFF, double EW, double Winf, int dir, double delta, double h)
{
    mpfr_t A, B, t, D;
    mpfr_inits2(HP, A, B, t, D, (mpfr_ptr)0);
    if (dir > 0 && Winf > delta) {
        mpfr_set_inf(r, 1);
        goto done;
    }
    size_t i0 = 0;
    for (size_t i = OFF; i >= 1 && i0 == 0; i--) {
        left_profile(D, w, OFF, EW, Winf, dir, h, i);
        if (mpfr_cmp_d(D, delta) > 0) i0 = i;
    }
    if (i0 == 0) {
        mpfr_set_zero(r, 1);
        goto done;
    }
    mpfr_set_d(A, Winf, MPFR_RNDN);
    mpfr_set_zero(B, 1);
    for (size_t i = OFF; i >= i0; i--) {
        mpfr_add_d(A, A, w[OFF + i], MPFR_RNDN);
        mpfr_set_d(t, -h * (double)i, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul_d(t, t, w[OFF + i], MPFR_RNDN);
        mpfr_add(B, B, t, MPFR_RNDN);
    }
    mpfr_sqrt_ui(t, (unsigned long)(OFF - i0 + 1), MPFR_RNDN);
    mpfr_mul_d(t, t, EW, MPFR_RNDN);
    if (dir > 0) mpfr_add(A, A, t, MPFR_RNDN);
    else mpfr_sub(A, A, t, MPFR_RNDN);
    mpfr_sub_d(t, A, delta, MPFR_RNDN);
    if (mpfr_sgn(B) > 0 && mpfr_sgn(t) > 0) {
        mpfr_div(t, t, B, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        if (mpfr_cmp_d(t, h * (double)i0) > 0) mpfr_set_d(t, h * (double)i0, MPFR_RNDN);
    } else {
        mpfr_set_d(t, h * (double)i0, MPFR_RNDN);
    }
    if (mpfr_cmp_d(t, h * (double)(i0 - 1)) < 0) mpfr_set_d(t, h * (double)(i0 - 1), MPFR_RNDN);
    mpfr_set(r, t, MPFR_RNDN);
done:
    mpfr_clears(A, B, t, D, (mpfr_ptr)0);
}

START_TEST(cell_solve)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x9b06), 0);
    double w[2 * OFFMAX + 1];
    mpfr_t x;
    mpfr_init2(x, HP);
    int nin = 0;
    for (int k = 0; k < 2 * NDRAW; k++) {
        const size_t OFF = 1 + frng_u53(&rng) % OFFMAX;
        const int dir = k % 2 ? 1 : -1;
        for (size_t i = 0; i <= 2 * OFF; i++) {
            w[i] = i <= OFF || frng_u53(&rng) % 8 == 0 ? 0 : lu(&rng, 1e-4, 0.3);
            if (i > OFF && frng_u53(&rng) % 6 == 0) w[i] = -w[i] / 64;
        }
        double EW = k % 3 == 0 ? 0 : lu(&rng, 1e-6, 1e-2), Winf = dir < 0 || k % 5 == 0 ? 0 : lu(&rng, 1e-5, 1e-2);
        double delta = lu(&rng, 1e-3, 0.2);
        const double h = ldexp(1, -(int)(frng_u53(&rng) % 4));
        if (k % 4 >= 2) {                               /* delta just on the far side of a cell's left end */
            left_profile(x, w, OFF, EW, Winf, dir, h, 1 + frng_u53(&rng) % OFF);
            if (mpfr_sgn(x) > 0) {
                const double d = mpfr_get_d(x, dir > 0 ? MPFR_RNDD : MPFR_RNDU), f = ldexp(1, -(int)(30 + frng_u53(&rng) % 22));
                delta = dir > 0 ? d * (1 - f) : d * (1 + f);
            }
        }
        const double out = ffi_pdm_pld_eps_from(w, OFF, EW, Winf, dir, delta, h);
        eps_exact(x, w, OFF, EW, Winf, dir, delta, h);
        nin += mpfr_sgn(x) > 0 && mpfr_number_p(x);
        ck_assert_msg(dir > 0 ? mpfr_cmp_d(x, out) <= 0 : mpfr_cmp_d(x, out) >= 0,
                      "draw %d (OFF %zu dir %d): eps %.17g vs exact %.17g", k, OFF, dir, out, mpfr_get_d(x, MPFR_RNDN));
    }
    ck_assert_int_ge(nin, NDRAW / 2);
    /* no mass, W_inf = delta: the lower profile is not above delta, 0 */
    for (size_t i = 0; i <= 8; i++) w[i] = 0;
    const double out = ffi_pdm_pld_eps_from(w, 4, 0, 0.0625, -1, 0.0625, 1);
    ck_assert_msg(out == 0, "lower eps at a tie %.17g, not 0", out);
    mpfr_clear(x);
}
END_TEST

/* the upper solve at the bottom of the normal range, where each pad's
 * 2^-1060 is of the order of the values: delta = 2^-1008, one cell of
 * mass m 2^-1060 (m = 1..8), W_inf = delta - j 2^-1060 (j = 0..40); among
 * these, a cell taken by the padded profile whose A_e - delta = -2^-1060
 * is padded up to 0 with C > 0 (W_inf = delta - 2^-1056, m = 4), so the
 * solve is skipped for hi: the result is a number in [0, h], above the
 * exact solve. */
START_TEST(cell_solve_tiny)
{
    const double delta = 0x1p-1008, h = 1;
    double w[3] = {0, 0, 0};
    mpfr_t x;
    mpfr_init2(x, HP);
    for (int j = 0; j <= 40; j++)
        for (int m = 1; m <= 8; m++) {
            const double Winf = delta - j * 0x1p-1060;
            w[2] = m * 0x1p-1060;
            const double out = ffi_pdm_pld_eps_from(w, 1, 0, Winf, 1, delta, h);
            eps_exact(x, w, 1, 0, Winf, 1, delta, h);
            ck_assert_msg(out >= 0 && out <= h && mpfr_cmp_d(x, out) <= 0,
                          "W_inf = delta - %d 2^-1060, mass %d 2^-1060: eps %.17g (exact %.17g)", j, m, out,
                          mpfr_get_d(x, MPFR_RNDN));
        }
    mpfr_clear(x);
}
END_TEST

Suite *suite_fedpdm_pld_fast_stages(void)
{
    Suite *s = suite_create("fedpdm_pld_fast_stages");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ctx_enclosed);
    tcase_add_test(tc, phi_bounds);
    tcase_add_test(tc, chord_masses);
    tcase_add_test(tc, cdf_bounds);
    tcase_add_test(tc, profile_thresholds);
    tcase_add_test(tc, grid_cells);
    tcase_add_test(tc, error_bounds);
    tcase_add_test(tc, cell_solve);
    tcase_add_test(tc, cell_solve_tiny);
    suite_add_tcase(s, tc);
    return s;
}
