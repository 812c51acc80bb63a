/* SPDX-License-Identifier: Apache-2.0 */
/* check_kkt.c -- the KKT residuals of 004 Definition 1 against an
 * independent characterisation, in GMP rationals (no MPFR arithmetic, no
 * closed form of the residual):
 *   eps1 = dist_inf(0, S1), S1 = r + dh(w), r = grad_f + J mu;
 *   eps2 = dist_inf(c, N_{R+^m}(mu)).
 * Each set is built as a product of intervals straight from the definitions
 * (dh of 0, of gamma|.| and of the box indicator; the normal cone of R+ at
 * mu_j), with infinite ends where the set is unbounded.  Per instance:
 *   (a) the point v* (the projection of the reference point on each
 *       interval) is exhibited and certified to lie in the set (both ends
 *       compared exactly), and ||x - v*||_inf is the exact residual D;
 *   (b) no point of the set is closer: for every coordinate the whole
 *       interval lies at distance >= |x_k - v*_k| from x_k (its nearer end
 *       compared exactly), so every point v has ||x - v||_inf >= D;
 *   (c) ref (at a random precision) is RU(D): ref >= D and nextbelow(ref) <
 *       D (ref = +0 iff D = 0);
 *   (d) fast >= D and fast - D <= ff_proxal_kkt_bound's abs (eps2: exact).
 * pc_proxal_kkt_char also builds exact KKT pairs, (5): w and mu >= 0 first,
 * c_j = 0 where mu_j > 0 and c_j <= 0 where mu_j = 0 (complementarity), a
 * subgradient z in dh(w), then grad_f = -J mu - z (exact in binary64 by
 * construction, checked in Q): ref must give +0 and +0, fast 0 <= eps1 <=
 * abs1 and eps2 = 0. */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "fedfast.h"

#define STREAM_KKT UINT64_C(0x70632d6b6b74)   /* "pc-kkt" */
#define DMAX 6
#define MMAX 4

typedef struct {
    size_t d, m;
    int h;
    double g[DMAX], J[DMAX * MMAX], c[MMAX], mu[MMAX], w[DMAX], lo[DMAX], hi[DMAX], gamma;
} inst;

/* A random binary64 s k 2^(e - bits), k < 2^bits, e in [emin, emax]. */
static double rnd(frng_t *g, unsigned bits, int emin, int emax)
{
    unsigned long k = pcu_below(g, 1UL << bits), s = pcu_below(g, 2);
    int e = emin + (int)pcu_below(g, (unsigned long)(emax - emin + 1));
    return (s ? -1.0 : 1.0) * ldexp((double)k, e - (int)bits);
}

/* A closed interval of Q with optional infinite ends. */
typedef struct { int loinf, hiinf; mpq_t a, b; } ival;

/* dh_k(w_k) as an interval (the definitions, not the residual formulas). */
static void subdiff(ival *I, const inst *P, size_t k)
{
    I->loinf = I->hiinf = 0;
    mpq_set_ui(I->a, 0, 1);
    mpq_set_ui(I->b, 0, 1);
    if (P->h == FR_PROXAL_H_L1) {              /* gamma d|x|: {gamma sgn x}, [-gamma, gamma] at 0 */
        mpq_set_d(I->a, P->w[k] > 0 ? P->gamma : -P->gamma);
        mpq_set_d(I->b, P->w[k] < 0 ? -P->gamma : P->gamma);
    } else if (P->h == FR_PROXAL_H_BOX) {      /* N_[lo,hi](w): {v: v (y - w) <= 0 for all y} */
        I->loinf = P->w[k] == P->lo[k];        /* y - w can be > 0 unless w = hi */
        I->hiinf = P->w[k] == P->hi[k];
    }
}

/* Distance from x to I; v = the projection (the attaining point). */
static void proj(mpq_t v, mpq_t dist, const mpq_t x, const ival *I)
{
    if (!I->loinf && mpq_cmp(x, I->a) < 0) mpq_set(v, I->a);
    else if (!I->hiinf && mpq_cmp(x, I->b) > 0) mpq_set(v, I->b);
    else mpq_set(v, x);
    mpq_sub(dist, x, v);
    mpq_abs(dist, dist);
}

