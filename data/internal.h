/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h -- helpers shared by the loaders of data/ (not installed). */
#ifndef FEDREF_DATA_INTERNAL_H
#define FEDREF_DATA_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <zlib.h>
#include "data.h"

/* Write the formatted message into err (errlen bytes, terminated when
 * errlen > 0) and return status. */
int fdi_fail(char *err, size_t errlen, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* s[0..n) quoted for a message in dst (FDI_QUOTE_MAX bytes): at most 32
 * bytes of s, printable ASCII as is, '"' and '\\' escaped, every other
 * byte (control characters, \r, a byte order mark, UTF-8) as \xHH, and
 * "..." when cut.  Returns dst. */
#define FDI_QUOTE_MAX 136
const char *fdi_quote(char *dst, const char *s, size_t n);

/* The bytes a parser reads (src.c): a buffer in memory, or a file (plain,
 * or one gzip stream inflated by zlib) read only as far as the parser
 * asks.  p[0..len) are the bytes available, at offset off of the
 * (decompressed) data; eof says nothing follows them. */
typedef struct {
    const char *name;            /* for messages */
    const unsigned char *p;
    size_t len, off;
    int eof;
    FILE *f;                     /* NULL: a memory source */
    int gz, zend;                /* a gzip stream; its end was reached */
    z_stream z;
    unsigned char *buf, *in;     /* the window (p = buf + start), compressed input */
    size_t cap, start, zin;      /* zin: compressed bytes read */
} fdi_src;

void fdi_src_mem(fdi_src *s, const void *buf, size_t len, const char *name);
/* Open path (gzip when it starts with 1f 8b): FR_OK or FR_EDOM "cannot
 * open", FR_ENOMEM; close it in any case. */
int fdi_src_open(fdi_src *s, const char *path, char *err, size_t errlen);
/* Make at least want bytes available at p, or all that is left (eof set).
 * The file errors: cannot read, cannot inflate, a gzip stream cut short,
 * bytes after the gzip stream (FR_EDOM); FR_ENOMEM. */
int fdi_src_fill(fdi_src *s, size_t want, char *err, size_t errlen);
/* Drop the first k <= len bytes. */
void fdi_src_skip(fdi_src *s, size_t k);
/* p[k..k+n) (k + n <= len) in a malloc'ed block of n + 1 bytes, the last
 * one NUL; a file source hands over its window (no copy) and is then only
 * to be closed.  NULL if out of memory. */
unsigned char *fdi_src_take(fdi_src *s, size_t k, size_t n);
void fdi_src_close(fdi_src *s);

/* A number field s[0..n) of docs/DATA.md's grammar (csv.c), at most 64
 * bytes: FR_OK and *v, or FR_EDOM / FR_ENONFINITE with *why. */
int fdi_parse_number(const char *s, size_t n, double *v, const char **why);

/* The parsers on a source (idx.c, csv.c, uci.c): out zeroed on entry. */
int fdi_idx_read(fdata_idx *out, fdi_src *s, unsigned nclasses, char *err, size_t errlen);
int fdi_csv_read(fdata_table *out, fdi_src *s, int bare, size_t d, size_t nclasses, char *err, size_t errlen);
int fdi_uci_read(fdata_uci *out, fdi_src *s, const fdata_uci_schema *sc, char *err, size_t errlen);

#endif
