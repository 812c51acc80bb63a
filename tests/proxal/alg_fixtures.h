/* SPDX-License-Identifier: Apache-2.0 */
/* alg_fixtures.h -- small problems of module proxal for the tests of
 * Algorithms 1 and 3 (tests/proxal/test_alg.c, test_status_alg.c) and the
 * proof checks (proofs_checks/proxal/check_alg.c): a seeded QP (25) from
 * fr_proxal_gen_qp, a seeded NP (26)-(27) from fr_proxal_gen_lg, and the
 * parameters of 004 Sec. 5.1. */
#ifndef TESTS_PROXAL_ALG_FIXTURES_H
#define TESTS_PROXAL_ALG_FIXTURES_H
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

#define AF_NMAX 4
#define AF_DMAX 8
#define AF_MTMAX 2
#define AF_SMAX 8

typedef struct {
    fr_proxal_problem P;
    double A[AF_NMAX * AF_DMAX * AF_DMAX], b[AF_NMAX * AF_DMAX];
    double C[(AF_NMAX + 1) * AF_MTMAX * AF_DMAX], e[(AF_NMAX + 1) * AF_MTMAX];
    size_t cnt[AF_NMAX + 1];
    double X[(AF_NMAX + 1) * AF_SMAX * AF_DMAX], r[AF_NMAX + 1];
    unsigned char y[(AF_NMAX + 1) * AF_SMAX];
    double rho[AF_NMAX], w0[AF_DMAX];
} af_inst;

/* QP: n <= AF_NMAX, d <= AF_DMAX, mt <= AF_MTMAX; FR_OK or the generator's status */
static inline int af_qp(af_inst *I, size_t n, size_t d, size_t mt, uint64_t seed)
{
    memset(I, 0, sizeof *I);
    int st = fr_proxal_gen_qp(I->A, I->b, I->C, I->e, n, d, mt, seed);
    I->P.kind = FR_PROXAL_QP;
    I->P.n = n, I->P.d = d, I->P.mt = mt;
    I->P.A = I->A, I->P.b = I->b, I->P.C = I->C, I->P.e = I->e;
    I->P.h = FR_PROXAL_H_ZERO;
    return st;
}

/* NP: s samples per client (both classes), r_i = rr */
static inline int af_np(af_inst *I, size_t n, size_t d, size_t s, double rr, uint64_t seed)
{
    memset(I, 0, sizeof *I);
    int st = fr_proxal_gen_lg(FR_PROXAL_NP, I->cnt, I->X, I->y, NULL, n, d, s, seed);
    for (size_t i = 0; i < n; i++)
        I->r[i] = rr;
    I->P.kind = FR_PROXAL_NP;
    I->P.n = n, I->P.d = d;
    I->P.cnt = I->cnt, I->P.X = I->X, I->P.y = I->y, I->P.r = I->r;
    I->P.h = FR_PROXAL_H_ZERO;
    return st;
}

/* 004 Sec. 5.1's parameters (sbar = 0.1, beta = 10, rho_i = 1, mu0 = 0),
 * the ADMM's q = 1/2, w0 on the unit sphere (a fixed dyadic direction). */
static inline fr_proxal_alg_params af_params(af_inst *I, double eps, unsigned long kmax)
{
    fr_proxal_alg_params p;
    memset(&p, 0, sizeof p);
    for (size_t i = 0; i < AF_NMAX; i++)
        I->rho[i] = 1;
    for (size_t k = 0; k < I->P.d; k++)
        I->w0[k] = (k % 2 ? -1.0 : 1.0) / (double)(k + 1);
    p.eps1 = p.eps2 = eps;
    p.sbar = 0.1;
    p.beta = 10;
    p.kmax = kmax;
    p.admm.tau = 1;
    p.admm.q = 0.5;
    p.admm.rho = I->rho;
    p.admm.tmax = 10000;
    p.admm.newton_max = 100;
    p.admm.eps18 = FR_PROXAL_EPS18_PRINTED;
    p.w0 = I->w0;
    p.mu0 = NULL;
    p.keep = 0;
    return p;
}

