/* SPDX-License-Identifier: Apache-2.0 */
/* dp_compose_tight.c -- vector schema of dp_compose_tight, the optimal
 * composition of a client's pure eps_j-DP uploads (docs/DP.md section 5:
 * randomized-response domination, Kairouz-Oh-Viswanath 2015; each eps_j
 * rounded up to the grid that section defines): param delta; input eps
 * (the per-upload losses, >= 0 or +Inf); expect eps, the least e with the
 * grid composition's delta(e) <= delta, never above sum_j eps_j.  An upper
 * bound: a value below expected (1 - 2^-130) fails; fast
 * (ff_dp_compose_tight_upper) at most rel 2^-30 above (EMPIRICAL: fast is
 * within 2e-13 of ref on the golden cases).  An implementation with
 * another grid is a different (valid or not) bound: it must use the grid
 * of docs/DP.md section 5 to match. */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"delta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"eps", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"eps", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_dp_compose_tight(out[0].v[0], in[0].v, in[0].cols, par[0].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, 1) != 0) return FR_ENOMEM;
    return ff_dp_compose_tight_upper(&out[0].v[0], in[0].v, in[0].cols, par[0].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par;
    (void)in;
    *rel = 0x1p-30;
    *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t n, e;
    ft_alloc(&par[0], 1, 1);
    frng_below(g, 30, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -2 - (int)e);
    frng_below(g, 12, &n);
    ft_alloc(&in[0], 1, (size_t)n + 1);
    for (size_t j = 0; j <= n; j++) {
        frng_below(g, 8, &e);
        in[0].v[j] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 6);
    }
}

static void golden(vgen *g)
{
    double e100[100], e40[40];
    for (int j = 0; j < 100; j++) e100[j] = 0.1;
    for (int j = 0; j < 40; j++) e40[j] = 0.05 + 0.0125 * (j % 4);
    vg_group(g, "delta = 1e-5", (double[]){1e-5});
    vg_vec(g, "one upload at eps = 1: 1 + ln(1 - delta (1 + 1/e)), randomized response", "", 0, 1,
           (double[]){1});
    vg_vec(g, "100 uploads at eps = 0.1 (Kairouz-Oh-Viswanath's optimum; advanced: 5.851)", "", 0, 100, e100);
    vg_vec(g, "40 uploads at 0.05, 0.0625, 0.075, 0.0875 (four binomial groups on one grid)", "", 0, 40, e40);
    vg_vec(g, "3 uploads at 1/80 and 3 at 1/40 (fedref dp laplace --scale 40,20 --sensitivity 0.5 "
           "--uploads 3)", "", 0, 6, (double[]){0.0125, 0.025, 0.0125, 0.025, 0.0125, 0.025});
    vg_vec(g, "unequal losses 1/2, 1, 2, 0.3", "", 0, 4, (double[]){0.5, 1, 2, 0.3});
    vg_vec(g, "the initial upload (loss 0) and two at 0.25", "", 0, 3, (double[]){0, 0.25, 0.25});
    vg_vec(g, "every loss 0: +0", "exact,boundary", 0, 2, (double[]){0, 0});
    vg_vec(g, "an unbounded loss: +Inf", "", 0, 3, (double[]){0, 0.5, INFINITY});
    vg_group(g, "delta = 0.5: the total variation is below delta, eps = +0", (double[]){0.5});
    vg_vec(g, "two uploads at 2^-10", "exact", 0, 2, (double[]){0x1p-10, 0x1p-10});
    vg_group(g, "invalid: delta = 0", (double[]){0});
    vg_vec(g, "delta = 0", "domain,boundary", 1, 1, (double[]){0.1});
    vg_group(g, "invalid: delta = 1", (double[]){1});
    vg_vec(g, "delta = 1", "domain,boundary", 1, 1, (double[]){0.1});
    vg_group(g, "invalid inputs, delta = 1e-5", (double[]){1e-5});
    vg_vec(g, "a negative loss", "domain", 1, 2, (double[]){0.1, -0.1});
    vg_vec(g, "a NaN loss", "nan", 1, 2, (double[]){0.1, NAN});
    vg_vec(g, "a loss of -Inf", "inf", 1, 1, (double[]){-INFINITY});
    vg_vec(g, "no upload", "size", 1, 0, (double[]){0});
    vg_group(g, "invalid: delta NaN", (double[]){NAN});
    vg_vec(g, "delta = NaN", "nan", 1, 1, (double[]){0.1});
}

const vfunc vfunc_dp_compose_tight = {"dp_compose_tight",
                                      "docs/DP.md section 5 (optimal composition of pure uploads)",
                                      params, inputs, expects, ref, fast, tol, golden, sample, 200, 0};
