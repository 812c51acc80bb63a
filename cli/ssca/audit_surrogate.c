/* SPDX-License-Identifier: Apache-2.0 */
/* audit_surrogate.c -- module ssca's section of `fedref audit` for the
 * surrogate recursions (000 (3), (5), (9)-(12), (14), (35)-(39)): each
 * function run by ref (MPFR, 256 bits) and fast (binary64) on embedded
 * default inputs at the scale of 000 Sec. VI (I = 10 clients, N_i = 6000,
 * B = 10, the network's layout with J = 8 hidden cells: d = J (L + P) =
 * 6352), the largest error of fast against ref in ulps and as a fraction
 * of its proved bound (ff_*_bound); five rounds of the server step
 * (35)-(39) with its drift against the runs' tolerance; and the counts of
 * reals per round of 000's configurations (fedspec/ssca.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 256
#define NC 10                 /* clients */
#define NI 6000               /* N_i */
#define BB 10                 /* batch */
#define DJ 8                  /* hidden cells of the audit's network */
#define DD (DJ * (10 + 784))  /* d = J (L + P) */

typedef struct {
    double ulps, frac;        /* largest error in ulps, largest error / bound */
    int fail;
} stat_t;

/* Compare fast x[k] (bound b[k]) with ref r[k]. */
static void compare(stat_t *s, const double *x, mpfr_t *const r, const double *b, size_t n)
{
    mpfr_t t;
    mpfr_init2(t, REF_PREC + 64);
    for (size_t k = 0; k < n; k++) {
        mpfr_set_d(t, x[k], MPFR_RNDN);
        mpfr_sub(t, t, r[k], MPFR_RNDA);
        double err = fabs(mpfr_get_d(t, MPFR_RNDU)), ex = fabs(mpfr_get_d(r[k], MPFR_RNDN));
        double ulp = ex == 0 ? 0x1p-1074 : fmax(ldexp(1, ilogb(ex) - 52), 0x1p-1074);
        s->ulps = fmax(s->ulps, err / ulp);
        if (b) {
            double bound = b[k] * (1 + 0x1p-50);      /* ref itself within 2^-256 */
            s->frac = fmax(s->frac, err / b[k]);
            s->fail |= !(err <= bound);
        }
    }
    mpfr_clear(t);
}

static mpfr_t *mp(const double *x, size_t n)
{
    mpfr_t *a = malloc(n * sizeof *a);
    if (a)
        for (size_t k = 0; k < n; k++) {
            mpfr_init2(a[k], REF_PREC);
            mpfr_set_d(a[k], x ? x[k] : 0, MPFR_RNDN);
        }
    return a;
}

static void mp_free(mpfr_t *a, size_t n)
{
    if (a == NULL) return;
    for (size_t k = 0; k < n; k++) mpfr_clear(a[k]);
    free(a);
}

static double draw(frng_t *g, double scale)
{
    return ((double)frng_u53(g) * 0x1p-53 * 2 - 1) * scale;
}

static int row(const char *name, const char *eq, stat_t s)
{
    printf("  %-15s %-22s %10.3g %10.3g  %s\n", name, eq, s.ulps, s.frac, s.fail ? "FAIL" : "ok");
    return s.fail;
}

/* The message counts of 000 Sec. VI (N = 60000, I = 10, P = 784, J = 128,
 * L = 10; K = 784 there is P: Sec. V defines K = P + L). */
