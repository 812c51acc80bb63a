/* SPDX-License-Identifier: Apache-2.0 */
/* test_uci.c -- the strict reader of UCI's comma-and-space files
 * (data/uci.c) on the Adult schema, and 002's preprocessing (data/adult.c):
 * valid rows, "?" for missing, the test file's line 1 and trailing ".",
 * bad field counts, separators, unknown categories and classes, numbers
 * that are not, line ends, each with its status and its line and field,
 * the same from a file, a gzip file and memory; then the shipped files
 * (data/adult/): 32 561 + 16 281 rows, 45 222 without a "?". */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "../../data/data.h"
#include "data_files.h"

Suite *suite_data_uci(void);

#define ROW1 "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K"
#define ROW2 "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K"
#define ROWQ "18, ?, 103497, Some-college, 10, Never-married, ?, Own-child, White, Female, 0, 0, 30, ?, <=50K"
#define ROWC "25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, Male, 1, 2, 40, United-States, <=50K"
#define TESTL "|1x3 Cross validator\n"

static const fdata_uci_schema *A = &fdata_adult_schema;

/* text read from a file, a gzip file and memory: the status st each time,
 * the same message, holding the path and want, and a zeroed output. */
static void expect_fail(const char *text, int st, const char *want)
{
    fdata_uci u;
    char err[512], err2[512];
    size_t len = strlen(text);
    const char *p = df_write("bad.data.gz", text, len, 1);
    int r = fdata_uci_load(&u, p, A, err, sizeof err);
    ck_assert_msg(r == st, "'%s' (gzip): status %d, expected %d (%s)", text, r, st, err);
    ck_assert(u.x == NULL && u.y == NULL && u.missing == NULL && u.n == 0);
    p = df_write("bad.data", text, len, 0);
    r = fdata_uci_load(&u, p, A, err2, sizeof err2);
    ck_assert_msg(r == st, "'%s': status %d, expected %d (%s)", text, r, st, err2);
    ck_assert_msg(strstr(err2, p) != NULL && strstr(err2, want) != NULL, "message '%s' lacks '%s'", err2, want);
    ck_assert_str_eq(err + strlen(p) + 3, err2 + strlen(p));      /* after "DIR/bad.data.gz" */
    ck_assert(u.x == NULL && u.y == NULL && u.missing == NULL && u.n == 0);
    r = fdata_uci_parse(&u, text, len, p, A, err, sizeof err);
    ck_assert_int_eq(r, st);
    ck_assert_str_eq(err, err2);
    ck_assert(u.x == NULL && u.y == NULL && u.missing == NULL && u.n == 0);
}

/* text parsed from memory and from a gzip file: FR_OK, the same table. */
static void load_ok(const char *text, fdata_uci *u)
{
    fdata_uci v;
    char err[512];
    size_t len = strlen(text);
    ck_assert_msg(fdata_uci_parse(u, text, len, "ok.data", A, err, sizeof err) == FR_OK, "%s", err);
    ck_assert_msg(fdata_uci_load(&v, df_write("ok.data.gz", text, len, 1), A, err, sizeof err) == FR_OK, "%s", err);
    ck_assert(v.n == u->n && v.d == u->d && v.test == u->test && v.rows_missing == u->rows_missing);
    ck_assert(memcmp(v.x, u->x, u->n * u->d * sizeof *u->x) == 0 && memcmp(v.y, u->y, u->n * sizeof *u->y) == 0);
    ck_assert(memcmp(v.missing, u->missing, u->n * u->d) == 0);
    fdata_uci_free(&v);
}

START_TEST(valid_rows)
{
    /* with the blank last line of UCI's files, without it, without the final newline */
    const char *texts[] = {ROW1 "\n" ROW2 "\n\n", ROW1 "\n" ROW2 "\n", ROW1 "\n" ROW2};
    for (int k = 0; k < 3; k++) {
        fdata_uci u;
        load_ok(texts[k], &u);
        ck_assert_uint_eq(u.n, 2);
        ck_assert_uint_eq(u.d, 14);
        ck_assert_int_eq(u.test, 0);
        ck_assert_uint_eq(u.rows_missing, 0);
        /* the values as written; categories by their place in adult.names */
        ck_assert(u.x[0] == 39 && u.x[2] == 77516 && u.x[10] == 2174 && u.x[12] == 40);
        ck_assert(u.x[1] == 5);       /* State-gov: 6th of workclass */
        ck_assert(u.x[14 + 1] == 1);  /* Self-emp-not-inc: 2nd */
        ck_assert(u.x[3] == 0 && u.x[5] == 2 && u.x[6] == 8 && u.x[7] == 3 && u.x[8] == 0 && u.x[9] == 1);
        ck_assert(u.x[13] == 0);      /* United-States */
        ck_assert(u.y[0] == 0 && u.y[1] == 1);
        fdata_uci_free(&u);
        ck_assert_ptr_null(u.x);
    }
}
END_TEST

