/* SPDX-License-Identifier: Apache-2.0 */
/* test_problem5.c -- Check unit tests of Problem 5 of 000 (Sec. III-B,
 * surrogates (7), (15)) for M constraints: fr_ssca_problem5 (MPFR) and
 * ff_ssca_problem5 / ff_ssca_problem5_bound (binary64).
 *
 * Oracles, independent of fr_ssca_problem5's method:
 *  - M = 1 with t0 = 1, g0 = 0, kappa = C - U is (41): fr_ssca_lemma1 (a
 *    closed form, certified by pc_ssca_lemma1) gives the same w bit for
 *    bit and the same nu;
 *  - m duplicated constraints of cost c are one constraint of cost m c
 *    (the slacks are equal at the optimum): the same w and s bit for bit;
 *  - all multipliers at a bound: w = -(g0 + c sum_{nu = c} g_m) / (2 (t0 +
 *    tau c #{nu = c})) and s are rationals, computed here with GMP and
 *    rounded once;
 *  - the certificate: the KKT residuals at the returned values are tiny,
 *    gap >= 0 and t0 radius^2 >= gap;
 *  - fast against ref: within ff_ssca_problem5_bound (every case), the
 *    bound of order u when no multiplier is free, fast's own radius
 *    encloses ref's w.
 * Random cases are replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT. */
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

Suite *suite_ssca_problem5(void);

#define U53 0x1p-53
#define MX 4
#define DX 5

static uint64_t seed;
static frng_t rng;

#define SUITE_SEED 20240601u    /* the seed without FEDREF_SEED */
#define SUITE_STREAM 0x9b5u    /* this suite's stream */

static uint64_t rng64(void) { return frng_next64(&rng); }

static int effort(int n) { return tu_effort(n); }

static int rnd_int(int lo, int hi) { return lo + (int)(rng64() % (uint64_t)(hi - lo + 1)); }

static double rnd_dy(int bits, int elo, int ehi)
{
    double k = (double)(rng64() >> (64 - bits));
    double x = ldexp(k, rnd_int(elo, ehi) - bits);
    return rng64() & 1 ? -x : x;
}

/* ---- a problem in binary64 ------------------------------------------------ */

typedef struct {
    size_t M, d;
    double g0[DX], kap[MX], G[MX * DX], t0, tau, c;
} prob;

static void random_prob(prob *P)
{
    P->M = (size_t)rnd_int(1, MX);
    P->d = (size_t)rnd_int(1, DX);
    for (size_t j = 0; j < P->d; j++)
        P->g0[j] = rnd_dy(16, -2, 2);
    for (size_t i = 0; i < P->M * P->d; i++)
        P->G[i] = rnd_dy(16, -2, 2);
    P->t0 = fabs(rnd_dy(12, -3, 2)) + 0.0625;
    P->tau = rng64() % 6 == 0 ? 0 : fabs(rnd_dy(12, -4, 1));
    P->c = fabs(rnd_dy(12, -1, 12)) + 0.125;
    for (size_t m = 0; m < P->M; m++) {
        if (rng64() & 1) {                          /* near activity at w0 = -g0/(2 t0) */
            double v = 0, q = 0;
            for (size_t j = 0; j < P->d; j++) {
                double w0 = -P->g0[j] / (2 * P->t0);
                v += P->G[m * P->d + j] * w0;
                q += w0 * w0;
            }
            P->kap[m] = -(v + P->tau * q) + rnd_dy(10, -6, 0);
        } else {
            P->kap[m] = rnd_dy(16, -3, 3);
        }
    }
}

typedef struct {
    mpfr_t w[DX], s[MX], nu[MX];
    fr_ssca_kkt k;
} sol;

static void sol_init(sol *S, mpfr_prec_t p)
{
    for (int j = 0; j < DX; j++) mpfr_init2(S->w[j], p);
    for (int m = 0; m < MX; m++) mpfr_inits2(p, S->s[m], S->nu[m], (mpfr_ptr)0);
}

static void sol_clear(sol *S)
{
    for (int j = 0; j < DX; j++) mpfr_clear(S->w[j]);
    for (int m = 0; m < MX; m++) mpfr_clears(S->s[m], S->nu[m], (mpfr_ptr)0);
}

