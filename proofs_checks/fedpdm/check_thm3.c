/* SPDX-License-Identifier: Apache-2.0 */
/* check_thm3.c -- the parameter conditions of 003 Lemma 2 / Theorem 3
 * (Appendix B), erratum E-003-T3.
 *
 * With c = 2 sqrt 5 - 4 (the root of L^2 + 8L - 4) and the coefficients
 * B2 = -(4L - rho)(2L + rho)/(2 rho), B3 = (32L - 16 + L rho)/(rho (4L - 2)):
 *  - B3 = 0 at L0 = 16/(32 + rho), and L0 <= c iff rho >= 16/c - 32 = 4c,
 *    which is exactly when [c, rho/4] is non-empty; so on every non-empty
 *    admissible range B3 < 0 for L in [c, 1/2) (L = c only ties when rho =
 *    4c, irrational), B3 and B8 are undefined at L = 1/2 (inside the range
 *    iff rho >= 2), and B2 = 0 at L = rho/4: theta1 = min(B1..B4) <= 0 and
 *    C0 = theta2/theta1 is negative, undefined or infinite on [c, 1/2] and
 *    at rho/4.  theta1 > 0 iff 1/2 < L < rho/4.
 * The check verifies 16/(32 + 4c) = c at ctx->prec, then on random dyadic
 * (L, rho) that fr_fedpdm_thm3's exact flags say theta1 <= 0 exactly for L
 * in [c, 1/2] u {rho/4} of the admissible range and theta1 > 0 on (1/2,
 * rho/4). */
#include <stdio.h>
#include "../pc_util.h"

#define STREAM_T3 UINT64_C(0x70632d743300)   /* "pc-t3" */

