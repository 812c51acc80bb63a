/* SPDX-License-Identifier: Apache-2.0 */
/* test_seal.c -- Check unit tests of the seal of fr_ssca_data
 * (fedref_common.h rule 6, fedspec/ssca.h fr_ssca_data_seal): the seal's
 * own statuses, the same results sealed and unsealed in both wings (fast
 * bit for bit, ref's mpfr values equal), every field voiding the seal (the
 * next call then finds the bad data the field now points to, in spec, fast
 * and ref), the contents contract (a changed Z is not seen until sealed
 * again), and a bad per-call argument giving the same status sealed or
 * not. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_ssca_seal(void);

enum { N = 20, P = 4, J = 2, L = 3, NC = 2, D_ = J * (L + P) };

static double Z[N * P], Zbad[N * P], w1[D_];
static size_t y[N], ybad[N], Ni[NC], Pi[NC];

static fr_ssca_data data(void)
{
    ck_assert_int_eq(fr_ssca_synth(11, N, P, L, Z, y), FR_OK);
    ck_assert_int_eq(fr_ssca_init_w(11, L, J, P, w1), FR_OK);
    memcpy(Zbad, Z, sizeof Z);
    Zbad[N * P - 1] = NAN;
    memcpy(ybad, y, sizeof y);
    ybad[N / 2] = L;
    Ni[0] = 12, Ni[1] = 8;
    Pi[0] = 1, Pi[1] = 3;
    fr_ssca_data D = {N, P, J, L, Z, y, NC, Ni, Pi, 0};
    return D;
}

static fr_ssca_params params(int algo)
{
    fr_ssca_params p;
    memset(&p, 0, sizeof p);
    p.algo = algo;
    p.T = 4;
    p.B = 3;
    p.E = 2;
    p.a1 = 0.9, p.alpha1 = 0.1, p.a2 = 0.5, p.alpha2 = 0.1;
    p.tau = 0.2, p.lambda = 1e-5, p.U = 0.13, p.c = 1e5;
    p.lr_a = 0.3, p.lr_alpha = 0.3, p.mom = 0.1;
    p.w1 = w1;
    p.keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST;
    return p;
}

/* fast: ff_ssca_trace_init then ff_ssca_run; the first failing status. */
static int fast_run(ff_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *p)
{
    int st = ff_ssca_trace_init(t, D, p);
    return st != FR_OK ? st : ff_ssca_run(t, D, p);
}

static int ref_run(fr_ssca_trace *t, const fr_ssca_data *D, const fr_ssca_params *p)
{
    int st = fr_ssca_trace_init(t, D, p, 64);
    return st != FR_OK ? st : fr_ssca_run(t, D, p);
}

/* The status of every entry point on (D, p): spec, fast (init, run on a
 * trace initialised from the good problem), ref (same); all must agree. */
static int all_status(const fr_ssca_data *D, const fr_ssca_params *p, const fr_ssca_data *good)
{
    const int s = fr_ssca_run_check(D, p);
    fr_ssca_round_msgs m;
    ck_assert_int_eq(fr_ssca_run_msgs(&m, D, p), s);
    ff_ssca_trace tf = {0};
    fr_ssca_trace tr = {0};
    int a = ff_ssca_trace_init(&tf, D, p);
    ck_assert_int_eq(a, s);
    ff_ssca_trace_clear(&tf);
    a = fr_ssca_trace_init(&tr, D, p, 64);
    ck_assert_int_eq(a, s);
    fr_ssca_trace_clear(&tr);
    fr_ssca_params pg = *p;
    pg.w1 = w1;                             /* a trace the good problem accepts */
    pg.algo = fr_ssca_algo_name(p->algo) ? p->algo : FR_SSCA_ALG1;
    pg.T = p->T >= 2 && p->T <= FR_SSCA_T_MAX ? p->T : 4;
    if (ff_ssca_trace_init(&tf, good, &pg) == FR_OK && p->T == pg.T && p->algo == pg.algo) {
        ck_assert_int_eq(ff_ssca_run(&tf, D, p), s);
    }
    ff_ssca_trace_clear(&tf);
    if (fr_ssca_trace_init(&tr, good, &pg, 64) == FR_OK && p->T == pg.T && p->algo == pg.algo) {
        ck_assert_int_eq(fr_ssca_run(&tr, D, p), s);
    }
    fr_ssca_trace_clear(&tr);
    return s;
}

