/* SPDX-License-Identifier: Apache-2.0 */
/* admm.c -- fr_proxal_admm (+ info init/clear): 004 Algorithm 2 (inexact
 * ADMM) in MPFR at the working precision p = the precision of w[0]
 * (contract: fedref/proxal.h, fedfast/proxal.h "Algorithm 2").
 * Blocks as in fast/proxal/admm.c:
 *   server (14): grad phi_0(x) = grad F_0(x) + sum_i (rho_i x - rho_i u~_i), r = sum rho_i;
 *   client (15): grad phi_i(x) = grad F_i(x) + lam_i + rho_i x - rho_i w,  r = rho_i.
 * Every tolerance test is CERTIFIED for the stored numbers: each gradient
 * coordinate is one mpfr_sum of exact terms (the oracle's g, lam, and the
 * products rho x formed exactly at p + 64 bits: rho is binary64), rounded
 * up and down, and |v| <= max(RU(v), -RD(v)).  So are (18) (terms g +
 * lam - rho w + rho v) and (19) (RU sums), and info->thm41 = max_k
 * max(RU(G_k), -RD(G_k)), G_k = sum_{i=0}^n g_ik exactly (the oracle's g
 * taken as exact).  eps_{t+1} = RD(q^t).
 * Quadratic blocks: H_i + r I is factored ONCE per call (MPFR Cholesky,
 * round to nearest at p; a pivot <= 0 is FR_EDOM), each Newton step is a
 * solve, with at most one refinement step (then the floor or FR_EDOM).  Others: damped
 * Newton as fast's (full step if Armijo holds or the certified residual
 * halves, else Armijo backtracking), newton_max steps per subproblem. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "fedref/proxal.h"
#include "hsolve.h"

int fr_proxal_admm_info_init(fr_proxal_admm_info *info, mpfr_prec_t prec)
{
    if (info == NULL)
        return FR_ENULL;
    if (prec < MPFR_PREC_MIN || prec > FR_PREC_MAX)
        return FR_EPREC;
    memset(info, 0, sizeof *info);
    mpfr_init2(info->eps, prec);
    mpfr_init2(info->eps_tilde_sum, prec);
    mpfr_init2(info->thm41, prec);
    mpfr_set_zero(info->eps, 1);
    mpfr_set_zero(info->eps_tilde_sum, 1);
    mpfr_set_zero(info->thm41, 1);
    return FR_OK;
}

void fr_proxal_admm_info_clear(fr_proxal_admm_info *info)
{
    if (info == NULL || info->eps->_mpfr_d == NULL)
        return;
    mpfr_clear(info->eps);
    mpfr_clear(info->eps_tilde_sum);
    mpfr_clear(info->thm41);
    memset(info, 0, sizeof *info);
}

typedef struct {
    const fr_proxal_fsum *F;
    const fr_proxal_admm_params *prm;
    size_t n, d;
    mpfr_prec_t p;
    mpfr_t *u, *lam, *ut, *x, *y, *g, *gp, *s, *H, *M, *un, *gw;
    mpfr_t **L;           /* quadratic factors, this call */
    mpfr_t *T;            /* 2 n + 2 terms at p + 64 */
    mpfr_t Fx, Fy, a, b, c, r, eps;
    unsigned long newton, fact, floors;
    /* the block */
    size_t i;
    mpfr_t *bl, *bw;
} ctx_t;

static int ev(ctx_t *C, size_t i, mpfr_t *x, mpfr_ptr F, mpfr_t *g, mpfr_t *H)
{
    int st = C->F->eval(C->F->ctx, i, x, F, g, H);
    if (st != FR_OK)
        return st;
    if (F && !mpfr_number_p(F))
        return FR_ENONFINITE;
    if (g)
        for (size_t k = 0; k < C->d; k++)
            if (!mpfr_number_p(g[k]))
                return FR_ENONFINITE;
    return FR_OK;
}

/* r := r - a b, one rounding */
static void submul(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_fms(r, a, b, r, MPFR_RNDN);
    mpfr_neg(r, r, MPFR_RNDN);
}

