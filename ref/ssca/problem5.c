/* SPDX-License-Identifier: Apache-2.0 */
/* problem5.c -- Problem 5 of 000 (Sec. III-B) with the surrogates (7) and
 * (15), for M constraints:
 *   min_{w, s} t0 ||w||^2 + g0^T w + c sum_m s_m
 *   s.t. Fbar_m(w) = kappa_m + g_m^T w + tau ||w||^2 <= s_m,  s_m >= 0.
 *
 * Dual.  With multipliers nu_m for Fbar_m <= s_m and c - nu_m for s_m >= 0
 * (stationarity in s), nu lies in the box [0, c]^M and
 *   L(w, nu) = S ||w||^2 + r^T w + kappa^T nu,  r = g0 + G^T nu,  S = t0 + tau sum nu,
 *   w(nu) = -r / (2 S),  D(nu) = kappa^T nu - ||r||^2 / (4 S),
 *   grad D_m = Fbar_m(w(nu)),  Hess D = -J J^T / (2 S),  J_m = g_m + 2 tau w(nu)
 * (concave, singular when the J_m are dependent: M > d, duplicates).
 * KKT: 2 t0 w + g0 + sum nu_m (g_m + 2 tau w) = 0 (w = w(nu)); nu_m = 0 =>
 * Fbar_m <= 0 = s_m; 0 < nu_m < c => Fbar_m = 0 = s_m; nu_m = c =>
 * s_m = Fbar_m >= 0.  w* is unique (2 t0-strongly convex primal), nu is not.
 *
 * Method.  (1) A primal active-set method on the box (num_solve_dual:
 * Newton steps on the face of the free multipliers, regularised by a tiny
 * Levenberg-Marquardt term so that directions where D is flat run to the
 * box, cut at the first bound, Armijo backtracking; the most violated
 * bound is released when a face is solved), in MPFR at a working
 * precision wp, all through the exact Gram matrix of b_0 = g0, b_m = g_m,
 * at most P5_MAXIT(M) iterations.  It only proposes which
 * multipliers are 0 (Z), c (C) or free (F).  (2) The exact KKT point for
 * that proposal.  For m, k in F, subtracting the equations
 *   P_m(nu) = 4 S^2 kappa_m - 2 S g_m^T r + tau ||r||^2 = 0   (= 4 S^2 Fbar_m(w(nu)))
 * gives the LINEAR equations 2 S (kappa_m - kappa_k) = (g_m - g_k)^T r in
 * nu_F; solved exactly (GMP rationals), their solutions are nu_F = p + x v
 * (non-pivot variables beyond x are fixed to the numerical values, exact
 * dyadic numbers: any point of a face of optimal nu will do), and P_f0 = 0
 * is a quadratic A2 x^2 + A1 x + A0 = 0.  Its roots lie in Q(sqrt(Delta)),
 * Delta = A1^2 - 4 A2 A0, where signs are decided exactly (a + b sqrt(Delta):
 * compare a^2 with b^2 Delta).  A root is accepted iff every KKT condition
 * holds exactly: nu_F in [0, c], S > 0, P_m <= 0 on Z, P_m >= 0 on C.
 * Then (w, s, nu) = (w(nu), max(0, Fbar(w)), nu) is an exact optimal
 * primal-dual point, every component a + b sqrt(Delta) with rational a, b:
 * rational (b = 0 or Delta a square: one correctly rounded mpfr_set_q) or
 * irrational (Ziv loop, which ends); exact zeros (s_m on Z and F, w_j when
 * r_j = 0) are +0.  A refused proposal restarts (1) at twice the precision
 * (P5_ATTEMPTS times), then FR_EINTERNAL.
 * (3) The certificate (fedspec/ssca.h) is evaluated at the returned,
 * rounded values (nu clamped to [0, c]), exactly, each bound rounded up:
 *   gap = Phi(w) - D(nu) = sum_m [(c - nu_m) Fbar_m^+ + nu_m Fbar_m^-]
 *         + S ||w - w(nu)||^2                  (every term >= 0),
 * the identity Phi - L(w, nu) = sum_m (c max(0, Fbar_m) - nu_m Fbar_m) and
 * L(w, nu) - D(nu) = S ||w - w(nu)||^2; radius = sqrt(gap / t0), since
 * Phi(w) - Phi* >= t0 ||w - w*||^2 and D(nu) <= Phi* (weak duality).
 * Contract: include/fedref/ssca.h. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

#define P5_MAXIT(M) (200 + 40 * (unsigned long)(M))
#define P5_ATTEMPTS 6
#define P5_AMBIG 6                 /* ambiguous multipliers tried at their bound */

/* ==== argument checks ====================================================== */

static int p5_args(mpfr_t *w, mpfr_t *s, mpfr_t *nu, mpfr_t *const g0, mpfr_t *const kappa,
                   mpfr_t *const G, size_t M, size_t d, mpfr_srcptr t0, mpfr_srcptr tau,
                   mpfr_srcptr c)
{
    if (w == NULL || s == NULL || nu == NULL || kappa == NULL || G == NULL || t0 == NULL
        || tau == NULL || c == NULL)
        return FR_ENULL;
    if (!fri_dims_ok(M, d) || !fri_dims_ok(M + 1, d) || !fri_dims_ok(M + 1, M + 1))
        return FR_ESIZE;
    if (!mpfr_number_p(t0) || !mpfr_number_p(tau) || !mpfr_number_p(c)
        || (g0 != NULL && !fri_finite(g0, d)) || !fri_finite(kappa, M) || !fri_finite(G, M * d))
        return FR_ENONFINITE;
    if (mpfr_sgn(t0) <= 0 || mpfr_sgn(tau) < 0 || mpfr_sgn(c) <= 0)
        return FR_EDOM;
    size_t z = sizeof(mpfr_t);
    if (fri_overlap(w, d * z, s, M * z) || fri_overlap(w, d * z, nu, M * z)
        || fri_overlap(s, M * z, nu, M * z))
        return FR_EDOM;                                   /* outputs overlap */
    return FR_OK;
}

/* ==== the problem, exactly ================================================= */

typedef struct {
    size_t M, d, n;            /* n = M + 1 basis vectors b_0 = g0 (or 0), b_m = g_m */
    mpfr_t *const g0, *const kappa, *const G;
    mpfr_srcptr t0, tau, c;
    mpfr_t *Gx;                /* exact Gram b_i^T b_k, n x n */
    mpq_t *Gq;                 /* the same, rationals */
    mpq_t *kq;                 /* kappa */
    mpq_t t0q, tauq, cq;
} p5_t;

/* b_i[j] (NULL: the zero vector b_0 when g0 is NULL) */
static mpfr_ptr basis(const p5_t *P, size_t i, size_t j)
{
    if (i == 0)
        return P->g0 ? P->g0[j] : NULL;
    return P->G[(i - 1) * P->d + j];
}

static int q_big(const mpq_t q)
{
    return mpz_sizeinbase(mpq_numref(q), 2) > (size_t)FRI_EXACT_PREC_MAX
        || mpz_sizeinbase(mpq_denref(q), 2) > (size_t)FRI_EXACT_PREC_MAX;
}

/* The exact Gram matrix and the rationals of the data. */
static int p5_setup(p5_t *P)
{
    size_t n = P->n, d = P->d;
    int st = FR_OK;
    P->Gx = malloc(n * n * sizeof *P->Gx);
    P->Gq = malloc(n * n * sizeof *P->Gq);
    P->kq = malloc(P->M * sizeof *P->kq);
    mpfr_t *pr = malloc(d * sizeof *pr);
    mpfr_ptr *ptr = malloc(d * sizeof *ptr);
    if (!P->Gx || !P->Gq || !P->kq || !pr || !ptr) {
        free(P->Gx); free(P->Gq); free(P->kq); free(pr); free(ptr);
        P->Gx = NULL; P->Gq = NULL; P->kq = NULL;
        return FR_ENOMEM;
    }
    for (size_t k = 0; k < n * n; k++) {
        mpfr_init2(P->Gx[k], MPFR_PREC_MIN);
        mpq_init(P->Gq[k]);
    }
    for (size_t m = 0; m < P->M; m++) {
        mpq_init(P->kq[m]);
        mpfr_get_q(P->kq[m], P->kappa[m]);
    }
    mpq_inits(P->t0q, P->tauq, P->cq, NULL);
    mpfr_get_q(P->t0q, P->t0);
    mpfr_get_q(P->tauq, P->tau);
    mpfr_get_q(P->cq, P->c);
    for (size_t j = 0; j < d; j++)
        mpfr_init2(pr[j], MPFR_PREC_MIN);
    for (size_t i = 0; i < n && st == FR_OK; i++)
        for (size_t k = i; k < n && st == FR_OK; k++) {
            size_t cnt = 0;
            if ((i == 0 || k == 0) && P->g0 == NULL) {
                mpfr_set_zero(P->Gx[i * n + k], 1);
            } else {
                for (size_t j = 0; j < d && st == FR_OK; j++) {
                    mpfr_ptr x = basis(P, i, j), y = basis(P, k, j);
                    if (mpfr_zero_p(x) || mpfr_zero_p(y))
                        continue;
                    st = fri_mul_exact(pr[cnt], x, y);
                    ptr[cnt] = pr[cnt];
                    cnt++;
                }
                if (st == FR_OK)
                    st = fri_sum_exact(P->Gx[i * n + k], ptr, cnt);
            }
            if (st == FR_OK) {
                if (i != k) {
                    mpfr_set_prec(P->Gx[k * n + i], mpfr_get_prec(P->Gx[i * n + k]));
                    mpfr_set(P->Gx[k * n + i], P->Gx[i * n + k], MPFR_RNDN);
                }
                mpfr_get_q(P->Gq[i * n + k], P->Gx[i * n + k]);
                mpq_set(P->Gq[k * n + i], P->Gq[i * n + k]);
            }
        }
    for (size_t j = 0; j < d; j++)
        mpfr_clear(pr[j]);
    free(pr);
    free(ptr);
    /* the rationals of the exact path: numerators and denominators of at
     * most 2^24 bits (FRI_EXACT_PREC_MAX), as every exact intermediate */
    for (size_t k = 0; k < n * n && st == FR_OK; k++)
        if (q_big(P->Gq[k]))
            st = FR_EPREC;
    for (size_t m = 0; m < P->M && st == FR_OK; m++)
        if (q_big(P->kq[m]))
            st = FR_EPREC;
    if (st == FR_OK && (q_big(P->t0q) || q_big(P->tauq) || q_big(P->cq)))
        st = FR_EPREC;
    return st;
}

