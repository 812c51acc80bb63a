/* SPDX-License-Identifier: Apache-2.0 */
/* test_seal.c -- Check unit tests of the seal of fr_pdm_problem
 * (fr_pdm_problem_seal, fr_pdm_problem_sealed; fedref_common.h rule 6,
 * fedspec/fedpdm.h), through every entry point that checks a problem:
 * fr_pdm_problem_check, fr_pdm_run_check, ff_/fr_pdm_objective,
 * ff_/fr_pdm_trace_init, ff_/fr_pdm_run:
 *   - the seal of a valid problem is FR_OK and nonzero; of an invalid one
 *     the check's status and 0 (a stale seal is cleared);
 *   - sealed and unsealed give the same results: fast bit for bit, ref the
 *     same mpfr values;
 *   - changing any one field after sealing (N, m, n, d, A, y, beta, gamma,
 *     a d_i that changes the total) voids the seal, and the next call of
 *     each wing finds the bad data the field now points to;
 *   - the contract: a NaN written into A after sealing is not seen until
 *     the problem is sealed again (or seal = 0), then it is;
 *   - labels >= m are found on every call, sealed or not;
 *   - bad per-call arguments give the same status sealed and unsealed. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fedpdm_seal(void);

#define SN 3                    /* clients */
#define SM 2                    /* classes */
#define SNF 3                   /* features */
#define SD (SM * SNF)
#define SXTRA 16                /* spare rows beyond the data, NaN */
#define ST 3                    /* rounds */
#define SPREC 64

typedef struct {
    size_t d[SN + 1], y[64 + SXTRA], ybad[64 + SXTRA], dbig[SN + 1];
    double A[(64 + SXTRA) * (SNF + 1)], Anan[(64 + SXTRA) * (SNF + 1)], Afin[(64 + SXTRA) * (SNF + 1)];
    double eta[ST], sigma[ST], X[2 * SD], Xnan[2 * SD], eta_ok[ST], sigma_ok[ST];
    size_t yok[64 + SXTRA];
    size_t tot;
    fr_pdm_problem P;
    fr_pdm_params prm, prm_ok;           /* prm_ok: the shape's (statuses) */
} sx_t;

/* N = 3 clients of 3..6 samples, m = 2, n = 3; beyond the data (rows
 * tot.., a fourth client of 2 samples, and past D n for a larger n) A is
 * NaN, so a field change that widens the problem meets a NaN. */
static void sx_make(sx_t *s)
{
    memset(s, 0, sizeof *s);
    const uint64_t seed = tu_seed(2026);
    ck_assert_int_eq(fr_pdm_synth_sizes(seed, SN, 3, 6, s->d), FR_OK);
    s->tot = s->d[0] + s->d[1] + s->d[2];
    for (size_t k = 0; k < sizeof s->A / sizeof *s->A; k++)
        s->A[k] = NAN;
    ck_assert_int_eq(fr_pdm_synth_data(seed, SN, SM, SNF, s->d, s->A, s->y), FR_OK);
    s->d[SN] = 2;                               /* the fourth client: NaN rows */
    memcpy(s->Anan, s->A, sizeof s->A);
    for (size_t k = 0; k < sizeof s->A / sizeof *s->A; k++)
        s->Afin[k] = isnan(s->A[k]) ? 0.25 : s->A[k];
    s->Anan[SNF + 1] = NAN;                      /* inside the data */
    memcpy(s->ybad, s->y, sizeof s->y);
    s->ybad[s->tot - 1] = SM;                    /* a label out of range */
    memcpy(s->dbig, s->d, sizeof s->d);
    s->dbig[1] += 1;                             /* one row more: a NaN row at the end */
    frng_t g;
    frng_init(&g, seed, 91);
    for (size_t k = 0; k < 2 * SD; k++)            /* 2 SD: X for a larger n */
        s->X[k] = s->Xnan[k] = ((double)(frng_next64(&g) >> 56) - 128) / 512;
    memcpy(s->yok, s->y, sizeof s->y);
    s->Xnan[1] = NAN;
    ck_assert_int_eq(fr_pdm_eta_paper(s->eta, ST, 0.05), FR_OK);
    for (size_t t = 0; t < ST; t++)
        s->sigma[t] = 0.01 * (double)t;
    s->P = (fr_pdm_problem){.N = SN, .m = SM, .n = SNF, .d = s->d, .A = s->A, .y = s->y, .beta = 0.01,
                            .gamma = 1e-3};
    s->prm = (fr_pdm_params){.T = ST, .K = 2, .b = 2, .Qmax = 3, .rule = FR_PDM_RULE_11, .nu = 0.3,
                             .rho = 10, .eta = s->eta, .start = FR_PDM_START_XI,
                             .server = FR_PDM_SERVER_PART, .noise = FR_PDM_NOISE_GIVEN, .eps = 1,
                             .delta = 1e-5, .G = 0.5, .sigma = s->sigma, .clip = 1, .x0 = s->X,
                             .seed = seed, .keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P
                                                   | FR_PDM_KEEP_F};
    memcpy(s->eta_ok, s->eta, sizeof s->eta);
    memcpy(s->sigma_ok, s->sigma, sizeof s->sigma);
    s->prm_ok = s->prm;
    s->prm_ok.eta = s->eta_ok;
    s->prm_ok.sigma = s->sigma_ok;
    s->prm_ok.x0 = NULL;
}

