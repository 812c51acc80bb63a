/* SPDX-License-Identifier: Apache-2.0 */
/* acct.c -- the privacy accountant of FedPDM-DP (paper 003), ref wing
 * (docs/FEDPDM.md, privacy accounting; contracts: fedref/fedpdm.h).
 *
 * Every returned epsilon is an upper bound on the true one: each operation
 * is rounded in the direction that makes the bound larger (all the
 * quantities are monotone in their arguments; the direction of each
 * rounding is written next to it), and the final rounding to the output's
 * precision is upward.
 *
 * fr_fedpdm_gauss_eps: the least eps >= 0 with delta(eps) <= delta, where
 *   delta(eps) = Phi(a/2 - eps/a) - e^eps Phi(-a/2 - eps/a), a = s/sigma
 *   (Balle & Wang 2018, Theorem 8; delta(.) is decreasing), by bisection on
 *   a certified enclosure of delta(eps) (Phi(x) = erfc(-x/sqrt2)/2, every
 *   operation rounded outward at working precision wp, wp doubled when a
 *   midpoint cannot be decided).  lo always has delta(lo) > delta, hi
 *   always has delta(hi) <= delta (certified), so the least eps lies in
 *   (lo, hi]; the loop stops when no p-bit number lies in (lo, RNDU(hi))
 *   (then RNDU(hi) is the least eps rounded up) or after enough steps
 *   (then RNDU(hi), at most one ulp above).  The second term of delta(eps)
 *   is e^eps Phi(-z), z = a/2 + eps/a, or (z >= 256) phi(x1) R(z) with the
 *   Mills ratio R enclosed by its continued fraction: no overflow of e^eps
 *   nor underflow of Phi(-z) for any s/sigma.
 * fr_fedpdm_compose: T rounds of one Gaussian release, total delta = delta:
 *   basic: eps_0 = gauss_eps(delta/T), T eps_0;
 *   advanced (Dwork-Roth Thm 3.20): eps_0 = gauss_eps(delta/(2T)),
 *   sqrt(2 T ln(2/delta)) eps_0 + T eps_0 (e^eps_0 - 1).
 * fr_fedpdm_rdp: the RDP accountant with K-of-N subsampling (Wang, Balle
 *   & Kasiviswanathan 2019, Theorem 9, eps(inf) = inf) and the conversion
 *   of Mironov 2017, Prop. 3. */
#include <stdlib.h>
#include <gmp.h>
#include "../internal.h"
#include "fedref/fedpdm.h"
#include "enclosures.h"
#include "acct.h"

#define ACCT_STEPS_MAX 4096     /* bisection steps before giving RNDU(hi) */

/* r = x * [clo, chi] rounded up (dir > 0) or down (dir < 0) -- the product
 * of x by a positive constant known to lie in [clo, chi]. */
static void mul_enc(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr clo, mpfr_srcptr chi, int dir)
{
    if (dir > 0)
        mpfr_mul(r, x, mpfr_sgn(x) >= 0 ? chi : clo, MPFR_RNDU);
    else
        mpfr_mul(r, x, mpfr_sgn(x) >= 0 ? clo : chi, MPFR_RNDD);
}

/* Phi(x) bounded: dir > 0 an upper bound, dir < 0 a lower bound, for x
 * known to be <= xhi (dir > 0) or >= xlo (dir < 0) -- Phi increasing.
 * Phi(x) = erfc(-x / sqrt2) / 2 = erfc(-x * r2) / 2, r2 = 1/sqrt2 in
 * [r2lo, r2hi]; erfc decreasing. */
static void phi_bound(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr r2lo, mpfr_srcptr r2hi, int dir,
                      mpfr_prec_t wp)
{
    mpfr_t y;
    mpfr_init2(y, wp);
    /* y = x r2 bounded in direction dir, then erfc(-y) in direction dir */
    mul_enc(y, x, r2lo, r2hi, dir);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_erfc(r, y, dir > 0 ? MPFR_RNDU : MPFR_RNDD);
    mpfr_div_2ui(r, r, 1, dir > 0 ? MPFR_RNDU : MPFR_RNDD);      /* inexact on underflow only */
    mpfr_clear(y);
}

#define MILLS_Z0 256            /* z >= MILLS_Z0: the second term by (M) */
#define MILLS_N_MAX 4096         /* continued-fraction depth cap */

/* (M) [rl, ru] contains the Mills ratio R(z) = Phi(-z)/phi(z) for every z
 * in [zl, zu] (0 < zl): Laplace's continued fraction R(z) = 1/(z + 1/(z
 * + 2/(z + 3/(z + ...)))) converges for z > 0 and each tail t_k =
 * (k-1)/(z + t_{k+1}) is positive, so t_k lies in (0, (k-1)/z]; from
 * [0, +Inf] at depth n + 1 (the first level gives [0, (n-1)/zl]) each
 * level is a decreasing map of z and of the tail, bounded outward.  R
 * decreases in z.  Depth doubled until the width is 2^-(wp-4) relative. */
void fri_pdm_mills_encl(mpfr_ptr rl, mpfr_ptr ru, mpfr_srcptr zl, mpfr_srcptr zu, mpfr_prec_t wp)
{
    mpfr_t L, U, t, w;
    mpfr_inits2(wp, L, U, t, w, (mpfr_ptr)0);
    for (unsigned long n = 32;; n *= 2) {
        mpfr_set_zero(L, 1);
        mpfr_set_inf(U, 1);
        for (unsigned long k = n; k >= 2; k--) {
            mpfr_add(t, zu, U, MPFR_RNDU);
            mpfr_add(w, zl, L, MPFR_RNDD);
            mpfr_ui_div(L, k - 1, t, MPFR_RNDD);          /* t_k lower */
            mpfr_ui_div(U, k - 1, w, MPFR_RNDU);          /* t_k upper */
        }
        mpfr_add(t, zu, U, MPFR_RNDU);
        mpfr_add(w, zl, L, MPFR_RNDD);
        mpfr_ui_div(rl, 1, t, MPFR_RNDD);
        mpfr_ui_div(ru, 1, w, MPFR_RNDU);
        mpfr_sub(t, ru, rl, MPFR_RNDU);
        mpfr_div_2ui(w, ru, (unsigned long)(wp > 8 ? wp - 4 : 4), MPFR_RNDD);
        if (mpfr_lessequal_p(t, w) || 2 * n > MILLS_N_MAX)
            break;
    }
    mpfr_clears(L, U, t, w, (mpfr_ptr)0);
}

