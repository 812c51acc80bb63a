/* SPDX-License-Identifier: Apache-2.0 */
/* test_net.c -- the two-layer network of 000 Sec. V, (28)-(30), and its
 * feature-based messages (Algorithms 3-4, (20)-(21)): ref against an
 * independent plain-MPFR evaluation at 4p + 64 and 8p + 128 bits (the
 * answer is checked only where both ends of the doubling estimate round
 * alike), g against central differences of f (ref), the exact zeros and
 * their sign, the feature-based blocks against fr_ssca_net bit for bit,
 * and fast within its proved bounds (ff_ssca_net*_bound) against ref on
 * random and extreme inputs, with no NaN for |u| up to 1e300.
 * Seeded random cases: FEDREF_SEED=<n> replays (printed on failure);
 * FEDREF_TEST_EFFORT multiplies the number of cases. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_ssca_net(void);

#define MAXL 4
#define MAXJ 4
#define MAXP 6
#define MAXNB 6
#define MAXD (MAXJ * (MAXL + MAXP))

static frng_t rng;
static unsigned long long seed;

#define SUITE_SEED 20250101u    /* the seed without FEDREF_SEED */

static int effort(int n) { return tu_effort(n); }

static uint64_t below(uint64_t n)
{
    uint64_t r;
    frng_below(&rng, n, &r);
    return r;
}

/* k 2^(e - bits), |k| < 2^bits, e in [emin, emax], either sign; 1/8 zero. */
static double rnd_dyadic(unsigned bits, int emin, int emax)
{
    if (below(8) == 0)
        return 0.0;
    double k = (double)below((uint64_t)1 << bits);
    return (below(2) ? -1 : 1) * ldexp(k, emin + (int)below((uint64_t)(emax - emin + 1)) - (int)bits);
}

static const mpfr_prec_t precs[] = {2, 11, 24, 53, 64, 113, 200};

static char *str(mpfr_srcptr x)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    mpfr_snprintf(buf[k], sizeof buf[k], "%.40Rg", x);
    return buf[k];
}

/* A random problem: sizes, w, Z (binary64), labels. */
typedef struct {
    size_t L, J, P, nb, d;
    double w[MAXD], Z[MAXNB * MAXP];
    size_t y[MAXNB];
} prob_t;

static void rnd_problem(prob_t *pb, int scale)
{
    pb->L = 2 + below(MAXL - 1);
    pb->J = 1 + below(MAXJ);
    pb->P = 1 + below(MAXP);
    pb->nb = 1 + below(MAXNB);
    pb->d = pb->J * (pb->L + pb->P);
    for (size_t k = 0; k < pb->d; k++)
        pb->w[k] = rnd_dyadic(20, -6 + scale, 2 + scale);
    for (size_t k = 0; k < pb->nb * pb->P; k++)
        pb->Z[k] = rnd_dyadic(20, -4, 3);
    int dup = below(4) == 0;                   /* equal samples with other labels */
    for (size_t n = 0; n < pb->nb; n++) {
        pb->y[n] = below(pb->L);
        if (dup && n > 0)
            memcpy(pb->Z + n * pb->P, pb->Z, pb->P * sizeof *pb->Z);
    }
    if (below(6) == 0)                          /* omega_0 = 0 */
        memset(pb->w, 0, pb->L * pb->J * sizeof *pb->w);
    if (below(6) == 0)                          /* omega_1 = 0 */
        memset(pb->w + pb->L * pb->J, 0, pb->J * pb->P * sizeof *pb->w);
}

static void mp_set(mpfr_t *x, const double *v, size_t k, mpfr_prec_t p)
{
    for (size_t i = 0; i < k; i++) {
        mpfr_set_prec(x[i], p);
        mpfr_set_d(x[i], v[i], MPFR_RNDN);        /* exact for p >= 53 */
    }
}

/* ---- the oracle: a plain MPFR evaluation at precision q ------------------
 * Written from the formulas of 000 Sec. V as printed (with sigma(-u) =
 * 1 - sigma(u) as e^-u/(1 + e^-u), Q_y - 1 as -sum_{l != y} Q_l and the loss
 * as log1p(sum_{l != y} e^(o_l - o_y)), equivalent forms without
 * cancellation), every operation rounded to nearest; no exact arithmetic,
 * no intervals, no structure. */
