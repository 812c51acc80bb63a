/* SPDX-License-Identifier: Apache-2.0 */
/* bench.c -- `fedref bench` (make bench): each module's timing section
 * (cli/<module>/, int bench_MODULE(bench_ctx *)), in module order: fast
 * against ref on the closed forms, a FedEPM round against its BLAS floor;
 * and, with --write-inputs DIR, the inputs that bench/fedepm_numpy.py times
 * fast against numpy on, in one process.  Every timing is a median of
 * --reps interleaved repetitions; every timed result is first checked
 * (agreement), and only the agreement decides the exit status: timings
 * are printed, never judged, so that `make check` can run --quick. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "fedref_common.h"
#include "bench_registry.h"

typedef struct { const char *name; int (*fn)(bench_ctx *); } bench_entry;
static const bench_entry sections[] = {BENCH_REGISTRY};

void cli_bench_usage(FILE *f)
{
    fputs("usage: fedref bench [--quick] [--reps N] [--seed N] [--section NAME]\n"
          "                    [--write-inputs DIR]\n"
          "\n"
          "Timings, as medians of N interleaved repetitions (each section says what\n"
          "it times), after checking that the timed results agree:\n"
          "  ref/fast on the closed forms of each module (ref at 53 bits; the\n"
          "  agreement is fast within its ff_*_bound of ref);\n"
          "  a FedEPM round at m = 100, n = 784, d_i in [550, 650] (X = 379 MB)\n"
          "  against its BLAS floor, the client-blocked dgemv pairs of the same round;\n"
          "  003's loss (25) and a round of its Algorithm 1 against their dgemm floor,\n"
          "  numpy (bench/fedpdm_numpy.py, with --write-inputs) and ref (the loss);\n"
          "  004's QP (25) at Table 1's shapes: client evaluation, l_k, P_{i,k}, one\n"
          "  Algorithm 2 solve, whole Algorithm 1 and 3 runs, against their BLAS/LAPACK\n"
          "  floor, numpy (bench/proxal_numpy.py, always run) and ref (CPU time);\n"
          "  003's PLD accountant at T = 300, fast and ref (section pld).\n"
          "  --quick            small sizes (seconds): for correctness, not timing\n"
          "  --reps N           repetitions per timing (default 7; --quick 3)\n"
          "  --seed N           seed of the inputs (default 2026)\n"
          "  --section NAME     only that section (below)\n"
          "  --write-inputs DIR also write the inputs of ff_ens and ff_logreg_fi that\n"
          "                     bench/fedepm_numpy.py times against numpy (DIR must exist)\n"
          "`make bench` runs this with --write-inputs, then bench/fedepm_numpy.py.  Set\n"
          "OPENBLAS_NUM_THREADS=1 for one thread.  Exit 0 if every result agreed,\n"
          "1 otherwise, 2 on a usage or input error.\n", f);
    fputs("sections:", f);
    for (const bench_entry *e = sections; e->name; e++)
        fprintf(f, " %s", e->name);
    fputs("\n", f);
}

double bench_now(void) { return cli_now(); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *t, size_t k)
{
    qsort(t, k, sizeof *t, cmp_double);
    return k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
}

unsigned long bench_inner(void (*fn)(void *), void *arg)
{
    unsigned long k = 1;
    for (;;) {
        double t = bench_now();
        for (unsigned long i = 0; i < k; i++)
            fn(arg);
        t = bench_now() - t;
        if (t >= 2e-3 || k >= (1ul << 20))
            return k;
        k = t > 0 ? (unsigned long)((double)k * 2.5e-3 / t) + 1 : 2 * k;
    }
}

void bench_ref_fast(const bench_ctx *ctx, void (*ref)(void *), void (*fast)(void *), void *arg,
                    unsigned long inner, double *tr, double *tf, double *ratio)
{
    for (unsigned long r = 0; r < ctx->reps; r++) {    /* interleaved: ref, then fast */
        double t0 = bench_now();
        ref(arg);
        double t1 = bench_now();
        for (unsigned long k = 0; k < inner; k++)
            fast(arg);
        double t2 = bench_now();
        tr[r] = t1 - t0;
        tf[r] = (t2 - t1) / (double)inner;
        ratio[r] = tr[r] / tf[r];
    }
}

void bench_row(const char *what, const char *size, const char *fmt, ...)
{
    va_list ap;
    printf("  %-22s %-26s", what, size);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

double bench_agree(bench_ctx *ctx, const char *what, double err, double tol)
{
    double r = tol > 0 ? err / tol : (err == 0 ? 0 : INFINITY);
    if (!(r <= 1)) {
        printf("  DISAGREE: %s: error %.3g > tolerance %.3g\n", what, err, tol);
        ctx->disagree++;
    }
    return r;
}

mpfr_t *bench_mp_array(const double *x, size_t len)
{
    mpfr_t *a = malloc((len ? len : 1) * sizeof *a);
    if (a)
        for (size_t i = 0; i < len; i++) {
            mpfr_init2(a[i], 53);
            mpfr_set_d(a[i], x ? x[i] : 0.0, MPFR_RNDN);
        }
    return a;
}

void bench_mp_free(mpfr_t *a, size_t len)
{
    if (a)
        for (size_t i = 0; i < len; i++)
            mpfr_clear(a[i]);
    free(a);
}

int bench_input(bench_ctx *ctx, const char *name, const double *x, size_t len)
{
    if (ctx->inputs == NULL)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.f64", ctx->inputs, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(x, sizeof *x, len, f) != len || fclose(f) != 0) {
        cli_error(strerror(errno), path);
        return 2;
    }
    return 0;
}

