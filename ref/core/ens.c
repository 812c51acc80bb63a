/* SPDX-License-Identifier: Apache-2.0 */
/* ens.c -- elastic-net aggregation (ENS), 002 eq. (14)-(16), corrected.
 *
 * Per coordinate, h(x) = sum_i lambda|x - v_i| + eta/2 (x - v_i)^2 is strictly
 * convex with one-sided derivatives
 *   D+(x) = lambda(#{v_i <= x} - #{v_i > x}) + eta(m x - S),
 *   D-(x) = lambda(#{v_i <  x} - #{v_i >= x}) + eta(m x - S),
 * S = sum_i v_i.  The minimiser x* has D-(x*) <= 0 <= D+(x*).  With
 * v_0 <= ... <= v_{m-1} and k the least index with D+(v_k) >= 0:
 *   D-(v_k) <= 0  =>  x* = v_k (a data value: the kink case);
 *   otherwise x* is in (v_{k-1}, v_k), s = m - k values lie above it, and
 *   x* = S/m + (lambda/eta)(2s/m - 1) = (eta S + lambda(m - 2k)) / (eta m).
 * Every sign below is the sign of an mpfr_sum of exact products, hence exact.
 * Contract: fedref.h. */
#include <limits.h>
#include <stdlib.h>
#include "../internal.h"

typedef struct {
    size_t m;
    mpfr_ptr *v;      /* the column, sorted ascending */
    mpfr_t *negp;     /* -eta v_i, exact, in sorted order */
    mpfr_ptr *terms;  /* m + 2 pointers for mpfr_sum */
    mpfr_t mx, lc, acc;
} col_t;

/* Sign of D+(v_k) (right = 1) or D-(v_k) (right = 0), exactly. */
static int dsign(col_t *c, size_t k, mpfr_srcptr lambda, int right)
{
    long cnt = 0;
    for (size_t i = 0; i < c->m; i++) {
        int r = mpfr_cmp(c->v[i], c->v[k]);
        cnt += right ? (r <= 0 ? 1 : -1) : (r < 0 ? 1 : -1);
    }
    mpfr_set_prec(c->mx, mpfr_get_prec(c->negp[k]) + 64);
    mpfr_mul_ui(c->mx, c->negp[k], c->m, MPFR_RNDN);   /* -eta m v_k, exact */
    mpfr_neg(c->mx, c->mx, MPFR_RNDN);
    mpfr_mul_si(c->lc, lambda, cnt, MPFR_RNDN);        /* exact */
    for (size_t i = 0; i < c->m; i++)
        c->terms[i] = c->negp[i];
    c->terms[c->m] = c->mx;
    c->terms[c->m + 1] = c->lc;
    mpfr_sum(c->acc, c->terms, c->m + 2, MPFR_RNDN);   /* correctly rounded: exact sign */
    return mpfr_sgn(c->acc);
}

/* out = (eta S + lambda(m - 2k)) / (eta m), correctly rounded (Ziv loop). */
static void interior(mpfr_ptr out, col_t *c, size_t k, mpfr_srcptr lambda, mpfr_srcptr eta)
{
    mpfr_prec_t p = mpfr_get_prec(out), wp = p + 32;
    mpfr_t em, num, q;
    mpfr_init2(em, mpfr_get_prec(eta) + 64);
    mpfr_mul_ui(em, eta, c->m, MPFR_RNDN);             /* exact */
    /* terms: -eta v_i and lambda(2k - m); their sum is -(eta S + lambda(m - 2k)) */
    mpfr_mul_si(c->lc, lambda, 2 * (long)k - (long)c->m, MPFR_RNDN);   /* exact */
    for (size_t i = 0; i < c->m; i++)
        c->terms[i] = c->negp[i];
    c->terms[c->m] = c->lc;
    mpfr_inits2(wp, num, q, (mpfr_ptr)0);
    for (;;) {
        int inex = mpfr_sum(num, c->terms, c->m + 1, MPFR_RNDN);  /* correctly rounded */
        mpfr_neg(num, num, MPFR_RNDN);
        if (mpfr_zero_p(num)) {                        /* exact zero */
            mpfr_set_zero(q, 1);
            break;
        }
        inex |= mpfr_div(q, num, em, MPFR_RNDN);       /* rel. err < 2^(2-wp) */
        if (inex == 0 || mpfr_can_round(q, wp - 2, MPFR_RNDN, MPFR_RNDZ, p + 1))
            break;                                     /* exact, or roundable */
        wp += wp / 2;
        mpfr_set_prec(num, wp);
        mpfr_set_prec(q, wp);
    }
    mpfr_set(out, q, MPFR_RNDN);
    mpfr_clears(em, num, q, (mpfr_ptr)0);
}

int fr_ens(mpfr_t *w, mpfr_t *const W, size_t m, size_t n,
           const mpfr_t lambda, const mpfr_t eta)
{
    int st = fri_check_ens_args(w, W, m, n, lambda, eta);
    if (st != FR_OK)
        return st;
    _Static_assert(FR_COUNT_MAX <= LONG_MAX / 4, "2k - m and the counts fit a long");
    col_t c = {.m = m};
    c.v = malloc(m * sizeof *c.v);
    c.negp = malloc(m * sizeof *c.negp);
    c.terms = malloc((m + 2) * sizeof *c.terms);
    mpfr_t *res = fri_temps_like(w, n);              /* outputs only on success */
    if (c.v == NULL || c.negp == NULL || c.terms == NULL || res == NULL) {
        free(c.v); free(c.negp); free(c.terms);
        if (res != NULL)
            fri_temps_done(res, w, n, 0);
        return FR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        mpfr_init2(c.negp[i], MPFR_PREC_MIN);
    mpfr_init2(c.mx, MPFR_PREC_MIN);
    mpfr_init2(c.lc, mpfr_get_prec(lambda) + 64);
    mpfr_init2(c.acc, MPFR_PREC_MIN + 8);
    for (size_t j = 0; j < n && st == FR_OK; j++) {
        for (size_t i = 0; i < m; i++)
            c.v[i] = W[i * n + j];
        fri_sort_ptrs(c.v, m);
        for (size_t i = 0; i < m; i++) {
            mpfr_set_prec(c.negp[i], mpfr_get_prec(eta) + mpfr_get_prec(c.v[i]));
            mpfr_mul(c.negp[i], eta, c.v[i], MPFR_RNDN);   /* exact */
            mpfr_neg(c.negp[i], c.negp[i], MPFR_RNDN);
        }
        /* least k with D+(v_k) >= 0; D+(v_{m-1}) >= lambda m > 0 */
        size_t lo = 0, hi = m - 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (dsign(&c, mid, lambda, 1) >= 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        if (dsign(&c, lo, lambda, 1) < 0) {
            st = FR_EINTERNAL;
        } else if (dsign(&c, lo, lambda, 0) <= 0) {
            mpfr_set(res[j], c.v[lo], MPFR_RNDN);        /* minimiser on a data value */
        } else if (lo == 0) {
            st = FR_EINTERNAL;                           /* D-(v_0) < 0 always */
        } else {
            interior(res[j], &c, lo, lambda, eta);
        }
    }
    for (size_t i = 0; i < m; i++)
        mpfr_clear(c.negp[i]);
    mpfr_clears(c.mx, c.lc, c.acc, (mpfr_ptr)0);
    free(c.v); free(c.negp); free(c.terms);
    fri_temps_done(res, w, n, st == FR_OK);
    return st;
}
