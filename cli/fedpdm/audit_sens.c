/* SPDX-License-Identifier: Apache-2.0 */
/* audit_sens.c -- module fedpdm's sensitivity part in `fedref audit`: the
 * sensitivity (19) along the paper's schedule (003 Sec. V: rho = 10,
 * eta^t = 1/sqrt(1 + t), G = 1 so s is in units of G), ref (MPFR, 256 bits,
 * rounded up) against fast (binary64 upper bound), for t = 0, 10, 23, 24,
 * 25, 100 and Q = 1..20 (Q_i^t is not given in the paper).  A row fails
 * when fast is below ref's value (fast must bound the exact s from above:
 * ref's RU at 256 bits is within 2^-255 of it) or beyond its proved bound.
 * The table shows Q = 1, 2, 5, 10, 20; every Q is checked. */
#include <math.h>
#include <stdio.h>
#include "../cli.h"
#include "audit_registry.h"
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

#define PREC 256

/* The whole-path sensitivity (E-003-S1) along the paper's schedule, T =
 * 300, both starts, Q = 1, 5, 10: ref (256 bits, rounded up) and fast
 * (binary64 upper bound), shown as path_sens / (19) at t = 0, 1, 10, 24,
 * 100, 299.  A row fails if fast is below ref's value rounded down or more
 * than 2^-40 relative above it at any of the 300 rounds. */
static int path_table(void)
{
    enum { TT = 300 };
    static const unsigned long Qs[3] = {1, 5, 10};
    static const int SHOW[6] = {0, 1, 10, 24, 100, 299};
    double eta[TT], fs[TT];
    mpfr_t e[TT], s[TT], r, g, s19;
    int failures = 0;
    double worst = 0;
    fr_pdm_eta_paper(eta, TT, 1);
    for (int t = 0; t < TT; t++) {
        mpfr_init2(e[t], 53);
        mpfr_init2(s[t], PREC);
        mpfr_set_d(e[t], eta[t], MPFR_RNDN);
    }
    mpfr_inits2(53, r, g, (mpfr_ptr)0);
    mpfr_init2(s19, PREC);
    mpfr_set_ui(r, 10, MPFR_RNDN);
    mpfr_set_ui(g, 1, MPFR_RNDN);
    printf("\nwhole-path sensitivity (fr/ff_fedpdm_path_sens, every participation pattern) / (19), same schedule, T = %d\n"
           "  (rule FIXED; E-003-S1: (19) bounds round 0 only; ref %d bits rounded up; fast >= ref, within 2^-40)\n",
           TT, PREC);
    printf("  %-3s %-5s", "Q", "start");
    for (int k = 0; k < 6; k++) printf("  t=%-9d", SHOW[k]);
    printf("  %s\n", "fast-ref");
    for (int qi = 0; qi < 3; qi++)
        for (int st = 0; st < 2; st++) {
            int ok = fr_fedpdm_path_sens(s, e, TT, r, Qs[qi], g, st) == FR_OK
                     && ff_fedpdm_path_sens(fs, eta, TT, 10, Qs[qi], 1, st) == FR_OK;
            double rowworst = 0;
            for (int t = 0; ok && t < TT; t++) {
                double lo = mpfr_get_d(s[t], MPFR_RNDD), hi = mpfr_get_d(s[t], MPFR_RNDU);
                if (!(fs[t] >= lo && fs[t] <= hi * (1 + 0x1p-40))) ok = 0;
                double rel = hi > 0 ? fs[t] / hi - 1 : 0;
                if (rel > rowworst) rowworst = rel;
            }
            if (rowworst > worst) worst = rowworst;
            printf("  %-3lu %-5s", Qs[qi], st ? "x_0" : "x_i");
            for (int k = 0; k < 6 && ok; k++) {
                fr_fedpdm_sensitivity(s19, e[SHOW[k]], r, Qs[qi], g);
                mpfr_div(s19, s[SHOW[k]], s19, MPFR_RNDN);
                printf("  %-11.4g", mpfr_get_d(s19, MPFR_RNDN));
            }
            printf("  %-9.2g %s\n", rowworst, ok ? "ok" : "FAIL");
            failures += !ok;
        }
    printf("  largest (fast - ref)/ref: %.2g; t >= 24: eta^t rho <= 2 (fl(1/5) rho is just above 2 at t = 24): the bound "
           "no longer grows, but keeps the peak of the expansive rounds (a client absent since then keeps its state)\n",
           worst);
    for (int t = 0; t < TT; t++) mpfr_clears(e[t], s[t], (mpfr_ptr)0);
    mpfr_clears(r, g, s19, (mpfr_ptr)0);
    return failures;
}

