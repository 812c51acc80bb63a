/* SPDX-License-Identifier: Apache-2.0 */
/* proxal_lk.c -- vector schema of proxal_lk: l_k of 004 (6) (h = 0), its
 * gradient, and the multiplier update of Algorithm 1 (fr_/ff_ proxal_lk,
 * proxal_mu_update).
 *   params (one problem per group): kind ("qp" | "np" | "fair");
 *     QP (25) (kind = "qp"): A (n d rows of d: client i's A_i is rows (i-1) d
 *       .. i d - 1), b (n rows of d), C ((n+1) mt rows of d: owner i's C_i is
 *       rows i mt ..), e (n+1 rows of mt); equality rows;
 *     NP (26)-(27), FAIR (28): cnt (n+1 sample counts, NP: cnt_0 = 0), X
 *       (sum cnt rows of d), y (labels 0/1), r (NP: n entries r_1..r_n;
 *       FAIR: n+1, r_0..r_n), grp (kind = "fair" only: groups 0/1); for QP
 *       these four are empty (the schema's fields are present for every
 *       kind; only A, b, C, e and grp are conditional);
 *   inputs: w (d), wk (d: w^k), mu (sum m_i: mu_0, .., mu_n), beta;
 *   expect: lk = l_k(w), grad (d) = grad l_k(w), mu_next (sum m_i) =
 *     [mu + beta c(w)]_+ per inequality row, mu + beta c(w) per equality
 *     row (the update is included because it shares the evaluation and
 *     fixes the equality-row convention of E-004-25 in a vector).
 * certified: ref correctly rounded (MPFI Ziv loop, ref/proxal/lk.c).
 * tol: rel = 2^-45, abs = 2^-45 S, S = the sum of the magnitudes of the
 *   terms of l_k and of its gradient as fast forms them (sum_i |f_i| +
 *   ||grad f_i||_inf + sum_j (|mu_j c_j| + beta c_j^2/2 + mu_j^2/(2 beta) +
 *   |y_j| ||grad c_j||_inf) + ||w - w^k||^2/(2 beta) + ||w - w^k||_inf /
 *   beta + sum |mu_j| + beta |c_j|).  Each output is a sum of at most N <=
 *   64 such terms here (d <= 4, n <= 3, <= 8 samples per owner), each
 *   within a few ulps (dot products: d u; glibc's exp and log1p: < 1 ulp
 *   each in the stable forms), so |fast - exact| <= (N + 8) u S < 2^-46 S:
 *   2^-45 S leaves a factor 2 (not a proof for NP/FAIR: libm is not
 *   correctly rounded; the audit measured err/tol < 0.02 on the 22 cases
 *   and 400 sweep cases). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../vectors.h"

static const char *const KINDS[] = {"qp", "np", "fair", NULL};   /* index + 1 = FR_PROXAL_* */
_Static_assert(FR_PROXAL_QP == 1 && FR_PROXAL_NP == 2 && FR_PROXAL_FAIR == 3, "kind = index + 1");

static const vspec params[] = {{"kind", VK_CHOICE, KINDS, NULL},     {"A", VK_MATRIX, NULL, "kind=qp"},
                               {"b", VK_MATRIX, NULL, "kind=qp"},    {"C", VK_MATRIX, NULL, "kind=qp"},
                               {"e", VK_MATRIX, NULL, "kind=qp"},    {"cnt", VK_VECTOR, NULL, NULL},
                               {"X", VK_MATRIX, NULL, NULL},         {"y", VK_VECTOR, NULL, NULL},
                               {"r", VK_VECTOR, NULL, NULL},         {"grp", VK_VECTOR, NULL, "kind=fair"},
                               {NULL, 0, NULL, NULL}};
static const vspec inputs[] = {{"w", VK_VECTOR, NULL, NULL}, {"wk", VK_VECTOR, NULL, NULL},
                               {"mu", VK_VECTOR, NULL, NULL}, {"beta", VK_SCALAR, NULL, NULL},
                               {NULL, 0, NULL, NULL}};
static const vspec expects[] = {{"lk", VK_SCALAR, NULL, NULL}, {"grad", VK_VECTOR, NULL, NULL},
                                {"mu_next", VK_VECTOR, NULL, NULL}, {NULL, 0, NULL, NULL}};

