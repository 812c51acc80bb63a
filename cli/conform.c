/* SPDX-License-Identifier: Apache-2.0 */
/* conform.c -- `fedref conform`: an external implementation, in any
 * language, checked against the golden vectors through the line protocol
 * fedref-conform/1 (docs/CONFORM.md): one JSON request line per case to
 * the program (or to stdout with --emit-cases), one JSON reply line back
 * (or from a --results file), every field judged by the checker's own
 * comparison (vcase_judge_output, vectors/vreply.c). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "cli.h"
#include "conform.h"
#include "../vectors/vectors.h"

#define MAX_WRONG 64

void cli_conform_usage(FILE *f)
{
    fputs("usage: fedref conform [OPTIONS] -- PROGRAM [ARG...]\n"
          "       fedref conform [OPTIONS] --results FILE\n"
          "       fedref conform [OPTIONS] --emit-cases\n"
          "\n"
          "Check an external implementation against the golden vectors, through the\n"
          "line protocol " CONFORM_PROTOCOL " (docs/CONFORM.md): for each case fedref writes\n"
          "one JSON line {\"protocol\", \"file\", \"function\", \"id\", \"params\", \"input\"} to\n"
          "PROGRAM's standard input and reads one JSON line back: {\"id\", \"output\": {...}},\n"
          "{\"id\", \"error\": \"FR_EDOM\"} or {\"id\", \"unsupported\": true} (skipped).  Numbers\n"
          "are decimal strings both ways.  Every field of every case is judged with the\n"
          "rules of `fedref vectors check`; every wrong field is reported.\n"
          "\n"
          "  --vectors PATH     a vector file or a directory of them (repeatable; default:\n"
          "                     the vectors `fedref audit` finds)\n"
          "  --function NAME    only this function's cases (repeatable)\n"
          "  --id N             only the cases with id N (repeatable)\n"
          "  --flag NAME        only the cases with this flag (repeatable: any of them)\n"
          "  --timeout SEC      the time limit of one case (default 10); a program that\n"
          "                     exceeds it, exits, crashes or writes a line that is not a\n"
          "                     reply fails the case and is started again for the next one\n"
          "  --rule tol|certified  tol (default): numbers read as the nearest binary64 and\n"
          "                     judged by the case's tol, as fedref's fast; certified: read\n"
          "                     at full precision, judged by certified_bits, as fedref's ref\n"
          "  --format text|json|tap|junit   the report (stdout; default text)\n"
          "  --results FILE     judge the reply lines in FILE instead of running a program\n"
          "                     (each line also names its \"function\")\n"
          "  --emit-cases       write the request lines to stdout and stop\n"
          "\n"
          "Exit 0 every selected case passed or was skipped, 1 a case failed, 2 a usage\n"
          "or input error (a vector file rejected, a results file malformed, PROGRAM not\n"
          "executable).  Example (in a checkout; share/doc/fedref/examples installed):\n"
          "  fedref conform -- python3 examples/conform_adapter.py\n", f);
}

typedef struct {
    const char **functions; size_t nfunctions;
    long *ids; size_t nids;
    const char **flags; size_t nflags;
} cfilter;

static int add_ptr(void *list, size_t *n, size_t size, const void *item)
{
    char **l = (char **)list;
    char *b = realloc(*l, (*n + 1) * size);
    if (b == NULL) return -1;
    memcpy(b + *n * size, item, size);
    *l = b;
    (*n)++;
    return 0;
}

static int selected(const cfilter *flt, const vfile *f, const vcase *c)
{
    int ok = flt->nfunctions == 0;
    for (size_t i = 0; i < flt->nfunctions; i++) ok |= strcmp(flt->functions[i], f->fn->name) == 0;
    if (!ok) return 0;
    ok = flt->nids == 0;
    for (size_t i = 0; i < flt->nids; i++) ok |= flt->ids[i] == c->id;
    if (!ok) return 0;
    ok = flt->nflags == 0;
    for (size_t i = 0; i < flt->nflags; i++)
        for (size_t k = 0; k < c->nflags; k++) ok |= strcmp(flt->flags[i], c->flags[k]) == 0;
    return ok;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- requests ---- */

