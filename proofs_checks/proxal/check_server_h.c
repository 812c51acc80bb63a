/* SPDX-License-Identifier: Apache-2.0 */
/* check_server_h.c -- the server step (14) of 004 Algorithm 2 with h =
 * gamma ||.||_1 or a box indicator (docs/PROXAL.md 4.5).
 *
 * pc_proxal_server_h:
 *   (a) in exact rationals (GMP mpq), on random dyadic instances with an
 *       isotropic F_0(w) = ||w - w^k||^2 / (2 (n+1) beta) (Algorithm 1's
 *       P_{0,k} without a server constraint): the closed form (14a)-(14b),
 *       w = prox_{h/a}(z), satisfies the optimality condition (14') 0 in
 *       g(w) + dh(w), with g computed from its definition (not from z),
 *       coordinate by coordinate; and phi + h at w is <= its value at
 *       random dyadic perturbations (inside the box).  A quarter of the
 *       coordinates are put on the kinks: |z_k| = gamma/a exactly (l1),
 *       z_k = lo_k or hi_k exactly (box).
 *   (b) the two wings' server step: Algorithm 2 with tmax = 1 returns w^1
 *       of (14) (u~_i^0 = w~^0 - grad F_i(w~^0)/rho_i); on Neyman-Pearson
 *       (26) instances (m_0 = 0: F_0 isotropic) from a far warm start (the
 *       residual above eps_1 = 1, so the step moves), ff_proxal_admm_h
 *       and fr_proxal_admm_h (128 bits) must return the closed form
 *       computed in rationals from their own oracles' gradients, within
 *       16 ulps (fast) and 2^-100 (ref) relative to max(1, |w|). */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "../../tests/proxal/alg_fixtures.h"

#define STREAM_SRV UINT64_C(0x70632d737276)   /* "pc-srv" */
#define SD 6
#define SN 3

static double dyad(frng_t *G, unsigned bits, int sign)
{
    uint64_t k, e;
    frng_below(G, (uint64_t)1 << bits, &k);
    frng_below(G, 6, &e);
    double v = ldexp((double)k, -(int)e);
    if (sign) {
        uint64_t s;
        frng_below(G, 2, &s);
        if (s)
            v = -v;
    }
    return v;
}

/* q := the l1 or box condition of (14') at w_k with gradient g_k; 1 if it holds */
static int cond_ok(int h, const mpq_t w, const mpq_t g, const mpq_t gam, const mpq_t lo, const mpq_t hi)
{
    if (h == FR_PROXAL_H_L1) {
        mpq_t t;
        mpq_init(t);
        int ok;
        if (mpq_sgn(w) > 0)
            mpq_add(t, g, gam), ok = mpq_sgn(t) == 0;
        else if (mpq_sgn(w) < 0)
            mpq_sub(t, g, gam), ok = mpq_sgn(t) == 0;
        else
            mpq_abs(t, g), ok = mpq_cmp(t, gam) <= 0;
        mpq_clear(t);
        return ok;
    }
    if (mpq_cmp(w, lo) < 0 || mpq_cmp(w, hi) > 0)
        return 0;
    if (mpq_equal(lo, hi))
        return 1;
    if (mpq_equal(w, lo))
        return mpq_sgn(g) >= 0;
    if (mpq_equal(w, hi))
        return mpq_sgn(g) <= 0;
    return mpq_sgn(g) == 0;
}

/* the closed form (14b) at z with threshold t = gamma/a */
static void closed(int h, mpq_t w, const mpq_t z, const mpq_t t, const mpq_t lo, const mpq_t hi)
{
    if (h == FR_PROXAL_H_L1) {
        mpq_t m;
        mpq_init(m);
        mpq_neg(m, t);
        if (mpq_cmp(z, t) > 0)
            mpq_sub(w, z, t);
        else if (mpq_cmp(z, m) < 0)
            mpq_add(w, z, t);
        else
            mpq_set_ui(w, 0, 1);
        mpq_clear(m);
    } else {
        mpq_set(w, mpq_cmp(z, lo) < 0 ? lo : mpq_cmp(z, hi) > 0 ? hi : z);
    }
}

