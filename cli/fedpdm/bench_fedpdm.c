/* SPDX-License-Identifier: Apache-2.0 */
/* bench_fedpdm.c -- module fedpdm's section of `fedref bench`: paper 003's
 * mini-batch loss (25) with its gradient (ff_pdm_loss) and one round of
 * Algorithm 1 (ff_pdm_run), on fr_pdm_synth_* data at the paper's shapes
 * (m = 10 classes, n = 785 features, the MNIST shape with its bias).
 *
 * Loss rows, b = 30 (the paper's), 600 (a client), 6000: the first b rows
 * of one synthetic client, X seeded dyadic in [-2^-4, 2^-4) (stream 7400):
 *  - fast: ff_pdm_loss (f and g), median of reps, each an inner loop of
 *    >= 2 ms;
 *  - dgemm: cblas_dgemm alone on the dense shapes of (25)'s products, U =
 *    A X^T (b x m x n) and G = R^T A (m x n x b), what a dense formulation
 *    (numpy's) computes; floor = the faster of that dgemm pair and the BLAS
 *    calls of the one-hot structure alone (per sample one cblas_ddot of the
 *    label row and one cblas_daxpy into it, 4 b n flops, the batch rows
 *    read once), i.e. the fastest BLAS calls for the loss's products,
 *    measured (at b = 6000, 38 MB of rows: memory-bound).  GFLOP counted:
 *    4 b n + 20 b (exp, log1p, divisions per sample) + 12 m n (r and h per
 *    entry of X), each exp, log or division one flop;
 *  - ref: fr_pdm_loss at 128 bits, timed once, small b only (skipped when
 *    predicted, linear in b from b = 30, above REF_BUDGET s); agreement:
 *    |f - f_ref| <= ef and |g - g_ref| <= eg elementwise, (ef, eg) =
 *    ff_pdm_loss_bound (proved; "agree" is the largest error/bound).
 * Round rows: one round t = 1 of Algorithm 1 (K = 5 of N clients, Q local
 * steps, rule FIXED, start XI, server PART (the participants' mean, (13) with 1/|S_t|), NOISE_GIVEN sigma_0
 * = 0, sigma_t = 0.01 (t >= 1), rho = 10, eta^t = 0.05 / sqrt(1 + t), beta
 * = 1e-2, gamma = 1e-4): N = 100 clients of 600 samples (b = 30 with Q = 1,
 * 5, 20; b = 600, Q = 5) and N = 10 clients of 6000 (b = 6000, Q = 5);
 *  - fast: (t(T = k+1) - t(T = 2)) / (k - 1) of ff_pdm_run (keep = 0),
 *    paired per repetition (the set-up and round 0 cancel; k rounds last
 *    >= 3 times the T = 2 run, k <= 400);
 *  - dgemm: K Q times the loss's dense shapes; floor = K Q times the
 *    loss's floor at b plus the libm calls of the K ceil(D/2) Box-Muller
 *    pairs of (12) alone (log, sqrt, cos, sin per pair, no words drawn):
 *    at b = 30 the noise is most of a round; the problem is sealed
 *    (fr_pdm_problem_seal: ff_pdm_run does not re-scan A);
 *    GFLOP: K Q (4 b n + 20 b + 13 D) + 10 K D + 4 D (D = m n:
 *    h(X) 6, (10a) with ||v||^2 7 per entry and step; (10b)-(10d), (12)
 *    per client; the server's mean and prox).
 * numpy (bench/fedpdm_numpy.py, run as a subprocess when --write-inputs
 * DIR is given and the script is found: FEDREF_PDM_NUMPY, default
 * bench/fedpdm_numpy.py; FEDREF_PYTHON3, default /usr/bin/python3): DIR/fedpdm
 * receives every case's inputs (X, the batch rows, labels; for a round the
 * participants' rows, states after round 0, batches, noise) and fast's
 * outputs; the script checks its own results against fast's (normwise
 * relative <= 1e-12) and times them; its results (DIR/fedpdm/numpy.txt)
 * fill the numpy columns, and a disagreement counts.  Exit code 3 of the
 * script (no numpy) leaves the columns empty.
 * --quick: m = 3, n = 17, small N, d_i, b, Q: agreement, not time. */
#define _GNU_SOURCE             /* dladdr, RTLD_DEFAULT: naming the BLAS */
#include <cblas.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 128
#define NP_TOL 1e-12
#define REF_BUDGET 10.0         /* seconds: a ref loss predicted longer is skipped */
#define BETA 1e-2
#define GAMMA 1e-4
#define RHO 10.0
#define ETA0 0.05
#define SIG 0.01

typedef struct {
    size_t b;
} lcase;

typedef struct {
    int prob;                   /* 0: N0 clients of d0; 1: N1 clients of d1 */
    size_t b;
    unsigned long Q;
} rcase;

