/* SPDX-License-Identifier: Apache-2.0 */
/* runs.c -- the vector schema shared by the algorithm runs of 002 (runs.h;
 * each algorithm's vfunc is in run_<algorithm>.c), as docs/FEDEPM.md
 * specifies them.  One schema for all (checkpoint files):
 *   params  k0, rounds, nsel, lambda, eta, mu0, c, alpha, eps, noise, seed,
 *           stopping, mu_prox, ell, beta  (fr_fedepm_params; integers written
 *           as decimals; unused ones are still present; the library's limits
 *           and the schema's bounds on work and record: runs.h)
 *   inputs  d (client sizes), X (sum d x n), b (labels), Delta (m l1
 *           sensitivities, used by noise rule 2 only)
 *   expect  rounds, cr, stop, sel (rounds x nsel, 0-based clients in draw
 *           order), w (rounds x n server points), f, gnorm2 (per round),
 *           W, Z (m x n final iterates and uploads), snr; the privacy
 *           record (docs/FEDEPM.md section 9): nu0 (m scales of z_i^0),
 *           nu ((rounds - 1) x nsel: the scale of each upload, laid out as
 *           sel), loss0, loss (the same for the uploads' privacy losses,
 *           +Inf when unbounded), eps_basic, eps_adv (m per-client totals,
 *           delta' = FR_ACCT_DELTA_DEFAULT)
 * ref runs at working precision p; certification by precision doubling
 * (vgen.c, iterative).  tol for binary64: rel = abs = FF_RUN_DRIFT_TOL
 * (2^-32, include/fedfast/fedepm.h), about 350 times the largest error
 * measured between fast and ref on these problems (`make run` prints it):
 * an empirical tolerance, not a proved bound (the runs compose many
 * roundings; docs/FEDEPM.md section 7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runs.h"

unsigned long vrun_work_max = VRUN_WORK_MAX;

/* The params of a checkpoint file, in file order, written once: name and
 * where it goes (N: a count into that fr_fedepm_params field, R: a binary64
 * into that field, B: the problem's beta).  Every other list below is
 * expanded from this one. */
#define RUN_PARAMS(X)                                                          \
    X(k0, N) X(rounds, N) X(nsel, N) X(lambda, R) X(eta, R) X(mu0, R) X(c, R) \
    X(alpha, R) X(eps, R) X(noise, N) X(seed, N) X(stopping, N) X(mu_prox, R) \
    X(ell, N) X(beta, B)

#define AS_ENUM(name, kind) P_##name,
#define AS_SPEC(name, kind) {#name, VK_SCALAR},
enum { RUN_PARAMS(AS_ENUM) NPAR };
enum { I_D, I_X, I_B, I_DELTA };
enum { E_ROUNDS, E_CR, E_STOP, E_SEL, E_W, E_F, E_G2, E_WALL, E_Z, E_SNR, E_NU0, E_NU, E_LOSS0,
       E_LOSS, E_EB, E_EA };

const vspec vrun_params[] = {RUN_PARAMS(AS_SPEC) {NULL, 0}};
const vspec vrun_inputs[] = {{"d", VK_VECTOR}, {"X", VK_MATRIX}, {"b", VK_VECTOR}, {"Delta", VK_VECTOR}, {NULL, 0}};
const vspec vrun_expects[] = {
    {"rounds", VK_SCALAR, .cmp = VC_INT}, {"cr", VK_SCALAR, .cmp = VC_INT}, {"stop", VK_SCALAR, .cmp = VC_INT},
    {"sel", VK_MATRIX, .cmp = VC_INT},
    {"w", VK_MATRIX}, {"f", VK_VECTOR}, {"gnorm2", VK_VECTOR}, {"W", VK_MATRIX},
    {"Z", VK_MATRIX}, {"snr", VK_SCALAR}, {"nu0", VK_VECTOR}, {"nu", VK_MATRIX},
    {"loss0", VK_VECTOR}, {"loss", VK_MATRIX}, {"eps_basic", VK_VECTOR}, {"eps_adv", VK_VECTOR},
    {NULL, 0}};
const vdata vrun_data = {"X", "b", "d", .binary = 1};

/* A non-negative integer held in a binary64; FR_EDOM otherwise. */
static int to_count(double x, unsigned long long *out)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (!(x >= 0) || x != floor(x) || x > 0x1p53) return FR_EDOM;
    *out = (unsigned long long)x;
    return FR_OK;
}

