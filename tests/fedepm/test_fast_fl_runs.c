/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_fl_runs.c -- Check unit tests of the binary64 runs of 002's
 * algorithms (docs/FEDEPM.md): ff_fedepm_trace_init/clear, ff_fedepm_run
 * (Algorithm 2), ff_sfedavg_run and ff_sfedprox_run (Algorithms 3-4), on
 * small seeded synthetic problems (fr_synth_sizes / fr_synth_data).
 *
 * Oracles: the random streams replayed here with frng_* (docs/RNG.md);
 * the building blocks (ff_ens, ff_fedepm_step, ...) applied by hand;
 * shortened runs (the keep rule (22)); and an MPFR re-implementation of
 * FedEPM at 200 bits written in this file (no fr_* function of ref/). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>                /* before mpfr.h */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fedfast.h"

Suite *suite_fast_fl_runs(void);

#define EPS 0x1p-53
#define MAXM 8
#define MAXD 128

enum { ALGO_FEDEPM = 1, ALGO_SFEDAVG, ALGO_SFEDPROX };   /* the three runs of the family */
static const int ALGOS[3] = {ALGO_FEDEPM, ALGO_SFEDAVG, ALGO_SFEDPROX};

/* ---- a synthetic problem -------------------------------------------------- */

typedef struct {
    size_t d[MAXM];
    double X[MAXD * 4], b[MAXD];
    double Delta[MAXM];
    fr_logreg P;
} prob;

static void make_prob(prob *q, uint64_t seed, size_t m, size_t n, size_t dmin, size_t dmax)
{
    ck_assert(m <= MAXM && n <= 4 && dmax * m <= MAXD);
    ck_assert_int_eq(fr_synth_sizes(seed, m, dmin, dmax, q->d), FR_OK);
    ck_assert_int_eq(fr_synth_data(seed, m, n, q->d, q->X, q->b), FR_OK);
    for (size_t i = 0; i < m; i++)
        q->Delta[i] = 0.25 + 0.125 * (double)i;
    q->P = (fr_logreg){m, n, q->d, q->X, q->b, 1e-3, 0};
}

static fr_fedepm_params base_params(const prob *q, int noise)
{
    fr_fedepm_params p = {0};
    p.k0 = 2;
    p.rounds = 4;
    p.nsel = q->P.m > 1 ? q->P.m / 2 : 1;
    p.lambda = 0.01;
    p.eta = 0.02;
    p.mu0 = 0.05;
    p.c = 0.5;
    p.alpha = 1.25;
    p.eps = 0.5;
    p.noise = noise;
    p.Delta = q->Delta;
    p.stopping = 0;
    p.seed = 0x5eed;
    p.mu_prox = 0.125;
    p.ell = 3;
    return p;
}

static int run(int algo, ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    switch (algo) {
    case ALGO_FEDEPM:  return ff_fedepm_run(t, P, prm);
    case ALGO_SFEDAVG: return ff_sfedavg_run(t, P, prm);
    default:              return ff_sfedprox_run(t, P, prm);
    }
}

static void init_run(int algo, ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    *t = (ff_fedepm_trace){0};
    ck_assert_int_eq(ff_fedepm_trace_init(t, P, prm), FR_OK);
    ck_assert_int_eq(run(algo, t, P, prm), FR_OK);
}

/* Bit-identical traces (all cap rows, the final state and the scalars). */
static int same_trace(const ff_fedepm_trace *a, const ff_fedepm_trace *b)
{
    if (a->m != b->m || a->n != b->n || a->nsel != b->nsel || a->cap != b->cap
        || a->rounds != b->rounds || a->iters != b->iters || a->cr != b->cr
        || a->stop != b->stop || a->snr_clients != b->snr_clients
        || memcmp(&a->snr, &b->snr, sizeof a->snr) != 0)
        return 0;
    const size_t cap = a->cap, n = a->n, m = a->m;
    return !memcmp(a->w, b->w, cap * n * sizeof *a->w)
        && !memcmp(a->f, b->f, cap * sizeof *a->f)
        && !memcmp(a->gnorm2, b->gnorm2, cap * sizeof *a->gnorm2)
        && !memcmp(a->sel, b->sel, cap * a->nsel * sizeof *a->sel)
        && !memcmp(a->W, b->W, m * n * sizeof *a->W)
        && !memcmp(a->Z, b->Z, m * n * sizeof *a->Z)
        && !memcmp(a->nu, b->nu, cap * a->nsel * sizeof *a->nu)
        && !memcmp(a->loss, b->loss, cap * a->nsel * sizeof *a->loss)
        && !memcmp(a->nu0, b->nu0, m * sizeof *a->nu0)
        && !memcmp(a->loss0, b->loss0, m * sizeof *a->loss0)
        && !memcmp(a->eps_basic, b->eps_basic, m * sizeof *a->eps_basic)
        && !memcmp(a->eps_adv, b->eps_adv, m * sizeof *a->eps_adv);
}

/* A deep copy (for "unchanged on error"). */
static void copy_trace(ff_fedepm_trace *dst, const ff_fedepm_trace *src)
{
    *dst = *src;
    const size_t cap = src->cap, n = src->n, m = src->m;
    dst->w = malloc(cap * n * sizeof *dst->w);
    dst->f = malloc(cap * sizeof *dst->f);
    dst->gnorm2 = malloc(cap * sizeof *dst->gnorm2);
    dst->sel = malloc(cap * src->nsel * sizeof *dst->sel);
    dst->W = malloc(m * n * sizeof *dst->W);
    dst->Z = malloc(m * n * sizeof *dst->Z);
    const size_t ck = cap * src->nsel;
    dst->nu = malloc(ck * sizeof *dst->nu);
    dst->loss = malloc(ck * sizeof *dst->loss);
    dst->nu0 = malloc(m * sizeof *dst->nu0);
    dst->loss0 = malloc(m * sizeof *dst->loss0);
    dst->eps_basic = malloc(m * sizeof *dst->eps_basic);
    dst->eps_adv = malloc(m * sizeof *dst->eps_adv);
    ck_assert(dst->w && dst->f && dst->gnorm2 && dst->sel && dst->W && dst->Z && dst->nu
              && dst->loss && dst->nu0 && dst->loss0 && dst->eps_basic && dst->eps_adv);
    memcpy(dst->nu, src->nu, ck * sizeof *dst->nu);
    memcpy(dst->loss, src->loss, ck * sizeof *dst->loss);
    memcpy(dst->nu0, src->nu0, m * sizeof *dst->nu0);
    memcpy(dst->loss0, src->loss0, m * sizeof *dst->loss0);
    memcpy(dst->eps_basic, src->eps_basic, m * sizeof *dst->eps_basic);
    memcpy(dst->eps_adv, src->eps_adv, m * sizeof *dst->eps_adv);
    memcpy(dst->w, src->w, cap * n * sizeof *dst->w);
    memcpy(dst->f, src->f, cap * sizeof *dst->f);
    memcpy(dst->gnorm2, src->gnorm2, cap * sizeof *dst->gnorm2);
    memcpy(dst->sel, src->sel, cap * src->nsel * sizeof *dst->sel);
    memcpy(dst->W, src->W, m * n * sizeof *dst->W);
    memcpy(dst->Z, src->Z, m * n * sizeof *dst->Z);
}

