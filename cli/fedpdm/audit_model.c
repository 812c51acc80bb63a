/* SPDX-License-Identifier: Apache-2.0 */
/* audit_model.c -- module fedpdm's section of `fedref audit` for the model
 * of 003 Sec. V-A: the loss (25) with its gradient and the test rule (26),
 * ref (MPFR, 256 bits; predictions exact) against fast (binary64, dgemm) on
 * the default synthetic problem (fr_pdm_synth_sizes/_data, data seed =
 * the audit seed): N = 5 clients of 40..60 samples, m = 10 classes, n = 50
 * features (the MNIST shape (10, 785) reduced; feature 0 a bias 1, the
 * others class-dependent 8-bit values in [0, 1), like scaled pixels); the
 * mini-batch is client 0's first b = 30 samples (the paper's b), beta =
 * 1e-2, gamma = 1e-4 (the paper's); 200 test samples (data seed + 1); the
 * points X drawn from the audit seed, frng stream 7300.  Objective rows:
 * F (24) at three X.  Loss rows: X = 0 (f = ln 2), X with
 * entries in [-2^-3, 2^-3) and in [-2^4, 2^4) (margins ~ 100), beta = 0;
 * each: fast's error on f and the largest on the g_kl against ref, the
 * bounds ff_pdm_loss_bound, the ratios.  Predict rows: ref's and fast's
 * correct counts, the samples where they differ, and fast's uncertain
 * count (a certified decision must agree with ref: a row fails if one
 * differs).  A row fails when a status differs or an error exceeds its
 * bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 256
enum { M = 10, N = 50, B = 30, T = 200, NC = 5, DMIN = 40, DMAX = 60 };

static double draw(frng_t *g, int e)      /* [-2^e, 2^e), 53-bit significand */
{
    return ldexp((double)frng_u53(g) * 0x1p-52 - 1, e);
}

