/* SPDX-License-Identifier: Apache-2.0 */
/* check_theorem5.c -- Theorem 5 of 000 (Sec. V-C, proof in Appendix D):
 * the correspondence lambda <-> U between the unconstrained problem (32),
 *   min F(w) + lambda ||w||^2,
 * and the constrained problem (40),
 *   min ||w||^2  s.t.  F(w) - U <= 0,
 * for the network of Sec. V (F = (1/N) sum_n loss_n (28)).
 *
 * Instances: P = 2 features, J = 2 hidden cells, L = 2 classes (d = 8),
 * N = 4 seeded samples (|z| < 2, random labels), lambda in {3/64, 1/32,
 * 1/16, 1/8}.  Everything is evaluated by the jet oracle (net_oracle.h;
 * second-order forward mode: exact Hessians, not differences) at
 * q = prec + 64 bits, and the oracle's Hessian is checked first against
 * central differences of its gradients (h = 2^-64; agreement to 2^-100).
 *
 * pc_ssca_theorem5 (remark E-000-T5):
 *   (0) a local minimiser w* of (32) by damped Newton (Cholesky with a
 *       shift when the Hessian is not positive definite, backtracking on
 *       phi = F + lambda ||w||^2, then on ||grad phi||), certified:
 *       ||grad phi(w*)||_inf <= 2^-180 and the Hessian of (32),
 *       H = grad^2 F + 2 lambda I, positive definite: Cholesky of
 *       H - delta I succeeds at q bits, delta = 2^-(q/2) max(1, max H_ii),
 *       which exceeds the rounding error of the factorisation (<= (d+1)
 *       2^-q tr H, Demmel) by ~2^100.  Then a strict local minimiser of
 *       (32) lies within 2 ||grad|| / lambda_min(H) of w*.  Required:
 *       w* != 0 (||w*||_inf > 2^-20) so that grad F(w*) = -2 lambda w* != 0.
 *   (i)  U = F(w*) > 0 (so U >= 0 as the theorem says); w* is a KKT point
 *       of (40) with xi = 1/lambda: ||2 w* + xi grad F(w*)||_inf <=
 *       xi 2^-180, the constraint active (F(w*) - U = 0 exactly), xi > 0,
 *       LICQ (grad F(w*) != 0); second-order sufficiency: the Hessian of
 *       the Lagrangian 2 I + xi grad^2 F = xi H is positive definite on
 *       T = {d : grad F^T d = 0}: Cholesky of Pi (2 I + xi grad^2 F) Pi +
 *       n n^T - delta I (n = grad F / ||grad F||, Pi = I - n n^T) succeeds.
 *       Hence w* is a strict local minimiser of (40) (Theorem 5 (i)).
 *       Probe: 8 random directions d in T, w = w* + 2^-20 d pulled back
 *       onto F(w) = U along n (Newton in one variable): ||w||^2 >
 *       ||w*||^2 by more than 2^-60 every time.
 *   (ii) from (w*, U) alone: the multiplier xi = -2 w*^T grad F / ||grad F||^2
 *       (least squares) is > 0 with residual <= 2^-170; lambda = 1/xi is
 *       the lambda of the instance to 2^-170 relative and w* is stationary
 *       for (32) with it (Theorem 5 (ii), first part).
 *   Remark (the second part of (ii) and its proof):
 *     - the Hessian of (32) is grad^2 F + 2 lambda I, not the printed
 *       grad^2 F + lambda I; the printed condition grad^2 F + lambda I >= 0
 *       is SUFFICIENT (it gives H >= lambda I > 0) but not necessary: the
 *       check brackets lambda_min(grad^2 F(w*)) by bisection (Cholesky
 *       with margin) and counts the instances with lambda_min in
 *       (-2 lambda, -lambda): local minimisers of (32) that the printed
 *       condition rejects;
 *     - the proof's "the Hessian matrix is semi-definite, then w is a
 *       locally optimal solution" is false: witness L = 2, J = 1, P = 2,
 *       N = 1, z = (1, 1), y = class 1, lambda = 1/4, w = 0: grad phi(0) = 0,
 *       grad^2 phi(0) = [[0, C], [C^T, 0]] + I/2 with C = [[-1/4, -1/4],
 *       [1/4, 1/4]] is PSD and singular (eigenvalues 0, 1/2, 1/2, 1), and
 *       along its null vector v = (1, -1, 1, 1), phi(t v) - phi(0) =
 *       -t^3 + O(t^4) < 0 for small t > 0 (checked at t = 2^-8 .. 2^-16
 *       against -t^3 within 4 t^4): w = 0 is a saddle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "net_oracle.h"

#define STREAM_THM5 UINT64_C(0x70632d74686d35) /* "pc-thm5" */
#define L5 2
#define J5 2
#define P5 2
#define N5 4
#define D5 (J5 * (L5 + P5))
#define NDATA 6
#define NPROBE 8

