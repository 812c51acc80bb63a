/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_surrogate.c -- one error semantics for the surrogate
 * recursions of module ssca and the message counts: the same bad input
 * gives the same status in ref and fast (and in each ff_*_bound), with
 * every argument untouched (fedref_common.h, "Error semantics"; the
 * engine: tests/status_engine.h).  The in-place arrays (x, f1, f0, w, v)
 * are passed as input slots: the engine checks them bit for bit.  Each
 * bound's own output is slot 5 (momentum: 4 and 5); its NULL and overlap
 * rows are those of the bound alone.  The client sizes N_i are this file's
 * state (SX), edited by NSET/NNULL. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_ssca_surrogate(void);

#define NaN NAN
#define Inf INFINITY
#define HUGE_EXP 30000000              /* 2^(3e7): an exact intermediate of > 2^24 bits */

/* ---- the client sizes --------------------------------------------------- */

typedef struct {
    size_t N[4];
    int Nnull;
} sx_t;
static sx_t SX;

enum { XN_NULL, XN_SET };
#define NNULL {E_X, XN_NULL, 0, 0, 0}
#define NSET(j, n) {E_X, XN_SET, j, 0, n}

static void sx_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    (void)c; (void)v;
    if (what == XN_NULL) SX.Nnull = 1;
    else SX.N[j] = z;
}

static const size_t *NI(void) { return SX.Nnull ? NULL : SX.N; }

static void base_sx(st_case *c)
{
    memset(&SX, 0, sizeof SX);
    SX.N[0] = 3;
    SX.N[1] = 5;
    c->x = &SX;
    c->xedit = sx_edit;
}

/* ---- ema(x = s0, y = s1, n = z0, rho = c0); bound out s5 ------------------ */
static void b_ema(st_case *c)
{
    st_in(c, 0, 3, (const double[]){0.5, -1, 2});
    st_in(c, 1, 3, (const double[]){1, 0.25, -3});
    st_out(c, 5, 3);
    c->z[0] = 3;
    c->s[0] = 0.5;
}
static int r_ema(st_case *c, st_ref *r) { return fr_ssca_ema(r->v[0], r->v[1], c->z[0], r->s[0]); }
static int f_ema(st_case *c, st_fast *f) { return ff_ssca_ema(f->v[0], f->v[1], c->z[0], c->s[0]); }
static int fb_ema(st_case *c, st_fast *f) { return ff_ssca_ema_bound(f->v[5], f->v[0], f->v[1], c->z[0], c->s[0]); }
static const st_fn EMA = {"fr_ssca_ema / ff_ssca_ema", b_ema, r_ema, f_ema, NULL, fb_ema};
static const st_fn EMAB = {"ff_ssca_ema_bound", b_ema, NULL, fb_ema, NULL, NULL};

/* ---- update(w = s0, wbar = s1, d = z0, gamma = c0); bound out s5 ---------- */
static int r_upd(st_case *c, st_ref *r) { return fr_ssca_update(r->v[0], r->v[1], c->z[0], r->s[0]); }
static int f_upd(st_case *c, st_fast *f) { return ff_ssca_update(f->v[0], f->v[1], c->z[0], c->s[0]); }
static int fb_upd(st_case *c, st_fast *f)
{
    return ff_ssca_update_bound(f->v[5], f->v[0], f->v[1], c->z[0], c->s[0]);
}
static const st_fn UPD = {"fr_ssca_update / ff_ssca_update", b_ema, r_upd, f_upd, NULL, fb_upd};
static const st_fn UPDB = {"ff_ssca_update_bound", b_ema, NULL, fb_upd, NULL, NULL};

/* ---- lin(f1 = s0, w = s1, G = s2, N, nc = z0, d = z1, B = z2, rho = c0,
 *      tau = c1); bound out s5 --------------------------------------------- */
