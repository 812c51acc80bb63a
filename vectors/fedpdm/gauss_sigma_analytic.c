/* SPDX-License-Identifier: Apache-2.0 */
/* gauss_sigma_analytic.c -- vector schema of gauss_sigma_analytic, the
 * least noise sigma of the Gaussian mechanism for (eps, delta)-DP (Balle &
 * Wang 2018, Thm 8; docs/FEDPDM.md): params eps, delta, s; no inputs;
 * expect sigma, the root of Phi(s/(2 sigma) - eps sigma/s) - e^eps
 * Phi(-s/(2 sigma) - eps sigma/s) = delta.  ref is RU at the generator's
 * precision (every comparison certified by an enclosure), so the exact
 * root lies in the generator's bracket: 130 certified bits.  fast is never
 * below the root; tol rel 2^-26 is EMPIRICAL (measured: <= 2e-9 on these
 * cases and the sweep), abs 0. */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"eps", VK_SCALAR}, {"delta", VK_SCALAR}, {"s", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"sigma", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_gauss_sigma_analytic(out[0].v[0], par[0].v[0], par[1].v[0], par[2].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_gauss_sigma_analytic_upper(&out[0].v[0], par[0].v[0], par[1].v[0], par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    double e = par[0].v[0], d = par[1].v[0], s = par[2].v[0];
    int ok = isfinite(e) && isfinite(d) && isfinite(s) && e > 0 && d > 0 && d < 1 && s >= 0;
    *rel = ok ? 0x1p-26 : 0;
    *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    uint64_t e;
    for (int k = 0; k < 3; k++) ft_alloc(&par[k], 1, 1);
    frng_below(g, 18, &e);
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
    one(g, "tiny delta 1e-300, eps = 0.01", "gauss-tiny-delta", 0, 0.01, 1e-300, 1);
    one(g, "large eps 700 (e^eps near DBL_MAX)", "gauss-large-eps,gauss-eps-ge-1", 0, 700, 1e-5, 1);
    one(g, "eps 750: e^eps overflows binary64", "gauss-large-eps,gauss-eps-ge-1,overflow", 0, 750, 1e-5, 1);
    one(g, "tiny eps 2^-30", "", 0, 0x1p-30, 1e-5, 1);
    one(g, "s = 2^-500 (sigma scales with s)", "underflow", 0, 1, 1e-5, 0x1p-500);
    one(g, "s = 0: sigma = 0", "gauss-s0,boundary", 0, 1, 1e-5, 0);
    one(g, "delta = 0.5", "", 0, 1, 0.5, 1);
    one(g, "eps = 0", "domain,boundary", 1, 0, 1e-5, 1);
    one(g, "delta = 0 (no finite sigma)", "domain,boundary", 1, 1, 0, 1);
    one(g, "delta = 1", "domain,boundary", 1, 1, 1, 1);
    one(g, "s < 0", "domain", 1, 1, 1e-5, -1);
    one(g, "NaN delta", "nan", 1, 1, NAN, 1);
    one(g, "infinite eps", "inf", 1, INFINITY, 1e-5, 1);
}

const vfunc vfunc_gauss_sigma_analytic = {"gauss_sigma_analytic", "003 (4) with Balle & Wang Thm 8", params, inputs, expects, ref, fast, tol,
                                          golden, sample, 200, 0, 2};
