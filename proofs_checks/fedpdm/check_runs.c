/* SPDX-License-Identifier: Apache-2.0 */
/* check_runs.c -- Algorithm 1 of 003 end to end (fr_pdm_run, fedspec/fedpdm.h
 * section "Algorithm 1"): the server step against (8c), erratum E-003-P1.
 *
 * (8c) with (9a) minimises over x_0
 *   F(x_0) = (1/N) sum_{i in [N]} [lambda_i^T (x_0 - x_i) + rho/2 ||x_0 - x_i||^2] + gamma ||x_0||_1,
 * whose smooth part has gradient rho (x_0 - u), u = (1/N) sum_i (x_i -
 * lambda_i / rho): x_0 is the argmin iff, coordinate by coordinate,
 *   x_0k != 0:  rho (x_0k - u_k) + gamma sgn(x_0k) = 0,
 *   x_0k  = 0:  rho |u_k| <= gamma                                  (9a)
 * (the subgradient condition; the minimiser is soft(u, gamma/rho)).
 * pc_fedpdm_runs_8c: seeded noise-free runs of fr_pdm_run (192 bits) on
 * small synthetic problems; u is recomputed independently from the trace's
 * final x_i^T, lambda_i^T at 4p bits (its own error below 2^-(4p-16)
 * relative), and the residual of (9a) at x_0^T is certified <= tol = 2^-176
 * (1 + rho max|u| + gamma) per coordinate (the run's rounding is about
 * 2^-190 of that scale): for SERVER_ALL (every K), and SERVER_PART with K = N
 * or T = 1.  For SERVER_PART with K < N and T >= 2, x_0^T must differ from
 * the argmin (some residual > 2^-100) in most runs (E-003-P1: the mean over
 * S_t is not the argmin over [N]).
 * pc_fedpdm_runs_first: round 0 uses all N clients whatever K (S_0 = [N]),
 * and both servers agree there: for K < N, runs with T = 3 and T = 1 under
 * SERVER_ALL and SERVER_PART have part[0][i] = 1 for every i, the same round-0
 * Q and batch indices, the same x_0^1 bit for bit, and x_0^1 is certified
 * the argmin of (8c) from the T = 1 run's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_RUNS UINT64_C(0x70632d72756e73)   /* "pc-runs" */
#define RUN_PREC 192
#define NMAX 5
#define MAXRUNS 400                               /* ref runs per check (time) */

typedef struct {
    size_t N, m, n, d[NMAX];
    double *A;
    size_t *y;
    double eta[4];
    fr_pdm_problem P;
    fr_pdm_params prm;
} pcase;

static void pcase_free(pcase *c)
{
    free(c->A);
    free(c->y);
    c->A = NULL;
    c->y = NULL;
}

/* A small seeded problem: N 2..5, m 2..3, n 3..5, d_i in [4, 8], b = 2,
 * T 1..4, Qmax 1..3, K 1..N, rule FIXED or (11) (nu = 2e-3), start XI or
 * X0, rho in {2, 10}, eta0 in {0.05, 0.1}, beta = 1e-2, gamma in {1e-3,
 * 1e-2}, x_0^0 = 0, no noise.  0 on success. */
