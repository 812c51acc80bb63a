/* SPDX-License-Identifier: Apache-2.0 */
/* test_file.c -- reading data files (data/src.c, data/file.c): one gzip
 * stream and nothing after it (trailing bytes, a second member, a stream
 * cut short, a bad CRC are errors with their own message, for each load
 * function and fdata_read_file), fdata_read_head, and bounded memory: gzip
 * bombs behind small IDX and CSV headers, and a short file behind a huge
 * header, are rejected with a peak RSS growth far below what they inflate
 * to (measured in a child process). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fedref_common.h"
#include "../../data/data.h"
#include "data_files.h"

Suite *suite_data_file(void);

/* An IDX labels file of 6 labels < 5 into b: its size. */
static size_t labels_idx(unsigned char *b)
{
    static const unsigned char h[14] = {0, 0, 8, 1, 0, 0, 0, 6, 0, 1, 4, 2, 3, 4};
    memcpy(b, h, sizeof h);
    return sizeof h;
}

/* The bytes of file path into b (at most cap): the count. */
static size_t slurp(const char *path, unsigned char *b, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(b, 1, cap, f);
    fclose(f);
    return n;
}

/* Every reader of path fails with st and a message holding want. */
static void all_fail(const char *path, int st, const char *want)
{
    char err[512];
    fdata_idx x;
    unsigned char *b = (unsigned char *)"x";
    size_t n = 1;
    ck_assert_int_eq(fdata_read_file(path, &b, &n, err, sizeof err), st);
    ck_assert_msg(strstr(err, path) && strstr(err, want), "read_file: '%s' lacks '%s'", err, want);
    ck_assert_ptr_null(b);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(fdata_idx_load(&x, path, 5, err, sizeof err), st);
    ck_assert_msg(strstr(err, want), "idx_load: '%s' lacks '%s'", err, want);
    ck_assert_ptr_null(x.v);
}

START_TEST(gzip_one_stream)
{
    unsigned char b[64], z[512];
    size_t n = labels_idx(b);
    const char *p = df_write("l.gz", b, n, 1);
    size_t zn = slurp(p, z, sizeof z - 16);
    /* four bytes after the stream */
    memcpy(z + zn, "junk", 4);
    char want[96];
    snprintf(want, sizeof want, "compressed offset %zu: 4 bytes after the end of the gzip stream", zn);
    all_fail(df_write("trail.gz", z, zn + 4, 0), FR_EDOM, want);
    /* one zero byte after the stream (what a padded copy gets) */
    z[zn] = 0;
    snprintf(want, sizeof want, "compressed offset %zu: 1 bytes after the end of the gzip stream", zn);
    all_fail(df_write("trail0.gz", z, zn + 1, 0), FR_EDOM, want);
    /* a second gzip member (cat a.gz b.gz) */
    unsigned char z2[1024];
    memcpy(z2, z, zn);
    memcpy(z2 + zn, z, zn);
    all_fail(df_write("two.gz", z2, 2 * zn, 0), FR_EDOM, "bytes after the end of the gzip stream");
    /* cut short, in the data and in the trailer */
    all_fail(df_write("cut.gz", z, zn - 1, 0), FR_EDOM, "offset 14: the gzip stream ends early");
    all_fail(df_write("cut2.gz", z, 12, 0), FR_EDOM, "the gzip stream ends early");
    all_fail(df_write("magic.gz", z, 2, 0), FR_EDOM, "offset 0: the gzip stream ends early");
    /* the CRC-32 of the trailer (its first 4 of 8 bytes) wrong */
    memcpy(z2, z, zn);
    z2[zn - 8] ^= 1;
    all_fail(df_write("crc.gz", z2, zn, 0), FR_EDOM, "cannot inflate (zlib: incorrect data check)");
    /* the gzip magic on no gzip stream */
    memcpy(z2 + 2, "not deflate", 11);
    all_fail(df_write("fake.gz", z2, 13, 0), FR_EDOM, "cannot inflate (zlib:");
    /* the same trailing bytes after a CSV */
    const char csv[] = "1,1,a\n0.5,0\n";
    p = df_write("t.csv.gz", csv, strlen(csv), 1);
    zn = slurp(p, z, sizeof z - 16);
    z[zn] = '\n';
    p = df_write("trail.csv.gz", z, zn + 1, 0);
    fdata_table t;
    char err[512];
    ck_assert_int_eq(fdata_csv_load(&t, p, err, sizeof err), FR_EDOM);
    ck_assert_msg(strstr(err, "1 bytes after the end of the gzip stream"), "%s", err);
    ck_assert_int_eq(fdata_csv_load_bare(&t, p, 0, 2, err, sizeof err), FR_EDOM);
    ck_assert_ptr_null(t.x);
    /* and the clean copy loads */
    ck_assert_int_eq(fdata_csv_load(&t, df_write("ok.csv.gz", z, zn, 0), err, sizeof err), FR_OK);
    ck_assert(t.n == 1 && t.x[0] == 0.5);
    fdata_table_free(&t);
}
END_TEST

