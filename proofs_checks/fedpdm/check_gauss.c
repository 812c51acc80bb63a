/* SPDX-License-Identifier: Apache-2.0 */
/* check_gauss.c -- module fedpdm, Gaussian calibration.
 *
 * pc_fedpdm_gauss_grid: erratum E-003-5.  003 Lemma 1 prints (5), sigma^2 =
 *   2 s^2 ln(1.25/delta)/eps^2, as "the minimum required noise variance"
 *   for (eps, delta)-DP, for every eps > 0; its source (Dwork & Roth Thm
 *   3.22) proves sufficiency for eps < 1 only.  On the grid eps = 10^(k/10
 *   - 2), k = 0..40 (0.01 .. 100), delta in {1e-12, 1e-10, 1e-8, 1e-6,
 *   1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2}, with s = 1 (delta_eps depends on
 *   sigma/s only): sigma_cl = RU(sqrt(RU (5))) and sigma_an =
 *   fr_gauss_sigma_analytic at 64 bits, the certified verdict of
 *   fr_gauss_dp_check at sigma_cl.  Checked on every case: (a) the verdict
 *   is HOLDS iff sigma_cl >= sigma_an (delta_eps decreasing; two
 *   independent routes to one fact); (b) HOLDS whenever eps < 1 (Dwork &
 *   Roth's range); and then the erratum: (5) FAILS somewhere (not
 *   sufficient for large eps) and sigma_cl / sigma_an > 1 where it holds
 *   (not minimal).  Reported: per delta the smallest grid eps where (5)
 *   fails, the worst violation delta_eps(sigma_cl)/delta, the ratio range.
 *   Random cases (eps log-uniform in [2^-10, 2^7], delta = 10^-U(1, 15)):
 *   (a) and (b) again, with the verdict only (sigma_an on every 16th).
 *
 * pc_fedpdm_gauss_pld: the analytic sigma against an independent
 *   characterisation, the privacy-loss distribution.  For the pair N(s,
 *   sigma^2), N(0, sigma^2) the loss L = ln p/q is N(mu, 2 mu) under p and
 *   N(-mu, 2 mu) under q, mu = s^2/(2 sigma^2), and delta(eps) = P[L > eps]
 *   - e^eps P[L' > eps].  Each tail P[N(m, v) > t] is evaluated with the
 *   incomplete gamma function (Phibar(z) = Gamma(1/2, z^2/2)/(2 sqrt pi),
 *   z >= 0), not erfc, at 256 bits.  Checked: delta_pld(sigma_an) <= delta <
 *   delta_pld(nextbelow(sigma_an)) (sigma_an at 64 bits: it is RU of the
 *   root), with the 256-bit rounding error (bounded by 2^-200 relative to
 *   the larger term) on the unfavourable side. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_GRID UINT64_C(0x70632d6761757373)   /* "pc-gauss" */
#define STREAM_PLD UINT64_C(0x70632d706c64)        /* "pc-pld" */
#define P64 64

static const double DELTAS[] = {1e-12, 1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2};
#define ND (sizeof DELTAS / sizeof DELTAS[0])

/* sigma_cl = RU(sqrt(RU((5)))) at P64 bits; verdict at sigma_cl; the margin
 * enclosure; 0 or -1. */
static int classical(mpfr_t scl, int *v, mpfr_t mlo, mpfr_t mhi, const mpfr_t e, const mpfr_t d,
                     const mpfr_t s)
{
    mpfr_t s2;
    mpfr_init2(s2, P64);
    int st = fr_gauss_sigma2_classical(s2, e, d, s);
    if (st == FR_OK) mpfr_sqrt(scl, s2, MPFR_RNDU);
    if (st == FR_OK) st = fr_gauss_dp_check(v, mlo, mhi, e, d, s, scl);
    mpfr_clear(s2);
    return st == FR_OK ? 0 : -1;
}

