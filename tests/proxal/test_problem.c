/* SPDX-License-Identifier: Apache-2.0 */
/* test_problem.c -- the problems (25)-(28) of 004 (module proxal):
 *   - the QP generator: reproducible, bit-for-bit symmetric A_i whose
 *     eigenvalues (LAPACK dsyev) are the D_i recomputed independently from
 *     the stream words (so U_i is orthogonal), unit b_i and e_i, the first
 *     C entry rederived from fr_rng_gaussian2, the moments of C (mean 0,
 *     variance 1/d), d = 1 (A = D);
 *   - the NP/FAIR generator: both classes/groups, the intercept, the class
 *     shift of the means;
 *   - client evaluation, ref: QP against the exact sums at 4096 bits rounded
 *     once (equal); NP/FAIR against the naive formulas ln(1 + e^t) - y t,
 *     1/(1 + e^-t), s (1 - s) at 600 bits rounded once (equal); gradients,
 *     Hessians, Jacobians and sum_j y_j Hess c_ij against central differences
 *     of ref at 256 bits (h = 2^-40, agreement 2^-60);
 *   - fast against ref (relative 1e-12 of the scale), H and J exactly
 *     symmetric / the data; edges: i = 0 (f_0 = +0, NP's m_0 = 0), w = 0
 *     (t = 0: the kink of max(t, 0), f = ln 2 / n), |t| = 800 (no overflow
 *     in fast), n = 1, and grad D_i = 0 by cancellation (two identical
 *     groups: decided exactly by ref); E-004-25. */
#include <check.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_proxal_problem(void);

static mpfr_t *mpa(size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    for (size_t t = 0; t < k; t++)
        mpfr_init2(a[t], p);
    return a;
}
static void mpf(mpfr_t *a, size_t k)
{
    for (size_t t = 0; t < k; t++)
        mpfr_clear(a[t]);
    free(a);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(gen_qp_props)
{
    enum { N = 2, D = 7, MT = 3 };
    static double A[N * D * D], b[N * D], C[(N + 1) * MT * D], e[(N + 1) * MT];
    static double A2[N * D * D], b2[N * D], C2[(N + 1) * MT * D], e2[(N + 1) * MT];
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, N, D, MT, 5), FR_OK);
    ck_assert_int_eq(fr_proxal_gen_qp(A2, b2, C2, e2, N, D, MT, 5), FR_OK);
    ck_assert(!memcmp(A, A2, sizeof A) && !memcmp(b, b2, sizeof b) && !memcmp(C, C2, sizeof C)
              && !memcmp(e, e2, sizeof e));
    ck_assert_int_eq(fr_proxal_gen_qp(A2, b2, C2, e2, N, D, MT, 6), FR_OK);
    ck_assert(memcmp(A, A2, sizeof A) && memcmp(C, C2, sizeof C));
    for (size_t i = 1; i <= N; i++) {
        const double *Ai = A + (i - 1) * D * D;
        for (size_t a = 0; a < D; a++)
            for (size_t c = 0; c < D; c++)
                ck_assert(Ai[a * D + c] == Ai[c * D + a]);
        /* the spectrum: D_i from its words, independently */
        double Dv[D], ev[D], M[D * D];
        frng_t g;
        frng_init(&g, 5, FR_PROXAL_STREAM_D + i);
        for (size_t k = 0; k < D; k++)
            Dv[k] = 0.5 + ldexp((double)(frng_next64(&g) >> 12), -53);
        memcpy(M, Ai, sizeof M);
        ck_assert_int_eq(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', D, M, D, ev), 0);
        qsort(Dv, D, sizeof *Dv, cmpd);
        for (size_t k = 0; k < D; k++)
            ck_assert_msg(fabs(ev[k] - Dv[k]) < 1e-14, "client %zu eigenvalue %zu: %g vs %g", i, k, ev[k], Dv[k]);
        double s = 0;
        for (size_t k = 0; k < D; k++)
            s += b[(i - 1) * D + k] * b[(i - 1) * D + k];
        ck_assert(fabs(s - 1) < 1e-15);
    }
    for (size_t i = 0; i <= N; i++) {
        double s = 0;
        for (size_t k = 0; k < MT; k++)
            s += e[i * MT + k] * e[i * MT + k];
        ck_assert(fabs(s - 1) < 1e-15);
    }
    /* C_0[0][0] = RN(z0) / RN(sqrt(d)), z0 the first Gaussian of stream C + 0 */
    mpfr_t z0, z1;
    mpfr_inits2(53, z0, z1, (mpfr_ptr)0);
    frng_t g;
    frng_init(&g, 5, FR_PROXAL_STREAM_C);
    ck_assert_int_eq(fr_rng_gaussian2(z0, z1, &g), FR_OK);
    ck_assert(C[0] == mpfr_get_d(z0, MPFR_RNDN) / sqrt(7.0));
    ck_assert(C[1] == mpfr_get_d(z1, MPFR_RNDN) / sqrt(7.0));
    mpfr_clears(z0, z1, (mpfr_ptr)0);
    /* the problem is valid */
    fr_proxal_problem P = {.kind = FR_PROXAL_QP, .n = N, .d = D, .mt = MT, .A = A, .b = b, .C = C, .e = e};
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    /* d = 1: A = D, no reflector */
    double a1, b1, c1[2 * 2], e1[2 * 2];
    ck_assert_int_eq(fr_proxal_gen_qp(&a1, &b1, c1, e1, 1, 1, 2, 9), FR_OK);
    frng_init(&g, 9, FR_PROXAL_STREAM_D + 1);
    ck_assert(a1 == 0.5 + ldexp((double)(frng_next64(&g) >> 12), -53));
    ck_assert(b1 == 1 || b1 == -1);
}
END_TEST

