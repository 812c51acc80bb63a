/* SPDX-License-Identifier: Apache-2.0 */
/* const.c -- fr_ssca_const: the constant term of the constraint surrogate,
 * 000 (14) first line (also (25), (42)):
 *   f0 <- (1 - rho) f0 + rho ( sum_i N_i/(B N) (F_i - G_i^T w) + tau ||w||^2 ).
 * With (15), the round-t term of (14) is
 *   sum_i N_i/(B N) [F_i + G_i^T (w' - w)] + tau ||w' - w||^2
 *   = (g - 2 tau w)^T w' + tau ||w'||^2 + [sum_i N_i/(B N) (F_i - G_i^T w) + tau ||w||^2]
 * (g = sum_i N_i/(B N) G_i): the bracket is this recursion's term, the
 * first one fr_ssca_lin's.  Over B N:
 *   [(1 - rho) B N f0 + rho sum_i N_i (F_i - G_i^T w) + rho tau B N ||w||^2] / (B N),
 * exact numerator, one division.  Contract: fedref/ssca.h. */
#include <stdlib.h>
#include "surrogate.h"

/* r = sum_j x[j] y[j] exactly (prod, ptr: d scratch entries). */
static int dot_exact(mpfr_ptr r, mpfr_t *const x, mpfr_t *const y, size_t d, mpfr_t *prod,
                     mpfr_ptr *ptr)
{
    int st = FR_OK;
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        st = fri_mul_exact(prod[j], x[j], y[j]);
        ptr[j] = prod[j];
    }
    return st == FR_OK ? fri_sum_exact(r, ptr, d) : st;
}

int fr_ssca_const(mpfr_t f0, mpfr_t *const w, mpfr_t *const G, mpfr_t *const F,
                  const size_t *Ni, size_t I, size_t d, size_t B,
                  const mpfr_t rho, const mpfr_t tau)
{
    size_t N;
    int st;
    if (f0 == NULL || w == NULL || G == NULL || F == NULL || Ni == NULL || rho == NULL
        || tau == NULL)
        return FR_ENULL;
    if ((st = fri_ssca_sizes(Ni, I, d, B, &N)) != FR_OK)
        return st;
    if (!mpfr_number_p(rho) || !mpfr_number_p(tau) || !mpfr_number_p(f0) || !fri_finite(w, d)
        || !fri_finite(G, I * d) || !fri_finite(F, I))
        return FR_ENONFINITE;
    if (!fri_ssca_unit(rho) || mpfr_sgn(tau) <= 0 || !fri_ssca_batch_ok(Ni, I, B))
        return FR_EDOM;
    fri_ssca_msg m;
    if (fri_ssca_msg_init(&m, Ni, I, B, N) != FR_OK)
        return FR_ENOMEM;
    mpfr_t *prod = fri_ssca_nums(d), *ei = fri_ssca_nums(I);
    mpfr_ptr *ptr = malloc((d > I ? d : I) * sizeof *ptr);
    if (prod == NULL || ei == NULL || ptr == NULL) {
        fri_ssca_nums_free(prod, d);
        fri_ssca_nums_free(ei, I);
        free(ptr);
        fri_ssca_msg_clear(&m);
        return FR_ENOMEM;
    }
    mpfr_t one, t0, t1, t2, num;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, t0, t1, t2, num, (mpfr_ptr)0);
    /* S = sum_i N_i (F_i - G_i^T w) */
    st = FR_OK;
    for (size_t i = 0; i < I && st == FR_OK; i++)
        if ((st = dot_exact(t0, G + i * d, w, d, prod, ptr)) == FR_OK
            && (st = fri_sub_exact(t1, F[i], t0)) == FR_OK)
            st = fri_mul_exact(ei[i], m.n[i], t1);
    for (size_t i = 0; i < I; i++)
        ptr[i] = ei[i];
    if (st == FR_OK && (st = fri_sum_exact(t2, ptr, I)) == FR_OK
        && (st = fri_mul_exact(ei[0], rho, t2)) == FR_OK           /* rho S */
        && (st = dot_exact(t0, w, w, d, prod, ptr)) == FR_OK        /* ||w||^2 */
        && (st = fri_mul_exact(t1, t0, tau)) == FR_OK
        && (st = fri_mul_exact(t2, t1, rho)) == FR_OK
        && (st = fri_mul_exact(t1, t2, m.bn)) == FR_OK              /* rho tau B N ||w||^2 */
        && (st = fri_sub_exact(t0, one, rho)) == FR_OK
        && (st = fri_mul_exact(t2, t0, m.bn)) == FR_OK
        && (st = fri_mul_exact(t0, t2, f0)) == FR_OK) {             /* (1 - rho) B N f0 */
        mpfr_ptr terms[3] = {t0, ei[0], t1};
        st = fri_sum_exact(num, terms, 3);
    }
    if (st == FR_OK)
        fri_ssca_write((mpfr_t *)f0, &num, 1, m.bn);
    mpfr_clears(one, t0, t1, t2, num, (mpfr_ptr)0);
    fri_ssca_nums_free(prod, d);
    fri_ssca_nums_free(ei, I);
    free(ptr);
    fri_ssca_msg_clear(&m);
    return st;
}