int pc_fedpdm_gauss_grid(pc_ctx *ctx)
{
    mpfr_t e, d, s, scl, san, mlo, mhi, r, worst;
    double smallest_fail[ND], rmin = INFINITY, rmax = 0, rmin_fail = INFINITY;
    unsigned long holds = 0, fails = 0, ab_fail = 0;
    char first[300] = "", wbuf[64] = "";
    double worst_e = 0, worst_d = 0;
    frng_t G;

    ctx->function = "gauss_sigma_classical";
    ctx->vector = "gauss_sigma_analytic";
    ctx->claim = "003 Lemma 1 / (5): 2 s^2 ln(1.25/delta)/eps^2 is the minimum variance for (eps,delta)-DP: it is not minimal, and not sufficient for large eps (Dwork-Roth 3.22 needs eps < 1)";
    ctx->erratum = "E-003-5";
    mpfr_inits2(P64, e, d, s, scl, san, mlo, mhi, (mpfr_ptr)0);
    mpfr_inits2(P64, r, worst, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_set_zero(worst, 1);
    for (size_t j = 0; j < ND; j++) {
        smallest_fail[j] = INFINITY;
        for (int k = 0; k <= 40; k++) {
            int v;
            double ev = pow(10.0, k / 10.0 - 2);
            mpfr_set_d(e, ev, MPFR_RNDN);
            mpfr_set_d(d, DELTAS[j], MPFR_RNDN);
            ctx->ran++;
            const char *why = NULL;
            if (classical(scl, &v, mlo, mhi, e, d, s) != 0
                || fr_gauss_sigma_analytic(san, e, d, s) != FR_OK)
                why = "status";
            else if (v == FR_GAUSS_UNKNOWN)
                why = "undecided";
            else if ((v == FR_GAUSS_HOLDS) != (mpfr_cmp(scl, san) >= 0))
                why = "(a) verdict disagrees with sigma_cl >= sigma_an";
            else if (ev < 1 && v != FR_GAUSS_HOLDS)
                why = "(b) (5) fails for eps < 1";
            if (why) {
                if (ctx->failed++ == 0)
                    pcu_snprintf(first, sizeof first, "eps %g delta %g: %s", ev, DELTAS[j], why);
                continue;
            }
            mpfr_div(r, scl, san, MPFR_RNDN);
            double rd = mpfr_get_d(r, MPFR_RNDN);
            if (v == FR_GAUSS_HOLDS) {
                holds++;
                if (rd < rmin) rmin = rd;
                if (rd > rmax) rmax = rd;
            } else {
                fails++;
                if (rd < rmin_fail) rmin_fail = rd;
                if (ev < smallest_fail[j]) smallest_fail[j] = ev;
                /* violation delta_eps / delta = 1 - margin/delta >= 1 - mhi/delta */
                mpfr_div(r, mhi, d, MPFR_RNDD);
                mpfr_ui_sub(r, 1, r, MPFR_RNDD);
                if (mpfr_cmp(r, worst) > 0) {
                    mpfr_set(worst, r, MPFR_RNDN);
                    worst_e = ev;
                    worst_d = DELTAS[j];
                }
            }
        }
    }
    if (!(fails > 0 && rmin > 1)) {
        ab_fail = 1;
        if (ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "erratum not shown: fails %lu, min ratio where it holds %g",
                         fails, rmin);
    }
    /* random cases */
    frng_init(&G, ctx->seed, STREAM_GRID);
    for (unsigned long c = 0; c < ctx->cases; c++) {
        int v;
        double ev = ldexp(1 + (double)frng_u53(&G) * 0x1p-53, (int)pcu_below(&G, 17) - 10);
        double dv = pow(10.0, -1 - 14 * (double)frng_u53(&G) * 0x1p-53);
        mpfr_set_d(e, ev, MPFR_RNDN);
        mpfr_set_d(d, dv, MPFR_RNDN);
        ctx->ran++;
        const char *why = NULL;
        if (classical(scl, &v, mlo, mhi, e, d, s) != 0 || v == FR_GAUSS_UNKNOWN)
            why = "status or undecided";
        else if (ev < 1 && v != FR_GAUSS_HOLDS)
            why = "(b) (5) fails for eps < 1";
        else if (c % 16 == 0) {
            if (fr_gauss_sigma_analytic(san, e, d, s) != FR_OK)
                why = "status";
            else if ((v == FR_GAUSS_HOLDS) != (mpfr_cmp(scl, san) >= 0))
                why = "(a) verdict disagrees with sigma_cl >= sigma_an";
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "random eps %a delta %a: %s", ev, dv, why);
    }
    if (ctx->failed) {
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    } else {
        char sf[200] = "";
        for (size_t j = 0; j < ND; j++)
            snprintf(sf + strlen(sf), sizeof sf - strlen(sf), "%s%g:%g", j ? " " : "", DELTAS[j],
                     smallest_fail[j]);
        snprintf(wbuf, sizeof wbuf, "%.4g", mpfr_get_d(worst, MPFR_RNDD));
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu grid cases: (5) holds %lu (sigma_cl/sigma_an in [%.4g, %.4g]), fails %lu "
                     "(ratio down to %.4g); smallest failing eps per delta {%s}; worst "
                     "delta_eps(sigma_cl)/delta >= %s at eps %g delta %g; %lu random cases",
                     holds + fails, holds, rmin, rmax, fails, rmin_fail, sf, wbuf, worst_e, worst_d,
                     ctx->cases);
    }
    (void)ab_fail;
    mpfr_clears(e, d, s, scl, san, mlo, mhi, r, worst, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* P[N(m, v) > t] at the precision of r: z = (t - m)/sqrt v; Phibar(z) =
 * Gamma(1/2, z^2/2)/(2 sqrt pi) for z >= 0, 1 - that of -z otherwise. */
static void tail(mpfr_t r, const mpfr_t t, const mpfr_t m, const mpfr_t v)
{
    mpfr_prec_t q = mpfr_get_prec(r);
    mpfr_t z, h, g, c;
    mpfr_inits2(q, z, h, g, c, (mpfr_ptr)0);
    mpfr_sub(z, t, m, MPFR_RNDN);
    mpfr_sqrt(h, v, MPFR_RNDN);
    mpfr_div(z, z, h, MPFR_RNDN);
    mpfr_sqr(h, z, MPFR_RNDN);
    mpfr_div_2ui(h, h, 1, MPFR_RNDN);
    mpfr_set_ui(c, 1, MPFR_RNDN);
    mpfr_div_2ui(c, c, 1, MPFR_RNDN);
    mpfr_gamma_inc(g, c, h, MPFR_RNDN);
    mpfr_const_pi(c, MPFR_RNDN);
    mpfr_sqrt(c, c, MPFR_RNDN);
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
    mpfr_div(g, g, c, MPFR_RNDN);
    if (mpfr_sgn(z) < 0)
        mpfr_ui_sub(g, 1, g, MPFR_RNDN);
    mpfr_set(r, g, MPFR_RNDN);
    mpfr_clears(z, h, g, c, (mpfr_ptr)0);
}

/* delta_pld(sigma) for sensitivity 1 at precision q; *big = the larger term. */
static void delta_pld(mpfr_t D, mpfr_t big, const mpfr_t eps, const mpfr_t sigma)
{
    mpfr_prec_t q = mpfr_get_prec(D);
    mpfr_t mu, v, nm, a, b;
    mpfr_inits2(q, mu, v, nm, a, b, (mpfr_ptr)0);
    mpfr_sqr(mu, sigma, MPFR_RNDN);
    mpfr_ui_div(mu, 1, mu, MPFR_RNDN);
    mpfr_div_2ui(mu, mu, 1, MPFR_RNDN);        /* mu = 1/(2 sigma^2) */
    mpfr_mul_2ui(v, mu, 1, MPFR_RNDN);         /* 2 mu */
    mpfr_neg(nm, mu, MPFR_RNDN);
    tail(a, eps, mu, v);                       /* P[L > eps] */
    tail(b, eps, nm, v);                       /* P[L' > eps] */
    mpfr_exp(nm, eps, MPFR_RNDN);
    mpfr_mul(b, b, nm, MPFR_RNDN);
    mpfr_sub(D, a, b, MPFR_RNDN);
    mpfr_set(big, a, MPFR_RNDN);
    mpfr_clears(mu, v, nm, a, b, (mpfr_ptr)0);
}

int pc_fedpdm_gauss_pld(pc_ctx *ctx)
{
    mpfr_t e, d, s, san, sb, D, big, tol, lim;
    char first[300] = "";
    frng_t G;
    unsigned long n = ctx->cases < 400 ? ctx->cases : 400;
    mpfr_prec_t q = ctx->prec > 256 ? ctx->prec : 256;

    ctx->function = "gauss_sigma_analytic";
    ctx->vector = "gauss_sigma_analytic";
    ctx->claim = "Balle-Wang Thm 8 sigma (fr_gauss_sigma_analytic, RU at 64 bits) against the privacy-loss distribution N(mu, 2mu) with incomplete-gamma tails at 256 bits: delta_pld(sigma) <= delta < delta_pld(nextbelow sigma)";
    ctx->erratum = NULL;
    mpfr_inits2(P64, e, d, s, san, sb, (mpfr_ptr)0);
    mpfr_inits2(q, D, big, tol, lim, (mpfr_ptr)0);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    frng_init(&G, ctx->seed, STREAM_PLD);
    for (unsigned long c = 0; c < n + 8; c++) {
        double ev, dv;
        if (c < 8) {                           /* the paper's settings */
            static const double PE[8] = {0.1, 0.5, 1, 2, 7, 10, 20, 30};
            ev = PE[c];
            dv = 1e-5;
        } else {
            ev = ldexp(1 + (double)frng_u53(&G) * 0x1p-53, (int)pcu_below(&G, 14) - 7);
            dv = pow(10.0, -1 - 14 * (double)frng_u53(&G) * 0x1p-53);
        }
        mpfr_set_d(e, ev, MPFR_RNDN);
        mpfr_set_d(d, dv, MPFR_RNDN);
        ctx->ran++;
        const char *why = NULL;
        if (fr_gauss_sigma_analytic(san, e, d, s) != FR_OK) {
            why = "status";
        } else {
            delta_pld(D, big, e, san);
            mpfr_mul_2si(tol, big, -200, MPFR_RNDU);
            mpfr_sub(lim, D, tol, MPFR_RNDD);   /* the least D could be */
            if (mpfr_cmp(lim, d) > 0)
                why = "delta_pld(sigma) > delta";
            mpfr_set(sb, san, MPFR_RNDN);
            mpfr_nextbelow(sb);
            delta_pld(D, big, e, sb);
            mpfr_mul_2si(tol, big, -200, MPFR_RNDU);
            mpfr_add(lim, D, tol, MPFR_RNDU);   /* the most D could be */
            if (!why && mpfr_cmp(lim, d) <= 0)
                why = "delta_pld(nextbelow sigma) <= delta: not the least";
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "eps %a delta %a: %s", ev, dv, why);
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases (8 at delta = 1e-5, eps in {0.1 .. 30}; %lu random): sigma_an = RU64(root) "
                     "confirmed by the loss distribution at %ld bits", ctx->ran, n, (long)q);
    mpfr_clears(e, d, s, san, sb, D, big, tol, lim, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
