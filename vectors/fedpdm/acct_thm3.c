/* SPDX-License-Identifier: Apache-2.0 */
/* acct_thm3.c -- vector schema of fedpdm_thm3: the parameter validator of
 * 003 Lemma 2 / Theorem 3 (fedref/fedpdm.h): params L, rho, N; expect b
 * (B1..B8), theta1, theta2, C0 and the eight failure bits as booleans
 * (l_low, l_high, empty, undef, b2_nonpos, b3_nonpos, b8_nonpos,
 * theta1_nonpos).  ref: every value correctly rounded from the exact
 * rational, every bit decided exactly: 130 certified bits; NaN under UNDEF
 * (b[2], b[7], theta2, C0 -- and theta1 -- must be NaN), +Inf for C0 when
 * theta1 = 0.  fast evaluates B1..B8 as printed: tol abs = max_k berr[k]
 * (ff_fedpdm_thm3_bound, proved) and rel = e/|theta1| + e/|theta2| + 2^-50
 * with e = that maximum (C0 = theta2/theta1: the relative errors of its
 * two operands add; the b_k need only the abs part); the booleans must
 * match exactly: the golden cases keep every b_k farther from 0 than its
 * bound (fast's B3/B8/THETA1 bits are conservative there only). */
#include "acct_common.h"

static const vspec params[] = {{"L", VK_SCALAR}, {"rho", VK_SCALAR}, {"N", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"b", VK_VECTOR}, {"theta1", VK_SCALAR}, {"theta2", VK_SCALAR}, {"C0", VK_SCALAR},
                                {"l_low", VK_BOOL}, {"l_high", VK_BOOL}, {"empty", VK_BOOL}, {"undef", VK_BOOL},
                                {"b2_nonpos", VK_BOOL}, {"b3_nonpos", VK_BOOL}, {"b8_nonpos", VK_BOOL},
                                {"theta1_nonpos", VK_BOOL}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned long N;
    int st = acct_int(acct_d(par, 2), FR_COUNT_MAX, 0, &N);
    if (st != FR_OK) return st;
    fr_fedpdm_thm3_consts o;
    mpfr_ptr all[11];
    for (int k = 0; k < 8; k++) all[k] = o.b[k];
    all[8] = o.theta1; all[9] = o.theta2; all[10] = o.C0;
    for (int k = 0; k < 11; k++) mpfr_init2(all[k], prec);
    st = fr_fedpdm_thm3(&o, par[0].v[0], par[1].v[0], N);
    if (st == FR_OK) {
        if (rt_alloc(&out[0], 1, 8, prec) != 0) st = FR_ENOMEM;
        for (int k = 1; k < 12 && st == FR_OK; k++)
            if (rt_alloc(&out[k], 1, 1, prec) != 0) st = FR_ENOMEM;
    }
    if (st == FR_OK) {
        for (int k = 0; k < 8; k++) mpfr_set(out[0].v[k], o.b[k], MPFR_RNDN);
        mpfr_set(out[1].v[0], o.theta1, MPFR_RNDN);
        mpfr_set(out[2].v[0], o.theta2, MPFR_RNDN);
        mpfr_set(out[3].v[0], o.C0, MPFR_RNDN);
        for (int k = 0; k < 8; k++) mpfr_set_ui(out[4 + k].v[0], (o.fail >> k) & 1u, MPFR_RNDN);
    }
    for (int k = 0; k < 11; k++) mpfr_clear(all[k]);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned long N;
    int st = acct_int(par[2].v[0], FR_COUNT_MAX, 0, &N);
    if (st != FR_OK) return st;
    ff_fedpdm_thm3_consts o;
    st = ff_fedpdm_thm3(&o, par[0].v[0], par[1].v[0], N);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 8) != 0) return FR_ENOMEM;
    for (int k = 1; k < 12; k++)
        if (ft_alloc(&out[k], 1, 1) != 0) return FR_ENOMEM;
    for (int k = 0; k < 8; k++) out[0].v[k] = o.b[k];
    out[1].v[0] = o.theta1;
    out[2].v[0] = o.theta2;
    out[3].v[0] = o.C0;
    for (int k = 0; k < 8; k++) out[4 + k].v[0] = (double)((o.fail >> k) & 1u);
    return FR_OK;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    unsigned long N;
    double berr[8];
    ff_fedpdm_thm3_consts o;
    *rel = *abs = 0;
    if (acct_int(par[2].v[0], FR_COUNT_MAX, 0, &N) != FR_OK || ff_fedpdm_thm3_bound(berr, par[0].v[0], par[1].v[0], N) != FR_OK
        || ff_fedpdm_thm3(&o, par[0].v[0], par[1].v[0], N) != FR_OK)
        return;
    double e = 0;
    for (int k = 0; k < 8; k++)
        if (berr[k] > e) e = berr[k];           /* NaN entries (UNDEF) are skipped */
    *abs = e;
    double r = 0x1p-50;
    if (isfinite(o.theta1) && o.theta1 != 0) r += e / fabs(o.theta1);
    if (isfinite(o.theta2) && o.theta2 != 0) r += e / fabs(o.theta2);
    *rel = r * (1 + 0x1p-40);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t n;
    for (int j = 0; j < 3; j++) ft_alloc(&par[j], 1, 1);
    par[0].v[0] = acct_pos(g, -4, 8);
    par[1].v[0] = acct_pos(g, -2, 8);
    frng_below(g, 1000, &n);
    par[2].v[0] = (double)(n + 1);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double L, double rho, double N)
{
    vg_group(g, NULL, (double[]){L, rho, N});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    one(g, "003 Sec. V: rho = 10, N = 100, L = 0.48 (in [2 sqrt 5 - 4, 1/2): B3 < 0, theta1 < 0)", "thm3-fails", 0, 0.48, 10, 100);
    one(g, "rho = 10, N = 100, L = 2 (<= rho/4 = 2.5): every condition holds", "conditions-hold", 0, 2, 10, 100);
    one(g, "L = 1/2: 4L - 2 = 0, B3, B8 undefined (NaN, and theta1, theta2, C0)", "thm3-undef,thm3-fails", 0, 0.5, 10, 100);
    one(g, "L = rho/4 = 2.5: B2 = 0 exactly, theta1 = 0, C0 = +Inf", "thm3-fails,condition-edge", 0, 2.5, 10, 100);
    one(g, "L = 3 > rho/4: B2 < 0", "thm3-fails", 0, 3, 10, 100);
    one(g, "L = 0.1 < 2 sqrt 5 - 4 (L_LOW)", "thm3-fails", 0, 0.1, 10, 100);
    one(g, "rho = 1 < 4 (2 sqrt 5 - 4): no admissible L (EMPTY)", "thm3-fails", 0, 0.2, 1, 100);
    one(g, "N = 1, rho = 100, L = 5", "conditions-hold,boundary", 0, 5, 100, 1);
    one(g, "L = 0", "domain,boundary", 1, 0, 10, 100);
    one(g, "rho < 0", "domain", 1, 1, -10, 100);
    one(g, "N = 0", "size,boundary", 1, 1, 10, 0);
    one(g, "L = NaN", "nan", 1, NAN, 10, 100);
}

const vfunc vfunc_fedpdm_thm3 = {"fedpdm_thm3", "003 Lemma 2 / Theorem 3 (Appendix B): B1..B8, theta1, theta2, C0",
                                 params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
