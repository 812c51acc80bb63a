/* SPDX-License-Identifier: Apache-2.0 */
/* model.c -- the model of 003 Sec. V-A in MPFR: the mini-batch loss (25)
 * with its gradient, correctly rounded, and the test rule (26), decided
 * exactly.
 *
 * Notation (erratum E-003-25, docs): X_ij = a b^T is n x m, so X X_ij^T is
 * undefined for m != n; with X_ij = b a^T (m x n) Tr(X X_ij^T) = b^T X a =
 * x_k^T a, k the label.  For a batch of rows a_t with labels y_t:
 *   f  = (1/b) sum_t sp(u_t) + beta sum_{j,l} r(X_jl),
 *        u_t = x_{y_t}^T a_t, sp(u) = ln(1 + e^-u), r(x) = x^2 / (1 + x^2);
 *   g_kl = -(1/b) sum_{t: y_t = k} s(u_t) a_tl + 2 beta X_kl / (1 + X_kl^2)^2,
 *        s(u) = sigma(-u) = 1 / (1 + e^u).
 * The u_t are exact (exact products, one exact sum).
 * f: a Ziv loop on an MPFI enclosure (sp(u) = max(-u, 0) + log1p(e^-|u|)).
 *   With u_t = k_t q (q = 2^-s) and z = e^q (transcendental), b f = ln P(z)
 *   + rational, P(z) = prod_t (1 + z^-k_t), a Laurent polynomial with
 *   positive coefficients summing to 2^b > 1, hence not a monomial; f = c
 *   rational would give P(z) = e^{b c - r} = z^{(b c - r)/q}, a polynomial
 *   identity in the transcendental z after clearing the rational exponent:
 *   impossible.  So f is never a dyadic number nor a midpoint and the loop
 *   ends.
 * g: s(u) = tau(u) for u > 0, 1/2 for u = 0, 1 - tau(|u|) for u < 0 with
 *   tau(a) = 1/(1 + e^a); so g_kl = Q + sum_a K_a tau(a) (over the
 *   distinct a = |u_t| > 0 of class k), Q and K_a rational (GMP).  If every
 *   K_a = 0, g_kl = Q, rounded once (mpfr_set_q).  Otherwise g_kl is a
 *   non-constant rational function of z (tau(A), A the largest a with K_a
 *   != 0, alone has poles at the primitive 2A/q-th roots of unity; same
 *   argument as ref/fedepm/logreg.c): transcendental, and the loop ends.
 * Contract: fedref/fedpdm.h. */
#include <gmp.h>
#include <mpfi.h>
#include <limits.h>
#include <stdlib.h>
#include "../internal.h"

#define ZIV_MAX ((mpfr_prec_t)1 << 20)

static int mul_ovf(size_t a, size_t b) { return a != 0 && b > FR_COUNT_MAX / a; }

/* The common checks of the loss and the predictor, class order. */
static int check_args(mpfr_t *const X, size_t m, size_t n, mpfr_t *const A, const size_t *y, size_t b,
                      int need_y)
{
    if (X == NULL || A == NULL || (need_y && y == NULL))
        return FR_ENULL;
    if (m == 0 || n == 0 || b == 0 || mul_ovf(m, n) || mul_ovf(b, n) || m * n > FR_COUNT_MAX
        || b * n > FR_COUNT_MAX)
        return FR_ESIZE;
    if (y != NULL)
        for (size_t t = 0; t < b; t++)
            if (y[t] >= m)
                return FR_ESIZE;
    if (!fri_finite(X, m * n) || !fri_finite(A, b * n))
        return FR_ENONFINITE;
    return FR_OK;
}

/* r = x^T a exactly (n terms). */
static int dot_exact(mpfr_ptr r, mpfr_t *const x, mpfr_t *const a, size_t n, mpfr_t *prod, mpfr_ptr *pp)
{
    for (size_t l = 0; l < n; l++) {
        int st = fri_mul_exact(prod[l], x[l], a[l]);
        if (st != FR_OK)
            return st;
        pp[l] = prod[l];
    }
    return fri_sum_exact(r, pp, n);
}

static mpfr_t *mp_array(size_t k)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a != NULL)
        for (size_t t = 0; t < k; t++)
            mpfr_init2(a[t], MPFR_PREC_MIN);
    return a;
}