/* Known answers from the independent Python implementation of docs/RNG.md
 * (docs/rng_reference.py, proxal_qp(5, 1, 4, 2), printed by its main()). */
START_TEST(gen_qp_python)
{
    double A[16], b[4], C[2 * 2 * 4], e[2 * 2];
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, 1, 4, 2, 5), FR_OK);
    static const double A0[4] = {0x1.78451fe888b98p-1, 0x1.0bebb7bd6d0eep-5, 0x1.25604cb98ee15p-5,
                                 0x1.9074c1aefe2b8p-6};
    static const double B1[4] = {0x1.19ce2b78d7432p-2, 0x1.39a37987eac5dp-2, 0x1.70209a8e1bef3p-4,
                                 -0x1.d04e81d5fe400p-1};
    static const double C0[4] = {0x1.d1790cfda7cedp-3, -0x1.47638599a7b84p-3, 0x1.47e72763237f3p-1,
                                 -0x1.d38bac54310b4p-1};
    static const double E0[2] = {0x1.e96fc787f53f9p-1, -0x1.2ca349307332ep-2};
    for (int k = 0; k < 4; k++)
        ck_assert(A[k] == A0[k] && b[k] == B1[k] && C[k] == C0[k]);
    ck_assert(e[0] == E0[0] && e[1] == E0[1]);
}
END_TEST

START_TEST(gen_qp_moments)
{
    enum { N = 1, D = 400, MT = 50 };
    double *A = malloc(N * D * D * sizeof *A), *b = malloc(N * D * sizeof *b),
           *C = malloc((N + 1) * MT * D * sizeof *C), *e = malloc((N + 1) * MT * sizeof *e);
    ck_assert_int_eq(fr_proxal_gen_qp(A, b, C, e, N, D, MT, 11), FR_OK);
    size_t K = (N + 1) * MT * D;
    double s = 0, s2 = 0;
    for (size_t t = 0; t < K; t++)
        s += C[t], s2 += C[t] * C[t];
    double mean = s / K, var = s2 / K - mean * mean;
    ck_assert_msg(fabs(mean) < 5 / sqrt((double)K * D), "mean %g", mean);
    ck_assert_msg(fabs(var * D - 1) < 0.05, "variance * d = %g", var * D);
    /* trace(A) = sum D in [d/2, d) */
    double tr = 0;
    for (size_t k = 0; k < D; k++)
        tr += A[k * D + k];
    ck_assert(tr > 0.5 * D && tr < D);
    free(A);
    free(b);
    free(C);
    free(e);
}
END_TEST

START_TEST(gen_lg_props)
{
    enum { N = 3, D = 4, S = 200 };
    static double X[(N + 1) * S * D];
    static unsigned char y[(N + 1) * S], grp[(N + 1) * S];
    size_t cnt[N + 1];
    double r[N + 1] = {0.1, 0.2, 0.3, 0.4};
    for (int fair = 0; fair < 2; fair++) {
        int kind = fair ? FR_PROXAL_FAIR : FR_PROXAL_NP;
        ck_assert_int_eq(fr_proxal_gen_lg(kind, cnt, X, y, fair ? grp : NULL, N, D, S, 3), FR_OK);
        ck_assert_uint_eq(cnt[0], fair ? S : 0);
        fr_proxal_problem P = {.kind = kind, .n = N, .d = D, .cnt = cnt, .X = X, .y = y,
                               .grp = fair ? grp : NULL, .r = r};
        ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
        size_t rows = (fair ? N + 1 : N) * S;
        double m1 = 0, m0 = 0, n1 = 0, n0 = 0;
        for (size_t t = 0; t < rows; t++) {
            ck_assert(X[t * D] == 1);
            for (size_t k = 1; k < D; k++)
                if (y[t])
                    m1 += X[t * D + k], n1++;
                else
                    m0 += X[t * D + k], n0++;
        }
        ck_assert_msg(fabs(m1 / n1 - m0 / n0 - 1) < 0.15, "class shift %g", m1 / n1 - m0 / n0);
    }
}
END_TEST

/* ---- client evaluation ------------------------------------------------- */

typedef struct {
    fr_proxal_problem P;
    double *A, *b, *C, *e, *X, r[8];
    size_t cnt[8];
    unsigned char *y, *grp;
} inst;

static void mk(inst *In, int kind, size_t n, size_t d, size_t s, uint64_t seed)
{
    memset(In, 0, sizeof *In);
    In->P.kind = kind;
    In->P.n = n;
    In->P.d = d;
    if (kind == FR_PROXAL_QP) {
        size_t mt = s;
        In->A = malloc(n * d * d * sizeof(double));
        In->b = malloc(n * d * sizeof(double));
        In->C = malloc((n + 1) * mt * d * sizeof(double));
        In->e = malloc((n + 1) * mt * sizeof(double));
        ck_assert_int_eq(fr_proxal_gen_qp(In->A, In->b, In->C, In->e, n, d, mt, seed), FR_OK);
        In->P.mt = mt, In->P.A = In->A, In->P.b = In->b, In->P.C = In->C, In->P.e = In->e;
    } else {
        In->X = malloc((n + 1) * s * d * sizeof(double));
        In->y = malloc((n + 1) * s);
        In->grp = malloc((n + 1) * s);
        ck_assert_int_eq(fr_proxal_gen_lg(kind, In->cnt, In->X, In->y, In->grp, n, d, s, seed), FR_OK);
        for (size_t i = 0; i <= n; i++)
            In->r[i] = 0.125 * (double)(i + 1);
        In->P.cnt = In->cnt, In->P.X = In->X, In->P.y = In->y, In->P.r = In->r;
        In->P.grp = kind == FR_PROXAL_FAIR ? In->grp : NULL;
    }
    ck_assert_int_eq(fr_proxal_problem_check(&In->P), FR_OK);
}
static void rm(inst *In)
{
    free(In->A), free(In->b), free(In->C), free(In->e), free(In->X), free(In->y), free(In->grp);
}

