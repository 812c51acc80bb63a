/* SPDX-License-Identifier: Apache-2.0 */
/* logreg.c -- ff_logreg_fi, ff_logreg_f: the logistic loss of 002 Sec. VII-A
 * and its gradient, binary64 (BLAS dgemv for X_i w and X_i^T r).
 *
 * With u_t = <x_t, w> and v_t = (1 - 2 b_t) u_t (b_t in {0, 1}):
 *   ln(1 + e^u) - b u = sp(v),   sp(v) = max(v, 0) + log1p(exp(-|v|)) >= 0,
 *   sigma(u) - b      = (1 - 2b) sigma(v),
 *   sigma(v) = 1/(1 + exp(-v)) (v >= 0),  exp(v)/(1 + exp(v)) (v < 0),
 * (for b = 1: ln(1+e^u) - u = ln(1+e^-u), sigma(u) - 1 = -sigma(-u)), so
 * no term cancels and nothing overflows for any finite u:
 *   f_i = (1/d) sum_t sp(v_t) + (beta/2) ||w||^2,
 *   g_i = (1/d) X_i^T r + beta w,  r_t = (1 - 2 b_t) sigma(v_t).
 *
 * Error analysis (u = 2^-53, gamma_k = k u/(1 - k u), Higham's lemma
 * prod (1 + d_i)^{+-1} = 1 + theta_k, |theta_k| <= gamma_k for k factors
 * |d_i| <= u; a libm result within 2 ulp counts as 4 factors; assumption
 * (L): exp and log1p are within 2 ulp -- glibc documents <= 1).
 * Let a_t = sum_j |x_tj w_j|, d = d_i, no overflow and no underflow
 * (the absolute terms below cover underflow).
 *  (a) dgemv, any summation order, FMA or not: |u^_t - u_t| <= gamma_n a_t.
 *  (b) sp at a floating v: y^ = exp(-|v|)(1 + theta_4); log1p(y^) =
 *      log1p(y)(1 + theta_5) because |ln((1+y^)/(1+y))| <= gamma_4 y/(1+y)
 *      and y/(1+y) <= log1p(y); log1p's rounding (4), the final addition of
 *      two nonnegative numbers (1): sp^(v) = sp(v)(1 + theta_10).
 *      sp is 1-Lipschitz: |sp(v^) - sp(v)| <= gamma_n a_t.
 *  (c) sum of d nonnegative terms (d - 1), division by d (1): the loss part
 *      L^ = L(1 + theta_{d+10}) + gamma_n (1 + gamma_{d+10}) A,
 *      L = (1/d) sum sp(v_t), A = (1/d) sum_t a_t.
 *  (d) R = (beta/2)||w||^2: ddot (n), 0.5 beta (1, exact unless subnormal),
 *      product (1): theta_{n+2}; the final sum (1).  Altogether
 *        |fi^ - f_i| <= gamma_{d+n+13} (f_i + A_i) + 2^-1068 (1 + n beta).
 *  (e) sigma at a floating v: v >= 0: 1 + y^ = (1 + y)(1 + theta_4)(1 + d),
 *      one division: theta_6; v < 0: numerator 4, denominator 5, division 1:
 *      theta_10.  sigma' <= 1/4: |sigma(v^) - sigma(v)| <= gamma_n a_t / 4.
 *      |r^_t - r_t| <= gamma_10 |r_t| + (1 + gamma_10) gamma_n a_t / 4.
 *  (f) dgemv X^T r^ (gamma_d), division by d (1), beta w_j (1), sum (1):
 *        |gi^_j - gi_j| <= gamma_{d+n+13} E_j
 *                          + 2^-1068 (1 + (1/d) sum_t |x_tj|),
 *        E_j = (1/d) sum_t |x_tj| (|r_t| + a_t) + beta |w_j|.
 * The absolute terms: exp(-|v|) subnormal (|v| > 708) is within 2^-1073,
 * each product or square that underflows within 2^-1075.
 * ff_logreg_f adds the f_i^ (nonnegative) and the gi^ in client order:
 * gamma_{m-1} more, hence gamma_{K+m} (f + sum_i A_i), gamma_{K+m} sum_i E_ij,
 * K = max_i d_i + n + 13, and m times the absolute terms.
 * Overflow: none if every |x_tj|, |w_j| <= 2^400 and n, d_i <= 2^100
 * (then a_t <= 2^900); beyond, results may be +-Inf.
 *
 * Evaluation order (client(); the analysis above covers it as it stands).
 * The rows go in blocks of about 512 KiB: u_b = X_b w (dgemv), then per
 * row one y^ = exp(-|v_t|) serves both sp(v_t) = max(v_t, 0) + log1p(y^)
 * and sigma(v_t) = 1/(1 + y^) (v_t >= 0) or y^/(1 + y^) (v_t < 0), then
 * g += X_b^T r_b (dgemv, beta = 1, from 0), while the block is in the
 * cache: X is read from memory once, where two dgemv over X_i read it
 * twice.  Why the bounds stand unchanged:
 *  - (a) each u^_t is still one dot product of n terms (any order).
 *  - (b), (e): exp(-v) for v >= 0 (v = -0 included: exp(+0) = exp(-0))
 *    and exp(v) for v < 0 are the one number exp(-|v|), so the shared y^
 *    is bitwise the value each formula had from its own call, and each
 *    analysis uses only y^ = exp(-|v|)(1 + theta_4); that the two errors
 *    are now the same error is a correlation the worst-case bounds do not
 *    need.  sp^ and r^ are bitwise those of the former two-exp code.
 *  - (c) the sp terms are added in row order, as before.
 *  - (f) each gi^_j is a sum of the d products x_tj r^_t in an order
 *    (block by block, 0 + ...: the first addition exact): gamma_d for any
 *    order, FMA or not.
 * So ff_logreg_fi_bound and ff_logreg_f_bound (below) are unchanged.
 * Checks: the public functions test the labels, beta, w and the rows of X
 * outside the client first (check_light), then each block of the
 * client's rows for a non-finite entry right after X_b w (from the cache),
 * then FR_EDOM, all before an output is written (the results are built in
 * temporaries).  On a sealed problem (fr_logreg_sealed, fedref_common.h
 * rule 6) the scans of X and b are skipped: a call checks the sizes
 * (O(m)), beta, w (O(n)) and the outputs, then reads X_i once.  The runs call ffi_logreg_fi / ffi_logreg_f (rounds.h),
 * which test only w: the run's fr_*_check tested P once.
 *
 * The bound functions.  ff_logreg_fi_bound evaluates in binary64, over the
 * d = d_i rows of client i, K = d + n + 13, in this order:
 *   a_t  = sum_l RN|x_tl w_l|,          w2 = sum_j w_j w_j,
 *   sf   = (sum_t (2 a_t + RN(ln 2)))/d + beta w2,
 *   sg_j = (sum_t |x_tj| (1 + a_t))/d + beta |w_j|,
 *   sx   = max_j (sum_t |x_tj|)/d,      Ab = 2^-1067 ((1 + n beta) + sx),
 *   fb   = ((K + 1) u sf)(1 + 2^-40) + Ab,   gb_j = ((K + 1) u sg_j)(1 + 2^-40) + Ab.
 * Exactly: f_i + A_i <= (1/d) sum_t (2 a_t + ln 2) + beta/2 ||w||^2 <= sf
 * (sp(v_t) <= |v_t| + ln 2 <= a_t + ln 2), E_ij <= sg_j (|r_t| <= 1), and
 * Ab >= 2 2^-1068 (1 + n beta), 2 2^-1068 (1 + (1/d) sum_t |x_tj|).
 * Own rounding: every operation of the evaluation combines nonnegative
 * numbers, so it loses at most a factor (1 - u) (RN(ln 2) counts as one)
 * or, below 2^-1022, 2^-1075; no term passes through more than n + d + 6
 * < K of them.  Relative part: (K + 1) u (1 - u)^K >= gamma_K iff
 * (K + 1)(1 - K u)^2 >= K, true when 2 K (K + 1) u <= 1, i.e. for
 * K + 1 <= 2^26 (FR_ESIZE beyond); 1 + 2^-40 is spare.  Absolute part:
 * the underflow losses inside sf and sg_j (those of a_t are relative, next
 * to ln 2 or 1; the squares w_j^2 lose up to n 2^-1075, times beta) reach
 * the result multiplied by (K + 1) u: at most (K + 1) u (2n + 6 + n beta)
 * 2^-1075 <= 2^-1075 (1 + n beta); with the final product's 2^-1075 and
 * Ab's own (1 - u)^4 and 2^-1075 they fit in the half of Ab that the
 * proved 2^-1068 terms leave.  So fb >= |fi - f_i|
 * and gb_j >= |gi_j - g_ij| whenever the contract's no-overflow condition
 * holds; the function returns FR_EDOM when some |x_tj| or |w_j| > 2^400.
 * ff_logreg_f_bound sums sf, sg_j and Ab over the clients (m - 1 more
 * roundings each) and uses K = max_i d_i + n + 13 + m: the same argument
 * gives gamma_{K} for the sums (the contract's gamma_{K+m}) and the sum of
 * the m absolute terms, (1 + gamma_{m-1}) included.  The golden vectors'
 * tol is max(fb, max_j gb_j), the same expression at max(sf, max_j sg_j)
 * (RN monotone).
 * Contract: include/fedfast.h. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"
#include "../internal.h"
#include "rounds.h"

/* y = A x, A rows x cols row-major (dgemv when the sizes fit an int). */
static void mat_vec(double *y, const double *A, size_t rows, size_t cols, const double *x)
{
    if (rows <= INT_MAX && cols <= INT_MAX) {
        memset(y, 0, rows * sizeof *y);
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)rows, (int)cols, 1.0, A,
                    (int)cols, x, 1, 0.0, y, 1);
        return;
    }
    for (size_t t = 0; t < rows; t++) {
        double s = 0;
        for (size_t j = 0; j < cols; j++)
            s += A[t * cols + j] * x[j];
        y[t] = s;
    }
}

