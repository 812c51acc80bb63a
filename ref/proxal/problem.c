/* SPDX-License-Identifier: Apache-2.0 */
/* problem.c -- fr_proxal_client_eval: f_i, c_i and their derivatives for
 * the problems (25)-(28) of 004 in MPFR (contract: fedref/proxal.h).
 * QP (25): every output is a finite sum of exact products of the binary64
 *   data and w (fri_mul_exact), rounded once by mpfr_sum: correctly rounded.
 * NP (26)-(27), FAIR (28): with t_s = x_s^T w exact, every output is a
 *   finite sum of rational multiples of phi(t_s; y_s) = ln(1 + e^t) - y t,
 *   s(t) - y and s(t) s(-t) (s the logistic function).  A Ziv loop encloses
 *   each sum in MPFI at precision p = prec + 32, 2 (prec + 32), ... up to
 *   ZIV_MAX and returns the common rounding to nearest of both ends at the
 *   output's precision (then correctly rounded).  Samples with equal
 *   (t, y) share their pieces, so they are merged first with an exact
 *   coefficient (sum of w_s x_sk x_sl, GMP-exact via fri_sum_exact): equal
 *   terms with opposite weights (FAIR's two groups) cancel exactly, and the
 *   FAIR weights are the integers cls_1, -cls_0 (one division at the end),
 *   so rational (point) enclosures cancel exactly too.  What remains is a
 *   sum of nonzero rational multiples of pieces at distinct (t, y); such a
 *   sum equal to a number of the output precision would make the loop run
 *   to ZIV_MAX (FR_EINTERNAL); never seen (transcendence as in
 *   ref/fedpdm/model.c is not proved here). */
#include <mpfi.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

#define ZIV_MAX ((mpfr_prec_t)1 << 16)

static int ovl(const void *p, size_t np, const void *q, size_t nq)
{
    return p != NULL && q != NULL && np > 0 && nq > 0 && fri_overlap(p, np * sizeof(mpfr_t), q, nq * sizeof(mpfr_t));
}

/* Output o of k entries: temporaries at the outputs' precisions. */
typedef struct {
    mpfr_t *out, *tmp;
    size_t k;
    int done;
} outbuf;

static mpfr_t *mp_array(size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a != NULL)
        for (size_t t = 0; t < k; t++)
            mpfr_init2(a[t], p);
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

/* QP: r = RN(sum of the exact terms). */
static int sum_round(mpfr_ptr r, mpfr_t *terms, size_t k)
{
    mpfr_ptr *pp = malloc((k ? k : 1) * sizeof *pp);
    if (pp == NULL)
        return FR_ENOMEM;
    for (size_t t = 0; t < k; t++)
        pp[t] = terms[t];
    mpfr_sum(r, pp, (unsigned long)k, MPFR_RNDN);
    if (mpfr_zero_p(r))
        mpfr_set_zero(r, 1);
    free(pp);
    return FR_OK;
}