/* the ranges of z = a/2 + eps/a and x1 = a/2 - eps/a over a in [alo, ahi]
 * (0 < alo, eps >= 0), at the outputs' precision (that of zl): zl =
 * alo/2 + eps/ahi and zu = ahi/2 + eps/alo bound z (not monotone in a);
 * x1 increases with a, so x1l = x1(alo) and x1u = x1(ahi), each rounded
 * outward. */
void fri_pdm_mills_args(mpfr_ptr zl, mpfr_ptr zu, mpfr_ptr x1l, mpfr_ptr x1u, mpfr_srcptr eps,
                        mpfr_srcptr alo, mpfr_srcptr ahi)
{
    mpfr_t h, q;
    mpfr_inits2(mpfr_get_prec(zl), h, q, (mpfr_ptr)0);
    mpfr_div_2ui(h, alo, 1, MPFR_RNDD);
    mpfr_div(q, eps, ahi, MPFR_RNDD);
    mpfr_add(zl, h, q, MPFR_RNDD);                         /* z lower */
    mpfr_div_2ui(h, ahi, 1, MPFR_RNDU);
    mpfr_div(q, eps, alo, MPFR_RNDU);
    mpfr_add(zu, h, q, MPFR_RNDU);                         /* z upper */
    mpfr_div(q, eps, ahi, MPFR_RNDD);
    mpfr_sub(x1u, h, q, MPFR_RNDU);                        /* x1 upper (a up) */
    mpfr_div_2ui(h, alo, 1, MPFR_RNDD);
    mpfr_div(q, eps, alo, MPFR_RNDU);
    mpfr_sub(x1l, h, q, MPFR_RNDD);                        /* x1 lower (a down) */
    mpfr_clears(h, q, (mpfr_ptr)0);
}

/* [dl, du] encloses delta(eps) = Phi(a/2 - eps/a) - e^eps Phi(-a/2 - eps/a)
 * with a in [alo, ahi] (a > 0).  When z = a/2 + eps/a >= MILLS_Z0 the
 * second term is phi(x1) R(z), x1 = a/2 - eps/a (e^eps phi(-z) = phi(x1):
 * z^2 - x1^2 = 2 eps), which neither overflows (e^eps) nor underflows
 * (Phi(-z)) in MPFR's exponent range. */
void fri_pdm_delta_eps_encl(mpfr_ptr dl, mpfr_ptr du, mpfr_srcptr eps, mpfr_srcptr alo,
                            mpfr_srcptr ahi, mpfr_srcptr r2lo, mpfr_srcptr r2hi, mpfr_prec_t wp)
{
    mpfr_t h, q, x, p1, p2, e, zl, zu, x1l, x1u, rl, ru;
    mpfr_inits2(wp, h, q, x, p1, p2, e, zl, zu, x1l, x1u, rl, ru, (mpfr_ptr)0);
    fri_pdm_mills_args(zl, zu, x1l, x1u, eps, alo, ahi);
    const int mills = mpfr_cmp_ui(zl, MILLS_Z0) >= 0;
    if (mills)
        fri_pdm_mills_encl(rl, ru, zl, zu, wp);
    for (int dir = 1; dir >= -1; dir -= 2) {
        const mpfr_rnd_t up = dir > 0 ? MPFR_RNDU : MPFR_RNDD, dn = dir > 0 ? MPFR_RNDD : MPFR_RNDU;
        /* first term in direction dir: x1 = a/2 - eps/a, larger with a larger */
        mpfr_div_2ui(h, dir > 0 ? ahi : alo, 1, up);
        mpfr_div(q, eps, dir > 0 ? ahi : alo, dn);
        mpfr_sub(x, h, q, up);
        phi_bound(p1, x, r2lo, r2hi, dir, wp);
        if (mills) {
            /* second term against dir: phi(x1) R(z), phi(x) = e^{-x^2/2}/sqrt(2 pi) */
            if (dir > 0) {                                 /* |x1| upper, R lower */
                mpfr_abs(h, x1l, MPFR_RNDN);
                mpfr_abs(q, x1u, MPFR_RNDN);
                mpfr_max(h, h, q, MPFR_RNDN);
            } else if (mpfr_sgn(x1l) <= 0 && mpfr_sgn(x1u) >= 0) {
                mpfr_set_zero(h, 1);                       /* |x1| lower */
            } else {
                mpfr_abs(h, x1l, MPFR_RNDN);
                mpfr_abs(q, x1u, MPFR_RNDN);
                mpfr_min(h, h, q, MPFR_RNDN);
            }
            mpfr_sqr(h, h, up);
            mpfr_div_2ui(h, h, 1, up);
            mpfr_neg(h, h, MPFR_RNDN);
            mpfr_exp(p2, h, dn);                           /* e^{-x1^2/2} against dir */
            mpfr_const_pi(q, up);
            mpfr_mul_2ui(q, q, 1, up);
            mpfr_sqrt(q, q, up);                           /* sqrt(2 pi) toward dir */
            mpfr_div(p2, p2, q, dn);
            mpfr_mul(p2, p2, dir > 0 ? rl : ru, dn);
        } else {
            /* second term in the opposite direction: x2 = -a/2 - eps/a */
            mpfr_div_2ui(h, dir > 0 ? ahi : alo, 1, up);     /* a/2 toward dir: -a/2 away */
            mpfr_div(q, eps, dir > 0 ? alo : ahi, up);       /* eps/a toward dir */
            mpfr_add(x, h, q, up);
            mpfr_neg(x, x, MPFR_RNDN);                        /* x2 bounded against dir */
            phi_bound(p2, x, r2lo, r2hi, -dir, wp);
            mpfr_exp(e, eps, dn);
            mpfr_mul(p2, p2, e, dn);
        }
        mpfr_sub(dir > 0 ? du : dl, p1, p2, up);
    }
    mpfr_clears(h, q, x, p1, p2, e, zl, zu, x1l, x1u, rl, ru, (mpfr_ptr)0);
}

