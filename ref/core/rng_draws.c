/* SPDX-License-Identifier: Apache-2.0 */
/* rng_draws.c -- real-valued draws from the shared stream, in MPFR
 * (fedref.h; docs/RNG.md "Uniform reals", "Laplace", "Gaussian pair").
 *
 * The uniforms are exact dyadic rationals built from the integer words.
 * Every transform value is irrational (ln of a dyadic rational != 1 is
 * transcendental; so is sqrt of it, and its product with a nonzero
 * algebraic number), hence never a rounding boundary: the Ziv loops end.
 * The only exact results are the zeros of cos/sin at u2 in {0,1/4,1/2,3/4},
 * which are returned as +0. */
#include <limits.h>
#include <stdint.h>
#include "fedref.h"

#define ZIV_GUARD 32            /* first extra bits of working precision */
#define ZIV_MAXPREC (64 * (mpfr_prec_t)FR_PREC_MAX)  /* never reached */

static int prec_ok(const mpfr_t x)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    return p >= MPFR_PREC_MIN && p <= FR_PREC_MAX;
}

/* x = k * 2^e, rounded to nearest at the precision of x (one rounding). */
static void set_u64_2exp(mpfr_t x, uint64_t k, long e)
{
#if ULONG_MAX >= UINT64_MAX
    mpfr_set_ui_2exp(x, (unsigned long)k, e, MPFR_RNDN);
#else
    mpz_t z;
    mpz_init(z);
    mpz_import(z, 1, 1, sizeof k, 0, 0, &k);
    mpfr_set_z_2exp(x, z, e, MPFR_RNDN);
    mpz_clear(z);
#endif
}

/* Next Ziv working precision. */
static mpfr_prec_t ziv_next(mpfr_prec_t w)
{
    return w + (w / 2 > 64 ? w / 2 : 64);
}

/* Can t, whose absolute error is below 2^(EXP(t) - err) (callers prove
 * err), be rounded to nearest at the precision of y? */
static int can_round_to(const mpfr_t t, mpfr_prec_t err, const mpfr_t y)
{
    return mpfr_can_round(t, err, MPFR_RNDN, MPFR_RNDZ, mpfr_get_prec(y) + 1);
}

/* u = frng_u53 * 2^-53: exact whenever prec(u) >= 53. */
int fr_rng_uniform(mpfr_t u, frng_t *g)
{
    if (u == NULL || g == NULL)
        return FR_ENULL;
    if (!prec_ok(u))
        return FR_EPREC;
    set_u64_2exp(u, frng_u53(g), -53);
    return FR_OK;
}

/* Laplace(0, b) by inversion.  With u = (2k+1) 2^-53 from frng_u52_open:
 *   u < 1/2  (k < 2^51):  x =  b ln(2u),      2u     = (2k+1) 2^-52
 *   u > 1/2  (k >= 2^51): x = -b ln(2(1-u)),  2(1-u) = (2^53-2k-1) 2^-52
 * so x = s b ln(v), v = m 2^-52 exact (m odd, m < 2^53), s = -+1.
 * Error at working precision w: ln and the product each round to nearest
 * (relative error <= 2^-w each), total < 3 * 2^-w relative, so the error
 * is below 2^(EXP(t) + 2 - w): err = w - 2. */
