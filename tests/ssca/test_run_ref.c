/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_ref.c -- Check unit tests of fr_ssca_run and its trace
 * (include/fedref/ssca.h, docs/SSCA.md section 10): Algorithms 1-4 of 000
 * and the baselines of 000 Sec. VI in ref.
 *   round_by_hand_*   rounds recomputed here from the certified building
 *                     blocks (fr_ssca_net, _lin, _const, _ema, _argmin,
 *                     _lemma1, _update) in the order of section 10, and the
 *                     baselines' steps from exact MPFR arithmetic: the trace
 *                     must agree bit for bit (records included);
 *   draws_replayed    the recorded batches against frng_sample replayed on
 *                     the streams of docs/RNG.md 3.9;
 *   weight_rho1       W_EXACT and W_PRINTED: identical trajectories iff
 *                     rho^(1) = 1 (E-000-8);
 *   feature_is_sample Algorithms 3, 4, SGD_F, SGDM_F equal Algorithms 1, 2,
 *                     SGD_S, SGDM_S with one client (same draws, weight 1/B)
 *                     on data whose messages h_i are exact: two independent
 *                     code paths (net_partial/top/bottom vs net), 000 (20)-(21);
 *   records_t2        T = 2 and T = 3: row counts and NaN patterns;
 *   fedavg_perm       E B = Ni: a round's draws are a permutation of 0..Ni-1;
 *   alg2_u_huge       U above every F: nu = 0, branch ZERO, s = 0,
 *                     w^(t+1) = (1 - gamma) w^(t) (Lemma 1, wbar = 0);
 *   trace_statuses    trace_init / run statuses, trace untouched on
 *                     argument errors.
 * The run's seed is FEDREF_SEED (default 7; printed on failure). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "fedref.h"
#include "../test_util.h"

Suite *suite_ssca_run_ref(void);

enum { N = 20, P = 4, J = 2, L = 3, NC = 2, D_ = J * (L + P) };

/* The surrogate mass of docs/SSCA.md 10: W <- (1 - rho) W + rho
 * (fr_ssca_ema with y = 1, W_0 = 0) and P = 1 - W exactly. */
static void mass_step(mpfr_t *W, mpfr_t Pout, const mpfr_t rho)
{
    mpfr_t one[1];
    mpfr_init2(one[0], 2);
    mpfr_set_ui(one[0], 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_ema(W, one, 1, rho), FR_OK);
    mpfr_set_prec(Pout, mpfr_get_prec(*W) + 1100);
    ck_assert(mpfr_ui_sub(Pout, 1, *W, MPFR_RNDN) == 0);
    mpfr_clear(one[0]);
}

static double Z[N * P], w1[D_];
static size_t y[N], Ni[NC] = {12, 8}, Pi[NC] = {1, 3};
static uint64_t seed;

static fr_ssca_data data(void)
{
    fr_ssca_synth(11, N, P, L, Z, y);
    fr_ssca_init_w(11, L, J, P, w1);
    fr_ssca_data D = {N, P, J, L, Z, y, NC, Ni, Pi, 0};
    seed = tu_seed(7);
    return D;
}

static fr_ssca_params params(int algo, unsigned long T)
{
    fr_ssca_params p;
    memset(&p, 0, sizeof p);
    p.algo = algo;
    p.T = T;
    p.B = 3;
    p.E = 2;
    p.a1 = 0.9, p.alpha1 = 0.1, p.a2 = 0.5, p.alpha2 = 0.1;
    p.tau = 0.2, p.lambda = 0.01, p.U = 0.13, p.c = 1e5;
    p.lr_a = 0.3, p.lr_alpha = 0.3, p.mom = 0.1;
    p.w1 = w1;
    p.keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST;
    p.seed = seed;
    return p;
}

static void run_ok(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *p, mpfr_prec_t prec)
{
    memset(t, 0, sizeof *t);
    int st = fr_ssca_trace_init(t, D, p, prec);
    ck_assert_msg(st == FR_OK, "trace_init %d [FEDREF_SEED=%llu]", st, (unsigned long long)seed);
    st = fr_ssca_run(t, D, p);
    ck_assert_msg(st == FR_OK, "run %s: %d [FEDREF_SEED=%llu]", fr_ssca_algo_name(p->algo), st,
                  (unsigned long long)seed);
    ck_assert_uint_eq(t->rounds, p->T - 1);
}

