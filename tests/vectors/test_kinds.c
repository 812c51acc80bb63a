/* SPDX-License-Identifier: Apache-2.0 */
/* test_kinds.c -- how the checker compares each kind of expected field
 * (docs/VECTORS.md "Field kinds"), whatever a file's tol and
 * certified_bits say:
 *  - exact integers (VC_INT: counts, indices, draws, bitmasks, decisions)
 *    are written as integers (the reader rejects anything else) and an
 *    integer off by one fails ref and fast with any tol and any bits;
 *  - ref reads its inputs and params as the binary64 they are and runs at
 *    no less than 130 + 32 bits, whatever certified_bits says: an
 *    ssca_stepsize verdict on alpha1 = 1 + 2^-52 written wrong with
 *    certified_bits 1 fails ref;
 *  - an upper bound (VC_UPPER) fails when the implementation's value is
 *    below expected by more than the 40-digit rounding of expected, though
 *    well within tol (fast) or 2^-b (ref);
 *  - kkt_residual's eps2 (VC_EXACT, exact in fast) does not get eps1's
 *    absolute tolerance: one ulp off fails fast.
 * Each case is a committed file's case with one expected value changed. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../vectors/vectors.h"

Suite *suite_vectors_kinds(void);

static const char *vector_dir(void)
{
    const char *d = getenv("FEDREF_VECTORS_DIR");
    return d && *d ? d : "vectors";
}

static void read_file(vfile *f, const char *name)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s.json", vector_dir(), name);
    ck_assert_msg(vfile_read(f, path, err, sizeof err) == 0, "%s: %s", path, err);
}

/* Whether case c of f passes when checked alone by impls. */
static int passes(const vfile *f, vcase *c, int impls)
{
    vfile one = *f;
    vcheck_stats st = {0};
    FILE *sink = getenv("KINDS_DEBUG") ? stderr : fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(sink);
    one.cases = c;
    one.ncases = 1;
    vfile_check(&one, impls, sink, &st);
    if (sink != stderr) fclose(sink);
    ck_assert_uint_eq(st.passed + st.failed, 1);
    return st.passed == 1;
}

static void set_str(char **slot, const char *s)
{
    free(*slot);
    *slot = strdup(s);
    ck_assert_ptr_nonnull(*slot);
}

/* The first valid case of f whose expected field k has a finite value
 * (a nonzero one if nonzero); NULL if none. */
static vcase *first_case(const vfile *f, size_t k, int nonzero, size_t *at)
{
    for (size_t i = 0; i < f->ncases; i++) {
        vcase *c = &f->cases[i];
        if (c->invalid) continue;
        for (size_t q = 0; q < c->expect[k].rows * c->expect[k].cols; q++) {
            double x;
            num_parse_double(&x, c->expect[k].s[q]);
            if (isfinite(x) && (!nonzero || x != 0)) { *at = q; return c; }
        }
    }
    return NULL;
}

/* fast's value of expected field k, entry q, on case c (FR_OK required). */
static double fast_value(const vfunc *fn, const vcase *c, size_t k, size_t q)
{
    ftensor par[VEC_MAX_FIELDS] = {{0}}, in[VEC_MAX_FIELDS] = {{0}}, out[VEC_MAX_FIELDS] = {{0}};
    for (size_t i = 0; i < vspec_count(fn->params); i++) ck_assert_int_eq(ft_from_v(&par[i], &c->param[i]), 0);
    for (size_t i = 0; i < vspec_count(fn->inputs); i++) ck_assert_int_eq(ft_from_v(&in[i], &c->input[i]), 0);
    ck_assert_int_eq(fn->fast(par, in, out), FR_OK);
    double v = out[k].v[q];
    for (size_t i = 0; i < VEC_MAX_FIELDS; i++) { ft_free(&par[i]); ft_free(&in[i]); ft_free(&out[i]); }
    return v;
}

