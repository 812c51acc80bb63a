/* SPDX-License-Identifier: Apache-2.0 */
/* acct_rdp.c -- vector schema of fedpdm_rdp: the Renyi-DP accountant of T
 * rounds of K-of-N subsampled Gaussian releases (s, sigma), converted to
 * (eps, delta) (fedref/fedpdm.h): eps = min_{alpha = 2..alpha_max} T
 * e(alpha) + ln(1/delta)/(alpha - 1).  params sigma, s, K, N, T, delta,
 * alpha_max (integers as binary64); expect eps and alpha (the first order
 * attaining the minimum; the golden cases have no near-tie).  ref: an upper
 * bound within about one ulp at the generator's precision (every term
 * rounded up at p + 64 bits): 130 certified bits of the formula's value.
 * An implementation returns an upper bound: not below expected (1 - 2^-130),
 * at most tol above; fast: rel 2^-30 (EMPIRICAL; proved only to be an upper
 * bound under the libm assumption), abs 0; alpha must match (an integer:
 * tol cannot move it).  Integers: not an integer >= 0 is passed as 0 (K:
 * FR_EDOM, N and T: FR_ESIZE, alpha_max: FR_EDOM), too large as the first
 * rejected value. */
#include "acct_common.h"

static const vspec params[] = {{"sigma", VK_SCALAR}, {"s", VK_SCALAR}, {"K", VK_SCALAR}, {"N", VK_SCALAR},
                               {"T", VK_SCALAR}, {"delta", VK_SCALAR}, {"alpha_max", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"eps", VK_SCALAR, .cmp = VC_UPPER}, {"alpha", VK_SCALAR, .cmp = VC_INT}, {NULL, 0}};

#define NBIG 0xffffffffffffful    /* 2^52 - 1: exact in binary64 */

unsigned long vacct_work_max = VACCT_WORK_MAX;

static int ints(const double *v, unsigned long *K, unsigned long *N, unsigned long *T, unsigned long *am)
{
    int st = acct_int(v[0], NBIG, 0, K);
    if (st == FR_OK) st = acct_int(v[1], NBIG, 0, N);
    if (st == FR_OK) st = acct_int(v[2], 1ul << 40, 0, T);
    if (st == FR_OK) st = acct_int(v[3], 1024, 0, am);
    if (st == FR_OK && *am <= 1024) st = acct_work((double)*am * (double)*am);   /* the schema's bound */
    return st;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned long K, N, T, am, al = 0;
    int st = ints((double[]){acct_d(par, 2), acct_d(par, 3), acct_d(par, 4), acct_d(par, 6)}, &K, &N, &T, &am);
    if (st != FR_OK) return st;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    st = fr_fedpdm_rdp(out[0].v[0], &al, par[0].v[0], par[1].v[0], K, N, T, par[5].v[0], am);
    mpfr_set_ui(out[1].v[0], al, MPFR_RNDN);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned long K, N, T, am, al = 0;
    int st = ints((double[]){par[2].v[0], par[3].v[0], par[4].v[0], par[6].v[0]}, &K, &N, &T, &am);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    st = ff_fedpdm_rdp(&out[0].v[0], &al, par[0].v[0], par[1].v[0], K, N, T, par[5].v[0], am);
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
    (void)in;
    uint64_t n, k, t, a;
    for (int j = 0; j < 7; j++) ft_alloc(&par[j], 1, 1);
    par[0].v[0] = acct_pos(g, 0, 6);
    par[1].v[0] = acct_pos(g, -1, 2);
    frng_below(g, 200, &n);
    frng_below(g, n + 1, &k);
    frng_below(g, 500, &t);
    frng_below(g, 31, &a);
    par[2].v[0] = (double)(k + 1);
    par[3].v[0] = (double)(n + 1);
    par[4].v[0] = (double)(t + 1);
    par[5].v[0] = acct_pos(g, -34, 30);
    par[6].v[0] = (double)(a + 2);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid, double sigma, double s, double K,
                double N, double T, double delta, double am)
{
    vg_group(g, NULL, (double[]){sigma, s, K, N, T, delta, am});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    static const double E[4] = {0.1, 1, 7, 10};
    char c[280];
    for (int k = 0; k < 4; k++) {
        const double sg = sqrt(2 * log(1.25 / 1e-5)) / E[k];
        snprintf(c, sizeof c, "003 Sec. V: K = 5 of N = 100, T = 300, s = 1, delta = 1e-5, sigma of (5) at eps = %g, "
                 "alpha <= 64 (the stateless K-of-N subsampled Gaussian, every round subsampled, against an observer "
                 "who does not learn S_t; not a bound for Algorithm 1, whose clients keep state)", E[k]);
        one(g, c, "acct-paper,acct-subsampled", 0, sg, 1, 5, 100, 300, 1e-5, 64);
        snprintf(c, sizeof c, "the same with K = N = 100 (no amplification: against the server and every observer), "
                 "eps = %g", E[k]);
        one(g, c, "acct-paper,acct-no-subsampling", 0, sg, 1, 100, 100, 300, 1e-5, 64);
    }
    one(g, "K = N = 1, T = 1, sigma = s: alpha mu = alpha/2, eps = min alpha/2 + ln(1e5)/(alpha - 1)",
        "acct-no-subsampling", 0, 1, 1, 1, 1, 1, 1e-5, 32);
    one(g, "alpha_max = 2: the only order", "acct-subsampled,boundary", 0, 3, 1, 1, 10, 10, 1e-3, 2);
    one(g, "K = 1 of N = 1000, T = 10^4", "acct-subsampled", 0, 2, 1, 1, 1000, 1e4, 1e-6, 128);
    one(g, "s = 0: eps = ln(1/delta)/(alpha_max - 1), alpha = alpha_max", "boundary", 0, 1, 0, 5, 100, 300, 1e-5, 64);
    one(g, "K = 0", "domain,boundary", 1, 1, 1, 0, 100, 300, 1e-5, 64);
    one(g, "K = 101 > N = 100", "domain", 1, 1, 1, 101, 100, 300, 1e-5, 64);
    one(g, "N = 0", "size,boundary", 1, 1, 1, 1, 0, 300, 1e-5, 64);
    one(g, "T = 0", "size,boundary", 1, 1, 1, 5, 100, 0, 1e-5, 64);
    one(g, "alpha_max = 1", "domain,boundary", 1, 1, 1, 5, 100, 300, 1e-5, 1);
    one(g, "alpha_max = 1025", "domain", 1, 1, 1, 5, 100, 300, 1e-5, 1025);
    one(g, "sigma = 0", "domain,boundary", 1, 0, 1, 5, 100, 300, 1e-5, 64);
    one(g, "delta = -Inf", "inf", 1, 1, 1, 5, 100, 300, -INFINITY, 64);
}

const vfunc vfunc_fedpdm_rdp = {"fedpdm_rdp", "003: Renyi-DP accountant with K-of-N client subsampling", params,
                                inputs, expects, ref, fast, tol, golden, sample, 200, 0};