/* z_i^0 of section 2 under (27), replayed from client i's noise stream. */
static void initial_upload_eq27(double *z, const fr_fedepm_params *p, size_t i, size_t n)
{
    frng_t g;
    frng_init(&g, p->seed, FR_STREAM_NOISE + (uint64_t)i);
    double nu;
    ck_assert_int_eq(ff_laplace_scale_upper(&nu, p->Delta[i], p->eps, p->mu0), FR_OK);
    for (size_t j = 0; j < n; j++) {
        double e;
        ck_assert_int_eq(ff_rng_laplace(&e, &g, nu), FR_OK);
        z[j] = 0.0 + e;
    }
}

/* ========================================================================= */
/* (a) the selections are the frng_sample draws of the selection stream     */
/* ========================================================================= */

START_TEST(test_selection_stream)
{
    prob q;
    make_prob(&q, 11, 5, 3, 4, 10);
    for (int a = 0; a < 3; a++) {
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
        p.nsel = 2 + (size_t)a;
        p.rounds = 6;
        ff_fedepm_trace t;
        init_run(ALGOS[a], &t, &q.P, &p);
        ck_assert_uint_eq(t.rounds, 7);
        frng_t g;
        frng_init(&g, p.seed, FR_STREAM_SELECT);
        size_t S[MAXM];
        for (size_t r = 0; r < t.rounds; r++) {
            ck_assert_int_eq(frng_sample(&g, q.P.m, p.nsel, S), FR_OK);
            for (size_t k = 0; k < p.nsel; k++)
                ck_assert_uint_eq(t.sel[r * p.nsel + k], S[k]);
        }
        ff_fedepm_trace_clear(&t);
    }
}
END_TEST

/* ========================================================================= */
/* (b) the keep rule (22): a client's final state is that of its last block */
/* ========================================================================= */

/* 1 iff client i is in S^r (r 1-based). */
static int selected(const ff_fedepm_trace *t, size_t r, size_t i)
{
    for (size_t k = 0; k < t->nsel; k++)
        if (t->sel[(r - 1) * t->nsel + k] == i)
            return 1;
    return 0;
}

START_TEST(test_keep_rule)
{
    prob q;
    make_prob(&q, 12, 5, 2, 4, 8);
    const size_t m = q.P.m, n = q.P.n;
    for (int a = 0; a < 3; a++) {
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ27);
        p.nsel = 1;
        p.rounds = 3;
        ff_fedepm_trace t;
        init_run(ALGOS[a], &t, &q.P, &p);
        size_t never = 0, distinct = 0;
        for (size_t i = 0; i < m; i++) {
            size_t last = 0;                 /* last block r with i in S^r */
            for (size_t r = 1; r < t.rounds; r++)
                if (selected(&t, r, i))
                    last = r;
            if (last == 0) {
                /* never selected: w_i = w_i^0 = 0, z_i = z_i^0 */
                double z0[4];
                initial_upload_eq27(z0, &p, i, n);
                for (size_t j = 0; j < n; j++) {
                    ck_assert(t.W[i * n + j] == 0);
                    ck_assert(t.Z[i * n + j] == z0[j]);
                }
                never++;
                continue;
            }
            distinct++;
            /* a run stopped after block `last` leaves client i as it ends */
            fr_fedepm_params p2 = p;
            p2.rounds = last;
            ff_fedepm_trace u;
            init_run(ALGOS[a], &u, &q.P, &p2);
            ck_assert(!memcmp(u.W + i * n, t.W + i * n, n * sizeof *t.W));
            ck_assert(!memcmp(u.Z + i * n, t.Z + i * n, n * sizeof *t.Z));
            ck_assert(!memcmp(u.w, t.w, u.rounds * n * sizeof *t.w));
            ff_fedepm_trace_clear(&u);
        }
        ck_assert_uint_ge(never, 2);         /* 3 blocks of one client, m = 5 */
        ck_assert_uint_eq(t.snr_clients, distinct);
        ck_assert(isfinite(t.snr));
        ff_fedepm_trace_clear(&t);
    }
}
END_TEST

/* ========================================================================= */
/* (c) FedEPM's first round by hand: (19) on z^0, then (20) and (19) again  */
/* ========================================================================= */

