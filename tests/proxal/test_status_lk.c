/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_lk.c -- the status rows of module proxal's proximal AL
 * subproblem (tests/status_engine.h): fr_/ff_ proxal_lk, _pik,
 * _mu_update and _pk_fsum; every class in class order, outputs untouched
 * on error, the same status in ref and fast.  The problem is the module
 * state (edits: NULL problem, NULL data, n = 0, d = 0, a NaN datum, an
 * unknown kind, h != 0). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../status_engine.h"
#include "lk_fixtures.h"

Suite *suite_status_proxal_lk(void);

static const double NaN = NAN, Inf = INFINITY;

typedef struct {
    fr_proxal_problem P;
    double A[4];
    int pnull;
} px_t;
static px_t PX;

enum { XP_NULL, XP_ANULL, XP_N, XP_D, XP_ANAN, XP_KIND, XP_H, XP_FNULL, XP_CTXNULL };
static int FNULL, CTXNULL;

static void px_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    px_t *x = c->x;
    switch (what) {
    case XP_NULL:    x->pnull = 1; break;
    case XP_ANULL:   x->P.A = NULL; x->P.cnt = NULL; break;
    case XP_N:       x->P.n = z; break;
    case XP_D:       x->P.d = z; break;
    case XP_ANAN:    x->A[j] = v; break;
    case XP_KIND:    x->P.kind = (int)v; break;
    case XP_H:       x->P.h = (int)v; break;
    case XP_FNULL:   FNULL = 1; break;
    case XP_CTXNULL: CTXNULL = 1; break;
    default:         ck_abort_msg("unknown edit %d", what);
    }
}

static void base_qp(st_case *c)
{
    memset(&PX, 0, sizeof PX);
    FNULL = CTXNULL = 0;
    PX.P = lk_hand_qp();
    memcpy(PX.A, LKH_A, sizeof PX.A);
    PX.P.A = PX.A;
    c->x = &PX;
    c->xedit = px_edit;
}
static void base_fair(st_case *c)
{
    memset(&PX, 0, sizeof PX);
    FNULL = CTXNULL = 0;
    PX.P = lk_kink_fair();
    c->x = &PX;
    c->xedit = px_edit;
}
static const fr_proxal_problem *PP(void) { return PX.pnull ? NULL : &PX.P; }

/* slots: val 0 (1), g 1 (d), w 2 (d), wk 3 (d), mu 4 (mtot), H 5 (d d),
 * mu_next 6 (mtot); scalar 0 = beta; z0 = i (pik) */
static void b_qp(st_case *c)
{
    base_qp(c);
    st_out(c, 0, 1);
    st_out(c, 1, 2);
    st_in(c, 2, 2, (const double[]){1, 2});
    st_in(c, 3, 2, (const double[]){0, 1});
    st_in(c, 4, 2, (const double[]){0.5, -1});
    st_out(c, 5, 4);
    st_out(c, 6, 2);
    c->s[0] = 0.5;
    c->z[0] = 1;
}
static void b_fair(st_case *c)
{
    base_fair(c);
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    st_in(c, 2, 1, (const double[]){0});
    st_in(c, 3, 1, (const double[]){0.25});
    st_in(c, 4, 4, (const double[]){0, 0.5, 1, 0});
    st_out(c, 5, 1);
    st_out(c, 6, 4);
    c->s[0] = 1;
    c->z[0] = 0;
}

