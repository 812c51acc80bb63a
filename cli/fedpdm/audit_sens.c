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

#define PREC 256

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
    return failures;
}