static json_t *field_json(const vspec *s, const vtensor *v)
{
    if (s->kind == VK_SCALAR || s->kind == VK_BOOL || s->kind == VK_CHOICE) return json_string(v->s[0]);
    json_t *a = json_array();
    if (s->kind == VK_VECTOR) {
        for (size_t j = 0; j < v->cols; j++) json_array_append_new(a, json_string(v->s[j]));
        return a;
    }
    for (size_t r = 0; r < v->rows; r++) {
        json_t *row = json_array();
        for (size_t j = 0; j < v->cols; j++) json_array_append_new(row, json_string(v->s[r * v->cols + j]));
        json_array_append_new(a, row);
    }
    return a;
}

static json_t *fields_json(const vspec *spec, const vtensor *v)
{
    json_t *o = json_object();
    for (size_t k = 0; spec[k].name; k++)
        if (!(spec[k].when && v[k].s == NULL))            /* an absent optional field */
            json_object_set_new(o, spec[k].name, field_json(&spec[k], &v[k]));
    return o;
}

/* The request line of case c (malloc'd), NULL out of memory. */
static char *request_line(const vfile *f, const vcase *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "protocol", json_string(CONFORM_PROTOCOL));
    json_object_set_new(o, "file", json_string(base_name(f->path)));
    json_object_set_new(o, "function", json_string(f->fn->name));
    json_object_set_new(o, "id", json_integer(c->id));
    json_object_set_new(o, "params", fields_json(f->fn->params, c->param));
    json_object_set_new(o, "input", fields_json(f->fn->inputs, c->input));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(o);
    return s;
}

/* ---- replies ---- */

/* The status the file's comment of an invalid case names ("...; status
 * FR_EDOM (ref and fast)"), or NULL. */
static const char *file_status(const vcase *c, char *buf, size_t n)
{
    const char *p = strstr(c->comment, "status FR_");
    if (p == NULL) return NULL;
    p += 7;
    size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
    snprintf(buf, n, "%.*s", (int)len, p);
    return buf;
}

/* Judge the reply o (a parsed line) to case c into r.  Returns 0, or -1
 * when the reply is not one for this case (the caller restarts the
 * program). */
static int judge_reply(const vfile *f, const vcase *c, json_t *o, int impl, cresult *r)
{
    static const char *const keys[] = {"id", "function", "file", "protocol", "output", "error",
                                       "unsupported", "message", NULL};
    if (!json_is_object(o)) { cresult_msg(r, "the reply is not a JSON object"); return -1; }
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        int ok = 0;
        for (const char *const *k = keys; *k; k++) ok |= strcmp(*k, key) == 0;
        if (!ok) { cresult_msg(r, "the reply has an unknown key \"%s\"", key); return -1; }
    }
    json_t *id = json_object_get(o, "id"), *fn = json_object_get(o, "function");
    if (!json_is_integer(id)) { cresult_msg(r, "the reply has no integer \"id\""); return -1; }
    if (json_integer_value(id) != c->id) {
        cresult_msg(r, "the reply is for id %lld, not %ld", (long long)json_integer_value(id), c->id);
        return -1;
    }
    if (fn && (!json_is_string(fn) || strcmp(json_string_value(fn), f->fn->name) != 0)) {
        cresult_msg(r, "the reply names another function than %s", f->fn->name);
        return -1;
    }
    json_t *out = json_object_get(o, "output"), *err = json_object_get(o, "error"),
           *uns = json_object_get(o, "unsupported"), *msg = json_object_get(o, "message");
    if ((out != NULL) + (err != NULL) + (uns != NULL) != 1) {
        cresult_msg(r, "the reply must have exactly one of \"output\", \"error\", \"unsupported\"");
        return -1;
    }
    if (uns) {
        if (!json_is_true(uns)) { cresult_msg(r, "\"unsupported\" must be true"); return -1; }
        r->status = CS_SKIP;
        cresult_msg(r, "unsupported");
        if (json_is_string(msg)) cresult_msg(r, "%s", json_string_value(msg));
        return 0;
    }
    r->status = CS_FAIL;
    char fst[32];
    const char *want = c->invalid ? file_status(c, fst, sizeof fst) : NULL;
    if (err) {
        int st = json_is_string(err) ? vstatus_parse(json_string_value(err)) : 1;
        if (st > 0 || st == FR_OK) {
            cresult_msg(r, "result: \"error\" must name an error class (FR_EDOM, FR_ENONFINITE, FR_ESIZE, "
                        "FR_ENULL, FR_ENOMEM, FR_EPREC, FR_EINTERNAL)");
        } else if (!c->invalid) {
            cresult_msg(r, "result: got error %s expected success", vstatus_name(st));
        } else if (!fr_is_domain_error(st)) {
            cresult_msg(r, "result: got error %s expected a domain error (FR_EDOM, FR_ENONFINITE, FR_ESIZE, "
                        "FR_ENULL; the file's: %s)", vstatus_name(st), want ? want : "?");
        } else {
            r->status = CS_PASS;
        }
        return 0;
    }
    if (c->invalid) {
        cresult_msg(r, "result: got an output expected a domain error (the file's: %s)", want ? want : "?");
        return 0;
    }
    vtensor res[VEC_MAX_FIELDS];
    char e[1024], name[64];
    snprintf(name, sizeof name, "reply to id %ld", c->id);
    if (vfields_read_json(out, f->fn->expects, name, "output", res, e, sizeof e) != 0) {
        cresult_msg(r, "output: %s", e);
    } else {
        vwrong w[MAX_WRONG];
        size_t nw = vcase_judge_output(f, c, res, impl, w, MAX_WRONG);
        for (size_t i = 0; i < nw && i < MAX_WRONG; i++) {
            char more[96] = "";
            if (w[i].nwrong > 1)
                snprintf(more, sizeof more, "; %zu of its %zu values wrong", w[i].nwrong, w[i].nvalues);
            cresult_msg(r, "%s: got %s expected %s (%s%s)%s", w[i].field, w[i].got, w[i].expected,
                        w[i].rule, w[i].why, more);
        }
        if (nw > MAX_WRONG) cresult_msg(r, "and %zu more wrong fields", nw - MAX_WRONG);
        if (nw == 0) r->status = CS_PASS;
    }
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) vt_free(&res[k]);
    return 0;
}