int pc_fedpdm_thm3_conditions(pc_ctx *ctx)
{
    frng_t rg;
    fr_fedpdm_thm3_consts R;
    mpfr_ptr all[11];
    mpfr_t c, t, L, rho;
    unsigned long bad_low = 0, good_mid = 0, zero_top = 0, undef_half = 0;
    char first[300] = "";

    ctx->function = "fedpdm_thm3";
    ctx->vector = "fedpdm_thm3";
    ctx->claim = "003 Lemma 2 / Thm 3: on 2 sqrt5 - 4 <= L <= rho/4, theta1 = min(B1..B4) > 0 only for 1/2 < L < rho/4 (B3 < 0 below 1/2, undefined at 1/2, B2 = 0 at rho/4)";
    ctx->erratum = "E-003-T3";
    for (int k = 0; k < 8; k++) all[k] = R.b[k];
    all[8] = R.theta1; all[9] = R.theta2; all[10] = R.C0;
    for (int k = 0; k < 11; k++) mpfr_init2(all[k], 64);
    mpfr_inits2(ctx->prec, c, t, (mpfr_ptr)0);
    mpfr_inits2(64, L, rho, (mpfr_ptr)0);
    /* c = 2 sqrt 5 - 4 and 16/(32 + 4c) = c */
    mpfr_sqrt_ui(c, 5, MPFR_RNDN);
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
    mpfr_sub_ui(c, c, 4, MPFR_RNDN);
    mpfr_mul_2ui(t, c, 2, MPFR_RNDN);
    mpfr_add_ui(t, t, 32, MPFR_RNDN);
    mpfr_ui_div(t, 16, t, MPFR_RNDN);
    mpfr_sub(t, t, c, MPFR_RNDN);
    ctx->ran++;
    if (!mpfr_zero_p(t) && mpfr_get_exp(t) > -(mpfr_exp_t)ctx->prec + 6) {
        ctx->failed++;
        snprintf(first, sizeof first, "16/(32 + 4c) - c = %.3g", mpfr_get_d(t, MPFR_RNDN));
    }
    frng_init(&rg, ctx->seed, STREAM_T3);
    for (unsigned long k = 0; k < ctx->cases; k++) {
        /* rho in (4c, 64): 4c < 1.8886 */
        pcu_rand_dyadic_nz(rho, &rg, 40, 1, 6, 1);
        mpfr_mul_2ui(t, c, 2, MPFR_RNDN);
        if (mpfr_cmp(rho, t) <= 0) continue;
        int where = (int)pcu_below(&rg, 4);
        if (where == 0) {                      /* L in [c, 1/2): random dyadic */
            pcu_rand_dyadic_nz(L, &rg, 40, -4, -4, 1);          /* x in (0, 2^-4) */
            mpfr_ui_sub(L, 1, L, MPFR_RNDN);
            mpfr_div_2ui(L, L, 1, MPFR_RNDN);                   /* 1/2 - x/2, exact */
            mpfr_mul_2ui(t, L, 2, MPFR_RNDN);
            if (mpfr_cmp(L, c) < 0 || mpfr_cmp(t, rho) > 0) continue;
        } else if (where == 1) {               /* L in (1/2, rho/4) */
            mpfr_div_2ui(t, rho, 2, MPFR_RNDN);
            if (mpfr_cmp_d(t, 0.5) <= 0) continue;
            pcu_rand_dyadic_nz(L, &rg, 40, 0, 6, 1);
            if (mpfr_cmp_d(L, 0.5) <= 0 || mpfr_cmp(L, t) >= 0) continue;
        } else if (where == 2) {               /* L = rho/4 */
            mpfr_div_2ui(L, rho, 2, MPFR_RNDN);
            if (mpfr_cmp(L, c) < 0) continue;
        } else {                               /* L = 1/2 */
            mpfr_set_d(L, 0.5, MPFR_RNDN);
            mpfr_div_2ui(t, rho, 2, MPFR_RNDN);
            if (mpfr_cmp(L, t) > 0) continue;
        }
        unsigned long N = 1 + pcu_below(&rg, 1000);
        ctx->ran++;
        if (fr_fedpdm_thm3(&R, L, rho, N) != FR_OK) { ctx->failed++; continue; }
        int th = !(R.fail & FR_FEDPDM_T3_THETA1_NONPOS);
        int ok;
        if (R.fail & (FR_FEDPDM_T3_L_LOW | FR_FEDPDM_T3_L_HIGH | FR_FEDPDM_T3_EMPTY)) ok = 0;  /* admissible by construction */
        else if (where == 0) { ok = !th && mpfr_sgn(R.b[2]) < 0; bad_low += ok; }
        else if (where == 1) { ok = th && mpfr_sgn(R.theta1) > 0 && mpfr_number_p(R.C0) && mpfr_sgn(R.C0) > 0; good_mid += ok; }
        else if (where == 2) {                 /* C0 = +Inf when B3 > 0 there (rho/4 > 1/2) */
            ok = !th && mpfr_zero_p(R.b[1]);
            if (mpfr_cmp_d(L, 0.5) > 0) { ok = ok && mpfr_inf_p(R.C0); zero_top += ok; }
        }
        else { ok = !th && (R.fail & FR_FEDPDM_T3_UNDEF) && mpfr_nan_p(R.C0); undef_half += ok; }
        if (!ok) {
            ctx->failed++;
            if (first[0] == 0)
                snprintf(first, sizeof first, "L = %.17g rho = %.17g N = %lu: flags %#x", mpfr_get_d(L, MPFR_RNDN),
                         mpfr_get_d(rho, MPFR_RNDN), N, R.fail);
        }
    }
    if (first[0] == 0 && (bad_low == 0 || zero_top == 0 || undef_half == 0)) {
        ctx->failed++;
        snprintf(first, sizeof first, "the erratum is not shown (no case in [c, 1/2], at 1/2 or at rho/4)");
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "16/(32 + 4c) = c (c = 2 sqrt5 - 4) at %ld bits; admissible L in [c, 1/2): B3 < 0, theta1 < 0 in %lu of %lu; "
                 "L = 1/2: undefined in %lu; L = rho/4: B2 = 0, C0 = +Inf in %lu; (1/2, rho/4): theta1, C0 > 0 in %lu",
                 (long)ctx->prec, bad_low, bad_low, undef_half, zero_top, good_mid);
    for (int k = 0; k < 11; k++) mpfr_clear(all[k]);
    mpfr_clears(c, t, L, rho, (mpfr_ptr)0);
    return ctx->failed != 0;
}
