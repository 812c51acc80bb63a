/* SPDX-License-Identifier: Apache-2.0 */
/* test_registries.c -- the generated registries (ci/gen-registry.sh) hold
 * what the sources define, and nothing collides: vector-function names are
 * unique and each has its committed file vectors/<name>.json that names it;
 * each flag is defined by exactly one module, and every flag a committed
 * file uses is defined. */
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

START_TEST(vfuncs_unique_and_committed)
{
    const vfunc *const *all = vfunc_all();
    size_t count = 0;
    for (size_t a = 0; all[a]; a++, count++) {
        ck_assert_ptr_eq(vfunc_find(all[a]->name), all[a]);
        for (size_t b = 0; b < a; b++)
            ck_assert_msg(strcmp(all[a]->name, all[b]->name) != 0, "%s defined twice", all[a]->name);
        char path[4096], err[512];
        vfile f;
        snprintf(path, sizeof path, "%s/%s.json", vector_dir(), all[a]->name);
        ck_assert_msg(vfile_read(&f, path, err, sizeof err) == 0, "%s: %s", path, err);
        ck_assert_ptr_eq(f.fn, all[a]);
        vfile_free(&f);
    }
    ck_assert_uint_ge(count, 10);    /* core 4 + fedepm 6 at the time of writing */
}
END_TEST

typedef struct { const char *names[512]; size_t n, dup; } flag_seen;

static void collect(const vflag *f, void *arg)
{
    flag_seen *s = arg;
    for (size_t k = 0; k < s->n; k++)
        if (strcmp(s->names[k], f->name) == 0) s->dup++;
    if (s->n < sizeof s->names / sizeof s->names[0]) s->names[s->n++] = f->name;
    ck_assert_msg(f->note != NULL && f->note[0] != '\0', "flag %s has no note", f->name);
}

START_TEST(flags_defined_once_and_used_ones_defined)
{
    flag_seen s = {.n = 0};
    vflag_each(collect, &s);
    ck_assert_uint_eq(s.dup, 0);
    ck_assert_uint_gt(s.n, 0);
    ck_assert_ptr_null(vflag_note("no-such-flag"));
    for (const vfunc *const *fp = vfunc_all(); *fp; fp++) {
        char path[4096], err[512];
        vfile f;
        snprintf(path, sizeof path, "%s/%s.json", vector_dir(), (*fp)->name);
        ck_assert_int_eq(vfile_read(&f, path, err, sizeof err), 0);
        ck_assert_int_eq(f.version, 2);     /* and so "notes" is exactly the flags used */
        for (size_t c = 0; c < f.ncases; c++)
            for (size_t k = 0; k < f.cases[c].nflags; k++)
                ck_assert_msg(vflag_note(f.cases[c].flags[k]) != NULL, "%s case %ld: flag %s undefined",
                              path, f.cases[c].id, f.cases[c].flags[k]);
        vfile_free(&f);
    }
}
END_TEST

Suite *suite_registries(void)
{
    Suite *s = suite_create("registries");
    TCase *tc = tcase_create("generated");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, vfuncs_unique_and_committed);
    tcase_add_test(tc, flags_defined_once_and_used_ones_defined);
    suite_add_tcase(s, tc);
    return s;
}