static int run_ref(const prob *P, sol *S, int with_g0)
{
    mpfr_t g0[DX], kap[MX], G[MX * DX], t0, tau, c;
    for (size_t j = 0; j < P->d; j++) { mpfr_init2(g0[j], 53); mpfr_set_d(g0[j], P->g0[j], MPFR_RNDN); }
    for (size_t m = 0; m < P->M; m++) { mpfr_init2(kap[m], 53); mpfr_set_d(kap[m], P->kap[m], MPFR_RNDN); }
    for (size_t i = 0; i < P->M * P->d; i++) { mpfr_init2(G[i], 53); mpfr_set_d(G[i], P->G[i], MPFR_RNDN); }
    mpfr_inits2(53, t0, tau, c, (mpfr_ptr)0);
    mpfr_set_d(t0, P->t0, MPFR_RNDN);
    mpfr_set_d(tau, P->tau, MPFR_RNDN);
    mpfr_set_d(c, P->c, MPFR_RNDN);
    int st = fr_ssca_problem5(S->w, S->s, S->nu, &S->k, with_g0 ? g0 : NULL, kap, G, P->M, P->d, t0, tau, c);
    for (size_t j = 0; j < P->d; j++) mpfr_clear(g0[j]);
    for (size_t m = 0; m < P->M; m++) mpfr_clear(kap[m]);
    for (size_t i = 0; i < P->M * P->d; i++) mpfr_clear(G[i]);
    mpfr_clears(t0, tau, c, (mpfr_ptr)0);
    return st;
}

static int same(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

/* ---- M = 1 is Lemma 1 ----------------------------------------------------- */

START_TEST(ref_m1_is_lemma1)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(1500);
    sol S;
    sol_init(&S, 113);
    mpfr_t nu, w[DX], a[DX], C, U, tau, c;
    mpfr_init2(nu, 113);
    mpfr_inits2(53, C, U, tau, c, (mpfr_ptr)0);
    for (int j = 0; j < DX; j++) { mpfr_init2(w[j], 113); mpfr_init2(a[j], 53); }
    for (int it = 0; it < n; it++) {
        prob P;
        random_prob(&P);
        P.M = 1;
        P.t0 = 1;
        double Cd = rnd_dy(12, -2, 3), Ud = rng64() % 5 == 0 ? Cd : rnd_dy(12, -2, 3);
        P.kap[0] = Cd - Ud;                          /* exact: 12-bit dyadics */
        for (size_t j = 0; j < P.d; j++) {
            if (rng64() % 5 == 0) P.G[j] = 0;
            mpfr_set_d(a[j], P.G[j], MPFR_RNDN);
        }
        if (P.tau == 0) P.tau = 0.25;
        ck_assert_int_eq(run_ref(&P, &S, 0), FR_OK);
        mpfr_set_d(C, Cd, MPFR_RNDN);
        mpfr_set_d(U, Ud, MPFR_RNDN);
        mpfr_set_d(tau, P.tau, MPFR_RNDN);
        mpfr_set_d(c, P.c, MPFR_RNDN);
        int br;
        ck_assert_int_eq(fr_ssca_lemma1(nu, w, &br, a, P.d, C, tau, c, U), FR_OK);
        int bzero = 1;
        for (size_t j = 0; j < P.d; j++) {
            bzero &= P.G[j] == 0;
            ck_assert_msg(same(S.w[j], w[j]), "w_%zu differs from Lemma 1 [FEDREF_SEED=%llu]", j,
                          (unsigned long long)seed);
        }
        if (!(bzero && Cd == Ud))
            ck_assert_msg(same(S.nu[0], nu), "nu differs from Lemma 1 [FEDREF_SEED=%llu]", (unsigned long long)seed);
        if (br == FR_SSCA_L1_ZERO || br == FR_SSCA_L1_INTERIOR)
            ck_assert(mpfr_zero_p(S.s[0]) && !mpfr_signbit(S.s[0]));
    }
    sol_clear(&S);
    mpfr_clears(nu, C, U, tau, c, (mpfr_ptr)0);
    for (int j = 0; j < DX; j++) { mpfr_clear(w[j]); mpfr_clear(a[j]); }
}
END_TEST

/* ---- duplicates of cost c are one constraint of cost m c ----------------- */