START_TEST(missing_values)
{
    fdata_uci u;
    load_ok(ROWC "\n" ROWQ "\n" "?, Private, 1, HS-grad, 9, Divorced, Sales, Wife, Black, Female, 0, 0, ?, Cuba, >50K\n", &u);
    ck_assert_uint_eq(u.n, 3);
    ck_assert_uint_eq(u.rows_missing, 2);
    size_t marks = 0;
    for (size_t i = 0; i < u.n * u.d; i++) marks += u.missing[i];
    ck_assert_uint_eq(marks, 5);
    ck_assert(u.missing[14 + 1] && u.missing[14 + 6] && u.missing[14 + 13] && !u.missing[14 + 0]);
    ck_assert(u.missing[28 + 0] && u.missing[28 + 12] && !u.missing[28 + 13]);   /* continuous ones too */
    ck_assert(u.x[14 + 1] == 0 && u.x[28 + 0] == 0);
    ck_assert(u.x[28 + 13] == 12);   /* Cuba */
    /* 002's preprocessing keeps the complete row only */
    fdata_table t;
    char err[512];
    const fdata_uci *parts[] = {&u};
    ck_assert_msg(fdata_adult_002(&t, parts, 1, err, sizeof err) == FR_OK, "%s", err);
    ck_assert_uint_eq(t.n, 1);
    for (size_t j = 0; j < 14; j++) ck_assert(t.x[j] == 1);   /* one row of positive values: x/|x| = 1 */
    ck_assert(t.y[0] == 0);
    fdata_table_free(&t);
    fdata_uci_free(&u);
    /* "?" as the label is an unknown class; "??" an unknown category */
    expect_fail(ROW1 "\n18, Private, 1, HS-grad, 9, Divorced, Sales, Wife, Black, Female, 0, 0, 3, Cuba, ?\n", FR_EDOM,
                "line 2, field 15: unknown class \"?\"");
    expect_fail("18, ??, 1, HS-grad, 9, Divorced, Sales, Wife, Black, Female, 0, 0, 3, Cuba, >50K\n", FR_EDOM,
                "line 1, field 2: unknown category \"??\" of workclass");
}
END_TEST

START_TEST(test_file_and_dot)
{
    fdata_uci u;
    load_ok(TESTL ROW1 ".\n" ROW2 ".\n\n", &u);
    ck_assert_int_eq(u.test, 1);
    ck_assert_uint_eq(u.n, 2);
    ck_assert(u.y[0] == 0 && u.y[1] == 1 && u.x[0] == 39);
    fdata_uci_free(&u);
    expect_fail(TESTL ROW1 ".\n" ROW2 "\n", FR_EDOM, "line 3, field 15: the label \">50K\" lacks the trailing \".\"");
    expect_fail(ROW1 "\n" ROW2 ".\n", FR_EDOM, "line 2, field 15: the label \">50K.\" ends with \".\"");
    expect_fail(TESTL ROW1 "..\n", FR_EDOM, "line 2, field 15: unknown class \"<=50K..\"");
    /* line 1 only, exactly: elsewhere, or changed, it is a row of 1 field */
    expect_fail(ROW1 "\n" TESTL, FR_ESIZE, "line 2: 1 fields, expected 15 (14 attributes and the label)");
    expect_fail("|1x3 Cross validator \n" ROW1 ".\n", FR_ESIZE, "line 1: 1 fields, expected 15");
    expect_fail(TESTL, FR_ESIZE, "line 2: no rows");
}
END_TEST

START_TEST(field_counts)
{
    expect_fail(ROW1 "\n39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, <=50K\n",
                FR_ESIZE, "line 2: 14 fields, expected 15 (14 attributes and the label)");
    expect_fail(ROW1 ", <=50K\n", FR_ESIZE, "line 1: 16 fields, expected 15");
    expect_fail(ROW1 ",\n", FR_ESIZE, "line 1: 16 fields");
    expect_fail("", FR_ESIZE, "line 1: no rows");
    expect_fail("\n", FR_ESIZE, "line 2: no rows");
    /* a line longer than 15 fields of 64 bytes can take (990 bytes) */
    char line[1200];
    memset(line, '1', sizeof line - 2);
    line[sizeof line - 2] = '\n';
    line[sizeof line - 1] = '\0';
    expect_fail(line, FR_ESIZE, "line 1: longer than 990 bytes");
}
END_TEST

