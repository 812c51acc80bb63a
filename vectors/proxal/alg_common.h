/* SPDX-License-Identifier: Apache-2.0 */
/* alg_common.h -- the problem fields shared by the checkpoint files of
 * module proxal (proxal_admm, proxal_alg1, proxal_alg3): a QP (25) or
 * Neyman-Pearson (26)-(27) instance as vector inputs, and the seeded
 * instances of the golden cases.  Internal to vectors/proxal/.
 * Inputs (in this order, first in each schema):
 *   kind  "qp" | "np"
 *   A     (kind = qp) n d rows of d: A_1, .., A_n stacked
 *   b     (qp) n rows of d
 *   C     (qp) (n + 1) mt rows of d: C_0 (the server's), C_1, .., C_n
 *   e     (qp) n + 1 rows of mt (the paper's d_i)
 *   cnt   (kind = np) n + 1 sample counts (cnt[0] = 0)
 *   X     (np) sum cnt rows of d
 *   y     (np) sum cnt labels 0/1
 *   r     (np) n levels r_1..r_n
 * n, d, mt follow from the shapes (qp: b is n x d, e is (n + 1) x mt; np:
 * r is 1 x n, X is . x d); inconsistent shapes are FR_ESIZE. */
#ifndef VECTORS_PROXAL_ALG_COMMON_H
#define VECTORS_PROXAL_ALG_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../vectors.h"

static const char *const PX_KINDS[] = {"qp", "np", NULL};

/* The iteration budget of one run of the proxal_alg* schemas (alg_runs.c):
 * a case with kmax x tmax (outer iterations times Algorithm 2's per outer
 * iteration) above valg_iter_max is an FR_ESIZE case.  VALG_ITER_MAX (2^40,
 * px_count's clamp squared is above it) leaves every count the library
 * accepts; the fuzz target (tests/fuzz/) lowers it, because a run's time
 * depends on when (8) and (19) hold, which a mutated input can postpone to
 * the last iteration. */
#define VALG_ITER_MAX (1ul << 40)
extern unsigned long valg_iter_max;
#define PX_PROBLEM_INPUTS                                                                          \
    {"kind", VK_CHOICE, PX_KINDS, NULL}, {"A", VK_MATRIX, NULL, "kind=qp"},                        \
        {"b", VK_MATRIX, NULL, "kind=qp"}, {"C", VK_MATRIX, NULL, "kind=qp"},                      \
        {"e", VK_MATRIX, NULL, "kind=qp"}, {"cnt", VK_VECTOR, NULL, "kind=np"},                    \
        {"X", VK_MATRIX, NULL, "kind=np"}, {"y", VK_VECTOR, NULL, "kind=np"},                      \
        {"r", VK_VECTOR, NULL, "kind=np"}
enum { PX_KIND, PX_A, PX_B, PX_C, PX_E, PX_CNT, PX_X, PX_Y, PX_R, PX_NPROB };

typedef struct {
    fr_proxal_problem P;
    size_t *cnt;
    unsigned char *y;
} px_prob;

static inline void px_free(px_prob *p)
{
    free(p->cnt);
    free(p->y);
    p->cnt = NULL;
    p->y = NULL;
}

/* A count held in a binary64: FR_ENONFINITE, FR_EDOM unless an integer in
 * [0, 2^40] (larger: clamped, the library then answers FR_ESIZE). */
static inline int px_count(double x, unsigned long *out)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (!(x >= 0) || x != floor(x)) return FR_EDOM;
    *out = (unsigned long)(x > 0x1p40 ? 0x1p40 : x);
    return FR_OK;
}

