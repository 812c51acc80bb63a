/* SPDX-License-Identifier: Apache-2.0 */
/* test_bool.c -- the boolean field kind of the vector schema (VK_BOOL,
 * docs/VECTORS.md): written only as the JSON strings "true" and "false";
 * the reader rejects every other spelling with a located message; ref and
 * fast see 1 and 0; the checker compares booleans exactly, whatever the
 * case's tol (a tolerance never applies to a boolean), and fails a result
 * that is not 0 or 1; the generator writes "true"/"false" for boolean
 * params, inputs and expected values and fails on anything but 0 and 1. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "../../vectors/vectors.h"

Suite *suite_vectors_bool(void);

/* ---- a file of ssca_stepsize (a registered function with booleans) ------- */

#define CASE(rc, gc, rf, gf, rel, abs) \
    "{\"schema\": \"fedref-vectors/1\", \"function\": \"ssca_stepsize\", \"groups\": [" \
    "{\"params\": {\"a1\": \"0.5\", \"alpha1\": \"0.75\", \"a2\": \"0.5\", \"alpha2\": \"0.75\"}," \
    " \"cases\": [{\"id\": 1, \"input\": {}, \"expect\": {\"rho_conditions\": " rc \
    ", \"gamma_conditions\": " gc ", \"rho_fail\": " rf ", \"gamma_fail\": " gf "}," \
    " \"tol\": {\"rel\": \"" rel "\", \"abs\": \"" abs "\"}}]}]}"

static char path[64];

