/* SPDX-License-Identifier: Apache-2.0 */
/* uci.c -- the strict parser of the UCI Machine Learning Repository's
 * comma-and-space files (adult.data, adult.test; data/data.h): fields
 * separated by ", ", categories checked against a schema, "?" for a
 * missing value, the test file's line 1 "|1x3 Cross validator" and its
 * labels' trailing ".".  One line at a time from its source, each at most
 * what its fields can take.  Lines and fields in messages count from 1. */
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

#define FIELD_MAX 64                       /* bytes of a field, its ", " excluded */
#define LINE_MAX_FOR(nf) ((nf) * (FIELD_MAX + 2))
static const char TEST_LINE[] = "|1x3 Cross validator";

void fdata_uci_free(fdata_uci *u)
{
    if (u == NULL) return;
    free(u->x);
    free(u->missing);
    free(u->y);
    memset(u, 0, sizeof *u);
}

/* The next line of s (after the *used bytes of the last one): 1 with *p,
 * *n (without its "\n") and *nl; 0 at the end of the data; 2 for a line
 * longer than max bytes (read no further than max + 1); or a status. */
static int next_line(fdi_src *s, size_t *used, size_t max, const char **p, size_t *n, int *nl, char *err,
                     size_t errlen)
{
    size_t scanned = 0;
    fdi_src_skip(s, *used);
    *used = 0;
    for (;;) {
        const unsigned char *e = s->len > scanned ? memchr(s->p + scanned, '\n', s->len - scanned) : NULL;
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
        size_t want = s->len + (s->len > ((size_t)1 << 12) ? s->len : (size_t)1 << 12);
        int st = fdi_src_fill(s, want < max + 1 ? want : max + 1, err, errlen);
        if (st != FR_OK) return st;
    }
    if (*n > max) return 2;
    *used = *n + (size_t)*nl;
    *p = (const char *)s->p;
    return 1;
}

/* The index of f[0..n) in names[0..k), or k. */
static size_t find(const char *const *names, size_t k, const char *f, size_t n)
{
    for (size_t c = 0; c < k; c++)
        if (strlen(names[c]) == n && memcmp(names[c], f, n) == 0) return c;
    return k;
}

/* Row i of u from line s[0..n) (line ln, its fields counted): the values,
 * the missing marks and the label. */
static int parse_row(fdata_uci *u, size_t i, const fdata_uci_schema *sc, const char *s, size_t n,
                     const char *name, size_t ln, char *err, size_t errlen)
{
    char q[FDI_QUOTE_MAX];
    const char *f = s, *end = s + n;
    int miss = 0;
    for (size_t j = 0; j <= sc->nattr; j++) {
        const char *c = memchr(f, ',', (size_t)(end - f));
        size_t len = (size_t)((c ? c : end) - f);
        if (j > 0) {                          /* ", " before every field but the first */
            if (len == 0 || f[0] != ' ')
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: fields are separated by \", \" "
                                "(a comma and one space)", name, ln, j + 1);
            f++;
            len--;
        }
        if (len == 0)
            return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: an empty field", name, ln, j + 1);
        if (len > FIELD_MAX)
            return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: a field longer than %d bytes", name, ln,
                            j + 1, FIELD_MAX);
        for (size_t k = 0; k < len; k++)
            if ((unsigned char)f[k] <= 0x20 || (unsigned char)f[k] >= 0x7f)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: a space, control or non-ASCII "
                                "byte in a field (\"%s\")", name, ln, j + 1, fdi_quote(q, f, len));
        if (j < sc->nattr) {
            const fdata_uci_attr *a = &sc->attr[j];
            double *x = &u->x[i * sc->nattr + j];
            if (len == 1 && f[0] == '?') {
                u->missing[i * sc->nattr + j] = 1;
                *x = 0;
                miss = 1;
            } else if (a->ncat == 0) {
                const char *why = "";
                int st = fdi_parse_number(f, len, x, &why);
                if (st != FR_OK)
                    return fdi_fail(err, errlen, st, "%s: line %zu, field %zu (%s): %s (\"%s\")", name, ln, j + 1,
                                    a->name, why, fdi_quote(q, f, len));
            } else {
                size_t k = find(a->cats, a->ncat, f, len);
                if (k == a->ncat)
                    return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: unknown category \"%s\" of %s",
                                    name, ln, j + 1, fdi_quote(q, f, len), a->name);
                *x = (double)k;
            }
        } else {
            int dot = f[len - 1] == '.';
            if (dot != u->test)
                return fdi_fail(err, errlen, FR_EDOM, u->test
                                ? "%s: line %zu, field %zu: the label \"%s\" lacks the trailing \".\" of a test file"
                                : "%s: line %zu, field %zu: the label \"%s\" ends with \".\" (only a test file, line 1 "
                                  "\"|1x3 Cross validator\", has one)", name, ln, j + 1, fdi_quote(q, f, len));
            size_t k = find(sc->classes, sc->nclasses, f, len - (size_t)dot);
            if (k == sc->nclasses)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu, field %zu: unknown class \"%s\"", name, ln,
                                j + 1, fdi_quote(q, f, len));
            u->y[i] = (uint16_t)k;
        }
        f = c ? c + 1 : end;
    }
    u->rows_missing += (size_t)miss;
    return FR_OK;
}

