/* SPDX-License-Identifier: Apache-2.0 */
/* test_reply.c -- the outputs of an external implementation judged against
 * a case (vfields_read_json, vcase_judge_output; fedref conform,
 * docs/CONFORM.md): every wrong field is reported, each with its count of
 * wrong values; an exact integer is read exactly under the binary64 rule
 * (2^53 + 1 is not 2^53); a binary64 rule reads the nearest binary64 (a
 * decimal within half an ulp of a value is that value), the certified rule
 * reads at full precision; shapes, booleans and the sign of zero. */
#include <check.h>
#include <string.h>
#include <jansson.h>
#include "../../vectors/vectors.h"

Suite *suite_vectors_reply(void);

/* ssca_stepsize: two booleans and two exact integers (VC_INT) */
#define STEPSIZE(rf) \
    "{\"schema\": \"fedref-vectors/1\", \"function\": \"ssca_stepsize\", \"groups\": [" \
    "{\"params\": {\"a1\": \"0.5\", \"alpha1\": \"0.75\", \"a2\": \"0.5\", \"alpha2\": \"0.75\"}," \
    " \"cases\": [{\"id\": 1, \"input\": {}, \"expect\": {\"rho_conditions\": \"true\"," \
    " \"gamma_conditions\": \"false\", \"rho_fail\": \"" rf "\", \"gamma_fail\": \"16\"}," \
    " \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}}]}]}"

/* soft: one vector, tol rel 2^-53 (as the committed file), certified 130 bits */
static const char soft_file[] =
    "{\"schema\": \"fedref-vectors/1\", \"function\": \"soft\", \"groups\": ["
    "{\"params\": {\"a\": \"1\"}, \"cases\": [{\"id\": 1, \"input\": {\"t\": [\"3\", \"-0.5\", \"1.1\"]},"
    " \"expect\": {\"soft\": [\"2\", \"0\", \"0.100000000000000088817841970012523233890533447265625\"]},"
    " \"tol\": {\"rel\": \"1.1102230246251566e-16\", \"abs\": \"4.9406564584124655e-324\"},"
    " \"certified_bits\": 130}]}]}";

static void load(vfile *f, const char *text)
{
    char err[512];
    int rc = vfile_read_buffer(f, text, strlen(text), "test", err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
}

/* The wrong fields of the reply output (a JSON object) under impl; -1 if
 * the output is not read. */
static long judge(const vfile *f, const char *output, int impl, vwrong *w, size_t max)
{
    json_error_t je;
    json_t *o = json_loads(output, 0, &je);
    ck_assert_ptr_nonnull(o);
    vtensor res[VEC_MAX_FIELDS];
    char err[512];
    long n = -1;
    if (vfields_read_json(o, f->fn->expects, "reply", "output", res, err, sizeof err) == 0)
        n = (long)vcase_judge_output(f, &f->cases[0], res, impl, w, max);
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) vt_free(&res[k]);
    json_decref(o);
    return n;
}

START_TEST(every_wrong_field_reported)
{
    vfile f;
    vwrong w[8];
    load(&f, STEPSIZE("9"));
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"true\", \"gamma_conditions\": \"false\","
                               " \"rho_fail\": \"9\", \"gamma_fail\": \"16\"}", VCHECK_FAST, w, 8), 0);
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"false\", \"gamma_conditions\": \"false\","
                               " \"rho_fail\": \"8\", \"gamma_fail\": \"17\"}", VCHECK_FAST, w, 8), 3);
    ck_assert_str_eq(w[0].field, "rho_conditions");
    ck_assert_str_eq(w[1].field, "rho_fail");
    ck_assert_str_eq(w[2].field, "gamma_fail");
    ck_assert_str_eq(w[1].rule, "an exact integer");
    /* at most max kept, all counted */
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"false\", \"gamma_conditions\": \"true\","
                               " \"rho_fail\": \"8\", \"gamma_fail\": \"17\"}", VCHECK_FAST, w, 1), 4);
    /* a missing field, an unknown one, a number in a boolean: not an output */
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"true\", \"gamma_conditions\": \"false\","
                               " \"rho_fail\": \"9\"}", VCHECK_FAST, w, 8), -1);
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"true\", \"gamma_conditions\": \"false\","
                               " \"rho_fail\": \"9\", \"gamma_fail\": \"16\", \"x\": \"1\"}", VCHECK_FAST, w, 8), -1);
    ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"1\", \"gamma_conditions\": \"false\","
                               " \"rho_fail\": \"9\", \"gamma_fail\": \"16\"}", VCHECK_FAST, w, 8), -1);
    vfile_free(&f);
}
END_TEST

