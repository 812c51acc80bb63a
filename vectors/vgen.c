/* SPDX-License-Identifier: Apache-2.0 */
/* vgen.c -- write a certified golden-vector file (schema fedref-vectors/2).
 *
 * Certification (docs/ACCURACY.md): every fr_* function used here is
 * correctly rounded, so at precision p the exact value x lies within half an
 * ulp of the ref result x_p, inside [nextbelow(x_p), nextabove(x_p)].  When
 * both ends round to the same VEC_DIGITS-digit decimal, that decimal is the
 * correctly rounded value of x: written with certified_bits = 130
 * (|x^ - x| <= 10^-39/2 |x| < 2^-130 |x|).  Otherwise p doubles (Ziv).  As
 * an independent guard, the value is recomputed at 2p and must round to the
 * same decimal, or generation fails.  A boolean field (VK_BOOL) is an
 * exact 0 or 1: written "true" or "false" once p and 2p agree. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "vectors.h"

#define START_PREC 128
#define CERTIFIED_BITS 130

struct vgen {
    const vfunc *fn;
    const vgen_opts *opts;            /* how ref is evaluated; never NULL */
    json_t *groups, *cases;
    ftensor params[VEC_MAX_FIELDS];   /* the current group's (owned copies) */
    long next_id;
    frng_t rng;
    char *err; size_t errlen;
    int failed;
};

static void gfail(vgen *g, const char *msg, long id)
{
    if (!g->failed)
        snprintf(g->err, g->errlen, "%s (function %s, case %ld)", msg, g->fn->name, id);
    g->failed = 1;
}

frng_t *vg_rng(vgen *g) { return &g->rng; }

double vg_dyadic(vgen *g, unsigned bits)
{
    uint64_t k, e, sign;
    frng_below(&g->rng, (uint64_t)1 << bits, &k);
    frng_below(&g->rng, 11, &e);
    frng_below(&g->rng, 2, &sign);
    return (sign ? -1.0 : 1.0) * ldexp((double)k, -(int)e);
}

/* The exact decimal of a binary64 input or param; a negative zero is
 * written "-0" (the reader reads it back as -0). */
static json_t *exact_str(double x)
{
    if (x == 0 && signbit(x)) return json_string("-0");
    mpfr_t t;
    mpfr_init2(t, 53);
    mpfr_set_d(t, x, MPFR_RNDN);
    char *s = num_exact_decimal(t);
    mpfr_clear(t);
    json_t *j = json_string(s ? s : "?");
    free(s);
    return j;
}

/* A boolean param or input as written: "true" for 1, "false" for 0 (either
 * zero); anything else fails the generation (a schema bug). */
static json_t *bool_str(vgen *g, double x)
{
    int b = ft_bool(x);
    if (b < 0) gfail(g, "a boolean param or input must be 0 or 1", g->next_id);
    return json_string(b == 1 ? "true" : "false");
}

static json_t *tensor_json(vgen *g, const ftensor *t, const vspec *sp)
{
    enum vkind kind = sp->kind;
    if (kind == VK_CHOICE) {          /* the index of a choice */
        size_t n = 0;
        while (sp->choices && sp->choices[n]) n++;
        double x = t->rows * t->cols == 1 ? t->v[0] : -1;
        if (!(x >= 0 && x < (double)n && x == floor(x))) {
            gfail(g, "a choice param or input must be the index of one of its strings", g->next_id);
            return json_string("?");
        }
        return json_string(sp->choices[(size_t)x]);
    }
    if (kind == VK_BOOL) {
        if (t->rows * t->cols != 1) gfail(g, "a boolean input must be one value", g->next_id);
        return bool_str(g, t->rows * t->cols != 0 ? t->v[0] : 0);
    }
    if (kind == VK_SCALAR) return exact_str(t->v[0]);
    json_t *a = json_array();
    for (size_t r = 0; r < t->rows; r++) {
        json_t *row = kind == VK_VECTOR ? a : json_array();
        for (size_t c = 0; c < t->cols; c++) json_array_append_new(row, exact_str(t->v[r * t->cols + c]));
        if (kind == VK_MATRIX) json_array_append_new(a, row);
    }
    return a;
}

static void free_params(vgen *g)
{
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) ft_free(&g->params[k]);
}

