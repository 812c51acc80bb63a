/* SPDX-License-Identifier: Apache-2.0 */
/* net.c -- fr_ssca_net: the loss and gradient of the two-layer network of
 * 000 Sec. V, (28)-(30), summed over a batch: the sample-based client
 * message of Algorithms 1-2 (000 Sec. V-A, Step 4 of Algorithm 1).
 * u_{n,j} = sum_p w1_{j,p} z_{n,p} is formed exactly (exact products, one
 * exact sum), then the engine of net_eval.c encloses and rounds.
 * Contract: include/fedref/ssca.h. */
#include <stdlib.h>
#include "net_eval.h"

/* Class order (fedref_common.h); *d receives J (L + P). */
static int net_args(mpfr_ptr f, mpfr_t *g, mpfr_t *const w, size_t L, size_t J, size_t P,
                    mpfr_t *const Z, const size_t *y, size_t nb, size_t *d)
{
    if ((f == NULL && g == NULL) || w == NULL || Z == NULL || y == NULL)
        return FR_ENULL;
    if (fr_ssca_net_dim(L, J, P, d) != FR_OK || !fri_dims_ok(nb, P) || !fri_dims_ok(nb, J)
        || !fri_dims_ok(nb, L))
        return FR_ESIZE;
    if (f != NULL && mpfr_get_prec(f) > FR_PREC_MAX)
        return FR_EPREC;
    for (size_t k = 0; g != NULL && k < *d; k++)
        if (mpfr_get_prec(g[k]) > FR_PREC_MAX)
            return FR_EPREC;
    if (!fri_finite(w, *d) || !fri_finite(Z, nb * P))
        return FR_ENONFINITE;
    if (L < 2)
        return FR_EDOM;
    for (size_t n = 0; n < nb; n++)
        if (y[n] >= L)
            return FR_EDOM;
    if (f != NULL && g != NULL && fri_overlap(f, sizeof(mpfr_t), g, *d * sizeof(mpfr_t)))
        return FR_EDOM;                        /* two outputs */
    return FR_OK;
}

int fr_ssca_net(mpfr_t f, mpfr_t *g, mpfr_t *const w, size_t L, size_t J, size_t P,
                mpfr_t *const Z, const size_t *y, size_t nb)
{
    size_t d;
    int st = net_args(f, g, w, L, J, P, Z, y, nb, &d);
    if (st != FR_OK)
        return st;
    const size_t nJ = nb * J;
    mpfr_t *u = malloc(nJ * sizeof *u), *prod = malloc(P * sizeof *prod);
    mpfr_ptr *ptr = malloc(P * sizeof *ptr);
    size_t nu = 0, np = 0;
    if (u == NULL || prod == NULL || ptr == NULL)
        st = FR_ENOMEM;
    for (; st == FR_OK && np < P; np++)
        mpfr_init2(prod[np], MPFR_PREC_MIN);
    mpfr_t *const w1 = w + L * J;
    for (; st == FR_OK && nu < nJ; nu++) {     /* u_{n,j} = <w1_j, z_n>, exactly */
        mpfr_init2(u[nu], MPFR_PREC_MIN);
        size_t n = nu / J, j = nu % J;
        st = fri_ssca_dot_exact(u[nu], w1 + j * P, 1, Z + n * P, 1, P, prod, ptr);
    }
    if (st == FR_OK)
        st = fri_ssca_net_eval(f, g, g != NULL ? g + L * J : NULL, u, w, y, Z, nb, L, J, P);
    for (size_t k = 0; k < nu; k++)
        mpfr_clear(u[k]);
    for (size_t k = 0; k < np; k++)
        mpfr_clear(prod[k]);
    free(u);
    free(prod);
    free(ptr);
    return st;
}
