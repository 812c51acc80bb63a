/* SPDX-License-Identifier: Apache-2.0 */
/* dp.c -- the privacy bookkeeping of FedEPM (docs/FEDEPM.md section 9):
 * the l1 sensitivity recursion of the client state under (20) and the
 * composition of the per-upload privacy losses of a client (basic, and the
 * advanced composition of Dwork, Rothblum and Vadhan in its general form
 * for unequal per-upload losses).  Contract: fedref.h.
 *
 * fr_dp_sens_step: (mu delta + Delta) / (eta + mu), numerator and
 *   denominator formed exactly, one division in direction rnd: correctly
 *   rounded in that direction.
 * fr_dp_compose: basic = sum_j eps_j by one mpfr_sum (correctly rounded in
 *   any direction); adv = sqrt(2 ln(1/delta) sum_j eps_j^2)
 *   + sum_j eps_j (e^eps_j - 1) by a Ziv loop on an enclosure [lo, hi]
 *   computed with every operation rounded outward at working precision wp
 *   (all terms are >= 0, so rounding each one down or up bounds the sum):
 *   once lo and hi round to the same value in direction rnd, that value is
 *   the exact result so rounded (rounding is monotone). */
#include <stdlib.h>
#include "../internal.h"
#include "enclosures.h"

static int rnd_ok(mpfr_rnd_t rnd)
{
    return rnd == MPFR_RNDN || rnd == MPFR_RNDZ || rnd == MPFR_RNDU || rnd == MPFR_RNDD
        || rnd == MPFR_RNDA;
}

int fr_dp_sens_step(mpfr_t out, const mpfr_t delta, const mpfr_t Delta, const mpfr_t eta,
                    const mpfr_t mu, mpfr_rnd_t rnd)
{
    if (out == NULL || delta == NULL || Delta == NULL || eta == NULL || mu == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(delta) || !mpfr_number_p(Delta) || !mpfr_number_p(eta)
        || !mpfr_number_p(mu))
        return FR_ENONFINITE;
    if (mpfr_sgn(delta) < 0 || mpfr_sgn(Delta) < 0 || mpfr_sgn(eta) <= 0 || mpfr_sgn(mu) <= 0
        || !rnd_ok(rnd))
        return FR_EDOM;
    mpfr_t a, num, den;
    mpfr_inits2(MPFR_PREC_MIN, a, num, den, (mpfr_ptr)0);
    int st = fri_mul_exact(a, mu, delta);                 /* mu delta */
    if (st == FR_OK)
        st = fri_add_exact(num, a, Delta);                /* + Delta */
    if (st == FR_OK)
        st = fri_add_exact(den, eta, mu);                 /* eta + mu > 0 */
    if (st == FR_OK)
        mpfr_div(out, num, den, rnd);                     /* the one rounding */
    mpfr_clears(a, num, den, (mpfr_ptr)0);
    return st;
}

/* One enclosure of adv at working precision wp: r = lo (dir = -1) or hi
 * (dir = +1) (enclosures.h).  sq holds the exact squares (precision set
 * here), tm the k terms eps_j (e^eps_j - 1) rounded in direction dir. */
void fri_dp_adv_bound(mpfr_ptr r, int dir, mpfr_prec_t wp, mpfr_t *const eps, size_t k,
                      mpfr_srcptr delta, mpfr_t *sq, mpfr_t *tm, mpfr_ptr *ptr)
{
    const mpfr_rnd_t rd = dir < 0 ? MPFR_RNDD : MPFR_RNDU, ro = dir < 0 ? MPFR_RNDU : MPFR_RNDD;
    mpfr_t L, Q, t;
    mpfr_inits2(wp, L, Q, t, (mpfr_ptr)0);
    mpfr_log(L, delta, ro);                     /* ln delta < 0, rounded the other way */
    mpfr_neg(L, L, MPFR_RNDN);                  /* ln(1/delta), rounded in direction dir */
    for (size_t j = 0; j < k; j++) {
        mpfr_set_prec(sq[j], 2 * mpfr_get_prec(eps[j]));
        mpfr_sqr(sq[j], eps[j], MPFR_RNDN);     /* exact */
        ptr[j] = sq[j];
    }
    mpfr_sum(Q, ptr, (unsigned long)k, rd);
    mpfr_mul(t, L, Q, rd);
    mpfr_mul_2ui(t, t, 1, rd);                  /* 2 ln(1/delta) sum eps_j^2 */
    mpfr_sqrt(t, t, rd);
    for (size_t j = 0; j < k; j++) {
        mpfr_set_prec(tm[j], wp);
        mpfr_expm1(tm[j], eps[j], rd);          /* >= 0 for eps_j >= 0 */
        mpfr_mul(tm[j], tm[j], eps[j], rd);
        ptr[j] = tm[j];
    }
    mpfr_sum(Q, ptr, (unsigned long)k, rd);
    mpfr_add(r, t, Q, rd);
    mpfr_clears(L, Q, t, (mpfr_ptr)0);
}

