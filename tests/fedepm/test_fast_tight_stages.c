/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_tight_stages.c -- white-box: the stages of fast's optimal
 * composition (fast/fedepm/compose_tight.c, declared in
 * fast/fedepm/compose_tight.h) each keep their direction against the
 * exact result of their own inputs, at HP bits: the binomial weights step
 * by step (upper and lower), their normalisation, the composed law (above
 * the true law and above the exact convolution of the bounds it
 * multiplies), the suffix sums A (upper) and B (lower), and the least e
 * (by bisection on D(e) itself, deltas random or aimed just below D(h J)).
 * ff_dp_compose_tight_upper's output carries several ulps of outward
 * margin, so a direction reversed inside it rarely shows there:
 * ci/mutate-privacy.sh runs this suite first. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "../../fast/fedepm/compose_tight.h"

Suite *suite_dp_fast_tight_stages(void);

#define HP 192
#define NCASE 200
#define NMAX 40
#define NBIS 80

static int ge(double v, mpfr_srcptr t)     /* v >= t (1 - 2^-(HP-20)) */
{
    mpfr_t s;
    mpfr_init2(s, HP);
    mpfr_div_2ui(s, t, HP - 20, MPFR_RNDN);
    mpfr_sub(s, t, s, MPFR_RNDN);
    int ok = mpfr_cmp_d(s, v) <= 0;
    mpfr_clear(s);
    return ok;
}

static int le(double v, mpfr_srcptr t)     /* v <= t (1 + 2^-(HP-20)) */
{
    mpfr_t s;
    mpfr_init2(s, HP);
    mpfr_div_2ui(s, t, HP - 20, MPFR_RNDN);
    mpfr_add(s, t, s, MPFR_RNDN);
    int ok = mpfr_cmp_d(s, v) >= 0;
    mpfr_clear(s);
    return ok;
}

static double draw_h(frng_t *rng)           /* log-uniform in [1e-4, 0.5] */
{
    double u = (double)frng_u53(rng) * 0x1p-53;
    return 1e-4 * exp(u * log(5e3));
}

/* t = v e^{sx} a / b at HP, x = k h exactly */
static void step_exact(mpfr_t t, double v, int sx, unsigned long k, double h, unsigned long a, unsigned long b)
{
    mpfr_set_d(t, h, MPFR_RNDN);
    mpfr_mul_ui(t, t, k, MPFR_RNDN);           /* exact */
    if (sx < 0) mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul_d(t, t, v, MPFR_RNDN);
    mpfr_mul_ui(t, t, a, MPFR_RNDN);
    mpfr_div_ui(t, t, b, MPFR_RNDN);
}

START_TEST(weights_and_normalise)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f10), 0);
    double wu[NMAX + 1], wl[NMAX + 1], b[NMAX + 1];
    mpfr_t t, z;
    mpfr_inits2(HP, t, z, (mpfr_ptr)0);
    for (int i = 0; i < NCASE; i++) {
        unsigned long n = 1 + frng_u53(&rng) % NMAX, k = 1 + frng_u53(&rng) % 64;
        double h = draw_h(&rng);
        unsigned long m = ffi_dp_tight_weights(wu, wl, n, k, h);
        ck_assert(m <= n && wu[m] == 1 && wl[m] == 1);
        for (unsigned long c = m; c < n; c++) {
            step_exact(t, wu[c], +1, k, h, n - c, c + 1);
            ck_assert_msg(ge(wu[c + 1], t), "case %d: wu[%lu] below its step", i, c + 1);
            step_exact(t, wl[c], +1, k, h, n - c, c + 1);
            ck_assert_msg(le(wl[c + 1], t), "case %d: wl[%lu] above its step", i, c + 1);
        }
        for (unsigned long c = m; c > 0; c--) {
            step_exact(t, wu[c], -1, k, h, c, n - c + 1);
            ck_assert_msg(ge(wu[c - 1], t), "case %d: wu[%lu] below its step", i, c - 1);
            step_exact(t, wl[c], -1, k, h, c, n - c + 1);
            ck_assert_msg(le(wl[c - 1], t), "case %d: wl[%lu] above its step", i, c - 1);
        }
        mpfr_set_zero(z, 1);
        for (unsigned long c = 0; c <= n; c++) {
            ck_assert(wl[c] >= 0 && wl[c] <= wu[c]);
            mpfr_add_d(z, z, wl[c], MPFR_RNDN);    /* to HP bits */
            b[c] = wu[c];
        }
        ffi_dp_tight_normalise(b, wl, n);
        for (unsigned long c = 0; c <= n; c++) {
            mpfr_d_div(t, wu[c], z, MPFR_RNDN);
            ck_assert_msg(ge(b[c], t), "case %d: b[%lu] %.17g below wu / sum wl %.17g", i, c, b[c],
                          mpfr_get_d(t, MPFR_RNDN));
        }
    }
    mpfr_clears(t, z, (mpfr_ptr)0);
}
END_TEST