typedef struct {
    size_t n, d;
    int h;
    mpq_t a0, a, gam, t, wk[SD], ut[SN][SD], rho[SN], lo[SD], hi[SD], z[SD], w[SD];
} inst_q;

static void iq_init(inst_q *I)
{
    mpq_inits(I->a0, I->a, I->gam, I->t, NULL);
    for (size_t k = 0; k < SD; k++) {
        mpq_inits(I->wk[k], I->lo[k], I->hi[k], I->z[k], I->w[k], NULL);
        for (size_t i = 0; i < SN; i++)
            mpq_init(I->ut[i][k]);
    }
    for (size_t i = 0; i < SN; i++)
        mpq_init(I->rho[i]);
}
static void iq_clear(inst_q *I)
{
    mpq_clears(I->a0, I->a, I->gam, I->t, NULL);
    for (size_t k = 0; k < SD; k++) {
        mpq_clears(I->wk[k], I->lo[k], I->hi[k], I->z[k], I->w[k], NULL);
        for (size_t i = 0; i < SN; i++)
            mpq_clear(I->ut[i][k]);
    }
    for (size_t i = 0; i < SN; i++)
        mpq_clear(I->rho[i]);
}

/* z of (14a): (a0 w^k + sum rho_i u~_i) / a */
static void make_z(inst_q *I, size_t k, mpq_t z)
{
    mpq_t s;
    mpq_init(s);
    mpq_mul(z, I->a0, I->wk[k]);
    for (size_t i = 0; i < I->n; i++)
        mpq_mul(s, I->rho[i], I->ut[i][k]), mpq_add(z, z, s);
    mpq_div(z, z, I->a);
    mpq_clear(s);
}

/* phi_0 + h at w (box: w must be inside) */
static void objective(inst_q *I, mpq_t *w, mpq_t out)
{
    mpq_t s, t;
    mpq_inits(s, t, NULL);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < I->d; k++) {
        mpq_sub(t, w[k], I->wk[k]);
        mpq_mul(t, t, t);
        mpq_mul(t, t, I->a0);
        mpq_add(s, s, t);
        for (size_t i = 0; i < I->n; i++) {
            mpq_sub(t, I->ut[i][k], w[k]);
            mpq_mul(t, t, t);
            mpq_mul(t, t, I->rho[i]);
            mpq_add(s, s, t);
        }
    }
    mpq_set_ui(t, 1, 2);
    mpq_mul(out, s, t);
    if (I->h == FR_PROXAL_H_L1)
        for (size_t k = 0; k < I->d; k++) {
            mpq_abs(t, w[k]);
            mpq_mul(t, t, I->gam);
            mpq_add(out, out, t);
        }
    mpq_clears(s, t, NULL);
}