/* The 40-digit decimal of x rounded in direction rnd (malloc'd). */
static char *dec40(double x, mpfr_rnd_t rnd)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_d(t, x, MPFR_RNDN);
    char *s = num_round_decimal(t, VEC_DIGITS, rnd);
    mpfr_clear(t);
    ck_assert_ptr_nonnull(s);
    return s;
}

START_TEST(integer_strings)
{
    const char *ints[] = {"0", "-0", "8", "+8", "-3", "30e-1", "1.2e3", "007", "5.", "0.0", "1e39",
                          "9999999999999999999999999999999999999999"};
    const char *not[] = {"0.5", "3.5", "1e-1", ".5", "nan", "inf", "-inf", "1e40", "x", "",
                         "99999999999999999999999999999999999999999", "1e99999999999"};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        ck_assert_msg(num_is_integer(ints[i], VEC_DIGITS), "%s", ints[i]);
    for (size_t i = 0; i < sizeof not / sizeof not[0]; i++)
        ck_assert_msg(!num_is_integer(not[i], VEC_DIGITS), "%s", not[i]);
}
END_TEST

/* A non-integer, a special or a 41-digit integer in an exact integer field
 * rejects the file (fedpdm_rdp's alpha). */
START_TEST(integer_fields_written_as_integers)
{
    static const char *bad[] = {"\"3.5\"", "\"nan\"", "\"inf\"", "\"1e40\"", "\"3.0000000000000000000001\""};
    char text[1024], err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0] + 1; i++) {
        const char *a = i < sizeof bad / sizeof bad[0] ? bad[i] : "\"30e-1\"";
        snprintf(text, sizeof text,
                 "{\"schema\": \"fedref-vectors/1\", \"function\": \"fedpdm_rdp\", \"groups\": [{\"params\": "
                 "{\"sigma\": \"1\", \"s\": \"1\", \"K\": \"1\", \"N\": \"10\", \"T\": \"10\", \"delta\": "
                 "\"0.5\", \"alpha_max\": \"64\"}, \"cases\": [{\"id\": 1, \"input\": {}, \"expect\": "
                 "{\"eps\": \"1\", \"alpha\": %s}, \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}}]}]}", a);
        vfile f;
        int rc = vfile_read_buffer(&f, text, strlen(text), "t.json", err, sizeof err);
        if (i < sizeof bad / sizeof bad[0]) {
            ck_assert_msg(rc != 0, "%s accepted", a);
            ck_assert_msg(strstr(err, "an exact integer field must be an integer") && strstr(err, "expect.alpha"),
                          "%s", err);
        } else {
            ck_assert_msg(rc == 0, "%s", err);
        }
        vfile_free(&f);
    }
}
END_TEST

/* ref's inputs are exact whatever the precision asked for. */
START_TEST(inputs_read_exactly)
{
    const char *s = "1.0000000000000002220446049250313080847263336181640625";   /* 1 + 2^-52 */
    char *str = (char *)s;
    vtensor v = {1, 1, &str, 0, NULL};
    rtensor r = {0};
    ck_assert_int_eq(rt_from_v(&r, &v, 2), 0);
    ck_assert(mpfr_cmp_d(r.v[0], 1 + 0x1p-52) == 0);
    rt_free(&r);
}
END_TEST

/* ssca_stepsize, alpha1 = 1 + 2^-52 (a summable rho: rho_fail = 8 SUM),
 * written as rho_conditions true, rho_fail 0 with certified_bits 1: ref
 * used to run at 33 bits on inputs read at 33 bits (alpha1 = 1) and pass. */
