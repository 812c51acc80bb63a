/* SPDX-License-Identifier: Apache-2.0 */
/* check_admm.c -- 004 Theorem 4.1 and the stopping quantity (18) of
 * Algorithm 2, with fr_proxal_admm at ctx->prec on the test oracles of
 * tests/proxal/admm_oracles.h (quadratic, logistic + quadratic, [.]_+^2 +
 * quadratic; strongly convex, locally Lipschitz gradients: Assumption 3).
 *   pc_proxal_thm41: on 120 seeded instances (n in 1..4, d in 1..4, rho in
 *     [0.25, 8], q in {0.5, 0.7, 0.8}, tau in {1e-2, 1e-4, 1e-6}) every
 *     call terminates, and its output satisfies Theorem 4.1: info.thm41
 *     (an upper bound of dist_inf(0, sum_i grad F_i(w_out)) rounded up)
 *     <= tau, and A.1's inequality thm41 <= eps_{t+1} + sum_i eps~_{i,t+1}
 *     (+ 2^(20-p): the rounding of u~ = u + lam/rho; checked on runs
 *     with no floor acceptance, info.floors = 0).  Also fast on the same
 *     instance: FR_OK, terminated and thm41_ok on every run (subproblems
 *     accepted at binary64's floor are counted: info.floors, reported).
 *   pc_proxal_eps18_code: (18) with u_i^{t+1} in place of u_i^t (PL97/
 *     Constr_FL's admm.py) stops with Theorem 4.1 violated: a certified
 *     witness (a LOWER bound of dist_inf(0, sum grad F_i(w_out)) > tau,
 *     the sum taken exactly by mpfr_sum in RNDD/RNDU of the oracle's
 *     values), while the printed (18) on the same instance never stops
 *     with thm41 > tau (with rho = 1e4 ADMM is slow and q^t reaches the
 *     precision floor first: the subproblems are then accepted at the
 *     floor, counted, and the run stops with thm41 <= tau or at tmax). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"
#include "../../tests/proxal/admm_oracles.h"

static int run_ref(ao_prob *P, const fr_proxal_admm_params *prm, mpfr_prec_t p, fr_proxal_admm_info *ri,
                   mpfr_t *rw)
{
    fr_proxal_fsum F;
    ao_ref(&F, P);
    mpfr_t w0[AO_DMAX];
    for (size_t k = 0; k < P->d; k++)
        mpfr_init2(w0[k], 53), mpfr_set_d(w0[k], 0.5 - 0.25 * (double)k, MPFR_RNDN), mpfr_init2(rw[k], p);
    int st = fr_proxal_admm(rw, ri, &F, w0, prm);
    for (size_t k = 0; k < P->d; k++)
        mpfr_clear(w0[k]);
    return st;
}

int pc_proxal_thm41(pc_ctx *ctx)
{
    ctx->function = "proxal_admm";
    ctx->vector = NULL;
    ctx->claim = "004 Theorem 4.1: Algorithm 2 stopped by (19) with (18) as printed has dist_inf(0, grad F(w_out)) <= tau (ref certified bound, fast computed bound), 120 instances";
    ctx->erratum = NULL;
    static const double Q[3] = {0.5, 0.7, 0.8}, TAU[3] = {1e-2, 1e-4, 1e-6};
    mpfr_prec_t p = ctx->prec < 200 ? 200 : ctx->prec;
    double itsum[3][3] = {{0}}, itcnt[3][3] = {{0}};   /* Theorem 4.2's shape: reported */
    unsigned long fruns = 0, fsolves = 0, rruns = 0;    /* floor acceptances (fast runs, solves; ref runs) */
    for (unsigned c = 0; c < 120; c++) {
        ao_prob P;
        size_t n = 1 + c % 4, d = 1 + (c / 4) % 4;
        ao_make(&P, n, d, (int)(c % 3), ctx->seed * 1000 + c, 0.25);
        double rho[AO_NMAX];
        for (size_t i = 0; i < n; i++)
            rho[i] = ldexp(1.0, (int)((c + 3 * i) % 6) - 2);
        unsigned qi = (c / 7) % 3, ti = c % 3 == 0 ? (c / 3) % 3 : c % 3;
        fr_proxal_admm_params prm = {TAU[ti], Q[qi], rho, 2000, 60, FR_PROXAL_EPS18_PRINTED};
        fr_proxal_admm_info ri;
        mpfr_t rw[AO_DMAX];
        fr_proxal_admm_info_init(&ri, p);
        int st = run_ref(&P, &prm, p, &ri, rw);
        ctx->ran++;
        const char *why = st != FR_OK ? "ref status" : !ri.terminated ? "ref did not terminate"
                          : !ri.thm41_ok ? "ref: Theorem 4.1 violated" : NULL;
        double th = mpfr_get_d(ri.thm41, MPFR_RNDU);
        if (st == FR_OK && ri.terminated) {
            itsum[qi][ti] += (double)ri.iters;
            itcnt[qi][ti] += 1;
        }
        if (!why && ri.floors > 0)
            rruns++;
        if (!why && ri.floors == 0) {
            /* A.1's inequality on this run: thm41 <= eps_{t+1} + sum eps~ up to the
             * rounding of u~ = u + lam/rho (relative 2^-p per entry, rho <= 8) */
            mpfr_t sl;
            mpfr_init2(sl, p);
            mpfr_add(sl, ri.eps, ri.eps_tilde_sum, MPFR_RNDU);
            mpfr_t tiny;
            mpfr_init2(tiny, 53);
            mpfr_set_ui_2exp(tiny, 1, -(mpfr_exp_t)p + 20, MPFR_RNDU);
            mpfr_add(sl, sl, tiny, MPFR_RNDU);
            if (mpfr_greater_p(ri.thm41, sl))
                why = "thm41 > eps + sum eps~ (Appendix A.1)";
            mpfr_clear(tiny);
            mpfr_clear(sl);
        }
        if (!why) {
            ff_proxal_fsum F;
            ao_fast(&F, &P);
            ff_proxal_admm_ws *ws;
            ff_proxal_admm_info fi;
            double w0[AO_DMAX], w[AO_DMAX];
            for (size_t k = 0; k < d; k++)
                w0[k] = 0.5 - 0.25 * (double)k;
            if (ff_proxal_admm_ws_init(&ws, n, d) != FR_OK)
                why = "ws";
            else {
                st = ff_proxal_admm(w, &fi, ws, &F, w0, &prm);
                /* binary64's floor: solves accepted there are counted; every run
                 * terminates with Theorem 4.1 certified */
                if (st != FR_OK)
                    why = "fast status";
                else if (!fi.terminated)
                    why = "fast did not terminate";
                else if (!fi.thm41_ok)
                    why = "fast: Theorem 4.1 violated";
                else if (fi.floors > 0)
                    fruns++, fsolves += fi.floors;
                ff_proxal_admm_ws_clear(&ws);
            }
        }
        if (why) {
            ctx->failed++;
            if (!ctx->detail[0])
                snprintf(ctx->detail, sizeof ctx->detail, "case %u (n %zu d %zu kind %d tau %g q %g): %s, st %d, thm41 %g",
                         c, n, d, P.kind, prm.tau, prm.q, why, st, th);
        }
        fr_proxal_admm_info_clear(&ri);
        for (size_t k = 0; k < d; k++)
            mpfr_clear(rw[k]);
    }
    if (!ctx->detail[0]) {   /* mean iterations per (q, tau): linear in |log tau| */
        int o = snprintf(ctx->detail, sizeof ctx->detail, "mean iterations (tau 1e-2/1e-4/1e-6):");
        for (unsigned qi = 0; qi < 3 && o > 0 && (size_t)o < sizeof ctx->detail; qi++)
            o += snprintf(ctx->detail + o, sizeof ctx->detail - (size_t)o, " q %.1f: %.1f/%.1f/%.1f (log10/log(1/q) = %.2f per decade);",
                          Q[qi], itsum[qi][0] / fmax(itcnt[qi][0], 1), itsum[qi][1] / fmax(itcnt[qi][1], 1),
                          itsum[qi][2] / fmax(itcnt[qi][2], 1), log(10) / log(1 / Q[qi]));
        if (o > 0 && (size_t)o < sizeof ctx->detail)
            snprintf(ctx->detail + o, sizeof ctx->detail - (size_t)o,
                     " floor acceptances: fast %lu runs (%lu solves), ref %lu runs", fruns, fsolves, rruns);
    }
    return ctx->failed != 0;
}

