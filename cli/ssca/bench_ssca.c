/* SPDX-License-Identifier: Apache-2.0 */
/* bench_ssca.c -- module ssca's section of `fedref bench`: one round of
 * Algorithm 1 (000 Sec. III-A, sample-based, problem (32)) and of
 * Algorithm 3 (000 Sec. IV-A, feature-based, (32)) on the two-layer swish
 * network of 000 Sec. V at the sizes of 000 Sec. VI (N = 60000 samples
 * split over I = 10 clients, P = 784, J = 128, L = 10; d = J (L + P) =
 * 101632), at 000 Sec. VI's parameters for each batch size (lambda = 1e-5;
 * rho = a1 t^-alpha, gamma = a2 t^-alpha, tau per B), weight
 * FR_SSCA_W_EXACT (docs/SSCA.md 3).  The data are fr_ssca_synth's (exact
 * dyadic, not MNIST), the initial point fr_ssca_init_w's.
 *
 * For each case (Algorithm 1: B = 10, 100, 6000 per client; Algorithm 3:
 * B = 10, 100, 1000 at the server), in one process:
 *  - fast's round: ff_ssca_run with T = k + 1 minus ff_ssca_run with T = 2
 *    (the same set-up: trace, workspace, w^1), divided by k - 1, paired
 *    per repetition; keep = 0 (no F(w^t) over all N samples, no draws);
 *  - the floor: cblas_dgemm alone on the products of fast's round
 *    (round_shapes: the batch rows stacked and chunked as ff_ssca_run
 *    does, fast/ssca/run.c and net_eval.c), each as C or as C^T, whichever
 *    dgemm runs faster (floor_pick), on operands that stay in place (no
 *    gather, no elementwise work); fast/floor is fast's round over it;
 *  - the data are sealed once (fr_ssca_data_seal): no ff_ssca_run
 *    re-scans Z (376 MB at full size);
 *  - the round's floating-point work, stated: gemm 2 m n k each as above,
 *    i.e. 2 nb (2 J P + 3 L J) with nb = I B (Algorithm 1) or B
 *    (Algorithm 3), plus elementwise work counted as 10 flops per hidden
 *    entry (swish and S' from one exp, the product Delta = C .* S'), 6 per
 *    output entry (max, shift, exp, sum, divide, label), and the server's
 *    O(d) recursions (9)/(36)-(37), (35), (38)-(39), (5): (2 nc' + 14) d
 *    with nc' = I (Algorithm 1) or 1 (Algorithm 3); each exp or log
 *    counted as one flop.  fast's GFLOP/s is that count over its round,
 *    the dgemm rate the gemm count over the floor;
 *  - ref at 128 bits (fr_ssca_run, T = 2, timed once) against fast, on a
 *    problem of the same sizes with few samples (ref_row says why), where
 *    ref is affordable (B = 10; a larger B is skipped when its time,
 *    predicted linear in the batch rows from B = 10, exceeds 120 s, and
 *    the table says so); agreement: fast's w^2 against ref's, as the normwise
 *    relative difference max_k |w_fast - w_ref| / max_k |w_ref| against
 *    1e-12 (an empirical tolerance: one round, no proved trajectory bound;
 *    fedfast/ssca.h);
 *  - with --write-inputs DIR: DIR/ssca/ receives Z (N x P), the labels,
 *    and per case w^1, the round's batch as global row indices (from a
 *    T = 2 run with KEEP_DRAWS) and fast's w^2; DIR/ssca/manifest.txt
 *    names them with the parameters and fast's median round time, for
 *    bench/ssca_numpy.py (the same round in numpy, checked against fast's
 *    w^2, then timed).
 * --quick: nc = 3 clients of 40 samples, P = 16, J = 6, L = 3, ref at
 * every B: agreement (fast, ref, and numpy through the inputs), not time. */
#define _GNU_SOURCE             /* dladdr, RTLD_DEFAULT: naming the BLAS */
#include <cblas.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../cli.h"
#include "bench_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 128
#define AGREE_TOL 1e-12
#define REF_BUDGET 120.0        /* seconds: a ref run predicted longer is skipped */

/* One case of the table: algorithm, batch and 000 Sec. VI's parameters. */
typedef struct {
    int algo;
    size_t B;
    double a1, a2, alpha, tau;
} scase;