static void naive(mpfr_ptr f, mpfr_t *g, const prob_t *pb, mpfr_t *const w, mpfr_prec_t q)
{
    const size_t L = pb->L, J = pb->J, P = pb->P;
    mpfr_t u, t, e, sig, sigm, c, T, S[MAXJ], Sp[MAXJ], o[MAXL], Q[MAXL];
    mpfr_inits2(q, u, t, e, sig, sigm, c, T, (mpfr_ptr)0);
    for (size_t j = 0; j < J; j++) mpfr_inits2(q, S[j], Sp[j], (mpfr_ptr)0);
    for (size_t l = 0; l < L; l++) mpfr_inits2(q, o[l], Q[l], (mpfr_ptr)0);
    mpfr_set_zero(f, 1);
    for (size_t k = 0; k < pb->d; k++) mpfr_set_zero(g[k], 1);
    for (size_t n = 0; n < pb->nb; n++) {
        const size_t y = pb->y[n];
        for (size_t j = 0; j < J; j++) {
            mpfr_set_zero(u, 1);
            for (size_t p = 0; p < P; p++) {
                mpfr_mul_d(t, w[L * J + j * P + p], pb->Z[n * P + p], MPFR_RNDN);
                mpfr_add(u, u, t, MPFR_RNDN);
            }
            mpfr_neg(e, u, MPFR_RNDN);
            mpfr_exp(e, e, MPFR_RNDN);                     /* e^-u */
            mpfr_add_ui(t, e, 1, MPFR_RNDN);
            mpfr_ui_div(sig, 1, t, MPFR_RNDN);             /* sigma(u) */
            mpfr_div(sigm, e, t, MPFR_RNDN);               /* sigma(-u) */
            mpfr_mul(S[j], u, sig, MPFR_RNDN);
            mpfr_mul(t, u, sigm, MPFR_RNDN);
            mpfr_add_ui(t, t, 1, MPFR_RNDN);
            mpfr_mul(Sp[j], sig, t, MPFR_RNDN);
        }
        for (size_t l = 0; l < L; l++) {
            mpfr_set_zero(o[l], 1);
            for (size_t j = 0; j < J; j++) {
                mpfr_mul(t, w[l * J + j], S[j], MPFR_RNDN);
                mpfr_add(o[l], o[l], t, MPFR_RNDN);
            }
        }
        mpfr_set_zero(T, 1);                                /* sum_{l != y} e^(o_l - o_y) */
        for (size_t l = 0; l < L; l++) {
            if (l == y) continue;
            mpfr_sub(t, o[l], o[y], MPFR_RNDN);
            mpfr_exp(Q[l], t, MPFR_RNDN);
            mpfr_add(T, T, Q[l], MPFR_RNDN);
        }
        mpfr_log1p(t, T, MPFR_RNDN);
        mpfr_add(f, f, t, MPFR_RNDN);                      /* (28) */
        mpfr_add_ui(t, T, 1, MPFR_RNDN);
        mpfr_set_zero(Q[y], 1);
        for (size_t l = 0; l < L; l++) {
            if (l == y) continue;
            mpfr_div(Q[l], Q[l], t, MPFR_RNDN);            /* Q_l */
            mpfr_sub(Q[y], Q[y], Q[l], MPFR_RNDN);         /* Q_y - 1 */
        }
        for (size_t l = 0; l < L; l++)
            for (size_t j = 0; j < J; j++) {
                mpfr_mul(t, Q[l], S[j], MPFR_RNDN);        /* (29) */
                mpfr_add(g[l * J + j], g[l * J + j], t, MPFR_RNDN);
            }
        for (size_t j = 0; j < J; j++) {
            mpfr_set_zero(c, 1);
            for (size_t l = 0; l < L; l++) {
                mpfr_mul(t, Q[l], w[l * J + j], MPFR_RNDN);
                mpfr_add(c, c, t, MPFR_RNDN);
            }
            mpfr_mul(c, c, Sp[j], MPFR_RNDN);              /* delta_{n,j} */
            for (size_t p = 0; p < P; p++) {
                mpfr_mul_d(t, c, pb->Z[n * P + p], MPFR_RNDN);   /* (30) */
                mpfr_add(g[L * J + j * P + p], g[L * J + j * P + p], t, MPFR_RNDN);
            }
        }
    }
    mpfr_clears(u, t, e, sig, sigm, c, T, (mpfr_ptr)0);
    for (size_t j = 0; j < J; j++) mpfr_clears(S[j], Sp[j], (mpfr_ptr)0);
    for (size_t l = 0; l < L; l++) mpfr_clears(o[l], Q[l], (mpfr_ptr)0);
}

/* got must be the rounding to nearest of every point of [y - e, y + e],
 * e = |y - y1| + 2^(8 - q2)|y| (y at q2 bits, y1 at q2/2); an exact zero
 * of the oracle (e = 0) must be +0.  Returns 0 (checks nothing) if that
 * interval straddles a rounding boundary. */
static int check_oracle(mpfr_srcptr got, mpfr_srcptr y, mpfr_srcptr y1, const char *what, int c, size_t k)
{
    mpfr_prec_t q = mpfr_get_prec(y) + 16;
    mpfr_t a, b, e, ra, rb;
    mpfr_inits2(q, a, b, e, (mpfr_ptr)0);
    mpfr_inits2(mpfr_get_prec(got), ra, rb, (mpfr_ptr)0);
    mpfr_sub(e, y, y1, MPFR_RNDA);
    mpfr_abs(e, e, MPFR_RNDU);
    mpfr_abs(a, y, MPFR_RNDU);
    mpfr_mul_2si(a, a, 8 - (long)mpfr_get_prec(y), MPFR_RNDU);
    mpfr_add(e, e, a, MPFR_RNDU);
    mpfr_sub(a, y, e, MPFR_RNDD);
    mpfr_add(b, y, e, MPFR_RNDU);
    mpfr_set(ra, a, MPFR_RNDN);
    mpfr_set(rb, b, MPFR_RNDN);
    int ok = mpfr_equal_p(ra, rb);
    if (ok && (!mpfr_equal_p(got, ra) || (mpfr_zero_p(got) && mpfr_signbit(got))))
        ck_abort_msg("%s case %d entry %zu: got %s, the oracle gives %s [FEDREF_SEED=%llu]",
                     what, c, k, str(got), str(ra), seed);
    mpfr_clears(a, b, e, ra, rb, (mpfr_ptr)0);
    return ok;
}

