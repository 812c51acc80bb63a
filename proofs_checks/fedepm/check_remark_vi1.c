/* SPDX-License-Identifier: Apache-2.0 */
/* check_remark_vi1.c -- Setup VI.1, (29)-(30), and Remark VI.1 of 002 on
 * client selections drawn as the algorithms draw them: S^1, S^2, ... from
 * frng_sample(stream (seed, FR_STREAM_SELECT), m, nsel) (docs/FEDEPM.md
 * section 3), windows {S^{tau+1}, ..., S^{tau+s0}}, tau = 0, s0, 2 s0, ...
 *
 * pc_remark_vi1_pi: Remark VI.1, p_i = 1 - (1 - rho)^s0 with rho = nsel/m.
 *   Exact (GMP rationals): P(i not in S) = C(m-1, nsel)/C(m, nsel) = 1 - rho,
 *   also by enumerating every path of the partial Fisher-Yates shuffle of
 *   docs/RNG.md 3.3 for small m; the example s0 = 10, rho = 1/2 gives
 *   1 - 2^-10 = 0.9990234375 (0.999 to three decimals).  Monte Carlo: for
 *   every client, the frequency of windows that select it is within 5 sigma
 *   (binomial) of p_i, over ctx->cases windows per configuration.
 *
 * pc_remark_vi1_all_windows: erratum E-002-R61.  What Setup VI.1 needs is
 *   (29) for ALL clients in EVERY window.  For one window,
 *     q = P(S^{tau+1} u ... u S^{tau+s0} = [m])
 *       = sum_j (-1)^j C(m, j) (C(m-j, nsel)/C(m, nsel))^s0
 *   (inclusion-exclusion), checked exactly against a Markov chain on the
 *   number of covered clients and, for small m, against enumeration of all
 *   s0-tuples of subsets.  Windows are independent, so (29) holds on W
 *   windows with probability q^W -> 0 (q < 1 whenever nsel < m): random
 *   selection violates Setup VI.1 almost surely on an infinite run, and the
 *   per-client p_i of the remark overstates even the one-window q.  On the
 *   drawn selections the number of windows where (29) fails is within
 *   5 sigma of N (1 - q), and the first failing window is reported.
 *
 * pc_setup_vi1_gap: (30).  On sequences satisfying (29) (random covering
 *   windows of variable-size sets, and drawn windows redrawn until they
 *   cover), the largest gap u - v between consecutive selections of a
 *   client is < 2 s0, and 2 s0 - 1 is attained (witness m = 2, s0 = 2:
 *   S = {0}, {1}, {1}, {0}).  The converse fails ((30) does not imply (29):
 *   S = {1}, {0}, {1}, {1}, {0}, {1}), so "in other words" is one-way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "../pc_util.h"

#define STREAM_GAP UINT64_C(0x70632d676170)   /* "pc-gap" */
/* at least this many windows / sequences whatever ctx->cases says: the
 * statistics and the witnesses need them (they take milliseconds) */
#define MINWIN 2000UL

typedef struct { size_t m, nsel; unsigned s0; } cfg;

/* The Remark's example first; then a small-p case, a case with
 * rho s0 < 1 (q = 0), and a few more. */
static const cfg CFG[] = {
    {100, 50, 10}, {10, 3, 2}, {10, 2, 4}, {50, 25, 3}, {20, 19, 2}, {7, 1, 6},
};
#define NCFG (sizeof CFG / sizeof CFG[0])
/* (m, nsel) with m <= 8 for the enumeration of the shuffle's paths */
static const cfg FY[] = {{7, 1, 0}, {5, 2, 0}, {6, 3, 0}, {8, 4, 0}, {8, 7, 0}, {3, 3, 0}};
#define NFY (sizeof FY / sizeof FY[0])

/* ---- exact probabilities ----------------------------------------------------*/

/* r = C(m-1, nsel) / C(m, nsel) */
static void p_not_in(mpq_t r, size_t m, size_t nsel)
{
    mpz_t a, b;
    mpz_inits(a, b, (mpz_ptr)0);
    mpz_bin_uiui(a, m - 1, nsel);
    mpz_bin_uiui(b, m, nsel);
    mpq_set_num(r, a);
    mpq_set_den(r, b);
    mpq_canonicalize(r);
    mpz_clears(a, b, (mpz_ptr)0);
}

