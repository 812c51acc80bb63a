/* SPDX-License-Identifier: Apache-2.0 */
/* test_stepsize.c -- Check unit tests of the stepsize validator of 000 (4)
 * and (6): fr_ssca_stepsize (MPFR), ff_ssca_stepsize (binary64) and
 * fr_ssca_cond_reason.
 *
 * Oracles, independent of both libraries:
 *  - a table of verdicts written by hand from the conditions, one row per
 *    edge of every bit (alpha2 = 1/2 and its neighbours, alpha = 1 and
 *    nextafter(1, 2), alpha2 = alpha1 and its neighbours, a = 1 and its
 *    neighbours, zeros of either sign, constants, negative and extreme
 *    parameters);
 *  - an exact rational decision (GMP mpq) written here from the limits
 *    themselves (x^(t) = a t^e; sup, limit and p-series of a power), for
 *    the seeded sweep and for ref at precisions far beyond binary64;
 *  - the committed file vectors/ssca_stepsize.json, whose every valid case
 *    must agree with the rational decision, its booleans with its bits.
 * Random cases are replayable: FEDREF_SEED=<n> (printed on failure);
 * FEDREF_TEST_EFFORT multiplies their number. */
#include <check.h>
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"
#include "../../vectors/vectors.h"

Suite *suite_ssca_stepsize(void);

enum { POS = FR_SSCA_POS, LE1 = FR_SSCA_LE1, LIM0 = FR_SSCA_LIM0, SUM = FR_SSCA_SUM,
       SQ = FR_SSCA_SQSUM, RAT = FR_SSCA_RATIO };

static uint64_t seed(void) { return tu_seed(20261122u); }

static unsigned long effort(unsigned long n) { return (unsigned long)tu_effort((int)n); }

/* ---- the rational oracle -------------------------------------------------- */

/* The failing bits of x^(t) = a t^e, e = -alpha, from the limits:
 *   POS  inf_t x^(t) > 0 with x^(t) of the sign of a;
 *   LE1  sup_t x^(t) <= 1: x^(1) = a is the sup when e <= 0, x -> +inf when
 *        e > 0 and a > 0, x <= 0 when a <= 0;
 *   LIM0 a t^e -> 0 iff a = 0 or e < 0;
 *   SUM  sum a t^e = +inf iff a > 0 and e >= -1;
 *   SQSUM sum a^2 t^(2e) < inf iff a = 0 or 2e < -1. */
static unsigned oracle_seq(const mpq_t a, const mpq_t alpha)
{
    mpq_t e, two_e, m1, one;
    mpq_inits(e, two_e, m1, one, NULL);
    mpq_neg(e, alpha);
    mpq_add(two_e, e, e);
    mpq_set_si(m1, -1, 1);
    mpq_set_ui(one, 1, 1);
    unsigned f = 0;
    int sa = mpq_sgn(a), se = mpq_sgn(e);
    if (sa <= 0) f |= POS;
    if (sa > 0 && (se > 0 || mpq_cmp(a, one) > 0)) f |= LE1;
    if (!(sa == 0 || se < 0)) f |= LIM0;
    if (!(sa > 0 && mpq_cmp(e, m1) >= 0)) f |= SUM;
    if (!(sa == 0 || mpq_cmp(two_e, m1) < 0)) f |= SQ;
    mpq_clears(e, two_e, m1, one, NULL);
    return f;
}

/* gamma/rho = (a2/a1) t^(alpha1 - alpha2) -> 0 */
static void oracle(unsigned *r, unsigned *g, const mpq_t a1, const mpq_t al1, const mpq_t a2,
                   const mpq_t al2)
{
    mpq_t d;
    mpq_init(d);
    mpq_sub(d, al1, al2);
    *r = oracle_seq(a1, al1) & (POS | LE1 | LIM0 | SUM);
    *g = oracle_seq(a2, al2);
    if (!(mpq_sgn(a1) != 0 && (mpq_sgn(a2) == 0 || mpq_sgn(d) < 0))) *g |= RAT;
    mpq_clear(d);
}