START_TEST(net_vs_naive)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 301);
    prob_t pb;
    mpfr_t w[MAXD], g[MAXD], y1[MAXD], y2[MAXD], f, f1, f2;
    for (int k = 0; k < MAXD; k++) mpfr_inits2(64, w[k], g[k], y1[k], y2[k], (mpfr_ptr)0);
    mpfr_inits2(64, f, f1, f2, (mpfr_ptr)0);
    int ncase = effort(300);
    unsigned long checked = 0, total = 0, zeros = 0;
    for (int c = 0; c < ncase; c++) {
        rnd_problem(&pb, c % 5 == 0 ? 4 : 0);
        mp_set(w, pb.w, pb.d, 53);
        mpfr_prec_t pmax = precs[below(7)];
        mpfr_set_prec(f, pmax);
        for (size_t k = 0; k < pb.d; k++) {
            mpfr_prec_t p = below(2) ? pmax : precs[below(7)];
            mpfr_set_prec(g[k], p);
            pmax = p > pmax ? p : pmax;
        }
        mpfr_t *Z = malloc(pb.nb * pb.P * sizeof *Z);
        for (size_t k = 0; k < pb.nb * pb.P; k++) {
            mpfr_init2(Z[k], 53);
            mpfr_set_d(Z[k], pb.Z[k], MPFR_RNDN);
        }
        int st = fr_ssca_net(f, g, w, pb.L, pb.J, pb.P, Z, pb.y, pb.nb);
        ck_assert_msg(st == FR_OK, "case %d: status %d [FEDREF_SEED=%llu]", c, st, seed);
        mpfr_prec_t q = 4 * pmax + 64;
        mpfr_set_prec(f1, q);
        mpfr_set_prec(f2, 2 * q);
        for (size_t k = 0; k < pb.d; k++) {
            mpfr_set_prec(y1[k], q);
            mpfr_set_prec(y2[k], 2 * q);
        }
        naive(f1, y1, &pb, w, q);
        naive(f2, y2, &pb, w, 2 * q);
        total += 1 + pb.d;
        checked += check_oracle(f, f2, f1, "f", c, 0);
        for (size_t k = 0; k < pb.d; k++) {
            checked += check_oracle(g[k], y2[k], y1[k], "g", c, k);
            zeros += mpfr_zero_p(g[k]);
        }
        for (size_t k = 0; k < pb.nb * pb.P; k++) mpfr_clear(Z[k]);
        free(Z);
    }
    ck_assert_msg(checked >= total * 9 / 10, "only %lu of %lu results decided by the oracle", checked, total);
    ck_assert_msg(zeros > 0, "no exact zero exercised");
    for (int k = 0; k < MAXD; k++) mpfr_clears(w[k], g[k], y1[k], y2[k], (mpfr_ptr)0);
    mpfr_clears(f, f1, f2, (mpfr_ptr)0);
}
END_TEST

/* g is the gradient of f: central differences of f (ref at 400 bits, so
 * the rounding of f is negligible) with step h = 2^-40 agree with each g_k
 * to h^2 max|f'''| (the weights are small: |f'''| < 1e4 here). */
START_TEST(gradient_is_derivative_of_f)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 302);
    prob_t pb;
    mpfr_t w[MAXD], g[MAXD], fp, fm, cd, t, *Z = malloc(MAXNB * MAXP * sizeof *Z);
    for (int k = 0; k < MAXD; k++) mpfr_inits2(400, w[k], g[k], (mpfr_ptr)0);
    for (int k = 0; k < MAXNB * MAXP; k++) mpfr_init2(Z[k], 53);
    mpfr_inits2(400, fp, fm, cd, t, (mpfr_ptr)0);
    for (int c = 0; c < effort(20); c++) {
        rnd_problem(&pb, 0);
        for (size_t k = 0; k < pb.d; k++) {
            mpfr_set_d(w[k], pb.w[k], MPFR_RNDN);
            if (below(3) == 0) mpfr_set_d(w[k], ldexp((double)below(33) - 16, -4), MPFR_RNDN);
        }
        for (size_t k = 0; k < pb.nb * pb.P; k++) mpfr_set_d(Z[k], pb.Z[k], MPFR_RNDN);
        ck_assert_int_eq(fr_ssca_net(NULL, g, w, pb.L, pb.J, pb.P, Z, pb.y, pb.nb), FR_OK);
        for (size_t k = 0; k < pb.d; k++) {
            mpfr_set(t, w[k], MPFR_RNDN);
            mpfr_add_d(w[k], t, 0x1p-40, MPFR_RNDN);          /* exact at 400 bits */
            ck_assert_int_eq(fr_ssca_net(fp, NULL, w, pb.L, pb.J, pb.P, Z, pb.y, pb.nb), FR_OK);
            mpfr_sub_d(w[k], t, 0x1p-40, MPFR_RNDN);
            ck_assert_int_eq(fr_ssca_net(fm, NULL, w, pb.L, pb.J, pb.P, Z, pb.y, pb.nb), FR_OK);
            mpfr_set(w[k], t, MPFR_RNDN);
            mpfr_sub(cd, fp, fm, MPFR_RNDN);
            mpfr_mul_2si(cd, cd, 39, MPFR_RNDN);                /* / (2h) */
            mpfr_sub(cd, cd, g[k], MPFR_RNDN);
            ck_assert_msg(mpfr_cmpabs_ui(cd, 0) == 0 || fabs(mpfr_get_d(cd, MPFR_RNDN)) < 1e-20,
                          "case %d, k = %zu: (f(w + h e_k) - f(w - h e_k))/2h - g_k = %s "
                          "[FEDREF_SEED=%llu]", c, k, str(cd), seed);
        }
    }
    for (int k = 0; k < MAXD; k++) mpfr_clears(w[k], g[k], (mpfr_ptr)0);
    for (int k = 0; k < MAXNB * MAXP; k++) mpfr_clear(Z[k]);
    free(Z);
    mpfr_clears(fp, fm, cd, t, (mpfr_ptr)0);
}
END_TEST

/* ---- exact results, both wings ---------------------------------------------- */

