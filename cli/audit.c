/* SPDX-License-Identifier: Apache-2.0 */
/* audit.c -- `fedref audit` (make run): for every implemented function,
 * ref vs fast over the committed vectors and over a seeded random sweep,
 * plus the proof checks; prints one table row per function, then each
 * module's section (cli/<module>/).  Options (cli_audit_usage) or the
 * environment: FEDREF_SWEEP, FEDREF_PC_CASES, FEDREF_SEED,
 * FEDREF_VECTORS_DIR.  --format json|tap|junit writes the report of
 * conform_report.c instead of the text: the vector files and their cases,
 * and the checks (each function's sweep, each proof check, each module
 * section), every failure with its fields. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "conform.h"
#include "../vectors/vectors.h"
#include "../proofs_checks/pc.h"
#include "proof_registry.h"
#include "audit_registry.h"

typedef struct {
    unsigned long vcases, vfailed, scases, sfailed, pc_run, pc_passed;
    unsigned long nrelative;        /* values judged relatively: where ulps, rel are taken */
    double ulps, rel, tolfrac;
    long bits;
    char errata[128];
    char first_fail[400];           /* the sweep's first failing case, for the reports */
} row_t;

void cli_audit_usage(FILE *f)
{
    fputs("usage: fedref audit [--quick] [--vectors DIR] [--sweep N] [--pc-cases N] [--seed N]\n"
          "                    [--function NAME]... [--format text|json|tap|junit]\n"
          "\n"
          "For every vector function: its committed vectors checked by ref and fast,\n"
          "a seeded random sweep of fast against ref at 128 bits, its proof checks;\n"
          "one table row each (largest error of fast as a fraction of the tolerance,\n"
          "and in ulps and relative terms where the tolerance is relative; certified\n"
          "bits, errata shown).  Then each module's section: the algorithms run by\n"
          "ref (256 bits) and fast on the embedded default problem, with their drift\n"
          "and time ratio.\n"
          "  --quick         the table only, with fewer cases (--sweep 1000 --pc-cases 100\n"
          "                  unless given); the module sections are not run\n"
          "  --vectors DIR   the golden vectors (default: $FEDREF_VECTORS_DIR, the\n"
          "                  checkout's vectors/ from a build tree, else the installed\n"
          "                  share/fedref/vectors)\n"
          "  --sweep N       random cases per function (default $FEDREF_SWEEP or 25000)\n"
          "  --pc-cases N    cases per proof check (default $FEDREF_PC_CASES or 10000)\n"
          "  --seed N        seed of every random stream (default $FEDREF_SEED or 20261122)\n"
          "  --function NAME only this function's row: its vectors and sweep (repeatable);\n"
          "                  the proof checks and the module sections are not run\n"
          "  --format text|json|tap|junit   the report on stdout (default text, the table):\n"
          "                  json one object (vector files, cases and checks counted\n"
          "                  apart, every failure with its fields), tap TAP 13, junit\n"
          "                  JUnit XML; the same writers as vectors check and conform\n"
          "Progress goes to stderr (each step with the time elapsed and left).  Exit 0\n"
          "if everything passed, 1 on a failure, 2 on a usage error.\n", f);
}

/* The option `name` from argv or else the environment variable, else dflt;
 * -1 (after an error message) if a given value is not a number. */
static int opt_ul(const char *value, const char *env, unsigned long dflt, unsigned long *out)
{
    const char *s = value ? value : getenv(env);
    if (s == NULL || *s == '\0') { *out = dflt; return 0; }
    if (cli_parse_ul(s, out) != 0) {
        if (value) {
            cli_bad_ul(s);
        } else {
            char where[128];
            snprintf(where, sizeof where, "%s=%s", env, s);
            cli_bad_ul(where);
        }
        return -1;
    }
    return 0;
}

/* A random binary64 of moderate range, sometimes a tie or a kink. */
static double rnd_value(frng_t *g, const double *pool, size_t npool)
{
    uint64_t r, e, k;
    frng_below(g, 16, &r);
    if (r == 0 && npool > 0) {                  /* reuse: ties and kinks, either sign */
        frng_below(g, npool, &k);
        frng_below(g, 2, &r);
        return (r ? -1 : 1) * pool[k];
    }
    frng_below(g, 41, &e);
    double u = (double)frng_u53(g) * 0x1p-53;
    frng_below(g, 2, &k);
    return (k ? -1 : 1) * ldexp(1 + u, (int)e - 20);
}

