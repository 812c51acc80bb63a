/* SPDX-License-Identifier: Apache-2.0 */
/* check_median.c -- fr_median minimises sum_i |w - w_i| coordinatewise
 * (002 eq. (5)), with fedref's tie rule (fedref.h).
 *
 * For every column of W and w = fr_median(W)_j, exactly:
 *  - certificate 0 in sum_i sgn(w - w_i):  #{w_i < w} <= m/2 and
 *    #{w_i > w} <= m/2 (comparisons are exact);
 *  - tie rule: odd m gives the middle order statistic; even m gives the
 *    midpoint of the two middle order statistics, correctly rounded (it
 *    lies in the argmin interval, so the certificate holds for it too);
 *  - for m <= 8 a brute-force comparison: F(w) <= F(w_k) for every data
 *    value w_k, F(w) - F(w_k) summed exactly.
 * Inputs: ties (small pools, small integers), m = 1 and 2, even and odd m,
 * exponents up to 2^+-200 (midpoints that need rounding), equal values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_MED UINT64_C(0x70632d6d6564) /* "pc-med" */
#define MMAX 24
#define NMAX 3

static int cmp_ptr(const void *a, const void *b)
{
    return mpfr_cmp(*(mpfr_ptr const *)a, *(mpfr_ptr const *)b);
}

typedef struct { long m, e; } dy;
static const struct { unsigned m; dy w[6]; } adv[] = {
    {1, {{7, 0}}},
    {1, {{-3, -200}}},
    {2, {{1, 0}, {1, 0}}},
    {2, {{0, 0}, {1, 0}}},
    {2, {{1, 200}, {1, -200}}},        /* midpoint needs rounding */
    {2, {{-1, 200}, {3, -200}}},
    {3, {{5, 0}, {5, 0}, {-1, 0}}},
    {4, {{0, 0}, {1, 0}, {1, 0}, {2, 0}}},
    {4, {{0, 0}, {0, 0}, {1, 0}, {1, 0}}},
    {4, {{3, 0}, {3, 0}, {3, 0}, {3, 0}}},
    {5, {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}}},
    {6, {{-1, 0}, {0, 0}, {0, 0}, {0, 0}, {2, 0}, {2, 0}}},
};
#define NADV (sizeof adv / sizeof adv[0])