/* Run both wings on one problem; ref at 53 bits. */
static void both(const prob_t *pb, double *rf, double *rg, double *ff, double *fg)
{
    mpfr_t w[MAXD], g[MAXD], f, Z[MAXNB * MAXP];
    for (size_t k = 0; k < pb->d; k++) {
        mpfr_inits2(53, w[k], g[k], (mpfr_ptr)0);
        mpfr_set_d(w[k], pb->w[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < pb->nb * pb->P; k++) {
        mpfr_init2(Z[k], 53);
        mpfr_set_d(Z[k], pb->Z[k], MPFR_RNDN);
    }
    mpfr_init2(f, 53);
    ck_assert_int_eq(fr_ssca_net(f, g, w, pb->L, pb->J, pb->P, Z, pb->y, pb->nb), FR_OK);
    ck_assert_int_eq(ff_ssca_net(ff, fg, pb->w, pb->L, pb->J, pb->P, pb->Z, pb->y, pb->nb), FR_OK);
    *rf = mpfr_get_d(f, MPFR_RNDN);
    for (size_t k = 0; k < pb->d; k++) {
        rg[k] = mpfr_get_d(g[k], MPFR_RNDN);
        mpfr_clears(w[k], g[k], (mpfr_ptr)0);
    }
    for (size_t k = 0; k < pb->nb * pb->P; k++) mpfr_clear(Z[k]);
    mpfr_clear(f);
}

#define POSZERO(x) ((x) == 0 && !signbit(x))

START_TEST(exact_zeros_are_plus_zero)
{
    /* L = 2, J = 2, P = 2, nb = 3: w = (omega_0 (2 x 2), omega_1 (2 x 2)) */
    prob_t pb = {.L = 2, .J = 2, .P = 2, .nb = 3, .d = 8,
                 .w = {0.5, -1, 0.25, 2, -0.5, 1, 0.75, -0.25},
                 .Z = {1, -2, -0.5, 0.25, 2, 1}, .y = {0, 1, 1}};
    double rf, rg[8], ff, fg[8];
    /* omega_1 = 0: u = 0, S = 0: A = +0; f = 3 ln 2 */
    prob_t a = pb;
    memset(a.w + 4, 0, 4 * sizeof *a.w);
    both(&a, &rf, rg, &ff, fg);
    for (int k = 0; k < 4; k++) ck_assert(POSZERO(rg[k]) && POSZERO(fg[k]));
    ck_assert(rf == 3 * 0.6931471805599453 || fabs(rf - 3 * log(2.0)) < 1e-15);
    /* omega_0 = 0 (and a constant-column omega_0): the omega_1 block is +0 */
    for (int v = 0; v < 2; v++) {
        prob_t b = pb;
        for (int k = 0; k < 4; k++) b.w[k] = v ? (k % 2 ? -3 : 0.5) : 0;   /* columns constant */
        both(&b, &rf, rg, &ff, fg);
        for (int k = 4; k < 8; k++) ck_assert(POSZERO(rg[k]) && POSZERO(fg[k]));
        ck_assert(!POSZERO(rg[0]));
    }
    /* a zero feature column p = 1: B_{j,1} = +0 */
    prob_t c = pb;
    c.Z[1] = c.Z[3] = c.Z[5] = 0;
    both(&c, &rf, rg, &ff, fg);
    ck_assert(POSZERO(rg[5]) && POSZERO(rg[7]) && POSZERO(fg[5]) && POSZERO(fg[7]));
    ck_assert(rg[4] != 0 && rg[6] != 0);
    /* omega_0 = 0, samples 0 and 1 equal with labels 0, 1 (nb = 2): g = +0 */
    prob_t d = pb;
    memset(d.w, 0, 4 * sizeof *d.w);
    d.nb = 2;
    d.Z[2] = d.Z[0];
    d.Z[3] = d.Z[1];
    both(&d, &rf, rg, &ff, fg);
    for (int k = 0; k < 8; k++) ck_assert(POSZERO(rg[k]) && POSZERO(fg[k]));
    ck_assert(fabs(rf - 2 * log(2.0)) < 1e-15);
}
END_TEST

/* f alone, g alone, g aliasing w: the same numbers, both wings. */
START_TEST(outputs_alone_and_aliasing)
{
    prob_t pb = {.L = 3, .J = 2, .P = 2, .nb = 2, .d = 10,
                 .w = {0.5, -1, 0.25, 2, -0.75, 1.5, -0.5, 1, 0.75, -0.25},
                 .Z = {1, -2, -0.5, 0.25}, .y = {2, 0}};
    mpfr_t w[10], g[10], g2[10], f, f2, Z[4];
    for (int k = 0; k < 10; k++) {
        mpfr_inits2(80, w[k], g[k], g2[k], (mpfr_ptr)0);
        mpfr_set_d(w[k], pb.w[k], MPFR_RNDN);
    }
    for (int k = 0; k < 4; k++) { mpfr_init2(Z[k], 53); mpfr_set_d(Z[k], pb.Z[k], MPFR_RNDN); }
    mpfr_inits2(80, f, f2, (mpfr_ptr)0);
    ck_assert_int_eq(fr_ssca_net(f, g, w, 3, 2, 2, Z, pb.y, 2), FR_OK);
    ck_assert_int_eq(fr_ssca_net(f2, NULL, w, 3, 2, 2, Z, pb.y, 2), FR_OK);
    ck_assert_int_eq(fr_ssca_net(NULL, g2, w, 3, 2, 2, Z, pb.y, 2), FR_OK);
    ck_assert(mpfr_equal_p(f, f2));
    for (int k = 0; k < 10; k++) ck_assert(mpfr_equal_p(g[k], g2[k]));
    ck_assert_int_eq(fr_ssca_net(NULL, w, w, 3, 2, 2, Z, pb.y, 2), FR_OK);   /* g = w */
    for (int k = 0; k < 10; k++) ck_assert(mpfr_equal_p(g[k], w[k]));
    double ff, fg[10], ff2, fg2[10], ww[10];
    memcpy(ww, pb.w, sizeof ww);
    ck_assert_int_eq(ff_ssca_net(&ff, fg, pb.w, 3, 2, 2, pb.Z, pb.y, 2), FR_OK);
    ck_assert_int_eq(ff_ssca_net(&ff2, NULL, pb.w, 3, 2, 2, pb.Z, pb.y, 2), FR_OK);
    ck_assert_int_eq(ff_ssca_net(NULL, fg2, pb.w, 3, 2, 2, pb.Z, pb.y, 2), FR_OK);
    ck_assert(ff == ff2 && memcmp(fg, fg2, sizeof fg) == 0);
    ck_assert_int_eq(ff_ssca_net(NULL, ww, ww, 3, 2, 2, pb.Z, pb.y, 2), FR_OK);
    ck_assert(memcmp(fg, ww, sizeof fg) == 0);
    for (int k = 0; k < 10; k++) mpfr_clears(w[k], g[k], g2[k], (mpfr_ptr)0);
    for (int k = 0; k < 4; k++) mpfr_clear(Z[k]);
    mpfr_clears(f, f2, (mpfr_ptr)0);
}
END_TEST

/* ---- the feature-based messages ------------------------------------------------ */

/* Features split among I clients (P_i >= 1, unequal): partial with exact h
 * (precision 300: the dot products of 53-bit numbers with exponents in a
 * range of 20 need < 200 bits), then top and bottom, equal the blocks of
 * fr_ssca_net bit for bit at every output precision. */
START_TEST(feature_blocks_equal_sample_gradient)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 303);
    prob_t pb;
    for (int c = 0; c < effort(60); c++) {
        rnd_problem(&pb, 0);
        if (pb.P < 2) continue;
        const size_t L = pb.L, J = pb.J, P = pb.P, nb = pb.nb, I = 2 + below(P - 1 < 3 ? P - 1 : 3);
        size_t cut[MAXP + 1] = {0};
        for (size_t i = 1; i < I; i++) cut[i] = i;              /* P_i = 1 ... then the rest */
        cut[I] = P;
        if (below(2) && I < P) cut[1] = P - I + 1, cut[I] = P;   /* one wide client */
        for (size_t i = 2; i < I; i++) if (cut[i] <= cut[i - 1]) cut[i] = cut[i - 1] + 1;
        mpfr_prec_t p = precs[below(7)];
        mpfr_t w[MAXD], g[MAXD], f, ft, Z[MAXNB * MAXP], H[4 * MAXNB * MAXJ], A[MAXL * MAXJ], B[MAXJ * MAXP];
        mpfr_t w1i[MAXJ * MAXP], Zi[MAXNB * MAXP];
        for (size_t k = 0; k < pb.d; k++) { mpfr_inits2(53, w[k], (mpfr_ptr)0); mpfr_init2(g[k], p);
                                            mpfr_set_d(w[k], pb.w[k], MPFR_RNDN); }
        for (size_t k = 0; k < nb * P; k++) { mpfr_init2(Z[k], 53); mpfr_set_d(Z[k], pb.Z[k], MPFR_RNDN); }
        mpfr_inits2(p, f, ft, (mpfr_ptr)0);
        for (size_t k = 0; k < I * nb * J; k++) mpfr_init2(H[k], 300);
        for (size_t k = 0; k < L * J; k++) mpfr_init2(A[k], p);
        ck_assert_int_eq(fr_ssca_net(f, g, w, L, J, P, Z, pb.y, nb), FR_OK);
        for (size_t i = 0; i < I; i++) {                         /* Step 4 */
            size_t p0 = cut[i], Pi = cut[i + 1] - cut[i];
            for (size_t j = 0; j < J; j++)
                for (size_t q = 0; q < Pi; q++) {
                    mpfr_init2(w1i[j * Pi + q], 53);
                    mpfr_set(w1i[j * Pi + q], w[L * J + j * P + p0 + q], MPFR_RNDN);
                }
            for (size_t n = 0; n < nb; n++)
                for (size_t q = 0; q < Pi; q++) {
                    mpfr_init2(Zi[n * Pi + q], 53);
                    mpfr_set(Zi[n * Pi + q], Z[n * P + p0 + q], MPFR_RNDN);
                }
            ck_assert_int_eq(fr_ssca_net_partial(H + i * nb * J, w1i, Zi, nb, J, Pi), FR_OK);
            for (size_t k = 0; k < J * Pi; k++) mpfr_clear(w1i[k]);
            for (size_t k = 0; k < nb * Pi; k++) mpfr_clear(Zi[k]);
        }
        ck_assert_int_eq(fr_ssca_net_top(ft, A, H, I, w, pb.y, nb, L, J), FR_OK);   /* Step 5 */
        ck_assert_msg(mpfr_equal_p(f, ft), "case %d: top's f %s, net's %s [FEDREF_SEED=%llu]", c, str(ft),
                      str(f), seed);
        for (size_t k = 0; k < L * J; k++)
            ck_assert_msg(mpfr_equal_p(A[k], g[k]) && mpfr_signbit(A[k]) == mpfr_signbit(g[k]),
                          "case %d: A[%zu] %s, g %s [FEDREF_SEED=%llu]", c, k, str(A[k]), str(g[k]), seed);
        for (size_t i = 0; i < I; i++) {                         /* Step 6 */
            size_t p0 = cut[i], Pi = cut[i + 1] - cut[i];
            for (size_t n = 0; n < nb; n++)
                for (size_t q = 0; q < Pi; q++) {
                    mpfr_init2(Zi[n * Pi + q], 53);
                    mpfr_set(Zi[n * Pi + q], Z[n * P + p0 + q], MPFR_RNDN);
                }
            for (size_t k = 0; k < J * Pi; k++) mpfr_init2(B[k], p);
            ck_assert_int_eq(fr_ssca_net_bottom(B, H, I, w, pb.y, Zi, nb, L, J, Pi), FR_OK);
            for (size_t j = 0; j < J; j++)
                for (size_t q = 0; q < Pi; q++)
                    ck_assert_msg(mpfr_equal_p(B[j * Pi + q], g[L * J + j * P + p0 + q]),
                                  "case %d client %zu: B[%zu][%zu] %s [FEDREF_SEED=%llu]", c, i, j, q,
                                  str(B[j * Pi + q]), seed);
            for (size_t k = 0; k < J * Pi; k++) mpfr_clear(B[k]);
            for (size_t k = 0; k < nb * Pi; k++) mpfr_clear(Zi[k]);
        }
        for (size_t k = 0; k < pb.d; k++) mpfr_clears(w[k], g[k], (mpfr_ptr)0);
        for (size_t k = 0; k < nb * P; k++) mpfr_clear(Z[k]);
        for (size_t k = 0; k < I * nb * J; k++) mpfr_clear(H[k]);
        for (size_t k = 0; k < L * J; k++) mpfr_clear(A[k]);
        mpfr_clears(f, ft, (mpfr_ptr)0);
    }
}
END_TEST