/* a random binary64 in [2^lo, 2^hi) */
static double draw_d(frng_t *rng, int lo, int hi)
{
    return ldexp(1 + (double)frng_u53(rng) * 0x1p-53, lo + (int)(frng_u53(rng) % (uint64_t)(hi - lo)));
}

/* the steps with the ratios given: each against its own inputs exactly,
 * free of the slack of the exponentials */
START_TEST(steps_own)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f13), 0);
    double wu[NMAX + 1], wl[NMAX + 1];
    mpfr_t t;
    mpfr_init2(t, HP);
    for (int i = 0; i < 20 * NCASE; i++) {
        const unsigned long n = 1 + frng_u53(&rng) % NMAX, m = frng_u53(&rng) % (n + 1);
        const double rul = draw_d(&rng, 0, 3), rdl = draw_d(&rng, -3, 0);
        const double ruu = frng_u53(&rng) % 2 ? rul : nextafter(rul, 8), rdu = frng_u53(&rng) % 2 ? rdl : nextafter(rdl, 1);
        ffi_dp_tight_steps(wu, wl, n, m, ruu, rul, rdu, rdl);
        ck_assert(wu[m] == 1 && wl[m] == 1);
        for (unsigned long c = m; c < n; c++) {
            mpfr_set_d(t, wu[c], MPFR_RNDN);
            mpfr_mul_d(t, t, ruu, MPFR_RNDN);
            mpfr_mul_ui(t, t, n - c, MPFR_RNDN);
            mpfr_div_ui(t, t, c + 1, MPFR_RNDN);
            ck_assert_msg(ge(wu[c + 1], t), "case %d: wu[%lu] below its step", i, c + 1);
            mpfr_set_d(t, wl[c], MPFR_RNDN);
            mpfr_mul_d(t, t, rul, MPFR_RNDN);
            mpfr_mul_ui(t, t, n - c, MPFR_RNDN);
            mpfr_div_ui(t, t, c + 1, MPFR_RNDN);
            ck_assert_msg(le(wl[c + 1], t) && wl[c + 1] >= 0, "case %d: wl[%lu] above its step", i, c + 1);
        }
        for (unsigned long c = m; c > 0; c--) {
            mpfr_set_d(t, wu[c], MPFR_RNDN);
            mpfr_mul_d(t, t, rdu, MPFR_RNDN);
            mpfr_mul_ui(t, t, c, MPFR_RNDN);
            mpfr_div_ui(t, t, n - c + 1, MPFR_RNDN);
            ck_assert_msg(ge(wu[c - 1], t), "case %d: wu[%lu] below its step", i, c - 1);
            mpfr_set_d(t, wl[c], MPFR_RNDN);
            mpfr_mul_d(t, t, rdl, MPFR_RNDN);
            mpfr_mul_ui(t, t, c, MPFR_RNDN);
            mpfr_div_ui(t, t, n - c + 1, MPFR_RNDN);
            ck_assert_msg(le(wl[c - 1], t) && wl[c - 1] >= 0, "case %d: wl[%lu] above its step", i, c - 1);
        }
    }
    mpfr_clear(t);
}
END_TEST