static mpfr_t *vnew(size_t n, mpfr_prec_t prec)
{
    mpfr_t *v = malloc(n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        mpfr_init2(v[k], prec);
    return v;
}

static void vfree(mpfr_t *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        mpfr_clear(v[k]);
    free(v);
}

/* Equal numbers with equal signs, or both NaN. */
static int same(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static void assert_same(mpfr_srcptr got, mpfr_srcptr want, const char *what, size_t k)
{
    if (!same(got, want))
        mpfr_fprintf(stderr, "%s[%zu]: got %.40Rg want %.40Rg\n", what, k, got, want);
    ck_assert_msg(same(got, want), "%s[%zu] differs [FEDREF_SEED=%llu]", what, k,
                  (unsigned long long)seed);
}

/* x = a t^-alpha as section 10 states it: mpfr_pow at p, then the product. */
static void sched(mpfr_ptr x, double a, double alpha, unsigned long t)
{
    mpfr_t tt, e;
    mpfr_inits2(64, tt, e, (mpfr_ptr)0);
    mpfr_set_ui(tt, t, MPFR_RNDN);
    mpfr_set_d(e, -alpha, MPFR_RNDN);
    mpfr_pow(x, tt, e, MPFR_RNDN);
    mpfr_mul_d(x, x, a, MPFR_RNDN);
    mpfr_clears(tt, e, (mpfr_ptr)0);
}

/* ||x||^2 and F(x) = (1/N) sum loss, independently: squares exact at 2p + 2. */
static void norm2(mpfr_ptr out, mpfr_t *const x, size_t d)
{
    mpfr_t s, q;
    mpfr_init2(s, 4 * mpfr_get_prec(out) + 64);
    mpfr_init2(q, 2 * mpfr_get_prec(x[0]) + 2);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (size_t j = 0; j < d; j++) {
        mpfr_sqr(q, x[j], MPFR_RNDN);
        ck_assert(mpfr_add(s, s, q, MPFR_RNDN) == 0);      /* exact for these ranges */
    }
    mpfr_set(out, s, MPFR_RNDN);
    mpfr_clears(s, q, (mpfr_ptr)0);
}

/* The batch rows of client i (global offset off) as mpfr numbers. */
static void gather(mpfr_t *Zb, size_t *yb, const fr_ssca_data *D, size_t off, const size_t *idx,
                   size_t nb)
{
    for (size_t n = 0; n < nb; n++) {
        for (size_t p = 0; p < D->P; p++)
            mpfr_set_d(Zb[n * D->P + p], D->Z[(off + idx[n]) * D->P + p], MPFR_RNDN);
        yb[n] = D->y[off + idx[n]];
    }
}

/* ---- (a) Algorithms 1 and 2, three points, by hand --------------------------- */

static unsigned branches_seen;          /* bit b: Lemma 1 branch b occurred */

static void by_hand_sca(int algo, int weight, double Uv, double cv)
{
    fr_ssca_data D = data();
    fr_ssca_params p = params(algo, 3);
    p.weight = weight;
    p.U = Uv;
    p.c = cv;
    const mpfr_prec_t prec = 160;
    fr_ssca_trace t;
    run_ok(&t, &D, &p, prec);
    const size_t d = D_, B = p.B;
    mpfr_t *w = vnew(d, prec), *f1 = vnew(d, prec), *beta = vnew(d, prec), *wbar = vnew(d, prec);
    mpfr_t *G = vnew(NC * d, prec), *F = vnew(NC, prec), *Zb = vnew(B * P, 53), *Zall = vnew(N * P, 53);
    mpfr_t Pm, Pe, C, rho, gamma, tau, tw, nu, lam, c, U, one, x, zero;
    mpfr_inits2(prec, Pm, Pe, C, rho, gamma, nu, x, (mpfr_ptr)0);
    mpfr_inits2(53, tau, lam, c, U, (mpfr_ptr)0);
    mpfr_init2(tw, 2 * prec + 128);
    mpfr_init2(one, 2);
    mpfr_init2(zero, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_ui(zero, 0, MPFR_RNDN);
    mpfr_set_d(tau, p.tau, MPFR_RNDN);
    mpfr_set_d(lam, p.lambda, MPFR_RNDN);
    mpfr_set_d(c, p.c, MPFR_RNDN);
    mpfr_set_d(U, p.U, MPFR_RNDN);
    size_t yb[8], idx[NC][8], off[NC] = {0, Ni[0]};
    for (size_t k = 0; k < N * P; k++)
        mpfr_set_d(Zall[k], Z[k], MPFR_RNDN);
    for (size_t j = 0; j < d; j++) {
        mpfr_set_d(w[j], w1[j], MPFR_RNDN);
        mpfr_set_ui(f1[j], 0, MPFR_RNDN);
        mpfr_set_ui(beta[j], 0, MPFR_RNDN);
    }
    mpfr_set_ui(Pm, 0, MPFR_RNDN);                 /* W_0 */
    mpfr_set_ui(C, 0, MPFR_RNDN);
    frng_t g[NC];
    for (size_t i = 0; i < NC; i++)
        frng_init(&g[i], seed, 1 + i);
    const int cons = algo == FR_SSCA_ALG2;
    for (unsigned long r = 1; r <= 3; r++) {
        /* records of w^(r) */
        for (size_t j = 0; j < d; j++)
            assert_same(t.w[(r - 1) * d + j], w[j], "w", (r - 1) * d + j);
        norm2(x, w, d);
        assert_same(t.norm2[r - 1], x, "norm2", r - 1);
        ck_assert_int_eq(fr_ssca_net(x, NULL, w, L, J, P, Zall, y, N), FR_OK);
        mpfr_div_ui(x, x, N, MPFR_RNDN);
        assert_same(t.cost[r - 1], x, "cost", r - 1);
        if (cons) {
            mpfr_sub(x, x, U, MPFR_RNDN);
            assert_same(t.cons[r - 1], x, "cons", r - 1);
        } else {
            ck_assert(mpfr_nan_p(t.cons[r - 1]));
        }
        if (r == 3)
            break;
        sched(rho, p.a1, p.alpha1, r);
        sched(gamma, p.a2, p.alpha2, r);
        /* Step 4 at each client */
        for (size_t i = 0; i < NC; i++) {
            ck_assert_int_eq(frng_sample(&g[i], Ni[i], B, idx[i]), FR_OK);
            gather(Zb, yb, &D, off[i], idx[i], B);
            ck_assert_int_eq(fr_ssca_net(cons ? F[i] : NULL, G + i * d, w, L, J, P, Zb, yb, B), FR_OK);
        }
        /* Step 5 */
        if (cons)
            ck_assert_int_eq(fr_ssca_const(C, w, G, F, Ni, NC, d, B, rho, tau), FR_OK);
        ck_assert_int_eq(fr_ssca_lin(f1, w, G, Ni, NC, d, B, rho, tau), FR_OK);
        if (!cons)
            ck_assert_int_eq(fr_ssca_ema(beta, w, d, rho), FR_OK);
        mass_step(&Pm, Pe, rho);
        mpfr_srcptr Pw = weight == FR_SSCA_W_EXACT ? Pe : zero;
        if (!cons) {
            ck_assert_int_eq(fr_ssca_argmin(wbar, f1, beta, d, lam, tau, Pw), FR_OK);
        } else {
            ck_assert(mpfr_ui_sub(tw, 1, Pw, MPFR_RNDN) == 0); /* 1 - P, exact */
            ck_assert(mpfr_mul(tw, tw, tau, MPFR_RNDN) == 0);  /* tau W, exact */
            int br = 0;
            ck_assert_int_eq(fr_ssca_lemma1(nu, wbar, &br, f1, d, C, tw, c, U), FR_OK);
            assert_same(t.nu[r - 1], nu, "nu", r - 1);
            ck_assert_int_eq(t.branch[r - 1], br);
            branches_seen |= 1u << br;
            /* s = max(0, f1^T wbar + tau W ||wbar||^2 + C - U), once rounded */
            mpfr_t s, q;
            mpfr_init2(s, 8 * prec + 256);
            mpfr_init2(q, 4 * prec + 128);
            mpfr_sub(s, C, U, MPFR_RNDN);
            for (size_t j = 0; j < d; j++) {
                mpfr_mul(q, tw, wbar[j], MPFR_RNDN);
                mpfr_add(q, q, f1[j], MPFR_RNDN);
                mpfr_mul(q, q, wbar[j], MPFR_RNDN);
                mpfr_add(s, s, q, MPFR_RNDN);
            }
            mpfr_set(x, s, MPFR_RNDN);
            if (mpfr_sgn(x) <= 0)
                mpfr_set_ui(x, 0, MPFR_RNDN);
            if (br == FR_SSCA_L1_ZERO || br == FR_SSCA_L1_INTERIOR) {
                /* nu < c: the optimal slack is exactly 0 (complementary
                 * slackness), and in the interior the constraint is tight:
                 * the residual is rounding noise only */
                ck_assert(mpfr_zero_p(t.slack[r - 1]) && !mpfr_signbit(t.slack[r - 1]));
                if (br == FR_SSCA_L1_INTERIOR)
                    ck_assert(mpfr_zero_p(x) || mpfr_get_exp(x) < mpfr_get_exp(C) - (long)prec + 16
                              || mpfr_get_exp(x) < mpfr_get_exp(U) - (long)prec + 16);
            } else {
                assert_same(t.slack[r - 1], x, "slack", r - 1);
            }
            mpfr_clears(s, q, (mpfr_ptr)0);
        }
        ck_assert_int_eq(fr_ssca_update(w, wbar, d, gamma), FR_OK);
        /* the draws */
        for (size_t i = 0; i < NC; i++)
            for (size_t k = 0; k < B; k++)
                ck_assert_uint_eq(t.draws[(r - 1) * t.nd + i * B + k], idx[i][k]);
    }
    vfree(w, d); vfree(f1, d); vfree(beta, d); vfree(wbar, d); vfree(G, NC * d); vfree(F, NC);
    vfree(Zb, B * P); vfree(Zall, N * P);
    mpfr_clears(Pm, Pe, C, rho, gamma, tau, tw, nu, lam, c, U, one, x, zero, (mpfr_ptr)0);
    fr_ssca_trace_clear(&t);
}

START_TEST(round_by_hand_alg1)
{
    by_hand_sca(FR_SSCA_ALG1, FR_SSCA_W_EXACT, 0, 1);
    by_hand_sca(FR_SSCA_ALG1, FR_SSCA_W_PRINTED, 0, 1);
}
END_TEST

START_TEST(round_by_hand_alg2)
{
    /* (U, c) chosen so that the default seed meets every branch of Lemma 1:
     * D <= 0, interior, clipped at c, nu = 0 */
    const double uc[][2] = {{0.9, 0.5}, {1.1, 8}, {1.0, 0.5}, {1.3, 2}};
    branches_seen = 0;
    for (int k = 0; k < 4; k++) {
        by_hand_sca(FR_SSCA_ALG2, FR_SSCA_W_EXACT, uc[k][0], uc[k][1]);
        by_hand_sca(FR_SSCA_ALG2, FR_SSCA_W_PRINTED, uc[k][0], uc[k][1]);
    }
    if (seed == 7)
        ck_assert_uint_eq(branches_seen, 0x1e);
}
END_TEST

/* ---- (a'') Algorithm 3 and SGD_F, by hand, clients of 1 and 3 features ----- */

/* g = (A, B_1 .. B_I) at x on the batch idx (000 Steps 4-6, (20)-(21)),
 * every message at prec. */
static void feature_grad_by_hand(mpfr_t *g, mpfr_t *const x, const size_t *idx, size_t B,
                                 mpfr_prec_t prec)
{
    const size_t LJ = L * J;
    mpfr_t *H = vnew(NC * B * J, prec), *w1i = vnew(J * P, prec), *Zi = vnew(B * P, 53);
    mpfr_t *Bi = vnew(J * P, prec);
    size_t yb[8], off[NC] = {0, Pi[0]};
    for (size_t n = 0; n < B; n++)
        yb[n] = y[idx[n]];
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < NC; i++) {
            for (size_t n = 0; n < B; n++)
                for (size_t q = 0; q < Pi[i]; q++)
                    mpfr_set_d(Zi[n * Pi[i] + q], Z[idx[n] * P + off[i] + q], MPFR_RNDN);
            if (pass == 0) {                       /* Step 4: h_i */
                for (size_t j = 0; j < J; j++)
                    for (size_t q = 0; q < Pi[i]; q++)
                        mpfr_set(w1i[j * Pi[i] + q], x[LJ + j * P + off[i] + q], MPFR_RNDN);
                ck_assert_int_eq(fr_ssca_net_partial(H + i * B * J, w1i, Zi, B, J, Pi[i]), FR_OK);
            } else {                               /* Step 6: B_i */
                ck_assert_int_eq(fr_ssca_net_bottom(Bi, H, NC, x, yb, Zi, B, L, J, Pi[i]), FR_OK);
                for (size_t j = 0; j < J; j++)
                    for (size_t q = 0; q < Pi[i]; q++)
                        mpfr_set(g[LJ + j * P + off[i] + q], Bi[j * Pi[i] + q], MPFR_RNDN);
            }
            if (pass == 0 && i + 1 == NC)          /* Step 5: A */
                ck_assert_int_eq(fr_ssca_net_top(NULL, g, H, NC, x, yb, B, L, J), FR_OK);
        }
    vfree(H, NC * B * J); vfree(w1i, J * P); vfree(Zi, B * P); vfree(Bi, J * P);
}

START_TEST(round_by_hand_feature)
{
    fr_ssca_data D = data();
    const mpfr_prec_t prec = 120;
    const size_t d = D_;
    for (int algo = FR_SSCA_ALG3; algo <= FR_SSCA_SGD_F; algo += FR_SSCA_SGD_F - FR_SSCA_ALG3) {
        fr_ssca_params p = params(algo, 3);
        const size_t B = p.B;
        fr_ssca_trace t;
        run_ok(&t, &D, &p, prec);
        mpfr_t *w = vnew(d, prec), *f1 = vnew(d, prec), *beta = vnew(d, prec), *g = vnew(d, prec);
        mpfr_t Pm, Pe, rho, gamma, r, tau, lam, x, q;
        mpfr_inits2(prec, Pm, Pe, rho, gamma, r, (mpfr_ptr)0);
        mpfr_inits2(53, tau, lam, (mpfr_ptr)0);
        mpfr_inits2(8 * prec, x, q, (mpfr_ptr)0);
        mpfr_set_d(tau, p.tau, MPFR_RNDN);
        mpfr_set_d(lam, p.lambda, MPFR_RNDN);
        for (size_t j = 0; j < d; j++) {
            mpfr_set_d(w[j], w1[j], MPFR_RNDN);
            mpfr_set_ui(f1[j], 0, MPFR_RNDN);
            mpfr_set_ui(beta[j], 0, MPFR_RNDN);
        }
        mpfr_set_ui(Pm, 0, MPFR_RNDN);             /* W_0 */
        frng_t gs;
        frng_init(&gs, seed, 1);                   /* the server's stream */
        size_t idx[8];
        for (unsigned long rr = 1; rr < 3; rr++) {
            ck_assert_int_eq(frng_sample(&gs, N, B, idx), FR_OK);
            for (size_t k = 0; k < B; k++)
                ck_assert_uint_eq(t.draws[(rr - 1) * B + k], idx[k]);
            feature_grad_by_hand(g, w, idx, B, prec);
            if (algo == FR_SSCA_ALG3) {
                sched(rho, p.a1, p.alpha1, rr);
                sched(gamma, p.a2, p.alpha2, rr);
                const size_t n1 = B;               /* one "client" of weight 1/B */
                ck_assert_int_eq(fr_ssca_lin(f1, w, g, &n1, 1, d, B, rho, tau), FR_OK);
                ck_assert_int_eq(fr_ssca_ema(beta, w, d, rho), FR_OK);
                mass_step(&Pm, Pe, rho);
                ck_assert_int_eq(fr_ssca_argmin(g, f1, beta, d, lam, tau, Pe), FR_OK);
                ck_assert_int_eq(fr_ssca_update(w, g, d, gamma), FR_OK);
            } else {
                /* w <- w - r (g/B + 2 lambda w), the exact value rounded once */
                sched(r, p.lr_a, p.lr_alpha, rr);
                for (size_t j = 0; j < d; j++) {
                    mpfr_mul(x, lam, w[j], MPFR_RNDN);
                    mpfr_mul_ui(x, x, 2 * B, MPFR_RNDN);
                    mpfr_add(x, x, g[j], MPFR_RNDN);
                    mpfr_mul(x, x, r, MPFR_RNDN);
                    mpfr_mul_ui(q, w[j], B, MPFR_RNDN);
                    mpfr_sub(x, q, x, MPFR_RNDN);
                    mpfr_div_ui(w[j], x, B, MPFR_RNDN);
                }
            }
            for (size_t j = 0; j < d; j++)
                assert_same(t.w[rr * d + j], w[j], fr_ssca_algo_name(algo), rr * d + j);
        }
        vfree(w, d); vfree(f1, d); vfree(beta, d); vfree(g, d);
        mpfr_clears(Pm, Pe, rho, gamma, r, tau, lam, x, q, (mpfr_ptr)0);
        fr_ssca_trace_clear(&t);
    }
}
END_TEST

/* ---- (a') SGD_S and SGDM_S, one round, from exact MPFR arithmetic --------- */

START_TEST(round_by_hand_sgd_s)
{
    fr_ssca_data D = data();
    for (int algo = FR_SSCA_SGD_S; algo <= FR_SSCA_SGDM_S; algo++) {
        fr_ssca_params p = params(algo, 2);
        const mpfr_prec_t prec = 96;
        fr_ssca_trace t;
        run_ok(&t, &D, &p, prec);
        const size_t d = D_, B = p.B, E = p.E;
        const mpfr_prec_t big = 4096;    /* every intermediate below is exact */
        mpfr_t *wi = vnew(NC * d, prec), *vi = vnew(NC * d, prec), *G = vnew(d, prec);
        mpfr_t *Zb = vnew(B * P, 53);
        mpfr_t r, e, q, lam, m, want;
        mpfr_init2(r, prec);
        mpfr_inits2(big, e, q, (mpfr_ptr)0);
        mpfr_inits2(53, lam, m, (mpfr_ptr)0);
        mpfr_init2(want, prec);
        mpfr_set_d(lam, p.lambda, MPFR_RNDN);
        mpfr_set_d(m, p.mom, MPFR_RNDN);
        sched(r, p.lr_a, p.lr_alpha, 1);
        size_t idx[16], yb[8], off[NC] = {0, Ni[0]};
        for (size_t i = 0; i < NC; i++) {
            frng_t g;
            frng_init(&g, seed, 1 + i);
            ck_assert_int_eq(frng_sample(&g, Ni[i], E * B, idx), FR_OK);
            for (size_t k = 0; k < E * B; k++)
                ck_assert_uint_eq(t.draws[i * E * B + k], idx[k]);
            for (size_t j = 0; j < d; j++) {
                mpfr_set_d(wi[i * d + j], w1[j], MPFR_RNDN);
                mpfr_set_ui(vi[i * d + j], 0, MPFR_RNDN);
            }
            for (size_t s = 0; s < E; s++) {
                gather(Zb, yb, &D, off[i], idx + s * B, B);
                ck_assert_int_eq(fr_ssca_net(NULL, G, wi + i * d, L, J, P, Zb, yb, B), FR_OK);
                for (size_t j = 0; j < d; j++) {
                    mpfr_ptr x = wi[i * d + j], v = vi[i * d + j];
                    /* e = B (G/B + 2 lambda x) = G + 2 lambda B x, exact */
                    mpfr_mul(q, lam, x, MPFR_RNDN);
                    mpfr_mul_ui(q, q, 2 * B, MPFR_RNDN);
                    mpfr_add(e, G[j], q, MPFR_RNDN);           /* B (G/B + 2 lambda x) */
                    if (algo == FR_SSCA_SGD_S) {
                        mpfr_mul(e, e, r, MPFR_RNDN);          /* r B grad */
                        mpfr_mul_ui(q, x, B, MPFR_RNDN);
                        mpfr_sub(e, q, e, MPFR_RNDN);          /* B x - r B grad */
                        mpfr_div_ui(x, e, B, MPFR_RNDN);       /* one rounding */
                    } else {
                        mpfr_mul(q, m, v, MPFR_RNDN);
                        mpfr_mul_ui(q, q, B, MPFR_RNDN);
                        mpfr_add(e, e, q, MPFR_RNDN);          /* B (mom v + grad) */
                        mpfr_div_ui(v, e, B, MPFR_RNDN);
                        mpfr_mul(q, r, v, MPFR_RNDN);
                        mpfr_sub(q, x, q, MPFR_RNDN);
                        mpfr_set(x, q, MPFR_RNDN);
                    }
                }
            }
        }
        /* the server: w = sum Ni wi / N */
        for (size_t j = 0; j < d; j++) {
            mpfr_mul_ui(e, wi[j], Ni[0], MPFR_RNDN);
            mpfr_mul_ui(q, wi[d + j], Ni[1], MPFR_RNDN);
            mpfr_add(e, e, q, MPFR_RNDN);
            mpfr_div_ui(want, e, N, MPFR_RNDN);
            assert_same(t.w[d + j], want, "w^2", j);
        }
        vfree(wi, NC * d); vfree(vi, NC * d); vfree(G, d); vfree(Zb, B * P);
        mpfr_clears(r, e, q, lam, m, want, (mpfr_ptr)0);
        fr_ssca_trace_clear(&t);
    }
}
END_TEST

/* ---- (b) the draws against an independent replay --------------------------- */

START_TEST(draws_replayed)
{
    fr_ssca_data D = data();
    const int algos[] = {FR_SSCA_ALG1, FR_SSCA_SGD_S, FR_SSCA_ALG4, FR_SSCA_SGDM_F};
    for (int a = 0; a < 4; a++) {
        fr_ssca_params p = params(algos[a], 5);
        p.keep = FR_SSCA_KEEP_DRAWS;
        fr_ssca_trace t;
        run_ok(&t, &D, &p, 64);
        const int feat = fr_ssca_algo_feature(p.algo);
        const size_t k = feat ? p.B : (p.algo == FR_SSCA_SGD_S ? p.E * p.B : p.B);
        ck_assert_uint_eq(t.nd, feat ? p.B : NC * k);
        frng_t g[NC];
        for (size_t i = 0; i < NC; i++)
            frng_init(&g[i], seed, feat ? 1 : 1 + i);
        size_t idx[16];
        for (size_t r = 0; r + 1 < p.T; r++)
            for (size_t i = 0; i < (feat ? 1 : NC); i++) {
                ck_assert_int_eq(frng_sample(&g[i], feat ? N : Ni[i], k, idx), FR_OK);
                for (size_t q = 0; q < k; q++)
                    ck_assert_uint_eq(t.draws[r * t.nd + i * k + q], idx[q]);
            }
        fr_ssca_trace_clear(&t);
    }
}
END_TEST

/* ---- (c) the surrogate weight (E-000-8) -------------------------------------- */

START_TEST(weight_rho1)
{
    fr_ssca_data D = data();
    const int algos[] = {FR_SSCA_ALG1, FR_SSCA_ALG2, FR_SSCA_ALG3, FR_SSCA_ALG4};
    for (int a = 0; a < 4; a++)
        for (int one = 0; one <= 1; one++) {
            fr_ssca_params p = params(algos[a], 4);
            p.a1 = one ? 1.0 : 0.9;
            p.U = 0.9, p.c = 0.5;
            fr_ssca_trace te, tp;
            run_ok(&te, &D, &p, 128);
            p.weight = FR_SSCA_W_PRINTED;
            run_ok(&tp, &D, &p, 128);
            int all = 1;
            for (size_t k = 0; k < te.T * te.d; k++)
                all &= same(te.w[k], tp.w[k]);
            ck_assert_msg(all == one, "%s a1 = %g: trajectories %s [FEDREF_SEED=%llu]",
                          fr_ssca_algo_name(p.algo), p.a1, all ? "equal" : "differ",
                          (unsigned long long)seed);
            /* the first point is w^(1) either way */
            for (size_t j = 0; j < te.d; j++)
                ck_assert(same(te.w[j], tp.w[j]));
            fr_ssca_trace_clear(&te);
            fr_ssca_trace_clear(&tp);
        }
}
END_TEST

/* ---- feature-based = sample-based with one client, exact messages ---------- */

START_TEST(feature_is_sample)
{
    /* Z entries 0 or +-2^k and one feature per client: every h_i = w1_{j,p}
     * z_{n,p} is exact at any precision, so fr_ssca_net_top/_bottom return
     * exactly fr_ssca_net's blocks and the weights N/(B N) and B/(B B)
     * agree: the feature-based run must equal the sample-based one with
     * one client, bit for bit. */
    double Zp[N * P];
    size_t yp[N];
    frng_t g;
    frng_init(&g, 99, 0);
    for (size_t k = 0; k < N * P; k++) {
        uint64_t u;
        frng_below(&g, 9, &u);
        Zp[k] = u == 0 ? 0.0 : ldexp(u % 2 ? 1.0 : -1.0, (int)(u / 2) - 2);
    }
    for (size_t n = 0; n < N; n++)
        yp[n] = n % L;
    fr_ssca_init_w(11, L, J, P, w1);
    seed = tu_seed(7);
    size_t n1[1] = {N}, p1[P] = {1, 1, 1, 1};
    fr_ssca_data Ds = {N, P, J, L, Zp, yp, 1, n1, NULL, 0};
    fr_ssca_data Df = {N, P, J, L, Zp, yp, P, NULL, p1, 0};
    const int pairs[4][2] = {{FR_SSCA_ALG1, FR_SSCA_ALG3}, {FR_SSCA_ALG2, FR_SSCA_ALG4},
                             {FR_SSCA_SGD_S, FR_SSCA_SGD_F}, {FR_SSCA_SGDM_S, FR_SSCA_SGDM_F}};
    for (int a = 0; a < 4; a++) {
        fr_ssca_params ps = params(pairs[a][0], 4), pf = params(pairs[a][1], 4);
        ps.E = pf.E = 1;
        ps.U = pf.U = 0.9;
        ps.c = pf.c = 0.5;
        fr_ssca_trace ts, tf;
        run_ok(&ts, &Ds, &ps, 100);
        run_ok(&tf, &Df, &pf, 100);
        for (size_t k = 0; k < ts.T * ts.d; k++)
            assert_same(tf.w[k], ts.w[k], fr_ssca_algo_name(pf.algo), k);
        for (size_t k = 0; k < ts.T; k++) {
            assert_same(tf.cost[k], ts.cost[k], "cost", k);
            assert_same(tf.cons[k], ts.cons[k], "cons", k);
        }
        for (size_t k = 0; k + 1 < ts.T; k++) {
            assert_same(tf.nu[k], ts.nu[k], "nu", k);
            assert_same(tf.slack[k], ts.slack[k], "slack", k);
            ck_assert_int_eq(tf.branch[k], ts.branch[k]);
        }
        for (size_t k = 0; k < (ts.T - 1) * ts.nd; k++)
            ck_assert_uint_eq(tf.draws[k], ts.draws[k]);
        fr_ssca_trace_clear(&ts);
        fr_ssca_trace_clear(&tf);
    }
    fr_ssca_init_w(11, L, J, P, w1);
}
END_TEST

/* ---- (d) records: counts and NaN patterns --------------------------------- */

START_TEST(records_t2)
{
    fr_ssca_data D = data();
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++)
        for (unsigned long T = 2; T <= 3; T++)
            for (unsigned keep = 0; keep <= 7; keep += 7) {
                fr_ssca_params p = params(a, T);
                p.keep = keep;
                fr_ssca_trace t;
                run_ok(&t, &D, &p, 64);
                const int cons = fr_ssca_algo_constrained(a);
                ck_assert_uint_eq(t.T, T);
                ck_assert_uint_eq(t.d, D_);
                const size_t rows = keep & FR_SSCA_KEEP_W ? T : 1;
                for (size_t k = 0; k < rows * t.d; k++)
                    ck_assert(mpfr_number_p(t.w[k]));
                for (size_t k = 0; k < T; k++) {
                    ck_assert(mpfr_number_p(t.norm2[k]) && mpfr_sgn(t.norm2[k]) > 0);
                    ck_assert(mpfr_number_p(t.cost[k]) == ((keep & FR_SSCA_KEEP_COST) != 0));
                    ck_assert(mpfr_number_p(t.cons[k])
                              == (cons && (keep & FR_SSCA_KEEP_COST) != 0));
                }
                for (size_t k = 0; k + 1 < T; k++) {
                    ck_assert(mpfr_number_p(t.nu[k]) == cons);
                    ck_assert(mpfr_number_p(t.slack[k]) == cons);
                    ck_assert(cons ? t.branch[k] >= FR_SSCA_L1_DNONPOS && t.branch[k] <= FR_SSCA_L1_CLIPC
                                   : t.branch[k] == 0);
                }
                ck_assert((t.draws != NULL) == ((keep & FR_SSCA_KEEP_DRAWS) != 0));
                for (size_t k = 0; t.draws != NULL && k < (T - 1) * t.nd; k++)
                    ck_assert(t.draws[k] < N);
                /* w^T: the last row (KEEP_W) or the only one is the final point,
                 * which differs from w^(1) after a round */
                mpfr_t *last = t.w + (rows - 1) * t.d;
                int moved = 0;
                for (size_t j = 0; j < t.d; j++)
                    moved |= mpfr_cmp_d(last[j], w1[j]) != 0;
                ck_assert(moved);
                fr_ssca_round_msgs m;
                ck_assert_int_eq(fr_ssca_run_msgs(&m, &D, &p), FR_OK);
                ck_assert(m.down == t.msgs.down && m.up == t.msgs.up && m.peer == t.msgs.peer);
                fr_ssca_trace_clear(&t);
            }
}
END_TEST

/* ---- (e) FedAvg: E B = Ni, one pass over the local data -------------------- */

START_TEST(fedavg_perm)
{
    fr_ssca_data D = data();
    size_t nq[NC] = {10, 10};
    D.Ni = nq;
    fr_ssca_params p = params(FR_SSCA_SGD_S, 4);
    p.B = 2, p.E = 5;
    fr_ssca_trace t;
    run_ok(&t, &D, &p, 64);
    ck_assert_uint_eq(t.nd, NC * 10);
    for (size_t r = 0; r + 1 < p.T; r++)
        for (size_t i = 0; i < NC; i++) {
            int seen[10] = {0};
            for (size_t k = 0; k < 10; k++) {
                size_t v = t.draws[r * t.nd + i * 10 + k];
                ck_assert_uint_lt(v, 10);
                ck_assert_int_eq(seen[v]++, 0);
            }
        }
    fr_ssca_trace_clear(&t);
}
END_TEST

/* ---- (f) Algorithm 2 with U above every cost: nu = 0, wbar = 0 ------------- */

START_TEST(alg2_u_huge)
{
    fr_ssca_data D = data();
    for (int a = FR_SSCA_ALG2; a <= FR_SSCA_ALG4; a += 2) {
        fr_ssca_params p = params(a, 5);
        p.U = 1e6;
        p.alpha2 = 0;                       /* gamma = a2 exactly */
        const mpfr_prec_t prec = 80;
        fr_ssca_trace t;
        run_ok(&t, &D, &p, prec);
        mpfr_t x, om;
        mpfr_init2(x, prec);
        mpfr_init2(om, 53);
        mpfr_set_d(om, 1 - p.a2, MPFR_RNDN);   /* exact: a2 = 0.5 */
        for (size_t r = 0; r + 1 < p.T; r++) {
            ck_assert(mpfr_zero_p(t.nu[r]) && !mpfr_signbit(t.nu[r]));
            ck_assert_int_eq(t.branch[r], FR_SSCA_L1_ZERO);
            ck_assert(mpfr_zero_p(t.slack[r]));
            for (size_t j = 0; j < t.d; j++) {
                mpfr_mul(x, t.w[r * t.d + j], om, MPFR_RNDN);
                assert_same(t.w[(r + 1) * t.d + j], x, "w", (r + 1) * t.d + j);
            }
            ck_assert(mpfr_cmp_d(t.cons[r], -1e5) < 0);
        }
        mpfr_clears(x, om, (mpfr_ptr)0);
        fr_ssca_trace_clear(&t);
    }
}
END_TEST

/* ---- (g) statuses of trace_init and run ------------------------------------- */

START_TEST(trace_statuses)
{
    fr_ssca_data D = data();
    fr_ssca_params p = params(FR_SSCA_ALG1, 3);
    fr_ssca_trace t, z;
    memset(&z, 0, sizeof z);
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(fr_ssca_trace_init(NULL, &D, &p, 64), FR_ENULL);
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &p, MPFR_PREC_MIN - 1), FR_EPREC);
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &p, FR_PREC_MAX + 1), FR_EPREC);
    ck_assert(t.w == NULL);
    /* class order: a size beats a precision, a precision a domain error */
    fr_ssca_params q = p;
    q.T = 1;
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &q, 0), FR_ESIZE);
    q = p;
    q.tau = -1;
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &q, 0), FR_EPREC);
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &q, 64), FR_EDOM);
    /* a zeroed trace */
    ck_assert_int_eq(fr_ssca_run(&z, &D, &p), FR_ENULL);
    ck_assert_int_eq(fr_ssca_run(NULL, &D, &p), FR_ENULL);
    /* a trace for other sizes: T, keep, nd (B, algo), d (J) */
    ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &p, 64), FR_OK);
    ck_assert_int_eq(fr_ssca_run(&t, &D, &p), FR_OK);
    mpfr_t keep;
    mpfr_init2(keep, 64);
    mpfr_set(keep, t.w[t.d], MPFR_RNDN);
    q = p; q.T = 4;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    q = p; q.keep = FR_SSCA_KEEP_W;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    q = p; q.B = 2;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    q = p; q.algo = FR_SSCA_ALG3;          /* nd = B instead of nc B */
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    fr_ssca_data D2 = D;
    D2.J = 1;
    ck_assert_int_eq(fr_ssca_run(&t, &D2, &p), FR_ESIZE);
    /* argument errors of fr_ssca_run_check: trace untouched */
    q = p; q.lambda = NAN;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ENONFINITE);
    q = p; q.lambda = -1;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_EDOM);
    ck_assert_uint_eq(t.rounds, 2);
    ck_assert(same(t.w[t.d], keep));
    /* a trace belongs to its algorithm: Algorithm 2 (same d, nd, T) and
     * Algorithm 3 with B = nc B (same nd) answer FR_ESIZE; an unknown algo
     * is fr_ssca_run_check's FR_EDOM */
    q = p; q.algo = FR_SSCA_ALG2;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    q = p; q.algo = FR_SSCA_ALG3; q.B = NC * p.B;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_ESIZE);
    q = p; q.algo = 9;
    ck_assert_int_eq(fr_ssca_run(&t, &D, &q), FR_EDOM);
    ck_assert_int_eq(fr_ssca_trace_init(&z, &D, &q, 64), FR_EDOM);
    ck_assert_uint_eq(t.rounds, 2);
    ck_assert(same(t.w[t.d], keep));
    ck_assert_int_eq(t.algo, FR_SSCA_ALG1);
    mpfr_clear(keep);
    fr_ssca_trace_clear(&t);
    fr_ssca_trace_clear(&t);               /* safe on a zeroed trace */
    fr_ssca_trace_clear(NULL);
}
END_TEST

