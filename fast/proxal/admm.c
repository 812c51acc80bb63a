/* SPDX-License-Identifier: Apache-2.0 */
/* admm.c -- ff_proxal_admm and its workspace: 004 Algorithm 2 (inexact
 * ADMM) in binary64 with LAPACK (contract: fedfast/proxal.h, "Algorithm 2").
 *
 * Every block is  min_x phi(x) = F_i(x) + (linear) + r/2 ||x||^2 + const:
 *   server (14):  phi_0(x) = F_0(x) + sum_i rho_i/2 ||u~_i - x||^2, r = sum rho_i,
 *                 grad = grad F_0(x) + sum_i rho_i (x - u~_i);
 *   client (15):  phi_i(x) = F_i(x) + <lam_i, x - w> + rho_i/2 ||x - w||^2, r = rho_i,
 *                 grad = grad F_i(x) + lam_i + rho_i (x - w).
 * The tolerance ||grad phi||_inf <= eps is VERIFIED on the returned point:
 * the gradient is formed from the oracle's g (taken as exact: the oracle's
 * own error is the oracle's business) with K roundings per coordinate
 * (client K = 5: two products, three additions; server K = n + 3: n
 * products of a difference, n + 1 additions), so its error is at most
 * gamma_K S_k, S_k the sum of the terms' magnitudes (Higham ASNA (3.4),
 * (4.4)); we accept when |g_k| + (K + 2) u S_k (1 + 2^-20) + K 2^-1074 <=
 * eps for every k, the extra 2u covering the rounding of S_k itself.
 * Quadratic blocks (quad(i) != 0): the Hessian H_i + r I is factored by
 * dpotrf ONCE per workspace (kept while the oracle (eval, ctx) and r are
 * the same), then one Newton step = one solve with the factor (two
 * cblas_dtrsv: ffi_proxal_chol_solve below); if the verified
 * residual exceeds eps one step of iterative refinement (another solve
 * with the new residual); still above: accepted at the precision floor
 * (at_floor: eps < fl and res <= fl, info->floors) or FR_EDOM.  Other blocks: damped
 * Newton: the full step is taken when Armijo (c1 = 1e-4) holds for it or
 * its verified residual is at most half the current one (near the
 * minimiser the value test is lost in rounding); otherwise Armijo
 * backtracking, at most 60 halvings (none accepted: FR_EDOM); at most
 * newton_max steps per subproblem, else FR_EDOM -- except at the floor
 * (a full step that does not decrease res, no Armijo step, newton_max:
 * accepted iff eps < fl and res <= fl; also a warm start within fl).
 * Theorem 4.1 (info->thm41): G = sum_{i=0}^n grad F_i(w_out) from the
 * oracle, |fl(G_k)| + (n + 2) u A_k (1 + 2^-20) + (n + 1) 2^-1074 with A_k
 * = fl(sum |g_ik|) bounds |G_k| (n additions). */
#include <lapacke.h>
#include <float.h>
#include "../internal.h"
#include "fedfast/proxal.h"
#include "eval.h"

typedef int (*evalfn)(void *, size_t, const double *, double *, double *, double *);

struct ff_proxal_admm_ws {
    size_t n, d;
    double *u, *lam, *ut, *x, *y, *g, *g2, *s, *acc, *abs_, *un;
    double *Gu;                /* n blocks: grad F_i(u_i) of the current u_i (quadratic blocks' warm start) */
    unsigned char *guok;       /* n flags: Gu_i holds the oracle's gradient at the current u_i */
    double *Gx;                /* n blocks: grad F_i(w^{t+1}) of the current iterate ((18), Theorem 4.1) */
    double *H, *M;             /* non-quadratic Hessian / factor (lazy) */
    double *hbuf;              /* h != 0: the server solver's workspace (lazy, kept) */
    size_t *hidx;
    double **L;                /* n + 1 factors of quadratic blocks (lazy) */
    double *Lr;                /* the shift r each factor was made with */
    evalfn key_eval;
    void *key_ctx;
};

static const double U53 = 0x1p-53;

