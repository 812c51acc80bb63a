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
 * Contract: include/fedfast.h. */
#include <math.h>

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

int ff_fedepm_mu(double *mu, double mu0, double c, double alpha, unsigned long kp1,
                 const double *wik, const double *w, size_t n)
{
    if (!mu || !wik || !w)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(mu0) || !isfinite(c) || !isfinite(alpha)
        || !ff_all_finite(wik, n) || !ff_all_finite(w, n))
        return FR_ENONFINITE;
    if (!(mu0 > 0) || !(c >= 0) || !(alpha > 1))
        return FR_EDOM;
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        double dj = wik[j] - w[j];
        s += dj * dj;
    }
    *mu = (mu0 * (1.0 + c * s)) * pow_ul(alpha, kp1);
    return FR_OK;
}

int ff_fedepm_step(double *wnext, const double *wi, const double *w, const double *g,
                   size_t n, double lambda, double eta, double mu)
{
    if (!wnext || !wi || !w || !g)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(lambda) || !isfinite(eta) || !isfinite(mu)
        || !ff_all_finite(wi, n) || !ff_all_finite(w, n) || !ff_all_finite(g, n))
        return FR_ENONFINITE;
    if (!(lambda > 0) || !(eta > 0) || !(mu > 0))
        return FR_EDOM;
    double den = eta + mu;
    for (size_t j = 0; j < n; j++) {
        double wj = w[j];                  /* read before write: wnext may be wi */
        double wt = mu * (wi[j] - wj) - g[j];
        double s = wt > lambda ? wt - lambda : wt < -lambda ? wt + lambda : 0.0;
        wnext[j] = wj + s / den;
    }
    return FR_OK;
}