void vg_group_fields(vgen *g, const char *comment, const ftensor *params)
{
    size_t np = vspec_count(g->fn->params);
    json_t *grp = json_object(), *pj = json_object();
    free_params(g);
    for (size_t k = 0; k < np; k++) {
        const ftensor *t = &params[k];
        size_t cnt = t->rows * t->cols;
        if (ft_alloc(&g->params[k], t->rows, t->cols) != 0) { gfail(g, "out of memory", g->next_id); continue; }
        for (size_t i = 0; i < cnt; i++) g->params[k].v[i] = t->v[i];
        if (cnt == 0 && g->fn->params[k].when) continue;     /* an absent optional field */
        json_object_set_new(pj, g->fn->params[k].name, tensor_json(g, t, &g->fn->params[k]));
    }
    if (comment) json_object_set_new(grp, "comment", json_string(comment));
    json_object_set_new(grp, "params", pj);
    g->cases = json_array();
    json_object_set_new(grp, "cases", g->cases);
    json_array_append_new(g->groups, grp);
}

void vg_group(vgen *g, const char *comment, const double *params)
{
    ftensor t[VEC_MAX_FIELDS];
    size_t np = vspec_count(g->fn->params);
    for (size_t k = 0; k < np; k++) t[k] = (ftensor){1, 1, (double *)&params[k]};
    vg_group_fields(g, comment, t);
}

/* Decide whether component value x (from ref at precision p) certifies a
 * VEC_DIGITS decimal; returns 1 and sets *out (malloc'd), 0 if p must be
 * doubled, -1 on an internal failure.  x2 is the same value at 2p, x4 at 4p
 * (iterative functions only; NULL otherwise).
 *  - correctly rounded ref: the exact value lies in [nextbelow(x), nextabove(x)];
 *    both ends must round to the same decimal, and x2 must agree (guard).
 *  - iterative ref: the error of x2 is estimated by |x - x2| (Ziv's doubling
 *    heuristic: the error at 2p is far below the difference of p and 2p) plus
 *    2^(8-p)|x2|; both ends of x2 -+ that estimate must round to the same
 *    decimal, and x4 must agree (guard). */
static int same_special(mpfr_srcptr a, mpfr_srcptr b)
{
    return b == NULL || (mpfr_nan_p(a) && mpfr_nan_p(b))
        || (mpfr_inf_p(a) && mpfr_inf_p(b) && mpfr_sgn(a) == mpfr_sgn(b));
}

static int certify_one(mpfr_srcptr x, mpfr_srcptr x2, mpfr_srcptr x4, mpfr_prec_t p, char **out)
{
    if (!mpfr_number_p(x)) {           /* NaN or an infinity: exact if every precision agrees */
        if (!same_special(x, x2) || !same_special(x, x4)) return -2;
        *out = num_round_decimal(x, VEC_DIGITS, MPFR_RNDN);
        return *out ? 1 : -1;
    }
    mpfr_t lo, hi, e;
    mpfr_prec_t wp = 4 * p + 64;
    mpfr_inits2(wp, lo, hi, e, (mpfr_ptr)0);
    if (x4 == NULL) {
        mpfr_set(lo, x, MPFR_RNDN);
        mpfr_set(hi, x, MPFR_RNDN);
        if (!mpfr_zero_p(x)) {
            mpfr_set_prec(lo, p); mpfr_set_prec(hi, p);
            mpfr_set(lo, x, MPFR_RNDN); mpfr_set(hi, x, MPFR_RNDN);
            mpfr_nextbelow(lo); mpfr_nextabove(hi);
        }
    } else {
        mpfr_sub(e, x, x2, MPFR_RNDA);
        mpfr_abs(e, e, MPFR_RNDU);
        mpfr_t r;
        mpfr_init2(r, wp);
        mpfr_abs(r, x2, MPFR_RNDU);
        mpfr_mul_2si(r, r, 8 - (long)p, MPFR_RNDU);
        mpfr_add(e, e, r, MPFR_RNDU);
        mpfr_clear(r);
        mpfr_sub(lo, x2, e, MPFR_RNDD);
        mpfr_add(hi, x2, e, MPFR_RNDU);
    }
    char *a = num_round_decimal(lo, VEC_DIGITS, MPFR_RNDN);
    char *b = num_round_decimal(hi, VEC_DIGITS, MPFR_RNDN);
    char *c = num_round_decimal(x4 ? x4 : x2, VEC_DIGITS, MPFR_RNDN);
    int rc;
    if (a == NULL || b == NULL || c == NULL) rc = -1;
    else if (strcmp(a, b) != 0) rc = 0;                /* not yet: double p */
    else if (strcmp(a, c) != 0) rc = -2;               /* the guard disagrees */
    else { *out = a; a = NULL; rc = 1; }
    free(a); free(b); free(c);
    mpfr_clears(lo, hi, e, (mpfr_ptr)0);
    return rc;
}