int ff_proxal_admm_ws_init(ff_proxal_admm_ws **ws, size_t n, size_t d)
{
    if (ws == NULL)
        return FR_ENULL;
    *ws = NULL;
    if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX)
        return FR_ESIZE;
    ff_proxal_admm_ws *W = calloc(1, sizeof *W);
    if (W == NULL)
        return FR_ENOMEM;
    W->n = n;
    W->d = d;
    W->u = malloc(n * d * sizeof(double));
    W->lam = malloc(n * d * sizeof(double));
    W->ut = malloc(n * d * sizeof(double));
    W->Gu = malloc(n * d * sizeof(double));
    W->guok = calloc(n, 1);
    W->Gx = malloc(n * d * sizeof(double));
    W->x = malloc(8 * d * sizeof(double));
    W->L = calloc(n + 1, sizeof(double *));
    W->Lr = calloc(n + 1, sizeof(double));
    if (!W->u || !W->lam || !W->ut || !W->Gu || !W->guok || !W->Gx || !W->x || !W->L || !W->Lr) {
        ff_proxal_admm_ws_clear(&W);
        return FR_ENOMEM;
    }
    W->y = W->x + d;
    W->g = W->x + 2 * d;
    W->g2 = W->x + 3 * d;
    W->s = W->x + 4 * d;
    W->acc = W->x + 5 * d;
    W->abs_ = W->x + 6 * d;
    W->un = W->x + 7 * d;
    *ws = W;
    return FR_OK;
}

void ff_proxal_admm_ws_clear(ff_proxal_admm_ws **ws)
{
    if (ws == NULL || *ws == NULL)
        return;
    ff_proxal_admm_ws *W = *ws;
    if (W->L)
        for (size_t i = 0; i <= W->n; i++)
            free(W->L[i]);
    free(W->L);
    free(W->Lr);
    free(W->u);
    free(W->lam);
    free(W->ut);
    free(W->Gu);
    free(W->guok);
    free(W->Gx);
    free(W->x);
    free(W->H);
    free(W->M);
    free(W->hbuf);
    free(W->hidx);
    free(W);
    *ws = NULL;
}

/* One block's data: i = 0 server, else client i (lam = lam_i, w = w^{t+1}). */
typedef struct {
    const ff_proxal_fsum *F;
    ff_proxal_admm_ws *W;
    const fr_proxal_admm_params *prm;
    size_t i;
    double r;
    const double *lam, *w;
    ff_proxal_admm_info *info;
} blk;

