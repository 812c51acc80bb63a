/* SPDX-License-Identifier: Apache-2.0 */
/* enclosures.h -- internal to ref: the enclosure of 002's advanced
 * composition that dp.c's Ziv loop decides on, and the four stages of the
 * optimal composition (compose_tight.c), declared here so that the
 * white-box tests (tests/fedepm/test_enclosures.c,
 * test_tight_enclosures.c) can check them at working precisions far below
 * the ones the library uses, where one step rounded the wrong way moves a
 * result by about its own slack.  Not part of the library's interface
 * (hidden in the shared library). */
#ifndef FEDREF_REF_FEDEPM_ENCLOSURES_H
#define FEDREF_REF_FEDEPM_ENCLOSURES_H
#include <stddef.h>
#include <mpfr.h>

/* r (precision wp) bounds adv = sqrt(2 ln(1/delta) sum_j eps_j^2) + sum_j
 * eps_j (e^eps_j - 1) from below (dir = -1) or above (dir = +1), eps_j >= 0
 * finite, 0 < delta < 1.  Scratch: sq[k], tm[k] initialised (precisions set
 * here), ptr[k]. */
void fri_dp_adv_bound(mpfr_ptr r, int dir, mpfr_prec_t wp, mpfr_t *const eps, size_t k,
                      mpfr_srcptr delta, mpfr_t *sq, mpfr_t *tm, mpfr_ptr *ptr);

/* compose_tight.c: releases grouped by their grid steps k (n of them) */
typedef struct { unsigned long k, n; } fri_tight_group;

/* k_j >= eps_j / h (ceil of the quotient rounded up at q's precision; 0
 * for eps_j = 0) into kj, the groups of equal k_j > 0 into g (sorted by
 * k), their number, *sum = sum_j k_j and *work = the products of the
 * convolutions; 0 (the grid is too fine) if a k_j exceeds 2^12, the sum
 * 2^18 or the work 2^27.  kj, g: k values; q: scratch. */
size_t fri_dp_tight_groups(unsigned long *kj, fri_tight_group *g, unsigned long *sum, unsigned long *work,
                           mpfr_t *const eps, size_t k, mpfr_srcptr h, mpfr_ptr q);

/* b[0..n] (precision of each) >= the binomial masses C(n, c) p^c
 * (1-p)^(n-c) of the number c of +1 among n releases of RR_{k h}, p = 1/(1
 * + e^{-k h}).  Needs k h exact at the precision of t; scratch t, and r,
 * which holds on return the ratio used, e^{-k h} rounded up. */
void fri_dp_tight_binomial(mpfr_t *b, unsigned long n, unsigned long kk, mpfr_srcptr h, mpfr_ptr t,
                           mpfr_ptr r);

/* P[s + sum], s in [-sum, sum] (2 sum + 1 values of precision wp) >= the
 * masses of S = sum over the releases of k_j X_j, X_j = +1 with
 * probability p_j and -1 otherwise, for the groups g[0..ng) with sum_i
 * k_i n_i = sum.  Needs every k h exact at wp.  FR_OK or FR_ENOMEM. */
int fri_dp_tight_law(mpfr_t *P, const fri_tight_group *g, size_t ng, unsigned long sum, mpfr_srcptr h,
                     mpfr_prec_t wp);

/* out >= the least e >= 0 with D(e) = sum_{s >= 1, h s > e} P[sum + s]
 * (1 - e^{e - h s}) <= delta, taking the P[] given as exact masses.  On
 * return A[s] >= sum_{t >= s} P[sum + t] and B[s] <= sum_{t >= s} P[sum +
 * t] e^{-h t} for 1 <= s <= sum (A, B: sum + 2 values of precision wp).
 * Needs every h s, s <= sum, exact at wp. */
void fri_dp_tight_least(mpfr_ptr out, mpfr_t *P, unsigned long sum, mpfr_srcptr h, mpfr_srcptr delta,
                        mpfr_prec_t wp, mpfr_t *A, mpfr_t *B);

#endif
