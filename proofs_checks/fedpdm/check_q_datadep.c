/* SPDX-License-Identifier: Apache-2.0 */
/* check_q_datadep.c -- pc_fedpdm_q_datadep (erratum E-003-Q11): the noise
 * (18) with s_{i,t} = (19) at the data-dependent Q_i^t of rule (11) is not
 * (eps, delta)-DP.
 *
 * Witness (round 0, one client, dimension 1 after projecting on u: the
 * projection is post-processing, so the divergence of the uploads is at
 * least that of their projections): x_i^0 = x_0^0 = 0, lambda = 0, eta =
 * 1/4, rho = 1 (b = 1 - eta rho = 3/4), G = 1, nu = 1/2.
 *   D:  a constant loss, g = 0: v = 0, ||v||^2 = 0 <= nu: Q = 1, y = 0.
 *   D': a linear loss of slope G, g = G u: v_r = b^r G u, ||v_r||^2 = 1,
 *       9/16 > nu, then 81/256 <= nu: Q' = 3, y' = -2 eta G S_3(b) = -37/32.
 * (Both losses meet Assumption 3 with G = 1.)  (18) with (19) at Q:
 *   sigma = c s, c = sqrt(2 ln(1.25/delta)) / eps, s_1 = 4 eta G = 1,
 *   s_3 = 4 eta G S_3(3/4) = 37/16; ||y - y'|| = 37/32 > (19)(Q = 1) = 1.
 * The uploads are P = N(0, c^2) and P' = N(-37/32, (37c/16)^2).  The
 * hockey-stick divergence H_g(P || P') = sup_A P(A) - g P'(A), g = e^eps:
 * for two Gaussians of different variances the log density ratio
 *   ln(s2/s1) - (x - m1)^2/(2 s1^2) + (x - m2)^2/(2 s2^2)
 * is a concave quadratic (s1 < s2), so the optimal A is the interval between
 * its roots where it exceeds eps.  Any fixed interval A gives a lower bound
 * P(A) - g P'(A) <= H; A = [l, r] with l, r the binary64 roots (not
 * certified: any A is valid), and P(A), P'(A) enclosed with directed
 * rounding (Phi(z) = erfc(-z/sqrt2)/2, z enclosed from the enclosure of c).
 * The check: the rule-(11) runs are simulated exactly (Q = 1, Q' = 3, y,
 * y' as above; rule (11) exactly at nu = 81/256 still stops at Q' = 3, one
 * 2^-60 below it at Q' = 4), fr_fedpdm_sensitivity gives s_1 and s_3 exactly, and the
 * certified lower bound of max(H(P || P'), H(P' || P)) exceeds delta for
 * (eps, delta) in {0.1, 0.5, 0.9, 1, 7, 10} x {1e-5, 1e-3} (eps < 1: where
 * (18) is proved by Dwork & Roth; 1, 7, 10: the paper's).  H(P' || P) uses
 * the complement of the interval (the wider Gaussian's tails), where
 * ln(p'/p) is a convex quadratic exceeding eps; it dominates for eps >=
 * ln(37/16).
 * The correct calibration: a data-independent s (e.g. (19) at Qmax, the
 * cap: every client's y - y' then has norm <= 2 eta G (S_Q + S_Q') <= (19)
 * (Qmax) at t = 0) and the same sigma whatever Q_i^t is. */
#include <math.h>
#include <stdio.h>
#include "../pc_util.h"
#include "fedref/fedpdm.h"

/* Phi(z) bounded below (dir < 0, z >= zlo given as zlo) or above (dir > 0,
 * z <= zhi given as zhi), at precision of r. */
static void phi_b(mpfr_t r, const mpfr_t z, int dir, mpfr_prec_t wp)
{
    mpfr_t r2, p;
    mpfr_inits2(wp, r2, p, (mpfr_ptr)0);
    mpfr_set_ui(r2, 2, MPFR_RNDN);
    if (dir < 0) {         /* p <= z / sqrt2: erfc(-p) <= erfc(-z/sqrt2) */
        mpfr_rec_sqrt(r2, r2, mpfr_sgn(z) >= 0 ? MPFR_RNDD : MPFR_RNDU);
        mpfr_mul(p, z, r2, MPFR_RNDD);
        mpfr_neg(p, p, MPFR_RNDN);
        mpfr_erfc(r, p, MPFR_RNDD);
    } else {
        mpfr_rec_sqrt(r2, r2, mpfr_sgn(z) >= 0 ? MPFR_RNDU : MPFR_RNDD);
        mpfr_mul(p, z, r2, MPFR_RNDU);
        mpfr_neg(p, p, MPFR_RNDN);
        mpfr_erfc(r, p, MPFR_RNDU);
    }
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    mpfr_clears(r2, p, (mpfr_ptr)0);
}

