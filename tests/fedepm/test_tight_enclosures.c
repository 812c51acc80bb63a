/* SPDX-License-Identifier: Apache-2.0 */
/* test_tight_enclosures.c -- white-box: the four stages of ref's optimal
 * composition (ref/fedepm/compose_tight.c, declared in
 * ref/fedepm/enclosures.h) keep their directions at working precisions far
 * below the library's (w = 2..WMAX bits, where fr_dp_compose_tight uses 117
 * and more): the grid steps k_j cover the eps_j (k_j h >= eps_j exactly,
 * eps_j of more bits than w), the binomial masses and the composed law are upper bounds, the
 * suffix sums A are upper and B lower bounds, and the least e is at least
 * the true one for the masses given.  At the library's precision a step
 * rounded the wrong way moves a result by about 2^-117 relative, far inside
 * the final rounding; at w bits it moves it by about its own slack, so
 * ci/mutate-privacy.sh runs this suite first.  Every grid point k h is
 * exact at w bits, as the stages require (h has w minus k's bits, or is a
 * power of 2).  Oracles at HP bits, independent of the stages' method:
 * the binomial formula, the law by enumerating every outcome of the
 * releases, and the least e by bisection on D(e) itself. */
#include <check.h>
#include <gmp.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../ref/fedepm/enclosures.h"

Suite *suite_dp_tight_enclosures(void);

#define HP 160
#define WMAX 30
#define NCASE 12
#define NBIS 72   /* bisection steps of the least-e oracle: 2^-72 of the cell range */

/* the number of significant bits of k > 0 */
static int sigbits(unsigned long k)
{
    while (!(k & 1)) k >>= 1;
    int b = 0;
    while (k) { b++; k >>= 1; }
    return b;
}

/* p = 1/(1 + e^{-x}) and 1 - p = e^{-x}/(1 + e^{-x}) at HP (no cancellation) */
static void rr_probs(mpfr_t p, mpfr_t q, mpfr_srcptr x)
{
    mpfr_t u;
    mpfr_init2(u, HP);
    mpfr_neg(u, x, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_add_ui(p, u, 1, MPFR_RNDN);
    mpfr_div(q, u, p, MPFR_RNDN);
    mpfr_ui_div(p, 1, p, MPFR_RNDN);
    mpfr_clear(u);
}

/* v >= t (1 - 2^-(HP-20)): t's own error at HP bits is far smaller */
static int at_least(mpfr_srcptr v, mpfr_srcptr t)
{
    mpfr_t s;
    mpfr_init2(s, HP);
    mpfr_div_2ui(s, t, HP - 20, MPFR_RNDN);
    mpfr_sub(s, t, s, MPFR_RNDN);
    int ok = mpfr_greaterequal_p(v, s);
    mpfr_clear(s);
    return ok;
}

/* k_j h >= eps_j for every release, the quotient eps_j / h rounded at w
 * bits (eps_j of 200 bits, h of 53), and the groups count every k_j */
START_TEST(groups_cover)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7b10), 0);
    enum { K = 3 };
    mpfr_t eps[K], h, q, x;
    for (int j = 0; j < K; j++) mpfr_init2(eps[j], 200);
    mpfr_init2(h, 53);
    mpfr_init2(x, HP + 64);
    mpfr_init2(q, 2);
    unsigned long kj[K], sum, work;
    fri_tight_group g[K];
    for (mpfr_prec_t w = 2; w <= 64; w++)
        for (int i = 0; i < 8 * NCASE; i++) {
            mpfr_set_prec(q, w);
            tu_draw_wbit(h, &rng, 53, 1e-3, 1e-2);
            for (int j = 0; j < K; j++) {
                tu_draw_wbit(eps[j], &rng, 200, 1e-3, 4);
                if (frng_u53(&rng) % 4 == 0) {       /* just above a grid point */
                    mpfr_mul_ui(x, h, frng_u53(&rng) % 400 + 1, MPFR_RNDN);
                    mpfr_set_ui_2exp(eps[j], 1, -150, MPFR_RNDN);
                    mpfr_mul(eps[j], eps[j], x, MPFR_RNDN);
                    mpfr_add(eps[j], eps[j], x, MPFR_RNDU);
                }
            }
            const size_t ng = fri_dp_tight_groups(kj, g, &sum, &work, eps, K, h, q);
            if (ng == 0) continue;
            unsigned long tot = 0, cnt = 0;
            for (size_t c = 0; c < ng; c++) { tot += g[c].k * g[c].n; cnt += g[c].n; }
            ck_assert(tot == sum && cnt == K);
            for (int j = 0; j < K; j++) {             /* the j-th smallest eps against the j-th smallest k */
                int r = 0;
                for (int l = 0; l < K; l++) r += mpfr_less_p(eps[l], eps[j]) || (mpfr_equal_p(eps[l], eps[j]) && l < j);
                unsigned long kr = 0;
                for (size_t c = 0, seen = 0; c < ng; seen += g[c].n, c++)
                    if ((unsigned long)r < seen + g[c].n) { kr = g[c].k; break; }
                mpfr_mul_ui(x, h, kr, MPFR_RNDN);     /* exact */
                ck_assert_msg(mpfr_greaterequal_p(x, eps[j]), "w %d case %d: k h = %.17g below eps %.17g", (int)w, i,
                              mpfr_get_d(x, MPFR_RNDN), mpfr_get_d(eps[j], MPFR_RNDN));
            }
        }
    for (int j = 0; j < K; j++) mpfr_clear(eps[j]);
    mpfr_clears(h, q, x, (mpfr_ptr)0);
}
END_TEST

