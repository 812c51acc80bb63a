/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_kkt.c -- the status rows of module proxal's KKT residuals
 * (tests/status_engine.h): fr_proxal_kkt, ff_proxal_kkt and
 * ff_proxal_kkt_bound, every status class in class order, outputs untouched
 * on error, the same status in ref and fast, and the arguments that may be
 * NULL (gamma unless h = L1, lo/hi unless h = BOX, J/c/mu when m = 0)
 * shown not to be read. */
#include <check.h>
#include <math.h>
#include "../status_engine.h"

Suite *suite_status_proxal_kkt(void);

static const double NaN = NAN, Inf = INFINITY;

/* kkt(eps1 = slot 0, eps2 = slot 1, grad_f = 2 (d = z0), J = 3 (d x m, m =
 * z1), c = 4, mu = 5, w = 6, h = flag, gamma = scalar 0, lo = 7, hi = 8) */
static void b_common(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    st_in(c, 2, 3, (const double[]){0.5, -1, 2});
    st_in(c, 3, 6, (const double[]){1, 0.5, -0.25, 2, 0, 1});
    st_in(c, 4, 2, (const double[]){-0.5, 0});
    st_in(c, 5, 2, (const double[]){1, 0});
    c->z[0] = 3;
    c->z[1] = 2;
    c->s[0] = 0.25;
}
static void b_l1(st_case *c)
{
    b_common(c);
    st_in(c, 6, 3, (const double[]){0, 1, -2});
    c->flag = FR_PROXAL_H_L1;
}
static void b_box(st_case *c)
{
    b_common(c);
    st_in(c, 6, 3, (const double[]){-1, 0, 1.5});
    st_in(c, 7, 3, (const double[]){-1, 0, 1});
    st_in(c, 8, 3, (const double[]){1, 0, 2});
    c->flag = FR_PROXAL_H_BOX;
}
static int r_kkt(st_case *c, st_ref *r)
{
    return fr_proxal_kkt(st_one(r, 0), st_one(r, 1), r->v[2], c->z[0], r->v[3], c->z[1], r->v[4], r->v[5],
                         r->v[6], c->flag, r->s[0], r->v[7], r->v[8]);
}
static int f_kkt(st_case *c, st_fast *f)
{
    return ff_proxal_kkt(f->v[0], f->v[1], f->v[2], c->z[0], f->v[3], c->z[1], f->v[4], f->v[5], f->v[6],
                         c->flag, c->s[0], f->v[7], f->v[8]);
}
/* the bound's two outputs: its own sentinels, NULL or the same pointer
 * exactly when the function's output slots are */
static int fb_kkt(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    double *a1 = f->v[0] ? &p.v[0] : NULL, *a2 = f->v[1] == NULL ? NULL : f->v[1] == f->v[0] ? a1 : &p.v[1];
    return st_pair_done(c, &p, ff_proxal_kkt_bound(a1, a2, f->v[2], c->z[0], f->v[3], c->z[1], f->v[4],
                                                   f->v[5], f->v[6], c->flag, c->s[0], f->v[7], f->v[8]));
}
static const st_fn KL1 = {"fr_proxal_kkt / ff_proxal_kkt (h = l1)", b_l1, r_kkt, f_kkt, NULL, fb_kkt};
static const st_fn KBOX = {"fr_proxal_kkt / ff_proxal_kkt (h = box)", b_box, r_kkt, f_kkt, NULL, fb_kkt};

