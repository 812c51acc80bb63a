/* SPDX-License-Identifier: Apache-2.0 */
/* test_seal.c -- the seal of fr_proxal_problem (fedref_common.h rule 6;
 * fedspec/proxal.h fr_proxal_problem_seal):
 *   - sealing a valid problem (QP, NP, FAIR; h = 0, l1, box) gives FR_OK and
 *     a nonzero seal; an invalid one the check's status and seal 0 (a
 *     nonzero seal written before is cleared); NULL: FR_ENULL;
 *   - a sealed problem gives the same results as unsealed: bit for bit in
 *     fast (client_eval, pik, lk, mu_update, Algorithms 1 and 3), the same
 *     mpfr values in ref (client_eval, pik, Algorithm 3);
 *   - changing any one field after sealing (each pointer, n, d, mt, kind,
 *     h, gamma, the seal itself, a cnt entry that changes the total) voids
 *     the seal, and the next call finds the bad data the field now points to
 *     (fr_ and ff_ entry points);
 *   - the contract: a change of the binary64 contents is not seen while
 *     sealed (FR_OK on an asymmetric A_i), is found after sealing again or
 *     with seal = 0; the labels, groups and counts (indices, extents) are
 *     checked on every call, sealed or not;
 *   - bad per-call arguments on a sealed problem give the unsealed status,
 *     in both wings. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_proxal_seal(void);

enum { SN = 2, SD = 3, SMT = 2, SS = 4 };

/* One problem of each kind with room for the edits. */
typedef struct {
    fr_proxal_problem P;
    double A[SN * SD * SD], b[SN * SD], C[(SN + 1) * SMT * SD], e[(SN + 1) * SMT];
    size_t cnt[SN + 1];
    double X[((SN + 1) * SS + 1) * SD], r[SN + 1], lo[SD], hi[SD];
    unsigned char y[(SN + 1) * SS + 1], grp[(SN + 1) * SS + 1];
} sp_t;

static void mk(sp_t *x, int kind)
{
    memset(x, 0, sizeof *x);
    fr_proxal_problem *P = &x->P;
    P->kind = kind;
    P->n = SN;
    P->d = SD;
    P->h = FR_PROXAL_H_ZERO;
    for (size_t k = 0; k < SD; k++)
        x->lo[k] = -2, x->hi[k] = 2;
    if (kind == FR_PROXAL_QP) {
        ck_assert_int_eq(fr_proxal_gen_qp(x->A, x->b, x->C, x->e, SN, SD, SMT, 11), FR_OK);
        P->mt = SMT;
        P->A = x->A, P->b = x->b, P->C = x->C, P->e = x->e;
    } else {
        ck_assert_int_eq(fr_proxal_gen_lg(kind, x->cnt, x->X, x->y, kind == FR_PROXAL_FAIR ? x->grp : NULL, SN,
                                          SD, SS, 12), FR_OK);
        for (size_t i = 0; i <= SN; i++)
            x->r[i] = 0.25;
        P->cnt = x->cnt, P->X = x->X, P->y = x->y, P->r = x->r;
        if (kind == FR_PROXAL_FAIR)
            P->grp = x->grp;
    }
}

static const int KINDS[3] = {FR_PROXAL_QP, FR_PROXAL_NP, FR_PROXAL_FAIR};
static const double W[SD] = {0.5, -0.25, 0.75}, WK[SD] = {0.375, -0.125, 0.5};
static const double MU[(SN + 1) * SMT] = {0.5, 0.25, 0.125, 0.75, 1, 0.5};

/* ---- the seal itself -------------------------------------------------------- */

START_TEST(seal_valid)
{
    for (int a = 0; a < 3; a++)
        for (int h = 0; h < 3; h++) {
            sp_t x;
            mk(&x, KINDS[a]);
            x.P.h = h;
            x.P.gamma = 0.5;
            x.P.lo = x.lo, x.P.hi = x.hi;
            ck_assert(!fr_proxal_problem_sealed(&x.P));
            ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
            ck_assert(x.P.seal != 0);
            ck_assert(fr_proxal_problem_sealed(&x.P));
            ck_assert_int_eq(fr_proxal_problem_check(&x.P), FR_OK);
            uint64_t s = x.P.seal;                  /* deterministic: the same hash again */
            ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
            ck_assert(x.P.seal == s);
        }
    ck_assert_int_eq(fr_proxal_problem_seal(NULL), FR_ENULL);
    ck_assert(!fr_proxal_problem_sealed(NULL));
}
END_TEST

