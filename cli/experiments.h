/* SPDX-License-Identifier: Apache-2.0 */
/* experiments.h -- `fedref experiments` (make experiments): each
 * paper's headline experiment on real data (make data), as CSV files, PNG
 * plots (gnuplot) and a Markdown report that puts every result beside the
 * paper's claim with a verdict.
 *
 * A module adds an experiment with one function in cli/MODULE/exp_*.c,
 *     int experiment_NAME(exp_ctx *ctx)
 * at the start of a line (found by the build: ci/gen-registry.sh).  It
 * calls exp_plan once with the number of runs it will make, exp_run_done
 * after each (the progress line with the time left), writes its CSVs with
 * exp_csv_open/exp_csv_close, its plots with exp_plot, its section of the
 * report with exp_md and one exp_verdict per claim of the paper it tests.
 * It returns 0 (ran: a claim that does not hold is a finding, reported by
 * its verdict, not a failure), 1 (a check of fedref's own failed, e.g. ref
 * and fast disagree on a spot-checked round: exp_fail says what), or 2
 * after cli_error (data missing or rejected, a file it could not write, no
 * memory).  With ctx->quick it must finish in well under a minute (make
 * check runs every experiment that way). */
#ifndef FEDREF_CLI_EXPERIMENTS_H
#define FEDREF_CLI_EXPERIMENTS_H

#include <stdint.h>
#include <stdio.h>
#include "../data/data.h"

#define EXP_KINDS 4

typedef struct {
    int quick;                 /* --quick: reduced sizes, a smoke test */
    uint64_t seed;             /* --seed: every random choice of every run */
    const char *data;          /* directory of make data's files */
    const char *dataset;       /* --dataset (fedepm: "adult", "breast-cancer"); NULL: the default */
    const char *out;           /* output directory (CSV, PNG, report.md) */
    const char *name;          /* the running experiment */
    FILE *report;              /* OUT/report.md */
    int have_gnuplot;          /* 0: plots skipped (said in the report) */
    double t0;                 /* monotonic start of the running experiment */
    unsigned long planned, done;
    /* runs of a cost of their own (exp_plan_kind), kind 1..EXP_KINDS-1 */
    unsigned long kplanned[EXP_KINDS], kdone[EXP_KINDS];
    double ksecs[EXP_KINDS];
    int failures;              /* exp_fail calls so far */
} exp_ctx;

/* Monotonic seconds. */
double exp_now(void);
/* The running experiment will make `runs` runs (for the time left). */
void exp_plan(exp_ctx *ctx, unsigned long runs);
/* ... and `runs` more of kind 1..EXP_KINDS-1, whose cost differs from the
 * others' (e.g. a run of another algorithm 100 times slower): the time left
 * counts each kind at the mean of its own runs so far, and says how many
 * runs of a kind not yet timed remain.  Report them with exp_run_done_kind. */
void exp_plan_kind(exp_ctx *ctx, int kind, unsigned long runs);
/* UCI Adult's two files (adult.data.gz, adult.test.gz) read strictly into
 * u[0], u[1], from the first directory that has them: the data directory
 * (--data), the repository's data/adult beside the executable
 * (build/bin/../../data/adult), or data/adult.  0, or 2 after cli_error. */
int exp_adult_load(const exp_ctx *ctx, fdata_uci u[2]);
/* One run is done: "fedref: experiments: NAME run i/N (WHAT) done in S s;
 * about L s left" on stderr. */
void exp_run_done(exp_ctx *ctx, double seconds, const char *fmt, ...);
void exp_run_done_kind(exp_ctx *ctx, int kind, double seconds, const char *fmt, ...);
/* OUT/file opened for writing with `header` as its first line; NULL after
 * cli_error.  exp_csv_close returns 0, or 2 after cli_error (a write error). */
FILE *exp_csv_open(exp_ctx *ctx, const char *file, const char *header);
int exp_csv_close(exp_ctx *ctx, FILE *f, const char *file);
/* OUT/png from a gnuplot script (its terminal and output are set here:
 * pngcairo 640x400, the shared line types and key style, and with
 * ctx->quick a red "quick run" note in the corner); the script is kept as
 * OUT/png.gp.  Without gnuplot
 * the report says so and 0 is returned; 2 after cli_error if gnuplot fails
 * or a file cannot be written.  The report links the PNG under `caption`. */
int exp_plot(exp_ctx *ctx, const char *png, const char *caption, const char *script);
/* Append to the report (Markdown). */
void exp_md(exp_ctx *ctx, const char *fmt, ...);
/* One claim of the paper: `claim` (what the paper says), `where` (its
 * figure, table or equation), verdict EXP_HOLDS / EXP_FAILS / EXP_PARTLY /
 * EXP_UNTESTED, and why (the numbers).  Collected into the report's table
 * of verdicts. */
enum { EXP_HOLDS, EXP_FAILS, EXP_PARTLY, EXP_UNTESTED };
void exp_verdict(exp_ctx *ctx, const char *claim, const char *where, int verdict, const char *fmt, ...);
/* A failed check of fedref's own (printed, counted, returns 1). */
int exp_fail(exp_ctx *ctx, const char *fmt, ...);

/* The data sets of make data, loaded strictly (data/data.h) from
 * ctx->data; 2 after cli_error (naming the file and `make data`). */
int exp_load_fashion(exp_ctx *ctx, int test, fdata_idx *images, fdata_idx *labels);
int exp_load_csv(exp_ctx *ctx, const char *file, fdata_table *t);

#endif
