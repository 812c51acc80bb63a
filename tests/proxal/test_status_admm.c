/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_admm.c -- the status rows of 004 Algorithm 2:
 * fr_proxal_admm_check, fr_proxal_hreg_check (spec), fr_proxal_admm /
 * ff_proxal_admm and fr_proxal_admm_h / ff_proxal_admm_h (the same
 * bad input to both wings, the same status, w and info untouched on
 * error), ff_proxal_admm_ws_init / _clear, fr_proxal_admm_info_init /
 * _clear.  Its own small table (the oracle and the workspace are not
 * status_engine.h slots): each row edits a valid base case. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "admm_oracles.h"

Suite *suite_status_proxal_admm(void);

enum { NUL_W, NUL_INFO, NUL_WS, NUL_F, NUL_EVAL, NUL_W0, NUL_PRM, NUL_RHO, F_N0, WS_N, TMAX0, TMAXBIG,
       NEWT0, TAU_NAN, Q_INF, RHO_NAN, W0_NAN, G_NAN, TAU0, TAU15, Q0, Q1, RHO0, RHON, EPS18X, NOTPD,
       ORACLE, NUL_F_TAU0, NUL_PRM_TMAX0, TMAX0_TAU_NAN, TAU_NAN_RHO0 };

typedef struct { int edit, expect; } row_t;
static const row_t ROWS[] = {
    {NUL_W, FR_ENULL}, {NUL_INFO, FR_ENULL}, {NUL_WS, FR_ENULL}, {NUL_F, FR_ENULL}, {NUL_EVAL, FR_ENULL},
    {NUL_W0, FR_ENULL}, {NUL_PRM, FR_ENULL}, {NUL_RHO, FR_ENULL},
    {NUL_F_TAU0, FR_ENULL}, {NUL_PRM_TMAX0, FR_ENULL},                  /* ENULL first */
    {F_N0, FR_ESIZE}, {WS_N, FR_ESIZE}, {TMAX0, FR_ESIZE}, {TMAXBIG, FR_ESIZE}, {NEWT0, FR_ESIZE},
    {TMAX0_TAU_NAN, FR_ESIZE},                                           /* ESIZE before ENONFINITE */
    {TAU_NAN, FR_ENONFINITE}, {Q_INF, FR_ENONFINITE}, {RHO_NAN, FR_ENONFINITE}, {W0_NAN, FR_ENONFINITE},
    {G_NAN, FR_ENONFINITE}, {TAU_NAN_RHO0, FR_ENONFINITE},              /* ... before EDOM */
    {TAU0, FR_EDOM}, {TAU15, FR_EDOM}, {Q0, FR_EDOM}, {Q1, FR_EDOM}, {RHO0, FR_EDOM}, {RHON, FR_EDOM},
    {EPS18X, FR_EDOM}, {NOTPD, FR_EDOM},
    {ORACLE, FR_ENOMEM},                                                 /* the oracle's own status */
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

typedef struct { ao_prob P; int fail; } wrap;
static int w_feval(void *ctx, size_t i, const double *x, double *F, double *g, double *H)
{
    wrap *W = ctx;
    return W->fail && i == 1 ? FR_ENOMEM : ao_feval(&W->P, i, x, F, g, H);
}
static int w_reval(void *ctx, size_t i, mpfr_t *const x, mpfr_t F, mpfr_t *g, mpfr_t *H)
{
    wrap *W = ctx;
    return W->fail && i == 1 ? FR_ENOMEM : ao_reval(&W->P, i, x, F, g, H);
}
static int w_quad(void *ctx, size_t i)
{
    return ao_fquad(&((wrap *)ctx)->P, i);
}

START_TEST(status_row)
{
    const row_t *R = &ROWS[_i];
    static wrap W;
    ao_make(&W.P, 2, 2, AO_QUAD, 11, 0.5);
    W.fail = R->edit == ORACLE;
    double rho[2] = {1, 2};
    fr_proxal_admm_params prm = {1e-3, 0.5, rho, 100, 20, FR_PROXAL_EPS18_PRINTED};
    double w0[2] = {0.5, -0.25};
    ff_proxal_fsum F = {2, 2, &W, w_feval, w_quad};
    fr_proxal_fsum RF = {2, 2, &W, w_reval, w_quad};
    size_t wsn = 2;
    switch (R->edit) {
    case F_N0: F.n = RF.n = 0; wsn = 1; break;    /* the workspace cannot have n = 0 */
    case WS_N: wsn = 3; break;
    case TMAX0: case NUL_PRM_TMAX0: prm.tmax = 0; break;
    case TMAXBIG: prm.tmax = FR_PROXAL_TMAX + 1; break;
    case NEWT0: prm.newton_max = 0; break;
    case TAU_NAN: prm.tau = NAN; break;
    case TMAX0_TAU_NAN: prm.tmax = 0; prm.tau = NAN; break;
    case TAU_NAN_RHO0: prm.tau = NAN; rho[0] = 0; break;
    case Q_INF: prm.q = INFINITY; break;
    case RHO_NAN: rho[1] = NAN; break;
    case W0_NAN: w0[1] = NAN; break;
    case G_NAN: W.P.b[2][0] = NAN; break;
    case TAU0: case NUL_F_TAU0: prm.tau = 0; break;
    case TAU15: prm.tau = 1.5; break;
    case Q0: prm.q = 0; break;
    case Q1: prm.q = 1; break;
    case RHO0: rho[0] = -0.0; break;
    case RHON: rho[1] = -1; break;
    case EPS18X: prm.eps18 = 2; break;
    case NOTPD: W.P.A[1][0] = W.P.A[1][3] = -20; W.P.A[1][1] = W.P.A[1][2] = 0; break;
    case NUL_EVAL: F.eval = NULL; RF.eval = NULL; break;
    case NUL_RHO: prm.rho = NULL; break;
    default: break;
    }
    /* fast */
    ff_proxal_admm_ws *ws;
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, wsn, 2), FR_OK);
    double w[2] = {123, 456};
    ff_proxal_admm_info in, keep;
    memset(&in, 0x5a, sizeof in);
    keep = in;
    int st = ff_proxal_admm(R->edit == NUL_W ? NULL : w, R->edit == NUL_INFO ? NULL : &in,
                            R->edit == NUL_WS ? NULL : ws, R->edit == NUL_F || R->edit == NUL_F_TAU0 ? NULL : &F,
                            R->edit == NUL_W0 ? NULL : w0,
                            R->edit == NUL_PRM || R->edit == NUL_PRM_TMAX0 ? NULL : &prm);
    ck_assert_msg(st == R->expect, "row %d fast: %d, expected %d", _i, st, R->expect);
    ck_assert(w[0] == 123 && w[1] == 456 && memcmp(&in, &keep, sizeof in) == 0);
    ff_proxal_admm_ws_clear(&ws);
    if (R->edit == NUL_WS || R->edit == WS_N)
        return;   /* fast-only arguments */
    /* ref, the same input */
    mpfr_t rw0[2], rw[2];
    for (int k = 0; k < 2; k++) {
        mpfr_init2(rw0[k], 53);
        mpfr_set_d(rw0[k], w0[k], MPFR_RNDN);
        mpfr_init2(rw[k], 80);
        mpfr_set_ui(rw[k], 123, MPFR_RNDN);
    }
    fr_proxal_admm_info ri;
    ck_assert_int_eq(fr_proxal_admm_info_init(&ri, 80), FR_OK);
    ri.iters = 77;
    mpfr_set_ui(ri.thm41, 9, MPFR_RNDN);
    st = fr_proxal_admm(R->edit == NUL_W ? NULL : rw, R->edit == NUL_INFO ? NULL : &ri,
                        R->edit == NUL_F || R->edit == NUL_F_TAU0 ? NULL : &RF, R->edit == NUL_W0 ? NULL : rw0,
                        R->edit == NUL_PRM || R->edit == NUL_PRM_TMAX0 ? NULL : &prm);
    ck_assert_msg(st == R->expect, "row %d ref: %d, expected %d", _i, st, R->expect);
    ck_assert(mpfr_cmp_ui(rw[0], 123) == 0 && mpfr_cmp_ui(rw[1], 123) == 0);
    ck_assert(ri.iters == 77 && mpfr_cmp_ui(ri.thm41, 9) == 0);
    fr_proxal_admm_info_clear(&ri);
    for (int k = 0; k < 2; k++)
        mpfr_clear(rw0[k]), mpfr_clear(rw[k]);
    /* the shared check agrees on the parameter rows */
    if (R->edit >= TMAX0 && R->edit <= EPS18X && R->edit != W0_NAN && R->edit != G_NAN)
        ck_assert_int_eq(fr_proxal_admm_check(&prm, 2), R->expect);
}
END_TEST

