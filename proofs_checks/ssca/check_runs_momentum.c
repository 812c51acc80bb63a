/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs_momentum.c -- 000 Remark 2, (11)-(12), on whole runs of
 * Algorithm 1 (erratum E-000-12).
 *
 * pc_ssca_runs_momentum: with the printed weight (W = 1, (10)) and lambda
 *   = 0, v^(t) = w^(t) - wbar^(t) turns (5), (9), (10) into the momentum
 *   recursion (11)-(12),
 *     v^(t) = (1 - rho^(t))(1 - gamma^(t-1)) v^(t-1) + rho^(t)/(2 tau) gbar^(t),
 *     w^(t+1) = w^(t) - gamma^(t) v^(t),   gamma^(0) = 0,
 *   from v^(0) = w^(1) for every rho^(1) (wbar^(0) = -f1^(0)/(2 tau) = 0);
 *   000 prints v^(0) = 0, which is right iff rho^(1) = 1 or w^(1) = 0.  On
 *   seeded problems (fr_ssca_synth, fr_ssca_init_w: w^(1) != 0; N = 12, P
 *   = 3, J = 2, L = 3, 2-3 clients, B = 2, T = 6, rho^(1) in {1, 0.9, 0.6,
 *   0.3}), fr_ssca_momentum driven with the gradients fr_ssca_net gives at
 *   its own points on the trace's batches:
 *   (a) from v^(0) = w^(1): fr_ssca_run(FR_SSCA_ALG1, weight printed,
 *       lambda = 0)'s iterates w^2 .. w^T to within 2^-(p-24) max(1, |w|),
 *       for every rho^(1);
 *   (b) from v^(0) = 0: the same when rho^(1) = 1; otherwise w^(2) is off
 *       by gamma^(1) (1 - rho^(1)) w^(1) (to within the margin), which is
 *       more than 2^-20 relative, and the paths stay apart (the final
 *       agreement is reported). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "run_cases.h"

#define STREAM_RMOM UINT64_C(0x70632d726d6f6d00)   /* "pc-rmom" */
#define NCASE 8

static const double a1s[4] = {1.0, 0.9, 0.6, 0.3};