/* The problem and parameters from binary64 fields; size_t d[] allocated. */
typedef struct {
    fr_logreg P;
    fr_fedepm_params prm;
    size_t *d;
} run_in;

static int build(run_in *r, const double *par, const ftensor *in)
{
    unsigned long long v[NPAR] = {0};
    int st = FR_OK;
#define READ_N(name) if (st == FR_OK) st = to_count(par[P_##name], &v[P_##name]);
#define READ_R(name)
#define READ_B(name)
#define READ(name, kind) READ_##kind(name)
    RUN_PARAMS(READ)
    if (st != FR_OK) return st;
    size_t m = in[I_D].cols, D = in[I_X].rows;
    if (in[I_B].cols != D || in[I_DELTA].cols != m) return FR_ESIZE;
    r->d = malloc((m ? m : 1) * sizeof *r->d);
    if (r->d == NULL) return FR_ENOMEM;
    size_t sum = 0;
    for (size_t i = 0; i < m && st == FR_OK; i++) {
        unsigned long long di;
        if ((st = to_count(in[I_D].v[i], &di)) == FR_OK) { r->d[i] = (size_t)di; sum += (size_t)di; }
        if (st == FR_OK && sum > D) st = FR_ESIZE;     /* also: no wrap-around */
    }
    if (st == FR_OK && sum != D) st = FR_ESIZE;
    /* the schema's bounds on the work and the record of a run (runs.h);
     * in binary64, exactly enough to compare with them */
    if (st == FR_OK) {
        double n = (double)in[I_X].cols, R1 = (double)v[P_rounds] + 1;
        double step = (4 * (double)m + (double)D) * (n + 1);
        if (R1 * (double)v[P_k0] * (double)v[P_ell] * step > (double)vrun_work_max
            || R1 * (n + (double)v[P_nsel]) > (double)VRUN_RECORD_MAX)
            st = FR_ESIZE;
    }
    r->P = (fr_logreg){.m = m, .n = in[I_X].cols, .d = r->d, .X = in[I_X].v, .b = in[I_B].v, .beta = par[P_beta]};
    r->prm = (fr_fedepm_params){.Delta = in[I_DELTA].v};
#define SET_N(name) r->prm.name = v[P_##name];
#define SET_R(name) r->prm.name = par[P_##name];
#define SET_B(name)
#define SET(name, kind) SET_##kind(name)
    RUN_PARAMS(SET)
    if (st == FR_OK && (v[P_noise] > 3 || v[P_stopping] > 1)) st = FR_EDOM;
    if (st != FR_OK) { free(r->d); r->d = NULL; }
    return st;
}