START_TEST(seal_statuses)
{
    fr_ssca_data D = data();
    ck_assert_int_eq(fr_ssca_data_seal(NULL), FR_ENULL);
    ck_assert_int_eq(fr_ssca_data_sealed(NULL), 0);
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 0);         /* zero-initialised */
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    ck_assert(D.seal != 0);
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 1);
    /* one partition may be NULL */
    fr_ssca_data E = D;
    E.Pi = NULL;
    ck_assert_int_eq(fr_ssca_data_sealed(&E), 0);
    ck_assert_int_eq(fr_ssca_data_seal(&E), FR_OK);
    ck_assert_int_eq(fr_ssca_data_sealed(&E), 1);
    /* invalid data: the check's status, seal 0 (written over a stale one) */
    struct {
        int want;
        fr_ssca_data D;
    } bad[12];
    size_t nb = 0, Nsh[NC] = {12, 7}, Pz[NC] = {0, 4};
    for (int k = 0; k < 12; k++)
        bad[k].D = D;
    bad[nb].want = FR_ENULL, bad[nb++].D.Z = NULL;
    bad[nb].want = FR_ENULL, bad[nb++].D.y = NULL;
    bad[nb].want = FR_ESIZE, bad[nb++].D.N = 0;
    bad[nb].want = FR_ESIZE, bad[nb++].D.J = 0;
    bad[nb].want = FR_ESIZE, bad[nb++].D.nc = 0;
    bad[nb].want = FR_ESIZE, bad[nb++].D.Ni = Nsh;        /* sums to 19 */
    bad[nb].want = FR_ESIZE, bad[nb++].D.Pi = Pz;         /* a zero count */
    bad[nb].want = FR_ENONFINITE, bad[nb++].D.Z = Zbad;
    bad[nb].want = FR_EDOM, bad[nb++].D.y = ybad;
    bad[nb].want = FR_EDOM, bad[nb++].D.L = 1;           /* labels 0..2 >= 1 too */
    bad[nb].want = FR_ENONFINITE, bad[nb].D.Z = Zbad, bad[nb++].D.y = ybad;  /* class order */
    for (size_t k = 0; k < nb; k++) {
        bad[k].D.seal = 12345;
        ck_assert_msg(fr_ssca_data_seal(&bad[k].D) == bad[k].want, "case %zu", k);
        ck_assert_msg(bad[k].D.seal == 0, "case %zu", k);
        ck_assert_int_eq(fr_ssca_data_sealed(&bad[k].D), 0);
    }
}
END_TEST

/* Bit for bit in fast, equal mpfr values in ref, sealed or not. */
START_TEST(same_results)
{
    fr_ssca_data U = data(), S = U;
    ck_assert_int_eq(fr_ssca_data_seal(&S), FR_OK);
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++) {
        fr_ssca_params p = params(a);
        ff_ssca_trace tu = {0}, ts = {0};
        ck_assert_int_eq(fast_run(&tu, &U, &p), FR_OK);
        ck_assert_int_eq(fast_run(&ts, &S, &p), FR_OK);
        ck_assert(memcmp(tu.w, ts.w, p.T * D_ * sizeof *tu.w) == 0);
        ck_assert(memcmp(tu.cost, ts.cost, p.T * sizeof *tu.cost) == 0);
        ck_assert(memcmp(tu.norm2, ts.norm2, p.T * sizeof *tu.norm2) == 0);
        ck_assert(memcmp(tu.draws, ts.draws, (p.T - 1) * tu.nd * sizeof *tu.draws) == 0);
        ck_assert(memcmp(&tu.msgs, &ts.msgs, sizeof tu.msgs) == 0);
        ck_assert_int_eq(ff_ssca_run(&ts, &S, &p), FR_OK);    /* again on the same trace */
        ck_assert(memcmp(tu.w, ts.w, p.T * D_ * sizeof *tu.w) == 0);
        ff_ssca_trace_clear(&tu);
        ff_ssca_trace_clear(&ts);
    }
    const int ra[] = {FR_SSCA_ALG1, FR_SSCA_ALG4, FR_SSCA_SGD_S};
    for (size_t q = 0; q < sizeof ra / sizeof *ra; q++) {
        fr_ssca_params p = params(ra[q]);
        p.T = 3;
        fr_ssca_trace tu = {0}, ts = {0};
        ck_assert_int_eq(ref_run(&tu, &U, &p), FR_OK);
        ck_assert_int_eq(ref_run(&ts, &S, &p), FR_OK);
        for (size_t k = 0; k < p.T * D_; k++)
            ck_assert(mpfr_equal_p(tu.w[k], ts.w[k]));
        for (size_t k = 0; k < p.T; k++)
            ck_assert(mpfr_equal_p(tu.cost[k], ts.cost[k]));
        fr_ssca_trace_clear(&tu);
        fr_ssca_trace_clear(&ts);
    }
}
END_TEST

/* Changing any one field voids the seal; a field pointing to bad data is
 * then found by every entry point. */