/* |sum of the k terms T| bounded above (RU), also the nearest sum in near. */
static void absbound(ctx_t *C, size_t k, mpfr_ptr bound, mpfr_ptr near)
{
    mpfr_ptr tp[2 * FR_PROXAL_N_MAX + 4];
    for (size_t j = 0; j < k; j++)
        tp[j] = C->T[j];
    if (near)
        mpfr_sum(near, tp, k, MPFR_RNDN);
    mpfr_sum(C->a, tp, k, MPFR_RNDU);
    mpfr_sum(C->b, tp, k, MPFR_RNDD);
    mpfr_neg(C->b, C->b, MPFR_RNDN);
    mpfr_max(bound, C->a, C->b, MPFR_RNDU);
}

/* The attainable floor's multiple (as fast/proxal/admm.c's FLOOR_C). */
#define FLOOR_C 64

/* grad phi at x into gp (nearest), the certified inf-norm bound into out,
 * the attainable floor FLOOR_C (K + 2) 2^-p max_k S_k into fl (RU; S_k the
 * sum of the terms' magnitudes, K = 5 client, n + 3 server, as fast). */
static void grad_phi(ctx_t *C, mpfr_t *x, mpfr_ptr out, mpfr_ptr fl)
{
    const size_t n = C->n, d = C->d;
    const unsigned long K = C->i == 0 ? (unsigned long)n + 3 : 5;
    mpfr_set_zero(out, 1);
    mpfr_set_zero(fl, 1);
    for (size_t k = 0; k < d; k++) {
        size_t m = 0;
        mpfr_set(C->T[m++], C->g[k], MPFR_RNDN);
        if (C->i == 0) {
            for (size_t j = 0; j < n; j++) {
                mpfr_mul_d(C->T[m++], x[k], C->prm->rho[j], MPFR_RNDN);
                mpfr_mul_d(C->T[m], C->ut[j * d + k], C->prm->rho[j], MPFR_RNDN);
                mpfr_neg(C->T[m], C->T[m], MPFR_RNDN);
                m++;
            }
        } else {
            double rho = C->prm->rho[C->i - 1];
            mpfr_set(C->T[m++], C->bl[k], MPFR_RNDN);
            mpfr_mul_d(C->T[m++], x[k], rho, MPFR_RNDN);
            mpfr_mul_d(C->T[m], C->bw[k], -rho, MPFR_RNDN);
            m++;
        }
        absbound(C, m, C->c, C->gp[k]);
        mpfr_max(out, out, C->c, MPFR_RNDU);
        mpfr_set_zero(C->a, 1);
        for (size_t j = 0; j < m; j++)
            if (mpfr_sgn(C->T[j]) < 0)
                mpfr_sub(C->a, C->a, C->T[j], MPFR_RNDU);
            else
                mpfr_add(C->a, C->a, C->T[j], MPFR_RNDU);
        mpfr_max(fl, fl, C->a, MPFR_RNDU);
    }
    mpfr_mul_ui(fl, fl, FLOOR_C * (K + 2), MPFR_RNDU);
    mpfr_mul_2si(fl, fl, -(long)C->p, MPFR_RNDU);
}

/* Accept at the precision floor: eps < fl and res <= fl (contract:
 * fedref/proxal.h, "floors"). */
static int at_floor(ctx_t *C, mpfr_srcptr res, mpfr_srcptr fl)
{
    if (mpfr_less_p(C->eps, fl) && mpfr_lessequal_p(res, fl)) {
        C->floors++;
        return 1;
    }
    return 0;
}