int vrun_ref(ref_run_fn run, rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    double p[NPAR];
    ftensor fin[4] = {{0}};
    int st = FR_OK;
    for (size_t k = 0; k < NPAR && st == FR_OK; k++) st = rt_exact_double(&p[k], par[k].v[0]);
    for (size_t k = 0; k < 4 && st == FR_OK; k++) {
        if (ft_alloc(&fin[k], in[k].rows, in[k].cols) != 0) { st = FR_ENOMEM; break; }
        for (size_t i = 0; i < in[k].rows * in[k].cols && st == FR_OK; i++)
            st = rt_exact_double(&fin[k].v[i], in[k].v[i]);
    }
    run_in r = {0};
    fr_fedepm_trace t = {0};
    if (st == FR_OK) st = build(&r, p, fin);
    if (st == FR_OK) st = fr_fedepm_trace_init(&t, &r.P, &r.prm, prec);
    if (st == FR_OK) st = run(&t, &r.P, &r.prm);
    if (st == FR_OK) {
        size_t R = t.rounds, n = t.n, m = t.m, q = t.nsel;
        int bad = rt_alloc(&out[E_ROUNDS], 1, 1, prec) | rt_alloc(&out[E_CR], 1, 1, prec)
                | rt_alloc(&out[E_STOP], 1, 1, prec) | rt_alloc(&out[E_SEL], R, q, prec)
                | rt_alloc(&out[E_W], R, n, prec) | rt_alloc(&out[E_F], 1, R, prec)
                | rt_alloc(&out[E_G2], 1, R, prec) | rt_alloc(&out[E_WALL], m, n, prec)
                | rt_alloc(&out[E_Z], m, n, prec) | rt_alloc(&out[E_SNR], 1, 1, prec)
                | rt_alloc(&out[E_NU0], 1, m, prec) | rt_alloc(&out[E_NU], R - 1, q, prec)
                | rt_alloc(&out[E_LOSS0], 1, m, prec) | rt_alloc(&out[E_LOSS], R - 1, q, prec)
                | rt_alloc(&out[E_EB], 1, m, prec) | rt_alloc(&out[E_EA], 1, m, prec);
        if (bad) st = FR_ENOMEM;
        else {
            mpfr_set_ui(out[E_ROUNDS].v[0], R, MPFR_RNDN);
            mpfr_set_ui(out[E_CR].v[0], t.cr, MPFR_RNDN);
            mpfr_set_ui(out[E_STOP].v[0], (unsigned long)t.stop, MPFR_RNDN);
            for (size_t k = 0; k < R * q; k++) mpfr_set_ui(out[E_SEL].v[k], t.sel[k], MPFR_RNDN);
            for (size_t k = 0; k < R * n; k++) mpfr_set(out[E_W].v[k], t.w[k], MPFR_RNDN);
            for (size_t k = 0; k < R; k++) {
                mpfr_set(out[E_F].v[k], t.f[k], MPFR_RNDN);
                mpfr_set(out[E_G2].v[k], t.gnorm2[k], MPFR_RNDN);
            }
            for (size_t k = 0; k < m * n; k++) {
                mpfr_set(out[E_WALL].v[k], t.W[k], MPFR_RNDN);
                mpfr_set(out[E_Z].v[k], t.Z[k], MPFR_RNDN);
            }
            mpfr_set(out[E_SNR].v[0], t.snr, MPFR_RNDN);
            for (size_t k = 0; k < (R - 1) * q; k++) {
                mpfr_set(out[E_NU].v[k], t.nu[k], MPFR_RNDN);
                mpfr_set(out[E_LOSS].v[k], t.loss[k], MPFR_RNDN);
            }
            for (size_t i = 0; i < m; i++) {
                mpfr_set(out[E_NU0].v[i], t.nu0[i], MPFR_RNDN);
                mpfr_set(out[E_LOSS0].v[i], t.loss0[i], MPFR_RNDN);
                mpfr_set(out[E_EB].v[i], t.eps_basic[i], MPFR_RNDN);
                mpfr_set(out[E_EA].v[i], t.eps_adv[i], MPFR_RNDN);
            }
        }
    }
    fr_fedepm_trace_clear(&t);
    free(r.d);
    for (size_t k = 0; k < 4; k++) ft_free(&fin[k]);
    return st;
}

int vrun_fast(fast_run_fn run, ftensor *par, ftensor *in, ftensor *out)
{
    double p[NPAR];
    for (size_t k = 0; k < NPAR; k++) p[k] = par[k].v[0];
    run_in r = {0};
    ff_fedepm_trace t = {0};
    int st = build(&r, p, in);
    if (st == FR_OK) st = ff_fedepm_trace_init(&t, &r.P, &r.prm);
    if (st == FR_OK) st = run(&t, &r.P, &r.prm);
    if (st == FR_OK) {
        size_t R = t.rounds, n = t.n, m = t.m, q = t.nsel;
        int bad = ft_alloc(&out[E_ROUNDS], 1, 1) | ft_alloc(&out[E_CR], 1, 1) | ft_alloc(&out[E_STOP], 1, 1)
                | ft_alloc(&out[E_SEL], R, q) | ft_alloc(&out[E_W], R, n) | ft_alloc(&out[E_F], 1, R)
                | ft_alloc(&out[E_G2], 1, R) | ft_alloc(&out[E_WALL], m, n) | ft_alloc(&out[E_Z], m, n)
                | ft_alloc(&out[E_SNR], 1, 1) | ft_alloc(&out[E_NU0], 1, m) | ft_alloc(&out[E_NU], R - 1, q)
                | ft_alloc(&out[E_LOSS0], 1, m) | ft_alloc(&out[E_LOSS], R - 1, q)
                | ft_alloc(&out[E_EB], 1, m) | ft_alloc(&out[E_EA], 1, m);
        if (bad) st = FR_ENOMEM;
        else {
            out[E_ROUNDS].v[0] = (double)R;
            out[E_CR].v[0] = (double)t.cr;
            out[E_STOP].v[0] = t.stop;
            for (size_t k = 0; k < R * q; k++) out[E_SEL].v[k] = (double)t.sel[k];
            for (size_t k = 0; k < R * n; k++) out[E_W].v[k] = t.w[k];
            for (size_t k = 0; k < R; k++) { out[E_F].v[k] = t.f[k]; out[E_G2].v[k] = t.gnorm2[k]; }
            for (size_t k = 0; k < m * n; k++) { out[E_WALL].v[k] = t.W[k]; out[E_Z].v[k] = t.Z[k]; }
            out[E_SNR].v[0] = t.snr;
            for (size_t k = 0; k < (R - 1) * q; k++) { out[E_NU].v[k] = t.nu[k]; out[E_LOSS].v[k] = t.loss[k]; }
            for (size_t i = 0; i < m; i++) {
                out[E_NU0].v[i] = t.nu0[i];
                out[E_LOSS0].v[i] = t.loss0[i];
                out[E_EB].v[i] = t.eps_basic[i];
                out[E_EA].v[i] = t.eps_adv[i];
            }
        }
    }
    ff_fedepm_trace_clear(&t);
    free(r.d);
    return st;
}