static int gauss_eps_core(mpfr_ptr out, mpfr_srcptr sigma, mpfr_srcptr s, mpfr_srcptr delta);

/* 1: delta(e) <= delta certified, -1: delta(e) > delta certified, 0: undecided. */
static int eps_decide(mpfr_srcptr e, mpfr_srcptr delta, mpfr_srcptr alo, mpfr_srcptr ahi,
                      mpfr_srcptr r2lo, mpfr_srcptr r2hi, mpfr_prec_t wp)
{
    mpfr_t dl, du;
    mpfr_inits2(wp, dl, du, (mpfr_ptr)0);
    fri_pdm_delta_eps_encl(dl, du, e, alo, ahi, r2lo, r2hi, wp);
    int r = mpfr_lessequal_p(du, delta) ? 1 : mpfr_greater_p(dl, delta) ? -1 : 0;
    mpfr_clears(dl, du, (mpfr_ptr)0);
    return r;
}

/* One Newton step on h(e) = ln delta(e) - ln delta at the precision of x,
 * with d delta / d eps = -e^eps Phi(-a/2 - eps/a) (the terms in phi cancel
 * by e^eps phi(-a/2 - eps/a) = phi(a/2 - eps/a)).  An estimate only.
 * Returns 0 if the step is not usable. */
static int eps_newton(mpfr_ptr x, mpfr_srcptr delta, mpfr_srcptr alo, mpfr_srcptr ahi,
                      mpfr_srcptr r2lo, mpfr_srcptr r2hi)
{
    mpfr_prec_t w = mpfr_get_prec(x);
    mpfr_t dl, du, f, t, q;
    mpfr_inits2(w, dl, du, f, t, q, (mpfr_ptr)0);
    fri_pdm_delta_eps_encl(dl, du, x, alo, ahi, r2lo, r2hi, w);
    mpfr_add(f, dl, du, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);                 /* delta(x) */
    int ok = mpfr_sgn(f) > 0;
    if (ok) {
        mpfr_div_2ui(t, ahi, 1, MPFR_RNDN);
        mpfr_div(q, x, ahi, MPFR_RNDN);
        mpfr_add(t, t, q, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);                    /* -a/2 - x/a */
        phi_bound(q, t, r2lo, r2hi, 1, w);
        mpfr_exp(t, x, MPFR_RNDN);
        mpfr_mul(q, q, t, MPFR_RNDN);                 /* -delta'(x) */
        mpfr_log(t, f, MPFR_RNDN);
        mpfr_log(dl, delta, MPFR_RNDN);
        mpfr_sub(t, t, dl, MPFR_RNDN);                /* h(x) */
        mpfr_mul(t, t, f, MPFR_RNDN);
        mpfr_div(t, t, q, MPFR_RNDN);
        mpfr_add(t, x, t, MPFR_RNDN);                 /* x - h/h' */
        ok = mpfr_number_p(t) && mpfr_sgn(t) > 0;
        if (ok) mpfr_set(x, t, MPFR_RNDN);
    }
    mpfr_clears(dl, du, f, t, q, (mpfr_ptr)0);
    return ok;
}

/* For p > 96 (Ziv's way: a cheap estimate, then a proof): narrow the
 * certified bracket (lo, hi] of eps* (precision wp = p + 32) before the
 * bisection: the 64-bit result e64 and Newton steps from it at doubling
 * precision give an estimate u; the bracket ends u -+ g (g = 2^-(wp-8)
 * relative, doubled on each try) are taken only when certified by a
 * decision, so the estimate changes the cost (a handful of decisions
 * instead of about p), not the result. */
static void eps_narrow(mpfr_ptr lo, mpfr_ptr hi, int *lo_zero, mpfr_srcptr sigma,
                       mpfr_srcptr s, mpfr_srcptr delta, mpfr_srcptr alo, mpfr_srcptr ahi,
                       mpfr_srcptr r2lo, mpfr_srcptr r2hi, mpfr_prec_t wp)
{
    mpfr_t e, u, c, g;
    mpfr_init2(e, 64);
    if (gauss_eps_core(e, sigma, s, delta) != FR_OK || mpfr_zero_p(e)) {
        mpfr_clear(e);
        return;
    }
    mpfr_inits2(wp, u, c, g, (mpfr_ptr)0);
    mpfr_set(u, e, MPFR_RNDN);
    mpfr_prec_round(u, 64, MPFR_RNDN);
    for (mpfr_prec_t w = 128;; w = 2 * w < wp ? 2 * w : wp) {
        mpfr_prec_round(u, w, MPFR_RNDN);
        if (!eps_newton(u, delta, alo, ahi, r2lo, r2hi) || w >= wp) break;
    }
    mpfr_prec_round(u, wp, MPFR_RNDN);
    for (int side = 1; side >= -1; side -= 2) {       /* hi, then lo */
        mpfr_abs(g, u, MPFR_RNDN);
        mpfr_div_2ui(g, g, (unsigned long)wp - 8, MPFR_RNDN);
        for (int k = 0; k < 48; k++, mpfr_mul_2ui(g, g, 1, MPFR_RNDN)) {
            if (side > 0) mpfr_add(c, u, g, MPFR_RNDU); else mpfr_sub(c, u, g, MPFR_RNDD);
            if (!(mpfr_less_p(lo, c) && mpfr_less_p(c, hi)))
                break;
            int r = eps_decide(c, delta, alo, ahi, r2lo, r2hi, wp);
            if (r == side) {
                mpfr_set(side > 0 ? hi : lo, c, MPFR_RNDN);
                if (side < 0) *lo_zero = 0;
                break;
            }
            if (r == -side) {                        /* c is on the other side */
                mpfr_set(side > 0 ? lo : hi, c, MPFR_RNDN);
                if (side > 0) *lo_zero = 0;
            }
        }
    }
    mpfr_clears(e, u, c, g, (mpfr_ptr)0);
}

