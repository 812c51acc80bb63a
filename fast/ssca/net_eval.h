/* SPDX-License-Identifier: Apache-2.0 */
/* net_eval.h -- the binary64 engine of the two-layer network of 000
 * Sec. V, shared by ff_ssca_net (net.c) and the feature-based messages
 * (net_feature.c), and the engine of their error bounds; not installed.
 * The error analysis is in net_eval.c. */
#ifndef FEDREF_FAST_SSCA_NET_EVAL_H
#define FEDREF_FAST_SSCA_NET_EVAL_H

#include <stddef.h>

/* C = op(A) op(B) (row-major; ta/tb: transpose A/B), C m x n, inner
 * dimension k; cblas_dgemm when every size fits an int, else a plain
 * loop.  beta = 0: C is not read. */
void ffi_ssca_gemm(int ta, int tb, size_t m, size_t n, size_t k, const double *A, size_t lda,
                   const double *B, size_t ldb, double *C, size_t ldc);
/* The same with C = op(A) op(B) + beta C (beta = 0: C is not read). */
void ffi_ssca_gemm_beta(int ta, int tb, size_t m, size_t n, size_t k, const double *A,
                        size_t lda, const double *B, size_t ldb, double beta, double *C,
                        size_t ldc);

/* The network from the binary64 pre-activations U (nb x J), the output
 * layer w0 (L x J), labels y (< L) and features Z (nb x P; read when B !=
 * NULL): f = sum_n loss_n (28), A = sum_n abar_n (29) (L x J), B = sum_n
 * bbar_n (30) (J x P), each may be NULL (not all).  BLAS level 3 for
 * O = S(U) W0^T, A = R^T S(U), C = R W0, B = (C .* S'(U))^T Z (R = Q - Y);
 * the workspace is allocated once.  Outputs are written only on FR_OK,
 * zeros as +0.  Statuses: FR_OK, FR_ENOMEM, FR_ENONFINITE (binary64
 * overflow in U, O or a result). */
int ffi_ssca_net_eval(double *f, double *A, double *B, const double *U, const double *w0,
                      const size_t *y, const double *Z, size_t nb, size_t L, size_t J, size_t P);

/* The engine of ffi_ssca_net_eval on a caller's workspace ws of
 * ffi_ssca_net_ws_len(nb, L, J) doubles (S, S', O, R, the losses, Delta),
 * allocating nothing (the runs of fast/ssca/run*.c call it in their round
 * loops; ffi_ssca_net_eval is this plus the checked copy-out).  Row
 * weights rw (nb entries, NULL: all 1): loss_n <- rw_n loss_n and row n
 * of R = Q - Y <- rw_n (row n), so f = sum_n rw_n loss_n, A = sum_n rw_n
 * abar_n, B = sum_n rw_n bbar_n (each weight one more rounding of the
 * summands).  flags: FFI_NET_ACC adds to *f, A, B (BLAS beta = 1) instead
 * of overwriting them (a batch in chunks of rows); FFI_NET_DELTA forms
 * Delta = (R W0) .* S' (nb x J, at ffi_ssca_net_ws_delta(ws, ...)) also
 * when B is NULL, for a caller that forms B = Delta^T Z itself, in blocks
 * of rows of B; FFI_NET_NOSCAN leaves the finiteness of A and B to the
 * caller (the runs: a non-finite gradient entry makes the point they
 * form from it non-finite, and they test that point; fast/ssca/run.c).
 * f, A, B are written whatever the status (zeros may be -0);
 * FR_ENONFINITE when U, O or a result is not finite, else FR_OK. */
#define FFI_NET_ACC 1u
#define FFI_NET_DELTA 2u
#define FFI_NET_NOSCAN 4u
size_t ffi_ssca_net_ws_len(size_t nb, size_t L, size_t J);
double *ffi_ssca_net_ws_delta(double *ws, size_t nb, size_t L, size_t J);
int ffi_ssca_net_eval_ws(double *f, double *A, double *B, const double *U, const double *w0,
                         const size_t *y, const double *Z, const double *rw, unsigned flags,
                         size_t nb, size_t L, size_t J, size_t P, double *ws);

/* Per-entry absolute upper bounds on the errors of ffi_ssca_net_eval's
 * outputs against the exact results, given Ub (nb x J), a U computed as
 * the caller computes it for ffi_ssca_net_eval, and eu (nb x J) with
 * |U - u| <= eu entrywise for every such computation (u the exact
 * pre-activations).  fb, Ab (L x J), Bb (J x P) as f, A, B.  Statuses:
 * FR_OK, FR_ENOMEM, FR_ESIZE (nb, L, J or P > 2^22: outside the proof),
 * FR_EDOM (a magnitude of the proof reaches 2^1000: outside the proof, no
 * overflow guaranteed). */
int ffi_ssca_net_bound(double *fb, double *Ab, double *Bb, const double *Ub, const double *eu,
                       const double *w0, const size_t *y, const double *Z, size_t nb,
                       size_t L, size_t J, size_t P);

/* Proved upper bounds eu (nb x J, rounded up to binary64) on the error of
 * the pre-activations as the callers compute them, evaluated in long
 * double as ffi_ssca_net_bound's formulas:
 *   ffi_ssca_eu_dot: U = Z W1^T (any dot-product order, FMA or not):
 *     eu_{n,j} = gamma_P sum_p |z_{n,p} w1_{j,p}| + P 2^-1074;
 *   ffi_ssca_eu_sum: U = sum_i H_i (nc blocks of nJ entries, any
 *     order): eu = gamma_{nc-1} sum_i |H_i| (sums of binary64 numbers
 *     never underflow).
 * FR_OK, FR_ESIZE (a size > 2^22), FR_EDOM (an eu >= 2^900, or no wide
 * long double: outside the proof). */
int ffi_ssca_eu_dot(double *eu, const double *Z, const double *W1, size_t nb, size_t J, size_t P);
int ffi_ssca_eu_sum(double *eu, const double *H, size_t nc, size_t nJ);

/* The range of the proofs, checked by every bound function right after its
 * argument checks and before it reads an input: FR_ESIZE if a size
 * exceeds 2^22, FR_EDOM if long double has less than a 64-bit significand
 * or an exponent range short of 2^-16381, else FR_OK. */
int ffi_ssca_bound_range(size_t nb, size_t L, size_t J, size_t P, size_t nc);

/* gamma_k's safe binary64 stand-in (k + 1) 2^-53 >= gamma_k (k <= 2^26). */
static inline double ffi_ssca_gam(size_t k)
{
    return (double)(k + 1) * 0x1p-53;
}

#endif