#define NBINO 48

START_TEST(binomial_upper)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7b10), 0);
    mpfr_t b[9], h, t, r, x, p, q, m, u;
    for (int c = 0; c < 9; c++) mpfr_init2(b[c], 2);
    mpfr_inits2(2, h, t, r, (mpfr_ptr)0);
    mpfr_inits2(HP, x, p, q, m, u, (mpfr_ptr)0);
    mpz_t z;
    mpz_init(z);
    for (mpfr_prec_t w = 2; w <= WMAX; w++)
        for (int i = 0; i < NBINO; i++) {
            unsigned long n = 1 + frng_u53(&rng) % 8, kk = 1 + frng_u53(&rng) % 8;
            while (sigbits(kk) >= w) kk &= kk - 1;    /* leave room for h's bits */
            tu_draw_wbit(h, &rng, w - sigbits(kk), 1e-3, 2);
            mpfr_set_prec(t, w);
            mpfr_set_prec(r, w);
            for (int c = 0; c < 9; c++) mpfr_set_prec(b[c], w);
            fri_dp_tight_binomial(b, n, kk, h, t, r);
            mpfr_mul_ui(x, h, kk, MPFR_RNDN);          /* exact */
            rr_probs(p, q, x);
            for (unsigned long c = 0; c <= n; c++) {
                mpz_bin_uiui(z, n, c);
                mpfr_set_z(m, z, MPFR_RNDN);           /* exact */
                mpfr_pow_ui(u, p, c, MPFR_RNDN);
                mpfr_mul(m, m, u, MPFR_RNDN);
                mpfr_pow_ui(u, q, n - c, MPFR_RNDN);
                mpfr_mul(m, m, u, MPFR_RNDN);
                ck_assert_msg(at_least(b[c], m), "w %d n %lu k %lu h %.6g c %lu: %.8g below the mass %.17g",
                              (int)w, n, kk, mpfr_get_d(h, MPFR_RNDN), c, mpfr_get_d(b[c], MPFR_RNDN),
                              mpfr_get_d(m, MPFR_RNDN));
            }
            /* each step's own roundings (no slack of the earlier steps to
             * hide one): r = e^{-k h} rounded up as the function leaves it,
             * b[c-1] >= b[c] r c / (n - c + 1) exactly */
            for (unsigned long c = n; c > 0; c--) {
                mpfr_mul(u, b[c], r, MPFR_RNDN);      /* exact: 2w <= HP bits */
                mpfr_mul_ui(u, u, c, MPFR_RNDN);
                mpfr_div_ui(u, u, n - c + 1, MPFR_RNDN);
                ck_assert_msg(at_least(b[c - 1], u), "w %d n %lu k %lu c %lu: step %.8g below %.17g", (int)w, n,
                              kk, c, mpfr_get_d(b[c - 1], MPFR_RNDN), mpfr_get_d(u, MPFR_RNDN));
            }
        }
    for (int c = 0; c < 9; c++) mpfr_clear(b[c]);
    mpfr_clears(h, t, r, x, p, q, m, u, (mpfr_ptr)0);
    mpz_clear(z);
}
END_TEST

