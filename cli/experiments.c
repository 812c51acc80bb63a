/* SPDX-License-Identifier: Apache-2.0 */
/* experiments.c -- `fedref experiments` (make experiments):
 * runs every experiment of cli/MODULE/exp_*.c (experiments.h) in module
 * order, or those named by --only, into OUT: a CSV per run, PNG plots
 * (gnuplot), and OUT/report.md (each result beside the paper's claim, the
 * table of verdicts at the end).  Progress on stderr, one line per run
 * with the time left. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "cli.h"
#include "experiments.h"
#include "experiment_registry.h"
#include "fedref_common.h"

typedef struct {
    const char *name;
    int (*fn)(exp_ctx *ctx);
} exp_entry;
static const exp_entry all[] = {EXPERIMENT_REGISTRY};

/* The verdicts collected for the closing table. */
typedef struct {
    char *exp, *claim, *where, *why;
    int verdict;
} verdict_t;
static verdict_t *verdicts;
static size_t nverdicts, capverdicts;
static int out_of_memory;

void cli_experiments_usage(FILE *f)
{
    fputs("usage: fedref experiments [--quick] [--data DIR] [--out DIR] [--seed N]\n"
          "                          [--only NAME]... [--dataset NAME] [--list]\n"
          "\n"
          "Each paper's headline experiment on real data (docs/EXPERIMENTS.md):\n"
          "fast runs, ref spot-checks of their first rounds, a CSV per run, PNG plots\n"
          "(gnuplot) and a Markdown report OUT/report.md that puts each result beside\n"
          "the paper's claim with a verdict: holds, does not hold, partly, untested.\n"
          "A claim that does not hold is a finding, not a failure.\n"
          "  --quick      reduced sizes (a smoke test: make check runs it)\n"
          "  --data DIR   the files of `make data` (default build/data)\n"
          "  --out DIR    where to write (default build/experiments; created)\n"
          "  --seed N     seed of every random choice (default 2026)\n"
          "  --only NAME  run this experiment only (repeatable); --list names them\n"
          "  --dataset NAME  the data set of fedepm: adult (the default: UCI Adult,\n"
          "               shipped in data/adult/, 002's own) or breast-cancer\n"
          "Progress on stderr, one line per run with the time left.  Exit 0 if every\n"
          "experiment ran, 1 if a check of fedref's own failed (e.g. ref and fast\n"
          "disagree), 2 on a usage error, missing data or a file it cannot write.\n", f);
}

double exp_now(void) { return cli_now(); }

void exp_plan(exp_ctx *ctx, unsigned long runs)
{
    ctx->planned = runs;
    ctx->done = 0;
    memset(ctx->kplanned, 0, sizeof ctx->kplanned);
    memset(ctx->kdone, 0, sizeof ctx->kdone);
    memset(ctx->ksecs, 0, sizeof ctx->ksecs);
    ctx->t0 = exp_now();
}

void exp_plan_kind(exp_ctx *ctx, int kind, unsigned long runs)
{
    if (kind <= 0 || kind >= EXP_KINDS) return;
    ctx->kplanned[kind] += runs;
    ctx->planned += runs;
}

/* The time left: the plain runs at the wall time per plain run so far (the
 * work between runs included), each kind at the mean of its own runs; the
 * runs of kinds not yet timed are counted into *untimed. */
static double time_left(const exp_ctx *ctx, unsigned long *untimed)
{
    double el = exp_now() - ctx->t0, left = 0;
    unsigned long plain = ctx->planned, plain_done = ctx->done;
    *untimed = 0;
    for (int k = 1; k < EXP_KINDS; k++) {
        unsigned long rest = ctx->kplanned[k] > ctx->kdone[k] ? ctx->kplanned[k] - ctx->kdone[k] : 0;
        plain -= ctx->kplanned[k] < plain ? ctx->kplanned[k] : plain;
        plain_done -= ctx->kdone[k] < plain_done ? ctx->kdone[k] : plain_done;
        el -= ctx->ksecs[k];
        if (ctx->kdone[k] > 0) left += ctx->ksecs[k] / (double)ctx->kdone[k] * (double)rest;
        else *untimed += rest;
    }
    if (plain_done > 0 && plain > plain_done) left += fmax(el, 0) / (double)plain_done * (double)(plain - plain_done);
    return left;
}

