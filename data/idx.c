/* idx.c -- the strict IDX parser (data/data.h): magic, dimensions, exact
 * size, labels in range.  Offsets in messages are byte offsets in the
 * (decompressed) data. */
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

static size_t be32(const unsigned char *p)
{
    return (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | (size_t)p[3];
}

void fdata_idx_free(fdata_idx *x)
{
    if (x == NULL) return;
    free(x->v);
    memset(x, 0, sizeof *x);
}

int fdata_idx_parse(fdata_idx *out, const unsigned char *buf, size_t len, const char *name,
                    unsigned nclasses, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || name == NULL || (buf == NULL && len > 0))
        return fdi_fail(err, errlen, FR_ENULL, "%s: a required pointer is NULL", name ? name : "(null)");
    memset(out, 0, sizeof *out);
    if (len > FDATA_MAX_BYTES)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: %zu bytes, more than the bound 2^31", name, len);
    if (len < 4)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends inside the 4-byte magic", name, len);
    size_t magic = be32(buf);
    int nd;
    if (magic == 0x00000801) nd = 1;
    else if (magic == 0x00000803) nd = 3;
    else
        return fdi_fail(err, errlen, FR_EDOM,
                        "%s: offset 0: bad magic 0x%08zx (0x00000801 labels or 0x00000803 images, unsigned bytes)",
                        name, magic);
    size_t hdr = 4 + 4 * (size_t)nd;
    if (len < hdr)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends inside the header (%zu bytes)", name, len, hdr);
    size_t dim[3] = {1, 1, 1}, total = 1;
    for (int k = 0; k < nd; k++) {
        dim[k] = be32(buf + 4 + 4 * k);
        if (dim[k] == 0)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %d: dimension %d is 0", name, 4 + 4 * k, k);
        if (dim[k] > FDATA_MAX_ELEMS / total)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %d: dimensions give more than 2^31 elements",
                            name, 4 + 4 * k);
        total *= dim[k];
    }
    if (len - hdr < total)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends early (%zu data bytes, the header says %zu)",
                        name, len, len - hdr, total);
    if (len - hdr > total)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: %zu bytes after the data the header announces",
                        name, hdr + total, len - hdr - total);
    if (nd == 1) {
        if (nclasses == 0)
            return fdi_fail(err, errlen, FR_EDOM, "%s: the number of classes must be at least 1", name);
        for (size_t i = 0; i < total; i++)
            if (buf[hdr + i] >= nclasses)
                return fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: label %u of item %zu is not below %u classes",
                                name, hdr + i, buf[hdr + i], i, nclasses);
    }
    unsigned char *v = malloc(total);
    if (v == NULL)
        return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu bytes)", name, total);
    memcpy(v, buf + hdr, total);
    out->ndims = nd;
    out->n = dim[0];
    out->rows = dim[1];
    out->cols = dim[2];
    out->v = v;
    return FR_OK;
}