static void p5_free(p5_t *P)
{
    if (P->Gx == NULL)
        return;
    for (size_t k = 0; k < P->n * P->n; k++) {
        mpfr_clear(P->Gx[k]);
        mpq_clear(P->Gq[k]);
    }
    for (size_t m = 0; m < P->M; m++)
        mpq_clear(P->kq[m]);
    mpq_clears(P->t0q, P->tauq, P->cq, NULL);
    free(P->Gx); free(P->Gq); free(P->kq);
}

/* ==== (1) the numerical dual solver at working precision wp ================ */

typedef struct {
    const p5_t *P;
    mpfr_prec_t wp;
    size_t M, n;
    mpfr_t *Gw;                 /* Gram at wp, n x n */
    mpfr_t *kap;                /* kappa at wp */
    mpfr_t t0, tau, c;
    mpfr_t *nu, *F, *Ge;        /* the iterate, grad D = Fbar(w(nu)), Gram e (e = (1, nu)) */
    mpfr_t S, q, Dv;            /* S, e^T Gram e, D(nu) */
    mpfr_t *nt, *Ft, *Get;      /* trial point */
    mpfr_t St, qt, Dt;
    mpfr_t *A, *dir;            /* M x M system, direction */
    mpfr_t t1, t2, t3, t4;
    int *bind;
    unsigned long iters;
} num_t;

static void num_init(num_t *N, const p5_t *P, mpfr_prec_t wp)
{
    size_t M = P->M, n = P->n;
    N->P = P; N->wp = wp; N->M = M; N->n = n;
    N->Gw = malloc(n * n * sizeof(mpfr_t));
    N->Ge = malloc(n * sizeof(mpfr_t));
    N->Get = malloc(n * sizeof(mpfr_t));
    N->kap = malloc(M * sizeof(mpfr_t));
    N->nu = malloc(M * sizeof(mpfr_t));
    N->F = malloc(M * sizeof(mpfr_t));
    N->nt = malloc(M * sizeof(mpfr_t));
    N->Ft = malloc(M * sizeof(mpfr_t));
    N->dir = malloc(M * sizeof(mpfr_t));
    N->A = malloc(M * M * sizeof(mpfr_t));
    N->bind = malloc(M * sizeof(int));
    N->iters = 0;
}

static int num_ok(const num_t *N)
{
    return N->Gw && N->Ge && N->Get && N->kap && N->nu && N->F && N->nt && N->Ft && N->dir
        && N->A && N->bind;
}

