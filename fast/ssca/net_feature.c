/* SPDX-License-Identifier: Apache-2.0 */
/* net_feature.c -- the feature-based messages of the two-layer network,
 * 000 Sec. V (Algorithms 3-4, Steps 4-6) with the chain rule (20)-(21), in
 * binary64, and their proved bounds:
 *   ff_ssca_net_partial: h_i = Zi w1_i^T (dgemm): |h^ - h| <= gamma_Pi
 *     sum_p |z_{n,p} w1_{j,p}| + Pi 2^-1074 (ffi_ssca_eu_dot), the bound
 *     ff_ssca_net_partial_bound returns;
 *   ff_ssca_net_top, ff_ssca_net_bottom: u = sum_i H_i (blocks added in
 *     order i = 0, 1, ...: |U - u| <= gamma_{I-1} sum_i |H_i|,
 *     ffi_ssca_eu_sum), then the engine of net_eval.c: f and A (top), B_i
 *     with the client's features Zi (bottom); their bounds are (a)-(i) of
 *     net_eval.c with that eu.
 * Contract: include/fedfast/ssca.h. */
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"
#include "../internal.h"
#include "net_eval.h"

/* The checks of ff_ssca_net_partial and its bound (output h), in class order. */
static int partial_args(const double *h, const double *w1i, const double *Zi, size_t nb,
                        size_t J, size_t Pi)
{
    if (!h || !w1i || !Zi)
        return FR_ENULL;
    if (ffi_check_mn(J, Pi) != FR_OK || ffi_check_mn(nb, Pi) != FR_OK
        || ffi_check_mn(nb, J) != FR_OK)
        return FR_ESIZE;
    if (!ffi_all_finite(w1i, J * Pi) || !ffi_all_finite(Zi, nb * Pi))
        return FR_ENONFINITE;
    return FR_OK;
}

int ff_ssca_net_partial(double *h, const double *w1i, const double *Zi,
                        size_t nb, size_t J, size_t Pi)
{
    int st = partial_args(h, w1i, Zi, nb, J, Pi);
    if (st != FR_OK)
        return st;
    double *t = malloc(nb * J * sizeof *t);
    if (t == NULL)
        return FR_ENOMEM;
    ffi_ssca_gemm(0, 1, nb, J, Pi, Zi, Pi, w1i, Pi, t, J);    /* h = Zi w1_i^T */
    if (!ffi_all_finite(t, nb * J))
        st = FR_ENONFINITE;                                    /* overflow */
    for (size_t k = 0; st == FR_OK && k < nb * J; k++)
        h[k] = t[k] + 0.0;                                     /* -0 -> +0 */
    free(t);
    return st;
}

int ff_ssca_net_partial_bound(double *hb, const double *w1i, const double *Zi,
                              size_t nb, size_t J, size_t Pi)
{
    int st = partial_args(hb, w1i, Zi, nb, J, Pi);
    if (st == FR_OK)
        st = ffi_ssca_bound_range(nb, 1, J, Pi, 1);
    if (st != FR_OK)
        return st;
    double *t = malloc(nb * J * sizeof *t);
    if (t == NULL)
        return FR_ENOMEM;
    st = ffi_ssca_eu_dot(t, Zi, w1i, nb, J, Pi);
    if (st == FR_OK)
        memcpy(hb, t, nb * J * sizeof *t);
    free(t);
    return st;
}

/* The checks shared by top and bottom after their NULL tests, in class
 * order (H: nc x nb x J; Zi NULL for top). */
static int feature_args(const double *H, size_t nc, const double *w0, const size_t *y,
                        const double *Zi, size_t nb, size_t L, size_t J, size_t Pi)
{
    if (nc == 0 || ffi_check_mn(nb, J) != FR_OK || ffi_check_mn(nc, nb * J) != FR_OK
        || ffi_check_mn(L, J) != FR_OK || ffi_check_mn(nb, L) != FR_OK
        || (Zi && (ffi_check_mn(nb, Pi) != FR_OK || ffi_check_mn(J, Pi) != FR_OK)))
        return FR_ESIZE;
    if (!ffi_all_finite(H, nc * nb * J) || !ffi_all_finite(w0, L * J)
        || (Zi && !ffi_all_finite(Zi, nb * Pi)))
        return FR_ENONFINITE;
    if (L < 2)
        return FR_EDOM;
    int bad = 0;
    for (size_t n = 0; n < nb; n++)
        bad |= y[n] >= L;
    return bad ? FR_EDOM : FR_OK;
}

