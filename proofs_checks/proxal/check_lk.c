/* SPDX-License-Identifier: Apache-2.0 */
/* check_lk.c -- proof checks of 004's proximal AL subproblem (module proxal).
 *
 * pc_proxal_remark31: Remark 3.1 with the check's own global constraint
 * c_0(w) = ||w||^2 - 1 (not one of the library's problem kinds, so
 * implemented here), P_0k of (10) evaluated from its definition in exact
 * rationals (GMP mpq):
 *   (a) the formula grad P_0k(w) = 2 [mu + beta (||w||^2 - 1)]_+ w + (w -
 *       w^k)/((n+1) beta).  Along w + s e_k, while t(s) = mu + beta (||w +
 *       s e_k||^2 - 1) keeps one strict sign, P_0k is a polynomial of
 *       degree <= 4 in s, so with D(h) = (P(h) - P(-h))/(2h) = a1 + a3 h^2,
 *       the derivative a1 = (4 D(h) - D(2h))/3 EXACTLY.  The sign of t on
 *       [-2h, 2h] is certified by |t(s) - t(0)| <= 2 beta |w_k| |s| + beta
 *       s^2; cases where it is not are redrawn with a smaller h.  a1 must
 *       equal the formula's entry k exactly, for every k.
 *   (b) not globally Lipschitz: with d = 1, mu = 0, w^k = 0, for R >= 1 the
 *       ratio |P'(R+1) - P'(R)| / 1 is computed exactly and must be >=
 *       6 beta R^2 (= 2 beta ((R+1)^3 - R^3 - 1) - 2 beta R... proved:
 *       P'(r) = 2 beta (r^2 - 1) r + r/((n+1) beta) for r >= 1, so
 *       P'(R+1) - P'(R) = 2 beta (3R^2 + 3R) + 1/((n+1) beta) >= 6 beta R^2);
 *       R = 2^j, j = 0..40: the ratio passes every bound L; while grad c_0
 *       = 2w has the ratio exactly 2 on the same pairs (globally
 *       Lipschitz), as the remark says.
 * pc_proxal_lk_split: the split (9), l_k = sum_{i=0}^n P_ik (h = 0), on
 *   random QP, NP and FAIR instances with ref at ctx->prec: both sides are
 *   correctly rounded (contracts), so |l_k - sum_i P_ik| <= ulp(l_k)/2 +
 *   sum_i ulp(P_ik)/2 must hold, decided exactly (every quantity is a
 *   dyadic number; the sums exact); the same for each gradient entry.  On
 *   the QP instances l_k itself is also compared with the exact rational
 *   value of (6) from its definition: ref's value must be its rounding to
 *   nearest (certified: |ref - exact| <= ulp(ref)/2 in Q). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "fedref.h"

#define STREAM_R31 UINT64_C(0x70632d723331)     /* "pc-r31" */
#define STREAM_SPLIT UINT64_C(0x70632d73706c)   /* "pc-spl" */

/* a dyadic rational: k 2^-e, k uniform in (-2^bits, 2^bits) */
static void qrand(mpq_t x, frng_t *G, unsigned bits, unsigned e)
{
    uint64_t u = frng_next64(G);
    long k = (long)(u >> (64 - bits - 1)) - (1L << bits);
    mpq_set_si(x, k, 1);
    mpz_mul_2exp(mpq_denref(x), mpq_denref(x), e);
    mpq_canonicalize(x);
}

typedef struct {
    size_t d, n;
    mpq_t w[4], wk[4], mu, beta;
} r31;

/* P_0k at w + s e_k from (10): (1/(2 beta)) ([mu + beta c0]_+^2 - mu^2) +
 * ||. - w^k||^2 / (2 (n+1) beta), c0 = ||.||^2 - 1 */
