/* SPDX-License-Identifier: Apache-2.0 */
/* check_exact_penalty.c -- Theorem III.1 of 002 (the exact penalty
 * theorem), (9)-(12), on small logistic instances (Sec. VII-A).
 *
 * Each instance is a seeded synthetic problem (fr_synth_sizes,
 * fr_synth_data; m clients, n features, d_i in [5, 8], beta = 1e-3 as a
 * binary64 value).  w* = argmin f, f = sum_i f_i (strictly convex), is
 * found by damped Newton in MPFR at ctx->prec bits: the gradient from
 * fr_logreg_f, the Hessian written here,
 *   H = sum_i ( (1/d_i) sum_t sigma'(<x_t, w>) x_t x_t^T + beta I ),
 * until ||grad f(w*)||_inf < 2^-(prec-40).  Then G_i = grad f_i(w*)
 * (fr_logreg_fi), lambda* = fr_lambda_star(G) (11), W = (w*, ..., w*).
 *
 * pc_exact_penalty_thm: (9) holds (r_cons = 0, r_sum ~ 0,
 *   fr_stationarity_9); (10) holds for lambda = lambda* and 2 lambda* with
 *   eta in {2^-10, 1, 1000} (fr_stationarity_10: r_set, r_sum ~ 0); for
 *   lambda = lambda* (1 - 2^-8) r_set = lambda* 2^-8 > 0: the threshold
 *   (11) is sharp.  "~ 0" is tol = 2^-(prec-48) max(1, lambda*).
 *
 * pc_exact_penalty_eq12: erratum E-002-12.  The proof's chain (12) prints
 *   pi_ij^o = -(grad f_i(w*))_j / lambda <= -lambda* / lambda in [-1, 1];
 *   the middle inequality means G_ij >= lambda* and fails for every entry
 *   but a positive maximiser (e.g. any G_ij < 0, which exists since
 *   sum_i G_ij = 0).  Correct: |pi_ij^o| = |G_ij|/lambda <= lambda* / lambda
 *   <= 1, decided exactly on every entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define NINST 8
#define MMAX 4
#define NMAX 3
#define DMAX 8

typedef struct {
    size_t m, n, d[MMAX];
    double X[MMAX * DMAX * NMAX], b[MMAX * DMAX];
    fr_logreg P;
    mpfr_t w[NMAX], G[MMAX * NMAX], W[MMAX * NMAX], lam;
    unsigned iters;
    uint64_t seed;
} inst;

static void inst_init(inst *I, mpfr_prec_t p)
{
    for (int j = 0; j < NMAX; j++)
        mpfr_init2(I->w[j], p);
    for (int k = 0; k < MMAX * NMAX; k++)
        mpfr_inits2(p, I->G[k], I->W[k], (mpfr_ptr)0);
    mpfr_init2(I->lam, p);
}

static void inst_clear(inst *I)
{
    for (int j = 0; j < NMAX; j++)
        mpfr_clear(I->w[j]);
    for (int k = 0; k < MMAX * NMAX; k++)
        mpfr_clears(I->G[k], I->W[k], (mpfr_ptr)0);
    mpfr_clear(I->lam);
}

/* H = Hessian of f at w (n x n, row-major), at the precision of H. */
static void hessian(mpfr_t *H, const inst *I, mpfr_t *w, mpfr_prec_t q)
{
    size_t n = I->n, row = 0;
    mpfr_t u, s, t, x;
    mpfr_inits2(q, u, s, t, x, (mpfr_ptr)0);
    for (size_t k = 0; k < n * n; k++)
        mpfr_set_zero(H[k], 1);
    for (size_t i = 0; i < I->m; i++) {
        for (size_t r = 0; r < I->d[i]; r++, row++) {
            const double *xr = I->X + row * n;
            mpfr_set_zero(u, 1);
            for (size_t j = 0; j < n; j++) {
                mpfr_set_d(x, xr[j], MPFR_RNDN);
                mpfr_mul(t, x, w[j], MPFR_RNDN);
                mpfr_add(u, u, t, MPFR_RNDN);
            }
            /* sigma'(u) = sigma(u) (1 - sigma(u)), sigma(u) = 1/(1 + e^-u) */
            mpfr_neg(t, u, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_add_ui(t, t, 1, MPFR_RNDN);
            mpfr_ui_div(s, 1, t, MPFR_RNDN);
            mpfr_ui_sub(t, 1, s, MPFR_RNDN);
            mpfr_mul(s, s, t, MPFR_RNDN);
            mpfr_div_ui(s, s, (unsigned long)I->d[i], MPFR_RNDN);
            for (size_t a = 0; a < n; a++)
                for (size_t c = 0; c < n; c++) {
                    mpfr_set_d(x, xr[a], MPFR_RNDN);
                    mpfr_mul(t, s, x, MPFR_RNDN);
                    mpfr_mul_d(t, t, xr[c], MPFR_RNDN);
                    mpfr_add(H[a * n + c], H[a * n + c], t, MPFR_RNDN);
                }
        }
        for (size_t a = 0; a < n; a++)
            mpfr_add_d(H[a * n + a], H[a * n + a], I->P.beta, MPFR_RNDN);
    }
    mpfr_clears(u, s, t, x, (mpfr_ptr)0);
}

/* Solve H x = g in place (g becomes x); Gaussian elimination, H is
 * symmetric positive definite. */
static void solve(mpfr_t *H, mpfr_t *g, size_t n, mpfr_prec_t q)
{
    mpfr_t f, t;
    mpfr_inits2(q, f, t, (mpfr_ptr)0);
    for (size_t k = 0; k < n; k++)
        for (size_t r = k + 1; r < n; r++) {
            mpfr_div(f, H[r * n + k], H[k * n + k], MPFR_RNDN);
            for (size_t c = k; c < n; c++) {
                mpfr_mul(t, f, H[k * n + c], MPFR_RNDN);
                mpfr_sub(H[r * n + c], H[r * n + c], t, MPFR_RNDN);
            }
            mpfr_mul(t, f, g[k], MPFR_RNDN);
            mpfr_sub(g[r], g[r], t, MPFR_RNDN);
        }
    for (size_t k = n; k-- > 0;) {
        for (size_t c = k + 1; c < n; c++) {
            mpfr_mul(t, H[k * n + c], g[c], MPFR_RNDN);
            mpfr_sub(g[k], g[k], t, MPFR_RNDN);
        }
        mpfr_div(g[k], g[k], H[k * n + k], MPFR_RNDN);
    }
    mpfr_clears(f, t, (mpfr_ptr)0);
}

static void gnorm_inf(mpfr_t r, mpfr_t *g, size_t n)
{
    mpfr_set_zero(r, 1);
    for (size_t j = 0; j < n; j++)
        if (mpfr_cmpabs(g[j], r) > 0)
            mpfr_abs(r, g[j], MPFR_RNDN);
}

/* Build instance k and solve it.  0, or a reason. */
static const char *inst_solve(inst *I, uint64_t seed, unsigned k, mpfr_prec_t p)
{
    static const size_t MS[NINST] = {3, 3, 2, 4, 3, 3, 4, 2};
    static const size_t NS[NINST] = {2, 2, 2, 2, 3, 3, 3, 1};
    const char *why = NULL;
    mpfr_prec_t q = p + 64;
    size_t n;
    I->m = MS[k % NINST];
    I->n = n = NS[k % NINST];
    I->seed = seed + k;
    I->iters = 0;
    if (fr_synth_sizes(I->seed, I->m, 5, DMAX, I->d) != FR_OK)
        return "fr_synth_sizes failed";
    if (fr_synth_data(I->seed, I->m, n, I->d, I->X, I->b) != FR_OK)
        return "fr_synth_data failed";
    I->P = (fr_logreg){I->m, n, I->d, I->X, I->b, 1e-3, 0};


    mpfr_t H[NMAX * NMAX], g[NMAX], dw[NMAX], wt[NMAX], gn, gt, tol;
    for (size_t a = 0; a < NMAX * NMAX; a++)
        mpfr_init2(H[a], q);
    for (size_t j = 0; j < NMAX; j++) {
        mpfr_inits2(p, g[j], wt[j], (mpfr_ptr)0);
        mpfr_init2(dw[j], q);
        mpfr_set_zero(I->w[j], 1);
    }
    mpfr_inits2(p, gn, gt, (mpfr_ptr)0);
    mpfr_init2(tol, 2);
    mpfr_set_ui_2exp(tol, 1, -(long)(p - 40), MPFR_RNDN);
    if (fr_logreg_f(NULL, g, &I->P, I->w) != FR_OK)
        why = "fr_logreg_f failed";
    gnorm_inf(gn, g, n);
    while (why == NULL && mpfr_cmp(gn, tol) >= 0) {
        if (++I->iters > 200) {
            why = "Newton did not converge";
            break;
        }
        hessian(H, I, I->w, q);
        for (size_t j = 0; j < n; j++)
            mpfr_set(dw[j], g[j], MPFR_RNDN);
        solve(H, dw, n, q);
        /* damped: halve the step until the gradient norm decreases */
        int ok = 0;
        for (int h = 0; h < 60 && !ok; h++) {
            for (size_t j = 0; j < n; j++)
                mpfr_sub(wt[j], I->w[j], dw[j], MPFR_RNDN);
            if (fr_logreg_f(NULL, g, &I->P, wt) != FR_OK) {
                why = "fr_logreg_f failed";
                break;
            }
            gnorm_inf(gt, g, n);
            if (mpfr_cmp(gt, gn) < 0)
                ok = 1;
            else
                for (size_t j = 0; j < n; j++)
                    mpfr_div_2ui(dw[j], dw[j], 1, MPFR_RNDN);
        }
        if (why)
            break;
        if (!ok) {
            why = "Newton stalled above 2^-(prec-40)";
            break;
        }
        for (size_t j = 0; j < n; j++)
            mpfr_set(I->w[j], wt[j], MPFR_RNDN);
        mpfr_set(gn, gt, MPFR_RNDN);
    }
    for (size_t i = 0; why == NULL && i < I->m; i++) {
        if (fr_logreg_fi(NULL, I->G + i * n, &I->P, i, I->w) != FR_OK)
            why = "fr_logreg_fi failed";
        for (size_t j = 0; j < n; j++)
            mpfr_set(I->W[i * n + j], I->w[j], MPFR_RNDN);
    }
    if (why == NULL && fr_lambda_star(I->lam, I->G, I->m, n) != FR_OK)
        why = "fr_lambda_star failed";
    for (size_t a = 0; a < NMAX * NMAX; a++)
        mpfr_clear(H[a]);
    for (size_t j = 0; j < NMAX; j++)
        mpfr_clears(g[j], wt[j], dw[j], (mpfr_ptr)0);
    mpfr_clears(gn, gt, tol, (mpfr_ptr)0);
    return why;
}

/* ---- pc_exact_penalty_thm -----------------------------------------------------*/

int pc_exact_penalty_thm(pc_ctx *ctx)
{
    inst I;
    mpfr_prec_t p = ctx->prec;
    mpfr_t r1, r2, tol, lam, eta, expect, t;
    char first[300] = "";
    unsigned long zero_set = 0, tests10 = 0, iters = 0;
    double worst_sum = 0.0;
    static const long ETA_E[3] = {-10, 0, -1};   /* 2^-10, 1, and 1000 */

    ctx->function = "stationarity";
    ctx->vector = NULL;
    ctx->claim = "002 Thm III.1: w* of (6) satisfies (9), and (10) for lambda >= lambda* (11) (any eta); r_set > 0 for lambda = lambda*(1-2^-8)";
    ctx->erratum = NULL;
    inst_init(&I, p);
    mpfr_inits2(p, r1, r2, lam, eta, t, (mpfr_ptr)0);
    mpfr_inits2(64, tol, expect, (mpfr_ptr)0);

    unsigned ninst = ctx->cases < NINST ? (unsigned)ctx->cases : NINST;
    for (unsigned k = 0; k < ninst; k++) {
        ctx->ran++;
        const char *why = inst_solve(&I, ctx->seed, k, p);
        iters += I.iters;
        size_t m = I.m, n = I.n;
        if (why == NULL) {
            /* tol = 2^-(prec-48) max(1, lambda*) */
            mpfr_set_ui_2exp(tol, 1, -(long)(p - 48), MPFR_RNDN);
            if (mpfr_cmp_ui(I.lam, 1) > 0)
                mpfr_mul(tol, tol, I.lam, MPFR_RNDU);
            if (mpfr_zero_p(I.lam))
                why = "lambda* = 0";
        }
        /* (9) */
        if (why == NULL) {
            if (fr_stationarity_9(r1, r2, I.G, I.W, I.w, m, n) != FR_OK)
                why = "fr_stationarity_9 failed";
            else if (!mpfr_zero_p(r1))
                why = "(9): r_cons != 0 at W = (w*, ..., w*)";
            else if (mpfr_cmp(r2, tol) > 0)
                why = "(9): r_sum = |sum_i grad f_i(w*)| above tol";
        }
        /* (10) for lambda* and 2 lambda*, three eta */
        for (int lm = 0; lm < 2 && why == NULL; lm++)
            for (int e = 0; e < 3 && why == NULL; e++) {
                mpfr_mul_2ui(lam, I.lam, (unsigned long)lm, MPFR_RNDN);
                mpfr_set_ui_2exp(eta, 1, ETA_E[e], MPFR_RNDN);
                if (e == 2)
                    mpfr_set_ui(eta, 1000, MPFR_RNDN);
                tests10++;
                if (fr_stationarity_10(r1, r2, I.G, I.W, I.w, m, n, lam, eta) != FR_OK)
                    why = "fr_stationarity_10 failed";
                else if (mpfr_cmp(r1, tol) > 0)
                    why = "(10): r_set above tol for lambda >= lambda*";
                else if (mpfr_cmp(r2, tol) > 0)
                    why = "(10): r_sum above tol for lambda >= lambda*";
                else {
                    zero_set += mpfr_zero_p(r1) != 0;
                    double v = mpfr_get_d(r2, MPFR_RNDU) / mpfr_get_d(tol, MPFR_RNDN);
                    if (v > worst_sum)
                        worst_sum = v;
                }
            }
        /* sharpness: lambda = lambda* (1 - 2^-8): r_set = lambda* 2^-8 */
        if (why == NULL) {
            mpfr_div_2ui(t, I.lam, 8, MPFR_RNDN);           /* exact */
            mpfr_set_prec(lam, p + 16);
            mpfr_sub(lam, I.lam, t, MPFR_RNDN);             /* exact at p+16 */
            mpfr_set_ui(eta, 1, MPFR_RNDN);
            if (fr_stationarity_10(r1, r2, I.G, I.W, I.w, m, n, lam, eta) != FR_OK)
                why = "fr_stationarity_10 failed";
            else if (mpfr_cmp(r1, t) < 0)
                why = "lambda < lambda*: r_set below lambda* - lambda";
            else {
                mpfr_set_prec(expect, p + 8);
                mpfr_mul_2si(expect, t, -(long)(p - 8), MPFR_RNDU);
                mpfr_add(expect, expect, t, MPFR_RNDU);     /* t (1 + 2^-(p-8)) */
                if (mpfr_cmp(r1, expect) > 0)
                    why = "lambda < lambda*: r_set above lambda* - lambda";
            }
            mpfr_set_prec(lam, p);
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "instance %u (seed 0x%llx, m=%zu n=%zu): %s",
                         k, (unsigned long long)I.seed, m, n, why);
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu instances (%lu Newton steps): (9) r_cons = 0, r_sum <= tol; (10) "
                     "at lambda*, 2 lambda* x eta {2^-10, 1, 1000}: %lu tests, r_set = 0 "
                     "on %lu, largest r_sum/tol %.3g; lambda*(1-2^-8): r_set = lambda* 2^-8 > 0",
                     ctx->ran, iters, tests10, zero_set, worst_sum);
    inst_clear(&I);
    mpfr_clears(r1, r2, lam, eta, t, tol, expect, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_exact_penalty_eq12 -------------------------------------------------------*/

int pc_exact_penalty_eq12(pc_ctx *ctx)
{
    inst I;
    mpfr_prec_t p = ctx->prec;
    char first[300] = "", wit[300] = "";
    unsigned long entries = 0, printed_fail = 0, inst_fail = 0;

    ctx->function = "lambda_star";
    ctx->vector = NULL;
    ctx->claim = "002 (12): -(grad f_i)_j/lambda <= -lambda* / lambda is false in general; |pi_ij| <= lambda* / lambda <= 1 holds";
    ctx->erratum = "E-002-12";
    inst_init(&I, p);
    unsigned ninst = ctx->cases < NINST ? (unsigned)ctx->cases : NINST;
    for (unsigned k = 0; k < ninst; k++) {
        ctx->ran++;
        const char *why = inst_solve(&I, ctx->seed, k, p);
        unsigned long here = 0;
        for (size_t e = 0; why == NULL && e < I.m * I.n; e++) {
            entries++;
            /* correct: |G_ij| <= lambda* (hence |pi| <= lambda* / lambda <= 1) */
            if (mpfr_cmpabs(I.G[e], I.lam) > 0) {
                why = "|G_ij| > lambda*";
                break;
            }
            /* printed: -G_ij/lambda <= -lambda* / lambda  <=>  G_ij >= lambda* */
            if (mpfr_cmp(I.G[e], I.lam) < 0) {
                printed_fail++;
                here++;
                if (wit[0] == '\0' && mpfr_sgn(I.G[e]) < 0)
                    mpfr_snprintf(wit, sizeof wit,
                                  "instance seed 0x%llx (m=%zu n=%zu d_1=%zu), i=%zu j=%zu: "
                                  "G_ij = %.10Rg, lambda* = %.10Rg: -G_ij/lambda > 0 >= "
                                  "-lambda* / lambda for every lambda > 0",
                                  (unsigned long long)I.seed, I.m, I.n, I.d[0],
                                  e / I.n + 1, e % I.n + 1, I.G[e], I.lam);
            }
        }
        if (why == NULL && here == 0)
            why = "the printed inequality holds on every entry";
        inst_fail += here > 0;
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "instance %u (seed 0x%llx): %s", k,
                         (unsigned long long)I.seed, why);
    }
    if (wit[0] == '\0' && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "no entry with G_ij < 0");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "printed middle inequality of (12) fails on %lu of %lu entries (%lu of "
                 "%lu instances); witness %s; |G_ij| <= lambda* on all entries%s%s",
                 printed_fail, entries, inst_fail, ctx->ran, wit,
                 first[0] ? "; FIRST FAILURE " : "", first);
    inst_clear(&I);
    return ctx->failed ? 1 : 0;
}
