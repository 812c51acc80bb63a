/* file.c -- reading a data file whole, inflating gzip (zlib's gzread
 * passes plain files unchanged), and the load functions of data/data.h. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
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
    gzFile g = gzopen(path, "rb");
    if (g == NULL)
        return fdi_fail(err, errlen, FR_EDOM, "%s: cannot open", path);
    size_t cap = (size_t)1 << 16, n = 0;
    unsigned char *b = malloc(cap + 1);
    int st = b == NULL ? fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory", path) : FR_OK;
    while (st == FR_OK) {
        if (n == cap) {
            if (cap >= FDATA_MAX_BYTES) {
                st = fdi_fail(err, errlen, FR_ESIZE, "%s: more than 2^31 bytes (decompressed)", path);
                break;
            }
            unsigned char *nb = realloc(b, 2 * cap + 1);
            if (nb == NULL) { st = fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory", path); break; }
            b = nb;
            cap *= 2;
        }
        size_t want = cap - n < ((size_t)1 << 30) ? cap - n : (size_t)1 << 30;
        int r = gzread(g, b + n, (unsigned)want);
        if (r < 0) {
            int zerr = 0;
            const char *m = gzerror(g, &zerr);
            st = fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: cannot read or inflate (%s)", path, n, m ? m : "?");
            break;
        }
        if (r == 0) {
            int zerr = 0;
            const char *m = gzerror(g, &zerr);
            if (zerr != Z_OK)     /* a truncated gzip stream ends here */
                st = fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: cannot read or inflate (%s)", path, n, m ? m : "?");
            break;
        }
        n += (size_t)r;
    }
    gzclose(g);
    if (st != FR_OK) {
        free(b);
        return st;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return FR_OK;
}

int fdata_idx_load(fdata_idx *out, const char *path, unsigned nclasses, char *err, size_t errlen)
{
    unsigned char *b;
    size_t n;
    if (out == NULL) return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    memset(out, 0, sizeof *out);
    int st = fdata_read_file(path, &b, &n, err, errlen);
    if (st != FR_OK) return st;
    st = fdata_idx_parse(out, b, n, path, nclasses, err, errlen);
    free(b);
    return st;
}

static int csv_load(fdata_table *out, const char *path, int bare, size_t d, size_t nclasses, char *err,
                    size_t errlen)
{
    unsigned char *b;
    size_t n;
    if (out == NULL) return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", path ? path : "(null)");
    memset(out, 0, sizeof *out);
    int st = fdata_read_file(path, &b, &n, err, errlen);
    if (st != FR_OK) return st;
    st = bare ? fdata_csv_parse_bare(out, (const char *)b, n, path, d, nclasses, err, errlen)
              : fdata_csv_parse(out, (const char *)b, n, path, err, errlen);
    free(b);
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