static void b_lin(st_case *c)
{
    base_sx(c);
    st_in(c, 0, 3, (const double[]){0.5, -1, 2});
    st_in(c, 1, 3, (const double[]){1, 0.25, -3});
    st_in(c, 2, 6, (const double[]){1, 2, -3, 0.5, 0.25, -1});
    st_in(c, 3, 2, (const double[]){4, -2});          /* F (const only) */
    st_out(c, 5, 3);
    c->z[0] = 2;
    c->z[1] = 3;
    c->z[2] = 2;
    c->s[0] = 0.5;
    c->s[1] = 0.25;
}
static int r_lin(st_case *c, st_ref *r)
{
    return fr_ssca_lin(r->v[0], r->v[1], r->v[2], NI(), c->z[0], c->z[1], c->z[2], r->s[0], r->s[1]);
}
static int f_lin(st_case *c, st_fast *f)
{
    return ff_ssca_lin(f->v[0], f->v[1], f->v[2], NI(), c->z[0], c->z[1], c->z[2], c->s[0], c->s[1]);
}
static int fb_lin(st_case *c, st_fast *f)
{
    return ff_ssca_lin_bound(f->v[5], f->v[0], f->v[1], f->v[2], NI(), c->z[0], c->z[1], c->z[2], c->s[0],
                             c->s[1]);
}
static const st_fn LIN = {"fr_ssca_lin / ff_ssca_lin", b_lin, r_lin, f_lin, NULL, fb_lin};
static const st_fn LINB = {"ff_ssca_lin_bound", b_lin, NULL, fb_lin, NULL, NULL};

/* ---- const(f0 = s4[0], w = s1, G = s2, F = s3, N, nc, d, B, rho, tau);
 *      bound out s5[0] -------------------------------------------------------- */
static void b_const(st_case *c)
{
    b_lin(c);
    st_in(c, 4, 1, (const double[]){0.75});
}
static int r_const(st_case *c, st_ref *r)
{
    return fr_ssca_const(st_one(r, 4), r->v[1], r->v[2], r->v[3], NI(), c->z[0], c->z[1], c->z[2], r->s[0],
                         r->s[1]);
}
static int f_const(st_case *c, st_fast *f)
{
    return ff_ssca_const(f->v[4], f->v[1], f->v[2], f->v[3], NI(), c->z[0], c->z[1], c->z[2], c->s[0], c->s[1]);
}
static int fb_const(st_case *c, st_fast *f)
{
    return ff_ssca_const_bound(f->v[5], f->v[4], f->v[1], f->v[2], f->v[3], NI(), c->z[0], c->z[1], c->z[2],
                               c->s[0], c->s[1]);
}
static const st_fn CONST = {"fr_ssca_const / ff_ssca_const", b_const, r_const, f_const, NULL, fb_const};
static const st_fn CONSTB = {"ff_ssca_const_bound", b_const, NULL, fb_const, NULL, NULL};

/* ---- argmin(wbar = s0 (output), f1 = s1, beta = s2, d = z0, lambda = c0,
 *      tau = c1, P = c2); the bound's output is wbar's slot ------------------ */
static void b_argmin(st_case *c)
{
    st_out(c, 0, 3);
    st_in(c, 1, 3, (const double[]){0.5, -1, 2});
    st_in(c, 2, 3, (const double[]){1, 0.25, -3});
    c->z[0] = 3;
    c->s[0] = 0.5;
    c->s[1] = 0.25;
    c->s[2] = 0.25;
}
static int r_argmin(st_case *c, st_ref *r)
{
    return fr_ssca_argmin(r->v[0], r->v[1], r->v[2], c->z[0], r->s[0], r->s[1], r->s[2]);
}
static int f_argmin(st_case *c, st_fast *f)
{
    return ff_ssca_argmin(f->v[0], f->v[1], f->v[2], c->z[0], c->s[0], c->s[1], c->s[2]);
}
static int fb_argmin(st_case *c, st_fast *f)
{
    return ff_ssca_argmin_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->s[0], c->s[1], c->s[2]);
}
static const st_fn ARGMIN = {"fr_ssca_argmin / ff_ssca_argmin", b_argmin, r_argmin, f_argmin, NULL, fb_argmin};

/* ---- momentum(v = s0, w = s1, G = s2, N, nc, d, B, rho = c0, gamma_prev =
 *      c1, gamma = c2, tau = c3); bound outs s4 (v), s5 (w) ------------------ */
static void b_mom(st_case *c)
{
    b_lin(c);
    st_out(c, 4, 3);
    c->s[1] = 0.5;
    c->s[2] = 0.25;
    c->s[3] = 0.125;
}
static int r_mom(st_case *c, st_ref *r)
{
    return fr_ssca_momentum(r->v[0], r->v[1], r->v[2], NI(), c->z[0], c->z[1], c->z[2], r->s[0], r->s[1],
                            r->s[2], r->s[3]);
}
static int f_mom(st_case *c, st_fast *f)
{
    return ff_ssca_momentum(f->v[0], f->v[1], f->v[2], NI(), c->z[0], c->z[1], c->z[2], c->s[0], c->s[1],
                            c->s[2], c->s[3]);
}
static int fb_mom(st_case *c, st_fast *f)
{
    return ff_ssca_momentum_bound(f->v[4], f->v[5], f->v[0], f->v[1], f->v[2], NI(), c->z[0], c->z[1],
                                  c->z[2], c->s[0], c->s[1], c->s[2], c->s[3]);
}
static const st_fn MOM = {"fr_ssca_momentum / ff_ssca_momentum", b_mom, r_mom, f_mom, NULL, fb_mom};
static const st_fn MOMB = {"ff_ssca_momentum_bound", b_mom, NULL, fb_mom, NULL, NULL};

