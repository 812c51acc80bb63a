/* SPDX-License-Identifier: Apache-2.0 */
/* pc_util.h -- exact-arithmetic helpers shared by the proof checks.
 *
 * Everything a certificate decides is decided exactly: the helpers below
 * give each result exactly the precision it needs (sums: the span of the
 * operands' bits, products: the sum of the precisions), so no rounding
 * happens, and a sign of a sum of such exact terms is taken from mpfr_sum,
 * which is correctly rounded and hence gets the sign (and zero) right.
 *
 * Nothing here prints or allocates outside MPFR.  Names start with pcu_ so
 * that ci/gen-registry.sh never mistakes a helper for a proof check.
 */
#ifndef FEDREF_PC_UTIL_H
#define FEDREF_PC_UTIL_H

#include <stdint.h>
#include <mpfr.h>
#include "pc.h"

/* ---- exact arithmetic ---------------------------------------------------
 * r must not alias an operand (its precision is reset first).  Each returns
 * 0 when the result is exact (always, unless the exponent range or
 * MPFR_PREC_MAX is exceeded), -1 otherwise. */
int pcu_add(mpfr_t r, const mpfr_t a, const mpfr_t b);
int pcu_sub(mpfr_t r, const mpfr_t a, const mpfr_t b);
int pcu_mul(mpfr_t r, const mpfr_t a, const mpfr_t b);
int pcu_mul_si(mpfr_t r, const mpfr_t a, long k);
int pcu_neg(mpfr_t r, const mpfr_t a);
int pcu_abs(mpfr_t r, const mpfr_t a);
int pcu_set(mpfr_t r, const mpfr_t a);
/* r = (a + b) / 2 exactly. */
int pcu_mid(mpfr_t r, const mpfr_t a, const mpfr_t b);
/* r = sum of the n values exactly (n >= 1). */
int pcu_sum(mpfr_t r, mpfr_ptr const *v, unsigned long n);
/* The sign (-1, 0, 1) of the exact sum of n values (n >= 1). */
int pcu_sign_sum(mpfr_ptr const *v, unsigned long n);
/* Exponent of the lowest non-zero bit of a non-zero x. */
mpfr_exp_t pcu_lowbit(const mpfr_t x);

/* ---- random dyadic numbers from the shared generator ---------------------
 * x = s * k * 2^(e - bits) with k a uniform integer of `bits` random bits
 * (1 <= bits <= 64; the top bit is not forced), s = +-1 uniform unless
 * nonneg, e uniform in [emin, emax]; so |x| < 2^e.  x must have precision
 * >= 64. */
void pcu_rand_dyadic(mpfr_t x, frng_t *g, unsigned bits, long emin, long emax,
                     int nonneg);
/* Same with a non-zero k (forced odd), so x != 0. */
void pcu_rand_dyadic_nz(mpfr_t x, frng_t *g, unsigned bits, long emin,
                        long emax, int nonneg);
/* Uniform integer in [0, n), n >= 1. */
unsigned long pcu_below(frng_t *g, unsigned long n);

/* ---- one-dimensional convex problems ------------------------------------
 * A one-sided derivative oracle: the sign of f'_-(y) (side = -1) or
 * f'_+(y) (side = +1) of a strictly convex f, decided exactly; y is an exact
 * dyadic number of any precision.  Returns -1, 0, 1, or 2 on an internal
 * failure (an inexact intermediate). */
typedef int (*pcu_dsign_fn)(void *state, const mpfr_t y, int side);

/* Certificate that x (precision p) is the value of the exact minimiser x*
 * of f rounded to nearest-even at p bits:
 *   - if f'_-(x) <= 0 <= f'_+(x) exactly, x* = x (*exact = 1);
 *   - else f'_-(L) <= 0 <= f'_+(U) with L, U the midpoints between x and its
 *     neighbours at p bits, so x* in [L, U]; if x* is L or U (a tie) the
 *     significand of x must be even, unless tie_any.
 * Returns 0 when certified, 1 when refuted, 2 on an internal failure.
 * *where (may be NULL) receives a short reason on refutation. */
