/* test_vectors.c -- the vector reader and checker on files written by hand
 * (as another implementation would write them): a correct file passes, a
 * wrong value fails for ref and for fast, an invalid case passes only with a
 * domain error, and malformed files are rejected with a located message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../vectors/vectors.h"

static char path[64];

static void write_file(const char *text)
{
    strcpy(path, "/tmp/fedref-test-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* Read and check; returns failed count, or -1 if the file is rejected. */
static long run(const char *text, int impls, char *err)
{
    vfile f;
    vcheck_stats st = {0};
    write_file(text);
    int rc = vfile_read(&f, path, err, 512);
    if (rc == 0) {
        FILE *sink = fopen("/dev/null", "w");   /* the failure lines are the checker's output */
        vfile_check(&f, impls, sink, &st);
        fclose(sink);
    }
    vfile_free(&f);
    remove(path);
    return rc != 0 ? -1 : (long)st.failed;
}

#define HEAD "{\"schema\": \"fedref-vectors/1\", \"function\": \"ens\", \"groups\": [" \
             "{\"params\": {\"lambda\": \"1\", \"eta\": \"1\"}, \"cases\": ["
#define TAIL "]}]}"

START_TEST(foreign_file_passes)
{
    char err[512];
    /* 3 (not the printed 11/3), and 1/3 written to 45 digits */
    const char *t = HEAD
        "{\"id\": 7, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]}, \"expect\": {\"w\": [\"3\"]},"
        " \"tol\": {\"rel\": \"0\", \"abs\": \"1e-14\"}, \"certified_bits\": 120},"
        "{\"id\": 8, \"input\": {\"W\": [[\"1\"], [\"0\"], [\"0\"], [\"0\"]]}, "
        " \"expect\": {\"w\": [\"0\"]}, \"tol\": {\"rel\": \"0\", \"abs\": \"1e-15\"}},"
        "{\"id\": 9, \"input\": {\"W\": [[\"nan\"]]}, \"result\": \"invalid\"}" TAIL;
    ck_assert_int_eq(run(t, VCHECK_REF | VCHECK_FAST, err), 0);
}
END_TEST

START_TEST(wrong_values_fail)
{
    char err[512];
    const char *printed = HEAD
        "{\"id\": 1, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]},"
        " \"expect\": {\"w\": [\"3.666666666666666666666666666666666666667\"]},"
        " \"tol\": {\"rel\": \"1e-15\", \"abs\": \"0\"}, \"certified_bits\": 120}" TAIL;
    ck_assert_int_eq(run(printed, VCHECK_REF, err), 1);
    ck_assert_int_eq(run(printed, VCHECK_FAST, err), 1);
    /* beyond binary64 but within nothing ref certifies: ref alone fails */
    const char *close = HEAD
        "{\"id\": 1, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]},"
        " \"expect\": {\"w\": [\"3.00000000000000000000000001\"]},"
        " \"tol\": {\"rel\": \"1e-15\", \"abs\": \"0\"}, \"certified_bits\": 120}" TAIL;
    ck_assert_int_eq(run(close, VCHECK_REF, err), 1);
    ck_assert_int_eq(run(close, VCHECK_FAST, err), 0);
    /* a valid input marked invalid must fail */
    const char *inv = HEAD "{\"id\": 1, \"input\": {\"W\": [[\"1\"]]}, \"result\": \"invalid\"}" TAIL;
    ck_assert_int_eq(run(inv, VCHECK_REF, err), 1);
    ck_assert_int_eq(run(inv, VCHECK_FAST, err), 1);
    /* wrong output size */
    const char *size = HEAD "{\"id\": 1, \"input\": {\"W\": [[\"1\"]]}, \"expect\": {\"w\": [\"1\", \"1\"]},"
        " \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}}" TAIL;
    ck_assert_int_eq(run(size, VCHECK_REF | VCHECK_FAST, err), 1);
}
END_TEST

START_TEST(malformed_files_rejected)
{
    char err[512];
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/1\", \"function\": ", VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "malformed JSON") && strstr(err, ":1:"), "%s", err);
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/2\", \"function\": \"ens\", \"groups\": []}", VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "unsupported schema"), "%s", err);
    ck_assert_int_eq(run(HEAD "{\"id\": 1, \"input\": {\"W\": [[\"1\", \"2\"], [\"3\"]]}, \"result\": \"invalid\"}" TAIL,
                         VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "mismatched sizes"), "%s", err);
    ck_assert_int_eq(run(HEAD "{\"id\": 1, \"input\": {\"V\": [[\"1\"]]}, \"result\": \"invalid\"}" TAIL,
                         VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "unknown field \"V\""), "%s", err);
    ck_assert_int_eq(run(HEAD "{\"id\": 1, \"input\": {\"W\": [[\"0x10\"]]}, \"result\": \"invalid\"}" TAIL,
                         VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "non-numeric string \"0x10\""), "%s", err);
    ck_assert_int_eq(run(HEAD "{\"id\": 1, \"input\": {\"W\": [[\"1\"]]}, \"result\": \"invalid\"},"
                              "{\"id\": 1, \"input\": {\"W\": [[\"2\"]]}, \"result\": \"invalid\"}" TAIL,
                         VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "duplicate case id"), "%s", err);
}
END_TEST

START_TEST(decimal_formatting)
{
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_d(x, 0x1p-60, MPFR_RNDN);
    char *s = num_exact_decimal(x);
    ck_assert_str_eq(s, "8.67361737988403547205962240695953369140625e-19");
    free(s);
    mpfr_set_d(x, -1234.5, MPFR_RNDN);
    s = num_exact_decimal(x);
    ck_assert_str_eq(s, "-1234.5");
    free(s);
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_div_ui(x, x, 3, MPFR_RNDN);
    s = num_round_decimal(x, 10, MPFR_RNDN);
    ck_assert_str_eq(s, "0.3333333333");
    free(s);
    double d;
    ck_assert_int_eq(num_parse_double(&d, "1e"), -1);
    ck_assert_int_eq(num_parse_double(&d, "."), -1);
    ck_assert_int_eq(num_parse_double(&d, "-INF"), 0);
    ck_assert(d < 0 && d * 0 != 0);
    mpfr_clear(x);
}
END_TEST

Suite *suite_vectors(void)
{
    Suite *s = suite_create("vectors");
    TCase *tc = tcase_create("reader_checker");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, foreign_file_passes);
    tcase_add_test(tc, wrong_values_fail);
    tcase_add_test(tc, malformed_files_rejected);
    tcase_add_test(tc, decimal_formatting);
    suite_add_tcase(s, tc);
    return s;
}
