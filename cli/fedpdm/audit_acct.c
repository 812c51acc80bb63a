/* audit_acct.c -- module fedpdm's privacy-accounting section of `fedref
 * audit`: at the paper's settings (003 Sec. V: N = 100, K = 5, T = 300,
 * delta = 1e-5, b = 30, |D_i| = 600, s = 1) with the per-round sigma of (5)
 * for eps in {0.1, 1, 7, 10}, the total eps of the run by every accountant
 * (ref, MPFR 128 bits, rounded up; fast, binary64 upper bounds): the
 * per-round analytic-Gaussian eps, basic and advanced composition (no
 * amplification: a client may participate every round), RDP without and
 * with K-of-N subsampling (alpha <= 256), and (20) with c0 = 1 at Q = 1, 5
 * (Q = 20 gives q = 1: (20) undefined); then the inverse: the sigma whose
 * subsampled-RDP total is <= eps_bar in {7, 10, 20, 30} (bisection on
 * sigma, the returned sigma certified: its accountant value <= eps_bar).
 * A row fails if fast is below ref by more than ref's own rounding or more
 * than 2^-30 above it. */
#include <math.h>
#include <stdio.h>
#include "../cli.h"
#include "audit_registry.h"
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

#define RP 128
#define AMAX 256ul

static int agree(double f, const mpfr_t r)
{
    double rd = mpfr_get_d(r, MPFR_RNDD), ru = mpfr_get_d(r, MPFR_RNDU);
    if (isinf(ru))
        return isinf(f);
    return f >= rd * (1 - 0x1p-40) && f <= ru * (1 + 0x1p-30);
}

/* the least sigma (to 2^-24 relative) whose subsampled RDP total is <= tgt;
 * ref: at RP bits; returns the certified end */
