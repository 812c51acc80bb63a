/* SPDX-License-Identifier: Apache-2.0 */
/* test_status.c -- one error semantics, module core: the same bad input
 * gives the same status in ref and fast, with every output untouched
 * (fedref_common.h, "Error semantics"; the engine: tests/status_engine.h).
 *
 * One row per bad input: {function, edits of its valid base case,
 * expected status, wings}.  Every public function of the module and of
 * the shared generator has rows (ci/check-status-coverage.sh checks it):
 * NULL pointers (also with a size 0), zero and overflowing sizes, NaN and
 * +-Inf in each kind of argument, out-of-domain parameters, two outputs
 * that alias, several bad arguments at once (class order ENULL, ESIZE,
 * EPREC, ENONFINITE, EDOM) and, ref only, FR_EPREC and NULL mpfr_t
 * scalars.  The functions without a status are checked at the end. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_core(void);

#define NaN NAN
#define Inf INFINITY
#define BIGPREC ((size_t)FR_PREC_MAX + 1)

/* ---- the functions: base case and one adapter per wing ------------------ *
 * Slots (s), scalars (c) and sizes (z) of each call are named in the
 * comment above its base case. */

/* soft(out = s0, t = s1, n = z0, a = c0) */
static void b_soft(st_case *c)
{
    st_out(c, 0, 3);
    st_in(c, 1, 3, (const double[]){1.5, -0.25, 3});
    c->z[0] = 3;
    c->s[0] = 0.5;
}
static int r_soft(st_case *c, st_ref *r) { return fr_soft(r->v[0], r->v[1], c->z[0], r->s[0]); }
static int f_soft(st_case *c, st_fast *f) { return ff_soft(f->v[0], f->v[1], c->z[0], c->s[0]); }
static int fb_soft(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_soft_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), f->v[1], c->z[0], c->s[0]));
}
static const st_fn SOFT = {"fr_soft / ff_soft", b_soft, r_soft, f_soft, NULL, fb_soft};

/* prox_l1(x = s0, u = s1, n = z0, gamma = c0, rho = c1) */
static void b_prox(st_case *c)
{
    b_soft(c);
    c->s[1] = 2;
}
static int r_prox(st_case *c, st_ref *r)
{
    return fr_prox_l1(r->v[0], r->v[1], c->z[0], r->s[0], r->s[1]);
}
static int f_prox(st_case *c, st_fast *f)
{
    return ff_prox_l1(f->v[0], f->v[1], c->z[0], c->s[0], c->s[1]);
}
static int fb_prox(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_prox_l1_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), f->v[1], c->z[0],
                                                c->s[0], c->s[1]));
}
static const st_fn PROX = {"fr_prox_l1 / ff_prox_l1", b_prox, r_prox, f_prox, NULL, fb_prox};

/* median(med = s0, W = s1, m = z0, n = z1); ens adds lambda = c0, eta = c1 */
static void b_median(st_case *c)
{
    st_out(c, 0, 2);
    st_in(c, 1, 6, (const double[]){1, -2, 0.5, 4, -3, 8});
    c->z[0] = 3;
    c->z[1] = 2;
    c->s[0] = 0.25;
    c->s[1] = 1;
}
static int r_median(st_case *c, st_ref *r) { return fr_median(r->v[0], r->v[1], c->z[0], c->z[1]); }
static int f_median(st_case *c, st_fast *f) { return ff_median(f->v[0], f->v[1], c->z[0], c->z[1]); }
static int fb_median(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_median_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), f->v[1], c->z[0], c->z[1]));
}
static const st_fn MEDIAN = {"fr_median / ff_median", b_median, r_median, f_median, NULL, fb_median};

static int r_ens(st_case *c, st_ref *r)
{
    return fr_ens(r->v[0], r->v[1], c->z[0], c->z[1], r->s[0], r->s[1]);
}
static int f_ens(st_case *c, st_fast *f)
{
    return ff_ens(f->v[0], f->v[1], c->z[0], c->z[1], c->s[0], c->s[1]);
}
static int fb_ens(st_case *c, st_fast *f)
{
    return ff_ens_bound(f->v[0], f->v[1], c->z[0], c->z[1], c->s[0], c->s[1]);
}
static const st_fn ENS = {"fr_ens / ff_ens", b_median, r_ens, f_ens, NULL, fb_ens};

