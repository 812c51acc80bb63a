/* SPDX-License-Identifier: Apache-2.0 */
/* bench_proxal.c -- module proxal's section of `fedref bench`: paper 004's
 * QP (25) at the shapes of Table 1 (Sec. 5.1: n in {1, 5, 10}, (d, mt) in
 * {(100, 1), (300, 3), (500, 5)}), instances from fr_proxal_gen_qp(seed),
 * a state (w, w^k, mu) seeded (stream 7600), beta = 10.  Times (CPU time,
 * CLOCK_PROCESS_CPUTIME_ID; median of reps, each an inner loop of >= 2 ms):
 *  - eval: ff_proxal_client_eval of client 1 (f, grad f, c, grad c);
 *  - lk:   ff_proxal_lk, l_k (6) and its gradient;
 *  - pik:  ff_proxal_pik of client 1, P_{1,k} (11) and its gradient;
 *  - admm: one Algorithm 2 solve of subproblem (9) at (w^k, mu) from w^k,
 *          tau = 0.1 (Algorithm 1's first call), q = 0.95, rho_i = 1, a
 *          fresh workspace (its n + 1 factorisations included);
 *  - alg1, alg3: a whole run of Algorithm 1 / cProx-AL with Table 1's
 *          parameters (cli/proxal/table1.c) at one setting, w0 = w / ||w||.
 * Against, in the same run:
 *  (a) numpy (bench/proxal_numpy.py, a subprocess; FEDREF_PROXAL_NUMPY,
 *      FEDREF_PYTHON3): the same formulas vectorised, its Algorithm 2 with
 *      numpy.linalg.cholesky/solve; it checks its results against fast's
 *      (eval/lk/pik: relative 1e-10; admm and runs: NP_RUN_TOL, docs) and
 *      times them the same way (time.process_time);
 *  (b) the BLAS/LAPACK floor of the operations each row needs, timed here:
 *      dgemv of A_i (d x d) and of C_i (mt x d), dpotrf and one solve
 *      with its factor ("potrs": two cblas_dtrsv, the fastest way to
 *      solve with one right-hand side; LAPACKE_dpotrs's NaN scans and
 *      dtrsm's packing cost more) of a client block A_1 + beta C_1^T C_1 +
 *      (1/((n+1) beta) + 1) X (column major 'U' on the symmetric matrix:
 *      no LAPACKE transposition; dpotrf by LAPACKE_dpotrf_work, no NaN
 *      scan); the problem is sealed once (fr_proxal_problem_seal);
 *      gemvA on client 1's A_1 (in cache when it fits: eval, pik), and
 *      for lk, admm and the runs, which sweep the clients, gemvA and potrs
 *      on the data they touch: each call the next client's A_i and the
 *      next of n + 1 copies of the factor (streamed from memory at n d^2
 *      beyond the caches; alg3 has one factor: potrs in cache);
 *      eval = gemvA + gemvC, pik = gemvA + 2 gemvC, lk = n gemvA + 2 (n +
 *      1) gemvC; admm = (n + 1) potrf + N potrs + ((T + 1) n + N - Ns)
 *      gemvA with T its iterations, N its Newton steps (one solve each),
 *      Ns of them the server's: the method's least work -- the n client
 *      gradients at w^0 and at every w^{t+1} ((18)), one solve per step
 *      and the gradient that verifies a client's step (the server's
 *      gradient has no A_i); alg1 = (n + 1) potrf + N potrs + (sum_k (T_k
 *      + 1) n + N - Ns + K n) gemvA (the same per Algorithm 2 call, its
 *      factors kept for the run; K n the clients' gradients of the KKT
 *      records); alg3 = H + F potrf + N potrs + (N + 1) n gemvA (H: sum_i A_i
 *      + beta C^T C once, by n - 1 daxpy and a dsyrk; F
 *      factorisations, N Newton steps: the clients' gradients at w^0 and at
 *      each Newton point; an outer iteration starts where the last one
 *      ended, at the point its gradients were formed); GFLOP/s of fast
 *      = the floor's flops (gemv 2 r c, potrs 2 d^2, potrf d^3 / 3) over
 *      fast's time;
 *  (c) ref (MPFR, outputs at 53 bits, correctly rounded) on eval, lk, pik,
 *      timed once, where n d^2 <= REF_WORK (and in --quick the runs too,
 *      at 128 bits); agreement: fast within 1e-10 (relative to max(1,
 *      |value|) and max(1, ||g||_inf)) of ref; runs within NP_RUN_TOL.
 * No timing is judged: only the agreements decide the exit status.
 * --quick: tiny shapes, seconds: agreement, not time. */