static void num_alloc(num_t *N)
{
    size_t M = N->M, n = N->n;
    mpfr_prec_t wp = N->wp;
    for (size_t k = 0; k < n * n; k++) {
        mpfr_init2(N->Gw[k], wp);
        mpfr_set(N->Gw[k], N->P->Gx[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < n; k++)
        mpfr_inits2(wp, N->Ge[k], N->Get[k], (mpfr_ptr)0);
    for (size_t m = 0; m < M; m++) {
        mpfr_inits2(wp, N->kap[m], N->nu[m], N->F[m], N->nt[m], N->Ft[m], N->dir[m], (mpfr_ptr)0);
        mpfr_set(N->kap[m], N->P->kappa[m], MPFR_RNDN);
        mpfr_set_zero(N->nu[m], 1);
    }
    for (size_t k = 0; k < M * M; k++)
        mpfr_init2(N->A[k], wp);
    mpfr_inits2(wp, N->t0, N->tau, N->c, N->S, N->q, N->Dv, N->St, N->qt, N->Dt,
                N->t1, N->t2, N->t3, N->t4, (mpfr_ptr)0);
    mpfr_set(N->t0, N->P->t0, MPFR_RNDN);
    mpfr_set(N->tau, N->P->tau, MPFR_RNDN);
    mpfr_set(N->c, N->P->c, MPFR_RNDN);
}

static void num_free(num_t *N, int alloced)
{
    size_t M = N->M, n = N->n;
    if (alloced) {
        for (size_t k = 0; k < n * n; k++)
            mpfr_clear(N->Gw[k]);
        for (size_t k = 0; k < n; k++)
            mpfr_clears(N->Ge[k], N->Get[k], (mpfr_ptr)0);
        for (size_t m = 0; m < M; m++)
            mpfr_clears(N->kap[m], N->nu[m], N->F[m], N->nt[m], N->Ft[m], N->dir[m], (mpfr_ptr)0);
        for (size_t k = 0; k < M * M; k++)
            mpfr_clear(N->A[k]);
        mpfr_clears(N->t0, N->tau, N->c, N->S, N->q, N->Dv, N->St, N->qt, N->Dt,
                    N->t1, N->t2, N->t3, N->t4, (mpfr_ptr)0);
    }
    free(N->Gw); free(N->Ge); free(N->Get); free(N->kap); free(N->nu); free(N->F);
    free(N->nt); free(N->Ft); free(N->dir); free(N->A); free(N->bind);
}

/* At nu: S, Ge = Gram (1, nu), q = (1, nu)^T Gram (1, nu), F_m = kappa_m -
 * Ge_m / (2S) + tau q / (4 S^2), D = kappa^T nu - q / (4S). */
static void num_eval(num_t *N, mpfr_t *nu, mpfr_t *F, mpfr_t *Ge, mpfr_ptr S, mpfr_ptr q,
                     mpfr_ptr Dv)
{
    size_t M = N->M, n = N->n;
    mpfr_set_zero(N->t1, 1);
    for (size_t m = 0; m < M; m++)
        mpfr_add(N->t1, N->t1, nu[m], MPFR_RNDN);
    mpfr_mul(S, N->tau, N->t1, MPFR_RNDN);
    mpfr_add(S, S, N->t0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        mpfr_set(Ge[i], N->Gw[i * n], MPFR_RNDN);
        for (size_t m = 0; m < M; m++)
            mpfr_fma(Ge[i], N->Gw[i * n + m + 1], nu[m], Ge[i], MPFR_RNDN);
    }
    mpfr_set(q, Ge[0], MPFR_RNDN);
    for (size_t m = 0; m < M; m++)
        mpfr_fma(q, nu[m], Ge[m + 1], q, MPFR_RNDN);
    /* t1 = 1/(2S), t2 = tau q / (4 S^2) */
    mpfr_mul_2ui(N->t3, S, 1, MPFR_RNDN);
    mpfr_ui_div(N->t3, 1, N->t3, MPFR_RNDN);
    mpfr_sqr(N->t4, N->t3, MPFR_RNDN);
    mpfr_mul(N->t4, N->t4, q, MPFR_RNDN);
    mpfr_mul(N->t4, N->t4, N->tau, MPFR_RNDN);
    mpfr_set_zero(Dv, 1);
    for (size_t m = 0; m < M; m++) {
        mpfr_mul(F[m], Ge[m + 1], N->t3, MPFR_RNDN);
        mpfr_sub(F[m], N->kap[m], F[m], MPFR_RNDN);
        mpfr_add(F[m], F[m], N->t4, MPFR_RNDN);
        mpfr_fma(Dv, N->kap[m], nu[m], Dv, MPFR_RNDN);
    }
    mpfr_mul(N->t4, q, N->t3, MPFR_RNDN);
    mpfr_div_2ui(N->t4, N->t4, 1, MPFR_RNDN);            /* q / (4S) */
    mpfr_sub(Dv, Dv, N->t4, MPFR_RNDN);
}

/* A = J J^T / (2S) at the current iterate:
 * (J J^T)_mk = Gram_mk - (tau/S)(Ge_m + Ge_k) + (tau/S)^2 q. */
static void num_hess(num_t *N)
{
    size_t M = N->M, n = N->n;
    mpfr_div(N->t1, N->tau, N->S, MPFR_RNDN);            /* tau/S */
    mpfr_sqr(N->t2, N->t1, MPFR_RNDN);
    mpfr_mul(N->t2, N->t2, N->q, MPFR_RNDN);            /* (tau/S)^2 q */
    mpfr_mul_2ui(N->t3, N->S, 1, MPFR_RNDN);            /* 2S */
    for (size_t m = 0; m < M; m++)
        for (size_t k = 0; k < M; k++) {
            mpfr_ptr a = N->A[m * M + k];
            mpfr_add(a, N->Ge[m + 1], N->Ge[k + 1], MPFR_RNDN);
            mpfr_mul(a, a, N->t1, MPFR_RNDN);
            mpfr_sub(a, N->Gw[(m + 1) * n + k + 1], a, MPFR_RNDN);
            mpfr_add(a, a, N->t2, MPFR_RNDN);
            mpfr_div(a, a, N->t3, MPFR_RNDN);
        }
}

/* Solve (A_II + mu I) x = b_I in place on dir[I] (Cholesky on a copy in
 * the free rows of a scratch M x M block: A is overwritten); mu is raised
 * until the factorisation succeeds.  I: bind[m] == 0. */
static int num_solve(num_t *N, mpfr_srcptr mu0)
{
    size_t M = N->M, k = 0;
    size_t *idx = malloc((M ? M : 1) * sizeof *idx);
    mpfr_t *L = malloc((M * M + 1) * sizeof(mpfr_t));
    if (idx == NULL || L == NULL) {
        free(idx); free(L);
        return FR_ENOMEM;
    }
    for (size_t m = 0; m < M; m++)
        if (!N->bind[m])
            idx[k++] = m;
    for (size_t i = 0; i < k * k; i++)
        mpfr_init2(L[i], N->wp);
    mpfr_t mu, t, floor;
    mpfr_inits2(N->wp, mu, t, floor, (mpfr_ptr)0);
    mpfr_set(mu, mu0, MPFR_RNDN);
    /* the smallest mu tried after a failure: 2^(-wp/2) max diag (or 2^-wp) */
    mpfr_set_zero(floor, 1);
    for (size_t i = 0; i < k; i++)
        if (mpfr_cmp(N->A[idx[i] * M + idx[i]], floor) > 0)
            mpfr_set(floor, N->A[idx[i] * M + idx[i]], MPFR_RNDN);
    if (mpfr_zero_p(floor))
        mpfr_set_ui(floor, 1, MPFR_RNDN);
    mpfr_mul_2si(floor, floor, -(long)N->wp / 2, MPFR_RNDN);
    int ok = 0;
    for (int tries = 0; tries < 400 && !ok; tries++) {
        ok = 1;
        for (size_t i = 0; i < k && ok; i++) {
            for (size_t j = 0; j <= i; j++) {
                mpfr_set(t, N->A[idx[i] * M + idx[j]], MPFR_RNDN);
                if (i == j)
                    mpfr_add(t, t, mu, MPFR_RNDN);
                for (size_t l = 0; l < j; l++) {
                    mpfr_fms(t, L[i * k + l], L[j * k + l], t, MPFR_RNDN);   /* L L - t */
                    mpfr_neg(t, t, MPFR_RNDN);
                }
                if (i == j) {
                    if (mpfr_sgn(t) <= 0) {
                        ok = 0;
                        break;
                    }
                    mpfr_sqrt(L[i * k + i], t, MPFR_RNDN);
                } else {
                    mpfr_div(L[i * k + j], t, L[j * k + j], MPFR_RNDN);
                }
            }
        }
        if (!ok) {                                          /* raise mu */
            mpfr_mul_ui(mu, mu, 16, MPFR_RNDN);
            if (mpfr_cmp(mu, floor) < 0)
                mpfr_set(mu, floor, MPFR_RNDN);
        }
    }
    int st = ok ? FR_OK : FR_EINTERNAL;
    if (ok) {                                               /* L L^T x = b */
        for (size_t i = 0; i < k; i++) {
            mpfr_set(t, N->dir[idx[i]], MPFR_RNDN);
            for (size_t l = 0; l < i; l++) {
                mpfr_mul(mu, L[i * k + l], N->dir[idx[l]], MPFR_RNDN);
                mpfr_sub(t, t, mu, MPFR_RNDN);
            }
            mpfr_div(N->dir[idx[i]], t, L[i * k + i], MPFR_RNDN);
        }
        for (size_t ii = k; ii-- > 0;) {
            mpfr_set(t, N->dir[idx[ii]], MPFR_RNDN);
            for (size_t l = ii + 1; l < k; l++) {
                mpfr_mul(mu, L[l * k + ii], N->dir[idx[l]], MPFR_RNDN);
                mpfr_sub(t, t, mu, MPFR_RNDN);
            }
            mpfr_div(N->dir[idx[ii]], t, L[ii * k + ii], MPFR_RNDN);
        }
    }
    for (size_t i = 0; i < k * k; i++)
        mpfr_clear(L[i]);
    mpfr_clears(mu, t, floor, (mpfr_ptr)0);
    free(L); free(idx);
    return st;
}

/* x = clamp(x, 0, c) */
static void clampc(mpfr_ptr x, mpfr_srcptr c)
{
    if (mpfr_sgn(x) < 0)
        mpfr_set_zero(x, 1);
    else if (mpfr_cmp(x, c) > 0)
        mpfr_set(x, c, MPFR_RNDN);
}

/* Fs = max_m |kappa_m| + |Ge_m| / (2S) + tau q / (4 S^2): the size of the
 * terms of Fbar_m(w(nu)) at the current iterate. */
static void num_fscale(num_t *N, mpfr_ptr Fs, mpfr_ptr tmp)
{
    mpfr_set_zero(Fs, 1);
    mpfr_mul_2ui(N->t3, N->S, 1, MPFR_RNDN);
    mpfr_sqr(N->t4, N->t3, MPFR_RNDN);
    mpfr_div(N->t4, N->q, N->t4, MPFR_RNDN);
    mpfr_mul(N->t4, N->t4, N->tau, MPFR_RNDN);           /* tau q / (4 S^2) */
    for (size_t m = 0; m < N->M; m++) {
        mpfr_div(tmp, N->Ge[m + 1], N->t3, MPFR_RNDN);
        mpfr_abs(tmp, tmp, MPFR_RNDN);
        mpfr_add(tmp, tmp, N->t4, MPFR_RNDN);
        if (mpfr_sgn(N->kap[m]) >= 0)
            mpfr_add(tmp, tmp, N->kap[m], MPFR_RNDN);
        else
            mpfr_sub(tmp, tmp, N->kap[m], MPFR_RNDN);
        if (mpfr_cmp(tmp, Fs) > 0)
            mpfr_set(Fs, tmp, MPFR_RNDN);
    }
}

/* The active-set method on the box (fast/ssca/problem5.c has the same
 * steps in binary64), from the current nu with every multiplier at a
 * bound in the working set W (bind[m] = 1).  On the face of the free
 * multipliers: a Newton step (J_I J_I^T / (2S) + mu) d = F_I, mu =
 * 2^(-wp/2) max diag (a direction where D is flat gets a long step), cut
 * at the first bound it meets (that multiplier joins W, exactly at its
 * bound), Armijo backtracking on D.  When the face is solved (max |F_I|
 * <= 2^(24 - wp) Fs, or no step improves D at wp), the multiplier of W
 * whose gradient points into the box the most leaves W; none: the end.
 * FR_OK, FR_EINTERNAL past P5_MAXIT(M) iterations, FR_ENOMEM. */
static int num_solve_dual(num_t *N)
{
    size_t M = N->M;
    mpfr_prec_t wp = N->wp;
    mpfr_t lam, Fs, tolF, fi, tmp, pred, beta, bmax, Dsc, worst;
    mpfr_inits2(wp, lam, Fs, tolF, fi, tmp, pred, beta, bmax, Dsc, worst, (mpfr_ptr)0);
    int st = FR_OK, nnoisy = 0;
    for (size_t m = 0; m < M; m++)
        N->bind[m] = mpfr_zero_p(N->nu[m]) || mpfr_equal_p(N->nu[m], N->c);
    num_eval(N, N->nu, N->F, N->Ge, N->S, N->q, N->Dv);
    for (;;) {
        if (N->iters >= P5_MAXIT(M)) {
            st = FR_EINTERNAL;
            break;
        }
        N->iters++;
        num_fscale(N, Fs, tmp);
        mpfr_mul_2si(tolF, Fs, 24 - (long)wp, MPFR_RNDN);
        mpfr_set_zero(fi, 1);
        for (size_t m = 0; m < M; m++)
            if (!N->bind[m] && mpfr_cmpabs(N->F[m], fi) > 0)
                mpfr_abs(fi, N->F[m], MPFR_RNDN);
        int solved = mpfr_cmp(fi, tolF) <= 0;
        if (!solved) {
            num_hess(N);
            mpfr_set_zero(lam, 1);
            for (size_t m = 0; m < M; m++)
                if (!N->bind[m] && mpfr_cmp(N->A[m * M + m], lam) > 0)
                    mpfr_set(lam, N->A[m * M + m], MPFR_RNDN);
            for (size_t m = 0; m < M; m++) {
                if (N->bind[m])
                    mpfr_set_zero(N->dir[m], 1);
                else
                    mpfr_set(N->dir[m], N->F[m], MPFR_RNDN);
            }
            if (mpfr_zero_p(lam))
                mpfr_div(tmp, Fs, N->c, MPFR_RNDN);
            else
                mpfr_mul_2si(tmp, lam, -(long)wp / 2, MPFR_RNDN);
            if ((st = num_solve(N, tmp)) != FR_OK)
                break;
            /* the longest step in the box and the multiplier that blocks it */
            size_t blk = M;
            mpfr_set_inf(bmax, 1);
            for (size_t m = 0; m < M; m++) {
                if (N->bind[m] || mpfr_zero_p(N->dir[m]))
                    continue;
                if (mpfr_sgn(N->dir[m]) > 0)
                    mpfr_sub(tmp, N->c, N->nu[m], MPFR_RNDN);
                else
                    mpfr_neg(tmp, N->nu[m], MPFR_RNDN);
                mpfr_div(tmp, tmp, N->dir[m], MPFR_RNDN);
                if (mpfr_cmp(tmp, bmax) < 0) {
                    mpfr_set(bmax, tmp, MPFR_RNDN);
                    blk = m;
                }
            }
            /* the size of D's terms: a predicted ascent below 2^(24 - wp)
             * of it is rounding noise */
            mpfr_set_prec(Dsc, 64);
            mpfr_abs(Dsc, N->Dv, MPFR_RNDU);
            mpfr_div(tmp, N->q, N->S, MPFR_RNDN);
            mpfr_div_2ui(tmp, tmp, 2, MPFR_RNDN);
            mpfr_add(Dsc, Dsc, tmp, MPFR_RNDU);
            for (size_t m = 0; m < M; m++) {
                mpfr_mul(tmp, N->kap[m], N->nu[m], MPFR_RNDN);
                mpfr_abs(tmp, tmp, MPFR_RNDN);
                mpfr_add(Dsc, Dsc, tmp, MPFR_RNDU);
            }
            mpfr_mul_2si(Dsc, Dsc, 24 - (long)wp, MPFR_RNDU);
            /* beta = min(1, bmax); D linear on the face (lam = 0): bmax */
            mpfr_set_ui(beta, 1, MPFR_RNDN);
            if (mpfr_cmp(bmax, beta) < 0 || (mpfr_zero_p(lam) && mpfr_number_p(bmax)))
                mpfr_set(beta, bmax, MPFR_RNDN);
            int accepted = 0, noisy = 0, hit = 0;
            for (int ls = 0; ls < 200 && !accepted; ls++) {
                hit = blk < M && mpfr_equal_p(beta, bmax);
                mpfr_set_zero(pred, 1);
                for (size_t m = 0; m < M; m++) {
                    if (N->bind[m]) {
                        mpfr_set(N->nt[m], N->nu[m], MPFR_RNDN);
                        continue;
                    }
                    mpfr_fma(N->nt[m], beta, N->dir[m], N->nu[m], MPFR_RNDN);
                    clampc(N->nt[m], N->c);
                }
                if (hit) {                                /* exactly on the bound */
                    if (mpfr_sgn(N->dir[blk]) > 0)
                        mpfr_set(N->nt[blk], N->c, MPFR_RNDN);
                    else
                        mpfr_set_zero(N->nt[blk], 1);
                }
                for (size_t m = 0; m < M; m++) {
                    mpfr_sub(tmp, N->nt[m], N->nu[m], MPFR_RNDN);
                    mpfr_fma(pred, N->F[m], tmp, pred, MPFR_RNDN);   /* F^T (nu(beta) - nu) */
                }
                if (mpfr_sgn(pred) > 0) {
                    num_eval(N, N->nt, N->Ft, N->Get, N->St, N->qt, N->Dt);
                    mpfr_sub(tmp, N->Dt, N->Dv, MPFR_RNDN);
                    noisy = mpfr_cmp(pred, Dsc) <= 0;
                    mpfr_mul_d(pred, pred, 1e-4, MPFR_RNDN);
                    accepted = mpfr_cmp(tmp, pred) >= 0 || (ls == 0 && noisy);
                }
                if (!accepted)
                    mpfr_div_2ui(beta, beta, 1, MPFR_RNDN);
            }
            if (accepted) {
                if (hit)
                    N->bind[blk] = 1;
                for (size_t m = 0; m < M; m++) {
                    mpfr_swap(N->nu[m], N->nt[m]);
                    mpfr_swap(N->F[m], N->Ft[m]);
                }
                for (size_t i = 0; i < N->n; i++)
                    mpfr_swap(N->Ge[i], N->Get[i]);
                mpfr_swap(N->S, N->St);
                mpfr_swap(N->q, N->qt);
                mpfr_swap(N->Dv, N->Dt);
                /* steps at the rounding level of D: the face is solved after
                 * two in a row */
                nnoisy = noisy && !hit ? nnoisy + 1 : 0;
                if (nnoisy < 2)
                    continue;
            }
            nnoisy = 0;
        }
        /* the face is solved: release the most violated multiplier of W */
        size_t rel = M;
        mpfr_set(worst, tolF, MPFR_RNDN);
        for (size_t m = 0; m < M; m++) {
            if (!N->bind[m])
                continue;
            if (mpfr_zero_p(N->nu[m]))
                mpfr_set(tmp, N->F[m], MPFR_RNDN);
            else
                mpfr_neg(tmp, N->F[m], MPFR_RNDN);
            if (mpfr_cmp(tmp, worst) > 0) {
                mpfr_set(worst, tmp, MPFR_RNDN);
                rel = m;
            }
        }
        if (rel == M)
            break;
        N->bind[rel] = 0;
    }
    mpfr_clears(lam, Fs, tolF, fi, tmp, pred, beta, bmax, Dsc, worst, (mpfr_ptr)0);
    return st;
}

/* ==== (2) the exact KKT point: numbers a + b sqrt(Delta) ==================== */

typedef struct { mpq_t a, b; } qs;

static void qs_init(qs *x) { mpq_init(x->a); mpq_init(x->b); }
static void qs_clear(qs *x) { mpq_clear(x->a); mpq_clear(x->b); }
static void qs_set(qs *r, const qs *x) { mpq_set(r->a, x->a); mpq_set(r->b, x->b); }

/* r = x q (r may alias x) */
static void qs_mulq(qs *r, const qs *x, const mpq_t q) { mpq_mul(r->a, x->a, q); mpq_mul(r->b, x->b, q); }
/* r = x y (r may alias) */
static void qs_mul(qs *r, const qs *x, const qs *y, const mpq_t Dl)
{
    mpq_t a, b, t;
    mpq_inits(a, b, t, NULL);
    mpq_mul(a, x->a, y->a);
    mpq_mul(t, x->b, y->b);
    mpq_mul(t, t, Dl);
    mpq_add(a, a, t);
    mpq_mul(b, x->a, y->b);
    mpq_mul(t, x->b, y->a);
    mpq_add(b, b, t);
    mpq_swap(r->a, a);
    mpq_swap(r->b, b);
    mpq_clears(a, b, t, NULL);
}

/* The sign of a + b sqrt(Delta), exactly (Delta >= 0). */
static int qs_sgn(const qs *x, const mpq_t Dl)
{
    int sa = mpq_sgn(x->a), sb = mpq_sgn(x->b);
    if (sb == 0 || mpq_sgn(Dl) == 0)
        return sa;
    if (sa == 0 || sa == sb)
        return sb;
    mpq_t l, r;
    mpq_inits(l, r, NULL);
    mpq_mul(l, x->a, x->a);
    mpq_mul(r, x->b, x->b);
    mpq_mul(r, r, Dl);
    int cmp = mpq_cmp(l, r);
    mpq_clears(l, r, NULL);
    return cmp > 0 ? sa : cmp < 0 ? sb : 0;
}

/* r = x / y, y != 0 (conjugate): (x y') / (y y'), y' = a_y - b_y sqrt(Delta). */
static void qs_div(qs *r, const qs *x, const qs *y, const mpq_t Dl)
{
    qs yc, num;
    mpq_t den, t;
    qs_init(&yc); qs_init(&num);
    mpq_inits(den, t, NULL);
    mpq_set(yc.a, y->a);
    mpq_neg(yc.b, y->b);
    qs_mul(&num, x, &yc, Dl);
    mpq_mul(den, y->a, y->a);
    mpq_mul(t, y->b, y->b);
    mpq_mul(t, t, Dl);
    mpq_sub(den, den, t);                                  /* != 0: y != 0, Delta no square */
    mpq_div(r->a, num.a, den);
    mpq_div(r->b, num.b, den);
    qs_clear(&yc); qs_clear(&num);
    mpq_clears(den, t, NULL);
}

/* out = x correctly rounded at out's precision.  b = 0: one mpfr_set_q
 * (+0 for 0).  Otherwise x is irrational (Delta is not a square) and the
 * Ziv loop ends: at wp, y = RN(RN(sqrt(RN(Delta))) b) has relative error
 * < 2.6 u and v = RN(y + a) error <= 2.6 u |y| + u |v| <=
 * 2^(max(EXP(y) + 2, EXP(v)) + 1 - wp). */
static int qs_round(mpfr_ptr out, const qs *x, const mpq_t Dl)
{
    if (mpq_sgn(x->b) == 0) {
        mpfr_set_q(out, x->a, MPFR_RNDN);
        return FR_OK;
    }
    mpfr_prec_t p = mpfr_get_prec(out), wp = p + 32;
    mpfr_t y, v;
    mpfr_inits2(wp, y, v, (mpfr_ptr)0);
    int st = FR_OK;
    for (;;) {
        mpfr_set_prec(y, wp);
        mpfr_set_prec(v, wp);
        mpfr_set_q(y, Dl, MPFR_RNDN);
        mpfr_sqrt(y, y, MPFR_RNDN);
        mpfr_mul_q(y, y, x->b, MPFR_RNDN);
        mpfr_add_q(v, y, x->a, MPFR_RNDN);
        if (!mpfr_zero_p(v)) {
            mpfr_exp_t ey = mpfr_get_exp(y) + 2, ev = mpfr_get_exp(v);
            mpfr_exp_t ee = (ey > ev ? ey : ev) + 1 - (mpfr_exp_t)wp;
            mpfr_exp_t err = ev - ee;
            if (err > 0 && mpfr_can_round(v, err, MPFR_RNDN, MPFR_RNDZ, p + 1))
                break;
        }
        if (wp > FRI_EXACT_PREC_MAX) {
            st = FR_EINTERNAL;
            break;
        }
        wp *= 2;
    }
    if (st == FR_OK)
        mpfr_set(out, v, MPFR_RNDN);
    mpfr_clears(y, v, (mpfr_ptr)0);
    return st;
}

/* The exact solution for a proposal (cls[m] = 0: Z, 1: C, 2: F). */
typedef struct {
    const p5_t *P;
    size_t M, n;
    int *cls;
    mpq_t Dl;                  /* Delta (0: rational) */
    qs x;                      /* the parameter */
    mpq_t *ep, *ev;            /* e(x) = ep + x ev over the basis (n) */
    mpq_t Sp, Sv;              /* S(x) = Sp + x Sv */
    mpq_t *Gp, *Gv;            /* Gram ep, Gram ev (n) */
    mpq_t qpp, qpv, qvv;
} ex_t;

/* The coefficients of P_m(x) = 4 kappa_m S^2 - 2 S (Gram e)_m + tau e^T Gram e
 * for constraint m (basis index m + 1): c2 x^2 + c1 x + c0. */
static void ex_poly(const ex_t *E, size_t m, mpq_t c2, mpq_t c1, mpq_t c0)
{
    const p5_t *P = E->P;
    mpq_t t, u;
    mpq_inits(t, u, NULL);
    mpq_srcptr k = P->kq[m], tau = P->tauq;
    mpq_srcptr gp = E->Gp[m + 1], gv = E->Gv[m + 1];
    /* c2 = 4 k Sv^2 - 2 Sv gv + tau qvv */
    mpq_mul(t, E->Sv, E->Sv); mpq_mul(t, t, k); mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 2); mpq_canonicalize(t);
    mpq_mul(u, E->Sv, gv); mpz_mul_2exp(mpq_numref(u), mpq_numref(u), 1); mpq_canonicalize(u);
    mpq_sub(c2, t, u);
    mpq_mul(t, tau, E->qvv); mpq_add(c2, c2, t);
    /* c1 = 8 k Sp Sv - 2 Sp gv - 2 Sv gp + 2 tau qpv */
    mpq_mul(t, E->Sp, E->Sv); mpq_mul(t, t, k); mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 2); mpq_canonicalize(t);
    mpq_mul(u, E->Sp, gv); mpq_sub(t, t, u);
    mpq_mul(u, E->Sv, gp); mpq_sub(t, t, u);
    mpq_mul(u, tau, E->qpv); mpq_add(t, t, u);
    mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 1); mpq_canonicalize(t);
    mpq_set(c1, t);
    /* c0 = 4 k Sp^2 - 2 Sp gp + tau qpp */
    mpq_mul(t, E->Sp, E->Sp); mpq_mul(t, t, k); mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 2); mpq_canonicalize(t);
    mpq_mul(u, E->Sp, gp); mpz_mul_2exp(mpq_numref(u), mpq_numref(u), 1); mpq_canonicalize(u);
    mpq_sub(c0, t, u);
    mpq_mul(t, tau, E->qpp); mpq_add(c0, c0, t);
    mpq_clears(t, u, NULL);
}

