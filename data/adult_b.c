/* SPDX-License-Identifier: Apache-2.0 */
/* adult_b.c -- ProxAL's 'adult-b' (004 Sec. 5.3, docs/DATA.md section 4b):
 * 39 features, the sensitive attribute sex, 22 654 training rows for the
 * clients and 5 659 test rows for the server, from UCI Adult. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

/* Adult's attribute columns (adult.names order, from 0) */
enum { AGE, WORKCLASS, FNLWGT, EDUCATION, EDUNUM, MARITAL, OCCUPATION, RELATIONSHIP, RACE, SEX, GAIN, LOSS, HOURS,
       COUNTRY, NATTR };
static const int contin[] = {AGE, FNLWGT, EDUNUM, GAIN, LOSS, HOURS};
static const int onehot[] = {MARITAL, OCCUPATION, RELATIONSHIP, RACE};
#define NCONT (sizeof contin / sizeof *contin)
#define NHOT (sizeof onehot / sizeof *onehot)

/* the first want rows of u without a "?", encoded into t (d = 39);
 * lo, hi: the training part's continuous ranges */
static void encode(fdata_table *t, unsigned char *g, const fdata_uci *u, size_t want, const double *lo,
                   const double *hi)
{
    const size_t d = FDATA_ADULT_B_D;
    size_t r = 0;
    for (size_t i = 0; i < u->n && r < want; i++) {
        if (memchr(u->missing + i * NATTR, 1, NATTR) != NULL) continue;
        const double *a = u->x + i * NATTR;
        double *x = t->x + r * d;
        size_t j = 0;
        for (size_t c = 0; c < NCONT; c++, j++)
            x[j] = hi[c] > lo[c] ? (a[contin[c]] - lo[c]) / (hi[c] - lo[c]) : 0.0;
        for (size_t c = 0; c < NHOT; c++) {
            size_t k = fdata_adult_schema.attr[onehot[c]].ncat;
            memset(x + j, 0, k * sizeof *x);
            x[j + (size_t)a[onehot[c]]] = 1.0;
            j += k;
        }
        x[j] = a[SEX];                       /* Female 0, Male 1 */
        g[r] = (unsigned char)a[SEX];
        t->y[r++] = u->y[i];
    }
}

/* the one-hot attributes and sex of a row hold category indices */
static int cats_ok(const double *a)
{
    for (size_t c = 0; c < NHOT; c++)
        if (!(a[onehot[c]] >= 0 && a[onehot[c]] < (double)fdata_adult_schema.attr[onehot[c]].ncat) ||
            a[onehot[c]] != floor(a[onehot[c]]))
            return 0;
    return a[SEX] == 0 || a[SEX] == 1;
}

static int alloc_part(fdata_table *t, unsigned char **g, size_t n)
{
    *t = (fdata_table){.n = n, .d = FDATA_ADULT_B_D, .nclasses = 2};
    t->x = malloc(n * FDATA_ADULT_B_D * sizeof *t->x);
    t->y = malloc(n * sizeof *t->y);
    t->class_names = calloc(2, sizeof *t->class_names);
    *g = malloc(n);
    for (size_t c = 0; t->class_names != NULL && c < 2; c++)
        t->class_names[c] = strdup(fdata_adult_schema.classes[c]);
    return t->x != NULL && t->y != NULL && *g != NULL && t->class_names != NULL && t->class_names[0] != NULL &&
           t->class_names[1] != NULL;
}

void fdata_adult_b_free(fdata_adult_b *b)
{
    if (b == NULL) return;
    fdata_table_free(&b->train);
    fdata_table_free(&b->test);
    free(b->group_train);
    free(b->group_test);
    memset(b, 0, sizeof *b);
}

int fdata_adult_004b(fdata_adult_b *out, const fdata_uci *train, const fdata_uci *test, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || train == NULL || test == NULL)
        return fdi_fail(err, errlen, FR_ENULL, "adult-b: a required pointer is NULL");
    memset(out, 0, sizeof *out);
    const fdata_uci *part[2] = {train, test};
    const size_t want[2] = {FDATA_ADULT_B_TRAIN, FDATA_ADULT_B_TEST};
    for (int k = 0; k < 2; k++) {
        if (part[k]->d != NATTR)
            return fdi_fail(err, errlen, FR_EDOM, "adult-b: the %s part has %zu attributes, not Adult's 14",
                            k ? "test" : "training", part[k]->d);
        for (size_t i = 0; i < part[k]->n; i++)
            if (part[k]->y[i] > 1 || !cats_ok(part[k]->x + i * NATTR))
                return fdi_fail(err, errlen, FR_EDOM, "adult-b: the %s part is not as its parser leaves it",
                                k ? "test" : "training");
        if (part[k]->n - part[k]->rows_missing < want[k])
            return fdi_fail(err, errlen, FR_ESIZE, "adult-b: the %s part has %zu rows without a \"?\", not the "
                            "%zu 004 Sec. 5.3 takes", k ? "test" : "training", part[k]->n - part[k]->rows_missing,
                            want[k]);
    }
    /* the continuous ranges of the training rows taken (the server's test
     * rows are scaled with them, as a model trained at the clients sees) */
    double lo[NCONT], hi[NCONT];
    for (size_t c = 0; c < NCONT; c++) lo[c] = INFINITY, hi[c] = -INFINITY;
    for (size_t i = 0, r = 0; i < train->n && r < want[0]; i++) {
        if (memchr(train->missing + i * NATTR, 1, NATTR) != NULL) continue;
        r++;
        for (size_t c = 0; c < NCONT; c++) {
            double v = train->x[i * NATTR + contin[c]];
            lo[c] = v < lo[c] ? v : lo[c];
            hi[c] = v > hi[c] ? v : hi[c];
        }
    }
    fdata_adult_b b = {0};
    if (!alloc_part(&b.train, &b.group_train, want[0]) || !alloc_part(&b.test, &b.group_test, want[1])) {
        fdata_adult_b_free(&b);
        return fdi_fail(err, errlen, FR_ENOMEM, "adult-b: out of memory");
    }
    encode(&b.train, b.group_train, train, want[0], lo, hi);
    encode(&b.test, b.group_test, test, want[1], lo, hi);
    *out = b;
    return FR_OK;
}
