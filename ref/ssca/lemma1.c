/* SPDX-License-Identifier: Apache-2.0 */
/* lemma1.c -- Lemma 1 of 000, (43)-(45), derived again from the KKT
 * conditions of (41) (Appendix C):
 *   min_{w, s} ||w||^2 + c s  s.t.  a^T w + tau ||w||^2 + C - U <= s,  s >= 0.
 * The Lagrangian minimiser is w(nu) = -nu a / (2 (1 + nu tau)) and the dual
 *   h(nu) = nu (C - U) - b nu^2 / (4 (1 + tau nu)),  b = ||a||^2,
 * is CONCAVE on [0, c] (h'' = -b / (2 (1 + tau nu)^3); Appendix C says
 * "convex"), with
 *   h'(nu) = [b - D (1 + tau nu)^2] / (4 tau (1 + tau nu)^2),  D = b + 4 tau (U - C).
 * So: D <= 0: h' >= 0 on [0, c], nu = c (b = D = 0, i.e. a = 0 and U = C:
 * h is constant and every nu is optimal; c is the printed choice).  D > 0:
 * the stationary point nu^ = (sqrt(b / D) - 1) / tau, clipped to [0, c];
 * without the cancellation and the division by tau,
 *   sqrt(b/D) - 1 = (b - D) / (sqrt(D) (sqrt(b) + sqrt(D))) = 4 tau (C - U) / (D + sqrt(b D)),
 *   nu^ = 4 (C - U) / (D + sqrt(b D)),
 * so nu^ <= 0 iff U >= C, and nu^ >= c iff D (1 + tau c)^2 <= b.  In the
 * interior 1 + tau nu^ = sqrt(b / D) and
 *   w_j = -a_j 2 (C - U) / (b + sqrt(b D));
 * at nu = c, w_j = -a_j c / (2 (1 + tau c)) (rational).
 *
 * Every branch is decided exactly (b, D, D (1 + tau c)^2 are exact dyadic
 * numbers: ref/internal.h); the rational results are one division of
 * exact operands (correctly rounded); the interior values are irrational
 * unless b D is the square of a dyadic number (then rational again, and
 * computed exactly), so their Ziv loop ends.  A zero result (nu = 0,
 * a_j = 0, b = 0) is +0.  Contract: include/fedref/ssca.h. */
#include <stdlib.h>
#include "../internal.h"

/* The checks of fr_ssca_lemma1, in class order. */
static int lemma1_args(mpfr_t nu, mpfr_t *w, mpfr_t *const a, size_t d, mpfr_srcptr C,
                       mpfr_srcptr tau, mpfr_srcptr c, mpfr_srcptr U)
{
    if (nu == NULL || w == NULL || a == NULL || C == NULL || tau == NULL || c == NULL
        || U == NULL)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(C) || !mpfr_number_p(tau) || !mpfr_number_p(c) || !mpfr_number_p(U)
        || !fri_finite(a, d))
        return FR_ENONFINITE;
    if (mpfr_sgn(tau) <= 0 || mpfr_sgn(c) <= 0)
        return FR_EDOM;
    if (fri_overlap(nu, sizeof(mpfr_t), w, d * sizeof(mpfr_t)))
        return FR_EDOM;                              /* two outputs */
    return FR_OK;
}

/* x = num / den correctly rounded at x's precision, den > 0; +0 for num = 0. */
static void div_once(mpfr_ptr x, mpfr_srcptr num, mpfr_srcptr den)
{
    if (mpfr_zero_p(num))
        mpfr_set_zero(x, 1);
    else
        mpfr_div(x, num, den, MPFR_RNDN);
}

/* x = num / (base + sqrt(bD)) correctly rounded at x's precision (Ziv),
 * num != 0, base > 0, bD > 0 not the square of a dyadic number (so the
 * value is irrational: the loop ends).  At working precision wp
 * (u = 2^-wp) the sqrt, the sum of two positive terms and the division
 * are each rounded to nearest: relative error <= (1 + u)^3/(1 - u) - 1
 * < 4.01 u, so |x~ - x| < 2^(EXP(x~) + 3 - wp). */
