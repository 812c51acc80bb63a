/* SPDX-License-Identifier: Apache-2.0 */
/* alg.c -- fr_proxal_trace_init/_clear, fr_proxal_alg1, fr_proxal_alg3:
 * 004 Algorithms 1 and 3 in MPFR at the trace's precision p (contract:
 * fedref/proxal.h, fedspec/proxal.h "Algorithms 1 and 3").  The same steps
 * as fast/proxal/alg.c (which describes the extended KKT system: client
 * gradients as columns of multiplier 1, equality rows as the pair c <= 0,
 * -c <= 0 with mu = mu+ - mu-), with every test made in the safe
 * direction, so that the flags hold for the exact values of the stored
 * numbers:
 *   tau_k = sbar/(k+1)^2 rounded DOWN (the inner tolerance; Algorithm 2
 *     receives the binary64 RD(min(tau_k, 1)), its domain);
 *   (8): RU(dw + beta RU(tau_k)) <= RD(beta eps1), dmu <= RD(beta eps2),
 *     dw and dmu rounded up;
 *   sub: Algorithm 1: fr_proxal_admm's thm41 (certified for the oracle's
 *     gradients); Algorithm 3: max_k max(RU(G_k), -RD(G_k)), G_k = sum_i
 *     g_ik (one mpfr_sum, exact terms).
 * Algorithm 3's Newton system sum_i H_ik p = -G by an MPFR Cholesky at p
 * (RN), shifted by lam I when sum_i H_ik is not positive definite (FAIR
 * (28): l_k is not convex) as fast's chol_shifted; FR_EDOM if no shift of
 * the 40 factors. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "fedref/proxal.h"
#include "hsolve.h"
#include "../../spec/proxal/seal.h"

static size_t rows_w(size_t kmax, size_t d, unsigned keep)
{
    return (keep & FR_PROXAL_KEEP_W) ? (kmax + 1) * d : d;
}

static void reset(fr_proxal_trace *t)
{
    size_t K = t->kmax;
    mpfr_t *a[] = {t->tau, t->dw, t->dmu, t->kkt1, t->kkt2, t->sub, t->obj, t->feas};
    for (size_t r = 0; r < 8; r++)
        for (size_t k = 0; k < K; k++)
            mpfr_set_nan(a[r][k]);
    for (size_t k = 0, e = rows_w(K, t->d, t->keep); k < e; k++)
        mpfr_set_nan(t->w[k]);
    for (size_t j = 0; j < t->mtot; j++)
        mpfr_set_nan(t->mu[j]);
    memset(t->inner, 0, K * sizeof *t->inner);
    memset(t->inner_ok, 0, K);
    t->iters = 0;
    t->terminated = t->thm31_ok = 0;
    t->floors = 0;
}

void fr_proxal_trace_clear(fr_proxal_trace *t)
{
    if (t == NULL || t->tau == NULL) {
        if (t)
            memset(t, 0, sizeof *t);
        return;
    }
    size_t K = t->kmax;
    mpfr_t *a[] = {t->tau, t->dw, t->dmu, t->kkt1, t->kkt2, t->sub, t->obj, t->feas};
    for (size_t r = 0; r < 8; r++)
        fri_vec_free(a[r], K);
    fri_vec_free(t->w, rows_w(K, t->d, t->keep));
    fri_vec_free(t->mu, t->mtot);
    free(t->inner), free(t->inner_ok);
    memset(t, 0, sizeof *t);
}

int fr_proxal_trace_init(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm,
                         mpfr_prec_t prec)
{
    if (t == NULL)
        return FR_ENULL;
    int st = fr_proxal_alg_check(P, prm, 1);
    if (st == FR_ENULL || st == FR_ESIZE)
        return st;
    if (prec < MPFR_PREC_MIN || prec > FR_PREC_MAX)
        return FR_EPREC;
    if (st != FR_OK)
        return st;
    fr_proxal_trace T;
    memset(&T, 0, sizeof T);
    T.kmax = prm->kmax;
    T.d = P->d;
    T.mtot = fr_proxal_mtot(P);
    T.keep = prm->keep;
    if ((T.keep & FR_PROXAL_KEEP_W) && (T.kmax + 1) > FR_COUNT_MAX / T.d)
        return FR_ESIZE;
    size_t K = T.kmax;
    mpfr_t **a[] = {&T.tau, &T.dw, &T.dmu, &T.kkt1, &T.kkt2, &T.sub, &T.obj, &T.feas};
    int bad = 0;
    for (size_t r = 0; r < 8; r++)
        bad |= (*a[r] = fri_vec_new(K, prec)) == NULL;
    T.w = fri_vec_new(rows_w(K, T.d, T.keep), prec);
    T.mu = fri_vec_new(T.mtot, prec);
    T.inner = calloc(K, sizeof *T.inner);
    T.inner_ok = calloc(K, 1);
    if (bad || !T.w || !T.mu || !T.inner || !T.inner_ok) {
        for (size_t r = 0; r < 8; r++)
            fri_vec_free(*a[r], K);
        fri_vec_free(T.w, rows_w(K, T.d, T.keep));
        fri_vec_free(T.mu, T.mtot);
        free(T.inner), free(T.inner_ok);
        return FR_ENOMEM;
    }
    *t = T;
    return FR_OK;
}

/* ---- the run's state ----------------------------------------------------- */
typedef struct {
    const fr_proxal_problem *P; /* &Pc */
    fr_proxal_problem Pc;       /* the run's copy of its problem, sealed (checked once per run) */
    fr_proxal_problem P0;       /* P with h = 0: the smooth parts P_{i,k}, sealed */
    mpfr_prec_t p;
    size_t n, d, mt, neq, me, mmax;
    mpfr_t *wk, *wn, *mu, *mun, *g, *H, *Hs, *M, *y, *pv, *ci, *Ji, *Je, *ce, *mue, *gf;
    mpfr_t **G;                 /* d lists of n + 1 gradient entries (pointers into Gv) */
    mpfr_t *Gv;                 /* (n + 1) d */
    mpfr_t a, b, c, beta, fi, f;
} run_t;

