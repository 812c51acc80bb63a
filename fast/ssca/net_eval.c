/* SPDX-License-Identifier: Apache-2.0 */
/* net_eval.c -- the two-layer network of 000 Sec. V, (28)-(30), in
 * binary64 with BLAS level 3, and its proved error bound.  Contracts:
 * include/fedfast/ssca.h ("two-layer network"); engine: net_eval.h.
 *
 * Evaluation (one sample n, classes l, label y; U given, nb x J):
 *   S, S' per entry of U, through e = exp(-|u|) only (e := 0 for |u| >
 *   745.2, where e^-|u| < 2^-1075), D = 1 + e:
 *     u >= 0: sig = 1/D, sigm = e/D;   u < 0: sig = e/D, sigm = 1/D;
 *     S = u sig,  S' = sig (1 + u sigm)      (sigma(u), sigma(-u); no overflow,
 *                                             S'(u) -> 0, not NaN, as u -> -inf)
 *   O = S W0^T (dgemm), m = max_l o_l (first argmax lm), d_l = o_l - m,
 *   E_l = exp(d_l) (E_lm = 1 exactly), s' = sum_{l != lm} E_l, den = 1 + s',
 *   Q_l = E_l / den,  r_l = Q_l - [l = y],  loss = log1p(s') - d_y,
 *   f = sum_n loss_n,  A = R^T S (dgemm),  C = R W0 (dgemm),
 *   Delta = C .* S',  B = Delta^T Z (dgemm).
 * ffi_ssca_net_eval_ws is this evaluation on a caller's workspace, with
 * optional row weights (R and the losses scaled row by row before the
 * products) and accumulation into the outputs (BLAS beta = 1), for the
 * runs' stacked and chunked batches (fast/ssca/run.c); ffi_ssca_net_eval
 * calls it with no weights and no accumulation, so ff_ssca_net and the
 * feature-based messages perform the same operations as before and the
 * analysis below is unchanged (it is not claimed for weighted rows).
 * Every exponent is <= 0 (log-sum-exp with the max shift), no 0 log 0,
 * no per-sample loop in the products.  Zeros of the results are +0.
 *
 * Error analysis.  u = 2^-53, gamma_k = k u/(1 - k u); theta_k denotes a
 * relative error |theta_k| <= gamma_k (Higham's lemma); (L) exp and log1p
 * are within 2 ulp (glibc documents <= 1): exp(x) = e^x (1 + theta_4) +
 * eta, |eta| <= 2^-1073 (subnormal results).  A dot product of k terms
 * computed in any order, with or without FMA (dgemm), errs by at most
 * gamma_k sum |x_i y_i| + k 2^-1075 (1 + gamma_k) <= gamma_k sum |x_i y_i|
 * + k 2^-1074 (products that underflow lose <= 2^-1075 each).  Let U be the
 * computed pre-activations with |U - u| <= eu entrywise (the callers prove
 * eu: net.c, net_feature.c), x = U_{n,j}, and (from the bound's own
 * evaluation of U, within eu of u as well) Ub.  Facts about S (checked on a
 * grid of step 1e-4 over [-40, 40] and by the asymptotics beyond):
 * S >= -0.27847, |S'| <= 1.09984, |S''| <= 1/2, and sigma(x)(1 + |x|) <=
 * 0.568 for x < 0.
 *  (a) S at x.  x >= 0, x <= 745.2: 1 + e = (1 + e^-x)(1 + theta_5) (the
 *      2^-1073 is relative to 1 + e >= 1), sig: theta_7, S = x sig:
 *      theta_8.  x < 0: sig = e/D: sigma(x)(1 + theta_10) + 2^-1072, S:
 *      theta_11, absolute |x| 2^-1072 + 2^-1075 <= 2^-1062 (|x| <= 745.2).
 *      |x| > 745.2 (e := 0): S = x or -0, off by |x| e^-|x| < 2^-1065.
 *      So |S^ - S(x)| <= gamma_13 |S(x)| + 2^-1062, and with |S(x) - S(u)|
 *      <= 1.1 eu and |S(x)|, |S(u)| <= sb = max(Ub, 0) + 2 eu + 0.2785
 *      (|S(t)| <= max(t, 0) + 0.2785; x, u <= Ub + 2 eu):
 *        |S^ - S(u)| <= eS = gamma_13 sb + 1.1 eu + 2^-1060.
 *  (b) S' at x.  x >= 0: every term is >= 0; sigm: theta_12 + 2^-1072,
 *      x sigm: theta_13 + 2^-1062, 1 + x sigm >= 1: theta_14, times sig:
 *      S'(x)(1 + theta_22) + 2^-1061, and S' <= 1.1.  x < 0: sigm = 1/D:
 *      theta_7, q = x sigm: theta_8, t = 1 + q of either sign: |t^ - t| <=
 *      gamma_9 (1 + |q|), times sig (theta_10 + 2^-1072) and one rounding:
 *      error <= gamma_23 sigma(x)(1 + |q|) + 2^-1061 <= 0.57 gamma_23 +
 *      2^-1061 (|q| <= |x|).  |x| > 745.2: error <= e^-|x| (2 + |x|) <
 *      2^-1064.  With |S'(x) - S'(u)| <= 0.5 eu:
 *        |S'^ - S'(u)| <= eSp = 1.1 gamma_23 + 0.5 eu + 2^-1060,  |S'| <= 1.1.
 *  (c) O (dgemm, J terms): |o^_l - o_l| <= eo_l = gamma_J sum_j (sb + eS)
 *      |w0_lj| + sum_j eS |w0_lj| + J 2^-1074; EO = max_l eo_l.  The same
 *      holds for the bound's own Ob = S(Ub) W0^T.
 *  (d) The shift: d^_l = fl(o^_l - m) = (o^_l - m)(1 + delta), so o'_l = m
 *      + d^_l is within EO' = EO + u span of o_l, span = max o^ - min o^
 *      <= spb + 4 EO (spb: the spread of Ob).  The code computes exactly
 *      the softmax and the loss at o' up to the roundings below.
 *  (e) Q: E_l = e^{d^_l}(1 + theta_4) + 2^-1073, den = (sum_l e^{d^_l})(1 +
 *      theta_{L+3}) (L - 1 additions of terms >= 0, den >= 1), Q^_l =
 *      Q_l(o')(1 + theta_{L+8}) + (L + 1) 2^-1073; softmax is 1/2-Lipschitz
 *      in the max norm (the l1 norm of grad Q_l is 2 Q_l (1 - Q_l)), so
 *        |Q^_l - Q_l(o)| <= eQ = gamma_{L+8} + EO'/2 + (L + 1) 2^-1072.
 *      r^ = Q^ - [l = y]: Q^ in [0, 1], Q^ - 1 is exact for Q^ >= 1/2
 *      (Sterbenz), else off by <= u:  |r^ - r| <= er = eQ + u, |r^| <= 1.
 *      With Rb the bound's own R: |r|, |r^| <= rb = min(1, |Rb| + 2 er).
 *  (f) loss: log1p(s'^) = log1p(s')(1 + theta_{L+6}) + L 2^-1073 (log1p is
 *      increasing with log1p(a(1 + t)) - log1p(a) <= |t| log1p(a)), plus -d^_y
 *      >= 0 (one addition): loss^ = loss(o')(1 + theta_{L+7}) + L 2^-1073;
 *      loss is 2-Lipschitz in o (LSE and o_y 1-Lipschitz); loss(o') <= lb =
 *      ln L + (max Ob - Ob_y) + 2 EO + 2 EO'.  f: nb - 1 additions of terms
 *      >= 0:  |f^ - f| <= gamma_{nb+L+8} sum_n lb_n + (1 + gamma_nb) sum_n
 *      (2 EO'_n + L 2^-1072).
 *  (g) A (dgemm, nb terms): |A^_lj - A_lj| <= sum_n [gamma_nb rb (sb + eS) +
 *      er (sb + eS) + rb eS] + nb 2^-1074.
 *  (h) C (dgemm, L terms): |c^ - c| <= ec = gamma_L cb + er sum_l |w0_lj| +
 *      L 2^-1074, |c| <= cb = sum_l rb |w0_lj|.  Delta = c^ S'^ (one
 *      rounding): |Delta^ - delta| <= ed = u (cb + ec)(1.1 + eSp) + ec (1.1 +
 *      eSp) + cb eSp + 2^-1075, |Delta^| <= db = 1.1 cb + ed.
 *  (i) B (dgemm, nb terms): |B^_jp - B_jp| <= sum_n (gamma_nb db + ed)
 *      |z_np| + nb 2^-1074.
 * No step overflows when every magnitude named above is < 2^1000 (the
 * computed values are within these bounds of exact values bounded by
 * them; exp only sees arguments <= 0): ffi_ssca_net_bound returns FR_EDOM
 * unless |Ub| + 2 eu, sb + eS, sum_j (sb + eS)|w0_lj|, EO', lb and db are
 * < 2^1000 and every bound is < 2^940 (a bound is >= 2^-53 times the
 * magnitude of the result it covers, so f, A, B < 2^993).
 *
 * The bound's own evaluation (ffi_ssca_net_bound).  The formulas (a)-(i)
 * are evaluated in long double, which must have a 64-bit significand or
 * more and an exponent range down to 2^-16381 (x87 extended or IEEE quad;
 * checked at run time, FR_EDOM otherwise): every value it meets lies in
 * [2^-2200, 2^2100] or is 0, so no operation underflows or overflows, and
 * each is a +, x, max or min(1, .) of numbers >= 0 (the spreads max Ob -
 * Ob_y, max Ob - min Ob are differences of binary64 numbers, a >= b, also
 * rounded to nearest), so it loses at most a factor (1 - 2^-64).  No value
 * passes through more than nb + L + J + P + 64 <= 2^24 operations (sizes
 * <= 2^22, else FR_ESIZE), so the computed value is >= exact (1 - 2^-40);
 * times (1 + 2^-39) it is >= the exact formula, and it is rounded up to
 * binary64.  gamma_k is replaced by (k + 1) u >= gamma_k (k <= 2^26) and
 * ln L by logl(L)(1 + 2^-60) (assumption (L) for logl).  The constants
 * 0.2785 >= 0.27847, 1.1 >= 1.09984 are exact binary64 numbers >= the
 * decimals. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"
#include "../internal.h"
#include "net_eval.h"

void ffi_ssca_gemm_beta(int ta, int tb, size_t m, size_t n, size_t k, const double *A,
                        size_t lda, const double *B, size_t ldb, double beta, double *C,
                        size_t ldc)
{
    if (m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && lda <= INT_MAX && ldb <= INT_MAX
        && ldc <= INT_MAX) {
        cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                    (int)m, (int)n, (int)k, 1.0, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
        return;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0;
            for (size_t q = 0; q < k; q++)
                s += (ta ? A[q * lda + i] : A[i * lda + q]) * (tb ? B[j * ldb + q] : B[q * ldb + j]);
            C[i * ldc + j] = beta == 0 ? s : beta * C[i * ldc + j] + s;
        }
}

void ffi_ssca_gemm(int ta, int tb, size_t m, size_t n, size_t k, const double *A, size_t lda,
                   const double *B, size_t ldb, double *C, size_t ldc)
{
    ffi_ssca_gemm_beta(ta, tb, m, n, k, A, lda, B, ldb, 0.0, C, ldc);
}

/* S(x) and S'(x), (a)-(b) above. */
static inline void swish(double x, double *s, double *sp)
{
    const double a = fabs(x), e = a > 745.2 ? 0.0 : exp(-a), D = 1.0 + e;
    double sig, sigm;
    if (x >= 0) {
        sig = 1.0 / D;
        sigm = e / D;
    } else {
        sig = e / D;
        sigm = 1.0 / D;
    }
    *s = x * sig;
    *sp = sig * (1.0 + x * sigm);
}