START_TEST(seal_invalid)
{
    sp_t x;
    struct { int kind, what; int st; } T[] = {
        {FR_PROXAL_QP, 0, FR_ENONFINITE}, {FR_PROXAL_QP, 1, FR_EDOM},   {FR_PROXAL_QP, 2, FR_ENULL},
        {FR_PROXAL_QP, 3, FR_ESIZE},      {FR_PROXAL_NP, 4, FR_EDOM},   {FR_PROXAL_NP, 5, FR_EDOM},
        {FR_PROXAL_NP, 6, FR_ENONFINITE}, {FR_PROXAL_FAIR, 7, FR_EDOM}, {FR_PROXAL_QP, 8, FR_EDOM},
    };
    for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
        mk(&x, T[t].kind);
        switch (T[t].what) {
        case 0: x.A[4] = NAN; break;
        case 1: x.A[1] += 1; break;                 /* not symmetric */
        case 2: x.P.C = NULL; break;
        case 3: x.P.n = 0; break;
        case 4: x.y[SS] = 2; break;                 /* a label not 0/1 */
        case 5: x.r[1] = -1; break;
        case 6: x.X[SD * SS + 1] = INFINITY; break;
        case 7: x.grp[0] = 3; break;
        case 8: x.P.h = FR_PROXAL_H_BOX, x.P.lo = x.lo, x.P.hi = x.hi, x.lo[2] = 3; break;
        }
        x.P.seal = 12345;                           /* a stale value: cleared */
        ck_assert_int_eq(fr_proxal_problem_seal(&x.P), T[t].st);
        ck_assert_msg(x.P.seal == 0, "case %zu", t);
        ck_assert(!fr_proxal_problem_sealed(&x.P));
        ck_assert_int_eq(fr_proxal_problem_check(&x.P), T[t].st);
    }
}
END_TEST

/* ---- the same results sealed and not ---------------------------------------- */

typedef struct {
    double f, g[SD], H[SD * SD], c[SMT], J[SD * SMT], Hy[SD * SD];
    double v, pg[SD], pH[SD * SD], lv, lg[SD], mun[(SN + 1) * SMT];
    int st[4 * (SN + 1) + 2];
} fast_out;

static void fast_all(const fr_proxal_problem *P, fast_out *o, size_t i)
{
    memset(o, 0, sizeof *o);
    const double y[SMT] = {0.5, 0.25};
    o->st[0] = ff_proxal_client_eval(P, i, W, &o->f, o->g, o->H, o->c, o->J, y, o->Hy);
    o->st[1] = ff_proxal_pik(&o->v, o->pg, o->pH, P, i, W, WK, MU, 10);
    o->st[2] = ff_proxal_lk(&o->lv, o->lg, P, W, WK, MU, 10);
    o->st[3] = ff_proxal_mu_update(o->mun, P, W, MU, 10);
}

START_TEST(same_fast)
{
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i <= SN; i++) {
            sp_t x;
            mk(&x, KINDS[a]);
            fast_out u, s;
            fast_all(&x.P, &u, i);
            ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
            fast_all(&x.P, &s, i);
            for (int k = 0; k < 4; k++)
                ck_assert_int_eq(u.st[k], FR_OK);
            ck_assert_msg(!memcmp(&u, &s, sizeof u), "kind %d owner %zu", KINDS[a], i);
        }
}
END_TEST

static void trace_eq(const ff_proxal_trace *a, const ff_proxal_trace *b)
{
    ck_assert_uint_eq(a->iters, b->iters);
    ck_assert_int_eq(a->terminated, b->terminated);
    ck_assert(!memcmp(a->w, b->w, a->d * sizeof(double)));
    ck_assert(!memcmp(a->mu, b->mu, a->mtot * sizeof(double)));
    ck_assert(!memcmp(a->kkt1, b->kkt1, a->iters * sizeof(double)));
    ck_assert(!memcmp(a->sub, b->sub, a->iters * sizeof(double)));
    ck_assert(!memcmp(a->inner, b->inner, a->iters * sizeof(unsigned long)));
}

