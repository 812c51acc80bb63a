/* SPDX-License-Identifier: Apache-2.0 */
/* test_ref_fl_runs.c -- fr_fedepm_run, fr_sfedavg_run, fr_sfedprox_run and
 * the trace (docs/FEDEPM.md) on small seeded synthetic problems.
 * Properties checked: the selections are the frng_sample draws of the
 * selection stream; the keep rule (22) (an unselected client keeps w_i = 0
 * and its initial upload, here an exact-scale Laplace draw); one round
 * recomputed from the definitions (ENS (19), step (20); (35) with (38);
 * Algorithm 4 with ell = 1 and 2); the run does not depend on the working
 * precision beyond its rounding (128 vs 256 bits); the stopping rule
 * decided again in exact rational arithmetic; errors leave the trace
 * unchanged. */
#include <check.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"

typedef struct {
    size_t d[8];
    double *X, *b;
    fr_logreg P;
} prob;

static void prob_make(prob *q, uint64_t seed, size_t m, size_t n, size_t dmin, size_t dmax)
{
    ck_assert(m <= 8);
    ck_assert_int_eq(fr_synth_sizes(seed, m, dmin, dmax, q->d), FR_OK);
    size_t D = 0;
    for (size_t i = 0; i < m; i++)
        D += q->d[i];
    q->X = malloc(D * n * sizeof *q->X);
    q->b = malloc(D * sizeof *q->b);
    ck_assert(q->X != NULL && q->b != NULL);
    ck_assert_int_eq(fr_synth_data(seed, m, n, q->d, q->X, q->b), FR_OK);
    q->P = (fr_logreg){.m = m, .n = n, .d = q->d, .X = q->X, .b = q->b, .beta = 0.001};
}

static void prob_free(prob *q)
{
    free(q->X);
    free(q->b);
}

static fr_fedepm_params params(size_t nsel)
{
    fr_fedepm_params p = {
        .k0 = 2, .rounds = 4, .nsel = nsel, .lambda = 0.005, .eta = 0.01,
        .mu0 = 0.5, .c = 0.01, .alpha = 1.001, .eps = 4, .noise = FR_NOISE_EQ39,
        .Delta = NULL, .stopping = 0, .seed = 11, .mu_prox = 0.25, .ell = 2};
    return p;
}

enum { ALGO_FEDEPM = 1, ALGO_SFEDAVG, ALGO_SFEDPROX };   /* the three runs of the family */

static int run(int algo, fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    switch (algo) {
    case ALGO_FEDEPM: return fr_fedepm_run(t, P, prm);
    case ALGO_SFEDAVG: return fr_sfedavg_run(t, P, prm);
    default: return fr_sfedprox_run(t, P, prm);
    }
}

static const int ALGOS[3] = {ALGO_FEDEPM, ALGO_SFEDAVG, ALGO_SFEDPROX};

/* Equal values, NaN equal to NaN (the untouched rows of a trace). */
static int same(const mpfr_t a, const mpfr_t b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b);
}

static int same_vec(mpfr_t *const a, mpfr_t *const b, size_t count)
{
    for (size_t q = 0; q < count; q++)
        if (!same(a[q], b[q]))
            return 0;
    return 1;
}

/* (a) The selections are frng_sample(select stream, m, nsel), r = 1, 2, ... */
START_TEST(selections_are_the_stream_draws)
{
    prob q;
    prob_make(&q, 5, 5, 3, 4, 7);
    fr_fedepm_params prm = params(3);
    prm.rounds = 5;
    prm.k0 = 1;
    for (int a = 0; a < 3; a++) {
        fr_fedepm_trace t;
        ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, 64), FR_OK);
        ck_assert_int_eq(run(ALGOS[a], &t, &q.P, &prm), FR_OK);
        ck_assert_uint_eq(t.rounds, prm.rounds + 1);
        frng_t g;
        frng_init(&g, prm.seed, FR_STREAM_SELECT);
        size_t S[5];
        for (size_t r = 0; r < t.rounds; r++) {
            ck_assert_int_eq(frng_sample(&g, 5, 3, S), FR_OK);
            for (size_t k = 0; k < 3; k++)
                ck_assert_msg(t.sel[r * 3 + k] == S[k], "algo %d round %zu", ALGOS[a], r + 1);
        }
        fr_fedepm_trace_clear(&t);
    }
    prob_free(&q);
}
END_TEST

