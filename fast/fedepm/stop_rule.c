/* SPDX-License-Identifier: Apache-2.0 */
/* stop_rule.c -- ff_stop_rule: the stopping rule of 002 Sec. VII-B,
 * binary64.
 *
 * Gradient test ||grad f||^2 < 10^-6: the binary64 1e-6 =
 * 0x1.0c6f7a0b5ed8dp-20 lies below 10^-6 and its successor above, so for a
 * binary64 gnorm2, gnorm2 < 10^-6 iff gnorm2 <= 1e-6: decided exactly.
 *
 * Variance test var{f_0..f_3} <= thr = n 10^-8 / (1 + |f_3|) (the last four
 * values, sample variance with divisor 3).  Let u = 2^-53, A = mean |f_k|,
 * D = max_k |f_k - mean|, |f_k| <= 2^500 (no overflow).
 *   mean^ = RN(RN(f0 + f1) + RN(f2 + f3)) / 4:  |mean^ - mean| <= gamma_2 A;
 *   d^_k = RN(f_k - mean^): e := max |d^_k - d_k| <= gamma_3 A + u D <= 12 u A
 *   (D <= 8A);  sum |d^_k^2 - d_k^2| <= 4 e (2D + e); squares and sum of four
 *   nonnegative terms (4), /3 (1):
 *     |var^ - var| <= 36 u A D + 288 u^2 A^2 + gamma_5 var + 2^-1070;
 *   thr^ = RN(RN(n 1e-8) / RN(1 + |f_3|)), (double)n exact for n <= 2^53
 *   (else 1 more), 1e-8 within u: |thr^ - thr| <= gamma_5 thr.
 * Hence the binary64 decision var^ <= thr^ equals the exact one whenever
 *   |var - thr| > G = 2^-47 (A D + var + thr) + 2^-97 A^2 + 2^-1070.
 *
 * ff_stop_rule_bound returns G^ = RN(RN(X + Y) + 2^-1069) with
 * X = RN(2^-46 RN(RN(RN(A^ D^) + var^) + thr^)), Y = RN(2^-96 RN(A^ A^)),
 * A^ = RN(RN(RN(|f0| + |f1|) + RN(|f2| + |f3|)) / 4), D^ = max_k |d^_k|,
 * var^, thr^ as above.  G^ >= G: from the analysis above
 *   A <= (1 + 3u) A^ + 2^-1074,   D <= (1 + 2u) D^ + 3u A + 2^-1074,
 *   var <= (var^ + 36 u A D + 288 u^2 A^2 + 2^-1070)/(1 - gamma_5),
 *   thr <= thr^/(1 - gamma_5),  and thr^ >= 2^-530 (|f3| <= 2^500).
 * If A >= 2^-900, the 2^-1074 terms are below 2^-170 A^, so A D <=
 * (1 + 7u) A^ D^ + 4.01 u (A^)^2 and G <= 2^-47 (1 + 44u)(A^ D^ + var^ +
 * thr^) + 1.502 2^-97 (A^)^2 + 2^-1070 (1 + 2^-40) (2^-47 4.01 u = 0.502
 * 2^-97), while X + Y + 2^-1069 evaluated loses at most (1 - u)^6 and
 * 2^-1074 (the A^2 term may fall below 2^-1022; the others stay above):
 *   G^ >= 2^-46 (1 - u)^6 (A^ D^ + var^ + thr^) + 2^-96 (1 - u)^4 (A^)^2
 *         + 2^-1069 (1 - u)^2 - 2^-1074 >= G.
 * If A < 2^-900, G <= 2^-47 thr^ (1 + 2^-40) + 2^-1070 + 2^-1790 (D <= 5A,
 * var <= 34 A^2) and the same lower bound of G^ exceeds it.  So
 * the binary64 decision equals the exact one whenever |var - thr| > G^.
 * One of the last four |f_k| > 2^500: FR_EDOM (outside the analysis).
 * Contract: include/fedfast.h. */
#include <math.h>

#include "fedfast.h"
#include "../internal.h"

/* The checks of ff_stop_rule and its bound after the output's NULL test,
 * in class order. */
static int stop_args(double gnorm2, const double *f, size_t nf, size_t n)
{
    if (!f)
        return FR_ENULL;
    if (nf == 0 || nf > FR_COUNT_MAX || n == 0)
        return FR_ESIZE;
    if (!isfinite(gnorm2) || !ffi_all_finite(f, nf))
        return FR_ENONFINITE;
    return gnorm2 >= 0 ? FR_OK : FR_EDOM;
}

int ff_stop_rule(int *stop, double gnorm2, const double *f, size_t nf, size_t n)
{
    int st = stop ? stop_args(gnorm2, f, nf, n) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (gnorm2 <= 1e-6) {                          /* == gnorm2 < 10^-6 */
        *stop = FR_STOP_GRAD;
        return FR_OK;
    }
    *stop = FR_STOP_ROUNDS;
    if (nf < 4)
        return FR_OK;
    const double *v = f + (nf - 4);
    double mean = ((v[0] + v[1]) + (v[2] + v[3])) * 0.25, s = 0;
    for (int k = 0; k < 4; k++) {
        double dk = v[k] - mean;
        s += dk * dk;
    }
    double var = s / 3.0;
    double thr = ((double)n * 1e-8) / (1.0 + fabs(v[3]));
    if (var <= thr)
        *stop = FR_STOP_VAR;
    return FR_OK;
}

int ff_stop_rule_bound(double *gap, double gnorm2, const double *f, size_t nf, size_t n)
{
    int st = gap ? stop_args(gnorm2, f, nf, n) : FR_ENULL;   /* ff_stop_rule's checks */
    if (st != FR_OK)
        return st;
    if (nf < 4) {
        *gap = 0;                              /* no variance test */
        return FR_OK;
    }
    const double *v = f + (nf - 4);
    for (int k = 0; k < 4; k++)
        if (fabs(v[k]) > 0x1p500)
            return FR_EDOM;                    /* outside the analysis */
    double mean = ((v[0] + v[1]) + (v[2] + v[3])) * 0.25, s = 0, D = 0;
    double A = ((fabs(v[0]) + fabs(v[1])) + (fabs(v[2]) + fabs(v[3]))) * 0.25;
    for (int k = 0; k < 4; k++) {
        double dk = v[k] - mean;
        s += dk * dk;
        D = fmax(D, fabs(dk));
    }
    double var = s / 3.0;
    double thr = ((double)n * 1e-8) / (1.0 + fabs(v[3]));
    *gap = 0x1p-46 * (A * D + var + thr) + 0x1p-96 * (A * A) + 0x1p-1069;
    return FR_OK;
}
