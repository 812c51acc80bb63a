/* SPDX-License-Identifier: Apache-2.0 */
/* check_ens_printed.c -- erratum E-002-13: the ENS formula as printed.
 *
 * 002 (13)/(15) with Lemma III.1's selection rule (Algorithm 1):
 *   w(s) = mean - (lambda/eta)(2s/m - 1),  the first s in 1..m with
 *   v_s >= w(s) > v_{s+1}  (v descending, v_{m+1} = -inf).
 * The proof of Lemma III.1 takes pi_i = +1 for the s largest values, but
 * pi_i must lie in sgn(w - w_i) = {-1} for them: the sign is wrong.  The
 * stationarity condition sum_i lambda sgn(w - w_i) + eta (w - w_i) = 0
 * gives w = mean + (lambda/eta)(2s/m - 1) with s = #{w_i > w}, or a data
 * value w_k when 0 lies in the subdifferential there (a kink the printed
 * rule cannot return: for m = 1 it gives w_1 - lambda/eta, not w_1).
 *
 * The check evaluates the printed rule in exact rational arithmetic
 * (w(s) = P/Q with P = eta S - lambda (2s - m), Q = eta m; the selection
 * inequalities and the certificate h'_-(P/Q) <= 0 <= h'_+(P/Q) decided
 * exactly), finds the smallest witnesses by exhaustive search over small
 * integer columns, and on random and adversarial instances counts how often
 * the printed rule is wrong and how often fr_ens_as_printed's output fails
 * the rounding certificate.  It passes iff the printed rule is shown wrong
 * (on the witnesses and on random cases) AND fr_ens is certified on every
 * same input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_PRINTED UINT64_C(0x70632d656e7370) /* "pc-ensp" */

typedef struct {
    mpfr_t etaS, P, Q, t1, t2;
} rat;

static int cmp_desc(const void *a, const void *b)
{
    return mpfr_cmp(*(mpfr_ptr const *)b, *(mpfr_ptr const *)a);
}

/* The printed rule exactly: returns s in 1..m (P/Q = w(s)), 0 if no s
 * qualifies, -1 on an internal failure.  desc: the column sorted
 * descending. */
static long printed_exact(pcu_ens1d *h, mpfr_ptr *desc, unsigned long m, rat *r)
{
    if (pcu_neg(r->etaS, h->netaS) || pcu_set(r->Q, h->etam))
        return -1;
    for (unsigned long s = 1; s <= m; s++) {
        if (pcu_mul_si(r->t1, h->lambda, 2 * (long)s - (long)m) ||
            pcu_sub(r->P, r->etaS, r->t1) || pcu_mul(r->t2, desc[s - 1], r->Q))
            return -1;
        if (mpfr_cmp(r->t2, r->P) < 0)          /* v_s >= w(s) fails */
            continue;
        if (s < m) {
            if (pcu_mul(r->t2, desc[s], r->Q))
                return -1;
            if (mpfr_cmp(r->P, r->t2) <= 0)     /* w(s) > v_{s+1} fails */
                continue;
        }
        return (long)s;
    }
    return 0;
}

/* 1 if P/Q minimises h (exactly), 0 if not, -1 on internal failure. */
static int is_argmin(pcu_ens1d *h, rat *r)
{
    int l = pcu_ens1d_dsign_frac(h, r->P, r->Q, -1);
    int u = pcu_ens1d_dsign_frac(h, r->P, r->Q, +1);
    if (l == 2 || u == 2)
        return -1;
    return l <= 0 && u >= 0;
}

/* The true minimiser as an exact rational, found independently of any
 * closed form: every data value and every corrected candidate
 * (eta S + lambda (2s - m)) / (eta m), s = 0..m, is tried with the exact
 * certificate; the minimiser is unique.  Returns 1 found, 0 not, -1 fail. */
static int true_exact(pcu_ens1d *h, mpfr_ptr *col, unsigned long m, rat *r)
{
    if (pcu_neg(r->etaS, h->netaS))
        return -1;
    for (unsigned long k = 0; k < m; k++) {
        if (pcu_set(r->P, col[k]))
            return -1;
        mpfr_set_prec(r->Q, 2);
        mpfr_set_ui(r->Q, 1, MPFR_RNDN);
        int a = is_argmin(h, r);
        if (a)
            return a;
    }
    for (unsigned long s = 0; s <= m; s++) {
        if (pcu_mul_si(r->t1, h->lambda, 2 * (long)s - (long)m) ||
            pcu_add(r->P, r->etaS, r->t1) || pcu_set(r->Q, h->etam))
            return -1;
        int a = is_argmin(h, r);
        if (a)
            return a;
    }
    return 0;
}

static void fmt_rat(char *buf, size_t size, rat *r)
{
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    mpfr_get_q(a, r->P);
    mpfr_get_q(b, r->Q);
    mpq_div(a, a, b);
    gmp_snprintf(buf, size, "%Qd", a);
    mpq_clears(a, b, (mpq_ptr)0);
}