/* ---- an error after the start resets the trace ------------------------------ */

/* Features times 2^600 with MPFR's exponent range cut to 2^900: the first
 * loss or gradient leaves the range after the run started (every
 * algorithm); the trace, which held a valid run, is back in its initial
 * state: NaN records, SIZE_MAX draws, branch 0, rounds 0. */
START_TEST(late_error_resets)
{
    fr_ssca_data D = data();
    double Zb[N * P];
    for (size_t k = 0; k < N * P; k++)
        Zb[k] = ldexp(Z[k], 600);
    fr_ssca_data Db = D;
    Db.Z = Zb;
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++) {
        fr_ssca_params p = params(a, 3);
        fr_ssca_trace t;
        run_ok(&t, &D, &p, 64);
        const mpfr_exp_t emax = mpfr_get_emax();
        ck_assert_int_eq(mpfr_set_emax(900), 0);
        int st = fr_ssca_run(&t, &Db, &p);
        ck_assert_int_eq(mpfr_set_emax(emax), 0);
        ck_assert_msg(st != FR_OK && st != FR_ESIZE && st != FR_ENULL && st != FR_EDOM,
                      "%s: status %d", fr_ssca_algo_name(a), st);
        ck_assert_uint_eq(t.rounds, 0);
        for (size_t k = 0; k < t.T * t.d; k++)
            ck_assert(mpfr_nan_p(t.w[k]));
        for (size_t k = 0; k < t.T; k++)
            ck_assert(mpfr_nan_p(t.cost[k]) && mpfr_nan_p(t.norm2[k]) && mpfr_nan_p(t.cons[k]));
        for (size_t k = 0; k + 1 < t.T; k++)
            ck_assert(mpfr_nan_p(t.nu[k]) && mpfr_nan_p(t.slack[k]) && t.branch[k] == 0);
        for (size_t k = 0; k < (t.T - 1) * t.nd; k++)
            ck_assert_uint_eq(t.draws[k], SIZE_MAX);
        fr_ssca_trace_clear(&t);
    }
}
END_TEST

