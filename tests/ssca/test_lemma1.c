/* SPDX-License-Identifier: Apache-2.0 */
/* test_lemma1.c -- Check unit tests of Lemma 1 of 000, (41), (43)-(45):
 * fr_ssca_lemma1 (MPFR) and ff_ssca_lemma1 / ff_ssca_lemma1_bound
 * (binary64).
 *
 * Oracles, independent of both libraries:
 *  - the rational branches (nu = 0, nu = c): the exact values as GMP
 *    rationals, the branch decided here in rationals (D and D (1 + tau c)^2
 *    - b), rounded once by mpfr_set_q; ref must agree bit for bit;
 *  - the interior: the printed form (sqrt(b / D) - 1) / tau of (45) and
 *    w_j = -nu a_j / (2 (1 + nu tau)) of (43)-(44), evaluated naively at
 *    4p + 64 bits, accepted only when both ends of its error interval round
 *    to the same p-bit number (else the case is skipped and counted);
 *  - fast against ref: the error is within ff_ssca_lemma1_bound, the bound
 *    is small when the data are not near a branch boundary, and fast takes
 *    ref's branch there.
 * Random cases are replayable: FEDREF_SEED=<n> (printed on failure);
 * FEDREF_TEST_EFFORT multiplies their number. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <mpfr.h>

#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_ssca_lemma1(void);

#define U53 0x1p-53

static uint64_t seed;
static frng_t rng;

#define SUITE_SEED 20240601u    /* the seed without FEDREF_SEED */
#define SUITE_STREAM 0x1e33a1u    /* this suite's stream */

static uint64_t rng64(void) { return frng_next64(&rng); }

static int effort(int n) { return tu_effort(n); }

static int rnd_int(int lo, int hi) { return lo + (int)(rng64() % (uint64_t)(hi - lo + 1)); }

/* A short dyadic k 2^e, |k| < 2^bits. */
static double rnd_dy(int bits, int elo, int ehi)
{
    double k = (double)(rng64() >> (64 - bits));
    double x = ldexp(k, rnd_int(elo, ehi) - bits);
    return rng64() & 1 ? -x : x;
}

/* ---- an instance, in binary64 (exact in MPFR and in GMP) --------------- */

typedef struct {
    size_t d;
    double a[6], C, U, tau, c;
} inst;

static void random_inst(inst *I)
{
    I->d = (size_t)rnd_int(1, 6);
    for (size_t j = 0; j < I->d; j++)
        I->a[j] = rng64() % 7 == 0 ? 0 : rnd_dy(20, -3, 3);
    I->tau = fabs(rnd_dy(12, -4, 1)) + 0x1p-8;
    I->c = fabs(rnd_dy(16, -2, 17)) + 0.25;
    I->C = rnd_dy(24, -3, 4);
    I->U = rng64() % 6 == 0 ? I->C : rnd_dy(24, -3, 4);
}

/* The exact quantities as rationals: b, D, U - C, and the branch. */
static int exact_branch(const inst *I, mpq_t b, mpq_t D)
{
    mpq_t t, u, tau, c;
    mpq_inits(t, u, tau, c, NULL);
    mpq_set_ui(b, 0, 1);
    for (size_t j = 0; j < I->d; j++) {
        mpq_set_d(t, I->a[j]);
        mpq_mul(t, t, t);
        mpq_add(b, b, t);
    }
    mpq_set_d(tau, I->tau);
    mpq_set_d(c, I->c);
    mpq_set_d(t, I->U);
    mpq_set_d(u, I->C);
    mpq_sub(t, t, u);                        /* U - C */
    int suc = mpq_sgn(t);
    mpq_mul(t, t, tau);
    mpq_mul_2exp(t, t, 2);
    mpq_add(D, b, t);                        /* D */
    int br;
    if (mpq_sgn(D) <= 0) {
        br = FR_SSCA_L1_DNONPOS;
    } else if (suc >= 0) {
        br = FR_SSCA_L1_ZERO;
    } else {
        mpq_mul(t, tau, c);
        mpq_set_ui(u, 1, 1);
        mpq_add(t, t, u);
        mpq_mul(t, t, t);
        mpq_mul(t, t, D);                    /* D (1 + tau c)^2 */
        br = mpq_cmp(t, b) <= 0 ? FR_SSCA_L1_CLIPC : FR_SSCA_L1_INTERIOR;
    }
    mpq_clears(t, u, tau, c, NULL);
    return br;
}

