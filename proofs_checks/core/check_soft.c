/* SPDX-License-Identifier: Apache-2.0 */
/* check_soft.c -- soft(t, a) is the argmin of 1/2 (x - t)^2 + a|x|
 * (002 eq. (2), vector form (3)).
 *
 * For every entry x = fr_soft(t, a) at p bits:
 *  - optimality certificate, decided exactly: either
 *    0 in (x - t) + a sgn(x) (x is the exact minimiser), or the exact
 *    minimiser lies between the midpoints to x's neighbours (x is it
 *    rounded to nearest, ties to even): pcu_cert_rn;
 *  - strict descent: f(x +- delta) > f(x) for a tiny delta when x is exact,
 *    and f(pred(x)) >= f(x) <= f(succ(x)) (x is the best p-bit value),
 *    f differences evaluated exactly.
 * Inputs are exact dyadics: a = 0, |t| = a exactly, |t| = a +- 2^-k,
 * t = 0, exponents up to 2^+-300 and 2^+-5000, results that need p+1 bits
 * (rounding ties).  Entries are grouped in vectors of 1..4 per call. */
#include <stdio.h>
#include "../pc_util.h"

#define STREAM_SOFT UINT64_C(0x70632d736f6674) /* "pc-soft" */
#define NVEC 4

typedef struct { long m1, e1, m2, e2; } term;
#define P 100000 /* exponent P + k means p + k (p = output precision) */
static const struct { term t, a; } adv[] = {
    {{0, 0, 0, 0}, {0, 0, 0, 0}},
    {{1, 0, 0, 0}, {0, 0, 0, 0}},
    {{-3, -200, 0, 0}, {0, 0, 0, 0}},
    {{0, 0, 0, 0}, {1, 0, 0, 0}},
    {{1, 0, 0, 0}, {1, 0, 0, 0}},
    {{-1, 0, 0, 0}, {1, 0, 0, 0}},
    {{1, 0, 1, -300}, {1, 0, 0, 0}},
    {{1, 0, -1, -300}, {1, 0, 0, 0}},
    {{-1, 0, -1, -300}, {1, 0, 0, 0}},
    {{1, 200, 0, 0}, {1, 0, 0, 0}},
    {{1, 200, 0, 0}, {1, -200, 0, 0}},
    {{1, -200, 0, 0}, {1, 200, 0, 0}},
    {{1, 200, 0, 0}, {1, 200, 0, 0}},
    {{1, 200, 1, 0}, {1, 200, 0, 0}},
    {{-1, 200, -1, 0}, {1, 200, 0, 0}},
    {{1, P, 2, 0}, {1, 0, 0, 0}},    /* t - a = 2^p + 1: tie -> 2^p */
    {{1, P, 4, 0}, {1, 0, 0, 0}},    /* 2^p + 3: tie -> 2^p + 4 */
    {{-1, P, -2, 0}, {1, 0, 0, 0}},  /* -(2^p + 1): tie -> -2^p */
    {{1, P, 3, 0}, {1, 0, 0, 0}},    /* 2^p + 2: exact */
    {{1, P, 0, 0}, {1, -1, 0, 0}},   /* 2^p - 1/2: tie below a power of 2 */
    {{1, P, 0, 0}, {1, -10, 0, 0}},  /* 2^p - 2^-10 -> 2^p */
    {{1, P + 300, 0, 0}, {1, 0, 0, 0}},
    {{1, 5000, 0, 0}, {1, -5000, 0, 0}},
    {{1, -5000, 0, 0}, {1, -5000, 0, 0}},
    {{3, -5000, 0, 0}, {1, -5000, 0, 0}},
    {{-5, 5000, 0, 0}, {1, 4998, 0, 0}},
};
#define NADV (sizeof adv / sizeof adv[0])