static void write_file(const char *text)
{
    strcpy(path, "/tmp/fedref-bool-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* Read text into f: 0, or -1 with the message in err. */
static int read_text(vfile *f, const char *text, char *err, size_t len)
{
    write_file(text);
    int rc = vfile_read(f, path, err, len);
    remove(path);
    return rc;
}

/* Failed cases when checked by impls; -1 if the file is rejected. */
static long check_text(const char *text, int impls)
{
    vfile f;
    char err[512];
    if (read_text(&f, text, err, sizeof err) != 0) { vfile_free(&f); return -1; }
    vcheck_stats st = {0};
    FILE *sink = fopen("/dev/null", "w");
    vfile_check(&f, impls, sink, &st);
    fclose(sink);
    vfile_free(&f);
    return (long)st.failed;
}

START_TEST(parse_and_convert)
{
    ck_assert_int_eq(vt_bool_parse("true"), 1);
    ck_assert_int_eq(vt_bool_parse("false"), 0);
    const char *bad[] = {"TRUE", "True", "1", "0", "", " true", "true ", "t", "yes", "truex", NULL};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) ck_assert_int_eq(vt_bool_parse(bad[i]), -1);
    ck_assert_int_eq(ft_bool(1), 1);
    ck_assert_int_eq(ft_bool(0.0), 0);
    ck_assert_int_eq(ft_bool(-0.0), 0);
    const double nb[] = {0.5, 2, -1, 0x1p-1074, 1 + 0x1p-52, NAN, INFINITY};
    for (size_t i = 0; i < sizeof nb / sizeof nb[0]; i++) ck_assert_int_eq(ft_bool(nb[i]), -1);
    mpfr_t x;
    mpfr_init2(x, 200);
    mpfr_set_ui(x, 1, MPFR_RNDN);
    ck_assert_int_eq(rt_bool(x), 1);
    mpfr_nextabove(x);                                 /* 1 + 2^-199: not a boolean */
    ck_assert_int_eq(rt_bool(x), -1);
    mpfr_set_zero(x, -1);
    ck_assert_int_eq(rt_bool(x), 0);
    mpfr_set_nan(x);
    ck_assert_int_eq(rt_bool(x), -1);
    mpfr_set_inf(x, 1);
    ck_assert_int_eq(rt_bool(x), -1);
    mpfr_clear(x);

    vfile f;
    char err[512];
    ck_assert_msg(read_text(&f, CASE("\"true\"", "\"false\"", "\"0\"", "\"32\"", "0", "0"), err, sizeof err) == 0,
                  "%s", err);
    const vcase *c = &f.cases[0];
    ck_assert(c->expect[0].boolean && c->expect[1].boolean);
    ck_assert(!c->expect[2].boolean && !c->expect[3].boolean && !c->param[0].boolean);
    ck_assert_str_eq(c->expect[0].s[0], "true");
    ck_assert_str_eq(c->expect[1].s[0], "false");
    rtensor r = {0};
    ftensor t = {0};
    ck_assert_int_eq(rt_from_v(&r, &c->expect[0], 64), 0);
    ck_assert_int_eq(ft_from_v(&t, &c->expect[0]), 0);
    ck_assert(r.rows == 1 && r.cols == 1 && mpfr_cmp_ui(r.v[0], 1) == 0 && t.v[0] == 1);
    rt_free(&r);
    ft_free(&t);
    ck_assert_int_eq(rt_from_v(&r, &c->expect[1], 64), 0);
    ck_assert_int_eq(ft_from_v(&t, &c->expect[1]), 0);
    ck_assert(mpfr_zero_p(r.v[0]) && t.v[0] == 0);
    rt_free(&r);
    ft_free(&t);
    /* a boolean vtensor holding another string does not convert */
    char *yes[1] = {"yes"};
    vtensor v = {.rows = 1, .cols = 1, .s = yes, .boolean = 1};
    ck_assert_int_eq(rt_from_v(&r, &v, 64), -1);
    ck_assert_int_eq(ft_from_v(&t, &v), -1);
    vfile_free(&f);
}
END_TEST

START_TEST(reader_rejects_other_spellings)
{
    const struct { const char *v, *found; } bad[] = {
        {"true", "found a JSON true"}, {"false", "found a JSON false"}, {"null", "found a JSON null"},
        {"1", "found a JSON number"}, {"0", "found a JSON number"}, {"[\"true\"]", "found a JSON array"},
        {"{}", "found a JSON object"}, {"\"TRUE\"", "found \"TRUE\""}, {"\"True\"", "found \"True\""},
        {"\"1\"", "found \"1\""}, {"\"\"", "found \"\""}, {"\" true\"", "found \" true\""},
        {"\"true \"", "found \"true \""}, {"\"yes\"", "found \"yes\""}, {"\"nan\"", "found \"nan\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024], err[512];
        snprintf(text, sizeof text,
                 "{\"schema\": \"fedref-vectors/1\", \"function\": \"ssca_stepsize\", \"groups\": ["
                 "{\"params\": {\"a1\": \"0.5\", \"alpha1\": \"0.75\", \"a2\": \"0.5\", \"alpha2\": \"0.75\"},"
                 " \"cases\": [{\"id\": 1, \"input\": {}, \"expect\": {\"rho_conditions\": \"true\","
                 " \"gamma_conditions\": %s, \"rho_fail\": \"0\", \"gamma_fail\": \"32\"},"
                 " \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}}]}]}", bad[i].v);
        vfile f;
        ck_assert_msg(read_text(&f, text, err, sizeof err) == -1, "%s accepted", bad[i].v);
        ck_assert_msg(strstr(err, "a boolean must be the string \"true\" or \"false\"") != NULL
                      && strstr(err, bad[i].found) != NULL
                      && strstr(err, "groups[0].cases[0].expect.gamma_conditions") != NULL,
                      "%s: %s", bad[i].v, err);
        vfile_free(&f);
    }
    /* a boolean string in a number field is a non-numeric string */
    ck_assert_int_eq(check_text(CASE("\"true\"", "\"false\"", "\"true\"", "\"32\"", "0", "0"), VCHECK_REF), -1);
    /* a boolean field may not be missing */
    ck_assert_int_eq(check_text(CASE("\"true\"", "\"false\", \"x\": \"1\"", "\"0\"", "\"32\"", "0", "0"),
                                VCHECK_REF), -1);
}
END_TEST

START_TEST(checker_exact_without_tolerance)
{
    for (int impl = VCHECK_REF; impl <= (VCHECK_REF | VCHECK_FAST); impl++) {
        ck_assert_int_eq(check_text(CASE("\"true\"", "\"false\"", "\"0\"", "\"32\"", "0", "0"), impl), 0);
        /* the right booleans with a huge tol still pass */
        ck_assert_int_eq(check_text(CASE("\"true\"", "\"false\"", "\"0\"", "\"32\"", "1e300", "1e300"), impl),
                         0);
        /* a flipped boolean fails, whatever the tol */
        ck_assert_int_eq(check_text(CASE("\"false\"", "\"false\"", "\"0\"", "\"32\"", "0", "0"), impl), 1);
        ck_assert_int_eq(check_text(CASE("\"true\"", "\"true\"", "\"0\"", "\"32\"", "1e300", "1e300"), impl), 1);
        ck_assert_int_eq(check_text(CASE("\"false\"", "\"true\"", "\"0\"", "\"32\"", "1e300", "1e300"), impl), 1);
    }
}
END_TEST

/* A function whose boolean result is not a boolean, or of the wrong
 * shape, fails every check; -0 is false. */
static double bool_result;
static size_t bool_cols = 1;
static const vspec no_fields[] = {{NULL, 0}};
static const vspec one_bool[] = {{"b", VK_BOOL}, {NULL, 0}};
static int res_ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)par; (void)in;
    if (rt_alloc(&out[0], 1, bool_cols, prec) != 0) return FR_ENOMEM;
    for (size_t j = 0; j < bool_cols; j++) mpfr_set_d(out[0].v[j], bool_result, MPFR_RNDN);
    return FR_OK;
}
static int res_fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)par; (void)in;
    if (ft_alloc(&out[0], 1, bool_cols) != 0) return FR_ENOMEM;
    for (size_t j = 0; j < bool_cols; j++) out[0].v[j] = bool_result;
    return FR_OK;
}