/* y += A^T r, A rows x cols row-major. */
static void mat_t_vec_acc(double *y, const double *A, size_t rows, size_t cols, const double *r)
{
    if (rows <= INT_MAX && cols <= INT_MAX) {
        cblas_dgemv(CblasRowMajor, CblasTrans, (int)rows, (int)cols, 1.0, A,
                    (int)cols, r, 1, 1.0, y, 1);
        return;
    }
    for (size_t t = 0; t < rows; t++)
        for (size_t j = 0; j < cols; j++)
            y[j] += A[t * cols + j] * r[t];
}

/* Rows per block: about 512 KiB of X (at least 4 rows), so that the
 * finiteness scan and X_b^T r read the block from the L2 cache right after
 * X_b w brought it in: X is read from memory once per call.  (Measured on
 * a 1 MiB L2, 100000 x 784: the dgemv pair over blocks of 20 to 160 rows
 * took 0.55 to 0.6 of the pair over all rows, 80 rows the least; 16 KiB
 * blocks made 32 times as many dgemv calls for no faster reads.) */
static size_t block_rows(size_t n)
{
    size_t r = 65536 / n;
    return r < 4 ? 4 : r;
}

/* f_i and/or g_i of the client with rows off .. off+d-1, written to fi
 * and gi[0..n-1] when non-NULL (gi: not w; it accumulates X^T r), block
 * by block: u_b = X_b w; per row v_t = (1 - 2 b_t) u_t, e = exp(-|v_t|)
 * serving both sp(v_t) = max(v_t, 0) + log1p(e) and sigma(v_t) = 1/(1 + e)
 * (v_t >= 0) or e/(1 + e) (v_t < 0); r_b = +-sigma; gi += X_b^T r_b.
 * Per block, three loops over the rows (v_t and e_t; the sp terms, added
 * in row order; r_t, without a branch on the sign of v_t): the same
 * operations on the same operands as one loop, so the same bits.
 * u: 2 block_rows(n) doubles (u_b, then e_b).  check: test each block of X for a non-finite
 * entry right after X_b w, from the cache (FR_ENONFINITE: fi, gi are then
 * meaningless), else FR_OK. */