static void oracle_d(unsigned *r, unsigned *g, const double p[4])
{
    mpq_t q[4];
    for (int k = 0; k < 4; k++) {
        mpq_init(q[k]);
        mpq_set_d(q[k], p[k]);                              /* exact */
    }
    oracle(r, g, q[0], q[1], q[2], q[3]);
    for (int k = 0; k < 4; k++) mpq_clear(q[k]);
}

/* ref at precision prec on binary64 parameters (exact). */
static int ref_d(unsigned *r, unsigned *g, const double p[4], mpfr_prec_t prec)
{
    mpfr_t x[4];
    for (int k = 0; k < 4; k++) {
        mpfr_init2(x[k], prec);
        mpfr_set_d(x[k], p[k], MPFR_RNDN);
    }
    int st = fr_ssca_stepsize(r, g, x[0], x[1], x[2], x[3]);
    for (int k = 0; k < 4; k++) mpfr_clear(x[k]);
    return st;
}

/* ---- the edges of every bit, by hand -------------------------------------- */

typedef struct {
    double p[4];                 /* a1, alpha1, a2, alpha2 */
    unsigned r, g;               /* the failing bits */
    const char *what;
} edge;

#define UP(x) nextafter((x), INFINITY)
#define DN(x) nextafter((x), -INFINITY)
#define MAXD 0x1.fffffffffffffp1023

