/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_lemma1.c -- one error semantics, module ssca, Lemma 1 and
 * Problem 5: the same bad input gives the same status in ref, in fast and
 * in fast's bound function, with every output untouched
 * (fedref_common.h, "Error semantics"; the engine: tests/status_engine.h).
 * Covers fr_/ff_ssca_lemma1, ff_ssca_lemma1_bound, fr_/ff_ssca_problem5,
 * ff_ssca_problem5_bound (ci/check-status-coverage.sh). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_ssca_lemma1(void);

#define NaN NAN
#define Inf INFINITY
#define HUGE_EXP 30000000              /* 2^(3e7): an exact intermediate of > 2^24 bits */
#define BR_SENTINEL 0x5a5a

/* ---- lemma1(nu = s0, w = s1, branch, a = s2, d = z0, C = c0, tau = c1,
 *             c = c2, U = c3); the bound (nu_abs = s0, w_abs = s1, ...) ---- */
static void b_l1(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 3);
    st_in(c, 2, 3, (const double[]){0.25, -0.5, 1});
    c->s[0] = 0.5;
    c->s[1] = 0.2;
    c->s[2] = 1e5;
    c->s[3] = 0.13;
    c->z[0] = 3;
}
static int br_checked(st_case *c, int st, int br)
{
    if (st != FR_OK && br != BR_SENTINEL)
        st_failf(c, "*branch written");
    return st;
}
static int r_l1(st_case *c, st_ref *r)
{
    int br = BR_SENTINEL;
    return br_checked(c, fr_ssca_lemma1(st_one(r, 0), r->v[1], &br, r->v[2], c->z[0], r->s[0], r->s[1],
                                        r->s[2], r->s[3]), br);
}
static int f_l1(st_case *c, st_fast *f)
{
    int br = BR_SENTINEL;
    return br_checked(c, ff_ssca_lemma1(f->v[0], f->v[1], &br, f->v[2], c->z[0], c->s[0], c->s[1],
                                        c->s[2], c->s[3]), br);
}
static int fb_l1(st_case *c, st_fast *f)
{
    return ff_ssca_lemma1_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->s[0], c->s[1], c->s[2], c->s[3]);
}
static const st_fn L1 = {"fr_ssca_lemma1 / ff_ssca_lemma1", b_l1, r_l1, f_l1, NULL, fb_l1};

/* ---- problem5(w = s0, s = s1, nu = s2, cert, g0 = s3, kappa = s4, G = s5,
 *               M = z0, d = z1, t0 = c0, tau = c1, c = c2); the bound
 *               (w_abs = s0, s_abs = s1, ...) ------------------------------ */
static void b_p5(st_case *c)
{
    st_out(c, 0, 3);
    st_out(c, 1, 2);
    st_out(c, 2, 2);
    st_in(c, 3, 3, (const double[]){-1, -1, 0.5});
    st_in(c, 4, 2, (const double[]){0.5, 40});
    st_in(c, 5, 6, (const double[]){1, 0, 0, 0, 1, 0});
    c->z[0] = 2;
    c->z[1] = 3;
    c->s[0] = 0.5;
    c->s[1] = 0.1;
    c->s[2] = 10;
}
static int cert_checked(st_case *c, int st, const fr_ssca_kkt *k)
{
    fr_ssca_kkt s;
    memset(&s, 0x5a, sizeof s);
    if (st != FR_OK && memcmp(&s, k, sizeof s) != 0)
        st_failf(c, "*cert written");
    return st;
}
static int r_p5(st_case *c, st_ref *r)
{
    fr_ssca_kkt k;
    memset(&k, 0x5a, sizeof k);
    return cert_checked(c, fr_ssca_problem5(r->v[0], r->v[1], r->v[2], &k, r->v[3], r->v[4], r->v[5],
                                            c->z[0], c->z[1], r->s[0], r->s[1], r->s[2]), &k);
}
static int f_p5(st_case *c, st_fast *f)
{
    fr_ssca_kkt k;
    memset(&k, 0x5a, sizeof k);
    return cert_checked(c, ff_ssca_problem5(f->v[0], f->v[1], f->v[2], &k, f->v[3], f->v[4], f->v[5],
                                            c->z[0], c->z[1], c->s[0], c->s[1], c->s[2]), &k);
}
static int fb_p5(st_case *c, st_fast *f)
{
    return ff_ssca_problem5_bound(f->v[0], f->v[1], f->v[3], f->v[4], f->v[5], c->z[0], c->z[1],
                                  c->s[0], c->s[1], c->s[2]);
}
static const st_fn P5 = {"fr_ssca_problem5 / ff_ssca_problem5", b_p5, r_p5, f_p5, NULL, NULL};
/* The bound has no nu: its own rows (the same bad inputs except nu's). */
static const st_fn P5B = {"ff_ssca_problem5_bound", b_p5, NULL, fb_p5, NULL, NULL};

