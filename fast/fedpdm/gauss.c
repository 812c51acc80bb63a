/* SPDX-License-Identifier: Apache-2.0 */
/* gauss.c -- the Gaussian mechanism of 003 in binary64: (5)/(18) rounded
 * up, the analytic sigma (Balle & Wang 2018, Thm 8) never below the true
 * one, and the tri-state (eps, delta)-DP validator.
 *
 * Assumption (docs/ACCURACY.md): exp, log, log1p, erfc within 2 ulp of the
 * exact value on every argument used (glibc: at most 1-2 ulp on x86-64).
 * Every bound below is the computed value pushed outward by an explicit
 * margin that dominates the libm error and the roundings of the few
 * operations around it, then one more ulp (nextafter) for the rounding of
 * the margin arithmetic itself.  u = 2^-53.
 *
 * (5): eps = fe 2^ee, s = fs 2^es (frexp, exact), L = ln(1.25) - ln(delta)
 *   (two positive terms, each within 2 ulp <= 4u relative, one addition:
 *   relative error <= 5u + O(u^2), no cancellation, no overflow of
 *   1.25/delta for subnormal delta).  m = 2 fs^2 L / fe^2: four more
 *   roundings, so m^ >= m (1 - 10u)(1 - O(u^2)).  Then
 *   M = nextup(RN(m^ (1 + 2^-48))) >= m (1 + 32u)(1 - 10.1u)(1 - u) >= m,
 *   and sigma2 = ldexp(M, 2(es - ee)) (exact unless subnormal: then one
 *   more nextup; overflow gives +Inf).  Upper: M <= m (1 + 10.1u)(1 + 32u)
 *   (1 + u)(1 + 2u) <= m (1 + 46u), so 0 <= sigma2 - exact <= 2^-47 exact
 *   + 2^-1073.
 *
 * ln Phi(x) bounds (lphi): z = -x/sqrt2 = -x SQRT1_2 (within 2.01u|z|),
 *   pushed outward by 4u|z| + 2^-1070; Phi(x) = erfc(z)/2 with erfc
 *   decreasing.  For z < 26 from erfc(z) (>= 5e-296, normal): ln Phi =
 *   log(E) - ln 2 with margin 2^-48 (|log E| + 1) (>= the 2-ulp errors of
 *   erfc and log, the rounding of LN2 and of the subtraction).  For
 *   z >= 26 from the asymptotic series (Abramowitz & Stegun 7.1.23):
 *   erfc(z) = e^{-z^2}/(z sqrt pi) S, S between any two consecutive partial
 *   sums of sum_k (-1)^k (2k-1)!!/(2z^2)^k (alternating, remainder bounded
 *   by the first omitted term, z > 0): the sums with 5 and 6 terms, which
 *   differ by < 2e-14 at z = 26.  ln Phi = -z^2 - ln z - ln sqrt(pi) - ln 2
 *   + ln S with margin 2^-48 (z^2 + |ln z| + 2); z^2 = +Inf gives the bounds
 *   (-Inf, -DBL_MAX).
 * delta_eps bounds (dbounds): A = s/(2 sigma), B = eps sigma/s (<= 2
 *   roundings each), a = A - B and b = -(A + B) pushed outward by
 *   4u (A + B) + 2^-1070; Phi(a) = exp(ln Phi(a)) and e^eps Phi(b) =
 *   exp(eps + ln Phi(b)) (log space: no overflow of e^eps), each exp pushed
 *   outward by a factor 1 -+ 2^-49 after its argument by 2^-50 (|eps| +
 *   |ln Phi|) + 2^-1070; the difference rounded outward and clamped to
 *   [0, 1] (delta_eps in [0, 1]).  A = (s/sigma)/2 (no overflow of 2
 *   sigma at sigma* > DBL_MAX/2), B = (eps sigma)/s or eps (sigma/s) when
 *   eps sigma overflows.
 * ln delta_eps bounds (the same dbounds): ln delta_eps = ln Phi(a) +
 *   ln(1 - e^d), d = eps + ln Phi(b) - ln Phi(a) < 0, from the log-space
 *   bounds above, d bounded outward (one rounding each: nextafter), expm1
 *   and log within 2 ulp (margin 2^-50 relative, then 2^-50 (|ln Phi| +
 *   |ln(1 - e^d)|) + 2^-1070 on the sum).  The decisions (holds, fails)
 *   take either test: the linear one, or ln delta_eps against ln delta
 *   bounded by 2^-51 relative plus one ulp; the log test decides where
 *   both terms are subnormal (delta down to 2^-1074).
 * Contract: fedfast/fedpdm.h. */