/* swish() on nJ entries with the same operations, split so that the
 * compiler vectorises all but exp: first e_k = exp(-|u_k|) (0 beyond
 * 745.2) into Sp, then D = 1 + e, the two quotients, S and S' in blocks
 * of 8 (FFI_VERSIONS; IEEE operations give the same bits in any vector
 * width, -ffp-contract=off), so S and S' are bit for bit swish()'s. */
FFI_INLINE void swish_entry(const double *restrict U, double *restrict S, double *restrict Sp,
                            size_t k)
{
    const double x = U[k], e = Sp[k], D = 1.0 + e;
    const int pos = x >= 0;
    const double sig = (pos ? 1.0 : e) / D, sigm = (pos ? e : 1.0) / D;
    S[k] = x * sig;
    Sp[k] = sig * (1.0 + x * sigm);
}

FFI_INLINE int swish_rest_body(const double *restrict U, double *restrict S, double *restrict Sp,
                               size_t n)
{
    size_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (size_t l = 0; l < 8; l++)
            swish_entry(U, S, Sp, k + l);
    for (; k < n; k++)
        swish_entry(U, S, Sp, k);
    return 0;
}

FFI_VERSIONS(int, swish_rest,
             (const double *restrict U, double *restrict S, double *restrict Sp, size_t n),
             (U, S, Sp, n))

