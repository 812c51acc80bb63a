/* SPDX-License-Identifier: Apache-2.0 */
/* dp_compose.c -- vector schema of dp_compose, the privacy accountant of a
 * client's uploads (docs/FEDEPM.md section 9): param delta (the delta' of
 * advanced composition); input eps (the per-upload losses, >= 0 or +Inf);
 * expect basic = sum_j eps_j and adv = sqrt(2 ln(1/delta) sum_j eps_j^2)
 * + sum_j eps_j (e^eps_j - 1) (Dwork-Rothblum-Vadhan, general form).  ref
 * is correctly rounded (fr_dp_compose, MPFR_RNDN); fast returns upper
 * bounds (ff_dp_compose_upper): tol is ff_dp_compose_upper_bound's (rel
 * (4k + 32) 2^-53, abs 2^-530).  An eps_j = +Inf gives "inf" for both. */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"delta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"eps", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"basic", VK_SCALAR, .cmp = VC_UPPER}, {"adv", VK_SCALAR, .cmp = VC_UPPER}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_dp_compose(out[0].v[0], out[1].v[0], in[0].v, in[0].cols, par[0].v[0], MPFR_RNDN);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    return ff_dp_compose_upper(&out[0].v[0], &out[1].v[0], in[0].v, in[0].cols, par[0].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    if (ff_dp_compose_upper_bound(rel, abs, in[0].v, in[0].cols, par[0].v[0]) != FR_OK)
        *rel = *abs = 0;                 /* outside the proof's range: no golden case is */
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t n, e;
    ft_alloc(&par[0], 1, 1);
    frng_below(g, 40, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -2 - (int)e);
    frng_below(g, 30, &n);
    ft_alloc(&in[0], 1, (size_t)n + 1);
    for (size_t j = 0; j <= n; j++) {
        frng_below(g, 16, &e);
        in[0].v[j] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 12);
    }
}

static void golden(vgen *g)
{
    static const double e25[25] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1,
                                   0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
    vg_group(g, "delta' = 1e-5", (double[]){1e-5});
    vg_vec(g, "one upload at eps = 0.1: basic 0.1; advanced is larger for few uploads", "", 0, 1,
           (double[]){0.1});
    vg_vec(g, "25 uploads at eps = 0.1 (the certified rule, a client selected in every one of 25 "
           "rounds): sqrt(50 ln 1e5) 0.1 + 2.5 (e^0.1 - 1)", "", 0, 25, e25);
    vg_vec(g, "unequal losses 1/2, 1, 2 (the general form of the advanced composition)", "", 0, 3,
           (double[]){0.5, 1, 2});
    vg_vec(g, "the initial upload (loss 0) and two at 0.25", "", 0, 3, (double[]){0, 0.25, 0.25});
    vg_vec(g, "every loss 0: both totals 0", "exact,boundary", 0, 2, (double[]){0, 0});
    vg_vec(g, "an unbounded loss (+Inf: (39), or no noise): both totals +Inf", "", 0, 3,
           (double[]){0, 0.5, INFINITY});
    vg_group(g, "delta' = 2^-20, many small losses", (double[]){0x1p-20});
    vg_vec(g, "eps = 2^-10, 2^-9, 2^-8", "", 0, 3, (double[]){0x1p-10, 0x1p-9, 0x1p-8});
    vg_group(g, "invalid: delta' = 0", (double[]){0});
    vg_vec(g, "delta' = 0: ln(1/delta') infinite", "domain,boundary", 1, 1, (double[]){0.1});
    vg_group(g, "invalid: delta' = 1", (double[]){1});
    vg_vec(g, "delta' = 1", "domain,boundary", 1, 1, (double[]){0.1});
    vg_group(g, "invalid inputs, delta' = 1e-5", (double[]){1e-5});
    vg_vec(g, "a negative loss", "domain", 1, 2, (double[]){0.1, -0.1});
    vg_vec(g, "a NaN loss", "nan", 1, 2, (double[]){0.1, NAN});
    vg_vec(g, "a loss of -Inf", "inf", 1, 1, (double[]){-INFINITY});
    vg_vec(g, "no upload", "size", 1, 0, (double[]){0});
    vg_group(g, "invalid: delta' NaN", (double[]){NAN});
    vg_vec(g, "delta' = NaN", "nan", 1, 1, (double[]){0.1});
}

const vfunc vfunc_dp_compose = {"dp_compose", "docs/FEDEPM.md section 9 (basic and advanced composition)",
                                params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
