/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_sens.c -- the status rows of module fedpdm's sensitivity
 * part (tests/status_engine.h): every public function, every status class
 * in class order, outputs untouched on error, the same status in ref and
 * fast (and ff_fedpdm_sensitivity_bound). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_fedpdm_sens(void);

static const double NaN = NAN, Inf = INFINITY;

/* sensitivity(s = slot 0, eta = c0, rho = c1, Q = u, G = c2) */
static void b_sens(st_case *c)
{
    st_out(c, 0, 1);
    c->s[0] = 0.5;
    c->s[1] = 10;
    c->s[2] = 1;
    c->u = 5;
}
static int r_sens(st_case *c, st_ref *r)
{
    return fr_fedpdm_sensitivity(st_one(r, 0), r->s[0], r->s[1], c->u, r->s[2]);
}
static int f_sens(st_case *c, st_fast *f)
{
    return ff_fedpdm_sensitivity(f->v[0], c->s[0], c->s[1], c->u, c->s[2]);
}
static int fb_sens(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_fedpdm_sensitivity_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), c->s[0],
                                                           c->s[1], c->u, c->s[2]));
}
static const st_fn SENS = {"fr_fedpdm_sensitivity / ff_fedpdm_sensitivity", b_sens, r_sens, f_sens, NULL,
                           fb_sens};

/* thm3(out = a struct, passed as NULL when flag = 1; L = c0, rho = c1,
 * N = u): the adapters check the struct untouched on error themselves. */
static void b_thm3(st_case *c)
{
    c->s[0] = 1;
    c->s[1] = 10;
    c->u = 100;
    c->flag = 0;
}
static int r_thm3(st_case *c, st_ref *r)
{
    fr_fedpdm_thm3_consts o;
    mpfr_ptr all[11];
    for (int k = 0; k < 8; k++) all[k] = o.b[k];
    all[8] = o.theta1; all[9] = o.theta2; all[10] = o.C0;
    for (int k = 0; k < 11; k++) { mpfr_init2(all[k], ST_PREC); mpfr_set_si(all[k], -77 - k, MPFR_RNDN); }
    o.fail = 0xdead;
    int st = fr_fedpdm_thm3(c->flag ? NULL : &o, r->s[0], r->s[1], c->u);
    if (st != FR_OK) {
        for (int k = 0; k < 11; k++)
            if (mpfr_get_prec(all[k]) != ST_PREC || mpfr_cmp_si(all[k], -77 - k) != 0)
                st_failf(c, "out->b/theta/C0 %d written", k);
        if (o.fail != 0xdead) st_failf(c, "out->fail written");
    }
    for (int k = 0; k < 11; k++) mpfr_clear(all[k]);
    return st;
}
static int f_thm3(st_case *c, st_fast *f)
{
    (void)f;
    ff_fedpdm_thm3_consts o, o0;
    memset(&o, 0x5a, sizeof o);
    o0 = o;
    int st = ff_fedpdm_thm3(c->flag ? NULL : &o, c->s[0], c->s[1], c->u);
    if (st != FR_OK && memcmp(&o, &o0, sizeof o) != 0)
        st_failf(c, "*out written");
    return st;
}
static int fb_thm3(st_case *c, st_fast *f)
{
    (void)f;
    double e[8], e0[8];
    memset(e, 0x5a, sizeof e);
    memcpy(e0, e, sizeof e);
    int st = ff_fedpdm_thm3_bound(c->flag ? NULL : e, c->s[0], c->s[1], c->u);
    if (st != FR_OK && memcmp(e, e0, sizeof e) != 0)
        st_failf(c, "berr written");
    return st;
}
static const st_fn THM3 = {"fr_fedpdm_thm3 / ff_fedpdm_thm3", b_thm3, r_thm3, f_thm3, NULL, fb_thm3};

/* path_sens(s = slot 0 (z0 entries), eta = slot 1 (4 entries), T = z0,
 * rho = c0, Q = u, G = c1, start = flag) */
static void b_path(st_case *c)
{
    static const double eta[4] = {1, 0.7071067811865475, 0.5773502691896258, 0.5};
    st_out(c, 0, 4);
    st_in(c, 1, 4, eta);
    c->z[0] = 4;
    c->s[0] = 10;
    c->s[1] = 1;
    c->u = 5;
    c->flag = FR_PDM_START_X0;
}
static int r_path(st_case *c, st_ref *r)
{
    return fr_fedpdm_path_sens(r->v[0], r->v[1], c->z[0], r->s[0], c->u, r->s[1], c->flag);
}
static int f_path(st_case *c, st_fast *f)
{
    return ff_fedpdm_path_sens(f->v[0], f->v[1], c->z[0], c->s[0], c->u, c->s[1], c->flag);
}
static const st_fn PATH = {"fr_fedpdm_path_sens / ff_fedpdm_path_sens", b_path, r_path, f_path, NULL, NULL};