START_TEST(separators_and_line_ends)
{
    expect_fail("39,State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                FR_EDOM, "line 1, field 2: fields are separated by \", \"");
    expect_fail("39,  State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                FR_EDOM, "line 1, field 2: a space, control or non-ASCII byte in a field (\" State-gov\")");
    expect_fail("39,\tState-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                FR_EDOM, "line 1, field 2: fields are separated by");
    expect_fail(" 39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                FR_EDOM, "line 1, field 1: a space, control or non-ASCII byte");
    expect_fail("39, , 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                FR_EDOM, "line 1, field 2: an empty field");
    expect_fail(ROW1 " \n", FR_EDOM, "line 1, field 15: a space, control or non-ASCII byte in a field (\"<=50K \")");
    expect_fail(ROW1 "\r\n", FR_EDOM, "line 1: CRLF line ending");
    expect_fail(ROW1 "\r", FR_EDOM, "line 1: a carriage return (\\r) ends the file");
    expect_fail("\xEF\xBB\xBF" ROW1 "\n", FR_EDOM, "line 1: a UTF-8 byte order mark");
    expect_fail(ROW1 "\n\n" ROW2 "\n", FR_EDOM, "line 2: a blank line (only the last line may be blank)");
    expect_fail(ROW1 "\n\n\n", FR_EDOM, "line 2: a blank line");
}
END_TEST

START_TEST(unknown_categories)
{
    /* case matters, and the list is adult.names's */
    expect_fail(ROW1 "\n50, private, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K\n",
                FR_EDOM, "line 2, field 2: unknown category \"private\" of workclass");
    expect_fail("50, Private, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, Atlantis, >50K\n",
                FR_EDOM, "line 1, field 14: unknown category \"Atlantis\" of native-country");
    expect_fail("50, Private, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50k\n",
                FR_EDOM, "line 1, field 15: unknown class \">50k\"");
    /* a category where a number is expected, and a number for a category */
    expect_fail("50, Private, Bachelors, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K\n",
                FR_EDOM, "line 1, field 3 (fnlwgt): not a number (\"Bachelors\")");
    expect_fail("50, 3, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K\n",
                FR_EDOM, "line 1, field 2: unknown category \"3\" of workclass");
}
END_TEST

START_TEST(bad_numbers)
{
    const char *tail = ", Private, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K\n";
    struct { const char *f; int st; const char *why; } c[] = {
        {"3x", FR_EDOM, "field 1 (age): not a number (\"3x\")"},
        {"1.2.3", FR_EDOM, "not a number (\"1.2.3\")"},
        {"0x10", FR_EDOM, "not a number"},
        {"nan", FR_ENONFINITE, "field 1 (age): NaN or infinity (\"nan\")"},
        {"-inf", FR_ENONFINITE, "NaN or infinity"},
        {"1e309", FR_ENONFINITE, "overflows binary64"},
        {"1e-400", FR_EDOM, "underflows to 0 in binary64"},
        {"1" "000000000000000000000000000000000000000000000000000000000000000" "0", FR_EDOM,
         "field 1: a field longer than 64 bytes"},
    };
    char text[512];
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        snprintf(text, sizeof text, "%s%s", c[k].f, tail);
        expect_fail(text, c[k].st, c[k].why);
    }
    /* 64 bytes is a number, and signs, decimals and exponents are read */
    fdata_uci u;
    snprintf(text, sizeof text, "%s%s", "1000000000000000000000000000000000000000000000000000000000000000", tail);
    load_ok(text, &u);
    ck_assert(u.x[0] == 1e63);
    fdata_uci_free(&u);
    snprintf(text, sizeof text, "%s%s", "-2.5e1", tail);
    load_ok(text, &u);
    ck_assert(u.x[0] == -25);
    fdata_uci_free(&u);
}
END_TEST

START_TEST(nulls_and_schema)
{
    fdata_uci u;
    fdata_table t;
    char err[256];
    ck_assert_int_eq(fdata_uci_parse(NULL, "", 0, "x", A, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_uci_parse(&u, NULL, 1, "x", A, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_uci_parse(&u, "", 0, NULL, A, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_uci_parse(&u, "", 0, "x", NULL, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_uci_load(&u, NULL, A, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_uci_load(&u, "/nonexistent/adult.data", A, err, sizeof err), FR_EDOM);
    ck_assert(strstr(err, "cannot open") != NULL);
    fdata_uci_schema empty = {0, NULL, 0, NULL};
    ck_assert_int_eq(fdata_uci_parse(&u, ROW1, strlen(ROW1), "x", &empty, err, sizeof err), FR_ESIZE);
    ck_assert_int_eq(fdata_adult_002(NULL, NULL, 0, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_adult_002(&t, NULL, 0, err, sizeof err), FR_ESIZE);
    /* rows all with a "?": nothing left */
    load_ok(ROWQ "\n", &u);
    const fdata_uci *parts[] = {&u};
    ck_assert_int_eq(fdata_adult_002(&t, parts, 1, err, sizeof err), FR_ESIZE);
    ck_assert_ptr_null(t.x);
    fdata_uci_free(&u);
    /* a column of zeros cannot be scaled to unit length */
    load_ok(ROW1 "\n" ROW2 "\n", &u);
    ck_assert_int_eq(fdata_adult_002(&t, parts, 1, err, sizeof err), FR_EDOM);
    ck_assert_msg(strstr(err, "column 12 (capital-loss) is all zeros") != NULL, "%s", err);
    ck_assert_ptr_null(t.x);
    fdata_uci_free(&u);
}
END_TEST

/* The files shipped in data/adult/ (the suite runs from the top of the
 * tree): UCI's counts, and 002's d = 45 222 and n = 14. */
START_TEST(shipped_adult)
{
    fdata_uci tr, te;
    fdata_table t;
    char err[512];
    ck_assert_msg(fdata_uci_load(&tr, "data/adult/adult.data.gz", A, err, sizeof err) == FR_OK, "%s", err);
    ck_assert_msg(fdata_uci_load(&te, "data/adult/adult.test.gz", A, err, sizeof err) == FR_OK, "%s", err);
    /* adult.names: 48 842 instances, 32 561 + 16 281 */
    ck_assert_uint_eq(tr.n, 32561);
    ck_assert_uint_eq(te.n, 16281);
    ck_assert(tr.test == 0 && te.test == 1);
    ck_assert_uint_eq(tr.n - tr.rows_missing, 30162);
    ck_assert_uint_eq(te.n - te.rows_missing, 15060);
    const fdata_uci *parts[] = {&tr, &te};
    ck_assert_msg(fdata_adult_002(&t, parts, 2, err, sizeof err) == FR_OK, "%s", err);
    ck_assert_uint_eq(t.n, 45222);   /* 002 Sec. VII-A: d = 45222 */
    ck_assert_uint_eq(t.d, 14);      /* n = 14 */
    ck_assert_uint_eq(t.nclasses, 2);
    ck_assert_str_eq(t.class_names[1], ">50K");
    size_t pos = 0;
    for (size_t i = 0; i < t.n; i++) pos += t.y[i];
    ck_assert_uint_eq(pos, 11208);   /* awk over the files: '?'-free rows with >50K */
    for (size_t j = 0; j < t.d; j++) {
        long double s = 0;
        for (size_t i = 0; i < t.n; i++) s += (long double)t.x[i * t.d + j] * t.x[i * t.d + j];
        ck_assert_msg(fabsl(s - 1) < 4e-15L, "column %zu: squared norm %Lg", j, s);
    }
    /* rows 1 and 2 of adult.data: ratios of the raw values (age 39/50,
     * workclass State-gov 6 / Self-emp-not-inc 2, education-num 13/13,
     * hours 40/13) survive the column scaling */
    ck_assert(fabs(t.x[0] / t.x[14] - 39.0 / 50) < 1e-15);
    ck_assert(fabs(t.x[1] / t.x[15] - 3) < 1e-15);
    ck_assert(t.x[4] == t.x[18]);
    ck_assert(fabs(t.x[12] / t.x[26] - 40.0 / 13) < 1e-15);
    ck_assert(t.y[0] == 0 && t.y[1] == 0);
    /* the first test row comes after the 30 162 training rows: 25, Private
     * (1), 226802, 11th (3), ..., <=50K. */
    ck_assert(fabs(t.x[30162 * 14 + 0] / t.x[0] - 25.0 / 39) < 1e-15);
    ck_assert(fabs(t.x[30162 * 14 + 1] / t.x[1] - 1.0 / 6) < 1e-15);
    fdata_table_free(&t);
    fdata_uci_free(&tr);
    fdata_uci_free(&te);
}
END_TEST

Suite *suite_data_uci(void)
{
    Suite *s = suite_create("data_uci");
    TCase *tc = tcase_create("uci");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, valid_rows);
    tcase_add_test(tc, missing_values);
    tcase_add_test(tc, test_file_and_dot);
    tcase_add_test(tc, field_counts);
    tcase_add_test(tc, separators_and_line_ends);
    tcase_add_test(tc, unknown_categories);
    tcase_add_test(tc, bad_numbers);
    tcase_add_test(tc, nulls_and_schema);
    tcase_add_test(tc, shipped_adult);
    suite_add_tcase(s, tc);
    return s;
}
