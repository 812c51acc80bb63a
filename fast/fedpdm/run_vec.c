/* SPDX-License-Identifier: Apache-2.0 */
/* run_vec.c -- the O(D) passes of ff_pdm_run's local steps, in blocks of 8
 * entries (FFI_VERSIONS: the baseline, AVX2 and AVX-512F builds perform the
 * same operations in the same order and return the same bits).  Measured at
 * D = 7850 (m = 10, n = 785; /tmp/fedpdm-fast.md): with scalar loops these
 * passes and h were about 40% of a local step. */
#include "run.h"
#include "model.h"

/* g_k = beta h(X_k).  The vector pass evaluates h_of's first branch,
 * 2x/(1 + x^2)^2 (one division), for every entry and returns max |X_k|;
 * entries with |X_k| > 1 (rare: the iterates are small) are redone by
 * h_of's second branch.  So g_k = beta h_of(X_k), bit for bit. */
FFI_INLINE double hgrad_body(double *restrict g, const double *restrict X, size_t D, double beta)
{
    double mx[8] = {0};
    size_t k = 0;
    for (; k + 8 <= D; k += 8)
        for (size_t l = 0; l < 8; l++) {
            const double x = X[k + l], q = 1 + x * x, ax = fabs(x);
            g[k + l] = beta * (2 * x / (q * q));
            mx[l] = ax > mx[l] ? ax : mx[l];
        }
    for (; k < D; k++) {
        const double x = X[k], q = 1 + x * x, ax = fabs(x);
        g[k] = beta * (2 * x / (q * q));
        mx[0] = ax > mx[0] ? ax : mx[0];
    }
    for (size_t l = 1; l < 8; l++)
        mx[0] = mx[l] > mx[0] ? mx[l] : mx[0];
    return mx[0];
}
FFI_VERSIONS(double, hgrad, (double *restrict g, const double *restrict X, size_t D, double beta),
             (g, X, D, beta))

void ffi_pdm_hgrad(double *g, const double *X, size_t D, double beta)
{
    if (hgrad(g, X, D, beta) > 1)
        for (size_t k = 0; k < D; k++)
            if (fabs(X[k]) > 1)
                g[k] = beta * h_of(X[k]);
}

/* One local step (10a): v = (g - lam) + rho (x - x0), x <- x - eta v,
 * returns ||v||^2 in 8 partial sums. */
FFI_INLINE double step_body(double *restrict x, const double *restrict g, const double *restrict lam,
                            const double *restrict x0, size_t D, double rho, double eta)
{
    double a[8] = {0};
    size_t k = 0;
    for (; k + 8 <= D; k += 8)
        for (size_t l = 0; l < 8; l++) {
            const double v = (g[k + l] - lam[k + l]) + rho * (x[k + l] - x0[k + l]);
            a[l] += v * v;
            x[k + l] -= eta * v;
        }
    for (size_t l = 0; k < D; k++, l++) {
        const double v = (g[k] - lam[k]) + rho * (x[k] - x0[k]);
        a[l] += v * v;
        x[k] -= eta * v;
    }
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}
FFI_VERSIONS(double, step,
             (double *restrict x, const double *restrict g, const double *restrict lam,
              const double *restrict x0, size_t D, double rho, double eta),
             (x, g, lam, x0, D, rho, eta))

double ffi_pdm_step(double *x, const double *g, const double *lam, const double *x0, size_t D, double rho,
                    double eta)
{
    return step(x, g, lam, x0, D, rho, eta);
}

/* ||x||^2 in 8 partial sums. */
FFI_INLINE double sumsq_body(const double *restrict x, size_t n)
{
    double a[8] = {0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (size_t l = 0; l < 8; l++)
            a[l] += x[j + l] * x[j + l];
    for (size_t l = 0; j < n; j++, l++)
        a[l] += x[j] * x[j];
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}
FFI_VERSIONS(double, sumsq, (const double *restrict x, size_t n), (x, n))

double ffi_pdm_sumsq(const double *x, size_t n)
{
    return sumsq(x, n);
}

/* c += y (the server's sum). */
FFI_INLINE int addto_body(double *restrict c, const double *restrict y, size_t D)
{
    size_t k = 0;
    for (; k + 8 <= D; k += 8)
        for (size_t l = 0; l < 8; l++)
            c[k + l] += y[k + l];
    for (; k < D; k++)
        c[k] += y[k];
    return 0;
}
FFI_VERSIONS(int, addto, (double *restrict c, const double *restrict y, size_t D), (c, y, D))

void ffi_pdm_addto(double *c, const double *y, size_t D)
{
    (void)addto(c, y, D);
}

/* (10b)-(10d) of a client: x = xr, lam += rho (x0 - x), yt = x - lam / rho
 * (run.c's per-entry operations, in vector widths). */
FFI_INLINE int close_body(double *restrict x, double *restrict lam, double *restrict yt,
                          const double *restrict xr, const double *restrict x0, size_t D, double rho)
{
    for (size_t k = 0; k < D; k++) {
        const double xk = xr[k], lk = lam[k] + rho * (x0[k] - xk);
        x[k] = xk;
        lam[k] = lk;
        yt[k] = xk - lk / rho;
    }
    return 0;
}
FFI_VERSIONS(int, close,
             (double *restrict x, double *restrict lam, double *restrict yt, const double *restrict xr,
              const double *restrict x0, size_t D, double rho),
             (x, lam, yt, xr, x0, D, rho))

void ffi_pdm_close(double *x, double *lam, double *yt, const double *xr, const double *x0, size_t D, double rho)
{
    (void)close(x, lam, yt, xr, x0, D, rho);
}

/* c /= dn (the server's mean). */
FFI_INLINE int divby_body(double *restrict c, size_t D, double dn)
{
    for (size_t k = 0; k < D; k++)
        c[k] /= dn;
    return 0;
}
FFI_VERSIONS(int, divby, (double *restrict c, size_t D, double dn), (c, D, dn))

void ffi_pdm_divby(double *c, size_t D, double dn)
{
    (void)divby(c, D, dn);
}