/* All outputs of ref at precision p. */
typedef struct {
    size_t d, m;
    mpfr_t f, *g, *H, *c, *J, *Q;
} rout;
static void ro_init(rout *o, size_t d, size_t m, mpfr_prec_t p)
{
    o->d = d, o->m = m;
    mpfr_init2(o->f, p);
    o->g = mpa(d, p), o->H = mpa(d * d, p), o->c = mpa(m, p), o->J = mpa(d * m, p), o->Q = mpa(d * d, p);
}
static void ro_clear(rout *o)
{
    mpfr_clear(o->f);
    mpf(o->g, o->d), mpf(o->H, o->d * o->d), mpf(o->c, o->m), mpf(o->J, o->d * o->m), mpf(o->Q, o->d * o->d);
}
static int ref_eval(rout *o, const fr_proxal_problem *P, size_t i, mpfr_t *w, mpfr_t *y)
{
    return fr_proxal_client_eval(P, i, w, o->f, o->g, o->H, o->m ? o->c : NULL, o->m ? o->J : NULL, y, o->Q);
}

/* Naive formulas at precision p (independent of the stable forms). */
static void naive_lg(rout *o, const fr_proxal_problem *P, size_t i, const double *w, const double *yv)
{
    mpfr_prec_t p = 600;
    size_t d = P->d, m = o->m, off = 0, S = P->cnt[i], cls[2] = {0, 0};
    int np = P->kind == FR_PROXAL_NP;
    for (size_t k = 0; k < i; k++)
        off += P->cnt[k];
    for (size_t s = 0; s < S; s++)
        cls[np ? P->y[off + s] : P->grp[off + s]]++;
    mpfr_t t, ex, phi, sg, hh, u, v;
    mpfr_inits2(p, t, ex, phi, sg, hh, u, v, (mpfr_ptr)0);
    mpfr_set_zero(o->f, 1);
    for (size_t k = 0; k < d; k++)
        mpfr_set_zero(o->g[k], 1);
    for (size_t k = 0; k < d * d; k++)
        mpfr_set_zero(o->H[k], 1), mpfr_set_zero(o->Q[k], 1);
    for (size_t j = 0; j < m; j++)
        mpfr_set_zero(o->c[j], 1);
    for (size_t k = 0; k < d * m; k++)
        mpfr_set_zero(o->J[k], 1);
    double yw = m == 2 ? yv[0] - yv[1] : m == 1 ? yv[0] : 0;   /* exact for these y */
    for (size_t s = 0; s < S; s++) {
        const double *x = P->X + (off + s) * d;
        int y = P->y[off + s];
        mpfr_set_zero(t, 1);
        for (size_t k = 0; k < d; k++) {
            mpfr_set_d(u, x[k], MPFR_RNDN);
            mpfr_mul_d(u, u, w[k], MPFR_RNDN);
            mpfr_add(t, t, u, MPFR_RNDN);
        }
        mpfr_exp(ex, t, MPFR_RNDN);
        mpfr_log1p(phi, ex, MPFR_RNDN);                /* ln(1 + e^t) */
        mpfr_mul_si(u, t, y, MPFR_RNDN);
        mpfr_sub(phi, phi, u, MPFR_RNDN);
        mpfr_neg(u, t, MPFR_RNDN);
        mpfr_exp(u, u, MPFR_RNDN);
        mpfr_add_ui(u, u, 1, MPFR_RNDN);
        mpfr_ui_div(sg, 1, u, MPFR_RNDN);              /* s = 1/(1 + e^-t) */
        mpfr_ui_sub(u, 1, sg, MPFR_RNDN);
        mpfr_mul(hh, sg, u, MPFR_RNDN);                /* s (1 - s) */
        mpfr_sub_si(sg, sg, y, MPFR_RNDN);
        int inf = i >= 1 && (!np || y == 0);
        double cf = np ? (y == 1 ? 1.0 / (double)cls[1] : 0) : (P->grp[off + s] ? -1.0 : 1.0) / (double)cls[P->grp[off + s]];
        /* 1/cls is not exact: scale by the count after summing instead */
        (void)cf;
        if (inf) {
            mpfr_div_ui(u, phi, (unsigned long)(P->n * (np ? cls[0] : S)), MPFR_RNDN);
            mpfr_add(o->f, o->f, u, MPFR_RNDN);
            for (size_t k = 0; k < d; k++) {
                mpfr_mul_d(u, sg, x[k], MPFR_RNDN);
                mpfr_div_ui(u, u, (unsigned long)(P->n * (np ? cls[0] : S)), MPFR_RNDN);
                mpfr_add(o->g[k], o->g[k], u, MPFR_RNDN);
                for (size_t l = 0; l < d; l++) {
                    mpfr_mul_d(u, hh, x[k], MPFR_RNDN);
                    mpfr_mul_d(u, u, x[l], MPFR_RNDN);
                    mpfr_div_ui(u, u, (unsigned long)(P->n * (np ? cls[0] : S)), MPFR_RNDN);
                    mpfr_add(o->H[k * d + l], o->H[k * d + l], u, MPFR_RNDN);
                }
            }
        }
        int inc = m > 0 && (!np || y == 1);
        if (inc) {
            int neg = !np && P->grp[off + s] == 1;
            unsigned long den = (unsigned long)cls[np ? 1 : P->grp[off + s]];
            mpfr_div_ui(u, phi, den, MPFR_RNDN);
            if (neg)
                mpfr_neg(u, u, MPFR_RNDN);
            mpfr_add(o->c[0], o->c[0], u, MPFR_RNDN);
            for (size_t k = 0; k < d; k++) {
                mpfr_mul_d(u, sg, x[k], MPFR_RNDN);
                mpfr_div_ui(u, u, den, MPFR_RNDN);
                if (neg)
                    mpfr_neg(u, u, MPFR_RNDN);
                mpfr_add(o->J[k * m], o->J[k * m], u, MPFR_RNDN);
                for (size_t l = 0; l < d; l++) {
                    mpfr_mul_d(v, hh, x[k], MPFR_RNDN);
                    mpfr_mul_d(v, v, x[l], MPFR_RNDN);
                    mpfr_div_ui(v, v, den, MPFR_RNDN);
                    mpfr_mul_d(v, v, yw, MPFR_RNDN);
                    if (neg)
                        mpfr_neg(v, v, MPFR_RNDN);
                    mpfr_add(o->Q[k * d + l], o->Q[k * d + l], v, MPFR_RNDN);
                }
            }
        }
    }
    if (m >= 1) {
        double r = np ? P->r[i - 1] : P->r[i];
        if (m == 2) {
            mpfr_neg(o->c[1], o->c[0], MPFR_RNDN);
            mpfr_sub_d(o->c[1], o->c[1], r, MPFR_RNDN);
            for (size_t k = 0; k < d; k++)
                mpfr_neg(o->J[k * 2 + 1], o->J[k * 2], MPFR_RNDN);
        }
        mpfr_sub_d(o->c[0], o->c[0], r, MPFR_RNDN);
    }
    mpfr_clears(t, ex, phi, sg, hh, u, v, (mpfr_ptr)0);
}

