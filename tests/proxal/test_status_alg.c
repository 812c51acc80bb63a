/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_alg.c -- the status rows of 004 Algorithms 1 and 3:
 * fr_proxal_alg_check (spec), fr_proxal_trace_init / ff_proxal_trace_init,
 * fr_proxal_alg1 / ff_proxal_alg1, fr_proxal_alg3 / ff_proxal_alg3 and the
 * clears.  Each row edits a valid case (a QP with equality rows, or an NP
 * with inequality rows and m_0 = 0); the expected status is the first
 * failing class of fedref_common.h, the same in ref and fast, and a trace
 * that already holds a run is left bit for bit untouched by an argument
 * error.  After the start: a Newton solve that cannot reach its tolerance
 * within newton_max is FR_EDOM in both wings (Algorithm 3's own Newton,
 * and Algorithm 2's inside Algorithm 1). */
#include <check.h>
#include <math.h>
#include "alg_fixtures.h"

Suite *suite_status_proxal_alg(void);

typedef struct {
    af_inst I;
    fr_proxal_alg_params p;
    double mu0[AF_NMAX * 2 + 2], w0[AF_DMAX], lo[AF_DMAX], hi[AF_DMAX];
    int np;
    mpfr_prec_t prec;
} scase;

static void base(scase *c, int np)
{
    if (np)
        ck_assert_int_eq(af_np(&c->I, 2, 3, 6, 0.5, 7), FR_OK);
    else
        ck_assert_int_eq(af_qp(&c->I, 2, 3, 1, 5), FR_OK);
    c->p = af_params(&c->I, 1e-2, 3);
    for (size_t j = 0; j < sizeof c->mu0 / sizeof c->mu0[0]; j++)
        c->mu0[j] = 0.25;
    memcpy(c->w0, c->I.w0, sizeof c->w0);
    c->p.mu0 = c->mu0;
    c->p.w0 = c->w0;
    for (size_t k = 0; k < AF_DMAX; k++)
        c->lo[k] = -1, c->hi[k] = 1;
    c->np = np;
    c->prec = 64;
}

typedef void (*edit)(scase *c);
static const double NaN = NAN, Inf = INFINITY;
/* the edits */
static void e_none(scase *c) { (void)c; }
static void e_prm_null(scase *c) { (void)c; }   /* handled by the runner (prm = NULL) */
static void e_w0_null(scase *c) { c->p.w0 = NULL; }
static void e_rho_null(scase *c) { c->p.admm.rho = NULL; }
static void e_kmax0(scase *c) { c->p.kmax = 0; }
static void e_kmax_big(scase *c) { c->p.kmax = FR_PROXAL_TMAX + 1; }
static void e_tmax0(scase *c) { c->p.admm.tmax = 0; }
static void e_newton0(scase *c) { c->p.admm.newton_max = 0; }
static void e_n0(scase *c) { c->I.P.n = 0; }
static void e_eps1_nan(scase *c) { c->p.eps1 = NaN; }
static void e_beta_inf(scase *c) { c->p.beta = Inf; }
static void e_w0_inf(scase *c) { c->w0[1] = -Inf; }
static void e_mu0_nan(scase *c) { c->mu0[0] = NaN; }
static void e_q_nan(scase *c) { c->p.admm.q = NaN; }
static void e_data_nan(scase *c) { c->I.b[0] = NaN; }
static void e_eps1_one(scase *c) { c->p.eps1 = 1; }
static void e_eps2_zero(scase *c) { c->p.eps2 = 0; }
static void e_sbar_zero(scase *c) { c->p.sbar = -0.0; }
static void e_beta_neg(scase *c) { c->p.beta = -1; }
static void e_mu0_neg(scase *c) { c->mu0[1] = -0.5; }
static void e_mu0_mzero(scase *c) { c->mu0[0] = -0.0, c->mu0[1] = -0.0; }
static void e_h_l1(scase *c) { c->I.P.h = FR_PROXAL_H_L1, c->I.P.gamma = 0.25; }
static void e_h_l1_mzero(scase *c) { c->I.P.h = FR_PROXAL_H_L1, c->I.P.gamma = -0.0; }
static void e_h_l1_nan(scase *c) { c->I.P.h = FR_PROXAL_H_L1, c->I.P.gamma = NaN; }
static void e_h_l1_neg(scase *c) { c->I.P.h = FR_PROXAL_H_L1, c->I.P.gamma = -0.25; }
static void e_h_box(scase *c) { c->I.P.h = FR_PROXAL_H_BOX, c->I.P.lo = c->lo, c->I.P.hi = c->hi; }
static void e_h_box_null(scase *c) { e_h_box(c), c->I.P.hi = NULL; }
static void e_h_box_nan(scase *c) { e_h_box(c), c->lo[2] = NaN; }
static void e_h_box_inf(scase *c) { e_h_box(c), c->hi[0] = Inf; }
static void e_h_box_cross(scase *c) { e_h_box(c), c->lo[1] = 0.5, c->hi[1] = 0.25; }
static void e_h_box_point(scase *c) { e_h_box(c), c->lo[1] = c->hi[1] = c->w0[1]; }
static void e_h_box_w0out(scase *c) { e_h_box(c), c->hi[0] = 0.5; }   /* w0_0 = 1 > hi_0 */
static void e_h_box_w0nan(scase *c) { e_h_box_w0out(c), c->w0[1] = NaN; }
static void e_h_unknown(scase *c) { c->I.P.h = 3; }
static void e_keep_bad(scase *c) { c->p.keep = 2; }
static void e_q_one(scase *c) { c->p.admm.q = 1; }
static void e_rho_zero(scase *c) { c->I.rho[1] = 0; }
static void e_eps18_bad(scase *c) { c->p.admm.eps18 = 7; }
static void e_admm_tau_bad(scase *c) { c->p.admm.tau = NaN; }   /* replaced by tau_k: not read */
static void e_mu0_null(scase *c) { c->p.mu0 = NULL; }          /* mu0 = 0 */
static void e_sbar_big(scase *c) { c->p.sbar = 4; }            /* tau_0 > 1: Algorithm 2 gets min(tau_k, 1) */
/* combinations: the first class wins */
static void e_w0n_kmax0(scase *c) { e_w0_null(c), e_kmax0(c); }
static void e_kmax0_nan(scase *c) { e_kmax0(c), e_eps1_nan(c); }
static void e_nan_dom(scase *c) { e_w0_inf(c), e_beta_neg(c); }
static void e_data_kmax0(scase *c) { e_data_nan(c), e_kmax0(c); }

typedef struct {
    const char *what;
    edit ed;
    int np;        /* 0: QP base, 1: NP base */
    int st1, st3;  /* expected status for Algorithm 1 / Algorithm 3 (alg_check(alg3)) */
    int prmnull;
} row;

static const row ROWS[] = {
    {"valid QP", e_none, 0, FR_OK, FR_OK, 0},
    {"valid NP", e_none, 1, FR_OK, FR_OK, 0},
    {"prm NULL", e_prm_null, 0, FR_ENULL, FR_ENULL, 1},
    {"w0 NULL", e_w0_null, 0, FR_ENULL, FR_ENULL, 0},
    {"admm.rho NULL (read by Algorithm 1 only)", e_rho_null, 0, FR_ENULL, FR_OK, 0},
    {"kmax 0", e_kmax0, 0, FR_ESIZE, FR_ESIZE, 0},
    {"kmax > TMAX", e_kmax_big, 0, FR_ESIZE, FR_ESIZE, 0},
    {"admm.tmax 0 (Algorithm 1 only)", e_tmax0, 0, FR_ESIZE, FR_OK, 0},
    {"newton_max 0", e_newton0, 0, FR_ESIZE, FR_ESIZE, 0},
    {"problem n = 0", e_n0, 0, FR_ESIZE, FR_ESIZE, 0},
    {"eps1 NaN", e_eps1_nan, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"beta Inf", e_beta_inf, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"w0 -Inf", e_w0_inf, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"mu0 NaN", e_mu0_nan, 1, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"admm.q NaN (Algorithm 1 only)", e_q_nan, 0, FR_ENONFINITE, FR_OK, 0},
    {"problem data NaN", e_data_nan, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"eps1 = 1", e_eps1_one, 0, FR_EDOM, FR_EDOM, 0},
    {"eps2 = 0", e_eps2_zero, 0, FR_EDOM, FR_EDOM, 0},
    {"sbar = -0", e_sbar_zero, 0, FR_EDOM, FR_EDOM, 0},
    {"beta < 0", e_beta_neg, 0, FR_EDOM, FR_EDOM, 0},
    {"mu0 < 0 on an inequality row", e_mu0_neg, 1, FR_EDOM, FR_EDOM, 0},
    {"mu0 < 0 on an equality row (free sign)", e_mu0_neg, 0, FR_OK, FR_OK, 0},
    {"mu0 = -0 on inequality rows (the multiplier 0)", e_mu0_mzero, 1, FR_OK, FR_OK, 0},
    {"h = l1, gamma 0.25", e_h_l1, 0, FR_OK, FR_OK, 0},
    {"h = l1 on NP", e_h_l1, 1, FR_OK, FR_OK, 0},
    {"h = l1, gamma -0 (0)", e_h_l1_mzero, 0, FR_OK, FR_OK, 0},
    {"h = l1, gamma NaN", e_h_l1_nan, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"h = l1, gamma < 0", e_h_l1_neg, 0, FR_EDOM, FR_EDOM, 0},
    {"h = box [-1, 1]", e_h_box, 0, FR_OK, FR_OK, 0},
    {"h = box on NP", e_h_box, 1, FR_OK, FR_OK, 0},
    {"h = box, hi NULL", e_h_box_null, 0, FR_ENULL, FR_ENULL, 0},
    {"h = box, lo NaN", e_h_box_nan, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"h = box, hi Inf", e_h_box_inf, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"h = box, lo > hi", e_h_box_cross, 0, FR_EDOM, FR_EDOM, 0},
    {"h = box, lo_k = hi_k = w0_k", e_h_box_point, 0, FR_OK, FR_OK, 0},
    {"h = box, w0 outside", e_h_box_w0out, 0, FR_EDOM, FR_EDOM, 0},
    {"h = box, w0 outside + w0 NaN", e_h_box_w0nan, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"h unknown", e_h_unknown, 0, FR_EDOM, FR_EDOM, 0},
    {"unknown keep bit", e_keep_bad, 0, FR_EDOM, FR_EDOM, 0},
    {"admm.q = 1 (Algorithm 1 only)", e_q_one, 0, FR_EDOM, FR_OK, 0},
    {"rho_2 = 0 (Algorithm 1 only)", e_rho_zero, 0, FR_EDOM, FR_OK, 0},
    {"eps18 unknown (Algorithm 1 only)", e_eps18_bad, 0, FR_EDOM, FR_OK, 0},
    {"admm.tau NaN (replaced by tau_k)", e_admm_tau_bad, 0, FR_OK, FR_OK, 0},
    {"mu0 NULL (zero)", e_mu0_null, 1, FR_OK, FR_OK, 0},
    {"sbar = 4 > 1", e_sbar_big, 0, FR_OK, FR_OK, 0},
    {"w0 NULL + kmax 0", e_w0n_kmax0, 0, FR_ENULL, FR_ENULL, 0},
    {"kmax 0 + eps1 NaN", e_kmax0_nan, 0, FR_ESIZE, FR_ESIZE, 0},
    {"w0 Inf + beta < 0", e_nan_dom, 0, FR_ENONFINITE, FR_ENONFINITE, 0},
    {"data NaN + kmax 0", e_data_kmax0, 0, FR_ESIZE, FR_ESIZE, 0},
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

/* a snapshot of a fast trace's contents */
static int ff_same(const ff_proxal_trace *a, const double *snap, size_t nsnap, size_t iters)
{
    return a->iters == iters && memcmp(a->tau, snap, nsnap * sizeof(double)) == 0;
}

START_TEST(rows)
{
    const row *R = &ROWS[_i];
    for (int a3 = 0; a3 < 2; a3++) {
        int want = a3 ? R->st3 : R->st1;
        scase c;
        base(&c, R->np);
        /* traces holding a valid run of the base case */
        ff_proxal_trace ft;
        fr_proxal_trace rt;
        ck_assert_int_eq(ff_proxal_trace_init(&ft, &c.I.P, &c.p), FR_OK);
        ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 64), FR_OK);
        ck_assert_int_eq(ff_proxal_alg3(&ft, &c.I.P, &c.p), FR_OK);
        ck_assert_int_eq(fr_proxal_alg3(&rt, &c.I.P, &c.p), FR_OK);
        size_t K = ft.kmax, it = ft.iters, rit = rt.iters;
        double snap[8 * 8];
        ck_assert(K <= 8);
        memcpy(snap, ft.tau, 8 * K * sizeof(double));
        mpfr_t r0;
        mpfr_init2(r0, 64);
        mpfr_set(r0, rt.kkt1[0], MPFR_RNDN);
        R->ed(&c);
        const fr_proxal_alg_params *pp = R->prmnull ? NULL : &c.p;
        ck_assert_msg(fr_proxal_alg_check(&c.I.P, pp, a3) == want, "%s alg%d: check %d", R->what, a3 ? 3 : 1,
                      fr_proxal_alg_check(&c.I.P, pp, a3));
        int sf = a3 ? ff_proxal_alg3(&ft, &c.I.P, pp) : ff_proxal_alg1(&ft, &c.I.P, pp);
        int sr = a3 ? fr_proxal_alg3(&rt, &c.I.P, pp) : fr_proxal_alg1(&rt, &c.I.P, pp);
        if (want == FR_OK && (c.p.kmax != K || c.p.keep != ft.keep)) {
            sf = sr = FR_OK;    /* not reached: the valid rows keep the sizes */
        }
        ck_assert_msg(sf == want && sr == want, "%s alg%d: fast %d ref %d want %d", R->what, a3 ? 3 : 1, sf, sr,
                      want);
        if (want != FR_OK) {   /* argument errors: the traces untouched */
            ck_assert(ff_same(&ft, snap, 8 * K, it));
            ck_assert(rt.iters == rit && mpfr_equal_p(rt.kkt1[0], r0));
        }
        /* trace_init: alg_check(., 1)'s status (the admm fields but newton_max are not read) */
        ff_proxal_trace t2;
        fr_proxal_trace r2;
        int wi = R->st3;
        ck_assert_int_eq(ff_proxal_trace_init(&t2, &c.I.P, pp), wi);
        ck_assert_int_eq(fr_proxal_trace_init(&r2, &c.I.P, pp, 64), wi);
        if (wi == FR_OK)
            ff_proxal_trace_clear(&t2), fr_proxal_trace_clear(&r2);
        mpfr_clear(r0);
        ff_proxal_trace_clear(&ft);
        fr_proxal_trace_clear(&rt);
    }
}
END_TEST