/* (a) v in I; (b) every point of I is at distance >= dist from x. */
static int certify(const mpq_t x, const mpq_t v, const mpq_t dist, const ival *I, mpq_t t)
{
    if ((!I->loinf && mpq_cmp(v, I->a) < 0) || (!I->hiinf && mpq_cmp(v, I->b) > 0)) return 0;
    if (mpq_sgn(dist) == 0) return 1;
    mpq_add(t, x, dist);                       /* I inside [x + dist, inf) ... */
    if (!I->loinf && mpq_cmp(I->a, t) >= 0) return 1;
    mpq_sub(t, x, dist);                       /* ... or inside (-inf, x - dist] */
    return !I->hiinf && mpq_cmp(I->b, t) <= 0;
}

/* The exact residuals D1, D2 with certificates (a), (b); 0 if one fails. */
static int exact_residuals(mpq_t D1, mpq_t D2, const inst *P)
{
    mpq_t r, x, v, dist, t, zero;
    ival I;
    int ok = 1;
    mpq_inits(r, x, v, dist, t, zero, I.a, I.b, (mpq_ptr)0);
    mpq_set_ui(D1, 0, 1);
    mpq_set_ui(D2, 0, 1);
    for (size_t k = 0; k < P->d; k++) {
        mpq_set_d(r, P->g[k]);
        for (size_t j = 0; j < P->m; j++) {
            mpq_set_d(x, P->J[k * P->m + j]);
            mpq_set_d(t, P->mu[j]);
            mpq_mul(x, x, t);
            mpq_add(r, r, x);
        }
        /* 0 in r + dh  <=>  -r in dh: distance from x = -r to dh_k */
        subdiff(&I, P, k);
        mpq_neg(x, r);
        proj(v, dist, x, &I);
        ok &= certify(x, v, dist, &I, t);
        if (mpq_cmp(dist, D1) > 0) mpq_set(D1, dist);
    }
    for (size_t j = 0; j < P->m; j++) {
        I.loinf = P->mu[j] == 0;               /* N_{R+}(0) = (-inf, 0], N(mu > 0) = {0} */
        I.hiinf = 0;
        mpq_set_ui(I.a, 0, 1);
        mpq_set_ui(I.b, 0, 1);
        mpq_set_d(x, P->c[j]);
        proj(v, dist, x, &I);
        ok &= certify(x, v, dist, &I, t);
        if (mpq_cmp(dist, D2) > 0) mpq_set(D2, dist);
    }
    mpq_clears(r, x, v, dist, t, zero, I.a, I.b, (mpq_ptr)0);
    return ok;
}

/* (c): e = RU(D) at e's precision, +0 for D = 0. */
static int is_ru(mpfr_srcptr e, const mpq_t D)
{
    if (mpq_sgn(D) == 0) return mpfr_zero_p(e) && !mpfr_signbit(e);
    if (mpfr_cmp_q(e, D) < 0) return 0;
    mpfr_t b;
    mpfr_init2(b, mpfr_get_prec(e));
    mpfr_set(b, e, MPFR_RNDN);
    mpfr_nextbelow(b);
    int ok = mpfr_cmp_q(b, D) < 0;
    mpfr_clear(b);
    return ok;
}

/* (d): D <= x <= D + abs (abs may be 0: exact). */
static int upper_ok(double x, const mpq_t D, double abs)
{
    mpq_t q, a;
    mpq_inits(q, a, (mpq_ptr)0);
    mpq_set_d(q, x);
    int ok = mpq_cmp(q, D) >= 0;
    mpq_sub(q, q, D);
    mpq_set_d(a, abs);
    ok &= mpq_cmp(q, a) <= 0;
    mpq_clears(q, a, (mpq_ptr)0);
    return ok;
}

/* A random instance: every branch of every coordinate formula is drawn
 * often (w_k = +-0, box faces, lo = hi, mu_j = +-0, cancellation in r). */
