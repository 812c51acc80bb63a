/* SPDX-License-Identifier: Apache-2.0 */
/* net.c -- ff_ssca_net and ff_ssca_net_bound: the loss and gradient of the
 * two-layer network of 000 Sec. V, (28)-(30), summed over a batch (the
 * sample-based client message of Algorithms 1-2), in binary64.
 *
 * U = Z W1^T (dgemm), then the engine of net_eval.c.  The error bound:
 * |U - u| <= eu = gamma_P sum_p |z_{n,p} w1_{j,p}| + P 2^-1074 (a dot
 * product of P terms in any order, FMA or not, products that underflow
 * losing <= 2^-1075 each: ffi_ssca_eu_dot), for this U and for the one
 * ff_ssca_net_bound computes, then (a)-(i) of net_eval.c with f's bound
 * for f and A's, B's for the blocks of g.  Contract: include/fedfast/ssca.h. */
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"
#include "net_eval.h"

/* The checks of ff_ssca_net and ff_ssca_net_bound (outputs a, b: f, g or
 * fb, gb), in class order; *d receives J (L + P). */
static int net_args(const double *a, const double *b, const double *w, size_t L, size_t J,
                    size_t P, const double *Z, const size_t *y, size_t nb, size_t *d)
{
    if ((!a && !b) || !w || !Z || !y)
        return FR_ENULL;
    if (fr_ssca_net_dim(L, J, P, d) != FR_OK || ffi_check_mn(nb, P) != FR_OK
        || ffi_check_mn(nb, J) != FR_OK || ffi_check_mn(nb, L) != FR_OK)
        return FR_ESIZE;
    if (!ffi_all_finite(w, *d) || !ffi_all_finite(Z, nb * P))
        return FR_ENONFINITE;
    if (L < 2)
        return FR_EDOM;
    int bad = 0;
    for (size_t n = 0; n < nb; n++)
        bad |= y[n] >= L;
    if (bad)
        return FR_EDOM;
    if (a && b && ffi_overlap(a, sizeof *a, b, *d * sizeof *b))
        return FR_EDOM;                        /* two outputs */
    return FR_OK;
}

int ff_ssca_net(double *f, double *g, const double *w, size_t L, size_t J, size_t P,
                const double *Z, const size_t *y, size_t nb)
{
    size_t d;
    int st = net_args(f, g, w, L, J, P, Z, y, nb, &d);
    if (st != FR_OK)
        return st;
    double *U = malloc(nb * J * sizeof *U);
    if (U == NULL)
        return FR_ENOMEM;
    ffi_ssca_gemm(0, 1, nb, J, P, Z, P, w + L * J, P, U, J);   /* U = Z W1^T */
    st = ffi_ssca_net_eval(f, g, g ? g + L * J : NULL, U, w, y, Z, nb, L, J, P);
    free(U);
    return st;
}

int ff_ssca_net_bound(double *fb, double *gb, const double *w, size_t L, size_t J, size_t P,
                      const double *Z, const size_t *y, size_t nb)
{
    size_t d;
    int st = net_args(fb, gb, w, L, J, P, Z, y, nb, &d);   /* ff_ssca_net's checks */
    if (st == FR_OK)
        st = ffi_ssca_bound_range(nb, L, J, P, 1);
    if (st != FR_OK)
        return st;
    double *U = malloc(2 * nb * J * sizeof *U);
    if (U == NULL)
        return FR_ENOMEM;
    double *eu = U + nb * J;
    ffi_ssca_gemm(0, 1, nb, J, P, Z, P, w + L * J, P, U, J);
    st = ffi_ssca_eu_dot(eu, Z, w + L * J, nb, J, P);
    if (st == FR_OK)
        st = ffi_ssca_net_bound(fb, gb, gb ? gb + L * J : NULL, U, eu, w, y, Z, nb, L, J, P);
    free(U);
    return st;
}
