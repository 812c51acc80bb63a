/* SPDX-License-Identifier: Apache-2.0 */
/* fedref/core.h -- libfedref, module core: the closed forms shared by the
 * papers (soft-thresholding, prox of the l1 norm, coordinatewise median,
 * elastic-net aggregation) and the real-valued random draws.  Conventions:
 * fedref.h. */
#ifndef FEDREF_CORE_H
#define FEDREF_CORE_H

#include <mpfr.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- soft-thresholding ------------------------------------------------
 * Math:      out_j = soft(t_j, a) = argmin_x 1/2 (x - t_j)^2 + a|x|
 *            = sign(t_j) max(|t_j| - a, 0).        002 eq. (2), vector form (3)
 * Domain:    a >= 0 (a = 0 is the identity); n >= 1.
 * Statuses:  FR_ENULL (out, t, a), FR_ESIZE (n == 0 or n > FR_COUNT_MAX),
 *            FR_ENONFINITE (NaN/Inf in a or t), FR_EDOM (a < 0).
 * Specials:  |t_j| <= a gives +0 exactly.
 * Accuracy:  correctly rounded (one MPFR subtraction).
 * Precision: that of each out_j.  Aliasing: out may alias t.
 * Checked by: proofs_checks/core/check_soft.c, tests/core/test_ref_closed_forms.c,
 *            vectors/soft.json. */
int fr_soft(mpfr_t *out, mpfr_t *const t, size_t n, const mpfr_t a);

/* ---- proximal operator of gamma * ||.||_1 (003 convention) ------------
 * Math:      x = prox_{rho h}(u) = argmin_x gamma ||x||_1 + rho/2 ||x - u||^2
 *            = soft(u, gamma / rho).                 003 eq. (13), (A.1)
 *            NB: 003 writes prox_{rho h} for what is usually prox_{h/rho};
 *            the threshold is gamma/rho, not rho*gamma (docs/ERRATA.md).
 * Domain:    gamma >= 0, rho > 0; n >= 1.
 * Statuses:  FR_ENULL (x, u, gamma, rho), FR_ESIZE (n == 0 or n >
 *            FR_COUNT_MAX), FR_ENONFINITE (gamma, rho, u), FR_EDOM
 *            (gamma < 0, rho <= 0).
 * Specials:  rho |u_j| <= gamma (decided exactly) gives +0.
 * Accuracy:  correctly rounded (Ziv loop on (rho u_j -+ gamma) / rho).
 * Precision: that of each x_j.  Aliasing: x may alias u.
 * Checked by: proofs_checks/core/check_prox_l1.c, vectors/prox_l1.json. */
int fr_prox_l1(mpfr_t *x, mpfr_t *const u, size_t n,
               const mpfr_t gamma, const mpfr_t rho);

/* ---- coordinatewise median ---------------------------------------------
 * Math:      med_j = median(W[0][j], ..., W[m-1][j]), a minimiser of
 *            sum_i |w - W[i][j]|.                    002 eq. (5)
 *            Tie rule: for odd m the minimiser is unique (the middle order
 *            statistic).  For even m every point of [v_(m/2), v_(m/2+1)]
 *            (ascending order statistics) minimises (5); fedref returns the
 *            midpoint (v_(m/2) + v_(m/2+1)) / 2.
 * Domain:    m >= 1, n >= 1, finite entries.
 * Statuses:  FR_ENULL (med, W), FR_ESIZE (m or n zero, m n >
 *            FR_COUNT_MAX), FR_ENONFINITE (NaN/Inf in W), FR_ENOMEM.
 * Accuracy:  correctly rounded (an order statistic, or one MPFR addition
 *            and an exact halving).
 * Precision: that of each med_j.  Aliasing: none (med may not alias W).
 * Checked by: proofs_checks/core/check_median.c, vectors/median.json. */
int fr_median(mpfr_t *med, mpfr_t *const W, size_t m, size_t n);

