/* SPDX-License-Identifier: Apache-2.0 */
/* laplace.c -- the Laplace mechanism of 002, binary64: the scales (27)
 * nu = Delta/(eps mu) and (39) nu = 2||g||_1/(eps mu), rounded upward, and
 * the density (25), printed or standard.
 *
 * Upward quotient.  ru_quot(a, ea, b, c) returns RU(a 2^ea / (b c)), the
 * least binary64 >= the exact value, for a, b, c > 0 finite.  With the
 * mantissas A, B, C in [1/2, 1) (frexp) and x = A/(B C) in (1/2, 4):
 *   BC = ph + pl exactly (ph = B*C, pl = fma(B, C, -ph));
 *   for a candidate q, A - q(ph + pl) = A - h1 - l1 - h2 - l2 exactly
 *   (h1 + l1 = q ph, h2 + l2 = q pl by fma; no term underflows: all are
 *   multiples of 2^-300), and its sign is that of the largest component
 *   of the nonoverlapping expansion built by Shewchuk's Grow-Expansion
 *   (TwoSum is exact).  So q >= x is decided exactly.  Starting from
 *   RN(A/ph) (a few ulps from x), step up while q < x, then down while
 *   nextdown(q) >= x: q = RU(x).  Scaling back by 2^e is exact unless the
 *   result is subnormal or overflows; a subnormal result that ldexp rounded
 *   down is stepped up once (the coarser grid's RU of RU(x) is RU(x)).
 *   Overflow gives +Inf = RU(x) for x > DBL_MAX.
 *
 * (27): nu = RU(Delta/(eps mu)): exact <= nu < exact + ulp(exact).
 * (39): S = sum |g_j| 2^-k (k from frexp of max |g_j|, each scaled term
 *   within u relative or 2^-1075 absolute; S^ >= 1/2 so the absolute part is
 *   below u S^ for n <= 2^1020), recursive sum: S^ <= S(1 + u)(1 + gamma_{n-1}),
 *   S <= S^/(1 - gamma_{n-1}) <= S^ (1 + 2(n-1)u) for n u <= 1/4.
 *   U = nextup(RN(S^ + RN(S^ c))), c = (n + 2) 2^-52: since RN(y) >= y(1-u)
 *   and nextup(y) >= y(1 + u) (normal y), U >= S^ (1 + c(1 - u))(1 - u^2)
 *   >= S^ (1 + 2(n-1)u) >= S.  nu = RU(2 U 2^k / (eps mu)) >= exact.
 *   Upper: RN(S^ c) <= S^ c (1+u), RN <= (1+u), nextup <= (1 + 2u), RU <=
 *   (1 + 2u) (normal result); (1 + c(1+u)) <= (1+u)^{2n+5} for (2n+4)u <= 1:
 *     exact <= nu <= exact (1 + gamma_{3n+10}) + 2^-1074.
 *   All g = 0 gives nu = +0 (the point mass, docs/FEDEPM.md).
 * Density: t = |x|/nu (standard) or RN(|x|/nu)/2 (printed, exact halving
 *   unless subnormal), t^ = t(1 + d); exp(-t^) = exp(-t) e^{-t d}, |t d| <=
 *   t u; exp within 2 ulp (4 factors), the division by the mantissa of nu
 *   (1), ldexp by -(k+1) exact unless subnormal:
 *     |p^ - p| <= (1.01 t + 6) u p + 2^-1072 (1 + 1/nu)
 *   (the absolute term: exp(-t) subnormal for t > 708, within 2^-1073, then
 *   divided by 2 nu; a subnormal result, within 2^-1075).  Underflow to 0
 *   for large t is within that bound.
 *
 * The bound functions (u = 2^-53).
 * ff_laplace_scale_upper_bound: rel = 2^-51, abs = 2^-1074, exact
 *   constants: 0 <= nu - exact < ulp(exact) <= 2^-52 exact for exact >=
 *   2^-1022, < 2^-1074 below (nu = +Inf, exact > DBL_MAX: no bound).
 * ff_laplace_scale_eq39_upper_bound: rel = (3n + 11) u, exact, abs =
 *   2^-1074: gamma_{3n+10} <= (3n + 11) u iff (3n + 10)(3n + 11) u <= 1,
 *   true for n <= 2^24 (FR_ESIZE beyond; the analysis above also needs
 *   (2n + 4) u <= 1).
 * ff_laplace_density_bound: rel^ = RN(RN(RN(1.01 t^) + 6) u), abs^ =
 *   RN(2^-1072 RN(1 + RN(1/nu))), t^ computed as ff_laplace_density does
 *   (t^ >= (1 - u) t - 2^-1074).  Counted honestly, the relative error
 *   above is at most (e^{t u} - 1) + 5u + O(u^2) <= (1.0001 t + 5.01) u
 *   (t <= 746; beyond, exp(-t^) is below 2^-1075 and the absolute term
 *   takes over) and the absolute one at most 2^-1074 (1 + 2u)/nu + 2^-1075.
 *   rel^ >= (1.01 (1 - u) t - 2^-1073 + 6)(1 - u)^2 u >= (1.0099 t + 5.99) u
 *   (the scaling by u is exact: the sum is >= 6), and abs^ >= 2^-1072
 *   (1 + (1 - u)/nu)(1 - u) - 2^-1075 >= 2^-1073 (1 + 1/nu): upper bounds
 *   despite their own rounding (1/nu = +Inf gives abs^ = +Inf).
 * Contract: include/fedfast.h. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "fedfast.h"
#include "../internal.h"

/* Exact sign of v[0] + ... + v[k-1] (k <= 8, no overflow): Grow-Expansion
 * with zero elimination, then the sign of the largest component. */