int pc_median_argmin(pc_ctx *ctx)
{
    frng_t g;
    mpfr_prec_t p = ctx->prec;
    mpfr_t W[MMAX * NMAX], med[NMAX], mid, rn, pool[MMAX];
    mpfr_t da[MMAX], db[MMAX], tmp;
    mpfr_ptr col[MMAX], srt[MMAX], terms[2 * MMAX];
    unsigned long even_cases = 0, rounded_mid = 0;

    ctx->function = "median";
    ctx->vector = "median";
    ctx->claim = "002 (5): med(W) = argmin sum_i ||w - w_i||_1 (exact subgradient certificate, tie rule)";
    for (int i = 0; i < MMAX * NMAX; i++)
        mpfr_init2(W[i], p);
    for (int i = 0; i < MMAX; i++)
        mpfr_inits2(64, pool[i], da[i], db[i], (mpfr_ptr)0);
    for (int j = 0; j < NMAX; j++)
        mpfr_init2(med[j], p);
    mpfr_inits2(64, mid, tmp, (mpfr_ptr)0);
    mpfr_init2(rn, p);
    frng_init(&g, ctx->seed, STREAM_MED);

    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        unsigned long m, n;
        if (c < NADV) {
            m = adv[c].m;
            n = 1;
            for (unsigned long i = 0; i < m; i++)
                mpfr_set_si_2exp(W[i], adv[c].w[i].m, adv[c].w[i].e, MPFR_RNDN);
        } else {
            unsigned long r = pcu_below(&g, 16);
            m = r == 0 ? 1 : r == 1 ? 2 : r == 2 ? 9 + pcu_below(&g, MMAX - 8)
                                                 : 1 + pcu_below(&g, 8);
            n = 1 + pcu_below(&g, NMAX);
            unsigned long vm = pcu_below(&g, 6);
            unsigned long np = 1 + pcu_below(&g, m);
            for (unsigned long q = 0; q < np; q++)
                pcu_rand_dyadic(pool[q], &g, 1 + (unsigned)pcu_below(&g, 30), -8, 8, 0);
            for (unsigned long i = 0; i < m * n; i++) {
                switch (vm) {
                case 0: case 1:
                    mpfr_set(W[i], pool[pcu_below(&g, np)], MPFR_RNDN);
                    break;
                case 2:
                    mpfr_set_si(W[i], (long)pcu_below(&g, 5) - 2, MPFR_RNDN);
                    break;
                case 3:
                    pcu_rand_dyadic(W[i], &g, 1 + (unsigned)pcu_below(&g, 64), -200, 200, 0);
                    break;
                default:
                    pcu_rand_dyadic(W[i], &g, 1 + (unsigned)pcu_below(&g, 64), -8, 8, 0);
                }
            }
        }
        ctx->ran++;
        const char *why = NULL;
        unsigned long jbad = 0;
        int st = fr_median(med, W, m, n);
        if (st != FR_OK)
            why = fr_strerror(st);
        for (unsigned long j = 0; j < n && why == NULL; j++) {
            mpfr_ptr w = med[j];
            jbad = j;
            for (unsigned long i = 0; i < m; i++)
                col[i] = srt[i] = W[i * n + j];
            /* certificate */
            unsigned long lt = 0, gt = 0;
            for (unsigned long i = 0; i < m; i++) {
                int s = mpfr_cmp(col[i], w);
                lt += s < 0;
                gt += s > 0;
            }
            if (!mpfr_number_p(w) || 2 * lt > m || 2 * gt > m) {
                why = "0 not in the subdifferential (#{w_i<w} or #{w_i>w} > m/2)";
                break;
            }
            /* tie rule, from an independent sort */
            qsort(srt, m, sizeof srt[0], cmp_ptr);
            if (m % 2) {
                if (mpfr_cmp(w, srt[m / 2]) != 0)
                    why = "odd m: not the middle order statistic";
            } else {
                even_cases++;
                if (pcu_mid(mid, srt[m / 2 - 1], srt[m / 2])) {
                    why = "internal error";
                    break;
                }
                rounded_mid += mpfr_set(rn, mid, MPFR_RNDN) != 0;
                if (mpfr_cmp(w, rn) != 0)
                    why = "even m: not the rounded midpoint of the middle pair";
            }
            if (why || m > 8)
                continue;
            /* brute force: F(w) <= F(w_k) for every data value */
            for (unsigned long i = 0; i < m; i++)
                if (pcu_sub(tmp, w, col[i]) || pcu_abs(da[i], tmp))
                    why = "internal error";
            for (unsigned long k = 0; k < m && why == NULL; k++) {
                for (unsigned long i = 0; i < m; i++) {
                    if (pcu_sub(tmp, col[i], col[k]) || pcu_abs(db[i], tmp))
                        why = "internal error";
                    mpfr_neg(db[i], db[i], MPFR_RNDN);
                    terms[i] = da[i];
                    terms[m + i] = db[i];
                }
                if (why == NULL && pcu_sign_sum(terms, 2 * m) > 0)
                    why = "a data value has a lower objective";
            }
        }
        if (why && ctx->failed++ == 0) {
            char b[4][64], bw[96];
            for (int i = 0; i < 4; i++)
                b[i][0] = '\0';
            for (unsigned long i = 0; i < m && i < 4; i++)
                pcu_fmt(b[i], sizeof b[i], W[i * n + jbad]);
            pcu_fmt(bw, sizeof bw, med[jbad]);
            pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "m=%lu column %lu {%s,%s,%s,%s%s}: med=%s: %s", m, jbad,
                     b[0], b[1], b[2], b[3], m > 4 ? ",..." : "", bw, why);
        }
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu even-m columns, %lu with a rounded midpoint", even_cases,
                 rounded_mid);
    for (int i = 0; i < MMAX * NMAX; i++)
        mpfr_clear(W[i]);
    for (int i = 0; i < MMAX; i++)
        mpfr_clears(pool[i], da[i], db[i], (mpfr_ptr)0);
    for (int j = 0; j < NMAX; j++)
        mpfr_clear(med[j]);
    mpfr_clears(mid, tmp, rn, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
