/* SPDX-License-Identifier: Apache-2.0 */
/* test_alg.c -- 004 Algorithms 1 and 3 (ff_proxal_alg1/_alg3,
 * fr_proxal_alg1/_alg3) on small seeded problems:
 *   - QP (25) with the exact KKT pair z* = (w*, mu*) of K z = rhs (256-bit
 *     elimination, alg_fixtures.h): a terminated run is an (eps1, eps2)-KKT
 *     pair (Theorem 3.1), so K (z - z*) = (r1, r2) with ||r||_inf <= eps and
 *     ||z - z*||_inf <= ||K^-1||_inf eps; the residuals r1 = sum A_i w +
 *     sum b_i + C^T mu, r2 = C w + e recomputed in long double from the
 *     data (not by the module's code);
 *   - ref (128 bits) vs fast, Algorithm 3 vs Algorithm 1: all within the
 *     same ball around z*;
 *   - the equality rows' KKT residual: kkt2 = max |c_j| = feas exactly, for
 *     any sign of mu (the pair derivation of fast/proxal/alg.c);
 *   - warm starts: (7) recomputed at w^{k+1} with the prox centre w^k and
 *     mu^k rebuilt from the kept w's, and a one-iteration run restarted at
 *     (w^k, mu^k, sbar/(k+1)^2) reproduces w^{k+1} bit for bit;
 *   - no state shared between runs (the same records after another run);
 *   - kmax reached -> FR_OK, terminated 0, thm31_ok 0;
 *   - fast keeps one Algorithm-2 workspace: n + 1 factorisations per run;
 *     Algorithm 3 on QP factors its (constant) Hessian once per run;
 *   - NP (inequality rows, the server with m_0 = 0) and the FAIR kink
 *     (mu + beta c = 0 exactly at w0 = 0). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "alg_fixtures.h"

Suite *suite_proxal_alg(void);

/* ||K^-1||_inf eps with a 1% margin for the computed norm */
static double ball(double kinv, double eps)
{
    return 1.01 * kinv * eps;
}

/* the long double residuals of (w, mu) for the QP: max |r1|, max |r2| */
static void qp_resid(const af_inst *I, const double *w, const double *mu, long double *r1, long double *r2)
{
    const fr_proxal_problem *P = &I->P;
    size_t n = P->n, d = P->d, m = (n + 1) * P->mt;
    *r1 = *r2 = 0;
    for (size_t a = 0; a < d; a++) {
        long double s = 0;
        for (size_t i = 0; i < n; i++) {
            s += P->b[i * d + a];
            for (size_t b = 0; b < d; b++)
                s += (long double)P->A[i * d * d + a * d + b] * w[b];
        }
        for (size_t j = 0; j < m; j++)
            s += (long double)P->C[j * d + a] * mu[j];
        *r1 = fmaxl(*r1, fabsl(s));
    }
    for (size_t j = 0; j < m; j++) {
        long double s = P->e[j];
        for (size_t b = 0; b < d; b++)
            s += (long double)P->C[j * d + b] * w[b];
        *r2 = fmaxl(*r2, fabsl(s));
    }
}

typedef struct {
    size_t n, d, mt;
    uint64_t seed;
} qcase;
static const qcase QC[] = {{1, 2, 1, 11}, {1, 5, 2, 12}, {2, 4, 1, 13}, {3, 8, 1, 14}, {4, 8, 1, 15}};
#define NQC (sizeof QC / sizeof QC[0])

static void mu_d(mpfr_t *z, size_t off, size_t m, double *out)
{
    for (size_t j = 0; j < m; j++)
        out[j] = mpfr_get_d(z[off + j], MPFR_RNDN);
}