static void p0(mpq_t out, const r31 *R, size_t k, const mpq_t s)
{
    mpq_t x, c, q, t;
    mpq_inits(x, c, q, t, NULL);
    mpq_set_si(c, -1, 1);
    mpq_set_ui(q, 0, 1);
    for (size_t j = 0; j < R->d; j++) {
        mpq_set(x, R->w[j]);
        if (j == k) mpq_add(x, x, s);
        mpq_mul(t, x, x);
        mpq_add(c, c, t);                          /* ||w||^2 - 1 */
        mpq_sub(t, x, R->wk[j]);
        mpq_mul(t, t, t);
        mpq_add(q, q, t);
    }
    mpq_mul(t, R->beta, c);
    mpq_add(t, t, R->mu);                          /* mu + beta c0 */
    if (mpq_sgn(t) < 0) mpq_set_ui(t, 0, 1);       /* [.]_+ */
    mpq_mul(t, t, t);
    mpq_mul(x, R->mu, R->mu);
    mpq_sub(t, t, x);
    mpq_set(x, R->beta);
    mpq_mul_2exp(x, x, 1);
    mpq_div(t, t, x);                              /* / (2 beta) */
    mpq_set_ui(x, (unsigned long)(R->n + 1), 1);
    mpq_mul(x, x, R->beta);
    mpq_mul_2exp(x, x, 1);
    mpq_div(q, q, x);                              /* / (2 (n+1) beta) */
    mpq_add(out, t, q);
    mpq_clears(x, c, q, t, NULL);
}

/* Remark 3.1's printed formula, entry k */
static void remark_grad(mpq_t out, const r31 *R, size_t k)
{
    mpq_t c, t, x;
    mpq_inits(c, t, x, NULL);
    mpq_set_si(c, -1, 1);
    for (size_t j = 0; j < R->d; j++) {
        mpq_mul(t, R->w[j], R->w[j]);
        mpq_add(c, c, t);
    }
    mpq_mul(t, R->beta, c);
    mpq_add(t, t, R->mu);
    if (mpq_sgn(t) < 0) mpq_set_ui(t, 0, 1);
    mpq_mul(t, t, R->w[k]);
    mpq_mul_2exp(t, t, 1);                         /* 2 [.]_+ w_k */
    mpq_sub(x, R->w[k], R->wk[k]);
    mpq_set_ui(c, (unsigned long)(R->n + 1), 1);
    mpq_mul(c, c, R->beta);
    mpq_div(x, x, c);
    mpq_add(out, t, x);
    mpq_clears(c, t, x, NULL);
}

/* 1 if t(s) keeps a strict sign on [-2h, 2h] (certified bound) */
static int sign_kept(const r31 *R, size_t k, const mpq_t h)
{
    mpq_t c, t, x, b;
    mpq_inits(c, t, x, b, NULL);
    mpq_set_si(c, -1, 1);
    for (size_t j = 0; j < R->d; j++) {
        mpq_mul(t, R->w[j], R->w[j]);
        mpq_add(c, c, t);
    }
    mpq_mul(t, R->beta, c);
    mpq_add(t, t, R->mu);                          /* t(0) */
    mpq_abs(x, R->w[k]);
    mpq_mul_2exp(b, h, 1);                         /* |s| <= 2h */
    mpq_mul(x, x, b);
    mpq_mul_2exp(x, x, 1);                         /* 2 |w_k| |s| */
    mpq_mul(b, b, b);
    mpq_add(x, x, b);
    mpq_mul(x, x, R->beta);                        /* beta (2|w_k||s| + s^2) */
    mpq_abs(t, t);
    int ok = mpq_cmp(t, x) > 0;
    mpq_clears(c, t, x, b, NULL);
    return ok;
}