/* phi(x) up to a constant, nearest at p (Armijo only). */
static void phi_val(ctx_t *C, mpfr_t *x, mpfr_ptr Fx, mpfr_ptr out)
{
    mpfr_set(out, Fx, MPFR_RNDN);
    for (size_t k = 0; k < C->d; k++) {
        if (C->i == 0) {
            for (size_t j = 0; j < C->n; j++) {
                mpfr_sub(C->a, C->ut[j * C->d + k], x[k], MPFR_RNDN);
                mpfr_sqr(C->a, C->a, MPFR_RNDN);
                mpfr_mul_d(C->a, C->a, 0.5 * C->prm->rho[j], MPFR_RNDN);
                mpfr_add(out, out, C->a, MPFR_RNDN);
            }
        } else {
            double rho = C->prm->rho[C->i - 1];
            mpfr_sub(C->a, x[k], C->bw[k], MPFR_RNDN);
            mpfr_mul(C->b, C->bl[k], C->a, MPFR_RNDN);
            mpfr_add(out, out, C->b, MPFR_RNDN);
            mpfr_sqr(C->a, C->a, MPFR_RNDN);
            mpfr_mul_d(C->a, C->a, 0.5 * rho, MPFR_RNDN);
            mpfr_add(out, out, C->a, MPFR_RNDN);
        }
    }
}

/* Cholesky of H + r I into M (lower, row-major). */
static int chol(ctx_t *C, mpfr_t *H, mpfr_t *M)
{
    const size_t d = C->d;
    C->fact++;
    for (size_t k = 0; k < d * d; k++)
        mpfr_set(M[k], H[k], MPFR_RNDN);
    for (size_t k = 0; k < d; k++)
        mpfr_add(M[k * d + k], M[k * d + k], C->r, MPFR_RNDN);
    for (size_t j = 0; j < d; j++) {
        for (size_t l = 0; l < j; l++)
            submul(M[j * d + j], M[j * d + l], M[j * d + l]);
        if (!(mpfr_sgn(M[j * d + j]) > 0) || !mpfr_number_p(M[j * d + j]))
            return FR_EDOM;
        mpfr_sqrt(M[j * d + j], M[j * d + j], MPFR_RNDN);
        for (size_t k = j + 1; k < d; k++) {
            for (size_t l = 0; l < j; l++)
                submul(M[k * d + j], M[k * d + l], M[j * d + l]);
            mpfr_div(M[k * d + j], M[k * d + j], M[j * d + j], MPFR_RNDN);
        }
    }
    return FR_OK;
}

/* s := (L L^T)^{-1} s */
static void cholsolve(ctx_t *C, mpfr_t *M, mpfr_t *s)
{
    const size_t d = C->d;
    for (size_t k = 0; k < d; k++) {
        for (size_t l = 0; l < k; l++)
            submul(s[k], M[k * d + l], s[l]);
        mpfr_div(s[k], s[k], M[k * d + k], MPFR_RNDN);
    }
    for (size_t k = d; k-- > 0;) {
        for (size_t l = k + 1; l < d; l++)
            submul(s[k], M[l * d + k], s[l]);
        mpfr_div(s[k], s[k], M[k * d + k], MPFR_RNDN);
    }
}