enum { P_KIND, P_A, P_B, P_C, P_E, P_CNT, P_X, P_Y, P_R, P_GRP };
enum { I_W, I_WK, I_MU, I_BETA };

#define CAP 4096
typedef struct {
    fr_proxal_problem P;
    size_t cnt[CAP];
    unsigned char y[CAP], g[CAP];
} pbuf;

/* The problem from binary64 params (shapes checked: FR_ESIZE; labels,
 * groups, counts not 0/1 or not integers: FR_EDOM), then the inputs'
 * shapes against it. */
static int build(pbuf *B, const ftensor *par, const ftensor *in)
{
    fr_proxal_problem *P = &B->P;
    memset(P, 0, sizeof *P);
    P->kind = (int)par[P_KIND].v[0] + 1;
    P->h = FR_PROXAL_H_ZERO;
    if (P->kind == FR_PROXAL_QP) {
        size_t d = par[P_A].cols, n = par[P_B].rows, mt = par[P_E].cols;
        if (d == 0 || n == 0 || mt == 0 || par[P_A].rows != n * d || par[P_B].cols != d
            || par[P_C].rows != (n + 1) * mt || par[P_C].cols != d || par[P_E].rows != n + 1
            || par[P_CNT].cols * par[P_X].rows * par[P_Y].cols * par[P_R].cols != 0)
            return FR_ESIZE;
        P->n = n;
        P->d = d;
        P->mt = mt;
        P->A = par[P_A].v;
        P->b = par[P_B].v;
        P->C = par[P_C].v;
        P->e = par[P_E].v;
    } else {
        size_t n1 = par[P_CNT].cols, S = 0;
        int fair = P->kind == FR_PROXAL_FAIR;
        if (n1 < 2 || n1 > CAP || par[P_CNT].rows != 1)
            return FR_ESIZE;
        for (size_t i = 0; i < n1; i++) {
            double c = par[P_CNT].v[i];
            if (!(c >= 0 && c <= CAP && c == floor(c)))
                return FR_EDOM;
            B->cnt[i] = (size_t)c;
            S += B->cnt[i];
        }
        if (S == 0 || S > CAP || par[P_X].rows != S || par[P_X].cols == 0 || par[P_Y].cols != S
            || par[P_R].cols != (fair ? n1 : n1 - 1) || (fair && par[P_GRP].cols != S))
            return FR_ESIZE;
        for (size_t s = 0; s < S; s++) {
            double yy = par[P_Y].v[s], gg = fair ? par[P_GRP].v[s] : 0;
            if ((yy != 0 && yy != 1) || (gg != 0 && gg != 1))
                return FR_EDOM;
            B->y[s] = (unsigned char)yy;
            B->g[s] = (unsigned char)gg;
        }
        P->n = n1 - 1;
        P->d = par[P_X].cols;
        P->cnt = B->cnt;
        P->X = par[P_X].v;
        P->y = B->y;
        P->grp = fair ? B->g : NULL;
        P->r = par[P_R].v;
    }
    if (in[I_W].cols != P->d || in[I_WK].cols != P->d || in[I_MU].rows != 1)
        return FR_ESIZE;
    size_t mt = P->kind == FR_PROXAL_QP ? (P->n + 1) * P->mt : P->kind == FR_PROXAL_NP ? P->n : 2 * (P->n + 1);
    if (in[I_MU].cols != mt)
        return FR_ESIZE;
    return FR_OK;
}

