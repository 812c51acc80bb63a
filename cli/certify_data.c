/* SPDX-License-Identifier: Apache-2.0 */
/* certify_data.c -- a data set as the data fields of a run (certify.h,
 * vdata in vectors/vectors.h; docs/CERTIFY.md "Data"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "certify.h"
#include "fedref_common.h"
#include "../data/data.h"

static json_t *num(double x)
{
    char b[40];
    snprintf(b, sizeof b, "%.17g", x);     /* read back as the same binary64 */
    return json_string(b);
}

/* 1 if the case's choice field named by d->when ("NAME=VALUE") has that value. */
int certify_data_when(const vdata *d, json_t *input)
{
    if (d == NULL) return 0;
    if (d->when == NULL) return 1;
    const char *eq = strchr(d->when, '=');
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - d->when), d->when);
    const char *v = json_string_value(json_object_get(input, name));
    return v != NULL && strcmp(v, eq + 1) == 0;
}

int certify_data_fill(const vfunc *fn, json_t *input, const char *path, size_t features, size_t classes,
                      unsigned long clients, char *said, size_t saidlen, char *err, size_t errlen)
{
    const vdata *d = fn->data;
    if (d == NULL) {
        snprintf(err, errlen, "function %s takes no data set (only the runs do: fedref certify --list)", fn->name);
        return -1;
    }
    if (!certify_data_when(d, input)) {
        snprintf(err, errlen, "function %s reads a data set only when the case's input has %s", fn->name, d->when);
        return -1;
    }
    fdata_table t;
    char lerr[512];
    int st = features == 0 ? fdata_csv_load(&t, path, lerr, sizeof lerr)
                           : fdata_csv_load_bare(&t, path, features, classes, lerr, sizeof lerr);
    if (st != FR_OK) { snprintf(err, errlen, "%s", lerr); return -1; }
    int rc = -1;
    size_t parts_of = d->by_features ? t.d : t.n;
    if (d->binary && t.nclasses != 2) {
        snprintf(err, errlen, "%s: %zu classes; function %s needs labels 0 and 1 (two classes)", path, t.nclasses,
                 fn->name);
    } else if (clients == 0 || clients > parts_of) {
        snprintf(err, errlen, "--clients %lu: must be 1 to %zu (the %s of %s)", clients, parts_of,
                 d->by_features ? "features" : "samples", path);
    } else {
        json_t *X = json_array(), *y = json_array(), *sz = json_array();
        for (size_t i = 0; i < t.n; i++) {
            json_t *row = json_array();
            for (size_t j = 0; j < t.d; j++) json_array_append_new(row, num(t.x[i * t.d + j]));
            json_array_append_new(X, row);
            json_array_append_new(y, num((double)t.y[i]));
        }
        if (d->lead_zero) json_array_append_new(sz, num(0));
        for (unsigned long c = 0; c < clients; c++)
            json_array_append_new(sz, num((double)(parts_of / clients + (c < parts_of % clients))));
        uint64_t h = FDATA_FNV_INIT;
        h = fdata_fnv1a(h, t.x, t.n * t.d * sizeof *t.x);
        h = fdata_fnv1a(h, t.y, t.n * sizeof *t.y);
        const char *base = strrchr(path, '/');
        snprintf(said, saidlen, "data: %s (%zu samples of %zu features, %zu classes; fnv1a %016llx of the "
                 "binary64 features and uint16 labels as stored) split among %lu clients: %s, %s, %s",
                 base ? base + 1 : path, t.n, t.d, t.nclasses, (unsigned long long)h, clients, d->matrix,
                 d->labels, d->sizes);
        json_object_set_new(input, d->matrix, X);
        json_object_set_new(input, d->labels, y);
        json_object_set_new(input, d->sizes, sz);
        rc = 0;
    }
    fdata_table_free(&t);
    return rc;
}