/* ---- elastic-net aggregation (ENS) --------------------------------------
 * Math:      w = argmin_w sum_i phi(w_i - w),
 *            phi(z) = lambda ||z||_1 + eta/2 ||z||^2  002 eq. (8), (14)-(16)
 *            Coordinatewise the objective is strictly convex; its minimiser
 *            is either a data value W[i][j] (when 0 lies in the
 *            subdifferential there) or, with s the number of data values
 *            strictly above it,
 *              w_j = mean_j + (lambda/eta) (2 s / m - 1).
 *            The printed (13)/(15) has the opposite sign and omits the
 *            data-value case (docs/ERRATA.md, E-002-13).
 * Algorithm: sort each coordinate, bisect on the sign of the one-sided
 *            derivatives at the data values; every sign is decided exactly
 *            (mpfr_sum of exact products), so the branch is always right.
 *            O(n m log m) sign evaluations of O(m) each.
 * Domain:    lambda > 0, eta > 0 (002 Sec. III); m >= 1, n >= 1.
 * Statuses:  FR_ENULL (w, W, lambda, eta), FR_ESIZE (m or n zero, m n >
 *            FR_COUNT_MAX: a huge m), FR_ENONFINITE (lambda, eta, W),
 *            FR_EDOM (lambda <= 0, eta <= 0), FR_ENOMEM, FR_EINTERNAL (a
 *            sign decision contradicts the convexity: a bug; w untouched).
 * Accuracy:  correctly rounded (a data value, or a Ziv loop on
 *            (eta S + lambda (2s - m)) / (eta m), S the exact column sum).
 * Precision: that of each w_j.  Aliasing: none (w may not alias W).
 * Checked by: proofs_checks/core/check_ens.c, vectors/ens.json. */
int fr_ens(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
           const mpfr_t lambda, const mpfr_t eta);

/* The printed formula of 002 eq. (13)/(15) with Algorithm 1 as printed:
 * w_j(s) = mean_j - (lambda/eta)(2s/m - 1), the first s in 1..m with
 * v_s >= w_j(s) > v_{s+1} (descending order, v_{m+1} = -inf).  Kept only so
 * that the errata check can show it is wrong.  Not correctly rounded (two
 * roundings).  No libfedfast counterpart.
 * Statuses: those of fr_ens (FR_ENULL, FR_ESIZE, FR_ENONFINITE, FR_EDOM,
 * FR_ENOMEM), and FR_EINTERNAL for a coordinate where no s qualifies (w
 * untouched).  Aliasing: none. */
int fr_ens_as_printed(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                      const mpfr_t lambda, const mpfr_t eta);

/* ---- real-valued draws from the shared stream (docs/RNG.md) -------------
 * Each consumes exactly the words docs/RNG.md says and is correctly rounded
 * to the precision of its output.  On an argument error no word is
 * consumed and no output written.
 * Statuses:  FR_ENULL (an output, g, b), FR_EPREC (the precision of an
 *            output outside [MPFR_PREC_MIN, FR_PREC_MAX]), then for
 *            fr_rng_laplace FR_ENONFINITE (b) and FR_EDOM (b <= 0), for
 *            fr_rng_gaussian2 FR_EDOM (z0 == z1: two outputs);
 *            FR_EINTERNAL (laplace, gaussian2: a Ziv loop beyond
 *            64 FR_PREC_MAX bits; never seen, the values are irrational).
 * Aliasing:  none (z0 and z1 distinct).
 *   fr_rng_uniform:  u = frng_u53 * 2^-53, exact for prec >= 53.
 *   fr_rng_laplace:  Laplace(0, b): u = (2k+1) 2^-53 from frng_u52_open,
 *                    x = b ln(2u) if u < 1/2, x = -b ln(2(1-u)) otherwise.
 *                    Density 1/(2b) exp(-|x|/b).  FR_EDOM unless b > 0.
 *   fr_rng_gaussian2: Box-Muller: u1 from frng_u52_open, then u2 from
 *                    frng_u53; r = sqrt(-2 ln u1),
 *                    z0 = r cos(2 pi u2), z1 = r sin(2 pi u2). */
int fr_rng_uniform(mpfr_t u, frng_t *g);
int fr_rng_laplace(mpfr_t x, frng_t *g, const mpfr_t b);
int fr_rng_gaussian2(mpfr_t z0, mpfr_t z1, frng_t *g);


#ifdef __cplusplus
}
#endif
#endif /* FEDREF_CORE_H */
