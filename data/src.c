/* SPDX-License-Identifier: Apache-2.0 */
/* src.c -- the bytes a loader reads (internal.h): a buffer in memory, or a
 * file read only as far as the parser asks, so that memory follows what a
 * header announces, never what a file holds.  A file that starts with the
 * gzip magic 1f 8b is one gzip stream, inflated by zlib (inflate, which
 * checks the CRC-32 and the length in its trailer); the stream must end
 * the file: a second gzip member or any byte after the trailer is an
 * error, and so is a stream cut short. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fedref_common.h"
#include "internal.h"

#define CHUNK ((size_t)1 << 14)    /* compressed bytes read at a time */
#define WINDOW0 ((size_t)1 << 12)  /* the first window: it doubles as bytes arrive */

void fdi_src_mem(fdi_src *s, const void *buf, size_t len, const char *name)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->p = buf;
    s->len = len;
    s->eof = 1;
}

int fdi_src_open(fdi_src *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->name = path;
    s->f = fopen(path, "rb");
    if (s->f == NULL)
        return fdi_fail(err, errlen, FR_EDOM, "%s: cannot open (%s)", path, strerror(errno));
    s->cap = WINDOW0;
    s->buf = malloc(s->cap + 1);
    s->in = malloc(CHUNK);
    if (s->buf == NULL || s->in == NULL)
        return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory", path);
    s->p = s->buf;
    /* the first two bytes: the gzip magic, or the first data bytes */
    size_t k = fread(s->in, 1, 2, s->f);
    if (ferror(s->f))
        return fdi_fail(err, errlen, FR_EDOM, "%s: offset 0: cannot read (%s)", path, strerror(errno));
    if (k == 2 && s->in[0] == 0x1f && s->in[1] == 0x8b) {
        if (inflateInit2(&s->z, 15 + 16) != Z_OK)   /* gzip wrapper only */
            return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (zlib)", path);
        s->gz = 1;
        s->z.next_in = s->in;
        s->z.avail_in = 2;
        s->zin = 2;
    } else {
        memcpy(s->buf, s->in, k);
        s->len = k;
    }
    return FR_OK;
}

/* The compressed bytes after the end of the gzip stream: 0 if none. */
static int check_gzip_end(fdi_src *s, char *err, size_t errlen)
{
    size_t at = s->zin - s->z.avail_in;
    unsigned char c;
    if (s->z.avail_in == 0 && fread(&c, 1, 1, s->f) == 0) {
        if (ferror(s->f))
            return fdi_fail(err, errlen, FR_EDOM, "%s: compressed offset %zu: cannot read (%s)", s->name, at,
                            strerror(errno));
        return FR_OK;
    }
    struct stat sb;
    if (fstat(fileno(s->f), &sb) == 0 && S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > at)
        return fdi_fail(err, errlen, FR_EDOM, "%s: compressed offset %zu: %llu bytes after the end of the gzip stream",
                        s->name, at, (unsigned long long)sb.st_size - at);
    return fdi_fail(err, errlen, FR_EDOM, "%s: compressed offset %zu: bytes after the end of the gzip stream",
                    s->name, at);
}

/* Up to n bytes into dst: *got > 0, or 0 at the end of the data. */
static int read_some(fdi_src *s, unsigned char *dst, size_t n, size_t *got, char *err, size_t errlen)
{
    size_t at = s->off + s->len;    /* offset of dst in the data */
    *got = 0;
    if (!s->gz) {
        *got = fread(dst, 1, n, s->f);
        if (*got == 0 && ferror(s->f))
            return fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: cannot read (%s)", s->name, at, strerror(errno));
        return FR_OK;
    }
    if (s->zend) return FR_OK;
    unsigned want = n < CHUNK ? (unsigned)n : (unsigned)CHUNK;
    s->z.next_out = dst;
    s->z.avail_out = want;
    while (s->z.avail_out == want) {
        if (s->z.avail_in == 0) {
            size_t k = fread(s->in, 1, CHUNK, s->f);
            if (k == 0 && ferror(s->f))
                return fdi_fail(err, errlen, FR_EDOM, "%s: compressed offset %zu: cannot read (%s)", s->name, s->zin,
                                strerror(errno));
            if (k == 0)
                return fdi_fail(err, errlen, FR_EDOM,
                                "%s: offset %zu: the gzip stream ends early (compressed offset %zu: the file is cut short)",
                                s->name, at, s->zin);
            s->zin += k;
            s->z.next_in = s->in;
            s->z.avail_in = (unsigned)k;
        }
        int r = inflate(&s->z, Z_NO_FLUSH);
        if (r == Z_STREAM_END) {
            s->zend = 1;
            int st = check_gzip_end(s, err, errlen);
            if (st != FR_OK) return st;
            break;
        }
        if (r == Z_MEM_ERROR)
            return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (zlib)", s->name);
        if (r != Z_OK && r != Z_BUF_ERROR)
            return fdi_fail(err, errlen, FR_EDOM, "%s: offset %zu: cannot inflate (zlib: %s)", s->name,
                            at + (want - s->z.avail_out), s->z.msg ? s->z.msg : "corrupt data");
    }
    *got = want - s->z.avail_out;
    return FR_OK;
}

int fdi_src_fill(fdi_src *s, size_t want, char *err, size_t errlen)
{
    if (s->len >= want || s->eof) return FR_OK;
    if (s->f == NULL) { s->eof = 1; return FR_OK; }
    if (s->start > 0) {
        memmove(s->buf, s->buf + s->start, s->len);
        s->start = 0;
        s->p = s->buf;
    }
    while (s->len < want) {
        if (s->len == s->cap) {
            /* grow as bytes arrive (doubling), never past want */
            size_t nc = s->cap <= want / 2 ? 2 * s->cap : want;
            unsigned char *nb = realloc(s->buf, nc + 1);
            if (nb == NULL)
                return fdi_fail(err, errlen, FR_ENOMEM, "%s: out of memory (%zu bytes)", s->name, nc);
            s->buf = nb;
            s->p = nb;
            s->cap = nc;
        }
        size_t got;
        int st = read_some(s, s->buf + s->len, s->cap - s->len, &got, err, errlen);
        if (st != FR_OK) return st;
        if (got == 0) { s->eof = 1; break; }
        s->len += got;
    }
    return FR_OK;
}

void fdi_src_skip(fdi_src *s, size_t k)
{
    s->p += k;
    s->len -= k;
    s->off += k;
    s->start += k;
}

unsigned char *fdi_src_take(fdi_src *s, size_t k, size_t n)
{
    unsigned char *v;
    if (s->f == NULL) {
        v = malloc(n + 1);
        if (v == NULL) return NULL;
        memcpy(v, s->p + k, n);
    } else {
        v = s->buf;
        memmove(v, s->p + k, n);
        unsigned char *nv = realloc(v, n + 1);    /* shrink */
        if (nv != NULL) v = nv;
        s->buf = NULL;
        s->p = NULL;
        s->len = s->cap = s->start = 0;
    }
    v[n] = '\0';
    return v;
}

void fdi_src_close(fdi_src *s)
{
    if (s->gz) inflateEnd(&s->z);
    if (s->f != NULL) fclose(s->f);
    free(s->buf);
    free(s->in);
    memset(s, 0, sizeof *s);
}