static void draw(inst *P, frng_t *G)
{
    P->d = 1 + pcu_below(G, DMAX);
    P->m = pcu_below(G, MMAX + 1);
    P->h = (int)pcu_below(G, 3);
    int wide = pcu_below(G, 4) == 0;           /* magnitudes 2^-300 .. 2^300 */
    int lo_e = wide ? -300 : -4, hi_e = wide ? 300 : 4;
    P->gamma = fabs(rnd(G, 10, -3, 3));
    if (pcu_below(G, 6) == 0) P->gamma = pcu_below(G, 2) ? 0.0 : -0.0;
    for (size_t j = 0; j < P->m; j++) {
        unsigned long kind = pcu_below(G, 4);
        P->mu[j] = kind == 0 ? 0.0 : kind == 1 ? -0.0 : fabs(rnd(G, 12, lo_e, hi_e));
        P->c[j] = pcu_below(G, 5) == 0 ? 0.0 : rnd(G, 12, lo_e, hi_e);
    }
    for (size_t k = 0; k < P->d; k++) {
        for (size_t j = 0; j < P->m; j++) P->J[k * P->m + j] = rnd(G, 20, lo_e, hi_e);
        P->g[k] = rnd(G, 30, lo_e, hi_e);
        if (P->m > 0 && pcu_below(G, 4) == 0)  /* cancellation: g ~ -J mu */
            P->g[k] = -(P->J[k * P->m] * P->mu[0]);
        unsigned long wk = pcu_below(G, 4);
        P->w[k] = wk == 0 ? 0.0 : wk == 1 ? -0.0 : rnd(G, 10, -2, 2);
        double a = rnd(G, 10, -2, 2), b = rnd(G, 10, -2, 2);
        P->lo[k] = fmin(a, b);
        P->hi[k] = pcu_below(G, 6) == 0 ? P->lo[k] : fmax(a, b);
        unsigned long where = pcu_below(G, 3);
        P->w[k] = P->h != FR_PROXAL_H_BOX ? P->w[k]
                : where == 0 ? P->lo[k] : where == 1 ? P->hi[k] : P->lo[k] / 2 + P->hi[k] / 2;
    }
}

/* A random exact KKT pair: grad_f = -J mu - z, z in dh(w), complementarity. */
static int draw_kkt(inst *P, frng_t *G)
{
    draw(P, G);
    for (size_t j = 0; j < P->m; j++) {
        P->mu[j] = pcu_below(G, 2) ? 0.0 : fabs(rnd(G, 6, -2, 2));
        P->c[j] = P->mu[j] > 0 ? 0.0 : -fabs(rnd(G, 6, -2, 2));
        for (size_t k = 0; k < P->d; k++) P->J[k * P->m + j] = rnd(G, 6, -2, 2);
    }
    P->gamma = fabs(rnd(G, 6, -2, 2));
    for (size_t k = 0; k < P->d; k++) {
        double z = 0, t = fabs(rnd(G, 6, -2, 2));
        if (P->h == FR_PROXAL_H_L1)
            z = P->w[k] > 0 ? P->gamma : P->w[k] < 0 ? -P->gamma : fmin(t, P->gamma) * (pcu_below(G, 2) ? 1 : -1);
        else if (P->h == FR_PROXAL_H_BOX)
            z = P->lo[k] == P->hi[k] ? rnd(G, 6, -2, 2) : P->w[k] == P->lo[k] ? -t : P->w[k] == P->hi[k] ? t : 0;
        double s = z;                          /* small dyadics: every step exact */
        for (size_t j = 0; j < P->m; j++) s += P->J[k * P->m + j] * P->mu[j];
        P->g[k] = -s;
    }
    mpq_t D1, D2;
    mpq_inits(D1, D2, (mpq_ptr)0);
    int ok = exact_residuals(D1, D2, P) && mpq_sgn(D1) == 0 && mpq_sgn(D2) == 0;
    mpq_clears(D1, D2, (mpq_ptr)0);
    return ok;                                 /* the construction is exact (checked in Q) */
}

/* Run ref and fast on P and compare with the exact residuals; returns NULL
 * or the failure.  kkt: the exact residuals must be 0. */