static int client(double *fi, double *gi, const fr_logreg *P, size_t off, size_t d,
                  const double *w, double *u, int check)
{
    const size_t n = P->n, R = block_rows(n);
    double *e = u + R;
    const double dd = (double)d;
    double s = 0;
    if (gi)
        memset(gi, 0, n * sizeof *gi);
    for (size_t t0 = 0; t0 < d; t0 += R) {
        const size_t rb = d - t0 < R ? d - t0 : R;
        const double *X = P->X + (off + t0) * n, *b = P->b + off + t0;
        mat_vec(u, X, rb, n, w);                     /* u_t = <x_t, w> */
        if (check && !ffi_all_finite(X, rb * n))      /* from the cache */
            return FR_ENONFINITE;
        for (size_t t = 0; t < rb; t++) {
            const double v = b[t] != 0 ? -u[t] : u[t];   /* (1 - 2 b_t) u_t */
            u[t] = v;
            e[t] = exp(-fabs(v));
        }
        if (fi)
            for (size_t t = 0; t < rb; t++)          /* in row order */
                s += (u[t] > 0 ? u[t] : 0.0) + log1p(e[t]);
        if (gi)
            for (size_t t = 0; t < rb; t++) {        /* without a branch */
                const double sg = (u[t] >= 0 ? 1.0 : e[t]) / (1.0 + e[t]);
                u[t] = b[t] != 0 ? -sg : sg;         /* r_t = sigma(u_t) - b_t */
            }
        if (gi)
            mat_t_vec_acc(gi, X, rb, n, u);          /* X_i^T r */
    }
    if (fi) {
        double w2 = 0;
        for (size_t j = 0; j < n; j++)
            w2 += w[j] * w[j];
        *fi = s / dd + (0.5 * P->beta) * w2;
    }
    if (gi)
        for (size_t j = 0; j < n; j++)
            gi[j] = gi[j] / dd + P->beta * w[j];
    return FR_OK;
}