/* QP exact at 4096 bits (the generated data: exact sums). */
static void exact_qp(rout *o, const fr_proxal_problem *P, size_t i, const double *w)
{
    size_t d = P->d, mt = P->mt;
    mpfr_t u;
    mpfr_init2(u, 4096);
    mpfr_set_zero(o->f, 1);
    for (size_t k = 0; k < d; k++)
        mpfr_set_zero(o->g[k], 1);
    if (i >= 1) {
        const double *A = P->A + (i - 1) * d * d, *b = P->b + (i - 1) * d;
        for (size_t k = 0; k < d; k++) {
            for (size_t l = 0; l < d; l++) {
                mpfr_set_d(u, A[k * d + l], MPFR_RNDN);
                mpfr_mul_d(u, u, w[l], MPFR_RNDN);
                mpfr_add(o->g[k], o->g[k], u, MPFR_RNDN);
            }
            mpfr_mul_d(u, o->g[k], w[k], MPFR_RNDN);
            mpfr_div_2ui(u, u, 1, MPFR_RNDN);
            mpfr_add(o->f, o->f, u, MPFR_RNDN);
            mpfr_set_d(u, b[k], MPFR_RNDN);
            mpfr_add(o->g[k], o->g[k], u, MPFR_RNDN);
            mpfr_mul_d(u, u, w[k], MPFR_RNDN);
            mpfr_add(o->f, o->f, u, MPFR_RNDN);
        }
    }
    for (size_t j = 0; j < mt; j++) {
        mpfr_set_d(o->c[j], P->e[i * mt + j], MPFR_RNDN);
        for (size_t k = 0; k < d; k++) {
            mpfr_set_d(u, P->C[(i * mt + j) * d + k], MPFR_RNDN);
            mpfr_mul_d(u, u, w[k], MPFR_RNDN);
            mpfr_add(o->c[j], o->c[j], u, MPFR_RNDN);
        }
    }
    mpfr_clear(u);
}

/* ref at 53 bits equals RN_53 of the reference values (f, g, c; H, J, Q too for NP/FAIR). */
static void assert_rounded(rout *r53, rout *ex, int all, const char *what)
{
    mpfr_t t;
    mpfr_init2(t, 53);
    size_t d = r53->d, m = r53->m;
    mpfr_t *R[6] = {&r53->f, r53->g, r53->H, r53->c, r53->J, r53->Q};
    mpfr_t *E[6] = {&ex->f, ex->g, ex->H, ex->c, ex->J, ex->Q};
    size_t L[6] = {1, d, all ? d * d : 0, m, all ? d * m : 0, all ? d * d : 0};
    for (int o = 0; o < 6; o++)
        for (size_t k = 0; k < L[o]; k++) {
            mpfr_set(t, E[o][k], MPFR_RNDN);
            ck_assert_msg(mpfr_equal_p(t, R[o][k]), "%s: output %d entry %zu: ref %.17g, reference %.17g", what, o, k,
                          mpfr_get_d(R[o][k], MPFR_RNDN), mpfr_get_d(t, MPFR_RNDN));
        }
    mpfr_clear(t);
}

static const double WV[5] = {0.75, -0.5, 0.3125, 1.25, -0.0625};
static const double YV[3] = {0.75, -1.5, 0.5};

