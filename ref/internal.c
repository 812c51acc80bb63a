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
