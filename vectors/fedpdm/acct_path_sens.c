/* SPDX-License-Identifier: Apache-2.0 */
/* acct_path_sens.c -- vector schema of fedpdm_path_sens: the whole-path
 * sensitivity of a client's uploads under Algorithm 1 with a fixed Q, valid
 * for every participation pattern (E-003-S1; fedref/fedpdm.h).  params rho,
 * Q, G, start (0: x_i^t, 1: x_0^t); input eta (the T stepsizes); expect s
 * (T entries).  ref: every s[t] an upper bound of the recursion's exact
 * value, every operation rounded up at p + 64 bits, then up: within about
 * one ulp, 130 certified bits.  An implementation returns upper bounds: not
 * below expected (1 - 2^-130), at most tol above; fast (upward steps by the
 * fma / TwoSum residuals, (19) by ff_fedpdm_sensitivity, B_t also in
 * double-double): rel 2^-30 (EMPIRICAL: measured 1.8e-13 on 20000 sampler
 * cases; the largest errors are at |1 - 2B_t| near 0 (B_t near 1/2, X0),
 * where B_t's relative error (Q + 64) 2^-100 costs about 2^-94 Lb_t
 * absolute: not bounded relative to s[t] in general), abs 0.  Q, start: integers (not an integer is passed as 0
 * for Q: FR_EDOM, as 2 for start: FR_EDOM); T = 0 (an empty eta) is
 * FR_ESIZE. */
#include "acct_common.h"

static const vspec params[] = {{"rho", VK_SCALAR}, {"Q", VK_SCALAR}, {"G", VK_SCALAR}, {"start", VK_SCALAR},
                               {NULL, 0}};
static const vspec inputs[] = {{"eta", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"s", VK_VECTOR, .cmp = VC_UPPER}, {NULL, 0}};

static int ints(double q, double st, unsigned long *Q, int *start)
{
    unsigned long s = 0;
    int r = acct_int(q, FR_FEDPDM_Q_MAX, 0, Q);
    if (r == FR_OK) r = acct_int(st, 2, 2, &s);
    *start = (int)s;
    return r;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    unsigned long Q;
    int start = 0;
    int st = ints(acct_d(par, 1), acct_d(par, 3), &Q, &start);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T == 0) return FR_ESIZE;
    if (Q >= 1 && Q <= FR_FEDPDM_Q_MAX && acct_work((double)T * (double)(Q + 64)) != FR_OK) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, T, prec) != 0) return FR_ENOMEM;
    return fr_fedpdm_path_sens(out[0].v, in[0].v, T, par[0].v[0], Q, par[2].v[0], start);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    unsigned long Q;
    int start = 0;
    int st = ints(par[1].v[0], par[3].v[0], &Q, &start);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T == 0) return FR_ESIZE;
    if (Q >= 1 && Q <= FR_FEDPDM_Q_MAX && acct_work((double)T * (double)(Q + 64)) != FR_OK) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, T) != 0) return FR_ENOMEM;
    return ff_fedpdm_path_sens(out[0].v, in[0].v, T, par[0].v[0], Q, par[2].v[0], start);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    (void)par;
    *rel = 0x1p-30;
    *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t q, t, st, k;
    for (int j = 0; j < 4; j++) ft_alloc(&par[j], 1, 1);
    frng_below(g, 10, &q);
    frng_below(g, 25, &t);
    frng_below(g, 2, &st);
    frng_below(g, 3, &k);
    par[0].v[0] = acct_pos(g, -2, 4);              /* rho in [1/4, 4): eta rho < 8, no overflow */
    par[1].v[0] = (double)(q + 1);
    par[2].v[0] = acct_pos(g, -4, 8);
    par[3].v[0] = (double)st;
    ft_alloc(&in[0], 1, t + 1);
    const double e0 = acct_pos(g, -5, 6);
    for (size_t j = 0; j <= t; j++)
        in[0].v[j] = k == 0 ? e0 : k == 1 ? e0 / sqrt((double)j + 1) : acct_pos(g, -5, 6);
}