static const char *one(const inst *P, mpfr_prec_t p, int kkt)
{
    static const char *why;
    mpfr_t e1, e2, gm, g[DMAX], J[DMAX * MMAX], c[MMAX], mu[MMAX], w[DMAX], lo[DMAX], hi[DMAX];
    mpq_t D1, D2;
    size_t d = P->d, m = P->m;
    mpq_inits(D1, D2, (mpq_ptr)0);
    mpfr_inits2(p, e1, e2, (mpfr_ptr)0);
    mpfr_init2(gm, 53);
    mpfr_set_d(gm, P->gamma, MPFR_RNDN);
    for (size_t k = 0; k < d; k++) {
        mpfr_inits2(53, g[k], w[k], lo[k], hi[k], (mpfr_ptr)0);
        mpfr_set_d(g[k], P->g[k], MPFR_RNDN);
        mpfr_set_d(w[k], P->w[k], MPFR_RNDN);
        mpfr_set_d(lo[k], P->lo[k], MPFR_RNDN);
        mpfr_set_d(hi[k], P->hi[k], MPFR_RNDN);
    }
    for (size_t i = 0; i < d * m; i++) { mpfr_init2(J[i], 53); mpfr_set_d(J[i], P->J[i], MPFR_RNDN); }
    for (size_t j = 0; j < m; j++) {
        mpfr_inits2(53, c[j], mu[j], (mpfr_ptr)0);
        mpfr_set_d(c[j], P->c[j], MPFR_RNDN);
        mpfr_set_d(mu[j], P->mu[j], MPFR_RNDN);
    }
    double f1, f2, a1, a2;
    why = NULL;
    if (!exact_residuals(D1, D2, P)) why = "(a)/(b): the projection is not certified";
    else if (kkt && (mpq_sgn(D1) != 0 || mpq_sgn(D2) != 0)) why = "(5): the constructed pair is not exact KKT";
    else if (fr_proxal_kkt(e1, e2, g, d, J, m, c, mu, w, P->h, gm, lo, hi) != FR_OK) why = "ref status";
    else if (!is_ru(e1, D1)) why = "(c): ref eps1 is not RU of the exact residual";
    else if (!is_ru(e2, D2)) why = "(c): ref eps2 is not RU of the exact residual";
    else if (ff_proxal_kkt(&f1, &f2, P->g, d, P->J, m, P->c, P->mu, P->w, P->h, P->gamma, P->lo, P->hi) != FR_OK
             || ff_proxal_kkt_bound(&a1, &a2, P->g, d, P->J, m, P->c, P->mu, P->w, P->h, P->gamma, P->lo,
                                    P->hi) != FR_OK)
        why = "fast status";
    else if (!upper_ok(f1, D1, a1)) why = "(d): fast eps1 below the exact residual or beyond its bound";
    else if (!upper_ok(f2, D2, a2)) why = "(d): fast eps2 not exact";
    mpfr_clears(e1, e2, gm, (mpfr_ptr)0);
    for (size_t k = 0; k < d; k++) mpfr_clears(g[k], w[k], lo[k], hi[k], (mpfr_ptr)0);
    for (size_t i = 0; i < d * m; i++) mpfr_clear(J[i]);
    for (size_t j = 0; j < m; j++) mpfr_clears(c[j], mu[j], (mpfr_ptr)0);
    mpq_clears(D1, D2, (mpq_ptr)0);
    return why;
}

int pc_proxal_kkt_char(pc_ctx *ctx)
{
    static const mpfr_prec_t PRECS[] = {2, 24, 53, 113};
    frng_t G;
    unsigned long n = ctx->cases < 1000 ? 1000 : ctx->cases;
    ctx->function = "proxal_kkt";
    ctx->vector = "kkt_residual";
    ctx->claim = "004 Definition 1 / (5): eps1, eps2 = dist_inf to products of intervals; v* certified in the set, per-coordinate lower bound, ref = RU, fast an upper bound within its abs, exact KKT pairs give 0";
    ctx->erratum = NULL;
    frng_init(&G, ctx->seed, STREAM_KKT);
    for (unsigned long i = 0; i < n + n / 4; i++) {
        inst P;
        int kkt = i >= n;
        if (kkt && !draw_kkt(&P, &G)) {
            ctx->ran++;
            ctx->failed++;
            if (!ctx->detail[0]) snprintf(ctx->detail, sizeof ctx->detail, "case %lu: KKT construction inexact", i);
            continue;
        }
        if (!kkt) draw(&P, &G);
        mpfr_prec_t p = i % 5 == 4 ? ctx->prec : PRECS[i % 4];
        const char *why = one(&P, p, kkt);
        ctx->ran++;
        if (why) {
            ctx->failed++;
            if (!ctx->detail[0])
                snprintf(ctx->detail, sizeof ctx->detail, "case %lu (h %d, d %zu, m %zu, prec %ld): %s", i, P.h,
                         P.d, P.m, (long)p, why);
        }
    }
    return ctx->failed != 0;
}
