/* SPDX-License-Identifier: Apache-2.0 */
/* check_stepsize_papers.c -- the stepsize schedules of the experiments of
 * 000 Sec. VI and 001 Sec. VI against the conditions that the convergence
 * theorems assume: 000 (4) on rho and (6) on gamma (Theorems 1-4); 001 (3)
 * and (5).
 *
 * pc_ssca_stepsize_papers (erratum E-000-VI):
 *  (a) the nine schedules of the experiments, rho^(t) = a1 t^-alpha1,
 *      gamma^(t) = a2 t^-alpha2:
 *        000 sample-based B = 10, 100, 6000: (a1, a2, alpha) = (0.9, 0.5,
 *        0.1), (0.3, 0.3, 0.1), (0.2, 0.3, 0.1); feature-based B = 10, 100,
 *        1000: (0.9, 0.3, 0.3), (0.9, 0.5, 0.1), (0.3, 0.3, 0.1); one alpha
 *        for both sequences;
 *        001 B = 1, 10, 100: a1 = 0.4, 0.6, 0.9, a2 = 0.4, 0.9, 0.9,
 *        alpha1 = 0.4, 0.3, 0.3, alpha2 = alpha1 + 0.05,
 *      each decided by fr_ssca_stepsize (the binary64 values of the printed
 *      decimals, at ctx->prec bits) and by this file's own exact decision
 *      (below), for the binary64 reading AND for the exact decimals (0.1 =
 *      1/10, alpha + 0.05 = alpha + 1/20): all readings must agree.  The
 *      printed claim fails as follows: every 000 schedule satisfies (4) but
 *      violates (6) twice -- alpha2 = alpha1 makes gamma/rho = a2/a1 a
 *      non-zero constant (RATIO), and alpha2 <= 1/2 makes sum gamma^2
 *      diverge (SQSUM); every 001 schedule satisfies (3) and violates (5)
 *      once -- alpha2 = alpha1 + 0.05 <= 0.45 < 1/2 (SQSUM), while RATIO
 *      holds.  The check returns 0 only when exactly these bits are found.
 *  (b) ctx->cases random schedules at ctx->prec bits (>= 200), most of them
 *      at or a few ulps (of ctx->prec, far below binary64's) from an edge
 *      (0, 1/2, 1, alpha2 = alpha1), -0 included: fr_ssca_stepsize must
 *      equal the exact decision on every one.
 *  (c) 001's wording: its (5) prints "gamma^(t) = 0" where 000 (6) has
 *      0 < gamma^(t) <= 1.  Read literally, (5) cannot hold: gamma = 0
 *      means a2 = 0, and then sum gamma = 0 != inf (SUM fails for every
 *      a2 = 0 schedule tried).  001's (3) drops rho^(t) <= 1 of 000 (4):
 *      the witness a1 = 2, alpha1 = 1/2 satisfies (3) and not (4) (LE1).
 *
 * The exact decision of this file works on GMP rationals (the binary64 or
 * mpfr inputs converted exactly), through the asymptotic exponent e =
 * -alpha of x^(t) = a t^e rather than the comparison rules of
 * fedspec/ssca.h: POS sgn a > 0; LE1 sup_t a t^e <= 1 (a <= 0, or e <= 0
 * and a = x^(1) <= 1); LIM0 a = 0 or e < 0; SUM a > 0 and e >= -1
 * (p-series); SQSUM a = 0 or 2e < -1 (p-series of a^2 t^(2e)); RATIO
 * a1 != 0 and (a2 = 0 or e2 - e1 < 0) (gamma/rho = (a2/a1) t^(e2 - e1)).
 * 2e and e2 - e1 are formed exactly.  Nothing is summed or iterated: each
 * condition is a statement about all t, decided from the four numbers. */
#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_STEPSIZE UINT64_C(0x70632d73746570) /* "pc-step" */

/* The failing bits of x^(t) = a t^-alpha (POS, LE1, LIM0, SUM, SQSUM). */
static unsigned q_seq(const mpq_t a, const mpq_t alpha)
{
    mpq_t e, e2, one, mone;
    mpq_inits(e, e2, one, mone, NULL);
    mpq_neg(e, alpha);                         /* x^(t) = a t^e */
    mpq_add(e2, e, e);                         /* the exponent of x^2 */
    mpq_set_ui(one, 1, 1);
    mpq_set_si(mone, -1, 1);
    int s = mpq_sgn(a);
    unsigned f = 0;
    if (s <= 0) f |= FR_SSCA_POS;
    if (s > 0 && (mpq_sgn(e) > 0 || mpq_cmp(a, one) > 0)) f |= FR_SSCA_LE1;
    if (s != 0 && mpq_sgn(e) >= 0) f |= FR_SSCA_LIM0;
    if (!(s > 0 && mpq_cmp(e, mone) >= 0)) f |= FR_SSCA_SUM;
    if (s != 0 && mpq_cmp(e2, mone) >= 0) f |= FR_SSCA_SQSUM;
    mpq_clears(e, e2, one, mone, NULL);
    return f;
}

