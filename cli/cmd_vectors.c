/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_vectors.c -- `fedref vectors gen`, `check`, `schema` and `list`. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "conform.h"
#include "../vectors/vectors.h"

void cli_vectors_usage(FILE *f)
{
    fputs("usage: fedref vectors check [--format text|json|tap|junit] [--impl ref|fast|both] [--] FILE...\n"
          "       fedref vectors gen DIR [FUNCTION...]\n"
          "       fedref vectors schema [--out OUT] DIR\n"
          "       fedref vectors list [--json] [DIR]\n"
          "\n"
          "check: read each golden-vector file (schema fedref-vectors/2 or /1, docs/VECTORS.md)\n"
          "  and check every case: ref must match the expected value to its certified\n"
          "  bits, fast must be within the case's tol; an invalid case passes only with\n"
          "  a domain error.  Every field is judged: one line per wrong field, for each\n"
          "  implementation, then 'N cases passed, N failed, in N files (N rejected)'.\n"
          "  --impl ref|fast|both   which implementations to check (default both)\n"
          "  --format text|json|tap|junit   the report on stdout (default text): json one\n"
          "                         object (files and cases apart, each case's verdict and\n"
          "                         wrong fields), tap TAP 13, junit JUnit XML (as conform)\n"
          "  Exit 0 all passed, 1 a case failed, 2 a file was rejected or a usage error.\n"
          "  An index.json among the FILEs is the index, not a vector file: skipped.\n"
          "gen: write the certified file of every vector function (or of each FUNCTION\n"
          "  named, e.g. proxal_lk) to DIR/<function>.json (DIR must exist; files are\n"
          "  replaced atomically).  `make vectors` regenerates the committed files.\n"
          "  Exit 0 all written, 2 an unknown function, a bad DIR or a failed certification.\n"
          "schema: read every vector file DIR/*.json and write OUT/schema/<function>.schema.json\n"
          "  (JSON Schema 2020-12, one per function, from the reader's tables) and\n"
          "  OUT/index.json (every file: function, module, source, fields, cases, flags);\n"
          "  OUT defaults to DIR.  Exit 0 written, 2 a file rejected or a write error.\n"
          "list: print the index of DIR (default: the installed vectors): DIR/index.json,\n"
          "  or built from the files if there is none; one line a file (function, file,\n"
          "  cases, source), or with --json the index itself.\n", f);
}

static int gen_one(const vfunc *fn, const char *dir)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.json", dir, fn->name);
    cli_progress("certifying %s", path);
    if (vectors_generate(fn, path, err, sizeof err) != 0) {
        cli_error(err, path);
        return 2;
    }
    printf("wrote %s\n", path);
    return 0;
}

