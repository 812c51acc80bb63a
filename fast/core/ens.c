/* SPDX-License-Identifier: Apache-2.0 */
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
 *
 * Without sorting (the computation of ens_block; the bound above is
 * unchanged because every step below computes the quantities of the
 * analysis, or values numerically equal to them).  Columns go in blocks
 * of L = 8, transposed into T (one pass over W that also finds M and any
 * non-finite entry); per column:
 *  - S^ is Neumaier's sum of v_i 2^-e in client order.  Its error bound
 *    holds for any order of the summands.  v_i 2^-e and X 2^e are
 *    products with the exact powers 2^-e, 2^e (|e| <= 1000): one
 *    correctly rounded operation, the same number ldexp returns.
 *    Columns with |e| > 1000 take the sorted path (ens_column, typed sort).
 *  - P(k) is decided by counting: v_(k) being the (k+1)-th smallest,
 *    X(k) <= v_(k) iff #{i : v_i < X(k)} <= k (also for X = +-inf).  The
 *    computed X(k) = fl(fl(fl(S^ + fl(c (m - 2k))) / m) 2^e) is
 *    nonincreasing in k (each operation is monotone, c >= 0), so P is
 *    monotone on the computed values and the bisection over k in [0, m]
 *    (ceil(log2(m + 1)) counts, branch-free across the 8 lanes) returns
 *    the k of the sorted search, with g = #{v_i < X(k)} <= k.
 *  - The result is clamp(X(k), v_(k-1), v_(k)) with v_(-1) = v_(0) and
 *    v_(m) = v_(m-1), as ens_column, by cases: k = 0 and k = m give v_(0)
 *    and v_(m-1) (minimum and maximum in the total order); g = k means
 *    v_(k-1) < X(k) <= v_(k), so X(k); g < k means X(k) <= v_(k-1), so
 *    v_(k-1).  P(k - 1) is false, so v_(g), ..., v_(k-1) are exactly the
 *    values in [X(k), X(k-1)) that come first; v_(k-1) is the largest
 *    value there when the interval holds k - g values, else the
 *    (k-1-g)-th smallest, by selection (ffi_select_u64, O(m) expected).
 * Cost O(m log m) comparisons per column, without branches, instead of a
 * sort with a comparison callback; the order statistics are those of the
 * total order (-0 < +0) as before.
 * Contract: include/fedfast.h. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"
#include "../internal.h"

/* ---- one column, sorted (the lanes the vector path leaves) ---------------- */

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
    int st = ffi_check_mn(m, n);
    if (st != FR_OK || m > mmax)
        return st != FR_OK ? st : FR_ESIZE;
    if (!isfinite(lambda) || !isfinite(eta) || !ffi_all_finite(W, m * n))
        return FR_ENONFINITE;
    return lambda > 0 && eta > 0 ? FR_OK : FR_EDOM;
}

/* ---- blocks of L columns, unsorted ---------------------------------------- */

#define L 8                                /* columns per block (lanes) */

typedef struct {
    size_t m, n;
    double q;                              /* q 2^qe = lambda/eta */
    int qe;
    double *T;                             /* m x L: the block, lane-major rows */
    double *v;                             /* m: a sorted column (other lanes) */
    uint64_t *keys;                        /* m: keys (selection, sorting) */
} ens_ws;

/* X(k) of a lane: (S + c (m - 2k)) / m times 2^e (p = 2^e exactly). */
FFI_INLINE double lane_x(double S, double c, double p, double dm, size_t k)
{
    return (S + c * (dm - 2.0 * (double)k)) / dm * p;
}

/* The result of lane l once its search gave k (0 < k < m, g = #{v < X(k)}
 * <= k - 1): v_(k-1), the (k-1-g)-th smallest of the values in
 * [X(k), X(k-1)) in the total order; SIZE_MAX as a status if the count
 * disagrees (cannot happen: v_(g), ..., v_(k-1) all lie there). */
static int lane_order_stat(double *out, const ens_ws *ws, size_t l, double xk0, double xk1,
                           size_t r)
{
    const size_t m = ws->m;
    size_t c = 0;
    for (size_t i = 0; i < m; i++) {      /* without a branch: keys[c] is */
        double x = ws->T[i * L + l];       /* overwritten unless kept     */
        ws->keys[c] = ffi_key(x);
        c += x >= xk0 && x < xk1;
    }
    if (r >= c)
        return FR_EINTERNAL;
    *out = ffi_unkey(ffi_select_u64(ws->keys, c, r));
    return FR_OK;
}