/* delta at a grid point: >= a - E b exactly, a near E b (cancellation)
 * or far above it */
START_TEST(dminus_own)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f14), 0);
    mpfr_t t;
    mpfr_init2(t, HP);
    for (int i = 0; i < 20 * NCASE; i++) {
        const double E = draw_d(&rng, 0, 6), b = draw_d(&rng, -30, 0);
        double a = E * b;
        switch (frng_u53(&rng) % 3) {
        case 0: for (int s = (int)(frng_u53(&rng) % 5); s > 0; s--) a = nextafter(a, 2 * a); break;
        case 1: a = a * (1 + 0x1p-20 * (double)(frng_u53(&rng) % 1024)); break;
        default: a = draw_d(&rng, 1, 20) * a; break;
        }
        const double d = ffi_dp_tight_dminus(a, E, b);
        mpfr_set_d(t, E, MPFR_RNDN);
        mpfr_mul_d(t, t, b, MPFR_RNDN);          /* exact */
        mpfr_d_sub(t, a, t, MPFR_RNDN);          /* exact at HP */
        ck_assert_msg(mpfr_cmp_d(t, d) <= 0, "case %d: %a below a - E b (a %a E %a b %a)", i, d, a, E, b);
    }
    mpfr_clear(t);
}
END_TEST

/* the steps of the suffix sums B and of delta's exponential: bstep <= b +
 * E p, exp_lo(J, h) <= e^{J h} with J h up to 700 (where one ulp of J h
 * outweighs the four steps down after exp) */
START_TEST(bstep_and_exp_own)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f15), 0);
    mpfr_t t, x;
    mpfr_inits2(HP, t, x, (mpfr_ptr)0);
    for (int i = 0; i < 20 * NCASE; i++) {
        const double E = draw_d(&rng, -20, 0), p = draw_d(&rng, -30, 0);
        const double b = frng_u53(&rng) % 3 ? 0 : draw_d(&rng, -40, -10);
        const double r = ffi_dp_tight_bstep(b, E, p);
        mpfr_set_d(t, E, MPFR_RNDN);
        mpfr_mul_d(t, t, p, MPFR_RNDN);          /* exact */
        mpfr_add_d(t, t, b, MPFR_RNDN);          /* exact at HP */
        ck_assert_msg(r >= 0 && mpfr_cmp_d(t, r) >= 0, "case %d: %a above b + E p (b %a E %a p %a)", i, r, b, E, p);
        const unsigned long J = 1 + frng_u53(&rng) % (1ul << 18);
        const double h = ldexp(draw_d(&rng, 0, 1), -(int)(frng_u53(&rng) % 30)) * 350 / (double)J;
        const double el = ffi_dp_tight_exp_lo(J, h);
        mpfr_set_d(x, h, MPFR_RNDN);
        mpfr_mul_ui(x, x, J, MPFR_RNDN);         /* exact */
        mpfr_exp(x, x, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(x, el) >= 0, "case %d: %a above e^{J h} (J %lu h %a)", i, el, J, h);
    }
    mpfr_clears(t, x, (mpfr_ptr)0);
}
END_TEST

/* the last cell: >= min(h c, max(h (c-1), ln((a - delta)/b))), the root
 * small (its ulp far below the one of the logarithm's argument), inside,
 * below or above the cell, or a <= delta */