static int pcase_make(pcase *c, frng_t *g)
{
    memset(c, 0, sizeof *c);
    c->N = 2 + pcu_below(g, 4);
    c->m = 2 + pcu_below(g, 2);
    c->n = 3 + pcu_below(g, 3);
    uint64_t seed = pcu_below(g, 1ul << 30);
    if (fr_pdm_synth_sizes(seed, c->N, 4, 8, c->d) != FR_OK) return -1;
    size_t Dt = 0;
    for (size_t i = 0; i < c->N; i++) Dt += c->d[i];
    c->A = malloc(Dt * c->n * sizeof *c->A);
    c->y = malloc(Dt * sizeof *c->y);
    if (c->A == NULL || c->y == NULL || fr_pdm_synth_data(seed, c->N, c->m, c->n, c->d, c->A, c->y) != FR_OK)
        return -1;
    unsigned long T = 1 + pcu_below(g, 4);
    if (fr_pdm_eta_paper(c->eta, T, pcu_below(g, 2) ? 0.1 : 0.05) != FR_OK) return -1;
    c->P = (fr_pdm_problem){.N = c->N, .m = c->m, .n = c->n, .d = c->d, .A = c->A, .y = c->y, .beta = 1e-2,
                            .gamma = pcu_below(g, 2) ? 1e-2 : 1e-3};
    c->prm = (fr_pdm_params){.T = T, .K = 1 + pcu_below(g, c->N), .b = 2, .Qmax = 1 + pcu_below(g, 3),
                             .rule = (int)pcu_below(g, 2), .nu = 2e-3, .rho = pcu_below(g, 2) ? 10 : 2,
                             .eta = c->eta, .start = (int)pcu_below(g, 2), .server = (int)pcu_below(g, 2),
                             .noise = FR_PDM_NOISE_NONE, .x0 = NULL, .seed = pcu_below(g, 1ul << 30),
                             .keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS};
    return 0;
}

/* The largest residual of (9a)'s condition at x_0 = row `row` of t->x0,
 * relative to tol's scale: *res = max_k r_k, *scale = 1 + rho max|u| +
 * gamma; u from t's final x, lambda at precision wp. */
static void residual(const fr_pdm_trace *t, size_t row, double rho_d, double gamma_d, mpfr_prec_t wp, mpfr_t res,
                     mpfr_t scale)
{
    mpfr_t u, v, rho, gam, umax;
    mpfr_inits2(wp, u, v, rho, gam, umax, (mpfr_ptr)0);
    mpfr_set_d(rho, rho_d, MPFR_RNDN);
    mpfr_set_d(gam, gamma_d, MPFR_RNDN);
    mpfr_set_zero(res, 1);
    mpfr_set_zero(umax, 1);
    for (size_t k = 0; k < t->D; k++) {
        mpfr_set_zero(u, 1);
        for (size_t i = 0; i < t->N; i++) {
            mpfr_div(v, t->lam[i * t->D + k], rho, MPFR_RNDN);
            mpfr_sub(v, t->x[i * t->D + k], v, MPFR_RNDN);
            mpfr_add(u, u, v, MPFR_RNDN);
        }
        mpfr_div_ui(u, u, (unsigned long)t->N, MPFR_RNDN);
        mpfr_abs(v, u, MPFR_RNDN);
        mpfr_max(umax, umax, v, MPFR_RNDN);
        mpfr_srcptr x0 = t->x0[row * t->D + k];
        if (mpfr_zero_p(x0)) {                    /* max(0, rho |u| - gamma) */
            mpfr_mul(v, v, rho, MPFR_RNDN);
            mpfr_sub(v, v, gam, MPFR_RNDN);
            if (mpfr_sgn(v) < 0) mpfr_set_zero(v, 1);
        } else {                                  /* |rho (x0 - u) + gamma sgn x0| */
            mpfr_sub(v, x0, u, MPFR_RNDN);
            mpfr_mul(v, v, rho, MPFR_RNDN);
            if (mpfr_sgn(x0) > 0) mpfr_add(v, v, gam, MPFR_RNDN);
            else mpfr_sub(v, v, gam, MPFR_RNDN);
            mpfr_abs(v, v, MPFR_RNDN);
        }
        mpfr_max(res, res, v, MPFR_RNDU);
    }
    mpfr_mul(scale, umax, rho, MPFR_RNDU);
    mpfr_add(scale, scale, gam, MPFR_RNDU);
    mpfr_add_ui(scale, scale, 1, MPFR_RNDU);
    mpfr_clears(u, v, rho, gam, umax, (mpfr_ptr)0);
}

/* 1 if res <= 2^e scale. */
static int below(const mpfr_t res, const mpfr_t scale, long e)
{
    mpfr_t b;
    mpfr_init2(b, mpfr_get_prec(scale));
    mpfr_mul_2si(b, scale, e, MPFR_RNDD);
    int ok = mpfr_cmp(res, b) <= 0;
    mpfr_clear(b);
    return ok;
}

