/* ens.c -- ff_ens: elastic-net aggregation, 002 eq. (8), (14)-(16) as
 * corrected in include/fedref/core.h (Lemma III.1 with the sign fixed and the
 * data-value case added), binary64.
 *
 * Per coordinate, with the data sorted v_0 <= ... <= v_{m-1}, S = sum v_i,
 * C = lambda/eta, minimise h(x) = sum_i C|x - v_i| + 1/2 (x - v_i)^2.
 * On a piece of the line where k data values are <= x (s = m - k above),
 * h'(x) = m x - S + C(2k - m) vanishes at
 *     x(k) = (S + C (m - 2k)) / m  =  S/m + C (2s/m - 1).
 * x(k) decreases and v_k increases with k, so P(k): x(k) <= v_k
 * (v_m = +inf) is monotone; let k* be the smallest k with P(k).  Then the
 * minimiser is  x* = clamp(x(k*), v_{k*-1}, v_{k*})  (v_{-1} = -inf):
 * either x(k*) lies in its piece, or x* = v_{k*-1} is a data value with
 * h'_-(x*) <= 0 <= h'_+(x*).  Ties need no special case.  The code also
 * clamps into [v_0, v_{m-1}], which holds x* (so k* = 0 or m, impossible
 * in exact arithmetic, still give a data value).
 *
 * Floating point.  Scaling: with M = max |v_i| = f 2^e, f in [1/2, 1),
 * the values are scaled by 2^-e (|u_i| < 1, exact unless they fall into
 * the subnormal range, an error far below eps M) and C by 2^-e (c, from
 * frexp'd mantissas, one rounding), so S cannot overflow.  For c > 2m the
 * decisions P(k) no longer depend on c (x(k) > 1 > v_k for k < m/2,
 * x(k) < -1 <= v_k for k > m/2), so c is capped at 2m without changing x*.
 *
 * Bound.  Let X(k) be the computed x(k) and D >= |X(k) - x(k)|.  The
 * search returns k with P^(k) true and P^(k-1) false on the computed
 * values, and y = clamp(X(k), v_{k-1}, v_k).  Then h'_+(y + D) >= 0 and
 * h'_-(y - D) <= 0 (count the data values on each side), so |y - x*| <= D:
 * a wrong branch costs no more than the error of x(k) itself.
 * With S^ the Neumaier sum (|S^ - S| <= eps|S| + (m eps)^2 m/2 M (1 + o(1))),
 * X(k) = fl(fl(S^ + fl(c (m - 2k))) / m) (m - 2k exact), in original units
 *     D <= 3 eps M + 4 eps C + (m eps)^2 M / 2 + O(eps^2) (M + C) + 2^-1075,
 * the last term for a subnormal result, where C is the capped value: one
 * rounding in q and the cap 2m 2^e <= 4 m M (2^e <= 2M) give
 * C <= min((1 + eps) lambda/eta, 4 m M) + 2^-1074 M.  Integer data with C
 * and S exact give exact results (e.g. {0, 0, 10}, lambda = eta = 1 -> 3).
 *
 * ff_ens_bound.  Per column (M, lambda/eta as above) it returns
 *   B^ = RN(RN(8 eps RN(M + c^)) + 2^-1074),  c^ = min(RN(lambda/eta), RN(4 m M)),
 * M exact (a maximum), 4m exact, 8 eps times a binary64 exact unless the
 * product is subnormal.  c^ >= (1 - eps) K with K = min(lambda/eta, 4 m M).
 * If RN(8 eps RN(M + c^)) is normal, B^ >= 8 eps (1 - eps)^3 (M + K)
 * + (1 - eps) 2^-1074; if not, the last addition is exact and B^ >=
 * 8 eps (1 - eps)^2 (M + K) - 2^-1075 + 2^-1074.  Either way
 *   B^ >= 7.99 eps (M + K) + 2^-1075
 *      >= 3 eps M + 4 eps C + (m eps)^2 M/2 + O(eps^2)(M + C) + 2^-1075 >= D
 * for m <= 2^26 ((m eps)^2 M/2 <= eps M/4, and 4 eps C <= 4.01 eps K + tiny):
 * an upper bound despite its own rounding.  The maximum over the columns
 * is the same expression at the largest M (RN is monotone), which the
 * golden vectors' tol uses.  m > 2^26: FR_ESIZE (not proved).
 * Contract: include/fedfast.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"

/* Neumaier's compensated sum of v[i] 2^-e. */
static double scaled_sum(const double *v, size_t m, int e)
{
    double s = 0, comp = 0;
    for (size_t i = 0; i < m; i++) {
        double x = ldexp(v[i], -e), t = s + x;
        comp += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
    }
    return s + comp;
}

/* x(k) in original units (may overflow to +-inf; the clamp handles it). */
static double xk(double S, double c, size_t m, size_t k, int e)
{
    double dm = (double)m;
    return ldexp((S + c * (dm - 2.0 * (double)k)) / dm, e);
}

/* Minimiser for one sorted column; q 2^qe = lambda/eta. */
static double ens_column(const double *v, size_t m, double q, int qe)
{
    double M = fmax(-v[0], v[m - 1]);
    if (M == 0)
        return 0.0;
    int e;
    frexp(M, &e);
    double c = fmin(ldexp(q, qe - e), 2.0 * (double)m);
    double S = scaled_sum(v, m, e);

    size_t lo = 0, hi = m;                /* smallest k in [0, m] with P(k) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (xk(S, c, m, mid, e) <= v[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    double x = xk(S, c, m, lo, e);
    double below = v[lo > 0 ? lo - 1 : 0], above = v[lo < m ? lo : m - 1];
    return fmin(fmax(x, below), above);
}

/* The checks of ff_ens and ff_ens_bound after their output's NULL test, in
 * class order; m above mmax is FR_ESIZE too (the bound's proof). */
static int ens_args(const double *W, size_t m, size_t n, double lambda, double eta, size_t mmax)
{
    if (!W)
        return FR_ENULL;
    int st = ff_check_mn(m, n);
    if (st != FR_OK || m > mmax)
        return st != FR_OK ? st : FR_ESIZE;
    if (!isfinite(lambda) || !isfinite(eta) || !ff_all_finite(W, m * n))
        return FR_ENONFINITE;
    return lambda > 0 && eta > 0 ? FR_OK : FR_EDOM;
}

int ff_ens(double *w, const double *W, size_t m, size_t n,
           double lambda, double eta)
{
    int st = w ? ens_args(W, m, n, lambda, eta, SIZE_MAX) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double *v = malloc(m * sizeof *v);
    if (!v)
        return FR_ENOMEM;

    int le, ee;
    double q = frexp(lambda, &le) / frexp(eta, &ee);    /* in (1/2, 2) */
    for (size_t j = 0; j < n; j++) {
        ff_sorted_column(v, W, m, n, j);
        w[j] = ens_column(v, m, q, le - ee);
    }
    free(v);
    return FR_OK;
}

int ff_ens_bound(double *abs, const double *W, size_t m, size_t n,
                 double lambda, double eta)
{
    /* ff_ens's checks; the proof needs m <= 2^26 */
    int st = abs ? ens_args(W, m, n, lambda, eta, (size_t)1 << 26) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double C = lambda / eta;
    for (size_t j = 0; j < n; j++) {
        double M = 0;
        for (size_t i = 0; i < m; i++)
            M = fmax(M, fabs(W[i * n + j]));
        double c = fmin(C, 4 * (double)m * M);
        abs[j] = 8 * 0x1p-53 * (M + c) + 0x1p-1074;
    }
    return FR_OK;
}