/* (b) Keep rule (22): a client in no S^r with a block after it keeps
 * w_i = 0 and z_i = eps_i^0, which under (27) with Delta/(eps mu0) = 24
 * exactly is 24-scale Laplace draws from the client's noise stream. */
START_TEST(keep_rule_unselected_clients)
{
    prob q;
    prob_make(&q, 21, 5, 3, 4, 8);
    double Delta[5] = {3, 3, 3, 3, 3};
    fr_fedepm_params prm = params(1);
    prm.rounds = 2;
    prm.noise = FR_NOISE_EQ27;
    prm.Delta = Delta;
    prm.eps = 0.5;
    prm.mu0 = 0.25;                       /* 3 / (0.5 * 0.25) = 24 */
    mpfr_t scale, x;
    mpfr_init2(scale, 64);
    mpfr_init2(x, 96);
    mpfr_set_ui(scale, 24, MPFR_RNDN);
    for (int a = 0; a < 3; a++) {
        fr_fedepm_trace t;
        ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, 96), FR_OK);
        ck_assert_int_eq(run(ALGOS[a], &t, &q.P, &prm), FR_OK);
        ck_assert_uint_eq(t.rounds, 3);
        int selected[5] = {0};
        for (size_t r = 0; r + 1 < t.rounds; r++)       /* rounds with a block */
            selected[t.sel[r]] = 1;
        size_t kept = 0, moved = 0;
        for (size_t i = 0; i < 5; i++) {
            if (selected[i]) {
                for (size_t j = 0; j < 3; j++)
                    moved += !mpfr_zero_p(t.W[i * 3 + j]);
                continue;
            }
            kept++;
            frng_t g;
            frng_init(&g, prm.seed, FR_STREAM_NOISE + i);
            for (size_t j = 0; j < 3; j++) {
                ck_assert(mpfr_zero_p(t.W[i * 3 + j]));
                ck_assert_int_eq(fr_rng_laplace(x, &g, scale), FR_OK);
                ck_assert_msg(mpfr_equal_p(t.Z[i * 3 + j], x), "algo %d client %zu j %zu",
                              ALGOS[a], i, j);
            }
        }
        ck_assert(kept >= 3);
        ck_assert(moved > 0);                              /* selected clients did move */
        ck_assert_uint_eq(t.snr_clients, 5 - kept);
        fr_fedepm_trace_clear(&t);
    }
    mpfr_clears(scale, x, (mpfr_ptr)0);
    prob_free(&q);
}
END_TEST

/* (c) FedEPM without noise, nsel = m, k0 = 1, R = 1: w^1 = ENS(z^0) = ENS(0),
 * W after the block = step (20) from w_i^0 = 0 with mu_{i,1} computed
 * directly, z_i = w_i, and w^2 = ENS of those. */
