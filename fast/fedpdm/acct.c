/* SPDX-License-Identifier: Apache-2.0 */
/* acct.c -- the privacy accountant of FedPDM-DP (paper 003), fast wing
 * (docs/FEDPDM.md, privacy accounting; contracts: fedfast/fedpdm.h).
 *
 * Every returned epsilon is an upper bound, by outward rounding factors:
 * each computed quantity q is replaced by ffi_pad_up(q) = q + |q| r + 2^-1060 or
 * ffi_pad_down(q) = q - |q| r - 2^-1060 in the direction that makes the final
 * epsilon larger, with r = 2^-50 after a correctly rounded operation
 * (+ - * / sqrt: relative error <= 2^-53; the factor's own rounding is
 * covered since |q| 2^-50 > ulp(q)/2 + 2^-53 |q|) and r = 2^-40 after a
 * libm call (exp, expm1, log, log1p, erfc).  The libm assumption: those
 * functions return a result within 2^-40 relative error of the exact one,
 * or within 2^-1060 absolute error in the subnormal range (glibc documents
 * at most a few ulps, i.e. about 2^-50).  Compiled without contraction or
 * fast-math (the GNUmakefile's flags). */
#include <float.h>
#include <math.h>
#include "../internal.h"
#include "fedfast/fedpdm.h"
#include "acct.h"
#include "acct_stages.h"

#define SQRT1_2 0.70710678118654752440       /* 1/sqrt2 rounded: one more 2^-53 */
#define LN_SQRT_PI 0.57236494292470008707    /* ln sqrt(pi) rounded: likewise */
#define LN2 0.69314718055994530942           /* ln 2 rounded: likewise */


/* Phi(x) bounded above (dir > 0) or below (dir < 0), x a bound of the
 * argument in the same direction (Phi increasing). */
static double phi_b(double x, int dir)
{
    double y = x * SQRT1_2;
    if (dir > 0) {
        y = -ffi_pad_up(y, R_OP);               /* a lower bound of -x/sqrt2 */
        return ffi_pad_up(0.5 * erfc(y), R_LM); /* erfc decreasing */
    }
    y = -ffi_pad_down(y, R_OP);
    double r = ffi_pad_down(0.5 * erfc(y), R_LM);
    return r > 0 ? r : 0;
}

/* ln Phi(-z) bounded above (dir > 0) or below (dir < 0), z >= 0 a bound of
 * the argument in the opposite direction (ln Phi(-z) decreasing in z):
 * Phi(-z) = erfc(w)/2, w = z/sqrt2.  For w < 26 the log of the bounded
 * erfc; for w >= 26 (erfc below 1e-295, underflowing from w = 27.3) the
 * asymptotic series (Abramowitz & Stegun 7.1.23): erfc(w) = e^{-w^2} S /
 * (w sqrt pi), S between the partial sums with 5 and 6 terms (alternating,
 * the remainder bounded by the first omitted term); the margin 2^-40 (w^2
 * + |ln w| + 2) covers the roundings (2^-53 each), the constants and the
 * libm log (2^-40 relative). */
static double lphi_neg(double z, int dir)
{
    double w = dir > 0 ? ffi_pad_down(z * SQRT1_2, R_OP) : ffi_pad_up(z * SQRT1_2, R_OP);
    if (w < 0)
        w = 0;
    if (w < 26) {
        double E = dir > 0 ? ffi_pad_up(0.5 * erfc(w), R_LM) : ffi_pad_down(0.5 * erfc(w), R_LM);
        if (!(E > 0))
            return -INFINITY;
        return dir > 0 ? ffi_pad_up(log(E), R_LM) : ffi_pad_down(log(E), R_LM);
    }
    double w2 = w * w;
    if (isinf(w2))
        return dir > 0 ? -DBL_MAX : -INFINITY;
    double r = 1 / (2 * w2), term = 1, S5 = 1, S6;
    for (int j = 1; j <= 4; j++) {
        term *= -(2 * j - 1) * r;
        S5 += term;
    }
    term *= -9 * r;
    S6 = S5 + term;
    double lw = log(w);
    double v = -w2 - lw - LN_SQRT_PI - LN2 + log(dir > 0 ? fmax(S5, S6) : fmin(S5, S6));
    double mg = 0x1p-40 * (w2 + fabs(lw) + 2) + ABS_T;
    return dir > 0 ? v + mg : v - mg;
}