static void check_against_reference(int kind, size_t n, size_t d, size_t s, size_t i)
{
    inst In;
    mk(&In, kind, n, d, s, 17);
    size_t m = fr_proxal_mi(&In.P, i);
    mpfr_t *w = mpa(d, 53), *y = mpa(3, 53);
    for (size_t k = 0; k < d; k++)
        mpfr_set_d(w[k], WV[k], MPFR_RNDN);
    for (size_t j = 0; j < 3; j++)
        mpfr_set_d(y[j], YV[j], MPFR_RNDN);
    rout r, ex;
    ro_init(&r, d, m, 53);
    ro_init(&ex, d, m, kind == FR_PROXAL_QP ? 4096 : 600);
    ck_assert_int_eq(ref_eval(&r, &In.P, i, w, y), FR_OK);
    if (kind == FR_PROXAL_QP) {
        exact_qp(&ex, &In.P, i, WV);
        assert_rounded(&r, &ex, 0, "QP");
        const double *A = In.A + (i - 1) * d * d;
        for (size_t k = 0; k < d * d; k++)
            ck_assert(mpfr_get_d(r.H[k], MPFR_RNDN) == (i ? A[k] : 0) && mpfr_zero_p(r.Q[k]));
        for (size_t j = 0; j < m; j++)
            for (size_t k = 0; k < d; k++)
                ck_assert(mpfr_get_d(r.J[k * m + j], MPFR_RNDN) == In.C[(i * m + j) * d + k]);
    } else {
        naive_lg(&ex, &In.P, i, WV, YV);
        assert_rounded(&r, &ex, 1, kind == FR_PROXAL_NP ? "NP" : "FAIR");
    }
    /* fast against ref */
    double f, g[5], H[25], c[2 * 5], J[5 * 2 * 5], Q[25];
    ck_assert_int_eq(ff_proxal_client_eval(&In.P, i, WV, &f, g, H, m ? c : NULL, m ? J : NULL, YV, Q), FR_OK);
    double sc = 1 + fabs(mpfr_get_d(r.f, MPFR_RNDN));
    ck_assert_msg(fabs(f - mpfr_get_d(r.f, MPFR_RNDN)) <= 1e-13 * sc, "f %.17g vs %.17g", f, mpfr_get_d(r.f, MPFR_RNDN));
    for (size_t k = 0; k < d; k++)
        ck_assert(fabs(g[k] - mpfr_get_d(r.g[k], MPFR_RNDN)) <= 1e-13 * (1 + fabs(g[k])));
    for (size_t k = 0; k < d * d; k++) {
        ck_assert(fabs(H[k] - mpfr_get_d(r.H[k], MPFR_RNDN)) <= 1e-13 * (1 + fabs(H[k])));
        ck_assert(fabs(Q[k] - mpfr_get_d(r.Q[k], MPFR_RNDN)) <= 1e-13 * (1 + fabs(Q[k])));
        ck_assert(H[k] == H[(k % d) * d + k / d] && Q[k] == Q[(k % d) * d + k / d]);
    }
    for (size_t j = 0; j < m; j++)
        ck_assert(fabs(c[j] - mpfr_get_d(r.c[j], MPFR_RNDN)) <= 1e-13 * (1 + fabs(c[j])));
    for (size_t k = 0; k < d * m; k++)
        ck_assert(fabs(J[k] - mpfr_get_d(r.J[k], MPFR_RNDN)) <= 1e-13 * (1 + fabs(J[k])));
    ro_clear(&r);
    ro_clear(&ex);
    mpf(w, d);
    mpf(y, 3);
    rm(&In);
}

START_TEST(eval_reference)
{
    check_against_reference(FR_PROXAL_QP, 2, 4, 3, 1);
    check_against_reference(FR_PROXAL_QP, 2, 4, 3, 2);
    check_against_reference(FR_PROXAL_QP, 1, 1, 1, 1);        /* n = 1, d = 1 */
    check_against_reference(FR_PROXAL_NP, 2, 3, 6, 1);
    check_against_reference(FR_PROXAL_NP, 1, 3, 2, 1);        /* n = 1, one sample per class */
    check_against_reference(FR_PROXAL_FAIR, 2, 3, 6, 0);      /* the server's constraints */
    check_against_reference(FR_PROXAL_FAIR, 2, 3, 5, 2);
}
END_TEST

/* Central differences of ref at 256 bits. */
static void check_differences(int kind, size_t i)
{
    const mpfr_prec_t p = 256;
    const size_t d = 3;
    inst In;
    mk(&In, kind, 2, d, kind == FR_PROXAL_QP ? 2 : 5, 23);
    size_t m = fr_proxal_mi(&In.P, i);
    mpfr_t *w = mpa(d, p), *y = mpa(2, p), hstep, q, dq;
    mpfr_inits2(p, hstep, q, dq, (mpfr_ptr)0);
    mpfr_set_ui_2exp(hstep, 1, -40, MPFR_RNDN);
    for (size_t k = 0; k < d; k++)
        mpfr_set_d(w[k], WV[k], MPFR_RNDN);
    mpfr_set_d(y[0], YV[0], MPFR_RNDN);
    mpfr_set_d(y[1], YV[1], MPFR_RNDN);
    rout o, op, om;
    ro_init(&o, d, m, p);
    ro_init(&op, d, m, p);
    ro_init(&om, d, m, p);
    ck_assert_int_eq(ref_eval(&o, &In.P, i, w, y), FR_OK);
    for (size_t k = 0; k < d; k++) {
        mpfr_add(w[k], w[k], hstep, MPFR_RNDN);
        ck_assert_int_eq(ref_eval(&op, &In.P, i, w, y), FR_OK);
        mpfr_mul_2ui(dq, hstep, 1, MPFR_RNDN);
        mpfr_sub(w[k], w[k], dq, MPFR_RNDN);
        ck_assert_int_eq(ref_eval(&om, &In.P, i, w, y), FR_OK);
        mpfr_add(w[k], w[k], hstep, MPFR_RNDN);
#define CD(plus, minus, exact, lbl)                                                                     \
        do {                                                                                            \
            mpfr_sub(q, plus, minus, MPFR_RNDN);                                                        \
            mpfr_div(q, q, dq, MPFR_RNDN);                                                              \
            mpfr_sub(q, q, exact, MPFR_RNDN);                                                           \
            ck_assert_msg(mpfr_cmp_d(q, 0x1p-60) < 0 && mpfr_cmp_d(q, -0x1p-60) > 0, "%s k = %zu: %g", lbl, \
                          k, mpfr_get_d(q, MPFR_RNDN));                                                 \
        } while (0)
        CD(op.f, om.f, o.g[k], "df");
        for (size_t l = 0; l < d; l++)
            CD(op.g[l], om.g[l], o.H[l * d + k], "dg");
        for (size_t j = 0; j < m; j++)
            CD(op.c[j], om.c[j], o.J[k * m + j], "dc");
        for (size_t l = 0; l < d; l++) {       /* sum_j y_j d J_lj / dw_k = Hy_lk */
            mpfr_t a, b2;
            mpfr_inits2(2 * p, a, b2, (mpfr_ptr)0);
            mpfr_set_zero(a, 1);
            mpfr_set_zero(b2, 1);
            for (size_t j = 0; j < m; j++) {
                mpfr_fma(a, op.J[l * m + j], y[j], a, MPFR_RNDN);
                mpfr_fma(b2, om.J[l * m + j], y[j], b2, MPFR_RNDN);
            }
            CD(a, b2, o.Q[l * d + k], "dJy");
            mpfr_clears(a, b2, (mpfr_ptr)0);
        }
    }
    ro_clear(&o);
    ro_clear(&op);
    ro_clear(&om);
    mpf(w, d);
    mpf(y, 2);
    mpfr_clears(hstep, q, dq, (mpfr_ptr)0);
    rm(&In);
}

