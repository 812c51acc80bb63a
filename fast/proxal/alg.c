/* SPDX-License-Identifier: Apache-2.0 */
/* alg.c -- ff_proxal_trace_init/_clear, ff_proxal_alg1, ff_proxal_alg3:
 * 004 Algorithm 1 (proximal AL, inner solver Algorithm 2) and Algorithm 3
 * (cProx-AL, Appendix C) in binary64 (contract: fedfast/proxal.h,
 * fedspec/proxal.h "Algorithms 1 and 3"; docs/PROXAL.md).
 *
 * Outer iteration k: tau_k = sbar/(k+1)^2 (RN; Algorithm 2 is called with
 * min(tau_k, 1), its domain); w^{k+1} from w^k (warm start); mu^{k+1} by
 * ff_proxal_mu_update; (8) tested in the safe direction (each side one
 * ulp past its rounding, as ref's RU/RD test).  Algorithm 1 keeps ONE
 * Algorithm-2 workspace and ONE oracle context (wk, mu are updated in
 * place), so quadratic blocks are factored once per run.
 * KKT residuals of (w^{k+1}, mu^{k+1}) by ff_proxal_kkt (upper bounds) on
 * an extended system that makes every sum part of the certified one:
 *   grad_f = g_1, and for i = 2..n the column g_i with multiplier 1, c = 0
 *     (so sum_i g_i is inside ff_proxal_kkt's error bound; e2 = |0| = 0);
 *   an inequality row j: the column grad c_j, c_j, mu_j;
 *   an equality row j: the pair c_j <= 0, -c_j <= 0 with mu+ = max(mu_j, 0),
 *     mu- = max(-mu_j, 0): columns grad c_j and -grad c_j.  J' mu' =
 *     grad c_j (mu+ - mu-) = grad c_j mu_j, and e2 = max(dist(c_j,
 *     N(mu+)), dist(-c_j, N(mu-))) = |c_j| whatever the sign of mu_j (one
 *     of mu+- is 0, giving max(+-c_j, 0); the other gives |c_j| or
 *     max(-+c_j, 0)).
 * sub: Algorithm 1: Algorithm 2's info.thm41; Algorithm 3: the certified
 * bound |fl(G_k)| + (n + 2) u A_k (1 + 2^-20) + (n + 1) 2^-1074 of
 * G = sum_i grad P_{i,k} (the oracle's gradients taken as exact). */
#include <lapacke.h>
#include "../internal.h"
#include "fedfast/proxal.h"
#include "eval.h"
#include "../../spec/proxal/seal.h"

static const double U53 = 0x1p-53;

static size_t rows_w(const ff_proxal_trace *t)
{
    return (t->keep & FR_PROXAL_KEEP_W) ? (t->kmax + 1) * t->d : t->d;
}

static void reset(ff_proxal_trace *t)
{
    size_t K = t->kmax;
    double *a[] = {t->tau, t->dw, t->dmu, t->kkt1, t->kkt2, t->sub, t->obj, t->feas};
    for (size_t r = 0; r < 8; r++)
        for (size_t k = 0; k < K; k++)
            a[r][k] = NAN;
    for (size_t k = 0, e = rows_w(t); k < e; k++)
        t->w[k] = NAN;
    for (size_t j = 0; j < t->mtot; j++)
        t->mu[j] = NAN;
    memset(t->inner, 0, K * sizeof *t->inner);
    memset(t->inner_ok, 0, K);
    t->iters = 0;
    t->terminated = t->thm31_ok = 0;
    t->factorisations = 0;
    t->floors = 0;
    t->newton = t->newton_server = 0;
}