START_TEST(fields_void)
{
    const fr_ssca_data G = data();
    fr_ssca_data S = G;
    ck_assert_int_eq(fr_ssca_data_seal(&S), FR_OK);
    const fr_ssca_params p = params(FR_SSCA_ALG1);
    ck_assert_int_eq(all_status(&S, &p, &G), FR_OK);
    size_t Ni2[NC] = {12, 8}, Pi2[NC] = {1, 3}, y2[N];
    double Z2[N * P];
    memcpy(y2, y, sizeof y);
    memcpy(Z2, Z, sizeof Z);
    for (int f = 0; f < 13; f++) {
        fr_ssca_data D = S;
        switch (f) {
        case 0: D.N = N - 1; break;
        case 1: D.P = P - 1; break;
        case 2: D.J = J - 1; break;
        case 3: D.L = L + 1; break;
        case 4: D.nc = NC - 1; break;
        case 5: D.Z = Z2; break;
        case 6: D.y = y2; break;
        case 7: D.Ni = Ni2; break;
        case 8: D.Pi = Pi2; break;
        case 9: D.Ni = NULL; break;
        case 10: D.Pi = NULL; break;
        case 11: D.Z = Zbad; break;
        case 12: D.seal ^= 1; break;
        }
        ck_assert_msg(fr_ssca_data_sealed(&D) == 0, "field %d", f);
    }
    /* a size-array entry that changes the total extent (the same pointer) */
    fr_ssca_data D = S;
    D.Ni = Ni2;
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    Ni2[1] = 9;
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 0);
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ESIZE);
    Ni2[1] = 8;
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 1);
    D.Pi = Pi2;
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    Pi2[0] = 2;
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 0);
    fr_ssca_params pf = params(FR_SSCA_ALG3);
    ck_assert_int_eq(all_status(&D, &pf, &G), FR_ESIZE);
    Pi2[0] = 1;
    /* Z pointing to an array with a NaN: found by spec, fast and ref */
    D = S;
    D.Z = Zbad;
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ENONFINITE);
    ck_assert_int_eq(all_status(&D, &pf, &G), FR_ENONFINITE);
    /* y pointing to a label >= L */
    D = S;
    D.y = ybad;
    ck_assert_int_eq(all_status(&D, &p, &G), FR_EDOM);
    /* a size that no longer matches the partition */
    D = S;
    D.N = N + 1;
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ESIZE);
    /* labels are indices: checked on every call, sealed or not */
    D = S;
    y2[3] = L;
    D.y = y2;
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_EDOM);
    y2[3] = y[3];
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    y2[3] = L + 7;                          /* contents changed while sealed */
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 1);
    ck_assert_int_eq(all_status(&D, &p, &G), FR_EDOM);
    y2[3] = y[3];
}
END_TEST

/* The contract: Z's contents changed after sealing are not seen until
 * sealed again; re-sealing finds them. */
START_TEST(contents_contract)
{
    const fr_ssca_data G = data();
    double Z2[N * P];
    memcpy(Z2, Z, sizeof Z);
    fr_ssca_data D = G;
    D.Z = Z2;
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    Z2[5] = INFINITY;
    fr_ssca_params p = params(FR_SSCA_ALG1);
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 1);
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);         /* not seen */
    fr_ssca_data Du = D;
    Du.seal = 0;
    ck_assert_int_eq(fr_ssca_run_check(&Du, &p), FR_ENONFINITE); /* unsealed: seen */
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_ENONFINITE);      /* re-sealing finds it */
    ck_assert(D.seal == 0);
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ENONFINITE);
    Z2[5] = Z[5];
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    ck_assert_int_eq(all_status(&D, &p, &G), FR_OK);
}
END_TEST

/* A bad per-call argument: the same status sealed or not, in both wings. */
START_TEST(per_call_args)
{
    const fr_ssca_data G = data();
    fr_ssca_data S = G;
    ck_assert_int_eq(fr_ssca_data_seal(&S), FR_OK);
    double wbad[D_];
    memcpy(wbad, w1, sizeof w1);
    wbad[D_ - 1] = NAN;
    for (int c = 0; c < 10; c++) {
        fr_ssca_params p = params(c < 5 ? FR_SSCA_ALG1 : FR_SSCA_ALG4);
        int want = FR_OK;
        switch (c % 5) {
        case 0: p.B = c < 5 ? 9 : N + 1, want = FR_ESIZE; break;   /* > min Ni, > N */
        case 1: p.w1 = wbad, want = FR_ENONFINITE; break;
        case 2: p.tau = 0, want = FR_EDOM; break;
        case 3: p.w1 = NULL, want = FR_ENULL; break;
        case 4: p.a1 = NAN, want = FR_ENONFINITE; break;
        }
        const int su = all_status(&G, &p, &G), ss = all_status(&S, &p, &G);
        ck_assert_msg(su == want && ss == want, "case %d: %d %d, want %d", c, su, ss, want);
    }
    /* the data's own errors rank before a per-call one as unsealed */
    fr_ssca_data D = S;
    D.Z = Zbad;
    fr_ssca_params p = params(FR_SSCA_ALG1);
    p.tau = 0;
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ENONFINITE);
    p = params(FR_SSCA_ALG1);
    p.B = 9;
    ck_assert_int_eq(all_status(&D, &p, &G), FR_ESIZE);
}
END_TEST

Suite *suite_ssca_seal(void)
{
    Suite *s = suite_create("ssca_seal");
    TCase *tc = tcase_create("seal");
    tcase_add_test(tc, seal_statuses);
    tcase_add_test(tc, same_results);
    tcase_add_test(tc, fields_void);
    tcase_add_test(tc, contents_contract);
    tcase_add_test(tc, per_call_args);
    suite_add_tcase(s, tc);
    return s;
}