/* ---- the message counts (spec): out (slot 0's NULL bit), sizes z[], M = u -- */
static void b_msgs(st_case *c)
{
    c->z[0] = 101632;
    c->z[1] = 9984;
    c->z[2] = 128;
    c->z[3] = 100;
    c->u = 1;
}
static int s_msgs_s(st_case *c)
{
    fr_ssca_sample_msgs m, keep;
    memset(&m, 0xa5, sizeof m);
    keep = m;
    int st = fr_ssca_msgs_sample(c->null & 1 ? NULL : &m, c->z[0], c->u);
    if (st != FR_OK && memcmp(&m, &keep, sizeof m) != 0)
        st_failf(c, "out written");
    return st;
}
static int s_msgs_f(st_case *c)
{
    fr_ssca_feature_msgs m, keep;
    memset(&m, 0xa5, sizeof m);
    keep = m;
    size_t d0 = c->z[0] == 0 ? 0 : 1280;               /* the d0 = 0 rows */
    int st = fr_ssca_msgs_feature(c->null & 1 ? NULL : &m, d0, c->z[1], c->z[2], c->z[3], c->u);
    if (st != FR_OK && memcmp(&m, &keep, sizeof m) != 0)
        st_failf(c, "out written");
    return st;
}
static const st_fn MSGS_S = {"fr_ssca_msgs_sample", b_msgs, NULL, NULL, s_msgs_s, NULL};
static const st_fn MSGS_F = {"fr_ssca_msgs_feature", b_msgs, NULL, NULL, s_msgs_f, NULL};

/* ---- the table ------------------------------------------------------------ */

/* The rows of the three message-taking functions (G = s2, N, nc z0, d z1,
 * B z2, rho c0, tau: c1 for lin/const, c3 for momentum). */
#define MSG_ROWS(F, TAU) \
    ROW(F, FR_ENULL, NUL(2)), \
    ROW(F, FR_ENULL, NNULL), \
    ROW(F, FR_ENULL, NNULL, SZ(0, 0)), \
    REF_ROW(F, FR_ENULL, NULS(0)), \
    REF_ROW(F, FR_ENULL, NULS(TAU), SZ(1, 0)), \
    ROW(F, FR_ESIZE, SZ(0, 0)), \
    ROW(F, FR_ESIZE, SZ(1, 0)), \
    ROW(F, FR_ESIZE, SZ(2, 0)), \
    ROW(F, FR_ESIZE, SZ(1, SIZE_MAX / 2)), \
    ROW(F, FR_ESIZE, NSET(0, FR_COUNT_MAX)), \
    ROW(F, FR_ESIZE, NSET(0, SIZE_MAX), NSET(1, 2)), \
    ROW(F, FR_ESIZE, SZ(2, 0), EN(2, 0, NaN)), \
    ROW(F, FR_ENONFINITE, SC(0, NaN)), \
    ROW(F, FR_ENONFINITE, SC(TAU, Inf)), \
    ROW(F, FR_ENONFINITE, EN(1, 2, -Inf)), \
    ROW(F, FR_ENONFINITE, EN(2, 5, NaN)), \
    ROW(F, FR_ENONFINITE, SC(0, 0), EN(2, 1, Inf)), \
    ROW(F, FR_ENONFINITE, NSET(1, 1), EN(1, 0, NaN)), \
    ROW(F, FR_EDOM, SC(0, 0)), \
    ROW(F, FR_EDOM, SC(0, 1.5)), \
    ROW(F, FR_EDOM, SC(0, -0.25)), \
    ROW(F, FR_EDOM, SC(TAU, 0)), \
    ROW(F, FR_EDOM, SC(TAU, -1)), \
    ROW(F, FR_EDOM, NSET(1, 1)), \
    ROW(F, FR_EDOM, NSET(0, 0)), \
    ROW(F, FR_EDOM, SZ(2, 4))