#include <float.h>
#include "../internal.h"
#include "fedfast/fedpdm.h"

#define U53 0x1p-53
#define LN_SQRT_PI 0.57236494292470008707   /* ln sqrt(pi), RN; inside the margin */
#define SQRT1_2 0.70710678118654752440     /* 1/sqrt 2, RN */
#define LN2 0.69314718055994530942         /* ln 2, RN */


static int check3(double eps, double delta, double s)
{
    if (!isfinite(eps) || !isfinite(delta) || !isfinite(s))
        return FR_ENONFINITE;
    if (!(eps > 0) || !(delta > 0) || !(delta < 1) || s < 0)
        return FR_EDOM;
    return FR_OK;
}

int ff_gauss_sigma2_classical_upper(double *sigma2, double eps, double delta, double s)
{
    if (sigma2 == NULL)
        return FR_ENULL;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (s == 0) {
        *sigma2 = 0.0;
        return FR_OK;
    }
    int ee, es;
    double fe = frexp(eps, &ee), fs = frexp(s, &es);
    double L = log(1.25) - log(delta);
    double m = 2 * (fs * fs) * L / (fe * fe);
    double M = ffi_next_up(m * (1 + 0x1p-48));
    double r = ldexp(M, 2 * (es - ee));
    if (r != 0 && fabs(r) < DBL_MIN)
        r = ffi_next_up(r);
    else if (r == 0)
        r = 0x1p-1074;                  /* underflow: the least positive binary64 */
    *sigma2 = r;
    return FR_OK;
}

int ff_gauss_sigma2_classical_upper_bound(double *rel, double *abs, double eps, double delta,
                                          double s)
{
    if (rel == NULL || abs == NULL)
        return FR_ENULL;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    *rel = 0x1p-47;
    *abs = 0x1p-1073;
    return FR_OK;
}

/* ln Phi(x) in [*lo, *hi]. */
static void lphi(double x, double *lo, double *hi)
{
    double z = -x * SQRT1_2, dz = 4 * U53 * fabs(z) + 0x1p-1070;
    double zb[2] = {ffi_next_down(z - dz), ffi_next_up(z + dz)};   /* zb[0] <= z <= zb[1] */
    for (int k = 0; k < 2; k++) {              /* k = 0: upper bound from zb[0] */
        double t = zb[k], v, mg;
        if (t < 26) {
            double E = erfc(t), l = log(E);
            v = l - LN2;
            mg = 0x1p-48 * (fabs(l) + 1);
        } else {
            double t2 = t * t;
            if (isinf(t2)) {
                if (k == 0) *hi = -DBL_MAX;
                else *lo = -INFINITY;
                continue;
            }
            double r = 1 / (2 * t2), term = 1, S5 = 1, S6;
            for (int j = 1; j <= 4; j++) {
                term *= -(2 * j - 1) * r;
                S5 += term;
            }
            term *= -9 * r;
            S6 = S5 + term;
            double Sb = k == 0 ? fmax(S5, S6) : fmin(S5, S6);
            double lz = log(t);
            v = -t2 - lz - LN_SQRT_PI - LN2 + log(Sb);
            mg = 0x1p-48 * (t2 + fabs(lz) + 2);
        }
        if (k == 0) *hi = ffi_next_up(v + mg);
        else *lo = ffi_next_down(v - mg);
    }
    if (*hi > 0) *hi = 0;
}

/* [*DL, *DU] contains delta_eps(sigma), s > 0, sigma > 0 finite; when lDL
 * is not NULL, [*lDL, *lDU] contains ln delta_eps(sigma) (log space: no
 * loss when both terms are subnormal, delta near 2^-1074). */