START_TEST(test_fedepm_by_hand)
{
    prob q;
    make_prob(&q, 13, 4, 3, 4, 9);
    const size_t m = q.P.m, n = q.P.n;
    const int rules[2] = {FR_NOISE_NONE, FR_NOISE_EQ27};
    for (int v = 0; v < 2; v++) {
        fr_fedepm_params p = base_params(&q, rules[v]);
        p.nsel = m;
        p.k0 = 1;
        p.rounds = 1;
        ff_fedepm_trace t;
        init_run(ALGO_FEDEPM, &t, &q.P, &p);
        ck_assert_uint_eq(t.rounds, 2);
        double Z0[MAXM * 4] = {0}, W[MAXM * 4], Z[MAXM * 4], w1[4], w2[4], g[4], fi;
        if (rules[v] == FR_NOISE_EQ27)
            for (size_t i = 0; i < m; i++)
                initial_upload_eq27(Z0 + i * n, &p, i, n);
        ck_assert_int_eq(ff_ens(w1, Z0, m, n, p.lambda, p.eta), FR_OK);
        ck_assert(!memcmp(w1, t.w, n * sizeof *w1));          /* w^1 = ENS(z^0) */
        double f1, g1[4];
        ck_assert_int_eq(ff_logreg_f(&f1, g1, &q.P, w1), FR_OK);
        ck_assert(f1 == t.f[0]);
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += g1[j] * g1[j];
        ck_assert(fabs(t.gnorm2[0] - s) <= 4 * n * EPS * s);
        for (size_t i = 0; i < m; i++) {
            const double zero[4] = {0};
            double mu, nu;
            ck_assert_int_eq(ff_logreg_fi(&fi, g, &q.P, i, w1), FR_OK);
            ck_assert_int_eq(ff_fedepm_mu(&mu, p.mu0, p.c, p.alpha, 1, zero, w1, n), FR_OK);
            ck_assert_int_eq(ff_fedepm_step(W + i * n, zero, w1, g, n, p.lambda, p.eta, mu), FR_OK);
            /* upload (21): the second batch of n draws of client i */
            frng_t gr;
            frng_init(&gr, p.seed, FR_STREAM_NOISE + (uint64_t)i);
            for (size_t j = 0; j < n; j++) {
                double e = 0;
                if (rules[v] == FR_NOISE_EQ27) {
                    ck_assert_int_eq(ff_laplace_scale_upper(&nu, p.Delta[i], p.eps, p.mu0), FR_OK);
                    ck_assert_int_eq(ff_rng_laplace(&e, &gr, nu), FR_OK);   /* skip z^0's */
                }
                (void)e;
            }
            for (size_t j = 0; j < n; j++) {
                double e = 0;
                if (rules[v] == FR_NOISE_EQ27) {
                    ck_assert_int_eq(ff_laplace_scale_upper(&nu, p.Delta[i], p.eps, mu), FR_OK);
                    ck_assert_int_eq(ff_rng_laplace(&e, &gr, nu), FR_OK);
                }
                Z[i * n + j] = W[i * n + j] + e;
            }
        }
        ck_assert(!memcmp(W, t.W, m * n * sizeof *W));
        ck_assert(!memcmp(Z, t.Z, m * n * sizeof *Z));
        ck_assert_int_eq(ff_ens(w2, Z, m, n, p.lambda, p.eta), FR_OK);
        ck_assert(!memcmp(w2, t.w + n, n * sizeof *w2));
        ck_assert_uint_eq(t.snr_clients, m);
        if (rules[v] == FR_NOISE_NONE)
            ck_assert(t.snr == INFINITY);
        ff_fedepm_trace_clear(&t);
    }
}
END_TEST

/* ========================================================================= */
/* (d) determinism                                                          */
/* ========================================================================= */

START_TEST(test_determinism)
{
    prob q;
    make_prob(&q, 14, 5, 3, 5, 10);
    for (int a = 0; a < 3; a++) {
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
        p.rounds = 8;
        p.k0 = 3;
        ff_fedepm_trace t1, t2;
        init_run(ALGOS[a], &t1, &q.P, &p);
        init_run(ALGOS[a], &t2, &q.P, &p);
        ck_assert(same_trace(&t1, &t2));
        /* a reused trace gives the same result again */
        ck_assert_int_eq(run(ALGOS[a], &t2, &q.P, &p), FR_OK);
        ck_assert(same_trace(&t1, &t2));
        /* another seed gives other draws */
        p.seed++;
        ck_assert_int_eq(run(ALGOS[a], &t2, &q.P, &p), FR_OK);
        ck_assert(!same_trace(&t1, &t2));
        ff_fedepm_trace_clear(&t1);
        ff_fedepm_trace_clear(&t2);
    }
}
END_TEST

/* The runs evaluate f and g through the internal path (P checked once per
 * run, not per call): their records are bitwise those of the public
 * ff_logreg_f at the recorded server points, for the three algorithms. */
START_TEST(test_records_public)
{
    prob q;
    make_prob(&q, 15, 6, 4, 8, 20);
    double g[4];
    for (int a = 0; a < 3; a++) {
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
        ff_fedepm_trace t;
        init_run(ALGOS[a], &t, &q.P, &p);
        for (size_t r = 0; r < t.rounds; r++) {
            double f, g2 = 0;
            ck_assert_int_eq(ff_logreg_f(&f, g, &q.P, &t.w[r * 4]), FR_OK);
            ck_assert_msg(memcmp(&f, &t.f[r], sizeof f) == 0, "f: %a, record %a", f, t.f[r]);
            for (size_t j = 0; j < 4; j++)
                g2 += g[j] * g[j];
            ck_assert(fabs(g2 - t.gnorm2[r]) <= 8 * EPS * g2);
        }
        ff_fedepm_trace_clear(&t);
    }
}
END_TEST

/* ========================================================================= */
/* (e) stopping rule and counters                                           */
/* ========================================================================= */

START_TEST(test_stopping)
{
    prob q;
    make_prob(&q, 15, 4, 2, 4, 8);
    for (int a = 0; a < 3; a++) {
        for (int stopping = 0; stopping <= 1; stopping++) {
            fr_fedepm_params p = base_params(&q, FR_NOISE_NONE);
            p.rounds = 300;
            p.k0 = 2;
            p.nsel = q.P.m;
            p.stopping = stopping;
            ff_fedepm_trace t;
            init_run(ALGOS[a], &t, &q.P, &p);
            ck_assert_uint_ge(t.rounds, 1);
            ck_assert_uint_le(t.rounds, p.rounds + 1);
            ck_assert_uint_eq(t.cr, t.rounds - 1);
            ck_assert_uint_eq(t.iters, t.cr * p.k0);
            if (!stopping) {
                ck_assert_uint_eq(t.rounds, p.rounds + 1);
                ck_assert_int_eq(t.stop, FR_STOP_ROUNDS);
            } else {
                int st;
                for (size_t r = 1; r < t.rounds; r++) {
                    ck_assert_int_eq(ff_stop_rule(&st, t.gnorm2[r - 1], t.f, r, q.P.n), FR_OK);
                    ck_assert_int_eq(st, FR_STOP_ROUNDS);
                }
                ck_assert_int_eq(ff_stop_rule(&st, t.gnorm2[t.rounds - 1], t.f, t.rounds, q.P.n), FR_OK);
                ck_assert_int_eq(st, t.stop);
                if (st == FR_STOP_ROUNDS)
                    ck_assert_uint_eq(t.rounds, p.rounds + 1);
                if (ALGOS[a] == ALGO_FEDEPM)       /* the rule does fire */
                    ck_assert_int_ne(t.stop, FR_STOP_ROUNDS);
            }
            for (size_t r = t.rounds; r < t.cap; r++)       /* unused rows */
                ck_assert(isnan(t.f[r]) && t.sel[r * t.nsel] == SIZE_MAX);
            ff_fedepm_trace_clear(&t);
        }
    }
}
END_TEST