static const unsigned long LAM_NUM[] = {3, 1, 1, 1}, LAM_DEN[] = {64, 32, 16, 8};
#define NLAM (sizeof LAM_NUM / sizeof LAM_NUM[0])

typedef struct {
    size_t L, J, P, N, d;
    mpfr_prec_t q;
    mpfr_t *Z, *Y;     /* N x P features, N x L labels (0/1) */
    mpfr_t lam, invN;  /* lambda (exact), 1/N */
    pcs_net net;
    pcs_jet acc, x;    /* phi (order 2), scratch */
} prob;

static int prob_init(prob *pr, size_t L, size_t J, size_t P, size_t N, mpfr_prec_t q)
{
    pr->L = L;
    pr->J = J;
    pr->P = P;
    pr->N = N;
    pr->d = J * (L + P);
    pr->q = q;
    pr->Z = malloc(sizeof(mpfr_t) * (N * P + N * L));
    if (pr->Z == NULL)
        return -1;
    pr->Y = pr->Z + N * P;
    for (size_t k = 0; k < N * (P + L); k++)
        mpfr_init2(pr->Z[k], 64);
    mpfr_inits2(q, pr->lam, pr->invN, (mpfr_ptr)0);
    mpfr_set_ui(pr->invN, 1, MPFR_RNDN);
    mpfr_div_ui(pr->invN, pr->invN, (unsigned long)N, MPFR_RNDN);
    if (pcs_net_init(&pr->net, L, J, P, 2, q) || pcs_jet_init(&pr->acc, pr->d, 2, q) ||
        pcs_jet_init(&pr->x, pr->d, 2, q))
        return -1;
    return 0;
}

static void prob_clear(prob *pr)
{
    for (size_t k = 0; k < pr->N * (pr->P + pr->L); k++)
        mpfr_clear(pr->Z[k]);
    free(pr->Z);
    mpfr_clears(pr->lam, pr->invN, (mpfr_ptr)0);
    pcs_net_clear(&pr->net);
    pcs_jet_clear(&pr->acc);
    pcs_jet_clear(&pr->x);
}

/* acc = jet of F (withreg = 0) or phi = F + lambda ||w||^2 at w. */
static int eval(prob *pr, mpfr_t *w, int withreg)
{
    pcs_jet *a = &pr->acc;
    mpfr_t z;
    mpfr_init2(z, 8);
    mpfr_set_zero(z, 1);
    pcs_jet_const(a, z);
    mpfr_clear(z);
    pcs_net_set_w(&pr->net, w);
    for (size_t n = 0; n < pr->N; n++)
        if (pcs_net_add_loss(&pr->net, a, pr->Z + n * pr->P, pr->Y + n * pr->L, pr->invN))
            return -1;
    if (withreg)
        for (size_t k = 0; k < pr->d; k++) {
            pcs_jet_var(&pr->x, w[k], k);
            pcs_jet_mul(&pr->x, &pr->x, &pr->x);
            pcs_jet_addmul(a, &pr->x, pr->lam);
        }
    return 0;
}

/* Cholesky of the symmetric matrix M (full n x n, row-major) - shift I into
 * R (lower, full storage).  0 when every pivot is > 0, 1 otherwise. */
static int chol(mpfr_t *R, mpfr_t *M, size_t n, const mpfr_t shift, mpfr_t t)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            mpfr_set(t, M[i * n + j], MPFR_RNDN);
            if (i == j && shift)
                mpfr_sub(t, t, shift, MPFR_RNDN);
            for (size_t k = 0; k < j; k++) {
                mpfr_mul(R[i * n + i], R[i * n + k], R[j * n + k], MPFR_RNDN);
                mpfr_sub(t, t, R[i * n + i], MPFR_RNDN);
            }
            if (i == j) {
                if (mpfr_sgn(t) <= 0)
                    return 1;
                mpfr_sqrt(R[i * n + i], t, MPFR_RNDN);
            } else {
                mpfr_div(R[i * n + j], t, R[j * n + j], MPFR_RNDN);
            }
        }
    return 0;
}

/* Solve R R^T x = b in place (R from chol). */
static void chol_solve(mpfr_t *R, mpfr_t *b, size_t n, mpfr_t t)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < i; k++) {
            mpfr_mul(t, R[i * n + k], b[k], MPFR_RNDN);
            mpfr_sub(b[i], b[i], t, MPFR_RNDN);
        }
        mpfr_div(b[i], b[i], R[i * n + i], MPFR_RNDN);
    }
    for (size_t i = n; i-- > 0;) {
        for (size_t k = i + 1; k < n; k++) {
            mpfr_mul(t, R[k * n + i], b[k], MPFR_RNDN);
            mpfr_sub(b[i], b[i], t, MPFR_RNDN);
        }
        mpfr_div(b[i], b[i], R[i * n + i], MPFR_RNDN);
    }
}

