/* SPDX-License-Identifier: Apache-2.0 */
/* model.c -- the model of 003 Sec. V-A in binary64: the mini-batch loss
 * (25) and its gradient (one dgemm), the test rule (26) (one dgemm, with a
 * certificate of the decisions), and the proved error bounds.
 *
 * Notation (as ref/fedpdm/model.c; erratum E-003-25): u_t = x_{y_t}^T a_t,
 *   f    = (1/b) sum_t sp(u_t) + beta sum_{j,l} r(X_jl),
 *   g_kl = -(1/b) sum_{t: y_t = k} s(u_t) a_tl + beta h(X_kl),
 *   sp(u) = ln(1 + e^-u) = max(-u, 0) + log1p(exp(-|u|)),
 *   s(u)  = sigma(-u) = 1/(1 + e^u): exp(-u)/(1 + exp(-u)) (u >= 0),
 *           1/(1 + exp(u)) (u < 0),
 *   r(x) = x^2/(1 + x^2) (|x| <= 1), 1/(1 + w^2) (w = 1/x, |x| > 1),
 *   h(x) = 2x/(1 + x^2)^2 (|x| <= 1), 2 w^3/(1 + w^2)^2 (|x| > 1):
 * nothing overflows for |X_jl|, |A_tl| <= 2^400, n, b <= 2^100.
 * The products: u_t needs only the label column of U = A_B X^T, so it is
 * one ddot of n products per sample (m times fewer operations than the
 * dgemm that forms all of U; the bound (a) below holds for any summation
 * order and with FMA, so it does not depend on the BLAS kernel); the
 * gradient G = C - R^T A_B, C_kl = beta h(X_kl), R (b x m) the one-hot
 * weighted residuals R_{t,y_t} = s(u_t)/b (zero elsewhere), is formed as
 * G = C then one daxpy G_{y_t} -= R_{t,y_t} a_t per sample right after its
 * ddot (ff_pdm_loss; loss_grad): the one-hot dgemm did m times the
 * operations and a second pass over A_B (perf at m = 10, n = 785: 0.88 ms
 * against 0.35 ms at b = 600).  The regulariser's r and h (two divisions
 * per entry of X: at b = 30 more time than the products) in the vector
 * widths of FFI_VERSIONS when every |X_kl| <= 1 (regfg; the same
 * operations and partial sums as reg_block, so the same bits; measured
 * b = 30: 72 -> 38 us, noisy), else reg_block.  ff_pdm_loss_bound,
 * ff_pdm_objective keep the plain loops of loss_parts.
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u), Higham's theta_k;
 * libm exp and log1p within 2 ulp, 4 factors -- assumption (L) of
 * fast/fedepm/logreg.c).  a_t = sum_l |X_{y_t l} A_tl|.
 *  (a) |u^_t - u_t| <= gamma_n a_t (a dot product of n terms, any order).
 *  (b) sp^(v) = sp(v)(1 + theta_10) at a floating v (fast/fedepm/logreg.c
 *      (b)); sp 1-Lipschitz; the sum of b nonnegative terms and /b:
 *      L^ = L (1 + theta_{b+10}) + gamma_n (1 + gamma_{b+10}) Abar,
 *      Abar = (1/b) sum_t a_t.
 *  (c) r^ = r (1 + theta_4) (at most 4 roundings), mn - 1 additions of
 *      nonnegative terms, times beta: theta_{mn+4}; the final sum (1).
 *      Hence |f^ - f| <= gamma_K (L + Abar + beta R), K = b + n + mn + 16.
 *  (d) s^ = s(u^)(1 + theta_10) (fast/fedepm/logreg.c (e)); s' <= 1/4:
 *      |s(u^) - s(u)| <= gamma_n a_t / 4; R^ = s^/b: one more rounding.
 *      C^_kl = C_kl (1 + theta_7) (at most 7 roundings, 2x exact).
 *      dgemm or the per-sample daxpy (any order, FMA or not): |G^ - (C^ -
 *      R^T A)| <= gamma_{b+1} (|C^| + |R^|^T |A|).  Altogether
 *      |g^_kl - g_kl| <= gamma_K (|C^_kl| + sum_{t: y_t = k} |A_tl| (R^_tk
 *      + a_t/(4b))), K = b + n + 13.
 * The bounds are evaluated on the computed quantities: the factor 2 in
 * front covers that L, Abar, R, a_t are known within (1 +- gamma) of the
 * truth and the bound's own rounding (nonnegative terms, sums of
 * nonnegative entries: relative gamma_{b+n+mn+20} <= 1/4 for sizes below
 * 2^48).  Underflow: every product, square, exp that underflows is within
 * 2^-1074 absolutely; the term (K + 4) 2^-1070 (1 + beta) covers them.
 * The predictor: S = A X^T (dgemm), |S^_tk - S_tk| <= gamma_n E_tk,
 * E = |A| |X|^T (a second dgemm), so e_tk = 2 gamma_n E^_tk + n 2^-1070;
 * the decision of sample t is certified if, for every k != k*,
 * fl(S^_tk* - S^_tk) > (e_tk* + e_tk)(1 + 2^-50): then the true S_tk* >
 * S_tk for all k and argmax is k* under any tie rule.
 * Contract: fedfast/fedpdm.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedfast.h"
#include "../internal.h"
#include "model.h"

#define U53 0x1p-53
static double gam(double k) { return k * U53 / (1 - k * U53); }

static int mul_ovf(size_t a, size_t b) { return a != 0 && b > FR_COUNT_MAX / a; }

/* check_A = 0: A's finiteness is left to the caller (ff_pdm_loss checks
 * each row in its pass, while the row is in cache). */
