/* SPDX-License-Identifier: Apache-2.0 */
/* admm_oracles.h -- test oracles for 004 Algorithm 2 (fr_/ff_proxal_fsum),
 * shared by tests/proxal/test_admm.c, proofs_checks/proxal/check_admm.c
 * and cli/proxal/audit_admm.c (header only, static inline):
 *   F_i(x) = x^T A_i x / 2 + b_i^T x                        (every i; A_i SPD)
 *   AO_LOGI: + sum_{j<3} ln(1 + e^{a_ij^T x})                (clients i >= 1)
 *   AO_PLUS: + kap/2 [a_i0^T x - beta_i]_+^2                (clients i >= 1;
 *            generalised Hessian kap a a^T where the bracket is > 0, 0 where
 *            it is <= 0 -- the kink exactly at 0 takes the smooth side)
 * F_0 is always quadratic (quad(0) = 1); the clients are quadratic only for
 * AO_QUAD.  A_i = B B^T / d + s_i I, B entries uniform in [-1, 1], drawn by
 * a private xorshift (the tests' own generator, independent of frng). */
#ifndef FEDREF_TESTS_ADMM_ORACLES_H
#define FEDREF_TESTS_ADMM_ORACLES_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <mpfr.h>
#include "fedref.h"
#include "fedfast.h"

#define AO_NMAX 6
#define AO_DMAX 6
enum { AO_QUAD = 0, AO_LOGI = 1, AO_PLUS = 2 };

typedef struct {
    size_t n, d;
    int kind;
    double A[AO_NMAX + 1][AO_DMAX * AO_DMAX], b[AO_NMAX + 1][AO_DMAX];
    double a[AO_NMAX + 1][3][AO_DMAX], beta[AO_NMAX + 1], kap;
} ao_prob;

static inline double ao_unif(uint64_t *s)     /* uniform in [-1, 1), 53-bit grid */
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return ldexp((double)(*s >> 11), -52) - 1.0;
}

/* A random instance; shift s_i = sfloor + |unif| (the strong convexity). */
static inline void ao_make(ao_prob *P, size_t n, size_t d, int kind, uint64_t seed, double sfloor)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    memset(P, 0, sizeof *P);
    P->n = n;
    P->d = d;
    P->kind = kind;
    P->kap = 4;
    for (size_t i = 0; i <= n; i++) {
        double B[AO_DMAX * AO_DMAX];
        for (size_t k = 0; k < d * d; k++)
            B[k] = ao_unif(&s);
        double sh = sfloor + fabs(ao_unif(&s));
        for (size_t r = 0; r < d; r++)
            for (size_t c = 0; c < d; c++) {
                double v = 0;
                for (size_t l = 0; l < d; l++)
                    v += B[r * d + l] * B[c * d + l];
                P->A[i][r * d + c] = v / (double)d + (r == c ? sh : 0);
            }
        for (size_t r = 0; r < d; r++)      /* exact symmetry */
            for (size_t c = 0; c < r; c++)
                P->A[i][r * d + c] = P->A[i][c * d + r];
        for (size_t k = 0; k < d; k++)
            P->b[i][k] = 2 * ao_unif(&s);
        for (size_t j = 0; j < 3; j++)
            for (size_t k = 0; k < d; k++)
                P->a[i][j][k] = ao_unif(&s);
        P->beta[i] = 0.5 * ao_unif(&s);
    }
}

static inline int ao_fquad(void *ctx, size_t i)
{
    const ao_prob *P = ctx;
    return i == 0 || P->kind == AO_QUAD;
}

static inline int ao_feval(void *ctx, size_t i, const double *x, double *F, double *g, double *H)
{
    const ao_prob *P = ctx;
    const size_t d = P->d;
    if (i > P->n)
        return FR_ESIZE;
    double f = 0;
    for (size_t r = 0; r < d; r++) {
        double Ax = 0;
        for (size_t c = 0; c < d; c++)
            Ax += P->A[i][r * d + c] * x[c];
        f += 0.5 * x[r] * Ax + P->b[i][r] * x[r];
        if (g)
            g[r] = Ax + P->b[i][r];
    }
    if (H)
        memcpy(H, P->A[i], d * d * sizeof(double));
    if (i >= 1 && P->kind == AO_LOGI) {
        for (size_t j = 0; j < 3; j++) {
            double z = 0;
            for (size_t k = 0; k < d; k++)
                z += P->a[i][j][k] * x[k];
            double sg = 1 / (1 + exp(-z));
            f += z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
            for (size_t r = 0; r < d; r++) {
                if (g)
                    g[r] += sg * P->a[i][j][r];
                if (H)
                    for (size_t c = 0; c < d; c++)
                        H[r * d + c] += sg * (1 - sg) * P->a[i][j][r] * P->a[i][j][c];
            }
        }
    }
    if (i >= 1 && P->kind == AO_PLUS) {
        double z = -P->beta[i];
        for (size_t k = 0; k < d; k++)
            z += P->a[i][0][k] * x[k];
        if (z > 0) {
            f += 0.5 * P->kap * z * z;
            for (size_t r = 0; r < d; r++) {
                if (g)
                    g[r] += P->kap * z * P->a[i][0][r];
                if (H)
                    for (size_t c = 0; c < d; c++)
                        H[r * d + c] += P->kap * P->a[i][0][r] * P->a[i][0][c];
            }
        }
    }
    if (F)
        *F = f;
    return FR_OK;
}