/* ---- results files ---- */

typedef struct { char *function; long id; json_t *reply; size_t line; } cline;
typedef struct { cline *l; size_t n; } cresults;

static int results_read(cresults *rs, const char *path)
{
    FILE *in = fopen(path, "r");
    if (in == NULL) { cli_error("cannot open the results file", path); return -1; }
    char *buf = NULL, where[4200];
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &cap, in)) >= 0) {
        lineno++;
        snprintf(where, sizeof where, "%s:%zu", path, lineno);
        if (strspn(buf, " \t\r\n") == (size_t)len) continue;          /* a blank line */
        json_error_t je;
        json_t *o = json_loads(buf, JSON_REJECT_DUPLICATES, &je);
        json_t *fn = o ? json_object_get(o, "function") : NULL, *id = o ? json_object_get(o, "id") : NULL;
        if (o == NULL) { cli_error(je.text, where); rc = -1; break; }
        if (!json_is_string(fn) || !json_is_integer(id)) {
            cli_error("a result line needs \"function\" (a string) and \"id\" (an integer)", where);
            json_decref(o);
            rc = -1;
            break;
        }
        for (size_t i = 0; i < rs->n; i++)
            if (rs->l[i].id == json_integer_value(id) && strcmp(rs->l[i].function, json_string_value(fn)) == 0) {
                char what[200];
                snprintf(what, sizeof what, "a second result for %s id %ld (the first on line %zu)",
                         rs->l[i].function, rs->l[i].id, rs->l[i].line);
                cli_error(what, where);
                rc = -1;
            }
        cline l = {strdup(json_string_value(fn)), (long)json_integer_value(id), o, lineno};
        if (rc != 0 || l.function == NULL || add_ptr(&rs->l, &rs->n, sizeof l, &l) != 0) {
            if (rc == 0) cli_error("out of memory", where);
            free(l.function);
            json_decref(o);
            rc = -1;
        }
    }
    free(buf);
    fclose(in);
    return rc;
}

static void results_free(cresults *rs)
{
    for (size_t i = 0; i < rs->n; i++) { free(rs->l[i].function); json_decref(rs->l[i].reply); }
    free(rs->l);
}

/* ---- vector files ---- */

