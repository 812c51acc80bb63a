/* SPDX-License-Identifier: Apache-2.0 */
/* audit_net.c -- the two-layer network's section of `fedref audit` (000
 * Sec. V): on an embedded default batch (L = 10 classes, J = 16 hidden
 * cells, P = 32 features split among I = 3 clients as 8 + 10 + 14, nb = 20
 * samples, drawn from the frng stream (seed, 3000)), each function of the
 * network run by ref (MPFR, 256 bits, correctly rounded) and fast
 * (binary64): the largest error of fast against ref over the outputs, in
 * absolute terms, in ulps and as a fraction of the proved bound
 * (ff_ssca_net*_bound); a row fails when fast is outside its bound or a
 * status is not FR_OK.  Also: the feature-based messages of ref equal the
 * blocks of ref's sample-based gradient (h exact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define AL 10
#define AJ 16
#define AP 32
#define ANB 20
#define AI 3
#define AD (AJ * (AL + AP))
#define REF_PREC 256

static const size_t Pi[AI] = {8, 10, 14}, p0[AI] = {0, 8, 18};

typedef struct {
    double err, frac, ulps;   /* largest absolute error, error / bound, ulps */
    size_t n;                 /* outputs compared */
    int bad;                  /* an output outside its bound */
} cmp_t;

static void compare(cmp_t *c, const double *fast, mpfr_t *const ref, const double *bound, size_t k)
{
    mpfr_t d;
    mpfr_init2(d, 2 * REF_PREC);
    for (size_t i = 0; i < k; i++) {
        mpfr_sub_d(d, ref[i], fast[i], MPFR_RNDN);              /* exact at 512 bits */
        mpfr_abs(d, d, MPFR_RNDN);
        double e = mpfr_get_d(d, MPFR_RNDU), x = fabs(mpfr_get_d(ref[i], MPFR_RNDN));
        double ulp = x == 0 ? 0x1p-1074 : fmax(ldexp(1, ilogb(x) - 52), 0x1p-1074);
        double slack = x * 0x1p-255;                             /* ref's own rounding */
        c->err = fmax(c->err, e);
        c->ulps = fmax(c->ulps, e / ulp);
        if (bound[i] > 0)
            c->frac = fmax(c->frac, e / bound[i]);
        c->bad |= !isfinite(fast[i]) || !(e <= bound[i] + slack);
    }
    c->n += k;
    mpfr_clear(d);
}

static mpfr_t *mp_array(const double *x, size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc(k * sizeof *a);
    if (a != NULL)
        for (size_t i = 0; i < k; i++) {
            mpfr_init2(a[i], p);
            if (x != NULL)
                mpfr_set_d(a[i], x[i], MPFR_RNDN);
        }
    return a;
}

static void mp_free(mpfr_t *a, size_t k)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

static void row(const char *name, const char *outs, const cmp_t *c, int st, double tr, double tf)
{
    if (st != 0) {
        printf("  %-18s %-22s status failed\n", name, outs);
        return;
    }
    printf("  %-18s %-22s %6zu %11.3g %9.3g %11.3g %9.1f %9.3f%s\n", name, outs, c->n, c->err, c->ulps,
           c->frac, tr * 1e3, tf * 1e3, c->bad ? "  OUTSIDE THE BOUND" : "");
}