#define NG_MAX 3
#define SUM_MAX 54   /* 3 groups, k <= 6, n <= 3 */
#define LEN (2 * SUM_MAX + 1)

/* a random grouping (ng groups, distinct k in 1..6 ascending, n in 1..3)
 * and h = 2^-j, j in 0..5: k h and h s (s <= 54) exact at w >= 6 bits */
static unsigned long draw_groups(fri_tight_group *g, size_t *ng, mpfr_t h, frng_t *rng)
{
    unsigned long used = 0, sum = 0;
    *ng = 1 + frng_u53(rng) % NG_MAX;
    for (size_t i = 0; i < *ng; i++) {
        unsigned long k;
        do k = 1 + frng_u53(rng) % 6; while (used >> k & 1);
        used |= 1ul << k;
        g[i] = (fri_tight_group){k, 1 + frng_u53(rng) % 3};
    }
    for (size_t i = 0; i < *ng; i++)            /* ascending k, as fri_dp_tight_groups sorts */
        for (size_t j = i + 1; j < *ng; j++)
            if (g[j].k < g[i].k) { fri_tight_group s = g[i]; g[i] = g[j]; g[j] = s; }
    for (size_t i = 0; i < *ng; i++) sum += g[i].k * g[i].n;
    mpfr_set_prec(h, 53);
    mpfr_set_ui_2exp(h, 1, -(long)(frng_u53(rng) % 6), MPFR_RNDN);
    return sum;
}

/* T[s + sum] = P(S = s) at HP by enumerating the 2^R outcomes of the R
 * releases (R <= 9) */
static void law_enum(mpfr_t *T, const fri_tight_group *g, size_t ng, unsigned long sum, mpfr_srcptr h)
{
    unsigned long kj[9], R = 0;
    mpfr_t p[9], q[9], x, P;
    mpfr_inits2(HP, x, P, (mpfr_ptr)0);
    for (size_t i = 0; i < ng; i++)
        for (unsigned long c = 0; c < g[i].n; c++) {
            kj[R] = g[i].k;
            mpfr_inits2(HP, p[R], q[R], (mpfr_ptr)0);
            mpfr_mul_ui(x, h, g[i].k, MPFR_RNDN);
            rr_probs(p[R], q[R], x);
            R++;
        }
    for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_set_zero(T[s], 1);
    for (unsigned long o = 0; o < (1ul << R); o++) {
        long S = 0;
        mpfr_set_ui(P, 1, MPFR_RNDN);
        for (unsigned long j = 0; j < R; j++) {
            S += (o >> j & 1) ? (long)kj[j] : -(long)kj[j];
            mpfr_mul(P, P, (o >> j & 1) ? p[j] : q[j], MPFR_RNDN);
        }
        mpfr_add(T[S + (long)sum], T[S + (long)sum], P, MPFR_RNDN);
    }
    for (unsigned long j = 0; j < R; j++) mpfr_clears(p[j], q[j], (mpfr_ptr)0);
    mpfr_clears(x, P, (mpfr_ptr)0);
}

/* T[s + sum] at HP: the convolution of the groups' binomial bounds as
 * fri_dp_tight_binomial gives them at w bits */
static void conv_exact(mpfr_t *T, const fri_tight_group *g, size_t ng, unsigned long sum, mpfr_srcptr h,
                       mpfr_prec_t w)
{
    mpfr_t b[4], Q[LEN], t, r, x;
    for (int c = 0; c < 4; c++) mpfr_init2(b[c], w);
    for (int s = 0; s < LEN; s++) mpfr_init2(Q[s], HP);
    mpfr_inits2(w, t, r, (mpfr_ptr)0);
    mpfr_init2(x, HP);
    for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_set_zero(T[s], 1);
    mpfr_set_ui(T[sum], 1, MPFR_RNDN);
    for (size_t i = 0; i < ng; i++) {
        const unsigned long k = g[i].k, n = g[i].n;
        fri_dp_tight_binomial(b, n, k, h, t, r);
        for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_set_zero(Q[s], 1);
        for (size_t s = 0; s < 2 * sum + 1; s++) {
            if (mpfr_zero_p(T[s])) continue;
            for (unsigned long c = 0; c <= n; c++) {
                mpfr_mul(x, T[s], b[c], MPFR_RNDN);
                size_t y = s + 2 * c * k - n * k;
                mpfr_add(Q[y], Q[y], x, MPFR_RNDN);
            }
        }
        for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_swap(T[s], Q[s]);
    }
    for (int c = 0; c < 4; c++) mpfr_clear(b[c]);
    for (int s = 0; s < LEN; s++) mpfr_clear(Q[s]);
    mpfr_clears(t, r, x, (mpfr_ptr)0);
}

