/* SPDX-License-Identifier: Apache-2.0 */
/* test_surrogate.c -- the surrogate recursions of module ssca (000 (3),
 * (5), (9)-(12), (14), (35)-(39)) and the message counts.
 *
 * ref against exact GMP rational oracles on dyadic inputs: every result
 * must be the correctly rounded value (mpfr_set_q of the exact rational)
 * at the output's precision, ties to even and the +0 of exact zeros
 * included, at precisions 2 to 200.  fast against the same oracles: the
 * error is at most the function's ff_*_bound and at most the proved
 * ("tight") bound of its source, computed exactly from the oracle; and the
 * bound function's value is at most a stated factor times the tight bound
 * (2 for ema and update, 8 for lin, const, argmin and momentum, plus
 * 2^-1072 of subnormal slop).  Overflow in fast: FR_ENONFINITE with the
 * outputs untouched.  Random cases use frng with seed FEDREF_SEED (printed
 * on failure). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_ssca_surrogate(void);

#define U 0x1p-53
#define NCM 4
#define DM 5

/* ---- replayable randomness ------------------------------------------------ */

static uint64_t seed;
static frng_t rng;

#define SUITE_SEED 20240601u    /* the seed without FEDREF_SEED */
#define SUITE_STREAM 0x55c4a000u    /* plus each test's own stream */

static int rnd_int(int lo, int hi)
{
    uint64_t k;
    frng_below(&rng, (uint64_t)(hi - lo + 1), &k);
    return lo + (int)k;
}

/* A dyadic k 2^e with |k| < 2^bits (exact at `bits` bits of precision). */
static double rnd_dy(int bits, int elo, int ehi)
{
    double k = (double)rnd_int(-(1 << bits) + 1, (1 << bits) - 1);
    return ldexp(k, rnd_int(elo, ehi));
}

/* A full binary64: random sign and 53-bit significand, exponent in [elo, ehi]. */
static double rnd_full(int elo, int ehi)
{
    double f = (double)((frng_next64(&rng) >> 11) | (1ull << 52)) * 0x1p-53;
    double x = ldexp(f, rnd_int(elo, ehi));
    return frng_next64(&rng) & 1 ? -x : x;
}

/* A stepsize in (0, 1]: 1, a short dyadic, or a full binary64. */
static double rnd_step(int full)
{
    int r = rnd_int(0, 5);
    if (r == 0) return 1;
    if (!full || r == 1) return ldexp((double)rnd_int(1, 255), -8);
    return ((double)(frng_next64(&rng) >> 12) * 2 + 1) * 0x1p-53;
}

/* ---- exact rational oracles ----------------------------------------------- */

typedef struct {
    size_t nc, d, B, N[NCM];
    double rho, tau, gp, gam, lambda, P;
    double x[DM], y[DM], f1[DM], w[DM], G[NCM * DM], F[NCM], beta[DM], v[DM], f0;
    int ynull, bnull, full;
} inst;

static void qd(mpq_t r, double x) { mpq_set_d(r, x); }

/* q_i = N_i/(B N) */
static void q_weight(mpq_t q, const inst *c, size_t i)
{
    size_t N = 0;
    for (size_t k = 0; k < c->nc; k++) N += c->N[k];
    mpq_set_ui(q, (unsigned long)c->N[i], (unsigned long)(c->B * N));
    mpq_canonicalize(q);
}

/* s_j = sum_i q_i G_ij, and sabs_j = sum_i q_i |G_ij| */
static void q_colsum(mpq_t s, mpq_t sabs, const inst *c, size_t j)
{
    mpq_t q, x;
    mpq_inits(q, x, NULL);
    mpq_set_ui(s, 0, 1);
    mpq_set_ui(sabs, 0, 1);
    for (size_t i = 0; i < c->nc; i++) {
        q_weight(q, c, i);
        qd(x, c->G[i * c->d + j]);
        mpq_mul(x, x, q);
        mpq_add(s, s, x);
        mpq_abs(x, x);
        mpq_add(sabs, sabs, x);
    }
    mpq_clears(q, x, NULL);
}

/* gamma_k = k u / (1 - k u), exactly */
static void q_gamma(mpq_t g, unsigned long k)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(g, k, 1);
    mpq_div_2exp(g, g, 53);
    mpq_set_ui(t, 1, 1);
    mpq_sub(t, t, g);
    mpq_div(g, g, t);
    mpq_clear(t);
}

static void q_pow2(mpq_t r, long e, double times)
{
    mpq_set_d(r, times);
    if (e < 0) mpq_div_2exp(r, r, (unsigned long)-e);
    else mpq_mul_2exp(r, r, (unsigned long)e);
}

/* The oracles: exact value(s) and the tight bound(s) of the fast source.
 * kind: 0 ema, 1 lin, 2 const, 3 argmin, 4 update, 5 momentum.  ex[j] and
 * tb[j] for j < d (const: index 0; momentum: v then w, 2d). */
enum { K_EMA, K_LIN, K_CONST, K_ARGMIN, K_UPDATE, K_MOM };

