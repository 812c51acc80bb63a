/* SPDX-License-Identifier: Apache-2.0 */
/* check_sens19.c -- what the sensitivity (19) of 003 Theorem 1 bounds.
 *
 * The local recursion (10a)-(10d) of one client in one round t, run at
 * ctx->prec + 64 bits in dimension 2 on random states (x_i^t, lambda_i^t,
 * x_0^t) and two gradient sequences g_r, g'_r with ||g_r||, ||g'_r|| <= G
 * (Assumption 3 for the datasets D and D'), b = 1 - eta rho, a = |b|:
 *   Delta_{r+1} = b Delta_r - eta (g_r - g'_r)  (same lambda^t, x_0^t and
 *   start), y = x^{t,Q} - lambda^{t+1}/rho = 2 x^{t,Q} - x_0^t - lambda^t/rho
 * so ||y - y'|| = 2 ||sum_r b^(Q-1-r) eta (g_r - g'_r)|| <= 4 eta G S_Q(a),
 * which is (19), attained by g_r = -g'_r = G sgn(b^(Q-1-r)) u.
 *
 * pc_fedpdm_sens19: the aligned sequence attains fr_fedpdm_sensitivity
 *   (relative gap <= 2^-(prec/2)), random admissible sequences never
 *   exceed it; eta rho < 2, = 2 (exactly), > 2.
 * pc_fedpdm_sens19_path (erratum E-003-S1): over rounds, lambda_i^t and
 *   the inner start (x_i^t: reading A; x_0^t: reading B) depend on earlier
 *   rounds' data, which the released noisy uploads do not pin down, so the
 *   sensitivity of y_i^{t+1} given the released history is not (19) from
 *   t = 1 on.  With B_k = b_k^(Q_k), W_k = s_k / 2 and the differences
 *   written as X = delta x_i, L = delta lambda_i / rho (scalar multiples of
 *   the rounds' gradient terms w_k, ||w_k|| <= W_k):
 *     A: y-diff = 2 B X + (1 - 2B) L + 2 w_t;  X' = B X + (1 - B) L + w_t;
 *        L' = L - X'
 *     B: y-diff = (1 - 2B) L + 2 w_t;          L' = B L - w_t
 *   so the conditional sensitivity is sum_k |c_k| W_k (c_t = 2) for the
 *   coefficients c_k of w_k.  The check simulates (10a)-(10d) over T = 2..4
 *   rounds with the gradients aligned to those coefficients, finds the
 *   upload difference equal to the recursion's value and larger than (19)
 *   (for round 1: s (1 + |4B - 1|/2) in reading A, s (1 + |1 - 2B|/2) in
 *   B), and random admissible gradients never above the recursion. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_S19 UINT64_C(0x70632d73313900)   /* "pc-s19" */
#define STREAM_PATH UINT64_C(0x70632d70617468)  /* "pc-path" */
#define DIM 2
#define QMAX 24
#define TMAX 4

typedef struct {
    mpfr_t x[DIM], lam[DIM], x0[DIM], y[DIM];
} client;

static void cl_init(client *c, mpfr_prec_t p)
{
    for (int j = 0; j < DIM; j++) mpfr_inits2(p, c->x[j], c->lam[j], c->x0[j], c->y[j], (mpfr_ptr)0);
}
static void cl_clear(client *c)
{
    for (int j = 0; j < DIM; j++) mpfr_clears(c->x[j], c->lam[j], c->x0[j], c->y[j], (mpfr_ptr)0);
}
static void cl_copy(client *d, const client *s)
{
    for (int j = 0; j < DIM; j++) {
        mpfr_set(d->x[j], s->x[j], MPFR_RNDN);
        mpfr_set(d->lam[j], s->lam[j], MPFR_RNDN);
        mpfr_set(d->x0[j], s->x0[j], MPFR_RNDN);
    }
}

/* One round of (10a)-(10d): g[r][j] the mini-batch gradients; readingB: the
 * inner start is x_0^t, else x_i^t.  Updates c->x, c->lam, writes c->y. */
