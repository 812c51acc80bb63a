/* SPDX-License-Identifier: Apache-2.0 */
/* check_sens13.c -- (13) under partial participation (003 Sec. III,
 * Appendix A), erratum E-003-P1 (new beyond E-003-A1).
 *
 * (8c) with (9a) minimises over x_0
 *   F(x_0) = (1/N) sum_{i in [N]} [lambda_i^T (x_0 - x_i) + rho/2 ||x_0 - x_i||^2] + h(x_0)
 * over ALL N clients' current (x_i, lambda_i): the non-participants of
 * S_t keep their stale state.  Completing the square (the step E-003-A1
 * corrects): F = rho/2 ||x_0 - m||^2 + h(x_0) + const with m = (1/N)
 * sum_{i in [N]} (x_i - lambda_i/rho) = (1/N) sum_i y_i, so the argmin is
 * prox_{rho h}((1/N) sum_{i in [N]} y_i): the stale y_i of i not in S_t
 * are each client's last upload.  (13) takes prox_{rho h}((1/K) sum_{i in
 * S_t} y~_i) instead: the same only when K = N (the first round, S_0 =
 * [N], included) or when the stale mean equals the participants' mean.
 * The check (noise-free uploads, h = gamma ||.||_1, fr_prox_l1 of core):
 * certifies A = prox((1/N) sum_[N] y_i) as the minimiser of F from the
 * subgradient condition coordinate by coordinate, finds B (13) = A bit for
 * bit when K = N, and F(B) > F(A) with B != A for K < N (F(B) - F(A) >=
 * rho/2 ||B - A||^2 by strong convexity, also checked). */
#include <stdio.h>
#include <stdlib.h>
#include "../pc_util.h"

#define STREAM_P13 UINT64_C(0x70632d703133)   /* "pc-p13" */
#define NMAX 8
#define DMAX 4

static void objective(mpfr_t F, mpfr_t (*x)[DMAX], mpfr_t (*lam)[DMAX], mpfr_t *x0, int N, int d,
                      const mpfr_t rho, const mpfr_t gam, mpfr_t t, mpfr_t u)
{
    mpfr_set_zero(F, 1);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < d; j++) {
            mpfr_sub(t, x0[j], x[i][j], MPFR_RNDN);
            mpfr_mul(u, t, t, MPFR_RNDN);
            mpfr_mul(u, u, rho, MPFR_RNDN);
            mpfr_div_2ui(u, u, 1, MPFR_RNDN);
            mpfr_fma(u, lam[i][j], t, u, MPFR_RNDN);
            mpfr_add(F, F, u, MPFR_RNDN);
        }
    mpfr_div_ui(F, F, (unsigned long)N, MPFR_RNDN);
    for (int j = 0; j < d; j++) {
        mpfr_abs(t, x0[j], MPFR_RNDN);
        mpfr_fma(F, gam, t, F, MPFR_RNDN);
    }
}