typedef struct {
    size_t m, n, N[2], d[2], K;
} shapes;

static const lcase full_loss[] = {{30}, {600}, {6000}};
static const lcase quick_loss[] = {{3}, {10}, {40}};
static const rcase full_round[] = {{0, 30, 1}, {0, 30, 5}, {0, 30, 20}, {0, 600, 5}, {1, 6000, 5}};
static const rcase quick_round[] = {{0, 3, 1}, {0, 3, 3}, {0, 40, 2}, {1, 80, 2}};
static const shapes full_sh = {10, 785, {100, 10}, {600, 6000}, 5};
static const shapes quick_sh = {3, 17, {6, 3}, {40, 80}, 2};

/* One row's results (negative: not measured). */
typedef struct {
    double fast, gflop, dgemm, floor, ref, refagree, np, nperr;
    unsigned long k;
} row_t;

/* ---- small helpers ----------------------------------------------------------- */

static void print_blas(void)
{
    char *(*cfg)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
    int (*thr)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    Dl_info info;
    const char *path = dladdr((void *)cblas_dgemm, &info) && info.dli_fname ? info.dli_fname
                                                                            : "(unknown)";
    printf("  BLAS: %s (%s)", cfg ? cfg() : "not OpenBLAS", path);
    if (thr)
        printf(", %d thread(s)", thr());
    printf("; %ld core(s) online\n", sysconf(_SC_NPROCESSORS_ONLN));
}

static int put(bench_ctx *ctx, const char *name, const double *x, size_t len)
{
    char file[128];
    snprintf(file, sizeof file, "fedpdm/%s", name);
    return bench_input(ctx, file, x, len);
}

static int put_sz(bench_ctx *ctx, const char *name, const size_t *v, size_t len)
{
    if (ctx->inputs == NULL)
        return 0;
    double *d = malloc((len ? len : 1) * sizeof *d);
    if (!d) {
        cli_error("out of memory", "bench fedpdm inputs");
        return 2;
    }
    for (size_t k = 0; k < len; k++)
        d[k] = (double)v[k];
    int rc = put(ctx, name, d, len);
    free(d);
    return rc;
}

/* X: m n dyadic entries in [-2^-4, 2^-4) with 10 fractional bits. */
static void seeded_X(uint64_t seed, double *X, size_t len)
{
    frng_t g;
    frng_init(&g, seed, 7400);
    for (size_t k = 0; k < len; k++)
        X[k] = ((double)(frng_next64(&g) >> 57) - 64) * 0x1p-10;
}

/* ---- the dgemm of the dense shapes ------------------------------------------- */

typedef struct {
    size_t m, n, b, reps;
    const double *A, *X;
    double *U, *R, *G;
} dg_arg;

/* One read of the batch rows (dasum: the least any method reads). */
static void rd_once(void *p)
{
    dg_arg *a = p;
    a->U[0] += cblas_dasum((int)(a->b * a->n), a->A, 1);
}

static void dg_once(void *p)
{
    const dg_arg *a = p;
    for (size_t r = 0; r < a->reps; r++) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)a->b, (int)a->m, (int)a->n, 1.0, a->A,
                    (int)a->n, a->X, (int)a->n, 0.0, a->U, (int)a->m);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)a->m, (int)a->n, (int)a->b, -1.0, a->R,
                    (int)a->m, a->A, (int)a->n, 1.0, a->G, (int)a->n);
    }
}

/* Seconds of `reps` pairs of the dense dgemms on A (b x n), X (m x n):
 * median of ctx->reps timings of an inner loop; *rd: one dasum over A
 * (the same way).  Negative: no memory. */
static double time_dgemm(const bench_ctx *ctx, size_t m, size_t n, size_t b, const double *A,
                         const double *X, size_t reps, double *rd)
{
    double *U = calloc(b * m, sizeof *U), *R = malloc(b * m * sizeof *R);
    double *G = calloc(m * n, sizeof *G), *t = malloc(ctx->reps * sizeof *t);
    double res = -1;
    if (U && R && G && t) {
        for (size_t k = 0; k < b * m; k++)
            R[k] = 0x1p-6 * (double)(k % 7);
        dg_arg a = {m, n, b, reps, A, X, U, R, G};
        dg_once(&a);
        unsigned long inner = bench_inner(dg_once, &a);
        for (unsigned long r = 0; r < ctx->reps; r++) {
            double t0 = bench_now();
            for (unsigned long i = 0; i < inner; i++)
                dg_once(&a);
            t[r] = (bench_now() - t0) / (double)inner;
        }
        res = bench_median(t, ctx->reps);
        inner = bench_inner(rd_once, &a);
        for (unsigned long r = 0; r < ctx->reps; r++) {
            double t0 = bench_now();
            for (unsigned long i = 0; i < inner; i++)
                rd_once(&a);
            t[r] = (bench_now() - t0) / (double)inner;
        }
        *rd = bench_median(t, ctx->reps);
    }
    free(U);
    free(R);
    free(G);
    free(t);
    return res;
}