START_TEST(non_boolean_results_fail)
{
    const vfunc fn = {.name = "boolfn", .source = "", .params = no_fields, .inputs = no_fields,
                      .expects = one_bool, .ref = res_ref, .fast = res_fast};
    char *t[1] = {"true"}, *fl[1] = {"false"};
    /* certified_bits 64: ref runs at 96 bits, 1 + 2^-52 is not rounded to 1 */
    vcase c = {.id = 1, .tol_rel = "1e300", .tol_abs = "1e300", .certified_bits = 64};
    vfile f = {.path = "bool.json", .fn = &fn, .cases = &c, .ncases = 1};
    const struct { double v; size_t cols; int want_true, want_false; } R[] = {
        {1, 1, 1, 0}, {0, 1, 0, 1}, {-0.0, 1, 0, 1}, {0.5, 1, 0, 0}, {2, 1, 0, 0}, {-1, 1, 0, 0},
        {NAN, 1, 0, 0}, {INFINITY, 1, 0, 0}, {1 + 0x1p-52, 1, 0, 0}, {1, 2, 0, 0}, {0, 2, 0, 0}};
    FILE *sink = fopen("/dev/null", "w");
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        bool_result = R[i].v;
        bool_cols = R[i].cols;
        for (int e = 0; e < 2; e++) {
            c.expect[0] = (vtensor){.rows = 1, .cols = 1, .s = e ? fl : t, .boolean = 1};
            for (int impl = VCHECK_REF; impl <= VCHECK_FAST; impl++) {
                vcheck_stats st = {0};
                vfile_check(&f, impl, sink, &st);
                int want = e ? R[i].want_false : R[i].want_true;
                ck_assert_msg(st.passed == (unsigned long)want && st.failed == (unsigned long)!want,
                              "result %g (%zu values) against %s, impl %d", R[i].v, R[i].cols, e ? "false" : "true",
                              impl);
                ck_assert(st.max_ulps == 0 && st.max_rel == 0 && st.max_tolfrac == 0);   /* no statistics */
            }
        }
    }
    fclose(sink);
    bool_cols = 1;
}
END_TEST

/* The generator: boolean params, inputs and results are written "true" /
 * "false"; anything but 0 and 1 fails the generation. */
