/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_problem.c -- the status rows of module proxal's problems
 * (tests/status_engine.h): fr_proxal_problem_check (spec), fr_proxal_mi,
 * fr_proxal_mtot, fr_proxal_row_eq (values on bad problems),
 * fr_proxal_client_eval / ff_proxal_client_eval (both wings, same status,
 * outputs untouched), and the generators fr_proxal_gen_qp /
 * fr_proxal_gen_lg (outputs untouched on error). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_proxal_problem(void);

static const double NaN = NAN, Inf = INFINITY;

/* The module state: one problem of each kind (d = 2, n = 1), mutable. */
typedef struct {
    fr_proxal_problem P;
    int pnull;
    double A[4], b[2], C[8], e[4], X[10], r[2], lo[2], hi[2];
    size_t cnt[2];
    unsigned char y[5], grp[5];
} px_t;
static px_t PX;

static void px_base(int kind)
{
    px_t *x = &PX;
    memset(x, 0, sizeof *x);
    memcpy(x->A, (const double[]){2, 0.5, 0.5, 1}, sizeof x->A);
    memcpy(x->b, (const double[]){1, -1}, sizeof x->b);
    memcpy(x->C, (const double[]){1, 0, 0.5, -1, 2, 1, 0, 0.25}, sizeof x->C);
    memcpy(x->e, (const double[]){0.5, -0.5, 1, 0}, sizeof x->e);
    memcpy(x->X, (const double[]){1, 0.5, 1, -1, 1, 2, 1, 0, 1, -0.5}, sizeof x->X);
    memcpy(x->lo, (const double[]){-1, -1}, sizeof x->lo);
    memcpy(x->hi, (const double[]){1, 1}, sizeof x->hi);
    fr_proxal_problem *P = &x->P;
    P->kind = kind;
    P->n = 1;
    P->d = 2;
    P->h = FR_PROXAL_H_ZERO;
    P->lo = x->lo;
    P->hi = x->hi;
    if (kind == FR_PROXAL_QP) {
        P->mt = 2;
        P->A = x->A, P->b = x->b, P->C = x->C, P->e = x->e;
    } else if (kind == FR_PROXAL_NP) {
        x->cnt[0] = 0, x->cnt[1] = 3;
        memcpy(x->y, (const unsigned char[]){0, 1, 0}, 3);
        x->r[0] = 0.5;
        P->cnt = x->cnt, P->X = x->X, P->y = x->y, P->r = x->r;
    } else {
        x->cnt[0] = 2, x->cnt[1] = 3;
        memcpy(x->y, (const unsigned char[]){0, 1, 1, 0, 1}, 5);
        memcpy(x->grp, (const unsigned char[]){0, 1, 0, 1, 1}, 5);
        x->r[0] = 0.1, x->r[1] = 0.2;
        P->cnt = x->cnt, P->X = x->X, P->y = x->y, P->grp = x->grp, P->r = x->r;
    }
}

/* module edits X(what, j, v) / XZ(what, z) */
enum { XP_NULLP = 1, XP_KIND, XP_N, XP_D, XP_MT, XP_A, XP_X, XP_Y, XP_GRP, XP_R, XP_H, XP_GAMMA, XP_LO,
       XP_CNT, XP_NULLF, XP_C, XP_E, XP_B };
static void px_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    px_t *x = c->x;
    fr_proxal_problem *P = &x->P;
    switch (what) {
    case XP_NULLP: x->pnull = 1; break;
    case XP_KIND:  P->kind = (int)v; break;
    case XP_N:     P->n = z; break;
    case XP_D:     P->d = z; break;
    case XP_MT:    P->mt = z; break;
    case XP_A:     x->A[j] = v; break;
    case XP_X:     x->X[j] = v; break;
    case XP_Y:     x->y[j] = (unsigned char)v; break;
    case XP_GRP:   x->grp[j] = (unsigned char)v; break;
    case XP_R:     x->r[j] = v; break;
    case XP_H:     P->h = (int)v; break;
    case XP_GAMMA: P->gamma = v; break;
    case XP_LO:    x->lo[j] = v; break;
    case XP_CNT:   x->cnt[j] = z; break;
    case XP_C:     x->C[j] = v; break;
    case XP_E:     x->e[j] = v; break;
    case XP_B:     x->b[j] = v; break;
    case XP_NULLF:
        if (j == 0) P->A = NULL;
        if (j == 1) P->b = NULL;
        if (j == 2) P->C = NULL;
        if (j == 3) P->e = NULL;
        if (j == 4) P->cnt = NULL;
        if (j == 5) P->X = NULL;
        if (j == 6) P->y = NULL;
        if (j == 7) P->r = NULL;
        if (j == 8) P->grp = NULL;
        if (j == 9) P->lo = NULL;
        break;
    }
}
static const fr_proxal_problem *pp(st_case *c) { return ((px_t *)c->x)->pnull ? NULL : &((px_t *)c->x)->P; }