/* ========================================================================= */
/* (f) SFedAvg's step (35), (38) by hand; SFedProx with ell = 1 agrees       */
/* ========================================================================= */

START_TEST(test_baselines_by_hand)
{
    prob q;
    make_prob(&q, 16, 4, 3, 4, 10);
    const size_t m = q.P.m, n = q.P.n;
    fr_fedepm_params p = base_params(&q, FR_NOISE_EQ27);
    p.nsel = 3;
    p.k0 = 1;
    p.rounds = 1;
    p.ell = 1;
    ff_fedepm_trace ta, tp;
    init_run(ALGO_SFEDAVG, &ta, &q.P, &p);
    init_run(ALGO_SFEDPROX, &tp, &q.P, &p);
    double Z0[MAXM * 4];
    for (size_t i = 0; i < m; i++)
        initial_upload_eq27(Z0 + i * n, &p, i, n);
    /* (34): the mean of the selected z_i^0, divisor nsel */
    double w1[4];
    for (size_t j = 0; j < n; j++) {
        mpfr_t s, x;                       /* the exact sum (MPFR, 2200 bits), one rounding */
        mpfr_inits2(2200, s, x, (mpfr_ptr)0);
        mpfr_set_zero(s, 1);
        double M = 0;
        for (size_t k = 0; k < p.nsel; k++) {
            mpfr_set_d(x, Z0[ta.sel[k] * n + j], MPFR_RNDN);
            mpfr_add(s, s, x, MPFR_RNDN);
            M = fmax(M, fabs(Z0[ta.sel[k] * n + j]));
        }
        mpfr_div_ui(s, s, (unsigned long)p.nsel, MPFR_RNDN);
        w1[j] = mpfr_get_d(s, MPFR_RNDN);
        mpfr_clears(s, x, (mpfr_ptr)0);
        ck_assert(fabs(ta.w[j] - w1[j]) <= 2 * EPS * fabs(w1[j]) + 0x1p-60 * M);
    }
    for (size_t k = 0; k < p.nsel; k++) {
        const size_t i = ta.sel[k];
        double g[4], fi;
        ck_assert_int_eq(ff_logreg_fi(&fi, g, &q.P, i, ta.w), FR_OK);
        const double gamma = 2.0 * (double)q.d[i] / sqrt(2.0);   /* (38), k = 0 */
        for (size_t j = 0; j < n; j++) {
            const double want = ta.w[j] - gamma * g[j];
            const double tol = 4 * EPS * (fabs(ta.w[j]) + fabs(gamma * g[j]));
            ck_assert_msg(fabs(ta.W[i * n + j] - want) <= tol, "W[%zu][%zu] = %a, want %a",
                          i, j, ta.W[i * n + j], want);
        }
    }
    /* ell = 1, first step: v^2 = w^r - gamma (grad f_i(w^r) + mu * 0) */
    for (size_t t = 0; t < m * n; t++) {
        ck_assert(ta.W[t] == tp.W[t]);
        ck_assert(ta.Z[t] == tp.Z[t]);
    }
    for (size_t t = 0; t < ta.rounds * n; t++)
        ck_assert(ta.w[t] == tp.w[t]);
    ff_fedepm_trace_clear(&ta);
    ff_fedepm_trace_clear(&tp);
}
END_TEST

/* A block of k0 = 3 steps (35)/(38) resp. Algorithm 4 (ell = 2), with the
 * upload (37) under (39), replayed with plain loops: the bracket of (38)
 * is the ceiling (sqrt(2 k0 + 1) for k = 1, 2, not sqrt(2 k0)), mu of the
 * noise is taken at w_i^k before the last step. */
START_TEST(test_baselines_block)
{
    prob q;
    make_prob(&q, 19, 4, 3, 5, 10);
    const size_t m = q.P.m, n = q.P.n;
    for (int a = 1; a < 3; a++) {
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
        p.nsel = 2;
        p.k0 = 3;
        p.rounds = 1;
        p.ell = 2;
        ff_fedepm_trace t;
        init_run(ALGOS[a], &t, &q.P, &p);
        const double *w1 = t.w;
        double scale = 0;
        for (size_t k = 0; k < p.nsel; k++) {
            const size_t i = t.sel[k];
            double wi[4] = {0}, v[4], gv[4], g1[4], fi, mu = 0, nu;
            for (unsigned long kk = 0; kk < p.k0; kk++) {
                const double tau = kk == 0 ? 0.0 : 1.0;          /* ceil(kk / 3) */
                const double gamma = 2.0 * (double)q.d[i] / sqrt(2.0 * 3.0 + tau);
                if (kk == p.k0 - 1)
                    ck_assert_int_eq(ff_fedepm_mu(&mu, p.mu0, p.c, p.alpha, kk + 1, wi, w1, n), FR_OK);
                memcpy(v, kk == 0 ? w1 : wi, n * sizeof *v);
                const unsigned long steps = ALGOS[a] == ALGO_SFEDAVG ? 1 : p.ell;
                for (unsigned long s = 0; s < steps; s++) {
                    ck_assert_int_eq(ff_logreg_fi(&fi, gv, &q.P, i, v), FR_OK);
                    if (kk == 0 && s == 0)
                        memcpy(g1, gv, n * sizeof *g1);
                    for (size_t j = 0; j < n; j++) {
                        const double prox = ALGOS[a] == ALGO_SFEDAVG ? 0.0
                                            : p.mu_prox * (v[j] - w1[j]);
                        v[j] = v[j] - gamma * (gv[j] + prox);
                    }
                }
                memcpy(wi, v, n * sizeof *wi);
            }
            for (size_t j = 0; j < n; j++)
                scale = fmax(scale, fabs(wi[j]));
            for (size_t j = 0; j < n; j++)
                ck_assert_msg(fabs(t.W[i * n + j] - wi[j]) <= 1e-13 * scale,
                              "algo %d W[%zu][%zu] = %.17g, want %.17g", ALGOS[a], i, j,
                              t.W[i * n + j], wi[j]);
            /* the upload: z_i^0's n words, then n draws at nu of (39) */
            frng_t gr;
            frng_init(&gr, p.seed, FR_STREAM_NOISE + (uint64_t)i);
            for (size_t j = 0; j < n; j++)
                (void)frng_u52_open(&gr);
            ck_assert_int_eq(ff_laplace_scale_eq39_upper(&nu, g1, n, p.eps, mu), FR_OK);
            for (size_t j = 0; j < n; j++) {
                double e;
                ck_assert_int_eq(ff_rng_laplace(&e, &gr, nu), FR_OK);
                ck_assert(fabs(t.Z[i * n + j] - (wi[j] + e)) <= 1e-13 * (scale + fabs(e)));
            }
        }
        for (size_t i = 0; i < m; i++)
            if (!selected(&t, 1, i))
                for (size_t j = 0; j < n; j++)
                    ck_assert(t.W[i * n + j] == 0);
        ff_fedepm_trace_clear(&t);
    }
}
END_TEST