/* The ingredients of the bound over the d rows from row off (see the top
 * comment): sf, sg[0..n-1] when sg != NULL, sx; a: d doubles of workspace. */
static void client_bound(const fr_logreg *P, size_t off, size_t d, const double *w,
                         double *a, double *sf, double *sg, double *sx)
{
    size_t n = P->n;
    const double *X = P->X + off * n;
    double dd = (double)d, s = 0, w2 = 0, mx = 0;
    for (size_t j = 0; j < n; j++)
        w2 += w[j] * w[j];
    for (size_t t = 0; t < d; t++) {
        double at = 0;
        for (size_t l = 0; l < n; l++)
            at += fabs(X[t * n + l] * w[l]);
        a[t] = at;
        s += 2 * at + 0.6931471805599453;            /* RN(ln 2) */
    }
    *sf = s / dd + P->beta * w2;
    for (size_t j = 0; j < n; j++) {
        double e = 0, x = 0;
        for (size_t t = 0; t < d; t++) {
            e += fabs(X[t * n + j]) * (1 + a[t]);
            x += fabs(X[t * n + j]);
        }
        if (sg)
            sg[j] = e / dd + P->beta * fabs(w[j]);
        mx = fmax(mx, x / dd);
    }
    *sx = mx;
}

/* FR_EDOM unless |x_tj| <= 2^400 over rows [off, off + d) and |w_j| <= 2^400
 * (the contract's no-overflow condition). */
static int bound_range(const fr_logreg *P, size_t off, size_t d, const double *w)
{
    for (size_t k = 0; k < P->n; k++)
        if (fabs(w[k]) > 0x1p400)
            return FR_EDOM;
    for (size_t k = off * P->n; k < (off + d) * P->n; k++)
        if (fabs(P->X[k]) > 0x1p400)
            return FR_EDOM;
    return FR_OK;
}

static size_t offset_of(const fr_logreg *P, size_t i)
{
    size_t off = 0;
    for (size_t k = 0; k < i; k++)
        off += P->d[k];
    return off;
}

/* Class order (fedref_common.h): P's own first failing class
 * (fr_logreg_check) is reported at its place among the other arguments';
 * i < m is checked when has_i. */
static int check_args(const double *f, const double *g, const fr_logreg *P, size_t i,
                      int has_i, const double *w)
{
    const int sp = fr_logreg_check(P);
    if (sp == FR_ENULL || !w || (!f && !g))
        return FR_ENULL;
    if (sp == FR_ESIZE || (has_i && i >= P->m))
        return FR_ESIZE;
    if (sp == FR_ENONFINITE || !ffi_all_finite(w, P->n))
        return FR_ENONFINITE;
    if (sp != FR_OK)
        return sp;                                  /* FR_EDOM */
    if (f && g && ffi_overlap(f, sizeof *f, g, P->n * sizeof *g))
        return FR_EDOM;                             /* two outputs */
    return FR_OK;
}

/* The checks of check_args without the expensive one, the finiteness of
 * X's rows r0 .. r1-1 (the caller's pass tests them block by block), and
 * without FR_EDOM (check_domain): FR_ENULL, FR_ESIZE, then FR_ENONFINITE
 * for beta, w and (unless P is sealed: *sealed) the labels and the other
 * rows of X.  The classes of
 * fr_logreg_check (spec/fedepm/check.c), in its order, at their places
 * among the other arguments'.  On FR_OK, *off and *d give client i's rows
 * (has_i) or all rows. */
