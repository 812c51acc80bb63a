/* SPDX-License-Identifier: Apache-2.0 */
/* audit_lemma1.c -- module ssca's section of `fedref audit` for Lemma 1 and
 * Problem 5 (000 (41), (43)-(45), Sec. III-B): ref (MPFR, 256 bits) and fast
 * (binary64) on embedded default inputs drawn from the audit seed (frng
 * stream 7100): Lemma 1 at the constants of 000 Sec. VI (c = 1e5,
 * U = 0.13, tau in {0.2, 0.05, 0.03, 0.1}) with d = 1000 and C chosen for
 * each branch; Problem 5 with M = 3 constraints near activity, d = 50,
 * t0 = tau W (tau = 0.2, W = 0.75), c = 1e5 and c = 10, and one instance
 * with a duplicated constraint.  Each row: the branch (Lemma 1) or the
 * active-set iterations of ref/fast (Problem 5), fast's largest error
 * against ref, its proved bound (ff_ssca_lemma1_bound,
 * ff_ssca_problem5_bound) and the ratio; for Problem 5 also ref's
 * certificate (gap, radius, stationarity, feasibility, complementarity)
 * and fast's (gap, radius).  A row fails when a status differs or an
 * error exceeds its bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 256
#define L1_D 1000
#define P5_M 3
#define P5_D 50

/* A binary64 in [-2^e, 2^e) with a 53-bit significand. */
static double draw(frng_t *g, int e)
{
    return ldexp((double)frng_u53(g) * 0x1p-52 - 1, e);
}

/* |x - r| rounded up, x binary64, r at REF_PREC. */
static double err_of(double x, mpfr_srcptr r, mpfr_ptr t)
{
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_sub(t, t, r, MPFR_RNDA);
    return fabs(mpfr_get_d(t, MPFR_RNDU));
}

static const char *brname(int b)
{
    return b == FR_SSCA_L1_DNONPOS ? "D<=0" : b == FR_SSCA_L1_ZERO ? "zero"
         : b == FR_SSCA_L1_INTERIOR ? "interior" : b == FR_SSCA_L1_CLIPC ? "clip c" : "?";
}

/* One Lemma 1 row; returns 1 on a failure. */
static int l1_row(const char *what, const double *a, size_t d, double C, double tau, double c,
                  double U, mpfr_t *ma, mpfr_t *mw)
{
    mpfr_t nu, mC, mt, mc, mU, t;
    mpfr_init2(nu, REF_PREC);
    mpfr_inits2(53, mC, mt, mc, mU, (mpfr_ptr)0);
    mpfr_init2(t, REF_PREC + 64);
    mpfr_set_d(mC, C, MPFR_RNDN);
    mpfr_set_d(mt, tau, MPFR_RNDN);
    mpfr_set_d(mc, c, MPFR_RNDN);
    mpfr_set_d(mU, U, MPFR_RNDN);
    double *w = malloc(d * sizeof *w), *wb = malloc(d * sizeof *wb), fnu = 0, nb = 0;
    int br = 0, fbr = 0, bad = 0;
    if (w == NULL || wb == NULL) {
        free(w); free(wb);
        cli_error("out of memory", "audit ssca lemma1");
        return 1;
    }
    int sr = fr_ssca_lemma1(nu, mw, &br, ma, d, mC, mt, mc, mU);
    int sf = ff_ssca_lemma1(&fnu, w, &fbr, a, d, C, tau, c, U);
    int sb = ff_ssca_lemma1_bound(&nb, wb, a, d, C, tau, c, U);
    double e = 0, rat = 0, bmax = nb;
    if (sr != FR_OK || sf != FR_OK || sb != FR_OK) {
        bad = 1;
    } else {
        e = err_of(fnu, nu, t);
        rat = nb > 0 ? e / nb : e > 0 ? INFINITY : 0;
        bad |= e > nb;
        for (size_t j = 0; j < d; j++) {
            double ej = err_of(w[j], mw[j], t);
            bad |= ej > wb[j];
            e = fmax(e, ej);
            bmax = fmax(bmax, wb[j]);
            if (wb[j] > 0) rat = fmax(rat, ej / wb[j]);
            else if (ej > 0) rat = INFINITY;
        }
    }
    printf("  %-30s %-9s %-9s %10.3g %10.3g %8.3f %9.3g  %s\n", what, brname(br), brname(fbr),
           e, bmax, rat, fnu, bad ? "FAIL" : "ok");
    mpfr_clears(nu, mC, mt, mc, mU, t, (mpfr_ptr)0);
    free(w); free(wb);
    return bad;
}