static void oracle(int kind, const inst *c, mpq_t *ex, mpq_t *tb)
{
    mpq_t a, b, t, s, sabs, g, A, one;
    mpq_inits(a, b, t, s, sabs, g, A, one, NULL);
    mpq_set_ui(one, 1, 1);
    size_t d = c->d;
    switch (kind) {
    case K_EMA: case K_UPDATE: {
        double r = kind == K_EMA ? c->rho : c->gam;
        const double *x = kind == K_EMA ? c->x : c->w, *y = kind == K_EMA ? c->y : c->x;
        int yn = kind == K_EMA && c->ynull;
        for (size_t j = 0; j < d; j++) {
            qd(a, r);
            mpq_sub(b, one, a);                     /* 1 - r */
            qd(t, x[j]);
            mpq_mul(ex[j], b, t);
            mpq_abs(t, t);
            mpq_mul(tb[j], b, t);                   /* T */
            if (!yn) {
                qd(t, y[j]);
                mpq_mul(t, t, a);
                mpq_add(ex[j], ex[j], t);
                mpq_abs(t, t);
                mpq_add(tb[j], tb[j], t);
            }
            q_gamma(g, yn ? 2 : 3);
            mpq_mul(tb[j], tb[j], g);
            q_pow2(A, yn ? -1075 : -1074, yn ? 1 : 1 + U);
            mpq_add(tb[j], tb[j], A);
        }
        break;
    }
    case K_LIN:
        for (size_t j = 0; j < d; j++) {
            q_colsum(s, sabs, c, j);
            qd(a, c->rho);
            mpq_sub(b, one, a);
            qd(t, c->tau);
            mpq_add(t, t, t);                       /* 2 tau */
            qd(g, c->w[j]);
            mpq_mul(t, t, g);
            mpq_sub(s, s, t);
            mpq_mul(s, s, a);
            qd(g, c->f1[j]);
            mpq_mul(ex[j], b, g);
            mpq_add(ex[j], ex[j], s);
            mpq_abs(g, g);
            mpq_mul(tb[j], b, g);
            mpq_abs(t, t);
            mpq_add(t, t, sabs);
            mpq_mul(t, t, a);
            mpq_add(tb[j], tb[j], t);
            q_gamma(g, c->nc + 8);
            mpq_mul(tb[j], tb[j], g);
            q_pow2(A, -1075, (double)(c->nc + 4));
            mpq_add(tb[j], tb[j], A);
        }
        break;
    case K_CONST: {
        mpq_t q, T, x, n2;
        mpq_inits(q, T, x, n2, NULL);
        mpq_set_ui(s, 0, 1);
        mpq_set_ui(sabs, 0, 1);
        for (size_t i = 0; i < c->nc; i++) {
            q_weight(q, c, i);
            qd(t, c->F[i]);
            mpq_abs(T, t);
            for (size_t j = 0; j < d; j++) {
                qd(x, c->G[i * d + j]);
                qd(g, c->w[j]);
                mpq_mul(x, x, g);
                mpq_sub(t, t, x);
                mpq_abs(x, x);
                mpq_add(T, T, x);
            }
            mpq_mul(t, t, q);
            mpq_add(s, s, t);
            mpq_mul(T, T, q);
            mpq_add(sabs, sabs, T);
        }
        mpq_set_ui(n2, 0, 1);
        for (size_t j = 0; j < d; j++) {
            qd(x, c->w[j]);
            mpq_mul(x, x, x);
            mpq_add(n2, n2, x);
        }
        qd(x, c->tau);
        mpq_mul(n2, n2, x);                         /* tau ||w||^2 */
        mpq_add(s, s, n2);
        mpq_add(sabs, sabs, n2);
        qd(a, c->rho);
        mpq_sub(b, one, a);
        mpq_mul(s, s, a);
        mpq_mul(sabs, sabs, a);
        qd(x, c->f0);
        mpq_mul(ex[0], b, x);
        mpq_add(ex[0], ex[0], s);
        mpq_abs(x, x);
        mpq_mul(tb[0], b, x);
        mpq_add(tb[0], tb[0], sabs);
        q_gamma(g, d + c->nc + 9);
        mpq_mul(tb[0], tb[0], g);
        q_pow2(A, -1075, (1 + 0x1p-20) * ((double)d + (double)d * c->tau + (double)c->nc + 3));
        mpq_add(tb[0], tb[0], A);
        mpq_clears(q, T, x, n2, NULL);
        break;
    }
    case K_ARGMIN: {
        mpq_t den;
        mpq_init(den);
        qd(den, c->P);
        mpq_sub(den, one, den);
        qd(t, c->tau);
        mpq_mul(den, den, t);
        mpq_add(den, den, den);                     /* 2 tau (1 - P) */
        int reg = !c->bnull && c->lambda != 0;
        for (size_t j = 0; j < d; j++) {
            qd(a, c->f1[j]);
            mpq_abs(t, a);
            if (reg) {
                qd(b, c->beta[j]);
                qd(g, c->lambda);
                mpq_mul(b, b, g);
                mpq_add(b, b, b);
                mpq_add(a, a, b);
                mpq_abs(b, b);
                mpq_add(t, t, b);
            }
            mpq_div(ex[j], a, den);
            mpq_neg(ex[j], ex[j]);
            mpq_div(tb[j], t, den);
            q_gamma(g, 5);
            mpq_mul(tb[j], tb[j], g);
            /* 2^-1074 (1 + 4u)/(tau (1 - P)) + 2^-1075 (1 + 3u)/(1 - P) + 2^-1075 */
            q_pow2(A, -1074, 1 + 4 * U);
            mpq_div(A, A, den);
            mpq_add(A, A, A);
            mpq_add(tb[j], tb[j], A);
            q_pow2(A, -1075, 1 + 3 * U);
            qd(b, c->P);
            mpq_sub(b, one, b);
            mpq_div(A, A, b);
            mpq_add(tb[j], tb[j], A);
            q_pow2(A, -1075, 1);
            mpq_add(tb[j], tb[j], A);
        }
        mpq_clear(den);
        break;
    }
    case K_MOM: {
        mpq_t co, T, E, x, tau2;
        mpq_inits(co, T, E, x, tau2, NULL);
        qd(a, c->rho);
        mpq_sub(co, one, a);
        qd(x, c->gp);
        mpq_sub(x, one, x);
        mpq_mul(co, co, x);                         /* (1 - rho)(1 - gamma_prev) */
        qd(tau2, c->tau);
        mpq_add(tau2, tau2, tau2);                  /* 2 tau */
        for (size_t j = 0; j < d; j++) {
            q_colsum(s, sabs, c, j);
            qd(x, c->v[j]);
            mpq_mul(ex[j], co, x);
            mpq_abs(x, x);
            mpq_mul(T, co, x);
            mpq_mul(s, s, a);
            mpq_div(s, s, tau2);
            mpq_add(ex[j], ex[j], s);               /* v' */
            mpq_mul(sabs, sabs, a);
            mpq_div(sabs, sabs, tau2);
            mpq_add(T, T, sabs);
            q_gamma(g, c->nc + 8);
            mpq_mul(E, T, g);
            q_pow2(A, -1075, 2.51 + (double)(c->nc + 1) * (1 + 0x1p-20) / (2 * c->tau));
            mpq_add(E, E, A);
            mpq_set(tb[j], E);
            /* w' = w - gamma v' */
            qd(x, c->gam);
            mpq_mul(b, x, ex[j]);
            qd(t, c->w[j]);
            mpq_sub(ex[d + j], t, b);
            /* gamma_2 (|w| + gamma (T + E)) + gamma E + 2^-1075 (1 + u) */
            mpq_add(b, T, E);
            mpq_mul(b, b, x);
            mpq_abs(t, t);
            mpq_add(b, b, t);
            q_gamma(g, 2);
            mpq_mul(b, b, g);
            mpq_mul(t, E, x);
            mpq_add(b, b, t);
            q_pow2(A, -1075, 1 + U);
            mpq_add(tb[d + j], b, A);
        }
        mpq_clears(co, T, E, x, tau2, NULL);
        break;
    }
    }
    mpq_clears(a, b, t, s, sabs, g, A, one, NULL);
}

