/* SPDX-License-Identifier: Apache-2.0 */
/* lemma1.c -- vector schema of ssca_lemma1, Lemma 1 of 000 (43)-(45), the
 * solution of (41):
 *   min_{w, s} ||w||^2 + c s  s.t.  A^T w + tau ||w||^2 + C - U <= s,  s >= 0,
 * params tau, c, U; inputs A (all A_{l,j} and B_{j,p} flattened, d >= 1),
 * C (scalar); expect nu (the multiplier of (45), unique unless A = 0 and
 * U = C, where fedref returns c) and omega (d).  tol: rel 0, abs the
 * largest of ff_ssca_lemma1_bound's bounds (on nu and on every omega_j). */
#include <math.h>
#include <stdlib.h>
#include "../vectors.h"

static const vspec params[] = {{"tau", VK_SCALAR}, {"c", VK_SCALAR}, {"U", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"A", VK_VECTOR}, {"C", VK_SCALAR}, {NULL, 0}};
static const vspec expects[] = {{"nu", VK_SCALAR}, {"omega", VK_VECTOR}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t d = in[0].cols;
    if (in[1].rows * in[1].cols != 1) return FR_ESIZE;
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, d, prec) != 0) return FR_ENOMEM;
    return fr_ssca_lemma1(out[0].v[0], out[1].v, NULL, in[0].v, d, in[1].v[0], par[0].v[0],
                          par[1].v[0], par[2].v[0]);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t d = in[0].cols;
    if (in[1].rows * in[1].cols != 1) return FR_ESIZE;
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, d) != 0) return FR_ENOMEM;
    return ff_ssca_lemma1(out[0].v, out[1].v, NULL, in[0].v, d, in[1].v[0], par[0].v[0],
                          par[1].v[0], par[2].v[0]);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t d = in[0].cols;
    double nb, *wb = malloc((d ? d : 1) * sizeof *wb);
    *rel = *abs = 0;                     /* not a valid case: no tolerance */
    if (wb && in[1].rows * in[1].cols == 1
        && ff_ssca_lemma1_bound(&nb, wb, in[0].v, d, in[1].v[0], par[0].v[0], par[1].v[0],
                                par[2].v[0]) == FR_OK) {
        *abs = nb;
        for (size_t j = 0; j < d; j++)
            *abs = fmax(*abs, wb[j]);
    }
    free(wb);
}

/* A valid random case for the audit sweep: d in [1, 6], dyadic-like A, C,
 * U of moderate range, tau in (0, 1], c in [2^-4, 2^17]; some a_j = 0,
 * some U = C. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t d, e, s, k;
    frng_below(g, 6, &d);
    d++;
    for (int i = 0; i < 3; i++)
        ft_alloc(&par[i], 1, 1);
    frng_below(g, 20, &e);
    par[0].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, -(int)e);            /* tau */
    frng_below(g, 22, &e);
    par[1].v[0] = ldexp(1 + (double)frng_u53(g) * 0x1p-53, (int)e - 4);         /* c */
    ft_alloc(&in[0], 1, (size_t)d);
    ft_alloc(&in[1], 1, 1);
    for (size_t j = 0; j < d; j++) {
        frng_below(g, 8, &k);
        frng_below(g, 2, &s);
        frng_below(g, 12, &e);
        in[0].v[j] = k == 0 ? 0 : (s ? -1 : 1) * ldexp((double)frng_u53(g) * 0x1p-53, (int)e - 6);
    }
    for (int i = 0; i < 2; i++) {
        frng_below(g, 2, &s);
        frng_below(g, 12, &e);
        double v = (s ? -1 : 1) * ldexp((double)frng_u53(g) * 0x1p-53, (int)e - 6);
        if (i == 0) in[1].v[0] = v; else par[2].v[0] = v;
    }
    frng_below(g, 8, &k);
    if (k == 0)
        par[2].v[0] = in[1].v[0];                                               /* U = C */
}