/* One Problem 5 row; returns 1 on a failure. */
static int p5_row(const char *what, const double *g0, const double *kap, const double *G,
                  size_t M, size_t d, double t0, double tau, double c)
{
    mpfr_t mw[P5_D], ms[P5_M], mn[P5_M], mg0[P5_D], mk[P5_M], mG[P5_M * P5_D], mt0, mtau, mc, t;
    for (size_t j = 0; j < d; j++) {
        mpfr_init2(mw[j], REF_PREC);
        mpfr_init2(mg0[j], 53);
        mpfr_set_d(mg0[j], g0[j], MPFR_RNDN);
    }
    for (size_t m = 0; m < M; m++) {
        mpfr_inits2(REF_PREC, ms[m], mn[m], (mpfr_ptr)0);
        mpfr_init2(mk[m], 53);
        mpfr_set_d(mk[m], kap[m], MPFR_RNDN);
    }
    for (size_t i = 0; i < M * d; i++) {
        mpfr_init2(mG[i], 53);
        mpfr_set_d(mG[i], G[i], MPFR_RNDN);
    }
    mpfr_inits2(53, mt0, mtau, mc, (mpfr_ptr)0);
    mpfr_init2(t, REF_PREC + 64);
    mpfr_set_d(mt0, t0, MPFR_RNDN);
    mpfr_set_d(mtau, tau, MPFR_RNDN);
    mpfr_set_d(mc, c, MPFR_RNDN);
    fr_ssca_kkt rk = {0}, fk = {0};
    double w[P5_D], s[P5_M], nu[P5_M], wb[P5_D], sb[P5_M];
    double ta = bench_now();
    int sr = fr_ssca_problem5(mw, ms, mn, &rk, mg0, mk, mG, M, d, mt0, mtau, mc);
    double tb = bench_now();
    int sf = ff_ssca_problem5(w, s, nu, &fk, g0, kap, G, M, d, t0, tau, c);
    double tc = bench_now();
    int sbs = ff_ssca_problem5_bound(wb, sb, g0, kap, G, M, d, t0, tau, c);
    int bad = sr != FR_OK || sf != FR_OK || sbs != FR_OK;
    double ew = 0, es = 0, bw = 0, bs = 0;
    char act[P5_M + 1];
    if (!bad) {
        for (size_t j = 0; j < d; j++) {
            double e = err_of(w[j], mw[j], t);
            bad |= e > wb[j];
            ew = fmax(ew, e);
            bw = fmax(bw, wb[j]);
        }
        for (size_t m = 0; m < M; m++) {
            double e = err_of(s[m], ms[m], t);
            bad |= e > sb[m];
            es = fmax(es, e);
            bs = fmax(bs, sb[m]);
            act[m] = mpfr_zero_p(mn[m]) ? '0' : mpfr_equal_p(mn[m], mc) ? 'c' : 'f';
        }
    }
    act[M] = '\0';
    printf("  %-24s %-4s %3lu/%-3lu w %9.3g <= %9.3g  s %9.3g <= %9.3g  %s\n", what, act, rk.iters,
           fk.iters, ew, bw, es, bs, bad ? "FAIL" : "ok");
    printf("  %-24s      ref cert: gap %.3g radius %.3g stat %.3g feas %.3g comp %.3g;"
           " fast gap %.3g radius %.3g; ref/fast time %.0f\n", "", rk.gap, rk.radius, rk.stat,
           rk.feas, rk.comp, fk.gap, fk.radius, tc > tb ? (tb - ta) / (tc - tb) : 0.0);
    for (size_t j = 0; j < d; j++)
        mpfr_clears(mw[j], mg0[j], (mpfr_ptr)0);
    for (size_t m = 0; m < M; m++)
        mpfr_clears(ms[m], mn[m], mk[m], (mpfr_ptr)0);
    for (size_t i = 0; i < M * d; i++)
        mpfr_clear(mG[i]);
    mpfr_clears(mt0, mtau, mc, t, (mpfr_ptr)0);
    return bad;
}

