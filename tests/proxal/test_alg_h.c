/* SPDX-License-Identifier: Apache-2.0 */
/* test_alg_h.c -- 004 Algorithms 1 and 3 with h = gamma ||.||_1 and h = the
 * indicator of a box (docs/PROXAL.md 4.5), both wings, on small seeded QP
 * (25) and NP (26) problems:
 *   - every run terminates with Theorem 3.1 and every inner (7) certified;
 *   - the output satisfies the KKT conditions of (1) WITH h, checked here
 *     independently of the module: r = sum_i grad f_i(w) + sum_j mu_j
 *     grad c_j(w) recomputed at 512 bits from the data (QP) or from
 *     ff_proxal_client_eval's gradients summed at 512 bits (NP), then the
 *     l1 subgradient condition coordinate by coordinate (w_k != 0: |r_k +
 *     gamma sign w_k| <= eps1; w_k = 0: |r_k| <= gamma + eps1) or box
 *     complementarity (inside: |r_k| <= eps1; at lo: r_k >= -eps1; at hi:
 *     r_k <= eps1), w in the box exactly, and feasibility;
 *   - h bites: some coordinates are 0 (l1) or on a face (box) at the
 *     output, where the h = 0 solution has none;
 *   - ref (128 bits) and fast, Algorithm 1 and Algorithm 3: the same point
 *     within the KKT ball;
 *   - Algorithm 2 alone with h (ff_/fr_proxal_admm_h on the P_{i,k}
 *     oracle): thm41 certified, and dist_inf(0, sum grad F_i + dh) <= tau
 *     recomputed at 512 bits from the oracle's gradients. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "alg_fixtures.h"

Suite *suite_proxal_alg_h(void);

#define XP 512

/* r = sum_i grad f_i(w) + J mu at XP bits (exact sums of binary64 products
 * for QP; NP: the module's gradients, summed exactly) into r (RN to double). */