/* The core of fr_fedpdm_gauss_eps on valid inputs, result in out (its
 * precision), rounded up.  s > 0. */
static int gauss_eps_core(mpfr_ptr out, mpfr_srcptr sigma, mpfr_srcptr s, mpfr_srcptr delta)
{
    return fri_pdm_gauss_eps_wp(out, sigma, s, delta, mpfr_get_prec(out) + 32);
}

/* enclosures.h: gauss_eps_core from working precision wp0 */
int fri_pdm_gauss_eps_wp(mpfr_ptr out, mpfr_srcptr sigma, mpfr_srcptr s, mpfr_srcptr delta,
                         mpfr_prec_t wp0)
{
    const mpfr_prec_t p = mpfr_get_prec(out);
    int st = FR_OK;
    mpfr_prec_t wp = wp0;
    const mpfr_prec_t wpmax = 8 * (p + 32) + 256;
    mpfr_t alo, ahi, r2lo, r2hi, lo, hi, m, dl, du, rl, rh;
    mpfr_inits2(wp, alo, ahi, r2lo, r2hi, lo, hi, m, dl, du, (mpfr_ptr)0);
    mpfr_inits2(p, rl, rh, (mpfr_ptr)0);
    int lo_zero = 1;                          /* lo = 0 not yet certified > */
    mpfr_set_zero(lo, 1);
    mpfr_set_ui(hi, 1, MPFR_RNDN);
    for (int steps = 0;; steps++) {
        mpfr_div(alo, s, sigma, MPFR_RNDD);
        mpfr_div(ahi, s, sigma, MPFR_RNDU);
        mpfr_set_ui(r2lo, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2lo, r2lo, MPFR_RNDD);
        mpfr_set_ui(r2hi, 2, MPFR_RNDN);
        mpfr_rec_sqrt(r2hi, r2hi, MPFR_RNDU);
        if (steps == 0) {
            /* eps = 0 suffices? */
            fri_pdm_delta_eps_encl(dl, du, lo, alo, ahi, r2lo, r2hi, wp);
            if (mpfr_lessequal_p(du, delta)) {
                mpfr_set_zero(out, 1);
                break;
            }
            /* grow hi until delta(hi) <= delta is certified, from 2^(2E-3)
             * <= a^2/2 < eps* when a >= 2^16 (a in [2^(E-1), 2^E)) */
            if (mpfr_get_exp(alo) > 16)
                mpfr_set_ui_2exp(hi, 1, 2 * mpfr_get_exp(alo) - 3, MPFR_RNDN);
            for (;;) {
                fri_pdm_delta_eps_encl(dl, du, hi, alo, ahi, r2lo, r2hi, wp);
                if (mpfr_lessequal_p(du, delta))
                    break;
                if (mpfr_greater_p(dl, delta)) {
                    mpfr_set(lo, hi, MPFR_RNDN);
                    lo_zero = 0;
                }
                mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
                if (mpfr_inf_p(hi))                /* beyond MPFR's range: +Inf bounds it */
                    break;
            }
            if (mpfr_inf_p(hi)) {
                mpfr_set_inf(out, 1);
                break;
            }
            if (p > 96)
                eps_narrow(lo, hi, &lo_zero, sigma, s, delta, alo, ahi, r2lo, r2hi, wp);
        }
        mpfr_set(rh, hi, MPFR_RNDU);
        mpfr_set(rl, rh, MPFR_RNDN);
        mpfr_nextbelow(rl);                   /* no p-bit number in (lo, rh) */
        if ((!lo_zero && mpfr_lessequal_p(rl, lo)) || steps > ACCT_STEPS_MAX) {
            mpfr_set(out, rh, MPFR_RNDN);     /* same precision: exact */
            break;
        }
        mpfr_add(m, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(m, m, 1, MPFR_RNDN);
        if (mpfr_less_p(rl, hi)) {
            /* rl the only p-bit number in (lo, rh): decide it (a grid step:
             * no bisection down to a root that sits just above it) */
            mpfr_set(m, rl, MPFR_RNDN);
            mpfr_nextbelow(m);
            if (!lo_zero && mpfr_lessequal_p(m, lo))
                mpfr_set(m, rl, MPFR_RNDN);               /* exact: wp > p */
            else {
                mpfr_add(m, lo, hi, MPFR_RNDN);
                mpfr_div_2ui(m, m, 1, MPFR_RNDN);
            }
        }
        if (mpfr_equal_p(m, lo) || mpfr_equal_p(m, hi)) {   /* no room: more bits */
            if (wp > wpmax) {
                mpfr_set(out, rh, MPFR_RNDN);
                break;
            }
            wp *= 2;
            mpfr_prec_round(lo, wp, MPFR_RNDN);           /* exact: more bits */
            mpfr_prec_round(hi, wp, MPFR_RNDN);
            mpfr_set_prec(m, wp);
            mpfr_set_prec(alo, wp); mpfr_set_prec(ahi, wp);
            mpfr_set_prec(r2lo, wp); mpfr_set_prec(r2hi, wp);
            mpfr_set_prec(dl, wp); mpfr_set_prec(du, wp);
            continue;
        }
        fri_pdm_delta_eps_encl(dl, du, m, alo, ahi, r2lo, r2hi, wp);
        if (mpfr_lessequal_p(du, delta)) {                /* certified: delta(m) <= delta */
            mpfr_set(hi, m, MPFR_RNDN);
        } else if (mpfr_greater_p(dl, delta)) {
            mpfr_set(lo, m, MPFR_RNDN);
            lo_zero = 0;
        } else {                                           /* undecided: more bits */
            if (wp > wpmax) {
                mpfr_set(out, rh, MPFR_RNDN);
                break;
            }
            wp *= 2;
            mpfr_prec_round(lo, wp, MPFR_RNDN);
            mpfr_prec_round(hi, wp, MPFR_RNDN);
            mpfr_set_prec(m, wp);
            mpfr_set_prec(alo, wp); mpfr_set_prec(ahi, wp);
            mpfr_set_prec(r2lo, wp); mpfr_set_prec(r2hi, wp);
            mpfr_set_prec(dl, wp); mpfr_set_prec(du, wp);
        }
    }
    mpfr_clears(alo, ahi, r2lo, r2hi, lo, hi, m, dl, du, rl, rh, (mpfr_ptr)0);
    return st;
}

/* sigma > 0, s >= 0, 0 < delta < 1, all finite; eps the output. */
static int gauss_args(mpfr_srcptr sigma, mpfr_srcptr s, mpfr_srcptr delta)
{
    if (!mpfr_number_p(sigma) || !mpfr_number_p(s) || !mpfr_number_p(delta))
        return FR_ENONFINITE;
    if (mpfr_sgn(sigma) <= 0 || mpfr_sgn(s) < 0 || mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0)
        return FR_EDOM;
    return FR_OK;
}

int fr_fedpdm_gauss_eps(mpfr_t eps, const mpfr_t sigma, const mpfr_t s, const mpfr_t delta)
{
    if (eps == NULL || sigma == NULL || s == NULL || delta == NULL)
        return FR_ENULL;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    mpfr_t r;
    mpfr_init2(r, mpfr_get_prec(eps));
    if (mpfr_zero_p(s))
        mpfr_set_zero(r, 1);
    else
        st = gauss_eps_core(r, sigma, s, delta);
    if (st == FR_OK)
        mpfr_set(eps, r, MPFR_RNDN);
    mpfr_clear(r);
    return st;
}

int fr_fedpdm_compose(mpfr_t basic, mpfr_t adv, const mpfr_t sigma, const mpfr_t s,
                      unsigned long T, const mpfr_t delta)
{
    if (basic == NULL || adv == NULL || sigma == NULL || s == NULL || delta == NULL)
        return FR_ENULL;
    if (T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    if (basic == adv)
        return FR_EDOM;
    const mpfr_prec_t pb = mpfr_get_prec(basic), pa = mpfr_get_prec(adv);
    return fri_pdm_compose_wp(basic, adv, sigma, s, T, delta, (pb > pa ? pb : pa) + 64);
}

/* ln(1/x) rounded up (precision of L): -ln x, ln x rounded down */
static void ln_inv_up(mpfr_ptr L, mpfr_srcptr x)
{
    mpfr_log(L, x, MPFR_RNDD);
    mpfr_neg(L, L, MPFR_RNDN);
}

/* enclosures.h */
void fri_pdm_ln_inv_up(mpfr_ptr L, mpfr_srcptr x)
{
    ln_inv_up(L, x);
}

/* enclosures.h: d0 = delta/k rounded down */
void fri_pdm_round_delta(mpfr_ptr d0, mpfr_srcptr delta, unsigned long k)
{
    mpfr_div_ui(d0, delta, k, MPFR_RNDD);
}

/* enclosures.h: a >= sqrt(2T ln(1/delta')) e0 + T e0 (e^e0 - 1), delta' =
 * delta/2 rounded down, every step rounded up at wp, the sum at a's
 * precision */
void fri_pdm_adv_eps(mpfr_ptr a, mpfr_srcptr e0, mpfr_srcptr delta, unsigned long T, mpfr_prec_t wp)
{
    mpfr_t t, u;
    mpfr_inits2(wp, t, u, (mpfr_ptr)0);
    mpfr_div_2ui(u, delta, 1, MPFR_RNDD);       /* delta' = delta/2, down (exact unless delta has more bits than u) */
    ln_inv_up(t, u);                            /* ln(1/delta') rounded up */
    mpfr_mul_ui(t, t, 2 * T, MPFR_RNDU);
    mpfr_sqrt(t, t, MPFR_RNDU);
    mpfr_mul(t, t, e0, MPFR_RNDU);              /* sqrt(2T ln(1/delta')) eps_0 */
    mpfr_expm1(u, e0, MPFR_RNDU);
    mpfr_mul(u, u, e0, MPFR_RNDU);
    mpfr_mul_ui(u, u, T, MPFR_RNDU);            /* T eps_0 (e^eps_0 - 1) */
    mpfr_add(a, t, u, MPFR_RNDU);
    mpfr_clears(t, u, (mpfr_ptr)0);
}

/* enclosures.h */
int fri_pdm_compose_wp(mpfr_ptr basic, mpfr_ptr adv, mpfr_srcptr sigma, mpfr_srcptr s,
                       unsigned long T, mpfr_srcptr delta, mpfr_prec_t wp)
{
    const mpfr_prec_t pb = mpfr_get_prec(basic), pa = mpfr_get_prec(adv);
    int st;
    mpfr_t d0, e0, b, a;
    mpfr_inits2(wp, d0, e0, (mpfr_ptr)0);
    mpfr_init2(b, pb);
    mpfr_init2(a, pa);
    /* basic: per-round delta/T rounded down (a smaller delta_0 only raises
     * eps_0, and T delta_0 <= delta) */
    fri_pdm_round_delta(d0, delta, T);
    st = mpfr_zero_p(s) ? (mpfr_set_zero(e0, 1), FR_OK) : gauss_eps_core(e0, sigma, s, d0);
    if (st == FR_OK)
        mpfr_mul_ui(b, e0, T, MPFR_RNDU);
    /* advanced: delta' = delta/2 rounded down, delta_0 = delta/(2T) down */
    if (st == FR_OK) {
        fri_pdm_round_delta(d0, delta, 2 * T);
        st = mpfr_zero_p(s) ? (mpfr_set_zero(e0, 1), FR_OK) : gauss_eps_core(e0, sigma, s, d0);
    }
    if (st == FR_OK) {
        fri_pdm_adv_eps(a, e0, delta, T, wp);
        mpfr_set(basic, b, MPFR_RNDN);
        mpfr_set(adv, a, MPFR_RNDN);
    }
    mpfr_clears(d0, e0, b, a, (mpfr_ptr)0);
    return st;
}

/* S = g^2 C(alpha,2) min{4(e^{2mu} - 1), 2 e^{2mu}}
 *     + sum_{j=3}^{alpha} 2 g^j C(alpha,j) e^{j(j-1) mu}
 * rounded up at the precision wp of acc, mu >= 0 and 0 < g <= 1 upper bounds:
 * e^{j(j-1) mu} = E_j by E_j = E_{j-1} P_j, P_j = P_{j-1} e^{2mu} =
 * e^{2(j-1) mu} (products of positive upper bounds rounded up: upper
 * bounds); C(alpha, j) exact (GMP), and so is E_j C(alpha, j), held at wp +
 * alpha bits. */
static void rdp_sum(mpfr_ptr acc, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g, mpfr_prec_t wp,
                    mpz_ptr bin)
{
    mpfr_t a, b, t, gj, e2, P, E, Ec;
    mpfr_inits2(wp, a, b, t, gj, e2, P, E, (mpfr_ptr)0);
    mpfr_init2(Ec, wp + (mpfr_prec_t)alpha);        /* E_j C(alpha, j) held exactly */
    /* j = 2 */
    mpfr_mul_2ui(t, mu, 1, MPFR_RNDU);               /* 2 mu */
    mpfr_expm1(a, t, MPFR_RNDU);
    mpfr_mul_2ui(a, a, 2, MPFR_RNDU);                /* 4 (e^{2mu} - 1) */
    mpfr_exp(e2, t, MPFR_RNDU);                      /* e^{2mu} */
    mpfr_mul_2ui(b, e2, 1, MPFR_RNDU);               /* 2 e^{2mu} */
    if (mpfr_less_p(b, a))
        mpfr_set(a, b, MPFR_RNDN);
    mpfr_sqr(gj, g, MPFR_RNDU);                      /* g^2 */
    mpz_bin_uiui(bin, alpha, 2);
    mpfr_mul_z(a, a, bin, MPFR_RNDU);
    mpfr_mul(acc, a, gj, MPFR_RNDU);
    mpfr_set(P, e2, MPFR_RNDU);                      /* P_2 = e^{2mu} */
    mpfr_set(E, e2, MPFR_RNDU);                      /* E_2 = e^{2mu} */
    for (unsigned long j = 3; j <= alpha; j++) {
        mpfr_mul(gj, gj, g, MPFR_RNDU);              /* g^j */
        mpz_mul_ui(bin, bin, alpha - j + 1);
        mpz_divexact_ui(bin, bin, j);                /* C(alpha, j) */
        mpfr_mul(P, P, e2, MPFR_RNDU);               /* e^{2(j-1) mu} */
        mpfr_mul(E, E, P, MPFR_RNDU);                /* e^{j(j-1) mu} */
        mpfr_mul_z(Ec, E, bin, MPFR_RNDU);           /* exact: C(alpha, j) < 2^alpha */
        mpfr_mul(t, Ec, gj, MPFR_RNDU);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDU);
        mpfr_add(acc, acc, t, MPFR_RNDU);
    }
    mpfr_clears(a, b, t, gj, e2, P, E, Ec, (mpfr_ptr)0);
}

/* r = ln(1 + S) / (alpha - 1), both steps rounded up (precision of r) */
static void rdp_log(mpfr_ptr r, mpfr_srcptr S, unsigned long alpha)
{
    mpfr_log1p(r, S, MPFR_RNDU);
    mpfr_div_ui(r, r, alpha - 1, MPFR_RNDU);
}

/* The per-round RDP of order alpha of the K-of-N subsampled Gaussian
 * mechanism, rounded up at precision wp:
 *   min{ alpha mu, 1/(alpha-1) ln(1 + S) }     (S: rdp_sum)
 * with g = K/N (the second only when K < N), mu an upper bound of
 * s^2/(2 sigma^2), g an upper bound of K/N. */
static void rdp_round(mpfr_ptr r, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g, int sub,
                      mpfr_prec_t wp, mpz_ptr bin)
{
    mpfr_t acc;
    mpfr_init2(acc, wp);
    mpfr_mul_ui(r, mu, alpha, MPFR_RNDU);                /* alpha mu */
    if (sub) {
        rdp_sum(acc, alpha, mu, g, wp, bin);
        rdp_log(acc, acc, alpha);
        if (mpfr_less_p(acc, r))
            mpfr_set(r, acc, MPFR_RNDN);
    }
    mpfr_clear(acc);
}

/* enclosures.h */
void fri_pdm_rdp_sum(mpfr_ptr S, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g)
{
    mpz_t bin;
    mpz_init(bin);
    rdp_sum(S, alpha, mu, g, mpfr_get_prec(S), bin);
    mpz_clear(bin);
}

/* enclosures.h */
void fri_pdm_rdp_log(mpfr_ptr r, mpfr_srcptr S, unsigned long alpha)
{
    rdp_log(r, S, alpha);
}

/* g = K/N rounded up (precision of g) */
static void ratio_up(mpfr_ptr g, unsigned long K, unsigned long N)
{
    mpfr_set_ui(g, K, MPFR_RNDU);
    mpfr_div_ui(g, g, N, MPFR_RNDU);
}

/* enclosures.h */
void fri_pdm_ratio_up(mpfr_ptr g, unsigned long K, unsigned long N)
{
    ratio_up(g, K, N);
}

/* r = T e + L/(alpha - 1), every step rounded up (precision of r, t) */
static void rdp_conv(mpfr_ptr r, mpfr_srcptr e, unsigned long T, mpfr_srcptr L, unsigned long alpha,
                     mpfr_ptr t)
{
    mpfr_mul_ui(r, e, T, MPFR_RNDU);
    mpfr_div_ui(t, L, alpha - 1, MPFR_RNDU);
    mpfr_add(r, r, t, MPFR_RNDU);
}

/* enclosures.h */
void fri_pdm_rdp_conv(mpfr_ptr r, mpfr_srcptr e, unsigned long T, mpfr_srcptr L, unsigned long alpha)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(r));
    rdp_conv(r, e, T, L, alpha, t);
    mpfr_clear(t);
}