static void swish_all(const double *U, double *S, double *Sp, size_t nJ)
{
    for (size_t k = 0; k < nJ; k++) {
        const double a = fabs(U[k]);
        Sp[k] = a > 745.2 ? 0.0 : exp(-a);
    }
    (void)swish_rest(U, S, Sp, nJ);
}

/* Per sample: the softmax of its row o (L entries) into r (Q - e_y) and
 * its loss. */
static void softmax_row(const double *o, double *r, double *loss, size_t y, size_t L)
{
    size_t lm = 0;
    for (size_t l = 1; l < L; l++)
        if (o[l] > o[lm])
            lm = l;
    const double m = o[lm];
    double sp = 0;
    for (size_t l = 0; l < L; l++) {
        r[l] = l == lm ? 1.0 : exp(o[l] - m);
        if (l != lm)
            sp += r[l];
    }
    const double den = 1.0 + sp;
    *loss = log1p(sp) - (o[y] - m);
    for (size_t l = 0; l < L; l++)
        r[l] = r[l] / den;
    r[y] = r[y] - 1.0;
}

/* The forward pass shared by the function and its bound: S, S' (Sp may be
 * NULL), O = S W0^T, R, loss.  FR_ENONFINITE if U or O is not finite. */
static int forward(const double *U, const double *w0, const size_t *y, size_t nb, size_t L,
                   size_t J, double *S, double *Sp, double *O, double *R, double *loss)
{
    const size_t nJ = nb * J;
    if (!ffi_all_finite(U, nJ))
        return FR_ENONFINITE;
    double dummy;
    if (Sp != NULL)
        swish_all(U, S, Sp, nJ);
    else
        for (size_t k = 0; k < nJ; k++)
            swish(U[k], &S[k], &dummy);
    ffi_ssca_gemm(0, 1, nb, L, J, S, J, w0, J, O, L);       /* O = S W0^T */
    if (!ffi_all_finite(O, nb * L))
        return FR_ENONFINITE;
    for (size_t n = 0; n < nb; n++)
        softmax_row(O + n * L, R + n * L, &loss[n], y[n], L);
    return FR_OK;
}

