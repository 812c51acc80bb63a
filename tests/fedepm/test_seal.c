/* SPDX-License-Identifier: Apache-2.0 */
/* test_seal.c -- Check unit tests of the seal of fr_logreg (fedref_common.h,
 * rule 6; fr_logreg_seal / fr_logreg_sealed, fedspec/fedepm.h) in the
 * spec, in fast and in ref: the seal of a valid and of an invalid problem;
 * sealed and unsealed problems give bit-identical results (fast) and equal
 * mpfr values (ref), for ff_logreg_fi/f, their bounds, fr_logreg_fi/f and
 * the three runs of each wing; each field changed after sealing voids the
 * seal, so the next call (fr_ and ff_) finds the bad data it now points
 * to; the contents contract (a changed entry is not seen until sealed
 * again); bad per-call arguments give the same status sealed or not.
 *
 * The problem: m = 3 clients, n = 2, d = (3, 4, 2), D = 9, inside buffers
 * whose entries beyond the problem are bad (X: NaN, b: 2), so that a field
 * change that widens the extent (n, m, a d[i], the d pointer) brings bad
 * entries in. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>                /* before mpfr.h */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fedref.h"
#include "fedfast.h"

Suite *suite_fedepm_seal(void);

#define M 3
#define N 2
#define D 9
#define XLEN ((D + 4) * (N + 1))
#define BLEN (D + 4)
#define PREC 80

typedef struct {
    size_t d[M + 1];        /* d[M] = 1: the extra client of the m + 1 test */
    double X[XLEN], b[BLEN];
    fr_logreg P;
} prob;

static void make_prob(prob *q)
{
    static const size_t d[M + 1] = {3, 4, 2, 1};
    memcpy(q->d, d, sizeof d);
    for (size_t k = 0; k < XLEN; k++)
        q->X[k] = k < D * N ? 0.125 * (double)((k * 7) % 11) - 0.5 : NAN;
    for (size_t t = 0; t < BLEN; t++)
        q->b[t] = t < D ? (double)((t * 5) % 3 == 0) : 2.0;
    q->P = (fr_logreg){.m = M, .n = N, .d = q->d, .X = q->X, .b = q->b, .beta = 0.01};
}

static const double W0[N + 1] = {0.25, -0.375, 0.5};

/* ---- fast ------------------------------------------------------------------ */

/* ff_logreg_fi (each client), ff_logreg_f and their bounds into out[0..]:
 * (n + 1) (2 m + 2) doubles; returns the first status that is not FR_OK. */
#define FOUT ((N + 1) * (2 * M + 2))
static int fast_eval(double *out, const fr_logreg *P)
{
    int st = FR_OK;
    for (size_t i = 0; i < M && st == FR_OK; i++) {
        double *o = out + 2 * i * (N + 1);
        st = ff_logreg_fi(&o[N], o, P, i, W0);
        if (st == FR_OK)
            st = ff_logreg_fi_bound(&o[2 * N + 1], o + N + 1, P, i, W0);
    }
    double *o = out + 2 * M * (N + 1);
    if (st == FR_OK)
        st = ff_logreg_f(&o[N], o, P, W0);
    if (st == FR_OK)
        st = ff_logreg_f_bound(&o[2 * N + 1], o + N + 1, P, W0);
    return st;
}

static fr_fedepm_params params(void)
{
    fr_fedepm_params p = {0};
    p.k0 = 2;
    p.rounds = 2;
    p.nsel = 2;
    p.lambda = 0.01;
    p.eta = 0.02;
    p.mu0 = 0.05;
    p.c = 0.5;
    p.alpha = 1.25;
    p.eps = 0.5;
    p.noise = FR_NOISE_EQ39;
    p.seed = 0x5ea1;
    p.mu_prox = 0.125;
    p.ell = 2;
    return p;
}