int ff_proxal_trace_init(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    if (t == NULL)
        return FR_ENULL;
    int st = fr_proxal_alg_check(P, prm, 1);
    if (st != FR_OK)
        return st;
    ff_proxal_trace T = {0};
    T.kmax = prm->kmax;
    T.d = P->d;
    T.mtot = fr_proxal_mtot(P);
    T.keep = prm->keep;
    if ((T.keep & FR_PROXAL_KEEP_W) && (T.kmax + 1) > FR_COUNT_MAX / T.d)
        return FR_ESIZE;
    T.w = malloc(rows_w(&T) * sizeof(double));
    T.mu = malloc((T.mtot ? T.mtot : 1) * sizeof(double));
    T.tau = malloc(8 * T.kmax * sizeof(double));
    T.inner = malloc(T.kmax * sizeof(unsigned long));
    T.inner_ok = malloc(T.kmax);
    if (!T.w || !T.mu || !T.tau || !T.inner || !T.inner_ok) {
        free(T.w), free(T.mu), free(T.tau), free(T.inner), free(T.inner_ok);
        return FR_ENOMEM;
    }
    T.dw = T.tau + T.kmax;
    T.dmu = T.dw + T.kmax;
    T.kkt1 = T.dmu + T.kmax;
    T.kkt2 = T.kkt1 + T.kmax;
    T.sub = T.kkt2 + T.kmax;
    T.obj = T.sub + T.kmax;
    T.feas = T.obj + T.kmax;
    reset(&T);
    *t = T;
    return FR_OK;
}

void ff_proxal_trace_clear(ff_proxal_trace *t)
{
    if (t == NULL)
        return;
    free(t->w), free(t->mu), free(t->tau), free(t->inner), free(t->inner_ok);
    memset(t, 0, sizeof *t);
}

/* ---- the run's state ----------------------------------------------------- */
typedef struct {
    const fr_proxal_problem *P; /* &Pc */
    fr_proxal_problem Pc;       /* the run's copy of its problem, sealed (checked once per run) */
    fr_proxal_problem P0;       /* P with h = 0: the smooth parts P_{i,k}, sealed */
    size_t n, d, mt, neq, me;   /* me: columns of the extended KKT system */
    double *wk, *wn, *mu, *mun;
    double *g, *gsum, *H, *Hs, *M, *Hf, *x, *y, *p, *acc;  /* d or d x d */
    int hs_ok, hf_ok;           /* Hs holds the Hessian at the current x; M the factor of Hf */
    double *ci, *Ji;            /* owner's c (mmax), J (d x mmax) */
    double *Je, *ce, *mue;      /* extended d x me, me, me */
    double *gf;                 /* d: client 1's gradient */
    double *parts, *parts_x;    /* grad_lk's last point parts_x (d) and per owner f_i, grad f_i, c_i,
                                   J_i there ((n + 1) blocks of pstride; ffi_proxal_pk_eval_parts) */
    size_t pstride;
    int parts_ok;               /* parts hold grad_lk's evaluations at parts_x */
} run_t;

static void run_free(run_t *R)
{
    free(R->wk);
    memset(R, 0, sizeof *R);
}

static int run_alloc(run_t *R, const fr_proxal_problem *P)
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
    R->n = P->n, R->d = P->d, R->mt = fr_proxal_mtot(P);
    size_t mmax = 0;
    for (size_t i = 0; i <= P->n; i++) {
        size_t m = fr_proxal_mi(P, i);
        mmax = m > mmax ? m : mmax;
        for (size_t j = 0; j < m; j++)
            R->neq += fr_proxal_row_eq(P, i, j) != 0;
    }
    R->me = R->mt + R->neq + (R->n - 1);
    size_t d = R->d, me = R->me;
    if (me > FR_COUNT_MAX / (d + 2) || d > FR_COUNT_MAX / (4 * d + 16))
        return FR_ESIZE;
    R->pstride = 1 + d + mmax + d * mmax;
    if (R->pstride > FR_COUNT_MAX / (R->n + 2))
        return FR_ESIZE;
    size_t tot = 2 * d + 2 * R->mt + 6 * d + 4 * d * d + (mmax + 1) + d * (mmax + 1) + d * me + 2 * me + d +
                 (R->n + 1) * R->pstride + d;
    double *b = malloc(tot * sizeof(double));
    if (b == NULL)
        return FR_ENOMEM;
    R->wk = b, b += d;
    R->wn = b, b += d;
    R->mu = b, b += R->mt;
    R->mun = b, b += R->mt;
    R->g = b, b += d;
    R->gsum = b, b += d;
    R->x = b, b += d;
    R->y = b, b += d;
    R->p = b, b += d;
    R->acc = b, b += d;
    R->H = b, b += d * d;
    R->Hs = b, b += d * d;
    R->M = b, b += d * d;
    R->Hf = b, b += d * d;
    R->ci = b, b += mmax + 1;
    R->Ji = b, b += d * (mmax + 1);
    R->Je = b, b += d * me;
    R->ce = b, b += me;
    R->mue = b, b += me;
    R->gf = b, b += d;
    R->parts = b, b += (R->n + 1) * R->pstride;
    R->parts_x = b;
    R->parts_ok = 0;
    return FR_OK;
}