static mpfr_t *mp(const double *x, size_t k)
{
    mpfr_t *a = malloc(k * sizeof *a);
    for (size_t i = 0; a && i < k; i++) {
        mpfr_init2(a[i], 53);
        mpfr_set_d(a[i], x[i], MPFR_RNDN);
    }
    return a;
}
static void mp_free(mpfr_t *a, size_t k)
{
    for (size_t i = 0; a && i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

static double err_of(double x, mpfr_srcptr r)
{
    mpfr_t t;
    mpfr_init2(t, REF_PREC + 64);
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_sub(t, t, r, MPFR_RNDA);
    double e = fabs(mpfr_get_d(t, MPFR_RNDU));
    mpfr_clear(t);
    return e;
}

static int loss_row(const char *what, const double *X, const double *A, const size_t *y, double beta)
{
    double f, ef, g[M * N], eg[M * N];
    mpfr_t fr, be, *gr = malloc(M * N * sizeof *gr), *Xm = mp(X, M * N), *Am = mp(A, B * N);
    mpfr_init2(fr, REF_PREC);
    mpfr_init2(be, 53);
    mpfr_set_d(be, beta, MPFR_RNDN);
    for (size_t k = 0; k < M * N; k++)
        mpfr_init2(gr[k], REF_PREC);
    int sr = fr_pdm_loss(fr, gr, Xm, M, N, Am, y, B, be);
    int sf = ff_pdm_loss(&f, g, X, M, N, A, y, B, beta);
    int sb = ff_pdm_loss_bound(&ef, eg, X, M, N, A, y, B, beta);
    int bad = sr != FR_OK || sf != FR_OK || sb != FR_OK;
    double e = 0, eG = 0, bG = 0, rG = 0;
    if (!bad) {
        e = err_of(f, fr);
        for (size_t k = 0; k < M * N; k++) {
            double ek = err_of(g[k], gr[k]);
            eG = fmax(eG, ek);
            bG = fmax(bG, eg[k]);
            if (eg[k] > 0)
                rG = fmax(rG, ek / eg[k]);
            bad |= ek > eg[k];
        }
        bad |= e > ef;
    }
    printf("  %-30s %12.6g %9.2e %9.2e %8.3f %9.2e %9.2e %8.3f  %s\n", what, mpfr_get_d(fr, MPFR_RNDN), e, ef,
           ef > 0 ? e / ef : 0, eG, bG, rG, bad ? "FAIL" : "ok");
    mpfr_clears(fr, be, (mpfr_ptr)0);
    mp_free(gr, M * N);
    mp_free(Xm, M * N);
    mp_free(Am, B * N);
    return bad;
}

static int pred_row(const char *what, const double *X, const double *A, const size_t *y)
{
    size_t pr[T], pf[T], cr = 0, cf = 0, un = 0, diff = 0;
    mpfr_t *Xm = mp(X, M * N), *Am = mp(A, T * N);
    int sr = fr_pdm_predict(pr, &cr, Xm, M, N, Am, y, T);
    int sf = ff_pdm_predict(pf, &cf, &un, X, M, N, A, y, T);
    int bad = sr != FR_OK || sf != FR_OK;
    for (size_t t = 0; !bad && t < T; t++)
        diff += pr[t] != pf[t];
    bad |= diff > un;
    printf("  %-30s ref %3zu/%d correct, fast %3zu/%d, differing %zu, fast uncertain %zu  %s\n", what, cr, T, cf,
           T, diff, un, bad ? "FAIL" : "ok");
    mp_free(Xm, M * N);
    mp_free(Am, T * N);
    return bad;
}

static int obj_row(const char *what, const double *X, const fr_pdm_problem *P)
{
    mpfr_t F, *Xm = mp(X, M * N);
    mpfr_init2(F, REF_PREC);
    double Ff, eF;
    int sr = fr_pdm_objective(F, Xm, P), sf = ff_pdm_objective(&Ff, X, P), sb = ff_pdm_objective_bound(&eF, X, P);
    int bad = sr != FR_OK || sf != FR_OK || sb != FR_OK;
    double e = bad ? 0 : err_of(Ff, F);
    bad |= e > eF;
    printf("  %-30s %12.6g %9.2e %9.2e %8.3f  %s\n", what, mpfr_get_d(F, MPFR_RNDN), e, eF, eF > 0 ? e / eF : 0,
           bad ? "FAIL" : "ok");
    mpfr_clear(F);
    mp_free(Xm, M * N);
    return bad;
}

int audit_fedpdm_model(uint64_t seed)
{
    frng_t g;
    frng_init(&g, seed, 7300);
    static double X0[M * N], X1[M * N], X2[M * N], A[NC * DMAX * N], At[T * N];
    static size_t y[NC * DMAX], yt[T], d[NC];
    size_t dt[1] = {T};
    /* the training data: fr_pdm_synth with data seed = the audit seed; the
     * batch: client 0's first B samples; the test set: data seed + 1 */
    if (fr_pdm_synth_sizes(seed, NC, DMIN, DMAX, d) != FR_OK || fr_pdm_synth_data(seed, NC, M, N, d, A, y) != FR_OK
        || fr_pdm_synth_data(seed + 1, 1, M, N, dt, At, yt) != FR_OK) {
        cli_error("synthetic problem failed", "audit fedpdm model");
        return 1;
    }
    for (size_t k = 0; k < M * N; k++) {
        X0[k] = 0;
        X1[k] = draw(&g, -3);
        X2[k] = draw(&g, 4);
    }
    fr_pdm_problem P = {.N = NC, .m = M, .n = N, .d = d, .A = A, .y = y, .beta = 1e-2, .gamma = 1e-4};
    int failures = 0;
    printf("\nfedpdm model (003 (25), (26); notation E-003-25): ref at %d bits vs fast, m = %d, n = %d, b = %d,\n"
           "  features: bias 1 and 8-bit values in [0, 1); error = |fast - ref|, bound = ff_pdm_loss_bound\n",
           REF_PREC, M, N, B);
    printf("  %-30s %12s %9s %9s %8s %9s %9s %8s\n", "case", "f (ref)", "err f", "bound f", "ratio", "max err g",
           "max bnd g", "max rat");
    failures += loss_row("X = 0, beta = 1e-2", X0, A, y, 1e-2);
    failures += loss_row("|X| < 2^-3, beta = 1e-2", X1, A, y, 1e-2);
    failures += loss_row("|X| < 2^4, beta = 1e-2", X2, A, y, 1e-2);
    failures += loss_row("|X| < 2^-3, beta = 0", X1, A, y, 0);
    printf("  objective (24), N = %d clients of %zu..%zu samples, gamma = 1e-4 (bound ff_pdm_objective_bound)\n", NC,
           (size_t)DMIN, (size_t)DMAX);
    failures += obj_row("X = 0", X0, &P);
    failures += obj_row("|X| < 2^-3", X1, &P);
    failures += obj_row("|X| < 2^4", X2, &P);
    printf("  test rule (26) on %d test samples (ties: the smallest k)\n", T);
    failures += pred_row("X = 0 (every sample a tie)", X0, At, yt);
    failures += pred_row("|X| < 2^-3", X1, At, yt);
    failures += pred_row("|X| < 2^4", X2, At, yt);
    return failures;
}