/* [zlo, zhi] encloses (x - m) / s for s in [slo, shi] > 0 (x - m exact). */
static void z_enc(mpfr_t zlo, mpfr_t zhi, const mpfr_t x, const mpfr_t m, const mpfr_t slo, const mpfr_t shi,
                  mpfr_prec_t wp)
{
    mpfr_t n, a;
    mpfr_init2(n, 2 * wp);
    mpfr_init2(a, wp);
    mpfr_sub(n, x, m, MPFR_RNDN);                  /* exact: dyadics of <= wp bits */
    const int pos = mpfr_sgn(n) >= 0;
    mpfr_div(zlo, n, pos ? shi : slo, MPFR_RNDD);
    mpfr_div(zhi, n, pos ? slo : shi, MPFR_RNDU);
    mpfr_clears(n, a, (mpfr_ptr)0);
}

/* lower (dir < 0) / upper (dir > 0) bound of N(m, s^2)([l, r]) */
static void prob_b(mpfr_t out, const mpfr_t l, const mpfr_t r, const mpfr_t m, const mpfr_t slo,
                   const mpfr_t shi, int dir, mpfr_prec_t wp)
{
    mpfr_t zl, zh, a, b;
    mpfr_inits2(wp, zl, zh, a, b, (mpfr_ptr)0);
    z_enc(zl, zh, r, m, slo, shi, wp);
    phi_b(a, dir < 0 ? zl : zh, dir, wp);          /* Phi(z_r) */
    z_enc(zl, zh, l, m, slo, shi, wp);
    phi_b(b, dir < 0 ? zh : zl, -dir, wp);         /* Phi(z_l), the other way */
    mpfr_sub(out, a, b, dir < 0 ? MPFR_RNDD : MPFR_RNDU);
    mpfr_clears(zl, zh, a, b, (mpfr_ptr)0);
}

/* rule (11) at round 0 from x = 0, lambda = 0 (1-D), gradient g(x) = gs
 * (constant); returns Q, writes y (exact dyadics: eta, rho, g dyadic). */
static unsigned long run11(mpfr_t y, const mpfr_t eta, const mpfr_t rho, const mpfr_t nu, const mpfr_t gs,
                           unsigned long qmax, mpfr_prec_t wp)
{
    mpfr_t x, v, t, lam;
    mpfr_inits2(wp, x, v, t, lam, (mpfr_ptr)0);
    mpfr_set_zero(x, 1);
    unsigned long Q = qmax;
    for (unsigned long r = 0; r < qmax; r++) {
        mpfr_mul(v, rho, x, MPFR_RNDN);            /* v = g - lambda + rho (x - x0), x0 = 0, lambda = 0 */
        mpfr_add(v, v, gs, MPFR_RNDN);
        mpfr_mul(t, eta, v, MPFR_RNDN);
        mpfr_sub(x, x, t, MPFR_RNDN);              /* (10a) */
        mpfr_sqr(t, v, MPFR_RNDN);
        if (mpfr_lessequal_p(t, nu)) {             /* (11) */
            Q = r + 1;
            break;
        }
    }
    mpfr_neg(lam, x, MPFR_RNDN);
    mpfr_mul(lam, lam, rho, MPFR_RNDN);            /* (10c): lambda = rho (x0 - x) */
    mpfr_div(t, lam, rho, MPFR_RNDN);
    mpfr_sub(y, x, t, MPFR_RNDN);                  /* (10d) */
    mpfr_clears(x, v, t, lam, (mpfr_ptr)0);
    return Q;
}

