/* SPDX-License-Identifier: Apache-2.0 */
/* dp.c -- the privacy bookkeeping of FedEPM in binary64 (docs/FEDEPM.md
 * section 9): one step of the l1 sensitivity recursion and the composition
 * of per-upload losses, each returned as an upper bound of the exact value
 * (never a privacy loss or a sensitivity below the true one).
 *
 * Notation: u = 2^-53; RN(y) the binary64 nearest y (ties to even,
 * gradual underflow, overflow to +Inf); ffi_next_up(x) = nextafter(x, +Inf),
 * ffi_next_down_pos(x) = nextafter(x, 0) for x >= 0.
 *   (U) For real y >= 0 and x = RN(y): y <= ffi_next_up(x).  RN(y) lies within half
 *       the gap to its neighbours of y, so y <= x + (ffi_next_up(x) - x)/2 <= ffi_next_up(x);
 *       x = DBL_MAX gives ffi_next_up(x) = +Inf, and x = +Inf is trivial.
 *   (D) Likewise ffi_next_down_pos(x) <= y.
 *   (T) TwoSum: t = RN(a + b) and r = (a - (t - b')) + (b - b'), b' = t - a,
 *       give a + b = t + r exactly for finite a, b without overflow
 *       (Knuth); with a, b >= 0, r > 0 means t < a + b and ffi_next_up(t) >= a + b
 *       by (U), r <= 0 means t >= a + b.  upsum(a, b) below is t or ffi_next_up(t)
 *       accordingly: >= a + b, exact when the sum is.
 *   (L) libm log and expm1 within 2 ulp (the assumption of fedfast.h):
 *       for f > 0 and f^ its computed value, f <= up^4(f^) (if f is in the
 *       binade of f^, f <= f^ + 2 ulp(f^); if above it, ulp(f) = 2 ulp(f^)
 *       and f <= f^ + 4 ulp(f^); each up step moves at least ulp(f^)).
 *   Relative growth in the normal range: RN(y) <= y (1 + u), ffi_next_up(x) <= x
 *   (1 + 2u), ffi_next_down_pos(x) >= x (1 - 2u).
 *
 * ff_dp_sens_step_upper: q = (mu delta + Delta)/(eta + mu).
 *   P = ffi_next_up(RN(mu delta)) >= mu delta (U); N = ffi_next_up(RN(P + Delta)) >= P +
 *   Delta (U); Dd = ffi_next_down_pos(RN(eta + mu)) <= eta + mu (D; RN of a sum of
 *   positives is >= each, so Dd >= 0, and Dd = 0 gives +Inf, an upper
 *   bound); out = ffi_next_up(RN(N / Dd)) >= N/Dd >= q (U).  Upper: a subnormal
 *   RN(y) has |RN(y) - y| <= 2^-1075 and up adds at most 2^-1074, sums of
 *   non-negatives are exact when subnormal; so N <= (mu delta + Delta)
 *   (1 + u)^2 (1 + 2u)^2 + 2^-1072, and for eta + mu >= 2^-1021 (normal)
 *   Dd >= (eta + mu)(1 - u)(1 - 2u); out <= q (1 + 7u)(1 + u)(1 + 2u) /
 *   (1 - 3u) + 2^-1072 (1 + u)(1 + 2u)/((1 - 3u)(eta + mu)) + 2^-1073
 *   <= q (1 + 14u) + 2^-1071/(eta + mu) + 2^-1073.  The bound function
 *   returns rel = 2^-49 = 16u and abs >= 2^-1071/(eta + mu) + 2^-1073
 *   computed upward ((U), (D)); FR_EDOM when eta + mu < 2^-1021.  When
 *   N overflows (mu delta + Delta >= 2^1023, the result may still fit:
 *   eta = 1, mu = 4, delta = 1e308 gives 8e307) the same steps run on
 *   numerator and denominator scaled by 2^-j (j = k - 960, k the exponent
 *   of mu delta: mu delta 2^-j = fm fd 2^960 exactly from frexp), each
 *   still (U) or (D) (a power-of-two scaling is exact; Delta 2^-j may
 *   underflow, rounded to nearest then up: >= by (U)); the quotient is
 *   unchanged, the relative bound the same, the absolute terms smaller
 *   (the scaled numerator is >= 2^958).  A subnormal scaled denominator
 *   means q >= 2^1980: +Inf.
 *
 * ff_dp_compose_upper: basic = sum_j eps_j by upsum (>= exact by (T));
 *   adv: L = up^4(-log delta) >= ln(1/delta) (L); Q = upsum of
 *   ffi_next_up(RN(eps_j^2)) >= sum eps_j^2 (U, T); A = ffi_next_up(RN(2 L Q)) (2L exact);
 *   T = ffi_next_up(RN(sqrt(A))) >= sqrt(2 ln(1/delta) sum eps_j^2) (sqrt is
 *   correctly rounded and monotone); E = upsum of ffi_next_up(RN(eps_j up^4(expm1
 *   eps_j))) (L, U); adv = upsum(T, E) >= exact.  Upper, all values normal
 *   (every non-zero eps_j in [2^-500, 709], no overflow): each up after RN
 *   costs (1 + u)(1 + 2u) <= 1 + 3.01u, each upsum at most that, up^4
 *   after a 2-ulp function 1 + 12.1u; L^ <= L (1 + 12.1u), Q^ <= Q (1 +
 *   3.01u)^(k+1), T <= sqrt(2LQ) (1 + (12.1 + 3.01(k + 2))u/2)(1 + 3.01u),
 *   E <= (1 + 15.2u)(1 + 3.01u)^k sum_j eps_j expm1(eps_j): adv <= exact
 *   (1 + (4k + 24)u) for k u <= 2^-30; basic <= exact (1 + 3.01u)^k <=
 *   exact (1 + 4ku).  The subnormal corner (2 L Q below 2^-1022 when
 *   delta is near 1) adds at most sqrt(2^-1072) < 2^-535 to T.  The bound
 *   function returns rel = (4k + 32) 2^-53 and abs = 2^-530 for both
 *   outputs; FR_ESIZE for k > 2^30, FR_EDOM for a non-zero eps_j outside
 *   [2^-500, 709].
 * Contract: include/fedfast.h. */