static int fast_run(int algo, ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return algo == 0 ? ff_fedepm_run(t, P, prm)
        : algo == 1 ? ff_sfedavg_run(t, P, prm) : ff_sfedprox_run(t, P, prm);
}

static void same_doubles(const double *a, const double *b, size_t len)
{
    ck_assert_int_eq(memcmp(a, b, len * sizeof *a), 0);
}

static void same_fast_trace(const ff_fedepm_trace *a, const ff_fedepm_trace *b)
{
    const size_t c = a->cap, m = a->m, n = a->n, k = a->nsel;
    ck_assert(a->rounds == b->rounds && a->iters == b->iters && a->stop == b->stop);
    same_doubles(a->w, b->w, c * n);
    same_doubles(a->f, b->f, c);
    same_doubles(a->gnorm2, b->gnorm2, c);
    ck_assert_int_eq(memcmp(a->sel, b->sel, c * k * sizeof *a->sel), 0);
    same_doubles(a->W, b->W, m * n);
    same_doubles(a->Z, b->Z, m * n);
    same_doubles(a->nu0, b->nu0, m);
    same_doubles(a->loss0, b->loss0, m);
    same_doubles(a->nu, b->nu, c * k);
    same_doubles(a->loss, b->loss, c * k);
    same_doubles(a->eps_basic, b->eps_basic, m);
    same_doubles(a->eps_adv, b->eps_adv, m);
    same_doubles(&a->snr, &b->snr, 1);
}

/* ---- ref ------------------------------------------------------------------- */

static mpfr_t *mp_vec(size_t k, const double *x)
{
    mpfr_t *v = malloc(k * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t j = 0; j < k; j++) {
        mpfr_init2(v[j], PREC);
        if (x)
            mpfr_set_d(v[j], x[j], MPFR_RNDN);
        else
            mpfr_set_nan(v[j]);
    }
    return v;
}

static void mp_vec_free(mpfr_t *v, size_t k)
{
    for (size_t j = 0; j < k; j++)
        mpfr_clear(v[j]);
    free(v);
}