static mpfr_t *mp_of(const double *x, size_t n)
{
    mpfr_t *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t k = 0; k < n; k++) {
        mpfr_init2(v[k], 53);
        mpfr_set_d(v[k], x[k], MPFR_RNDN);
    }
    return v;
}

static void mp_free(mpfr_t *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        mpfr_clear(v[k]);
    free(v);
}

/* The statuses of every entry point that checks P, fast and ref: the
 * check, the run check, the objectives, the trace inits and the runs.  The
 * runs use traces initialised for P's shape (P's sizes with finite data
 * and valid labels and weights, the parameters s->prm), so that a bad P
 * meets its own check, not a trace of other sizes. */
typedef struct {
    int check, rcheck, fobj, robj, finit, rinit, frun, rrun;
} sts_t;

static sts_t statuses(const fr_pdm_problem *P, const fr_pdm_params *prm, const double *X, const sx_t *s)
{
    sts_t r;
    r.check = fr_pdm_problem_check(P);
    r.rcheck = fr_pdm_run_check(P, prm);
    double F = 0;
    r.fobj = ff_pdm_objective(&F, X, P);
    mpfr_t *Xm = X != NULL ? mp_of(X, 2 * SD) : NULL, Fm;
    mpfr_init2(Fm, SPREC);
    r.robj = fr_pdm_objective(Fm, Xm, P);
    mpfr_clear(Fm);
    if (Xm)
        mp_free(Xm, 2 * SD);
    ff_pdm_trace ft = {0};
    fr_pdm_trace rt;
    memset(&rt, 0, sizeof rt);
    r.finit = ff_pdm_trace_init(&ft, P, prm);
    if (r.finit == FR_OK)
        ff_pdm_trace_clear(&ft);
    r.rinit = fr_pdm_trace_init(&rt, P, prm, SPREC);
    if (r.rinit == FR_OK)
        fr_pdm_trace_clear(&rt);
    fr_pdm_problem sh = s->P;                   /* P's shape */
    if (P != NULL && P->d != NULL) {
        sh.N = P->N;
        sh.n = P->n;
        sh.d = P->d;
        sh.A = s->Afin;
        sh.y = s->yok;
        sh.beta = 0.01;
        sh.gamma = 1e-3;
        sh.seal = 0;
    }
    if (ff_pdm_trace_init(&ft, &sh, &s->prm_ok) != FR_OK)    /* m changed: the original shape */
        ck_assert_int_eq(ff_pdm_trace_init(&ft, &s->P, &s->prm_ok), FR_OK);
    if (fr_pdm_trace_init(&rt, &sh, &s->prm_ok, SPREC) != FR_OK)
        ck_assert_int_eq(fr_pdm_trace_init(&rt, &s->P, &s->prm_ok, SPREC), FR_OK);
    r.frun = ff_pdm_run(&ft, P, prm);
    r.rrun = fr_pdm_run(&rt, P, prm);
    ff_pdm_trace_clear(&ft);
    fr_pdm_trace_clear(&rt);
    return r;
}

