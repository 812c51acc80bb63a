/* SPDX-License-Identifier: Apache-2.0 */
/* vschema.c -- the JSON Schema (draft 2020-12) of each function's file and
 * the index of the vector files (docs/VECTORS.md "Index and schemas"), both
 * generated from the tables the reader (vread.c) reads by: vfunc.params,
 * .inputs, .expects and the flag tables.  What the reader checks beyond a
 * schema (unique ids, equal matrix rows, MPFR's exponent range, an integer
 * field's value, a JSON integer written 5.0, duplicate keys, every case
 * flag declared in "notes" and every note used) is listed in
 * docs/VECTORS.md. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "vectors.h"

/* The decimal syntax of numfmt.c's well_formed; "$(?![\s\S])" is the end of
 * the string in both ECMA-262 and Python (whose "$" also matches before a
 * final newline). */
#define DEC "[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?"
#define END "$(?![\\s\\S])"
static const char pat_number[] = "^(" DEC "|[nN][aA][nN]|[+-]?[iI][nN][fF])" END;
static const char pat_expected[] = "^(" DEC "|nan|inf|-inf)" END;
static const char pat_integer[] = "^" DEC END;
static const char pat_tolerance[] = "^(\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?"
                                    "|-(0+(\\.0*)?|\\.0+)([eE][+-]?[0-9]+)?)" END;

static json_t *ref(const char *def)
{
    char buf[128];
    snprintf(buf, sizeof buf, "#/$defs/%s", def);
    return json_pack("{s:s}", "$ref", buf);
}

static json_t *string_pattern(const char *pat, const char *desc)
{
    return json_pack("{s:s, s:s, s:s}", "description", desc, "type", "string", "pattern", pat);
}

static json_t *strings(const char *const *s)
{
    json_t *a = json_array();
    for (; s && *s; s++) json_array_append_new(a, json_string(*s));
    return a;
}

/* The schema of one field as read_field reads it; number: the $defs name
 * of its numbers. */
static json_t *field_schema(const vspec *v, const char *number)
{
    switch (v->kind) {
    case VK_BOOL: return ref("boolean");
    case VK_CHOICE: return json_pack("{s:o}", "enum", strings(v->choices));
    case VK_SCALAR: return ref(number);
    case VK_VECTOR: return json_pack("{s:s, s:o}", "type", "array", "items", ref(number));
    case VK_MATRIX:
        return json_pack("{s:s, s:{s:s, s:o}}", "type", "array", "items", "type", "array", "items", ref(number));
    }
    return json_object();
}

/* An object holding exactly the fields of spec (read_fields): the fields
 * without a condition required; a field with "NAME=VALUE" present exactly
 * when NAME is VALUE. */
static json_t *fields_schema(const vspec *spec, int expect)
{
    json_t *props = json_object(), *req = json_array(), *all = json_array();
    for (const vspec *v = spec; v->name; v++) {
        const char *number = !expect ? "number" : v->cmp == VC_INT ? "integer" : "expected";
        json_object_set_new(props, v->name, field_schema(v, number));
        if (!v->when) { json_array_append_new(req, json_string(v->name)); continue; }
        const char *eq = strchr(v->when, '=');
        char name[64];
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - v->when) : 0, v->when);
        json_array_append_new(all, json_pack("{s:{s:[s], s:{s:{s:s}}}, s:{s:[s]}, s:{s:{s:[s]}}}",
            "if", "required", name, "properties", name, "const", eq ? eq + 1 : "",
            "then", "required", v->name, "else", "not", "required", v->name));
    }
    json_t *o = json_pack("{s:s, s:o, s:o, s:b}", "type", "object", "required", req, "properties", props,
                          "additionalProperties", 0);
    if (json_array_size(all)) json_object_set_new(o, "allOf", all);
    else json_decref(all);
    return o;
}

static void add_flag(const vflag *f, void *arg) { json_array_append_new(arg, json_string(f->name)); }