/* ========================================================================= */
/* (g) invalid arguments leave the trace unchanged                          */
/* ========================================================================= */

START_TEST(test_invalid)
{
    prob q, q3;
    make_prob(&q, 17, 4, 2, 4, 6);
    make_prob(&q3, 17, 3, 2, 4, 6);
    for (int a = 0; a < 3; a++) {
        const int algo = ALGOS[a];
        fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
        ff_fedepm_trace t, snap;
        init_run(algo, &t, &q.P, &p);
        copy_trace(&snap, &t);
        fr_fedepm_params b;
#define BAD(field, value, status) \
        do { b = p; b.field = value; \
             ck_assert_int_eq(run(algo, &t, &q.P, &b), status); \
             ck_assert(same_trace(&t, &snap)); } while (0)
        BAD(nsel, 0, FR_ESIZE);
        BAD(nsel, 5, FR_ESIZE);
        BAD(k0, 0, FR_ESIZE);
        BAD(rounds, 0, FR_ESIZE);
        BAD(rounds, 5, FR_ESIZE);            /* the trace has 5 rows, not 6 */
        BAD(nsel, 1, FR_ESIZE);              /* trace made for nsel = 2 */
        BAD(mu0, 0, FR_EDOM);
        BAD(c, NAN, FR_ENONFINITE);
        BAD(alpha, 1, FR_EDOM);
        BAD(eps, 0, FR_EDOM);
        BAD(noise, 7, FR_EDOM);
        b = p;
        b.noise = FR_NOISE_EQ27;
        b.Delta = NULL;
        ck_assert_int_eq(run(algo, &t, &q.P, &b), FR_ENULL);
        if (algo == ALGO_FEDEPM) {
            BAD(lambda, 0, FR_EDOM);
            BAD(eta, INFINITY, FR_ENONFINITE);
        }
        if (algo == ALGO_SFEDPROX) {
            BAD(mu_prox, -1, FR_EDOM);
            BAD(ell, 0, FR_ESIZE);
        }
#undef BAD
        ck_assert_int_eq(run(algo, &t, NULL, &p), FR_ENULL);
        ck_assert_int_eq(run(algo, &t, &q.P, NULL), FR_ENULL);
        ck_assert_int_eq(run(algo, NULL, &q.P, &p), FR_ENULL);
        fr_logreg bad = q.P;
        bad.beta = 0;
        ck_assert_int_eq(run(algo, &t, &bad, &p), FR_EDOM);
        ck_assert_int_eq(run(algo, &t, &q3.P, &p), FR_ESIZE);   /* trace for m = 4 */
        ck_assert(same_trace(&t, &snap));
        /* a zeroed trace is not a trace for P */
        ff_fedepm_trace z = {0};
        ck_assert_int_eq(run(algo, &z, &q.P, &p), FR_ENULL);
        ff_fedepm_trace_clear(&z);
        ff_fedepm_trace_clear(&t);
        ff_fedepm_trace_clear(&snap);
    }
    /* ff_fedepm_trace_init: argument errors write nothing */
    fr_fedepm_params p = base_params(&q, FR_NOISE_NONE);
    ff_fedepm_trace t, z = {0};
    memset(&t, 0xa5, sizeof t);
    unsigned char raw[sizeof t];
    memcpy(raw, &t, sizeof t);
    p.nsel = 0;
    ck_assert_int_eq(ff_fedepm_trace_init(&t, &q.P, &p), FR_ESIZE);
    ck_assert_int_eq(ff_fedepm_trace_init(&t, NULL, &p), FR_ENULL);
    ck_assert(!memcmp(raw, &t, sizeof t));
    ck_assert_int_eq(ff_fedepm_trace_init(NULL, &q.P, &p), FR_ENULL);
    ff_fedepm_trace_clear(&z);
    ff_fedepm_trace_clear(NULL);
    /* a fresh trace: cap = R + 1 rows of NaN */
    p.nsel = 2;
    ck_assert_int_eq(ff_fedepm_trace_init(&t, &q.P, &p), FR_OK);
    ck_assert_uint_eq(t.cap, p.rounds + 1);
    ck_assert(t.m == q.P.m && t.n == q.P.n && t.nsel == 2 && t.rounds == 0);
    ck_assert(isnan(t.w[0]) && isnan(t.f[t.cap - 1]) && isnan(t.snr) && isnan(t.Z[0]));
    ff_fedepm_trace_clear(&t);
    ck_assert(t.w == NULL && t.cap == 0);
}
END_TEST

/* ========================================================================= */
/* (h) FedEPM against a straightforward MPFR implementation at 200 bits     */
/* ========================================================================= */

#define MP 200
#define HM 3
#define HN 2

typedef struct {
    const prob *q;
    const fr_fedepm_params *p;
    mpfr_t W[HM][HN], Z[HM][HN], w[HN], g[HN], e[HN], snr[HM];
    int up[HM];
    mpfr_t lam, eta, mu0, c, alpha, eps, beta, t1, t2, t3;
    frng_t noise[HM];
} mp_run;