#define RUN_VECS(X)                                                                              \
    X(wk, d) X(wn, d) X(mu, mt) X(mun, mt) X(g, d) X(H, d * d) X(Hs, d * d) X(M, d * d) X(y, d)  \
        X(pv, d) X(ci, mmax + 1) X(Ji, d * (mmax + 1)) X(Je, d * me) X(ce, me) X(mue, me)        \
            X(gf, d) X(Gv, (n + 1) * d)

static void run_free(run_t *R)
{
    size_t d = R->d, mt = R->mt, mmax = R->mmax, me = R->me, n = R->n;
#define FREE_V(v, k) fri_vec_free(R->v, k);
    RUN_VECS(FREE_V)
    if (R->p) {
        mpfr_clears(R->a, R->b, R->c, R->beta, R->fi, R->f, (mpfr_ptr)0);
    }
    memset(R, 0, sizeof *R);
}

static int run_alloc(run_t *R, const fr_proxal_problem *P, mpfr_prec_t p, double beta)
{
    memset(R, 0, sizeof *R);
    /* P was checked in full by fr_proxal_alg_check (or is sealed): the
     * copies are valid, so they are sealed here without a second scan and
     * every call below checks only its per-call arguments (fedref_common.h
     * rule 6); P with h = 0 is valid whenever P is */
    R->Pc = *P;
    R->Pc.seal = spec_proxal_seal_hash(&R->Pc);
    R->P0 = *P;
    R->P0.h = FR_PROXAL_H_ZERO;
    R->P0.seal = spec_proxal_seal_hash(&R->P0);
    R->P = &R->Pc;
    size_t n = P->n, d = P->d, mt = fr_proxal_mtot(P), mmax = 0, neq = 0;
    for (size_t i = 0; i <= n; i++) {
        size_t m = fr_proxal_mi(P, i);
        mmax = m > mmax ? m : mmax;
        for (size_t j = 0; j < m; j++)
            neq += fr_proxal_row_eq(P, i, j) != 0;
    }
    size_t me = mt + neq + (n - 1);
    if (me > FR_COUNT_MAX / (d + 2) || d > FR_COUNT_MAX / (4 * d + 16) || n + 1 > FR_COUNT_MAX / d)
        return FR_ESIZE;
    R->n = n, R->d = d, R->mt = mt, R->neq = neq, R->me = me, R->mmax = mmax;
    int bad = 0;
#define ALLOC_V(v, k) bad |= (R->v = fri_vec_new(k, p)) == NULL;
    RUN_VECS(ALLOC_V)
    R->G = malloc(d * sizeof *R->G);
    if (bad || R->G == NULL) {
        free(R->G);
        run_free(R);
        return FR_ENOMEM;
    }
    R->p = p;
    mpfr_inits2(p, R->a, R->b, R->c, R->fi, R->f, (mpfr_ptr)0);
    mpfr_init2(R->beta, 53);
    mpfr_set_d(R->beta, beta, MPFR_RNDN);
    return FR_OK;
}