/* Every status of *r is st. */
static void all_eq(const sts_t *r, int st, const char *what)
{
    ck_assert_msg(r->check == st && r->rcheck == st && r->fobj == st && r->robj == st && r->finit == st
                      && r->rinit == st && r->frun == st && r->rrun == st,
                  "%s: check %d run_check %d ff_obj %d fr_obj %d ff_init %d fr_init %d ff_run %d fr_run %d,"
                  " wanted %d",
                  what, r->check, r->rcheck, r->fobj, r->robj, r->finit, r->rinit, r->frun, r->rrun, st);
}

static void same_sts(const sts_t *a, const sts_t *b, const char *what)
{
    ck_assert_msg(memcmp(a, b, sizeof *a) == 0,
                  "%s: sealed and unsealed differ (check %d/%d, ff_obj %d/%d, fr_obj %d/%d, ff_run %d/%d,"
                  " fr_run %d/%d)",
                  what, a->check, b->check, a->fobj, b->fobj, a->robj, b->robj, a->frun, b->frun, a->rrun,
                  b->rrun);
}

START_TEST(test_seal_valid_invalid)
{
    sx_t *s = malloc(sizeof *s);
    sx_make(s);
    ck_assert_int_eq(fr_pdm_problem_seal(NULL), FR_ENULL);
    ck_assert_int_eq(fr_pdm_problem_sealed(NULL), 0);
    ck_assert_int_eq(fr_pdm_problem_sealed(&s->P), 0);          /* zero-initialised */
    ck_assert_int_eq(fr_pdm_problem_seal(&s->P), FR_OK);
    ck_assert(s->P.seal != 0);
    ck_assert_int_eq(fr_pdm_problem_sealed(&s->P), 1);
    const uint64_t h = s->P.seal;
    ck_assert_int_eq(fr_pdm_problem_seal(&s->P), FR_OK);         /* deterministic */
    ck_assert(s->P.seal == h);
    s->P.seal ^= 1;                                              /* an edited seal is no seal */
    ck_assert_int_eq(fr_pdm_problem_sealed(&s->P), 0);
    /* invalid problems: the check's status, and a stale seal cleared */
    struct {
        const char *what;
        int st;
    } cs[] = {{"A NaN", FR_ENONFINITE}, {"label >= m", FR_ESIZE}, {"beta < 0", FR_EDOM},
              {"gamma NaN", FR_ENONFINITE}, {"d NULL", FR_ENULL}, {"d_i = 0", FR_ESIZE}};
    for (size_t c = 0; c < sizeof cs / sizeof *cs; c++) {
        fr_pdm_problem Q = s->P;
        size_t dz[SN] = {s->d[0], 0, s->d[2]};
        ck_assert_int_eq(fr_pdm_problem_seal(&Q), FR_OK);
        ck_assert(Q.seal != 0);
        switch (c) {
        case 0: Q.A = s->Anan; break;
        case 1: Q.y = s->ybad; break;
        case 2: Q.beta = -1; break;
        case 3: Q.gamma = NAN; break;
        case 4: Q.d = NULL; break;
        default: Q.d = dz; break;
        }
        ck_assert_msg(fr_pdm_problem_seal(&Q) == cs[c].st, "%s", cs[c].what);
        ck_assert_msg(Q.seal == 0, "%s: seal not cleared", cs[c].what);
        ck_assert_int_eq(fr_pdm_problem_sealed(&Q), 0);
        ck_assert_int_eq(fr_pdm_problem_check(&Q), cs[c].st);
    }
    free(s);
}
END_TEST