START_TEST(edges_by_hand)
{
    const edge E[] = {
        {{1, 0.5, 1, 0.75}, 0, 0, "every condition holds"},
        {{1, 0.25, 1, 0.5}, 0, SQ, "alpha2 = 1/2: sum gamma^2 = harmonic"},
        {{1, 0.25, 1, UP(0.5)}, 0, 0, "alpha2 = 1/2+"},
        {{1, 0.25, 1, DN(0.5)}, 0, SQ, "alpha2 = 1/2-"},
        {{1, 1, 1, 2}, 0, SUM, "alpha1 = 1: harmonic rho diverges; alpha2 = 2: sum gamma < inf"},
        {{1, UP(1.0), 1, 2}, SUM, SUM, "alpha1 = 1+"},
        {{1, DN(1.0), 1, 1}, 0, 0, "alpha1 = 1-, alpha2 = 1"},
        {{1, 0.5, 1, UP(1.0)}, 0, SUM, "alpha2 = 1+"},
        {{0.5, 0.75, 0.5, 0.75}, 0, RAT, "alpha2 = alpha1"},
        {{0.5, 0.75, 0.5, UP(0.75)}, 0, 0, "alpha2 = alpha1+"},
        {{0.5, 0.75, 0.5, DN(0.75)}, 0, RAT, "alpha2 = alpha1-"},
        {{0.5, 0.75, 2, 0.75}, 0, LE1 | RAT, "a2 > a1, alpha2 = alpha1"},
        {{1, 0.5, 1, 0.75}, 0, 0, "a = 1"},
        {{UP(1.0), 0.5, 1, 0.75}, LE1, 0, "a1 = 1+"},
        {{1, 0.5, UP(1.0), 0.75}, 0, LE1, "a2 = 1+"},
        {{DN(1.0), 0.5, DN(1.0), 0.75}, 0, 0, "a = 1-"},
        {{1, 0.5, 0, 0.75}, 0, POS | SUM, "a2 = 0"},
        {{1, 0.5, -0.0, 0.75}, 0, POS | SUM, "a2 = -0"},
        {{0, 0.5, 1, 0.75}, POS | SUM, RAT, "a1 = 0"},
        {{-0.0, 0.5, 1, 0.75}, POS | SUM, RAT, "a1 = -0"},
        {{0, 0.5, 0, 0.75}, POS | SUM, POS | SUM | RAT, "a1 = a2 = 0"},
        {{0, -3, 0, -3}, POS | SUM, POS | SUM | RAT, "zero sequences, negative exponents"},
        {{1, 0.5, 0, -2}, 0, POS | SUM, "a2 = 0 with alpha2 < alpha1"},
        {{1, -0.0, 1, 0.75}, LIM0, 0, "alpha1 = -0: constant 1"},
        {{1, 0, 1, 0}, LIM0, LIM0 | SQ | RAT, "both constant 1"},
        {{0.5, 0, 0.5, -0.0}, LIM0, LIM0 | SQ | RAT, "both constant 0.5, alpha2 = -0 = alpha1"},
        {{2, 0, 2, 0}, LE1 | LIM0, LE1 | LIM0 | SQ | RAT, "both constant 2"},
        {{0.5, -0.5, 0.5, 0.75}, LE1 | LIM0, 0, "alpha1 < 0: rho grows"},
        {{1, 0.5, 0.5, -1}, 0, LE1 | LIM0 | SQ | RAT, "alpha2 < 0: gamma grows"},
        {{-0.5, 0.5, -0.25, 0.75}, POS | SUM, POS | SUM, "negative coefficients"},
        {{-2, -1, 1, 0.75}, POS | LIM0 | SUM, 0, "rho = -2t"},
        {{-2, 2, -1, 0.25}, POS | SUM, POS | SUM | SQ | RAT, "negative, decaying; alpha2 < alpha1"},
        {{0x1p-1074, 0x1p-1074, 0x1p-1074, 0.75}, 0, 0, "subnormal a and alpha"},
        {{0x1p-1074, -0x1p-1074, 1, 0.75}, LE1 | LIM0, 0, "alpha1 = -2^-1074: rho grows (slowly)"},
        {{1, 0.5, 1, MAXD}, 0, SUM, "alpha2 = DBL_MAX"},
        {{MAXD, 0.5, 1, 0.75}, LE1, 0, "a1 = DBL_MAX"},
        {{-MAXD, -MAXD, -MAXD, -MAXD}, POS | LIM0 | SUM, POS | LIM0 | SUM | SQ | RAT, "all -DBL_MAX"},
        {{0.9, 0.1, 0.5, 0.1}, 0, SQ | RAT, "000 Sec. VI sample-based B = 10"},
        {{0.2, 0.1, 0.3, 0.1}, 0, SQ | RAT, "000 Sec. VI sample-based B = 6000"},
        {{0.9, 0.3, 0.3, 0.3}, 0, SQ | RAT, "000 Sec. VI feature-based B = 10"},
        {{0.4, 0.4, 0.4, 0.4 + 0.05}, 0, SQ, "001 Sec. VI B = 1"},
        {{0.6, 0.3, 0.9, 0.3 + 0.05}, 0, SQ, "001 Sec. VI B = 10"},
    };
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++) {
        unsigned r = 99, g = 99, fr, fg, qr, qg;
        ck_assert_int_eq(ff_ssca_stepsize(&r, &g, E[i].p[0], E[i].p[1], E[i].p[2], E[i].p[3]), FR_OK);
        ck_assert_msg(r == E[i].r && g == E[i].g, "fast, %s: rho %u gamma %u, want %u %u", E[i].what, r, g,
                      E[i].r, E[i].g);
        for (mpfr_prec_t p = 53; p <= 1024; p *= 4) {       /* the precision of the inputs is irrelevant */
            ck_assert_int_eq(ref_d(&fr, &fg, E[i].p, p), FR_OK);
            ck_assert_msg(fr == E[i].r && fg == E[i].g, "ref at %ld bits, %s: rho %u gamma %u, want %u %u",
                          (long)p, E[i].what, fr, fg, E[i].r, E[i].g);
        }
        oracle_d(&qr, &qg, E[i].p);
        ck_assert_msg(qr == E[i].r && qg == E[i].g, "oracle, %s: %u %u", E[i].what, qr, qg);
    }
}
END_TEST

/* ref is exact at precisions binary64 cannot represent: alpha2 = 1/2 +- 2^-k,
 * alpha1 = alpha2 -+ 2^-j, a = 1 +- 2^-k, each parameter at its own
 * precision. */