static int sign_of_sum(const double *v, int k)
{
    double e[8];
    int ne = 0;
    for (int i = 0; i < k; i++) {
        double q = v[i];
        int m = 0;
        for (int j = 0; j < ne; j++) {
            double s = q + e[j], bv = s - q;
            double h = (q - (s - bv)) + (e[j] - bv);      /* TwoSum: q + e_j = s + h */
            if (h != 0)
                e[m++] = h;
            q = s;
        }
        if (q != 0)
            e[m++] = q;
        ne = m;
    }
    return ne == 0 ? 0 : e[ne - 1] > 0 ? 1 : -1;
}

/* sign(A - q (ph + pl)), exactly. */
static int cmp_quot(double A, double ph, double pl, double q)
{
    double h1 = q * ph, l1 = fma(q, ph, -h1);
    double h2 = q * pl, l2 = fma(q, pl, -h2);
    double v[5] = {A, -h1, -l1, -h2, -l2};
    return sign_of_sum(v, 5);
}

/* RU(a 2^ea / (b c)) for a, b, c > 0 finite. */
static double ru_quot(double a, int ea, double b, double c)
{
    int ka, kb, kc;
    double A = frexp(a, &ka), B = frexp(b, &kb), C = frexp(c, &kc);
    int e = ea + ka - kb - kc;
    double ph = B * C, pl = fma(B, C, -ph);
    double q = A / ph;
    while (cmp_quot(A, ph, pl, q) > 0)                 /* q < x */
        q = ffi_next_up(q);
    for (;;) {
        double qd = ffi_next_down_pos(q);
        if (cmp_quot(A, ph, pl, qd) > 0)               /* qd < x: q = RU(x) */
            break;
        q = qd;
    }
    if (e > DBL_MAX_EXP + 4)
        return INFINITY;
    if (e < DBL_MIN_EXP - DBL_MANT_DIG - 4)
        return ffi_next_up(0.0);
    double r = ldexp(q, e);
    if (ldexp(r, -e) < q)                              /* subnormal, rounded down */
        r = ffi_next_up(r);
    return r;
}

static int check_pos(double x)
{
    return !isfinite(x) ? FR_ENONFINITE : x > 0 ? FR_OK : FR_EDOM;
}

