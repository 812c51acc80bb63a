/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate.h -- internals shared by the surrogate recursions of ref/ssca
 * (ema.c, lin.c, const.c, argmin.c, update.c, momentum.c): the argument
 * checks of the message-taking functions, the exact combination of the
 * clients' messages, and the one rounding that writes the outputs.  Not
 * installed.  The binary64 twin is fast/ssca/surrogate.h. */
#ifndef FEDREF_REF_SSCA_SURROGATE_H
#define FEDREF_REF_SSCA_SURROGATE_H

#include "../internal.h"

/* FR_OK, or FR_ESIZE unless I, d, B >= 1, I d <= FR_COUNT_MAX and
 * N = sum_i Ni[i] <= FR_COUNT_MAX (*N receives it).  Ni non-NULL. */
int fri_ssca_sizes(const size_t *Ni, size_t I, size_t d, size_t B, size_t *N);
/* 1 iff B <= N_i for every client (000 Sec. III: B <= N_i). */
int fri_ssca_batch_ok(const size_t *Ni, size_t I, size_t B);
/* 1 iff 0 < x <= 1 (a stepsize of (4) or (6)). */
int fri_ssca_unit(mpfr_srcptr x);

/* The clients' sizes N_i and B N as exact mpfr numbers, with scratch for
 * the column sums sum_i N_i G_ij. */
typedef struct {
    size_t I;
    mpfr_t *n;          /* N_i, exact (64 bits) */
    mpfr_t *prod;       /* I scratch products */
    mpfr_ptr *ptr;
    mpfr_t bn;          /* B N, exact (128 bits) */
} fri_ssca_msg;
/* FR_OK or FR_ENOMEM (then nothing to clear). */
int fri_ssca_msg_init(fri_ssca_msg *m, const size_t *Ni, size_t I, size_t B, size_t N);
void fri_ssca_msg_clear(fri_ssca_msg *m);
/* r = sum_i N_i G[i d + j], exactly (FR_OK or FR_EPREC). */
int fri_ssca_msg_col(fri_ssca_msg *m, mpfr_ptr r, mpfr_t *const G, size_t d, size_t j);

/* x <- 2 x exactly; FR_EPREC if that leaves MPFR's exponent range. */
int fri_ssca_twice(mpfr_ptr x);

/* n fresh exact numerators (precision MPFR_PREC_MIN, set by the exact
 * helpers); NULL if out of memory.  fri_ssca_nums_free clears them. */
mpfr_t *fri_ssca_nums(size_t n);
void fri_ssca_nums_free(mpfr_t *num, size_t n);
/* out[j] = num[j] / den rounded to nearest at out[j]'s precision (den ==
 * NULL: num[j] rounded), an exact zero as +0.  The one rounding of every
 * result; cannot fail. */
void fri_ssca_write(mpfr_t *out, mpfr_t *const num, size_t n, mpfr_srcptr den);

#endif