/* 2^53 + 1 and 2^53 are one binary64: an exact integer is read exactly
 * whatever the rule, or a wrong count would pass. */
START_TEST(exact_integers_read_exactly)
{
    vfile f;
    vwrong w[8];
    load(&f, STEPSIZE("9007199254740993"));
    for (int impl = VCHECK_REF; impl <= VCHECK_FAST; impl++) {
        ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"true\", \"gamma_conditions\": \"false\","
                                   " \"rho_fail\": \"9007199254740993\", \"gamma_fail\": \"16\"}", impl, w, 8), 0);
        ck_assert_int_eq(judge(&f, "{\"rho_conditions\": \"true\", \"gamma_conditions\": \"false\","
                                   " \"rho_fail\": \"9007199254740992\", \"gamma_fail\": \"16\"}", impl, w, 8), 1);
        ck_assert_str_eq(w[0].field, "rho_fail");
    }
    vfile_free(&f);
}
END_TEST

START_TEST(binary64_and_certified_rules)
{
    vfile f;
    vwrong w[8];
    load(&f, soft_file);
    /* the binary64 of 1.1 - 1, written in 17 digits, passes tol; the same
     * digits are about 2^-56 off in relative terms: fail 130 certified bits */
    const char *short17 = "{\"soft\": [\"2\", \"0\", \"0.10000000000000009\"]}";
    ck_assert_int_eq(judge(&f, short17, VCHECK_FAST, w, 8), 0);
    ck_assert_int_eq(judge(&f, short17, VCHECK_REF, w, 8), 1);
    ck_assert_str_eq(w[0].field, "soft[2]");
    ck_assert_str_eq(w[0].rule, "certified 130 bits");
    /* the exact value passes both */
    ck_assert_int_eq(judge(&f, "{\"soft\": [\"2\", \"0\", \"0.100000000000000088817841970012523233890533447265625\"]}",
                           VCHECK_REF, w, 8), 0);
    /* one ulp above 2 is beyond 2^-53 |2|; -0 is not the expected +0; both
     * in one field: one entry, two wrong values, the first shown */
    ck_assert_int_eq(judge(&f, "{\"soft\": [\"2.0000000000000004\", \"-0\", \"0.10000000000000009\"]}",
                           VCHECK_FAST, w, 8), 1);
    ck_assert_str_eq(w[0].field, "soft[0]");
    ck_assert_str_eq(w[0].got, "2.0000000000000004");
    ck_assert_uint_eq(w[0].nwrong, 2);
    ck_assert_uint_eq(w[0].nvalues, 3);
    ck_assert_int_eq(judge(&f, "{\"soft\": [\"2\", \"-0\", \"0.10000000000000009\"]}", VCHECK_FAST, w, 8), 1);
    ck_assert_str_eq(w[0].why, ", the sign of zero");
    /* a special never meets a finite value */
    ck_assert_int_eq(judge(&f, "{\"soft\": [\"inf\", \"0\", \"nan\"]}", VCHECK_FAST, w, 8), 1);
    ck_assert_uint_eq(w[0].nwrong, 2);
    /* the wrong number of values */
    ck_assert_int_eq(judge(&f, "{\"soft\": [\"2\", \"0\"]}", VCHECK_FAST, w, 8), 1);
    ck_assert_str_eq(w[0].why, ", a shape mismatch");
    vfile_free(&f);
}
END_TEST

START_TEST(status_names)
{
    ck_assert_int_eq(vstatus_parse("FR_EDOM"), FR_EDOM);
    ck_assert_int_eq(vstatus_parse("FR_ENULL"), FR_ENULL);
    ck_assert_int_eq(vstatus_parse("FR_OK"), FR_OK);
    ck_assert_int_eq(vstatus_parse("EDOM"), 1);
    ck_assert_int_eq(vstatus_parse(NULL), 1);
    for (int st = FR_EINTERNAL; st <= FR_OK; st++) ck_assert_int_eq(vstatus_parse(vstatus_name(st)), st);
    ck_assert_ptr_null(vstatus_name(7));
}
END_TEST

Suite *suite_vectors_reply(void)
{
    Suite *s = suite_create("vectors_reply");
    TCase *tc = tcase_create("external outputs");
    tcase_add_test(tc, every_wrong_field_reported);
    tcase_add_test(tc, exact_integers_read_exactly);
    tcase_add_test(tc, binary64_and_certified_rules);
    tcase_add_test(tc, status_names);
    suite_add_tcase(s, tc);
    return s;
}