static int qp_eval(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t *f, mpfr_t *g, mpfr_t *H,
                   mpfr_t *c, mpfr_t *J, mpfr_t *Q)
{
    size_t d = P->d, mt = P->mt, dd = d * d;
    mpfr_t *T = mp_array(dd + d + 1, 53), a, u;
    int st = T == NULL ? FR_ENOMEM : FR_OK;
    mpfr_init2(a, 53);
    mpfr_init2(u, 53);
    if (st == FR_OK && i >= 1) {
        const double *A = P->A + (i - 1) * dd, *b = P->b + (i - 1) * d;
        if (f) {                         /* sum_ab A_ab w_a w_b / 2 + sum_a b_a w_a */
            for (size_t x = 0; x < d && st == FR_OK; x++)
                for (size_t z = 0; z < d && st == FR_OK; z++) {
                    mpfr_set_d(a, A[x * d + z], MPFR_RNDN);
                    st = fri_mul_exact(u, a, w[x]);
                    if (st == FR_OK)
                        st = fri_mul_exact(T[x * d + z], u, w[z]);
                    mpfr_div_2ui(T[x * d + z], T[x * d + z], 1, MPFR_RNDN);
                }
            for (size_t x = 0; x < d && st == FR_OK; x++) {
                mpfr_set_d(a, b[x], MPFR_RNDN);
                st = fri_mul_exact(T[dd + x], a, w[x]);
            }
            if (st == FR_OK)
                st = sum_round(f[0], T, dd + d);
        }
        for (size_t x = 0; g && x < d && st == FR_OK; x++) {
            for (size_t z = 0; z < d && st == FR_OK; z++) {
                mpfr_set_d(a, A[x * d + z], MPFR_RNDN);
                st = fri_mul_exact(T[z], a, w[z]);
            }
            mpfr_set_d(T[d], b[x], MPFR_RNDN);
            if (st == FR_OK)
                st = sum_round(g[x], T, d + 1);
        }
        for (size_t x = 0; H && x < dd; x++)
            mpfr_set_d(H[x], A[x], MPFR_RNDN);
    } else if (st == FR_OK) {
        if (f)
            mpfr_set_zero(f[0], 1);
        for (size_t x = 0; g && x < d; x++)
            mpfr_set_zero(g[x], 1);
        for (size_t x = 0; H && x < dd; x++)
            mpfr_set_zero(H[x], 1);
    }
    const double *C = P->C + i * mt * d, *e = P->e + i * mt;
    for (size_t j = 0; c && j < mt && st == FR_OK; j++) {
        for (size_t z = 0; z < d && st == FR_OK; z++) {
            mpfr_set_d(a, C[j * d + z], MPFR_RNDN);
            st = fri_mul_exact(T[z], a, w[z]);
        }
        mpfr_set_d(T[d], e[j], MPFR_RNDN);
        if (st == FR_OK)
            st = sum_round(c[j], T, d + 1);
    }
    for (size_t j = 0; J && j < mt; j++)
        for (size_t z = 0; z < d; z++)
            mpfr_set_d(J[z * mt + j], C[j * d + z], MPFR_RNDN);
    for (size_t x = 0; Q && x < dd; x++)
        mpfr_set_zero(Q[x], 1);
    mpfr_clear(a);
    mpfr_clear(u);
    mp_free(T, dd + d + 1);
    return st;
}

/* Enclosures at precision p of phi(t; y), s(t) - y and s(t) s(-t), with
 * E = e^-|t| and no cancelling subtraction (a width independent of |t|):
 *   phi(t; 0) = log(1 + e^t)  = max(t, 0) + log1p(E),
 *   phi(t; 1) = log(1 + e^-t) = max(-t, 0) + log1p(E),
 *   s(t) - 1 = -E/(1 + E) for t >= 0 (s = 1/(1 + E)); for t < 0, s = E/(1 + E)
 *   and s - 1 = -1/(1 + E) is formed as s - 1 (no cancellation: s < 1/2). */
static void logi_enclose(mpfi_t phi, mpfi_t ds, mpfi_t h, mpfr_srcptr t, int y, mpfi_t E, mpfi_t W)
{
    mpfi_set_fr(E, t);
    if (mpfr_sgn(t) > 0)
        mpfi_neg(E, E);
    mpfi_exp(E, E);                          /* E = e^-|t| in (0, 1] */
    mpfi_log1p(phi, E);
    if (mpfr_sgn(t) > 0 && !y)
        mpfi_add_fr(phi, phi, t);            /* t + log1p(E) */
    else if (mpfr_sgn(t) < 0 && y)
        mpfi_sub_fr(phi, phi, t);            /* -t + log1p(E) */
    mpfi_add_ui(W, E, 1);                    /* 1 + E */
    if (mpfr_sgn(t) >= 0) {
        if (y) {
            mpfi_div(ds, E, W);
            mpfi_neg(ds, ds);                /* s - 1 = -E/(1 + E) */
        } else {
            mpfi_ui_div(ds, 1, W);           /* s = 1/(1 + E) */
        }
    } else {
        mpfi_inv(ds, E);
        mpfi_add_ui(ds, ds, 1);
        mpfi_ui_div(ds, 1, ds);              /* s = E/(1 + E) = 1/(1 + 1/E) */
        if (y)
            mpfi_sub_ui(ds, ds, 1);
    }
    mpfi_sqr(W, W);
    mpfi_div(h, E, W);                       /* E / (1 + E)^2 */
}