/* Full matrix of the jet's Hessian (+ c I). */
static void hess_full(mpfr_t *M, const pcs_jet *a, const mpfr_t c)
{
    size_t n = a->d;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            mpfr_set(M[i * n + j], a->h[pcs_hidx(i, j)], MPFR_RNDN);
            if (i == j && c)
                mpfr_add(M[i * n + j], M[i * n + j], c, MPFR_RNDN);
        }
}

static void norm_inf(mpfr_t r, mpfr_t *v, size_t n)
{
    mpfr_set_zero(r, 1);
    for (size_t k = 0; k < n; k++)
        if (mpfr_cmpabs(v[k], r) > 0)
            mpfr_abs(r, v[k], MPFR_RNDU);
}

/* delta = 2^-(q/2) max(1, max M_ii): the certificate margin. */
static void margin(mpfr_t delta, mpfr_t *M, size_t n, mpfr_prec_t q)
{
    mpfr_set_ui(delta, 1, MPFR_RNDN);
    for (size_t i = 0; i < n; i++)
        if (mpfr_cmpabs(M[i * n + i], delta) > 0)
            mpfr_abs(delta, M[i * n + i], MPFR_RNDU);
    mpfr_mul_2si(delta, delta, -(long)(q / 2), MPFR_RNDU);
}

typedef struct {
    mpfr_t *w, *wt, *s, *g, *M, *R;   /* d, d, d, d, d*d, d*d */
    mpfr_t t, t2, phi, gn, gt, delta;
} ws;

static int ws_init(ws *W, size_t d, mpfr_prec_t q)
{
    W->w = malloc(sizeof(mpfr_t) * (4 * d + 2 * d * d));
    if (W->w == NULL)
        return -1;
    W->wt = W->w + d;
    W->s = W->wt + d;
    W->g = W->s + d;
    W->M = W->g + d;
    W->R = W->M + d * d;
    for (size_t k = 0; k < 4 * d + 2 * d * d; k++)
        mpfr_init2(W->w[k], q);
    mpfr_inits2(q, W->t, W->t2, W->phi, W->gn, W->gt, W->delta, (mpfr_ptr)0);
    return 0;
}

static void ws_clear(ws *W, size_t d)
{
    for (size_t k = 0; k < 4 * d + 2 * d * d; k++)
        mpfr_clear(W->w[k]);
    free(W->w);
    mpfr_clears(W->t, W->t2, W->phi, W->gn, W->gt, W->delta, (mpfr_ptr)0);
}

/* Damped Newton on phi from W->w; on return W->w is the iterate, acc its
 * jet.  NULL, or why it failed.  *iters: steps taken. */
static const char *newton(prob *pr, ws *W, unsigned *iters, mpfr_prec_t q)
{
    size_t d = pr->d;
    mpfr_t thr, mu;
    const char *why = NULL;
    mpfr_inits2(q, thr, mu, (mpfr_ptr)0);
    mpfr_set_ui_2exp(thr, 1, -(long)(q - 60), MPFR_RNDN);
    *iters = 0;
    if (eval(pr, W->w, 1)) {
        why = "oracle failed";
        goto out;
    }
    norm_inf(W->gn, pr->acc.g, d);
    while (mpfr_cmp(W->gn, thr) > 0) {
        if (++*iters > 300) {
            why = "Newton did not converge";
            break;
        }
        mpfr_set(W->phi, pr->acc.v, MPFR_RNDN);
        hess_full(W->M, &pr->acc, NULL);
        /* shift mu until H + mu I is positive definite */
        mpfr_set_zero(mu, 1);
        for (int k = 0;; k++) {
            mpfr_neg(W->t2, mu, MPFR_RNDN);
            if (chol(W->R, W->M, d, W->t2, W->t) == 0)
                break;
            if (k > 200) {
                why = "no positive definite shift";
                goto out;
            }
            if (mpfr_zero_p(mu))
                mpfr_set_ui_2exp(mu, 1, -20, MPFR_RNDN);
            else
                mpfr_mul_2ui(mu, mu, 1, MPFR_RNDN);
        }
        for (size_t k = 0; k < d; k++)
            mpfr_neg(W->s[k], pr->acc.g[k], MPFR_RNDN);
        chol_solve(W->R, W->s, d, W->t);
        /* backtracking: phi must decrease (far), or ||grad|| (near) */
        int near = mpfr_cmp_ui_2exp(W->gn, 1, -40) < 0;
        int ok = 0;
        for (int h = 0; h < 80 && !ok; h++) {
            for (size_t k = 0; k < d; k++)
                mpfr_add(W->wt[k], W->w[k], W->s[k], MPFR_RNDN);
            if (eval(pr, W->wt, 1)) {
                why = "oracle failed";
                goto out;
            }
            norm_inf(W->gt, pr->acc.g, d);
            ok = near ? mpfr_cmp(W->gt, W->gn) < 0 : mpfr_cmp(pr->acc.v, W->phi) < 0;
            if (!ok)
                for (size_t k = 0; k < d; k++)
                    mpfr_div_2ui(W->s[k], W->s[k], 1, MPFR_RNDN);
        }
        if (!ok) {
            why = "Newton stalled";
            break;
        }
        for (size_t k = 0; k < d; k++)
            mpfr_set(W->w[k], W->wt[k], MPFR_RNDN);
        mpfr_set(W->gn, W->gt, MPFR_RNDN);
    }
out:
    mpfr_clears(thr, mu, (mpfr_ptr)0);
    return why;
}