int pc_proxal_remark31(pc_ctx *ctx)
{
    frng_t G;
    unsigned long N = ctx->cases < 2000 ? ctx->cases : 2000;
    if (N < 200) N = 200;
    ctx->function = "proxal_pik";
    ctx->vector = "proxal_lk";
    ctx->claim = "004 Remark 3.1: grad P_0k = 2[mu + beta(||w||^2-1)]_+ w + (w-w^k)/((n+1)beta) from (10) in exact rationals; its ratio on pairs at radius R >= 6 beta R^2 (unbounded) while grad c_0 stays 2-Lipschitz";
    ctx->erratum = NULL;
    frng_init(&G, ctx->seed, STREAM_R31);
    r31 R;
    for (size_t j = 0; j < 4; j++) mpq_inits(R.w[j], R.wk[j], NULL);
    mpq_inits(R.mu, R.beta, NULL);
    mpq_t h, h2, sp, sm, D1, D2, a1, g;
    mpq_inits(h, h2, sp, sm, D1, D2, a1, g, NULL);
    for (unsigned long c = 0; c < N; c++) {
        R.d = 1 + (size_t)(frng_next64(&G) % 4);
        R.n = (size_t)(frng_next64(&G) % 5);
        for (size_t j = 0; j < R.d; j++) {
            qrand(R.w[j], &G, 20, 19);             /* |w_j| < 2 */
            qrand(R.wk[j], &G, 20, 19);
        }
        qrand(R.mu, &G, 20, 20);
        mpq_abs(R.mu, R.mu);                       /* mu >= 0, < 1 */
        qrand(R.beta, &G, 20, 18);
        mpq_abs(R.beta, R.beta);
        if (mpq_sgn(R.beta) == 0) mpq_set_ui(R.beta, 1, 1);
        int bad = 0;
        for (size_t k = 0; k < R.d && !bad; k++) {
            mpq_set_ui(h, 1, 1u << 20);
            int tries = 0;
            while (!sign_kept(&R, k, h) && tries < 200) {
                mpq_div_2exp(h, h, 4);
                tries++;
            }
            if (tries == 200) continue;            /* t(0) = 0 exactly: the kink, one-sided */
            /* D(h), D(2h) from (10) */
            for (int r = 0; r < 2; r++) {
                mpq_set(h2, h);
                if (r) mpq_mul_2exp(h2, h2, 1);
                p0(sp, &R, k, h2);
                mpq_neg(sm, h2);
                p0(sm, &R, k, sm);
                mpq_sub(sp, sp, sm);
                mpq_mul_2exp(h2, h2, 1);
                mpq_div(r ? D2 : D1, sp, h2);
            }
            mpq_mul_2exp(a1, D1, 2);
            mpq_sub(a1, a1, D2);
            mpq_set_ui(g, 3, 1);
            mpq_div(a1, a1, g);                    /* the exact derivative */
            remark_grad(g, &R, k);
            if (!mpq_equal(a1, g)) bad = 1;
        }
        ctx->ran++;
        if (bad) {
            ctx->failed++;
            if (!ctx->detail[0]) snprintf(ctx->detail, sizeof ctx->detail, "case %lu: formula != derivative of (10)", c);
        }
    }
    /* (b) not globally Lipschitz: d = 1, mu = 0, w^k = 0, beta, n fixed */
    R.d = 1;
    R.n = 3;
    mpq_set_ui(R.mu, 0, 1);
    mpq_set_ui(R.wk[0], 0, 1);
    mpq_set_ui(R.beta, 3, 4);
    mpq_t prev, lb, gc;
    mpq_inits(prev, lb, gc, NULL);
    for (unsigned j = 0; j <= 40; j++) {
        mpq_t Rr;
        mpq_init(Rr);
        mpq_set_ui(Rr, 1, 1);
        mpq_mul_2exp(Rr, Rr, j);
        mpq_set(R.w[0], Rr);
        remark_grad(g, &R, 0);
        mpq_set_ui(sp, 1, 1);
        mpq_add(R.w[0], Rr, sp);
        remark_grad(a1, &R, 0);
        mpq_sub(a1, a1, g);                        /* ratio: |u - v| = 1 */
        mpq_mul(lb, Rr, Rr);
        mpq_mul(lb, lb, R.beta);
        mpq_set_ui(sp, 6, 1);
        mpq_mul(lb, lb, sp);                       /* 6 beta R^2 */
        ctx->ran++;
        int bad = mpq_cmp(a1, lb) < 0 || (j > 0 && mpq_cmp(a1, prev) <= 0);
        mpq_set(prev, a1);
        /* grad c_0 = 2w on the same pair: ratio |2(R+1) - 2R| / 1 = 2 exactly */
        mpq_set_ui(sp, 1, 1);
        mpq_add(gc, Rr, sp);
        mpq_sub(gc, gc, Rr);
        mpq_mul_2exp(gc, gc, 1);
        mpq_set_ui(sp, 2, 1);
        bad |= !mpq_equal(gc, sp);
        if (bad) {
            ctx->failed++;
            if (!ctx->detail[0]) snprintf(ctx->detail, sizeof ctx->detail, "R = 2^%u: ratio below 6 beta R^2", j);
        }
        mpq_clear(Rr);
    }
    mpq_clears(prev, lb, gc, NULL);
    mpq_clears(h, h2, sp, sm, D1, D2, a1, g, NULL);
    for (size_t j = 0; j < 4; j++) mpq_clears(R.w[j], R.wk[j], NULL);
    mpq_clears(R.mu, R.beta, NULL);
    return ctx->failed != 0;
}

