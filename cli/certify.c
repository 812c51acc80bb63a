/* SPDX-License-Identifier: Apache-2.0 */
/* certify.c -- `fedref certify`: golden vectors for the user's own case of
 * any vector function (docs/CERTIFY.md): the case's params and inputs from
 * a JSON file (the fields of the function's vector files) and, for a run,
 * its data from a CSV file; ref certified by precision doubling as `vectors
 * gen` certifies the committed files (vectors/vgen.c), with a checkpoint
 * after every ref evaluation (--resume), over the ranks of an MPI job in
 * the fedref-mpi program (xport.h).  The file written is the same, byte
 * for byte, with or without a resume and for every number of ranks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "certify.h"
#include "cli.h"
#include "xport.h"

void cli_certify_usage(FILE *f)
{
    fputs("usage: fedref certify FUNCTION CASE -o OUT [--data FILE --clients N] [OPTIONS]\n"
          "       fedref certify --template FUNCTION\n"
          "       fedref certify --list\n"
          "\n"
          "Certify ref's outputs on your own case of a vector function and write them as\n"
          "a golden-vector file (fedref-vectors/2) that `fedref vectors check` and `fedref\n"
          "conform` read: every expected value a 40-digit decimal certified to 130 bits by\n"
          "precision doubling, exactly as the committed files are (docs/CERTIFY.md).\n"
          "\n"
          "  FUNCTION          a vector function (--list: those that take a data set)\n"
          "  CASE              a JSON file {\"comment\": ..., \"params\": {...}, \"input\": {...}}\n"
          "                    with the fields of FUNCTION's vector files; --template prints\n"
          "                    one (the function's first committed case) to edit\n"
          "  -o, --out OUT     the vector file to write (atomically)\n"
          "  --data FILE       fill the run's data fields (matrix, labels, client sizes)\n"
          "                    from a CSV file: sklearn's layout with its header line, or\n"
          "                    bare rows with --features D --classes K (fedref data info)\n"
          "  --clients N       the number of clients the data are split among (near-equal\n"
          "                    contiguous blocks of the samples; of the features for 000's\n"
          "                    feature-based runs); required with --data\n"
          "  --checkpoint FILE the checkpoint, rewritten after every ref evaluation\n"
          "                    (default OUT.checkpoint; removed once OUT is written)\n"
          "  --no-checkpoint   keep none\n"
          "  --resume          continue an interrupted certification from its checkpoint\n"
          "                    (the same FUNCTION, CASE, data and fedref version)\n"
          "  --quiet           no progress on stderr\n"
          "\n"
          "Progress (each ref evaluation, its precision, time and the time left) goes\n"
          "to stderr.  Under MPI, `mpirun -n P fedref-mpi certify ...` spreads the ref\n"
          "evaluations over the ranks and writes the same bytes for every P.\n"
          "Exit 0 written, 2 a usage or input error or a certification that failed.\n", f);
}

static const vfunc *find_fn(const char *name)
{
    const vfunc *fn = vfunc_find(name);
    if (fn == NULL) cli_error("unknown vector function (fedref vectors list, fedref certify --list)", name);
    return fn;
}

static int list_runs(void)
{
    for (const vfunc *const *f = vfunc_all(); *f; f++)
        if ((*f)->data)
            printf("%-20s %s; --data fills %s, %s, %s%s%s\n", (*f)->name, (*f)->source, (*f)->data->matrix,
                   (*f)->data->labels, (*f)->data->sizes, (*f)->data->when ? " when " : "",
                   (*f)->data->when ? (*f)->data->when : "");
    return 0;
}

/* The first valid case of fn's golden list, as a case file. */
static int template(const vfunc *fn)
{
    json_t *root = NULL;
    char err[1024];
    vgen_opts o = {.dry = 1, .no_write = 1, .root = &root};
    if (vectors_generate_opts(fn, "-", &o, err, sizeof err) != 0) { cli_error(err, fn->name); return 2; }
    size_t g, k;
    json_t *grp, *c, *out = NULL;
    /* a run's first case that takes a data set (004: kind=np), else the first */
    for (int pass = fn->data && fn->data->when ? 0 : 1; pass < 2 && out == NULL; pass++)
    json_array_foreach(json_object_get(root, "groups"), g, grp) {
        json_array_foreach(json_object_get(grp, "cases"), k, c) {
            if (out || json_object_get(c, "result")) continue;
            if (pass == 0 && !certify_data_when(fn->data, json_object_get(c, "input"))) continue;
            out = json_object();
            json_object_set_new(out, "function", json_string(fn->name));
            json_object_set(out, "comment", json_object_get(c, "comment"));
            json_object_set(out, "params", json_object_get(grp, "params"));
            json_object_set(out, "input", json_object_get(c, "input"));
        }
    }
    json_decref(root);
    if (out == NULL) { cli_error("the function has no valid committed case", fn->name); return 2; }
    char *s = json_dumps(out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(out);
    if (s == NULL) { cli_error("out of memory", "certify --template"); return 2; }
    printf("%s\n", s);
    free(s);
    return 0;
}

typedef struct {
    const vfunc *fn;
    const char *comment;
    ftensor par[VEC_MAX_FIELDS], in[VEC_MAX_FIELDS];
} user_case;

static void golden_user(vgen *g, void *arg)
{
    user_case *u = arg;
    vg_group_fields(g, u->comment, u->par);
    vg_case(g, u->comment, "", 0, u->in);
}

static void case_free(user_case *u, json_t *doc)
{
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { ft_free(&u->par[k]); ft_free(&u->in[k]); }
    json_decref(doc);
}

/* Read CASE (and the data) into u; *doc keeps the comment alive. */
static int read_case(user_case *u, json_t **doc, const char *path, const char *data, size_t features,
                     size_t classes, unsigned long clients)
{
    const vfunc *fn = u->fn;
    json_error_t je;
    char err[1024], where[4200];
    *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (*doc == NULL) {
        snprintf(where, sizeof where, "%s: line %d, column %d", path, je.line, je.column);
        cli_error(je.text, where);
        return -1;
    }
    json_t *root = *doc;
    if (!json_is_object(root)) { cli_error("a case file must be a JSON object", path); return -1; }
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        if (strcmp(key, "function") && strcmp(key, "comment") && strcmp(key, "params") && strcmp(key, "input")) {
            snprintf(where, sizeof where, "%s: \"%s\" (function, comment, params and input only)", path, key);
            cli_error("unknown key", where);
            return -1;
        }
    }
    const char *f = json_string_value(json_object_get(root, "function"));
    if (json_object_get(root, "function") && (f == NULL || strcmp(f, fn->name) != 0)) {
        snprintf(where, sizeof where, "%s: \"function\" is not \"%s\"", path, fn->name);
        cli_error("a case of another function", where);
        return -1;
    }
    json_t *cm = json_object_get(root, "comment");
    if (cm && !json_is_string(cm)) { cli_error("\"comment\" must be a string", path); return -1; }
    u->comment = cm ? json_string_value(cm) : "a case certified by fedref certify";
    json_t *input = json_object_get(root, "input");
    if (input == NULL) json_object_set_new(root, "input", input = json_object());
    if (data && json_is_object(input)) {
        char said[600];
        if (certify_data_fill(fn, input, data, features, classes, clients, said, sizeof said, err, sizeof err) != 0) {
            cli_error(err, data);
            return -1;
        }
        /* the comment says where the data fields come from */
        json_t *c2 = json_sprintf("%s; %s", u->comment, said);
        if (c2 == NULL) { cli_error("out of memory", path); return -1; }
        json_object_set_new(root, "comment", c2);
        u->comment = json_string_value(c2);
    }
    vtensor vp[VEC_MAX_FIELDS], vi[VEC_MAX_FIELDS];
    int rc = -1;
    if (vfields_read_json(json_object_get(root, "params"), fn->params, path, "params", vp, err, sizeof err) != 0) {
        cli_error(err, "certify");
    } else if (vfields_read_json(input, fn->inputs, path, "input", vi, err, sizeof err) != 0) {
        cli_error(err, "certify");
        for (size_t k = 0; k < VEC_MAX_FIELDS; k++) vt_free(&vp[k]);
    } else {
        rc = 0;
        for (size_t k = 0; fn->params[k].name && rc == 0; k++) rc = ft_from_v(&u->par[k], &vp[k]);
        for (size_t k = 0; fn->inputs[k].name && rc == 0; k++) rc = ft_from_v(&u->in[k], &vi[k]);
        if (rc != 0) cli_error("a field is not a number", path);
        for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { vt_free(&vp[k]); vt_free(&vi[k]); }
    }
    return rc;
}

