/* SPDX-License-Identifier: Apache-2.0 */
/* logreg.c -- vector schema of logreg, the logistic loss of 002
 * Sec. VII-A for one client: params beta; inputs X (d x n), b (d labels in
 * {0, 1}), w (n); expect f = f_1(w) and g = grad f_1(w) (fedspec/fedepm.h).
 * tol: rel 0, abs the largest of ff_logreg_fi_bound's bounds on f and on
 * the g_j (fedfast/fedepm.h). */
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

static const vspec params[] = {{"beta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"X", VK_MATRIX}, {"b", VK_VECTOR}, {"w", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f", VK_SCALAR}, {"g", VK_VECTOR}, {NULL, 0}};

/* The one-client problem; FR_ESIZE if the shapes disagree. */
static int problem(fr_logreg *P, size_t *d, const double *X, const double *b, size_t rows,
                   size_t cols, size_t nb, size_t nw, double beta)
{
    if (rows != nb || cols != nw) return FR_ESIZE;
    *d = rows;
    *P = (fr_logreg){.m = 1, .n = cols, .d = d, .X = X, .b = b, .beta = beta};
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t D = in[0].rows * in[0].cols, nb = in[1].cols, d;
    double *X = malloc((D ? D : 1) * sizeof *X), *b = malloc((nb ? nb : 1) * sizeof *b), beta;
    int st = X && b ? FR_OK : FR_ENOMEM;
    for (size_t k = 0; k < D && st == FR_OK; k++) st = rt_exact_double(&X[k], in[0].v[k]);
    for (size_t k = 0; k < nb && st == FR_OK; k++) st = rt_exact_double(&b[k], in[1].v[k]);
    if (st == FR_OK) st = rt_exact_double(&beta, par[0].v[0]);
    fr_logreg P;
    if (st == FR_OK) st = problem(&P, &d, X, b, in[0].rows, in[0].cols, nb, in[2].cols, beta);
    if (st == FR_OK && (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, in[2].cols, prec) != 0))
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_logreg_fi(out[0].v[0], out[1].v, &P, 0, in[2].v);
    free(X);
    free(b);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d;
    fr_logreg P;
    int st = problem(&P, &d, in[0].v, in[1].v, in[0].rows, in[0].cols, in[1].cols, in[2].cols, par[0].v[0]);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, in[2].cols) != 0) return FR_ENOMEM;
    return ff_logreg_fi(&out[0].v[0], out[1].v, &P, 0, in[2].v);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d, n = in[2].cols;
    fr_logreg P;
    double fb, *gb = malloc((n ? n : 1) * sizeof *gb);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (gb && problem(&P, &d, in[0].v, in[1].v, in[0].rows, in[0].cols, in[1].cols, n,
                      par[0].v[0]) == FR_OK
        && ff_logreg_fi_bound(&fb, gb, &P, 0, in[2].v) == FR_OK) {
        *abs = fb;
        for (size_t j = 0; j < n; j++)
            *abs = fmax(*abs, gb[j]);
    }
    free(gb);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t D, n, e, r;
    frng_below(g, 12, &D); D++;
    frng_below(g, 5, &n); n++;
    ft_alloc(&par[0], 1, 1);
    frng_below(g, 20, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -(int)e);
    ft_alloc(&in[0], D, n);
    ft_alloc(&in[1], 1, D);
    ft_alloc(&in[2], 1, n);
    for (size_t k = 0; k < D * n; k++) {
        frng_below(g, 2049, &r);
        in[0].v[k] = ldexp((double)r - 1024, -10);
    }
    for (size_t t = 0; t < D; t++) { frng_below(g, 2, &r); in[1].v[t] = (double)r; }
    frng_below(g, 12, &e);                     /* |w| up to 2^11: margins up to ~1e4 */
    for (size_t j = 0; j < n; j++) {
        frng_below(g, 2, &r);
        in[2].v[j] = (r ? -1 : 1) * ldexp((double)frng_u53(g) * 0x1p-53, (int)e);
    }
}

static void golden(vgen *g)
{
    vg_group(g, "beta = 1e-3 (Sec. VII-A)", (double[]){1e-3});
    vg_case(g, "w = 0: f = ln 2 exactly in the loss part, g = mean_t (1/2 - b_t) x_t", "", 0,
            (ftensor[]){{2, 2, (double[]){1, 0, 0, 1}}, {1, 2, (double[]){1, 0}}, {1, 2, (double[]){0, 0}}});
    vg_case(g, "symmetric data: the gradient is beta w only", "", 0,
            (ftensor[]){{2, 1, (double[]){1, 1}}, {1, 2, (double[]){1, 0}}, {1, 1, (double[]){0.5}}});
    vg_case(g, "margin u = 1000: e^u overflows binary64, ln(1 + e^u) = u + ln(1 + e^-u)", "large-margin", 0,
            (ftensor[]){{1, 1, (double[]){1000}}, {1, 1, (double[]){0}}, {1, 1, (double[]){1}}});
    vg_case(g, "margin u = -1000, label 0: e^u underflows binary64; the loss part is ln(1 + e^-1000)", "large-margin,underflow", 0,
            (ftensor[]){{1, 1, (double[]){1000}}, {1, 1, (double[]){0}}, {1, 1, (double[]){-1}}});
    vg_case(g, "margin u = 40 with label 1: the loss ln(1 + e^-40) cancels in u - u", "large-margin,cancellation", 0,
            (ftensor[]){{1, 1, (double[]){40}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    double X[12 * 3], b[12], w[3];
    for (int k = 0; k < 36; k++) X[k] = vg_dyadic(g, 10) * 0x1p-4;
    for (int t = 0; t < 12; t++) b[t] = vg_dyadic(g, 1) != 0;
    for (int j = 0; j < 3; j++) w[j] = vg_dyadic(g, 10);
    vg_case(g, "random dyadic, d = 12, n = 3", "random", 0,
            (ftensor[]){{12, 3, X}, {1, 12, b}, {1, 3, w}});
    vg_group(g, "beta = 0 (Sec. VII-A needs beta > 0)", (double[]){0});
    vg_case(g, "beta = 0", "domain,boundary", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
    vg_group(g, "beta = 1e-3, bad inputs", (double[]){1e-3});
    vg_case(g, "label 2", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){2}}, {1, 1, (double[]){0}}});
    vg_case(g, "NaN in X", "nan", 1,
            (ftensor[]){{1, 1, (double[]){NAN}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
    vg_case(g, "infinite w", "inf", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){INFINITY}}});
    vg_case(g, "w of the wrong length", "size", 1,
            (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){0}}});
}

const vfunc vfunc_logreg = {"logreg", "002 Sec. VII-A", params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
