/* SPDX-License-Identifier: Apache-2.0 */
/* gen.c -- the seeded generators of the problems of 004 Sec. 5
 * (fedref/proxal.h, section "the problems"; docs/RNG.md, proxal): exactly
 * reproducible in any language.  Every Gaussian is fr_rng_gaussian2 at 53
 * bits (the correctly rounded Box-Muller pair of docs/RNG.md 3.6), every
 * other operation one IEEE binary64 +, -, *, / or sqrt (round to nearest,
 * no FMA: -ffp-contract=off) in the documented order.  Data generation is
 * not a wing's numerical code: fast's users take these doubles as input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

/* The Gaussian tape of one stream: z0, z1 of successive pairs. */
typedef struct {
    frng_t g;
    mpfr_t z0, z1;
    int have;
} tape;

static void tape_init(tape *t, uint64_t seed, uint64_t stream)
{
    frng_init(&t->g, seed, stream);
    mpfr_init2(t->z0, 53);
    mpfr_init2(t->z1, 53);
    t->have = 0;
}

static void tape_clear(tape *t)
{
    mpfr_clear(t->z0);
    mpfr_clear(t->z1);
}

static int tape_next(tape *t, double *z)
{
    if (t->have) {
        t->have = 0;
        *z = mpfr_get_d(t->z1, MPFR_RNDN);
        return FR_OK;
    }
    int st = fr_rng_gaussian2(t->z0, t->z1, &t->g);
    if (st != FR_OK)
        return st;
    t->have = 1;
    *z = mpfr_get_d(t->z0, MPFR_RNDN);
    return FR_OK;
}

/* x[0..k) Gaussians, then x / ||x||_2 (sum of squares left to right, one sqrt, k divisions). */
static int sphere(tape *t, double *x, size_t k)
{
    double s = 0;
    for (size_t j = 0; j < k; j++) {
        int st = tape_next(t, &x[j]);
        if (st != FR_OK)
            return st;
        s = s + x[j] * x[j];
    }
    double nrm = sqrt(s);
    if (nrm == 0)
        return FR_EINTERNAL;                   /* r >= 2^-... > 0: never */
    for (size_t j = 0; j < k; j++)
        x[j] = x[j] / nrm;
    return FR_OK;
}

/* A = H_0 H_1 ... H_{d-2} diag(D) H_{d-2} ... H_0, H_k the Householder
 * reflector of the Gaussian vector x_k (length d - k, acting on indices
 * k..d-1), applied innermost first.  Symmetric bit for bit. */
static int make_A(double *A, size_t d, uint64_t seed, size_t i)
{
    frng_t g;
    frng_init(&g, seed, FR_PROXAL_STREAM_D + i);
    memset(A, 0, d * d * sizeof *A);
    for (size_t k = 0; k < d; k++)              /* D_kk = 1/2 + (next64 >> 12) 2^-53, exact */
        A[k * d + k] = 0.5 + (double)(frng_next64(&g) >> 12) * 0x1p-53;
    if (d < 2)
        return FR_OK;
    size_t tot = d * (d + 1) / 2 - 1;
    double *xs = malloc(tot * sizeof *xs), *p = malloc(d * sizeof *p), *wv = malloc(d * sizeof *wv);
    int st = (xs == NULL || p == NULL || wv == NULL) ? FR_ENOMEM : FR_OK;
    tape t;
    tape_init(&t, seed, FR_PROXAL_STREAM_U + i);
    for (size_t j = 0; j < tot && st == FR_OK; j++)   /* x_0, x_1, .., x_{d-2} in order */
        st = tape_next(&t, &xs[j]);
    tape_clear(&t);
    for (size_t kk = d - 1; kk-- > 0 && st == FR_OK;) {
        size_t L = d - kk, o = kk * d - kk * (kk - 1) / 2;   /* x_kk starts at sum_{j<kk} (d - j) */
        double *v = xs + o, s = 0;
        for (size_t j = 0; j < L; j++)
            s = s + v[j] * v[j];
        double nrm = sqrt(s);
        v[0] = v[0] >= 0 ? v[0] + nrm : v[0] - nrm;
        double vtv = 0;
        for (size_t j = 0; j < L; j++)
            vtv = vtv + v[j] * v[j];
        if (vtv == 0)
            continue;                              /* H = I */
        double tau = 2 / vtv, q = 0;
        for (size_t a = 0; a < L; a++) {           /* p = tau M v */
            const double *row = A + (kk + a) * d + kk;
            double r = 0;
            for (size_t b = 0; b < L; b++)
                r = r + row[b] * v[b];
            p[a] = tau * r;
            q = q + p[a] * v[a];
        }
        double beta = 0.5 * (tau * q);
        for (size_t a = 0; a < L; a++)
            wv[a] = p[a] - beta * v[a];
        for (size_t a = 0; a < L; a++) {           /* M -= v w^T + w v^T */
            double *row = A + (kk + a) * d + kk, va = v[a], wa = wv[a];
            for (size_t b = 0; b < L; b++)
                row[b] = row[b] - (va * wv[b] + wa * v[b]);
        }
    }
    free(xs);
    free(p);
    free(wv);
    return st;
}

