/* SPDX-License-Identifier: Apache-2.0 */
/* median.c -- vector schema of median (002 eq. (5)): input W (m rows,
 * each a client vector of length n); expect med.  Even m: the midpoint of
 * the two middle values.  tol: ff_median_bound (fedfast/core.h). */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{NULL, 0}};
static const vspec inputs[] = {{"W", VK_MATRIX}, {NULL, 0}};
static const vspec expects[] = {{"med", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)par;
    if (rt_alloc(&out[0], 1, in[0].cols, prec) != 0) return FR_ENOMEM;
    return fr_median(out[0].v, in[0].v, in[0].rows, in[0].cols);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)par;
    if (ft_alloc(&out[0], 1, in[0].cols) != 0) return FR_ENOMEM;
    return ff_median(out[0].v, in[0].v, in[0].rows, in[0].cols);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par;
    if (ff_median_bound(rel, abs, in[0].v, in[0].rows, in[0].cols) != FR_OK)
        *rel = *abs = 0;                 /* not a valid case: no tolerance */
}

static void golden(vgen *g)
{
    vg_group(g, "no parameters", NULL);
    vg_mat(g, "odd m: the middle value", "", 0, 3, 2, (double[]){5, -1, 1, 2, 3, 0});
    vg_mat(g, "even m: midpoint of the two middle values (argmin is an interval)", "even-m", 0,
           4, 2, (double[]){1, 8, 2, 1, 10, 2, 3, 4});
    vg_mat(g, "ties at the median", "tie", 0, 5, 1, (double[]){2, 2, 7, 2, -1});
    vg_mat(g, "m = 1", "boundary", 0, 1, 3, (double[]){1.5, -2, 0});
    vg_mat(g, "m = 2: midpoint", "even-m,boundary", 0, 2, 2, (double[]){1, -3, 2, 0x1p-1074});
    vg_mat(g, "midpoint of two huge values: a + b overflows binary64", "even-m,overflow", 0, 2, 2,
           (double[]){0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023, 0x1.ffffffffffffep1023, -0x1p1023});
    vg_mat(g, "midpoint of the two smallest subnormals is not representable", "even-m,underflow", 0,
           2, 1, (double[]){0x1p-1074, 0x1p-1073});
    double W[7 * 4];
    for (int i = 0; i < 28; i++) W[i] = vg_dyadic(g, 8);
    vg_mat(g, "random dyadic, m = 7, n = 4", "random", 0, 7, 4, W);
    vg_mat(g, "random dyadic, m = 6, n = 4", "random,even-m", 0, 6, 4, W);
    vg_mat(g, "NaN entry", "nan", 1, 2, 1, (double[]){1, NAN});
    vg_mat(g, "inf entry", "inf", 1, 3, 1, (double[]){1, INFINITY, 0});
    vg_mat(g, "m = 0", "size", 1, 0, 0, (double[]){0});
}

const vfunc vfunc_median = {"median", "002 eq. (5)", params, inputs, expects, ref, fast, tol, golden, NULL, 0, 0};