static int r_ens_printed(st_case *c, st_ref *r)
{
    return fr_ens_as_printed(r->v[0], r->v[1], c->z[0], c->z[1], r->s[0], r->s[1]);
}
static const st_fn ENSP = {"fr_ens_as_printed (ref only)", b_median, r_ens_printed, NULL, NULL, NULL};

/* ens on a wider W (m = 2, n = 10): fast tests W block by block (8
 * columns) while it computes, so a bad entry in the second block must
 * still leave w untouched. */
static void b_ens_wide(st_case *c)
{
    double W[20];
    for (int k = 0; k < 20; k++)
        W[k] = (double)(k % 7) - 3;
    st_out(c, 0, 10);
    st_in(c, 1, 20, W);
    c->z[0] = 2;
    c->z[1] = 10;
    c->s[0] = 0.25;
    c->s[1] = 1;
}
static const st_fn ENSW = {"fr_ens / ff_ens (n = 10)", b_ens_wide, r_ens, f_ens, NULL, fb_ens};

/* rng_uniform(u = s0, g); rng_laplace(x = s0, g, b = c0);
 * rng_gaussian2(z0 = s0, z1 = s1, g) */
static void b_rng(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    c->s[0] = 1.5;
}
static int r_unif(st_case *c, st_ref *r) { (void)c; return fr_rng_uniform(st_one(r, 0), r->g); }
static int f_unif(st_case *c, st_fast *f) { (void)c; return ff_rng_uniform(f->v[0], f->g); }
static const st_fn UNIF = {"fr_rng_uniform / ff_rng_uniform", b_rng, r_unif, f_unif, NULL, NULL};

static int r_lap(st_case *c, st_ref *r) { (void)c; return fr_rng_laplace(st_one(r, 0), r->g, r->s[0]); }
static int f_lap(st_case *c, st_fast *f) { return ff_rng_laplace(f->v[0], f->g, c->s[0]); }
static const st_fn LAP = {"fr_rng_laplace / ff_rng_laplace", b_rng, r_lap, f_lap, NULL, NULL};

static int r_gauss(st_case *c, st_ref *r)
{
    (void)c;
    return fr_rng_gaussian2(st_one(r, 0), st_one(r, 1), r->g);
}
static int f_gauss(st_case *c, st_fast *f) { (void)c; return ff_rng_gaussian2(f->v[0], f->v[1], f->g); }
static const st_fn GAUSS = {"fr_rng_gaussian2 / ff_rng_gaussian2", b_rng, r_gauss, f_gauss, NULL, NULL};

/* The draws' bounds take the parameter (laplace: rel = s0, abs = s1, b = c0)
 * or the returned pair (gaussian2: abs = s0, z0 = c1, z1 = c2), not the
 * generator: rows of their own. */
static int f_lapb(st_case *c, st_fast *f)
{
    return ff_rng_laplace_bound(f->v[0], f->v[1], c->s[0]);
}
static const st_fn LAPB = {"ff_rng_laplace_bound", b_rng, NULL, f_lapb, NULL, NULL};
static int f_gaussb(st_case *c, st_fast *f) { return ff_rng_gaussian2_bound(f->v[0], c->s[1], c->s[2]); }
static const st_fn GAUSSB = {"ff_rng_gaussian2_bound", b_rng, NULL, f_gaussb, NULL, NULL};

/* shared: frng_below(g, n = z0, out = slot 0); frng_sample(g, n = z0,
 * k = z1, out = slot 0).  The adapters check that out and g are untouched. */
static void b_draw(st_case *c)
{
    c->z[0] = 5;
    c->z[1] = 3;
}
static int s_below(st_case *c)
{
    frng_t g = c->g;
    uint64_t out = 0xfeed;
    int st = frng_below(c->gnull ? NULL : &g, c->z[0], c->null & 1 ? NULL : &out);
    if (out != 0xfeed || memcmp(&g, &c->g, sizeof g) != 0)
        st_failf(c, "frng_below wrote an output");
    return st;
}
static const st_fn BELOW = {"frng_below (shared)", b_draw, NULL, NULL, s_below, NULL};

