/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_data.c -- `fedref data info FILE...`: load each data file with the
 * strict loaders of data/ (IDX or sklearn CSV, plain or gzip) and print its
 * shape, a summary and a checksum (FNV-1a, data/data.h). */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fedref_common.h"
#include "../data/data.h"

void cli_data_usage(FILE *f)
{
    fputs("usage: fedref data info [--classes K] [--features D] [--] FILE...\n"
          "\n"
          "info: load each file strictly (docs/DATA.md) and print its shape, a summary\n"
          "  and the 64-bit FNV-1a checksum of the loaded values.  Files may be gzip\n"
          "  compressed.  The format is found from the name and the content:\n"
          "    IDX (magic 0x00000801 labels, 0x00000803 images): Fashion-MNIST; a name\n"
          "      ending in .idx or -ubyte (.gz) or a zero byte in the first four;\n"
          "    CSV with sklearn's header 'n,d,class names' (breast_cancer.csv);\n"
          "    CSV without header (digits.csv.gz): d = fields of line 1 minus the label;\n"
          "    UCI Adult (adult.data, adult.test: \", \" separators, categories, '?'):\n"
          "      a name ending in adult.data or adult.test (.gz), or a line 1\n"
          "      '|1x3 Cross validator' or whose first comma is followed by a space.\n"
          "      After the files, the rows of the Adult files without a '?' as FedEPM\n"
          "      takes them (002 Sec. VII-A: categories as integers, unit-length\n"
          "      columns, labels 0/1).\n"
          "  --classes K    labels of IDX label files and header-less CSV must be < K\n"
          "                 (default 10)\n"
          "  --features D   header-less CSV: D features per row (default: from line 1)\n"
          "  `make data` fetches the data sets into build/data/.\n"
          "  Exit 0 all loaded, 2 a file was rejected or a usage error.\n", f);
}

/* Whether name ends with suffix. */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

/* The format of a file from its name and its first n bytes b: 'i' IDX
 * (named *.idx, *-ubyte, either .gz, whatever it holds, or a NUL byte in
 * its first 4 bytes: text has none), 'h' CSV with sklearn's header (the
 * third field of line 1 is not a number, or the file is empty), 'b' bare
 * CSV, 'u' a UCI Adult file (named *adult.data, *adult.test, either .gz,
 * or line 1 the test file's "|1x3 Cross validator" or a first comma
 * followed by a space). */
static int format_of(const char *name, const unsigned char *b, size_t n)
{
    if (ends_with(name, "adult.data") || ends_with(name, "adult.data.gz") || ends_with(name, "adult.test")
        || ends_with(name, "adult.test.gz") || (n >= 4 && memcmp(b, "|1x3", 4) == 0))
        return 'u';
    for (size_t i = 0; i + 1 < n && b[i] != '\n'; i++)
        if (b[i] == ',') {
            if (b[i + 1] == ' ') return 'u';
            break;
        }
    if (ends_with(name, ".idx") || ends_with(name, ".idx.gz") || ends_with(name, "-ubyte")
        || ends_with(name, "-ubyte.gz"))
        return 'i';
    for (size_t i = 0; i < n && i < 4; i++)
        if (b[i] == 0) return 'i';
    size_t fields = 1, i = 0, start3 = 0;
    for (; i < n && b[i] != '\n'; i++)
        if (b[i] == ',' && ++fields == 3) start3 = i + 1;
    if (n == 0 || (fields >= 3 && start3 < i && !(b[start3] >= '0' && b[start3] <= '9') && b[start3] != '-'
                   && b[start3] != '+' && b[start3] != '.'))
        return 'h';
    return 'b';
}

/* FNV-1a of a double / a uint16 as little-endian bytes. */
static uint64_t fnv_f64(uint64_t h, double x)
{
    uint64_t u;
    unsigned char b[8];
    memcpy(&u, &x, 8);
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)(u >> (8 * k));
    return fdata_fnv1a(h, b, 8);
}

