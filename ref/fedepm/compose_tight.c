/* SPDX-License-Identifier: Apache-2.0 */
/* compose_tight.c -- fr_dp_compose_tight: the optimal composition of k pure
 * eps_j-DP releases (Kairouz, Oh & Viswanath 2015, Thms 2.4 and 3.5: every
 * eps-DP mechanism is dominated by randomized response RR_eps, so the
 * composition is dominated by the product of the RR_eps_j pairs, also
 * adaptively).  Contract: fedref.h; method: docs/DP.md section 5.
 *
 * Each eps_j is rounded up to the grid, eps'_j = k_j h >= eps_j (an eps_j-DP
 * release is eps'_j-DP).  The privacy loss of the product pair under its
 * first distribution is h S, S = sum_j k_j X_j with independent X_j = +1
 * with probability p_j = 1/(1 + e^-eps'_j) and -1 otherwise; its law is
 * built group by group (equal k_j: a binomial), every mass rounded up.
 * delta(e) = sum_{h s > e} P(s) (1 - e^{e - h s}) is, on a grid cell
 * [h (J-1), h J], A_J - e^e B_J with A_J = sum_{s >= J} P(s) (rounded up)
 * and B_J = sum_{s >= J} P(s) e^{-h s} (rounded down), so the least e is
 * found by a search over the cells and one logarithm in the last cell. */
#include <stdlib.h>
#include "../internal.h"
#include "enclosures.h"

#define TIGHT_K_MAX   ((size_t)1 << 16)   /* releases */
#define TIGHT_STEPS   64                  /* grid steps in the smallest eps_j */
#define TIGHT_KJ_MAX  (1ul << 12)         /* grid steps in the largest */
#define TIGHT_SUPPORT (1ul << 18)         /* sum_j k_j */
#define TIGHT_WORK    (1ul << 27)         /* products of the convolutions */

typedef fri_tight_group group;