void vrun_tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = FF_RUN_DRIFT_TOL;
    *abs = FF_RUN_DRIFT_TOL;
}

/* A valid random run for the audit sweep: a synthetic problem (fedspec/fedepm.h)
 * and the paper's constants with random k0, R, nsel, noise rule. */
void vrun_sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t m, n, k0, R, q, noise, seed, stop;
    frng_below(g, 4, &m); m += 3;
    frng_below(g, 3, &n); n += 2;
    frng_below(g, 4, &k0); k0++;
    frng_below(g, 5, &R); R += 2;
    frng_below(g, m, &q); q++;
    frng_below(g, 3, &noise);
    frng_below(g, 1u << 20, &seed);
    frng_below(g, 2, &stop);
    size_t *d = malloc(m * sizeof *d), D = 0;
    fr_synth_sizes(seed, m, 3, 9, d);
    for (size_t i = 0; i < m; i++) D += d[i];
    ft_alloc(&in[I_D], 1, m);
    ft_alloc(&in[I_X], D, n);
    ft_alloc(&in[I_B], 1, D);
    ft_alloc(&in[I_DELTA], 1, m);
    fr_synth_data(seed, m, n, d, in[I_X].v, in[I_B].v);
    for (size_t i = 0; i < m; i++) {
        in[I_D].v[i] = (double)d[i];
        in[I_DELTA].v[i] = 2.0 / (double)d[i];     /* l1 sensitivity scale of a mean of d_i terms */
    }
    free(d);
    double eta = (0.02 * (double)m + 1) * ((double)q / (double)m + 0.1) * 1e-5;
    const double v[NPAR] = {(double)k0, (double)R, (double)q, eta / 2, eta, 0.05, 1e-8, 1.001, 0.1,
                            (double)noise, (double)seed, (double)stop, 1e-5, 3, 1e-3};
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}

/* The run seed of the current group (its `seed` param), for the case comments. */
static uint64_t group_seed;

/* vg_group, remembering the group's run seed. */
static void group(vgen *g, const char *comment, const double *params)
{
    group_seed = (uint64_t)params[P_seed];
    vg_group(g, comment, params);
}

/* One golden case on a synthetic problem (docs/FEDEPM.md section 6): the
 * problem of fr_synth_sizes/fr_synth_data with data seed `seed`, sizes in
 * [dmin, dmax]; then the clients of the bit mask `mirror` mirrored (each of
 * their d_i rows again with the label 1 - b: d_i doubles); then, if
 * label_fix != 0, b_0 = label_fix (an invalid label for a domain case).
 * Delta_i = RN(2/d_i) with the final d_i.  The comment is `what`, then the
 * data and the run seed in the fixed form of docs/VECTORS.md ("Data:
 * synthetic seed S, m = M, n = N, d_i in [A, B]...; run seed R"), which
 * docs/rng_reference.py reads to regenerate every input and selection. */
