/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedpdm_acct.c -- experiment `fedpdm`: the per-round calibrations
 * (Theorem 2's (20) inverted with c0 = 1; the noise multiplier whose
 * accountant total is a given eps_bar) and the ref spot-check of every
 * calibration and accountant value the report prints (fast against ref
 * at 128 bits). */
#include <math.h>
#include <stdlib.h>
#include "../cli.h"
#include "exp_fedpdm.h"
#include "fedref.h"

#define ALPHA_MAX 64

int xpdm_thm2_eps(double *eps, double eps_bar, double c0, unsigned long K, unsigned long N, unsigned long T,
                  double q)
{
    if (!(q > 0 && q < 1)) return -1;
    double p = (double)K / (double)N;
    *eps = eps_bar / (c0 * q * q * sqrt(p * (double)T / (1 - q)));
    return 0;
}

static int total(double *e, double sigma1, unsigned long K, unsigned long N, unsigned long T, double delta,
                 double *sig, double *s)
{
    unsigned long alpha;
    for (unsigned long t = 0; t < T; t++) {
        sig[t] = sigma1;
        s[t] = 1;
    }
    return ff_fedpdm_rdp_rounds(e, &alpha, sig, s, T, 1, K, N, delta, ALPHA_MAX) == FR_OK ? 0 : -1;
}

int xpdm_sigma1_for_total(double *sigma1, double eps_bar, unsigned long K, unsigned long N, unsigned long T,
                          double delta)
{
    double *sig = malloc(T * sizeof *sig), *s = malloc(T * sizeof *s), e, lo = 0.5, hi = 1;
    int rc = -1;
    if (!sig || !s) goto out;
    /* the total decreases in sigma1: bracket (lo fails, hi holds), then bisect */
    for (;;) {
        if (total(&e, hi, K, N, T, delta, sig, s) != 0) goto out;
        if (e <= eps_bar) break;
        lo = hi;
        hi *= 2;
        if (hi > 1e6) goto out;
    }
    for (;;) {
        if (total(&e, lo, K, N, T, delta, sig, s) != 0) goto out;
        if (e > eps_bar) break;
        hi = lo;
        lo /= 2;
        if (lo < 1e-6) goto out;
    }
    while (hi - lo > 0x1p-30 * hi) {
        double mid = 0.5 * (lo + hi);
        if (total(&e, mid, K, N, T, delta, sig, s) != 0) goto out;
        if (e <= eps_bar) hi = mid;
        else lo = mid;
    }
    *sigma1 = hi;
    rc = 0;
out:
    free(sig);
    free(s);
    return rc;
}

/* |f - r| <= tol |r| (r the ref value at 128 bits, rounded to nearest) */
static int close_to(double f, const mpfr_t r, double tol)
{
    double rd = mpfr_get_d(r, MPFR_RNDN);
    return isfinite(f) && isfinite(rd) && fabs(f - rd) <= tol * fabs(rd);
}

