/* SPDX-License-Identifier: Apache-2.0 */
/* csv.c -- the strict parser of sklearn's CSV data files (data/data.h):
 * with the header "n,d,class names" (breast_cancer.csv) or bare
 * (digits.csv).  It reads one line at a time from its source (a line is
 * at most what d numbers and a label can take), and after the n rows a
 * header announces at most one byte more, so memory follows the table,
 * never the file.  Lines and fields in messages count from 1. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

#define NUM_MAX 64                /* longest number field accepted (bytes) */

void fdata_table_free(fdata_table *t)
{
    if (t == NULL) return;
    if (t->class_names != NULL)
        for (size_t i = 0; i < t->nclasses; i++) free(t->class_names[i]);
    free(t->class_names);
    free(t->x);
    free(t->y);
    memset(t, 0, sizeof *t);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int lower(char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* s[0..n) starts with the letters w (any case). */
static int starts_ci(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n < k) return 0;
    for (size_t i = 0; i < k; i++)
        if (lower(s[i]) != w[i]) return 0;
    return 1;
}

/* A number field s[0..n) (internal.h). */
int fdi_parse_number(const char *s, size_t n, double *v, const char **why)
{
    size_t i = 0, digits = 0, nonzero = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (starts_ci(s + i, n - i, "nan") || starts_ci(s + i, n - i, "inf")) {
        *why = "NaN or infinity";
        return FR_ENONFINITE;
    }
    while (i < n && is_digit(s[i])) { nonzero += s[i] != '0'; i++; digits++; }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) { nonzero += s[i] != '0'; i++; digits++; }
    }
    if (digits > 0 && i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t ed = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        while (i < n && is_digit(s[i])) { i++; ed++; }
        if (ed == 0) digits = 0;
    }
    if (n == 0 || digits == 0 || i != n) { *why = "not a number"; return FR_EDOM; }
    if (n > NUM_MAX) { *why = "a number field longer than 64 bytes"; return FR_EDOM; }
    char tmp[NUM_MAX + 1];
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    errno = 0;
    double x = strtod(tmp, NULL);
    if (errno == ERANGE && (x > 1 || x < -1)) { *why = "overflows binary64"; return FR_ENONFINITE; }
    /* a nonzero decimal that rounds to zero (1e-400); subnormals are kept */
    if (x == 0 && nonzero > 0) { *why = "underflows to 0 in binary64"; return FR_EDOM; }
    *v = x;
    return FR_OK;
}

/* An unsigned decimal integer field s[0..n) below bound: 0 and *v. */
static int parse_count(const char *s, size_t n, size_t bound, size_t *v)
{
    size_t x = 0;
    if (n == 0 || n > 10) return -1;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i])) return -1;
        x = 10 * x + (size_t)(s[i] - '0');
    }
    if (x >= bound) return -2;
    *v = x;
    return 0;
}

/* A line is at most LINE_MAX_FOR(d) bytes: d numbers of NUM_MAX bytes, a
 * label of 10 and the d commas; a header at most HEADER_MAX. */
#define LINE_MAX_FOR(d) ((d) * (NUM_MAX + 1) + 10)
#define HEADER_MAX (2 * 11 + FDATA_MAX_CLASSES * (FDATA_MAX_NAME + 1))

/* The lines of a source, one at a time. */
typedef struct {
    fdi_src *s;
    size_t used;      /* bytes of the line last returned, its "\n" included */
    size_t ln;        /* its number (from 1) */
} lines;

/* The fields of line bytes p[from..to) (field *fi, *fl bytes into it at
 * from): the number of the first one longer than fmax bytes, or 0. */
static size_t long_field(const unsigned char *p, size_t from, size_t to, size_t fmax, size_t *fi, size_t *fl)
{
    for (size_t j = from; j < to; j++) {
        if (p[j] == ',') {
            (*fi)++;
            *fl = 0;
        } else if (++*fl > fmax) {
            return *fi;
        }
    }
    return 0;
}

/* The next line: 1 with *p, *n (its bytes without "\n") and *nl (a "\n"
 * ended it), valid until the next call; 0 at the end of the data; or a
 * status: FR_ESIZE for a line longer than max bytes (what describes max)
 * or FR_EDOM for a field longer than fmax in its first max + 1 bytes,
 * found as the bytes arrive (a file is read no further). */
