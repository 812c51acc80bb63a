/* table1.c -- `fedref table1` (make table1): Table 1 of 004 (Sec. 5.1)
 * reproduced in fast.  For each of the nine (n, d, mt) settings one QP
 * instance (25) from fr_proxal_gen_qp(seed) (the generator of Sec. 5.1,
 * docs/RNG.md), then `trials` runs of Algorithm 1 and of cProx-AL
 * (Algorithm 3) from the same w0, uniform on the unit sphere: the Gaussian
 * tape of Philox stream (seed, TABLE1_STREAM_W0 + 1000 n + 10 s + trial)
 * (s = the setting's index 0..2 for its n; fr_rng_gaussian2 pairs at 53
 * bits, z0 then z1), w0 = z / ||z||_2 (sum of squares left to right, one
 * sqrt, d divisions, as fr_proxal_gen_qp's unit vectors).  The parameters
 * of Sec. 5.1: mu0 = 0, sbar = 0.1, beta = 10, rho_i = 1, eps1 = eps2 =
 * 1e-3; Algorithm 2's q (not given by the paper, which solves (14)-(15)
 * exactly) is --q (default 0.95: q^t stays above binary64's reach for
 * the ~600 iterations of Algorithm 2's longest calls here; q = 0.5 makes the
 * client tolerance q^t unreachable after ~50 iterations and fast reports
 * FR_EDOM).  The columns of Table 1 (population std
 * as numpy's np.std in the authors' LCQP/lcqp.py; relative difference
 * |f_1 - f_3| / |f_3| per trial, f_3 cProx-AL's, as lcqp.py), beside the
 * paper's figures, then fedref's own: the true KKT residuals of each output
 * (max over the trials), iterations, factorisations, Theorem 3.1
 * certificates, time.  A run that fails (a status, (8) not reached within
 * kmax, thm31_ok = 0 after (8), or an inner call whose (7) is not
 * certified) is reported with its numbers and makes the exit status 1. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "fedref.h"
#include "fedfast.h"

/* Philox streams of w0 (fedspec/proxal.h's generator streams are 1..5 << 32). */
#define TABLE1_STREAM_W0 ((uint64_t)6 << 32)

/* Table 1 of 004 as printed (../shared/seeds/004: Sec. 5.1, "Table 1:
 * Numerical results for problem (25)"): objective mean (std) of Algorithm
 * 1 and cProx-AL, relative difference mean (std), feasibility violation
 * mean (std) of Algorithm 1 and cProx-AL, over 10 trials. */
typedef struct {
    unsigned n, d, mt;
    double o1, o1s, o3, o3s, rd, rds, f1, f1s, f3, f3s;
} paper_row;
static const paper_row PAPER[9] = {
    {1, 100, 1, -0.23, 4.65e-6, -0.23, 2.38e-5, 1.63e-3, 1.01e-4, 3.33e-4, 1.14e-5, 5.68e-4, 2.82e-5},
    {1, 300, 3, -0.37, 2.74e-6, -0.37, 1.32e-6, 1.01e-3, 3.51e-5, 3.52e-4, 1.44e-5, 4.45e-4, 1.70e-5},
    {1, 500, 5, -0.30, 1.36e-5, -0.30, 7.54e-6, 1.34e-3, 4.62e-5, 4.38e-4, 5.36e-5, 3.85e-4, 1.05e-5},
    {5, 100, 1, 9.81, 7.18e-5, 9.80, 1.46e-5, 1.09e-3, 7.96e-6, 1.34e-4, 9.02e-6, 8.03e-4, 1.57e-6},
    {5, 300, 3, 8.47, 8.12e-5, 8.45, 1.30e-5, 1.36e-3, 9.62e-6, 1.09e-4, 1.31e-5, 8.28e-4, 1.98e-6},
    {5, 500, 5, 9.92, 4.43e-5, 9.91, 4.87e-6, 8.26e-4, 4.27e-6, 1.33e-4, 9.68e-6, 3.73e-4, 2.43e-7},
    {10, 100, 1, 49.40, 9.02e-5, 49.37, 5.82e-6, 5.59e-4, 1.67e-5, 7.31e-5, 7.54e-6, 5.88e-4, 1.34e-7},
    {10, 300, 3, 41.49, 7.04e-5, 41.44, 5.48e-6, 1.14e-3, 1.77e-6, 8.56e-5, 2.27e-7, 8.73e-4, 7.26e-6},
    {10, 500, 5, 41.45, 2.25e-5, 41.41, 5.30e-6, 9.39e-4, 4.94e-7, 9.29e-4, 2.55e-6, 7.66e-4, 1.37e-7},
};