/* r = 1 - (1 - nsel/m)^s0 */
static void p_i_exact(mpq_t r, const cfg *c)
{
    mpq_t x, one;
    mpq_inits(x, one, (mpq_ptr)0);
    mpq_set_ui(x, c->m - c->nsel, c->m);
    mpq_canonicalize(x);
    mpq_set_ui(r, 1, 1);
    for (unsigned k = 0; k < c->s0; k++)
        mpq_mul(r, r, x);
    mpq_set_ui(one, 1, 1);
    mpq_sub(r, one, r);
    mpq_clears(x, one, (mpq_ptr)0);
}

/* q by inclusion-exclusion. */
static void q_incl_excl(mpq_t q, const cfg *c)
{
    mpz_t num, den, cj;
    mpq_t term, ratio;
    mpz_inits(num, den, cj, (mpz_ptr)0);
    mpq_inits(term, ratio, (mpq_ptr)0);
    mpq_set_ui(q, 0, 1);
    mpz_bin_uiui(den, c->m, c->nsel);
    for (size_t j = 0; j <= c->m; j++) {
        if (c->m - j < c->nsel)
            break;                          /* C(m-j, nsel) = 0 */
        mpz_bin_uiui(num, c->m - j, c->nsel);
        mpq_set_num(ratio, num);
        mpq_set_den(ratio, den);
        mpq_canonicalize(ratio);
        mpq_set_ui(term, 1, 1);
        for (unsigned k = 0; k < c->s0; k++)
            mpq_mul(term, term, ratio);
        mpz_bin_uiui(cj, c->m, j);
        mpq_set_z(ratio, cj);
        mpq_mul(term, term, ratio);
        if (j & 1)
            mpq_sub(q, q, term);
        else
            mpq_add(q, q, term);
    }
    mpz_clears(num, den, cj, (mpz_ptr)0);
    mpq_clears(term, ratio, (mpq_ptr)0);
}

/* q by the Markov chain on k = number of covered clients: a uniform
 * nsel-subset adds a new ones with probability
 * C(m-k, a) C(k, nsel-a) / C(m, nsel). */
static void q_chain(mpq_t q, const cfg *c)
{
    size_t m = c->m;
    mpq_t *P = malloc((m + 1) * sizeof *P), *N = malloc((m + 1) * sizeof *N);
    mpz_t den, a1, a2;
    mpq_t t;
    if (P == NULL || N == NULL)
        abort();   /* the checks cannot run without memory */
    mpz_inits(den, a1, a2, (mpz_ptr)0);
    mpq_init(t);
    for (size_t k = 0; k <= m; k++) {
        mpq_init(P[k]);
        mpq_init(N[k]);
    }
    mpz_bin_uiui(den, m, c->nsel);
    mpq_set_ui(P[0], 1, 1);
    for (unsigned s = 0; s < c->s0; s++) {
        for (size_t k = 0; k <= m; k++)
            mpq_set_ui(N[k], 0, 1);
        for (size_t k = 0; k <= m; k++) {
            if (mpq_sgn(P[k]) == 0)
                continue;
            for (size_t a = 0; a <= c->nsel && a <= m - k; a++) {
                if (c->nsel - a > k)
                    continue;
                mpz_bin_uiui(a1, m - k, a);
                mpz_bin_uiui(a2, k, c->nsel - a);
                mpz_mul(a1, a1, a2);
                mpq_set_num(t, a1);
                mpq_set_den(t, den);
                mpq_canonicalize(t);
                mpq_mul(t, t, P[k]);
                mpq_add(N[k + a], N[k + a], t);
            }
        }
        for (size_t k = 0; k <= m; k++)
            mpq_set(P[k], N[k]);
    }
    mpq_set(q, P[m]);
    for (size_t k = 0; k <= m; k++) {
        mpq_clear(P[k]);
        mpq_clear(N[k]);
    }
    free(P);
    free(N);
    mpq_clear(t);
    mpz_clears(den, a1, a2, (mpz_ptr)0);
}

/* q by enumerating all s0-tuples of nsel-subsets of [m] (m <= 16): the
 * number of covering tuples over C(m, nsel)^s0. */
static void next_tuple_count(const unsigned *masks, size_t nm, unsigned full,
                             unsigned s0, unsigned acc, unsigned long long *cnt)
{
    if (s0 == 0) {
        *cnt += acc == full;
        return;
    }
    for (size_t k = 0; k < nm; k++)
        next_tuple_count(masks, nm, full, s0 - 1, acc | masks[k], cnt);
}