static void set_term(mpfr_t x, const term *t, mpfr_prec_t p)
{
    MPFR_DECL_INIT(a, 64);
    MPFR_DECL_INIT(b, 64);
    long e1 = t->e1 >= P / 2 ? (long)p + (t->e1 - P) : t->e1;
    long e2 = t->e2 >= P / 2 ? (long)p + (t->e2 - P) : t->e2;
    mpfr_set_si_2exp(a, t->m1, e1, MPFR_RNDN);
    mpfr_set_si_2exp(b, t->m2, e2, MPFR_RNDN);
    pcu_add(x, a, b);  /* sets x's precision to what it needs */
}

typedef struct {
    pc_ctx *ctx;
    mpfr_t one, y, d;
    unsigned long exact, rounded;
} state;

static void fail(state *S, const mpfr_t t, const mpfr_t a, const mpfr_t x,
                 const char *why)
{
    pc_ctx *ctx = S->ctx;
    if (ctx->failed++ == 0) {
        char bt[96], ba[96], bx[96];
        pcu_fmt(bt, sizeof bt, t);
        pcu_fmt(ba, sizeof ba, a);
        pcu_fmt(bx, sizeof bx, x);
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "t=%s a=%s p=%ld: soft=%s: %s", bt, ba, (long)ctx->prec, bx,
                 why);
    }
}

/* 0 if the entry passes, 1 otherwise (ctx->detail filled on the first). */
static int check_entry(state *S, const mpfr_t x, mpfr_ptr t, mpfr_ptr a)
{
    pcu_prox1d f;
    int exact = 0, bad = 1;
    const char *why = "internal error";
    pcu_prox1d_init(&f, a, S->one, t);   /* c = a, r = 1, r u = t */
    int rc = pcu_cert_rn(pcu_prox1d_dsign, &f, x, 0, &exact, &why);
    if (rc != 0)
        goto out;
    exact ? S->exact++ : S->rounded++;
    if (!mpfr_zero_p(x)) {
        /* x is the best p-bit value: f(pred) >= f(x) <= f(succ) */
        for (int side = -1; side <= 1; side += 2) {
            mpfr_set_prec(S->y, mpfr_get_prec(x));
            mpfr_set(S->y, x, MPFR_RNDN);
            side < 0 ? mpfr_nextbelow(S->y) : mpfr_nextabove(S->y);
            int s = pcu_prox1d_fdiff(&f, S->y, x);
            if (s == 2 || s < 0 || (exact && s == 0)) {
                why = s == 2 ? "internal error" : "a p-bit neighbour has a lower objective";
                goto out;
            }
        }
    }
    if (exact) {
        /* strict descent: f(x +- delta) > f(x) for a tiny delta */
        mpfr_exp_t e;
        if (!mpfr_zero_p(x))
            e = mpfr_get_exp(x);
        else if (!mpfr_zero_p(t) && !mpfr_zero_p(a))
            e = mpfr_get_exp(t) < mpfr_get_exp(a) ? mpfr_get_exp(t) : mpfr_get_exp(a);
        else if (!mpfr_zero_p(t) || !mpfr_zero_p(a))
            e = mpfr_get_exp(mpfr_zero_p(t) ? a : t);
        else
            e = 0;
        mpfr_set_prec(S->d, 2);
        mpfr_set_ui_2exp(S->d, 1, e - 2 * (mpfr_exp_t)S->ctx->prec, MPFR_RNDN);
        for (int side = -1; side <= 1; side += 2) {
            int r2 = side < 0 ? pcu_sub(S->y, x, S->d) : pcu_add(S->y, x, S->d);
            int s = r2 ? 2 : pcu_prox1d_fdiff(&f, S->y, x);
            if (s != 1) {
                why = s == 2 ? "internal error" : "no strict descent at x";
                goto out;
            }
        }
    }
    bad = 0;
out:
    if (bad)
        fail(S, t, a, x, why);
    pcu_prox1d_clear(&f);
    return bad;
}