/* fast's status on the case: the argument checks are the same in ref and
 * fast (docs/DESIGN.md section 5), and fast answers in a fraction of one
 * ref evaluation; nothing fast computes is used. */
static int preflight(const user_case *u)
{
    ftensor out[VEC_MAX_FIELDS] = {{0}}, par[VEC_MAX_FIELDS], in[VEC_MAX_FIELDS];
    memcpy(par, u->par, sizeof par);
    memcpy(in, u->in, sizeof in);
    int st = u->fn->fast(par, in, out);
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) ft_free(&out[k]);
    if (st != FR_OK) {
        /* the input shapes as filled (an input sized by the clients, e.g.
         * 002's Delta, is the case's to give and must match --clients) */
        char shapes[400] = "", what[640];
        size_t at = 0;
        for (size_t k = 0; u->fn->inputs[k].name && at < sizeof shapes; k++) {
            int n = snprintf(shapes + at, sizeof shapes - at, "%s%s %zux%zu", k ? ", " : "",
                             u->fn->inputs[k].name, u->in[k].rows, u->in[k].cols);
            at = n < 0 ? sizeof shapes : at + (size_t)n;
        }
        const char *name = vstatus_name(st);
        snprintf(what, sizeof what, "the case is outside the function's domain: status %s (inputs as filled: %s; "
                 "check the fields' shapes and values against docs/VECTORS.md and the function's docs)",
                 name ? name : "?", shapes);
        cli_error(what, u->fn->name);
        return -1;
    }
    return 0;
}