/* ---- pc_proxal_lk_split -------------------------------------------------- */

static double u11(frng_t *G)
{
    return (double)(frng_u53(G)) * 0x1p-52 - 1;    /* [-1, 1) */
}

/* a random instance of kind k in the caller's buffers */
typedef struct {
    fr_proxal_problem P;
    double A[3 * 9], b[9], C[4 * 2 * 3], e[8], X[4 * 6 * 3], r[4];
    size_t cnt[4];
    unsigned char y[24], g[24];
} inst;

static void draw(inst *I, frng_t *G, int kind)
{
    memset(I, 0, sizeof *I);
    size_t n = 1 + (size_t)(frng_next64(G) % 3), d = 1 + (size_t)(frng_next64(G) % 3);
    fr_proxal_problem *P = &I->P;
    P->kind = kind;
    P->n = n;
    P->d = d;
    if (kind == FR_PROXAL_QP) {
        P->mt = 1 + (size_t)(frng_next64(G) % 2);
        for (size_t i = 0; i < n; i++)
            for (size_t a = 0; a < d; a++)
                for (size_t c = 0; c <= a; c++)
                    I->A[i * d * d + a * d + c] = I->A[i * d * d + c * d + a] = u11(G) + (a == c ? 2 : 0);
        for (size_t k = 0; k < n * d; k++) I->b[k] = u11(G);
        for (size_t k = 0; k < (n + 1) * P->mt * d; k++) I->C[k] = u11(G);
        for (size_t k = 0; k < (n + 1) * P->mt; k++) I->e[k] = u11(G);
        P->A = I->A; P->b = I->b; P->C = I->C; P->e = I->e;
        return;
    }
    size_t s = 0;
    for (size_t i = 0; i <= n; i++) {
        I->cnt[i] = (kind == FR_PROXAL_NP && i == 0) ? 0 : 4 + (size_t)(frng_next64(G) % 3);
        for (size_t t = 0; t < I->cnt[i]; t++, s++) {
            I->y[s] = t % 2;                       /* both classes */
            I->g[s] = (t / 2) % 2;                 /* both groups */
            for (size_t k = 0; k < d; k++) I->X[s * d + k] = 2 * u11(G);
        }
    }
    for (size_t i = 0; i <= n; i++) I->r[i] = 0.5 * (u11(G) + 1);
    P->cnt = I->cnt; P->X = I->X; P->y = I->y; P->r = I->r;
    P->grp = kind == FR_PROXAL_FAIR ? I->g : NULL;
}

/* |a - b| <= ulp(a)/2 + sum_i ulp(b_i)/2 exactly, b = sum b_i */
static int within(mpfr_srcptr a, mpfr_t *bs, size_t m)
{
    size_t k = 0;
    mpfr_ptr *t = malloc((2 * m + 3) * sizeof *t);
    mpfr_t *z = malloc((2 * m + 3) * sizeof *z);
    for (size_t i = 0; i < 2 * m + 3; i++) mpfr_init2(z[i], 64);
    /* terms of -(a - sum b) and of the bound: decide sign(bound - |diff|) */
    mpfr_t diff;
    mpfr_init2(diff, 64);
    pcu_set(z[k], a); t[k] = z[k]; k++;
    for (size_t i = 0; i < m; i++) { pcu_neg(z[k], bs[i]); t[k] = z[k]; k++; }
    pcu_sum(diff, t, (unsigned long)k);            /* exact */
    k = 0;
    pcu_abs(z[k], diff); mpfr_neg(z[k], z[k], MPFR_RNDN); t[k] = z[k]; k++;
    mpfr_set_ui_2exp(z[k], 1, mpfr_get_exp(a) - (mpfr_exp_t)mpfr_get_prec(a) - 1, MPFR_RNDN);
    if (!mpfr_regular_p(a)) mpfr_set_zero(z[k], 1);
    t[k] = z[k]; k++;
    for (size_t i = 0; i < m; i++) {
        if (mpfr_regular_p(bs[i]))
            mpfr_set_ui_2exp(z[k], 1, mpfr_get_exp(bs[i]) - (mpfr_exp_t)mpfr_get_prec(bs[i]) - 1, MPFR_RNDN);
        else
            mpfr_set_zero(z[k], 1);
        t[k] = z[k]; k++;
    }
    int ok = pcu_sign_sum(t, (unsigned long)k) >= 0;
    for (size_t i = 0; i < 2 * m + 3; i++) mpfr_clear(z[i]);
    mpfr_clear(diff);
    free(z);
    free(t);
    return ok;
}