static void message_counts(void)
{
    const size_t L = 10, J = 128, P = 784, d = J * (L + P), d0 = L * J;
    printf("\nmessages per round, reals (000 Sec. VI: I = 10, P = 784, J = 128, L = 10, d = %zu):\n", d);
    printf("  %-36s %4s %12s %12s %12s %12s %14s\n", "configuration", "M", "down/client", "peer/client",
           "up/client", "up (aggr.)", "total/round");
    for (size_t M = 0; M <= 1; M++) {
        fr_ssca_sample_msgs s;
        if (fr_ssca_msgs_sample(&s, d, M) == FR_OK)
            printf("  %-36s %4zu %12llu %12s %12llu %12s %14llu\n", "sample-based (Alg. 1-2)", M,
                   (unsigned long long)s.down, "-", (unsigned long long)s.up, "-",
                   (unsigned long long)(10 * (s.down + s.up)));
    }
    static const size_t Bs[3] = {10, 100, 1000};
    for (int h = 0; h < 2; h++)
        for (size_t M = 0; M <= 1; M++)
            for (int b = 0; b < 3; b++) {
                /* P_i: 4 clients with 79 features, 6 with 78 */
                unsigned long long tot = 0, down = 0, peer = 0, up = 0, agg = 0;
                for (int i = 0; i < 10; i++) {
                    size_t Pi = i < 4 ? 79 : 78;
                    fr_ssca_feature_msgs f;
                    if (fr_ssca_msgs_feature(&f, d0, J * Pi, h ? J * Pi : J, Bs[b], M) != FR_OK) continue;
                    tot += f.down + 9 * f.peer + f.up;       /* peer: to each of the 9 others */
                    if (i == 0) { down = f.down; peer = f.peer; up = f.up; agg = f.up_agg; tot += f.up_agg; }
                }
                char cfg[64];
                snprintf(cfg, sizeof cfg, "feature-based B = %zu%s", Bs[b], h ? " (V-A: J P_i)" : "");
                printf("  %-36s %4zu %12llu %12llu %12llu %12llu %14llu\n", cfg, M, down, peer, up, agg, tot);
            }
    printf("  (client 1 of 10 with P_1 = 79; total: all downloads, uploads and the peer messages to the 9\n"
           "  others; feature-based peer = (M + 1) H B with H = J, the h_{0,i} of (2); \"V-A\": the products\n"
           "  omega_{1,j,p} z_{n,p} that Sec. V-A prints as the peer message, H = J P_i)\n");
}