static void run_done(exp_ctx *ctx, int kind, double seconds, const char *what)
{
    ctx->done++;
    if (kind > 0 && kind < EXP_KINDS) {
        ctx->kdone[kind]++;
        ctx->ksecs[kind] += seconds;
    }
    unsigned long untimed;
    double left = time_left(ctx, &untimed);
    char more[96] = "";
    if (untimed > 0)
        snprintf(more, sizeof more, ", and %lu run%s of another cost not yet timed", untimed, untimed > 1 ? "s" : "");
    cli_progress("experiments: %s run %lu/%lu (%s) done in %.1f s; about %.0f s left%s", ctx->name, ctx->done,
                 ctx->planned, what, seconds, left, more);
}

void exp_run_done(exp_ctx *ctx, double seconds, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    run_done(ctx, 0, seconds, what);
}

void exp_run_done_kind(exp_ctx *ctx, int kind, double seconds, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    run_done(ctx, kind, seconds, what);
}

static char *xstrdup(const char *s)
{
    char *r = malloc(strlen(s) + 1);
    if (r) strcpy(r, s);
    else out_of_memory = 1;
    return r;
}

static int path_of(char *buf, size_t len, const char *dir, const char *file)
{
    int n = snprintf(buf, len, "%s/%s", dir, file);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

FILE *exp_csv_open(exp_ctx *ctx, const char *file, const char *header)
{
    char p[4096];
    if (path_of(p, sizeof p, ctx->out, file) != 0) { cli_error("path too long", file); return NULL; }
    FILE *f = fopen(p, "w");
    if (f == NULL) { cli_error(strerror(errno), p); return NULL; }
    fprintf(f, "%s\n", header);
    return f;
}

int exp_csv_close(exp_ctx *ctx, FILE *f, const char *file)
{
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        char p[4096];
        path_of(p, sizeof p, ctx->out, file);
        cli_error("write error", p);
        return 2;
    }
    return 0;
}

void exp_md(exp_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ctx->report, fmt, ap);
    va_end(ap);
}

/* The one style of every plot (prepended to each script): ten line types
 * of distinct colour (Tableau 10) and, past the fourth, distinct dash
 * types and point types, so that no two series of a figure look alike
 * even in grey; a light grid; keys with an opaque box so that they never
 * hide the data they sit on. */
static const char plot_style[] =
    "set linetype 1 lc rgb '#1f77b4' lw 1.6 dt 1 pt 7 ps 0.6\n"
    "set linetype 2 lc rgb '#d62728' lw 1.6 dt 1 pt 5 ps 0.6\n"
    "set linetype 3 lc rgb '#2ca02c' lw 1.6 dt 1 pt 9 ps 0.7\n"
    "set linetype 4 lc rgb '#ff7f0e' lw 1.6 dt 1 pt 13 ps 0.7\n"
    "set linetype 5 lc rgb '#9467bd' lw 1.6 dt 2 pt 11 ps 0.7\n"
    "set linetype 6 lc rgb '#8c564b' lw 1.6 dt 2 pt 4 ps 0.6\n"
    "set linetype 7 lc rgb '#e377c2' lw 1.6 dt 4 pt 6 ps 0.6\n"
    "set linetype 8 lc rgb '#7f7f7f' lw 1.6 dt 4 pt 8 ps 0.6\n"
    "set linetype 9 lc rgb '#bcbd22' lw 1.6 dt 5 pt 10 ps 0.6\n"
    "set linetype 10 lc rgb '#17becf' lw 1.6 dt 5 pt 12 ps 0.6\n"
    "set linetype cycle 10\n"
    "set grid lc rgb '#dddddd' lw 0.5\n"
    "set key opaque box lc rgb '#bbbbbb' samplen 2.5 spacing 1.1\n";

