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
#define SENT ((size_t)0xA5A5A5A5u)
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

static const st_row ROWS[] = {
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
