/* SPDX-License-Identifier: Apache-2.0 */
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
 * certificates, time.  The per-setting runner is table1_run.c (shared with
 * the experiment proxal, exp_proxal_qp.c).  A run that fails (a status, (8) not reached within
 * kmax, thm31_ok = 0 after (8), or an inner call whose (7) is not
 * certified) is reported with its numbers and makes the exit status 1. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../cli.h"
#include "table1.h"

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

static void report_failure(const char *alg, const cli_t1_paper *s, unsigned long trial, const cli_t1_run *r,
                           const fr_proxal_alg_params *prm)
{
    printf("FAIL: %s, n = %u, d = %u, mt = %u, trial %lu: status %d (%s), terminated %d, thm31_ok %d, "
           "kkt1 = %.3e (eps1 %.0e), kkt2 = %.3e (eps2 %.0e), outer %lu, inner (7) not certified %d\n",
           alg, s->n, s->d, s->mt, trial, r->st, fr_strerror(r->st), r->terminated, r->thm31, r->kkt1,
           prm->eps1, r->kkt2, prm->eps2, r->outer, r->inner_bad);
}

/* on_trial: the failures, as they happen */
static void on_trial(void *arg, const cli_t1_paper *S, unsigned long tr, const cli_t1_run *r1,
                     const ff_proxal_trace *t1, const cli_t1_run *r3, const ff_proxal_trace *t3,
                     const fr_proxal_alg_params *prm)
{
    (void)arg;
    (void)t1;
    (void)t3;
    if (cli_t1_run_failed(r1)) report_failure("Algorithm 1", S, tr, r1, prm);
    if (cli_t1_run_failed(r3)) report_failure("cProx-AL", S, tr, r3, prm);
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
            if (cli_parse_ul(v, &trials)) { cli_bad_ul(v); return 2; }
            if (trials == 0 || trials > 1000) { cli_error("trials must be 1..1000", v); return 2; }
        } else if (is_seed) {
            if (cli_parse_ul(v, &seed)) { cli_bad_ul(v); return 2; }
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
    double work_total = 0, work_done = 0, t_start = cli_now();
    for (size_t s = 0; s < nset; s++)
        work_total += (double)(cli_t1_rows[sel[s]].n + 1) * cli_t1_rows[sel[s]].d * cli_t1_rows[sel[s]].d * cli_t1_rows[sel[s]].d;

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
    cli_t1_opts opt = {.trials = trials, .seed = seed, .q = q, .on_trial = on_trial, .arg = NULL};
    for (size_t s = 0; s < nset && !hard; s++) {
        const cli_t1_paper *S = &cli_t1_rows[sel[s]];
        size_t n = S->n, d = S->d, mt = S->mt;
        cli_t1_setting R;
        if (cli_t1_setting_run(sel[s], &opt, &R) != 0) { hard = 1; break; }
        runs += R.runs;
        fails += R.fails;
        char c[5][40];
        for (int k = 0; k < 5; k++)
            snprintf(c[k], sizeof c[k], k < 2 ? "%.4f (%.2e)" : "%.2e (%.2e)", R.m[k], R.sd[k]);
        printf("%-6s %3zu %4zu %3zu  %-22s %-22s %-20s %-20s %-20s\n", "fedref", n, d, mt, c[0], c[1], c[2],
               c[3], c[4]);
        snprintf(c[0], sizeof c[0], "%.2f (%.2e)", S->o1, S->o1s);
        snprintf(c[1], sizeof c[1], "%.2f (%.2e)", S->o3, S->o3s);
        snprintf(c[2], sizeof c[2], "%.2e (%.2e)", S->rd, S->rds);
        snprintf(c[3], sizeof c[3], "%.2e (%.2e)", S->f1, S->f1s);
        snprintf(c[4], sizeof c[4], "%.2e (%.2e)", S->f3, S->f3s);
        printf("%-6s %3s %4s %3s  %-22s %-22s %-20s %-20s %-20s\n", "paper", "", "", "", c[0], c[1], c[2], c[3],
               c[4]);
        snprintf(extra[s], sizeof extra[s],
                 "%3zu %4zu %3zu  %9.2e %9.2e %9.2e %9.2e  %6.1f %6.1f  %8.1f %6.1f  %6.1f %6.1f  %2lu/%-2lu %2lu/%-2lu"
                 "  %6.2f %7.2f %7.2f",
                 n, d, mt, R.k1max, R.k2max, R.k1max3, R.k2max3, R.out1, R.out3, R.in1, R.in3, R.fact1, R.fact3,
                 R.ok1, trials, R.ok3, trials, R.tgen, R.time1, R.time3);
        work_done += (double)(n + 1) * d * d * d;
        double el = cli_now() - t_start;
        cli_progress("table1: setting %zu/%zu (n = %zu, d = %zu, mt = %zu) done in %.1f s; about %.0f s left",
                     s + 1, nset, n, d, mt, R.total, el * (work_total - work_done) / work_done);
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
    printf("\ntable1: %lu runs, %lu failures, %.1f s\n", runs, fails, cli_now() - t_start);
    return fails ? 1 : 0;
}
