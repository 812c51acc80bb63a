/* SPDX-License-Identifier: Apache-2.0 */
/* gauss_sigma_classical.c -- vector schema of gauss_sigma_classical, the
 * noise variance of 003 (5) = (18): params eps, delta, s (the L2
 * sensitivity); no inputs; expect sigma2 = 2 s^2 ln(1.25/delta) / eps^2.
 * ref is rounded up (RU at the generator's precision: the exact value lies
 * in the generator's bracket, certified 130 bits); fast is an upper bound:
 * tol ff_gauss_sigma2_classical_upper_bound (rel 2^-47, abs 2^-1073,
 * proved in fast/fedpdm/gauss.c). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"eps", VK_SCALAR}, {"delta", VK_SCALAR}, {"s", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"sigma2", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_gauss_sigma2_classical(out[0].v[0], par[0].v[0], par[1].v[0], par[2].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_gauss_sigma2_classical_upper(&out[0].v[0], par[0].v[0], par[1].v[0], par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    if (ff_gauss_sigma2_classical_upper_bound(rel, abs, par[0].v[0], par[1].v[0], par[2].v[0]) != FR_OK)
        *rel = *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t e;
    for (int k = 0; k < 3; k++) ft_alloc(&par[k], 1, 1);
    frng_below(g, 20, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 10);
    frng_below(g, 60, &e);
    par[1].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -(int)e - 2);
    frng_below(g, 20, &e);
    par[2].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 10);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double eps,
                double delta, double s)
{
    vg_group(g, NULL, (double[]){eps, delta, s});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    static const double E[] = {0.1, 0.5, 1, 2, 7, 10, 20, 30};
    char c[120];
    for (int k = 0; k < 8; k++) {
        snprintf(c, sizeof c, "003 Sec. V: delta = 1e-5, eps = %g, s = 1", E[k]);
        one(g, c, E[k] >= 1 ? "gauss-paper,gauss-eps-ge-1" : "gauss-paper", 0, E[k], 1e-5, 1);
    }
    one(g, "eps = 0.01, delta = 0.2, s = 3", "", 0, 0.01, 0.2, 3);
    one(g, "tiny delta 1e-300", "gauss-tiny-delta", 0, 1, 1e-300, 1);
    one(g, "subnormal delta 2^-1074: 1.25/delta overflows binary64", "gauss-tiny-delta,underflow,overflow", 0, 1, 0x1p-1074, 1);
    one(g, "large eps 700", "gauss-large-eps,gauss-eps-ge-1", 0, 700, 1e-5, 1);
    one(g, "tiny eps 2^-40: sigma2 near 2^82", "", 0, 0x1p-40, 1e-5, 1);
    one(g, "tiny s 2^-600: s^2 underflows binary64, sigma2 = 1.4e-360 is below binary64 (fast: 2^-1074)", "underflow", 0, 1, 1e-5, 0x1p-600);
    one(g, "s = 0: sigma2 = 0", "gauss-s0,boundary", 0, 1, 1e-5, 0);
    one(g, "delta close to 1 (1 - 2^-53)", "boundary", 0, 1, 1 - 0x1p-53, 1);
    one(g, "eps = 0", "domain,boundary", 1, 0, 1e-5, 1);
    one(g, "eps < 0", "domain", 1, -1, 1e-5, 1);
    one(g, "delta = 0 (pure DP: no Gaussian sigma)", "domain,boundary", 1, 1, 0, 1);
    one(g, "delta = 1", "domain,boundary", 1, 1, 1, 1);
    one(g, "delta > 1", "domain", 1, 1, 2, 1);
    one(g, "s < 0", "domain", 1, 1, 1e-5, -1);
    one(g, "NaN eps", "nan", 1, NAN, 1e-5, 1);
    one(g, "infinite s", "inf", 1, 1, 1e-5, INFINITY);
    one(g, "NaN delta", "nan", 1, 1, NAN, 1);
}

const vfunc vfunc_gauss_sigma_classical = {"gauss_sigma_classical", "003 eq. (5)/(18)", params, inputs, expects, ref, fast, tol,
                                           golden, sample, 0, 0};
