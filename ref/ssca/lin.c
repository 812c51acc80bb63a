/* SPDX-License-Identifier: Apache-2.0 */
/* lin.c -- fr_ssca_lin: the linear coefficient of the surrogate, 000 (9)
 * (also (14) second line, (23), (36)-(37); 001 (14)-(15)):
 *   f1 <- (1 - rho) f1 + rho ( sum_i N_i/(B N) G_i - 2 tau w ).
 * Over the common denominator B N the new f1_j is
 *   [(1 - rho) B N f1_j + rho sum_i N_i G_ij - 2 tau rho B N w_j] / (B N),
 * an exact numerator (N_i, B N integers; rho, tau, f1, w, G exact) and one
 * division: correctly rounded.  Contract: fedref/ssca.h. */
#include "surrogate.h"

int fr_ssca_lin(mpfr_t *f1, mpfr_t *const w, mpfr_t *const G, const size_t *Ni,
                size_t I, size_t d, size_t B, const mpfr_t rho, const mpfr_t tau)
{
    size_t N;
    int st;
    if (f1 == NULL || w == NULL || G == NULL || Ni == NULL || rho == NULL || tau == NULL)
        return FR_ENULL;
    if ((st = fri_ssca_sizes(Ni, I, d, B, &N)) != FR_OK)
        return st;
    if (!mpfr_number_p(rho) || !mpfr_number_p(tau) || !fri_finite(f1, d) || !fri_finite(w, d)
        || !fri_finite(G, I * d))
        return FR_ENONFINITE;
    if (!fri_ssca_unit(rho) || mpfr_sgn(tau) <= 0 || !fri_ssca_batch_ok(Ni, I, B))
        return FR_EDOM;
    fri_ssca_msg m;
    if (fri_ssca_msg_init(&m, Ni, I, B, N) != FR_OK)
        return FR_ENOMEM;
    mpfr_t *num = fri_ssca_nums(d);
    if (num == NULL) {
        fri_ssca_msg_clear(&m);
        return FR_ENOMEM;
    }
    mpfr_t one, a, c, t[4];
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, a, c, t[0], t[1], t[2], t[3], (mpfr_ptr)0);
    mpfr_ptr terms[3] = {t[1], t[2], t[3]};
    /* a = (1 - rho) B N, c = 2 tau rho B N, exact */
    if ((st = fri_sub_exact(t[0], one, rho)) == FR_OK && (st = fri_mul_exact(a, t[0], m.bn)) == FR_OK
        && (st = fri_mul_exact(t[0], tau, rho)) == FR_OK && (st = fri_mul_exact(c, t[0], m.bn)) == FR_OK)
        st = fri_ssca_twice(c);
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        if ((st = fri_ssca_msg_col(&m, t[0], G, d, j)) == FR_OK        /* sum_i N_i G_ij */
            && (st = fri_mul_exact(t[1], rho, t[0])) == FR_OK
            && (st = fri_mul_exact(t[2], a, f1[j])) == FR_OK
            && (st = fri_mul_exact(t[3], c, w[j])) == FR_OK) {
            mpfr_neg(t[3], t[3], MPFR_RNDN);                           /* exact */
            st = fri_sum_exact(num[j], terms, 3);
        }
    }
    if (st == FR_OK)
        fri_ssca_write(f1, num, d, m.bn);
    mpfr_clears(one, a, c, t[0], t[1], t[2], t[3], (mpfr_ptr)0);
    fri_ssca_nums_free(num, d);
    fri_ssca_msg_clear(&m);
    return st;
}