#define _GNU_SOURCE
#include <cblas.h>
#include <errno.h>
#include <lapacke.h>
#undef I                        /* complex.h's, from lapacke.h */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define BETA 10.0
#define TOL 1e-10               /* eval, lk, pik: fast vs ref and numpy */
#define NP_RUN_TOL 1e-5         /* admm and runs: the outputs (their stopping tolerances: 1e-3, tau) */
#define REF_WORK 3e6            /* ref on eval/lk/pik when n d^2 <= this */
#define NROW 6

typedef struct { size_t n, d, mt; } shape;
static const shape FULL[9] = {{1, 100, 1}, {1, 300, 3}, {1, 500, 5}, {5, 100, 1}, {5, 300, 3},
                              {5, 500, 5}, {10, 100, 1}, {10, 300, 3}, {10, 500, 5}};
static const shape QUICK[3] = {{1, 6, 1}, {2, 8, 2}, {3, 10, 3}};
static const size_t FULL_RUN = 4, QUICK_RUN = 1;   /* the setting of the whole runs */
static const char *const ROW[NROW] = {"eval", "lk", "pik", "admm", "alg1", "alg3"};

/* The largest error / tolerance of each agreement class, printed last:
 * fast vs ref (eval/lk/pik; runs), numpy vs fast (eval/lk/pik; admm, runs). */
static double agree_max[4];

/* One cell's results (negative: not measured). */
typedef struct {
    double fast, floor, flops, np, ref;
    unsigned long iters;
} cell_t;

typedef struct {
    shape s;
    cell_t c[NROW];
    double gemvA, gemvC, potrf, potrs;
    double gemvAs, potrss;      /* streaming: each call the next client's A_i / the next of n + 1 factors */
    double hsum;                /* Algorithm 3's QP Hessian: sum_i A_i + beta C^T C (hsum_full/_lower, the faster) */
} set_t;

/* ---- timing in CPU seconds ------------------------------------------------- */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double time_med(const bench_ctx *ctx, unsigned long reps, void (*fn)(void *), void *arg)
{
    double *t = malloc(reps * sizeof *t), res = -1;
    if (!t)
        return -1;
    fn(arg);                                    /* warm-up */
    unsigned long inner = bench_inner(fn, arg);
    for (unsigned long r = 0; r < reps; r++) {
        double t0 = cpu_now();
        for (unsigned long i = 0; i < inner; i++)
            fn(arg);
        t[r] = (cpu_now() - t0) / (double)inner;
    }
    res = bench_median(t, reps);
    (void)ctx;
    free(t);
    return res;
}

/* ---- the instance and the calls ------------------------------------------- */

typedef struct {
    fr_proxal_problem P;
    double *A, *b, *C, *e, *w, *wk, *mu, *w0, *rho;
    double *g, *c, *J, *H, *M, *y, *wout;
    double *Ms;                 /* n + 1 copies of the factor M (potrss) */
    size_t rotA, rotM;
    double f, v;
    int st;
    ff_proxal_admm_info info;
    fr_proxal_admm_params aprm;
    fr_proxal_alg_params prm;
    ff_proxal_trace t;
} inst_t;

static void inst_free(inst_t *X)
{
    free(X->A), free(X->b), free(X->C), free(X->e), free(X->w), free(X->wk), free(X->mu);
    free(X->w0), free(X->rho), free(X->g), free(X->c), free(X->J), free(X->H), free(X->M), free(X->Ms);
    free(X->y), free(X->wout);
    ff_proxal_trace_clear(&X->t);
    memset(X, 0, sizeof *X);
}

static double unif(frng_t *g)
{
    return (double)(frng_next64(g) >> 11) * 0x1p-53 - 0.5;
}

