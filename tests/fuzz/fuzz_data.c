/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_data.c -- libFuzzer target for the data loaders (data/data.h).
 * The first byte selects the reader, the rest is the file:
 *   s % 6 == 0  IDX, 10 classes            s % 6 == 1  IDX, 1 + b1 classes
 *   s % 6 == 2  CSV with sklearn's header  s % 6 == 3  bare CSV, d = 1 + b1 % 64,
 *                                                       1 + b2 % 16 classes
 *   s % 6 == 4  the bytes as a file: fdata_read_file (plain or one gzip
 *               stream), the parsers on what it read, and the load
 *               functions, which read only what the header announces and
 *               must agree with the parsers on the whole content (status,
 *               message, data) or fail when it cannot be read
 *   s % 6 == 5  a UCI Adult file (data/uci.c), then 002's preprocessing
 * (b1, b2 the bytes after s, taken from the file when used).  Oracles: the
 * sanitizers and these invariants: a rejected input has a message naming
 * the file and a zeroed output; an accepted IDX file is exactly header +
 * n rows cols bytes, its data copied, its labels < the classes; an accepted
 * CSV table has finite values, labels < its classes, and printing it with
 * %.17g and parsing that again gives the same table (bit for bit); an
 * accepted UCI file has finite values, categories and labels within the
 * schema, zeros and marks where "?" was, and printed back in UCI's format
 * parses to the same table; 002's preprocessing of it keeps the rows
 * without a "?" and gives unit-length columns, or fails with its message.
 * Built by `make fuzz` / `make fuzz-replay` (corpus tests/fuzz/corpus-data/);
 * tests/fuzz/replay.c runs it without libFuzzer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fedref_common.h"
#include "../../data/data.h"

#define FUZZ_MAX_BYTES 65536

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rejected(int st, const char *err, const void *p)
{
    if (st == FR_OK || strstr(err, "fuzz.") == NULL || p != NULL)
        abort();
}

static void idx_case(const uint8_t *b, size_t n, unsigned classes)
{
    fdata_idx x;
    char err[512] = "";
    int st = fdata_idx_parse(&x, b, n, "fuzz.idx", classes, err, sizeof err);
    if (st != FR_OK) { check_rejected(st, err, x.v); return; }
    size_t hdr = 4 + 4 * (size_t)x.ndims, len = x.n * x.rows * x.cols;
    if ((x.ndims != 1 && x.ndims != 3) || hdr + len != n || memcmp(x.v, b + hdr, len) != 0)
        abort();
    if (x.ndims == 1)
        for (size_t i = 0; i < len; i++)
            if (x.v[i] >= classes) abort();
    fdata_idx_free(&x);
}

/* t printed back as CSV (with the header when names): malloc'ed, *len. */
static char *print_table(const fdata_table *t, size_t *len)
{
    size_t cap = 64 + t->n * (t->d + 1) * 32, k = 0;
    for (size_t c = 0; t->class_names && c < t->nclasses; c++) cap += strlen(t->class_names[c]) + 1;
    char *s = malloc(cap);
    if (s == NULL) abort();
    if (t->class_names) {
        k += (size_t)snprintf(s + k, cap - k, "%zu,%zu", t->n, t->d);
        for (size_t c = 0; c < t->nclasses; c++) k += (size_t)snprintf(s + k, cap - k, ",%s", t->class_names[c]);
        s[k++] = '\n';
    }
    for (size_t i = 0; i < t->n; i++) {
        for (size_t j = 0; j < t->d; j++) k += (size_t)snprintf(s + k, cap - k, "%.17g,", t->x[i * t->d + j]);
        k += (size_t)snprintf(s + k, cap - k, "%u\n", (unsigned)t->y[i]);
    }
    *len = k;
    return s;
}

static void csv_case(const uint8_t *b, size_t n, int bare, size_t d, size_t classes)
{
    fdata_table t, u;
    char err[512] = "";
    int st = bare ? fdata_csv_parse_bare(&t, (const char *)b, n, "fuzz.csv", d, classes, err, sizeof err)
                  : fdata_csv_parse(&t, (const char *)b, n, "fuzz.csv", err, sizeof err);
    if (st != FR_OK) { check_rejected(st, err, t.x); return; }
    if (t.n == 0 || t.d == 0 || t.nclasses == 0 || (bare && (t.d != d || t.nclasses != classes)))
        abort();
    for (size_t i = 0; i < t.n * t.d; i++)
        if (!isfinite(t.x[i])) abort();
    for (size_t i = 0; i < t.n; i++)
        if (t.y[i] >= t.nclasses) abort();
    size_t len;
    char *s = print_table(&t, &len);
    st = bare ? fdata_csv_parse_bare(&u, s, len, "fuzz.csv", d, classes, err, sizeof err)
              : fdata_csv_parse(&u, s, len, "fuzz.csv", err, sizeof err);
    if (st != FR_OK || u.n != t.n || u.d != t.d || u.nclasses != t.nclasses
        || memcmp(u.x, t.x, t.n * t.d * sizeof *t.x) != 0 || memcmp(u.y, t.y, t.n * sizeof *t.y) != 0)
        abort();
    free(s);
    fdata_table_free(&u);
    fdata_table_free(&t);
}