/* a and b are the same mpfr numbers (NaN for NaN, the sign of zeros) */
static int mp_same(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static void same_mp(mpfr_t *const a, mpfr_t *const b, size_t len)
{
    for (size_t j = 0; j < len; j++)
        ck_assert(mp_same(a[j], b[j]));
}

/* fr_logreg_fi (each client) and fr_logreg_f into out: (n + 1)(m + 1). */
#define ROUT ((N + 1) * (M + 1))
static int ref_eval(mpfr_t *out, const fr_logreg *P)
{
    mpfr_t *w = mp_vec(N, W0);
    int st = FR_OK;
    for (size_t i = 0; i < M && st == FR_OK; i++)
        st = fr_logreg_fi(out[i * (N + 1) + N], out + i * (N + 1), P, i, w);
    if (st == FR_OK)
        st = fr_logreg_f(out[M * (N + 1) + N], out + M * (N + 1), P, w);
    mp_vec_free(w, N);
    return st;
}

static int ref_run(int algo, fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    return algo == 0 ? fr_fedepm_run(t, P, prm)
        : algo == 1 ? fr_sfedavg_run(t, P, prm) : fr_sfedprox_run(t, P, prm);
}

static void same_ref_trace(const fr_fedepm_trace *a, const fr_fedepm_trace *b)
{
    const size_t c = a->cap, m = a->m, n = a->n, k = a->nsel;
    ck_assert(a->rounds == b->rounds && a->iters == b->iters && a->stop == b->stop);
    same_mp(a->w, b->w, c * n);
    same_mp(a->f, b->f, c);
    same_mp(a->gnorm2, b->gnorm2, c);
    ck_assert_int_eq(memcmp(a->sel, b->sel, c * k * sizeof *a->sel), 0);
    same_mp(a->W, b->W, m * n);
    same_mp(a->Z, b->Z, m * n);
    same_mp(a->nu0, b->nu0, m);
    same_mp(a->loss0, b->loss0, m);
    same_mp(a->nu, b->nu, c * k);
    same_mp(a->loss, b->loss, c * k);
    same_mp(a->eps_basic, b->eps_basic, m);
    same_mp(a->eps_adv, b->eps_adv, m);
    ck_assert(mp_same(a->snr, b->snr));
}

/* ---- the status of every entry point on P --------------------------------- */

/* The statuses of the spec checks, fast's and ref's logreg functions and
 * (when traces are given, initialised for the unchanged problem) the runs
 * of both wings; all must agree with want. */
static void all_status(const fr_logreg *P, int want, ff_fedepm_trace *ft, fr_fedepm_trace *rt)
{
    fr_fedepm_params prm = params();
    double out[FOUT];
    mpfr_t *rout = mp_vec(ROUT, NULL);
    ck_assert_int_eq(fr_logreg_check(P), want);
    ck_assert_int_eq(fr_fedepm_check(P, &prm), want);
    ck_assert_int_eq(fr_sfedavg_check(P, &prm), want);
    ck_assert_int_eq(fr_sfedprox_check(P, &prm), want);
    ck_assert_int_eq(fr_fedepm_sizes_check(P, &prm), want);
    ck_assert_int_eq(fast_eval(out, P), want);
    ck_assert_int_eq(ref_eval(rout, P), want);
    for (int a = 0; a < 3 && ft; a++)
        ck_assert_int_eq(fast_run(a, ft, P, &prm), want);
    for (int a = 0; a < 3 && rt; a++)
        ck_assert_int_eq(ref_run(a, rt, P, &prm), want);
    mp_vec_free(rout, ROUT);
}

/* ---- the tests -------------------------------------------------------------- */

START_TEST(seal_valid)
{
    prob q;
    make_prob(&q);
    ck_assert_int_eq(fr_logreg_sealed(&q.P), 0);
    ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
    ck_assert(q.P.seal != 0);
    ck_assert_int_eq(fr_logreg_sealed(&q.P), 1);
    uint64_t s = q.P.seal;
    ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);   /* again: the same hash */
    ck_assert(q.P.seal == s);
    ck_assert_int_eq(fr_logreg_seal(NULL), FR_ENULL);
    ck_assert_int_eq(fr_logreg_sealed(NULL), 0);
    fr_logreg Z = q.P;                               /* a copy keeps the seal */
    ck_assert_int_eq(fr_logreg_sealed(&Z), 1);
    Z.seal ^= 1;                                     /* an edited seal is void */
    ck_assert_int_eq(fr_logreg_sealed(&Z), 0);
    Z.seal = 0;
    ck_assert_int_eq(fr_logreg_sealed(&Z), 0);
}
END_TEST

START_TEST(seal_invalid)
{
    prob q;
    make_prob(&q);
    struct {
        int field;
        int want;
    } cases[] = {{0, FR_ENULL}, {1, FR_ENULL}, {2, FR_ENULL}, {3, FR_ENULL},
                 {4, FR_ESIZE}, {5, FR_ESIZE}, {6, FR_ESIZE}, {7, FR_ENONFINITE},
                 {8, FR_ENONFINITE}, {9, FR_ENONFINITE}, {10, FR_EDOM}, {11, FR_EDOM}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        make_prob(&q);
        ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);   /* a stale nonzero seal */
        fr_logreg *P = &q.P;
        switch (cases[c].field) {
        case 0: P->d = NULL; break;
        case 1: P->X = NULL; break;
        case 2: P->b = NULL; break;
        case 3: P->d = NULL; P->m = 0; break;           /* ENULL before ESIZE */
        case 4: P->m = 0; break;
        case 5: P->n = 0; break;
        case 6: q.d[1] = 0; break;
        case 7: q.X[5] = NAN; break;
        case 8: q.b[2] = INFINITY; break;
        case 9: P->beta = NAN; break;
        case 10: q.b[4] = 0.5; break;
        case 11: P->beta = 0; break;
        }
        ck_assert_int_eq(fr_logreg_seal(P), cases[c].want);
        ck_assert(P->seal == 0);
        ck_assert_int_eq(fr_logreg_sealed(P), 0);
        ck_assert_int_eq(fr_logreg_check(P), cases[c].want);
    }
}
END_TEST