json_t *vschema_build(const vfunc *fn)
{
    char title[200];
    snprintf(title, sizeof title, "%s: a golden-vector file of %s (%s)", VEC_SCHEMA, fn->name, fn->source);
    json_t *flags = json_array();
    vflag_each(add_flag, flags);
    json_t *gprops = json_pack("{s:{s:s}, s:o, s:{s:s, s:o}}", "comment", "type", "string",
                               "params", ref("params"), "cases", "type", "array", "items", ref("case"));
    json_t *greq = fn->params[0].name ? json_pack("[s, s]", "params", "cases") : json_pack("[s]", "cases");
    json_t *cprops = json_pack("{s:{s:s}, s:{s:s}, s:{s:s, s:o, s:b}, s:{s:[s, s]}, s:o, s:o, s:o,"
                               " s:{s:s, s:i, s:i}}",
        "id", "type", "integer", "comment", "type", "string", "flags", "type", "array", "items", ref("flag"),
        "uniqueItems", 1,
        "result", "enum", "valid", "invalid", "input", ref("input"), "expect", ref("expect"),
        "tol", ref("tol"), "certified_bits", "type", "integer", "minimum", 1, "maximum", VEC_CERTIFIED_BITS_MAX);
    json_t *kase = json_pack("{s:s, s:[s, s], s:o, s:b,"
                             " s:{s:[s], s:{s:{s:s}}}, s:{s:{s:[{s:[s]}, {s:[s]}]}}, s:{s:[s, s]}}",
        "type", "object", "required", "id", "input", "properties", cprops, "additionalProperties", 0,
        "if", "required", "result", "properties", "result", "const", "invalid",
        "then", "not", "anyOf", "required", "expect", "required", "tol",
        "else", "required", "expect", "tol");
    json_t *defs = json_pack("{s:o, s:o, s:o, s:o, s:{s:[s, s]}, s:{s:o}, s:o, s:o, s:o, s:o,"
                             " s:{s:s, s:[s, s], s:{s:o, s:o}, s:b}}",
        "number", string_pattern(pat_number, "a decimal number or nan, inf, -inf (any case)"),
        "expected", string_pattern(pat_expected, "a decimal number or exactly nan, inf, -inf"),
        "integer", string_pattern(pat_integer, "an exact integer of at most 40 digits, as a decimal"),
        "tolerance", string_pattern(pat_tolerance, "a finite decimal number >= 0"),
        "boolean", "enum", "true", "false",
        "flag", "enum", flags,
        "params", fields_schema(fn->params, 0), "input", fields_schema(fn->inputs, 0),
        "expect", fields_schema(fn->expects, 1),
        "group", json_pack("{s:s, s:o, s:o, s:b}", "type", "object", "required", greq, "properties", gprops,
                           "additionalProperties", 0),
        "tol", "type", "object", "required", "rel", "abs", "properties", "rel", ref("tolerance"),
        "abs", ref("tolerance"), "additionalProperties", 0);
    json_object_set_new(defs, "case", kase);
    json_t *props = json_pack("{s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s, s:{s:{s:s}}}, s:{s:s, s:o, s:{s:s}},"
                              " s:{s:s, s:{s:s}}, s:{s:s, s:i, s:o}}",
        "schema", "const", VEC_SCHEMA, "function", "const", fn->name, "source", "type", "string",
        "generator", "type", "object", "properties", "precision_bits", "type", "integer",
        "notes", "type", "object", "propertyNames", ref("flag"), "additionalProperties", "type", "string",
        "changelog", "type", "array", "items", "type", "string",
        "groups", "type", "array", "minItems", 1, "items", ref("group"));
    return json_pack("{s:s, s:s, s:s, s:[s, s, s, s], s:o, s:b, s:o}",
        "$schema", "https://json-schema.org/draft/2020-12/schema", "title", title, "type", "object",
        "required", "schema", "function", "notes", "groups", "properties", props, "additionalProperties", 0,
        "$defs", defs);
}

static const char *kind_name(enum vkind k)
{
    static const char *const n[] = {"scalar", "vector", "matrix", "boolean", "choice"};
    return n[k];
}