/* Bisection bracket [lo, hi] of lambda_min of the symmetric M: Cholesky of
 * M - lo I succeeds, of M - hi I fails (to the rounding of the
 * factorisation, ~2^-(q-10) max|M_ii|, far below the width 2^-40). */
static int eig_min_bracket(mpfr_t lo, mpfr_t hi, mpfr_t *M, mpfr_t *R, size_t n,
                           mpfr_t t, mpfr_t mid)
{
    mpfr_set_si(lo, -64, MPFR_RNDN);
    mpfr_set_si(hi, 64, MPFR_RNDN);
    if (chol(R, M, n, lo, t) != 0 || chol(R, M, n, hi, t) == 0)
        return -1;      /* lambda_min outside (-64, 64) */
    for (int k = 0; k < 48; k++) {
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        if (chol(R, M, n, mid, t) == 0)
            mpfr_set(lo, mid, MPFR_RNDN);
        else
            mpfr_set(hi, mid, MPFR_RNDN);
    }
    return 0;
}

/* The witness that a PSD Hessian at a stationary point is not sufficient
 * (see the top comment).  NULL, or why it failed; text: the summary. */
static const char *psd_witness(mpfr_prec_t q, char *text, size_t size)
{
    prob pr;
    ws W;
    const char *why = NULL;
    static const int V[4] = {1, -1, 1, 1};
    mpfr_t phi0, t, e, c3;
    if (prob_init(&pr, 2, 1, 2, 1, q) || ws_init(&W, 4, q))
        return "out of memory";
    mpfr_inits2(q, phi0, t, e, c3, (mpfr_ptr)0);
    mpfr_set_ui(pr.Z[0], 1, MPFR_RNDN);
    mpfr_set_ui(pr.Z[1], 1, MPFR_RNDN);
    mpfr_set_ui(pr.Y[0], 1, MPFR_RNDN);    /* class 1 of 2 (index 0) */
    mpfr_set_ui(pr.Y[1], 0, MPFR_RNDN);
    mpfr_set_ui_2exp(pr.lam, 1, -2, MPFR_RNDN);
    for (size_t k = 0; k < 4; k++)
        mpfr_set_zero(W.w[k], 1);
    if (eval(&pr, W.w, 1)) {
        why = "oracle failed";
        goto out;
    }
    mpfr_set(phi0, pr.acc.v, MPFR_RNDN);
    for (size_t k = 0; k < 4 && why == NULL; k++)
        if (!mpfr_zero_p(pr.acc.g[k]))
            why = "grad phi(0) != 0";
    /* H v = 0 and H + delta I positive definite (PSD, singular) */
    hess_full(W.M, &pr.acc, NULL);
    for (size_t i = 0; i < 4 && why == NULL; i++) {
        mpfr_set_zero(t, 1);
        for (size_t j = 0; j < 4; j++) {
            mpfr_mul_si(e, W.M[i * 4 + j], V[j], MPFR_RNDN);
            mpfr_add(t, t, e, MPFR_RNDN);
        }
        mpfr_set_ui_2exp(c3, 1, -(long)(q - 16), MPFR_RNDN);
        if (mpfr_cmpabs(t, c3) > 0)
            why = "H v != 0";
    }
    margin(W.delta, W.M, 4, q);
    mpfr_neg(e, W.delta, MPFR_RNDN);
    if (why == NULL && chol(W.R, W.M, 4, e, t) != 0)
        why = "H + delta I is not positive definite";
    if (why == NULL && chol(W.R, W.M, 4, W.delta, t) == 0)
        why = "H - delta I is positive definite (H is not singular)";
    /* phi(t v) - phi(0) = -t^3 + O(t^4) */
    for (int k = 8; k <= 16 && why == NULL; k++)
        for (int sg = -1; sg <= 1 && why == NULL; sg += 2) {
            for (size_t j = 0; j < 4; j++)
                mpfr_set_si_2exp(W.w[j], sg * V[j], -k, MPFR_RNDN);
            if (eval(&pr, W.w, 1)) {
                why = "oracle failed";
                break;
            }
            mpfr_sub(e, pr.acc.v, phi0, MPFR_RNDN);    /* phi(tv) - phi(0) */
            mpfr_set_si_2exp(c3, sg, -3 * k, MPFR_RNDN); /* t^3 */
            mpfr_add(t, e, c3, MPFR_RNDN);              /* + t^3 */
            if (mpfr_cmpabs(t, c3) >= 0 || mpfr_cmp_ui_2exp(t, 1, -4 * k + 2) > 0 ||
                mpfr_cmp_si_2exp(t, -1, -4 * k + 2) < 0)
                why = "phi(t v) - phi(0) is not -t^3 within 4 t^4";
            if (why == NULL && sg > 0 && k == 10)
                mpfr_snprintf(text, size,
                              "PSD witness (L=2 J=1 P=2 z=(1,1) lambda=1/4 w=0): grad 0, "
                              "Hessian PSD singular, phi(2^-10 v) - phi(0) = %.6Re",
                              e);
        }
out:
    mpfr_clears(phi0, t, e, c3, (mpfr_ptr)0);
    ws_clear(&W, 4);
    prob_clear(&pr);
    return why;
}