/* the exact rational l_k of (6) for a QP instance */
static void qp_exact(mpq_t out, const inst *I, const double *w, const double *wk, const double *mu, double beta)
{
    const fr_proxal_problem *P = &I->P;
    size_t n = P->n, d = P->d, mt = P->mt;
    mpq_t s, t, c, B;
    mpq_inits(s, t, c, B, NULL);
    mpq_set_d(B, beta);
    mpq_set_ui(out, 0, 1);
    for (size_t i = 1; i <= n; i++)
        for (size_t a = 0; a < d; a++) {
            mpq_set_d(s, I->b[(i - 1) * d + a]);
            for (size_t q = 0; q < d; q++) {
                mpq_set_d(t, I->A[(i - 1) * d * d + a * d + q]);
                mpq_set_d(c, w[q]);
                mpq_mul(t, t, c);
                mpq_div_2exp(t, t, 1);
                mpq_add(s, s, t);
            }
            mpq_set_d(c, w[a]);
            mpq_mul(s, s, c);
            mpq_add(out, out, s);                  /* w^T A w/2 + b^T w */
        }
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j < mt; j++) {
            mpq_set_d(c, I->e[i * mt + j]);
            for (size_t a = 0; a < d; a++) {
                mpq_set_d(t, I->C[(i * mt + j) * d + a]);
                mpq_set_d(s, w[a]);
                mpq_mul(t, t, s);
                mpq_add(c, c, t);
            }
            mpq_mul(t, B, c);
            mpq_set_d(s, mu[i * mt + j]);
            mpq_add(t, t, s);                      /* equality row: no [.]_+ */
            mpq_mul(t, t, t);
            mpq_mul(s, s, s);
            mpq_sub(t, t, s);
            mpq_div(t, t, B);
            mpq_div_2exp(t, t, 1);
            mpq_add(out, out, t);
        }
    for (size_t a = 0; a < d; a++) {
        mpq_set_d(t, w[a]);
        mpq_set_d(s, wk[a]);
        mpq_sub(t, t, s);
        mpq_mul(t, t, t);
        mpq_div(t, t, B);
        mpq_div_2exp(t, t, 1);
        mpq_add(out, out, t);
    }
    mpq_clears(s, t, c, B, NULL);
}

/* |x - q| <= ulp(x)/2 in Q */
static int is_rn(mpfr_srcptr x, const mpq_t q)
{
    mpq_t a, u;
    mpq_inits(a, u, NULL);
    mpfr_get_q(a, x);
    mpq_sub(a, a, q);
    mpq_abs(a, a);
    mpq_set_ui(u, 1, 1);
    long e = mpfr_regular_p(x) ? (long)(mpfr_get_exp(x) - (mpfr_exp_t)mpfr_get_prec(x) - 1) : 0;
    if (e >= 0) mpq_mul_2exp(u, u, (unsigned long)e);
    else mpq_div_2exp(u, u, (unsigned long)-e);
    int ok = mpfr_regular_p(x) ? mpq_cmp(a, u) <= 0 : mpq_sgn(a) == 0;
    mpq_clears(a, u, NULL);
    return ok;
}

