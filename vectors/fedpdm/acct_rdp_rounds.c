/* SPDX-License-Identifier: Apache-2.0 */
/* acct_rdp_rounds.c -- vector schema of fedpdm_rdp_rounds: the RDP
 * accountant with a sensitivity s[t] and a noise sigma[t] per round, K of N
 * clients in rounds t >= first, all before (Algorithm 1: first = 1).
 * params first, K, N, delta, alpha_max; inputs sigma, s (vectors of T
 * entries; sigma with T != the length of s is FR_ESIZE in both wings, a
 * schema rule); expect eps, alpha.  Certified bits, tolerance and what an
 * implementation must meet: as fedpdm_rdp (an upper bound, not below
 * expected (1 - 2^-130), at most rel 2^-30 above: EMPIRICAL), alpha exact.
 * Integers as fedpdm_rdp's; first > T is FR_ESIZE. */
#include "acct_common.h"

static const vspec params[] = {{"first", VK_SCALAR}, {"K", VK_SCALAR}, {"N", VK_SCALAR}, {"delta", VK_SCALAR},
                               {"alpha_max", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"sigma", VK_VECTOR}, {"s", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"eps", VK_SCALAR, .cmp = VC_UPPER}, {"alpha", VK_SCALAR, .cmp = VC_INT}, {NULL, 0}};

static int ints(const double *v, unsigned long *first, unsigned long *K, unsigned long *N, unsigned long *am)
{
    int st = acct_int(v[0], 1ul << 40, (1ul << 40) + 1, first);
    if (st == FR_OK) st = acct_int(v[1], 0xffffffffffffful, 0, K);
    if (st == FR_OK) st = acct_int(v[2], 0xffffffffffffful, 0, N);
    if (st == FR_OK) st = acct_int(v[3], 1024, 0, am);
    return st;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    unsigned long first, K, N, am, al = 0;
    int st = ints((double[]){acct_d(par, 0), acct_d(par, 1), acct_d(par, 2), acct_d(par, 4)}, &first, &K, &N, &am);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T != in[1].rows * in[1].cols) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    size_t R = T > 0;                            /* runs of equal (sigma_t, s_t) */
    for (size_t t = 1; t < T; t++)
        R += !mpfr_equal_p(in[0].v[t], in[0].v[t - 1]) || !mpfr_equal_p(in[1].v[t], in[1].v[t - 1]);
    if (am <= 1024 && acct_work((double)R * (double)am * (double)am) != FR_OK) return FR_ESIZE;
    st = fr_fedpdm_rdp_rounds(out[0].v[0], &al, in[0].v, in[1].v, T, first, K, N, par[3].v[0], am);
    mpfr_set_ui(out[1].v[0], al, MPFR_RNDN);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    unsigned long first, K, N, am, al = 0;
    int st = ints((double[]){par[0].v[0], par[1].v[0], par[2].v[0], par[4].v[0]}, &first, &K, &N, &am);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T != in[1].rows * in[1].cols) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    size_t R = T > 0;                            /* runs of equal (sigma_t, s_t), as ref */
    for (size_t t = 1; t < T; t++)
        R += !(in[0].v[t] == in[0].v[t - 1]) || !(in[1].v[t] == in[1].v[t - 1]);
    if (am <= 1024 && acct_work((double)R * (double)am * (double)am) != FR_OK) return FR_ESIZE;
    st = ff_fedpdm_rdp_rounds(&out[0].v[0], &al, in[0].v, in[1].v, T, first, K, N, par[3].v[0], am);
    out[1].v[0] = (double)al;
    return st;
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
    uint64_t n, k, t, a, f;
    for (int j = 0; j < 5; j++) ft_alloc(&par[j], 1, 1);
    frng_below(g, 200, &n);
    frng_below(g, n + 1, &k);
    frng_below(g, 12, &t);
    frng_below(g, 31, &a);
    frng_below(g, t + 2, &f);
    par[0].v[0] = (double)f;
    par[1].v[0] = (double)(k + 1);
    par[2].v[0] = (double)(n + 1);
    par[3].v[0] = acct_pos(g, -34, 30);
    par[4].v[0] = (double)(a + 2);
    ft_alloc(&in[0], 1, t + 1);
    ft_alloc(&in[1], 1, t + 1);
    for (size_t j = 0; j <= t; j++) {
        in[0].v[j] = acct_pos(g, 0, 6);
        in[1].v[j] = acct_pos(g, -1, 2);
    }
}

