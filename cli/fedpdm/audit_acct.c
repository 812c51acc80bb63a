/* SPDX-License-Identifier: Apache-2.0 */
/* audit_acct.c -- module fedpdm's privacy-accounting section of `fedref
 * audit`: at the paper's settings (003 Sec. V: N = 100, K = 5, T = 300,
 * delta = 1e-5, b = 30, |D_i| = 600, s = 1) with the per-round sigma of (5)
 * for eps in {0.1, 1, 7, 10}, the total eps of T releases by every
 * accountant (ref, MPFR 128 bits, rounded up; fast, binary64 upper
 * bounds): the per-round analytic-Gaussian eps, basic and advanced
 * composition and RDP, all without amplification (valid against the
 * server, who learns S_t, and so against any observer); RDP of the
 * stateless K-of-N subsampled Gaussian with round 0 over every client
 * (S_0 = [N]; WBK Thm 9, against an observer of the broadcasts only: not
 * a bound for Algorithm 1, whose clients keep state, docs/FEDPDM.md 3.6);
 * and (20) with c0 = 1 at Q = 1, 5 (Q = 20 gives q = 1: (20) undefined);
 * then the inverse: the sigma whose total is <= eps_bar in {7, 10, 20, 30}
 * (bisection on sigma, the returned sigma certified: its accountant value
 * <= eps_bar), without amplification and for the stateless mechanism.
 * Neighbouring: one client's data replaced.  Every figure is printed
 * rounded to its safe side in decimal (eps and sigma up, the per-round eps
 * of (5)^-1 down).  A row fails if fast is below ref by more than ref's own
 * rounding or more than 2^-30 above it. */
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
#define TR 300

/* x printed with dig significant digits, rounded up (dir > 0) or down */
static const char *dec(char *buf, size_t n, double x, int dig, int dir)
{
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, x, MPFR_RNDN);                      /* exact */
    mpfr_snprintf(buf, n, "%.*R*g", dig, dir > 0 ? MPFR_RNDU : MPFR_RNDD, v);
    mpfr_clear(v);
    return buf;
}

/* the stateless mechanism's (or, K = N, the unamplified) total over TR
 * rounds, round 0 over every client: ref at RP bits */
static int total_ref(mpfr_t e, unsigned long *al, const mpfr_t sigma, unsigned long K)
{
    mpfr_t sg[TR], s[TR], D;
    for (int t = 0; t < TR; t++) {
        mpfr_init2(sg[t], RP);
        mpfr_init2(s[t], RP);
        mpfr_set(sg[t], sigma, MPFR_RNDN);
        mpfr_set_ui(s[t], 1, MPFR_RNDN);
    }
    mpfr_init2(D, RP);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    int st = fr_fedpdm_rdp_rounds(e, al, sg, s, TR, 1, K, 100, D, AMAX);
    for (int t = 0; t < TR; t++) mpfr_clears(sg[t], s[t], (mpfr_ptr)0);
    mpfr_clear(D);
    return st;
}

static int total_fast(double *e, unsigned long *al, double sigma, unsigned long K)
{
    double sg[TR], s[TR];
    for (int t = 0; t < TR; t++) {
        sg[t] = sigma;
        s[t] = 1;
    }
    return ff_fedpdm_rdp_rounds(e, al, sg, s, TR, 1, K, 100, 1e-5, AMAX);
}

static int agree(double f, const mpfr_t r)
{
    double rd = mpfr_get_d(r, MPFR_RNDD), ru = mpfr_get_d(r, MPFR_RNDU);
    if (isinf(ru))
        return isinf(f);
    return f >= rd * (1 - 0x1p-40) && f <= ru * (1 + 0x1p-30);
}

/* the least sigma (to 2^-24 relative) whose total (K of 100 from round 1)
 * is <= tgt; ref: at RP bits; returns the certified end */