/* part (a): one random instance; returns the failures */
static unsigned long exact_case(frng_t *G, unsigned long *kinks)
{
    inst_q I;
    iq_init(&I);
    uint64_t r;
    frng_below(G, SN, &r);
    I.n = 1 + (size_t)r;
    frng_below(G, SD, &r);
    I.d = 1 + (size_t)r;
    frng_below(G, 2, &r);
    I.h = r ? FR_PROXAL_H_BOX : FR_PROXAL_H_L1;
    double beta = 1 + dyad(G, 6, 0);
    mpq_set_d(I.a0, beta * (double)(I.n + 1));   /* exact: a small integer times a dyadic */
    mpq_inv(I.a0, I.a0);
    mpq_set(I.a, I.a0);
    for (size_t i = 0; i < I.n; i++) {
        mpq_set_d(I.rho[i], ldexp(1 + dyad(G, 6, 0), -2));
        mpq_add(I.a, I.a, I.rho[i]);
    }
    mpq_set_d(I.gam, dyad(G, 5, 0));
    for (size_t k = 0; k < I.d; k++) {
        mpq_set_d(I.wk[k], dyad(G, 8, 1));
        for (size_t i = 0; i < I.n; i++)
            mpq_set_d(I.ut[i][k], dyad(G, 8, 1));
        double l = dyad(G, 6, 1), u = dyad(G, 6, 1);
        mpq_set_d(I.lo[k], fmin(l, u));
        mpq_set_d(I.hi[k], fmax(l, u));
        make_z(&I, k, I.z[k]);
    }
    /* kinks: coordinate 0 on the threshold (l1) or on a face (box) in a quarter of the cases */
    frng_below(G, 4, &r);
    if (r == 0) {
        ++*kinks;
        if (I.h == FR_PROXAL_H_L1)
            mpq_abs(I.gam, I.z[0]), mpq_mul(I.gam, I.gam, I.a);   /* |z_0| = gamma/a */
        else if (mpq_cmp(I.z[0], I.hi[0]) <= 0)
            mpq_set(I.lo[0], I.z[0]);                              /* z_0 = lo_0 <= hi_0 */
        else
            mpq_set(I.hi[0], I.z[0]);
    }
    mpq_div(I.t, I.gam, I.a);
    unsigned long bad = 0;
    mpq_t g, s;
    mpq_inits(g, s, NULL);
    for (size_t k = 0; k < I.d; k++) {
        closed(I.h, I.w[k], I.z[k], I.t, I.lo[k], I.hi[k]);
        /* g_k(w) = a0 (w_k - w^k_k) + sum rho_i (w_k - u~_ik), from the definition */
        mpq_sub(g, I.w[k], I.wk[k]);
        mpq_mul(g, g, I.a0);
        for (size_t i = 0; i < I.n; i++) {
            mpq_sub(s, I.w[k], I.ut[i][k]);
            mpq_mul(s, s, I.rho[i]);
            mpq_add(g, g, s);
        }
        if (!cond_ok(I.h, I.w[k], g, I.gam, I.lo[k], I.hi[k]))
            bad++;
    }
    /* minimality against perturbations that stay in dom h */
    mpq_t f0, f1, pw[SD];
    mpq_inits(f0, f1, NULL);
    for (size_t k = 0; k < I.d; k++)
        mpq_init(pw[k]);
    objective(&I, I.w, f0);
    for (int trial = 0; trial < 4; trial++) {
        for (size_t k = 0; k < I.d; k++) {
            mpq_set_d(s, ldexp(dyad(G, 4, 1), -4));
            mpq_add(pw[k], I.w[k], s);
            if (I.h == FR_PROXAL_H_BOX) {
                if (mpq_cmp(pw[k], I.lo[k]) < 0)
                    mpq_set(pw[k], I.lo[k]);
                if (mpq_cmp(pw[k], I.hi[k]) > 0)
                    mpq_set(pw[k], I.hi[k]);
            }
        }
        objective(&I, pw, f1);
        if (mpq_cmp(f1, f0) < 0)
            bad++;
    }
    for (size_t k = 0; k < I.d; k++)
        mpq_clear(pw[k]);
    mpq_clears(f0, f1, g, s, NULL);
    iq_clear(&I);
    return bad;
}

/* part (b): the wings' w^1 against the closed form; returns the failures,
 * the largest relative deviation of each wing in dev[0] (fast), dev[1] (ref) */