static json_t *fields_index(const vspec *spec, int expect)
{
    static const char *const cmp[] = {"real", "integer", "upper", "lower", "exact"};
    json_t *a = json_array();
    for (const vspec *v = spec; v->name; v++) {
        json_t *shape = v->kind == VK_VECTOR ? json_pack("[s]", "n")
                      : v->kind == VK_MATRIX ? json_pack("[s, s]", "rows", "cols") : json_array();
        json_t *o = json_pack("{s:s, s:s, s:o}", "name", v->name, "kind", kind_name(v->kind), "shape", shape);
        if (v->kind == VK_CHOICE) json_object_set_new(o, "choices", strings(v->choices));
        if (v->when) json_object_set_new(o, "when", json_string(v->when));
        if (expect && v->kind != VK_BOOL && v->kind != VK_CHOICE)
            json_object_set_new(o, "compare", json_string(cmp[v->cmp]));
        json_array_append_new(a, o);
    }
    return a;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int vindex_file_p(const char *path)
{
    const char *b = strrchr(path, '/');
    return strcmp(b ? b + 1 : path, VEC_INDEX_FILE) == 0;
}

/* The index entry of a file read by the reader. */
static json_t *index_entry(const vfile *f, const char *name)
{
    const vfunc *fn = f->fn;
    char schema[200];
    snprintf(schema, sizeof schema, "schema/%s.schema.json", fn->name);
    size_t n = 0;
    for (size_t i = 0; i < f->ncases; i++) n += f->cases[i].nflags;
    char **all = malloc((n ? n : 1) * sizeof *all);
    n = 0;
    for (size_t i = 0; all && i < f->ncases; i++)
        for (size_t k = 0; k < f->cases[i].nflags; k++) all[n++] = f->cases[i].flags[k];
    if (all) qsort(all, n, sizeof *all, str_cmp);
    json_t *flags = json_array();
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(all[i], all[i - 1]) != 0) json_array_append_new(flags, json_string(all[i]));
    free(all);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:o, s:o, s:o}, s:I, s:o}",
        "file", name, "function", fn->name, "module", vfunc_module(fn), "source", fn->source,
        "schema", schema, "fields", "params", fields_index(fn->params, 0),
        "inputs", fields_index(fn->inputs, 0), "expects", fields_index(fn->expects, 1),
        "cases", (json_int_t)f->ncases, "flags", flags);
}

json_t *vindex_build(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (d == NULL) { snprintf(err, errlen, "cannot open the directory (%s)", dir); return NULL; }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || vindex_file_p(e->d_name)) continue;
        if (n == cap) {
            char **t = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (t == NULL) break;
            names = t;
        }
        if ((names[n] = strdup(e->d_name)) != NULL) n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, str_cmp);
    json_t *files = json_array(), *root = NULL;
    int bad = n == 0;
    if (bad) snprintf(err, errlen, "no *.json vector file (%s)", dir);
    for (size_t i = 0; i < n && !bad; i++) {
        char path[4096];
        vfile f;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (vfile_read(&f, path, err, errlen) != 0) bad = 1;
        else json_array_append_new(files, index_entry(&f, names[i]));
        vfile_free(&f);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    if (bad) json_decref(files);
    else root = json_pack("{s:s, s:o}", "schema", VEC_SCHEMA, "files", files);
    return root;
}

static int dump(json_t *j, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    int rc = f == NULL || json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', f) == EOF;
    if (f && fclose(f) != 0) rc = 1;
    if (rc) snprintf(err, errlen, "cannot write (%s)", path);
    return rc ? -1 : 0;
}

int vectors_schema_write(const char *dir, const char *out, char *err, size_t errlen)
{
    char path[4096];
    json_t *index = vindex_build(dir, err, errlen);
    if (index == NULL) return -1;
    snprintf(path, sizeof path, "%s/schema", out);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create the directory (%s)", path);
        json_decref(index);
        return -1;
    }
    int rc = 0;
    for (const vfunc *const *fn = vfunc_all(); *fn && rc == 0; fn++) {
        json_t *s = vschema_build(*fn);
        snprintf(path, sizeof path, "%s/schema/%s.schema.json", out, (*fn)->name);
        rc = s ? dump(s, path, err, errlen) : (snprintf(err, errlen, "out of memory (%s)", path), -1);
        json_decref(s);
    }
    snprintf(path, sizeof path, "%s/%s", out, VEC_INDEX_FILE);
    if (rc == 0) rc = dump(index, path, err, errlen);
    json_decref(index);
    return rc;
}