static void run_done(run_t *R)
{
    free(R->G);
    run_free(R);
}

/* max over k of |a_k - b_k| rounded up, into r */
static void dist_inf_up(mpfr_ptr r, mpfr_t *a, mpfr_t *b, size_t k, mpfr_ptr tmp)
{
    mpfr_set_zero(r, 1);
    for (size_t j = 0; j < k; j++) {
        mpfr_sub(tmp, a[j], b[j], MPFR_RNDA);
        mpfr_abs(tmp, tmp, MPFR_RNDN);
        if (mpfr_greater_p(tmp, r))
            mpfr_set(r, tmp, MPFR_RNDU);
    }
}

/* kkt1, kkt2, obj, feas of (wn, mun) (the extended system of fast/proxal/alg.c) */
static int records(run_t *R, mpfr_ptr kkt1, mpfr_ptr kkt2, mpfr_ptr obj, mpfr_ptr feas)
{
    const fr_proxal_problem *P = R->P;
    size_t d = R->d, me = R->me, col = 0, off = 0;
    int st;
    mpfr_set_zero(R->f, 1);
    mpfr_set_zero(feas, 1);
    for (size_t i = 0; i <= R->n; i++) {
        size_t m = fr_proxal_mi(P, i);
        if ((st = fr_proxal_client_eval(P, i, R->wn, R->fi, i ? R->g : NULL, NULL, m ? R->ci : NULL,
                                        m ? R->Ji : NULL, NULL, NULL)) != FR_OK)
            return st;
        mpfr_add(R->f, R->f, R->fi, MPFR_RNDN);
        if (i == 1)
            for (size_t k = 0; k < d; k++)
                mpfr_set(R->gf[k], R->g[k], MPFR_RNDN);
        else if (i >= 2) {
            for (size_t k = 0; k < d; k++)
                mpfr_set(R->Je[k * me + col], R->g[k], MPFR_RNDN);
            mpfr_set_zero(R->ce[col], 1);
            mpfr_set_ui(R->mue[col], 1, MPFR_RNDN);
            col++;
        }
        for (size_t j = 0; j < m; j++, off++) {
            int eq = fr_proxal_row_eq(P, i, j);
            mpfr_ptr c = R->ci[j], u = R->mun[off];
            if (eq)
                mpfr_abs(R->a, c, MPFR_RNDN);
            else
                mpfr_set_zero(R->a, 1), mpfr_max(R->a, c, R->a, MPFR_RNDN);   /* (c)_+ */
            if (mpfr_greater_p(R->a, feas))
                mpfr_set(feas, R->a, MPFR_RNDU);
            for (size_t k = 0; k < d; k++)
                mpfr_set(R->Je[k * me + col], R->Ji[k * m + j], MPFR_RNDN);
            mpfr_set(R->ce[col], c, MPFR_RNDN);
            if (eq && mpfr_sgn(u) <= 0)
                mpfr_set_zero(R->mue[col], 1);
            else
                mpfr_set(R->mue[col], u, MPFR_RNDN);
            mpfr_abs(R->mue[col], R->mue[col], MPFR_RNDN);   /* -0 -> +0 */
            col++;
            if (eq) {
                for (size_t k = 0; k < d; k++)
                    mpfr_neg(R->Je[k * me + col], R->Ji[k * m + j], MPFR_RNDN);
                mpfr_neg(R->ce[col], c, MPFR_RNDN);
                if (mpfr_sgn(u) < 0)
                    mpfr_neg(R->mue[col], u, MPFR_RNDN);
                else
                    mpfr_set_zero(R->mue[col], 1);
                col++;
            }
        }
    }
    if (col != me)
        return FR_EINTERNAL;
    mpfr_t gam;
    mpfr_init2(gam, 53);
    mpfr_set_d(gam, P->gamma, MPFR_RNDN);
    mpfr_t *lo = NULL, *hi = NULL;
    if (P->h == FR_PROXAL_H_BOX && ((lo = fri_vec_new(d, 53)) == NULL || (hi = fri_vec_new(d, 53)) == NULL))
        st = FR_ENOMEM;
    else {
        for (size_t k = 0; lo && k < d; k++)
            mpfr_set_d(lo[k], P->lo[k], MPFR_RNDN), mpfr_set_d(hi[k], P->hi[k], MPFR_RNDN);
        st = fr_proxal_kkt(kkt1, kkt2, R->gf, d, R->Je, me, R->ce, R->mue, R->wn, P->h, gam, lo, hi);
    }
    fri_vec_free(lo, d);
    fri_vec_free(hi, d);
    mpfr_clear(gam);
    if (st != FR_OK)
        return st;
    mpfr_set(obj, R->f, MPFR_RNDN);
    return FR_OK;
}