/* ref's outputs for one case at the precisions asked so far, each
 * computed once: the precision doubling asks p, 2p (and 4p), then 2p, 4p
 * (and 8p), ... */
#define CACHE_MAX 24
typedef struct {
    size_t n;
    mpfr_prec_t prec[CACHE_MAX];
    int status[CACHE_MAX];
    rtensor out[CACHE_MAX][VEC_MAX_FIELDS];
} eval_cache;

static void cache_clear(eval_cache *c)
{
    for (size_t j = 0; j < c->n; j++)
        for (size_t k = 0; k < VEC_MAX_FIELDS; k++) rt_free(&c->out[j][k]);
    c->n = 0;
}

/* The entry of precision p, NULL if not evaluated. */
static size_t cache_find(const eval_cache *c, mpfr_prec_t p)
{
    for (size_t j = 0; j < c->n; j++)
        if (c->prec[j] == p) return j;
    return SIZE_MAX;
}

/* The default evaluator: fn->ref at each precision, in order. */
static int eval_direct(void *arg, const vfunc *fn, long id, rtensor *par, rtensor *in,
                       const mpfr_prec_t *prec, size_t n, rtensor (*out)[VEC_MAX_FIELDS], int *status)
{
    (void)arg; (void)id;
    for (size_t j = 0; j < n; j++) status[j] = fn->ref(par, in, out[j], prec[j]);
    return 0;
}

/* Evaluate ref at every precision of want[] not yet in the cache, in one
 * call of the evaluator (a distributed one runs them at once); 0, or -1
 * (the evaluator failed: an I/O or transport error, in g->err). */
static int cache_fill(vgen *g, eval_cache *c, rtensor *par, rtensor *in, const mpfr_prec_t *want, size_t nw,
                      long id)
{
    mpfr_prec_t todo[4];
    size_t nt = 0;
    for (size_t j = 0; j < nw; j++)
        if (cache_find(c, want[j]) == SIZE_MAX) todo[nt++] = want[j];
    if (nt == 0) return 0;
    if (c->n + nt > CACHE_MAX) { gfail(g, "too many precisions", id); return -1; }
    for (size_t j = 0; j < nt; j++) {
        c->prec[c->n + j] = todo[j];
        c->status[c->n + j] = FR_EINTERNAL;
        memset(c->out[c->n + j], 0, sizeof c->out[0]);
    }
    const vgen_opts *o = g->opts;
    int rc = (o->eval ? o->eval : eval_direct)(o->eval_arg, g->fn, id, par, in, todo, nt, &c->out[c->n],
                                                &c->status[c->n]);
    c->n += nt;
    if (rc != 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", o->eval_error ? o->eval_error(o->eval_arg) : "evaluation failed");
        gfail(g, msg, id);
        return -1;
    }
    return 0;
}

