/* SPDX-License-Identifier: Apache-2.0 */
/* vreply.c -- judge the outputs of an external implementation against a
 * vector case (fedref conform, docs/CONFORM.md): every value of every
 * expected field, each by vvalue_judge (vcheck.c), the one comparison
 * `fedref vectors check` applies to ref and fast. */
#include <string.h>
#include "vectors.h"

static const struct { int st; const char *name; } statuses[] = {
    {FR_OK, "FR_OK"}, {FR_EDOM, "FR_EDOM"}, {FR_ENONFINITE, "FR_ENONFINITE"}, {FR_ESIZE, "FR_ESIZE"},
    {FR_ENOMEM, "FR_ENOMEM"}, {FR_EPREC, "FR_EPREC"}, {FR_ENULL, "FR_ENULL"},
    {FR_EINTERNAL, "FR_EINTERNAL"}};

const char *vstatus_name(int st)
{
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i].st == st) return statuses[i].name;
    return NULL;
}

int vstatus_parse(const char *s)
{
    for (size_t i = 0; s && i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(statuses[i].name, s) == 0) return statuses[i].st;
    return 1;
}

static void fieldname(char *buf, size_t len, const char *name, const vtensor *v, size_t k)
{
    if (v->rows * v->cols == 1 && v->rows == 1) snprintf(buf, len, "%s", name);
    else if (v->rows == 1) snprintf(buf, len, "%s[%zu]", name, k);
    else snprintf(buf, len, "%s[%zu][%zu]", name, k / v->cols, k % v->cols);
}

static void shown(char *buf, size_t len, const char *s)
{
    snprintf(buf, len, "%.68s", s ? s : "?");
}

/* One expected number field k: every value judged, the first wrong one
 * kept in w; returns the number of wrong values. */
static size_t judge_numbers(const vfile *f, const vcase *c, size_t k, const vtensor *o, int impl, vwrong *w)
{
    const vtensor *x = &c->expect[k];
    long bits = c->certified_bits ? c->certified_bits : 64;
    mpfr_prec_t prec = impl == VCHECK_REF ? (bits > VEC_EVAL_BITS ? bits : VEC_EVAL_BITS) + 96 : 256;
    size_t wrong = 0;
    mpfr_t got;
    /* an exact integer (up to 40 digits) is read exactly, in both */
    int binary64 = impl == VCHECK_FAST && f->fn->expects[k].cmp != VC_INT;
    mpfr_init2(got, prec);
    for (size_t i = 0; i < x->rows * x->cols; i++) {
        vverdict v;
        double d;
        if (!binary64) num_parse_mpfr(got, o->s[i]);
        else { num_parse_double(&d, o->s[i]); mpfr_set_d(got, d, MPFR_RNDN); }   /* the nearest binary64 */
        if (vvalue_judge(f->fn, c, k, i, got, impl, prec, &v)) continue;
        if (wrong++ == 0) {
            fieldname(w->field, sizeof w->field, f->fn->expects[k].name, x, i);
            if (binary64) snprintf(w->got, sizeof w->got, "%.17g", d);   /* what was judged */
            else shown(w->got, sizeof w->got, o->s[i]);
            shown(w->expected, sizeof w->expected, x->s[i]);
            w->why = v.why;
            if (v.special) snprintf(w->rule, sizeof w->rule, "a special value: only itself");
            else if (f->fn->expects[k].cmp == VC_INT) snprintf(w->rule, sizeof w->rule, "an exact integer");
            else if (impl == VCHECK_REF) snprintf(w->rule, sizeof w->rule, "certified %ld bits", bits);
            else if (f->fn->expects[k].cmp == VC_EXACT) snprintf(w->rule, sizeof w->rule, "an exact real");
            else snprintf(w->rule, sizeof w->rule, "tol rel %.60s abs %.60s", c->tol_rel, c->tol_abs);
        }
    }
    mpfr_clear(got);
    return wrong;
}

size_t vcase_judge_output(const vfile *f, const vcase *c, const vtensor *out, int impl,
                          vwrong *wrong, size_t max)
{
    const vfunc *fn = f->fn;
    size_t n = 0, ne = vspec_count(fn->expects);
    for (size_t k = 0; k < ne; k++) {
        const vtensor *x = &c->expect[k], *o = &out[k];
        vwrong w;
        memset(&w, 0, sizeof w);
        w.why = "";
        w.nvalues = x->rows * x->cols;
        if (!vshape_ok(o->rows, o->cols, x)) {
            snprintf(w.field, sizeof w.field, "%s", fn->expects[k].name);
            snprintf(w.got, sizeof w.got, "%zu x %zu values", o->rows, o->cols);
            snprintf(w.expected, sizeof w.expected, "%zu x %zu", x->rows, x->cols);
            snprintf(w.rule, sizeof w.rule, "the shape");
            w.why = ", a shape mismatch";
            w.nwrong = w.nvalues;
        } else if (fn->expects[k].kind == VK_BOOL || fn->expects[k].kind == VK_CHOICE) {
            int ok = fn->expects[k].kind == VK_BOOL ? vbool_ok(x, vt_bool_parse(o->s[0]))
                                                    : strcmp(o->s[0], x->s[0]) == 0;
            if (!ok) {
                snprintf(w.field, sizeof w.field, "%s", fn->expects[k].name);
                shown(w.got, sizeof w.got, o->s[0]);
                shown(w.expected, sizeof w.expected, x->s[0]);
                snprintf(w.rule, sizeof w.rule, fn->expects[k].kind == VK_BOOL ? "a boolean" : "a choice");
                w.nwrong = 1;
            }
        } else {
            w.nwrong = judge_numbers(f, c, k, o, impl, &w);
        }
        if (w.nwrong == 0) continue;
        if (n < max) wrong[n] = w;
        n++;
    }
    return n;
}