START_TEST(eval_differences)
{
    check_differences(FR_PROXAL_QP, 1);
    check_differences(FR_PROXAL_NP, 2);
    check_differences(FR_PROXAL_FAIR, 0);
    check_differences(FR_PROXAL_FAIR, 1);
}
END_TEST

START_TEST(eval_edges)
{
    inst In;
    mk(&In, FR_PROXAL_NP, 3, 3, 4, 31);
    /* i = 0 of NP: f_0 = +0, derivatives +0, m_0 = 0 (c, J untouched) */
    double w0[3] = {-0.0, 0.0, -0.0}, f = -1, g[3], H[9], c[1] = {7}, J[3] = {7, 7, 7}, Q[9];
    ck_assert_int_eq(ff_proxal_client_eval(&In.P, 0, WV, &f, g, H, c, J, NULL, Q), FR_OK);
    ck_assert(f == 0 && !signbit(f) && g[0] == 0 && !signbit(g[2]) && H[4] == 0 && !signbit(Q[8]));
    ck_assert(c[0] == 7 && J[0] == 7);
    rout r;
    ro_init(&r, 3, 1, 80);
    mpfr_t *w = mpa(3, 53), *y = mpa(1, 53);
    mpfr_set_d(y[0], 1, MPFR_RNDN);
    for (size_t k = 0; k < 3; k++)
        mpfr_set_d(w[k], w0[k], MPFR_RNDN);
    ck_assert_int_eq(fr_proxal_client_eval(&In.P, 0, w, r.f, r.g, r.H, NULL, NULL, NULL, r.Q), FR_OK);
    ck_assert(mpfr_zero_p(r.f) && !mpfr_signbit(r.f) && mpfr_zero_p(r.g[1]) && !mpfr_signbit(r.H[0]));
    /* w = -0: t = 0 exactly (the kink of max(t, 0)): f_i = ln 2 / n at 80 bits, g = (1/2) mean x / n */
    ck_assert_int_eq(fr_proxal_client_eval(&In.P, 1, w, r.f, r.g, r.H, r.c, r.J, y, r.Q), FR_OK);
    mpfr_t l2;
    mpfr_init2(l2, 200);
    mpfr_const_log2(l2, MPFR_RNDN);
    mpfr_div_ui(l2, l2, 3, MPFR_RNDN);
    mpfr_prec_round(l2, 80, MPFR_RNDN);
    ck_assert(mpfr_equal_p(l2, r.f));
    ck_assert_int_eq(ff_proxal_client_eval(&In.P, 1, w0, &f, g, H, c, J, (const double[]){1}, Q), FR_OK);
    ck_assert(fabs(f - log(2) / 3) <= 0x1p-52);
    ck_assert(fabs(H[0] - 1.0 / 12) <= 0x1p-54);              /* s(0) s(0) / n with x_0 = 1 */
    /* |t| = 800: no overflow in fast, agreement with ref */
    double wb[3] = {800, 0, 0};
    ck_assert_int_eq(ff_proxal_client_eval(&In.P, 1, wb, &f, g, H, c, J, (const double[]){1}, Q), FR_OK);
    mpfr_set_d(w[0], 800, MPFR_RNDN);
    mpfr_set_zero(w[1], 1);
    mpfr_set_zero(w[2], 1);
    ck_assert_int_eq(fr_proxal_client_eval(&In.P, 1, w, r.f, r.g, r.H, r.c, r.J, y, r.Q), FR_OK);
    ck_assert(isfinite(f) && fabs(f - mpfr_get_d(r.f, MPFR_RNDN)) <= 1e-13 * f);
    ck_assert(fabs(c[0] - mpfr_get_d(r.c[0], MPFR_RNDN)) <= 1e-13 * (1 + fabs(c[0])));
    ck_assert(H[0] >= 0 && fabs(H[0] - mpfr_get_d(r.H[0], MPFR_RNDN)) <= 1e-13 * H[0] + 0x1p-1074);
    mpfr_clear(l2);
    ro_clear(&r);
    mpf(w, 3);
    mpf(y, 1);
    rm(&In);
}
END_TEST

/* Two identical groups: grad D_i = 0 by cancellation of transcendental
 * terms; ref decides it exactly (terms of equal (t, y) merged with exact
 * coefficients), fast gives 0 too. */