static int solve_block(ctx_t *C, mpfr_t *x)
{
    const size_t d = C->d;
    int quad = C->F->quad != NULL && C->F->quad(C->F->ctx, C->i) != 0, st;
    mpfr_t res, r2, p0, py, sl, fl, fl2;
    mpfr_inits2(C->p, res, r2, p0, py, sl, fl, fl2, (mpfr_ptr)0);
    if (quad) {
        if ((st = ev(C, C->i, x, NULL, C->g, NULL)) != FR_OK)
            goto out;
        grad_phi(C, x, res, fl);
        if (mpfr_lessequal_p(res, C->eps) || at_floor(C, res, fl)) {   /* or the warm start at the floor */
            st = FR_OK;
            goto out;
        }
        if (C->L[C->i] == NULL) {
            if ((C->L[C->i] = fri_vec_zero(d * d, C->p)) == NULL) {
                st = FR_ENOMEM;
                goto out;
            }
            if ((st = ev(C, C->i, x, NULL, NULL, C->H)) != FR_OK || (st = chol(C, C->H, C->L[C->i])) != FR_OK) {
                fri_vec_free(C->L[C->i], d * d);
                C->L[C->i] = NULL;
                goto out;
            }
        }
        for (int pass = 0; pass < 2; pass++) {   /* the solve, then one refinement */
            for (size_t k = 0; k < d; k++)
                mpfr_neg(C->s[k], C->gp[k], MPFR_RNDN);
            cholsolve(C, C->L[C->i], C->s);
            for (size_t k = 0; k < d; k++)
                mpfr_add(x[k], x[k], C->s[k], MPFR_RNDN);
            if (!fri_finite(x, d)) {
                st = FR_ENONFINITE;
                goto out;
            }
            C->newton++;
            if ((st = ev(C, C->i, x, NULL, C->g, NULL)) != FR_OK)
                goto out;
            grad_phi(C, x, res, fl);
            if (mpfr_lessequal_p(res, C->eps)) {
                st = FR_OK;
                goto out;
            }
        }
        st = at_floor(C, res, fl) ? FR_OK : FR_EDOM;   /* floor after one refinement */
        goto out;
    }
    if ((st = ev(C, C->i, x, C->Fx, C->g, C->H)) != FR_OK)
        goto out;
    grad_phi(C, x, res, fl);
    if (!mpfr_lessequal_p(res, C->eps) && at_floor(C, res, fl)) {   /* the warm start at the floor */
        st = FR_OK;
        goto out;
    }
    for (unsigned long it = 0; it < C->prm->newton_max; it++) {
        if (mpfr_lessequal_p(res, C->eps)) {
            st = FR_OK;
            goto out;
        }
        if ((st = chol(C, C->H, C->M)) != FR_OK)
            goto out;
        for (size_t k = 0; k < d; k++)
            mpfr_neg(C->s[k], C->gp[k], MPFR_RNDN);
        cholsolve(C, C->M, C->s);
        mpfr_set_zero(sl, 1);
        for (size_t k = 0; k < d; k++)
            mpfr_fma(sl, C->gp[k], C->s[k], sl, MPFR_RNDN);
        phi_val(C, x, C->Fx, p0);
        C->newton++;
        /* the full step first: Armijo, or the certified residual halves */
        for (size_t k = 0; k < d; k++)
            mpfr_add(C->y[k], x[k], C->s[k], MPFR_RNDN);
        if ((st = ev(C, C->i, C->y, C->Fy, C->g, C->H)) != FR_OK)
            goto out;
        grad_phi(C, C->y, r2, fl2);
        if (!mpfr_less_p(r2, res) && at_floor(C, res, fl)) {   /* no decrease at the floor */
            st = FR_OK;
            goto out;
        }
        phi_val(C, C->y, C->Fy, py);
        mpfr_mul_d(C->a, sl, 1e-4, MPFR_RNDN);
        mpfr_add(C->a, C->a, p0, MPFR_RNDN);
        mpfr_div_2ui(C->b, res, 1, MPFR_RNDN);
        int ok = mpfr_lessequal_p(py, C->a) || mpfr_lessequal_p(r2, C->b), full = 1;
        double al = 1;
        for (int h = 1; !ok && h <= 60 && mpfr_sgn(sl) < 0; h++) {   /* Armijo backtracking */
            al *= 0.5;
            full = 0;
            for (size_t k = 0; k < d; k++)
                mpfr_mul_d(C->a, C->s[k], al, MPFR_RNDN), mpfr_add(C->y[k], x[k], C->a, MPFR_RNDN);
            if ((st = ev(C, C->i, C->y, C->Fy, NULL, NULL)) != FR_OK)
                goto out;
            phi_val(C, C->y, C->Fy, py);
            mpfr_mul_d(C->a, sl, 1e-4 * al, MPFR_RNDN);
            mpfr_add(C->a, C->a, p0, MPFR_RNDN);
            ok = mpfr_lessequal_p(py, C->a);
        }
        if (!ok) {
            st = at_floor(C, res, fl) ? FR_OK : FR_EDOM;
            goto out;
        }
        for (size_t k = 0; k < d; k++)
            mpfr_set(x[k], C->y[k], MPFR_RNDN);
        mpfr_set(C->Fx, C->Fy, MPFR_RNDN);
        if (full) {
            mpfr_set(res, r2, MPFR_RNDN);
            mpfr_set(fl, fl2, MPFR_RNDN);
        } else {
            if ((st = ev(C, C->i, x, C->Fx, C->g, C->H)) != FR_OK)
                goto out;
            grad_phi(C, x, res, fl);
        }
    }
    st = mpfr_lessequal_p(res, C->eps) || at_floor(C, res, fl) ? FR_OK : FR_EDOM;
out:
    mpfr_clears(res, r2, p0, py, sl, fl, fl2, (mpfr_ptr)0);
    return st;
}