static void mp_free(mpfr_t *a, size_t k)
{
    if (a == NULL)
        return;
    for (size_t t = 0; t < k; t++)
        mpfr_clear(a[t]);
    free(a);
}

/* u[t] = x_{y_t}^T a_t exactly. */
static int batch_u(mpfr_t *u, mpfr_t *const X, size_t n, mpfr_t *const A, const size_t *y, size_t b)
{
    mpfr_t *prod = mp_array(n);
    mpfr_ptr *pp = malloc(n * sizeof *pp);
    int st = (prod == NULL || pp == NULL) ? FR_ENOMEM : FR_OK;
    for (size_t t = 0; t < b && st == FR_OK; t++)
        st = dot_exact(u[t], X + y[t] * n, A + t * n, n, prod, pp);
    mp_free(prod, n);
    free(pp);
    return st;
}

/* Enclosure of sp(u) = ln(1 + e^-u) at the precision of out. */
static void sp_enclose(mpfi_t out, mpfr_srcptr u, mpfi_t w)
{
    mpfi_set_fr(w, u);
    if (mpfr_sgn(u) >= 0) {             /* log1p(e^-u) */
        mpfi_neg(w, w);
        mpfi_exp(w, w);
        mpfi_log1p(out, w);
    } else {                            /* -u + log1p(e^u) */
        mpfi_exp(w, w);
        mpfi_log1p(w, w);
        mpfi_set_fr(out, u);
        mpfi_sub(out, w, out);
    }
}

/* The loss by a Ziv loop; rational part beta sum r(X) enclosed too. */
/* sum_t sp(u_t) / den_t + beta sum r(X) + gamma l1 (l1 = ||X||_1 exact, or
 * NULL), by a Ziv loop.  den_t = b (the loss) or N d_i (the objective). */
static int loss_ziv(mpfr_ptr f, mpfr_t *const u, const unsigned long *den, size_t b, mpfr_t *const X, size_t mn,
                    mpfr_srcptr beta, mpfr_srcptr gamma, mpfr_srcptr l1)
{
    mpfr_prec_t pf = mpfr_get_prec(f);
    int st = FR_EINTERNAL;
    mpfi_t s, w, t, rr;
    mpfr_t lo, hi;
    mpfi_init2(s, 64);
    mpfi_init2(w, 64);
    mpfi_init2(t, 64);
    mpfi_init2(rr, 64);
    mpfr_init2(lo, pf);
    mpfr_init2(hi, pf);
    for (mpfr_prec_t p = pf + 32; p <= ZIV_MAX; p *= 2) {
        mpfi_set_prec(s, p);
        mpfi_set_prec(w, p);
        mpfi_set_prec(t, p);
        mpfi_set_prec(rr, p);
        mpfi_set_ui(s, 0);
        for (size_t k = 0; k < b; k++) {
            sp_enclose(t, u[k], w);
            mpfi_div_ui(t, t, den[k]);
            mpfi_add(s, s, t);
        }
        if (l1 != NULL && !mpfr_zero_p(gamma)) {
            mpfi_set_fr(t, l1);
            mpfi_mul_fr(t, t, gamma);
            mpfi_add(s, s, t);
        }
        if (!mpfr_zero_p(beta)) {
            mpfi_set_ui(rr, 0);
            for (size_t k = 0; k < mn; k++) {
                if (mpfr_zero_p(X[k]))
                    continue;
                mpfi_set_fr(t, X[k]);
                mpfi_sqr(t, t);                 /* x^2 */
                mpfi_ui_div(t, 1, t);           /* 1/x^2 */
                mpfi_add_ui(t, t, 1);
                mpfi_ui_div(t, 1, t);           /* r = 1/(1 + 1/x^2), no dependency */
                mpfi_add(rr, rr, t);
            }
            mpfi_mul_fr(rr, rr, beta);
            mpfi_add(s, s, rr);
        }
        mpfr_set(lo, &s->left, MPFR_RNDN);
        mpfr_set(hi, &s->right, MPFR_RNDN);
        if (mpfr_number_p(lo) && mpfr_equal_p(lo, hi)) {
            mpfr_set(f, lo, MPFR_RNDN);
            st = FR_OK;
            break;
        }
        if (p > ZIV_MAX / 2)
            break;
    }
    mpfi_clear(s);
    mpfi_clear(w);
    mpfi_clear(t);
    mpfi_clear(rr);
    mpfr_clear(lo);
    mpfr_clear(hi);
    return st;
}