START_TEST(eval_cancellation)
{
    double X[4] = {1, 0.5, 1, 0.5};
    size_t cnt[2] = {2, 2};
    double XX[8] = {1, 0.5, 1, 0.5, 1, 0.5, 1, 0.5};
    unsigned char y[4] = {1, 1, 1, 1}, grp[4] = {0, 1, 0, 1};
    double r[2] = {0.5, 0.5};
    (void)X;
    fr_proxal_problem P = {.kind = FR_PROXAL_FAIR, .n = 1, .d = 2, .cnt = cnt, .X = XX, .y = y, .grp = grp, .r = r};
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    double w[2] = {0.25, 0.5}, c[2];
    ck_assert_int_eq(ff_proxal_client_eval(&P, 0, w, NULL, NULL, NULL, c, NULL, NULL, NULL), FR_OK);
    ck_assert(c[0] == -0.5 && c[1] == -0.5);
    double J[4];
    ck_assert_int_eq(ff_proxal_client_eval(&P, 0, w, NULL, NULL, NULL, NULL, J, NULL, NULL), FR_OK);
    ck_assert(J[0] == 0 && J[3] == 0);
    mpfr_t *mw = mpa(2, 53), *mc = mpa(2, 53), *mJ = mpa(4, 53);
    mpfr_set_d(mw[0], 0.25, MPFR_RNDN);
    mpfr_set_d(mw[1], 0.5, MPFR_RNDN);
    /* c = -r exactly is decided (the enclosure of D is tiny around 0 and -1/2 is far from a rounding boundary) */
    ck_assert_int_eq(fr_proxal_client_eval(&P, 0, mw, NULL, NULL, NULL, mc, NULL, NULL, NULL), FR_OK);
    ck_assert(mpfr_cmp_d(mc[0], -0.5) == 0 && mpfr_cmp_d(mc[1], -0.5) == 0);
    /* grad D_0 = 0 by cancellation of equal transcendental terms: ref merges the samples of
     * equal (t, y) with exact coefficients (here 2 - 2 = 0), so it is decided: +0 */
    for (int k = 0; k < 4; k++)
        mpfr_set_ui(mJ[k], 3, MPFR_RNDN);
    ck_assert_int_eq(fr_proxal_client_eval(&P, 0, mw, NULL, NULL, NULL, NULL, mJ, NULL, NULL), FR_OK);
    for (int k = 0; k < 4; k++)
        ck_assert(mpfr_zero_p(mJ[k]) && !mpfr_signbit(mJ[k]));
    /* at w = 0 every term is rational (s(0) = 1/2): grad D = 0 exactly is decided, +0 */
    mpfr_set_zero(mw[0], 1);
    mpfr_set_zero(mw[1], -1);
    ck_assert_int_eq(fr_proxal_client_eval(&P, 0, mw, NULL, NULL, NULL, NULL, mJ, NULL, NULL), FR_OK);
    for (int k = 0; k < 4; k++)
        ck_assert(mpfr_zero_p(mJ[k]) && !mpfr_signbit(mJ[k]));
    mpf(mw, 2);
    mpf(mc, 2);
    mpf(mJ, 4);
}
END_TEST

/* A large margin t = w x = 3e5: phi(t; 1) = log1p(e^-t), s(t) - 1 =
 * -e^-t/(1 + e^-t) and s(1 - s) are tiny but representable in MPFR.  ref
 * must form them without cancelling against t or 1 (which would need about
 * 1.44 t bits: FR_EINTERNAL before the fix); the oracle is the stable form
 * at 200 bits.  NP, n = 1, d = 1, client 1 holds one sample of each class. */
START_TEST(eval_large_margin)
{
    size_t cnt[2] = {0, 2};
    double X[2] = {1, 1}, r[1] = {0.2};
    unsigned char y[2] = {0, 1};
    fr_proxal_problem P = {.kind = FR_PROXAL_NP, .n = 1, .d = 1, .cnt = cnt, .X = X, .y = y, .r = r};
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        mpfr_t *w = mpa(1, 53), *g = mpa(1, 53), *H = mpa(1, 53), *c = mpa(1, 53), *J = mpa(1, 53);
        mpfr_t f, E, u, v, x;
        mpfr_init2(f, 53);
        mpfr_inits2(200, E, u, v, x, (mpfr_ptr)0);
        mpfr_set_si(w[0], sgn * 300000, MPFR_RNDN);
        ck_assert_int_eq(fr_proxal_client_eval(&P, 1, w, f, g, H, c, J, NULL, NULL), FR_OK);
        mpfr_set_si(E, -300000, MPFR_RNDN);
        mpfr_exp(E, E, MPFR_RNDN);                    /* E = e^-|t| */
        mpfr_add_ui(v, E, 1, MPFR_RNDN);              /* 1 + E */
        /* f = phi(t; 0) = max(t, 0) + log1p(E) (class 0 only; n cls0 = 1) */
        mpfr_log1p(x, E, MPFR_RNDN);
        mpfr_set(u, x, MPFR_RNDN);
        if (sgn > 0) mpfr_add_ui(u, u, 300000, MPFR_RNDN);
        mpfr_t t53;
        mpfr_init2(t53, 53);
        mpfr_set(t53, u, MPFR_RNDN);
        ck_assert(mpfr_equal_p(f, t53));
        /* c = phi(t; 1) - r = max(-t, 0) + log1p(E) - 0.2 */
        mpfr_set(u, x, MPFR_RNDN);
        if (sgn < 0) mpfr_add_ui(u, u, 300000, MPFR_RNDN);
        mpfr_sub_d(u, u, 0.2, MPFR_RNDN);
        mpfr_set(t53, u, MPFR_RNDN);
        ck_assert(mpfr_equal_p(c[0], t53));
        /* J = s(t) - 1: -E/(1 + E) for t > 0, -1/(1 + E) for t < 0 */
        if (sgn > 0) mpfr_div(u, E, v, MPFR_RNDN); else mpfr_ui_div(u, 1, v, MPFR_RNDN);
        mpfr_neg(u, u, MPFR_RNDN);
        mpfr_set(t53, u, MPFR_RNDN);
        ck_assert_msg(mpfr_equal_p(J[0], t53), "J: sign %d", sgn);
        ck_assert(mpfr_get_exp(J[0]) < -400000 || sgn < 0);
        /* g = s(t) (class 0): 1/(1 + E) or E/(1 + E);  H = E/(1 + E)^2 */
        if (sgn > 0) mpfr_ui_div(u, 1, v, MPFR_RNDN); else mpfr_div(u, E, v, MPFR_RNDN);
        mpfr_set(t53, u, MPFR_RNDN);
        ck_assert(mpfr_equal_p(g[0], t53));
        mpfr_sqr(u, v, MPFR_RNDN);
        mpfr_div(u, E, u, MPFR_RNDN);
        mpfr_set(t53, u, MPFR_RNDN);
        ck_assert(mpfr_equal_p(H[0], t53));
        mpfr_clears(f, E, u, v, x, t53, (mpfr_ptr)0);
        mpf(w, 1), mpf(g, 1), mpf(H, 1), mpf(c, 1), mpf(J, 1);
    }
}
END_TEST