START_TEST(ref_duplicates_merge)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(600);
    sol A, B;
    sol_init(&A, 100);
    sol_init(&B, 100);
    for (int it = 0; it < n; it++) {
        prob P, Q;
        random_prob(&P);
        size_t k = (size_t)rnd_int(2, MX);           /* k copies of constraint 0 */
        P.M = k;
        for (size_t m = 1; m < k; m++) {
            P.kap[m] = P.kap[0];
            memcpy(P.G + m * P.d, P.G, P.d * sizeof *P.G);
        }
        Q = P;
        Q.M = 1;
        Q.c = P.c * (double)k;                       /* exact: k <= 4 */
        ck_assert_int_eq(run_ref(&P, &A, 1), FR_OK);
        ck_assert_int_eq(run_ref(&Q, &B, 1), FR_OK);
        for (size_t j = 0; j < P.d; j++)
            ck_assert_msg(same(A.w[j], B.w[j]), "w differs from the merged problem [FEDREF_SEED=%llu]",
                          (unsigned long long)seed);
        for (size_t m = 0; m < k; m++)
            ck_assert_msg(same(A.s[m], B.s[0]), "s differs from the merged problem [FEDREF_SEED=%llu]",
                          (unsigned long long)seed);
        /* nu: any split of the merged multiplier, each in [0, c] */
        mpfr_t sum;
        mpfr_init2(sum, 256);
        mpfr_set_zero(sum, 1);
        for (size_t m = 0; m < k; m++) {
            ck_assert(mpfr_sgn(A.nu[m]) >= 0 && mpfr_cmp_d(A.nu[m], P.c) <= 0);
            mpfr_add(sum, sum, A.nu[m], MPFR_RNDN);
        }
        mpfr_sub(sum, sum, B.nu[0], MPFR_RNDN);
        ck_assert(mpfr_cmpabs_ui(sum, 0) == 0 || mpfr_get_exp(sum) < mpfr_get_exp(B.nu[0]) - 90);
        mpfr_clear(sum);
    }
    sol_clear(&A);
    sol_clear(&B);
}
END_TEST

/* ---- all multipliers at a bound: the rational solution ------------------- */

START_TEST(ref_rational_solution)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(600), seen = 0;
    sol S;
    sol_init(&S, 64);
    mpq_t r, q, t, den, w[DX];
    mpq_inits(r, q, t, den, NULL);
    for (int j = 0; j < DX; j++) mpq_init(w[j]);
    for (int it = 0; it < n; it++) {
        prob P;
        random_prob(&P);
        ck_assert_int_eq(run_ref(&P, &S, 1), FR_OK);
        int bound = 1;
        for (size_t m = 0; m < P.M; m++)
            bound &= mpfr_zero_p(S.nu[m]) || mpfr_cmp_d(S.nu[m], P.c) == 0;
        if (!bound)
            continue;
        /* den = 2 (t0 + tau c #C); w = -(g0 + c sum_C g_m) / den */
        size_t nc = 0;
        for (size_t m = 0; m < P.M; m++) nc += !mpfr_zero_p(S.nu[m]);
        mpq_set_d(den, P.tau);
        mpq_set_d(t, P.c);
        mpq_mul(den, den, t);
        mpq_set_ui(t, (unsigned long)nc, 1);
        mpq_mul(den, den, t);
        mpq_set_d(t, P.t0);
        mpq_add(den, den, t);
        mpq_mul_2exp(den, den, 1);
        for (size_t j = 0; j < P.d; j++) {
            mpq_set_d(r, P.g0[j]);
            for (size_t m = 0; m < P.M; m++)
                if (!mpfr_zero_p(S.nu[m])) {
                    mpq_set_d(t, P.G[m * P.d + j]);
                    mpq_set_d(q, P.c);
                    mpq_mul(t, t, q);
                    mpq_add(r, r, t);
                }
            mpq_div(w[j], r, den);
            mpq_neg(w[j], w[j]);
            mpfr_t x;
            mpfr_init2(x, 64);
            mpfr_set_q(x, w[j], MPFR_RNDN);
            ck_assert_msg(same(x, S.w[j]), "w_%zu is not RN of the rational solution [FEDREF_SEED=%llu]", j,
                          (unsigned long long)seed);
            mpfr_clear(x);
        }
        /* s_m = max(0, kappa + g^T w + tau ||w||^2), and the KKT signs */
        mpq_set_ui(q, 0, 1);
        for (size_t j = 0; j < P.d; j++) { mpq_mul(t, w[j], w[j]); mpq_add(q, q, t); }
        for (size_t m = 0; m < P.M; m++) {
            mpq_set_d(r, P.tau);
            mpq_mul(r, r, q);
            mpq_set_d(t, P.kap[m]);
            mpq_add(r, r, t);
            for (size_t j = 0; j < P.d; j++) {
                mpq_set_d(t, P.G[m * P.d + j]);
                mpq_mul(t, t, w[j]);
                mpq_add(r, r, t);
            }
            int nz = !mpfr_zero_p(S.nu[m]);
            ck_assert(nz ? mpq_sgn(r) >= 0 : mpq_sgn(r) <= 0);      /* KKT, exactly */
            if (mpq_sgn(r) < 0) mpq_set_ui(r, 0, 1);
            mpfr_t x;
            mpfr_init2(x, 64);
            mpfr_set_q(x, r, MPFR_RNDN);
            ck_assert_msg(same(x, S.s[m]), "s_%zu is not RN of max(0, Fbar) [FEDREF_SEED=%llu]", m,
                          (unsigned long long)seed);
            mpfr_clear(x);
        }
        seen++;
    }
    ck_assert_int_gt(seen, n / 10);
    sol_clear(&S);
    mpq_clears(r, q, t, den, NULL);
    for (int j = 0; j < DX; j++) mpq_clear(w[j]);
}
END_TEST

