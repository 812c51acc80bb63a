/* SPDX-License-Identifier: Apache-2.0 */
/* test_idx.c -- the strict IDX loader (data/idx.c, data/file.c): valid
 * label and image files, plain and gzip, and corrupted copies (truncated,
 * each byte of the magic wrong, a little-endian magic, wrong dimensions,
 * extra bytes, labels out of range, a truncated gzip stream), each with
 * its status and located message, the same from the file and from its
 * bytes in memory; the
 * real Fashion-MNIST files when `make data` has run. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "../../data/data.h"
#include "data_files.h"

Suite *suite_data_idx(void);

/* IDX header of magic m and dims d[0..nd) then len bytes of body into b;
 * returns the size. */
static size_t make_idx(unsigned char *b, unsigned m, const unsigned *d, int nd, const unsigned char *body, size_t len)
{
    size_t k = 0;
    unsigned w[4] = {m, 0, 0, 0};
    for (int i = 0; i < nd; i++) w[i + 1] = d[i];
    for (int i = 0; i <= nd; i++) {
        b[k++] = (unsigned char)(w[i] >> 24);
        b[k++] = (unsigned char)(w[i] >> 16);
        b[k++] = (unsigned char)(w[i] >> 8);
        b[k++] = (unsigned char)w[i];
    }
    memcpy(b + k, body, len);
    return k + len;
}

static const unsigned char labels[6] = {0, 1, 4, 2, 3, 4};
static unsigned char pix[2 * 3 * 4];

/* Load path expecting status st and a message holding path and want;
 * when the whole file reads, parsing its bytes in memory must say the
 * same (the loader reads only what the header announces, the parser sees
 * it all). */
