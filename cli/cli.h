/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h -- the fedref command: subcommands (main.c dispatches). */
#ifndef FEDREF_CLI_H
#define FEDREF_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <mpfr.h>                 /* after stdio.h: the bench helpers take mpfr_t */

/* Print "fedref: error: <what> (<where>)" to stderr. */
void cli_error(const char *what, const char *where);
/* The "<what> (<where>)" of the last cli_error ("" if none since
 * cli_error_clear). */
const char *cli_last_error(void);
void cli_error_clear(void);
/* 1 for -h and --help. */
int cli_is_help(const char *arg);
/* Progress of a long command: "fedref: <what>" on stderr (not stdout,
 * which carries the results). */
void cli_progress(const char *fmt, ...);
/* The steps of a long command on stderr (progress.c): cli_steps_begin
 * once; cli_step for step i (1-based) of the n of a phase ("fedref: CMD:
 * PHASE i/n WHAT (T s elapsed; PHASE about L s left)", L at the mean rate
 * of the phase's steps so far); while a step runs, a "still at" line every
 * 30 s.  cli_steps_end returns the seconds since cli_steps_begin. */
void cli_steps_begin(const char *command);
void cli_step(const char *phase, size_t i, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
double cli_steps_end(void);
/* What the heartbeat names as running from now on (printed by the
 * caller its own way; nothing printed here). */
void cli_step_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A decimal unsigned integer, all of the string (no sign): 0, -1 if it is
 * not one, -2 if it is above ULONG_MAX (the caller reports it with
 * cli_bad_ul).  util.c */
int cli_parse_ul(const char *s, unsigned long *out);
/* The error message for an s that cli_parse_ul rejected: not a number, or
 * out of range.  util.c */
void cli_bad_ul(const char *s);
/* Monotonic seconds.  util.c */
double cli_now(void);
/* x with dig significant digits, rounded up in decimal: a sigma or an
 * eps as printed is never below its value.  Returns buf.  util.c */
const char *cli_fmt_up(char *buf, size_t n, double x, int dig);

/* The directory of the golden vectors: `explicit` if given, else
 * $FEDREF_VECTORS_DIR, else ../share/fedref/vectors beside the running
 * executable (an install at any PREFIX and DESTDIR), else the checkout's
 * vectors/ when the command runs from its build tree
 * (build/<...>/bin/fedref), else FEDREF_DATADIR/vectors (the PREFIX of the
 * build).  Writes it to out; 0, or -1 if none exists. */
int cli_vectors_dir(const char *explicit_dir, char *out, size_t outlen);

/* The relative drift of a fast trajectory row from ref's: max_j |a_j -
 * r_j| / max_j |r_j| over j < n (the plain max |a_j - r_j| when r is 0),
 * the difference formed at 256 bits and rounded up.  (The audit's run
 * sections, cli/<module>/audit_runs.c.) */
double cli_drift(const double *a, mpfr_t *const r, size_t n);

void cli_vectors_usage(FILE *f);
void cli_audit_usage(FILE *f);
int cmd_vectors_gen(int argc, char **argv);
int cmd_vectors_check(int argc, char **argv);
int cmd_vectors_schema(int argc, char **argv);
int cmd_vectors_list(int argc, char **argv);
int cmd_audit(int argc, char **argv);

void cli_bench_usage(FILE *f);
int cmd_bench(int argc, char **argv);

/* `fedref conform` (conform.c, conform.h; docs/CONFORM.md): an external
 * implementation against the golden vectors. */
void cli_conform_usage(FILE *f);
int cmd_conform(int argc, char **argv);
/* `fedref certify` (certify.c): golden vectors for the user's own case. */
void cli_certify_usage(FILE *f);
int cmd_certify(int argc, char **argv);

/* `fedref data info FILE...` (cli/cmd_data.c): the strict loaders of data/. */
void cli_data_usage(FILE *f);
int cmd_data(int argc, char **argv);

/* `fedref dp eps|sigma|laplace` (cmd_dp.c, dp_acct.c, dp.h): the
 * certified privacy accountants from the command line. */
void cli_dp_usage(FILE *f);
int cmd_dp(int argc, char **argv);

/* `fedref experiments` (experiments.c, experiments.h): the papers'
 * headline experiments on real data. */
void cli_experiments_usage(FILE *f);
int cmd_experiments(int argc, char **argv);

/* `fedref table1` (cli/proxal/table1.c): 004's Table 1 reproduced in fast. */
void cli_table1_usage(FILE *f);
int cmd_table1(int argc, char **argv);

/* ---- fedref bench (bench.c) ------------------------------------------------
 * Each module may add a section to `fedref bench`: a function
 * `int bench_MODULE(bench_ctx *ctx)` in cli/MODULE/ (found by the build,
 * ci/gen-registry.sh) that times its rows with the helpers below, checks
 * that what it timed agrees (bench_agree), and returns 0, or 2 after
 * cli_error (no memory, a file it could not write). */
typedef struct {
    int quick;                 /* --quick: small sizes, for correctness only */
    unsigned long reps;        /* timed repetitions (medians) */
    uint64_t seed;             /* of every input */
    const char *inputs;        /* --write-inputs DIR (for bench/fedepm_numpy.py) or NULL */
    FILE *manifest;            /* DIR/manifest.txt while writing inputs */
    int disagree;              /* agreement failures so far */
} bench_ctx;

/* Monotonic seconds. */
double bench_now(void);
/* The median of t[0..k-1] (sorts t; k >= 1). */
double bench_median(double *t, size_t k);
/* An inner repetition count that makes fn(arg) take about 2 ms (at least 1). */
unsigned long bench_inner(void (*fn)(void *), void *arg);
/* One row of a section's table: "  %-22s %-22s" then the given text. */
/* ctx->reps interleaved repetitions of one ref call and `inner` fast calls
 * on arg: seconds per call into tr[r], tf[r], and ref/fast into ratio[r]. */
void bench_ref_fast(const bench_ctx *ctx, void (*ref)(void *), void (*fast)(void *), void *arg,
                    unsigned long inner, double *tr, double *tf, double *ratio);
void bench_row(const char *what, const char *size, const char *fmt, ...);
/* printf(fmt, v) for a measured v >= 0, else "-" right-aligned in 10 columns. */
void bench_cell(double v, const char *fmt);
/* Records an agreement check: err <= tol passes (tol > 0); a failure is
 * printed and counted.  Returns err / tol. */
double bench_agree(bench_ctx *ctx, const char *what, double err, double tol);
/* Inputs for the numpy script (no-ops without --write-inputs):
 * bench_input writes len doubles to DIR/NAME.f64 (native binary64) and
 * returns 0, or 2 after cli_error; bench_manifest appends a line to
 * DIR/manifest.txt (bench/fedepm_numpy.py reads it). */
/* len mpfr_t at 53 bits holding x[0..len-1] exactly (zeros if x is NULL);
 * NULL if out of memory.  Free with bench_mp_free. */
mpfr_t *bench_mp_array(const double *x, size_t len);
void bench_mp_free(mpfr_t *a, size_t len);
int bench_input(bench_ctx *ctx, const char *name, const double *x, size_t len);
/* A numpy comparison script run as `PY SCRIPT --reps REPS DIR` (PY from
 * $FEDREF_PYTHON3, default /usr/bin/python3; SCRIPT from $envvar, default
 * dflt), then its result file DIR/numpy.txt opened for reading in *res.
 * *res stays NULL when the script, python or numpy is missing (exit 3;
 * said on stdout) or the script failed (printed as a DISAGREE and
 * counted).  0, or 2 after cli_error. */
int bench_numpy_script(bench_ctx *ctx, const char *section, const char *envvar, const char *dflt,
                       unsigned long reps, const char *dir, FILE **res);
void bench_manifest(bench_ctx *ctx, const char *fmt, ...);

/* Each module may add a section to `fedref audit` after the table: a
 * function `int audit_MODULE(uint64_t seed)` in cli/MODULE/ (found by the
 * build, ci/gen-registry.sh) that prints it and returns the number of its
 * failures. */

#endif