int audit_ssca_net(uint64_t seed)
{
    frng_t g;
    frng_init(&g, seed, 3000);
    static double w[AD], Z[ANB * AP], H[AI * ANB * AJ], w1i[AI][AJ * 14], Zi[AI][ANB * 14];
    static size_t y[ANB];
    for (size_t k = 0; k < AD; k++)                             /* Glorot-like scales, dyadic */
        w[k] = ((double)(frng_u53(&g) >> 33) - 0x1p19) * (k < AL * AJ ? 0x1p-21 : 0x1p-22);
    for (size_t k = 0; k < ANB * AP; k++)
        Z[k] = (double)(frng_u53(&g) >> 45) * 0x1p-8;          /* features in [0, 1), MNIST-like */
    for (size_t n = 0; n < ANB; n++) {
        uint64_t r;
        frng_below(&g, AL, &r);
        y[n] = (size_t)r;
    }
    for (size_t i = 0; i < AI; i++) {
        for (size_t j = 0; j < AJ; j++)
            for (size_t q = 0; q < Pi[i]; q++)
                w1i[i][j * Pi[i] + q] = w[AL * AJ + j * AP + p0[i] + q];
        for (size_t n = 0; n < ANB; n++)
            for (size_t q = 0; q < Pi[i]; q++)
                Zi[i][n * Pi[i] + q] = Z[n * AP + p0[i] + q];
    }
    printf("\nssca network (000 Sec. V): ref at %d bits vs fast, default batch L = %d, J = %d, P = %d "
           "(clients %zu + %zu + %zu), nb = %d\n", REF_PREC, AL, AJ, AP, Pi[0], Pi[1], Pi[2], ANB);
    printf("  %-18s %-22s %6s %11s %9s %11s %9s %9s\n", "function", "outputs", "n", "max error", "ulps",
           "error/bound", "ref ms", "fast ms");
    int failures = 0;
    mpfr_t *rw = mp_array(w, AD, 53), *rZ = mp_array(Z, ANB * AP, 53), *rg = mp_array(NULL, AD, REF_PREC);
    mpfr_t *rH = mp_array(NULL, AI * ANB * AJ, 4 * REF_PREC), *rA = mp_array(NULL, AL * AJ, REF_PREC);
    mpfr_t *rB = mp_array(NULL, AJ * 14, REF_PREC), *rf = mp_array(NULL, 2, REF_PREC);
    if (!rw || !rZ || !rg || !rH || !rA || !rB || !rf) {
        cli_error("out of memory", "audit ssca network");
        failures = 1;
        goto done;
    }
    /* ssca_net: f and g */
    {
        double f, gg[AD], fb, gb[AD];
        cmp_t c = {0};
        double t0 = bench_now();
        int s1 = fr_ssca_net(rf[0], rg, rw, AL, AJ, AP, rZ, y, ANB);
        double t1 = bench_now();
        int s2 = ff_ssca_net(&f, gg, w, AL, AJ, AP, Z, y, ANB);
        double t2 = bench_now();
        int s3 = ff_ssca_net_bound(&fb, gb, w, AL, AJ, AP, Z, y, ANB);
        int st = s1 != FR_OK || s2 != FR_OK || s3 != FR_OK;
        if (!st) {
            compare(&c, &f, rf, &fb, 1);
            compare(&c, gg, rg, gb, AD);
        }
        row("ssca_net", "f, g (1 + 672)", &c, st, t1 - t0, t2 - t1);
        failures += st || c.bad;
    }
    /* ssca_net_partial: the three clients' h_i (ref exact at 1024 bits, compared rounded) */
    {
        cmp_t c = {0};
        int st = 0;
        double tr = 0, tf = 0;
        for (size_t i = 0; i < AI && !st; i++) {
            mpfr_t *a = mp_array(w1i[i], AJ * Pi[i], 53), *b = mp_array(Zi[i], ANB * Pi[i], 53);
            double h[ANB * AJ], hb[ANB * AJ];
            double t0 = bench_now();
            st |= !a || !b || fr_ssca_net_partial(rH + i * ANB * AJ, a, b, ANB, AJ, Pi[i]) != FR_OK;
            double t1 = bench_now();
            st |= ff_ssca_net_partial(h, w1i[i], Zi[i], ANB, AJ, Pi[i]) != FR_OK;
            double t2 = bench_now();
            st |= ff_ssca_net_partial_bound(hb, w1i[i], Zi[i], ANB, AJ, Pi[i]) != FR_OK;
            tr += t1 - t0;
            tf += t2 - t1;
            if (!st)
                compare(&c, h, rH + i * ANB * AJ, hb, ANB * AJ);
            for (size_t k = 0; k < ANB * AJ && !st; k++)
                H[i * ANB * AJ + k] = h[k];                    /* fast's messages, for fast's top/bottom */
            mp_free(a, AJ * Pi[i]);
            mp_free(b, ANB * Pi[i]);
        }
        row("ssca_net_partial", "h_i (3 x 320)", &c, st, tr, tf);
        failures += st || c.bad;
    }
    /* ssca_net_top: f and A; ref from its exact h_i, fast from fast's h_i,
     * its bound from the same binary64 H (the rounding of h is a rounding
     * of fast's input, so the row compares ref on fast's H) */
    {
        mpfr_t *rHd = mp_array(H, AI * ANB * AJ, 53);
        double f, A[AL * AJ], fb, Ab[AL * AJ];
        cmp_t c = {0};
        double t0 = bench_now();
        int s1 = rHd ? fr_ssca_net_top(rf[1], rA, rHd, AI, rw, y, ANB, AL, AJ) : FR_ENOMEM;
        double t1 = bench_now();
        int s2 = ff_ssca_net_top(&f, A, H, AI, w, y, ANB, AL, AJ);
        double t2 = bench_now();
        int s3 = ff_ssca_net_top_bound(&fb, Ab, H, AI, w, y, ANB, AL, AJ);
        int st = s1 != FR_OK || s2 != FR_OK || s3 != FR_OK;
        if (!st) {
            compare(&c, &f, rf + 1, &fb, 1);
            compare(&c, A, rA, Ab, AL * AJ);
        }
        row("ssca_net_top", "f, A (1 + 160)", &c, st, t1 - t0, t2 - t1);
        failures += st || c.bad;
        /* bottom, per client, on the same H */
        cmp_t cb = {0};
        double tr = 0, tf = 0;
        int sb = !rHd;
        for (size_t i = 0; i < AI && !sb; i++) {
            mpfr_t *b = mp_array(Zi[i], ANB * Pi[i], 53);
            double B[AJ * 14], Bb[AJ * 14];
            double u0 = bench_now();
            sb |= !b || fr_ssca_net_bottom(rB, rHd, AI, rw, y, b, ANB, AL, AJ, Pi[i]) != FR_OK;
            double u1 = bench_now();
            sb |= ff_ssca_net_bottom(B, H, AI, w, y, Zi[i], ANB, AL, AJ, Pi[i]) != FR_OK;
            double u2 = bench_now();
            sb |= ff_ssca_net_bottom_bound(Bb, H, AI, w, y, Zi[i], ANB, AL, AJ, Pi[i]) != FR_OK;
            tr += u1 - u0;
            tf += u2 - u1;
            if (!sb)
                compare(&cb, B, rB, Bb, AJ * Pi[i]);
            mp_free(b, ANB * Pi[i]);
        }
        row("ssca_net_bottom", "B_i (16 x (8+10+14))", &cb, sb, tr, tf);
        failures += sb || cb.bad;
        mp_free(rHd, AI * ANB * AJ);
    }
    /* ref's feature-based messages from its exact h_i equal its gradient's blocks */
    {
        int same = fr_ssca_net_top(rf[1], rA, rH, AI, rw, y, ANB, AL, AJ) == FR_OK
                && mpfr_equal_p(rf[1], rf[0]);
        for (size_t k = 0; k < AL * AJ && same; k++)
            same = mpfr_equal_p(rA[k], rg[k]);
        for (size_t i = 0; i < AI && same; i++) {
            mpfr_t *b = mp_array(Zi[i], ANB * Pi[i], 53);
            same = b && fr_ssca_net_bottom(rB, rH, AI, rw, y, b, ANB, AL, AJ, Pi[i]) == FR_OK;
            for (size_t j = 0; j < AJ && same; j++)
                for (size_t q = 0; q < Pi[i] && same; q++)
                    same = mpfr_equal_p(rB[j * Pi[i] + q], rg[AL * AJ + j * AP + p0[i] + q]);
            mp_free(b, ANB * Pi[i]);
        }
        printf("  ref: top and bottom from the exact h_i = ssca_net's f and g, bit for bit (20)-(21): %s\n",
               same ? "yes" : "NO");
        failures += !same;
    }
    printf("  error/bound <= 1 is required (the bounds are proved in fast/ssca/net_eval.c)\n");
done:
    mp_free(rw, AD);
    mp_free(rZ, ANB * AP);
    mp_free(rg, AD);
    mp_free(rH, AI * ANB * AJ);
    mp_free(rA, AL * AJ);
    mp_free(rB, AJ * 14);
    mp_free(rf, 2);
    return failures;
}