void cli_table1_usage(FILE *f)
{
    fputs("usage: fedref table1 [--quick] [--trials N] [--seed N] [--q Q]\n"
          "\n"
          "Table 1 of 004 (Sec. 5.1, problem (25)) reproduced in fast: for each of\n"
          "the nine settings (n in {1, 5, 10}, (d, mt) in {(100, 1), (300, 3),\n"
          "(500, 5)}) one seeded QP instance (fr_proxal_gen_qp), then N trials of\n"
          "Algorithm 1 and cProx-AL (Algorithm 3) from the same w0 on the unit\n"
          "sphere, mu0 = 0, sbar = 0.1, beta = 10, rho_i = 1, eps1 = eps2 = 1e-3.\n"
          "Prints the paper's columns (objective, relative difference, feasibility\n"
          "violation: mean (std)) beside the paper's figures, then the true KKT\n"
          "residuals of every output (max over trials), outer/inner iterations,\n"
          "factorisations, Theorem 3.1 certificates and the time per setting.\n"
          "  --quick      n = 1 and 5 at d = 100, 2 trials (make check)\n"
          "  --trials N   trials per setting (default 10, 1..1000)\n"
          "  --seed N     seed of the instances and of w0 (default 10)\n"
          "  --q Q        Algorithm 2's q in (0, 1): eps_{t+1} = q^t (default 0.95)\n"
          "Progress on stderr.  Exit 0 if every run terminated with its Theorem 3.1\n"
          "(and every inner (7)) certified, 1 otherwise, 2 on a usage error.\n"
          "`make table1` runs the full table.\n", f);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_ul(const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *s == '-' || errno != 0 || *end != '\0') {
        cli_error("not an unsigned decimal integer", s);
        return -1;
    }
    *out = v;
    return 0;
}

/* w0 on the unit sphere (the header comment): FR_OK or the Gaussian's status. */
static int sphere_w0(double *w, size_t d, uint64_t seed, uint64_t stream)
{
    frng_t g;
    mpfr_t z0, z1;
    int st = FR_OK;
    double s = 0;
    frng_init(&g, seed, stream);
    mpfr_init2(z0, 53);
    mpfr_init2(z1, 53);
    for (size_t k = 0; k < d && st == FR_OK; k += 2) {
        st = fr_rng_gaussian2(z0, z1, &g);
        if (st != FR_OK) break;
        w[k] = mpfr_get_d(z0, MPFR_RNDN);
        if (k + 1 < d) w[k + 1] = mpfr_get_d(z1, MPFR_RNDN);
    }
    mpfr_clear(z0);
    mpfr_clear(z1);
    if (st != FR_OK) return st;
    for (size_t k = 0; k < d; k++) s = s + w[k] * w[k];
    s = sqrt(s);
    if (!(s > 0)) return FR_EINTERNAL;
    for (size_t k = 0; k < d; k++) w[k] = w[k] / s;
    return FR_OK;
}

static void mean_std(const double *x, size_t k, double *m, double *s)
{
    double a = 0, v = 0;
    for (size_t i = 0; i < k; i++) a += x[i];
    a /= (double)k;
    for (size_t i = 0; i < k; i++) v += (x[i] - a) * (x[i] - a);
    *m = a;
    *s = sqrt(v / (double)k);                   /* population std (np.std) */
}

/* One run's summary. */
typedef struct {
    double obj, feas, kkt1, kkt2, time;
    unsigned long outer, inner, fact;
    int st, terminated, thm31, inner_bad;
} run_sum;