/* Run ref at precision p. */
static int run_ref(const inst *I, mpfr_prec_t p, mpfr_t nu, mpfr_t *w, int *br)
{
    mpfr_t a[6], C, U, tau, c;
    mpfr_inits2(53, C, U, tau, c, (mpfr_ptr)0);
    for (size_t j = 0; j < I->d; j++) {
        mpfr_init2(a[j], 53);
        mpfr_set_d(a[j], I->a[j], MPFR_RNDN);
        mpfr_set_prec(w[j], p);
    }
    mpfr_set_prec(nu, p);
    mpfr_set_d(C, I->C, MPFR_RNDN);
    mpfr_set_d(U, I->U, MPFR_RNDN);
    mpfr_set_d(tau, I->tau, MPFR_RNDN);
    mpfr_set_d(c, I->c, MPFR_RNDN);
    int st = fr_ssca_lemma1(nu, w, br, a, I->d, C, tau, c, U);
    for (size_t j = 0; j < I->d; j++)
        mpfr_clear(a[j]);
    mpfr_clears(C, U, tau, c, (mpfr_ptr)0);
    return st;
}

/* x (precision p) is q rounded to nearest, zero as +0. */
static int same_as_q(mpfr_srcptr x, const mpq_t q)
{
    mpfr_t y;
    mpfr_init2(y, mpfr_get_prec(x));
    mpfr_set_q(y, q, MPFR_RNDN);
    int ok = mpfr_equal_p(x, y) && mpfr_signbit(x) == mpfr_signbit(y);
    if (mpfr_zero_p(x))
        ok = ok && !mpfr_signbit(x);
    mpfr_clear(y);
    return ok;
}

/* ---- ref: the rational branches, exactly --------------------------------- */

START_TEST(ref_rational_branches)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    static const mpfr_prec_t precs[3] = {24, 53, 200};
    int n = effort(3000), checked = 0;
    mpq_t b, D, q, t, u;
    mpq_inits(b, D, q, t, u, NULL);
    mpfr_t nu, w[6];
    mpfr_init2(nu, 53);
    for (int j = 0; j < 6; j++)
        mpfr_init2(w[j], 53);
    for (int it = 0; it < n; it++) {
        inst I;
        random_inst(&I);
        if (it % 5 == 0)
            I.C = I.U + 64;                                  /* D < 0 mostly */
        int ebr = exact_branch(&I, b, D), br = 0;
        if (ebr == FR_SSCA_L1_INTERIOR)
            continue;
        mpfr_prec_t p = precs[it % 3];
        ck_assert_int_eq(run_ref(&I, p, nu, w, &br), FR_OK);
        ck_assert_msg(br == ebr, "branch %d, exact %d [FEDREF_SEED=%llu]", br, ebr,
                      (unsigned long long)seed);
        int flat = mpq_sgn(b) == 0 && I.U == I.C;
        if (ebr == FR_SSCA_L1_ZERO) {
            mpq_set_ui(q, 0, 1);
            ck_assert(same_as_q(nu, q));
            for (size_t j = 0; j < I.d; j++)
                ck_assert_msg(same_as_q(w[j], q), "w_j not +0 [FEDREF_SEED=%llu]", (unsigned long long)seed);
        } else {
            /* nu = c, w_j = -a_j c / (2 (1 + tau c)) */
            mpq_set_d(q, I.c);
            ck_assert(same_as_q(nu, q));
            mpq_set_d(t, I.tau);
            mpq_mul(t, t, q);
            mpq_set_ui(u, 1, 1);
            mpq_add(t, t, u);
            mpq_mul_2exp(t, t, 1);                         /* 2 (1 + tau c) */
            for (size_t j = 0; j < I.d; j++) {
                mpq_set_d(u, -I.a[j]);
                mpq_mul(u, u, q);
                mpq_div(u, u, t);
                ck_assert_msg(same_as_q(w[j], u), "w_%zu (flat %d) not RN of the exact value [FEDREF_SEED=%llu]",
                              j, flat, (unsigned long long)seed);
            }
        }
        checked++;
    }
    ck_assert_int_gt(checked, n / 4);
    mpq_clears(b, D, q, t, u, NULL);
    mpfr_clear(nu);
    for (int j = 0; j < 6; j++)
        mpfr_clear(w[j]);
}
END_TEST

