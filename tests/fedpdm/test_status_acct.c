/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_acct.c -- one error semantics, module fedpdm, privacy
 * accounting: the same bad input gives the same status in ref and fast,
 * every output untouched (fedref_common.h "Error semantics"; the engine:
 * tests/status_engine.h).  Scalars: s0 = sigma (or c0), s1 = s (or eps),
 * s2 = delta (or q); counts: z0 = T, z1 = K, z2 = N, z3 = alpha_max (or
 * alpha); flag 1: the alpha output passed as NULL. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"
#include "fedref/fedpdm.h"
#include "fedfast/fedpdm.h"

Suite *suite_status_fedpdm_acct(void);

#define NaN NAN
#define Inf INFINITY
#define ASENT 0xdeadbeeful

/* ---- gauss_eps(eps = slot 0, sigma = s0, s = s1, delta = s2) ------------- */
static void b_ge(st_case *c)
{
    st_out(c, 0, 1);
    c->s[0] = 4.8;
    c->s[1] = 1;
    c->s[2] = 1e-5;
}
static int r_ge(st_case *c, st_ref *r)
{
    (void)c;
    return fr_fedpdm_gauss_eps(st_one(r, 0), r->s[0], r->s[1], r->s[2]);
}
static int f_ge(st_case *c, st_fast *f)
{
    return ff_fedpdm_gauss_eps(f->v[0], c->s[0], c->s[1], c->s[2]);
}
static const st_fn GE = {"fr_fedpdm_gauss_eps / ff_fedpdm_gauss_eps", b_ge, r_ge, f_ge, NULL, NULL};

/* ---- compose(basic = slot 0, adv = slot 1, sigma, s, T = z0, delta) ------ */
static void b_co(st_case *c)
{
    b_ge(c);
    st_out(c, 1, 1);
    c->z[0] = 3;
}
static int r_co(st_case *c, st_ref *r)
{
    return fr_fedpdm_compose(st_one(r, 0), st_one(r, 1), r->s[0], r->s[1], c->z[0], r->s[2]);
}
static int f_co(st_case *c, st_fast *f)
{
    return ff_fedpdm_compose(f->v[0], f->v[1], c->s[0], c->s[1], c->z[0], c->s[2]);
}
static const st_fn CO = {"fr_fedpdm_compose / ff_fedpdm_compose", b_co, r_co, f_co, NULL, NULL};

/* ---- rdp(eps = slot 0, alpha (flag 1: NULL), sigma, s, K = z1, N = z2,
 *      T = z0, delta, alpha_max = z3) ------------------------------------- */
