/* SPDX-License-Identifier: Apache-2.0 */
/* kkt_residual.c -- vector schema of kkt_residual, the residuals of 004
 * Definition 1 (fr_proxal_kkt / ff_proxal_kkt): params h ("zero", "l1",
 * "box"), gamma (only with h = "l1"), lo and hi (vectors of length d, only
 * with h = "box"); inputs grad_f (d), jac_c (d rows of m entries: grad c(w)
 * in R^{d x m}; m = 0: d empty rows), c (m), mu (m), w (d); expect eps1,
 * eps2.  tol: abs = ff_proxal_kkt_bound's abs1 (fast's eps1 is an upper
 * bound within it; eps2 is exact), rel = 2^-100 (the expected 40-digit
 * decimal is within 2^-130 relative of the exact value, on either side). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../vectors.h"

static const char *const H_NAMES[] = {"zero", "l1", "box", NULL};   /* = FR_PROXAL_H_* */
_Static_assert(FR_PROXAL_H_ZERO == 0 && FR_PROXAL_H_L1 == 1 && FR_PROXAL_H_BOX == 2, "h index = enum");

static const vspec params[] = {{"h", VK_CHOICE, H_NAMES, NULL}, {"gamma", VK_SCALAR, NULL, "h=l1"},
                               {"lo", VK_VECTOR, NULL, "h=box"}, {"hi", VK_VECTOR, NULL, "h=box"},
                               {NULL, 0, NULL, NULL}};
static const vspec inputs[] = {{"grad_f", VK_VECTOR, NULL, NULL}, {"jac_c", VK_MATRIX, NULL, NULL},
                               {"c", VK_VECTOR, NULL, NULL}, {"mu", VK_VECTOR, NULL, NULL},
                               {"w", VK_VECTOR, NULL, NULL}, {NULL, 0, NULL, NULL}};
static const vspec expects[] = {{"eps1", VK_SCALAR, NULL, NULL, VC_UPPER},
                                {"eps2", VK_SCALAR, NULL, NULL, VC_EXACT},
                                {NULL, 0, NULL, NULL}};

/* Sizes d, m from the shapes, FR_ESIZE if inconsistent: grad_f and w 1 x d,
 * c and mu 1 x m, jac_c d x m (m = 0: no entries), lo and hi 1 x d when
 * present; *h from the choice. */
static int shapes(const size_t *rc, int *h, size_t *d, size_t *m)
{
    /* rc: rows, cols of grad_f, jac_c, c, mu, w, lo, hi; then h */
    *d = rc[1];
    *m = rc[5];
    *h = (int)rc[14];
    if (rc[0] != 1 || rc[4] != 1 || rc[6] != 1 || rc[8] != 1 || rc[9] != *d || rc[7] != *m)
        return FR_ESIZE;
    if (*m == 0 ? rc[2] * rc[3] != 0 : rc[2] != *d || rc[3] != *m)
        return FR_ESIZE;
    if (*h == FR_PROXAL_H_BOX && (rc[10] != 1 || rc[11] != *d || rc[12] != 1 || rc[13] != *d))
        return FR_ESIZE;
    return FR_OK;
}

