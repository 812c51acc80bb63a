/* SPDX-License-Identifier: Apache-2.0 */
/* sensitivity.c -- vector schema of fedpdm_sensitivity, the l2 sensitivity
 * (19) of 003 Theorem 1: params eta, rho, Q (an integer), G; no inputs;
 * expect s = 4 eta G sum_{r<Q} |1 - eta rho|^r (both branches of (19)).
 * ref is rounded upward from the exact value (fr_fedpdm_sensitivity);
 * fast returns an upper bound: tol ff_fedpdm_sensitivity_bound (rel 2^-51
 * + (64Q + 64) 2^-106, abs 0; near underflow of eta G rel 2^-50, abs
 * 2^-1070 (S_up + 1)).  Q not an integer >= 0 is passed as 0
 * (FR_EDOM), Q > FR_FEDPDM_Q_MAX as FR_FEDPDM_Q_MAX + 1 (FR_ESIZE), a
 * non-finite Q is FR_ENONFINITE, in both wings alike. */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"eta", VK_SCALAR}, {"rho", VK_SCALAR}, {"Q", VK_SCALAR}, {"G", VK_SCALAR},
                               {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"s", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

/* Q as the functions take it; 1 and *q set, or a status. */
static int q_of(double x, unsigned long *q)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (x > (double)FR_FEDPDM_Q_MAX) *q = FR_FEDPDM_Q_MAX + 1;
    else if (x < 0 || x != floor(x)) *q = 0;
    else *q = (unsigned long)x;
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned long q;
    int st = q_of(mpfr_get_d(par[2].v[0], MPFR_RNDN), &q);     /* exact: a binary64 */
    if (st != FR_OK) return st;
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_fedpdm_sensitivity(out[0].v[0], par[0].v[0], par[1].v[0], q, par[3].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned long q;
    int st = q_of(par[2].v[0], &q);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_fedpdm_sensitivity(&out[0].v[0], par[0].v[0], par[1].v[0], q, par[3].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    unsigned long q;
    if (q_of(par[2].v[0], &q) != FR_OK
        || ff_fedpdm_sensitivity_bound(rel, abs, par[0].v[0], par[1].v[0], q, par[3].v[0]) != FR_OK)
        *rel = *abs = 0;
}

static double pos(frng_t *g, int emin, int span)
{
    uint64_t e;
    frng_below(g, (uint64_t)span, &e);
    return ldexp(1 + (double)frng_u53(g) * 0x1p-53, emin + (int)e);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t q, k;
    for (int j = 0; j < 4; j++) ft_alloc(&par[j], 1, 1);
    par[0].v[0] = pos(g, -12, 14);                 /* eta in [2^-12, 4) */
    frng_below(g, 4, &k);
    if (k == 0)                                    /* eta rho within a few ulps of 2 */
        par[1].v[0] = nextafter(2 / par[0].v[0], (double)(frng_u53(g) & 1) * 8 - 4);
    else
        par[1].v[0] = pos(g, -8, 12);
    frng_below(g, 40, &q);
    par[2].v[0] = (double)(q + 1);
    par[3].v[0] = pos(g, -4, 8);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double eta, double rho,
                double Q, double G)
{
    vg_group(g, NULL, (double[]){eta, rho, Q, G});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    const double e24 = 1 / sqrt(25.0);             /* the schedule at t = 24: fl(1/5) */
    one(g, "the paper (Sec. V): rho = 10, eta^0 = 1, Q = 5, G = 1: a = 9 > 1, s = 4 (9^5 - 1)/8",
        "exact,expansive", 0, 1, 10, 5, 1);
    one(g, "the paper at t = 3: eta = 1/sqrt(4) = 1/2, a = 4, Q = 10, G = 1", "exact,expansive", 0,
        1 / sqrt(4.0), 10, 10, 1);
    one(g, "the paper at t = 24: eta = fl(1/sqrt(25)) = fl(1/5), eta rho = 2 + 2^-52 + ... (not 2 in "
        "binary64 inputs), Q = 10, G = 1", "branch-point", 0, e24, 10, 10, 1);
    one(g, "the paper at t = 99: eta = 1/sqrt(100) = fl(0.1), a = |1 - 10 fl(0.1)| = 2^-54, Q = 10",
        "", 0, 1 / sqrt(100.0), 10, 10, 1);
    one(g, "eta rho = 2 exactly (eta = 1/4, rho = 8): the second branch 4 eta Q G = 10", "exact,branch-point",
        0, 0.25, 8, 10, 1);
    one(g, "eta rho = 2 + 2^-51 (rho = 8 + 2^-49): a = 1 + 2^-51, first branch, 0/0-free", "branch-point",
        0, 0.25, 8 + 0x1p-49, 10, 1);
    one(g, "eta rho = 2 - 2^-52 (rho = 8 - 2^-50, one ulp below 8): a = 1 - 2^-52", "branch-point", 0,
        0.25, nextafter(8, 0), 10, 1);
    one(g, "eta rho = 1 exactly: a = 0, s = 4 eta G for every Q", "exact", 0, 0.125, 8, 7, 3);
    one(g, "eta rho = 2^-60 (tiny): a = 1 - 2^-60, s just below 4 eta Q G", "branch-point", 0, 0x1p-30,
        0x1p-30, 1000, 1);
    one(g, "eta rho = 2^-1000: a = 1 - 2^-1000, s = 2 (64 - 2016 2^-1000) rounded up", "branch-point", 0, 0x1p-500,
        0x1p-500, 64, 0.5);
    one(g, "Q = 1: s = 4 eta G whatever a", "exact", 0, 0.3, 17, 1, 0.7);
    one(g, "G = 0: s = +0", "exact,boundary", 0, 0.3, 17, 9, 0);
    one(g, "G = -0: s = +0", "exact,boundary", 0, 0.3, 17, 9, -0.0);
    one(g, "a = 1/2 (eta rho = 1/2), Q = 53: s = 8 eta G (1 - 2^-53) = 4 - 2^-51", "", 0, 0.5, 1, 53, 1);
    one(g, "generic: eta = 0.01, rho = 10, Q = 5, G = 1", "", 0, 0.01, 10, 5, 1);
    one(g, "a = 3 (eta rho = 4), Q = 600: s = 2 (3^600 - 1) = 3.748e286 (near overflow)", "expansive", 0, 1, 4,
        600, 1);
    one(g, "Q = 65536 = FR_FEDPDM_Q_MAX, a = 1 - 2^-20", "branch-point", 0, 0x1p-10, 0x1p-10, 65536, 1);
    one(g, "eta = 0", "domain,boundary", 1, 0, 10, 5, 1);
    one(g, "rho < 0", "domain", 1, 0.5, -10, 5, 1);
    one(g, "G < 0", "domain", 1, 0.5, 10, 5, -1);
    one(g, "Q = 0", "domain,boundary", 1, 0.5, 10, 0, 1);
    one(g, "Q = 2.5 (not an integer)", "domain", 1, 0.5, 10, 2.5, 1);
    one(g, "Q = 65537 > FR_FEDPDM_Q_MAX", "size", 1, 0.5, 10, 65537, 1);
    one(g, "eta = NaN", "nan", 1, NAN, 10, 5, 1);
    one(g, "rho = +Inf", "inf", 1, 0.5, INFINITY, 5, 1);
    one(g, "G = -Inf", "inf", 1, 0.5, 10, 5, -INFINITY);
}

const vfunc vfunc_fedpdm_sensitivity = {"fedpdm_sensitivity", "003 (19), Theorem 1", params, inputs,
                                        expects, ref, fast, tol, golden, sample, 0, 0};
