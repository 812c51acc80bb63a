/* SPDX-License-Identifier: Apache-2.0 */
/* vread.c -- read and validate a fedref-vectors/2 file, or /1
 * (docs/VECTORS.md, "Changes").
 * Everything the checker relies on is checked here: the schema string, the
 * function, every key (unknown keys are errors), shapes, that every number
 * is a numeric string, that every boolean is the string "true" or "false",
 * that every choice is one of its strings, that an optional field is
 * present exactly when its condition holds, that expected values are
 * numbers or the specials nan, inf, -inf (an exact integer field, VC_INT:
 * an integer of at most VEC_DIGITS digits) and tolerances finite numbers
 * >= 0 (within MPFR's exponent range), that certified_bits is at most
 * VEC_CERTIFIED_BITS_MAX, that every flag is one a module defines, that
 * source, notes and comments are strings, and that ids are unique; in /2,
 * that "notes" declares exactly the flags the cases use (a case flag not
 * declared, a note no case uses, a flag twice in a case: errors; /1: a
 * case flag must be declared when "notes" is present).  Errors
 * are one line: "what (where)".  vschema.c writes the same rules as JSON
 * Schemas. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "vectors.h"

typedef struct { char *err; size_t len; const char *path; } ectx;

static int fail(ectx *e, const char *where, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(e->err, e->len, "%s (%s: %s)", what, e->path, where);
    return -1;
}

static int only_keys(ectx *e, json_t *obj, const char *where, const char *const *allowed)
{
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++) ok |= strcmp(*a, key) == 0;
        if (!ok) return fail(e, where, "unknown field \"%s\"", key);
    }
    return 0;
}

/* What a number may be: any (inputs, params: "nan" and "inf" are valid
 * inputs of invalid cases); an expected value: a number in MPFR's exponent
 * range, or exactly one of the specials "nan", "inf", "-inf" (a result
 * that is a special, e.g. an infinite privacy loss: the checker passes it
 * only for the same special); a tolerance: a finite number >= 0.  A decimal
 * whose exponent overflows or underflows MPFR's range (e.g.
 * "1e99999999999999999999") is rejected in both, or the checker would
 * compare with an infinity or a zero. */
/* An expected exact integer (VC_INT): an integer of at most VEC_DIGITS
 * digits (exact in the checker's MPFR), no special. */
enum numkind { NUM_ANY, NUM_EXPECT, NUM_TOL, NUM_INT };

static int numeric_string(ectx *e, json_t *j, const char *where, enum numkind kind, char **out)
{
    double d;
    if (!json_is_string(j))
        return fail(e, where, "a number must be a decimal string, found a JSON %s",
                    json_is_number(j) ? "number" : "non-string value");
    const char *s = json_string_value(j);
    if (num_parse_double(&d, s) != 0 || strlen(s) != json_string_length(j))   /* no embedded NUL */
        return fail(e, where, "non-numeric string \"%.100s\"", s);
    if (kind != NUM_ANY) {
        mpfr_t x;
        mpfr_init2(x, 64);
        mpfr_clear_flags();
        num_parse_mpfr(x, s);
        int range = mpfr_overflow_p() || mpfr_underflow_p();
        int special = strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0;
        int bad = range || (kind == NUM_TOL ? !mpfr_number_p(x) || mpfr_sgn(x) < 0
                                            : !mpfr_number_p(x) && !special);
        mpfr_clear(x);
        mpfr_clear_flags();
        const char *what = kind == NUM_TOL ? "a tolerance must be a finite number >= 0"
                                           : "an expected value must be a number or nan, inf, -inf";
        if (bad)
            return fail(e, where, "%s, found \"%.100s\"%s", what, s,
                        range ? " (beyond MPFR's exponent range)" : "");
        if (kind == NUM_INT && !num_is_integer(s, VEC_DIGITS))
            return fail(e, where, "an exact integer field must be an integer of at most %d digits, "
                        "found \"%.100s\"", VEC_DIGITS, s);
    }
    *out = strdup(s);
    return *out ? 0 : fail(e, where, "out of memory");
}

/* A boolean (VK_BOOL): exactly the JSON string "true" or "false".  A JSON
 * true/false, a number, "1", "TRUE", " true" are errors: the schema has
 * one spelling, so that every reader agrees on every file. */