static int info_idx(const char *path, unsigned classes)
{
    fdata_idx x;
    char err[512];
    if (fdata_idx_load(&x, path, classes, err, sizeof err) != FR_OK) {
        cli_error(err, "data info");
        return 2;
    }
    size_t len = x.n * x.rows * x.cols;
    uint64_t h = fdata_fnv1a(FDATA_FNV_INIT, x.v, len);
    if (x.ndims == 3) {
        double sum = 0;
        for (size_t i = 0; i < len; i++) sum += x.v[i];
        printf("%s: idx images %zu x %zu x %zu, pixel mean %.6f, fnv1a %016llx\n", path, x.n, x.rows, x.cols,
               sum / (double)len, (unsigned long long)h);
    } else {
        size_t count[256] = {0};
        for (size_t i = 0; i < len; i++) count[x.v[i]]++;
        printf("%s: idx labels %zu, classes %u, counts", path, x.n, classes);
        for (unsigned c = 0; c < classes && c < 256; c++) printf(" %zu", count[c]);
        printf(", fnv1a %016llx\n", (unsigned long long)h);
    }
    fdata_idx_free(&x);
    return 0;
}

static int info_csv(const char *path, int header, size_t classes, size_t features)
{
    fdata_table t;
    char err[512];
    int st = header && features == 0 ? fdata_csv_load(&t, path, err, sizeof err)
                                     : fdata_csv_load_bare(&t, path, features, classes, err, sizeof err);
    if (st != FR_OK) {
        cli_error(err, "data info");
        return 2;
    }
    size_t *count = calloc(t.nclasses, sizeof *count);
    if (count == NULL) { cli_error("out of memory", path); fdata_table_free(&t); return 2; }
    double lo = DBL_MAX, hi = -DBL_MAX;
    uint64_t h = FDATA_FNV_INIT;
    for (size_t i = 0; i < t.n * t.d; i++) {
        if (t.x[i] < lo) lo = t.x[i];
        if (t.x[i] > hi) hi = t.x[i];
        h = fnv_f64(h, t.x[i]);
    }
    for (size_t i = 0; i < t.n; i++) {
        unsigned char yb[2] = {(unsigned char)(t.y[i] & 0xff), (unsigned char)(t.y[i] >> 8)};
        h = fdata_fnv1a(h, yb, 2);
        count[t.y[i]]++;
    }
    printf("%s: csv%s %zu x %zu, classes %zu (", path, t.class_names ? "" : " (no header)", t.n, t.d, t.nclasses);
    for (size_t c = 0; c < t.nclasses; c++) {
        if (t.class_names) printf("%s%s %zu", c ? ", " : "", t.class_names[c], count[c]);
        else printf("%s%zu: %zu", c ? ", " : "", c, count[c]);
    }
    printf("), features in [%.17g, %.17g], fnv1a %016llx\n", lo, hi, (unsigned long long)h);
    free(count);
    fdata_table_free(&t);
    return 0;
}

/* The FNV-1a of a table's values (little-endian binary64) then labels
 * (little-endian uint16). */
static uint64_t fnv_table(const double *x, size_t nx, const uint16_t *y, size_t n)
{
    uint64_t h = FDATA_FNV_INIT;
    for (size_t i = 0; i < nx; i++) h = fnv_f64(h, x[i]);
    for (size_t i = 0; i < n; i++) {
        unsigned char yb[2] = {(unsigned char)(y[i] & 0xff), (unsigned char)(y[i] >> 8)};
        h = fdata_fnv1a(h, yb, 2);
    }
    return h;
}

/* A UCI Adult file: its shape, missing values, classes and checksum; kept
 * in *u for the 002 line. */
static int info_uci(const char *path, fdata_uci *u)
{
    char err[512];
    if (fdata_uci_load(u, path, &fdata_adult_schema, err, sizeof err) != FR_OK) {
        cli_error(err, "data info");
        return 2;
    }
    size_t count[2] = {0}, cells = 0;
    for (size_t i = 0; i < u->n; i++) count[u->y[i]]++;
    for (size_t i = 0; i < u->n * u->d; i++) cells += u->missing[i];
    printf("%s: uci adult%s %zu x %zu, rows with '?' %zu ('?' fields %zu), classes 2 (<=50K %zu, >50K %zu), "
           "fnv1a %016llx\n", path, u->test ? " (test)" : "", u->n, u->d, u->rows_missing, cells, count[0], count[1],
           (unsigned long long)fnv_table(u->x, u->n * u->d, u->y, u->n));
    return 0;
}