/* r = c2 x^2 + c1 x + c0 at E->x */
static void ex_at(const ex_t *E, qs *r, const mpq_t c2, const mpq_t c1, const mpq_t c0)
{
    qs t;
    qs_init(&t);
    qs_mulq(r, &E->x, c2);
    mpq_add(r->a, r->a, c1);                 /* c2 x + c1 */
    qs_mul(&t, r, &E->x, E->Dl);
    mpq_add(t.a, t.a, c0);
    qs_set(r, &t);
    qs_clear(&t);
}

/* r = p + x v */
static void ex_lin(const ex_t *E, qs *r, const mpq_t p, const mpq_t v)
{
    qs_mulq(r, &E->x, v);
    mpq_add(r->a, r->a, p);
}

/* Gp, Gv, qpp, qpv, qvv, Sp, Sv from ep, ev. */
static void ex_forms(ex_t *E)
{
    const p5_t *P = E->P;
    size_t n = E->n;
    mpq_t t;
    mpq_init(t);
    for (size_t i = 0; i < n; i++) {
        mpq_set_ui(E->Gp[i], 0, 1);
        mpq_set_ui(E->Gv[i], 0, 1);
        for (size_t k = 0; k < n; k++) {
            if (mpq_sgn(E->ep[k])) { mpq_mul(t, P->Gq[i * n + k], E->ep[k]); mpq_add(E->Gp[i], E->Gp[i], t); }
            if (mpq_sgn(E->ev[k])) { mpq_mul(t, P->Gq[i * n + k], E->ev[k]); mpq_add(E->Gv[i], E->Gv[i], t); }
        }
    }
    mpq_set_ui(E->qpp, 0, 1); mpq_set_ui(E->qpv, 0, 1); mpq_set_ui(E->qvv, 0, 1);
    for (size_t i = 0; i < n; i++) {
        mpq_mul(t, E->ep[i], E->Gp[i]); mpq_add(E->qpp, E->qpp, t);
        mpq_mul(t, E->ep[i], E->Gv[i]); mpq_add(E->qpv, E->qpv, t);
        mpq_mul(t, E->ev[i], E->Gv[i]); mpq_add(E->qvv, E->qvv, t);
    }
    mpq_set_ui(E->Sp, 0, 1); mpq_set_ui(E->Sv, 0, 1);
    for (size_t m = 1; m < n; m++) {
        mpq_add(E->Sp, E->Sp, E->ep[m]);
        mpq_add(E->Sv, E->Sv, E->ev[m]);
    }
    mpq_mul(E->Sp, E->Sp, P->tauq);
    mpq_add(E->Sp, E->Sp, P->t0q);
    mpq_mul(E->Sv, E->Sv, P->tauq);
    mpq_clear(t);
}