/* The exact verdict of (4) (rho) and (6) (gamma). */
static void q_verdict(unsigned *rf, unsigned *gf, const mpq_t a1, const mpq_t al1,
                      const mpq_t a2, const mpq_t al2)
{
    *rf = q_seq(a1, al1) & FR_SSCA_RHO_CONDS;
    *gf = q_seq(a2, al2);
    mpq_t d;
    mpq_init(d);
    mpq_sub(d, al1, al2);                      /* e2 - e1 = alpha1 - alpha2 */
    if (mpq_sgn(a1) == 0 || (mpq_sgn(a2) != 0 && mpq_sgn(d) >= 0)) *gf |= FR_SSCA_RATIO;
    mpq_clear(d);
}

/* "SQSUM|RATIO" style names of the bits of f (into buf). */
static const char *bitnames(char *buf, size_t size, unsigned f)
{
    static const char *const nm[6] = {"POS", "LE1", "LIM0", "SUM", "SQSUM", "RATIO"};
    buf[0] = '\0';
    for (int k = 0; k < 6; k++)
        if (f >> k & 1)
            pcu_snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? "|" : "", nm[k]);
    if (!buf[0]) pcu_snprintf(buf, size, "none");
    return buf;
}

typedef struct {
    const char *what;
    double a1, alpha1, a2, alpha2;     /* binary64 reading */
    long n[4], d[4];                   /* the printed decimals as n/d */
    unsigned want_rho, want_gamma;     /* the failing bits fedref finds */
} schedule;

#define SQR (FR_SSCA_SQSUM | FR_SSCA_RATIO)
static const schedule papers[] = {
    {"000 sample B=10", 0.9, 0.1, 0.5, 0.1, {9, 1, 1, 1}, {10, 10, 2, 10}, 0, SQR},
    {"000 sample B=100", 0.3, 0.1, 0.3, 0.1, {3, 1, 3, 1}, {10, 10, 10, 10}, 0, SQR},
    {"000 sample B=6000", 0.2, 0.1, 0.3, 0.1, {2, 1, 3, 1}, {10, 10, 10, 10}, 0, SQR},
    {"000 feature B=10", 0.9, 0.3, 0.3, 0.3, {9, 3, 3, 3}, {10, 10, 10, 10}, 0, SQR},
    {"000 feature B=100", 0.9, 0.1, 0.5, 0.1, {9, 1, 1, 1}, {10, 10, 2, 10}, 0, SQR},
    {"000 feature B=1000", 0.3, 0.1, 0.3, 0.1, {3, 1, 3, 1}, {10, 10, 10, 10}, 0, SQR},
    {"001 B=1", 0.4, 0.4, 0.4, 0.4 + 0.05, {2, 2, 2, 9}, {5, 5, 5, 20}, 0, FR_SSCA_SQSUM},
    {"001 B=10", 0.6, 0.3, 0.9, 0.3 + 0.05, {3, 3, 9, 7}, {5, 10, 10, 20}, 0, FR_SSCA_SQSUM},
    {"001 B=100", 0.9, 0.3, 0.9, 0.3 + 0.05, {9, 3, 9, 7}, {10, 10, 10, 20}, 0, FR_SSCA_SQSUM},
};
#define NPAPERS (sizeof papers / sizeof papers[0])

typedef struct {
    mpfr_t p[4];                        /* a1, alpha1, a2, alpha2 */
    mpq_t q[4];
} sched_t;

/* fr_ssca_stepsize on s->p and the exact decision on s->q (set from s->p
 * exactly); 0 if they agree (bits into *rf, *gf), 1 otherwise. */
static int decide_both(sched_t *s, unsigned *rf, unsigned *gf, char *why, size_t wlen)
{
    unsigned r = 0xdead, g = 0xbeef, qr, qg;
    for (int k = 0; k < 4; k++) mpfr_get_q(s->q[k], s->p[k]);       /* exact */
    int st = fr_ssca_stepsize(&r, &g, s->p[0], s->p[1], s->p[2], s->p[3]);
    q_verdict(&qr, &qg, s->q[0], s->q[1], s->q[2], s->q[3]);
    *rf = qr;
    *gf = qg;
    if (st != FR_OK) {
        pcu_snprintf(why, wlen, "status %d", st);
        return 1;
    }
    if (r != qr || g != qg) {
        char b1[64], b2[64], b3[64], b4[64];
        pcu_snprintf(why, wlen, "fr_ssca_stepsize rho %s gamma %s, exact rho %s gamma %s",
                     bitnames(b1, sizeof b1, r), bitnames(b2, sizeof b2, g),
                     bitnames(b3, sizeof b3, qr), bitnames(b4, sizeof b4, qg));
        return 1;
    }
    return 0;
}