static double sigma_for_ref(double tgt, unsigned long K, unsigned long *al)
{
    mpfr_t sg, e;
    mpfr_inits2(RP, sg, e, (mpfr_ptr)0);
    double lo = 0.01, hi = 100;
    for (int k = 0; k < 40 && hi - lo > 0x1p-24 * hi; k++) {
        double m = 0.5 * (lo + hi);
        mpfr_set_d(sg, m, MPFR_RNDN);
        total_ref(e, al, sg, K);
        if (mpfr_cmp_d(e, tgt) <= 0)
            hi = m;
        else
            lo = m;
    }
    mpfr_set_d(sg, hi, MPFR_RNDN);
    total_ref(e, al, sg, K);
    mpfr_clears(sg, e, (mpfr_ptr)0);
    return hi;
}

static double sigma_for_fast(double tgt, unsigned long K, unsigned long *al)
{
    double lo = 0.01, hi = 100, e;
    for (int k = 0; k < 40 && hi - lo > 0x1p-24 * hi; k++) {
        double m = 0.5 * (lo + hi);
        total_fast(&e, al, m, K);
        if (e <= tgt)
            hi = m;
        else
            lo = m;
    }
    total_fast(&e, al, hi, K);
    return hi;
}

/* The certified private mode of Algorithm 1 (rule FIXED, every gradient
 * clipped to G = 1, the paper's schedule rho = 10, eta^t = 1/sqrt(1 + t), T
 * = 300): round t's noise is the analytic Gaussian sigma for (e, 1e-5) at
 * the whole-path sensitivity s_t = path_sens (E-003-S1), i.e. sigma_t = s_t
 * sigma_1(e) (delta_eps depends on s/sigma only: exact homogeneity; sigma_1
 * = fr_gauss_sigma_analytic at s = 1 rounded up, the product rounded up);
 * the total eps over the run by rdp_rounds at delta = 1e-5 without
 * amplification (K = N: against the server, which learns S_t; no
 * subsampling bound covers Algorithm 1's stateful clients, docs/FEDPDM.md
 * 3.6).  mu_t = s_t^2/(2 sigma_t^2) is the same every round, so the total
 * does not depend on Q or the start; the noise does (shown: sigma_t at t =
 * 0, 24, 299; Q = 1, 10: Q = 5 lies between, and the totals are the same).
 * Printed rounded up.  A row fails unless fast >= ref's value rounded down
 * and within 2^-30 above. */