int exp_plot(exp_ctx *ctx, const char *png, const char *caption, const char *script)
{
    if (!ctx->have_gnuplot) {
        exp_md(ctx, "\n(plot `%s` not drawn: gnuplot was not found; its data are in the CSV files)\n\n", png);
        return 0;
    }
    char gp[4096], cmd[8192];
    if (path_of(gp, sizeof gp, ctx->out, png) != 0 || strlen(gp) + 3 >= sizeof gp) {
        cli_error("path too long", png);
        return 2;
    }
    strcat(gp, ".gp");
    FILE *f = fopen(gp, "w");
    if (f == NULL) { cli_error(strerror(errno), gp); return 2; }
    fprintf(f, "set terminal pngcairo size 640,400 font 'sans,9'\nset output '%s'\n%s", png, plot_style);
    if (ctx->quick)   /* reduced sizes: say so on the figure itself, below the x label */
        fprintf(f, "set bmargin 4.2\nset label 99 'quick run (fedref experiments --quick): reduced sizes and rounds' "
                   "at screen 0.995,0.012 right font 'monospace,7' textcolor rgb '#b00000' front noenhanced\n");
    fprintf(f, "%s\n", script);
    if (ferror(f) | fclose(f)) { cli_error("write error", gp); return 2; }
    /* run in OUT so that the script's file names are relative to it */
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp' 2>&1", ctx->out, png);
    FILE *pp = popen(cmd, "r");
    if (pp == NULL) { cli_error("cannot run gnuplot", png); return 2; }
    char line[512], msg[1024] = "";
    while (fgets(line, sizeof line, pp))
        if (strlen(msg) + strlen(line) < sizeof msg) strcat(msg, line);
    int rc = pclose(pp);
    if (rc != 0) {
        cli_error(msg[0] ? msg : "gnuplot failed", gp);
        return 2;
    }
    exp_md(ctx, "\n![%s](%s)\n\n", caption, png);
    return 0;
}

void exp_verdict(exp_ctx *ctx, const char *claim, const char *where, int verdict, const char *fmt, ...)
{
    char why[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    static const char *const word[] = {"holds", "does not hold", "holds in part", "not tested"};
    if (ctx->quick)        /* reduced sizes: a smoke test, never the final word */
        exp_md(ctx, "\n*Verdict at reduced sizes (quick run, not final): %s.* %s (%s): %s\n\n", word[verdict],
               claim, where, why);
    else
        exp_md(ctx, "\n**Verdict: %s.** %s (%s): %s\n\n", word[verdict], claim, where, why);
    if (nverdicts == capverdicts) {
        size_t c = capverdicts ? 2 * capverdicts : 16;
        verdict_t *v = realloc(verdicts, c * sizeof *v);
        if (v == NULL) { out_of_memory = 1; return; }
        verdicts = v;
        capverdicts = c;
    }
    verdicts[nverdicts++] = (verdict_t){xstrdup(ctx->name), xstrdup(claim), xstrdup(where), xstrdup(why), verdict};
}

int exp_fail(exp_ctx *ctx, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "fedref: experiments: %s: CHECK FAILED: %s\n", ctx->name, what);
    exp_md(ctx, "\n**CHECK FAILED** (fedref's own): %s\n\n", what);
    ctx->failures++;
    return 1;
}

static int load_hint(exp_ctx *ctx, int st, const char *err)
{
    (void)ctx;
    cli_error(err, st == FR_EDOM && strstr(err, "open") ? "run `make data` first" : "make data");
    return 2;
}

int exp_load_fashion(exp_ctx *ctx, int test, fdata_idx *images, fdata_idx *labels)
{
    char p[4096], err[4096 + 256];
    const char *set = test ? "test" : "train";
    snprintf(p, sizeof p, "%s/fashion-%s-images.idx.gz", ctx->data, set);
    int st = fdata_idx_load(images, p, 10, err, sizeof err);
    if (st != FR_OK) return load_hint(ctx, st, err);
    snprintf(p, sizeof p, "%s/fashion-%s-labels.idx.gz", ctx->data, set);
    st = fdata_idx_load(labels, p, 10, err, sizeof err);
    if (st == FR_OK && (images->ndims != 3 || labels->ndims != 1 || labels->n != images->n)) {
        snprintf(err, sizeof err, "%s: %zu labels for %zu images", p, labels->n, images->n);
        st = FR_ESIZE;
    }
    if (st != FR_OK) {
        fdata_idx_free(images);
        fdata_idx_free(labels);
        return load_hint(ctx, st, err);
    }
    return 0;
}