static const vspec g_params[] = {{"flip", VK_BOOL}, {NULL, 0}};
static const vspec g_inputs[] = {{"b", VK_BOOL}, {NULL, 0}};
static const vspec g_expects[] = {{"out", VK_BOOL}, {"n", VK_SCALAR}, {NULL, 0}};
static double gen_bad;            /* 0: the function; else ref's boolean result */
static int gen_ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    if (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, 1, prec) != 0) return FR_ENOMEM;
    int flip = rt_bool(par[0].v[0]), b = rt_bool(in[0].v[0]);
    if (flip < 0 || b < 0) return FR_EDOM;
    mpfr_set_d(out[0].v[0], gen_bad != 0 ? gen_bad : (double)(flip ^ b), MPFR_RNDN);
    mpfr_set_ui(out[1].v[0], (unsigned long)(2 * flip + b), MPFR_RNDN);
    return FR_OK;
}
static int gen_fast(ftensor *par, ftensor *in, ftensor *out)
{
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, 1) != 0) return FR_ENOMEM;
    int flip = ft_bool(par[0].v[0]), b = ft_bool(in[0].v[0]);
    if (flip < 0 || b < 0) return FR_EDOM;
    out[0].v[0] = flip ^ b;
    out[1].v[0] = 2 * flip + b;
    return FR_OK;
}
static void gen_tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = *abs = 0;
}
static double gen_param = 1;
static int gen_badinput;          /* 1: an invalid case whose boolean input is 0.5 */
static void gen_golden(vgen *g)
{
    vg_group(g, NULL, (double[]){gen_param});
    vg_case(g, "flip true", "", 0, (ftensor[]){{1, 1, (double[]){0}}});
    vg_case(g, "flip true, b true", "", 0, (ftensor[]){{1, 1, (double[]){1}}});
    if (gen_badinput)
        vg_case(g, "b = 0.5", "domain", 1, (ftensor[]){{1, 1, (double[]){0.5}}});
}

static json_t *generate(char *err, size_t len, int *rc)
{
    const vfunc fn = {"boolgen", "test", g_params, g_inputs, g_expects, gen_ref, gen_fast, gen_tol,
                      gen_golden, NULL, 0, 0};
    char p[64];
    strcpy(p, "/tmp/fedref-boolgen-XXXXXX");
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    close(fd);
    *rc = vectors_generate(&fn, p, err, len);
    json_error_t je;
    json_t *root = *rc == 0 ? json_load_file(p, 0, &je) : NULL;
    remove(p);
    return root;
}

START_TEST(generator_writes_booleans)
{
    char err[512] = "";
    int rc;
    gen_bad = 0;
    gen_param = 1;
    json_t *root = generate(err, sizeof err, &rc);
    ck_assert_msg(rc == 0 && root != NULL, "%s", err);
    json_t *grp = json_array_get(json_object_get(root, "groups"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(grp, "params"), "flip")), "true");
    json_t *cs = json_object_get(grp, "cases");
    const char *in[2] = {"false", "true"}, *out[2] = {"true", "false"}, *n[2] = {"2", "3"};
    for (size_t i = 0; i < 2; i++) {
        json_t *c = json_array_get(cs, i);
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(c, "input"), "b")), in[i]);
        json_t *ex = json_object_get(c, "expect");
        ck_assert_str_eq(json_string_value(json_object_get(ex, "out")), out[i]);
        ck_assert_str_eq(json_string_value(json_object_get(ex, "n")), n[i]);
    }
    ck_assert_uint_eq(json_array_size(cs), 2);
    json_decref(root);
    /* a boolean input of 0.5 (even in an invalid case) cannot be written */
    gen_badinput = 1;
    ck_assert_ptr_null(generate(err, sizeof err, &rc));
    gen_badinput = 0;
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, "a boolean param or input must be 0 or 1") != NULL, "%s", err);
}
END_TEST

START_TEST(generator_refuses_non_booleans)
{
    char err[512] = "";
    int rc;
    gen_param = 1;
    const double bad[] = {0.5, 2, -1, NAN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gen_bad = bad[i];
        ck_assert_ptr_null(generate(err, sizeof err, &rc));
        ck_assert_int_eq(rc, -1);
        ck_assert_msg(strstr(err, "boolean") != NULL, "%g: %s", bad[i], err);
    }
    gen_bad = 0;
    gen_param = 0.25;                                         /* a boolean param of 0.25 */
    ck_assert_ptr_null(generate(err, sizeof err, &rc));
    ck_assert_msg(rc == -1 && strstr(err, "a boolean param or input must be 0 or 1") != NULL, "%s", err);
    gen_param = 1;
}
END_TEST

Suite *suite_vectors_bool(void)
{
    Suite *s = suite_create("vectors_bool");
    TCase *tc = tcase_create("VK_BOOL");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, parse_and_convert);
    tcase_add_test(tc, reader_rejects_other_spellings);
    tcase_add_test(tc, checker_exact_without_tolerance);
    tcase_add_test(tc, non_boolean_results_fail);
    tcase_add_test(tc, generator_writes_booleans);
    tcase_add_test(tc, generator_refuses_non_booleans);
    suite_add_tcase(s, tc);
    return s;
}