int audit_ssca_surrogate(uint64_t seed)
{
    const size_t d = DD, nc = NC;
    frng_t g;
    frng_init(&g, seed, 3000);
    size_t N[NC];
    for (size_t i = 0; i < nc; i++) N[i] = NI + 500 * (i % 3);    /* unequal, >= B */
    double *w = malloc(d * sizeof *w), *G = malloc(nc * d * sizeof *G), *x = malloc(d * sizeof *x),
           *y = malloc(d * sizeof *y), *F = malloc(nc * sizeof *F), *b = malloc(2 * d * sizeof *b),
           *o = malloc(d * sizeof *o), *o2 = malloc(d * sizeof *o2);
    if (!w || !G || !x || !y || !F || !b || !o || !o2) {
        free(w); free(G); free(x); free(y); free(F); free(b); free(o); free(o2);
        cli_error("out of memory", "audit ssca");
        return 1;
    }
    for (size_t j = 0; j < d; j++) { w[j] = draw(&g, 0.1); x[j] = draw(&g, 0.5); y[j] = draw(&g, 0.5); }
    for (size_t k = 0; k < nc * d; k++) G[k] = draw(&g, 2);         /* a batch sum of 10 gradients */
    for (size_t i = 0; i < nc; i++) F[i] = 23 + draw(&g, 1);        /* 10 cross-entropy losses ~ 2.3 */
    const double rho = 0.9 * pow(2, -0.1), gp = 0.5, gam = 0.5 * pow(2, -0.1), tau = 0.2, lam = 1e-5;
    const double P = 1 - 0.9;                                         /* after round 1 */
    mpfr_t *rw = mp(w, d), *rG = mp(G, nc * d), *rx = mp(x, d), *ry = mp(y, d), *rF = mp(F, nc), *ro = mp(NULL, d);
    mpfr_t rr, rgp, rgam, rtau, rlam, rP, rf0;
    mpfr_inits2(REF_PREC, rr, rgp, rgam, rtau, rlam, rP, rf0, (mpfr_ptr)0);
    mpfr_set_d(rr, rho, MPFR_RNDN);
    mpfr_set_d(rgp, gp, MPFR_RNDN);
    mpfr_set_d(rgam, gam, MPFR_RNDN);
    mpfr_set_d(rtau, tau, MPFR_RNDN);
    mpfr_set_d(rlam, lam, MPFR_RNDN);
    mpfr_set_d(rP, P, MPFR_RNDN);
    int failures = 0;
    printf("\nsurrogate recursions (000 (3)-(12), (14), (35)-(39)): ref at %d bits vs fast, default inputs\n"
           "  I = %zu clients, N_i = 6000..7000, B = %d, d = J (L + P) = %zu (J = %d), rho = 0.9 2^-0.1,\n"
           "  gamma = 0.5 2^-0.1, tau = 0.2, lambda = 1e-5, P = 1 - 0.9\n", REF_PREC, nc, BB, d, DJ);
    printf("  %-15s %-22s %10s %10s\n", "function", "equations", "fast ulps", "err/bound");
    int st = FR_OK;
    stat_t s;
    /* ema: beta <- (1 - rho) beta + rho w */
#define RUN(call_r, call_f, call_b) \
    memset(&s, 0, sizeof s); \
    if ((st = (call_r)) != FR_OK || (st = (call_f)) != FR_OK || (st = (call_b)) != FR_OK) s.fail = 1;
    for (size_t j = 0; j < d; j++) { mpfr_set(ro[j], rx[j], MPFR_RNDN); o[j] = x[j]; }
    RUN(fr_ssca_ema(ro, rw, d, rr), ff_ssca_ema(o, w, d, rho), ff_ssca_ema_bound(b, x, w, d, rho));
    compare(&s, o, ro, b, d);
    failures += row("ssca_ema", "(35)", s);
    for (size_t j = 0; j < d; j++) { mpfr_set(ro[j], rx[j], MPFR_RNDN); o[j] = x[j]; }
    RUN(fr_ssca_lin(ro, rw, rG, N, nc, d, BB, rr, rtau), ff_ssca_lin(o, w, G, N, nc, d, BB, rho, tau),
        ff_ssca_lin_bound(b, x, w, G, N, nc, d, BB, rho, tau));
    compare(&s, o, ro, b, d);
    failures += row("ssca_lin", "(9), (36)-(37)", s);
    double f0 = 1.5, f0b;
    mpfr_set_d(rf0, f0, MPFR_RNDN);
    RUN(fr_ssca_const(rf0, rw, rG, rF, N, nc, d, BB, rr, rtau), ff_ssca_const(&f0, w, G, F, N, nc, d, BB, rho, tau),
        ff_ssca_const_bound(&f0b, (double[]){1.5}, w, G, F, N, nc, d, BB, rho, tau));
    compare(&s, &f0, &rf0, &f0b, 1);
    failures += row("ssca_const", "(14), (42)", s);
    RUN(fr_ssca_argmin(ro, rx, ry, d, rlam, rtau, rP), ff_ssca_argmin(o, x, y, d, lam, tau, P),
        ff_ssca_argmin_bound(b, x, y, d, lam, tau, P));
    compare(&s, o, ro, b, d);
    failures += row("ssca_argmin", "(10), (38)-(39) corr.", s);
    for (size_t j = 0; j < d; j++) { mpfr_set(ro[j], rw[j], MPFR_RNDN); o[j] = w[j]; }
    RUN(fr_ssca_update(ro, rx, d, rgam), ff_ssca_update(o, x, d, gam), ff_ssca_update_bound(b, w, x, d, gam));
    compare(&s, o, ro, b, d);
    failures += row("ssca_update", "(5)", s);
    mpfr_t *rv = mp(y, d);
    for (size_t j = 0; j < d; j++) { mpfr_set(ro[j], rw[j], MPFR_RNDN); o[j] = y[j]; o2[j] = w[j]; }
    RUN(fr_ssca_momentum(rv, ro, rG, N, nc, d, BB, rr, rgp, rgam, rtau),
        ff_ssca_momentum(o, o2, G, N, nc, d, BB, rho, gp, gam, tau),
        ff_ssca_momentum_bound(b, b + d, y, w, G, N, nc, d, BB, rho, gp, gam, tau));
    compare(&s, o, rv, b, d);
    compare(&s, o2, ro, b + d, d);
    failures += row("ssca_momentum", "(11)-(12)", s);
    mp_free(rv, d);
    /* five rounds of (35)-(39): drift of fast's w against ref's */
    {
        const size_t T = 5;
        double *f1 = calloc(d, sizeof *f1), *be = calloc(d, sizeof *be), Pf = 1, *ww = malloc(d * sizeof *ww);
        mpfr_t *rf1 = mp(NULL, d), *rbe = mp(NULL, d), *rww = mp(w, d), Pr, rt, gt;
        mpfr_inits2(REF_PREC, Pr, rt, gt, (mpfr_ptr)0);
        mpfr_set_ui(Pr, 1, MPFR_RNDN);
        double drift = 0;
        st = f1 && be && ww && rf1 && rbe && rww ? FR_OK : FR_ENOMEM;
        if (ww) memcpy(ww, w, d * sizeof *ww);
        for (size_t t = 1; t <= T && st == FR_OK; t++) {
            double rt_d = 0.9 * pow((double)t, -0.1), gt_d = 0.5 * pow((double)t, -0.1);
            mpfr_set_d(rt, rt_d, MPFR_RNDN);
            mpfr_set_d(gt, gt_d, MPFR_RNDN);
            for (size_t k = 0; k < nc * d; k++) G[k] = draw(&g, 2);        /* this round's messages */
            for (size_t k = 0; k < nc * d; k++) mpfr_set_d(rG[k], G[k], MPFR_RNDN);
            if ((st = fr_ssca_ema(rbe, rww, d, rt)) == FR_OK
                && (st = fr_ssca_lin(rf1, rww, rG, N, nc, d, BB, rt, rtau)) == FR_OK
                && (st = fr_ssca_ema(&Pr, NULL, 1, rt)) == FR_OK
                && (st = fr_ssca_argmin(ro, rf1, rbe, d, rlam, rtau, Pr)) == FR_OK
                && (st = fr_ssca_update(rww, ro, d, gt)) == FR_OK
                && (st = ff_ssca_ema(be, ww, d, rt_d)) == FR_OK
                && (st = ff_ssca_lin(f1, ww, G, N, nc, d, BB, rt_d, tau)) == FR_OK
                && (st = ff_ssca_ema(&Pf, NULL, 1, rt_d)) == FR_OK
                && (st = ff_ssca_argmin(o, f1, be, d, lam, tau, Pf)) == FR_OK)
                st = ff_ssca_update(ww, o, d, gt_d);
            double num = 0, den = 0;
            mpfr_t dd;
            mpfr_init2(dd, REF_PREC);
            for (size_t j = 0; j < d && st == FR_OK; j++) {
                mpfr_sub_d(dd, rww[j], ww[j], MPFR_RNDN);
                num = fmax(num, fabs(mpfr_get_d(dd, MPFR_RNDU)));
                den = fmax(den, fabs(mpfr_get_d(rww[j], MPFR_RNDN)));
            }
            mpfr_clear(dd);
            drift = fmax(drift, den > 0 ? num / den : num);
        }
        int bad = st != FR_OK || !(drift < FF_RUN_DRIFT_TOL);
        printf("  %-15s %-22s %10s %10.3g  %s  (max_j |w_fast - w_ref| / max_j |w_ref| over %zu rounds;\n"
               "  %38s the runs' tolerance %.2g; P_5 = %.4g, not 0: the printed (38)-(39) are off by 1/(1 - P))\n",
               "app rounds", "(35)-(39), 5 rounds", "-", drift, bad ? "FAIL" : "ok", T, "", FF_RUN_DRIFT_TOL,
               mpfr_get_d(Pr, MPFR_RNDN));
        failures += bad;
        free(f1); free(be); free(ww);
        mp_free(rf1, d); mp_free(rbe, d); mp_free(rww, d);
        mpfr_clears(Pr, rt, gt, (mpfr_ptr)0);
    }
    printf("  (err/bound: largest |fast - ref| / ff_*_bound over the entries, <= 1 passes)\n");
    message_counts();
    mp_free(rw, d); mp_free(rG, nc * d); mp_free(rx, d); mp_free(ry, d); mp_free(rF, nc); mp_free(ro, d);
    mpfr_clears(rr, rgp, rgam, rtau, rlam, rP, rf0, (mpfr_ptr)0);
    free(w); free(G); free(x); free(y); free(F); free(b); free(o); free(o2);
    return failures;
}
