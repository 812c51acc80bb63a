/* SPDX-License-Identifier: Apache-2.0 */
/* kkt.c -- ff_proxal_kkt, ff_proxal_kkt_bound: upper bounds of the
 * residuals of 004 Definition 1 in binary64 (contract: fedfast/proxal.h;
 * the per-coordinate formulas and why dist_inf to a product of intervals is
 * the max of the coordinate distances: fedref/proxal.h).
 *
 * Error analysis (u = 2^-53, rounding to nearest, no FMA contraction).
 * Coordinate k: t_j = J_kj mu_j (exact reals), r = g + sum_j t_j.
 *  q_0 = g, q_j = fl(J_kj mu_j): |q_j - t_j| <= u |t_j| + 2^-1075 (the
 *   second term only if the product is subnormal).
 *  s = fl(...(q_0 + q_1) + ... + q_m): |s - sum q| <= gamma_m Q, Q = sum_j
 *   |q_j| (Higham, ASNA 2nd ed., (4.4); additions are exact when their
 *   result is subnormal, so no underflow term).
 *  T = sum_{j>=1} |t_j| <= (Q + m 2^-1075)/(1 - u), hence
 *   |s - r| <= gamma_m Q + u T + m 2^-1075
 *          <= (gamma_m + gamma_1) Q + 2 m 2^-1075 <= gamma_{m+1} Q + m 2^-1074.
 *  a = fl(|q_0| + ... + |q_m|): |a - Q| <= gamma_m Q, so Q <= a/(1 - gamma_m).
 *  With nu = (m + 1) u <= 2^-26 (m <= FR_PROXAL_M_MAX): gamma_{m+1} <= nu (1 +
 *   2^-25) and 1/(1 - gamma_m) <= 1 + 2^-25, so gamma_{m+1} Q <= nu (1 +
 *   2^-23) a.  c_m = (m + 1) 2^-53 (1 + 2^-22) is exact ((m + 1)(2^22 + 1) <
 *   2^49) and c_m (1 - u) >= nu (1 + 2^-23), so
 *   fl(c_m a) >= c_m a (1 - u) - 2^-1075 >= gamma_{m+1} Q - 2^-1075.
 *  Hence |s - r| <= E = fl(c_m a) + (m + 1) 2^-1074, and E_up = RU(E)
 *  (m = 0: s = r exactly, E_up = 0).
 * Every coordinate distance phi (|r|, |r -+ gamma|, max(|r| - gamma, 0),
 * max(+-r, 0), 0) is 1-Lipschitz in r, so phi(r) <= phi(s) + E.  phi(s) is
 * one addition of binary64 numbers, rounded upward exactly (add_ru: TwoSum
 * gives the rounding error of the nearest sum; one step up when it is
 * positive), and ub_k = RU(RU(phi(s)) + E_up) >= phi(r_k).  eps1 = max_k
 * ub_k >= max_k phi(r_k) = the exact eps1.  eps2: |c_j| and max(c_j, 0) are
 * binary64 numbers: exact.
 * Bound: ub_k - phi(r_k) <= (ub_k - phi(s)) + E <= (E_up + ulp(ub_k) +
 * ulp(RU(phi(s)))) + E_up <= 2 E_up + 2 ulp(ub_k), and max_k ub_k - max_k
 * phi_k <= max_k (ub_k - phi_k): abs1 = max_k RU(2 E_up + 2 ulp(ub_k)).
 * Overflow (+Inf or NaN in s, a, ub or abs1): FR_ENONFINITE from both. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

/* The argument checks of both functions after their outputs' NULL test,
 * in class order: fr_proxal_kkt's (ref/proxal/kkt.c). */
static int kkt_args(const double *g, size_t d, const double *J, size_t m, const double *c,
                    const double *mu, const double *w, int h, double gamma, const double *lo,
                    const double *hi)
{
    if (!g || !w || (m > 0 && (!J || !c || !mu)) || (h == FR_PROXAL_H_BOX && (!lo || !hi)))
        return FR_ENULL;
    if (d == 0 || d > FR_COUNT_MAX || m > FR_PROXAL_M_MAX || (m > 0 && d > FR_COUNT_MAX / m))
        return FR_ESIZE;
    if (!ffi_all_finite(g, d) || !ffi_all_finite(w, d)
        || (m > 0 && (!ffi_all_finite(J, d * m) || !ffi_all_finite(c, m) || !ffi_all_finite(mu, m))))
        return FR_ENONFINITE;
    if (h == FR_PROXAL_H_L1 && !isfinite(gamma))
        return FR_ENONFINITE;
    if (h == FR_PROXAL_H_BOX && (!ffi_all_finite(lo, d) || !ffi_all_finite(hi, d)))
        return FR_ENONFINITE;
    if (h != FR_PROXAL_H_ZERO && h != FR_PROXAL_H_L1 && h != FR_PROXAL_H_BOX)
        return FR_EDOM;
    if (h == FR_PROXAL_H_L1 && gamma < 0)
        return FR_EDOM;
    for (size_t j = 0; j < m; j++)
        if (mu[j] < 0)                                    /* -0 is the multiplier 0 */
            return FR_EDOM;
    if (h == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < d; k++)
            if (lo[k] > hi[k] || w[k] < lo[k] || w[k] > hi[k])
                return FR_EDOM;
    return FR_OK;
}

