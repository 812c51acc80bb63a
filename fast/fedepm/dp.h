/* SPDX-License-Identifier: Apache-2.0 */
/* dp.h -- internal to fast: the stages of ff_dp_sens_step_upper's
 * overflow path and of ff_dp_compose_upper's advanced bound (dp.c),
 * declared here so that the white-box tests (tests/fedepm/test_dp_stages.c)
 * can check each against the exact value of its own inputs, where a step
 * rounded the wrong way shows: in the results it is covered by the outward
 * steps around it (the rounded-down denominator, up^4 of a libm value).
 * Not part of the library's interface (hidden in the shared library). */
#ifndef FEDREF_FAST_FEDEPM_DP_H
#define FEDREF_FAST_FEDEPM_DP_H
#include <stddef.h>

/* mu, delta > 0 finite, Delta >= 0 finite: returns Ns >= (mu delta +
 * Delta) 2^-j (+Inf on overflow) with *j = k - 960, k the exponent of mu
 * delta from frexp (mu delta 2^-j in [2^958, 2^960)). */
double ffi_dp_sens_num_scaled(double mu, double delta, double Delta, int *j);

/* The same and D > 0: >= (mu delta + Delta) / D (+Inf when D 2^-j is
 * subnormal, then the quotient is >= 2^1980). */
double ffi_dp_sens_scaled(double mu, double delta, double Delta, double D);

/* eps[0..k) >= 0 finite; m[j] within 2 ulps of e^eps_j - 1 for the eps_j
 * > 0 (NULL: libm's expm1(eps_j)): *Q >= sum_j eps_j^2 and *E >= sum_j
 * eps_j (e^eps_j - 1) (+Inf on overflow). */
void ffi_dp_adv_sums(double *Q, double *E, const double *eps, const double *m, size_t k);

/* L, Q >= 0: >= sqrt(2 L Q). */
double ffi_dp_adv_T(double L, double Q);

#endif
