/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_net.c -- one error semantics for the two-layer network of
 * 000 Sec. V (module ssca): the same bad input gives the same status in
 * ref and fast, with every output untouched (fedref_common.h, "Error
 * semantics"; the engine: tests/status_engine.h).  Rows for fr_/ff_
 * ssca_net, _net_partial, _net_top, _net_bottom, their ff_*_bound (run on
 * every row of their function, plus rows of their own: outside the proof)
 * and fr_ssca_net_dim.  The labels y (size_t) are this file's own state,
 * edited by X() edits.  After the table: fast's binary64 overflow after
 * the start (FR_ENONFINITE, outputs untouched; ref succeeds there). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_ssca_net(void);

#define NaN NAN
#define Inf INFINITY
#define BIGPREC ((size_t)FR_PREC_MAX + 1)
#define HUGE_EXP 30000000              /* 2^(3e7): an exact intermediate of > 2^24 bits */
#define BIGDIM (((size_t)1 << 22) + 1) /* beyond the bounds' proofs */

/* ---- the module state: the labels ---------------------------------------- */

typedef struct {
    size_t y[8];
    int ynull;
} lx_t;

static lx_t LX;

enum { XY, XY_NULL };

static void lx_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    lx_t *x = c->x;
    (void)z;
    switch (what) {
    case XY:      x->y[j] = (size_t)v; break;
    case XY_NULL: x->ynull = 1; break;
    default:      ck_abort_msg("unknown edit %d", what);
    }
}

static void base_lx(st_case *c)
{
    memset(&LX, 0, sizeof LX);
    LX.y[0] = 0;
    LX.y[1] = 1;
    LX.y[2] = 1;
    c->x = &LX;
    c->xedit = lx_edit;
}

static const size_t *Y(void) { return LX.ynull ? NULL : LX.y; }

/* ---- the functions: base case and one adapter per wing ------------------- */

/* net(f = s0, g = s1, w = s2, L = z0, J = z1, P = z2, Z = s3, y, nb = z3):
 * L = J = P = nb = 2, d = 8 */
static void b_net(st_case *c)
{
    base_lx(c);
    st_out(c, 0, 1);
    st_out(c, 1, 8);
    st_in(c, 2, 8, (const double[]){0.5, -0.25, 0.75, 1, 0.5, -1, 0.25, 0.125});
    st_in(c, 3, 4, (const double[]){1, -0.5, 0.25, 2});
    c->z[0] = c->z[1] = c->z[2] = c->z[3] = 2;
}
static int r_net(st_case *c, st_ref *r)
{
    return fr_ssca_net(st_one(r, 0), r->v[1], r->v[2], c->z[0], c->z[1], c->z[2], r->v[3], Y(), c->z[3]);
}
static int f_net(st_case *c, st_fast *f)
{
    return ff_ssca_net(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], c->z[2], f->v[3], Y(), c->z[3]);
}
static int fb_net(st_case *c, st_fast *f)
{
    return ff_ssca_net_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], c->z[2], f->v[3], Y(), c->z[3]);
}
static const st_fn NET = {"fr_ssca_net / ff_ssca_net", b_net, r_net, f_net, NULL, fb_net};
static const st_fn NETB = {"ff_ssca_net_bound", b_net, NULL, fb_net, NULL, NULL};
static const st_fn NETF = {"ff_ssca_net (overflow after the start)", b_net, NULL, f_net, NULL, NULL};

/* net_partial(h = s0, w1i = s1, Zi = s2, nb = z0, J = z1, Pi = z2):
 * nb = 2, J = 2, Pi = 3 */