static int run(fr_pdm_trace *t, const pcase *c, const fr_pdm_params *prm)
{
    memset(t, 0, sizeof *t);
    int st = fr_pdm_trace_init(t, &c->P, prm, RUN_PREC);
    if (st == FR_OK) st = fr_pdm_run(t, &c->P, prm);
    return st;
}

int pc_fedpdm_runs_8c(pc_ctx *ctx)
{
    frng_t g;
    mpfr_prec_t wp = 4 * ctx->prec;
    mpfr_t res, scale;
    mpfr_inits2(wp, res, scale, (mpfr_ptr)0);
    long worst = -100000;                         /* log2 of the largest residual / scale, about */
    unsigned long exact = 0, partial13 = 0, differ = 0, nruns = ctx->cases < MAXRUNS ? ctx->cases : MAXRUNS;
    char first[300] = "";
    ctx->function = "pdm_run";
    ctx->vector = "fedpdm_run_partial";
    ctx->claim = "003 Algorithm 1 (8c)+(9a): x_0^T is the argmin over all N (subgradient condition certified per "
                 "coordinate) for SERVER_ALL and for SERVER_PART with K = N or T = 1; SERVER_PART with K < N is not (E-003-P1)";
    ctx->erratum = "E-003-P1";
    frng_init(&g, ctx->seed, STREAM_RUNS);
    if (nruns < 100) nruns = 100;
    for (unsigned long r = 0; r < nruns; r++) {
        pcase c;
        fr_pdm_trace t;
        memset(&t, 0, sizeof t);
        int st = pcase_make(&c, &g) == 0 ? FR_OK : FR_ENOMEM;
        if (st == FR_OK && r % 3 == 0) {           /* every third: SERVER_PART with K < N, T >= 2 */
            c.prm.server = FR_PDM_SERVER_PART;
            c.prm.K = 1 + pcu_below(&g, c.N - 1);
            if (c.prm.T < 2) c.prm.T = 2;
            fr_pdm_eta_paper(c.eta, c.prm.T, c.eta[0]);
        }
        if (st == FR_OK) st = run(&t, &c, &c.prm);
        ctx->ran++;
        if (st != FR_OK) {
            ctx->failed++;
            if (!first[0]) snprintf(first, sizeof first, "run %lu: %s", r, fr_strerror(st));
        } else {
            residual(&t, c.prm.T, c.prm.rho, c.P.gamma, wp, res, scale);
            int must = c.prm.server == FR_PDM_SERVER_ALL || c.prm.K == c.N || c.prm.T == 1;
            if (must) {
                exact++;
                if (!mpfr_zero_p(res)) {
                    long e = (long)mpfr_get_exp(res) - (long)mpfr_get_exp(scale);
                    if (e > worst) worst = e;
                }
                if (!below(res, scale, -176)) {
                    ctx->failed++;
                    if (!first[0])
                        snprintf(first, sizeof first, "run %lu (N %zu K %zu T %lu server %d): (9a) residual %.3g "
                                 "above 2^-176 scale", r, c.N, c.prm.K, c.prm.T, c.prm.server,
                                 mpfr_get_d(res, MPFR_RNDU));
                }
            } else {
                partial13++;
                differ += !below(res, scale, -100);
            }
        }
        fr_pdm_trace_clear(&t);
        pcase_free(&c);
    }
    if (partial13 == 0 || 2 * differ <= partial13) {
        ctx->failed++;
        if (!first[0])
            snprintf(first, sizeof first, "SERVER_PART with K < N differed from the argmin in only %lu of %lu runs", differ,
                     partial13);
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail, "%lu runs certified the argmin of (8c) (SERVER_ALL, or K = N, or "
                 "T = 1; largest residual about 2^%ld scale); SERVER_PART (the participants' mean) with K < N, T >= 2 differed in %lu of %lu runs "
                 "(E-003-P1)", exact, worst, differ, partial13);
    mpfr_clears(res, scale, (mpfr_ptr)0);
    return ctx->failed != 0;
}

