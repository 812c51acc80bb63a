/* SPDX-License-Identifier: Apache-2.0 */
/* lemma1.c -- ff_ssca_lemma1 and ff_ssca_lemma1_bound: Lemma 1 of 000,
 * (43)-(45), in binary64 (the derivation: ref/ssca/lemma1.c).  With
 * b = ||a||^2, delta = C - U, D = b - 4 tau delta:
 *   U >= C (exact comparison): nu = 0, w = +0, except a = 0 and U = C
 *     (D = 0, decided exactly: every a_j == 0), where nu = c, w = +0;
 *   U < C:  D <= 0: nu = c;  else nu^ = 4 delta / (D + sqrt(b) sqrt(D)),
 *     nu = c if nu^ >= c (clip), else nu^;
 *   nu = c: w_j = -a_j k, k = c / (2 (1 + tau c)) (as 1/(2 (1/c + tau))
 *     when tau c > 1, so nothing overflows); interior:
 *     w_j = -a_j k2, k2 = 2 delta / (b + sqrt(b) sqrt(D)).
 *   A zero is +0 (a_j = 0, nu = 0).  b, 4 tau delta or delta not finite
 *   (binary64 overflow): FR_ENONFINITE, outputs untouched.
 * Which branch.  The U >= C branches are decided exactly.  For U < C the
 * computed D and nu^ carry rounding errors, so near D = 0 or nu^ = c fast
 * may take DNONPOS or CLIPC where ref takes another branch; there nu is
 * continuous (D -> 0+ gives nu^ -> +inf, clipped to c; nu^ -> c is the
 * clip), so either choice lies within the bound below.
 *
 * The bound (a-posteriori, proved by inclusion).  On U < C the exact nu is
 *   F(b, delta) = c if b - 4 tau delta <= 0, else min(c, 4 delta / (D + sqrt(b D))),
 * which is non-increasing in b >= 0 and non-decreasing in delta >= 0 (at
 * fixed b the denominator decreases and the numerator increases with
 * delta; at fixed delta the denominator increases with b; at D = 0+ the
 * value is c, so the D <= 0 branch continues it; F(0, 0) = c).  Hence for
 * exact b in [blo, bhi] and delta in [dlo, dhi],
 *   F(bhi, dlo) <= nu <= F(blo, dhi).
 * ff_ssca_lemma1_bound encloses b and delta by evaluating each operation
 * in round-to-nearest and stepping once outward (nextafter): the exact
 * result of an operation on exact operands lies within half an ulp of its
 * rounded value (2^-1075 in the subnormal range), so one step outward
 * bounds it, and an operation on bounds in the monotone direction bounds
 * the exact value (u = 2^-53 never appears: the steps are the rounding
 * errors).  It evaluates F at the two corners the same way (each step
 * outward in the direction that keeps the bound), so nu in [nlo, nhi]
 * exactly, and w_j = -a_j h(nu), h(nu) = nu / (2 (1 + tau nu)) =
 * 1 / (2 (1/nu + tau)) increasing, so w_j lies between -a_j h(nlo) and
 * -a_j h(nhi), enclosed the same way.  The bounds returned are
 *   nu_abs = max(nhi - nu^, nu^ - nlo),  w_abs[j] = max(whi_j - w^_j, w^_j - wlo_j),
 * each rounded up (one more step): |nu^ - nu| <= nu_abs, |w^_j - w_j| <=
 * w_abs[j] for every finite input where ff_ssca_lemma1 returns FR_OK, in
 * every branch fast took, underflow included.  On U >= C the results are
 * exact: 0 and 0.  Exact squares a_j^2 (fma residual 0 above 2^-960) and
 * an exact C - U are not widened.  Contract: include/fedfast/ssca.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"
#include "surrogate.h"

/* One step outward from a round-to-nearest result (see above). */

/* An upper bound of x - y (exact when the subtraction is). */
static double sub_up(double x, double y)
{
    double s = x - y, bb = s - x, err = (x - (s - bb)) + (-y - bb);
    return err == 0 ? s : ffi_next_up(s);
}

/* The checks of ff_ssca_lemma1 and ff_ssca_lemma1_bound after their
 * outputs' NULL test, in class order. */
static int lemma1_args(const double *a, size_t d, double C, double tau, double c, double U)
{
    if (!a)
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(C) || !isfinite(tau) || !isfinite(c) || !isfinite(U) || !ffi_all_finite(a, d))
        return FR_ENONFINITE;
    return tau > 0 && c > 0 ? FR_OK : FR_EDOM;
}