/* 000 Sec. VI (sample-based B = 10, 100, 6000; feature-based 10, 100, 1000). */
static const scase full_cases[] = {
    {FR_SSCA_ALG1, 10, 0.9, 0.5, 0.1, 0.2},
    {FR_SSCA_ALG1, 100, 0.3, 0.3, 0.1, 0.05},
    {FR_SSCA_ALG1, 6000, 0.2, 0.3, 0.1, 0.03},
    {FR_SSCA_ALG3, 10, 0.9, 0.3, 0.3, 0.1},
    {FR_SSCA_ALG3, 100, 0.9, 0.5, 0.1, 0.2},
    {FR_SSCA_ALG3, 1000, 0.3, 0.3, 0.1, 0.05},
};
static const scase quick_cases[] = {
    {FR_SSCA_ALG1, 2, 0.9, 0.5, 0.1, 0.2},
    {FR_SSCA_ALG1, 5, 0.3, 0.3, 0.1, 0.05},
    {FR_SSCA_ALG1, 40, 0.2, 0.3, 0.1, 0.03},
    {FR_SSCA_ALG3, 2, 0.9, 0.3, 0.3, 0.1},
    {FR_SSCA_ALG3, 5, 0.9, 0.5, 0.1, 0.2},
    {FR_SSCA_ALG3, 30, 0.3, 0.3, 0.1, 0.05},
};

typedef struct {
    fr_ssca_data D;
    size_t d, *Ni, *Pi, *y;
    double *Z, *w1;
    double *gbuf;               /* buffers of the dgemm floor */
    size_t gbuf_len;
    FILE *man;                  /* DIR/ssca/manifest.txt or NULL */
    double ref_per_sample;      /* seconds of ref per batch sample, from the first ref run */
} sctx;

/* ---- the gemm floor ---------------------------------------------------------- */

typedef struct {
    int ta, tb;
    size_t m, n, k, lda, ldb;
    double beta;
    int tr;                     /* the floor forms C^T = op(B)^T op(A)^T (the faster) */
} gshape;

/* fast's chunk of batch rows (FFI_SSCA_CHUNK, fast/ssca/run.h: an internal
 * of libfedfast, mirrored here; only the floor's shapes depend on it). */
#define FAST_CHUNK 2048

/* The gemm shapes of one round as ff_ssca_run makes them (fast/ssca/run.c
 * ffi_ssca_pass, net_eval.c ffi_ssca_net_eval_ws): the nb batch rows of
 * the round (I B stacked, Algorithm 1; B, Algorithm 3) in chunks of at
 * most FAST_CHUNK rows, per chunk of nr rows
 *   U = Z W1^T (nr x J x P; Algorithm 3: h_i = Z_i W1_i^T, nr x J x P_i
 *   for each client, strided in Z and W1), O = S W0^T (nr x L x J),
 *   A (+)= R^T S (L x J x nr), C = R W0 (nr x J x L),
 *   Bg (+)= Delta^T Z (J x P x nr),
 * with beta = 1 after the first chunk.  Returns the count (<= 5 + nc per
 * chunk; g holds cap). */
static size_t round_shapes(const sctx *s, const scase *c, gshape *g, size_t cap)
{
    const fr_ssca_data *D = &s->D;
    const size_t J = D->J, L = D->L, P = D->P;
    const int a1 = c->algo == FR_SSCA_ALG1;
    const size_t nb = a1 ? D->nc * c->B : c->B;
    size_t k = 0;
    for (size_t c0 = 0; c0 < nb; c0 += FAST_CHUNK) {
        const size_t nr = nb - c0 < FAST_CHUNK ? nb - c0 : FAST_CHUNK;
        const double beta = c0 > 0 ? 1.0 : 0.0;
        if (k + 5 > cap)
            break;
        /* U = Z W1^T: one product in both algorithms (fast forms the
         * feature-based sum of the clients' h_i = Z_i W1_i^T as Z W1^T) */
        g[k++] = (gshape){0, 1, nr, J, P, P, P, 0.0, 0};
        g[k++] = (gshape){0, 1, nr, L, J, J, J, 0.0, 0};
        g[k++] = (gshape){1, 0, L, J, nr, L, J, beta, 0};
        g[k++] = (gshape){0, 0, nr, J, L, L, J, 0.0, 0};
        g[k++] = (gshape){1, 0, J, P, nr, J, P, beta, 0};
    }
    return k;
}

