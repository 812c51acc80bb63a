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

static double mul_u(double x, double y)          /* x, y >= 0 */
{
    if (x == 0 || y == 0)
        return 0;
    double p = x * y;
    if (!isfinite(p))
        return INFINITY;
    if (p < 0x1p-969)
        return nextafter(p, INFINITY);
    return fma(x, y, -p) > 0 ? nextafter(p, INFINITY) : p;
}
static double mul_d(double x, double y)          /* x, y >= 0 */
{
    if (x == 0 || y == 0)
        return 0;
    double p = x * y;
    if (!isfinite(p))
        return DBL_MAX;
    if (p < 0x1p-969)
        return fmax(nextafter(p, 0), 0);
    return fma(x, y, -p) < 0 ? nextafter(p, 0) : p;
}
static double add_u(double x, double y)
{
    double t = x + y;
    if (!isfinite(t))
        return t;
    double bb = t - x, r = (x - (t - bb)) + (y - bb);
    return r > 0 ? nextafter(t, INFINITY) : t;
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
        W = W * 0.5 * 2 == W ? W * 0.5 : nextafter(W * 0.5, INFINITY);   /* W_t, up */
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
        const double Blo = pow_u(lo, Q, 0), Bhi = pow_u(hi, Q, 1);
        double v = add_u(mul_u(one_minus(sgnB, Blo, Bhi, 2), lb), 2 * W);
        if (xi)
            v = add_u(v, mul_u(2 * Bhi, xb));
        if (!isfinite(v))
            return FR_ENONFINITE;
        if (s)
            s[t] = v;
        if (xi) {
            const double bx = mul_u(Bhi, xb);
            const double nx = add_u(add_u(bx, mul_u(one_minus(sgnB, Blo, Bhi, 1), lb)), W);
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
