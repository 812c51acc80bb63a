/* SPDX-License-Identifier: Apache-2.0 */
/* check_ens.c -- fr_ens returns the minimiser of 002 (14)/(16),
 *   h(w) = sum_i lambda |w - w_i| + eta/2 (w - w_i)^2   per coordinate.
 *
 * pc_ens_certificate: with x the returned (rounded) value, decided exactly
 *   (one-sided derivatives h'_-(y), h'_+(y) from exact counts and an
 *   mpfr_sum of exact products):
 *     either h'_-(x) <= 0 <= h'_+(x): x is the exact minimiser (this is the
 *       case whenever x is a data value that minimises),
 *     or h'_-(L) <= 0 <= h'_+(U) with L, U the midpoints to x's p-bit
 *       neighbours: the exact minimiser x* is within half an ulp of x, with
 *       ties to even.  This implies h'_-(x - ulp) < 0 < h'_+(x + ulp).
 *   A data value returned without h'_-(x) <= 0 <= h'_+(x) must be a
 *   rounding of a nearby non-data x* (counted, and certified as such).
 *
 * pc_ens_bisection: an independent characterisation that does not use the
 *   closed form: bisection on the sign of h' (exact signs, exact dyadic
 *   midpoints, zero tried first when the bracket straddles it) from
 *   [min w_i, max w_i] until both ends round to the same p-bit value, which
 *   must be x; an exact root met on the way is rounded directly.
 *
 * Inputs (pcu_ens_case_*): ties, m = 1, m up to 40, minimisers exactly on a
 * data value and exactly on the edge of a kink (h'_+(v) = 0), lambda/eta
 * = 1e-30 and 1e30, exponents to 2^+-200, ties at p+1 bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_ENS UINT64_C(0x70632d656e73)       /* "pc-ens" */
#define STREAM_ENSB UINT64_C(0x70632d656e7362)    /* "pc-ensb" */

typedef struct {
    pc_ctx *ctx;
    pcu_ens_case cs;
    mpfr_t *w;            /* n outputs at p bits */
    unsigned long wcap;
    mpfr_ptr *col;        /* column pointers, m */
    unsigned long colcap;
} ens_run;

static void run_init(ens_run *R, pc_ctx *ctx)
{
    memset(R, 0, sizeof *R);
    R->ctx = ctx;
    pcu_ens_case_init(&R->cs, ctx->prec);
}

static void run_clear(ens_run *R)
{
    for (unsigned long i = 0; i < R->wcap; i++)
        mpfr_clear(R->w[i]);
    free(R->w);
    free(R->col);
    pcu_ens_case_clear(&R->cs);
}

/* Next instance (adversarial first) and fr_ens on it; returns its status. */
static int run_next(ens_run *R, frng_t *g, unsigned long c)
{
    if (c < pcu_ens_case_nadv)
        pcu_ens_case_adversarial(&R->cs, (unsigned)c);
    else
        pcu_ens_case_random(&R->cs, g);
    if (R->cs.n > R->wcap) {
        R->w = realloc(R->w, R->cs.n * sizeof *R->w);
        if (R->w == NULL)
            abort();
        for (unsigned long i = R->wcap; i < R->cs.n; i++)
            mpfr_init2(R->w[i], R->ctx->prec);
        R->wcap = R->cs.n;
    }
    if (R->cs.m > R->colcap) {
        R->col = realloc(R->col, R->cs.m * sizeof *R->col);
        if (R->col == NULL)
            abort();
        R->colcap = R->cs.m;
    }
    return fr_ens(R->w, R->cs.W, R->cs.m, R->cs.n, R->cs.lambda, R->cs.eta);
}

static void set_col(ens_run *R, unsigned long j)
{
    for (unsigned long i = 0; i < R->cs.m; i++)
        R->col[i] = R->cs.W[i * R->cs.n + j];
}

static void report(ens_run *R, unsigned long c, unsigned long j,
                   const char *why)
{
    pc_ctx *ctx = R->ctx;
    char b[3][48], bl[48], be[48], bx[96];
    for (int i = 0; i < 3; i++)
        b[i][0] = '\0';
    for (unsigned long i = 0; i < R->cs.m && i < 3; i++)
        pcu_fmt(b[i], sizeof b[i], R->cs.W[i * R->cs.n + j]);
    pcu_fmt(bl, sizeof bl, R->cs.lambda);
    pcu_fmt(be, sizeof be, R->cs.eta);
    pcu_fmt(bx, sizeof bx, R->w[j]);
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
             "case %lu (%s) m=%lu col %lu W={%s,%s,%s%s} lambda=%s eta=%s: "
             "ens=%s: %s", c, R->cs.kind, R->cs.m, j, b[0], b[1], b[2],
             R->cs.m > 3 ? ",..." : "", bl, be, bx, why);
}