static int file_exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static int run(int argc, char **argv)
{
    const char *fname = NULL, *casep = NULL, *outp = NULL, *data = NULL, *ckpt = NULL;
    unsigned long clients = 0, features = 0, classes = 0;
    int resume = 0, nockpt = 0, quiet = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        unsigned long *num = NULL;
        if ((strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) && has) outp = argv[++i];
        else if (strcmp(a, "--data") == 0 && has) data = argv[++i];
        else if (strcmp(a, "--checkpoint") == 0 && has) ckpt = argv[++i];
        else if (strcmp(a, "--clients") == 0 && has) num = &clients;
        else if (strcmp(a, "--features") == 0 && has) num = &features;
        else if (strcmp(a, "--classes") == 0 && has) num = &classes;
        else if (strcmp(a, "--resume") == 0) resume = 1;
        else if (strcmp(a, "--no-checkpoint") == 0) nockpt = 1;
        else if (strcmp(a, "--quiet") == 0) quiet = 1;
        else if (a[0] == '-' && a[1] != '\0') {
            cli_error(has || strncmp(a, "--", 2) != 0 ? "unknown option" : "option needs a value", a);
            return 2;
        } else if (fname == NULL) fname = a;
        else if (casep == NULL) casep = a;
        else { cli_error("one FUNCTION and one CASE file", a); return 2; }
        if (num) {
            int r = cli_parse_ul(argv[++i], num);
            if (r != 0) { cli_bad_ul(argv[i]); return 2; }
        }
    }
    if (fname == NULL || casep == NULL) { cli_error("missing FUNCTION or CASE", "certify"); cli_certify_usage(stderr); return 2; }
    if (outp == NULL) { cli_error("missing -o OUT", "certify"); return 2; }
    if ((data != NULL) != (clients != 0)) { cli_error("--data and --clients N (N >= 1) go together", "certify"); return 2; }
    if (features == 0 && classes != 0) { cli_error("--classes goes with --features (bare CSV rows)", "certify"); return 2; }
    if (features != 0 && classes == 0) { cli_error("--features needs --classes K", "certify"); return 2; }
    if (nockpt && (resume || ckpt)) { cli_error("--no-checkpoint excludes --resume and --checkpoint", "certify"); return 2; }
    user_case u = {.fn = find_fn(fname)};
    if (u.fn == NULL) return 2;
    json_t *doc = NULL;
    if (read_case(&u, &doc, casep, data, features, classes, clients) != 0 || preflight(&u) != 0) {
        case_free(&u, doc);
        return 2;
    }
    int me = xp_rank();
    char path[4200], err[1024];
    cstore st = {0};
    snprintf(st.function, sizeof st.function, "%s", u.fn->name);
    st.digest = cstore_case_digest(u.fn, u.par, u.in);
    if (!nockpt) {
        snprintf(path, sizeof path, "%s%s", ckpt ? ckpt : outp, ckpt ? "" : ".checkpoint");
        st.path = strdup(path);
    }
    /* the checkpoint: read by rank 0, given to every rank */
    int ok = 1;
    char *bytes = NULL;
    size_t nbytes = 0;
    int have = !nockpt && file_exists(path);
    if (have && !resume) {
        cli_error("a checkpoint of an interrupted certification exists: --resume to continue it, or remove it",
                  path);
        ok = 0;
    } else if (have && me == 0 && cstore_slurp(path, &bytes, &nbytes, err, sizeof err) != 0) {
        cli_error(err, "certify --resume");
        ok = 0;
    }
    if (xp_all(ok) && have) {
        if (xp_bcast(&bytes, &nbytes, 0) != 0) { cli_error("the transport failed", "certify --resume"); ok = 0; }
        else if (cstore_parse(&st, bytes, nbytes, path, err, sizeof err) != 0) { cli_error(err, "certify --resume"); ok = 0; }
        else if (!quiet && me == 0) cli_progress("certify: resuming from %s (%zu ref evaluations kept)", path, st.n);
    } else if (resume && !have && !quiet && me == 0) {
        cli_progress("certify: no checkpoint at %s: starting from the beginning", path);
    }
    free(bytes);
    if (me != 0) { free(st.path); st.path = NULL; }      /* only rank 0 writes */
    int rc = 2;
    if (xp_all(ok)) {
        ceval ev = {.store = &st, .quiet = quiet, .t_start = cli_now()};
        vgen_opts o = {.golden = golden_user, .golden_arg = &u, .eval = certify_eval,
                       .eval_error = certify_eval_error, .eval_arg = &ev, .no_write = me != 0};
        if (!quiet && me == 0)
            cli_progress("certify: %s, case from %s, on %s", u.fn->name, casep, xp_describe());
        double t0 = cli_now();
        if (!quiet) cli_steps_begin("certify");          /* the heartbeat of long evaluations */
        int g = vectors_generate_opts(u.fn, outp, &o, err, sizeof err);
        if (!quiet) cli_steps_end();
        if (!xp_all(g == 0)) {
            if (g != 0) cli_error(err, outp);
        } else {
            rc = 0;
            if (st.path) remove(st.path);
            if (me == 0)
                printf("wrote %s: function %s, 1 case certified to 130 bits; %lu ref evaluations (%lu from the "
                       "checkpoint, %lu by rank 0) in %.1f s on %s\n", outp, u.fn->name, ev.computed + ev.reused,
                       ev.reused, ev.mine, cli_now() - t0, xp_describe());
        }
    }
    cstore_free(&st);
    case_free(&u, doc);
    return rc;
}

int cmd_certify(int argc, char **argv)
{
    if (argc >= 1 && cli_is_help(argv[0])) { cli_certify_usage(stdout); return 0; }
    if (argc >= 1 && strcmp(argv[0], "--list") == 0) {
        if (argc > 1) { cli_error("--list takes nothing more", argv[1]); return 2; }
        return list_runs();
    }
    if (argc >= 1 && strcmp(argv[0], "--template") == 0) {
        if (argc != 2) { cli_error("--template takes one FUNCTION", "certify"); return 2; }
        const vfunc *fn = find_fn(argv[1]);
        return fn ? template(fn) : 2;
    }
    char err[256];
    if (xp_init(&argc, &argv, err, sizeof err) != 0) { cli_error(err, "certify"); return 2; }
    int rc = run(argc, argv);
    xp_finalize();
    return rc;
}