static int finite_v(const double *v, size_t d)
{
    for (size_t k = 0; k < d; k++)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

/* The attainable floor's multiple: a point exact up to rounding is certified
 * within FLOOR_C times the rounding part of the bound (see floor below). */
#define FLOOR_C 64.0

/* grad phi at x from the oracle's gF into out; returns the verified bound
 * of ||grad phi(x)||_inf (>= the exact value for the oracle's gF), and in
 * *floor the attainable floor at x: FLOOR_C max_k [(K + 2) u S_k (1 +
 * 2^-20) + K 2^-1074], FLOOR_C times the rounding part of the bound. */
static double grad_phi(const blk *b, const double *x, const double *gF, double *out, double *floor_)
{
    const size_t d = b->W->d, n = b->W->n;
    double bound = 0, fl = 0;
    for (size_t k = 0; k < d; k++) {
        double v, S;
        unsigned K;
        if (b->i == 0) {
            v = gF[k];
            S = fabs(gF[k]);
            for (size_t j = 0; j < n; j++) {
                double ut = b->W->ut[j * d + k];
                v += b->prm->rho[j] * (x[k] - ut);
                S += b->prm->rho[j] * (fabs(x[k]) + fabs(ut));
            }
            K = (unsigned)n + 3;
        } else {
            v = ((gF[k] + b->lam[k]) + b->r * x[k]) - b->r * b->w[k];
            S = fabs(gF[k]) + fabs(b->lam[k]) + b->r * fabs(x[k]) + b->r * fabs(b->w[k]);
            K = 5;
        }
        out[k] = v;
        double rp = (double)(K + 2) * U53 * S * (1 + 0x1p-20) + (double)K * 0x1p-1074;
        double e = fabs(v) + rp;
        fl = fmax(fl, rp);
        if (!(e <= bound))
            bound = isnan(e) ? e : fmax(bound, e);
    }
    *floor_ = FLOOR_C * fl;
    return bound;
}

/* Accept x at the precision floor: eps below the attainable floor and the
 * certified residual within it (contract: fedfast/proxal.h, "floors"). */
static int at_floor(const blk *b, double res, double fl, double eps)
{
    if (eps < fl && res <= fl) {
        b->info->floors++;
        return 1;
    }
    return 0;
}

/* phi(x) up to a constant (Armijo only). */
static double phi_val(const blk *b, const double *x, double Fx)
{
    const size_t d = b->W->d, n = b->W->n;
    double v = Fx;
    for (size_t k = 0; k < d; k++) {
        if (b->i == 0) {
            for (size_t j = 0; j < n; j++) {
                double t = b->W->ut[j * d + k] - x[k];
                v += 0.5 * b->prm->rho[j] * t * t;
            }
        } else {
            double t = x[k] - b->w[k];
            v += b->lam[k] * t + 0.5 * b->r * t * t;
        }
    }
    return v;
}

static int eval(const blk *b, const double *x, double *Fx, double *g, double *H)
{
    int st = b->F->eval(b->F->ctx, b->i, x, Fx, g, H);
    if (st != FR_OK)
        return st;
    if ((Fx && !isfinite(*Fx)) || (g && !finite_v(g, b->W->d)))
        return FR_ENONFINITE;
    return FR_OK;
}

/* The factorisation and solve of the row-major d x d matrix H + r I (its
 * lower triangle read), kept COLUMN-major: the transposed copy is made
 * once, at the factorisation (LAPACK dpotrf 'L' through LAPACKE's _work
 * entry, which does no NaN scan), and every solve is the two triangular
 * solves L y = rhs, L^T x = y by cblas_dtrsv on the factor.  That is what
 * LAPACK's dpotrs computes (it calls dtrsm twice with one right-hand side;
 * OpenBLAS's dtrsm then packs the triangle on every call, 2-3x slower than
 * dtrsv at d = 300-500); a triangular solve by substitution has the
 * componentwise backward error |dL| <= gamma_d |L| in any order of the
 * inner products (Higham ASNA Thm 8.5), so the error bound of the solve is
 * the same as dpotrs's (Thm 10.4).  No bound of fedref rests on the
 * solve's accuracy anyway: every Newton step's result is VERIFIED by the
 * residual of the returned point (grad_phi above; the refinement step and
 * the floor when it is not good enough).  ffi_proxal_chol: FR_OK,
 * FR_ENONFINITE (H + r I not finite), FR_EDOM (not positive definite in
 * binary64).  ffi_proxal_chol_solve: rhs := (H + r I)^-1 rhs;
 * FR_EINTERNAL on a NaN in rhs (as LAPACKE's NaN scan of the right-hand
 * side did). */
int ffi_proxal_chol(double *Mc, const double *H, double r, size_t d)
{
    for (size_t k = 0; k < d; k++)
        for (size_t l = 0; l < d; l++)
            Mc[l * d + k] = k == l ? H[k * d + l] + r : H[k * d + l];
    if (!finite_v(Mc, d * d))
        return FR_ENONFINITE;
    lapack_int in = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)d, Mc, (lapack_int)d);
    return in == 0 ? FR_OK : FR_EDOM;
}

int ffi_proxal_chol_solve(const double *Mc, double *rhs, size_t d)
{
    for (size_t k = 0; k < d; k++)
        if (isnan(rhs[k]))
            return FR_EINTERNAL;
    if (d > (size_t)INT_MAX)
        return FR_EINTERNAL;
    const int di = (int)d;
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, di, Mc, di, rhs, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, di, Mc, di, rhs, 1);
    return FR_OK;
}

