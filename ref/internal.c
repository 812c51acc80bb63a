/* SPDX-License-Identifier: Apache-2.0 */
/* internal.c -- argument checks and sorting shared by the ref/ sources. */
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

int fri_finite(mpfr_t *const x, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!mpfr_number_p(x[i]))
            return 0;
    return 1;
}

int fri_dims_ok(size_t m, size_t n)
{
    return m != 0 && n != 0 && m <= FR_COUNT_MAX / n;
}

int fri_overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

int fri_check_ens_args(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                       mpfr_srcptr lambda, mpfr_srcptr eta)
{
    if (w == NULL || W == NULL || lambda == NULL || eta == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(m, n))
        return FR_ESIZE;
    if (!mpfr_number_p(lambda) || !mpfr_number_p(eta) || !fri_finite(W, m * n))
        return FR_ENONFINITE;
    if (mpfr_sgn(lambda) <= 0 || mpfr_sgn(eta) <= 0)
        return FR_EDOM;
    return FR_OK;
}

mpfr_t *fri_vec_new(size_t k, mpfr_prec_t p)
{
    mpfr_t *v = malloc((k ? k : 1) * sizeof *v);
    if (v != NULL)
        for (size_t q = 0; q < k; q++)
            mpfr_init2(v[q], p);            /* NaN */
    return v;
}

mpfr_t *fri_vec_zero(size_t k, mpfr_prec_t p)
{
    mpfr_t *v = fri_vec_new(k, p);
    if (v != NULL)
        for (size_t q = 0; q < k; q++)
            mpfr_set_zero(v[q], 1);
    return v;
}

void fri_vec_free(mpfr_t *v, size_t k)
{
    if (v == NULL)
        return;
    for (size_t q = 0; q < k; q++)
        mpfr_clear(v[q]);
    free(v);
}

mpfr_t *fri_temps_like(mpfr_t *const like, size_t k)
{
    mpfr_t *t = malloc((k ? k : 1) * sizeof *t);
    if (t != NULL)
        for (size_t j = 0; j < k; j++)
            mpfr_init2(t[j], mpfr_get_prec(like[j]));
    return t;
}

void fri_temps_done(mpfr_t *tmp, mpfr_t *out, size_t k, int copy)
{
    for (size_t j = 0; j < k; j++) {
        if (copy)
            mpfr_set(out[j], tmp[j], MPFR_RNDN);     /* exact: same precision */
        mpfr_clear(tmp[j]);
    }
    free(tmp);
}

static int cmp_ptr(const void *a, const void *b)
{
    return mpfr_cmp(*(mpfr_ptr const *)a, *(mpfr_ptr const *)b);
}

void fri_sort_ptrs(mpfr_ptr *v, size_t m)
{
    qsort(v, m, sizeof *v, cmp_ptr);
}

/* Exact arithmetic: the precision of an exact sum is the distance from the
 * top bit of the largest possible result to the lowest bit of any operand. */
static int exact_status(mpfr_ptr r, int inex)
{
    return inex != 0 || !mpfr_number_p(r) ? FR_EPREC : FR_OK;
}

static int sum_prec(mpfr_prec_t *out, mpfr_srcptr const *t, size_t k)
{
    mpfr_exp_t hi = 0, lo = 0;
    int any = 0;
    for (size_t i = 0; i < k; i++) {
        if (mpfr_zero_p(t[i]))
            continue;
        mpfr_exp_t e = mpfr_get_exp(t[i]), l = e - (mpfr_exp_t)mpfr_get_prec(t[i]);
        if (!any || e > hi) hi = e;
        if (!any || l < lo) lo = l;
        any = 1;
    }
    if (!any) {
        *out = MPFR_PREC_MIN;
        return FR_OK;
    }
    mpfr_exp_t carry = 1;                     /* ceil(log2 k) + 1 carry bits */
    for (size_t c = 1; c < k; c *= 2)
        carry++;
    if (hi - lo > (mpfr_exp_t)FRI_EXACT_PREC_MAX - carry)
        return FR_EPREC;
    *out = (mpfr_prec_t)(hi - lo + carry);
    return FR_OK;
}

int fri_add_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_srcptr t[2] = {a, b};
    mpfr_prec_t p;
    if (sum_prec(&p, t, 2) != FR_OK)
        return FR_EPREC;
    mpfr_set_prec(r, p);
    return exact_status(r, mpfr_add(r, a, b, MPFR_RNDN));
}

int fri_sub_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_srcptr t[2] = {a, b};
    mpfr_prec_t p;
    if (sum_prec(&p, t, 2) != FR_OK)
        return FR_EPREC;
    mpfr_set_prec(r, p);
    return exact_status(r, mpfr_sub(r, a, b, MPFR_RNDN));
}

int fri_mul_exact(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_prec_t p = mpfr_get_prec(a) + mpfr_get_prec(b);
    if (p > FRI_EXACT_PREC_MAX)
        return FR_EPREC;
    mpfr_set_prec(r, p);
    return exact_status(r, mpfr_mul(r, a, b, MPFR_RNDN));
}

int fri_sum_exact(mpfr_ptr r, const mpfr_ptr *t, size_t k)
{
    mpfr_prec_t p;
    if (sum_prec(&p, (mpfr_srcptr const *)t, k) != FR_OK)
        return FR_EPREC;
    mpfr_set_prec(r, p);
    if (k == 0) {
        mpfr_set_zero(r, 1);
        return FR_OK;
    }
    return exact_status(r, mpfr_sum(r, t, (unsigned long)k, MPFR_RNDN));
}