static double gemm_flops(const gshape *g, size_t ng)
{
    double f = 0;
    for (size_t k = 0; k < ng; k++)
        f += 2.0 * (double)g[k].m * (double)g[k].n * (double)g[k].k;
    return f;
}

/* The stated work of one round (head comment). */
static double round_flops(const sctx *s, const scase *c, double gemm)
{
    const fr_ssca_data *D = &s->D;
    const int a1 = c->algo == FR_SSCA_ALG1;
    const double nb = (double)c->B * (a1 ? (double)D->nc : 1.0), ncs = a1 ? (double)D->nc : 1.0;
    const double hsum = a1 ? 0 : nb * (double)D->J * (double)(D->nc - 1);   /* u = sum_i h_i */
    return gemm + hsum + nb * (10.0 * (double)D->J + 6.0 * (double)D->L)
           + (2 * ncs + 14) * (double)s->d;
}

typedef struct {
    const gshape *g;
    size_t ng;
    double *A, *B, *C;
} floor_arg;

/* One shape: C = op(A) op(B) (m x n), or (tr) the same product as C^T =
 * op(B)^T op(A)^T (n x m), whichever dgemm runs faster (floor_pick). */
static void floor_shape(const floor_arg *f, const gshape *g)
{
    if (!g->tr)
        cblas_dgemm(CblasRowMajor, g->ta ? CblasTrans : CblasNoTrans,
                    g->tb ? CblasTrans : CblasNoTrans, (int)g->m, (int)g->n, (int)g->k, 1.0,
                    f->A, (int)g->lda, f->B, (int)g->ldb, g->beta, f->C, (int)g->n);
    else
        cblas_dgemm(CblasRowMajor, g->tb ? CblasNoTrans : CblasTrans,
                    g->ta ? CblasNoTrans : CblasTrans, (int)g->n, (int)g->m, (int)g->k, 1.0,
                    f->B, (int)g->ldb, f->A, (int)g->lda, g->beta, f->C, (int)g->m);
}

/* Operands are filled once with small numbers (the rate of dgemm does not
 * depend on the values of finite operands). */
static void floor_once(void *p)
{
    const floor_arg *f = p;
    for (size_t q = 0; q < f->ng; q++)
        floor_shape(f, &f->g[q]);
}

/* The floor is the fastest dgemm calls for the round's products: for each
 * shape, C or C^T, the faster of the two by the least of 5 timings of
 * enough calls to last ~2 ms. */
static void floor_pick(floor_arg *f, gshape *g, size_t ng)
{
    for (size_t q = 0; q < ng; q++) {
        double best[2];
        for (int tr = 0; tr < 2; tr++) {
            g[q].tr = tr;
            floor_shape(f, &g[q]);
            double t0 = bench_now();
            floor_shape(f, &g[q]);
            const double one = fmax(bench_now() - t0, 1e-7);
            const unsigned long n = (unsigned long)fmin(1000, fmax(1, 2e-3 / one));
            best[tr] = INFINITY;
            for (int r = 0; r < 5; r++) {
                t0 = bench_now();
                for (unsigned long i = 0; i < n; i++)
                    floor_shape(f, &g[q]);
                best[tr] = fmin(best[tr], (bench_now() - t0) / (double)n);
            }
        }
        g[q].tr = best[1] < best[0];
    }
}

/* ---- runs ----------------------------------------------------------------------- */

static fr_ssca_params params(const sctx *s, const scase *c, unsigned long T, unsigned keep,
                             uint64_t seed)
{
    return (fr_ssca_params){.algo = c->algo, .T = T, .B = c->B, .E = 1,
                            .a1 = c->a1, .alpha1 = c->alpha, .a2 = c->a2, .alpha2 = c->alpha,
                            .tau = c->tau, .lambda = 1e-5, .U = 0.13, .c = 1e5,
                            .lr_a = 0.3, .lr_alpha = 0.3, .mom = 0.1,
                            .weight = FR_SSCA_W_EXACT, .seed = seed, .w1 = s->w1, .keep = keep};
}

/* Seconds of one ff_ssca_run on an initialised trace; negative on failure. */
static double timed_fast(ff_ssca_trace *t, const sctx *s, const fr_ssca_params *p)
{
    double t0 = bench_now();
    int st = ff_ssca_run(t, &s->D, p);
    double dt = bench_now() - t0;
    if (st != FR_OK) {
        cli_error(fr_strerror(st), "bench ssca: ff_ssca_run");
        return -1;
    }
    return dt;
}

