/* SPDX-License-Identifier: Apache-2.0 */
/* fedfast/core.h -- libfedfast, module core: the closed forms shared by the
 * papers and the real-valued random draws, in binary64.  Conventions:
 * fedfast.h. */
#ifndef FEDFAST_CORE_H
#define FEDFAST_CORE_H

#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* soft-thresholding, 002 eq. (2)-(3).  Domain: a >= 0 finite, t finite,
 * n >= 1.  Accuracy: correctly rounded (one binary64 subtraction), +0 for
 * |t_j| <= a; ff_soft_bound.  Aliasing: out may alias t.
 * Statuses: FR_ENULL (out, t), FR_ESIZE (n == 0 or n > FR_COUNT_MAX),
 * FR_ENONFINITE (a, t), FR_EDOM (a < 0). */
int ff_soft(double *out, const double *t, size_t n, double a);
/* Accuracy of ff_soft (same inputs and checks): rel = 2^-53, abs = 2^-1074
 * (rounding to nearest; abs for a subnormal result).  fast/core/soft.c. */
int ff_soft_bound(double *rel, double *abs, const double *t, size_t n, double a);

/* prox of gamma ||.||_1 in 003's convention, eq. (13): soft(u, gamma/rho).
 * Domain: gamma >= 0, rho > 0, all finite; n >= 1.  rho |u_j| <= gamma
 * (in exact arithmetic) always gives +0; gamma = 0 is the identity (exact).
 * Accuracy: ff_prox_l1_bound (x = fma(r, |u|, -g) / r with (g, r) =
 * 2^-k (gamma, rho), r in [1/2, 1): two roundings and no overflow).
 * Aliasing: x may alias u.
 * Statuses: FR_ENULL (x, u), FR_ESIZE (n == 0 or n > FR_COUNT_MAX),
 * FR_ENONFINITE (gamma, rho, u), FR_EDOM (gamma < 0, rho <= 0). */
int ff_prox_l1(double *x, const double *u, size_t n, double gamma, double rho);
/* Accuracy of ff_prox_l1 (same inputs and checks): rel = 2^-51 (>= the
 * proved (1 + 2^-53)^2 - 1 = 2^-52 + 2^-106), abs = 2^-1072 (subnormal g,
 * d or x).  fast/core/prox_l1.c. */
int ff_prox_l1_bound(double *rel, double *abs, const double *u, size_t n,
                     double gamma, double rho);

/* coordinatewise median, 002 eq. (5), even-m midpoint rule as in fedref.h.
 * Domain: m, n >= 1, finite entries.  Accuracy: correctly rounded (an order
 * statistic, or a midpoint computed without overflow); ff_median_bound.
 * Aliasing: none.
 * Statuses: FR_ENULL (med, W), FR_ESIZE (m or n zero, m n > FR_COUNT_MAX),
 * FR_ENONFINITE (W), FR_ENOMEM. */
int ff_median(double *med, const double *W, size_t m, size_t n);
/* Accuracy of ff_median (same inputs and checks): rel = 2^-53,
 * abs = 2^-1074.  fast/core/median.c. */
int ff_median_bound(double *rel, double *abs, const double *W, size_t m, size_t n);

/* elastic-net aggregation, 002 eq. (14)-(16), corrected as in fedref.h.
 * Domain: lambda > 0, eta > 0, finite; m, n >= 1.
 * Accuracy: ff_ens_bound, for m <= 2^26 (proved in fast/core/ens.c:
 * (3 M + 4 C) eps + (m eps)^2 M / 2 + O(eps^2), C the capped lambda/eta; a
 * wrong branch decision costs no more).  m = 1 and equal values give the
 * value itself.  No sort: 8 columns at a time, a branch-free bisection on
 * counts per column, a selection when the result is a data value.
 * Aliasing: none.
 * Statuses: FR_ENULL (w, W), FR_ESIZE (m or n zero, m n > FR_COUNT_MAX: a
 * huge m), FR_ENONFINITE (lambda, eta, W), FR_EDOM (lambda <= 0, eta <= 0),
 * FR_ENOMEM. */
int ff_ens(double *w, const double *W, size_t m, size_t n,
           double lambda, double eta);
/* Accuracy of ff_ens (same inputs and checks; FR_ESIZE also for m > 2^26,
 * where no bound is proved): absolute upper bounds abs[0..n-1],
 *   |w_j - exact_j| <= abs_j = 8 eps (M_j + min(lambda/eta, 4 m M_j)) + 2^-1074,
 * eps = 2^-53, M_j = max_i |W_ij|, evaluated in binary64 (an upper bound
 * despite its rounding).  fast/core/ens.c. */
int ff_ens_bound(double *abs, const double *W, size_t m, size_t n,
                 double lambda, double eta);

/* Real-valued draws from the shared stream: the same words and the same
 * transforms as fr_rng_* in fedref.h, in binary64 (libm log, cos and sin
 * assumed within 1 ulp, as glibc documents).
 *   ff_rng_uniform:   exact (k * 2^-53).
 *   ff_rng_laplace:   ff_rng_laplace_bound.
 *   ff_rng_gaussian2: ff_rng_gaussian2_bound.
 * On an argument error no word is consumed and no output written.
 * Statuses: FR_ENULL (an output, g), then for ff_rng_laplace FR_ENONFINITE
 * (b) and FR_EDOM (b <= 0), for ff_rng_gaussian2 FR_EDOM (z0 == z1: two
 * outputs).  Aliasing: none (z0 and z1 distinct). */
int ff_rng_uniform(double *u, frng_t *g);
int ff_rng_laplace(double *x, frng_t *g, double b);
int ff_rng_gaussian2(double *z0, double *z1, frng_t *g);
/* Accuracy of ff_rng_laplace(x, g, b) (b checked as there): rel = 2^-51,
 * abs = 2^-1074.  fast/core/rng_draws.c. */
int ff_rng_laplace_bound(double *rel, double *abs, double b);
/* Accuracy of ff_rng_gaussian2, from the pair (z0, z1) it returned (finite,
 * else FR_ENONFINITE): |z_i - exact_i| <= abs = 8 eps sqrt(z0^2 + z1^2)
 * (eps = 2^-53, evaluated in binary64; the proof gives 7.2 eps r for the
 * exact radius r).  fast/core/rng_draws.c. */
int ff_rng_gaussian2_bound(double *abs, double z0, double z1);


#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_CORE_H */
