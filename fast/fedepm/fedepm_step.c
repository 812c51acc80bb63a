/* SPDX-License-Identifier: Apache-2.0 */
/* fedepm_step.c -- ff_fedepm_mu and ff_fedepm_step: the proximal weight and
 * the client update of FedEPM, 002 (20), binary64.
 *
 *   mu    = mu0 (1 + c ||wik - w||^2) alpha^kp1
 *   wt    = mu (wi - w) - g,   wnext = w + soft(wt, lambda) / (eta + mu)
 *           (the + sign of (20); (47) prints -, docs/ERRATA.md E-002-47).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u), Higham's lemma;
 * no overflow, no underflow unless stated).
 * mu: the differences (1 each), squares (1), recursive sum (n - 1), times c
 *   (1), plus 1 (1, both terms >= 0): theta_{n+3}; times mu0 (1); alpha^kp1
 *   by pow (assumption (L): pow within 2 ulp, 4 factors; for kp1 > 2^53,
 *   where (double)kp1 would round, kp1 = hi + lo with hi, lo exact doubles
 *   and alpha^hi alpha^lo: 9 factors), last product (1).  Hence
 *     |mu^ - mu| <= gamma_{n+14} mu.
 * step, per component (T = mu |wi - w| + |g|, q = soft(wt, lambda)/(eta+mu)):
 *   wt^ = (mu (wi - w)(1 + d1)(1 + d2) - g)(1 + d3): |wt^ - wt| <= gamma_3 T;
 *   soft is 1-Lipschitz and one correctly rounded subtraction (or exact +0):
 *     |s^ - s| <= gamma_3 T + u (|s| + gamma_3 T) <= gamma_4 T;
 *   eta + mu (1), the division (1): |q^ - q| <= gamma_6 T / (eta + mu);
 *   w + q^ (1):
 *     |wnext^ - wnext| <= gamma_7 (|w| + (mu |wi - w| + |g|) / (eta + mu))
 *                         + 2^-1072 (1 + 1/(eta + mu)),
 *   the absolute term for intermediates that underflow (each within 2^-1075).
 *   At the kink |wt| = lambda computed exactly, wnext = w exactly.
 *
 * The bound functions.
 * ff_fedepm_mu_bound returns rel = (n + 15) u, exact (n + 15 <= 2^53), and
 *   gamma_{n+14} <= (n + 15) u iff (n + 14)(n + 15) u <= 1, which holds for
 *   n + 15 <= 2^26 (FR_ESIZE beyond).  The over/underflow condition is
 *   the caller's, as in the contract.
 * ff_fedepm_step_bound.  Counted honestly, the only intermediates that can
 *   be inexact below 2^-1022 are the product mu (wi - w) and the quotient
 *   (a sum or difference of binary64 with a subnormal result is exact), so
 *   the error above is at most gamma_7 V + 2^-1075 (1 + 6u)(1 + 1/(eta + mu)),
 *   V = |w| + (mu |wi - w| + |g|)/(eta + mu); the contract's 2^-1072 term
 *   is that with room.  Per component the function returns
 *     B^ = RN(RN(8u t^) + A^),  A^ = RN(2^-1072 RN(1 + RN(1/den^))),
 *     t^ = RN(|w| + RN(RN(RN(RN(mu RN|wi - w|) + |g|) + lambda) / den^)),
 *   den^ = RN(eta + mu) (finite: FR_EDOM when eta + mu overflows, where
 *   ff_fedepm_step returns w and the proof does not apply).  With lambda
 *   only adding, t^ >= (1 - u)^7 V - 2^-1075/(eta + mu) (the product's
 *   underflow); RN(8u t^) loses at most a factor (1 - u) or 2^-1075, A^ at
 *   most (1 - u)^3 or 2^-1075, the sum (1 - u) or nothing (subnormal):
 *     B^ >= 8u (1 - u)^9 V + 2^-1072 (1 - u)^4 (1 + 1/(eta + mu))
 *           - 3 2^-1075 (1 + 1/(eta + mu))
 *        >= 7.99 u V + 4.9 2^-1075 (1 + 1/(eta + mu)),
 *   above the proved error (gamma_7 <= 7.01 u): an upper bound despite its
 *   own rounding.  The golden vectors' tol is the maximum over the
 *   components, i.e. the same expression at the largest t^ (RN monotone).
 * Contract: include/fedfast.h. */