/* max_k |a_k - b_k| / max_k |b_k| (0 when both are 0). */
static double normwise(const double *a, const double *b, size_t n)
{
    double num = 0, den = 0;
    for (size_t k = 0; k < n; k++) {
        num = fmax(num, fabs(a[k] - b[k]));
        den = fmax(den, fabs(b[k]));
    }
    if (!(num == num))
        return INFINITY;
    return num == 0 ? 0 : den > 0 ? num / den : INFINITY;
}

static const char *algo_label(int algo)
{
    return algo == FR_SSCA_ALG1 ? "alg1 (sample)" : "alg3 (feature)";
}

/* Ref at REF_PREC bits against fast on the case, on a problem of the same
 * sizes but few samples (ref_problem): one fr_ssca_run with T = 2, timed
 * once, its w^2 against fast's on the same problem.  The round's work
 * depends on B, I, P, J, L and d only, while fr_ssca_run's argument check
 * scans all of Z (N P entries) and the data must be generated, so ref runs
 * on N_i = 2 B samples per client (Algorithm 1) or N = 2 B rounded up to
 * I N_i (Algorithm 3), and its time, one round plus that small set-up, is
 * compared with fast's round at full size.  Skipped (and said so) when
 * the time predicted from the algorithm's first (smallest) batch, linear
 * in the batch rows, exceeds REF_BUDGET.  Prints its row.  0, or 2 after
 * cli_error. */
static int ref_row(bench_ctx *ctx, sctx *s, const scase *c, double fast_round)
{
    const fr_ssca_data *F = &s->D;
    const int a1 = c->algo == FR_SSCA_ALG1;
    const size_t nc = F->nc, per = a1 ? 2 * c->B : (2 * c->B + nc - 1) / nc, N = nc * per;
    const double nb = (double)c->B * (a1 ? (double)nc : 1.0);
    char size[64];
    snprintf(size, sizeof size, "B = %zu", c->B);
    if (!ctx->quick && s->ref_per_sample > 0 && s->ref_per_sample * nb > REF_BUDGET) {
        bench_row(algo_label(c->algo), size,
                  "skipped: ref would take ~%.0f s > %.0f s (%.3g s per batch row)\n",
                  s->ref_per_sample * nb, REF_BUDGET, s->ref_per_sample);
        return 0;
    }
    size_t *Ni = malloc((nc + N) * sizeof *Ni);
    double *Z = malloc((N * F->P + 2 * s->d) * sizeof *Z);
    int rc = 0;
    if (!Ni || !Z) {
        cli_error("out of memory", "bench ssca ref");
        free(Ni);
        free(Z);
        return 2;
    }
    size_t *y = Ni + nc;
    double *wf = Z + N * F->P, *wr = wf + s->d;
    for (size_t i = 0; i < nc; i++)
        Ni[i] = per;
    sctx r = *s;
    r.D = (fr_ssca_data){.N = N, .P = F->P, .J = F->J, .L = F->L, .Z = Z, .y = y, .nc = nc,
                         .Ni = Ni, .Pi = F->Pi};
    fr_ssca_params p = params(s, c, 2, 0, ctx->seed);
    ff_ssca_trace tf = {0};
    fr_ssca_trace t = {0};
    double dt = 0;
    int st = fr_ssca_synth(ctx->seed, N, F->P, F->L, Z, y);
    const char *where = "bench ssca: fr_ssca_synth";
    if (st == FR_OK && (st = fr_ssca_data_seal(&r.D)) != FR_OK)
        where = "bench ssca: fr_ssca_data_seal";
    if (st == FR_OK && (st = ff_ssca_trace_init(&tf, &r.D, &p)) == FR_OK
        && (st = ff_ssca_run(&tf, &r.D, &p)) == FR_OK)
        memcpy(wf, tf.w, s->d * sizeof *wf);
    else if (st == FR_OK)
        where = "bench ssca: ff_ssca_run";
    if (st == FR_OK && (st = fr_ssca_trace_init(&t, &r.D, &p, REF_PREC)) != FR_OK)
        where = "bench ssca: fr_ssca_trace_init";
    if (st == FR_OK) {
        double t0 = bench_now();
        st = fr_ssca_run(&t, &r.D, &p);
        dt = bench_now() - t0;
        where = "bench ssca: fr_ssca_run";
    }
    if (st == FR_OK) {
        for (size_t k = 0; k < s->d; k++)
            wr[k] = mpfr_get_d(t.w[k], MPFR_RNDN);
        if (s->ref_per_sample <= 0)
            s->ref_per_sample = dt / nb;
        char what[64];
        snprintf(what, sizeof what, "ref %s w^2", algo_label(c->algo));
        double err = normwise(wf, wr, s->d), agree = bench_agree(ctx, what, err, AGREE_TOL);
        char sz[64];
        snprintf(sz, sizeof sz, "B = %zu, N = %zu", c->B, N);
        if (fast_round > 0)
            bench_row(algo_label(c->algo), sz, "%10.4g %10.4g %10.0f %9.3g %8.3g\n", dt, fast_round,
                      dt / fast_round, err, agree);
        else
            bench_row(algo_label(c->algo), sz, "%10.4g %10s %10s %9.3g %8.3g\n", dt, "-", "-", err, agree);
    } else {
        cli_error(fr_strerror(st), where);
        rc = 2;
    }
    ff_ssca_trace_clear(&tf);
    fr_ssca_trace_clear(&t);
    free(Ni);
    free(Z);
    return rc;
}

