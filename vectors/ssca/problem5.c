/* SPDX-License-Identifier: Apache-2.0 */
/* problem5.c -- vector schema of ssca_problem5, Problem 5 of 000 (Sec.
 * III-B) with the surrogates (7) and (15), M constraints:
 *   min_{w, s} t0 ||w||^2 + g0^T w + c sum_m s_m
 *   s.t. kappa_m + g_m^T w + tau ||w||^2 <= s_m,  s_m >= 0,
 * params t0, tau, c; inputs g0 (vector, d), kappa (vector, M), G (matrix
 * M x d, row m = g_m); expect omega (d) and s (M), both unique (the
 * multipliers are not, so they are not expected).  tol: rel 0, abs the
 * largest of ff_ssca_problem5_bound's bounds (an a-posteriori bound from
 * the duality gap: fedfast/ssca.h). */
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

static const vspec params[] = {{"t0", VK_SCALAR}, {"tau", VK_SCALAR}, {"c", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"g0", VK_VECTOR}, {"kappa", VK_VECTOR}, {"G", VK_MATRIX}, {NULL, 0}};
static const vspec expects[] = {{"omega", VK_VECTOR}, {"s", VK_VECTOR}, {NULL, 0}};

/* FR_OK iff g0 has d = cols(G) entries and kappa M = rows(G). */
static int shapes(size_t g0n, size_t kn, size_t M, size_t d)
{
    return g0n == d && kn == M ? FR_OK : FR_ESIZE;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t M = in[2].rows, d = in[2].cols;
    int st = shapes(in[0].cols, in[1].cols, M, d);
    if (st != FR_OK) return st;
    rtensor nu = {0};
    if (rt_alloc(&out[0], 1, d, prec) != 0 || rt_alloc(&out[1], 1, M, prec) != 0
        || rt_alloc(&nu, 1, M, prec) != 0) {
        rt_free(&nu);
        return FR_ENOMEM;
    }
    st = fr_ssca_problem5(out[0].v, out[1].v, nu.v, NULL, in[0].v, in[1].v, in[2].v, M, d,
                          par[0].v[0], par[1].v[0], par[2].v[0]);
    rt_free(&nu);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t M = in[2].rows, d = in[2].cols;
    int st = shapes(in[0].cols, in[1].cols, M, d);
    if (st != FR_OK) return st;
    double *nu = malloc((M ? M : 1) * sizeof *nu);
    if (nu == NULL || ft_alloc(&out[0], 1, d) != 0 || ft_alloc(&out[1], 1, M) != 0) {
        free(nu);
        return FR_ENOMEM;
    }
    st = ff_ssca_problem5(out[0].v, out[1].v, nu, NULL, in[0].v, in[1].v, in[2].v, M, d,
                          par[0].v[0], par[1].v[0], par[2].v[0]);
    free(nu);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t M = in[2].rows, d = in[2].cols;
    double *wb = malloc((d ? d : 1) * sizeof *wb), *sb = malloc((M ? M : 1) * sizeof *sb);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (wb && sb && shapes(in[0].cols, in[1].cols, M, d) == FR_OK
        && ff_ssca_problem5_bound(wb, sb, in[0].v, in[1].v, in[2].v, M, d, par[0].v[0],
                                  par[1].v[0], par[2].v[0]) == FR_OK) {
        for (size_t j = 0; j < d; j++)
            *abs = fmax(*abs, wb[j]);
        for (size_t m = 0; m < M; m++)
            *abs = fmax(*abs, sb[m]);
    }
    free(wb);
    free(sb);
}

static double rnd(frng_t *g, int emin, int span)
{
    uint64_t e, s;
    frng_below(g, 2, &s);
    frng_below(g, (uint64_t)span, &e);
    return (s ? -1 : 1) * ldexp((double)frng_u53(g) * 0x1p-53, emin + (int)e);
}

