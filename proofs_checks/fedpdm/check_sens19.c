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