int pc_ssca_theorem5(pc_ctx *ctx)
{
    mpfr_prec_t p = ctx->prec, q = p + 64;
    prob pr;
    ws W;
    size_t d = D5;
    mpfr_t U, xi, lo, hi, mid, t, e, nrm, gF[D5], n[D5], dir[D5], Hf[D5 * D5], tol180, tol170;
    char first[300] = "", wit[240] = "", psd[200] = "";
    unsigned long inst_zero = 0, inst_ok = 0, printed_holds = 0, printed_strict = 0, probes = 0;
    double rmin = 0, rmax = 0;
    unsigned iters_total = 0;
    frng_t g;

    ctx->function = "ssca_net";
    ctx->vector = NULL;
    ctx->claim = "000 Thm 5: a certified local minimiser of (32) is a KKT point of (40) with "
                 "U = F(w*), xi = 1/lambda, second-order sufficient, and conversely lambda = 1/xi; "
                 "the Hessian of (32) is grad^2 F + 2 lambda I";
    ctx->erratum = "E-000-T5";
    if (prob_init(&pr, L5, J5, P5, N5, q) || ws_init(&W, d, q))
        return 2;
    mpfr_inits2(q, U, xi, lo, hi, mid, t, e, nrm, tol180, tol170, (mpfr_ptr)0);
    for (size_t k = 0; k < d; k++)
        mpfr_inits2(q, gF[k], n[k], dir[k], (mpfr_ptr)0);
    for (size_t k = 0; k < d * d; k++)
        mpfr_init2(Hf[k], q);
    mpfr_set_ui_2exp(tol180, 1, -180, MPFR_RNDN);
    mpfr_set_ui_2exp(tol170, 1, -170, MPFR_RNDN);
    frng_init(&g, ctx->seed, STREAM_THM5);

    const char *pw = psd_witness(q, psd, sizeof psd);
    ctx->ran++;
    if (pw && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "PSD witness: %s", pw);

    unsigned long ndata = ctx->cases < NDATA ? ctx->cases : NDATA;
    for (unsigned long k = 0; k < ndata * NLAM; k++) {
        const char *why = NULL;
        unsigned it = 0;
        size_t li = k % NLAM;
        if (li == 0) /* new data */
            for (size_t nn = 0; nn < N5; nn++) {
                for (size_t pp = 0; pp < P5; pp++)
                    pcu_rand_dyadic(pr.Z[nn * P5 + pp], &g, 20, -1, 1, 0);
                size_t c = (size_t)pcu_below(&g, L5);
                for (size_t l = 0; l < L5; l++)
                    mpfr_set_ui(pr.Y[nn * L5 + l], l == c, MPFR_RNDN);
            }
        mpfr_set_ui(pr.lam, LAM_NUM[li], MPFR_RNDN);
        mpfr_div_ui(pr.lam, pr.lam, LAM_DEN[li], MPFR_RNDN);   /* exact */
        ctx->ran++;
        /* (0) Newton from a random start with |w| < 2 */
        for (size_t j = 0; j < d; j++)
            pcu_rand_dyadic(W.w[j], &g, 20, -2, 1, 0);
        why = newton(&pr, &W, &it, q);
        iters_total += it;
        if (why)
            goto done;
        /* oracle self-check: Hessian vs central differences of gradients */
        hess_full(W.M, &pr.acc, NULL);
        for (size_t j = 0; j < d && why == NULL; j++) {
            for (int sg = 1; sg >= -1; sg -= 2) {
                for (size_t k2 = 0; k2 < d; k2++)
                    mpfr_set(W.wt[k2], W.w[k2], MPFR_RNDN);
                mpfr_set_si_2exp(t, sg, -64, MPFR_RNDN);
                mpfr_add(W.wt[j], W.wt[j], t, MPFR_RNDN);
                if (eval(&pr, W.wt, 1)) {
                    why = "oracle failed";
                    break;
                }
                for (size_t k2 = 0; k2 < d; k2++) {
                    if (sg > 0)
                        mpfr_set(Hf[k2 * d + j], pr.acc.g[k2], MPFR_RNDN);
                    else
                        mpfr_sub(Hf[k2 * d + j], Hf[k2 * d + j], pr.acc.g[k2], MPFR_RNDN);
                }
            }
            for (size_t k2 = 0; k2 < d && why == NULL; k2++) {
                mpfr_mul_2ui(t, Hf[k2 * d + j], 63, MPFR_RNDN);   /* / (2 h) */
                mpfr_sub(t, t, W.M[k2 * d + j], MPFR_RNDN);
                if (mpfr_cmp_ui_2exp(t, 1, -100) > 0 || mpfr_cmp_si_2exp(t, -1, -100) < 0)
                    why = "oracle: Hessian jet != differences of gradient jets";
            }
        }
        if (why || eval(&pr, W.w, 1)) {
            why = why ? why : "oracle failed";
            goto done;
        }
        /* certificate of (32) */
        norm_inf(t, pr.acc.g, d);
        if (mpfr_cmp(t, tol180) > 0) {
            why = "||grad phi(w*)|| > 2^-180";
            goto done;
        }
        hess_full(W.M, &pr.acc, NULL);
        margin(W.delta, W.M, d, q);
        if (chol(W.R, W.M, d, W.delta, t) != 0) {
            why = "the Hessian of (32) at w* is not certified positive definite (saddle?)";
            goto done;
        }
        norm_inf(t, W.w, d);
        if (mpfr_cmp_ui_2exp(t, 1, -20) <= 0) {
            /* w* = 0 (lambda large): grad F(0) = 0 (S(0) = 0 and w0 = 0), so
             * (i) holds trivially (0 minimises ||w||^2 and F(0) = U) and (ii)
             * does not apply (the constraint is not regular at 0) */
            if (eval(&pr, W.w, 0)) {
                why = "oracle failed";
                goto done;
            }
            norm_inf(t, pr.acc.g, d);
            if (mpfr_cmp(t, tol180) > 0)
                why = "w* = 0 but grad F(0) != 0";
            else
                inst_zero++;
            goto done;
        }
        /* (i) U = F(w*), grad F, KKT of (40) with xi = 1/lambda */
        if (eval(&pr, W.w, 0)) {
            why = "oracle failed";
            goto done;
        }
        mpfr_set(U, pr.acc.v, MPFR_RNDN);
        if (mpfr_sgn(U) <= 0) {
            why = "U = F(w*) <= 0";
            goto done;
        }
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_set(gF[k2], pr.acc.g[k2], MPFR_RNDN);
        hess_full(Hf, &pr.acc, NULL);                    /* grad^2 F */
        mpfr_ui_div(xi, 1, pr.lam, MPFR_RNDN);
        for (size_t k2 = 0; k2 < d && why == NULL; k2++) {
            mpfr_mul(t, xi, gF[k2], MPFR_RNDN);
            mpfr_mul_2ui(e, W.w[k2], 1, MPFR_RNDN);
            mpfr_add(t, t, e, MPFR_RNDN);                /* 2 w + xi grad F */
            mpfr_mul(e, xi, tol180, MPFR_RNDU);
            if (mpfr_cmpabs(t, e) > 0)
                why = "(i) 2 w* + xi grad F(w*) != 0 with xi = 1/lambda";
        }
        if (why)
            goto done;
        /* second order on T: Pi (2 I + xi grad^2 F) Pi + n n^T */
        mpfr_set_zero(nrm, 1);
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_fma(nrm, gF[k2], gF[k2], nrm, MPFR_RNDN);
        mpfr_sqrt(nrm, nrm, MPFR_RNDN);
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_div(n[k2], gF[k2], nrm, MPFR_RNDN);
        {
            /* W.M = Lagrangian Hessian; W.R (scratch) = Pi M Pi + n n^T */
            for (size_t a = 0; a < d; a++)
                for (size_t b = 0; b < d; b++) {
                    mpfr_mul(W.M[a * d + b], xi, Hf[a * d + b], MPFR_RNDN);
                    if (a == b)
                        mpfr_add_ui(W.M[a * d + b], W.M[a * d + b], 2, MPFR_RNDN);
                }
            /* MPi = M Pi: columns; then Pi (M Pi) */
            mpfr_t *MP = malloc(sizeof(mpfr_t) * d * d * 2);
            if (MP == NULL) {
                why = "out of memory";
                goto done;
            }
            mpfr_t *PMP = MP + d * d;
            for (size_t a = 0; a < 2 * d * d; a++)
                mpfr_init2(MP[a], q);
            for (size_t a = 0; a < d; a++)
                for (size_t b = 0; b < d; b++) {      /* (M Pi)_{ab} = M_ab - (M n)_a n_b */
                    mpfr_set_zero(t, 1);
                    for (size_t c = 0; c < d; c++)
                        mpfr_fma(t, W.M[a * d + c], n[c], t, MPFR_RNDN);
                    mpfr_mul(t, t, n[b], MPFR_RNDN);
                    mpfr_sub(MP[a * d + b], W.M[a * d + b], t, MPFR_RNDN);
                }
            for (size_t a = 0; a < d; a++)
                for (size_t b = 0; b < d; b++) {      /* Pi MP = MP - n (n^T MP) + n n^T */
                    mpfr_set_zero(t, 1);
                    for (size_t c = 0; c < d; c++)
                        mpfr_fma(t, n[c], MP[c * d + b], t, MPFR_RNDN);
                    mpfr_mul(t, t, n[a], MPFR_RNDN);
                    mpfr_sub(PMP[a * d + b], MP[a * d + b], t, MPFR_RNDN);
                    mpfr_mul(t, n[a], n[b], MPFR_RNDN);
                    mpfr_add(PMP[a * d + b], PMP[a * d + b], t, MPFR_RNDN);
                }
            margin(W.delta, PMP, d, q);
            int c2 = chol(W.R, PMP, d, W.delta, t);
            for (size_t a = 0; a < 2 * d * d; a++)
                mpfr_clear(MP[a]);
            free(MP);
            if (c2 != 0) {
                why = "(i) the Lagrangian Hessian is not positive definite on T";
                goto done;
            }
        }
        /* probes: w = w* + 2^-20 dir (dir in T), pulled back to F(w) = U along n */
        for (int pb = 0; pb < NPROBE && why == NULL; pb++) {
            mpfr_set_zero(e, 1);
            for (size_t k2 = 0; k2 < d; k2++) {
                pcu_rand_dyadic_nz(dir[k2], &g, 30, 0, 1, 0);
                mpfr_fma(e, dir[k2], n[k2], e, MPFR_RNDN);
            }
            for (size_t k2 = 0; k2 < d; k2++) {             /* project onto T */
                mpfr_mul(t, e, n[k2], MPFR_RNDN);
                mpfr_sub(dir[k2], dir[k2], t, MPFR_RNDN);
                mpfr_mul_2si(dir[k2], dir[k2], -20, MPFR_RNDN);
                mpfr_add(W.wt[k2], W.w[k2], dir[k2], MPFR_RNDN);
            }
            /* s: F(wt + s n) = U by Newton in s (F' = grad F . n) */
            for (int nt = 0; nt < 40; nt++) {
                if (eval(&pr, W.wt, 0)) {
                    why = "oracle failed";
                    break;
                }
                mpfr_sub(e, pr.acc.v, U, MPFR_RNDN);
                mpfr_set_zero(t, 1);
                for (size_t k2 = 0; k2 < d; k2++)
                    mpfr_fma(t, pr.acc.g[k2], n[k2], t, MPFR_RNDN);
                mpfr_div(e, e, t, MPFR_RNDN);
                for (size_t k2 = 0; k2 < d; k2++) {
                    mpfr_mul(t, e, n[k2], MPFR_RNDN);
                    mpfr_sub(W.wt[k2], W.wt[k2], t, MPFR_RNDN);
                }
            }
            if (why)
                break;
            if (eval(&pr, W.wt, 0)) {
                why = "oracle failed";
                break;
            }
            mpfr_sub(e, pr.acc.v, U, MPFR_RNDN);
            if (mpfr_cmpabs(e, tol180) > 0) {
                why = "probe: pull-back onto F = U did not converge";
                break;
            }
            mpfr_set_zero(e, 1);                       /* ||wt||^2 - ||w*||^2 */
            for (size_t k2 = 0; k2 < d; k2++) {
                mpfr_fma(e, W.wt[k2], W.wt[k2], e, MPFR_RNDN);
                mpfr_mul(t, W.w[k2], W.w[k2], MPFR_RNDN);
                mpfr_sub(e, e, t, MPFR_RNDN);
            }
            if (mpfr_cmp_ui_2exp(e, 1, -60) <= 0)
                why = "probe: a feasible point near w* with ||w||^2 <= ||w*||^2 + 2^-60";
            probes++;
        }
        if (why)
            goto done;
        /* (ii) from (w*, U): xi = -2 w^T grad F / ||grad F||^2, lambda = 1/xi */
        mpfr_set_zero(e, 1);
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_fma(e, W.w[k2], gF[k2], e, MPFR_RNDN);
        mpfr_mul_si(e, e, -2, MPFR_RNDN);
        mpfr_sqr(t, nrm, MPFR_RNDN);
        mpfr_div(xi, e, t, MPFR_RNDN);
        if (mpfr_sgn(xi) <= 0) {
            why = "(ii) the multiplier xi is not > 0";
            goto done;
        }
        for (size_t k2 = 0; k2 < d && why == NULL; k2++) {
            mpfr_mul(t, xi, gF[k2], MPFR_RNDN);
            mpfr_mul_2ui(e, W.w[k2], 1, MPFR_RNDN);
            mpfr_add(t, t, e, MPFR_RNDN);
            if (mpfr_cmpabs(t, tol170) > 0)
                why = "(ii) KKT residual of (40) above 2^-170";
        }
        if (why)
            goto done;
        mpfr_ui_div(e, 1, xi, MPFR_RNDN);             /* recovered lambda */
        mpfr_sub(t, e, pr.lam, MPFR_RNDN);
        mpfr_div(t, t, pr.lam, MPFR_RNDN);
        if (mpfr_cmpabs(t, tol170) > 0) {
            why = "(ii) 1/xi is not lambda";
            goto done;
        }
        for (size_t k2 = 0; k2 < d && why == NULL; k2++) {
            mpfr_mul(t, e, W.w[k2], MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_add(t, t, gF[k2], MPFR_RNDN);
            if (mpfr_cmpabs(t, tol170) > 0)
                why = "(ii) w* not stationary for (32) with lambda = 1/xi";
        }
        if (why)
            goto done;
        /* remark: lambda_min(grad^2 F) vs -lambda (printed) and -2 lambda */
        if (eig_min_bracket(lo, hi, Hf, W.R, d, t, mid)) {
            why = "lambda_min(grad^2 F(w*)) outside (-64, 64)";
            goto done;
        }
        mpfr_div(t, lo, pr.lam, MPFR_RNDN);
        double ratio = mpfr_get_d(t, MPFR_RNDN);
        if (inst_ok == 0 || ratio < rmin)
            rmin = ratio;
        if (inst_ok == 0 || ratio > rmax)
            rmax = ratio;
        mpfr_mul_2ui(e, pr.lam, 1, MPFR_RNDN);
        mpfr_neg(e, e, MPFR_RNDN);
        if (mpfr_cmp(hi, e) <= 0) {
            why = "lambda_min(grad^2 F) <= -2 lambda at a certified minimiser";
            goto done;
        }
        mpfr_neg(e, pr.lam, MPFR_RNDN);
        if (mpfr_cmp(lo, e) >= 0) {
            /* printed condition holds: then H - lambda I = grad^2 F + lambda I >= 0,
             * i.e. H >= lambda I: Cholesky of H - (lambda - delta) I */
            printed_holds++;
            mpfr_mul_2ui(e, pr.lam, 1, MPFR_RNDN);      /* H = grad^2 F + 2 lambda I */
            for (size_t a = 0; a < d * d; a++)
                mpfr_set(W.M[a], Hf[a], MPFR_RNDN);
            for (size_t a = 0; a < d; a++)
                mpfr_add(W.M[a * d + a], W.M[a * d + a], e, MPFR_RNDN);
            margin(W.delta, W.M, d, q);
            mpfr_sub(e, pr.lam, W.delta, MPFR_RNDN);
            if (chol(W.R, W.M, d, e, t) != 0) {
                why = "printed condition holds but H - (lambda - delta) I is not PD";
                goto done;
            }
        } else if (mpfr_cmp(hi, e) < 0) {
            printed_strict++;    /* local minimiser the printed condition rejects */
            if (wit[0] == '\0')
                mpfr_snprintf(wit, sizeof wit,
                              "data %lu lambda %lu/%lu: lambda_min(grad^2 F(w*)) = %.6Rg = "
                              "%.3f lambda, U = %.8Rg",
                              k / NLAM, LAM_NUM[li], LAM_DEN[li], lo, ratio, U);
        }
        inst_ok++;
    done:
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "data %lu (seed 0x%llx), lambda %lu/%lu: %s",
                         k / NLAM, (unsigned long long)ctx->seed, LAM_NUM[li], LAM_DEN[li],
                         why);
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu instances (%u Newton steps; +%lu with w* = 0): (32) minimiser "
                     "certified; KKT + 2nd order of (40), U = F(w*), xi = 1/lambda; %lu probes; "
                     "lambda = 1/xi; printed grad^2 F + lambda I >= 0 holds on %lu, fails at a "
                     "strict minimiser on %lu (lmin/lambda in [%.3f, %.3f]), e.g. %s; %s",
                     inst_ok, iters_total, inst_zero, probes, printed_holds, printed_strict, rmin,
                     rmax, wit[0] ? wit : "none", psd);

    ws_clear(&W, d);
    prob_clear(&pr);
    mpfr_clears(U, xi, lo, hi, mid, t, e, nrm, tol180, tol170, (mpfr_ptr)0);
    for (size_t k = 0; k < d; k++)
        mpfr_clears(gF[k], n[k], dir[k], (mpfr_ptr)0);
    for (size_t k = 0; k < d * d; k++)
        mpfr_clear(Hf[k]);
    return ctx->failed ? 1 : 0;
}
