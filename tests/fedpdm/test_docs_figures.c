/* SPDX-License-Identifier: Apache-2.0 */
/* test_docs_figures.c -- every privacy figure printed in the tables of
 * docs/FEDPDM.md is on the safe side of the value behind it, as printed
 * (decimal), recomputed here by ref (MPFR, directed rounding):
 *   - 1.3, the threshold row: (5) gives (eps*, delta)-DP at the printed
 *     eps* (a threshold of the safe region, so rounded down);
 *   - 1.3, the grid and the audit block at delta = 1e-5: sigma (5) >= (5);
 *     sigma exact >= sigma* (the printed sigma gives (eps, delta)-DP:
 *     fr_gauss_dp_check HOLDS); the delta_eps column >= an upper bound of
 *     delta_eps(sigma (5));
 *   - 3.5, the table: sigma >= (5); the per-round eps, basic, advanced, RDP
 *     without subsampling and the stateless K-of-N mechanism (round 0
 *     with every client) >= ref's upper bounds at a sigma <= the table's;
 *     (20) >= fr_fedpdm_thm2;
 *   - 3.5, the inverse: the total at the printed sigma is <= eps_bar (both
 *     columns); the per-round eps of (5)^-1 <= its value at that sigma
 *     (rounded down: (5) at it gives at least that sigma);
 *   - 3.7: sigma_0, sigma_24, sigma_299 >= s_t sigma_1 (s_t =
 *     fr_fedpdm_path_sens, sigma_1 = fr_gauss_sigma_analytic) and the total
 *     >= fr_fedpdm_rdp_rounds at sigma_1 (K = N).
 * A figure rounded the wrong way in its last digit fails (each failure is
 * printed with the figure that would be safe).  The docs directory is
 * $FEDREF_DOCS_DIR, else docs (make check runs from the top directory). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedref/fedpdm.h"

Suite *suite_docs_figures(void);

#define P 192
#define MAXR 80
#define MAXC 12
#define CW 64

typedef char row_t[MAXC][CW];

static int failures;
static const char *fix_h;      /* where the figure is: heading, table, row, column */
static int fix_k, fix_r, fix_c;

#define AT(h, k, r, c) (fix_h = (h), fix_k = (k), fix_r = (r), fix_c = (c))

#define DONE()                                                                                     \
    ck_assert_msg(failures == 0, "%d printed privacy figures of docs/FEDPDM.md on the wrong side (stderr)", \
                  failures)

/* rows of the k-th table (0-based) after the first line that starts with
 * `heading`, header and separator dropped; returns the row count, -1 if
 * the file or the table is missing */
static int table(const char *heading, int k, row_t *rows, int *ncols)
{
    const char *dir = getenv("FEDREF_DOCS_DIR");
    char path[512], line[2048];
    snprintf(path, sizeof path, "%s/FEDPDM.md", dir && *dir ? dir : "docs");
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int found = 0, in = 0, tab = -1, n = 0, lno = 0;
    while (fgets(line, sizeof line, f)) {
        if (!found) {
            found = strncmp(line, heading, strlen(heading)) == 0;
            continue;
        }
        int is = line[0] == '|';
        if (is && !in) {
            tab++;
            lno = 0;
        }
        if (!is && in && tab == k) break;
        in = is;
        if (!is || tab != k || lno++ < 2 || n >= MAXR) continue;
        int c = 0;
        for (char *p = line + 1, *q; c < MAXC && (q = strchr(p, '|')); p = q + 1, c++) {
            size_t len = (size_t)(q - p);
            if (len >= CW) len = CW - 1;
            memcpy(rows[n][c], p, len);
            rows[n][c][len] = 0;
        }
        *ncols = c;
        n++;
    }
    fclose(f);
    return found && tab >= k ? n : -1;
}

/* the number in a cell (bold marks and a trailing "(alpha)" ignored);
 * its significant digits in *dig */
static int num(const char *cell, mpfr_t v, int *dig)
{
    char buf[CW], *o = buf;
    for (const char *p = cell; *p && o < buf + CW - 1; p++)
        if (*p != '*') *o++ = *p;
    *o = 0;
    char *s = buf;
    while (*s == ' ') s++;
    char *end = s;
    while (*end && strchr("0123456789.eE+-", *end)) end++;
    if (end == s) return 0;
    *end = 0;
    int d = 0, lead = 1;
    for (char *p = s; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '0' && *p <= '9') {
            if (*p != '0') lead = 0;
            if (!lead) d++;
        }
    *dig = d ? d : 1;
    return mpfr_set_str(v, s, 10, MPFR_RNDN) == 0;   /* the decimal, to nearest at P bits */
}