#define SHAPES(par, in) (size_t[]){in[0].rows, in[0].cols, in[1].rows, in[1].cols, in[2].rows, in[2].cols, \
                                   in[3].rows, in[3].cols, in[4].rows, in[4].cols, par[2].rows, par[2].cols, \
                                   par[3].rows, par[3].cols, 0}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t rc[15] = {0}, d, m;
    int h;
    memcpy(rc, SHAPES(par, in), sizeof rc);
    rc[14] = (size_t)mpfr_get_ui(par[0].v[0], MPFR_RNDN);
    int st = shapes(rc, &h, &d, &m);
    if (st != FR_OK) return st;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    return fr_proxal_kkt(out[0].v[0], out[1].v[0], in[0].v, d, m ? in[1].v : NULL, m, m ? in[2].v : NULL,
                         m ? in[3].v : NULL, in[4].v, h, par[1].rows ? par[1].v[0] : NULL,
                         par[2].rows ? par[2].v : NULL, par[3].rows ? par[3].v : NULL);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t rc[15] = {0}, d, m;
    int h;
    memcpy(rc, SHAPES(par, in), sizeof rc);
    rc[14] = (size_t)par[0].v[0];
    int st = shapes(rc, &h, &d, &m);
    if (st != FR_OK) return st;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    return ff_proxal_kkt(&out[0].v[0], &out[1].v[0], in[0].v, d, m ? in[1].v : NULL, m, m ? in[2].v : NULL,
                         m ? in[3].v : NULL, in[4].v, h, par[1].rows ? par[1].v[0] : 0,
                         par[2].rows ? par[2].v : NULL, par[3].rows ? par[3].v : NULL);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t rc[15] = {0}, d, m;
    int h;
    double a1, a2;
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    memcpy(rc, SHAPES(par, in), sizeof rc);
    rc[14] = (size_t)par[0].v[0];
    if (shapes(rc, &h, &d, &m) != FR_OK) return;
    if (ff_proxal_kkt_bound(&a1, &a2, in[0].v, d, m ? in[1].v : NULL, m, m ? in[2].v : NULL, m ? in[3].v : NULL,
                            in[4].v, h, par[1].rows ? par[1].v[0] : 0, par[2].rows ? par[2].v : NULL,
                            par[3].rows ? par[3].v : NULL) != FR_OK) return;
    *rel = 0x1p-100;
    *abs = fmax(a1, a2);
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
    uint64_t d, m, h, t;
    frng_below(g, 6, &d); d++;
    frng_below(g, 5, &m);
    frng_below(g, 3, &h);
    ft_alloc(&par[0], 1, 1);
    par[0].v[0] = (double)h;
    ft_alloc(&par[1], h == FR_PROXAL_H_L1, h == FR_PROXAL_H_L1);
    if (h == FR_PROXAL_H_L1) par[1].v[0] = fabs(rnd(g, 8, -3, 3));
    ft_alloc(&par[2], h == FR_PROXAL_H_BOX, h == FR_PROXAL_H_BOX ? d : 0);
    ft_alloc(&par[3], h == FR_PROXAL_H_BOX, h == FR_PROXAL_H_BOX ? d : 0);
    ft_alloc(&in[0], 1, d);
    ft_alloc(&in[1], m ? d : 0, m);
    ft_alloc(&in[2], 1, m);
    ft_alloc(&in[3], 1, m);
    ft_alloc(&in[4], 1, d);
    for (size_t j = 0; j < m; j++) {
        frng_below(g, 3, &t);
        in[3].v[j] = t == 0 ? 0.0 : fabs(rnd(g, 20, -8, 8));
        in[2].v[j] = rnd(g, 30, -8, 8);
    }
    for (size_t k = 0; k < d; k++) {
        for (size_t j = 0; j < m; j++) in[1].v[k * m + j] = rnd(g, 40, -8, 8);
        in[0].v[k] = rnd(g, 50, -8, 8);
        frng_below(g, 4, &t);
        if (m > 0 && t == 0) in[0].v[k] = -(in[1].v[k * m] * in[3].v[0]);     /* cancellation */
        frng_below(g, 3, &t);
        in[4].v[k] = t == 0 ? 0.0 : rnd(g, 10, -2, 2);
        if (h == FR_PROXAL_H_BOX) {
            double a = rnd(g, 10, -2, 2), b = rnd(g, 10, -2, 2);
            par[2].v[k] = fmin(a, b);
            par[3].v[k] = fmax(a, b);
            frng_below(g, 4, &t);
            in[4].v[k] = t == 0 ? par[2].v[k] : t == 1 ? par[3].v[k] : t == 2 ? par[2].v[k] / 2 + par[3].v[k] / 2
                                                                         : (par[3].v[k] = par[2].v[k]);
        }
    }
}

/* ---- golden cases --------------------------------------------------------- */