/* The problem of in[0..PX_NPROB) (binary64 fields); cnt, y allocated. */
static inline int px_build(px_prob *p, const ftensor *in)
{
    memset(p, 0, sizeof *p);
    int kind = (int)in[PX_KIND].v[0];
    if (kind == 0) {
        size_t n = in[PX_B].rows, d = in[PX_B].cols, mt = in[PX_E].cols;
        if (n == 0 || d == 0 || mt == 0 || in[PX_A].rows != n * d || in[PX_A].cols != d
            || in[PX_C].rows != (n + 1) * mt || in[PX_C].cols != d || in[PX_E].rows != n + 1)
            return FR_ESIZE;
        p->P = (fr_proxal_problem){.kind = FR_PROXAL_QP, .n = n, .d = d, .mt = mt, .A = in[PX_A].v,
                                   .b = in[PX_B].v, .C = in[PX_C].v, .e = in[PX_E].v, .h = FR_PROXAL_H_ZERO};
        return FR_OK;
    }
    size_t n = in[PX_R].cols, d = in[PX_X].cols, S = in[PX_X].rows, sum = 0;
    if (n == 0 || d == 0 || in[PX_CNT].cols != n + 1 || in[PX_Y].cols != S) return FR_ESIZE;
    p->cnt = malloc((n + 1) * sizeof *p->cnt);
    p->y = malloc((S ? S : 1) * sizeof *p->y);
    if (p->cnt == NULL || p->y == NULL) { px_free(p); return FR_ENOMEM; }
    for (size_t i = 0; i <= n; i++) {
        unsigned long c;
        int st = px_count(in[PX_CNT].v[i], &c);
        if (st != FR_OK) { px_free(p); return st; }
        p->cnt[i] = c;
        sum += c > S ? S + 1 : c;
    }
    if (sum != S) { px_free(p); return FR_ESIZE; }
    for (size_t t = 0; t < S; t++) {
        double v = in[PX_Y].v[t];
        if (!isfinite(v)) { px_free(p); return FR_ENONFINITE; }
        if (v != 0 && v != 1) { px_free(p); return FR_EDOM; }
        p->y[t] = (unsigned char)v;
    }
    p->P = (fr_proxal_problem){.kind = FR_PROXAL_NP, .n = n, .d = d, .cnt = p->cnt, .X = in[PX_X].v,
                               .y = p->y, .r = in[PX_R].v, .h = FR_PROXAL_H_ZERO};
    return FR_OK;
}

/* ref's fields as binary64 copies (exact: the schema's inputs are binary64). */
static inline int px_copy(ftensor *f, const rtensor *r, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        if (ft_alloc(&f[j], r[j].rows, r[j].cols) != 0) return FR_ENOMEM;
        for (size_t i = 0; i < r[j].rows * r[j].cols; i++) {
            int st = rt_exact_double(&f[j].v[i], r[j].v[i]);
            if (st != FR_OK) return st;
        }
    }
    return FR_OK;
}

/* ---- the golden instances --------------------------------------------------- */

/* A seeded instance as the PX_NPROB input fields (allocated; px_inst_free):
 * qp: fr_proxal_gen_qp(A, b, C, e, n, d, mt, seed); np: fr_proxal_gen_lg(
 * FR_PROXAL_NP, .., n, d, s, seed) with r_i = rr for every client. */
typedef struct {
    ftensor f[PX_NPROB];
    size_t n, d, mtot;
} px_inst;

static inline void px_inst_free(px_inst *I)
{
    for (size_t k = 0; k < PX_NPROB; k++) ft_free(&I->f[k]);
}

static inline void px_inst_qp(px_inst *I, uint64_t seed, size_t n, size_t d, size_t mt)
{
    memset(I, 0, sizeof *I);
    ft_alloc(&I->f[PX_KIND], 1, 1);
    I->f[PX_KIND].v[0] = 0;
    if (ft_alloc(&I->f[PX_A], n * d, d) || ft_alloc(&I->f[PX_B], n, d) || ft_alloc(&I->f[PX_C], (n + 1) * mt, d)
        || ft_alloc(&I->f[PX_E], n + 1, mt)
        || fr_proxal_gen_qp(I->f[PX_A].v, I->f[PX_B].v, I->f[PX_C].v, I->f[PX_E].v, n, d, mt, seed) != FR_OK) {
        fprintf(stderr, "vectors/proxal: the QP generator failed\n");
        abort();                                  /* the generator's own data: a bug */
    }
    I->n = n;
    I->d = d;
    I->mtot = (n + 1) * mt;
}

static inline void px_inst_np(px_inst *I, uint64_t seed, size_t n, size_t d, size_t s, double rr)
{
    memset(I, 0, sizeof *I);
    size_t cnt[16];
    unsigned char y[256];
    if (n + 1 > 16 || n * s > 256) abort();
    ft_alloc(&I->f[PX_KIND], 1, 1);
    I->f[PX_KIND].v[0] = 1;
    if (ft_alloc(&I->f[PX_X], n * s, d) || ft_alloc(&I->f[PX_CNT], 1, n + 1) || ft_alloc(&I->f[PX_Y], 1, n * s)
        || ft_alloc(&I->f[PX_R], 1, n)
        || fr_proxal_gen_lg(FR_PROXAL_NP, cnt, I->f[PX_X].v, y, NULL, n, d, s, seed) != FR_OK) {
        fprintf(stderr, "vectors/proxal: the NP generator failed\n");
        abort();
    }
    for (size_t i = 0; i <= n; i++) I->f[PX_CNT].v[i] = (double)cnt[i];
    for (size_t t = 0; t < n * s; t++) I->f[PX_Y].v[t] = y[t];
    for (size_t i = 0; i < n; i++) I->f[PX_R].v[i] = rr;
    I->n = n;
    I->d = d;
    I->mtot = n;
}

#endif
