/* SPDX-License-Identifier: Apache-2.0 */
/* gauss.c -- the Gaussian mechanism of 003 in MPFR: the classical variance
 * (5)/(18) rounded up, the exact analytic sigma (Balle & Wang 2018, Thm 8)
 * rounded up and certified, and the (eps, delta)-DP validator.
 *
 * delta_eps(sigma) = Phi(A - B) - e^eps Phi(-A - B), A = s/(2 sigma),
 * B = eps sigma / s.  With mu = s/sigma, A - B = mu/2 - eps/mu and the
 * identity e^eps phi(-mu/2 - eps/mu) = phi(mu/2 - eps/mu) (the squares
 * differ by 2 eps) give d delta_eps / d mu = phi(mu/2 - eps/mu) > 0: delta_eps
 * is strictly decreasing in sigma, from 1 (sigma -> 0) to 0 (sigma -> Inf),
 * so for 0 < delta < 1 the least sigma with delta_eps(sigma) <= delta is
 * the unique root sigma*.
 *
 * Enclosure (delta_encl): every step is a monotone map evaluated with the
 * directed rounding that keeps the bound on its side: A, B by one division
 * or multiplication each, Phi(x) = erfc(-x/sqrt 2)/2 with erfc decreasing
 * and the argument bounded outward (sqrt 2 enclosed), e^eps enclosed, the
 * product and the difference rounded outward; then clamped to [0, 1]
 * (delta_eps in [0, 1]: it is a supremum of P[M(D) in O] - e^eps P[M(D') in
 * O] over sets O including the empty one).  MPFR's exponent range (2^30
 * bits) holds e^eps and erfc of every argument met here; an over- or
 * underflow still rounds in the stated direction.  Contract: fedref/fedpdm.h. */
#include "../internal.h"
#include "fedref/fedpdm.h"
#include "enclosures.h"

#define GAUSS_WP_MAX ((mpfr_prec_t)8192)   /* Ziv cap: undecided beyond it */

/* Phi(x) bounded below (up == 0) or above (up == 1) at precision of r
 * (enclosures.h). */
void fri_pdm_phi_dir(mpfr_ptr r, mpfr_srcptr x, int up, mpfr_srcptr r2L, mpfr_srcptr r2U)
{
    mpfr_t z;
    mpfr_prec_t pz = mpfr_get_prec(r) > mpfr_get_prec(x) ? mpfr_get_prec(r) : mpfr_get_prec(x);
    mpfr_init2(z, pz);
    mpfr_neg(z, x, MPFR_RNDN);                  /* exact: prec(z) >= prec(x) */
    if (!up)                                    /* z rounded up: erfc(z) smaller */
        mpfr_div(z, z, mpfr_sgn(z) >= 0 ? r2L : r2U, MPFR_RNDU);
    else
        mpfr_div(z, z, mpfr_sgn(z) >= 0 ? r2U : r2L, MPFR_RNDD);
    mpfr_erfc(r, z, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_div_2ui(r, r, 1, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_clear(z);
}

/* aL <= A - B <= aU and bL <= -(A + B) <= bU, A = s/(2 sigma), B = eps
 * sigma/s, A and B bounded at w bits (enclosures.h). */
void fri_pdm_gauss_args(mpfr_ptr aL, mpfr_ptr aU, mpfr_ptr bL, mpfr_ptr bU, mpfr_srcptr eps,
                        mpfr_srcptr s, mpfr_srcptr sigma, mpfr_prec_t w)
{
    mpfr_t AL, AU, BL, BU;
    mpfr_inits2(w, AL, AU, BL, BU, (mpfr_ptr)0);
    mpfr_div(AL, s, sigma, MPFR_RNDD);
    mpfr_div(AU, s, sigma, MPFR_RNDU);
    mpfr_div_2ui(AL, AL, 1, MPFR_RNDD);
    mpfr_div_2ui(AU, AU, 1, MPFR_RNDU);
    mpfr_mul(BL, eps, sigma, MPFR_RNDD);
    mpfr_mul(BU, eps, sigma, MPFR_RNDU);
    mpfr_div(BL, BL, s, MPFR_RNDD);
    mpfr_div(BU, BU, s, MPFR_RNDU);
    mpfr_sub(aL, AL, BU, MPFR_RNDD);
    mpfr_sub(aU, AU, BL, MPFR_RNDU);
    mpfr_add(bL, AU, BU, MPFR_RNDU);
    mpfr_neg(bL, bL, MPFR_RNDN);                /* -(A + B), lower */
    mpfr_add(bU, AL, BL, MPFR_RNDD);
    mpfr_neg(bU, bU, MPFR_RNDN);
    mpfr_clears(AL, AU, BL, BU, (mpfr_ptr)0);
}

/* r = p - E q rounded down (up == 0, then clamped below at 0) or up (up ==
 * 1, clamped above at 1), E q at prec(q) (enclosures.h). */
void fri_pdm_phi_diff(mpfr_ptr r, mpfr_srcptr p, mpfr_srcptr q, mpfr_srcptr E, int up)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(q));
    mpfr_mul(t, q, E, up ? MPFR_RNDD : MPFR_RNDU);
    mpfr_sub(r, p, t, up ? MPFR_RNDU : MPFR_RNDD);
    if (!up && (mpfr_nan_p(r) || mpfr_sgn(r) < 0))
        mpfr_set_zero(r, 1);
    if (up && (mpfr_nan_p(r) || mpfr_cmp_ui(r, 1) > 0))
        mpfr_set_ui(r, 1, MPFR_RNDN);
    mpfr_clear(t);
}