START_TEST(cell_own)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f16), 0);
    mpfr_t L, x, y;
    mpfr_inits2(HP, L, x, y, (mpfr_ptr)0);
    for (int i = 0; i < 20 * NCASE; i++) {
        const unsigned long c = frng_u53(&rng) % 2 ? 1 : 1 + frng_u53(&rng) % 64;
        const double h = draw_d(&rng, -16, -4), delta = draw_d(&rng, -30, -3), b = draw_d(&rng, -4, 0);
        const int where = (int)(frng_u53(&rng) % 4);
        const double u = (double)frng_u53(&rng) * 0x1p-53;
        const double root = where == 0 ? h * ((double)(c - 1) + u) : where == 1 ? h * (double)(c - 1) * u
                          : h * ((double)c + 1 + u);
        const double a = where == 3 ? delta * u : delta + b * exp(root);
        const double e = ffi_dp_tight_cell(a, b, delta, c, h);
        mpfr_set_d(x, h, MPFR_RNDN);
        mpfr_mul_ui(y, x, c, MPFR_RNDN);         /* h c, exact */
        if (a > delta) {
            mpfr_mul_ui(x, x, c - 1, MPFR_RNDN); /* h (c-1), exact */
            mpfr_set_d(L, a, MPFR_RNDN);
            mpfr_sub_d(L, L, delta, MPFR_RNDN);
            mpfr_div_d(L, L, b, MPFR_RNDN);
            mpfr_log(L, L, MPFR_RNDN);
            mpfr_max(L, L, x, MPFR_RNDN);
            mpfr_min(y, L, y, MPFR_RNDN);
        }
        ck_assert_msg(mpfr_cmp_d(y, e) <= 0, "case %d: e %a below %a (a %a b %a delta %a c %lu h %a)", i, e,
                      mpfr_get_d(y, MPFR_RNDN), a, b, delta, c, h);
    }
    mpfr_clears(L, x, y, (mpfr_ptr)0);
}
END_TEST

#define NG 3
#define KMAX 12
#define NGMAX 4
#define SUM (NG * KMAX * NGMAX)
#define LEN (2 * SUM + 1)

/* ng groups, distinct k in 1..KMAX, n in 1..NGMAX; returns sum k n */
static unsigned long draw_groups(ffi_tight_group *g, size_t *ng, frng_t *rng)
{
    unsigned long used = 0, sum = 0;
    *ng = 1 + frng_u53(rng) % NG;
    for (size_t i = 0; i < *ng; i++) {
        unsigned long k;
        do k = 1 + frng_u53(rng) % KMAX; while (used >> k & 1);
        used |= 1ul << k;
        g[i] = (ffi_tight_group){k, 1 + frng_u53(rng) % NGMAX};
        sum += k * g[i].n;
    }
    return sum;
}

/* T = the convolution at HP of the groups' binomials: the true masses
 * (own = 0: C(n, c) p^c (1-p)^(n-c) at HP) or fast's own bounds
 * (own = 1: the weights normalised as the law does) */