/* ref's params as binary64 (exactly: the schema's data are binary64). */
static int par_double(ftensor *fp, double **store, const rtensor *par, size_t np)
{
    size_t tot = 0;
    for (size_t k = 0; k < np; k++) tot += par[k].rows * par[k].cols;
    *store = malloc((tot ? tot : 1) * sizeof **store);
    if (!*store) return FR_ENOMEM;
    double *p = *store;
    for (size_t k = 0; k < np; k++) {
        fp[k] = (ftensor){par[k].rows, par[k].cols, p};
        for (size_t j = 0; j < par[k].rows * par[k].cols; j++)
            if (rt_exact_double(p++, par[k].v[j]) != FR_OK) return FR_EDOM;
    }
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    ftensor fp[10], fi[4];
    double *store = NULL;
    pbuf *B = malloc(sizeof *B);
    int st = B ? par_double(fp, &store, par, 10) : FR_ENOMEM;
    for (int k = 0; k < 4; k++) fi[k] = (ftensor){in[k].rows, in[k].cols, NULL};
    if (st == FR_OK) st = build(B, fp, fi);
    if (st == FR_OK && (rt_alloc(&out[0], 1, 1, prec) || rt_alloc(&out[1], 1, B->P.d, prec)
                        || rt_alloc(&out[2], 1, in[I_MU].cols, prec)))
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_proxal_lk(out[0].v[0], out[1].v, &B->P, in[I_W].v, in[I_WK].v, in[I_MU].v, in[I_BETA].v[0]);
    if (st == FR_OK) st = fr_proxal_mu_update(out[2].v, &B->P, in[I_W].v, in[I_MU].v, in[I_BETA].v[0]);
    free(store);
    free(B);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    pbuf *B = malloc(sizeof *B);
    int st = B ? build(B, par, in) : FR_ENOMEM;
    if (st == FR_OK && (ft_alloc(&out[0], 1, 1) || ft_alloc(&out[1], 1, B->P.d) || ft_alloc(&out[2], 1, in[I_MU].cols)))
        st = FR_ENOMEM;
    if (st == FR_OK) st = ff_proxal_lk(&out[0].v[0], out[1].v, &B->P, in[I_W].v, in[I_WK].v, in[I_MU].v, in[I_BETA].v[0]);
    if (st == FR_OK) st = ff_proxal_mu_update(out[2].v, &B->P, in[I_W].v, in[I_MU].v, in[I_BETA].v[0]);
    free(B);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    *rel = *abs = 0;
    pbuf *B = malloc(sizeof *B);
    if (!B) return;
    if (build(B, par, in) != FR_OK || fr_proxal_problem_check(&B->P) != FR_OK) { free(B); return; }
    const fr_proxal_problem *P = &B->P;
    size_t d = P->d, off = 0;
    double beta = in[I_BETA].v[0], S = 0, f, g[64], c[64], J[64 * 64];
    if (d > 64 || !(beta > 0)) { free(B); return; }
    for (size_t i = 0; i <= P->n; i++) {
        size_t m = fr_proxal_mi(P, i);
        if (m > 64 || ff_proxal_client_eval(P, i, in[I_W].v, &f, g, NULL, c, J, NULL, NULL) != FR_OK) { free(B); return; }
        S += fabs(f);
        double gm = 0;
        for (size_t k = 0; k < d; k++) gm = fmax(gm, fabs(g[k]));
        S += gm;
        for (size_t j = 0; j < m; j++) {
            double mu = in[I_MU].v[off + j], t = fabs(mu) + beta * fabs(c[j]), jm = 0;
            for (size_t k = 0; k < d; k++) jm = fmax(jm, fabs(J[k * m + j]));
            S += fabs(mu * c[j]) + beta * c[j] * c[j] / 2 + mu * mu / (2 * beta) + t * jm + t;
        }
        off += m;
    }
    double q = 0, qm = 0;
    for (size_t k = 0; k < d; k++) {
        double t = in[I_W].v[k] - in[I_WK].v[k];
        q += t * t;
        qm = fmax(qm, fabs(t));
    }
    S += q / (2 * beta) + qm / beta;
    *rel = 0x1p-45;
    *abs = 0x1p-45 * S;
    free(B);
}

/* ---- random cases (the audit's sweep) -------------------------------------- */

