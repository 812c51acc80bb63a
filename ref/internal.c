/* internal.c -- argument checks and sorting shared by the ref/ sources. */
#include <stdlib.h>
#include "internal.h"

int fri_check_finite(mpfr_t *const x, size_t count)
{
    if (x == NULL)
        return FR_ENULL;
    for (size_t i = 0; i < count; i++)
        if (!mpfr_number_p(x[i]))
            return FR_ENONFINITE;
    return FR_OK;
}

int fri_check_dims(size_t m, size_t n)
{
    if (m == 0 || n == 0 || m > SIZE_MAX / n / sizeof(mpfr_t))
        return FR_ESIZE;
    return FR_OK;
}

int fri_check_param(mpfr_srcptr p, int allow_zero)
{
    if (p == NULL)
        return FR_ENULL;
    if (!mpfr_number_p(p))
        return FR_ENONFINITE;
    int s = mpfr_sgn(p);
    if (s < 0 || (s == 0 && !allow_zero))
        return FR_EDOM;
    return FR_OK;
}

int fri_check_ens_args(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                       mpfr_srcptr lambda, mpfr_srcptr eta)
{
    int st;
    if (w == NULL)
        return FR_ENULL;
    if ((st = fri_check_dims(m, n)) != FR_OK || (st = fri_check_param(lambda, 0)) != FR_OK
        || (st = fri_check_param(eta, 0)) != FR_OK || (st = fri_check_finite(W, m * n)) != FR_OK)
        return st;
    return FR_OK;
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