/* Writes DIR/ssca/NAME.f64 (through bench_input: DIR/ssca exists). */
static int put(bench_ctx *ctx, const char *name, const double *x, size_t len)
{
    char file[96];
    snprintf(file, sizeof file, "ssca/%s", name);
    return bench_input(ctx, file, x, len);
}

/* The inputs of the numpy round of case q: w^1, the batch (global row
 * indices, as binary64), fast's w^2, and the manifest line. */
static int write_case(bench_ctx *ctx, sctx *s, const scase *c, size_t q, const ff_ssca_trace *t,
                      double round, unsigned long kr, double floor)
{
    if (s->man == NULL)
        return 0;
    double *ix = malloc((t->nd ? t->nd : 1) * sizeof *ix);
    if (!ix) {
        cli_error("out of memory", "bench ssca inputs");
        return 2;
    }
    const size_t per = c->algo == FR_SSCA_ALG1 ? c->B : t->nd;
    for (size_t k = 0; k < t->nd; k++) {
        size_t off = 0;
        if (c->algo == FR_SSCA_ALG1)       /* client k / B's local index -> global */
            for (size_t i = 0; i < k / per; i++)
                off += s->Ni[i];
        ix[k] = (double)(off + t->draws[k]);
    }
    char name[64];
    int rc;
    snprintf(name, sizeof name, "case%zu_idx", q);
    rc = put(ctx, name, ix, t->nd);
    snprintf(name, sizeof name, "case%zu_w2", q);
    if (rc == 0)
        rc = put(ctx, name, t->w, s->d);
    free(ix);
    if (rc)
        return rc;
    fr_ssca_params p = params(s, c, 2, 0, ctx->seed);
    fprintf(s->man, "case case%zu %s %zu %zu %a %a %a %a %a %a %d %a %lu %a\n", q,
            c->algo == FR_SSCA_ALG1 ? "alg1" : "alg3", c->B, t->nd, p.a1, p.alpha1, p.a2,
            p.alpha2, p.tau, p.lambda, p.weight, round, kr, floor);
    return 0;
}

typedef struct {
    double round, floor, rate, drate, gemm, flops;
    unsigned long k;
} trow;