/* Verify the KKT conditions of the proposal at E->x exactly; 1 iff all hold. */
static int ex_verify(const ex_t *E)
{
    const p5_t *P = E->P;
    int ok = 1;
    qs v, S;
    mpq_t c2, c1, c0;
    qs_init(&v); qs_init(&S);
    mpq_inits(c2, c1, c0, NULL);
    ex_lin(E, &S, E->Sp, E->Sv);
    ok = qs_sgn(&S, E->Dl) > 0;
    for (size_t m = 0; m < E->M && ok; m++) {
        if (E->cls[m] == 2) {                              /* 0 <= nu_m <= c */
            ex_lin(E, &v, E->ep[m + 1], E->ev[m + 1]);
            ok = qs_sgn(&v, E->Dl) >= 0;
            mpq_sub(v.a, v.a, P->cq);
            ok = ok && qs_sgn(&v, E->Dl) <= 0;
        } else {                                           /* sign of P_m */
            ex_poly(E, m, c2, c1, c0);
            ex_at(E, &v, c2, c1, c0);
            int sg = qs_sgn(&v, E->Dl);
            ok = E->cls[m] == 0 ? sg <= 0 : sg >= 0;
        }
    }
    qs_clear(&v); qs_clear(&S);
    mpq_clears(c2, c1, c0, NULL);
    return ok;
}

static int is_square(const mpq_t q, mpq_t root)
{
    if (mpq_sgn(q) < 0 || !mpz_perfect_square_p(mpq_numref(q))
        || !mpz_perfect_square_p(mpq_denref(q)))
        return 0;
    mpz_sqrt(mpq_numref(root), mpq_numref(q));
    mpz_sqrt(mpq_denref(root), mpq_denref(q));
    mpq_canonicalize(root);
    return 1;
}

/* Build the exact point of proposal cls from the numerical nu (nunum);
 * 1 if a verified KKT point was found (E->x, E->Dl, ep, ev set), 0 if
 * not, or a status < 0 (FR_EPREC: rationals beyond 2^24 bits, FR_ENOMEM). */