static void b_part(st_case *c)
{
    st_out(c, 0, 4);
    st_in(c, 1, 6, (const double[]){0.5, -0.25, 0.75, 1, 0.5, -1});
    st_in(c, 2, 6, (const double[]){1, -0.5, 0.25, 2, 0.125, -1});
    c->z[0] = 2;
    c->z[1] = 2;
    c->z[2] = 3;
}
static int r_part(st_case *c, st_ref *r)
{
    return fr_ssca_net_partial(r->v[0], r->v[1], r->v[2], c->z[0], c->z[1], c->z[2]);
}
static int f_part(st_case *c, st_fast *f)
{
    return ff_ssca_net_partial(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], c->z[2]);
}
static int fb_part(st_case *c, st_fast *f)
{
    return ff_ssca_net_partial_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], c->z[2]);
}
static const st_fn PART = {"fr_ssca_net_partial / ff_ssca_net_partial", b_part, r_part, f_part, NULL, fb_part};
static const st_fn PARTB = {"ff_ssca_net_partial_bound", b_part, NULL, fb_part, NULL, NULL};
static const st_fn PARTF = {"ff_ssca_net_partial (overflow after the start)", b_part, NULL, f_part, NULL, NULL};

/* net_top(f = s0, A = s1, H = s2, nclients = u, w0 = s3, y, nb = z0, L = z1,
 * J = z2): I = 2, nb = 3, L = 2, J = 2 */
static void b_top(st_case *c)
{
    base_lx(c);
    st_out(c, 0, 1);
    st_out(c, 1, 4);
    st_in(c, 2, 12, (const double[]){1, -0.5, 0.25, 2, 0.5, 0.75, -1, 0.25, 0.5, -2, 1, 0.125});
    st_in(c, 3, 4, (const double[]){0.5, -1, 0.25, 0.75});
    c->u = 2;
    c->z[0] = 3;
    c->z[1] = 2;
    c->z[2] = 2;
}
static int r_top(st_case *c, st_ref *r)
{
    return fr_ssca_net_top(st_one(r, 0), r->v[1], r->v[2], c->u, r->v[3], Y(), c->z[0], c->z[1], c->z[2]);
}
static int f_top(st_case *c, st_fast *f)
{
    return ff_ssca_net_top(f->v[0], f->v[1], f->v[2], c->u, f->v[3], Y(), c->z[0], c->z[1], c->z[2]);
}
static int fb_top(st_case *c, st_fast *f)
{
    return ff_ssca_net_top_bound(f->v[0], f->v[1], f->v[2], c->u, f->v[3], Y(), c->z[0], c->z[1], c->z[2]);
}
static const st_fn TOP = {"fr_ssca_net_top / ff_ssca_net_top", b_top, r_top, f_top, NULL, fb_top};
static const st_fn TOPB = {"ff_ssca_net_top_bound", b_top, NULL, fb_top, NULL, NULL};
static const st_fn TOPF = {"ff_ssca_net_top (overflow after the start)", b_top, NULL, f_top, NULL, NULL};

/* net_bottom(Bi = s0, H = s1, nclients = u, w0 = s2, y, Zi = s3, nb = z0,
 * L = z1, J = z2, Pi = z3): as top, Pi = 2 */
static void b_bot(st_case *c)
{
    base_lx(c);
    st_out(c, 0, 4);
    st_in(c, 1, 12, (const double[]){1, -0.5, 0.25, 2, 0.5, 0.75, -1, 0.25, 0.5, -2, 1, 0.125});
    st_in(c, 2, 4, (const double[]){0.5, -1, 0.25, 0.75});
    st_in(c, 3, 6, (const double[]){1, 0.5, -0.25, 2, 0.75, -1});
    c->u = 2;
    c->z[0] = 3;
    c->z[1] = 2;
    c->z[2] = 2;
    c->z[3] = 2;
}
static int r_bot(st_case *c, st_ref *r)
{
    return fr_ssca_net_bottom(r->v[0], r->v[1], c->u, r->v[2], Y(), r->v[3], c->z[0], c->z[1], c->z[2],
                              c->z[3]);
}
static int f_bot(st_case *c, st_fast *f)
{
    return ff_ssca_net_bottom(f->v[0], f->v[1], c->u, f->v[2], Y(), f->v[3], c->z[0], c->z[1], c->z[2],
                              c->z[3]);
}
static int fb_bot(st_case *c, st_fast *f)
{
    return ff_ssca_net_bottom_bound(f->v[0], f->v[1], c->u, f->v[2], Y(), f->v[3], c->z[0], c->z[1],
                                    c->z[2], c->z[3]);
}
static const st_fn BOT = {"fr_ssca_net_bottom / ff_ssca_net_bottom", b_bot, r_bot, f_bot, NULL, fb_bot};
static const st_fn BOTB = {"ff_ssca_net_bottom_bound", b_bot, NULL, fb_bot, NULL, NULL};
static const st_fn BOTF = {"ff_ssca_net_bottom (overflow after the start)", b_bot, NULL, f_bot, NULL, NULL};