/* The server's phi_0 of (14) for fri_proxal_hsolve (h != 0): value (RN),
 * gradient (RN) with its certified error, floor, and the Hessian of F_0 +
 * (sum rho_i) I; the terms as grad_phi's. */
static int server_eval(void *c, mpfr_t *x, mpfr_ptr val, mpfr_t *v, mpfr_t *rp, mpfr_ptr fl, mpfr_t *H)
{
    ctx_t *C = c;
    const size_t n = C->n, d = C->d;
    int st = ev(C, 0, x, val ? C->Fx : NULL, C->g, H);
    if (st != FR_OK)
        return st;
    mpfr_ptr tp[2 * FR_PROXAL_N_MAX + 4];
    mpfr_set_zero(fl, 1);
    for (size_t k = 0; k < d; k++) {
        size_t m = 0;
        mpfr_set(C->T[m++], C->g[k], MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_mul_d(C->T[m++], x[k], C->prm->rho[j], MPFR_RNDN);
            mpfr_mul_d(C->T[m], C->ut[j * d + k], C->prm->rho[j], MPFR_RNDN);
            mpfr_neg(C->T[m], C->T[m], MPFR_RNDN);
            m++;
        }
        for (size_t j = 0; j < m; j++)
            tp[j] = C->T[j];
        mpfr_sum(v[k], tp, m, MPFR_RNDN);
        mpfr_sum(C->a, tp, m, MPFR_RNDU);
        mpfr_sum(C->b, tp, m, MPFR_RNDD);
        mpfr_sub(C->a, C->a, v[k], MPFR_RNDU);
        mpfr_sub(C->b, v[k], C->b, MPFR_RNDU);
        mpfr_max(rp[k], C->a, C->b, MPFR_RNDU);
        mpfr_set_zero(C->a, 1);
        for (size_t j = 0; j < m; j++)
            if (mpfr_sgn(C->T[j]) < 0)
                mpfr_sub(C->a, C->a, C->T[j], MPFR_RNDU);
            else
                mpfr_add(C->a, C->a, C->T[j], MPFR_RNDU);
        mpfr_max(fl, fl, C->a, MPFR_RNDU);
        if (H)
            mpfr_add(H[k * d + k], H[k * d + k], C->r, MPFR_RNDN);
    }
    mpfr_mul_ui(fl, fl, FLOOR_C * (n + 5), MPFR_RNDU);
    mpfr_mul_2si(fl, fl, -(long)C->p, MPFR_RNDU);
    if (val)
        phi_val(C, x, C->Fx, val);
    if (!fri_finite(v, d) || (H && !fri_finite(H, d * d)))
        return FR_ENONFINITE;
    return FR_OK;
}

static int class_rank(int s)
{
    return s == FR_ENULL ? 0 : s == FR_ESIZE ? 1 : s == FR_EPREC ? 2 : s == FR_ENONFINITE ? 3 : s == FR_EDOM ? 4
         : s == FR_OK ? 9 : 5;
}
static int first_class(int a, int b)
{
    return class_rank(b) < class_rank(a) ? b : a;
}

