/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs_lemma1.c -- every round of Algorithms 2 and 4 solves (41):
 * Lemma 1 ((43)-(45)) inside fr_ssca_run against an independent
 * certificate.
 *
 * pc_ssca_runs_lemma1: on seeded problems (fr_ssca_synth, fr_ssca_init_w;
 *   N = 12, P = 4, J = 2, L = 3, 2 sample or feature clients, B = 3, T =
 *   6, both weights, U = F(w^(1)) + {1/4, -0.002, -1, -0.01, -0.0005,
 *   -0.05}, tau in {1/2, 1/16, 1/64}, c in {8, 1/2, 1/4}, so that nu = 0,
 *   nu in (0, c) and nu = c all occur),
 *   per round t of fr_ssca_run(FR_SSCA_ALG2 / FR_SSCA_ALG4):
 *   - the round's problem is rebuilt from the trace: the batch (the
 *     trace's draws) at the recorded w^(t), its loss and gradient sums
 *     (fr_ssca_net), C^(t) of (42) (fr_ssca_const, the loss as c-bar:
 *     E-000-31), a^(t) = f1 of (36)-(37) (fr_ssca_lin; feature-based: one
 *     client of weight 1/B), P_t (fr_ssca_ema), W = 1 - P_t (exact weight)
 *     or 1 (printed);
 *   - wbar^(t) is not recorded: it is recovered from the iterates as
 *     (w^(t+1) - (1 - gamma^(t)) w^(t)) / gamma^(t) (update (5));
 *   - Problem 5 with M = 1, t0 = 1, g0 = 0, kappa = C - U, g = a, tau W
 *     (fr_ssca_problem5: an active-set method with an exact KKT
 *     acceptance, not Lemma 1's branches) gives (w*, s*, nu*) and its
 *     certificate: gap and residuals at most 2^-(p-32) max(1, |w*|^2);
 *   - the recovered wbar agrees with w* to 2^-(p-28) relative (the
 *     division by gamma costs a few bits), the recorded nu and slack with
 *     nu* and s* to 2^-(p-24);
 *   - the KKT conditions of (41) hold at the recorded values themselves:
 *     |2 wbar + nu (a + 2 tau W wbar)|_inf, |nu (a^T wbar + tau W |wbar|^2
 *     + C - U - s)| and |(c - nu) s| at most 2^-(p-32) of the scale, s >= 0,
 *     0 <= nu <= c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "run_cases.h"

#define STREAM_RL1 UINT64_C(0x70632d726c310000)   /* "pc-rl1" */
#define NCASE 12
#define NCFG 6

/* U = F(w^(1)) + off (F over all N samples), tau, c: the constraint slack
 * (nu = 0), barely violated (interior nu), far violated (nu = c). */
static const double uoff[NCFG] = {0.25, -0.002, -1, -0.01, -0.0005, -0.05};
static const double taus[NCFG] = {0.5, 0.0625, 0.5, 0.0625, 0.015625, 0.015625};
static const double cs[NCFG] = {8, 8, 0.25, 0.5, 8, 8};

int pc_ssca_runs_lemma1(pc_ctx *ctx)
{
    ctx->function = "ssca_alg2";
    ctx->vector = "ssca_alg2";
    ctx->claim = "000 Lemma 1 (43)-(45) in every round of Algorithms 2 and 4: the recorded nu, slack and wbar "
                 "(from w^(t), w^(t+1), gamma) are the KKT point of (41), certified by Problem 5 (M = 1)";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t p = ctx->prec;
    const double m24 = (double)p - 24, m28 = (double)p - 28;
    const double tol32 = ldexp(1.0, -(int)(p - 32));
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_RL1);
    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE, rounds = 0, nbr[5] = {0};
    double wb = HUGE_VAL, nb = HUGE_VAL, gapmax = 0;
    for (unsigned long k = 0; k < ncase; k++) {
        uint64_t pseed = frng_next64(&g), rseed = frng_next64(&g);
        pcr_prob pr;
        if (pcr_prob_init(&pr, pseed, 12, 4, 2, 3, 2) != 0) {
            ctx->failed++;
            ctx->ran++;
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu: problem setup failed", k);
            continue;
        }
        const size_t d = pr.d, B = 3, N1[1] = {pr.N};
        double F1 = 0;
        {
            size_t all[16];
            mpfr_t f, *w1 = pcr_vec(d, p), *g1 = pcr_vec(d, p);
            mpfr_init2(f, p);
            for (size_t n = 0; n < pr.N; n++)
                all[n] = n;
            for (size_t j = 0; j < d; j++)
                mpfr_set_d(w1[j], pr.w1[j], MPFR_RNDN);
            if (pcr_batch(f, g1, &pr, w1, all, pr.N) == FR_OK)
                F1 = mpfr_get_d(f, MPFR_RNDN) / (double)pr.N;
            mpfr_clear(f);
            pcr_vec_free(w1, d);
            pcr_vec_free(g1, d);
        }
        for (int feat = 0; feat < 2; feat++) {
            const char *why = NULL;
            fr_ssca_params prm;
            pcr_params(&prm, &pr, feat ? FR_SSCA_ALG4 : FR_SSCA_ALG2, 6, B, rseed);
            prm.weight = (k + k / NCFG) % 2 ? FR_SSCA_W_PRINTED : FR_SSCA_W_EXACT;
            prm.U = F1 + uoff[k % NCFG];
            prm.tau = taus[k % NCFG];
            prm.c = cs[k % NCFG];
            fr_ssca_trace tr;
            if (pcr_run(&tr, &pr, &prm, p) != FR_OK) {
                why = "fr_ssca_run failed";
                goto next;
            }
            const size_t nc = feat ? 1 : pr.D.nc;
            const size_t *Ni = feat ? N1 : pr.Ni;
            mpfr_t *G = pcr_vec(nc * d, p), *F = pcr_vec(nc, p), *f1 = pcr_vec(d, p), *ws = pcr_vec(d, p);
            mpfr_t *wr = pcr_vec(d, 2 * p), *res = pcr_vec(d, 2 * p);
            mpfr_t *Pv = pcr_vec(1, p);
            mpfr_t C, kap, rho, gam, tau, tauW, t0, c, s, nu, x, y;
            mpfr_inits2(p, C, kap, rho, gam, tau, tauW, t0, c, s, nu, (mpfr_ptr)0);
            mpfr_inits2(4 * p, x, y, (mpfr_ptr)0);
            mpfr_set_d(tau, prm.tau, MPFR_RNDN);
            mpfr_set_d(c, prm.c, MPFR_RNDN);
            mpfr_set_ui(t0, 1, MPFR_RNDN);
            mpfr_set_zero(C, 1);
            mpfr_set_ui(Pv[0], 1, MPFR_RNDN);
            for (unsigned long t = 1; t < prm.T && !why; t++) {
                mpfr_t *wt = tr.w + (t - 1) * d, *wn = tr.w + t * d;
                pcr_sched(rho, prm.a1, prm.alpha1, t);
                pcr_sched(gam, prm.a2, prm.alpha2, t);
                for (size_t i = 0; i < nc && !why; i++) {
                    size_t idx[8];
                    for (size_t b = 0; b < B; b++)
                        idx[b] = (feat ? 0 : pr.off[i]) + tr.draws[(t - 1) * tr.nd + i * B + b];
                    if (pcr_batch(F[i], G + i * d, &pr, wt, idx, B) != FR_OK)
                        why = "fr_ssca_net failed";
                }
                if (why || fr_ssca_const(C, wt, G, F, Ni, nc, d, B, rho, tau) != FR_OK
                    || fr_ssca_lin(f1, wt, G, Ni, nc, d, B, rho, tau) != FR_OK
                    || fr_ssca_ema(Pv, NULL, 1, rho) != FR_OK) {
                    why = why ? why : "a recursion failed";
                    break;
                }
                if (prm.weight == FR_SSCA_W_EXACT) {
                    mpfr_ui_sub(tauW, 1, Pv[0], MPFR_RNDN);
                    mpfr_mul(tauW, tauW, tau, MPFR_RNDN);
                } else {
                    mpfr_set(tauW, tau, MPFR_RNDN);
                }
                mpfr_d_sub(kap, prm.U, C, MPFR_RNDN);
                mpfr_neg(kap, kap, MPFR_RNDN);                 /* C - U */
                fr_ssca_kkt cert;
                mpfr_t *sv = &s, *nv = &nu, *kv = &kap;
                if (fr_ssca_problem5(ws, sv, nv, &cert, NULL, kv, f1, 1, d, t0, tauW, c) != FR_OK) {
                    why = "fr_ssca_problem5 failed";
                    break;
                }
                /* scale max(1, |w*|^2) */
                mpfr_set_ui(x, 0, MPFR_RNDN);
                for (size_t j = 0; j < d; j++)
                    mpfr_fma(x, ws[j], ws[j], x, MPFR_RNDN);
                double scale = fmax(1.0, mpfr_get_d(x, MPFR_RNDU));
                gapmax = fmax(gapmax, cert.gap / scale);
                if (cert.gap > tol32 * scale || cert.stat > tol32 * scale || cert.feas > tol32 * scale
                    || cert.comp > tol32 * scale) {
                    why = "the Problem 5 certificate is not tight";
                    break;
                }
                /* wbar recovered from (5) */
                for (size_t j = 0; j < d; j++) {
                    mpfr_ui_sub(x, 1, gam, MPFR_RNDN);
                    mpfr_mul(x, x, wt[j], MPFR_RNDN);
                    mpfr_sub(x, wn[j], x, MPFR_RNDN);
                    mpfr_div(wr[j], x, gam, MPFR_RNDN);
                }
                double bw = pcr_bits(wr, ws, d);
                double bn = fmin(pcr_bits1(tr.nu[t - 1], nu), pcr_bits1(tr.slack[t - 1], s));
                wb = fmin(wb, bw);
                nb = fmin(nb, bn);
                if (bw < m28) {
                    why = "the recovered wbar is not Problem 5's solution";
                    break;
                }
                if (bn < m24) {
                    why = "the recorded nu or slack is not Problem 5's";
                    break;
                }
                /* KKT of (41) at the recorded values */
                mpfr_srcptr nur = tr.nu[t - 1], sr = tr.slack[t - 1];
                if (mpfr_sgn(nur) < 0 || mpfr_cmp(nur, c) > 0 || mpfr_sgn(sr) < 0) {
                    why = "nu outside [0, c] or s < 0";
                    break;
                }
                mpfr_set_zero(y, 1);                              /* a^T wbar + tau W |wbar|^2 */
                for (size_t j = 0; j < d; j++) {
                    mpfr_mul(x, tauW, wr[j], MPFR_RNDN);
                    mpfr_add(x, x, f1[j], MPFR_RNDN);
                    mpfr_fma(y, x, wr[j], y, MPFR_RNDN);
                }
                double kkt = 0;
                for (size_t j = 0; j < d; j++) {
                    mpfr_mul(x, tauW, wr[j], MPFR_RNDN);
                    mpfr_mul_2ui(x, x, 1, MPFR_RNDN);
                    mpfr_add(x, x, f1[j], MPFR_RNDN);
                    mpfr_mul(x, x, nur, MPFR_RNDN);
                    mpfr_mul_2ui(res[j], wr[j], 1, MPFR_RNDN);
                    mpfr_add(res[j], res[j], x, MPFR_RNDN);
                    kkt = fmax(kkt, fabs(mpfr_get_d(res[j], MPFR_RNDA)));
                }
                mpfr_add(y, y, kap, MPFR_RNDN);
                mpfr_sub(y, y, sr, MPFR_RNDN);                   /* Fbar(wbar) + C - U - s */
                if (mpfr_sgn(y) > 0)
                    kkt = fmax(kkt, mpfr_get_d(y, MPFR_RNDA));     /* feasibility */
                mpfr_mul(y, y, nur, MPFR_RNDN);
                kkt = fmax(kkt, fabs(mpfr_get_d(y, MPFR_RNDA)));
                mpfr_sub(x, c, nur, MPFR_RNDN);
                mpfr_mul(x, x, sr, MPFR_RNDN);
                kkt = fmax(kkt, fabs(mpfr_get_d(x, MPFR_RNDA)));
                if (kkt > tol32 * scale) {
                    why = "the recorded values violate the KKT conditions of (41)";
                    break;
                }
                int br = tr.branch[t - 1];
                nbr[br >= 1 && br <= 4 ? br : 0]++;
                rounds++;
            }
            pcr_vec_free(G, nc * d);
            pcr_vec_free(F, nc);
            pcr_vec_free(f1, d);
            pcr_vec_free(ws, d);
            pcr_vec_free(wr, d);
            pcr_vec_free(res, d);
            pcr_vec_free(Pv, 1);
            mpfr_clears(C, kap, rho, gam, tau, tauW, t0, c, s, nu, x, y, (mpfr_ptr)0);
            fr_ssca_trace_clear(&tr);
        next:
            ctx->ran++;
            if (why) {
                if (!ctx->failed)
                    pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu, %s (weight %s): %s", k,
                                 feat ? "alg4" : "alg2", (k + k / NCFG) % 2 ? "printed" : "exact", why);
                ctx->failed++;
            }
        }
        pcr_prob_clear(&pr);
    }
    if (!ctx->failed && nbr[FR_SSCA_L1_INTERIOR] + nbr[FR_SSCA_L1_CLIPC] + nbr[FR_SSCA_L1_DNONPOS] == 0) {
        ctx->failed++;
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "the constraint was never active (nu = 0 in every round)");
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu runs, %lu rounds: KKT of (41) at the recorded values; = Problem 5 (gap <= %.3g of the "
                     "scale): wbar to %.1f bits (margin %.0f), nu and slack to %.1f (margin %.0f); branches D<=0 "
                     "%lu, nu=0 %lu, interior %lu, clip c %lu",
                     ctx->ran, rounds, gapmax, wb, m28, nb, m24, nbr[1], nbr[2], nbr[3], nbr[4]);
    return ctx->failed != 0;
}