/* eval(w = slot 0, fi = 1, gi = 2, Hi = 3, ci = 4, Ji = 5, y = 6, Hy = 7), i = z0, kind = flag */
static void b_eval(st_case *c, int kind, size_t i)
{
    px_base(kind);
    c->x = &PX;
    c->xedit = px_edit;
    size_t m = fr_proxal_mi(&PX.P, i);
    st_in(c, 0, 2, (const double[]){0.5, -0.25});
    st_out(c, 1, 1);
    st_out(c, 2, 2);
    st_out(c, 3, 4);
    if (m > 0) {
        st_out(c, 4, m);
        st_out(c, 5, 2 * m);
        st_in(c, 6, m, (const double[]){0.5, -1});
    }
    st_out(c, 7, 4);
    c->z[0] = i;
}
static void b_qp(st_case *c) { b_eval(c, FR_PROXAL_QP, 1); }
static void b_np(st_case *c) { b_eval(c, FR_PROXAL_NP, 1); }
static void b_np0(st_case *c) { b_eval(c, FR_PROXAL_NP, 0); }
static void b_fair(st_case *c) { b_eval(c, FR_PROXAL_FAIR, 0); }
static int r_eval(st_case *c, st_ref *r)
{
    return fr_proxal_client_eval(pp(c), c->z[0], r->v[0], st_one(r, 1), r->v[2], r->v[3], r->v[4], r->v[5], r->v[6],
                                 r->v[7]);
}
static int f_eval(st_case *c, st_fast *f)
{
    return ff_proxal_client_eval(pp(c), c->z[0], f->v[0], f->v[1], f->v[2], f->v[3], f->v[4], f->v[5], f->v[6],
                                 f->v[7]);
}
/* the spec functions on the same problem (fr_proxal_mi etc. checked below);
 * every check row also seals a copy: fr_proxal_problem_seal gives the
 * check's status, seal = 0 on an error (a stale value cleared), nonzero and
 * fr_proxal_problem_sealed on FR_OK; then the check of the sealed copy */
static int s_check(st_case *c)
{
    const fr_proxal_problem *P = pp(c);
    int st = fr_proxal_problem_check(P);
    if (P == NULL) {
        ck_assert_int_eq(fr_proxal_problem_seal(NULL), FR_ENULL);
        ck_assert(!fr_proxal_problem_sealed(NULL));
        return st;
    }
    fr_proxal_problem Q = *P;
    Q.seal = 0x5eed;
    ck_assert_int_eq(fr_proxal_problem_seal(&Q), st);
    ck_assert(st == FR_OK ? Q.seal != 0 && fr_proxal_problem_sealed(&Q) : Q.seal == 0 && !fr_proxal_problem_sealed(&Q));
    ck_assert_int_eq(fr_proxal_problem_check(&Q), st);
    return st;
}

static const st_fn EQP = {"fr_proxal_client_eval / ff_proxal_client_eval (QP)", b_qp, r_eval, f_eval, NULL, NULL};
static const st_fn ENP = {"fr_proxal_client_eval / ff_proxal_client_eval (NP)", b_np, r_eval, f_eval, NULL, NULL};
static const st_fn ENP0 = {"fr_proxal_client_eval / ff_proxal_client_eval (NP, i = 0)", b_np0, r_eval, f_eval, NULL,
                           NULL};
static const st_fn EFAIR = {"fr_proxal_client_eval / ff_proxal_client_eval (FAIR)", b_fair, r_eval, f_eval, NULL,
                            NULL};