/* The median over ctx->reps of an inner loop of fn (bench_inner). */
static double time_fn(const bench_ctx *ctx, void (*fn)(void *), void *arg, double *t)
{
    fn(arg);
    unsigned long inner = bench_inner(fn, arg);
    for (unsigned long r = 0; r < ctx->reps; r++) {
        double t0 = bench_now();
        for (unsigned long i = 0; i < inner; i++)
            fn(arg);
        t[r] = (bench_now() - t0) / (double)inner;
    }
    return bench_median(t, ctx->reps);
}

/* The products of the one-hot structure alone, as fast's method makes
 * them: per sample one cblas_ddot (u_t, the label row of X) and one
 * cblas_daxpy (into the label row of G), nothing else. */
typedef struct {
    size_t n, b;
    const double *A, *X;
    const size_t *y;
    double *G, acc;
} st_arg;

static void st_once(void *p)
{
    st_arg *a = p;
    for (size_t t = 0; t < a->b; t++) {
        const double *at = a->A + t * a->n;
        const double u = cblas_ddot((int)a->n, a->X + a->y[t] * a->n, 1, at, 1);
        cblas_daxpy((int)a->n, 0x1p-40 * u, at, 1, a->G + a->y[t] * a->n, 1);
        a->acc += u;
    }
}

/* Seconds of st_once on (A, y, X); negative: no memory. */
static double time_struct(const bench_ctx *ctx, size_t m, size_t n, size_t b, const double *A, const size_t *y,
                          const double *X)
{
    double *G = calloc(m * n, sizeof *G), *t = malloc(ctx->reps * sizeof *t), res = -1;
    if (G && t) {
        st_arg a = {n, b, A, X, y, G, 0};
        res = time_fn(ctx, st_once, &a, t);
    }
    free(G);
    free(t);
    return res;
}

/* The libm calls of (12)'s Box-Muller pairs alone (log, sqrt, cos, sin of
 * ff_rng_gaussian2 per pair, on arguments of the same ranges; no words
 * drawn): np pairs. */
typedef struct {
    size_t np;
    double acc;
} nz_arg;

static void nz_once(void *p)
{
    nz_arg *a = p;
    const double h = 1.0 / (double)a->np;
    double s = 0;
    for (size_t j = 0; j < a->np; j++) {
        const double u1 = ((double)j + 0.5) * h, phi = 0x1.921fb54442d18p+0 * ((double)j * h);
        const double r = sqrt(-2 * log(u1));
        s += r * cos(phi) + r * sin(phi);
    }
    a->acc += s;
}

static double time_noise(const bench_ctx *ctx, size_t np)
{
    double *t = malloc(ctx->reps * sizeof *t), res = -1;
    if (t) {
        nz_arg a = {np, 0};
        res = time_fn(ctx, nz_once, &a, t);
    }
    free(t);
    return res;
}

/* ---- the loss rows ------------------------------------------------------------ */

typedef struct {
    const double *X, *A;
    const size_t *y;
    size_t m, n, b;
    double f, *g;
    int st;
} loss_arg;

static void loss_once(void *p)
{
    loss_arg *a = p;
    a->st = ff_pdm_loss(&a->f, a->g, a->X, a->m, a->n, a->A, a->y, a->b, BETA);
}

/* fr_pdm_loss at REF_PREC bits, timed once; agreement within
 * ff_pdm_loss_bound.  Fills r->ref, r->refagree; 0 or 2. */
static int loss_ref(bench_ctx *ctx, const loss_arg *a, row_t *r)
{
    const size_t mn = a->m * a->n, bn = a->b * a->n;
    mpfr_t *Xm = bench_mp_array(a->X, mn), *Am = bench_mp_array(a->A, bn), *gm = malloc(mn * sizeof *gm);
    double *eg = malloc(mn * sizeof *eg), ef;
    mpfr_t fm, be;
    int rc = 0;
    if (!Xm || !Am || !gm || !eg) {
        bench_mp_free(Xm, Xm ? mn : 0);
        bench_mp_free(Am, Am ? bn : 0);
        free(gm);
        free(eg);
        cli_error("out of memory", "bench fedpdm ref");
        return 2;
    }
    for (size_t k = 0; k < mn; k++)
        mpfr_init2(gm[k], REF_PREC);
    mpfr_inits2(REF_PREC, fm, be, (mpfr_ptr)0);
    mpfr_set_d(be, BETA, MPFR_RNDN);
    double t0 = bench_now();
    int st = fr_pdm_loss(fm, gm, Xm, a->m, a->n, Am, a->y, a->b, be);
    r->ref = bench_now() - t0;
    if (st == FR_OK)
        st = ff_pdm_loss_bound(&ef, eg, a->X, a->m, a->n, a->A, a->y, a->b, BETA);
    if (st == FR_OK) {
        double w = fabs(mpfr_get_d(fm, MPFR_RNDN) - a->f) / ef;
        for (size_t k = 0; k < mn; k++)
            w = fmax(w, fabs(mpfr_get_d(gm[k], MPFR_RNDN) - a->g[k]) / eg[k]);
        char what[64];
        snprintf(what, sizeof what, "fedpdm loss b = %zu: fast within its bound of ref", a->b);
        r->refagree = bench_agree(ctx, what, w, 1.0);
    } else {
        cli_error(fr_strerror(st), "bench fedpdm: fr_pdm_loss");
        rc = 2;
    }
    mpfr_clears(fm, be, (mpfr_ptr)0);
    for (size_t k = 0; k < mn; k++)
        mpfr_clear(gm[k]);
    free(gm);
    free(eg);
    bench_mp_free(Xm, mn);
    bench_mp_free(Am, bn);
    return rc;
}