/* partial: one exact dot product, one rounding (an exact cancellation is +0). */
START_TEST(partial_rounds_once)
{
    mpfr_t h[2], w1[3], z[3];
    for (int k = 0; k < 3; k++) mpfr_inits2(53, w1[k], z[k], (mpfr_ptr)0);
    mpfr_inits2(53, h[0], h[1], (mpfr_ptr)0);
    mpfr_set_d(w1[0], 1, MPFR_RNDN);
    mpfr_set_d(w1[1], 0x1p-60, MPFR_RNDN);
    mpfr_set_d(w1[2], -1, MPFR_RNDN);
    for (int k = 0; k < 3; k++) mpfr_set_d(z[k], 1, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_net_partial(h, w1, z, 1, 1, 3), FR_OK);
    ck_assert(mpfr_cmp_d(h[0], 0x1p-60) == 0);                 /* not 0 */
    mpfr_set_d(w1[1], 0, MPFR_RNDN);
    ck_assert_int_eq(fr_ssca_net_partial(h, w1, z, 1, 1, 3), FR_OK);
    ck_assert(mpfr_zero_p(h[0]) && !mpfr_signbit(h[0]));
    mpfr_set_prec(h[0], 10);
    mpfr_set_d(w1[1], 0x1p-12, MPFR_RNDN);                     /* 2^-12 + 1 - 1 */
    mpfr_set_d(w1[2], 0x1p-22 * 3, MPFR_RNDN);                 /* 1 + 2^-12 + 3 2^-22 */
    ck_assert_int_eq(fr_ssca_net_partial(h, w1, z, 1, 1, 3), FR_OK);
    ck_assert(mpfr_cmp_d(h[0], 1) == 0);                        /* rounded once, down */
    double hb, hf, ww[3] = {1, 0x1p-60, -1}, zz[3] = {1, 1, 1};
    ck_assert_int_eq(ff_ssca_net_partial(&hf, ww, zz, 1, 1, 3), FR_OK);
    ck_assert_int_eq(ff_ssca_net_partial_bound(&hb, ww, zz, 1, 1, 3), FR_OK);
    ck_assert(fabs(hf - 0x1p-60) <= hb);
    for (int k = 0; k < 3; k++) mpfr_clears(w1[k], z[k], (mpfr_ptr)0);
    mpfr_clears(h[0], h[1], (mpfr_ptr)0);
}
END_TEST