/* acc += n r, both steps rounded up (r overwritten) */
static void rdp_run(mpfr_ptr acc, mpfr_ptr r, unsigned long n)
{
    mpfr_mul_ui(r, r, n, MPFR_RNDU);
    mpfr_add(acc, acc, r, MPFR_RNDU);
}

/* enclosures.h */
void fri_pdm_rdp_run(mpfr_ptr acc, mpfr_ptr r, unsigned long n)
{
    rdp_run(acc, r, n);
}

/* mu = s^2 / (2 sigma^2) rounded up (precision of mu); tmp scratch. */
static void mu_up(mpfr_ptr mu, mpfr_srcptr sigma, mpfr_srcptr s, mpfr_ptr tmp)
{
    mpfr_sqr(mu, s, MPFR_RNDU);
    mpfr_sqr(tmp, sigma, MPFR_RNDD);
    mpfr_div(mu, mu, tmp, MPFR_RNDU);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDU);
}

/* enclosures.h */
int fri_pdm_mu_up(mpfr_ptr mu, mpfr_srcptr sigma, mpfr_srcptr s)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(mu));
    mu_up(mu, sigma, s, t);
    mpfr_clear(t);
    return FR_OK;
}

/* enclosures.h */
int fri_pdm_rdp_round(mpfr_ptr r, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g, int sub,
                      mpfr_prec_t wp)
{
    mpz_t bin;
    mpz_init(bin);
    rdp_round(r, alpha, mu, g, sub, wp, bin);
    mpz_clear(bin);
    return FR_OK;
}