static const st_fn CQP = {"fr_proxal_problem_check (QP)", b_qp, NULL, NULL, s_check, NULL};
static const st_fn CNP = {"fr_proxal_problem_check (NP)", b_np, NULL, NULL, s_check, NULL};
static const st_fn CFAIR = {"fr_proxal_problem_check (FAIR)", b_fair, NULL, NULL, s_check, NULL};

static const st_row ROWS[] = {
    /* fr_proxal_problem_check */
    ROW(CQP, FR_OK, FLAG(0)),
    ROW(CNP, FR_OK, FLAG(0)),
    ROW(CFAIR, FR_OK, FLAG(0)),
    ROW(CQP, FR_ENULL, X(XP_NULLP, 0, 0)),
    ROW(CQP, FR_ENULL, X(XP_NULLF, 0, 0)),
    ROW(CQP, FR_ENULL, X(XP_NULLF, 3, 0), XZ(XP_N, 0)),           /* ENULL before ESIZE */
    ROW(CNP, FR_ENULL, X(XP_NULLF, 7, 0)),
    ROW(CFAIR, FR_ENULL, X(XP_NULLF, 8, 0), X(XP_X, 0, NaN)),     /* ... before ENONFINITE */
    ROW(CNP, FR_ENULL, X(XP_NULLF, 9, 0), X(XP_H, 0, FR_PROXAL_H_BOX)),
    ROW(CNP, FR_OK, X(XP_NULLF, 0, 0), X(XP_NULLF, 8, 0)),        /* QP arrays, grp unread for NP */
    ROW(CQP, FR_OK, X(XP_NULLF, 4, 0), X(XP_NULLF, 9, 0)),        /* NP arrays, lo unread (h = 0) */
    ROW(CQP, FR_ESIZE, XZ(XP_N, 0)),
    ROW(CQP, FR_ESIZE, XZ(XP_N, FR_PROXAL_N_MAX + 1)),
    ROW(CQP, FR_ESIZE, XZ(XP_D, 0)),
    ROW(CQP, FR_ESIZE, XZ(XP_D, FR_PROXAL_D_MAX + 1)),
    ROW(CQP, FR_ESIZE, XZ(XP_MT, 0)),
    ROW(CQP, FR_ESIZE, XZ(XP_MT, FR_PROXAL_D_MAX + 1), X(XP_A, 1, NaN)),   /* ESIZE before ENONFINITE */
    ROW(CNP, FR_ESIZE, XZ(XP_CNT, 1)),                            /* NP: cnt[0] != 0 */
    ROW(CNP, FR_ESIZE, {E_X, XP_CNT, 1, 0, (size_t)-1}),          /* sum cnt d too large */
    ROW(CQP, FR_ENONFINITE, X(XP_A, 3, Inf)),
    ROW(CQP, FR_ENONFINITE, X(XP_B, 1, NaN)),
    ROW(CQP, FR_ENONFINITE, X(XP_C, 7, NaN)),                     /* the server's block 0 and client's */
    ROW(CQP, FR_ENONFINITE, X(XP_E, 3, -Inf)),
    ROW(CNP, FR_ENONFINITE, X(XP_X, 5, NaN)),
    ROW(CNP, FR_ENONFINITE, X(XP_R, 0, Inf)),
    ROW(CFAIR, FR_ENONFINITE, X(XP_R, 1, NaN), X(XP_Y, 0, 2)),    /* ENONFINITE before EDOM */
    ROW(CQP, FR_ENONFINITE, X(XP_H, 0, FR_PROXAL_H_L1), X(XP_GAMMA, 0, NaN)),
    ROW(CQP, FR_OK, X(XP_GAMMA, 0, NaN)),                         /* gamma unread (h = 0) */
    ROW(CQP, FR_ENONFINITE, X(XP_H, 0, FR_PROXAL_H_BOX), X(XP_LO, 1, -Inf)),
    ROW(CQP, FR_EDOM, X(XP_KIND, 0, 4)),
    ROW(CQP, FR_EDOM, X(XP_KIND, 0, 0)),
    ROW(CQP, FR_EDOM, X(XP_H, 0, 3)),
    ROW(CQP, FR_EDOM, X(XP_H, 0, FR_PROXAL_H_L1), X(XP_GAMMA, 0, -0x1p-1074)),
    ROW(CQP, FR_OK, X(XP_H, 0, FR_PROXAL_H_L1), X(XP_GAMMA, 0, -0.0)),    /* -0 is 0 */
    ROW(CQP, FR_EDOM, X(XP_H, 0, FR_PROXAL_H_BOX), X(XP_LO, 0, 2)),
    ROW(CQP, FR_EDOM, X(XP_A, 1, 0x1.0000000000001p-1)),          /* A not symmetric by one ulp */
    ROW(CNP, FR_EDOM, X(XP_Y, 1, 2)),
    ROW(CNP, FR_EDOM, X(XP_Y, 1, 0)),                             /* client 1 without class 1 */
    ROW(CNP, FR_EDOM, X(XP_R, 0, -0x1p-1074)),
    ROW(CNP, FR_OK, X(XP_R, 0, -0.0)),
    ROW(CFAIR, FR_EDOM, X(XP_GRP, 4, 2)),
    ROW(CFAIR, FR_EDOM, X(XP_GRP, 1, 0)),                         /* the server without group 1 */
    ROW(CFAIR, FR_EDOM, X(XP_R, 0, -1)),
    ROW(CFAIR, FR_OK, X(XP_Y, 0, 1), X(XP_Y, 1, 1)),              /* FAIR needs groups, not classes */
    /* client evaluation, both wings */
    ROW(EQP, FR_ENULL, X(XP_NULLP, 0, 0)),
    ROW(EQP, FR_ENULL, NUL(0)),
    ROW(EQP, FR_ENULL, NUL(6)),                                   /* y when Hy */
    ROW(EQP, FR_ENULL, X(XP_NULLF, 1, 0), SZ(0, 5)),              /* the problem's ENULL before ESIZE */
    ROW(EQP, FR_ESIZE, NUL(6), SZ(0, 2)),                         /* i > n: m_i = 0, y not required */
    ROW(ENP, FR_ENULL, NUL(6), {E_X, XP_CNT, 1, 0, (size_t)-1}),  /* y required before the problem's ESIZE */
    ROW(ENP0, FR_EDOM, NUL(6), ALIAS(3, 7)),                      /* m_0 = 0: y unread */
    ROW(EQP, FR_EDOM, NUL(6), NUL(7), ALIAS(2, 3)),               /* Hy not wanted: y unread */
    ROW(EQP, FR_ESIZE, SZ(0, 2)),                                 /* i > n */
    ROW(EQP, FR_ESIZE, XZ(XP_D, 0)),
    ROW(EQP, FR_ESIZE, SZ(0, 2), EN(0, 0, NaN)),                  /* ESIZE before ENONFINITE */
    ROW(EQP, FR_ENONFINITE, EN(0, 1, NaN)),
    ROW(EQP, FR_ENONFINITE, EN(6, 1, Inf)),
    ROW(EQP, FR_ENONFINITE, X(XP_A, 0, Inf)),
    ROW(ENP, FR_ENONFINITE, EN(0, 0, -Inf), X(XP_Y, 0, 3)),       /* ENONFINITE before EDOM */
    ROW(EQP, FR_ENONFINITE, EN(0, 0, NaN), ALIAS(2, 3)),
    ROW(EQP, FR_EDOM, NUL(7), EN(6, 0, NaN), ALIAS(2, 3)),        /* y unread without Hy */
    ROW(EQP, FR_EDOM, X(XP_A, 2, 0.25)),
    ROW(EFAIR, FR_EDOM, X(XP_GRP, 0, 1)),
    ROW(ENP, FR_EDOM, X(XP_KIND, 0, 9)),
    ROW(EQP, FR_EDOM, ALIAS(3, 7)),                               /* Hi == Hy */
    ROW(EQP, FR_EDOM, ALIAS(2, 4)),                               /* gi == ci */
    ROW(EFAIR, FR_EDOM, ALIAS(5, 3)),
    ROW(ENP, FR_EDOM, NUL(1), NUL(2), NUL(3), ALIAS(5, 7)),       /* f, g, H optional */
    ROW(EFAIR, FR_EDOM, NUL(4), NUL(6), NUL(7), ALIAS(5, 3)),     /* c, y, Hy optional */
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* m_i, the total and the equality rows: exact counts, 0 on bad shapes. */
START_TEST(counts)
{
    px_base(FR_PROXAL_QP);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 0), 2);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 1), 2);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 2), 0);
    ck_assert_uint_eq(fr_proxal_mtot(&PX.P), 4);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 0, 1), 1);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 1, 2), 0);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 2, 0), 0);
    PX.P.mt = 0;
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 0), 0);
    ck_assert_uint_eq(fr_proxal_mtot(&PX.P), 0);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 0, 0), 0);
    px_base(FR_PROXAL_NP);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 0), 0);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 1), 1);
    ck_assert_uint_eq(fr_proxal_mtot(&PX.P), 1);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 1, 0), 0);
    px_base(FR_PROXAL_FAIR);
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 0), 2);
    ck_assert_uint_eq(fr_proxal_mtot(&PX.P), 4);
    ck_assert_int_eq(fr_proxal_row_eq(&PX.P, 0, 0), 0);
    PX.P.kind = 7;
    ck_assert_uint_eq(fr_proxal_mtot(&PX.P), 0);
    PX.P.kind = FR_PROXAL_FAIR;
    PX.P.n = 0;
    ck_assert_uint_eq(fr_proxal_mi(&PX.P, 0), 0);
    ck_assert_uint_eq(fr_proxal_mi(NULL, 0), 0);
    ck_assert_uint_eq(fr_proxal_mtot(NULL), 0);
    ck_assert_int_eq(fr_proxal_row_eq(NULL, 0, 0), 0);
}
END_TEST