static void sweep(const vfunc *fn, unsigned long ncases, uint64_t seed, row_t *row)
{
    frng_t g;
    frng_init(&g, seed, 1000);
    size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs), ne = vspec_count(fn->expects);
    mpfr_t t, d;
    mpfr_inits2(192, t, d, (mpfr_ptr)0);
    for (unsigned long c = 0; c < ncases; c++) {
        ftensor fp[VEC_MAX_FIELDS] = {{0}}, fi[VEC_MAX_FIELDS] = {{0}}, fo[VEC_MAX_FIELDS] = {{0}};
        rtensor rp[VEC_MAX_FIELDS] = {{0}}, ri[VEC_MAX_FIELDS] = {{0}}, ro[VEC_MAX_FIELDS] = {{0}};
        double pool[VEC_MAX_FIELDS + 64];
        size_t npool = 0;
        size_t gp = np, gi = ni;               /* fields the generic sampler fills */
        if (fn->sample) {
            fn->sample(&g, fp, fi);
            gp = gi = 0;
        }
        for (size_t k = 0; k < gp; k++) {
            ft_alloc(&fp[k], 1, 1);
            fp[k].v[0] = fabs(rnd_value(&g, NULL, 0));   /* parameters are positive */
            pool[npool++] = fp[k].v[0];
        }
        for (size_t k = 0; k < gi; k++) {
            uint64_t m = 1, n;
            if (fn->inputs[k].kind == VK_MATRIX) { frng_below(&g, 9, &m); m++; }
            frng_below(&g, 4, &n); n++;
            ft_alloc(&fi[k], (size_t)m, (size_t)n);
            for (size_t i = 0; i < m * n; i++) {
                fi[k].v[i] = rnd_value(&g, pool, npool);
                if (npool < sizeof pool / sizeof pool[0]) pool[npool++] = fabs(fi[k].v[i]);
            }
        }
        for (size_t k = 0; k < np; k++) {                /* any shape (an absent field: 0 x 0) */
            rt_alloc(&rp[k], fp[k].rows, fp[k].cols, 53);
            for (size_t i = 0; i < fp[k].rows * fp[k].cols; i++) mpfr_set_d(rp[k].v[i], fp[k].v[i], MPFR_RNDN);
        }
        for (size_t k = 0; k < ni; k++) {
            rt_alloc(&ri[k], fi[k].rows, fi[k].cols, 53);
            for (size_t i = 0; i < fi[k].rows * fi[k].cols; i++) mpfr_set_d(ri[k].v[i], fi[k].v[i], MPFR_RNDN);
        }
        int s1 = fn->ref(rp, ri, ro, 128), s2 = fn->fast(fp, fi, fo);
        int bad = s1 != FR_OK || s2 != FR_OK;
        char *why = row->sfailed ? NULL : row->first_fail;   /* the first failure's fields */
        size_t nwhy = sizeof row->first_fail;
        if (bad && why) snprintf(why, nwhy, "random case %lu: status ref %s, fast %s", c, fr_strerror(s1), fr_strerror(s2));
        for (size_t k = 0; k < ne && !bad; k++) {      /* iterative runs: same record sizes */
            bad = ro[k].rows * ro[k].cols != fo[k].rows * fo[k].cols;
            if (bad && why)
                snprintf(why, nwhy, "random case %lu: %s: ref gives %zu values, fast %zu", c, fn->expects[k].name,
                         ro[k].rows * ro[k].cols, fo[k].rows * fo[k].cols);
        }
        double rel, abs;
        fn->tol(fp, fi, &rel, &abs);
        for (size_t k = 0; k < ne && !bad; k++)
            for (size_t i = 0; i < ro[k].rows * ro[k].cols; i++) {
                mpfr_set_d(t, fo[k].v[i], MPFR_RNDN);
                mpfr_sub(d, t, ro[k].v[i], MPFR_RNDA);
                mpfr_abs(d, d, MPFR_RNDU);
                double err = mpfr_get_d(d, MPFR_RNDU), ex = fabs(mpfr_get_d(ro[k].v[i], MPFR_RNDN));
                double ulp = ex == 0 ? 0x1p-1074 : fmax(ldexp(1, ilogb(ex) - 52), 0x1p-1074);
                /* ulps and relative error only where the tol's relative part
                 * dominates: a result that cancels to ~0 is judged by abs */
                if (ex > 0 && rel * ex >= abs) {
                    if (err / ulp > row->ulps) row->ulps = err / ulp;
                    if (err / ex > row->rel) row->rel = err / ex;
                    row->nrelative++;
                }
                double bound = abs + rel * ex * (1 + 0x1p-50);    /* ref itself is within 2^-128 */
                if (err > bound && !bad && why)
                    snprintf(why, nwhy, "random case %lu: %s[%zu]: fast got %.17g, ref %.17g: error %.3g > tol %.3g",
                             c, fn->expects[k].name, i, fo[k].v[i], mpfr_get_d(ro[k].v[i], MPFR_RNDN), err, bound);
                if (err > bound) bad = 1;
                if (bound > 0 && err / bound > row->tolfrac) row->tolfrac = err / bound;
            }
        row->scases++;
        row->sfailed += bad;
        for (size_t k = 0; k < VEC_MAX_FIELDS; k++) {
            ft_free(&fp[k]); ft_free(&fi[k]); ft_free(&fo[k]);
            rt_free(&rp[k]); rt_free(&ri[k]); rt_free(&ro[k]);
        }
    }
    mpfr_clears(t, d, (mpfr_ptr)0);
}

