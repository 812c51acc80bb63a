/* SPDX-License-Identifier: Apache-2.0 */
/* test_csv.c -- the strict CSV loader (data/csv.c, data/file.c): sklearn's
 * files with header (breast_cancer.csv) and bare (digits.csv), plain and
 * gzip, and corrupted copies (NaN, infinities, overflow and underflow at
 * their thresholds, bad fields, wrong column counts, short and long files
 * and lines, labels out of range, bad headers, CRLF, a byte order mark,
 * blank lines), each with its status and its line and field, the same
 * from a file, a gzip file and memory; the
 * real files when `make data` has run. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "../../data/data.h"
#include "data_files.h"

Suite *suite_data_csv(void);

static const char good[] = "3,2,malignant,benign\n17.99,-1e-3,0\n.5,7,1\n+2E2,0.0,1\n";

/* Load text (with header, or bare with d, k) expecting st and a message
 * holding the path and want; the same text parsed in memory, and loaded
 * from a gzip copy, must give the same status and message (the loader
 * reads a line at a time, the parser sees it all). */
static void expect_fail(const char *text, int bare, size_t d, size_t k, int st, const char *want)
{
    fdata_table t;
    char err[512], err2[512];
    size_t len = strlen(text);
    const char *p = df_write("bad.csv.gz", text, len, 1);
    int r = bare ? fdata_csv_load_bare(&t, p, d, k, err, sizeof err) : fdata_csv_load(&t, p, err, sizeof err);
    ck_assert_msg(r == st, "'%s' (gzip): status %d, expected %d (%s)", text, r, st, err);
    ck_assert_ptr_null(t.x);
    ck_assert_ptr_null(t.y);
    p = df_write("bad.csv", text, len, 0);
    r = bare ? fdata_csv_load_bare(&t, p, d, k, err2, sizeof err2) : fdata_csv_load(&t, p, err2, sizeof err2);
    ck_assert_msg(r == st, "'%s': status %d, expected %d (%s)", text, r, st, err2);
    ck_assert_msg(strstr(err2, p) != NULL && strstr(err2, want) != NULL, "message '%s' lacks '%s'", err2, want);
    ck_assert_str_eq(err + strlen(p) + 3, err2 + strlen(p));      /* after "DIR/bad.csv.gz" */
    ck_assert_ptr_null(t.x);
    ck_assert_ptr_null(t.y);
    ck_assert_ptr_null(t.class_names);
    ck_assert_uint_eq(t.n, 0);
    r = bare ? fdata_csv_parse_bare(&t, text, len, p, d, k, err, sizeof err) : fdata_csv_parse(&t, text, len, p, err, sizeof err);
    ck_assert_int_eq(r, st);
    ck_assert_str_eq(err, err2);
    ck_assert_ptr_null(t.x);
}

START_TEST(valid_header_file)
{
    for (int gz = 0; gz <= 2; gz++) {
        fdata_table t;
        char err[512];
        /* gz 2: the same without the final newline */
        size_t len = strlen(good) - (gz == 2);
        ck_assert_int_eq(fdata_csv_load(&t, df_write(gz == 1 ? "g.csv.gz" : "g.csv", good, len, gz == 1), err, sizeof err),
                         FR_OK);
        ck_assert_uint_eq(t.n, 3);
        ck_assert_uint_eq(t.d, 2);
        ck_assert_uint_eq(t.nclasses, 2);
        ck_assert_str_eq(t.class_names[0], "malignant");
        ck_assert_str_eq(t.class_names[1], "benign");
        const double x[6] = {17.99, -1e-3, .5, 7, 200, 0};
        const uint16_t y[3] = {0, 1, 1};
        ck_assert_mem_eq(t.x, x, sizeof x);
        ck_assert_mem_eq(t.y, y, sizeof y);
        fdata_table_free(&t);
    }
}
END_TEST