static int ex_solve(ex_t *E, mpfr_t *const nunum)
{
    const p5_t *P = E->P;
    size_t M = E->M, n = E->n, k = 0;
    size_t *f = malloc(M * sizeof *f);
    if (f == NULL)
        return FR_ENOMEM;
    for (size_t m = 0; m < M; m++)
        if (E->cls[m] == 2)
            f[k++] = m;
    /* fixed part: e_0 = 1, C: c, Z: 0; F: the parameterisation below */
    for (size_t i = 0; i < n; i++) {
        mpq_set_ui(E->ep[i], 0, 1);
        mpq_set_ui(E->ev[i], 0, 1);
    }
    mpq_set_ui(E->ep[0], 1, 1);
    for (size_t m = 0; m < M; m++)
        if (E->cls[m] == 1)
            mpq_set(E->ep[m + 1], P->cq);
    mpq_set_ui(E->Dl, 0, 1);
    mpq_set_ui(E->x.a, 0, 1);
    mpq_set_ui(E->x.b, 0, 1);
    int found = 0;
    if (k == 0) {
        ex_forms(E);
        found = ex_verify(E);
        free(f);
        return found;
    }
    /* (k - 1) x k linear system R nu_F = rhs: row i (f_i vs f_0), i >= 1,
     *   sum_j [2 tau (kap_fi - kap_f0) - (Gram_{fi,fj} - Gram_{f0,fj})] nu_fj
     *     = (g_fi - g_f0)^T r_fix - 2 S_fix (kap_fi - kap_f0),
     * r_fix, S_fix from the fixed part. */
    size_t rows = k - 1, cols = k + 1;
    mpq_t *R = malloc((rows * cols + 1) * sizeof *R);
    int *piv = malloc(k * sizeof *piv);      /* column j: pivot row, or -1 */
    if (R == NULL || piv == NULL) {
        free(R); free(piv); free(f);
        return FR_ENOMEM;
    }
    ex_forms(E);                              /* Gp = Gram e_fix, Sp = S_fix */
    mpq_t t, dk;
    mpq_inits(t, dk, NULL);
    for (size_t i = 0; i < rows; i++) {
        size_t a = f[i + 1] + 1, b0 = f[0] + 1;
        mpq_sub(dk, P->kq[f[i + 1]], P->kq[f[0]]);
        for (size_t j = 0; j < k; j++) {
            mpq_ptr r = R[i * cols + j];
            mpq_init(r);
            mpq_mul(r, P->tauq, dk);
            mpz_mul_2exp(mpq_numref(r), mpq_numref(r), 1);
            mpq_canonicalize(r);
            mpq_sub(r, r, P->Gq[a * n + f[j] + 1]);
            mpq_add(r, r, P->Gq[b0 * n + f[j] + 1]);
        }
        mpq_ptr r = R[i * cols + k];
        mpq_init(r);
        mpq_sub(r, E->Gp[a], E->Gp[b0]);
        mpq_mul(t, E->Sp, dk);
        mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 1);
        mpq_canonicalize(t);
        mpq_sub(r, r, t);
    }
    /* Gauss-Jordan with exact pivots */
    for (size_t j = 0; j < k; j++)
        piv[j] = -1;
    size_t rank = 0;
    for (size_t j = 0; j < k && rank < rows; j++) {
        size_t p = rank;
        while (p < rows && mpq_sgn(R[p * cols + j]) == 0)
            p++;
        if (p == rows)
            continue;
        for (size_t l = 0; l < cols; l++)
            mpq_swap(R[p * cols + l], R[rank * cols + l]);
        mpq_inv(t, R[rank * cols + j]);
        for (size_t l = 0; l < cols; l++)
            mpq_mul(R[rank * cols + l], R[rank * cols + l], t);
        for (size_t i = 0; i < rows; i++) {
            if (i == rank || mpq_sgn(R[i * cols + j]) == 0)
                continue;
            mpq_set(dk, R[i * cols + j]);
            for (size_t l = 0; l < cols; l++) {
                mpq_mul(t, dk, R[rank * cols + l]);
                mpq_sub(R[i * cols + l], R[i * cols + l], t);
            }
        }
        piv[j] = (int)rank++;
    }
    int consistent = 1;
    for (size_t i = rank; i < rows; i++)
        if (mpq_sgn(R[i * cols + k]) != 0)
            consistent = 0;
    int st = 0;
    if (consistent) {
        /* the parameter x: a non-pivot column (each in turn until a KKT
         * point is verified: a column on which w does not depend, e.g. a
         * duplicate's, gives a constant quadratic); the other non-pivot
         * columns are fixed to the numerical values */
        mpq_t c2, c1, c0, root;
        mpq_inits(c2, c1, c0, root, NULL);
        int any = 0;
        for (size_t xc = 0; xc <= k && !found && st == 0; xc++) {
            if (xc < k && piv[xc] >= 0)
                continue;
            if (xc == k && any)
                break;                                      /* every non-pivot column tried */
            any = 1;
            for (size_t j = 0; j < k; j++) {
                mpq_set_ui(E->ep[f[j] + 1], 0, 1);
                mpq_set_ui(E->ev[f[j] + 1], 0, 1);
            }
            mpq_set_ui(E->x.a, 0, 1);
            mpq_set_ui(E->x.b, 0, 1);
            mpq_set_ui(E->Dl, 0, 1);
            for (size_t j = 0; j < k; j++)
                if (piv[j] < 0 && j != xc) {
                    mpfr_get_q(E->ep[f[j] + 1], nunum[f[j]]);
                }
            if (xc < k)
                mpq_set_ui(E->ev[f[xc] + 1], 1, 1);
            for (size_t j = 0; j < k; j++) {
                if (piv[j] < 0)
                    continue;
                size_t i = (size_t)piv[j];
                /* nu_fj = rhs_i - sum_{non-pivot l} R_il nu_fl */
                mpq_set(E->ep[f[j] + 1], R[i * cols + k]);
                for (size_t l = 0; l < k; l++) {
                    if (piv[l] >= 0 || mpq_sgn(R[i * cols + l]) == 0)
                        continue;
                    if (l == xc) {
                        mpq_neg(E->ev[f[j] + 1], R[i * cols + l]);
                    } else {
                        mpq_mul(t, R[i * cols + l], E->ep[f[l] + 1]);
                        mpq_sub(E->ep[f[j] + 1], E->ep[f[j] + 1], t);
                    }
                }
            }
            ex_forms(E);
            ex_poly(E, f[0], c2, c1, c0);
            if (q_big(c2) || q_big(c1) || q_big(c0)) {
                st = FR_EPREC;
            } else if (xc == k) {                           /* no parameter: check P_f0 = 0 */
                if (mpq_sgn(c0) == 0)
                    found = ex_verify(E);
            } else if (mpq_sgn(c2) == 0 && mpq_sgn(c1) == 0) {
                if (mpq_sgn(c0) == 0) {                     /* any x: the numerical one */
                    mpfr_get_q(E->x.a, nunum[f[xc]]);
                    found = ex_verify(E);
                }
            } else if (mpq_sgn(c2) == 0) {                  /* linear */
                mpq_div(E->x.a, c0, c1);
                mpq_neg(E->x.a, E->x.a);
                found = ex_verify(E);
            } else {                                        /* x = (-c1 +- sqrt(Delta)) / (2 c2) */
                mpq_mul(E->Dl, c1, c1);
                mpq_mul(t, c2, c0);
                mpz_mul_2exp(mpq_numref(t), mpq_numref(t), 2);
                mpq_canonicalize(t);
                mpq_sub(E->Dl, E->Dl, t);
                if (mpq_sgn(E->Dl) >= 0) {
                    mpq_mul_2exp(dk, c2, 1);                /* 2 c2 */
                    int sq = is_square(E->Dl, root);
                    if (sq)
                        mpq_set_ui(E->Dl, 0, 1);
                    /* the candidates (-c1 +- sqrt(Delta)) / (2 c2): a rational pair
                     * is tried nearer the numerical value first */
                    mpq_t xn, r1, r2, d1, d2;
                    mpq_inits(xn, r1, r2, d1, d2, NULL);
                    mpfr_get_q(xn, nunum[f[xc]]);
                    if (sq) {
                        mpq_sub(r1, root, c1); mpq_div(r1, r1, dk);
                        mpq_neg(r2, root); mpq_sub(r2, r2, c1); mpq_div(r2, r2, dk);
                        mpq_sub(d1, r1, xn); mpq_abs(d1, d1);
                        mpq_sub(d2, r2, xn); mpq_abs(d2, d2);
                        if (mpq_cmp(d2, d1) < 0)
                            mpq_swap(r1, r2);
                    }
                    for (int pass = 0; pass < 2 && !found; pass++) {
                        if (sq) {
                            mpq_set(E->x.a, pass == 0 ? r1 : r2);
                            mpq_set_ui(E->x.b, 0, 1);
                        } else {
                            mpq_neg(E->x.a, c1);
                            mpq_div(E->x.a, E->x.a, dk);
                            mpq_set_si(E->x.b, pass == 0 ? 1 : -1, 1);
                            mpq_div(E->x.b, E->x.b, dk);
                        }
                        found = ex_verify(E);
                    }
                    mpq_clears(r1, r2, d1, d2, NULL);
                    mpq_clear(xn);
                }
            }
        }
        mpq_clears(c2, c1, c0, root, NULL);
    }
    for (size_t i = 0; i < rows * cols; i++)
        mpq_clear(R[i]);
    mpq_clears(t, dk, NULL);
    free(R); free(piv); free(f);
    return st < 0 ? st : found;
}

/* ==== (3) the certificate at the returned values ============================ */

/* Fbar_m(w) exactly (w: the returned values). */
static int fbar_exact(mpfr_ptr F, const p5_t *P, size_t m, mpfr_t *const w, mpfr_t *pr,
                      mpfr_ptr *ptr, mpfr_ptr ww)
{
    size_t d = P->d, cnt = 0;
    int st = FR_OK;
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        if (mpfr_zero_p(w[j]))
            continue;
        if ((st = fri_mul_exact(pr[cnt], P->G[m * d + j], w[j])) == FR_OK)
            ptr[cnt] = pr[cnt], cnt++;
    }
    if (st == FR_OK && (st = fri_mul_exact(pr[cnt], P->tau, ww)) == FR_OK)
        ptr[cnt] = pr[cnt], cnt++;
    if (st == FR_OK) {
        ptr[cnt++] = P->kappa[m];
        st = fri_sum_exact(F, ptr, cnt);
    }
    return st;
}

