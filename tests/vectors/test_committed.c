/* SPDX-License-Identifier: Apache-2.0 */
/* test_committed.c -- what the committed vector files state about
 * themselves (docs/VECTORS.md) holds:
 *  - every invalid case's comment ends with "; status FR_X (ref and fast)",
 *    and ref and fast both return exactly FR_X on it (the checker accepts
 *    any domain error; the comment says which one fedref returns);
 *  - every written tol is at least the binary64 bound it was computed from
 *    (the vfunc's tol, i.e. the ff_*_bound function, at the case's binary64
 *    params and inputs): the decimal rounded up to 17 digits, read exactly,
 *    and the binary64 that strtod makes of it are both >= that bound. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../vectors/vectors.h"

static const char *vector_dir(void)
{
    const char *d = getenv("FEDREF_VECTORS_DIR");
    return d && *d ? d : "vectors";
}

static int status_of(const char *name)
{
    static const struct { const char *name; int st; } t[] = {
        {"FR_ENULL", FR_ENULL}, {"FR_ESIZE", FR_ESIZE}, {"FR_ENONFINITE", FR_ENONFINITE},
        {"FR_EDOM", FR_EDOM}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(t[k].name, name) == 0) return t[k].st;
    return FR_OK;
}

/* The status named at the end of an invalid case's comment; FR_OK if none. */
static int commented_status(const char *comment)
{
    const char *p = strstr(comment, "; status FR_");
    char name[32];
    if (p == NULL || sscanf(p, "; status %31[A-Z_] (ref and fast)", name) != 1) return FR_OK;
    if (strcmp(p + strlen("; status ") + strlen(name), " (ref and fast)") != 0) return FR_OK;
    return status_of(name);
}

static void read_file(vfile *f, const vfunc *fn)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s.json", vector_dir(), fn->name);
    ck_assert_msg(vfile_read(f, path, err, sizeof err) == 0, "%s: %s", path, err);
}

START_TEST(invalid_cases_state_their_status)
{
    size_t checked = 0;
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        const vfunc *fn = *fp;
        vfile f;
        read_file(&f, fn);
        size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
        for (size_t c = 0; c < f.ncases; c++) {
            const vcase *k = &f.cases[c];
            if (!k->invalid) {
                ck_assert_msg(strstr(k->comment, "; status FR_") == NULL, "%s id %ld: a valid case "
                              "names a status", fn->name, k->id);
                continue;
            }
            int want = commented_status(k->comment);
            ck_assert_msg(fr_is_domain_error(want), "%s id %ld: the comment names no domain error: %s",
                          fn->name, k->id, k->comment);
            rtensor rp[VEC_MAX_FIELDS] = {{0}}, ri[VEC_MAX_FIELDS] = {{0}}, ro[VEC_MAX_FIELDS] = {{0}};
            ftensor fpar[VEC_MAX_FIELDS] = {{0}}, fin[VEC_MAX_FIELDS] = {{0}}, fo[VEC_MAX_FIELDS] = {{0}};
            for (size_t q = 0; q < np; q++) {
                ck_assert_int_eq(rt_from_v(&rp[q], &k->param[q], 64), 0);
                ck_assert_int_eq(ft_from_v(&fpar[q], &k->param[q]), 0);
            }
            for (size_t q = 0; q < ni; q++) {
                ck_assert_int_eq(rt_from_v(&ri[q], &k->input[q], 64), 0);
                ck_assert_int_eq(ft_from_v(&fin[q], &k->input[q]), 0);
            }
            int sr = fn->ref(rp, ri, ro, 64), sf = fn->fast(fpar, fin, fo);
            ck_assert_msg(sr == want && sf == want, "%s id %ld: ref %d, fast %d, the comment says %d",
                          fn->name, k->id, sr, sf, want);
            for (size_t q = 0; q < VEC_MAX_FIELDS; q++) {
                rt_free(&rp[q]); rt_free(&ri[q]); rt_free(&ro[q]);
                ft_free(&fpar[q]); ft_free(&fin[q]); ft_free(&fo[q]);
            }
            checked++;
        }
        vfile_free(&f);
    }
    ck_assert_uint_ge(checked, 60);
}
END_TEST

/* 1 if the decimal s, read exactly and read by strtod, is >= x. */
static int decimal_at_least(const char *s, double x)
{
    mpfr_t a, b;
    mpfr_inits2(256, a, b, (mpfr_ptr)0);
    int ok = num_parse_mpfr(a, s) == 0;          /* 17 digits: exact at 256 bits */
    mpfr_set_d(b, x, MPFR_RNDN);
    ok = ok && mpfr_cmp(a, b) >= 0;
    double d;
    ok = ok && num_parse_double(&d, s) == 0 && d >= x;
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

START_TEST(tol_not_below_its_bound)
{
    size_t checked = 0;
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        const vfunc *fn = *fp;
        vfile f;
        read_file(&f, fn);
        size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
        for (size_t c = 0; c < f.ncases; c++) {
            const vcase *k = &f.cases[c];
            if (k->invalid) continue;
            ftensor fpar[VEC_MAX_FIELDS] = {{0}}, fin[VEC_MAX_FIELDS] = {{0}};
            for (size_t q = 0; q < np; q++) ck_assert_int_eq(ft_from_v(&fpar[q], &k->param[q]), 0);
            for (size_t q = 0; q < ni; q++) ck_assert_int_eq(ft_from_v(&fin[q], &k->input[q]), 0);
            double rel, abs;
            fn->tol(fpar, fin, &rel, &abs);
            ck_assert_msg(decimal_at_least(k->tol_rel, rel) && decimal_at_least(k->tol_abs, abs),
                          "%s id %ld: tol rel %s abs %s below the bound rel %.17g abs %.17g",
                          fn->name, k->id, k->tol_rel, k->tol_abs, rel, abs);
            for (size_t q = 0; q < VEC_MAX_FIELDS; q++) { ft_free(&fpar[q]); ft_free(&fin[q]); }
            checked++;
        }
        vfile_free(&f);
    }
    ck_assert_uint_ge(checked, 80);
}
END_TEST

Suite *suite_committed_vectors(void)
{
    Suite *s = suite_create("committed_vectors");
    TCase *tc = tcase_create("self-description");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, invalid_cases_state_their_status);
    tcase_add_test(tc, tol_not_below_its_bound);
    suite_add_tcase(s, tc);
    return s;
}
