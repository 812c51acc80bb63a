/* SPDX-License-Identifier: Apache-2.0 */
/* check_sens_path.c -- pc_fedpdm_sens_path: the whole-path sensitivity
 * fr_fedpdm_path_sens bounds the upload difference of Algorithm 1 of 003
 * (rule FIXED) over every participation pattern (E-003-S1).
 *
 * Two neighbouring clients (datasets D, D') run (10a)-(10d) at ctx->prec +
 * 64 bits in dimension 2 from Algorithm 1's start (x_i^0 = x_0^0, lambda_i^0
 * = 0) with the same public history: a fresh random x_0^t every round, the
 * same pattern (round 0 present: S_0 = [N]).  Gradients of norm <= G:
 *   aligned: g_r = -g'_r = sigma G sgn(b^(Q-1-r)) e_1 (the round's gradient
 *     term w = sigma W e_1), sigma chosen greedily from the simulated
 *     differences X = x - x', L = (lambda - lambda')/rho: before the target
 *     round to grow the state (X0: |L+|, XI: |X+| + |L+|), at the target
 *     round t* = T - 1 to grow |y - y'|;
 *   random: independent in the disc of radius G for D and D';
 *   mixed: a random choice per round.
 * Patterns: full participation, the argmax pattern (present iff the
 * recursion's new bound exceeds the old one), random (present w.p. 1/2).
 * Schedules: constant eta (eta rho < 2, = 2 exactly, > 2), the paper's eta^t
 * = eta0 / sqrt(1 + t) (fr_pdm_eta_paper; rho = 10 or random), random per
 * round; Q in [1, 8], T in [1, 26], both starts.
 * Property: at every round where the client is present, ||y - y'|| <=
 * s[t] (1 + 2^-(prec/2)), s = fr_fedpdm_path_sens at ctx->prec.  Tightness:
 * with start X0 and the argmax pattern the target round attains s[t*]
 * (ratio >= 1 - 2^-(prec/2): the bound is the sup over patterns); the
 * ratios of full participation (both starts) and of XI's argmax pattern are
 * reported in the detail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "fedref/fedpdm.h"

#define STREAM_SP UINT64_C(0x70632d7370617468)   /* "pc-spath" */
#define DIM 2
#define QMAX 8
#define TMAX 26

typedef struct {
    mpfr_t x[DIM], lam[DIM], y[DIM];
} cl;

/* one round of (10a)-(10d) for a client; g[r][j] its gradients */
static void round10(cl *c, mpfr_t (*g)[DIM], unsigned long Q, mpfr_t *x0, const mpfr_t eta,
                    const mpfr_t rho, int xi, mpfr_t t, mpfr_t *z)
{
    for (int j = 0; j < DIM; j++)
        mpfr_set(z[j], xi ? c->x[j] : x0[j], MPFR_RNDN);
    for (unsigned long r = 0; r < Q; r++)
        for (int j = 0; j < DIM; j++) {            /* z -= eta (g - lam + rho (z - x0)) (10a) */
            mpfr_sub(t, z[j], x0[j], MPFR_RNDN);
            mpfr_mul(t, t, rho, MPFR_RNDN);
            mpfr_add(t, t, g[r][j], MPFR_RNDN);
            mpfr_sub(t, t, c->lam[j], MPFR_RNDN);
            mpfr_mul(t, t, eta, MPFR_RNDN);
            mpfr_sub(z[j], z[j], t, MPFR_RNDN);
        }
    for (int j = 0; j < DIM; j++) {
        mpfr_set(c->x[j], z[j], MPFR_RNDN);                 /* (10b) */
        mpfr_sub(t, x0[j], z[j], MPFR_RNDN);                /* (10c) */
        mpfr_mul(t, t, rho, MPFR_RNDN);
        mpfr_add(c->lam[j], c->lam[j], t, MPFR_RNDN);
        mpfr_div(t, c->lam[j], rho, MPFR_RNDN);             /* (10d) */
        mpfr_sub(c->y[j], z[j], t, MPFR_RNDN);
    }
}

static double ud(frng_t *g)
{
    return (double)frng_u53(g) * 0x1p-53;
}