START_TEST(law_upper)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7b11), 0);
    fri_tight_group g[NG_MAX];
    mpfr_t P[LEN], T[LEN], h;
    for (int s = 0; s < LEN; s++) {
        mpfr_init2(P[s], 6);
        mpfr_init2(T[s], HP);
    }
    mpfr_init2(h, 53);
    for (mpfr_prec_t w = 6; w <= WMAX; w++)
        for (int i = 0; i < NCASE; i++) {
            size_t ng;
            unsigned long sum = draw_groups(g, &ng, h, &rng);
            for (int s = 0; s < LEN; s++) mpfr_set_prec(P[s], w);
            ck_assert_int_eq(fri_dp_tight_law(P, g, ng, sum, h, w), FR_OK);
            law_enum(T, g, ng, sum, h);
            for (unsigned long s = 0; s < 2 * sum + 1; s++)
                ck_assert_msg(at_least(P[s], T[s]), "w %d case %d S = %ld: %.8g below the mass %.17g", (int)w, i,
                              (long)s - (long)sum, mpfr_get_d(P[s], MPFR_RNDN), mpfr_get_d(T[s], MPFR_RNDN));
            /* the convolution's own roundings: P >= the exact convolution
             * of the w-bit binomial bounds it multiplies (no slack of the
             * binomials to hide a product or sum rounded down) */
            conv_exact(T, g, ng, sum, h, w);
            for (unsigned long s = 0; s < 2 * sum + 1; s++)
                ck_assert_msg(at_least(P[s], T[s]), "w %d case %d S = %ld: %.8g below the convolution %.17g",
                              (int)w, i, (long)s - (long)sum, mpfr_get_d(P[s], MPFR_RNDN),
                              mpfr_get_d(T[s], MPFR_RNDN));
        }
    for (int s = 0; s < LEN; s++) mpfr_clears(P[s], T[s], (mpfr_ptr)0);
    mpfr_clear(h);
}
END_TEST