/* the printed figure must be >= (up) or <= (down) the value; on failure
 * print the figure with the same digits rounded the safe way */
static void expect(int up, const char *where, const char *cell, const mpfr_t val)
{
    mpfr_t v;
    int dig;
    mpfr_init2(v, P);
    if (!num(cell, v, &dig)) {
        fprintf(stderr, "docs figures: %s: no number in \"%s\"\n", where, cell);
        failures++;
    } else if (up ? mpfr_cmp(v, val) < 0 : mpfr_cmp(v, val) > 0) {
        mpfr_fprintf(stderr, "docs figures: %s: printed %s is %s the value %.17Rg (safe: %.*R*g)\n", where, cell,
                     up ? "below" : "above", val, dig, up ? MPFR_RNDU : MPFR_RNDD, val);
        mpfr_fprintf(stderr, "docs-fix\t%s\t%d\t%d\t%d\t%.*R*g\n", fix_h, fix_k, fix_r, fix_c, dig,
                     up ? MPFR_RNDU : MPFR_RNDD, val);
        failures++;
    }
    mpfr_clear(v);
}

/* sigma of (5) at (eps, delta), s = 1: lo <= exact <= hi */
static void sigma5(mpfr_t lo, mpfr_t hi, double eps, double delta)
{
    mpfr_t e, d, t;
    mpfr_inits2(P, e, d, t, (mpfr_ptr)0);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_set_d(d, delta, MPFR_RNDN);
    mpfr_set_ui(t, 1, MPFR_RNDN);
    ck_assert_int_eq(fr_gauss_sigma2_classical(hi, e, d, t), FR_OK);
    mpfr_sqrt(hi, hi, MPFR_RNDU);
    mpfr_ui_div(t, 125, d, MPFR_RNDD);               /* 1.25/delta = 125/(100 delta), down */
    mpfr_div_ui(t, t, 100, MPFR_RNDD);
    mpfr_log(t, t, MPFR_RNDD);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDD);
    mpfr_sqrt(t, t, MPFR_RNDD);
    mpfr_div(lo, t, e, MPFR_RNDD);
    mpfr_clears(e, d, t, (mpfr_ptr)0);
}

/* eps of the stateless mechanism over 300 rounds, K of N from round
 * `first` on (rdp_rounds, alpha <= 256), at sigma, s = 1 */
static void total(mpfr_t r, const mpfr_t sigma, unsigned long first, unsigned long K, unsigned long amax)
{
    enum { T = 300 };
    mpfr_t sg[T], s[T], d;
    for (int t = 0; t < T; t++) {
        mpfr_init2(sg[t], P);
        mpfr_init2(s[t], P);
        mpfr_set_ui(s[t], 1, MPFR_RNDN);
        mpfr_set(sg[t], sigma, MPFR_RNDD);
    }
    unsigned long al;
    mpfr_init2(d, P);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    int st = fr_fedpdm_rdp_rounds(r, &al, sg, s, T, first, K, 100, d, amax);
    for (int t = 0; t < T; t++) mpfr_clears(sg[t], s[t], (mpfr_ptr)0);
    mpfr_clear(d);
    ck_assert_int_eq(st, FR_OK);
}

/* the audit block of 1.3: the lines after the one that starts with
 * `head`, up to the one that starts with "sweep:"; whitespace-separated */
static int block(const char *head, row_t *rows, int *ncols)
{
    const char *dir = getenv("FEDREF_DOCS_DIR");
    char path[512], line[2048];
    snprintf(path, sizeof path, "%s/FEDPDM.md", dir && *dir ? dir : "docs");
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int in = 0, n = 0;
    while (fgets(line, sizeof line, f) && n < MAXR) {
        if (!in) {
            in = strncmp(line, head, strlen(head)) == 0;
            continue;
        }
        if (strncmp(line, "sweep:", 6) == 0) break;
        int c = 0;
        for (char *t = strtok(line, " \t\n"); t && c < MAXC; t = strtok(NULL, " \t\n"), c++)
            snprintf(rows[n][c], CW, "%s", t);
        *ncols = c;
        n++;
    }
    fclose(f);
    return in ? n : -1;
}