int pc_fedpdm_sens_path(pc_ctx *ctx)
{
    const mpfr_prec_t wp = ctx->prec + 64;
    ctx->function = "fedpdm_path_sens";
    ctx->vector = "fedpdm_path_sens";
    ctx->claim = "003 Algorithm 1, rule FIXED, (10a)-(10d) over T rounds: for every participation pattern ||y_i - y_i'|| <= fr_fedpdm_path_sens's s[t] (E-003-S1 recursion, both starts); start X0 attains it";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    frng_t rg;
    frng_init(&rg, ctx->seed, STREAM_SP);
    cl A, Bc;
    mpfr_t eta[TMAX], s[TMAX], x0[DIM], z[DIM], (*g)[DIM], (*h)[DIM];
    mpfr_t rho, G, t, u, v, b, Bq, W, Lb, Xb, d, ratio, tol, X, L, c1, c2;
    g = malloc(QMAX * sizeof *g);
    h = malloc(QMAX * sizeof *h);
    if (g == NULL || h == NULL) {
        free(g); free(h);
        ctx->failed = 1;
        snprintf(ctx->detail, sizeof ctx->detail, "out of memory");
        return 1;
    }
    for (int j = 0; j < DIM; j++) {
        mpfr_inits2(wp, A.x[j], A.lam[j], A.y[j], Bc.x[j], Bc.lam[j], Bc.y[j], x0[j], z[j], (mpfr_ptr)0);
        for (int r = 0; r < QMAX; r++) mpfr_inits2(wp, g[r][j], h[r][j], (mpfr_ptr)0);
    }
    for (int k = 0; k < TMAX; k++) {
        mpfr_init2(eta[k], 64);
        mpfr_init2(s[k], ctx->prec);
    }
    mpfr_inits2(64, rho, G, (mpfr_ptr)0);
    mpfr_inits2(wp, t, u, v, b, Bq, W, Lb, Xb, d, ratio, tol, X, L, c1, c2, (mpfr_ptr)0);
    mpfr_set_si_2exp(tol, 1, -(long)(ctx->prec / 2), MPFR_RNDN);
    /* tightness: [0] X0 argmax (min), [1] X0 full (min, max), [2] XI full, [3] XI argmax */
    double tmin[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, tmax[4] = {0, 0, 0, 0};
    double worst = 0;                   /* the largest ratio over all rounds and cases */
    char first[200] = "";
    const unsigned long ncases = ctx->cases / 5 + 10;
    for (unsigned long cs = 0; cs < ncases; cs++) {
        const unsigned long T = 1 + pcu_below(&rg, TMAX), Q = 1 + pcu_below(&rg, QMAX);
        const int xi = (int)(cs & 1);                 /* start */
        const int mode = (int)((cs >> 1) % 5);        /* 0 full, 1 argmax, 2..4 random patterns */
        const int sched = (int)((cs / 10) % 3);
        /* the schedule (binary64 values) */
        double e0 = ldexp(1 + ud(&rg), -(int)pcu_below(&rg, 5)), rh;
        switch (pcu_below(&rg, 4)) {
        case 0: rh = 2 / e0; break;                                          /* eta0 rho ~ 2 */
        case 1: rh = 10; break;                                              /* the paper's rho */
        case 2: rh = ldexp(1 + ud(&rg), 1 + (int)pcu_below(&rg, 3)) / e0; break;   /* > 2 */
        default: rh = ldexp(1 + ud(&rg), -3 + (int)pcu_below(&rg, 4)) / e0; break; /* < 2 */
        }
        if (sched == 0 && cs % 7 == 0) { e0 = 0.25; rh = 8; }                  /* exactly 2 */
        double ev[TMAX];
        if (sched == 1) {
            if (cs % 3 == 0) { e0 = 1; rh = 10; }                              /* the paper */
            fr_pdm_eta_paper(ev, T, e0);
        }
        for (unsigned long k = 0; k < T; k++) {
            if (sched == 0) ev[k] = e0;
            else if (sched == 2) ev[k] = ldexp(1 + ud(&rg), -(int)pcu_below(&rg, 5));
            mpfr_set_d(eta[k], ev[k], MPFR_RNDN);
        }
        mpfr_set_d(rho, rh, MPFR_RNDN);
        mpfr_set_d(G, ldexp(1 + ud(&rg), (int)pcu_below(&rg, 5) - 2), MPFR_RNDN);
        if (fr_fedpdm_path_sens(s, eta, T, rho, Q, G, xi ? FR_PDM_START_XI : FR_PDM_START_X0) != FR_OK) {
            ctx->failed++;
            if (!first[0]) snprintf(first, sizeof first, "case %lu: fr_fedpdm_path_sens failed", cs);
            continue;
        }
        /* Algorithm 1's start: x_i^0 = x_0^0 (random), lambda = 0, for both */
        for (int j = 0; j < DIM; j++) {
            pcu_rand_dyadic(x0[j], &rg, 50, -2, 3, 0);
            mpfr_set(A.x[j], x0[j], MPFR_RNDN);
            mpfr_set(Bc.x[j], x0[j], MPFR_RNDN);
            mpfr_set_zero(A.lam[j], 1);
            mpfr_set_zero(Bc.lam[j], 1);
        }
        mpfr_set_zero(Lb, 1);
        mpfr_set_zero(Xb, 1);
        for (unsigned long k = 0; k < T; k++) {
            /* the round's b, |B|, W (to nearest at wp: only steer choices) */
            mpfr_mul(b, eta[k], rho, MPFR_RNDN);
            mpfr_ui_sub(b, 1, b, MPFR_RNDN);
            mpfr_pow_ui(Bq, b, Q, MPFR_RNDN);
            mpfr_abs(t, b, MPFR_RNDN);
            mpfr_set_zero(W, 1);
            for (unsigned long r = 0; r < Q; r++) {       /* sum |b|^r by Horner */
                mpfr_mul(W, W, t, MPFR_RNDN);
                mpfr_add_ui(W, W, 1, MPFR_RNDN);
            }
            mpfr_mul(W, W, eta[k], MPFR_RNDN);
            mpfr_mul(W, W, G, MPFR_RNDN);
            mpfr_mul_2ui(W, W, 1, MPFR_RNDN);
            /* the bound recursion's next values (for the argmax pattern) */
            mpfr_abs(u, Bq, MPFR_RNDN);
            mpfr_ui_sub(c1, 1, Bq, MPFR_RNDN);
            mpfr_abs(c1, c1, MPFR_RNDN);
            mpfr_mul(c2, u, Lb, MPFR_RNDN);
            mpfr_add(c2, c2, W, MPFR_RNDN);               /* X0: |B| Lb + W */
            if (xi) {
                mpfr_mul(v, u, Xb, MPFR_RNDN);
                mpfr_add(c2, c2, v, MPFR_RNDN);           /* XI L+: |B| (Xb + Lb) + W */
                mpfr_mul(t, c1, Lb, MPFR_RNDN);
                mpfr_add(t, t, v, MPFR_RNDN);
                mpfr_add(t, t, W, MPFR_RNDN);             /* XI X+ */
            }
            const int grow = mpfr_cmp(c2, Lb) > 0 || (xi && mpfr_cmp(t, Xb) > 0);
            int present;
            if (k == 0 || k + 1 == T || mode == 0) present = 1;
            else if (mode == 1) present = grow;
            else present = (frng_u53(&rg) & 1) != 0;
            if (present) {
                if (mpfr_cmp(c2, Lb) > 0) mpfr_set(Lb, c2, MPFR_RNDN);
                if (xi && mpfr_cmp(t, Xb) > 0) mpfr_set(Xb, t, MPFR_RNDN);
            }
            if (!present)
                continue;                   /* absent: state kept, no upload */
            for (int j = 0; j < DIM; j++)   /* the public x_0^t of this round */
                if (k > 0) pcu_rand_dyadic(x0[j], &rg, 50, -2, 3, 0);
            int aligned = mode <= 2 || (mode == 4 && (frng_u53(&rg) & 1));
            int sg = 1;
            if (aligned) {
                /* X, L along e_1 from the simulated states */
                mpfr_sub(X, A.x[0], Bc.x[0], MPFR_RNDN);
                mpfr_sub(L, A.lam[0], Bc.lam[0], MPFR_RNDN);
                mpfr_div(L, L, rho, MPFR_RNDN);
                if (k + 1 == T) {           /* maximise |y - y'| = |2B X + (1 - 2B) L + 2w| */
                    mpfr_mul_2ui(t, Bq, 1, MPFR_RNDN);
                    mpfr_ui_sub(u, 1, t, MPFR_RNDN);
                    mpfr_mul(u, u, L, MPFR_RNDN);
                    if (xi) { mpfr_mul(t, t, X, MPFR_RNDN); mpfr_add(u, u, t, MPFR_RNDN); }
                    sg = mpfr_sgn(u) < 0 ? -1 : 1;
                } else if (!xi) {           /* maximise |L+| = |B L - w| */
                    mpfr_mul(u, Bq, L, MPFR_RNDN);
                    sg = mpfr_sgn(u) > 0 ? -1 : 1;
                } else {                    /* maximise |X+| + |L+| */
                    double best = -1;
                    for (int sgc = -1; sgc <= 1; sgc += 2) {
                        mpfr_mul(u, Bq, X, MPFR_RNDN);          /* B X */
                        mpfr_ui_sub(t, 1, Bq, MPFR_RNDN);
                        mpfr_mul(t, t, L, MPFR_RNDN);
                        mpfr_add(t, t, u, MPFR_RNDN);
                        if (sgc > 0) mpfr_add(t, t, W, MPFR_RNDN); else mpfr_sub(t, t, W, MPFR_RNDN);
                        mpfr_sub(v, L, t, MPFR_RNDN);           /* L+ = L - X+ */
                        double val = fabs(mpfr_get_d(t, MPFR_RNDN)) + fabs(mpfr_get_d(v, MPFR_RNDN));
                        if (val > best) { best = val; sg = sgc; }
                    }
                }
            }
            /* gradients: aligned w = sg W e_1 needs g_r - g'_r = -2 sg G sgn(b^(Q-1-r)) e_1 */
            for (unsigned long r = 0; r < Q; r++) {
                if (aligned) {
                    int sp = (mpfr_sgn(b) < 0 && ((Q - 1 - r) & 1)) ? -1 : 1;
                    mpfr_set(g[r][0], G, MPFR_RNDN);
                    if (sg * sp > 0) mpfr_neg(g[r][0], g[r][0], MPFR_RNDN);
                    mpfr_neg(h[r][0], g[r][0], MPFR_RNDN);
                    mpfr_set_zero(g[r][1], 1);
                    mpfr_set_zero(h[r][1], 1);
                } else {                    /* random in the disc of radius G */
                    for (int j = 0; j < DIM; j++) {
                        mpfr_set_d(t, (ud(&rg) * 2 - 1) * 0.7071, MPFR_RNDN);
                        mpfr_mul(g[r][j], G, t, MPFR_RNDN);
                        mpfr_set_d(t, (ud(&rg) * 2 - 1) * 0.7071, MPFR_RNDN);
                        mpfr_mul(h[r][j], G, t, MPFR_RNDN);
                    }
                }
            }
            round10(&A, g, Q, x0, eta[k], rho, xi, t, z);
            round10(&Bc, h, Q, x0, eta[k], rho, xi, t, z);
            mpfr_set_zero(d, 1);
            for (int j = 0; j < DIM; j++) {
                mpfr_sub(t, A.y[j], Bc.y[j], MPFR_RNDN);
                mpfr_sqr(t, t, MPFR_RNDN);
                mpfr_add(d, d, t, MPFR_RNDN);
            }
            mpfr_sqrt(d, d, MPFR_RNDN);
            ctx->ran++;
            if (mpfr_zero_p(s[k])) {
                if (!mpfr_zero_p(d)) {
                    ctx->failed++;
                    if (!first[0]) snprintf(first, sizeof first, "case %lu round %lu: s = 0, difference %g", cs, k, mpfr_get_d(d, MPFR_RNDN));
                }
                continue;
            }
            mpfr_div(ratio, d, s[k], MPFR_RNDN);
            const double rt = mpfr_get_d(ratio, MPFR_RNDN);
            if (rt > worst) worst = rt;
            mpfr_sub_ui(t, ratio, 1, MPFR_RNDN);
            if (mpfr_cmp(t, tol) > 0) {
                ctx->failed++;
                if (!first[0])
                    snprintf(first, sizeof first, "case %lu (start %s, mode %d, T %lu, Q %lu) round %lu: ||y - y'|| / s = %.17g > 1",
                             cs, xi ? "XI" : "X0", mode, T, Q, k, rt);
            }
            if (k + 1 == T && T > 1) {
                int slot = mode == 1 ? (xi ? 3 : 0) : mode == 0 ? (xi ? 2 : 1) : -1;
                if (slot >= 0) {
                    if (rt < tmin[slot]) tmin[slot] = rt;
                    if (rt > tmax[slot]) tmax[slot] = rt;
                }
                if (slot == 0) {            /* X0, argmax pattern, aligned: attained */
                    mpfr_ui_sub(t, 1, ratio, MPFR_RNDN);
                    if (mpfr_cmp(t, tol) > 0) {
                        ctx->failed++;
                        if (!first[0])
                            snprintf(first, sizeof first, "case %lu (X0 argmax, T %lu, Q %lu): not attained, ratio %.17g",
                                     cs, T, Q, rt);
                    }
                }
            }
        }
    }
    if (ctx->failed)
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu uploads, max ||y - y'||/s = %.6f; target round (T >= 2): X0 argmax pattern [%.12f, %.12f], X0 full [%.4g, %.4g], XI full [%.4g, %.4g], XI argmax [%.4g, %.4g]",
                 ctx->ran, worst, tmin[0], tmax[0], tmin[1], tmax[1], tmin[2], tmax[2], tmin[3], tmax[3]);
    for (int j = 0; j < DIM; j++) {
        mpfr_clears(A.x[j], A.lam[j], A.y[j], Bc.x[j], Bc.lam[j], Bc.y[j], x0[j], z[j], (mpfr_ptr)0);
        for (int r = 0; r < QMAX; r++) mpfr_clears(g[r][j], h[r][j], (mpfr_ptr)0);
    }
    for (int k = 0; k < TMAX; k++) mpfr_clears(eta[k], s[k], (mpfr_ptr)0);
    mpfr_clears(rho, G, t, u, v, b, Bq, W, Lb, Xb, d, ratio, tol, X, L, c1, c2, (mpfr_ptr)0);
    free(g);
    free(h);
    return ctx->failed != 0;
}