/* D(e) = sum_{s >= 1, h s > e} P[sum + s] (1 - e^{e - h s}) at HP */
static void D_at(mpfr_t d, mpfr_t *P, unsigned long sum, mpfr_srcptr h, mpfr_srcptr e)
{
    mpfr_t x, t;
    mpfr_inits2(HP, x, t, (mpfr_ptr)0);
    mpfr_set_zero(d, 1);
    for (unsigned long s = 1; s <= sum; s++) {
        mpfr_mul_ui(x, h, s, MPFR_RNDN);
        if (mpfr_lessequal_p(x, e)) continue;
        mpfr_sub(t, e, x, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_mul(t, t, P[sum + s], MPFR_RNDN);
        mpfr_sub(d, d, t, MPFR_RNDN);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
}

START_TEST(least_e_upper)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7b12), 0);
    fri_tight_group g[NG_MAX];
    mpfr_t P[LEN], A[SUM_MAX + 2], B[SUM_MAX + 2], h, delta, out, lo, hi, c, d, t, x;
    for (int s = 0; s < LEN; s++) mpfr_init2(P[s], HP);
    for (int s = 0; s < SUM_MAX + 2; s++) mpfr_inits2(6, A[s], B[s], (mpfr_ptr)0);
    mpfr_inits2(53, h, delta, out, (mpfr_ptr)0);
    mpfr_inits2(HP, lo, hi, c, d, t, x, (mpfr_ptr)0);
    for (mpfr_prec_t w = 6; w <= WMAX; w++)
        for (int i = 0; i < NCASE; i++) {
            size_t ng;
            unsigned long sum = draw_groups(g, &ng, h, &rng);
            for (int s = 0; s < LEN; s++) mpfr_set_prec(P[s], HP);
            law_enum(P, g, ng, sum, h);
            for (int s = 0; s < LEN; s++) mpfr_prec_round(P[s], w, MPFR_RNDU);  /* the masses given */
            for (int s = 0; s < SUM_MAX + 2; s++) {
                mpfr_set_prec(A[s], w);
                mpfr_set_prec(B[s], w);
            }
            if (i % 2 == 0) {
                tu_draw_wbit(delta, &rng, w, 1e-6, 0.3);
            } else {            /* aimed: delta just below D(h J), so the search's last "above" is at J */
                unsigned long J = frng_u53(&rng) % sum;
                mpfr_mul_ui(x, h, J, MPFR_RNDN);
                D_at(d, P, sum, h, x);
                mpfr_set_prec(delta, w);
                mpfr_set(delta, d, MPFR_RNDD);
                if (mpfr_equal_p(delta, d)) mpfr_nextbelow(delta);
                if (mpfr_sgn(delta) <= 0 || mpfr_cmp_ui(delta, 1) >= 0) tu_draw_wbit(delta, &rng, w, 1e-6, 0.3);
            }
            mpfr_set_prec(out, w);
            fri_dp_tight_least(out, P, sum, h, delta, w, A, B);
            /* A and B against the suffix sums of the same masses */
            mpfr_set_zero(c, 1);
            mpfr_set_zero(d, 1);
            for (unsigned long s = sum; s >= 1; s--) {
                mpfr_add(c, c, P[sum + s], MPFR_RNDN);
                mpfr_mul_ui(x, h, s, MPFR_RNDN);
                mpfr_neg(x, x, MPFR_RNDN);
                mpfr_exp(x, x, MPFR_RNDN);
                mpfr_mul(x, x, P[sum + s], MPFR_RNDN);
                mpfr_add(d, d, x, MPFR_RNDN);
                ck_assert_msg(at_least(A[s], c), "w %d case %d: A[%lu] %.8g below %.17g", (int)w, i, s,
                              mpfr_get_d(A[s], MPFR_RNDN), mpfr_get_d(c, MPFR_RNDN));
                mpfr_div_2ui(t, d, HP - 20, MPFR_RNDN);
                mpfr_add(t, d, t, MPFR_RNDN);
                ck_assert_msg(mpfr_lessequal_p(B[s], t), "w %d case %d: B[%lu] %.8g above %.17g", (int)w, i, s,
                              mpfr_get_d(B[s], MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN));
            }
            /* the least e: D(lo) > delta >= D(hi) (D(h sum) = 0), lo = 0 if D(0) <= delta */
            mpfr_set_zero(lo, 1);
            D_at(d, P, sum, h, lo);
            if (mpfr_lessequal_p(d, delta)) {
                ck_assert_msg(mpfr_sgn(out) >= 0, "w %d case %d: negative e", (int)w, i);
                continue;
            }
            mpfr_mul_ui(hi, h, sum, MPFR_RNDN);
            for (int it = 0; it < NBIS; it++) {
                mpfr_add(c, lo, hi, MPFR_RNDN);
                mpfr_div_2ui(c, c, 1, MPFR_RNDN);
                D_at(d, P, sum, h, c);
                if (mpfr_lessequal_p(d, delta)) mpfr_swap(hi, c); else mpfr_swap(lo, c);
            }
            ck_assert_msg(mpfr_greaterequal_p(out, lo), "w %d case %d: e %.10g below the least %.17g", (int)w, i,
                          mpfr_get_d(out, MPFR_RNDN), mpfr_get_d(lo, MPFR_RNDN));
        }
    for (int s = 0; s < LEN; s++) mpfr_clear(P[s]);
    for (int s = 0; s < SUM_MAX + 2; s++) mpfr_clears(A[s], B[s], (mpfr_ptr)0);
    mpfr_clears(h, delta, out, lo, hi, c, d, t, x, (mpfr_ptr)0);
}
END_TEST

Suite *suite_dp_tight_enclosures(void)
{
    Suite *s = suite_create("dp_tight_enclosures");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, groups_cover);
    tcase_add_test(tc, binomial_upper);
    tcase_add_test(tc, law_upper);
    tcase_add_test(tc, least_e_upper);
    suite_add_tcase(s, tc);
    return s;
}