static int check_args(const double *X, size_t m, size_t n, const double *A, const size_t *y, size_t b,
                      int need_y, int check_A)
{
    if (X == NULL || A == NULL || (need_y && y == NULL))
        return FR_ENULL;
    if (m == 0 || n == 0 || b == 0 || mul_ovf(m, n) || mul_ovf(b, n) || b > (size_t)INT32_MAX
        || n > (size_t)INT32_MAX || m > (size_t)INT32_MAX)
        return FR_ESIZE;
    if (y != NULL)
        for (size_t t = 0; t < b; t++)
            if (y[t] >= m)
                return FR_ESIZE;
    if (!ffi_all_finite(X, m * n) || (check_A && !ffi_all_finite(A, b * n)))
        return FR_ENONFINITE;
    return FR_OK;
}

static int check_loss(const void *o1, const void *o2, const double *X, size_t m, size_t n, const double *A,
                      const size_t *y, size_t b, double beta, int check_A)
{
    if (o1 == NULL && o2 == NULL)
        return FR_ENULL;
    int st = check_args(X, m, n, A, y, b, 1, check_A);
    if (st != FR_OK)
        return st;
    if (!isfinite(beta))
        return FR_ENONFINITE;
    if (beta < 0)
        return FR_EDOM;
    if (o1 != NULL && o2 != NULL && ffi_overlap(o1, sizeof(double), o2, m * n * sizeof(double)))
        return FR_EDOM;
    return FR_OK;
}

/* The shared work: u^_t, a^_t, the loss parts, R^ and C^; G^ if G. */
typedef struct {
    double L, Abar, R, f;
} parts_t;

static void loss_parts(parts_t *p, double *u, double *a, const double *X, size_t m, size_t n, const double *A,
                       const size_t *y, size_t b, double beta)
{
    double L = 0, Ab = 0, R = 0;
    for (size_t t = 0; t < b; t++) {
        const double *x = X + y[t] * n, *at = A + t * n;
        double s = 0, sa = 0;
        for (size_t l = 0; l < n; l++) {
            s += x[l] * at[l];
            sa += fabs(x[l] * at[l]);
        }
        u[t] = s;
        a[t] = sa;
        L += sp_of(s);
        Ab += sa;
    }
    for (size_t k = 0; k < m * n; k++)
        R += r_of(X[k]);
    p->L = L / (double)b;
    p->Abar = Ab / (double)b;
    p->R = R;
    p->f = p->L + beta * R;
}

/* r_of and h_of on a block of at most REG_BLK entries: the |x| <= 1
 * branch on every entry in a loop without branches (the compiler may
 * vectorise it; elementwise, the same operations, hence the same bits as
 * r_of, h_of), then the entries with |x| > 1 (or NaN-free large) redone
 * by r_of, h_of.  rr or hh may be NULL. */