/* R->mun = mu^{k+1} from (R->wn, R->mu): ffi_proxal_mu_update_body, or,
 * when Algorithm 3's last evaluation of l_k was at w^{k+1}, the same
 * formula on the c_i it kept (the same numbers: one fewer pass over the
 * owners per outer iteration). */
static int mu_update(run_t *R, double beta)
{
    const fr_proxal_problem *P = R->P;
    if (!R->parts_ok || memcmp(R->parts_x, R->wn, R->d * sizeof(double)) != 0)
        return ffi_proxal_mu_update_body(R->mun, P, R->wn, R->mu, beta);
    for (size_t i = 0, off = 0; i <= R->n; i++) {
        size_t m = fr_proxal_mi(P, i);
        const double *ci = R->parts + i * R->pstride + 1 + R->d;
        for (size_t j = 0; j < m; j++, off++) {
            double s = R->mu[off] + beta * ci[j];
            if (!isfinite(s))
                return FR_ENONFINITE;
            R->mun[off] = fr_proxal_row_eq(P, i, j) ? s : s > 0 ? s : 0.0;   /* [.]_+, +0 */
        }
    }
    return FR_OK;
}

/* The records of (w, mu) = (wn, mun): kkt1, kkt2 (upper bounds), obj, feas. */
static int records(run_t *R, double *kkt1, double *kkt2, double *obj, double *feas)
{
    const fr_proxal_problem *P = R->P;
    size_t d = R->d, me = R->me, col = 0, off = 0;
    double f = 0, viol = 0;
    int st;
    /* Algorithm 3's last evaluation of l_k was at w^{k+1}: its owners' f_i,
     * grad f_i, c_i, J_i (the same function on the same point: the same
     * numbers) instead of n + 1 evaluations more */
    const int reuse = R->parts_ok && memcmp(R->parts_x, R->wn, d * sizeof(double)) == 0;
    for (size_t i = 0; i <= R->n; i++) {
        size_t m = fr_proxal_mi(P, i);
        double fi = 0;
        if (reuse) {
            const double *pt = R->parts + i * R->pstride;
            fi = pt[0];
            memcpy(R->g, pt + 1, d * sizeof(double));
            memcpy(R->ci, pt + 1 + d, m * sizeof(double));
            memcpy(R->Ji, pt + 1 + d + m, d * m * sizeof(double));
        } else if ((st = ffi_proxal_client_eval_body(P, i, R->wn, &fi, i ? R->g : NULL, NULL, m ? R->ci : NULL,
                                                     m ? R->Ji : NULL, NULL, NULL)) != FR_OK)
            return st;
        f += fi;
        if (i == 1)
            memcpy(R->gf, R->g, d * sizeof(double));
        else if (i >= 2) {                      /* column g_i, multiplier 1, c = 0 */
            for (size_t k = 0; k < d; k++)
                R->Je[k * me + col] = R->g[k];
            R->ce[col] = 0, R->mue[col] = 1;
            col++;
        }
        for (size_t j = 0; j < m; j++, off++) {
            double c = R->ci[j], u = R->mun[off];
            int eq = fr_proxal_row_eq(P, i, j);
            double v = eq ? fabs(c) : (c > 0 ? c : 0);
            viol = v > viol ? v : viol;
            for (size_t k = 0; k < d; k++)
                R->Je[k * me + col] = R->Ji[k * m + j];
            R->ce[col] = c;
            R->mue[col] = eq ? (u > 0 ? u : 0) : u;
            col++;
            if (eq) {                           /* -c <= 0 with mu- */
                for (size_t k = 0; k < d; k++)
                    R->Je[k * me + col] = -R->Ji[k * m + j];
                R->ce[col] = -c;
                R->mue[col] = u < 0 ? -u : 0;
                col++;
            }
        }
    }
    if (col != me)
        return FR_EINTERNAL;
    if (!isfinite(f))
        return FR_ENONFINITE;
    if ((st = ff_proxal_kkt(kkt1, kkt2, R->gf, d, R->Je, me, R->ce, R->mue, R->wn, P->h, P->gamma, P->lo,
                            P->hi)) != FR_OK)
        return st;
    *obj = f;
    *feas = viol;
    return FR_OK;
}

