/* SPDX-License-Identifier: Apache-2.0 */
/* update.c -- vector schema of ssca_update, the iterate update of
 * 000 (5) / (18): param gamma; inputs w, wbar (d); expect
 * w_next = (1 - gamma) w + gamma wbar.  tol: rel 0, abs the largest of
 * ff_ssca_update_bound's per-entry bounds (fedfast/ssca.h). */
#include "surrogate_vec.h"

static const vspec params[] = {{"gamma", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"w", VK_VECTOR}, {"wbar", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"w_next", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[0].cols;
    if (in[1].cols != d) return FR_ESIZE;
    if (sv_copy_r(&out[0], &in[0], prec) != FR_OK) return FR_ENOMEM;
    return fr_ssca_update(out[0].v, in[1].v, d, par[0].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[0].cols;
    if (in[1].cols != d) return FR_ESIZE;
    if (sv_copy_f(&out[0], &in[0]) != FR_OK) return FR_ENOMEM;
    return ff_ssca_update(out[0].v, in[1].v, d, par[0].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[0].cols;
    double *b = malloc((d ? d : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && in[1].cols == d && ff_ssca_update_bound(b, in[0].v, in[1].v, d, par[0].v[0]) == FR_OK)
        *abs = sv_max(b, d);
    free(b);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t d = 1 + sv_below(g, 6);
    sv_scalar(&par[0], sv_step(g));
    sv_random(&in[0], g, 1, d, -20, 40);
    sv_random(&in[1], g, 1, d, -20, 40);
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vg_group(g, "gamma = 1/2", (double[]){0.5});
    vg_case(g, "the midpoint; w = -1, wbar = 1 gives exactly 0 (+0)", "exact,plus-zero-result", 0,
            (ftensor[]){V(3, -1, 2, 0.25), V(3, 1, 4, -0.75)});
    vg_group(g, "gamma = 1: w <- wbar", (double[]){1});
    vg_case(g, "wbar copied; wbar = -0 gives +0", "identity,boundary,plus-zero-result", 0,
            (ftensor[]){V(3, 5, -1, 3), V(3, -0.0, 0.1, -7)});
    vg_group(g, "gamma = 0.5 2^-0.1 (binary64) at t = 2 (000 Sec. VI: a2 = 0.5, alpha = 0.1)",
             (double[]){0.4665164957684037});
    double w[5], wb[5];
    for (int k = 0; k < 5; k++) { w[k] = vg_dyadic(g, 24); wb[k] = vg_dyadic(g, 24); }
    vg_case(g, "random dyadic, d = 5", "random", 0, (ftensor[]){{1, 5, w}, {1, 5, wb}});
    vg_group(g, "gamma = 2^-70", (double[]){0x1p-70});
    vg_case(g, "a tiny step: w moves by 2^-70 (wbar - w)", "tiny-rho", 0,
            (ftensor[]){V(2, 1, -1), V(2, 0x1p70, 3)});
    vg_group(g, "gamma = 3/4", (double[]){0.75});
    vg_case(g, "(1/4) 3 + (3/4)(-1) = 0; (1/4) 3 + (3/4)(-1 + 2^-50) = 3 2^-52", "cancellation,plus-zero-result", 0,
            (ftensor[]){V(2, 3, 3), V(2, -1, -1 + 0x1p-50)});
    vg_group(g, "gamma = 0 (6) requires gamma > 0", (double[]){0});
    vg_case(g, "gamma = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 2)});
    vg_group(g, "gamma = 1.25", (double[]){1.25});
    vg_case(g, "gamma > 1", "domain", 1, (ftensor[]){V(1, 1), V(1, 2)});
    vg_group(g, "gamma = 1/2, bad inputs", (double[]){0.5});
    vg_case(g, "NaN in wbar", "nan", 1, (ftensor[]){V(2, 1, 1), V(2, NAN, 2)});
    vg_case(g, "-Inf in w", "inf", 1, (ftensor[]){V(2, -INFINITY, 1), V(2, 2, 2)});
    vg_case(g, "wbar longer than w", "size", 1, (ftensor[]){V(1, 1), V(2, 2, 2)});
    vg_case(g, "empty", "size", 1, (ftensor[]){{1, 0, (double[]){0}}, {1, 0, (double[]){0}}});
}

const vfunc vfunc_ssca_update = {"ssca_update", "000 eq. (5), (18)", params, inputs, expects, ref, fast, tol,
                                 golden, sample, 0, 0};
