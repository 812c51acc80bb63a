/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_model.c -- one error semantics for the model of 003 Sec. V-A
 * (fr_pdm_loss / ff_pdm_loss / ff_pdm_loss_bound, fr_pdm_predict /
 * ff_pdm_predict): the same bad input gives the same status in ref and
 * fast, every output untouched (fedref_common.h "Error semantics"; the
 * engine: tests/status_engine.h).  Labels are slot 4 (binary64 integers,
 * converted by the adapters); the predictors' size_t outputs are the
 * adapters' own, checked by them. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_fedpdm_model(void);

#define NaN NAN
#define Inf INFINITY

#define SENT ((size_t)0xA5A5A5A5u)
static size_t ylab[ST_CAP];

static const size_t *labels(st_case *c, int isnull)
{
    if (isnull)
        return NULL;
    for (size_t t = 0; t < c->len[4]; t++)
        ylab[t] = (size_t)c->a[4][t];
    return ylab;
}

/* loss(f = slot 0, g = slot 1, X = slot 2 (m x n), A = slot 3 (b x n),
 * y = slot 4, beta = c0, m = z0, n = z1, b = z2) */
static void b_loss(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 6);
    st_in(c, 2, 6, (const double[]){0.5, -0.25, 1, 0, 2, -1});
    st_in(c, 3, 6, (const double[]){1, 0.5, -1, 0.25, 0.75, 2});
    st_in(c, 4, 2, (const double[]){1, 0});
    c->s[0] = 0.01;
    c->z[0] = 2;
    c->z[1] = 3;
    c->z[2] = 2;
}
static int r_loss(st_case *c, st_ref *r)
{
    return fr_pdm_loss(st_one(r, 0), r->v[1], r->v[2], c->z[0], c->z[1], r->v[3], labels(c, r->v[4] == NULL),
                       c->z[2], r->s[0]);
}
static int f_loss(st_case *c, st_fast *f)
{
    return ff_pdm_loss(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], f->v[3], labels(c, f->v[4] == NULL), c->z[2],
                       c->s[0]);
}
static int fb_loss(st_case *c, st_fast *f)
{
    return ff_pdm_loss_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->z[1], f->v[3], labels(c, f->v[4] == NULL),
                             c->z[2], c->s[0]);
}
static const st_fn LOSS = {"fr_pdm_loss / ff_pdm_loss", b_loss, r_loss, f_loss, NULL, fb_loss};

/* predict(pred = slot 0 (own size_t), correct = slot 1 (own), X = 2, A = 3,
 * y = 4, uncertain = slot 5 (own, fast)): slots 0, 1, 5 only say NULL or
 * not; the adapters check their own outputs. */
static void b_pred(st_case *c)
{
    b_loss(c);
    st_in(c, 0, 2, (const double[]){0, 0});
    st_in(c, 1, 1, (const double[]){0});
    st_in(c, 5, 1, (const double[]){0});
}
static int own_done(st_case *c, int st, const size_t *p, const size_t *q, const size_t *u)
{
    if (st != FR_OK && (p[0] != SENT || p[1] != SENT || q[0] != SENT || u[0] != SENT))
        st_failf(c, "an output was written on error");
    return st;
}
static int r_pred(st_case *c, st_ref *r)
{
    size_t p[2] = {SENT, SENT}, q = SENT, u = SENT;
    int st = fr_pdm_predict(r->v[0] ? p : NULL, r->v[1] ? &q : NULL, r->v[2], c->z[0], c->z[1], r->v[3],
                            labels(c, r->v[4] == NULL), c->z[2]);
    return own_done(c, st, p, &q, &u);
}
static int f_pred(st_case *c, st_fast *f)
{
    size_t p[2] = {SENT, SENT}, q = SENT, u = SENT;
    int st = ff_pdm_predict(f->v[0] ? p : NULL, f->v[1] ? &q : NULL, f->v[5] ? &u : NULL, f->v[2], c->z[0],
                            c->z[1], f->v[3], labels(c, f->v[4] == NULL), c->z[2]);
    return own_done(c, st, p, &q, &u);
}
static const st_fn PRED = {"fr_pdm_predict / ff_pdm_predict", b_pred, r_pred, f_pred, NULL, NULL};

