/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_runs.c -- the checkpoint files of Algorithm 1 of 003 (FedPDM-DP,
 * fedspec/fedpdm.h section "Algorithm 1", docs/FEDPDM.md 5): vector
 * functions fedpdm_run_full, fedpdm_run_partial, fedpdm_run_noise and
 * fedpdm_run_rule11, one schema:
 *   params  seed, T, K, b, Qmax, rule, nu, rho, start, server, noise, eps,
 *           delta, G, clip: the fields of fr_pdm_params (integers and enums
 *           as decimals; keep is always KEEP_X0 | KEEP_DRAWS | KEEP_P |
 *           KEEP_F; every field is present, the run ignores those its
 *           options do not use)
 *   inputs  x0 (m x n: x_0^0; m is its row count), A (D x n), y (D
 *           labels), d (N client sizes), bg (beta, gamma), eta (T
 *           stepsizes), sigma (T scales: NOISE_GIVEN's, else unused)
 *   expect  x0 ((T+1) x mn: every x_0^t), x, lam (N x mn: x_i^T,
 *           lambda_i^T), P, Px, Plam, Px0, F (T+1: (21) and its parts and
 *           (24) at every state), part, Q, capped, sigma, stop2 (T x N:
 *           the per-(round, client) records of fedref/fedpdm.h), draws (1 x
 *           nd: every mini-batch index, in draw order)
 * A Px0 below 2^-(p/2) (ref at p bits) is written as 0: where the server
 * step is exact in exact arithmetic (SERVER_ALL without noise, and round 0)
 * the exact Px0 is 0 and ref's value is a rounding residue of order
 * 2^-2p that no precision certifies (docs/FEDPDM.md 5).
 * ref runs at working precision p; certification by precision doubling
 * (vgen.c, iterative).  tol for binary64: rel = abs = VPDM_RUN_TOL
 * (empirical).  Every input and every draw follows from the case comment
 * and docs/RNG.md 3.10 (docs/rng_reference.py, ci/vectors-docs.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdm_common.h"
#include "pdm_runs.h"

unsigned long vpdm_work_max = VPDM_WORK_MAX;

#define RUN_PARAMS(X)                                                          \
    X(seed) X(T) X(K) X(b) X(Qmax) X(rule) X(nu) X(rho) X(start) X(server)     \
    X(noise) X(eps) X(delta) X(G) X(clip)
#define AS_ENUM(name) P_##name,
#define AS_SPEC(name) {#name, VK_SCALAR},
enum { RUN_PARAMS(AS_ENUM) NPAR };
enum { I_X0, I_A, I_Y, I_D, I_BG, I_ETA, I_SIGMA, NIN };
enum { E_X0, E_X, E_LAM, E_P, E_PX, E_PLAM, E_PX0, E_F, E_PART, E_Q, E_CAPPED, E_SIGMA, E_STOP2, E_DRAWS, NEXP };

static const vspec params[] = {RUN_PARAMS(AS_SPEC) {NULL, 0}};
static const vspec inputs[] = {{"x0", VK_MATRIX}, {"A", VK_MATRIX}, {"y", VK_VECTOR}, {"d", VK_VECTOR},
                               {"bg", VK_VECTOR}, {"eta", VK_VECTOR}, {"sigma", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {
    {"x0", VK_MATRIX}, {"x", VK_MATRIX}, {"lam", VK_MATRIX}, {"P", VK_VECTOR}, {"Px", VK_VECTOR},
    {"Plam", VK_VECTOR}, {"Px0", VK_VECTOR}, {"F", VK_VECTOR}, {"part", VK_MATRIX, .cmp = VC_INT},
    {"Q", VK_MATRIX, .cmp = VC_INT},
    {"capped", VK_MATRIX, .cmp = VC_INT}, {"sigma", VK_MATRIX}, {"stop2", VK_MATRIX}, {"draws", VK_VECTOR, .cmp = VC_INT}, {NULL, 0}};

#define KEEP_ALL (FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P | FR_PDM_KEEP_F)

/* A count or enum held in a binary64: FR_ENONFINITE, or FR_EDOM unless a
 * non-negative integer <= 2^40 (larger ones are clamped to 2^40: every
 * library limit is below it, so the library answers FR_ESIZE/FR_EDOM). */
static int to_count(double x, unsigned long *out)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (!(x >= 0) || x != floor(x)) return FR_EDOM;
    *out = (unsigned long)(x > 0x1p40 ? 0x1p40 : x);
    return FR_OK;
}

typedef struct {
    fr_pdm_problem P;
    fr_pdm_params prm;
    size_t *y, *d;
} run_in;

static void run_free(run_in *r)
{
    free(r->y);
    free(r->d);
    r->y = r->d = NULL;
}

/* The problem and parameters of a case from binary64 fields (y, d allocated). */
static int build(run_in *r, const double *par, const ftensor *in)
{
    unsigned long v[NPAR] = {0};
    int st = FR_OK;
    static const int counts[] = {P_seed, P_T, P_K, P_b, P_Qmax, P_rule, P_start, P_server, P_noise, P_clip};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0] && st == FR_OK; k++)
        st = to_count(par[counts[k]], &v[counts[k]]);
    if (st != FR_OK) return st;
    size_t m = in[I_X0].rows, n = in[I_X0].cols, Dt = in[I_A].rows, N = in[I_D].cols, T = v[P_T];
    if (in[I_A].cols != n || in[I_Y].cols != Dt || in[I_BG].cols != 2 || in[I_ETA].cols != T
        || in[I_SIGMA].cols != T)
        return FR_ESIZE;
    r->y = malloc((Dt ? Dt : 1) * sizeof *r->y);
    r->d = malloc((N ? N : 1) * sizeof *r->d);
    if (r->y == NULL || r->d == NULL) { run_free(r); return FR_ENOMEM; }
    if (pdm_labels(r->d, in[I_D].v, N) != FR_OK) return FR_ESIZE;
    size_t sum = 0;
    for (size_t i = 0; i < N; i++) sum += r->d[i] > Dt ? Dt + 1 : r->d[i];
    if (sum != Dt) return FR_ESIZE;
    if (pdm_labels(r->y, in[I_Y].v, Dt) != FR_OK) return FR_ESIZE;
    double work = (double)T * ((double)N * (double)v[P_Qmax] * (double)v[P_b] + ((double)T + 1) * (double)Dt)
                  * (double)m * (double)n;
    if (work > (double)vpdm_work_max) return FR_ESIZE;
    r->P = (fr_pdm_problem){.N = N, .m = m, .n = n, .d = r->d, .A = in[I_A].v, .y = r->y,
                            .beta = in[I_BG].v[0], .gamma = in[I_BG].v[1]};
    r->prm = (fr_pdm_params){.T = T, .K = v[P_K], .b = v[P_b], .Qmax = v[P_Qmax],
                             .rule = (int)(v[P_rule] > 100 ? 100 : v[P_rule]), .nu = par[P_nu],
                             .rho = par[P_rho], .eta = in[I_ETA].v,
                             .start = (int)(v[P_start] > 100 ? 100 : v[P_start]),
                             .server = (int)(v[P_server] > 100 ? 100 : v[P_server]),
                             .noise = (int)(v[P_noise] > 100 ? 100 : v[P_noise]), .eps = par[P_eps],
                             .delta = par[P_delta], .G = par[P_G], .sigma = in[I_SIGMA].v,
                             .clip = v[P_clip] != 0, .x0 = in[I_X0].v, .seed = v[P_seed], .keep = KEEP_ALL};
    if (v[P_clip] > 1) return FR_EDOM;          /* the schema: clip is 0 or 1 */
    return FR_OK;
}

static void shapes(size_t T, size_t N, size_t D, size_t nd, size_t rows[NEXP], size_t cols[NEXP])
{
    const size_t R[NEXP] = {T + 1, N, N, 1, 1, 1, 1, 1, T, T, T, T, T, 1};
    const size_t C[NEXP] = {D, D, D, T + 1, T + 1, T + 1, T + 1, T + 1, N, N, N, N, N, nd};
    memcpy(rows, R, sizeof R);
    memcpy(cols, C, sizeof C);
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    double p[NPAR];
    ftensor fin[NIN] = {{0}};
    int st = FR_OK;
    for (size_t k = 0; k < NPAR && st == FR_OK; k++) st = rt_exact_double(&p[k], par[k].v[0]);
    for (size_t k = 0; k < NIN && st == FR_OK; k++) {
        if (ft_alloc(&fin[k], in[k].rows, in[k].cols) != 0) { st = FR_ENOMEM; break; }
        for (size_t i = 0; i < in[k].rows * in[k].cols && st == FR_OK; i++)
            st = rt_exact_double(&fin[k].v[i], in[k].v[i]);
    }
    run_in r = {0};
    fr_pdm_trace t;
    memset(&t, 0, sizeof t);
    if (st == FR_OK) st = build(&r, p, fin);
    if (st == FR_OK) st = fr_pdm_trace_init(&t, &r.P, &r.prm, prec);
    if (st == FR_OK) st = fr_pdm_run(&t, &r.P, &r.prm);
    if (st == FR_OK && t.rounds != t.T) st = FR_EINTERNAL;
    if (st == FR_OK) {
        size_t T = t.T, N = t.N, D = t.D, R = T * N, rows[NEXP], cols[NEXP];
        shapes(T, N, D, t.nd, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (rt_alloc(&out[k], rows[k], cols[k], prec) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            for (size_t k = 0; k < (T + 1) * D; k++) mpfr_set(out[E_X0].v[k], t.x0[k], MPFR_RNDN);
            for (size_t k = 0; k < N * D; k++) {
                mpfr_set(out[E_X].v[k], t.x[k], MPFR_RNDN);
                mpfr_set(out[E_LAM].v[k], t.lam[k], MPFR_RNDN);
            }
            for (size_t k = 0; k <= T; k++) {
                mpfr_set(out[E_PX].v[k], t.Px[k], MPFR_RNDN);
                mpfr_set(out[E_PLAM].v[k], t.Plam[k], MPFR_RNDN);
                mpfr_set(out[E_PX0].v[k], t.Px0[k], MPFR_RNDN);
                mpfr_set(out[E_P].v[k], t.P[k], MPFR_RNDN);
                mpfr_set(out[E_F].v[k], t.F[k], MPFR_RNDN);
                /* a rounding residue of an exact 0 (the header comment) */
                if (mpfr_number_p(t.Px0[k]) && mpfr_cmp_si_2exp(t.Px0[k], 1, -(long)(prec / 2)) <= 0) {
                    mpfr_set_zero(out[E_PX0].v[k], 1);
                    mpfr_add(out[E_P].v[k], t.Px[k], t.Plam[k], MPFR_RNDN);
                }
            }
            for (size_t k = 0; k < R; k++) {
                mpfr_set_ui(out[E_PART].v[k], t.part[k], MPFR_RNDN);
                mpfr_set_ui(out[E_Q].v[k], t.Q[k], MPFR_RNDN);
                mpfr_set_ui(out[E_CAPPED].v[k], t.capped[k], MPFR_RNDN);
                mpfr_set(out[E_SIGMA].v[k], t.sigma[k], MPFR_RNDN);
                mpfr_set(out[E_STOP2].v[k], t.stop2[k], MPFR_RNDN);
            }
            for (size_t k = 0; k < t.nd; k++) mpfr_set_ui(out[E_DRAWS].v[k], (unsigned long)t.draws[k], MPFR_RNDN);
        }
    }
    fr_pdm_trace_clear(&t);
    run_free(&r);
    for (size_t k = 0; k < NIN; k++) ft_free(&fin[k]);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    double p[NPAR];
    for (size_t k = 0; k < NPAR; k++) p[k] = par[k].v[0];
    run_in r = {0};
    ff_pdm_trace t;
    memset(&t, 0, sizeof t);
    int st = build(&r, p, in);
    if (st == FR_OK) st = ff_pdm_trace_init(&t, &r.P, &r.prm);
    if (st == FR_OK) st = ff_pdm_run(&t, &r.P, &r.prm);
    if (st == FR_OK && t.rounds != t.T) st = FR_EINTERNAL;
    if (st == FR_OK) {
        size_t T = t.T, N = t.N, D = t.D, R = T * N, rows[NEXP], cols[NEXP];
        shapes(T, N, D, t.nd, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (ft_alloc(&out[k], rows[k], cols[k]) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            memcpy(out[E_X0].v, t.x0, (T + 1) * D * sizeof(double));
            memcpy(out[E_X].v, t.x, N * D * sizeof(double));
            memcpy(out[E_LAM].v, t.lam, N * D * sizeof(double));
            memcpy(out[E_P].v, t.P, (T + 1) * sizeof(double));
            memcpy(out[E_PX].v, t.Px, (T + 1) * sizeof(double));
            memcpy(out[E_PLAM].v, t.Plam, (T + 1) * sizeof(double));
            memcpy(out[E_PX0].v, t.Px0, (T + 1) * sizeof(double));
            memcpy(out[E_F].v, t.F, (T + 1) * sizeof(double));
            for (size_t k = 0; k < R; k++) {
                out[E_PART].v[k] = t.part[k];
                out[E_Q].v[k] = (double)t.Q[k];
                out[E_CAPPED].v[k] = t.capped[k];
            }
            memcpy(out[E_SIGMA].v, t.sigma, R * sizeof(double));
            memcpy(out[E_STOP2].v, t.stop2, R * sizeof(double));
            for (size_t k = 0; k < t.nd; k++) out[E_DRAWS].v[k] = (double)t.draws[k];
        }
    }
    ff_pdm_trace_clear(&t);
    run_free(&r);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = VPDM_RUN_TOL;
    *abs = VPDM_RUN_TOL;
}

/* ---- the golden cases ------------------------------------------------------ */

/* Param rows: seed, T, K, b, Qmax, rule, nu, rho, start, server, noise, eps,
 * delta, G, clip. */
#define PRM(...) ((const double[]){__VA_ARGS__})
enum { R11 = FR_PDM_RULE_11, FIX = FR_PDM_RULE_FIXED, XI = FR_PDM_START_XI, X0 = FR_PDM_START_X0,
       ALL = FR_PDM_SERVER_ALL, PART = FR_PDM_SERVER_PART, S13P = FR_PDM_SERVER_13_AS_PRINTED,
       NONE = FR_PDM_NOISE_NONE, PAPER = FR_PDM_NOISE_PAPER, GIVEN = FR_PDM_NOISE_GIVEN };

static uint64_t group_seed;
static unsigned long group_T;

static void group(vgen *g, const char *comment, const double *prm)
{
    group_seed = (uint64_t)prm[P_seed];
    group_T = (unsigned long)prm[P_T];
    vg_group(g, comment, prm);
}

/* The data of one case (docs/FEDPDM.md 4.5 and 5, docs/RNG.md 3.10). */
typedef struct {
    uint64_t seed;                 /* data seed */
    size_t N, m, n, dmin, dmax;
    double beta, gamma;
    int x0seeded;                  /* x0 from stream (data seed, 2); else 0 */
    double eta0;                   /* eta = fr_pdm_eta_paper(T, eta0) */
    const double *sigma;           /* NOISE_GIVEN: T scales; NULL: zeros (unused) */
} pdm_data;

/* Edits of a case (the invalid ones). */
enum { ED_NONE, ED_A_NAN, ED_LABEL_M, ED_X0_INF, ED_ETA_ZERO, ED_SIGMA_NEG, ED_SIGMA_SHORT };

/* One golden case: the synthetic problem fr_pdm_synth_sizes/_data(seed, N,
 * m, n, [dmin, dmax]), x0 zero or seeded (x0_k = (below(129) - 64) 2^-6, k
 * = 0..mn-1, stream (data seed, 2)), eta = fr_pdm_eta_paper(T, eta0), sigma
 * given or zero; then the edit.  The comment is `what`, then the data and
 * the run seed in the fixed form docs/rng_reference.py reads ("Data: pdm
 * synthetic seed S, N = .., m = .., n = .., d in [a, b], beta = .., gamma =
 * .., x0 zero|seeded, eta0 = .., sigma s0 s1 ..|zero; run seed R"). */
static void run_case(vgen *g, const char *what, const char *flags, int invalid, const pdm_data *dt, int edit)
{
    size_t N = dt->N, m = dt->m, n = dt->n, T = group_T, d[16], Dt = 0;
    if (N > 16 || fr_pdm_synth_sizes(dt->seed, N, dt->dmin, dt->dmax, d) != FR_OK) {
        fprintf(stderr, "vectors/fedpdm/pdm_runs.c: the synthetic sizes failed\n");
        abort();                               /* the generator's own data: a bug */
    }
    for (size_t i = 0; i < N; i++) Dt += d[i];
    double *A = malloc(Dt * n * sizeof *A), *yd = malloc(Dt * sizeof *yd), *x0 = malloc(m * n * sizeof *x0);
    double *eta = malloc(T * sizeof *eta), *sg = malloc(T * sizeof *sg), dd[16], bg[2] = {dt->beta, dt->gamma};
    size_t *y = malloc(Dt * sizeof *y);
    if (A == NULL || yd == NULL || x0 == NULL || eta == NULL || sg == NULL || y == NULL
        || fr_pdm_synth_data(dt->seed, N, m, n, d, A, y) != FR_OK || fr_pdm_eta_paper(eta, T, dt->eta0) != FR_OK) {
        fprintf(stderr, "vectors/fedpdm/pdm_runs.c: the synthetic problem (seed %llu) failed\n",
                (unsigned long long)dt->seed);
        abort();
    }
    frng_t gx;
    frng_init(&gx, dt->seed, 2);
    for (size_t k = 0; k < m * n; k++) {
        uint64_t r = 64;
        if (dt->x0seeded) frng_below(&gx, 129, &r);
        x0[k] = ldexp((double)r - 64, -6);
    }
    for (size_t t = 0; t < Dt; t++) yd[t] = (double)y[t];
    for (size_t i = 0; i < N; i++) dd[i] = (double)d[i];
    for (size_t t = 0; t < T; t++) sg[t] = dt->sigma ? dt->sigma[t] : 0;
    size_t ns = T;
    const char *ed = "";
    switch (edit) {
    case ED_A_NAN: A[n + 1] = NAN; ed = ", then A[1][1] = nan"; break;
    case ED_LABEL_M: yd[0] = (double)m; ed = ", then y_0 = m"; break;
    case ED_X0_INF: x0[m * n - 1] = INFINITY; ed = ", then the last entry of x0 = inf"; break;
    case ED_ETA_ZERO: eta[T - 1] = 0; ed = ", then the last eta = 0"; break;
    case ED_SIGMA_NEG: sg[T - 1] = -sg[T - 1] - 0.5; ed = ", then the last sigma = -(sigma + 0.5)"; break;
    case ED_SIGMA_SHORT: ns = T - 1; ed = ", then sigma without its last entry"; break;
    default: break;
    }
    char sgt[400] = "zero", text[1400];
    if (dt->sigma) {
        sgt[0] = 0;
        for (size_t t = 0; t < T; t++) {
            size_t len = strlen(sgt);
            snprintf(sgt + len, sizeof sgt - len, "%s%.17g", t ? " " : "", dt->sigma[t]);
        }
    }
    snprintf(text, sizeof text, "%s. Data: pdm synthetic seed %llu, N = %zu, m = %zu, n = %zu, d in [%zu, %zu], "
             "beta = %.17g, gamma = %.17g, x0 %s, eta0 = %.17g, sigma %s%s; run seed %llu", what,
             (unsigned long long)dt->seed, N, m, n, dt->dmin, dt->dmax, dt->beta, dt->gamma,
             dt->x0seeded ? "seeded" : "zero", dt->eta0, sgt, ed, (unsigned long long)group_seed);
    vg_case(g, text, flags, invalid,
            (ftensor[]){{m, n, x0}, {Dt, n, A}, {1, Dt, yd}, {1, N, dd}, {1, 2, bg}, {1, T, eta}, {1, ns, sg}});
    free(A);
    free(yd);
    free(x0);
    free(eta);
    free(sg);
    free(y);
}

/* The problems (beta = 1e-2 as Sec. V-A; gamma = 1e-3 so that some
 * entries of x_0 are thresholded to 0). */
#define DATA(seed_, N_, m_, n_, a_, b_, x0s_, eta0_, sig_) \
    (&(const pdm_data){.seed = seed_, .N = N_, .m = m_, .n = n_, .dmin = a_, .dmax = b_, .beta = 1e-2, \
                       .gamma = 1e-3, .x0seeded = x0s_, .eta0 = eta0_, .sigma = sig_})

static void golden_full(vgen *g)
{
    group(g, "full participation K = N, noise-free, rule FIXED Q = 3, rho = 10, start XI, server ALL",
          PRM(11, 4, 4, 2, 3, FIX, 0, 10, XI, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-full,pdm-exact-server", 0, DATA(41, 4, 2, 5, 6, 10, 0, 0.05, NULL),
             ED_NONE);
    run_case(g, "four clients, x0 seeded", "trajectory,pdm-full,pdm-exact-server", 0,
             DATA(42, 4, 3, 4, 6, 9, 1, 0.05, NULL), ED_NONE);
    group(g, "the same with server PART (the participants' mean): K = N, so it is the argmin of (8c) too (E-003-P1)",
          PRM(11, 4, 4, 2, 3, FIX, 0, 10, XI, PART, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-full,pdm-exact-server", 0, DATA(41, 4, 2, 5, 6, 10, 0, 0.05, NULL),
             ED_NONE);
    group(g, "full participation, start X0 (x^{t,0} = x_0^t), Q = 2, b = 3",
          PRM(12, 3, 3, 3, 2, FIX, 0, 10, X0, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "three clients, x0 seeded", "trajectory,pdm-full,pdm-start-x0,pdm-exact-server", 0,
             DATA(43, 3, 2, 6, 6, 12, 1, 0.05, NULL), ED_NONE);
    group(g, "one round T = 1, one local step Q = 1, server PART (K = 1: only round 0, where S_0 = [N])",
          PRM(13, 1, 1, 2, 1, FIX, 0, 10, XI, PART, NONE, 0, 0, 0, 0));
    run_case(g, "five clients", "trajectory,pdm-full,pdm-exact-server", 0, DATA(44, 5, 2, 4, 6, 8, 1, 0.05, NULL),
             ED_NONE);
    group(g, "clipped gradients, G = 0.05 (fedref's extension: ||g|| <= G by construction)",
          PRM(14, 4, 4, 2, 3, FIX, 0, 10, XI, ALL, NONE, 0, 0, 0.05, 1));
    run_case(g, "four clients, x0 seeded", "trajectory,pdm-full,pdm-clip,pdm-exact-server", 0,
             DATA(42, 4, 3, 4, 6, 9, 1, 0.05, NULL), ED_NONE);
}

static void golden_partial(vgen *g)
{
    group(g, "partial participation K = 2 of N = 5, noise-free, server ALL (the argmin of (8c): E-003-P1)",
          PRM(21, 5, 2, 2, 3, FIX, 0, 10, XI, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "five clients", "trajectory,pdm-partial,pdm-exact-server", 0, DATA(51, 5, 2, 5, 6, 10, 1, 0.05, NULL),
             ED_NONE);
    run_case(g, "six clients, three classes", "trajectory,pdm-partial,pdm-exact-server", 0,
             DATA(52, 6, 3, 4, 6, 8, 0, 0.05, NULL), ED_NONE);
    group(g, "the same with server PART (the mean over S_t only, (13) with 1/|S_t|): Px0 > 0 after rounds t >= 1",
          PRM(21, 5, 2, 2, 3, FIX, 0, 10, XI, PART, NONE, 0, 0, 0, 0));
    run_case(g, "five clients", "trajectory,pdm-partial,pdm-server13", 0, DATA(51, 5, 2, 5, 6, 10, 1, 0.05, NULL),
             ED_NONE);
    run_case(g, "six clients, three classes", "trajectory,pdm-partial,pdm-server13", 0,
             DATA(52, 6, 3, 4, 6, 8, 0, 0.05, NULL), ED_NONE);
    group(g, "K = 1 of N = 4, start X0, server PART", PRM(22, 6, 1, 3, 2, FIX, 0, 10, X0, PART, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-partial,pdm-start-x0,pdm-server13", 0,
             DATA(53, 4, 2, 4, 6, 9, 1, 0.05, NULL), ED_NONE);
    group(g, "server (13) as printed, 1/K (SERVER_13_AS_PRINTED): S_0 = [N], so x_0^1 is soft of N/K = 2 times "
             "the mean (E-003-13); K = 2 of N = 4",
          PRM(23, 3, 2, 2, 2, FIX, 0, 10, XI, S13P, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-partial,pdm-server13-printed", 0, DATA(54, 4, 2, 4, 6, 9, 1, 0.05, NULL),
             ED_NONE);
}

static const double SIG_GIVEN[6] = {0, 0.01, 0.02, 0.005, 0.01, 0.03};

static void golden_noise(vgen *g)
{
    group(g, "noise (12) with the paper's sigma (18) of (19): eps = 1, delta = 1e-5, G = 1, clip, K = N",
          PRM(31, 3, 3, 2, 2, FIX, 0, 10, XI, ALL, PAPER, 1, 1e-5, 1, 1));
    run_case(g, "three clients", "trajectory,pdm-full,pdm-noise-paper,pdm-clip", 0,
             DATA(61, 3, 2, 4, 6, 8, 1, 0.05, NULL), ED_NONE);
    group(g, "the paper's sigma, K = 2 of N = 4, server PART, start X0, eps = 4",
          PRM(32, 4, 2, 2, 3, FIX, 0, 10, X0, PART, PAPER, 4, 1e-5, 1, 1));
    run_case(g, "four clients", "trajectory,pdm-partial,pdm-noise-paper,pdm-clip,pdm-server13,pdm-start-x0", 0,
             DATA(62, 4, 2, 5, 6, 9, 0, 0.05, NULL), ED_NONE);
    group(g, "given scales sigma^t (sigma^0 = 0: no draw in round 0), K = 3 of N = 4, server ALL, no clip",
          PRM(33, 6, 3, 2, 2, FIX, 0, 10, XI, ALL, GIVEN, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-partial,pdm-noise-given", 0,
             DATA(63, 4, 2, 4, 6, 10, 1, 0.05, SIG_GIVEN), ED_NONE);
    run_case(g, "three clients with m = 3, n = 6 (D = 18 even)", "trajectory,pdm-partial,pdm-noise-given", 0,
             DATA(64, 3, 3, 6, 6, 8, 0, 0.05, SIG_GIVEN), ED_NONE);
    run_case(g, "three clients with m = 3, n = 5 (D = 15 odd: the last z1 of each upload unused)",
             "trajectory,pdm-partial,pdm-noise-given", 0, DATA(65, 3, 3, 5, 6, 8, 0, 0.05, SIG_GIVEN), ED_NONE);
}

/* nu = ||v||^2 of client 0's first local step (round 0, start XI, x_0^0 =
 * 0, no clip, b = 2): at X = 0 every u_t = 0, sigma(0) = 1/2, the beta
 * term vanishes, so v = g = -(1/4) sum_{t in B, y_t = k} A_tl exactly (the
 * features are k 2^-8): ||v||^2 is a dyadic number, computed here exactly
 * in binary64 from the first batch of stream (run seed, 2) and the data.
 * Rule (11) holds with equality: Q_0^0 = 1. */
static double nu_at_first_step(uint64_t dseed, size_t N, size_t m, size_t n, size_t dmin, size_t dmax,
                               uint64_t rseed)
{
    size_t d[16], Dt = 0, B[2], y[256];
    double A[256 * 8], v[64] = {0}, s = 0;
    if (N > 16 || n > 8 || m * n > 64 || fr_pdm_synth_sizes(dseed, N, dmin, dmax, d) != FR_OK) abort();
    for (size_t i = 0; i < N; i++) Dt += d[i];
    if (Dt > 256 || fr_pdm_synth_data(dseed, N, m, n, d, A, y) != FR_OK) abort();
    frng_t g;
    frng_init(&g, rseed, FR_PDM_STREAM_BATCH + 0);
    if (frng_sample(&g, d[0], 2, B) != FR_OK) abort();
    for (int r = 0; r < 2; r++)                  /* client 0's samples are rows 0..d_0-1 */
        for (size_t l = 0; l < n; l++)
            v[y[B[r]] * n + l] -= 0.25 * A[B[r] * n + l];   /* exact: multiples of 2^-10 */
    for (size_t k = 0; k < m * n; k++) s += v[k] * v[k];   /* exact: multiples of 2^-20, < 2^10 */
    return s;
}

/* nu values chosen on these problems' ||v||^2 scale (read off stop2 of the
 * generated files): some clients stop early, some are capped. */
static void golden_rule11(vgen *g)
{
    group(g, "rule (11) with nu = 5e-2, Qmax = 6: early stops and capped clients, K = N",
          PRM(41, 4, 4, 2, 6, R11, 5e-2, 10, XI, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-full,pdm-rule11,pdm-exact-server", 0,
             DATA(71, 4, 2, 5, 6, 10, 1, 0.05, NULL), ED_NONE);
    group(g, "rule (11) with nu = 2e-3, K = 2 of N = 5, server PART, start X0",
          PRM(42, 5, 2, 3, 6, R11, 2e-3, 10, X0, PART, NONE, 0, 0, 0, 0));
    run_case(g, "five clients", "trajectory,pdm-partial,pdm-rule11,pdm-server13,pdm-start-x0", 0,
             DATA(72, 5, 2, 4, 6, 10, 1, 0.05, NULL), ED_NONE);
    group(g, "rule (11) with nu = 0: never holds, every client capped at Qmax = 3",
          PRM(43, 3, 3, 2, 3, R11, 0, 10, XI, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "three clients", "trajectory,pdm-full,pdm-rule11,pdm-exact-server", 0,
             DATA(73, 3, 2, 4, 6, 8, 1, 0.05, NULL), ED_NONE);
    group(g, "rule (11) with nu = 1e3: holds at the first step, Q = 1 for everyone",
          PRM(44, 3, 2, 2, 4, R11, 1e3, 10, XI, PART, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-partial,pdm-rule11,pdm-server13", 0,
             DATA(74, 4, 2, 4, 6, 8, 1, 0.05, NULL), ED_NONE);
    {
        double nu = nu_at_first_step(75, 3, 2, 4, 6, 8, 45);
        char text[300];
        snprintf(text, sizeof text, "rule (11) exactly at nu = %.17g = ||v||^2 of client 0's first step (round 0, "
                 "x = 0: v is dyadic, exact in every wing): Q_0^0 = 1 by equality", nu);
        group(g, text, PRM(45, 2, 3, 2, 4, R11, nu, 10, XI, ALL, NONE, 0, 0, 0, 0));
        run_case(g, "three clients", "trajectory,pdm-full,pdm-rule11,pdm-rule11-at-nu,pdm-exact-server", 0,
                 DATA(75, 3, 2, 4, 6, 8, 0, 0.05, NULL), ED_NONE);
    }
    group(g, "rule FIXED, the same problem as the first group (Q = Qmax = 6 everywhere)",
          PRM(41, 4, 4, 2, 6, FIX, 5e-2, 10, XI, ALL, NONE, 0, 0, 0, 0));
    run_case(g, "four clients", "trajectory,pdm-full,pdm-exact-server", 0, DATA(71, 4, 2, 5, 6, 10, 1, 0.05, NULL),
             ED_NONE);
}

/* The invalid cases every file has (after its valid ones). */
static void golden_invalid(vgen *g, int noise)
{
    const pdm_data *dt = DATA(81, 3, 2, 4, 6, 8, 0, 0.05, noise == GIVEN ? SIG_GIVEN : NULL);
    group(g, "invalid: b = 9 > min d_i", PRM(91, 3, 2, 9, 2, FIX, 0, 10, XI, ALL, noise, 1, 1e-5, 1, 0));
    run_case(g, "a batch larger than a client's data", "size", 1, dt, ED_NONE);
    group(g, "invalid: K = 4 > N = 3", PRM(91, 3, 4, 2, 2, FIX, 0, 10, XI, ALL, noise, 1, 1e-5, 1, 0));
    run_case(g, "K > N", "size", 1, dt, ED_NONE);
    group(g, "invalid: rho = 0", PRM(91, 3, 2, 2, 2, FIX, 0, 0, XI, ALL, noise, 1, 1e-5, 1, 0));
    run_case(g, "rho = 0", "domain", 1, dt, ED_NONE);
    group(g, "invalid data", PRM(91, 3, 2, 2, 2, FIX, 0, 10, XI, ALL, noise, 1, 1e-5, 1, 0));
    run_case(g, "a NaN feature", "nan", 1, dt, ED_A_NAN);
    run_case(g, "a label equal to m", "size", 1, dt, ED_LABEL_M);
    run_case(g, "an infinite entry of x0", "inf", 1, dt, ED_X0_INF);
    run_case(g, "a zero stepsize", "domain", 1, dt, ED_ETA_ZERO);
    if (noise == PAPER) {
        group(g, "invalid: delta = 1 (NOISE_PAPER)", PRM(91, 3, 2, 2, 2, FIX, 0, 10, XI, ALL, PAPER, 1, 1, 1, 0));
        run_case(g, "delta outside (0, 1)", "domain", 1, dt, ED_NONE);
        group(g, "invalid: G = 0 (NOISE_PAPER)", PRM(91, 3, 2, 2, 2, FIX, 0, 10, XI, ALL, PAPER, 1, 1e-5, 0, 0));
        run_case(g, "G = 0", "domain", 1, dt, ED_NONE);
    } else if (noise == GIVEN) {
        group(g, "invalid sigma (NOISE_GIVEN)", PRM(91, 3, 2, 2, 2, FIX, 0, 10, XI, ALL, GIVEN, 0, 0, 0, 0));
        run_case(g, "a negative sigma", "domain", 1, dt, ED_SIGMA_NEG);
        run_case(g, "sigma one entry short", "size", 1, dt, ED_SIGMA_SHORT);
    } else {
        group(g, "invalid: nu = -1 (rule 11)", PRM(91, 3, 2, 2, 2, R11, -1, 10, XI, ALL, NONE, 0, 0, 0, 0));
        run_case(g, "nu < 0", "domain", 1, dt, ED_NONE);
        group(g, "invalid: an unknown server", PRM(91, 3, 2, 2, 2, FIX, 0, 10, XI, 3, NONE, 0, 0, 0, 0));
        run_case(g, "server 3", "domain", 1, dt, ED_NONE);
    }
}

static void golden_full_all(vgen *g) { golden_full(g); golden_invalid(g, NONE); }
static void golden_partial_all(vgen *g) { golden_partial(g); golden_invalid(g, NONE); }
static void golden_noise_all(vgen *g) { golden_noise(g); golden_invalid(g, PAPER); golden_invalid(g, GIVEN); }
static void golden_rule11_all(vgen *g) { golden_rule11(g); golden_invalid(g, NONE); }

/* ---- the sweep of `make run`: a valid random run ------------------------------- */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t N, m, n, T, K, b, Q, opt, s;
    frng_below(g, 4, &N); N += 3;
    frng_below(g, 2, &m); m += 2;
    frng_below(g, 5, &n); n += 4;
    frng_below(g, 4, &T); T += 3;
    frng_below(g, N, &K); K++;
    frng_below(g, 2, &b); b += 2;
    frng_below(g, 3, &Q); Q += 2;
    frng_below(g, 64, &opt);
    frng_below(g, 1u << 20, &s);
    size_t d[8], Dt = 0;
    fr_pdm_synth_sizes(s, N, 6, 10, d);
    for (size_t i = 0; i < N; i++) Dt += d[i];
    size_t *y = malloc(Dt * sizeof *y);
    ft_alloc(&in[I_X0], m, n);
    ft_alloc(&in[I_A], Dt, n);
    ft_alloc(&in[I_Y], 1, Dt);
    ft_alloc(&in[I_D], 1, N);
    ft_alloc(&in[I_BG], 1, 2);
    ft_alloc(&in[I_ETA], 1, T);
    ft_alloc(&in[I_SIGMA], 1, T);
    fr_pdm_synth_data(s, N, m, n, d, in[I_A].v, y);
    for (size_t k = 0; k < m * n; k++) in[I_X0].v[k] = 0;
    for (size_t t = 0; t < Dt; t++) in[I_Y].v[t] = (double)y[t];
    for (size_t i = 0; i < N; i++) in[I_D].v[i] = (double)d[i];
    in[I_BG].v[0] = 1e-2;
    in[I_BG].v[1] = 1e-3;
    fr_pdm_eta_paper(in[I_ETA].v, T, 0.05);
    for (size_t t = 0; t < T; t++) in[I_SIGMA].v[t] = 0.01;
    free(y);
    const double v[NPAR] = {(double)s, (double)T, (double)K, (double)b, (double)Q, (double)(opt & 1), 2e-3, 10,
                            (double)((opt >> 1) & 1), (double)((opt >> 2) & 1), (double)((opt >> 3) % 3), 1, 1e-5,
                            1, (double)((opt >> 5) & 1)};
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}

static const vdata data = {"A", "y", "d"};
#define FIELDS(NAME, SRC, GOLDEN) NAME, SRC, params, inputs, expects, ref, fast, tol, GOLDEN, sample, 20, 1, .data = &data
const vfunc vfunc_fedpdm_run_full = {FIELDS("fedpdm_run_full", "003 Algorithm 1, (9)-(13), (21): full participation; docs/FEDPDM.md 5", golden_full_all)};
const vfunc vfunc_fedpdm_run_partial = {FIELDS("fedpdm_run_partial", "003 Algorithm 1, (9)-(13), (21): K < N, servers ALL and (13); docs/FEDPDM.md 5", golden_partial_all)};
const vfunc vfunc_fedpdm_run_noise = {FIELDS("fedpdm_run_noise", "003 Algorithm 1, (12), (18), (19): noise PAPER and GIVEN; docs/FEDPDM.md 5", golden_noise_all)};
const vfunc vfunc_fedpdm_run_rule11 = {FIELDS("fedpdm_run_rule11", "003 Algorithm 1, (11): early stops and capped clients; docs/FEDPDM.md 5", golden_rule11_all)};