/* A valid random case for the audit sweep: M in [1, 3], d in [1, 4], data
 * of order 1, kappa near activity at the unconstrained minimiser half of
 * the time, sometimes a duplicated constraint or tau = 0. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t M, d, k;
    frng_below(g, 3, &M);
    M++;
    frng_below(g, 4, &d);
    d++;
    for (int i = 0; i < 3; i++)
        ft_alloc(&par[i], 1, 1);
    par[0].v[0] = fabs(rnd(g, -3, 4)) + 0.0625;              /* t0 */
    frng_below(g, 6, &k);
    par[1].v[0] = k == 0 ? 0 : fabs(rnd(g, -4, 4));          /* tau */
    par[2].v[0] = fabs(rnd(g, -2, 10)) + 0.125;              /* c */
    ft_alloc(&in[0], 1, (size_t)d);
    ft_alloc(&in[1], 1, (size_t)M);
    ft_alloc(&in[2], (size_t)M, (size_t)d);
    for (size_t j = 0; j < d; j++)
        in[0].v[j] = rnd(g, -3, 4);
    for (size_t i = 0; i < M * d; i++)
        in[2].v[i] = rnd(g, -3, 4);
    for (size_t m = 0; m < M; m++) {
        frng_below(g, 2, &k);
        if (k) {                                             /* near activity at w0 = -g0/(2 t0) */
            double v = 0, q = 0;
            for (size_t j = 0; j < d; j++) {
                double w0 = -in[0].v[j] / (2 * par[0].v[0]);
                v += in[2].v[m * d + j] * w0;
                q += w0 * w0;
            }
            in[1].v[m] = -(v + par[1].v[0] * q) + rnd(g, -8, 6);
        } else {
            in[1].v[m] = rnd(g, -4, 5);
        }
    }
    frng_below(g, 5, &k);
    if (k == 0 && M >= 2) {                                  /* a duplicated constraint */
        in[1].v[M - 1] = in[1].v[0];
        for (size_t j = 0; j < d; j++)
            in[2].v[(M - 1) * d + j] = in[2].v[j];
    }
}