static void same_ff_trace(const ff_pdm_trace *a, const ff_pdm_trace *b)
{
    const size_t R = a->T * a->N, nx0 = (a->T + 1) * a->D;
    ck_assert_uint_eq(a->rounds, b->rounds);
    ck_assert_uint_eq(a->nd, b->nd);
    ck_assert(memcmp(a->x0, b->x0, nx0 * sizeof *a->x0) == 0);
    ck_assert(memcmp(a->x, b->x, a->N * a->D * sizeof *a->x) == 0);
    ck_assert(memcmp(a->lam, b->lam, a->N * a->D * sizeof *a->lam) == 0);
    ck_assert(memcmp(a->P, b->P, (a->T + 1) * sizeof *a->P) == 0);
    ck_assert(memcmp(a->F, b->F, (a->T + 1) * sizeof *a->F) == 0);
    ck_assert(memcmp(a->sigma, b->sigma, R * sizeof *a->sigma) == 0);
    ck_assert(memcmp(a->stop2, b->stop2, R * sizeof *a->stop2) == 0);
    ck_assert(memcmp(a->Q, b->Q, R * sizeof *a->Q) == 0);
    ck_assert(memcmp(a->part, b->part, R) == 0);
    ck_assert(memcmp(a->draws, b->draws, a->nd * sizeof *a->draws) == 0);
}

static void same_mp(mpfr_t *const a, mpfr_t *const b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        ck_assert_msg(mpfr_total_order_p(a[k], b[k]) && mpfr_total_order_p(b[k], a[k]), "entry %zu", k);
}

START_TEST(test_seal_same_results)
{
    sx_t *s = malloc(sizeof *s);
    sx_make(s);
    fr_pdm_problem U = s->P, S = s->P;
    ck_assert_int_eq(fr_pdm_problem_seal(&S), FR_OK);
    /* fast: the objective and a run, bit for bit */
    double Fu, Fs;
    ck_assert_int_eq(ff_pdm_objective(&Fu, s->X, &U), FR_OK);
    ck_assert_int_eq(ff_pdm_objective(&Fs, s->X, &S), FR_OK);
    ck_assert(memcmp(&Fu, &Fs, sizeof Fu) == 0);
    ck_assert_int_eq(ff_pdm_objective_bound(&Fu, s->X, &U), FR_OK);
    ck_assert_int_eq(ff_pdm_objective_bound(&Fs, s->X, &S), FR_OK);
    ck_assert(memcmp(&Fu, &Fs, sizeof Fu) == 0);
    ff_pdm_trace fu = {0}, fs = {0};
    ck_assert_int_eq(ff_pdm_trace_init(&fu, &U, &s->prm), FR_OK);
    ck_assert_int_eq(ff_pdm_trace_init(&fs, &S, &s->prm), FR_OK);
    ck_assert_int_eq(ff_pdm_run(&fu, &U, &s->prm), FR_OK);
    ck_assert_int_eq(ff_pdm_run(&fs, &S, &s->prm), FR_OK);
    same_ff_trace(&fu, &fs);
    ck_assert_int_eq(ff_pdm_run(&fs, &S, &s->prm), FR_OK);       /* a second sealed run */
    same_ff_trace(&fu, &fs);
    ff_pdm_trace_clear(&fu);
    ff_pdm_trace_clear(&fs);
    /* ref: the same mpfr values */
    mpfr_t *Xm = mp_of(s->X, SD), Fmu, Fms;
    mpfr_inits2(SPREC, Fmu, Fms, (mpfr_ptr)0);
    ck_assert_int_eq(fr_pdm_objective(Fmu, Xm, &U), FR_OK);
    ck_assert_int_eq(fr_pdm_objective(Fms, Xm, &S), FR_OK);
    ck_assert(mpfr_equal_p(Fmu, Fms));
    mpfr_clears(Fmu, Fms, (mpfr_ptr)0);
    mp_free(Xm, SD);
    fr_pdm_trace ru, rs;
    ck_assert_int_eq(fr_pdm_trace_init(&ru, &U, &s->prm, SPREC), FR_OK);
    ck_assert_int_eq(fr_pdm_trace_init(&rs, &S, &s->prm, SPREC), FR_OK);
    ck_assert_int_eq(fr_pdm_run(&ru, &U, &s->prm), FR_OK);
    ck_assert_int_eq(fr_pdm_run(&rs, &S, &s->prm), FR_OK);
    same_mp(ru.x0, rs.x0, (ru.T + 1) * ru.D);
    same_mp(ru.x, rs.x, ru.N * ru.D);
    same_mp(ru.lam, rs.lam, ru.N * ru.D);
    same_mp(ru.P, rs.P, ru.T + 1);
    same_mp(ru.F, rs.F, ru.T + 1);
    same_mp(ru.sigma, rs.sigma, ru.T * ru.N);
    ck_assert(memcmp(ru.Q, rs.Q, ru.T * ru.N * sizeof *ru.Q) == 0);
    ck_assert(memcmp(ru.draws, rs.draws, ru.nd * sizeof *ru.draws) == 0);
    fr_pdm_trace_clear(&ru);
    fr_pdm_trace_clear(&rs);
    free(s);
}
END_TEST