size_t ffi_ssca_net_ws_len(size_t nb, size_t L, size_t J)
{
    return 3 * nb * J + 2 * nb * L + nb;
}

double *ffi_ssca_net_ws_delta(double *ws, size_t nb, size_t L, size_t J)
{
    return ws + 2 * nb * J + 2 * nb * L + nb;
}

int ffi_ssca_net_eval_ws(double *f, double *A, double *B, const double *U, const double *w0,
                         const size_t *y, const double *Z, const double *rw, unsigned flags,
                         size_t nb, size_t L, size_t J, size_t P, double *ws)
{
    const size_t nJ = nb * J, nL = nb * L;
    double *S = ws, *Sp = S + nJ, *O = Sp + nJ, *R = O + nL, *loss = R + nL, *Dl = loss + nb;
    const int acc = (flags & FFI_NET_ACC) != 0;
    const double beta = acc ? 1.0 : 0.0;
    int st = forward(U, w0, y, nb, L, J, S, Sp, O, R, loss);
    if (st != FR_OK)
        return st;
    if (rw != NULL)                                  /* weighted rows: R <- diag(rw) R */
        for (size_t n = 0; n < nb; n++) {
            loss[n] = rw[n] * loss[n];
            for (size_t l = 0; l < L; l++)
                R[n * L + l] = rw[n] * R[n * L + l];
        }
    if (f) {
        double fs = 0;
        for (size_t n = 0; n < nb; n++)
            fs += loss[n];
        *f = acc ? *f + fs : fs;
        if (!isfinite(*f))
            st = FR_ENONFINITE;
    }
    if (A) {
        ffi_ssca_gemm_beta(1, 0, L, J, nb, R, L, S, J, beta, A, J);     /* A (+)= R^T S */
        if (!(flags & FFI_NET_NOSCAN) && !ffi_all_finite(A, L * J))
            st = FR_ENONFINITE;
    }
    if (B || (flags & FFI_NET_DELTA)) {
        ffi_ssca_gemm(0, 0, nb, J, L, R, L, w0, J, Dl, J);             /* C = R W0 */
        for (size_t k = 0; k < nJ; k++)
            Dl[k] = Dl[k] * Sp[k];                                      /* Delta */
    }
    if (B) {
        ffi_ssca_gemm_beta(1, 0, J, P, nb, Dl, J, Z, P, beta, B, P);   /* B (+)= Delta^T Z */
        if (!(flags & FFI_NET_NOSCAN) && !ffi_all_finite(B, J * P))
            st = FR_ENONFINITE;
    }
    return st;
}