/* Certified ||sum_i grad P_{i,k}(x)||_inf (gradients taken as exact) from
 * the oracle F (the run's P_{i,k}, checked once by ff_proxal_pk_fsum); the
 * sum in R->gsum, the value sum_i P_{i,k}(x) in *val. */
static int grad_lk(run_t *R, const ff_proxal_fsum *F, const double *x, double *bound, double *val)
{
    size_t d = R->d;
    int st;
    double v = 0;
    memset(R->gsum, 0, d * sizeof(double));
    memset(R->acc, 0, d * sizeof(double));
    /* at the point of the parts kept (an outer iteration's start at w^k, the
     * last point evaluated), the owners' products are not formed again */
    const int given = R->parts_ok && memcmp(R->parts_x, x, d * sizeof(double)) == 0;
    R->parts_ok = 0;
    for (size_t i = 0; i <= R->n; i++) {
        double vi = 0, *pt = R->parts + i * R->pstride;
        /* F is the run's ff_proxal_pk_fsum oracle: its evaluation, the parts kept */
        if ((st = (given ? ffi_proxal_pk_eval_given : ffi_proxal_pk_eval_parts)(F->ctx, i, x, &vi, R->g, pt)) !=
            FR_OK)
            return st;
        v += vi;
        for (size_t k = 0; k < d; k++)
            R->gsum[k] += R->g[k], R->acc[k] += fabs(R->g[k]);
    }
    double b = 0;
    for (size_t k = 0; k < d; k++) {
        double e = fabs(R->gsum[k]) + (double)(R->n + 2) * U53 * R->acc[k] * (1 + 0x1p-20) +
                   (double)(R->n + 1) * 0x1p-1074;
        b = e > b ? e : b;
    }
    if (!isfinite(b) || !isfinite(v))
        return FR_ENONFINITE;
    memcpy(R->parts_x, x, d * sizeof(double));
    R->parts_ok = 1;
    *bound = b;
    *val = v;
    return FR_OK;
}

/* QP (25): Hess l_k = sum_i A_i + beta C^T C + I/beta (C all n + 1 blocks
 * stacked, every row an equality, so active) into R->Hs, independent of x,
 * w^k and mu^k: the lower triangle (row-major k >= l) as the A_i summed in
 * i order, beta C^T C by one dsyrk and 1/beta on the diagonal, then
 * mirrored (exactly symmetric).  Only Newton's direction uses it (the
 * stopping test is grad_lk's certified residual), so its rounding needs no
 * bound. */
static int hess_qp(run_t *R, double beta)
{
    const fr_proxal_problem *P = R->P;
    const size_t d = R->d, dd = d * d;
    double *restrict H = R->Hs;
    for (size_t k = 0; k < d; k++) {
        double *restrict h = H + k * d;
        memcpy(h, P->A + k * d, (k + 1) * sizeof(double));
        for (size_t i = 1; i < R->n; i++) {
            const double *restrict a = P->A + i * dd + k * d;
            for (size_t l = 0; l <= k; l++)
                h[l] += a[l];
        }
    }
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)d, (int)R->mt, beta, P->C, (int)d, 1.0, H, (int)d);
    for (size_t k = 0; k < d; k++) {
        H[k * d + k] += 1 / beta;
        for (size_t l = 0; l < k; l++)
            H[l * d + k] = H[k * d + l];
    }
    return ffi_all_finite(H, dd) ? FR_OK : FR_ENONFINITE;
}

/* R->Hs = sum_i Hess P_{i,k}(x) (summed in i order).  Quadratic oracles
 * (quad(i) for every i: QP) give the same matrix at every x and k of the
 * run: it is formed once (R->hs_ok stays set), by hess_qp. */