int pc_proxal_eps18_code(pc_ctx *ctx)
{
    ctx->function = "proxal_admm";
    ctx->vector = NULL;
    ctx->claim = "004 (18) with u_i^{t+1} (PL97/Constr_FL admm.py) in place of u_i^t: Algorithm 2 stops with Theorem 4.1 violated (certified witness); the printed (18) does not";
    ctx->erratum = NULL;
    mpfr_prec_t p = ctx->prec < 200 ? 200 : ctx->prec;
    int found = 0;
    for (unsigned c = 0; c < 8 && !found; c++) {
        ao_prob P;
        ao_make(&P, 2, 2, AO_QUAD, 77 + c, 0.5);
        double rho[2] = {1e4, 1e4};
        fr_proxal_admm_params prm = {0.1, 0.5, rho, 200, 60, FR_PROXAL_EPS18_CODE};
        fr_proxal_admm_info ri;
        mpfr_t rw[AO_DMAX];
        fr_proxal_admm_info_init(&ri, p);
        int st = run_ref(&P, &prm, p, &ri, rw);
        ctx->ran++;
        if (st == FR_OK && ri.terminated) {
            /* a lower bound of max_k |sum_i g_ik| */
            mpfr_t G[(AO_NMAX + 1) * AO_DMAX], lo, a, b;
            mpfr_inits2(p, lo, a, b, (mpfr_ptr)0);
            mpfr_set_zero(lo, 1);
            for (size_t j = 0; j < 3 * 2; j++)
                mpfr_init2(G[j], p);
            for (size_t i = 0; i <= 2; i++)
                ao_reval(&P, i, rw, NULL, G + i * 2, NULL);
            for (size_t k = 0; k < 2; k++) {
                mpfr_ptr tp[3] = {G[k], G[2 + k], G[4 + k]};
                mpfr_sum(a, tp, 3, MPFR_RNDD);
                mpfr_sum(b, tp, 3, MPFR_RNDU);
                mpfr_neg(b, b, MPFR_RNDN);
                mpfr_max(a, a, b, MPFR_RNDD);
                mpfr_max(lo, lo, a, MPFR_RNDD);
            }
            /* the oracle's values are within 2^-(p-8) relative: a margin of 2 */
            if (mpfr_cmp_d(lo, 2 * prm.tau) > 0) {
                found = 1;
                /* the printed (18) on the same instance: Theorem 4.1 holds */
                fr_proxal_admm_info r2;
                mpfr_t w2[AO_DMAX];
                fr_proxal_admm_info_init(&r2, p);
                prm.eps18 = FR_PROXAL_EPS18_PRINTED;
                prm.tmax = 2000;
                st = run_ref(&P, &prm, p, &r2, w2);
                snprintf(ctx->detail, sizeof ctx->detail,
                         "instance %u (n 2, d 2, rho 1e4, q 0.5, tau 0.1): CODE (18) stops at t+1 = %lu with dist_inf(0, grad F) >= %.6g > tau; printed (18): status %d, terminated %d at t+1 = %lu, %lu solves at the floor, thm41_ok %d (never stops with Theorem 4.1 violated)",
                         c, ri.iters, mpfr_get_d(lo, MPFR_RNDD), st, st == FR_OK ? r2.terminated : 0, st == FR_OK ? r2.iters : 0UL,
                         st == FR_OK ? r2.floors : 0UL, st == FR_OK ? r2.thm41_ok : 0);
                if (st == FR_OK && r2.terminated && !r2.thm41_ok)
                    ctx->failed++;
                fr_proxal_admm_info_clear(&r2);
                for (size_t k = 0; k < 2; k++)
                    mpfr_clear(w2[k]);
            }
            for (size_t j = 0; j < 6; j++)
                mpfr_clear(G[j]);
            mpfr_clears(lo, a, b, (mpfr_ptr)0);
        }
        fr_proxal_admm_info_clear(&ri);
        for (size_t k = 0; k < 2; k++)
            mpfr_clear(rw[k]);
    }
    if (!found) {
        ctx->failed++;
        snprintf(ctx->detail, sizeof ctx->detail, "no witness found");
    }
    return ctx->failed != 0;
}