/* The agreement run, the timed runs and the floor of one case. */
static int time_case(bench_ctx *ctx, sctx *s, const scase *c, size_t q, trow *row, double *w2)
{
    const unsigned long reps = ctx->reps;
    ff_ssca_trace ta = {0}, t2 = {0}, tk = {0};
    double *t = malloc(4 * reps * sizeof *t);
    gshape g[512];
    const size_t ng = round_shapes(s, c, g, sizeof g / sizeof *g);
    int rc = 0;
    fr_ssca_params pa = params(s, c, 2, FR_SSCA_KEEP_DRAWS, ctx->seed);
    fr_ssca_params p2 = params(s, c, 2, 0, ctx->seed);
    if (!t) {
        cli_error("out of memory", "bench ssca");
        return 2;
    }
    int st = ff_ssca_trace_init(&ta, &s->D, &pa);
    if (st == FR_OK)
        st = ff_ssca_trace_init(&t2, &s->D, &p2);
    if (st != FR_OK) {
        cli_error(fr_strerror(st), "bench ssca: ff_ssca_trace_init");
        rc = 2;
        goto done;
    }
    /* agreement run (also the warm-up): w^2 and the batch */
    if (timed_fast(&ta, s, &pa) < 0) {
        rc = 2;
        goto done;
    }
    memcpy(w2, ta.w, s->d * sizeof *w2);
    /* k from a first estimate of a round, (t(T = 5) - t(T = 2)) / 3: k
     * rounds take >= 0.3 s (at least 3, at most 200; quick: k = 3) */
    fr_ssca_params p3 = params(s, c, 5, 0, ctx->seed);
    ff_ssca_trace t3 = {0};
    double e2 = timed_fast(&t2, s, &p2), e3 = -1;
    if (ff_ssca_trace_init(&t3, &s->D, &p3) == FR_OK)
        e3 = timed_fast(&t3, s, &p3);
    ff_ssca_trace_clear(&t3);
    if (e2 < 0 || e3 < 0) {
        rc = 2;
        goto done;
    }
    double est = fmax((e3 - e2) / 3, 1e-6);
    unsigned long k = ctx->quick ? 3 : (unsigned long)fmin(200, fmax(3, ceil(0.3 / est)));
    fr_ssca_params pk = params(s, c, k + 1, 0, ctx->seed);
    if (ff_ssca_trace_init(&tk, &s->D, &pk) != FR_OK) {
        cli_error("cannot initialise a trace", "bench ssca");
        rc = 2;
        goto done;
    }
    floor_arg fa = {.g = g, .ng = ng, .A = s->gbuf, .B = s->gbuf + s->gbuf_len / 3,
                    .C = s->gbuf + 2 * (s->gbuf_len / 3)};
    floor_pick(&fa, g, ng);
    floor_once(&fa);
    unsigned long inner = bench_inner(floor_once, &fa);
    double *tr2 = t, *trk = t + reps, *tfl = t + 2 * reps, *rnd = t + 3 * reps;
    for (unsigned long r = 0; r < reps; r++) {
        for (int j = 0; j < 3; j++) {          /* the order rotates per repetition */
            int which = (int)((r + (unsigned long)j) % 3);
            double dt;
            if (which == 0)
                dt = timed_fast(&t2, s, &p2);
            else if (which == 1)
                dt = timed_fast(&tk, s, &pk);
            else {
                double t0 = bench_now();
                for (unsigned long i = 0; i < inner; i++)
                    floor_once(&fa);
                dt = (bench_now() - t0) / (double)inner;
            }
            if (dt < 0) {
                rc = 2;
                goto done;
            }
            (which == 0 ? tr2 : which == 1 ? trk : tfl)[r] = dt;
        }
        rnd[r] = (trk[r] - tr2[r]) / (double)(k - 1);
    }
    row->k = k;
    row->round = bench_median(rnd, reps);
    /* A round is the difference of two runs' times: when the k - 1 extra
     * rounds take less than a tenth of the T = 2 run (quick's k = 3 on tiny
     * rounds), the difference is within the runs' noise: not measured. */
    if (!(row->round * (double)(k - 1) > 0.1 * bench_median(tr2, reps)))
        row->round = -1;
    row->floor = bench_median(tfl, reps);
    row->gemm = gemm_flops(g, ng);
    row->flops = round_flops(s, c, row->gemm);
    row->rate = row->flops / row->round;
    row->drate = row->gemm / row->floor;
    rc = write_case(ctx, s, c, q, &ta, row->round, row->k, row->floor);
done:
    ff_ssca_trace_clear(&ta);
    ff_ssca_trace_clear(&t2);
    ff_ssca_trace_clear(&tk);
    free(t);
    return rc;
}

/* ---- the BLAS and the machine --------------------------------------------------- */

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

/* ---- the section ------------------------------------------------------------------ */