static void dbounds(double eps, double s, double sigma, double *DL, double *DU, double *lDL,
                    double *lDU)
{
    double A = (s / sigma) * 0.5, B = eps * sigma;     /* no overflow of 2 sigma */
    B = isinf(B) ? eps * (sigma / s) : B / s;
    if (isinf(A) || isinf(B) || B == 0 || A == 0) {
        /* out of binary64's range: the trivial enclosure */
        *DL = 0;
        *DU = 1;
        if (A == 0 && B == 0) { *DL = 0; *DU = 0x1p-1074; }
        if (lDL != NULL) { *lDL = -INFINITY; *lDU = log(*DU); }
        return;
    }
    double da = 4 * U53 * (A + B) + 0x1p-1070;
    double a = A - B, b = -(A + B);
    double aL = ffi_next_down(a - da), aU = ffi_next_up(a + da), bL = ffi_next_down(b - da), bU = ffi_next_up(b + da);
    double l1, h1, l2, h2, tmp;
    lphi(aL, &l1, &tmp);
    lphi(aU, &tmp, &h1);
    lphi(bL, &l2, &tmp);
    lphi(bU, &tmp, &h2);
    double PL = ffi_next_down(exp(ffi_next_down(l1 - (0x1p-50 * fabs(l1) + 0x1p-1070))) * (1 - 0x1p-49));
    double PU = ffi_next_up(exp(ffi_next_up(h1 + (0x1p-50 * fabs(h1) + 0x1p-1070))) * (1 + 0x1p-49));
    double xl = ffi_next_down(eps + l2), xh = ffi_next_up(eps + h2);
    double TL = ffi_next_down(exp(ffi_next_down(xl - (0x1p-50 * (eps + fabs(l2)) + 0x1p-1070))) * (1 - 0x1p-49));
    double TU = ffi_next_up(exp(ffi_next_up(xh + (0x1p-50 * (eps + fabs(h2)) + 0x1p-1070))) * (1 + 0x1p-49));
    if (lDL != NULL) {
        /* ln delta_eps = ln Phi(a) + ln(1 - e^d), d = eps + ln Phi(b) - ln Phi(a) < 0 */
        double dL = ffi_next_down(ffi_next_down(eps + l2) - h1), dU = ffi_next_up(ffi_next_up(eps + h2) - l1);
        *lDU = h1;                              /* delta_eps <= Phi(a) */
        if (dL < 0) {
            double v = ffi_next_up(-expm1(dL) * (1 + 0x1p-50)), lv = ffi_next_up(log(v));
            *lDU = ffi_next_up(h1 + lv + 0x1p-50 * (fabs(h1) + fabs(lv)) + 0x1p-1070);
        }
        *lDL = -INFINITY;
        if (dU < 0) {
            double v = ffi_next_down(-expm1(dU) * (1 - 0x1p-50)), lv = ffi_next_down(log(v));
            *lDL = ffi_next_down(l1 + lv - 0x1p-50 * (fabs(l1) + fabs(lv)) - 0x1p-1070);
        }
    }
    if (!(PL >= 0) || isnan(PL)) PL = 0;
    if (!(TL >= 0) || isnan(TL)) TL = 0;
    double lo = ffi_next_down(PL - TU), hi = ffi_next_up(PU - TL);
    *DL = lo > 0 ? lo : 0;
    *DU = hi < 1 && !isnan(hi) ? hi : 1;
}

/* delta_eps(sigma) <= delta certified (holds) or > delta certified (fails),
 * s > 0, sigma > 0: by the enclosure or by its logarithm (ln delta
 * bounded outward: 2 ulp). */
static int holds(double eps, double delta, double s, double sigma)
{
    double DL, DU, lDL, lDU;
    dbounds(eps, s, sigma, &DL, &DU, &lDL, &lDU);
    double ld = log(delta);
    return DU <= delta || lDU <= ffi_next_down(ffi_next_down(ld - 0x1p-51 * fabs(ld)));
}

