/* SPDX-License-Identifier: Apache-2.0 */
/* test_vectors.c -- the vector reader and checker on files written by hand
 * (as another implementation would write them): a correct file passes, a
 * wrong value fails for ref and for fast, an invalid case passes only with a
 * domain error, and malformed files are rejected with a located message.
 * Hostile files (tests/fuzz/corpus/ has one reproducer per defect): a
 * non-finite expected value or tolerance, an unbounded run, an unbounded
 * certified_bits, many cases, a reshaped result, an implementation that
 * returns NaN: none passes, crashes or runs long. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "../../vectors/vectors.h"
#include "../../vectors/fedpdm/acct_common.h"

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
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/3\", \"function\": \"ens\", \"groups\": []}", VCHECK_REF, err), -1);
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

/* ---- hostile files --------------------------------------------------- */

#define ENS_CASE(expect, tol) HEAD \
    "{\"id\": 1, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]}, \"expect\": {\"w\": [\"" expect "\"]}," \
    " \"tol\": " tol "}" TAIL

/* Rejected with a message containing `what` and `where`. */
static void rejected(const char *text, const char *what, const char *where)
{
    char err[512];
    ck_assert_msg(run(text, VCHECK_REF | VCHECK_FAST, err) == -1, "accepted: %s", text);
    ck_assert_msg(strstr(err, what) && strstr(err, where), "%s", err);
}

