/* SPDX-License-Identifier: Apache-2.0 */
/* sens.c -- an upper bound of the sensitivity (19) of 003 Theorem 1 in
 * binary64, at most about one ulp above.  Contract and error bound:
 * fedfast/fedpdm.h.
 *
 * Proof of the bound (u = 2^-53, RN = round to nearest; TwoSum and
 * TwoProd by fma are exact away from overflow and underflow):
 *  - a: p = RN(eta rho), e = fma(eta, rho, -p) exact (p >= 2^-900), so
 *    1 - eta rho = h + l - e with (h, l) = TwoSum(1, -p); t = RN(l - e) is
 *    the one rounding, (ah, al) = TwoSum(h, t) exact, sign flipped to make
 *    ah >= 0.  For p in [1/2, 2] l = 0 and t is exact; otherwise a >= 1/2
 *    or a >= p/2 while |l - e| <= 2u max(1, p): |ah + al - a| <= 4u^2 a,
 *    |al| <= u ah.  p < 2^-900: (ah, al) = (1, -p), off by |e| <= u p.
 *  - Horner in double-double, S <- 1 + a S with S = sh + sl (sh >= 1,
 *    |sl| <= u sh): ah sh = pp + ep exactly; the cross terms ah sl + al sh
 *    (<= 2.1u a S) are rounded twice and al sl (<= u^2 a S) dropped:
 *    <= 5.2u^2 a S; 1 + pp = y + ey exactly; low = (ey + ep) + c1 costs <=
 *    6.3u^2 (1 + a S); FastTwoSum(y, low) is exact.  Each step is within
 *    11.5u^2 of 1 + a S relative, and an earlier relative error enters
 *    multiplied by a S/(1 + a S) < 1; a's error enters S_Q at most times
 *    Q - 1: |sh + sl - S_Q(a)| <= (11.5 (Q - 1) + 4 (Q - 1)) u^2 S_Q.
 *  - m = eta G = mh + ml (TwoProd, mh >= 2^-960); m S likewise within
 *    <= 10u^2: altogether exact = V (1 + t) with V = rh + rl (TwoSum) and
 *    |t| <= eps = (16Q + 16) u^2 (< 2^-86 for Q <= 2^16).  If rl + 2 eps rh
 *    <= 0 then exact <= rh, else exact <= rh + ulp(rh)/2 + 2 eps rh <=
 *    nextup(rh): s = 4 * that >= exact and s - exact <= 2u s_exact (1 +
 *    eps) + 4 eps s_exact <= (2^-51 + 4 eps) exact.
 *  - mh < 2^-960 (eta G near underflow): s = 4 RU(RU(eta G) nextup(sh))
 *    with RU from fma's residual or one nextafter: <= exact (1 + 3.01u)^2
 *    (1 + 2.1u) + 2^-1071 (S_up + 1): rel 2^-50, abs 2^-1070 (S_up + 1).
 *  - When every rounding above was exact (residuals checked: fma for
 *    products, TwoSum for sums, al sl and ml sl zero), rh + rl is the
 *    exact value and no margin is added: exact results (eta rho = 2 or 1,
 *    Q = 1, dyadic a) come out exact. */
#include <math.h>
#include "../internal.h"
#include "fedfast.h"