int fr_proxal_gen_qp(double *A, double *b, double *C, double *e, size_t n, size_t d, size_t mt, uint64_t seed)
{
    if (A == NULL || b == NULL || C == NULL || e == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX || mt == 0 || mt > FR_PROXAL_D_MAX)
        return FR_ESIZE;
    size_t dd = d * d;
    double *tA = malloc(n * dd * sizeof *tA), *tb = malloc(n * d * sizeof *tb),
           *tC = malloc((n + 1) * mt * d * sizeof *tC), *te = malloc((n + 1) * mt * sizeof *te);
    int st = (tA == NULL || tb == NULL || tC == NULL || te == NULL) ? FR_ENOMEM : FR_OK;
    double sq = sqrt((double)d);
    for (size_t i = 0; i <= n && st == FR_OK; i++) {
        tape t;
        tape_init(&t, seed, FR_PROXAL_STREAM_C + i);
        for (size_t j = 0; j < mt * d && st == FR_OK; j++) {   /* C_i row-major, z / sqrt(d) */
            double z = 0;
            st = tape_next(&t, &z);
            tC[i * mt * d + j] = z / sq;
        }
        if (st == FR_OK)
            st = sphere(&t, te + i * mt, mt);                   /* e_i (the paper's d_i) */
        if (st == FR_OK && i >= 1)
            st = sphere(&t, tb + (i - 1) * d, d);               /* b_i */
        tape_clear(&t);
        if (st == FR_OK && i >= 1)
            st = make_A(tA + (i - 1) * dd, d, seed, i);
    }
    if (st == FR_OK) {
        memcpy(A, tA, n * dd * sizeof *A);
        memcpy(b, tb, n * d * sizeof *b);
        memcpy(C, tC, (n + 1) * mt * d * sizeof *C);
        memcpy(e, te, (n + 1) * mt * sizeof *e);
    }
    free(tA);
    free(tb);
    free(tC);
    free(te);
    return st;
}

int fr_proxal_gen_lg(int kind, size_t *cnt, double *X, unsigned char *y, unsigned char *grp, size_t n,
                     size_t d, size_t s, uint64_t seed)
{
    int fair = kind == FR_PROXAL_FAIR;
    if (cnt == NULL || X == NULL || y == NULL || (fair && grp == NULL))
        return FR_ENULL;
    if (n == 0 || n > FR_PROXAL_N_MAX || d == 0 || d > FR_PROXAL_D_MAX || s < 2 || s > FR_PROXAL_S_MAX)
        return FR_ESIZE;
    if (kind != FR_PROXAL_NP && !fair)
        return FR_EDOM;
    size_t S = (fair ? n + 1 : n) * s;
    double *tX = malloc(S * d * sizeof *tX);
    unsigned char *ty = malloc(S), *tg = malloc(S);
    int st = (tX == NULL || ty == NULL || tg == NULL) ? FR_ENOMEM : FR_OK;
    size_t row = 0;
    for (size_t i = fair ? 0 : 1; i <= n && st == FR_OK; i++) {
        frng_t g;
        frng_init(&g, seed, FR_PROXAL_STREAM_Y + i);
        tape t;
        tape_init(&t, seed, FR_PROXAL_STREAM_X + i);
        for (size_t j = 0; j < s && st == FR_OK; j++, row++) {
            uint64_t u = 0;
            if (fair) {
                tg[row] = (unsigned char)(j & 1);      /* groups alternate */
                st = frng_below(&g, 2, &u);            /* label: one below(2) */
                ty[row] = (unsigned char)u;
            } else {
                tg[row] = 0;
                ty[row] = (unsigned char)(j & 1);      /* classes alternate */
            }
            double shift = (ty[row] ? 0.5 : -0.5) + (fair ? (tg[row] ? 0.25 : -0.25) : 0);   /* exact */
            double *x = tX + row * d;
            x[0] = 1;                                  /* the intercept */
            for (size_t k = 1; k < d && st == FR_OK; k++) {
                double z = 0;
                st = tape_next(&t, &z);
                x[k] = z + shift;
            }
        }
        tape_clear(&t);
    }
    if (st == FR_OK) {
        cnt[0] = fair ? s : 0;
        for (size_t i = 1; i <= n; i++)
            cnt[i] = s;
        memcpy(X, tX, S * d * sizeof *X);
        memcpy(y, ty, S);
        if (fair)
            memcpy(grp, tg, S);
    }
    free(tX);
    free(ty);
    free(tg);
    return st;
}