/* ---- ref: the interior against the printed (45) at 4p + 64 bits ---------- */

/* 1 if every value of [x (1 - 2^-e), x (1 + 2^-e)] rounds to y at y's
 * precision; -1 if undecided (the case is skipped). */
static int rounds_to(mpfr_srcptr x, mpfr_srcptr y, long e)
{
    mpfr_t lo, hi, r1, r2;
    mpfr_prec_t hp = mpfr_get_prec(x) + 8;
    mpfr_inits2(hp, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(mpfr_get_prec(y), r1, r2, (mpfr_ptr)0);
    mpfr_mul_2si(lo, x, -e, MPFR_RNDN);
    mpfr_abs(lo, lo, MPFR_RNDN);
    mpfr_add(hi, x, lo, MPFR_RNDU);
    mpfr_sub(lo, x, lo, MPFR_RNDD);
    mpfr_set(r1, lo, MPFR_RNDN);
    mpfr_set(r2, hi, MPFR_RNDN);
    int res = !mpfr_equal_p(r1, r2) ? -1 : mpfr_equal_p(r1, y);
    mpfr_clears(lo, hi, r1, r2, (mpfr_ptr)0);
    return res;
}

START_TEST(ref_interior_printed_form)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(2000), checked = 0, skipped = 0;
    mpfr_t nu, w[6], x, y, t, b, D;
    mpfr_init2(nu, 53);
    for (int j = 0; j < 6; j++)
        mpfr_init2(w[j], 53);
    for (int it = 0; it < n; it++) {
        inst I;
        random_inst(&I);
        I.C = fabs(I.C) + fabs(I.U);                       /* U < C more often */
        mpfr_prec_t p = it % 2 ? 53 : 160, hp = 4 * p + 64;
        int br = 0;
        ck_assert_int_eq(run_ref(&I, p, nu, w, &br), FR_OK);
        if (br != FR_SSCA_L1_INTERIOR)
            continue;
        mpfr_inits2(hp, x, y, t, b, D, (mpfr_ptr)0);
        mpfr_set_zero(b, 1);
        for (size_t j = 0; j < I.d; j++)
            mpfr_fma(b, (mpfr_set_d(t, I.a[j], MPFR_RNDN), t), t, b, MPFR_RNDN);   /* exact */
        mpfr_set_d(t, I.U, MPFR_RNDN);
        mpfr_sub_d(t, t, I.C, MPFR_RNDN);
        mpfr_mul_d(t, t, 4 * I.tau, MPFR_RNDN);
        mpfr_add(D, b, t, MPFR_RNDN);                       /* exact at hp */
        /* y = sqrt(b/D) (2 roundings), x = (y - 1) / tau (2 more): the
         * relative error of x is below 4 u_h y / (y - 1), u_h = 2^-hp */
        mpfr_div(y, b, D, MPFR_RNDN);
        mpfr_sqrt(y, y, MPFR_RNDN);
        mpfr_sub_ui(x, y, 1, MPFR_RNDN);
        long loss = (long)mpfr_get_exp(y) - (long)mpfr_get_exp(x) + 1;
        mpfr_div_d(x, x, I.tau, MPFR_RNDN);                 /* (45), cancellation included */
        long e = (long)hp - 3 - (loss > 0 ? loss : 0);
        int r = rounds_to(x, nu, e);
        if (r < 0) { skipped++; mpfr_clears(x, y, t, b, D, (mpfr_ptr)0); continue; }
        ck_assert_msg(r == 1, "nu is not RN of (45) at p = %ld [FEDREF_SEED=%llu]", (long)p,
                      (unsigned long long)seed);
        /* w_j = -nu a_j / (2 (1 + nu tau)) from the high-precision nu */
        for (size_t j = 0; j < I.d; j++) {
            mpfr_mul_d(y, x, I.tau, MPFR_RNDN);
            mpfr_add_ui(y, y, 1, MPFR_RNDN);
            mpfr_mul_2ui(y, y, 1, MPFR_RNDN);
            mpfr_mul_d(t, x, -I.a[j], MPFR_RNDN);
            mpfr_div(t, t, y, MPFR_RNDN);
            if (I.a[j] == 0) {
                ck_assert(mpfr_zero_p(w[j]) && !mpfr_signbit(w[j]));
                continue;
            }
            r = rounds_to(t, w[j], e - 4);
            if (r < 0) { skipped++; continue; }
            ck_assert_msg(r == 1, "w_%zu is not RN of (43)-(44) [FEDREF_SEED=%llu]", j,
                          (unsigned long long)seed);
        }
        checked++;
        mpfr_clears(x, y, t, b, D, (mpfr_ptr)0);
    }
    ck_assert_int_gt(checked, n / 20);
    ck_assert_int_lt(skipped, checked / 10 + 2);
    mpfr_clear(nu);
    for (int j = 0; j < 6; j++)
        mpfr_clear(w[j]);
}
END_TEST

