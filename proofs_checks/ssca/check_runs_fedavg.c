/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs_fedavg.c -- the SGD baseline of 000 Sec. VI (fedspec/ssca.h
 * FR_SSCA_SGD_S: FedSGD, PR-SGD, FedAvg) against its definition.
 *
 * pc_ssca_runs_fedavg: on seeded problems (fr_ssca_synth, fr_ssca_init_w;
 *   N = 12, P = 3, J = 2, L = 3, T = 5, r = 0.3 t^-0.3, lambda = 1/64):
 *   (a) FedAvg, E B = N_i for every client (nc = 2: N_i = 6, B = 2, E = 3;
 *       nc = 3: N_i = 4, B = 2, E = 2; nc = 2: N_i = 6, B = 3, E = 2):
 *       each round's E batches of client i (the trace's draws, one
 *       frng_sample(N_i, E B)) are a permutation of 0 .. N_i - 1 (one
 *       epoch: disjoint and covering); and the round, recomputed here from
 *       the recorded w^(t) as E local steps w_i <- w_i - r (G/B + 2 lambda
 *       w_i) over those batches (G = the batch gradient sum, fr_ssca_net)
 *       and the average sum_i (N_i/N) w_i (plain MPFR, one rounding per
 *       operation), gives the recorded w^(t+1) to within 2^-(p-24)
 *       max(1, |w|);
 *   (b) nc = 1, E = 1, B = N (full batch): every round's batch is a
 *       permutation of the data, and the run is plain gradient descent on
 *       (32), w <- w - r (grad F(w) + 2 lambda w), F = (1/N) sum_n loss_n:
 *       a GD loop here (fr_ssca_net over all N samples in index order; the
 *       sum is correctly rounded, so the order of the batch does not
 *       matter) tracks the whole run w^2 .. w^T within the same margin. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "run_cases.h"

#define STREAM_RFA UINT64_C(0x70632d7266617600)   /* "pc-rfav" */
#define NCASE 3

static const size_t shapes[NCASE][3] = {{2, 2, 3}, {3, 2, 2}, {2, 3, 2}};   /* nc, B, E */

/* Whether v[0..n-1] is a permutation of 0..n-1. */
static int is_perm(const size_t *v, size_t n)
{
    unsigned char seen[64] = {0};
    if (n > 64)
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (v[k] >= n || seen[v[k]])
            return 0;
        seen[v[k]] = 1;
    }
    return 1;
}

/* w <- w - r (G/B + 2 lambda w), one rounding per operation. */
static void sgd_step(mpfr_t *w, mpfr_t *const G, size_t d, size_t B, const mpfr_t r, const mpfr_t lam,
                     mpfr_t x, mpfr_t y)
{
    for (size_t j = 0; j < d; j++) {
        mpfr_div_ui(x, G[j], B, MPFR_RNDN);
        mpfr_mul(y, lam, w[j], MPFR_RNDN);
        mpfr_mul_2ui(y, y, 1, MPFR_RNDN);
        mpfr_add(x, x, y, MPFR_RNDN);
        mpfr_mul(x, x, r, MPFR_RNDN);
        mpfr_sub(w[j], w[j], x, MPFR_RNDN);
    }
}