static double sigma_for_ref(double tgt, unsigned long *al)
{
    mpfr_t sg, s, D, e;
    mpfr_inits2(RP, sg, s, D, e, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    double lo = 0.01, hi = 100;
    for (int k = 0; k < 40 && hi - lo > 0x1p-24 * hi; k++) {
        double m = 0.5 * (lo + hi);
        mpfr_set_d(sg, m, MPFR_RNDN);
        fr_fedpdm_rdp(e, al, sg, s, 5, 100, 300, D, AMAX);
        if (mpfr_cmp_d(e, tgt) <= 0)
            hi = m;
        else
            lo = m;
    }
    mpfr_set_d(sg, hi, MPFR_RNDN);
    fr_fedpdm_rdp(e, al, sg, s, 5, 100, 300, D, AMAX);
    mpfr_clears(sg, s, D, e, (mpfr_ptr)0);
    return hi;
}

static double sigma_for_fast(double tgt, unsigned long *al)
{
    double lo = 0.01, hi = 100, e;
    for (int k = 0; k < 40 && hi - lo > 0x1p-24 * hi; k++) {
        double m = 0.5 * (lo + hi);
        ff_fedpdm_rdp(&e, al, m, 1, 5, 100, 300, 1e-5, AMAX);
        if (e <= tgt)
            hi = m;
        else
            lo = m;
    }
    ff_fedpdm_rdp(&e, al, hi, 1, 5, 100, 300, 1e-5, AMAX);
    return hi;
}

int audit_fedpdm_acct(uint64_t seed)
{
    (void)seed;
    int failures = 0;
    static const double epss[4] = {0.1, 1, 7, 10};
    printf("\nfedpdm privacy accounting (003 Sec. V: N = 100, K = 5, T = 300, delta = 1e-5, s = 1;\n"
           "sigma from (5) for each eps; every value an upper bound: ref %d bits rounded up / fast)\n"
           "for releases of sensitivity s each; for Algorithm 1 as printed, s = (19) holds in round 0\n"
           "only (E-003-S1: the whole path carries the data), so these totals are not its guarantee\n",
           RP);
    printf("%-5s %-9s %-22s %-22s %-24s %-22s %-26s %-12s %s\n", "eps", "sigma", "per-round eps r/f",
           "basic r/f", "advanced r/f", "RDP no-sub r/f", "RDP K/N sub r/f (alpha)", "(20) Q=1",
           "(20) Q=5  ok");
    for (int i = 0; i < 4; i++) {
        const double sig = sqrt(2 * log(1.25 / 1e-5)) / epss[i];
        mpfr_t sg, s, D, g, b, a, r0, r1, c0, ep, q, t1, t5;
        mpfr_inits2(RP, sg, s, D, g, b, a, r0, r1, c0, ep, q, t1, t5, (mpfr_ptr)0);
        mpfr_set_d(sg, sig, MPFR_RNDN);
        mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_set_d(D, 1e-5, MPFR_RNDN);
        unsigned long a0, a1, fa0, fa1;
        int st = fr_fedpdm_gauss_eps(g, sg, s, D);
        st |= fr_fedpdm_compose(b, a, sg, s, 300, D);
        st |= fr_fedpdm_rdp(r0, &a0, sg, s, 100, 100, 300, D, AMAX);
        st |= fr_fedpdm_rdp(r1, &a1, sg, s, 5, 100, 300, D, AMAX);
        mpfr_set_ui(c0, 1, MPFR_RNDN);
        mpfr_set_d(ep, epss[i], MPFR_RNDN);
        mpfr_set_d(q, 0.05, MPFR_RNDN);
        st |= fr_fedpdm_thm2(t1, c0, ep, 5, 100, 300, q);
        mpfr_set_d(q, 0.25, MPFR_RNDN);
        st |= fr_fedpdm_thm2(t5, c0, ep, 5, 100, 300, q);
        double fg, fb, fad, f0, f1, ft1, ft5;
        st |= ff_fedpdm_gauss_eps(&fg, sig, 1, 1e-5);
        st |= ff_fedpdm_compose(&fb, &fad, sig, 1, 300, 1e-5);
        st |= ff_fedpdm_rdp(&f0, &fa0, sig, 1, 100, 100, 300, 1e-5, AMAX);
        st |= ff_fedpdm_rdp(&f1, &fa1, sig, 1, 5, 100, 300, 1e-5, AMAX);
        st |= ff_fedpdm_thm2(&ft1, 1, epss[i], 5, 100, 300, 0.05);
        st |= ff_fedpdm_thm2(&ft5, 1, epss[i], 5, 100, 300, 0.25);
        int ok = st == FR_OK && agree(fg, g) && agree(fb, b) && agree(fad, a) && agree(f0, r0)
                 && agree(f1, r1) && agree(ft1, t1) && agree(ft5, t5) && a0 == fa0 && a1 == fa1;
        failures += !ok;
        printf("%-5g %-9.6g %.10g/%.10g %.10g/%.10g %.10g/%.10g %.8g/%.8g(%lu) %.8g/%.8g(%lu/%lu) "
               "%-12.6g %-9.6g %s\n",
               epss[i], sig, mpfr_get_d(g, MPFR_RNDU), fg, mpfr_get_d(b, MPFR_RNDU), fb,
               mpfr_get_d(a, MPFR_RNDU), fad, mpfr_get_d(r0, MPFR_RNDU), f0, a0,
               mpfr_get_d(r1, MPFR_RNDU), f1, a1, fa1, mpfr_get_d(t1, MPFR_RNDU),
               mpfr_get_d(t5, MPFR_RNDU), ok ? "ok" : "FAIL");
        mpfr_clears(sg, s, D, g, b, a, r0, r1, c0, ep, q, t1, t5, (mpfr_ptr)0);
    }
    printf("(20) at Q = 20: q = 20 * 30 / 600 = 1, 1 - q = 0: undefined (FR_EDOM)\n");
    printf("inverse: sigma (s = 1) with RDP K/N-subsampled total <= eps_bar (bisection to 2^-24)\n");
    static const double tg[4] = {7, 10, 20, 30};
    for (int i = 0; i < 4; i++) {
        unsigned long ar, af;
        double sr = sigma_for_ref(tg[i], &ar), sf = sigma_for_fast(tg[i], &af);
        int ok = fabs(sf - sr) <= 0x1p-20 * sr;
        failures += !ok;
        printf("  eps_bar %-4g sigma ref %.8g (alpha %lu)  fast %.8g (alpha %lu)  "
               "per-round eps of that sigma by (5)^-1: %.6g  %s\n",
               tg[i], sr, ar, sf, af, sqrt(2 * log(1.25 / 1e-5)) / sr, ok ? "ok" : "FAIL");
    }
    return failures;
}
