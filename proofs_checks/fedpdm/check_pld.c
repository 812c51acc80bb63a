/* SPDX-License-Identifier: Apache-2.0 */
/* check_pld.c -- the privacy-loss-distribution accountant of FedPDM-DP
 * (fr_fedpdm_pld_rounds, docs/DP.md section 3) against accountants that
 * share none of its method.
 *
 * pc_fedpdm_pld_bracket: on random settings (sigma in [0.5, 50], s in
 * [0.25, 2], T in {1, 2, 3}, K of N with N <= 200, delta in [1e-9, 1e-3],
 * first in {0, 1}), plus fixed ones:
 *   (a) eps_lower <= eps;
 *   (b) eps_lower <= the RDP bound (fr_fedpdm_rdp_rounds_improved): the
 *       lower bound is the epsilon of a realised pair, so no sound
 *       accountant can certify less (a lower bound above it is unsound);
 *   (c) K = N: eps_lower <= the exact epsilon of the T-fold Gaussian
 *       mechanism (fr_fedpdm_gauss_eps at sigma / sqrt(T), below from the
 *       rounding) <= eps <= it (1 + 1e-3): the discretisation's stated
 *       accuracy, from above;
 *   (d) eps <= the RDP bound whenever that bound exceeds the exact
 *       no-subsampling epsilon by 10 % or more (PLD is then the tighter
 *       route; not a theorem, a measured property of the discretisation).
 * Each case costs seconds in ref (the grid has up to 2^19 points): the
 * case count is fixed (ctx->cases is not used). */
#include <math.h>
#include <stdio.h>
#include "../pc.h"
#include "../pc_util.h"
#include "fedref/fedpdm.h"

static double u01(frng_t *g)
{
    return (double)frng_u53(g) * 0x1p-53;
}

int pc_fedpdm_pld_bracket(pc_ctx *ctx)
{
    ctx->function = "fedpdm_pld_rounds";
    ctx->vector = "fedpdm_pld_rounds";
    ctx->claim = "003 accounting: PLD eps_lower <= eps, eps_lower <= RDP, K = N brackets the exact Gaussian eps";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    frng_t g;
    frng_init(&g, ctx->seed, 7);
    mpfr_t sg[3], s[3], D, e, l, r, ex, sT;
    for (int t = 0; t < 3; t++) mpfr_inits2(53, sg[t], s[t], (mpfr_ptr)0);
    mpfr_inits2(53, D, e, l, r, ex, sT, (mpfr_ptr)0);
    for (unsigned long i = 0; i < 5; i++) {
        unsigned long T, K, N, first, al;
        double sig, sv, del;
        if (i == 0) { sig = 4.8448052626; sv = 1; del = 1e-5; T = 2; K = 5; N = 100; first = 0; }
        else if (i == 1) { sig = 2; sv = 1; del = 1e-5; T = 3; K = 100; N = 100; first = 0; }
        else {
            sig = exp(log(0.5) + u01(&g) * log(100.0));
            sv = 0.25 + 1.75 * u01(&g);
            del = pow(10, -3 - 6 * u01(&g));
            T = 1 + pcu_below(&g, 3);
            N = 2 + pcu_below(&g, 199);
            K = i == 4 ? N : 1 + pcu_below(&g, N);
            first = pcu_below(&g, 2);
        }
        for (unsigned long t = 0; t < T; t++) {
            mpfr_set_d(sg[t], sig, MPFR_RNDN);
            mpfr_set_d(s[t], sv, MPFR_RNDN);
        }
        mpfr_set_d(D, del, MPFR_RNDN);
        char why[128] = "";
        ctx->ran++;
        int st = fr_fedpdm_pld_rounds(e, l, sg, s, T, first, K, N, D);
        st |= fr_fedpdm_rdp_rounds_improved(r, &al, sg, s, T, first, K, N, D, 128);
        /* the exact eps of the T rounds without subsampling, from below */
        mpfr_sqrt_ui(sT, T, MPFR_RNDD);
        mpfr_div(sT, sg[0], sT, MPFR_RNDU);
        st |= fr_fedpdm_gauss_eps(ex, sT, s[0], D);
        mpfr_nextbelow(ex);
        if (st != FR_OK)
            snprintf(why, sizeof why, "status %d", st);
        else if (mpfr_cmp(l, e) > 0)
            snprintf(why, sizeof why, "eps_lower %.10g above eps %.10g", mpfr_get_d(l, MPFR_RNDN),
                     mpfr_get_d(e, MPFR_RNDN));
        else if (mpfr_cmp(l, r) > 0)
            snprintf(why, sizeof why, "eps_lower %.10g above the RDP bound %.10g", mpfr_get_d(l, MPFR_RNDN),
                     mpfr_get_d(r, MPFR_RNDN));
        else if (K == N && (mpfr_cmp(l, ex) > 0 || mpfr_cmp(e, ex) < 0
                            || mpfr_get_d(e, MPFR_RNDU) > mpfr_get_d(ex, MPFR_RNDU) * (1 + 1e-3)))
            snprintf(why, sizeof why, "K = N: [%.10g, %.10g] does not bracket the exact %.10g within 1e-3",
                     mpfr_get_d(l, MPFR_RNDN), mpfr_get_d(e, MPFR_RNDN), mpfr_get_d(ex, MPFR_RNDN));
        else if (mpfr_get_d(r, MPFR_RNDN) >= 1.1 * mpfr_get_d(ex, MPFR_RNDN) && mpfr_cmp(e, r) > 0)
            snprintf(why, sizeof why, "eps %.10g above the RDP bound %.10g", mpfr_get_d(e, MPFR_RNDN),
                     mpfr_get_d(r, MPFR_RNDN));
        if (why[0]) {
            if (!ctx->failed)
                snprintf(ctx->detail, sizeof ctx->detail, "sigma %.6g s %.6g T %lu K %lu N %lu first %lu delta %.3g: %s",
                         sig, sv, T, K, N, first, del, why);
            ctx->failed++;
        }
    }
    for (int t = 0; t < 3; t++) mpfr_clears(sg[t], s[t], (mpfr_ptr)0);
    mpfr_clears(D, e, l, r, ex, sT, (mpfr_ptr)0);
    return ctx->failed != 0;
}