int ffi_ssca_net_eval(double *f, double *A, double *B, const double *U, const double *w0,
                      const size_t *y, const double *Z, size_t nb, size_t L, size_t J, size_t P)
{
    const size_t LJ = A ? L * J : 0, JP = B ? J * P : 0;
    double *ws = malloc((ffi_ssca_net_ws_len(nb, L, J) + LJ + JP) * sizeof *ws);
    if (ws == NULL)
        return FR_ENOMEM;
    double *Aw = ws + ffi_ssca_net_ws_len(nb, L, J), *Bw = Aw + LJ, fs;
    int st = ffi_ssca_net_eval_ws(f ? &fs : NULL, A ? Aw : NULL, B ? Bw : NULL, U, w0, y, Z,
                                  NULL, 0u, nb, L, J, P, ws);
    if (st == FR_OK) {                         /* outputs written only on FR_OK */
        if (f)
            *f = fs + 0.0;
        for (size_t k = 0; k < LJ; k++)
            A[k] = Aw[k] + 0.0;                                         /* -0 -> +0 */
        for (size_t k = 0; k < JP; k++)
            B[k] = Bw[k] + 0.0;
    }
    free(ws);
    return st;
}

/* ---- the bound ------------------------------------------------------------ */

typedef long double ld;
#define LIM ((size_t)1 << 22)
#define BIG 0x1p1000L
#define BIGB 0x1p940L

static ld gam(size_t k) { return (ld)(k + 1) * 0x1p-53L; }

/* x (1 + 2^-39) rounded up to binary64; x >= 0. */
static double up(ld x)
{
    x = x * (1 + 0x1p-39L);
    double d = (double)x;
    if ((ld)d < x)
        d = ffi_next_up(d);
    return d;
}

int ffi_ssca_bound_range(size_t nb, size_t L, size_t J, size_t P, size_t nc)
{
    if (nb > LIM || L > LIM || J > LIM || P > LIM || nc > LIM)
        return FR_ESIZE;
    if (LDBL_MANT_DIG < 64 || LDBL_MIN_EXP > -16000)
        return FR_EDOM;
    return FR_OK;
}