int fr_rng_laplace(mpfr_t x, frng_t *g, const mpfr_t b)
{
    if (x == NULL || g == NULL || b == NULL)
        return FR_ENULL;
    if (!prec_ok(x))
        return FR_EPREC;
    if (!mpfr_number_p(b))
        return FR_ENONFINITE;
    if (mpfr_sgn(b) <= 0)
        return FR_EDOM;

    const uint64_t k = frng_u52_open(g);
    const int upper = k >= ((uint64_t)1 << 51);
    const uint64_t m = upper ? ((uint64_t)1 << 53) - 2 * k - 1 : 2 * k + 1;

    mpfr_t v, t;
    mpfr_init2(v, 64);
    set_u64_2exp(v, m, -52);                /* exact: m < 2^53 */
    mpfr_prec_t w = mpfr_get_prec(x) + ZIV_GUARD;
    if (w < 64)
        w = 64;
    mpfr_init2(t, w);
    int st = FR_OK;
    for (;;) {
        mpfr_log(t, v, MPFR_RNDN);
        mpfr_mul(t, t, b, MPFR_RNDN);
        /* Outside the exponent range (b near the extremes): overflow to
         * Inf or underflow, as MPFR's own functions do. */
        if (!mpfr_regular_p(t) || can_round_to(t, w - 2, x))
            break;
        w = ziv_next(w);
        if (w > ZIV_MAXPREC) {
            st = FR_EINTERNAL;
            break;
        }
        mpfr_set_prec(t, w);
    }
    if (st == FR_OK) {
        if (upper)
            mpfr_neg(t, t, MPFR_RNDN);      /* exact */
        mpfr_set(x, t, MPFR_RNDN);
    }
    mpfr_clear(t);
    mpfr_clear(v);
    return st;
}

/* Box-Muller.  u1 = (2k1+1) 2^-53 from frng_u52_open (first word),
 * u2 = k2 2^-53 from frng_u53 (second word); r = sqrt(-2 ln u1),
 * z0 = r cos(2 pi u2), z1 = r sin(2 pi u2) (mpfr_cosu/sinu with period 1).
 * Error at working precision w, each step rounded to nearest (relative
 * <= 2^-w): ln, sqrt (halves the inherited error), cos or sin, product:
 * total < 4 * 2^-w relative, error < 2^(EXP(t) + 3 - w): err = w - 3.
 * z0 and z1 must be distinct variables (FR_EDOM otherwise). */
int fr_rng_gaussian2(mpfr_t z0, mpfr_t z1, frng_t *g)
{
    if (z0 == NULL || z1 == NULL || g == NULL)
        return FR_ENULL;
    if (!prec_ok(z0) || !prec_ok(z1))
        return FR_EPREC;
    if (z0 == z1)
        return FR_EDOM;                     /* two outputs */

    const uint64_t k1 = frng_u52_open(g);
    const uint64_t k2 = frng_u53(g);

    mpfr_t u1, u2, r, c, s;
    mpfr_init2(u1, 64);
    mpfr_init2(u2, 64);
    set_u64_2exp(u1, 2 * k1 + 1, -53);      /* exact */
    set_u64_2exp(u2, k2, -53);              /* exact */
    mpfr_prec_t p = mpfr_get_prec(z0) > mpfr_get_prec(z1)
                  ? mpfr_get_prec(z0) : mpfr_get_prec(z1);
    mpfr_prec_t w = p + ZIV_GUARD;
    if (w < 64)
        w = 64;
    mpfr_inits2(w, r, c, s, (mpfr_ptr)0);
    int st = FR_OK;
    for (;;) {
        mpfr_log(r, u1, MPFR_RNDN);         /* < 0: u1 < 1 */
        mpfr_mul_si(r, r, -2, MPFR_RNDN);   /* exact */
        mpfr_sqrt(r, r, MPFR_RNDN);
        mpfr_cosu(c, u2, 1, MPFR_RNDN);     /* cos(2 pi u2), exact 0/+-1 */
        mpfr_sinu(s, u2, 1, MPFR_RNDN);
        mpfr_mul(c, c, r, MPFR_RNDN);       /* zero stays an exact +0 */
        mpfr_mul(s, s, r, MPFR_RNDN);
        if ((mpfr_zero_p(c) || can_round_to(c, w - 3, z0))
            && (mpfr_zero_p(s) || can_round_to(s, w - 3, z1)))
            break;
        w = ziv_next(w);
        if (w > ZIV_MAXPREC) {
            st = FR_EINTERNAL;
            break;
        }
        mpfr_set_prec(r, w);
        mpfr_set_prec(c, w);
        mpfr_set_prec(s, w);
    }
    if (st == FR_OK) {
        mpfr_set(z0, c, MPFR_RNDN);
        mpfr_set(z1, s, MPFR_RNDN);
    }
    mpfr_clears(u1, u2, r, c, s, (mpfr_ptr)0);
    return st;
}