static int next_line(lines *r, size_t max, size_t fmax, const char *what, const char **p, size_t *n, int *nl,
                     char *err, size_t errlen)
{
    fdi_src *s = r->s;
    size_t scanned = 0, checked = 0, fi = 1, fl = 0;
    fdi_src_skip(s, r->used);
    r->used = 0;
    for (;;) {
        const unsigned char *e = s->len > scanned ? memchr(s->p + scanned, '\n', s->len - scanned) : NULL;
        size_t end = e != NULL ? (size_t)(e - s->p) : s->len, lim = end < max + 1 ? end : max + 1;
        size_t bad = lim > checked ? long_field(s->p, checked, lim, fmax, &fi, &fl) : 0;
        checked = lim > checked ? lim : checked;
        if (bad)
            return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: a field longer than %zu bytes", s->name,
                            r->ln + 1, bad, fmax);
        if (e != NULL) {
            *n = (size_t)(e - s->p);
            *nl = 1;
            break;
        }
        if (s->len > max || s->eof) {
            if (s->len == 0) return 0;
            *n = s->len;
            *nl = 0;
            break;
        }
        scanned = s->len;
        /* twice as many bytes (at least 4 KiB more), at most max + 1 */
        size_t want = s->len + (s->len > ((size_t)1 << 12) ? s->len : (size_t)1 << 12);
        int st = fdi_src_fill(s, want < max + 1 ? want : max + 1, err, errlen);
        if (st != FR_OK) return st;
    }
    if (*n > max)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: longer than %zu bytes, the most %s can take", s->name,
                        r->ln + 1, max, what);
    r->ln++;
    r->used = *n + (size_t)*nl;
    *p = (const char *)s->p;
    return 1;
}

/* A line ended by "\r\n" (or a last line by "\r"): the message. */
static int check_cr(const char *s, size_t n, int nl, const char *name, size_t ln, char *err, size_t errlen)
{
    if (n == 0 || s[n - 1] != '\r') return FR_OK;
    if (nl)
        return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu: CRLF line ending (lines must end with \\n alone)", name, ln);
    return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu: a carriage return (\\r) ends the file", name, ln);
}

/* Line s[0..n) (line number ln) has the d + 1 fields of a row of t. */
static int check_fields(const fdata_table *t, const char *s, size_t n, const char *name, size_t ln, char *err,
                        size_t errlen)
{
    size_t fields = 1;
    for (size_t j = 0; j < n; j++) fields += s[j] == ',';
    if (fields != t->d + 1)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: %zu fields, expected %zu (%zu features and the label)",
                        name, ln, fields, t->d + 1, t->d);
    return FR_OK;
}

/* Row i of t from line s[0..n) (line number ln), its fields counted. */
static int parse_row(fdata_table *t, size_t i, const char *s, size_t n, const char *name, size_t ln,
                     char *err, size_t errlen)
{
    char q[FDI_QUOTE_MAX];
    const char *f = s, *end = s + n;
    for (size_t j = 0; j <= t->d; j++) {
        const char *c = memchr(f, ',', (size_t)(end - f));
        size_t len = (size_t)((c ? c : end) - f);
        if (j < t->d) {
            const char *why = "";
            int st = fdi_parse_number(f, len, &t->x[i * t->d + j], &why);
            if (st != FR_OK)
                return fdi_fail(err, errlen, st, "%s: line %zu, field %zu: %s (\"%s\")", name, ln, j + 1, why,
                                fdi_quote(q, f, len));
        } else {
            size_t lab;
            int r = parse_count(f, len, t->nclasses, &lab);
            if (r == -1)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: the label is not an unsigned integer (\"%s\")",
                                name, ln, j + 1, fdi_quote(q, f, len));
            if (r == -2)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: label %s is not below %zu classes",
                                name, ln, j + 1, fdi_quote(q, f, len), t->nclasses);
            t->y[i] = (uint16_t)lab;
        }
        f = c ? c + 1 : end;
    }
    return FR_OK;
}

/* Room for row i in t (doubling from 1 row, at most t->n rows when
 * bounded), once its fields are counted: memory follows the rows read (at
 * most 16 bytes a value for a row of at least 2 bytes a value), whatever
 * a header claims. */
