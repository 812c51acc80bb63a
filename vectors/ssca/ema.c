/* SPDX-License-Identifier: Apache-2.0 */
/* ema.c -- vector schema of ssca_ema, the exponential average of 000
 * (35) (beta) and the mass P_t of the surrogate (3): param rho; inputs x
 * (n), y (n, or [] for y = 0: x <- (1 - rho) x, the recursion of P);
 * expect x_next = (1 - rho) x + rho y.  tol: rel 0, abs the largest of
 * ff_ssca_ema_bound's per-entry bounds (fedfast/ssca.h). */
#include "surrogate_vec.h"

static const vspec params[] = {{"rho", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"x", VK_VECTOR}, {"y", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"x_next", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t n = in[0].cols;
    if (in[1].cols != 0 && in[1].cols != n) return FR_ESIZE;
    if (sv_copy_r(&out[0], &in[0], prec) != FR_OK) return FR_ENOMEM;
    return fr_ssca_ema(out[0].v, in[1].cols ? in[1].v : NULL, n, par[0].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t n = in[0].cols;
    if (in[1].cols != 0 && in[1].cols != n) return FR_ESIZE;
    if (sv_copy_f(&out[0], &in[0]) != FR_OK) return FR_ENOMEM;
    return ff_ssca_ema(out[0].v, in[1].cols ? in[1].v : NULL, n, par[0].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t n = in[0].cols;
    double *b = malloc((n ? n : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && (in[1].cols == 0 || in[1].cols == n)
        && ff_ssca_ema_bound(b, in[0].v, in[1].cols ? in[1].v : NULL, n, par[0].v[0]) == FR_OK)
        *abs = sv_max(b, n);
    free(b);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t n = 1 + sv_below(g, 6);
    sv_scalar(&par[0], sv_step(g));
    sv_random(&in[0], g, 1, n, -20, 40);
    if (sv_below(g, 4) == 0)
        ft_alloc(&in[1], 1, 0);                              /* y = 0: the mass */
    else
        sv_random(&in[1], g, 1, n, -20, 40);
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define NONE {1, 0, (double[]){0}}

static void golden(vgen *g)
{
    vg_group(g, "rho = 1/2", (double[]){0.5});
    vg_case(g, "the mean of x and y; x = -2, y = 2 gives exactly 0", "exact,plus-zero-result", 0,
            (ftensor[]){V(3, 1, -2, 3), V(3, 3, 2, -1)});
    vg_case(g, "(35) at t = 2 from beta^(1) = w^(1): beta = (w^(1) + w^(2))/2", "exact", 0,
            (ftensor[]){V(4, 0.5, -0.25, 1, 0), V(4, 1.5, 0.75, -1, 0.125)});
    vg_group(g, "rho = 1: x <- y (the first round of (35) with rho^(1) = 1)", (double[]){1});
    vg_case(g, "x is forgotten; y = -0 gives +0 (IEEE: 0 (-3) + (-0) = -0)", "rho-equals-one,plus-zero-result,identity",
            0, (ftensor[]){V(3, -3, 7, 0.375), V(3, -0.0, -2.5, 0.375)});
    vg_case(g, "the mass P_1 = 1 - rho^(1) = 0 from P_0 = 1 (y = [], i.e. 0)", "rho-equals-one,mass-zero,plus-zero-result",
            0, (ftensor[]){V(1, 1), NONE});
    vg_group(g, "rho = RN(0.9) = 0.90000000000000002220446... (000 Sec. VI: a1 = 0.9)", (double[]){0.9});
    vg_case(g, "the mass P_1 = 1 - RN(0.9), exact: the weight 1 - P_1 of the surrogate (3) is RN(0.9), not 1",
            "mass-positive", 0, (ftensor[]){V(1, 1), NONE});
    vg_case(g, "P_2 from P_1 = 0.125 with rho^(2) = RN(0.9)", "mass-positive", 0, (ftensor[]){V(1, 0.125), NONE});
    vg_group(g, "rho = 1/4", (double[]){0.25});
    vg_case(g, "(3/4) 3 + (1/4)(-9) = 0 exactly; next to it, y = -9 + 2^-48 gives 2^-50", "cancellation,plus-zero-result", 0,
            (ftensor[]){V(2, 3, 3), V(2, -9, -9 + 0x1p-48)});
    vg_case(g, "subnormal x and y", "underflow", 0,
            (ftensor[]){V(3, 0x1p-1074, -0x1.8p-1070, 0x1p-1022), V(3, 0x1p-1073, 0x1p-1074, -0x1p-1060)});
    vg_group(g, "rho = 2^-60", (double[]){0x1p-60});
    vg_case(g, "1 - rho needs 61 bits: x (1 - 2^-60) + 2^-60 y", "tiny-rho", 0,
            (ftensor[]){V(3, 1, -3, 0x1p60), V(3, 0x1p60, 1, -0x1p60)});
    vg_group(g, "rho = RN(0.3)", (double[]){0.3});
    double x[6], y[6];
    for (int k = 0; k < 6; k++) { x[k] = vg_dyadic(g, 20); y[k] = vg_dyadic(g, 20); }
    vg_case(g, "random dyadic, n = 6", "random", 0, (ftensor[]){{1, 6, x}, {1, 6, y}});
    vg_group(g, "rho = 0 (4) requires rho > 0", (double[]){0});
    vg_case(g, "rho = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 2)});
    vg_group(g, "rho = 1.5 (4) requires rho <= 1", (double[]){1.5});
    vg_case(g, "rho > 1", "domain", 1, (ftensor[]){V(1, 1), V(1, 2)});
    vg_group(g, "rho = NaN", (double[]){NAN});
    vg_case(g, "rho NaN", "nan", 1, (ftensor[]){V(1, 1), V(1, 2)});
    vg_group(g, "rho = 1/2, bad inputs", (double[]){0.5});
    vg_case(g, "infinite x", "inf", 1, (ftensor[]){V(2, 1, INFINITY), V(2, 2, 2)});
    vg_case(g, "NaN in y", "nan", 1, (ftensor[]){V(2, 1, 1), V(2, 2, NAN)});
    vg_case(g, "y shorter than x", "size", 1, (ftensor[]){V(2, 1, 1), V(1, 2)});
    vg_case(g, "empty x", "size", 1, (ftensor[]){NONE, NONE});
}

const vfunc vfunc_ssca_ema = {"ssca_ema", "000 eq. (35), and P_t = prod (1 - rho^(s)) of (3)", params, inputs,
                              expects, ref, fast, tol, golden, sample, 0, 0};