static void conv(mpfr_t *T, const ffi_tight_group *g, size_t ng, unsigned long sum, double h, int own)
{
    mpfr_t Q[LEN], bm[NGMAX + 1], x, p, q, u;
    double wu[NGMAX + 1], wl[NGMAX + 1];
    for (int s = 0; s < LEN; s++) mpfr_init2(Q[s], HP);
    for (int c = 0; c <= NGMAX; c++) mpfr_init2(bm[c], HP);
    mpfr_inits2(HP, x, p, q, u, (mpfr_ptr)0);
    for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_set_zero(T[s], 1);
    mpfr_set_ui(T[sum], 1, MPFR_RNDN);
    for (size_t i = 0; i < ng; i++) {
        const unsigned long k = g[i].k, n = g[i].n;
        if (own) {
            ffi_dp_tight_weights(wu, wl, n, k, h);
            ffi_dp_tight_normalise(wu, wl, n);
            for (unsigned long c = 0; c <= n; c++) mpfr_set_d(bm[c], wu[c], MPFR_RNDN);
        } else {
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_mul_ui(x, x, k, MPFR_RNDN);
            mpfr_neg(x, x, MPFR_RNDN);
            mpfr_exp(u, x, MPFR_RNDN);                 /* e^{-k h} */
            mpfr_add_ui(p, u, 1, MPFR_RNDN);
            mpfr_div(q, u, p, MPFR_RNDN);              /* 1 - p */
            mpfr_ui_div(p, 1, p, MPFR_RNDN);           /* p */
            for (unsigned long c = 0; c <= n; c++) {
                mpfr_pow_ui(bm[c], p, c, MPFR_RNDN);
                mpfr_pow_ui(u, q, n - c, MPFR_RNDN);
                mpfr_mul(bm[c], bm[c], u, MPFR_RNDN);
                unsigned long C = 1;
                for (unsigned long j = 0; j < c; j++) C = C * (n - j) / (j + 1);
                mpfr_mul_ui(bm[c], bm[c], C, MPFR_RNDN);
            }
        }
        for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_set_zero(Q[s], 1);
        for (size_t s = 0; s < 2 * sum + 1; s++) {
            if (mpfr_zero_p(T[s])) continue;
            for (unsigned long c = 0; c <= n; c++) {
                mpfr_mul(u, T[s], bm[c], MPFR_RNDN);
                size_t y = s + 2 * c * k - n * k;
                mpfr_add(Q[y], Q[y], u, MPFR_RNDN);
            }
        }
        for (size_t s = 0; s < 2 * sum + 1; s++) mpfr_swap(T[s], Q[s]);
    }
    for (int s = 0; s < LEN; s++) mpfr_clear(Q[s]);
    for (int c = 0; c <= NGMAX; c++) mpfr_clear(bm[c]);
    mpfr_clears(x, p, q, u, (mpfr_ptr)0);
}

START_TEST(law_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f11), 0);
    ffi_tight_group g[NG];
    double P[LEN], Q[LEN], b[NGMAX + 1], bl[NGMAX + 1];
    mpfr_t T[LEN];
    for (int s = 0; s < LEN; s++) mpfr_init2(T[s], HP);
    for (int i = 0; i < NCASE; i++) {
        size_t ng;
        unsigned long sum = draw_groups(g, &ng, &rng);
        double h = draw_h(&rng);
        for (int s = 0; s < LEN; s++) P[s] = Q[s] = 0;
        ffi_dp_tight_law(P, Q, b, bl, g, ng, sum, h);
        for (unsigned long s = 0; s < 2 * sum + 1; s++) ck_assert(Q[s] == 0);
        for (int own = 0; own <= 1; own++) {
            conv(T, g, ng, sum, h, own);
            for (unsigned long s = 0; s < 2 * sum + 1; s++)
                ck_assert_msg(ge(P[s], T[s]), "case %d S = %ld: %.17g below the %s %.17g", i, (long)s - (long)sum,
                              P[s], own ? "convolution of its bounds" : "mass", mpfr_get_d(T[s], MPFR_RNDN));
        }
    }
    for (int s = 0; s < LEN; s++) mpfr_clear(T[s]);
}
END_TEST