#define REG_BLK 256
static void reg_block(double *rr, double *hh, const double *x, size_t len)
{
    double xb[REG_BLK];                 /* padded with 0: a fixed trip count */
    memcpy(xb, x, len * sizeof *xb);
    memset(xb + len, 0, (REG_BLK - len) * sizeof *xb);
    if (rr != NULL)
        for (size_t j = 0; j < REG_BLK; j++) {
            double q = xb[j] * xb[j];
            rr[j] = q / (1 + q);
        }
    if (hh != NULL)
        for (size_t j = 0; j < REG_BLK; j++) {
            double q = 1 + xb[j] * xb[j];
            hh[j] = 2 * xb[j] / (q * q);
        }
    for (size_t j = 0; j < len; j++)
        if (!(fabs(x[j]) <= 1)) {
            if (rr != NULL)
                rr[j] = r_of(x[j]);
            if (hh != NULL)
                hh[j] = h_of(x[j]);
        }
}

/* The regulariser's pass when every |X_k| <= 1 (the iterates are small):
 * r_of's and h_of's first branches, the operations of reg_block (so the
 * same bits), in the vector widths of FFI_VERSIONS; R by the 8 partial
 * sums of loss_grad (entry k into Rs[k mod 8], increasing k: reg_block's
 * order, its zero padding adds +0 to nonnegative sums); G = beta h if G.
 * Returns max |X_k| (> 1: the caller redoes the pass with reg_block). */
FFI_INLINE double regfg_body(double *restrict Rs, double *restrict G, const double *restrict X, size_t D,
                             double beta)
{
    double a[8] = {0}, mx[8] = {0};
    size_t k = 0;
    for (; k + 8 <= D; k += 8)
        for (size_t l = 0; l < 8; l++) {
            const double x = X[k + l], q = x * x, ax = fabs(x), q1 = 1 + x * x;
            a[l] += q / (1 + q);
            G[k + l] = beta * (2 * x / (q1 * q1));
            mx[l] = ax > mx[l] ? ax : mx[l];
        }
    for (size_t l = 0; k < D; k++, l++) {
        const double x = X[k], q = x * x, ax = fabs(x), q1 = 1 + x * x;
        a[l] += q / (1 + q);
        G[k] = beta * (2 * x / (q1 * q1));
        mx[l] = ax > mx[l] ? ax : mx[l];
    }
    for (size_t l = 0; l < 8; l++)
        Rs[l] = a[l];
    for (size_t l = 1; l < 8; l++)
        mx[0] = mx[l] > mx[0] ? mx[l] : mx[0];
    return mx[0];
}
FFI_VERSIONS(double, regfg,
             (double *restrict Rs, double *restrict G, const double *restrict X, size_t D, double beta),
             (Rs, G, X, D, beta))

FFI_INLINE double regf_body(double *restrict Rs, const double *restrict X, size_t D)
{
    double a[8] = {0}, mx[8] = {0};
    size_t k = 0;
    for (; k + 8 <= D; k += 8)
        for (size_t l = 0; l < 8; l++) {
            const double x = X[k + l], q = x * x, ax = fabs(x);
            a[l] += q / (1 + q);
            mx[l] = ax > mx[l] ? ax : mx[l];
        }
    for (size_t l = 0; k < D; k++, l++) {
        const double x = X[k], q = x * x, ax = fabs(x);
        a[l] += q / (1 + q);
        mx[l] = ax > mx[l] ? ax : mx[l];
    }
    for (size_t l = 0; l < 8; l++)
        Rs[l] = a[l];
    for (size_t l = 1; l < 8; l++)
        mx[0] = mx[l] > mx[0] ? mx[l] : mx[0];
    return mx[0];
}
FFI_VERSIONS(double, regf, (double *restrict Rs, const double *restrict X, size_t D), (Rs, X, D))

/* ff_pdm_loss's pass: f (if fp) and G = C - R^T A_B (if G), R one-hot, as
 * one daxpy G_{y_t} -= (s(u_t)/b) a_t per sample right after its ddot u_t
 * (the row is in cache; so is A's finiteness check, FR_ENONFINITE before
 * any output).  Per entry G_kl = C_kl then the samples of class
 * k in increasing t: a sum of b_k + 1 terms, inside bound (d) (any order,
 * FMA or not).  R by 8 partial sums, L in sample order: (b), (c) hold for
 * any order of these sums of nonnegative terms. */