int ffi_ssca_eu_dot(double *eu, const double *Z, const double *W1, size_t nb, size_t J, size_t P)
{
    if (nb > LIM || J > LIM || P > LIM)
        return FR_ESIZE;
    if (LDBL_MANT_DIG < 64 || LDBL_MIN_EXP > -16000)
        return FR_EDOM;
    for (size_t n = 0; n < nb; n++)
        for (size_t j = 0; j < J; j++) {
            ld a = 0;
            for (size_t p = 0; p < P; p++)
                a += fabsl((ld)Z[n * P + p]) * fabsl((ld)W1[j * P + p]);
            ld e = gam(P) * a + (ld)P * 0x1p-1074L;
            if (!(e < 0x1p900L))
                return FR_EDOM;
            eu[n * J + j] = up(e);
        }
    return FR_OK;
}

int ffi_ssca_eu_sum(double *eu, const double *H, size_t nc, size_t nJ)
{
    if (nc > LIM)
        return FR_ESIZE;
    if (LDBL_MANT_DIG < 64 || LDBL_MIN_EXP > -16000)
        return FR_EDOM;
    for (size_t k = 0; k < nJ; k++) {
        ld a = 0;
        for (size_t i = 0; i < nc; i++)
            a += fabsl((ld)H[i * nJ + k]);
        ld e = gam(nc - 1) * a;
        if (!(e < 0x1p900L))
            return FR_EDOM;
        eu[k] = up(e);
    }
    return FR_OK;
}

