/* SPDX-License-Identifier: Apache-2.0 */
/* fedepm_step.c -- the FedEPM client update and its proximal weight,
 * 002 eq. (20):
 *   mu    = mu0 (1 + c ||wik - w||^2) alpha^(k+1),
 *   wt    = mu (wi - w) - g,
 *   wnext = w + soft(wt, lambda) / (eta + mu)
 *         = (w (eta + mu) + soft(wt, lambda)) / (eta + mu).
 * The step forms the last numerator exactly and divides once; mu is a Ziv
 * loop.  Contract: fedref.h. */
#include <stdlib.h>
#include "../internal.h"

/* ---- fr_fedepm_mu ------------------------------------------------------ */

/* One evaluation of mu at working precision wp.  Every operation is rounded
 * to nearest at wp (u = 2^-wp) except the exact squares and c S; all the
 * summands are >= 0, so the relative error is at most (1+u)^7 - 1 < 8u
 * (two for d_j^2 via d_j, one for the sum, one for 1 + cS, one each for
 * alpha^kp1, mu0 A and the last product).  Returns 0 iff every step was
 * exact (then q is mu exactly). */
static int mu_at(mpfr_ptr q, mpfr_prec_t wp, mpfr_srcptr mu0, mpfr_srcptr c,
                 mpfr_srcptr alpha, unsigned long kp1, mpfr_t *const wik,
                 mpfr_t *const w, size_t n, mpfr_t *sq, mpfr_ptr *ptr)
{
    mpfr_t d, s, a, pw;
    int inex = 0;
    mpfr_inits2(wp, d, s, pw, (mpfr_ptr)0);
    mpfr_init2(a, wp + mpfr_get_prec(c));
    if (mpfr_zero_p(c)) {
        mpfr_set_zero(s, 1);                             /* c = 0: mu0 alpha^kp1 */
    } else {
        for (size_t j = 0; j < n; j++) {
            inex |= mpfr_sub(d, wik[j], w[j], MPFR_RNDN);
            mpfr_set_prec(sq[j], 2 * wp);
            mpfr_sqr(sq[j], d, MPFR_RNDN);               /* exact */
            ptr[j] = sq[j];
        }
        inex |= mpfr_sum(s, ptr, (unsigned long)n, MPFR_RNDN);
    }
    mpfr_mul(a, c, s, MPFR_RNDN);                        /* exact */
    inex |= mpfr_add_ui(s, a, 1, MPFR_RNDN);             /* A = 1 + c S */
    inex |= mpfr_mul(s, s, mu0, MPFR_RNDN);
    inex |= mpfr_pow_ui(pw, alpha, kp1, MPFR_RNDN);
    inex |= mpfr_mul(q, s, pw, MPFR_RNDN);
    mpfr_clears(d, s, a, pw, (mpfr_ptr)0);
    return inex;
}