/* ---- ref and fast: the edges, by hand ------------------------------------ */

typedef struct { size_t d; double a[3], C, U, tau, c; int br; double nu; double w0; } edge;
static const edge EDGES[] = {
    /* tau = 1/4, c = 4, U = 0, a = (1): D = 1 - C */
    {1, {1}, 1, 0, 0.25, 4, FR_SSCA_L1_DNONPOS, 4, -1},                 /* D = 0 */
    {1, {1}, 0.75, 0, 0.25, 4, FR_SSCA_L1_CLIPC, 4, -1},                /* nu^ = c exactly */
    {1, {1}, 0, 0, 0.25, 4, FR_SSCA_L1_ZERO, 0, 0},                     /* U = C */
    {1, {1}, 0.4375, 0, 0.25, 4, FR_SSCA_L1_INTERIOR, 4.0 / 3, -0.5},  /* b D = (3/4)^2 */
    {2, {0, 0}, 1, 1, 0.25, 4, FR_SSCA_L1_DNONPOS, 4, 0},               /* flat: c */
    {2, {0, 0}, 0.5, 1, 0.25, 4, FR_SSCA_L1_ZERO, 0, 0},                /* b = 0, U > C */
    {2, {0, 0}, 1.5, 1, 0.25, 4, FR_SSCA_L1_DNONPOS, 4, 0},             /* b = 0, U < C */
    /* E-000-45's witness: Appendix C's b + 4 tau C = -3 <= 0 would give c = 10 */
    {1, {1}, -1, 1, 1, 10, FR_SSCA_L1_ZERO, 0, 0},
    /* 000 Sec. VI: c = 1e5, tau = 0.2, U = 0.13, C = 10: nu = c */
    {1, {0.5}, 10, 0.13, 0.2, 1e5, FR_SSCA_L1_DNONPOS, 1e5, -0.5 * 1e5 / (2 * (1 + 0.2 * 1e5))},
};