typedef struct { const char *name; int (*fn)(pc_ctx *); } pc_entry;
static const pc_entry proofs[] = {PC_REGISTRY};
#define NPROOFS (sizeof proofs / sizeof proofs[0] - 1)

/* The module sections of the audit that follow the table (the trajectory
 * comparisons): every `int audit_MODULE(uint64_t seed)` of cli/MODULE/. */
typedef struct { const char *name; int (*fn)(uint64_t); } audit_entry;
static const audit_entry sections[] = {AUDIT_REGISTRY};

/* A table cell: printf(fmt, v) in width w, or "-" there when no value was
 * judged relatively (n == 0). */
static void cell(FILE *out, unsigned long n, double v, int w)
{
    if (n == 0) fprintf(out, " %*s", w, "-");
    else fprintf(out, " %*.3g", w, v);
}

/* A check of the audit into rep (the reports): group, name, function; a
 * failure when fail, with the message msg (printf-style, may be NULL). */
static int add_check(creport *rep, const char *group, const char *name, const char *function,
                     enum cstatus st, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int add_check(creport *rep, const char *group, const char *name, const char *function,
                     enum cstatus st, const char *fmt, ...)
{
    cresult r = {group, function, 0, NULL, 0, st, NULL, 0, 0, name};
    if (fmt) {
        char buf[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        if (cresult_msg(&r, "%s", buf) != 0) return -1;
    }
    return creport_add(rep, &r);
}

/* Run a module section with its standard output captured (the reports):
 * its failures, and in *text what it printed (malloc'd, NULL if it could
 * not be captured; the section then printed to stdout). */
static int run_captured(int (*fn)(uint64_t), uint64_t seed, char **text)
{
    *text = NULL;
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(STDOUT_FILENO) : -1;
    if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (saved >= 0) close(saved);
        if (tmp) fclose(tmp);
        return fn(seed);
    }
    int failures = fn(seed);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long len = ftell(tmp);
    if (len >= 0 && (*text = malloc((size_t)len + 1)) != NULL) {
        rewind(tmp);
        size_t got = fread(*text, 1, (size_t)len, tmp);
        (*text)[got] = '\0';
    }
    fclose(tmp);
    return failures;
}

/* A failed section into rep: its failure count, then each line it printed. */
static int add_section(creport *rep, const char *name, int failures, char *text)
{
    cresult r = {"sections", name, 0, NULL, 0, failures ? CS_FAIL : CS_PASS, NULL, 0, 0, name};
    int bad = failures && cresult_msg(&r, "%d failure(s); the section printed:", failures) != 0;
    for (char *line = text, *nl; failures && !bad && line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl) *nl++ = '\0';
        if (*line) bad = cresult_msg(&r, "%s", line) != 0;
    }
    if (bad) {
        for (size_t m = 0; m < r.nmsgs; m++) free(r.msgs[m]);
        free(r.msgs);
        return -1;
    }
    return creport_add(rep, &r);
}