static const st_row ROWS[] = {
    /* FR_ENULL */
    ROW(KL1, FR_ENULL, NUL(0)),
    ROW(KL1, FR_ENULL, NUL(1)),
    ROW(KL1, FR_ENULL, NUL(2)),
    ROW(KL1, FR_ENULL, NUL(3)),
    ROW(KL1, FR_ENULL, NUL(4)),
    ROW(KL1, FR_ENULL, NUL(5)),
    ROW(KL1, FR_ENULL, NUL(6)),
    REF_ROW(KL1, FR_ENULL, NULS(0)),
    ROW(KBOX, FR_ENULL, NUL(7)),
    ROW(KBOX, FR_ENULL, NUL(8)),
    ROW(KL1, FR_ENULL, NUL(2), SZ(0, 0)),                 /* ENULL before ESIZE */
    ROW(KL1, FR_ENULL, NUL(6), EN(2, 0, NaN)),            /* ... before ENONFINITE */
    ROW(KBOX, FR_ENULL, NUL(0), EN(6, 0, -5)),            /* ... before EDOM */
    /* NULL where nothing is read: the next error decides */
    ROW(KL1, FR_EDOM, SZ(1, 0), NUL(3), NUL(5), SC(0, -1)),   /* m = 0: J, mu unread */
    ROW(KL1, FR_EDOM, SZ(1, 0), NUL(4), SC(0, -1)),           /* m = 0: c unread */
    REF_ROW(KL1, FR_EDOM, FLAG(FR_PROXAL_H_ZERO), NULS(0), EN(5, 0, -1)),
    ROW(KL1, FR_EDOM, FLAG(FR_PROXAL_H_ZERO), SC(0, NaN), EN(5, 0, -1)),   /* gamma unread */
    ROW(KBOX, FR_EDOM, FLAG(FR_PROXAL_H_L1), NUL(7), NUL(8), SC(0, -1)),   /* lo, hi unread */
    ROW(KBOX, FR_EDOM, FLAG(FR_PROXAL_H_ZERO), EN(7, 0, NaN), EN(5, 1, -1)),
    ROW(KBOX, FR_EDOM, NUL(7), NUL(8), FLAG(7)),          /* unknown h: lo, hi unread */
    /* FR_ESIZE */
    ROW(KL1, FR_ESIZE, SZ(0, 0)),
    ROW(KL1, FR_ESIZE, SZ(0, FR_COUNT_MAX + 1)),
    ROW(KL1, FR_ESIZE, SZ(1, FR_PROXAL_M_MAX + 1)),
    ROW(KL1, FR_ESIZE, SZ(0, FR_COUNT_MAX / 2 + 1)),       /* d m > FR_COUNT_MAX (m = 2) */
    ROW(KL1, FR_ESIZE, SZ(0, 0), EN(2, 0, NaN)),           /* ESIZE before ENONFINITE */
    ROW(KL1, FR_ESIZE, SZ(1, FR_PROXAL_M_MAX + 1), SC(0, -1)),
    /* FR_ENONFINITE */
    ROW(KL1, FR_ENONFINITE, EN(2, 0, NaN)),
    ROW(KL1, FR_ENONFINITE, EN(2, 2, -Inf)),
    ROW(KL1, FR_ENONFINITE, EN(3, 5, Inf)),                /* the last entry of J */
    ROW(KL1, FR_ENONFINITE, EN(4, 1, NaN)),
    ROW(KL1, FR_ENONFINITE, EN(5, 1, Inf)),
    ROW(KL1, FR_ENONFINITE, EN(6, 2, NaN)),
    ROW(KL1, FR_ENONFINITE, SC(0, Inf)),
    ROW(KBOX, FR_ENONFINITE, EN(7, 2, -Inf)),
    ROW(KBOX, FR_ENONFINITE, EN(8, 0, NaN)),
    ROW(KL1, FR_ENONFINITE, EN(2, 1, NaN), EN(5, 0, -1)),  /* ENONFINITE before EDOM */
    ROW(KBOX, FR_ENONFINITE, EN(8, 1, Inf), EN(7, 0, 3)),
    /* FR_EDOM */
    ROW(KL1, FR_EDOM, FLAG(3)),
    ROW(KL1, FR_EDOM, FLAG(-1)),
    ROW(KL1, FR_EDOM, SC(0, -1)),
    ROW(KL1, FR_EDOM, SC(0, -0x1p-1074)),
    ROW(KL1, FR_EDOM, EN(5, 0, -1)),
    ROW(KL1, FR_EDOM, EN(5, 1, -0x1p-1074)),               /* the last multiplier */
    ROW(KBOX, FR_EDOM, EN(6, 0, -1.5)),                    /* w below lo */
    ROW(KBOX, FR_EDOM, EN(6, 2, 0x1.0000000000001p+1)),    /* w one ulp above hi */
    ROW(KBOX, FR_EDOM, EN(7, 1, 0x1p-1074), EN(6, 1, 0x1p-1074)),   /* lo > hi, w = lo */
    ROW(KL1, FR_EDOM, ALIAS(1, 0)),                        /* eps1 == eps2 */
    ROW(KBOX, FR_EDOM, ALIAS(1, 0)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* fast only: binary64 overflow after the start (ref has no overflow). */
START_TEST(fast_overflow)
{
    double e1 = 3, e2 = 4, a1 = 5, a2 = 6;
    const double g[2] = {0x1p1023, 0x1p1023}, J[2] = {1, 1}, mu[1] = {0x1.fp1023}, c[1] = {0}, w[2] = {0, 0};
    ck_assert_int_eq(ff_proxal_kkt(&e1, &e2, g, 2, J, 1, c, mu, w, FR_PROXAL_H_ZERO, 0, NULL, NULL),
                     FR_ENONFINITE);
    ck_assert_int_eq(ff_proxal_kkt_bound(&a1, &a2, g, 2, J, 1, c, mu, w, FR_PROXAL_H_ZERO, 0, NULL, NULL),
                     FR_ENONFINITE);
    ck_assert(e1 == 3 && e2 == 4 && a1 == 5 && a2 == 6);
}
END_TEST

Suite *suite_status_proxal_kkt(void)
{
    Suite *s = suite_create("status_proxal_kkt");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, fast_overflow);
    suite_add_tcase(s, tc);
    return s;
}