/* u = <x_t, w> for sample row t */
static void mp_dot(mpfr_t u, const double *x, mpfr_t *w, size_t n, mpfr_t tmp)
{
    mpfr_set_zero(u, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_mul_d(tmp, w[j], x[j], MPFR_RNDN);
        mpfr_add(u, u, tmp, MPFR_RNDN);
    }
}

/* fi += f_i(w) (if fi), g = grad f_i(w) (Sec. VII-A) */
static void mp_logreg(mp_run *R, size_t i, mpfr_t *w, mpfr_t *g, mpfr_t fi)
{
    const prob *q = R->q;
    const size_t n = q->P.n;
    size_t off = 0;
    for (size_t h = 0; h < i; h++)
        off += q->d[h];
    mpfr_t u, s, acc;
    mpfr_inits2(MP, u, s, acc, (mpfr_ptr)0);
    mpfr_set_zero(acc, 1);
    for (size_t j = 0; j < n; j++)
        mpfr_set_zero(g[j], 1);
    for (size_t t = off; t < off + q->d[i]; t++) {
        const double *x = q->X + t * n;
        mp_dot(u, x, w, n, R->t1);
        /* loss ln(1 + e^u) - b u */
        mpfr_exp(s, u, MPFR_RNDN);
        mpfr_log1p(s, s, MPFR_RNDN);
        mpfr_mul_d(R->t1, u, q->b[t], MPFR_RNDN);
        mpfr_sub(s, s, R->t1, MPFR_RNDN);
        mpfr_add(acc, acc, s, MPFR_RNDN);
        /* sigma(u) - b */
        mpfr_neg(s, u, MPFR_RNDN);
        mpfr_exp(s, s, MPFR_RNDN);
        mpfr_add_ui(s, s, 1, MPFR_RNDN);
        mpfr_ui_div(s, 1, s, MPFR_RNDN);
        mpfr_sub_d(s, s, q->b[t], MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            mpfr_mul_d(R->t1, s, x[j], MPFR_RNDN);
            mpfr_add(g[j], g[j], R->t1, MPFR_RNDN);
        }
    }
    mpfr_set_zero(s, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_div_ui(g[j], g[j], q->d[i], MPFR_RNDN);
        mpfr_mul(R->t1, R->beta, w[j], MPFR_RNDN);
        mpfr_add(g[j], g[j], R->t1, MPFR_RNDN);
        mpfr_sqr(R->t1, w[j], MPFR_RNDN);
        mpfr_add(s, s, R->t1, MPFR_RNDN);
    }
    if (fi) {
        mpfr_div_ui(acc, acc, q->d[i], MPFR_RNDN);
        mpfr_mul(s, s, R->beta, MPFR_RNDN);
        mpfr_div_2ui(s, s, 1, MPFR_RNDN);
        mpfr_add(acc, acc, s, MPFR_RNDN);
        mpfr_add(fi, fi, acc, MPFR_RNDN);
    }
    mpfr_clears(u, s, acc, (mpfr_ptr)0);
}

/* ENS per coordinate: argmin_x sum_i C |x - v_i| + (x - v_i)^2 / 2, C = lambda/eta,
 * by the optimality condition 0 in h'(x): a stationary point inside a
 * piece, or else a data value with h'_-(v) <= 0 <= h'_+(v). */
static void mp_ens(mp_run *R, mpfr_t x, mpfr_t *v, size_t m)
{
    mpfr_t C, S, y, lo, hi;
    mpfr_inits2(MP, C, S, y, lo, hi, (mpfr_ptr)0);
    mpfr_div(C, R->lam, R->eta, MPFR_RNDN);
    mpfr_set_zero(S, 1);
    for (size_t i = 0; i < m; i++)
        mpfr_add(S, S, v[i], MPFR_RNDN);
    int found = 0;
    for (size_t k = 0; k <= m && !found; k++) {
        /* piece with exactly k values < x: y = (S + C (m - 2k)) / m */
        mpfr_mul_si(y, C, (long)m - 2 * (long)k, MPFR_RNDN);
        mpfr_add(y, y, S, MPFR_RNDN);
        mpfr_div_ui(y, y, m, MPFR_RNDN);
        size_t below = 0, above = 0;
        for (size_t i = 0; i < m; i++) {
            below += mpfr_less_p(v[i], y);
            above += mpfr_greater_p(v[i], y);
        }
        if (below == k && above == m - k) {
            mpfr_set(x, y, MPFR_RNDN);
            found = 1;
        }
    }
    for (size_t c = 0; c < m && !found; c++) {
        /* h'_+-(v_c) = sum (v_c - v_i) + C (#below -+ ...) */
        mpfr_set_zero(y, 1);
        size_t lt = 0, gt = 0;
        for (size_t i = 0; i < m; i++) {
            mpfr_sub(lo, v[c], v[i], MPFR_RNDN);
            mpfr_add(y, y, lo, MPFR_RNDN);
            lt += mpfr_less_p(v[i], v[c]);
            gt += mpfr_greater_p(v[i], v[c]);
        }
        mpfr_mul_si(lo, C, (long)lt - (long)(m - lt), MPFR_RNDN);   /* left */
        mpfr_add(lo, lo, y, MPFR_RNDN);
        mpfr_mul_si(hi, C, (long)(m - gt) - (long)gt, MPFR_RNDN);   /* right */
        mpfr_add(hi, hi, y, MPFR_RNDN);
        if (mpfr_sgn(lo) <= 0 && mpfr_sgn(hi) >= 0) {
            mpfr_set(x, v[c], MPFR_RNDN);
            found = 1;
        }
    }
    ck_assert(found);
    mpfr_clears(C, S, y, lo, hi, (mpfr_ptr)0);
}

/* The upload: nu = 2 ||g||_1 / (eps mu) (39), Laplace draws as docs/RNG.md
 * 3.5 at 200 bits, z_i = w_i + eps_i, and the client's SNR term. */