START_TEST(qp_terminated_runs_are_kkt)
{
    const qcase *q = &QC[_i];
    af_inst I;
    ck_assert_int_eq(af_qp(&I, q->n, q->d, q->mt, q->seed), FR_OK);
    size_t d = q->d, m = (q->n + 1) * q->mt;
    mpfr_t z[AF_DMAX + (AF_NMAX + 1) * AF_MTMAX];
    for (size_t k = 0; k < d + m; k++)
        mpfr_init2(z[k], 256);
    double kinv, ws[AF_DMAX], mus[(AF_NMAX + 1) * AF_MTMAX];
    ck_assert_int_eq(af_qp_kkt(&I, 256, z, &kinv), 0);
    mu_d(z, 0, d, ws);
    mu_d(z, d, m, mus);
    const double eps = 1e-4;
    fr_proxal_alg_params p = af_params(&I, eps, 400);
    double B = ball(kinv, eps);
    double wout[3][AF_DMAX];
    for (int a = 0; a < 3; a++) {   /* fast alg1, fast alg3, ref alg1 */
        double w[AF_DMAX], mu[(AF_NMAX + 1) * AF_MTMAX];
        size_t iters;
        if (a < 2) {
            ff_proxal_trace t;
            ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(a ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(t.terminated, 1);
            ck_assert_int_eq(t.thm31_ok, 1);
            iters = t.iters;
            for (size_t k = 0; k < iters; k++) {
                ck_assert_int_eq(t.inner_ok[k], 1);
                ck_assert(t.kkt2[k] == t.feas[k]);            /* equality rows: |c_j| */
                ck_assert(t.sub[k] <= t.tau[k]);
                ck_assert(t.tau[k] == p.sbar / ((double)(k + 1) * (double)(k + 1)));
            }
            for (size_t k = iters; k < p.kmax; k++)
                ck_assert(isnan(t.kkt1[k]) && t.inner[k] == 0);
            if (a == 0 && iters > 1)
                ck_assert_uint_eq(t.factorisations, q->n + 1);   /* one workspace per run */
            if (a == 1) {   /* QP: the summed Hessian is one matrix for the run, factored once */
                unsigned long newton = 0;
                for (size_t k = 0; k < iters; k++)
                    newton += t.inner[k];
                ck_assert_uint_eq(t.factorisations, newton > 0);
            }
            memcpy(w, t.w, d * sizeof *w);
            memcpy(mu, t.mu, m * sizeof *mu);
            ff_proxal_trace_clear(&t);
        } else {
            fr_proxal_trace t;
            ck_assert_int_eq(fr_proxal_trace_init(&t, &I.P, &p, 128), FR_OK);
            ck_assert_int_eq(fr_proxal_alg1(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(t.terminated, 1);
            ck_assert_int_eq(t.thm31_ok, 1);
            iters = t.iters;
            for (size_t k = 0; k < iters; k++) {
                ck_assert_int_eq(t.inner_ok[k], 1);
                ck_assert(mpfr_equal_p(t.kkt2[k], t.feas[k]));
            }
            mu_d(t.w, 0, d, w);
            mu_d(t.mu, 0, m, mu);
            fr_proxal_trace_clear(&t);
        }
        long double r1, r2;
        qp_resid(&I, w, mu, &r1, &r2);
        ck_assert_msg(r1 <= eps * (1 + 1e-9) && r2 <= eps * (1 + 1e-9), "case %d alg %d: r %Lg %Lg", _i, a, r1,
                      r2);
        for (size_t k = 0; k < d; k++)
            ck_assert_msg(fabs(w[k] - ws[k]) <= B, "case %d alg %d w_%zu: %g vs %g (ball %g)", _i, a, k, w[k],
                          ws[k], B);
        for (size_t j = 0; j < m; j++)
            ck_assert_msg(fabs(mu[j] - mus[j]) <= B, "case %d alg %d mu_%zu", _i, a, j);
        memcpy(wout[a], w, d * sizeof *w);
    }
    for (size_t k = 0; k < d; k++)   /* ref vs fast, Algorithm 3 vs 1: the same ball */
        ck_assert(fabs(wout[0][k] - wout[1][k]) <= 2 * B && fabs(wout[0][k] - wout[2][k]) <= 2 * B);
    for (size_t k = 0; k < d + m; k++)
        mpfr_clear(z[k]);
}
END_TEST

/* (8) is decided on the values, not on their roundings: with s-bar = 0.1 and
 * eps1 = eps2 = 1e-3 (binary64), RN(sbar/100) = eps1 but sbar/100 > eps1, so
 * no run may stop before k + 1 = 11 (tau_k <= eps1 checked exactly at the
 * stopping k), and fast's cProx-AL stops where ref's does.  fast used to
 * test (8) in round to nearest and stopped cProx-AL at k + 1 = 10 with
 * dw = 0 (the audit's sweep of proxal_alg3 found it). */
START_TEST(stop_rule_tie)
{
    mpfr_t tau, e1;
    mpfr_inits2(256, tau, e1, (mpfr_ptr)0);
    for (size_t c = 0; c < NQC; c++) {
        const qcase *q = &QC[c];
        af_inst I;
        ck_assert_int_eq(af_qp(&I, q->n, q->d, q->mt, q->seed), FR_OK);
        fr_proxal_alg_params p = af_params(&I, 1e-3, 400);
        size_t it[3];
        for (int a = 0; a < 3; a++) {   /* fast alg1, fast alg3, ref alg3 */
            if (a < 2) {
                ff_proxal_trace t;
                ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
                ck_assert_int_eq(a ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p), FR_OK);
                ck_assert_int_eq(t.terminated, 1);
                it[a] = t.iters;
                ff_proxal_trace_clear(&t);
            } else {
                fr_proxal_trace t;
                ck_assert_int_eq(fr_proxal_trace_init(&t, &I.P, &p, 128), FR_OK);
                ck_assert_int_eq(fr_proxal_alg3(&t, &I.P, &p), FR_OK);
                ck_assert_int_eq(t.terminated, 1);
                it[a] = t.iters;
                fr_proxal_trace_clear(&t);
            }
            /* at the stopping k = iters - 1: sbar/(k+1)^2 <= eps1 exactly */
            mpfr_set_d(tau, p.sbar, MPFR_RNDN);
            mpfr_div_ui(tau, tau, (unsigned long)(it[a] * it[a]), MPFR_RNDN);   /* exact enough: 256 bits */
            mpfr_set_d(e1, p.eps1, MPFR_RNDN);
            ck_assert_msg(mpfr_cmp(tau, e1) <= 0, "case %zu alg %d stopped at k + 1 = %zu", c, a, it[a]);
            ck_assert_uint_ge(it[a], 11);
        }
        ck_assert_msg(it[1] == it[2], "case %zu: fast cProx-AL %zu outer iterations, ref %zu", c, it[1], it[2]);
    }
    mpfr_clears(tau, e1, (mpfr_ptr)0);
}
END_TEST

/* warm starts and restarts (fast, Algorithm 1 and 3) */
START_TEST(warm_start_and_restart)
{
    af_inst I;
    ck_assert_int_eq(af_qp(&I, 2, 4, 1, 21), FR_OK);
    fr_proxal_alg_params p = af_params(&I, 1e-4, 12);
    p.keep = FR_PROXAL_KEEP_W;
    size_t d = 4, m = 3;
    for (int a3 = 0; a3 < 2; a3++) {
        ff_proxal_trace t, u;
        ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
        ck_assert_int_eq(a3 ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p), FR_OK);
        ck_assert_uint_eq(t.iters, 12);
        ck_assert_int_eq(t.terminated, 0);
        ck_assert_int_eq(t.thm31_ok, 0);
        for (size_t k = 0; k < d; k++)
            ck_assert(t.w[k] == I.w0[k]);                   /* row 0 = w^0 */
        double mu[3] = {0, 0, 0}, g[AF_DMAX];
        for (size_t k = 0; k < t.iters; k++) {
            const double *wk = t.w + k * d, *wn = t.w + (k + 1) * d;
            /* (7) with the prox centre w^k: grad l_k(w^{k+1}) recomputed */
            ck_assert_int_eq(ff_proxal_lk(NULL, g, &I.P, wn, wk, mu, p.beta), FR_OK);
            double r = 0;
            for (size_t j = 0; j < d; j++)
                r = fmax(r, fabs(g[j]));
            ck_assert_msg(r <= t.tau[k] * (1 + 1e-6) + 1e-13, "k %zu: %g > tau %g", k, r, t.tau[k]);
            if (k == 5) {   /* restart at (w^5, mu^5) with tau_0 = tau_5 */
                fr_proxal_alg_params q = p;
                q.kmax = 1;
                q.keep = 0;
                q.w0 = wk;
                q.mu0 = mu;
                q.sbar = p.sbar / 36.0;
                ck_assert_int_eq(ff_proxal_trace_init(&u, &I.P, &q), FR_OK);
                ck_assert_int_eq(a3 ? ff_proxal_alg3(&u, &I.P, &q) : ff_proxal_alg1(&u, &I.P, &q), FR_OK);
                ck_assert(u.tau[0] == t.tau[5]);
                for (size_t j = 0; j < d; j++)
                    ck_assert(u.w[j] == wn[j]);
                ck_assert(u.inner[0] == t.inner[5]);
                ff_proxal_trace_clear(&u);
            }
            ck_assert_int_eq(ff_proxal_mu_update(mu, &I.P, wn, mu, p.beta), FR_OK);
        }
        for (size_t j = 0; j < m; j++)
            ck_assert(mu[j] == t.mu[j]);                   /* the output multipliers */
        ff_proxal_trace_clear(&t);
    }
}
END_TEST

static int same_trace(const ff_proxal_trace *a, const ff_proxal_trace *b)
{
    size_t K = a->kmax;
    if (a->iters != b->iters || a->terminated != b->terminated || a->thm31_ok != b->thm31_ok ||
        a->factorisations != b->factorisations)
        return 0;
    if (memcmp(a->tau, b->tau, 8 * K * sizeof(double)) || memcmp(a->inner, b->inner, K * sizeof *a->inner) ||
        memcmp(a->inner_ok, b->inner_ok, K) || memcmp(a->mu, b->mu, a->mtot * sizeof(double)) ||
        memcmp(a->w, b->w, a->d * sizeof(double)))
        return 0;
    return 1;
}

START_TEST(no_state_between_runs)
{
    af_inst I, J;
    ck_assert_int_eq(af_qp(&I, 2, 3, 1, 31), FR_OK);
    ck_assert_int_eq(af_qp(&J, 2, 3, 1, 32), FR_OK);
    fr_proxal_alg_params p = af_params(&I, 1e-3, 100), pj = af_params(&J, 1e-3, 100);
    ff_proxal_trace a, b;
    ck_assert_int_eq(ff_proxal_trace_init(&a, &I.P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_trace_init(&b, &I.P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_alg1(&a, &I.P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_alg1(&b, &J.P, &pj), FR_OK);       /* another problem in the same trace */
    ck_assert_int_eq(ff_proxal_alg3(&b, &I.P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_alg1(&b, &I.P, &p), FR_OK);
    ck_assert(same_trace(&a, &b));
    ck_assert_int_eq(a.terminated, 1);
    ff_proxal_trace_clear(&a);
    ff_proxal_trace_clear(&b);
    ff_proxal_trace_clear(&b);                                    /* safe twice */
}
END_TEST

START_TEST(kmax_reached)
{
    af_inst I;
    ck_assert_int_eq(af_qp(&I, 1, 2, 1, 41), FR_OK);
    fr_proxal_alg_params p = af_params(&I, 1e-6, 2);
    ff_proxal_trace t;
    ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
    for (int a3 = 0; a3 < 2; a3++) {
        ck_assert_int_eq(a3 ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p), FR_OK);
        ck_assert_uint_eq(t.iters, 2);
        ck_assert_int_eq(t.terminated, 0);
        ck_assert_int_eq(t.thm31_ok, 0);
        /* (8) really fails at the last iteration: beta tau_1 = 0.25 > beta eps1 */
        ck_assert(t.dw[1] + p.beta * t.tau[1] > p.beta * p.eps1);
    }
    ff_proxal_trace_clear(&t);
    fr_proxal_trace r;
    ck_assert_int_eq(fr_proxal_trace_init(&r, &I.P, &p, 64), FR_OK);
    ck_assert_int_eq(fr_proxal_alg3(&r, &I.P, &p), FR_OK);
    ck_assert_uint_eq(r.iters, 2);
    ck_assert_int_eq(r.terminated, 0);
    ck_assert_int_eq(r.thm31_ok, 0);
    fr_proxal_trace_clear(&r);
}
END_TEST

/* NP: inequality rows (mu >= 0), the server without constraints (m_0 = 0) */
START_TEST(np_inequalities)
{
    af_inst I;
    ck_assert_int_eq(af_np(&I, 2, 3, 6, 0.5, 7), FR_OK);
    const double eps = 1e-4;
    fr_proxal_alg_params p = af_params(&I, eps, 200);
    p.sbar = 0.01;
    double c[1], cj, wv[3][AF_DMAX];
    for (int a = 0; a < 3; a++) {
        double w[AF_DMAX], mu[AF_NMAX];
        if (a < 2) {
            ff_proxal_trace t;
            ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(a ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(t.terminated, 1);
            ck_assert_int_eq(t.thm31_ok, 1);
            if (a == 0)   /* q = 1/2: q^t below binary64's reach (FR_EDOM before h-admmfix) */
                ck_assert_uint_gt(t.floors, 0);
            memcpy(w, t.w, 3 * sizeof *w);
            memcpy(mu, t.mu, 2 * sizeof *mu);
            ff_proxal_trace_clear(&t);
        } else {
            fr_proxal_trace t;
            ck_assert_int_eq(fr_proxal_trace_init(&t, &I.P, &p, 128), FR_OK);
            ck_assert_int_eq(fr_proxal_alg1(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq(t.terminated, 1);
            ck_assert_int_eq(t.thm31_ok, 1);
            mu_d(t.w, 0, 3, w);
            mu_d(t.mu, 0, 2, mu);
            fr_proxal_trace_clear(&t);
        }
        for (size_t i = 1; i <= 2; i++) {   /* eps2 from the definition: c <= eps2, |c| <= eps2 if mu > 0 */
            ck_assert(mu[i - 1] >= 0 && !signbit(mu[i - 1]));
            ck_assert_int_eq(ff_proxal_client_eval(&I.P, i, w, NULL, NULL, NULL, c, NULL, NULL, NULL), FR_OK);
            cj = c[0];
            ck_assert(cj <= eps * (1 + 1e-6));
            if (mu[i - 1] > 0)
                ck_assert(fabs(cj) <= eps * (1 + 1e-6));
        }
        memcpy(wv[a], w, sizeof w);
    }
    for (size_t k = 0; k < 3; k++)
        ck_assert(fabs(wv[0][k] - wv[1][k]) < 1e-2 && fabs(wv[0][k] - wv[2][k]) < 1e-2);
}
END_TEST

/* FAIR with identical groups: at w0 = 0, mu0 = 0 every row has mu + beta c
 * = 0 exactly (the kink of [.]_+) and (0, 0) is a KKT pair: one outer
 * iteration, w^1 = 0, mu^1 = +0, residuals 0. */
static const size_t KF_cnt[2] = {2, 2};
static const double KF_X[4] = {1, -1, 1, -1}, KF_r[2] = {0, 0};
static const unsigned char KF_y[4] = {0, 0, 0, 0}, KF_g[4] = {0, 1, 0, 1};
START_TEST(fair_kink)
{
    fr_proxal_problem P = {0};
    P.kind = FR_PROXAL_FAIR;
    P.n = 1, P.d = 1;
    P.cnt = KF_cnt, P.X = KF_X, P.y = KF_y, P.grp = KF_g, P.r = KF_r;
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    double rho = 1, w0 = 0, mu0[4] = {-0.0, 0, -0.0, 0};
    fr_proxal_alg_params p = {1e-3, 1e-3, 1e-4, 10, 5,   /* tau_0 <= eps1: (8) can hold at k = 0 */ {1, 0.5, &rho, 100, 50, 0}, &w0, mu0, 0};
    for (int a3 = 0; a3 < 2; a3++) {
        ff_proxal_trace t;
        ck_assert_int_eq(ff_proxal_trace_init(&t, &P, &p), FR_OK);
        ck_assert_int_eq(a3 ? ff_proxal_alg3(&t, &P, &p) : ff_proxal_alg1(&t, &P, &p), FR_OK);
        ck_assert_uint_eq(t.iters, 1);
        ck_assert_int_eq(t.terminated, 1);
        ck_assert_int_eq(t.thm31_ok, 1);
        ck_assert(t.w[0] == 0 && t.dw[0] == 0 && t.dmu[0] == 0 && t.kkt2[0] == 0);
        for (int j = 0; j < 4; j++)
            ck_assert(t.mu[j] == 0 && !signbit(t.mu[j]));
        ff_proxal_trace_clear(&t);
        fr_proxal_trace r;
        ck_assert_int_eq(fr_proxal_trace_init(&r, &P, &p, 128), FR_OK);
        int st = a3 ? fr_proxal_alg3(&r, &P, &p) : fr_proxal_alg1(&r, &P, &p);
        ck_assert_int_eq(st, FR_OK);
        ck_assert_uint_eq(r.iters, 1);
        ck_assert_int_eq(r.thm31_ok, 1);
        ck_assert(mpfr_zero_p(r.w[0]) && mpfr_zero_p(r.kkt1[0]) && mpfr_zero_p(r.kkt2[0]));
        for (int j = 0; j < 4; j++)
            ck_assert(mpfr_zero_p(r.mu[j]) && mpfr_signbit(r.mu[j]) == 0);
        fr_proxal_trace_clear(&r);
    }
}
END_TEST

/* FAIR (28) is not convex (D_i is a difference of convex functions): at w0
 * = 0 with mu0 = 100 on client 1's row D_1 - r <= 0, l_0's Hessian (docs/
 * PROXAL.md 3) is indefinite, and Algorithm 3's Newton must still reach
 * (7) (it only asks dist(0, grad l_k) <= tau_k) instead of refusing the
 * step with FR_EDOM at a failed Cholesky.  With h = l1 or a box (_i = 1,
 * 2) the same instance must reach (7) through docs/PROXAL.md 4.5's method,
 * which takes no Newton step where a face's Hessian does not factor (its
 * proximal-gradient step carries the descent), with the same iteration
 * count and point in both wings; the box's bound lo_0 = -4 binds. */
static const size_t IF_cnt[2] = {2, 2};
static const double IF_X[8] = {1, 0, 0, 1, 1, 0, 0, 1}, IF_r[2] = {0.1, 0.1};
static const unsigned char IF_y[4] = {0, 0, 0, 0}, IF_g[4] = {0, 1, 0, 1};
START_TEST(fair_indefinite_newton)
{
    static const double lo[2] = {-4, -5}, hi[2] = {5, 5};
    fr_proxal_problem P = {0};
    P.kind = FR_PROXAL_FAIR;
    P.n = 1, P.d = 2;
    P.cnt = IF_cnt, P.X = IF_X, P.y = IF_y, P.grp = IF_g, P.r = IF_r;
    P.h = _i == 1 ? FR_PROXAL_H_L1 : _i == 2 ? FR_PROXAL_H_BOX : FR_PROXAL_H_ZERO;
    P.gamma = 0.01, P.lo = lo, P.hi = hi;
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    const double beta = 10, w0[2] = {0, 0}, mu0[4] = {0, 0, 100, 0};
    /* the Hessian of l_0 at w0 = 0 by hand: s = 1/2 at every sample, so
     * grad^2 phi = x x^T / 4; f_1 = mean phi (n = 1): diag(1/8, 1/8);
     * D_1 = phi(x_1) - phi(x_2), x_1 = e_1 (group 0), x_2 = e_2 (group 1):
     * grad D_1 = (e_1 - e_2)/2, grad^2 D_1 = diag(1/4, -1/4); row D_1 - r:
     * t = 100 + beta (0 - 0.1) > 0 active, adds t grad^2 D_1 + beta grad
     * D_1 grad D_1^T; the rows -D_1 - r and both of the server's (mu = 0,
     * c = -0.1) are inactive; the proximal term adds I / beta. */
    long double t = 100 - beta * 0.1L;
    long double H22 = 0.125L + t * -0.25L + beta * 0.25L + 1 / (long double)beta;
    ck_assert(H22 < 0);                          /* not positive definite */
    double rho = 1;
    fr_proxal_alg_params p = {1e-3, 1e-3, 1e-3, beta, 400, {1, 0.5, &rho, 100, 100, 0}, w0, mu0, 0};
    ff_proxal_trace tf;
    ck_assert_int_eq(ff_proxal_trace_init(&tf, &P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_alg3(&tf, &P, &p), FR_OK);
    ck_assert_int_eq(tf.terminated, 1);
    ck_assert_int_eq(tf.thm31_ok, 1);
    ck_assert(tf.inner_ok[0] && tf.sub[0] <= tf.tau[0]);
    fr_proxal_trace tr;
    ck_assert_int_eq(fr_proxal_trace_init(&tr, &P, &p, 128), FR_OK);
    ck_assert_int_eq(fr_proxal_alg3(&tr, &P, &p), FR_OK);
    ck_assert_int_eq(tr.terminated, 1);
    ck_assert_int_eq(tr.thm31_ok, 1);
    ck_assert_uint_eq(tr.iters, tf.iters);
    for (size_t k = 0; k < 2; k++) {
        ck_assert(fabs(mpfr_get_d(tr.w[k], MPFR_RNDN) - tf.w[k]) <= 1e-9);
        if (P.h == FR_PROXAL_H_BOX)             /* in dom h */
            ck_assert(tf.w[k] >= lo[k] && tf.w[k] <= hi[k] && mpfr_cmp_d(tr.w[k], lo[k]) >= 0 &&
                      mpfr_cmp_d(tr.w[k], hi[k]) <= 0);
    }
    if (P.h == FR_PROXAL_H_BOX)
        ck_assert(tf.w[0] == lo[0] && mpfr_cmp_d(tr.w[0], lo[0]) == 0);
    ff_proxal_trace_clear(&tf);
    fr_proxal_trace_clear(&tr);
}
END_TEST

Suite *suite_proxal_alg(void)
{
    Suite *s = suite_create("proxal_alg");
    TCase *tc = tcase_create("alg");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, qp_terminated_runs_are_kkt, 0, (int)NQC);
    tcase_add_test(tc, stop_rule_tie);
    tcase_add_test(tc, warm_start_and_restart);
    tcase_add_test(tc, no_state_between_runs);
    tcase_add_test(tc, kmax_reached);
    tcase_add_test(tc, np_inequalities);
    tcase_add_test(tc, fair_kink);
    tcase_add_loop_test(tc, fair_indefinite_newton, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}