/* Room for row i (doubling from 1 row, at most FDATA_MAX_ELEMS values). */
static int grow(fdata_uci *u, size_t i, size_t *cap, const char *name, char *err, size_t errlen)
{
    if (i < *cap) return FR_OK;
    size_t nc = *cap == 0 ? 1 : 2 * *cap;
    if (nc > FDATA_MAX_ELEMS / u->d) nc = FDATA_MAX_ELEMS / u->d;
    double *x = realloc(u->x, nc * u->d * sizeof *x);
    if (x != NULL) u->x = x;
    unsigned char *m = x != NULL ? realloc(u->missing, nc * u->d) : NULL;
    if (m != NULL) u->missing = m;
    uint16_t *y = m != NULL ? realloc(u->y, nc * sizeof *y) : NULL;
    if (y != NULL) u->y = y;
    if (y == NULL)
        return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu rows of %zu values)", name, nc, u->d);
    memset(u->missing + *cap * u->d, 0, (nc - *cap) * u->d);
    *cap = nc;
    return FR_OK;
}

static int check_schema(const fdata_uci_schema *sc, const char *name, char *err, size_t errlen)
{
    if (sc->nattr == 0 || sc->nattr > FDATA_MAX_FEATURES || sc->attr == NULL || sc->nclasses == 0
        || sc->nclasses > FDATA_MAX_CLASSES || sc->classes == NULL)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: a schema needs 1 to 2^20 attributes and 1 to 2^16 classes", name);
    for (size_t j = 0; j < sc->nattr; j++)
        if (sc->attr[j].ncat > FDATA_MAX_CLASSES || (sc->attr[j].ncat > 0 && sc->attr[j].cats == NULL))
            return fdi_fail(err, errlen, FR_ESIZE, "%s: attribute %zu of the schema: at most 2^16 categories", name,
                            j + 1);
    return FR_OK;
}

static int read_rows(fdata_uci *u, fdi_src *s, const fdata_uci_schema *sc, char *err, size_t errlen)
{
    const char *name = s->name, *p = NULL;
    size_t used = 0, ln = 0, n = 0, cap = 0, i = 0, max = LINE_MAX_FOR(sc->nattr + 1);
    int nl = 0, st;
    u->d = sc->nattr;
    for (;;) {
        st = next_line(s, &used, max, &p, &n, &nl, err, errlen);
        if (st < 0) return st;
        if (st == 0) break;
        ln++;
        if (st == 2)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: longer than %zu bytes, the most %zu fields of %d "
                            "bytes can take", name, ln, max, sc->nattr + 1, FIELD_MAX);
        if (n > 0 && p[n - 1] == '\r')
            return fdi_fail(err, errlen, FR_EDOM, nl ? "%s: line %zu: CRLF line ending (lines must end with \\n alone)"
                                                     : "%s: line %zu: a carriage return (\\r) ends the file", name, ln);
        if (ln == 1 && n == sizeof TEST_LINE - 1 && memcmp(p, TEST_LINE, n) == 0) {
            u->test = 1;
            continue;
        }
        if (n == 0) {                          /* a blank line: the last one only */
            fdi_src_skip(s, used);
            used = 0;
            if ((st = fdi_src_fill(s, 1, err, errlen)) != FR_OK) return st;
            if (s->len > 0)
                return fdi_fail(err, errlen, FR_EDOM, "%s: line %zu: a blank line (only the last line may be blank)",
                                name, ln);
            break;
        }
        size_t fields = 1;
        for (size_t j = 0; j < n; j++) fields += p[j] == ',';
        if (fields != sc->nattr + 1)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: %zu fields, expected %zu (%zu attributes and the "
                            "label)", name, ln, fields, sc->nattr + 1, sc->nattr);
        if (i >= FDATA_MAX_ELEMS / u->d)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: more than 2^31 values (rows of %zu)", name, ln, u->d);
        if ((st = grow(u, i, &cap, name, err, errlen)) != FR_OK) return st;
        if ((st = parse_row(u, i, sc, p, n, name, ln, err, errlen)) != FR_OK) return st;
        i++;
    }
    if (i == 0) return fdi_fail(err, errlen, FR_ESIZE, "%s: line %zu: no rows", name, ln + 1);
    u->n = i;
    return FR_OK;
}

int fdi_uci_read(fdata_uci *out, fdi_src *s, const fdata_uci_schema *sc, char *err, size_t errlen)
{
    fdata_uci u = {0};
    int st = check_schema(sc, s->name, err, errlen);
    if (st == FR_OK) st = fdi_src_fill(s, 3, err, errlen);
    if (st == FR_OK && s->len >= 3 && memcmp(s->p, "\xEF\xBB\xBF", 3) == 0)
        st = fdi_fail(err, errlen, FR_EDOM, "%s: line 1: a UTF-8 byte order mark (bytes EF BB BF) starts the file "
                      "(not accepted: UCI's files have none)", s->name);
    if (st == FR_OK) st = read_rows(&u, s, sc, err, errlen);
    if (st != FR_OK) {
        fdata_uci_free(&u);
        return st;
    }
    *out = u;
    return FR_OK;
}

int fdata_uci_parse(fdata_uci *out, const char *buf, size_t len, const char *name, const fdata_uci_schema *sc,
                    char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || name == NULL || sc == NULL || (buf == NULL && len > 0))
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", name ? name : "(null)");
    memset(out, 0, sizeof *out);
    if (len > FDATA_MAX_BYTES)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: %zu bytes, more than the bound 2^31", name, len);
    fdi_src s;
    fdi_src_mem(&s, buf, len, name);
    return fdi_uci_read(out, &s, sc, err, errlen);
}
