/* SPDX-License-Identifier: Apache-2.0 */
/* sens_path.c -- the whole-path sensitivity of Algorithm 1 of 003 in
 * binary64, an upper bound (contract: fedfast/fedpdm.h; derivation and the
 * recursion: ref/fedpdm/sens_path.c, E-003-S1).
 *
 * Every term is >= 0 and every operation is rounded upward: a product or a
 * sum whose fma / TwoSum residual is nonzero is moved to the next binary64
 * above (exact results stay exact).  W_t = ff_fedpdm_sensitivity / 2 (an
 * upper bound of (19)/2); b = 1 - eta rho = h + l - e exactly (p = fl(eta
 * rho), e = fma(eta, rho, -p), (h, l) = TwoSum(1, -p)), so |b| lies in
 * [|h| - |l| - |e|, |h| + |l| + |e|] and sgn b = sgn h (h != 0: |l| + |e| <
 * |h|, as |h| >= ulp(p)/2 when p < 2 and |h| >= p/2 otherwise), b = -e when
 * h = 0; |B| = |b|^Q enclosed by binary powering with every product rounded
 * down / up.  No allocation: a first pass checks that nothing overflows
 * (FR_ENONFINITE, s untouched), a second writes s. */
#include <float.h>
#include <math.h>
#include "../internal.h"
#include "fedfast/fedpdm.h"
#include "sens_path.h"

static double mul_u(double x, double y)          /* x, y >= 0 */
{
    if (x == 0 || y == 0)
        return 0;
    double p = x * y;
    if (!isfinite(p))
        return INFINITY;
    if (p < 0x1p-969)
        return ffi_next_up(p);
    return fma(x, y, -p) > 0 ? ffi_next_up(p) : p;
}
static double mul_d(double x, double y)          /* x, y >= 0 */
{
    if (x == 0 || y == 0)
        return 0;
    double p = x * y;
    if (!isfinite(p))
        return DBL_MAX;
    if (p < 0x1p-969)
        return ffi_next_down_clamp0(p);
    return fma(x, y, -p) < 0 ? ffi_next_down_clamp0(p) : p;
}
double ffi_path_mul_up(double x, double y) { return mul_u(x, y); }
double ffi_path_mul_down(double x, double y) { return mul_d(x, y); }

static double add_u(double x, double y)
{
    double t = x + y;
    if (!isfinite(t))
        return t;
    double bb = t - x, r = (x - (t - bb)) + (y - bb);
    return r > 0 ? ffi_next_up(t) : t;
}
static double sub_d(double x, double y)          /* x - y rounded down */
{
    return -add_u(-x, y);
}
static double pow_u(double x, unsigned long q, int up)
{
    double r = 1, b = x;
    while (q) {
        if (q & 1) r = up ? mul_u(r, b) : mul_d(r, b);
        q >>= 1;
        if (q) b = up ? mul_u(b, b) : mul_d(b, b);
    }
    return r;
}

/* an upper bound of |1 - k B|, B in sgnB [lo, hi] */
static double one_minus(int sgnB, double lo, double hi, double k)
{
    if (sgnB < 0)
        return add_u(1, mul_u(k, hi));
    double a = -sub_d(1, mul_u(k, hi));             /* -(1 - k hi), up */
    double c = -sub_d(mul_d(k, lo), 1);             /* 1 - k lo, up */
    double m = a > c ? a : c;
    return m > 0 ? m : 0;
}

/* B_t = b^Q in double-double, for |1 - 2B|, |1 - B| and |B| without the
 * cancellation of the enclosure above (1 - 2B near 0 when B is near 1/2).
 * b = (bh, bl) = TwoSum(h, fl(l - e)) is within 4u^2 |b| of b (u = 2^-53:
 * |l - e| <= 2u |h|, one rounding), the relative error of b^Q by binary
 * powering is at most Q 4u^2 + 34 (7u^2) (Q <= 2^16: at most 34 dd
 * products, each within 7u^2 relative, the operands' errors carried
 * multiplicatively) <= (Q + 64) 2^-100 = epsB, with every |value| in [2^-800,
 * 2^800] (checked; otherwise the enclosure above is used).  Then an upper
 * bound of |1 - k B| is |ch| + |cl| + k |B| epsB + 2^-100, (ch, cl) =
 * TwoSum(1, -k Bh) + (-k Bl) (one more rounding, within u |cl|, covered by
 * the 2^-100 since |cl| <= 2^-52), every sum rounded up. */
typedef struct { double h, l; } dd_t;
static dd_t dd_mul(dd_t a, dd_t b)
{
    double p = a.h * b.h, e = fma(a.h, b.h, -p);
    e += a.h * b.l + a.l * b.h;
    double s = p + e;
    return (dd_t){s, e - (s - p)};
}
/* 0 when a value left [2^-800, 2^800] (then no claim) */
static int dd_pow(dd_t b, unsigned long q, dd_t *out)
{
    dd_t r = {1, 0};
    while (q) {
        if (q & 1) r = dd_mul(r, b);
        q >>= 1;
        if (q) b = dd_mul(b, b);
        if (!(fabs(r.h) >= 0x1p-800 && fabs(r.h) <= 0x1p800 && fabs(b.h) <= 0x1p800)) return 0;
        if (q && !(fabs(b.h) >= 0x1p-800)) return 0;
    }
    *out = r;
    return 1;
}
/* upper bound of |1 - k B|, B = (Bh, Bl) within epsB relative */
static double one_minus_dd(dd_t B, double k, double epsB)
{
    double ch = 1 - k * B.h, bb = ch - 1, cl = (1 - (ch - bb)) + (-k * B.h - bb);
    cl += -k * B.l;
    const double err = add_u(mul_u(mul_u(k, add_u(fabs(B.h), fabs(B.l))), epsB), 0x1p-100);
    return add_u(add_u(fabs(ch), fabs(cl)), err);
}