static void summarise(run_sum *r, const ff_proxal_trace *t, int st, double time)
{
    memset(r, 0, sizeof *r);
    r->st = st;
    r->time = time;
    r->obj = r->feas = r->kkt1 = r->kkt2 = NAN;
    if (st != FR_OK) return;
    size_t K = t->iters;
    r->outer = K;
    r->terminated = t->terminated;
    r->thm31 = t->thm31_ok;
    r->fact = t->factorisations;
    for (size_t k = 0; k < K; k++) {
        r->inner += t->inner[k];
        if (!t->inner_ok[k]) r->inner_bad++;
    }
    if (K > 0) {
        r->obj = t->obj[K - 1];
        r->feas = t->feas[K - 1];
        r->kkt1 = t->kkt1[K - 1];
        r->kkt2 = t->kkt2[K - 1];
    }
}

static int run_failed(const run_sum *r)
{
    return r->st != FR_OK || !r->terminated || !r->thm31 || r->inner_bad > 0;
}

static void report_failure(const char *alg, const paper_row *s, unsigned long trial, const run_sum *r,
                           const fr_proxal_alg_params *prm)
{
    printf("FAIL: %s, n = %u, d = %u, mt = %u, trial %lu: status %d (%s), terminated %d, thm31_ok %d, "
           "kkt1 = %.3e (eps1 %.0e), kkt2 = %.3e (eps2 %.0e), outer %lu, inner (7) not certified %d\n",
           alg, s->n, s->d, s->mt, trial, r->st, fr_strerror(r->st), r->terminated, r->thm31, r->kkt1,
           prm->eps1, r->kkt2, prm->eps2, r->outer, r->inner_bad);
}