static int inst_make(inst_t *X, const shape *s, uint64_t seed)
{
    const size_t n = s->n, d = s->d, mt = s->mt, mtot = (n + 1) * mt;
    memset(X, 0, sizeof *X);
    X->A = malloc(n * d * d * sizeof(double));
    X->b = malloc(n * d * sizeof(double));
    X->C = malloc(mtot * d * sizeof(double));
    X->e = malloc(mtot * sizeof(double));
    X->w = malloc(d * sizeof(double)), X->wk = malloc(d * sizeof(double));
    X->w0 = malloc(d * sizeof(double)), X->wout = malloc(d * sizeof(double));
    X->y = malloc(d * sizeof(double)), X->g = malloc(d * sizeof(double));
    X->mu = malloc(mtot * sizeof(double)), X->c = malloc(mt * sizeof(double));
    X->J = malloc(d * mt * sizeof(double)), X->rho = malloc(n * sizeof(double));
    X->H = malloc(d * d * sizeof(double)), X->M = malloc(d * d * sizeof(double));
    if (!X->A || !X->b || !X->C || !X->e || !X->w || !X->wk || !X->w0 || !X->wout || !X->y || !X->g ||
        !X->mu || !X->c || !X->J || !X->rho || !X->H || !X->M)
        return FR_ENOMEM;
    int st = fr_proxal_gen_qp(X->A, X->b, X->C, X->e, n, d, mt, seed);
    if (st != FR_OK)
        return st;
    frng_t g;
    frng_init(&g, seed, 7600);
    double s2 = 0;
    for (size_t k = 0; k < d; k++) {
        X->w[k] = unif(&g);
        X->wk[k] = X->w[k] + 0.1 * unif(&g);
        s2 += X->w[k] * X->w[k];
    }
    for (size_t k = 0; k < d; k++)
        X->w0[k] = X->w[k] / sqrt(s2);
    for (size_t j = 0; j < mtot; j++)
        X->mu[j] = unif(&g);
    for (size_t i = 0; i < n; i++)
        X->rho[i] = 1;
    X->P = (fr_proxal_problem){.kind = FR_PROXAL_QP, .n = n, .d = d, .mt = mt, .A = X->A, .b = X->b,
                               .C = X->C, .e = X->e, .h = FR_PROXAL_H_ZERO};
    X->aprm = (fr_proxal_admm_params){.tau = 0.1, .q = 0.95, .rho = X->rho, .tmax = 10000,
                                      .newton_max = 50, .eps18 = FR_PROXAL_EPS18_PRINTED};
    X->prm = (fr_proxal_alg_params){.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 0.1, .beta = BETA, .kmax = 10000,
                                    .admm = X->aprm, .w0 = X->w0, .mu0 = NULL, .keep = 0};
    X->prm.admm.tau = 1;
    if ((st = fr_proxal_problem_seal(&X->P)) != FR_OK)   /* checked once (fedref_common.h rule 6) */
        return st;
    return ff_proxal_trace_init(&X->t, &X->P, &X->prm);
}

static void eval_once(void *p)
{
    inst_t *X = p;
    int st = ff_proxal_client_eval(&X->P, 1, X->w, &X->f, X->g, NULL, X->c, X->J, NULL, NULL);
    X->st = X->st ? X->st : st;
}

static void lk_once(void *p)
{
    inst_t *X = p;
    int st = ff_proxal_lk(&X->v, X->g, &X->P, X->w, X->wk, X->mu, BETA);
    X->st = X->st ? X->st : st;
}

static void pik_once(void *p)
{
    inst_t *X = p;
    int st = ff_proxal_pik(&X->v, X->g, NULL, &X->P, 1, X->w, X->wk, X->mu, BETA);
    X->st = X->st ? X->st : st;
}

static void admm_once(void *p)
{
    inst_t *X = p;
    ff_proxal_admm_ws *ws = NULL;
    ff_proxal_fsum F;
    ff_proxal_pk_ctx cx;
    int st = ff_proxal_admm_ws_init(&ws, X->P.n, X->P.d);
    if (st == FR_OK)
        st = ff_proxal_pk_fsum(&F, &cx, &X->P, X->wk, X->mu, BETA);
    if (st == FR_OK)
        st = ff_proxal_admm(X->wout, &X->info, ws, &F, X->wk, &X->aprm);
    ff_proxal_admm_ws_clear(&ws);
    X->st = X->st ? X->st : st;
}

static void alg1_once(void *p)
{
    inst_t *X = p;
    int st = ff_proxal_alg1(&X->t, &X->P, &X->prm);
    X->st = X->st ? X->st : st;
}

static void alg3_once(void *p)
{
    inst_t *X = p;
    int st = ff_proxal_alg3(&X->t, &X->P, &X->prm);
    X->st = X->st ? X->st : st;
}

/* BLAS floor operations on client 1's data. */
static void gemvA_once(void *p)
{
    inst_t *X = p;
    int d = (int)X->P.d;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, d, d, 1.0, X->A, d, X->w, 1, 0.0, X->y, 1);
}

static void gemvC_once(void *p)
{
    inst_t *X = p;
    int d = (int)X->P.d, mt = (int)X->P.mt;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, mt, d, 1.0, X->C + X->P.mt * X->P.d, d, X->w, 1, 0.0, X->c, 1);
}

