/* SPDX-License-Identifier: Apache-2.0 */
/* acct_thm2.c -- vector schema of fedpdm_thm2: 003 (20) as printed,
 * eps_bar = c0 q^2 eps sqrt(p T/(1 - q)), p = K/N (NOT a privacy guarantee:
 * E-003-20).  params c0, eps, K, N, T, q; expect eps_bar.  ref: every
 * operation rounded up at p + 64 bits, then up: within one ulp, 130
 * certified bits.  fast (outward factors 2^-50 per operation): tol rel
 * 2^-45, abs 0 (proved: eight operations, each within (1 + 2^-50)^2).
 * Integers as fedpdm_rdp's. */
#include "acct_common.h"

static const vspec params[] = {{"c0", VK_SCALAR}, {"eps", VK_SCALAR}, {"K", VK_SCALAR}, {"N", VK_SCALAR},
                               {"T", VK_SCALAR}, {"q", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"eps_bar", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ints(double k, double n, double t, unsigned long *K, unsigned long *N, unsigned long *T)
{
    int st = acct_int(k, 0xffffffffffffful, 0, K);
    if (st == FR_OK) st = acct_int(n, 0xffffffffffffful, 0, N);
    if (st == FR_OK) st = acct_int(t, 1ul << 40, 0, T);
    return st;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned long K, N, T;
    int st = ints(acct_d(par, 2), acct_d(par, 3), acct_d(par, 4), &K, &N, &T);
    if (st != FR_OK) return st;
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_fedpdm_thm2(out[0].v[0], par[0].v[0], par[1].v[0], K, N, T, par[5].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned long K, N, T;
    int st = ints(par[2].v[0], par[3].v[0], par[4].v[0], &K, &N, &T);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_fedpdm_thm2(&out[0].v[0], par[0].v[0], par[1].v[0], K, N, T, par[5].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    (void)par;
    *rel = 0x1p-45;
    *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t n, k, t;
    for (int j = 0; j < 6; j++) ft_alloc(&par[j], 1, 1);
    par[0].v[0] = acct_pos(g, -4, 8);
    par[1].v[0] = acct_pos(g, -4, 8);
    frng_below(g, 1000, &n);
    frng_below(g, n + 1, &k);
    frng_below(g, 100000, &t);
    par[2].v[0] = (double)(k + 1);
    par[3].v[0] = (double)(n + 1);
    par[4].v[0] = (double)(t + 1);
    par[5].v[0] = (double)frng_u53(g) * 0x1p-53 * 0.999 + 0x1p-20;
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double c0, double eps, double K,
                double N, double T, double q)
{
    vg_group(g, NULL, (double[]){c0, eps, K, N, T, q});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    one(g, "p T/(1 - q) = 1 (K = 1, N = 4, T = 2, q = 1/2): eps_bar = c0 eps/4 = 3.75", "exact", 0, 3, 5, 1, 4, 2, 0.5);
    one(g, "003 Sec. V, Q = 1: q = b Q/|D_i| = 30/600 = 0.05, K = 5, N = 100, T = 300, c0 = 1, eps = 1", "acct-paper",
        0, 1, 1, 5, 100, 300, 0.05);
    one(g, "003 Sec. V, Q = 5: q = 0.25", "acct-paper", 0, 1, 1, 5, 100, 300, 0.25);
    one(g, "q just below 1", "boundary", 0, 1, 1, 5, 100, 300, 0x1.fffffffffffffp-1);
    one(g, "q = 1 (Q = 20 in the paper): 1 - q = 0, (20) undefined", "domain,boundary", 1, 1, 1, 5, 100, 300, 1);
    one(g, "c0 = 0", "domain,boundary", 1, 0, 1, 5, 100, 300, 0.05);
    one(g, "K > N", "domain", 1, 1, 1, 101, 100, 300, 0.05);
    one(g, "T = 0", "size,boundary", 1, 1, 1, 5, 100, 0, 0.05);
    one(g, "eps = NaN", "nan", 1, 1, NAN, 5, 100, 300, 0.05);
}

const vfunc vfunc_fedpdm_thm2 = {"fedpdm_thm2", "003 (20), Theorem 2 as printed", params, inputs, expects, ref,
                                 fast, tol, golden, sample, 0, 0};