int cmd_vectors_gen(int argc, char **argv)
{
    if (argc >= 1 && cli_is_help(argv[0])) { cli_vectors_usage(stdout); return 0; }
    if (argc < 1) {
        cli_error("vectors gen needs the output directory", "vectors gen DIR [FUNCTION...]");
        return 2;
    }
    const char *dir = argv[0];
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        char what[256];
        snprintf(what, sizeof what, "cannot use the output directory (it must exist): %s", strerror(errno));
        cli_error(what, dir);
        return 2;
    }
    if (!S_ISDIR(sb.st_mode)) { cli_error("the output directory is not a directory", dir); return 2; }
    for (int i = 1; i < argc; i++)      /* every name first: nothing written on a typo */
        if (vfunc_find(argv[i]) == NULL) {
            cli_error("no such vector function (the names are those of vectors/*.json)", argv[i]);
            return 2;
        }
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (gen_one(vfunc_find(argv[i]), dir) != 0) return 2;
        return 0;
    }
    for (const vfunc *const *fn = vfunc_all(); *fn; fn++)
        if (gen_one(*fn, dir) != 0) return 2;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int cmd_vectors_check(int argc, char **argv)
{
    int impls = VCHECK_REF | VCHECK_FAST, options = 1, rc = 2;
    unsigned long rejected = 0, nfiles = 0;
    const char *format = "text";
    vcheck_stats st = {0};
    creport rep = {0};
    vfile *kept = NULL;                 /* the files the report's results point into */
    size_t nkept = 0;
    for (int i = 0; i < argc; i++) {            /* the options first: nothing checked on a usage error */
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) { options = 0; continue; }
        if (options && cli_is_help(a)) { cli_vectors_usage(stdout); return 0; }
        if (options && (strcmp(a, "--impl") == 0 || strcmp(a, "--format") == 0)) {
            if (i + 1 >= argc) {
                cli_error(a[2] == 'i' ? "--impl needs a value: ref, fast or both"
                                      : "--format needs a value: text, json, tap or junit", "vectors check");
                return 2;
            }
            const char *v = argv[++i];
            argv[i - 1] = argv[i] = NULL;       /* consumed */
            if (a[2] == 'f') {
                if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "tap") && strcmp(v, "junit")) {
                    cli_error("--format takes text, json, tap or junit", v);
                    return 2;
                }
                format = v;
                continue;
            }
            impls = strcmp(v, "ref") == 0 ? VCHECK_REF : strcmp(v, "fast") == 0 ? VCHECK_FAST
                  : strcmp(v, "both") == 0 ? VCHECK_REF | VCHECK_FAST : 0;
            if (!impls) { cli_error("--impl takes ref, fast or both", v); return 2; }
            continue;
        }
        if (options && a[0] == '-' && a[1] != '\0') {
            cli_error("unknown option (a file name starting with '-' goes after --)", a);
            return 2;
        }
        nfiles++;
    }
    if (nfiles == 0) { cli_error("no vector file given", "vectors check"); return 2; }
    int text = strcmp(format, "text") == 0;
    rep.rule = impls == VCHECK_REF ? "certified" : impls == VCHECK_FAST ? "tol" : "certified,tol";
    rep.source = impls == VCHECK_REF ? "ref" : impls == VCHECK_FAST ? "fast" : "ref,fast";
    rep.protocol = VEC_SCHEMA;
    rep.title = "fedref vectors check";
    options = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a == NULL) continue;
        if (options && strcmp(a, "--") == 0) { options = 0; continue; }
        struct stat sb;
        if (vindex_file_p(a)) {
            nfiles--;
            fprintf(stderr, "fedref: %s is the index of the vector files, not a vector file: skipped\n", a);
            continue;
        }
        vfile f;
        char err[1024];
        if (stat(a, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            cli_error("is a directory: give the files, e.g. DIR/*.json", a);
            snprintf(err, sizeof err, "is a directory: give the files, e.g. DIR/*.json");
            rejected++;
            if (creport_reject(&rep, base_name(a), err) != 0) goto oom;
            continue;
        }
        if (vfile_read(&f, a, err, sizeof err) != 0) {
            cli_error(err, NULL);
            vfile_free(&f);
            rejected++;          /* never read as a pass: exit 2 */
            if (creport_reject(&rep, base_name(a), err) != 0) goto oom;
            continue;
        }
        if (text) { vfile_check(&f, impls, stdout, &st); vfile_free(&f); continue; }
        vfile *k = realloc(kept, (nkept + 1) * sizeof *k);
        if (k == NULL) { vfile_free(&f); goto oom; }
        kept = k;
        kept[nkept] = f;
        const vfile *g = &kept[nkept++];
        for (size_t j = 0; j < g->ncases; j++)
            if (creport_check_case(&rep, g, &g->cases[j], impls, &st) != 0) goto oom;
    }
    if (text)
        printf("%lu case%s passed, %lu failed, in %lu file%s (%lu rejected)\n", st.passed,
               st.passed == 1 ? "" : "s", st.failed, nfiles, nfiles == 1 ? "" : "s", rejected);
    else
        creport_print(&rep, format, stdout);
    rc = rejected ? 2 : st.failed ? 1 : 0;
    goto out;
oom:
    cli_error("out of memory", "vectors check");
    rc = 2;
out:
    creport_free(&rep);
    for (size_t i = 0; i < nkept; i++) vfile_free(&kept[i]);
    free(kept);
    return rc;
}

int cmd_vectors_schema(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) { cli_vectors_usage(stdout); return 0; }
        if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc) { cli_error("--out needs a directory", "vectors schema"); return 2; }
            out = argv[++i];
        } else if (argv[i][0] == '-' || dir) {
            cli_error("unexpected argument", argv[i]);
            return 2;
        } else dir = argv[i];
    }
    if (dir == NULL) { cli_error("missing DIR", "vectors schema"); return 2; }
    char err[1024];
    if (vectors_schema_write(dir, out ? out : dir, err, sizeof err) != 0) { cli_error(err, NULL); return 2; }
    printf("wrote %s/%s and %s/schema/*.schema.json\n", out ? out : dir, VEC_INDEX_FILE, out ? out : dir);
    return 0;
}

int cmd_vectors_list(int argc, char **argv)
{
    const char *given = NULL;
    int as_json = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) { cli_vectors_usage(stdout); return 0; }
        if (strcmp(argv[i], "--json") == 0) as_json = 1;
        else if (argv[i][0] == '-' || given) { cli_error("unexpected argument", argv[i]); return 2; }
        else given = argv[i];
    }
    char dir[4096], path[4200], err[1024];
    if (cli_vectors_dir(given, dir, sizeof dir) != 0) {
        cli_error("no such vector directory", given ? given : "the default vectors");
        return 2;
    }
    snprintf(path, sizeof path, "%s/%s", dir, VEC_INDEX_FILE);
    json_error_t je;
    json_t *index = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (index == NULL && (index = vindex_build(dir, err, sizeof err)) == NULL) { cli_error(err, NULL); return 2; }
    json_t *files = json_object_get(index, "files");
    if (!json_is_array(files)) { json_decref(index); cli_error("no \"files\" array", path); return 2; }
    if (as_json) {
        json_dumpf(index, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        putchar('\n');
    } else {
        size_t k;
        json_t *e;
        json_array_foreach(files, k, e) {
            printf("%-22s %-26s %5lld  %s\n", json_string_value(json_object_get(e, "function")),
                   json_string_value(json_object_get(e, "file")),
                   (long long)json_integer_value(json_object_get(e, "cases")),
                   json_string_value(json_object_get(e, "source")));
        }
    }
    json_decref(index);
    return 0;
}