/* The decision delta(eps) <= delta for
 * delta(eps) = Phi(x1) - T, x1 = a/2 - eps/a, T = e^eps Phi(-z), z = a/2 +
 * eps/a, a = s/sigma: 1 certified, -1 certified false, 0 undecided.  T in
 * log space (exp(eps + ln Phi(-z)): no overflow of e^eps, no underflow of
 * Phi(-z)); the test made on delta(eps) directly and on its complement
 * 1 - delta(eps) = Phi(-x1) + T (two positive terms: no loss near
 * delta = 1); either certifies. */
void ffi_pdm_cert_args(double b[4], double eps, double s, double sigma)
{
    const double alo = ffi_pad_down(s / sigma, R_OP), ahi = ffi_pad_up(s / sigma, R_OP);
    const double x1U = ffi_pad_up(ffi_pad_up(ahi / 2, R_OP) - ffi_pad_down(eps / ahi, R_OP), R_OP);
    const double x1L = ffi_pad_down(ffi_pad_down(alo / 2, R_OP) - ffi_pad_up(eps / alo, R_OP), R_OP);
    const double zU = ffi_pad_up(ffi_pad_up(ahi / 2, R_OP) + ffi_pad_up(eps / alo, R_OP), R_OP);
    double zL = ffi_pad_down(ffi_pad_down(alo / 2, R_OP) + ffi_pad_down(eps / ahi, R_OP), R_OP);
    b[0] = x1L;
    b[1] = x1U;
    b[2] = zL;
    b[3] = zU;
}

/* <= e^{eps + l} (acct_stages.h) */
double ffi_pdm_T_lo(double eps, double l)
{
    return ffi_pad_down(exp(ffi_pad_down(eps + l, R_OP)), R_LM);
}

/* the certificate of delta(eps) <= delta (acct_stages.h) */
int ffi_pdm_cert_holds(double PU, double QL, double TL, double delta)
{
    const double cU = ffi_pad_up(1 - delta, R_OP);   /* 1 - delta */
    if (ffi_pad_up(PU - TL, R_OP) <= delta || ffi_pad_down(QL + TL, R_OP) >= cU)
        return 1;
    return 0;
}

static int eps_cert(double eps, double s, double sigma, double delta)
{
    double b[4];
    ffi_pdm_cert_args(b, eps, s, sigma);
    const double x1L = b[0], x1U = b[1], zU = b[3];
    double zL = b[2];
    if (zL < 0)
        zL = 0;
    const double PU = phi_b(x1U, 1), PL = phi_b(x1L, -1);
    const double QU = phi_b(-x1L, 1), QL = phi_b(-x1U, -1);
    double TL = ffi_pdm_T_lo(eps, lphi_neg(zU, -1));
    double TU = ffi_pad_up(exp(ffi_pad_up(eps + lphi_neg(zL, 1), R_OP)), R_LM);
    if (!(TL >= 0))
        TL = 0;
    if (isnan(TU))
        TU = INFINITY;
    const double cL = ffi_pad_down(1 - delta, R_OP);   /* 1 - delta */
    if (ffi_pdm_cert_holds(PU, QL, TL, delta))
        return 1;
    if (ffi_pad_down(PL - TU, R_OP) > delta || ffi_pad_up(QU + TU, R_OP) < cL)
        return -1;
    return 0;
}

int ffi_pdm_eps_cert(double eps, double s, double sigma, double delta) { return eps_cert(eps, s, sigma, delta); }
double ffi_pdm_phi_b(double x, int dir) { return phi_b(x, dir); }
double ffi_pdm_lphi_neg(double z, int dir) { return lphi_neg(z, dir); }

