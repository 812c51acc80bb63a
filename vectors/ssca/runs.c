/* SPDX-License-Identifier: Apache-2.0 */
/* runs.c -- the vector schema shared by the runs of Algorithms 1-4 and the
 * baselines of 000 Sec. VI (runs.h; each algorithm's vfunc is in
 * run_<algorithm>.c), as docs/SSCA.md section 10 specifies them.  One
 * schema for all eight (checkpoint files):
 *   params  seed, T, B, E, a1, alpha1, a2, alpha2, tau, lambda, U, c, lr_a,
 *           lr_alpha, mom, weight: the fields of fr_ssca_params
 *           (fedspec/ssca.h; integers written as decimals; every field is
 *           present, the algorithm ignores the ones it does not use); the
 *           algorithm is the file's, keep is always KEEP_W | KEEP_DRAWS |
 *           KEEP_COST
 *   inputs  LJ (L, J: classes and hidden cells), Z (N x P), y (N class
 *           indices), parts (Ni: nc sample counts for the sample-based
 *           algorithms, Pi: nc feature counts for the feature-based ones;
 *           fr_ssca_data), w1 (the J (L + P) entries of w^1, the layout of
 *           fedspec/ssca.h)
 *   expect  w (T x d: every iterate w^1 .. w^T), cost, norm2, cons (T:
 *           F(w^t) (28) over all N samples, ||w^t||^2, F(w^t) - U (NaN
 *           unless Algorithm 2 or 4)), nu, slack, branch (T - 1: round t's
 *           Lemma 1 multiplier, slack and branch, enum fr_ssca_l1_branch;
 *           NaN, NaN, 0 unless Algorithm 2 or 4; the slack is +0 when
 *           nu < c, fedref/ssca.h), draws ((T - 1) x nd: every
 *           mini-batch index in draw order, fedref/ssca.h's layout), msgs
 *           (down, up, peer: the reals one round moves, fr_ssca_run_msgs)
 * ref runs at working precision p; certification by precision doubling
 * (vgen.c, iterative).  tol for binary64: rel = abs = VSSCA_RUN_TOL
 * (runs.h, empirical).  Every draw is in the file, and docs/RNG.md with
 * docs/SSCA.md section 10 regenerate them and the inputs
 * (docs/rng_reference.py, ci/vectors-docs.sh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runs.h"
#include "net_io.h"

unsigned long vssca_work_max = VSSCA_WORK_MAX;

/* The params of a checkpoint file, in file order: name and kind (N: a count
 * into that fr_ssca_params field, R: a binary64 into it, W: the weight). */
#define RUN_PARAMS(X)                                                          \
    X(seed, N) X(T, N) X(B, N) X(E, N) X(a1, R) X(alpha1, R) X(a2, R)          \
    X(alpha2, R) X(tau, R) X(lambda, R) X(U, R) X(c, R) X(lr_a, R)             \
    X(lr_alpha, R) X(mom, R) X(weight, W)

#define AS_ENUM(name, kind) P_##name,
#define AS_SPEC(name, kind) {#name, VK_SCALAR},
enum { RUN_PARAMS(AS_ENUM) NPAR };
enum { I_LJ, I_Z, I_Y, I_PARTS, I_W1, NIN };
enum { E_W, E_COST, E_NORM2, E_CONS, E_NU, E_SLACK, E_BRANCH, E_DRAWS, E_MSGS, NEXP };

const vspec vssca_params[] = {RUN_PARAMS(AS_SPEC) {NULL, 0}};
const vspec vssca_inputs[] = {{"LJ", VK_VECTOR}, {"Z", VK_MATRIX}, {"y", VK_VECTOR},
                              {"parts", VK_VECTOR}, {"w1", VK_VECTOR}, {NULL, 0}};
const vspec vssca_expects[] = {
    {"w", VK_MATRIX}, {"cost", VK_VECTOR}, {"norm2", VK_VECTOR}, {"cons", VK_VECTOR},
    {"nu", VK_VECTOR}, {"slack", VK_VECTOR}, {"branch", VK_VECTOR, .cmp = VC_INT},
    {"draws", VK_MATRIX, .cmp = VC_INT}, {"msgs", VK_VECTOR, .cmp = VC_INT}, {NULL, 0}};
const vdata vssca_data_samples = {"Z", "y", "parts"};
const vdata vssca_data_features = {"Z", "y", "parts", .by_features = 1};

#define KEEP_ALL (FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST)

/* A non-negative integer held in a binary64 (at most 2^53); FR_ENONFINITE
 * or FR_EDOM otherwise. */