/* The common rounding of the enclosure's ends at out's precision, if any. */
static int decide(mpfr_ptr out, mpfi_srcptr v, mpfr_t lo, mpfr_t hi)
{
    mpfr_set_prec(lo, mpfr_get_prec(out));
    mpfr_set_prec(hi, mpfr_get_prec(out));
    mpfr_set(lo, &v->left, MPFR_RNDN);
    mpfr_set(hi, &v->right, MPFR_RNDN);
    if (!mpfr_number_p(lo) || !mpfr_equal_p(lo, hi))
        return 0;
    mpfr_set(out, lo, MPFR_RNDN);
    if (mpfr_zero_p(out))
        mpfr_set_zero(out, 1);
    return 1;
}

static int lg_eval(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t *f, mpfr_t *g, mpfr_t *H,
                   mpfr_t *c, mpfr_t *J, mpfr_t *const y, mpfr_t *Q, size_t m)
{
    int np = P->kind == FR_PROXAL_NP;
    size_t d = P->d, n = P->n, off = 0, S = P->cnt[i], cls[2] = {0, 0};
    for (size_t k = 0; k < i; k++)
        off += P->cnt[k];
    const double *X = P->X + off * d;
    const unsigned char *lab = P->y + off, *grp = np ? NULL : P->grp + off;
    for (size_t s = 0; s < S; s++)
        cls[np ? lab[s] : grp[s]]++;
    /* weights: f gets 1/(n F), F = class-0 count (NP) or S (FAIR), i >= 1;
     * c (sum form D) gets +1/cls[.] for NP class 1 / FAIR group 0, -1/cls[1] FAIR group 1 */
    mpfr_t *t = mp_array(S, 53), *x = mp_array(d, 53), lo, hi, yw;
    mpfr_init2(lo, 53);
    mpfr_init2(hi, 53);
    mpfr_init2(yw, 53);
    mpfr_ptr *pp = malloc((d ? d : 1) * sizeof *pp);
    int st = (t == NULL || x == NULL || pp == NULL) ? FR_ENOMEM : FR_OK;
    for (size_t s = 0; s < S && st == FR_OK; s++) {
        for (size_t k = 0; k < d && st == FR_OK; k++) {
            mpfr_set_d(lo, X[s * d + k], MPFR_RNDN);
            st = fri_mul_exact(x[k], lo, w[k]);
        }
        for (size_t k = 0; k < d; k++)
            pp[k] = x[k];
        if (st == FR_OK)
            st = fri_sum_exact(t[s], pp, d);
    }
    /* the classes of equal (t, y): ord sorts the samples, gid numbers the classes */
    size_t *ord = malloc((S ? S : 1) * sizeof *ord), *gid = malloc((S ? S : 1) * sizeof *gid);
    mpfr_t *term = mp_array(S, 192), cg;
    mpfr_ptr *tp = malloc((S ? S : 1) * sizeof *tp);
    mpfr_init2(cg, 53);
    if (ord == NULL || gid == NULL || term == NULL || tp == NULL)
        st = FR_ENOMEM;
    if (st == FR_OK) {
        for (size_t q = 0; q < S; q++)
            ord[q] = q;
        for (size_t q = 1; q < S; q++)              /* insertion sort by (t, y): S is small in ref */
            for (size_t r2 = q; r2 > 0; r2--) {
                size_t u = ord[r2 - 1], v = ord[r2];
                int cmp = mpfr_cmp(t[u], t[v]);
                if (cmp < 0 || (cmp == 0 && lab[u] <= lab[v]))
                    break;
                ord[r2 - 1] = v, ord[r2] = u;
            }
        for (size_t q = 0; q < S; q++)
            gid[ord[q]] = q > 0 && mpfr_equal_p(t[ord[q]], t[ord[q - 1]]) && lab[ord[q]] == lab[ord[q - 1]]
                              ? gid[ord[q - 1]] : q;
    }
    if (st == FR_OK && Q != NULL && m > 0)
        st = m == 2 ? fri_sub_exact(yw, y[0], y[1]) : (mpfr_set_prec(yw, mpfr_get_prec(y[0])),
                                                       mpfr_set(yw, y[0], MPFR_RNDN), FR_OK);
    mpfi_t *phi = malloc((S ? S : 1) * sizeof *phi), *ds = malloc((S ? S : 1) * sizeof *ds),
           *hh = malloc((S ? S : 1) * sizeof *hh);
    mpfi_t E, W, acc, tm;
    if (phi == NULL || ds == NULL || hh == NULL)
        st = FR_ENOMEM;
    size_t ninit = 0;
    if (st == FR_OK)
        for (; ninit < S; ninit++) {
            mpfi_init2(phi[ninit], 64);
            mpfi_init2(ds[ninit], 64);
            mpfi_init2(hh[ninit], 64);
        }
    mpfi_init2(E, 64);
    mpfi_init2(W, 64);
    mpfi_init2(acc, 64);
    mpfi_init2(tm, 64);
    mpfr_prec_t pmax = MPFR_PREC_MIN;
    mpfr_t *outs[6] = {f, g, H, c, J, Q};
    size_t lens[6] = {1, d, d * d, m, d * m, d * d};
    for (int o = 0; o < 6; o++)
        for (size_t k = 0; outs[o] && k < lens[o]; k++)
            if (mpfr_get_prec(outs[o][k]) > pmax)
                pmax = mpfr_get_prec(outs[o][k]);
    unsigned char *ok[6] = {0};
    for (int o = 0; o < 6 && st == FR_OK; o++)
        if (outs[o] && (ok[o] = calloc(lens[o] ? lens[o] : 1, 1)) == NULL)
            st = FR_ENOMEM;
    int all = 0;
    for (mpfr_prec_t p = pmax + 32; st == FR_OK && !all; p *= 2) {
        if (p > ZIV_MAX) {
            st = FR_EINTERNAL;
            break;
        }
        mpfi_set_prec(E, p);
        mpfi_set_prec(W, p);
        mpfi_set_prec(acc, p);
        mpfi_set_prec(tm, p);
        for (size_t s = 0; s < S; s++) {
            mpfi_set_prec(phi[s], p);
            mpfi_set_prec(ds[s], p);
            mpfi_set_prec(hh[s], p);
            logi_enclose(phi[s], ds[s], hh[s], t[s], lab[s], E, W);
        }
        all = 1;
        /* output o, entry (k, l): sum over samples of w_s * piece(s) * x_sk * x_sl */
        for (int o = 0; o < 6 && st == FR_OK; o++) {
            if (!outs[o])
                continue;
            for (size_t e = 0; e < lens[o] && st == FR_OK; e++) {
                if (ok[o][e])
                    continue;
                int isc = o >= 3;               /* constraint part */
                size_t k = 0, l = 0, col = 0;
                if (o == 1)
                    k = e;
                else if (o == 2 || o == 5)
                    k = e / d, l = e % d;
                else if (o == 3)
                    col = e;
                else if (o == 4)
                    k = e / m, col = e % m;
                mpfi_set_ui(acc, 0);
                if ((!isc && i == 0) || (isc && m == 0)) {
                    /* f_0 = 0; no constraint rows: nothing */
                } else {
                    /* sum over the classes of equal (t, y) of an exact coefficient
                     * times their common piece: equal samples with opposite weights
                     * cancel exactly */
                    for (size_t a = 0; a < S && st == FR_OK;) {
                        size_t b = a + 1;
                        while (b < S && gid[ord[b]] == gid[ord[a]])
                            b++;
                        size_t nt = 0;
                        for (size_t q = a; q < b; q++) {
                            size_t sm = ord[q];
                            long wt = !isc ? (np ? lab[sm] == 0 : 1)
                                           : np ? lab[sm] == 1 : grp[sm] == 0 ? (long)cls[1] : -(long)cls[0];
                            if (wt == 0)
                                continue;
                            mpfr_set_si(term[nt], wt, MPFR_RNDN);          /* exact at 192 bits */
                            if (o == 1 || o == 2 || o == 4 || o == 5)
                                mpfr_mul_d(term[nt], term[nt], X[sm * d + k], MPFR_RNDN);
                            if (o == 2 || o == 5)
                                mpfr_mul_d(term[nt], term[nt], X[sm * d + l], MPFR_RNDN);
                            tp[nt] = term[nt];
                            nt++;
                        }
                        st = fri_sum_exact(cg, tp, nt);
                        if (st == FR_OK && !mpfr_zero_p(cg)) {
                            size_t rs = ord[a];
                            mpfi_mul_fr(tm, o == 0 || o == 3 ? phi[rs] : o == 1 || o == 4 ? ds[rs] : hh[rs], cg);
                            mpfi_add(acc, acc, tm);
                        }
                        a = b;
                    }
                    if (!isc) {
                        mpfi_div_ui(acc, acc, (unsigned long)n);
                        mpfi_div_ui(acc, acc, (unsigned long)(np ? cls[0] : S));
                    } else {
                        /* NP: / cls1.  FAIR: (cls1 sum_0 - cls0 sum_1) / (cls0 cls1) */
                        mpfi_div_ui(acc, acc, (unsigned long)cls[np ? 1 : 0]);
                        if (!np)
                            mpfi_div_ui(acc, acc, (unsigned long)cls[1]);
                        if (col == 1)
                            mpfi_neg(acc, acc);        /* the row -D_i - r_i */
                        if (o == 3)
                            mpfi_sub_d(acc, acc, np ? P->r[i - 1] : P->r[i]);
                        if (o == 5)
                            mpfi_mul_fr(acc, acc, yw);
                    }
                }
                if (decide(outs[o][e], acc, lo, hi))
                    ok[o][e] = 1;
                else
                    all = 0;
            }
        }
    }
    for (int o = 0; o < 6; o++)
        free(ok[o]);
    free(ord);
    free(gid);
    free(tp);
    mp_free(term, S);
    mpfr_clear(cg);
    for (size_t s = 0; s < ninit; s++) {
        mpfi_clear(phi[s]);
        mpfi_clear(ds[s]);
        mpfi_clear(hh[s]);
    }
    free(phi);
    free(ds);
    free(hh);
    mpfi_clear(E);
    mpfi_clear(W);
    mpfi_clear(acc);
    mpfi_clear(tm);
    mpfr_clear(lo);
    mpfr_clear(hi);
    mpfr_clear(yw);
    free(pp);
    mp_free(t, S);
    mp_free(x, d);
    return st;
}

