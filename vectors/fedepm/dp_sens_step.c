/* SPDX-License-Identifier: Apache-2.0 */
/* dp_sens_step.c -- vector schema of dp_sens_step, one step of the l1
 * sensitivity recursion of a FedEPM client's state under (20)
 * (docs/FEDEPM.md section 9; E-002-V1): params eta, mu, Delta; input
 * delta (a vector of sensitivities, each stepped on its own); expect
 * delta_next_j = (mu delta_j + Delta) / (eta + mu).  ref is correctly
 * rounded (fr_dp_sens_step, MPFR_RNDN); fast returns an upper bound
 * (ff_dp_sens_step_upper): tol is ff_dp_sens_step_upper_bound's (rel
 * 2^-49, abs 2^-1071/(eta + mu) + 2^-1073). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"eta", VK_SCALAR}, {"mu", VK_SCALAR}, {"Delta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"delta", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"delta_next", VK_VECTOR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    const size_t n = in[0].cols;
    if (rt_alloc(&out[0], 1, n, prec) != 0) return FR_ENOMEM;
    int st = n == 0 ? FR_ESIZE : FR_OK;
    for (size_t j = 0; j < n && st == FR_OK; j++)
        st = fr_dp_sens_step(out[0].v[j], in[0].v[j], par[2].v[0], par[0].v[0], par[1].v[0], MPFR_RNDN);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    const size_t n = in[0].cols;
    if (ft_alloc(&out[0], 1, n) != 0) return FR_ENOMEM;
    int st = n == 0 ? FR_ESIZE : FR_OK;
    for (size_t j = 0; j < n && st == FR_OK; j++)
        st = ff_dp_sens_step_upper(&out[0].v[j], in[0].v[j], par[2].v[0], par[0].v[0], par[1].v[0]);
    return st;
}

/* The largest bound over the entries (the proved ff_dp_sens_step_upper_bound). */
static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    *rel = *abs = 0;
    for (size_t j = 0; j < in[0].cols; j++) {
        double r, a;
        if (ff_dp_sens_step_upper_bound(&r, &a, in[0].v[j], par[2].v[0], par[0].v[0], par[1].v[0]) == FR_OK) {
            *rel = fmax(*rel, r);
            *abs = fmax(*abs, a);
        }
    }
}

static double pos(frng_t *g, int emin, int span)
{
    uint64_t e;
    frng_below(g, (uint64_t)span, &e);
    return ldexp(1 + (double)frng_u53(g) * 0x1p-53, emin + (int)e);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t n;
    for (int k = 0; k < 3; k++) ft_alloc(&par[k], 1, 1);
    par[0].v[0] = pos(g, -20, 24);
    par[1].v[0] = pos(g, -12, 24);
    par[2].v[0] = pos(g, -10, 14);
    frng_below(g, 4, &n);
    ft_alloc(&in[0], 1, (size_t)n + 1);
    for (size_t j = 0; j <= n; j++) in[0].v[j] = pos(g, -10, 30);
}

static void golden(vgen *g)
{
    const double eta = (0.02 * 50 + 1) * (0.5 + 0.1) * 1e-5;    /* m = 50, rho = 1/2 */
    /* eta, mu, Delta */
    vg_group(g, "the paper's constants (m = 50, rho = 1/2): eta = 1.2e-5, mu_{i,1} = 0.05 * 1.001, "
             "Delta = 1/2 (a label flip with x = (1, 1), d_i = 2)", (double[]){eta, 0.05 * 1.001, 0.5});
    vg_vec(g, "delta = 0: the first update of a block that starts from a data-independent state "
           "gives Delta/(eta + mu), E-002-39's one-step bound", "", 0, 1, (double[]){0});
    vg_vec(g, "delta = 9.98, about the state's sensitivity after one update: the second update "
           "nearly doubles it (E-002-V1)", "", 0, 1, (double[]){9.98});
    vg_vec(g, "delta = Delta/eta, the fixed point for a constant mu", "", 0, 1, (double[]){0.5 / eta});
    vg_group(g, "exact: eta = mu = 1, Delta = 1", (double[]){1, 1, 1});
    vg_vec(g, "(delta + 1)/2 for delta = 0, 1, 3, 2^-60", "exact", 0, 4, (double[]){0, 1, 3, 0x1p-60});
    vg_group(g, "Delta = 0 (no data dependence)", (double[]){0.5, 1.5, 0});
    vg_vec(g, "delta = 0 stays 0; mu delta/(eta + mu) contracts", "boundary", 0, 2, (double[]){0, 1});
    vg_group(g, "eta + mu and mu delta far apart: eta = 2^-1000, mu = 2^-1010", (double[]){0x1p-1000, 0x1p-1010, 0x1p-1020});
    vg_vec(g, "tiny weights, results of order 2^-20", "underflow", 0, 2, (double[]){0x1p-30, 0});
    vg_group(g, "invalid: eta = 0 (002 (8) needs eta > 0)", (double[]){0, 1, 1});
    vg_vec(g, "eta = 0", "domain,boundary", 1, 1, (double[]){1});
    vg_group(g, "invalid: mu = 0", (double[]){1, 0, 1});
    vg_vec(g, "mu = 0", "domain,boundary", 1, 1, (double[]){1});
    vg_group(g, "invalid: Delta < 0", (double[]){1, 1, -1});
    vg_vec(g, "Delta = -1 (a sensitivity is >= 0)", "domain", 1, 1, (double[]){1});
    vg_group(g, "invalid inputs", (double[]){1, 1, 1});
    vg_vec(g, "delta = -1", "domain", 1, 1, (double[]){-1});
    vg_vec(g, "delta = NaN", "nan", 1, 1, (double[]){NAN});
    vg_vec(g, "delta = +Inf", "inf", 1, 1, (double[]){INFINITY});
    vg_vec(g, "no delta", "size", 1, 0, (double[]){0});
    vg_group(g, "invalid: Delta NaN", (double[]){1, 1, NAN});
    vg_vec(g, "Delta = NaN", "nan", 1, 1, (double[]){1});
}

const vfunc vfunc_dp_sens_step = {"dp_sens_step", "docs/FEDEPM.md section 9 (002 (20), (26); E-002-V1)",
                                  params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