/* E-004-25 (docs/ERRATA.md): (25)'s rows are equalities, outside (1)'s
 * c(w) <= 0.  min w s.t. w - 1 = 0 (n = 1, d = 1, one row; the server's row
 * the same): at the solution w = 1 the equality multiplier is -1 (split over
 * the two owners: -1/2 each), not in R_+, so Definition 1 as printed rejects
 * it (FR_EDOM), while the split rows (c, -c) with mu = (0, 1/2) per owner
 * give eps1 = eps2 = 0 exactly.  The data: A_1 = 0, b_1 = 1, C_i = 1,
 * e_i = -1 (i = 0, 1). */
START_TEST(erratum_25)
{
    double A = 0, b = 1, C[2] = {1, 1}, e[2] = {-1, -1}, w = 1, g, c0, c1, J0, J1;
    fr_proxal_problem P = {.kind = FR_PROXAL_QP, .n = 1, .d = 1, .mt = 1, .A = &A, .b = &b, .C = C, .e = e};
    ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
    ck_assert_int_eq(fr_proxal_row_eq(&P, 0, 0), 1);
    ck_assert_int_eq(ff_proxal_client_eval(&P, 1, &w, NULL, &g, NULL, &c1, &J1, NULL, NULL), FR_OK);
    ck_assert_int_eq(ff_proxal_client_eval(&P, 0, &w, NULL, NULL, NULL, &c0, &J0, NULL, NULL), FR_OK);
    ck_assert(g == 1 && c0 == 0 && c1 == 0 && J0 == 1 && J1 == 1);
    double e1 = 7, e2 = 7;
    const double Jeq[2] = {J0, J1}, ceq[2] = {c0, c1}, nu[2] = {-0.5, -0.5};
    ck_assert_int_eq(ff_proxal_kkt(&e1, &e2, &g, 1, Jeq, 2, ceq, nu, &w, FR_PROXAL_H_ZERO, 0, NULL, NULL), FR_EDOM);
    /* the split problem: rows c_0, -c_0, c_1, -c_1 */
    const double Js[4] = {J0, -J0, J1, -J1}, cs[4] = {c0, -c0, c1, -c1}, mus[4] = {0, 0.5, 0, 0.5};
    ck_assert_int_eq(ff_proxal_kkt(&e1, &e2, &g, 1, Js, 4, cs, mus, &w, FR_PROXAL_H_ZERO, 0, NULL, NULL), FR_OK);
    ck_assert_msg(e1 >= 0 && e1 < 0x1p-45 && e2 == 0, "fast %a %a", e1, e2);   /* fast: an upper bound of 0 */
    mpfr_t r1, r2, *mg = mpa(1, 53), *mw = mpa(1, 53), *mJ = mpa(4, 53), *mc = mpa(4, 53), *mm = mpa(4, 53);
    mpfr_inits2(53, r1, r2, (mpfr_ptr)0);
    mpfr_set_d(mg[0], g, MPFR_RNDN);
    mpfr_set_d(mw[0], w, MPFR_RNDN);
    for (int k = 0; k < 4; k++) {
        mpfr_set_d(mJ[k], Js[k], MPFR_RNDN);
        mpfr_set_d(mc[k], cs[k], MPFR_RNDN);
        mpfr_set_d(mm[k], mus[k], MPFR_RNDN);
    }
    ck_assert_int_eq(fr_proxal_kkt(r1, r2, mg, 1, mJ, 4, mc, mm, mw, FR_PROXAL_H_ZERO, NULL, NULL, NULL), FR_OK);
    ck_assert(mpfr_zero_p(r1) && mpfr_zero_p(r2));            /* ref: exactly 0 */
    mpfr_set_d(mm[0], -0.5, MPFR_RNDN);                         /* the equality multiplier */
    ck_assert_int_eq(fr_proxal_kkt(r1, r2, mg, 1, mJ, 1, mc, mm, mw, FR_PROXAL_H_ZERO, NULL, NULL, NULL), FR_EDOM);
    mpfr_clears(r1, r2, (mpfr_ptr)0);
    mpf(mg, 1), mpf(mw, 1), mpf(mJ, 4), mpf(mc, 4), mpf(mm, 4);
}
END_TEST

Suite *suite_proxal_problem(void)
{
    Suite *s = suite_create("proxal_problem");
    TCase *tc = tcase_create("problem");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gen_qp_props);
    tcase_add_test(tc, gen_qp_python);
    tcase_add_test(tc, gen_qp_moments);
    tcase_add_test(tc, gen_lg_props);
    tcase_add_test(tc, eval_reference);
    tcase_add_test(tc, eval_differences);
    tcase_add_test(tc, eval_edges);
    tcase_add_test(tc, eval_cancellation);
    tcase_add_test(tc, eval_large_margin);
    tcase_add_test(tc, erratum_25);
    suite_add_tcase(s, tc);
    return s;
}
