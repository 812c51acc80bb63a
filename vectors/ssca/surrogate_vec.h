/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate_vec.h -- helpers of the vector schemas of the surrogate
 * recursions (vectors/ssca/{ema,lin,const,argmin,update,momentum,
 * app_rounds}.c): the counts B and N_i held in binary64 fields, the
 * message shapes, in-place outputs, the largest per-entry bound, and the
 * random samplers of the audit sweep.  Not a vector schema itself. */
#ifndef FEDREF_VECTORS_SSCA_SURROGATE_VEC_H
#define FEDREF_VECTORS_SSCA_SURROGATE_VEC_H

#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

/* A count held in a binary64: FR_OK for an integer in [0, 2^53],
 * FR_ENONFINITE for NaN or an infinity, FR_EDOM otherwise. */
static inline int sv_count(double x, size_t *out)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (!(x >= 0) || x != floor(x) || x > 0x1p53) return FR_EDOM;
    *out = (size_t)x;
    return FR_OK;
}

/* The same for an mpfr field (a binary64 by the schema; FR_EDOM if not). */
static inline int sv_count_r(mpfr_srcptr x, size_t *out)
{
    double v;
    int st = rt_exact_double(&v, x);
    return st == FR_OK ? sv_count(v, out) : st;
}

/* The message shapes: N (1 x nc) and G (nc x d) against d; the counts B
 * and N_i (*N malloc'd, freed by the caller also on error).  FR_ESIZE if
 * the shapes disagree (or nc = 0 with a non-empty G). */
static inline int sv_msgs_f(size_t *B, size_t **N, double Bv, const ftensor *Nt, const ftensor *G,
                            size_t d)
{
    size_t nc = Nt->cols;
    *N = malloc((nc ? nc : 1) * sizeof **N);
    if (*N == NULL) return FR_ENOMEM;
    if (G->rows != nc || (nc > 0 && G->cols != d)) return FR_ESIZE;
    int st = sv_count(Bv, B);
    for (size_t i = 0; i < nc && st == FR_OK; i++) st = sv_count(Nt->v[i], &(*N)[i]);
    return st;
}

static inline int sv_msgs_r(size_t *B, size_t **N, mpfr_srcptr Bv, const rtensor *Nt,
                            const rtensor *G, size_t d)
{
    size_t nc = Nt->cols;
    *N = malloc((nc ? nc : 1) * sizeof **N);
    if (*N == NULL) return FR_ENOMEM;
    if (G->rows != nc || (nc > 0 && G->cols != d)) return FR_ESIZE;
    int st = sv_count_r(Bv, B);
    for (size_t i = 0; i < nc && st == FR_OK; i++) st = sv_count_r(Nt->v[i], &(*N)[i]);
    return st;
}

/* out: a copy of in (1 x n) at precision prec, for an in-place function. */
static inline int sv_copy_r(rtensor *out, const rtensor *in, mpfr_prec_t prec)
{
    if (rt_alloc(out, in->rows, in->cols, prec) != 0) return FR_ENOMEM;
    for (size_t k = 0; k < in->rows * in->cols; k++) mpfr_set(out->v[k], in->v[k], MPFR_RNDN);
    return FR_OK;
}

static inline int sv_copy_f(ftensor *out, const ftensor *in)
{
    if (ft_alloc(out, in->rows, in->cols) != 0) return FR_ENOMEM;
    for (size_t k = 0; k < in->rows * in->cols; k++) out->v[k] = in->v[k];
    return FR_OK;
}

/* The largest of n bounds (0 for n = 0). */
static inline double sv_max(const double *b, size_t n)
{
    double m = 0;
    for (size_t k = 0; k < n; k++) m = fmax(m, b[k]);
    return m;
}

/* ---- the audit sweep's samplers (a valid random case) ------------------- */

static inline size_t sv_below(frng_t *g, uint64_t n)
{
    uint64_t k;
    frng_below(g, n, &k);
    return (size_t)k;
}

/* A random binary64 of either sign, magnitude in [2^emin, 2^(emin+span)). */
static inline double sv_value(frng_t *g, int emin, int span)
{
    double s = sv_below(g, 2) ? -1.0 : 1.0;
    return s * ldexp(1 + (double)frng_u53(g) * 0x1p-53, emin + (int)sv_below(g, (uint64_t)span));
}

/* A stepsize in (0, 1]: sometimes 1, sometimes tiny, else uniform. */
static inline double sv_step(frng_t *g)
{
    size_t r = sv_below(g, 8);
    if (r == 0) return 1;
    if (r == 1) return ldexp(1 + (double)frng_u53(g) * 0x1p-53, -40 - (int)sv_below(g, 20));
    return ((double)frng_u52_open(g) * 2 + 1) * 0x1p-53;
}

/* A scalar field holding x. */
static inline void sv_scalar(ftensor *t, double x)
{
    ft_alloc(t, 1, 1);
    t->v[0] = x;
}

/* A 1 x n (rows x n) field of random values. */
static inline void sv_random(ftensor *t, frng_t *g, size_t rows, size_t n, int emin, int span)
{
    ft_alloc(t, rows, n);
    for (size_t k = 0; k < rows * n; k++) t->v[k] = sv_value(g, emin, span);
}

/* Client sizes N_i in [B, B + 40] (sometimes all equal B: full batches). */
static inline void sv_sizes(ftensor *t, frng_t *g, size_t nc, size_t B)
{
    ft_alloc(t, 1, nc);
    int full = sv_below(g, 4) == 0;
    for (size_t i = 0; i < nc; i++) t->v[i] = (double)(B + (full ? 0 : sv_below(g, 41)));
}

#endif
