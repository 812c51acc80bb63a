/* SPDX-License-Identifier: Apache-2.0 */
/* tensor.c -- allocation and conversion of case fields for ref and fast
 * (a VK_BOOL field: "true"/"false" <-> 1/0; a VK_CHOICE field: its string
 * <-> its index in the choices; an absent field: 0 x 0). */
#include <stdlib.h>
#include <string.h>
#include "vectors.h"

int rt_alloc(rtensor *t, size_t rows, size_t cols, mpfr_prec_t prec)
{
    size_t k = rows * cols;
    t->rows = rows; t->cols = cols;
    t->v = malloc((k ? k : 1) * sizeof *t->v);
    if (t->v == NULL) return -1;
    for (size_t i = 0; i < k; i++) mpfr_init2(t->v[i], prec);
    return 0;
}

void rt_free(rtensor *t)
{
    if (t->v == NULL) return;
    for (size_t i = 0; i < t->rows * t->cols; i++) mpfr_clear(t->v[i]);
    free(t->v);
    t->v = NULL;
}

int ft_alloc(ftensor *t, size_t rows, size_t cols)
{
    size_t k = rows * cols;
    t->rows = rows; t->cols = cols;
    t->v = calloc(k ? k : 1, sizeof *t->v);
    return t->v == NULL ? -1 : 0;
}

void ft_free(ftensor *t)
{
    free(t->v);
    t->v = NULL;
}

int vt_bool_parse(const char *s)
{
    if (s == NULL) return -1;
    return strcmp(s, "true") == 0 ? 1 : strcmp(s, "false") == 0 ? 0 : -1;
}

int rt_bool(mpfr_srcptr x)
{
    if (!mpfr_number_p(x)) return -1;
    return mpfr_zero_p(x) ? 0 : mpfr_cmp_ui(x, 1) == 0 ? 1 : -1;
}

int ft_bool(double x)
{
    return x == 0 ? 0 : x == 1 ? 1 : -1;
}

int vt_choice_parse(const char *const *choices, const char *s)
{
    if (choices == NULL || s == NULL) return -1;
    for (int i = 0; choices[i]; i++)
        if (strcmp(choices[i], s) == 0) return i;
    return -1;
}

/* A boolean field as 1/0, a choice as its index; -1 if not one. */
static int vt_coded(const vtensor *v, size_t i)
{
    return v->boolean ? vt_bool_parse(v->s[i]) : vt_choice_parse(v->choices, v->s[i]);
}

int rt_from_v(rtensor *t, const vtensor *v, mpfr_prec_t prec)
{
    /* a number is read as binary64 (what fast reads: exactly the written
     * value in a file of binary64 inputs) and held at >= 53 bits, so that
     * no precision, a file's certified_bits included, rounds it */
    if (rt_alloc(t, v->rows, v->cols, prec < 53 ? 53 : prec) != 0) return -1;
    for (size_t i = 0; i < v->rows * v->cols; i++) {
        if (v->choices) {
            int c = vt_coded(v, i);
            if (c < 0) { rt_free(t); return -1; }
            mpfr_set_ui(t->v[i], (unsigned long)c, MPFR_RNDN);   /* exact */
            continue;
        }
        int b = v->boolean ? vt_bool_parse(v->s[i]) : 0;
        double x = 0;
        if (v->boolean ? b < 0 : num_parse_double(&x, v->s[i]) != 0) { rt_free(t); return -1; }
        if (v->boolean) mpfr_set_ui(t->v[i], (unsigned long)b, MPFR_RNDN);   /* exact */
        else mpfr_set_d(t->v[i], x, MPFR_RNDN);                             /* exact: >= 53 bits */
    }
    return 0;
}

int ft_from_v(ftensor *t, const vtensor *v)
{
    if (ft_alloc(t, v->rows, v->cols) != 0) return -1;
    for (size_t i = 0; i < v->rows * v->cols; i++) {
        if (v->choices) {
            int c = vt_coded(v, i);
            if (c < 0) { ft_free(t); return -1; }
            t->v[i] = c;
            continue;
        }
        int b = v->boolean ? vt_bool_parse(v->s[i]) : 0;
        if (v->boolean ? b < 0 : num_parse_double(&t->v[i], v->s[i]) != 0) { ft_free(t); return -1; }
        if (v->boolean) t->v[i] = b;
    }
    return 0;
}

void vt_free(vtensor *v)
{
    if (v->s == NULL) return;
    for (size_t i = 0; i < v->rows * v->cols; i++) free(v->s[i]);
    free(v->s);
    v->s = NULL;
}

int rt_exact_double(double *out, mpfr_srcptr x)
{
    double v = mpfr_get_d(x, MPFR_RNDN);
    if (mpfr_number_p(x) && mpfr_cmp_d(x, v) != 0) return FR_EDOM;
    *out = v;
    return FR_OK;
}