static int open_inputs(bench_ctx *ctx, sctx *s)
{
    if (ctx->inputs == NULL)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/ssca", ctx->inputs);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error(strerror(errno), path);
        return 2;
    }
    snprintf(path, sizeof path, "%s/ssca/manifest.txt", ctx->inputs);
    if ((s->man = fopen(path, "w")) == NULL) {
        cli_error(strerror(errno), path);
        return 2;
    }
    const fr_ssca_data *D = &s->D;
    fprintf(s->man, "# fedref bench, module ssca: seed %llu%s; bench/ssca_numpy.py reads this\n"
            "reps %lu\nsizes %zu %zu %zu %zu %zu\nNi", (unsigned long long)ctx->seed,
            ctx->quick ? ", quick sizes" : "", ctx->reps, D->N, D->P, D->J, D->L, D->nc);
    for (size_t i = 0; i < D->nc; i++)
        fprintf(s->man, " %zu", D->Ni[i]);
    fprintf(s->man, "\nPi");
    for (size_t i = 0; i < D->nc; i++)
        fprintf(s->man, " %zu", D->Pi[i]);
    /* the fields of fr_ssca_params every case shares (params()) */
    const fr_ssca_params p = params(s, &full_cases[0], 2, 0, ctx->seed);
    fprintf(s->man, "\nfixed %lu %a %a %a %a %a %llu\n", p.E, p.U, p.c, p.lr_a, p.lr_alpha,
            p.mom, (unsigned long long)p.seed);
    double *yd = malloc(D->N * sizeof *yd);
    if (!yd) {
        cli_error("out of memory", "bench ssca inputs");
        return 2;
    }
    for (size_t n = 0; n < D->N; n++)
        yd[n] = (double)D->y[n];
    int rc = put(ctx, "Z", D->Z, D->N * D->P);
    if (rc == 0)
        rc = put(ctx, "y", yd, D->N);
    if (rc == 0)
        rc = put(ctx, "w1", s->w1, s->d);
    free(yd);
    return rc;
}