/* RU(a + b) for finite a, b (+Inf on overflow): the nearest sum, one step
 * up when its rounding error (TwoSum, exact) is positive. */
static double add_ru(double a, double b)
{
    double s = a + b;
    if (!isfinite(s))
        return s;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    return err > 0 ? ffi_next_up(s) : s;
}

/* RU(|a + b|). */
static double abs_ru(double a, double b)
{
    return a + b >= 0 ? add_ru(a, b) : add_ru(-a, -b);
}

/* eps1, eps2 and abs1 into e[0..2]; FR_OK or FR_ENONFINITE (overflow). */
static int kkt_eval(double e[3], const double *g, size_t d, const double *J, size_t m,
                    const double *c, const double *mu, const double *w, int h, double gamma,
                    const double *lo, const double *hi)
{
    const double cm = (double)(m + 1) * 0x1p-53 * (1 + 0x1p-22);     /* exact */
    const double tiny = (double)(m + 1) * 0x1p-1074;                   /* exact */
    double e1 = 0, ab = 0, e2 = 0;
    for (size_t k = 0; k < d; k++) {
        double s = g[k], a = fabs(g[k]);
        const double *Jk = J ? J + k * m : NULL;
        for (size_t j = 0; j < m; j++) {
            double p = Jk[j] * mu[j];
            s += p;
            a += fabs(p);
        }
        double E = m == 0 ? 0 : add_ru(cm * a, tiny);
        double phi;                                        /* RU(phi(s)) */
        if (h == FR_PROXAL_H_L1) {
            phi = w[k] > 0 ? abs_ru(s, gamma) : w[k] < 0 ? abs_ru(s, -gamma)
                                                         : fmax(add_ru(fabs(s), -gamma), 0);
        } else if (h == FR_PROXAL_H_BOX) {
            int atlo = w[k] == lo[k], athi = w[k] == hi[k];
            phi = atlo && athi ? 0 : atlo ? fmax(-s, 0) : athi ? fmax(s, 0) : fabs(s);
        } else {
            phi = fabs(s);
        }
        double ub = add_ru(phi, E);
        double ulp = ffi_next_up(ub) - ub;
        double bk = add_ru(2 * E, 2 * ulp);
        if (!isfinite(s) || !isfinite(a) || !isfinite(ub) || !isfinite(bk))
            return FR_ENONFINITE;
        e1 = fmax(e1, ub);
        ab = fmax(ab, bk);
    }
    for (size_t j = 0; j < m; j++)
        e2 = fmax(e2, mu[j] > 0 ? fabs(c[j]) : fmax(c[j], 0));
    e[0] = e1 + 0.0;                                       /* a zero is +0 */
    e[1] = e2 + 0.0;
    e[2] = ab;
    return FR_OK;
}

int ff_proxal_kkt(double *eps1, double *eps2, const double *grad_f, size_t d, const double *J,
                  size_t m, const double *c, const double *mu, const double *w, int h,
                  double gamma, const double *lo, const double *hi)
{
    int st = eps1 && eps2 ? kkt_args(grad_f, d, J, m, c, mu, w, h, gamma, lo, hi) : FR_ENULL;
    if (st == FR_OK && eps1 == eps2)
        st = FR_EDOM;                                      /* two outputs */
    double e[3];
    if (st == FR_OK)
        st = kkt_eval(e, grad_f, d, J, m, c, mu, w, h, gamma, lo, hi);
    if (st != FR_OK)
        return st;
    *eps1 = e[0];
    *eps2 = e[1];
    return FR_OK;
}

int ff_proxal_kkt_bound(double *abs1, double *abs2, const double *grad_f, size_t d, const double *J,
                        size_t m, const double *c, const double *mu, const double *w, int h,
                        double gamma, const double *lo, const double *hi)
{
    int st = abs1 && abs2 ? kkt_args(grad_f, d, J, m, c, mu, w, h, gamma, lo, hi) : FR_ENULL;
    if (st == FR_OK && abs1 == abs2)
        st = FR_EDOM;
    double e[3];
    if (st == FR_OK)
        st = kkt_eval(e, grad_f, d, J, m, c, mu, w, h, gamma, lo, hi);
    if (st != FR_OK)
        return st;
    *abs1 = e[2];
    *abs2 = 0;
    return FR_OK;
}
