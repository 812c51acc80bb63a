/* SPDX-License-Identifier: Apache-2.0 */
/* thm3.c -- the parameter validator of 003 Lemma 2 / Theorem 3 in
 * binary64.  Contract: fedfast/fedpdm.h.
 *
 * Error bound: each term of a b_k is a product/quotient of at most four
 * inputs and small constants (at most 6 roundings, each <= u relative, u =
 * 2^-53, all operands exact binary64 or exact multiples by powers of 2 and
 * small integers): |term^ - term| <= 6.01u |term|; the <= 4 additions add
 * <= u each on a sum whose magnitude is <= M_k (1 + 7u).  So |b^_k - b_k|
 * <= 8u M_k (1 + 8u) < 16u M_k^ (M_k^, the magnitude sum computed, is
 * within (1 + 8u) of M_k).  4L - 2 is exact for L in [1/4, 1] (Sterbenz on
 * 4L and 2) and relatively u-accurate elsewhere, so L/(4L - 2) also obeys
 * the 6.01u term bound. */
#include <math.h>
#include "fedfast.h"
#include "../internal.h"

#define C_RD 0x1.e3779b97f4a7cp-2   /* RD(2 sqrt 5 - 4): L < 2 sqrt 5 - 4 iff L <= C_RD */

static int check(double L, double rho, unsigned long N)
{
    if (N == 0 || N > FR_COUNT_MAX)
        return FR_ESIZE;
    if (!isfinite(L) || !isfinite(rho))
        return FR_ENONFINITE;
    if (!(L > 0) || !(rho > 0))
        return FR_EDOM;
    return FR_OK;
}

/* b[k] and the magnitude sums M[k]; returns 0, or FR_ENONFINITE on overflow. */
static int eval(double b[8], double M[8], double L, double rho, unsigned long N)
{
    double n = (double)N, d = 4 * L - 2, L2 = L * L, r2 = rho * rho;
    double q = 4 * L2 / rho, u6 = (1 + 4 * rho / n) * 16 / r2;
    b[0] = n * rho / 2;                    M[0] = b[0];
    b[1] = rho / 2 - q - L;                M[1] = rho / 2 + q + L;
    b[2] = 8 / rho + L / d;                M[2] = 8 / rho + fabs(L / d);
    b[3] = 16 / rho;                       M[3] = b[3];
    b[4] = 2;                              M[4] = 0;
    b[5] = u6;                             M[5] = b[5];
    b[6] = (L2 + r2) + 4 / n * (rho + q) + q / rho;
    M[6] = b[6];
    b[7] = L2 / d + u6 / 2;                M[7] = fabs(L2 / d) + u6 / 2;
    for (int k = 0; k < 8; k++)
        if ((d != 0 || (k != 2 && k != 7)) && (!isfinite(b[k]) || !isfinite(M[k])))
            return FR_ENONFINITE;
    return FR_OK;
}

int ff_fedpdm_thm3(ff_fedpdm_thm3_consts *out, double L, double rho, unsigned long N)
{
    if (out == NULL)
        return FR_ENULL;
    int st = check(L, rho, N);
    if (st != FR_OK)
        return st;
    double b[8], M[8];
    st = eval(b, M, L, rho, N);
    if (st != FR_OK)
        return st;
    unsigned fail = 0;
    int undef = L == 0.5;
    if (L <= C_RD) fail |= FR_FEDPDM_T3_L_LOW;
    if (4 * L > rho) fail |= FR_FEDPDM_T3_L_HIGH;
    if (4 * L >= rho) fail |= FR_FEDPDM_T3_B2_NONPOS;
    if (rho / 4 <= C_RD) fail |= FR_FEDPDM_T3_EMPTY;   /* rho/4 exact, or < 2^-1020 */
    double th1 = NAN, th2 = NAN, C0 = NAN;
    if (undef) {
        fail |= FR_FEDPDM_T3_UNDEF | FR_FEDPDM_T3_THETA1_NONPOS;
        b[2] = b[7] = NAN;
    } else {
        if (!(b[2] > 16 * 0x1p-53 * M[2])) fail |= FR_FEDPDM_T3_B3_NONPOS;
        if (!(b[7] > 16 * 0x1p-53 * M[7])) fail |= FR_FEDPDM_T3_B8_NONPOS;
        th1 = fmin(fmin(b[0], b[1]), fmin(b[2], b[3]));
        th2 = fmax(fmax(b[4], b[5]), fmax(b[6], b[7]));
        int k1 = 0;
        for (int k = 1; k < 4; k++) if (b[k] < b[k1]) k1 = k;
        if (!(th1 > 16 * 0x1p-53 * M[k1]) || (fail & (FR_FEDPDM_T3_B2_NONPOS | FR_FEDPDM_T3_B3_NONPOS)))
            fail |= FR_FEDPDM_T3_THETA1_NONPOS;
        C0 = th1 == 0 ? INFINITY : th2 / th1;
    }
    for (int k = 0; k < 8; k++) out->b[k] = b[k];
    out->theta1 = th1;
    out->theta2 = th2;
    out->C0 = C0;
    out->fail = fail;
    return FR_OK;
}

int ff_fedpdm_thm3_bound(double berr[8], double L, double rho, unsigned long N)
{
    if (berr == NULL)
        return FR_ENULL;
    int st = check(L, rho, N);
    if (st != FR_OK)
        return st;
    double b[8], M[8];
    st = eval(b, M, L, rho, N);
    if (st != FR_OK)
        return st;
    if (L < 0x1p-300 || L > 0x1p300 || rho < 0x1p-300 || rho > 0x1p300 || N > (1UL << 53))
        return FR_EDOM;
    for (int k = 0; k < 8; k++)
        berr[k] = ffi_next_up(16 * 0x1p-53 * M[k]);
    if (L == 0.5)
        berr[2] = berr[7] = NAN;
    return FR_OK;
}