START_TEST(check_ws_info)
{
    double rho[1] = {1};
    fr_proxal_admm_params prm = {0.5, 0.5, rho, 10, 10, FR_PROXAL_EPS18_CODE};
    ck_assert_int_eq(fr_proxal_admm_check(&prm, 1), FR_OK);
    ck_assert_int_eq(fr_proxal_admm_check(NULL, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_admm_check(&prm, 0), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_admm_check(&prm, FR_PROXAL_N_MAX + 1), FR_ESIZE);
    prm.tau = 1;                                   /* tau = 1 is inside (0, 1] */
    ck_assert_int_eq(fr_proxal_admm_check(&prm, 1), FR_OK);
    prm.rho = NULL;
    ck_assert_int_eq(fr_proxal_admm_check(&prm, 0), FR_ENULL);
    ff_proxal_admm_ws *ws = (ff_proxal_admm_ws *)&prm;
    ck_assert_int_eq(ff_proxal_admm_ws_init(NULL, 1, 1), FR_ENULL);
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, 0, 1), FR_ESIZE);
    ck_assert_ptr_null(ws);
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, 1, 0), FR_ESIZE);
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, FR_PROXAL_N_MAX + 1, 1), FR_ESIZE);
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, 1, FR_PROXAL_D_MAX + 1), FR_ESIZE);
    ff_proxal_admm_ws_clear(NULL);
    ff_proxal_admm_ws_clear(&ws);                  /* NULL workspace */
    fr_proxal_admm_info ri;
    ck_assert_int_eq(fr_proxal_admm_info_init(NULL, 64), FR_ENULL);
    ck_assert_int_eq(fr_proxal_admm_info_init(&ri, 0), FR_EPREC);
    ck_assert_int_eq(fr_proxal_admm_info_init(&ri, FR_PREC_MAX + 1), FR_EPREC);
    memset(&ri, 0, sizeof ri);
    fr_proxal_admm_info_clear(&ri);                /* zeroed: safe */
    fr_proxal_admm_info_clear(NULL);
}
END_TEST

