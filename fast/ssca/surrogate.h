/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate.h -- internals shared by the surrogate recursions of fast/ssca
 * (ema.c, lin.c, const.c, argmin.c, update.c, momentum.c): the argument
 * checks of the message-taking functions, the clients' weights and the
 * BLAS combination of their messages, the mix (1 - c) x + c y, and the
 * checked copy-out.  Not installed.  The MPFR twin is ref/ssca/surrogate.h. */
#ifndef FEDREF_FAST_SSCA_SURROGATE_H
#define FEDREF_FAST_SSCA_SURROGATE_H

#include "fedfast.h"
#include "../internal.h"

#define FFI_U 0x1p-53                   /* the unit roundoff u */

/* FR_OK, or FR_ESIZE unless nc, d, B >= 1, nc d <= FR_COUNT_MAX and
 * N = sum_i Ni[i] <= FR_COUNT_MAX (*N receives it); Ni non-NULL. */
int ffi_ssca_sizes(const size_t *Ni, size_t nc, size_t d, size_t B, size_t *N);
/* 1 iff B <= N_i for every client. */
int ffi_ssca_batch_ok(const size_t *Ni, size_t nc, size_t B);

/* q_i = RN(RN(N_i) / RN(RN(B) RN(N))): N_i/(B N) (1 + theta_5), a normal
 * number in [2^-118, 1] (N_i >= B, N <= FR_COUNT_MAX < 2^58). */
void ffi_ssca_weights(double *q, const size_t *Ni, size_t nc, size_t B, size_t N);
/* s = G^T q (G: nc x d row-major), BLAS dgemv: each s_j a sum of nc
 * products in some order, each product through at most nc roundings. */
void ffi_ssca_colsum(double *s, const double *G, const double *q, size_t nc, size_t d);
/* r = G w (r_i = sum_j G_ij w_j), BLAS dgemv: each through <= d roundings. */
void ffi_ssca_rowdot(double *r, const double *G, const double *w, size_t nc, size_t d);

/* t_k = RN(RN(RN(1 - c) x_k) + RN(c y_k)) + 0 (y == NULL: RN(RN(1 - c) x_k) + 0),
 * and its proved bound b_k = RN(RN(2^-51 T_k) + 2^-1073), T_k =
 * RN(RN(RN(1 - c)|x_k|) + RN(c |y_k|)) (ema.c has the proof): FR_OK, or
 * FR_EDOM (b untouched) if some b_k is not finite. */
void ffi_ssca_mix(double *t, const double *x, const double *y, size_t n, double c);
int ffi_ssca_mix_bound(double *b, const double *x, const double *y, size_t n, double c);

/* Copy the n computed values t into out if all are finite: FR_OK, else
 * FR_ENONFINITE (a binary64 overflow; out untouched). */
int ffi_ssca_publish(double *out, const double *t, size_t n);

/* The computation of ff_ssca_lemma1 (lemma1.c) without its argument
 * checks and without its temporary: nu, w (d entries) and *branch written
 * on FR_OK; FR_ENONFINITE when C - U or 4 tau overflows (nothing written).
 * The inputs must pass ff_ssca_lemma1's checks.  For the runs (run*.c),
 * which allocate nothing in their round loops. */
int ffi_ssca_lemma1_core(double *nu, double *w, int *branch, const double *a, size_t d,
                         double C, double tau, double c, double U);

#endif