#include <math.h>
#include <stdint.h>

#include "fedfast.h"
#include "../internal.h"

/* alpha^k with exact exponents: pow, or a product of two pows when k does
 * not fit a binary64 exactly. */
static double pow_ul(double alpha, unsigned long k)
{
    if ((unsigned long long)k <= (1ull << 53))
        return pow(alpha, (double)k);
    unsigned long lo = k & 0xffffffffu, hi = k - lo;   /* hi: <= 32 significant bits */
    return pow(alpha, (double)hi) * pow(alpha, (double)lo);
}

/* The checks of ff_fedepm_mu and its bound after the output's NULL test, in
 * class order; n above nmax is FR_ESIZE too (the bound's proof). */
static int mu_args(double mu0, double c, double alpha, const double *wik, const double *w,
                   size_t n, size_t nmax)
{
    if (!wik || !w)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX || n > nmax)
        return FR_ESIZE;
    if (!isfinite(mu0) || !isfinite(c) || !isfinite(alpha)
        || !ffi_all_finite(wik, n) || !ffi_all_finite(w, n))
        return FR_ENONFINITE;
    return mu0 > 0 && c >= 0 && alpha > 1 ? FR_OK : FR_EDOM;   /* c = 0: fedref's extension */
}

/* The same for ff_fedepm_step and its bound. */
static int step_args(const double *wi, const double *w, const double *g, size_t n,
                     double lambda, double eta, double mu)
{
    if (!wi || !w || !g)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(lambda) || !isfinite(eta) || !isfinite(mu)
        || !ffi_all_finite(wi, n) || !ffi_all_finite(w, n) || !ffi_all_finite(g, n))
        return FR_ENONFINITE;
    return lambda > 0 && eta > 0 && mu > 0 ? FR_OK : FR_EDOM;
}

int ff_fedepm_mu(double *mu, double mu0, double c, double alpha, unsigned long kp1,
                 const double *wik, const double *w, size_t n)
{
    int st = mu ? mu_args(mu0, c, alpha, wik, w, n, SIZE_MAX) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        double dj = wik[j] - w[j];
        s += dj * dj;
    }
    *mu = (mu0 * (1.0 + c * s)) * pow_ul(alpha, kp1);
    return FR_OK;
}

int ff_fedepm_mu_bound(double *rel, double mu0, double c, double alpha, unsigned long kp1,
                       const double *wik, const double *w, size_t n)
{
    (void)kp1;
    /* ff_fedepm_mu's checks; gamma_{n+14} <= (n + 15) u needs n <= 2^26 - 15 */
    int st = rel ? mu_args(mu0, c, alpha, wik, w, n, ((size_t)1 << 26) - 15) : FR_ENULL;
    if (st != FR_OK)
        return st;
    *rel = (double)(n + 15) * 0x1p-53;
    return FR_OK;
}

int ff_fedepm_step(double *wnext, const double *wi, const double *w, const double *g,
                   size_t n, double lambda, double eta, double mu)
{
    int st = wnext ? step_args(wi, w, g, n, lambda, eta, mu) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double den = eta + mu;
    for (size_t j = 0; j < n; j++) {
        double wj = w[j];                  /* read before write: wnext may be wi */
        double wt = mu * (wi[j] - wj) - g[j];
        double s = wt > lambda ? wt - lambda : wt < -lambda ? wt + lambda : 0.0;
        wnext[j] = wj + s / den;
    }
    return FR_OK;
}

int ff_fedepm_step_bound(double *abs, const double *wi, const double *w, const double *g,
                         size_t n, double lambda, double eta, double mu)
{
    int st = abs ? step_args(wi, w, g, n, lambda, eta, mu) : FR_ENULL;   /* ff_fedepm_step's */
    if (st != FR_OK)
        return st;
    if (!isfinite(eta + mu))
        return FR_EDOM;                    /* outside the proof */
    double A = 0x1p-1072 * (1 + 1 / (eta + mu));
    for (size_t j = 0; j < n; j++) {
        double t = fabs(w[j]) + (mu * fabs(wi[j] - w[j]) + fabs(g[j]) + lambda) / (eta + mu);
        abs[j] = 8 * 0x1p-53 * t + A;
    }
    return FR_OK;
}
