/* SPDX-License-Identifier: Apache-2.0 */
/* certify_store.c -- ref's outputs as exact bytes, and the checkpoint of a
 * certification (certify.h; the format: docs/CERTIFY.md "Checkpoints"). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "certify.h"
#include "fedref.h"
#include "../data/data.h"

#define CKPT_MAGIC "fedref-certify-checkpoint/1\n"
/* A record's bytes at most (a checkpoint read back never allocates more). */
#define CKPT_RECORD_MAX ((size_t)1 << 34)

static int put_u64(FILE *f, uint64_t v)
{
    unsigned char b[8];
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)(v >> (8 * k));
    return fwrite(b, 1, 8, f) == 8 ? 0 : -1;
}

static int get_u64(FILE *f, uint64_t *v)
{
    unsigned char b[8];
    if (fread(b, 1, 8, f) != 8) return -1;
    *v = 0;
    for (int k = 0; k < 8; k++) *v |= (uint64_t)b[k] << (8 * k);
    return 0;
}

int cstore_pack(int status, const rtensor *out, size_t nf, char **buf, size_t *len)
{
    *buf = NULL; *len = 0;
    FILE *f = open_memstream(buf, len);
    if (f == NULL) return -1;
    int bad = put_u64(f, (uint64_t)(uint32_t)(int32_t)status);
    for (size_t k = 0; k < nf && !bad; k++) {
        size_t cnt = status == FR_OK ? out[k].rows * out[k].cols : 0;
        bad |= put_u64(f, status == FR_OK ? out[k].rows : 0) | put_u64(f, status == FR_OK ? out[k].cols : 0);
        for (size_t i = 0; i < cnt && !bad; i++) bad |= mpfr_fpif_export(f, out[k].v[i]) != 0;
    }
    if (fclose(f) != 0) bad = 1;
    if (bad) { free(*buf); *buf = NULL; *len = 0; return -1; }
    return 0;
}

int cstore_unpack(const char *buf, size_t len, size_t nf, int *status, rtensor *out)
{
    for (size_t k = 0; k < nf; k++) out[k] = (rtensor){0};
    FILE *f = fmemopen((void *)buf, len, "rb");
    if (f == NULL) return -1;
    uint64_t st = 0, rows = 0, cols = 0;
    int bad = get_u64(f, &st) != 0;
    *status = (int)(int32_t)(uint32_t)st;
    for (size_t k = 0; k < nf && !bad; k++) {
        bad = get_u64(f, &rows) != 0 || get_u64(f, &cols) != 0;
        /* every value takes at least 3 bytes: a count beyond the bytes left is malformed */
        if (bad || (rows && cols > len / 3 / rows)) { bad = 1; break; }
        if (rows * cols == 0) { out[k].rows = (size_t)rows; out[k].cols = (size_t)cols; continue; }
        if (rt_alloc(&out[k], (size_t)rows, (size_t)cols, MPFR_PREC_MIN) != 0) { bad = 1; break; }
        for (size_t i = 0; i < rows * cols && !bad; i++) bad = mpfr_fpif_import(out[k].v[i], f) != 0;
    }
    if (!bad && fgetc(f) != EOF) bad = 1;           /* nothing after the last field */
    fclose(f);
    if (bad)
        for (size_t k = 0; k < nf; k++) rt_free(&out[k]);
    return bad ? -1 : 0;
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)(v >> (8 * k));
    return fdata_fnv1a(h, b, 8);
}

static uint64_t fnv_fields(uint64_t h, const ftensor *t, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        h = fnv_u64(fnv_u64(h, t[k].rows), t[k].cols);
        for (size_t i = 0; i < t[k].rows * t[k].cols; i++) {
            uint64_t u;
            memcpy(&u, &t[k].v[i], 8);
            h = fnv_u64(h, u);
        }
    }
    return h;
}

uint64_t cstore_case_digest(const vfunc *fn, const ftensor *par, const ftensor *in)
{
    uint64_t h = fdata_fnv1a(FDATA_FNV_INIT, (const unsigned char *)fn->name, strlen(fn->name) + 1);
    h = fnv_fields(h, par, vspec_count(fn->params));
    return fnv_fields(h, in, vspec_count(fn->inputs));
}

const crecord *cstore_find(const cstore *st, long id, long prec)
{
    for (size_t j = 0; j < st->n; j++)
        if (st->rec[j].id == id && st->rec[j].prec == prec) return &st->rec[j];
    return NULL;
}