static fr_proxal_alg_params params(double *rho, double *w0)
{
    fr_proxal_alg_params p;
    memset(&p, 0, sizeof p);
    for (size_t i = 0; i < SN; i++)
        rho[i] = 1;
    for (size_t k = 0; k < SD; k++)
        w0[k] = (k % 2 ? -0.5 : 0.5) / (double)(k + 1);
    p.eps1 = p.eps2 = 1e-3;
    p.sbar = 0.1;
    p.beta = 10;
    p.kmax = 200;
    p.admm = (fr_proxal_admm_params){.tau = 1, .q = 0.5, .rho = rho, .tmax = 10000, .newton_max = 100,
                                     .eps18 = FR_PROXAL_EPS18_PRINTED};
    p.w0 = w0;
    return p;
}

START_TEST(same_fast_runs)
{
    for (int a = 0; a < 2; a++)
        for (int alg3 = 0; alg3 < 2; alg3++) {
            sp_t x;
            mk(&x, KINDS[a]);
            double rho[SN], w0[SD];
            fr_proxal_alg_params p = params(rho, w0);
            ff_proxal_trace tu, ts;
            ck_assert_int_eq(ff_proxal_trace_init(&tu, &x.P, &p), FR_OK);
            ck_assert_int_eq(ff_proxal_trace_init(&ts, &x.P, &p), FR_OK);
            int su = alg3 ? ff_proxal_alg3(&tu, &x.P, &p) : ff_proxal_alg1(&tu, &x.P, &p);
            ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
            int ss = alg3 ? ff_proxal_alg3(&ts, &x.P, &p) : ff_proxal_alg1(&ts, &x.P, &p);
            ck_assert_int_eq(su, FR_OK);
            ck_assert_int_eq(ss, FR_OK);
            trace_eq(&tu, &ts);
            ff_proxal_trace_clear(&tu);
            ff_proxal_trace_clear(&ts);
        }
}
END_TEST

static mpfr_t *mpa(size_t k, const double *v)
{
    mpfr_t *a = malloc(k * sizeof *a);
    for (size_t t = 0; t < k; t++) {
        mpfr_init2(a[t], 53);
        mpfr_set_d(a[t], v ? v[t] : 0.0, MPFR_RNDN);
    }
    return a;
}
static void mpf(mpfr_t *a, size_t k)
{
    for (size_t t = 0; t < k; t++)
        mpfr_clear(a[t]);
    free(a);
}
static int mp_eq(mpfr_t *a, mpfr_t *b, size_t k)
{
    for (size_t t = 0; t < k; t++)
        if (!mpfr_equal_p(a[t], b[t]) && !(mpfr_nan_p(a[t]) && mpfr_nan_p(b[t])))
            return 0;
    return 1;
}

/* ref's client_eval (f, g, c, J) and pik (v, g) of owner 1 at W: status */
static int ref_all(const fr_proxal_problem *P, mpfr_t *o)
{
    mpfr_t *w = mpa(SD, W), *wk = mpa(SD, WK), *mu = mpa((SN + 1) * SMT, MU), be;
    mpfr_init2(be, 53);
    mpfr_set_d(be, 10, MPFR_RNDN);
    size_t m = fr_proxal_mi(P, 1);
    int st = fr_proxal_client_eval(P, 1, w, o[0], o + 1, NULL, o + 1 + SD, o + 1 + SD + SMT, NULL, NULL);
    if (st == FR_OK)
        st = fr_proxal_pik(o[1 + SD + SMT + SD * SMT], o + 2 + SD + SMT + SD * SMT, NULL, P, 1, w, wk, mu, be);
    (void)m;
    mpfr_clear(be);
    mpf(w, SD), mpf(wk, SD), mpf(mu, (SN + 1) * SMT);
    return st;
}
#define REF_N (2 + 2 * SD + SMT + SD * SMT)

