/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_vectors.c -- properties of the committed checkpoint files of the
 * SSCA runs (vectors/ssca_alg1.json .. ssca_sgdm_f.json, schema
 * vectors/ssca/runs.c) that no single file's check sees:
 *  - a sample-based run with one client and a feature-based run on the
 *    same data and run seed draw the same batches (docs/RNG.md 3.9) and,
 *    with weights N_1/(B N) = 1/B, are the same recursion: Algorithm 1
 *    and Algorithm 3 (id 5 of each file), Algorithm 2 and Algorithm 4
 *    (id 5), computed through different messages in ref (fr_ssca_net vs
 *    fr_ssca_net_partial/_top/_bottom), have the same 40-digit iterates,
 *    costs, norms and Lemma 1 records; only the reals per round differ;
 *  - FedAvg (ssca_sgd_s, ssca_sgdm_s id 4: E B = N_i): each round's E
 *    batches of a client are a permutation of its N_i samples (one pass);
 *  - feature-based full batch (ssca_sgd_f, ssca_sgdm_f id 3: B = N): each
 *    round's batch is a permutation of 0 .. N-1. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../vectors/vectors.h"

Suite *suite_ssca_run_vectors(void);

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

static const vcase *find(const vfile *f, long id)
{
    for (size_t c = 0; c < f->ncases; c++)
        if (f->cases[c].id == id) return &f->cases[c];
    ck_abort_msg("no case id %ld", id);
    return NULL;
}

static int same_tensor(const vtensor *a, const vtensor *b)
{
    if (a->rows != b->rows || a->cols != b->cols) return 0;
    for (size_t k = 0; k < a->rows * a->cols; k++)
        if (strcmp(a->s[k], b->s[k]) != 0) return 0;
    return 1;
}

/* The index of expect field `name` of file f. */
static size_t field(const vfile *f, const char *name)
{
    for (size_t k = 0; f->fn->expects[k].name; k++)
        if (strcmp(f->fn->expects[k].name, name) == 0) return k;
    ck_abort_msg("no field %s", name);
    return 0;
}

START_TEST(one_client_equals_feature_based)
{
    static const char *const pair[2][2] = {{"ssca_alg1", "ssca_alg3"}, {"ssca_alg2", "ssca_alg4"}};
    for (int p = 0; p < 2; p++) {
        vfile s, f;
        read_file(&s, pair[p][0]);
        read_file(&f, pair[p][1]);
        const vcase *a = find(&s, 5), *b = find(&f, 5);
        ck_assert(strstr(a->comment, "parts 16;") != NULL);          /* one client */
        for (size_t k = 0; k < vspec_count(s.fn->params); k++)
            ck_assert_msg(same_tensor(&a->param[k], &b->param[k]), "%s: param %zu", pair[p][0], k);
        ck_assert(same_tensor(&a->input[1], &b->input[1]));          /* Z */
        ck_assert(same_tensor(&a->input[4], &b->input[4]));          /* w1 */
        size_t same = 0;
        for (size_t k = 0; s.fn->expects[k].name; k++) {
            if (strcmp(s.fn->expects[k].name, "msgs") == 0) {
                ck_assert(!same_tensor(&a->expect[k], &b->expect[k]));
                continue;
            }
            ck_assert_msg(same_tensor(&a->expect[k], &b->expect[k]), "%s vs %s: %s differs", pair[p][0],
                          pair[p][1], s.fn->expects[k].name);
            same++;
        }
        ck_assert_uint_eq(same, 8);
        vfile_free(&s);
        vfile_free(&f);
    }
}
END_TEST

/* Rows of `draws` split into blocks of `len`: each block a permutation of
 * 0 .. len-1. */
static void blocks_are_permutations(const char *name, long id, size_t len)
{
    vfile f;
    read_file(&f, name);
    const vtensor *d = &find(&f, id)->expect[field(&f, "draws")];
    ck_assert_uint_eq(d->cols % len, 0);
    ck_assert_uint_gt(d->rows, 0);
    char *seen = calloc(len, 1);
    for (size_t r = 0; r < d->rows; r++)
        for (size_t b = 0; b < d->cols / len; b++) {
            memset(seen, 0, len);
            for (size_t k = 0; k < len; k++) {
                long v = strtol(d->s[r * d->cols + b * len + k], NULL, 10);
                ck_assert_msg(v >= 0 && (size_t)v < len && !seen[v], "%s id %ld round %zu", name, id, r + 1);
                seen[v] = 1;
            }
        }
    free(seen);
    vfile_free(&f);
}

START_TEST(fedavg_one_pass_per_round)
{
    blocks_are_permutations("ssca_sgd_s", 4, 8);      /* E = 4, B = 2, N_i = 8 */
    blocks_are_permutations("ssca_sgdm_s", 4, 8);
}
END_TEST

START_TEST(full_batch_every_sample)
{
    blocks_are_permutations("ssca_sgd_f", 3, 16);     /* B = N = 16 */
    blocks_are_permutations("ssca_sgdm_f", 3, 16);
}
END_TEST

Suite *suite_ssca_run_vectors(void)
{
    Suite *s = suite_create("ssca_run_vectors");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, one_client_equals_feature_based);
    tcase_add_test(tc, fedavg_one_pass_per_round);
    tcase_add_test(tc, full_batch_every_sample);
    suite_add_tcase(s, tc);
    return s;
}