/* ---- ref: correctly rounded at every precision --------------------------- */

static void set_all(mpfr_t *r, const double *x, size_t n, mpfr_prec_t p)
{
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(r[j], p);
        ck_assert_int_eq(mpfr_set_d(r[j], x[j], MPFR_RNDN), 0);     /* exact by construction */
    }
}

static void clear_all(mpfr_t *r, size_t n)
{
    for (size_t j = 0; j < n; j++) mpfr_clear(r[j]);
}

/* got must be the exact q rounded to got's precision (+0 for 0). */
static void ck_cr(mpfr_srcptr got, const mpq_t q, const char *what, size_t j)
{
    mpfr_t want;
    mpfr_init2(want, mpfr_get_prec(got));
    mpfr_set_q(want, q, MPFR_RNDN);
    if (mpfr_zero_p(want)) mpfr_set_zero(want, 1);
    int ok = mpfr_equal_p(got, want) && mpfr_signbit(got) == mpfr_signbit(want);
    if (!ok)
        mpfr_fprintf(stderr, "%s[%zu] at %ld bits: got %Ra, want %Ra\n", what, j, (long)mpfr_get_prec(got),
                     got, want);
    mpfr_clear(want);
    ck_assert_msg(ok, "%s[%zu] not the correctly rounded value [FEDREF_SEED=%llu]", what, j,
                  (unsigned long long)seed);
}

/* A random instance with in-place inputs of 2 bits (exact at every
 * precision) and the others of up to 30 bits. */
static void rnd_inst(inst *c, int full)
{
    memset(c, 0, sizeof *c);
    c->full = full;
    c->nc = (size_t)rnd_int(1, NCM);
    c->d = (size_t)rnd_int(1, DM);
    c->B = (size_t)rnd_int(1, 5);
    for (size_t i = 0; i < c->nc; i++) c->N[i] = c->B + (size_t)rnd_int(0, rnd_int(0, 1) ? 0 : 20);
    c->rho = rnd_step(full);
    c->gam = rnd_step(full);
    c->gp = rnd_int(0, 3) == 0 ? 0 : rnd_step(full);
    c->tau = full ? fabs(rnd_full(-6, 6)) : ldexp((double)rnd_int(1, 63), rnd_int(-8, 2));
    c->lambda = rnd_int(0, 3) == 0 ? 0 : (full ? fabs(rnd_full(-20, 2)) : ldexp((double)rnd_int(1, 63), -8));
    c->P = rnd_int(0, 3) == 0 ? 0 : (full ? 1 - rnd_step(1) : ldexp((double)rnd_int(0, 255), -8));
    c->ynull = rnd_int(0, 3) == 0;
    c->bnull = rnd_int(0, 3) == 0;
    for (size_t j = 0; j < c->d; j++) {
        c->x[j] = full ? rnd_full(-10, 10) : rnd_dy(2, -6, 6);
        c->f1[j] = full ? rnd_full(-10, 10) : rnd_dy(2, -6, 6);
        c->v[j] = full ? rnd_full(-10, 10) : rnd_dy(2, -6, 6);
        c->w[j] = full ? rnd_full(-10, 10) : rnd_dy(2, -6, 6);
        c->y[j] = full ? rnd_full(-10, 10) : rnd_dy(30, -20, 6);
        c->beta[j] = full ? rnd_full(-10, 10) : rnd_dy(30, -20, 6);
    }
    for (size_t k = 0; k < c->nc * c->d; k++) c->G[k] = full ? rnd_full(-10, 10) : rnd_dy(30, -20, 6);
    for (size_t i = 0; i < c->nc; i++) c->F[i] = full ? rnd_full(-10, 10) : rnd_dy(30, -20, 6);
    c->f0 = full ? rnd_full(-10, 10) : rnd_dy(2, -6, 6);
    /* sometimes an exact cancellation: x_0 = -rho y_0/(1 - rho) etc. is not
     * representable in general; the zero cases are in ref_zero_sign */
}