static void run_case(vgen *g, const char *what, const char *flags, int invalid, uint64_t seed,
                     size_t m, size_t n, size_t dmin, size_t dmax, double label_fix, unsigned mirror)
{
    size_t d0[64], d[64], D0 = 0, D = 0;
    fr_synth_sizes(seed, m, dmin, dmax, d0);
    for (size_t i = 0; i < m; i++) {
        D0 += d0[i];
        d[i] = d0[i] << (mirror >> i & 1);
        D += d[i];
    }
    double *X0 = malloc(D0 * n * sizeof *X0), *b0 = malloc(D0 * sizeof *b0);
    double *X = malloc(D * n * sizeof *X), *b = malloc(D * sizeof *b), dd[64], Delta[64];
    fr_synth_data(seed, m, n, d0, X0, b0);
    for (size_t i = 0, src = 0, dst = 0; i < m; i++) {   /* client by client */
        for (int copy = 0; copy <= (int)(mirror >> i & 1); copy++)
            for (size_t t = 0; t < d0[i]; t++, dst++) {
                for (size_t j = 0; j < n; j++) X[dst * n + j] = X0[(src + t) * n + j];
                b[dst] = copy ? 1 - b0[src + t] : b0[src + t];
            }
        src += d0[i];
    }
    for (size_t i = 0; i < m; i++) { dd[i] = (double)d[i]; Delta[i] = 2.0 / (double)d[i]; }
    if (label_fix != 0) b[0] = label_fix;
    char mir[160] = "", fix[40] = "", text[1024];
    if (mirror != 0 && m < 32 && mirror == (1u << m) - 1) {
        snprintf(mir, sizeof mir, ", every client mirrored");
    } else if (mirror) {
        size_t cnt = 0, k = 0;
        for (size_t i = 0; i < m; i++) cnt += mirror >> i & 1;
        snprintf(mir, sizeof mir, ", client%s", cnt > 1 ? "s" : "");
        for (size_t i = 0; i < m; i++)
            if (mirror >> i & 1) {
                size_t len = strlen(mir);
                snprintf(mir + len, sizeof mir - len, "%s %zu", k == 0 ? "" : k + 1 == cnt ? " and" : ",", i);
                k++;
            }
        size_t len = strlen(mir);
        snprintf(mir + len, sizeof mir - len, " mirrored");
    }
    if (label_fix != 0) snprintf(fix, sizeof fix, ", then b_0 = %s", isnan(label_fix) ? "nan" : "0.5");
    snprintf(text, sizeof text, "%s. Data: synthetic seed %llu, m = %zu, n = %zu, d_i in [%zu, %zu]%s%s; run seed %llu",
             what, (unsigned long long)seed, m, n, dmin, dmax, mir, fix, (unsigned long long)group_seed);
    vg_case(g, text, flags, invalid, (ftensor[]){{1, m, dd}, {D, n, X}, {1, D, b}, {1, m, Delta}});
    free(X0);
    free(b0);
    free(X);
    free(b);
}

/* The groups every run file has: the paper's constants (Sec. VII-B:
 * mu0 = 0.05, c = 1e-8, alpha = 1.001, eps = 0.1, beta = 1e-3,
 * eta = (0.02 m + 1)(rho + 0.1) 1e-5, lambda = eta/2, mu = 1e-5, ell = 3).
 * New cases are appended at the end (ids are never renumbered). */