static void resid(const af_inst *I, const double *w, const double *mu, double *r, double *feas)
{
    const fr_proxal_problem *P = &I->P;
    size_t n = P->n, d = P->d;
    mpfr_t s, t;
    mpfr_inits2(XP, s, t, (mpfr_ptr)0);
    *feas = 0;
    if (P->kind == FR_PROXAL_QP) {
        size_t m = (n + 1) * P->mt;
        for (size_t a = 0; a < d; a++) {
            mpfr_set_zero(s, 1);
            for (size_t i = 0; i < n; i++) {
                mpfr_add_d(s, s, P->b[i * d + a], MPFR_RNDN);
                for (size_t b = 0; b < d; b++) {
                    mpfr_set_d(t, P->A[i * d * d + a * d + b], MPFR_RNDN);
                    mpfr_mul_d(t, t, w[b], MPFR_RNDN);
                    mpfr_add(s, s, t, MPFR_RNDN);
                }
            }
            for (size_t j = 0; j < m; j++) {
                mpfr_set_d(t, P->C[j * d + a], MPFR_RNDN);
                mpfr_mul_d(t, t, mu[j], MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            r[a] = mpfr_get_d(s, MPFR_RNDN);
        }
        for (size_t j = 0; j < m; j++) {
            mpfr_set_d(s, P->e[j], MPFR_RNDN);
            for (size_t b = 0; b < d; b++) {
                mpfr_set_d(t, P->C[j * d + b], MPFR_RNDN);
                mpfr_mul_d(t, t, w[b], MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            *feas = fmax(*feas, fabs(mpfr_get_d(s, MPFR_RNDN)));
        }
    } else {   /* NP: client i's grad f_i + mu_i grad c_i, summed exactly */
        double g[AF_DMAX], J[AF_DMAX], c[1];
        mpfr_t acc[AF_DMAX];
        for (size_t a = 0; a < d; a++)
            mpfr_init2(acc[a], XP), mpfr_set_zero(acc[a], 1);
        for (size_t i = 1; i <= n; i++) {
            ck_assert_int_eq(ff_proxal_client_eval(P, i, w, NULL, g, NULL, c, J, NULL, NULL), FR_OK);
            for (size_t a = 0; a < d; a++) {
                mpfr_add_d(acc[a], acc[a], g[a], MPFR_RNDN);
                mpfr_set_d(t, J[a], MPFR_RNDN);
                mpfr_mul_d(t, t, mu[i - 1], MPFR_RNDN);
                mpfr_add(acc[a], acc[a], t, MPFR_RNDN);
            }
            *feas = fmax(*feas, c[0] > 0 ? c[0] : 0);
            if (mu[i - 1] > 0)
                *feas = fmax(*feas, fabs(c[0]));
        }
        for (size_t a = 0; a < d; a++)
            r[a] = mpfr_get_d(acc[a], MPFR_RNDN), mpfr_clear(acc[a]);
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
}

/* the KKT condition of (1) with h, per coordinate; returns the number of
 * coordinates where h is active (w_k = 0 for l1, on a face for the box) */
static int kkt_h(const fr_proxal_problem *P, const double *w, const double *r, double eps, const char *what)
{
    int act = 0;
    double sl = eps * (1 + 1e-6) + 1e-15;   /* r is within 2^-53 |r| of the exact sum */
    for (size_t k = 0; k < P->d; k++) {
        if (P->h == FR_PROXAL_H_L1) {
            if (w[k] != 0)
                ck_assert_msg(fabs(r[k] + (w[k] > 0 ? P->gamma : -P->gamma)) <= sl, "%s l1 w_%zu = %g r %g", what,
                              k, w[k], r[k]);
            else {
                act++;
                ck_assert_msg(fabs(r[k]) <= P->gamma + sl, "%s l1 zero w_%zu r %g", what, k, r[k]);
            }
        } else {
            ck_assert_msg(w[k] >= P->lo[k] && w[k] <= P->hi[k], "%s w_%zu = %g outside", what, k, w[k]);
            if (w[k] == P->lo[k])
                act++, ck_assert_msg(r[k] >= -sl, "%s lo w_%zu r %g", what, k, r[k]);
            else if (w[k] == P->hi[k])
                act++, ck_assert_msg(r[k] <= sl, "%s hi w_%zu r %g", what, k, r[k]);
            else
                ck_assert_msg(fabs(r[k]) <= sl, "%s inside w_%zu r %g", what, k, r[k]);
        }
    }
    return act;
}

typedef struct {
    int qp, h;
    size_t n, d;
    uint64_t seed;
    double gamma, lo, hi;
} hcase;
static const hcase HC[] = {
    {1, FR_PROXAL_H_L1, 2, 4, 13, 0.8, 0, 0},  {1, FR_PROXAL_H_BOX, 2, 4, 13, 0, -0.7, 3},
    {0, FR_PROXAL_H_L1, 2, 3, 7, 0.1, 0, 0},   {0, FR_PROXAL_H_BOX, 2, 3, 7, 0, -0.05, 2},
};
#define NHC (sizeof HC / sizeof HC[0])

static void setup(af_inst *I, const hcase *c, double *lo, double *hi)
{
    if (c->qp)
        ck_assert_int_eq(af_qp(I, c->n, c->d, 1, c->seed), FR_OK);
    else
        ck_assert_int_eq(af_np(I, c->n, c->d, 6, 0.5, c->seed), FR_OK);
    for (size_t k = 0; k < c->d; k++)
        lo[k] = c->lo, hi[k] = c->hi;
    I->P.h = c->h;
    I->P.gamma = c->gamma;
    I->P.lo = c->h == FR_PROXAL_H_BOX ? lo : NULL;
    I->P.hi = c->h == FR_PROXAL_H_BOX ? hi : NULL;
}

START_TEST(runs_are_kkt_with_h)
{
    const hcase *c = &HC[_i];
    af_inst I;
    double lo[AF_DMAX], hi[AF_DMAX];
    setup(&I, c, lo, hi);
    const double eps = 1e-4;
    fr_proxal_alg_params p = af_params(&I, eps, 300);
    if (!c->qp)
        p.sbar = 0.01;
    double w0[AF_DMAX];
    for (size_t k = 0; k < c->d; k++)   /* w^0 in dom h */
        w0[k] = c->h == FR_PROXAL_H_BOX ? fmin(fmax(I.w0[k], lo[k]), hi[k]) : I.w0[k];
    p.w0 = w0;
    size_t d = c->d, m = fr_proxal_mtot(&I.P);
    double wv[4][AF_DMAX];
    for (int a = 0; a < 4; a++) {   /* fast alg1, fast alg3, ref alg1, ref alg3 */
        double w[AF_DMAX], mu[(AF_NMAX + 1) * AF_MTMAX], r[AF_DMAX], feas;
        char what[64];
        snprintf(what, sizeof what, "case %d run %d", _i, a);
        if (a < 2) {
            ff_proxal_trace t;
            ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
            ck_assert_int_eq((a ? ff_proxal_alg3(&t, &I.P, &p) : ff_proxal_alg1(&t, &I.P, &p)), FR_OK);
            ck_assert_msg(t.terminated && t.thm31_ok, "%s: terminated %d thm31 %d", what, t.terminated, t.thm31_ok);
            for (size_t k = 0; k < t.iters; k++)
                ck_assert_msg(t.inner_ok[k] && t.sub[k] <= t.tau[k], "%s k %zu", what, k);
            memcpy(w, t.w, d * sizeof *w);
            memcpy(mu, t.mu, m * sizeof *mu);
            ff_proxal_trace_clear(&t);
        } else {
            fr_proxal_trace t;
            ck_assert_int_eq(fr_proxal_trace_init(&t, &I.P, &p, 128), FR_OK);
            ck_assert_int_eq((a == 3 ? fr_proxal_alg3(&t, &I.P, &p) : fr_proxal_alg1(&t, &I.P, &p)), FR_OK);
            ck_assert_msg(t.terminated && t.thm31_ok, "%s: terminated %d thm31 %d", what, t.terminated, t.thm31_ok);
            for (size_t k = 0; k < t.iters; k++)
                ck_assert_msg(t.inner_ok[k], "%s k %zu", what, k);
            for (size_t k = 0; k < d; k++)
                w[k] = mpfr_get_d(t.w[k], MPFR_RNDN);
            for (size_t j = 0; j < m; j++)
                mu[j] = mpfr_get_d(t.mu[j], MPFR_RNDN);
            if (c->h == FR_PROXAL_H_BOX)   /* the double of a point in the box is in the box */
                for (size_t k = 0; k < d; k++)
                    ck_assert(mpfr_cmp_d(t.w[k], lo[k]) >= 0 && mpfr_cmp_d(t.w[k], hi[k]) <= 0);
            fr_proxal_trace_clear(&t);
        }
        resid(&I, w, mu, r, &feas);
        ck_assert_msg(feas <= eps * (1 + 1e-6), "%s: feasibility %g", what, feas);
        int act = kkt_h(&I.P, w, r, eps, what);
        ck_assert_msg(act >= 1, "%s: h inactive at the output", what);
        memcpy(wv[a], w, sizeof w);
    }
    for (int a = 1; a < 4; a++)
        for (size_t k = 0; k < d; k++)
            ck_assert_msg(fabs(wv[0][k] - wv[a][k]) < 1e-2, "case %d: run %d w_%zu %g vs %g", _i, a, k, wv[a][k],
                          wv[0][k]);
}
END_TEST

/* dist_inf(0, r + dh(w)) for h = l1 (doubles; the independent r of resid) */
static double viol_l1(const fr_proxal_problem *P, const double *w, const double *r)
{
    double v = 0;
    for (size_t k = 0; k < P->d; k++)
        v = fmax(v, w[k] > 0 ? fabs(r[k] + P->gamma) : w[k] < 0 ? fabs(r[k] - P->gamma)
                                                                 : fmax(fabs(r[k]) - P->gamma, 0));
    return v;
}

/* Without h the same problems' solutions have no coordinate at 0 or on the
 * box's faces: so the runs above exercise h.  And that output -- what
 * Appendix C's Algorithm 3 computes as printed, its l_k without h
 * (E-004-C) -- is not a KKT pair of (1) with h: l1, its residual
 * dist_inf(0, grad f + dh + J mu) (recomputed at 512 bits) is far above
 * eps1; box, it leaves dom h. */
START_TEST(h_zero_solution_differs)
{
    const hcase *c = &HC[_i];
    af_inst I;
    double lo[AF_DMAX], hi[AF_DMAX];
    setup(&I, c, lo, hi);
    I.P.h = FR_PROXAL_H_ZERO;
    fr_proxal_alg_params p = af_params(&I, 1e-4, 300);
    if (!c->qp)
        p.sbar = 0.01;
    ff_proxal_trace t;
    ck_assert_int_eq(ff_proxal_trace_init(&t, &I.P, &p), FR_OK);
    ck_assert_int_eq(ff_proxal_alg3(&t, &I.P, &p), FR_OK);
    ck_assert(t.terminated && t.thm31_ok);
    int out = 0;
    for (size_t k = 0; k < c->d; k++)
        out += c->h == FR_PROXAL_H_L1 ? t.w[k] == 0 : (t.w[k] < lo[k] || t.w[k] > hi[k]);
    if (c->h == FR_PROXAL_H_L1) {
        ck_assert_int_eq(out, 0);
        double r[AF_DMAX], feas;
        af_inst J = I;
        J.P.h = c->h;
        resid(&J, t.w, t.mu, r, &feas);
        double v = viol_l1(&J.P, t.w, r);
        ck_assert_msg(v > 100 * p.eps1, "case %d: the h = 0 output's l1 residual %g", _i, v);
    } else {
        ck_assert_int_ge(out, 1);   /* the unconstrained solution leaves the box */
    }
    ff_proxal_trace_clear(&t);
}
END_TEST

/* Algorithm 2 alone with h, on the P_{i,k} oracle of a state (w^k = w^0,
 * mu = 0): thm41 <= tau, and the KKT condition of (13) with h recomputed
 * at XP bits from the oracle's gradients at the output. */
START_TEST(admm_h_thm41)
{
    const hcase *c = &HC[_i];
    af_inst I;
    double lo[AF_DMAX], hi[AF_DMAX];
    setup(&I, c, lo, hi);
    fr_proxal_problem P0 = I.P;
    P0.h = FR_PROXAL_H_ZERO;
    fr_proxal_hreg H = {c->h, c->gamma, c->h == FR_PROXAL_H_BOX ? lo : NULL, c->h == FR_PROXAL_H_BOX ? hi : NULL};
    size_t n = c->n, d = c->d;
    double wk[AF_DMAX], mu[(AF_NMAX + 1) * AF_MTMAX] = {0}, w[AF_DMAX], beta = 10, rho[AF_NMAX] = {1, 1, 1, 1};
    for (size_t k = 0; k < d; k++)
        wk[k] = c->h == FR_PROXAL_H_BOX ? fmin(fmax(I.w0[k], c->lo), c->hi) : I.w0[k];   /* in dom h */
    fr_proxal_admm_params prm = {1e-6, 0.7, rho, 5000, 100, FR_PROXAL_EPS18_PRINTED};
    ff_proxal_pk_ctx cx;
    ff_proxal_fsum F;
    ck_assert_int_eq(ff_proxal_pk_fsum(&F, &cx, &P0, wk, mu, beta), FR_OK);
    ff_proxal_admm_ws *ws;
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, n, d), FR_OK);
    ff_proxal_admm_info info;
    ck_assert_int_eq(ff_proxal_admm_h(w, &info, ws, &F, wk, &prm, &H), FR_OK);
    ck_assert(info.terminated && info.thm41_ok && info.thm41 <= prm.tau);
    /* independent: G = sum_i grad P_{i,k}(w) at XP bits, then dh */
    double g[AF_DMAX], r[AF_DMAX] = {0};
    mpfr_t acc[AF_DMAX];
    for (size_t k = 0; k < d; k++)
        mpfr_init2(acc[k], XP), mpfr_set_zero(acc[k], 1);
    for (size_t i = 0; i <= n; i++) {
        ck_assert_int_eq(ff_proxal_pik(NULL, g, NULL, &P0, i, w, wk, mu, beta), FR_OK);
        for (size_t k = 0; k < d; k++)
            mpfr_add_d(acc[k], acc[k], g[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < d; k++)
        r[k] = mpfr_get_d(acc[k], MPFR_RNDN), mpfr_clear(acc[k]);
    kkt_h(&I.P, w, r, prm.tau, "admm_h fast");
    /* ref at 128 bits: the same point within the tolerance's reach */
    fr_proxal_fsum RF;
    fr_proxal_pk_ctx rcx;
    mpfr_t rwk[AF_DMAX], rmu[(AF_NMAX + 1) * AF_MTMAX], rw[AF_DMAX], rb;
    size_t m = fr_proxal_mtot(&P0);
    for (size_t k = 0; k < d; k++)
        mpfr_init2(rwk[k], 128), mpfr_set_d(rwk[k], wk[k], MPFR_RNDN), mpfr_init2(rw[k], 128);
    for (size_t j = 0; j < m; j++)
        mpfr_init2(rmu[j], 128), mpfr_set_zero(rmu[j], 1);
    mpfr_init2(rb, 53);
    mpfr_set_d(rb, beta, MPFR_RNDN);
    ck_assert_int_eq(fr_proxal_pk_fsum(&RF, &rcx, &P0, rwk, rmu, rb), FR_OK);
    fr_proxal_admm_info ri;
    ck_assert_int_eq(fr_proxal_admm_info_init(&ri, 128), FR_OK);
    ck_assert_int_eq(fr_proxal_admm_h(rw, &ri, &RF, rwk, &prm, &H), FR_OK);
    ck_assert(ri.terminated && ri.thm41_ok);
    for (size_t k = 0; k < d; k++)
        ck_assert_msg(fabs(mpfr_get_d(rw[k], MPFR_RNDN) - w[k]) < 1e-4, "ref %g fast %g",
                      mpfr_get_d(rw[k], MPFR_RNDN), w[k]);
    fr_proxal_admm_info_clear(&ri);
    for (size_t k = 0; k < d; k++)
        mpfr_clears(rwk[k], rw[k], (mpfr_ptr)0);
    for (size_t j = 0; j < m; j++)
        mpfr_clear(rmu[j]);
    mpfr_clear(rb);
    ff_proxal_admm_ws_clear(&ws);
}
END_TEST

Suite *suite_proxal_alg_h(void)
{
    Suite *s = suite_create("proxal_alg_h");
    TCase *tc = tcase_create("alg_h");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, runs_are_kkt_with_h, 0, (int)NHC);
    tcase_add_loop_test(tc, h_zero_solution_differs, 0, (int)NHC);
    tcase_add_loop_test(tc, admm_h_thm41, 0, (int)NHC);
    suite_add_tcase(s, tc);
    return s;
}
