/* SPDX-License-Identifier: Apache-2.0 */
/* net_feature.c -- the feature-based messages of the two-layer network,
 * 000 Sec. V (Algorithms 3-4, Steps 4-6) with the chain rule (20)-(21):
 *   fr_ssca_net_partial: client i's h_i = Zi w1_i^T (nb x J), the
 *     h_{0,i}(omega_i, x_{n,i}) of (17) for this network (H_0 = J);
 *   fr_ssca_net_top: the aggregator's f = sum_n loss_n and A = sum_n abar_n
 *     (29), from u = sum_i h_i;
 *   fr_ssca_net_bottom: client i's B_i = sum_n bbar_n (30) restricted to
 *     its features, from u.
 * u = sum_i h_i is formed exactly (one exact sum per entry), then the
 * engine of net_eval.c encloses and rounds, so top/bottom of the exact
 * h_i equal the blocks of fr_ssca_net (proofs_checks/ssca/check_net_feature.c).
 * Contract: include/fedref/ssca.h. */
#include <stdlib.h>
#include "net_eval.h"

static int precs_ok(mpfr_t *const x, size_t k)
{
    for (size_t i = 0; x != NULL && i < k; i++)
        if (mpfr_get_prec(x[i]) > FR_PREC_MAX)
            return 0;
    return 1;
}

int fr_ssca_net_partial(mpfr_t *h, mpfr_t *const w1i, mpfr_t *const Zi,
                        size_t nb, size_t J, size_t Pi)
{
    if (h == NULL || w1i == NULL || Zi == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(J, Pi) || !fri_dims_ok(nb, Pi) || !fri_dims_ok(nb, J))
        return FR_ESIZE;
    if (!precs_ok(h, nb * J))
        return FR_EPREC;
    if (!fri_finite(w1i, J * Pi) || !fri_finite(Zi, nb * Pi))
        return FR_ENONFINITE;
    const size_t nJ = nb * J;
    mpfr_t *ht = fri_temps_like(h, nJ), *prod = malloc(Pi * sizeof *prod), x;
    mpfr_ptr *ptr = malloc(Pi * sizeof *ptr);
    int st = ht != NULL && prod != NULL && ptr != NULL ? FR_OK : FR_ENOMEM;
    size_t np = 0;
    for (; st == FR_OK && np < Pi; np++)
        mpfr_init2(prod[np], MPFR_PREC_MIN);
    mpfr_init2(x, MPFR_PREC_MIN);
    for (size_t k = 0; st == FR_OK && k < nJ; k++) {   /* one exact dot, one rounding */
        size_t n = k / J, j = k % J;
        st = fri_ssca_dot_exact(x, w1i + j * Pi, 1, Zi + n * Pi, 1, Pi, prod, ptr);
        if (st == FR_OK)
            mpfr_set(ht[k], x, MPFR_RNDN);     /* +0 stays +0 */
    }
    if (ht != NULL)
        fri_temps_done(ht, h, nJ, st == FR_OK);
    for (size_t k = 0; k < np; k++)
        mpfr_clear(prod[k]);
    mpfr_clear(x);
    free(prod);
    free(ptr);
    return st;
}

/* The checks shared by top and bottom after their NULL tests, in class
 * order: sizes (H is I x nb x J), the output precisions, finiteness of H,
 * w0 and Zi (NULL: none), L >= 2 and the labels. */
static int feature_args(mpfr_t *const H, size_t nc, mpfr_t *const w0, const size_t *y,
                        mpfr_t *const Zi, size_t nb, size_t L, size_t J, size_t Pi,
                        mpfr_ptr f, mpfr_t *out, size_t nout)
{
    if (nc == 0 || !fri_dims_ok(nb, J) || !fri_dims_ok(nc, nb * J) || !fri_dims_ok(L, J)
        || !fri_dims_ok(nb, L) || (Zi != NULL && (!fri_dims_ok(nb, Pi) || !fri_dims_ok(J, Pi))))
        return FR_ESIZE;
    if ((f != NULL && mpfr_get_prec(f) > FR_PREC_MAX) || !precs_ok(out, nout))
        return FR_EPREC;
    if (!fri_finite(H, nc * nb * J) || !fri_finite(w0, L * J)
        || (Zi != NULL && !fri_finite(Zi, nb * Pi)))
        return FR_ENONFINITE;
    if (L < 2)
        return FR_EDOM;
    for (size_t n = 0; n < nb; n++)
        if (y[n] >= L)
            return FR_EDOM;
    return FR_OK;
}

/* u = sum_i H_i exactly, then the engine. */
static int from_H(mpfr_ptr f, mpfr_t *A, mpfr_t *B, mpfr_t *const H, size_t nc, mpfr_t *const w0,
                  const size_t *y, mpfr_t *const Zi, size_t nb, size_t L, size_t J, size_t Pi)
{
    const size_t nJ = nb * J;
    mpfr_t *u = malloc(nJ * sizeof *u);
    mpfr_ptr *ptr = malloc(nc * sizeof *ptr);
    int st = u != NULL && ptr != NULL ? FR_OK : FR_ENOMEM;
    size_t nu = 0;
    for (; st == FR_OK && nu < nJ; nu++) {
        mpfr_init2(u[nu], MPFR_PREC_MIN);
        for (size_t i = 0; i < nc; i++)
            ptr[i] = H[i * nJ + nu];
        st = fri_sum_exact(u[nu], ptr, nc);
    }
    if (st == FR_OK)
        st = fri_ssca_net_eval(f, A, B, u, w0, y, Zi, nb, L, J, Pi);
    for (size_t k = 0; k < nu; k++)
        mpfr_clear(u[k]);
    free(u);
    free(ptr);
    return st;
}

int fr_ssca_net_top(mpfr_t f, mpfr_t *A, mpfr_t *const H, size_t nc,
                    mpfr_t *const w0, const size_t *y, size_t nb, size_t L, size_t J)
{
    if ((f == NULL && A == NULL) || H == NULL || w0 == NULL || y == NULL)
        return FR_ENULL;
    int st = feature_args(H, nc, w0, y, NULL, nb, L, J, 0, f, A, A != NULL ? L * J : 0);
    if (st == FR_OK && f != NULL && A != NULL
        && fri_overlap(f, sizeof(mpfr_t), A, L * J * sizeof(mpfr_t)))
        st = FR_EDOM;                          /* two outputs */
    if (st != FR_OK)
        return st;
    return from_H(f, A, NULL, H, nc, w0, y, NULL, nb, L, J, 0);
}

int fr_ssca_net_bottom(mpfr_t *Bi, mpfr_t *const H, size_t nc, mpfr_t *const w0,
                       const size_t *y, mpfr_t *const Zi, size_t nb, size_t L,
                       size_t J, size_t Pi)
{
    if (Bi == NULL || H == NULL || w0 == NULL || y == NULL || Zi == NULL)
        return FR_ENULL;
    int st = feature_args(H, nc, w0, y, Zi, nb, L, J, Pi, NULL, Bi, J * Pi);
    if (st != FR_OK)
        return st;
    return from_H(NULL, NULL, Bi, H, nc, w0, y, Zi, nb, L, J, Pi);
}