static int loss_rows(bench_ctx *ctx, const shapes *sh, const lcase *cs, size_t nc, row_t *rows,
                     FILE *man)
{
    size_t bmax = 0;
    for (size_t c = 0; c < nc; c++)
        bmax = cs[c].b > bmax ? cs[c].b : bmax;
    const size_t m = sh->m, n = sh->n;
    double *A = malloc(bmax * n * sizeof *A), *X = malloc(m * n * sizeof *X);
    double *g = malloc(m * n * sizeof *g), *t = malloc(ctx->reps * sizeof *t);
    size_t *y = malloc(bmax * sizeof *y);
    int rc = 0;
    double ref_per_row = 0;
    if (!A || !X || !g || !t || !y) {
        cli_error("out of memory", "bench fedpdm loss");
        rc = 2;
        goto done;
    }
    size_t d[1] = {bmax};
    if (fr_pdm_synth_data(ctx->seed, 1, m, n, d, A, y) != FR_OK) {
        cli_error("cannot synthesise the data", "bench fedpdm loss");
        rc = 2;
        goto done;
    }
    seeded_X(ctx->seed, X, m * n);
    if ((rc = put(ctx, "loss_X", X, m * n)) != 0 || (rc = put(ctx, "loss_A", A, bmax * n)) != 0
        || (rc = put_sz(ctx, "loss_y", y, bmax)) != 0)
        goto done;
    for (size_t c = 0; c < nc && rc == 0; c++) {
        const size_t b = cs[c].b;
        row_t *r = &rows[c];
        cli_progress("bench: fedpdm loss, b = %zu", b);
        loss_arg a = {X, A, y, m, n, b, 0, g, 0};
        loss_once(&a);
        if (a.st != FR_OK) {
            cli_error(fr_strerror(a.st), "bench fedpdm: ff_pdm_loss");
            rc = 2;
            break;
        }
        unsigned long inner = bench_inner(loss_once, &a);
        for (unsigned long k = 0; k < ctx->reps; k++) {
            double t0 = bench_now();
            for (unsigned long i = 0; i < inner; i++)
                loss_once(&a);
            t[k] = (bench_now() - t0) / (double)inner;
        }
        r->fast = bench_median(t, ctx->reps);
        r->gflop = 1e-9 * (4.0 * (double)b * (double)n + 20.0 * (double)b + 12.0 * (double)(m * n));
        double rd = 0;
        r->dgemm = time_dgemm(ctx, m, n, b, A, X, 1, &rd);
        r->floor = fmin(r->dgemm, time_struct(ctx, m, n, b, A, y, X));
        r->ref = r->refagree = -1;
        if (ctx->quick || ref_per_row == 0 || ref_per_row * (double)b <= REF_BUDGET) {
            cli_progress("bench: fedpdm loss, ref at %d bits, b = %zu", REF_PREC, b);
            if ((rc = loss_ref(ctx, &a, r)) != 0)
                break;
            if (ref_per_row == 0)
                ref_per_row = r->ref / (double)b;
        }
        char name[64];
        snprintf(name, sizeof name, "loss%zu_g", c);
        if ((rc = put(ctx, name, g, m * n)) != 0)
            break;
        if (man)
            fprintf(man, "loss loss%zu %zu %a %a %a\n", c, b, a.f, BETA, r->fast);
    }
done:
    free(A);
    free(X);
    free(g);
    free(t);
    free(y);
    return rc;
}

/* ---- the round rows ------------------------------------------------------------- */

typedef struct {
    fr_pdm_problem P;
    size_t *d, *y;
    double *A;
} prob_t;

static void prob_free(prob_t *p)
{
    free(p->d);
    free(p->y);
    free(p->A);
    memset(p, 0, sizeof *p);
}

