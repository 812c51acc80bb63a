/* SPDX-License-Identifier: Apache-2.0 */
/* laplace_scale.c -- vector schema of laplace_scale, the Laplace scale of
 * 002 eq. (27): params eps, Delta (the l1 sensitivity), mu; no inputs;
 * expect scale = Delta / (eps mu).  ref is correctly rounded (RNDN); the
 * fast value is the least binary64 above it: tol ff_laplace_scale_upper_bound
 * (fedfast/fedepm.h). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"eps", VK_SCALAR}, {"Delta", VK_SCALAR}, {"mu", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"scale", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_laplace_scale(out[0].v[0], par[1].v[0], par[0].v[0], par[2].v[0], MPFR_RNDN);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_laplace_scale_upper(&out[0].v[0], par[1].v[0], par[0].v[0], par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    if (ff_laplace_scale_upper_bound(rel, abs, par[1].v[0], par[0].v[0], par[2].v[0]) != FR_OK)
        *rel = *abs = 0;                 /* not a valid case: no tolerance */
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    for (int k = 0; k < 3; k++) {
        uint64_t e;
        ft_alloc(&par[k], 1, 1);
        frng_below(g, 40, &e);
        par[k].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 20);
    }
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double eps, double Delta, double mu)
{
    vg_group(g, NULL, (double[]){eps, Delta, mu});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    one(g, "the experiments: eps = 0.1, mu_{i,0} = 0.05, Delta = 1", "", 0, 0.1, 1, 0.05);
    one(g, "mu_{i,k+1} = 0.05 * 1.001^1 (k = 0, w_i^0 = w)", "", 0, 0.1, 1, 0.05005);
    one(g, "exact: 3 / (0.5 * 0.25) = 24", "exact", 0, 0.5, 3, 0.25);
    one(g, "eps = 0.9, Delta = 2 ||g||_1 = 0.0123", "", 0, 0.9, 0.0123, 0.05);
    one(g, "eps mu = 2^-1060 (subnormal, exact) and Delta = 2^-1040: the scale is 2^20",
        "underflow", 0, 0x1p-1000, 0x1p-1040, 0x1p-60);
    one(g, "eps = 0 (epsilon-DP needs eps > 0)", "domain,boundary", 1, 0, 1, 1);
    one(g, "Delta = 0 (a sensitivity of 0 means no noise: not a Laplace scale)", "domain,boundary", 1, 1, 0, 1);
    one(g, "negative mu", "domain", 1, 1, 1, -0.5);
    one(g, "NaN eps", "nan", 1, NAN, 1, 1);
    one(g, "infinite Delta", "inf", 1, 1, INFINITY, 1);
}

const vfunc vfunc_laplace_scale = {"laplace_scale", "002 eq. (27)", params, inputs, expects, ref, fast, tol,
                                   golden, sample, 0, 0};