/* ff_proxal_admm_h / fr_proxal_admm_h and fr_proxal_hreg_check: each row
 * edits a valid regulariser (or the base case), the same status in both
 * wings and in the shared check, w untouched on error. */
typedef struct {
    const char *what;
    int kind;
    double gamma, lo1, hi1, w01;
    int nul_h, nul_hi, tau0, expect;
} hrow_t;
static const hrow_t HROWS[] = {
    {"l1 valid", FR_PROXAL_H_L1, 0.5, -1, 1, -0.25, 0, 0, 0, FR_OK},
    {"l1 gamma -0 (0)", FR_PROXAL_H_L1, -0.0, -1, 1, -0.25, 0, 0, 0, FR_OK},
    {"zero kind", FR_PROXAL_H_ZERO, NAN, -1, 1, -0.25, 0, 0, 0, FR_OK},   /* gamma not read */
    {"box valid", FR_PROXAL_H_BOX, 0, -1, 1, -0.25, 0, 0, 0, FR_OK},
    {"box lo = hi = w0", FR_PROXAL_H_BOX, 0, -0.25, -0.25, -0.25, 0, 0, 0, FR_OK},
    {"H NULL", FR_PROXAL_H_L1, 0.5, -1, 1, -0.25, 1, 0, 0, FR_ENULL},
    {"box hi NULL", FR_PROXAL_H_BOX, 0, -1, 1, -0.25, 0, 1, 0, FR_ENULL},
    {"box hi NULL + tau 0", FR_PROXAL_H_BOX, 0, -1, 1, -0.25, 0, 1, 1, FR_ENULL},
    {"l1 gamma NaN", FR_PROXAL_H_L1, NAN, -1, 1, -0.25, 0, 0, 0, FR_ENONFINITE},
    {"l1 gamma Inf + tau 0", FR_PROXAL_H_L1, INFINITY, -1, 1, -0.25, 0, 0, 1, FR_ENONFINITE},
    {"box lo NaN", FR_PROXAL_H_BOX, 0, NAN, 1, -0.25, 0, 0, 0, FR_ENONFINITE},
    {"l1 gamma < 0", FR_PROXAL_H_L1, -0.5, -1, 1, -0.25, 0, 0, 0, FR_EDOM},
    {"box lo > hi", FR_PROXAL_H_BOX, 0, 0.5, 0.25, -0.25, 0, 0, 0, FR_EDOM},
    {"box w0 outside", FR_PROXAL_H_BOX, 0, 0, 1, -0.25, 0, 0, 0, FR_EDOM},
    {"unknown kind", 7, 0, -1, 1, -0.25, 0, 0, 0, FR_EDOM},
};
#define NHROWS (sizeof HROWS / sizeof HROWS[0])