static int prob_make(prob_t *p, const bench_ctx *ctx, const shapes *sh, int which)
{
    const size_t N = sh->N[which], di = sh->d[which], D = N * di;
    p->d = malloc(N * sizeof *p->d);
    p->y = malloc(D * sizeof *p->y);
    p->A = malloc(D * sh->n * sizeof *p->A);
    if (!p->d || !p->y || !p->A) {
        prob_free(p);
        cli_error("out of memory", "bench fedpdm problem");
        return 2;
    }
    for (size_t i = 0; i < N; i++)
        p->d[i] = di;
    cli_progress("bench: fedpdm, a synthetic problem of %zu x %zu samples (%.0f MB)", N, di,
                 (double)(D * sh->n * sizeof(double)) / 1e6);
    if (fr_pdm_synth_data(ctx->seed + 1 + (uint64_t)which, N, sh->m, sh->n, p->d, p->A, p->y) != FR_OK) {
        prob_free(p);
        cli_error("cannot synthesise the problem", "bench fedpdm");
        return 2;
    }
    p->P = (fr_pdm_problem){.N = N, .m = sh->m, .n = sh->n, .d = p->d, .A = p->A, .y = p->y,
                            .beta = BETA, .gamma = GAMMA};
    if (fr_pdm_problem_seal(&p->P) != FR_OK) {      /* rule 6: the runs skip A's scan */
        prob_free(p);
        cli_error("cannot seal the problem", "bench fedpdm");
        return 2;
    }
    return 0;
}

/* The parameters of a round case for T rounds; eta and sig hold T entries. */
static fr_pdm_params rparams(const shapes *sh, const rcase *c, unsigned long T, unsigned keep,
                             double *eta, double *sig, uint64_t seed)
{
    (void)fr_pdm_eta_paper(eta, T, ETA0);
    for (unsigned long t = 0; t < T; t++)
        sig[t] = t == 0 ? 0.0 : SIG;
    return (fr_pdm_params){.T = T, .K = sh->K, .b = c->b, .Qmax = c->Q, .rule = FR_PDM_RULE_FIXED,
                           .nu = 0, .rho = RHO, .eta = eta, .start = FR_PDM_START_XI,
                           .server = FR_PDM_SERVER_PART, .noise = FR_PDM_NOISE_GIVEN, .eps = 1,
                           .delta = 0.5, .G = 1, .sigma = sig, .clip = 0, .x0 = NULL, .seed = seed,
                           .keep = keep};
}

/* A trace initialised and run once for T rounds; FR_OK or a status. */
typedef struct {
    ff_pdm_trace t;
    fr_pdm_params p;
    double *eta, *sig;
} run_t;

static int run_init(run_t *r, const prob_t *pb, const shapes *sh, const rcase *c, unsigned long T,
                    unsigned keep, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->eta = malloc(2 * T * sizeof *r->eta);
    if (!r->eta)
        return FR_ENOMEM;
    r->sig = r->eta + T;
    r->p = rparams(sh, c, T, keep, r->eta, r->sig, seed);
    return ff_pdm_trace_init(&r->t, &pb->P, &r->p);
}

static double run_timed(run_t *r, const prob_t *pb)
{
    double t0 = bench_now();
    int st = ff_pdm_run(&r->t, &pb->P, &r->p);
    double dt = bench_now() - t0;
    if (st != FR_OK) {
        cli_error(fr_strerror(st), "bench fedpdm: ff_pdm_run");
        return -1;
    }
    return dt;
}

static void run_clear(run_t *r)
{
    ff_pdm_trace_clear(&r->t);
    free(r->eta);
    memset(r, 0, sizeof *r);
}

/* The numpy inputs of round case q: round 1's participants (their rows,
 * labels, states after round 0, batches, noise) and fast's results. */