int audit_fedpdm_sens(uint64_t seed)
{
    (void)seed;                                    /* deterministic inputs */
    static const int T[] = {0, 10, 23, 24, 25, 100};
    static const unsigned long SHOW[] = {1, 2, 5, 10, 20};
    int failures = 0;
    double worst_ulps = 0;
    mpfr_t e, r, g, s, x;
    mpfr_inits2(PREC, s, x, (mpfr_ptr)0);
    mpfr_inits2(53, e, r, g, (mpfr_ptr)0);
    mpfr_set_d(r, 10, MPFR_RNDN);
    mpfr_set_d(g, 1, MPFR_RNDN);
    printf("\nsensitivity (19) along the paper's schedule: rho = 10, eta^t = fl(1/sqrt(1 + t)), G = 1\n"
           "  (s / G; ref at %d bits rounded up, fast = binary64 upper bound; 'ulps' = (fast - ref)/ulp(ref))\n",
           PREC);
    printf("  %4s %-22s %-12s", "t", "eta^t rho (binary64 in)", "a - 1");
    for (size_t k = 0; k < sizeof SHOW / sizeof SHOW[0]; k++) printf("  Q=%-10lu", SHOW[k]);
    printf("\n");
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        double eta = 1 / sqrt(1.0 + T[i]);
        mpfr_set_d(e, eta, MPFR_RNDN);
        mpfr_mul(x, e, r, MPFR_RNDN);              /* exact at 256 bits */
        double etarho = mpfr_get_d(x, MPFR_RNDN);
        mpfr_ui_sub(x, 1, x, MPFR_RNDN);
        mpfr_abs(x, x, MPFR_RNDN);
        mpfr_sub_ui(x, x, 1, MPFR_RNDN);
        printf("  %4d %-22.17g %-12.4g", T[i], etarho, mpfr_get_d(x, MPFR_RNDN));
        size_t k = 0;
        for (unsigned long Q = 1; Q <= 20; Q++) {
            double fs, rel, abs;
            int st = fr_fedpdm_sensitivity(s, e, r, Q, g);
            int sf = ff_fedpdm_sensitivity(&fs, eta, 10, Q, 1);
            int sb = ff_fedpdm_sensitivity_bound(&rel, &abs, eta, 10, Q, 1);
            if (st != FR_OK || sf != FR_OK || sb != FR_OK) {
                printf("\n  FAIL t = %d Q = %lu: statuses %d %d %d\n", T[i], Q, st, sf, sb);
                failures++;
                continue;
            }
            mpfr_set_d(x, fs, MPFR_RNDN);
            mpfr_sub(x, x, s, MPFR_RNDN);          /* fast - ref, exact enough */
            double diff = mpfr_get_d(x, MPFR_RNDN), ref = mpfr_get_d(s, MPFR_RNDU);
            double ulps = diff / (nextafter(ref, INFINITY) - ref);
            if (ulps > worst_ulps) worst_ulps = ulps;
            if (diff < 0 || diff > rel * ref + abs) {
                printf("\n  FAIL t = %d Q = %lu: fast %.17g ref %.17g\n", T[i], Q, fs, ref);
                failures++;
            }
            if (k < sizeof SHOW / sizeof SHOW[0] && Q == SHOW[k]) {
                printf("  %-8.6g%+3.0fu", ref, ulps);
                k++;
            }
        }
        printf("\n");
    }
    printf("  largest fast - ref over t and Q = 1..20: %.1f ulps (proved bound 2^-51 + (64Q + 64) 2^-106: about 2 ulps "
           "at any Q)\n  t < 24: eta^t rho > 2, a > 1: (19) grows like a^(Q-1) (t = 0: a = 9);"
           " t = 24 is not 2 in binary64 (eta = fl(1/5))\n", worst_ulps);
    mpfr_clears(e, r, g, s, x, (mpfr_ptr)0);
    failures += path_table();
    return failures;
}
