/* SPDX-License-Identifier: Apache-2.0 */
/* test_spec_fl.c -- the specification layer of the 002 algorithms
 * (include/fedspec/fedepm.h, spec/fedepm/): known answers for the synthetic
 * problems and the selection stream, produced by the independent Python
 * implementation docs/rng_reference.py; the paper's bracket tau_k against
 * its definition; selection sizes; argument checks. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedspec/fedepm.h"

START_TEST(synth_known_answers)
{
    /* python3 docs/rng_reference.py: synth(seed 2026, m 4, n 3, d in [2,5]) */
    static const size_t want_d[4] = {5, 5, 5, 3};
    static const long want_k[2][3] = {{379, -699, 101}, {540, -687, 617}};
    static const int want_b[18] = {1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0};
    size_t d[4];
    double X[18 * 3], b[18];
    ck_assert_int_eq(fr_synth_sizes(2026, 4, 2, 5, d), FR_OK);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(d[i], want_d[i]);
    ck_assert_int_eq(fr_synth_data(2026, 4, 3, d, X, b), FR_OK);
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < 3; j++)
            ck_assert(X[t * 3 + j] == ldexp((double)want_k[t][j], -13));   /* s = 3 */
    for (int t = 0; t < 18; t++) ck_assert(b[t] == want_b[t]);
}
END_TEST

START_TEST(selection_known_answers)
{
    /* python3 docs/rng_reference.py: S^1..S^3 for seed 11, m 4, nsel 2 */
    static const size_t want[3][2] = {{0, 3}, {1, 2}, {0, 1}};
    frng_t g;
    size_t s[2];
    frng_init(&g, 11, FR_STREAM_SELECT);
    for (int r = 0; r < 3; r++) {
        ck_assert_int_eq(frng_sample(&g, 4, 2, s), FR_OK);
        ck_assert_uint_eq(s[0], want[r][0]);
        ck_assert_uint_eq(s[1], want[r][1]);
    }
}
END_TEST

START_TEST(synth_properties)
{
    size_t d[7];
    ck_assert_int_eq(fr_synth_sizes(99, 7, 3, 40, d), FR_OK);
    size_t D = 0;
    for (int i = 0; i < 7; i++) { ck_assert(d[i] >= 3 && d[i] <= 40); D += d[i]; }
    double *X = malloc(D * 4 * sizeof *X), *b = malloc(D * sizeof *b);
    ck_assert_int_eq(fr_synth_data(99, 7, 4, d, X, b), FR_OK);
    for (int j = 0; j < 4; j++) {             /* columns have norm <= 1 (unit-length attributes) */
        double s2 = 0;
        for (size_t t = 0; t < D; t++) s2 += X[t * 4 + j] * X[t * 4 + j];
        ck_assert(s2 <= 1);
    }
    fr_logreg P = {.m = 7, .n = 4, .d = d, .X = X, .b = b, .beta = 1e-3};
    ck_assert_int_eq(fr_logreg_check(&P), FR_OK);
    ck_assert_uint_eq(fr_logreg_samples(&P), D);
    free(X);
    free(b);
}
END_TEST

START_TEST(tau_is_the_papers_bracket)
{
    /* [t] = the largest integer smaller than t + 1 (002 Sec. II-A) */
    for (unsigned long k0 = 1; k0 <= 17; k0++)
        for (unsigned long k = 0; k <= 200; k++) {
            unsigned long q = 0;
            while ((q + 1) * k0 < k + k0) q++;
            ck_assert_uint_eq(fr_tau(k, k0), q);
        }
    ck_assert_uint_eq(fr_tau(5, 0), 0);
}
END_TEST