static int hess_lk(run_t *R, const ff_proxal_fsum *F, const double *x, int quad)
{
    size_t d = R->d;
    int st;
    if (quad && R->hs_ok)
        return FR_OK;
    if (quad) {
        const ff_proxal_pk_ctx *c = F->ctx;
        if ((st = hess_qp(R, c->beta)) != FR_OK)
            return st;
        R->hs_ok = 1;
        return FR_OK;
    }
    memset(R->Hs, 0, d * d * sizeof(double));
    for (size_t i = 0; i <= R->n; i++) {
        if ((st = F->eval(F->ctx, i, x, NULL, NULL, R->H)) != FR_OK)
            return st;
        for (size_t k = 0; k < d * d; k++)
            R->Hs[k] += R->H[k];
    }
    R->hs_ok = 1;
    return FR_OK;
}

/* The Cholesky factor of H + lam I into M: lam = 0, else the first of s,
 * 4 s, 16 s, .. (40 tries), s = 2^-26 max(1, max_k |H_kk|), that factors
 * (Nocedal-Wright Alg. 3.3).  On FAIR (28) l_k is not convex (D_i is a
 * difference of convex functions) and its Hessian can be indefinite, while
 * (7) asks only dist(0, grad l_k) <= tau_k: -(H + lam I)^{-1} grad l_k is
 * a descent direction for the Armijo search, and the stopping test stays
 * the certified residual.  FR_EDOM if none of the 41 factors. */
static int chol_shifted(double *M, const double *H, size_t d)
{
    int st = ffi_proxal_chol(M, H, 0.0, d);
    if (st != FR_EDOM)
        return st;
    double s = 1;
    for (size_t k = 0; k < d; k++)
        s = fmax(s, fabs(H[k * d + k]));
    s *= 0x1p-26;
    for (int j = 0; j < 40 && st == FR_EDOM; j++, s *= 4)
        st = ffi_proxal_chol(M, H, s, d);
    return st;
}

/* Algorithm 3's inner solve: damped Newton on l_k from x = wk to the
 * certified dist_inf(0, grad l_k(x)) <= tau; FR_EDOM at newton_max, on a
 * Cholesky that no shift of chol_shifted's makes succeed or 60 halvings
 * without Armijo.  The Hessian is formed
 * only where a Newton step starts (not at the Armijo trial points), and
 * factored (dpotrf, counted in *fact) only when it differs bit for bit
 * from the last matrix factored in this run (R->Hf): otherwise the factor
 * M is reused, which gives the same solve bit for bit. */
static int newton_lk(run_t *R, const ff_proxal_fsum *F, int quad, double *x, double tau, unsigned long nmax,
                     unsigned long *its, double *sub, unsigned long *fact)
{
    size_t d = R->d;
    double r, v;
    int st;
    memcpy(x, R->wk, d * sizeof(double));
    if (!quad)
        R->hs_ok = 0;                           /* x moved: a new Hessian */
    *its = 0;
    if ((st = grad_lk(R, F, x, &r, &v)) != FR_OK)
        return st;
    for (;;) {
        if (r <= tau) {
            *sub = r;
            return FR_OK;
        }
        if (*its >= nmax)
            return FR_EDOM;
        ++*its;
        if ((st = hess_lk(R, F, x, quad)) != FR_OK)
            return st;
        /* quad: Hs is formed once per run, so a factor once made is its own */
        if (!R->hf_ok || (!quad && memcmp(R->Hs, R->Hf, d * d * sizeof(double)) != 0)) {
            if (!quad)
                memcpy(R->Hf, R->Hs, d * d * sizeof(double));
            R->hf_ok = 0;
            ++*fact;
            if ((st = chol_shifted(R->M, R->Hs, d)) != FR_OK)   /* column-major factor */
                return st;
            R->hf_ok = 1;
        }
        for (size_t k = 0; k < d; k++)
            R->p[k] = -R->gsum[k];
        if (ffi_proxal_chol_solve(R->M, R->p, d) != FR_OK)
            return FR_EDOM;
        double slope = 0;
        for (size_t k = 0; k < d; k++)
            slope += R->gsum[k] * R->p[k];
        double a = 1, r1, v1;
        int ok = 0;
        for (int h = 0; h <= 60 && !ok; h++, a *= 0.5) {
            for (size_t k = 0; k < d; k++)
                R->y[k] = x[k] + a * R->p[k];
            if ((st = grad_lk(R, F, R->y, &r1, &v1)) != FR_OK)
                return st;
            /* Armijo (c1 = 1e-4), or (full step) the certified residual halves */
            ok = v1 <= v + 1e-4 * a * slope || (h == 0 && r1 <= r / 2);
        }
        if (!ok)
            return FR_EDOM;
        memcpy(x, R->y, d * sizeof(double));
        if (!quad)
            R->hs_ok = 0;
        r = r1, v = v1;                         /* gsum is y's */
    }
}

