/* SPDX-License-Identifier: Apache-2.0 */
/* momentum.c -- vector schema of ssca_momentum, the momentum form of
 * 000 (11)-(12): params rho, gamma_prev, gamma, tau, B; inputs v (d), w
 * (d), G (nc x d), N (nc sizes); expect
 *   v_next = (1 - rho)(1 - gamma_prev) v + rho/(2 tau) sum_i N_i/(B N) G_i,
 *   w_next = w - gamma v_next  (with the exact v_next).
 * The first round is gamma_prev = 0 (gamma^(0) = 0) with v = w^(1), the
 * start that reproduces (5), (9), (10) (docs/ERRATA.md E-000-12).  tol:
 * rel 0, abs the largest of ff_ssca_momentum_bound's bounds on v and w. */
#include "surrogate_vec.h"

static const vspec params[] = {{"rho", VK_SCALAR}, {"gamma_prev", VK_SCALAR}, {"gamma", VK_SCALAR},
                               {"tau", VK_SCALAR}, {"B", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"v", VK_VECTOR}, {"w", VK_VECTOR}, {"G", VK_MATRIX}, {"N", VK_VECTOR},
                               {NULL, 0}};
static const vspec expects[] = {{"v_next", VK_VECTOR}, {"w_next", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[0].cols, B, *N = NULL;
    int st = in[1].cols != d ? FR_ESIZE : sv_msgs_r(&B, &N, par[4].v[0], &in[3], &in[2], d);
    if (st == FR_OK) st = sv_copy_r(&out[0], &in[0], prec);
    if (st == FR_OK) st = sv_copy_r(&out[1], &in[1], prec);
    if (st == FR_OK)
        st = fr_ssca_momentum(out[0].v, out[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0], par[1].v[0],
                              par[2].v[0], par[3].v[0]);
    free(N);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[0].cols, B, *N = NULL;
    int st = in[1].cols != d ? FR_ESIZE : sv_msgs_f(&B, &N, par[4].v[0], &in[3], &in[2], d);
    if (st == FR_OK) st = sv_copy_f(&out[0], &in[0]);
    if (st == FR_OK) st = sv_copy_f(&out[1], &in[1]);
    if (st == FR_OK)
        st = ff_ssca_momentum(out[0].v, out[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0], par[1].v[0],
                              par[2].v[0], par[3].v[0]);
    free(N);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[0].cols, B, *N = NULL;
    double *b = malloc((d ? 2 * d : 1) * sizeof *b);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (b && in[1].cols == d && sv_msgs_f(&B, &N, par[4].v[0], &in[3], &in[2], d) == FR_OK
        && ff_ssca_momentum_bound(b, b + d, in[0].v, in[1].v, in[2].v, N, in[3].cols, d, B, par[0].v[0],
                                  par[1].v[0], par[2].v[0], par[3].v[0]) == FR_OK)
        *abs = sv_max(b, 2 * d);
    free(b);
    free(N);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t d = 1 + sv_below(g, 5), nc = 1 + sv_below(g, 4), B = 1 + sv_below(g, 100);
    sv_scalar(&par[0], sv_step(g));
    sv_scalar(&par[1], sv_below(g, 4) == 0 ? 0 : sv_step(g));
    sv_scalar(&par[2], sv_step(g));
    sv_scalar(&par[3], fabs(sv_value(g, -8, 12)));
    sv_scalar(&par[4], (double)B);
    sv_random(&in[0], g, 1, d, -10, 20);
    sv_random(&in[1], g, 1, d, -10, 20);
    sv_random(&in[2], g, nc, d, -10, 20);
    sv_sizes(&in[3], g, nc, B);
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define M(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vg_group(g, "the first round: rho = 1/2, gamma^(0) = 0, gamma = 1/4, tau = 1/2, B = 1",
             (double[]){0.5, 0, 0.25, 0.5, 1});
    vg_case(g, "v^(0) = w^(1) = (2, -1): v = (1/2) w + (1/2) g, w - v/4", "momentum-start,exact", 0,
            (ftensor[]){V(2, 2, -1), V(2, 2, -1), M(1, 2, 1, 3), V(1, 4)});
    vg_case(g, "the printed v^(0) = 0 from the same w^(1): another iterate (E-000-12)",
            "momentum-start,printed-formula-fails,exact", 0,
            (ftensor[]){V(2, 0, 0), V(2, 2, -1), M(1, 2, 1, 3), V(1, 4)});
    vg_group(g, "rho = 1, gamma_prev = 1/2, gamma = 1/2, tau = 1/4, B = 2", (double[]){1, 0.5, 0.5, 0.25, 2});
    vg_case(g, "v = g/(2 tau): the past forgotten; w = gamma v exactly gives +0", "rho-equals-one,plus-zero-result,exact",
            0, (ftensor[]){V(2, 7, -7), V(2, 0.5, 5), M(2, 2, 1, 2, 1, 2), V(2, 3, 5)});
    vg_group(g, "000 Sec. VI: rho = 0.9 3^-0.1, gamma_prev = 0.5 2^-0.1, gamma = 0.5 3^-0.1 (binary64), "
             "tau = RN(0.2), B = 10", (double[]){0.806362613856686, 0.4665164957684037, 0.4479792299203811,
                                                 0.2, 10});
    double v[4], w[4], G[3 * 4];
    for (int k = 0; k < 4; k++) { v[k] = vg_dyadic(g, 20) / 16; w[k] = vg_dyadic(g, 20) / 16; }
    for (int k = 0; k < 12; k++) G[k] = vg_dyadic(g, 16);
    vg_case(g, "three clients with N = (6000, 5000, 7000)", "unequal-sizes,random", 0,
            (ftensor[]){{1, 4, v}, {1, 4, w}, {3, 4, G}, V(3, 6000, 5000, 7000)});
    vg_group(g, "rho = 1/2, gamma_prev = 1/2, gamma = 1/2, tau = 1, B = 2^20", (double[]){0.5, 0.5, 0.5, 1, 0x1p20});
    vg_case(g, "N = (2^40, 2^40 + 1)", "large-count", 0,
            (ftensor[]){V(2, 1, -1), V(2, 0.5, 0.25), M(2, 2, 3, -5, 7, 11), V(2, 0x1p40, 0x1p40 + 1)});
    vg_group(g, "gamma = 0", (double[]){0.5, 0.5, 0, 1, 1});
    vg_case(g, "gamma = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_group(g, "gamma_prev = 1.5", (double[]){0.5, 1.5, 0.5, 1, 1});
    vg_case(g, "gamma_prev > 1", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_group(g, "gamma_prev = -0.5", (double[]){0.5, -0.5, 0.5, 1, 1});
    vg_case(g, "gamma_prev < 0", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_group(g, "rho = 0", (double[]){0, 0.5, 0.5, 1, 1});
    vg_case(g, "rho = 0", "domain,boundary", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_group(g, "tau = -1", (double[]){0.5, 0.5, 0.5, -1, 1});
    vg_case(g, "tau < 0", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_group(g, "rho = gamma_prev = gamma = 1/2, tau = 1, B = 2", (double[]){0.5, 0.5, 0.5, 1, 2});
    vg_case(g, "B = 2 > N_1 = 1", "domain", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, 1), V(1, 1)});
    vg_case(g, "NaN in v", "nan", 1, (ftensor[]){V(1, NAN), V(1, 1), M(1, 1, 1), V(1, 2)});
    vg_case(g, "Inf in G", "inf", 1, (ftensor[]){V(1, 1), V(1, 1), M(1, 1, -INFINITY), V(1, 2)});
    vg_case(g, "w shorter than v", "size", 1, (ftensor[]){V(2, 1, 1), V(1, 1), M(1, 2, 1, 1), V(1, 2)});
}

const vfunc vfunc_ssca_momentum = {"ssca_momentum", "000 eq. (11)-(12)", params, inputs, expects, ref, fast, tol,
                                   golden, sample, 0, 0};
