/* SPDX-License-Identifier: Apache-2.0 */
/* compose_tight.h -- internal to fast: the stages of
 * ff_dp_compose_tight_upper (compose_tight.c), declared here so that the
 * white-box tests (tests/fedepm/test_fast_tight_stages.c) can check each
 * against the exact result of its own inputs, where a step rounded the
 * wrong way shows: the composed output hides it under the outward steps
 * that follow.  Not part of the library's interface (hidden in the shared
 * library). */
#ifndef FEDREF_FAST_FEDEPM_COMPOSE_TIGHT_H
#define FEDREF_FAST_FEDEPM_COMPOSE_TIGHT_H

/* releases grouped by their grid steps k (n of them) */
typedef struct { unsigned long k, n; } ffi_tight_group;

/* The binomial of n releases of RR_{k h} relative to its mode: returns the
 * mode m used; wu[m] = wl[m] = 1 and, step by step from m outward, with x
 * the exact product k h: wu[i+1] >= wu[i] e^x (n-i)/(i+1) and wl[i+1] <=
 * wl[i] e^x (n-i)/(i+1) for m <= i < n; wu[i-1] >= wu[i] e^-x i/(n-i+1)
 * and wl[i-1] <= wl[i] e^-x i/(n-i+1) for 0 < i <= m. */
unsigned long ffi_dp_tight_weights(double *wu, double *wl, unsigned long n, unsigned long kk, double h);

/* Its steps with the ratios given (the e^{+-x} above, rounded): wu[m] =
 * wl[m] = 1; for m <= i < n, wu[i+1] >= wu[i] ruu (n-i)/(i+1) and wl[i+1]
 * <= wl[i] rul (n-i)/(i+1); for 0 < i <= m, wu[i-1] >= wu[i] rdu
 * i/(n-i+1) and wl[i-1] <= wl[i] rdl i/(n-i+1), exactly for the binary64
 * values of each step (wl >= 0). */
void ffi_dp_tight_steps(double *wu, double *wl, unsigned long n, unsigned long m, double ruu, double rul, double rdu,
                        double rdl);

/* b[c] (the weights wu on entry) replaced by an upper bound of b[c] /
 * sum_{i <= n} wl[i], c <= n */
void ffi_dp_tight_normalise(double *b, const double *wl, unsigned long n);

/* P[s + sum], s in [-sum, sum] (2 sum + 1 values, zero on entry except
 * as set here) >= the masses of S = sum over the releases of k_j X_j, X_j
 * = +1 with probability 1/(1 + e^{-k_j h}) and -1 otherwise, for the
 * groups g[0..ng) with sum_i k_i n_i = sum.  Q: 2 sum + 1 zeros (scratch,
 * zero again on return); b, bl: max n + 1 values (scratch; on return b
 * holds the last group's binomial bounds). */
void ffi_dp_tight_law(double *P, double *Q, double *b, double *bl, const ffi_tight_group *g, size_t ng,
                      unsigned long sum, double h);

/* <= e^{J h} (h >= 0). */
double ffi_dp_tight_exp_lo(unsigned long J, double h);

/* b, E, p >= 0 finite: <= b + E p (a step of the suffix sums B, E a lower
 * bound of e^{-h s}). */
double ffi_dp_tight_bstep(double b, double E, double p);

/* a, E, b >= 0 finite: >= a - E b (delta at a grid point: the suffix sum
 * A, a lower bound E of e^{h J}, the suffix sum B). */
double ffi_dp_tight_dminus(double a, double E, double b);

/* >= the least e >= 0 with D(e) = sum_{s >= 1, h s > e} P[sum + s] (1 -
 * e^{e - h s}) <= delta, taking the P[] given as exact masses.  On return
 * A[s] >= sum_{t >= s} P[sum + t] and B[s] <= sum_{t >= s} P[sum + t]
 * e^{-h t} for 1 <= s <= sum (A, B: sum + 2 values). */
double ffi_dp_tight_least(double *A, double *B, const double *P, unsigned long sum, double h, double delta);

/* Its last cell, c >= 1: >= min(h c, max(h (c-1), ln((a - delta)/b)))
 * when a > delta and b > 0, else >= h c (a >= A_c and b <= B_c: the least
 * e in the cell, D(e) = a - e^e b there). */
double ffi_dp_tight_cell(double a, double b, double delta, unsigned long c, double h);

#endif
