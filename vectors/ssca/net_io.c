/* SPDX-License-Identifier: Apache-2.0 */
/* net_io.c -- helpers of the network's vector schemas (net_io.h). */
#include <math.h>
#include <stdint.h>
#include "net_io.h"

size_t vnet_size(double x)
{
    return x >= 0 && x <= 0x1p32 && x == floor(x) ? (size_t)x : 0;
}

void vnet_labels(size_t *y, const double *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        y[k] = v[k] >= 0 && v[k] < 0x1p53 && v[k] == floor(v[k]) ? (size_t)v[k] : SIZE_MAX;
}

int vnet_labels_mp(size_t *y, mpfr_t *const v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        double x;
        int st = rt_exact_double(&x, v[k]);
        if (st != FR_OK)
            return st;
        vnet_labels(&y[k], &x, 1);
    }
    return FR_OK;
}

double vnet_max(double acc, const double *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        acc = fmax(acc, b[k]);
    return acc;
}

const size_t vnet_Pi[VNET_I] = {1, 2, 2}, vnet_p0[VNET_I] = {0, 1, 3};

void vnet_demo_draw(vgen *g, vnet_demo *d)
{
    const size_t L = VNET_L, J = VNET_J, P = VNET_P, nb = VNET_NB;
    for (size_t k = 0; k < J * (L + P); k++)
        d->w[k] = vg_dyadic(g, 6);                 /* k 2^-e, |k| < 64, e <= 10 */
    for (size_t k = 0; k < nb * P; k++)
        d->Z[k] = vg_dyadic(g, 6);
    for (size_t n = 0; n < nb; n++) {
        uint64_t r;
        frng_below(vg_rng(g), L, &r);
        d->y[n] = (double)r;
    }
    const double *w1 = d->w + L * J;
    for (size_t i = 0; i < VNET_I; i++) {
        const size_t Pi = vnet_Pi[i], p0 = vnet_p0[i];
        for (size_t j = 0; j < J; j++)
            for (size_t p = 0; p < Pi; p++)
                d->w1i[i][j * Pi + p] = w1[j * P + p0 + p];
        for (size_t n = 0; n < nb; n++)
            for (size_t p = 0; p < Pi; p++)
                d->Zi[i][n * Pi + p] = d->Z[n * P + p0 + p];
        for (size_t n = 0; n < nb; n++)        /* <= 2 products of 12-bit numbers: exact */
            for (size_t j = 0; j < J; j++) {
                double s = 0;
                for (size_t p = 0; p < Pi; p++)
                    s += d->w1i[i][j * Pi + p] * d->Zi[i][n * Pi + p];
                d->H[(i * nb + n) * J + j] = s;
            }
    }
}

size_t vnet_sample_messages(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t I, L, J, nb, r, e;
    frng_below(g, 3, &I); I++;
    frng_below(g, 3, &L); L += 2;
    frng_below(g, 4, &J); J++;
    frng_below(g, 5, &nb); nb++;
    ft_alloc(&par[0], 1, 1);
    par[0].v[0] = (double)I;
    ft_alloc(&in[0], I * nb, J);
    ft_alloc(&in[1], L, J);
    ft_alloc(&in[2], 1, nb);
    frng_below(g, 9, &e);
    for (size_t k = 0; k < I * nb * J; k++) {
        frng_below(g, 2049, &r);
        in[0].v[k] = ldexp((double)r - 1024, (int)e - 10);
    }
    for (size_t k = 0; k < L * J; k++) {
        frng_below(g, 2049, &r);
        in[1].v[k] = ldexp((double)r - 1024, -10);
    }
    for (size_t n = 0; n < nb; n++) {
        frng_below(g, L, &r);
        in[2].v[n] = (double)r;
    }
    return (size_t)nb;
}
