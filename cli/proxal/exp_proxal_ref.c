/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal_ref.c -- the experiment proxal's spot checks (exp_proxal.h):
 * ref (MPFR at 128 bits: fr_proxal_alg1/alg3, every tolerance test
 * certified) against fast on the first kmax outer iterations of the same
 * problem with the same parameters.  Passes when both take the same
 * number of outer iterations with the same inner (Algorithm 2 / Newton)
 * counts, every w^k drifts less than 1e-7 (relative, cli_drift: the
 * checkpoint vectors' tolerance) and every record's KKT residuals agree
 * within 1e-6 relative (fast's are certified upper bounds, ref's rounded
 * up: they differ by the trajectories' drift, not by design). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_proxal.h"

#define SPOT_PREC 128
#define SPOT_DRIFT 1e-7
#define SPOT_KKT 1e-6

static double rel(double f, mpfr_srcptr r)
{
    double x = mpfr_get_d(r, MPFR_RNDN);
    return fabs(f - x) / fmax(fabs(x), 1e-300);
}

static int one(exp_ctx *ctx, const char *what, const fr_proxal_problem *P, const fr_proxal_alg_params *prm,
               int alg3)
{
    fr_proxal_trace rt;
    ff_proxal_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    const char *alg = alg3 ? "cProx-AL (Algorithm 3)" : "Algorithm 1";
    int s1 = fr_proxal_trace_init(&rt, P, prm, SPOT_PREC), s2 = ff_proxal_trace_init(&ft, P, prm);
    double t0 = exp_now();
    if (s1 == FR_OK) s1 = alg3 ? fr_proxal_alg3(&rt, P, prm) : fr_proxal_alg1(&rt, P, prm);
    double t1 = exp_now();
    if (s2 == FR_OK) s2 = alg3 ? ff_proxal_alg3(&ft, P, prm) : ff_proxal_alg1(&ft, P, prm);
    double t2 = exp_now();
    int rc = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        rc = exp_fail(ctx, "spot check %s, %s: ref %s, fast %s", what, alg, fr_strerror(s1), fr_strerror(s2));
    } else {
        size_t K = rt.iters < ft.iters ? rt.iters : ft.iters, dinner = 0;
        double drift = 0, dk = 0;
        for (size_t k = 0; k <= K; k++) {
            double dr = cli_drift(ft.w + k * ft.d, rt.w + k * rt.d, rt.d);
            drift = fmax(drift, dr);
        }
        for (size_t k = 0; k < K; k++) {
            dinner += rt.inner[k] != ft.inner[k];
            dk = fmax(dk, fmax(rel(ft.kkt1[k], rt.kkt1[k]), rel(ft.kkt2[k], rt.kkt2[k])));
        }
        int bad = rt.iters != ft.iters || dinner || !(drift < SPOT_DRIFT) || !(dk < SPOT_KKT);
        exp_md(ctx, "| %s | %s | %zu / %zu | %zu | %.2e | %.2e | %.3e / %.3e | %.1f / %.3f | %s |\n", what, alg,
               rt.iters, ft.iters, dinner, drift, dk, K ? mpfr_get_d(rt.kkt1[K - 1], MPFR_RNDU) : NAN,
               K ? mpfr_get_d(rt.kkt2[K - 1], MPFR_RNDU) : NAN, t1 - t0, t2 - t1, bad ? "**FAILED**" : "agree");
        if (bad)
            rc = exp_fail(ctx, "spot check %s, %s: ref/fast outer iterations %zu/%zu, %zu inner counts differ, "
                               "drift %.3e (tol %.0e), KKT rel. diff %.3e (tol %.0e)",
                          what, alg, rt.iters, ft.iters, dinner, drift, SPOT_DRIFT, dk, SPOT_KKT);
    }
    fr_proxal_trace_clear(&rt);
    ff_proxal_trace_clear(&ft);
    return rc;
}

int px_ref_spot(exp_ctx *ctx, const char *what, const fr_proxal_problem *P, const fr_proxal_alg_params *prm,
                size_t kmax)
{
    fr_proxal_alg_params p = *prm;
    p.kmax = kmax;
    p.keep = FR_PROXAL_KEEP_W;
    int a = one(ctx, what, P, &p, 0);
    int b = one(ctx, what, P, &p, 1);
    return a > b ? a : b;
}