void bench_manifest(bench_ctx *ctx, const char *fmt, ...)
{
    if (ctx->manifest == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ctx->manifest, fmt, ap);
    va_end(ap);
}


int cmd_bench(int argc, char **argv)
{
    bench_ctx ctx = {.seed = 2026};
    unsigned long reps = 0, seed = 2026;
    const char *only = NULL;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) { cli_bench_usage(stdout); return 0; }
        if (strcmp(argv[i], "--quick") == 0) { ctx.quick = 1; continue; }
        int is_reps = strcmp(argv[i], "--reps") == 0, is_seed = strcmp(argv[i], "--seed") == 0;
        int is_sec = strcmp(argv[i], "--section") == 0;
        if (!is_reps && !is_seed && !is_sec && strcmp(argv[i], "--write-inputs") != 0) {
            cli_error("unknown argument of bench (see fedref bench --help)", argv[i]);
            return 2;
        }
        if (i + 1 >= argc) { cli_error("option needs a value", argv[i]); return 2; }
        const char *v = argv[++i];
        if (is_reps) {
            if (cli_parse_ul(v, &reps)) { cli_bad_ul(v); return 2; }
            if (reps == 0) { cli_error("needs at least one repetition", "--reps"); return 2; }
        } else if (is_seed) {
            if (cli_parse_ul(v, &seed)) { cli_bad_ul(v); return 2; }
        } else if (is_sec) {
            only = v;
        } else {
            ctx.inputs = v;
        }
    }
    if (only) {
        size_t s = 0;
        while (sections[s].name && strcmp(sections[s].name, only) != 0)
            s++;
        if (!sections[s].name) { cli_error("no such bench section", only); return 2; }
    }
    ctx.reps = reps ? reps : ctx.quick ? 3 : 7;
    ctx.seed = seed;
    if (ctx.inputs) {
        struct stat sb;
        if (stat(ctx.inputs, &sb) != 0) { cli_error(strerror(errno), ctx.inputs); return 2; }
        if (!S_ISDIR(sb.st_mode)) { cli_error("not a directory", ctx.inputs); return 2; }
        char path[4096];
        snprintf(path, sizeof path, "%s/manifest.txt", ctx.inputs);
        if ((ctx.manifest = fopen(path, "w")) == NULL) { cli_error(strerror(errno), path); return 2; }
        fprintf(ctx.manifest, "# fedref bench inputs, seed %llu%s\nreps %lu\n",
                (unsigned long long)ctx.seed, ctx.quick ? ", quick sizes" : "", ctx.reps);
    }
    printf("fedref %s bench%s: medians of %lu repetitions; OPENBLAS_NUM_THREADS=%s\n",
           FEDREF_VERSION, ctx.quick ? " --quick (small sizes: correctness, not timing)" : "",
           ctx.reps, getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : "(unset)");
    int rc = 0;
    for (size_t s = 0; sections[s].name && rc == 0; s++) {
        if (only && strcmp(sections[s].name, only) != 0)
            continue;
        fflush(stdout);
        cli_progress("bench: section %s", sections[s].name);
        rc = sections[s].fn(&ctx);
    }
    if (ctx.manifest && fclose(ctx.manifest) != 0 && rc == 0) {
        cli_error(strerror(errno), "manifest.txt");
        rc = 2;
    }
    if (rc != 0)
        return rc;
    printf("\nbench: %d disagreement(s)\n", ctx.disagree);
    return ctx.disagree ? 1 : 0;
}

int bench_numpy_script(bench_ctx *ctx, const char *section, const char *envvar, const char *dflt,
                       unsigned long reps, const char *dir, FILE **res)
{
    const char *py = getenv("FEDREF_PYTHON3"), *script = getenv(envvar);
    py = py && *py ? py : "/usr/bin/python3";
    script = script && *script ? script : dflt;
    *res = NULL;
    if (access(script, R_OK) != 0 || access(py, X_OK) != 0) {
        printf("  numpy: skipped (%s or %s not found; %s, FEDREF_PYTHON3)\n", script, py, envvar);
        return 0;
    }
    char out[4200], where[64];
    snprintf(out, sizeof out, "%s/numpy.txt", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(where, sizeof where, "bench %s: fork", section);
        cli_error(strerror(errno), where);
        return 2;
    }
    if (pid == 0) {
        char r[32];
        snprintf(r, sizeof r, "%lu", reps);
        execl(py, py, script, "--reps", r, dir, (char *)NULL);
        _exit(127);
    }
    int ws = 0;
    if (waitpid(pid, &ws, 0) < 0) {
        snprintf(where, sizeof where, "bench %s: waitpid", section);
        cli_error(strerror(errno), where);
        return 2;
    }
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
    if (code == 3) {
        printf("  numpy: skipped (the script found no numpy)\n");
        return 0;
    }
    FILE *f = fopen(out, "r");
    if (code != 0 && code != 1) {
        if (f)
            fclose(f);
        printf("  DISAGREE: numpy: %s failed (exit %d)\n", script, code);
        ctx->disagree++;
        return 0;
    }
    if (!f) {
        cli_error(strerror(errno), out);
        return 2;
    }
    *res = f;
    return 0;
}

void bench_cell(double v, const char *fmt)
{
    if (v >= 0)
        printf(fmt, v);
    else
        printf(" %9s", "-");
}