static int r_lk(st_case *c, st_ref *r)
{
    (void)c;
    return fr_proxal_lk(st_one(r, 0), r->v[1], PP(), r->v[2], r->v[3], r->v[4], r->s[0]);
}
static int f_lk(st_case *c, st_fast *f)
{
    return ff_proxal_lk(f->v[0], f->v[1], PP(), f->v[2], f->v[3], f->v[4], c->s[0]);
}
static int r_pik(st_case *c, st_ref *r)
{
    return fr_proxal_pik(st_one(r, 0), r->v[1], r->v[5], PP(), c->z[0], r->v[2], r->v[3], r->v[4], r->s[0]);
}
static int f_pik(st_case *c, st_fast *f)
{
    return ff_proxal_pik(f->v[0], f->v[1], f->v[5], PP(), c->z[0], f->v[2], f->v[3], f->v[4], c->s[0]);
}
static int r_mu(st_case *c, st_ref *r)
{
    (void)c;
    return fr_proxal_mu_update(r->v[6], PP(), r->v[2], r->v[4], r->s[0]);
}
static int f_mu(st_case *c, st_fast *f)
{
    return ff_proxal_mu_update(f->v[6], PP(), f->v[2], f->v[4], c->s[0]);
}
/* pk_fsum: F and ctx are the adapter's own outputs (sentinel bytes) */
static int r_fsum(st_case *c, st_ref *r)
{
    fr_proxal_fsum F, F0;
    fr_proxal_pk_ctx X, X0;
    memset(&F, 0xA5, sizeof F);
    memset(&X, 0x5A, sizeof X);
    F0 = F;
    X0 = X;
    int st = fr_proxal_pk_fsum(FNULL ? NULL : &F, CTXNULL ? NULL : &X, PP(), r->v[3], r->v[4], r->s[0]);
    if (st != FR_OK && (memcmp(&F, &F0, sizeof F) || memcmp(&X, &X0, sizeof X)))
        st_failf(c, "fr_proxal_pk_fsum wrote F or ctx on error");
    return st;
}
static int f_fsum(st_case *c, st_fast *f)
{
    ff_proxal_fsum F, F0;
    ff_proxal_pk_ctx X, X0;
    memset(&F, 0xA5, sizeof F);
    memset(&X, 0x5A, sizeof X);
    F0 = F;
    X0 = X;
    int st = ff_proxal_pk_fsum(FNULL ? NULL : &F, CTXNULL ? NULL : &X, PP(), f->v[3], f->v[4], c->s[0]);
    if (st != FR_OK && (memcmp(&F, &F0, sizeof F) || memcmp(&X, &X0, sizeof X)))
        st_failf(c, "ff_proxal_pk_fsum wrote F or ctx on error");
    return st;
}

static const st_fn LK = {"fr_proxal_lk / ff_proxal_lk (QP)", b_qp, r_lk, f_lk, NULL, NULL};
static const st_fn LKF = {"fr_proxal_lk / ff_proxal_lk (FAIR)", b_fair, r_lk, f_lk, NULL, NULL};
static const st_fn PIK = {"fr_proxal_pik / ff_proxal_pik (QP)", b_qp, r_pik, f_pik, NULL, NULL};
static const st_fn PIKF = {"fr_proxal_pik / ff_proxal_pik (FAIR)", b_fair, r_pik, f_pik, NULL, NULL};
static const st_fn MU = {"fr_proxal_mu_update / ff_proxal_mu_update (QP)", b_qp, r_mu, f_mu, NULL, NULL};
static const st_fn MUF = {"fr_proxal_mu_update / ff_proxal_mu_update (FAIR)", b_fair, r_mu, f_mu, NULL, NULL};
static const st_fn FS = {"fr_proxal_pk_fsum / ff_proxal_pk_fsum (QP)", b_qp, r_fsum, f_fsum, NULL, NULL};
static const st_fn FSF = {"fr_proxal_pk_fsum / ff_proxal_pk_fsum (FAIR)", b_fair, r_fsum, f_fsum, NULL, NULL};