/* Columns j0 .. j0+nb-1 (nb <= L) into out[0..nb-1].  Returns FR_OK,
 * FR_ENONFINITE (a non-finite entry: out is then meaningless) or
 * FR_EINTERNAL. */
FFI_INLINE int ens_block_body(double *out, const double *W, size_t j0, size_t nb,
                              const ens_ws *ws)
{
    const size_t m = ws->m, n = ws->n;
    const double dm = (double)m;
    double *T = ws->T;
    double M[L], s[L], p[L], c[L], S[L], C[L], X[L];
    int64_t bad[L], lo[L], hi[L], mid[L], g[L], cnt[L];
    int kind[L];                            /* 0 search, 1 zero column, 2 sorted path */

    /* the block, its maxima |v| and non-finite entries (one pass) */
    for (size_t l = 0; l < L; l++) {
        M[l] = 0;
        bad[l] = 0;
    }
    for (size_t i = 0; i < m; i++) {
        const double *row = W + i * n + j0;
        double *t = T + i * L;
        if (nb == L)
            for (size_t l = 0; l < L; l++)
                t[l] = row[l];
        else
            for (size_t l = 0; l < L; l++)
                t[l] = l < nb ? row[l] : 0.0;
        for (size_t l = 0; l < L; l++) {
            double a = fabs(t[l]);
            bad[l] |= !(a <= DBL_MAX);
            M[l] = a > M[l] ? a : M[l];
        }
    }
    for (size_t l = 0; l < L; l++)
        if (bad[l])
            return FR_ENONFINITE;

    /* per lane: the scale 2^-e, 2^e and the capped c (as ens_column) */
    for (size_t l = 0; l < L; l++) {
        int e = 0;
        kind[l] = l >= nb || M[l] == 0 ? 1 : 0;
        if (kind[l] == 0) {
            frexp(M[l], &e);
            if (e < -1000 || e > 1000)
                kind[l] = 2;               /* 2^-e or 2^e not a normal number */
        }
        if (kind[l] == 0) {
            s[l] = ldexp(1.0, -e);
            p[l] = ldexp(1.0, e);
            c[l] = fmin(ldexp(ws->q, ws->qe - e), 2.0 * dm);
        } else {
            s[l] = p[l] = 1;
            c[l] = 0;
        }
    }

    /* Neumaier's sum of v_i 2^-e per lane, in row order */
    for (size_t l = 0; l < L; l++)
        S[l] = C[l] = 0;
    for (size_t i = 0; i < m; i++) {
        const double *t = T + i * L;
        if (j0 + L < n)                    /* the next block's row, meanwhile */
            __builtin_prefetch(W + i * n + j0 + L);
        for (size_t l = 0; l < L; l++) {
            double x = t[l] * s[l], u = S[l] + x;
            C[l] += fabs(S[l]) >= fabs(x) ? (S[l] - u) + x : (x - u) + S[l];
            S[l] = u;
        }
    }
    for (size_t l = 0; l < L; l++)
        S[l] = S[l] + C[l];

    /* bisection for the smallest k with P(k): #{i : v_i < X(k)} <= k */
    int steps = 0;
    while (((size_t)1 << steps) < m + 1)
        steps++;
    for (size_t l = 0; l < L; l++) {
        lo[l] = 0;
        hi[l] = (int64_t)m;
        g[l] = 0;
    }
    for (int st = 0; st < steps; st++) {
        for (size_t l = 0; l < L; l++) {
            mid[l] = (lo[l] + hi[l]) / 2;
            X[l] = lane_x(S[l], c[l], p[l], dm, (size_t)mid[l]);
            cnt[l] = 0;
        }
        for (size_t i = 0; i < m; i++) {
            const double *t = T + i * L;
            for (size_t l = 0; l < L; l++)
                cnt[l] += t[l] < X[l];
        }
        for (size_t l = 0; l < L; l++) {
            if (lo[l] < hi[l]) {
                if (cnt[l] <= mid[l]) {
                    hi[l] = mid[l];
                    g[l] = cnt[l];
                } else {
                    lo[l] = mid[l] + 1;
                }
            }
        }
    }

    /* The minimiser clamp(X(k), v_(k-1), v_(k)) by cases, k = lo.  One
     * more pass over the block gives, per lane, the keys of v_(0) and
     * v_(m-1) (k = 0, m) and the count and largest key of the values in
     * [X(k), X(k-1)) (X(-1) = +inf), which hold v_(g), ..., v_(k-1). */
    double X1[L];
    uint64_t kmin[L], kmax[L], kin[L];
    int64_t cin[L];
    for (size_t l = 0; l < L; l++) {
        X[l] = lane_x(S[l], c[l], p[l], dm, (size_t)lo[l]);
        X1[l] = lo[l] > 0 ? lane_x(S[l], c[l], p[l], dm, (size_t)lo[l] - 1) : INFINITY;
        kmin[l] = UINT64_MAX;
        kmax[l] = kin[l] = 0;              /* below every key of a number */
        cin[l] = 0;
    }
    for (size_t i = 0; i < m; i++) {
        const double *t = T + i * L;
        for (size_t l = 0; l < L; l++) {
            uint64_t key = ffi_key(t[l]);
            int in = t[l] >= X[l] && t[l] < X1[l];
            kmin[l] = key < kmin[l] ? key : kmin[l];
            kmax[l] = key > kmax[l] ? key : kmax[l];
            kin[l] = in && key > kin[l] ? key : kin[l];
            cin[l] += in;
        }
    }
    for (size_t l = 0; l < nb; l++) {
        size_t k = (size_t)lo[l];
        if (kind[l] == 1) {
            out[l] = 0.0;
        } else if (kind[l] == 2) {
            for (size_t i = 0; i < m; i++)
                ws->v[i] = T[i * L + l];
            ffi_sort_total(ws->v, ws->keys, m);
            out[l] = ens_column(ws->v, m, ws->q, ws->qe);
        } else if (k == 0) {               /* the clamp into [v_(0), v_(0)] */
            out[l] = ffi_unkey(kmin[l]);
        } else if (k == m) {               /* into [v_(m-1), v_(m-1)] */
            out[l] = ffi_unkey(kmax[l]);
        } else if ((size_t)g[l] == k) {    /* v_(k-1) < X(k) <= v_(k) */
            out[l] = X[l];
        } else if ((size_t)cin[l] == k - (size_t)g[l]) {
            out[l] = ffi_unkey(kin[l]);    /* v_(k-1) is the largest there */
        } else {                           /* X(k) <= v_(k-1) <= v_(k) */
            int st = lane_order_stat(&out[l], ws, l, X[l], X1[l], k - 1 - (size_t)g[l]);
            if (st != FR_OK)
                return st;
        }
    }
    return FR_OK;
}