static int grow(fdata_table *t, size_t i, size_t *cap, int bounded, const char *name, char *err, size_t errlen)
{
    if (i < *cap) return FR_OK;
    size_t nc = *cap == 0 ? 1 : 2 * *cap;
    if (bounded && nc > t->n) nc = t->n;
    if (nc > FDATA_MAX_ELEMS / t->d) nc = FDATA_MAX_ELEMS / t->d;
    double *x = realloc(t->x, nc * t->d * sizeof *x);
    if (x != NULL) t->x = x;
    uint16_t *y = x != NULL ? realloc(t->y, nc * sizeof *y) : NULL;
    if (y != NULL) t->y = y;
    if (x == NULL || y == NULL)
        return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu rows of %zu values)", name, nc, t->d);
    *cap = nc;
    return FR_OK;
}

/* The rows of t: t->n of them (header), or to the end of the data (bare:
 * t->d from line 1 when 0). */
static int parse_rows(fdata_table *t, lines *r, int bare, char *err, size_t errlen)
{
    const char *name = r->s->name, *p;
    size_t n, cap = 0, i;
    int nl, st;
    char what[96];
    for (i = 0; bare || i < t->n; i++) {
        size_t d = t->d ? t->d : FDATA_MAX_FEATURES;
        snprintf(what, sizeof what, "%zu numbers and a label", d);
        st = next_line(r, LINE_MAX_FOR(d), NUM_MAX, what, &p, &n, &nl, err, errlen);
        if (st < 0) return st;
        if (st == 0) {
            if (bare) break;
            return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: file ends after %zu rows, expected %zu",
                            name, r->ln + 1, i, t->n);
        }
        if ((st = check_cr(p, n, nl, name, r->ln, err, errlen)) != FR_OK) return st;
        if (t->d == 0) {            /* bare, line 1: d from its fields */
            size_t fields = 1;
            for (size_t j = 0; j < n; j++) fields += p[j] == ',';
            if (fields < 2)
                return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: 1 field (at least one feature and the label expected)",
                                name);
            if (fields - 1 > FDATA_MAX_FEATURES)
                return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: %zu features, more than 2^20", name, fields - 1);
            t->d = fields - 1;
        }
        if (bare && i >= FDATA_MAX_ELEMS / t->d)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: more than 2^31 values (rows of %zu)", name, r->ln,
                            t->d);
        if ((st = check_fields(t, p, n, name, r->ln, err, errlen)) != FR_OK) return st;
        if ((st = grow(t, i, &cap, !bare, name, err, errlen)) != FR_OK) return st;
        if ((st = parse_row(t, i, p, n, name, r->ln, err, errlen)) != FR_OK) return st;
    }
    if (bare) {
        if (i == 0) return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: empty file (no rows)", name);
        t->n = i;
        return FR_OK;
    }
    /* one byte more than the header announces, no further */
    fdi_src_skip(r->s, r->used);
    r->used = 0;
    if ((st = fdi_src_fill(r->s, 1, err, errlen)) != FR_OK) return st;
    if (r->s->len > 0)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: data after the %zu rows the header announces", name,
                        r->ln + 1, t->n);
    return FR_OK;
}