static int bool_string(ectx *e, json_t *j, const char *where, char **out)
{
    static const char what[] = "a boolean must be the string \"true\" or \"false\"";
    if (!json_is_string(j))
        return fail(e, where, "%s, found a JSON %s", what,
                    json_is_true(j) ? "true" : json_is_false(j) ? "false" : json_is_number(j) ? "number"
                    : json_is_null(j) ? "null" : json_is_array(j) ? "array" : "object");
    const char *s = json_string_value(j);
    if (vt_bool_parse(s) < 0 || strlen(s) != json_string_length(j))   /* no embedded NUL */
        return fail(e, where, "%s, found \"%.100s\"", what, s);
    *out = strdup(s);
    return *out ? 0 : fail(e, where, "out of memory");
}

/* A choice (VK_CHOICE): exactly one of the JSON strings of choices. */
static int choice_string(ectx *e, json_t *j, const char *const *choices, const char *where, char **out)
{
    char list[200] = "";
    for (size_t i = 0; choices[i] && strlen(list) + strlen(choices[i]) + 5 < sizeof list; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "", choices[i]);
    if (!json_is_string(j))
        return fail(e, where, "a choice must be one of the strings %s, found a JSON %s", list,
                    json_is_number(j) ? "number" : "non-string value");
    const char *s = json_string_value(j);
    if (vt_choice_parse(choices, s) < 0 || strlen(s) != json_string_length(j))   /* no embedded NUL */
        return fail(e, where, "a choice must be one of the strings %s, found \"%.100s\"", list, s);
    *out = strdup(s);
    return *out ? 0 : fail(e, where, "out of memory");
}

/* Read one field of the given kind into v (numbers of the given numkind;
 * a VK_BOOL field is a boolean whatever the numkind; a VK_CHOICE field one
 * of choices). */
static int read_field(ectx *e, json_t *j, enum vkind kind, const char *const *choices, enum numkind nk,
                      const char *where, vtensor *v)
{
    char sub[300];
    v->rows = v->cols = 0; v->s = NULL; v->boolean = 0; v->choices = NULL;
    if (kind == VK_CHOICE) {
        v->rows = v->cols = 1;
        v->choices = choices;
        v->s = calloc(1, sizeof *v->s);
        return v->s ? choice_string(e, j, choices, where, &v->s[0]) : fail(e, where, "out of memory");
    }
    if (kind == VK_BOOL) {
        v->rows = v->cols = 1;
        v->boolean = 1;
        v->s = calloc(1, sizeof *v->s);
        return v->s ? bool_string(e, j, where, &v->s[0]) : fail(e, where, "out of memory");
    }
    if (kind == VK_SCALAR) {
        v->rows = v->cols = 1;
        v->s = calloc(1, sizeof *v->s);
        return v->s ? numeric_string(e, j, where, nk, &v->s[0]) : fail(e, where, "out of memory");
    }
    if (!json_is_array(j))
        return fail(e, where, "expected an array (%s)", kind == VK_VECTOR ? "vector" : "matrix");
    size_t rows = kind == VK_VECTOR ? 1 : json_array_size(j);
    size_t cols = kind == VK_VECTOR ? json_array_size(j) : 0;
    if (kind == VK_MATRIX && rows > 0) {
        json_t *r0 = json_array_get(j, 0);
        if (!json_is_array(r0)) return fail(e, where, "matrix rows must be arrays");
        cols = json_array_size(r0);
    }
    v->rows = rows; v->cols = cols;
    v->s = calloc(rows * cols > 0 ? rows * cols : 1, sizeof *v->s);
    if (v->s == NULL) return fail(e, where, "out of memory");
    for (size_t r = 0; r < rows; r++) {
        json_t *row = kind == VK_VECTOR ? j : json_array_get(j, r);
        if (!json_is_array(row)) { snprintf(sub, sizeof sub, "%.250s[%zu]", where, r); return fail(e, sub, "matrix rows must be arrays"); }
        if (json_array_size(row) != cols) {
            snprintf(sub, sizeof sub, "%.250s[%zu]", where, r);
            return fail(e, sub, "mismatched sizes: row has %zu entries, row 0 has %zu",
                        json_array_size(row), cols);
        }
        for (size_t c = 0; c < cols; c++) {
            if (kind == VK_VECTOR) snprintf(sub, sizeof sub, "%.250s[%zu]", where, c);
            else snprintf(sub, sizeof sub, "%.250s[%zu][%zu]", where, r, c);
            if (numeric_string(e, json_array_get(row, c), sub, nk, &v->s[r * cols + c]) != 0) return -1;
        }
    }
    return 0;
}