static void rand_t(mpfr_t t, frng_t *g, const mpfr_t a, mpfr_prec_t p,
                   mpfr_t eps)
{
    long ea = mpfr_zero_p(a) ? 0 : (long)mpfr_get_exp(a);
    int neg = (int)pcu_below(g, 2);
    switch (pcu_below(g, 10)) {
    case 0:                                    /* |t| = a */
        pcu_set(t, a);
        break;
    case 1: case 2:                            /* |t| = a +- 2^-k */
        mpfr_set_prec(eps, 64);
        pcu_rand_dyadic_nz(eps, g, 1 + (unsigned)pcu_below(g, 8),
                           ea - 1 - (long)pcu_below(g, 2 * (unsigned long)p + 10), ea - 1, 1);
        pcu_add(t, a, eps);
        if (pcu_below(g, 2) && mpfr_cmp(a, eps) > 0)
            pcu_sub(t, a, eps);
        break;
    case 3:
        mpfr_set_prec(t, 64);
        mpfr_set_zero(t, 1);
        break;
    case 4:                                    /* wide exponents */
        mpfr_set_prec(t, 64);
        pcu_rand_dyadic(t, g, 1 + (unsigned)pcu_below(g, 64), -300, 300, 1);
        break;
    case 5:                                    /* |t| >> a */
        mpfr_set_prec(t, 64);
        pcu_rand_dyadic_nz(t, g, 1 + (unsigned)pcu_below(g, 64), ea + 100, ea + 300, 1);
        break;
    default:                                   /* comparable to a */
        mpfr_set_prec(t, 64);
        pcu_rand_dyadic(t, g, 1 + (unsigned)pcu_below(g, 64), ea - 4, ea + 4, 1);
    }
    if (neg)
        mpfr_neg(t, t, MPFR_RNDN);
}

static void rand_a(mpfr_t a, frng_t *g)
{
    mpfr_set_prec(a, 64);
    switch (pcu_below(g, 16)) {
    case 0: case 1:
        mpfr_set_zero(a, 1);
        break;
    case 2:
        pcu_rand_dyadic_nz(a, g, 1 + (unsigned)pcu_below(g, 64), 150, 250, 1);
        break;
    case 3:
        pcu_rand_dyadic_nz(a, g, 1 + (unsigned)pcu_below(g, 64), -250, -150, 1);
        break;
    default:
        pcu_rand_dyadic_nz(a, g, 1 + (unsigned)pcu_below(g, 53), -8, 8, 1);
    }
}

int pc_soft_argmin(pc_ctx *ctx)
{
    state S = {0};
    frng_t g;
    mpfr_t a, t[NVEC], out[NVEC], eps;
    mpfr_prec_t p = ctx->prec;

    ctx->function = "soft";
    ctx->vector = "soft";
    ctx->claim = "002 (2)-(3): soft(t,a) = argmin 1/2(x-t)^2 + a|x| (exact certificate, RN at p bits)";
    S.ctx = ctx;
    mpfr_inits2(64, S.one, S.y, S.d, a, eps, (mpfr_ptr)0);
    mpfr_set_ui(S.one, 1, MPFR_RNDN);
    for (int i = 0; i < NVEC; i++) {
        mpfr_init2(t[i], 64);
        mpfr_init2(out[i], p);
    }
    frng_init(&g, ctx->seed, STREAM_SOFT);

    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        size_t n;
        if (c < NADV) {
            n = 1;
            set_term(t[0], &adv[c].t, p);
            set_term(a, &adv[c].a, p);
        } else {
            n = 1 + pcu_below(&g, NVEC);
            rand_a(a, &g);
            for (size_t j = 0; j < n; j++)
                rand_t(t[j], &g, a, p, eps);
        }
        ctx->ran++;
        int st = fr_soft(out, t, n, a);
        if (st != FR_OK) {
            fail(&S, t[0], a, t[0], fr_strerror(st));
            continue;
        }
        for (size_t j = 0; j < n; j++)
            if (check_entry(&S, out[j], t[j], a))
                break;              /* one failure per case */
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu entries exact (0 in the subdifferential), %lu correctly rounded",
                 S.exact, S.rounded);
    for (int i = 0; i < NVEC; i++)
        mpfr_clears(t[i], out[i], (mpfr_ptr)0);
    mpfr_clears(S.one, S.y, S.d, a, eps, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
