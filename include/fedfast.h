/* fedfast.h -- libfedfast, the binary64 implementation (BLAS/LAPACK where
 * they fit).  Same mathematics and same argument checks as fedref.h; see
 * there for the definitions.  The two libraries share no numerical code.
 *
 * Conventions:
 *  - Built with -ffp-contract=off: no silent a*b+c fusion; an fma() written
 *    in the source is deliberate.
 *  - Vectors are double arrays of length n; W is row-major m x n
 *    (W[i*n + j] = entry j of client i).
 *  - Arguments are checked before any output is written; on error the
 *    outputs are unchanged.  Status codes: fedref_common.h.
 *  - Accuracy is stated against the exact result of the binary64 inputs;
 *    tests/ and `make run` measure it against libfedref.
 */
#ifndef FEDFAST_H
#define FEDFAST_H

#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* soft-thresholding, 002 eq. (2)-(3).  Domain: a >= 0 finite, t finite,
 * n >= 1.  Accuracy: correctly rounded (one binary64 subtraction), +0 for
 * |t_j| <= a.  out may alias t. */
int ff_soft(double *out, const double *t, size_t n, double a);

/* prox of gamma ||.||_1 in 003's convention, eq. (13): soft(u, gamma/rho).
 * Domain: gamma >= 0, rho > 0, all finite; n >= 1.  The zero branch is
 * decided on rho |u_j| <= gamma.  Accuracy: relative error <= 2^-51
 * (x = fma(rho, u, -+gamma) / rho, two roundings), except where rho*|u_j|
 * overflows, where u -+ gamma/rho is used (absolute error <= ulp(gamma/rho)).
 * x may alias u. */
int ff_prox_l1(double *x, const double *u, size_t n, double gamma, double rho);

/* coordinatewise median, 002 eq. (5), even-m midpoint rule as in fedref.h.
 * Domain: m, n >= 1, finite entries.  Accuracy: correctly rounded (an order
 * statistic, or a midpoint computed without overflow). */
int ff_median(double *med, const double *W, size_t m, size_t n);

/* elastic-net aggregation, 002 eq. (14)-(16), corrected as in fedref.h.
 * Domain: lambda > 0, eta > 0, finite; m, n >= 1.
 * Accuracy: |w_j - exact_j| <= 8 eps (max_i |W_ij| + lambda/eta),
 * eps = 2^-53 (the branch decision may be wrong only by that much). */
int ff_ens(double *w, const double *W, size_t m, size_t n,
           double lambda, double eta);

/* Real-valued draws from the shared stream: the same words and the same
 * transforms as fr_rng_* in fedref.h, in binary64.
 *   ff_rng_uniform:   exact (k * 2^-53).
 *   ff_rng_laplace:   |x - exact| <= 2 ulp(x) + ulp(b) (libm log <= 1 ulp).
 *   ff_rng_gaussian2: absolute error <= 8 eps * max(1, r). */
double ff_rng_uniform(frng_t *g);
int ff_rng_laplace(double *x, frng_t *g, double b);
int ff_rng_gaussian2(double *z0, double *z1, frng_t *g);

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_H */