/* x y rounded up (x, y >= 0): exact residual when x y >= 2^-969. */
static double mul_up(double x, double y)
{
    double p = x * y;
    if (p < 0x1p-969)
        return ffi_next_up(p);
    return fma(x, y, -p) > 0 ? ffi_next_up(p) : p;
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

static void two_sum(double x, double y, double *s, double *e)
{
    double t = x + y, bb = t - x;
    *s = t;
    *e = (x - (t - bb)) + (y - bb);
}

/* S_Q(a), a = |1 - eta rho|, as a double-double sh + sl (sh >= 1, |sl| <=
 * u sh) with |sh + sl - S_Q(a)| <= (16Q + 16) u^2 S_Q(a) (file comment),
 * or sh = +Inf on overflow. */
/* x y exact in binary64 (the fma residual is exact away from underflow;
 * below 2^-900 no claim). */
static int mul_exact(double x, double y)
{
    double p = x * y;
    if (p != 0 && fabs(p) < 0x1p-900) return 0;
    return fma(x, y, -p) == 0;
}
static int add_exact(double x, double y)
{
    double t, r;
    two_sum(x, y, &t, &r);
    return r == 0;
}

static void geom_dd(double eta, double rho, unsigned long Q, double *shp, double *slp, int *exact)
{
    double ah, al;
    *exact = 1;
    double p = eta * rho;
    if (p < 0x1p-900) {                      /* a = 1 - eta rho: (1, -p), error <= u p */
        ah = 1;
        al = -p;
        *exact = 0;
    } else if (!isfinite(p)) {
        *shp = Q == 1 ? 1 : INFINITY;
        *slp = 0;
        return;
    } else {
        double e = fma(eta, rho, -p), h, l;
        two_sum(1, -p, &h, &l);              /* 1 - p = h + l */
        two_sum(h, l - e, &ah, &al);         /* l - e: the one rounding (<= 4u^2 a) */
        if (!add_exact(l, -e)) *exact = 0;
        if (ah < 0) { ah = -ah; al = -al; }
    }
    double sh = 1, sl = 0;
    for (unsigned long j = 1; j < Q; j++) {  /* S <- 1 + a S in double-double */
        double pp = ah * sh, ep = fma(ah, sh, -pp);
        double c1 = ah * sl + al * sh;
        double y, ey;
        two_sum(1, pp, &y, &ey);
        double low = (ey + ep) + c1;
        if (*exact && ((al != 0 && sl != 0) || !mul_exact(ah, sl) || !mul_exact(al, sh) || !add_exact(ah * sl, al * sh)
                       || !add_exact(ey, ep) || !add_exact(ey + ep, c1)))
            *exact = 0;
        sh = y + low;                        /* FastTwoSum: |y| >= |low| */
        sl = low - (sh - y);
        if (!isfinite(sh)) { sh = INFINITY; sl = 0; break; }
    }
    *shp = sh;
    *slp = sl;
}

/* S_up >= S_Q(|1 - eta rho|): the least binary64 above sh + sl's enclosure. */
static double geom_up(double eta, double rho, unsigned long Q)
{
    double sh, sl;
    int ex;
    geom_dd(eta, rho, Q, &sh, &sl, &ex);
    return isfinite(sh) ? ffi_next_up(sh) : sh;
}

#define EPS_DD(Q) ((16 * (double)(Q) + 16) * 0x1p-106)

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
    double sh, sl, q;
    int ex;
    geom_dd(eta, rho, Q, &sh, &sl, &ex);
    if (!isfinite(sh))
        return FR_ENONFINITE;
    double mh = eta * G;
    if (mh < 0x1p-960) {                     /* eta G near underflow: upward steps */
        q = 4 * mul_up(mul_up(eta, G), ffi_next_up(sh));
    } else {
        double ml = fma(eta, G, -mh);        /* exact */
        double rh0 = mh * sh, er = fma(mh, sh, -rh0);
        double low = er + (mh * sl + ml * sh), rh, rl;
        if (ex && ((ml != 0 && sl != 0) || !mul_exact(mh, sl) || !mul_exact(ml, sh) || !add_exact(mh * sl, ml * sh)
                   || !add_exact(er, mh * sl + ml * sh)))
            ex = 0;
        two_sum(rh0, low, &rh, &rl);
        /* every step exact: rh + rl is the exact value, no margin */
        /* exact <= (rh + rl)(1 + eps) <= rh + rl + 2 eps rh <= nextup(rh) */
        q = rl + (ex ? 0 : 2 * EPS_DD(Q) * rh) > 0 ? ffi_next_up(rh) : rh;
        q *= 4;
    }
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
    if (eta * G < 0x1p-960 && G != 0) {     /* the upward-step path */
        *rel = 0x1p-50;
        *abs = ffi_next_up((S + 1) * 0x1p-1070);
    } else {
        *rel = 0x1p-51 + 4 * EPS_DD(Q);
        *abs = 0;
    }
    return FR_OK;
}
