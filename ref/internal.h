/* internal.h -- argument checks shared by the ref/ sources (not installed). */
#ifndef FEDREF_REF_INTERNAL_H
#define FEDREF_REF_INTERNAL_H

#include "fedref.h"

/* FR_ENULL if p is NULL, FR_ENONFINITE if any of x[0..count-1] is NaN/Inf. */
int fri_check_finite(mpfr_t *const x, size_t count);

/* FR_ESIZE unless m >= 1, n >= 1 and m*n does not overflow. */
int fri_check_dims(size_t m, size_t n);

/* A scalar parameter: FR_ENULL, FR_ENONFINITE, then FR_EDOM unless
 * p > 0 (or p >= 0 when allow_zero). */
int fri_check_param(mpfr_srcptr p, int allow_zero);

/* The arguments of fr_ens and fr_ens_as_printed (002 Sec. III: lambda,
 * eta > 0; m, n >= 1; finite W), in the order NULL, size, parameters, data. */
int fri_check_ens_args(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                       mpfr_srcptr lambda, mpfr_srcptr eta);

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