static void group(vgen *g, const char *comment, int h, double gamma, size_t d, const double *lo, const double *hi)
{
    double hv = h;
    ftensor p[4] = {{1, 1, &hv}, {0, 0, NULL}, {0, 0, NULL}, {0, 0, NULL}};
    if (h == FR_PROXAL_H_L1) p[1] = (ftensor){1, 1, &gamma};
    if (h == FR_PROXAL_H_BOX) { p[2] = (ftensor){1, d, (double *)lo}; p[3] = (ftensor){1, d, (double *)hi}; }
    vg_group_fields(g, comment, p);
}

static void kcase(vgen *g, const char *comment, const char *flags, int invalid, size_t d, size_t m,
                  const double *gf, const double *J, const double *c, const double *mu, const double *w)
{
    vg_case(g, comment, flags, invalid,
            (ftensor[]){{1, d, (double *)gf}, {m ? d : 0, m, (double *)J}, {1, m, (double *)c},
                        {1, m, (double *)mu}, {1, d, (double *)w}});
}

static void golden(vgen *g)
{
    static const double none[1] = {0};
    group(g, "h = 0", FR_PROXAL_H_ZERO, 0, 0, NULL, NULL);
    kcase(g, "r = (1 + 0.5*2, -2 + 1*2) = (2, 0); mu = 2 > 0: eps2 = |c| = 3", "kkt-mu-positive,exact", 0, 2, 1,
          (double[]){1, -2}, (double[]){0.5, 1}, (double[]){-3}, (double[]){2}, (double[]){7, -7});
    kcase(g, "mu = (0, 0, 0.5), c = (-1, 0.5, 0.125): eps2 = max(0, 0.5, 0.125); r = 0.25 + 1.5",
          "kkt-mu-zero,kkt-mu-positive,exact", 0, 1, 3, (double[]){0.25}, (double[]){1, 2, 3},
          (double[]){-1, 0.5, 0.125}, (double[]){0, 0, 0.5}, (double[]){0});
    kcase(g, "m = 0: eps1 = max |grad_f_k|, eps2 = 0", "kkt-no-constraint,boundary", 0, 3, 0,
          (double[]){0, -0.5, 0.25}, none, none, none, (double[]){1, 2, 3});
    kcase(g, "mu = -0 is the multiplier 0: eps2 = max(c, 0) = 2; grad_f = -0: eps1 = +0", "signed-zero,kkt-mu-zero",
          0, 1, 1, (double[]){-0.0}, (double[]){5}, (double[]){2}, (double[]){-0.0}, (double[]){0});
    kcase(g, "mu = 0, c = -1e300, mu > 0, c = -0: eps2 = 0", "kkt-mu-zero,signed-zero", 0, 1, 2, (double[]){0},
          (double[]){1, 1}, (double[]){-1e300, -0.0}, (double[]){0, 4}, (double[]){0});
    kcase(g, "r = 1 + 2^60 - 2^60 = 1 exactly (binary64 left to right: 0)", "cancellation", 0, 1, 2,
          (double[]){1}, (double[]){0x1p60, -0x1p60}, (double[]){0, 0}, (double[]){1, 1}, (double[]){0});
    {
        double x = 0.1, y = 3.3, gf = -(x * y);
        kcase(g, "grad_f = -fl(0.1 * 3.3), J mu = 0.1 * 3.3: r is the rounding error of fl(0.1 * 3.3)",
              "cancellation", 0, 1, 1, (double[]){gf}, (double[]){x}, (double[]){0}, (double[]){y}, (double[]){0});
    }
    kcase(g, "huge: r = 2^1000 + 2^1000 2^20, c = -2^1020", "overflow", 0, 1, 1, (double[]){0x1p1000},
          (double[]){0x1p1000}, (double[]){-0x1p1020}, (double[]){0x1p20}, (double[]){0});
    kcase(g, "tiny: r = 2^-1074 + 2^-600 2^-500 (not a binary64)", "underflow", 0, 1, 1, (double[]){0x1p-1074},
          (double[]){0x1p-600}, (double[]){0x1p-1074}, (double[]){0x1p-500}, (double[]){0});
    {
        double gf[6], J[24], c[4], mu[4], w[6];
        for (int k = 0; k < 6; k++) { gf[k] = vg_dyadic(g, 20); w[k] = vg_dyadic(g, 8); }
        for (int k = 0; k < 24; k++) J[k] = vg_dyadic(g, 20);
        for (int j = 0; j < 4; j++) { c[j] = vg_dyadic(g, 16); mu[j] = j == 1 ? 0 : fabs(vg_dyadic(g, 16)); }
        kcase(g, "random dyadic, d = 6, m = 4", "random", 0, 6, 4, gf, J, c, mu, w);
    }
    group(g, "h = 0.5 ||.||_1", FR_PROXAL_H_L1, 0.5, 0, NULL, NULL);
    kcase(g, "w = (0, 0, 1, -1, -0), r = (0.25, -2, -1, 1.5, -0.5): (0, 1.5, 0.5, 1, 0)",
          "kkt-l1-zero-in,kkt-l1-zero-out,kkt-l1-signed,signed-zero,kink", 0, 5, 0,
          (double[]){0.25, -2, -1, 1.5, -0.5}, none, none, none, (double[]){0, 0, 1, -1, -0.0});
    kcase(g, "w = 0, |r| = gamma exactly: 0 (the end of [-gamma, gamma])", "kkt-l1-zero-in,kink", 0, 2, 0,
          (double[]){0.5, -0.5}, none, none, none, (double[]){0, -0.0});
    kcase(g, "w = 0, |r| one ulp above gamma: 2^-53", "kkt-l1-zero-out,kink", 0, 1, 0,
          (double[]){0x1.0000000000001p-1}, none, none, none, (double[]){0});
    kcase(g, "exact KKT pair: z = (0.5, -0.5, 0.25), mu = (2, 0), c = (0, -1); grad_f = -J mu - z",
          "kkt-exact-pair,kkt-l1-signed,kkt-l1-zero-in,kkt-mu-zero,kkt-mu-positive", 0, 3, 2,
          (double[]){-2.5, 1.5, -0.25}, (double[]){1, 3, -0.5, 7, 0, -1}, (double[]){0, -1}, (double[]){2, 0},
          (double[]){3, -0.125, 0});
    {
        double gf[4], J[8], c[2], mu[2], w[4] = {0, 0.5, -0.25, 0};
        for (int k = 0; k < 4; k++) gf[k] = vg_dyadic(g, 20);
        for (int k = 0; k < 8; k++) J[k] = vg_dyadic(g, 20);
        for (int j = 0; j < 2; j++) { c[j] = vg_dyadic(g, 16); mu[j] = fabs(vg_dyadic(g, 16)); }
        kcase(g, "random dyadic, d = 4, m = 2", "random", 0, 4, 2, gf, J, c, mu, w);
    }
    group(g, "h = 0 ||.||_1 (gamma = 0: dh(0) = {0})", FR_PROXAL_H_L1, 0, 0, NULL, NULL);
    kcase(g, "gamma = 0: every branch gives |r|", "boundary,kkt-l1-zero-out,kkt-l1-signed", 0, 3, 0,
          (double[]){-0.75, 2, -3}, none, none, none, (double[]){0, 1, -1});
    group(g, "h = -0 ||.||_1 (gamma = -0 is 0)", FR_PROXAL_H_L1, -0.0, 0, NULL, NULL);
    kcase(g, "gamma = -0: |r|", "signed-zero", 0, 1, 0, (double[]){-0.75}, none, none, none, (double[]){0});
    {
        static const double lo[4] = {-1, 0, 0.5, 2}, hi[4] = {1, 0, 1.5, 3};
        group(g, "h = the indicator of [lo, hi], lo = (-1, 0, 0.5, 2), hi = (1, 0, 1.5, 3)", FR_PROXAL_H_BOX, 0, 4,
              lo, hi);
        kcase(g, "w = (lo, lo = hi, interior, hi), r = (0.5, 7, -0.25, -2): (0, 0, 0.25, 0)",
              "kkt-box-face,kkt-box-point,kkt-box-interior", 0, 4, 0, (double[]){0.5, 7, -0.25, -2}, none, none,
              none, (double[]){-1, 0, 1, 3});
        kcase(g, "w = (lo, lo = hi, interior, hi), r = (-0.5, 7, 0, 2): (0.5, 0, 0, 2)",
              "kkt-box-face,kkt-box-point,kkt-box-interior", 0, 4, 0, (double[]){-0.5, 7, 0, 2}, none, none, none,
              (double[]){-1, -0.0, 1, 3});
        kcase(g, "exact KKT pair on the faces: z = (-1, 5, 0, 0.5) in N(w), mu = (0.5), c = (0)",
              "kkt-exact-pair,kkt-box-face,kkt-box-point,kkt-mu-positive", 0, 4, 1, (double[]){0, -6, 0.5, -1},
              (double[]){2, 2, -1, 1}, (double[]){0}, (double[]){0.5}, (double[]){-1, 0, 0.75, 3});
        kcase(g, "w below lo", "domain", 1, 4, 0, (double[]){0, 0, 0, 0}, none, none, none,
              (double[]){-1.5, 0, 1, 2});
        kcase(g, "w one ulp above hi", "domain", 1, 4, 0, (double[]){0, 0, 0, 0}, none, none, none,
              (double[]){1, 0, 1, 0x1.0000000000001p+1 + 1});
        kcase(g, "w of length 3 (d = 4)", "size", 1, 3, 0, (double[]){0, 0, 0}, none, none, none,
              (double[]){0, 0, 1});
    }
    {
        static const double lo[1] = {1}, hi[1] = {0};
        group(g, "h = the indicator of [1, 0] (lo > hi)", FR_PROXAL_H_BOX, 0, 1, lo, hi);
        kcase(g, "lo > hi", "domain", 1, 1, 0, (double[]){0}, none, none, none, (double[]){0.5});
    }
    group(g, "h = -0.5 ||.||_1", FR_PROXAL_H_L1, -0.5, 0, NULL, NULL);
    kcase(g, "gamma < 0", "domain", 1, 1, 0, (double[]){0}, none, none, none, (double[]){0});
    group(g, "h = 0, bad inputs", FR_PROXAL_H_ZERO, 0, 0, NULL, NULL);
    kcase(g, "a negative multiplier", "domain", 1, 1, 1, (double[]){0}, (double[]){1}, (double[]){0},
          (double[]){-1}, (double[]){0});
    kcase(g, "the smallest negative multiplier -2^-1074", "domain", 1, 1, 2, (double[]){0}, (double[]){1, 1},
          (double[]){0, 0}, (double[]){1, -0x1p-1074}, (double[]){0});
    kcase(g, "NaN in grad_f", "nan", 1, 1, 0, (double[]){NAN}, none, none, none, (double[]){0});
    kcase(g, "an infinite Jacobian entry", "inf", 1, 1, 1, (double[]){0}, (double[]){INFINITY}, (double[]){0},
          (double[]){1}, (double[]){0});
    kcase(g, "NaN in c", "nan", 1, 1, 1, (double[]){0}, (double[]){1}, (double[]){NAN}, (double[]){1},
          (double[]){0});
    vg_case(g, "mu of length 2, c of length 1", "size", 1,
            (ftensor[]){{1, 1, (double[]){0}}, {1, 1, (double[]){1}}, {1, 1, (double[]){0}},
                        {1, 2, (double[]){1, 1}}, {1, 1, (double[]){0}}});
    vg_case(g, "jac_c with 2 rows, d = 1", "size", 1,
            (ftensor[]){{1, 1, (double[]){0}}, {2, 1, (double[]){1, 1}}, {1, 1, (double[]){0}},
                        {1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
}

const vfunc vfunc_kkt_residual = {"kkt_residual", "004 Definition 1, (5)", params, inputs, expects, ref, fast,
                                  tol, golden, sample, 5000, 0};
