/* SPDX-License-Identifier: Apache-2.0 */
/* bench_pld.c -- `fedref bench`: the PLD accountant's time
 * (ff_fedpdm_pld_rounds, fr_fedpdm_pld_rounds; docs/DP.md section 2) at
 * the settings of docs/DP.md section 8: K = 5 of N = 100, delta = 1e-5,
 * s = 1, T = 300 (quick: 30); fast at the four sigmas, ref at one (its
 * time is seconds); agreement: fast's eps never below ref's. */
#include <stdio.h>
#include <stdlib.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

int bench_pld(bench_ctx *ctx)
{
    static const double SIG[4] = {48.448052626, 4.8448052626, 0.69211503752, 0.48448052626};
    const unsigned long T = ctx->quick ? 30 : 300;
    double *sg = malloc(T * sizeof *sg), *s = malloc(T * sizeof *s);
    if (!sg || !s) {
        free(sg), free(s);
        cli_error("out of memory", "bench pld");
        return 2;
    }
    printf("\npld: the PLD accountant, T = %lu rounds, K = 5 of N = 100, delta = 1e-5, s = 1 (eps, eps_lower;\n"
           "ref at 53-bit outputs, working precision 128 bits)\n", T);
    printf("  %-22s %-22s %12s %12s %10s\n", "what", "sigma", "eps", "eps_lower", "time (s)");
    int rc = 0;
    for (int k = 0; k < 4 && rc == 0; k++) {
        for (unsigned long t = 0; t < T; t++) sg[t] = SIG[k], s[t] = 1;
        double e, l, t0 = bench_now();
        if (ff_fedpdm_pld_rounds(&e, &l, sg, s, T, 0, 5, 100, 1e-5) != FR_OK) { rc = 2; break; }
        double tf = bench_now() - t0;
        char sz[32];
        snprintf(sz, sizeof sz, "%.11g", SIG[k]);
        bench_row("pld fast", sz, "%12.8g %12.8g %10.3f\n", e, l, tf);
        if (k != 1) continue;
        cli_progress("bench: pld ref, sigma %g", SIG[k]);
        mpfr_t *a = bench_mp_array(sg, T), *b = bench_mp_array(s, T), E, L, D;
        if (!a || !b) { bench_mp_free(a, T), bench_mp_free(b, T); rc = 2; break; }
        mpfr_inits2(53, E, L, D, (mpfr_ptr)0);
        mpfr_set_d(D, 1e-5, MPFR_RNDN);
        t0 = bench_now();
        int st = fr_fedpdm_pld_rounds(E, L, a, b, T, 0, 5, 100, D);
        double tr = bench_now() - t0;
        if (st == FR_OK) {
            bench_row("pld ref", sz, "%12.8g %12.8g %10.3f\n", mpfr_get_d(E, MPFR_RNDU), mpfr_get_d(L, MPFR_RNDD), tr);
            double er = mpfr_get_d(E, MPFR_RNDU);
            bench_agree(ctx, "pld: fast >= ref", e >= er ? 0 : (er - e) / er, 1e-300);
        } else
            rc = 2;
        mpfr_clears(E, L, D, (mpfr_ptr)0);
        bench_mp_free(a, T), bench_mp_free(b, T);
    }
    if (rc) cli_error("the PLD accountant failed", "bench pld");
    free(sg), free(s);
    return rc;
}