/* ---- fast within its bounds ------------------------------------------------------ */

/* |x^ - r| (r: ref at 128 bits, correctly rounded) <= b + 2^-127 |r|. */
static void within(double x, mpfr_srcptr r, double b, const char *what, int c, size_t k)
{
    mpfr_t d;
    mpfr_init2(d, 256);
    mpfr_sub_d(d, r, x, MPFR_RNDN);                             /* exact at 256 bits */
    mpfr_abs(d, d, MPFR_RNDN);
    double e = mpfr_get_d(d, MPFR_RNDU), slack = fabs(mpfr_get_d(r, MPFR_RNDU)) * 0x1p-127;
    ck_assert_msg(isfinite(x) && isfinite(b) && e <= b + slack,
                  "%s case %d entry %zu: fast %.17g, ref %s, error %.3g > bound %.3g [FEDREF_SEED=%llu]",
                  what, c, k, x, str(r), e, b, seed);
    mpfr_clear(d);
}

START_TEST(fast_within_bound)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 304);
    prob_t pb;
    mpfr_t w[MAXD], g[MAXD], f, Z[MAXNB * MAXP];
    for (int k = 0; k < MAXD; k++) mpfr_inits2(128, w[k], g[k], (mpfr_ptr)0);
    for (int k = 0; k < MAXNB * MAXP; k++) mpfr_init2(Z[k], 53);
    mpfr_init2(f, 128);
    double ratio = 0;
    for (int c = 0; c < effort(400); c++) {
        /* scales: ordinary; |w| ~ 2^8 (|u| ~ 1e4, |o| ~ 1e6); tiny weights */
        int sc = c % 4 == 1 ? 6 : c % 4 == 2 ? -30 : 0;
        rnd_problem(&pb, sc);
        for (size_t k = 0; k < pb.d; k++) mpfr_set_d(w[k], pb.w[k], MPFR_RNDN);
        for (size_t k = 0; k < pb.nb * pb.P; k++) mpfr_set_d(Z[k], pb.Z[k], MPFR_RNDN);
        double ff, fg[MAXD], fb, gb[MAXD];
        ck_assert_int_eq(fr_ssca_net(f, g, w, pb.L, pb.J, pb.P, Z, pb.y, pb.nb), FR_OK);
        ck_assert_int_eq(ff_ssca_net(&ff, fg, pb.w, pb.L, pb.J, pb.P, pb.Z, pb.y, pb.nb), FR_OK);
        ck_assert_int_eq(ff_ssca_net_bound(&fb, gb, pb.w, pb.L, pb.J, pb.P, pb.Z, pb.y, pb.nb), FR_OK);
        within(ff, f, fb, "f", c, 0);
        for (size_t k = 0; k < pb.d; k++) {
            within(fg[k], g[k], gb[k], "g", c, k);
            if (fg[k] == 0)                             /* a zero of fast is +0 */
                ck_assert_msg(!signbit(fg[k]), "case %d: g_%zu is -0", c, k);
        }
        mpfr_t d;
        mpfr_init2(d, 256);
        mpfr_sub_d(d, f, ff, MPFR_RNDN);
        ratio = fmax(ratio, fabs(mpfr_get_d(d, MPFR_RNDU)) / fb);
        mpfr_clear(d);
    }
    ck_assert(ratio <= 1);
    for (int k = 0; k < MAXD; k++) mpfr_clears(w[k], g[k], (mpfr_ptr)0);
    for (int k = 0; k < MAXNB * MAXP; k++) mpfr_clear(Z[k]);
    mpfr_clear(f);
}
END_TEST

