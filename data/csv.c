/* csv.c -- the strict parser of sklearn's CSV data files (data/data.h):
 * with the header "n,d,class names" (breast_cancer.csv) or bare
 * (digits.csv).  Lines and fields in messages count from 1. */
#include <errno.h>
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

/* A number field s[0..n): 0 and *v, or the status with *why. */
static int parse_number(const char *s, size_t n, double *v, const char **why)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (starts_ci(s + i, n - i, "nan") || starts_ci(s + i, n - i, "inf")) {
        *why = "NaN or infinity";
        return FR_ENONFINITE;
    }
    while (i < n && is_digit(s[i])) { i++; digits++; }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) { i++; digits++; }
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

/* Number of lines in [p, end): "\n"-ended, the last one's "\n" optional. */
static size_t count_lines(const char *p, const char *end)
{
    size_t k = 0;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        k++;
        p = e ? e + 1 : end;
    }
    return k;
}

/* Row i of t from line s[0..n) (line number ln). */
static int parse_row(fdata_table *t, size_t i, const char *s, size_t n, const char *name, size_t ln,
                     char *err, size_t errlen)
{
    size_t fields = 1;
    for (size_t j = 0; j < n; j++) fields += s[j] == ',';
    if (fields != t->d + 1)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: %zu fields, expected %zu (%zu features and the label)",
                        name, ln, fields, t->d + 1, t->d);
    const char *f = s, *end = s + n;
    for (size_t j = 0; j <= t->d; j++) {
        const char *c = memchr(f, ',', (size_t)(end - f));
        size_t len = (size_t)((c ? c : end) - f);
        if (j < t->d) {
            const char *why = "";
            int st = parse_number(f, len, &t->x[i * t->d + j], &why);
            if (st != FR_OK)
                return fdi_fail(err, errlen, st, "%s: line %zu, field %zu: %s (\"%.*s\")", name, ln, j + 1, why,
                                (int)(len < 32 ? len : 32), f);
        } else {
            size_t lab;
            int r = parse_count(f, len, t->nclasses, &lab);
            if (r == -1)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: the label is not an unsigned integer (\"%.*s\")",
                                name, ln, j + 1, (int)(len < 32 ? len : 32), f);
            if (r == -2)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: label %.*s is not below %zu classes",
                                name, ln, j + 1, (int)(len < 32 ? len : 32), f, t->nclasses);
            t->y[i] = (uint16_t)lab;
        }
        f = c ? c + 1 : end;
    }
    return FR_OK;
}

/* The rows of t (t->n, d, nclasses set) from [p, end), first line ln. */
static int parse_rows(fdata_table *t, const char *p, const char *end, const char *name, size_t ln,
                      char *err, size_t errlen)
{
    size_t avail = count_lines(p, end);
    if (avail < t->n)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: file ends after %zu rows, expected %zu",
                        name, ln + avail, avail, t->n);
    /* The arrays grow as rows parse (doubling from 256 rows): memory stays
     * proportional to the bytes read, whatever the header claims. */
    size_t cap = 0;
    for (size_t i = 0; i < t->n; i++, ln++) {
        if (i == cap) {
            size_t nc = cap == 0 ? 256 : 2 * cap;
            if (nc > t->n) nc = t->n;
            double *x = realloc(t->x, nc * t->d * sizeof *x);
            if (x != NULL) t->x = x;
            uint16_t *y = x != NULL ? realloc(t->y, nc * sizeof *y) : NULL;
            if (y != NULL) t->y = y;
            if (x == NULL || y == NULL)
                return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu rows of %zu values)", name, nc, t->d);
            cap = nc;
        }
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (e == NULL) e = end;
        int st = parse_row(t, i, p, (size_t)(e - p), name, ln, err, errlen);
        if (st != FR_OK) return st;
        p = e < end ? e + 1 : end;
    }
    if (p < end)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: %zu more lines after the %zu rows expected",
                        name, ln, avail - t->n, t->n);
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

/* Common entry: check arguments, parse into a local table, move or free. */
static int parse(fdata_table *out, const char *buf, size_t len, const char *name, int bare, size_t d,
                 size_t nclasses, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || name == NULL || (buf == NULL && len > 0))
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", name ? name : "(null)");
    memset(out, 0, sizeof *out);
    if (len > FDATA_MAX_BYTES)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: %zu bytes, more than the bound 2^31", name, len);
    fdata_table t = {0};
    const char *p = buf, *end = buf + len;
    size_t ln = 1;
    int st = FR_OK;
    if (bare) {
        if (d == 0 || d > FDATA_MAX_FEATURES || nclasses == 0 || nclasses > FDATA_MAX_CLASSES)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: features must be in [1, 2^20] and classes in [1, 2^16]", name);
        t.d = d;
        t.nclasses = nclasses;
        t.n = count_lines(p, end);
        if (t.n == 0)
            st = fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: no rows", name);
        else if (t.n > FDATA_MAX_ELEMS / d)
            st = fdi_fail(err, errlen, FR_ESIZE, "%s: %zu x %zu values, more than 2^31", name, t.n, d);
    } else if (len == 0) {
        st = fdi_fail(err, errlen, FR_ESIZE, "%s: line 1: empty file (a header n,d,class names expected)", name);
    } else {
        const char *e = memchr(p, '\n', len);
        if (e == NULL) e = end;
        st = parse_header(&t, p, (size_t)(e - p), name, err, errlen);
        p = e < end ? e + 1 : end;
        ln = 2;
    }
    if (st == FR_OK) st = parse_rows(&t, p, end, name, ln, err, errlen);
    if (st != FR_OK) {
        fdata_table_free(&t);
        return st;
    }
    *out = t;
    return FR_OK;
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