/* Read an object whose keys must be exactly the names of spec. */
static int read_fields(ectx *e, json_t *obj, const vspec *spec, enum numkind nk, const char *where,
                       vtensor *out)
{
    char sub[300];
    if (!json_is_object(obj)) return fail(e, where, "expected an object");
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        size_t k = 0;
        while (spec[k].name && strcmp(spec[k].name, key) != 0) k++;
        if (!spec[k].name) return fail(e, where, "unknown field \"%s\"", key);
    }
    for (size_t k = 0; spec[k].name; k++) {
        json_t *j = json_object_get(obj, spec[k].name);
        snprintf(sub, sizeof sub, "%.250s.%s", where, spec[k].name);
        out[k].rows = out[k].cols = 0; out[k].s = NULL; out[k].boolean = 0; out[k].choices = NULL;
        int want = 1;
        if (spec[k].when) {
            /* "NAME=VALUE": present iff the earlier choice field NAME is VALUE */
            const char *eq = strchr(spec[k].when, '=');
            size_t q = 0, nlen = eq ? (size_t)(eq - spec[k].when) : 0;
            while (q < k && !(strlen(spec[q].name) == nlen && strncmp(spec[q].name, spec[k].when, nlen) == 0)) q++;
            if (eq == NULL || q == k || spec[q].kind != VK_CHOICE)
                return fail(e, where, "schema bug: field \"%s\" has a bad condition", spec[k].name);
            want = strcmp(out[q].s[0], eq + 1) == 0;
            if (!want && j != NULL)
                return fail(e, where, "field \"%s\" is only allowed when %.*s is \"%s\"", spec[k].name,
                            (int)nlen, spec[k].when, eq + 1);
        }
        if (!want) continue;                              /* absent: 0 x 0 */
        if (j == NULL) return fail(e, where, "missing field \"%s\"", spec[k].name);
        enum numkind fk = nk == NUM_EXPECT && spec[k].cmp == VC_INT ? NUM_INT : nk;
        if (read_field(e, j, spec[k].kind, spec[k].choices, fk, sub, &out[k]) != 0) return -1;
    }
    return 0;
}

/* notes: the file's "notes" when its flags must be declared there (else
 * NULL); v2: the file is fedref-vectors/2 (no flag twice in a case). */