/* The feature-based functions of fast within their bounds (H exact from
 * random dyadic blocks, nclients in [1, 3]). */
START_TEST(fast_feature_within_bound)
{
    seed = tu_rng_start(&rng, SUITE_SEED, 305);
    for (int c = 0; c < effort(300); c++) {
        const size_t I = 1 + below(3), L = 2 + below(3), J = 1 + below(4), nb = 1 + below(5), Pi = 1 + below(3);
        const int sc = c % 3 == 1 ? 12 : 0;
        double H[3 * 5 * 4], w0[4 * 4], Zi[5 * 3], w1[4 * 3];
        size_t y[5];
        for (size_t k = 0; k < I * nb * J; k++) H[k] = rnd_dyadic(20, -4 + sc, 2 + sc);
        for (size_t k = 0; k < L * J; k++) w0[k] = rnd_dyadic(20, -4, 2);
        for (size_t k = 0; k < nb * Pi; k++) Zi[k] = rnd_dyadic(20, -4, 3);
        for (size_t k = 0; k < J * Pi; k++) w1[k] = rnd_dyadic(20, -4 + sc, 3 + sc);
        for (size_t n = 0; n < nb; n++) y[n] = below(L);
        mpfr_t rH[60], rw0[16], rZ[15], rw1[12], rf, rA[16], rB[12], rh[20];
        for (size_t k = 0; k < I * nb * J; k++) { mpfr_init2(rH[k], 53); mpfr_set_d(rH[k], H[k], MPFR_RNDN); }
        for (size_t k = 0; k < L * J; k++) { mpfr_inits2(128, rw0[k], rA[k], (mpfr_ptr)0); mpfr_set_d(rw0[k], w0[k], MPFR_RNDN); }
        for (size_t k = 0; k < nb * Pi; k++) { mpfr_init2(rZ[k], 53); mpfr_set_d(rZ[k], Zi[k], MPFR_RNDN); }
        for (size_t k = 0; k < J * Pi; k++) { mpfr_inits2(128, rw1[k], rB[k], (mpfr_ptr)0); mpfr_set_d(rw1[k], w1[k], MPFR_RNDN); }
        for (size_t k = 0; k < nb * J; k++) mpfr_init2(rh[k], 128);
        mpfr_init2(rf, 128);
        double f, A[16], B[12], h[20], fb, Ab[16], Bb[12], hb[20];
        ck_assert_int_eq(fr_ssca_net_top(rf, rA, rH, I, rw0, y, nb, L, J), FR_OK);
        ck_assert_int_eq(ff_ssca_net_top(&f, A, H, I, w0, y, nb, L, J), FR_OK);
        ck_assert_int_eq(ff_ssca_net_top_bound(&fb, Ab, H, I, w0, y, nb, L, J), FR_OK);
        within(f, rf, fb, "top f", c, 0);
        for (size_t k = 0; k < L * J; k++) within(A[k], rA[k], Ab[k], "top A", c, k);
        ck_assert_int_eq(fr_ssca_net_bottom(rB, rH, I, rw0, y, rZ, nb, L, J, Pi), FR_OK);
        ck_assert_int_eq(ff_ssca_net_bottom(B, H, I, w0, y, Zi, nb, L, J, Pi), FR_OK);
        ck_assert_int_eq(ff_ssca_net_bottom_bound(Bb, H, I, w0, y, Zi, nb, L, J, Pi), FR_OK);
        for (size_t k = 0; k < J * Pi; k++) within(B[k], rB[k], Bb[k], "bottom B", c, k);
        ck_assert_int_eq(fr_ssca_net_partial(rh, rw1, rZ, nb, J, Pi), FR_OK);
        ck_assert_int_eq(ff_ssca_net_partial(h, w1, Zi, nb, J, Pi), FR_OK);
        ck_assert_int_eq(ff_ssca_net_partial_bound(hb, w1, Zi, nb, J, Pi), FR_OK);
        for (size_t k = 0; k < nb * J; k++) within(h[k], rh[k], hb[k], "partial h", c, k);
        for (size_t k = 0; k < I * nb * J; k++) mpfr_clear(rH[k]);
        for (size_t k = 0; k < L * J; k++) mpfr_clears(rw0[k], rA[k], (mpfr_ptr)0);
        for (size_t k = 0; k < nb * Pi; k++) mpfr_clear(rZ[k]);
        for (size_t k = 0; k < J * Pi; k++) mpfr_clears(rw1[k], rB[k], (mpfr_ptr)0);
        for (size_t k = 0; k < nb * J; k++) mpfr_clear(rh[k]);
        mpfr_clear(rf);
    }
}
END_TEST

