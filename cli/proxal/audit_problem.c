/* SPDX-License-Identifier: Apache-2.0 */
/* audit_problem.c -- module proxal's section of `fedref audit`: the client
 * evaluations of the problems (25)-(28) of 004, fast (binary64, BLAS)
 * against ref (MPFR, correctly rounded at 53 bits), on instances from the
 * seeded generators (fr_proxal_gen_qp, fr_proxal_gen_lg):
 *   qp     n = 3, d = 20, mt = 5 (Sec. 5.1's generator)
 *   np     n = 4, d = 10, 40 samples per client
 *   fair   n = 3, d = 8, 30 samples per owner (the server's too)
 * at every owner i and 4 points w (the first 0, the others Gaussian with
 * std 1/2 from stream (seed, 0x70726f62)).  Shown per kind and output: the
 * largest normwise relative error max_k |fast_k - ref_k| / max_k |ref_k|
 * (f: the error in ulps of ref).  A case fails on a status difference or a
 * relative error above 1e-11 (fast has no proved bound for NP/FAIR:
 * fedfast/proxal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "audit_registry.h"
#include "fedref.h"
#include "fedfast.h"

#define NOUT 6

static double ulp_err(double f, mpfr_srcptr r)
{
    double rd = mpfr_get_d(r, MPFR_RNDN);
    if (rd == f)
        return 0;
    double u = rd == 0 ? 0x1p-1074 : ldexp(1.0, ilogb(rd) - 52);
    return fabs(f - rd) / u;
}

static double nrel(const double *f, mpfr_t *r, size_t k)
{
    double mx = 0, er = 0;
    for (size_t t = 0; t < k; t++) {
        double rd = mpfr_get_d(r[t], MPFR_RNDN);
        if (fabs(rd) > mx)
            mx = fabs(rd);
        if (fabs(f[t] - rd) > er)
            er = fabs(f[t] - rd);
    }
    return er == 0 ? 0 : er / (mx > 0 ? mx : 0x1p-1074);
}

int audit_proxal_problem(uint64_t seed)
{
    static const char *const NAME[3] = {"qp", "np", "fair"};
    static const char *const ONAME[NOUT] = {"f (ulp)", "grad f", "Hess f", "c", "grad c", "y.Hess c"};
    int failures = 0;
    printf("\nProblems (25)-(28) of 004 (proxal_problem): fast (binary64, BLAS) vs ref (correctly rounded at 53 bits)\n");
    printf("  %-5s %6s %6s", "kind", "cases", "fails");
    for (int o = 0; o < NOUT; o++)
        printf(" %10s", ONAME[o]);
    printf("\n");
    for (int kind = 0; kind < 3; kind++) {
        size_t n = kind == 0 ? 3 : kind == 1 ? 4 : 3, d = kind == 0 ? 20 : kind == 1 ? 10 : 8,
               s = kind == 0 ? 5 : kind == 1 ? 40 : 30;
        fr_proxal_problem P;
        memset(&P, 0, sizeof P);
        double *A = NULL, *b = NULL, *C = NULL, *e = NULL, *X = NULL, r[8];
        size_t cnt[8];
        unsigned char *yl = NULL, *grp = NULL;
        int st;
        P.n = n;
        P.d = d;
        if (kind == 0) {
            A = malloc(n * d * d * sizeof *A), b = malloc(n * d * sizeof *b);
            C = malloc((n + 1) * s * d * sizeof *C), e = malloc((n + 1) * s * sizeof *e);
            st = A && b && C && e ? fr_proxal_gen_qp(A, b, C, e, n, d, s, seed) : FR_ENOMEM;
            P.kind = FR_PROXAL_QP, P.mt = s, P.A = A, P.b = b, P.C = C, P.e = e;
        } else {
            X = malloc((n + 1) * s * d * sizeof *X), yl = malloc((n + 1) * s), grp = malloc((n + 1) * s);
            P.kind = kind == 1 ? FR_PROXAL_NP : FR_PROXAL_FAIR;
            st = X && yl && grp ? fr_proxal_gen_lg(P.kind, cnt, X, yl, grp, n, d, s, seed) : FR_ENOMEM;
            for (size_t i = 0; i <= n; i++)
                r[i] = 0.25 + 0.125 * (double)i;
            P.cnt = cnt, P.X = X, P.y = yl, P.r = r, P.grp = kind == 2 ? grp : NULL;
        }
        unsigned long cases = 0, fails = 0;
        double mx[NOUT] = {0};
        if (st != FR_OK || fr_proxal_problem_check(&P) != FR_OK) {
            printf("  %-5s generator or check failed (%d)\n", NAME[kind], st);
            failures++;
        } else {
            size_t m = 0;
            for (size_t i = 0; i <= n; i++)
                if (fr_proxal_mi(&P, i) > m)
                    m = fr_proxal_mi(&P, i);
            double *w = malloc(d * sizeof *w), *yv = malloc(m * sizeof *yv), *g = malloc(d * sizeof *g),
                   *H = malloc(d * d * sizeof *H), *c = malloc(m * sizeof *c), *J = malloc(d * m * sizeof *J),
                   *Q = malloc(d * d * sizeof *Q), f;
            mpfr_t *mw = malloc(d * sizeof *mw), *my = malloc(m * sizeof *my), *rg = malloc(d * sizeof *rg),
                   *rH = malloc(d * d * sizeof *rH), *rc = malloc(m * sizeof *rc), *rJ = malloc(d * m * sizeof *rJ),
                   *rQ = malloc(d * d * sizeof *rQ), rf;
            for (size_t k = 0; k < d; k++) mpfr_init2(mw[k], 53), mpfr_init2(rg[k], 53);
            for (size_t k = 0; k < d * d; k++) mpfr_init2(rH[k], 53), mpfr_init2(rQ[k], 53);
            for (size_t k = 0; k < m; k++) mpfr_init2(my[k], 53), mpfr_init2(rc[k], 53);
            for (size_t k = 0; k < d * m; k++) mpfr_init2(rJ[k], 53);
            mpfr_init2(rf, 53);
            frng_t G;
            frng_init(&G, seed, 0x70726f62);
            mpfr_t z0, z1;
            mpfr_inits2(53, z0, z1, (mpfr_ptr)0);
            for (size_t i = 0; i <= n; i++) {
                size_t mi = fr_proxal_mi(&P, i);
                for (int pt = 0; pt < 4; pt++) {
                    for (size_t k = 0; k < d; k += 2) {
                        fr_rng_gaussian2(z0, z1, &G);
                        w[k] = pt == 0 ? 0 : 0.5 * mpfr_get_d(z0, MPFR_RNDN);
                        if (k + 1 < d)
                            w[k + 1] = pt == 0 ? 0 : 0.5 * mpfr_get_d(z1, MPFR_RNDN);
                    }
                    for (size_t j = 0; j < mi; j++)
                        yv[j] = 1.0 + (double)j - 0.25 * (double)pt;
                    for (size_t k = 0; k < d; k++)
                        mpfr_set_d(mw[k], w[k], MPFR_RNDN);
                    for (size_t j = 0; j < mi; j++)
                        mpfr_set_d(my[j], yv[j], MPFR_RNDN);
                    int sf = ff_proxal_client_eval(&P, i, w, &f, g, H, c, J, yv, Q);
                    int sr = fr_proxal_client_eval(&P, i, mw, rf, rg, rH, rc, rJ, my, rQ);
                    cases++;
                    if (sf != FR_OK || sr != FR_OK) {
                        fprintf(stderr, "proxal_problem: %s i = %zu point %d: fast %d ref %d\n", NAME[kind], i, pt, sf, sr);
                        fails++;
                        continue;
                    }
                    double ev[NOUT] = {ulp_err(f, rf), nrel(g, rg, d), nrel(H, rH, d * d), nrel(c, rc, mi),
                                       nrel(J, rJ, d * mi), nrel(Q, rQ, d * d)};
                    int bad = 0;
                    for (int o = 0; o < NOUT; o++) {
                        if (ev[o] > mx[o])
                            mx[o] = ev[o];
                        if (o > 0 && ev[o] > 1e-11)
                            bad = 1;
                    }
                    if (ev[0] > 1e5)
                        bad = 1;
                    fails += bad;
                }
            }
            mpfr_clears(z0, z1, rf, (mpfr_ptr)0);
            for (size_t k = 0; k < d; k++) mpfr_clear(mw[k]), mpfr_clear(rg[k]);
            for (size_t k = 0; k < d * d; k++) mpfr_clear(rH[k]), mpfr_clear(rQ[k]);
            for (size_t k = 0; k < m; k++) mpfr_clear(my[k]), mpfr_clear(rc[k]);
            for (size_t k = 0; k < d * m; k++) mpfr_clear(rJ[k]);
            free(mw), free(my), free(rg), free(rH), free(rc), free(rJ), free(rQ);
            free(w), free(yv), free(g), free(H), free(c), free(J), free(Q);
            failures += fails != 0;
            printf("  %-5s %6lu %6lu", NAME[kind], cases, fails);
            for (int o = 0; o < NOUT; o++)
                printf(" %10.3g", mx[o]);
            printf("\n");
        }
        free(A), free(b), free(C), free(e), free(X), free(yl), free(grp);
    }
    printf("  normwise relative errors max_k |fast - ref| / max_k |ref| per output (f: ulps of ref);\n"
           "  QP's Hessian and Jacobian are copies of the data (0); a case fails above 1e-11 or on a status\n");
    return failures;
}