static void fail(pc_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(pc_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!ctx->failed) vsnprintf(ctx->detail, sizeof ctx->detail, fmt, ap);
    va_end(ap);
    ctx->failed++;
}

/* One random parameter: an edge c in {0, 1/2, 1, -1, base} plus 0 or
 * +-2^-k (k up to prec - 8: a few ulps of ctx->prec at most), -0, or a
 * random 64-bit dyadic in (-8, 8). */
static void rand_param(mpfr_t x, frng_t *g, mpfr_prec_t prec, mpfr_srcptr base)
{
    unsigned long r = pcu_below(g, 8);
    mpfr_t c, d;
    mpfr_prec_t pc = base && mpfr_get_prec(base) > prec ? mpfr_get_prec(base) : prec;
    mpfr_inits2(pc, c, d, (mpfr_ptr)0);
    if (r <= 4) {
        switch (r) {
        case 0: mpfr_set_zero(c, 1); break;
        case 1: mpfr_set_ui_2exp(c, 1, -1, MPFR_RNDN); break;
        case 2: mpfr_set_ui(c, 1, MPFR_RNDN); break;
        case 3: mpfr_set_si(c, -1, MPFR_RNDN); break;
        default:
            if (base) mpfr_set(c, base, MPFR_RNDN);            /* exact: c has base's precision */
            else mpfr_set_ui(c, 1, MPFR_RNDN);
        }
        unsigned long off = pcu_below(g, 3);
        if (off == 0) {
            pcu_set(x, c);                                      /* exact */
        } else {
            long k = 1 + (long)pcu_below(g, (unsigned long)prec - 8);
            mpfr_set_ui_2exp(d, 1, -k, MPFR_RNDN);
            if (off == 2) mpfr_neg(d, d, MPFR_RNDN);
            pcu_add(x, c, d);                                   /* exact, any precision */
        }
    } else if (r == 5) {
        mpfr_set_prec(x, prec);
        mpfr_set_zero(x, -1);                                   /* -0 */
    } else {
        mpfr_set_prec(x, prec);
        pcu_rand_dyadic(x, g, 64, -40, 3, 0);
    }
    mpfr_clears(c, d, (mpfr_ptr)0);
}