static void run_ref(int kind, const inst *c, mpfr_prec_t p)
{
    size_t d = c->d, nc = c->nc;
    if (c->full && p < 53)
        p = 53;                                     /* the in-place inputs exact */
    mpq_t ex[2 * DM], tb[2 * DM];
    for (int j = 0; j < 2 * DM; j++) mpq_inits(ex[j], tb[j], NULL);
    oracle(kind, c, ex, tb);
    mpfr_t a[DM], b[DM], G[NCM * DM], F[NCM], rho, tau, gp, gam, lam, P, f0;
    set_all(G, c->G, nc * d, 64);
    set_all(F, c->F, nc, 64);
    mpfr_inits2(64, rho, tau, gp, gam, lam, P, (mpfr_ptr)0);
    mpfr_set_d(rho, c->rho, MPFR_RNDN);
    mpfr_set_d(tau, c->tau, MPFR_RNDN);
    mpfr_set_d(gp, c->gp, MPFR_RNDN);
    mpfr_set_d(gam, c->gam, MPFR_RNDN);
    mpfr_set_d(lam, c->lambda, MPFR_RNDN);
    mpfr_set_d(P, c->P, MPFR_RNDN);
    int st;
    switch (kind) {
    case K_EMA:
        set_all(a, c->x, d, p);
        set_all(b, c->y, d, 64);
        st = fr_ssca_ema(a, c->ynull ? NULL : b, d, rho);
        ck_assert_int_eq(st, FR_OK);
        for (size_t j = 0; j < d; j++) ck_cr(a[j], ex[j], "ema", j);
        clear_all(a, d); clear_all(b, d);
        break;
    case K_UPDATE:
        set_all(a, c->w, d, p);
        set_all(b, c->x, d, 64);
        ck_assert_int_eq(fr_ssca_update(a, b, d, gam), FR_OK);
        for (size_t j = 0; j < d; j++) ck_cr(a[j], ex[j], "update", j);
        clear_all(a, d); clear_all(b, d);
        break;
    case K_LIN:
        set_all(a, c->f1, d, p);
        set_all(b, c->w, d, 64);
        ck_assert_int_eq(fr_ssca_lin(a, b, G, c->N, nc, d, c->B, rho, tau), FR_OK);
        for (size_t j = 0; j < d; j++) ck_cr(a[j], ex[j], "lin", j);
        clear_all(a, d); clear_all(b, d);
        break;
    case K_CONST:
        mpfr_init2(f0, p);
        mpfr_set_d(f0, c->f0, MPFR_RNDN);
        set_all(b, c->w, d, 64);
        ck_assert_int_eq(fr_ssca_const(f0, b, G, F, c->N, nc, d, c->B, rho, tau), FR_OK);
        ck_cr(f0, ex[0], "const", 0);
        mpfr_clear(f0);
        clear_all(b, d);
        break;
    case K_ARGMIN: {
        mpfr_t out[DM];
        set_all(a, c->f1, d, 64);
        set_all(b, c->beta, d, 64);
        for (size_t j = 0; j < d; j++) mpfr_init2(out[j], p);
        ck_assert_int_eq(fr_ssca_argmin(out, a, c->bnull ? NULL : b, d, lam, tau, P), FR_OK);
        for (size_t j = 0; j < d; j++) ck_cr(out[j], ex[j], "argmin", j);
        /* wbar may alias f1: the same values */
        mpfr_t al[DM];
        set_all(al, c->f1, d, p);
        ck_assert_int_eq(fr_ssca_argmin(al, al, c->bnull ? NULL : b, d, lam, tau, P), FR_OK);
        for (size_t j = 0; j < d; j++) ck_cr(al[j], ex[j], "argmin (aliased)", j);
        clear_all(al, d); clear_all(out, d); clear_all(a, d); clear_all(b, d);
        break;
    }
    case K_MOM:
        set_all(a, c->v, d, p);
        set_all(b, c->w, d, p + 7);                 /* v and w at their own precisions */
        ck_assert_int_eq(fr_ssca_momentum(a, b, G, c->N, nc, d, c->B, rho, gp, gam, tau), FR_OK);
        for (size_t j = 0; j < d; j++) {
            ck_cr(a[j], ex[j], "momentum v", j);
            ck_cr(b[j], ex[d + j], "momentum w", j);
        }
        clear_all(a, d); clear_all(b, d);
        break;
    }
    clear_all(G, nc * d);
    clear_all(F, nc);
    mpfr_clears(rho, tau, gp, gam, lam, P, (mpfr_ptr)0);
    for (int j = 0; j < 2 * DM; j++) mpq_clears(ex[j], tb[j], NULL);
}

START_TEST(ref_correctly_rounded)
{
    static const mpfr_prec_t precs[] = {2, 3, 11, 24, 53, 64, 113, 200};
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 1);
    for (int it = 0; it < 400; it++) {
        inst c;
        rnd_inst(&c, it % 2);
        for (int kind = K_EMA; kind <= K_MOM; kind++)
            run_ref(kind, &c, precs[it % 8]);
    }
}
END_TEST

/* Ties at 2 bits, and the rounding direction: (1 + 3/2)/2 = 5/4 is the
 * midpoint of 1 and 3/2: even is 1; (3/2 + 2)/2 = 7/4: even is 2. */