static double rnd(frng_t *g, unsigned bits, int emin, int emax)
{
    uint64_t k, e, s;
    frng_below(g, (uint64_t)1 << bits, &k);
    frng_below(g, (uint64_t)(emax - emin + 1), &e);
    frng_below(g, 2, &s);
    return (s ? -1.0 : 1.0) * ldexp((double)k, emin + (int)e - (int)bits);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t kind, n, d, mt, t;
    frng_below(g, 3, &kind);
    frng_below(g, 3, &n); n++;
    frng_below(g, 3, &d); d++;
    frng_below(g, 2, &mt); mt++;
    ft_alloc(&par[P_KIND], 1, 1);
    par[P_KIND].v[0] = (double)kind;
    for (int k = P_A; k <= P_GRP; k++) ft_alloc(&par[k], 0, 0);
    size_t mtot;
    if (kind == 0) {
        ft_alloc(&par[P_A], n * d, d);
        ft_alloc(&par[P_B], n, d);
        ft_alloc(&par[P_C], (n + 1) * mt, d);
        ft_alloc(&par[P_E], n + 1, mt);
        for (size_t i = 0; i < n; i++)
            for (size_t a = 0; a < d; a++)
                for (size_t b = 0; b <= a; b++)
                    par[P_A].v[i * d * d + a * d + b] = par[P_A].v[i * d * d + b * d + a] = rnd(g, 30, -2, 2);
        for (size_t k = 0; k < n * d; k++) par[P_B].v[k] = rnd(g, 30, -2, 2);
        for (size_t k = 0; k < (n + 1) * mt * d; k++) par[P_C].v[k] = rnd(g, 30, -2, 2);
        for (size_t k = 0; k < (n + 1) * mt; k++) par[P_E].v[k] = rnd(g, 30, -2, 2);
        mtot = (n + 1) * mt;
    } else {
        int fair = kind == 2;
        ft_alloc(&par[P_CNT], 1, n + 1);
        size_t S = 0;
        for (size_t i = 0; i <= n; i++) {
            par[P_CNT].v[i] = (!fair && i == 0) ? 0 : 4;
            S += (size_t)par[P_CNT].v[i];
        }
        ft_alloc(&par[P_X], S, d);
        ft_alloc(&par[P_Y], 1, S);
        ft_alloc(&par[P_R], 1, fair ? n + 1 : n);
        if (fair) ft_alloc(&par[P_GRP], 1, S);
        for (size_t s = 0; s < S; s++) {
            par[P_Y].v[s] = (double)(s % 2);
            if (fair) par[P_GRP].v[s] = (double)((s / 2) % 2);
            for (size_t k = 0; k < d; k++) par[P_X].v[s * d + k] = rnd(g, 30, -1, 2);
        }
        for (size_t i = 0; i < par[P_R].cols; i++) par[P_R].v[i] = fabs(rnd(g, 20, -3, 0));
        mtot = fair ? 2 * (n + 1) : n;
    }
    ft_alloc(&in[I_W], 1, d);
    ft_alloc(&in[I_WK], 1, d);
    ft_alloc(&in[I_MU], 1, mtot);
    ft_alloc(&in[I_BETA], 1, 1);
    for (size_t k = 0; k < d; k++) {
        in[I_W].v[k] = rnd(g, 30, -2, 2);
        in[I_WK].v[k] = rnd(g, 30, -2, 2);
    }
    for (size_t j = 0; j < mtot; j++) {
        frng_below(g, 3, &t);
        in[I_MU].v[j] = t == 0 ? 0.0 : kind == 0 ? rnd(g, 20, -2, 2) : fabs(rnd(g, 20, -2, 2));
    }
    in[I_BETA].v[0] = fabs(rnd(g, 20, -2, 3)) + 0x1p-4;
}

/* ---- golden cases --------------------------------------------------------- */

static const double NONE[1] = {0};

static void qp_group(vgen *g, const char *comment, size_t n, size_t d, size_t mt, const double *A, const double *b,
                     const double *C, const double *e)
{
    double kv = 0;
    ftensor p[10] = {{1, 1, &kv},
                     {n * d, d, (double *)A},
                     {n, d, (double *)b},
                     {(n + 1) * mt, d, (double *)C},
                     {n + 1, mt, (double *)e},
                     {1, 0, (double *)NONE},
                     {0, 0, (double *)NONE},
                     {1, 0, (double *)NONE},
                     {1, 0, (double *)NONE},
                     {0, 0, NULL}};
    vg_group_fields(g, comment, p);
}

static void lg_group(vgen *g, const char *comment, int fair, size_t n, size_t d, const double *cnt, size_t S,
                     const double *X, const double *y, const double *r, const double *grp)
{
    double kv = fair ? 2 : 1;
    ftensor p[10] = {{1, 1, &kv},
                     {0, 0, NULL},
                     {0, 0, NULL},
                     {0, 0, NULL},
                     {0, 0, NULL},
                     {1, n + 1, (double *)cnt},
                     {S, d, (double *)X},
                     {1, S, (double *)y},
                     {1, fair ? n + 1 : n, (double *)r},
                     {fair ? 1 : 0, fair ? S : 0, (double *)grp}};
    vg_group_fields(g, comment, p);
}