int pcu_cert_rn(pcu_dsign_fn d, void *state, const mpfr_t x, int tie_any,
                int *exact, const char **where);

/* f(y) = c|y| + r/2 (y - u)^2 with c >= 0, r > 0, given by c, r and
 * ru = r*u (so that u itself need not be representable).
 * f'(y) = r y - ru + c sgn(y).  All fields are owned by the caller. */
typedef struct {
    mpfr_ptr c, r, ru;
    mpfr_t t1, t2, t3, t4, t5, t6; /* scratch, owned (pcu_prox1d_init) */
} pcu_prox1d;
void pcu_prox1d_init(pcu_prox1d *s, mpfr_ptr c, mpfr_ptr r, mpfr_ptr ru);
void pcu_prox1d_clear(pcu_prox1d *s);
int pcu_prox1d_dsign(void *state, const mpfr_t y, int side);
/* sign of f'_side(P/Q) for Q > 0 (decided exactly). */
int pcu_prox1d_dsign_frac(pcu_prox1d *s, const mpfr_t P, const mpfr_t Q,
                          int side);
/* sign of f(y) - f(x), exactly (2 on internal failure). */
int pcu_prox1d_fdiff(pcu_prox1d *s, const mpfr_t y, const mpfr_t x);

/* h(y) = sum_i lambda |y - w_i| + eta/2 (y - w_i)^2 over one column
 * w_0..w_{m-1} (002 eq. (14)); lambda, eta > 0.
 * h'(y) = lambda (#{w_i < y} - #{w_i > y} + side #{w_i = y}) + eta (m y - S). */
typedef struct {
    mpfr_ptr *w;          /* the column, m entries (not owned) */
    unsigned long m;
    mpfr_ptr lambda, eta; /* not owned */
    mpfr_t netaS, etam;   /* -eta * sum w_i and eta * m, exact (owned) */
    mpfr_t t1, t2, t3, t4; /* scratch */
    unsigned long last_eq; /* #{w_i = y} at the last dsign call */
} pcu_ens1d;
/* Returns 0, or -1 on an internal failure. */
int pcu_ens1d_init(pcu_ens1d *s, mpfr_ptr *w, unsigned long m,
                   mpfr_ptr lambda, mpfr_ptr eta);
void pcu_ens1d_clear(pcu_ens1d *s);
int pcu_ens1d_dsign(void *state, const mpfr_t y, int side);
/* sign of h'_side(P/Q), Q > 0, exactly. */
int pcu_ens1d_dsign_frac(pcu_ens1d *s, const mpfr_t P, const mpfr_t Q,
                         int side);

/* ---- a random ENS instance (shared by check_ens.c, check_ens_printed.c) --
 * W is m x n row-major, entries at precision prec (exact dyadic inputs);
 * lambda, eta > 0.  kind is a short label of the generator branch. */
typedef struct {
    unsigned long m, n;
    mpfr_t *W;            /* m*n, initialised at prec */
    mpfr_t lambda, eta;
    const char *kind;
    unsigned long cap;    /* allocated entries */
    mpfr_prec_t prec;
} pcu_ens_case;
void pcu_ens_case_init(pcu_ens_case *c, mpfr_prec_t prec);
void pcu_ens_case_clear(pcu_ens_case *c);
/* Resize to m x n (entries set to 0). */
void pcu_ens_case_resize(pcu_ens_case *c, unsigned long m, unsigned long n);
/* A random instance: ties, wide exponents, lambda/eta ~ 1e-30 and 1e30,
 * minimisers placed exactly on a data value and on the edge of a kink. */
void pcu_ens_case_random(pcu_ens_case *c, frng_t *g);
/* Adversarial instance number k (0 <= k < pcu_ens_case_nadv). */
extern const unsigned pcu_ens_case_nadv;
void pcu_ens_case_adversarial(pcu_ens_case *c, unsigned k);

/* ---- reporting -----------------------------------------------------------
 * Append a value to a buffer as a short decimal (exact dyadics with few
 * bits are printed exactly, others to 20 digits). */
void pcu_fmt(char *buf, size_t size, const mpfr_t x);
/* snprintf that truncates silently (details are bounded by design). */
int pcu_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
