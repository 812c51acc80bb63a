/* SPDX-License-Identifier: Apache-2.0 */
/* ens.c -- vector schema of ens (002 eq. (13)-(16), Algorithm 1, corrected;
 * docs/ERRATA.md E-002-13): params lambda, eta; input W; expect w.
 * tol: rel 0, abs the largest of ff_ens_bound's per-column bounds
 * (fedfast/core.h). */
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

static const vspec params[] = {{"lambda", VK_SCALAR}, {"eta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"W", VK_MATRIX}, {NULL, 0}};
static const vspec expects[] = {{"w", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, in[0].cols, prec) != 0) return FR_ENOMEM;
    return fr_ens(out[0].v, in[0].v, in[0].rows, in[0].cols, par[0].v[0], par[1].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, in[0].cols) != 0) return FR_ENOMEM;
    return ff_ens(out[0].v, in[0].v, in[0].rows, in[0].cols, par[0].v[0], par[1].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t n = in[0].cols;
    double *b = malloc((n ? n : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && ff_ens_bound(b, in[0].v, in[0].rows, n, par[0].v[0], par[1].v[0]) == FR_OK)
        for (size_t j = 0; j < n; j++)
            *abs = fmax(*abs, b[j]);
    free(b);
}

static void golden(vgen *g)
{
    vg_group(g, "lambda = eta = 1", (double[]){1, 1});
    vg_mat(g, "the printed (13) gives 11/3 here; the minimiser is 3 (h'(3) = 0)",
           "printed-formula-fails", 0, 3, 1, (double[]){10, 0, 0});
    vg_mat(g, "minimiser on a data value: h'-(1) = -3/2 < 0 < h'+(1) = 1/2", "kink,data-point", 0,
           3, 1, (double[]){0, 1, 2.5});
    vg_mat(g, "m = 1: the value itself (the printed lemma has no s*)", "boundary,data-point", 0,
           1, 3, (double[]){1.5, -2, 0});
    vg_mat(g, "all values equal", "tie,data-point", 0, 4, 1, (double[]){2, 2, 2, 2});
    vg_mat(g, "ties around the minimiser", "tie", 0, 5, 2, (double[]){0, 1, 0, 1, 0, 1, 9, -9, 9, -9});
    vg_mat(g, "symmetric data: minimiser exactly 0", "", 0, 2, 1, (double[]){-1, 1});
    double W[8 * 3];
    for (int i = 0; i < 24; i++) W[i] = vg_dyadic(g, 6);
    vg_mat(g, "random dyadic, m = 8, n = 3", "random,even-m", 0, 8, 3, W);
    vg_mat(g, "random dyadic, m = 7, n = 3", "random", 0, 7, 3, W);
    vg_group(g, "lambda/eta = 2^-60: close to the mean", (double[]){0x1p-60, 1});
    vg_mat(g, "tiny lambda/eta: mean minus a tiny shift", "mean-limit", 0, 3, 2,
           (double[]){10, 1, 0, 2, 0, 4});
    vg_group(g, "lambda/eta = 2^60: the median", (double[]){0x1p40, 0x1p-20});
    vg_mat(g, "huge lambda/eta: the median (odd m)", "median-limit,data-point", 0, 5, 1,
           (double[]){10, 0, -3, 7, 1});
    vg_mat(g, "huge lambda/eta, even m: the l1 part is flat between the middle values 0 and 7, so the "
           "minimiser is the mean clamped to [0, 7]: 3.5, here also the midpoint median (id 19 separates the two)", "median-limit,even-m", 0,
           4, 1, (double[]){10, 0, -3, 7});
    vg_group(g, "lambda = 0.5, eta = 3", (double[]){0.5, 3});
    vg_mat(g, "non-dyadic result (denominator 3 m)", "", 0, 4, 2, (double[]){1, 0, 0.25, 4, 0, 3, 2, 1});
    vg_group(g, "lambda = 0 (002 requires lambda > 0)", (double[]){0, 1});
    vg_mat(g, "lambda = 0", "domain,boundary", 1, 2, 1, (double[]){1, 2});
    vg_group(g, "eta = 0", (double[]){1, 0});
    vg_mat(g, "eta = 0", "domain,boundary", 1, 2, 1, (double[]){1, 2});
    vg_group(g, "eta < 0", (double[]){1, -1});
    vg_mat(g, "negative eta", "domain", 1, 2, 1, (double[]){1, 2});
    vg_group(g, "lambda = inf", (double[]){INFINITY, 1});
    vg_mat(g, "infinite lambda", "inf", 1, 2, 1, (double[]){1, 2});
    vg_group(g, "lambda = eta = 1, bad inputs", (double[]){1, 1});
    vg_mat(g, "NaN in W", "nan", 1, 2, 2, (double[]){1, 2, NAN, 0});
    vg_mat(g, "m = 0", "size", 1, 0, 0, (double[]){0});
    /* Even m: the l1 part is flat on the middle interval [v_(m/2), v_(m/2+1)], so for
     * lambda/eta large the minimiser is the mean clamped to that interval, which is
     * the midpoint median only when the mean lies in it (id 11).  Here it does not:
     * column 0 is {0, 1, 2, 10} (mean 13/4 > 2), column 1 is {-9, 4, 5, 6} (mean 3/2 < 4). */
    static const double W4[] = {0, -9, 1, 4, 2, 5, 10, 6};
    vg_group(g, "lambda/eta = 2^60, even m: the mean clamped to the middle interval", (double[]){0x1p40, 0x1p-20});
    vg_mat(g, "even m, mean outside the middle interval: columns {0, 1, 2, 10} and {-9, 4, 5, 6} give 2 and 4, "
           "not the midpoints 1.5 and 4.5; optimality 0 in dh(w) = lambda (#{v < w} - #{v > w} + [-1, 1] #{v = w}) "
           "+ eta m (w - mean): at 2, lambda [0, 2] - 5 eta (contains 0 iff lambda/eta >= 5/2); at 4, "
           "lambda [-2, 0] + 10 eta (iff lambda/eta >= 5); at the midpoints dh = -7 eta and +12 eta, never 0", "median-limit,even-m,even-m-clamp,data-point", 0, 4, 2, W4);
    vg_group(g, "lambda = 6, eta = 1: lambda/eta = 6, not a limit", (double[]){6, 1});
    vg_mat(g, "the same data at lambda/eta = 6: still 2 and 4 (the clamps are the minimisers for every "
           "lambda/eta >= 5 here, the midpoints for none)", "even-m,even-m-clamp,data-point", 0, 4, 2, W4);
}

const vfunc vfunc_ens = {"ens", "002 eq. (13)-(16), Algorithm 1", params, inputs, expects, ref, fast, tol, golden, NULL, 0, 0};
