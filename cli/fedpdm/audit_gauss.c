/* SPDX-License-Identifier: Apache-2.0 */
/* audit_gauss.c -- module fedpdm's Gaussian calibration section of `fedref
 * audit`: at the paper's setting (003 Sec. V: delta = 1e-5, eps in {0.1,
 * 0.5, 1, 2, 7, 10, 20, 30}, sensitivity s = 1; sigma scales with s) the
 * classical sigma of (5)/(18) and the exact analytic sigma (Balle & Wang
 * Thm 8), ref (MPFR, 53-bit outputs rounded up) against fast (binary64,
 * upper bounds), their ratio and whether (5) gives (eps, delta)-DP (the
 * certified verdicts of fr_gauss_dp_check and ff_gauss_dp_check).  Then a
 * seeded sweep (frng stream (seed, 3005)) of random (eps, delta).
 * Failures: a fast value below ref (both are upper bounds, ref the least
 * binary64 one), fast beyond its tolerance (sigma2: 2^-47 proved; sigma:
 * 2^-26 empirical), a fast HOLDS where ref does not say HOLDS.  The
 * sigmas and the delta_eps bound are printed rounded up in decimal. */
#include <math.h>
#include <stdio.h>
#include "../cli.h"
#include "audit_registry.h"
#include "fedref.h"
#include "fedfast.h"

#define SWEEP 200ul

static const char *vname(int v)
{
    return v == FR_GAUSS_HOLDS ? "holds" : v == FR_GAUSS_FAILS ? "FAILS" : "unknown";
}

typedef struct {
    double cl, an, fcl, fan;   /* ref sigma_cl, sigma_an; fast the same */
    int vr, vf;                /* verdicts of (5): ref, fast */
    double dcl;                /* delta_eps(sigma_cl), an upper bound (ref) */
    int st;
} row_t;

static void one(row_t *o, double eps, double delta, double s)
{
    mpfr_t e, d, sv, s2, a, lo, hi;
    mpfr_inits2(53, e, d, sv, s2, a, lo, hi, (mpfr_ptr)0);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_set_d(d, delta, MPFR_RNDN);
    mpfr_set_d(sv, s, MPFR_RNDN);
    o->st = fr_gauss_sigma2_classical(s2, e, d, sv);
    if (o->st == FR_OK) o->st = fr_gauss_sigma_analytic(a, e, d, sv);
    mpfr_sqrt(s2, s2, MPFR_RNDU);
    if (o->st == FR_OK) o->st = fr_gauss_dp_check(&o->vr, lo, hi, e, d, sv, s2);
    mpfr_sub(lo, d, lo, MPFR_RNDU);            /* delta - margin_lo >= delta_eps */
    o->dcl = mpfr_get_d(lo, MPFR_RNDU);
    o->cl = mpfr_get_d(s2, MPFR_RNDU);
    o->an = mpfr_get_d(a, MPFR_RNDU);
    double f2 = NAN;
    int st = ff_gauss_sigma2_classical_upper(&f2, eps, delta, s);
    o->fcl = nextafter(sqrt(f2), INFINITY);     /* an upper bound of sqrt of an upper bound */
    if (st == FR_OK) st = ff_gauss_sigma_analytic_upper(&o->fan, eps, delta, s);
    double ml, mh;
    if (st == FR_OK) st = ff_gauss_dp_check(&o->vf, &ml, &mh, eps, delta, s, o->fcl);
    if (o->st == FR_OK) o->st = st;
    mpfr_clears(e, d, sv, s2, a, lo, hi, (mpfr_ptr)0);
}

static int bad(const row_t *o)
{
    return o->st != FR_OK || o->fan < o->an || o->fan > o->an * (1 + 0x1p-26) || o->fcl < o->cl
           || o->fcl > o->cl * (1 + 0x1p-45) || (o->vf == FR_GAUSS_HOLDS && o->vr != FR_GAUSS_HOLDS);
}

int audit_fedpdm_gauss(uint64_t seed)
{
    static const double E[] = {0.1, 0.5, 1, 2, 7, 10, 20, 30};
    int failures = 0;
    printf("\nfedpdm Gaussian calibration, 003 (5)/(18) vs the exact analytic Gaussian mechanism\n"
           "(Balle & Wang 2018 Thm 8), delta = 1e-5, s = 1; ref MPFR rounded up, fast binary64 upper bounds\n");
    printf("%5s  %-19s %-9s %-19s %-9s %7s  %-7s %-7s %s\n", "eps", "sigma (5) ref", "fast rel", "sigma exact ref",
           "fast rel", "ratio", "(5) ref", "fast", "delta_eps((5)) <=");
    for (size_t k = 0; k < sizeof E / sizeof E[0]; k++) {
        row_t o;
        one(&o, E[k], 1e-5, 1);
        char b[3][40];
        printf("%5g  %-19s %-9.2e %-19s %-9.2e %7.4f  %-7s %-7s %s\n", E[k], cli_fmt_up(b[0], 40, o.cl, 15),
               (o.fcl - o.cl) / o.cl, cli_fmt_up(b[1], 40, o.an, 15), (o.fan - o.an) / o.an, o.cl / o.an, vname(o.vr),
               vname(o.vf), cli_fmt_up(b[2], 40, o.dcl, 4));
        if (bad(&o)) {
            failures++;
            printf("  FAILED (status %s)\n", fr_strerror(o.st));
        }
    }
    frng_t g;
    frng_init(&g, seed, 3005);
    double worst = 0;
    unsigned long nf = 0;
    for (unsigned long c = 0; c < SWEEP; c++) {
        uint64_t ee;
        frng_below(&g, 17, &ee);
        double eps = ldexp(1 + (double)frng_u53(&g) * 0x1p-53, (int)ee - 10);
        double delta = pow(10.0, -1 - 14 * (double)frng_u53(&g) * 0x1p-53);
        row_t o;
        one(&o, eps, delta, 1);
        double r = (o.fan - o.an) / o.an;
        if (r > worst) worst = r;
        if (bad(&o)) {
            nf++;
            if (nf <= 3) printf("  sweep: failed at eps %a delta %a\n", eps, delta);
        }
    }
    printf("sweep: %lu random (eps, delta) (seed %llu, stream 3005): %lu failures, worst fast sigma "
           "excess %.3g (tolerance 2^-26 = %.3g, empirical)\n", SWEEP, (unsigned long long)seed, nf, worst,
           0x1p-26);
    return failures + (int)nf;
}