/* valid inputs, s > 0: an upper bound of the least eps (or +Inf). */
static double gauss_eps_core(double sigma, double s, double delta)
{
    if (eps_cert(0, s, sigma, delta) == 1)
        return 0;
    double lo = 0, hi = 1;
    for (int r; (r = eps_cert(hi, s, sigma, delta)) != 1;) {
        if (r == -1)
            lo = hi;
        hi *= 2;
        if (hi > 0x1p1000)
            return INFINITY;
    }
    for (int k = 0; k < 400 && hi - lo > 0x1p-46 * hi; k++) {
        const double m = lo + (hi - lo) / 2;
        if (m <= lo || m >= hi)
            break;
        if (eps_cert(m, s, sigma, delta) == 1)
            hi = m;
        else
            lo = m;   /* not certified below: lo only steers the search */
    }
    return hi;
}

static int gauss_args(double sigma, double s, double delta)
{
    if (!isfinite(sigma) || !isfinite(s) || !isfinite(delta))
        return FR_ENONFINITE;
    if (!(sigma > 0) || s < 0 || !(delta > 0) || !(delta < 1))
        return FR_EDOM;
    return FR_OK;
}

int ff_fedpdm_gauss_eps(double *eps, double sigma, double s, double delta)
{
    if (eps == NULL)
        return FR_ENULL;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    *eps = s == 0 ? 0 : gauss_eps_core(sigma, s, delta);
    return FR_OK;
}

/* <= delta / n (acct_stages.h) */
double ffi_pdm_delta_share(double delta, double n)
{
    return ffi_pad_down(delta / n, R_OP);
}

/* the advanced composition from e0 (acct_stages.h) */
double ffi_pdm_compose_adv(double e0, double Td, double delta)
{
    const double L = ffi_pad_up(-ffi_pad_down(log(delta / 2), R_LM), R_OP);
    double t = ffi_pad_up(sqrt(ffi_pad_up(2 * Td * L, R_OP)), R_OP);
    t = ffi_pad_up(t * e0, R_OP);
    double u = ffi_pad_up(expm1(e0), R_LM);
    u = ffi_pad_up(ffi_pad_up(u * e0, R_OP) * Td, R_OP);
    return ffi_pad_up(t + u, R_OP);
}

