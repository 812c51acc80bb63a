/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_spec.c -- Check unit tests of the specification layer of the
 * SSCA runs (fedspec/ssca.h): fr_ssca_run_check at the edge of every
 * condition, fr_ssca_run_msgs against counts written here from 000's
 * Steps 4-6 (docs/SSCA.md 5 and 10), the algorithm names, and the seeded
 * synthetic problems and initial points against their documented ranges
 * and draws (docs/RNG.md 3.9; docs/rng_reference.py replays them
 * independently in ci/vectors-docs.sh). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_ssca_run_spec(void);

enum { N = 20, P = 4, J = 2, L = 3, NC = 2 };

static double Z[N * P], w1[J * (L + P)];
static size_t y[N], Ni[NC] = {12, 8}, Pi[NC] = {1, 3};

static fr_ssca_data data(void)
{
    fr_ssca_synth(11, N, P, L, Z, y);
    fr_ssca_init_w(11, L, J, P, w1);
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
    return p;
}

START_TEST(check_edges)
{
    fr_ssca_data D = data();
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++) {
        fr_ssca_params p = params(a);
        ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    }
    fr_ssca_params p = params(FR_SSCA_ALG1);
    /* the batch: B = min Ni is allowed, one more is not */
    p.B = 8;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.B = 9;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    /* SGD draws E B per client: 2 * 4 = 8 fits, 3 * 3 = 9 does not */
    p = params(FR_SSCA_SGD_S);
    p.B = 4;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.E = 3, p.B = 3;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    p.E = 0;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    /* feature-based: B = N allowed */
    p = params(FR_SSCA_ALG3);
    p.B = N;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.B = N + 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    /* T: one round is T = 2 */
    p = params(FR_SSCA_ALG1);
    p.T = 2;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.T = 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    p.T = FR_SSCA_T_MAX + 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    /* rho^(1) = a1 in (0, 1]: 1 allowed, its successor and 0 not */
    p = params(FR_SSCA_ALG1);
    p.a1 = 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.a1 = nextafter(1, 2);
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    p.a1 = 0;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    p.a1 = 0.9, p.alpha1 = -0.0;          /* -0 is not negative: a constant */
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.alpha1 = -0x1p-1074;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    p = params(FR_SSCA_ALG1);
    p.lambda = 0;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.lambda = -0x1p-1074;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    p.lambda = NAN;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ENONFINITE);
    /* momentum in [0, 1) */
    p = params(FR_SSCA_SGDM_F);
    p.mom = 0;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    p.mom = 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    /* labels: L - 1 allowed, L not */
    p = params(FR_SSCA_ALG1);
    size_t keep = y[5];
    y[5] = L - 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_OK);
    y[5] = L;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    y[5] = keep;
    /* a partition that does not sum to N (P) */
    Ni[1] = 7;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    Ni[1] = 8;
    p = params(FR_SSCA_ALG4);
    Pi[1] = 4;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    Pi[1] = 3;
    /* class order: a NULL beats a size beats a NaN beats a domain error */
    p = params(FR_SSCA_ALG2);
    p.c = 0, p.U = NAN, p.T = 1;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ESIZE);
    p.T = 4;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ENONFINITE);
    p.U = 0;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_EDOM);
    p.w1 = NULL;
    ck_assert_int_eq(fr_ssca_run_check(&D, &p), FR_ENULL);
    /* the partition the algorithm does not use may be NULL */
    fr_ssca_data Ds = D;
    Ds.Pi = NULL;
    p = params(FR_SSCA_ALG1);
    ck_assert_int_eq(fr_ssca_run_check(&Ds, &p), FR_OK);
    p = params(FR_SSCA_ALG3);
    ck_assert_int_eq(fr_ssca_run_check(&Ds, &p), FR_ENULL);
}
END_TEST

/* Reals per round, counted here from the steps of 000 Sec. V (docs/SSCA.md
 * 5 and 10): sample-based, each client receives w (d) and sends its
 * gradient sum (d), and for (40), whose f_{a,0} is 0, the loss sum too
 * (1 + d); SGD sends w both ways, MFL's SGD-m w and v; feature-based,
 * client i receives (omega_0, omega_i), sends h_i (J per batch sample) to
 * each other client and its block of the gradient, and client 0 also sends
 * the output layer's block (and the loss sum for (40)). */
START_TEST(msgs_counted)
{
    fr_ssca_data D = data();
    const uint64_t d = J * (L + P), d0 = L * J, B = 3;
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++) {
        fr_ssca_params p = params(a);
        fr_ssca_round_msgs m;
        ck_assert_int_eq(fr_ssca_run_msgs(&m, &D, &p), FR_OK);
        uint64_t down = 0, up = 0, peer = 0, M = fr_ssca_algo_constrained(a);
        if (!fr_ssca_algo_feature(a)) {
            uint64_t k = a == FR_SSCA_SGDM_S ? 2 : 1;
            down = NC * k * d;
            up = NC * (a == FR_SSCA_SGD_S || a == FR_SSCA_SGDM_S ? k * d : M + d);
        } else {
            for (size_t i = 0; i < NC; i++) {
                uint64_t di = J * Pi[i];
                down += d0 + di;
                up += di;
                peer += J * B * (NC - 1);
            }
            up += d0 + M;
        }
        ck_assert_msg(m.down == down && m.up == up && m.peer == peer,
                      "%s: (%llu, %llu, %llu) want (%llu, %llu, %llu)", fr_ssca_algo_name(a),
                      (unsigned long long)m.down, (unsigned long long)m.up,
                      (unsigned long long)m.peer, (unsigned long long)down,
                      (unsigned long long)up, (unsigned long long)peer);
    }
    /* SGD-m of [7] moves twice Algorithm 1's reals (ERRATA E-000-VI2) */
    fr_ssca_params p1 = params(FR_SSCA_ALG1), pm = params(FR_SSCA_SGDM_S);
    fr_ssca_round_msgs m1, mm = {7, 7, 7}, keep = mm;
    fr_ssca_run_msgs(&m1, &D, &p1);
    fr_ssca_run_msgs(&mm, &D, &pm);
    ck_assert(mm.up == 2 * m1.up && mm.down == 2 * m1.down);
    pm.mom = 2;                            /* out untouched on error */
    ck_assert_int_eq(fr_ssca_run_msgs(&keep, &D, &pm), FR_EDOM);
    ck_assert(keep.down == 7 && keep.up == 7 && keep.peer == 7);
    ck_assert_int_eq(fr_ssca_run_msgs(NULL, &D, &p1), FR_ENULL);
}
END_TEST