static const st_row ROWS[] = {
    ROW(PATH, FR_ENULL, NUL(0)),
    ROW(PATH, FR_ENULL, NUL(1)),
    ROW(PATH, FR_ENULL, NUL(1), SZ(0, 0)),                /* ENULL before ESIZE */
    REF_ROW(PATH, FR_ENULL, NULS(0)),
    REF_ROW(PATH, FR_ENULL, NULS(1), SC(0, NaN)),
    ROW(PATH, FR_ESIZE, SZ(0, 0)),
    ROW(PATH, FR_ESIZE, SZ(0, FR_PDM_T_MAX + 1)),
    ROW(PATH, FR_ESIZE, U(FR_FEDPDM_Q_MAX + 1)),
    ROW(PATH, FR_ESIZE, SZ(0, 0), EN(1, 0, NaN)),         /* ESIZE before ENONFINITE */
    ROW(PATH, FR_ENONFINITE, EN(1, 0, NaN)),
    ROW(PATH, FR_ENONFINITE, EN(1, 3, Inf)),              /* the last round t = T - 1 */
    ROW(PATH, FR_ENONFINITE, SC(0, -Inf)),
    ROW(PATH, FR_ENONFINITE, SC(1, NaN), U(0)),           /* ENONFINITE before EDOM */
    ROW(PATH, FR_ENONFINITE, EN(1, 3, NaN), EN(1, 0, -1)),
    ROW(PATH, FR_EDOM, EN(1, 0, 0)),
    ROW(PATH, FR_EDOM, EN(1, 3, -0.0)),
    ROW(PATH, FR_EDOM, SC(0, 0)),
    ROW(PATH, FR_EDOM, SC(1, -0x1p-1074)),
    ROW(PATH, FR_EDOM, U(0)),
    ROW(PATH, FR_EDOM, FLAG(2)),
    ROW(PATH, FR_EDOM, FLAG(-1)),
    ROW(THM3, FR_ENULL, FLAG(1)),
    ROW(THM3, FR_ENULL, FLAG(1), U(0)),
    REF_ROW(THM3, FR_ENULL, NULS(0)),
    REF_ROW(THM3, FR_ENULL, NULS(1), SC(0, NaN)),
    ROW(THM3, FR_ESIZE, U(0)),
    ROW(THM3, FR_ESIZE, U(0), SC(0, NaN)),
    ROW(THM3, FR_ESIZE, U(FR_COUNT_MAX + 1)),
    ROW(THM3, FR_ENONFINITE, SC(0, NaN)),
    ROW(THM3, FR_ENONFINITE, SC(1, Inf)),
    ROW(THM3, FR_ENONFINITE, SC(1, NaN), SC(0, -1)),
    ROW(THM3, FR_EDOM, SC(0, 0)),
    ROW(THM3, FR_EDOM, SC(0, -0.5)),
    ROW(THM3, FR_EDOM, SC(1, 0)),
    ROW(THM3, FR_EDOM, SC(1, -10)),
    ROW(SENS, FR_ENULL, NUL(0)),
    ROW(SENS, FR_ENULL, NUL(0), U(0)),                    /* ENULL before EDOM */
    REF_ROW(SENS, FR_ENULL, NULS(0)),
    REF_ROW(SENS, FR_ENULL, NULS(1), SC(0, NaN)),
    REF_ROW(SENS, FR_ENULL, NULS(2), U(FR_FEDPDM_Q_MAX + 1)),
    ROW(SENS, FR_ESIZE, U(FR_FEDPDM_Q_MAX + 1)),
    ROW(SENS, FR_ESIZE, U(FR_FEDPDM_Q_MAX + 1), SC(0, NaN)),   /* ESIZE before ENONFINITE */
    ROW(SENS, FR_ENONFINITE, SC(0, NaN)),
    ROW(SENS, FR_ENONFINITE, SC(1, Inf)),
    ROW(SENS, FR_ENONFINITE, SC(2, -Inf)),
    ROW(SENS, FR_ENONFINITE, SC(2, NaN), U(0)),           /* ENONFINITE before EDOM */
    ROW(SENS, FR_EDOM, U(0)),
    ROW(SENS, FR_EDOM, SC(0, 0)),
    ROW(SENS, FR_EDOM, SC(0, -0.5)),
    ROW(SENS, FR_EDOM, SC(1, 0)),
    ROW(SENS, FR_EDOM, SC(1, -1)),
    ROW(SENS, FR_EDOM, SC(2, -1)),
    ROW(SENS, FR_EDOM, SC(2, -0x1p-1074)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* fast only: the upper bound overflows binary64 (a = 9, Q = 400). */
START_TEST(fast_overflow)
{
    double s = 3, rel = 5, abs = 6;
    ck_assert_int_eq(ff_fedpdm_sensitivity(&s, 1, 10, 400, 1), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedpdm_sensitivity_bound(&rel, &abs, 1, 10, 400, 1), FR_ENONFINITE);
    ck_assert(s == 3 && rel == 5 && abs == 6);
    /* thm3: L^2 overflows; the bound's own range */
    ff_fedpdm_thm3_consts o;
    double e[8];
    ck_assert_int_eq(ff_fedpdm_thm3(&o, 0x1p600, 10, 3), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedpdm_thm3_bound(e, 0x1p600, 10, 3), FR_ENONFINITE);
    ck_assert_int_eq(ff_fedpdm_thm3_bound(e, 0x1p-400, 10, 3), FR_EDOM);
    ck_assert_int_eq(ff_fedpdm_thm3(&o, 0x1p-400, 10, 3), FR_OK);
}
END_TEST

Suite *suite_status_fedpdm_sens(void)
{
    Suite *s = suite_create("status_fedpdm_sens");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, fast_overflow);
    suite_add_tcase(s, tc);
    return s;
}
