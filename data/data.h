/* SPDX-License-Identifier: Apache-2.0 */
/* data.h -- strict loaders of the real data sets (docs/DATA.md): IDX
 * files (Fashion-MNIST) and sklearn's CSV files (breast_cancer.csv,
 * digits.csv.gz), plain or gzip-compressed.  Internal to the programs
 * (libfeddata.a: the CLI, the tests, the fuzz target); not installed.
 *
 * Every function returns FR_OK or a negative FR_* status and, on error,
 * writes a message "NAME: offset N: what" (IDX; N the byte offset in the
 * decompressed data) or "NAME: line L, field F: what" (CSV) into err
 * (errlen bytes, always terminated when errlen > 0); the output struct is
 * then zeroed (safe to free).  Nothing is printed, nothing aborts.
 *   FR_ENULL       out, buf or name NULL
 *   FR_ESIZE       a dimension 0 or above its bound, a file shorter or
 *                  longer than its header says, a row with the wrong
 *                  number of fields, a line longer than its fields can
 *                  take, input above FDATA_MAX_BYTES
 *   FR_ENONFINITE  a NaN or an infinity, or a number that overflows
 *                  binary64 (CSV)
 *   FR_EDOM        bad magic or IDX type, a field that is not a number or
 *                  underflows to 0, a label out of range, a malformed
 *                  header, a CRLF line ending, a UTF-8 byte order mark; a
 *                  file that cannot be opened, read or inflated, a gzip
 *                  stream cut short or followed by more bytes
 *   FR_ENOMEM      allocation failed
 *
 * Memory: the load functions read a file only as far as its header
 * announces (IDX: the header, then at most its data bytes and one more;
 * CSV: one line at a time, at most what its fields can take, and after
 * the n rows of a header one byte more), so a short file with a huge
 * header, or a gzip bomb behind a small header, costs what the header
 * announces, never what the file inflates to. */
#ifndef FEDREF_DATA_H
#define FEDREF_DATA_H

#include <stddef.h>
#include <stdint.h>

/* Bounds: at most 2^31 elements in one data set (IDX: n * rows * cols
 * bytes; CSV: n * d values), 2^31 bytes of (decompressed) input, 2^20
 * features, 2^16 classes (CSV header: each name at most 255 bytes). */
#define FDATA_MAX_ELEMS ((size_t)1 << 31)
#define FDATA_MAX_BYTES ((size_t)1 << 31)
#define FDATA_MAX_FEATURES ((size_t)1 << 20)
#define FDATA_MAX_CLASSES ((size_t)1 << 16)
#define FDATA_MAX_NAME 255

/* An IDX file (LeCun's format): magic 0x00000801 (labels, one dimension)
 * or 0x00000803 (images, three), unsigned bytes, dimensions as big-endian
 * uint32, then exactly n * rows * cols data bytes. */
typedef struct {
    int ndims;               /* 1 labels, 3 images */
    size_t n;                /* items (dims[0]) */
    size_t rows, cols;       /* 1, 1 for labels */
    unsigned char *v;        /* n * rows * cols bytes, item-major */
} fdata_idx;

/* A classification table: n samples of d features (binary64, row-major)
 * and a label in [0, nclasses) each. */
typedef struct {
    size_t n, d, nclasses;
    double *x;               /* n * d */
    uint16_t *y;             /* n */
    char **class_names;      /* nclasses names (sklearn header), or NULL */
} fdata_table;

/* Parse an IDX image in memory.  nclasses >= 1 bounds the labels of a
 * labels file (each must be < nclasses; at most 256 is meaningful);
 * ignored for images. */
int fdata_idx_parse(fdata_idx *out, const unsigned char *buf, size_t len, const char *name,
                    unsigned nclasses, char *err, size_t errlen);
void fdata_idx_free(fdata_idx *x);

/* Parse sklearn's CSV with header (breast_cancer.csv, iris.csv,
 * wine_data.csv): line 1 "n,d,name_0,...,name_{k-1}", then n lines of d
 * numbers and an integer label in [0, k), each ended by "\n" (the last
 * one's optional).  Numbers: [+-]digits[.digits][(e|E)[+-]digits] (or
 * .digits); nothing else (no spaces, no "\r", no hex); a number that
 * overflows binary64 or is nonzero and rounds to 0 is an error.  Lines
 * end with "\n" alone (CRLF is an error); no UTF-8 byte order mark. */
int fdata_csv_parse(fdata_table *out, const char *buf, size_t len, const char *name,
                    char *err, size_t errlen);
/* The same rows without a header (digits.csv: 64 pixels and the digit):
 * d + 1 fields per line (d = 0: the fields of line 1 less the label),
 * labels < nclasses; n is the number of lines. */
int fdata_csv_parse_bare(fdata_table *out, const char *buf, size_t len, const char *name,
                         size_t d, size_t nclasses, char *err, size_t errlen);
void fdata_table_free(fdata_table *t);

/* A UCI attribute: continuous (ncat 0) or one of ncat categories, named
 * as the data set's .names file lists them. */
typedef struct {
    const char *name;
    size_t ncat;                 /* 0: continuous */
    const char *const *cats;
} fdata_uci_attr;
/* The layout of a UCI file: nattr attributes, then the label, one of
 * nclasses class names. */