START_TEST(seal_same_fast)
{
    prob q;
    make_prob(&q);
    double a[FOUT], b[FOUT];
    ck_assert_int_eq(fast_eval(a, &q.P), FR_OK);
    ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
    ck_assert_int_eq(fast_eval(b, &q.P), FR_OK);
    same_doubles(a, b, FOUT);
    fr_fedepm_params prm = params();
    for (int algo = 0; algo < 3; algo++) {
        ff_fedepm_trace t0 = {0}, t1 = {0};
        q.P.seal = 0;
        ck_assert_int_eq(ff_fedepm_trace_init(&t0, &q.P, &prm), FR_OK);
        ck_assert_int_eq(fast_run(algo, &t0, &q.P, &prm), FR_OK);
        ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
        ck_assert_int_eq(ff_fedepm_trace_init(&t1, &q.P, &prm), FR_OK);
        ck_assert_int_eq(fast_run(algo, &t1, &q.P, &prm), FR_OK);
        same_fast_trace(&t0, &t1);
        ff_fedepm_trace_clear(&t0);
        ff_fedepm_trace_clear(&t1);
    }
}
END_TEST

START_TEST(seal_same_ref)
{
    prob q;
    make_prob(&q);
    mpfr_t *a = mp_vec(ROUT, NULL), *b = mp_vec(ROUT, NULL);
    ck_assert_int_eq(ref_eval(a, &q.P), FR_OK);
    ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
    ck_assert_int_eq(ref_eval(b, &q.P), FR_OK);
    same_mp(a, b, ROUT);
    mp_vec_free(a, ROUT);
    mp_vec_free(b, ROUT);
    fr_fedepm_params prm = params();
    for (int algo = 0; algo < 3; algo++) {
        fr_fedepm_trace t0 = {0}, t1 = {0};
        q.P.seal = 0;
        ck_assert_int_eq(fr_fedepm_trace_init(&t0, &q.P, &prm, PREC), FR_OK);
        ck_assert_int_eq(ref_run(algo, &t0, &q.P, &prm), FR_OK);
        ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
        ck_assert_int_eq(fr_fedepm_trace_init(&t1, &q.P, &prm, PREC), FR_OK);
        ck_assert_int_eq(ref_run(algo, &t1, &q.P, &prm), FR_OK);
        same_ref_trace(&t0, &t1);
        fr_fedepm_trace_clear(&t0);
        fr_fedepm_trace_clear(&t1);
    }
}
END_TEST

/* Each field changed after sealing: the seal is void and every entry
 * point finds the bad data (or, for a harmless change, FR_OK). */