static void maxup(double *r, mpfr_srcptr x)
{
    double v = mpfr_get_d(x, MPFR_RNDU);
    if (v > *r)
        *r = v;
}

static int p5_cert(fr_ssca_kkt *cert, const p5_t *P, mpfr_t *const w, mpfr_t *const s,
                   mpfr_t *const nu)
{
    size_t M = P->M, d = P->d, np = d + M + 4;
    mpfr_t *pr = malloc(np * sizeof *pr), *nc = malloc(M * sizeof *nc), *Fm = malloc(M * sizeof *Fm);
    mpfr_ptr *ptr = malloc(np * sizeof *ptr);
    if (!pr || !nc || !Fm || !ptr) {
        free(pr); free(nc); free(Fm); free(ptr);
        return FR_ENOMEM;
    }
    for (size_t k = 0; k < np; k++)
        mpfr_init2(pr[k], MPFR_PREC_MIN);
    mpfr_t ww, sn, S, a, b, gap;
    mpfr_inits2(MPFR_PREC_MIN, ww, sn, S, a, b, (mpfr_ptr)0);
    mpfr_init2(gap, 64);
    int st = FR_OK;
    /* ||w||^2, nu clamped to [0, c], sum nu, S */
    size_t cnt = 0;
    for (size_t j = 0; j < d && st == FR_OK; j++)
        if ((st = fri_mul_exact(pr[j], w[j], w[j])) == FR_OK)
            ptr[cnt++] = pr[j];
    if (st == FR_OK)
        st = fri_sum_exact(ww, ptr, cnt);
    for (size_t m = 0; m < M; m++) {
        mpfr_init2(nc[m], mpfr_get_prec(nu[m]) > mpfr_get_prec(P->c) ? mpfr_get_prec(nu[m])
                                                                    : mpfr_get_prec(P->c));
        mpfr_set(nc[m], mpfr_cmp(nu[m], P->c) > 0 ? P->c : nu[m], MPFR_RNDN);
        if (mpfr_sgn(nc[m]) < 0)
            mpfr_set_zero(nc[m], 1);
        mpfr_init2(Fm[m], MPFR_PREC_MIN);
        ptr[m] = nc[m];
    }
    if (st == FR_OK && (st = fri_sum_exact(sn, ptr, M)) == FR_OK
        && (st = fri_mul_exact(a, P->tau, sn)) == FR_OK)
        st = fri_add_exact(S, P->t0, a);
    double gapd = 0, feas = 0, comp = 0, stat = 0;
    /* gap terms and the residuals per constraint */
    mpfr_t *gt = malloc((2 * M + 2) * sizeof *gt);
    mpfr_ptr *gp = malloc((2 * M + 2) * sizeof *gp);
    size_t ng = 0;
    if (gt == NULL || gp == NULL)
        st = FR_ENOMEM;
    for (size_t m = 0; m < M && st == FR_OK; m++) {
        if ((st = fbar_exact(Fm[m], P, m, w, pr, ptr, ww)) != FR_OK)
            break;
        mpfr_init2(gt[ng], MPFR_PREC_MIN);
        if (mpfr_sgn(Fm[m]) > 0) {
            if ((st = fri_sub_exact(a, P->c, nc[m])) == FR_OK)
                st = fri_mul_exact(gt[ng], a, Fm[m]);        /* (c - nu) F^+ */
        } else {
            st = fri_mul_exact(gt[ng], nc[m], Fm[m]);        /* nu F^- = -nu F */
            mpfr_neg(gt[ng], gt[ng], MPFR_RNDN);
        }
        gp[ng] = gt[ng];
        ng++;
        if (st != FR_OK)
            break;
        /* feas = max(0, F - s), comp = max(|nu (F - s)|, |(c - nu) s|) */
        if ((st = fri_sub_exact(a, Fm[m], s[m])) != FR_OK)
            break;
        if (mpfr_sgn(a) > 0)
            maxup(&feas, a);
        if (mpfr_sgn(s[m]) < 0) {
            mpfr_set_prec(b, mpfr_get_prec(s[m]));
            mpfr_neg(b, s[m], MPFR_RNDN);
            maxup(&feas, b);
        }
        if ((st = fri_mul_exact(b, nc[m], a)) != FR_OK)
            break;
        mpfr_abs(b, b, MPFR_RNDN);
        maxup(&comp, b);
        if ((st = fri_sub_exact(a, P->c, nc[m])) != FR_OK || (st = fri_mul_exact(b, a, s[m])) != FR_OK)
            break;
        mpfr_abs(b, b, MPFR_RNDN);
        maxup(&comp, b);
    }
    /* S ||w - w(nu)||^2 = ||2 S w + r||^2 / (4 S), r = g0 + G^T nu; the
     * stationarity residual 2 t0 w + g0 + sum nu_m (g_m + 2 tau w) =
     * 2 S w + r, the same vector */
    if (st == FR_OK) {
        mpfr_t rj, tj, sq2;
        mpfr_inits2(MPFR_PREC_MIN, rj, tj, sq2, (mpfr_ptr)0);
        mpfr_t *sqs = malloc((d ? d : 1) * sizeof *sqs);
        mpfr_ptr *sp = malloc((d ? d : 1) * sizeof *sp);
        if (sqs == NULL || sp == NULL)
            st = FR_ENOMEM;
        size_t ns = 0;
        for (size_t j = 0; j < d && st == FR_OK; j++) {
            size_t c2 = 0;
            for (size_t m = 0; m < M && st == FR_OK; m++)
                if ((st = fri_mul_exact(pr[c2], nc[m], P->G[m * d + j])) == FR_OK)
                    ptr[c2] = pr[c2], c2++;
            if (st == FR_OK && (st = fri_mul_exact(pr[c2], S, w[j])) == FR_OK) {
                if (mpfr_mul_2ui(pr[c2], pr[c2], 1, MPFR_RNDN) != 0)
                    st = FR_EPREC;
                ptr[c2] = pr[c2], c2++;
            }
            if (st == FR_OK && P->g0)
                ptr[c2++] = P->g0[j];
            if (st == FR_OK)
                st = fri_sum_exact(rj, ptr, c2);
            if (st != FR_OK)
                break;
            mpfr_set_prec(tj, 64);
            mpfr_abs(tj, rj, MPFR_RNDU);
            maxup(&stat, tj);
            mpfr_init2(sqs[ns], MPFR_PREC_MIN);
            st = fri_mul_exact(sqs[ns], rj, rj);
            sp[ns] = sqs[ns];
            ns++;
        }
        if (st == FR_OK && (st = fri_sum_exact(sq2, sp, ns)) == FR_OK) {
            mpfr_init2(gt[ng], 64);
            mpfr_set_prec(tj, mpfr_get_prec(S) + 2);
            mpfr_mul_2ui(tj, S, 2, MPFR_RNDN);              /* 4S, exact */
            mpfr_div(gt[ng], sq2, tj, MPFR_RNDU);
            gp[ng] = gt[ng];
            ng++;
            mpfr_sum(gap, gp, (unsigned long)ng, MPFR_RNDU);
            gapd = mpfr_get_d(gap, MPFR_RNDU);
            if (gapd < 0)
                gapd = 0;
        }
        for (size_t j = 0; j < ns; j++)
            mpfr_clear(sqs[j]);
        free(sqs); free(sp);
        mpfr_clears(rj, tj, sq2, (mpfr_ptr)0);
    }
    if (st == FR_OK) {
        mpfr_t r;
        mpfr_init2(r, 64);
        mpfr_set_d(r, gapd, MPFR_RNDU);
        mpfr_div(r, r, P->t0, MPFR_RNDU);
        mpfr_sqrt(r, r, MPFR_RNDU);
        cert->gap = gapd;
        cert->radius = mpfr_get_d(r, MPFR_RNDU);
        cert->stat = stat;
        cert->feas = feas;
        cert->comp = comp;
        mpfr_clear(r);
    }
    for (size_t k = 0; k < ng; k++)
        mpfr_clear(gt[k]);
    free(gt); free(gp);
    for (size_t m = 0; m < M; m++)
        mpfr_clears(nc[m], Fm[m], (mpfr_ptr)0);
    for (size_t k = 0; k < np; k++)
        mpfr_clear(pr[k]);
    mpfr_clears(ww, sn, S, a, b, gap, (mpfr_ptr)0);
    free(pr); free(nc); free(Fm); free(ptr);
    return st;
}

/* ==== the function ========================================================= */