#include <float.h>
#include <math.h>

#include "fedfast.h"
#include "../internal.h"
#include "dp.h"

static double up4(double x) { return ffi_next_up(ffi_next_up(ffi_next_up(ffi_next_up(x)))); }

/* >= a + b for a, b >= 0 (T); exact when the sum is; +Inf on overflow. */
static double upsum(double a, double b)
{
    double t = a + b;
    if (!isfinite(t))
        return t;
    double bv = t - a, r = (a - (t - bv)) + (b - bv);
    return r > 0 ? ffi_next_up(t) : t;
}

static int sens_args(const double *out, double delta, double Delta, double eta, double mu)
{
    if (out == NULL)
        return FR_ENULL;
    if (!isfinite(delta) || !isfinite(Delta) || !isfinite(eta) || !isfinite(mu))
        return FR_ENONFINITE;
    if (!(delta >= 0) || !(Delta >= 0) || !(eta > 0) || !(mu > 0))
        return FR_EDOM;
    return FR_OK;
}

double ffi_dp_sens_num_scaled(double mu, double delta, double Delta, int *j)
{
    int em, ed;
    const double fm = frexp(mu, &em), fd = frexp(delta, &ed);
    *j = em + ed - 960;
    return ffi_next_up(ldexp(ffi_next_up(fm * fd), 960) + ffi_next_up(ldexp(Delta, -*j)));
}

double ffi_dp_sens_scaled(double mu, double delta, double Delta, double D)
{
    int j;
    const double Ns = ffi_dp_sens_num_scaled(mu, delta, Delta, &j);
    const double Ds = ldexp(D, -j);
    return Ds >= DBL_MIN ? ffi_next_up(Ns / Ds) : INFINITY;
}