static const st_row ROWS[] = {
    /* FR_ENULL */
    ROW(LK, FR_ENULL, X(XP_NULL, 0, 0)),
    ROW(LK, FR_ENULL, NUL(2)),
    ROW(LK, FR_ENULL, NUL(3)),
    ROW(LK, FR_ENULL, NUL(4)),
    REF_ROW(LK, FR_ENULL, NULS(0)),
    ROW(LK, FR_ENULL, X(XP_ANULL, 0, 0)),
    ROW(LKF, FR_ENULL, X(XP_ANULL, 0, 0)),
    ROW(PIK, FR_ENULL, NUL(2)),
    ROW(PIK, FR_ENULL, X(XP_NULL, 0, 0), SZ(0, 7)),       /* ENULL before ESIZE */
    ROW(PIKF, FR_ENULL, NUL(4), EN(2, 0, NaN)),           /* ... before ENONFINITE */
    ROW(MU, FR_ENULL, NUL(6)),
    ROW(MU, FR_ENULL, NUL(2)),
    ROW(MUF, FR_ENULL, NUL(4), SC(0, -1)),                /* ... before EDOM */
    ROW(FS, FR_ENULL, X(XP_FNULL, 0, 0)),
    ROW(FS, FR_ENULL, X(XP_CTXNULL, 0, 0)),
    ROW(FS, FR_ENULL, NUL(3)),
    REF_ROW(FS, FR_ENULL, NULS(0)),
    /* FR_ESIZE */
    ROW(LK, FR_ESIZE, XZ(XP_N, 0)),
    ROW(LK, FR_ESIZE, XZ(XP_D, 0)),
    ROW(LKF, FR_ESIZE, XZ(XP_N, FR_PROXAL_N_MAX + 1)),
    ROW(PIK, FR_ESIZE, SZ(0, 2)),                         /* i > n */
    ROW(PIKF, FR_ESIZE, SZ(0, 2), EN(2, 0, NaN)),         /* ESIZE before ENONFINITE */
    ROW(MU, FR_ESIZE, XZ(XP_N, 0), SC(0, 0)),             /* ... before EDOM */
    ROW(FSF, FR_ESIZE, XZ(XP_D, 0)),
    /* FR_ENONFINITE */
    ROW(LK, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(LK, FR_ENONFINITE, EN(3, 0, Inf)),
    ROW(LK, FR_ENONFINITE, EN(4, 1, -Inf)),
    ROW(LK, FR_ENONFINITE, SC(0, NaN)),
    ROW(LK, FR_ENONFINITE, X(XP_ANAN, 3, NaN)),
    ROW(PIK, FR_ENONFINITE, X(XP_ANAN, 0, Inf)),
    ROW(PIKF, FR_ENONFINITE, EN(4, 3, NaN)),
    ROW(MU, FR_ENONFINITE, SC(0, Inf)),
    ROW(MUF, FR_ENONFINITE, EN(2, 0, Inf), EN(4, 0, -1)), /* ENONFINITE before EDOM */
    ROW(FS, FR_ENONFINITE, EN(3, 0, NaN)),
    ROW(FSF, FR_ENONFINITE, EN(4, 0, NaN), X(XP_H, 0, FR_PROXAL_H_L1)),
    /* FR_EDOM */
    ROW(LK, FR_EDOM, SC(0, 0)),
    ROW(LK, FR_EDOM, SC(0, -0.0)),
    ROW(LK, FR_EDOM, SC(0, -2)),
    ROW(LK, FR_EDOM, X(XP_H, 0, FR_PROXAL_H_L1)),
    ROW(LK, FR_EDOM, X(XP_KIND, 0, 9)),
    ROW(LK, FR_EDOM, X(XP_ANAN, 1, 0.5)),                 /* A not symmetric */
    ROW(LKF, FR_EDOM, EN(4, 1, -0.5)),                    /* a negative inequality multiplier */
    ROW(LK, FR_EDOM, ALIAS(0, 1)),                        /* val inside g */
    ROW(PIK, FR_EDOM, ALIAS(1, 5)),                       /* g inside H */
    ROW(PIK, FR_EDOM, ALIAS(0, 5)),                       /* val inside H */
    ROW(PIKF, FR_EDOM, EN(4, 0, -0x1p-1074)),
    ROW(PIKF, FR_EDOM, X(XP_H, 0, FR_PROXAL_H_L1)),
    ROW(MU, FR_EDOM, SC(0, -1)),
    ROW(MUF, FR_EDOM, EN(4, 2, -1)),
    ROW(FS, FR_EDOM, SC(0, 0)),
    ROW(FSF, FR_EDOM, EN(4, 3, -1)),
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

Suite *suite_status_proxal_lk(void)
{
    Suite *s = suite_create("status_proxal_lk");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    suite_add_tcase(s, tc);
    return s;
}