static int read_case(ectx *e, const vfunc *fn, json_t *jc, json_t *params, json_t *notes, int v2,
                     const char *where, vcase *c)
{
    static const char *const keys[] = {"id", "comment", "flags", "input", "expect", "tol",
                                       "result", "certified_bits", NULL};
    char sub[300];
    if (!json_is_object(jc)) return fail(e, where, "a case must be an object");
    if (only_keys(e, jc, where, keys) != 0) return -1;
    json_t *j = json_object_get(jc, "id");
    if (!json_is_integer(j)) return fail(e, where, "missing or non-integer \"id\"");
    c->id = (long)json_integer_value(j);
    j = json_object_get(jc, "comment");
    if (j && !json_is_string(j)) return fail(e, where, "\"comment\" must be a string");
    if ((c->comment = strdup(j ? json_string_value(j) : "")) == NULL) return fail(e, where, "out of memory");
    j = json_object_get(jc, "flags");
    if (j) {
        if (!json_is_array(j)) return fail(e, where, "\"flags\" must be an array of strings");
        c->flags = calloc(json_array_size(j) + 1, sizeof *c->flags);
        if (c->flags == NULL) return fail(e, where, "out of memory");
        c->nflags = json_array_size(j);
        for (size_t i = 0; i < c->nflags; i++) {
            json_t *f = json_array_get(j, i);
            if (!json_is_string(f)) return fail(e, where, "\"flags\" must be an array of strings");
            if (vflag_note(json_string_value(f)) == NULL)
                return fail(e, where, "unknown flag \"%.100s\"", json_string_value(f));
            if (notes && json_object_get(notes, json_string_value(f)) == NULL)
                return fail(e, where, "flag \"%.100s\" is not declared in \"notes\"", json_string_value(f));
            for (size_t q = 0; v2 && q < i; q++)
                if (strcmp(c->flags[q], json_string_value(f)) == 0)
                    return fail(e, where, "flag \"%.100s\" twice in \"flags\"", json_string_value(f));
            if ((c->flags[i] = strdup(json_string_value(f))) == NULL) return fail(e, where, "out of memory");
        }
    }
    j = json_object_get(jc, "result");
    if (j && (!json_is_string(j) || (strcmp(json_string_value(j), "valid") != 0
                                     && strcmp(json_string_value(j), "invalid") != 0)))
        return fail(e, where, "\"result\" must be \"valid\" or \"invalid\"");
    c->invalid = j && strcmp(json_string_value(j), "invalid") == 0;
    j = json_object_get(jc, "certified_bits");
    if (j && (!json_is_integer(j) || json_integer_value(j) < 1
              || json_integer_value(j) > VEC_CERTIFIED_BITS_MAX))
        return fail(e, where, "\"certified_bits\" must be an integer in [1, %d]", VEC_CERTIFIED_BITS_MAX);
    c->certified_bits = j ? (long)json_integer_value(j) : 0;
    snprintf(sub, sizeof sub, "%.250s.params", where);
    if (read_fields(e, params, fn->params, NUM_ANY, sub, c->param) != 0) return -1;
    snprintf(sub, sizeof sub, "%.250s.input", where);
    j = json_object_get(jc, "input");
    if (j == NULL) return fail(e, where, "missing field \"input\"");
    if (read_fields(e, j, fn->inputs, NUM_ANY, sub, c->input) != 0) return -1;
    j = json_object_get(jc, "expect");
    if (c->invalid) {
        if (j) return fail(e, where, "an invalid case must not have \"expect\"");
        if (json_object_get(jc, "tol")) return fail(e, where, "an invalid case must not have \"tol\"");
        return 0;
    }
    if (j == NULL) return fail(e, where, "missing field \"expect\"");
    snprintf(sub, sizeof sub, "%.250s.expect", where);
    if (read_fields(e, j, fn->expects, NUM_EXPECT, sub, c->expect) != 0) return -1;
    j = json_object_get(jc, "tol");
    static const char *const tkeys[] = {"rel", "abs", NULL};
    snprintf(sub, sizeof sub, "%.250s.tol", where);
    if (j == NULL || !json_is_object(j)) return fail(e, where, "a valid case needs \"tol\": {\"rel\", \"abs\"}");
    if (only_keys(e, j, sub, tkeys) != 0) return -1;
    for (const char *const *k = tkeys; *k; k++)
        if (json_object_get(j, *k) == NULL) return fail(e, sub, "missing field \"%s\"", *k);
    vtensor t;
    snprintf(sub, sizeof sub, "%.250s.tol.rel", where);
    if (read_field(e, json_object_get(j, "rel"), VK_SCALAR, NULL, NUM_TOL, sub, &t) != 0) { vt_free(&t); return -1; }
    c->tol_rel = t.s[0]; free(t.s);
    snprintf(sub, sizeof sub, "%.250s.tol.abs", where);
    if (read_field(e, json_object_get(j, "abs"), VK_SCALAR, NULL, NUM_TOL, sub, &t) != 0) { vt_free(&t); return -1; }
    c->tol_abs = t.s[0]; free(t.s);
    return 0;
}

/* Case ids, sorted with their position in the file, to find duplicates in
 * O(n log n). */
typedef struct { long id; size_t pos, g, k; } idpos;

