/* SPDX-License-Identifier: Apache-2.0 */
/* conform_adapter.c -- libfedfast as an external implementation for
 * `fedref conform` (protocol fedref-conform/1, docs/CONFORM.md): one JSON
 * request per line on stdin, one JSON reply per line on stdout.  It
 * answers soft, prox_l1, median, ens, fedepm_step, laplace_scale,
 * dp_sens_step, ssca_ema, ssca_update and ssca_argmin with the ff_
 * functions of the installed library, and "unsupported" otherwise.
 *
 *   cc -std=c17 conform_adapter.c $(pkg-config --cflags --libs fedfast jansson) -o conform_adapter
 *   fedref conform -- ./conform_adapter
 *
 * Numbers arrive as decimal strings (binary64 values written exactly:
 * strtod reads them exactly) and leave as %.17g, which reads back as the
 * same binary64 ("-0", "inf" and "nan" included). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "fedfast.h"

static const char *status_name(int st)
{
    switch (st) {
    case FR_EDOM: return "FR_EDOM";
    case FR_ENONFINITE: return "FR_ENONFINITE";
    case FR_ESIZE: return "FR_ESIZE";
    case FR_ENULL: return "FR_ENULL";
    case FR_ENOMEM: return "FR_ENOMEM";
    default: return "FR_EINTERNAL";
    }
}

/* A field of params or input: a scalar, a vector (rows 1) or a matrix;
 * never a NULL pointer, also when empty. */
typedef struct { double *v; size_t rows, cols; } field;

static double number(json_t *j)
{
    return json_is_string(j) ? strtod(json_string_value(j), NULL) : 0;
}

static field get(json_t *obj, const char *name)
{
    json_t *j = json_object_get(obj, name);
    field f = {NULL, 0, 0};
    if (json_is_string(j)) {
        f.v = malloc(sizeof *f.v);
        f.v[0] = number(j);
        f.rows = f.cols = 1;
    } else if (json_is_array(j) && json_array_size(j) > 0 && json_is_array(json_array_get(j, 0))) {
        f.rows = json_array_size(j);
        f.cols = json_array_size(json_array_get(j, 0));
        f.v = malloc((f.rows * f.cols + 1) * sizeof *f.v);
        for (size_t r = 0; r < f.rows; r++)
            for (size_t c = 0; c < f.cols; c++) f.v[r * f.cols + c] = number(json_array_get(json_array_get(j, r), c));
    } else {                                   /* a vector, or an empty matrix [] */
        f.rows = 1;
        f.cols = json_is_array(j) ? json_array_size(j) : 0;
        f.v = malloc((f.cols + 1) * sizeof *f.v);
        for (size_t c = 0; c < f.cols; c++) f.v[c] = number(json_array_get(j, c));
    }
    return f;
}

static json_t *str(double x)
{
    char b[40];
    snprintf(b, sizeof b, "%.17g", x);
    return json_string(b);
}

static json_t *vec(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, str(x[i]));
    return a;
}