static int fails(double eps, double delta, double s, double sigma)
{
    double DL, DU, lDL, lDU;
    dbounds(eps, s, sigma, &DL, &DU, &lDL, &lDU);
    double ld = log(delta);
    return DL > delta || lDL > ffi_next_up(ffi_next_up(ld + 0x1p-51 * fabs(ld)));
}

/* Bisection on the order of positive binary64 (their bits as integers). */
static double mid_bits(double lo, double hi)
{
    uint64_t a, b, m;
    memcpy(&a, &lo, 8);
    memcpy(&b, &hi, 8);
    m = a + (b - a) / 2;
    double r;
    memcpy(&r, &m, 8);
    return r;
}

int ff_gauss_sigma_analytic_upper(double *sigma, double eps, double delta, double s)
{
    if (sigma == NULL)
        return FR_ENULL;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (s == 0) {
        *sigma = 0.0;
        return FR_OK;
    }
    double lo, hi, DL, DU, lDL, lDU;
    const double ld = log(delta);
    /* search on the midpoint estimate of ln delta_eps */
#define EST_LE(x) (dbounds(eps, s, (x), &DL, &DU, &lDL, &lDU), \
                   isfinite(lDL) ? 0.5 * lDL + 0.5 * lDU <= ld : 0.5 * DL + 0.5 * DU <= delta)
    hi = s;
    if (EST_LE(hi)) {
        lo = hi / 2;
        while (lo > 0 && EST_LE(lo)) { hi = lo; lo /= 2; }
        if (lo == 0) lo = 0x1p-1074;
    } else {
        lo = hi;
        hi *= 2;
        while (isfinite(hi) && !EST_LE(hi)) { lo = hi; hi *= 2; }
        if (!isfinite(hi)) hi = DBL_MAX;
    }
    for (;;) {
        double m = mid_bits(lo, hi);
        if (m == lo || m == hi) break;
        if (EST_LE(m)) hi = m; else lo = m;
    }
#undef EST_LE
    /* certify: step up until the outward enclosure says <= delta */
    double x = hi;
    for (int k = 0;; k++) {
        if (holds(eps, delta, s, x)) break;
        if (x == DBL_MAX || k > 1100) {         /* none certified: +Inf bounds sigma* */
            x = INFINITY;
            break;
        }
        double nx = x + x * ldexp(1.0, k - 52);
        x = isfinite(nx) ? ffi_next_up(nx) : DBL_MAX;
    }
    *sigma = x;
    return FR_OK;
}

int ff_gauss_dp_check(int *verdict, double *mlo, double *mhi, double eps, double delta, double s,
                      double sigma)
{
    if (verdict == NULL || mlo == NULL || mhi == NULL)
        return FR_ENULL;
    if (!isfinite(sigma))
        return FR_ENONFINITE;
    int st = check3(eps, delta, s);
    if (st != FR_OK)
        return st;
    if (sigma < 0)
        return FR_EDOM;
    double DL, DU;
    if (s == 0) DL = DU = 0;
    else if (sigma == 0) DL = DU = 1;
    else dbounds(eps, s, sigma, &DL, &DU, NULL, NULL);
    *verdict = s == 0 || sigma == 0 ? (DU <= delta ? FR_GAUSS_HOLDS : FR_GAUSS_FAILS)
             : holds(eps, delta, s, sigma) ? FR_GAUSS_HOLDS
             : fails(eps, delta, s, sigma) ? FR_GAUSS_FAILS : FR_GAUSS_UNKNOWN;
    *mlo = ffi_next_down(delta - DU);
    *mhi = ffi_next_up(delta - DL);
    if (*verdict == FR_GAUSS_HOLDS && *mlo < 0) *mlo = 0;   /* certified by the log test */
    if (*verdict == FR_GAUSS_FAILS && *mhi > 0) *mhi = 0;
    if (s == 0 || sigma == 0) {                 /* exact cases: delta - 0 exact; delta - 1 one rounding */
        double m = delta - DU;
        *mlo = (s == 0) ? m : ffi_next_down(m);
        *mhi = (s == 0) ? m : ffi_next_up(m);
    }
    return FR_OK;
}