int cmd_table1(int argc, char **argv)
{
    unsigned long trials = 0, seed = 10;
    double q = 0.95;
    int quick = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) { cli_table1_usage(stdout); return 0; }
        if (strcmp(argv[i], "--quick") == 0) { quick = 1; continue; }
        int is_tr = strcmp(argv[i], "--trials") == 0, is_seed = strcmp(argv[i], "--seed") == 0;
        int is_q = strcmp(argv[i], "--q") == 0;
        if (!is_tr && !is_seed && !is_q) {
            cli_error("unknown argument of table1 (see fedref table1 --help)", argv[i]);
            return 2;
        }
        if (i + 1 >= argc) { cli_error("option needs a value", argv[i]); return 2; }
        const char *v = argv[++i];
        if (is_tr) {
            if (parse_ul(v, &trials)) return 2;
            if (trials == 0 || trials > 1000) { cli_error("trials must be 1..1000", v); return 2; }
        } else if (is_seed) {
            if (parse_ul(v, &seed)) return 2;
        } else {
            char *end;
            errno = 0;
            q = strtod(v, &end);
            if (*v == '\0' || *end != '\0' || errno != 0 || !(q > 0 && q < 1)) {
                cli_error("q must be a number in (0, 1)", v);
                return 2;
            }
        }
    }
    if (trials == 0) trials = quick ? 2 : 10;
    setvbuf(stdout, NULL, _IOLBF, 0);           /* rows as they are made (long runs) */
    /* --quick: n = 1 and 5 at d = 100 (rows 0, 3) */
    static const size_t ALL[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, QUICK[2] = {0, 3};
    const size_t nset = quick ? 2 : 9, *sel = quick ? QUICK : ALL;
    double work_total = 0, work_done = 0, t_start = now_s();
    for (size_t s = 0; s < nset; s++)
        work_total += (double)(PAPER[sel[s]].n + 1) * PAPER[sel[s]].d * PAPER[sel[s]].d * PAPER[sel[s]].d;

    printf("fedref table1: 004 Table 1 (problem (25)), %lu trial%s per setting, seed %lu, fast (binary64, "
           "LAPACK)%s\n", trials, trials > 1 ? "s" : "", seed, quick ? ", --quick (d = 100, n = 1 and 5)" : "");
    printf("Sec. 5.1 parameters: mu0 = 0, sbar = 0.1, beta = 10, rho_i = 1, eps1 = eps2 = 1e-3; Algorithm 2: "
           "q = %g, eps18 printed, tmax = 10000; kmax = 10000\n", q);
    printf("Each cell: mean (population std) over the trials; 'paper' rows are 004's Table 1 as printed.\n\n");
    printf("%-6s %3s %4s %3s  %-22s %-22s %-20s %-20s %-20s\n", "", "n", "d", "mt", "objective Alg. 1",
           "objective cProx-AL", "relative difference", "feas. viol. Alg. 1", "feas. viol. cProx-AL");

    /* the extra table is printed after the main one: keep its lines */
    char extra[9][400];
    unsigned long fails = 0, runs = 0;
    int hard = 0;
    for (size_t s = 0; s < nset && !hard; s++) {
        const paper_row *S = &PAPER[sel[s]];
        size_t n = S->n, d = S->d, mt = S->mt;
        double ts = now_s();
        double *A = malloc(n * d * d * sizeof *A), *b = malloc(n * d * sizeof *b);
        double *C = malloc((n + 1) * mt * d * sizeof *C), *e = malloc((n + 1) * mt * sizeof *e);
        double *w0 = calloc(d, sizeof *w0), *mu0 = calloc((n + 1) * mt, sizeof *mu0);
        double *rho = malloc(n * sizeof *rho);
        double *o1 = malloc(trials * sizeof(double)), *o3 = malloc(trials * sizeof(double));
        double *f1 = malloc(trials * sizeof(double)), *f3 = malloc(trials * sizeof(double));
        double *rd = malloc(trials * sizeof(double));
        ff_proxal_trace t1, t3;
        memset(&t1, 0, sizeof t1);
        memset(&t3, 0, sizeof t3);
        int st = FR_OK;
        if (!A || !b || !C || !e || !w0 || !mu0 || !rho || !o1 || !o3 || !f1 || !f3 || !rd) st = FR_ENOMEM;
        if (st == FR_OK) st = fr_proxal_gen_qp(A, b, C, e, n, d, mt, seed);
        for (size_t i = 0; i < n && st == FR_OK; i++) rho[i] = 1;
        fr_proxal_problem P = {.kind = FR_PROXAL_QP, .n = n, .d = d, .mt = mt, .A = A, .b = b, .C = C, .e = e,
                               .h = FR_PROXAL_H_ZERO};
        fr_proxal_alg_params prm = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 0.1, .beta = 10, .kmax = 10000,
                                    .admm = {.tau = 1, .q = q, .rho = rho, .tmax = 10000, .newton_max = 50,
                                             .eps18 = FR_PROXAL_EPS18_PRINTED},
                                    .w0 = w0, .mu0 = mu0, .keep = 0};
        double tgen = now_s() - ts;
        if (st == FR_OK) st = ff_proxal_trace_init(&t1, &P, &prm);
        if (st == FR_OK) st = ff_proxal_trace_init(&t3, &P, &prm);
        if (st != FR_OK) {
            cli_error("cannot set up the setting (generator or trace)", fr_strerror(st));
            hard = 1;
        }
        double k1max = 0, k2max = 0, k1max3 = 0, k2max3 = 0, time1 = 0, time3 = 0;
        double out1 = 0, out3 = 0, in1 = 0, in3 = 0, fact1 = 0, fact3 = 0;
        unsigned long ok1 = 0, ok3 = 0;
        for (unsigned long tr = 0; tr < trials && !hard; tr++) {
            st = sphere_w0(w0, d, seed, TABLE1_STREAM_W0 + 1000 * n + 10 * (sel[s] % 3) + tr);
            if (st != FR_OK) { cli_error("cannot draw w0", fr_strerror(st)); hard = 1; break; }
            run_sum r1, r3;
            double t0 = now_s();
            st = ff_proxal_alg1(&t1, &P, &prm);
            summarise(&r1, &t1, st, now_s() - t0);
            t0 = now_s();
            st = ff_proxal_alg3(&t3, &P, &prm);
            summarise(&r3, &t3, st, now_s() - t0);
            runs += 2;
            if (run_failed(&r1)) { fails++; report_failure("Algorithm 1", S, tr, &r1, &prm); }
            if (run_failed(&r3)) { fails++; report_failure("cProx-AL", S, tr, &r3, &prm); }
            ok1 += r1.thm31 != 0;
            ok3 += r3.thm31 != 0;
            o1[tr] = r1.obj;
            o3[tr] = r3.obj;
            f1[tr] = r1.feas;
            f3[tr] = r3.feas;
            rd[tr] = fabs(r1.obj - r3.obj) / fabs(r3.obj);
            k1max = fmax(k1max, r1.kkt1);
            k2max = fmax(k2max, r1.kkt2);
            k1max3 = fmax(k1max3, r3.kkt1);
            k2max3 = fmax(k2max3, r3.kkt2);
            out1 += (double)r1.outer;
            out3 += (double)r3.outer;
            in1 += (double)r1.inner;
            in3 += (double)r3.inner;
            fact1 += (double)r1.fact;
            fact3 += (double)r3.fact;
            time1 += r1.time;
            time3 += r3.time;
        }
        if (!hard) {
            double m[5], sd[5];
            mean_std(o1, trials, &m[0], &sd[0]);
            mean_std(o3, trials, &m[1], &sd[1]);
            mean_std(rd, trials, &m[2], &sd[2]);
            mean_std(f1, trials, &m[3], &sd[3]);
            mean_std(f3, trials, &m[4], &sd[4]);
            char c[5][40];
            for (int k = 0; k < 5; k++)
                snprintf(c[k], sizeof c[k], k < 2 ? "%.4f (%.2e)" : "%.2e (%.2e)", m[k], sd[k]);
            printf("%-6s %3zu %4zu %3zu  %-22s %-22s %-20s %-20s %-20s\n", "fedref", n, d, mt, c[0], c[1], c[2],
                   c[3], c[4]);
            snprintf(c[0], sizeof c[0], "%.2f (%.2e)", S->o1, S->o1s);
            snprintf(c[1], sizeof c[1], "%.2f (%.2e)", S->o3, S->o3s);
            snprintf(c[2], sizeof c[2], "%.2e (%.2e)", S->rd, S->rds);
            snprintf(c[3], sizeof c[3], "%.2e (%.2e)", S->f1, S->f1s);
            snprintf(c[4], sizeof c[4], "%.2e (%.2e)", S->f3, S->f3s);
            printf("%-6s %3s %4s %3s  %-22s %-22s %-20s %-20s %-20s\n", "paper", "", "", "", c[0], c[1], c[2], c[3],
                   c[4]);
            double T = (double)trials;
            snprintf(extra[s], sizeof extra[s],
                     "%3zu %4zu %3zu  %9.2e %9.2e %9.2e %9.2e  %6.1f %6.1f  %8.1f %6.1f  %6.1f %6.1f  %2lu/%-2lu %2lu/%-2lu"
                     "  %6.2f %7.2f %7.2f",
                     n, d, mt, k1max, k2max, k1max3, k2max3, out1 / T, out3 / T, in1 / T, in3 / T, fact1 / T,
                     fact3 / T, ok1, trials, ok3, trials, tgen, time1, time3);
            work_done += (double)(n + 1) * d * d * d;
            double el = now_s() - t_start;
            cli_progress("table1: setting %zu/%zu (n = %zu, d = %zu, mt = %zu) done in %.1f s; about %.0f s left",
                         s + 1, nset, n, d, mt, now_s() - ts, el * (work_total - work_done) / work_done);
        }
        ff_proxal_trace_clear(&t1);
        ff_proxal_trace_clear(&t3);
        free(A); free(b); free(C); free(e); free(w0); free(mu0); free(rho);
        free(o1); free(o3); free(f1); free(f3); free(rd);
    }
    if (hard) return 2;
    printf("\nfedref's own columns: the true KKT residuals (Definition 1, ff_proxal_kkt's certified upper bounds)\n"
           "of each output, max over the trials; mean outer iterations, mean inner iterations per run\n"
           "(Algorithm 2's iterations; cProx-AL: Newton steps), mean Cholesky factorisations per run,\n"
           "Theorem 3.1 certified (thm31_ok: kkt1 <= eps1 and kkt2 <= eps2 after (8)), and the seconds\n"
           "(instance generation, all Algorithm 1 runs, all cProx-AL runs).\n");
    printf("%3s %4s %3s  %9s %9s %9s %9s  %6s %6s  %8s %6s  %6s %6s  %5s %5s  %6s %7s %7s\n", "n", "d", "mt",
           "kkt1 A1", "kkt2 A1", "kkt1 A3", "kkt2 A3", "out A1", "out A3", "inner A1", "in A3", "fac A1", "fac A3",
           "thm A1", "thm A3", "gen s", "A1 s", "A3 s");
    for (size_t s = 0; s < nset; s++) printf("%s\n", extra[s]);
    printf("\ntable1: %lu runs, %lu failures, %.1f s\n", runs, fails, now_s() - t_start);
    return fails ? 1 : 0;
}