static int check_light(const double *f, const double *g, const fr_logreg *P, size_t i,
                       int has_i, const double *w, size_t *off, size_t *d, int *sealed)
{
    if (!P || !P->d || !P->X || !P->b || !w || (!f && !g))
        return FR_ENULL;
    if (P->m == 0 || P->n == 0 || (has_i && i >= P->m))
        return FR_ESIZE;
    for (size_t k = 0; k < P->m; k++)
        if (P->d[k] == 0)
            return FR_ESIZE;
    const size_t D = fr_logreg_samples(P), n = P->n;
    if (D == 0 || n > FR_COUNT_MAX / D)
        return FR_ESIZE;
    *off = has_i ? offset_of(P, i) : 0;
    *d = has_i ? P->d[i] : D;
    *sealed = fr_logreg_sealed(P);
    if (!isfinite(P->beta) || !ffi_all_finite(w, n))
        return FR_ENONFINITE;
    if (!*sealed
        && (!ffi_all_finite(P->b, D) || !ffi_all_finite(P->X, *off * n)
            || !ffi_all_finite(P->X + (*off + *d) * n, (D - *off - *d) * n)))
        return FR_ENONFINITE;
    return FR_OK;
}

/* FR_EDOM (beta <= 0, a label not in {0, 1} unless P is sealed, f inside
 * g), else FR_OK. */
static int check_domain(const double *f, const double *g, const fr_logreg *P, int sealed)
{
    const size_t D = sealed ? 0 : fr_logreg_samples(P);
    if (!(P->beta > 0))
        return FR_EDOM;
    int bad = 0;
    for (size_t t = 0; t < D; t++)             /* without a branch */
        bad |= P->b[t] != 0.0 && P->b[t] != 1.0;
    if (bad)
        return FR_EDOM;
    if (f && g && ffi_overlap(f, sizeof *f, g, P->n * sizeof *g))
        return FR_EDOM;
    return FR_OK;
}

/* How evaluate checks: not at all (the runs' path), the public
 * functions' checks on a sealed problem (FR_EDOM for beta and the outputs
 * only), or on an unsealed one (also X's rows in the pass and the
 * labels). */
enum { CHECK_NONE = 0, CHECK_SEALED = 1, CHECK_FULL = 2 };

/* Rows off .. off+d-1 (client i, or all clients summed): f and g into
 * temporaries, then the outputs.  full (a CHECK_ value): the public
 * functions' checks after check_light (X's rows in the pass, then FR_EDOM,
 * before anything is written; on allocation failure the checks still come
 * first). */
static int evaluate(double *f, double *g, const fr_logreg *P, int has_i, size_t off,
                    size_t d, const double *w, int full)
{
    const int scan = full == CHECK_FULL;
    const size_t n = P->n;
    double *u = malloc(2 * block_rows(n) * sizeof *u);
    double *gt = g ? malloc(2 * n * sizeof *gt) : NULL;   /* g may alias w */
    int st = FR_OK;
    if (!u || (g && !gt)) {
        if (scan && !ffi_all_finite(P->X + off * n, d * n))
            st = FR_ENONFINITE;
        else if (full)
            st = check_domain(f, g, P, !scan);
        free(u);
        free(gt);
        return st != FR_OK ? st : FR_ENOMEM;
    }
    double *gi = gt, *acc = gt ? gt + n : NULL, fs = 0;
    if (has_i) {
        st = client(f ? &fs : NULL, gi, P, off, d, w, u, scan);
        acc = gi;
    } else {                                 /* f = sum_i f_i, g = sum_i g_i */
        size_t o = 0;
        for (size_t k = 0; k < P->m && st == FR_OK; k++) {
            double fk;
            st = client(f ? &fk : NULL, gi, P, o, P->d[k], w, u, scan);
            if (f)
                fs = k == 0 ? fk : fs + fk;
            if (g)
                for (size_t j = 0; j < n; j++)
                    acc[j] = k == 0 ? gi[j] : acc[j] + gi[j];
            o += P->d[k];
        }
    }
    if (st == FR_OK && full)
        st = check_domain(f, g, P, !scan);
    if (st == FR_OK) {
        if (f)
            *f = fs;
        if (g)
            memcpy(g, acc, n * sizeof *g);
    }
    free(u);
    free(gt);
    return st;
}