static int s_sample(st_case *c)
{
    frng_t g = c->g;
    size_t out[8], keep[8];
    memset(out, 0xa5, sizeof out);
    memcpy(keep, out, sizeof out);
    int st = frng_sample(c->gnull ? NULL : &g, c->z[0], c->z[1], c->null & 1 ? NULL : out);
    if (memcmp(out, keep, sizeof out) != 0 || memcmp(&g, &c->g, sizeof g) != 0)
        st_failf(c, "frng_sample wrote an output");
    return st;
}
static const st_fn SAMPLE = {"frng_sample (shared)", b_draw, NULL, NULL, s_sample, NULL};

/* ---- the table ------------------------------------------------------------ */

static const st_row ROWS[] = {
    /* soft: out s0, t s1, n z0, a c0 */
    ROW(SOFT, FR_ENULL, NUL(0)),
    ROW(SOFT, FR_ENULL, NUL(1)),
    REF_ROW(SOFT, FR_ENULL, NULS(0)),
    ROW(SOFT, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(SOFT, FR_ENULL, NULS(0), SZ(0, 0)),
    ROW(SOFT, FR_ESIZE, SZ(0, 0)),
    ROW(SOFT, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(SOFT, FR_ESIZE, SZ(0, FR_COUNT_MAX + 1)),
    ROW(SOFT, FR_ENONFINITE, SC(0, NaN)),
    ROW(SOFT, FR_ENONFINITE, SC(0, Inf)),
    ROW(SOFT, FR_ENONFINITE, SC(0, -Inf)),
    ROW(SOFT, FR_ENONFINITE, EN(1, 2, NaN)),
    ROW(SOFT, FR_ENONFINITE, EN(1, 0, -Inf)),
    ROW(SOFT, FR_EDOM, SC(0, -1)),
    ROW(SOFT, FR_ENONFINITE, SC(0, -1), EN(1, 1, NaN)),
    ROW(SOFT, FR_ESIZE, SC(0, NaN), SZ(0, 0)),
    ROW(SOFT, FR_ENULL, NUL(0), SC(0, -1), SZ(0, SIZE_MAX), EN(1, 0, Inf)),
    /* prox_l1: x s0, u s1, n z0, gamma c0, rho c1 */
    ROW(PROX, FR_ENULL, NUL(0)),
    ROW(PROX, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(PROX, FR_ENULL, NULS(0)),
    REF_ROW(PROX, FR_ENULL, NULS(1), SC(0, NaN)),
    ROW(PROX, FR_ESIZE, SZ(0, 0)),
    ROW(PROX, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(PROX, FR_ENONFINITE, SC(0, NaN)),
    ROW(PROX, FR_ENONFINITE, SC(1, Inf)),
    ROW(PROX, FR_ENONFINITE, SC(1, -Inf)),
    ROW(PROX, FR_ENONFINITE, EN(1, 1, NaN)),
    ROW(PROX, FR_EDOM, SC(0, -1)),
    ROW(PROX, FR_EDOM, SC(1, 0)),
    ROW(PROX, FR_EDOM, SC(1, -2)),
    ROW(PROX, FR_ENONFINITE, SC(1, 0), EN(1, 0, Inf)),
    ROW(PROX, FR_ENONFINITE, SC(0, -1), SC(1, NaN)),
    ROW(PROX, FR_ESIZE, SZ(0, 0), SC(0, NaN), SC(1, -1)),
    /* median: med s0, W s1, m z0, n z1 */
    ROW(MEDIAN, FR_ENULL, NUL(0)),
    ROW(MEDIAN, FR_ENULL, NUL(1)),
    ROW(MEDIAN, FR_ENULL, NUL(1), SZ(0, 0), SZ(1, 1)),       /* median(out, NULL, 0, 1) */
    ROW(MEDIAN, FR_ESIZE, SZ(0, 0)),
    ROW(MEDIAN, FR_ESIZE, SZ(1, 0)),
    ROW(MEDIAN, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(MEDIAN, FR_ESIZE, SZ(1, SIZE_MAX)),
    ROW(MEDIAN, FR_ESIZE, SZ(0, FR_COUNT_MAX / 2 + 1)),        /* m n > FR_COUNT_MAX */
    ROW(MEDIAN, FR_ENONFINITE, EN(1, 5, NaN)),
    ROW(MEDIAN, FR_ENONFINITE, EN(1, 0, -Inf)),
    ROW(MEDIAN, FR_ESIZE, EN(1, 0, NaN), SZ(1, 0)),
    /* ens: w s0, W s1, m z0, n z1, lambda c0, eta c1 */
    ROW(ENS, FR_ENULL, NUL(0)),
    ROW(ENS, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(ENS, FR_ENULL, NULS(0)),
    REF_ROW(ENS, FR_ENULL, NULS(1), SZ(0, SIZE_MAX)),
    ROW(ENS, FR_ESIZE, SZ(0, 0)),
    ROW(ENS, FR_ESIZE, SZ(1, 0)),
    ROW(ENS, FR_ESIZE, SZ(0, SIZE_MAX)),                      /* a huge m */
    ROW(ENS, FR_ESIZE, SZ(0, FR_COUNT_MAX / 2 + 1)),
    ROW(ENS, FR_ESIZE, SZ(1, SIZE_MAX)),
    ROW(ENS, FR_ENONFINITE, SC(0, NaN)),
    ROW(ENS, FR_ENONFINITE, SC(1, Inf)),
    ROW(ENS, FR_ENONFINITE, SC(0, -Inf)),
    ROW(ENS, FR_ENONFINITE, EN(1, 3, NaN)),
    ROW(ENS, FR_ENONFINITE, EN(1, 0, Inf)),
    ROW(ENS, FR_EDOM, SC(0, 0)),
    ROW(ENS, FR_EDOM, SC(1, -1)),
    ROW(ENS, FR_ENONFINITE, SC(0, 0), EN(1, 0, NaN)),
    ROW(ENS, FR_ESIZE, SC(0, NaN), SZ(0, SIZE_MAX)),
    ROW(ENS, FR_ENULL, NUL(1), SZ(0, SIZE_MAX), SC(1, 0)),
    ROW(ENSW, FR_ENONFINITE, EN(1, 19, NaN)),                  /* the second block */
    ROW(ENSW, FR_ENONFINITE, EN(1, 8, -Inf)),
    ROW(ENSW, FR_ENONFINITE, EN(1, 19, Inf), SC(1, 0)),
    ROW(ENSW, FR_EDOM, SC(0, -1)),
    /* ens_as_printed (ref only): the same arguments */
    REF_ROW(ENSP, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(ENSP, FR_ENULL, NULS(0)),
    REF_ROW(ENSP, FR_ESIZE, SZ(0, SIZE_MAX)),
    REF_ROW(ENSP, FR_ESIZE, SZ(1, 0)),
    REF_ROW(ENSP, FR_ENONFINITE, EN(1, 2, Inf)),
    REF_ROW(ENSP, FR_ENONFINITE, SC(1, NaN)),
    REF_ROW(ENSP, FR_EDOM, SC(1, 0)),
    REF_ROW(ENSP, FR_ENONFINITE, SC(0, -1), EN(1, 0, NaN)),
    /* rng_uniform: u s0, g */
    ROW(UNIF, FR_ENULL, NUL(0)),
    ROW(UNIF, FR_ENULL, NULG),
    ROW(UNIF, FR_ENULL, NUL(0), NULG),
    REF_ROW(UNIF, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(UNIF, FR_ENULL, PREC(0, BIGPREC), NULG),
    /* rng_laplace: x s0, g, b c0 */
    ROW(LAP, FR_ENULL, NUL(0)),
    ROW(LAP, FR_ENULL, NULG),
    REF_ROW(LAP, FR_ENULL, NULS(0)),
    ROW(LAP, FR_ENONFINITE, SC(0, NaN)),
    ROW(LAP, FR_ENONFINITE, SC(0, Inf)),
    ROW(LAP, FR_ENONFINITE, SC(0, -Inf)),
    ROW(LAP, FR_EDOM, SC(0, 0)),
    ROW(LAP, FR_EDOM, SC(0, -1)),
    ROW(LAP, FR_ENULL, NULG, SC(0, -1)),
    REF_ROW(LAP, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(LAP, FR_EPREC, PREC(0, BIGPREC), SC(0, NaN)),
    REF_ROW(LAP, FR_ENULL, PREC(0, BIGPREC), SC(0, -1), NULG),
    /* rng_gaussian2: z0 s0, z1 s1, g */
    ROW(GAUSS, FR_ENULL, NUL(0)),
    ROW(GAUSS, FR_ENULL, NUL(1)),
    ROW(GAUSS, FR_ENULL, NULG),
    ROW(GAUSS, FR_EDOM, ALIAS(1, 0)),                           /* z0 == z1 */
    ROW(GAUSS, FR_ENULL, ALIAS(1, 0), NULG),
    REF_ROW(GAUSS, FR_EPREC, PREC(0, BIGPREC)),
    REF_ROW(GAUSS, FR_EPREC, PREC(1, BIGPREC)),
    REF_ROW(GAUSS, FR_EPREC, PREC(0, BIGPREC), ALIAS(1, 0)),
    ROW(LAPB, FR_ENULL, NUL(0)),
    ROW(LAPB, FR_ENULL, NUL(1)),
    ROW(LAPB, FR_ENULL, NUL(0), SC(0, NaN)),
    ROW(LAPB, FR_ENONFINITE, SC(0, NaN)),
    ROW(LAPB, FR_ENONFINITE, SC(0, -Inf)),
    ROW(LAPB, FR_EDOM, SC(0, 0)),
    ROW(LAPB, FR_EDOM, SC(0, -1)),
    ROW(GAUSSB, FR_ENULL, NUL(0)),
    ROW(GAUSSB, FR_ENULL, NUL(0), SC(1, NaN)),
    ROW(GAUSSB, FR_ENONFINITE, SC(1, NaN)),
    ROW(GAUSSB, FR_ENONFINITE, SC(2, Inf)),
    /* shared: frng_below (n z0, out slot 0), frng_sample (n z0, k z1) */
    ROW(BELOW, FR_ENULL, NUL(0)),
    ROW(BELOW, FR_ENULL, NULG),
    ROW(BELOW, FR_EDOM, SZ(0, 0)),
    ROW(BELOW, FR_ENULL, NULG, SZ(0, 0)),
    ROW(SAMPLE, FR_ENULL, NULG),
    ROW(SAMPLE, FR_ENULL, NUL(0)),
    ROW(SAMPLE, FR_ENULL, NUL(0), SZ(1, 0)),                   /* NULL even when k = 0 */
    ROW(SAMPLE, FR_ESIZE, SZ(0, SIZE_MAX)),                    /* a size, not FR_ENOMEM */
    ROW(SAMPLE, FR_ESIZE, SZ(0, FR_COUNT_MAX + 1)),
    ROW(SAMPLE, FR_EDOM, SZ(1, 6)),                            /* k > n */
    ROW(SAMPLE, FR_EDOM, SZ(0, 0)),
    ROW(SAMPLE, FR_ESIZE, SZ(0, SIZE_MAX), SZ(1, 0)),
    ROW(SAMPLE, FR_ENULL, NULG, SZ(1, 9)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* The functions without a status: their documented answer to bad input. */
START_TEST(no_status_functions)
{
    uint64_t out[4] = {1, 2, 3, 4}, ctr[4] = {0}, key[2] = {0};
    frng_philox4x64_10(NULL, ctr, key);                 /* ignored */
    frng_philox4x64_10(out, NULL, key);
    frng_philox4x64_10(out, ctr, NULL);
    ck_assert(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 4);
    frng_init(NULL, 1, 2);                              /* ignored */
    ck_assert_uint_eq(frng_next64(NULL), 0);
    ck_assert_uint_eq(frng_u53(NULL), 0);
    ck_assert_uint_eq(frng_u52_open(NULL), 0);
    const int codes[] = {FR_OK, FR_EDOM, FR_ENONFINITE, FR_ESIZE, FR_ENOMEM, FR_EPREC,
                         FR_ENULL, FR_EINTERNAL, 1, -99};
    for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
        const char *msg = fr_strerror(codes[k]);
        ck_assert(msg != NULL && msg[0] != '\0');
        for (size_t q = 0; q < k && k < 8; q++)
            ck_assert_str_ne(msg, fr_strerror(codes[q]));   /* distinct for real codes */
        int dom = codes[k] == FR_EDOM || codes[k] == FR_ENONFINITE || codes[k] == FR_ESIZE
                  || codes[k] == FR_ENULL;
        ck_assert_int_eq(fr_is_domain_error(codes[k]), dom);
    }
    ck_assert_str_eq(fr_strerror(1), fr_strerror(-99));       /* "unknown status" */
}
END_TEST

Suite *suite_status_core(void)
{
    Suite *s = suite_create("status_core");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, no_status_functions);
    suite_add_tcase(s, tc);
    return s;
}