START_TEST(stepsize_verdict_at_low_bits)
{
    static const char *fmt =
        "{\"schema\": \"fedref-vectors/1\", \"function\": \"ssca_stepsize\", \"groups\": [{\"params\": "
        "{\"a1\": \"0.5\", \"alpha1\": \"1.0000000000000002220446049250313080847263336181640625\", "
        "\"a2\": \"0.5\", \"alpha2\": \"0.75\"}, \"cases\": [{\"id\": 1, \"input\": {}, \"expect\": "
        "{\"rho_conditions\": \"%s\", \"gamma_conditions\": \"false\", \"rho_fail\": \"%s\", "
        "\"gamma_fail\": \"32\"}, \"tol\": {\"rel\": \"0\", \"abs\": \"0\"}, \"certified_bits\": 1}]}]}";
    char text[1024], err[512];
    for (int wrong = 0; wrong < 3; wrong++) {
        snprintf(text, sizeof text, fmt, wrong == 1 ? "true" : "false", wrong == 2 ? "0" : "8");
        vfile f;
        ck_assert_msg(vfile_read_buffer(&f, text, strlen(text), "t.json", err, sizeof err) == 0, "%s", err);
        for (int impls = 1; impls <= 3; impls++)
            ck_assert_msg(passes(&f, &f.cases[0], impls) == !wrong, "wrong %d impls %d", wrong, impls);
        vfile_free(&f);
    }
}
END_TEST

/* Every exact integer field of every committed file: the first valid
 * case's first entry + 1 fails fast with tol rel 1 abs 1e300 and
 * certified_bits 1 (fast used to pass it within tol), and fails ref (the
 * closed forms; a run's ref is left to the files' own checks). */
START_TEST(integers_off_by_one_fail)
{
    size_t fields = 0;
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        const vfunc *fn = *fp;
        vfile f;
        read_file(&f, fn->name);
        for (size_t k = 0; fn->expects[k].name; k++) {
            if (fn->expects[k].cmp != VC_INT) continue;
            size_t q;
            vcase *c = first_case(&f, k, 0, &q);
            ck_assert_msg(c != NULL, "%s.%s: no case", fn->name, fn->expects[k].name);
            ck_assert_msg(passes(&f, c, VCHECK_FAST), "%s id %ld", fn->name, c->id);
            char buf[64], *old = strdup(c->expect[k].s[q]);
            long long v = strtoll(old, NULL, 10);
            snprintf(buf, sizeof buf, "%lld", v + 1);
            set_str(&c->expect[k].s[q], buf);
            set_str(&c->tol_rel, "1");
            set_str(&c->tol_abs, "1e300");
            c->certified_bits = 1;
            ck_assert_msg(!passes(&f, c, VCHECK_FAST), "%s.%s id %ld: %s -> %s passes fast", fn->name,
                          fn->expects[k].name, c->id, old, buf);
            if (!fn->iterative)
                ck_assert_msg(!passes(&f, c, VCHECK_REF), "%s.%s id %ld: %s -> %s passes ref", fn->name,
                              fn->expects[k].name, c->id, old, buf);
            set_str(&c->expect[k].s[q], old);
            free(old);
            fields++;
        }
        vfile_free(&f);
    }
    ck_assert_uint_ge(fields, 30);
}
END_TEST

/* fedpdm_rdp's alpha off by one with tol rel 0.5 and certified_bits 2
 * (it used to pass all three --impl). */
START_TEST(rdp_alpha_off_by_one)
{
    vfile f;
    read_file(&f, "fedpdm_rdp");
    size_t q;
    vcase *c = first_case(&f, 1, 1, &q);
    ck_assert_ptr_nonnull(c);
    char buf[64];
    snprintf(buf, sizeof buf, "%lld", strtoll(c->expect[1].s[0], NULL, 10) + 1);
    set_str(&c->expect[1].s[0], buf);
    set_str(&c->tol_rel, "0.5");
    c->certified_bits = 2;
    for (int impls = 1; impls <= 3; impls++) ck_assert(!passes(&f, c, impls));
    vfile_free(&f);
}
END_TEST

/* Every upper-bound field of every committed file, on the first valid case
 * with a finite nonzero value: expected moved just above fast's value (the
 * 40-digit decimal of the next binary64 up, within tol) fails fast; moved
 * to expected (1 + 2^-100) with certified_bits 64 (within 2^-64) fails ref. */