/* The scale of A: e = ilogb(max |a_j|) (A != 0), so that a_j 2^-e <= 2
 * and b' = ||A 2^-e||^2 lies in [1, 4d): no overflow, and squares
 * underflow only for components below 2^-500 of the largest.  The
 * branches and nu are invariant under b -> b / 4^e, delta -> delta / 4^e
 * (nu^ = 4 delta' / (D' + sqrt(b' D')), D' = D / 4^e). */
static int a_scale(const double *a, size_t d)
{
    double m = 0;
    for (size_t j = 0; j < d; j++)
        m = fmax(m, fabs(a[j]));
    return ilogb(m);
}

/* The computation, into nu, w (d), *branch; FR_ENONFINITE when C - U or
 * 4 tau overflows (nothing written). */
int ffi_ssca_lemma1_core(double *nu, double *w, int *branch, const double *a, size_t d,
                          double C, double tau, double c, double U)
{
    int zero = 1;
    for (size_t j = 0; j < d && zero; j++)
        zero = a[j] == 0;
    if (U >= C || zero) {
        /* U >= C: D = b + 4 tau (U - C) > 0 unless a = 0 and U = C (D = 0);
         * U < C and a = 0: D = -4 tau (C - U) < 0 */
        int dnonpos = zero && U <= C;
        *nu = dnonpos ? c : 0.0;
        for (size_t j = 0; j < d; j++)
            w[j] = 0.0;
        *branch = dnonpos ? FR_SSCA_L1_DNONPOS : FR_SSCA_L1_ZERO;
        return FR_OK;
    }
    int e = a_scale(a, d);
    double b = 0;
    for (size_t j = 0; j < d; j++) {
        double x = ldexp(a[j], -e);
        b += x * x;
    }
    double delta = C - U, ft = 4 * tau;
    if (!isfinite(delta) || !isfinite(ft))
        return FR_ENONFINITE;
    double dl = ldexp(delta, -2 * e), D = b - ft * dl;    /* dl = +inf: D = -inf */
    int br;
    double x = c, k = 0;
    if (!(D > 0)) {
        br = FR_SSCA_L1_DNONPOS;
    } else {
        double q = sqrt(b) * sqrt(D);
        x = (4 * dl) / (D + q);
        if (x >= c) {
            br = FR_SSCA_L1_CLIPC;
            x = c;
        } else {
            br = FR_SSCA_L1_INTERIOR;
            k = (2 * dl) / (b + q);                       /* invariant under the scaling */
        }
    }
    if (br != FR_SSCA_L1_INTERIOR) {
        double tc = tau * c;
        k = tc <= 1 ? (0.5 * c) / (1 + tc) : 0.5 / (1 / c + tau);
    }
    for (size_t j = 0; j < d; j++)
        w[j] = -(a[j] * k) + 0.0;                         /* +0 for a_j = 0 */
    *nu = x;
    *branch = br;
    return FR_OK;
}

int ff_ssca_lemma1(double *nu, double *w, int *branch, const double *a, size_t d,
                   double C, double tau, double c, double U)
{
    int st = nu && w ? lemma1_args(a, d, C, tau, c, U) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (ffi_overlap(nu, sizeof *nu, w, d * sizeof *w))
        return FR_EDOM;                           /* two outputs */
    double *tw = malloc(d * sizeof *tw), tnu;
    int br;
    if (tw == NULL)
        return FR_ENOMEM;
    st = ffi_ssca_lemma1_core(&tnu, tw, &br, a, d, C, tau, c, U);
    if (st == FR_OK) {
        memcpy(w, tw, d * sizeof *w);
        *nu = tnu;
        if (branch)
            *branch = br;
    }
    free(tw);
    return st;
}

/* An upper bound of F(b, delta) (see the header comment): b >= 0 a lower
 * bound of the exact b, delta > 0 an upper bound of the exact delta. */
static double F_upper(double b, double delta, double tau, double c)
{
    double Dl = ffi_next_down(b - ffi_next_up((4 * tau) * delta));
    if (!(Dl > 0))
        return c;
    double den = ffi_next_down(Dl + fmax(0, ffi_next_down(fmax(0, ffi_next_down(sqrt(b))) * fmax(0, ffi_next_down(sqrt(Dl))))));
    double x = den > 0 ? ffi_next_up(ffi_next_up(4 * delta) / den) : INFINITY;
    return fmin(c, x);
}

/* A lower bound of F(b, delta): b an upper bound of the exact b, delta >= 0
 * a lower bound of the exact delta. */