int ff_fedpdm_compose(double *basic, double *adv, double sigma, double s, unsigned long T,
                      double delta)
{
    if (basic == NULL || adv == NULL)
        return FR_ENULL;
    if (T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    if (basic == adv)
        return FR_EDOM;
    const double Td = (double)T;                           /* exact: T <= 2^40 */
    /* delta_0 = delta/T and delta/(2T) rounded down; below DBL_MIN the
     * rounding down is not certified (dn's absolute margin), so that
     * epsilon is +Inf, a valid upper bound (fedfast/fedpdm.h) */
    double d0 = ffi_pdm_delta_share(delta, Td);
    double e0 = s == 0 ? 0 : d0 >= DBL_MIN ? gauss_eps_core(sigma, s, d0) : INFINITY;
    const double b = ffi_pad_up(e0 * Td, R_OP);
    d0 = ffi_pdm_delta_share(delta, 2 * Td);
    e0 = s == 0 ? 0 : d0 >= DBL_MIN ? gauss_eps_core(sigma, s, d0) : INFINITY;
    /* ln(1/delta'): delta/2 exact when it is normal; else adv is +Inf
     * below (e0 is +Inf when s > 0; s = 0 gives adv = 0 either way) */
    const double a = ffi_pdm_compose_adv(e0, Td, delta);
    *basic = b;
    *adv = isnan(a) ? INFINITY : a;
    return FR_OK;
}

/* the per-round subsampled RDP of order al, an upper bound (see ref). */
static double rdp_round(unsigned long al, double mu, double lg, int sub)
{
    double r = ffi_pad_up(mu * (double)al, R_OP);
    if (!sub)
        return r;
    /* log-domain terms lt_j, an upper bound each; lt_0 = 0 (the 1) */
    const double m2 = ffi_pad_up(2 * mu, R_OP);
    double a = ffi_pad_up(4 * ffi_pad_up(expm1(m2), R_LM), R_OP);
    double b = ffi_pad_up(2 * ffi_pad_up(exp(m2), R_LM), R_OP);
    double c2 = (double)al * (double)(al - 1) / 2;         /* exact: al <= 1024 */
    double lt[ACCT_ALPHA_MAX + 1];
    double la = a < b ? ffi_pad_up(log(a), R_LM) : ffi_pad_up(ffi_pad_up(log(2.0), R_LM) + ffi_pad_up(m2, R_OP), R_OP);
    if (a < b && !(a > 0))
        la = -INFINITY;                                     /* mu = 0: no term */
    lt[0] = 0;
    lt[2] = ffi_pad_up(ffi_pad_up(la + ffi_pad_up(2 * lg, R_OP), R_OP) + ffi_pad_up(log(c2), R_LM), R_OP);
    double lc = ffi_pad_up(log(c2), R_LM);                          /* ln C(al, j) upper */
    const double ln2 = ffi_pad_up(log(2.0), R_LM);
    double M = lt[2] > 0 ? lt[2] : 0;
    for (unsigned long j = 3; j <= al; j++) {
        lc = ffi_pad_up(lc + ffi_pad_up(log(ffi_pad_up((double)(al - j + 1) / (double)j, R_OP)), R_LM), R_OP);
        double t = ffi_pad_up(ffi_pad_up(ln2 + ffi_pad_up((double)j * lg, R_OP), R_OP) + lc, R_OP);
        t = ffi_pad_up(t + ffi_pad_up(mu * (double)(j * (j - 1)), R_OP), R_OP);
        lt[j] = t;
        if (t > M)
            M = t;
    }
    double S = 0;
    for (unsigned long j = 0; j <= al; j++) {
        if (j == 1)
            continue;
        S = ffi_pad_up(S + ffi_pad_up(exp(ffi_pad_up(lt[j] - M, R_OP)), R_LM), R_OP);
    }
    double v = ffi_pad_up(M + ffi_pad_up(log(S), R_LM), R_OP);
    v = ffi_pad_up(v / (double)(al - 1), R_OP);
    return v < r ? v : r;
}

int ff_fedpdm_rdp(double *eps, unsigned long *alpha, double sigma, double s, unsigned long K,
                  unsigned long N, unsigned long T, double delta, unsigned long alpha_max)
{
    if (eps == NULL || alpha == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    int st = gauss_args(sigma, s, delta);
    if (st != FR_OK)
        return st;
    if (K == 0 || K > N || alpha_max < 2 || alpha_max > ACCT_ALPHA_MAX)
        return FR_EDOM;
    const double mu = ffi_pad_up(ffi_pad_up(ffi_pad_up(s * s, R_OP) / ffi_pad_down(sigma * sigma, R_OP), R_OP) / 2, R_OP);
    const double g = ffi_pad_up((double)K / (double)N, R_OP);
    const double lg = ffi_pad_up(log(g), R_LM);
    const double L = ffi_pad_up(-ffi_pad_down(log(delta), R_LM), R_OP);
    double best = INFINITY;
    unsigned long ab = 2;
    for (unsigned long al = 2; al <= alpha_max; al++) {
        double r = ffi_pad_up(rdp_round(al, mu, lg, K < N) * (double)T, R_OP);
        r = ffi_pad_up(r + ffi_pad_up(L / (double)(al - 1), R_OP), R_OP);
        if (r < best) {
            best = r;
            ab = al;
        }
    }
    *eps = best;
    *alpha = ab;
    return FR_OK;
}

int ff_fedpdm_rdp_order(double *e, double sigma, double s, unsigned long K, unsigned long N,
                        unsigned long alpha)
{
    if (e == NULL)
        return FR_ENULL;
    if (N == 0)
        return FR_ESIZE;
    if (!isfinite(sigma) || !isfinite(s))
        return FR_ENONFINITE;
    if (!(sigma > 0) || s < 0 || K == 0 || K > N || alpha < 2 || alpha > ACCT_ALPHA_MAX)
        return FR_EDOM;
    const double mu = ffi_pad_up(ffi_pad_up(ffi_pad_up(s * s, R_OP) / ffi_pad_down(sigma * sigma, R_OP), R_OP) / 2, R_OP);
    const double g = ffi_pad_up((double)K / (double)N, R_OP);
    *e = rdp_round(alpha, mu, ffi_pad_up(log(g), R_LM), K < N);
    return FR_OK;
}

int ff_fedpdm_thm2(double *eps_bar, double c0, double eps, unsigned long K, unsigned long N,
                   unsigned long T, double q)
{
    if (eps_bar == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40))
        return FR_ESIZE;
    if (!isfinite(c0) || !isfinite(eps) || !isfinite(q))
        return FR_ENONFINITE;
    if (!(c0 > 0) || !(eps > 0) || !(q > 0) || !(q < 1) || K == 0 || K > N)
        return FR_EDOM;
    double a = ffi_pad_up(ffi_pad_up((double)K * (double)T, R_OP) / (double)N, R_OP);
    a = ffi_pad_up(a / ffi_pad_down(1 - q, R_OP), R_OP);
    a = ffi_pad_up(sqrt(a), R_OP);
    a = ffi_pad_up(a * ffi_pad_up(q * q, R_OP), R_OP);
    a = ffi_pad_up(a * eps, R_OP);
    *eps_bar = ffi_pad_up(a * c0, R_OP);
    return FR_OK;
}

/* the per-round mu = s^2 / (2 sigma^2), up (as ff_fedpdm_rdp) */
static double mu_of(double sigma, double s)
{
    return ffi_pad_up(ffi_pad_up(ffi_pad_up(s * s, R_OP) / ffi_pad_down(sigma * sigma, R_OP), R_OP) / 2, R_OP);
}

/* acct.h */
int ffi_pdm_rdp_rounds_args(const double *eps, const unsigned long *alpha, const double *sigma,
                            const double *s, unsigned long T, unsigned long first, unsigned long K,
                            unsigned long N, double delta, unsigned long alpha_max)
{
    if (eps == NULL || alpha == NULL || sigma == NULL || s == NULL)
        return FR_ENULL;
    if (N == 0 || T == 0 || T > (1ul << 40) || first > T)
        return FR_ESIZE;
    for (unsigned long t = 0; t < T; t++)
        if (!isfinite(sigma[t]) || !isfinite(s[t]))
            return FR_ENONFINITE;
    if (!isfinite(delta))
        return FR_ENONFINITE;
    for (unsigned long t = 0; t < T; t++)
        if (!(sigma[t] > 0) || s[t] < 0)
            return FR_EDOM;
    if (!(delta > 0) || !(delta < 1) || K == 0 || K > N || alpha_max < 2 || alpha_max > ACCT_ALPHA_MAX)
        return FR_EDOM;
    return FR_OK;
}

/* ff_fedpdm_rdp_rounds: alpha outer, the rounds inner (no workspace), one
 * rdp_round per run of equal consecutive (sigma[t], s[t], subsampled). */
int ff_fedpdm_rdp_rounds(double *eps, unsigned long *alpha, const double *sigma, const double *s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         double delta, unsigned long alpha_max)
{
    int st = ffi_pdm_rdp_rounds_args(eps, alpha, sigma, s, T, first, K, N, delta, alpha_max);
    if (st != FR_OK)
        return st;
    const double g = ffi_pad_up((double)K / (double)N, R_OP);
    const double lg = ffi_pad_up(log(g), R_LM);
    const double L = ffi_pad_up(-ffi_pad_down(log(delta), R_LM), R_OP);
    double best = INFINITY;
    unsigned long ab = 2;
    for (unsigned long al = 2; al <= alpha_max; al++) {
        double acc = 0;
        for (unsigned long t0 = 0; t0 < T;) {
            const int sub = t0 >= first && K < N;
            unsigned long t1 = t0 + 1;
            while (t1 < T && (t1 >= first && K < N) == sub && sigma[t1] == sigma[t0] && s[t1] == s[t0])
                t1++;
            double r = rdp_round(al, mu_of(sigma[t0], s[t0]), lg, sub);
            acc = ffi_pad_up(acc + ffi_pad_up(r * (double)(t1 - t0), R_OP), R_OP);
            t0 = t1;
        }
        double r = ffi_pad_up(acc + ffi_pad_up(L / (double)(al - 1), R_OP), R_OP);
        if (r < best) {
            best = r;
            ab = al;
        }
    }
    *eps = isnan(best) ? INFINITY : best;
    *alpha = ab;
    return FR_OK;
}