START_TEST(special_expected_never_pass_wrongly)
{
    /* before: --impl ref passed nan, inf, -inf (mpfr_cmpabs with a NaN or
     * inf - inf) and 1e99999999999999999999 (an MPFR infinity); fast hit a
     * signed overflow in ulps_of.  Now the specials "nan", "inf", "-inf" are
     * legal expected values (a run's privacy loss can be +Inf) that only the
     * same special meets: on ens, whose result is finite, the case fails in
     * both wings; a numeral beyond MPFR's exponent range, or another
     * spelling, is rejected. */
    char err[512];
    const char *const special[] = {"nan", "inf", "-inf"};
    for (size_t i = 0; i < 3; i++) {
        const char *tol = "{\"rel\": \"0\", \"abs\": \"1e-14\"}";
        char text[1024];
        snprintf(text, sizeof text, ENS_CASE("%s", "%s"), special[i], tol);
        ck_assert_msg(run(text, VCHECK_REF, err) == 1, "ref passed expected %s", special[i]);
        ck_assert_msg(run(text, VCHECK_FAST, err) == 1, "fast passed expected %s", special[i]);
    }
    const char *const bad[] = {
        ENS_CASE("-Inf", "{\"rel\": \"0\", \"abs\": \"1e-14\"}"),
        ENS_CASE("1e99999999999999999999", "{\"rel\": \"0\", \"abs\": \"1e-14\"}"),
        ENS_CASE("-1e-99999999999999999999", "{\"rel\": \"0\", \"abs\": \"1e-14\"}"),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        rejected(bad[i], "an expected value must be a number or nan, inf, -inf",
                 "groups[0].cases[0].expect.w[0]");
    /* still fine: a large but finite expected value fails */
    ck_assert_int_eq(run(ENS_CASE("1e400", "{\"rel\": \"0\", \"abs\": \"1e-14\"}"), VCHECK_REF, err), 1);
    ck_assert_int_eq(run(ENS_CASE("1e400", "{\"rel\": \"0\", \"abs\": \"1e-14\"}"), VCHECK_FAST, err), 1);
}
END_TEST

/* soft(1, 1) = +0 (the kink): an expected "-0" must fail in both wings, "0"
 * pass (the checker compares the sign of an expected zero). */
#define SOFT_KINK(expect) "{\"schema\": \"fedref-vectors/1\", \"function\": \"soft\", \"groups\": [" \
    "{\"params\": {\"a\": \"1\"}, \"cases\": [{\"id\": 1, \"input\": {\"t\": [\"1\", \"-1\"]}," \
    " \"expect\": {\"soft\": [\"" expect "\", \"0\"]}, \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}," \
    " \"certified_bits\": 130}]}]}"

START_TEST(zero_sign_compared)
{
    char err[512];
    ck_assert_int_eq(run(SOFT_KINK("0"), VCHECK_REF | VCHECK_FAST, err), 0);
    ck_assert_int_eq(run(SOFT_KINK("-0"), VCHECK_REF, err), 1);
    ck_assert_int_eq(run(SOFT_KINK("-0"), VCHECK_FAST, err), 1);
}
END_TEST

START_TEST(bad_tolerances_rejected)
{
    /* before: a NaN or negative tolerance was accepted and a NaN one passed
     * everything for fast; a non-numeric one leaked (LeakSanitizer in the
     * sanitizer pass) */
    const char *what = "a tolerance must be a finite number >= 0";
    rejected(ENS_CASE("7", "{\"rel\": \"nan\", \"abs\": \"0\"}"), what, "groups[0].cases[0].tol.rel");
    rejected(ENS_CASE("7", "{\"rel\": \"0\", \"abs\": \"NaN\"}"), what, "groups[0].cases[0].tol.abs");
    rejected(ENS_CASE("3", "{\"rel\": \"-1\", \"abs\": \"0\"}"), what, "tol.rel");
    rejected(ENS_CASE("3", "{\"rel\": \"0\", \"abs\": \"-1e-300\"}"), what, "tol.abs");
    rejected(ENS_CASE("7", "{\"rel\": \"inf\", \"abs\": \"0\"}"), what, "tol.rel");
    rejected(ENS_CASE("7", "{\"rel\": \"0\", \"abs\": \"1e99999999999999999999\"}"), what, "tol.abs");
    rejected(ENS_CASE("3", "{\"rel\": \"x\", \"abs\": \"0\"}"), "non-numeric string \"x\"", "tol.rel");
    rejected(ENS_CASE("3", "{\"rel\": \"0\", \"abs\": 0}"), "must be a decimal string", "tol.abs");
    rejected(ENS_CASE("3", "{\"rel\": \"0\"}"), "missing field \"abs\"", "tol");
    char err[512];
    ck_assert_int_eq(run(ENS_CASE("3", "{\"rel\": \"-0\", \"abs\": \"0\"}"), VCHECK_FAST, err), 0);
    /* an invalid case has no tol */
    rejected(HEAD "{\"id\": 1, \"input\": {\"W\": [[\"1\"]]}, \"result\": \"invalid\","
             " \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}}" TAIL, "must not have \"tol\"", "groups[0].cases[0]");
}
END_TEST

START_TEST(certified_bits_bounded)
{
    /* before: 65408 was accepted (27 s for one case), above 65504 ref
     * failed with a precision error instead of an input error */
    char err[512], text[1024];
    const long bits[] = {VEC_CERTIFIED_BITS_MAX, VEC_CERTIFIED_BITS_MAX + 1, 65408, 65505, 0};
    for (size_t i = 0; i < sizeof bits / sizeof *bits; i++) {
        snprintf(text, sizeof text, HEAD "{\"id\": 1, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]},"
                 " \"expect\": {\"w\": [\"3\"]}, \"tol\": {\"rel\": \"0\", \"abs\": \"0\"},"
                 " \"certified_bits\": %ld}" TAIL, bits[i]);
        if (bits[i] >= 1 && bits[i] <= VEC_CERTIFIED_BITS_MAX)
            ck_assert_int_eq(run(text, VCHECK_REF | VCHECK_FAST, err), 0);
        else
            rejected(text, "\"certified_bits\" must be an integer in [1, 256]", "groups[0].cases[0]");
    }
}
END_TEST

START_TEST(many_cases_duplicate_ids)
{
    /* before: the duplicate-id check was quadratic (100 000 cases: 26 s);
     * the first repeated id in file order is reported where it repeats */
    const size_t n = 100000;
    char *buf = malloc(n * 64 + 256), *p = buf;
    ck_assert_ptr_nonnull(buf);
    p += sprintf(p, "%s", HEAD);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s{\"id\": %zu, \"input\": {\"W\": [[\"1\"]]}, \"result\": \"invalid\"}",
                     i ? "," : "", (i * 7919) % n);      /* a permutation of 0 .. n-1 */
    strcpy(p, TAIL);
    vfile f;
    char err[512];
    ck_assert_msg(vfile_read_buffer(&f, buf, strlen(buf), "many.json", err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(f.ncases, n);
    vfile_free(&f);
    /* ids 7919 (case 1) and, repeated, at cases 5 and 9 */
    char *c5 = strstr(buf, "{\"id\": 39595"), *c9 = strstr(buf, "{\"id\": 71271");
    ck_assert(c5 && c9);
    memcpy(c5, "{\"id\":  7919", 12);
    memcpy(c9, "{\"id\":  7919", 12);
    ck_assert_int_eq(vfile_read_buffer(&f, buf, strlen(buf), "many.json", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "duplicate case id 7919 (many.json: groups[0].cases[5])"), "%s", err);
    vfile_free(&f);
    free(buf);
}
END_TEST

/* The committed file of fn with only group g's first case, params changed
 * (name, value pairs), optionally made invalid; checked with both. */
static long run_variant(const char *fn, size_t g, int invalid, const char *const *kv, size_t nkv,
                        char *err)
{
    char file[256];
    snprintf(file, sizeof file, "vectors/%s.json", fn);
    json_error_t je;
    json_t *root = json_load_file(file, 0, &je);
    ck_assert_msg(root != NULL, "%s: %s", file, je.text);
    json_t *grp = json_array_get(json_object_get(root, "groups"), g);
    json_t *cs = json_object_get(grp, "cases");
    while (json_array_size(cs) > 1) json_array_remove(cs, 1);
    json_t *groups = json_array();
    json_array_append(groups, grp);
    json_object_set_new(root, "groups", groups);
    for (size_t i = 0; i + 1 < nkv; i += 2)
        json_object_set_new(json_object_get(grp, "params"), kv[i], json_string(kv[i + 1]));
    json_t *c = json_array_get(cs, 0);
    json_t *notes = json_object(), *fl;     /* the notes of the flags kept (fedref-vectors/2) */
    size_t k;
    json_array_foreach(json_object_get(c, "flags"), k, fl)
        json_object_set(notes, json_string_value(fl),
                        json_object_get(json_object_get(root, "notes"), json_string_value(fl)));
    json_object_set_new(root, "notes", notes);
    if (invalid) {
        json_object_del(c, "expect");
        json_object_del(c, "tol");
        json_object_set_new(c, "result", json_string("invalid"));
    }
    char *text = json_dumps(root, 0);
    json_decref(root);
    long r = run(text, VCHECK_REF | VCHECK_FAST, err);
    free(text);
    return r;
}

START_TEST(run_counts_bounded)
{
    /* before: k0 = 2^53 or ell = 1e9 ran for minutes, rounds = 1e9 ate
     * memory; now FR_ESIZE at once (the library's limits and the schema's
     * work and record bounds, vectors/fedepm/runs.h) */
    char err[512];
    const char *const big[][2] = {
        {"k0", "9007199254740992"}, {"ell", "1000000000"}, {"rounds", "1000000000"},
        {"k0", "1001"}, {"rounds", "1001"}, {"ell", "1001"},
        {"k0", "1000"}, {"rounds", "1000"}, {"ell", "1000"},   /* within the library, beyond the work */
    };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        ck_assert_int_eq(run_variant("sfedprox", 0, 0, big[i], 2, err), 1);   /* valid: fails */
        ck_assert_int_eq(run_variant("sfedprox", 0, 1, big[i], 2, err), 0);   /* invalid: passes */
    }
    const char *const same[] = {"k0", "3"};
    ck_assert_int_eq(run_variant("sfedprox", 0, 0, same, 2, err), 0);
}
END_TEST

/* The status of ref (at 64 bits) and of fast on one case of fn whose
 * params are p (1 x 1 each) and whose inputs are in[0..ni) (1 x n each);
 * both must agree. */
static int acct_status(const char *name, const double *p, size_t np, const double *const *in, size_t ni, size_t n)
{
    const vfunc *fn = vfunc_find(name);
    ck_assert_ptr_nonnull(fn);
    ftensor fp[VEC_MAX_FIELDS] = {{0}}, fi[VEC_MAX_FIELDS] = {{0}}, fo[VEC_MAX_FIELDS] = {{0}};
    rtensor rp[VEC_MAX_FIELDS] = {{0}}, ri[VEC_MAX_FIELDS] = {{0}}, ro[VEC_MAX_FIELDS] = {{0}};
    for (size_t k = 0; k < np; k++) {
        ft_alloc(&fp[k], 1, 1); fp[k].v[0] = p[k];
        rt_alloc(&rp[k], 1, 1, 64); mpfr_set_d(rp[k].v[0], p[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < ni; k++) {
        ft_alloc(&fi[k], 1, n);
        rt_alloc(&ri[k], 1, n, 64);
        for (size_t j = 0; j < n; j++) { fi[k].v[j] = in[k][j]; mpfr_set_d(ri[k].v[j], in[k][j], MPFR_RNDN); }
    }
    int sf = fn->fast(fp, fi, fo), sr = fn->ref(rp, ri, ro, 64);
    ck_assert_msg(sf == sr, "%s: fast %d ref %d", name, sf, sr);
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) {
        ft_free(&fp[k]); ft_free(&fi[k]); ft_free(&fo[k]); rt_free(&rp[k]); rt_free(&ri[k]); rt_free(&ro[k]);
    }
    return sf;
}

START_TEST(accountant_work_bounded)
{
    /* before: alpha_max = 1024 cost 1.6 s a case under ASan, 20 distinct
     * rounds at alpha_max = 256 1.7 s, path_sens at Q = 65536, T = 1000
     * over 100 s; now the schema's bound R alpha_max^2, T (Q + 64) <=
     * vacct_work_max (vectors/fedpdm/acct_common.h), FR_ESIZE in both wings */
    ck_assert_uint_eq(vacct_work_max, VACCT_WORK_MAX);
    unsigned long keep = vacct_work_max;
    vacct_work_max = 1024;
    /* fedpdm_rdp: sigma, s, K, N, T, delta, alpha_max */
    ck_assert_int_eq(acct_status("fedpdm_rdp", (double[]){2, 1, 5, 100, 10, 1e-5, 32}, 7, NULL, 0, 0), FR_OK);
    ck_assert_int_eq(acct_status("fedpdm_rdp", (double[]){2, 1, 5, 100, 10, 1e-5, 33}, 7, NULL, 0, 0), FR_ESIZE);
    ck_assert_int_eq(acct_status("fedpdm_rdp", (double[]){2, 1, 5, 100, 10, 1e-5, 1025}, 7, NULL, 0, 0), FR_EDOM);
    /* fedpdm_rdp_rounds: first, K, N, delta, alpha_max; sigma, s: one run, then two */
    const double same[2] = {2, 2}, two[2] = {2, 3}, ones[2] = {1, 1};
    ck_assert_int_eq(acct_status("fedpdm_rdp_rounds", (double[]){1, 5, 100, 1e-5, 32}, 5,
                                 (const double *const[]){same, ones}, 2, 2), FR_OK);
    ck_assert_int_eq(acct_status("fedpdm_rdp_rounds", (double[]){1, 5, 100, 1e-5, 32}, 5,
                                 (const double *const[]){two, ones}, 2, 2), FR_ESIZE);
    /* fedpdm_path_sens: rho, Q, G, start; eta (T = 2): 2 (Q + 64) <= 1024 iff Q <= 448 */
    const double eta[2] = {0.01, 0.02};
    ck_assert_int_eq(acct_status("fedpdm_path_sens", (double[]){10, 448, 1, 0}, 4,
                                 (const double *const[]){eta}, 1, 2), FR_OK);
    ck_assert_int_eq(acct_status("fedpdm_path_sens", (double[]){10, 449, 1, 0}, 4,
                                 (const double *const[]){eta}, 1, 2), FR_ESIZE);
    ck_assert_int_eq(acct_status("fedpdm_path_sens", (double[]){10, 65537, 1, 0}, 4,
                                 (const double *const[]){eta}, 1, 2), FR_ESIZE);   /* the function's own */
    vacct_work_max = keep;
    /* the default admits fedpdm_rdp's whole domain (fast only: cheap) */
    const vfunc *fn = vfunc_find("fedpdm_rdp");
    ftensor fp[VEC_MAX_FIELDS] = {{0}}, fo[VEC_MAX_FIELDS] = {{0}};
    const double p[7] = {2, 1, 5, 100, 10, 1e-5, 1024};
    for (size_t k = 0; k < 7; k++) { ft_alloc(&fp[k], 1, 1); fp[k].v[0] = p[k]; }
    ck_assert_int_eq(fn->fast(fp, NULL, fo), FR_OK);
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { ft_free(&fp[k]); ft_free(&fo[k]); }
}
END_TEST

START_TEST(library_run_limits)
{
    size_t d[2] = {2, 1};
    double X[3 * 2] = {1, 0, 0, 1, 1, 1}, b[3] = {0, 1, 1};
    fr_logreg P = {.m = 2, .n = 2, .d = d, .X = X, .b = b, .beta = 1e-3};
    fr_fedepm_params p = {.k0 = FR_FEDEPM_K0_MAX, .rounds = FR_FEDEPM_ROUNDS_MAX, .nsel = 1,
                          .lambda = 1, .eta = 1, .mu0 = 0.05, .c = 1e-8, .alpha = 1.001, .eps = 0.1,
                          .noise = FR_NOISE_EQ39, .stopping = 0, .seed = 1, .mu_prox = 1e-5,
                          .ell = FR_FEDEPM_ELL_MAX};
    ck_assert_int_eq(fr_fedepm_check(&P, &p), FR_OK);
    ck_assert_int_eq(fr_sfedavg_check(&P, &p), FR_OK);
    ck_assert_int_eq(fr_sfedprox_check(&P, &p), FR_OK);
    fr_fedepm_params q = p; q.k0++;
    ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ESIZE);
    ck_assert_int_eq(fr_sfedavg_check(&P, &q), FR_ESIZE);
    q = p; q.rounds++;
    ck_assert_int_eq(fr_sfedprox_check(&P, &q), FR_ESIZE);
    q = p; q.ell++;
    ck_assert_int_eq(fr_sfedprox_check(&P, &q), FR_ESIZE);
    ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_OK);        /* ell unused */
    q = p; q.k0 = 1ul << 53; q.c = NAN;                      /* FR_ESIZE before FR_ENONFINITE */
    ck_assert_int_eq(fr_fedepm_check(&P, &q), FR_ESIZE);
    fr_fedepm_trace t = {0};
    q = p; q.rounds = 1ul << 40;                             /* nothing allocated */
    ck_assert_int_eq(fr_fedepm_trace_init(&t, &P, &q, 64), FR_ESIZE);
    ck_assert_ptr_null(t.w);
}
END_TEST

START_TEST(reshaped_result_fails)
{
    /* before: only the number of values was compared, so a 5 x 3 result
     * read as 3 x 5 (same values in row-major order) passed */
    char err[512];
    json_error_t je;
    json_t *root = json_load_file("tests/fuzz/corpus/run-reshaped-w.json", 0, &je);
    ck_assert_msg(root != NULL, "%s", je.text);
    char *text = json_dumps(root, 0);
    json_decref(root);
    ck_assert_int_eq(run(text, VCHECK_REF, err), 1);
    ck_assert_int_eq(run(text, VCHECK_FAST, err), 1);
    free(text);
}
END_TEST

/* A function whose ref and fast return NaN, an infinity or a wrong shape:
 * the checker must fail every case, whatever its tolerance. */
static int bad_mode;
static const vspec no_fields[] = {{NULL, 0}};
static const vspec one_vec[] = {{"y", VK_VECTOR}, {NULL, 0}};
static int bad_ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)par; (void)in;
    if (rt_alloc(&out[0], 1, 2, prec) != 0) return FR_ENOMEM;
    mpfr_set_ui(out[0].v[0], 1, MPFR_RNDN);
    if (bad_mode == 0) mpfr_set_nan(out[0].v[1]);
    else mpfr_set_inf(out[0].v[1], bad_mode);
    return FR_OK;
}
static int bad_fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)par; (void)in;
    if (ft_alloc(&out[0], 1, 2) != 0) return FR_ENOMEM;
    out[0].v[0] = 1;
    out[0].v[1] = bad_mode == 0 ? (double)NAN : bad_mode * (double)INFINITY;
    return FR_OK;
}