/* Round the exact point into the temporaries tw (d), ts (M), tn (M). */
static int ex_output(const ex_t *E, mpfr_t *tw, mpfr_t *ts, mpfr_t *tn)
{
    const p5_t *P = E->P;
    size_t M = E->M, n = E->n, d = P->d;
    int st = FR_OK;
    qs v, S, num;
    mpq_t c2, c1, c0, rp, rv, bq, t;
    qs_init(&v); qs_init(&S); qs_init(&num);
    mpq_inits(c2, c1, c0, rp, rv, bq, t, NULL);
    ex_lin(E, &S, E->Sp, E->Sv);
    for (size_t m = 0; m < M && st == FR_OK; m++) {
        ex_lin(E, &v, E->ep[m + 1], E->ev[m + 1]);
        st = qs_round(tn[m], &v, E->Dl);
        if (st != FR_OK)
            break;
        if (E->cls[m] == 1) {                              /* s = P_m / (4 S^2) */
            ex_poly(E, m, c2, c1, c0);
            ex_at(E, &v, c2, c1, c0);
            qs_mul(&num, &S, &S, E->Dl);
            mpq_mul_2exp(num.a, num.a, 2);
            mpq_mul_2exp(num.b, num.b, 2);
            qs_div(&v, &v, &num, E->Dl);
            st = qs_round(ts[m], &v, E->Dl);
        } else {
            mpfr_set_zero(ts[m], 1);
        }
    }
    /* w_j = -(rp_j + x rv_j) / (2 S) */
    ex_lin(E, &S, E->Sp, E->Sv);
    mpq_mul_2exp(S.a, S.a, 1);
    mpq_mul_2exp(S.b, S.b, 1);
    for (size_t j = 0; j < d && st == FR_OK; j++) {
        mpq_set_ui(rp, 0, 1);
        mpq_set_ui(rv, 0, 1);
        for (size_t i = 0; i < n; i++) {
            mpfr_ptr bij = basis(P, i, j);
            if (bij == NULL || mpfr_zero_p(bij))
                continue;
            if (mpq_sgn(E->ep[i]) == 0 && mpq_sgn(E->ev[i]) == 0)
                continue;
            mpfr_get_q(bq, bij);
            mpq_mul(t, bq, E->ep[i]); mpq_add(rp, rp, t);
            mpq_mul(t, bq, E->ev[i]); mpq_add(rv, rv, t);
        }
        qs_mulq(&num, &E->x, rv);
        mpq_add(num.a, num.a, rp);
        if (mpq_sgn(num.a) == 0 && mpq_sgn(num.b) == 0) {
            mpfr_set_zero(tw[j], 1);
            continue;
        }
        mpq_neg(num.a, num.a);
        mpq_neg(num.b, num.b);
        qs_div(&v, &num, &S, E->Dl);
        st = qs_round(tw[j], &v, E->Dl);
    }
    qs_clear(&v); qs_clear(&S); qs_clear(&num);
    mpq_clears(c2, c1, c0, rp, rv, bq, t, NULL);
    return st;
}

int fr_ssca_problem5(mpfr_t *w, mpfr_t *s, mpfr_t *nu, fr_ssca_kkt *cert,
                     mpfr_t *const g0, mpfr_t *const kappa, mpfr_t *const G,
                     size_t M, size_t d, const mpfr_t t0, const mpfr_t tau,
                     const mpfr_t c)
{
    int st = p5_args(w, s, nu, g0, kappa, G, M, d, t0, tau, c);
    if (st != FR_OK)
        return st;
    p5_t P = {.M = M, .d = d, .n = M + 1, .g0 = g0, .kappa = kappa, .G = G,
              .t0 = t0, .tau = tau, .c = c};
    if ((st = p5_setup(&P)) != FR_OK) {
        p5_free(&P);
        return st;
    }
    mpfr_t *tw = fri_temps_like(w, d), *ts = fri_temps_like(s, M), *tn = fri_temps_like(nu, M);
    int *cls = malloc(M * sizeof *cls);
    ex_t E = {.P = &P, .M = M, .n = M + 1, .cls = cls};
    E.ep = malloc((M + 1) * sizeof(mpq_t));
    E.ev = malloc((M + 1) * sizeof(mpq_t));
    E.Gp = malloc((M + 1) * sizeof(mpq_t));
    E.Gv = malloc((M + 1) * sizeof(mpq_t));
    if (!tw || !ts || !tn || !cls || !E.ep || !E.ev || !E.Gp || !E.Gv) {
        if (tw) fri_temps_done(tw, w, d, 0);
        if (ts) fri_temps_done(ts, s, M, 0);
        if (tn) fri_temps_done(tn, nu, M, 0);
        free(cls); free(E.ep); free(E.ev); free(E.Gp); free(E.Gv);
        p5_free(&P);
        return FR_ENOMEM;
    }
    for (size_t i = 0; i <= M; i++)
        mpq_inits(E.ep[i], E.ev[i], E.Gp[i], E.Gv[i], NULL);
    mpq_inits(E.Dl, E.Sp, E.Sv, E.qpp, E.qpv, E.qvv, NULL);
    qs_init(&E.x);
    mpfr_prec_t pmax = 64;
    for (size_t j = 0; j < d; j++)
        if (mpfr_get_prec(w[j]) > pmax) pmax = mpfr_get_prec(w[j]);
    for (size_t m = 0; m < M; m++) {
        if (mpfr_get_prec(s[m]) > pmax) pmax = mpfr_get_prec(s[m]);
        if (mpfr_get_prec(nu[m]) > pmax) pmax = mpfr_get_prec(nu[m]);
    }
    mpfr_prec_t wp = pmax + 64;
    mpfr_t *warm = NULL;                       /* nu carried to the next attempt */
    unsigned long iters = 0;
    int found = 0;
    st = FR_OK;
    for (int attempt = 0; attempt < P5_ATTEMPTS && st == FR_OK && !found; attempt++, wp *= 2) {
        num_t N;
        num_init(&N, &P, wp);
        if (!num_ok(&N)) {
            num_free(&N, 0);
            st = FR_ENOMEM;
            break;
        }
        num_alloc(&N);
        if (warm)
            for (size_t m = 0; m < M; m++)
                mpfr_set(N.nu[m], warm[m], MPFR_RNDN);
        st = num_solve_dual(&N);
        iters += N.iters;
        if (st == FR_OK) {
            /* the proposal: nu_m within c 2^(-wp/3) of 0 (of c) with a
             * gradient below (above) -Fs 2^(-wp/3): 0 (c); otherwise free.
             * A multiplier near a bound with a gradient near 0 is
             * ambiguous (a face of optimal multipliers may end there:
             * duplicates): the proposals put each subset of the ambiguous
             * ones (at most P5_AMBIG, the nearest) at their bound, the
             * empty subset first. */
            mpfr_t th, ch, fth, fs;
            mpfr_inits2(wp, th, ch, fth, fs, (mpfr_ptr)0);
            mpfr_mul_2si(th, N.c, -(long)wp / 3, MPFR_RNDN);
            mpfr_sub(ch, N.c, th, MPFR_RNDN);
            num_fscale(&N, fs, fth);
            mpfr_mul_2si(fth, fs, -(long)wp / 3, MPFR_RNDN);
            size_t amb[P5_AMBIG], na = 0;
            int side[P5_AMBIG];
            for (size_t m = 0; m < M; m++) {
                mpfr_neg(fs, fth, MPFR_RNDN);
                int lo = mpfr_cmp(N.nu[m], th) <= 0, hi = mpfr_cmp(N.nu[m], ch) >= 0;
                if (lo && mpfr_cmp(N.F[m], fs) < 0)
                    cls[m] = 0;
                else if (hi && mpfr_cmp(N.F[m], fth) > 0)
                    cls[m] = 1;
                else {
                    cls[m] = 2;
                    if ((lo || hi) && na < P5_AMBIG) {
                        amb[na] = m;
                        side[na++] = hi;
                    }
                }
            }
            mpfr_clears(th, ch, fth, fs, (mpfr_ptr)0);
            for (unsigned long sub = 0; sub < (1ul << na) && st == FR_OK && !found; sub++) {
                for (size_t i = 0; i < na; i++)
                    cls[amb[i]] = sub >> i & 1 ? side[i] : 2;
                int r = ex_solve(&E, N.nu);
                if (r < 0)
                    st = r;
                else
                    found = r;
            }
        }
        if (st == FR_OK && !found) {
            if (warm == NULL) {
                warm = malloc(M * sizeof *warm);
                if (warm == NULL) st = FR_ENOMEM;
                else for (size_t m = 0; m < M; m++) mpfr_init2(warm[m], MPFR_PREC_MIN);
            }
            if (warm)
                for (size_t m = 0; m < M; m++) {
                    mpfr_set_prec(warm[m], wp);
                    mpfr_set(warm[m], N.nu[m], MPFR_RNDN);
                }
        }
        num_free(&N, 1);
    }
    if (st == FR_OK && !found)
        st = FR_EINTERNAL;
    if (st == FR_OK)
        st = ex_output(&E, tw, ts, tn);
    fr_ssca_kkt kk;
    if (st == FR_OK && cert) {
        st = p5_cert(&kk, &P, tw, ts, tn);
        kk.iters = iters;
    }
    if (st == FR_OK && cert)
        *cert = kk;
    fri_temps_done(tw, w, d, st == FR_OK);
    fri_temps_done(ts, s, M, st == FR_OK);
    fri_temps_done(tn, nu, M, st == FR_OK);
    if (warm) {
        for (size_t m = 0; m < M; m++)
            mpfr_clear(warm[m]);
        free(warm);
    }
    for (size_t i = 0; i <= M; i++)
        mpq_clears(E.ep[i], E.ev[i], E.Gp[i], E.Gv[i], NULL);
    mpq_clears(E.Dl, E.Sp, E.Sv, E.qpp, E.qpv, E.qvv, NULL);
    qs_clear(&E.x);
    free(E.ep); free(E.ev); free(E.Gp); free(E.Gv); free(cls);
    p5_free(&P);
    return st;
}
