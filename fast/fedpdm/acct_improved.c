/* SPDX-License-Identifier: Apache-2.0 */
/* acct_improved.c -- ff_fedpdm_rdp_rounds_improved: fr_fedpdm_rdp_rounds_
 * improved in binary64 (docs/DP.md section 2): rho(alpha) from
 * ff_fedpdm_rdp_order (an upper bound), then
 *   eps = min_alpha max(0, rho + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1))
 * with the outward factors of acct.c: q + |q| r + 2^-1060 (or minus) in the
 * direction that raises eps, r = 2^-50 after + - * /, 2^-40 after log and
 * log1p (the libm assumption of fedfast/fedpdm.h). */
#include <math.h>
#include "../internal.h"
#include "fedfast/fedpdm.h"
#include "acct.h"


int ff_fedpdm_rdp_rounds_improved(double *eps, unsigned long *alpha, const double *sigma, const double *s,
                                  unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                                  double delta, unsigned long alpha_max)
{
    int st = ffi_pdm_rdp_rounds_args(eps, alpha, sigma, s, T, first, K, N, delta, alpha_max);
    if (st != FR_OK)
        return st;
    const double ld = ffi_pad_down(log(delta), R_LM);                 /* ln delta, down */
    double best = INFINITY;
    unsigned long ab = 2;
    for (unsigned long al = 2; al <= alpha_max; al++) {
        double rho = 0, r;
        for (unsigned long t0 = 0; t0 < T;) {
            const int sub = t0 >= first && K < N;
            unsigned long t1 = t0 + 1;
            while (t1 < T && (t1 >= first && K < N) == sub && sigma[t1] == sigma[t0] && s[t1] == s[t0])
                t1++;
            st = ff_fedpdm_rdp_order(&r, sigma[t0], s[t0], sub ? K : N, N, al);   /* up */
            if (st != FR_OK)
                return st;
            rho = ffi_pad_up(rho + ffi_pad_up(r * (double)(t1 - t0), R_OP), R_OP);
            t0 = t1;
        }
        const double inv = ffi_pad_down(1.0 / (double)al, R_OP);     /* 1/alpha, down */
        const double l1 = ffi_pad_up(log1p(-inv), R_LM);            /* ln(1 - 1/alpha), up */
        const double la = ffi_pad_down(log((double)al), R_LM);        /* ln alpha, down */
        const double q = ffi_pad_down(ffi_pad_down(la + ld, R_OP) / (double)(al - 1), R_OP);
        double c = ffi_pad_up(ffi_pad_up(rho + l1, R_OP) - q, R_OP);
        if (isnan(c))
            c = INFINITY;
        if (c < 0)
            c = 0;
        if (c < best) {
            best = c;
            ab = al;
        }
    }
    *eps = best;
    *alpha = ab;
    return FR_OK;
}