static int admm_run(mpfr_t *w, fr_proxal_admm_info *info, const fr_proxal_fsum *F, mpfr_t *const w0,
                    const fr_proxal_admm_params *prm, const fr_proxal_hreg *Hg)
{
    if (w == NULL || info == NULL || F == NULL || F->eval == NULL || w0 == NULL || prm == NULL ||
        prm->rho == NULL)
        return FR_ENULL;
    int st = first_class(Hg ? fr_proxal_hreg_check(Hg, F->d) : FR_OK,
                         F->d == 0 || F->d > FR_PROXAL_D_MAX ? FR_ESIZE : FR_OK);
    st = first_class(st, fr_proxal_admm_check(prm, F->n));
    if (st == FR_ENULL || st == FR_ESIZE)
        return st;
    mpfr_prec_t p = mpfr_get_prec(w[0]);
    if (p < MPFR_PREC_MIN || p > FR_PREC_MAX || info->eps->_mpfr_d == NULL)
        return info->eps->_mpfr_d == NULL ? FR_ENULL : FR_EPREC;
    if (st != FR_OK)
        return st;
    if (!fri_finite(w0, F->d))
        return FR_ENONFINITE;
    const int hk = Hg ? Hg->kind : FR_PROXAL_H_ZERO;
    if (hk == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < F->d; k++)
            if (mpfr_cmp_d(w0[k], Hg->lo[k]) < 0 || mpfr_cmp_d(w0[k], Hg->hi[k]) > 0)
                return FR_EDOM;                      /* w~^0 in dom h */
    const size_t n = F->n, d = F->d;
    ctx_t C;
    memset(&C, 0, sizeof C);
    C.F = F;
    C.prm = prm;
    C.n = n;
    C.d = d;
    C.p = p;
    C.u = fri_vec_zero(n * d, p);
    C.lam = fri_vec_zero(n * d, p);
    C.ut = fri_vec_zero(n * d, p);
    C.x = fri_vec_zero(d, p);
    C.y = fri_vec_zero(d, p);
    C.g = fri_vec_zero(d, p);
    C.gp = fri_vec_zero(d, p);
    C.s = fri_vec_zero(d, p);
    C.un = fri_vec_zero(d, p);
    C.gw = fri_vec_zero(d, p);
    C.H = fri_vec_zero(d * d, p);
    C.M = fri_vec_zero(d * d, p);
    C.T = fri_vec_zero(2 * n + 2, p + 64);
    C.L = calloc(n + 1, sizeof(mpfr_t *));
    mpfr_inits2(p, C.Fx, C.Fy, C.a, C.b, C.c, C.r, C.eps, (mpfr_ptr)0);
    mpfr_t et, e18, tau;
    mpfr_inits2(p, et, e18, (mpfr_ptr)0);
    mpfr_init2(tau, 53);
    mpfr_set_d(tau, prm->tau, MPFR_RNDN);
    int term = 0;
    unsigned long t = 0;
    if (!C.u || !C.lam || !C.ut || !C.x || !C.y || !C.g || !C.gp || !C.s || !C.un || !C.gw || !C.H ||
        !C.M || !C.T || !C.L) {
        st = FR_ENOMEM;
        goto done;
    }
    /* initialisation as printed */
    for (size_t i = 1; i <= n; i++) {
        if ((st = ev(&C, i, w0, NULL, C.g, NULL)) != FR_OK)
            goto done;
        for (size_t k = 0; k < d; k++) {
            mpfr_set(C.u[(i - 1) * d + k], w0[k], MPFR_RNDN);
            mpfr_neg(C.lam[(i - 1) * d + k], C.g[k], MPFR_RNDN);
            mpfr_div_d(C.a, C.g[k], prm->rho[i - 1], MPFR_RNDN);
            mpfr_sub(C.ut[(i - 1) * d + k], w0[k], C.a, MPFR_RNDN);
        }
    }
    for (size_t k = 0; k < d; k++)
        mpfr_set(C.x[k], w0[k], MPFR_RNDN);
    for (t = 0; t < prm->tmax; t++) {
        mpfr_set_d(C.eps, prm->q, MPFR_RNDN);
        mpfr_pow_ui(C.eps, C.eps, t, MPFR_RNDD);             /* eps_{t+1} = q^t */
        C.i = 0;
        mpfr_set_zero(C.r, 1);
        for (size_t j = 0; j < n; j++)
            mpfr_add_d(C.r, C.r, prm->rho[j], MPFR_RNDN);
        if (hk == FR_PROXAL_H_ZERO)
            st = solve_block(&C, C.x);                       /* (14) */
        else {                                               /* (14) with h: docs/PROXAL.md 4.5 */
            fri_proxal_hprob hp = {d, p, &C, server_eval, hk, Hg->gamma, Hg->lo, Hg->hi};
            st = fri_proxal_hsolve(&hp, C.x, C.eps, prm->newton_max, e18, &C.newton, &C.fact, &C.floors);
        }
        if (st != FR_OK)
            goto done;
        mpfr_set_zero(et, 1);
        for (size_t i = 1; i <= n; i++) {
            mpfr_t *ui = C.u + (i - 1) * d, *li = C.lam + (i - 1) * d, *uti = C.ut + (i - 1) * d;
            double rho = prm->rho[i - 1];
            C.i = i;
            C.bl = li;
            C.bw = C.x;
            mpfr_set_d(C.r, rho, MPFR_RNDN);
            if ((st = ev(&C, i, C.x, NULL, C.gw, NULL)) != FR_OK)
                goto done;
            for (size_t k = 0; k < d; k++)
                mpfr_set(C.un[k], ui[k], MPFR_RNDN);
            if ((st = solve_block(&C, C.un)) != FR_OK)       /* (15) */
                goto done;
            mpfr_t *v = prm->eps18 == FR_PROXAL_EPS18_PRINTED ? ui : C.un;
            mpfr_set_zero(e18, 1);
            for (size_t k = 0; k < d; k++) {                /* (18): g + lam - rho w + rho v */
                mpfr_set(C.T[0], C.gw[k], MPFR_RNDN);
                mpfr_set(C.T[1], li[k], MPFR_RNDN);
                mpfr_mul_d(C.T[2], C.x[k], -rho, MPFR_RNDN);
                mpfr_mul_d(C.T[3], v[k], rho, MPFR_RNDN);
                absbound(&C, 4, C.c, NULL);
                mpfr_max(e18, e18, C.c, MPFR_RNDU);
            }
            for (size_t k = 0; k < d; k++) {
                mpfr_sub(C.a, C.un[k], C.x[k], MPFR_RNDN);
                mpfr_mul_d(C.a, C.a, rho, MPFR_RNDN);
                mpfr_add(li[k], li[k], C.a, MPFR_RNDN);       /* (16) */
                mpfr_div_d(C.a, li[k], rho, MPFR_RNDN);
                mpfr_add(uti[k], C.un[k], C.a, MPFR_RNDN);   /* (17) */
                mpfr_set(ui[k], C.un[k], MPFR_RNDN);
            }
            if (!fri_finite(li, d) || !fri_finite(uti, d)) {
                st = FR_ENONFINITE;
                goto done;
            }
            mpfr_add(et, et, e18, MPFR_RNDU);
        }
        mpfr_add(C.a, C.eps, et, MPFR_RNDU);
        if (mpfr_lessequal_p(C.a, tau)) {                   /* (19) */
            term = 1;
            t++;
            break;
        }
    }
    /* Theorem 4.1 */
    mpfr_set_zero(C.c, 1);
    {
        mpfr_t *G = fri_vec_zero((n + 1) * d, p);
        if (G == NULL) {
            st = FR_ENOMEM;
            goto done;
        }
        for (size_t i = 0; i <= n && st == FR_OK; i++)
            st = ev(&C, i, C.x, NULL, G + i * d, NULL);
        if (st == FR_OK && hk != FR_PROXAL_H_ZERO) {   /* dist_inf(0, G + dh(w)) */
            mpfr_ptr tp[FR_PROXAL_N_MAX + 1];
            mpfr_t *v = fri_vec_zero(2 * d, p);
            if (v == NULL)
                st = FR_ENOMEM;
            for (size_t k = 0; k < d && st == FR_OK; k++) {
                for (size_t i = 0; i <= n; i++)
                    tp[i] = G[i * d + k];
                mpfr_sum(v[k], tp, n + 1, MPFR_RNDN);
                mpfr_sum(C.a, tp, n + 1, MPFR_RNDU);
                mpfr_sum(C.b, tp, n + 1, MPFR_RNDD);
                mpfr_sub(C.a, C.a, v[k], MPFR_RNDU);
                mpfr_sub(C.b, v[k], C.b, MPFR_RNDU);
                mpfr_max(v[d + k], C.a, C.b, MPFR_RNDU);
            }
            if (st == FR_OK)
                fri_proxal_hres(e18, hk, Hg->gamma, Hg->lo, Hg->hi, C.x, v, v + d, d);
            fri_vec_free(v, 2 * d);
        } else if (st == FR_OK) {
            mpfr_ptr tp[FR_PROXAL_N_MAX + 1];
            mpfr_set_zero(e18, 1);
            for (size_t k = 0; k < d; k++) {
                for (size_t i = 0; i <= n; i++)
                    tp[i] = G[i * d + k];
                mpfr_sum(C.a, tp, n + 1, MPFR_RNDU);
                mpfr_sum(C.b, tp, n + 1, MPFR_RNDD);
                mpfr_neg(C.b, C.b, MPFR_RNDN);
                mpfr_max(C.a, C.a, C.b, MPFR_RNDU);
                mpfr_max(e18, e18, C.a, MPFR_RNDU);
            }
        }
        fri_vec_free(G, (n + 1) * d);
        if (st != FR_OK)
            goto done;
    }
    info->iters = term ? t : prm->tmax;
    info->terminated = term;
    mpfr_set(info->eps, C.eps, MPFR_RNDU);
    mpfr_set(info->eps_tilde_sum, et, MPFR_RNDU);
    mpfr_set(info->thm41, e18, MPFR_RNDU);
    info->thm41_ok = mpfr_lessequal_p(info->thm41, tau);
    info->newton = C.newton;
    info->factorisations = C.fact;
    info->floors = C.floors;
    for (size_t k = 0; k < d; k++)
        mpfr_set(w[k], C.x[k], MPFR_RNDN);
done:
    fri_vec_free(C.u, n * d);
    fri_vec_free(C.lam, n * d);
    fri_vec_free(C.ut, n * d);
    fri_vec_free(C.x, d);
    fri_vec_free(C.y, d);
    fri_vec_free(C.g, d);
    fri_vec_free(C.gp, d);
    fri_vec_free(C.s, d);
    fri_vec_free(C.un, d);
    fri_vec_free(C.gw, d);
    fri_vec_free(C.H, d * d);
    fri_vec_free(C.M, d * d);
    fri_vec_free(C.T, 2 * n + 2);
    if (C.L) {
        for (size_t i = 0; i <= n; i++)
            fri_vec_free(C.L[i], d * d);
        free(C.L);
    }
    mpfr_clears(C.Fx, C.Fy, C.a, C.b, C.c, C.r, C.eps, et, e18, (mpfr_ptr)0);
    mpfr_clear(tau);
    return st;
}

int fr_proxal_admm(mpfr_t *w, fr_proxal_admm_info *info, const fr_proxal_fsum *F, mpfr_t *const w0,
                   const fr_proxal_admm_params *prm)
{
    return admm_run(w, info, F, w0, prm, NULL);
}

int fr_proxal_admm_h(mpfr_t *w, fr_proxal_admm_info *info, const fr_proxal_fsum *F, mpfr_t *const w0,
                     const fr_proxal_admm_params *prm, const fr_proxal_hreg *H)
{
    if (H == NULL)
        return FR_ENULL;
    return admm_run(w, info, F, w0, prm, H);
}