START_TEST(ref_beyond_binary64)
{
    const long ks[] = {60, 200, 999, 4000};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        long k = ks[i];
        mpfr_t a1, al1, a2, al2, t;
        mpfr_inits2((mpfr_prec_t)k + 8, a1, al1, a2, al2, t, (mpfr_ptr)0);
        unsigned r, g;
        for (int s = -1; s <= 1; s += 2) {
            /* alpha2 = 1/2 + s 2^-k */
            mpfr_set_ui(a1, 1, MPFR_RNDN);
            mpfr_set_ui_2exp(al1, 1, -2, MPFR_RNDN);
            mpfr_set_ui(a2, 1, MPFR_RNDN);
            mpfr_set_si_2exp(t, s, -k, MPFR_RNDN);
            mpfr_set_ui_2exp(al2, 1, -1, MPFR_RNDN);
            ck_assert_int_eq(mpfr_add(al2, al2, t, MPFR_RNDN), 0);       /* exact */
            ck_assert_int_eq(fr_ssca_stepsize(&r, &g, a1, al1, a2, al2), FR_OK);
            ck_assert_msg(r == 0 && g == (s < 0 ? (unsigned)SQ : 0u), "alpha2 = 1/2 %+d 2^-%ld: gamma %u", s, k, g);
            /* alpha1 = alpha2 - s 2^-k (alpha2 = 3/4): RATIO iff alpha2 <= alpha1 */
            mpfr_set_ui_2exp(al2, 3, -2, MPFR_RNDN);
            ck_assert_int_eq(mpfr_sub(al1, al2, t, MPFR_RNDN), 0);
            ck_assert_int_eq(fr_ssca_stepsize(&r, &g, a1, al1, a2, al2), FR_OK);
            ck_assert_msg(g == (s < 0 ? (unsigned)RAT : 0u), "alpha1 = alpha2 %+d 2^-%ld: gamma %u", -s, k, g);
            /* a1 = 1 + s 2^-k: LE1 iff a1 > 1; alpha1 = 1 + s 2^-k: SUM iff > 1 */
            mpfr_set_ui(a1, 1, MPFR_RNDN);
            ck_assert_int_eq(mpfr_add(a1, a1, t, MPFR_RNDN), 0);
            mpfr_set_ui(al1, 1, MPFR_RNDN);
            ck_assert_int_eq(mpfr_add(al1, al1, t, MPFR_RNDN), 0);
            mpfr_set_ui(al2, 2, MPFR_RNDN);
            ck_assert_int_eq(fr_ssca_stepsize(&r, &g, a1, al1, a2, al2), FR_OK);
            ck_assert_msg(r == (s > 0 ? (unsigned)(LE1 | SUM) : 0u), "a1 = alpha1 = 1 %+d 2^-%ld: rho %u", s, k, r);
        }
        /* mixed precisions: alpha1 at 2 bits, alpha2 at k + 8 bits */
        mpfr_t lo;
        mpfr_init2(lo, 2);
        mpfr_set_ui_2exp(lo, 3, -2, MPFR_RNDN);                           /* 0.75 */
        mpfr_set_ui_2exp(al2, 3, -2, MPFR_RNDN);
        mpfr_set_ui_2exp(t, 1, -k, MPFR_RNDN);
        mpfr_add(al2, al2, t, MPFR_RNDN);
        mpfr_set_ui(a1, 1, MPFR_RNDN);
        ck_assert_int_eq(fr_ssca_stepsize(&r, &g, a1, lo, a2, al2), FR_OK);
        ck_assert_uint_eq(g, 0);
        ck_assert_int_eq(fr_ssca_stepsize(&r, &g, a1, al2, a2, lo), FR_OK);
        ck_assert_uint_eq(g, RAT);
        mpfr_clear(lo);
        mpfr_clears(a1, al1, a2, al2, t, (mpfr_ptr)0);
    }
}
END_TEST

/* A parameter from the values where a condition changes, their binary64
 * neighbours, -0, alpha1 itself, or a random binary64 of any exponent. */