/* The same in MPFR at the outputs' precision (g, H rounded to nearest
 * from a 4p-bit computation: not certified, good to a few ulps). */
static inline int ao_reval(void *ctx, size_t i, mpfr_t *const x, mpfr_t F, mpfr_t *g, mpfr_t *H)
{
    const ao_prob *P = ctx;
    const size_t d = P->d;
    if (i > P->n)
        return FR_ESIZE;
    mpfr_prec_t p = 4 * mpfr_get_prec(x[0]) + 64;
    mpfr_t f, t, z, sg, e;
    mpfr_t gg[AO_DMAX];
    mpfr_inits2(p, f, t, z, sg, e, (mpfr_ptr)0);
    for (size_t r = 0; r < d; r++)
        mpfr_init2(gg[r], p);
    mpfr_set_zero(f, 1);
    for (size_t r = 0; r < d; r++) {
        mpfr_set_d(gg[r], P->b[i][r], MPFR_RNDN);
        for (size_t c = 0; c < d; c++) {
            mpfr_mul_d(t, x[c], P->A[i][r * d + c], MPFR_RNDN);
            mpfr_add(gg[r], gg[r], t, MPFR_RNDN);
        }
        mpfr_mul_d(t, x[r], P->b[i][r], MPFR_RNDN);   /* f += x (A x / 2 + b) = x (g + b) / 2 */
        mpfr_add(f, f, t, MPFR_RNDN);
        mpfr_mul(t, x[r], gg[r], MPFR_RNDN);
        mpfr_add(f, f, t, MPFR_RNDN);
    }
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);
    if (H)
        for (size_t k = 0; k < d * d; k++)
            mpfr_set_d(H[k], P->A[i][k], MPFR_RNDN);
    if (i >= 1 && P->kind == AO_LOGI) {
        for (size_t j = 0; j < 3; j++) {
            mpfr_set_zero(z, 1);
            for (size_t k = 0; k < d; k++) {
                mpfr_mul_d(t, x[k], P->a[i][j][k], MPFR_RNDN);
                mpfr_add(z, z, t, MPFR_RNDN);
            }
            mpfr_neg(e, z, MPFR_RNDN);
            mpfr_exp(e, e, MPFR_RNDN);
            mpfr_add_ui(sg, e, 1, MPFR_RNDN);
            mpfr_ui_div(sg, 1, sg, MPFR_RNDN);             /* sigmoid(z) */
            mpfr_log1p(e, e, MPFR_RNDN);                   /* ln(1 + e^-z) */
            mpfr_add(e, e, z, MPFR_RNDN);                  /* ln(1 + e^z) */
            mpfr_add(f, f, e, MPFR_RNDN);
            for (size_t r = 0; r < d; r++) {
                mpfr_mul_d(t, sg, P->a[i][j][r], MPFR_RNDN);
                mpfr_add(gg[r], gg[r], t, MPFR_RNDN);
                if (H) {
                    mpfr_ui_sub(e, 1, sg, MPFR_RNDN);
                    mpfr_mul(e, e, sg, MPFR_RNDN);
                    for (size_t c = 0; c < d; c++) {
                        mpfr_mul_d(t, e, P->a[i][j][r] * P->a[i][j][c], MPFR_RNDN);
                        mpfr_add(H[r * d + c], H[r * d + c], t, MPFR_RNDN);
                    }
                }
            }
        }
    }
    if (i >= 1 && P->kind == AO_PLUS) {
        mpfr_set_d(z, -P->beta[i], MPFR_RNDN);
        for (size_t k = 0; k < d; k++) {
            mpfr_mul_d(t, x[k], P->a[i][0][k], MPFR_RNDN);
            mpfr_add(z, z, t, MPFR_RNDN);
        }
        if (mpfr_sgn(z) > 0) {
            mpfr_sqr(t, z, MPFR_RNDN);
            mpfr_mul_d(t, t, 0.5 * P->kap, MPFR_RNDN);
            mpfr_add(f, f, t, MPFR_RNDN);
            for (size_t r = 0; r < d; r++) {
                mpfr_mul_d(t, z, P->kap * P->a[i][0][r], MPFR_RNDN);
                mpfr_add(gg[r], gg[r], t, MPFR_RNDN);
                if (H)
                    for (size_t c = 0; c < d; c++) {
                        mpfr_set_d(t, P->kap * P->a[i][0][r], MPFR_RNDN);
                        mpfr_mul_d(t, t, P->a[i][0][c], MPFR_RNDN);
                        mpfr_add(H[r * d + c], H[r * d + c], t, MPFR_RNDN);
                    }
            }
        }
    }
    if (F)
        mpfr_set(F, f, MPFR_RNDN);
    if (g)
        for (size_t r = 0; r < d; r++)
            mpfr_set(g[r], gg[r], MPFR_RNDN);
    for (size_t r = 0; r < d; r++)
        mpfr_clear(gg[r]);
    mpfr_clears(f, t, z, sg, e, (mpfr_ptr)0);
    return FR_OK;
}

static inline void ao_fast(ff_proxal_fsum *F, ao_prob *P)
{
    F->n = P->n;
    F->d = P->d;
    F->ctx = P;
    F->eval = ao_feval;
    F->quad = ao_fquad;
}
static inline void ao_ref(fr_proxal_fsum *F, ao_prob *P)
{
    F->n = P->n;
    F->d = P->d;
    F->ctx = P;
    F->eval = ao_reval;
    F->quad = ao_fquad;
}

#endif
