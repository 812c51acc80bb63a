/* SPDX-License-Identifier: Apache-2.0 */
/* sens.c -- the l2 sensitivity (19) of 003 Theorem 1, rounded upward.
 * Contract: fedref/fedpdm.h.
 *
 * s = 4 eta G S_Q(a), a = |1 - eta rho|, S_Q(a) = sum_{r<Q} a^r; this is
 * (19) in both branches (a != 1: the geometric sum; a = 1: S_Q = Q) and
 * needs no 0/0.  eta rho and 1 - eta rho are formed exactly.  S_Q is
 * enclosed by Horner's rule S <- 1 + a S (all terms >= 0, so rounding each
 * fma down/up gives a lower/upper bound); when every fma was exact the
 * enclosure is the exact value; otherwise the precision is doubled until
 * the lower and upper bound round up to the same number (Ziv).  When s is
 * representable at s's precision, S_Q's numerator has at most as many bits
 * as s (s = 4 eta G N / 2^(k(Q-1)) with N odd for a = m/2^k, k >= 1), so an
 * exact Horner pass is reached at a finite precision; otherwise the bounds
 * separate from the grid.  FR_EPREC past FRI_EXACT_PREC_MAX bits. */
#include "../internal.h"

/* lo, hi: S_Q(a) rounded down/up step by step at precision wp; returns 1
 * when every step was exact (then lo = hi = S_Q(a)). */
static int horner(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr a, mpfr_srcptr one, unsigned long Q,
                  mpfr_prec_t wp)
{
    int exact = 1;
    mpfr_set_prec(lo, wp);
    mpfr_set_prec(hi, wp);
    mpfr_set_ui(lo, 1, MPFR_RNDN);
    mpfr_set_ui(hi, 1, MPFR_RNDN);
    for (unsigned long j = 1; j < Q; j++) {
        if (mpfr_fma(lo, lo, a, one, MPFR_RNDD) != 0) exact = 0;
        if (mpfr_fma(hi, hi, a, one, MPFR_RNDU) != 0) exact = 0;
    }
    return exact;
}

int fr_fedpdm_sensitivity(mpfr_t s, const mpfr_t eta, const mpfr_t rho, unsigned long Q,
                          const mpfr_t G)
{
    if (s == NULL || eta == NULL || rho == NULL || G == NULL)
        return FR_ENULL;
    if (Q > FR_FEDPDM_Q_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(eta) || !mpfr_number_p(rho) || !mpfr_number_p(G))
        return FR_ENONFINITE;
    if (Q == 0 || mpfr_sgn(eta) <= 0 || mpfr_sgn(rho) <= 0 || mpfr_sgn(G) < 0)
        return FR_EDOM;
    if (mpfr_zero_p(G)) {                         /* s = +0 exactly */
        mpfr_set_zero(s, 1);
        return FR_OK;
    }
    int st;
    mpfr_t c, a, one, eg, lo, hi, tl, th, r1, r2;
    mpfr_inits2(MPFR_PREC_MIN, c, a, eg, lo, hi, tl, th, (mpfr_ptr)0);
    mpfr_init2(one, 2);
    mpfr_init2(r1, mpfr_get_prec(s));
    mpfr_init2(r2, mpfr_get_prec(s));
    mpfr_set_ui(one, 1, MPFR_RNDN);
    st = fri_mul_exact(c, eta, rho);                         /* eta rho */
    if (st == FR_OK) st = fri_sub_exact(a, one, c);          /* 1 - eta rho */
    if (st == FR_OK) st = fri_mul_exact(eg, eta, G);         /* eta G */
    if (st == FR_OK) {
        mpfr_abs(a, a, MPFR_RNDN);                           /* exact */
        mpfr_mul_2ui(eg, eg, 2, MPFR_RNDN);                  /* 4 eta G, exact */
        mpfr_prec_t wp = mpfr_get_prec(s) + mpfr_get_prec(a) + 64;
        for (;;) {
            int ex = horner(lo, hi, a, one, Q, wp);
            if (ex) {
                mpfr_set_prec(th, mpfr_get_prec(eg) + wp);
                mpfr_mul(th, eg, hi, MPFR_RNDU);             /* exact */
                mpfr_set(r1, th, MPFR_RNDU);
                break;
            }
            mpfr_set_prec(tl, wp);
            mpfr_set_prec(th, wp);
            mpfr_mul(tl, eg, lo, MPFR_RNDD);
            mpfr_mul(th, eg, hi, MPFR_RNDU);
            mpfr_set(r2, tl, MPFR_RNDU);
            mpfr_set(r1, th, MPFR_RNDU);
            if (mpfr_equal_p(r1, r2))        /* tl <= exact <= th: RU(exact) = RU(th) */
                break;
            if (wp > FRI_EXACT_PREC_MAX / 2) {
                st = FR_EPREC;
                break;
            }
            wp *= 2;
        }
    }
    if (st == FR_OK)
        mpfr_set(s, r1, MPFR_RNDN);                          /* same precision: exact */
    mpfr_clears(c, a, one, eg, lo, hi, tl, th, r1, r2, (mpfr_ptr)0);
    return st;
}