/* ---- the certificate -------------------------------------------------------- */

START_TEST(ref_certificate)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(800);
    sol S;
    sol_init(&S, 200);
    for (int it = 0; it < n; it++) {
        prob P;
        random_prob(&P);
        ck_assert_int_eq(run_ref(&P, &S, 1), FR_OK);
        const fr_ssca_kkt *k = &S.k;
        ck_assert(k->gap >= 0 && k->radius >= 0 && k->stat >= 0 && k->feas >= 0 && k->comp >= 0);
        ck_assert(k->radius * k->radius * P.t0 >= k->gap * (1 - 0x1p-50));
        /* at 200 bits the residuals are below 2^-180 of the data (~1) */
        ck_assert_msg(k->gap <= 0x1p-150 && k->stat <= 0x1p-180 && k->feas <= 0x1p-180 && k->comp <= 0x1p-170,
                      "certificate too large: gap %g stat %g feas %g comp %g [FEDREF_SEED=%llu]", k->gap,
                      k->stat, k->feas, k->comp, (unsigned long long)seed);
        for (size_t m = 0; m < P.M; m++)
            ck_assert(mpfr_sgn(S.nu[m]) >= 0 && mpfr_cmp_d(S.nu[m], P.c) <= 0 && mpfr_sgn(S.s[m]) >= 0);
    }
    sol_clear(&S);
}
END_TEST

/* ---- fast against ref ------------------------------------------------------ */

START_TEST(fast_within_bound)
{
    seed = tu_rng_start(&rng, SUITE_SEED, SUITE_STREAM);
    int n = effort(3000), strict = 0;
    sol S;
    sol_init(&S, 160);
    mpfr_t e, dist;
    mpfr_inits2(256, e, dist, (mpfr_ptr)0);
    for (int it = 0; it < n; it++) {
        prob P;
        random_prob(&P);
        if (it % 7 == 0 && P.M >= 2) {               /* duplicates */
            P.kap[1] = P.kap[0];
            memcpy(P.G + P.d, P.G, P.d * sizeof *P.G);
        }
        if (it % 11 == 0)
            P.c = 1e5;                               /* the papers' c */
        ck_assert_int_eq(run_ref(&P, &S, 1), FR_OK);
        double w[DX], s[MX], nu[MX], wb[DX], sb[MX];
        fr_ssca_kkt k;
        ck_assert_int_eq(ff_ssca_problem5(w, s, nu, &k, P.g0, P.kap, P.G, P.M, P.d, P.t0, P.tau, P.c), FR_OK);
        ck_assert_int_eq(ff_ssca_problem5_bound(wb, sb, P.g0, P.kap, P.G, P.M, P.d, P.t0, P.tau, P.c), FR_OK);
        mpfr_set_zero(dist, 1);
        double wmax = 0;
        for (size_t j = 0; j < P.d; j++) {
            mpfr_sub_d(e, S.w[j], w[j], MPFR_RNDN);
            mpfr_fma(dist, e, e, dist, MPFR_RNDU);
            ck_assert_msg(fabs(mpfr_get_d(e, MPFR_RNDU)) <= wb[j], "w_%zu beyond the bound [FEDREF_SEED=%llu]",
                          j, (unsigned long long)seed);
            wmax = fmax(wmax, fabs(w[j]));
        }
        mpfr_sqrt(dist, dist, MPFR_RNDU);
        ck_assert(mpfr_cmp_d(dist, k.radius) <= 0);          /* fast's radius encloses w* */
        int free_mult = 0;
        for (size_t m = 0; m < P.M; m++) {
            mpfr_sub_d(e, S.s[m], s[m], MPFR_RNDN);
            ck_assert_msg(fabs(mpfr_get_d(e, MPFR_RNDU)) <= sb[m], "s_%zu beyond the bound [FEDREF_SEED=%llu]",
                          m, (unsigned long long)seed);
            ck_assert(nu[m] >= 0 && nu[m] <= P.c && s[m] >= 0 && !signbit(s[m]));
            free_mult |= !mpfr_zero_p(S.nu[m]) && mpfr_cmp_d(S.nu[m], P.c) != 0;
        }
        /* no free multiplier and strict complementarity with a margin
         * (|Fbar(w*)| > 2^-20): the gap is of order u^2, the bound of order u */
        double F0 = P.kap[0], ww = 0;
        for (size_t j = 0; j < P.d; j++) {
            double wj = mpfr_get_d(S.w[j], MPFR_RNDN);
            F0 += P.G[j] * wj;
            ww += wj * wj;
        }
        F0 += P.tau * ww;
        if (!free_mult && P.M == 1 && fabs(F0) > 0x1p-20) {
            for (size_t j = 0; j < P.d; j++) {
                ck_assert_msg(wb[j] <= 0x1p-40 * fmax(wmax, 1), "bound %g not of order u [FEDREF_SEED=%llu]", wb[j],
                              (unsigned long long)seed);
            }
            strict++;
        }
    }
    ck_assert_int_gt(strict, n / 20);
    sol_clear(&S);
    mpfr_clears(e, dist, (mpfr_ptr)0);
}
END_TEST