/* the certified ||sum_i grad P_{i,k}(x)||_inf into *bound; sum of Hessians
 * in Hs and the value (RN) in val when wanted; G_k RN in R->pv. */
static int grad_lk(run_t *R, mpfr_t *x, mpfr_ptr bound, int hess, mpfr_ptr val)
{
    size_t d = R->d, n = R->n;
    int st;
    if (val)
        mpfr_set_zero(val, 1);
    if (hess)
        for (size_t k = 0; k < d * d; k++)
            mpfr_set_zero(R->Hs[k], 1);
    for (size_t i = 0; i <= n; i++) {
        if ((st = fr_proxal_pik(val ? R->fi : NULL, R->Gv + i * d, hess ? R->H : NULL, &R->P0, i, x, R->wk,
                                R->mu, R->beta)) != FR_OK)
            return st;
        if (val)
            mpfr_add(val, val, R->fi, MPFR_RNDN);
        if (hess)
            for (size_t k = 0; k < d * d; k++)
                mpfr_add(R->Hs[k], R->Hs[k], R->H[k], MPFR_RNDN);
    }
    mpfr_ptr *T = malloc((n + 1) * sizeof *T);
    if (T == NULL)
        return FR_ENOMEM;
    mpfr_set_zero(bound, 1);
    for (size_t k = 0; k < d; k++) {
        for (size_t i = 0; i <= n; i++)
            T[i] = R->Gv[i * d + k];
        mpfr_sum(R->a, T, n + 1, MPFR_RNDU);
        mpfr_sum(R->b, T, n + 1, MPFR_RNDD);
        mpfr_neg(R->b, R->b, MPFR_RNDN);
        mpfr_max(R->a, R->a, R->b, MPFR_RNDN);
        if (mpfr_greater_p(R->a, bound))
            mpfr_set(bound, R->a, MPFR_RNDU);
        mpfr_sum(R->pv[k], T, n + 1, MPFR_RNDN);
    }
    free(T);
    if (!mpfr_number_p(bound) || (val && !mpfr_number_p(val)))
        return FR_ENONFINITE;
    return FR_OK;
}