static void round10(client *c, mpfr_t (*g)[DIM], unsigned long Q, const mpfr_t eta, const mpfr_t rho,
                    int readingB, mpfr_t t)
{
    mpfr_t z[DIM];
    for (int j = 0; j < DIM; j++) {
        mpfr_init2(z[j], mpfr_get_prec(c->x[j]));
        mpfr_set(z[j], readingB ? c->x0[j] : c->x[j], MPFR_RNDN);
    }
    for (unsigned long r = 0; r < Q; r++)
        for (int j = 0; j < DIM; j++) {        /* z -= eta (g - lam + rho (z - x0)) */
            mpfr_sub(t, z[j], c->x0[j], MPFR_RNDN);
            mpfr_mul(t, t, rho, MPFR_RNDN);
            mpfr_add(t, t, g[r][j], MPFR_RNDN);
            mpfr_sub(t, t, c->lam[j], MPFR_RNDN);
            mpfr_mul(t, t, eta, MPFR_RNDN);
            mpfr_sub(z[j], z[j], t, MPFR_RNDN);
        }
    for (int j = 0; j < DIM; j++) {
        mpfr_set(c->x[j], z[j], MPFR_RNDN);                 /* (10b) */
        mpfr_sub(t, c->x0[j], z[j], MPFR_RNDN);             /* (10c) */
        mpfr_mul(t, t, rho, MPFR_RNDN);
        mpfr_add(c->lam[j], c->lam[j], t, MPFR_RNDN);
        mpfr_div(t, c->lam[j], rho, MPFR_RNDN);             /* (10d) */
        mpfr_sub(c->y[j], z[j], t, MPFR_RNDN);
        mpfr_clear(z[j]);
    }
}

