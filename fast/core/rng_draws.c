/* rng_draws.c -- real-valued draws from the shared stream, in binary64
 * (fedfast.h; docs/RNG.md "Uniform reals", "Laplace", "Gaussian pair").
 * Same words and same transforms as ref/core/rng_draws.c; no code shared. */
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