void vrun_golden(vgen *g)
{
    const double eta4 = (0.02 * 4 + 1) * (0.5 + 0.1) * 1e-5;
    /* k0, R, nsel, lambda, eta, mu0, c, alpha, eps, noise, seed, stopping, mu_prox, ell, beta */
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, noise (39)",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 1, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "two of four clients per round, noise (39), the paper's constants",
             "trajectory,partial,noise-eq39,unequal-sizes", 0, 11, 4, 3, 4, 8, 0, 0);
    run_case(g, "the same run on another problem: the data seed (12) generates the problem, the run seed "
             "(11, the group's seed) keys the selection and noise streams",
             "trajectory,partial,noise-eq39,unequal-sizes", 0, 12, 4, 2, 3, 10, 0, 0);
    group(g, "m = 3, full participation, k0 = 2, R = 4, noise (27) with Delta_i = 2/d_i",
          (double[]){2, 4, 3, 1e-3, 2e-3, 0.05, 1e-8, 1.001, 0.5, 2, 21, 0, 1e-5, 2, 1e-3});
    run_case(g, "full participation, noise (27)", "trajectory,full,noise-eq27,unequal-sizes",
             0, 21, 3, 3, 5, 7, 0, 0);
    group(g, "m = 5, full participation, k0 = 3, R = 60, stopping rule on, noise (39) with eps = 1e6 (weak noise)",
          (double[]){3, 60, 5, 1e-6, 2e-6, 0.05, 1e-8, 1.001, 1e6, 1, 31, 1, 1e-5, 3, 1e-3});
    run_case(g, "the stopping rule ends the run (FedEPM and SFedAvg: variance rule; SFedProx: gradient rule)",
             "trajectory,full,noise-eq39,stopping", 0, 31, 5, 2, 40, 60, 0, 0);
    group(g, "invalid: alpha = 1 (Algorithm 2 needs alpha_i > 1)",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1, 0.1, 1, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "alpha = 1", "domain,boundary", 1, 11, 4, 3, 4, 8, 0, 0);
    group(g, "invalid: nsel = 0",
          (double[]){3, 5, 0, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 1, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "no client selected", "size", 1, 11, 4, 3, 4, 8, 0, 0);
    group(g, "invalid: k0 = 0.5 (not an integer)",
          (double[]){0.5, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 1, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "fractional k0", "domain", 1, 11, 4, 3, 4, 8, 0, 0);
    group(g, "invalid data", (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 1, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "a label 0.5", "domain", 1, 11, 4, 3, 4, 8, 0.5, 0);
    run_case(g, "NaN label", "nan", 1, 11, 4, 3, 4, 8, NAN, 0);
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, no noise (rule 0)",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 0, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "no noise: every scale 0 and z_i = w_i, so each SNR term and snr are +Inf; loss0 = 0 "
             "(w_i^0 = 0 is data-independent), every later loss +Inf (w_i released exactly), totals +Inf",
             "trajectory,partial,unequal-sizes,zero-scale,snr-special", 0, 11, 4, 3, 4, 8, 0, 0);
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, noise (27), run seed 5",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 2, 5, 0, 1e-5, 3, 1e-3});
    run_case(g, "client 3 is in no S^r (r = 1..6): its row of W is w_3^0 = 0, its row of Z is z_3^0, "
             "its only upload is z_3^0 (eps_basic[3] = loss0[3] = 0), and it is not in the SNR minimum",
             "trajectory,partial,noise-eq27,unequal-sizes,never-selected", 0, 11, 4, 3, 4, 8, 0, 0);
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, noise (39), run seed 13",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.1, 1, 13, 0, 1e-5, 3, 1e-3});
    run_case(g, "client 0 mirrored: grad f_0(0) = 0 exactly, so nu0[0] = 0 under (39): z_0^0 = 0 and no "
             "word of client 0's noise stream is used before its first upload after k = 0 (round 3)",
             "trajectory,partial,noise-eq39,unequal-sizes,zero-scale,mirrored", 0, 41, 4, 2, 3, 6, 0, 1);
    group(g, "m = 3, nsel = 2, k0 = 2, R = 3, noise (39), stopping off",
          (double[]){2, 3, 2, 1e-3, 2e-3, 0.05, 1e-8, 1.001, 0.1, 1, 7, 0, 1e-5, 3, 1e-3});
    run_case(g, "every client mirrored: w^r = 0 and grad f_i(0) = 0, so every scale is 0 and W = Z = 0; "
             "each SNR term is +Inf (a noiseless upload counts as +Inf even with w_i = 0)",
             "trajectory,partial,noise-eq39,zero-scale,snr-special,mirrored", 0, 42, 3, 2, 2, 4, 0, 7);
    group(g, "m = 3, nsel = 2, k0 = 2, R = 3, noise (39), stopping on",
          (double[]){2, 3, 2, 1e-3, 2e-3, 0.05, 1e-8, 1.001, 0.1, 1, 7, 1, 1e-5, 3, 1e-3});
    run_case(g, "every client mirrored, stopping on: ||grad f(w^1)||^2 = 0 stops the run at the first "
             "aggregation (stop = 1, rounds = 1, no nu row), so no client uploads after k = 0: snr NaN",
             "trajectory,partial,noise-eq39,stopping,zero-scale,snr-special,mirrored", 0, 42, 3, 2, 2, 4, 0, 7);
    group(g, "m = 3, full participation, k0 = 3, R = 60, no noise, stopping rule on, beta = 0.01, "
             "mu_prox = 0.01, ell = 2",
          (double[]){3, 60, 3, 1e-6, 2e-6, 0.05, 1e-8, 1.001, 0.1, 0, 17, 1, 0.01, 2, 0.01});
    run_case(g, "both stopping tests hold at aggregation 8 (and neither before) in all three algorithms: "
             "||grad f(w^8)||^2 < 10^-6 and var{f(w^5..8)} <= n 10^-8/(1 + |f(w^8)|); stop = 1, "
             "the gradient test is decided first",
             "trajectory,full,stopping,both-rules,zero-scale,snr-special", 0, 17, 3, 2, 20, 60, 0, 0);
}

/* The privacy checkpoints of FedEPM (vector function fedepm_dp,
 * run_fedepm_dp.c; docs/FEDEPM.md section 9): the certified rule and (27)
 * with c = 0, the paper's constants otherwise, Delta_i = 2/d_i (a bound on
 * ||g_i(D) - g_i(D')||_1 for one replaced sample: ||x_t||_1 <= n 2^-s <= 1
 * for these synthetic data). */
void vrun_golden_dp(vgen *g)
{
    const double eta4 = (0.02 * 4 + 1) * (0.5 + 0.1) * 1e-5;
    /* k0, R, nsel, lambda, eta, mu0, c, alpha, eps, noise, seed, stopping, mu_prox, ell, beta */
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, the certified rule (fedref's, not the paper's): "
          "c = 0, stopping off, eps = 0.5 per upload",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 0, 1.001, 0.5, 3, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "nu = S_i/eps, each upload's loss 0.5 given the past, z_i^0 noiseless (loss 0); "
             "totals k_i 0.5 (basic)", "trajectory,partial,unequal-sizes", 0, 11, 4, 3, 4, 8, 0, 0);
    run_case(g, "n = 2", "trajectory,partial,unequal-sizes", 0, 12, 4, 2, 3, 10, 0, 0);
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, noise (27) with c = 0 (mu data-independent), "
          "eps = 0.5",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 0, 1.001, 0.5, 2, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "the loss of the upload after K updates is eps mu_K S_K/Delta_i, "
             "about K eps: 1.5, 3.0, 4.5 (E-002-V1)", "trajectory,partial,noise-eq27,unequal-sizes",
             0, 11, 4, 3, 4, 8, 0, 0);
    group(g, "invalid: the certified rule with c = 1e-8 (mu would depend on the data)",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 1e-8, 1.001, 0.5, 3, 11, 0, 1e-5, 3, 1e-3});
    run_case(g, "c > 0", "domain", 1, 11, 4, 3, 4, 8, 0, 0);
    group(g, "invalid: the certified rule with the stopping rule on (a data-dependent release)",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 0, 1.001, 0.5, 3, 11, 1, 1e-5, 3, 1e-3});
    run_case(g, "stopping = 1", "domain", 1, 11, 4, 3, 4, 8, 0, 0);
    group(g, "m = 4, rho = 1/2, k0 = 3, R = 5, the certified rule, eps = 0.5, run seed 5",
          (double[]){3, 5, 2, eta4 / 2, eta4, 0.05, 0, 1.001, 0.5, 3, 5, 0, 1e-5, 3, 1e-3});
    run_case(g, "client 3 is in no S^r: W and Z rows 0 (z_3^0 noiseless under the certified rule), "
             "nu0[3] = loss0[3] = 0, eps_basic[3] = eps_adv[3] = 0: it released nothing that depends on its data",
             "trajectory,partial,unequal-sizes,never-selected", 0, 11, 4, 3, 4, 8, 0, 0);
}

/* A random run for the audit sweep of fedepm_dp: vrun_sample's problem with
 * c = 0, the stopping rule off and the certified rule or (27). */
void vrun_sample_dp(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t r;
    vrun_sample(g, par, in);
    frng_below(g, 2, &r);
    par[P_c].v[0] = 0;
    par[P_stopping].v[0] = 0;
    par[P_noise].v[0] = r ? FR_NOISE_CERT : FR_NOISE_EQ27;
}
