/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_predict.c -- vector schema of fedpdm_predict, the test rule (26) of
 * 003 Sec. V-A: inputs X (m x n), A (b x n, test feature rows), y (b true
 * labels); expect pred (b predicted classes, argmax_k x_k^T a_t, ties the
 * smallest k) and correct (the count of pred_t = y_t).  Integers: tol 0
 * (every golden case's fast decisions are certified: ff_pdm_predict's
 * uncertain count is 0, except the ties, which fast decides exactly on
 * these short dyadic inputs). */
#include "pdm_common.h"

static const vspec params[] = {{NULL, 0}};
static const vspec inputs[] = {{"X", VK_MATRIX}, {"A", VK_MATRIX}, {"y", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"pred", VK_VECTOR, .cmp = VC_INT}, {"correct", VK_SCALAR, .cmp = VC_INT}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)par;
    size_t m = in[0].rows, n = in[0].cols, b = in[1].rows;
    if (n != in[1].cols || b != in[2].cols) return FR_ESIZE;
    size_t *y = malloc((b ? b : 1) * sizeof *y), *p = malloc((b ? b : 1) * sizeof *p), c = 0;
    double *yd = malloc((b ? b : 1) * sizeof *yd);
    int st = y && p && yd ? FR_OK : FR_ENOMEM;
    for (size_t t = 0; t < b && st == FR_OK; t++) st = rt_exact_double(&yd[t], in[2].v[t]);
    if (st == FR_OK) st = pdm_labels(y, yd, b);
    if (st == FR_OK) st = fr_pdm_predict(p, &c, in[0].v, m, n, in[1].v, y, b);
    if (st == FR_OK && (rt_alloc(&out[0], 1, b, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0))
        st = FR_ENOMEM;
    if (st == FR_OK) {
        for (size_t t = 0; t < b; t++) mpfr_set_ui(out[0].v[t], (unsigned long)p[t], MPFR_RNDN);
        mpfr_set_ui(out[1].v[0], (unsigned long)c, MPFR_RNDN);
    }
    free(y);
    free(p);
    free(yd);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)par;
    size_t m = in[0].rows, n = in[0].cols, b = in[1].rows;
    if (n != in[1].cols || b != in[2].cols) return FR_ESIZE;
    size_t *y = malloc((b ? b : 1) * sizeof *y), *p = malloc((b ? b : 1) * sizeof *p), c = 0;
    int st = y && p ? pdm_labels(y, in[2].v, b) : FR_ENOMEM;
    if (st == FR_OK) st = ff_pdm_predict(p, &c, NULL, in[0].v, m, n, in[1].v, y, b);
    if (st == FR_OK && (ft_alloc(&out[0], 1, b) != 0 || ft_alloc(&out[1], 1, 1) != 0)) st = FR_ENOMEM;
    if (st == FR_OK) {
        for (size_t t = 0; t < b; t++) out[0].v[t] = (double)p[t];
        out[1].v[0] = (double)c;
    }
    free(y);
    free(p);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par;
    (void)in;
    *rel = *abs = 0;
}

/* The sweep: 8-bit dyadic X and A with n <= 6, so every score x_k^T a is
 * exact in binary64 (products of 16 bits, sums of < 20 bits) and fast must
 * decide every sample as ref does, ties included. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)par;
    uint64_t m, n, b, r;
    frng_below(g, 5, &m); m++;
    frng_below(g, 6, &n); n++;
    frng_below(g, 10, &b); b++;
    ft_alloc(&in[0], m, n);
    ft_alloc(&in[1], b, n);
    ft_alloc(&in[2], 1, b);
    for (size_t k = 0; k < m * n; k++) { frng_below(g, 17, &r); in[0].v[k] = ldexp((double)r - 8, -3); }
    for (size_t k = 0; k < b * n; k++) { frng_below(g, 256, &r); in[1].v[k] = ldexp((double)r - 128, -7); }
    for (size_t t = 0; t < b; t++) { frng_below(g, m, &r); in[2].v[t] = (double)r; }
}

static void golden(vgen *g)
{
    vg_group(g, "the test rule (26)", NULL);
    vg_case(g, "X = 0: every score 0, every prediction class 0 (ties: the smallest k)", "pdm-zero-model,tie", 0,
            (ftensor[]){{3, 2, (double[]){0, 0, 0, 0, 0, 0}}, {2, 2, (double[]){1, 2, -1, 0.5}},
                        {1, 2, (double[]){0, 2}}});
    vg_case(g, "rows 0 and 1 equal: the tie goes to 0; row 2 wins the second sample", "tie,pdm-label-edge", 0,
            (ftensor[]){{3, 2, (double[]){1, 0, 1, 0, 0, 1}}, {3, 2, (double[]){2, 1, 1, 3, 1, 1}},
                        {1, 3, (double[]){1, 2, 0}}});
    {
        double X[4 * 6], A[12 * 6], y[12];
        for (int k = 0; k < 24; k++) X[k] = vg_dyadic(g, 8);
        for (int k = 0; k < 72; k++) A[k] = vg_dyadic(g, 8);
        for (int t = 0; t < 12; t++) y[t] = (double)((unsigned)fabs(vg_dyadic(g, 8)) % 4);
        vg_case(g, "random dyadic, m = 4, n = 6, 12 samples", "random", 0,
                (ftensor[]){{4, 6, X}, {12, 6, A}, {1, 12, y}});
    }
    vg_case(g, "label m", "size", 1,
            (ftensor[]){{2, 1, (double[]){1, 1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){2}}});
    vg_case(g, "label 0.5", "domain", 1,
            (ftensor[]){{2, 1, (double[]){1, 1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0.5}}});
    vg_case(g, "NaN feature", "nan", 1,
            (ftensor[]){{2, 1, (double[]){1, 1}}, {1, 1, (double[]){NAN}}, {1, 1, (double[]){0}}});
}

const vfunc vfunc_fedpdm_predict = {"fedpdm_predict", "003 (26), Sec. V-A", params, inputs, expects, ref, fast, tol, golden, sample, 0, 0};