/* Algorithm 3's subproblem with h != 0 (docs/PROXAL.md 4.5): phi = sum_i
 * P_{i,k} for ffi_proxal_hsolve, the gradient with grad_lk's error bound. */
typedef struct {
    run_t *R;
    const ff_proxal_fsum *F;
} lk_ctx;

static int lk_eval(void *c, const double *x, double *val, double *v, double *rp, double *fl, double *H)
{
    lk_ctx *L = c;
    run_t *R = L->R;
    size_t d = R->d;
    double b, m = 0;
    int st = grad_lk(R, L->F, x, &b, val ? val : &b);
    if (st != FR_OK)
        return st;
    for (size_t k = 0; k < d; k++) {
        v[k] = R->gsum[k];
        rp[k] = (double)(R->n + 2) * U53 * R->acc[k] * (1 + 0x1p-20) + (double)(R->n + 1) * 0x1p-1074;
        m = fmax(m, rp[k]);
    }
    *fl = 64 * m;
    if (H) {
        R->hs_ok = 0;
        if ((st = hess_lk(R, L->F, x, 0)) != FR_OK)
            return st;
        memcpy(H, R->Hs, d * d * sizeof(double));
    }
    return FR_OK;
}

static int check_trace(const ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    if (t->kmax != prm->kmax || t->d != P->d || t->mtot != fr_proxal_mtot(P) || t->keep != prm->keep)
        return FR_ESIZE;
    return FR_OK;
}