static int round_inputs(bench_ctx *ctx, FILE *man, const prob_t *pb, const shapes *sh, const rcase *c,
                        size_t q, const run_t *r1, const run_t *r2, double tfast)
{
    if (man == NULL)
        return 0;
    const size_t N = pb->P.N, n = sh->n, D = sh->m * n, K = sh->K, di = sh->d[c->prob];
    const size_t per = c->Q * c->b;
    size_t S[64], ns = 0;
    for (size_t i = 0; i < N && ns < 64; i++)
        if (r2->t.part[N + i])
            S[ns++] = i;
    if (ns != K || r2->t.nd != (N + K) * per) {
        cli_error("unexpected participation or draw count", "bench fedpdm round");
        return 2;
    }
    double *buf = malloc((K * di * n + 6 * K * D + D + K * per) * sizeof *buf);
    size_t *ys = malloc(K * di * sizeof *ys);
    if (!buf || !ys) {
        free(buf);
        free(ys);
        cli_error("out of memory", "bench fedpdm inputs");
        return 2;
    }
    double *As = buf, *xs = As + K * di * n, *ls = xs + K * D, *xi = ls + K * D, *x2 = xi + K * D;
    double *l2 = x2 + K * D, *x02 = l2 + K * D, *bt = x02 + D;
    for (size_t j = 0; j < K; j++) {
        const size_t i = S[j];
        memcpy(As + j * di * n, pb->A + i * di * n, di * n * sizeof *As);
        memcpy(ys + j * di, pb->y + i * di, di * sizeof *ys);
        memcpy(xs + j * D, r1->t.x + i * D, D * sizeof *xs);
        memcpy(ls + j * D, r1->t.lam + i * D, D * sizeof *ls);
        memcpy(x2 + j * D, r2->t.x + i * D, D * sizeof *x2);
        memcpy(l2 + j * D, r2->t.lam + i * D, D * sizeof *l2);
        frng_t g;                       /* (12): sigma_0 = 0 drew nothing: round 1's pairs come first */
        frng_init(&g, r2->p.seed, FR_PDM_STREAM_NOISE + (uint64_t)i);
        for (size_t k = 0; k < D; k += 2) {
            double z0, z1;
            (void)ff_rng_gaussian2(&z0, &z1, &g);
            xi[j * D + k] = z0;
            if (k + 1 < D)
                xi[j * D + k + 1] = z1;
        }
    }
    memcpy(x02, r2->t.x0, D * sizeof *x02);
    for (size_t k = 0; k < K * per; k++)
        bt[k] = (double)r2->t.draws[N * per + k];
    char name[64];
    int rc = 0;
    static const char *const part[] = {"A", "xs", "ls", "xi", "x2", "l2", "x02", "batch"};
    const size_t len[] = {K * di * n, K * D, K * D, K * D, K * D, K * D, D, K * per};
    const double *src[] = {As, xs, ls, xi, x2, l2, x02, bt};
    for (size_t k = 0; k < 8 && rc == 0; k++) {
        snprintf(name, sizeof name, "round%zu_%s", q, part[k]);
        rc = put(ctx, name, src[k], len[k]);
    }
    snprintf(name, sizeof name, "round%zu_y", q);
    if (rc == 0)
        rc = put_sz(ctx, name, ys, K * di);
    snprintf(name, sizeof name, "round%zu_x01", q);
    if (rc == 0)
        rc = put(ctx, name, r1->t.x0, D);
    if (rc == 0)
        fprintf(man, "round round%zu %zu %zu %lu %zu %a %a %a %a %a %a\n", q, K, di, c->Q, c->b, RHO,
                r2->eta[1], SIG, GAMMA, BETA, tfast);
    free(buf);
    free(ys);
    return rc;
}

static int round_row(bench_ctx *ctx, const prob_t *pb, const shapes *sh, const rcase *c, size_t q,
                     row_t *row, FILE *man)
{
    run_t r1, r2, ra, rb, rk;
    int rc = 0;
    double *t = malloc(3 * ctx->reps * sizeof *t);
    memset(&rk, 0, sizeof rk);
    int st = run_init(&r1, pb, sh, c, 1, 0, ctx->seed);
    if (st == FR_OK)
        st = run_init(&r2, pb, sh, c, 2, FR_PDM_KEEP_DRAWS, ctx->seed);
    if (st == FR_OK)
        st = run_init(&ra, pb, sh, c, 2, 0, ctx->seed);
    if (st == FR_OK)
        st = run_init(&rb, pb, sh, c, 4, 0, ctx->seed);
    if (st != FR_OK || !t) {
        cli_error(t ? fr_strerror(st) : "out of memory", "bench fedpdm: ff_pdm_trace_init");
        rc = 2;
        goto done;
    }
    /* the agreement runs (and warm-up): state after round 0, then round 1 */
    if (run_timed(&r1, pb) < 0 || run_timed(&r2, pb) < 0) {
        rc = 2;
        goto done;
    }
    double e2 = run_timed(&ra, pb), e4 = run_timed(&rb, pb);
    if (e2 < 0 || e4 < 0) {
        rc = 2;
        goto done;
    }
    /* k rounds take >= 0.3 s and >= 3 times the T = 2 run (its set-up and
     * round 0 of all N clients: the difference must dominate it) */
    double est = fmax((e4 - e2) / 2, 1e-6);
    unsigned long k = ctx->quick ? 3 : (unsigned long)fmin(400, fmax(3, ceil(fmax(0.3, 3 * e2) / est)));
    if (run_init(&rk, pb, sh, c, k + 1, 0, ctx->seed) != FR_OK) {
        cli_error("cannot initialise a trace", "bench fedpdm");
        rc = 2;
        goto done;
    }
    double *ta = t, *tk = t + ctx->reps, *rnd = t + 2 * ctx->reps;
    for (unsigned long r = 0; r < ctx->reps; r++) {
        for (int j = 0; j < 2; j++) {           /* the order alternates per repetition */
            int which = (int)((r + (unsigned long)j) % 2);
            double dt = run_timed(which ? &rk : &ra, pb);
            if (dt < 0) {
                rc = 2;
                goto done;
            }
            (which ? tk : ta)[r] = dt;
        }
        rnd[r] = (tk[r] - ta[r]) / (double)(k - 1);
    }
    const size_t m = sh->m, n = sh->n, D = m * n, b = c->b, K = sh->K;
    const double KQ = (double)K * (double)c->Q;
    row->k = k;
    row->fast = bench_median(rnd, ctx->reps);
    row->gflop = 1e-9 * (KQ * (4.0 * (double)b * (double)n + 20.0 * (double)b + 13.0 * (double)D)
                         + 10.0 * (double)K * (double)D + 4.0 * (double)D);
    double rd = 0, dg = time_dgemm(ctx, m, n, b, pb->A, r2.t.x0, 1, &rd);
    row->dgemm = dg * KQ;
    row->floor = fmin(dg, time_struct(ctx, m, n, b, pb->A, pb->y, r2.t.x0)) * KQ
               + time_noise(ctx, (D + 1) / 2) * (double)K;
    row->ref = row->refagree = -1;
    rc = round_inputs(ctx, man, pb, sh, c, q, &r1, &r2, row->fast);
done:
    run_clear(&r1);
    run_clear(&r2);
    run_clear(&ra);
    run_clear(&rb);
    run_clear(&rk);
    free(t);
    return rc;
}