static void golden(vgen *g)
{
    const double sg = sqrt(2 * log(1.25 / 1e-5));           /* (5) at eps = 1, s = 1 */
    vg_group(g, "Algorithm 1's schedule, first = 1 (S_0 = [N]), K = 5, N = 100, delta = 1e-5, alpha <= 64: the "
                "stateless K-of-N mechanism (not a bound for Algorithm 1's stateful clients, which is K = N)",
             (double[]){1, 5, 100, 1e-5, 64});
    vg_case(g, "three rounds, the same (sigma, s): round 0 unsubsampled", "acct-subsampled", 0,
            (ftensor[]){{1, 3, (double[]){sg, sg, sg}}, {1, 3, (double[]){1, 1, 1}}});
    vg_case(g, "the paper's schedule's (19) at Q = 1 for t = 0..4 (eta^t = 1/sqrt(1+t), rho = 10, G = 1: s = 4 eta^t) "
            "with sigma = 5 s (a constant mu = 1/50)", "acct-subsampled,acct-per-round", 0,
            (ftensor[]){{1, 5, (double[]){20, 5 * 4 / sqrt(2.0), 5 * 4 / sqrt(3.0), 10, 5 * 4 / sqrt(5.0)}},
                        {1, 5, (double[]){4, 4 / sqrt(2.0), 4 / sqrt(3.0), 2, 4 / sqrt(5.0)}}});
    vg_case(g, "one round (T = 1 = first): alpha mu only", "acct-no-subsampling,boundary", 0,
            (ftensor[]){{1, 1, (double[]){2}}, {1, 1, (double[]){1}}});
    vg_case(g, "s = 0 in one round (no loss there), growing noise", "acct-per-round,acct-subsampled", 0,
            (ftensor[]){{1, 4, (double[]){3, 4, 5, 6}}, {1, 4, (double[]){1, 0, 1, 2}}});
    vg_case(g, "sigma and s of different lengths", "size", 1,
            (ftensor[]){{1, 3, (double[]){1, 1, 1}}, {1, 2, (double[]){1, 1}}});
    vg_case(g, "sigma[2] = 0 (the last round)", "domain,boundary", 1,
            (ftensor[]){{1, 3, (double[]){1, 1, 0}}, {1, 3, (double[]){1, 1, 1}}});
    vg_case(g, "s[0] = -1", "domain", 1, (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 2, (double[]){-1, 1}}});
    vg_case(g, "s[1] = NaN", "nan", 1, (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 2, (double[]){1, NAN}}});
    vg_group(g, "every round subsampled (first = 0), K = 1, N = 10, delta = 1e-6, alpha <= 32",
             (double[]){0, 1, 10, 1e-6, 32});
    vg_case(g, "four rounds, the same (sigma, s) = (2, 1): fedpdm_rdp's value", "acct-subsampled", 0,
            (ftensor[]){{1, 4, (double[]){2, 2, 2, 2}}, {1, 4, (double[]){1, 1, 1, 1}}});
    vg_case(g, "sigma = +Inf", "inf", 1, (ftensor[]){{1, 1, (double[]){INFINITY}}, {1, 1, (double[]){1}}});
    vg_group(g, "no round subsampled (first = T = 3), K = 1, N = 10", (double[]){3, 1, 10, 1e-6, 32});
    vg_case(g, "first = T: as K = N", "acct-no-subsampling,boundary", 0,
            (ftensor[]){{1, 3, (double[]){2, 3, 4}}, {1, 3, (double[]){1, 1, 1}}});
    vg_case(g, "first = 3 > T = 2", "size,boundary", 1,
            (ftensor[]){{1, 2, (double[]){2, 3}}, {1, 2, (double[]){1, 1}}});
    vg_group(g, "K = 0", (double[]){1, 0, 10, 1e-6, 32});
    vg_case(g, "K = 0", "domain,boundary", 1, (ftensor[]){{1, 1, (double[]){2}}, {1, 1, (double[]){1}}});
}

const vfunc vfunc_fedpdm_rdp_rounds = {"fedpdm_rdp_rounds", "003 Algorithm 1: RDP with per-round (s, sigma)",
                                       params, inputs, expects, ref, fast, tol, golden, sample, 200, 0};
