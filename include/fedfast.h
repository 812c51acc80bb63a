/* fedfast.h -- libfedfast, the binary64 implementation (BLAS/LAPACK where
 * they fit).  Same mathematics and same argument checks as fedref.h; see
 * there for the definitions.  The two libraries share no numerical code.
 *
 * Conventions:
 *  - Built with -ffp-contract=off: no silent a*b+c fusion; an fma() written
 *    in the source is deliberate.
 *  - Vectors are double arrays of length n; W is row-major m x n
 *    (W[i*n + j] = entry j of client i).
 *  - Arguments are checked before any output is written; on error the
 *    outputs are unchanged.  Status codes: fedref_common.h.
 *  - Accuracy is stated against the exact result of the binary64 inputs;
 *    tests/ and `make run` measure it against libfedref.
 */
#ifndef FEDFAST_H
#define FEDFAST_H

#include "fedref_common.h"
#include "fedref_fl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* soft-thresholding, 002 eq. (2)-(3).  Domain: a >= 0 finite, t finite,
 * n >= 1.  Accuracy: correctly rounded (one binary64 subtraction), +0 for
 * |t_j| <= a.  out may alias t. */
int ff_soft(double *out, const double *t, size_t n, double a);

/* prox of gamma ||.||_1 in 003's convention, eq. (13): soft(u, gamma/rho).
 * Domain: gamma >= 0, rho > 0, all finite; n >= 1.  rho |u_j| <= gamma
 * (in exact arithmetic) always gives +0; gamma = 0 is the identity (exact).
 * Accuracy: |x_j - exact| <= (2^-52 + 2^-106) |exact| + 2^-1072
 * (x = fma(r, |u|, -g) / r with (g, r) = 2^-k (gamma, rho), r in [1/2, 1):
 * two roundings and no overflow; the absolute term only for subnormals).
 * x may alias u. */
int ff_prox_l1(double *x, const double *u, size_t n, double gamma, double rho);

/* coordinatewise median, 002 eq. (5), even-m midpoint rule as in fedref.h.
 * Domain: m, n >= 1, finite entries.  Accuracy: correctly rounded (an order
 * statistic, or a midpoint computed without overflow). */
int ff_median(double *med, const double *W, size_t m, size_t n);

/* elastic-net aggregation, 002 eq. (14)-(16), corrected as in fedref.h.
 * Domain: lambda > 0, eta > 0, finite; m, n >= 1.
 * Accuracy: |w_j - exact_j| <= 8 eps (max_i |W_ij| + lambda/eta) + 2^-1075,
 * eps = 2^-53, for m <= 2^26 (proved in fast/ens.c: (3 M + 4 lambda/eta) eps
 * + (m eps)^2 M / 2 + O(eps^2); a wrong branch decision costs no more; the
 * last term is the rounding of a subnormal result).  m = 1 and equal values
 * give the value itself. */
int ff_ens(double *w, const double *W, size_t m, size_t n,
           double lambda, double eta);

/* Real-valued draws from the shared stream: the same words and the same
 * transforms as fr_rng_* in fedref.h, in binary64.
 *   ff_rng_uniform:   exact (k * 2^-53).
 *   ff_rng_laplace:   |x - exact| <= 2 ulp(x) + ulp(b) (libm log <= 1 ulp).
 *   ff_rng_gaussian2: absolute error <= 8 eps * max(1, r). */
double ff_rng_uniform(frng_t *g);
int ff_rng_laplace(double *x, frng_t *g, double b);
int ff_rng_gaussian2(double *z0, double *z1, frng_t *g);

/* ======================================================================
 * FedEPM (002): model, client step, Laplace mechanism, exact penalty,
 * stopping rule and algorithms; definitions and domains as in fedref.h.
 * Each accuracy statement is against the exact result of the binary64
 * inputs; the bounds are proved in the source files.
 * ====================================================================== */