static void golden(vgen *g)
{
    const double A4[4] = {0.25, -0.5, 0.125, 1};             /* b = 1.328125 */
    vg_group(g, "the constrained runs of 000 Sec. VI: tau = 0.2, c = 1e5, U = 0.13",
             (double[]){0.2, 1e5, 0.13});
    vg_case(g, "C = 0.5: 0 < nu < c, nu = 4 (C - U) / (D + sqrt(b D))", "lemma1-interior,paper-constants", 0,
            (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){0.5}}});
    vg_case(g, "C = 0.1 < U: nu = 0, omega = +0", "lemma1-zero,paper-constants,zero-result", 0,
            (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){0.1}}});
    vg_case(g, "C = U = 0.13, b > 0: D = b > 0, nu = 0", "lemma1-zero,lemma1-edge,paper-constants,zero-result", 0,
            (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){0.13}}});
    vg_case(g, "C = 10: D < 0, nu = c = 1e5, omega = -A c / (2 (1 + tau c))", "lemma1-dnonpos,paper-constants", 0,
            (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){10}}});
    vg_case(g, "a zero component: omega_j = +0 in the interior", "lemma1-interior,paper-constants,zero-result", 0,
            (ftensor[]){{1, 3, (double[]){0.75, 0, -0.375}}, {1, 1, (double[]){0.625}}});
    vg_case(g, "A = 0, C = 0.1 < U: D > 0, nu = 0", "lemma1-zero,zero-result,paper-constants", 0,
            (ftensor[]){{1, 2, (double[]){0, 0}}, {1, 1, (double[]){0.1}}});
    vg_case(g, "A = 0, C = U: every nu optimal, fedref returns c", "lemma1-flat,lemma1-edge,zero-result,paper-constants", 0,
            (ftensor[]){{1, 2, (double[]){0, 0}}, {1, 1, (double[]){0.13}}});
    vg_case(g, "A = 0, C = 1 > U: D < 0, nu = c, omega = 0", "lemma1-dnonpos,zero-result,paper-constants", 0,
            (ftensor[]){{1, 2, (double[]){0, 0}}, {1, 1, (double[]){1}}});
    vg_case(g, "d = 1: A = 1, C = 1.38: D = 1 - 4 tau (C - U) within 2^-50 of 0, nu = c (D <= 0 or the clip)",
            "lemma1-edge,paper-constants,cancellation", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1.38}}});
    vg_case(g, "Appendix C's printed case b + 4 tau C <= 0 fires (C = -3), but U > C: nu = 0",
            "lemma1-zero,printed-formula-fails,paper-constants,zero-result", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){-3}}});
    const double taus[3] = {0.05, 0.03, 0.1};
    for (int i = 0; i < 3; i++) {
        vg_group(g, i == 0 ? "tau = 0.05, c = 1e5, U = 0.13 (000 Sec. VI, B = 100)"
                 : i == 1 ? "tau = 0.03, c = 1e5, U = 0.13 (000 Sec. VI, B = 6000)"
                          : "tau = 0.1, c = 1e5, U = 0.13 (000 Sec. VI feature-based, 001)",
                 (double[]){taus[i], 1e5, 0.13});
        vg_case(g, "C = 0.5: interior", "lemma1-interior,paper-constants", 0,
                (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){0.5}}});
        vg_case(g, "C = 20: D < 0, nu = c", "lemma1-dnonpos,paper-constants", 0,
                (ftensor[]){{1, 4, (double *)A4}, {1, 1, (double[]){20}}});
    }
    /* exact boundaries: tau = 1/4, c = 4, U = 0, A = (1): b = 1, D = 1 - C,
     * nu^ = 4 C / (D + sqrt(D)) and D (1 + tau c)^2 = 4 D */
    vg_group(g, "tau = 1/4, c = 4, U = 0, A = (1): D = 1 - C, nu^ >= c iff 4 D <= 1",
             (double[]){0.25, 4, 0});
    vg_case(g, "C = 1: D = 0 exactly, nu = c", "lemma1-dnonpos,lemma1-edge,boundary,exact", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_case(g, "C = 1 + 2^-52: D = -2^-52 < 0, nu = c", "lemma1-dnonpos,lemma1-edge,exact", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){nextafter(1, 2)}}});
    vg_case(g, "C = 1 - 2^-53: D = 2^-53 > 0, nu^ huge, clipped to c", "lemma1-clip,lemma1-edge,exact", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){nextafter(1, 0)}}});
    vg_case(g, "C = 0.75: D = 1/4, nu^ = c exactly", "lemma1-clip,lemma1-edge,boundary,exact", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0.75}}});
    vg_case(g, "C = 0.75 - 2^-54: nu^ one rounding step below c (interior)", "lemma1-interior,lemma1-edge", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){nextafter(0.75, 0)}}});
    vg_case(g, "C = 0.75 + 2^-53: nu^ > c, clipped", "lemma1-clip,lemma1-edge", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){nextafter(0.75, 1)}}});
    vg_case(g, "C = 2^-60 > U = 0: nu tiny, omega tiny", "lemma1-interior,lemma1-edge", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0x1p-60}}});
    vg_case(g, "C = 0 = U: nu = 0", "lemma1-zero,lemma1-edge,zero-result,exact", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0}}});
    vg_case(g, "C = 5/9 (rounded): b D = 4/9, a square at the exact 5/9, not at the binary64 C",
            "lemma1-interior", 0, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){5.0 / 9}}});
    vg_case(g, "C = 0.5: D = 1/2, nu^ = 2/(1/2 + sqrt(1/2)) irrational", "lemma1-interior", 0,
            (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0.5}}});
    vg_case(g, "C = 0.4375, A = (1): b D = 9/16 is a square: nu = 1.75 / (9/16 + 3/4) = 4/3, rational",
            "lemma1-interior", 0, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){0.4375}}});
    vg_group(g, "magnitudes: tau = 1/8, c = 2^20, U = 0", (double[]){0.125, 0x1p20, 0});
    vg_case(g, "A ~ 2^140, C ~ 2^280: interior, b ~ 2^281 (no overflow in binary64)", "lemma1-interior,overflow", 0,
            (ftensor[]){{1, 2, (double[]){0x1p140, -0x1.8p139}}, {1, 1, (double[]){0x1p279}}});
    vg_case(g, "A ~ 2^-300, C ~ 2^-600: interior, tiny", "lemma1-interior", 0,
            (ftensor[]){{1, 2, (double[]){0x1p-300, 0x1.4p-301}}, {1, 1, (double[]){0x1p-601}}});
    vg_case(g, "A ~ 2^-540: squares subnormal in binary64, C ~ 2^-1075 + ...: D < 0", "lemma1-dnonpos,underflow", 0,
            (ftensor[]){{1, 2, (double[]){0x1p-540, -0x1.8p-541}}, {1, 1, (double[]){0x1p-1070}}});
    vg_case(g, "A ~ 2^-540 with C = 2^-1074 (the smallest subnormal): interior or clip, subnormal products",
            "underflow,lemma1-edge", 0,
            (ftensor[]){{1, 2, (double[]){0x1p-540, -0x1.8p-541}}, {1, 1, (double[]){0x1p-1074}}});
    double A8[8];
    for (int j = 0; j < 8; j++)
        A8[j] = vg_dyadic(g, 12);
    vg_group(g, "random dyadic A, tau = 3/16, c = 50, U = -0.25", (double[]){0.1875, 50, -0.25});
    vg_case(g, "d = 8, C = 0: interior", "random", 0, (ftensor[]){{1, 8, A8}, {1, 1, (double[]){0}}});
    vg_case(g, "d = 8, C = -0.5 < U: nu = 0", "random,lemma1-zero,zero-result", 0,
            (ftensor[]){{1, 8, A8}, {1, 1, (double[]){-0.5}}});
    vg_case(g, "d = 8, C = 1e9: D < 0, nu = c", "random,lemma1-dnonpos", 0,
            (ftensor[]){{1, 8, A8}, {1, 1, (double[]){1e9}}});
    vg_group(g, "tau = 0 (outside tau > 0)", (double[]){0, 1e5, 0.13});
    vg_case(g, "tau = 0", "domain,boundary", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "tau < 0", (double[]){-0.2, 1e5, 0.13});
    vg_case(g, "negative tau", "domain", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "c = 0 (outside c > 0)", (double[]){0.2, 0, 0.13});
    vg_case(g, "c = 0", "domain,boundary", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "c < 0", (double[]){0.2, -1, 0.13});
    vg_case(g, "negative c", "domain", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "tau = NaN", (double[]){NAN, 1e5, 0.13});
    vg_case(g, "NaN tau", "nan", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "U = +Inf", (double[]){0.2, 1e5, INFINITY});
    vg_case(g, "infinite U", "inf", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){1}}});
    vg_group(g, "tau = 0.2, c = 1e5, U = 0.13, bad inputs", (double[]){0.2, 1e5, 0.13});
    vg_case(g, "NaN in A", "nan", 1, (ftensor[]){{1, 2, (double[]){1, NAN}}, {1, 1, (double[]){1}}});
    vg_case(g, "C = -Inf", "inf", 1, (ftensor[]){{1, 1, (double[]){1}}, {1, 1, (double[]){-INFINITY}}});
    vg_case(g, "empty A", "size", 1, (ftensor[]){{1, 0, (double[]){0}}, {1, 1, (double[]){1}}});
}

const vfunc vfunc_ssca_lemma1 = {"ssca_lemma1", "000 (41), (43)-(45), Appendix C", params, inputs, expects,
                                 ref, fast, tol, golden, sample, 0, 0};
