/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate.c -- internals of the surrogate recursions (surrogate.h). */
#include <limits.h>
#include <stdlib.h>
#include "surrogate.h"

int fri_ssca_sizes(const size_t *Ni, size_t I, size_t d, size_t B, size_t *N)
{
    if (!fri_dims_ok(I, d) || B == 0)
        return FR_ESIZE;
    size_t s = 0;
    for (size_t i = 0; i < I; i++) {
        if (Ni[i] > FR_COUNT_MAX - s)
            return FR_ESIZE;                  /* N > FR_COUNT_MAX, no wrap-around */
        s += Ni[i];
    }
    *N = s;
    return FR_OK;
}

int fri_ssca_batch_ok(const size_t *Ni, size_t I, size_t B)
{
    for (size_t i = 0; i < I; i++)
        if (Ni[i] < B)
            return 0;
    return 1;
}

int fri_ssca_unit(mpfr_srcptr x)
{
    return mpfr_sgn(x) > 0 && mpfr_cmp_ui(x, 1) <= 0;
}

/* x = k exactly (x has 64 bits). */
static void set_size(mpfr_ptr x, size_t k)
{
    if (k <= ULONG_MAX) {
        mpfr_set_ui(x, (unsigned long)k, MPFR_RNDN);
    } else {                                  /* size_t wider than long */
        mpfr_set_ui(x, (unsigned long)(k >> 32), MPFR_RNDN);
        mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
        mpfr_add_ui(x, x, (unsigned long)(k & 0xffffffffu), MPFR_RNDN);
    }
}

int fri_ssca_msg_init(fri_ssca_msg *m, const size_t *Ni, size_t I, size_t B, size_t N)
{
    m->I = I;
    m->n = malloc(I * sizeof *m->n);
    m->prod = malloc(I * sizeof *m->prod);
    m->ptr = malloc(I * sizeof *m->ptr);
    if (m->n == NULL || m->prod == NULL || m->ptr == NULL) {
        free(m->n); free(m->prod); free(m->ptr);
        return FR_ENOMEM;
    }
    for (size_t i = 0; i < I; i++) {
        mpfr_init2(m->n[i], 64);
        set_size(m->n[i], Ni[i]);
        mpfr_init2(m->prod[i], MPFR_PREC_MIN);
        m->ptr[i] = m->prod[i];
    }
    mpfr_t b;
    mpfr_init2(b, 64);
    mpfr_init2(m->bn, 128);
    set_size(b, B);
    set_size(m->bn, N);
    mpfr_mul(m->bn, m->bn, b, MPFR_RNDN);    /* exact: 64 + 64 bits */
    mpfr_clear(b);
    return FR_OK;
}

void fri_ssca_msg_clear(fri_ssca_msg *m)
{
    for (size_t i = 0; i < m->I; i++) {
        mpfr_clear(m->n[i]);
        mpfr_clear(m->prod[i]);
    }
    mpfr_clear(m->bn);
    free(m->n); free(m->prod); free(m->ptr);
}

int fri_ssca_msg_col(fri_ssca_msg *m, mpfr_ptr r, mpfr_t *const G, size_t d, size_t j)
{
    int st = FR_OK;
    for (size_t i = 0; i < m->I && st == FR_OK; i++)
        st = fri_mul_exact(m->prod[i], m->n[i], G[i * d + j]);
    return st == FR_OK ? fri_sum_exact(r, m->ptr, m->I) : st;
}

int fri_ssca_twice(mpfr_ptr x)
{
    return mpfr_mul_2ui(x, x, 1, MPFR_RNDN) != 0 || !mpfr_number_p(x) ? FR_EPREC : FR_OK;
}

mpfr_t *fri_ssca_nums(size_t n)
{
    mpfr_t *num = malloc((n ? n : 1) * sizeof *num);
    if (num != NULL)
        for (size_t j = 0; j < n; j++)
            mpfr_init2(num[j], MPFR_PREC_MIN);
    return num;
}

void fri_ssca_nums_free(mpfr_t *num, size_t n)
{
    if (num == NULL)
        return;
    for (size_t j = 0; j < n; j++)
        mpfr_clear(num[j]);
    free(num);
}

void fri_ssca_write(mpfr_t *out, mpfr_t *const num, size_t n, mpfr_srcptr den)
{
    for (size_t j = 0; j < n; j++) {
        if (mpfr_zero_p(num[j]))
            mpfr_set_zero(out[j], 1);                     /* the contract's +0 */
        else if (den != NULL)
            mpfr_div(out[j], num[j], den, MPFR_RNDN);     /* the one rounding */
        else
            mpfr_set(out[j], num[j], MPFR_RNDN);
    }
}