START_TEST(edges)
{
    const edge *E = &EDGES[_i];
    inst I = {E->d, {E->a[0], E->a[1], E->a[2]}, E->C, E->U, E->tau, E->c};
    mpfr_t nu, w[3];
    mpfr_init2(nu, 53);
    for (int j = 0; j < 3; j++)
        mpfr_init2(w[j], 53);
    int br = 0, fbr = 0;
    ck_assert_int_eq(run_ref(&I, 53, nu, w, &br), FR_OK);
    ck_assert_int_eq(br, E->br);
    ck_assert(mpfr_cmp_d(nu, E->nu) == 0 && !mpfr_signbit(nu));
    ck_assert(fabs(mpfr_get_d(w[0], MPFR_RNDN) - E->w0) <= 4 * U53 * fabs(E->w0));   /* exact but the last */
    ck_assert(E->w0 != 0 || (mpfr_zero_p(w[0]) && !mpfr_signbit(w[0])));
    double fnu = -1, fw[3] = {-1, -1, -1}, nb, wb[3];
    ck_assert_int_eq(ff_ssca_lemma1(&fnu, fw, &fbr, E->a, E->d, E->C, E->tau, E->c, E->U), FR_OK);
    ck_assert_int_eq(ff_ssca_lemma1_bound(&nb, wb, E->a, E->d, E->C, E->tau, E->c, E->U), FR_OK);
    ck_assert(fabs(fnu - E->nu) <= nb);
    ck_assert(fabs(fw[0] - E->w0) <= wb[0]);
    if (E->w0 == 0)
        ck_assert(fw[0] == 0 && !signbit(fw[0]));
    if (E->br == FR_SSCA_L1_ZERO || E->nu == 0) {
        ck_assert(fnu == 0 && !signbit(fnu) && nb == 0);  /* exact in fast too */
        ck_assert_int_eq(fbr, E->br);
    }
    mpfr_clear(nu);
    for (int j = 0; j < 3; j++)
        mpfr_clear(w[j]);
}
END_TEST

/* ---- fast against ref ------------------------------------------------------ */

START_TEST(fast_within_bound)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(20000), tight = 0;
    mpfr_t nu, w[6], e;
    mpfr_init2(nu, 200);
    mpfr_init2(e, 256);
    for (int j = 0; j < 6; j++)
        mpfr_init2(w[j], 200);
    for (int it = 0; it < n; it++) {
        inst I;
        random_inst(&I);
        int scale = rnd_int(0, 3);                           /* magnitudes */
        if (scale == 1) {
            for (size_t j = 0; j < I.d; j++) I.a[j] = ldexp(I.a[j], 200);
            I.C = ldexp(I.C, 400);
            I.U = ldexp(I.U, 400);
        } else if (scale == 2) {
            for (size_t j = 0; j < I.d; j++) I.a[j] = ldexp(I.a[j], -300);
            I.C = ldexp(I.C, -600);
            I.U = ldexp(I.U, -600);
        }
        int br = 0, fbr = 0;
        ck_assert_int_eq(run_ref(&I, 200, nu, w, &br), FR_OK);
        double fnu, fw[6], nb, wb[6];
        ck_assert_int_eq(ff_ssca_lemma1(&fnu, fw, &fbr, I.a, I.d, I.C, I.tau, I.c, I.U), FR_OK);
        ck_assert_int_eq(ff_ssca_lemma1_bound(&nb, wb, I.a, I.d, I.C, I.tau, I.c, I.U), FR_OK);
        mpfr_sub_d(e, nu, fnu, MPFR_RNDN);
        ck_assert_msg(fabs(mpfr_get_d(e, MPFR_RNDU)) <= nb, "nu error above the bound [FEDREF_SEED=%llu]",
                      (unsigned long long)seed);
        double wmax = 0;
        for (size_t j = 0; j < I.d; j++) {
            mpfr_sub_d(e, w[j], fw[j], MPFR_RNDN);
            ck_assert_msg(fabs(mpfr_get_d(e, MPFR_RNDU)) <= wb[j],
                          "w_%zu error above the bound [FEDREF_SEED=%llu]", j, (unsigned long long)seed);
            wmax = fmax(wmax, fabs(mpfr_get_d(w[j], MPFR_RNDN)));
        }
        /* away from the boundaries (nu well inside (0, c) or at c with D
         * clearly negative): the same branch and a bound of a few hundred u */
        double nr = mpfr_get_d(nu, MPFR_RNDN);
        if (br == FR_SSCA_L1_INTERIOR && nr > 1e-3 * I.c ? nr < 0.999 * I.c && nb <= 1e-10 * nr : 0) {
            ck_assert_int_eq(fbr, br);
            for (size_t j = 0; j < I.d; j++)
                ck_assert_msg(wb[j] <= 2048 * U53 * fmax(wmax, 1e-300),
                              "w bound %g not tight (|w| <= %g) [FEDREF_SEED=%llu]", wb[j], wmax,
                              (unsigned long long)seed);
            tight++;
        }
        if (br == FR_SSCA_L1_ZERO)
            ck_assert(fbr == br && fnu == 0 && nb == 0);
    }
    ck_assert_int_gt(tight, n / 50);
    mpfr_clears(nu, e, (mpfr_ptr)0);
    for (int j = 0; j < 6; j++)
        mpfr_clear(w[j]);
}
END_TEST

