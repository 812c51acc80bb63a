/* SPDX-License-Identifier: Apache-2.0 */
/* argmin.c -- vector schema of ssca_argmin, the minimiser of the
 * surrogate (3) with (7) and (33), 000 (10) / (24) / (38)-(39) corrected
 * (docs/ERRATA.md E-000-8): params lambda, tau, P; inputs f1 (d), beta (d,
 * or [] for none); expect
 *   wbar = -(f1 + 2 lambda beta) / (2 tau (1 - P)).
 * P = 0 gives the printed forms; P > 0 (every rho^(s) < 1) is where they
 * fail.  tol: rel 0, abs the largest of ff_ssca_argmin_bound's bounds. */
#include "surrogate_vec.h"

static const vspec params[] = {{"lambda", VK_SCALAR}, {"tau", VK_SCALAR}, {"P", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"f1", VK_VECTOR}, {"beta", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"wbar", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[0].cols;
    if (in[1].cols != 0 && in[1].cols != d) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, d, prec) != 0) return FR_ENOMEM;
    return fr_ssca_argmin(out[0].v, in[0].v, in[1].cols ? in[1].v : NULL, d, par[0].v[0], par[1].v[0],
                          par[2].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[0].cols;
    if (in[1].cols != 0 && in[1].cols != d) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, d) != 0) return FR_ENOMEM;
    return ff_ssca_argmin(out[0].v, in[0].v, in[1].cols ? in[1].v : NULL, d, par[0].v[0], par[1].v[0],
                          par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[0].cols;
    double *b = malloc((d ? d : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && (in[1].cols == 0 || in[1].cols == d)
        && ff_ssca_argmin_bound(b, in[0].v, in[1].cols ? in[1].v : NULL, d, par[0].v[0], par[1].v[0],
                                par[2].v[0]) == FR_OK)
        *abs = sv_max(b, d);
    free(b);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t d = 1 + sv_below(g, 6), r = sv_below(g, 4);
    sv_scalar(&par[0], r == 0 ? 0 : fabs(sv_value(g, -20, 20)));
    sv_scalar(&par[1], fabs(sv_value(g, -8, 12)));
    sv_scalar(&par[2], r == 1 ? 0 : (double)frng_u53(g) * 0x1p-53);   /* P in [0, 1) */
    sv_random(&in[0], g, 1, d, -10, 20);
    if (sv_below(g, 4) == 0)
        ft_alloc(&in[1], 1, 0);
    else
        sv_random(&in[1], g, 1, d, -10, 20);
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define NONE {1, 0, (double[]){0}}

static void golden(vgen *g)
{
    vg_group(g, "lambda = 0, tau = 1/2, P = 0 (rho^(1) = 1): the printed (10)", (double[]){0, 0.5, 0});
    vg_case(g, "wbar = -f1; f1 = 0 gives +0 (IEEE: -(0)/1 = -0)", "mass-zero,no-regulariser,exact,plus-zero-result", 0,
            (ftensor[]){V(3, 1, -2, 0), NONE});
    vg_group(g, "lambda = 0, tau = 1/2, P = 1/2", (double[]){0, 0.5, 0.5});
    vg_case(g, "the surrogate's weight 1 - P = 1/2: wbar = -2 f1, the printed (10) gives -f1",
            "mass-positive,no-regulariser,printed-formula-fails,exact", 0, (ftensor[]){V(2, 1, -2), NONE});
    vg_group(g, "000 Sec. VI after round 1: lambda = 1e-5, tau = RN(0.2), P = 1 - RN(0.9)",
             (double[]){1e-5, 0.2, 0.09999999999999997779553950749686919152736663818359375});
    double f1[5], beta[5];
    for (int k = 0; k < 5; k++) { f1[k] = vg_dyadic(g, 20) / 16; beta[k] = vg_dyadic(g, 20) / 16; }
    vg_case(g, "(38)-(39) with the weight 1 - P = RN(0.9): the printed values are RN(0.9) times these", "mass-positive,"
            "printed-formula-fails,random", 0, (ftensor[]){{1, 5, f1}, {1, 5, beta}});
    vg_group(g, "lambda = 1/4, tau = 1, P = 0: (38)-(39) as printed", (double[]){0.25, 1, 0});
    vg_case(g, "-(f1 + beta/2)/2", "mass-zero,exact", 0, (ftensor[]){V(3, 1, 2, -3), V(3, 2, 4, 6)});
    vg_case(g, "f1 = -2 lambda beta: exactly 0 (+0)", "mass-zero,cancellation,plus-zero-result", 0,
            (ftensor[]){V(2, -1, 0.5), V(2, 2, -1)});
    vg_group(g, "lambda = 1/4, tau = 1, P = 1 - 2^-40", (double[]){0.25, 1, 1 - 0x1p-40});
    vg_case(g, "P near 1 (a long run of small rho): wbar scaled by 2^40", "mass-positive,boundary", 0,
            (ftensor[]){V(2, 3, -1), V(2, 1, 1)});
    vg_group(g, "lambda = 0.5, tau = 2^-30, P = 0.75", (double[]){0.5, 0x1p-30, 0.75});
    vg_case(g, "small tau: large wbar", "mass-positive", 0, (ftensor[]){V(2, 0x1p-20, -3), V(2, 1, 0.5)});
    vg_group(g, "P = 1 (not the mass of a valid schedule: 0 <= P < 1)", (double[]){0, 1, 1});
    vg_case(g, "P = 1", "domain,boundary", 1, (ftensor[]){V(1, 1), NONE});
    vg_group(g, "P = -0.25", (double[]){0, 1, -0.25});
    vg_case(g, "P < 0", "domain", 1, (ftensor[]){V(1, 1), NONE});
    vg_group(g, "tau = 0", (double[]){0, 0, 0});
    vg_case(g, "tau = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), NONE});
    vg_group(g, "lambda = -1", (double[]){-1, 1, 0});
    vg_case(g, "lambda < 0", "domain", 1, (ftensor[]){V(1, 1), V(1, 1)});
    vg_group(g, "lambda = 1, tau = 1, P = 0, bad inputs", (double[]){1, 1, 0});
    vg_case(g, "NaN in beta", "nan", 1, (ftensor[]){V(2, 1, 1), V(2, 0, NAN)});
    vg_case(g, "Inf in f1", "inf", 1, (ftensor[]){V(2, 1, -INFINITY), NONE});
    vg_case(g, "beta longer than f1", "size", 1, (ftensor[]){V(1, 1), V(2, 1, 1)});
    vg_case(g, "empty f1", "size", 1, (ftensor[]){NONE, NONE});
}

const vfunc vfunc_ssca_argmin = {"ssca_argmin", "000 eq. (10), (24), (33), (38)-(39) corrected", params, inputs,
                                 expects, ref, fast, tol, golden, sample, 0, 0};