static int ziv_quot(mpfr_ptr x, mpfr_srcptr num, mpfr_srcptr base, mpfr_srcptr bD)
{
    mpfr_prec_t p = mpfr_get_prec(x), wp = p + 32;
    mpfr_t q, den;
    mpfr_inits2(wp, q, den, (mpfr_ptr)0);
    int st = FR_OK;
    for (;;) {
        mpfr_set_prec(q, wp);
        mpfr_set_prec(den, wp);
        mpfr_sqrt(den, bD, MPFR_RNDN);
        mpfr_add(den, den, base, MPFR_RNDN);
        mpfr_div(q, num, den, MPFR_RNDN);
        if (mpfr_can_round(q, wp - 3, MPFR_RNDN, MPFR_RNDZ, p + 1))
            break;
        if (wp > FRI_EXACT_PREC_MAX) {
            st = FR_EINTERNAL;
            break;
        }
        wp *= 2;
    }
    if (st == FR_OK)
        mpfr_set(x, q, MPFR_RNDN);
    mpfr_clears(q, den, (mpfr_ptr)0);
    return st;
}

int fr_ssca_lemma1(mpfr_t nu, mpfr_t *w, int *branch, mpfr_t *const a, size_t d,
                   const mpfr_t C, const mpfr_t tau, const mpfr_t c, const mpfr_t U)
{
    int st = lemma1_args(nu, w, a, d, C, tau, c, U);
    if (st != FR_OK)
        return st;
    mpfr_t *sq = malloc(d * sizeof *sq);
    mpfr_ptr *ptr = malloc(d * sizeof *ptr);
    mpfr_t *tw = fri_temps_like(w, d);               /* the outputs, copied at the end */
    if (sq == NULL || ptr == NULL || tw == NULL) {
        free(sq); free(ptr);
        if (tw) fri_temps_done(tw, w, d, 0);
        return FR_ENOMEM;
    }
    mpfr_t b, dUC, t, D, ctau, onec, num, den, tnu, q;
    mpfr_inits2(MPFR_PREC_MIN, b, dUC, t, D, ctau, onec, num, den, q, (mpfr_ptr)0);
    mpfr_init2(tnu, mpfr_get_prec(nu));
    size_t done = 0;
    for (; done < d && st == FR_OK; done++) {
        mpfr_init2(sq[done], MPFR_PREC_MIN);
        st = fri_mul_exact(sq[done], a[done], a[done]);
        ptr[done] = sq[done];
    }
    int br = 0;
    if (st == FR_OK)
        st = fri_sum_exact(b, ptr, d);                            /* b = ||a||^2 */
    if (st == FR_OK)
        st = fri_sub_exact(dUC, U, C);                            /* U - C */
    if (st == FR_OK && (st = fri_mul_exact(t, tau, dUC)) == FR_OK
        && mpfr_mul_2ui(t, t, 2, MPFR_RNDN) != 0)                 /* 4 tau (U - C) */
        st = FR_EPREC;
    if (st == FR_OK)
        st = fri_add_exact(D, b, t);                              /* D */
    if (st == FR_OK) {
        if (mpfr_sgn(D) <= 0)
            br = FR_SSCA_L1_DNONPOS;
        else if (mpfr_sgn(dUC) >= 0)
            br = FR_SSCA_L1_ZERO;
        else {
            /* nu^ >= c iff D (1 + tau c)^2 <= b (1 + tau nu^ = sqrt(b/D)) */
            mpfr_t one;
            mpfr_init2(one, 2);
            mpfr_set_ui(one, 1, MPFR_RNDN);
            if ((st = fri_mul_exact(ctau, tau, c)) == FR_OK
                && (st = fri_add_exact(onec, one, ctau)) == FR_OK
                && (st = fri_mul_exact(q, onec, onec)) == FR_OK
                && (st = fri_mul_exact(num, D, q)) == FR_OK)
                br = mpfr_cmp(num, b) <= 0 ? FR_SSCA_L1_CLIPC : FR_SSCA_L1_INTERIOR;
            mpfr_clear(one);
        }
    }
    if (st == FR_OK && (br == FR_SSCA_L1_DNONPOS || br == FR_SSCA_L1_CLIPC)) {
        /* nu = c, w_j = -a_j c / (2 (1 + tau c)): one division each */
        mpfr_t one;
        mpfr_init2(one, 2);
        mpfr_set_ui(one, 1, MPFR_RNDN);
        if ((st = fri_mul_exact(ctau, tau, c)) == FR_OK
            && (st = fri_add_exact(den, one, ctau)) == FR_OK
            && mpfr_mul_2ui(den, den, 1, MPFR_RNDN) != 0)
            st = FR_EPREC;
        mpfr_clear(one);
        for (size_t j = 0; j < d && st == FR_OK; j++)
            if ((st = fri_mul_exact(num, a[j], c)) == FR_OK) {
                mpfr_neg(num, num, MPFR_RNDN);
                div_once(tw[j], num, den);
            }
        if (st == FR_OK)
            mpfr_set(tnu, c, MPFR_RNDN);
    } else if (st == FR_OK && br == FR_SSCA_L1_ZERO) {
        mpfr_set_zero(tnu, 1);
        for (size_t j = 0; j < d; j++)
            mpfr_set_zero(tw[j], 1);
    } else if (st == FR_OK) {
        /* interior: nu = 4 (C - U) / (D + sqrt(b D)), w_j = -2 (C - U) a_j / (b + sqrt(b D)) */
        mpfr_t bD, r, fourd;
        mpfr_inits2(MPFR_PREC_MIN, bD, r, fourd, (mpfr_ptr)0);
        if ((st = fri_mul_exact(bD, b, D)) == FR_OK) {
            mpfr_set_prec(r, mpfr_get_prec(bD) + 2);
            int exact = mpfr_sqrt(r, bD, MPFR_RNDN) == 0;   /* a square of a dyadic: exact here */
            mpfr_set_prec(fourd, mpfr_get_prec(dUC));
            mpfr_neg(fourd, dUC, MPFR_RNDN);
            mpfr_mul_2ui(fourd, fourd, 2, MPFR_RNDN);        /* 4 (C - U), exact */
            if (exact) {
                if ((st = fri_add_exact(den, D, r)) == FR_OK)
                    div_once(tnu, fourd, den);
                if (st == FR_OK)
                    st = fri_add_exact(den, b, r);
            } else {
                st = ziv_quot(tnu, fourd, D, bD);
            }
            mpfr_div_2ui(fourd, fourd, 1, MPFR_RNDN);        /* 2 (C - U) */
            for (size_t j = 0; j < d && st == FR_OK; j++) {
                if ((st = fri_mul_exact(num, fourd, a[j])) != FR_OK)
                    break;
                mpfr_neg(num, num, MPFR_RNDN);
                if (mpfr_zero_p(num))
                    mpfr_set_zero(tw[j], 1);                 /* a_j = 0 */
                else if (exact)
                    div_once(tw[j], num, den);
                else
                    st = ziv_quot(tw[j], num, b, bD);
            }
        }
        mpfr_clears(bD, r, fourd, (mpfr_ptr)0);
    }
    if (st == FR_OK) {
        mpfr_set(nu, tnu, MPFR_RNDN);                        /* exact: same precision */
        if (branch)
            *branch = br;
    }
    fri_temps_done(tw, w, d, st == FR_OK);
    for (size_t j = 0; j < done; j++)
        mpfr_clear(sq[j]);
    free(sq); free(ptr);
    mpfr_clears(b, dUC, t, D, ctau, onec, num, den, tnu, q, (mpfr_ptr)0);
    return st;
}