static void golden(vgen *g)
{
    double eta[30];
    fr_pdm_eta_paper(eta, 30, 1);
    static const double Qs[3] = {1, 5, 10};
    char c[200];
    for (int k = 0; k < 3; k++)
        for (int st = 0; st < 2; st++) {
            snprintf(c, sizeof c, "003 Sec. V: rho = 10, eta^t = 1/sqrt(1+t) (fr_pdm_eta_paper), Q = %g, G = 1, start %s, "
                     "t = 0..29 (eta rho > 2 up to t = 23: expansive)", Qs[k], st ? "x_0^t" : "x_i^t");
            vg_group(g, NULL, (double[]){10, Qs[k], 1, st});
            vg_vec(g, c, st ? "paper-schedule,expansive,path-x0" : "paper-schedule,expansive,path-xi", 0, 30, eta);
        }
    const double q = 0.25;
    vg_group(g, NULL, (double[]){8, 3, 1, 1});
    vg_vec(g, "eta rho = 2 exactly (eta = 1/4, rho = 8), Q = 3 odd: B = -1, s[t] = (3t + 2) 3/2", "exact,branch-point,path-x0",
           0, 6, (double[]){q, q, q, q, q, q});
    vg_group(g, NULL, (double[]){8, 3, 1, 0});
    vg_vec(g, "the same, start x_i^t", "exact,branch-point,path-xi", 0, 6, (double[]){q, q, q, q, q, q});
    vg_group(g, NULL, (double[]){10, 5, 1, 1});
    vg_vec(g, "constant eta = 0.013 (eta rho = 0.13 < 1, |B| < 1): Lb_t increases to W/(1 - |B|)", "path-x0", 0, 8,
           (double[]){0.013, 0.013, 0.013, 0.013, 0.013, 0.013, 0.013, 0.013});
    vg_vec(g, "T = 1: s[0] = (19)", "boundary,path-x0", 0, 1, (double[]){0.3});
    vg_group(g, NULL, (double[]){10, 1, 2, 0});
    vg_vec(g, "Q = 1, start x_i^t, random-looking schedule", "path-xi", 0, 4, (double[]){0.5, 0.125, 0.75, 0.03125});
    vg_group(g, NULL, (double[]){10, 5, 0, 0});
    vg_vec(g, "G = 0: every s[t] = +0", "exact,boundary,path-xi", 0, 3, (double[]){1, 0.5, 0.25});
    vg_group(g, NULL, (double[]){10, 5, -0.0, 1});
    vg_vec(g, "G = -0: every s[t] = +0", "exact,signed-zero,path-x0", 0, 3, (double[]){1, 0.5, 0.25});
    vg_group(g, NULL, (double[]){10, 5, 1, 1});
    vg_vec(g, "eta[2] = 0 (the last round)", "domain,boundary", 1, 3, (double[]){1, 0.5, 0});
    vg_vec(g, "eta[0] = NaN", "nan", 1, 2, (double[]){NAN, 0.5});
    vg_group(g, NULL, (double[]){10, 0, 1, 1});
    vg_vec(g, "Q = 0", "domain,boundary", 1, 1, (double[]){0.5});
    vg_group(g, NULL, (double[]){10, 65537, 1, 1});
    vg_vec(g, "Q = 65537 > FR_FEDPDM_Q_MAX", "size", 1, 1, (double[]){0.5});
    vg_group(g, NULL, (double[]){10, 5, 1, 2});
    vg_vec(g, "start = 2 (unknown)", "domain", 1, 1, (double[]){0.5});
    vg_group(g, NULL, (double[]){0, 5, 1, 1});
    vg_vec(g, "rho = 0", "domain,boundary", 1, 1, (double[]){0.5});
    vg_group(g, NULL, (double[]){10, 5, -1, 1});
    vg_vec(g, "G < 0", "domain", 1, 1, (double[]){0.5});
}

const vfunc vfunc_fedpdm_path_sens = {"fedpdm_path_sens", "003 Algorithm 1: whole-path sensitivity (E-003-S1)",
                                      params, inputs, expects, ref, fast, tol, golden, sample, 2000, 0};