static int loss_grad(double *fp, double *G, const double *X, size_t m, size_t n, const double *A,
                     const size_t *y, size_t b, double beta)
{
    double L = 0, rr[REG_BLK], hh[REG_BLK], Rs[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const double xmax = G != NULL ? regfg(Rs, G, X, m * n, beta) : regf(Rs, X, m * n);
    if (fp == NULL)
        for (size_t i = 0; i < 8; i++)
            Rs[i] = 0;                          /* unused */
    for (size_t k0 = 0; xmax > 1 && k0 < m * n; k0 += REG_BLK) {   /* the general pass */
        if (k0 == 0)
            for (size_t i = 0; i < 8; i++)
                Rs[i] = 0;
        const size_t len = m * n - k0 < REG_BLK ? m * n - k0 : REG_BLK;
        reg_block(fp != NULL ? rr : NULL, G != NULL ? hh : NULL, X + k0, len);
        /* R: 8 partial sums of nonnegative terms ((c): any order); rr is 0
         * beyond len (r(0) = 0 on the padding) */
        for (size_t j = 0; fp != NULL && j < REG_BLK; j += 8)
            for (size_t i = 0; i < 8; i++)
                Rs[i] += rr[j + i];
        for (size_t j = 0; G != NULL && j < len; j++)
            G[k0 + j] = beta * hh[j];
    }
    for (size_t t = 0; t < b; t++) {
        const double *x = X + y[t] * n, *at = A + t * n;
        if (!ffi_all_finite(at, n))
            return FR_ENONFINITE;               /* A's check, row by row (no output yet) */
        double u = cblas_ddot((int)n, x, 1, at, 1);
        if (fp != NULL)
            L += sp_of(u);
        if (G != NULL) {
            double c = s_of(u) / (double)b;
            cblas_daxpy((int)n, -c, at, 1, G + y[t] * n, 1);
        }
    }
    double R = ((Rs[0] + Rs[4]) + (Rs[1] + Rs[5])) + ((Rs[2] + Rs[6]) + (Rs[3] + Rs[7]));
    if (fp != NULL)
        *fp = L / (double)b + beta * R;
    return FR_OK;
}

int ff_pdm_loss(double *f, double *g, const double *X, size_t m, size_t n, const double *A, const size_t *y,
                size_t b, double beta)
{
    int st = check_loss(f, g, X, m, n, A, y, b, beta, 0);
    if (st == FR_EDOM && !ffi_all_finite(A, b * n))
        st = FR_ENONFINITE;                     /* A's class comes before FR_EDOM */
    if (st != FR_OK)
        return st;
    double *G = g != NULL ? malloc(m * n * sizeof *G) : NULL;
    if (g != NULL && G == NULL)                 /* an argument error still comes first */
        return ffi_all_finite(A, b * n) ? FR_ENOMEM : FR_ENONFINITE;
    double fv = 0;
    st = loss_grad(&fv, G, X, m, n, A, y, b, beta);
    if (st == FR_OK && !isfinite(fv))
        st = FR_ENONFINITE;
    if (st == FR_OK && g != NULL && !ffi_all_finite(G, m * n))
        st = FR_ENONFINITE;
    if (st == FR_OK) {
        if (f != NULL)
            *f = fv;
        if (g != NULL)
            memcpy(g, G, m * n * sizeof *G);
    }
    free(G);
    return st;
}

int ff_pdm_loss_bound(double *ef, double *eg, const double *X, size_t m, size_t n, const double *A,
                      const size_t *y, size_t b, double beta)
{
    int st = check_loss(ef, eg, X, m, n, A, y, b, beta, 1);
    if (st != FR_OK)
        return st;
    double *u = malloc(2 * b * sizeof *u);
    double *W = eg != NULL ? calloc(b * m, sizeof *W) : NULL;
    double *Aa = eg != NULL ? malloc(b * n * sizeof *Aa) : NULL;
    double *E = eg != NULL ? malloc(m * n * sizeof *E) : NULL;
    if (u == NULL || (eg != NULL && (W == NULL || Aa == NULL || E == NULL))) {
        free(u);
        free(W);
        free(Aa);
        free(E);
        return FR_ENOMEM;
    }
    parts_t p;
    double *a = u + b;
    loss_parts(&p, u, a, X, m, n, A, y, b, beta);
    double Kf = (double)b + (double)n + (double)m * (double)n + 16;
    double absf = (Kf + 4) * 0x1p-1070 * (1 + beta);
    double vf = 2 * gam(Kf) * (p.L + p.Abar + beta * p.R) + absf;
    if (eg != NULL) {
        double Kg = (double)b + (double)n + 13;
        for (size_t t = 0; t < b; t++)
            W[t * m + y[t]] = s_of(u[t]) / (double)b + a[t] / (4 * (double)b);
        for (size_t k = 0; k < b * n; k++)
            Aa[k] = fabs(A[k]);
        for (size_t k = 0; k < m * n; k++)
            E[k] = fabs(beta * h_of(X[k]));
        /* E += W^T |A| as a plain loop in sample order (W is one-hot: b n
         * products): the bound, hence the vectors' tolerances, does not
         * depend on the BLAS kernel. */
        for (size_t t = 0; t < b; t++)
            for (size_t l = 0; l < n; l++)
                E[y[t] * n + l] += W[t * m + y[t]] * Aa[t * n + l];
        double absg = (Kg + 4) * 0x1p-1070 * (1 + beta + p.Abar);
        for (size_t k = 0; k < m * n; k++)
            E[k] = 2 * gam(Kg) * E[k] + absg;
    }
    int bad = !isfinite(vf);
    for (size_t k = 0; eg != NULL && k < m * n; k++)
        bad |= !isfinite(E[k]);
    if (bad) {
        st = FR_ENONFINITE;
    } else {
        if (ef != NULL)
            *ef = vf;
        if (eg != NULL)
            memcpy(eg, E, m * n * sizeof *E);
    }
    free(u);
    free(W);
    free(Aa);
    free(E);
    return st;
}

int ff_pdm_predict(size_t *pred, size_t *correct, size_t *uncertain, const double *X, size_t m, size_t n,
                   const double *A, const size_t *y, size_t b)
{
    if (pred == NULL && correct == NULL && uncertain == NULL)
        return FR_ENULL;
    int st = check_args(X, m, n, A, y, b, correct != NULL, 1);
    if (st != FR_OK)
        return st;
    double *S = malloc(b * m * sizeof *S), *E = malloc(b * m * sizeof *E);
    double *Aa = malloc(b * n * sizeof *Aa), *Xa = malloc(m * n * sizeof *Xa);
    size_t *tp = malloc(b * sizeof *tp);
    if (S == NULL || E == NULL || Aa == NULL || Xa == NULL || tp == NULL) {
        st = FR_ENOMEM;
        goto done;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)b, (int)m, (int)n, 1.0, A, (int)n, X, (int)n, 0.0,
                S, (int)m);
    for (size_t k = 0; k < b * n; k++)
        Aa[k] = fabs(A[k]);
    for (size_t k = 0; k < m * n; k++)
        Xa[k] = fabs(X[k]);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)b, (int)m, (int)n, 1.0, Aa, (int)n, Xa, (int)n,
                0.0, E, (int)m);
    for (size_t k = 0; k < b * m; k++)
        if (!isfinite(S[k]) || !isfinite(E[k])) {
            st = FR_ENONFINITE;
            goto done;
        }
    size_t ok = 0, unc = 0;
    double gn = 2 * gam((double)n), tiny = (double)n * 0x1p-1070;
    for (size_t t = 0; t < b; t++) {
        const double *s = S + t * m, *e = E + t * m;
        size_t arg = 0;
        for (size_t k = 1; k < m; k++)
            if (s[k] > s[arg])                 /* ties: the smallest k */
                arg = k;
        int sure = 1;
        for (size_t k = 0; k < m && sure; k++)
            if (k != arg && !(s[arg] - s[k] > (gn * (e[arg] + e[k]) + 2 * tiny) * (1 + 0x1p-50)))
                sure = 0;
        tp[t] = arg;
        unc += !sure;
        if (y != NULL && arg == y[t])
            ok++;
    }
    if (pred != NULL)
        memcpy(pred, tp, b * sizeof *tp);
    if (correct != NULL)
        *correct = ok;
    if (uncertain != NULL)
        *uncertain = unc;