/* The same on the data a run touches: each call the next client's A_i (of
 * n: n d^2 doubles, out of cache when large, as in lk, admm and the runs). */
static void gemvAs_once(void *p)
{
    inst_t *X = p;
    int d = (int)X->P.d;
    const double *A = X->A + (X->rotA++ % X->P.n) * X->P.d * X->P.d;
    cblas_dgemv(CblasRowMajor, CblasNoTrans, d, d, 1.0, A, d, X->w, 1, 0.0, X->y, 1);
}

/* dpotrf by LAPACKE's _work entry (no NaN scan of the matrix), 'U' on the
 * column-major view of the symmetric H */
static void potrf_once(void *p)
{
    inst_t *X = p;
    size_t d = X->P.d;
    memcpy(X->M, X->H, d * d * sizeof(double));
    X->st = X->st ? X->st : LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', (lapack_int)d, X->M, (lapack_int)d);
}

/* one solve with the factor U^T U: two cblas_dtrsv (what dpotrs computes,
 * without LAPACKE's NaN scans of U and the right-hand side and without
 * dtrsm's packing of the triangle for one right-hand side) */
static void potrs_once(void *p)
{
    inst_t *X = p;
    int d = (int)X->P.d;
    memcpy(X->y, X->w, (size_t)d * sizeof(double));
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, d, X->M, d, X->y, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, d, X->M, d, X->y, 1);
}

/* the same, each call with the next of n + 1 copies of the factor (Algorithm
 * 2 solves with n + 1 factors in turn) */
static void potrss_once(void *p)
{
    inst_t *X = p;
    int d = (int)X->P.d;
    const double *M = X->Ms + (X->rotM++ % (X->P.n + 1)) * X->P.d * X->P.d;
    memcpy(X->y, X->w, (size_t)d * sizeof(double));
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, d, M, d, X->y, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, d, M, d, X->y, 1);
}

/* Algorithm 3's Hessian of l_k on (25), once per run: sum_i A_i (n - 1
 * daxpy) + beta C^T C (one dsyrk on the n + 1 blocks of C) into Ms's first
 * block, on the whole matrix or (daxpy per row) on the lower triangle that
 * dsyrk and the Cholesky read */
static void hsum_full_once(void *p)
{
    inst_t *X = p;
    const int d = (int)X->P.d, dd = d * d;
    cblas_dcopy(dd, X->A, 1, X->Ms, 1);
    for (size_t i = 1; i < X->P.n; i++)
        cblas_daxpy(dd, 1.0, X->A + i * (size_t)dd, 1, X->Ms, 1);
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, d, (int)((X->P.n + 1) * X->P.mt), BETA, X->C, d, 1.0,
                X->Ms, d);
}

static void hsum_lower_once(void *p)
{
    inst_t *X = p;
    const size_t d = X->P.d, dd = d * d;
    for (size_t k = 0; k < d; k++) {
        cblas_dcopy((int)k + 1, X->A + k * d, 1, X->Ms + k * d, 1);
        for (size_t i = 1; i < X->P.n; i++)
            cblas_daxpy((int)k + 1, 1.0, X->A + i * dd + k * d, 1, X->Ms + k * d, 1);
    }
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)d, (int)((X->P.n + 1) * X->P.mt), BETA, X->C,
                (int)d, 1.0, X->Ms, (int)d);
}

/* ---- ref ------------------------------------------------------------------- */

static double relerr(double v, double vr)
{
    return fabs(v - vr) / fmax(1.0, fabs(vr));
}

static double gerr(const double *g, mpfr_t *gr, size_t d)
{
    double e = 0, m = 1;
    for (size_t k = 0; k < d; k++)
        m = fmax(m, fabs(mpfr_get_d(gr[k], MPFR_RNDN)));
    for (size_t k = 0; k < d; k++)
        e = fmax(e, fabs(g[k] - mpfr_get_d(gr[k], MPFR_RNDN)));
    return e / m;
}

/* ref on row r (0 eval, 1 lk, 2 pik) of X, timed once; agreement with the
 * fast outputs in X->v / X->f, X->g.  Seconds, or -1 after cli_error. */