static double draw(frng_t *g, double alpha1)
{
    static const double pool[] = {0.0, -0.0, 0.5, 1, -1, 2, 0.25, 0x1p-1074, -0x1p-1074, MAXD, -MAXD};
    uint64_t r, k;
    frng_below(g, 5, &r);
    if (r == 0) {
        frng_below(g, sizeof pool / sizeof pool[0], &k);
        return pool[k];
    }
    if (r == 1) {
        frng_below(g, 6, &k);
        double c = k < 2 ? 0.5 : k < 4 ? 1 : alpha1;
        double x = k % 2 ? UP(c) : DN(c);
        return isfinite(x) ? x : c;                 /* no neighbour beyond DBL_MAX */
    }
    if (r == 2) return alpha1;
    double x;
    do {                                            /* any finite binary64, uniform in the bits */
        uint64_t bits = frng_next64(g);
        memcpy(&x, &bits, sizeof x);
    } while (!isfinite(x));
    if (r == 3) {                                   /* |x| < 16: the usual range */
        int ex;
        x = ldexp(frexp(x, &ex), (int)(frng_next64(g) % 8) - 4);
    }
    return x;
}

START_TEST(ref_equals_fast_and_oracle)
{
    frng_t g;
    uint64_t s = seed();
    frng_init(&g, s, 77);
    unsigned long n = effort(20000), holds = 0;
    unsigned seen_r = 0, seen_g = 0;
    for (unsigned long c = 0; c < n; c++) {
        double p[4];
        p[1] = draw(&g, 0.75);
        p[0] = draw(&g, p[1]);
        p[3] = draw(&g, p[1]);
        p[2] = draw(&g, p[3]);
        unsigned fr_, fg, rr, rg, qr, qg;
        ck_assert_int_eq(ff_ssca_stepsize(&fr_, &fg, p[0], p[1], p[2], p[3]), FR_OK);
        ck_assert_int_eq(ref_d(&rr, &rg, p, 53 + (mpfr_prec_t)(c % 200)), FR_OK);
        oracle_d(&qr, &qg, p);
        ck_assert_msg(fr_ == rr && fg == rg && rr == qr && rg == qg,
                      "a1 %a alpha1 %a a2 %a alpha2 %a: fast %u %u, ref %u %u, oracle %u %u "
                      "[FEDREF_SEED=%llu]", p[0], p[1], p[2], p[3], fr_, fg, rr, rg, qr, qg,
                      (unsigned long long)s);
        ck_assert_uint_eq(fr_ & ~(unsigned)FR_SSCA_RHO_CONDS, 0);
        ck_assert_uint_eq(fg & ~(unsigned)FR_SSCA_GAMMA_CONDS, 0);
        seen_r |= fr_;
        seen_g |= fg;
        holds += fr_ == 0 && fg == 0;
    }
    /* not vacuous: every bit failed somewhere, and some schedules pass */
    ck_assert_uint_eq(seen_r, FR_SSCA_RHO_CONDS);
    ck_assert_uint_eq(seen_g, FR_SSCA_GAMMA_CONDS);
    ck_assert_uint_gt(holds, 0);
}
END_TEST

/* Every condition bit of each sequence has a sentence naming its
 * parameters; nothing else has one. */
START_TEST(reasons_cover_every_bit)
{
    const char *seen[12] = {0};
    size_t ns = 0;
    for (int seq = 0; seq <= 1; seq++) {
        unsigned conds = seq ? FR_SSCA_GAMMA_CONDS : FR_SSCA_RHO_CONDS;
        const char *a = seq ? "a2" : "a1", *alpha = seq ? "alpha2" : "alpha1";
        const char *name = seq ? "gamma" : "rho";
        for (unsigned k = 0; k < 32; k++) {
            unsigned bit = 1u << k;
            const char *s = fr_ssca_cond_reason(seq, bit);
            if (!(conds & bit)) {
                ck_assert_msg(s == NULL, "seq %d bit %u has a reason: %s", seq, bit, s);
                continue;
            }
            ck_assert_msg(s != NULL && s[0] != '\0', "seq %d bit %u has no reason", seq, bit);
            ck_assert_msg(strstr(s, name) != NULL, "%s does not name %s", s, name);
            ck_assert_msg(strstr(s, bit == FR_SSCA_RATIO ? "a1" : a) != NULL, "%s does not name %s", s, a);
            if (bit != FR_SSCA_POS)
                ck_assert_msg(strstr(s, alpha) != NULL, "%s does not name %s", s, alpha);
            for (size_t q = 0; q < ns; q++) ck_assert_str_ne(seen[q], s);
            seen[ns++] = s;
        }
    }
    ck_assert_uint_eq(ns, 10);                         /* 4 for rho, 6 for gamma */
    ck_assert_str_eq(fr_ssca_cond_reason(1, FR_SSCA_SQSUM), "sum gamma^2 diverges: alpha2 <= 1/2 and a2 != 0");
    ck_assert_ptr_null(fr_ssca_cond_reason(1, 0));
    ck_assert_ptr_null(fr_ssca_cond_reason(1, FR_SSCA_POS | FR_SSCA_SUM));    /* one bit only */
    ck_assert_ptr_null(fr_ssca_cond_reason(0, FR_SSCA_RHO_CONDS));
    ck_assert_ptr_null(fr_ssca_cond_reason(2, FR_SSCA_POS));
    ck_assert_ptr_null(fr_ssca_cond_reason(-1, FR_SSCA_POS));
}
END_TEST