FFI_VERSIONS(int, ens_block, (double *out, const double *W, size_t j0, size_t nb,
                              const ens_ws *ws), (out, W, j0, nb, ws))

/* All n columns into res (n doubles): FR_OK, FR_ENONFINITE or FR_ENOMEM. */
static int ens_all(double *res, const double *W, size_t m, size_t n, double lambda, double eta)
{
    int le, ee;
    ens_ws ws = {.m = m, .n = n};
    ws.q = frexp(lambda, &le) / frexp(eta, &ee);         /* in (1/2, 2) */
    ws.qe = le - ee;
    ws.T = malloc((L + 1) * m * sizeof *ws.T);
    ws.keys = malloc(m * sizeof *ws.keys);
    if (!ws.T || !ws.keys) {
        free(ws.T);
        free(ws.keys);
        return FR_ENOMEM;
    }
    ws.v = ws.T + L * m;
    int st = FR_OK;
    for (size_t j0 = 0; j0 < n && st == FR_OK; j0 += L)
        st = ens_block(res + j0, W, j0, n - j0 < L ? n - j0 : L, &ws);
    free(ws.T);
    free(ws.keys);
    return st;
}

int ff_ens(double *w, const double *W, size_t m, size_t n,
           double lambda, double eta)
{
    if (!w || !W)                          /* ens_args without its scan of W, */
        return FR_ENULL;                   /* which the blocks below fuse     */
    int st = ffi_check_mn(m, n);
    if (st != FR_OK)
        return st;
    if (!isfinite(lambda) || !isfinite(eta))
        return FR_ENONFINITE;
    if (!(lambda > 0) || !(eta > 0))
        return ffi_all_finite(W, m * n) ? FR_EDOM : FR_ENONFINITE;
    /* The scan for non-finite entries of W is the first pass of each
     * block; the results go to res and reach w only when every block
     * passed (outputs untouched on error). */
    double *res = malloc(n * sizeof *res);
    if (!res)
        return ffi_all_finite(W, m * n) ? FR_ENOMEM : FR_ENONFINITE;
    st = ens_all(res, W, m, n, lambda, eta);
    if (st == FR_ENOMEM && !ffi_all_finite(W, m * n))
        st = FR_ENONFINITE;
    if (st == FR_OK)
        memcpy(w, res, n * sizeof *w);
    free(res);
    return st;
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