START_TEST(valid_bare_file)
{
    fdata_table t;
    char err[512];
    const char text[] = "0,16,9\n3,4.5,0\n";
    ck_assert_int_eq(fdata_csv_load_bare(&t, df_write("b.csv.gz", text, strlen(text), 1), 2, 10, err, sizeof err),
                     FR_OK);
    ck_assert_uint_eq(t.n, 2);
    ck_assert_uint_eq(t.d, 2);
    ck_assert_ptr_null(t.class_names);
    const double x[4] = {0, 16, 3, 4.5};
    ck_assert_mem_eq(t.x, x, sizeof x);
    ck_assert_uint_eq(t.y[0], 9);
    ck_assert_uint_eq(t.y[1], 0);
    fdata_table_free(&t);
    /* d = 0: from line 1 */
    ck_assert_int_eq(fdata_csv_parse_bare(&t, text, strlen(text), "m", 0, 10, err, sizeof err), FR_OK);
    ck_assert_uint_eq(t.n, 2);
    ck_assert_uint_eq(t.d, 2);
    ck_assert_mem_eq(t.x, x, sizeof x);
    fdata_table_free(&t);
}
END_TEST

START_TEST(non_finite)
{
    expect_fail("2,2,a,b\n1,2,0\n3,nan,1\n", 0, 0, 0, FR_ENONFINITE, "line 3, field 2: NaN or infinity (\"nan\")");
    expect_fail("1,2,a,b\nNaN,2,0\n", 0, 0, 0, FR_ENONFINITE, "line 2, field 1: NaN or infinity");
    expect_fail("1,2,a,b\n1,-inf,0\n", 0, 0, 0, FR_ENONFINITE, "line 2, field 2: NaN or infinity");
    expect_fail("1,2,a,b\n1,Infinity,0\n", 0, 0, 0, FR_ENONFINITE, "NaN or infinity");
    expect_fail("1,2,a,b\n1e309,1,0\n", 0, 0, 0, FR_ENONFINITE, "line 2, field 1: overflows binary64");
    expect_fail("1,0\n-1e400,1\n", 1, 1, 2, FR_ENONFINITE, "line 2, field 1: overflows binary64");
    /* the overflow threshold DBL_MAX + ulp/2 = 1.797693134862315807937...e308 */
    expect_fail("1,2,a,b\n1,1.7976931348623159e308,0\n", 0, 0, 0, FR_ENONFINITE, "line 2, field 2: overflows binary64");
}
END_TEST

/* A nonzero decimal that rounds to 0 is an error; a subnormal, and an
 * exact 0 with any exponent, are read.  The boundary is 2^-1075 =
 * 2.47032822920623272088...e-324 (half the least subnormal; a tie rounds
 * to 0, even). */
START_TEST(underflow)
{
    expect_fail("1,2,a,b\n1e-400,1,0\n", 0, 0, 0, FR_EDOM, "line 2, field 1: underflows to 0 in binary64 (\"1e-400\")");
    expect_fail("1,2,a,b\n1,-1e-400,0\n", 0, 0, 0, FR_EDOM, "line 2, field 2: underflows to 0");
    expect_fail("1,0\n0.0000001e-320,1\n", 1, 1, 2, FR_EDOM, "line 2, field 1: underflows to 0");
    expect_fail("1,2,a,b\n2.4703282292062327e-324,1,0\n", 0, 0, 0, FR_EDOM, "underflows to 0");
    expect_fail("1,2,a,b\n1,2.4703282292062327208828439643411068618252990130716238221279284125e-324,0\n",
                0, 0, 0, FR_EDOM, "line 2, field 2: a field longer than 64 bytes");
    const char text[] = "1,4,a\n2.4703282292062328e-324,0e-400,-0.000e-999,1e-310,0\n";
    fdata_table t;
    char err[512];
    ck_assert_msg(fdata_csv_parse(&t, text, strlen(text), "m", err, sizeof err) == FR_OK, "%s", err);
    ck_assert(t.x[0] == ldexp(1, -1074));                 /* above the tie: the least subnormal */
    ck_assert(t.x[1] == 0 && !signbit(t.x[1]));
    ck_assert(t.x[2] == 0 && signbit(t.x[2]));
    ck_assert(t.x[3] > 0 && t.x[3] < DBL_MIN);            /* subnormal */
    fdata_table_free(&t);
}
END_TEST