static void lcase(vgen *g, const char *comment, const char *flags, int invalid, size_t d, size_t mt,
                  const double *w, const double *wk, const double *mu, double beta)
{
    vg_case(g, comment, flags, invalid,
            (ftensor[]){{1, d, (double *)w}, {1, d, (double *)wk}, {1, mt, (double *)mu}, {1, 1, &beta}});
}

static void golden(vgen *g)
{
    /* the hand QP of tests/proxal/lk_fixtures.h */
    static const double A[4] = {2, 0, 0, 4}, b[2] = {1, -1}, C[4] = {1, 1, 1, -1}, e[2] = {-1, 0.5};
    qp_group(g, "QP (25), n = 1, d = 2, mt = 1: A_1 = diag(2, 4), b_1 = (1, -1), C_0 = (1, 1), e_0 = -1, C_1 = (1, -1), e_1 = 1/2",
             1, 2, 1, A, b, C, e);
    lcase(g, "f_1 = 8, AL_0 = 2, AL_1 = 0.5625 (t_1 = -1.25 < 0 on an equality row: no [.]_+), prox 2: l_k = 12.5625, grad (5.25, 11.75), mu_next (1.5, -1.25)",
          "exact", 0, 2, 2, (double[]){1, 2}, (double[]){0, 1}, (double[]){0.5, -1}, 0.5);
    lcase(g, "w = w^k, c = (-1, 1/2) at w = 0, mu = 0: l_k = beta (1 + 1/4)/2", "exact", 0, 2, 2,
          (double[]){0, 0}, (double[]){0, 0}, (double[]){0, 0}, 2);
    lcase(g, "mu = -0 (equality rows: free sign), w = -0", "signed-zero", 0, 2, 2, (double[]){-0.0, 0},
          (double[]){-0.0, 0}, (double[]){-0.0, -0.0}, 1);
    lcase(g, "beta = 1/3 (not dyadic): the 1/(2 beta) terms are inexact", "random", 0, 2, 2, (double[]){0.25, -0.75},
          (double[]){1, 1}, (double[]){0.125, 3}, 1.0 / 3);
    lcase(g, "beta = 0", "domain", 1, 2, 2, (double[]){0, 0}, (double[]){0, 0}, (double[]){0, 0}, 0);
    lcase(g, "beta < 0", "domain", 1, 2, 2, (double[]){0, 0}, (double[]){0, 0}, (double[]){0, 0}, -1);
    lcase(g, "NaN in w", "nan", 1, 2, 2, (double[]){NAN, 0}, (double[]){0, 0}, (double[]){0, 0}, 1);
    lcase(g, "an infinite multiplier", "inf", 1, 2, 2, (double[]){0, 0}, (double[]){0, 0}, (double[]){INFINITY, 0}, 1);
    lcase(g, "mu of length 1 (sum m_i = 2)", "size", 1, 2, 1, (double[]){0, 0}, (double[]){0, 0}, (double[]){0}, 1);
    lcase(g, "w of length 1 (d = 2)", "size", 1, 1, 2, (double[]){0}, (double[]){0, 0}, (double[]){0, 0}, 1);
    {
        static double A2[2 * 9], b2[2 * 3], C2[3 * 2 * 3], e2[3 * 2];
        fr_proxal_gen_qp(A2, b2, C2, e2, 2, 3, 2, 4);
        qp_group(g, "QP (25) from fr_proxal_gen_qp(n = 2, d = 3, mt = 2, seed 4)", 2, 3, 2, A2, b2, C2, e2);
        double w[3], wk[3], mu[6];
        for (int k = 0; k < 3; k++) { w[k] = vg_dyadic(g, 20); wk[k] = vg_dyadic(g, 20); }
        for (int j = 0; j < 6; j++) mu[j] = vg_dyadic(g, 16);
        lcase(g, "random dyadic point", "random", 0, 3, 6, w, wk, mu, 0.75);
        lcase(g, "the same point, beta = 10", "random", 0, 3, 6, w, wk, mu, 10);
    }
    {
        static const double asym[4] = {2, 1, 0, 4};
        qp_group(g, "QP with A_1 not symmetric", 1, 2, 1, asym, b, C, e);
        lcase(g, "A_1 not symmetric", "domain", 1, 2, 2, (double[]){0, 0}, (double[]){0, 0}, (double[]){0, 0}, 1);
    }
    /* NP: n = 2, d = 2, 4 samples per client (both classes) */
    {
        static const double cnt[3] = {0, 4, 4}, y[8] = {0, 1, 0, 1, 1, 0, 1, 0}, r[2] = {0.5, 0.25};
        static const double X[16] = {1, 0.5, -0.5, 1, 0.25, -1, 2, 0.125, -1, 0.75, 0.5, 0.5, -0.25, -2, 1, 1};
        lg_group(g, "Neyman-Pearson (26)-(27), n = 2, d = 2, r = (1/2, 1/4)", 0, 2, 2, cnt, 8, X, y, r, NULL);
        lcase(g, "mu = (0, 0.5): client 1's row inactive or active by the sign of t", "random", 0, 2, 2,
              (double[]){0.5, -0.25}, (double[]){0, 0}, (double[]){0, 0.5}, 1);
        lcase(g, "mu = -0 is the multiplier 0; the update of an inactive row is +0", "signed-zero,plus-zero-result", 0,
              2, 2, (double[]){-3, 2}, (double[]){1, 1}, (double[]){-0.0, -0.0}, 0.125);
        lcase(g, "large w: the logistic terms saturate (stable forms)", "overflow", 0, 2, 2, (double[]){600, -700},
              (double[]){0, 0}, (double[]){1, 2}, 1);
        lcase(g, "a negative multiplier on an inequality row", "domain", 1, 2, 2, (double[]){0, 0}, (double[]){0, 0},
              (double[]){0.5, -0x1p-1074}, 1);
    }
    {
        static const double cnt[3] = {0, 2, 2}, y[4] = {0, 0, 0, 1}, r[2] = {0.5, 0.5}, X[4] = {1, 2, 3, 4};
        lg_group(g, "Neyman-Pearson with client 1 without a positive sample", 0, 2, 1, cnt, 4, X, y, r, NULL);
        lcase(g, "a client without both classes", "domain", 1, 1, 2, (double[]){0}, (double[]){0}, (double[]){0, 0}, 1);
    }
    /* FAIR: n = 1, d = 2 */
    {
        static const double cnt[2] = {4, 4}, y[8] = {0, 1, 1, 0, 1, 1, 0, 0}, grp[8] = {0, 0, 1, 1, 0, 1, 0, 1},
                            r[2] = {0.125, 0.0625};
        static const double X[16] = {0.5, 1, -1, 0.25, 2, -0.5, 0.75, 0.75, -0.5, 1.5, 1, -1, 0.25, 0.5, -2, 1};
        lg_group(g, "fairness (28), n = 1, d = 2, r = (1/8, 1/16): 4 inequality rows", 1, 1, 2, cnt, 8, X, y, r, grp);
        lcase(g, "mu = 0: rows active only where c_j > 0", "random,kink", 0, 2, 4, (double[]){1, -1}, (double[]){0.5, 0},
              (double[]){0, 0, 0, 0}, 2);
        lcase(g, "mu > 0 on every row", "random", 0, 2, 4, (double[]){-0.5, 0.25}, (double[]){0, 0.5},
              (double[]){0.25, 1, 0.5, 0.125}, 0.5);
        lcase(g, "a negative multiplier on a fairness row", "domain", 1, 2, 4, (double[]){0, 0}, (double[]){0, 0}, (double[]){-1, 0, 0, 0}, 1);
    }
    {
        static const double cnt[2] = {2, 2}, y[4] = {0, 1, 0, 1}, grp[4] = {0, 2, 0, 1}, r[2] = {0, 0}, X[4] = {1, 2, 3, 4};
        lg_group(g, "fairness with a group label 2", 1, 1, 1, cnt, 4, X, y, r, grp);
        lcase(g, "a group label outside {0, 1}", "domain", 1, 1, 4, (double[]){0}, (double[]){0}, (double[]){0, 0, 0, 0}, 1);
    }
}

const vfunc vfunc_proxal_lk = {"proxal_lk", "004 (6), (10)-(11), Algorithm 1's multiplier update", params, inputs,
                               expects, ref, fast, tol, golden, sample, 400, 0};