static int run(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm, int alg3)
{
    if (t == NULL || t->tau == NULL)
        return FR_ENULL;
    int st = fr_proxal_alg_check(P, prm, alg3);
    if (st != FR_OK)
        return st;
    if ((st = check_trace(t, P, prm)) != FR_OK)
        return st;
    reset(t);
    run_t R;
    ff_proxal_admm_ws *ws = NULL;
    double *hbuf = NULL;        /* Algorithm 3 with h != 0: the subproblem solver's workspace, once per run */
    size_t *hidx = NULL;
    if ((st = run_alloc(&R, P)) != FR_OK)
        return st;
    const size_t d = R.d, mt = R.mt;
    const double beta = prm->beta;
    memcpy(R.wk, prm->w0, d * sizeof(double));
    for (size_t j = 0; j < mt; j++)
        R.mu[j] = prm->mu0 ? prm->mu0[j] + 0.0 : 0.0;  /* -0 -> +0 */
    if (t->keep & FR_PROXAL_KEEP_W)
        memcpy(t->w, R.wk, d * sizeof(double));
    ff_proxal_fsum F;
    ff_proxal_pk_ctx ctx;
    int quad = 1;
    /* the smooth parts P_{i,k} see h = 0 (R.P0); h enters (14), Algorithm
     * 3's subproblem and the residuals (docs/PROXAL.md 4.5) */
    const fr_proxal_hreg hg = {P->h, P->gamma, P->lo, P->hi};
    if (!alg3 && (st = ff_proxal_admm_ws_init(&ws, R.n, d)) != FR_OK)
        goto done;
    /* one oracle for the whole run (both algorithms): ctx points at R.wk,
     * R.mu, updated in place; R.P0 is sealed: its checks are per call */
    if ((st = ff_proxal_pk_fsum(&F, &ctx, &R.P0, R.wk, R.mu, beta)) != FR_OK)
        goto done;
    for (size_t i = 0; i <= R.n; i++)
        quad = quad && F.quad(F.ctx, i) != 0;
    for (size_t k = 0; k < prm->kmax; k++) {
        double k1 = (double)(k + 1), tau = prm->sbar / (k1 * k1), sub = NAN;
        unsigned long inner = 0;
        t->tau[k] = tau;
        t->iters = k + 1;
        if (!alg3) {
            fr_proxal_admm_params a = prm->admm;
            a.tau = tau < 1 ? tau : 1;
            ff_proxal_admm_info info;
            if ((st = ff_proxal_admm_h(R.wn, &info, ws, &F, R.wk, &a, &hg)) != FR_OK)
                goto done;
            inner = info.iters;
            sub = info.thm41;
            t->factorisations += info.factorisations;
            t->floors += info.floors;
            t->newton += info.newton;
            t->newton_server += info.newton_server;
        } else if (P->h != FR_PROXAL_H_ZERO) {
            lk_ctx lc = {&R, &F};
            if ((hbuf == NULL && (hbuf = malloc(ffi_proxal_hsolve_len(d) * sizeof(double))) == NULL) ||
                (hidx == NULL && (hidx = malloc(d * sizeof(size_t))) == NULL)) {
                st = FR_ENOMEM;
                goto done;
            }
            ffi_proxal_hprob hp = {d, &lc, lk_eval, P->h, P->gamma, P->lo, P->hi, hbuf, hidx};   /* kept for the run */
            unsigned long fl = 0;
            memcpy(R.wn, R.wk, d * sizeof(double));
            if ((st = ffi_proxal_hsolve(&hp, R.wn, tau, prm->admm.newton_max, &sub, &inner,
                                        &t->factorisations, &fl)) != FR_OK)
                goto done;
            t->floors += fl;
        } else if ((st = newton_lk(&R, &F, quad, R.wn, tau, prm->admm.newton_max, &inner, &sub,
                                   &t->factorisations)) != FR_OK)
            goto done;
        if (alg3)
            t->newton += inner;
        t->inner[k] = inner;
        t->sub[k] = sub;
        t->inner_ok[k] = sub <= tau;
        if ((st = mu_update(&R, beta)) != FR_OK)
            goto done;
        double dw = 0, dmu = 0;
        for (size_t j = 0; j < d; j++)
            dw = fmax(dw, fabs(R.wn[j] - R.wk[j]));
        for (size_t j = 0; j < mt; j++)
            dmu = fmax(dmu, fabs(R.mun[j] - R.mu[j]));
        t->dw[k] = dw;
        t->dmu[k] = dmu;
        if ((st = records(&R, &t->kkt1[k], &t->kkt2[k], &t->obj[k], &t->feas[k])) != FR_OK)
            goto done;
        memcpy(R.wk, R.wn, d * sizeof(double));
        memcpy(R.mu, R.mun, mt * sizeof(double));
        if (t->keep & FR_PROXAL_KEEP_W)
            memcpy(t->w + (k + 1) * d, R.wk, d * sizeof(double));
        /* (8) in the safe direction, as ref: each side moved one ulp past its
         * last rounding (tau = RN(sbar/(k+1)^2) is within half an ulp), so
         * a tie of the rounded values (tau_9 = RN(0.1/100) = RN(0.001) =
         * eps1 with dw = 0, while 0.1/100 > 0.001 in binary64's values)
         * does not stop a run that (8) as stated does not stop */
        double tauU = ffi_next_up(tau);
        double lhs = ffi_next_up(dw + ffi_next_up(beta * tauU));
        if (lhs <= ffi_next_down_pos(beta * prm->eps1) && dmu <= ffi_next_down_pos(beta * prm->eps2)) {
            t->terminated = 1;
            t->thm31_ok = t->kkt1[k] <= prm->eps1 && t->kkt2[k] <= prm->eps2;
            break;
        }
    }
    if (!(t->keep & FR_PROXAL_KEEP_W))
        memcpy(t->w, R.wk, d * sizeof(double));
    memcpy(t->mu, R.mu, mt * sizeof(double));
    st = FR_OK;
done:
    free(hbuf);
    free(hidx);
    ff_proxal_admm_ws_clear(&ws);
    run_free(&R);
    return st;
}

int ff_proxal_alg1(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    return run(t, P, prm, 0);
}

int ff_proxal_alg3(ff_proxal_trace *t, const fr_proxal_problem *P, const fr_proxal_alg_params *prm)
{
    return run(t, P, prm, 1);
}