static int idpos_cmp(const void *a, const void *b)
{
    const idpos *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The first case (in file order) whose id an earlier case has. */
static int check_ids(ectx *e, idpos *ids, size_t n)
{
    qsort(ids, n, sizeof *ids, idpos_cmp);
    const idpos *dup = NULL;
    for (size_t q = 1; q < n; q++)
        if (ids[q].id == ids[q - 1].id && (dup == NULL || ids[q].pos < dup->pos)) dup = &ids[q];
    if (dup == NULL) return 0;
    char where[300];
    snprintf(where, sizeof where, "groups[%zu].cases[%zu]", dup->g, dup->k);
    return fail(e, where, "duplicate case id %ld", dup->id);
}

/* fedref-vectors/2: every note is the flag of some case (the file lists
 * only the notes it uses). */
static int check_notes_used(ectx *e, json_t *notes, const vfile *f)
{
    const char *key;
    json_t *val;
    json_object_foreach(notes, key, val) {
        int used = 0;
        for (size_t i = 0; i < f->ncases && !used; i++)
            for (size_t k = 0; k < f->cases[i].nflags && !used; k++) used = strcmp(f->cases[i].flags[k], key) == 0;
        if (!used) return fail(e, "notes", "note \"%.100s\" is not used by any case", key);
    }
    return 0;
}

/* Validate the parsed document root into f (f->path set). */
static int read_root(vfile *f, json_t *root, ectx *ep)
{
    static const char *const top[] = {"schema", "function", "source", "generator", "groups",
                                      "notes", "changelog", NULL};
    ectx e = *ep;
    idpos *ids = NULL;
    int rc = -1;
    json_t *j;
    if (!json_is_object(root)) { fail(&e, "top level", "expected an object"); goto out; }
    if (only_keys(&e, root, "top level", top) != 0) goto out;
    j = json_object_get(root, "schema");
    f->version = !json_is_string(j) ? 0 : strcmp(json_string_value(j), VEC_SCHEMA) == 0 ? 2
               : strcmp(json_string_value(j), VEC_SCHEMA_V1) == 0 ? 1 : 0;
    if (f->version == 0) {
        fail(&e, "schema", "unsupported schema, expected \"%s\" (or \"%s\")", VEC_SCHEMA, VEC_SCHEMA_V1);
        goto out;
    }
    j = json_object_get(root, "function");
    if (!json_is_string(j)) { fail(&e, "function", "missing \"function\""); goto out; }
    if ((f->fn = vfunc_find(json_string_value(j))) == NULL) {
        fail(&e, "function", "unknown function \"%s\"", json_string_value(j)); goto out;
    }
    j = json_object_get(root, "source");
    if (j && !json_is_string(j)) { fail(&e, "source", "\"source\" must be a string"); goto out; }
    json_t *notes = json_object_get(root, "notes");
    if (notes) {
        const char *key;
        json_t *val;
        int ok = json_is_object(notes);
        if (ok) json_object_foreach(notes, key, val) ok &= json_is_string(val);
        if (!ok) { fail(&e, "notes", "\"notes\" must be an object of strings"); goto out; }
        if (f->version == 2)
            json_object_foreach(notes, key, val)
                if (vflag_note(key) == NULL) { fail(&e, "notes", "unknown flag \"%.100s\"", key); goto out; }
    } else if (f->version == 2) {
        fail(&e, "top level", "missing \"notes\" (the notes of the flags the cases use; {} if none)"); goto out;
    }
    j = json_object_get(root, "generator");
    if (j) {
        json_t *pb = json_object_get(j, "precision_bits");
        if (!json_is_object(j) || (pb && !json_is_integer(pb))) {
            fail(&e, "generator", "\"generator\" must be an object with an integer \"precision_bits\""); goto out;
        }
        f->precision_bits = pb ? (long)json_integer_value(pb) : 0;
    }
    j = json_object_get(root, "changelog");
    if (j) {
        int ok = json_is_array(j);
        for (size_t k = 0; ok && k < json_array_size(j); k++)
            ok = json_is_string(json_array_get(j, k));
        if (!ok) { fail(&e, "changelog", "\"changelog\" must be an array of strings"); goto out; }
    }
    json_t *groups = json_object_get(root, "groups");
    if (!json_is_array(groups) || json_array_size(groups) == 0) {
        fail(&e, "groups", "\"groups\" must be a non-empty array"); goto out;
    }
    size_t total = 0;
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *cs = json_object_get(json_array_get(groups, g), "cases");
        total += json_is_array(cs) ? json_array_size(cs) : 0;
    }
    f->cases = calloc(total ? total : 1, sizeof *f->cases);
    ids = malloc((total ? total : 1) * sizeof *ids);
    if (f->cases == NULL || ids == NULL) { fail(&e, "groups", "out of memory"); goto out; }
    static const char *const gkeys[] = {"params", "cases", "comment", NULL};
    char where[300];
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *grp = json_array_get(groups, g);
        snprintf(where, sizeof where, "groups[%zu]", g);
        if (!json_is_object(grp)) { fail(&e, where, "a group must be an object"); goto out; }
        if (only_keys(&e, grp, where, gkeys) != 0) goto out;
        json_t *gc = json_object_get(grp, "comment");
        if (gc && !json_is_string(gc)) { fail(&e, where, "\"comment\" must be a string"); goto out; }
        json_t *params = json_object_get(grp, "params");
        json_t *cs = json_object_get(grp, "cases");
        json_t *empty = json_object();
        if (params == NULL) params = empty;
        if (!json_is_array(cs)) { json_decref(empty); fail(&e, where, "\"cases\" must be an array"); goto out; }
        for (size_t k = 0; k < json_array_size(cs); k++) {
            vcase *c = &f->cases[f->ncases++];
            snprintf(where, sizeof where, "groups[%zu].cases[%zu]", g, k);
            c->group_label = NULL;
            if (read_case(&e, f->fn, json_array_get(cs, k), params, notes, f->version == 2, where, c) != 0) {
                json_decref(empty); goto out;
            }
            ids[f->ncases - 1] = (idpos){c->id, f->ncases - 1, g, k};
        }
        json_decref(empty);
    }
    if (check_ids(&e, ids, f->ncases) != 0) goto out;
    if (f->version == 2 && check_notes_used(&e, notes, f) != 0) goto out;
    rc = 0;