START_TEST(names)
{
    const char *want[] = {"alg1", "alg2", "alg3", "alg4", "sgd_s", "sgdm_s", "sgd_f", "sgdm_f"};
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_SGDM_F; a++) {
        ck_assert_str_eq(fr_ssca_algo_name(a), want[a - 1]);
        ck_assert_int_eq(fr_ssca_algo_feature(a), strchr(want[a - 1], 'f') != NULL || a == 3 || a == 4);
        ck_assert_int_eq(fr_ssca_algo_constrained(a), a == 2 || a == 4);
        ck_assert_int_eq(fr_ssca_algo_baseline(a), a >= 5);
    }
    ck_assert_ptr_null(fr_ssca_algo_name(0));
    ck_assert_ptr_null(fr_ssca_algo_name(9));
    ck_assert_int_eq(fr_ssca_algo_feature(0) | fr_ssca_algo_constrained(9) | fr_ssca_algo_baseline(-1), 0);
}
END_TEST

/* The synthetic data: deterministic in the seed, and every feature and
 * label equal to a replay of the draws documented in docs/RNG.md 3.9
 * (features k 2^-10, the planted class map, the argmax with ties to the
 * smaller class, the 10% label noise). */
START_TEST(synth_draws)
{
    enum { NS = 400, PS = 5, LS = 4 };
    static double Zs[NS * PS], Z2[NS * PS];
    static size_t ys[NS], y2[NS];
    ck_assert_int_eq(fr_ssca_synth(3, NS, PS, LS, Zs, ys), FR_OK);
    ck_assert_int_eq(fr_ssca_synth(3, NS, PS, LS, Z2, y2), FR_OK);
    ck_assert(memcmp(Zs, Z2, sizeof Zs) == 0 && memcmp(ys, y2, sizeof ys) == 0);
    /* replay the documented draws */
    frng_t g;
    frng_init(&g, 3, 0);
    uint64_t r;
    for (size_t k = 0; k < NS * PS; k++) {
        frng_below(&g, 2049, &r);
        ck_assert(Zs[k] == ldexp((double)r - 1024, -10));
    }
    long v[LS * PS];
    for (size_t k = 0; k < LS * PS; k++) {
        frng_below(&g, 5, &r);
        v[k] = (long)r - 2;
    }
    for (size_t n = 0; n < NS; n++) {
        size_t best = 0;
        long bv = 0;
        for (size_t l = 0; l < LS; l++) {
            long s = 0;
            for (size_t p = 0; p < PS; p++)
                s += v[l * PS + p] * (long)ldexp(Zs[n * PS + p], 10);
            if (l == 0 || s > bv)
                best = l, bv = s;
        }
        frng_below(&g, 10, &r);
        if (r == 0) {
            frng_below(&g, LS, &r);
            best = r;
        }
        ck_assert_uint_eq(ys[n], best);
    }
    ck_assert_int_eq(fr_ssca_synth(3, NS, PS, 1, Zs, ys), FR_EDOM);
    ck_assert_int_eq(fr_ssca_synth(3, NS, 4097, 2, Zs, ys), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_synth(3, NS, PS, LS, NULL, ys), FR_ENULL);
}
END_TEST

/* The initial point: |w_k| <= 2^-e (1024 * 2^-(10 + e)) with e from the
 * fan-in (J = 2: e = 1; P = 4: e = 1; J = 128: e = 4; P = 784: e = 5). */
START_TEST(init_scale)
{
    static double w[128 * (10 + 784)];
    ck_assert_int_eq(fr_ssca_init_w(5, 10, 128, 784, w), FR_OK);
    double m0 = 0, m1 = 0;
    for (size_t k = 0; k < 10 * 128; k++)
        m0 = fmax(m0, fabs(w[k]));
    for (size_t k = 10 * 128; k < 128 * (10 + 784); k++)
        m1 = fmax(m1, fabs(w[k]));
    ck_assert(m0 <= 0x1p-4 && m0 > 0x1p-5);
    ck_assert(m1 <= 0x1p-5 && m1 > 0x1p-6);
    frng_t g;
    frng_init(&g, 5, 1);
    uint64_t r;
    frng_below(&g, 2049, &r);
    ck_assert(w[0] == ldexp((double)r - 1024, -14));
    ck_assert_int_eq(fr_ssca_init_w(5, 0, 128, 784, w), FR_ESIZE);
    ck_assert_int_eq(fr_ssca_init_w(5, 10, 128, 784, NULL), FR_ENULL);
}
END_TEST

Suite *suite_ssca_run_spec(void)
{
    Suite *s = suite_create("ssca_run_spec");
    TCase *tc = tcase_create("spec");
    tcase_add_test(tc, check_edges);
    tcase_add_test(tc, msgs_counted);
    tcase_add_test(tc, names);
    tcase_add_test(tc, synth_draws);
    tcase_add_test(tc, init_scale);
    suite_add_tcase(s, tc);
    return s;
}