/* ---- numpy, as a subprocess ----------------------------------------------------- */

/* Runs the script on DIR/fedpdm and reads DIR/fedpdm/numpy.txt into the
 * rows ("loss|round INDEX seconds err").  0, or 2 after cli_error; a
 * missing script or numpy (exit 3) leaves the rows at -1 and says so. */
static int run_numpy(bench_ctx *ctx, row_t *lrows, size_t nl, row_t *rrows, size_t nr)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fedpdm", ctx->inputs);
    FILE *f;
    int rc = bench_numpy_script(ctx, "fedpdm", "FEDREF_PDM_NUMPY", "bench/fedpdm_numpy.py",
                                ctx->reps < 5 && !ctx->quick ? 5ul : ctx->reps, dir, &f);
    if (rc != 0 || f == NULL)
        return rc;
    char kind[16];
    size_t idx;
    double sec, err;
    while (fscanf(f, "%15s %zu %lf %lf", kind, &idx, &sec, &err) == 4) {
        row_t *r = strcmp(kind, "loss") == 0 && idx < nl ? &lrows[idx]
                 : strcmp(kind, "round") == 0 && idx < nr ? &rrows[idx] : NULL;
        if (!r)
            continue;
        r->np = sec;
        char what[64];
        snprintf(what, sizeof what, "fedpdm numpy %s %zu against fast", kind, idx);
        r->nperr = bench_agree(ctx, what, err, NP_TOL);
    }
    fclose(f);
    return 0;
}

/* ---- the section ------------------------------------------------------------------ */

static void print_row(const row_t *r)
{
    printf("%10.4g %8.3g %10.4g %10.4g %9.3g", r->fast, r->gflop / r->fast, r->dgemm, r->floor,
           r->fast / r->floor);
    bench_cell(r->np, " %9.4g");
    bench_cell(r->np >= 0 ? r->fast / r->np : -1, " %9.3g");
    bench_cell(r->ref, " %9.4g");
    bench_cell(r->ref >= 0 ? r->ref / r->fast : -1, " %9.3g");
    printf("\n");
    fflush(stdout);
}

static FILE *open_man(bench_ctx *ctx, const shapes *sh)
{
    if (ctx->inputs == NULL)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/fedpdm", ctx->inputs);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error(strerror(errno), path);
        return NULL;
    }
    snprintf(path, sizeof path, "%s/fedpdm/manifest.txt", ctx->inputs);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        cli_error(strerror(errno), path);
        return NULL;
    }
    fprintf(f, "# fedref bench, module fedpdm: seed %llu%s; bench/fedpdm_numpy.py reads this\n"
            "reps %lu\nsizes %zu %zu\n", (unsigned long long)ctx->seed, ctx->quick ? ", quick sizes" : "",
            ctx->reps, sh->m, sh->n);
    return f;
}

