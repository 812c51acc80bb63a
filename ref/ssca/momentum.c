/* SPDX-License-Identifier: Apache-2.0 */
/* momentum.c -- fr_ssca_momentum: the momentum form of 000 (11)-(12),
 *   v <- (1 - rho)(1 - gamma_prev) v + rho/(2 tau) sum_i N_i/(B N) G_i,
 *   w <- w - gamma v.
 * Derivation (docs/ERRATA.md E-000-12): with wbar_t = -f1_t/(2 tau) (the
 * printed (10)) and v_t = w_t - wbar_t, (9) gives
 *   v_t = (1 - rho_t)(w_t - wbar_{t-1}) + rho_t/(2 tau) g_t,
 * and (5) w_t = w_{t-1} - gamma_{t-1} v_{t-1} gives w_t - wbar_{t-1} =
 * (1 - gamma_{t-1}) v_{t-1} for t >= 2; for t = 1, wbar_0 = 0 (f1_0 = 0),
 * so w_1 - wbar_0 = w_1 = (1 - gamma_0) v_0 needs v_0 = w_1 (gamma_0 = 0),
 * not the printed v_0 = 0 (unless rho_1 = 1 or w_1 = 0).
 * With D = 2 tau B N and n_v = (1 - rho)(1 - gamma_prev) D v + rho
 * sum_i N_i G_i (exact), v = n_v / D and w - gamma v = (w D - gamma n_v) / D:
 * both correctly rounded from exact numerators.  Contract: fedref/ssca.h. */
#include "surrogate.h"

int fr_ssca_momentum(mpfr_t *v, mpfr_t *w, mpfr_t *const G, const size_t *Ni,
                     size_t I, size_t d, size_t B, const mpfr_t rho,
                     const mpfr_t gamma_prev, const mpfr_t gamma, const mpfr_t tau)
{
    size_t N;
    int st;
    if (v == NULL || w == NULL || G == NULL || Ni == NULL || rho == NULL || gamma_prev == NULL
        || gamma == NULL || tau == NULL)
        return FR_ENULL;
    if ((st = fri_ssca_sizes(Ni, I, d, B, &N)) != FR_OK)
        return st;
    if (!mpfr_number_p(rho) || !mpfr_number_p(gamma_prev) || !mpfr_number_p(gamma)
        || !mpfr_number_p(tau) || !fri_finite(v, d) || !fri_finite(w, d) || !fri_finite(G, I * d))
        return FR_ENONFINITE;
    if (!fri_ssca_unit(rho) || mpfr_sgn(gamma_prev) < 0 || mpfr_cmp_ui(gamma_prev, 1) > 0
        || !fri_ssca_unit(gamma) || mpfr_sgn(tau) <= 0 || !fri_ssca_batch_ok(Ni, I, B)
        || fri_overlap(v, d * sizeof *v, w, d * sizeof *w))
        return FR_EDOM;
    fri_ssca_msg m;
    if (fri_ssca_msg_init(&m, Ni, I, B, N) != FR_OK)
        return FR_ENOMEM;
    mpfr_t *nv = fri_ssca_nums(d), *nw = fri_ssca_nums(d);
    if (nv == NULL || nw == NULL) {
        fri_ssca_nums_free(nv, d);
        fri_ssca_nums_free(nw, d);
        fri_ssca_msg_clear(&m);
        return FR_ENOMEM;
    }
    mpfr_t one, D, a, t0, t1, t2;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_inits2(MPFR_PREC_MIN, D, a, t0, t1, t2, (mpfr_ptr)0);
    /* D = 2 tau B N; a = (1 - rho)(1 - gamma_prev) D; exact */
    if ((st = fri_mul_exact(D, tau, m.bn)) == FR_OK && (st = fri_ssca_twice(D)) == FR_OK
        && (st = fri_sub_exact(t0, one, rho)) == FR_OK && (st = fri_sub_exact(t1, one, gamma_prev)) == FR_OK
        && (st = fri_mul_exact(t2, t0, t1)) == FR_OK)
        st = fri_mul_exact(a, t2, D);
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        if ((st = fri_ssca_msg_col(&m, t0, G, d, j)) == FR_OK           /* sum_i N_i G_ij */
            && (st = fri_mul_exact(t1, rho, t0)) == FR_OK
            && (st = fri_mul_exact(t2, a, v[j])) == FR_OK
            && (st = fri_add_exact(nv[j], t2, t1)) == FR_OK              /* n_v */
            && (st = fri_mul_exact(t0, w[j], D)) == FR_OK
            && (st = fri_mul_exact(t1, gamma, nv[j])) == FR_OK)
            st = fri_sub_exact(nw[j], t0, t1);                           /* w D - gamma n_v */
    }
    if (st == FR_OK) {
        fri_ssca_write(v, nv, d, D);
        fri_ssca_write(w, nw, d, D);
    }
    mpfr_clears(one, D, a, t0, t1, t2, (mpfr_ptr)0);
    fri_ssca_nums_free(nv, d);
    fri_ssca_nums_free(nw, d);
    fri_ssca_msg_clear(&m);
    return st;
}
