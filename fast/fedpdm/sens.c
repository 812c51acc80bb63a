/* sens.c -- an upper bound of the sensitivity (19) of 003 Theorem 1 in
 * binary64.  Contract and error bound: fedfast/fedpdm.h.
 *
 * Proof sketch of the bound (u = 2^-53, RN = round to nearest, up(x) =
 * nextafter(x, +Inf); for x > 0 normal, up(RN(x)) <= x (1 + u)(1 + 2u) <=
 * x (1 + 3.01u), and up(RN(x)) > x always):
 *  - a: p = RN(eta rho), e = fma(eta, rho, -p) is exact when p >= 2^-900
 *    (no underflow), so d = 1 - eta rho = h + (l - e) with (h, l) =
 *    TwoSum(1, -p) exact.  d_hi = RU(h + RU(l - e)), d_lo = RD(h + RD(l -
 *    e)) (directed roundings from TwoSum's exact residual), a_up =
 *    max(|d_hi|, |d_lo|) >= |d| = a.  For p in [1/2, 2] h is exact
 *    (Sterbenz), l = 0 and only the outer sum rounds (<= 2u|d|); otherwise
 *    |d| >= 1/2 or |d| >= p/2 while |l|, |e| <= u max(1, p), so the inner
 *    rounding adds <= 8u^2 |d|: a_up <= a (1 + 3u).  p < 2^-900: a_up = 1
 *    (a = 1 - eta rho < 1), S_Q(1)/S_Q(a) <= 1 + 2^-880 for Q <= 2^16.
 *  - S_Q(a) is increasing in a with S_Q(a (1 + t)) <= S_Q(a) (1 + t)^(Q-1);
 *    Horner's Q - 1 steps S <- RU(1 + a_up S) (the exact residual of a_up S
 *    by fma and of 1 + p by TwoSum decide whether to step up: exact steps
 *    stay exact, so eta rho = 2 gives S = Q exactly) each cost <= 1 + 2u
 *    on a sum of nonnegative terms, so S_up <= S_Q(a) (1 + 3.01u)^(2Q - 2)
 *    (1 + 2^-880).
 *  - m = RU(eta G) <= eta G (1 + 2u) (from fma's exact residual when
 *    RN(eta G) >= 2^-969, else up(RN(eta G)) <= eta G (1 + 3.01u) + 2^-1073),
 *    q = RU(m S_up) likewise, s = 4 q exact
 *    unless it overflows.  Altogether s - exact <= exact ((1 +
 *    3.01u)^(2Q) (1 + 2^-880) - 1) + 2^-1071 (S_up (1 + 4u) + 1). */
#include <math.h>
#include "../internal.h"
#include "fedfast.h"

/* x + y rounded up / down, from TwoSum's exact residual (finite sums). */
static double add_up(double x, double y)
{
    double s = x + y, bb = s - x, r = (x - (s - bb)) + (y - bb);
    return r > 0 ? nextafter(s, INFINITY) : s;
}
static double add_down(double x, double y)
{
    double s = x + y, bb = s - x, r = (x - (s - bb)) + (y - bb);
    return r < 0 ? nextafter(s, -INFINITY) : s;
}

/* x y rounded up (x, y >= 0): exact residual when x y >= 2^-969. */
static double mul_up(double x, double y)
{
    double p = x * y;
    if (p < 0x1p-969)
        return nextafter(p, INFINITY);
    return fma(x, y, -p) > 0 ? nextafter(p, INFINITY) : p;
}

static int check(double eta, double rho, unsigned long Q, double G)
{
    if (Q > FR_FEDPDM_Q_MAX)
        return FR_ESIZE;
    if (!isfinite(eta) || !isfinite(rho) || !isfinite(G))
        return FR_ENONFINITE;
    if (Q == 0 || !(eta > 0) || !(rho > 0) || G < 0)
        return FR_EDOM;
    return FR_OK;
}

/* S_up >= S_Q(|1 - eta rho|) (may be +Inf). */
static double geom_up(double eta, double rho, unsigned long Q)
{
    if (Q == 1)
        return 1;
    double p = eta * rho, a;
    if (p < 0x1p-900) {
        a = 1;
    } else if (!isfinite(p)) {
        return INFINITY;
    } else {
        double e = fma(eta, rho, -p);
        double h = 1 - p, bb = h - 1, l = (1 - (h - bb)) + (-p - bb);   /* TwoSum(1, -p) */
        double dhi = add_up(h, add_up(l, -e)), dlo = add_down(h, add_down(l, -e));
        a = fmax(fabs(dhi), fabs(dlo));
    }
    double S = 1;
    for (unsigned long j = 1; j < Q && isfinite(S); j++) {
        /* 1 + a S rounded up: p + ep = a S and y + ey = 1 + p exactly
         * (a S >= 2^-110 or 0: no underflow), |ey + ep| <= the gap above y */
        double p2 = a * S, ep = fma(a, S, -p2), y = 1 + p2, bb = y - 1;
        double ey = (1 - (y - bb)) + (p2 - bb);
        S = ey + ep > 0 ? nextafter(y, INFINITY) : y;
    }
    return S;
}

int ff_fedpdm_sensitivity(double *s, double eta, double rho, unsigned long Q, double G)
{
    if (s == NULL)
        return FR_ENULL;
    int st = check(eta, rho, Q, G);
    if (st != FR_OK)
        return st;
    if (G == 0) {
        *s = 0;
        return FR_OK;
    }
    double S = geom_up(eta, rho, Q);
    double q = 4 * mul_up(mul_up(eta, G), S);
    if (!isfinite(q))
        return FR_ENONFINITE;
    *s = q;
    return FR_OK;
}

int ff_fedpdm_sensitivity_bound(double *rel, double *abs, double eta, double rho, unsigned long Q,
                                double G)
{
    if (rel == NULL || abs == NULL)
        return FR_ENULL;
    int st = check(eta, rho, Q, G);
    if (st != FR_OK)
        return st;
    double S = geom_up(eta, rho, Q);
    if (!isfinite(S))
        return FR_ENONFINITE;
    *rel = (7 * (double)Q + 4) * 0x1p-53;
    *abs = nextafter((S + 1) * 0x1p-1070, INFINITY);
    return FR_OK;
}