static void dist(mpfr_t d, const client *a, const client *b, mpfr_t t)
{
    mpfr_set_zero(d, 1);
    for (int j = 0; j < DIM; j++) {
        mpfr_sub(t, a->y[j], b->y[j], MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_add(d, d, t, MPFR_RNDN);
    }
    mpfr_sqrt(d, d, MPFR_RNDN);
}

static void rnd_state(client *c, frng_t *g)
{
    for (int j = 0; j < DIM; j++) {
        pcu_rand_dyadic(c->x[j], g, 50, -2, 3, 0);
        pcu_rand_dyadic(c->lam[j], g, 50, -2, 3, 0);
        pcu_rand_dyadic(c->x0[j], g, 50, -2, 3, 0);
    }
}

/* eta, rho (binary64-like dyadics) in one of five regimes; Q in [1, QMAX]. */
static void rnd_params(mpfr_t eta, mpfr_t rho, unsigned long *Q, frng_t *g, unsigned long c)
{
    pcu_rand_dyadic_nz(eta, g, 20, -4, 1, 1);
    switch (c % 5) {
    case 0: mpfr_set_ui(rho, 2, MPFR_RNDN); mpfr_div(rho, rho, eta, MPFR_RNDN); break;  /* eta rho = 2 (rounded) */
    case 1: mpfr_set_si_2exp(eta, 1, -2, MPFR_RNDN); mpfr_set_ui(rho, 8, MPFR_RNDN); break; /* exactly 2 */
    case 2: pcu_rand_dyadic_nz(rho, g, 20, 2, 4, 1); mpfr_div(rho, rho, eta, MPFR_RNDN); break; /* > 2 */
    default: pcu_rand_dyadic_nz(rho, g, 20, -3, 1, 1); mpfr_div(rho, rho, eta, MPFR_RNDN); break; /* < 2 */
    }
    mpfr_prec_round(rho, 53, MPFR_RNDN);
    *Q = 1 + pcu_below(g, QMAX);
}

/* sgn(b^k), b = 1 - eta rho */
static int sgn_pow(const mpfr_t eta, const mpfr_t rho, unsigned long k, mpfr_t t)
{
    mpfr_mul(t, eta, rho, MPFR_RNDN);
    mpfr_ui_sub(t, 1, t, MPFR_RNDN);
    return (mpfr_sgn(t) < 0 && (k & 1)) ? -1 : 1;
}

/* gradients of D and D' for one round: aligned (dir = +-1: g_r = -g'_r =
 * dir G sgn(b^(Q-1-r)) u, u = (3/5, 4/5)), or random in the disc of radius
 * G (dir = 0). */
static void grads(mpfr_t (*g)[DIM], mpfr_t (*h)[DIM], unsigned long Q, int dir, const mpfr_t G,
                  const mpfr_t eta, const mpfr_t rho, frng_t *rg, mpfr_t t)
{
    static const double U[DIM] = {0.6, 0.8};
    for (unsigned long r = 0; r < Q; r++)
        for (int j = 0; j < DIM; j++) {
            if (dir != 0) {
                int sg = dir * sgn_pow(eta, rho, Q - 1 - r, t);
                mpfr_set_ui(t, 3 + j, MPFR_RNDN);
                mpfr_div_ui(t, t, 5, MPFR_RNDN);
                (void)U;
                mpfr_mul(g[r][j], G, t, MPFR_RNDN);
                if (sg < 0) mpfr_neg(g[r][j], g[r][j], MPFR_RNDN);
                mpfr_neg(h[r][j], g[r][j], MPFR_RNDN);
            } else {                                 /* |components| <= G/sqrt 2 */
                mpfr_set_d(t, ((double)frng_u53(rg) * 0x1p-53 * 2 - 1) * 0.7071, MPFR_RNDN);
                mpfr_mul(g[r][j], G, t, MPFR_RNDN);
                mpfr_set_d(t, ((double)frng_u53(rg) * 0x1p-53 * 2 - 1) * 0.7071, MPFR_RNDN);
                mpfr_mul(h[r][j], G, t, MPFR_RNDN);
            }
        }
}

int pc_fedpdm_sens19(pc_ctx *ctx)
{
    frng_t rg;
    mpfr_prec_t wp = ctx->prec + 64;
    client c1, c2;
    mpfr_t eta, rho, G, s, d, t, rel, tol;
    mpfr_t (*g)[DIM] = malloc(QMAX * sizeof *g), (*h)[DIM] = malloc(QMAX * sizeof *h);
    char first[300] = "";
    double worst_gap = 0, worst_ratio = 0;

    ctx->function = "fedpdm_sensitivity";
    ctx->vector = "fedpdm_sensitivity";
    ctx->claim = "003 (19): one round of (10a)-(10d) with the same lambda_i^t, x_0^t and start, ||g||, ||g'|| <= G: ||y - y'|| <= 4 eta G sum_{r<Q} |1 - eta rho|^r, attained by aligned gradients";
    ctx->erratum = NULL;
    if (g == NULL || h == NULL) { free(g); free(h); ctx->failed = 1; snprintf(ctx->detail, sizeof ctx->detail, "out of memory"); return 1; }
    cl_init(&c1, wp);
    cl_init(&c2, wp);
    mpfr_inits2(64, eta, rho, G, (mpfr_ptr)0);
    mpfr_inits2(wp, s, d, t, rel, tol, (mpfr_ptr)0);
    for (unsigned long r = 0; r < QMAX; r++)
        for (int j = 0; j < DIM; j++) mpfr_inits2(wp, g[r][j], h[r][j], (mpfr_ptr)0);
    mpfr_set_si_2exp(tol, 1, -(long)(ctx->prec / 2), MPFR_RNDN);
    frng_init(&rg, ctx->seed, STREAM_S19);
    for (unsigned long c = 0; c < ctx->cases; c++) {
        unsigned long Q;
        rnd_params(eta, rho, &Q, &rg, c);
        pcu_rand_dyadic_nz(G, &rg, 20, -3, 3, 1);
        if (fr_fedpdm_sensitivity(s, eta, rho, Q, G) != FR_OK) {
            ctx->failed++;
            continue;
        }
        rnd_state(&c1, &rg);
        for (int k = 0; k < 2; k++) {          /* k = 0: aligned, 1: random */
            int readingB = (int)(c & 1);
            cl_copy(&c2, &c1);
            client a;
            cl_init(&a, wp);
            cl_copy(&a, &c1);
            grads(g, h, Q, k == 0 ? 1 : 0, G, eta, rho, &rg, t);
            round10(&a, g, Q, eta, rho, readingB, t);
            round10(&c2, h, Q, eta, rho, readingB, t);
            dist(d, &a, &c2, t);
            cl_clear(&a);
            ctx->ran++;
            mpfr_div(rel, d, s, MPFR_RNDN);
            mpfr_sub_ui(rel, rel, 1, MPFR_RNDN);
            int bad = k == 0 ? mpfr_cmpabs(rel, tol) > 0 : (mpfr_cmp(rel, tol) > 0);
            if (k == 0 && fabs(mpfr_get_d(rel, MPFR_RNDN)) > worst_gap) worst_gap = fabs(mpfr_get_d(rel, MPFR_RNDN));
            if (k == 1 && mpfr_get_d(rel, MPFR_RNDN) + 1 > worst_ratio) worst_ratio = mpfr_get_d(rel, MPFR_RNDN) + 1;
            if (bad) {
                ctx->failed++;
                if (first[0] == 0)
                    snprintf(first, sizeof first, "%s case eta %.6g rho %.6g Q %lu: ||y-y'||/(19) - 1 = %.3g",
                             k == 0 ? "aligned" : "random", mpfr_get_d(eta, MPFR_RNDN), mpfr_get_d(rho, MPFR_RNDN),
                             Q, mpfr_get_d(rel, MPFR_RNDN));
            }
        }
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "aligned gradients attain (19): |ratio - 1| <= %.2g; random admissible gradients reach at most %.4f of (19)",
                 worst_gap, worst_ratio);
    for (unsigned long r = 0; r < QMAX; r++)
        for (int j = 0; j < DIM; j++) mpfr_clears(g[r][j], h[r][j], (mpfr_ptr)0);
    free(g); free(h);
    cl_clear(&c1);
    cl_clear(&c2);
    mpfr_clears(eta, rho, G, s, d, t, rel, tol, (mpfr_ptr)0);
    return ctx->failed != 0;
}

/* The recursion of E-003-S1: c[k] (k <= t) the coefficients of w_k in the
 * upload difference of round t (c[t] = 2), from B[k] = b_k^(Q_k). */
static void path_coeffs(mpfr_t *c, mpfr_t *const B, int t, int readingB, mpfr_prec_t wp)
{
    mpfr_t X[TMAX], L[TMAX], nx, tt;
    for (int k = 0; k <= t; k++) {
        mpfr_inits2(wp, X[k], L[k], (mpfr_ptr)0);
        mpfr_set_zero(X[k], 1);
        mpfr_set_zero(L[k], 1);
    }
    mpfr_inits2(wp, nx, tt, (mpfr_ptr)0);
    for (int r = 0; r < t; r++) {          /* round r adds w_r */
        for (int k = 0; k <= r; k++) {
            if (readingB) {                  /* L' = B L - w */
                mpfr_mul(L[k], L[k], B[r], MPFR_RNDN);
                if (k == r) mpfr_sub_ui(L[k], L[k], 1, MPFR_RNDN);
            } else {                         /* X' = B X + (1 - B) L + w; L' = L - X' */
                mpfr_mul(nx, X[k], B[r], MPFR_RNDN);
                mpfr_ui_sub(tt, 1, B[r], MPFR_RNDN);
                mpfr_mul(tt, tt, L[k], MPFR_RNDN);
                mpfr_add(nx, nx, tt, MPFR_RNDN);
                if (k == r) mpfr_add_ui(nx, nx, 1, MPFR_RNDN);
                mpfr_set(X[k], nx, MPFR_RNDN);
                mpfr_sub(L[k], L[k], nx, MPFR_RNDN);
            }
        }
    }
    for (int k = 0; k < t; k++) {            /* y-diff = 2 B X + (1 - 2B) L (A) or (1 - 2B) L (B) */
        mpfr_mul_2ui(tt, B[t], 1, MPFR_RNDN);
        mpfr_ui_sub(tt, 1, tt, MPFR_RNDN);
        mpfr_mul(c[k], tt, L[k], MPFR_RNDN);
        if (!readingB) {
            mpfr_mul(tt, B[t], X[k], MPFR_RNDN);
            mpfr_mul_2ui(tt, tt, 1, MPFR_RNDN);
            mpfr_add(c[k], c[k], tt, MPFR_RNDN);
        }
    }
    mpfr_set_ui(c[t], 2, MPFR_RNDN);
    for (int k = 0; k <= t; k++) mpfr_clears(X[k], L[k], (mpfr_ptr)0);
    mpfr_clears(nx, tt, (mpfr_ptr)0);
}

int pc_fedpdm_sens19_path(pc_ctx *ctx)
{
    frng_t rg;
    mpfr_prec_t wp = ctx->prec + 64;
    client c1, c2;
    mpfr_t eta[TMAX], B[TMAX], s[TMAX], cf[TMAX], rho, G, d, t, want, rel, tol;
    unsigned long Q[TMAX];
    mpfr_t (*g)[DIM] = malloc(QMAX * sizeof *g), (*h)[DIM] = malloc(QMAX * sizeof *h);
    char first[300] = "", wit[300] = "";
    double worst_ratio[2] = {0, 0}, worst_gap = 0;
    unsigned long exceed = 0;

    ctx->function = "fedpdm_sensitivity";
    ctx->vector = NULL;
    ctx->claim = "003 (19) over rounds: given the released history, y_i^{t+1}'s sensitivity is sum_k |c_k| s_k/2 (E-003-S1 recursion, both readings of x_i^{t,0}), attained and > (19) from t = 1";
    ctx->erratum = "E-003-S1";
    if (g == NULL || h == NULL) { free(g); free(h); ctx->failed = 1; snprintf(ctx->detail, sizeof ctx->detail, "out of memory"); return 1; }
    cl_init(&c1, wp);
    cl_init(&c2, wp);
    for (int k = 0; k < TMAX; k++) {
        mpfr_init2(eta[k], 64);
        mpfr_inits2(wp, B[k], s[k], cf[k], (mpfr_ptr)0);
    }
    mpfr_inits2(64, rho, G, (mpfr_ptr)0);
    mpfr_inits2(wp, d, t, want, rel, tol, (mpfr_ptr)0);
    for (unsigned long r = 0; r < QMAX; r++)
        for (int j = 0; j < DIM; j++) mpfr_inits2(wp, g[r][j], h[r][j], (mpfr_ptr)0);
    mpfr_set_si_2exp(tol, 1, -(long)(ctx->prec / 2), MPFR_RNDN);
    frng_init(&rg, ctx->seed, STREAM_PATH);
    unsigned long ncases = ctx->cases / 4 + 2;
    for (unsigned long c = 0; c < ncases; c++) {
        int T = 2 + (int)(c % 3), readingB = (int)((c / 3) & 1);
        if (c < 2) {                          /* eta rho = 2 exactly (1/4, 8), Q = 3: B = -1 */
            T = TMAX;
            readingB = (int)c;
            mpfr_set_ui(rho, 8, MPFR_RNDN);
            for (int k = 0; k < T; k++) { mpfr_set_si_2exp(eta[k], 1, -2, MPFR_RNDN); Q[k] = 3; }
        } else {
            pcu_rand_dyadic_nz(rho, &rg, 20, 0, 4, 1);
            for (int k = 0; k < T; k++) {
                pcu_rand_dyadic_nz(eta[k], &rg, 20, -5, 0, 1);
                mpfr_div(eta[k], eta[k], rho, MPFR_RNDN);           /* eta rho in (0, 1) * 2^[-5, 0] */
                if (pcu_below(&rg, 3) == 0) mpfr_mul_ui(eta[k], eta[k], 3, MPFR_RNDN);  /* some > 2 */
                mpfr_prec_round(eta[k], 53, MPFR_RNDN);
                Q[k] = 1 + pcu_below(&rg, 12);
            }
        }
        pcu_rand_dyadic_nz(G, &rg, 20, -2, 2, 1);
        int ok = 1;
        for (int k = 0; k < T; k++) {
            mpfr_mul(B[k], eta[k], rho, MPFR_RNDN);
            mpfr_ui_sub(B[k], 1, B[k], MPFR_RNDN);
            mpfr_pow_ui(B[k], B[k], Q[k], MPFR_RNDN);
            if (fr_fedpdm_sensitivity(s[k], eta[k], rho, Q[k], G) != FR_OK) ok = 0;
        }
        if (!ok) { ctx->failed++; continue; }
        path_coeffs(cf, B, T - 1, readingB, wp);
        mpfr_set_zero(want, 1);                   /* sum_k |c_k| s_k / 2 */
        for (int k = 0; k < T; k++) {
            mpfr_abs(t, cf[k], MPFR_RNDN);
            mpfr_mul(t, t, s[k], MPFR_RNDN);
            mpfr_div_2ui(t, t, 1, MPFR_RNDN);
            mpfr_add(want, want, t, MPFR_RNDN);
        }
        for (int kind = 0; kind < 2; kind++) {      /* 0: aligned to the c_k, 1: random */
            rnd_state(&c1, &rg);
            cl_copy(&c2, &c1);
            for (int k = 0; k < T; k++) {
                int dir = mpfr_sgn(cf[k]) < 0 ? 1 : -1;             /* w_k = sgn(c_k) W_k u */
                grads(g, h, Q[k], kind == 0 ? dir : 0, G, eta[k], rho, &rg, t);
                for (int j = 0; j < DIM; j++) {                      /* a new public x_0^k */
                    pcu_rand_dyadic(c1.x0[j], &rg, 50, -2, 3, 0);
                    mpfr_set(c2.x0[j], c1.x0[j], MPFR_RNDN);
                }
                round10(&c1, g, Q[k], eta[k], rho, readingB, t);
                round10(&c2, h, Q[k], eta[k], rho, readingB, t);
            }
            dist(d, &c1, &c2, t);
            ctx->ran++;
            mpfr_div(rel, d, want, MPFR_RNDN);
            mpfr_sub_ui(rel, rel, 1, MPFR_RNDN);
            int bad = kind == 0 ? mpfr_cmpabs(rel, tol) > 0 : mpfr_cmp(rel, tol) > 0;
            if (kind == 0) {
                double gap = fabs(mpfr_get_d(rel, MPFR_RNDN));
                if (gap > worst_gap) worst_gap = gap;
                mpfr_div(t, d, s[T - 1], MPFR_RNDN);                 /* against the printed (19) */
                double ratio = mpfr_get_d(t, MPFR_RNDN);
                if (ratio > 1 + 0x1p-20) exceed++;
                if (ratio > worst_ratio[readingB]) worst_ratio[readingB] = ratio;
                if (c < 2 && wit[0] == 0 + 0 && readingB == 1)
                    snprintf(wit, sizeof wit, "eta = 1/4, rho = 8 (eta rho = 2), Q = 3, 4 rounds, reading B: ||y-y'|| = %.6g = %.4g x (19)",
                             mpfr_get_d(d, MPFR_RNDN), ratio);
            }
            if (bad) {
                ctx->failed++;
                if (first[0] == 0)
                    snprintf(first, sizeof first, "%s, reading %c, T = %d: ||y-y'|| / recursion - 1 = %.3g",
                             kind == 0 ? "aligned" : "random", readingB ? 'B' : 'A', T, mpfr_get_d(rel, MPFR_RNDN));
            }
        }
    }
    if (exceed == 0 && first[0] == 0) {
        ctx->failed++;
        snprintf(first, sizeof first, "no case exceeded (19): the erratum is not shown");
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "recursion attained (|ratio - 1| <= %.2g) and never exceeded; %lu of %lu aligned cases exceed (19), by up to x%.4g (A) / x%.4g (B); witness: %s",
                 worst_gap, exceed, ncases, worst_ratio[0], worst_ratio[1], wit);
    for (unsigned long r = 0; r < QMAX; r++)
        for (int j = 0; j < DIM; j++) mpfr_clears(g[r][j], h[r][j], (mpfr_ptr)0);
    free(g); free(h);
    cl_clear(&c1);
    cl_clear(&c2);
    for (int k = 0; k < TMAX; k++) mpfr_clears(eta[k], B[k], s[k], cf[k], (mpfr_ptr)0);
    mpfr_clears(rho, G, d, t, want, rel, tol, (mpfr_ptr)0);
    return ctx->failed != 0;
}