static double ref_row(bench_ctx *ctx, inst_t *X, int r, double fv, const double *fg)
{
    const size_t d = X->P.d, mt = X->P.mt, mtot = (X->P.n + 1) * mt;
    mpfr_t *w = bench_mp_array(X->w, d), *wk = bench_mp_array(X->wk, d), *mu = bench_mp_array(X->mu, mtot);
    mpfr_t *g = bench_mp_array(NULL, d), *c = bench_mp_array(NULL, mt), *J = bench_mp_array(NULL, d * mt);
    mpfr_t val, be;
    double t = -1;
    if (w && wk && mu && g && c && J) {
        mpfr_inits2(53, val, be, (mpfr_ptr)0);
        mpfr_set_d(be, BETA, MPFR_RNDN);
        double t0 = cpu_now();
        int st = r == 0 ? fr_proxal_client_eval(&X->P, 1, w, val, g, NULL, c, J, NULL, NULL)
               : r == 1 ? fr_proxal_lk(val, g, &X->P, w, wk, mu, be)
                        : fr_proxal_pik(val, g, NULL, &X->P, 1, w, wk, mu, be);
        t = cpu_now() - t0;
        if (st != FR_OK) {
            cli_error(fr_strerror(st), "bench proxal: ref");
            t = -1;
        } else {
            char what[96];
            snprintf(what, sizeof what, "proxal %s n=%zu d=%zu: fast vs ref", ROW[r], X->P.n, d);
            double a = bench_agree(ctx, what, fmax(relerr(fv, mpfr_get_d(val, MPFR_RNDN)), gerr(fg, g, d)), TOL);
            agree_max[0] = fmax(agree_max[0], a);
        }
        mpfr_clears(val, be, (mpfr_ptr)0);
    } else {
        cli_error("out of memory", "bench proxal ref");
    }
    bench_mp_free(w, w ? d : 0), bench_mp_free(wk, wk ? d : 0), bench_mp_free(mu, mu ? mtot : 0);
    bench_mp_free(g, g ? d : 0), bench_mp_free(c, c ? mt : 0), bench_mp_free(J, J ? d * mt : 0);
    return t;
}

/* ref's Algorithm 1 or 3 at 128 bits (--quick), timed once; its w against fast's. */
static double ref_run(bench_ctx *ctx, inst_t *X, int alg3, const double *wf)
{
    fr_proxal_trace t;
    const size_t d = X->P.d;
    if (fr_proxal_trace_init(&t, &X->P, &X->prm, 128) != FR_OK) {
        cli_error("cannot initialise a ref trace", "bench proxal");
        return -1;
    }
    double t0 = cpu_now();
    int st = alg3 ? fr_proxal_alg3(&t, &X->P, &X->prm) : fr_proxal_alg1(&t, &X->P, &X->prm);
    double sec = cpu_now() - t0;
    if (st != FR_OK) {
        cli_error(fr_strerror(st), "bench proxal: ref run");
        fr_proxal_trace_clear(&t);
        return -1;
    }
    double e = 0, m = 1;
    for (size_t k = 0; k < d; k++) {
        double x = mpfr_get_d(t.w[k], MPFR_RNDN);
        e = fmax(e, fabs(wf[k] - x));
        m = fmax(m, fabs(x));
    }
    char what[64];
    snprintf(what, sizeof what, "proxal %s: fast vs ref (w)", alg3 ? "alg3" : "alg1");
    agree_max[1] = fmax(agree_max[1], bench_agree(ctx, what, e / m, NP_RUN_TOL));
    fr_proxal_trace_clear(&t);
    return sec;
}

/* ---- numpy's inputs ---------------------------------------------------------- */

static int put(bench_ctx *ctx, const char *dir, const char *name, size_t s, const double *x, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/s%zu_%s.f64", dir, s, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(x, sizeof *x, len, f) != len || fclose(f) != 0) {
        cli_error(strerror(errno), path);
        return 2;
    }
    (void)ctx;
    return 0;
}

/* ---- one setting ----------------------------------------------------------- */