START_TEST(fedepm_one_round_by_hand)
{
    const size_t m = 4, n = 3;
    const mpfr_prec_t p = 113;
    prob q;
    prob_make(&q, 33, m, n, 5, 9);
    fr_fedepm_params prm = params(m);
    prm.k0 = 1;
    prm.rounds = 1;
    prm.noise = FR_NOISE_NONE;
    fr_fedepm_trace t;
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, p), FR_OK);
    ck_assert_int_eq(fr_fedepm_run(&t, &q.P, &prm), FR_OK);
    ck_assert_uint_eq(t.rounds, 2);
    ck_assert_uint_eq(t.iters, 1);
    ck_assert_uint_eq(t.cr, 1);

    mpfr_t lam, eta, mu0, c, alpha, mu, W0[12], W1[12], w1[3], w2[3], g[3];
    mpfr_inits2(53, lam, eta, mu0, c, alpha, (mpfr_ptr)0);
    mpfr_set_d(lam, prm.lambda, MPFR_RNDN);
    mpfr_set_d(eta, prm.eta, MPFR_RNDN);
    mpfr_set_d(mu0, prm.mu0, MPFR_RNDN);
    mpfr_set_d(c, prm.c, MPFR_RNDN);
    mpfr_set_d(alpha, prm.alpha, MPFR_RNDN);
    mpfr_init2(mu, p);
    for (size_t k = 0; k < m * n; k++) {
        mpfr_init2(W0[k], p);
        mpfr_init2(W1[k], p);
        mpfr_set_zero(W0[k], 1);
    }
    for (size_t j = 0; j < n; j++) {
        mpfr_inits2(p, w1[j], w2[j], g[j], (mpfr_ptr)0);
    }
    ck_assert_int_eq(fr_ens(w1, W0, m, n, lam, eta), FR_OK);
    ck_assert(same_vec(w1, t.w, n));
    for (size_t i = 0; i < m; i++) {
        ck_assert_int_eq(fr_logreg_fi(NULL, g, &q.P, i, w1), FR_OK);
        ck_assert_int_eq(fr_fedepm_mu(mu, mu0, c, alpha, 1, W0 + i * n, w1, n), FR_OK);
        ck_assert_int_eq(fr_fedepm_step(W1 + i * n, W0 + i * n, w1, g, n, lam, eta, mu), FR_OK);
    }
    ck_assert(same_vec(W1, t.W, m * n));
    ck_assert(same_vec(W1, t.Z, m * n));                 /* no noise: z_i = w_i */
    int moved = 0;
    for (size_t k = 0; k < m * n; k++)
        moved |= !mpfr_zero_p(W1[k]);
    ck_assert(moved);
    ck_assert_int_eq(fr_ens(w2, W1, m, n, lam, eta), FR_OK);
    ck_assert(same_vec(w2, t.w + n, n));
    ck_assert(mpfr_inf_p(t.snr) && mpfr_sgn(t.snr) > 0);  /* zero noise */
    ck_assert_uint_eq(t.snr_clients, m);

    mpfr_clears(lam, eta, mu0, c, alpha, mu, (mpfr_ptr)0);
    for (size_t k = 0; k < m * n; k++)
        mpfr_clears(W0[k], W1[k], (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++)
        mpfr_clears(w1[j], w2[j], g[j], (mpfr_ptr)0);
    fr_fedepm_trace_clear(&t);
    prob_free(&q);
}
END_TEST

/* |a - b| <= 2^-e max(1, max |b|) over count entries */
static int close_vec(mpfr_t *const a, mpfr_t *const b, size_t count, long e)
{
    mpfr_t d, sc;
    mpfr_inits2(64, d, sc, (mpfr_ptr)0);
    mpfr_set_ui(sc, 1, MPFR_RNDN);
    for (size_t q = 0; q < count; q++) {
        mpfr_abs(d, b[q], MPFR_RNDU);
        mpfr_max(sc, sc, d, MPFR_RNDU);
    }
    mpfr_mul_2si(sc, sc, -e, MPFR_RNDU);
    int ok = 1;
    for (size_t q = 0; q < count && ok; q++) {
        if (mpfr_nan_p(a[q]) || mpfr_nan_p(b[q])) {
            ok = mpfr_nan_p(a[q]) && mpfr_nan_p(b[q]);
            continue;
        }
        mpfr_sub(d, a[q], b[q], MPFR_RNDU);
        mpfr_abs(d, d, MPFR_RNDU);
        ok = mpfr_lessequal_p(d, sc);
    }
    mpfr_clears(d, sc, (mpfr_ptr)0);
    return ok;
}