int pc_ssca_runs_momentum(pc_ctx *ctx)
{
    ctx->function = "ssca_alg1";
    ctx->vector = "ssca_alg1";
    ctx->claim = "000 Remark 2: Algorithm 1 (printed (10), lambda = 0) = the momentum form (11)-(12) from v^(0) = "
                 "w^(1) for every rho^(1); the printed v^(0) = 0 only when rho^(1) = 1 (whole runs)";
    ctx->erratum = "E-000-12";
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t p = ctx->prec;
    const double margin = (double)p - 24;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_RMOM);
    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE, nsame = 0, ndiff = 0;
    if (ncase < 2)
        ncase = 2;   /* rho1 = 1 and rho1 = 0.9: both claims, whatever FEDREF_PC_CASES */
    double good = HUGE_VAL, zsame = HUGE_VAL, zfinal = 0, w2b = HUGE_VAL;
    for (unsigned long k = 0; k < ncase; k++) {
        uint64_t pseed = frng_next64(&g), rseed = frng_next64(&g);
        size_t nc = 2 + k % 2;
        const char *why = NULL;
        pcr_prob pr;
        if (pcr_prob_init(&pr, pseed, 12, 3, 2, 3, nc) != 0) {
            why = "problem setup failed";
            goto done;
        }
        const size_t d = pr.d, B = 2;
        fr_ssca_params prm;
        pcr_params(&prm, &pr, FR_SSCA_ALG1, 6, B, rseed);
        prm.weight = FR_SSCA_W_PRINTED;
        prm.lambda = 0;
        prm.a1 = a1s[k % 4];
        fr_ssca_trace tr;
        if (pcr_run(&tr, &pr, &prm, p) != FR_OK) {
            why = "fr_ssca_run failed";
            pcr_prob_clear(&pr);
            goto done;
        }
        mpfr_t *v[2], *w[2], *G = pcr_vec(nc * d, p), *dw = pcr_vec(d, p), *ex = pcr_vec(d, p);
        mpfr_t rho, gam, gp, tau, x;
        mpfr_inits2(p, rho, gam, gp, tau, x, (mpfr_ptr)0);
        mpfr_set_d(tau, prm.tau, MPFR_RNDN);
        for (int s = 0; s < 2; s++) {           /* s = 0: v0 = w1; s = 1: v0 = 0 */
            v[s] = pcr_vec(d, p);
            w[s] = pcr_vec(d, p);
            for (size_t j = 0; j < d; j++) {
                mpfr_set_d(w[s][j], pr.w1[j], MPFR_RNDN);
                if (s == 0)
                    mpfr_set_d(v[s][j], pr.w1[j], MPFR_RNDN);
            }
        }
        double zb = HUGE_VAL;
        for (int s = 0; s < 2 && !why; s++) {
            mpfr_set_zero(gp, 1);
            for (unsigned long t = 1; t < prm.T && !why; t++) {
                pcr_sched(rho, prm.a1, prm.alpha1, t);
                pcr_sched(gam, prm.a2, prm.alpha2, t);
                for (size_t i = 0; i < nc && !why; i++) {
                    size_t idx[8];
                    for (size_t b = 0; b < B; b++)
                        idx[b] = pr.off[i] + tr.draws[(t - 1) * tr.nd + i * B + b];
                    if (pcr_batch(NULL, G + i * d, &pr, w[s], idx, B) != FR_OK)
                        why = "fr_ssca_net failed";
                }
                if (!why && fr_ssca_momentum(v[s], w[s], G, pr.Ni, nc, d, B, rho, gp, gam, tau) != FR_OK)
                    why = "fr_ssca_momentum failed";
                mpfr_set(gp, gam, MPFR_RNDN);
                if (why)
                    break;
                double b = pcr_bits(w[s], tr.w + t * d, d);
                if (s == 0) {
                    good = fmin(good, b);
                    if (b < margin)
                        why = "(11)-(12) from v0 = w1 != Algorithm 1 beyond 2^-(p-24)";
                } else {
                    zb = fmin(zb, b);
                    if (t == 1 && prm.a1 != 1.0) {
                        /* w2(v0 = 0) - w2 = gamma1 (1 - rho1) w1 */
                        mpfr_ui_sub(x, 1, rho, MPFR_RNDN);
                        mpfr_mul(x, x, gam, MPFR_RNDN);
                        for (size_t j = 0; j < d; j++) {
                            mpfr_sub(dw[j], w[s][j], tr.w[d + j], MPFR_RNDN);
                            mpfr_mul_d(ex[j], x, pr.w1[j], MPFR_RNDN);
                        }
                        double b2 = pcr_bits(dw, ex, d);
                        w2b = fmin(w2b, b2);
                        if (b2 < margin)
                            why = "w2(v0 = 0) - w2 != gamma1 (1 - rho1) w1";
                    }
                }
            }
        }
        if (!why) {
            if (prm.a1 == 1.0) {
                zsame = fmin(zsame, zb);
                nsame++;
                if (zb < margin)
                    why = "v0 = 0 differs although rho1 = 1";
            } else {
                ndiff++;
                zfinal = fmax(zfinal, zb);
                if (zb >= 20)
                    why = "v0 = 0 reproduces Algorithm 1 although rho1 != 1 and w1 != 0";
            }
        }
        for (int s = 0; s < 2; s++) {
            pcr_vec_free(v[s], d);
            pcr_vec_free(w[s], d);
        }
        pcr_vec_free(G, nc * d);
        pcr_vec_free(dw, d);
        pcr_vec_free(ex, d);
        mpfr_clears(rho, gam, gp, tau, x, (mpfr_ptr)0);
        fr_ssca_trace_clear(&tr);
        pcr_prob_clear(&pr);
    done:
        ctx->ran++;
        if (why) {
            if (!ctx->failed)
                pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu (rho1 = %g, nc = %zu): %s", k,
                             a1s[k % 4], nc, why);
            ctx->failed++;
        }
    }
    if (!ctx->failed && (nsame == 0 || ndiff == 0)) {
        ctx->failed++;
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "a claim was never exercised (%lu, %lu)", nsame, ndiff);
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu runs: (11)-(12) from v0 = w1 = Algorithm 1 to %.1f bits (margin %.0f) for every rho1; "
                     "printed v0 = 0: = on the %lu with rho1 = 1 (%.1f bits), off on %lu (w2 off by exactly "
                     "gamma1 (1 - rho1) w1 to %.1f bits; paths agree to at most %.1f bits)",
                     ctx->ran, good, margin, nsame, zsame, ndiff, w2b, zfinal);
    return ctx->failed != 0;
}