/* Line ends: "\n" alone; a CRLF file and a UTF-8 byte order mark are
 * named in their messages, and bytes that do not print are quoted \xHH. */
START_TEST(line_ends_and_bom)
{
    expect_fail("1,2,a,b\r\n1,2,0\r\n", 0, 0, 0, FR_EDOM, "line 1: CRLF line ending (lines must end with \\n alone)");
    expect_fail("1,2,a,b\n1,2,0\r\n", 0, 0, 0, FR_EDOM, "line 2: CRLF line ending");
    expect_fail("2,2,a,b\n1,2,0\n1,2,1\r", 0, 0, 0, FR_EDOM, "line 3: a carriage return (\\r) ends the file");
    expect_fail("1,2,0\r\n", 1, 2, 2, FR_EDOM, "line 1: CRLF line ending");
    expect_fail("1,2,0\r\n", 1, 0, 2, FR_EDOM, "line 1: CRLF line ending");
    expect_fail("1,2\r,0\n", 1, 2, 2, FR_EDOM, "line 1, field 2: not a number (\"2\\x0D\")");
    expect_fail("\xEF\xBB\xBF" "1,2,a,b\n1,2,0\n", 0, 0, 0, FR_EDOM,
                "line 1: a UTF-8 byte order mark (bytes EF BB BF) starts the file");
    expect_fail("\xEF\xBB\xBF" "1,2,0\n", 1, 2, 2, FR_EDOM, "line 1: a UTF-8 byte order mark");
    expect_fail("\xEF\xBB\xBF", 0, 0, 0, FR_EDOM, "byte order mark");
    expect_fail("1,2,a,b\n1,\xEF\xBB\xBF" "2,0\n", 0, 0, 0, FR_EDOM, "line 2, field 2: not a number (\"\\xEF\\xBB\\xBF2\")");
    expect_fail("1,2,a,b\n1,\"x\\,0\n", 0, 0, 0, FR_EDOM, "not a number (\"\\\"x\\\\\")");
}
END_TEST

START_TEST(bad_fields)
{
    const char *bad[] = {"x", "1.2.3", " 1", "1 ", "", "0x10", "1e", "e5", ".", "-", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (strchr(bad[i], ',')) continue;
        char text[64];
        snprintf(text, sizeof text, "1,2,a,b\n1,%s,0\n", bad[i]);
        expect_fail(text, 0, 0, 0, FR_EDOM, "line 2, field 2: not a number");
    }
    char longnum[128] = "1,2,a,b\n1,";
    memset(longnum + strlen(longnum), '1', 70);
    strcat(longnum, ",0\n");
    expect_fail(longnum, 0, 0, 0, FR_EDOM, "line 2, field 2: a field longer than 64 bytes");
    longnum[8 + 2 + 64] = ',';                          /* 64 bytes: read, then the field count fails */
    expect_fail(longnum, 0, 0, 0, FR_ESIZE, "line 2: 4 fields, expected 3");
    expect_fail("1,2,a,b\n1,2,x\n", 0, 0, 0, FR_EDOM, "line 2, field 3: the label is not an unsigned integer");
    expect_fail("1,2,a,b\n1,2,1.0\n", 0, 0, 0, FR_EDOM, "the label is not an unsigned integer");
    expect_fail("1,2,a,b\n1,2,-1\n", 0, 0, 0, FR_EDOM, "the label is not an unsigned integer");
}
END_TEST