static int cmp_ul(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

/* The groups (enclosures.h). */
size_t fri_dp_tight_groups(unsigned long *kj, group *g, unsigned long *sum, unsigned long *work,
                           mpfr_t *const eps, size_t k, mpfr_srcptr h, mpfr_ptr q)
{
    size_t m = 0;
    *sum = 0;
    *work = 0;
    for (size_t j = 0; j < k; j++) {
        mpfr_div(q, eps[j], h, MPFR_RNDU);
        if (mpfr_cmp_ui(q, TIGHT_KJ_MAX) > 0) return 0;
        kj[m] = mpfr_get_ui(q, MPFR_RNDU);         /* >= eps_j / h */
        if (kj[m] > 0) m++;
    }
    qsort(kj, m, sizeof *kj, cmp_ul);
    size_t ng = 0;
    unsigned long supp = 0;
    for (size_t j = 0; j < m; j++) {
        if (ng == 0 || g[ng - 1].k != kj[j]) g[ng++] = (group){kj[j], 0};
        g[ng - 1].n++;
        *sum += kj[j];
        if (*sum > TIGHT_SUPPORT) return 0;
    }
    for (size_t i = 0; i < ng; i++) {
        if (i > 0) {
            unsigned long w = (2 * supp + 1) * (g[i].n + 1);
            if (w > TIGHT_WORK - *work) return 0;
            *work += w;
        }
        supp += g[i].k * g[i].n;
    }
    *work += 1;
    return ng;
}

/* b[0..n] (enclosures.h), from b = n down (ratio (1-p)/p = e^{-k h}). */
void fri_dp_tight_binomial(mpfr_t *b, unsigned long n, unsigned long kk, mpfr_srcptr h, mpfr_ptr t,
                           mpfr_ptr r)
{
    mpfr_mul_ui(t, h, kk, MPFR_RNDU);              /* exact at the working precision */
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(r, t, MPFR_RNDU);                     /* e^{-k h}, up */
    mpfr_exp(t, t, MPFR_RNDD);
    mpfr_add_ui(t, t, 1, MPFR_RNDD);
    mpfr_ui_div(t, 1, t, MPFR_RNDU);               /* p, up */
    mpfr_pow_ui(b[n], t, n, MPFR_RNDU);
    for (unsigned long i = n; i > 0; i--) {
        mpfr_mul(b[i - 1], b[i], r, MPFR_RNDU);
        mpfr_mul_ui(b[i - 1], b[i - 1], i, MPFR_RNDU);
        mpfr_div_ui(b[i - 1], b[i - 1], n - i + 1, MPFR_RNDU);
    }
}

/* The composition of the groups (enclosures.h). */
int fri_dp_tight_law(mpfr_t *P, const group *g, size_t ng, unsigned long sum, mpfr_srcptr h,
                     mpfr_prec_t wp)
{
    const size_t len = 2 * (size_t)sum + 1;
    mpfr_t *Q = fri_vec_zero(len, wp), t, r;
    unsigned long nmax = 0;
    for (size_t i = 0; i < ng; i++) nmax = g[i].n > nmax ? g[i].n : nmax;
    mpfr_t *b = fri_vec_new(nmax + 1, wp);
    if (Q == NULL || b == NULL) {
        fri_vec_free(Q, len);
        fri_vec_free(b, nmax + 1);
        return FR_ENOMEM;
    }
    mpfr_inits2(wp, t, r, (mpfr_ptr)0);
    for (size_t x = 0; x < len; x++) mpfr_set_zero(P[x], 1);
    mpfr_set_ui(P[sum], 1, MPFR_RNDN);             /* S = 0 before any group */
    unsigned long lo = sum, hi = sum;              /* P is zero outside [lo, hi] */
    for (size_t i = 0; i < ng; i++) {
        const unsigned long kk = g[i].k, n = g[i].n;
        fri_dp_tight_binomial(b, n, kk, h, t, r);
        for (size_t x = lo; x <= hi; x++) {
            if (mpfr_zero_p(P[x])) continue;
            for (unsigned long c = 0; c <= n; c++) {
                size_t y = x + 2 * c * kk - n * kk;   /* S + k (2c - n) */
                mpfr_mul(t, P[x], b[c], MPFR_RNDU);
                mpfr_add(Q[y], Q[y], t, MPFR_RNDU);
            }
        }
        lo -= n * kk;
        hi += n * kk;
        for (size_t x = lo; x <= hi; x++) {
            mpfr_swap(P[x], Q[x]);
            mpfr_set_zero(Q[x], 1);
        }
    }
    mpfr_clears(t, r, (mpfr_ptr)0);
    fri_vec_free(Q, len);
    fri_vec_free(b, nmax + 1);
    return FR_OK;
}

/* delta at e = h J rounded up: A[J+1] - e^{h J} B[J+1] (0 beyond the top) */
static void delta_at(mpfr_ptr d, mpfr_t *A, mpfr_t *B, unsigned long J, unsigned long sum,
                     mpfr_srcptr h, mpfr_ptr t)
{
    if (J + 1 > sum) {
        mpfr_set_zero(d, 1);
        return;
    }
    mpfr_mul_ui(t, h, J, MPFR_RNDD);               /* exact */
    mpfr_exp(t, t, MPFR_RNDD);
    mpfr_mul(t, t, B[J + 1], MPFR_RNDD);
    mpfr_sub(d, A[J + 1], t, MPFR_RNDU);
}

/* The least e >= 0 with delta(e) <= delta (enclosures.h). */
void fri_dp_tight_least(mpfr_ptr out, mpfr_t *P, unsigned long sum, mpfr_srcptr h,
                        mpfr_srcptr delta, mpfr_prec_t wp, mpfr_t *A, mpfr_t *B)
{
    mpfr_t t, d, e;
    mpfr_inits2(wp, t, d, e, (mpfr_ptr)0);
    mpfr_set_zero(A[sum + 1], 1);
    mpfr_set_zero(B[sum + 1], 1);
    for (unsigned long s = sum; s >= 1; s--) {     /* suffix sums over s >= 1 */
        mpfr_add(A[s], A[s + 1], P[sum + s], MPFR_RNDU);
        mpfr_mul_ui(t, h, s, MPFR_RNDD);           /* exact */
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDD);
        mpfr_mul(t, t, P[sum + s], MPFR_RNDD);
        mpfr_add(B[s], B[s + 1], t, MPFR_RNDD);
    }
    /* the least J in [0, sum] with delta(h J) <= delta (delta(h sum) = 0) */
    unsigned long a = 0, b = sum;
    delta_at(d, A, B, 0, sum, h, t);
    if (mpfr_cmp(d, delta) <= 0) {
        mpfr_set_zero(out, 1);
    } else {
        while (b - a > 1) {                        /* delta(h a) > delta >= delta(h b) */
            unsigned long c = a + (b - a) / 2;
            delta_at(d, A, B, c, sum, h, t);
            if (mpfr_cmp(d, delta) <= 0) b = c; else a = c;
        }
        /* on [h (b-1), h b]: delta(e) = A_b - e^e B_b; e* = log((A_b - delta) / B_b) up */
        mpfr_sub(t, A[b], delta, MPFR_RNDU);
        if (mpfr_sgn(t) <= 0 || mpfr_zero_p(B[b])) {
            mpfr_mul_ui(e, h, b, MPFR_RNDU);
        } else {
            mpfr_div(t, t, B[b], MPFR_RNDU);
            mpfr_log(e, t, MPFR_RNDU);
            mpfr_mul_ui(t, h, b - 1, MPFR_RNDU);   /* exact */
            if (mpfr_cmp(e, t) < 0) mpfr_set(e, t, MPFR_RNDU);
            mpfr_mul_ui(t, h, b, MPFR_RNDU);
            if (mpfr_cmp(e, t) > 0) mpfr_set(e, t, MPFR_RNDU);
        }
        mpfr_set(out, e, MPFR_RNDU);
    }
    mpfr_clears(t, d, e, (mpfr_ptr)0);
}