done:
    free(S);
    free(E);
    free(Aa);
    free(Xa);
    free(tp);
    return st;
}

/* ---- the objective (24) ------------------------------------------------------
 * F^ = fl(fl(fl(sum_i L^_i) / N + beta R^) + gamma S^), L^_i the loss part
 * of client i on its full data set (loss_parts with b = d_i), R^ = sum
 * r(X_jl), S^ = sum |X_jl|.  Error (as (b)-(c) above): L^_i = L_i (1 +
 * theta_{d_i+10}) + gamma_n (1 + gamma_{d_i+10}) Abar_i; the sum of N
 * nonnegative terms and /N: theta_{N}; beta R^: theta_{mn+4}; gamma S^:
 * theta_{mn}; two additions:
 *   |F^ - F| <= gamma_K (Lbar + Abar + beta R + gamma S),
 *   K = max_i d_i + N + n + mn + 20, Lbar = (1/N) sum L_i, Abar = (1/N)
 *   sum_i Abar_i; evaluated on the computed values with the factor 2 and
 *   the absolute term of ff_pdm_loss_bound. */
typedef struct {
    double F, Lbar, Abar, R, S;
    size_t dmax;
} obj_t;

static int objective(obj_t *o, const double *X, const fr_pdm_problem *P)
{
    size_t m = P->m, n = P->n, dmax = 0;
    for (size_t i = 0; i < P->N; i++)
        dmax = P->d[i] > dmax ? P->d[i] : dmax;
    double *u = malloc(2 * dmax * sizeof *u);
    if (u == NULL)
        return FR_ENOMEM;
    double L = 0, Ab = 0;
    parts_t p;
    const double *A = P->A;
    const size_t *y = P->y;
    for (size_t i = 0; i < P->N; i++) {
        loss_parts(&p, u, u + dmax, X, m, n, A, y, P->d[i], 0);
        L += p.L;
        Ab += p.Abar;
        A += P->d[i] * n;
        y += P->d[i];
    }
    double S = 0;
    for (size_t k = 0; k < m * n; k++)
        S += fabs(X[k]);
    o->Lbar = L / (double)P->N;
    o->Abar = Ab / (double)P->N;
    o->R = p.R;
    o->S = S;
    o->dmax = dmax;
    o->F = (o->Lbar + P->beta * p.R) + P->gamma * S;
    free(u);
    return FR_OK;
}