START_TEST(seal_field_change)
{
    prob q;
    double X2[D * N], b2[D];
    size_t d2[M] = {3, 4, 3}, d3[M] = {3, 4, 2};
    enum { C_X, C_B, C_D, C_D_SAME, C_DI, C_M, C_N, C_BETA_NAN, C_BETA, C_COUNT };
    for (int c = 0; c < C_COUNT; c++) {
        make_prob(&q);
        fr_fedepm_params prm = params();
        ff_fedepm_trace ft = {0};
        fr_fedepm_trace rt = {0};
        ck_assert_int_eq(ff_fedepm_trace_init(&ft, &q.P, &prm), FR_OK);
        ck_assert_int_eq(fr_fedepm_trace_init(&rt, &q.P, &prm, PREC), FR_OK);
        memcpy(X2, q.X, sizeof X2);
        memcpy(b2, q.b, sizeof b2);
        X2[7] = NAN;
        b2[3] = 0.5;
        ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
        fr_logreg *P = &q.P;
        int want = FR_ENONFINITE, runs = 1;
        switch (c) {
        case C_X: P->X = X2; break;
        case C_B: P->b = b2; want = FR_EDOM; break;
        case C_D: P->d = d2; break;                     /* D = 10: a NaN row */
        case C_D_SAME: P->d = d3; want = FR_OK; break;  /* same values */
        case C_DI: q.d[0] = 4; break;                   /* D = 10 */
        case C_M: P->m = M + 1; runs = 0; break;        /* d[3] = 1: D = 10 */
        case C_N: P->n = N + 1; runs = 0; break;        /* D (n + 1) > D n */
        case C_BETA_NAN: P->beta = NAN; break;
        case C_BETA: P->beta = 0.02; want = FR_OK; break;
        }
        ck_assert_int_eq(fr_logreg_sealed(P), 0);
        all_status(P, want, runs ? &ft : NULL, runs ? &rt : NULL);
        if (want == FR_OK) {                            /* as unsealed */
            double a[FOUT], b[FOUT];
            ck_assert_int_eq(fast_eval(a, P), FR_OK);
            uint64_t s = P->seal;
            P->seal = 0;
            ck_assert_int_eq(fast_eval(b, P), FR_OK);
            P->seal = s;
            same_doubles(a, b, FOUT);
        }
        ff_fedepm_trace_clear(&ft);
        fr_fedepm_trace_clear(&rt);
    }
}
END_TEST

/* The contract: contents changed after sealing are not seen until the
 * problem is sealed again (or its seal set to 0). */
START_TEST(seal_contract)
{
    prob q;
    for (int c = 0; c < 2; c++) {
        make_prob(&q);
        ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
        int want = c == 0 ? FR_ENONFINITE : FR_EDOM;
        if (c == 0)
            q.X[1] = NAN;                                /* client 0's row 0 */
        else
            q.b[0] = 3;
        fr_fedepm_params prm = params();
        double f, g[N];
        mpfr_t *w = mp_vec(N, W0), *rg = mp_vec(N + 1, NULL);
        ck_assert_int_eq(fr_logreg_sealed(&q.P), 1);
        ck_assert_int_eq(fr_logreg_check(&q.P), FR_OK);  /* not seen */
        ck_assert_int_eq(fr_fedepm_check(&q.P, &prm), FR_OK);
        ck_assert_int_eq(fr_fedepm_sizes_check(&q.P, &prm), FR_OK);
        ck_assert_int_eq(ff_logreg_fi(&f, g, &q.P, 1, W0), FR_OK);
        ck_assert_int_eq(fr_logreg_fi(rg[N], rg, &q.P, 1, w), FR_OK);
        uint64_t s = q.P.seal;
        ck_assert_int_eq(fr_logreg_seal(&q.P), want);    /* re-sealing finds it */
        ck_assert(q.P.seal == 0);
        ck_assert_int_eq(fr_logreg_sealed(&q.P), 0);
        for (int z = 0; z < 2; z++) {                     /* after re-sealing; seal = 0 */
            q.P.seal = z == 0 ? q.P.seal : 0;
            ck_assert_int_eq(fr_logreg_check(&q.P), want);
            ck_assert_int_eq(fr_fedepm_check(&q.P, &prm), want);
            ck_assert_int_eq(fr_fedepm_sizes_check(&q.P, &prm), want);
            ck_assert_int_eq(ff_logreg_fi(&f, g, &q.P, 1, W0), want);
            ck_assert_int_eq(ff_logreg_fi(&f, g, &q.P, 0, W0), want);
            ck_assert_int_eq(ff_logreg_f(&f, g, &q.P, W0), want);
            ck_assert_int_eq(fr_logreg_fi(rg[N], rg, &q.P, 1, w), want);
            q.P.seal = s;                                 /* the old seal, still valid */
            ck_assert_int_eq(fr_logreg_check(&q.P), FR_OK);
        }
        mp_vec_free(w, N);
        mp_vec_free(rg, N + 1);
    }
}
END_TEST

