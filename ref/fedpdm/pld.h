/* SPDX-License-Identifier: Apache-2.0 */
/* pld.h -- internal to ref: the MPFR radix-2 FFT of pld_fft.c and its
 * a-priori error bound, used by the PLD accountant (pld.c). */
#ifndef FEDREF_REF_FEDPDM_PLD_H
#define FEDREF_REF_FEDPDM_PLD_H
#include <stddef.h>
#include <mpfr.h>

/* wr[k] + i wi[k] = exp(-2 pi i k / n), k < n/2, each component within
 * 2^-(wp+1) of the exact one (|w^ - w| <= 2^-wp); n a power of two >= 2. */
void fri_fft_twiddles(mpfr_t *wr, mpfr_t *wi, size_t n, mpfr_prec_t wp);

/* In place: (re, im) <- sum_j x_j exp(-+ 2 pi i jk/n) (inverse: +, not
 * divided by n), iterative radix-2 decimation in time, each real operation
 * rounded to nearest (a x b -+ c x d by mpfr_fmma/fmms: one rounding). */
void fri_fft(mpfr_t *re, mpfr_t *im, size_t n, int inverse, mpfr_t *const wr, mpfr_t *const wi);

/* c (rounded up) with ||y^ - y||_2 <= c ||y||_2 for fri_fft at precision
 * wp (Higham 2002, Thm 24.2: c = L eta / (1 - L eta), L = log2 n, eta =
 * m + gamma_4 (sqrt2 + m), m = 2^-wp the twiddle error, u = 2^-wp), every
 * step rounded up at c's precision (pld.c: 64 bits; any >= 2), for
 * L eta < 1. */
void fri_fft_bound(mpfr_ptr c, size_t n, mpfr_prec_t wp);

#endif