int pc_fedpdm_13_partial(pc_ctx *ctx)
{
    frng_t rg;
    mpfr_prec_t wp = ctx->prec + 64;
    mpfr_t x[NMAX][DMAX], lam[NMAX][DMAX], mN[DMAX], mK[DMAX], A[DMAX], Bv[DMAX];
    mpfr_t rho, gam, t, u, FA, FB, tol, dist;
    unsigned long differ = 0, full_same = 0, partial = 0;
    double worst_gap = 0;
    char first[300] = "";

    ctx->function = "prox_l1";
    ctx->vector = NULL;
    ctx->claim = "003 (13) vs (8c)+(9a) under partial participation: argmin_x0 over all N (stale x_i, lambda_i) is prox((1/N) sum_[N] y_i); (13)'s (1/K) sum_{S_t} equals it only for K = N";
    ctx->erratum = "E-003-P1";
    for (int i = 0; i < NMAX; i++)
        for (int j = 0; j < DMAX; j++) mpfr_inits2(64, x[i][j], lam[i][j], (mpfr_ptr)0);
    for (int j = 0; j < DMAX; j++) mpfr_inits2(wp, mN[j], mK[j], A[j], Bv[j], (mpfr_ptr)0);
    mpfr_inits2(64, rho, gam, (mpfr_ptr)0);
    mpfr_inits2(wp, t, u, FA, FB, tol, dist, (mpfr_ptr)0);
    mpfr_set_si_2exp(tol, 1, -(long)ctx->prec, MPFR_RNDN);
    frng_init(&rg, ctx->seed, STREAM_P13);
    for (unsigned long c = 0; c < ctx->cases; c++) {
        int N = 2 + (int)pcu_below(&rg, NMAX - 1), d = 1 + (int)pcu_below(&rg, DMAX);
        int K = (c % 4 == 0) ? N : 1 + (int)pcu_below(&rg, (unsigned long)(N - 1));
        pcu_rand_dyadic_nz(rho, &rg, 20, -2, 4, 1);
        pcu_rand_dyadic(gam, &rg, 20, -4, 1, 1);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < d; j++) {
                pcu_rand_dyadic(x[i][j], &rg, 40, -1, 3, 0);
                pcu_rand_dyadic(lam[i][j], &rg, 40, -1, 3, 0);
            }
        /* S_t: the first K of a random permutation */
        int perm[NMAX];
        for (int i = 0; i < N; i++) perm[i] = i;
        for (int i = N - 1; i > 0; i--) {
            int k = (int)pcu_below(&rg, (unsigned long)i + 1), s = perm[i];
            perm[i] = perm[k]; perm[k] = s;
        }
        if (K == N) for (int i = 0; i < N; i++) perm[i] = i;   /* the same order: the same sum */
        for (int j = 0; j < d; j++) {
            mpfr_set_zero(mN[j], 1);
            mpfr_set_zero(mK[j], 1);
            for (int i = 0; i < N; i++) {
                int ii = perm[i];
                mpfr_div(t, lam[ii][j], rho, MPFR_RNDN);
                mpfr_sub(t, x[ii][j], t, MPFR_RNDN);            /* y_i */
                mpfr_add(mN[j], mN[j], t, MPFR_RNDN);
                if (i < K) mpfr_add(mK[j], mK[j], t, MPFR_RNDN);
            }
            mpfr_div_ui(mN[j], mN[j], (unsigned long)N, MPFR_RNDN);
            mpfr_div_ui(mK[j], mK[j], (unsigned long)K, MPFR_RNDN);
        }
        ctx->ran++;
        if (fr_prox_l1(A, mN, (size_t)d, gam, rho) != FR_OK || fr_prox_l1(Bv, mK, (size_t)d, gam, rho) != FR_OK) {
            ctx->failed++;
            continue;
        }
        /* A minimises F: rho (A_j - m_j) + gamma sign(A_j) = 0, or |rho m_j| <= gamma at A_j = 0 */
        int ok = 1;
        for (int j = 0; j < d; j++) {
            mpfr_sub(t, A[j], mN[j], MPFR_RNDN);
            mpfr_mul(t, t, rho, MPFR_RNDN);
            if (mpfr_zero_p(A[j])) {
                mpfr_abs(t, t, MPFR_RNDN);
                mpfr_sub(t, t, gam, MPFR_RNDN);
                if (mpfr_cmp(t, tol) > 0) ok = 0;
            } else {
                if (mpfr_sgn(A[j]) > 0) mpfr_add(t, t, gam, MPFR_RNDN); else mpfr_sub(t, t, gam, MPFR_RNDN);
                if (mpfr_cmpabs(t, tol) > 0) ok = 0;
            }
        }
        objective(FA, x, lam, A, N, d, rho, gam, t, u);
        objective(FB, x, lam, Bv, N, d, rho, gam, t, u);
        mpfr_set_zero(dist, 1);
        for (int j = 0; j < d; j++) {
            mpfr_sub(t, Bv[j], A[j], MPFR_RNDN);
            mpfr_fma(dist, t, t, dist, MPFR_RNDN);
        }
        mpfr_sub(t, FB, FA, MPFR_RNDN);                    /* >= rho/2 ||B - A||^2 */
        mpfr_mul(u, dist, rho, MPFR_RNDN);
        mpfr_div_2ui(u, u, 1, MPFR_RNDN);
        mpfr_sub(u, t, u, MPFR_RNDN);
        mpfr_abs(FA, FA, MPFR_RNDN);
        mpfr_add_ui(FA, FA, 1, MPFR_RNDN);
        mpfr_mul(FA, FA, tol, MPFR_RNDN);
        mpfr_mul_2ui(FA, FA, 8, MPFR_RNDN);                /* rounding slack of F */
        mpfr_neg(FA, FA, MPFR_RNDN);
        if (mpfr_cmp(u, FA) < 0) ok = 0;
        if (K == N) {
            for (int j = 0; j < d; j++) if (!mpfr_equal_p(A[j], Bv[j])) ok = 0;
            full_same += ok;
        } else {
            partial++;
            if (!mpfr_zero_p(dist)) {
                differ++;
                double g = mpfr_get_d(t, MPFR_RNDN);
                if (g > worst_gap) worst_gap = g;
            }
        }
        if (!ok) {
            ctx->failed++;
            if (first[0] == 0)
                snprintf(first, sizeof first, "N %d K %d d %d: optimality or F(B) >= F(A) + rho/2||B-A||^2 fails", N, K, d);
        }
    }
    if (first[0] == 0 && differ == 0) {
        ctx->failed++;
        snprintf(first, sizeof first, "(13) never differed from the argmin of (8c): the erratum is not shown");
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail,
                 "argmin of (8c) over all N certified; K = N: (13) equal bit for bit in %lu; K < N: (13) differs in %lu of %lu, F(13) - F(argmin) up to %.3g; "
                 "smallest: N = 2, K = 1, d = 1, gamma = 0, rho = 1, y = (1, 0 stale): (8c) 1/2, (13) 1",
                 full_same, differ, partial, worst_gap);
    for (int i = 0; i < NMAX; i++)
        for (int j = 0; j < DMAX; j++) mpfr_clears(x[i][j], lam[i][j], (mpfr_ptr)0);
    for (int j = 0; j < DMAX; j++) mpfr_clears(mN[j], mK[j], A[j], Bv[j], (mpfr_ptr)0);
    mpfr_clears(rho, gam, t, u, FA, FB, tol, dist, (mpfr_ptr)0);
    return ctx->failed != 0;
}