/* Cholesky of H + r I into M (ffi_proxal_chol's column-major factor). */
static int factor(const blk *b, const double *H, double *M)
{
    const size_t d = b->W->d;
    int st = ffi_proxal_chol(M, H, b->r, d);
    if (st != FR_ENONFINITE)
        b->info->factorisations++;
    return st;
}

static int solve(const blk *b, const double *M, double *rhs)
{
    return ffi_proxal_chol_solve(M, rhs, b->W->d);
}

/* Solve block b from x (in place) to the verified tolerance eps.  gc, gcok
 * (NULL: none): a cache of the oracle's gradient at x, valid iff *gcok.
 * A quadratic block takes its warm-start test from a valid cache instead
 * of an evaluation (the oracle is a function: the same numbers) and leaves
 * in it the gradient of its last evaluation, at the returned x (the one
 * that verified it); any other block invalidates it. */
static int solve_block(const blk *b, double *x, double eps, double *gc, unsigned char *gcok)
{
    ff_proxal_admm_ws *W = b->W;
    const size_t d = W->d;
    double *g = W->g, *gp = W->g2, *s = W->s, *y = W->y;
    int quad = b->F->quad != NULL && b->F->quad(b->F->ctx, b->i) != 0;
    int st;
    double Fx, fl;
    if (gc != NULL && !quad)
        *gcok = 0;
    if (quad) {
        if (gc != NULL && *gcok)
            memcpy(g, gc, d * sizeof(double));
        else {
            if (gc != NULL)
                *gcok = 0;
            if ((st = eval(b, x, NULL, g, NULL)) != FR_OK)
                return st;
            if (gc != NULL) {
                memcpy(gc, g, d * sizeof(double));
                *gcok = 1;
            }
        }
        double r0 = grad_phi(b, x, g, gp, &fl);
        if (r0 <= eps || at_floor(b, r0, fl, eps))   /* the warm start already at the floor */
            return FR_OK;
        if (W->L[b->i] == NULL || W->Lr[b->i] != b->r) {
            if (W->L[b->i] == NULL && (W->L[b->i] = malloc(d * d * sizeof(double))) == NULL)
                return FR_ENOMEM;
            if (W->H == NULL && (W->H = malloc(d * d * sizeof(double))) == NULL)
                return FR_ENOMEM;
            if ((st = eval(b, x, NULL, NULL, W->H)) != FR_OK)
                return st;
            W->Lr[b->i] = NAN;
            if ((st = factor(b, W->H, W->L[b->i])) != FR_OK)
                return st;
            W->Lr[b->i] = b->r;
        }
        double res = 0;
        for (int pass = 0; pass < 2; pass++) {   /* the solve, then one refinement */
            for (size_t k = 0; k < d; k++)
                s[k] = -gp[k];
            if (gc != NULL)
                *gcok = 0;                          /* x moves: valid again after its evaluation */
            if ((st = solve(b, W->L[b->i], s)) != FR_OK)
                return st;
            for (size_t k = 0; k < d; k++)
                x[k] += s[k];
            if (!finite_v(x, d))
                return FR_ENONFINITE;
            b->info->newton++;
            if ((st = eval(b, x, NULL, g, NULL)) != FR_OK)
                return st;
            if (gc != NULL) {
                memcpy(gc, g, d * sizeof(double));   /* x moved: its gradient */
                *gcok = 1;
            }
            if ((res = grad_phi(b, x, g, gp, &fl)) <= eps)
                return FR_OK;
        }
        return at_floor(b, res, fl, eps) ? FR_OK : FR_EDOM;   /* floor after one refinement */
    }
    if ((W->H == NULL && (W->H = malloc(d * d * sizeof(double))) == NULL) ||
        (W->M == NULL && (W->M = malloc(d * d * sizeof(double))) == NULL))
        return FR_ENOMEM;
    if ((st = eval(b, x, &Fx, g, W->H)) != FR_OK)
        return st;
    double res = grad_phi(b, x, g, gp, &fl), fl2;
    if (!(res <= eps) && at_floor(b, res, fl, eps))   /* the warm start already at the floor */
        return FR_OK;
    for (unsigned long it = 0; it < b->prm->newton_max; it++) {
        if (res <= eps)
            return FR_OK;
        if ((st = factor(b, W->H, W->M)) != FR_OK)
            return st;
        for (size_t k = 0; k < d; k++)
            s[k] = -gp[k];
        if ((st = solve(b, W->M, s)) != FR_OK)
            return st;
        double slope = 0, p0 = phi_val(b, x, Fx), a = 1, Fy = 0;
        for (size_t k = 0; k < d; k++)
            slope += gp[k] * s[k];
        b->info->newton++;
        /* the full step first: taken if Armijo holds or the verified residual halves */
        for (size_t k = 0; k < d; k++)
            y[k] = x[k] + s[k];
        if ((st = eval(b, y, &Fy, g, W->H)) != FR_OK)
            return st;
        double r2 = grad_phi(b, y, g, gp, &fl2);
        if (!(r2 < res) && at_floor(b, res, fl, eps))   /* no decrease at the floor: keep x */
            return FR_OK;
        int ok = phi_val(b, y, Fy) <= p0 + 1e-4 * slope || r2 <= 0.5 * res;
        for (int h = 1; !ok && h <= 60 && slope < 0; h++) {   /* Armijo backtracking */
            a *= 0.5;
            for (size_t k = 0; k < d; k++)
                y[k] = x[k] + a * s[k];
            if ((st = eval(b, y, &Fy, NULL, NULL)) != FR_OK)
                return st;
            ok = phi_val(b, y, Fy) <= p0 + 1e-4 * a * slope;
        }
        if (!ok) {
            return at_floor(b, res, fl, eps) ? FR_OK : FR_EDOM;
        }
        memcpy(x, y, d * sizeof(double));
        if (a != 1) {
            if ((st = eval(b, x, &Fx, g, W->H)) != FR_OK)
                return st;
            res = grad_phi(b, x, g, gp, &fl);
        } else {
            Fx = Fy;
            res = r2;
            fl = fl2;
        }
    }
    return res <= eps || at_floor(b, res, fl, eps) ? FR_OK : FR_EDOM;
}