static double F_lower(double b, double delta, double tau, double c)
{
    double Dh = ffi_next_up(b - ffi_next_down((4 * tau) * delta));
    if (!(Dh > 0))
        return c;                                 /* D <= 0 on the whole box */
    double den = ffi_next_up(Dh + ffi_next_up(ffi_next_up(sqrt(b)) * ffi_next_up(sqrt(Dh))));
    double x = fmax(0, ffi_next_down(ffi_next_down(4 * delta) / den));
    return fmin(c, x);
}

/* Bounds of h(nu) = 1 / (2 (1/nu + tau)) (0 at nu = 0), increasing. */
static double h_upper(double nu, double tau)
{
    if (nu <= 0)
        return 0;
    double inv = fmin(ffi_next_down(1 / nu), DBL_MAX);      /* 1/nu >= inv */
    return ffi_next_up(1 / ffi_next_down(2 * ffi_next_down(inv + tau)));
}

static double h_lower(double nu, double tau)
{
    if (nu <= 0)
        return 0;
    double den = ffi_next_up(2 * ffi_next_up(ffi_next_up(1 / nu) + tau));
    return fmax(0, ffi_next_down(1 / den));
}

int ff_ssca_lemma1_bound(double *nu_abs, double *w_abs, const double *a, size_t d,
                         double C, double tau, double c, double U)
{
    int st = nu_abs && w_abs ? lemma1_args(a, d, C, tau, c, U) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (ffi_overlap(nu_abs, sizeof *nu_abs, w_abs, d * sizeof *w_abs))
        return FR_EDOM;                           /* two outputs */
    double *tw = malloc(d * sizeof *tw), nu;
    int br;
    if (tw == NULL)
        return FR_ENOMEM;
    st = ffi_ssca_lemma1_core(&nu, tw, &br, a, d, C, tau, c, U);
    if (st != FR_OK) {
        free(tw);
        return FR_EDOM;                           /* overflow: outside the proof */
    }
    int zero = 1;
    for (size_t j = 0; j < d && zero; j++)
        zero = a[j] == 0;
    if (U >= C || zero) {                         /* exact */
        *nu_abs = 0;
        for (size_t j = 0; j < d; j++)
            w_abs[j] = 0;
        free(tw);
        return FR_OK;
    }
    /* enclosures of b' = ||a||^2 / 4^e and delta' = (C - U) / 4^e */
    int e = a_scale(a, d);
    double blo = 0, bhi = 0;
    for (size_t j = 0; j < d; j++) {
        double x = ldexp(a[j], -e), p = x * x;
        if (ldexp(x, e) != a[j]) {                /* the scaling underflowed */
            double xu = ffi_next_up(fabs(x) + 0x1p-1074);
            bhi = ffi_next_up(bhi + ffi_next_up(xu * xu));
        } else if (p >= 0x1p-960 && fma(x, x, -p) == 0) {
            blo = ffi_next_down(blo + p);
            bhi = ffi_next_up(bhi + p);
        } else {
            blo = ffi_next_down(blo + ffi_next_down(p));
            bhi = ffi_next_up(bhi + ffi_next_up(p));
        }
    }
    blo = fmax(blo, 0);
    double delta = C - U, dlo = delta, dhi = delta;
    double bb = delta - C, err = (C - (delta - bb)) + (-U - bb);   /* TwoSum: C - U = delta + err */
    if (err != 0) {                               /* not exact: widen */
        dlo = fmax(0, ffi_next_down(delta));
        dhi = ffi_next_up(delta);
    }
    double sl = ldexp(dlo, -2 * e), sh = ldexp(dhi, -2 * e);
    dlo = ldexp(sl, 2 * e) == dlo ? sl : fmax(0, ffi_next_down(sl));
    dhi = ldexp(sh, 2 * e) == dhi ? sh : ffi_next_up(sh);
    double nlo = F_lower(bhi, dlo, tau, c), nhi = F_upper(blo, dhi, tau, c);
    *nu_abs = fmax(sub_up(nhi, nu), sub_up(nu, nlo));
    double hl = h_lower(nlo, tau), hh = h_upper(nhi, tau);
    for (size_t j = 0; j < d; j++) {
        double aj = fabs(a[j]), lo, hi;           /* |w_j| in [aj hl, aj hh] */
        lo = fmax(0, ffi_next_down(aj * hl));
        hi = ffi_next_up(aj * hh);
        double m = fabs(tw[j]);                   /* the sign of w^_j is -sign(a_j) or +0 */
        w_abs[j] = aj == 0 ? 0 : fmax(sub_up(hi, m), sub_up(m, lo));
    }
    free(tw);
    return FR_OK;
}
