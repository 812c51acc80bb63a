/* SPDX-License-Identifier: Apache-2.0 */
/* check_sec4c_mean.c -- the aggregation of SFedAvg, 002 (34) and Sec. IV-C.
 *
 * pc_sfedavg_mean (erratum E-002-34): Sec. IV-C prints
 *   w^{tau_{k+1}} = argmin_w sum_{i in S} ||z_i - w||^2 = (1/m) sum_{i in S} z_i,
 * Algorithm 3 prints (34) with 1/|S|.  The argmin of the sum over S is the
 * mean over S (its derivative 2 sum_{i in S} (w - z_i) vanishes exactly
 * there), so the printed 1/m is right only when |S| = m or the sum is 0.
 * Random exact dyadic z, m in [2, 12], |S| in [1, m-1]; the derivative is
 * evaluated exactly (rational arithmetic, GMP mpq). */
#include <gmp.h>
#include <stdio.h>
#include "../pc_util.h"

#define STREAM_MEAN UINT64_C(0x70632d6d65616e) /* "pc-mean" */

int pc_sfedavg_mean(pc_ctx *ctx)
{
    ctx->function = "sfedavg";
    ctx->vector = "sfedavg";
    ctx->claim = "002 (34) argmin over S is the mean over S (1/|S|); Sec. IV-C prints 1/m";
    ctx->erratum = "E-002-34";
    ctx->ran = ctx->failed = 0;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_MEAN);
    mpq_t z[12], sum, w, d, t;
    for (int i = 0; i < 12; i++) mpq_init(z[i]);
    mpq_inits(sum, w, d, t, NULL);
    unsigned long printed_wrong = 0;
    for (unsigned long c = 0; c < ctx->cases; c++) {
        unsigned long m = 2 + pcu_below(&g, 11), s = 1 + pcu_below(&g, m - 1);
        mpq_set_ui(sum, 0, 1);
        for (unsigned long i = 0; i < s; i++) {       /* S = the first s clients (order is irrelevant) */
            long k = (long)pcu_below(&g, 1u << 20) - (1 << 19);
            mpq_set_si(z[i], k, 1u << pcu_below(&g, 12));
            mpq_canonicalize(z[i]);
            mpq_add(sum, sum, z[i]);
        }
        /* the mean over S: derivative sum (w - z_i) must be exactly 0 */
        mpq_set_ui(t, s, 1);
        mpq_div(w, sum, t);
        mpq_set_ui(d, 0, 1);
        for (unsigned long i = 0; i < s; i++) { mpq_sub(t, w, z[i]); mpq_add(d, d, t); }
        ctx->ran++;
        if (mpq_sgn(d) != 0) {
            if (!ctx->failed) snprintf(ctx->detail, sizeof ctx->detail, "mean over S is not stationary");
            ctx->failed++;
        }
        /* the printed (1/m) sum: stationary iff the sum is 0 (s < m) */
        mpq_set_ui(t, m, 1);
        mpq_div(w, sum, t);
        mpq_set_ui(d, 0, 1);
        for (unsigned long i = 0; i < s; i++) { mpq_sub(t, w, z[i]); mpq_add(d, d, t); }
        if (mpq_sgn(d) != 0) printed_wrong++;
        else if (mpq_sgn(sum) != 0) {
            if (!ctx->failed) snprintf(ctx->detail, sizeof ctx->detail, "1/m stationary with a non-zero sum");
            ctx->failed++;
        }
    }
    if (printed_wrong == 0) {
        ctx->failed++;
        snprintf(ctx->detail, sizeof ctx->detail, "the printed 1/m was never refuted");
    } else if (!ctx->failed) {
        snprintf(ctx->detail, sizeof ctx->detail,
                 "1/|S| stationary on all %lu cases; the printed 1/m is not the argmin on %lu "
                 "(witness m = 2, S = {1}, z_1 = 1: argmin 1, printed 1/2)", ctx->ran, printed_wrong);
    }
    for (int i = 0; i < 12; i++) mpq_clear(z[i]);
    mpq_clears(sum, w, d, t, NULL);
    return ctx->failed != 0;
}