/* solve (Hs + lam I) z = -pv (G) by Cholesky at p, z into pv (lam NULL:
 * 0); FR_EDOM if a pivot <= 0 (pv is then untouched) */
static int chol_solve(run_t *R, mpfr_srcptr lam)
{
    size_t d = R->d;
    mpfr_t *M = R->M, *z = R->pv;
    for (size_t k = 0; k < d * d; k++)
        mpfr_set(M[k], R->Hs[k], MPFR_RNDN);
    if (lam)
        for (size_t j = 0; j < d; j++)
            mpfr_add(M[j * d + j], M[j * d + j], lam, MPFR_RNDN);
    for (size_t j = 0; j < d; j++) {
        for (size_t k = 0; k < j; k++)
            mpfr_fms(M[j * d + j], M[j * d + k], M[j * d + k], M[j * d + j], MPFR_RNDN),
                mpfr_neg(M[j * d + j], M[j * d + j], MPFR_RNDN);
        if (mpfr_sgn(M[j * d + j]) <= 0 || !mpfr_number_p(M[j * d + j]))
            return FR_EDOM;
        mpfr_sqrt(M[j * d + j], M[j * d + j], MPFR_RNDN);
        for (size_t i = j + 1; i < d; i++) {
            for (size_t k = 0; k < j; k++)
                mpfr_fms(M[i * d + j], M[i * d + k], M[j * d + k], M[i * d + j], MPFR_RNDN),
                    mpfr_neg(M[i * d + j], M[i * d + j], MPFR_RNDN);
            mpfr_div(M[i * d + j], M[i * d + j], M[j * d + j], MPFR_RNDN);
        }
    }
    for (size_t i = 0; i < d; i++) {            /* L y = -G */
        mpfr_neg(z[i], z[i], MPFR_RNDN);
        for (size_t k = 0; k < i; k++)
            mpfr_fms(z[i], M[i * d + k], z[k], z[i], MPFR_RNDN), mpfr_neg(z[i], z[i], MPFR_RNDN);
        mpfr_div(z[i], z[i], M[i * d + i], MPFR_RNDN);
    }
    for (size_t i = d; i-- > 0;) {              /* L^T z = y */
        for (size_t k = i + 1; k < d; k++)
            mpfr_fms(z[i], M[k * d + i], z[k], z[i], MPFR_RNDN), mpfr_neg(z[i], z[i], MPFR_RNDN);
        mpfr_div(z[i], z[i], M[i * d + i], MPFR_RNDN);
    }
    return FR_OK;
}

/* chol_solve with the shift of fast/proxal/alg.c's chol_shifted: lam = 0,
 * else the first of s, 4 s, 16 s, .. (40 tries), s = 2^-26 max(1, max_k
 * |Hs_kk|), for which Hs + lam I factors. */