int ff_logreg_fi(double *fi, double *gi, const fr_logreg *P, size_t i, const double *w)
{
    size_t off, d;
    int sealed, st = check_light(fi, gi, P, i, 1, w, &off, &d, &sealed);
    if (st != FR_OK)
        return st;
    return evaluate(fi, gi, P, 1, off, d, w, sealed ? CHECK_SEALED : CHECK_FULL);
}

int ff_logreg_f(double *f, double *g, const fr_logreg *P, const double *w)
{
    size_t off, d;
    int sealed, st = check_light(f, g, P, 0, 0, w, &off, &d, &sealed);
    if (st != FR_OK)
        return st;
    return evaluate(f, g, P, 0, off, d, w, sealed ? CHECK_SEALED : CHECK_FULL);
}

/* ---- the runs' path (rounds.h): P checked once per run ---------------------- */

int ffi_logreg_fi(double *fi, double *gi, const fr_logreg *P, size_t i, const double *w)
{
    if (!ffi_all_finite(w, P->n))
        return FR_ENONFINITE;
    return evaluate(fi, gi, P, 1, offset_of(P, i), P->d[i], w, CHECK_NONE);
}

int ffi_logreg_f(double *f, double *g, const fr_logreg *P, const double *w)
{
    if (!ffi_all_finite(w, P->n))
        return FR_ENONFINITE;
    return evaluate(f, g, P, 0, 0, fr_logreg_samples(P), w, CHECK_NONE);
}

#define K_MAX ((size_t)1 << 26)            /* K + 1 <= 2^26: the proof's limit */

int ff_logreg_fi_bound(double *fb, double *gb, const fr_logreg *P, size_t i, const double *w)
{
    int st = check_args(fb, gb, P, i, 1, w);   /* ff_logreg_fi's checks */
    if (st != FR_OK)
        return st;
    size_t n = P->n, d = P->d[i], off = offset_of(P, i);
    if (d >= K_MAX || n >= K_MAX || d + n + 14 > K_MAX)
        return FR_ESIZE;
    if ((st = bound_range(P, off, d, w)) != FR_OK)
        return st;
    double *a = malloc((d + n) * sizeof *a), sf, sx;
    if (!a)
        return FR_ENOMEM;
    double *sg = a + d;                      /* gb may alias w: write it last */
    client_bound(P, off, d, w, a, &sf, sg, &sx);
    double k = (double)(d + n + 14) * 0x1p-53;
    double ab = 0x1p-1067 * (1 + (double)n * P->beta + sx);
    if (fb)
        *fb = k * sf * (1 + 0x1p-40) + ab;
    if (gb)
        for (size_t j = 0; j < n; j++)
            gb[j] = k * sg[j] * (1 + 0x1p-40) + ab;
    free(a);
    return FR_OK;
}

int ff_logreg_f_bound(double *fb, double *gb, const fr_logreg *P, const double *w)
{
    int st = check_args(fb, gb, P, 0, 0, w);   /* ff_logreg_f's checks */
    if (st != FR_OK)
        return st;
    size_t n = P->n, m = P->m, dmax = 0, D = 0;
    for (size_t i = 0; i < m; i++) {
        dmax = P->d[i] > dmax ? P->d[i] : dmax;
        D += P->d[i];
    }
    if (dmax >= K_MAX || n >= K_MAX || m >= K_MAX || dmax + n + m + 14 > K_MAX)
        return FR_ESIZE;
    if ((st = bound_range(P, 0, D, w)) != FR_OK)
        return st;
    double *a = malloc((dmax + 2 * n) * sizeof *a);
    if (!a)
        return FR_ENOMEM;
    double *sg = a + dmax, *SG = sg + n, SF = 0, SA = 0;
    size_t off = 0;
    for (size_t i = 0; i < m; i++) {
        double sf, sx;
        client_bound(P, off, P->d[i], w, a, &sf, sg, &sx);
        SF += sf;
        SA += 0x1p-1067 * (1 + (double)n * P->beta + sx);
        for (size_t j = 0; j < n; j++)
            SG[j] = i == 0 ? sg[j] : SG[j] + sg[j];
        off += P->d[i];
    }
    double k = (double)(dmax + n + m + 14) * 0x1p-53;
    if (fb)
        *fb = k * SF * (1 + 0x1p-40) + SA;
    if (gb)
        for (size_t j = 0; j < n; j++)
            gb[j] = k * SG[j] * (1 + 0x1p-40) + SA;
    free(a);
    return FR_OK;
}