typedef struct {
    mpfr_srcptr a;
    size_t t;
} byabs_t;

static int cmp_byabs(const void *x, const void *y)
{
    const byabs_t *p = x, *q = y;
    int c = mpfr_cmpabs(p->a, q->a);
    return c != 0 ? c : (p->t > q->t) - (p->t < q->t);
}

/* One gradient entry g_kl.  ord[0..c) are class k's samples sorted by
 * |u|; Q is the rational part (without the 1/2 and u < 0 terms, added
 * here), K the group coefficients. */
static int grad_entry(mpfr_ptr g, const byabs_t *ord, size_t c, mpfr_t *const A, size_t n, size_t l,
                      size_t b, mpfr_srcptr xkl, mpfr_srcptr beta)
{
    mpq_t Q, K, q;
    mpq_inits(Q, K, q, NULL);
    /* Q = 2 beta x / (1 + x^2)^2 - (1/b) [sum_{u<0} a + (1/2) sum_{u=0} a] */
    mpq_t acc;
    mpq_init(acc);
    size_t ngroups = 0;
    for (size_t i = 0; i < c; i++) {
        mpfr_srcptr u = ord[i].a;
        mpfr_get_q(q, A[ord[i].t * n + l]);
        if (mpfr_zero_p(u)) {
            mpq_div_2exp(q, q, 1);
            mpq_add(acc, acc, q);
        } else if (mpfr_sgn(u) < 0) {
            mpq_add(acc, acc, q);
        }
    }
    mpq_set_ui(q, (unsigned long)b, 1);
    mpq_div(acc, acc, q);
    mpq_neg(Q, acc);
    if (!mpfr_zero_p(beta) && !mpfr_zero_p(xkl)) {
        mpq_t x, d;
        mpq_inits(x, d, NULL);
        mpfr_get_q(x, xkl);
        mpq_mul(d, x, x);
        mpq_set_ui(q, 1, 1);
        mpq_add(d, d, q);
        mpq_mul(d, d, d);
        mpq_div(x, x, d);
        mpfr_get_q(d, beta);
        mpq_mul(x, x, d);
        mpq_mul_2exp(x, x, 1);
        mpq_add(Q, Q, x);
        mpq_clears(x, d, NULL);
    }
    /* groups of equal |u| > 0: K_a = -(1/b) sum sign(u) a */
    mpq_t *Ks = malloc((c ? c : 1) * sizeof *Ks);
    size_t *rep = malloc((c ? c : 1) * sizeof *rep);
    int st = (Ks == NULL || rep == NULL) ? FR_ENOMEM : FR_OK;
    for (size_t i = 0; i < c && st == FR_OK;) {
        if (mpfr_zero_p(ord[i].a)) {
            i++;
            continue;
        }
        size_t j = i;
        mpq_set_ui(K, 0, 1);
        while (j < c && mpfr_cmpabs(ord[j].a, ord[i].a) == 0) {
            mpfr_get_q(q, A[ord[j].t * n + l]);
            if (mpfr_sgn(ord[j].a) > 0)
                mpq_sub(K, K, q);
            else
                mpq_add(K, K, q);
            j++;
        }
        if (mpq_sgn(K) != 0) {
            mpq_init(Ks[ngroups]);
            mpq_set_ui(q, (unsigned long)b, 1);
            mpq_div(Ks[ngroups], K, q);
            rep[ngroups++] = i;
        }
        i = j;
    }
    if (st == FR_OK && ngroups == 0) {
        mpfr_set_q(g, Q, MPFR_RNDN);
    } else if (st == FR_OK) {
        mpfr_prec_t pg = mpfr_get_prec(g);
        mpfi_t s, w, t;
        mpfr_t lo, hi;
        mpfi_init2(s, 64);
        mpfi_init2(w, 64);
        mpfi_init2(t, 64);
        mpfr_inits2(pg, lo, hi, (mpfr_ptr)0);
        st = FR_EINTERNAL;
        for (mpfr_prec_t p = pg + 32; p <= ZIV_MAX; p *= 2) {
            mpfi_set_prec(s, p);
            mpfi_set_prec(w, p);
            mpfi_set_prec(t, p);
            mpfi_set_q(s, Q);
            for (size_t h = 0; h < ngroups; h++) {
                mpfi_set_fr(w, ord[rep[h]].a);
                mpfi_abs(w, w);
                mpfi_exp(w, w);
                mpfi_add_ui(w, w, 1);
                mpfi_inv(w, w);                 /* tau(|u|) */
                mpfi_set_q(t, Ks[h]);
                mpfi_mul(t, t, w);
                mpfi_add(s, s, t);
            }
            mpfr_set(lo, &s->left, MPFR_RNDN);
            mpfr_set(hi, &s->right, MPFR_RNDN);
            if (mpfr_number_p(lo) && mpfr_equal_p(lo, hi)) {
                mpfr_set(g, lo, MPFR_RNDN);
                st = FR_OK;
                break;
            }
            if (p > ZIV_MAX / 2)
                break;
        }
        mpfi_clear(s);
        mpfi_clear(w);
        mpfi_clear(t);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    for (size_t h = 0; h < ngroups; h++)
        mpq_clear(Ks[h]);
    free(Ks);
    free(rep);
    mpq_clears(Q, K, q, acc, NULL);
    return st;
}

int fr_pdm_loss(mpfr_t f, mpfr_t *g, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A, const size_t *y,
                size_t b, const mpfr_t beta)
{
    if ((f == NULL && g == NULL) || beta == NULL)
        return FR_ENULL;
    int st = check_args(X, m, n, A, y, b, 1);
    if (st != FR_OK)
        return st;
    if (!mpfr_number_p(beta))
        return FR_ENONFINITE;
    if (mpfr_sgn(beta) < 0)
        return FR_EDOM;
    if (f != NULL && g != NULL && fri_overlap(f, sizeof(mpfr_t), g, m * n * sizeof(mpfr_t)))
        return FR_EDOM;
    size_t mn = m * n;
    mpfr_t *u = mp_array(b);
    mpfr_t *tg = g != NULL ? fri_temps_like(g, mn) : NULL;
    byabs_t *ord = malloc(b * sizeof *ord);
    mpfr_t tf;
    if (f != NULL)
        mpfr_init2(tf, mpfr_get_prec(f));
    if (u == NULL || ord == NULL || (g != NULL && tg == NULL))
        st = FR_ENOMEM;
    if (st == FR_OK)
        st = batch_u(u, X, n, A, y, b);
    if (st == FR_OK && f != NULL) {
        unsigned long *den = malloc(b * sizeof *den);
        for (size_t t = 0; den != NULL && t < b; t++)
            den[t] = (unsigned long)b;
        st = den == NULL ? FR_ENOMEM : loss_ziv(tf, u, den, b, X, mn, beta, NULL, NULL);
        free(den);
    }
    for (size_t k = 0; k < m && st == FR_OK && g != NULL; k++) {
        size_t c = 0;
        for (size_t t = 0; t < b; t++)
            if (y[t] == k)
                ord[c++] = (byabs_t){u[t], t};
        qsort(ord, c, sizeof *ord, cmp_byabs);
        for (size_t l = 0; l < n && st == FR_OK; l++)
            st = grad_entry(tg[k * n + l], ord, c, A, n, l, b, X[k * n + l], beta);
    }
    if (st == FR_OK && f != NULL)
        mpfr_set(f, tf, MPFR_RNDN);
    if (g != NULL && tg != NULL)
        fri_temps_done(tg, g, mn, st == FR_OK);
    if (f != NULL)
        mpfr_clear(tf);
    mp_free(u, b);
    free(ord);
    return st;
}

int fr_pdm_predict(size_t *pred, size_t *correct, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A,
                   const size_t *y, size_t b)
{
    if (pred == NULL && correct == NULL)
        return FR_ENULL;
    int st = check_args(X, m, n, A, y, b, correct != NULL);
    if (st != FR_OK)
        return st;
    size_t *tp = malloc(b * sizeof *tp);
    mpfr_t *prod = mp_array(n);
    mpfr_ptr *pp = malloc(n * sizeof *pp);
    mpfr_t best, cur;
    mpfr_inits2(MPFR_PREC_MIN, best, cur, (mpfr_ptr)0);
    if (tp == NULL || prod == NULL || pp == NULL)
        st = FR_ENOMEM;
    size_t ok = 0;
    for (size_t t = 0; t < b && st == FR_OK; t++) {
        size_t arg = 0;
        for (size_t k = 0; k < m && st == FR_OK; k++) {
            st = dot_exact(k == 0 ? best : cur, X + k * n, A + t * n, n, prod, pp);
            if (st == FR_OK && k > 0 && mpfr_cmp(cur, best) > 0) {   /* ties: the smallest k */
                mpfr_swap(cur, best);
                arg = k;
            }
        }
        tp[t] = arg;
        if (y != NULL && arg == y[t])
            ok++;
    }
    if (st == FR_OK) {
        if (pred != NULL)
            for (size_t t = 0; t < b; t++)
                pred[t] = tp[t];
        if (correct != NULL)
            *correct = ok;
    }
    mpfr_clears(best, cur, (mpfr_ptr)0);
    mp_free(prod, n);
    free(pp);
    free(tp);
    return st;
}

int fr_pdm_objective(mpfr_t F, mpfr_t *const X, const fr_pdm_problem *P)
{
    if (F == NULL || X == NULL || P == NULL)
        return FR_ENULL;
    int st = fr_pdm_problem_check(P);
    if ((st == FR_OK || st == FR_EDOM) && !fri_finite(X, P->m * P->n))
        return FR_ENONFINITE;                   /* X's class comes before P's FR_EDOM */
    if (st != FR_OK)
        return st;
    size_t m = P->m, n = P->n, N = P->N, D = 0;
    for (size_t i = 0; i < N; i++)
        D += P->d[i];
    if (N > ULONG_MAX || D > ULONG_MAX)
        return FR_ESIZE;
    for (size_t i = 0; i < N; i++)
        if (P->d[i] > ULONG_MAX / N)
            return FR_ESIZE;
    if (!fri_finite(X, m * n))
        return FR_ENONFINITE;
    mpfr_t *Am = mp_array(D * n), *u = mp_array(D), beta, gamma, l1, tf;
    unsigned long *den = malloc(D * sizeof *den);
    mpfr_ptr *pa = malloc(m * n * sizeof *pa);
    mpfr_t *ab = mp_array(m * n);
    mpfr_inits2(53, beta, gamma, (mpfr_ptr)0);
    mpfr_init2(l1, MPFR_PREC_MIN);
    mpfr_init2(tf, mpfr_get_prec(F));
    mpfr_set_d(beta, P->beta, MPFR_RNDN);
    mpfr_set_d(gamma, P->gamma, MPFR_RNDN);
    if (Am == NULL || u == NULL || den == NULL || pa == NULL || ab == NULL)
        st = FR_ENOMEM;
    for (size_t k = 0; st == FR_OK && k < D * n; k++) {
        mpfr_set_prec(Am[k], 53);
        mpfr_set_d(Am[k], P->A[k], MPFR_RNDN);
    }
    for (size_t i = 0, t = 0; st == FR_OK && i < N; i++)
        for (size_t j = 0; j < P->d[i]; j++, t++)
            den[t] = (unsigned long)(N * P->d[i]);
    if (st == FR_OK)
        st = batch_u(u, X, n, Am, P->y, D);
    for (size_t k = 0; st == FR_OK && k < m * n; k++) {
        mpfr_set_prec(ab[k], mpfr_get_prec(X[k]));
        mpfr_abs(ab[k], X[k], MPFR_RNDN);
        pa[k] = ab[k];
    }
    if (st == FR_OK)
        st = fri_sum_exact(l1, pa, m * n);
    if (st == FR_OK)
        st = loss_ziv(tf, u, den, D, X, m * n, beta, gamma, l1);
    if (st == FR_OK)
        mpfr_set(F, tf, MPFR_RNDN);
    mp_free(Am, D * n);
    mp_free(u, D);
    mp_free(ab, m * n);
    free(den);
    free(pa);
    mpfr_clears(beta, gamma, l1, tf, (mpfr_ptr)0);
    return st;
}