START_TEST(read_head)
{
    unsigned char b[64], h[64];
    char err[512];
    size_t n = labels_idx(b), k = 99;
    ck_assert_int_eq(fdata_read_head(df_write("h.gz", b, n, 1), h, 4, &k, err, sizeof err), FR_OK);
    ck_assert_uint_eq(k, 4);
    ck_assert_mem_eq(h, b, 4);
    ck_assert_int_eq(fdata_read_head(df_write("h", b, n, 0), h, sizeof h, &k, err, sizeof err), FR_OK);
    ck_assert_uint_eq(k, n);
    ck_assert_mem_eq(h, b, n);
    ck_assert_int_eq(fdata_read_head(df_write("e", b, 0, 0), h, sizeof h, &k, err, sizeof err), FR_OK);
    ck_assert_uint_eq(k, 0);
    ck_assert_int_eq(fdata_read_head("/nonexistent/h", h, 4, &k, err, sizeof err), FR_EDOM);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/h: cannot open (No such file or directory)"));
    ck_assert_int_eq(fdata_read_head(NULL, h, 4, &k, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_read_head("h", NULL, 4, &k, err, sizeof err), FR_ENULL);
}
END_TEST

/* Run load (kind 'i' IDX, 'h' CSV, 'b' bare CSV with d = 1) on path in a
 * child process, expecting st and want; returns the child's peak RSS
 * growth during the load, in KiB. */
static long load_rss_kib(int kind, const char *path, int st, const char *want)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ne(pid, -1);
    if (pid == 0) {
        struct rusage r0, r1;
        char err[512] = "";
        fdata_idx x;
        fdata_table t;
        getrusage(RUSAGE_SELF, &r0);
        int r = kind == 'i' ? fdata_idx_load(&x, path, 10, err, sizeof err)
              : kind == 'h' ? fdata_csv_load(&t, path, err, sizeof err)
                            : fdata_csv_load_bare(&t, path, 1, 2, err, sizeof err);
        getrusage(RUSAGE_SELF, &r1);
        long out[2] = {r == st && strstr(err, want) != NULL, r1.ru_maxrss - r0.ru_maxrss};
        if (!out[0]) fprintf(stderr, "load_rss_kib: %s: status %d (%s), expected %d and '%s'\n", path, r, err, st, want);
        if (write(fd[1], out, sizeof out) != (ssize_t)sizeof out) _exit(2);
        _exit(0);
    }
    close(fd[1]);
    long in[2] = {0, 0};
    ck_assert_int_eq(read(fd[0], in, sizeof in), (ssize_t)sizeof in);
    close(fd[0]);
    int ws;
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    ck_assert_msg(in[0] == 1, "%s: wrong status or message (see stderr)", path);
    return in[1];
}

/* 256 MiB of zeros behind each header: the loaders inflate what the
 * header announces (+1 byte) and stop, so the peak RSS grows by far less
 * than 256 MiB (before: the whole 256 MiB, then the copy). */
START_TEST(gzip_bombs)
{
    static const unsigned char idx[16] = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};
    const long bound = 32 * 1024;     /* KiB */
    long kib = load_rss_kib('i', df_write_bomb("bomb.idx.gz", idx, sizeof idx, 256), FR_ESIZE,
                            "offset 40: data after the 24 bytes the header announces");
    ck_assert_msg(kib < bound, "IDX bomb: peak RSS grew by %ld KiB", kib);
    const char csv[] = "1,1,a\n0.5,0\n";
    kib = load_rss_kib('h', df_write_bomb("bomb.csv.gz", csv, strlen(csv), 256), FR_ESIZE,
                       "line 3: data after the 1 rows the header announces");
    ck_assert_msg(kib < bound, "CSV bomb: peak RSS grew by %ld KiB", kib);
    kib = load_rss_kib('b', df_write_bomb("bomb-bare.csv.gz", csv + 6, 6, 256), FR_EDOM,
                       "line 2, field 1: a field longer than 64 bytes");
    ck_assert_msg(kib < bound, "bare CSV bomb: peak RSS grew by %ld KiB", kib);
    /* a header of 60000 x 28 x 28 on 10 bytes: memory follows the bytes */
    static const unsigned char big[26] = {0, 0, 8, 3, 0, 0, 0xea, 0x60, 0, 0, 0, 28, 0, 0, 0, 28};
    kib = load_rss_kib('i', df_write("short.idx", big, sizeof big, 0), FR_ESIZE,
                       "offset 26: file ends early (10 data bytes, the header says 47040000)");
    ck_assert_msg(kib < bound, "short IDX: peak RSS grew by %ld KiB", kib);
}
END_TEST

Suite *suite_data_file(void)
{
    Suite *s = suite_create("data_file");
    TCase *tc = tcase_create("file");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gzip_one_stream);
    tcase_add_test(tc, read_head);
    tcase_add_test(tc, gzip_bombs);
    suite_add_tcase(s, tc);
    return s;
}