/* The papers' constants: c = 1e5, tau in {0.2, 0.05, 0.03, 0.1}, U = 0.13:
 * fast and ref agree within the bound and take the same branch. */
START_TEST(fast_paper_constants)
{
    static const double taus[4] = {0.2, 0.05, 0.03, 0.1};
    const double a[4] = {0.25, -0.5, 0.125, 1};
    for (int k = 0; k < 4; k++)
        for (double C = -1; C <= 30; C += 0.75) {
            inst I = {4, {a[0], a[1], a[2], a[3]}, C, 0.13, taus[k], 1e5};
            mpfr_t nu, w[4];
            mpfr_init2(nu, 128);
            for (int j = 0; j < 4; j++) mpfr_init2(w[j], 128);
            int br = 0, fbr = 0;
            ck_assert_int_eq(run_ref(&I, 128, nu, w, &br), FR_OK);
            double fnu, fw[4], nb, wb[4];
            ck_assert_int_eq(ff_ssca_lemma1(&fnu, fw, &fbr, a, 4, C, taus[k], 1e5, 0.13), FR_OK);
            ck_assert_int_eq(ff_ssca_lemma1_bound(&nb, wb, a, 4, C, taus[k], 1e5, 0.13), FR_OK);
            ck_assert_int_eq(fbr, br);
            ck_assert(fabs(mpfr_get_d(nu, MPFR_RNDN) - fnu) <= nb + 0x1p-1074);
            for (int j = 0; j < 4; j++)
                ck_assert(fabs(mpfr_get_d(w[j], MPFR_RNDN) - fw[j]) <= wb[j] + 0x1p-1074);
            mpfr_clear(nu);
            for (int j = 0; j < 4; j++) mpfr_clear(w[j]);
        }
}
END_TEST

Suite *suite_ssca_lemma1(void)
{
    Suite *s = suite_create("ssca_lemma1");
    TCase *tc = tcase_create("lemma1");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ref_rational_branches);
    tcase_add_test(tc, ref_interior_printed_form);
    tcase_add_loop_test(tc, edges, 0, (int)(sizeof EDGES / sizeof EDGES[0]));
    tcase_add_test(tc, fast_within_bound);
    tcase_add_test(tc, fast_paper_constants);
    suite_add_tcase(s, tc);
    return s;
}