static const st_row ROWS[] = {
    /* ema: x s0, y s1 (NULL allowed), n z0, rho c0 */
    ROW(EMA, FR_ENULL, NUL(0)),
    ROW(EMA, FR_ENULL, NUL(0), SZ(0, 0), SC(0, NaN)),
    REF_ROW(EMA, FR_ENULL, NULS(0)),
    ROW(EMA, FR_ESIZE, SZ(0, 0)),
    ROW(EMA, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(EMA, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(EMA, FR_ENONFINITE, SC(0, NaN)),
    ROW(EMA, FR_ENONFINITE, SC(0, -Inf)),
    ROW(EMA, FR_ENONFINITE, EN(0, 1, Inf)),
    ROW(EMA, FR_ENONFINITE, EN(1, 2, NaN)),
    ROW(EMA, FR_ENONFINITE, SC(0, 2), EN(0, 0, NaN)),
    ROW(EMA, FR_EDOM, SC(0, 0)),
    ROW(EMA, FR_EDOM, SC(0, 1.25)),
    ROW(EMA, FR_EDOM, SC(0, -0.5)),
    ROW(EMA, FR_EDOM, NUL(1), EN(1, 0, NaN), SC(0, 0)),        /* y = NULL: y not read */
    ROW(EMA, FR_EDOM, ALIAS(1, 0), SC(0, 2)),                   /* y may be x */
    REF_ROW(EMA, FR_EPREC, SHIFT(0, HUGE_EXP)),                 /* exact (1 - rho) x + rho y too long */
    ROW(EMAB, FR_ENULL, NUL(5)),
    ROW(EMAB, FR_ENULL, NUL(5), SZ(0, 0)),
    /* update: w s0, wbar s1, d z0, gamma c0 */
    ROW(UPD, FR_ENULL, NUL(0)),
    ROW(UPD, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(UPD, FR_ENULL, NULS(0)),
    ROW(UPD, FR_ESIZE, SZ(0, 0)),
    ROW(UPD, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(UPD, FR_ENONFINITE, SC(0, Inf)),
    ROW(UPD, FR_ENONFINITE, EN(0, 2, NaN)),
    ROW(UPD, FR_ENONFINITE, EN(1, 0, -Inf)),
    ROW(UPD, FR_ENONFINITE, SC(0, 0), EN(1, 1, NaN)),
    ROW(UPD, FR_EDOM, SC(0, 0)),
    ROW(UPD, FR_EDOM, SC(0, 1.5)),
    REF_ROW(UPD, FR_EPREC, SHIFT(0, HUGE_EXP)),
    ROW(UPDB, FR_ENULL, NUL(5)),
    /* lin: f1 s0, w s1, G s2, N, nc z0, d z1, B z2, rho c0, tau c1 */
    ROW(LIN, FR_ENULL, NUL(0)),
    ROW(LIN, FR_ENULL, NUL(1), SZ(1, 0)),
    MSG_ROWS(LIN, 1),
    ROW(LIN, FR_ENONFINITE, EN(0, 1, NaN)),
    REF_ROW(LIN, FR_EPREC, SHIFT(0, HUGE_EXP)),                 /* exact numerator too long */
    ROW(LINB, FR_ENULL, NUL(5)),
    ROW(LINB, FR_ENULL, NUL(5), SZ(0, 0)),
    /* const: f0 s4, w s1, G s2, F s3, N, nc, d, B, rho c0, tau c1 */
    ROW(CONST, FR_ENULL, NUL(4)),
    ROW(CONST, FR_ENULL, NUL(3), SZ(0, 0)),
    MSG_ROWS(CONST, 1),
    ROW(CONST, FR_ENONFINITE, EN(4, 0, NaN)),
    ROW(CONST, FR_ENONFINITE, EN(3, 1, -Inf)),
    ROW(CONST, FR_ENONFINITE, SC(1, 0), EN(3, 0, NaN)),
    REF_ROW(CONST, FR_EPREC, SHIFT(4, HUGE_EXP)),
    ROW(CONSTB, FR_ENULL, NUL(5)),
    /* argmin: wbar s0, f1 s1, beta s2 (NULL allowed), d z0, lambda c0, tau c1, P c2 */
    ROW(ARGMIN, FR_ENULL, NUL(0)),
    ROW(ARGMIN, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(ARGMIN, FR_ENULL, NULS(0)),
    REF_ROW(ARGMIN, FR_ENULL, NULS(1)),
    REF_ROW(ARGMIN, FR_ENULL, NULS(2), SC(1, NaN)),
    ROW(ARGMIN, FR_ESIZE, SZ(0, 0)),
    ROW(ARGMIN, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(ARGMIN, FR_ESIZE, SZ(0, 0), SC(2, 2)),
    ROW(ARGMIN, FR_ENONFINITE, SC(0, NaN)),
    ROW(ARGMIN, FR_ENONFINITE, SC(1, Inf)),
    ROW(ARGMIN, FR_ENONFINITE, SC(2, NaN)),
    ROW(ARGMIN, FR_ENONFINITE, EN(1, 0, NaN)),
    ROW(ARGMIN, FR_ENONFINITE, EN(2, 2, -Inf)),
    ROW(ARGMIN, FR_ENONFINITE, SC(2, 1), EN(2, 0, NaN)),
    ROW(ARGMIN, FR_EDOM, SC(1, 0)),
    ROW(ARGMIN, FR_EDOM, SC(1, -0.5)),
    ROW(ARGMIN, FR_EDOM, SC(0, -1)),
    ROW(ARGMIN, FR_EDOM, SC(2, 1)),
    ROW(ARGMIN, FR_EDOM, SC(2, -0.25)),
    ROW(ARGMIN, FR_EDOM, NUL(2), EN(2, 0, NaN), SC(2, 1)),      /* beta = NULL: not read */
    ROW(ARGMIN, FR_EDOM, ALIAS(0, 1), SC(1, 0)),                /* wbar may be f1 */
    REF_ROW(ARGMIN, FR_EPREC, SHIFT(1, HUGE_EXP)),              /* exact f1 + 2 lambda beta too long */
    /* momentum: v s0, w s1, G s2, N, nc, d, B, rho c0, gamma_prev c1, gamma c2, tau c3 */
    ROW(MOM, FR_ENULL, NUL(0)),
    ROW(MOM, FR_ENULL, NUL(1), SZ(1, 0)),
    REF_ROW(MOM, FR_ENULL, NULS(1)),
    REF_ROW(MOM, FR_ENULL, NULS(2), SC(0, NaN)),
    MSG_ROWS(MOM, 3),
    ROW(MOM, FR_ENONFINITE, SC(1, NaN)),
    ROW(MOM, FR_ENONFINITE, SC(2, -Inf)),
    ROW(MOM, FR_ENONFINITE, EN(0, 2, NaN)),
    ROW(MOM, FR_EDOM, SC(1, -0.5)),
    ROW(MOM, FR_EDOM, SC(1, 1.5)),
    ROW(MOM, FR_EDOM, SC(2, 0)),
    ROW(MOM, FR_EDOM, SC(2, 2)),
    ROW(MOM, FR_EDOM, ALIAS(1, 0)),                             /* v and w overlap: two outputs */
    ROW(MOM, FR_ENONFINITE, ALIAS(1, 0), EN(2, 0, NaN)),
    REF_ROW(MOM, FR_EPREC, SHIFT(0, HUGE_EXP)),
    ROW(MOMB, FR_ENULL, NUL(4)),
    ROW(MOMB, FR_ENULL, NUL(5), SZ(0, 0)),
    ROW(MOMB, FR_EDOM, ALIAS(5, 4)),                            /* vb and wb overlap */
    ROW(MOMB, FR_ENONFINITE, ALIAS(5, 4), EN(1, 0, NaN)),
    /* the message counts: d z0, M u; feature: d_i z1, H z2, B z3 (d0 = 1280, or 0 when z0 = 0) */
    ROW(MSGS_S, FR_ENULL, NUL(0)),
    ROW(MSGS_S, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(MSGS_S, FR_ESIZE, SZ(0, 0)),
    ROW(MSGS_S, FR_ESIZE, SZ(0, SIZE_MAX)),                     /* d + 1 overflows (M = 1) */
    ROW(MSGS_S, FR_ESIZE, SZ(0, (size_t)1 << 33), U((size_t)1 << 31)),
    ROW(MSGS_F, FR_ENULL, NUL(0)),
    ROW(MSGS_F, FR_ENULL, NUL(0), SZ(1, 0)),
    ROW(MSGS_F, FR_ESIZE, SZ(0, 0)),
    ROW(MSGS_F, FR_ESIZE, SZ(1, 0)),
    ROW(MSGS_F, FR_ESIZE, SZ(2, 0)),
    ROW(MSGS_F, FR_ESIZE, SZ(3, 0)),
    ROW(MSGS_F, FR_ESIZE, SZ(2, (size_t)1 << 40), SZ(3, (size_t)1 << 24)),   /* (M + 1) H B */
    ROW(MSGS_F, FR_ESIZE, SZ(1, SIZE_MAX)),                     /* d0 + d_i */
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

Suite *suite_status_ssca_surrogate(void)
{
    Suite *s = suite_create("status_ssca_surrogate");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    suite_add_tcase(s, tc);
    return s;
}