int pc_ens_certificate(pc_ctx *ctx)
{
    ens_run R;
    frng_t g;
    unsigned long ndata = 0, nexact = 0, nround = 0, ndata_round = 0;

    ctx->function = "ens";
    ctx->vector = "ens";
    ctx->claim = "002 (14),(16): ENS = argmin sum_i phi(w_i - w) (exact subgradient certificate of the rounded value)";
    run_init(&R, ctx);
    frng_init(&g, ctx->seed, STREAM_ENS);
    for (unsigned long c = 0; c < pcu_ens_case_nadv + ctx->cases; c++) {
        int st = run_next(&R, &g, c);
        ctx->ran++;
        const char *why = NULL;
        unsigned long j = 0;
        if (st != FR_OK)
            why = fr_strerror(st);
        for (j = 0; j < R.cs.n && why == NULL; j++) {
            pcu_ens1d h;
            int exact = 0, isdata = 0;
            set_col(&R, j);
            if (pcu_ens1d_init(&h, R.col, R.cs.m, R.cs.lambda, R.cs.eta)) {
                why = "internal error";
            } else {
                int rc = pcu_cert_rn(pcu_ens1d_dsign, &h, R.w[j], 0, &exact, &why);
                if (rc == 0) {
                    why = NULL;
                    for (unsigned long i = 0; i < R.cs.m; i++)
                        isdata |= mpfr_equal_p(R.col[i], R.w[j]);
                    ndata += isdata && exact;
                    ndata_round += isdata && !exact;
                    exact ? nexact++ : nround++;
                }
            }
            pcu_ens1d_clear(&h);
            if (why)
                break;
        }
        if (why && ctx->failed++ == 0)
            report(&R, c, j < R.cs.n ? j : 0, why);
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu columns exact (%lu on a data value), %lu correctly rounded "
                 "(%lu of them equal to a data value)", nexact, ndata, nround,
                 ndata_round);
    run_clear(&R);
    return ctx->failed ? 1 : 0;
}

/* Bisection on the sign of h' (see the header).  Returns NULL if RN(x*) is
 * x, else the reason.  *iters receives the number of sign evaluations. */
static const char *bisect(pcu_ens1d *h, mpfr_ptr *col, unsigned long m,
                          const mpfr_t x, mpfr_t lo, mpfr_t hi, mpfr_t mid,
                          mpfr_t rl, mpfr_t rh, unsigned long *iters)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    unsigned long cap = 8UL * (unsigned long)p + 2000;
    mpfr_ptr mn = col[0], mx = col[0];
    for (unsigned long i = 1; i < m; i++) {
        if (mpfr_cmp(col[i], mn) < 0)
            mn = col[i];
        if (mpfr_cmp(col[i], mx) > 0)
            mx = col[i];
    }
    /* x* in [min, max]: h'_-(min) <= 0 <= h'_+(max) */
    if (pcu_set(lo, mn) || pcu_set(hi, mx))
        return "internal error";
    *iters = 0;
    for (;;) {
        mpfr_set(rl, lo, MPFR_RNDN);
        mpfr_set(rh, hi, MPFR_RNDN);
        if (mpfr_equal_p(rl, rh))
            return mpfr_equal_p(rl, x) ? NULL : "bisection's minimiser rounds elsewhere";
        if (++*iters > cap)   /* x* is a tie (a midpoint at p+1 bits) */
            return mpfr_equal_p(rl, x) || mpfr_equal_p(rh, x)
                       ? NULL : "bisection's bracket excludes x";
        if (mpfr_sgn(lo) < 0 && mpfr_sgn(hi) > 0) {
            mpfr_set_prec(mid, 2);
            mpfr_set_zero(mid, 1);
        } else if (pcu_mid(mid, lo, hi)) {
            return "internal error";
        }
        int sl = pcu_ens1d_dsign(h, mid, -1);
        if (sl == 2)
            return "internal error";
        if (sl > 0) {                  /* mid > x* */
            mpfr_swap(hi, mid);
            continue;
        }
        int sr = h->last_eq ? pcu_ens1d_dsign(h, mid, +1) : sl;
        if (sr == 2)
            return "internal error";
        if (sr >= 0) {                 /* x* = mid exactly */
            mpfr_set(rl, mid, MPFR_RNDN);
            return mpfr_equal_p(rl, x) ? NULL : "exact minimiser found by bisection rounds elsewhere";
        }
        mpfr_swap(lo, mid);            /* mid < x* */
    }
}

int pc_ens_bisection(pc_ctx *ctx)
{
    ens_run R;
    frng_t g;
    mpfr_t lo, hi, mid, rl, rh;
    unsigned long total = 0, cols = 0, maxit = 0;

    ctx->function = "ens";
    ctx->vector = "ens";
    ctx->claim = "002 (14): ENS equals RN of the root of h' found by exact bisection (independent of the closed form)";
    run_init(&R, ctx);
    mpfr_inits2(64, lo, hi, mid, (mpfr_ptr)0);
    mpfr_inits2(ctx->prec, rl, rh, (mpfr_ptr)0);
    frng_init(&g, ctx->seed, STREAM_ENSB);
    for (unsigned long c = 0; c < pcu_ens_case_nadv + ctx->cases; c++) {
        int st = run_next(&R, &g, c);
        ctx->ran++;
        const char *why = NULL;
        unsigned long j = 0;
        if (st != FR_OK)
            why = fr_strerror(st);
        for (j = 0; j < R.cs.n && why == NULL; j++) {
            pcu_ens1d h;
            unsigned long it = 0;
            set_col(&R, j);
            if (pcu_ens1d_init(&h, R.col, R.cs.m, R.cs.lambda, R.cs.eta))
                why = "internal error";
            else
                why = bisect(&h, R.col, R.cs.m, R.w[j], lo, hi, mid, rl, rh, &it);
            pcu_ens1d_clear(&h);
            total += it;
            cols++;
            if (it > maxit)
                maxit = it;
            if (why)
                break;
        }
        if (why && ctx->failed++ == 0)
            report(&R, c, j < R.cs.n ? j : 0, why);
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu columns, %.1f bisection steps on average, %lu at most",
                 cols, cols ? (double)total / (double)cols : 0.0, maxit);
    mpfr_clears(lo, hi, mid, rl, rh, (mpfr_ptr)0);
    run_clear(&R);
    return ctx->failed ? 1 : 0;
}