START_TEST(upper_bounds_one_sided)
{
    size_t fields = 0;
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        const vfunc *fn = *fp;
        vfile f;
        read_file(&f, fn->name);
        for (size_t k = 0; fn->expects[k].name; k++) {
            if (fn->expects[k].cmp != VC_UPPER) continue;
            size_t q;
            vcase *c = first_case(&f, k, 1, &q);
            ck_assert_msg(c != NULL, "%s.%s: no case", fn->name, fn->expects[k].name);
            char *keep = strdup(c->expect[k].s[q]);
            double v = fast_value(fn, c, k, q);
            char *up = dec40(nextafter(v, INFINITY), MPFR_RNDU);
            set_str(&c->expect[k].s[q], up);
            ck_assert_msg(!passes(&f, c, VCHECK_FAST), "%s.%s id %ld: fast %.17g below %s passes", fn->name,
                          fn->expects[k].name, c->id, v, up);
            free(up);
            if (!fn->iterative) {
                mpfr_t e, t;
                mpfr_inits2(256, e, t, (mpfr_ptr)0);
                num_parse_mpfr(e, keep);
                mpfr_abs(t, e, MPFR_RNDN);
                mpfr_mul_2si(t, t, -100, MPFR_RNDN);
                mpfr_add(e, e, t, MPFR_RNDN);                  /* e + 2^-100 |e|: exact at 256 bits */
                char *s = num_round_decimal(e, 60, MPFR_RNDN);
                set_str(&c->expect[k].s[q], s);
                c->certified_bits = 64;
                ck_assert_msg(!passes(&f, c, VCHECK_REF), "%s.%s id %ld: ref below %s passes", fn->name,
                              fn->expects[k].name, c->id, s);
                free(s);
                mpfr_clears(e, t, (mpfr_ptr)0);
            }
            set_str(&c->expect[k].s[q], keep);
            free(keep);
            fields++;
        }
        vfile_free(&f);
    }
    ck_assert_uint_ge(fields, 14);
}
END_TEST

/* kkt_residual's eps2 is exact in fast: one binary64 step away from fast's
 * value fails, though eps1's abs tolerance (made huge here) covers it. */
START_TEST(kkt_eps2_exact)
{
    vfile f;
    read_file(&f, "kkt_residual");
    size_t q, checked = 0;
    for (size_t i = 0; i < f.ncases; i++) {
        vcase *c = &f.cases[i];
        if (c->invalid) continue;
        double v = fast_value(f.fn, c, 1, 0);
        if (!(v > 0) || !isfinite(nextafter(v, INFINITY))) continue;
        ck_assert(passes(&f, c, VCHECK_FAST));
        set_str(&c->tol_abs, "1e300");
        for (int dir = -1; dir <= 1; dir += 2) {
            char *s = dec40(nextafter(v, dir * INFINITY), MPFR_RNDN);
            set_str(&c->expect[1].s[0], s);
            ck_assert_msg(!passes(&f, c, VCHECK_FAST), "id %ld: eps2 %s passes", c->id, s);
            free(s);
        }
        checked++;
    }
    (void)q;
    ck_assert_uint_ge(checked, 3);
    vfile_free(&f);
}
END_TEST

Suite *suite_vectors_kinds(void)
{
    Suite *s = suite_create("vectors_kinds");
    TCase *tc = tcase_create("kinds");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, integer_strings);
    tcase_add_test(tc, integer_fields_written_as_integers);
    tcase_add_test(tc, inputs_read_exactly);
    tcase_add_test(tc, stepsize_verdict_at_low_bits);
    tcase_add_test(tc, integers_off_by_one_fail);
    tcase_add_test(tc, rdp_alpha_off_by_one);
    tcase_add_test(tc, upper_bounds_one_sided);
    tcase_add_test(tc, kkt_eps2_exact);
    suite_add_tcase(s, tc);
    return s;
}
