/* SPDX-License-Identifier: Apache-2.0 */
/* file.c -- the load functions of data/data.h: open the file as a source
 * (src.c: plain, or one gzip stream) and run the parser on it, which reads
 * only as far as the header announces (fdata_uci_load: a line at a time,
 * uci.c); and fdata_read_file / fdata_read_head, the whole content or its
 * first bytes. */
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

int fdata_read_file(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (path == NULL || buf == NULL || len == NULL)
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    *buf = NULL;
    *len = 0;
    fdi_src s;
    int st = fdi_src_open(&s, path, err, errlen);
    if (st == FR_OK) st = fdi_src_fill(&s, FDATA_MAX_BYTES + 1, err, errlen);
    if (st == FR_OK && s.len > FDATA_MAX_BYTES)
        st = fdi_fail(err, errlen, FR_ESIZE, "%s: more than 2^31 bytes (decompressed)", path);
    if (st == FR_OK) {
        size_t n = s.len;
        if ((*buf = fdi_src_take(&s, 0, n)) == NULL)
            st = fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory", path);
        else
            *len = n;
    }
    fdi_src_close(&s);
    return st;
}

int fdata_read_head(const char *path, unsigned char *buf, size_t cap, size_t *len, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (path == NULL || len == NULL || (buf == NULL && cap > 0))
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    *len = 0;
    fdi_src s;
    int st = fdi_src_open(&s, path, err, errlen);
    if (st == FR_OK) st = fdi_src_fill(&s, cap, err, errlen);
    if (st == FR_OK) {
        *len = s.len < cap ? s.len : cap;
        if (*len > 0) memcpy(buf, s.p, *len);
    }
    fdi_src_close(&s);
    return st;
}

int fdata_idx_load(fdata_idx *out, const char *path, unsigned nclasses, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || path == NULL)
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    memset(out, 0, sizeof *out);
    fdi_src s;
    int st = fdi_src_open(&s, path, err, errlen);
    if (st == FR_OK) st = fdi_idx_read(out, &s, nclasses, err, errlen);
    fdi_src_close(&s);
    if (st != FR_OK) memset(out, 0, sizeof *out);
    return st;
}

static int csv_load(fdata_table *out, const char *path, int bare, size_t d, size_t nclasses, char *err,
                    size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || path == NULL)
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    memset(out, 0, sizeof *out);
    fdi_src s;
    int st = fdi_src_open(&s, path, err, errlen);
    if (st == FR_OK) st = fdi_csv_read(out, &s, bare, d, nclasses, err, errlen);
    fdi_src_close(&s);
    return st;
}

int fdata_csv_load(fdata_table *out, const char *path, char *err, size_t errlen)
{
    return csv_load(out, path, 0, 0, 0, err, errlen);
}

int fdata_csv_load_bare(fdata_table *out, const char *path, size_t d, size_t nclasses, char *err, size_t errlen)
{
    return csv_load(out, path, 1, d, nclasses, err, errlen);
}

int fdata_uci_load(fdata_uci *out, const char *path, const fdata_uci_schema *sc, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || path == NULL || sc == NULL)
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    memset(out, 0, sizeof *out);
    fdi_src s;
    int st = fdi_src_open(&s, path, err, errlen);
    if (st == FR_OK) st = fdi_uci_read(out, &s, sc, err, errlen);
    fdi_src_close(&s);
    return st;
}