START_TEST(audit_block_13)
{
    row_t rows[MAXR];
    failures = 0;
    int nc = 0, n = block("  eps  sigma (5) ref", rows, &nc);
    ck_assert_msg(n == 8 && nc == 9, "1.3: the audit block (%d rows, %d columns)", n, nc);
    mpfr_t e, d, one, lo, hi, v, ml, mh;
    mpfr_inits2(P, e, d, one, lo, hi, v, ml, mh, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    for (int r = 0; r < n; r++) {
        int dig, ver;
        char w[64];
        ck_assert(num(rows[r][0], v, &dig));
        double ep = mpfr_get_d(v, MPFR_RNDN);
        snprintf(w, sizeof w, "1.3 audit block eps %g", ep);
        mpfr_set_d(e, ep, MPFR_RNDN);
        sigma5(lo, hi, ep, 1e-5);
        AT("audit block", 0, r, 1);
        expect(1, w, rows[r][1], hi);
        ck_assert(num(rows[r][3], v, &dig));
        ck_assert_int_eq(fr_gauss_dp_check(&ver, ml, mh, e, d, one, v), FR_OK);
        if (ver != FR_GAUSS_HOLDS) {
            ck_assert_int_eq(fr_gauss_sigma_analytic(v, e, d, one), FR_OK);
            AT("audit block", 0, r, 3);
            expect(1, w, rows[r][3], v);
        }
        ck_assert_int_eq(fr_gauss_dp_check(&ver, ml, mh, e, d, one, lo), FR_OK);
        mpfr_sub(v, d, ml, MPFR_RNDU);
        AT("audit block", 0, r, 8);
        expect(1, w, rows[r][8], v);
    }
    mpfr_clears(e, d, one, lo, hi, v, ml, mh, (mpfr_ptr)0);
    DONE();
}
END_TEST

START_TEST(grid_13)
{
    row_t rows[MAXR];
    failures = 0;
    int nc = 0, n = table("### 1.3", 0, rows, &nc);
    ck_assert_msg(n == 1 && nc == 12, "1.3: the threshold table (%d rows, %d columns)", n, nc);
    static const double dl[11] = {1e-12, 1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2};
    mpfr_t e, d, one, lo, hi, v, ml, mh;
    mpfr_inits2(P, e, d, one, lo, hi, v, ml, mh, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    for (int c = 1; c < 12; c++) {
        /* eps* enclosed: (5) holds at lo (certified, with sigma below (5)),
         * bisection in [1, 20] */
        int ver;
        char w[64];
        snprintf(w, sizeof w, "1.3 eps* at delta = %g", dl[c - 1]);
        double elo = 1, ehi = 20;
        for (int it = 0; it < 48; it++) {
            double m = 0.5 * (elo + ehi);
            sigma5(lo, hi, m, dl[c - 1]);
            mpfr_set_d(e, m, MPFR_RNDN);
            mpfr_set_d(d, dl[c - 1], MPFR_RNDN);
            ck_assert_int_eq(fr_gauss_dp_check(&ver, ml, mh, e, d, one, lo), FR_OK);
            if (ver == FR_GAUSS_HOLDS) elo = m;
            else ehi = m;
        }
        mpfr_set_d(v, elo, MPFR_RNDD);
        AT("### 1.3", 0, 0, c);
        expect(0, w, rows[0][c], v);
    }
    n = table("### 1.3", 1, rows, &nc);
    ck_assert_msg(n >= 60 && nc == 7, "1.3: the grid (%d rows)", n);
    for (int r = 0; r < n; r++) {
        int dig, ver;
        char w[80];
        ck_assert(num(rows[r][0], v, &dig));
        double ep = mpfr_get_d(v, MPFR_RNDN);
        ck_assert(num(rows[r][1], v, &dig));
        double de = mpfr_get_d(v, MPFR_RNDN);
        snprintf(w, sizeof w, "1.3 grid eps %g delta %g", ep, de);
        sigma5(lo, hi, ep, de);
        AT("### 1.3", 1, r, 2);
        expect(1, w, rows[r][2], hi);
        mpfr_set_d(e, ep, MPFR_RNDN);
        mpfr_set_d(d, de, MPFR_RNDN);
        ck_assert(num(rows[r][3], v, &dig));
        ck_assert_int_eq(fr_gauss_dp_check(&ver, ml, mh, e, d, one, v), FR_OK);
        if (ver != FR_GAUSS_HOLDS) {
            ck_assert_int_eq(fr_gauss_sigma_analytic(v, e, d, one), FR_OK);
            AT("### 1.3", 1, r, 3);
            expect(1, w, rows[r][3], v);
        }
        ck_assert_int_eq(fr_gauss_dp_check(&ver, ml, mh, e, d, one, lo), FR_OK);
        mpfr_sub(v, d, ml, MPFR_RNDU);                 /* delta_eps(sigma (5)) <= delta - mlo */
        AT("### 1.3", 1, r, 6);
        expect(1, w, rows[r][6], v);
    }
    mpfr_clears(e, d, one, lo, hi, v, ml, mh, (mpfr_ptr)0);
    DONE();
}
END_TEST

START_TEST(table_35)
{
    row_t rows[MAXR];
    failures = 0;
    int nc = 0, n = table("### 3.5", 0, rows, &nc);
    ck_assert_msg(n == 4 && nc == 10, "3.5: the table (%d rows, %d columns)", n, nc);
    mpfr_t lo, hi, sg, s, d, g, b, a, r, c0, ep, q, v;
    mpfr_inits2(P, lo, hi, sg, s, d, g, b, a, r, c0, ep, q, v, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    mpfr_set_ui(c0, 1, MPFR_RNDN);
    for (int i = 0; i < n; i++) {
        int dig;
        char w[64];
        ck_assert(num(rows[i][0], v, &dig));
        double eps = mpfr_get_d(v, MPFR_RNDN);
        snprintf(w, sizeof w, "3.5 eps %g", eps);
        sigma5(lo, hi, eps, 1e-5);
        AT("### 3.5", 0, i, 1);
        expect(1, w, rows[i][1], hi);
        /* the totals: at a sigma below both (5) and the binary64 sigma the
         * audit uses, so each is an upper bound for either */
        mpfr_set_d(sg, sqrt(2 * log(1.25 / 1e-5)) / eps, MPFR_RNDN);
        mpfr_min(sg, sg, lo, MPFR_RNDD);
        ck_assert_int_eq(fr_fedpdm_gauss_eps(g, sg, s, d), FR_OK);
        AT("### 3.5", 0, i, 2);
        expect(1, w, rows[i][2], g);
        ck_assert_int_eq(fr_fedpdm_compose(b, a, sg, s, 300, d), FR_OK);
        AT("### 3.5", 0, i, 3);
        expect(1, w, rows[i][3], b);
        AT("### 3.5", 0, i, 4);
        expect(1, w, rows[i][4], a);
        total(r, sg, 0, 100, 256);
        AT("### 3.5", 0, i, 5);
        expect(1, w, rows[i][5], r);
        total(r, sg, 1, 5, 256);
        AT("### 3.5", 0, i, 6);
        expect(1, w, rows[i][6], r);
        mpfr_set_d(ep, eps, MPFR_RNDN);
        for (int k = 0; k < 2; k++) {
            mpfr_set_d(q, k ? 0.25 : 0.05, MPFR_RNDN);
            ck_assert_int_eq(fr_fedpdm_thm2(r, c0, ep, 5, 100, 300, q), FR_OK);
            AT("### 3.5", 0, i, 7 + k);
            expect(1, w, rows[i][7 + k], r);
        }
    }
    /* the inverse: sigma for a total <= eps_bar, K = N and K of N */
    n = table("### 3.5", 1, rows, &nc);
    ck_assert_msg(n == 4 && nc == 5, "3.5: the inverse table (%d rows, %d columns)", n, nc);
    for (int i = 0; i < n; i++) {
        int dig;
        char w[64];
        ck_assert(num(rows[i][0], v, &dig));
        double eb = mpfr_get_d(v, MPFR_RNDN);
        mpfr_set_d(ep, eb, MPFR_RNDN);
        snprintf(w, sizeof w, "3.5 inverse eps_bar %g", eb);
        for (int k = 0; k < 2; k++) {
            ck_assert(num(rows[i][1 + k], sg, &dig));
            mpfr_set(sg, sg, MPFR_RNDN);
            total(r, sg, k ? 1 : 0, k ? 5 : 100, 256);
            if (mpfr_cmp(r, ep) > 0) {                /* eps_bar >= the total at the printed sigma */
                mpfr_fprintf(stderr, "docs figures: %s: the total at the printed sigma %s is %.10Rg > eps_bar\n", w,
                             rows[i][1 + k], r);
                failures++;
            }
        }
        /* (5)^-1 at the printed K = N sigma, rounded down */
        ck_assert(num(rows[i][1], sg, &dig));
        mpfr_set_d(v, 1e-5, MPFR_RNDN);
        mpfr_ui_div(v, 125, v, MPFR_RNDD);
        mpfr_div_ui(v, v, 100, MPFR_RNDD);
        mpfr_log(v, v, MPFR_RNDD);
        mpfr_mul_2ui(v, v, 1, MPFR_RNDD);
        mpfr_sqrt(v, v, MPFR_RNDD);
        mpfr_div(v, v, sg, MPFR_RNDD);
        AT("### 3.5", 1, i, 4);
        expect(0, w, rows[i][4], v);
    }
    mpfr_clears(lo, hi, sg, s, d, g, b, a, r, c0, ep, q, v, (mpfr_ptr)0);
    DONE();
}
END_TEST

START_TEST(table_37)
{
    enum { T = 300 };
    row_t rows[MAXR];
    failures = 0;
    int nc = 0, n = table("### 3.7", 0, rows, &nc);
    ck_assert_msg(n == 8 && nc == 7, "3.7: the table (%d rows, %d columns)", n, nc);
    double eta[T];
    mpfr_t e[T], st[T], rho, G, d, one, s1, ep, v, r;
    fr_pdm_eta_paper(eta, T, 1);
    for (int t = 0; t < T; t++) {
        mpfr_inits2(P, e[t], st[t], (mpfr_ptr)0);
        mpfr_set_d(e[t], eta[t], MPFR_RNDN);
    }
    mpfr_inits2(P, rho, G, d, one, s1, ep, v, r, (mpfr_ptr)0);
    mpfr_set_ui(rho, 10, MPFR_RNDN);
    mpfr_set_ui(G, 1, MPFR_RNDN);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_d(d, 1e-5, MPFR_RNDN);
    for (int i = 0; i < n; i++) {
        int dig;
        char w[64];
        ck_assert(num(rows[i][0], v, &dig));
        double eps = mpfr_get_d(v, MPFR_RNDN);
        ck_assert(num(rows[i][1], v, &dig));
        unsigned long Q = (unsigned long)mpfr_get_ui(v, MPFR_RNDN);
        int start = strstr(rows[i][2], "x_0") ? FR_PDM_START_X0 : FR_PDM_START_XI;
        snprintf(w, sizeof w, "3.7 e %g Q %lu %s", eps, Q, start == FR_PDM_START_X0 ? "x_0" : "x_i");
        mpfr_set_d(ep, eps, MPFR_RNDN);
        ck_assert_int_eq(fr_gauss_sigma_analytic(s1, ep, d, one), FR_OK);
        ck_assert_int_eq(fr_fedpdm_path_sens(st, e, T, rho, Q, G, start), FR_OK);
        static const int ts[3] = {0, 24, 299};
        for (int k = 0; k < 3; k++) {
            mpfr_mul(v, st[ts[k]], s1, MPFR_RNDU);
            AT("### 3.7", 0, i, 3 + k);
            expect(1, w, rows[i][3 + k], v);
        }
        /* mu_t = 1/(2 sigma_1^2) every round: the K = N total at sigma_1 */
        mpfr_t sg1;
        mpfr_init2(sg1, P);
        mpfr_set(sg1, s1, MPFR_RNDD);
        total(r, sg1, 0, 100, 64);
        AT("### 3.7", 0, i, 6);
        expect(1, w, rows[i][6], r);
        mpfr_clear(sg1);
    }
    for (int t = 0; t < T; t++) mpfr_clears(e[t], st[t], (mpfr_ptr)0);
    mpfr_clears(rho, G, d, one, s1, ep, v, r, (mpfr_ptr)0);
    DONE();
}
END_TEST

Suite *suite_docs_figures(void)
{
    Suite *s = suite_create("docs_figures");
    TCase *tc = tcase_create("fedpdm");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, grid_13);
    tcase_add_test(tc, audit_block_13);
    tcase_add_test(tc, table_35);
    tcase_add_test(tc, table_37);
    suite_add_tcase(s, tc);
    return s;
}