/* A tiny rho^(1): 1 - rho^(1) rounds to 1 at 53 bits, so a mass carried
 * as P_t = prod (1 - rho) would reach 1 and the minimiser's 1/(1 - P)
 * would not exist; W_t = 1 - P_t carried directly stays >= rho^(1).
 * Every SSCA algorithm must run, at 53 bits as at 200, to finite
 * iterates (the P form returned FR_EDOM at 53 bits). */
START_TEST(tiny_rho)
{
    fr_ssca_data D = data();
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_ALG4; a++)
        for (mpfr_prec_t prec = 53; prec <= 200; prec += 147) {
            fr_ssca_params p = params(a, 3);
            p.a1 = 0x1p-80;
            fr_ssca_trace t = {0};
            ck_assert_int_eq(fr_ssca_trace_init(&t, &D, &p, prec), FR_OK);
            ck_assert_msg(fr_ssca_run(&t, &D, &p) == FR_OK, "%s at %ld bits",
                          fr_ssca_algo_name(a), (long)prec);
            for (size_t k = 0; k < 3 * t.d; k++)
                ck_assert(mpfr_number_p(t.w[k]));
            fr_ssca_trace_clear(&t);
        }
}
END_TEST

Suite *suite_ssca_run_ref(void)
{
    Suite *s = suite_create("ssca_run_ref");
    TCase *tc = tcase_create("run_ref");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, round_by_hand_alg1);
    tcase_add_test(tc, round_by_hand_alg2);
    tcase_add_test(tc, round_by_hand_sgd_s);
    tcase_add_test(tc, round_by_hand_feature);
    tcase_add_test(tc, draws_replayed);
    tcase_add_test(tc, weight_rho1);
    tcase_add_test(tc, feature_is_sample);
    tcase_add_test(tc, records_t2);
    tcase_add_test(tc, fedavg_perm);
    tcase_add_test(tc, alg2_u_huge);
    tcase_add_test(tc, trace_statuses);
    tcase_add_test(tc, late_error_resets);
    tcase_add_test(tc, tiny_rho);
    suite_add_tcase(s, tc);
    return s;
}