/* The server's phi_0 of (14) for ffi_proxal_hsolve (h != 0): value (Armijo
 * only), the gradient grad_phi's way with its per-coordinate error bound,
 * the floor, and the Hessian of F_0 plus (sum rho_i) I. */
static int server_eval(void *c, const double *x, double *val, double *v, double *rp, double *fl, double *H)
{
    const blk *b = c;
    const size_t d = b->W->d, n = b->W->n;
    double Fx = 0, *gF = b->W->g, m = 0;
    int st = eval(b, x, val ? &Fx : NULL, gF, H);
    if (st != FR_OK)
        return st;
    for (size_t k = 0; k < d; k++) {
        double s = gF[k], S = fabs(gF[k]);
        for (size_t j = 0; j < n; j++) {
            double ut = b->W->ut[j * d + k];
            s += b->prm->rho[j] * (x[k] - ut);
            S += b->prm->rho[j] * (fabs(x[k]) + fabs(ut));
        }
        v[k] = s;
        rp[k] = (double)(n + 5) * U53 * S * (1 + 0x1p-20) + (double)(n + 3) * 0x1p-1074;
        m = fmax(m, rp[k]);
        if (H)
            H[k * d + k] += b->r;
    }
    *fl = FLOOR_C * m;
    if (val)
        *val = phi_val(b, x, Fx);
    if (!finite_v(v, d) || (H && !finite_v(H, d * d)))
        return FR_ENONFINITE;
    return FR_OK;
}

/* ||gF + lam - rho (w - v)||_inf, (18) with v = u_i^t (printed) or u_i^{t+1} (code). */
static double eps18(const double *gF, const double *lam, double rho, const double *w, const double *v,
                    size_t d)
{
    double e = 0;
    for (size_t k = 0; k < d; k++)
        e = fmax(e, fabs(gF[k] + lam[k] - rho * (w[k] - v[k])));
    return e;
}

