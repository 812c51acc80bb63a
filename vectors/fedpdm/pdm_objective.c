/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_objective.c -- vector schema of fedpdm_objective, the objective (24)
 * of 003 Sec. V-A: params beta, gamma; inputs X (m x n), A (D x n, the
 * clients' samples client by client), y (D labels), d (N client sizes);
 * expect F = (1/N) sum_i f_i(X; D_i) + gamma ||X||_1.  tol: rel 0, abs
 * ff_pdm_objective_bound (fedfast/fedpdm.h). */
#include "pdm_common.h"

static const vspec params[] = {{"beta", VK_SCALAR}, {"gamma", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"X", VK_MATRIX}, {"A", VK_MATRIX}, {"y", VK_VECTOR}, {"d", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"F", VK_SCALAR}, {NULL, 0}};

/* the problem from binary64 fields; y and d allocated (free both) */
static int problem(fr_pdm_problem *P, size_t **y, size_t **d, const double *A, size_t ar, size_t ac,
                   const double *yv, size_t yc, const double *dv, size_t dc, size_t m, size_t n, double beta,
                   double gamma)
{
    *y = malloc((yc ? yc : 1) * sizeof **y);
    *d = malloc((dc ? dc : 1) * sizeof **d);
    if (*y == NULL || *d == NULL) return FR_ENOMEM;
    if (ac != n || ar != yc) return FR_ESIZE;
    int st = pdm_labels(*y, yv, yc);
    if (st == FR_OK) st = pdm_labels(*d, dv, dc);
    if (st != FR_OK) return st;
    size_t D = 0;
    for (size_t i = 0; i < dc; i++) D += (*d)[i];
    if (D != ar) return FR_ESIZE;
    *P = (fr_pdm_problem){.N = dc, .m = m, .n = n, .d = *d, .A = A, .y = *y, .beta = beta, .gamma = gamma};
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t D = in[1].rows * in[1].cols, yc = in[2].cols, dc = in[3].cols, *y = NULL, *d = NULL;
    double *A = malloc((D ? D : 1) * sizeof *A), *yv = malloc((yc ? yc : 1) * sizeof *yv),
           *dv = malloc((dc ? dc : 1) * sizeof *dv), beta, gamma;
    int st = A && yv && dv ? FR_OK : FR_ENOMEM;
    for (size_t k = 0; k < D && st == FR_OK; k++) st = rt_exact_double(&A[k], in[1].v[k]);
    for (size_t k = 0; k < yc && st == FR_OK; k++) st = rt_exact_double(&yv[k], in[2].v[k]);
    for (size_t k = 0; k < dc && st == FR_OK; k++) st = rt_exact_double(&dv[k], in[3].v[k]);
    if (st == FR_OK) st = rt_exact_double(&beta, par[0].v[0]);
    if (st == FR_OK) st = rt_exact_double(&gamma, par[1].v[0]);
    fr_pdm_problem P;
    if (st == FR_OK)
        st = problem(&P, &y, &d, A, in[1].rows, in[1].cols, yv, yc, dv, dc, in[0].rows, in[0].cols, beta, gamma);
    if (st == FR_OK && rt_alloc(&out[0], 1, 1, prec) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = fr_pdm_objective(out[0].v[0], in[0].v, &P);
    free(A);
    free(yv);
    free(dv);
    free(y);
    free(d);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t *y = NULL, *d = NULL;
    fr_pdm_problem P;
    int st = problem(&P, &y, &d, in[1].v, in[1].rows, in[1].cols, in[2].v, in[2].cols, in[3].v, in[3].cols,
                     in[0].rows, in[0].cols, par[0].v[0], par[1].v[0]);
    if (st == FR_OK && ft_alloc(&out[0], 1, 1) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_pdm_objective(&out[0].v[0], in[0].v, &P);
    free(y);
    free(d);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t *y = NULL, *d = NULL;
    fr_pdm_problem P;
    double e;
    *rel = *abs = 0;
    if (problem(&P, &y, &d, in[1].v, in[1].rows, in[1].cols, in[2].v, in[2].cols, in[3].v, in[3].cols,
                in[0].rows, in[0].cols, par[0].v[0], par[1].v[0]) == FR_OK
        && ff_pdm_objective_bound(&e, in[0].v, &P) == FR_OK)
        *abs = e;
    free(y);
    free(d);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t m, n, N, r;
    size_t dd[4], D = 0;
    frng_below(g, 4, &m); m++;
    frng_below(g, 5, &n); n++;
    frng_below(g, 4, &N); N++;
    for (size_t i = 0; i < N; i++) { frng_below(g, 5, &r); dd[i] = 1 + (size_t)r; D += dd[i]; }
    ft_alloc(&par[0], 1, 1);
    ft_alloc(&par[1], 1, 1);
    par[0].v[0] = 0.01;
    par[1].v[0] = 1e-4;
    ft_alloc(&in[0], m, n);
    ft_alloc(&in[1], D, n);
    ft_alloc(&in[2], 1, D);
    ft_alloc(&in[3], 1, N);
    for (size_t k = 0; k < m * n; k++) { frng_below(g, 2049, &r); in[0].v[k] = ldexp((double)r - 1024, -8); }
    for (size_t k = 0; k < D * n; k++) { frng_below(g, 256, &r); in[1].v[k] = ldexp((double)r, -8); }
    for (size_t t = 0; t < D; t++) { frng_below(g, m, &r); in[2].v[t] = (double)r; }
    for (size_t i = 0; i < N; i++) in[3].v[i] = (double)dd[i];
}

static void golden(vgen *g)
{
    vg_group(g, "beta = 1e-2, gamma = 1e-4 (Sec. V-A)", (double[]){1e-2, 1e-4});
    vg_case(g, "X = 0: F = ln 2 (every client)", "pdm-zero-model", 0,
            (ftensor[]){{2, 2, (double[]){0, 0, 0, 0}}, {3, 2, (double[]){1, 0.5, 1, 0.25, 1, 0}},
                        {1, 3, (double[]){0, 1, 1}}, {1, 2, (double[]){1, 2}}});
    vg_case(g, "two clients of sizes 1 and 2, labels 0 and m - 1", "pdm-label-edge", 0,
            (ftensor[]){{3, 2, (double[]){0.5, -1, 2, 0.25, -0.75, 1}}, {3, 2, (double[]){1, 0.5, 1, 0.25, 1, 0}},
                        {1, 3, (double[]){0, 2, 2}}, {1, 2, (double[]){1, 2}}});
    {
        size_t d[4], D = 0;
        if (fr_pdm_synth_sizes(7, 4, 2, 6, d) == FR_OK) {
            for (int i = 0; i < 4; i++) D += d[i];
            double A[24 * 8], y[24], X[10 * 8], dv[4];
            size_t ys[24];
            if (D <= 24 && fr_pdm_synth_data(7, 4, 10, 8, d, A, ys) == FR_OK) {
                for (size_t t = 0; t < D; t++) y[t] = (double)ys[t];
                for (int i = 0; i < 4; i++) dv[i] = (double)d[i];
                for (int k = 0; k < 80; k++) X[k] = vg_dyadic(g, 8) * 0x1p-2;
                vg_case(g, "synthetic problem (fr_pdm_synth, seed 7): N = 4, m = 10, n = 8", "random", 0,
                        (ftensor[]){{10, 8, X}, {D, 8, A}, {1, D, y}, {1, 4, dv}});
            }
        }
    }
    vg_group(g, "beta = 0, gamma = 0: the mean loss alone", (double[]){0, 0});
    vg_case(g, "margins 1e4: F = (1/2)(1e4 + ...) ", "pdm-margin", 0,
            (ftensor[]){{1, 1, (double[]){-10000}}, {2, 1, (double[]){1, 1}}, {1, 2, (double[]){0, 0}},
                        {1, 2, (double[]){1, 1}}});
    vg_group(g, "bad problems", (double[]){1e-2, 1e-4});
    vg_case(g, "sizes do not add up to the rows of A", "size", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {2, 1, (double[]){1, 1}}, {1, 2, (double[]){0, 0}},
                        {1, 1, (double[]){1}}});
    vg_case(g, "a client with no sample", "size", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}},
                        {1, 2, (double[]){1, 0}}});
    vg_case(g, "NaN in X", "nan", 1,
            (ftensor[]){{1, 1, (double[]){NAN}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){1}}});
    vg_group(g, "gamma < 0", (double[]){1e-2, -1e-4});
    vg_case(g, "gamma < 0", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 1, (double[]){1}}});
}

const vfunc vfunc_fedpdm_objective = {"fedpdm_objective", "003 (24), Sec. V-A", params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