/* The certified decimal of each output component; NULL on failure. */
static json_t *certify(vgen *g, rtensor *par, rtensor *in, long id)
{
    const vfunc *fn = g->fn;
    size_t ne = vspec_count(fn->expects);
    eval_cache cache = {0};
    for (mpfr_prec_t p = START_PREC; p <= FR_PREC_MAX / 4; p *= 2) {
        mpfr_prec_t want[3] = {p, 2 * p, 4 * p};
        if (cache_fill(g, &cache, par, in, want, fn->iterative ? 3 : 2, id) != 0) break;
        size_t j1 = cache_find(&cache, p), j2 = cache_find(&cache, 2 * p);
        size_t j4 = fn->iterative ? cache_find(&cache, 4 * p) : SIZE_MAX;
        rtensor *o1 = cache.out[j1], *o2 = cache.out[j2], *o4 = fn->iterative ? cache.out[j4] : NULL;
        int st1 = cache.status[j1], st2 = cache.status[j2];
        int st4 = fn->iterative ? cache.status[j4] : FR_OK;
        json_t *ex = json_object();
        int ok = st1 == FR_OK && st2 == FR_OK && st4 == FR_OK;
        if (!ok) gfail(g, "ref failed on a valid case", id);
        for (size_t k = 0; k < ne && ok; k++) {
            json_t *vals = json_array();
            size_t cnt = o1[k].rows * o1[k].cols;
            if (o2[k].rows * o2[k].cols != cnt || (fn->iterative && o4[k].rows * o4[k].cols != cnt)) {
                ok = 0;
                gfail(g, "ref output sizes differ between precisions", id);
            }
            if (fn->expects[k].kind == VK_BOOL && ok) {
                /* certified trivially: an exact 0 or 1, the same at every
                 * precision (p, 2p and, for a run, 4p) */
                int b = cnt == 1 ? rt_bool(o1[k].v[0]) : -1;
                if (b < 0 || rt_bool(o2[k].v[0]) != b || (fn->iterative && rt_bool(o4[k].v[0]) != b)) {
                    ok = 0;
                    gfail(g, "ref did not return one boolean (0 or 1, the same at every precision) "
                             "for a boolean field", id);
                } else {
                    json_array_append_new(vals, json_string(b ? "true" : "false"));
                }
                cnt = 0;                              /* nothing for the decimal loop */
            }
            for (size_t i = 0; i < cnt && ok; i++) {
                char *dec = NULL;
                int rc = certify_one(o1[k].v[i], o2[k].v[i], fn->iterative ? o4[k].v[i] : NULL, p, &dec);
                if (rc == -1) { ok = 0; gfail(g, "out of memory", id); }
                else if (rc == -2) { ok = 0; gfail(g, "ref at p, 2p (and 4p) disagree: contract violated", id); }
                else if (rc == 0) ok = 0;
                else {
                    /* a correctly rounded -0 is written "-0" (its sign is
                     * part of the result; the checker compares it) */
                    int negzero = !fn->iterative && mpfr_zero_p(o1[k].v[i]) && mpfr_signbit(o1[k].v[i]);
                    json_array_append_new(vals, json_string(negzero ? "-0" : dec));
                    free(dec);
                }
            }
            json_t *field;
            if (fn->expects[k].kind == VK_SCALAR || fn->expects[k].kind == VK_BOOL) {
                field = json_incref(json_array_get(vals, 0));
            } else if (fn->expects[k].kind == VK_VECTOR) {
                field = json_incref(vals);
            } else {                                  /* matrix: rows of o1[k].cols */
                field = json_array();
                for (size_t r = 0; r < o1[k].rows && ok; r++) {
                    json_t *row = json_array();
                    for (size_t c = 0; c < o1[k].cols; c++)
                        json_array_append(row, json_array_get(vals, r * o1[k].cols + c));
                    json_array_append_new(field, row);
                }
            }
            json_object_set_new(ex, fn->expects[k].name, field);
            json_decref(vals);
        }
        if (ok) { cache_clear(&cache); return ex; }
        json_decref(ex);
        if (g->failed) break;
    }
    cache_clear(&cache);
    if (!g->failed) gfail(g, "could not certify within the precision limit", id);
    return NULL;
}

static json_t *flags_json(vgen *g, const char *flags, long id)
{
    json_t *a = json_array();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", flags);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (vflag_note(tok) == NULL) gfail(g, "unknown flag", id);
        for (size_t k = 0; k < json_array_size(a); k++)
            if (strcmp(json_string_value(json_array_get(a, k)), tok) == 0) gfail(g, "a flag twice in a case", id);
        json_array_append_new(a, json_string(tok));
    }
    return a;
}

/* The symbolic name of a domain-error status (fedref_common.h). */
static const char *status_name(int st)
{
    return fr_is_domain_error(st) ? vstatus_name(st) : NULL;
}

/* The status ref and fast return on an invalid case: both must return the
 * same domain error (the error semantics of docs/DESIGN.md section 5);
 * NULL (and the generation fails) otherwise.  ref runs at 64 bits: an
 * argument error does not depend on the precision. */
