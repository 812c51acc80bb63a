/* SPDX-License-Identifier: Apache-2.0 */
/* soft.c -- vector schema of soft (002 eq. (2)-(3)): params a; input t;
 * expect soft.  tol: ff_soft_bound (fedfast/core.h). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"a", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"t", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"soft", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, in[0].cols, prec) != 0) return FR_ENOMEM;
    return fr_soft(out[0].v, in[0].v, in[0].cols, par[0].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, in[0].cols) != 0) return FR_ENOMEM;
    return ff_soft(out[0].v, in[0].v, in[0].cols, par[0].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    if (ff_soft_bound(rel, abs, in[0].v, in[0].cols, par[0].v[0]) != FR_OK)
        *rel = *abs = 0;                 /* not a valid case: no tolerance */
}

static void golden(vgen *g)
{
    vg_group(g, "a = 1", (double[]){1});
    vg_vec(g, "the three branches (2)", "", 0, 5, (double[]){3, -3, 0.5, -0.5, 0});
    vg_vec(g, "|t| = a exactly: the kink gives 0", "kink", 0, 2, (double[]){1, -1});
    vg_vec(g, "one ulp either side of the kink", "kink,boundary", 0, 4,
           (double[]){nextafter(1, 2), nextafter(1, 0), -nextafter(1, 2), -nextafter(1, 0)});
    vg_vec(g, "large and subnormal magnitudes", "overflow,underflow", 0, 4,
           (double[]){0x1p1023, -0x1.fffffffffffffp1023, 0x1p-1074, -0x1p-1022});
    vg_group(g, "a = 0: the identity", (double[]){0});
    vg_vec(g, "a = 0 is the identity", "identity,boundary", 0, 4, (double[]){2.5, -7, 0, 0x1p-1074});
    vg_group(g, "a = 0.375", (double[]){0.375});
    double t[12];
    for (int i = 0; i < 12; i++) t[i] = vg_dyadic(g, 12);
    vg_vec(g, "random dyadic inputs", "random", 0, 12, t);
    vg_vec(g, "cancellation next to the threshold", "kink,cancellation", 0, 2,
           (double[]){0.375 + 0x1p-50, -(0.375 + 0x1p-52)});
    vg_group(g, "a = 2^-20", (double[]){0x1p-20});
    vg_vec(g, "threshold far below the data", "", 0, 3, (double[]){1, -1, 0x1p-21});
    vg_group(g, "a = -1: outside the domain", (double[]){-1});
    vg_vec(g, "negative threshold", "domain", 1, 1, (double[]){1});
    vg_group(g, "a = NaN", (double[]){NAN});
    vg_vec(g, "NaN threshold", "nan", 1, 1, (double[]){1});
    vg_group(g, "a = inf", (double[]){INFINITY});
    vg_vec(g, "infinite threshold", "inf", 1, 1, (double[]){1});
    vg_group(g, "a = 1, bad inputs", (double[]){1});
    vg_vec(g, "NaN in t", "nan", 1, 2, (double[]){1, NAN});
    vg_vec(g, "-inf in t", "inf", 1, 2, (double[]){-INFINITY, 1});
    vg_vec(g, "empty t", "size", 1, 0, (double[]){0});
}

const vfunc vfunc_soft = {"soft", "002 eq. (2)-(3)", params, inputs, expects, ref, fast, tol, golden, NULL, 0, 0};