START_TEST(nan_results_never_pass)
{
    /* before: ref's NaN passed (mpfr_cmpabs says 0 for a NaN) */
    const vfunc fn = {.name = "bad", .source = "", .params = no_fields, .inputs = no_fields,
                      .expects = one_vec, .ref = bad_ref, .fast = bad_fast};
    char *vals[2] = {"1", "2"};
    vcase c = {.id = 1, .tol_rel = "1e300", .tol_abs = "1e300", .certified_bits = 1};
    c.expect[0] = (vtensor){.rows = 1, .cols = 2, .s = vals};
    vfile f = {.path = "bad.json", .fn = &fn, .cases = &c, .ncases = 1};
    FILE *sink = fopen("/dev/null", "w");
    for (bad_mode = -1; bad_mode <= 1; bad_mode++)
        for (int impl = VCHECK_REF; impl <= VCHECK_FAST; impl++) {
            vcheck_stats st = {0};
            vfile_check(&f, impl, sink, &st);
            ck_assert_msg(st.failed == 1 && st.passed == 0, "mode %d impl %d", bad_mode, impl);
        }
    fclose(sink);
}
END_TEST

/* ulps and relative error are taken only over the values the tolerance
 * judges relatively (tol.rel |e| >= tol.abs): fast's 3 against an expected
 * 3 + 2^-51 (one ulp of e, relative 2^-51/3) counts; its 0 against an
 * expected 1e-300 under tol.abs = 1e-15 (relative error 1, 2^774 ulps: a
 * result that cancels) does not, though it passes and counts in err/tol. */