/* The exact KKT pair of a QP (25) whose stacked C ((n+1) mt x d) has full
 * row rank: K z = rhs, K = [sum A_i, C^T; C, 0], rhs = (-sum b_i, -e), z =
 * (w*, mu*) (mu* signed: equality rows), by Gaussian elimination with
 * partial pivoting at prec bits (the data are binary64, so K and rhs are
 * exact).  z: d + (n+1) mt initialised mpfr_t.  kinv (if not NULL): an
 * approximation of ||K^{-1}||_inf (rows' absolute sums of the computed
 * inverse).  Returns 0, or -1 if a pivot is 0 (singular K). */
static inline int af_qp_kkt(const af_inst *I, mpfr_prec_t prec, mpfr_t *z, double *kinv)
{
    const fr_proxal_problem *P = &I->P;
    size_t n = P->n, d = P->d, m = (n + 1) * P->mt, N = d + m, W = N + 1 + N;
    mpfr_t *M = malloc(N * W * sizeof(mpfr_t)), t;
    mpfr_init2(t, prec);
    for (size_t k = 0; k < N * W; k++)
        mpfr_init2(M[k], prec), mpfr_set_zero(M[k], 1);
    for (size_t a = 0; a < d; a++) {
        for (size_t b = 0; b < d; b++)
            for (size_t i = 0; i < n; i++)
                mpfr_add_d(M[a * W + b], M[a * W + b], P->A[i * d * d + a * d + b], MPFR_RNDN);
        for (size_t i = 0; i < n; i++)
            mpfr_sub_d(M[a * W + N], M[a * W + N], P->b[i * d + a], MPFR_RNDN);
    }
    for (size_t j = 0; j < m; j++) {
        for (size_t b = 0; b < d; b++) {
            mpfr_set_d(M[(d + j) * W + b], P->C[j * d + b], MPFR_RNDN);
            mpfr_set_d(M[b * W + d + j], P->C[j * d + b], MPFR_RNDN);
        }
        mpfr_set_d(M[(d + j) * W + N], -P->e[j], MPFR_RNDN);
    }
    for (size_t r = 0; r < N; r++)
        mpfr_set_ui(M[r * W + N + 1 + r], 1, MPFR_RNDN);
    int bad = 0;
    for (size_t c = 0; c < N && !bad; c++) {
        size_t pr = c;
        for (size_t r = c + 1; r < N; r++)
            if (mpfr_cmpabs(M[r * W + c], M[pr * W + c]) > 0)
                pr = r;
        if (mpfr_zero_p(M[pr * W + c])) {
            bad = 1;
            break;
        }
        if (pr != c)
            for (size_t k = 0; k < W; k++)
                mpfr_swap(M[pr * W + k], M[c * W + k]);
        for (size_t r = 0; r < N; r++) {
            if (r == c || mpfr_zero_p(M[r * W + c]))
                continue;
            mpfr_div(t, M[r * W + c], M[c * W + c], MPFR_RNDN);
            for (size_t k = c; k < W; k++)
                mpfr_fms(M[r * W + k], t, M[c * W + k], M[r * W + k], MPFR_RNDN),
                    mpfr_neg(M[r * W + k], M[r * W + k], MPFR_RNDN);
        }
    }
    double kn = 0;
    if (!bad)
        for (size_t r = 0; r < N; r++) {
            mpfr_div(z[r], M[r * W + N], M[r * W + r], MPFR_RNDN);
            double s = 0;
            for (size_t k = 0; k < N; k++) {
                mpfr_div(t, M[r * W + N + 1 + k], M[r * W + r], MPFR_RNDN);
                s += fabs(mpfr_get_d(t, MPFR_RNDN));
            }
            kn = s > kn ? s : kn;
        }
    if (kinv)
        *kinv = kn;
    for (size_t k = 0; k < N * W; k++)
        mpfr_clear(M[k]);
    free(M);
    mpfr_clear(t);
    return bad ? -1 : 0;
}
#endif