/* The generators: class order, outputs untouched on error. */
#define SENTV 0x1.5a5ap+3
static int all_sent(const double *a, size_t k)
{
    for (size_t t = 0; t < k; t++)
        if (a[t] != SENTV)
            return 0;
    return 1;
}
START_TEST(gen_status)
{
    double A[8], b[4], C[12], e[6];
    for (int t = 0; t < 8; t++) A[t] = SENTV;
    for (int t = 0; t < 4; t++) b[t] = SENTV;
    for (int t = 0; t < 12; t++) C[t] = SENTV;
    for (int t = 0; t < 6; t++) e[t] = SENTV;
    ck_assert_int_eq(fr_proxal_gen_qp(NULL, b, C, e, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_qp(A, NULL, C, e, 0, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, NULL, e, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, NULL, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 0, 2, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, FR_PROXAL_N_MAX + 1, 2, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, 0, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, FR_PROXAL_D_MAX + 1, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, 2, 0, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, 2, FR_PROXAL_D_MAX + 1, 1), FR_ESIZE);
    ck_assert(all_sent(A, 8) && all_sent(b, 4) && all_sent(C, 12) && all_sent(e, 6));
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, 2, 2, 1), FR_OK);

    size_t cnt[3] = {7, 7, 7};
    double X[12];
    unsigned char y[6] = {9, 9, 9, 9, 9, 9}, g[6] = {9, 9, 9, 9, 9, 9};
    for (int t = 0; t < 12; t++) X[t] = SENTV;
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, NULL, X, y, NULL, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, NULL, y, NULL, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, NULL, NULL, 0, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_FAIR, cnt, X, y, NULL, 1, 2, 2, 1), FR_ENULL);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, 0, 2, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, 1, 0, 2, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, 1, 2, 1, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, 1, 2, FR_PROXAL_S_MAX + 1, 1), FR_ESIZE);
    ck_assert_int_eq(fr_proxal_gen_lg(9, cnt, X, y, g, 1, 2, 1, 1), FR_ESIZE);   /* ESIZE before EDOM */
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_QP, cnt, X, y, g, 1, 2, 2, 1), FR_EDOM);
    ck_assert(all_sent(X, 12) && cnt[0] == 7 && cnt[2] == 7 && y[0] == 9 && g[0] == 9);
    ck_assert_int_eq(fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, 1, 2, 2, 1), FR_OK);
    ck_assert(g[0] == 9);                             /* grp untouched for NP */
}
END_TEST

Suite *suite_status_proxal_problem(void)
{
    Suite *s = suite_create("status_proxal_problem");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, counts);
    tcase_add_test(tc, gen_status);
    suite_add_tcase(s, tc);
    return s;
}