START_TEST(same_ref)
{
    for (int a = 0; a < 3; a++) {
        sp_t x;
        mk(&x, KINDS[a]);
        mpfr_t *u = mpa(REF_N, NULL), *s = mpa(REF_N, NULL);
        for (size_t k = 0; k < REF_N; k++)
            mpfr_set_nan(u[k]), mpfr_set_nan(s[k]);
        ck_assert_int_eq(ref_all(&x.P, u), FR_OK);
        ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
        ck_assert_int_eq(ref_all(&x.P, s), FR_OK);
        ck_assert_msg(mp_eq(u, s, REF_N), "kind %d", KINDS[a]);
        mpf(u, REF_N), mpf(s, REF_N);
    }
    /* ref's Algorithm 3 on the QP at 64 bits */
    sp_t x;
    mk(&x, FR_PROXAL_QP);
    double rho[SN], w0[SD];
    fr_proxal_alg_params p = params(rho, w0);
    fr_proxal_trace tu, ts;
    ck_assert_int_eq(fr_proxal_trace_init(&tu, &x.P, &p, 64), FR_OK);
    ck_assert_int_eq(fr_proxal_trace_init(&ts, &x.P, &p, 64), FR_OK);
    ck_assert_int_eq(fr_proxal_alg3(&tu, &x.P, &p), FR_OK);
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
    ck_assert_int_eq(fr_proxal_alg3(&ts, &x.P, &p), FR_OK);
    ck_assert_uint_eq(tu.iters, ts.iters);
    ck_assert(mp_eq(tu.w, ts.w, SD));
    ck_assert(mp_eq(tu.kkt1, ts.kkt1, tu.iters));
    fr_proxal_trace_clear(&tu);
    fr_proxal_trace_clear(&ts);
}
END_TEST

/* ---- a changed field voids the seal ------------------------------------------ */

/* The status of ff_ and fr_ client_eval of owner 1 at W (must agree). */
static int eval_st(const fr_proxal_problem *P)
{
    double f, g[SD];
    int sf = ff_proxal_client_eval(P, 1, W, &f, g, NULL, NULL, NULL, NULL, NULL);
    mpfr_t *w = mpa(SD, W), fr;
    mpfr_init2(fr, 53);
    int sr = fr_proxal_client_eval(P, 1, w, fr, NULL, NULL, NULL, NULL, NULL, NULL);
    mpfr_clear(fr);
    mpf(w, SD);
    ck_assert_int_eq(sf, sr);
    return sf;
}

START_TEST(field_voids_qp)
{
    static double Ab[SN * SD * SD], bb[SN * SD], Cb[(SN + 1) * SMT * SD], eb[(SN + 1) * SMT], lob[SD], hib[SD];
    for (int f = 0; f < 12; f++) {
        sp_t x;
        mk(&x, FR_PROXAL_QP);
        if (f >= 8)                                 /* h fields: seal with a box */
            x.P.h = FR_PROXAL_H_BOX, x.P.lo = x.lo, x.P.hi = x.hi;
        if (f == 7)
            x.P.h = FR_PROXAL_H_L1, x.P.gamma = 0.5;
        ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
        ck_assert_int_eq(eval_st(&x.P), FR_OK);
        memcpy(Ab, x.A, sizeof Ab), memcpy(bb, x.b, sizeof bb), memcpy(Cb, x.C, sizeof Cb);
        memcpy(eb, x.e, sizeof eb), memcpy(lob, x.lo, sizeof lob), memcpy(hib, x.hi, sizeof hib);
        int want;
        switch (f) {
        case 0: Ab[SD * SD + 1] = NAN, x.P.A = Ab, want = FR_ENONFINITE; break;
        case 1: bb[2] = INFINITY, x.P.b = bb, want = FR_ENONFINITE; break;
        case 2: Cb[3] = NAN, x.P.C = Cb, want = FR_ENONFINITE; break;
        case 3: eb[1] = -INFINITY, x.P.e = eb, want = FR_ENONFINITE; break;
        case 4: x.P.n = 0, want = FR_ESIZE; break;
        case 5: x.P.mt = FR_PROXAL_D_MAX + 1, want = FR_ESIZE; break;
        case 6: x.P.kind = FR_PROXAL_NP, want = FR_ENULL; break;
        case 7: x.P.gamma = -0.5, want = FR_EDOM; break;
        case 8: lob[1] = NAN, x.P.lo = lob, want = FR_ENONFINITE; break;
        case 9: hib[0] = -3, x.P.hi = hib, want = FR_EDOM; break;          /* lo > hi */
        case 10: x.P.h = FR_PROXAL_H_ZERO, x.A[1] += 1, want = FR_EDOM; break;   /* h, then contents */
        default: x.P.seal ^= 1, x.A[1] += 1, want = FR_EDOM; break;       /* the seal itself */
        }
        ck_assert_msg(!fr_proxal_problem_sealed(&x.P), "field %d", f);
        ck_assert_msg(eval_st(&x.P) == want, "field %d: %d, want %d", f, eval_st(&x.P), want);
        ck_assert_int_eq(fr_proxal_problem_check(&x.P), want);
    }
    /* d: a smaller d reads A_1 as a d' x d' block that is not symmetric */
    sp_t x;
    mk(&x, FR_PROXAL_QP);
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
    x.P.d = SD - 1;
    ck_assert(!fr_proxal_problem_sealed(&x.P));
    fr_proxal_problem Q = x.P;
    Q.seal = 0;
    ck_assert_int_eq(fr_proxal_problem_check(&x.P), fr_proxal_problem_check(&Q));
    ck_assert_int_eq(fr_proxal_problem_check(&x.P), FR_EDOM);
}
END_TEST