int pc_ssca_runs_fedavg(pc_ctx *ctx)
{
    ctx->function = "ssca_sgd_s";
    ctx->vector = "ssca_sgd_s";
    ctx->claim = "000 Sec. VI FedAvg (SGD_S, E B = N_i): each round is one epoch (E disjoint batches covering "
                 "the client's data) of local steps then the N_i/N average; nc = 1, B = N: gradient descent on (32)";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t p = ctx->prec;
    const double margin = (double)p - 24;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_RFA);
    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE, epochs = 0;
    double ab = HUGE_VAL, bb = HUGE_VAL;
    for (unsigned long k = 0; k < ncase; k++) {
        uint64_t pseed = frng_next64(&g), rseed = frng_next64(&g);
        for (int part = 0; part < 2; part++) {
            const char *why = NULL;
            size_t nc = part ? 1 : shapes[k][0], B = part ? 12 : shapes[k][1], E = part ? 1 : shapes[k][2];
            pcr_prob pr;
            if (pcr_prob_init(&pr, pseed, 12, 3, 2, 3, nc) != 0) {
                why = "problem setup failed";
                goto next;
            }
            const size_t d = pr.d;
            fr_ssca_params prm;
            pcr_params(&prm, &pr, FR_SSCA_SGD_S, 5, B, rseed);
            prm.E = E;
            fr_ssca_trace tr;
            if (pcr_run(&tr, &pr, &prm, p) != FR_OK) {
                why = "fr_ssca_run(SGD_S) failed";
                pcr_prob_clear(&pr);
                goto next;
            }
            mpfr_t *wi = pcr_vec(d, p), *acc = pcr_vec(d, p), *G = pcr_vec(d, p), *wg = pcr_vec(d, p);
            mpfr_t r, lam, x, y;
            mpfr_inits2(p, r, lam, x, y, (mpfr_ptr)0);
            mpfr_set_d(lam, prm.lambda, MPFR_RNDN);
            for (size_t j = 0; j < d; j++)
                mpfr_set_d(wg[j], pr.w1[j], MPFR_RNDN);
            size_t all[64];
            for (size_t n = 0; n < pr.N; n++)
                all[n] = n;
            for (unsigned long t = 1; t < prm.T && !why; t++) {
                mpfr_t *wt = tr.w + (t - 1) * d, *wn = tr.w + t * d;
                pcr_sched(r, prm.lr_a, prm.lr_alpha, t);
                for (size_t i = 0; i < nc && !why; i++) {
                    const size_t *dr = tr.draws + (t - 1) * tr.nd + i * E * B;
                    if (!is_perm(dr, pr.Ni[i])) {
                        why = "a round's batches are not one epoch of the client's data";
                        break;
                    }
                    epochs++;
                }
                if (why)
                    break;
                if (!part) {
                    /* (a) the round from the recorded w^(t) */
                    for (size_t j = 0; j < d; j++)
                        mpfr_set_zero(acc[j], 1);
                    for (size_t i = 0; i < nc && !why; i++) {
                        const size_t *dr = tr.draws + (t - 1) * tr.nd + i * E * B;
                        for (size_t j = 0; j < d; j++)
                            mpfr_set(wi[j], wt[j], MPFR_RNDN);
                        for (size_t e = 0; e < E && !why; e++) {
                            size_t idx[16];
                            for (size_t b = 0; b < B; b++)
                                idx[b] = pr.off[i] + dr[e * B + b];
                            if (pcr_batch(NULL, G, &pr, wi, idx, B) != FR_OK)
                                why = "fr_ssca_net failed";
                            else
                                sgd_step(wi, G, d, B, r, lam, x, y);
                        }
                        for (size_t j = 0; j < d; j++) {
                            mpfr_mul_ui(x, wi[j], pr.Ni[i], MPFR_RNDN);
                            mpfr_div_ui(x, x, pr.N, MPFR_RNDN);
                            mpfr_add(acc[j], acc[j], x, MPFR_RNDN);
                        }
                    }
                    double b = pcr_bits(acc, wn, d);
                    ab = fmin(ab, b);
                    if (!why && b < margin)
                        why = "the round is not E local steps over the epoch and the average";
                } else {
                    /* (b) gradient descent on (32), its own path */
                    if (pcr_batch(NULL, G, &pr, wg, all, pr.N) != FR_OK) {
                        why = "fr_ssca_net failed";
                        break;
                    }
                    sgd_step(wg, G, d, pr.N, r, lam, x, y);
                    double b = pcr_bits(wg, wn, d);
                    bb = fmin(bb, b);
                    if (b < margin)
                        why = "the full-batch one-client run is not gradient descent on (32)";
                }
            }
            pcr_vec_free(wi, d);
            pcr_vec_free(acc, d);
            pcr_vec_free(G, d);
            pcr_vec_free(wg, d);
            mpfr_clears(r, lam, x, y, (mpfr_ptr)0);
            fr_ssca_trace_clear(&tr);
            pcr_prob_clear(&pr);
        next:
            ctx->ran++;
            if (why) {
                if (!ctx->failed)
                    pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu (%s, nc = %zu, B = %zu, E = %zu): %s",
                                 k, part ? "full batch" : "FedAvg", nc, B, E, why);
                ctx->failed++;
            }
        }
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu runs: %lu client rounds, each one epoch; FedAvg rounds = E local steps + average to "
                     "%.1f bits, full batch = gradient descent on (32) to %.1f bits (margin %.0f)",
                     ctx->ran, epochs, ab, bb, margin);
    return ctx->failed != 0;
}