/* Evaluate function fn on (p, in) into *output; the ff_ status. */
static int eval(const char *fn, json_t *p, json_t *in, json_t **output, int *supported)
{
    field a = {0}, b = {0}, c = {0}, d = {0}, e = {0}, f = {0};
    double *o = NULL, s = 0;
    int st = FR_OK;
    const char *name = NULL;
    size_t n = 0;
    *supported = 1;
    if (strcmp(fn, "soft") == 0) {
        a = get(p, "a"); b = get(in, "t"); n = b.cols; o = malloc((n + 1) * sizeof *o);
        st = ff_soft(o, b.v, n, a.v[0]); name = "soft";
    } else if (strcmp(fn, "prox_l1") == 0) {
        a = get(p, "gamma"); b = get(p, "rho"); c = get(in, "u"); n = c.cols; o = malloc((n + 1) * sizeof *o);
        st = ff_prox_l1(o, c.v, n, a.v[0], b.v[0]); name = "x";
    } else if (strcmp(fn, "median") == 0 || strcmp(fn, "ens") == 0) {
        int med = fn[0] == 'm';
        c = get(in, "W");
        if (!med) { a = get(p, "lambda"); b = get(p, "eta"); }
        size_t m = c.cols ? c.rows : 0;             /* W = []: no rows */
        n = c.cols; o = malloc((n + 1) * sizeof *o);
        st = med ? ff_median(o, c.v, m, n) : ff_ens(o, c.v, m, n, a.v[0], b.v[0]);
        name = med ? "med" : "w";
    } else if (strcmp(fn, "fedepm_step") == 0) {
        a = get(p, "lambda"); b = get(p, "eta"); c = get(p, "mu");
        d = get(in, "w_i"); e = get(in, "w_server"); f = get(in, "g");
        n = d.cols; o = malloc((n + 1) * sizeof *o);
        st = e.cols != n || f.cols != n ? FR_ESIZE
           : ff_fedepm_step(o, d.v, e.v, f.v, n, a.v[0], b.v[0], c.v[0]);
        name = "w_i_next";
    } else if (strcmp(fn, "laplace_scale") == 0) {
        a = get(p, "eps"); b = get(p, "Delta"); c = get(p, "mu");
        st = ff_laplace_scale_upper(&s, b.v[0], a.v[0], c.v[0]);
        if (st == FR_OK) { *output = json_pack("{s:o}", "scale", str(s)); }
    } else if (strcmp(fn, "dp_sens_step") == 0) {
        a = get(p, "eta"); b = get(p, "mu"); c = get(p, "Delta"); d = get(in, "delta");
        n = d.cols; o = malloc((n + 1) * sizeof *o);
        st = n == 0 ? FR_ESIZE : FR_OK;
        for (size_t j = 0; j < n && st == FR_OK; j++)
            st = ff_dp_sens_step_upper(&o[j], d.v[j], c.v[0], a.v[0], b.v[0]);
        name = "delta_next";
    } else if (strcmp(fn, "ssca_ema") == 0 || strcmp(fn, "ssca_update") == 0) {
        int ema = fn[5] == 'e';
        a = get(p, ema ? "rho" : "gamma"); b = get(in, ema ? "x" : "w"); c = get(in, ema ? "y" : "wbar");
        n = b.cols; o = malloc((n + 1) * sizeof *o);
        memcpy(o, b.v, n * sizeof *o);
        if (ema) st = c.cols != 0 && c.cols != n ? FR_ESIZE : ff_ssca_ema(o, c.cols ? c.v : NULL, n, a.v[0]);
        else st = c.cols != n ? FR_ESIZE : ff_ssca_update(o, c.v, n, a.v[0]);
        name = ema ? "x_next" : "w_next";
    } else if (strcmp(fn, "ssca_argmin") == 0) {
        a = get(p, "lambda"); b = get(p, "tau"); c = get(p, "P"); d = get(in, "f1"); e = get(in, "beta");
        n = d.cols; o = malloc((n + 1) * sizeof *o);
        st = e.cols != 0 && e.cols != n ? FR_ESIZE
           : ff_ssca_argmin(o, d.v, e.cols ? e.v : NULL, n, a.v[0], b.v[0], c.v[0]);
        name = "wbar";
    } else {
        *supported = 0;
    }
    if (st == FR_OK && name) *output = json_pack("{s:o}", name, vec(o, n));
    free(a.v); free(b.v); free(c.v); free(d.v); free(e.v); free(f.v); free(o);
    return st;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        json_error_t je;
        json_t *req = json_loads(line, 0, &je), *reply = json_object(), *output = NULL;
        int supported = 0;
        json_object_set(reply, "id", json_object_get(req, "id"));
        const char *fn = json_string_value(json_object_get(req, "function"));
        int st = fn ? eval(fn, json_object_get(req, "params"), json_object_get(req, "input"), &output, &supported)
                    : FR_OK;
        if (!supported) json_object_set_new(reply, "unsupported", json_true());
        else if (st != FR_OK) json_object_set_new(reply, "error", json_string(status_name(st)));
        else json_object_set_new(reply, "output", output);
        char *s = json_dumps(reply, JSON_COMPACT);
        printf("%s\n", s);
        fflush(stdout);
        free(s);
        json_decref(reply);
        json_decref(req);
    }
    free(line);
    return 0;
}