START_TEST(traces)
{
    scase c;
    base(&c, 0);
    ff_proxal_trace ft = {0}, z = {0};
    fr_proxal_trace rt, rz;
    memset(&rt, 0, sizeof rt);
    memset(&rz, 0, sizeof rz);
    /* NULL and zeroed traces */
    ck_assert_int_eq(ff_proxal_trace_init(NULL, &c.I.P, &c.p), FR_ENULL);
    ck_assert_int_eq(fr_proxal_trace_init(NULL, &c.I.P, &c.p, 64), FR_ENULL);
    ck_assert_int_eq(ff_proxal_alg1(NULL, &c.I.P, &c.p), FR_ENULL);
    ck_assert_int_eq(fr_proxal_alg1(NULL, &c.I.P, &c.p), FR_ENULL);
    ck_assert_int_eq(ff_proxal_alg3(&z, &c.I.P, &c.p), FR_ENULL);
    ck_assert_int_eq(fr_proxal_alg3(&rz, &c.I.P, &c.p), FR_ENULL);
    ck_assert_int_eq(ff_proxal_alg1(&z, NULL, &c.p), FR_ENULL);
    ck_assert_int_eq(fr_proxal_alg1(&rz, NULL, &c.p), FR_ENULL);
    ck_assert_int_eq(fr_proxal_alg_check(NULL, &c.p, 0), FR_ENULL);
    /* ref precision: FR_EPREC after FR_ESIZE, before FR_ENONFINITE */
    ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 0), FR_EPREC);
    ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, FR_PREC_MAX + 1), FR_EPREC);
    c.p.eps1 = NAN;
    ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 0), FR_EPREC);
    c.p.kmax = 0;
    ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 0), FR_ESIZE);
    base(&c, 0);
    /* a trace for other sizes: FR_ESIZE, untouched */
    ck_assert_int_eq(ff_proxal_trace_init(&ft, &c.I.P, &c.p), FR_OK);
    ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 64), FR_OK);
    ck_assert(isnan(ft.tau[0]) && mpfr_nan_p(rt.tau[0]) && ft.iters == 0 && ft.inner[0] == 0);
    fr_proxal_alg_params q = c.p;
    q.kmax = 4;
    ck_assert_int_eq(ff_proxal_alg1(&ft, &c.I.P, &q), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_alg1(&rt, &c.I.P, &q), FR_ESIZE);
    q = c.p;
    q.keep = FR_PROXAL_KEEP_W;
    ck_assert_int_eq(ff_proxal_alg3(&ft, &c.I.P, &q), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_alg3(&rt, &c.I.P, &q), FR_ESIZE);
    af_inst J;
    ck_assert_int_eq(af_qp(&J, 2, 3, 2, 6), FR_OK);   /* other mtot */
    ck_assert_int_eq(ff_proxal_alg1(&ft, &J.P, &c.p), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_alg1(&rt, &J.P, &c.p), FR_ESIZE);
    ck_assert(isnan(ft.tau[0]) && mpfr_nan_p(rt.tau[0]));
    ff_proxal_trace_clear(&ft);
    fr_proxal_trace_clear(&rt);
    ff_proxal_trace_clear(&ft);
    fr_proxal_trace_clear(&rt);
    ff_proxal_trace_clear(NULL);
    fr_proxal_trace_clear(NULL);
}
END_TEST