/* The checks of (27): Delta, eps, mu finite and > 0, in class order. */
static int scale_args(double Delta, double eps, double mu)
{
    if (!isfinite(Delta) || !isfinite(eps) || !isfinite(mu))
        return FR_ENONFINITE;
    int st;
    if ((st = check_pos(Delta)) || (st = check_pos(eps)) || (st = check_pos(mu)))
        return st;
    return FR_OK;
}

/* The checks of (39) after the output's NULL test, in class order; n above
 * nmax is FR_ESIZE too (the bound's proof). */
static int eq39_args(const double *g, size_t n, double eps, double mu, size_t nmax)
{
    if (!g)
        return FR_ENULL;
    if (n == 0 || n > FR_COUNT_MAX || n > nmax)
        return FR_ESIZE;
    if (!isfinite(eps) || !isfinite(mu) || !ffi_all_finite(g, n))
        return FR_ENONFINITE;
    int st;
    if ((st = check_pos(eps)) || (st = check_pos(mu)))
        return st;
    return FR_OK;
}

/* The checks of the density after the output's NULL test. */
static int density_args(double x, double nu)
{
    if (!isfinite(x) || !isfinite(nu))
        return FR_ENONFINITE;
    return nu > 0 ? FR_OK : FR_EDOM;
}

int ff_laplace_scale_upper(double *nu, double Delta, double eps, double mu)
{
    int st = nu ? scale_args(Delta, eps, mu) : FR_ENULL;
    if (st != FR_OK)
        return st;
    *nu = ru_quot(Delta, 0, eps, mu);
    return FR_OK;
}

int ff_laplace_scale_eq39_upper(double *nu, const double *g, size_t n, double eps, double mu)
{
    int st = nu ? eq39_args(g, n, eps, mu, SIZE_MAX) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double M = 0;
    for (size_t j = 0; j < n; j++)
        M = fmax(M, fabs(g[j]));
    if (M == 0) {
        *nu = 0.0;
        return FR_OK;
    }
    int k;
    frexp(M, &k);
    double S = 0;
    for (size_t j = 0; j < n; j++)
        S += ldexp(fabs(g[j]), -k);
    double c = (double)(n + 2) * 0x1p-52;
    double U = ffi_next_up(S + S * c);
    *nu = ru_quot(U, k + 1, eps, mu);
    return FR_OK;
}

int ff_laplace_density(double *p, double x, double nu, int printed)
{
    int st = p ? density_args(x, nu) : FR_ENULL;
    if (st != FR_OK)
        return st;
    double t = fabs(x) / nu;
    if (printed)
        t *= 0.5;
    int k;
    double m = frexp(nu, &k);                          /* 2 nu = m 2^(k+1) */
    *p = ldexp(exp(-t) / m, -(k + 1));
    return FR_OK;
}

int ff_laplace_scale_upper_bound(double *rel, double *abs, double Delta, double eps, double mu)
{
    int st = rel && abs ? scale_args(Delta, eps, mu) : FR_ENULL;   /* the function's checks */
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    *rel = 0x1p-51;
    *abs = 0x1p-1074;
    return FR_OK;
}

int ff_laplace_scale_eq39_upper_bound(double *rel, double *abs, const double *g, size_t n,
                                      double eps, double mu)
{
    /* the function's checks; gamma_{3n+10} <= (3n + 11) u needs n <= 2^24 */
    int st = rel && abs ? eq39_args(g, n, eps, mu, (size_t)1 << 24) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    *rel = (double)(3 * n + 11) * 0x1p-53;
    *abs = 0x1p-1074;
    return FR_OK;
}

int ff_laplace_density_bound(double *rel, double *abs, double x, double nu, int printed)
{
    int st = rel && abs ? density_args(x, nu) : FR_ENULL;   /* the function's checks */
    if (st != FR_OK)
        return st;
    if (rel == abs)
        return FR_EDOM;                    /* two outputs */
    double t = fabs(x) / nu;
    if (printed)
        t *= 0.5;
    *rel = (1.01 * t + 6) * 0x1p-53;
    *abs = 0x1p-1072 * (1 + 1 / nu);
    return FR_OK;
}