int ff_dp_sens_step_upper(double *out, double delta, double Delta, double eta, double mu)
{
    int st = sens_args(out, delta, Delta, eta, mu);
    if (st != FR_OK)
        return st;
    const double P = ffi_next_up(mu * delta), N = ffi_next_up(P + Delta), Dd = ffi_next_down_pos(eta + mu);
    if (isinf(N)) {
        /* mu delta + Delta >= 2^1023: numerator and denominator scaled by
         * 2^-j, j = k - 960, k the exponent of mu delta (power-of-two
         * scalings, exact but for the underflow of Delta 2^-j, rounded
         * outward by up), the quotient unchanged; a subnormal scaled
         * denominator means q >= 2^1980: +Inf */
        *out = ffi_dp_sens_scaled(mu, delta, Delta, Dd);
        return FR_OK;
    }
    *out = ffi_next_up(N / Dd);                      /* Dd = 0: +Inf */
    return FR_OK;
}

int ff_dp_sens_step_upper_bound(double *rel, double *abs, double delta, double Delta,
                                double eta, double mu)
{
    int st = sens_args(abs == NULL ? NULL : rel, delta, Delta, eta, mu);   /* FR_ENULL first */
    if (st != FR_OK)
        return st;
    const double Dd = ffi_next_down_pos(eta + mu);         /* <= eta + mu (D) */
    if (!(Dd >= 0x1p-1021))
        return FR_EDOM;                     /* outside the proof's range */
    *rel = 0x1p-49;
    *abs = ffi_next_up(ffi_next_up(0x1p-1071 / Dd) + 0x1p-1073);
    return FR_OK;
}

static int compose_args(const double *basic, const double *adv, const double *eps, size_t k,
                        double delta)
{
    if (basic == NULL || adv == NULL || eps == NULL)
        return FR_ENULL;
    if (k == 0 || k > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(delta))
        return FR_ENONFINITE;
    for (size_t j = 0; j < k; j++)
        if (isnan(eps[j]) || eps[j] == -INFINITY)
            return FR_ENONFINITE;
    for (size_t j = 0; j < k; j++)
        if (eps[j] < 0)
            return FR_EDOM;
    if (!(delta > 0 && delta < 1) || basic == adv)
        return FR_EDOM;
    return FR_OK;
}

void ffi_dp_adv_sums(double *Q, double *E, const double *eps, const double *m, size_t k)
{
    double q = 0, e = 0;
    for (size_t j = 0; j < k; j++) {
        if (eps[j] == 0)
            continue;
        q = upsum(q, ffi_next_up(eps[j] * eps[j]));
        e = upsum(e, ffi_next_up(eps[j] * up4(m ? m[j] : expm1(eps[j]))));
    }
    *Q = q;
    *E = e;
}

double ffi_dp_adv_T(double L, double Q)
{
    return ffi_next_up(sqrt(ffi_next_up(2 * L * Q)));
}

int ff_dp_compose_upper(double *basic, double *adv, const double *eps, size_t k, double delta)
{
    int st = compose_args(basic, adv, eps, k, delta);
    if (st != FR_OK)
        return st;
    double b = 0;
    int inf = 0, pos = 0;
    for (size_t j = 0; j < k; j++) {
        inf |= isinf(eps[j]);
        pos |= eps[j] > 0;
    }
    for (size_t j = 0; j < k; j++)
        b = upsum(b, eps[j]);               /* +Inf if an eps_j is */
    double a;
    if (inf) {
        a = INFINITY;
    } else if (!pos) {
        a = 0;
    } else {
        const double L = up4(-log(delta));  /* >= ln(1/delta) */
        double Q, E;
        ffi_dp_adv_sums(&Q, &E, eps, NULL, k);
        a = upsum(ffi_dp_adv_T(L, Q), E);
    }
    *basic = b;
    *adv = a;
    return FR_OK;
}

int ff_dp_compose_upper_bound(double *rel, double *abs, const double *eps, size_t k,
                              double delta)
{
    int st = compose_args(rel, abs, eps, k, delta);
    if (st != FR_OK)
        return st;
    if (k > ((size_t)1 << 30))
        return FR_ESIZE;
    for (size_t j = 0; j < k; j++)
        if (eps[j] != 0 && !(eps[j] >= 0x1p-500 && eps[j] <= 709))
            return FR_EDOM;                 /* outside the proof's range */
    *rel = (4.0 * (double)k + 32) * 0x1p-53;   /* exact: k <= 2^30 */
    *abs = 0x1p-530;
    return FR_OK;
}