/* Each field changed after sealing voids the seal; the next calls find
 * the bad data the field now reaches (every entry point, both wings). */
START_TEST(test_seal_field_change)
{
    sx_t *s = malloc(sizeof *s);
    sx_make(s);
    enum { F_A, F_Y, F_D, F_DI, F_N, F_N_ONLY, F_M, F_NF, F_BETA, F_GAMMA, F_BETA_NAN, NF };
    for (int f = 0; f < NF; f++) {
        sx_t *w = malloc(sizeof *w);
        sx_make(w);
        fr_pdm_problem Q = w->P;
        ck_assert_int_eq(fr_pdm_problem_seal(&Q), FR_OK);
        int want = FR_ENONFINITE;
        const char *what = "";
        switch (f) {
        case F_A: Q.A = w->Anan; what = "A -> an array with a NaN"; break;
        case F_Y: Q.y = w->ybad; want = FR_ESIZE; what = "y -> a label >= m"; break;
        case F_D: Q.d = w->dbig; what = "d -> sizes reaching a NaN row"; break;
        case F_DI: w->d[2] += 1; what = "d_2 += 1 (a NaN row)"; break;
        case F_N: Q.N = SN + 1; what = "N += 1 (a client of NaN rows)"; break;
        case F_N_ONLY: Q.N = SN - 1; want = FR_OK; what = "N -= 1"; break;
        case F_M: Q.m = 1; want = FR_ESIZE; what = "m = 1 (labels >= m)"; break;
        case F_NF: Q.n = SNF + 1; what = "n += 1 (reaches the NaN rows)"; break;
        case F_BETA: Q.beta = -1; want = FR_EDOM; what = "beta = -1"; break;
        case F_GAMMA: Q.gamma = -1; want = FR_EDOM; what = "gamma = -1"; break;
        default: Q.beta = INFINITY; what = "beta = inf"; break;
        }
        ck_assert_msg(fr_pdm_problem_sealed(&Q) == 0, "%s: still sealed", what);
        if (f == F_N_ONLY) {                     /* a valid change: same results as a fresh seal */
            fr_pdm_problem Z = Q;
            Z.seal = 0;
            double F1, F2;
            ck_assert_int_eq(ff_pdm_objective(&F1, w->X, &Q), FR_OK);
            ck_assert_int_eq(ff_pdm_objective(&F2, w->X, &Z), FR_OK);
            ck_assert(memcmp(&F1, &F2, sizeof F1) == 0);
            free(w);
            continue;
        }
        sts_t r = statuses(&Q, &w->prm, w->X, w);
        all_eq(&r, want, what);
        fr_pdm_problem Z = Q;                    /* unsealed: the same statuses */
        Z.seal = 0;
        sts_t z = statuses(&Z, &w->prm, w->X, w);
        same_sts(&r, &z, what);
        free(w);
    }
    free(s);
}
END_TEST

/* The contract: contents changed after sealing are not seen until the
 * problem is sealed again or its seal set to 0; then they are. */
