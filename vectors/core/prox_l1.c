/* SPDX-License-Identifier: Apache-2.0 */
/* prox_l1.c -- vector schema of prox_l1 (003 eq. (13), h = gamma||.||_1):
 * params gamma, rho; input u; expect x.  tol: ff_prox_l1_bound
 * (fedfast/core.h). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"gamma", VK_SCALAR}, {"rho", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"u", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"x", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, in[0].cols, prec) != 0) return FR_ENOMEM;
    return fr_prox_l1(out[0].v, in[0].v, in[0].cols, par[0].v[0], par[1].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, in[0].cols) != 0) return FR_ENOMEM;
    return ff_prox_l1(out[0].v, in[0].v, in[0].cols, par[0].v[0], par[1].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    if (ff_prox_l1_bound(rel, abs, in[0].v, in[0].cols, par[0].v[0], par[1].v[0]) != FR_OK)
        *rel = *abs = 0;                 /* not a valid case: no tolerance */
}

static void golden(vgen *g)
{
    vg_group(g, "gamma = 1, rho = 4: threshold 1/4", (double[]){1, 4});
    vg_vec(g, "the three branches", "", 0, 5, (double[]){1, -1, 0.125, -0.125, 0});
    vg_vec(g, "rho |u| = gamma exactly: the kink", "kink", 0, 2, (double[]){0.25, -0.25});
    vg_vec(g, "one ulp outside the kink", "kink,cancellation", 0, 2,
           (double[]){nextafter(0.25, 1), -nextafter(0.25, 1)});
    vg_group(g, "gamma = 1, rho = 3: threshold 1/3 is not a binary64 number", (double[]){1, 3});
    double u[10];
    for (int i = 0; i < 10; i++) u[i] = vg_dyadic(g, 10);
    vg_vec(g, "random dyadic inputs", "random", 0, 10, u);
    vg_vec(g, "closest binary64 values to the threshold 1/3", "kink,cancellation", 0, 4,
           (double[]){0x1.5555555555555p-2, 0x1.5555555555556p-2, -0x1.5555555555555p-2, -0x1.5555555555556p-2});
    vg_group(g, "gamma = 0: the identity", (double[]){0, 2});
    vg_vec(g, "gamma = 0", "identity,boundary", 0, 3, (double[]){1.5, -2, 0});
    vg_group(g, "gamma = 0.5, rho = 2^-1000: threshold 2^999", (double[]){0.5, 0x1p-1000});
    vg_vec(g, "rho tiny, huge threshold", "overflow", 0, 3, (double[]){0x1p1000, -0x1.8p999, 1});
    vg_group(g, "gamma = 3, rho = 2^1000: rho u overflows", (double[]){3, 0x1p1000});
    vg_vec(g, "rho |u| overflows binary64", "overflow", 0, 2, (double[]){0x1p100, -0x1p-990});
    vg_group(g, "rho = 0", (double[]){1, 0});
    vg_vec(g, "rho = 0 is outside rho > 0", "domain,boundary", 1, 1, (double[]){1});
    vg_group(g, "rho < 0", (double[]){1, -2});
    vg_vec(g, "negative rho", "domain", 1, 1, (double[]){1});
    vg_group(g, "gamma < 0", (double[]){-1, 2});
    vg_vec(g, "negative gamma", "domain", 1, 1, (double[]){1});
    vg_group(g, "gamma = NaN", (double[]){NAN, 2});
    vg_vec(g, "NaN gamma", "nan", 1, 1, (double[]){1});
    vg_group(g, "gamma = 1, rho = 1, bad inputs", (double[]){1, 1});
    vg_vec(g, "inf in u", "inf", 1, 2, (double[]){INFINITY, 0});
    vg_vec(g, "empty u", "size", 1, 0, (double[]){0});
}

const vfunc vfunc_prox_l1 = {"prox_l1", "003 eq. (13), (A.1)", params, inputs, expects, ref, fast, tol, golden, NULL, 0, 0};