int pc_proxal_lk_split(pc_ctx *ctx)
{
    frng_t G;
    unsigned long N = 150;
    ctx->function = "proxal_lk";
    ctx->vector = "proxal_lk";
    ctx->claim = "004 (9): l_k = sum_{i=0}^n P_ik (h = 0) on random QP/NP/FAIR with ref's values and gradients within their rounding; QP l_k = RN of the exact rational (6)";
    ctx->erratum = NULL;
    frng_init(&G, ctx->seed, STREAM_SPLIT);
    mpfr_prec_t p = ctx->prec;
    for (unsigned long c = 0; c < N; c++) {
        int kind = FR_PROXAL_QP + (int)(c % 3);
        inst I;
        draw(&I, &G, kind);
        const fr_proxal_problem *P = &I.P;
        size_t n = P->n, d = P->d, mt = fr_proxal_mtot(P);
        double w[3], wk[3], mu[8], beta = 0.25 + 2 * (u11(&G) + 1);
        for (size_t k = 0; k < d; k++) { w[k] = 2 * u11(&G); wk[k] = u11(&G); }
        for (size_t j = 0; j < mt; j++) {
            mu[j] = u11(&G);
            if (kind != FR_PROXAL_QP) mu[j] = j % 3 == 0 ? 0 : mu[j] < 0 ? -mu[j] : mu[j];
        }
        mpfr_t W[3], WK[3], MU[8], B, V, G1[3], PV[4], PG[4][3];
        mpfr_init2(B, 53);
        mpfr_set_d(B, beta, MPFR_RNDN);
        for (size_t k = 0; k < d; k++) {
            mpfr_inits2(53, W[k], WK[k], (mpfr_ptr)0);
            mpfr_set_d(W[k], w[k], MPFR_RNDN);
            mpfr_set_d(WK[k], wk[k], MPFR_RNDN);
            mpfr_init2(G1[k], p);
        }
        for (size_t j = 0; j < mt; j++) {
            mpfr_init2(MU[j], 53);
            mpfr_set_d(MU[j], mu[j], MPFR_RNDN);
        }
        mpfr_init2(V, p);
        for (size_t i = 0; i <= n; i++) {
            mpfr_init2(PV[i], p);
            for (size_t k = 0; k < d; k++) mpfr_init2(PG[i][k], p);
        }
        const char *why = NULL;
        if (fr_proxal_lk(V, G1, P, W, WK, MU, B) != FR_OK) why = "fr_proxal_lk failed";
        for (size_t i = 0; i <= n && !why; i++)
            if (fr_proxal_pik(PV[i], PG[i], NULL, P, i, W, WK, MU, B) != FR_OK) why = "fr_proxal_pik failed";
        if (!why && !within(V, PV, n + 1)) why = "l_k != sum P_ik beyond rounding";
        for (size_t k = 0; k < d && !why; k++) {
            mpfr_t col[4];
            for (size_t i = 0; i <= n; i++) col[i][0] = PG[i][k][0];
            if (!within(G1[k], col, n + 1)) why = "grad l_k != sum grad P_ik beyond rounding";
        }
        if (!why && kind == FR_PROXAL_QP) {
            mpq_t q;
            mpq_init(q);
            qp_exact(q, &I, w, wk, mu, beta);
            if (!is_rn(V, q)) why = "QP l_k not the rounding of the exact (6)";
            mpq_clear(q);
        }
        ctx->ran++;
        if (why) {
            ctx->failed++;
            if (!ctx->detail[0]) snprintf(ctx->detail, sizeof ctx->detail, "case %lu (kind %d, n %zu, d %zu): %s", c, kind, n, d, why);
        }
        mpfr_clears(B, V, (mpfr_ptr)0);
        for (size_t k = 0; k < d; k++) mpfr_clears(W[k], WK[k], G1[k], (mpfr_ptr)0);
        for (size_t j = 0; j < mt; j++) mpfr_clear(MU[j]);
        for (size_t i = 0; i <= n; i++) {
            mpfr_clear(PV[i]);
            for (size_t k = 0; k < d; k++) mpfr_clear(PG[i][k]);
        }
    }
    return ctx->failed != 0;
}