int fr_fedepm_mu(mpfr_t mu, const mpfr_t mu0, const mpfr_t c, const mpfr_t alpha,
                 unsigned long kp1, mpfr_t *const wik, mpfr_t *const w, size_t n)
{
    int st;
    if (mu == NULL || mu0 == NULL || c == NULL || alpha == NULL || wik == NULL || w == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(mu0) || !mpfr_number_p(c) || !mpfr_number_p(alpha)
        || !fri_finite(wik, n) || !fri_finite(w, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(mu0) <= 0 || mpfr_sgn(c) < 0 || mpfr_cmp_ui(alpha, 1) <= 0)
        return FR_EDOM;
    mpfr_t *sq = malloc(n * sizeof *sq);
    mpfr_ptr *ptr = malloc(n * sizeof *ptr);
    if (sq == NULL || ptr == NULL) {
        free(sq); free(ptr);
        return FR_ENOMEM;
    }
    for (size_t j = 0; j < n; j++)
        mpfr_init2(sq[j], MPFR_PREC_MIN);
    mpfr_prec_t p = mpfr_get_prec(mu), wp = p + 32;
    mpfr_t q;
    mpfr_init2(q, wp);
    st = FR_OK;
    /* The result is a dyadic number.  If it is representable with p + 1
     * bits, alpha^kp1 has fewer than 2(p + 2) significant bits (its odd part
     * is m^kp1 for alpha's odd mantissa m), so the loop reaches a precision
     * where every step is exact; otherwise the can_round test succeeds. */
    for (;;) {
        mpfr_set_prec(q, wp);
        int inex = mu_at(q, wp, mu0, c, alpha, kp1, wik, w, n, sq, ptr);
        if (inex == 0 || !mpfr_number_p(q))
            break;                                   /* exact, or overflow */
        /* |q - mu| < 8u|mu| <= 2^(EXP(q) + 4 - wp) */
        if (mpfr_can_round(q, wp - 4, MPFR_RNDN, MPFR_RNDZ, p + 1))
            break;
        if (wp > FRI_EXACT_PREC_MAX) {
            st = FR_EINTERNAL;
            break;
        }
        wp *= 2;
    }
    if (st == FR_OK)
        mpfr_set(mu, q, MPFR_RNDN);
    mpfr_clear(q);
    for (size_t j = 0; j < n; j++)
        mpfr_clear(sq[j]);
    free(sq); free(ptr);
    return st;
}

/* ---- fr_fedepm_step ---------------------------------------------------- */

/* num = w_j (eta + mu) + soft(mu (wi_j - w_j) - g_j, lambda), exactly. */
static int numerator(mpfr_ptr num, mpfr_srcptr wi, mpfr_srcptr w, mpfr_srcptr g,
                     mpfr_srcptr lambda, mpfr_srcptr mu, mpfr_srcptr em, mpfr_t t[3])
{
    int st;
    if ((st = fri_sub_exact(t[0], wi, w)) != FR_OK          /* wi - w */
        || (st = fri_mul_exact(t[1], mu, t[0])) != FR_OK    /* mu (wi - w) */
        || (st = fri_sub_exact(t[2], t[1], g)) != FR_OK)    /* wt */
        return st;
    if (mpfr_cmpabs(t[2], lambda) <= 0)
        mpfr_set_zero(t[0], 1);                              /* soft = 0: |wt| <= lambda */
    else if (mpfr_sgn(t[2]) > 0)
        st = fri_sub_exact(t[0], t[2], lambda);
    else
        st = fri_add_exact(t[0], t[2], lambda);
    if (st != FR_OK || (st = fri_mul_exact(t[1], w, em)) != FR_OK)
        return st;
    return fri_add_exact(num, t[1], t[0]);
}

int fr_fedepm_step(mpfr_t *wnext, mpfr_t *const wi, mpfr_t *const w, mpfr_t *const g,
                   size_t n, const mpfr_t lambda, const mpfr_t eta, const mpfr_t mu)
{
    int st;
    if (wnext == NULL || wi == NULL || w == NULL || g == NULL || lambda == NULL
        || eta == NULL || mu == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(lambda) || !mpfr_number_p(eta) || !mpfr_number_p(mu)
        || !fri_finite(wi, n) || !fri_finite(w, n) || !fri_finite(g, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(lambda) <= 0 || mpfr_sgn(eta) <= 0 || mpfr_sgn(mu) <= 0)
        return FR_EDOM;
    mpfr_t *num = malloc(n * sizeof *num);
    if (num == NULL)
        return FR_ENOMEM;
    mpfr_t em, t[3];
    mpfr_inits2(MPFR_PREC_MIN, em, t[0], t[1], t[2], (mpfr_ptr)0);
    size_t done = 0;
    st = fri_add_exact(em, eta, mu);                         /* eta + mu, exact */
    /* all numerators first: no output is written unless every one is exact */
    for (; st == FR_OK && done < n; done++) {
        mpfr_init2(num[done], MPFR_PREC_MIN);
        st = numerator(num[done], wi[done], w[done], g[done], lambda, mu, em, t);
    }
    if (st == FR_OK)
        for (size_t j = 0; j < n; j++)
            mpfr_div(wnext[j], num[j], em, MPFR_RNDN);       /* the one rounding */
    for (size_t j = 0; j < done; j++)
        mpfr_clear(num[j]);
    mpfr_clears(em, t[0], t[1], t[2], (mpfr_ptr)0);
    free(num);
    return st;
}