/* Exhaustive search over sorted integer columns with entries 0..4, m <= 4,
 * lambda = eta = 1, in the order (m, max entry, lexicographic).  want:
 * 0 any witness, 1 m >= 2 distinct entries, 2 true minimiser not a data
 * value.
 * Writes "W={..}: printed P, true T" into buf; returns 1 if found. */
static int smallest_witness(int want, char *buf, size_t size, rat *r, rat *r2)
{
    mpfr_t v[4], one;
    mpfr_ptr col[4], desc[4];
    int found = 0;
    mpfr_init2(one, 8);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    for (int i = 0; i < 4; i++)
        mpfr_init2(v[i], 8);
    for (unsigned long m = want == 1 ? 2 : 1; m <= 4 && !found; m++)
        for (int mx = 0; mx <= 4 && !found; mx++) {
            int e[4] = {0, 0, 0, 0};
            for (;;) {
                /* e is non-decreasing in [0, mx]; want e[m-1] == mx */
                int ok = e[m - 1] == mx;
                for (unsigned long i = 1; i < m && ok && want == 1; i++)
                    ok = e[i] != e[i - 1];
                if (ok) {
                    pcu_ens1d h;
                    for (unsigned long i = 0; i < m; i++) {
                        mpfr_set_si(v[i], e[i], MPFR_RNDN);
                        col[i] = desc[i] = v[i];
                    }
                    qsort(desc, m, sizeof desc[0], cmp_desc);
                    if (pcu_ens1d_init(&h, col, m, one, one) == 0) {
                        long s = printed_exact(&h, desc, m, r);
                        int wrong = s == 0 || (s > 0 && is_argmin(&h, r) == 0);
                        int t = true_exact(&h, col, m, r2);
                        int isdata = 0;
                        if (t == 1 && mpfr_cmp_ui(r2->Q, 1) == 0)
                            for (unsigned long i = 0; i < m; i++)
                                isdata |= mpfr_equal_p(r2->P, v[i]);
                        if (wrong && t == 1 && (want != 2 || !isdata)) {
                            char bp[32] = "none", bt[32];
                            if (s > 0)
                                fmt_rat(bp, sizeof bp, r);
                            fmt_rat(bt, sizeof bt, r2);
                            int len = pcu_snprintf(buf, size, "W={");
                            for (unsigned long i = 0; i < m; i++)
                                len += pcu_snprintf(buf + len, size - (size_t)len,
                                                "%s%d", i ? "," : "", e[i]);
                            pcu_snprintf(buf + len, size - (size_t)len,
                                     "}: printed %s, true %s", bp, bt);
                            found = 1;
                        }
                    }
                    pcu_ens1d_clear(&h);
                    if (found)
                        break;
                }
                /* next non-decreasing tuple in [0, mx]^m */
                long i = (long)m - 1;
                while (i >= 0 && e[i] == mx)
                    i--;
                if (i < 0)
                    break;
                e[i]++;
                for (unsigned long k = (unsigned long)i + 1; k < m; k++)
                    e[k] = e[i];
            }
        }
    for (int i = 0; i < 4; i++)
        mpfr_clear(v[i]);
    mpfr_clear(one);
    return found;
}