int xpdm_check_acct(exp_ctx *ctx, const double *eps_round, size_t neps, double delta, unsigned long K,
                    unsigned long N, unsigned long T, double q, double *seconds)
{
    double t0 = exp_now();
    int fail = 0;
    mpfr_t e, d, one, s2, sa, tot, c0, qq, th;
    mpfr_inits2(128, e, d, one, s2, sa, tot, c0, qq, th, (mpfr_ptr)0);
    mpfr_t *sig = malloc(T * sizeof *sig), *s = malloc(T * sizeof *s);
    double *fsig = malloc(T * sizeof *fsig), *fs = malloc(T * sizeof *fs);
    if (!sig || !s || !fsig || !fs) {
        free(sig);
        free(s);
        free(fsig);
        free(fs);
        mpfr_clears(e, d, one, s2, sa, tot, c0, qq, th, (mpfr_ptr)0);
        return exp_fail(ctx, "out of memory in the accountant's spot-check");
    }
    for (unsigned long t = 0; t < T; t++) {
        mpfr_init2(sig[t], 128);
        mpfr_init2(s[t], 128);
    }
    mpfr_set_d(d, delta, MPFR_RNDN);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_ui(c0, 1, MPFR_RNDN);
    mpfr_set_d(qq, q, MPFR_RNDN);
    exp_md(ctx, "\nref spot-check of the calibrations and totals (fast against ref at 128 bits):\n\n"
                "| eps per round | sigma (5) ref | fast rel | sigma analytic ref | fast rel | RDP total, stateless K of N, ref | fast rel | (20) c0 = 1 ref | fast rel |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < neps; k++) {
        double fs2, fsa, ftot, fthm;
        unsigned long ra, fa;
        mpfr_set_d(e, eps_round[k], MPFR_RNDN);
        int st = fr_gauss_sigma2_classical(s2, e, d, one);
        if (st == FR_OK) st = fr_gauss_sigma_analytic(sa, e, d, one);
        if (st == FR_OK) st = ff_gauss_sigma2_classical_upper(&fs2, eps_round[k], delta, 1);
        if (st == FR_OK) st = ff_gauss_sigma_analytic_upper(&fsa, eps_round[k], delta, 1);
        if (st == FR_OK) {
            mpfr_sqrt(s2, s2, MPFR_RNDU);
            fs2 = sqrt(fs2);
            for (unsigned long t = 0; t < T; t++) {
                mpfr_set(sig[t], s2, MPFR_RNDU);
                mpfr_set_ui(s[t], 1, MPFR_RNDN);
                fsig[t] = fs2;
                fs[t] = 1;
            }
            st = fr_fedpdm_rdp_rounds(tot, &ra, sig, s, T, 1, K, N, d, ALPHA_MAX);
        }
        if (st == FR_OK) st = ff_fedpdm_rdp_rounds(&ftot, &fa, fsig, fs, T, 1, K, N, delta, ALPHA_MAX);
        if (st == FR_OK) st = fr_fedpdm_thm2(th, c0, e, K, N, T, qq);
        if (st == FR_OK) st = ff_fedpdm_thm2(&fthm, 1, eps_round[k], K, N, T, q);
        if (st != FR_OK) {
            fail |= exp_fail(ctx, "calibration at eps = %.6g: status %s", eps_round[k], fr_strerror(st));
            continue;
        }
        /* tolerances: sigma (5) 2^-40 (fast proved 2^-47), analytic 2^-26
         * and the RDP total 2^-30 (the vectors' empirical tolerances),
         * (20) 2^-45 (its vector's) */
        int ok = close_to(fs2, s2, 0x1p-40) && close_to(fsa, sa, 0x1p-26) && close_to(ftot, tot, 0x1p-30)
                 && close_to(fthm, th, 0x1p-45);
        double r2 = mpfr_get_d(s2, MPFR_RNDN), ra2 = mpfr_get_d(sa, MPFR_RNDN), rt = mpfr_get_d(tot, MPFR_RNDN),
               rq = mpfr_get_d(th, MPFR_RNDN);
        char b[4][40];                                /* the ref values rounded up in decimal */
        mpfr_snprintf(b[0], 40, "%.9RUg", s2);
        mpfr_snprintf(b[1], 40, "%.9RUg", sa);
        mpfr_snprintf(b[2], 40, "%.6RUg", tot);
        mpfr_snprintf(b[3], 40, "%.6RUg", th);
        exp_md(ctx, "| %.6g | %s | %.1e | %s | %.1e | %s (alpha %lu) | %.1e | %s | %.1e |\n", eps_round[k], b[0],
               (fs2 - r2) / r2, b[1], (fsa - ra2) / ra2, b[2], ra, (ftot - rt) / rt, b[3], (fthm - rq) / rq);
        if (!ok)
            fail |= exp_fail(ctx, "calibration at eps = %.6g: fast and ref differ beyond the tolerance", eps_round[k]);
    }
    exp_md(ctx, "\nTolerances: sigma (5) 2^-40 relative (fast's proved bound is 2^-47), analytic sigma 2^-26, "
                "RDP total 2^-30, (20) 2^-45 (the vectors' tolerances): %s.\n", fail ? "**some differ (CHECK FAILED)**" : "all within");
    for (unsigned long t = 0; t < T; t++) {
        mpfr_clear(sig[t]);
        mpfr_clear(s[t]);
    }
    free(sig);
    free(s);
    free(fsig);
    free(fs);
    mpfr_clears(e, d, one, s2, sa, tot, c0, qq, th, (mpfr_ptr)0);
    *seconds = exp_now() - t0;
    return fail;
}