static void b_rd(st_case *c)
{
    b_ge(c);
    c->z[0] = 3;
    c->z[1] = 5;
    c->z[2] = 100;
    c->z[3] = 8;
}
static int r_rd(st_case *c, st_ref *r)
{
    unsigned long a = ASENT;
    int st = fr_fedpdm_rdp(st_one(r, 0), c->flag == 1 ? NULL : &a, r->s[0], r->s[1], c->z[1],
                           c->z[2], c->z[0], r->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static int f_rd(st_case *c, st_fast *f)
{
    unsigned long a = ASENT;
    int st = ff_fedpdm_rdp(f->v[0], c->flag == 1 ? NULL : &a, c->s[0], c->s[1], c->z[1], c->z[2],
                           c->z[0], c->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static const st_fn RD = {"fr_fedpdm_rdp / ff_fedpdm_rdp", b_rd, r_rd, f_rd, NULL, NULL};

/* ---- rdp_order(e = slot 0, sigma, s, K = z1, N = z2, alpha = z3) ---------- */
static int r_ro(st_case *c, st_ref *r)
{
    return fr_fedpdm_rdp_order(st_one(r, 0), r->s[0], r->s[1], c->z[1], c->z[2], c->z[3]);
}
static int f_ro(st_case *c, st_fast *f)
{
    return ff_fedpdm_rdp_order(f->v[0], c->s[0], c->s[1], c->z[1], c->z[2], c->z[3]);
}
static const st_fn RO = {"fr_fedpdm_rdp_order / ff_fedpdm_rdp_order", b_rd, r_ro, f_ro, NULL, NULL};

/* ---- thm2(eps_bar = slot 0, c0 = s0, eps = s1, K = z1, N = z2, T = z0,
 *      q = s2) --------------------------------------------------------------- */
static void b_th(st_case *c)
{
    st_out(c, 0, 1);
    c->s[0] = 1;
    c->s[1] = 1;
    c->s[2] = 0.25;
    c->z[0] = 300;
    c->z[1] = 5;
    c->z[2] = 100;
}
static int r_th(st_case *c, st_ref *r)
{
    return fr_fedpdm_thm2(st_one(r, 0), r->s[0], r->s[1], c->z[1], c->z[2], c->z[0], r->s[2]);
}
static int f_th(st_case *c, st_fast *f)
{
    return ff_fedpdm_thm2(f->v[0], c->s[0], c->s[1], c->z[1], c->z[2], c->z[0], c->s[2]);
}
static const st_fn TH = {"fr_fedpdm_thm2 / ff_fedpdm_thm2", b_th, r_th, f_th, NULL, NULL};

/* ---- rdp_rounds(eps = slot 0, alpha (flag 1: NULL), sigma = slot 1, s =
 *      slot 2 (3 entries), T = z0, first = u, K = z1, N = z2, delta = s2,
 *      alpha_max = z3) --------------------------------------------------------- */
static void b_rr(st_case *c)
{
    static const double sg[3] = {4.8, 4.8, 6}, sv[3] = {1, 2.5, 0};
    st_out(c, 0, 1);
    st_in(c, 1, 3, sg);
    st_in(c, 2, 3, sv);
    c->s[2] = 1e-5;
    c->z[0] = 3;
    c->z[1] = 5;
    c->z[2] = 100;
    c->z[3] = 8;
    c->u = 1;
}
static int r_rr(st_case *c, st_ref *r)
{
    unsigned long a = ASENT;
    int st = fr_fedpdm_rdp_rounds(st_one(r, 0), c->flag == 1 ? NULL : &a, r->v[1], r->v[2], c->z[0], c->u,
                                  c->z[1], c->z[2], r->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static int f_rr(st_case *c, st_fast *f)
{
    unsigned long a = ASENT;
    int st = ff_fedpdm_rdp_rounds(f->v[0], c->flag == 1 ? NULL : &a, f->v[1], f->v[2], c->z[0], c->u,
                                  c->z[1], c->z[2], c->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static const st_fn RR = {"fr_fedpdm_rdp_rounds / ff_fedpdm_rdp_rounds", b_rr, r_rr, f_rr, NULL, NULL};

/* ---- rdp_rounds_improved: the arguments of rdp_rounds ------------------- */
static int r_ri(st_case *c, st_ref *r)
{
    unsigned long a = ASENT;
    int st = fr_fedpdm_rdp_rounds_improved(st_one(r, 0), c->flag == 1 ? NULL : &a, r->v[1], r->v[2], c->z[0],
                                           c->u, c->z[1], c->z[2], r->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static int f_ri(st_case *c, st_fast *f)
{
    unsigned long a = ASENT;
    int st = ff_fedpdm_rdp_rounds_improved(f->v[0], c->flag == 1 ? NULL : &a, f->v[1], f->v[2], c->z[0], c->u,
                                           c->z[1], c->z[2], c->s[2], c->z[3]);
    if (st != FR_OK && a != ASENT)
        st_failf(c, "alpha written");
    return st;
}
static const st_fn RI = {"fr_fedpdm_rdp_rounds_improved / ff_fedpdm_rdp_rounds_improved", b_rr, r_ri, f_ri,
                         NULL, NULL};

/* ---- pld_rounds(eps = slot 0, eps_lower = slot 3, sigma = slot 1, s =
 *      slot 2, T = z0, first = u, K = z1, N = z2, delta = s2) -------------- */
static void b_pl(st_case *c)
{
    b_rr(c);
    st_out(c, 3, 1);
    c->z[0] = 2;
}
static int r_pl(st_case *c, st_ref *r)
{
    return fr_fedpdm_pld_rounds(st_one(r, 0), st_one(r, 3), r->v[1], r->v[2], c->z[0], c->u, c->z[1], c->z[2],
                                r->s[2]);
}
static int f_pl(st_case *c, st_fast *f)
{
    return ff_fedpdm_pld_rounds(f->v[0], f->v[3], f->v[1], f->v[2], c->z[0], c->u, c->z[1], c->z[2], c->s[2]);
}
static const st_fn PL = {"fr_fedpdm_pld_rounds / ff_fedpdm_pld_rounds", b_pl, r_pl, f_pl, NULL, NULL};

static const st_row ROWS[] = {
    ROW(PL, FR_ENULL, NUL(0)),
    ROW(PL, FR_ENULL, NUL(1)),
    ROW(PL, FR_ENULL, NUL(2), SZ(0, 0)),                  /* ENULL before ESIZE */
    REF_ROW(PL, FR_ENULL, NULS(2)),
    ROW(PL, FR_ESIZE, SZ(0, 0)),                          /* T = 0 */
    ROW(PL, FR_ESIZE, SZ(2, 0)),                          /* N = 0 */
    ROW(PL, FR_ESIZE, U(3)),                              /* first = T + 1 */
    ROW(PL, FR_ESIZE, U(3), EN(1, 0, NaN)),               /* ESIZE before ENONFINITE */
    ROW(PL, FR_ENONFINITE, EN(1, 1, NaN)),
    ROW(PL, FR_ENONFINITE, EN(2, 0, Inf)),
    ROW(PL, FR_ENONFINITE, SC(2, NaN)),
    ROW(PL, FR_ENONFINITE, EN(2, 1, -Inf), EN(1, 0, -1)), /* ENONFINITE before EDOM */
    ROW(PL, FR_EDOM, EN(1, 0, 0)),
    ROW(PL, FR_EDOM, EN(2, 1, -0x1p-1074)),
    ROW(PL, FR_EDOM, SC(2, 0)),
    ROW(PL, FR_EDOM, SC(2, 1)),
    ROW(PL, FR_EDOM, SZ(1, 0)),                           /* K = 0 */
    ROW(PL, FR_EDOM, SZ(1, 101)),                         /* K > N */
    ROW(PL, FR_EDOM, ALIAS(3, 0)),                        /* eps_lower is eps */
    ROW(PL, FR_OK, SZ(1, 100)),                           /* K = N */
    ROW(RI, FR_ENULL, NUL(0)),
    ROW(RI, FR_ENULL, FLAG(1)),
    ROW(RI, FR_ENULL, NUL(2), SZ(0, 0)),
    REF_ROW(RI, FR_ENULL, NULS(2)),
    ROW(RI, FR_ESIZE, SZ(0, 0)),
    ROW(RI, FR_ESIZE, SZ(2, 0)),
    ROW(RI, FR_ESIZE, U(4), EN(1, 0, NaN)),
    ROW(RI, FR_ENONFINITE, EN(1, 2, NaN)),
    ROW(RI, FR_ENONFINITE, SC(2, NaN)),
    ROW(RI, FR_ENONFINITE, EN(2, 2, -Inf), EN(1, 0, -1)),
    ROW(RI, FR_EDOM, EN(1, 0, -0.0)),
    ROW(RI, FR_EDOM, SC(2, 1)),
    ROW(RI, FR_EDOM, SZ(1, 101)),
    ROW(RI, FR_EDOM, SZ(3, 1025)),
    ROW(RI, FR_OK),
    ROW(RR, FR_ENULL, NUL(0)),
    ROW(RR, FR_ENULL, FLAG(1)),
    ROW(RR, FR_ENULL, NUL(1)),
    ROW(RR, FR_ENULL, NUL(2), SZ(0, 0)),                  /* ENULL before ESIZE */
    REF_ROW(RR, FR_ENULL, NULS(2)),
    ROW(RR, FR_ESIZE, SZ(0, 0)),
    ROW(RR, FR_ESIZE, SZ(0, ((size_t)1 << 40) + 1)),
    ROW(RR, FR_ESIZE, SZ(2, 0)),
    ROW(RR, FR_ESIZE, U(4)),                              /* first = T + 1 */
    ROW(RR, FR_ESIZE, U(4), EN(1, 0, NaN)),               /* ESIZE before ENONFINITE */
    ROW(RR, FR_ENONFINITE, EN(1, 2, NaN)),                /* the last round */
    ROW(RR, FR_ENONFINITE, EN(2, 0, Inf)),
    ROW(RR, FR_ENONFINITE, SC(2, NaN)),
    ROW(RR, FR_ENONFINITE, EN(2, 2, -Inf), EN(1, 0, -1)), /* ENONFINITE before EDOM */
    ROW(RR, FR_EDOM, EN(1, 2, 0)),
    ROW(RR, FR_EDOM, EN(1, 0, -0.0)),
    ROW(RR, FR_EDOM, EN(2, 2, -0x1p-1074)),
    ROW(RR, FR_EDOM, SC(2, 0)),
    ROW(RR, FR_EDOM, SC(2, 1)),
    ROW(RR, FR_EDOM, SZ(1, 0)),
    ROW(RR, FR_EDOM, SZ(1, 101)),
    ROW(RR, FR_EDOM, SZ(3, 1)),
    ROW(RR, FR_EDOM, SZ(3, 1025)),
    ROW(GE, FR_ENULL, NUL(0)),
    REF_ROW(GE, FR_ENULL, NULS(0)),
    REF_ROW(GE, FR_ENULL, NULS(1)),
    REF_ROW(GE, FR_ENULL, NULS(2)),
    ROW(GE, FR_ENULL, NUL(0), SC(0, NaN)),           /* class order: NULL first */
    ROW(GE, FR_ENONFINITE, SC(0, NaN)),
    ROW(GE, FR_ENONFINITE, SC(0, Inf)),
    ROW(GE, FR_ENONFINITE, SC(1, -Inf)),
    ROW(GE, FR_ENONFINITE, SC(2, NaN)),
    ROW(GE, FR_ENONFINITE, SC(2, NaN), SC(0, -1)),    /* non-finite before domain */
    ROW(GE, FR_EDOM, SC(0, 0)),
    ROW(GE, FR_EDOM, SC(0, -0.0)),
    ROW(GE, FR_EDOM, SC(0, -1)),
    ROW(GE, FR_EDOM, SC(1, -0x1p-1074)),
    ROW(GE, FR_EDOM, SC(2, 0)),
    ROW(GE, FR_EDOM, SC(2, 1)),
    ROW(GE, FR_EDOM, SC(2, -1e-5)),
    /* extreme valid inputs: FR_OK in both (ref once FR_EINTERNAL) */
    ROW(GE, FR_OK, SC(0, 0x1p-1074)),                 /* ref 2.0e646, fast +Inf */
    ROW(GE, FR_OK, SC(1, DBL_MAX)),
    ROW(GE, FR_OK, SC(0, 0x1p-1074), SC(1, DBL_MAX)),
    ROW(GE, FR_OK, SC(0, 0x1p-30)),                   /* s/sigma = 2^30 */
    ROW(GE, FR_OK, SC(2, 0x1p-1074)),
    ROW(GE, FR_OK, SC(2, 0x1.fffffffffffffp-1)),      /* delta = 1 - 2^-53 */

    ROW(CO, FR_ENULL, NUL(0)),
    ROW(CO, FR_ENULL, NUL(1)),
    REF_ROW(CO, FR_ENULL, NULS(0)),
    REF_ROW(CO, FR_ENULL, NULS(1)),
    REF_ROW(CO, FR_ENULL, NULS(2)),
    ROW(CO, FR_ENULL, NUL(1), SZ(0, 0)),
    ROW(CO, FR_ESIZE, SZ(0, 0)),
    ROW(CO, FR_ESIZE, SZ(0, ((size_t)1 << 40) + 1)),
    ROW(CO, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(CO, FR_ENONFINITE, SC(1, NaN)),
    ROW(CO, FR_ENONFINITE, SC(2, Inf), SC(0, -1)),
    ROW(CO, FR_EDOM, SC(0, -1)),
    ROW(CO, FR_EDOM, SC(2, 1)),
    ROW(CO, FR_EDOM, ALIAS(1, 0)),
    ROW(CO, FR_OK, SC(0, 0x1p-1074)),
    ROW(CO, FR_OK, SC(1, DBL_MAX)),
    ROW(CO, FR_OK, SC(0, 0x1p-30), SZ(0, (size_t)1 << 40)),

    ROW(RD, FR_ENULL, NUL(0)),
    ROW(RD, FR_ENULL, FLAG(1)),
    REF_ROW(RD, FR_ENULL, NULS(0)),
    REF_ROW(RD, FR_ENULL, NULS(1)),
    REF_ROW(RD, FR_ENULL, NULS(2)),
    ROW(RD, FR_ENULL, FLAG(1), SZ(2, 0)),
    ROW(RD, FR_ESIZE, SZ(2, 0)),
    ROW(RD, FR_ESIZE, SZ(0, 0)),
    ROW(RD, FR_ESIZE, SZ(0, ((size_t)1 << 40) + 1)),
    ROW(RD, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(RD, FR_ENONFINITE, SC(0, Inf)),
    ROW(RD, FR_ENONFINITE, SC(1, NaN), SZ(1, 0)),
    ROW(RD, FR_EDOM, SZ(1, 0)),
    ROW(RD, FR_EDOM, SZ(1, 101)),
    ROW(RD, FR_EDOM, SZ(3, 1)),
    ROW(RD, FR_EDOM, SZ(3, 1025)),
    ROW(RD, FR_EDOM, SC(2, 0)),
    ROW(RD, FR_EDOM, SC(0, 0)),

    ROW(RO, FR_ENULL, NUL(0)),
    REF_ROW(RO, FR_ENULL, NULS(0)),
    REF_ROW(RO, FR_ENULL, NULS(1)),
    ROW(RO, FR_ENULL, NUL(0), SZ(2, 0)),
    ROW(RO, FR_ESIZE, SZ(2, 0)),
    ROW(RO, FR_ESIZE, SZ(2, 0), SC(0, NaN)),
    ROW(RO, FR_ENONFINITE, SC(0, NaN)),
    ROW(RO, FR_ENONFINITE, SC(1, Inf), SZ(3, 0)),
    ROW(RO, FR_EDOM, SC(0, 0)),
    ROW(RO, FR_EDOM, SC(1, -1)),
    ROW(RO, FR_EDOM, SZ(1, 0)),
    ROW(RO, FR_EDOM, SZ(1, 101)),
    ROW(RO, FR_EDOM, SZ(3, 1)),
    ROW(RO, FR_EDOM, SZ(3, 1025)),

    ROW(TH, FR_ENULL, NUL(0)),
    REF_ROW(TH, FR_ENULL, NULS(0)),
    REF_ROW(TH, FR_ENULL, NULS(1)),
    REF_ROW(TH, FR_ENULL, NULS(2)),
    ROW(TH, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(TH, FR_ESIZE, SZ(0, 0)),
    ROW(TH, FR_ESIZE, SZ(2, 0)),
    ROW(TH, FR_ESIZE, SZ(2, 0), SC(2, NaN)),
    ROW(TH, FR_ENONFINITE, SC(0, Inf)),
    ROW(TH, FR_ENONFINITE, SC(1, NaN)),
    ROW(TH, FR_ENONFINITE, SC(2, -Inf), SZ(1, 0)),
    ROW(TH, FR_EDOM, SC(0, 0)),
    ROW(TH, FR_EDOM, SC(1, -0.0)),
    ROW(TH, FR_EDOM, SC(2, 0)),
    ROW(TH, FR_EDOM, SC(2, 1)),                       /* q = 1: (20) undefined */
    ROW(TH, FR_EDOM, SZ(1, 0)),
    ROW(TH, FR_EDOM, SZ(1, 101)),
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

Suite *suite_status_fedpdm_acct(void)
{
    Suite *s = suite_create("status_fedpdm_acct");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    suite_add_tcase(s, tc);
    return s;
}
