/* SPDX-License-Identifier: Apache-2.0 */
/* acct_pld_rounds.c -- vector schema of fedpdm_pld_rounds: the certified
 * privacy-loss-distribution accountant (docs/DP.md section 3) of T rounds
 * of the K-of-N subsampled Gaussian, replace-one, rounds t < first with all
 * N clients.  params first, K, N, delta; inputs sigma, s (T entries each);
 * expect eps (an upper bound of the true epsilon) and eps_lower (a lower
 * bound: the epsilon of a pair realised by neighbouring datasets, from
 * below).  Both depend on the grid docs/DP.md section 3 defines: a value
 * on the unsafe side fails by any margin; fast (ff_fedpdm_pld_rounds) may
 * be on the safe side by rel 2^-5 (EMPIRICAL: its FFT error term is larger
 * than ref's; 0.3 % to 2 % at T = 300).  One ref evaluation takes seconds:
 * the fuzz target does not check these cases (check_work), the audit
 * sweep draws 2. */
#include "acct_common.h"

static const vspec params[] = {{"first", VK_SCALAR}, {"K", VK_SCALAR}, {"N", VK_SCALAR}, {"delta", VK_SCALAR},
                               {NULL, 0}};
static const vspec inputs[] = {{"sigma", VK_VECTOR}, {"s", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"eps", VK_SCALAR, .cmp = VC_UPPER}, {"eps_lower", VK_SCALAR, .cmp = VC_LOWER},
                                {NULL, 0}};

static int ints(const double *v, unsigned long *first, unsigned long *K, unsigned long *N)
{
    int st = acct_int(v[0], 1ul << 40, (1ul << 40) + 1, first);
    if (st == FR_OK) st = acct_int(v[1], 0xffffffffffffful, 0, K);
    if (st == FR_OK) st = acct_int(v[2], 0xffffffffffffful, 0, N);
    return st;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    unsigned long first, K, N;
    int st = ints((double[]){acct_d(par, 0), acct_d(par, 1), acct_d(par, 2)}, &first, &K, &N);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T != in[1].rows * in[1].cols) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_fedpdm_pld_rounds(out[0].v[0], out[1].v[0], in[0].v, in[1].v, T, first, K, N, par[3].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    unsigned long first, K, N;
    int st = ints((double[]){par[0].v[0], par[1].v[0], par[2].v[0]}, &first, &K, &N);
    if (st != FR_OK) return st;
    size_t T = in[0].rows * in[0].cols;
    if (T != in[1].rows * in[1].cols) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    return ff_fedpdm_pld_rounds(&out[0].v[0], &out[1].v[0], in[0].v, in[1].v, T, first, K, N, par[3].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)in;
    (void)par;
    *rel = 0x1p-5;
    *abs = 0;
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t n, k, t, f;
    for (int j = 0; j < 4; j++) ft_alloc(&par[j], 1, 1);
    frng_below(g, 200, &n);
    frng_below(g, n + 1, &k);
    frng_below(g, 3, &t);
    frng_below(g, t + 2, &f);
    par[0].v[0] = (double)f;
    par[1].v[0] = (double)(k + 1);
    par[2].v[0] = (double)(n + 1);
    par[3].v[0] = acct_pos(g, -30, 24);          /* delta in [2^-30, 2^-6) */
    ft_alloc(&in[0], 1, t + 1);
    ft_alloc(&in[1], 1, t + 1);
    for (size_t j = 0; j <= t; j++) {
        in[0].v[j] = acct_pos(g, 0, 4);
        in[1].v[j] = acct_pos(g, -1, 1);
    }
}

static void golden(vgen *g)
{
    const double s4 = 4.8448052626;                          /* 003 Sec. V's sigma at eps = 1 */
    vg_group(g, "every round K = 5 of N = 100 (first = 0), delta = 1e-5", (double[]){0, 5, 100, 1e-5});
    vg_case(g, "three rounds at sigma = 4.8448052626, s = 1", "acct-subsampled", 0,
            (ftensor[]){{1, 3, (double[]){s4, s4, s4}}, {1, 3, (double[]){1, 1, 1}}});
    vg_case(g, "sigma and s of different lengths", "size", 1,
            (ftensor[]){{1, 3, (double[]){1, 1, 1}}, {1, 2, (double[]){1, 1}}});
    vg_case(g, "s[0] = -1", "domain", 1, (ftensor[]){{1, 2, (double[]){1, 1}}, {1, 2, (double[]){-1, 1}}});
    vg_case(g, "sigma[1] = NaN", "nan", 1, (ftensor[]){{1, 2, (double[]){1, NAN}}, {1, 2, (double[]){1, 1}}});
    vg_group(g, "Algorithm 1's schedule, first = 1 (S_0 = [N]), K = 5, N = 100, delta = 1e-5",
             (double[]){1, 5, 100, 1e-5});
    vg_case(g, "round 0 with every client, then two rounds of 5: per-round (sigma, s), one round with s = 0",
            "acct-subsampled,acct-per-round", 0,
            (ftensor[]){{1, 3, (double[]){s4, 2 * s4, 3}}, {1, 3, (double[]){1, 2, 0}}});
    vg_group(g, "no subsampling, K = N = 100, delta = 1e-5 (the exact answer: one Gaussian at sigma/sqrt(T))",
             (double[]){0, 100, 100, 1e-5});
    vg_case(g, "four rounds at sigma = 2, s = 1: the exact eps, fedpdm_gauss_eps at sigma = 1, is 4.377178096 (rounded up)",
            "acct-no-subsampling", 0, (ftensor[]){{1, 4, (double[]){2, 2, 2, 2}}, {1, 4, (double[]){1, 1, 1, 1}}});
    vg_group(g, "K = 0", (double[]){0, 0, 10, 1e-5});
    vg_case(g, "K = 0", "domain,boundary", 1, (ftensor[]){{1, 1, (double[]){2}}, {1, 1, (double[]){1}}});
}

const vfunc vfunc_fedpdm_pld_rounds = {"fedpdm_pld_rounds",
                                       "003 Algorithm 1: the certified PLD accountant (docs/DP.md section 3)",
                                       params, inputs, expects, ref, fast, tol, golden, sample, 2, 0, 9};
