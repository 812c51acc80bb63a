/* SPDX-License-Identifier: Apache-2.0 */
/* laplace.c -- the Laplace mechanism of 002: the scales (27) and (39) and
 * the density (25) (standard form, and as printed).  Contract: fedref.h. */
#include <stdlib.h>
#include "../internal.h"

/* nu = num / (eps mu) rounded in direction rnd: eps mu is formed exactly,
 * so one mpfr_div rounds the exact quotient. */
static int scale_div(mpfr_ptr nu, mpfr_srcptr num, mpfr_srcptr eps, mpfr_srcptr mu,
                     mpfr_rnd_t rnd)
{
    mpfr_t em;
    mpfr_init2(em, MPFR_PREC_MIN);
    int st = fri_mul_exact(em, eps, mu);
    if (st == FR_OK)
        mpfr_div(nu, num, em, rnd);
    mpfr_clear(em);
    return st;
}

static int rnd_ok(mpfr_rnd_t rnd)
{
    return rnd == MPFR_RNDN || rnd == MPFR_RNDZ || rnd == MPFR_RNDU || rnd == MPFR_RNDD
        || rnd == MPFR_RNDA;
}

/* (27): nu = Delta / (eps mu). */
int fr_laplace_scale(mpfr_t nu, const mpfr_t Delta, const mpfr_t eps, const mpfr_t mu,
                     mpfr_rnd_t rnd)
{
    if (nu == NULL || Delta == NULL || eps == NULL || mu == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(Delta) || !mpfr_number_p(eps) || !mpfr_number_p(mu))
        return FR_ENONFINITE;
    if (mpfr_sgn(Delta) <= 0 || mpfr_sgn(eps) <= 0 || mpfr_sgn(mu) <= 0 || !rnd_ok(rnd))
        return FR_EDOM;
    return scale_div(nu, Delta, eps, mu, rnd);
}

/* (39): nu = 2 ||g||_1 / (eps mu); ||g||_1 is summed exactly. */
int fr_laplace_scale_eq39(mpfr_t nu, mpfr_t *const g, size_t n, const mpfr_t eps,
                          const mpfr_t mu, mpfr_rnd_t rnd)
{
    int st;
    if (nu == NULL || g == NULL || eps == NULL || mu == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(eps) || !mpfr_number_p(mu) || !fri_finite(g, n))
        return FR_ENONFINITE;
    if (mpfr_sgn(eps) <= 0 || mpfr_sgn(mu) <= 0 || !rnd_ok(rnd))
        return FR_EDOM;
    mpfr_t *a = malloc(n * sizeof *a);
    mpfr_ptr *ptr = malloc(n * sizeof *ptr);
    if (a == NULL || ptr == NULL) {
        free(a); free(ptr);
        return FR_ENOMEM;
    }
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(a[j], mpfr_get_prec(g[j]));
        mpfr_abs(a[j], g[j], MPFR_RNDN);              /* exact */
        ptr[j] = a[j];
    }
    mpfr_t s;
    mpfr_init2(s, MPFR_PREC_MIN);
    st = fri_sum_exact(s, ptr, n);
    if (st == FR_OK && mpfr_mul_2ui(s, s, 1, MPFR_RNDN) != 0)   /* 2 ||g||_1, exact */
        st = FR_EPREC;
    if (st == FR_OK)
        st = scale_div(nu, s, eps, mu, rnd);           /* ||g||_1 = 0 gives +0 */
    mpfr_clear(s);
    for (size_t j = 0; j < n; j++)
        mpfr_clear(a[j]);
    free(a); free(ptr);
    return st;
}

/* p = exp(y), y = -|x|/s - ln(2 nu), s = nu (standard) or 2 nu (printed).
 * At working precision wp (u = 2^-wp), each of t = |x|/s, l = ln(2 nu) and
 * y = -t - l is rounded to nearest, so with B = t^ + |l^|,
 * |y^ - y| <= 2.02 u B; when that is <= 1/4, p^ = exp(y^) (one more
 * rounding) has relative error <= 1.14 (2.02 u B) + 1.01 u
 * <= 2^(max(EXP(B), 0) + 2) u.  x != 0 makes p transcendental (Lindemann),
 * so the loop ends. */
int fr_laplace_density(mpfr_t p, const mpfr_t x, const mpfr_t nu, int printed)
{
    int st;
    if (p == NULL || x == NULL || nu == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(x) || !mpfr_number_p(nu))
        return FR_ENONFINITE;
    if (mpfr_sgn(nu) <= 0)
        return FR_EDOM;
    mpfr_prec_t prec = mpfr_get_prec(p);
    if (mpfr_zero_p(x)) {                              /* 1 / (2 nu): one rounding */
        mpfr_ui_div(p, 1, nu, MPFR_RNDN);
        mpfr_div_2ui(p, p, 1, MPFR_RNDN);              /* exact */
        return FR_OK;
    }
    mpfr_t s, t, l, y, B, q;
    mpfr_inits2(mpfr_get_prec(nu) + 1, s, (mpfr_ptr)0);
    mpfr_mul_2ui(s, nu, 1, MPFR_RNDN);                  /* 2 nu, exact */
    mpfr_inits2(MPFR_PREC_MIN, t, l, y, B, q, (mpfr_ptr)0);
    mpfr_prec_t wp = prec + 32;
    st = FR_OK;
    for (int first = 1;;) {
        mpfr_set_prec(t, wp); mpfr_set_prec(l, wp); mpfr_set_prec(y, wp);
        mpfr_set_prec(B, 32); mpfr_set_prec(q, wp);
        mpfr_div(t, x, printed ? s : nu, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);                      /* t = |x| / s */
        mpfr_log(l, s, MPFR_RNDN);
        mpfr_add(y, t, l, MPFR_RNDN);
        mpfr_neg(y, y, MPFR_RNDN);
        mpfr_abs(B, l, MPFR_RNDU);
        mpfr_add(B, B, t, MPFR_RNDU);
        mpfr_exp_t eb = mpfr_get_exp(B);                /* B > 0 since t > 0 */
        mpfr_exp_t k = (eb > 0 ? eb : 0) + 2;
        if (first) {                                    /* start with wp >= EXP(B) + prec + 32 */
            first = 0;
            if (eb > 0) {
                wp += (mpfr_prec_t)eb;
                continue;
            }
        }
        mpfr_exp(q, y, MPFR_RNDN);
        if (mpfr_zero_p(q) || mpfr_inf_p(q))
            break;                                      /* out of MPFR's exponent range */
        /* |q - p| <= 2^k u |p| < 2^(EXP(q) + k + 1 - wp) */
        if (eb + 4 <= (mpfr_exp_t)wp
            && mpfr_can_round(q, wp - k - 1, MPFR_RNDN, MPFR_RNDZ, prec + 1))
            break;
        if (wp > FRI_EXACT_PREC_MAX) {
            st = FR_EINTERNAL;
            break;
        }
        wp *= 2;
    }
    if (st == FR_OK)
        mpfr_set(p, q, MPFR_RNDN);
    mpfr_clears(s, t, l, y, B, q, (mpfr_ptr)0);
    return st;
}