/* [lo, hi] contains delta_eps(sigma), s > 0, sigma > 0, at precision w
 * (enclosures.h): lo = Phi(aL) - e^eps+ Phi(bU), hi = Phi(aU) - e^eps-
 * Phi(bL), each Phi bounded on the side its sign asks for. */
void fri_pdm_delta_sigma_encl(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr eps, mpfr_srcptr s,
                              mpfr_srcptr sigma, mpfr_prec_t w)
{
    mpfr_prec_t wx = w;
    if (mpfr_get_prec(eps) > wx) wx = mpfr_get_prec(eps);
    if (mpfr_get_prec(s) > wx) wx = mpfr_get_prec(s);
    if (mpfr_get_prec(sigma) > wx) wx = mpfr_get_prec(sigma);
    mpfr_t aL, aU, bL, bU, r2L, r2U, EL, EU, p, q;
    mpfr_inits2(w, r2L, r2U, EL, EU, p, q, (mpfr_ptr)0);
    mpfr_inits2(wx, aL, aU, bL, bU, (mpfr_ptr)0);
    fri_pdm_gauss_args(aL, aU, bL, bU, eps, s, sigma, w);
    mpfr_sqrt_ui(r2L, 2, MPFR_RNDD);
    mpfr_sqrt_ui(r2U, 2, MPFR_RNDU);
    mpfr_exp(EL, eps, MPFR_RNDD);
    mpfr_exp(EU, eps, MPFR_RNDU);
    fri_pdm_phi_dir(p, aL, 0, r2L, r2U);
    fri_pdm_phi_dir(q, bU, 1, r2L, r2U);
    fri_pdm_phi_diff(lo, p, q, EU, 0);
    fri_pdm_phi_dir(p, aU, 1, r2L, r2U);
    fri_pdm_phi_dir(q, bL, 0, r2L, r2U);
    fri_pdm_phi_diff(hi, p, q, EL, 1);
    mpfr_clears(aL, aU, bL, bU, r2L, r2U, EL, EU, p, q, (mpfr_ptr)0);
}

/* Decide delta_eps(sigma) <= delta (s, sigma > 0): 1 yes, -1 no, 0 undecided
 * up to GAUSS_WP_MAX bits.  mlo, mhi (may be NULL): an enclosure of
 * delta - delta_eps(sigma) from the last precision used. */