/* (d) 128 and 256 bits: same selections, rounds, stop; values to ~100 bits. */
START_TEST(precision_independence)
{
    prob q;
    prob_make(&q, 44, 5, 3, 6, 10);
    fr_fedepm_params prm = params(3);
    prm.rounds = 4;
    prm.k0 = 3;
    for (int s = 0; s < 2; s++) {
        prm.stopping = s;
        for (int a = 0; a < 3; a++) {
            fr_fedepm_trace lo, hi;
            ck_assert_int_eq(fr_fedepm_trace_init(&lo, &q.P, &prm, 128), FR_OK);
            ck_assert_int_eq(fr_fedepm_trace_init(&hi, &q.P, &prm, 256), FR_OK);
            ck_assert_int_eq(run(ALGOS[a], &lo, &q.P, &prm), FR_OK);
            ck_assert_int_eq(run(ALGOS[a], &hi, &q.P, &prm), FR_OK);
            ck_assert_uint_eq(lo.rounds, hi.rounds);
            ck_assert_int_eq(lo.stop, hi.stop);
            ck_assert_uint_eq(lo.cr, hi.cr);
            ck_assert_uint_eq(lo.iters, hi.iters);
            ck_assert(memcmp(lo.sel, hi.sel, lo.rounds * 3 * sizeof *lo.sel) == 0);
            ck_assert_uint_eq(lo.snr_clients, hi.snr_clients);
            for (size_t r = 0; r < lo.rounds; r++) {
                ck_assert_msg(close_vec(lo.w + r * 3, hi.w + r * 3, 3, 100),
                              "algo %d round %zu", ALGOS[a], r + 1);
                ck_assert(close_vec(lo.f + r, hi.f + r, 1, 100));
                ck_assert(close_vec(lo.gnorm2 + r, hi.gnorm2 + r, 1, 100));
            }
            for (size_t i = 0; i < 5; i++) {
                ck_assert(close_vec(lo.W + i * 3, hi.W + i * 3, 3, 100));
                ck_assert(close_vec(lo.Z + i * 3, hi.Z + i * 3, 3, 100));
            }
            ck_assert(close_vec(&lo.snr, &hi.snr, 1, 100));
            fr_fedepm_trace_clear(&lo);
            fr_fedepm_trace_clear(&hi);
        }
    }
    prob_free(&q);
}
END_TEST

/* The rule of Sec. VII-B on f[0..nf-1], gnorm2 decided in exact rationals. */
static int stop_oracle(mpfr_t *const f, size_t nf, const mpfr_t gn2, size_t n)
{
    mpq_t x, y, mean, v, th;
    mpq_inits(x, y, mean, v, th, NULL);
    int stop = FR_STOP_ROUNDS;
    mpfr_get_q(x, gn2);
    mpq_set_ui(y, 1, 1000000);
    if (mpq_cmp(x, y) < 0) {
        stop = FR_STOP_GRAD;
    } else if (nf >= 4) {
        for (size_t k = nf - 4; k < nf; k++) {
            mpfr_get_q(x, f[k]);
            mpq_add(mean, mean, x);
        }
        mpq_set_ui(y, 4, 1);
        mpq_div(mean, mean, y);
        for (size_t k = nf - 4; k < nf; k++) {
            mpfr_get_q(x, f[k]);
            mpq_sub(x, x, mean);
            mpq_mul(x, x, x);
            mpq_add(v, v, x);
        }
        mpq_set_ui(y, 3, 1);
        mpq_div(v, v, y);                              /* sample variance */
        mpfr_get_q(x, f[nf - 1]);
        mpq_abs(x, x);
        mpq_set_ui(y, 1, 1);
        mpq_add(x, x, y);                              /* 1 + |f| */
        mpq_set_ui(th, (unsigned long)n, 100000000);
        mpq_div(th, th, x);
        if (mpq_cmp(v, th) <= 0)
            stop = FR_STOP_VAR;
    }
    mpq_clears(x, y, mean, v, th, NULL);
    return stop;
}

/* (e) Early stop: the rule fires first at the last recorded round. */
START_TEST(stopping_rule_consistent)
{
    prob q;
    prob_make(&q, 55, 4, 2, 4, 6);
    fr_fedepm_params prm = params(2);
    prm.rounds = 12;
    prm.k0 = 2;
    prm.stopping = 1;
    int early = 0;
    for (int a = 0; a < 3; a++) {
        for (int big = 0; big < 2; big++) {
            prm.mu0 = big ? 1e4 : 0.5;        /* large mu0: tiny FedEPM steps, f settles */
            prm.noise = big ? FR_NOISE_NONE : FR_NOISE_EQ39;
            fr_fedepm_trace t;
            ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, 80), FR_OK);
            ck_assert_int_eq(run(ALGOS[a], &t, &q.P, &prm), FR_OK);
            ck_assert(t.rounds >= 1 && t.rounds <= prm.rounds + 1);
            ck_assert_uint_eq(t.cr, t.rounds - 1);
            ck_assert_uint_eq(t.iters, (t.rounds - 1) * prm.k0);
            for (size_t r = 1; r <= t.rounds; r++) {
                int so = stop_oracle(t.f, r, t.gnorm2[r - 1], 2), sl;
                ck_assert_int_eq(fr_stop_rule(&sl, t.gnorm2[r - 1], t.f, r, 2), FR_OK);
                ck_assert_int_eq(sl, so);
                if (r < t.rounds)
                    ck_assert_int_eq(so, FR_STOP_ROUNDS);
                else
                    ck_assert_int_eq(t.stop, so);
            }
            if (t.stop == FR_STOP_ROUNDS)
                ck_assert_uint_eq(t.rounds, prm.rounds + 1);
            else
                early++;
            if (ALGOS[a] == ALGO_FEDEPM && big)
                ck_assert_int_eq(t.stop, FR_STOP_VAR);
            for (size_t r = t.rounds; r < t.cap; r++)    /* rows after the stop untouched */
                ck_assert(mpfr_nan_p(t.f[r]));
            fr_fedepm_trace_clear(&t);
        }
    }
    ck_assert(early > 0);
    prob_free(&q);
}
END_TEST