START_TEST(ref_ties_to_even)
{
    mpfr_t x[2], y[2], r;
    mpfr_init2(r, 2);
    mpfr_set_d(r, 0.5, MPFR_RNDN);
    for (int j = 0; j < 2; j++) mpfr_inits2(2, x[j], y[j], (mpfr_ptr)0);
    mpfr_set_d(x[0], 1, MPFR_RNDN);
    mpfr_set_d(y[0], 1.5, MPFR_RNDN);
    mpfr_set_d(x[1], 1.5, MPFR_RNDN);
    mpfr_set_d(y[1], 2, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_ema(x, y, 2, r), FR_OK);
    ck_assert(mpfr_cmp_d(x[0], 1) == 0 && mpfr_cmp_d(x[1], 2) == 0);
    /* update: (1/2) 1 + (1/2)(3/2) at 2 bits -> 1 */
    mpfr_set_d(x[0], 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_update(x, y, 1, r), FR_OK);
    ck_assert(mpfr_cmp_d(x[0], 1) == 0);
    /* argmin: -(5/4)/1 at 2 bits -> -1 (f1 = 5/4 needs 3 bits: 64-bit input) */
    mpfr_t f[1], out[1], lam, tau, P;
    mpfr_inits2(64, f[0], lam, tau, P, (mpfr_ptr)0);
    mpfr_init2(out[0], 2);
    mpfr_set_d(f[0], 1.25, MPFR_RNDN);
    mpfr_set_zero(lam, 1);
    mpfr_set_d(tau, 0.5, MPFR_RNDN);
    mpfr_set_zero(P, 1);
    ck_assert_int_eq(fr_ssca_argmin(out, f, NULL, 1, lam, tau, P), FR_OK);
    ck_assert(mpfr_cmp_d(out[0], -1) == 0);
    mpfr_set_d(f[0], 1.75, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_argmin(out, f, NULL, 1, lam, tau, P), FR_OK);
    ck_assert(mpfr_cmp_d(out[0], -2) == 0);
    for (int j = 0; j < 2; j++) mpfr_clears(x[j], y[j], (mpfr_ptr)0);
    mpfr_clears(r, f[0], out[0], lam, tau, P, (mpfr_ptr)0);
}
END_TEST

/* Exact zeros are +0 in both wings, also where IEEE evaluation of the
 * printed expression gives -0. */
START_TEST(zero_sign)
{
    /* ema, rho = 1, x = -3, y = -0: IEEE 0 (-3) + (-0) = -0 */
    mpfr_t x[1], y[1], r;
    mpfr_inits2(53, x[0], y[0], r, (mpfr_ptr)0);
    mpfr_set_d(x[0], -3, MPFR_RNDN);
    mpfr_set_d(y[0], -0.0, MPFR_RNDN);
    mpfr_set_ui(r, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_ema(x, y, 1, r), FR_OK);
    ck_assert(mpfr_zero_p(x[0]) && !mpfr_signbit(x[0]));
    double fx = -3, fy = -0.0;
    ck_assert_int_eq(ff_ssca_ema(&fx, &fy, 1, 1), FR_OK);
    ck_assert(fx == 0 && !signbit(fx));
    /* the mass from P = -0: (1 - rho)(-0) */
    mpfr_set_d(x[0], -0.0, MPFR_RNDN);
    mpfr_set_d(r, 0.5, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_ema(x, NULL, 1, r), FR_OK);
    ck_assert(mpfr_zero_p(x[0]) && !mpfr_signbit(x[0]));
    fx = -0.0;
    ck_assert_int_eq(ff_ssca_ema(&fx, NULL, 1, 0.5), FR_OK);
    ck_assert(fx == 0 && !signbit(fx));
    /* argmin f1 = +0: -(0)/den = -0 in IEEE */
    mpfr_t f[1], lam, tau, P;
    mpfr_inits2(53, f[0], lam, tau, P, (mpfr_ptr)0);
    mpfr_set_zero(f[0], 1);
    mpfr_set_zero(lam, 1);
    mpfr_set_d(tau, 0.5, MPFR_RNDN);
    mpfr_set_zero(P, 1);
    ck_assert_int_eq(fr_ssca_argmin(x, f, NULL, 1, lam, tau, P), FR_OK);
    ck_assert(mpfr_zero_p(x[0]) && !mpfr_signbit(x[0]));
    double f1 = 0, wb = 7;
    ck_assert_int_eq(ff_ssca_argmin(&wb, &f1, NULL, 1, 0, 0.5, 0), FR_OK);
    ck_assert(wb == 0 && !signbit(wb));
    /* update gamma = 1, wbar = -0 */
    mpfr_set_d(x[0], 5, MPFR_RNDN);
    mpfr_set_d(y[0], -0.0, MPFR_RNDN);
    mpfr_set_ui(r, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_update(x, y, 1, r), FR_OK);
    ck_assert(mpfr_zero_p(x[0]) && !mpfr_signbit(x[0]));
    fx = 5;
    fy = -0.0;
    ck_assert_int_eq(ff_ssca_update(&fx, &fy, 1, 1), FR_OK);
    ck_assert(fx == 0 && !signbit(fx));
    /* lin: rho = 1, G/B = 2 tau w exactly; momentum: w = gamma v' exactly */
    size_t N1[1] = {2};
    double G1[1] = {2}, w1[1] = {0.5}, f11[1] = {-9}, v1[1] = {3};
    mpfr_t G[1], w[1], rho, gp, gam;
    mpfr_inits2(53, G[0], w[0], rho, gp, gam, (mpfr_ptr)0);
    mpfr_set_d(G[0], 2, MPFR_RNDN);
    mpfr_set_d(w[0], 0.5, MPFR_RNDN);
    mpfr_set_d(f[0], -9, MPFR_RNDN);
    mpfr_set_ui(rho, 1, MPFR_RNDN);
    mpfr_set_d(tau, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_lin(f, w, G, N1, 1, 1, 2, rho, tau), FR_OK);     /* 2/2 - 2 (0.5) */
    ck_assert(mpfr_zero_p(f[0]) && !mpfr_signbit(f[0]));
    ck_assert_int_eq(ff_ssca_lin(f11, w1, G1, N1, 1, 1, 2, 1, 1), FR_OK);
    ck_assert(f11[0] == 0 && !signbit(f11[0]));
    /* v' = rho/(2 tau) G/B = 1/2 (rho = 1, tau = 1), w = 1/4 = gamma v' for gamma = 1/2 */
    mpfr_set_d(x[0], 3, MPFR_RNDN);
    mpfr_set_d(w[0], 0.25, MPFR_RNDN);
    mpfr_set_d(gp, 0.5, MPFR_RNDN);
    mpfr_set_d(gam, 0.5, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_momentum(x, w, G, N1, 1, 1, 2, rho, gp, gam, tau), FR_OK);
    ck_assert(mpfr_cmp_d(x[0], 0.5) == 0 && mpfr_zero_p(w[0]) && !mpfr_signbit(w[0]));
    w1[0] = 0.25;
    ck_assert_int_eq(ff_ssca_momentum(v1, w1, G1, N1, 1, 1, 2, 1, 0.5, 0.5, 1), FR_OK);
    ck_assert(v1[0] == 0.5 && w1[0] == 0 && !signbit(w1[0]));
    mpfr_clears(x[0], y[0], r, f[0], lam, tau, P, G[0], w[0], rho, gp, gam, (mpfr_ptr)0);
}
END_TEST