static int do_setting(bench_ctx *ctx, set_t *S, size_t si, int runs, const char *dir, FILE *man)
{
    const shape *s = &S->s;
    const size_t n = s->n, d = s->d, mt = s->mt;
    const double D = (double)d;
    inst_t X;
    int rc = 0, st = inst_make(&X, s, ctx->seed + si);
    if (st != FR_OK) {
        cli_error(fr_strerror(st), "bench proxal: instance");
        inst_free(&X);
        return 2;
    }
    cli_progress("bench: proxal n = %zu, d = %zu, mt = %zu", n, d, mt);
    for (int r = 0; r < NROW; r++)
        S->c[r] = (cell_t){-1, -1, -1, -1, -1, 0};
    /* the floor's operations (client 1's block: H = Hess P_{1,k} + rho X) */
    if ((st = ff_proxal_pik(NULL, NULL, X.H, &X.P, 1, X.w, X.wk, X.mu, BETA)) != FR_OK) {
        cli_error(fr_strerror(st), "bench proxal: ff_proxal_pik");
        inst_free(&X);
        return 2;
    }
    for (size_t k = 0; k < d; k++)
        X.H[k * d + k] += 1.0;
    S->gemvA = time_med(ctx, ctx->reps, gemvA_once, &X);
    S->gemvC = time_med(ctx, ctx->reps, gemvC_once, &X);
    S->potrf = time_med(ctx, ctx->reps, potrf_once, &X);
    S->potrs = time_med(ctx, ctx->reps, potrs_once, &X);
    S->gemvAs = time_med(ctx, ctx->reps, gemvAs_once, &X);
    if ((X.Ms = malloc((n + 1) * d * d * sizeof(double))) == NULL) {
        cli_error("out of memory", "bench proxal");
        inst_free(&X);
        return 2;
    }
    for (size_t j = 0; j <= n; j++)
        memcpy(X.Ms + j * d * d, X.M, d * d * sizeof(double));
    S->potrss = time_med(ctx, ctx->reps, potrss_once, &X);
    S->hsum = fmin(time_med(ctx, ctx->reps, hsum_full_once, &X), time_med(ctx, ctx->reps, hsum_lower_once, &X));
    const double fA = 2 * D * D, fC = 2 * D * (double)mt, fR = D * D * D / 3, fS = 2 * D * D;
    /* eval, lk, pik */
    void (*fn[3])(void *) = {eval_once, lk_once, pik_once};
    const double flo[3] = {S->gemvA + S->gemvC, (double)n * S->gemvAs + 2.0 * (double)(n + 1) * S->gemvC,
                           S->gemvA + 2 * S->gemvC};
    const double fl[3] = {fA + fC, (double)n * fA + 2.0 * (double)(n + 1) * fC, fA + 2 * fC};
    for (int r = 0; r < 3 && rc == 0; r++) {
        X.st = 0;
        S->c[r].fast = time_med(ctx, ctx->reps, fn[r], &X);
        if (X.st != FR_OK) {
            cli_error(fr_strerror(X.st), ROW[r]);
            rc = 2;
            break;
        }
        S->c[r].floor = flo[r];
        S->c[r].flops = fl[r];
        double fv = r == 0 ? X.f : X.v;
        if (ctx->quick || (double)n * D * D <= REF_WORK)
            if ((S->c[r].ref = ref_row(ctx, &X, r, fv, X.g)) < 0)
                rc = 2;
        if (man) {
            fprintf(man, "%s %zu %a\n", ROW[r], si, fv);
            rc = rc ? rc : put(ctx, dir, ROW[r], si, X.g, d);
            if (r == 0 && rc == 0)
                rc = put(ctx, dir, "eval_c", si, X.c, mt);
        }
    }
    /* one Algorithm 2 solve */
    if (rc == 0) {
        X.st = 0;
        unsigned long reps = ctx->reps;
        S->c[3].fast = time_med(ctx, reps, admm_once, &X);
        if (X.st != FR_OK) {
            cli_error(fr_strerror(X.st), "bench proxal: ff_proxal_admm");
            rc = 2;
        } else {
            double T = (double)X.info.iters, N = (double)X.info.newton;
            double G = (T + 1) * (double)n + N - (double)X.info.newton_server;   /* gemvA */
            S->c[3].iters = X.info.iters;
            S->c[3].floor = (double)(n + 1) * S->potrf + N * S->potrss + G * S->gemvAs;
            S->c[3].flops = (double)(n + 1) * fR + N * fS + G * fA;
            if (man) {
                fprintf(man, "admm %zu %lu\n", si, X.info.iters);
                rc = put(ctx, dir, "admm_w", si, X.wout, d);
            }
        }
    }
    /* whole runs */
    for (int a = 0; a < 2 && rc == 0 && runs; a++) {
        X.st = 0;
        unsigned long reps = ctx->quick ? ctx->reps : (ctx->reps < 3 ? ctx->reps : 3);
        S->c[4 + a].fast = time_med(ctx, reps, a ? alg3_once : alg1_once, &X);
        if (X.st != FR_OK || !X.t.terminated) {
            cli_error(X.st ? fr_strerror(X.st) : "did not terminate", a ? "bench proxal: alg3" : "bench proxal: alg1");
            rc = 2;
            break;
        }
        double Tsum = 0, K = (double)X.t.iters;
        for (size_t k = 0; k < X.t.iters; k++)
            Tsum += (double)X.t.inner[k];
        cell_t *c = &S->c[4 + a];
        c->iters = X.t.iters;
        if (!a) {
            double N = (double)X.t.newton;
            double G = (Tsum + K) * (double)n + N - (double)X.t.newton_server + K * (double)n;   /* gemvA */
            c->floor = (double)(n + 1) * S->potrf + N * S->potrss + G * S->gemvAs;
            c->flops = (double)(n + 1) * fR + N * fS + G * fA;
        } else {
            double F = (double)X.t.factorisations;
            c->floor = S->hsum + F * S->potrf + Tsum * S->potrs + (Tsum + 1) * (double)n * S->gemvAs;
            c->flops = F * fR + Tsum * fS + (Tsum + 1) * (double)n * fA;
        }
        if (ctx->quick)
            c->ref = ref_run(ctx, &X, a, X.t.w);
        if (man) {
            fprintf(man, "%s %zu %zu %a\n", ROW[4 + a], si, X.t.iters, X.t.obj[X.t.iters - 1]);
            rc = put(ctx, dir, ROW[4 + a], si, X.t.w, d);
        }
    }
    if (man && rc == 0) {
        fprintf(man, "setting %zu %zu %zu %zu %a %d\n", si, n, d, mt, BETA, runs);
        const double *src[] = {X.A, X.b, X.C, X.e, X.w, X.wk, X.mu, X.w0};
        const size_t len[] = {n * d * d, n * d, (n + 1) * mt * d, (n + 1) * mt, d, d, (n + 1) * mt, d};
        static const char *const nm[] = {"A", "b", "C", "e", "w", "wk", "mu", "w0"};
        for (int k = 0; k < 8 && rc == 0; k++)
            rc = put(ctx, dir, nm[k], si, src[k], len[k]);
    }
    inst_free(&X);
    return rc;
}