int audit_ssca_lemma1(uint64_t seed)
{
    frng_t g;
    frng_init(&g, seed, 7100);
    int failures = 0;
    /* ---- Lemma 1 ---- */
    double *a = malloc(L1_D * sizeof *a);
    mpfr_t *ma = malloc(L1_D * sizeof *ma), *mw = malloc(L1_D * sizeof *mw);
    if (a == NULL || ma == NULL || mw == NULL) {
        free(a); free(ma); free(mw);
        cli_error("out of memory", "audit ssca lemma1");
        return 1;
    }
    double b = 0;
    for (size_t j = 0; j < L1_D; j++) {
        a[j] = draw(&g, -6);
        b += a[j] * a[j];
        mpfr_init2(ma[j], 53);
        mpfr_set_d(ma[j], a[j], MPFR_RNDN);
        mpfr_init2(mw[j], REF_PREC);
    }
    printf("\nssca Lemma 1 (000 (43)-(45)): ref at %d bits vs fast, A of d = %d entries in"
           " [-2^-6, 2^-6) (b = %.4g),\n  c = 1e5, U = 0.13; C per row; error = max over nu and"
           " omega of |fast - ref|, bound = ff_ssca_lemma1_bound\n", REF_PREC, L1_D, b);
    printf("  %-30s %-9s %-9s %10s %10s %8s %9s\n", "case", "ref", "fast", "error", "bound", "err/bnd", "nu");
    static const double taus[4] = {0.2, 0.05, 0.03, 0.1};
    for (int k = 0; k < 4; k++) {
        char what[64];
        double tau = taus[k];
        /* interior: C - U = b / (8 tau); D <= 0: C - U = b / tau; U > C */
        snprintf(what, sizeof what, "tau %.2f interior", tau);
        failures += l1_row(what, a, L1_D, 0.13 + b / (8 * tau), tau, 1e5, 0.13, ma, mw);
        snprintf(what, sizeof what, "tau %.2f D <= 0", tau);
        failures += l1_row(what, a, L1_D, 0.13 + b / tau, tau, 1e5, 0.13, ma, mw);
        snprintf(what, sizeof what, "tau %.2f U > C", tau);
        failures += l1_row(what, a, L1_D, 0.05, tau, 1e5, 0.13, ma, mw);
    }
    /* near the clip: D (1 + tau c)^2 = b, nu^ = c */
    {
        double tau = 0.2, c = 1e5, q = (1 + tau * c) * (1 + tau * c);
        failures += l1_row("tau 0.20 nu^ ~ c (clip edge)", a, L1_D, 0.13 + (b - b / q) / (4 * tau), tau, c,
                           0.13, ma, mw);
        failures += l1_row("tau 0.20 D ~ 0", a, L1_D, 0.13 + b / (4 * tau), tau, c, 0.13, ma, mw);
    }
    for (size_t j = 0; j < L1_D; j++)
        mpfr_clears(ma[j], mw[j], (mpfr_ptr)0);
    free(a); free(ma); free(mw);
    /* ---- Problem 5 ---- */
    double g0[P5_D], G[P5_M * P5_D], kap[P5_M], t0 = 0.15, tau = 0.2;
    for (size_t j = 0; j < P5_D; j++)
        g0[j] = draw(&g, -2);
    for (size_t i = 0; i < P5_M * P5_D; i++)
        G[i] = draw(&g, -2);
    /* kappa near activity at the unconstrained minimiser w0 = -g0 / (2 t0):
     * one slack-ish (-0.5), one near 0, one violated (+2) */
    static const double off[P5_M] = {-0.5, 0.01, 2};
    for (size_t m = 0; m < P5_M; m++) {
        double v = 0, q = 0;
        for (size_t j = 0; j < P5_D; j++) {
            double w0 = -g0[j] / (2 * t0);
            v += G[m * P5_D + j] * w0;
            q += w0 * w0;
        }
        kap[m] = -(v + tau * q) + off[m];
    }
    printf("\nssca Problem 5 (000 Sec. III-B, (7), (15)): ref at %d bits vs fast, M = %d, d = %d,"
           " t0 = 0.15, tau = 0.2;\n  multipliers 0 / c / f(ree) as ref found them, active-set"
           " iterations ref/fast, errors <= ff_ssca_problem5_bound\n", REF_PREC, P5_M, P5_D);
    failures += p5_row("c = 1e5 (000 Sec. VI)", g0, kap, G, P5_M, P5_D, t0, tau, 1e5);
    failures += p5_row("c = 10", g0, kap, G, P5_M, P5_D, t0, tau, 10);
    failures += p5_row("c = 1e5, tau = 0", g0, kap, G, P5_M, P5_D, t0, 0, 1e5);
    /* a duplicated constraint: row 1 repeated as row 2 */
    for (size_t j = 0; j < P5_D; j++)
        G[2 * P5_D + j] = G[P5_D + j];
    kap[2] = kap[1];
    failures += p5_row("duplicate, c = 10", g0, kap, G, P5_M, P5_D, t0, tau, 10);
    printf("Problem 5's bound is the duality gap's (sqrt(gap/t0)): of order u with every multiplier\n"
           "strictly at a bound, of order sqrt(u) with an active constraint whose multiplier is free.\n");
    return failures;
}