/* ---- fast: within the proved bounds --------------------------------------- */

/* |got - ex| <= bound (double) and <= tight; bound <= factor tight + 2^-1072. */
static void ck_fast(double got, const mpq_t ex, double bound, const mpq_t tight, double factor,
                    const char *what, size_t j)
{
    mpq_t e, b, f;
    mpq_inits(e, b, f, NULL);
    ck_assert_msg(isfinite(got) && isfinite(bound), "%s[%zu]: not finite", what, j);
    mpq_set_d(e, got);
    mpq_sub(e, e, ex);
    mpq_abs(e, e);
    mpq_set_d(b, bound);
    int in_bound = mpq_cmp(e, b) <= 0, in_tight = mpq_cmp(e, tight) <= 0;
    mpq_set_d(f, factor);
    mpq_mul(f, f, tight);
    mpq_set_d(e, 0x1p-1072);
    mpq_add(f, f, e);
    int tight_enough = mpq_cmp(b, f) <= 0;
    if (!(in_bound && in_tight && tight_enough))
        gmp_fprintf(stderr, "%s[%zu]: got %a, exact %.20Qg ~ %.17g, bound %a, tight %.17g\n", what, j, got, ex,
                    mpq_get_d(ex), bound, mpq_get_d(tight));
    ck_assert_msg(in_bound, "%s[%zu] outside ff_*_bound [FEDREF_SEED=%llu]", what, j, (unsigned long long)seed);
    ck_assert_msg(in_tight, "%s[%zu] outside the proved bound [FEDREF_SEED=%llu]", what, j,
                  (unsigned long long)seed);
    ck_assert_msg(tight_enough, "%s[%zu]: ff_*_bound above %g x the proved bound [FEDREF_SEED=%llu]", what, j,
                  factor, (unsigned long long)seed);
    mpq_clears(e, b, f, NULL);
}

static void run_fast(int kind, const inst *c)
{
    size_t d = c->d, nc = c->nc;
    mpq_t ex[2 * DM], tb[2 * DM];
    for (int j = 0; j < 2 * DM; j++) mpq_inits(ex[j], tb[j], NULL);
    oracle(kind, c, ex, tb);
    double o[DM], o2[DM], bd[2 * DM];
    switch (kind) {
    case K_EMA:
        memcpy(o, c->x, d * sizeof *o);
        ck_assert_int_eq(ff_ssca_ema(o, c->ynull ? NULL : c->y, d, c->rho), FR_OK);
        ck_assert_int_eq(ff_ssca_ema_bound(bd, c->x, c->ynull ? NULL : c->y, d, c->rho), FR_OK);
        for (size_t j = 0; j < d; j++) ck_fast(o[j], ex[j], bd[j], tb[j], 2, "ff_ssca_ema", j);
        break;
    case K_UPDATE:
        memcpy(o, c->w, d * sizeof *o);
        ck_assert_int_eq(ff_ssca_update(o, c->x, d, c->gam), FR_OK);
        ck_assert_int_eq(ff_ssca_update_bound(bd, c->w, c->x, d, c->gam), FR_OK);
        for (size_t j = 0; j < d; j++) ck_fast(o[j], ex[j], bd[j], tb[j], 2, "ff_ssca_update", j);
        break;
    case K_LIN:
        memcpy(o, c->f1, d * sizeof *o);
        ck_assert_int_eq(ff_ssca_lin(o, c->w, c->G, c->N, nc, d, c->B, c->rho, c->tau), FR_OK);
        ck_assert_int_eq(ff_ssca_lin_bound(bd, c->f1, c->w, c->G, c->N, nc, d, c->B, c->rho, c->tau), FR_OK);
        for (size_t j = 0; j < d; j++) ck_fast(o[j], ex[j], bd[j], tb[j], 8, "ff_ssca_lin", j);
        break;
    case K_CONST:
        o[0] = c->f0;
        ck_assert_int_eq(ff_ssca_const(o, c->w, c->G, c->F, c->N, nc, d, c->B, c->rho, c->tau), FR_OK);
        ck_assert_int_eq(ff_ssca_const_bound(bd, &c->f0, c->w, c->G, c->F, c->N, nc, d, c->B, c->rho, c->tau),
                         FR_OK);
        ck_fast(o[0], ex[0], bd[0], tb[0], 8, "ff_ssca_const", 0);
        break;
    case K_ARGMIN:
        ck_assert_int_eq(ff_ssca_argmin(o, c->f1, c->bnull ? NULL : c->beta, d, c->lambda, c->tau, c->P), FR_OK);
        ck_assert_int_eq(ff_ssca_argmin_bound(bd, c->f1, c->bnull ? NULL : c->beta, d, c->lambda, c->tau, c->P),
                         FR_OK);
        for (size_t j = 0; j < d; j++) ck_fast(o[j], ex[j], bd[j], tb[j], 8, "ff_ssca_argmin", j);
        memcpy(o2, c->f1, d * sizeof *o2);           /* wbar may alias f1: the same bits */
        ck_assert_int_eq(ff_ssca_argmin(o2, o2, c->bnull ? NULL : c->beta, d, c->lambda, c->tau, c->P), FR_OK);
        ck_assert(memcmp(o, o2, d * sizeof *o) == 0);
        break;
    case K_MOM:
        memcpy(o, c->v, d * sizeof *o);
        memcpy(o2, c->w, d * sizeof *o2);
        ck_assert_int_eq(ff_ssca_momentum(o, o2, c->G, c->N, nc, d, c->B, c->rho, c->gp, c->gam, c->tau), FR_OK);
        ck_assert_int_eq(ff_ssca_momentum_bound(bd, bd + d, c->v, c->w, c->G, c->N, nc, d, c->B, c->rho, c->gp,
                                                c->gam, c->tau), FR_OK);
        for (size_t j = 0; j < d; j++) {
            ck_fast(o[j], ex[j], bd[j], tb[j], 8, "ff_ssca_momentum v", j);
            ck_fast(o2[j], ex[d + j], bd[d + j], tb[d + j], 8, "ff_ssca_momentum w", j);
        }
        break;
    }
    for (int j = 0; j < 2 * DM; j++) mpq_clears(ex[j], tb[j], NULL);
}

