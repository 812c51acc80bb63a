/* SPDX-License-Identifier: Apache-2.0 */
/* rng_draws.c -- real-valued draws from the shared stream, in binary64
 * (fedfast.h; docs/RNG.md "Uniform reals", "Laplace", "Gaussian pair").
 * Same words and same transforms as ref/core/rng_draws.c; no code shared.
 *
 * Error analysis (u = 2^-53; libm log, cos, sin within 1 ulp of their
 * exact result y, and ulp(y) <= 2u |y|; sqrt correctly rounded).
 *
 * Laplace: the argument v = 2u1 or 2(1 - u1) is exact and != 1, so
 * L = log v != 0 and |L^ - L| <= ulp(L) <= 2u |L|; x^ = RN(+-b L^) (the
 * sign is exact).  |x^ - x| <= |RN(b L^) - b L^| + b |L^ - L|
 * <= u b |L^| + 2u |x| <= (3u + 2u^2) |x| (normal product), or one more
 * 2^-1075 when the product is subnormal.  ff_rng_laplace_bound returns
 * rel = 2^-51 >= 3u + 2u^2 and abs = 2^-1074 (exact constants).
 *
 * Gaussian: R = sqrt(-2 ln u1), Z = R (cos, sin)(2 pi u2) = R (CQ, SQ),
 * with 2 pi u2 = q pi/2 + phi, phi = (pi/2) f, f exact, so (CQ, SQ) is
 * (cos phi, sin phi) turned by q quarter turns (exact sign changes).
 *  r^ = RN(sqrt(-2 L^)), |L^ - L| <= 2u |L|: |r^ - R| <= (2u + u^2) R.
 *  phi^ = RN(c f), c = RN(pi/2) within u (pi/2): |phi^ - phi| <= (2u +
 *    u^2) phi <= 3.15u.
 *  cos^ within ulp(cos phi^) <= u of cos phi^ (cos phi^ < 1; phi^ = 0
 *    gives 1 exactly, then phi = 0), and |cos phi^ - cos phi| <= |phi^ - phi|:
 *    |cos^ - cos phi| <= 4.15u; the same for sin (sin phi^ < 1); |cq^| <= 1 + u.
 *  z^ = RN(r^ cq^): |z^ - R CQ| <= |r^ - R| |cq^| + R |cq^ - CQ| + u |r^ cq^|
 *    <= (2.01 + 4.15 + 1.01) u R <= 7.2 u R  (R >= 2^-26: no underflow).
 * ff_rng_gaussian2_bound returns B^ = 2^-50 RN(sqrt(RN(RN(z0^2) + RN(z1^2)))).
 * With rho = |(z0^, z1^)|: R <= rho + |z^ - Z| <= rho + 10.2 u R, and the
 * evaluation is >= rho (1 - 2.5u), so R <= (1 + 13u) s with s the evaluated
 * radius; B^ = 8u s (exact scaling, s >= 2^-27) >= 8u R (1 - 13u) >= 7.2 u R
 * >= |z^_i - Z_i|: an upper bound despite its own rounding. */
#include <math.h>
#include "fedfast.h"

/* u = k 2^-53, exact (k < 2^53). */
int ff_rng_uniform(double *u, frng_t *g)
{
    if (u == NULL || g == NULL)
        return FR_ENULL;
    *u = (double)frng_u53(g) * 0x1p-53;
    return FR_OK;
}

/* Laplace(0, b) by inversion, u = (2k+1) 2^-53 in (0,1) (exact).  2u and
 * 2(1-u) are exact in binary64, so the only roundings are log (e ulps of
 * log, e < 1 in glibc) and the product (1/2 ulp): the error is at most
 * (2e + 1/2) ulp(x), within the bound of fedfast.h. */
int ff_rng_laplace(double *x, frng_t *g, double b)
{
    if (x == NULL || g == NULL)
        return FR_ENULL;
    if (!isfinite(b))
        return FR_ENONFINITE;
    if (!(b > 0))
        return FR_EDOM;
    const double u = (double)(2 * frng_u52_open(g) + 1) * 0x1p-53;
    if (u < 0.5)
        *x = b * log(2 * u);
    else
        *x = -b * log(2 * (1 - u));
    return FR_OK;
}

/* Box-Muller: u1 = (2k1+1) 2^-53 (first word), u2 = k2 2^-53 (second).
 * The angle 2 pi u2 is reduced exactly: with 4 u2 = q + f (q = k2 >> 51 the
 * quadrant, f in [0,1) exact), 2 pi u2 = q pi/2 + phi, phi = (pi/2) f,
 * then (cos, sin) is rotated by q quarter turns.  phi carries at most
 * ~1.6 eps of error instead of ~6 eps for 2*M_PI*u2 near 2 pi.  Exact
 * zeros come out as +0 (0.0 - t instead of -t), as in ref. */
int ff_rng_gaussian2(double *z0, double *z1, frng_t *g)
{
    if (z0 == NULL || z1 == NULL || g == NULL)
        return FR_ENULL;
    if (z0 == z1)
        return FR_EDOM;                     /* two outputs */
    const double u1 = (double)(2 * frng_u52_open(g) + 1) * 0x1p-53;
    const uint64_t k2 = frng_u53(g);
    const double r = sqrt(-2 * log(u1));
    const unsigned q = (unsigned)(k2 >> 51);                    /* 0..3 */
    const double f = (double)(k2 & (((uint64_t)1 << 51) - 1)) * 0x1p-51;
    const double phi = 0x1.921fb54442d18p+0 * f;                /* pi/2 */
    const double c = cos(phi), s = sin(phi);
    double cq, sq;
    switch (q) {
    case 0:  cq = c;       sq = s;       break;
    case 1:  cq = 0.0 - s; sq = c;       break;
    case 2:  cq = 0.0 - c; sq = 0.0 - s; break;
    default: cq = s;       sq = 0.0 - c; break;
    }
    *z0 = r * cq;
    *z1 = r * sq;
    return FR_OK;
}

int ff_rng_laplace_bound(double *rel, double *abs, double b)
{
    if (rel == NULL || abs == NULL)
        return FR_ENULL;
    if (!isfinite(b))
        return FR_ENONFINITE;
    if (!(b > 0))
        return FR_EDOM;
    *rel = 0x1p-51;
    *abs = 0x1p-1074;
    return FR_OK;
}

int ff_rng_gaussian2_bound(double *abs, double z0, double z1)
{
    if (abs == NULL)
        return FR_ENULL;
    if (!isfinite(z0) || !isfinite(z1))
        return FR_ENONFINITE;
    *abs = 0x1p-50 * sqrt(z0 * z0 + z1 * z1);
    return FR_OK;
}