/* Stability: |u| from 1e4 up to 1e300 with finite results: no NaN, no
 * infinity; the swish limits hold (S(u) -> u, S'(u) -> 1 for u -> +inf,
 * S, S' -> 0 for u -> -inf), and up to |u| = 1e4 fast is within its
 * bound of ref. */
START_TEST(fast_extreme_u_no_nan)
{
    /* L = 2, J = 1, P = 1, nb = 2: u_n = w1 z_n; o = omega_0 S(u) */
    static const double us[] = {1e4, 1e6, 1e30, 1e150, 1e300};
    for (size_t k = 0; k < sizeof us / sizeof us[0]; k++) {
        double a = sqrt(us[k]);
        double w[3] = {1 / a, -1 / a, a}, Z[2] = {a, -a}, f, g[3];   /* u = +-us[k] */
        size_t y[2] = {0, 1};
        ck_assert_int_eq(ff_ssca_net(&f, g, w, 2, 1, 1, Z, y, 2), FR_OK);
        ck_assert_msg(isfinite(f) && isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]),
                      "|u| = %g: f %g g %g %g %g", us[k], f, g[0], g[1], g[2]);
        /* sample 0: u = us, o = (S/a, -S/a) ~ (a, -a); sample 1: u = -us, S ~ 0, loss ln 2 */
        ck_assert(f > 0.69 && f < 0.70);
        for (int i = 0; i < 3; i++)                     /* Q_0 ~ 1 at n = 0, S(-|u|) ~ 0 */
            ck_assert_msg(fabs(g[i]) < 1e-10, "|u| = %g: g_%d = %g", us[k], i, g[i]);
        double fb, gb[3];
        int sb = ff_ssca_net_bound(&fb, gb, w, 2, 1, 1, Z, y, 2);
        if (us[k] <= 1e4) {
            ck_assert_int_eq(sb, FR_OK);
            mpfr_t rw[3], rZ[2], rf, rg[3];
            for (int i = 0; i < 3; i++) { mpfr_inits2(128, rw[i], rg[i], (mpfr_ptr)0); mpfr_set_d(rw[i], w[i], MPFR_RNDN); }
            for (int i = 0; i < 2; i++) { mpfr_init2(rZ[i], 53); mpfr_set_d(rZ[i], Z[i], MPFR_RNDN); }
            mpfr_init2(rf, 128);
            ck_assert_int_eq(fr_ssca_net(rf, rg, rw, 2, 1, 1, rZ, y, 2), FR_OK);
            within(f, rf, fb, "extreme f", (int)k, 0);
            for (int i = 0; i < 3; i++) within(g[i], rg[i], gb[i], "extreme g", (int)k, (size_t)i);
            for (int i = 0; i < 3; i++) mpfr_clears(rw[i], rg[i], (mpfr_ptr)0);
            for (int i = 0; i < 2; i++) mpfr_clear(rZ[i]);
            mpfr_clear(rf);
        } else {
            ck_assert(sb == FR_OK || sb == FR_EDOM);           /* outside the proof: said so */
        }
    }
    /* u -> -inf with big omega_0: S'(u) -> 0 (not 0 * inf = NaN), delta = 0 */
    double w[3] = {1e300, -1e300, 1e150}, Z[1] = {-1e150}, f, g[3];
    size_t y[1] = {1};
    ck_assert_int_eq(ff_ssca_net(&f, g, w, 2, 1, 1, Z, y, 1), FR_OK);
    ck_assert(isfinite(f) && fabs(f - log(2.0)) < 1e-15);
    ck_assert(g[0] == 0 && g[1] == 0 && g[2] == 0 && !signbit(g[2]));
}
END_TEST

/* The bounds refuse sizes beyond their proof (2^22) with FR_ESIZE, after
 * the function's own checks. */
START_TEST(bound_size_range)
{
    const size_t nb = ((size_t)1 << 22) + 1;
    double *Z = calloc(nb, sizeof *Z), w[3] = {1, -1, 0.5}, fb, gb[3];
    size_t *y = calloc(nb, sizeof *y);
    ck_assert(Z != NULL && y != NULL);
    ck_assert_int_eq(ff_ssca_net_bound(&fb, gb, w, 2, 1, 1, Z, y, nb), FR_ESIZE);
    ck_assert_int_eq(ff_ssca_net_bound(&fb, gb, w, 2, 1, 1, Z, y, nb - 1), FR_OK);
    free(Z);
    free(y);
}
END_TEST

Suite *suite_ssca_net(void)
{
    Suite *s = suite_create("ssca_net");
    TCase *tc = tcase_create("net");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, net_vs_naive);
    tcase_add_test(tc, gradient_is_derivative_of_f);
    tcase_add_test(tc, exact_zeros_are_plus_zero);
    tcase_add_test(tc, outputs_alone_and_aliasing);
    tcase_add_test(tc, feature_blocks_equal_sample_gradient);
    tcase_add_test(tc, partial_rounds_once);
    tcase_add_test(tc, fast_within_bound);
    tcase_add_test(tc, fast_feature_within_bound);
    tcase_add_test(tc, fast_extreme_u_no_nan);
    tcase_add_test(tc, bound_size_range);
    suite_add_tcase(s, tc);
    return s;
}