/* u printed back in UCI's format (test line and dots when a test file). */
static char *print_uci(const fdata_uci *u, const fdata_uci_schema *sc, size_t *len)
{
    size_t cap = 32 + u->n * (u->d + 1) * 72, k = 0;
    char *s = malloc(cap);
    if (s == NULL) abort();
    if (u->test) k += (size_t)snprintf(s, cap, "|1x3 Cross validator\n");
    for (size_t i = 0; i < u->n; i++) {
        for (size_t j = 0; j < u->d; j++) {
            double x = u->x[i * u->d + j];
            if (u->missing[i * u->d + j]) k += (size_t)snprintf(s + k, cap - k, "?, ");
            else if (sc->attr[j].ncat > 0) k += (size_t)snprintf(s + k, cap - k, "%s, ", sc->attr[j].cats[(size_t)x]);
            else k += (size_t)snprintf(s + k, cap - k, "%.17g, ", x);
        }
        k += (size_t)snprintf(s + k, cap - k, "%s%s\n", sc->classes[u->y[i]], u->test ? "." : "");
    }
    *len = k;
    return s;
}

static void uci_case(const uint8_t *b, size_t n)
{
    const fdata_uci_schema *sc = &fdata_adult_schema;
    fdata_uci u, v;
    char err[512] = "";
    int st = fdata_uci_parse(&u, (const char *)b, n, "fuzz.data", sc, err, sizeof err);
    if (st != FR_OK) { check_rejected(st, err, u.x); if (u.y || u.missing) abort(); return; }
    if (u.n == 0 || u.d != sc->nattr || u.rows_missing > u.n) abort();
    size_t rows_missing = 0;
    for (size_t i = 0; i < u.n; i++) {
        int miss = 0;
        for (size_t j = 0; j < u.d; j++) {
            double x = u.x[i * u.d + j];
            if (!isfinite(x)) abort();
            if (u.missing[i * u.d + j] > 1 || (u.missing[i * u.d + j] && x != 0)) abort();
            if (sc->attr[j].ncat > 0 && (x < 0 || x >= (double)sc->attr[j].ncat || x != floor(x))) abort();
            miss |= u.missing[i * u.d + j];
        }
        rows_missing += (size_t)miss;
        if (u.y[i] >= sc->nclasses) abort();
    }
    if (rows_missing != u.rows_missing) abort();
    size_t len;
    char *s = print_uci(&u, sc, &len);
    st = fdata_uci_parse(&v, s, len, "fuzz.data", sc, err, sizeof err);
    if (st != FR_OK || v.n != u.n || v.test != u.test || v.rows_missing != u.rows_missing
        || memcmp(v.x, u.x, u.n * u.d * sizeof *u.x) != 0 || memcmp(v.y, u.y, u.n * sizeof *u.y) != 0
        || memcmp(v.missing, u.missing, u.n * u.d) != 0)
        abort();
    free(s);
    fdata_uci_free(&v);
    fdata_table t;
    const fdata_uci *parts[] = {&u};
    st = fdata_adult_002(&t, parts, 1, err, sizeof err);
    if (st != FR_OK) {
        if (strncmp(err, "adult: ", 7) != 0 || t.x != NULL || st != (rows_missing < u.n ? FR_EDOM : FR_ESIZE)) abort();
    } else {
        if (t.n != u.n - u.rows_missing || t.d != u.d || t.nclasses != 2) abort();
        for (size_t j = 0; j < t.d; j++) {
            double q = 0;
            for (size_t i = 0; i < t.n; i++) {
                double x = t.x[i * t.d + j];
                if (!(fabs(x) <= 1)) abort();
                q += x * x;
            }
            if (fabs(q - 1) > 1e-9) abort();
        }
        fdata_table_free(&t);
    }
    fdata_uci_free(&u);
}

/* The loaders read the file only as far as its header announces; parsing
 * the whole content in memory must say the same: the same status and
 * message, the same data.  And when the whole content cannot be read,
 * every loader fails. */