static unsigned long wing_case(frng_t *G, uint64_t seed, int h, double *dev)
{
    af_inst I;
    uint64_t r;
    frng_below(G, 3, &r);
    size_t n = 1 + (size_t)r, d = 3, m;
    af_np(&I, n, d, 4, 0.5, seed);
    fr_proxal_problem P0 = I.P;
    m = fr_proxal_mtot(&P0);
    double lo[SD], hi[SD], wk[SD], w0[SD], mu[SN + 1] = {0}, rho[SN], beta = 0.125, w[SD];
    for (size_t k = 0; k < d; k++) {
        lo[k] = -1 - dyad(G, 4, 0), hi[k] = 1 + dyad(G, 4, 0);
        wk[k] = dyad(G, 6, 1);
        w0[k] = h == FR_PROXAL_H_BOX ? hi[k] : 8 + dyad(G, 4, 0);   /* far from wk: residual > 1 */
    }
    for (size_t i = 0; i < n; i++)
        rho[i] = 0.5 + dyad(G, 4, 0);
    double gam = 0.25 + dyad(G, 4, 0);
    fr_proxal_hreg H = {h, gam, lo, hi};
    fr_proxal_admm_params prm = {0.5, 0.5, rho, 1, 50, FR_PROXAL_EPS18_PRINTED};
    unsigned long bad = 0;
    /* fast */
    ff_proxal_pk_ctx cx;
    ff_proxal_fsum F;
    ff_proxal_admm_ws *ws = NULL;
    ff_proxal_admm_info info;
    if (ff_proxal_pk_fsum(&F, &cx, &P0, wk, mu, beta) != FR_OK || ff_proxal_admm_ws_init(&ws, n, d) != FR_OK ||
        ff_proxal_admm_h(w, &info, ws, &F, w0, &prm, &H) != FR_OK) {
        ff_proxal_admm_ws_clear(&ws);
        return 1;
    }
    ff_proxal_admm_ws_clear(&ws);
    /* the closed form from fast's own oracle gradients (taken as exact) */
    mpq_t a0, a, z, s, t, wq, lq, hq;
    mpq_inits(a0, a, z, s, t, wq, lq, hq, NULL);
    mpq_set_d(a0, (double)(n + 1) * beta);
    mpq_inv(a0, a0);
    mpq_set(a, a0);
    for (size_t i = 0; i < n; i++)
        mpq_set_d(s, rho[i]), mpq_add(a, a, s);
    double gi[SN][SD];
    for (size_t i = 1; i <= n; i++)
        if (ff_proxal_pik(NULL, gi[i - 1], NULL, &P0, i, w0, wk, mu, beta) != FR_OK)
            bad++;
    for (size_t k = 0; k < d && !bad; k++) {
        /* a z = a0 w^k + sum_i rho_i (w0 - g_i/rho_i) = a0 w^k + sum_i (rho_i w0 - g_i) */
        mpq_set_d(z, wk[k]);
        mpq_mul(z, z, a0);
        for (size_t i = 0; i < n; i++) {
            mpq_set_d(s, rho[i]);
            mpq_set_d(t, w0[k]);
            mpq_mul(s, s, t);
            mpq_set_d(t, gi[i][k]);
            mpq_sub(s, s, t);
            mpq_add(z, z, s);
        }
        mpq_div(z, z, a);
        mpq_set_d(t, gam);
        mpq_div(t, t, a);
        mpq_set_d(lq, lo[k]);
        mpq_set_d(hq, hi[k]);
        closed(h, wq, z, t, lq, hq);
        double wc = mpq_get_d(wq);
        double e = fabs(w[k] - wc) / fmax(1, fabs(wc));
        dev[0] = fmax(dev[0], e);
        if (e > 16 * 0x1p-53)
            bad++;
    }
    /* ref at 128 bits, its own oracle */
    mpfr_t rwk[SD], rw0[SD], rw[SD], rmu[SN + 1], rb;
    for (size_t k = 0; k < d; k++) {
        mpfr_init2(rwk[k], 128), mpfr_set_d(rwk[k], wk[k], MPFR_RNDN);
        mpfr_init2(rw0[k], 128), mpfr_set_d(rw0[k], w0[k], MPFR_RNDN);
        mpfr_init2(rw[k], 128);
    }
    for (size_t j = 0; j < m; j++)
        mpfr_init2(rmu[j], 128), mpfr_set_zero(rmu[j], 1);
    mpfr_init2(rb, 53);
    mpfr_set_d(rb, beta, MPFR_RNDN);
    fr_proxal_fsum RF;
    fr_proxal_pk_ctx rcx;
    fr_proxal_admm_info ri;
    fr_proxal_admm_info_init(&ri, 128);
    mpfr_t rg[SN][SD];
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < d; k++)
            mpfr_init2(rg[i][k], 128);
    if (fr_proxal_pk_fsum(&RF, &rcx, &P0, rwk, rmu, rb) != FR_OK || fr_proxal_admm_h(rw, &ri, &RF, rw0, &prm, &H) != FR_OK)
        bad++;
    for (size_t i = 1; i <= n && !bad; i++)
        if (fr_proxal_pik(NULL, rg[i - 1], NULL, &P0, i, rw0, rwk, rmu, rb) != FR_OK)
            bad++;
    for (size_t k = 0; k < d && !bad; k++) {
        mpq_set_d(z, wk[k]);
        mpq_mul(z, z, a0);
        for (size_t i = 0; i < n; i++) {
            mpq_set_d(s, rho[i]);
            mpq_set_d(t, w0[k]);
            mpq_mul(s, s, t);
            mpfr_get_q(t, rg[i][k]);
            mpq_sub(s, s, t);
            mpq_add(z, z, s);
        }
        mpq_div(z, z, a);
        mpq_set_d(t, gam);
        mpq_div(t, t, a);
        mpq_set_d(lq, lo[k]);
        mpq_set_d(hq, hi[k]);
        closed(h, wq, z, t, lq, hq);
        mpfr_t wc, e;
        mpfr_inits2(256, wc, e, (mpfr_ptr)0);
        mpfr_set_q(wc, wq, MPFR_RNDN);
        mpfr_sub(e, rw[k], wc, MPFR_RNDN);
        mpfr_abs(e, e, MPFR_RNDN);
        mpfr_abs(wc, wc, MPFR_RNDN);
        if (mpfr_cmp_ui(wc, 1) < 0)
            mpfr_set_ui(wc, 1, MPFR_RNDN);
        mpfr_div(e, e, wc, MPFR_RNDN);
        dev[1] = fmax(dev[1], mpfr_get_d(e, MPFR_RNDU));
        if (mpfr_cmp_si_2exp(e, 1, -100) > 0)
            bad++;
        mpfr_clears(wc, e, (mpfr_ptr)0);
    }
    fr_proxal_admm_info_clear(&ri);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < d; k++)
            mpfr_clear(rg[i][k]);
    for (size_t k = 0; k < d; k++)
        mpfr_clears(rwk[k], rw0[k], rw[k], (mpfr_ptr)0);
    for (size_t j = 0; j < m; j++)
        mpfr_clear(rmu[j]);
    mpfr_clear(rb);
    mpq_clears(a0, a, z, s, t, wq, lq, hq, NULL);
    return bad;
}