/* The committed vectors/ssca_stepsize.json agrees with the rational oracle
 * and with itself (rho_conditions == (rho_fail == 0)); the paper cases are
 * there with the verdicts of the proof check. */
START_TEST(committed_file_agrees)
{
    const char *d = getenv("FEDREF_VECTORS_DIR");
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/ssca_stepsize.json", d && *d ? d : "vectors");
    vfile f;
    ck_assert_msg(vfile_read(&f, path, err, sizeof err) == 0, "%s", err);
    size_t valid = 0, invalid = 0, paper = 0, negzero = 0;
    for (size_t i = 0; i < f.ncases; i++) {
        const vcase *c = &f.cases[i];
        double p[4];
        for (int k = 0; k < 4; k++) {
            ck_assert_int_eq(num_parse_double(&p[k], c->param[k].s[0]), 0);
            if (strcmp(c->param[k].s[0], "-0") == 0) {      /* the signed zeros survive */
                ck_assert(p[k] == 0 && signbit(p[k]));
                negzero++;
            }
        }
        if (c->invalid) {
            invalid++;
            ck_assert(!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]) || !isfinite(p[3]));
            continue;
        }
        valid++;
        unsigned qr, qg;
        oracle_d(&qr, &qg, p);
        ck_assert(c->expect[0].boolean && c->expect[1].boolean);
        int rc = vt_bool_parse(c->expect[0].s[0]), gc = vt_bool_parse(c->expect[1].s[0]);
        double rf, gf;
        ck_assert_int_eq(num_parse_double(&rf, c->expect[2].s[0]), 0);
        ck_assert_int_eq(num_parse_double(&gf, c->expect[3].s[0]), 0);
        ck_assert_msg(rf == qr && gf == qg && rc == (qr == 0) && gc == (qg == 0),
                      "id %ld: file %s %s %s %s, oracle %u %u", c->id, c->expect[0].s[0], c->expect[1].s[0],
                      c->expect[2].s[0], c->expect[3].s[0], qr, qg);
        ck_assert_str_eq(c->tol_rel, "0");
        ck_assert_str_eq(c->tol_abs, "0");
        for (size_t q = 0; q < c->nflags; q++)
            if (strcmp(c->flags[q], "paper-schedule") == 0) {
                paper++;
                ck_assert_msg(qr == 0 && qg != 0, "id %ld: a paper schedule satisfies (6)", c->id);
            }
    }
    ck_assert_uint_eq(paper, 9);
    ck_assert_uint_eq(negzero, 4);
    ck_assert_uint_ge(valid, 40);
    ck_assert_uint_ge(invalid, 8);
    vfile_free(&f);
}
END_TEST

Suite *suite_ssca_stepsize(void)
{
    Suite *s = suite_create("ssca_stepsize");
    TCase *tc = tcase_create("validator");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, edges_by_hand);
    tcase_add_test(tc, ref_beyond_binary64);
    tcase_add_test(tc, ref_equals_fast_and_oracle);
    tcase_add_test(tc, reasons_cover_every_bit);
    tcase_add_test(tc, committed_file_agrees);
    suite_add_tcase(s, tc);
    return s;
}