static int private_mode(void)
{
    enum { TT = 300 };
    static const unsigned long Qs[2] = {1, 10};
    static const double E[2] = {1, 10};
    double eta[TT], fs[TT], fsg[TT];
    mpfr_t e[TT], s[TT], sg[TT], r, g, D, s1, ep, one, tot;
    int failures = 0;
    fr_pdm_eta_paper(eta, TT, 1);
    for (int t = 0; t < TT; t++) {
        mpfr_inits2(RP, e[t], s[t], sg[t], (mpfr_ptr)0);
        mpfr_set_d(e[t], eta[t], MPFR_RNDN);
    }
    mpfr_inits2(RP, r, g, D, s1, ep, one, tot, (mpfr_ptr)0);
    mpfr_set_ui(r, 10, MPFR_RNDN);
    mpfr_set_ui(g, 1, MPFR_RNDN);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_d(D, 1e-5, MPFR_RNDN);
    printf("\ncertified private mode of Algorithm 1 (rule FIXED, clip G = 1, rho = 10, eta^t = 1/sqrt(1+t), T = %d):\n"
           "sigma_t = analytic sigma for (e, 1e-5) at s_t = path_sens (any pattern); total eps at delta = 1e-5 by\n"
           "rdp_rounds (alpha <= %lu; ref %d bits / fast) without amplification (one client's data replaced; the\n"
           "server, who learns S_t, or any observer); every figure rounded up\n",
           TT, 64ul, RP);
    printf("%-4s %-3s %-5s %-11s %-11s %-11s %-30s %s\n", "e", "Q", "start", "sigma_0", "sigma_24",
           "sigma_299", "eps K=N r/f (alpha)", "ok");
    for (int ei = 0; ei < 2; ei++) {
        double fs1;
        mpfr_set_d(ep, E[ei], MPFR_RNDN);
        int st = fr_gauss_sigma_analytic(s1, ep, D, one);
        st |= ff_gauss_sigma_analytic_upper(&fs1, E[ei], 1e-5, 1);
        for (int qi = 0; qi < 2; qi++)
            for (int sti = 1; sti >= 0; sti--) {
                int ok = st == FR_OK && fr_fedpdm_path_sens(s, e, TT, r, Qs[qi], g, sti) == FR_OK
                         && ff_fedpdm_path_sens(fs, eta, TT, 10, Qs[qi], 1, sti) == FR_OK;
                for (int t = 0; ok && t < TT; t++) {
                    mpfr_mul(sg[t], s[t], s1, MPFR_RNDU);
                    double p = fs[t] * fs1;
                    fsg[t] = fma(fs[t], fs1, -p) > 0 ? nextafter(p, INFINITY) : p;
                }
                unsigned long a0 = 0, fa0 = 0;
                double f0 = 0, r0 = 0;
                char b[5][40];
                if (ok) {
                    ok = fr_fedpdm_rdp_rounds(tot, &a0, sg, s, TT, 1, 100, 100, D, 64) == FR_OK;
                    r0 = mpfr_get_d(tot, MPFR_RNDU);
                    ok = ok && ff_fedpdm_rdp_rounds(&f0, &fa0, fsg, fs, TT, 1, 100, 100, 1e-5, 64) == FR_OK && agree(f0, tot);
                }
                failures += !ok;
                printf("%-4g %-3lu %-5s %-11s %-11s %-11s %s/%s(%lu/%lu)  %s\n", E[ei], Qs[qi], sti ? "x_0" : "x_i",
                       dec(b[0], 40, mpfr_get_d(sg[0], MPFR_RNDU), 4, 1), dec(b[1], 40, mpfr_get_d(sg[24], MPFR_RNDU), 4, 1),
                       dec(b[2], 40, mpfr_get_d(sg[299], MPFR_RNDU), 4, 1), dec(b[3], 40, r0, 9, 1), dec(b[4], 40, f0, 9, 1),
                       a0, fa0, ok ? "ok" : "FAIL");
            }
    }
    printf("(every round's mu = 1/(2 sigma_1^2): the total is that of %d releases of one (e, 1e-5)-calibrated Gaussian;\n"
           " the price of the whole path is in the noise: sigma_t / (19)'s is path_sens / (19), the table above)\n", TT);
    for (int t = 0; t < TT; t++) mpfr_clears(e[t], s[t], sg[t], (mpfr_ptr)0);
    mpfr_clears(r, g, D, s1, ep, one, tot, (mpfr_ptr)0);
    return failures;
}