START_TEST(field_voids_lg)
{
    static double Xb[((SN + 1) * SS + 1) * SD], rb[SN + 1];
    static unsigned char yb[(SN + 1) * SS + 1], gb[(SN + 1) * SS + 1];
    static size_t cb[SN + 1];
    for (int f = 0; f < 7; f++) {
        sp_t x;
        mk(&x, f == 5 ? FR_PROXAL_FAIR : FR_PROXAL_NP);
        ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
        ck_assert_int_eq(eval_st(&x.P), FR_OK);
        memcpy(Xb, x.X, sizeof Xb), memcpy(rb, x.r, sizeof rb), memcpy(yb, x.y, sizeof yb);
        memcpy(gb, x.grp, sizeof gb), memcpy(cb, x.cnt, sizeof cb);
        int want;
        switch (f) {
        case 0: Xb[SD * SS + 2] = NAN, x.P.X = Xb, want = FR_ENONFINITE; break;
        case 1: rb[1] = -1, x.P.r = rb, want = FR_EDOM; break;             /* a skipped scan */
        case 2: yb[SS] = 2, x.P.y = yb, want = FR_EDOM; break;
        case 3: cb[2] = 1, x.P.cnt = cb, want = FR_EDOM; break;            /* one class only */
        case 4:                                     /* one more row, NaN: the total extent changed */
            x.X[(x.cnt[0] + x.cnt[1] + x.cnt[2]) * SD] = NAN;
            x.y[x.cnt[0] + x.cnt[1] + x.cnt[2]] = 0;
            x.cnt[SN]++;
            want = FR_ENONFINITE;
            break;
        case 5: gb[1] = 0, gb[3] = 0, x.P.grp = gb, want = FR_EDOM; break;  /* owner 0: one group */
        default: x.P.kind = FR_PROXAL_FAIR, want = FR_ENULL; break;         /* grp NULL */
        }
        ck_assert_msg(!fr_proxal_problem_sealed(&x.P), "field %d", f);
        ck_assert_msg(eval_st(&x.P) == want, "field %d: %d, want %d", f, eval_st(&x.P), want);
    }
}
END_TEST

/* ---- the contract -------------------------------------------------------------- */

START_TEST(contract)
{
    sp_t x;
    mk(&x, FR_PROXAL_QP);
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
    const double a1 = x.A[1];
    x.A[1] += 1;                                    /* contents: A_1 no longer symmetric */
    ck_assert(fr_proxal_problem_sealed(&x.P));       /* not seen while sealed */
    ck_assert_int_eq(fr_proxal_problem_check(&x.P), FR_OK);
    ck_assert_int_eq(eval_st(&x.P), FR_OK);
    x.P.seal = 0;                                   /* seal = 0: seen */
    ck_assert_int_eq(eval_st(&x.P), FR_EDOM);
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_EDOM);
    ck_assert(x.P.seal == 0);
    x.A[1] = a1;
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
    x.b[0] = NAN;                                   /* found by sealing again */
    ck_assert_int_eq(fr_proxal_problem_check(&x.P), FR_OK);
    ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_ENONFINITE);
    ck_assert(x.P.seal == 0);
    ck_assert_int_eq(eval_st(&x.P), FR_ENONFINITE);
    /* labels, groups and counts are indices and extents: checked sealed too */
    sp_t z;
    mk(&z, FR_PROXAL_FAIR);
    ck_assert_int_eq(fr_proxal_problem_seal(&z.P), FR_OK);
    z.y[2] = 7;
    ck_assert(fr_proxal_problem_sealed(&z.P));
    ck_assert_int_eq(eval_st(&z.P), FR_EDOM);
    z.y[2] = 1;
    z.grp[SS + 1] = 5;
    ck_assert_int_eq(eval_st(&z.P), FR_EDOM);
    z.grp[SS + 1] = 1;
    ck_assert_int_eq(eval_st(&z.P), FR_OK);
    /* counts moved between owners, the same total: the seal holds, the
     * entries are checked (owner 0 with two samples of one group) */
    size_t c0 = z.cnt[0];
    z.cnt[0] = 1, z.cnt[1] += c0 - 1;
    ck_assert(fr_proxal_problem_sealed(&z.P));
    ck_assert_int_eq(eval_st(&z.P), FR_EDOM);
    z.cnt[0] = c0, z.cnt[1] -= c0 - 1;
    /* a count above the limit: FR_ESIZE sealed or not (the total changes) */
    z.cnt[1] = FR_COUNT_MAX;
    ck_assert_int_eq(eval_st(&z.P), FR_ESIZE);
}
END_TEST