static void q_enum(mpq_t q, const cfg *c)
{
    unsigned masks[1u << 10];
    size_t nm = 0;
    unsigned full = (1u << c->m) - 1;
    for (unsigned s = 0; s <= full; s++)
        if ((size_t)__builtin_popcount(s) == c->nsel)
            masks[nm++] = s;
    unsigned long long cnt = 0, tot = 1;
    next_tuple_count(masks, nm, full, c->s0, 0, &cnt);
    for (unsigned k = 0; k < c->s0; k++)
        tot *= nm;
    mpz_t a, b;
    mpz_inits(a, b, (mpz_ptr)0);
    mpz_set_ui(a, (unsigned long)cnt);
    mpz_set_ui(b, (unsigned long)tot);
    mpq_set_num(q, a);
    mpq_set_den(q, b);
    mpq_canonicalize(q);
    mpz_clears(a, b, (mpz_ptr)0);
}

/* Every path of the partial Fisher-Yates shuffle of docs/RNG.md 3.3 (each
 * with probability (m-nsel)!/m!): count, per client, the paths whose
 * sample misses it.  m <= 8. */
static void fy_paths(size_t *a, size_t m, size_t nsel, size_t i,
                     unsigned long *paths, unsigned long *miss)
{
    if (i == nsel) {
        (*paths)++;
        for (size_t c = 0; c < m; c++) {
            int in = 0;
            for (size_t t = 0; t < nsel; t++)
                in |= a[t] == c;
            miss[c] += !in;
        }
        return;
    }
    for (size_t j = i; j < m; j++) {
        size_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        fy_paths(a, m, nsel, i + 1, paths, miss);
        a[j] = a[i];
        a[i] = t;
    }
}

/* ---- drawn windows ------------------------------------------------------------*/

/* Draw one window of s0 selections; sel[t*m + c] = 1 iff c in S^{tau+t+1}.
 * Returns the union's size, or (size_t)-1 on a draw error. */
static size_t draw_window(frng_t *g, const cfg *c, unsigned char *sel, size_t *buf)
{
    memset(sel, 0, c->s0 * c->m);
    unsigned char *cov = sel + c->s0 * c->m;
    memset(cov, 0, c->m);
    size_t covered = 0;
    for (unsigned t = 0; t < c->s0; t++) {
        if (frng_sample(g, c->m, c->nsel, buf) != FR_OK)
            return (size_t)-1;
        for (size_t k = 0; k < c->nsel; k++) {
            sel[t * c->m + buf[k]] = 1;
            if (!cov[buf[k]]) {
                cov[buf[k]] = 1;
                covered++;
            }
        }
    }
    return covered;
}

static uint64_t cfg_seed(uint64_t seed, size_t k)
{
    return seed + (uint64_t)k;   /* config 0 (the Remark's) uses the seed itself */
}

/* ---- pc_remark_vi1_pi -----------------------------------------------------------*/