/* fr_ssca_net_dim(L = z0, J = z1, P = z2, d (slot 0's NULL bit; a size_t
 * the adapter checks)) */
static void b_dim(st_case *c)
{
    c->z[0] = 3;
    c->z[1] = 4;
    c->z[2] = 5;
}
static int s_dim(st_case *c)
{
    size_t d = 77;
    int st = fr_ssca_net_dim(c->z[0], c->z[1], c->z[2], c->null & 1 ? NULL : &d);
    if (st != FR_OK && d != 77)
        st_failf(c, "*d written");
    return st;
}
static const st_fn DIM = {"fr_ssca_net_dim", b_dim, NULL, NULL, s_dim, NULL};

#define FAST_ROW(fn_, expect_, ...) \
    {.fn = &(fn_), .expect = (expect_), .wings = ST_FAST, .e = {__VA_ARGS__}}

static const st_row ROWS[] = {
    /* net: f s0, g s1, w s2, Z s3, L z0, J z1, P z2, nb z3, y */
    ROW(NET, FR_ENULL, NUL(0), NUL(1)),                       /* f and g */
    ROW(NET, FR_ENULL, NUL(2)),
    ROW(NET, FR_ENULL, NUL(3), SZ(0, 0)),                     /* before the sizes */
    ROW(NET, FR_ENULL, X(XY_NULL, 0, 0), EN(2, 0, NaN)),
    ROW(NET, FR_ESIZE, SZ(0, 0)),
    ROW(NET, FR_ESIZE, SZ(1, 0)),
    ROW(NET, FR_ESIZE, SZ(2, 0)),
    ROW(NET, FR_ESIZE, SZ(3, 0)),
    ROW(NET, FR_ESIZE, SZ(1, SIZE_MAX)),                      /* d overflows */
    ROW(NET, FR_ESIZE, SZ(0, SIZE_MAX)),                      /* L + P overflows */
    ROW(NET, FR_ESIZE, SZ(3, FR_COUNT_MAX)),                  /* nb P overflows */
    ROW(NET, FR_ESIZE, SZ(3, 0), EN(2, 0, NaN), SZ(0, 1)),
    REF_ROW(NET, FR_EPREC, PREC(0, BIGPREC)),                 /* f's precision */
    REF_ROW(NET, FR_EPREC, PREC(1, BIGPREC), EN(3, 0, NaN)),  /* before FR_ENONFINITE */
    REF_ROW(NET, FR_ESIZE, PREC(1, BIGPREC), SZ(2, 0)),
    ROW(NET, FR_ENONFINITE, EN(2, 0, Inf)),                   /* omega_0 */
    ROW(NET, FR_ENONFINITE, EN(2, 7, NaN)),                   /* omega_1 */
    ROW(NET, FR_ENONFINITE, EN(3, 3, -Inf)),
    ROW(NET, FR_ENONFINITE, EN(3, 0, NaN), SZ(0, 1)),         /* before L = 1 */
    ROW(NET, FR_ENONFINITE, EN(2, 1, NaN), X(XY, 1, 5)),      /* before a bad label */
    ROW(NET, FR_EDOM, SZ(0, 1)),                              /* L = 1 */
    ROW(NET, FR_EDOM, X(XY, 1, 2)),                           /* label = L */
    ROW(NET, FR_EDOM, X(XY, 0, 1e6)),
    ROW(NET, FR_EDOM, ALIAS(0, 1)),                           /* f inside g */
    ROW(NET, FR_ENONFINITE, ALIAS(0, 1), EN(3, 0, NaN)),
    REF_ROW(NET, FR_EPREC, SHIFT(3, HUGE_EXP)),               /* exact u too long */
    REF_ROW(NET, FR_EDOM, SHIFT(3, HUGE_EXP), X(XY, 1, 2)),   /* arguments first */
    /* ff_ssca_net_bound outside its proof: a magnitude 2^1000 (sizes > 2^22:
     * tests/ssca/test_net.c, with arrays that large) */
    ROW(NETB, FR_EDOM, EN(2, 4, 0x1p600), EN(3, 0, 0x1p450)),   /* U overflows */
    ROW(NETB, FR_EDOM, EN(2, 0, 0x1p990)),                     /* o ~ 2^990 */
    ROW(NETB, FR_ENULL, NUL(0), NUL(1), SZ(3, BIGDIM)),
    ROW(NETB, FR_ENONFINITE, EN(2, 0, NaN), SZ(3, BIGDIM)),  /* the checks come first */
    /* partial: h s0, w1i s1, Zi s2, nb z0, J z1, Pi z2 */
    ROW(PART, FR_ENULL, NUL(0)),
    ROW(PART, FR_ENULL, NUL(1), SZ(0, 0)),
    ROW(PART, FR_ENULL, NUL(2)),
    ROW(PART, FR_ESIZE, SZ(0, 0)),
    ROW(PART, FR_ESIZE, SZ(1, 0)),
    ROW(PART, FR_ESIZE, SZ(2, 0)),
    ROW(PART, FR_ESIZE, SZ(2, SIZE_MAX)),
    ROW(PART, FR_ESIZE, SZ(0, FR_COUNT_MAX), EN(1, 0, NaN)),
    REF_ROW(PART, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(PART, FR_EPREC, PREC(0, BIGPREC), EN(2, 0, Inf)),
    ROW(PART, FR_ENONFINITE, EN(1, 5, NaN)),
    ROW(PART, FR_ENONFINITE, EN(2, 2, -Inf)),
    REF_ROW(PART, FR_EPREC, SHIFT(2, HUGE_EXP)),              /* an exact dot product too long */
    ROW(PARTB, FR_EDOM, EN(1, 0, 0x1p600), EN(2, 0, 0x1p500)),
    /* top: f s0, A s1, H s2, w0 s3, nclients u, nb z0, L z1, J z2, y */
    ROW(TOP, FR_ENULL, NUL(0), NUL(1)),
    ROW(TOP, FR_ENULL, NUL(2), U(0)),
    ROW(TOP, FR_ENULL, NUL(3)),
    ROW(TOP, FR_ENULL, X(XY_NULL, 0, 0), SZ(1, 1)),
    ROW(TOP, FR_ESIZE, U(0)),                                 /* no client */
    ROW(TOP, FR_ESIZE, SZ(0, 0)),
    ROW(TOP, FR_ESIZE, SZ(1, 0)),
    ROW(TOP, FR_ESIZE, SZ(2, 0)),
    ROW(TOP, FR_ESIZE, U(SIZE_MAX)),                          /* I nb J overflows */
    ROW(TOP, FR_ESIZE, SZ(1, FR_COUNT_MAX), EN(2, 0, NaN)),
    REF_ROW(TOP, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(TOP, FR_EPREC, PREC(1, BIGPREC), SZ(1, 1)),
    ROW(TOP, FR_ENONFINITE, EN(2, 11, NaN)),                  /* client 2's h */
    ROW(TOP, FR_ENONFINITE, EN(3, 0, Inf), SZ(1, 1)),
    ROW(TOP, FR_EDOM, SZ(1, 1)),                              /* L = 1 */
    ROW(TOP, FR_EDOM, X(XY, 2, 2)),
    ROW(TOP, FR_EDOM, ALIAS(0, 1)),                           /* f inside A */
    ROW(TOP, FR_ESIZE, ALIAS(0, 1), SZ(0, 0)),
    REF_ROW(TOP, FR_EPREC, SHIFT(2, HUGE_EXP)),               /* u = h_1 + h_2 too long */
    ROW(TOPB, FR_EDOM, EN(3, 0, 0x1p1000), EN(2, 0, 0x1p900)),
    /* bottom: Bi s0, H s1, w0 s2, Zi s3, nclients u, nb z0, L z1, J z2, Pi z3, y */
    ROW(BOT, FR_ENULL, NUL(0)),
    ROW(BOT, FR_ENULL, NUL(1)),
    ROW(BOT, FR_ENULL, NUL(2), U(0)),
    ROW(BOT, FR_ENULL, NUL(3)),
    ROW(BOT, FR_ENULL, X(XY_NULL, 0, 0)),
    ROW(BOT, FR_ESIZE, U(0)),
    ROW(BOT, FR_ESIZE, SZ(0, 0)),
    ROW(BOT, FR_ESIZE, SZ(3, 0)),                             /* Pi = 0 */
    ROW(BOT, FR_ESIZE, SZ(3, SIZE_MAX), EN(3, 0, NaN)),
    REF_ROW(BOT, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(BOT, FR_EPREC, PREC(0, BIGPREC), X(XY, 0, 7)),
    ROW(BOT, FR_ENONFINITE, EN(1, 3, Inf)),
    ROW(BOT, FR_ENONFINITE, EN(2, 2, NaN)),
    ROW(BOT, FR_ENONFINITE, EN(3, 5, -Inf), SZ(1, 1)),
    ROW(BOT, FR_EDOM, SZ(1, 1)),
    ROW(BOT, FR_EDOM, X(XY, 1, 2)),
    REF_ROW(BOT, FR_EPREC, SHIFT(1, HUGE_EXP)),
    ROW(BOTB, FR_EDOM, EN(2, 0, 0x1p1000), EN(1, 0, 0x1p900)),
    /* fr_ssca_net_dim: L z0, J z1, P z2, d (slot 0) */
    ROW(DIM, FR_ESIZE, SZ(0, 0)),
    ROW(DIM, FR_ESIZE, SZ(1, 0)),
    ROW(DIM, FR_ESIZE, SZ(2, 0), NUL(0)),
    ROW(DIM, FR_ESIZE, SZ(0, SIZE_MAX)),                      /* L + P overflows */
    ROW(DIM, FR_ESIZE, SZ(0, FR_COUNT_MAX - 4)),              /* L + P = FR_COUNT_MAX + 1 */
    ROW(DIM, FR_ESIZE, SZ(1, FR_COUNT_MAX / 8 + 1)),          /* J (L + P) overflows */
    /* fast only: binary64 overflow after the start (ref succeeds) */
    FAST_ROW(NETF, FR_ENONFINITE, EN(2, 4, 0x1p600), EN(3, 0, 0x1p500)),   /* U */
    FAST_ROW(NETF, FR_ENONFINITE, EN(2, 0, 0x1p1000), EN(2, 4, 0x1p100)),  /* O */
    FAST_ROW(PARTF, FR_ENONFINITE, EN(1, 0, 0x1p600), EN(2, 0, 0x1p500)),
    FAST_ROW(TOPF, FR_ENONFINITE, EN(2, 0, 0x1p1023), EN(2, 6, 0x1p1023)), /* h_1 + h_2 */
    FAST_ROW(BOTF, FR_ENONFINITE, EN(1, 0, 0x1p1023), EN(1, 6, 0x1p1023)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* fr_ssca_net_dim's values: d = J (L + P), d may be NULL, L = 1 is a size. */
START_TEST(dim_values)
{
    size_t d = 0;
    ck_assert_int_eq(fr_ssca_net_dim(3, 4, 5, &d), FR_OK);
    ck_assert_uint_eq(d, 32);
    ck_assert_int_eq(fr_ssca_net_dim(1, 1, 1, &d), FR_OK);
    ck_assert_uint_eq(d, 2);
    ck_assert_int_eq(fr_ssca_net_dim(10, 128, 784, NULL), FR_OK);
    ck_assert_int_eq(fr_ssca_net_dim(FR_COUNT_MAX / 2, 2, FR_COUNT_MAX / 2, &d), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_net_dim(FR_COUNT_MAX / 4, 2, FR_COUNT_MAX / 4, &d), FR_OK);
    ck_assert_uint_eq(d, 2 * (FR_COUNT_MAX / 4 + FR_COUNT_MAX / 4));
}
END_TEST

Suite *suite_status_ssca_net(void)
{
    Suite *s = suite_create("status_ssca_net");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, dim_values);
    suite_add_tcase(s, tc);
    return s;
}
