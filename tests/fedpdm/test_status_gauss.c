/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_gauss.c -- one error semantics, module fedpdm, Gaussian
 * calibration: the same bad input gives the same status in ref and fast,
 * every output untouched (fedref_common.h "Error semantics"; the engine:
 * tests/status_engine.h).  Slots: 0 the value (sigma2 / sigma), 1 and 2
 * the margin enclosure (dp_check); scalars: eps s0, delta s1, s s2, sigma
 * s3; flag 1: the verdict pointer NULL (dp_check). */
#include <check.h>
#include <float.h>
#include <math.h>
#include "../status_engine.h"

Suite *suite_status_fedpdm_gauss(void);

#define NaN NAN
#define Inf INFINITY
#define VSENT 12345

static void b_g(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    st_out(c, 2, 1);
    c->s[0] = 1;
    c->s[1] = 1e-5;
    c->s[2] = 1;
    c->s[3] = 4;
    c->flag = 0;
}

static int r_cl(st_case *c, st_ref *r)
{
    (void)c;
    return fr_gauss_sigma2_classical(st_one(r, 0), r->s[0], r->s[1], r->s[2]);
}
static int f_cl(st_case *c, st_fast *f) { return ff_gauss_sigma2_classical_upper(f->v[0], c->s[0], c->s[1], c->s[2]); }
static int fb_cl(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_gauss_sigma2_classical_upper_bound(st_pair_at(&p, 0), st_pair_at(&p, 1),
                                                                     c->s[0], c->s[1], c->s[2]));
}
static const st_fn CL = {"fr_gauss_sigma2_classical / ff_gauss_sigma2_classical_upper", b_g, r_cl, f_cl, NULL,
                         fb_cl};

static int r_an(st_case *c, st_ref *r)
{
    (void)c;
    return fr_gauss_sigma_analytic(st_one(r, 0), r->s[0], r->s[1], r->s[2]);
}
static int f_an(st_case *c, st_fast *f) { return ff_gauss_sigma_analytic_upper(f->v[0], c->s[0], c->s[1], c->s[2]); }
static const st_fn AN = {"fr_gauss_sigma_analytic / ff_gauss_sigma_analytic_upper", b_g, r_an, f_an, NULL, NULL};

static int r_ck(st_case *c, st_ref *r)
{
    int v = VSENT;
    int st = fr_gauss_dp_check(c->flag ? NULL : &v, st_one(r, 1), st_one(r, 2), r->s[0], r->s[1], r->s[2],
                               r->s[3]);
    if (st != FR_OK && v != VSENT)
        st_failf(c, "verdict written on error");
    return st;
}
static int f_ck(st_case *c, st_fast *f)
{
    int v = VSENT;
    int st = ff_gauss_dp_check(c->flag ? NULL : &v, f->v[1], f->v[2], c->s[0], c->s[1], c->s[2], c->s[3]);
    if (st != FR_OK && v != VSENT)
        st_failf(c, "verdict written on error");
    return st;
}
static const st_fn CK = {"fr_gauss_dp_check / ff_gauss_dp_check", b_g, r_ck, f_ck, NULL, NULL};

static const st_row ROWS[] = {
    /* classical: sigma2 slot 0, eps s0, delta s1, s s2 */
    ROW(CL, FR_ENULL, NUL(0)),
    ROW(CL, FR_ENULL, NUL(0), SC(0, NaN)),
    REF_ROW(CL, FR_ENULL, NULS(0)),
    REF_ROW(CL, FR_ENULL, NULS(1), SC(0, -1)),
    REF_ROW(CL, FR_ENULL, NULS(2)),
    ROW(CL, FR_ENONFINITE, SC(0, NaN)),
    ROW(CL, FR_ENONFINITE, SC(1, Inf)),
    ROW(CL, FR_ENONFINITE, SC(2, -Inf)),
    ROW(CL, FR_ENONFINITE, SC(2, NaN), SC(0, -1)),
    ROW(CL, FR_EDOM, SC(0, 0)),
    ROW(CL, FR_EDOM, SC(0, -0.0)),
    ROW(CL, FR_EDOM, SC(0, -0x1p-1074)),
    ROW(CL, FR_EDOM, SC(1, 0)),
    ROW(CL, FR_EDOM, SC(1, -0.0)),
    ROW(CL, FR_EDOM, SC(1, 1)),
    ROW(CL, FR_EDOM, SC(1, 1.5)),
    ROW(CL, FR_EDOM, SC(2, -0x1p-1074)),
    /* analytic: sigma slot 0 */
    ROW(AN, FR_ENULL, NUL(0)),
    ROW(AN, FR_ENULL, NUL(0), SC(1, 2)),
    REF_ROW(AN, FR_ENULL, NULS(0)),
    REF_ROW(AN, FR_ENULL, NULS(1)),
    REF_ROW(AN, FR_ENULL, NULS(2), SC(1, NaN)),
    ROW(AN, FR_ENONFINITE, SC(0, Inf)),
    ROW(AN, FR_ENONFINITE, SC(1, NaN)),
    ROW(AN, FR_ENONFINITE, SC(2, Inf), SC(1, 0)),
    ROW(AN, FR_EDOM, SC(0, 0)),
    ROW(AN, FR_EDOM, SC(1, 0)),
    ROW(AN, FR_EDOM, SC(1, 1)),
    ROW(AN, FR_EDOM, SC(1, -1e-5)),
    ROW(AN, FR_EDOM, SC(2, -1)),
    /* extreme valid inputs: FR_OK in both (fast once FR_EINTERNAL) */
    ROW(AN, FR_OK, SC(1, 0x1p-1074)),                 /* delta = 2^-1074: 38.29 */
    ROW(AN, FR_OK, SC(2, DBL_MAX)),                   /* sigma* = 9.1e307 > DBL_MAX/2 */
    ROW(AN, FR_OK, SC(0, 0x1p-1074), SC(2, DBL_MAX)), /* sigma* beyond DBL_MAX: fast +Inf */
    ROW(CL, FR_OK, SC(2, DBL_MAX)),                   /* sigma2 beyond DBL_MAX: fast +Inf */
    /* dp_check: verdict (flag 1: NULL), mlo slot 1, mhi slot 2, sigma s3 */
    ROW(CK, FR_ENULL, FLAG(1)),
    ROW(CK, FR_ENULL, NUL(1)),
    ROW(CK, FR_ENULL, NUL(2), SC(3, NaN)),
    REF_ROW(CK, FR_ENULL, NULS(0)),
    REF_ROW(CK, FR_ENULL, NULS(3)),
    ROW(CK, FR_ENONFINITE, SC(3, NaN)),
    ROW(CK, FR_ENONFINITE, SC(3, Inf), SC(0, 0)),
    ROW(CK, FR_ENONFINITE, SC(0, NaN)),
    ROW(CK, FR_ENONFINITE, SC(1, Inf), SC(3, -1)),
    ROW(CK, FR_EDOM, SC(3, -1)),
    ROW(CK, FR_EDOM, SC(3, -0x1p-1074)),
    ROW(CK, FR_EDOM, SC(0, -2)),
    ROW(CK, FR_EDOM, SC(1, 1)),
    ROW(CK, FR_EDOM, SC(2, -0.5)),
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

Suite *suite_status_fedpdm_gauss(void)
{
    Suite *s = suite_create("status_fedpdm_gauss");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    suite_add_tcase(s, tc);
    return s;
}