/* ---- the problem, the objective, the synthetic generator ------------------
 * The problem is built by pb() from fixed arrays and the case's flag: 0
 * valid, else one bad field (the PB_* codes). */
enum { PB_OK, PB_NULL, PB_DNULL, PB_ANULL, PB_YNULL, PB_N0, PB_M0, PB_D0, PB_LABEL, PB_ANAN, PB_BNAN, PB_GINF,
       PB_BNEG, PB_GNEG, PB_LABEL_ANAN };
static size_t pd[2];
static double pA[3 * 2];
static size_t py[3];
static fr_pdm_problem PP;

static const fr_pdm_problem *pb(int code)
{
    static const double A0[6] = {1, 0.5, 1, -0.25, 1, 2};
    memcpy(pA, A0, sizeof A0);
    pd[0] = 1;
    pd[1] = 2;
    py[0] = 0;
    py[1] = 1;
    py[2] = 1;
    PP = (fr_pdm_problem){.N = 2, .m = 2, .n = 2, .d = pd, .A = pA, .y = py, .beta = 0.01, .gamma = 1e-4};
    switch (code) {
    case PB_NULL: return NULL;
    case PB_DNULL: PP.d = NULL; break;
    case PB_ANULL: PP.A = NULL; break;
    case PB_YNULL: PP.y = NULL; break;
    case PB_N0: PP.N = 0; break;
    case PB_M0: PP.m = 0; break;
    case PB_D0: pd[1] = 0; break;
    case PB_LABEL: py[2] = 2; break;
    case PB_ANAN: pA[5] = NAN; break;
    case PB_BNAN: PP.beta = NAN; break;
    case PB_GINF: PP.gamma = INFINITY; break;
    case PB_BNEG: PP.beta = -1; break;
    case PB_GNEG: PP.gamma = -0x1p-1074; break;
    case PB_LABEL_ANAN: py[0] = 5; pA[0] = NAN; break;
    default: break;
    }
    return &PP;
}

/* objective(F = slot 0, X = slot 1 (2 x 2)) */
static void b_obj(st_case *c)
{
    st_out(c, 0, 1);
    st_in(c, 1, 4, (const double[]){0.5, -1, 0.25, 2});
    c->flag = PB_OK;
}
static int r_obj(st_case *c, st_ref *r) { return fr_pdm_objective(st_one(r, 0), r->v[1], pb(c->flag)); }
static int f_obj(st_case *c, st_fast *f) { return ff_pdm_objective(f->v[0], f->v[1], pb(c->flag)); }
static int fb_obj(st_case *c, st_fast *f) { return ff_pdm_objective_bound(f->v[0], f->v[1], pb(c->flag)); }
static const st_fn OBJ = {"fr_pdm_objective / ff_pdm_objective", b_obj, r_obj, f_obj, NULL, fb_obj};

static int s_check(st_case *c) { return fr_pdm_problem_check(pb(c->flag)); }
static const st_fn PCHECK = {"fr_pdm_problem_check", b_obj, NULL, NULL, s_check, NULL};

/* the seal: fr_pdm_problem_seal's status (the check's); fr_pdm_problem_sealed
 * (no status) must then be 1 iff the seal succeeded, else FR_EINTERNAL */
static int s_seal(st_case *c)
{
    fr_pdm_problem *P = (fr_pdm_problem *)pb(c->flag);   /* pb's problem is the static PP */
    int st = fr_pdm_problem_seal(P);
    if (P != NULL && ((st == FR_OK) != (P->seal != 0) || fr_pdm_problem_sealed(P) != (st == FR_OK)))
        return FR_EINTERNAL;
    return st;
}
static const st_fn PSEAL = {"fr_pdm_problem_seal / fr_pdm_problem_sealed", b_obj, NULL, NULL, s_seal, NULL};

/* synth_sizes(seed 1, N = z0, dmin = z1, dmax = z2, d own; slot 0 NULL: d NULL) */
static void b_synth(st_case *c)
{
    st_in(c, 0, 1, (const double[]){0});
    c->z[0] = 2;
    c->z[1] = 1;
    c->z[2] = 3;
    c->z[3] = 2;                       /* synth_data: m */
    c->flag = 0;
}
static int s_sizes(st_case *c)
{
    size_t d[4] = {SENT, SENT, SENT, SENT};
    int st = fr_pdm_synth_sizes(1, c->z[0], c->z[1], c->z[2], c->null & 1 ? NULL : d);
    if (st != FR_OK && (d[0] != SENT || d[1] != SENT))
        st_failf(c, "d written on error");
    return st;
}
static const st_fn SIZES = {"fr_pdm_synth_sizes", b_synth, NULL, NULL, s_sizes, NULL};