int pc_ens_as_printed(pc_ctx *ctx)
{
    frng_t g;
    pcu_ens_case cs;
    rat r, r2;
    mpfr_t *w = NULL, *wp = NULL;
    mpfr_ptr *col = NULL, *desc = NULL;
    unsigned long cap = 0, ccap = 0;
    unsigned long cols = 0, pr_wrong = 0, pr_none = 0, lib_wrong = 0;
    char w_any[80] = "?", w_dist[80] = "?", w_nodata[80] = "?", first[200] = "";
    char b10p[32] = "?", b10t[32] = "?", b1p[32] = "?";
    mpfr_prec_t p = ctx->prec;

    ctx->function = "ens_as_printed";
    ctx->vector = "ens";
    ctx->claim = "002 (13)/(15), Lemma III.1, Alg. 1 as printed are wrong (sign, missing kink); fr_ens right on the same inputs";
    ctx->erratum = "E-002-13";
    mpfr_inits2(64, r.etaS, r.P, r.Q, r.t1, r.t2, r2.etaS, r2.P, r2.Q, r2.t1,
                r2.t2, (mpfr_ptr)0);
    pcu_ens_case_init(&cs, p);
    frng_init(&g, ctx->seed, STREAM_PRINTED);

    /* smallest witnesses by exhaustive search */
    int ok_w = smallest_witness(0, w_any, sizeof w_any, &r, &r2) &
               smallest_witness(1, w_dist, sizeof w_dist, &r, &r2) &
               smallest_witness(2, w_nodata, sizeof w_nodata, &r, &r2);
    ctx->ran += 3;
    if (!ok_w && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "exhaustive search found no witness");

    for (unsigned long c = 0; c < pcu_ens_case_nadv + ctx->cases; c++) {
        if (c < pcu_ens_case_nadv)
            pcu_ens_case_adversarial(&cs, (unsigned)c);
        else
            pcu_ens_case_random(&cs, &g);
        unsigned long m = cs.m, n = cs.n;
        if (n > cap) {
            w = realloc(w, n * sizeof *w);
            wp = realloc(wp, n * sizeof *wp);
            if (w == NULL || wp == NULL)
                abort();
            for (unsigned long i = cap; i < n; i++)
                mpfr_inits2(p, w[i], wp[i], (mpfr_ptr)0);
            cap = n;
        }
        if (m > ccap) {
            col = realloc(col, m * sizeof *col);
            desc = realloc(desc, m * sizeof *desc);
            if (col == NULL || desc == NULL)
                abort();
            ccap = m;
        }
        ctx->ran++;
        const char *why = NULL;
        int st = fr_ens(w, cs.W, m, n, cs.lambda, cs.eta);
        int stp = fr_ens_as_printed(wp, cs.W, m, n, cs.lambda, cs.eta);
        if (st != FR_OK)
            why = fr_strerror(st);
        if (stp != FR_OK && stp != FR_EINTERNAL && why == NULL)
            why = "fr_ens_as_printed: unexpected status";
        int bad_pre = why != NULL;
        for (unsigned long j = 0; j < n && why == NULL; j++) {
            pcu_ens1d h;
            for (unsigned long i = 0; i < m; i++)
                col[i] = desc[i] = cs.W[i * n + j];
            qsort(desc, m, sizeof desc[0], cmp_desc);
            if (pcu_ens1d_init(&h, col, m, cs.lambda, cs.eta)) {
                pcu_ens1d_clear(&h);
                why = "internal error";
                break;
            }
            cols++;
            /* fr_ens: certified */
            int rc = pcu_cert_rn(pcu_ens1d_dsign, &h, w[j], 0, NULL, &why);
            if (rc == 0)
                why = NULL;
            /* printed rule, exactly */
            long s = why ? 1 : printed_exact(&h, desc, m, &r);
            int a = s > 0 ? is_argmin(&h, &r) : 0;
            if (s < 0 || a < 0)
                why = "internal error";
            else if (!why && s == 0)
                pr_none++;
            else if (!why && a == 0)
                pr_wrong++;
            /* the library's printed variant */
            if (!why) {
                int rp = stp == FR_OK ? pcu_cert_rn(pcu_ens1d_dsign, &h, wp[j], 0, NULL, NULL) : 1;
                if (rp == 2)
                    why = "internal error";
                else
                    lib_wrong += stp != FR_OK || rp != 0;
            }
            /* the named witnesses among the adversarial instances */
            if (!why && c == 0) {       /* W = {10,0,0}, lambda = eta = 1 */
                if (s > 0)
                    fmt_rat(b10p, sizeof b10p, &r);
                if (true_exact(&h, col, m, &r2) == 1)
                    fmt_rat(b10t, sizeof b10t, &r2);
                if (strcmp(b10p, "11/3") || strcmp(b10t, "3") ||
                    mpfr_cmp_ui(w[j], 3) != 0 ||
                    (stp == FR_OK && pcu_cert_rn(pcu_ens1d_dsign, &h, wp[j], 0, NULL, NULL) == 0))
                    why = "witness W={10,0,0}: printed not 11/3, true not 3, or library disagrees";
            }
            if (!why && c == 1) {       /* m = 1, W = {5}, lambda = eta = 1 */
                if (s > 0)
                    fmt_rat(b1p, sizeof b1p, &r);
                if (strcmp(b1p, "4") || mpfr_cmp_ui(w[j], 5) != 0)
                    why = "witness m=1 W={5}: printed not w1 - lambda/eta = 4 or ens not 5";
            }
            pcu_ens1d_clear(&h);
            if (why && ctx->failed++ == 0) {
                char bx[64];
                pcu_fmt(bx, sizeof bx, w[j]);
                pcu_snprintf(first, sizeof first, "case %lu (%s) m=%lu col %lu: ens=%s: %s",
                         c, cs.kind, m, j, bx, why);
            }
        }
        if (bad_pre && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "case %lu: %s", c, why);
    }
    if (pr_wrong + pr_none == 0 && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "the printed rule was never wrong");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
             "printed w(s)=mean-(l/e)(2s/m-1) has the wrong sign and no kink case; "
             "correct: mean+(l/e)(2s/m-1), s=#{w_i>w}, or a data value. l=e=1: "
             "W={10,0,0} printed %s, true %s; m=1 W={5} printed %s (=w1-l/e), true 5; "
             "smallest %s; distinct %s; non-data %s. Random: printed rule wrong on "
             "%lu/%lu cols (no s: %lu), fr_ens_as_printed fails on %lu; fr_ens "
             "certified%s%s",
             b10p, b10t, b1p, w_any, w_dist, w_nodata, pr_wrong + pr_none, cols,
             pr_none, lib_wrong, first[0] ? "; FIRST FAILURE " : " on all", first);
    for (unsigned long i = 0; i < cap; i++)
        mpfr_clears(w[i], wp[i], (mpfr_ptr)0);
    free(w);
    free(wp);
    free(col);
    free(desc);
    pcu_ens_case_clear(&cs);
    mpfr_clears(r.etaS, r.P, r.Q, r.t1, r.t2, r2.etaS, r2.P, r2.Q, r2.t1,
                r2.t2, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