static int check(const double *eta, unsigned long T, double rho, unsigned long Q, double G, int start)
{
    if (T == 0 || T > FR_PDM_T_MAX || Q > FR_FEDPDM_Q_MAX)
        return FR_ESIZE;
    for (unsigned long t = 0; t < T; t++)
        if (!isfinite(eta[t]))
            return FR_ENONFINITE;
    if (!isfinite(rho) || !isfinite(G))
        return FR_ENONFINITE;
    for (unsigned long t = 0; t < T; t++)
        if (!(eta[t] > 0))
            return FR_EDOM;
    if (!(rho > 0) || G < 0 || Q == 0 || (start != FR_PDM_START_XI && start != FR_PDM_START_X0))
        return FR_EDOM;
    return FR_OK;
}

/* one pass; s NULL: only the overflow check */
static int run(double *s, const double *eta, unsigned long T, double rho, unsigned long Q, double G,
               int start)
{
    const int xi = start == FR_PDM_START_XI;
    double xb = 0, lb = 0;
    for (unsigned long t = 0; t < T; t++) {
        double W;
        int st = ff_fedpdm_sensitivity(&W, eta[t], rho, Q, G);
        if (st != FR_OK)
            return st;
        W = W * 0.5 * 2 == W ? W * 0.5 : ffi_next_up(W * 0.5);   /* W_t, up */
        double ab, p = eta[t] * rho, lo, hi;
        int sgnb;
        if (!isfinite(p))
            return FR_ENONFINITE;
        if (p < 0x1p-900) {                  /* b = 1 - p in [1 - 2p, 1] */
            sgnb = 1;
            lo = sub_d(1, 2 * p);
            hi = 1;
        } else {
            double e = fma(eta[t], rho, -p), h = 1 - p, bb = h - 1, l = (1 - (h - bb)) + (-p - bb);
            if (h == 0) {
                sgnb = e > 0 ? -1 : 1;
                lo = hi = fabs(e);
            } else {
                sgnb = h < 0 ? -1 : 1;
                ab = fabs(h);
                double rest = add_u(fabs(l), fabs(e));
                lo = rest == 0 ? ab : fmax(sub_d(ab, rest), 0);
                hi = rest == 0 ? ab : add_u(ab, rest);
            }
        }
        const int sgnB = sgnb < 0 && (Q & 1) ? -1 : 1;
        double Blo = pow_u(lo, Q, 0), Bhi = pow_u(hi, Q, 1);
        double c2 = one_minus(sgnB, Blo, Bhi, 2), c1 = one_minus(sgnB, Blo, Bhi, 1);
        dd_t bd, Bd;
        if (p >= 0x1p-900 && Q <= 65536) {          /* the double-double B, when it applies */
            double e = fma(eta[t], rho, -p), h = 1 - p, bb = h - 1, l = (1 - (h - bb)) + (-p - bb);
            double m = l - e, bh = h + m, b2 = bh - h;
            bd.h = bh;
            bd.l = (h - (bh - b2)) + (m - b2);
            if (fabs(bd.h) >= 0x1p-800 && dd_pow(bd, Q, &Bd)) {
                const double epsB = ((double)Q + 64) * 0x1p-100;
                const double bu = add_u(add_u(fabs(Bd.h), fabs(Bd.l)), mul_u(add_u(fabs(Bd.h), fabs(Bd.l)), epsB));
                const double d2 = one_minus_dd(Bd, 2, epsB), d1 = one_minus_dd(Bd, 1, epsB);
                if (bu < Bhi) Bhi = bu;               /* both are upper bounds: keep the smaller */
                if (d2 < c2) c2 = d2;
                if (d1 < c1) c1 = d1;
            }
        }
        double v = add_u(mul_u(c2, lb), 2 * W);
        if (xi)
            v = add_u(v, mul_u(2 * Bhi, xb));
        if (!isfinite(v))
            return FR_ENONFINITE;
        if (s)
            s[t] = v;
        if (xi) {
            const double bx = mul_u(Bhi, xb);
            const double nx = add_u(add_u(bx, mul_u(c1, lb)), W);
            const double nl = add_u(add_u(bx, mul_u(Bhi, lb)), W);
            if (nx > xb) xb = nx;
            if (nl > lb) lb = nl;
        } else {
            const double nl = add_u(mul_u(Bhi, lb), W);
            if (nl > lb) lb = nl;
        }
    }
    return FR_OK;
}

int ff_fedpdm_path_sens(double *s, const double *eta, unsigned long T, double rho, unsigned long Q,
                        double G, int start)
{
    if (s == NULL || eta == NULL)
        return FR_ENULL;
    int st = check(eta, T, rho, Q, G, start);
    if (st == FR_OK)
        st = run(NULL, eta, T, rho, Q, G, start);
    if (st == FR_OK)
        st = run(s, eta, T, rho, Q, G, start);
    return st;
}
