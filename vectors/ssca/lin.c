/* SPDX-License-Identifier: Apache-2.0 */
/* lin.c -- vector schema of ssca_lin, the linear coefficient of the
 * surrogate, 000 (9) (also (14), (23), (36)-(37)): params rho, tau, B (the
 * batch size); inputs f1 (d), w (d, the server point w^(t)), G (nc x d:
 * row i = client i's sum of its batch's gradients), N (nc client sizes
 * N_i, integers); expect
 *   f1_next = (1 - rho) f1 + rho (sum_i N_i/(B N) G_i - 2 tau w),  N = sum N_i.
 * The feature-based (23) is nc = 1, N_1 = N (weight 1/B).  tol: rel 0, abs
 * the largest of ff_ssca_lin_bound's per-entry bounds (fedfast/ssca.h).
 * Counts that are not integers in [0, 2^53]: FR_EDOM. */
#include "surrogate_vec.h"

static const vspec params[] = {{"rho", VK_SCALAR}, {"tau", VK_SCALAR}, {"B", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"f1", VK_VECTOR}, {"w", VK_VECTOR}, {"G", VK_MATRIX}, {"N", VK_VECTOR},
                               {NULL, 0}};
static const vspec expects[] = {{"f1_next", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[0].cols, B, *N = NULL;
    int st = in[1].cols != d ? FR_ESIZE : sv_msgs_r(&B, &N, par[2].v[0], &in[3], &in[2], d);
    if (st == FR_OK) st = sv_copy_r(&out[0], &in[0], prec);
    if (st == FR_OK)
        st = fr_ssca_lin(out[0].v, in[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0], par[1].v[0]);
    free(N);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[0].cols, B, *N = NULL;
    int st = in[1].cols != d ? FR_ESIZE : sv_msgs_f(&B, &N, par[2].v[0], &in[3], &in[2], d);
    if (st == FR_OK) st = sv_copy_f(&out[0], &in[0]);
    if (st == FR_OK)
        st = ff_ssca_lin(out[0].v, in[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0], par[1].v[0]);
    free(N);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[0].cols, B, *N = NULL;
    double *b = malloc((d ? d : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && in[1].cols == d && sv_msgs_f(&B, &N, par[2].v[0], &in[3], &in[2], d) == FR_OK
        && ff_ssca_lin_bound(b, in[0].v, in[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0],
                             par[1].v[0]) == FR_OK)
        *abs = sv_max(b, d);
    free(b);
    free(N);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t d = 1 + sv_below(g, 5), nc = 1 + sv_below(g, 4), B = 1 + sv_below(g, 100);
    sv_scalar(&par[0], sv_step(g));
    sv_scalar(&par[1], fabs(sv_value(g, -8, 12)));
    sv_scalar(&par[2], (double)B);
    sv_random(&in[0], g, 1, d, -10, 20);
    sv_random(&in[1], g, 1, d, -10, 20);
    sv_random(&in[2], g, nc, d, -10, 20);
    sv_sizes(&in[3], g, nc, B);
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define M(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vg_group(g, "rho = 1, tau = 1/2, B = 2", (double[]){1, 0.5, 2});
    vg_case(g, "one client, N = 4: f1 = G/2 - w (f1 forgotten); G_0/2 = w_0 gives +0",
            "rho-equals-one,exact,plus-zero-result", 0,
            (ftensor[]){V(3, 9, 9, 9), V(3, 1, -0.5, 0.25), M(1, 3, 2, 3, -1), V(1, 4)});
    vg_group(g, "rho = 1/2, tau = 1/4, B = 2", (double[]){0.5, 0.25, 2});
    vg_case(g, "two clients with N = (3, 5): weights 3/16 and 5/16", "unequal-sizes", 0,
            (ftensor[]){V(3, 0.5, -1, 2), V(3, 1, 0, -2), M(2, 3, 1, 2, -3, 0.5, 0.25, -1), V(2, 3, 5)});
    vg_case(g, "B = N_1 = 2 < N_2 = 7", "unequal-sizes,full-batch", 0,
            (ftensor[]){V(2, 0, 0), V(2, 0.75, -0.125), M(2, 2, 4, -4, 1, 1), V(2, 2, 7)});
    vg_group(g, "000 Sec. VI sample-based, B = 6000: rho^(1) = RN(0.2), tau = RN(0.03), I = 10, N_i = 6000",
             (double[]){0.2, 0.03, 6000});
    double Gs[10 * 4], f1[4] = {0, 0, 0, 0}, w[4];
    for (int k = 0; k < 40; k++) Gs[k] = vg_dyadic(g, 16) * 100;
    for (int k = 0; k < 4; k++) w[k] = vg_dyadic(g, 16) / 64;
    vg_case(g, "the first round (f1^(0) = 0), every client's batch = all its samples", "full-batch,random", 0,
            (ftensor[]){{1, 4, f1}, {1, 4, w}, {10, 4, Gs},
                        V(10, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000)});
    vg_group(g, "feature-based (23): one aggregate, N = 60000, B = 100, rho = RN(0.9), tau = RN(0.2)",
             (double[]){0.9, 0.2, 100});
    double f1b[4], Gf[4];
    for (int k = 0; k < 4; k++) { f1b[k] = vg_dyadic(g, 20); Gf[k] = vg_dyadic(g, 20) * 8; }
    vg_case(g, "nc = 1, N_1 = N: weight 1/B", "random", 0,
            (ftensor[]){{1, 4, f1b}, {1, 4, w}, {1, 4, Gf}, V(1, 60000)});
    vg_group(g, "rho = 1/2, tau = 1, B = 2^20", (double[]){0.5, 1, 0x1p20});
    vg_case(g, "N = (2^40, 2^40 + 1): B N = 2^81 + 2^20", "large-count,unequal-sizes", 0,
            (ftensor[]){V(2, 1, -1), V(2, 0.5, 0.25), M(2, 2, 3, -5, 7, 11), V(2, 0x1p40, 0x1p40 + 1)});
    vg_group(g, "rho = 2^-70, tau = 1, B = 1", (double[]){0x1p-70, 1, 1});
    vg_case(g, "a tiny step: f1 (1 - 2^-70) + 2^-70 (g - 2 w)", "tiny-rho", 0,
            (ftensor[]){V(2, 1, -3), V(2, 0x1p60, 2), M(1, 2, 0x1p69, -1), V(1, 5)});
    vg_group(g, "rho = 1/2, tau = 1/2, B = 1", (double[]){0.5, 0.5, 1});
    vg_case(g, "cancellation: (1/2) f1 + (1/2)(g - w) with f1 = w - g + 2^-40", "cancellation", 0,
            (ftensor[]){V(1, -2 + 0x1p-40), V(1, 1), M(1, 1, 3), V(1, 1)});
    vg_group(g, "tau = 0 (7) requires tau > 0", (double[]){0.5, 0, 1});
    vg_case(g, "tau = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 2)});
    vg_group(g, "rho = 0", (double[]){0, 1, 1});
    vg_case(g, "rho = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 2)});
    vg_group(g, "rho = 2", (double[]){2, 1, 1});
    vg_case(g, "rho > 1", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 2)});
    vg_group(g, "rho = 1/2, tau = 1, B = 3", (double[]){0.5, 1, 3});
    vg_case(g, "B = 3 > N_2 = 2 (000 Sec. III: B <= N_i)", "domain", 1,
            (ftensor[]){V(1, 1), V(1, 1), M(2, 1, 1, 2), V(2, 5, 2)});
    vg_case(g, "N_1 = 2.5: not an integer", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 2.5)});
    vg_case(g, "NaN in G", "nan", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, NAN), V(1, 3)});
    vg_case(g, "Inf in w", "inf", 1, (ftensor[]){V(1, 1), V(1, INFINITY), M(1, 1, 1), V(1, 3)});
    vg_case(g, "G has 2 columns, f1 and w 1", "size", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 2, 1, 1), V(1, 3)});
    vg_case(g, "N names 2 clients, G has 1 row", "size", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(2, 3, 3)});
    vg_case(g, "no clients", "size", 1,
            (ftensor[]){V(1, 1), V(1, 1), {0, 0, (double[]){0}}, {1, 0, (double[]){0}}});
    vg_group(g, "B = 0", (double[]){0.5, 1, 0});
    vg_case(g, "B = 0", "size,boundary", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 3)});
}

const vfunc vfunc_ssca_lin = {"ssca_lin", "000 eq. (9), (14), (23), (36)-(37)", params, inputs, expects, ref,
                              fast, tol, golden, sample, 0, 0};