START_TEST(test_seal_contents_contract)
{
    sx_t *s = malloc(sizeof *s);
    sx_make(s);
    ck_assert_int_eq(fr_pdm_problem_seal(&s->P), FR_OK);
    s->A[SNF + 1] = NAN;                         /* the contents, not a field */
    ck_assert_int_eq(fr_pdm_problem_sealed(&s->P), 1);
    ck_assert_int_eq(fr_pdm_problem_check(&s->P), FR_OK);     /* not seen: the contract */
    ck_assert_int_eq(fr_pdm_run_check(&s->P, &s->prm), FR_OK);
    fr_pdm_problem Z = s->P;
    Z.seal = 0;                                  /* seal = 0: seen */
    ck_assert_int_eq(fr_pdm_problem_check(&Z), FR_ENONFINITE);
    ck_assert_int_eq(fr_pdm_run_check(&Z, &s->prm), FR_ENONFINITE);
    double F;
    ck_assert_int_eq(ff_pdm_objective(&F, s->X, &Z), FR_ENONFINITE);
    ck_assert_int_eq(fr_pdm_problem_seal(&s->P), FR_ENONFINITE);   /* sealing again: seen */
    ck_assert(s->P.seal == 0);
    sts_t r = statuses(&s->P, &s->prm, s->X, s);
    all_eq(&r, FR_ENONFINITE, "a NaN in A, sealed again");
    /* labels are indices: a label >= m written after sealing is found on
     * every call, sealed or not */
    sx_make(s);
    ck_assert_int_eq(fr_pdm_problem_seal(&s->P), FR_OK);
    s->y[1] = SM;
    ck_assert_int_eq(fr_pdm_problem_sealed(&s->P), 1);
    r = statuses(&s->P, &s->prm, s->X, s);
    all_eq(&r, FR_ESIZE, "a label >= m written after sealing");
    free(s);
}
END_TEST

/* Bad per-call arguments: the same status sealed and unsealed, both wings. */
START_TEST(test_seal_per_call)
{
    struct {
        const char *what;
        int st;
    } cs[] = {{"X NaN", FR_ENONFINITE}, {"X NULL", FR_ENULL}, {"rho < 0", FR_EDOM},
              {"eta NULL", FR_ENULL}, {"b > min d_i", FR_ESIZE}, {"x0 NaN", FR_ENONFINITE},
              {"eta NaN", FR_ENONFINITE}, {"sigma < 0", FR_EDOM}, {"K = 0", FR_ESIZE}};
    for (size_t c = 0; c < sizeof cs / sizeof *cs; c++) {
        sx_t *w = malloc(sizeof *w);
        sx_make(w);
        fr_pdm_problem S = w->P;
        ck_assert_int_eq(fr_pdm_problem_seal(&S), FR_OK);
        const double *X = w->X;
        fr_pdm_params prm = w->prm;
        switch (c) {
        case 0: X = w->Xnan; break;
        case 1: X = NULL; break;
        case 2: prm.rho = -1; break;
        case 3: prm.eta = NULL; break;
        case 4: prm.b = 7; break;
        case 5: prm.x0 = w->Xnan; break;
        case 6: w->eta[1] = NAN; break;
        case 7: w->sigma[2] = -1; break;
        default: prm.K = 0; break;
        }
        sts_t a = statuses(&S, &prm, X, w), b = statuses(&w->P, &prm, X, w);
        same_sts(&a, &b, cs[c].what);
        if (c < 2) {                             /* the objectives' argument */
            ck_assert_msg(a.fobj == cs[c].st && a.robj == cs[c].st, "%s: %d %d", cs[c].what, a.fobj, a.robj);
        } else {                                 /* the runs' */
            ck_assert_msg(a.rcheck == cs[c].st && a.finit == cs[c].st && a.rinit == cs[c].st
                              && a.frun == cs[c].st && a.rrun == cs[c].st,
                          "%s: %d %d %d %d %d", cs[c].what, a.rcheck, a.finit, a.rinit, a.frun, a.rrun);
        }
        free(w);
    }
}
END_TEST

Suite *suite_fedpdm_seal(void)
{
    Suite *s = suite_create("fedpdm_seal");
    TCase *tc = tcase_create("seal");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_seal_valid_invalid);
    tcase_add_test(tc, test_seal_same_results);
    tcase_add_test(tc, test_seal_field_change);
    tcase_add_test(tc, test_seal_contents_contract);
    tcase_add_test(tc, test_seal_per_call);
    suite_add_tcase(s, tc);
    return s;
}