START_TEST(ulps_only_where_relative)
{
    char err[512];
    const char *t = HEAD
        "{\"id\": 1, \"input\": {\"W\": [[\"10\"], [\"0\"], [\"0\"]]},"
        " \"expect\": {\"w\": [\"3.000000000000000444089209850062616169452667236328125\"]},"
        " \"tol\": {\"rel\": \"1e-15\", \"abs\": \"0\"}},"
        "{\"id\": 2, \"input\": {\"W\": [[\"1\"], [\"0\"], [\"0\"], [\"0\"]]},"
        " \"expect\": {\"w\": [\"1e-300\"]}, \"tol\": {\"rel\": \"1e-15\", \"abs\": \"1e-15\"}}" TAIL;
    vfile f;
    vcheck_stats st = {0};
    write_file(t);
    ck_assert_msg(vfile_read(&f, path, err, sizeof err) == 0, "%s", err);
    FILE *sink = fopen("/dev/null", "w");
    vfile_check(&f, VCHECK_FAST, sink, &st);
    fclose(sink);
    vfile_free(&f);
    remove(path);
    ck_assert_uint_eq(st.passed, 2);
    ck_assert_uint_eq(st.nrelative, 1);
    ck_assert_msg(st.max_ulps >= 1 && st.max_ulps <= 1 + 0x1p-40, "ulps %g", st.max_ulps);
    ck_assert_msg(st.max_rel >= 0x1p-51 / 3 * (1 - 0x1p-40) && st.max_rel <= 0x1p-51 / 3 * (1 + 0x1p-40),
                  "rel %g", st.max_rel);
    ck_assert_msg(st.max_tolfrac > 0.14 && st.max_tolfrac < 0.16, "err/tol %g", st.max_tolfrac);  /* 2^-51/(3e-15) */
}
END_TEST