static void mp_upload(mp_run *R, size_t i, mpfr_t mu, int snr)
{
    const size_t n = R->q->P.n;
    mpfr_t nu, u;
    mpfr_inits2(MP, nu, u, (mpfr_ptr)0);
    mpfr_set_zero(nu, 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_abs(R->t1, R->g[j], MPFR_RNDN);
        mpfr_add(nu, nu, R->t1, MPFR_RNDN);
    }
    mpfr_mul_2ui(nu, nu, 1, MPFR_RNDN);
    mpfr_mul(R->t1, R->eps, mu, MPFR_RNDN);
    mpfr_div(nu, nu, R->t1, MPFR_RNDN);
    for (size_t j = 0; j < n; j++) {
        if (mpfr_zero_p(nu)) {
            mpfr_set_zero(R->e[j], 1);
        } else {
            uint64_t k = frng_u52_open(&R->noise[i]);
            mpfr_set_d(u, (double)(2 * k + 1), MPFR_RNDN);   /* < 2^53: exact */
            mpfr_div_2ui(u, u, 52, MPFR_RNDN);                /* 2u */
            if (k < ((uint64_t)1 << 51)) {
                mpfr_log(u, u, MPFR_RNDN);
                mpfr_mul(R->e[j], nu, u, MPFR_RNDN);
            } else {
                mpfr_ui_sub(u, 2, u, MPFR_RNDN);              /* 2(1 - u) */
                mpfr_log(u, u, MPFR_RNDN);
                mpfr_mul(R->e[j], nu, u, MPFR_RNDN);
                mpfr_neg(R->e[j], R->e[j], MPFR_RNDN);
            }
        }
        mpfr_add(R->Z[i][j], R->W[i][j], R->e[j], MPFR_RNDN);
    }
    if (snr) {
        mpfr_set_zero(R->t1, 1);
        mpfr_set_zero(R->t2, 1);
        for (size_t j = 0; j < n; j++) {
            mpfr_sqr(R->t3, R->W[i][j], MPFR_RNDN);
            mpfr_add(R->t1, R->t1, R->t3, MPFR_RNDN);
            mpfr_sqr(R->t3, R->e[j], MPFR_RNDN);
            mpfr_add(R->t2, R->t2, R->t3, MPFR_RNDN);
        }
        mpfr_div(R->t1, R->t1, R->t2, MPFR_RNDN);
        mpfr_log10(R->snr[i], R->t1, MPFR_RNDN);
        mpfr_div_2ui(R->snr[i], R->snr[i], 1, MPFR_RNDN);     /* log10 of the root */
        R->up[i] = 1;
    }
    mpfr_clears(nu, u, (mpfr_ptr)0);
}