static int decide(mpfr_srcptr eps, mpfr_srcptr delta, mpfr_srcptr s, mpfr_srcptr sigma,
                  mpfr_prec_t w0, mpfr_ptr mlo, mpfr_ptr mhi)
{
    int r = 0;
    mpfr_t lo, hi;
    mpfr_inits2(MPFR_PREC_MIN, lo, hi, (mpfr_ptr)0);
    for (mpfr_prec_t w = w0;; w *= 2) {
        mpfr_set_prec(lo, w);
        mpfr_set_prec(hi, w);
        fri_pdm_delta_sigma_encl(lo, hi, eps, s, sigma, w);
        if (mpfr_cmp(hi, delta) <= 0) r = 1;
        else if (mpfr_cmp(lo, delta) > 0) r = -1;
        if (r != 0 || 2 * w > GAUSS_WP_MAX) {
            if (mlo) mpfr_sub(mlo, delta, hi, MPFR_RNDD);
            if (mhi) mpfr_sub(mhi, delta, lo, MPFR_RNDU);
            break;
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return r;
}

static int check3(mpfr_srcptr eps, mpfr_srcptr delta, mpfr_srcptr s)
{
    if (!mpfr_number_p(eps) || !mpfr_number_p(delta) || !mpfr_number_p(s))
        return FR_ENONFINITE;
    if (mpfr_sgn(eps) <= 0 || mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0
        || mpfr_sgn(s) < 0)
        return FR_EDOM;
    return FR_OK;
}

/* [vL, vU] (precision w) contains (5)'s 2 s^2 ln(1.25/delta) / eps^2, by
 * directed rounding of each monotone step (enclosures.h). */
void fri_pdm_sigma2_encl(mpfr_ptr vL, mpfr_ptr vU, mpfr_srcptr eps, mpfr_srcptr delta,
                         mpfr_srcptr s, mpfr_prec_t w)
{
    mpfr_t qL, qU, t;
    mpfr_inits2(w, qL, qU, t, (mpfr_ptr)0);
    mpfr_set_prec(vL, w);
    mpfr_set_prec(vU, w);
    mpfr_ui_div(qL, 5, delta, MPFR_RNDD);
    mpfr_ui_div(qU, 5, delta, MPFR_RNDU);
    mpfr_div_2ui(qL, qL, 2, MPFR_RNDD);           /* 1.25/delta > 1.25 */
    mpfr_div_2ui(qU, qU, 2, MPFR_RNDU);
    mpfr_log(qL, qL, MPFR_RNDD);                  /* > ln 1.25 > 0 */
    mpfr_log(qU, qU, MPFR_RNDU);
    mpfr_sqr(vL, s, MPFR_RNDD);
    mpfr_sqr(vU, s, MPFR_RNDU);
    mpfr_mul(vL, vL, qL, MPFR_RNDD);
    mpfr_mul(vU, vU, qU, MPFR_RNDU);
    mpfr_sqr(t, eps, MPFR_RNDU);
    mpfr_div(vL, vL, t, MPFR_RNDD);
    mpfr_sqr(t, eps, MPFR_RNDD);
    mpfr_div(vU, vU, t, MPFR_RNDU);
    mpfr_mul_2ui(vL, vL, 1, MPFR_RNDD);
    mpfr_mul_2ui(vU, vU, 1, MPFR_RNDU);
    mpfr_clears(qL, qU, t, (mpfr_ptr)0);
}

/* (5): sigma^2 = 2 s^2 ln(1.25/delta) / eps^2, rounded up.  Ziv: at w bits
 * the enclosure [vL, vU] of fri_pdm_sigma2_encl; done when RU_p(vL) =
 * RU_p(vU).  For s > 0 the value is transcendental (ln of a rational != 1
 * is, Lindemann), so the loop ends. */
int fr_gauss_sigma2_classical(mpfr_t sigma2, const mpfr_t eps, const mpfr_t delta, const mpfr_t s)
{
    if (sigma2 == NULL || eps == NULL || delta == NULL || s == NULL)
        return FR_ENULL;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (mpfr_zero_p(s)) {
        mpfr_set_zero(sigma2, 1);
        return FR_OK;
    }
    mpfr_prec_t p = mpfr_get_prec(sigma2);
    mpfr_t vL, vU, rL, rU;
    mpfr_inits2(MPFR_PREC_MIN, vL, vU, (mpfr_ptr)0);
    mpfr_inits2(p, rL, rU, (mpfr_ptr)0);
    st = FR_EINTERNAL;
    for (mpfr_prec_t w = p + 32; w <= FRI_EXACT_PREC_MAX; w *= 2) {
        fri_pdm_sigma2_encl(vL, vU, eps, delta, s, w);
        mpfr_set(rL, vL, MPFR_RNDU);
        mpfr_set(rU, vU, MPFR_RNDU);
        if (mpfr_equal_p(rL, rU) || (mpfr_inf_p(rL) && mpfr_inf_p(rU))) {
            st = FR_OK;
            break;
        }
    }
    if (st == FR_OK)
        mpfr_set(sigma2, rU, MPFR_RNDU);
    mpfr_clears(vL, vU, rL, rU, (mpfr_ptr)0);
    return st;
}

/* Bisection on the p-bit grid (p = prec(lo) = prec(hi)) until lo and hi
 * are neighbours.  Invariant: hi is certified (decide = 1), lo is not
 * (decide != 1; undecided counts as "no", the safe side). */
static void bisect_grid(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr eps, mpfr_srcptr delta,
                        mpfr_srcptr s, mpfr_prec_t w0)
{
    mpfr_t mid;
    mpfr_init2(mid, mpfr_get_prec(hi));
    for (;;) {
        mpfr_set(mid, lo, MPFR_RNDN);
        mpfr_nextabove(mid);
        if (mpfr_greaterequal_p(mid, hi))
            break;
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        if (mpfr_lessequal_p(mid, lo) || mpfr_greaterequal_p(mid, hi)) {
            mpfr_set(mid, lo, MPFR_RNDN);
            mpfr_nextabove(mid);
        }
        if (decide(eps, delta, s, mid, w0, NULL, NULL) == 1)
            mpfr_set(hi, mid, MPFR_RNDN);
        else
            mpfr_set(lo, mid, MPFR_RNDN);
    }
    mpfr_clear(mid);
}

/* Bracket by doubling or halving from s: hi certified, lo not (as above). */
static int bracket_from_s(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr eps, mpfr_srcptr delta,
                          mpfr_srcptr s, mpfr_prec_t w0)
{
    mpfr_set(hi, s, MPFR_RNDU);
    if (decide(eps, delta, s, hi, w0, NULL, NULL) == 1) {
        mpfr_div_2ui(lo, hi, 1, MPFR_RNDN);
        while (decide(eps, delta, s, lo, w0, NULL, NULL) == 1) {
            mpfr_set(hi, lo, MPFR_RNDN);
            mpfr_div_2ui(lo, lo, 1, MPFR_RNDN);
            if (mpfr_zero_p(lo)) return FR_EINTERNAL;
        }
    } else {
        mpfr_set(lo, hi, MPFR_RNDN);
        mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
        while (decide(eps, delta, s, hi, w0, NULL, NULL) != 1) {
            mpfr_set(lo, hi, MPFR_RNDN);
            mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
            if (mpfr_inf_p(hi)) return FR_EINTERNAL;
        }
    }
    return FR_OK;
}

/* One Newton step on h(sigma) = ln delta_eps(sigma) - ln delta at precision
 * of x (an estimate only: the result is certified by the decisions that
 * follow).  delta_eps' = -phi(a) s / sigma^2, a = s/(2 sigma) - eps sigma/s
 * (d delta_eps / d mu = phi(mu/2 - eps/mu), mu = s/sigma: see the top).
 * Returns 0 if the step is not usable (f <= 0, a NaN, x <= 0). */
static int newton_step(mpfr_ptr x, mpfr_srcptr eps, mpfr_srcptr delta, mpfr_srcptr s)
{
    mpfr_prec_t w = mpfr_get_prec(x);
    mpfr_t lo, hi, f, a, t, d;
    mpfr_inits2(w, lo, hi, f, a, t, d, (mpfr_ptr)0);
    fri_pdm_delta_sigma_encl(lo, hi, eps, s, x, w);
    mpfr_add(f, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);             /* delta_eps(x) */
    int ok = mpfr_sgn(f) > 0;
    if (ok) {
        mpfr_div(a, s, x, MPFR_RNDN);
        mpfr_div_2ui(a, a, 1, MPFR_RNDN);
        mpfr_mul(t, eps, x, MPFR_RNDN);
        mpfr_div(t, t, s, MPFR_RNDN);
        mpfr_sub(a, a, t, MPFR_RNDN);             /* a */
        mpfr_sqr(a, a, MPFR_RNDN);
        mpfr_div_2ui(a, a, 1, MPFR_RNDN);
        mpfr_neg(a, a, MPFR_RNDN);
        mpfr_exp(a, a, MPFR_RNDN);
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_div(a, a, t, MPFR_RNDN);             /* phi(a) */
        mpfr_mul(a, a, s, MPFR_RNDN);
        mpfr_div(a, a, x, MPFR_RNDN);
        mpfr_div(a, a, x, MPFR_RNDN);             /* -delta_eps'(x) > 0 */
        mpfr_log(t, f, MPFR_RNDN);
        mpfr_log(d, delta, MPFR_RNDN);
        mpfr_sub(t, t, d, MPFR_RNDN);             /* h(x) */
        mpfr_mul(t, t, f, MPFR_RNDN);
        mpfr_div(t, t, a, MPFR_RNDN);             /* -h/h' = h f / (-f') */
        mpfr_add(t, x, t, MPFR_RNDN);
        ok = mpfr_number_p(t) && mpfr_sgn(t) > 0;
        if (ok) mpfr_set(x, t, MPFR_RNDN);
    }
    mpfr_clears(lo, hi, f, a, t, d, (mpfr_ptr)0);
    return ok;
}

/* The least p-bit sigma certified to satisfy delta_eps(sigma) <= delta, p =
 * prec(sigma).  Since delta_eps is decreasing, sigma* <= hi for a certified
 * hi; when every decision was made, nextbelow(hi) < sigma*, so hi =
 * RU_p(sigma*).  p <= 96: a bracket by doubling or halving from s, then
 * bisection on the p-bit grid.  p > 96 (Ziv's way: a cheap estimate, then
 * a proof): the 64-bit result s64 (by the former) brackets sigma* in
 * (nextbelow_64(s64), s64]; Newton steps at doubling precision up to p + 32
 * give an estimate c; the bracket is narrowed around RU_p(c) by galloping
 * (1, 2, 4, ... ulps, never beyond the 64-bit bracket) and finished by the
 * same bisection.  Every bracket end is a certified decision, so the
 * estimate changes only the cost (a few decisions instead of about p). */
int fr_gauss_sigma_analytic(mpfr_t sigma, const mpfr_t eps, const mpfr_t delta, const mpfr_t s)
{
    if (sigma == NULL || eps == NULL || delta == NULL || s == NULL)
        return FR_ENULL;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (mpfr_zero_p(s)) {                      /* no difference to hide */
        mpfr_set_zero(sigma, 1);
        return FR_OK;
    }
    mpfr_prec_t p = mpfr_get_prec(sigma), w0 = p + 32;
    mpfr_t lo, hi, c, g, u;
    mpfr_inits2(p, lo, hi, c, g, (mpfr_ptr)0);
    if (p <= 96) {
        st = bracket_from_s(lo, hi, eps, delta, s, w0);
    } else {
        mpfr_t s64;
        mpfr_init2(s64, 64);
        st = fr_gauss_sigma_analytic(s64, eps, delta, s);
        if (st == FR_OK) {
            mpfr_set(hi, s64, MPFR_RNDN);             /* exact: 64 < p */
            mpfr_nextbelow(s64);
            mpfr_set(lo, s64, MPFR_RNDN);
            mpfr_nextabove(s64);
            mpfr_init2(u, 64);
            mpfr_set(u, s64, MPFR_RNDN);
            for (mpfr_prec_t w = 128;; w = 2 * w < w0 ? 2 * w : w0) {
                mpfr_prec_round(u, w, MPFR_RNDN);
                if (!newton_step(u, eps, delta, s) || w == w0) break;
            }
            mpfr_set(c, u, MPFR_RNDU);                /* the estimate RU_p(c) */
            mpfr_clear(u);
            if (mpfr_greater_p(c, lo) && mpfr_less_p(c, hi)) {
                /* gallop: g = ulp_p(c), doubled each try, inside (lo, hi) */
                int up = decide(eps, delta, s, c, w0, NULL, NULL) == 1;
                mpfr_set(up ? hi : lo, c, MPFR_RNDN);
                mpfr_set_ui_2exp(g, 1, mpfr_get_exp(c) - p, MPFR_RNDN);
                for (int k = 0; k < 64; k++) {
                    if (up) mpfr_sub(c, hi, g, MPFR_RNDN); else mpfr_add(c, lo, g, MPFR_RNDN);
                    if (!(mpfr_greater_p(c, lo) && mpfr_less_p(c, hi))) break;
                    if ((decide(eps, delta, s, c, w0, NULL, NULL) == 1) != up) {
                        mpfr_set(up ? lo : hi, c, MPFR_RNDN);
                        break;
                    }
                    mpfr_set(up ? hi : lo, c, MPFR_RNDN);
                    mpfr_mul_2ui(g, g, 1, MPFR_RNDN);
                }
            }
        }
        mpfr_clear(s64);
    }
    if (st == FR_OK) {
        bisect_grid(lo, hi, eps, delta, s, w0);
        mpfr_set(sigma, hi, MPFR_RNDN);
    }
    mpfr_clears(lo, hi, c, g, (mpfr_ptr)0);
    return st;
}

int fr_gauss_dp_check(int *verdict, mpfr_t mlo, mpfr_t mhi, const mpfr_t eps, const mpfr_t delta,
                      const mpfr_t s, const mpfr_t sigma)
{
    if (verdict == NULL || mlo == NULL || mhi == NULL || eps == NULL || delta == NULL
        || s == NULL || sigma == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(sigma))
        return FR_ENONFINITE;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (mpfr_sgn(sigma) < 0)
        return FR_EDOM;
    mpfr_prec_t p = mpfr_get_prec(mlo) > mpfr_get_prec(mhi) ? mpfr_get_prec(mlo)
                                                            : mpfr_get_prec(mhi);
    mpfr_t a, b;
    mpfr_inits2(mpfr_get_prec(mlo), a, (mpfr_ptr)0);
    mpfr_inits2(mpfr_get_prec(mhi), b, (mpfr_ptr)0);
    int v;
    if (mpfr_zero_p(s) || mpfr_zero_p(sigma)) {
        /* s = 0: the outputs have one law, delta_eps = 0; sigma = 0 < s: a
         * deterministic output, delta_eps = 1 (the set {g(D)}). */
        int one = !mpfr_zero_p(s);
        if (one) {
            mpfr_ui_sub(a, 1, delta, MPFR_RNDU);    /* delta - 1, lower */
            mpfr_neg(a, a, MPFR_RNDN);
            mpfr_ui_sub(b, 1, delta, MPFR_RNDD);
            mpfr_neg(b, b, MPFR_RNDN);
        } else {
            mpfr_set(a, delta, MPFR_RNDD);
            mpfr_set(b, delta, MPFR_RNDU);
        }
        v = one ? FR_GAUSS_FAILS : FR_GAUSS_HOLDS;
    } else {
        int r = decide(eps, delta, s, sigma, p + 32, a, b);
        v = r == 1 ? FR_GAUSS_HOLDS : r == -1 ? FR_GAUSS_FAILS : FR_GAUSS_UNKNOWN;
    }
    *verdict = v;
    mpfr_set(mlo, a, MPFR_RNDD);
    mpfr_set(mhi, b, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return FR_OK;
}