int fr_proxal_client_eval(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t fi, mpfr_t *gi,
                          mpfr_t *Hi, mpfr_t *ci, mpfr_t *Ji, mpfr_t *const y, mpfr_t *Hy)
{
    if (P == NULL || w == NULL)
        return FR_ENULL;
    int st = fr_proxal_problem_check(P);
    if (st == FR_ENULL)
        return st;
    size_t m = fr_proxal_mi(P, i);            /* 0 for i > n or a bad shape */
    if (Hy != NULL && y == NULL && m > 0)
        return FR_ENULL;
    if (st == FR_ESIZE || i > P->n)
        return FR_ESIZE;
    if (st == FR_ENONFINITE || !fri_finite(w, P->d) || (Hy != NULL && m > 0 && !fri_finite(y, m)))
        return FR_ENONFINITE;
    if (st != FR_OK)
        return st;
    size_t d = P->d, dd = d * d;
    mpfr_t *f = fi ? (mpfr_t *)fi : NULL;
    if (m == 0)
        ci = Ji = NULL;
    mpfr_t *outs[6] = {f, gi, Hi, ci, Ji, Hy};
    size_t lens[6] = {1, d, dd, m, d * m, dd};
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++)
            if (ovl(outs[a], lens[a], outs[b], lens[b]))
                return FR_EDOM;
    mpfr_t *tmp[6] = {0};
    for (int o = 0; o < 6; o++)
        if (outs[o] && (tmp[o] = fri_temps_like(outs[o], lens[o])) == NULL)
            st = FR_ENOMEM;
    if (st == FR_OK)
        st = P->kind == FR_PROXAL_QP ? qp_eval(P, i, w, tmp[0], tmp[1], tmp[2], tmp[3], tmp[4], tmp[5])
                                     : lg_eval(P, i, w, tmp[0], tmp[1], tmp[2], tmp[3], tmp[4], y, tmp[5], m);
    for (int o = 0; o < 6; o++)
        if (tmp[o])
            fri_temps_done(tmp[o], outs[o], lens[o], st == FR_OK);
    return st;
}