int pc_remark_vi1_pi(pc_ctx *ctx)
{
    mpq_t r, x, pi;
    char first[300] = "", ex[120] = "";
    double worst = 0.0;
    unsigned long nfy = 0;

    ctx->function = "frng_sample";
    ctx->vector = NULL;
    ctx->claim = "002 Remark VI.1: p_i = 1-(1-rho)^s0 (exact; Monte Carlo on the selection stream within 5 sigma); s0=10, rho=0.5: 1-2^-10";
    ctx->erratum = NULL;
    mpq_inits(r, x, pi, (mpq_ptr)0);

    for (size_t k = 0; k < NCFG; k++) {
        const cfg *c = &CFG[k];
        const char *why = NULL;
        /* P(i not in S) = C(m-1,nsel)/C(m,nsel) = 1 - rho exactly */
        p_not_in(r, c->m, c->nsel);
        mpq_set_ui(x, c->m - c->nsel, c->m);
        mpq_canonicalize(x);
        if (!mpq_equal(r, x))
            why = "C(m-1,nsel)/C(m,nsel) != 1 - nsel/m";
        /* the same from every path of the shuffle (small m) */
        if (why == NULL && k < NFY) {
            size_t a[8], fm = FY[k].m, fk = FY[k].nsel;
            unsigned long paths = 0, miss[8] = {0};
            for (size_t t = 0; t < fm; t++)
                a[t] = t;
            fy_paths(a, fm, fk, 0, &paths, miss);
            for (size_t t = 0; t < fm && why == NULL; t++) {
                /* miss/paths == (m - nsel)/m  <=>  miss m == paths (m - nsel) */
                if ((unsigned long long)miss[t] * fm !=
                    (unsigned long long)paths * (fm - fk))
                    why = "Fisher-Yates paths: P(i not in S) != 1 - rho";
            }
            nfy += paths;
        }
        p_i_exact(pi, c);
        if (k == 0) {
            /* the Remark's example: exactly 1 - 2^-10, 0.999 to 3 decimals */
            mpq_set_ui(x, 1023, 1024);
            if (!mpq_equal(pi, x))
                why = "s0 = 10, rho = 1/2: p_i != 1 - 2^-10";
            else if (fabs(mpq_get_d(pi) - 0.999) >= 0.0005)
                why = "p_i is not 0.999 to three decimals";
            pcu_snprintf(ex, sizeof ex, "s0=10 rho=1/2: p_i = 1023/1024 = %.10f",
                         mpq_get_d(pi));
        }
        /* Monte Carlo on the drawn selections */
        double p = mpq_get_d(pi);
        unsigned long N = ctx->cases < MINWIN ? MINWIN : ctx->cases;
        unsigned long *hits = calloc(c->m, sizeof *hits);
        unsigned char *sel = malloc(c->s0 * c->m + c->m);
        size_t *buf = malloc(c->nsel * sizeof *buf);
        if (hits == NULL || sel == NULL || buf == NULL)
            abort();
        frng_t g;
        frng_init(&g, cfg_seed(ctx->seed, k), FR_STREAM_SELECT);
        for (unsigned long w = 0; w < N && why == NULL; w++) {
            ctx->ran++;
            if (draw_window(&g, c, sel, buf) == (size_t)-1)
                why = "frng_sample failed";
            for (size_t t = 0; t < c->m; t++)
                hits[t] += sel[c->s0 * c->m + t];
        }
        double sd = sqrt((double)N * p * (1.0 - p));
        for (size_t t = 0; t < c->m && why == NULL; t++) {
            double z = fabs((double)hits[t] - (double)N * p) / (sd > 0 ? sd : 1.0);
            if (z > worst)
                worst = z;
            if (fabs((double)hits[t] - (double)N * p) > 5.0 * sd + 1.0)
                why = "a client's window frequency is more than 5 sigma from p_i";
        }
        free(hits);
        free(sel);
        free(buf);
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "m=%zu nsel=%zu s0=%u: %s", c->m,
                         c->nsel, c->s0, why);
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%zu configurations: P(i not in S) = 1 - rho exactly (and on all %lu "
                     "Fisher-Yates paths for m <= 8); %s; %lu windows per configuration, "
                     "largest client deviation %.2f sigma",
                     NCFG, nfy, ex, ctx->cases < MINWIN ? MINWIN : ctx->cases, worst);
    mpq_clears(r, x, pi, (mpq_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_remark_vi1_all_windows ----------------------------------------------------*/

int pc_remark_vi1_all_windows(pc_ctx *ctx)
{
    mpq_t q, q2, pi;
    char first[300] = "", main_[360] = "";
    unsigned long fail_seen = 0;

    ctx->function = "frng_sample";
    ctx->vector = NULL;
    ctx->claim = "002 Setup VI.1/Remark VI.1: P((29) in one window) = incl.-excl. sum < p_i, and q^W -> 0: random selection violates (29) for some tau a.s.";
    ctx->erratum = "E-002-R61";
    mpq_inits(q, q2, pi, (mpq_ptr)0);

    /* inclusion-exclusion against enumeration of all subset tuples */
    static const cfg small[] = {{5, 2, 3}, {6, 3, 3}, {4, 1, 4}, {6, 2, 2}, {4, 2, 5}};
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        ctx->ran++;
        q_incl_excl(q, &small[k]);
        q_enum(q2, &small[k]);
        if (!mpq_equal(q, q2) && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "m=%zu nsel=%zu s0=%u: "
                         "inclusion-exclusion != enumeration", small[k].m,
                         small[k].nsel, small[k].s0);
    }

    for (size_t k = 0; k < NCFG; k++) {
        const cfg *c = &CFG[k];
        const char *why = NULL;
        q_incl_excl(q, c);
        q_chain(q2, c);
        p_i_exact(pi, c);
        if (!mpq_equal(q, q2))
            why = "inclusion-exclusion != Markov chain";
        else if (c->nsel * c->s0 < c->m && mpq_sgn(q) != 0)
            why = "rho s0 < 1 but q != 0";
        else if (c->nsel < c->m && mpq_cmp_ui(q, 1, 1) >= 0)
            why = "q >= 1 with nsel < m";
        else if (c->m >= 2 && c->nsel < c->m && mpq_cmp(q, pi) >= 0)
            why = "q >= p_i";
        double qd = mpq_get_d(q);
        /* drawn windows: count the windows where (29) fails */
        unsigned long N = ctx->cases < MINWIN ? MINWIN : ctx->cases;
        unsigned long fails = 0, firstfail = 0;
        unsigned char *sel = malloc(c->s0 * c->m + c->m);
        size_t *buf = malloc(c->nsel * sizeof *buf);
        if (sel == NULL || buf == NULL)
            abort();
        frng_t g;
        frng_init(&g, cfg_seed(ctx->seed, k), FR_STREAM_SELECT);
        for (unsigned long w = 0; w < N && why == NULL; w++) {
            ctx->ran++;
            size_t cov = draw_window(&g, c, sel, buf);
            if (cov == (size_t)-1)
                why = "frng_sample failed";
            else if (cov < c->m && fails++ == 0)
                firstfail = w + 1;
        }
        free(sel);
        free(buf);
        double mean = (double)N * (1.0 - qd), sd = sqrt((double)N * qd * (1.0 - qd));
        if (why == NULL && fabs((double)fails - mean) > 5.0 * sd + 1.0)
            why = "windows failing (29) more than 5 sigma from N (1 - q)";
        fail_seen += fails;
        if (k == 0 && why == NULL) {
            /* q^W for the Remark's example, at 64 bits (report only) */
            MPFR_DECL_INIT(qq, 64);
            MPFR_DECL_INIT(qw, 64);
            mpfr_set_q(qq, q, MPFR_RNDN);
            unsigned long whalf = 1;
            mpfr_set(qw, qq, MPFR_RNDN);
            while (mpfr_cmp_d(qw, 0.5) >= 0) {
                whalf++;
                mpfr_mul(qw, qw, qq, MPFR_RNDN);
            }
            mpfr_pow_ui(qw, qq, 1000, MPFR_RNDN);
            mpfr_snprintf(main_, sizeof main_,
                          "m=100 rho=1/2 s0=10: p_i = %.6f but P((29) in one window) = "
                          "q = %.6f (incl.-excl. = Markov chain, exact); q^W < 1/2 from "
                          "W = %lu windows, q^1000 = %.3Re; drawn: %lu of %lu windows "
                          "fail (29) (expected %.1f), first at window %lu (S^%lu..S^%lu)",
                          mpq_get_d(pi), qd, whalf, qw, fails, N, mean, firstfail,
                          (firstfail - 1) * 10 + 1, firstfail * 10);
            if (fails == 0)
                why = "no drawn window violates (29)";
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "m=%zu nsel=%zu s0=%u: %s", c->m,
                         c->nsel, c->s0, why);
    }
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%s; (29) for every tau has probability lim q^W = 0 whenever nsel < m "
                 "(%lu failing windows drawn over %zu configurations)%s%s",
                 main_, fail_seen, NCFG, first[0] ? "; FIRST FAILURE " : "", first);
    mpq_clears(q, q2, pi, (mpq_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_setup_vi1_gap --------------------------------------------------------------*/

#define GMAXM 12
#define GMAXS 6
#define GWIN 6

/* Largest gap u - v between consecutive selections of any client in the
 * T sets sel[t*m + c] (times t + 1); 0 if no client is selected twice. */
static unsigned max_gap(const unsigned char *sel, size_t m, unsigned T)
{
    unsigned best = 0;
    for (size_t c = 0; c < m; c++) {
        unsigned last = 0;
        for (unsigned t = 1; t <= T; t++)
            if (sel[(t - 1) * m + c]) {
                if (last && t - last > best)
                    best = t - last;
                last = t;
            }
    }
    return best;
}

/* (29) on every window of s0 consecutive sets starting at tau = 0, s0, ... */
static int holds29(const unsigned char *sel, size_t m, unsigned s0, unsigned T)
{
    for (unsigned tau = 0; tau + s0 <= T; tau += s0)
        for (size_t c = 0; c < m; c++) {
            int in = 0;
            for (unsigned t = tau; t < tau + s0; t++)
                in |= sel[t * m + c];
            if (!in)
                return 0;
        }
    return 1;
}

int pc_setup_vi1_gap(pc_ctx *ctx)
{
    frng_t g;
    unsigned char sel[GWIN * GMAXS * GMAXM + GMAXM];
    size_t buf[GMAXM];
    unsigned long attained = 0, drawn = 0;
    char first[200] = "";

    ctx->function = "frng_sample";
    ctx->vector = NULL;
    ctx->claim = "002 (29) => (30): consecutive selections of a client are < 2 s0 apart; 2 s0 - 1 attained";
    ctx->erratum = NULL;
    frng_t gs;
    mpq_t q;
    mpq_init(q);
    frng_init(&g, ctx->seed, STREAM_GAP);
    frng_init(&gs, ctx->seed, FR_STREAM_SELECT);

    /* the witnesses: 2 s0 - 1 attained; (30) without (29) */
    static const unsigned char w1[] = {1, 0, 0, 1, 0, 1, 1, 0};       /* {0},{1},{1},{0} */
    static const unsigned char w2[] = {0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1};
    ctx->ran += 2;
    if (!(holds29(w1, 2, 2, 4) && max_gap(w1, 2, 4) == 3) && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "witness {0},{1},{1},{0} does not attain 2 s0 - 1");
    if (!(!holds29(w2, 2, 2, 6) && max_gap(w2, 2, 6) < 4) && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "converse witness wrong");

    unsigned long ncases = ctx->cases < MINWIN ? MINWIN : ctx->cases;
    for (unsigned long c = 0; c < ncases; c++) {
        size_t m = 1 + pcu_below(&g, GMAXM);
        unsigned s0 = 1 + (unsigned)pcu_below(&g, GMAXS);
        unsigned T = GWIN * s0;
        ctx->ran++;
        memset(sel, 0, T * m);
        if (c % 4 == 3 && m >= 2) {
            /* drawn selections of nsel of m, each window redrawn until it
             * covers [m] (needs nsel s0 >= m) */
            size_t nsel = 1 + pcu_below(&g, m);
            cfg cf = {m, nsel, s0};
            /* enough coverage probability that redrawing terminates fast */
            for (;;) {
                q_incl_excl(q, &cf);
                if (mpq_get_d(q) >= 0.05)
                    break;
                cf.nsel++;
            }
            unsigned char wsel[GMAXS * GMAXM + GMAXM];
            for (unsigned wdx = 0; wdx < GWIN; wdx++) {
                size_t cov;
                do {
                    cov = draw_window(&gs, &cf, wsel, buf);
                } while (cov != m && cov != (size_t)-1);
                memcpy(sel + wdx * s0 * m, wsel, s0 * m);
            }
            drawn++;
        } else {
            /* each client in a random slot of each window, plus random extras */
            unsigned dens = (unsigned)pcu_below(&g, 4);
            for (unsigned wdx = 0; wdx < GWIN; wdx++)
                for (size_t k = 0; k < m; k++) {
                    unsigned slot = (unsigned)pcu_below(&g, s0);
                    /* slots at the window edges more often: the extreme gap */
                    if (pcu_below(&g, 3) == 0)
                        slot = (wdx & 1) ? s0 - 1 : 0;
                    sel[(wdx * s0 + slot) * m + k] = 1;
                    for (unsigned t = 0; t < s0; t++)
                        if (dens && pcu_below(&g, 8) < dens - 1)
                            sel[(wdx * s0 + t) * m + k] = 1;
                }
        }
        const char *why = NULL;
        if (!holds29(sel, m, s0, T))
            why = "generator error: (29) does not hold";
        unsigned gap = max_gap(sel, m, T);
        if (why == NULL && gap >= 2 * s0)
            why = "(30) fails: a gap >= 2 s0";
        attained += gap == 2 * s0 - 1;
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "m=%zu s0=%u gap=%u: %s", m, s0, gap, why);
    }
    if (attained == 0 && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "2 s0 - 1 never attained on random sequences");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu sequences satisfying (29) (%lu from drawn windows): max gap "
                 "<= 2 s0 - 1 on all, = 2 s0 - 1 on %lu; witness m=2 s0=2 "
                 "{0},{1},{1},{0} gap 3; (30) does not imply (29): "
                 "{1},{0},{1},{1},{0},{1} has gaps <= 3 < 4 but window {3,4} misses "
                 "client 0%s%s",
                 ncases, drawn, attained, first[0] ? "; FIRST FAILURE " : "", first);
    mpq_clear(q);
    return ctx->failed ? 1 : 0;
}
