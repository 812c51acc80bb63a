/* SPDX-License-Identifier: Apache-2.0 */
/* acct_compose.c -- vector schema of fedpdm_compose: T releases of one
 * Gaussian mechanism (s, sigma) composed without subsampling, total delta =
 * delta: basic = T eps_0(delta/T), adv = sqrt(2T ln(2/delta)) eps_1 + T
 * eps_1 (e^eps_1 - 1), eps_1 = eps_0(delta/(2T)) (Dwork & Roth Thm 3.20).
 * params sigma, s, T (an integer), delta; expect basic, adv.  ref is an
 * upper bound within one ulp at the generator's precision (every operation
 * rounded up at p + 64 bits, eps_0 RU): 130 certified bits.  An
 * implementation returns upper bounds: not below expected (1 - 2^-130), at
 * most tol above; fast: tol rel 2^-28 (EMPIRICAL: eps_0's 2^-30 amplified by
 * the formula's few operations), abs 2^-1050 (fast's outward factors add
 * 2^-1060 per operation: s = 0 gives a few subnormals, not 0).  T not an integer >= 1 is passed
 * as 0 and T > 2^40 as 2^40 + 1 (FR_ESIZE in both wings). */
#include "acct_common.h"

static const vspec params[] = {{"sigma", VK_SCALAR}, {"s", VK_SCALAR}, {"T", VK_SCALAR}, {"delta", VK_SCALAR},
                               {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"basic", VK_SCALAR, .cmp = VC_UPPER}, {"adv", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

#define TBIG (1ul << 40)

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned long T;
    int st = acct_int(acct_d(par, 2), TBIG, 0, &T);
    if (st != FR_OK) return st;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_fedpdm_compose(out[0].v[0], out[1].v[0], par[0].v[0], par[1].v[0], T, par[3].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned long T;
    int st = acct_int(par[2].v[0], TBIG, 0, &T);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    return ff_fedpdm_compose(&out[0].v[0], &out[1].v[0], par[0].v[0], par[1].v[0], T, par[3].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    (void)par;
    *rel = 0x1p-28;
    *abs = 0x1p-1050;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t t;
    for (int k = 0; k < 4; k++) ft_alloc(&par[k], 1, 1);
    par[0].v[0] = acct_pos(g, -2, 7);
    par[1].v[0] = acct_pos(g, -2, 4);
    frng_below(g, 1000, &t);
    par[2].v[0] = (double)(t + 1);
    par[3].v[0] = acct_pos(g, -34, 30);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double sigma, double s, double T,
                double delta)
{
    vg_group(g, NULL, (double[]){sigma, s, T, delta});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    static const double E[4] = {0.1, 1, 7, 10};
    char c[160];
    for (int k = 0; k < 4; k++) {
        snprintf(c, sizeof c, "003 Sec. V: T = 300 releases, s = 1, delta = 1e-5, sigma of (5) at eps = %g", E[k]);
        one(g, c, "acct-paper", 0, sqrt(2 * log(1.25 / 1e-5)) / E[k], 1, 300, 1e-5);
    }
    one(g, "T = 1: basic = eps_0(delta)", "boundary", 0, 2, 1, 1, 1e-5);
    one(g, "s = 0: both +0", "acct-eps-zero,exact,boundary", 0, 1, 0, 10, 1e-5);
    one(g, "T = 10^6", "", 0, 50, 1, 1e6, 1e-6);
    one(g, "T = 0", "size,boundary", 1, 1, 1, 0, 1e-5);
    one(g, "T = 2.5 (not an integer)", "size", 1, 1, 1, 2.5, 1e-5);
    one(g, "T = 2^40 + 1", "size", 1, 1, 1, 0x1p40 + 1, 1e-5);
    one(g, "delta = 1", "domain,boundary", 1, 1, 1, 5, 1);
    one(g, "sigma = -1", "domain", 1, -1, 1, 5, 1e-5);
    one(g, "delta = NaN", "nan", 1, 1, 1, 5, NAN);
}

const vfunc vfunc_fedpdm_compose = {"fedpdm_compose", "003: basic and advanced composition of T Gaussian releases",
                                    params, inputs, expects, ref, fast, tol, golden, sample, 300, 0, 3};