/* (f) SFedAvg, k0 = 1, R = 1, nsel = m = 4: w^1 is the mean of z^0 (exact
 * Laplace scales Delta_i / (eps mu0), so z^0 is known; the division by 4
 * is exact, so w^1 is the exact mean rounded once), and
 * w_i = w^1 - gamma g_i with gamma = 2 d_i / sqrt(2 k0 + 0) (38).
 * SFedProx with ell = 1 gives the same bits (v^1 = w^1: the mu term is 0);
 * with ell = 2 its second inner step is v - gamma (grad f_i(v) + mu (v - w^1)). */
START_TEST(baselines_one_step_by_hand)
{
    enum { M = 4, N = 3 };
    const mpfr_prec_t p = 100;
    prob q;
    prob_make(&q, 66, M, N, 4, 9);
    double Delta[M] = {0.75, 1.5, 0.5, 1};         /* eps mu0 = 4 * 0.5 = 2: scales exact */
    fr_fedepm_params prm = params(M);
    prm.k0 = 1;
    prm.rounds = 1;
    prm.noise = FR_NOISE_EQ27;
    prm.Delta = Delta;
    prm.ell = 1;
    fr_fedepm_trace ta, tp, tp2;
    ck_assert_int_eq(fr_fedepm_trace_init(&ta, &q.P, &prm, p), FR_OK);
    ck_assert_int_eq(fr_fedepm_trace_init(&tp, &q.P, &prm, p), FR_OK);
    ck_assert_int_eq(fr_fedepm_trace_init(&tp2, &q.P, &prm, p), FR_OK);
    ck_assert_int_eq(fr_sfedavg_run(&ta, &q.P, &prm), FR_OK);
    ck_assert_int_eq(fr_sfedprox_run(&tp, &q.P, &prm), FR_OK);
    prm.ell = 2;
    ck_assert_int_eq(fr_sfedprox_run(&tp2, &q.P, &prm), FR_OK);

    mpfr_t z0[M * N], w1[N], g[N], v2[N], v3[N], d, hh, nu, sq2, gam, pr, mup;
    for (size_t k = 0; k < M * N; k++)
        mpfr_init2(z0[k], p);
    for (size_t j = 0; j < N; j++)
        mpfr_inits2(p, w1[j], g[j], v2[j], v3[j], (mpfr_ptr)0);
    mpfr_inits2(p, d, hh, sq2, gam, (mpfr_ptr)0);
    mpfr_init2(nu, 64);
    mpfr_init2(pr, 2 * p + 64);
    mpfr_init2(mup, 53);
    mpfr_set_d(mup, prm.mu_prox, MPFR_RNDN);
    for (size_t i = 0; i < M; i++) {                 /* z_i^0 = eps_i^0 */
        frng_t gi;
        frng_init(&gi, prm.seed, FR_STREAM_NOISE + i);
        mpfr_set_d(nu, Delta[i] / 2, MPFR_RNDN);      /* exact */
        for (size_t j = 0; j < N; j++)
            ck_assert_int_eq(fr_rng_laplace(z0[i * N + j], &gi, nu), FR_OK);
    }
    mpq_t sum, x;
    mpq_inits(sum, x, NULL);
    for (size_t j = 0; j < N; j++) {                 /* (34), exactly, rounded once */
        mpq_set_ui(sum, 0, 1);
        for (size_t i = 0; i < M; i++) {
            mpfr_get_q(x, z0[i * N + j]);
            mpq_add(sum, sum, x);
        }
        mpq_set_ui(x, M, 1);
        mpq_div(sum, sum, x);
        mpfr_set_q(w1[j], sum, MPFR_RNDN);
    }
    mpq_clears(sum, x, NULL);
    ck_assert(same_vec(w1, ta.w, N));
    ck_assert(same_vec(w1, tp.w, N));
    mpfr_sqrt_ui(sq2, 2, MPFR_RNDN);                  /* sqrt(2 k0 + ceil(0 / k0)) */
    int differ = 0;
    for (size_t i = 0; i < M; i++) {
        mpfr_ui_div(gam, 2 * (unsigned long)q.d[i], sq2, MPFR_RNDN);
        ck_assert_int_eq(fr_logreg_fi(NULL, g, &q.P, i, w1), FR_OK);
        for (size_t j = 0; j < N; j++) {
            mpfr_mul(pr, gam, g[j], MPFR_RNDN);        /* exact */
            mpfr_sub(v2[j], w1[j], pr, MPFR_RNDN);
        }
        ck_assert_msg(same_vec(v2, ta.W + i * N, N), "SFedAvg client %zu", i);
        ck_assert_msg(same_vec(v2, tp.W + i * N, N), "SFedProx ell=1 client %zu", i);
        ck_assert_int_eq(fr_logreg_fi(NULL, g, &q.P, i, v2), FR_OK);
        for (size_t j = 0; j < N; j++) {
            mpfr_sub(d, v2[j], w1[j], MPFR_RNDN);
            mpfr_mul(pr, mup, d, MPFR_RNDN);           /* exact */
            mpfr_add(hh, pr, g[j], MPFR_RNDN);
            mpfr_mul(pr, gam, hh, MPFR_RNDN);          /* exact */
            mpfr_sub(v3[j], v2[j], pr, MPFR_RNDN);
        }
        ck_assert_msg(same_vec(v3, tp2.W + i * N, N), "SFedProx ell=2 client %zu", i);
        differ |= !same_vec(v3, v2, N);
    }
    ck_assert(differ);
    ck_assert(same_vec(ta.Z, tp.Z, M * N));           /* same uploads, same noise */
    ck_assert(!same_vec(ta.Z, z0, M * N));            /* the round-1 uploads replaced z^0 */

    for (size_t k = 0; k < M * N; k++)
        mpfr_clear(z0[k]);
    for (size_t j = 0; j < N; j++)
        mpfr_clears(w1[j], g[j], v2[j], v3[j], (mpfr_ptr)0);
    mpfr_clears(d, hh, nu, sq2, gam, pr, mup, (mpfr_ptr)0);
    fr_fedepm_trace_clear(&ta);
    fr_fedepm_trace_clear(&tp);
    fr_fedepm_trace_clear(&tp2);
    prob_free(&q);
}
END_TEST

