/* SPDX-License-Identifier: Apache-2.0 */
/* fedepm_step.c -- vector schema of fedepm_step, one FedEPM client
 * update, 002 eq. (20): params lambda, eta, mu; inputs w_i, w_server, g;
 * expect w_i_next = w + soft(mu (w_i - w) - g, lambda) / (eta + mu).
 * tol: rel 0, abs the largest of ff_fedepm_step_bound's per-component
 * bounds (fedfast/fedepm.h; it includes lambda, so any few-rounding
 * evaluation of (20) meets it). */
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

static const vspec params[] = {{"lambda", VK_SCALAR}, {"eta", VK_SCALAR}, {"mu", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"w_i", VK_VECTOR}, {"w_server", VK_VECTOR}, {"g", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"w_i_next", VK_VECTOR}, {NULL, 0}};

static int same_n(size_t a, size_t b, size_t c) { return a == b && b == c; }

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t n = in[0].cols;
    if (!same_n(n, in[1].cols, in[2].cols)) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, n, prec) != 0) return FR_ENOMEM;
    return fr_fedepm_step(out[0].v, in[0].v, in[1].v, in[2].v, n, par[0].v[0], par[1].v[0], par[2].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t n = in[0].cols;
    if (!same_n(n, in[1].cols, in[2].cols)) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, n) != 0) return FR_ENOMEM;
    return ff_fedepm_step(out[0].v, in[0].v, in[1].v, in[2].v, n, par[0].v[0], par[1].v[0], par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t n = in[0].cols;
    double *b = malloc((n ? n : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && same_n(n, in[1].cols, in[2].cols)
        && ff_fedepm_step_bound(b, in[0].v, in[1].v, in[2].v, n, par[0].v[0], par[1].v[0],
                                par[2].v[0]) == FR_OK)
        for (size_t j = 0; j < n; j++)
            *abs = fmax(*abs, b[j]);
    free(b);
}

/* A valid random case for the audit sweep. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t n, e;
    frng_below(g, 6, &n);
    n++;
    for (int k = 0; k < 3; k++) {
        ft_alloc(&par[k], 1, 1);
        frng_below(g, 24, &e);
        par[k].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 16);
    }
    for (int k = 0; k < 3; k++) {
        ft_alloc(&in[k], 1, (size_t)n);
        for (size_t j = 0; j < n; j++) {
            uint64_t s;
            frng_below(g, 2, &s);
            frng_below(g, 16, &e);
            in[k].v[j] = (s ? -1 : 1) * ldexp((double)frng_u53(g) * 0x1p-53, (int)e - 8);
        }
    }
    /* sometimes an exact kink: g_j = mu (w_ij - w_j) -+ lambda when exact */
    frng_below(g, 4, &e);
    if (e == 0) {
        double t = par[2].v[0] * (in[0].v[0] - in[1].v[0]);
        double k = t - par[0].v[0];
        if (k + par[0].v[0] == t) in[2].v[0] = k;      /* then wt_0 = lambda exactly (if exact) */
    }
}

static void golden(vgen *g)
{
    vg_group(g, "lambda = 1/2, eta = 1, mu = 1", (double[]){0.5, 1, 1});
    vg_case(g, "wt = (3, -3, 0): both branches of soft and the dead zone", "exact", 0,
            (ftensor[]){{1, 3, (double[]){4, -2, 1}}, {1, 3, (double[]){1, 1, 1}}, {1, 3, (double[]){0, 0, 0}}});
    vg_case(g, "|wt| = lambda exactly: the kink, soft gives 0, w_i_next = w", "kink,exact", 0,
            (ftensor[]){{1, 2, (double[]){0.5, -0.5}}, {1, 2, (double[]){0, 0}}, {1, 2, (double[]){0, 0}}});
    vg_case(g, "w_i = w: the update is w + soft(-g, lambda)/(eta + mu)", "", 0,
            (ftensor[]){{1, 2, (double[]){2, -3}}, {1, 2, (double[]){2, -3}}, {1, 2, (double[]){1.75, -0.25}}});
    vg_case(g, "the sign of (20) (+), which (47) prints as -: w_i_next = 1 + 2.5/2", "printed-formula-fails,exact", 0,
            (ftensor[]){{1, 1, (double[]){4}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_group(g, "the experiments' scale: lambda = eta/2, eta = 6e-6, mu = 0.05 * 1.001", (double[]){3e-6, 6e-6, 0.05005});
    double wi[5], w[5], gr[5];
    for (int j = 0; j < 5; j++) { wi[j] = vg_dyadic(g, 12); w[j] = vg_dyadic(g, 12); gr[j] = vg_dyadic(g, 8) * 0x1p-10; }
    vg_case(g, "random dyadic, n = 5: non-dyadic divisor eta + mu", "random", 0,
            (ftensor[]){{1, 5, wi}, {1, 5, w}, {1, 5, gr}});
    vg_case(g, "gradient-dominated: w_i = w, tiny lambda relative to g", "random", 0,
            (ftensor[]){{1, 5, w}, {1, 5, w}, {1, 5, gr}});
    vg_group(g, "large mu = 2^40: w_i_next close to w_i", (double[]){1, 1, 0x1p40});
    vg_case(g, "mu >> eta: w_i_next ~ w_i - (g + lambda sgn)/mu", "", 0,
            (ftensor[]){{1, 2, (double[]){1, -1}}, {1, 2, (double[]){0, 0}}, {1, 2, (double[]){0.5, 0.5}}});
    vg_group(g, "lambda = 0 (002 requires lambda > 0)", (double[]){0, 1, 1});
    vg_case(g, "lambda = 0", "domain,boundary", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
    vg_group(g, "mu = 0 (Algorithm 2 has mu_{i,k} > 0)", (double[]){1, 1, 0});
    vg_case(g, "mu = 0", "domain,boundary", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
    vg_group(g, "eta < 0", (double[]){1, -1, 1});
    vg_case(g, "negative eta", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
    vg_group(g, "lambda = eta = mu = 1, bad inputs", (double[]){1, 1, 1});
    vg_case(g, "infinite gradient", "inf", 1,
            (ftensor[]){{1, 2, (double[]){1, 2}}, {1, 2, (double[]){0, 0}}, {1, 2, (double[]){INFINITY, 0}}});
    vg_case(g, "NaN in w_server", "nan", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){NAN}}, {1, 1, (double[]){0}}});
    vg_case(g, "inputs of different lengths", "size", 1,
            (ftensor[]){{1, 2, (double[]){1, 2}}, {1, 1, (double[]){0}}, {1, 2, (double[]){0, 0}}});
}

const vfunc vfunc_fedepm_step = {"fedepm_step", "002 eq. (20)", params, inputs, expects, ref, fast, tol,
                                 golden, sample, 0, 0};