static const st_row ROWS[] = {
    /* lemma1 */
    ROW(L1, FR_ENULL, NUL(0)),
    ROW(L1, FR_ENULL, NUL(1)),
    ROW(L1, FR_ENULL, NUL(2)),
    ROW(L1, FR_ENULL, NUL(2), SZ(0, 0), SC(1, NaN)),                 /* NULL before size, finiteness */
    REF_ROW(L1, FR_ENULL, NULS(0)),
    REF_ROW(L1, FR_ENULL, NULS(3)),
    ROW(L1, FR_ESIZE, SZ(0, 0)),
    ROW(L1, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(L1, FR_ESIZE, SZ(0, 0), SC(1, -1)),                         /* size before domain */
    ROW(L1, FR_ENONFINITE, SC(0, NaN)),
    ROW(L1, FR_ENONFINITE, SC(1, Inf)),
    ROW(L1, FR_ENONFINITE, SC(2, -Inf)),
    ROW(L1, FR_ENONFINITE, SC(3, NaN)),
    ROW(L1, FR_ENONFINITE, EN(2, 2, NaN)),
    ROW(L1, FR_ENONFINITE, EN(2, 0, -Inf), SC(2, 0)),               /* finiteness before domain */
    ROW(L1, FR_EDOM, SC(1, 0)),                                     /* tau = 0 */
    ROW(L1, FR_EDOM, SC(1, -0.2)),
    ROW(L1, FR_EDOM, SC(2, 0)),                                     /* c = 0 */
    ROW(L1, FR_EDOM, SC(2, -1)),
    ROW(L1, FR_EDOM, ALIAS(0, 1)),                                  /* nu inside w */
    ROW(L1, FR_ENONFINITE, ALIAS(0, 1), SC(3, Inf)),
    REF_ROW(L1, FR_EPREC, SHIFT(2, HUGE_EXP)),                      /* exact ||a||^2 too long */
    REF_ROW(L1, FR_ENULL, SHIFT(2, HUGE_EXP), NUL(1)),
    /* problem5 */
    ROW(P5, FR_ENULL, NUL(0)),
    ROW(P5, FR_ENULL, NUL(1)),
    ROW(P5, FR_ENULL, NUL(2)),
    ROW(P5, FR_ENULL, NUL(4)),
    ROW(P5, FR_ENULL, NUL(5)),
    ROW(P5, FR_ENULL, NUL(5), SZ(0, 0), SC(0, NaN)),
    REF_ROW(P5, FR_ENULL, NULS(0)),
    REF_ROW(P5, FR_ENULL, NULS(1)),
    REF_ROW(P5, FR_ENULL, NULS(2)),
    ROW(P5, FR_ESIZE, SZ(0, 0)),                                    /* M = 0 */
    ROW(P5, FR_ESIZE, SZ(1, 0)),                                    /* d = 0 */
    ROW(P5, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(P5, FR_ESIZE, SZ(1, SIZE_MAX / 4)),                         /* M d overflows */
    ROW(P5, FR_ESIZE, SZ(0, 0), EN(4, 0, NaN)),
    ROW(P5, FR_ENONFINITE, SC(0, NaN)),
    ROW(P5, FR_ENONFINITE, SC(1, Inf)),
    ROW(P5, FR_ENONFINITE, SC(2, -Inf)),
    ROW(P5, FR_ENONFINITE, EN(3, 1, NaN)),                          /* g0 */
    ROW(P5, FR_ENONFINITE, EN(4, 1, Inf)),                          /* kappa */
    ROW(P5, FR_ENONFINITE, EN(5, 5, -Inf)),                         /* G */
    ROW(P5, FR_ENONFINITE, EN(5, 0, NaN), SC(0, -1)),
    ROW(P5, FR_EDOM, SC(0, 0)),                                     /* t0 = 0 */
    ROW(P5, FR_EDOM, SC(0, -0.5)),
    ROW(P5, FR_EDOM, SC(1, -0.1)),                                  /* tau < 0 */
    ROW(P5, FR_EDOM, SC(2, 0)),                                     /* c = 0 */
    ROW(P5, FR_EDOM, ALIAS(1, 0)),                                  /* s inside w */
    ROW(P5, FR_EDOM, ALIAS(2, 1)),                                  /* nu = s */
    ROW(P5, FR_EDOM, ALIAS(2, 0)),                                  /* nu inside w */
    REF_ROW(P5, FR_EPREC, SHIFT(5, HUGE_EXP)),                      /* exact Gram entry too long */
    REF_ROW(P5, FR_ENONFINITE, SHIFT(5, HUGE_EXP), SC(2, NaN)),
    /* ff_ssca_problem5_bound */
    ROW(P5B, FR_ENULL, NUL(0)),
    ROW(P5B, FR_ENULL, NUL(1)),
    ROW(P5B, FR_ENULL, NUL(4)),
    ROW(P5B, FR_ENULL, NUL(5), SZ(0, 0)),
    ROW(P5B, FR_ESIZE, SZ(0, 0)),
    ROW(P5B, FR_ESIZE, SZ(1, SIZE_MAX / 4)),
    ROW(P5B, FR_ENONFINITE, SC(1, NaN)),
    ROW(P5B, FR_ENONFINITE, EN(3, 0, Inf)),
    ROW(P5B, FR_ENONFINITE, EN(5, 2, NaN), SC(0, 0)),
    ROW(P5B, FR_EDOM, SC(0, 0)),
    ROW(P5B, FR_EDOM, SC(1, -1)),
    ROW(P5B, FR_EDOM, SC(2, -10)),
    ROW(P5B, FR_EDOM, ALIAS(1, 0)),                                 /* s_abs inside w_abs */
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* Valid inputs the rows do not cover: g0 = NULL, branch and cert NULL. */
START_TEST(null_optional)
{
    double a[2] = {1, -0.5}, nu = -1, w[2] = {-1, -1}, G[2] = {1, 1}, kap[1] = {0.5}, s[1], n5[1], w5[2];
    ck_assert_int_eq(ff_ssca_lemma1(&nu, w, NULL, a, 2, 1, 0.2, 10, 0.13), FR_OK);
    ck_assert(nu > 0 && nu < 10);
    ck_assert_int_eq(ff_ssca_problem5(w5, s, n5, NULL, NULL, kap, G, 1, 2, 1, 0.2, 10), FR_OK);
    mpfr_t mn, mw[2], ma[2], C, tau, c, U, ms[1], mnu[1], mw5[2], mG[2], mk[1], t0;
    mpfr_inits2(53, mn, mw[0], mw[1], ma[0], ma[1], C, tau, c, U, ms[0], mnu[0], mw5[0], mw5[1],
                mG[0], mG[1], mk[0], t0, (mpfr_ptr)0);
    mpfr_set_d(ma[0], 1, MPFR_RNDN);
    mpfr_set_d(ma[1], -0.5, MPFR_RNDN);
    mpfr_set_d(C, 1, MPFR_RNDN);
    mpfr_set_d(tau, 0.2, MPFR_RNDN);
    mpfr_set_d(c, 10, MPFR_RNDN);
    mpfr_set_d(U, 0.13, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_lemma1(mn, mw, NULL, ma, 2, C, tau, c, U), FR_OK);
    ck_assert(fabs(mpfr_get_d(mn, MPFR_RNDN) - nu) <= 1e-12);
    mpfr_set_d(mG[0], 1, MPFR_RNDN);
    mpfr_set_d(mG[1], 1, MPFR_RNDN);
    mpfr_set_d(mk[0], 0.5, MPFR_RNDN);
    mpfr_set_d(t0, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_problem5(mw5, ms, mnu, NULL, NULL, mk, mG, 1, 2, t0, tau, c), FR_OK);
    mpfr_clears(mn, mw[0], mw[1], ma[0], ma[1], C, tau, c, U, ms[0], mnu[0], mw5[0], mw5[1],
                mG[0], mG[1], mk[0], t0, (mpfr_ptr)0);
}
END_TEST

Suite *suite_status_ssca_lemma1(void)
{
    Suite *s = suite_create("status_ssca_lemma1");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, null_optional);
    suite_add_tcase(s, tc);
    return s;
}