int pc_proxal_server_h(pc_ctx *ctx)
{
    frng_t G;
    ctx->function = "proxal_admm_h";
    ctx->vector = NULL;
    ctx->claim = "004 (14) with h = l1 / box: the closed form (14a)-(14b) for an isotropic F_0 meets (14') in exact "
                 "rationals (kinks included) and minimises phi_0 + h; both wings' server step (tmax = 1) equals it";
    ctx->erratum = "E-004-14h";
    frng_init(&G, ctx->seed, STREAM_SRV);
    unsigned long N = ctx->cases < 4000 ? ctx->cases : 4000, kinks = 0, bad = 0, nw = 40;
    for (unsigned long c = 0; c < N; c++) {
        unsigned long b = exact_case(&G, &kinks);
        ctx->ran++;
        if (b) {
            bad++;
            if (!ctx->detail[0])
                snprintf(ctx->detail, sizeof ctx->detail, "exact case %lu: %lu conditions fail", c, b);
        }
    }
    double dev[2] = {0, 0};
    for (unsigned long c = 0; c < nw; c++) {
        unsigned long b = wing_case(&G, ctx->seed + c, c % 2 ? FR_PROXAL_H_BOX : FR_PROXAL_H_L1, dev);
        ctx->ran++;
        if (b) {
            bad++;
            if (!ctx->detail[0])
                snprintf(ctx->detail, sizeof ctx->detail, "wing case %lu: server step off the closed form", c);
        }
    }
    ctx->failed = bad;
    if (!ctx->detail[0])
        snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu exact instances (%lu with a coordinate on a kink), %lu server steps of both wings: largest "
                 "deviation from the closed form fast %.2g, ref %.2g (relative to max(1, |w|))",
                 N, kinks, nw, dev[0], dev[1]);
    return ctx->failed != 0;
}