/* Bad per-call arguments: the same status sealed or not, in both wings. */
START_TEST(seal_bad_args)
{
    prob q;
    make_prob(&q);
    double f[N + 1], g[N], wbad[N] = {0.5, NAN};
    mpfr_t *w = mp_vec(N, W0), *rwbad = mp_vec(N, wbad), *rg = mp_vec(N + 1, NULL);
    int st[2][12];
    ff_fedepm_trace ft = {0};
    fr_fedepm_trace rt = {0};
    fr_fedepm_params prm = params();
    ck_assert_int_eq(ff_fedepm_trace_init(&ft, &q.P, &prm), FR_OK);
    ck_assert_int_eq(fr_fedepm_trace_init(&rt, &q.P, &prm, PREC), FR_OK);
    for (int s = 0; s < 2; s++) {
        if (s == 1)
            ck_assert_int_eq(fr_logreg_seal(&q.P), FR_OK);
        const fr_logreg *P = &q.P;
        fr_fedepm_params bad = prm;
        bad.eta = NAN;
        fr_fedepm_params bad2 = prm;
        bad2.nsel = 0;
        st[s][0] = ff_logreg_fi(f, g, P, M, W0);           /* i = m */
        st[s][1] = ff_logreg_fi(f, g, P, 0, wbad);         /* w NaN */
        st[s][2] = ff_logreg_fi(NULL, NULL, P, 0, W0);     /* no output */
        st[s][3] = ff_logreg_f(f, g, P, NULL);             /* w NULL */
        st[s][4] = ff_logreg_f(&f[1], f, P, W0);           /* f inside g */
        st[s][5] = ff_logreg_fi_bound(f, g, P, M, W0);
        st[s][6] = fr_logreg_fi(rg[N], rg, P, M, w);
        st[s][7] = fr_logreg_fi(rg[N], rg, P, 0, rwbad);
        st[s][8] = fr_logreg_f(NULL, NULL, P, w);
        st[s][9] = ff_fedepm_run(&ft, P, &bad) * 16 + ff_sfedprox_run(&ft, P, &bad2);
        st[s][10] = fr_fedepm_run(&rt, P, &bad) * 16 + fr_sfedavg_run(&rt, P, &bad2);
        st[s][11] = fr_logreg_f(rg[0], rg, P, w);          /* rg[0] inside g */
    }
    static const int want[12] = {FR_ESIZE, FR_ENONFINITE, FR_ENULL, FR_ENULL, FR_EDOM,
                                 FR_ESIZE, FR_ESIZE, FR_ENONFINITE, FR_ENULL,
                                 FR_ENONFINITE * 16 + FR_ESIZE, FR_ENONFINITE * 16 + FR_ESIZE,
                                 FR_EDOM};
    for (int k = 0; k < 12; k++) {
        ck_assert_int_eq(st[0][k], want[k]);
        ck_assert_int_eq(st[1][k], want[k]);
    }
    ff_fedepm_trace_clear(&ft);
    fr_fedepm_trace_clear(&rt);
    mp_vec_free(w, N);
    mp_vec_free(rwbad, N);
    mp_vec_free(rg, N + 1);
}
END_TEST

Suite *suite_fedepm_seal(void)
{
    Suite *s = suite_create("fedepm_seal");
    TCase *tc = tcase_create("seal");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, seal_valid);
    tcase_add_test(tc, seal_invalid);
    tcase_add_test(tc, seal_same_fast);
    tcase_add_test(tc, seal_same_ref);
    tcase_add_test(tc, seal_field_change);
    tcase_add_test(tc, seal_contract);
    tcase_add_test(tc, seal_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
