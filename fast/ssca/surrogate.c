/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate.c -- internals of the surrogate recursions (surrogate.h). */
#include "surrogate.h"

int ffi_ssca_sizes(const size_t *Ni, size_t nc, size_t d, size_t B, size_t *N)
{
    if (ffi_check_mn(nc, d) != FR_OK || B == 0)
        return FR_ESIZE;
    size_t s = 0;
    for (size_t i = 0; i < nc; i++) {
        if (Ni[i] > FR_COUNT_MAX - s)
            return FR_ESIZE;
        s += Ni[i];
    }
    *N = s;
    return FR_OK;
}

int ffi_ssca_batch_ok(const size_t *Ni, size_t nc, size_t B)
{
    for (size_t i = 0; i < nc; i++)
        if (Ni[i] < B)
            return 0;
    return 1;
}

void ffi_ssca_weights(double *q, const size_t *Ni, size_t nc, size_t B, size_t N)
{
    double bn = (double)B * (double)N;
    for (size_t i = 0; i < nc; i++)
        q[i] = (double)Ni[i] / bn;
}

void ffi_ssca_colsum(double *s, const double *G, const double *q, size_t nc, size_t d)
{
    memset(s, 0, d * sizeof *s);
    if (nc <= INT_MAX && d <= INT_MAX) {
        cblas_dgemv(CblasRowMajor, CblasTrans, (int)nc, (int)d, 1.0, G, (int)d, q, 1, 0.0, s, 1);
        return;
    }
    for (size_t i = 0; i < nc; i++)            /* beyond BLAS's int sizes */
        for (size_t j = 0; j < d; j++)
            s[j] += q[i] * G[i * d + j];
}

void ffi_ssca_rowdot(double *r, const double *G, const double *w, size_t nc, size_t d)
{
    memset(r, 0, nc * sizeof *r);
    if (nc <= INT_MAX && d <= INT_MAX) {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)nc, (int)d, 1.0, G, (int)d, w, 1, 0.0, r, 1);
        return;
    }
    for (size_t i = 0; i < nc; i++)
        for (size_t j = 0; j < d; j++)
            r[i] += G[i * d + j] * w[j];
}

void ffi_ssca_mix(double *t, const double *x, const double *y, size_t n, double c)
{
    const double a = 1 - c;
    if (y == NULL)
        for (size_t k = 0; k < n; k++)
            t[k] = a * x[k] + 0.0;              /* + 0: -0 -> +0 */
    else
        for (size_t k = 0; k < n; k++)
            t[k] = (a * x[k] + c * y[k]) + 0.0;
}

static double mix_bound_at(const double *x, const double *y, size_t k, double a, double c)
{
    double T = a * fabs(x[k]) + (y ? c * fabs(y[k]) : 0.0);
    return 0x1p-51 * T + 0x1p-1073;
}

int ffi_ssca_mix_bound(double *b, const double *x, const double *y, size_t n, double c)
{
    const double a = 1 - c;
    for (size_t k = 0; k < n; k++)          /* first all finite, then written */
        if (!isfinite(mix_bound_at(x, y, k, a, c)))
            return FR_EDOM;
    for (size_t k = 0; k < n; k++)
        b[k] = mix_bound_at(x, y, k, a, c);
    return FR_OK;
}

int ffi_ssca_publish(double *out, const double *t, size_t n)
{
    if (!ffi_all_finite(t, n))
        return FR_ENONFINITE;
    memcpy(out, t, n * sizeof *out);
    return FR_OK;
}
