/* SPDX-License-Identifier: Apache-2.0 */
/* ens_as_printed.c -- 002 eq. (13)/(15) and Algorithm 1 exactly as printed,
 * kept only for the errata check (docs/ERRATA.md E-002-13).  Descending
 * order v_1 >= ... >= v_m, v_{m+1} = -inf; the first s in 1..m with
 * v_s >= w(s) > v_{s+1}, w(s) = mean - (lambda/eta)(2s/m - 1), is returned.
 * Not correctly rounded: evaluated at prec(out) + 64 bits, then rounded. */
#include <stdlib.h>
#include "../internal.h"

int fr_ens_as_printed(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
                      const mpfr_t lambda, const mpfr_t eta)
{
    int st = fri_check_ens_args(w, W, m, n, lambda, eta);
    if (st != FR_OK)
        return st;
    mpfr_ptr *v = malloc(m * sizeof *v);
    mpfr_t *res = fri_temps_like(w, n);             /* outputs only on success */
    if (v == NULL || res == NULL) {
        free(v);
        if (res != NULL)
            fri_temps_done(res, w, n, 0);
        return FR_ENOMEM;
    }
    for (size_t j = 0; j < n && st == FR_OK; j++) {
        mpfr_prec_t wp = mpfr_get_prec(w[j]) + 64;
        mpfr_t mean, r, ws;
        mpfr_inits2(wp, mean, r, ws, (mpfr_ptr)0);
        for (size_t i = 0; i < m; i++)
            v[i] = W[i * n + j];
        mpfr_sum(mean, v, m, MPFR_RNDN);
        mpfr_div_ui(mean, mean, m, MPFR_RNDN);
        mpfr_div(r, lambda, eta, MPFR_RNDN);
        fri_sort_ptrs(v, m);                    /* ascending: v_s (desc) = v[m - s] */
        st = FR_EINTERNAL;
        for (size_t s = 1; s <= m; s++) {
            mpfr_set_si(ws, 2 * (long)s - (long)m, MPFR_RNDN);
            mpfr_div_ui(ws, ws, m, MPFR_RNDN);  /* 2s/m - 1 */
            mpfr_mul(ws, ws, r, MPFR_RNDN);
            mpfr_sub(ws, mean, ws, MPFR_RNDN);  /* printed sign: minus */
            if (mpfr_cmp(v[m - s], ws) >= 0 && (s == m || mpfr_cmp(ws, v[m - s - 1]) > 0)) {
                mpfr_set(res[j], ws, MPFR_RNDN);
                st = FR_OK;
                break;
            }
        }
        mpfr_clears(mean, r, ws, (mpfr_ptr)0);
    }
    free(v);
    fri_temps_done(res, w, n, st == FR_OK);
    return st;
}