/* ---- numpy, as a subprocess --------------------------------------------------- */

static int run_numpy(bench_ctx *ctx, const char *dir, set_t *S, size_t ns, int *ran)
{
    FILE *f;
    *ran = 0;
    int rc = bench_numpy_script(ctx, "proxal", "FEDREF_PROXAL_NUMPY", "bench/proxal_numpy.py", ctx->reps,
                                dir, &f);
    if (rc != 0 || f == NULL)
        return rc;
    *ran = 1;
    char kind[16];
    size_t idx;
    double sec, err;
    while (fscanf(f, "%15s %zu %lf %lf", kind, &idx, &sec, &err) == 4) {
        int r = 0;
        while (r < NROW && strcmp(kind, ROW[r]) != 0)
            r++;
        if (r == NROW || idx >= ns)
            continue;
        S[idx].c[r].np = sec;
        char what[64];
        snprintf(what, sizeof what, "proxal numpy %s %zu against fast", kind, idx);
        double q = bench_agree(ctx, what, err, r < 3 ? TOL : NP_RUN_TOL);
        agree_max[r < 3 ? 2 : 3] = fmax(agree_max[r < 3 ? 2 : 3], q);
    }
    fclose(f);
    return 0;
}

/* ---- the section ------------------------------------------------------------- */

static int rm_tree(const char *dir)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