/* The header "n,d,name_0,...,name_{k-1}" in s[0..n) into t. */
static int parse_header(fdata_table *t, const char *s, size_t n, const char *name, char *err, size_t errlen)
{
    size_t fields = 1;
    for (size_t j = 0; j < n; j++) fields += s[j] == ',';
    if (fields < 3)
        return fdi_fail(err, errlen, FR_EDOM, "%s: line 1: malformed header (%zu fields; n,d,class names expected)",
                        name, fields);
    if (fields - 2 > FDATA_MAX_CLASSES)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: %zu class names, more than 2^16", name, fields - 2);
    const char *f = s, *end = s + n;
    for (size_t j = 0; j < fields; j++) {
        const char *c = memchr(f, ',', (size_t)(end - f));
        size_t len = (size_t)((c ? c : end) - f);
        if (j < 2) {
            size_t v = 0;
            size_t bound = j == 0 ? FDATA_MAX_ELEMS + 1 : FDATA_MAX_FEATURES + 1;
            int r = parse_count(f, len, bound, &v);
            if (r == -1)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line 1, field %zu: malformed header: %s is not an unsigned integer",
                                name, j + 1, j == 0 ? "the sample count" : "the feature count");
            if (r == -2 || v == 0)
                return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1, field %zu: %s is 0 or above its bound (%s)", name,
                                j + 1, j == 0 ? "the sample count" : "the feature count", j == 0 ? "2^31" : "2^20");
            if (j == 0) t->n = v; else t->d = v;
        } else {
            if (len == 0 || len > FDATA_MAX_NAME)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line 1, field %zu: a class name must have 1 to 255 bytes",
                                name, j + 1);
            for (size_t q = 0; q < len; q++)
                if ((unsigned char)f[q] < 0x20 || f[q] == 0x7f)
                    return fdi_fail(err, errlen, FR_EDOM, "%s: line 1, field %zu: a control character in a class name",
                                    name, j + 1);
            if (t->class_names == NULL) {
                t->class_names = calloc(fields - 2, sizeof *t->class_names);
                if (t->class_names == NULL)
                    return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (class names)", name);
            }
            char *nm = malloc(len + 1);
            if (nm == NULL) return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (class names)", name);
            memcpy(nm, f, len);
            nm[len] = '\0';
            t->class_names[t->nclasses++] = nm;
        }
        f = c ? c + 1 : end;
    }
    if (t->n > FDATA_MAX_ELEMS / t->d)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: %zu x %zu values, more than 2^31", name, t->n, t->d);
    return FR_OK;
}

int fdi_csv_read(fdata_table *out, fdi_src *s, int bare, size_t d, size_t nclasses, char *err, size_t errlen)
{
    const char *name = s->name;
    fdata_table t = {0};
    lines r = {s, 0, 0};
    int st = fdi_src_fill(s, 3, err, errlen);
    if (st != FR_OK) return st;
    if (s->len >= 3 && memcmp(s->p, "\xEF\xBB\xBF", 3) == 0)
        return fdi_fail(err, errlen, FR_EDOM,
                        "%s: line 1: a UTF-8 byte order mark (bytes EF BB BF) starts the file (not accepted: "
                        "sklearn's files have none)", name);
    if (bare) {
        if (d > FDATA_MAX_FEATURES || nclasses == 0 || nclasses > FDATA_MAX_CLASSES)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: features must be in [1, 2^20] (or 0: from line 1) and "
                            "classes in [1, 2^16]", name);
        t.d = d;
        t.nclasses = nclasses;
    } else {
        const char *p;
        size_t n;
        int nl;
        st = next_line(&r, HEADER_MAX, FDATA_MAX_NAME, "2^16 class names of 255 bytes", &p, &n, &nl, err, errlen);
        if (st == 0)
            st = fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: empty file (a header n,d,class names expected)", name);
        else if (st > 0 && (st = check_cr(p, n, nl, name, 1, err, errlen)) == FR_OK)
            st = parse_header(&t, p, n, name, err, errlen);
    }
    if (st == FR_OK) st = parse_rows(&t, &r, bare, err, errlen);
    if (st != FR_OK) {
        fdata_table_free(&t);
        return st;
    }
    *out = t;
    return FR_OK;
}

/* The parsers on a buffer: check the arguments, read from memory. */
static int parse(fdata_table *out, const char *buf, size_t len, const char *name, int bare, size_t d,
                 size_t nclasses, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || name == NULL || (buf == NULL && len > 0))
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", name ? name : "(null)");
    memset(out, 0, sizeof *out);
    if (len > FDATA_MAX_BYTES)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: %zu bytes, more than the bound 2^31", name, len);
    fdi_src s;
    fdi_src_mem(&s, buf, len, name);
    return fdi_csv_read(out, &s, bare, d, nclasses, err, errlen);
}

int fdata_csv_parse(fdata_table *out, const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
    return parse(out, buf, len, name, 0, 0, 0, err, errlen);
}

int fdata_csv_parse_bare(fdata_table *out, const char *buf, size_t len, const char *name, size_t d,
                         size_t nclasses, char *err, size_t errlen)
{
    return parse(out, buf, len, name, 1, d, nclasses, err, errlen);
}