static const char *invalid_status(vgen *g, const ftensor *inputs, long id)
{
    const vfunc *fn = g->fn;
    size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
    rtensor rpar[VEC_MAX_FIELDS] = {{0}}, rin[VEC_MAX_FIELDS] = {{0}}, rout[VEC_MAX_FIELDS] = {{0}};
    ftensor fpar[VEC_MAX_FIELDS] = {{0}}, fin[VEC_MAX_FIELDS] = {{0}}, fout[VEC_MAX_FIELDS] = {{0}};
    int bad = 0;
    for (size_t k = 0; k < np; k++) {
        const ftensor *t = &g->params[k];
        bad |= rt_alloc(&rpar[k], t->rows, t->cols, 53) | ft_alloc(&fpar[k], t->rows, t->cols);
        for (size_t i = 0; i < t->rows * t->cols && !bad; i++) {
            mpfr_set_d(rpar[k].v[i], t->v[i], MPFR_RNDN);   /* exact */
            fpar[k].v[i] = t->v[i];
        }
    }
    for (size_t k = 0; k < ni && !bad; k++) {
        size_t cnt = inputs[k].rows * inputs[k].cols;
        bad |= rt_alloc(&rin[k], inputs[k].rows, inputs[k].cols, 53)
             | ft_alloc(&fin[k], inputs[k].rows, inputs[k].cols);
        for (size_t i = 0; i < cnt && !bad; i++) {
            mpfr_set_d(rin[k].v[i], inputs[k].v[i], MPFR_RNDN);   /* exact */
            fin[k].v[i] = inputs[k].v[i];
        }
    }
    const char *name = NULL;
    if (bad) {
        gfail(g, "out of memory", id);
    } else {
        int sr = fn->ref(rpar, rin, rout, 64), sf = fn->fast(fpar, fin, fout);
        name = status_name(sr);
        if (name == NULL || sr != sf) {
            gfail(g, "an invalid case: ref and fast must return the same domain error", id);
            name = NULL;
        }
    }
    for (size_t k = 0; k < VEC_MAX_FIELDS; k++) {
        rt_free(&rpar[k]); rt_free(&rin[k]); rt_free(&rout[k]);
        ft_free(&fpar[k]); ft_free(&fin[k]); ft_free(&fout[k]);
    }
    return name;
}

void vg_case(vgen *g, const char *comment, const char *flags, int invalid, const ftensor *inputs)
{
    const vfunc *fn = g->fn;
    long id = g->next_id++;
    size_t np = vspec_count(fn->params), ni = vspec_count(fn->inputs);
    json_t *c = json_object(), *in = json_object();
    json_object_set_new(c, "id", json_integer(id));
    if (invalid) {                     /* the comment ends with the status both return */
        const char *st = invalid_status(g, inputs, id);
        char *text = malloc(strlen(comment) + 64);
        if (text == NULL) {
            gfail(g, "out of memory", id);
            json_object_set_new(c, "comment", json_string(comment));
        } else {
            sprintf(text, "%s; status %s (ref and fast)", comment, st ? st : "?");
            json_object_set_new(c, "comment", json_string(text));
            free(text);
        }
    } else {
        json_object_set_new(c, "comment", json_string(comment));
    }
    json_object_set_new(c, "flags", flags_json(g, flags, id));
    for (size_t k = 0; k < ni; k++)
        if (!(fn->inputs[k].when && inputs[k].rows * inputs[k].cols == 0))   /* else: absent */
            json_object_set_new(in, fn->inputs[k].name, tensor_json(g, &inputs[k], &fn->inputs[k]));
    json_object_set_new(c, "input", in);
    if (invalid) {
        json_object_set_new(c, "result", json_string("invalid"));
    } else {
        ftensor fpar[VEC_MAX_FIELDS];
        rtensor rpar[VEC_MAX_FIELDS] = {{0}}, rin[VEC_MAX_FIELDS] = {{0}};
        for (size_t k = 0; k < np; k++) {
            fpar[k] = g->params[k];
            rt_alloc(&rpar[k], fpar[k].rows, fpar[k].cols, 53);
            for (size_t i = 0; i < fpar[k].rows * fpar[k].cols; i++)
                mpfr_set_d(rpar[k].v[i], fpar[k].v[i], MPFR_RNDN);   /* exact */
        }
        for (size_t k = 0; k < ni; k++) {
            rt_alloc(&rin[k], inputs[k].rows, inputs[k].cols, 53);
            for (size_t i = 0; i < inputs[k].rows * inputs[k].cols; i++)
                mpfr_set_d(rin[k].v[i], inputs[k].v[i], MPFR_RNDN);   /* exact */
        }
        json_t *ex = g->opts->dry ? NULL : certify(g, rpar, rin, id);
        if (ex) json_object_set_new(c, "expect", ex);
        double rel, abs;
        fn->tol(fpar, inputs, &rel, &abs);
        json_t *t = json_object();
        mpfr_t x;
        mpfr_init2(x, 53);
        char *s;
        mpfr_set_d(x, rel, MPFR_RNDN); s = num_round_decimal(x, 17, MPFR_RNDU);
        json_object_set_new(t, "rel", json_string(s)); free(s);
        mpfr_set_d(x, abs, MPFR_RNDN); s = num_round_decimal(x, 17, MPFR_RNDU);
        json_object_set_new(t, "abs", json_string(s)); free(s);
        mpfr_clear(x);
        json_object_set_new(c, "tol", t);
        json_object_set_new(c, "certified_bits", json_integer(CERTIFIED_BITS));
        for (size_t k = 0; k < VEC_MAX_FIELDS; k++) { rt_free(&rpar[k]); rt_free(&rin[k]); }
    }
    json_array_append_new(g->cases, c);
}