START_TEST(bad_shapes)
{
    expect_fail("2,2,a,b\n1,2,0\n1,2\n", 0, 0, 0, FR_ESIZE, "line 3: 2 fields, expected 3 (2 features and the label)");
    expect_fail("2,2,a,b\n1,2,0\n1,2,0,0\n", 0, 0, 0, FR_ESIZE, "line 3: 4 fields, expected 3");
    expect_fail("3,2,a,b\n1,2,0\n1,2,1\n", 0, 0, 0, FR_ESIZE, "line 4: file ends after 2 rows, expected 3");
    expect_fail("1,2,a,b\n1,2,0\n1,2,1\n", 0, 0, 0, FR_ESIZE, "line 3: data after the 1 rows the header announces");
    expect_fail("1,2,a,b\n1,2,0\n\n", 0, 0, 0, FR_ESIZE, "line 3: data after the 1 rows");
    expect_fail("1,2,0\n\n1,2,0\n", 1, 2, 2, FR_ESIZE, "line 2: 1 fields, expected 3");
    expect_fail("", 0, 0, 0, FR_ESIZE, "line 1: empty file");
    expect_fail("", 1, 2, 2, FR_ESIZE, "line 1: empty file (no rows)");
    expect_fail("", 1, 0, 2, FR_ESIZE, "line 1: empty file (no rows)");
    expect_fail("1,2,0\n", 1, ((size_t)1 << 20) + 1, 2, FR_ESIZE, "features must be in [1, 2^20]");
    expect_fail("5\n", 1, 0, 2, FR_ESIZE, "line 1: 1 field (at least one feature and the label expected)");
    expect_fail("1,2,0\n1,0\n", 1, 0, 2, FR_ESIZE, "line 2: 2 fields, expected 3");
    /* a line longer than d numbers of 64 bytes and a label can take: 76
     * bytes of short fields (a field of 65 bytes is an error of its own) */
    char longline[256] = "1,0\n";
    for (int i = 0; i < 38; i++) memcpy(longline + 4 + 2 * i, "1,", 2);
    strcpy(longline + 80, "\n");
    expect_fail(longline, 1, 1, 2, FR_ESIZE, "line 2: longer than 75 bytes, the most 1 numbers and a label can take");
    longline[79] = '0';
    longline[80] = '\0';
    expect_fail(longline + 4, 1, 1, 2, FR_ESIZE, "line 1: longer than 75 bytes");   /* no newline at all */
    longline[78] = '\0';                                /* 74 bytes: read, then the field count fails */
    expect_fail(longline + 4, 1, 1, 2, FR_ESIZE, "line 1: 38 fields, expected 2");
    memset(longline + 4, '7', 65);                      /* one field of 65 bytes */
    longline[69] = '\0';
    expect_fail(longline, 1, 1, 2, FR_EDOM, "line 2, field 1: a field longer than 64 bytes");
    expect_fail("1,2,0\n", 1, 2, 0, FR_ESIZE, "classes in [1, 2^16]");
}
END_TEST

