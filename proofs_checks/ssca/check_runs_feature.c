/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs_feature.c -- the feature-based runs against the sample-based
 * ones with one client (000 Sec. IV against Sec. III; Algorithms 3-4
 * Steps 4-6 with the chain rule (20)-(21)).
 *
 * pc_ssca_runs_feature: with one sample-based client (nc = 1, N_1 = N) the
 *   server weight of (3) is N_1/(B N) = 1/B, the weight of (16), (23),
 *   (25); by fedspec/ssca.h both draw frng_sample(N, B) per round from
 *   stream (seed, 1), so the batches are the same; and the messages of
 *   Steps 4-6 (h_i, A, B_i, exact at high precision) assemble the batch
 *   gradient that the sample-based client sends (pc_ssca_net_feature).
 *   Hence, on the same data, parameters and seed, fr_ssca_run gives the
 *   same path for
 *     FR_SSCA_ALG3 (I = 2..3 feature blocks)  and FR_SSCA_ALG1 (nc = 1),
 *     FR_SSCA_ALG4                            and FR_SSCA_ALG2 (nc = 1),
 *     FR_SSCA_SGD_F                           and FR_SSCA_SGD_S (nc = 1, E = 1),
 *     FR_SSCA_SGDM_F                          and FR_SSCA_SGDM_S (nc = 1, E = 1).
 *   Checked on seeded problems (fr_ssca_synth, fr_ssca_init_w; N = 10, P =
 *   4..5, J = 2, L = 3, B = 2..4, T = 6, both weights): the draws are equal
 *   round by round; every iterate w^2 .. w^T agrees to within 2^-(p-24)
 *   max(1, |w|) (the two runs round in the same order unless a block is
 *   formed differently; bit-identical rows are counted); for 4 vs 2 also
 *   nu and the slack of every round (the same margin) and the branch
 *   (equal). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "run_cases.h"

#define STREAM_RFEAT UINT64_C(0x70632d7266656174)   /* "pc-rfeat" */
#define NCASE 6

static const int pairs[4][2] = {
    {FR_SSCA_ALG3, FR_SSCA_ALG1}, {FR_SSCA_ALG4, FR_SSCA_ALG2},
    {FR_SSCA_SGD_F, FR_SSCA_SGD_S}, {FR_SSCA_SGDM_F, FR_SSCA_SGDM_S}};

int pc_ssca_runs_feature(pc_ctx *ctx)
{
    ctx->function = "ssca_alg3";
    ctx->vector = "ssca_alg3";
    ctx->claim = "000 Alg. 3, 4, SGD_F, SGDM_F (feature-based, Steps 4-6) = Alg. 1, 2, SGD_S, SGDM_S with one "
                 "client (weight 1/B, the same batches), iterate by iterate";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t p = ctx->prec;
    const double margin = (double)p - 24;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_RFEAT);
    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE, rows = 0, ident = 0;
    double worst[4] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL}, nuw = HUGE_VAL;
    for (unsigned long k = 0; k < ncase; k++) {
        uint64_t pseed = frng_next64(&g), rseed = frng_next64(&g);
        size_t P = 4 + k % 2, ncf = 2 + k % 2;
        pcr_prob pr;
        if (pcr_prob_init(&pr, pseed, 10, P, 2, 3, 1) != 0) {
            ctx->failed++;
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu: problem setup failed", k);
            ctx->ran++;
            continue;
        }
        for (int q = 0; q < 4; q++) {
            const char *why = NULL;
            fr_ssca_params prm;
            pcr_params(&prm, &pr, pairs[q][1], 6, 2 + k % 3, rseed);
            prm.weight = k % 2 ? FR_SSCA_W_PRINTED : FR_SSCA_W_EXACT;
            prm.a1 = k % 2 ? 0.6 : 0.9;
            fr_ssca_trace ts, tf;
            pcr_prob_split(&pr, 1);
            int st = pcr_run(&ts, &pr, &prm, p);
            if (st != FR_OK) {
                why = "the sample-based run failed";
                goto next;
            }
            prm.algo = pairs[q][0];
            pcr_prob_split(&pr, ncf);
            st = pcr_run(&tf, &pr, &prm, p);
            if (st != FR_OK) {
                fr_ssca_trace_clear(&ts);
                why = "the feature-based run failed";
                goto next;
            }
            if (ts.nd != tf.nd || memcmp(ts.draws, tf.draws, (prm.T - 1) * ts.nd * sizeof *ts.draws) != 0)
                why = "the batches differ";
            for (unsigned long t = 1; t < prm.T && !why; t++) {
                double b = pcr_bits(tf.w + t * pr.d, ts.w + t * pr.d, pr.d);
                rows++;
                ident += b == HUGE_VAL;
                worst[q] = fmin(worst[q], b);
                if (b < margin)
                    why = "an iterate differs beyond 2^-(p-24)";
                if (q == 1 && !why) {
                    double bn = fmin(pcr_bits1(tf.nu[t - 1], ts.nu[t - 1]),
                                     pcr_bits1(tf.slack[t - 1], ts.slack[t - 1]));
                    nuw = fmin(nuw, bn);
                    if (bn < margin)
                        why = "nu or the slack differs beyond 2^-(p-24)";
                    else if (tf.branch[t - 1] != ts.branch[t - 1])
                        why = "the Lemma 1 branch differs";
                }
            }
            fr_ssca_trace_clear(&ts);
            fr_ssca_trace_clear(&tf);
        next:
            ctx->ran++;
            if (why) {
                if (!ctx->failed)
                    pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu, %s vs %s (I = %zu): %s", k,
                                 fr_ssca_algo_name(pairs[q][0]), fr_ssca_algo_name(pairs[q][1]), ncf, why);
                ctx->failed++;
            }
        }
        pcr_prob_clear(&pr);
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu run pairs, %lu iterates: same batches; agreement (bits, margin %.0f): alg3/alg1 %.1f, "
                     "alg4/alg2 %.1f (nu, slack %.1f; branches equal), sgd_f/sgd_s %.1f, sgdm_f/sgdm_s %.1f; %lu "
                     "iterates bit-identical",
                     ctx->ran, rows, margin, worst[0], worst[1], nuw, worst[2], worst[3], ident);
    return ctx->failed != 0;
}