void vg_vec(vgen *g, const char *comment, const char *flags, int invalid, size_t n, const double *x)
{
    ftensor t = {1, n, (double *)x};
    vg_case(g, comment, flags, invalid, &t);
}

void vg_mat(vgen *g, const char *comment, const char *flags, int invalid,
            size_t m, size_t n, const double *W)
{
    ftensor t = {m, n, (double *)W};
    vg_case(g, comment, flags, invalid, &t);
}

/* The "notes" table: the flags some case of the file uses (groups: the
 * file's), in module order. */
typedef struct { json_t *notes, *groups; } note_ctx;

static void add_note(const vflag *f, void *arg)
{
    note_ctx *n = arg;
    size_t g, k, i;
    json_t *grp, *c, *fl;
    json_array_foreach(n->groups, g, grp)
        json_array_foreach(json_object_get(grp, "cases"), k, c)
            json_array_foreach(json_object_get(c, "flags"), i, fl)
                if (strcmp(json_string_value(fl), f->name) == 0) {
                    json_object_set_new(n->notes, f->name, json_string(f->note));
                    return;
                }
}

int vectors_generate(const vfunc *fn, const char *path, char *err, size_t errlen)
{
    return vectors_generate_opts(fn, path, &(vgen_opts){0}, err, errlen);
}

int vectors_generate_opts(const vfunc *fn, const char *path, const vgen_opts *opts, char *err, size_t errlen)
{
    vgen g = {.fn = fn, .opts = opts, .next_id = 1, .err = err, .errlen = errlen};
    frng_init(&g.rng, 2024, 0);
    g.groups = json_array();
    if (opts->golden) opts->golden(&g, opts->golden_arg);
    else fn->golden(&g);
    free_params(&g);
    json_t *root = json_object(), *gen = json_object(), *notes = json_object();
    json_object_set_new(root, "schema", json_string(VEC_SCHEMA));
    json_object_set_new(root, "function", json_string(fn->name));
    json_object_set_new(root, "source", json_string(fn->source));
    json_object_set_new(gen, "name", json_string("fedref"));
    json_object_set_new(gen, "version", json_string(FEDREF_VERSION));
    json_object_set_new(gen, "precision_bits", json_integer(START_PREC));
    json_object_set_new(gen, "certification",
        json_string(fn->iterative
            ? "expected values are 40-digit decimals of the exact trajectory, certified by "
              "precision doubling: ref runs at p and 2p bits, the error of the 2p run is "
              "estimated by their difference plus 2^(8-p) relative, both ends of that interval "
              "must round to the same decimal (else p doubles), cross-checked by a run at 4p"
            : "expected values are the correctly rounded 40-digit decimals of the exact "
              "results, certified by an enclosure from correctly rounded ref at p bits, "
              "p doubled until both ends agree (Ziv), cross-checked at 2p"));
    json_object_set_new(root, "generator", gen);
    vflag_each(add_note, &(note_ctx){notes, g.groups});
    json_object_set_new(root, "notes", notes);
    if (fn->changelog) {
        json_t *log = json_array();
        for (const char *const *c = fn->changelog; *c; c++)
            json_array_append_new(log, json_string(*c));
        json_object_set_new(root, "changelog", log);
    }
    json_object_set_new(root, "groups", g.groups);
    int rc = -1;
    if (!g.failed && opts->no_write) {
        rc = 0;
    } else if (!g.failed) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        errno = 0;
        if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0) {
            snprintf(err, errlen, "cannot write %s: %s", tmp, errno ? strerror(errno) : "write failed");
            remove(tmp);
        } else {
            FILE *f = fopen(tmp, "a");   /* a final newline */
            int ok = f != NULL && fputc('\n', f) != EOF;
            if (f != NULL && fclose(f) != 0) ok = 0;
            if (!ok) {
                snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
                remove(tmp);
            } else if (rename(tmp, path) != 0) {
                snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
                remove(tmp);
            } else {
                rc = 0;
            }
        }
    }
    if (opts->root && rc == 0) *opts->root = root;
    else json_decref(root);
    return rc;
}