int audit_fedpdm_acct(uint64_t seed)
{
    (void)seed;
    int failures = 0;
    static const double epss[4] = {0.1, 1, 7, 10};
    printf("\nfedpdm privacy accounting (003 Sec. V: N = 100, K = 5, T = 300, delta = 1e-5, s = 1;\n"
           "sigma from (5) for each eps; every value an upper bound: ref %d bits / fast, printed rounded up)\n"
           "for releases of sensitivity s each, one client's data replaced; for Algorithm 1 as printed, s = (19)\n"
           "holds in round 0 only (E-003-S1: the whole path carries the data), so these totals are not its guarantee.\n"
           "basic, advanced, RDP no-sub: no amplification (the server, who learns S_t, or any observer).\n"
           "RDP K/N sub: the stateless K-of-N subsampled Gaussian, round 0 over every client (S_0 = [N]), against\n"
           "an observer of the broadcasts only (WBK Thm 9); not a bound for Algorithm 1 (stateful clients)\n",
           RP);
    printf("%-5s %-9s %-25s %-25s %-25s %-22s %-26s %-12s %s\n", "eps", "sigma", "per-round eps r/f",
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
        st |= total_ref(r1, &a1, sg, 5);
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
        st |= total_fast(&f1, &fa1, sig, 5);
        st |= ff_fedpdm_thm2(&ft1, 1, epss[i], 5, 100, 300, 0.05);
        st |= ff_fedpdm_thm2(&ft5, 1, epss[i], 5, 100, 300, 0.25);
        int ok = st == FR_OK && agree(fg, g) && agree(fb, b) && agree(fad, a) && agree(f0, r0)
                 && agree(f1, r1) && agree(ft1, t1) && agree(ft5, t5) && a0 == fa0 && a1 == fa1;
        failures += !ok;
        char w[15][40];
        printf("%-5g %-9s %s/%s %s/%s %s/%s %s/%s(%lu) %s/%s(%lu/%lu) %-12s %-9s %s\n", epss[i],
               dec(w[0], 40, sig, 7, 1), dec(w[1], 40, mpfr_get_d(g, MPFR_RNDU), 10, 1), dec(w[2], 40, fg, 10, 1),
               dec(w[3], 40, mpfr_get_d(b, MPFR_RNDU), 10, 1), dec(w[4], 40, fb, 10, 1),
               dec(w[5], 40, mpfr_get_d(a, MPFR_RNDU), 10, 1), dec(w[6], 40, fad, 10, 1),
               dec(w[7], 40, mpfr_get_d(r0, MPFR_RNDU), 8, 1), dec(w[8], 40, f0, 8, 1), a0,
               dec(w[9], 40, mpfr_get_d(r1, MPFR_RNDU), 8, 1), dec(w[10], 40, f1, 8, 1), a1, fa1,
               dec(w[11], 40, mpfr_get_d(t1, MPFR_RNDU), 6, 1), dec(w[12], 40, mpfr_get_d(t5, MPFR_RNDU), 6, 1),
               ok ? "ok" : "FAIL");
        mpfr_clears(sg, s, D, g, b, a, r0, r1, c0, ep, q, t1, t5, (mpfr_ptr)0);
    }
    printf("(20) at Q = 20: q = 20 * 30 / 600 = 1, 1 - q = 0: undefined (FR_EDOM)\n");
    printf("inverse: sigma (s = 1) with total <= eps_bar (bisection to 2^-24; printed rounded up), without\n"
           "amplification (K = N) and for the stateless K-of-N mechanism (round 0 over every client); the\n"
           "per-round eps of the K = N sigma by (5)^-1, rounded down\n");
    static const double tg[4] = {7, 10, 20, 30};
    for (int i = 0; i < 4; i++) {
        unsigned long ar, af, br, bf;
        double sr = sigma_for_ref(tg[i], 100, &ar), sf = sigma_for_fast(tg[i], 100, &af);
        double tr = sigma_for_ref(tg[i], 5, &br), tf = sigma_for_fast(tg[i], 5, &bf);
        int ok = fabs(sf - sr) <= 0x1p-20 * sr && fabs(tf - tr) <= 0x1p-20 * tr;
        failures += !ok;
        char w[5][40];
        double e5 = sqrt(2 * log(1.25 / 1e-5)) / sr;
        printf("  eps_bar %-4g K=N sigma ref %s (alpha %lu) fast %s (alpha %lu)  K/N sigma ref %s (alpha %lu) "
               "fast %s (alpha %lu)  (5)^-1: %s  %s\n",
               tg[i], dec(w[0], 40, sr, 7, 1), ar, dec(w[1], 40, sf, 7, 1), af, dec(w[2], 40, tr, 7, 1), br,
               dec(w[3], 40, tf, 7, 1), bf, dec(w[4], 40, e5 * (1 - 0x1p-50), 4, -1), ok ? "ok" : "FAIL");
    }
    failures += private_mode();
    return failures;
}