static int push(cstore *st, long id, long prec, const char *buf, size_t len)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 8;
        crecord *r = realloc(st->rec, cap * sizeof *r);
        if (r == NULL) return -1;
        st->rec = r; st->cap = cap;
    }
    char *copy = malloc(len ? len : 1);
    if (copy == NULL) return -1;
    memcpy(copy, buf, len);
    st->rec[st->n++] = (crecord){id, prec, copy, len};
    return 0;
}

/* The header every checkpoint of this certification starts with. */
static int header(const cstore *st, char *out, size_t n)
{
    int w = snprintf(out, n, CKPT_MAGIC "function %s\nversion %s\ncases %016llx\n", st->function, FEDREF_VERSION,
                     (unsigned long long)st->digest);
    return w > 0 && (size_t)w < n ? 0 : -1;
}

static int write_all(const cstore *st, char *err, size_t errlen)
{
    char tmp[4200], head[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", st->path);
    if (header(st, head, sizeof head) != 0) { snprintf(err, errlen, "checkpoint header too long"); return -1; }
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) { snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno)); return -1; }
    int bad = fputs(head, f) == EOF;
    for (size_t j = 0; j < st->n && !bad; j++) {
        bad |= fprintf(f, "record %ld %ld %zu\n", st->rec[j].id, st->rec[j].prec, st->rec[j].len) < 0;
        bad |= fwrite(st->rec[j].buf, 1, st->rec[j].len, f) != st->rec[j].len;
        bad |= fputc('\n', f) == EOF;
    }
    bad |= fputs("end\n", f) == EOF;
    bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, st->path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", st->path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int cstore_add(cstore *st, long id, long prec, const char *buf, size_t len, char *err, size_t errlen)
{
    if (push(st, id, prec, buf, len) != 0) { snprintf(err, errlen, "out of memory"); return -1; }
    return st->path ? write_all(st, err, errlen) : 0;
}

/* One "\n"-ended line of at most n - 1 bytes from buf at *off, without
 * its newline; -1 if none. */
static int line(const char *buf, size_t len, size_t *off, char *out, size_t n)
{
    size_t i = *off;
    while (i < len && buf[i] != '\n' && i - *off < n - 1) i++;
    if (i >= len || buf[i] != '\n') return -1;
    memcpy(out, buf + *off, i - *off);
    out[i - *off] = '\0';
    *off = i + 1;
    return 0;
}

int cstore_parse(cstore *st, const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
    char head[512], l[160];
    if (header(st, head, sizeof head) != 0 || len < strlen(head) || memcmp(buf, head, strlen(head)) != 0) {
        snprintf(err, errlen, "%s is not a checkpoint of this certification (function %s, fedref %s, "
                 "cases %016llx): remove it, or certify those cases again", name, st->function, FEDREF_VERSION,
                 (unsigned long long)st->digest);
        return -1;
    }
    size_t off = strlen(head);
    for (;;) {
        long id, prec;
        size_t n;
        char tail;
        if (line(buf, len, &off, l, sizeof l) != 0) break;
        if (strcmp(l, "end") == 0) {
            if (off != len) break;
            return 0;
        }
        if (sscanf(l, "record %ld %ld %zu%c", &id, &prec, &n, &tail) != 3 || n > CKPT_RECORD_MAX
            || n > len - off || len - off - n < 1 || buf[off + n] != '\n' || cstore_find(st, id, prec))
            break;
        if (push(st, id, prec, buf + off, n) != 0) { snprintf(err, errlen, "out of memory"); return -1; }
        off += n + 1;
    }
    snprintf(err, errlen, "%s: a malformed checkpoint (cut short or altered): remove it", name);
    return -1;
}

int cstore_slurp(const char *path, char **out, size_t *outlen, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    *out = NULL; *outlen = 0;
    if (f == NULL) { snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno)); return -1; }
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    int bad = 0;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (b == NULL) { bad = 1; break; }
            buf = b;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) bad = 1;
    fclose(f);
    if (bad) { free(buf); snprintf(err, errlen, "cannot read %s", path); return -1; }
    *out = buf; *outlen = len;
    return 0;
}

void cstore_free(cstore *st)
{
    for (size_t j = 0; j < st->n; j++) free(st->rec[j].buf);
    free(st->rec);
    free(st->path);
    st->rec = NULL; st->path = NULL;
    st->n = st->cap = 0;
}