static int top_args(const double *f, const double *A, const double *H, size_t nc,
                    const double *w0, const size_t *y, size_t nb, size_t L, size_t J)
{
    if ((!f && !A) || !H || !w0 || !y)
        return FR_ENULL;
    int st = feature_args(H, nc, w0, y, NULL, nb, L, J, 0);
    if (st == FR_OK && f && A && ffi_overlap(f, sizeof *f, A, L * J * sizeof *A))
        st = FR_EDOM;                                          /* two outputs */
    return st;
}

static int bottom_args(const double *Bi, const double *H, size_t nc, const double *w0,
                       const size_t *y, const double *Zi, size_t nb, size_t L, size_t J,
                       size_t Pi)
{
    if (!Bi || !H || !w0 || !y || !Zi)
        return FR_ENULL;
    return feature_args(H, nc, w0, y, Zi, nb, L, J, Pi);
}

/* U = H_0 + H_1 + ... (nJ entries), in client order. */
static void sum_blocks(double *U, const double *H, size_t nc, size_t nJ)
{
    memcpy(U, H, nJ * sizeof *U);
    for (size_t i = 1; i < nc; i++)
        for (size_t k = 0; k < nJ; k++)
            U[k] = U[k] + H[i * nJ + k];
}

int ff_ssca_net_top(double *f, double *A, const double *H, size_t nc,
                    const double *w0, const size_t *y, size_t nb, size_t L, size_t J)
{
    int st = top_args(f, A, H, nc, w0, y, nb, L, J);
    if (st != FR_OK)
        return st;
    double *U = malloc(nb * J * sizeof *U);
    if (U == NULL)
        return FR_ENOMEM;
    sum_blocks(U, H, nc, nb * J);
    st = ffi_ssca_net_eval(f, A, NULL, U, w0, y, NULL, nb, L, J, 0);
    free(U);
    return st;
}

int ff_ssca_net_bottom(double *Bi, const double *H, size_t nc, const double *w0,
                       const size_t *y, const double *Zi, size_t nb, size_t L,
                       size_t J, size_t Pi)
{
    int st = bottom_args(Bi, H, nc, w0, y, Zi, nb, L, J, Pi);
    if (st != FR_OK)
        return st;
    double *U = malloc(nb * J * sizeof *U);
    if (U == NULL)
        return FR_ENOMEM;
    sum_blocks(U, H, nc, nb * J);
    st = ffi_ssca_net_eval(NULL, NULL, Bi, U, w0, y, Zi, nb, L, J, Pi);
    free(U);
    return st;
}

/* Ub (the bound's own U, summed as the functions sum it) and eu, then the
 * engine's bound. */
static int feature_bound(double *fb, double *Ab, double *Bb, const double *H, size_t nc,
                         const double *w0, const size_t *y, const double *Zi, size_t nb,
                         size_t L, size_t J, size_t Pi)
{
    const size_t nJ = nb * J;
    double *U = malloc(2 * nJ * sizeof *U);
    if (U == NULL)
        return FR_ENOMEM;
    sum_blocks(U, H, nc, nJ);
    int st = ffi_ssca_eu_sum(U + nJ, H, nc, nJ);
    if (st == FR_OK)
        st = ffi_ssca_net_bound(fb, Ab, Bb, U, U + nJ, w0, y, Zi, nb, L, J, Pi);
    free(U);
    return st;
}

int ff_ssca_net_top_bound(double *fb, double *Ab, const double *H, size_t nc,
                          const double *w0, const size_t *y, size_t nb, size_t L, size_t J)
{
    int st = top_args(fb, Ab, H, nc, w0, y, nb, L, J);   /* ff_ssca_net_top's checks */
    if (st == FR_OK)
        st = ffi_ssca_bound_range(nb, L, J, 1, nc);
    if (st != FR_OK)
        return st;
    return feature_bound(fb, Ab, NULL, H, nc, w0, y, NULL, nb, L, J, 0);
}

int ff_ssca_net_bottom_bound(double *Bb, const double *H, size_t nc, const double *w0,
                             const size_t *y, const double *Zi, size_t nb, size_t L,
                             size_t J, size_t Pi)
{
    int st = bottom_args(Bb, H, nc, w0, y, Zi, nb, L, J, Pi);
    if (st == FR_OK)
        st = ffi_ssca_bound_range(nb, L, J, Pi, nc);
    if (st != FR_OK)
        return st;
    return feature_bound(NULL, NULL, Bb, H, nc, w0, y, Zi, nb, L, J, Pi);
}