static int to_count(double x, unsigned long long *out)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (!(x >= 0) || x != floor(x) || x > 0x1p53) return FR_EDOM;
    *out = (unsigned long long)x;
    return FR_OK;
}

/* The problem and parameters of one case, from binary64 fields; y and the
 * partition allocated. */
typedef struct {
    fr_ssca_data D;
    fr_ssca_params prm;
    size_t *y, *parts;
} run_in;

static void run_free(run_in *r)
{
    free(r->y);
    free(r->parts);
    r->y = r->parts = NULL;
}

/* Samples of a round's mini-batches (runs.h: the work bound). */
static double batch_samples(int algo, double nc, double B, double E)
{
    if (fr_ssca_algo_feature(algo)) return B;
    if (algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S) return nc * E * B;
    return nc * B;
}

static int build(run_in *r, int algo, const double *par, const ftensor *in)
{
    unsigned long long v[NPAR] = {0};
    int st = FR_OK;
#define READ_N(name) if (st == FR_OK) st = to_count(par[P_##name], &v[P_##name]);
#define READ_R(name)
#define READ_W(name) READ_N(name)
#define READ(name, kind) READ_##kind(name)
    RUN_PARAMS(READ)
    if (st != FR_OK) return st;
    if (in[I_LJ].cols != 2) return FR_ESIZE;
    size_t L = vnet_size(in[I_LJ].v[0]), J = vnet_size(in[I_LJ].v[1]);
    size_t N = in[I_Z].rows, P = in[I_Z].cols, nc = in[I_PARTS].cols, d;
    if (in[I_Y].cols != N) return FR_ESIZE;
    if (fr_ssca_net_dim(L, J, P, &d) != FR_OK)
        d = in[I_W1].cols;                     /* the library answers the sizes */
    if (in[I_W1].cols != d) return FR_ESIZE;
    /* the schema's bounds (runs.h), in binary64: exact enough to compare */
    double nd = batch_samples(algo, (double)nc, (double)v[P_B], (double)v[P_E]);
    double T = (double)v[P_T];
    if (T * ((double)N + nd) * (double)J * ((double)L + (double)P + 1) > (double)vssca_work_max
        || T * ((double)d + nd + 8) > (double)VSSCA_RECORD_MAX)
        return FR_ESIZE;
    r->y = malloc((N ? N : 1) * sizeof *r->y);
    r->parts = malloc((nc ? nc : 1) * sizeof *r->parts);
    if (r->y == NULL || r->parts == NULL) { run_free(r); return FR_ENOMEM; }
    vnet_labels(r->y, in[I_Y].v, N);           /* not an integer: SIZE_MAX, FR_EDOM */
    for (size_t i = 0; i < nc; i++)
        r->parts[i] = vnet_size(in[I_PARTS].v[i]);   /* not an integer: 0, FR_ESIZE */
    int feat = fr_ssca_algo_feature(algo);
    r->D = (fr_ssca_data){.N = N, .P = P, .J = J, .L = L, .Z = in[I_Z].v, .y = r->y, .nc = nc,
                          .Ni = feat ? NULL : r->parts, .Pi = feat ? r->parts : NULL};
    r->prm = (fr_ssca_params){.algo = algo, .T = (unsigned long)v[P_T], .B = (size_t)v[P_B],
                              .E = (unsigned long)v[P_E], .a1 = par[P_a1], .alpha1 = par[P_alpha1],
                              .a2 = par[P_a2], .alpha2 = par[P_alpha2], .tau = par[P_tau],
                              .lambda = par[P_lambda], .U = par[P_U], .c = par[P_c],
                              .lr_a = par[P_lr_a], .lr_alpha = par[P_lr_alpha], .mom = par[P_mom],
                              .weight = v[P_weight] > 1000 ? 1000 : (int)v[P_weight],
                              .seed = (uint64_t)v[P_seed], .w1 = in[I_W1].v, .keep = KEEP_ALL};
    return FR_OK;
}

/* The shapes of the expects of a finished run of T points. */
static void shapes(size_t T, size_t d, size_t nd, size_t rows[NEXP], size_t cols[NEXP])
{
    const size_t R[NEXP] = {T, 1, 1, 1, 1, 1, 1, T - 1, 1};
    const size_t C[NEXP] = {d, T, T, T, T - 1, T - 1, T - 1, nd, 3};
    memcpy(rows, R, sizeof R);
    memcpy(cols, C, sizeof C);
}

