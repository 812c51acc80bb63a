/* SPDX-License-Identifier: Apache-2.0 */
/* net_eval.h -- the evaluation engine of the two-layer network of 000
 * Sec. V, shared by fr_ssca_net (net.c) and the feature-based messages
 * (net_feature.c); not installed.  The math and its accuracy are those of
 * include/fedref/ssca.h ("two-layer network"); the method is in
 * net_eval.c. */
#ifndef FEDREF_REF_SSCA_NET_EVAL_H
#define FEDREF_REF_SSCA_NET_EVAL_H

#include "../internal.h"

/* r = sum_k a[k sa] b[k sb] exactly (k < n; zero products skipped; the
 * empty or all-zero sum is +0).  prod: n scratch mpfr_t, ptr: n pointers.
 * FR_OK, or FR_EPREC (an exact product or the sum needs more than 2^24
 * bits or leaves MPFR's exponent range). */
int fri_ssca_dot_exact(mpfr_ptr r, mpfr_t *const a, size_t sa, mpfr_t *const b, size_t sb,
                       size_t n, mpfr_t *prod, mpfr_ptr *ptr);

/* The network from the exact hidden pre-activations u (nb x J, row-major),
 * the output layer w0 (L x J), the labels y (nb, each < L; L >= 2) and the
 * features Z (nb x P, only read when B != NULL):
 *   f = sum_n loss_n (28),  A = sum_n abar_n (29) (L x J),
 *   B = sum_n bbar_n (30) (J x P: B_{j,p} = sum_n delta_{n,j} z_{n,p}),
 * each correctly rounded to the precision of its own output.  Any of f,
 * A, B may be NULL (not all).  The outputs are written only on FR_OK; an
 * exact zero is +0.  Statuses: FR_OK, FR_ENOMEM, FR_EPREC (an exact
 * intermediate needs more than 2^24 bits), FR_EINTERNAL (no enclosure
 * decided the rounding below the precision cap: Limits of
 * include/fedref/ssca.h, or an interval end that came out NaN). */
int fri_ssca_net_eval(mpfr_ptr f, mpfr_t *A, mpfr_t *B, mpfr_t *const u, mpfr_t *const w0,
                      const size_t *y, mpfr_t *const Z, size_t nb, size_t L, size_t J,
                      size_t P);

#endif