START_TEST(h_row)
{
    const hrow_t *R = &HROWS[_i];
    static wrap W;
    ao_make(&W.P, 2, 2, AO_QUAD, 11, 0.5);
    W.fail = 0;
    double rho[2] = {1, 2}, lo[2] = {-1, R->lo1}, hi[2] = {1, R->hi1};
    fr_proxal_admm_params prm = {R->tau0 ? 0 : 1e-3, 0.5, rho, 100, 20, FR_PROXAL_EPS18_PRINTED};
    double w0[2] = {0.5, R->w01};
    ff_proxal_fsum F = {2, 2, &W, w_feval, w_quad};
    fr_proxal_fsum RF = {2, 2, &W, w_reval, w_quad};
    fr_proxal_hreg H = {R->kind, R->gamma, lo, R->nul_hi ? NULL : hi};
    const fr_proxal_hreg *Hp = R->nul_h ? NULL : &H;
    if (!R->nul_h && !R->tau0) {
        int want = R->expect;
        if (strcmp(R->what, "box w0 outside") == 0)
            want = FR_OK;                              /* the regulariser itself is valid */
        ck_assert_int_eq(fr_proxal_hreg_check(Hp, 2), want);
    }
    ff_proxal_admm_ws *ws;
    ck_assert_int_eq(ff_proxal_admm_ws_init(&ws, 2, 2), FR_OK);
    double w[2] = {123, 456};
    ff_proxal_admm_info in;
    int st = ff_proxal_admm_h(w, &in, ws, &F, w0, &prm, Hp);
    ck_assert_msg(st == R->expect, "%s fast: %d, expected %d", R->what, st, R->expect);
    if (st != FR_OK)
        ck_assert(w[0] == 123 && w[1] == 456);
    else {
        ck_assert(in.thm41_ok);
        if (R->kind == FR_PROXAL_H_BOX)
            ck_assert(w[1] >= lo[1] && w[1] <= hi[1]);
    }
    ff_proxal_admm_ws_clear(&ws);
    mpfr_t rw0[2], rw[2];
    for (int k = 0; k < 2; k++) {
        mpfr_init2(rw0[k], 53);
        mpfr_set_d(rw0[k], w0[k], MPFR_RNDN);
        mpfr_init2(rw[k], 80);
        mpfr_set_ui(rw[k], 123, MPFR_RNDN);
    }
    fr_proxal_admm_info ri;
    ck_assert_int_eq(fr_proxal_admm_info_init(&ri, 80), FR_OK);
    st = fr_proxal_admm_h(rw, &ri, &RF, rw0, &prm, Hp);
    ck_assert_msg(st == R->expect, "%s ref: %d, expected %d", R->what, st, R->expect);
    if (st != FR_OK)
        ck_assert(mpfr_cmp_ui(rw[0], 123) == 0 && mpfr_cmp_ui(rw[1], 123) == 0);
    else
        ck_assert(ri.thm41_ok);
    fr_proxal_admm_info_clear(&ri);
    for (int k = 0; k < 2; k++)
        mpfr_clear(rw0[k]), mpfr_clear(rw[k]);
}
END_TEST

START_TEST(hreg_check_sizes)
{
    double lo[1] = {0}, hi[1] = {1};
    fr_proxal_hreg H = {FR_PROXAL_H_BOX, 0, lo, hi};
    ck_assert_int_eq(fr_proxal_hreg_check(&H, 1), FR_OK);
    ck_assert_int_eq(fr_proxal_hreg_check(&H, 0), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_hreg_check(&H, FR_PROXAL_D_MAX + 1), FR_ESIZE);
    H.lo = NULL;
    ck_assert_int_eq(fr_proxal_hreg_check(&H, 0), FR_ENULL);   /* ENULL before ESIZE */
    ck_assert_int_eq(fr_proxal_hreg_check(NULL, 1), FR_ENULL);
}
END_TEST

Suite *suite_status_proxal_admm(void)
{
    Suite *s = suite_create("status_proxal_admm");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, check_ws_info);
    tcase_add_loop_test(tc, h_row, 0, (int)NHROWS);
    tcase_add_test(tc, hreg_check_sizes);
    suite_add_tcase(s, tc);
    return s;
}