/* The earlier of two statuses in the class order of fedref_common.h. */
static int class_rank(int s)
{
    return s == FR_ENULL ? 0 : s == FR_ESIZE ? 1 : s == FR_ENONFINITE ? 2 : s == FR_EDOM ? 3 : s == FR_OK ? 9 : 4;
}
static int first_class(int a, int b)
{
    return class_rank(b) < class_rank(a) ? b : a;
}

static int admm_run(double *w, ff_proxal_admm_info *info, ff_proxal_admm_ws *ws, const ff_proxal_fsum *F,
                    const double *w0, const fr_proxal_admm_params *prm, const fr_proxal_hreg *Hg)
{
    if (w == NULL || info == NULL || ws == NULL || F == NULL || F->eval == NULL || w0 == NULL ||
        prm == NULL || prm->rho == NULL)
        return FR_ENULL;
    int st = first_class(Hg ? fr_proxal_hreg_check(Hg, F->d) : FR_OK,
                         F->n != ws->n || F->d != ws->d ? FR_ESIZE : FR_OK);
    st = first_class(st, fr_proxal_admm_check(prm, F->n));
    if (st != FR_OK)
        return st;
    const size_t n = F->n, d = F->d;
    if (!finite_v(w0, d))
        return FR_ENONFINITE;
    const int hk = Hg ? Hg->kind : FR_PROXAL_H_ZERO;
    if (hk == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < d; k++)
            if (w0[k] < Hg->lo[k] || w0[k] > Hg->hi[k])
                return FR_EDOM;                      /* w~^0 in dom h */
    ff_proxal_admm_ws *W = ws;
    if (W->key_eval != F->eval || W->key_ctx != F->ctx) {   /* another oracle: drop the factors */
        for (size_t i = 0; i <= n; i++)
            W->Lr[i] = NAN;
        W->key_eval = F->eval;
        W->key_ctx = F->ctx;
    }
    ff_proxal_admm_info In = {0};
    blk b = {F, W, prm, 0, 0, NULL, NULL, &In};
    double *x = W->x, *g = W->g, *un = W->un;
    /* initialisation as printed: u_i^0 = w~0, lam_i^0 = -grad F_i(w~0), u~_i^0 = w~0 - grad F_i(w~0)/rho_i */
    for (size_t i = 1; i <= n; i++) {
        b.i = i;
        if ((st = eval(&b, w0, NULL, g, NULL)) != FR_OK)
            goto fail;
        for (size_t k = 0; k < d; k++) {
            W->u[(i - 1) * d + k] = w0[k];
            W->lam[(i - 1) * d + k] = -g[k];
            W->ut[(i - 1) * d + k] = w0[k] - g[k] / prm->rho[i - 1];
        }
        memcpy(W->Gu + (i - 1) * d, g, d * sizeof(double));   /* grad F_i(u_i^0) */
        W->guok[i - 1] = 1;
    }
    double R = 0;
    for (size_t i = 0; i < n; i++)
        R += prm->rho[i];
    memcpy(x, w0, d * sizeof(double));
    double eps = 1, etsum = 0;
    int term = 0;
    unsigned long t;
    for (t = 0; t < prm->tmax; t++) {
        if (t > 0)
            eps *= prm->q;                          /* eps_{t+1} = q^t */
        b.i = 0;
        b.r = R;
        const unsigned long nb = In.newton;
        if (hk == FR_PROXAL_H_ZERO)
            st = solve_block(&b, x, eps, NULL, NULL);   /* (14) from w^t */
        else {                                       /* (14) with h: docs/PROXAL.md 4.5 */
            if ((W->hbuf == NULL && (W->hbuf = malloc(ffi_proxal_hsolve_len(d) * sizeof(double))) == NULL) ||
                (W->hidx == NULL && (W->hidx = malloc(d * sizeof(size_t))) == NULL)) {
                st = FR_ENOMEM;
                goto fail;
            }
            ffi_proxal_hprob hp = {d, &b, server_eval, hk, Hg->gamma, Hg->lo, Hg->hi, W->hbuf, W->hidx};
            double hr;
            st = ffi_proxal_hsolve(&hp, x, eps, prm->newton_max, &hr, &In.newton, &In.factorisations,
                                   &In.floors);
        }
        In.newton_server += In.newton - nb;
        if (st != FR_OK)
            goto fail;
        etsum = 0;
        for (size_t i = 1; i <= n; i++) {
            double *ui = W->u + (i - 1) * d, *li = W->lam + (i - 1) * d, *uti = W->ut + (i - 1) * d;
            double *gxi = W->Gx + (i - 1) * d, *gui = W->Gu + (i - 1) * d;
            double rho = prm->rho[i - 1], e18;
            b.i = i;
            b.r = rho;
            b.lam = li;
            b.w = x;
            if ((st = eval(&b, x, NULL, gxi, NULL)) != FR_OK)  /* grad F_i(w^{t+1}) */
                goto fail;
            memcpy(un, ui, d * sizeof(double));
            if ((st = solve_block(&b, un, eps, gui, W->guok + (i - 1))) != FR_OK)   /* (15) from u_i^t; gui follows un */
                goto fail;
            e18 = eps18(gxi, li, rho, x, prm->eps18 == FR_PROXAL_EPS18_PRINTED ? ui : un, d);
            for (size_t k = 0; k < d; k++) {
                li[k] += rho * (un[k] - x[k]);              /* (16) */
                uti[k] = un[k] + li[k] / rho;               /* (17) */
                ui[k] = un[k];
            }
            if (!finite_v(li, d) || !finite_v(uti, d)) {
                st = FR_ENONFINITE;
                goto fail;
            }
            etsum += e18;                                   /* (18) */
        }
        if (eps + etsum <= prm->tau) {                      /* (19) */
            term = 1;
            t++;
            break;
        }
    }
    if (!term)
        t = prm->tmax;
    /* Theorem 4.1: sum_{i=0}^n grad F_i(w^{t+1}); the clients' gradients
     * at w^{t+1} are the last iteration's (18) ones (x has not moved since) */
    for (size_t k = 0; k < d; k++)
        W->acc[k] = W->s[k] = 0;
    for (size_t i = 0; i <= n; i++) {
        b.i = i;
        if (i == 0) {
            if ((st = eval(&b, x, NULL, g, NULL)) != FR_OK)
                goto fail;
        } else
            memcpy(g, W->Gx + (i - 1) * d, d * sizeof(double));
        for (size_t k = 0; k < d; k++) {
            W->acc[k] += g[k];
            W->s[k] += fabs(g[k]);
        }
    }
    double th = 0;
    if (hk == FR_PROXAL_H_ZERO)
        for (size_t k = 0; k < d; k++)
            th = fmax(th, fabs(W->acc[k]) + (double)(n + 2) * U53 * W->s[k] * (1 + 0x1p-20) +
                              (double)(n + 1) * 0x1p-1074);
    else {   /* dist_inf(0, G + dh(w)): the same sum bound per coordinate, then dh */
        for (size_t k = 0; k < d; k++)
            W->s[k] = (double)(n + 2) * U53 * W->s[k] * (1 + 0x1p-20) + (double)(n + 1) * 0x1p-1074;
        th = ffi_proxal_hres(hk, Hg->gamma, Hg->lo, Hg->hi, x, W->acc, W->s, d);
    }
    In.iters = t;
    In.terminated = term;
    In.eps = eps;
    In.eps_tilde_sum = etsum;
    In.thm41 = th;
    In.thm41_ok = th <= prm->tau;
    memcpy(w, x, d * sizeof(double));
    *info = In;
    return FR_OK;
fail:
    return st;
}

int ff_proxal_admm(double *w, ff_proxal_admm_info *info, ff_proxal_admm_ws *ws, const ff_proxal_fsum *F,
                   const double *w0, const fr_proxal_admm_params *prm)
{
    return admm_run(w, info, ws, F, w0, prm, NULL);
}

int ff_proxal_admm_h(double *w, ff_proxal_admm_info *info, ff_proxal_admm_ws *ws, const ff_proxal_fsum *F,
                     const double *w0, const fr_proxal_admm_params *prm, const fr_proxal_hreg *H)
{
    if (H == NULL)
        return FR_ENULL;
    return admm_run(w, info, ws, F, w0, prm, H);
}