/* The Adult files read, as FedEPM takes them (002 Sec. VII-A). */
static int info_adult_002(const fdata_uci *const *parts, size_t nparts)
{
    fdata_table t;
    char err[512];
    if (fdata_adult_002(&t, parts, nparts, err, sizeof err) != FR_OK) {
        cli_error(err, "data info");
        return 2;
    }
    size_t pos = 0;
    for (size_t i = 0; i < t.n; i++) pos += t.y[i];
    printf("adult, 002 Sec. VII-A (the %zu file%s above, rows with '?' dropped): %zu x %zu, unit-length columns, "
           "b = 1 (>50K) %zu, b = 0 %zu, fnv1a %016llx\n", nparts, nparts == 1 ? "" : "s", t.n, t.d, pos, t.n - pos,
           (unsigned long long)fnv_table(t.x, t.n * t.d, t.y, t.n));
    fdata_table_free(&t);
    return 0;
}

/* An unsigned decimal in [1, max]; 0 if not. */
static size_t parse_pos(const char *s, size_t max)
{
    size_t v = 0;
    if (*s == '\0' || strlen(s) > 9) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        v = 10 * v + (size_t)(*s - '0');
    }
    return v <= max ? v : 0;
}

int cmd_data(int argc, char **argv)
{
    if (argc < 1) {
        cli_error("missing subcommand: info", "data");
        cli_data_usage(stderr);
        return 2;
    }
    if (cli_is_help(argv[0])) { cli_data_usage(stdout); return 0; }
    if (strcmp(argv[0], "info") != 0) {
        cli_error("unknown subcommand of data (info)", argv[0]);
        cli_data_usage(stderr);
        return 2;
    }
    size_t classes = 10, features = 0;
    int i = 1, nfiles = 0, rc = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) { cli_data_usage(stdout); return 0; }
        if (strcmp(a, "--") == 0) { i++; break; }
        if (strcmp(a, "--classes") == 0 || strcmp(a, "--features") == 0) {
            if (i + 1 >= argc) { cli_error("option needs a value", a); return 2; }
            size_t v = parse_pos(argv[++i], strcmp(a, "--classes") == 0 ? 256 : FDATA_MAX_FEATURES);
            if (v == 0) {
                cli_error(strcmp(a, "--classes") == 0 ? "--classes must be 1..256" : "--features must be 1..2^20",
                          argv[i]);
                return 2;
            }
            if (strcmp(a, "--classes") == 0) classes = v; else features = v;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') { cli_error("unknown option of data info", a); return 2; }
        break;
    }
    fdata_uci *uci = calloc((size_t)(argc - i) + 1, sizeof *uci);
    const fdata_uci **parts = calloc((size_t)(argc - i) + 1, sizeof *parts);
    size_t nuci = 0;
    if (uci == NULL || parts == NULL) {
        free(uci);
        free(parts);
        cli_error("out of memory", "data info");
        return 2;
    }
    for (; i < argc; i++) {
        unsigned char head[256];
        size_t n;
        char err[512];
        nfiles++;
        /* the first bytes tell the format; the loaders then read the file
         * only as far as its header announces */
        if (fdata_read_head(argv[i], head, sizeof head, &n, err, sizeof err) != FR_OK) {
            cli_error(err, "data info");
            rc = 2;
            continue;
        }
        int f = format_of(argv[i], head, n);
        int r = f == 'i' ? info_idx(argv[i], (unsigned)classes)
                : f == 'u' ? info_uci(argv[i], &uci[nuci])
                           : info_csv(argv[i], f == 'h', classes, features);
        if (r) rc = r;
        else if (f == 'u') { parts[nuci] = &uci[nuci]; nuci++; }
    }
    if (nuci > 0 && info_adult_002(parts, nuci) != 0) rc = 2;
    for (size_t k = 0; k < nuci; k++) fdata_uci_free(&uci[k]);
    free(uci);
    free(parts);
    if (nfiles == 0) { cli_error("no data file given", "data info"); return 2; }
    return rc;
}
