/* SPDX-License-Identifier: Apache-2.0 */
/* test_choice.c -- the choice field kind (VK_CHOICE) and the optional
 * fields (vspec.when) of the vector schema, on kkt_residual (params h =
 * "zero" | "l1" | "box", gamma only with "l1", lo and hi only with "box"):
 * the reader accepts exactly the listed strings and the fields their
 * condition asks for, with a located message otherwise; ref and fast see
 * the choice as its index and an absent field as 0 x 0; the checker passes
 * a good file and fails a changed expected value; the generator writes a
 * choice by name and leaves an absent field out. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../vectors/vectors.h"

Suite *suite_vectors_choice(void);

#define FILE_(params, eps1) \
    "{\"schema\": \"fedref-vectors/1\", \"function\": \"kkt_residual\", \"groups\": [" \
    "{\"params\": " params ", \"cases\": [{\"id\": 1, \"input\": {\"grad_f\": [\"0.25\", \"-2\"]," \
    " \"jac_c\": [[\"1\"], [\"0.5\"]], \"c\": [\"0\"], \"mu\": [\"1\"], \"w\": [\"0\", \"1\"]}," \
    " \"expect\": {\"eps1\": \"" eps1 "\", \"eps2\": \"0\"}, \"tol\": {\"rel\": \"0\", \"abs\": \"1e-15\"}}]}]}"

static int rd(vfile *f, const char *text, char *err)
{
    return vfile_read_buffer(f, text, strlen(text), "t.json", err, 512);
}

START_TEST(reader_accepts_and_converts)
{
    vfile f;
    char err[512];
    /* l1, gamma = 0.5: r = (1.25, -1.5), w = (0, 1): (0.75, 1) */
    ck_assert_msg(rd(&f, FILE_("{\"h\": \"l1\", \"gamma\": \"0.5\"}", "1"), err) == 0, "%s", err);
    const vcase *c = &f.cases[0];
    ck_assert(c->param[0].choices != NULL && strcmp(c->param[0].s[0], "l1") == 0);
    ck_assert(c->param[2].rows * c->param[2].cols == 0 && c->param[2].s == NULL);   /* lo absent */
    rtensor r = {0};
    ftensor t = {0};
    ck_assert_int_eq(rt_from_v(&r, &c->param[0], 64), 0);
    ck_assert_int_eq(ft_from_v(&t, &c->param[0]), 0);
    ck_assert(mpfr_cmp_ui(r.v[0], FR_PROXAL_H_L1) == 0 && t.v[0] == FR_PROXAL_H_L1);
    rt_free(&r);
    ft_free(&t);
    ck_assert_int_eq(ft_from_v(&t, &c->param[3]), 0);                               /* hi absent: 0 x 0 */
    ck_assert(t.rows == 0 && t.cols == 0);
    ft_free(&t);
    vcheck_stats st = {0};
    FILE *sink = fopen("/dev/null", "w");
    vfile_check(&f, VCHECK_REF | VCHECK_FAST, sink, &st);
    ck_assert(st.passed == 1 && st.failed == 0);
    vfile_free(&f);
    ck_assert_msg(rd(&f, FILE_("{\"h\": \"l1\", \"gamma\": \"0.5\"}", "1.0000001"), err) == 0, "%s", err);
    memset(&st, 0, sizeof st);
    vfile_check(&f, VCHECK_REF | VCHECK_FAST, sink, &st);
    ck_assert(st.failed == 1);
    fclose(sink);
    vfile_free(&f);
    /* box with vector params */
    ck_assert_msg(rd(&f, FILE_("{\"h\": \"box\", \"lo\": [\"-1\", \"0\"], \"hi\": [\"1\", \"1\"]}", "1.25"), err)
                  == 0, "%s", err);
    ck_assert(f.cases[0].param[2].rows == 1 && f.cases[0].param[2].cols == 2 && f.cases[0].param[1].s == NULL);
    vfile_free(&f);
    /* the choice index parser */
    static const char *const L[] = {"zero", "l1", "box", NULL};
    ck_assert_int_eq(vt_choice_parse(L, "box"), 2);
    ck_assert_int_eq(vt_choice_parse(L, "Box"), -1);
    ck_assert_int_eq(vt_choice_parse(L, ""), -1);
    ck_assert_int_eq(vt_choice_parse(L, NULL), -1);
    ck_assert_int_eq(vt_choice_parse(NULL, "box"), -1);
}
END_TEST

START_TEST(reader_rejects)
{
    static const struct { const char *params, *msg; } BAD[] = {
        {"{\"h\": \"L1\", \"gamma\": \"0.5\"}", "a choice must be one of the strings \"zero\", \"l1\", \"box\", found \"L1\""},
        {"{\"h\": 1, \"gamma\": \"0.5\"}", "a choice must be one of the strings"},
        {"{\"h\": null}", "a choice must be one of the strings"},
        {"{\"gamma\": \"0.5\"}", "missing field \"h\""},
        {"{\"h\": \"zero\", \"gamma\": \"0.5\"}", "field \"gamma\" is only allowed when h is \"l1\""},
        {"{\"h\": \"l1\"}", "missing field \"gamma\""},
        {"{\"h\": \"box\", \"lo\": [\"0\", \"0\"]}", "missing field \"hi\""},
        {"{\"h\": \"l1\", \"gamma\": \"0.5\", \"lo\": [\"0\"]}", "field \"lo\" is only allowed when h is \"box\""},
        {"{\"h\": \"box\", \"lo\": \"0\", \"hi\": [\"1\"]}", "expected an array (vector)"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char text[2048], err[512];
        snprintf(text, sizeof text, FILE_("%s", "1"), BAD[i].params);
        vfile f;
        ck_assert_int_eq(rd(&f, text, err), -1);
        ck_assert_msg(strstr(err, BAD[i].msg) != NULL && strstr(err, "groups[0].cases[0].params") != NULL,
                      "%zu: %s", i, err);
        vfile_free(&f);
    }
}
END_TEST

Suite *suite_vectors_choice(void)
{
    Suite *s = suite_create("vectors_choice");
    TCase *tc = tcase_create("choice");
    tcase_add_test(tc, reader_accepts_and_converts);
    tcase_add_test(tc, reader_rejects);
    suite_add_tcase(s, tc);
    return s;
}