START_TEST(fast_within_bounds)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 2);
    for (int it = 0; it < 3000; it++) {
        inst c;
        rnd_inst(&c, it % 4 != 0);
        for (int kind = K_EMA; kind <= K_MOM; kind++)
            run_fast(kind, &c);
    }
}
END_TEST

/* Subnormal inputs and results: the absolute terms of the bounds. */
START_TEST(fast_underflow)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 3);
    for (int it = 0; it < 500; it++) {
        inst c;
        rnd_inst(&c, 1);
        for (size_t j = 0; j < c.d; j++) {
            c.x[j] = ldexp(c.x[j], -1060);
            c.y[j] = ldexp(c.y[j], -1060);
            c.w[j] = ldexp(c.w[j], -1050);
            c.f1[j] = ldexp(c.f1[j], -1060);
            c.v[j] = ldexp(c.v[j], -1060);
            c.beta[j] = ldexp(c.beta[j], -1060);
        }
        for (size_t k = 0; k < c.nc * c.d; k++) c.G[k] = ldexp(c.G[k], -1050);
        for (size_t i = 0; i < c.nc; i++) c.F[i] = ldexp(c.F[i], -1060);
        c.f0 = ldexp(c.f0, -1060);
        for (int kind = K_EMA; kind <= K_MOM; kind++)
            run_fast(kind, &c);
    }
}
END_TEST

/* Binary64 overflow: FR_ENONFINITE, outputs untouched (ref is fine). */
START_TEST(fast_overflow_untouched)
{
    size_t N[1] = {1};
    double G[2] = {1, 1}, w[2] = {1, 1}, f1[2] = {5, 6};
    ck_assert_int_eq(ff_ssca_lin(f1, w, G, N, 1, 2, 1, 0.5, 1e308), FR_ENONFINITE);   /* 2 tau */
    ck_assert(f1[0] == 5 && f1[1] == 6);
    double b[2] = {-1, -1};
    ck_assert_int_eq(ff_ssca_lin_bound(b, f1, w, G, N, 1, 2, 1, 0.5, 1e308), FR_EDOM);
    ck_assert(b[0] == -1 && b[1] == -1);
    double wb[2] = {7, 8};
    ck_assert_int_eq(ff_ssca_argmin(wb, f1, NULL, 2, 0, 1e-310, 0.5), FR_ENONFINITE);   /* / tau */
    ck_assert(wb[0] == 7 && wb[1] == 8);
    ck_assert_int_eq(ff_ssca_argmin_bound(b, f1, NULL, 2, 0, 1e-310, 0.5), FR_EDOM);
    ck_assert(b[0] == -1 && b[1] == -1);
    double v[2] = {1, 2}, ww[2] = {3, 4};
    ck_assert_int_eq(ff_ssca_momentum(v, ww, (double[]){1e300, 1}, N, 1, 2, 1, 1, 0, 1, 1e-10), FR_ENONFINITE);
    ck_assert(v[0] == 1 && v[1] == 2 && ww[0] == 3 && ww[1] == 4);
    double f0 = 2;
    ck_assert_int_eq(ff_ssca_const(&f0, (double[]){1e200, 1}, G, (double[]){1}, N, 1, 2, 1, 1, 1), FR_ENONFINITE);
    ck_assert(f0 == 2);
    /* ref has no overflow there: lin with tau = 1e308 */
    mpfr_t rf[2], rw[2], rG[2], rho, tau;
    for (int j = 0; j < 2; j++) {
        mpfr_inits2(53, rf[j], rw[j], rG[j], (mpfr_ptr)0);
        mpfr_set_d(rf[j], f1[j], MPFR_RNDN);
        mpfr_set_d(rw[j], w[j], MPFR_RNDN);
        mpfr_set_d(rG[j], G[j], MPFR_RNDN);
    }
    mpfr_inits2(53, rho, tau, (mpfr_ptr)0);
    mpfr_set_d(rho, 0.5, MPFR_RNDN);
    mpfr_set_d(tau, 1e308, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_lin(rf, rw, rG, N, 1, 2, 1, rho, tau), FR_OK);
    ck_assert(mpfr_number_p(rf[0]) && mpfr_cmp_d(rf[0], -1e307) < 0);
    for (int j = 0; j < 2; j++) mpfr_clears(rf[j], rw[j], rG[j], (mpfr_ptr)0);
    mpfr_clears(rho, tau, (mpfr_ptr)0);
}
END_TEST