static void same_as_parse(const char *path, const unsigned char *buf, size_t len, int ok)
{
    char e1[512] = "", e2[512] = "";
    fdata_idx x, x2;
    int s1 = fdata_idx_load(&x, path, 10, e1, sizeof e1);
    if (!ok) {
        if (s1 == FR_OK || x.v != NULL) abort();
    } else {
        int s2 = fdata_idx_parse(&x2, buf, len, path, 10, e2, sizeof e2);
        if (s1 != s2 || strcmp(e1, e2) != 0) abort();
        if (s1 == FR_OK && (x.ndims != x2.ndims || x.n != x2.n || x.rows != x2.rows || x.cols != x2.cols
                            || memcmp(x.v, x2.v, x.n * x.rows * x.cols) != 0))
            abort();
        fdata_idx_free(&x2);
    }
    fdata_idx_free(&x);
    for (int bare = 0; bare <= 1; bare++) {
        fdata_table t, t2;
        s1 = bare ? fdata_csv_load_bare(&t, path, 0, 10, e1, sizeof e1) : fdata_csv_load(&t, path, e1, sizeof e1);
        if (!ok) {
            if (s1 == FR_OK || t.x != NULL) abort();
            continue;
        }
        int s2 = bare ? fdata_csv_parse_bare(&t2, (const char *)buf, len, path, 0, 10, e2, sizeof e2)
                      : fdata_csv_parse(&t2, (const char *)buf, len, path, e2, sizeof e2);
        if (s1 != s2 || strcmp(e1, e2) != 0) abort();
        if (s1 == FR_OK && (t.n != t2.n || t.d != t2.d || t.nclasses != t2.nclasses
                            || memcmp(t.x, t2.x, t.n * t.d * sizeof *t.x) != 0
                            || memcmp(t.y, t2.y, t.n * sizeof *t.y) != 0))
            abort();
        fdata_table_free(&t);
        fdata_table_free(&t2);
    }
    fdata_uci u, u2;
    s1 = fdata_uci_load(&u, path, &fdata_adult_schema, e1, sizeof e1);
    if (!ok) {
        if (s1 == FR_OK || u.x != NULL) abort();
    } else {
        int s2 = fdata_uci_parse(&u2, (const char *)buf, len, path, &fdata_adult_schema, e2, sizeof e2);
        if (s1 != s2 || strcmp(e1, e2) != 0) abort();
        if (s1 == FR_OK && (u.n != u2.n || u.test != u2.test || memcmp(u.x, u2.x, u.n * u.d * sizeof *u.x) != 0
                            || memcmp(u.missing, u2.missing, u.n * u.d) != 0 || memcmp(u.y, u2.y, u.n * sizeof *u.y) != 0))
            abort();
        fdata_uci_free(&u2);
    }
    fdata_uci_free(&u);
    /* the first bytes: a prefix of the content, read whenever it is */
    unsigned char h[64];
    size_t hl;
    int sh = fdata_read_head(path, h, sizeof h, &hl, e1, sizeof e1);
    if (ok && (sh != FR_OK || hl != (len < sizeof h ? len : sizeof h) || memcmp(h, buf, hl) != 0))
        abort();
}

static void file_case(const uint8_t *b, size_t n)
{
    static char path[64];
    if (path[0] == '\0') snprintf(path, sizeof path, "/tmp/fuzz.data.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL) return;
    fwrite(b, 1, n, f);
    fclose(f);
    unsigned char *buf;
    size_t len;
    char err[512] = "";
    int st = fdata_read_file(path, &buf, &len, err, sizeof err);
    if (st != FR_OK) check_rejected(st, err, buf);
    same_as_parse(path, buf, len, st == FR_OK);
    remove(path);
    if (st != FR_OK) return;
    if (buf[len] != '\0') abort();
    idx_case(buf, len, 10);
    csv_case(buf, len, 0, 0, 0);
    uci_case(buf, len);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_BYTES)
        return 0;
    unsigned s = data[0] % 6;
    const uint8_t *b = data + 1;
    size_t n = size - 1;
    unsigned b1 = n > 0 ? b[0] : 0, b2 = n > 1 ? b[1] : 0;
    switch (s) {
    case 0: idx_case(b, n, 10); break;
    case 1: idx_case(n ? b + 1 : b, n ? n - 1 : 0, 1 + b1); break;
    case 2: csv_case(b, n, 0, 0, 0); break;
    case 3: csv_case(n > 1 ? b + 2 : b + n, n > 1 ? n - 2 : 0, 1, 1 + b1 % 64, 1 + b2 % 16); break;
    case 4: file_case(b, n); break;
    default: uci_case(b, n); break;
    }
    return 0;
}