typedef struct {
    size_t nattr;
    const fdata_uci_attr *attr;
    size_t nclasses;
    const char *const *classes;
} fdata_uci_schema;
/* UCI Adult (adult.names): 14 attributes, 6 continuous and 8 categorical
 * (categories in the order adult.names lists them), label "<=50K" (0) or
 * ">50K" (1). */
extern const fdata_uci_schema fdata_adult_schema;

/* A UCI file as read: n rows of d = schema nattr attributes. */
typedef struct {
    size_t n, d;
    double *x;                   /* n * d: the value, or the category's index
                                  * in the schema (from 0); 0 where missing */
    unsigned char *missing;      /* n * d: 1 where the field is "?" */
    uint16_t *y;                 /* n: the class's index in the schema */
    size_t rows_missing;         /* rows with at least one "?" */
    int test;                    /* line 1 was "|1x3 Cross validator" */
} fdata_uci;

/* Parse a UCI comma-and-space file (adult.data, adult.test): each line
 * holds nattr + 1 fields separated by ", " (a comma and one space; no
 * other space, no tab), each 1 to 64 printable bytes: a number of the CSV
 * grammar (continuous), one of the attribute's categories, or "?"
 * (missing); the label is one of the classes, and carries a trailing "."
 * (">50K.") exactly when line 1 is "|1x3 Cross validator" (the test
 * file).  Lines end with "\n" alone (CRLF, a byte order mark are errors);
 * the last line may be empty, no other.  FR_ESIZE: a wrong field count, a
 * line above (nattr + 1) * 66 bytes, no rows, above 2^31 values; FR_EDOM:
 * a bad separator, an unknown category or class, a missing or unexpected
 * trailing ".", a field that is not a number, a blank line before the
 * end; FR_ENONFINITE as the CSV numbers. */
int fdata_uci_parse(fdata_uci *out, const char *buf, size_t len, const char *name, const fdata_uci_schema *sc,
                    char *err, size_t errlen);
int fdata_uci_load(fdata_uci *out, const char *path, const fdata_uci_schema *sc, char *err, size_t errlen);
void fdata_uci_free(fdata_uci *u);

/* FedEPM's Adult (002 Sec. VII-A, docs/DATA.md): the rows of the nparts
 * files (read with fdata_adult_schema; 002: adult.data then adult.test)
 * without a "?", in that order; each categorical attribute as the integer
 * 1 + its index in adult.names's list; every column divided by its
 * Euclidean norm (unit length); labels b in {0, 1} (1: ">50K").  out gets
 * n rows, d = 14, nclasses 2 with the class names.  FR_EDOM: a part not
 * of the Adult schema, a column of zeros; FR_ESIZE: no row left. */
int fdata_adult_002(fdata_table *out, const fdata_uci *const *parts, size_t nparts, char *err, size_t errlen);

/* ProxAL's 'adult-b' (004 Sec. 5.3, docs/DATA.md section 4b): the first
 * 22 654 rows of adult.data and the first 5 659 rows of adult.test without
 * a "?" (file order); 39 features: the 6 continuous attributes min-max
 * scaled to [0, 1] by the training rows' ranges, marital-status (7),
 * occupation (14), relationship (6) and race (5) one-hot, sex 0 (Female)
 * or 1 (Male); labels as fdata_adult_002's.  group_*: the sensitive
 * attribute sex per row (0, 1).  FR_EDOM: a part not as fdata_uci_parse
 * leaves it on the Adult schema (14 attributes, categories, labels 0/1);
 * FR_ESIZE: a part with too few rows without a "?". */
#define FDATA_ADULT_B_D 39
#define FDATA_ADULT_B_TRAIN 22654
#define FDATA_ADULT_B_TEST 5659
typedef struct {
    fdata_table train, test;     /* the clients' rows, the server's */
    unsigned char *group_train, *group_test;
} fdata_adult_b;
int fdata_adult_004b(fdata_adult_b *out, const fdata_uci *train, const fdata_uci *test, char *err, size_t errlen);
void fdata_adult_b_free(fdata_adult_b *b);

/* The whole content of the file at path, inflated if it starts with the
 * gzip magic 1f 8b (one gzip stream, nothing after it; plain files pass
 * unchanged), at most FDATA_MAX_BYTES (and as much memory: the load
 * functions below read less); *buf is malloc'ed with a terminating NUL
 * after the len bytes. */
int fdata_read_file(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen);
/* The first min(cap, size) bytes of the same content into buf[0..cap),
 * *len of them; the file is read (and inflated) no further than that. */
int fdata_read_head(const char *path, unsigned char *buf, size_t cap, size_t *len, char *err, size_t errlen);

/* The parsers on the file at path, plain or gzip as fdata_read_file reads
 * it, but reading only as far as the header announces (messages name the
 * path). */
int fdata_idx_load(fdata_idx *out, const char *path, unsigned nclasses, char *err, size_t errlen);
int fdata_csv_load(fdata_table *out, const char *path, char *err, size_t errlen);
int fdata_csv_load_bare(fdata_table *out, const char *path, size_t d, size_t nclasses,
                        char *err, size_t errlen);

/* 64-bit FNV-1a of len bytes, continuing from h (start: FDATA_FNV_INIT):
 * the checksum `fedref data info` prints. */
#define FDATA_FNV_INIT UINT64_C(0xcbf29ce484222325)
uint64_t fdata_fnv1a(uint64_t h, const void *p, size_t len);

#endif
