/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h -- argument checks shared by the ref/ sources (not installed). */
#ifndef FEDREF_REF_INTERNAL_H
#define FEDREF_REF_INTERNAL_H

#include "fedref.h"

/* The argument checks follow the class order of fedref_common.h
 * ("Error semantics"): every function tests all its pointers (FR_ENULL),
 * then its sizes (FR_ESIZE), precisions (FR_EPREC), finiteness
 * (FR_ENONFINITE) and domain (FR_EDOM), each with the helpers below. */

/* 1 iff x[0..count-1] are all numbers (no NaN, no infinity). */
int fri_finite(mpfr_t *const x, size_t count);

/* 1 iff m >= 1, n >= 1 and m n <= FR_COUNT_MAX. */
int fri_dims_ok(size_t m, size_t n);

/* 1 iff the byte ranges [p, p + np) and [q, q + nq) overlap (two outputs
 * that must be distinct: FR_EDOM). */
int fri_overlap(const void *p, size_t np, const void *q, size_t nq);

/* The arguments of fr_ens and fr_ens_as_printed (002 Sec. III: lambda,
 * eta > 0; m, n >= 1; finite W), in class order. */
int fri_check_ens_args(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                       mpfr_srcptr lambda, mpfr_srcptr eta);

/* A fresh array of k mpfr_t, each at the precision of the corresponding
 * entry of like[] (the temporaries a closed form computes into, copied
 * into its outputs only on success); NULL if allocation fails. */
/* k mpfr_t of precision p, each NaN (at least one slot is allocated, so k = 0
 * gives a valid pointer); NULL if malloc fails.  fri_vec_free clears and
 * frees them (safe on NULL). */
mpfr_t *fri_vec_new(size_t k, mpfr_prec_t p);
/* fri_vec_new with every entry +0 */
mpfr_t *fri_vec_zero(size_t k, mpfr_prec_t p);
void fri_vec_free(mpfr_t *v, size_t k);
mpfr_t *fri_temps_like(mpfr_t *const like, size_t k);
/* Copy the k temporaries into out (exact: same precisions) when copy is
 * nonzero, then clear and free them. */
void fri_temps_done(mpfr_t *tmp, mpfr_t *out, size_t k, int copy);

/* Sort an array of pointers to mpfr numbers ascending (mpfr_cmp order). */
void fri_sort_ptrs(mpfr_ptr *v, size_t m);

/* ---- exact arithmetic on mpfr numbers (ref/internal.c) -----------------
 * r receives a precision large enough for the exact result and the exact
 * value; r must not alias an operand (its precision is reset).  FR_EPREC if
 * that precision would exceed FRI_EXACT_PREC_MAX bits or the result leaves
 * MPFR's exponent range (a ternary value != 0). */
#define FRI_EXACT_PREC_MAX ((mpfr_prec_t)1 << 24)
int fri_add_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);
int fri_sub_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);
int fri_mul_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);
/* r = t[0] + ... + t[k-1] exactly (k >= 0; the empty sum is +0). */
int fri_sum_exact(mpfr_ptr r, const mpfr_ptr *t, size_t k);

#endif