static int chol_solve_shifted(run_t *R)
{
    int st = chol_solve(R, NULL);
    if (st != FR_EDOM)
        return st;
    size_t d = R->d;
    mpfr_t s, a;
    mpfr_inits2(R->p, s, a, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    for (size_t k = 0; k < d; k++) {
        mpfr_abs(a, R->Hs[k * d + k], MPFR_RNDN);
        mpfr_max(s, s, a, MPFR_RNDN);
    }
    mpfr_div_2ui(s, s, 26, MPFR_RNDN);
    for (int j = 0; j < 40 && st == FR_EDOM; j++, mpfr_mul_2ui(s, s, 2, MPFR_RNDN))
        st = chol_solve(R, s);
    mpfr_clears(s, a, (mpfr_ptr)0);
    return st;
}

/* Algorithm 3's inner solve into wn (fast/proxal/alg.c's newton_lk). */
static int newton_lk(run_t *R, mpfr_srcptr tau, unsigned long nmax, unsigned long *its, mpfr_ptr sub)
{
    size_t d = R->d;
    int st;
    mpfr_prec_t p = R->p;
    mpfr_t r, v, r1, v1, slope, al, rhs;
    mpfr_inits2(p, r, v, r1, v1, slope, al, rhs, (mpfr_ptr)0);
    mpfr_t *x = R->wn;
    for (size_t k = 0; k < d; k++)
        mpfr_set(x[k], R->wk[k], MPFR_RNDN);
    *its = 0;
    if ((st = grad_lk(R, x, r, 1, v)) != FR_OK)
        goto out;
    for (;;) {
        if (mpfr_lessequal_p(r, tau)) {
            mpfr_set(sub, r, MPFR_RNDU);
            st = FR_OK;
            goto out;
        }
        if (*its >= nmax) {
            st = FR_EDOM;
            goto out;
        }
        ++*its;
        mpfr_t *gk = R->y;                      /* keep G for the slope */
        for (size_t k = 0; k < d; k++)
            mpfr_set(gk[k], R->pv[k], MPFR_RNDN);
        if ((st = chol_solve_shifted(R)) != FR_OK)
            goto out;
        mpfr_set_zero(slope, 1);
        for (size_t k = 0; k < d; k++)
            mpfr_fma(slope, gk[k], R->pv[k], slope, MPFR_RNDN);
        mpfr_t *xt = R->Ji;                     /* d scratch entries (d (mmax+1) >= d) */
        for (size_t k = 0; k < d; k++)
            mpfr_set(R->gf[k], R->pv[k], MPFR_RNDN);
        mpfr_set_ui(al, 1, MPFR_RNDN);
        int ok = 0;
        for (int h = 0; h <= 60 && !ok; h++, mpfr_div_2ui(al, al, 1, MPFR_RNDN)) {
            for (size_t k = 0; k < d; k++)
                mpfr_fma(xt[k], al, R->gf[k], x[k], MPFR_RNDN);
            if ((st = grad_lk(R, xt, r1, 1, v1)) != FR_OK)
                goto out;
            mpfr_mul(rhs, al, slope, MPFR_RNDN);
            mpfr_mul_d(rhs, rhs, 1e-4, MPFR_RNDN);
            mpfr_add(rhs, rhs, v, MPFR_RNDN);
            ok = mpfr_lessequal_p(v1, rhs);
            if (!ok && h == 0) {
                mpfr_div_2ui(rhs, r, 1, MPFR_RNDN);
                ok = mpfr_lessequal_p(r1, rhs);
            }
        }
        if (!ok) {
            st = FR_EDOM;
            goto out;
        }
        for (size_t k = 0; k < d; k++)
            mpfr_set(x[k], xt[k], MPFR_RNDN);
        mpfr_set(r, r1, MPFR_RNDN);
        mpfr_set(v, v1, MPFR_RNDN);
    }
out:
    mpfr_clears(r, v, r1, v1, slope, al, rhs, (mpfr_ptr)0);
    return st;
}

/* Algorithm 3's subproblem with h != 0 (docs/PROXAL.md 4.5): phi = sum_i
 * P_{i,k} for fri_proxal_hsolve; v = RN(G), rp = max(RU(G) - v, v -
 * RD(G)), the floor 64 (n + 2) 2^-p max_k sum_i |g_ik|. */
static int lk_eval(void *c, mpfr_t *x, mpfr_ptr val, mpfr_t *v, mpfr_t *rp, mpfr_ptr fl, mpfr_t *H)
{
    run_t *R = c;
    size_t d = R->d, n = R->n;
    int st = grad_lk(R, x, R->c, H != NULL, val);
    if (st != FR_OK)
        return st;
    mpfr_ptr *T = malloc((n + 1) * sizeof *T);
    if (T == NULL)
        return FR_ENOMEM;
    mpfr_set_zero(fl, 1);
    for (size_t k = 0; k < d; k++) {
        for (size_t i = 0; i <= n; i++)
            T[i] = R->Gv[i * d + k];
        mpfr_set(v[k], R->pv[k], MPFR_RNDN);
        mpfr_sum(R->a, T, n + 1, MPFR_RNDU);
        mpfr_sum(R->b, T, n + 1, MPFR_RNDD);
        mpfr_sub(R->a, R->a, v[k], MPFR_RNDU);
        mpfr_sub(R->b, v[k], R->b, MPFR_RNDU);
        mpfr_max(rp[k], R->a, R->b, MPFR_RNDU);
        mpfr_set_zero(R->a, 1);
        for (size_t i = 0; i <= n; i++)
            if (mpfr_sgn(T[i]) < 0)
                mpfr_sub(R->a, R->a, T[i], MPFR_RNDU);
            else
                mpfr_add(R->a, R->a, T[i], MPFR_RNDU);
        mpfr_max(fl, fl, R->a, MPFR_RNDU);
    }
    free(T);
    mpfr_mul_ui(fl, fl, 64 * (n + 2), MPFR_RNDU);
    mpfr_mul_2si(fl, fl, -(long)R->p, MPFR_RNDU);
    if (H)
        for (size_t k = 0; k < d * d; k++)
            mpfr_set(H[k], R->Hs[k], MPFR_RNDN);
    return FR_OK;
}

static int run(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm, int alg3)
{
    if (t == NULL || t->tau == NULL)
        return FR_ENULL;
    int st = fr_proxal_alg_check(P, prm, alg3);
    if (st != FR_OK)
        return st;
    if (t->kmax != prm->kmax || t->d != P->d || t->mtot != fr_proxal_mtot(P) || t->keep != prm->keep)
        return FR_ESIZE;
    reset(t);
    mpfr_prec_t p = mpfr_get_prec(t->tau[0]);
    run_t R;
    if ((st = run_alloc(&R, P, p, prm->beta)) != FR_OK)
        return st;
    const size_t d = R.d, mt = R.mt;
    const fr_proxal_hreg hg = {P->h, P->gamma, P->lo, P->hi};
    fr_proxal_admm_info info;
    int info_ok = 0;
    mpfr_t tauD, tauU, lhs, rhs, dwr, tmp, sq;
    mpfr_inits2(p, tauD, tauU, lhs, rhs, dwr, tmp, (mpfr_ptr)0);
    mpfr_init2(sq, 64);
    for (size_t k = 0; k < d; k++)
        mpfr_set_d(R.wk[k], prm->w0[k], MPFR_RNDN);
    for (size_t j = 0; j < mt; j++)
        mpfr_set_d(R.mu[j], prm->mu0 ? prm->mu0[j] + 0.0 : 0.0, MPFR_RNDN);
    if (t->keep & FR_PROXAL_KEEP_W)
        for (size_t k = 0; k < d; k++)
            mpfr_set(t->w[k], R.wk[k], MPFR_RNDN);
    fr_proxal_fsum F;
    fr_proxal_pk_ctx ctx;
    if (!alg3) {
        if ((st = fr_proxal_admm_info_init(&info, p)) != FR_OK)
            goto done;
        info_ok = 1;
        if ((st = fr_proxal_pk_fsum(&F, &ctx, &R.P0, R.wk, R.mu, R.beta)) != FR_OK)
            goto done;
    }
    for (size_t k = 0; k < prm->kmax; k++) {
        double k1 = (double)(k + 1);
        mpfr_set_d(sq, k1 * k1, MPFR_RNDN);                      /* exact: k + 1 <= 10^6 + 1, 64 bits */
        mpfr_d_div(tauD, prm->sbar, sq, MPFR_RNDD);
        mpfr_d_div(tauU, prm->sbar, sq, MPFR_RNDU);
        mpfr_set(t->tau[k], tauD, MPFR_RNDN);
        t->iters = k + 1;
        unsigned long inner = 0;
        if (!alg3) {
            fr_proxal_admm_params a = prm->admm;
            a.tau = mpfr_get_d(tauD, MPFR_RNDD);
            a.tau = a.tau < 1 ? a.tau : 1;
            if ((st = fr_proxal_admm_h(R.wn, &info, &F, R.wk, &a, &hg)) != FR_OK)
                goto done;
            inner = info.iters;
            t->floors += info.floors;
            mpfr_set(t->sub[k], info.thm41, MPFR_RNDU);
        } else if (P->h != FR_PROXAL_H_ZERO) {
            fri_proxal_hprob hp = {d, p, &R, lk_eval, P->h, P->gamma, P->lo, P->hi};
            unsigned long fc = 0;
            for (size_t j = 0; j < d; j++)
                mpfr_set(R.wn[j], R.wk[j], MPFR_RNDN);
            if ((st = fri_proxal_hsolve(&hp, R.wn, tauD, prm->admm.newton_max, t->sub[k], &inner, &fc,
                                        &t->floors)) != FR_OK)
                goto done;
        } else if ((st = newton_lk(&R, tauD, prm->admm.newton_max, &inner, t->sub[k])) != FR_OK)
            goto done;
        t->inner[k] = inner;
        t->inner_ok[k] = mpfr_lessequal_p(t->sub[k], tauD);
        if ((st = fr_proxal_mu_update(R.mun, &R.P0, R.wn, R.mu, R.beta)) != FR_OK)
            goto done;
        dist_inf_up(t->dw[k], R.wn, R.wk, d, tmp);
        dist_inf_up(t->dmu[k], R.mun, R.mu, mt, tmp);
        if ((st = records(&R, t->kkt1[k], t->kkt2[k], t->obj[k], t->feas[k])) != FR_OK)
            goto done;
        for (size_t j = 0; j < d; j++)
            mpfr_set(R.wk[j], R.wn[j], MPFR_RNDN);
        for (size_t j = 0; j < mt; j++)
            mpfr_set(R.mu[j], R.mun[j], MPFR_RNDN);
        if (t->keep & FR_PROXAL_KEEP_W)
            for (size_t j = 0; j < d; j++)
                mpfr_set(t->w[(k + 1) * d + j], R.wk[j], MPFR_RNDN);
        /* (8) in the safe direction */
        mpfr_mul(lhs, R.beta, tauU, MPFR_RNDU);
        mpfr_add(lhs, lhs, t->dw[k], MPFR_RNDU);
        mpfr_mul_d(rhs, R.beta, prm->eps1, MPFR_RNDD);
        int t1 = mpfr_lessequal_p(lhs, rhs);
        mpfr_mul_d(rhs, R.beta, prm->eps2, MPFR_RNDD);
        if (t1 && mpfr_lessequal_p(t->dmu[k], rhs)) {
            t->terminated = 1;
            t->thm31_ok = mpfr_cmp_d(t->kkt1[k], prm->eps1) <= 0 && mpfr_cmp_d(t->kkt2[k], prm->eps2) <= 0;
            break;
        }
    }
    if (!(t->keep & FR_PROXAL_KEEP_W))
        for (size_t j = 0; j < d; j++)
            mpfr_set(t->w[j], R.wk[j], MPFR_RNDN);
    for (size_t j = 0; j < mt; j++)
        mpfr_set(t->mu[j], R.mu[j], MPFR_RNDN);
    st = FR_OK;
done:
    if (info_ok)
        fr_proxal_admm_info_clear(&info);
    mpfr_clears(tauD, tauU, lhs, rhs, dwr, tmp, sq, (mpfr_ptr)0);
    run_done(&R);
    return st;
}

int fr_proxal_alg1(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    return run(t, P, prm, 0);
}

int fr_proxal_alg3(fr_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    return run(t, P, prm, 1);
}