static void golden(vgen *g)
{
    const double A4[4] = {0.25, -0.5, 0.125, 1}, Z4[4] = {0, 0, 0, 0};
    vg_group(g, "(41) of Lemma 1 as Problem 5: t0 = 1, g0 = 0, tau = 0.2, c = 1e5", (double[]){1, 0.2, 1e5});
    vg_case(g, "M = 1, kappa = C - U = 0.375: the interior nu of Lemma 1, s = 0",
            "problem5-lemma1,problem5-active,paper-constants,zero-result", 0,
            (ftensor[]){{1, 4, (double *)Z4}, {1, 1, (double[]){0.375}}, {1, 4, (double *)A4}});
    vg_case(g, "M = 1, kappa = -0.375 (U > C): nu = 0, omega = 0, s = 0",
            "problem5-lemma1,problem5-inactive,paper-constants,zero-result", 0,
            (ftensor[]){{1, 4, (double *)Z4}, {1, 1, (double[]){-0.375}}, {1, 4, (double *)A4}});
    vg_case(g, "M = 1, kappa = 9.875: D < 0, nu = c, s > 0",
            "problem5-lemma1,problem5-saturated,paper-constants", 0,
            (ftensor[]){{1, 4, (double *)Z4}, {1, 1, (double[]){9.875}}, {1, 4, (double *)A4}});
    vg_case(g, "M = 1, A = 0, kappa = 0: every nu optimal, omega = 0, s = 0",
            "problem5-lemma1,problem5-degenerate,zero-result,paper-constants", 0,
            (ftensor[]){{1, 2, (double[]){0, 0}}, {1, 1, (double[]){0}}, {1, 2, (double[]){0, 0}}});
    vg_case(g, "M = 1, a zero component of A: omega_j = +0",
            "problem5-lemma1,problem5-active,zero-result,paper-constants", 0,
            (ftensor[]){{1, 3, (double[]){0, 0, 0}}, {1, 1, (double[]){0.5}}, {1, 3, (double[]){0.75, 0, -0.375}}});
    vg_group(g, "the surrogates (7), (15): t0 = tau W with tau = 0.2, W = 0.75; c = 1e5", (double[]){0.15, 0.2, 1e5});
    vg_case(g, "M = 1, g0 != 0, the constraint active: 0 < nu < c",
            "problem5-active,paper-constants,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){0.5, -0.25, 0.125}}, {1, 1, (double[]){0.0625}},
                        {1, 3, (double[]){-0.75, 1, 0.5}}});
    vg_case(g, "M = 2: one active, one inactive", "problem5-active,problem5-inactive,paper-constants,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){0.5, -0.25, 0.125}}, {1, 2, (double[]){0.0625, -4}},
                        {2, 3, (double[]){-0.75, 1, 0.5, 0.25, 0.25, 0.25}}});
    vg_group(g, "M = 3 mixed: t0 = 0.5, tau = 0.1, c = 10", (double[]){0.5, 0.1, 10});
    vg_case(g, "active (free nu), saturated (nu = c, s > 0), inactive (nu = 0)",
            "problem5-active,problem5-saturated,problem5-inactive,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){-1, -1, 0.5}}, {1, 3, (double[]){0.5, 40, -5}},
                        {3, 3, (double[]){1, 0, 0, 0, 1, 0, 0, 0, 1}}});
    vg_case(g, "two active constraints, both multipliers free", "problem5-active,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){-1, -1, 0.5}}, {1, 2, (double[]){0.5, 0.5}},
                        {2, 3, (double[]){1, 0, 0, 0, 1, 0}}});
    vg_case(g, "duplicated constraints (1 1 0) twice: nu1 + nu2 determined, not each",
            "problem5-degenerate,problem5-active,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){0, 0, 0}}, {1, 2, (double[]){1, 1}},
                        {2, 3, (double[]){1, 1, 0, 1, 1, 0}}});
    vg_case(g, "M = 3 > d = 2: two active, one inactive", "problem5-degenerate,problem5-active,problem5-inactive,zero-result", 0,
            (ftensor[]){{1, 2, (double[]){0, 0}}, {1, 3, (double[]){1, 1, 1}},
                        {3, 2, (double[]){1, 0, 0, 1, 1, 1}}});
    vg_case(g, "M = 3 > d = 1: three constraints on one coordinate",
            "problem5-degenerate,zero-result", 0,
            (ftensor[]){{1, 1, (double[]){0.75}}, {1, 3, (double[]){0.25, -0.125, 0.5}},
                        {3, 1, (double[]){1, -0.5, 2}}});
    vg_group(g, "tau = 0 (linear constraints): t0 = 1, c = 3", (double[]){1, 0, 3});
    vg_case(g, "M = 2, tau = 0", "boundary,problem5-active", 0,
            (ftensor[]){{1, 2, (double[]){-2, 1}}, {1, 2, (double[]){0.25, -0.5}},
                        {2, 2, (double[]){1, -1, 0.5, 2}}});
    double g0[5], kap[3], G[15];
    for (int j = 0; j < 5; j++)
        g0[j] = vg_dyadic(g, 10);
    for (int i = 0; i < 15; i++)
        G[i] = vg_dyadic(g, 10);
    for (int m = 0; m < 3; m++)
        kap[m] = vg_dyadic(g, 8);
    vg_group(g, "random dyadic data: t0 = 0.375, tau = 0.0625, c = 100", (double[]){0.375, 0.0625, 100});
    vg_case(g, "M = 3, d = 5", "random", 0, (ftensor[]){{1, 5, g0}, {1, 3, kap}, {3, 5, G}});
    vg_group(g, "t0 = 0 (outside t0 > 0)", (double[]){0, 0.2, 10});
    vg_case(g, "t0 = 0", "domain,boundary", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "t0 < 0", (double[]){-1, 0.2, 10});
    vg_case(g, "negative t0", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "tau < 0", (double[]){1, -0.2, 10});
    vg_case(g, "negative tau", "domain", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "c = 0", (double[]){1, 0.2, 0});
    vg_case(g, "c = 0", "domain,boundary", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "c = +Inf", (double[]){1, 0.2, INFINITY});
    vg_case(g, "infinite c", "inf", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "t0 = 1, tau = 0.2, c = 10, bad inputs", (double[]){1, 0.2, 10});
    vg_case(g, "NaN in kappa", "nan", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){NAN}}, {1, 1, (double[]){1}}});
    vg_case(g, "-Inf in G", "inf", 1,
            (ftensor[]){{1, 2, (double[]){1, 0}}, {1, 1, (double[]){0}}, {1, 2, (double[]){1, -INFINITY}}});
    vg_case(g, "NaN in g0", "nan", 1,
            (ftensor[]){{1, 2, (double[]){NAN, 0}}, {1, 1, (double[]){0}}, {1, 2, (double[]){1, 1}}});
    vg_case(g, "g0 shorter than the rows of G", "size", 1,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}, {1, 2, (double[]){1, 1}}});
    vg_case(g, "kappa longer than G has rows", "size", 1,
            (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 2, (double[]){0, 0}}, {1, 2, (double[]){1, 1}}});
    vg_case(g, "empty g0 and G (d = 0)", "size", 1,
            (ftensor[]){{1, 0, (double[]){0}}, {1, 1, (double[]){0}}, {1, 0, (double[]){0}}});
}

const vfunc vfunc_ssca_problem5 = {"ssca_problem5", "000 Sec. III-B, Problem 5 with (7), (15)", params, inputs,
                                   expects, ref, fast, tol, golden, sample, 0, 0};