/* Large B N (2^81): ref exact, fast within its bound (the weights are not
 * binary64 quotients of exact integers). */
START_TEST(large_counts)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM + 4);
    for (int it = 0; it < 200; it++) {
        inst c;
        rnd_inst(&c, 1);
        c.B = (size_t)1 << 20;
        for (size_t i = 0; i < c.nc; i++) c.N[i] = ((size_t)1 << 40) + (size_t)rnd_int(0, 1000);
        run_fast(K_LIN, &c);
        run_fast(K_MOM, &c);
        run_fast(K_CONST, &c);
        run_ref(K_LIN, &c, 53);
        run_ref(K_MOM, &c, 64);
        run_ref(K_CONST, &c, 113);
    }
}
END_TEST

/* The feature-based forms (16), (23), (25) are the recursions with one
 * aggregate (nc = 1, N_1 = N) and weight 1/B; and splitting a client's
 * batch sum over two clients with the same sizes changes nothing. */
START_TEST(feature_based_weight)
{
    size_t N1[1] = {60000}, N2[2] = {30000, 30000};
    double G1[2] = {6, -4}, G2[4] = {6, -4, 6, -4}, w[2] = {0.5, 1}, a[2] = {0, 0}, b[2] = {0, 0};
    ck_assert_int_eq(ff_ssca_lin(a, w, G1, N1, 1, 2, 100, 1, 0.25), FR_OK);
    ck_assert(a[0] == 6.0 / 100 - 0.25 && a[1] == -4.0 / 100 - 0.5);
    ck_assert_int_eq(ff_ssca_lin(b, w, G2, N2, 2, 2, 100, 1, 0.25), FR_OK);
    ck_assert(fabs(a[0] - b[0]) <= 0x1p-52 && fabs(a[1] - b[1]) <= 0x1p-51);
}
END_TEST

/* ---- message counts ---------------------------------------------------------- */

START_TEST(msgs_counts)
{
    fr_ssca_sample_msgs s;
    fr_ssca_feature_msgs f;
    /* 000 Sec. VI: P = 784 features, J = 128, L = 10: d = J (L + P) = 101632 */
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, 101632, 0), FR_OK);
    ck_assert(s.down == 101632 && s.up == 101632);
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, 101632, 1), FR_OK);
    ck_assert(s.down == 101632 && s.up == 2 * 101632 + 1);
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, 3, 4), FR_OK);
    ck_assert(s.up == 3 + 4 * 4);
    /* feature-based, I = 10 (P_i = 78 or 79), B = 100: d0 = 1280, d_i = 128 P_i, H = J */
    ck_assert_int_eq(fr_ssca_msgs_feature(&f, 1280, 128 * 79, 128, 100, 1), FR_OK);
    ck_assert(f.down == 1280 + 10112 && f.peer == 2 * 128 * 100 && f.up == 2 * 10112 && f.up_agg == 1280 + 1281);
    ck_assert_int_eq(fr_ssca_msgs_feature(&f, 1280, 128 * 78, 128, 10, 0), FR_OK);
    ck_assert(f.down == 1280 + 9984 && f.peer == 1280 && f.up == 9984 && f.up_agg == 1280);
    /* Sec. V-A's printed peer message: J P_i products per sample */
    ck_assert_int_eq(fr_ssca_msgs_feature(&f, 1280, 128 * 78, 128 * 78, 10, 0), FR_OK);
    ck_assert(f.peer == 128 * 78 * 10);
    /* exact at the 64-bit edge, FR_ESIZE beyond; out untouched */
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, (size_t)UINT64_MAX, 0), FR_OK);
    ck_assert(s.up == UINT64_MAX);
    s.down = s.up = 77;
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, (size_t)UINT64_MAX, 1), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, (size_t)1 << 32, (size_t)1 << 32), FR_ESIZE);
    ck_assert(s.down == 77 && s.up == 77);
    /* up + 1 = (M + 1)(d + 1): 2^64 - 1 exactly, then one too many */
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, ((size_t)1 << 32) - 1, ((size_t)1 << 32) - 1), FR_OK);
    ck_assert(s.up == UINT64_MAX && s.down == ((uint64_t)1 << 32) - 1);
    ck_assert_int_eq(fr_ssca_msgs_sample(&s, ((size_t)1 << 32) - 1, (size_t)1 << 32), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_msgs_feature(&f, 1, 1, (size_t)1 << 32, (size_t)1 << 31, 1), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_msgs_feature(&f, 1, 1, (size_t)1 << 32, (size_t)1 << 31, 0), FR_OK);
    ck_assert(f.peer == (uint64_t)1 << 63);
}
END_TEST

Suite *suite_ssca_surrogate(void)
{
    Suite *s = suite_create("ssca_surrogate");
    TCase *tc = tcase_create("recursions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ref_correctly_rounded);
    tcase_add_test(tc, ref_ties_to_even);
    tcase_add_test(tc, zero_sign);
    tcase_add_test(tc, fast_within_bounds);
    tcase_add_test(tc, fast_underflow);
    tcase_add_test(tc, fast_overflow_untouched);
    tcase_add_test(tc, large_counts);
    tcase_add_test(tc, feature_based_weight);
    tcase_add_test(tc, msgs_counts);
    suite_add_tcase(s, tc);
    return s;
}
