/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs_001.c -- 001's reading of the runs: 001's Algorithm 1 with
 * the example of its Sec. V-A, (11)-(17), and its Algorithm 2 with Sec.
 * V-B, (18)-(23), implemented AS PRINTED in 001's own symbols, against
 * fr_ssca_run (000's Algorithms 1 and 2, weight printed).
 *
 * 001's symbols (docs/SSCA.md section 1): features x_{n,k}, k in K (000's
 * p in P); the parameter vector omega = (omega_{1,j,k}, omega_{2,l,j}) in
 * THAT order (hidden layer first; 000's layout is omega_0 (L x J) first,
 * then omega_1 (J x P)); omega_2 is 000's omega_0.  The recursions, here
 * in plain MPFR at p bits (one rounding per operation; no fedref closed
 * form): beta^(t) = (1 - rho) beta + rho omega^(t) (below (13)),
 *   B_{j,k} <- (1 - rho) B_{j,k} + rho (Bbar_{j,k} - 2 tau omega_{1,j,k})  (14)
 *   C_{l,j} <- (1 - rho) C_{l,j} + rho (Cbar_{l,j} - 2 tau omega_{2,l,j})  (15)
 *   wbar_1 = -(B + 2 lambda beta_1)/(2 tau), wbar_2 = -(C + 2 lambda beta_2)/(2 tau)  (16)-(17)
 *   omega <- (1 - gamma) omega + gamma wbar                                  (4)
 * with Bbar, Cbar the sums over i of N_i/(B N) times the client's batch
 * sums of (Q_l - y_l) S'(u_j) omega_{2,l,j} x_{n,k} and (Q_l - y_l) S(u_j)
 * (fr_ssca_net's gradient blocks, read in 001's order).  The batches are
 * drawn here from the streams of fedspec/ssca.h (client i: (seed, 1 + i),
 * one frng_sample(N_i, B) per round) and compared with the trace's.
 * Algorithm 2, (19)-(23): B and C as above (no beta: the objective is
 * ||omega||^2), the constant
 *   A <- (1 - rho) A + rho (Abar - sum Bbar omega_1 - sum Cbar omega_2)   (20)
 *   Abar = sum_i N_i/(B N) sum_n sum_l y_{n,l} log Q_l + tau ||omega||^2
 * and Lemma 1 as printed in (21)-(23): b = ||B||^2 + ||C||^2, nu =
 * [(sqrt(b / (b + 4 tau (U - A))) - 1)/tau]_0^c if b + 4 tau (U - A) > 0,
 * else c; wbar = -nu (B, C) / (2 (1 + nu tau)).
 *
 * pc_ssca_runs_001: on seeded problems (fr_ssca_synth, fr_ssca_init_w; N
 *   = 12, P = 3..4, J = 2, L = 3, 2-3 clients, B = 2, T = 6..8, rho^(1) in
 *   {1, 0.9, 0.6, 0.3}, lambda in {0, 1/64}):
 *   (a) the draws are the trace's, round by round;
 *   (b) 001's Algorithm 1 gives fr_ssca_run(FR_SSCA_ALG1, weight
 *       FR_SSCA_W_PRINTED)'s iterates w^2 .. w^T to within 2^-(p-24)
 *       max(1, |w|) (entrywise, in 000's layout after the symbol map);
 *   (c) 001's Algorithm 2 with Abar's log-likelihood replaced by the loss
 *       (-sum_l y log Q, erratum E-000-31, which covers 001's Abar) gives
 *       fr_ssca_run(FR_SSCA_ALG2, weight printed)'s iterates and nu to
 *       within the same margin; (21)-(23) are 000's Lemma 1 (no new
 *       finding: 001's printed case split is 000's main-text one);
 *   (d) 001's Algorithm 2 exactly as printed (Abar with + y log Q) leaves
 *       that path: its iterates differ from ALG2's by more than 2^-20
 *       relative on every case where the constraint is active on the
 *       corrected path (some nu > 0); the rounds where its nu is 0 are
 *       reported (A^(t) is then about -F < U: the constraint F <= U is
 *       not enforced).
 * Both 001 runs share 000's weight-1 quadratic (E-000-8): with rho^(1) !=
 * 1 they are not the minimisers of the surrogate (pc_ssca_runs_weight). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "run_cases.h"

#define STREAM_R001 UINT64_C(0x70632d7230303100)   /* "pc-r001" */
#define NCASE 8

static const double a1s[4] = {1.0, 0.9, 0.6, 0.3};

/* 001's state, in its own symbols and order. */
typedef struct {
    size_t K, J, L, d;
    mpfr_t *om1, *om2;       /* omega_1 (J x K), omega_2 (L x J) */
    mpfr_t *Bm, *Cm;         /* B^(t), C^(t) */
    mpfr_t *be1, *be2;       /* beta_1, beta_2 */
    mpfr_t *Bb, *Cb;         /* Bbar, Cbar */
    mpfr_t A, Ab, nu, t1, t2, t3;
} s001;

static void s001_init(s001 *s, size_t K, size_t J, size_t L, mpfr_prec_t p)
{
    s->K = K;
    s->J = J;
    s->L = L;
    s->d = J * (K + L);
    s->om1 = pcr_vec(J * K, p);
    s->Bm = pcr_vec(J * K, p);
    s->be1 = pcr_vec(J * K, p);
    s->Bb = pcr_vec(J * K, p);
    s->om2 = pcr_vec(L * J, p);
    s->Cm = pcr_vec(L * J, p);
    s->be2 = pcr_vec(L * J, p);
    s->Cb = pcr_vec(L * J, p);
    mpfr_inits2(p, s->A, s->Ab, s->nu, s->t1, s->t2, s->t3, (mpfr_ptr)0);
}

static void s001_clear(s001 *s)
{
    pcr_vec_free(s->om1, s->J * s->K);
    pcr_vec_free(s->Bm, s->J * s->K);
    pcr_vec_free(s->be1, s->J * s->K);
    pcr_vec_free(s->Bb, s->J * s->K);
    pcr_vec_free(s->om2, s->L * s->J);
    pcr_vec_free(s->Cm, s->L * s->J);
    pcr_vec_free(s->be2, s->L * s->J);
    pcr_vec_free(s->Cb, s->L * s->J);
    mpfr_clears(s->A, s->Ab, s->nu, s->t1, s->t2, s->t3, (mpfr_ptr)0);
}

/* 000's layout <- 001's omega (the symbol map of docs/SSCA.md 1). */
static void to000(mpfr_t *w, const s001 *s)
{
    for (size_t l = 0; l < s->L; l++)
        for (size_t j = 0; j < s->J; j++)
            mpfr_set(w[l * s->J + j], s->om2[l * s->J + j], MPFR_RNDN);
    for (size_t j = 0; j < s->J; j++)
        for (size_t k = 0; k < s->K; k++)
            mpfr_set(w[s->L * s->J + j * s->K + k], s->om1[j * s->K + k], MPFR_RNDN);
}

/* x <- (1 - rho) x + rho y, at x's precision (one rounding per operation). */
static void ema1(mpfr_t x, const mpfr_t y, const mpfr_t rho, mpfr_t tmp)
{
    mpfr_sub(tmp, y, x, MPFR_RNDN);
    mpfr_mul(tmp, tmp, rho, MPFR_RNDN);
    mpfr_add(x, x, tmp, MPFR_RNDN);
}

typedef struct {
    unsigned long draws_bad;   /* rounds whose batches differ from the trace's */
    double bits;               /* worst agreement of the iterates with the trace */
    double nubits;             /* worst agreement of nu (Algorithm 2) */
    unsigned long nu0;         /* rounds with nu = 0 */
    unsigned long nupos;       /* rounds with nu > 0 */
    int st;                    /* a fedref status (fr_ssca_net) */
} r001;

/* 001's Algorithm 1 (cons = 0) or 2 (cons = 1; sign = -1: Abar as printed,
 * + sum y log Q; sign = +1: the loss), compared with the trace tr of the
 * same problem and parameters. */
static r001 run001(pcr_prob *pr, const fr_ssca_params *prm, const fr_ssca_trace *tr, int cons,
                   int sign, mpfr_prec_t p)
{
    r001 r = {0, HUGE_VAL, HUGE_VAL, 0, 0, FR_OK};
    const size_t K = pr->P, J = pr->J, L = pr->L, d = pr->d, nc = pr->D.nc, B = prm->B;
    s001 s;
    s001_init(&s, K, J, L, p);
    mpfr_t *w = pcr_vec(d, p), *G = pcr_vec(nc * d, p), *F = pcr_vec(nc, p);
    mpfr_t rho, gam, tau, lam, U, c;
    mpfr_inits2(p, rho, gam, tau, lam, U, c, (mpfr_ptr)0);
    mpfr_set_d(tau, prm->tau, MPFR_RNDN);
    mpfr_set_d(lam, prm->lambda, MPFR_RNDN);
    mpfr_set_d(U, prm->U, MPFR_RNDN);
    mpfr_set_d(c, prm->c, MPFR_RNDN);
    for (size_t j = 0; j < J; j++)
        for (size_t k = 0; k < K; k++)
            mpfr_set_d(s.om1[j * K + k], prm->w1[L * J + j * K + k], MPFR_RNDN);
    for (size_t l = 0; l < L; l++)
        for (size_t j = 0; j < J; j++)
            mpfr_set_d(s.om2[l * J + j], prm->w1[l * J + j], MPFR_RNDN);
    mpfr_set_zero(s.A, 1);
    frng_t g[PCR_MAXC];
    for (size_t i = 0; i < nc; i++)
        frng_init(&g[i], prm->seed, FR_SSCA_STREAM_BATCH + i);
    size_t idx[64];
    for (unsigned long t = 1; t < prm->T && r.st == FR_OK; t++) {
        pcr_sched(rho, prm->a1, prm->alpha1, t);
        pcr_sched(gam, prm->a2, prm->alpha2, t);
        to000(w, &s);
        /* Step 4: each client's batch and message */
        int dbad = 0;
        for (size_t i = 0; i < nc && r.st == FR_OK; i++) {
            size_t loc[32];
            frng_sample(&g[i], pr->Ni[i], B, loc);
            for (size_t b = 0; b < B; b++) {
                idx[b] = pr->off[i] + loc[b];
                if (tr->draws == NULL || tr->draws[(t - 1) * tr->nd + i * B + b] != loc[b])
                    dbad = 1;
            }
            r.st = pcr_batch(cons ? F[i] : NULL, G + i * d, pr, w, idx, B);
        }
        r.draws_bad += dbad;
        if (r.st != FR_OK)
            break;
        /* Bbar, Cbar (and Abar): sum_i N_i/(B N) (...) */
        for (size_t j = 0; j < J; j++)
            for (size_t k = 0; k < K; k++) {
                mpfr_set_zero(s.Bb[j * K + k], 1);
                for (size_t i = 0; i < nc; i++) {
                    mpfr_mul_ui(s.t1, G[i * d + L * J + j * K + k], pr->Ni[i], MPFR_RNDN);
                    mpfr_add(s.Bb[j * K + k], s.Bb[j * K + k], s.t1, MPFR_RNDN);
                }
                mpfr_div_ui(s.Bb[j * K + k], s.Bb[j * K + k], B * pr->N, MPFR_RNDN);
            }
        for (size_t l = 0; l < L; l++)
            for (size_t j = 0; j < J; j++) {
                mpfr_set_zero(s.Cb[l * J + j], 1);
                for (size_t i = 0; i < nc; i++) {
                    mpfr_mul_ui(s.t1, G[i * d + l * J + j], pr->Ni[i], MPFR_RNDN);
                    mpfr_add(s.Cb[l * J + j], s.Cb[l * J + j], s.t1, MPFR_RNDN);
                }
                mpfr_div_ui(s.Cb[l * J + j], s.Cb[l * J + j], B * pr->N, MPFR_RNDN);
            }
        if (cons) {
            /* Abar: sum_l y log Q = -loss; sign -1 keeps the printed sign */
            mpfr_set_zero(s.Ab, 1);
            for (size_t i = 0; i < nc; i++) {
                mpfr_mul_ui(s.t1, F[i], pr->Ni[i], MPFR_RNDN);
                mpfr_add(s.Ab, s.Ab, s.t1, MPFR_RNDN);
            }
            mpfr_div_ui(s.Ab, s.Ab, B * pr->N, MPFR_RNDN);
            if (sign < 0)
                mpfr_neg(s.Ab, s.Ab, MPFR_RNDN);
            mpfr_set_zero(s.t2, 1);                                   /* ||omega||^2 */
            for (size_t k = 0; k < J * K; k++)
                mpfr_fma(s.t2, s.om1[k], s.om1[k], s.t2, MPFR_RNDN);
            for (size_t k = 0; k < L * J; k++)
                mpfr_fma(s.t2, s.om2[k], s.om2[k], s.t2, MPFR_RNDN);
            mpfr_fma(s.Ab, tau, s.t2, s.Ab, MPFR_RNDN);
            /* (20): Abar - sum Bbar omega_1 - sum Cbar omega_2 */
            for (size_t k = 0; k < J * K; k++) {
                mpfr_mul(s.t1, s.Bb[k], s.om1[k], MPFR_RNDN);
                mpfr_sub(s.Ab, s.Ab, s.t1, MPFR_RNDN);
            }
            for (size_t k = 0; k < L * J; k++) {
                mpfr_mul(s.t1, s.Cb[k], s.om2[k], MPFR_RNDN);
                mpfr_sub(s.Ab, s.Ab, s.t1, MPFR_RNDN);
            }
            ema1(s.A, s.Ab, rho, s.t1);
        } else {
            for (size_t k = 0; k < J * K; k++)
                ema1(s.be1[k], s.om1[k], rho, s.t1);
            for (size_t k = 0; k < L * J; k++)
                ema1(s.be2[k], s.om2[k], rho, s.t1);
        }
        /* (14), (15) */
        for (size_t k = 0; k < J * K; k++) {
            mpfr_mul(s.t2, tau, s.om1[k], MPFR_RNDN);
            mpfr_mul_2ui(s.t2, s.t2, 1, MPFR_RNDN);
            mpfr_sub(s.t2, s.Bb[k], s.t2, MPFR_RNDN);
            ema1(s.Bm[k], s.t2, rho, s.t1);
        }
        for (size_t k = 0; k < L * J; k++) {
            mpfr_mul(s.t2, tau, s.om2[k], MPFR_RNDN);
            mpfr_mul_2ui(s.t2, s.t2, 1, MPFR_RNDN);
            mpfr_sub(s.t2, s.Cb[k], s.t2, MPFR_RNDN);
            ema1(s.Cm[k], s.t2, rho, s.t1);
        }
        if (!cons) {
            /* (16)-(17): wbar = -(X + 2 lambda beta)/(2 tau); then (4) */
            for (size_t q = 0; q < 2; q++) {
                size_t n = q ? L * J : J * K;
                mpfr_t *X = q ? s.Cm : s.Bm, *be = q ? s.be2 : s.be1, *om = q ? s.om2 : s.om1;
                for (size_t k = 0; k < n; k++) {
                    mpfr_mul(s.t1, lam, be[k], MPFR_RNDN);
                    mpfr_mul_2ui(s.t1, s.t1, 1, MPFR_RNDN);
                    mpfr_add(s.t1, X[k], s.t1, MPFR_RNDN);
                    mpfr_div(s.t1, s.t1, tau, MPFR_RNDN);
                    mpfr_div_2ui(s.t1, s.t1, 1, MPFR_RNDN);
                    mpfr_neg(s.t1, s.t1, MPFR_RNDN);
                    ema1(om[k], s.t1, gam, s.t2);
                }
            }
        } else {
            /* (23): b, D = b + 4 tau (U - A), nu; (21)-(22) */
            mpfr_set_zero(s.t2, 1);
            for (size_t k = 0; k < J * K; k++)
                mpfr_fma(s.t2, s.Bm[k], s.Bm[k], s.t2, MPFR_RNDN);
            for (size_t k = 0; k < L * J; k++)
                mpfr_fma(s.t2, s.Cm[k], s.Cm[k], s.t2, MPFR_RNDN);  /* b */
            mpfr_sub(s.t3, U, s.A, MPFR_RNDN);
            mpfr_mul(s.t3, s.t3, tau, MPFR_RNDN);
            mpfr_mul_2ui(s.t3, s.t3, 2, MPFR_RNDN);
            mpfr_add(s.t3, s.t2, s.t3, MPFR_RNDN);                    /* D */
            if (mpfr_sgn(s.t3) > 0) {
                mpfr_div(s.nu, s.t2, s.t3, MPFR_RNDN);
                mpfr_sqrt(s.nu, s.nu, MPFR_RNDN);
                mpfr_sub_ui(s.nu, s.nu, 1, MPFR_RNDN);
                mpfr_div(s.nu, s.nu, tau, MPFR_RNDN);
                if (mpfr_sgn(s.nu) < 0)
                    mpfr_set_zero(s.nu, 1);
                if (mpfr_cmp(s.nu, c) > 0)
                    mpfr_set(s.nu, c, MPFR_RNDN);
            } else {
                mpfr_set(s.nu, c, MPFR_RNDN);
            }
            if (mpfr_zero_p(s.nu))
                r.nu0++;
            else
                r.nupos++;
            if (tr->nu != NULL) {
                double nb = pcr_bits1(s.nu, tr->nu[t - 1]);
                if (nb < r.nubits)
                    r.nubits = nb;
            }
            mpfr_mul(s.t3, s.nu, tau, MPFR_RNDN);
            mpfr_add_ui(s.t3, s.t3, 1, MPFR_RNDN);
            mpfr_mul_2ui(s.t3, s.t3, 1, MPFR_RNDN);                   /* 2 (1 + nu tau) */
            for (size_t q = 0; q < 2; q++) {
                size_t n = q ? L * J : J * K;
                mpfr_t *X = q ? s.Cm : s.Bm, *om = q ? s.om2 : s.om1;
                for (size_t k = 0; k < n; k++) {
                    mpfr_mul(s.t1, s.nu, X[k], MPFR_RNDN);
                    mpfr_div(s.t1, s.t1, s.t3, MPFR_RNDN);
                    mpfr_neg(s.t1, s.t1, MPFR_RNDN);
                    ema1(om[k], s.t1, gam, s.t2);
                }
            }
        }
        to000(w, &s);
        mpfr_t *row = tr->w + (prm->keep & FR_SSCA_KEEP_W ? t * d : 0);
        if ((prm->keep & FR_SSCA_KEEP_W) || t + 1 == prm->T) {
            double b = pcr_bits(w, row, d);
            if (b < r.bits)
                r.bits = b;
        }
    }
    s001_clear(&s);
    pcr_vec_free(w, d);
    pcr_vec_free(G, nc * d);
    pcr_vec_free(F, nc);
    mpfr_clears(rho, gam, tau, lam, U, c, (mpfr_ptr)0);
    return r;
}

int pc_ssca_runs_001(pc_ctx *ctx)
{
    ctx->function = "ssca_alg1";
    ctx->vector = "ssca_alg1";
    ctx->claim = "001 Alg. 1 with (12)-(17) and Alg. 2 with (19)-(23), as printed in 001's symbols and order, "
                 "= 000's Algorithms 1, 2 (weight printed) iterate by iterate; 001's Abar needs the loss (E-000-31)";
    ctx->erratum = "E-000-31";
    ctx->ran = ctx->failed = 0;
    const mpfr_prec_t p = ctx->prec;
    const double margin = (double)p - 24;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_R001);
    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE, differ = 0, active = 0;
    double w1b = HUGE_VAL, w2b = HUGE_VAL, nub = HUGE_VAL, pb = HUGE_VAL;
    unsigned long pr_nu0 = 0, pr_rounds = 0;
    for (unsigned long k = 0; k < ncase; k++) {
        uint64_t pseed = frng_next64(&g), rseed = frng_next64(&g);
        pcr_prob pr;
        size_t P = 3 + k % 2, nc = 2 + k % 2;
        const char *why = NULL;
        if (pcr_prob_init(&pr, pseed, 12, P, 2, 3, nc) != 0) {
            why = "problem setup failed";
            goto done;
        }
        fr_ssca_params prm;
        pcr_params(&prm, &pr, FR_SSCA_ALG1, 6 + k % 3, 2, rseed);
        prm.weight = FR_SSCA_W_PRINTED;
        prm.a1 = a1s[k % 4];
        prm.alpha1 = k % 2 ? 0.3 : 0.1;
        prm.lambda = k % 3 == 2 ? 0 : 1.0 / 64;
        fr_ssca_trace tr;
        for (int cons = 0; cons < 2 && !why; cons++) {
            prm.algo = cons ? FR_SSCA_ALG2 : FR_SSCA_ALG1;
            int st = pcr_run(&tr, &pr, &prm, p);
            if (st != FR_OK) {
                why = cons ? "fr_ssca_run(ALG2) failed" : "fr_ssca_run(ALG1) failed";
                break;
            }
            r001 a = run001(&pr, &prm, &tr, cons, +1, p);
            if (a.st != FR_OK)
                why = "fr_ssca_net failed";
            else if (a.draws_bad)
                why = "the batches differ from the trace's";
            else if (a.bits < margin)
                why = cons ? "001's Algorithm 2 (loss in Abar) != ALG2 beyond 2^-(p-24)"
                           : "001's Algorithm 1 != ALG1 beyond 2^-(p-24)";
            else if (cons && a.nubits < margin)
                why = "001's nu (23) != the trace's nu beyond 2^-(p-24)";
            if (!cons)
                w1b = fmin(w1b, a.bits);
            else {
                w2b = fmin(w2b, a.bits);
                nub = fmin(nub, a.nubits);
                /* (d): the printed Abar */
                r001 b = run001(&pr, &prm, &tr, 1, -1, p);
                pr_nu0 += b.nu0;
                pr_rounds += b.nu0 + b.nupos;
                if (a.nupos) {
                    active++;
                    pb = fmin(pb, b.bits);
                    if (b.bits >= 20 && !why)
                        why = "001's printed Abar gives ALG2's path although the constraint is active";
                    else if (b.bits < 20)
                        differ++;
                }
            }
            fr_ssca_trace_clear(&tr);
        }
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
    if (!ctx->failed && active == 0) {
        ctx->failed++;
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "the constraint was never active: (d) not exercised");
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu runs: 001's Alg. 1 = ALG1 (printed weight) to %.1f bits, 001's Alg. 2 with the loss in "
                     "Abar = ALG2 to %.1f bits (nu to %.1f; margin %.0f); with Abar as printed (+y log Q) the "
                     "path leaves ALG2's on %lu of %lu active cases (agreement %.1f bits), nu = 0 in %lu of %lu "
                     "rounds (A < U: F <= U not enforced)",
                     ctx->ran, w1b, w2b, nub, margin, differ, active, pb, pr_nu0, pr_rounds);
    return ctx->failed != 0;
}
