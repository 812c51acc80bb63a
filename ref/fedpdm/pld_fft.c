/* SPDX-License-Identifier: Apache-2.0 */
/* pld_fft.c -- the radix-2 complex FFT in MPFR of the PLD accountant and
 * its a-priori error bound (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed. 2002, Theorem 24.2).  Contract: pld.h. */
#include "pld.h"

void fri_fft_twiddles(mpfr_t *wr, mpfr_t *wi, size_t n, mpfr_prec_t wp)
{
    mpfr_t a, pi;
    mpfr_inits2(wp + 32, a, pi, (mpfr_ptr)0);
    mpfr_const_pi(pi, MPFR_RNDN);
    for (size_t k = 0; k < n / 2; k++) {
        /* angle -2 pi k / n within 2^-(wp+28) of the exact one (|a| < 2^3);
         * sin, cos rounded to nearest at wp bits: |error| <= 2^-(wp+1) + that */
        mpfr_mul_ui(a, pi, 2 * (unsigned long)k, MPFR_RNDN);
        mpfr_div_ui(a, a, (unsigned long)n, MPFR_RNDN);
        mpfr_neg(a, a, MPFR_RNDN);
        mpfr_sin_cos(wi[k], wr[k], a, MPFR_RNDN);
    }
    mpfr_clears(a, pi, (mpfr_ptr)0);
}

void fri_fft(mpfr_t *re, mpfr_t *im, size_t n, int inverse, mpfr_t *const wr, mpfr_t *const wi)
{
    for (size_t i = 1, j = 0; i < n; i++) {            /* bit reversal (exact) */
        size_t b = n >> 1;
        for (; j & b; b >>= 1)
            j ^= b;
        j ^= b;
        if (i < j) {
            mpfr_swap(re[i], re[j]);
            mpfr_swap(im[i], im[j]);
        }
    }
    const mpfr_prec_t wp = mpfr_get_prec(re[0]);
    mpfr_t tr, ti, c, d;
    mpfr_inits2(wp, tr, ti, c, d, (mpfr_ptr)0);
    for (size_t len = 2; len <= n; len <<= 1) {
        const size_t half = len / 2, stride = n / len;
        for (size_t i = 0; i < n; i += len)
            for (size_t j = 0; j < half; j++) {
                mpfr_t *xr = &re[i + j + half], *xi = &im[i + j + half];
                mpfr_srcptr a = wr[j * stride];
                mpfr_set(d, wi[j * stride], MPFR_RNDN);
                if (inverse)
                    mpfr_neg(d, d, MPFR_RNDN);
                /* t = w x: re a xr - d xi, im a xi + d xr, one rounding each */
                mpfr_fmms(tr, a, *xr, d, *xi, MPFR_RNDN);
                mpfr_fmma(ti, a, *xi, d, *xr, MPFR_RNDN);
                mpfr_sub(*xr, re[i + j], tr, MPFR_RNDN);
                mpfr_sub(*xi, im[i + j], ti, MPFR_RNDN);
                mpfr_add(re[i + j], re[i + j], tr, MPFR_RNDN);
                mpfr_add(im[i + j], im[i + j], ti, MPFR_RNDN);
            }
    }
    mpfr_clears(tr, ti, c, d, (mpfr_ptr)0);
}

void fri_fft_bound(mpfr_ptr c, size_t n, mpfr_prec_t wp)
{
    unsigned long L = 0;
    while (((size_t)1 << L) < n)
        L++;
    mpfr_t u, g, e, t;
    mpfr_inits2(mpfr_get_prec(c), u, g, e, t, (mpfr_ptr)0);
    mpfr_set_ui_2exp(u, 1, -(mpfr_exp_t)wp, MPFR_RNDN);     /* u = m = 2^-wp */
    mpfr_mul_ui(g, u, 4, MPFR_RNDU);
    mpfr_ui_sub(t, 1, g, MPFR_RNDD);
    mpfr_div(g, g, t, MPFR_RNDU);                           /* gamma_4 = 4u/(1-4u), up */
    mpfr_sqrt_ui(t, 2, MPFR_RNDU);
    mpfr_add(t, t, u, MPFR_RNDU);
    mpfr_mul(e, g, t, MPFR_RNDU);
    mpfr_add(e, e, u, MPFR_RNDU);                           /* eta, up */
    mpfr_mul_ui(e, e, L, MPFR_RNDU);                        /* L eta */
    mpfr_ui_sub(t, 1, e, MPFR_RNDD);
    mpfr_div(c, e, t, MPFR_RNDU);
    mpfr_clears(u, g, e, t, (mpfr_ptr)0);
}