/* synth_data(seed 1, N = z0, m = z3, n = z1 + 1, d = {1, z2}, A, y own;
 * flag 1: A and y overlap; slot 0 NULL: d NULL; flag 2: A NULL; 3: y NULL) */
static int s_data(st_case *c)
{
    size_t d[2] = {1, c->z[2]}, y[8];
    double A[64];
    for (size_t k = 0; k < 64; k++)
        A[k] = 7;
    for (size_t k = 0; k < 8; k++)
        y[k] = SENT;
    int st = fr_pdm_synth_data(1, c->z[0], c->z[3], c->z[1] + 1, c->null & 1 ? NULL : d,
                               c->flag == 2 ? NULL : A, c->flag == 3 ? NULL : c->flag == 1 ? (size_t *)(void *)A : y);
    if (st != FR_OK) {
        for (size_t k = 0; k < 64; k++)
            if (A[k] != 7)
                st_failf(c, "A written on error");
        for (size_t k = 0; k < 8; k++)
            if (y[k] != SENT)
                st_failf(c, "y written on error");
    }
    return st;
}
static const st_fn DATA = {"fr_pdm_synth_data", b_synth, NULL, NULL, s_data, NULL};

static const st_row ROWS[] = {
    ROW(OBJ, FR_ENULL, NUL(0)),
    ROW(OBJ, FR_ENULL, NUL(1)),
    REF_ROW(OBJ, FR_ENULL, NUL(0), FLAG(PB_ANAN)),
    ROW(OBJ, FR_ENULL, FLAG(PB_NULL)),
    ROW(OBJ, FR_ENULL, FLAG(PB_DNULL)),
    ROW(OBJ, FR_ENULL, FLAG(PB_ANULL)),
    ROW(OBJ, FR_ENULL, FLAG(PB_YNULL)),
    ROW(OBJ, FR_ESIZE, FLAG(PB_N0)),
    ROW(OBJ, FR_ESIZE, FLAG(PB_M0)),
    ROW(OBJ, FR_ESIZE, FLAG(PB_D0)),
    ROW(OBJ, FR_ESIZE, FLAG(PB_LABEL)),
    ROW(OBJ, FR_ESIZE, FLAG(PB_LABEL_ANAN)),        /* ESIZE before ENONFINITE */
    ROW(OBJ, FR_ENONFINITE, FLAG(PB_ANAN)),
    ROW(OBJ, FR_ENONFINITE, FLAG(PB_BNAN)),
    ROW(OBJ, FR_ENONFINITE, FLAG(PB_GINF)),
    ROW(OBJ, FR_ENONFINITE, EN(1, 3, Inf)),
    ROW(OBJ, FR_ENONFINITE, EN(1, 0, NaN), FLAG(PB_BNEG)), /* X's ENONFINITE before P's EDOM */
    ROW(OBJ, FR_EDOM, FLAG(PB_BNEG)),
    ROW(OBJ, FR_EDOM, FLAG(PB_GNEG)),
    ROW(PCHECK, FR_OK),
    ROW(PCHECK, FR_ENULL, FLAG(PB_NULL)),
    ROW(PCHECK, FR_ENULL, FLAG(PB_YNULL)),
    ROW(PCHECK, FR_ESIZE, FLAG(PB_N0)),
    ROW(PCHECK, FR_ESIZE, FLAG(PB_D0)),
    ROW(PCHECK, FR_ESIZE, FLAG(PB_LABEL)),
    ROW(PCHECK, FR_ENONFINITE, FLAG(PB_ANAN)),
    ROW(PCHECK, FR_EDOM, FLAG(PB_GNEG)),
    ROW(PSEAL, FR_OK),
    ROW(PSEAL, FR_ENULL, FLAG(PB_NULL)),
    ROW(PSEAL, FR_ENULL, FLAG(PB_DNULL)),
    ROW(PSEAL, FR_ESIZE, FLAG(PB_D0)),
    ROW(PSEAL, FR_ESIZE, FLAG(PB_LABEL)),
    ROW(PSEAL, FR_ESIZE, FLAG(PB_LABEL_ANAN)),
    ROW(PSEAL, FR_ENONFINITE, FLAG(PB_ANAN)),
    ROW(PSEAL, FR_ENONFINITE, FLAG(PB_BNAN)),
    ROW(PSEAL, FR_EDOM, FLAG(PB_BNEG)),
    ROW(SIZES, FR_ENULL, NUL(0)),
    ROW(SIZES, FR_ESIZE, SZ(0, 0)),
    ROW(SIZES, FR_EDOM, SZ(1, 0)),
    ROW(SIZES, FR_EDOM, SZ(1, 4)),
    ROW(DATA, FR_OK),
    ROW(DATA, FR_ENULL, NUL(0)),
    ROW(DATA, FR_ENULL, FLAG(2)),
    ROW(DATA, FR_ENULL, FLAG(3)),
    ROW(DATA, FR_ESIZE, SZ(0, 0)),
    ROW(DATA, FR_ESIZE, SZ(3, 0)),
    ROW(DATA, FR_ESIZE, SZ(3, 257)),
    ROW(DATA, FR_ESIZE, SZ(2, 0)),
    ROW(DATA, FR_EDOM, FLAG(1)),
    ROW(LOSS, FR_ENULL, NUL(0), NUL(1)),
    ROW(LOSS, FR_ENULL, NUL(2)),
    ROW(LOSS, FR_ENULL, NUL(3)),
    ROW(LOSS, FR_ENULL, NUL(4)),
    REF_ROW(LOSS, FR_ENULL, NULS(0)),
    ROW(LOSS, FR_ENULL, NUL(2), SZ(0, 0)),           /* ENULL before ESIZE */
    ROW(LOSS, FR_ESIZE, SZ(0, 0)),
    ROW(LOSS, FR_ESIZE, SZ(1, 0)),
    ROW(LOSS, FR_ESIZE, SZ(2, 0)),
    ROW(LOSS, FR_ESIZE, EN(4, 0, 2)),                /* label m: off by one */
    ROW(LOSS, FR_ESIZE, EN(4, 1, 2), EN(2, 0, NaN)), /* ESIZE before ENONFINITE */
    ROW(LOSS, FR_ENONFINITE, EN(2, 5, NaN)),
    ROW(LOSS, FR_ENONFINITE, EN(3, 0, Inf)),
    ROW(LOSS, FR_ENONFINITE, SC(0, Inf)),
    ROW(LOSS, FR_ENONFINITE, SC(0, -Inf)),
    ROW(LOSS, FR_ENONFINITE, SC(0, -1), EN(3, 1, -Inf)), /* ENONFINITE before EDOM */
    ROW(LOSS, FR_EDOM, SC(0, -1)),
    ROW(LOSS, FR_EDOM, SC(0, -0x1p-1074)),
    ROW(LOSS, FR_EDOM, ALIAS(0, 1)),                 /* f inside g */
    ROW(PRED, FR_OK),
    ROW(PRED, FR_ENULL, NUL(0), NUL(1), NUL(5)),
    REF_ROW(PRED, FR_ENULL, NUL(0), NUL(1)),         /* ref has no uncertain */
    ROW(PRED, FR_ENULL, NUL(2)),
    ROW(PRED, FR_ENULL, NUL(3)),
    ROW(PRED, FR_ENULL, NUL(4)),                     /* correct wants labels */
    ROW(PRED, FR_OK, NUL(4), NUL(1)),                /* no correct: y not needed */
    ROW(PRED, FR_ESIZE, SZ(0, 0)),
    ROW(PRED, FR_ESIZE, SZ(1, 0)),
    ROW(PRED, FR_ESIZE, SZ(2, 0)),
    ROW(PRED, FR_ESIZE, EN(4, 0, 2)),
    ROW(PRED, FR_ENONFINITE, EN(2, 0, NaN)),
    ROW(PRED, FR_ENONFINITE, EN(3, 5, -Inf)),
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

Suite *suite_status_fedpdm_model(void)
{
    Suite *s = suite_create("status_fedpdm_model");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    suite_add_tcase(s, tc);
    return s;
}
