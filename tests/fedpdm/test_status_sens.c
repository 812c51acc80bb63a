/* test_status_sens.c -- the status rows of module fedpdm's sensitivity
 * part (tests/status_engine.h): every public function, every status class
 * in class order, outputs untouched on error, the same status in ref and
 * fast (and ff_fedpdm_sensitivity_bound). */
#include <check.h>
#include <math.h>
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

static const st_row ROWS[] = {
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