/* M > d and tau = 0 by hand: three constraints on one coordinate, and
 * linear constraints. */
START_TEST(fast_special_shapes)
{
    const double G1[3] = {1, -0.5, 2}, k1[3] = {0.25, -0.125, 0.5}, g01[1] = {0.75};
    const double G2[4] = {1, -1, 0.5, 2}, k2[2] = {0.25, -0.5}, g02[2] = {-2, 1};
    struct { const double *G, *k, *g0; size_t M, d; double t0, tau, c; } C[2] = {
        {G1, k1, g01, 3, 1, 0.5, 0.1, 10}, {G2, k2, g02, 2, 2, 1, 0, 3}};
    for (int i = 0; i < 2; i++) {
        prob P = {C[i].M, C[i].d, {0}, {0}, {0}, C[i].t0, C[i].tau, C[i].c};
        memcpy(P.g0, C[i].g0, C[i].d * sizeof(double));
        memcpy(P.kap, C[i].k, C[i].M * sizeof(double));
        memcpy(P.G, C[i].G, C[i].M * C[i].d * sizeof(double));
        sol S;
        sol_init(&S, 128);
        ck_assert_int_eq(run_ref(&P, &S, 1), FR_OK);
        double w[DX], s[MX], nu[MX], wb[DX], sb[MX];
        ck_assert_int_eq(ff_ssca_problem5(w, s, nu, NULL, P.g0, P.kap, P.G, P.M, P.d, P.t0, P.tau, P.c), FR_OK);
        ck_assert_int_eq(ff_ssca_problem5_bound(wb, sb, P.g0, P.kap, P.G, P.M, P.d, P.t0, P.tau, P.c), FR_OK);
        for (size_t j = 0; j < P.d; j++)
            ck_assert(fabs(mpfr_get_d(S.w[j], MPFR_RNDN) - w[j]) <= wb[j] + 0x1p-1074);
        for (size_t m = 0; m < P.M; m++)
            ck_assert(fabs(mpfr_get_d(S.s[m], MPFR_RNDN) - s[m]) <= sb[m] + 0x1p-1074);
        sol_clear(&S);
    }
}
END_TEST

Suite *suite_ssca_problem5(void)
{
    Suite *s = suite_create("ssca_problem5");
    TCase *tc = tcase_create("problem5");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ref_m1_is_lemma1);
    tcase_add_test(tc, ref_duplicates_merge);
    tcase_add_test(tc, ref_rational_solution);
    tcase_add_test(tc, ref_certificate);
    tcase_add_test(tc, fast_within_bound);
    tcase_add_test(tc, fast_special_shapes);
    suite_add_tcase(s, tc);
    return s;
}