typedef struct { vfile *f; size_t n; } cfiles;

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_one(cfiles *fs, const char *path)
{
    vfile f;
    char err[1024];
    if (vfile_read(&f, path, err, sizeof err) != 0) {
        cli_error(err, NULL);
        vfile_free(&f);
        return -1;
    }
    if (add_ptr(&fs->f, &fs->n, sizeof f, &f) != 0) { vfile_free(&f); cli_error("out of memory", path); return -1; }
    return 0;
}

/* A file, or every *.json of a directory in name order (index.json, the
 * index, excepted). */
static int read_path(cfiles *fs, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) { cli_error("no such vector file or directory", path); return -1; }
    if (!S_ISDIR(sb.st_mode)) return read_one(fs, path);
    DIR *d = opendir(path);
    if (d == NULL) { cli_error("cannot read the directory", path); return -1; }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || vindex_file_p(e->d_name)) continue;
        char *p = malloc(strlen(path) + len + 2);
        if (p == NULL) { rc = -1; break; }
        sprintf(p, "%s/%s", path, e->d_name);
        if (add_ptr(&names, &n, sizeof p, &p) != 0) { free(p); rc = -1; break; }
    }
    closedir(d);
    if (rc != 0) cli_error("out of memory", path);
    if (n == 0 && rc == 0) { cli_error("no *.json vector file in the directory", path); rc = -1; }
    if (n) qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) rc = read_one(fs, names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* ---- the command ---- */

static int usage_error(const char *what, const char *where)
{
    cli_error(what, where);
    fputs("(fedref conform --help says more)\n", stderr);
    return 2;
}

int cmd_conform(int argc, char **argv)
{
    cfilter flt = {0};
    const char **paths = NULL, *results = NULL, *format = "text", *rule = "tol";
    size_t npaths = 0;
    int emit = 0, rc = 2;
    double timeout = 10;
    char **program = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (cli_is_help(a)) { cli_conform_usage(stdout); rc = 0; goto out; }
        if (strcmp(a, "--") == 0) {
            if (i + 1 >= argc) { rc = usage_error("-- must be followed by the program", "conform"); goto out; }
            program = argv + i + 1;
            break;
        }
        if (strcmp(a, "--emit-cases") == 0) { emit = 1; continue; }
        int known = strcmp(a, "--vectors") == 0 || strcmp(a, "--function") == 0 || strcmp(a, "--id") == 0
                 || strcmp(a, "--flag") == 0 || strcmp(a, "--timeout") == 0 || strcmp(a, "--rule") == 0
                 || strcmp(a, "--format") == 0 || strcmp(a, "--results") == 0;
        if (!known) {
            rc = usage_error(a[0] == '-' ? "unknown option" : "unexpected argument (the program goes after --)", a);
            goto out;
        }
        if (v == NULL) { rc = usage_error("the option needs a value", a); goto out; }
        i++;
        int bad = 0;
        if (strcmp(a, "--vectors") == 0) bad = add_ptr(&paths, &npaths, sizeof v, &v);
        else if (strcmp(a, "--function") == 0) {
            if (vfunc_find(v) == NULL) { rc = usage_error("no such vector function", v); goto out; }
            bad = add_ptr(&flt.functions, &flt.nfunctions, sizeof v, &v);
        } else if (strcmp(a, "--id") == 0) {
            unsigned long id;
            if (cli_parse_ul(v, &id) != 0 || id > 0x7fffffffUL) { rc = usage_error("--id takes a case id", v); goto out; }
            long l = (long)id;
            bad = add_ptr(&flt.ids, &flt.nids, sizeof l, &l);
        } else if (strcmp(a, "--flag") == 0) {
            if (vflag_note(v) == NULL) { rc = usage_error("no such flag (the \"notes\" of each vector file list the flags it uses)", v); goto out; }
            bad = add_ptr(&flt.flags, &flt.nflags, sizeof v, &v);
        } else if (strcmp(a, "--timeout") == 0) {
            char *end;
            timeout = strtod(v, &end);
            if (*end || end == v || !(timeout > 0 && timeout <= 86400)) {
                rc = usage_error("--timeout takes seconds, > 0 and at most 86400", v);
                goto out;
            }
        } else if (strcmp(a, "--rule") == 0) {
            if (strcmp(v, "tol") != 0 && strcmp(v, "certified") != 0) { rc = usage_error("--rule takes tol or certified", v); goto out; }
            rule = v;
        } else if (strcmp(a, "--format") == 0) {
            if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "tap") && strcmp(v, "junit")) {
                rc = usage_error("--format takes text, json, tap or junit", v);
                goto out;
            }
            format = v;
        } else {
            results = v;
        }
        if (bad) { cli_error("out of memory", "conform"); goto out; }
    }
    if ((program != NULL) + (results != NULL) + emit != 1) {
        rc = usage_error("give exactly one of -- PROGRAM, --results FILE, --emit-cases", "conform");
        goto out;
    }

    cfiles fs = {0};
    char dir[4096];
    creport rep = {0};
    cresults rs = {0};
    size_t nsel = 0;
    cchild child = {program, 0, -1, -1, NULL, 0, 0};
    int impl = strcmp(rule, "tol") == 0 ? VCHECK_FAST : VCHECK_REF;
    if (npaths == 0) {
        if (cli_vectors_dir(NULL, dir, sizeof dir) != 0) { cli_error("cannot find the vectors (give --vectors)", NULL); goto done; }
        if (read_path(&fs, dir) != 0) goto done;
    }
    for (size_t i = 0; i < npaths; i++)
        if (read_path(&fs, paths[i]) != 0) goto done;
    if (results && results_read(&rs, results) != 0) goto done;
    rep.rule = rule;
    rep.source = program ? program[0] : results ? results : "";
    if (program) {                                  /* not executable: a usage error, before any case */
        char why[512];
        if (cchild_start(&child, why, sizeof why) != 0) { cli_error(why, NULL); goto done; }
    }
    for (size_t i = 0; i < fs.n; i++) {
        const vfile *f = &fs.f[i];
        for (size_t j = 0; j < f->ncases; j++) {
            const vcase *c = &f->cases[j];
            if (!selected(&flt, f, c)) continue;
            nsel++;
            char *req = request_line(f, c);
            if (req == NULL) { cli_error("out of memory", f->path); goto done; }
            if (emit) { printf("%s\n", req); free(req); continue; }
            cresult r = {base_name(f->path), f->fn->name, c->id, c->flags, c->nflags, CS_FAIL, NULL, 0, 0, NULL};
            if (program) {
                char why[512], *line;
                double t0 = cli_now();
                if (cchild_ask(&child, req, timeout, &line, why, sizeof why) != 0) {
                    cresult_msg(&r, "%s", why);
                } else {
                    json_error_t je;
                    json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je);
                    if (o == NULL) cresult_msg(&r, "the reply is not JSON: %s: \"%.80s\"", je.text, line);
                    if (o == NULL || judge_reply(f, c, o, impl, &r) != 0) {
                        r.status = CS_FAIL;
                        cchild_stop(&child, 0);         /* out of step: start afresh */
                    }
                    json_decref(o);
                }
                r.seconds = cli_now() - t0;
            } else {
                json_t *o = NULL;
                for (size_t k = 0; k < rs.n && o == NULL; k++)
                    if (rs.l[k].id == c->id && strcmp(rs.l[k].function, f->fn->name) == 0) o = rs.l[k].reply;
                if (o == NULL) cresult_msg(&r, "no result line for this case in %s", results);
                else if (judge_reply(f, c, o, impl, &r) != 0) r.status = CS_FAIL;
            }
            free(req);
            if (add_ptr(&rep.r, &rep.n, sizeof r, &r) != 0) { cli_error("out of memory", "conform"); goto done; }
        }
    }
    if (nsel == 0) { cli_error("no case matches the filters", "conform"); goto done; }
    if (emit) { rc = fflush(stdout) == 0 ? 0 : 2; goto done; }
    creport_print(&rep, format, stdout);
    ccounts k;
    creport_counts(&rep, &k);
    rc = k.cases[CS_FAIL] ? 1 : 0;
done:
    if (program) cchild_stop(&child, 2.0);
    free(child.buf);
    creport_free(&rep);
    results_free(&rs);
    for (size_t i = 0; i < fs.n; i++) vfile_free(&fs.f[i]);
    free(fs.f);
out:
    free(paths);
    free(flt.functions);
    free(flt.ids);
    free(flt.flags);
    return rc;
}