/* Logistic loss and gradient (Sec. VII-A).  Stable for every finite
 * <x, w> (log1p/exp on -|u|, no overflow); BLAS dgemv for X w and X^T r.
 * Accuracy: |fi - f_i| <= (D_i + n + 8) eps (|f_i| + sum_t |l_t|/d_i + ...)
 * as stated in fast/logreg.c; measured by the audit. */
int ff_logreg_fi(double *fi, double *gi, const fr_logreg *P, size_t i, const double *w);
int ff_logreg_f(double *f, double *g, const fr_logreg *P, const double *w);

/* mu_{i,k+1} of (20); relative error <= (n + kp1-dependent) eps, stated in
 * fast/fedepm_step.c. */
int ff_fedepm_mu(double *mu, double mu0, double c, double alpha, unsigned long kp1,
                 const double *wik, const double *w, size_t n);

/* The client update (20).  wnext may alias wi. */
int ff_fedepm_step(double *wnext, const double *wi, const double *w, const double *g,
                   size_t n, double lambda, double eta, double mu);

/* Laplace scales (27), (39), rounded up (>= the exact value, <= 2 ulp
 * above it for (27)); the density (25) printed or standard. */
int ff_laplace_scale_upper(double *nu, double Delta, double eps, double mu);
int ff_laplace_scale_eq39_upper(double *nu, const double *g, size_t n, double eps, double mu);
int ff_laplace_density(double *p, double x, double nu, int printed);

/* Exact penalty (9)-(11); residuals are upper bounds of the exact ones
 * up to the rounding of the binary64 operations (stated in the source). */
int ff_lambda_star(double *lam, const double *G, size_t m, size_t n);
int ff_stationarity_9(double *r_cons, double *r_sum, const double *G, const double *W,
                      const double *w, size_t m, size_t n);
int ff_stationarity_10(double *r_set, double *r_sum, const double *G, const double *W,
                       const double *w, size_t m, size_t n, double lambda, double eta);

/* Stopping rule of Sec. VII-B (binary64 decision; may differ from the exact
 * one only within rounding of the threshold). */
int ff_stop_rule(int *stop, double gnorm2, const double *f, size_t nf, size_t n);

/* The algorithms; the trace has the fields of fr_fl_trace in binary64.
 * Zero-initialise a trace (ff_fl_trace t = {0}) before ff_fl_trace_init;
 * argument errors leave it unchanged, FR_ENOMEM leaves it zeroed; unused
 * rows are NaN (sel: SIZE_MAX).  A run needs a trace initialised for the
 * same m, n, nsel with cap >= rounds + 1 (else FR_ESIZE; a zeroed trace:
 * FR_ENULL).  The trace is written only when the run succeeds: a building
 * block's error (e.g. FR_ENONFINITE when binary64 overflows where the exact
 * run would not) ends the run and leaves the trace unchanged.  No bound is
 * proved for a whole trajectory: `make run` measures the drift from ref
 * (docs/FEDEPM.md section 7). */
typedef struct {
    size_t m, n, nsel, cap;
    size_t rounds;
    unsigned long iters, cr;
    int stop;
    double *w, *f, *gnorm2;
    size_t *sel;
    double *W, *Z;
    double snr;
    size_t snr_clients;
} ff_fl_trace;

int ff_fl_trace_init(ff_fl_trace *t, const fr_logreg *P, const fr_fl_params *prm);
void ff_fl_trace_clear(ff_fl_trace *t);
int ff_fedepm_run(ff_fl_trace *t, const fr_logreg *P, const fr_fl_params *prm);
int ff_sfedavg_run(ff_fl_trace *t, const fr_logreg *P, const fr_fl_params *prm);
int ff_sfedprox_run(ff_fl_trace *t, const fr_logreg *P, const fr_fl_params *prm);

#ifdef __cplusplus
}
#endif
#endif /* FEDFAST_H */
