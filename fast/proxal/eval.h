/* SPDX-License-Identifier: Apache-2.0 */
/* eval.h -- internal to fast/proxal: the evaluations behind the public
 * ff_proxal_client_eval and ff_proxal_pik without their argument checks.
 * fr_proxal_problem_check costs O(n d^2) (the symmetry of every A_i); the
 * Algorithm-2 oracle of Algorithms 1 and 3 (ff_proxal_pk_fsum) checks its
 * problem and state once and then evaluates through these. */
#ifndef FEDFAST_PROXAL_EVAL_H
#define FEDFAST_PROXAL_EVAL_H
#include "fedfast/proxal.h"

/* ff_proxal_client_eval for a checked problem, i <= n, finite w (and y
 * when Hy is wanted): the overlap check, then the evaluation. */
int ffi_proxal_client_eval_body(const fr_proxal_problem *P, size_t i, const double *w, double *fi,
                                double *gi, double *Hi, double *ci, double *Ji, const double *y,
                                double *Hy);
/* Cholesky of the row-major H + r I kept column-major (dpotrf), and its
 * solves by two cblas_dtrsv (fast/proxal/admm.c: no per-solve
 * transposition, NaN scan of the factor or packing of the triangle). */
int ffi_proxal_chol(double *Mc, const double *H, double r, size_t d);
int ffi_proxal_chol_solve(const double *Mc, double *rhs, size_t d);
/* The oracle of ff_proxal_pk_fsum (ctx its ff_proxal_pk_ctx): F = P_{i,k}(w),
 * g its gradient, and in parts what ffi_proxal_client_eval_body formed on
 * the way, bit for bit: f_i(w), grad f_i(w) (d), c_i(w) (m_i), J_i (d m_i),
 * at parts[0], [1, 1 + d), [1 + d, 1 + d + m_i), then J_i (fast/proxal/lk.c). */
int ffi_proxal_pk_eval_parts(void *ctx, size_t i, const double *w, double *F, double *g, double *parts);
/* The same evaluation from parts that ffi_proxal_pk_eval_parts wrote for
 * owner i at this w (under any wk, mu of the context: f_i, grad f_i, c_i
 * and J_i do not depend on them): the same F and g bit for bit, without
 * the owner's products (Algorithm 3 starts outer iteration k + 1 at
 * w^{k+1}, where iteration k's last evaluation was). */
int ffi_proxal_pk_eval_given(void *ctx, size_t i, const double *w, double *F, double *g, double *parts);
/* ff_proxal_mu_update for a checked problem and state (w finite). */
int ffi_proxal_mu_update_body(double *mu_next, const fr_proxal_problem *P, const double *w,
                              const double *mu, double beta);
/* The nonsmooth subproblem min phi(x) + h(x) of docs/PROXAL.md 4.5
 * (fast/proxal/hsolve.c).  eval(ctx, x, val, v, rp, fl, H): phi(x) (val),
 * v = fl(grad phi(x)) with |v_k - grad phi(x)_k| <= rp_k, the attainable
 * floor fl at x, and the Hessian H (d x d row-major; NULL: not wanted). */
typedef struct {
    size_t d;
    void *ctx;
    int (*eval)(void *ctx, const double *x, double *val, double *v, double *rp, double *fl, double *H);
    int h;
    double gamma;
    const double *lo, *hi;
    double *buf;               /* the solver's workspace, 8 d + 3 d d (ffi_proxal_hsolve_len), */
    size_t *idx;               /* and d indices, kept by the caller for a run; NULL: allocated per call */
} ffi_proxal_hprob;
#define ffi_proxal_hsolve_len(d) (8 * (d) + 3 * (d) * (d))
/* An upper bound of dist_inf(0, g + dh(x)) for every g with |g_k - v_k| <=
 * rp_k (x in dom h). */
double ffi_proxal_hres(int h, double gamma, const double *lo, const double *hi, const double *x,
                       const double *v, const double *rp, size_t d);
/* Solve from x (in place; projected onto dom h first) to the certified
 * residual <= eps (or the floor), at most nmax iterations, else FR_EDOM;
 * the certified residual of the returned x in *res; the counters added to. */
int ffi_proxal_hsolve(const ffi_proxal_hprob *pb, double *x, double eps, unsigned long nmax, double *res,
                      unsigned long *newton, unsigned long *fact, unsigned long *floors);
#endif