/* D(e) = sum_{s >= 1, h s > e} P[sum + s] (1 - e^{e - h s}) at HP */
static void D_at(mpfr_t d, const double *P, unsigned long sum, double h, mpfr_srcptr e)
{
    mpfr_t x, t;
    mpfr_inits2(HP, x, t, (mpfr_ptr)0);
    mpfr_set_zero(d, 1);
    for (unsigned long s = 1; s <= sum; s++) {
        mpfr_set_d(x, h, MPFR_RNDN);
        mpfr_mul_ui(x, x, s, MPFR_RNDN);
        if (mpfr_lessequal_p(x, e)) continue;
        mpfr_sub(t, e, x, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_mul_d(t, t, P[sum + s], MPFR_RNDN);
        mpfr_sub(d, d, t, MPFR_RNDN);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
}

START_TEST(least_e_up)
{
    frng_t rng;
    frng_init(&rng, tu_seed(0x7f12), 0);
    ffi_tight_group g[NG];
    double P[LEN], Q[LEN], b[NGMAX + 1], bl[NGMAX + 1], A[SUM + 2], B[SUM + 2];
    mpfr_t c, d, x, lo, hi, mid;
    mpfr_inits2(HP, c, d, x, lo, hi, mid, (mpfr_ptr)0);
    for (int i = 0; i < NCASE; i++) {
        size_t ng;
        unsigned long sum = draw_groups(g, &ng, &rng);
        double h = draw_h(&rng), delta;
        for (int s = 0; s < LEN; s++) P[s] = Q[s] = 0;
        ffi_dp_tight_law(P, Q, b, bl, g, ng, sum, h);
        if (i % 2 == 0) {
            delta = 1e-6 * exp((double)frng_u53(&rng) * 0x1p-53 * log(3e5));
        } else {            /* just below D(h J): the search's last "above" is at J */
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_mul_ui(x, x, frng_u53(&rng) % sum, MPFR_RNDN);
            D_at(d, P, sum, h, x);
            delta = nextafter(mpfr_get_d(d, MPFR_RNDD), 0);
            if (!(delta > 0 && delta < 1)) delta = 1e-3;
        }
        for (unsigned long s = 0; s < sum + 2; s++) A[s] = B[s] = -1;   /* the function sets them */
        double e = ffi_dp_tight_least(A, B, P, sum, h, delta);
        mpfr_set_zero(c, 1);
        mpfr_set_zero(d, 1);
        for (unsigned long s = sum; s >= 1; s--) {
            mpfr_add_d(c, c, P[sum + s], MPFR_RNDN);
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_mul_ui(x, x, s, MPFR_RNDN);
            mpfr_neg(x, x, MPFR_RNDN);
            mpfr_exp(x, x, MPFR_RNDN);
            mpfr_mul_d(x, x, P[sum + s], MPFR_RNDN);
            mpfr_add(d, d, x, MPFR_RNDN);
            ck_assert_msg(ge(A[s], c), "case %d: A[%lu] %.17g below %.17g", i, s, A[s], mpfr_get_d(c, MPFR_RNDN));
            ck_assert_msg(le(B[s], d), "case %d: B[%lu] %.17g above %.17g", i, s, B[s], mpfr_get_d(d, MPFR_RNDN));
        }
        mpfr_set_zero(lo, 1);
        D_at(d, P, sum, h, lo);
        if (mpfr_cmp_d(d, delta) <= 0) {
            ck_assert(e >= 0);
            continue;
        }
        mpfr_set_d(hi, h, MPFR_RNDN);
        mpfr_mul_ui(hi, hi, sum, MPFR_RNDN);       /* D(h sum) = 0 */
        for (int it = 0; it < NBIS; it++) {
            mpfr_add(mid, lo, hi, MPFR_RNDN);
            mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
            D_at(d, P, sum, h, mid);
            if (mpfr_cmp_d(d, delta) <= 0) mpfr_swap(hi, mid); else mpfr_swap(lo, mid);
        }
        ck_assert_msg(mpfr_cmp_d(lo, e) <= 0, "case %d: e %.17g below the least %.17g", i, e,
                      mpfr_get_d(lo, MPFR_RNDN));
    }
    mpfr_clears(c, d, x, lo, hi, mid, (mpfr_ptr)0);
}
END_TEST

Suite *suite_dp_fast_tight_stages(void)
{
    Suite *s = suite_create("dp_fast_tight_stages");
    TCase *tc = tcase_create("directions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, steps_own);
    tcase_add_test(tc, dminus_own);
    tcase_add_test(tc, bstep_and_exp_own);
    tcase_add_test(tc, cell_own);
    tcase_add_test(tc, weights_and_normalise);
    tcase_add_test(tc, law_up);
    tcase_add_test(tc, least_e_up);
    suite_add_tcase(s, tc);
    return s;
}