START_TEST(selection_size)
{
    size_t k = 99;
    ck_assert_int_eq(fr_selection_size(0.5, 50, &k), FR_OK); ck_assert_uint_eq(k, 25);
    ck_assert_int_eq(fr_selection_size(0.2, 50, &k), FR_OK); ck_assert_uint_eq(k, 10);
    ck_assert_int_eq(fr_selection_size(1.0, 7, &k), FR_OK); ck_assert_uint_eq(k, 7);
    ck_assert_int_eq(fr_selection_size(0.01, 7, &k), FR_OK); ck_assert_uint_eq(k, 1);
    ck_assert_int_eq(fr_selection_size(0.5, 5, &k), FR_OK); ck_assert_uint_eq(k, 3);  /* 2.5: ties away */
    k = 99;
    ck_assert_int_eq(fr_selection_size(0, 5, &k), FR_EDOM);
    ck_assert_int_eq(fr_selection_size(1.5, 5, &k), FR_EDOM);
    ck_assert_int_eq(fr_selection_size(NAN, 5, &k), FR_ENONFINITE);
    ck_assert_int_eq(fr_selection_size(0.5, 0, &k), FR_ESIZE);
    ck_assert_int_eq(fr_selection_size(0.5, 5, NULL), FR_ENULL);
    ck_assert_uint_eq(k, 99);
}
END_TEST

START_TEST(argument_checks)
{
    size_t d[2] = {2, 1};
    double X[3 * 2] = {1, 0, 0, 1, 1, 1}, b[3] = {0, 1, 1};
    fr_logreg P = {.m = 2, .n = 2, .d = d, .X = X, .b = b, .beta = 1e-3};
    fr_fedepm_params p = {.k0 = 2, .rounds = 3, .nsel = 1, .lambda = 1, .eta = 1, .mu0 = 0.05,
                      .c = 1e-8, .alpha = 1.001, .eps = 0.1, .noise = FR_NOISE_EQ39,
                      .stopping = 0, .seed = 1, .mu_prox = 1e-5, .ell = 3};
    ck_assert_int_eq(fr_fedepm_check(&P, &p), FR_OK);
    ck_assert_int_eq(fr_sfedprox_check(&P, &p), FR_OK);
        ck_assert_int_eq(fr_fedepm_check(NULL, &p), FR_ENULL);
    ck_assert_int_eq(fr_fedepm_check(&P, NULL), FR_ENULL);
    fr_fedepm_params q = p; q.alpha = 1;        ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_EDOM);
    q = p; q.nsel = 3;                      ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ESIZE);
    q = p; q.k0 = 0;                        ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ESIZE);
    q = p; q.eps = 0;                       ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_EDOM);
    q.noise = FR_NOISE_NONE;                ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_OK);
    q = p; q.lambda = NAN;                  ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ENONFINITE);
    ck_assert_int_eq(fr_sfedavg_check(&P, &q), FR_OK);   /* lambda unused there */
    q = p; q.mu_prox = -1;                  ck_assert_int_eq(fr_sfedprox_check(&P, &q), FR_EDOM);
    q = p; q.ell = 0;                       ck_assert_int_eq(fr_sfedprox_check(&P, &q), FR_ESIZE);
    q = p; q.noise = FR_NOISE_EQ27;         ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ENULL);
    double Delta[2] = {1, 0};
    q.Delta = Delta;                        ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_EDOM);
    q = p; q.rounds = (unsigned long)-1;    ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ESIZE);
    b[1] = 0.5;                             ck_assert_int_eq(fr_logreg_check(&P), FR_EDOM);
    b[1] = 1; X[2] = INFINITY;              ck_assert_int_eq(fr_logreg_check(&P), FR_ENONFINITE);
    X[2] = 0; d[1] = 0;                     ck_assert_int_eq(fr_logreg_check(&P), FR_ESIZE);
    d[1] = 1; P.beta = 0;                   ck_assert_int_eq(fr_logreg_check(&P), FR_EDOM);
}
END_TEST

Suite *suite_spec_fl(void)
{
    Suite *s = suite_create("spec_fl");
    TCase *tc = tcase_create("spec_fl");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, synth_known_answers);
    tcase_add_test(tc, selection_known_answers);
    tcase_add_test(tc, synth_properties);
    tcase_add_test(tc, tau_is_the_papers_bracket);
    tcase_add_test(tc, selection_size);
    tcase_add_test(tc, argument_checks);
    suite_add_tcase(s, tc);
    return s;
}