int cmd_audit(int argc, char **argv)
{
    const char *vdir = NULL, *vsweep = NULL, *vpc = NULL, *vseed = NULL, *format = "text";
    const char **only = calloc((size_t)argc + 1, sizeof *only);   /* --function NAME... */
    size_t nonly = 0;
    int quick = 0, rc = 2;
    FILE *out = stdout;
    creport rep = {0}, swp = {0};      /* swp: the sweeps, reported after the files */
    vfile *kept = NULL;                 /* the files the report's results point into */
    size_t nkept = 0;
    if (only == NULL) { cli_error("out of memory", "audit"); return 2; }
    for (int i = 0; i < argc; i++) {
        const char *fmt = NULL, *fname = NULL;
        const char **slot = strcmp(argv[i], "--vectors") == 0 ? &vdir
                          : strcmp(argv[i], "--sweep") == 0 ? &vsweep
                          : strcmp(argv[i], "--pc-cases") == 0 ? &vpc
                          : strcmp(argv[i], "--seed") == 0 ? &vseed
                          : strcmp(argv[i], "--format") == 0 ? &fmt
                          : strcmp(argv[i], "--function") == 0 ? &fname : NULL;
        if (cli_is_help(argv[i])) { cli_audit_usage(stdout); rc = 0; goto out; }
        if (strcmp(argv[i], "--quick") == 0) { quick = 1; continue; }
        if (slot == NULL) { cli_error("unknown argument of audit (see fedref audit --help)", argv[i]); goto out; }
        if (i + 1 >= argc) { cli_error("option needs a value", argv[i]); goto out; }
        *slot = argv[++i];
        if (fmt) {
            if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "tap") && strcmp(fmt, "junit")) {
                cli_error("--format takes text, json, tap or junit", fmt);
                goto out;
            }
            format = fmt;
        }
        if (fname) {
            if (vfunc_find(fname) == NULL) {
                cli_error("no such vector function (the names are those of vectors/*.json)", fname);
                goto out;
            }
            only[nonly++] = fname;
        }
    }
    unsigned long nsweep, npc, seedl;
    if (opt_ul(vsweep, "FEDREF_SWEEP", quick ? 1000 : 25000, &nsweep)
        || opt_ul(vpc, "FEDREF_PC_CASES", quick ? 100 : 10000, &npc)
        || opt_ul(vseed, "FEDREF_SEED", 20261122, &seedl))
        goto out;
    if (npc == 0) { cli_error("proof checks need at least one case", "--pc-cases"); goto out; }
    uint64_t seed = seedl;
    char dir[4096];
    if (cli_vectors_dir(vdir, dir, sizeof dir) != 0) {
        cli_error("no golden-vector directory: give --vectors DIR or set FEDREF_VECTORS_DIR",
                  vdir ? vdir : dir);
        goto out;
    }
    int text = strcmp(format, "text") == 0;
    char source[256];
    if (!text && (out = fopen("/dev/null", "w")) == NULL) { out = stdout; cli_error("cannot open /dev/null", "audit"); goto out; }
    snprintf(source, sizeof source, "ref (GNU MPFR %s) vs fast (binary64), seed %llu, sweep %lu, proof-check cases %lu",
             mpfr_get_version(), (unsigned long long)seed, nsweep, npc);
    rep.rule = "certified,tol";
    rep.source = source;
    rep.protocol = VEC_SCHEMA;
    rep.title = "fedref audit";
    setvbuf(stdout, NULL, _IOLBF, 0);              /* each row as it is done, also into a file */
    int failures = 0;
    size_t nfn = 0, nsec = 0, npcrun = nonly ? 0 : NPROOFS;
    int wname = 8;                                 /* "function" */
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++, nfn++)
        if ((int)strlen((*fp)->name) > wname) wname = (int)strlen((*fp)->name);
    while (sections[nsec].name) nsec++;
    fprintf(out, "fedref %s audit%s: ref (GNU MPFR %s) vs fast (binary64), seed %llu, sweep %lu, "
            "proof-check cases %lu\ngolden vectors from %s\n\n", FEDREF_VERSION, quick ? " (quick)" : "",
            mpfr_get_version(), (unsigned long long)seed, nsweep, npc, dir);
    cli_steps_begin("audit");
    pc_ctx pcx[NPROOFS + 1];
    int pcrc[NPROOFS + 1];
    for (size_t p = 0; p < npcrun; p++) {
        cli_step("proof check", p + 1, NPROOFS, "%s", proofs[p].name);
        pcx[p] = (pc_ctx){.cases = npc, .prec = 256, .seed = seed};
        pcrc[p] = proofs[p].fn(&pcx[p]);
        if (pcx[p].vector != NULL && vfunc_find(pcx[p].vector) == NULL) {
            fprintf(out, "proof check %s names vector function %s, which does not exist\n",
                    proofs[p].name, pcx[p].vector);
            failures++;
            pcrc[p] = pcrc[p] ? pcrc[p] : -1;
            snprintf(pcx[p].detail, sizeof pcx[p].detail, "names vector function %s, which does not exist",
                     pcx[p].vector);
        }
    }
    fprintf(out, "%-*s %7s %8s %10s %10s %8s %6s %9s %7s  %s\n", wname, "function", "vectors", "sweep",
            "fast ulps", "fast rel", "err/tol", "fails", "cert.bits", "proofs", "errata");
    size_t ifn = 0, nrow = nfn;
    if (nonly) nrow = nonly;
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        const vfunc *fn = *fp;
        int sel = nonly == 0;
        for (size_t q = 0; q < nonly; q++) sel |= strcmp(only[q], fn->name) == 0;
        if (!sel) continue;
        row_t row = {0};
        cli_step("function", ++ifn, nrow, "%s (vectors, sweep)", fn->name);
        char path[4200], err[1024];
        vfile f;
        snprintf(path, sizeof path, "%s/%s.json", dir, fn->name);
        if (vfile_read(&f, path, err, sizeof err) != 0) {
            cli_error(err, NULL);
            failures++;
            vfile_free(&f);
            snprintf(path, sizeof path, "%s.json", fn->name);
            if (creport_reject(&rep, path, err) != 0) goto oom;
        } else {
            vcheck_stats st = {0};
            if (text) {
                vfile_check(&f, VCHECK_REF | VCHECK_FAST, stdout, &st);
                vfile_free(&f);
            } else {
                vfile *k = realloc(kept, (nkept + 1) * sizeof *k);
                if (k == NULL) { vfile_free(&f); goto oom; }
                kept = k;
                kept[nkept] = f;
                const vfile *g = &kept[nkept++];
                for (size_t j = 0; j < g->ncases; j++)
                    if (creport_check_case(&rep, g, &g->cases[j], VCHECK_REF | VCHECK_FAST, &st) != 0) goto oom;
            }
            row.vcases = st.passed + st.failed;
            row.vfailed = st.failed;
            row.ulps = st.max_ulps; row.rel = st.max_rel; row.tolfrac = st.max_tolfrac;
            row.nrelative = st.nrelative;
            row.bits = st.min_certified_bits;
        }
        sweep(fn, fn->sweep_max && fn->sweep_max < nsweep ? fn->sweep_max : nsweep, seed, &row);
        if (row.sfailed
            ? add_check(&swp, "sweep", fn->name, fn->name, CS_FAIL, "%lu of %lu random cases failed (fast vs ref at "
                        "128 bits, the tol); the first: %s", row.sfailed, row.scases, row.first_fail)
            : add_check(&swp, "sweep", fn->name, fn->name, CS_PASS, NULL))
            goto oom;
        for (size_t p = 0; p < npcrun; p++) {
            if (pcx[p].vector == NULL || strcmp(pcx[p].vector, fn->name) != 0) continue;
            row.pc_run++;
            row.pc_passed += pcrc[p] == 0;
            if (pcrc[p] != 0) fprintf(out, "proof check %s FAILED: %s\n", proofs[p].name, pcx[p].detail);
            if (pcx[p].erratum && strlen(row.errata) + strlen(pcx[p].erratum) + 2 < sizeof row.errata) {
                if (row.errata[0]) strcat(row.errata, " ");
                strcat(row.errata, pcx[p].erratum);
            }
        }
        unsigned long fails = row.vfailed + row.sfailed + (row.pc_run - row.pc_passed);
        failures += fails != 0;
        fprintf(out, "%-*s %7lu %8lu", wname, fn->name, row.vcases, row.scases);
        cell(out, row.nrelative, row.ulps, 10);
        cell(out, row.nrelative, row.rel, 10);
        fprintf(out, " %8.3f %6lu %9ld %4lu/%-2lu  %s\n", row.tolfrac, fails, row.bits, row.pc_passed, row.pc_run,
                row.errata[0] ? row.errata : "-");
    }
    for (; swp.n; swp.n--) {                        /* the sweeps after the files, in order */
        int bad = creport_add(&rep, &swp.r[0]);
        memmove(swp.r, swp.r + 1, (swp.n - 1) * sizeof *swp.r);
        if (bad) { swp.n--; goto oom; }
    }
    /* proof checks of functions without a vector file: listed by name */
    int header = 0;
    for (size_t p = 0; p < npcrun; p++) {
        if (pcx[p].vector != NULL) continue;
        if (!header++) fprintf(out, "\nproof checks of functions without a vector file:\n");
        fprintf(out, "  %-24s %-16s %-4s  %s\n", proofs[p].name, pcx[p].function, pcrc[p] == 0 ? "pass" : "FAIL",
                pcx[p].erratum ? pcx[p].erratum : "-");
        if (pcrc[p] != 0) {
            fprintf(out, "proof check %s FAILED: %s\n", proofs[p].name, pcx[p].detail);
            failures++;
        }
    }
    for (size_t p = 0; p < npcrun; p++)             /* the reports: every proof check, in its order */
        if (pcrc[p] == 0 ? add_check(&rep, "proof checks", proofs[p].name, pcx[p].function ? pcx[p].function : "-",
                                     CS_PASS, NULL)
            : add_check(&rep, "proof checks", proofs[p].name, pcx[p].function ? pcx[p].function : "-", CS_FAIL,
                        "%lu of %lu cases failed%s%s: %s", pcx[p].failed, pcx[p].ran,
                        pcx[p].vector ? "; vector function " : "", pcx[p].vector ? pcx[p].vector : "",
                        pcx[p].detail))
            goto oom;
    fprintf(out, "\nvectors: cases in vectors/<function>.json (ref to the certified bits, fast to tol);\n"
            "sweep: seeded random cases, fast vs ref at 128 bits, judged by the same tol;\n"
            "err/tol: largest error of fast over both as a fraction of the tol (<= 1 passes);\n"
            "fast ulps/rel: largest error of fast in binary64 ulps and relative terms, over\n"
            "the values judged by the tol's relative part (tol.rel |x| >= tol.abs); \"-\" when\n"
            "there is none (results judged absolutely, e.g. those that cancel to ~0);\n"
            "cert.bits: least certified bits of an expected value; proofs: proof checks\n"
            "passed/run (proofs_checks/); errata: docs/ERRATA.md entries that the proof\n"
            "checks demonstrate.\n");
    for (size_t sct = 0; sct < nsec && !nonly; sct++) {
        if (quick) {
            if (add_check(&rep, "sections", sections[sct].name, sections[sct].name, CS_SKIP,
                          "--quick: not run") != 0)
                goto oom;
            continue;
        }
        cli_step("section", sct + 1, nsec, "%s", sections[sct].name);
        if (text) { failures += sections[sct].fn(seed); continue; }
        char *captured;
        int nf = run_captured(sections[sct].fn, seed, &captured);
        failures += nf;
        int bad = add_section(&rep, sections[sct].name, nf, captured);
        free(captured);
        if (bad) goto oom;
    }
    if (quick && !nonly)
        fprintf(out, "\n(--quick: the %zu module sections, ref against fast on the algorithms' runs, are\n"
                "not run; the full audit runs them)\n", nsec);
    double secs = cli_steps_end();
    fprintf(out, "\naudit: %d function(s) or algorithm(s) with failures\n", failures);
    if (!text) creport_print(&rep, format, stdout);
    cli_progress("audit: done in %.0f s", secs);
    rc = failures ? 1 : 0;
    goto out;
oom:
    cli_steps_end();
    cli_error("out of memory", "audit");
    rc = 2;
out:
    if (out != stdout) fclose(out);
    creport_free(&rep);
    creport_free(&swp);
    for (size_t i = 0; i < nkept; i++) vfile_free(&kept[i]);
    free(kept);
    free(only);
    return rc;
}

double cli_drift(const double *a, mpfr_t *const r, size_t n)
{
    double num = 0, den = 0;
    mpfr_t t;
    mpfr_init2(t, 256);
    for (size_t j = 0; j < n; j++) {
        mpfr_sub_d(t, r[j], a[j], MPFR_RNDN);
        num = fmax(num, fabs(mpfr_get_d(t, MPFR_RNDU)));
        den = fmax(den, fabs(mpfr_get_d(r[j], MPFR_RNDN)));
    }
    mpfr_clear(t);
    return den > 0 ? num / den : num;
}