int bench_fedpdm(bench_ctx *ctx)
{
    const int q = ctx->quick;
    const shapes *sh = q ? &quick_sh : &full_sh;
    const lcase *lc = q ? quick_loss : full_loss;
    const rcase *rcs = q ? quick_round : full_round;
    const size_t nl = q ? sizeof quick_loss / sizeof *quick_loss : sizeof full_loss / sizeof *full_loss;
    const size_t nr = q ? sizeof quick_round / sizeof *quick_round : sizeof full_round / sizeof *full_round;
    row_t lrows[8], rrows[8];
    for (size_t k = 0; k < 8; k++)
        lrows[k] = rrows[k] = (row_t){.np = -1, .nperr = -1, .ref = -1, .refagree = -1};
    char load[64] = "(unknown)";       /* timings on a shared machine: say how shared */
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fgets(load, sizeof load, lf)) {
            char *sp = strchr(load, ' ');      /* the 1, 5 and 15 minute averages */
            sp = sp ? strchr(sp + 1, ' ') : NULL;
            sp = sp ? strchr(sp + 1, ' ') : NULL;
            load[sp ? (size_t)(sp - load) : strcspn(load, "\n")] = '\0';
        }
        fclose(lf);
    }
    FILE *man = open_man(ctx, sh);
    if (ctx->inputs && !man)
        return 2;
    int rc = loss_rows(ctx, sh, lc, nl, lrows, man);
    prob_t pb = {0};
    int cur = -1;
    for (size_t c = 0; c < nr && rc == 0; c++) {
        if (rcs[c].prob != cur) {
            prob_free(&pb);
            if ((rc = prob_make(&pb, ctx, sh, rcs[c].prob)) != 0)
                break;
            cur = rcs[c].prob;
        }
        cli_progress("bench: fedpdm round, b = %zu, Q = %lu", rcs[c].b, rcs[c].Q);
        rc = round_row(ctx, &pb, sh, &rcs[c], c, &rrows[c], man);
    }
    prob_free(&pb);
    if (man && fclose(man) != 0 && rc == 0) {
        cli_error(strerror(errno), "fedpdm/manifest.txt");
        rc = 2;
    }
    if (rc)
        return rc;
    printf("\nfedpdm: 003's loss (25) with its gradient (ff_pdm_loss) and one round t = 1 of\n"
           "Algorithm 1 (ff_pdm_run: K = %zu clients x Q steps, rule FIXED, server PART, sigma = %g),\n"
           "m = %zu, n = %zu; dgemm = cblas_dgemm alone on the dense shapes (A X^T, R^T A; a round:\n"
           "K Q of them); floor = the faster of that dgemm pair and the one-hot structure's BLAS\n"
           "calls alone (b cblas_ddot + b cblas_daxpy of n); a round: K Q of them plus the libm\n"
           "calls of its K ceil(D/2) Box-Muller pairs (log, sqrt, cos, sin; the noise of (12));\n"
           "the problem sealed (rule 6); GFLOP/s of fast: stated work over its time\n"
           "(bench_fedpdm.c); load average at the start: %s\n"
           "numpy: bench/fedpdm_numpy.py on the same inputs; ref: fr_pdm_loss at %d bits, once\n",
           sh->K, SIG, sh->m, sh->n, load, REF_PREC);
    print_blas();
    if (ctx->inputs)
        rc = run_numpy(ctx, lrows, nl, rrows, nr);
    else
        printf("  numpy: not run (no --write-inputs; make bench runs it)\n");
    if (rc)
        return rc;
    printf("  %-22s %-26s%10s %8s %10s %10s %9s %9s %9s %9s %9s\n", "what", "size", "fast (s)",
           "GFLOP/s", "dgemm (s)", "floor (s)", "fast/flr", "numpy (s)", "fast/np", "ref (s)",
           "ref/fast");
    for (size_t c = 0; c < nl; c++) {
        char size[48];
        snprintf(size, sizeof size, "b = %zu", lc[c].b);
        bench_row("loss (25) + gradient", size, "%s", "");
        print_row(&lrows[c]);
    }
    for (size_t c = 0; c < nr; c++) {
        char size[48];
        snprintf(size, sizeof size, "N=%zu d=%zu b=%zu Q=%lu k=%lu", sh->N[rcs[c].prob], sh->d[rcs[c].prob],
                 rcs[c].b, rcs[c].Q, rrows[c].k);
        bench_row("round of Algorithm 1", size, "%s", "");
        print_row(&rrows[c]);
    }
    printf("  agreement: fast within ff_pdm_loss_bound of ref (largest error/bound:");
    for (size_t c = 0; c < nl; c++)
        if (lrows[c].refagree >= 0)
            printf(" %.3g", lrows[c].refagree);
    printf("); numpy within %.0e (normwise relative) of fast (as a fraction:", NP_TOL);
    for (size_t c = 0; c < nl; c++)
        if (lrows[c].nperr >= 0)
            printf(" %.3g", lrows[c].nperr);
    for (size_t c = 0; c < nr; c++)
        if (rrows[c].nperr >= 0)
            printf(" %.3g", rrows[c].nperr);
    printf(")\n");
    return 0;
}