int exp_load_csv(exp_ctx *ctx, const char *file, fdata_table *t)
{
    char p[4096], err[4096 + 256];
    snprintf(p, sizeof p, "%s/%s", ctx->data, file);
    int st = fdata_csv_load(t, p, err, sizeof err);
    return st == FR_OK ? 0 : load_hint(ctx, st, err);
}

static int mkdir_p(const char *dir)
{
    char p[4096];
    if (strlen(dir) >= sizeof p) return -1;
    strcpy(p, dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
            *s = '/';
        }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static const char *const verdict_word[] = {"holds", "**does not hold**", "holds in part", "not tested"};
static const char *const verdict_word_quick[] = {"holds (quick run)", "does not hold (quick run)",
                                                 "holds in part (quick run)", "not tested"};

int cmd_experiments(int argc, char **argv)
{
    exp_ctx ctx = {.seed = 2026, .data = "build/data", .out = "build/experiments"};
    size_t nexp = 0;
    while (all[nexp].name) nexp++;
    const char *only[sizeof all / sizeof all[0]];
    size_t nonly = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) { cli_experiments_usage(stdout); return 0; }
        if (strcmp(a, "--quick") == 0) { ctx.quick = 1; continue; }
        if (strcmp(a, "--list") == 0) {
            for (size_t k = 0; all[k].name; k++) printf("%s\n", all[k].name);
            return 0;
        }
        if (strcmp(a, "--dataset") == 0) {
            if (i + 1 >= argc) { cli_error("option needs a value", a); return 2; }
            ctx.dataset = argv[++i];
            if (strcmp(ctx.dataset, "adult") != 0 && strcmp(ctx.dataset, "breast-cancer") != 0) {
                cli_error("--dataset must be adult or breast-cancer", ctx.dataset);
                return 2;
            }
            continue;
        }
        if (strcmp(a, "--data") == 0 || strcmp(a, "--out") == 0 || strcmp(a, "--seed") == 0
            || strcmp(a, "--only") == 0) {
            if (i + 1 >= argc) { cli_error("option needs a value", a); return 2; }
            const char *v = argv[++i];
            if (a[2] == 'd') ctx.data = v;
            else if (a[2] == 'o' && a[3] == 'u') ctx.out = v;
            else if (a[2] == 's') {
                unsigned long sd;
                if (cli_parse_ul(v, &sd) != 0) { cli_bad_ul(v); return 2; }
                ctx.seed = sd;
            } else {
                size_t k = 0;
                while (all[k].name && strcmp(all[k].name, v) != 0) k++;
                if (all[k].name == NULL) { cli_error("no such experiment (--list names them)", v); return 2; }
                if (nonly < nexp) only[nonly++] = v;
            }
            continue;
        }
        cli_error("unknown argument of experiments", a);
        return 2;
    }
    if (mkdir_p(ctx.out) != 0) { cli_error(strerror(errno), ctx.out); return 2; }
    char rp[4096];
    if (path_of(rp, sizeof rp, ctx.out, "report.md") != 0) { cli_error("path too long", ctx.out); return 2; }
    ctx.report = fopen(rp, "w");
    if (ctx.report == NULL) { cli_error(strerror(errno), rp); return 2; }
    ctx.have_gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    const char *thr = getenv("OPENBLAS_NUM_THREADS");
    exp_md(&ctx, "# fedref experiments: the papers' headline results on real data\n\n"
                 "fedref %s, %s, %s run (`fedref experiments%s --seed %llu`), OpenBLAS threads: %s.\n"
                 "Every number below is computed by this run; the papers' figures are quoted\n"
                 "from the papers. docs/EXPERIMENTS.md explains each experiment.\n\n",
           FEDREF_VERSION, date, ctx.quick ? "quick (reduced sizes: a smoke test, not a reproduction)" : "full",
           ctx.quick ? " --quick" : "", (unsigned long long)ctx.seed, thr ? thr : "default");
    int rc = 0;
    double t00 = exp_now();
    const char *failed_exp[sizeof all / sizeof all[0]];
    char *failed_why[sizeof all / sizeof all[0]];
    size_t nfailed_exp = 0;
    for (size_t k = 0; all[k].name; k++) {
        int sel = nonly == 0;
        for (size_t j = 0; j < nonly; j++) sel |= strcmp(only[j], all[k].name) == 0;
        if (!sel) continue;
        ctx.name = all[k].name;
        ctx.planned = ctx.done = 0;
        memset(ctx.kplanned, 0, sizeof ctx.kplanned);
        memset(ctx.kdone, 0, sizeof ctx.kdone);
        memset(ctx.ksecs, 0, sizeof ctx.ksecs);
        ctx.t0 = exp_now();
        cli_progress("experiments: %s (%zu of %zu)", ctx.name, k + 1, nexp);
        size_t v0 = nverdicts;
        cli_error_clear();
        int r = all[k].fn(&ctx);
        double el = exp_now() - ctx.t0;
        exp_md(&ctx, "\n*(%s: %.1f s)*\n\n", ctx.name, el);
        if (r == 2) {      /* recorded; the other experiments still run; exit 2 at the end */
            const char *why = cli_last_error()[0] ? cli_last_error() : "see the messages on stderr";
            exp_md(&ctx, "\n**EXPERIMENT FAILED: %s did not run to the end** (%zu of its verdicts reached): %s\n\n",
                   ctx.name, nverdicts - v0, why);
            failed_exp[nfailed_exp] = all[k].name;
            failed_why[nfailed_exp++] = xstrdup(why);
            rc = 2;
            continue;
        }
        if (r != 0 && rc != 2) rc = 1;
    }
    if (ctx.failures && rc == 0) rc = 1;
    exp_md(&ctx, "\n## Verdicts\n\n| experiment | claim | where | verdict | why |\n|---|---|---|---|---|\n");
    for (size_t v = 0; v < nverdicts; v++) {
        const verdict_t *x = &verdicts[v];
        exp_md(&ctx, "| %s | %s | %s | %s | %s |\n", x->exp ? x->exp : "", x->claim ? x->claim : "",
               x->where ? x->where : "", (ctx.quick ? verdict_word_quick : verdict_word)[x->verdict],
               x->why ? x->why : "");
        free(x->exp); free(x->claim); free(x->where); free(x->why);
    }
    for (size_t f = 0; f < nfailed_exp; f++) {
        exp_md(&ctx, "| %s | (the experiment did not run to the end) | | **FAILED** | %s |\n", failed_exp[f],
               failed_why[f] ? failed_why[f] : "");
        free(failed_why[f]);
    }
    if (ctx.quick)
        exp_md(&ctx, "\nA quick run's verdicts are at reduced sizes: a smoke test of the code, not the "
                     "papers' claims judged (run `make experiments` for those).\n");
    size_t nv = nverdicts;
    free(verdicts);
    verdicts = NULL;
    nverdicts = capverdicts = 0;
    exp_md(&ctx, "\nTotal time %.1f s.%s%s\n", exp_now() - t00,
           ctx.failures ? " Some of fedref's own checks FAILED (see above)." : "",
           nfailed_exp ? " Some experiments FAILED to run (see the table)." : "");
    if (ferror(ctx.report) | fclose(ctx.report)) { cli_error("write error", rp); return 2; }
    if (out_of_memory) { cli_error("out of memory", "experiments"); return 2; }
    printf("experiments: report in %s (%zu verdicts, %d failed checks, %zu experiments failed to run)\n", rp, nv,
           ctx.failures, nfailed_exp);
    return rc;
}
