/* SPDX-License-Identifier: Apache-2.0 */
/* hsolve.h -- internal to ref/proxal: the nonsmooth subproblem min phi(x) +
 * h(x) of docs/PROXAL.md 4.5 in MPFR (ref/proxal/hsolve.c; the binary64
 * twin is fast/proxal/hsolve.c).  eval(ctx, x, val, v, rp, fl, H): phi(x)
 * (val, RN; NULL: not wanted), v = RN(grad phi(x)) with |v_k - grad
 * phi(x)_k| <= rp_k (rounded up), the attainable floor fl at x (RU), the
 * Hessian H (d x d row-major; NULL: not wanted); all at the precision p. */
#ifndef FEDREF_REF_PROXAL_HSOLVE_H
#define FEDREF_REF_PROXAL_HSOLVE_H
#include "fedref/proxal.h"

typedef struct {
    size_t d;
    mpfr_prec_t p;
    void *ctx;
    int (*eval)(void *ctx, mpfr_t *x, mpfr_ptr val, mpfr_t *v, mpfr_t *rp, mpfr_ptr fl, mpfr_t *H);
    int h;
    double gamma;
    const double *lo, *hi;
} fri_proxal_hprob;

/* out := an upper bound of dist_inf(0, g + dh(x)) for every g with |g_k -
 * v_k| <= rp_k (x in dom h), rounded up. */
void fri_proxal_hres(mpfr_ptr out, int h, double gamma, const double *lo, const double *hi, mpfr_t *x,
                     mpfr_t *v, mpfr_t *rp, size_t d);
/* Solve from x (in place; projected onto dom h first) to the certified
 * residual <= eps (or the floor), at most nmax iterations, else FR_EDOM;
 * the certified residual of the returned x in res; counters added to. */
int fri_proxal_hsolve(const fri_proxal_hprob *pb, mpfr_t *x, mpfr_srcptr eps, unsigned long nmax, mpfr_ptr res,
                      unsigned long *newton, unsigned long *fact, unsigned long *floors);
#endif