int fr_fedpdm_rdp(mpfr_t eps, unsigned long *alpha, const mpfr_t sigma, const mpfr_t s,
                  unsigned long K, unsigned long N, unsigned long T, const mpfr_t delta,
                  unsigned long alpha_max)
{
    if (eps == NULL || alpha == NULL || sigma == NULL || s == NULL || delta == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    if (K == 0 || K > N || alpha_max < 2 || alpha_max > ACCT_ALPHA_MAX)
        return FR_EDOM;
    return fri_pdm_rdp_wp(eps, alpha, sigma, s, K, N, T, delta, alpha_max, mpfr_get_prec(eps) + 64);
}

/* enclosures.h */
int fri_pdm_rdp_wp(mpfr_ptr eps, unsigned long *alpha, mpfr_srcptr sigma, mpfr_srcptr s,
                   unsigned long K, unsigned long N, unsigned long T, mpfr_srcptr delta,
                   unsigned long alpha_max, mpfr_prec_t wp)
{
    mpfr_t mu, g, L, r, best, t;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(wp, mu, g, L, r, best, t, (mpfr_ptr)0);
    mu_up(mu, sigma, s, t);                             /* mu = s^2/(2 sigma^2), up */
    ratio_up(g, K, N);                                  /* K/N, up */
    ln_inv_up(L, delta);                                /* ln(1/delta), up */
    unsigned long ab = 2;
    mpfr_set_inf(best, 1);
    for (unsigned long al = 2; al <= alpha_max; al++) {
        rdp_round(r, al, mu, g, K < N, wp, bin);
        rdp_conv(r, r, T, L, al, t);                    /* T rounds, then L/(alpha-1) */
        if (mpfr_less_p(r, best)) {
            mpfr_set(best, r, MPFR_RNDN);
            ab = al;
        }
    }
    mpfr_set(eps, best, MPFR_RNDU);
    *alpha = ab;
    mpfr_clears(mu, g, L, r, best, t, (mpfr_ptr)0);
    mpz_clear(bin);
    return FR_OK;
}

int fr_fedpdm_rdp_order(mpfr_t e, const mpfr_t sigma, const mpfr_t s, unsigned long K,
                        unsigned long N, unsigned long alpha)
{
    if (e == NULL || sigma == NULL || s == NULL)
        return FR_ENULL;
    if (N == 0)
        return FR_ESIZE;
    if (!mpfr_number_p(sigma) || !mpfr_number_p(s))
        return FR_ENONFINITE;
    if (mpfr_sgn(sigma) <= 0 || mpfr_sgn(s) < 0 || K == 0 || K > N || alpha < 2
        || alpha > ACCT_ALPHA_MAX)
        return FR_EDOM;
    const mpfr_prec_t wp = mpfr_get_prec(e) + 64;
    mpfr_t mu, g, r, t;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(wp, mu, g, r, t, (mpfr_ptr)0);
    mu_up(mu, sigma, s, t);
    ratio_up(g, K, N);
    rdp_round(r, alpha, mu, g, K < N, wp, bin);
    mpfr_set(e, r, MPFR_RNDU);
    mpfr_clears(mu, g, r, t, (mpfr_ptr)0);
    mpz_clear(bin);
    return FR_OK;
}

int fr_fedpdm_thm2(mpfr_t eps_bar, const mpfr_t c0, const mpfr_t eps, unsigned long K,
                   unsigned long N, unsigned long T, const mpfr_t q)
{
    if (eps_bar == NULL || c0 == NULL || eps == NULL || q == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    if (!mpfr_number_p(c0) || !mpfr_number_p(eps) || !mpfr_number_p(q))
        return FR_ENONFINITE;
    if (mpfr_sgn(c0) <= 0 || mpfr_sgn(eps) <= 0 || mpfr_sgn(q) <= 0 || mpfr_cmp_ui(q, 1) >= 0
        || K == 0 || K > N)
        return FR_EDOM;
    return fri_pdm_thm2_wp(eps_bar, c0, eps, K, N, T, q, mpfr_get_prec(eps_bar) + 64);
}

/* enclosures.h */
int fri_pdm_thm2_wp(mpfr_ptr eps_bar, mpfr_srcptr c0, mpfr_srcptr eps, unsigned long K,
                    unsigned long N, unsigned long T, mpfr_srcptr q, mpfr_prec_t wp)
{
    mpfr_t a, b;
    mpfr_inits2(wp, a, b, (mpfr_ptr)0);
    mpfr_ui_sub(b, 1, q, MPFR_RNDD);                    /* 1 - q, down */
    mpfr_set_ui(a, K, MPFR_RNDU);
    mpfr_mul_ui(a, a, T, MPFR_RNDU);
    mpfr_div_ui(a, a, N, MPFR_RNDU);                    /* p T, up */
    mpfr_div(a, a, b, MPFR_RNDU);
    mpfr_sqrt(a, a, MPFR_RNDU);
    mpfr_sqr(b, q, MPFR_RNDU);
    mpfr_mul(a, a, b, MPFR_RNDU);
    mpfr_mul(a, a, eps, MPFR_RNDU);
    mpfr_mul(a, a, c0, MPFR_RNDU);
    mpfr_set(eps_bar, a, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return FR_OK;
}

/* acct.h */
int fri_pdm_rdp_rounds_args(mpfr_srcptr eps, const unsigned long *alpha, mpfr_t *const sigma,
                            mpfr_t *const s, unsigned long T, unsigned long first, unsigned long K,
                            unsigned long N, mpfr_srcptr delta, unsigned long alpha_max)
{
    if (eps == NULL || alpha == NULL || sigma == NULL || s == NULL || delta == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40) || first > T)
        return FR_ESIZE;
    for (unsigned long t = 0; t < T; t++)
        if (!mpfr_number_p(sigma[t]) || !mpfr_number_p(s[t]))
            return FR_ENONFINITE;
    if (!mpfr_number_p(delta))
        return FR_ENONFINITE;
    for (unsigned long t = 0; t < T; t++)
        if (mpfr_sgn(sigma[t]) <= 0 || mpfr_sgn(s[t]) < 0)
            return FR_EDOM;
    if (mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0 || K == 0 || K > N || alpha_max < 2
        || alpha_max > ACCT_ALPHA_MAX)
        return FR_EDOM;
    return FR_OK;
}

/* fr_fedpdm_rdp_rounds: acc[alpha] = sum_t e_t(alpha) over the rounds, one
 * rdp_round per run of equal consecutive (sigma[t], s[t], subsampled)
 * times its length; then the conversion of fr_fedpdm_rdp. */
int fr_fedpdm_rdp_rounds(mpfr_t eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         const mpfr_t delta, unsigned long alpha_max)
{
    int st = fri_pdm_rdp_rounds_args(eps, alpha, sigma, s, T, first, K, N, delta, alpha_max);
    if (st != FR_OK)
        return st;
    return fri_pdm_rdp_rounds_wp(eps, alpha, sigma, s, T, first, K, N, delta, alpha_max,
                                 mpfr_get_prec(eps) + 64);
}

/* enclosures.h */
int fri_pdm_rdp_rounds_wp(mpfr_ptr eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                          unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                          mpfr_srcptr delta, unsigned long alpha_max, mpfr_prec_t wp)
{
    mpfr_t *acc = malloc((alpha_max + 1) * sizeof *acc);
    if (acc == NULL)
        return FR_ENOMEM;
    mpfr_t mu, g, L, r, best, t;
    mpz_t bin;
    mpz_init(bin);
    mpfr_inits2(wp, mu, g, L, r, best, t, (mpfr_ptr)0);
    for (unsigned long al = 2; al <= alpha_max; al++) {
        mpfr_init2(acc[al], wp);
        mpfr_set_zero(acc[al], 1);
    }
    ratio_up(g, K, N);                                  /* K/N, up */
    for (unsigned long t0 = 0; t0 < T;) {
        const int sub = t0 >= first && K < N;
        unsigned long t1 = t0 + 1;                      /* the run [t0, t1) */
        while (t1 < T && (t1 >= first && K < N) == sub && mpfr_equal_p(sigma[t1], sigma[t0])
               && mpfr_equal_p(s[t1], s[t0]))
            t1++;
        mu_up(mu, sigma[t0], s[t0], t);
        for (unsigned long al = 2; al <= alpha_max; al++) {
            rdp_round(r, al, mu, g, sub, wp, bin);
            rdp_run(acc[al], r, t1 - t0);
        }
        t0 = t1;
    }
    ln_inv_up(L, delta);                                /* ln(1/delta), up */
    unsigned long ab = 2;
    mpfr_set_inf(best, 1);
    for (unsigned long al = 2; al <= alpha_max; al++) {
        rdp_conv(r, acc[al], 1, L, al, t);              /* acc (exact: same precision) + L/(alpha-1) */
        if (mpfr_less_p(r, best)) {
            mpfr_set(best, r, MPFR_RNDN);
            ab = al;
        }
    }
    mpfr_set(eps, best, MPFR_RNDU);
    *alpha = ab;
    for (unsigned long al = 2; al <= alpha_max; al++)
        mpfr_clear(acc[al]);
    free(acc);
    mpfr_clears(mu, g, L, r, best, t, (mpfr_ptr)0);
    mpz_clear(bin);
    return FR_OK;
}
