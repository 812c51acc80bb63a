/* SPDX-License-Identifier: Apache-2.0 */
/* test_adult_b.c -- 004's 'adult-b' (data/adult_b.c) on the shipped UCI
 * files: the row and feature counts of 004 Sec. 5.3, checked against a
 * count of the raw text made here (lines without "?", " Male,", ">50K",
 * the ages' range), the one-hot blocks, the scaling; and the statuses. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "../../data/data.h"

Suite *suite_data_adult_b(void);

#define ROW1 "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n"

/* Over the first want lines of the raw text without a "?" (the test
 * file's line 1 skipped): lines seen, males, ">50K", the ages' range, and
 * the age of the last line taken. */
typedef struct {
    size_t lines, male, pos;
    double age_lo, age_hi, age_last;
} raw_count;

/* needle in the n bytes at s */
static int has(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0) return 1;
    return 0;
}

static raw_count count_raw(const char *path, size_t want)
{
    unsigned char *buf;
    size_t len;
    char err[512];
    ck_assert_msg(fdata_read_file(path, &buf, &len, err, sizeof err) == FR_OK, "%s", err);
    raw_count c = {0, 0, 0, INFINITY, -INFINITY, NAN};
    char *s = (char *)buf;
    if (strncmp(s, "|1x3", 4) == 0) s = strchr(s, '\n') + 1;
    while (*s != '\0' && c.lines < want) {
        char *e = strchr(s, '\n');
        if (e == NULL) e = s + strlen(s);
        if (e > s && memchr(s, '?', (size_t)(e - s)) == NULL) {
            double age = strtod(s, NULL);
            c.lines++;
            c.male += has(s, (size_t)(e - s), ", Male,");
            c.pos += has(s, (size_t)(e - s), ">50K");
            c.age_lo = fmin(c.age_lo, age);
            c.age_hi = fmax(c.age_hi, age);
            c.age_last = age;
        }
        s = *e ? e + 1 : e;
    }
    free(buf);
    return c;
}

START_TEST(shipped_adult_b)
{
    fdata_uci tr, te;
    fdata_adult_b b;
    char err[512];
    ck_assert_msg(fdata_uci_load(&tr, "data/adult/adult.data.gz", &fdata_adult_schema, err, sizeof err) == FR_OK,
                  "%s", err);
    ck_assert_msg(fdata_uci_load(&te, "data/adult/adult.test.gz", &fdata_adult_schema, err, sizeof err) == FR_OK,
                  "%s", err);
    ck_assert_msg(fdata_adult_004b(&b, &tr, &te, err, sizeof err) == FR_OK, "%s", err);
    /* 004 Sec. 5.3: 22 654 at the clients, 5 659 at the server, 39 features */
    ck_assert_uint_eq(b.train.n, 22654);
    ck_assert_uint_eq(b.test.n, 5659);
    ck_assert_uint_eq(b.train.d, 39);
    ck_assert_uint_eq(b.test.d, 39);
    /* 6 continuous + marital 7 + occupation 14 + relationship 6 + race 5 + sex 1 */
    ck_assert_uint_eq(6 + 7 + 14 + 6 + 5 + 1, b.train.d);
    const fdata_table *t[2] = {&b.train, &b.test};
    const unsigned char *g[2] = {b.group_train, b.group_test};
    const char *path[2] = {"data/adult/adult.data.gz", "data/adult/adult.test.gz"};
    raw_count c0 = count_raw(path[0], 22654);
    for (int k = 0; k < 2; k++) {
        raw_count c = count_raw(path[k], t[k]->n);
        ck_assert_uint_eq(c.lines, t[k]->n);     /* enough '?'-free lines */
        size_t male = 0, pos = 0;
        for (size_t i = 0; i < t[k]->n; i++) {
            const double *x = t[k]->x + i * 39;
            male += g[k][i];
            pos += t[k]->y[i];
            ck_assert(x[38] == g[k][i]);
            /* each one-hot block holds one 1, the rest 0 */
            const size_t blk[] = {7, 14, 6, 5};
            for (size_t j = 6, q = 0; q < 4; j += blk[q++]) {
                double s = 0;
                for (size_t l = 0; l < blk[q]; l++) {
                    ck_assert(x[j + l] == 0 || x[j + l] == 1);
                    s += x[j + l];
                }
                ck_assert(s == 1);
            }
            if (k == 0)
                for (size_t j = 0; j < 6; j++) ck_assert(x[j] >= 0 && x[j] <= 1);
        }
        ck_assert_uint_eq(male, c.male);
        ck_assert_uint_eq(pos, c.pos);
        /* the age of the last row, scaled by the training rows' range */
        double want = (c.age_last - c0.age_lo) / (c0.age_hi - c0.age_lo);
        ck_assert_msg(t[k]->x[(t[k]->n - 1) * 39] == want, "part %d: age %.17g, expected %.17g", k,
                      t[k]->x[(t[k]->n - 1) * 39], want);
    }
    fdata_adult_b_free(&b);
    ck_assert_ptr_null(b.train.x);
    fdata_uci_free(&tr);
    fdata_uci_free(&te);
}
END_TEST

START_TEST(statuses)
{
    fdata_uci u = {0};
    fdata_adult_b b;
    char err[512];
    ck_assert_int_eq(fdata_adult_004b(NULL, &u, &u, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_adult_004b(&b, NULL, &u, err, sizeof err), FR_ENULL);
    ck_assert_int_eq(fdata_adult_004b(&b, &u, NULL, err, sizeof err), FR_ENULL);
    fdata_adult_b_free(NULL);
    ck_assert_msg(fdata_uci_parse(&u, ROW1, strlen(ROW1), "one.data", &fdata_adult_schema, err, sizeof err) == FR_OK,
                  "%s", err);
    /* one row is fewer than 22 654 */
    ck_assert_int_eq(fdata_adult_004b(&b, &u, &u, err, sizeof err), FR_ESIZE);
    ck_assert_msg(strstr(err, "has 1 rows without a \"?\", not the 22654") != NULL, "%s", err);
    ck_assert_ptr_null(b.train.x);
    /* not Adult's 14 attributes */
    u.d = 13;
    ck_assert_int_eq(fdata_adult_004b(&b, &u, &u, err, sizeof err), FR_EDOM);
    ck_assert_msg(strstr(err, "13 attributes") != NULL, "%s", err);
    u.d = 14;
    /* a category index outside marital-status's 7 */
    u.x[5] = 7;
    ck_assert_int_eq(fdata_adult_004b(&b, &u, &u, err, sizeof err), FR_EDOM);
    ck_assert_msg(strstr(err, "not as its parser leaves it") != NULL, "%s", err);
    fdata_uci_free(&u);
}
END_TEST

Suite *suite_data_adult_b(void)
{
    Suite *s = suite_create("data_adult_b");
    TCase *tc = tcase_create("adult_b");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, shipped_adult_b);
    tcase_add_test(tc, statuses);
    suite_add_tcase(s, tc);
    return s;
}
