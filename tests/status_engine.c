/* SPDX-License-Identifier: Apache-2.0 */
/* status_engine.c -- the engine of the table-driven status tests
 * (status_engine.h). */
#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "status_engine.h"

/* ---- bit-for-bit snapshots --------------------------------------------- */

void st_bytes_raw(st_bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = 2 * (b->len + n) + 64;
        unsigned char *q = realloc(b->p, cap);
        ck_assert(q != NULL);
        b->p = q;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

/* Precision, sign, exponent, limb pointer and limbs: an mpfr_t whose
 * bytes are unchanged was not written (not even rounded to the same value
 * or re-allocated). */
void st_bytes_mpfr(st_bytes *b, mpfr_srcptr x)
{
    st_bytes_raw(b, x, sizeof *x);
    size_t limbs = ((size_t)mpfr_get_prec(x) + mp_bits_per_limb - 1) / mp_bits_per_limb;
    st_bytes_raw(b, x->_mpfr_d, limbs * sizeof(mp_limb_t));
}

void st_bytes_mpfrs(st_bytes *b, mpfr_t *const x, size_t n)
{
    for (size_t j = 0; j < n; j++)
        st_bytes_mpfr(b, x[j]);
}

int st_bytes_eq(const st_bytes *a, const st_bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

void st_bytes_free(st_bytes *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void st_failf(st_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (c->fail[0] == '\0')
        vsnprintf(c->fail, sizeof c->fail, fmt, ap);
    va_end(ap);
}

mpfr_ptr st_one(st_ref *r, int k)
{
    return r->v[k] != NULL ? r->v[k][0] : NULL;
}

void st_in(st_case *c, int k, size_t n, const double *v)
{
    ck_assert(n <= ST_CAP);
    c->len[k] = n;
    memcpy(c->a[k], v, n * sizeof *v);
}

void st_out(st_case *c, int k, size_t n)
{
    ck_assert(n <= ST_CAP);
    c->len[k] = n;
    c->out |= 1u << k;
}

/* ---- building a case ----------------------------------------------------- */

static void apply(st_case *c, const st_edit *e)
{
    switch (e->op) {
    case E_NUL:   c->null |= 1u << e->k; break;
    case E_NULS:  c->snull |= 1u << e->k; break;
    case E_NULG:  c->gnull = 1; break;
    case E_SIZE:  c->z[e->k] = e->z; break;
    case E_SCAL:  c->s[e->k] = e->v; break;
    case E_ENTRY: ck_assert(e->j < c->len[e->k]); c->a[e->k][e->j] = e->v; break;
    case E_PREC:  c->prec[e->k] = (mpfr_prec_t)e->z; break;
    case E_ALIAS: c->alias[e->k] = (int)e->j + 1; break;
    case E_SHIFT: c->shift[e->k] = (long)e->v; break;
    case E_U:     c->u = (unsigned long)e->z; break;
    case E_FLAG:  c->flag = (int)e->v; break;
    case E_X:     ck_assert(c->xedit != NULL); c->xedit(c, e->k, e->j, e->v, e->z); break;
    default:      break;
    }
}

static void build(st_case *c, const st_row *row)
{
    memset(c, 0, sizeof *c);
    frng_init(&c->g, 0x5eed, 7);
    (void)frng_next64(&c->g);            /* a state in the middle of a block */
    row->fn->base(c);
    for (size_t k = 0; k < sizeof row->e / sizeof row->e[0] && row->e[k].op != E_END; k++)
        apply(c, &row->e[k]);
}

static int target(const st_case *c, int k)
{
    return c->alias[k] ? c->alias[k] - 1 : k;
}

/* ---- the ref call ------------------------------------------------------- */

/* Sentinel of output entry j: a value no function returns, at a precision
 * no function would choose. */
static void ref_sentinel(mpfr_ptr x, size_t j)
{
    mpfr_set_si_2exp(x, -(long)(0x5a5a5a5a5a5a5 + 2 * j + 1), 31, MPFR_RNDN);
    mpfr_nextabove(x);
}

static int call_ref(const st_row *row, st_case *c)
{
    mpfr_t *slot[ST_SLOTS] = {0};
    mpfr_t sc[ST_SCAL];
    st_bytes before = {0}, after = {0};
    for (int k = 0; k < ST_SLOTS; k++) {
        if (c->len[k] == 0)
            continue;
        slot[k] = malloc(c->len[k] * sizeof *slot[k]);
        ck_assert(slot[k] != NULL);
        for (size_t j = 0; j < c->len[k]; j++) {
            if (c->out >> k & 1) {
                mpfr_init2(slot[k][j], c->prec[k] ? c->prec[k] : ST_PREC);
                ref_sentinel(slot[k][j], j);
            } else {
                mpfr_init2(slot[k][j], 53);
                mpfr_set_d(slot[k][j], c->a[k][j], MPFR_RNDN);      /* exact */
            }
        }
        if (c->shift[k] != 0)
            mpfr_mul_2si(slot[k][0], slot[k][0], c->shift[k], MPFR_RNDN);   /* exact */
        st_bytes_mpfrs(&before, slot[k], c->len[k]);
    }
    for (int k = 0; k < ST_SCAL; k++) {
        mpfr_init2(sc[k], 53);
        mpfr_set_d(sc[k], c->s[k], MPFR_RNDN);
        st_bytes_mpfr(&before, sc[k]);
    }
    frng_t g = c->g;
    st_ref r;
    for (int k = 0; k < ST_SLOTS; k++)
        r.v[k] = c->null >> k & 1 ? NULL : slot[target(c, k)];
    for (int k = 0; k < ST_SCAL; k++)
        r.s[k] = c->snull >> k & 1 ? NULL : sc[k];
    r.g = c->gnull ? NULL : &g;

    int st = row->fn->ref(c, &r);

    for (int k = 0; k < ST_SLOTS; k++)
        if (slot[k] != NULL)
            st_bytes_mpfrs(&after, slot[k], c->len[k]);
    for (int k = 0; k < ST_SCAL; k++)
        st_bytes_mpfr(&after, sc[k]);
    if (st != FR_OK && !st_bytes_eq(&before, &after))   /* FR_OK rows: the status only */
        st_failf(c, "an mpfr_t argument was written");
    if (memcmp(&g, &c->g, sizeof g) != 0)
        st_failf(c, "the generator moved");
    for (int k = 0; k < ST_SLOTS; k++)
        if (slot[k] != NULL) {
            for (size_t j = 0; j < c->len[k]; j++)
                mpfr_clear(slot[k][j]);
            free(slot[k]);
        }
    for (int k = 0; k < ST_SCAL; k++)
        mpfr_clear(sc[k]);
    st_bytes_free(&before);
    st_bytes_free(&after);
    return st;
}

/* ---- the fast call ------------------------------------------------------ */

static int call_fast(int (*fast)(st_case *, st_fast *), st_case *c)
{
    static double v[ST_SLOTS][ST_CAP], keep[ST_SLOTS][ST_CAP];
    memcpy(v, c->a, sizeof v);
    for (int k = 0; k < ST_SLOTS; k++)
        if (c->out >> k & 1)
            for (size_t j = 0; j < ST_CAP; j++) {
                uint64_t bits = UINT64_C(0xc1d2e3f405060708) + 16 * (uint64_t)j;
                memcpy(&v[k][j], &bits, sizeof bits);   /* a sentinel bit pattern */
            }
    memcpy(keep, v, sizeof v);
    frng_t g = c->g;
    st_fast f;
    for (int k = 0; k < ST_SLOTS; k++)
        f.v[k] = c->null >> k & 1 ? NULL : v[target(c, k)];
    f.g = c->gnull ? NULL : &g;

    int st = fast(c, &f);

    if (st != FR_OK && memcmp(v, keep, sizeof v) != 0)
        st_failf(c, "a double argument was written");
    if (memcmp(&g, &c->g, sizeof g) != 0)
        st_failf(c, "the generator moved");
    return st;
}

/* ---- one row ------------------------------------------------------------ */

void st_run_row(const st_row *row, size_t i)
{
    const st_fn *fn = row->fn;
    st_case c;
    if (fn->spec != NULL) {
        build(&c, row);
        int st = fn->spec(&c);
        ck_assert_msg(st == row->expect, "row %zu %s: status %d (%s), expected %d (%s)",
                      i, fn->name, st, fr_strerror(st), row->expect, fr_strerror(row->expect));
        ck_assert_msg(c.fail[0] == '\0', "row %zu %s: %s", i, fn->name, c.fail);
    }
    if (fn->ref != NULL && row->wings != ST_FAST) {
        build(&c, row);
        int st = call_ref(row, &c);
        ck_assert_msg(st == row->expect, "row %zu %s (ref): status %d (%s), expected %d (%s)",
                      i, fn->name, st, fr_strerror(st), row->expect, fr_strerror(row->expect));
        ck_assert_msg(c.fail[0] == '\0', "row %zu %s (ref): %s", i, fn->name, c.fail);
    }
    if (fn->fast != NULL && row->wings != ST_REF) {
        build(&c, row);
        int st = call_fast(fn->fast, &c);
        ck_assert_msg(st == row->expect, "row %zu %s (fast): status %d (%s), expected %d (%s)",
                      i, fn->name, st, fr_strerror(st), row->expect, fr_strerror(row->expect));
        ck_assert_msg(c.fail[0] == '\0', "row %zu %s (fast): %s", i, fn->name, c.fail);
    }
    if (fn->bound != NULL && row->wings != ST_REF) {     /* same inputs, same checks */
        build(&c, row);
        int st = call_fast(fn->bound, &c);
        ck_assert_msg(st == row->expect, "row %zu %s (its ff_*_bound): status %d (%s), expected %d (%s)",
                      i, fn->name, st, fr_strerror(st), row->expect, fr_strerror(row->expect));
        ck_assert_msg(c.fail[0] == '\0', "row %zu %s (its ff_*_bound): %s", i, fn->name, c.fail);
    }
}

#define PAIR_SENTINEL (-0x1.5a5a5a5a5a5a5p+77)

void st_pair_init(st_pair *p, const st_fast *f, int k)
{
    p->v[0] = p->v[1] = PAIR_SENTINEL;
    p->null = f->v[k] == NULL;
}

double *st_pair_at(st_pair *p, int which)
{
    return p->null ? NULL : &p->v[which];
}

int st_pair_done(st_case *c, const st_pair *p, int st)
{
    if (st != FR_OK && (p->v[0] != PAIR_SENTINEL || p->v[1] != PAIR_SENTINEL))
        st_failf(c, "a bound output was written");
    return st;
}