START_TEST(bad_labels_and_headers)
{
    expect_fail("2,2,a,b\n1,2,0\n1,2,2\n", 0, 0, 0, FR_EDOM, "line 3, field 3: label 2 is not below 2 classes");
    expect_fail("1,2,0\n1,2,10\n", 1, 2, 10, FR_EDOM, "line 2, field 3: label 10 is not below 10 classes");
    expect_fail("x,2,a,b\n1,2,0\n", 0, 0, 0, FR_EDOM, "line 1, field 1: malformed header: the sample count is not an unsigned integer");
    expect_fail("1,2.0,a,b\n1,2,0\n", 0, 0, 0, FR_EDOM, "line 1, field 2: malformed header: the feature count");
    expect_fail("0,2,a,b\n", 0, 0, 0, FR_ESIZE, "line 1, field 1: the sample count is 0 or above its bound");
    expect_fail("1,2000000,a\n1,0\n", 0, 0, 0, FR_ESIZE, "line 1, field 2: the feature count is 0 or above its bound (2^20)");
    expect_fail("3000,1000000,a\n1,0\n", 0, 0, 0, FR_ESIZE, "line 1: 3000 x 1000000 values, more than 2^31");
    expect_fail("1,2\n1,2,0\n", 0, 0, 0, FR_EDOM, "line 1: malformed header (2 fields");
    expect_fail("1,2,a,\n1,2,0\n", 0, 0, 0, FR_EDOM, "line 1, field 4: a class name must have 1 to 255 bytes");
    char name[512] = "1,2,a,";
    memset(name + 6, 'b', 256);
    strcpy(name + 262, "\n1,2,0\n");
    expect_fail(name, 0, 0, 0, FR_EDOM, "line 1, field 4: a field longer than 255 bytes");
    strcpy(name + 261, "\n1,2,0\n");                   /* 255 bytes: a class name */
    fdata_table t;
    char err[512];
    ck_assert_msg(fdata_csv_parse(&t, name, strlen(name), "m", err, sizeof err) == FR_OK, "%s", err);
    ck_assert_uint_eq(strlen(t.class_names[1]), 255);
    fdata_table_free(&t);
    expect_fail("1,2,a\tb\n1,2,0\n", 0, 0, 0, FR_EDOM, "line 1, field 3: a control character in a class name");
    /* a header that claims many rows allocates nothing for them */
    expect_fail("2000000,1,a\n1,0\n", 0, 0, 0, FR_ESIZE, "file ends after 1 rows, expected 2000000");
}
END_TEST

START_TEST(nulls)
{
    fdata_table t;
    char err[512];
    ck_assert_int_eq(fdata_csv_parse(NULL, good, 3, "m", err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_csv_parse(&t, NULL, 3, "m", err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_csv_parse(&t, good, 3, NULL, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_csv_parse_bare(&t, NULL, 0, "m", 1, 1, err, sizeof err), FR_ESIZE);
    ck_assert_int_eq(fdata_csv_load(&t, "/nonexistent/x.csv", err, sizeof err), FR_EDOM);
    ck_assert_ptr_nonnull(strstr(err, "cannot open"));
    ck_assert_int_eq(fdata_csv_load(NULL, "x", err, sizeof err), FR_ENULL);
    fdata_table_free(NULL);
}
END_TEST

/* sklearn's files from `make data` (skipped without them). */
START_TEST(sklearn_files)
{
    fdata_table t;
    char err[512];
    const char *p = df_real("breast_cancer.csv");
    if (p != NULL) {
        ck_assert_msg(fdata_csv_load(&t, p, err, sizeof err) == FR_OK, "%s", err);
        ck_assert_uint_eq(t.n, 569);
        ck_assert_uint_eq(t.d, 30);
        ck_assert_str_eq(t.class_names[0], "malignant");
        ck_assert(t.x[0] == 17.99 && t.x[29] == 0.1189 && t.y[0] == 0);
        size_t benign = 0;
        for (size_t i = 0; i < t.n; i++) benign += t.y[i];
        ck_assert_uint_eq(benign, 357);
        fdata_table_free(&t);
    }
    if ((p = df_real("digits.csv.gz")) != NULL) {
        ck_assert_msg(fdata_csv_load_bare(&t, p, 64, 10, err, sizeof err) == FR_OK, "%s", err);
        ck_assert_uint_eq(t.n, 1797);
        ck_assert(t.x[2] == 5 && t.y[0] == 0 && t.y[1] == 1);
        fdata_table_free(&t);
    }
}
END_TEST

Suite *suite_data_csv(void)
{
    Suite *s = suite_create("data_csv");
    TCase *tc = tcase_create("csv");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, valid_header_file);
    tcase_add_test(tc, valid_bare_file);
    tcase_add_test(tc, non_finite);
    tcase_add_test(tc, underflow);
    tcase_add_test(tc, line_ends_and_bom);
    tcase_add_test(tc, bad_fields);
    tcase_add_test(tc, bad_shapes);
    tcase_add_test(tc, bad_labels_and_headers);
    tcase_add_test(tc, nulls);
    tcase_add_test(tc, sklearn_files);
    suite_add_tcase(s, tc);
    return s;
}