int ffi_ssca_net_bound(double *fb, double *Ab, double *Bb, const double *Ub, const double *eu,
                       const double *w0, const size_t *y, const double *Z, size_t nb,
                       size_t L, size_t J, size_t P)
{
    if (nb > LIM || L > LIM || J > LIM || (Bb && P > LIM))
        return FR_ESIZE;
    if (LDBL_MANT_DIG < 64 || LDBL_MIN_EXP > -16000)
        return FR_EDOM;                      /* no wide long double: outside the proof */
    const size_t nJ = nb * J, nL = nb * L, LJ = Ab ? L * J : 0, JP = Bb ? J * P : 0,
                 nJB = Bb ? nJ : 0;
    double *ws = calloc(nJ + 2 * nL + nb, sizeof *ws);
    ld *lw = calloc(3 * nJ + 3 * nb + LJ + 2 * nJB + JP, sizeof *lw);
    if (ws == NULL || lw == NULL) {
        free(ws);
        free(lw);
        return FR_ENOMEM;
    }
    double *S = ws, *O = S + nJ, *R = O + nL, *loss = R + nL;
    ld *sb = lw, *eS = sb + nJ, *eSp = eS + nJ, *EOp = eSp + nJ, *er = EOp + nb, *lb = er + nb,
       *Aacc = lb + nb, *dbv = Aacc + LJ, *edv = dbv + nJB, *Bacc = edv + nJB;
    int st = forward(Ub, w0, y, nb, L, J, S, NULL, O, R, loss);
    if (st != FR_OK)
        st = FR_EDOM;                        /* Ub or Ob overflowed: outside the proof */
    const ld u = 0x1p-53L, lnL = logl((ld)L) * (1 + 0x1p-60L);
    int big = 0;
    for (size_t k = 0; st == FR_OK && k < nJ; k++) {           /* (a), (b) */
        ld e = eu[k];
        sb[k] = (Ub[k] > 0 ? (ld)Ub[k] : 0) + 2 * e + 0.2785L;
        eS[k] = gam(13) * sb[k] + 1.1L * e + 0x1p-1060L;
        eSp[k] = 1.1L * gam(23) + 0.5L * e + 0x1p-1060L;
        big |= !(fabsl((ld)Ub[k]) + 2 * e < BIG) || !(sb[k] + eS[k] < BIG);
    }
    ld fsum = 0, fabs_ = 0;
    for (size_t n = 0; st == FR_OK && n < nb; n++) {           /* (c)-(f) */
        const double *o = O + n * L;
        ld EO = 0;
        double omax = o[0], omin = o[0];
        for (size_t l = 0; l < L; l++) {
            ld a = 0, b = 0;
            for (size_t j = 0; j < J; j++) {
                ld w = fabsl((ld)w0[l * J + j]);
                a += (sb[n * J + j] + eS[n * J + j]) * w;
                b += eS[n * J + j] * w;
            }
            big |= !(a < BIG);
            ld eo = gam(J) * a + b + (ld)J * 0x1p-1074L;
            EO = eo > EO ? eo : EO;
            omax = fmax(omax, o[l]);
            omin = fmin(omin, o[l]);
        }
        ld spb = (ld)omax - (ld)omin, top = (ld)omax - (ld)o[y[n]];
        EOp[n] = EO + u * (spb + 4 * EO);
        ld eQ = gam(L + 8) + EOp[n] / 2 + (ld)(L + 1) * 0x1p-1072L;
        er[n] = eQ + u;
        lb[n] = lnL + top + 2 * EO + 2 * EOp[n];
        big |= !(lb[n] < BIG) || !(EOp[n] < BIG);
        fsum += lb[n];
        fabs_ += 2 * EOp[n] + (ld)L * 0x1p-1072L;
    }
    if (st == FR_OK && Ab) {                                     /* (g) */
        for (size_t n = 0; n < nb; n++)
            for (size_t l = 0; l < L; l++) {
                ld rb = fabsl((ld)R[n * L + l]) + 2 * er[n];
                rb = rb < 1 ? rb : 1;
                for (size_t j = 0; j < J; j++) {
                    ld s = sb[n * J + j] + eS[n * J + j];
                    Aacc[l * J + j] += gam(nb) * rb * s + er[n] * s + rb * eS[n * J + j];
                }
            }
    }
    if (st == FR_OK && Bb) {                                     /* (h), (i) */
        for (size_t n = 0; n < nb; n++)
            for (size_t j = 0; j < J; j++) {
                ld cb = 0, wa = 0;
                for (size_t l = 0; l < L; l++) {
                    ld rb = fabsl((ld)R[n * L + l]) + 2 * er[n];
                    rb = rb < 1 ? rb : 1;
                    ld w = fabsl((ld)w0[l * J + j]);
                    cb += rb * w;
                    wa += w;
                }
                ld ec = gam(L) * cb + er[n] * wa + (ld)L * 0x1p-1074L;
                ld p = 1.1L + eSp[n * J + j];
                ld ed = u * (cb + ec) * p + ec * p + cb * eSp[n * J + j] + 0x1p-1075L;
                dbv[n * J + j] = 1.1L * cb + ed;                  /* db */
                edv[n * J + j] = ed;
                big |= !(dbv[n * J + j] < BIG);
            }
        for (size_t j = 0; j < J; j++)
            for (size_t p = 0; p < P; p++) {
                ld acc = 0;
                for (size_t n = 0; n < nb; n++)
                    acc += (gam(nb) * dbv[n * J + j] + edv[n * J + j]) * fabsl((ld)Z[n * P + p]);
                Bacc[j * P + p] = acc;
            }
    }
    if (st == FR_OK) {
        /* a bound < 2^940 is >= 2^-53 times its magnitude (f, A, B): < 2^993 */
        ld fbv = gam(nb + L + 8) * fsum + (1 + gam(nb)) * fabs_;
        for (size_t k = 0; k < LJ; k++)
            Aacc[k] += (ld)nb * 0x1p-1074L;
        for (size_t k = 0; k < JP; k++)
            Bacc[k] += (ld)nb * 0x1p-1074L;
        big |= !(fbv < BIGB);
        for (size_t k = 0; k < LJ; k++)
            big |= !(Aacc[k] < BIGB);
        for (size_t k = 0; k < JP; k++)
            big |= !(Bacc[k] < BIGB);
        if (big)
            st = FR_EDOM;                                        /* outside the proof */
        else {
            if (fb)
                *fb = up(fbv);
            for (size_t k = 0; k < LJ; k++)
                Ab[k] = up(Aacc[k]);
            for (size_t k = 0; k < JP; k++)
                Bb[k] = up(Bacc[k]);
        }
    }
    free(ws);
    free(lw);
    return st;
}
