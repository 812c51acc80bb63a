/* SPDX-License-Identifier: Apache-2.0 */
/* audit_admm.c -- the audit section of 004 Algorithm 2: ref at 128 bits
 * vs fast on small instances of the test oracles (tests/proxal/
 * admm_oracles.h): iterations, max |w_ref - w_fast|, thm41 of both,
 * factorisations; non-zero when a terminated run has thm41 > tau or the
 * two wings disagree on termination. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include "../../tests/proxal/admm_oracles.h"
#include "audit_registry.h"

int audit_proxal_admm(uint64_t seed)
{
    static const char *KIND[3] = {"quad", "logi", "plus"};
    int failures = 0;
    printf("\nAlgorithm 2 of 004 (proxal_admm): ref 128 bits vs fast, tau 1e-6, q 0.7, rho 1\n");
    printf("  %-5s %2s %2s %6s %6s %12s %12s %12s %6s\n", "kind", "n", "d", "it_r", "it_f", "max|wr-wf|",
           "thm41 ref", "thm41 fast", "fact_f");
    for (unsigned c = 0; c < 6; c++) {
        ao_prob P;
        size_t n = 1 + c % 3, d = 2 + c % 3;
        ao_make(&P, n, d, (int)(c % 3), seed + c, 0.5);
        double rho[AO_NMAX] = {1, 1, 1, 1, 1, 1}, w0[AO_DMAX], w[AO_DMAX];
        fr_proxal_admm_params prm = {1e-6, 0.7, rho, 500, 50, FR_PROXAL_EPS18_PRINTED};
        for (size_t k = 0; k < d; k++)
            w0[k] = 0.5 - 0.25 * (double)k;
        ff_proxal_fsum F;
        ao_fast(&F, &P);
        ff_proxal_admm_ws *ws = NULL;
        ff_proxal_admm_info fi = {0};
        int sf = ff_proxal_admm_ws_init(&ws, n, d);
        if (sf == FR_OK)
            sf = ff_proxal_admm(w, &fi, ws, &F, w0, &prm);
        ff_proxal_admm_ws_clear(&ws);
        fr_proxal_fsum R;
        ao_ref(&R, &P);
        mpfr_t rw0[AO_DMAX], rw[AO_DMAX];
        for (size_t k = 0; k < d; k++)
            mpfr_init2(rw0[k], 53), mpfr_set_d(rw0[k], w0[k], MPFR_RNDN), mpfr_init2(rw[k], 128);
        fr_proxal_admm_info ri;
        fr_proxal_admm_info_init(&ri, 128);
        int sr = fr_proxal_admm(rw, &ri, &R, rw0, &prm);
        double e = 0;
        for (size_t k = 0; k < d && sr == FR_OK && sf == FR_OK; k++)
            e = fmax(e, fabs(mpfr_get_d(rw[k], MPFR_RNDN) - w[k]));
        int bad = sr != FR_OK || sf != FR_OK || !ri.terminated || !fi.terminated || !ri.thm41_ok || !fi.thm41_ok;
        failures += bad;
        printf("  %-5s %2zu %2zu %6lu %6lu %12.3g %12.3g %12.3g %6lu%s\n", KIND[c % 3], n, d, ri.iters, fi.iters, e,
               mpfr_get_d(ri.thm41, MPFR_RNDU), fi.thm41, fi.factorisations, bad ? "  FAIL" : "");
        fr_proxal_admm_info_clear(&ri);
        for (size_t k = 0; k < d; k++)
            mpfr_clear(rw0[k]), mpfr_clear(rw[k]);
    }
    return failures;
}