int pc_ssca_stepsize_papers(pc_ctx *ctx)
{
    ctx->function = "ssca_stepsize";
    ctx->vector = "ssca_stepsize";
    ctx->claim = "000 Sec. VI and 001 Sec. VI choose rho and gamma satisfying (4) and (6) "
                 "(Theorems 1-4 assume it)";
    ctx->erratum = "E-000-VI";
    ctx->ran = ctx->failed = 0;
    mpfr_prec_t prec = ctx->prec < 200 ? 200 : ctx->prec;
    sched_t s;
    for (int k = 0; k < 4; k++) {
        mpfr_init2(s.p[k], prec);
        mpq_init(s.q[k]);
    }
    char why[200], b1[64], b2[64];
    unsigned r, g, r2, g2;
    /* (a) the papers' schedules */
    unsigned long broken = 0;
    for (size_t i = 0; i < NPAPERS; i++) {
        const schedule *P = &papers[i];
        const double v[4] = {P->a1, P->alpha1, P->a2, P->alpha2};
        for (int k = 0; k < 4; k++) {
            mpfr_set_prec(s.p[k], prec);
            mpfr_set_d(s.p[k], v[k], MPFR_RNDN);               /* exact */
        }
        ctx->ran++;
        if (decide_both(&s, &r, &g, why, sizeof why)) {
            fail(ctx, "%s: %s", P->what, why);
            continue;
        }
        /* the printed decimals, exactly (0.1 = 1/10, alpha + 1/20) */
        mpq_t dq[4];
        for (int k = 0; k < 4; k++) {
            mpq_init(dq[k]);
            mpq_set_si(dq[k], P->n[k], (unsigned long)P->d[k]);
            mpq_canonicalize(dq[k]);
        }
        q_verdict(&r2, &g2, dq[0], dq[1], dq[2], dq[3]);
        for (int k = 0; k < 4; k++) mpq_clear(dq[k]);
        if (r2 != r || g2 != g) {
            fail(ctx, "%s: the decimal reading gives gamma %s", P->what, bitnames(b1, sizeof b1, g2));
            continue;
        }
        if (r != P->want_rho || g != P->want_gamma) {
            pcu_snprintf(why, sizeof why, "rho %s gamma %s", bitnames(b1, sizeof b1, r),
                         bitnames(b2, sizeof b2, g));
            fail(ctx, "%s: unexpected verdict %s", P->what, why);
            continue;
        }
        for (unsigned b = 1; b <= FR_SSCA_RATIO; b <<= 1)      /* every failing bit has its reason */
            if ((g & b) && fr_ssca_cond_reason(1, b) == NULL) fail(ctx, "%s: no reason for bit %s", P->what,
                                                                   bitnames(b1, sizeof b1, b));
        broken += g != 0;
    }
    if (broken != NPAPERS)
        fail(ctx, "the printed claim was not refuted on every schedule");
    /* (b) random schedules near the edges, at prec bits */
    frng_t rng;
    frng_init(&rng, ctx->seed, STREAM_STEPSIZE);
    unsigned long seen[2][6] = {{0}};
    for (unsigned long c = 0; c < ctx->cases; c++) {
        rand_param(s.p[1], &rng, prec, NULL);
        rand_param(s.p[0], &rng, prec, s.p[1]);
        rand_param(s.p[3], &rng, prec, s.p[1]);                /* alpha2 at or next to alpha1 */
        rand_param(s.p[2], &rng, prec, s.p[3]);
        ctx->ran++;
        if (decide_both(&s, &r, &g, why, sizeof why)) {
            char pa[4][64];
            for (int k = 0; k < 4; k++) pcu_fmt(pa[k], sizeof pa[k], s.p[k]);
            char where[300];
            pcu_snprintf(where, sizeof where, "a1 %s alpha1 %s a2 %s alpha2 %s", pa[0], pa[1], pa[2], pa[3]);
            fail(ctx, "random case: %s: %s", where, why);
            continue;
        }
        for (int k = 0; k < 6; k++) {
            seen[0][k] += r >> k & 1;
            seen[1][k] += g >> k & 1;
        }
    }
    /* every bit of both sequences was seen failing (and the sweep is not vacuous) */
    for (int k = 0; k < 6 && ctx->cases >= 1000; k++)
        if ((k < 4 && seen[0][k] == 0) || seen[1][k] == 0)
            fail(ctx, "the random cases never made bit %s fail", bitnames(b1, sizeof b1, 1u << k));
    /* (c) 001's wording: (5) read literally ("gamma^(t) = 0": a2 = 0) is
     * unsatisfiable (SUM fails), and (3) admits rho > 1 */
    for (unsigned long c = 0; c < 64; c++) {
        rand_param(s.p[1], &rng, prec, NULL);
        rand_param(s.p[0], &rng, prec, s.p[1]);
        rand_param(s.p[3], &rng, prec, s.p[1]);
        mpfr_set_zero(s.p[2], c & 1 ? -1 : 1);                /* gamma^(t) = 0 for every t */
        ctx->ran++;
        if (decide_both(&s, &r, &g, why, sizeof why) || !(g & FR_SSCA_SUM))
            fail(ctx, "001 (5) read literally (a2 = 0) satisfied SUM (or: %s)", why);
    }
    mpfr_set_ui(s.p[0], 2, MPFR_RNDN);
    mpfr_set_ui_2exp(s.p[1], 1, -1, MPFR_RNDN);
    mpfr_set_ui(s.p[2], 1, MPFR_RNDN);
    mpfr_set_ui_2exp(s.p[3], 3, -2, MPFR_RNDN);
    ctx->ran++;
    if (decide_both(&s, &r, &g, why, sizeof why) || r != FR_SSCA_LE1 || g != 0)
        fail(ctx, "a1 = 2, alpha1 = 1/2, a2 = 1, alpha2 = 3/4 should break LE1 of (4) only (001's (3) "
                  "omits it)");
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "000 Sec. VI: all 6 schedules satisfy (4) and violate (6): SQSUM (alpha <= 1/2) and "
                     "RATIO (alpha2 = alpha1); 001 Sec. VI: all 3 satisfy (3), violate (5): SQSUM "
                     "(alpha + 0.05 < 1/2), RATIO holds; binary64 and decimal readings agree; %lu random "
                     "schedules at %ld bits: fr_ssca_stepsize = exact rational decision",
                     ctx->cases, (long)prec);
    for (int k = 0; k < 4; k++) {
        mpfr_clear(s.p[k]);
        mpq_clear(s.q[k]);
    }
    return ctx->failed != 0;
}
