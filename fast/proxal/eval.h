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
/* Cholesky of the row-major H + r I kept column-major, and its solves
 * (fast/proxal/admm.c: LAPACKE's row-major dpotrf/dpotrs bit for bit,
 * without their per-solve transposition). */
int ffi_proxal_chol(double *Mc, const double *H, double r, size_t d);
int ffi_proxal_chol_solve(const double *Mc, double *rhs, size_t d);
/* ff_proxal_mu_update for a checked problem and state (w finite). */
int ffi_proxal_mu_update_body(double *mu_next, const fr_proxal_problem *P, const double *w,
                              const double *mu, double beta);
#endif