int vssca_ref(int algo, rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
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
    fr_ssca_trace t;
    memset(&t, 0, sizeof t);
    if (st == FR_OK) st = build(&r, algo, p, fin);
    if (st == FR_OK) st = fr_ssca_trace_init(&t, &r.D, &r.prm, prec);
    if (st == FR_OK) st = fr_ssca_run(&t, &r.D, &r.prm);
    if (st == FR_OK && t.rounds + 1 != t.T) st = FR_EINTERNAL;
    if (st == FR_OK) {
        size_t T = t.T, d = t.d, nd = t.nd, rows[NEXP], cols[NEXP];
        shapes(T, d, nd, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (rt_alloc(&out[k], rows[k], cols[k], prec) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            for (size_t k = 0; k < T * d; k++) mpfr_set(out[E_W].v[k], t.w[k], MPFR_RNDN);
            for (size_t k = 0; k < T; k++) {
                mpfr_set(out[E_COST].v[k], t.cost[k], MPFR_RNDN);
                mpfr_set(out[E_NORM2].v[k], t.norm2[k], MPFR_RNDN);
                mpfr_set(out[E_CONS].v[k], t.cons[k], MPFR_RNDN);
            }
            for (size_t k = 0; k + 1 < T; k++) {
                mpfr_set(out[E_NU].v[k], t.nu[k], MPFR_RNDN);
                mpfr_set(out[E_SLACK].v[k], t.slack[k], MPFR_RNDN);
                mpfr_set_si(out[E_BRANCH].v[k], t.branch[k], MPFR_RNDN);
            }
            for (size_t k = 0; k < (T - 1) * nd; k++)
                mpfr_set_d(out[E_DRAWS].v[k], (double)t.draws[k], MPFR_RNDN);
            mpfr_set_d(out[E_MSGS].v[0], (double)t.msgs.down, MPFR_RNDN);
            mpfr_set_d(out[E_MSGS].v[1], (double)t.msgs.up, MPFR_RNDN);
            mpfr_set_d(out[E_MSGS].v[2], (double)t.msgs.peer, MPFR_RNDN);
        }
    }
    fr_ssca_trace_clear(&t);
    run_free(&r);
    for (size_t k = 0; k < NIN; k++) ft_free(&fin[k]);
    return st;
}

int vssca_fast(int algo, ftensor *par, ftensor *in, ftensor *out)
{
    double p[NPAR];
    for (size_t k = 0; k < NPAR; k++) p[k] = par[k].v[0];
    run_in r = {0};
    ff_ssca_trace t = {0};
    int st = build(&r, algo, p, in);
    if (st == FR_OK) st = ff_ssca_trace_init(&t, &r.D, &r.prm);
    if (st == FR_OK) st = ff_ssca_run(&t, &r.D, &r.prm);
    if (st == FR_OK && t.rounds + 1 != t.T) st = FR_EINTERNAL;
    if (st == FR_OK) {
        size_t T = t.T, d = t.d, nd = t.nd, rows[NEXP], cols[NEXP];
        shapes(T, d, nd, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (ft_alloc(&out[k], rows[k], cols[k]) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            memcpy(out[E_W].v, t.w, T * d * sizeof *t.w);
            memcpy(out[E_COST].v, t.cost, T * sizeof *t.cost);
            memcpy(out[E_NORM2].v, t.norm2, T * sizeof *t.norm2);
            memcpy(out[E_CONS].v, t.cons, T * sizeof *t.cons);
            memcpy(out[E_NU].v, t.nu, (T - 1) * sizeof *t.nu);
            for (size_t k = 0; k + 1 < T; k++) out[E_SLACK].v[k] = t.slack[k];
            for (size_t k = 0; k + 1 < T; k++) out[E_BRANCH].v[k] = t.branch[k];
            for (size_t k = 0; k < (T - 1) * nd; k++) out[E_DRAWS].v[k] = (double)t.draws[k];
            out[E_MSGS].v[0] = (double)t.msgs.down;
            out[E_MSGS].v[1] = (double)t.msgs.up;
            out[E_MSGS].v[2] = (double)t.msgs.peer;
        }
    }
    ff_ssca_trace_clear(&t);
    run_free(&r);
    return st;
}

void vssca_tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = VSSCA_RUN_TOL;
    *abs = VSSCA_RUN_TOL;
}

/* ---- the golden cases ------------------------------------------------------ */

/* Param rows: seed, T, B, E, a1, alpha1, a2, alpha2, tau, lambda, U, c,
 * lr_a, lr_alpha, mom, weight. */
#define PRM(...) ((const double[]){__VA_ARGS__})

/* The run seed of the current group (its `seed` param), for the case comments. */
static uint64_t group_seed;

static void group(vgen *g, const char *comment, const double *params)
{
    group_seed = (uint64_t)params[P_seed];
    vg_group(g, comment, params);
}

/* Edits of a synthetic case (for the invalid ones). */
enum { ED_NONE, ED_Z_NAN, ED_LABEL_L, ED_W1_INF, ED_W1_SHORT };

/* One golden case: the problem of fr_ssca_synth(seed, N, P, L) and the
 * initial point fr_ssca_init_w(seed, L, J, P) (docs/SSCA.md section 10),
 * partition parts[0..nc-1] (Ni or Pi), then the edit.  The comment is
 * `what`, then the data and the run seed in the fixed form that
 * docs/rng_reference.py reads ("Data: ssca synthetic seed S, N = .., P =
 * .., L = .., J = .., parts a b c; run seed R"). */
static void run_case(vgen *g, const char *what, const char *flags, int invalid, uint64_t seed,
                     size_t N, size_t P, size_t L, size_t J, size_t nc, const size_t *parts, int edit)
{
    size_t d = J * (L + P), *y = malloc(N * sizeof *y);
    double *Z = malloc(N * P * sizeof *Z), *yd = malloc(N * sizeof *yd);
    double *w1 = malloc(d * sizeof *w1), LJ[2] = {(double)L, (double)J}, pd[16];
    if (y == NULL || Z == NULL || yd == NULL || w1 == NULL
        || fr_ssca_synth(seed, N, P, L, Z, y) != FR_OK || fr_ssca_init_w(seed, L, J, P, w1) != FR_OK) {
        fprintf(stderr, "vectors/ssca/runs.c: the synthetic problem (seed %llu) failed\n",
                (unsigned long long)seed);
        abort();                               /* the generator's own data: a bug */
    }
    for (size_t n = 0; n < N; n++) yd[n] = (double)y[n];
    for (size_t i = 0; i < nc; i++) pd[i] = (double)parts[i];
    size_t dw = d;
    const char *ed = "";
    switch (edit) {
    case ED_Z_NAN: Z[P + 1] = NAN; ed = ", then Z[1][1] = nan"; break;
    case ED_LABEL_L: yd[0] = (double)L; ed = ", then y_0 = L"; break;
    case ED_W1_INF: w1[d - 1] = INFINITY; ed = ", then the last entry of w1 = inf"; break;
    case ED_W1_SHORT: dw = d - 1; ed = ", then w1 without its last entry"; break;
    default: break;
    }
    char pt[200] = "", text[1400];
    for (size_t i = 0; i < nc; i++) {
        size_t len = strlen(pt);
        snprintf(pt + len, sizeof pt - len, "%s%zu", i ? " " : "", parts[i]);
    }
    snprintf(text, sizeof text, "%s. Data: ssca synthetic seed %llu, N = %zu, P = %zu, L = %zu, J = %zu, "
             "parts %s%s; run seed %llu", what, (unsigned long long)seed, N, P, L, J, pt, ed,
             (unsigned long long)group_seed);
    vg_case(g, text, flags, invalid,
            (ftensor[]){{1, 2, LJ}, {N, P, Z}, {1, N, yd}, {1, nc, pd}, {1, dw, w1}});
    free(y);
    free(Z);
    free(yd);
    free(w1);
}

#define PARTS(...) (sizeof((const size_t[]){__VA_ARGS__}) / sizeof(size_t)), ((const size_t[]){__VA_ARGS__})

/* 000 Sec. VI's schedules: sample-based B = 10 (a1 = 0.9, a2 = 0.5, alpha
 * = 0.1, tau = 0.2), feature-based B = 10 (a1 = 0.9, a2 = 0.3, alpha =
 * 0.3, tau = 0.1); lambda = 1e-5; U = 0.13 and c = 1e5 for (40) (here U is
 * chosen for each problem's cost scale); SGD r = 0.3 t^-0.3, SGD-m r =
 * 0.3, m = 0.1.  A schedule that satisfies (4) and (6): rho = t^-0.6
 * (rho^(1) = 1), gamma = 0.9 t^-0.9 (gamma/rho -> 0). */

/* (40) with a bound that binds (Algorithms 2 and 4, seed 31, N = 24, three
 * clients, T = 8, c = 10, rho = t^-0.6, gamma = 0.9 t^-0.9, tau = 0.1): U
 * chosen on each problem's cost scale (F(w^1) ~ 1.11, ln 3 ~ 1.0986) so
 * that every branch of Lemma 1 (docs/SSCA.md section 6) appears: D <= 0
 * (nu = c), the interior stationary point, the clip at c, nu = 0 once the
 * surrogate constraint holds; then an infeasible bound with c = 1.  The
 * branches were read off the generated files (the expects `branch`). */
static void golden_bound(vgen *g, int feat)
{
    const size_t P = feat ? 6 : 5, B = feat ? 4 : 3;
    const size_t *parts = feat ? (const size_t[]){2, 2, 2} : (const size_t[]){8, 8, 8};
    const double Uc = feat ? 1.08 : 1.09, Ui = feat ? 1.10 : 1.11;
    char text[300];
    group(g, "(40) with U = 0.9, c = 10: D = b + 4 tau W (U - C) <= 0 every round, nu = c (Lemma 1's first case)",
          PRM(303, 8, (double)B, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, 0.9, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "U far below the cost", "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-u-active", 0, 31, 24, P, 3, 3,
             3, parts, ED_NONE);
    snprintf(text, sizeof text, "(40) with U = %.2f, c = 10: the interior stationary point 0 < nu < c every round", Ui);
    group(g, text, PRM(303, 8, (double)B, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, Ui, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "U just below the cost", "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-u-active", 0, 31, 24, P, 3, 3,
             3, parts, ED_NONE);
    snprintf(text, sizeof text, "(40) with U = %.2f, c = 10: the stationary point beyond c (nu clipped to c)%s", Uc,
             feat ? ", after an interior round and before D <= 0" : "");
    group(g, text, PRM(303, 8, (double)B, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, Uc, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "U below the cost", "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-u-active", 0, 31, 24, P, 3, 3,
             3, parts, ED_NONE);
    group(g, "(40) with U = 1.12, c = 10: interior rounds, then nu = 0 once U >= C",
          PRM(303, 8, (double)B, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, 1.12, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "U near the cost", "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-u-active", 0, 31, 24, P, 3, 3,
             3, parts, ED_NONE);
    group(g, "(40) with U = 0.2 (far below the cost: D <= 0, nu = c) and c = 1, 000 Sec. VI's schedule",
          feat ? PRM(304, 6, 4, 1, 0.9, 0.3, 0.3, 0.3, 0.1, 1e-5, 0.2, 1, 0.3, 0.3, 0.1, 0)
               : PRM(304, 6, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 0.2, 1, 0.3, 0.3, 0.1, 0));
    run_case(g, "an infeasible bound: positive slack every round", "trajectory,ssca-paper-schedule,ssca-u-active",
             0, 32, 24, 4, 2, 3, 3, feat ? (const size_t[]){1, 1, 2} : (const size_t[]){8, 8, 8}, ED_NONE);
}

static void golden_ssca_sample(vgen *g, int constrained)
{
    const double U0 = constrained ? 8 : 0;     /* an inactive constraint: F(w) ~ ln L < 8 */
    group(g, "000 Sec. VI's sample-based schedule (B = 10 column): rho = 0.9 t^-0.1, gamma = 0.5 t^-0.1, "
          "tau = 0.2, lambda = 1e-5, c = 1e5, weight exact (tau W_t)",
          PRM(101, 6, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, U0, 1e5, 0.3, 0.3, 0.1, 0));
    run_case(g, "three clients of 8 samples", constrained ? "trajectory,ssca-paper-schedule,ssca-u-inactive"
             : "trajectory,ssca-paper-schedule", 0, 11, 24, 5, 3, 3, PARTS(8, 8, 8), ED_NONE);
    run_case(g, "two clients of unequal sizes", constrained ? "trajectory,ssca-paper-schedule,unequal-sizes,ssca-u-inactive"
             : "trajectory,ssca-paper-schedule,unequal-sizes", 0, 12, 30, 6, 4, 2, PARTS(12, 18), ED_NONE);
    group(g, "the same schedule, weight printed (tau, 000 (38)-(39) as printed: W_t = 1)",
          PRM(101, 6, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, U0, 1e5, 0.3, 0.3, 0.1, 1));
    run_case(g, "three clients of 8 samples, the printed weight", constrained
             ? "trajectory,ssca-paper-schedule,ssca-weight-printed,ssca-u-inactive"
             : "trajectory,ssca-paper-schedule,ssca-weight-printed", 0, 11, 24, 5, 3, 3, PARTS(8, 8, 8), ED_NONE);
    group(g, "a schedule satisfying (4) and (6): rho = t^-0.6 (rho^(1) = 1), gamma = 0.9 t^-0.9, tau = 0.1, "
          "lambda = 1e-3, c = 10, weight exact",
          PRM(22, 8, 2, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, U0, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "four clients", constrained ? "trajectory,ssca-rho1,ssca-stepsize-ok,unequal-sizes,ssca-u-inactive"
             : "trajectory,ssca-rho1,ssca-stepsize-ok,unequal-sizes", 0, 21, 36, 4, 2, 4, PARTS(8, 10, 9, 9), ED_NONE);
    run_case(g, "one client: the batches of a feature-based run with the same run seed (docs/SSCA.md 10)",
             constrained ? "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-one-client,ssca-u-inactive"
             : "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-one-client", 0, 22, 16, 4, 2, 2, PARTS(16), ED_NONE);
    if (constrained)
        golden_bound(g, 0);
}

static void golden_ssca_feature(vgen *g, int constrained)
{
    const double U0 = constrained ? 8 : 0;
    group(g, "000 Sec. VI's feature-based schedule (B = 10 column): rho = 0.9 t^-0.3, gamma = 0.3 t^-0.3, "
          "tau = 0.1, lambda = 1e-5, c = 1e5, weight exact",
          PRM(101, 6, 4, 1, 0.9, 0.3, 0.3, 0.3, 0.1, 1e-5, U0, 1e5, 0.3, 0.3, 0.1, 0));
    run_case(g, "three clients with 2, 2 and 2 features", constrained ? "trajectory,ssca-paper-schedule,ssca-u-inactive"
             : "trajectory,ssca-paper-schedule", 0, 11, 24, 6, 3, 3, PARTS(2, 2, 2), ED_NONE);
    run_case(g, "two clients with unequal feature blocks", constrained
             ? "trajectory,ssca-paper-schedule,net-clients,ssca-u-inactive" : "trajectory,ssca-paper-schedule,net-clients",
             0, 12, 30, 7, 4, 2, PARTS(2, 5), ED_NONE);
    group(g, "the same schedule, weight printed",
          PRM(101, 6, 4, 1, 0.9, 0.3, 0.3, 0.3, 0.1, 1e-5, U0, 1e5, 0.3, 0.3, 0.1, 1));
    run_case(g, "three clients, the printed weight", constrained
             ? "trajectory,ssca-paper-schedule,ssca-weight-printed,ssca-u-inactive"
             : "trajectory,ssca-paper-schedule,ssca-weight-printed", 0, 11, 24, 6, 3, 3, PARTS(2, 2, 2), ED_NONE);
    group(g, "a schedule satisfying (4) and (6): rho = t^-0.6 (rho^(1) = 1), gamma = 0.9 t^-0.9, tau = 0.1, "
          "lambda = 1e-3, c = 10, B = 2, weight exact",
          PRM(22, 8, 2, 1, 1, 0.6, 0.9, 0.9, 0.1, 1e-3, U0, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "four clients", constrained ? "trajectory,ssca-rho1,ssca-stepsize-ok,net-clients,ssca-u-inactive"
             : "trajectory,ssca-rho1,ssca-stepsize-ok,net-clients", 0, 21, 36, 8, 2, 4, PARTS(1, 2, 3, 2), ED_NONE);
    run_case(g, "the data of the sample-based one-client case (seed 22, run seed 22): the same batches",
             constrained ? "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-one-client,ssca-u-inactive"
             : "trajectory,ssca-rho1,ssca-stepsize-ok,ssca-one-client", 0, 22, 16, 4, 2, 2, PARTS(1, 3), ED_NONE);
    if (constrained)
        golden_bound(g, 1);
}

static void golden_sgd_sample(vgen *g, int momentum)
{
    const double lr_alpha = momentum ? 0 : 0.3, mom = momentum ? 0.1 : 0;
    const char *rule = momentum ? "r = 0.3, m = 0.1 (000 Sec. VI's SGD-m)" : "r = 0.3 t^-0.3 (000 Sec. VI's SGD)";
    char c1[300], c2[300], c3[300];
    snprintf(c1, sizeof c1, "FedSGD: E = 1, B = 3, %s, lambda = 1e-5", rule);
    snprintf(c2, sizeof c2, "PR-SGD: E = 3 local steps, B = 2, %s, lambda = 1e-5", rule);
    snprintf(c3, sizeof c3, "FedAvg: E = 4, B = 2, E B = N_i = 8 (one pass over the local data per round), %s", rule);
    group(g, c1, PRM(101, 6, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 0, 1e5, 0.3, lr_alpha, mom, 0));
    run_case(g, "three clients of 8 samples", "trajectory,ssca-fedsgd", 0, 11, 24, 5, 3, 3, PARTS(8, 8, 8), ED_NONE);
    run_case(g, "two clients of unequal sizes", "trajectory,ssca-fedsgd,unequal-sizes", 0, 12, 30, 6, 4, 2,
             PARTS(12, 18), ED_NONE);
    group(g, c2, PRM(202, 5, 2, 3, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 0, 1e5, 0.3, lr_alpha, mom, 0));
    run_case(g, "four clients", "trajectory,ssca-prsgd,unequal-sizes", 0, 21, 36, 4, 2, 4, PARTS(8, 10, 9, 9), ED_NONE);
    group(g, c3, PRM(303, 5, 2, 4, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 0, 1e5, 0.3, lr_alpha, mom, 0));
    run_case(g, "three clients of 8 samples: the E batches of a round partition each client's data",
             "trajectory,ssca-fedavg", 0, 31, 24, 5, 3, 3, PARTS(8, 8, 8), ED_NONE);
    group(g, momentum ? "FedSGD-m with lambda = 1e-2, r = 0.3, m = 0.5" : "FedSGD with lambda = 1e-2, r = 0.5 t^-0.6",
          PRM(404, 7, 2, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-2, 0, 1e5, momentum ? 0.3 : 0.5,
              momentum ? 0 : 0.6, momentum ? 0.5 : 0, 0));
    run_case(g, "one client", "trajectory,ssca-fedsgd,ssca-one-client", 0, 22, 16, 4, 2, 2, PARTS(16), ED_NONE);
}

static void golden_sgd_feature(vgen *g, int momentum)
{
    const double lr_alpha = momentum ? 0 : 0.3, mom = momentum ? 0.1 : 0;
    group(g, momentum ? "feature-based SGD-m: B = 4, r = 0.3, m = 0.1, lambda = 1e-5"
          : "feature-based SGD: B = 4, r = 0.3 t^-0.3, lambda = 1e-5",
          PRM(101, 6, 4, 1, 0.9, 0.3, 0.3, 0.3, 0.1, 1e-5, 0, 1e5, 0.3, lr_alpha, mom, 0));
    run_case(g, "three clients with 2, 2 and 2 features", "trajectory", 0, 11, 24, 6, 3, 3, PARTS(2, 2, 2), ED_NONE);
    run_case(g, "two clients with unequal feature blocks", "trajectory,net-clients", 0, 12, 30, 7, 4, 2,
             PARTS(2, 5), ED_NONE);
    group(g, momentum ? "full batch B = N = 16, r = 0.3, m = 0.5, lambda = 1e-2"
          : "full batch B = N = 16, r = 0.5 t^-0.6, lambda = 1e-2",
          PRM(22, 7, 16, 1, 0.9, 0.3, 0.3, 0.3, 0.1, 1e-2, 0, 1e5, momentum ? 0.3 : 0.5,
              momentum ? 0 : 0.6, momentum ? 0.5 : 0, 0));
    run_case(g, "every sample each round (in a new order)", "trajectory,net-clients", 0, 22, 16, 4, 2, 2,
             PARTS(1, 3), ED_NONE);
}

/* The invalid cases every file has (after its valid ones). */
static void golden_invalid(vgen *g, int algo)
{
    int feat = fr_ssca_algo_feature(algo), sgd = algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S;
    const size_t *parts = feat ? (const size_t[]){2, 2, 1} : (const size_t[]){8, 8, 8};
    const size_t P = 5;
    group(g, "invalid: B = 9 > N_i = 8 (sample-based) or B = 25 > N = 24 (feature-based)",
          PRM(101, 4, feat ? 25 : 9, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 1, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "a batch larger than the data", "size", 1, 11, 24, P, 3, 3, 3, parts, ED_NONE);
    if (sgd) {
        group(g, "invalid: E B = 3 x 3 > N_i = 8",
              PRM(101, 4, 3, 3, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 1, 10, 0.3, 0.3, 0.1, 0));
        run_case(g, "E batches larger than a client's data", "size", 1, 11, 24, P, 3, 3, 3, parts, ED_NONE);
    }
    group(g, "invalid: T = 1 (no round)",
          PRM(101, 1, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 1, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "T = 1", "size", 1, 11, 24, P, 3, 3, 3, parts, ED_NONE);
    group(g, fr_ssca_algo_baseline(algo) ? "invalid: lr_a = 0" : "invalid: rho^(1) = a1 = 1.5 > 1",
          PRM(101, 4, 3, 1, 1.5, 0.1, 0.5, 0.1, 0.2, 1e-5, 1, 10, 0, 0.3, 0.1, 0));
    run_case(g, fr_ssca_algo_baseline(algo) ? "a zero learning rate" : "rho^(1) outside (0, 1]", "domain", 1, 11,
             24, P, 3, 3, 3, parts, ED_NONE);
    group(g, "invalid data", PRM(101, 4, 3, 1, 0.9, 0.1, 0.5, 0.1, 0.2, 1e-5, 1, 10, 0.3, 0.3, 0.1, 0));
    run_case(g, "a NaN feature", "nan", 1, 11, 24, P, 3, 3, 3, parts, ED_Z_NAN);
    run_case(g, "a label equal to L", "domain", 1, 11, 24, P, 3, 3, 3, parts, ED_LABEL_L);
    run_case(g, "an infinite entry of w1", "inf", 1, 11, 24, P, 3, 3, 3, parts, ED_W1_INF);
    run_case(g, "w1 one entry short", "size", 1, 11, 24, P, 3, 3, 3, parts, ED_W1_SHORT);
}

void vssca_golden(vgen *g, int algo)
{
    switch (algo) {
    case FR_SSCA_ALG1: golden_ssca_sample(g, 0); break;
    case FR_SSCA_ALG2: golden_ssca_sample(g, 1); break;
    case FR_SSCA_ALG3: golden_ssca_feature(g, 0); break;
    case FR_SSCA_ALG4: golden_ssca_feature(g, 1); break;
    case FR_SSCA_SGD_S: golden_sgd_sample(g, 0); break;
    case FR_SSCA_SGDM_S: golden_sgd_sample(g, 1); break;
    case FR_SSCA_SGD_F: golden_sgd_feature(g, 0); break;
    case FR_SSCA_SGDM_F: golden_sgd_feature(g, 1); break;
    default: break;
    }
    golden_invalid(g, algo);
}

/* ---- the sweep of `make run` ------------------------------------------------ */

/* A valid random run of `algo`: a synthetic problem (N from the partition,
 * P 4..8, L 2..4, J 2..4, nc 1..3), T 3..8, B 1..4 (E 1..3 for SGD_S,
 * SGDM_S), one of the two schedules (000's, or one satisfying (4), (6)),
 * U among an inactive, a binding and an infeasible bound, either weight. */
void vssca_sample(int algo, frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t nc, P, L, J, T, B, E = 1, sched, wt, useed, Uk, s;
    frng_below(g, 3, &nc); nc++;
    frng_below(g, 5, &P); P += 4;
    frng_below(g, 3, &L); L += 2;
    frng_below(g, 3, &J); J += 2;
    frng_below(g, 6, &T); T += 3;
    frng_below(g, 4, &B); B++;
    if (algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S) { frng_below(g, 3, &E); E++; }
    frng_below(g, 2, &sched);
    frng_below(g, 2, &wt);
    frng_below(g, 3, &Uk);
    frng_below(g, 1u << 20, &useed);
    int feat = fr_ssca_algo_feature(algo);
    size_t parts[3], N = 0, Pt = 0;
    if (P < nc) P = nc;
    for (size_t i = 0; i < nc; i++) {
        if (feat) {
            parts[i] = P / nc + (i < P % nc);
            Pt += parts[i];
        } else {
            frng_below(g, 7, &s);
            parts[i] = (size_t)(E * B + s + 4);
            N += parts[i];
        }
    }
    if (feat) { frng_below(g, 25, &s); N = 16 + s; }
    size_t d = J * (L + P), *y = malloc(N * sizeof *y);
    ft_alloc(&in[I_LJ], 1, 2);
    ft_alloc(&in[I_Z], N, P);
    ft_alloc(&in[I_Y], 1, N);
    ft_alloc(&in[I_PARTS], 1, nc);
    ft_alloc(&in[I_W1], 1, d);
    in[I_LJ].v[0] = (double)L;
    in[I_LJ].v[1] = (double)J;
    fr_ssca_synth(useed, N, P, L, in[I_Z].v, y);
    fr_ssca_init_w(useed, L, J, P, in[I_W1].v);
    for (size_t n = 0; n < N; n++) in[I_Y].v[n] = (double)y[n];
    for (size_t i = 0; i < nc; i++) in[I_PARTS].v[i] = (double)parts[i];
    free(y);
    const double U[3] = {8, 0.9, 0.2};
    const double v[NPAR] = {(double)useed, (double)T, (double)B, (double)E,
                            sched ? 1 : 0.9, sched ? 0.6 : 0.1, sched ? 0.9 : 0.5, sched ? 0.9 : 0.1,
                            sched ? 0.1 : 0.2, sched ? 1e-3 : 1e-5, U[Uk], 10, 0.3, sched ? 0.3 : 0,
                            sched ? 0 : 0.1, (double)wt};
    (void)Pt;
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}