/* |got - want| <= tol * scale */
static void ck_close(double got, mpfr_t want, double scale, double tol, const char *what)
{
    mpfr_t d;
    mpfr_init2(d, MP);
    mpfr_sub_d(d, want, got, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    double err = mpfr_get_d(d, MPFR_RNDU);
    if (!(err <= tol * scale))
        mpfr_fprintf(stderr, "%s: got %.17g want %.25Rg err %.3g\n", what, got, want, err);
    ck_assert_msg(err <= tol * scale, "%s: error %.3g > %.3g", what, err, tol * scale);
    mpfr_clear(d);
}

START_TEST(test_fedepm_mpfr)
{
    prob q;
    make_prob(&q, 18, HM, HN, 4, 8);
    fr_fedepm_params p = base_params(&q, FR_NOISE_EQ39);
    p.k0 = 2;
    p.rounds = 2;
    p.nsel = 2;
    p.eps = 1.0;
    p.mu0 = 0.5;
    ff_fedepm_trace t;
    init_run(ALGO_FEDEPM, &t, &q.P, &p);

    mp_run R;
    R.q = &q;
    R.p = &p;
    mpfr_inits2(MP, R.lam, R.eta, R.mu0, R.c, R.alpha, R.eps, R.beta, R.t1, R.t2, R.t3,
                (mpfr_ptr)0);
    mpfr_set_d(R.lam, p.lambda, MPFR_RNDN);
    mpfr_set_d(R.eta, p.eta, MPFR_RNDN);
    mpfr_set_d(R.mu0, p.mu0, MPFR_RNDN);
    mpfr_set_d(R.c, p.c, MPFR_RNDN);
    mpfr_set_d(R.alpha, p.alpha, MPFR_RNDN);
    mpfr_set_d(R.eps, p.eps, MPFR_RNDN);
    mpfr_set_d(R.beta, q.P.beta, MPFR_RNDN);
    for (size_t i = 0; i < HM; i++) {
        for (size_t j = 0; j < HN; j++) {
            mpfr_init2(R.W[i][j], MP);
            mpfr_init2(R.Z[i][j], MP);
            mpfr_set_zero(R.W[i][j], 1);
        }
        mpfr_init2(R.snr[i], MP);
        R.up[i] = 0;
        frng_init(&R.noise[i], p.seed, FR_STREAM_NOISE + (uint64_t)i);
    }
    for (size_t j = 0; j < HN; j++) {
        mpfr_init2(R.w[j], MP);
        mpfr_init2(R.g[j], MP);
        mpfr_init2(R.e[j], MP);
    }
    mpfr_t mu, f, col[HM], gf[HN];
    mpfr_inits2(MP, mu, f, (mpfr_ptr)0);
    for (size_t i = 0; i < HM; i++)
        mpfr_init2(col[i], MP);
    for (size_t j = 0; j < HN; j++)
        mpfr_init2(gf[j], MP);

    /* section 2: z_i^0 with nu at mu0 and g = grad f_i(0) */
    for (size_t i = 0; i < HM; i++) {
        mp_logreg(&R, i, R.W[i], R.g, NULL);
        mp_upload(&R, i, R.mu0, 0);
    }
    frng_t sel;
    frng_init(&sel, p.seed, FR_STREAM_SELECT);
    const double tol = 1e-12;
    for (unsigned long r = 1; r <= p.rounds + 1; r++) {
        for (size_t j = 0; j < HN; j++) {                  /* (19) */
            for (size_t i = 0; i < HM; i++)
                mpfr_set(col[i], R.Z[i][j], MPFR_RNDN);
            mp_ens(&R, R.w[j], col, HM);
        }
        size_t S[HM];
        ck_assert_int_eq(frng_sample(&sel, HM, p.nsel, S), FR_OK);
        /* records */
        mpfr_set_zero(f, 1);
        for (size_t j = 0; j < HN; j++)
            mpfr_set_zero(gf[j], 1);
        for (size_t i = 0; i < HM; i++) {
            mp_logreg(&R, i, R.w, R.g, f);
            for (size_t j = 0; j < HN; j++)
                mpfr_add(gf[j], gf[j], R.g[j], MPFR_RNDN);
        }
        double wscale = 0;
        for (size_t j = 0; j < HN; j++)
            wscale = fmax(wscale, fabs(mpfr_get_d(R.w[j], MPFR_RNDN)));
        for (size_t j = 0; j < HN; j++)
            ck_close(t.w[(r - 1) * HN + j], R.w[j], wscale, tol, "w^r");
        ck_close(t.f[r - 1], f, fabs(mpfr_get_d(f, MPFR_RNDN)), tol, "f(w^r)");
        mpfr_set_zero(R.t2, 1);
        for (size_t j = 0; j < HN; j++) {
            mpfr_sqr(R.t1, gf[j], MPFR_RNDN);
            mpfr_add(R.t2, R.t2, R.t1, MPFR_RNDN);
        }
        ck_close(t.gnorm2[r - 1], R.t2, mpfr_get_d(R.t2, MPFR_RNDN), tol, "gnorm2");
        for (size_t k = 0; k < p.nsel; k++)
            ck_assert_uint_eq(t.sel[(r - 1) * p.nsel + k], S[k]);
        if (r == p.rounds + 1)
            break;
        for (size_t k = 0; k < p.nsel; k++) {              /* (20), (21) */
            const size_t i = S[k];
            mp_logreg(&R, i, R.w, R.g, NULL);
            for (unsigned long kk = (r - 1) * p.k0; kk < r * p.k0; kk++) {
                /* mu = mu0 (1 + c ||w_i - w||^2) alpha^(k+1) */
                mpfr_set_zero(R.t2, 1);
                for (size_t j = 0; j < HN; j++) {
                    mpfr_sub(R.t1, R.W[i][j], R.w[j], MPFR_RNDN);
                    mpfr_sqr(R.t1, R.t1, MPFR_RNDN);
                    mpfr_add(R.t2, R.t2, R.t1, MPFR_RNDN);
                }
                mpfr_mul(R.t2, R.t2, R.c, MPFR_RNDN);
                mpfr_add_ui(R.t2, R.t2, 1, MPFR_RNDN);
                mpfr_pow_ui(R.t1, R.alpha, kk + 1, MPFR_RNDN);
                mpfr_mul(mu, R.mu0, R.t2, MPFR_RNDN);
                mpfr_mul(mu, mu, R.t1, MPFR_RNDN);
                /* w_i = w + soft(mu (w_i - w) - g, lambda) / (eta + mu) */
                mpfr_add(R.t3, R.eta, mu, MPFR_RNDN);
                for (size_t j = 0; j < HN; j++) {
                    mpfr_sub(R.t1, R.W[i][j], R.w[j], MPFR_RNDN);
                    mpfr_mul(R.t1, R.t1, mu, MPFR_RNDN);
                    mpfr_sub(R.t1, R.t1, R.g[j], MPFR_RNDN);
                    if (mpfr_cmpabs(R.t1, R.lam) <= 0) {
                        mpfr_set_zero(R.t1, 1);
                    } else if (mpfr_sgn(R.t1) > 0) {
                        mpfr_sub(R.t1, R.t1, R.lam, MPFR_RNDN);
                    } else {
                        mpfr_add(R.t1, R.t1, R.lam, MPFR_RNDN);
                    }
                    mpfr_div(R.t1, R.t1, R.t3, MPFR_RNDN);
                    mpfr_add(R.W[i][j], R.w[j], R.t1, MPFR_RNDN);
                }
            }
            mp_upload(&R, i, mu, 1);
        }
    }
    ck_assert_uint_eq(t.rounds, p.rounds + 1);
    double zs = 0, ws = 0;
    for (size_t i = 0; i < HM; i++)
        for (size_t j = 0; j < HN; j++) {
            zs = fmax(zs, fabs(mpfr_get_d(R.Z[i][j], MPFR_RNDN)));
            ws = fmax(ws, fabs(mpfr_get_d(R.W[i][j], MPFR_RNDN)));
        }
    for (size_t i = 0; i < HM; i++)
        for (size_t j = 0; j < HN; j++) {
            ck_close(t.W[i * HN + j], R.W[i][j], ws, tol, "W");
            ck_close(t.Z[i * HN + j], R.Z[i][j], zs, tol, "Z");
        }
    size_t cnt = 0;
    mpfr_set_inf(R.t1, 1);
    for (size_t i = 0; i < HM; i++)
        if (R.up[i]) {
            cnt++;
            mpfr_min(R.t1, R.t1, R.snr[i], MPFR_RNDN);
        }
    ck_assert_uint_eq(t.snr_clients, cnt);
    ck_assert_uint_ge(cnt, 1);
    ck_close(t.snr, R.t1, 1.0, tol, "snr");

    for (size_t i = 0; i < HM; i++) {
        for (size_t j = 0; j < HN; j++)
            mpfr_clears(R.W[i][j], R.Z[i][j], (mpfr_ptr)0);
        mpfr_clears(R.snr[i], col[i], (mpfr_ptr)0);
    }
    for (size_t j = 0; j < HN; j++)
        mpfr_clears(R.w[j], R.g[j], R.e[j], gf[j], (mpfr_ptr)0);
    mpfr_clears(mu, f, R.lam, R.eta, R.mu0, R.c, R.alpha, R.eps, R.beta, R.t1, R.t2, R.t3,
                (mpfr_ptr)0);
    ff_fedepm_trace_clear(&t);
}
END_TEST

Suite *suite_fast_fl_runs(void)
{
    Suite *s = suite_create("fast_fl_runs");
    struct { const char *name; const TTest *fn; } cases[] = {
        {"selection stream", test_selection_stream},
        {"keep rule (22)", test_keep_rule},
        {"FedEPM round by hand", test_fedepm_by_hand},
        {"determinism", test_determinism},
        {"records = public ff_logreg_f", test_records_public},
        {"stopping rule", test_stopping},
        {"SFedAvg / SFedProx by hand", test_baselines_by_hand},
        {"SFedAvg / SFedProx block", test_baselines_block},
        {"invalid arguments", test_invalid},
        {"FedEPM vs MPFR 200 bits", test_fedepm_mpfr},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        TCase *tc = tcase_create(cases[k].name);
        tcase_set_timeout(tc, 20);
        tcase_add_test(tc, cases[k].fn);
        suite_add_tcase(s, tc);
    }
    return s;
}