out:
    free(ids);
    return rc;
}

int vfile_read(vfile *f, const char *path, char *err, size_t errlen)
{
    ectx e = {err, errlen, path};
    json_error_t je;
    memset(f, 0, sizeof *f);
    if ((f->path = strdup(path)) == NULL) { snprintf(err, errlen, "out of memory (%s)", path); return -1; }
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (root == NULL) {
        if (je.line < 0)
            snprintf(err, errlen, "cannot read file: %s (%s)", je.text, path);
        else
            snprintf(err, errlen, "malformed JSON: %s (%s:%d:%d)", je.text, path, je.line, je.column);
        return -1;
    }
    int rc = read_root(f, root, &e);
    json_decref(root);
    return rc;
}

int vfile_read_buffer(vfile *f, const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
    ectx e = {err, errlen, name};
    json_error_t je;
    memset(f, 0, sizeof *f);
    if ((f->path = strdup(name)) == NULL) { snprintf(err, errlen, "out of memory (%s)", name); return -1; }
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (root == NULL) {
        snprintf(err, errlen, "malformed JSON: %s (%s:%d:%d)", je.text, name, je.line, je.column);
        return -1;
    }
    int rc = read_root(f, root, &e);
    json_decref(root);
    return rc;
}

static void free_fields(vtensor *v)
{
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) vt_free(&v[k]);
}

void vfile_free(vfile *f)
{
    for (size_t i = 0; i < f->ncases; i++) {
        vcase *c = &f->cases[i];
        free(c->comment);
        for (size_t k = 0; k < c->nflags; k++) free(c->flags[k]);
        free(c->flags);
        free_fields(c->param); free_fields(c->input); free_fields(c->expect);
        free(c->tol_rel); free(c->tol_abs);
    }
    free(f->cases);
    free(f->path);
    memset(f, 0, sizeof *f);
}

int vfields_read_json(struct json_t *obj, const vspec *spec, const char *name, const char *where,
                      vtensor *out, char *err, size_t errlen)
{
    ectx e = {err, errlen, name};
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) {
        out[k].rows = out[k].cols = 0; out[k].s = NULL; out[k].boolean = 0; out[k].choices = NULL;
    }
    return read_fields(&e, obj, spec, NUM_ANY, where, out);
}