int pc_fedpdm_q_datadep(pc_ctx *ctx)
{
    const mpfr_prec_t wp = ctx->prec + 64;
    ctx->function = "fedpdm_sensitivity";
    ctx->vector = NULL;
    ctx->claim = "003 (18) with s = (19) at the data-dependent Q_i^t of rule (11): a neighbouring pair whose uploads N(y, sigma_1^2), N(y', sigma_2^2) have a certified hockey-stick divergence > delta at the calibrated eps";
    ctx->erratum = "E-003-Q11";
    ctx->ran = ctx->failed = 0;
    mpfr_t eta, rho, nu, G, zero, y1, y2, s1, s3, d, c, clo, chi, s1lo, s1hi, s2lo, s2hi, l, r, pa, pb, gm, H;
    mpfr_inits2(wp, eta, rho, nu, G, zero, y1, y2, s1, s3, d, c, clo, chi, s1lo, s1hi, s2lo, s2hi, l, r, pa,
                pb, gm, H, (mpfr_ptr)0);
    mpfr_set_d(eta, 0.25, MPFR_RNDN);
    mpfr_set_ui(rho, 1, MPFR_RNDN);
    mpfr_set_d(nu, 0.5, MPFR_RNDN);
    mpfr_set_ui(G, 1, MPFR_RNDN);
    mpfr_set_zero(zero, 1);
    char first[200] = "";
    const unsigned long Q1 = run11(y1, eta, rho, nu, zero, 100, wp);
    const unsigned long Q2 = run11(y2, eta, rho, nu, G, 100, wp);
    fr_fedpdm_sensitivity(s1, eta, rho, Q1, G);
    fr_fedpdm_sensitivity(s3, eta, rho, Q2, G);
    mpfr_sub(d, y1, y2, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    ctx->ran++;
    if (Q1 != 1 || Q2 != 3 || mpfr_cmp_d(d, 37.0 / 32) != 0 || mpfr_cmp_ui(s1, 1) != 0
        || mpfr_cmp_d(s3, 37.0 / 16) != 0 || mpfr_cmp(d, s1) <= 0) {
        ctx->failed++;
        snprintf(first, sizeof first, "the witness runs: Q %lu, Q' %lu, |y - y'| %g, s1 %g, s3 %g", Q1, Q2,
                 mpfr_get_d(d, MPFR_RNDN), mpfr_get_d(s1, MPFR_RNDN), mpfr_get_d(s3, MPFR_RNDN));
    }
    /* rule (11) exactly at nu: ||v_2||^2 = 81/256 = nu stops (<=): Q' = 3;
     * one 2^-60 below it does not: Q' = 4 */
    {
        mpfr_t nu2, yy;
        mpfr_inits2(wp, nu2, yy, (mpfr_ptr)0);
        mpfr_set_ui(nu2, 81, MPFR_RNDN);
        mpfr_div_2ui(nu2, nu2, 8, MPFR_RNDN);
        const unsigned long qa = run11(yy, eta, rho, nu2, G, 100, wp);
        mpfr_set_si_2exp(yy, -1, -60, MPFR_RNDN);
        mpfr_add(nu2, nu2, yy, MPFR_RNDN);
        const unsigned long qb = run11(yy, eta, rho, nu2, G, 100, wp);
        ctx->ran++;
        if (qa != 3 || qb != 4) {
            ctx->failed++;
            snprintf(first, sizeof first, "rule (11) at nu: Q' = %lu (nu = 81/256), %lu (just below)", qa, qb);
        }
        mpfr_clears(nu2, yy, (mpfr_ptr)0);
    }
    static const double EPS[6] = {0.1, 0.5, 0.9, 1, 7, 10}, DEL[2] = {1e-5, 1e-3};
    double hmin = INFINITY, hmax = 0;
    for (int i = 0; i < 6 && !ctx->failed; i++)
        for (int j = 0; j < 2; j++) {
            const double eps = EPS[i], delta = DEL[j];
            /* c = sqrt(2 ln(1.25/delta)) / eps, enclosed */
            mpfr_set_d(clo, 1.25, MPFR_RNDN);
            mpfr_div_d(clo, clo, delta, MPFR_RNDD);
            mpfr_log(clo, clo, MPFR_RNDD);
            mpfr_mul_2ui(clo, clo, 1, MPFR_RNDD);
            mpfr_sqrt(clo, clo, MPFR_RNDD);
            mpfr_div_d(clo, clo, eps, MPFR_RNDD);
            mpfr_set_d(chi, 1.25, MPFR_RNDN);
            mpfr_div_d(chi, chi, delta, MPFR_RNDU);
            mpfr_log(chi, chi, MPFR_RNDU);
            mpfr_mul_2ui(chi, chi, 1, MPFR_RNDU);
            mpfr_sqrt(chi, chi, MPFR_RNDU);
            mpfr_div_d(chi, chi, eps, MPFR_RNDU);
            mpfr_mul(s1lo, clo, s1, MPFR_RNDD);        /* sigma_1 = c s_1 */
            mpfr_mul(s1hi, chi, s1, MPFR_RNDU);
            mpfr_mul(s2lo, clo, s3, MPFR_RNDD);        /* sigma_2 = c s_3 */
            mpfr_mul(s2hi, chi, s3, MPFR_RNDU);
            /* the optimal sets' ends in binary64 (not certified): the log
             * density ratio ln(p/p') - eps = qa x^2 + qb x + qk, concave (s1 <
             * s2): {> 0} is an interval for H(P || P'), its complement holds
             * {ln(p'/p) > eps} for H(P' || P) (roots of -ln(p/p') - eps) */
            const double S1 = mpfr_get_d(s1hi, MPFR_RNDN), S2 = mpfr_get_d(s2hi, MPFR_RNDN);
            const double m1 = mpfr_get_d(y1, MPFR_RNDN), m2 = mpfr_get_d(y2, MPFR_RNDN);
            const double qa = -1 / (2 * S1 * S1) + 1 / (2 * S2 * S2);
            const double qb = m1 / (S1 * S1) - m2 / (S2 * S2);
            const double q0 = -m1 * m1 / (2 * S1 * S1) + m2 * m2 / (2 * S2 * S2) + log(S2 / S1);
            ctx->ran++;
            mpfr_set_inf(H, -1);
            mpfr_set_d(gm, eps, MPFR_RNDN);
            mpfr_exp(gm, gm, MPFR_RNDU);
            for (int dir = 0; dir < 2; dir++) {
                /* dir 0: qa x^2 + qb x + q0 - eps > 0 inside; dir 1: q0 + eps, outside */
                const double qk = dir == 0 ? q0 - eps : q0 + eps;
                const double disc = qb * qb - 4 * qa * qk;
                if (!(disc > 0))
                    continue;
                mpfr_set_d(l, (-qb + sqrt(disc)) / (2 * qa), MPFR_RNDN);
                mpfr_set_d(r, (-qb - sqrt(disc)) / (2 * qa), MPFR_RNDN);
                if (mpfr_greater_p(l, r)) mpfr_swap(l, r);
                mpfr_t h1;
                mpfr_init2(h1, wp);
                if (dir == 0) {
                    prob_b(pa, l, r, y1, s1lo, s1hi, -1, wp);  /* P(A) from below */
                    prob_b(pb, l, r, y2, s2lo, s2hi, +1, wp);  /* P'(A) from above */
                    mpfr_mul(pb, pb, gm, MPFR_RNDU);
                    mpfr_sub(h1, pa, pb, MPFR_RNDD);           /* H(P||P') >= P(A) - e^eps P'(A) */
                } else {                                       /* A = the complement of [l, r] */
                    prob_b(pa, l, r, y2, s2lo, s2hi, +1, wp);  /* P'([l, r]) from above */
                    mpfr_ui_sub(pa, 1, pa, MPFR_RNDD);         /* P'(A) from below */
                    prob_b(pb, l, r, y1, s1lo, s1hi, -1, wp);  /* P([l, r]) from below */
                    mpfr_ui_sub(pb, 1, pb, MPFR_RNDU);         /* P(A) from above */
                    mpfr_mul(pb, pb, gm, MPFR_RNDU);
                    mpfr_sub(h1, pa, pb, MPFR_RNDD);           /* H(P'||P) >= P'(A) - e^eps P(A) */
                }
                if (mpfr_greater_p(h1, H)) mpfr_set(H, h1, MPFR_RNDN);
                mpfr_clear(h1);
            }
            const double h = mpfr_get_d(H, MPFR_RNDD);
            if (h < hmin) hmin = h;
            if (h > hmax) hmax = h;
            if (!(mpfr_cmp_d(H, delta) > 0)) {
                ctx->failed++;
                if (!first[0])
                    snprintf(first, sizeof first, "eps %g delta %g: certified H >= %.6g only, not above delta", eps,
                             delta, h);
            }
        }
    if (ctx->failed)
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "eta 1/4, rho 1, G 1, nu 1/2: Q = 1 (constant loss), Q' = 3 (slope 1), |y - y'| = 37/32 > (19)(Q=1) = 1, "
                 "sigma_2/sigma_1 = 37/16; certified max(H(P||P'), H(P'||P)) in [%.4g, %.4g] > delta for eps in {0.1, 0.5, 0.9, 1, 7, 10}, "
                 "delta in {1e-5, 1e-3}", hmin, hmax);
    mpfr_clears(eta, rho, nu, G, zero, y1, y2, s1, s3, d, c, clo, chi, s1lo, s1hi, s2lo, s2hi, l, r, pa, pb,
                gm, H, (mpfr_ptr)0);
    return ctx->failed != 0;
}