int pc_fedpdm_runs_first(pc_ctx *ctx)
{
    frng_t g;
    mpfr_prec_t wp = 4 * ctx->prec;
    mpfr_t res, scale;
    mpfr_inits2(wp, res, scale, (mpfr_ptr)0);
    unsigned long ncase = ctx->cases < MAXRUNS / 4 ? ctx->cases : MAXRUNS / 4;
    char first[300] = "";
    ctx->function = "pdm_run";
    ctx->vector = "fedpdm_run_partial";
    ctx->claim = "003 Algorithm 1, round 0: S_0 = [N] whatever K, and SERVER_ALL and SERVER_PART give the same x_0^1, "
                 "the argmin of (8c)";
    ctx->erratum = NULL;
    frng_init(&g, ctx->seed, STREAM_RUNS + 1);
    if (ncase < 25) ncase = 25;
    for (unsigned long r = 0; r < ncase; r++) {
        pcase c;
        fr_pdm_trace t[4];
        memset(t, 0, sizeof t);
        int st = pcase_make(&c, &g) == 0 ? FR_OK : FR_ENOMEM;
        if (st == FR_OK) {
            c.prm.K = 1 + pcu_below(&g, c.N - 1);          /* K < N */
            c.prm.T = 3;
            st = fr_pdm_eta_paper(c.eta, 3, c.eta[0]);
        }
        for (int k = 0; k < 4 && st == FR_OK; k++) {
            fr_pdm_params p = c.prm;
            p.server = k & 1 ? FR_PDM_SERVER_PART : FR_PDM_SERVER_ALL;
            p.T = k & 2 ? 1 : 3;
            st = run(&t[k], &c, &p);
        }
        ctx->ran++;
        const char *why = NULL;
        if (st != FR_OK) {
            why = fr_strerror(st);
        } else {
            size_t N = c.N, D = t[0].D, nd0 = 0;
            for (size_t i = 0; i < N; i++) nd0 += t[0].Q[i] * c.prm.b;
            for (int k = 0; k < 4 && !why; k++) {
                for (size_t i = 0; i < N && !why; i++)
                    if (t[k].part[i] != 1 || t[k].Q[i] != t[0].Q[i] || t[k].Q[i] == 0)
                        why = "round 0: a client absent, or Q_i^0 differs";
                if (!why && (t[k].nd < nd0 || memcmp(t[k].draws, t[0].draws, nd0 * sizeof *t[0].draws) != 0))
                    why = "round 0: the batch indices differ";
                for (size_t j = 0; j < D && !why; j++)
                    if (!mpfr_equal_p(t[k].x0[D + j], t[0].x0[D + j])
                        || mpfr_signbit(t[k].x0[D + j]) != mpfr_signbit(t[0].x0[D + j]))
                        why = "x_0^1 differs between the servers or between T = 1 and T = 3";
            }
            if (!why) {
                int partsome = 0;
                for (size_t i = 0; i < N; i++) partsome += t[0].part[N + i];
                if ((size_t)partsome != c.prm.K) why = "round 1: |S_1| != K";
            }
            for (int k = 2; k < 4 && !why; k++) {
                residual(&t[k], 1, c.prm.rho, c.P.gamma, wp, res, scale);
                if (!below(res, scale, -176)) why = "x_0^1 is not certified the argmin of (8c)";
            }
        }
        if (why) {
            ctx->failed++;
            if (!first[0])
                snprintf(first, sizeof first, "case %lu (N %zu K %zu): %s", r, c.N, c.prm.K, why);
        }
        for (int k = 0; k < 4; k++) fr_pdm_trace_clear(&t[k]);
        pcase_free(&c);
    }
    if (first[0])
        snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        snprintf(ctx->detail, sizeof ctx->detail, "%lu cases with K < N: S_0 = [N], the same round-0 Q and "
                 "batches, x_0^1 equal bit for bit under both servers and T = 1, 3, and the argmin of (8c)", ncase);
    mpfr_clears(res, scale, (mpfr_ptr)0);
    return ctx->failed != 0;
}