static void trace_copy(fr_fedepm_trace *u, const fr_fedepm_trace *t)
{
    for (size_t k = 0; k < t->cap * t->n; k++)
        mpfr_set(u->w[k], t->w[k], MPFR_RNDN);
    for (size_t k = 0; k < t->cap; k++) {
        mpfr_set(u->f[k], t->f[k], MPFR_RNDN);
        mpfr_set(u->gnorm2[k], t->gnorm2[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < t->m * t->n; k++) {
        mpfr_set(u->W[k], t->W[k], MPFR_RNDN);
        mpfr_set(u->Z[k], t->Z[k], MPFR_RNDN);
    }
    memcpy(u->sel, t->sel, t->cap * t->nsel * sizeof *t->sel);
    for (size_t k = 0; k < t->cap * t->nsel; k++) {
        mpfr_set(u->nu[k], t->nu[k], MPFR_RNDN);
        mpfr_set(u->loss[k], t->loss[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < t->m; k++) {
        mpfr_set(u->nu0[k], t->nu0[k], MPFR_RNDN);
        mpfr_set(u->loss0[k], t->loss0[k], MPFR_RNDN);
        mpfr_set(u->eps_basic[k], t->eps_basic[k], MPFR_RNDN);
        mpfr_set(u->eps_adv[k], t->eps_adv[k], MPFR_RNDN);
    }
    mpfr_set(u->snr, t->snr, MPFR_RNDN);
    u->rounds = t->rounds;
    u->iters = t->iters;
    u->cr = t->cr;
    u->stop = t->stop;
    u->snr_clients = t->snr_clients;
}

static int trace_same(const fr_fedepm_trace *t, const fr_fedepm_trace *u)
{
    return t->m == u->m && t->n == u->n && t->nsel == u->nsel && t->cap == u->cap
        && t->rounds == u->rounds && t->iters == u->iters && t->cr == u->cr
        && t->stop == u->stop && t->snr_clients == u->snr_clients && same(t->snr, u->snr)
        && same_vec(t->w, u->w, t->cap * t->n) && same_vec(t->f, u->f, t->cap)
        && same_vec(t->gnorm2, u->gnorm2, t->cap) && same_vec(t->W, u->W, t->m * t->n)
        && same_vec(t->Z, u->Z, t->m * t->n)
        && same_vec(t->nu, u->nu, t->cap * t->nsel) && same_vec(t->loss, u->loss, t->cap * t->nsel)
        && same_vec(t->nu0, u->nu0, t->m) && same_vec(t->loss0, u->loss0, t->m)
        && same_vec(t->eps_basic, u->eps_basic, t->m) && same_vec(t->eps_adv, u->eps_adv, t->m)
        && memcmp(t->sel, u->sel, t->cap * t->nsel * sizeof *t->sel) == 0;
}

/* (g) Every invalid argument is reported with its status and leaves the
 * trace of an earlier valid run unchanged; trace_init errors. */
START_TEST(errors_leave_trace_unchanged)
{
    const double NaN = __builtin_nan(""), Inf = __builtin_inf();
    prob q;
    prob_make(&q, 77, 4, 2, 3, 5);
    const fr_fedepm_params ok = params(2);
    double Dbad[4] = {1, 1, 0, 1}, Dok[4] = {1, 1, 1, 1};
    for (int a = 0; a < 3; a++) {
        const int algo = ALGOS[a];
        fr_fedepm_trace t, u;
        ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &ok, 72), FR_OK);
        ck_assert_int_eq(fr_fedepm_trace_init(&u, &q.P, &ok, 72), FR_OK);
        ck_assert_int_eq(run(algo, &t, &q.P, &ok), FR_OK);
        trace_copy(&u, &t);
        ck_assert(trace_same(&t, &u));

        ck_assert_int_eq(run(algo, NULL, &q.P, &ok), FR_ENULL);
        ck_assert_int_eq(run(algo, &t, NULL, &ok), FR_ENULL);
        ck_assert_int_eq(run(algo, &t, &q.P, NULL), FR_ENULL);

        struct { int field; double v; int st; } bad[] = {
            {0, 0, FR_ESIZE},          /* nsel = 0 */
            {1, 0, FR_ESIZE},          /* nsel = m + 1 */
            {2, 0, FR_ESIZE},          /* k0 = 0 */
            {3, 0, FR_ESIZE},          /* rounds = 0 */
            {4, 0, FR_ESIZE},          /* rounds = R + 1: the trace is too short */
            {5, 0, FR_ESIZE},          /* nsel valid but not the trace's */
            {6, 1, FR_EDOM},           /* alpha = 1 */
            {6, NaN, FR_ENONFINITE},
            {7, -1, FR_EDOM},          /* mu0 */
            {7, Inf, FR_ENONFINITE},
            {8, -1, FR_EDOM},          /* c < 0 (c = 0 is fedref's extension) */
            {9, 0, FR_EDOM},           /* eps with noise (39) */
            {9, NaN, FR_ENONFINITE},
            {10, 7, FR_EDOM},          /* unknown noise rule */
            {11, 0, FR_ENULL},         /* (27) without Delta */
            {12, 0, FR_EDOM},          /* (27) with Delta_2 = 0 */
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            fr_fedepm_params prm = ok;
            switch (bad[k].field) {
            case 0: prm.nsel = 0; break;
            case 1: prm.nsel = 5; break;
            case 2: prm.k0 = 0; break;
            case 3: prm.rounds = 0; break;
            case 4: prm.rounds = ok.rounds + 1; break;
            case 5: prm.nsel = 1; break;
            case 6: prm.alpha = bad[k].v; break;
            case 7: prm.mu0 = bad[k].v; break;
            case 8: prm.c = bad[k].v; break;
            case 9: prm.eps = bad[k].v; break;
            case 10: prm.noise = 7; break;
            case 11: prm.noise = FR_NOISE_EQ27; prm.Delta = NULL; break;
            default: prm.noise = FR_NOISE_EQ27; prm.Delta = Dbad; break;
            }
            ck_assert_msg(run(algo, &t, &q.P, &prm) == bad[k].st, "algo %d case %zu", algo, k);
            ck_assert_msg(trace_same(&t, &u), "algo %d case %zu", algo, k);
        }
        fr_fedepm_params prm = ok;
        prm.noise = FR_NOISE_EQ27;
        prm.Delta = Dok;
        prm.lambda = 0;                              /* FedEPM only */
        prm.eta = NaN;
        prm.mu_prox = 0;                             /* SFedProx only */
        if (algo != ALGO_SFEDAVG) {               /* SFedAvg does not use them */
            /* FedEPM: eta NaN is reported before lambda = 0 (class order:
             * FR_ENONFINITE before FR_EDOM); SFedProx: mu_prox = 0 */
            ck_assert_int_eq(run(algo, &t, &q.P, &prm), algo == ALGO_FEDEPM ? FR_ENONFINITE : FR_EDOM);
            ck_assert(trace_same(&t, &u));
        }
        if (algo == ALGO_SFEDPROX) {
            prm = ok;
            prm.ell = 0;
            ck_assert_int_eq(run(algo, &t, &q.P, &prm), FR_ESIZE);
            ck_assert(trace_same(&t, &u));
        }
        /* the problem: NaN feature, beta, a label, a trace made for other m */
        fr_logreg P = q.P;
        P.beta = 0;
        ck_assert_int_eq(run(algo, &t, &P, &ok), FR_EDOM);
        P = q.P;
        P.m = 3;
        ck_assert_int_eq(run(algo, &t, &P, &ok), FR_ESIZE);
        double x0 = q.X[0], b0 = q.b[0];
        q.X[0] = NaN;
        ck_assert_int_eq(run(algo, &t, &q.P, &ok), FR_ENONFINITE);
        q.X[0] = x0;
        q.b[0] = 2;
        ck_assert_int_eq(run(algo, &t, &q.P, &ok), FR_EDOM);
        q.b[0] = b0;
        ck_assert(trace_same(&t, &u));
        fr_fedepm_trace z;
        memset(&z, 0, sizeof z);
        ck_assert_int_eq(run(algo, &z, &q.P, &ok), FR_ENULL);   /* a zeroed trace */
        fr_fedepm_trace_clear(&z);
        fr_fedepm_trace_clear(&t);
        fr_fedepm_trace_clear(&u);
        fr_fedepm_trace_clear(&t);                        /* clearing twice is safe */
    }
    /* trace_init */
    fr_fedepm_trace t;
    memset(&t, 0x5a, sizeof t);
    fr_fedepm_trace keep = t;
    fr_fedepm_params prm = ok;
    ck_assert_int_eq(fr_fedepm_trace_init(NULL, &q.P, &ok, 64), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_trace_init(&t, NULL, &ok, 64), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, NULL, 64), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &ok, 0), FR_EPREC);
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &ok, FR_PREC_MAX + 1), FR_EPREC);
    prm.nsel = 0;
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &prm, 64), FR_ESIZE);
    ck_assert(memcmp(&t, &keep, sizeof t) == 0);
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &q.P, &ok, 64), FR_OK);
    ck_assert_uint_eq(t.cap, ok.rounds + 1);
    ck_assert_uint_eq(t.rounds, 0);
    for (size_t k = 0; k < t.cap; k++)
        ck_assert(mpfr_nan_p(t.f[k]) && mpfr_get_prec(t.f[k]) == 64);
    fr_fedepm_trace_clear(&t);
    prob_free(&q);
}
END_TEST

Suite *suite_ref_fl_runs(void)
{
    Suite *s = suite_create("ref_fl_runs");
    TCase *tc = tcase_create("runs");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, selections_are_the_stream_draws);
    tcase_add_test(tc, keep_rule_unselected_clients);
    tcase_add_test(tc, fedepm_one_round_by_hand);
    tcase_add_test(tc, precision_independence);
    tcase_add_test(tc, stopping_rule_consistent);
    tcase_add_test(tc, baselines_one_step_by_hand);
    tcase_add_test(tc, errors_leave_trace_unchanged);
    suite_add_tcase(s, tc);
    return s;
}