/* after the start: Newton cannot finish within newton_max = 1 on NP */
START_TEST(after_start)
{
    scase c;
    base(&c, 1);
    c.p.admm.newton_max = 1;
    c.p.sbar = 1e-3;
    for (size_t k = 0; k < 3; k++)
        c.w0[k] *= 40;   /* far from the solution: the logistic Newton needs several steps */
    for (int a3 = 0; a3 < 2; a3++) {
        ff_proxal_trace ft;
        fr_proxal_trace rt;
        ck_assert_int_eq(ff_proxal_trace_init(&ft, &c.I.P, &c.p), FR_OK);
        ck_assert_int_eq(fr_proxal_trace_init(&rt, &c.I.P, &c.p, 64), FR_OK);
        int sf = a3 ? ff_proxal_alg3(&ft, &c.I.P, &c.p) : ff_proxal_alg1(&ft, &c.I.P, &c.p);
        int sr = a3 ? fr_proxal_alg3(&rt, &c.I.P, &c.p) : fr_proxal_alg1(&rt, &c.I.P, &c.p);
        ck_assert_msg(sf == FR_EDOM && sr == FR_EDOM, "alg%d: fast %d ref %d", a3 ? 3 : 1, sf, sr);
        ck_assert(ft.iters == 1 && rt.iters == 1);       /* reported with the iteration */
        ck_assert(ft.terminated == 0 && rt.terminated == 0);
        ff_proxal_trace_clear(&ft);
        fr_proxal_trace_clear(&rt);
    }
}
END_TEST

Suite *suite_status_proxal_alg(void)
{
    Suite *s = suite_create("status_proxal_alg");
    TCase *tc = tcase_create("alg");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, rows, 0, (int)NROWS);
    tcase_add_test(tc, traces);
    tcase_add_test(tc, after_start);
    suite_add_tcase(s, tc);
    return s;
}