/* ---- bad per-call arguments ----------------------------------------------------- */

static void percall(const fr_proxal_problem *P, int *st)
{
    double f, g[SD], v, mun[(SN + 1) * SMT], bad[SD] = {0.5, NAN, 0.25}, mneg[(SN + 1) * SMT];
    memcpy(mneg, MU, sizeof mneg);
    mneg[1] = -1;
    int k = 0;
    st[k++] = ff_proxal_client_eval(P, 1, bad, &f, g, NULL, NULL, NULL, NULL, NULL);
    st[k++] = ff_proxal_client_eval(P, SN + 1, W, &f, g, NULL, NULL, NULL, NULL, NULL);
    st[k++] = ff_proxal_client_eval(P, 1, NULL, &f, g, NULL, NULL, NULL, NULL, NULL);
    st[k++] = ff_proxal_client_eval(P, 1, W, g, g, NULL, NULL, NULL, NULL, NULL);       /* overlap */
    st[k++] = ff_proxal_pik(&v, g, NULL, P, 1, W, WK, MU, 0);
    st[k++] = ff_proxal_pik(&v, g, NULL, P, 1, W, bad, MU, 10);
    st[k++] = ff_proxal_pik(&v, g, NULL, P, SN + 1, W, WK, MU, 10);
    st[k++] = ff_proxal_lk(&v, g, P, W, WK, mneg, 10);
    st[k++] = ff_proxal_mu_update(mun, P, W, MU, NAN);
    mpfr_t *w = mpa(SD, W), *wb = mpa(SD, bad), fr;
    mpfr_init2(fr, 53);
    st[k++] = fr_proxal_client_eval(P, 1, wb, fr, NULL, NULL, NULL, NULL, NULL, NULL);
    st[k++] = fr_proxal_client_eval(P, SN + 1, w, fr, NULL, NULL, NULL, NULL, NULL, NULL);
    mpfr_clear(fr);
    mpf(w, SD), mpf(wb, SD);
    double rho[SN], w0[SD];
    fr_proxal_alg_params p = params(rho, w0);
    ff_proxal_trace t;
    ck_assert_int_eq(ff_proxal_trace_init(&t, P, &p), FR_OK);
    w0[1] = NAN;
    st[k++] = ff_proxal_alg1(&t, P, &p);
    w0[1] = 0;
    p.beta = -1;
    st[k++] = ff_proxal_alg3(&t, P, &p);
    ff_proxal_trace_clear(&t);
}

START_TEST(percall_args)
{
    for (int a = 0; a < 3; a++) {
        sp_t x;
        mk(&x, KINDS[a]);
        int u[13], s[13];
        percall(&x.P, u);
        ck_assert_int_eq(fr_proxal_problem_seal(&x.P), FR_OK);
        percall(&x.P, s);
        for (int k = 0; k < 13; k++) {
            ck_assert_msg(u[k] == s[k], "kind %d call %d: %d sealed, %d not", KINDS[a], k, s[k], u[k]);
            if (!(a == 0 && k == 7))                /* QP: equality multipliers are free */
                ck_assert_msg(u[k] != FR_OK, "kind %d call %d", KINDS[a], k);
        }
    }
}
END_TEST

Suite *suite_proxal_seal(void)
{
    Suite *s = suite_create("proxal_seal");
    TCase *tc = tcase_create("seal");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, seal_valid);
    tcase_add_test(tc, seal_invalid);
    tcase_add_test(tc, same_fast);
    tcase_add_test(tc, same_fast_runs);
    tcase_add_test(tc, same_ref);
    tcase_add_test(tc, field_voids_qp);
    tcase_add_test(tc, field_voids_lg);
    tcase_add_test(tc, contract);
    tcase_add_test(tc, percall_args);
    suite_add_tcase(s, tc);
    return s;
}