static int check_obj(const void *out, const double *X, const fr_pdm_problem *P)
{
    if (out == NULL || X == NULL || P == NULL)
        return FR_ENULL;
    int st = fr_pdm_problem_check(P);
    if ((st == FR_OK || st == FR_EDOM) && !ffi_all_finite(X, P->m * P->n))
        return FR_ENONFINITE;                   /* X's class comes before P's FR_EDOM */
    if (st != FR_OK)
        return st;
    if (P->N > (size_t)INT32_MAX || P->n > (size_t)INT32_MAX)
        return FR_ESIZE;
    return FR_OK;                               /* X was scanned above (st == FR_OK) */
}

int ff_pdm_objective(double *F, const double *X, const fr_pdm_problem *P)
{
    int st = check_obj(F, X, P);
    if (st != FR_OK)
        return st;
    obj_t o;
    st = objective(&o, X, P);
    if (st == FR_OK && !isfinite(o.F))
        st = FR_ENONFINITE;
    if (st == FR_OK)
        *F = o.F;
    return st;
}

int ff_pdm_objective_bound(double *eF, const double *X, const fr_pdm_problem *P)
{
    int st = check_obj(eF, X, P);
    if (st != FR_OK)
        return st;
    obj_t o;
    st = objective(&o, X, P);
    if (st != FR_OK)
        return st;
    double K = (double)o.dmax + (double)P->N + (double)P->n + (double)P->m * (double)P->n + 20;
    double e = 2 * gam(K) * (o.Lbar + o.Abar + P->beta * o.R + P->gamma * o.S)
             + (K + 4) * 0x1p-1070 * (1 + P->beta + P->gamma);
    if (!isfinite(e))
        return FR_ENONFINITE;
    *eF = e;
    return FR_OK;
}