int fr_dp_compose(mpfr_t basic, mpfr_t adv, mpfr_t *const eps, size_t k, const mpfr_t delta,
                  mpfr_rnd_t rnd)
{
    if (basic == NULL || adv == NULL || eps == NULL || delta == NULL)
        return FR_ENULL;
    if (k == 0 || k > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(delta))
        return FR_ENONFINITE;
    int inf = 0, pos = 0;
    for (size_t j = 0; j < k; j++) {
        if (mpfr_nan_p(eps[j]) || (mpfr_inf_p(eps[j]) && mpfr_sgn(eps[j]) < 0))
            return FR_ENONFINITE;
        inf |= mpfr_inf_p(eps[j]);
    }
    for (size_t j = 0; j < k; j++) {
        if (mpfr_sgn(eps[j]) < 0)
            return FR_EDOM;
        pos |= mpfr_sgn(eps[j]) > 0;
    }
    if (mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0 || basic == adv || !rnd_ok(rnd))
        return FR_EDOM;
    mpfr_ptr *ptr = malloc(k * sizeof *ptr);
    mpfr_t *sq = malloc(k * sizeof *sq), *tm = malloc(k * sizeof *tm);
    if (ptr == NULL || sq == NULL || tm == NULL) {
        free(ptr); free(sq); free(tm);
        return FR_ENOMEM;
    }
    int st = FR_OK;
    mpfr_t b, a, lo, hi, rl, rh;
    mpfr_init2(b, mpfr_get_prec(basic));
    mpfr_init2(a, mpfr_get_prec(adv));
    mpfr_inits2(MPFR_PREC_MIN, lo, hi, rl, rh, (mpfr_ptr)0);
    for (size_t j = 0; j < k; j++)
        ptr[j] = eps[j];
    mpfr_sum(b, ptr, (unsigned long)k, rnd);    /* +Inf if an eps_j is */
    if (inf) {
        mpfr_set_inf(a, 1);
    } else if (!pos) {
        mpfr_set_zero(a, 1);                    /* every loss 0 */
    } else {
        for (size_t j = 0; j < k; j++) {
            mpfr_init2(sq[j], MPFR_PREC_MIN);
            mpfr_init2(tm[j], MPFR_PREC_MIN);
        }
        const mpfr_prec_t pa = mpfr_get_prec(adv);
        mpfr_set_prec(rl, pa);
        mpfr_set_prec(rh, pa);
        for (mpfr_prec_t wp = pa + 32;; wp *= 2) {
            mpfr_set_prec(lo, wp);
            mpfr_set_prec(hi, wp);
            fri_dp_adv_bound(lo, -1, wp, eps, k, delta, sq, tm, ptr);
            fri_dp_adv_bound(hi, +1, wp, eps, k, delta, sq, tm, ptr);
            if (mpfr_inf_p(hi)) {               /* beyond MPFR's exponent range */
                mpfr_set_inf(a, 1);
                break;
            }
            mpfr_set(rl, lo, rnd);
            mpfr_set(rh, hi, rnd);
            if (mpfr_equal_p(rl, rh)) {
                mpfr_set(a, rl, MPFR_RNDN);     /* exact: same precision */
                break;
            }
            if (wp > FRI_EXACT_PREC_MAX) {
                st = FR_EINTERNAL;
                break;
            }
        }
        for (size_t j = 0; j < k; j++) {
            mpfr_clear(sq[j]);
            mpfr_clear(tm[j]);
        }
    }
    if (st == FR_OK) {
        mpfr_set(basic, b, MPFR_RNDN);          /* exact: same precisions */
        mpfr_set(adv, a, MPFR_RNDN);
    }
    mpfr_clears(b, a, lo, hi, rl, rh, (mpfr_ptr)0);
    free(ptr); free(sq); free(tm);
    return st;
}
