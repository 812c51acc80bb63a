/* SPDX-License-Identifier: Apache-2.0 */
/* idx.c -- the strict IDX parser (data/data.h): magic, dimensions, exact
 * size, labels in range.  It reads the 4-byte magic, then the header, then
 * at most the data bytes the header announces and one more (to see that
 * nothing follows), so memory never exceeds what the header announces.
 * Offsets in messages are byte offsets in the (decompressed) data. */
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

/* The IDX element types (LeCun's table); only 0x08 is read. */
static const char *type_name(unsigned t)
{
    switch (t) {
    case 0x09: return "signed bytes";
    case 0x0B: return "16-bit integers";
    case 0x0C: return "32-bit integers";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default: return NULL;
    }
}

/* The magic b[0..4): the number of dimensions, or a status. */
static int check_magic(const unsigned char *b, const char *name, int *nd, char *err, size_t errlen)
{
    size_t magic = be32(b);
    if (b[0] != 0 || b[1] != 0) {
        if (b[2] == 0 && b[3] == 0 && (b[1] == 0x08 || type_name(b[1]) != NULL))
            return fdi_fail(err, errlen, FR_EDOM,
                            "%s: offset 0: bad magic 0x%08zx: the bytes of 0x0000%02x%02x in little-endian order "
                            "(IDX is big-endian)", name, magic, b[1], b[0]);
        return fdi_fail(err, errlen, FR_EDOM,
                        "%s: offset 0: bad magic 0x%08zx (0x00000801 labels or 0x00000803 images, unsigned bytes)",
                        name, magic);
    }
    if (b[2] != 0x08) {
        if (type_name(b[2]) != NULL)
            return fdi_fail(err, errlen, FR_EDOM,
                            "%s: offset 2: bad magic 0x%08zx: IDX type 0x%02x (%s) is not read (only 0x08, "
                            "unsigned bytes)", name, magic, b[2], type_name(b[2]));
        return fdi_fail(err, errlen, FR_EDOM,
                        "%s: offset 2: bad magic 0x%08zx: unknown IDX type 0x%02x (0x08 unsigned bytes, 0x09, "
                        "0x0B-0x0E other numbers)", name, magic, b[2]);
    }
    if (b[3] != 1 && b[3] != 3)
        return fdi_fail(err, errlen, FR_EDOM,
                        "%s: offset 3: bad magic 0x%08zx: %u dimensions (1 labels, 3 images)", name, magic, b[3]);
    *nd = b[3];
    return FR_OK;
}

int fdi_idx_read(fdata_idx *out, fdi_src *s, unsigned nclasses, char *err, size_t errlen)
{
    const char *name = s->name;
    int nd = 0, st = fdi_src_fill(s, 4, err, errlen);
    if (st != FR_OK) return st;
    if (s->len < 4)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends inside the 4-byte magic", name, s->len);
    if ((st = check_magic(s->p, name, &nd, err, errlen)) != FR_OK) return st;
    size_t hdr = 4 + 4 * (size_t)nd;
    if ((st = fdi_src_fill(s, hdr, err, errlen)) != FR_OK) return st;
    if (s->len < hdr)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends inside the header (%zu bytes)", name, s->len,
                        hdr);
    size_t dim[3] = {1, 1, 1}, total = 1;
    for (int k = 0; k < nd; k++) {
        dim[k] = be32(s->p + 4 + 4 * k);
        if (dim[k] == 0)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %d: dimension %d is 0", name, 4 + 4 * k, k);
        if (dim[k] > FDATA_MAX_ELEMS / total)
            return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %d: dimensions give more than 2^31 elements",
                            name, 4 + 4 * k);
        total *= dim[k];
    }
    /* the data the header announces and one byte more, no further */
    if ((st = fdi_src_fill(s, hdr + total + 1, err, errlen)) != FR_OK) return st;
    if (s->len - hdr < total)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: file ends early (%zu data bytes, the header says %zu)",
                        name, s->len, s->len - hdr, total);
    if (s->len - hdr > total)
        return fdi_fail(err, errlen, FR_ESIZE, "%s: offset %zu: data after the %zu bytes the header announces",
                        name, hdr + total, total);
    if (nd == 1) {
        if (nclasses == 0)
            return fdi_fail(err, errlen, FR_EDOM, "%s: the number of classes must be at least 1", name);
        for (size_t i = 0; i < total; i++)
            if (s->p[hdr + i] >= nclasses)
                return fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: label %u of item %zu is not below %u classes",
                                name, hdr + i, s->p[hdr + i], i, nclasses);
    }
    unsigned char *v = fdi_src_take(s, hdr, total);
    if (v == NULL)
        return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu bytes)", name, total);
    out->ndims = nd;
    out->n = dim[0];
    out->rows = dim[1];
    out->cols = dim[2];
    out->v = v;
    return FR_OK;
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
    fdi_src s;
    fdi_src_mem(&s, buf, len, name);
    int st = fdi_idx_read(out, &s, nclasses, err, errlen);
    if (st != FR_OK) memset(out, 0, sizeof *out);
    return st;
}