int fr_dp_compose_tight(mpfr_t eps, mpfr_t *const epsj, size_t k, const mpfr_t delta)
{
    if (eps == NULL || epsj == NULL || delta == NULL)
        return FR_ENULL;
    if (k == 0 || k > TIGHT_K_MAX)
        return FR_ESIZE;
    if (!mpfr_number_p(delta))
        return FR_ENONFINITE;
    int inf = 0;
    for (size_t j = 0; j < k; j++) {
        if (mpfr_nan_p(epsj[j]) || (mpfr_inf_p(epsj[j]) && mpfr_sgn(epsj[j]) < 0))
            return FR_ENONFINITE;
        inf |= mpfr_inf_p(epsj[j]);
    }
    for (size_t j = 0; j < k; j++)
        if (mpfr_sgn(epsj[j]) < 0)
            return FR_EDOM;
    if (mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0)
        return FR_EDOM;
    if (inf) {
        mpfr_set_inf(eps, 1);
        return FR_OK;
    }
    const mpfr_prec_t wp = (mpfr_get_prec(eps) > 53 ? mpfr_get_prec(eps) : 53) + 64;
    mpfr_t h, q, emin, emax, tot;
    mpfr_inits2(wp, h, q, emin, emax, tot, (mpfr_ptr)0);
    mpfr_set_zero(emin, 1);
    mpfr_set_zero(emax, 1);
    for (size_t j = 0; j < k; j++) {
        if (mpfr_zero_p(epsj[j])) continue;
        if (mpfr_zero_p(emin) || mpfr_cmp(epsj[j], emin) < 0) mpfr_set(emin, epsj[j], MPFR_RNDD);
        if (mpfr_cmp(epsj[j], emax) > 0) mpfr_set(emax, epsj[j], MPFR_RNDU);
    }
    int st = FR_OK;
    if (mpfr_zero_p(emax)) {                       /* every release 0-DP */
        mpfr_set_zero(eps, 1);
        mpfr_clears(h, q, emin, emax, tot, (mpfr_ptr)0);
        return FR_OK;
    }
    /* the grid: TIGHT_STEPS steps in the smallest eps_j (taken >= 2^-900,
     * as fast must stay above the subnormals) unless the largest
     * would need more than TIGHT_KJ_MAX / 2 (both divisions exact), doubled
     * while the sum or the work exceeds its bound; h has 53 bits, so every
     * h s below is exact at wp */
    mpfr_set_prec(h, 53);
    if (mpfr_cmp_ui_2exp(emin, 1, -900) < 0) mpfr_set_ui_2exp(emin, 1, -900, MPFR_RNDN);
    mpfr_div_ui(h, emin, TIGHT_STEPS, MPFR_RNDU);
    mpfr_div_ui(q, emax, TIGHT_KJ_MAX / 2, MPFR_RNDU);
    if (mpfr_cmp(q, h) > 0) mpfr_set(h, q, MPFR_RNDU);
    unsigned long *kj = malloc(k * sizeof *kj), sum = 0, work = 0;
    group *g = malloc(k * sizeof *g);
    mpfr_t *P = NULL, *A = NULL, *B = NULL;
    size_t ng = 0, len = 0;
    if (kj == NULL || g == NULL) { st = FR_ENOMEM; goto out; }
    while ((ng = fri_dp_tight_groups(kj, g, &sum, &work, epsj, k, h, q)) == 0)
        mpfr_mul_2ui(h, h, 1, MPFR_RNDN);          /* coarser until the work fits */
    len = 2 * (size_t)sum + 1;
    P = fri_vec_new(len, wp);
    A = fri_vec_new(sum + 2, wp);
    B = fri_vec_new(sum + 2, wp);
    if (P == NULL || A == NULL || B == NULL) { st = FR_ENOMEM; goto out; }
    if ((st = fri_dp_tight_law(P, g, ng, sum, h, wp)) != FR_OK) goto out;
    fri_dp_tight_least(q, P, sum, h, delta, wp, A, B);
    /* never above the basic sum (pure, delta = 0): the grid can exceed it */
    mpfr_ptr *ptr = malloc(k * sizeof *ptr);
    if (ptr == NULL) { st = FR_ENOMEM; goto out; }
    for (size_t j = 0; j < k; j++) ptr[j] = epsj[j];
    mpfr_set_prec(tot, mpfr_get_prec(eps));
    mpfr_sum(tot, ptr, (unsigned long)k, MPFR_RNDU);
    free(ptr);
    if (mpfr_cmp(tot, q) < 0) mpfr_set(q, tot, MPFR_RNDU);
    mpfr_set(eps, q, MPFR_RNDU);
out:
    fri_vec_free(P, len);
    fri_vec_free(A, sum + 2);
    fri_vec_free(B, sum + 2);
    free(kj);
    free(g);
    mpfr_clears(h, q, emin, emax, tot, (mpfr_ptr)0);
    return st;
}
