/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_loss.c -- vector schema of fedpdm_loss, the mini-batch loss (25) of
 * 003 Sec. V-A and its gradient (notation erratum E-003-25: X_ij = b a^T):
 * params beta; inputs X (m x n, row k the weights of class k), A (b x n,
 * the batch's feature rows), y (b labels, class indices < m); expect f and
 * g (m x n).  tol: rel 0, abs the largest of ff_pdm_loss_bound's bounds on
 * f and on the g_kl (fedfast/fedpdm.h). */
#include "pdm_common.h"

static const vspec params[] = {{"beta", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"X", VK_MATRIX}, {"A", VK_MATRIX}, {"y", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f", VK_SCALAR}, {"g", VK_MATRIX}, {NULL, 0}};

/* shapes: X m x n, A b x n, y 1 x b */
static int shapes(size_t xc, size_t ar, size_t ac, size_t yc)
{
    return (xc != ac || ar != yc) ? FR_ESIZE : FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t m = in[0].rows, n = in[0].cols, b = in[1].rows;
    int st = shapes(n, b, in[1].cols, in[2].cols);
    if (st != FR_OK) return st;
    size_t *y = malloc((b ? b : 1) * sizeof *y);
    double *yd = malloc((b ? b : 1) * sizeof *yd);
    st = y && yd ? FR_OK : FR_ENOMEM;
    for (size_t t = 0; t < b && st == FR_OK; t++) st = rt_exact_double(&yd[t], in[2].v[t]);
    if (st == FR_OK) st = pdm_labels(y, yd, b);
    if (st == FR_OK && (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], m, n, prec) != 0))
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_pdm_loss(out[0].v[0], out[1].v, in[0].v, m, n, in[1].v, y, b, par[0].v[0]);
    free(y);
    free(yd);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t m = in[0].rows, n = in[0].cols, b = in[1].rows;
    int st = shapes(n, b, in[1].cols, in[2].cols);
    if (st != FR_OK) return st;
    size_t *y = malloc((b ? b : 1) * sizeof *y);
    st = y ? pdm_labels(y, in[2].v, b) : FR_ENOMEM;
    if (st == FR_OK && (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], m, n) != 0)) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_pdm_loss(&out[0].v[0], out[1].v, in[0].v, m, n, in[1].v, y, b, par[0].v[0]);
    free(y);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t m = in[0].rows, n = in[0].cols, b = in[1].rows;
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (shapes(n, b, in[1].cols, in[2].cols) != FR_OK) return;
    size_t *y = malloc((b ? b : 1) * sizeof *y);
    double fb, *gb = malloc((m * n > 0 ? m * n : 1) * sizeof *gb);
    if (y && gb && pdm_labels(y, in[2].v, b) == FR_OK
        && ff_pdm_loss_bound(&fb, gb, in[0].v, m, n, in[1].v, y, b, par[0].v[0]) == FR_OK) {
        *abs = fb;
        for (size_t k = 0; k < m * n; k++) *abs = fmax(*abs, gb[k]);
    }
    free(y);
    free(gb);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t m, n, b, r, e;
    frng_below(g, 4, &m); m++;
    frng_below(g, 6, &n); n++;
    frng_below(g, 8, &b); b++;
    ft_alloc(&par[0], 1, 1);
    frng_below(g, 12, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -(int)e);
    ft_alloc(&in[0], m, n);
    ft_alloc(&in[1], b, n);
    ft_alloc(&in[2], 1, b);
    for (size_t k = 0; k < m * n; k++) { frng_below(g, 2049, &r); in[0].v[k] = ldexp((double)r - 1024, -8); }
    for (size_t k = 0; k < b * n; k++) { frng_below(g, 2049, &r); in[1].v[k] = ldexp((double)r - 1024, -10); }
    for (size_t t = 0; t < b; t++) { frng_below(g, m, &r); in[2].v[t] = (double)r; }
}

static void golden(vgen *g)
{
    vg_group(g, "beta = 1e-2 (Sec. V-A)", (double[]){1e-2});
    vg_case(g, "X = 0: f = ln 2, g_kl = -(1/2b) sum_{y_t = k} A_tl (exact rationals)", "pdm-zero-model,exact", 0,
            (ftensor[]){{2, 3, (double[]){0, 0, 0, 0, 0, 0}}, {3, 3, (double[]){1, 0.5, -1, 0, 2, 0.25, 1, 1, 1}},
                        {1, 3, (double[]){0, 1, 0}}});
    vg_case(g, "margins u = 1e4 and -1e4 (no overflow), labels 0 and m - 1", "pdm-margin,pdm-label-edge", 0,
            (ftensor[]){{3, 2, (double[]){10000, 0.5, 0, 0, -10000, 0.25}}, {2, 2, (double[]){1, 0, 1, 0}},
                        {1, 2, (double[]){0, 2}}});
    vg_case(g, "class 1 absent from the batch: row 1 of g is 2 beta x/(1 + x^2)^2", "pdm-absent-class", 0,
            (ftensor[]){{3, 2, (double[]){0.5, -1, 3, -0.125, 1, 2}}, {2, 2, (double[]){0.25, 1, -1, 0.5}},
                        {1, 2, (double[]){0, 2}}});
    {
        double X[10 * 5], A[30 * 5], y[30];
        for (int k = 0; k < 50; k++) X[k] = vg_dyadic(g, 8) * 0x1p-3;
        for (int k = 0; k < 150; k++) A[k] = fabs(vg_dyadic(g, 8)) * 0x1p-4;
        for (int t = 0; t < 30; t++) y[t] = (double)((unsigned)fabs(vg_dyadic(g, 8)) % 10);
        vg_case(g, "random dyadic, m = 10, n = 5, b = 30 (the paper's m and b)", "random", 0,
                (ftensor[]){{10, 5, X}, {30, 5, A}, {1, 30, y}});
    }
    vg_group(g, "beta = 0: the loss part alone", (double[]){0});
    vg_case(g, "beta = 0, X = 0: f = ln 2", "pdm-zero-model,boundary", 0,
            (ftensor[]){{1, 1, (double[]){0}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_case(g, "beta = 0, u = -1e4: f = 1e4 + ln(1 + e^-1e4)", "pdm-margin", 0,
            (ftensor[]){{1, 1, (double[]){-10000}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_group(g, "beta = 1e-2, bad inputs", (double[]){1e-2});
    vg_case(g, "label m (off by one)", "size", 1,
            (ftensor[]){{2, 1, (double[]){1, 1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){2}}});
    vg_case(g, "NaN in X", "nan", 1,
            (ftensor[]){{1, 1, (double[]){NAN}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_case(g, "infinite feature", "inf", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){INFINITY}}, {1, 1, (double[]){0}}});
    vg_case(g, "A with the wrong number of columns", "size", 1,
            (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_group(g, "beta = -1e-2", (double[]){-1e-2});
    vg_case(g, "beta < 0", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
}

const vfunc vfunc_fedpdm_loss = {"fedpdm_loss", "003 (25), Sec. V-A", params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