int bench_ssca(bench_ctx *ctx)
{
    const int q = ctx->quick;
    const size_t nc = q ? 3 : 10, per = q ? 40 : 6000, P = q ? 16 : 784, J = q ? 6 : 128,
                 L = q ? 3 : 10, N = nc * per;
    const scase *cases = q ? quick_cases : full_cases;
    const size_t ncase = q ? sizeof quick_cases / sizeof *quick_cases
                           : sizeof full_cases / sizeof *full_cases;
    sctx s = {0};
    size_t d = J * (L + P), Bmax = 0;
    for (size_t c = 0; c < ncase; c++)
        Bmax = cases[c].B > Bmax ? cases[c].B : Bmax;
    /* floor operands: each of A, B, C at most a chunk of Z (or of U), or W1 */
    const size_t crow = nc * Bmax < FAST_CHUNK ? nc * Bmax : FAST_CHUNK;
    s.gbuf_len = 3 * (crow * (P > J ? P : J) + J * P);
    s.Ni = malloc(2 * nc * sizeof *s.Ni);
    s.y = malloc(N * sizeof *s.y);
    s.Z = malloc(N * P * sizeof *s.Z);
    s.w1 = malloc(d * sizeof *s.w1);
    s.gbuf = malloc(s.gbuf_len * sizeof *s.gbuf);
    double *w2 = malloc(d * sizeof *w2);
    trow rows[8];
    int rc = 0;
    if (!s.Ni || !s.y || !s.Z || !s.w1 || !s.gbuf || !w2) {
        cli_error("out of memory", "bench ssca");
        rc = 2;
        goto done;
    }
    s.Pi = s.Ni + nc;
    for (size_t i = 0; i < nc; i++) {
        s.Ni[i] = per;
        s.Pi[i] = P / nc + (i < P % nc);         /* 784 = 4 x 79 + 6 x 78 */
    }
    for (size_t k = 0; k < s.gbuf_len; k++)
        s.gbuf[k] = 0x1p-8 * (double)(k % 17) - 0x1p-5;
    cli_progress("bench: ssca, a synthetic problem of %.0f MB (fr_ssca_synth)",
                 (double)(N * P * sizeof(double)) / 1e6);
    if (fr_ssca_synth(ctx->seed, N, P, L, s.Z, s.y) != FR_OK
        || fr_ssca_init_w(ctx->seed, L, J, P, s.w1) != FR_OK) {
        cli_error("cannot synthesise the problem", "bench ssca");
        rc = 2;
        goto done;
    }
    s.D = (fr_ssca_data){.N = N, .P = P, .J = J, .L = L, .Z = s.Z, .y = s.y, .nc = nc,
                         .Ni = s.Ni, .Pi = s.Pi};
    s.d = d;
    if (fr_ssca_data_seal(&s.D) != FR_OK) {        /* once: no run re-scans Z */
        cli_error("the synthetic problem does not pass its check", "bench ssca");
        rc = 2;
        goto done;
    }
    if ((rc = open_inputs(ctx, &s)) != 0)
        goto done;

    printf("\nssca: one round of Algorithm 1 (sample-based, I = %zu clients x %zu samples) and\n"
           "of Algorithm 3 (feature-based, P_i = %zu..%zu), (32), P = %zu, J = %zu, L = %zu,\n"
           "d = %zu, 000 Sec. VI's parameters; round = (t(T = k+1) - t(T = 2)) / (k - 1) of\n"
           "ff_ssca_run; floor = cblas_dgemm alone on the round's products (each as C or C^T,\n"
           "the faster); fast/floor = round / floor; GFLOP: gemm\n"
           "2mnk + 10/hidden entry + 6/output entry + (2 I' + 14) d (bench_ssca.c)\n",
           nc, per, s.Pi[nc - 1], s.Pi[0], P, J, L, d);
    print_blas();
    printf("  %-22s %-26s%4s %10s %8s %9s %10s %9s %10s %10s\n", "algorithm", "batch", "k",
           "round (s)", "GFLOP", "GFLOP/s", "dgemm (s)", "dgemm/s", "rate/dgemm", "fast/floor");
    for (size_t c = 0; c < ncase && rc == 0; c++) {
        cli_progress("bench: ssca %s, B = %zu", algo_label(cases[c].algo), cases[c].B);
        rc = time_case(ctx, &s, &cases[c], c, &rows[c], w2);
        if (rc)
            break;
        char size[32];
        snprintf(size, sizeof size, "B = %zu", cases[c].B);
        if (rows[c].round > 0)
            bench_row(algo_label(cases[c].algo), size,
                      "%4lu %10.4g %8.4g %9.3g %10.4g %9.3g %10.3f %10.3f\n", rows[c].k,
                      rows[c].round, rows[c].flops * 1e-9, rows[c].rate * 1e-9, rows[c].floor,
                      rows[c].drate * 1e-9, rows[c].rate / rows[c].drate,
                      rows[c].round / rows[c].floor);
        else
            bench_row(algo_label(cases[c].algo), size, "%4lu %10s %8.4g %9s %10.4g %9.3g %10s %10s  (round below the runs' noise)\n",
                      rows[c].k, "-", rows[c].flops * 1e-9, "-", rows[c].floor, rows[c].drate * 1e-9, "-", "-");
    }
    if (rc)
        goto done;
    printf("  target: at B = N_i = %zu (Algorithm 1) rate/dgemm >= 0.70", per);
    for (size_t c = 0; c < ncase; c++)        /* the largest sample-based batch */
        if (cases[c].algo == FR_SSCA_ALG1 && cases[c].B == per)
            printf(rows[c].round > 0 ? ": %.3f, %s" : ": not measured", rows[c].rate / rows[c].drate,
                   rows[c].rate >= 0.7 * rows[c].drate ? "met" : "missed");
    printf(" (printed, not judged)\n");

    printf("\nssca: ref (MPFR, %d bits) against fast: one fr_ssca_run with T = 2 (one round\n"
           "plus its set-up), timed once, on a problem of the same sizes with\n"
           "N_i = 2 B (Algorithm 1), N >= 2 B (Algorithm 3); fast: its round above (N = %zu);\n"
           "agree: max|w2_fast - w2_ref| / max|w2_ref| (err) on that problem, as a fraction\n"
           "of %.0e\n", REF_PREC, N, AGREE_TOL);
    printf("  %-22s %-26s%10s %10s %10s %9s %8s\n", "algorithm", "batch", "ref (s)",
           "fast (s)", "ref/fast", "err", "agree");
    s.ref_per_sample = 0;
    for (size_t c = 0; c < ncase && rc == 0; c++) {
        if (c > 0 && cases[c].algo != cases[c - 1].algo)
            s.ref_per_sample = 0;            /* a new algorithm: measured again at its first B */
        cli_progress("bench: ssca ref, %s, B = %zu", algo_label(cases[c].algo), cases[c].B);
        rc = ref_row(ctx, &s, &cases[c], rows[c].round);
    }
done:
    if (s.man && fclose(s.man) != 0 && rc == 0) {
        cli_error(strerror(errno), "ssca/manifest.txt");
        rc = 2;
    }
    free(s.Ni);
    free(s.y);
    free(s.Z);
    free(s.w1);
    free(s.gbuf);
    free(w2);
    return rc;
}