/* fedref-vectors/2: "notes" declares exactly the flags of the cases; /1
 * still read, with its notes optional (docs/VECTORS.md "Changes"). */
#define HEAD2(notes) "{\"schema\": \"fedref-vectors/2\", \"function\": \"ens\", \"notes\": {" notes "}," \
    " \"groups\": [{\"params\": {\"lambda\": \"1\", \"eta\": \"1\"}, \"cases\": ["
#define CASE2(flags) "{\"id\": 1, \"flags\": [" flags "], \"input\": {\"W\": [[\"nan\"]]}, \"result\": \"invalid\"}"

START_TEST(notes_declare_the_flags)
{
    char err[512];
    ck_assert_int_eq(run(HEAD2("\"nan\": \"a NaN\"") CASE2("\"nan\"") TAIL, VCHECK_REF, err), 0);
    ck_assert_int_eq(run(HEAD2("") CASE2("") TAIL, VCHECK_REF, err), 0);
    ck_assert_int_eq(run(HEAD2("\"nan\": \"a NaN\"") CASE2("\"nan\", \"domain\"") TAIL, VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "flag \"domain\" is not declared in \"notes\" (") && strstr(err, "groups[0].cases[0]"),
                  "%s", err);
    ck_assert_int_eq(run(HEAD2("\"nan\": \"a NaN\", \"tie\": \"t\"") CASE2("\"nan\"") TAIL, VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "note \"tie\" is not used by any case") && strstr(err, ": notes)"), "%s", err);
    ck_assert_int_eq(run(HEAD2("\"nan\": \"a NaN\"") CASE2("\"nan\", \"nan\"") TAIL, VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "flag \"nan\" twice"), "%s", err);
    ck_assert_int_eq(run(HEAD2("\"nan\": \"a NaN\", \"zzz\": \"z\"") CASE2("\"nan\"") TAIL, VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "unknown flag \"zzz\""), "%s", err);
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/2\", \"function\": \"ens\", \"groups\": ["
                         "{\"params\": {\"lambda\": \"1\", \"eta\": \"1\"}, \"cases\": [" CASE2("") TAIL,
                         VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "missing \"notes\""), "%s", err);
    /* /1: no notes, or notes listing flags no case uses (every /1 file
     * listed all of them); a flag absent from notes that are present fails */
    ck_assert_int_eq(run(HEAD CASE2("\"nan\", \"domain\"") TAIL, VCHECK_REF, err), 0);
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/1\", \"function\": \"ens\", \"notes\": {\"nan\": \"n\", \"tie\": \"t\"},"
                         " \"groups\": [{\"params\": {\"lambda\": \"1\", \"eta\": \"1\"}, \"cases\": ["
                         CASE2("\"nan\"") TAIL, VCHECK_REF, err), 0);
    ck_assert_int_eq(run("{\"schema\": \"fedref-vectors/1\", \"function\": \"ens\", \"notes\": {\"tie\": \"t\"},"
                         " \"groups\": [{\"params\": {\"lambda\": \"1\", \"eta\": \"1\"}, \"cases\": ["
                         CASE2("\"nan\"") TAIL, VCHECK_REF, err), -1);
    ck_assert_msg(strstr(err, "flag \"nan\" is not declared"), "%s", err);
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
    tcase_add_test(tc, notes_declare_the_flags);
    tcase_add_test(tc, decimal_formatting);
    tcase_add_test(tc, ulps_only_where_relative);
    suite_add_tcase(s, tc);
    TCase *th = tcase_create("hostile_files");
    tcase_set_timeout(th, 60);    /* each test is a few seconds at most, under ASan */
    tcase_add_test(th, special_expected_never_pass_wrongly);
    tcase_add_test(th, zero_sign_compared);
    tcase_add_test(th, bad_tolerances_rejected);
    tcase_add_test(th, certified_bits_bounded);
    tcase_add_test(th, many_cases_duplicate_ids);
    tcase_add_test(th, run_counts_bounded);
    tcase_add_test(th, library_run_limits);
    tcase_add_test(th, accountant_work_bounded);
    tcase_add_test(th, reshaped_result_fails);
    tcase_add_test(th, nan_results_never_pass);
    suite_add_tcase(s, th);
    return s;
}