int bench_proxal(bench_ctx *ctx)
{
    const int q = ctx->quick;
    const shape *sh = q ? QUICK : FULL;
    const size_t ns = q ? 3 : 9, runat = q ? QUICK_RUN : FULL_RUN;
    set_t S[9];
    for (int k = 0; k < 4; k++)
        agree_max[k] = 0;
    char dir[4096], tmpl[] = "/tmp/fedref-bench-proxal-XXXXXX";
    int own = 0;
    if (ctx->inputs) {
        snprintf(dir, sizeof dir, "%s/proxal", ctx->inputs);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            cli_error(strerror(errno), dir);
            return 2;
        }
    } else {
        if (!mkdtemp(tmpl)) {
            cli_error(strerror(errno), "bench proxal: mkdtemp");
            return 2;
        }
        snprintf(dir, sizeof dir, "%s", tmpl);
        own = 1;
    }
    char mpath[4200];
    snprintf(mpath, sizeof mpath, "%s/manifest.txt", dir);
    FILE *man = fopen(mpath, "w");
    if (!man) {
        cli_error(strerror(errno), mpath);
        if (own)
            rm_tree(dir);
        return 2;
    }
    fprintf(man, "# fedref bench, module proxal: seed %llu%s; bench/proxal_numpy.py reads this\nreps %lu\n",
            (unsigned long long)ctx->seed, q ? ", quick sizes" : "", ctx->reps);
    int rc = 0;
    for (size_t s = 0; s < ns && rc == 0; s++) {
        S[s].s = sh[s];
        rc = do_setting(ctx, &S[s], s, s == runat, dir, man);
    }
    if (fclose(man) != 0 && rc == 0) {
        cli_error(strerror(errno), mpath);
        rc = 2;
    }
    int ran = 0;
    if (rc == 0)
        rc = run_numpy(ctx, dir, S, ns, &ran);
    if (own)
        rm_tree(dir);
    if (rc)
        return rc;
    printf("\nproxal: 004's QP (25) at Table 1's shapes, beta = %g; CPU time (one process), medians of %lu\n"
           "(whole runs: of min(reps, 3)); fast = libfedfast; floor = the BLAS/LAPACK operations the row\n"
           "needs, timed here (bench_proxal.c: eval gemvA+gemvC, pik gemvA+2gemvC, lk n gemvA+2(n+1)gemvC,\n"
           "admm (n+1) potrf + N potrs + ((T+1)n + N-Ns) gemvA, alg1 the same summed + Kn gemvA,\n"
           "alg3 H + F potrf + N potrs + (N+1) n gemvA, H = (n-1) daxpy + dsyrk; potrs = 2 dtrsv;\n"
           "T/K iterations, N (Ns) Newton steps;\n"
           "lk/admm/alg1/alg3: gemvA and (admm, alg1) potrs streamed over the n clients' data);\n"
           "GF/s = the floor's flops / fast's time; numpy = bench/proxal_numpy.py; ref = MPFR, once\n",
           BETA, ctx->reps);
    printf("  %-5s %-18s %6s %11s %11s %8s %7s %11s %8s %11s %9s\n", "what", "n d mt", "T/K", "fast (us)",
           "floor (us)", "fast/flr", "GF/s", "numpy (us)", "fast/np", "ref (us)", "ref/fast");
    for (int r = 0; r < NROW; r++)
        for (size_t s = 0; s < ns; s++) {
            const cell_t *c = &S[s].c[r];
            if (c->fast < 0)
                continue;
            char size[32], it[16] = "";
            snprintf(size, sizeof size, "%zu %zu %zu", S[s].s.n, S[s].s.d, S[s].s.mt);
            if (r >= 3)
                snprintf(it, sizeof it, "%lu", c->iters);
            printf("  %-5s %-18s %6s %11.4g %11.4g %8.3g %7.3g", ROW[r], size, it, 1e6 * c->fast,
                   1e6 * c->floor, c->fast / c->floor, 1e-9 * c->flops / c->fast);
            bench_cell(c->np >= 0 ? 1e6 * c->np : -1, " %11.4g");
            bench_cell(c->np > 0 ? c->fast / c->np : -1, " %8.3g");
            bench_cell(c->ref >= 0 ? 1e6 * c->ref : -1, " %11.4g");
            bench_cell(c->ref >= 0 ? c->ref / c->fast : -1, " %9.3g");
            printf("\n");
        }
    printf("  BLAS/LAPACK rates (GFLOP/s): n d mt: dgemv A_1, dpotrf, potrs = 2 dtrsv (col-major 'U');"
           " streamed: dgemv A_i, potrs\n");
    for (size_t s = 0; s < ns; s++) {
        double D = (double)S[s].s.d;
        printf("    %zu %zu %zu: %.3g %.3g %.3g; %.3g %.3g  (us: %.4g %.4g %.4g; %.4g %.4g)\n", S[s].s.n, S[s].s.d,
               S[s].s.mt, 2e-9 * D * D / S[s].gemvA, 1e-9 * D * D * D / 3 / S[s].potrf, 2e-9 * D * D / S[s].potrs,
               2e-9 * D * D / S[s].gemvAs, 2e-9 * D * D / S[s].potrss, 1e6 * S[s].gemvA, 1e6 * S[s].potrf,
               1e6 * S[s].potrs, 1e6 * S[s].gemvAs, 1e6 * S[s].potrss);
    }
    printf("  agreement, largest error/tolerance: fast vs ref %.3g (eval, lk, pik; %g)", agree_max[0], TOL);
    if (q)
        printf(", %.3g (runs' w; %g)", agree_max[1], NP_RUN_TOL);
    if (ran)
        printf("; numpy vs fast %.3g (eval, lk, pik; %g), %.3g (admm, runs: w; %g)", agree_max[2], TOL,
               agree_max[3], NP_RUN_TOL);
    else
        printf("; numpy not run");
    printf("\n");
    return 0;
}
