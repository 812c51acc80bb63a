/* SPDX-License-Identifier: Apache-2.0 */
/* const.c -- vector schema of ssca_const, the constant term of the
 * constraint surrogate, 000 (14) first line (also (25), (42) with the loss):
 * params rho, tau, B; inputs f0 (scalar), w (d, the server point w^(t)),
 * G (nc x d: client i's sum of its batch's constraint gradients), F (nc:
 * the sums of its batch's constraint values), N (nc sizes); expect
 *   f0_next = (1 - rho) f0 + rho (sum_i N_i/(B N) (F_i - G_i^T w) + tau ||w||^2).
 * tol: rel 0, abs ff_ssca_const_bound's bound (fedfast/ssca.h). */
#include "surrogate_vec.h"

static const vspec params[] = {{"rho", VK_SCALAR}, {"tau", VK_SCALAR}, {"B", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"f0", VK_SCALAR}, {"w", VK_VECTOR}, {"G", VK_MATRIX}, {"F", VK_VECTOR},
                               {"N", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f0_next", VK_SCALAR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[1].cols, B, *N = NULL;
    int st = in[3].cols != in[4].cols ? FR_ESIZE : sv_msgs_r(&B, &N, par[2].v[0], &in[4], &in[2], d);
    if (st == FR_OK) st = sv_copy_r(&out[0], &in[0], prec);
    if (st == FR_OK)
        st = fr_ssca_const(out[0].v[0], in[1].v, in[2].v, in[3].v, N, in[4].cols, d, B, par[0].v[0],
                           par[1].v[0]);
    free(N);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[1].cols, B, *N = NULL;
    int st = in[3].cols != in[4].cols ? FR_ESIZE : sv_msgs_f(&B, &N, par[2].v[0], &in[4], &in[2], d);
    if (st == FR_OK) st = sv_copy_f(&out[0], &in[0]);
    if (st == FR_OK)
        st = ff_ssca_const(out[0].v, in[1].v, in[2].v, in[3].v, N, in[4].cols, d, B, par[0].v[0],
                           par[1].v[0]);
    free(N);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[1].cols, B, *N = NULL;
    double b;
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (in[3].cols == in[4].cols && sv_msgs_f(&B, &N, par[2].v[0], &in[4], &in[2], d) == FR_OK
        && ff_ssca_const_bound(&b, in[0].v, in[1].v, in[2].v, in[3].v, N, in[4].cols, d, B, par[0].v[0],
                               par[1].v[0]) == FR_OK)
        *abs = b;
    free(N);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t d = 1 + sv_below(g, 5), nc = 1 + sv_below(g, 4), B = 1 + sv_below(g, 100);
    sv_scalar(&par[0], sv_step(g));
    sv_scalar(&par[1], fabs(sv_value(g, -8, 12)));
    sv_scalar(&par[2], (double)B);
    sv_scalar(&in[0], sv_value(g, -10, 20));
    sv_random(&in[1], g, 1, d, -10, 20);
    sv_random(&in[2], g, nc, d, -10, 20);
    sv_random(&in[3], g, 1, nc, -10, 20);
    sv_sizes(&in[4], g, nc, B);
}

#define S(x) {1, 1, (double[]){x}}
#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define M(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vg_group(g, "rho = 1, tau = 1/2, B = 1", (double[]){1, 0.5, 1});
    vg_case(g, "one client, N = 1: F - G^T w + ||w||^2/2 = 3 - 2 + 1/2", "rho-equals-one,exact", 0,
            (ftensor[]){S(100), V(2, 1, -1), M(1, 2, 1, -1), V(1, 3), V(1, 1)});
    vg_case(g, "F = G^T w - tau ||w||^2: exactly 0 (+0)", "rho-equals-one,plus-zero-result,cancellation", 0,
            (ftensor[]){S(-5), V(2, 1, -1), M(1, 2, 1, -1), V(1, 1), V(1, 1)});
    vg_group(g, "rho = 1/2, tau = 1/4, B = 2", (double[]){0.5, 0.25, 2});
    vg_case(g, "two clients N = (3, 5), d = 3", "unequal-sizes", 0,
            (ftensor[]){S(0.75), V(3, 0.5, -1, 2), M(2, 3, 1, 2, -3, 0.5, 0.25, -1), V(2, 4, -2),
                        V(2, 3, 5)});
    vg_group(g, "000 (40)-(42) sample-based: rho^(1) = RN(0.9), tau = RN(0.2), B = 10, I = 10, N_i = 6000",
             (double[]){0.9, 0.2, 10});
    double w[4], G[40], F[10];
    for (int k = 0; k < 4; k++) w[k] = vg_dyadic(g, 16) / 64;
    for (int k = 0; k < 40; k++) G[k] = vg_dyadic(g, 16);
    for (int k = 0; k < 10; k++) F[k] = fabs(vg_dyadic(g, 16)) + 20;   /* 10 cross-entropy losses */
    vg_case(g, "the first round (f0^(0) = 0): F_i = sums of 10 losses", "random", 0,
            (ftensor[]){S(0), {1, 4, w}, {10, 4, G}, {1, 10, F},
                        V(10, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000)});
    vg_group(g, "rho = 1/2, tau = 1, B = 2^20", (double[]){0.5, 1, 0x1p20});
    vg_case(g, "N = (2^40, 3 2^40 + 1)", "large-count,unequal-sizes", 0,
            (ftensor[]){S(1), V(2, 0.5, 0.25), M(2, 2, 3, -5, 7, 11), V(2, 0x1p30, -0x1p30),
                        V(2, 0x1p40, 0x1.8p41 + 1)});
    vg_group(g, "rho = 2^-60, tau = 1, B = 1", (double[]){0x1p-60, 1, 1});
    vg_case(g, "a tiny step", "tiny-rho", 0,
            (ftensor[]){S(1), V(1, 0x1p30), M(1, 1, 3), V(1, -1), V(1, 1)});
    vg_group(g, "tau = -1", (double[]){0.5, -1, 1});
    vg_case(g, "tau < 0", "domain", 1, (ftensor[]){S(0), V(1, 1), M(1, 1, 1), V(1, 1), V(1, 2)});
    vg_group(g, "rho = 1/2, tau = 1, B = 4", (double[]){0.5, 1, 4});
    vg_case(g, "B = 4 > N_1 = 3", "domain", 1, (ftensor[]){S(0), V(1, 1), M(1, 1, 1), V(1, 1), V(1, 3)});
    vg_case(g, "f0 NaN", "nan", 1, (ftensor[]){S(NAN), V(1, 1), M(1, 1, 1), V(1, 1), V(1, 5)});
    vg_case(g, "F infinite", "inf", 1, (ftensor[]){S(0), V(1, 1), M(1, 1, 1), V(1, INFINITY), V(1, 5)});
    vg_case(g, "F has 2 values, N 1", "size", 1, (ftensor[]){S(0), V(1, 1), M(1, 1, 1), V(2, 1, 1), V(1, 5)});
    vg_case(g, "empty w and G rows", "size", 1,
            (ftensor[]){S(0), {1, 0, (double[]){0}}, M(1, 0, 0), V(1, 1), V(1, 5)});
}

const vfunc vfunc_ssca_const = {"ssca_const", "000 eq. (14), (25), (42)", params, inputs, expects, ref, fast,
                                tol, golden, sample, 0, 0};