static void expect_fail(const char *path, unsigned classes, int st, const char *want)
{
    fdata_idx x;
    char err[512], err2[512];
    unsigned char *b;
    size_t n;
    ck_assert_int_eq(fdata_idx_load(&x, path, classes, err, sizeof err), st);
    ck_assert_msg(strstr(err, path) != NULL && strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
    ck_assert_ptr_null(x.v);
    ck_assert_uint_eq(x.n, 0);
    if (fdata_read_file(path, &b, &n, err2, sizeof err2) == FR_OK) {
        ck_assert_int_eq(fdata_idx_parse(&x, b, n, path, classes, err2, sizeof err2), st);
        ck_assert_str_eq(err2, err);
        ck_assert_ptr_null(x.v);
        free(b);
    }
}

START_TEST(valid_labels_and_images)
{
    unsigned char b[256];
    unsigned dl[1] = {6}, di[3] = {2, 3, 4};
    for (size_t i = 0; i < sizeof pix; i++) pix[i] = (unsigned char)(7 * i + 1);
    for (int gz = 0; gz <= 1; gz++) {
        fdata_idx x;
        char err[512];
        size_t n = make_idx(b, 0x801, dl, 1, labels, sizeof labels);
        ck_assert_int_eq(fdata_idx_load(&x, df_write(gz ? "l.gz" : "l", b, n, gz), 5, err, sizeof err), FR_OK);
        ck_assert_int_eq(x.ndims, 1);
        ck_assert_uint_eq(x.n, 6);
        ck_assert_uint_eq(x.rows * x.cols, 1);
        ck_assert_mem_eq(x.v, labels, 6);
        fdata_idx_free(&x);
        n = make_idx(b, 0x803, di, 3, pix, sizeof pix);
        ck_assert_int_eq(fdata_idx_load(&x, df_write(gz ? "i.gz" : "i", b, n, gz), 5, err, sizeof err), FR_OK);
        ck_assert_int_eq(x.ndims, 3);
        ck_assert_uint_eq(x.n, 2);
        ck_assert_uint_eq(x.rows, 3);
        ck_assert_uint_eq(x.cols, 4);
        ck_assert_mem_eq(x.v, pix, sizeof pix);
        fdata_idx_free(&x);
    }
}
END_TEST

START_TEST(corrupted_copies)
{
    unsigned char b[256];
    unsigned di[3] = {2, 3, 4};
    size_t n = make_idx(b, 0x803, di, 3, pix, sizeof pix);
    expect_fail(df_write("trunc", b, n - 1, 0), 10, FR_ESIZE, "offset 39: file ends early (23 data bytes, the header says 24)");
    expect_fail(df_write("trunc-hdr", b, 10, 0), 10, FR_ESIZE, "offset 10: file ends inside the header (16 bytes)");
    expect_fail(df_write("trunc-magic", b, 3, 0), 10, FR_ESIZE, "file ends inside the 4-byte magic");
    expect_fail(df_write("empty", b, 0, 0), 10, FR_ESIZE, "offset 0: file ends inside");
    expect_fail(df_write("trunc.gz", b, n - 1, 1), 10, FR_ESIZE, "file ends early");
    unsigned char c[256];
    memcpy(c, b, n);
    c[5] = 1;                                       /* n = 2^16 + 2 */
    expect_fail(df_write("dims", c, n, 0), 10, FR_ESIZE, "the header says 786456");
    memcpy(c, b, n);
    c[11] = 0;                                      /* rows = 0 */
    expect_fail(df_write("dim0", c, n, 0), 10, FR_ESIZE, "offset 8: dimension 1 is 0");
    memset(c + 4, 0xff, 8);                         /* n = rows = 2^32 - 1 */
    expect_fail(df_write("huge", c, n, 0), 10, FR_ESIZE, "offset 4: dimensions give more than 2^31 elements");
    memset(c + 4, 0, 8);
    c[5] = c[9] = 1;                                /* n = rows = 2^16: 2^32 elements */
    expect_fail(df_write("huge2", c, n, 0), 10, FR_ESIZE, "offset 8: dimensions give more than 2^31 elements");
    memcpy(c, b, n);
    c[n] = 0;
    expect_fail(df_write("long", c, n + 1, 0), 10, FR_ESIZE, "offset 40: data after the 24 bytes the header announces");
    expect_fail(df_write("long.gz", c, n + 1, 1), 10, FR_ESIZE, "offset 40: data after the 24 bytes");
}
END_TEST

/* Each byte of the magic 00 00 08 0{1,3} checked on its own, with its
 * message: a little-endian magic, another IDX type, an unknown type, a
 * dimension count other than 1 or 3, text. */
START_TEST(bad_magic)
{
    unsigned char b[256], c[256];
    unsigned di[3] = {2, 3, 4};
    size_t n = make_idx(b, 0x803, di, 3, pix, sizeof pix);
    memcpy(c, b, n);
    c[3] = 0x02;                                    /* 0x802: two dimensions */
    expect_fail(df_write("magic", c, n, 0), 10, FR_EDOM, "offset 3: bad magic 0x00000802: 2 dimensions (1 labels, 3 images)");
    c[3] = 0x00;
    expect_fail(df_write("magic0", c, n, 0), 10, FR_EDOM, "offset 3: bad magic 0x00000800: 0 dimensions");
    memcpy(c, b, n);
    c[2] = 0x0d;                                    /* 0xd03: float images */
    expect_fail(df_write("magic-float", c, n, 0), 10, FR_EDOM,
                "offset 2: bad magic 0x00000d03: IDX type 0x0d (float) is not read (only 0x08, unsigned bytes)");
    c[2] = 0x09;
    expect_fail(df_write("magic-i8", c, n, 0), 10, FR_EDOM, "IDX type 0x09 (signed bytes) is not read");
    c[2] = 0x07;                                    /* no IDX type */
    expect_fail(df_write("magic-type", c, n, 0), 10, FR_EDOM, "offset 2: bad magic 0x00000703: unknown IDX type 0x07");
    c[2] = 0x0a;
    expect_fail(df_write("magic-type-a", c, n, 0), 10, FR_EDOM, "unknown IDX type 0x0a");
    memcpy(c, b, n);
    c[0] = 0x03; c[1] = 0x08; c[2] = 0x00; c[3] = 0x00;   /* 0x803 written little-endian */
    expect_fail(df_write("magic-le", c, n, 0), 10, FR_EDOM,
                "offset 0: bad magic 0x03080000: the bytes of 0x00000803 in little-endian order (IDX is big-endian)");
    expect_fail(df_write("magic-le.gz", c, n, 1), 10, FR_EDOM, "in little-endian order");
    c[0] = 0x01;
    expect_fail(df_write("magic-le1", c, n, 0), 10, FR_EDOM, "the bytes of 0x00000801 in little-endian order");
    memcpy(c, "2,1,a\n1,0\n", 10);                  /* a CSV file */
    expect_fail(df_write("text.idx", c, 10, 0), 10, FR_EDOM,
                "offset 0: bad magic 0x322c312c (0x00000801 labels or 0x00000803 images, unsigned bytes)");
    c[0] = 0; c[1] = 1;
    expect_fail(df_write("magic-b1", c, 10, 0), 10, FR_EDOM, "offset 0: bad magic 0x0001312c (0x00000801");
}
END_TEST

START_TEST(labels_and_gzip)
{
    unsigned char b[256];
    unsigned dl[1] = {6};
    size_t n = make_idx(b, 0x801, dl, 1, labels, sizeof labels);
    expect_fail(df_write("range", b, n, 0), 4, FR_EDOM, "offset 10: label 4 of item 2 is not below 4 classes");
    expect_fail(df_write("range0", b, n, 0), 0, FR_EDOM, "at least 1");
    /* a gzip stream cut short: zlib reports it */
    const char *p = df_write("cut.gz", b, n, 1);
    FILE *f = fopen(p, "rb");
    unsigned char z[256];
    size_t zn = fread(z, 1, sizeof z, f);
    fclose(f);
    expect_fail(df_write("cut2.gz", z, zn - 5, 0), 10, FR_EDOM, "the gzip stream ends early");
    expect_fail("/nonexistent/fedref.idx", 10, FR_EDOM, "cannot open");
}
END_TEST

START_TEST(nulls_and_buffers)
{
    fdata_idx x = {0};
    char err[512];
    unsigned char b[64];
    unsigned dl[1] = {6};
    size_t n = make_idx(b, 0x801, dl, 1, labels, sizeof labels);
    ck_assert_int_eq(fdata_idx_parse(NULL, b, n, "m", 10, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_idx_parse(&x, NULL, n, "m", 10, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_idx_parse(&x, b, n, NULL, 10, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_idx_parse(&x, b, n, "m", 10, NULL, 0), FR_OK);     /* err optional */
    fdata_idx_free(&x);
    ck_assert_int_eq(fdata_idx_parse(&x, b, n - 1, "m", 10, err, 8), FR_ESIZE); /* truncated message */
    ck_assert_uint_eq(strlen(err), 7);
    fdata_idx_free(NULL);
}
END_TEST

/* The Fashion-MNIST files of `make data` (skipped without them): shapes
 * and balanced classes (6000 / 1000 per class). */
START_TEST(fashion_mnist)
{
    const char *names[4] = {"fashion-train-images.idx.gz", "fashion-train-labels.idx.gz",
                            "fashion-test-images.idx.gz", "fashion-test-labels.idx.gz"};
    for (int k = 0; k < 4; k++) {
        const char *p = df_real(names[k]);
        if (p == NULL) continue;
        fdata_idx x;
        char err[512];
        ck_assert_msg(fdata_idx_load(&x, p, 10, err, sizeof err) == FR_OK, "%s", err);
        ck_assert_uint_eq(x.n, k < 2 ? 60000 : 10000);
        ck_assert_int_eq(x.ndims, k % 2 ? 1 : 3);
        if (k % 2 == 0) {
            ck_assert_uint_eq(x.rows, 28);
            ck_assert_uint_eq(x.cols, 28);
        } else {
            size_t count[10] = {0};
            for (size_t i = 0; i < x.n; i++) count[x.v[i]]++;
            for (int c = 0; c < 10; c++) ck_assert_uint_eq(count[c], x.n / 10);
        }
        fdata_idx_free(&x);
    }
}
END_TEST

Suite *suite_data_idx(void)
{
    Suite *s = suite_create("data_idx");
    TCase *tc = tcase_create("idx");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, valid_labels_and_images);
    tcase_add_test(tc, corrupted_copies);
    tcase_add_test(tc, bad_magic);
    tcase_add_test(tc, labels_and_gzip);
    tcase_add_test(tc, nulls_and_buffers);
    tcase_add_test(tc, fashion_mnist);
    suite_add_tcase(s, tc);
    return s;
}
