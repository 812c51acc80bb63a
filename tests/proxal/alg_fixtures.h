/* alg_fixtures.h -- small problems of module proxal for the tests of
 * Algorithms 1 and 3 (tests/proxal/test_alg.c, test_status_alg.c) and the
 * proof checks (proofs_checks/proxal/check_alg.c): a seeded QP (25) from
 * fr_proxal_gen_qp, a seeded NP (26)-(27) from fr_proxal_gen_lg, and the
 * parameters of 004 Sec. 5.1. */
#ifndef TESTS_PROXAL_ALG_FIXTURES_H
#define TESTS_PROXAL_ALG_FIXTURES_H
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
#endif
