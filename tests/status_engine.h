/* SPDX-License-Identifier: Apache-2.0 */
/* status_engine.h -- the engine of the table-driven status tests
 * (tests/<module>/test_status.c): one row per bad input, checked against
 * the error rule of fedref_common.h ("Error semantics").
 *
 * A row names a function pair (ref, fast, or a shared spec function), a
 * bad-input case as edits of that function's valid base case, and the
 * expected status.  For every row the engine
 *   - builds the base case and applies the edits;
 *   - ref: copies every binary64 slot into MPFR (53 bits, exact), fills
 *     the output slots with sentinels (value and precision), calls the
 *     ref function and asserts the status and that every slot, scalar and
 *     the generator are bit for bit as before (precision, sign, exponent,
 *     limb pointer and limbs of each mpfr_t);
 *   - fast: copies the slots, fills the outputs with sentinel bits, calls
 *     the fast function on the same inputs and asserts the same;
 *   - spec: calls the shared function once and asserts its status (the
 *     adapter checks its own outputs).
 * A fast function's ff_*_bound runs every row of the function too.
 * Adding a row is one line of a table; adding a function is a base case
 * and one adapter per wing (a few lines each).
 *
 * A case has ST_SLOTS array slots (inputs or outputs; a single output is a
 * slot of length 1), ST_SCAL binary64 scalars (mpfr_t in ref, so ref rows
 * can also pass them as NULL), four sizes z[], a count u, a flag, a
 * generator, and a module's own state x (problem, parameters, traces) with
 * its own edits (E_X, applied by c->xedit). */
#ifndef FEDREF_TESTS_STATUS_ENGINE_H
#define FEDREF_TESTS_STATUS_ENGINE_H

#include <stddef.h>
#include "fedref.h"
#include "fedfast.h"

#define ST_SLOTS 10
#define ST_SCAL 4
#define ST_CAP 24
#define ST_PREC 61               /* ref outputs: sentinel precision (not 53) */

enum { ST_BOTH = 0, ST_REF = 1, ST_FAST = 2 };   /* which wings a row runs */

typedef struct st_case st_case;

typedef struct {                 /* the ref call's arguments */
    mpfr_t *v[ST_SLOTS];         /* slot arrays (NULL when the case says so) */
    mpfr_ptr s[ST_SCAL];         /* scalars (NULL when the case says so) */
    frng_t *g;
} st_ref;

typedef struct {                 /* the fast call's arguments */
    double *v[ST_SLOTS];
    frng_t *g;
} st_fast;

typedef struct {
    const char *name;                        /* the function(s) under test */
    void (*base)(st_case *c);                /* a valid case */
    int (*ref)(st_case *c, st_ref *r);       /* NULL: no ref function */
    int (*fast)(st_case *c, st_fast *f);     /* NULL: no fast function */
    int (*spec)(st_case *c);                 /* a shared function (status only) */
    /* the fast function's accuracy bound ff_*_bound, which takes the same
     * inputs and makes the same checks: every row of the function runs it
     * too (outputs: the function's output slots, or the adapter's own
     * sentinels), expecting the same status; NULL: none */
    int (*bound)(st_case *c, st_fast *f);
} st_fn;

struct st_case {
    double a[ST_SLOTS][ST_CAP];  /* slot values (inputs; outputs get sentinels) */
    size_t len[ST_SLOTS];        /* entries of each slot (0: unused) */
    unsigned out;                /* bit k: slot k is an output */
    unsigned null;               /* bit k: slot k passed as NULL */
    unsigned snull;              /* bit k: scalar k passed as NULL (ref) */
    int gnull;                   /* the generator passed as NULL */
    int alias[ST_SLOTS];         /* j + 1: slot k passed as slot j's storage */
    mpfr_prec_t prec[ST_SLOTS];  /* ref: precision of output slot k (0: ST_PREC) */
    long shift[ST_SLOTS];        /* ref: entry 0 of slot k times 2^shift (exact) */
    double s[ST_SCAL];
    size_t z[4];
    unsigned long u;
    int flag;
    frng_t g;
    void *x;                                            /* module state */
    void (*xedit)(st_case *c, int what, size_t j, double v, size_t z);
    char fail[200];              /* an adapter's own untouched check failed */
};

/* One edit of a base case. */
typedef struct {
    unsigned char op, k;
    size_t j;
    double v;
    size_t z;
} st_edit;

enum { E_END = 0, E_NUL, E_NULS, E_NULG, E_SIZE, E_SCAL, E_ENTRY, E_PREC, E_ALIAS,
       E_SHIFT, E_U, E_FLAG, E_X };

#define NUL(k)       {E_NUL, k, 0, 0, 0}          /* slot k NULL */
#define NULS(k)      {E_NULS, k, 0, 0, 0}         /* scalar k NULL (ref rows) */
#define NULG         {E_NULG, 0, 0, 0, 0}         /* the generator NULL */
#define SZ(k, n)     {E_SIZE, k, 0, 0, n}         /* size z[k] = n */
#define SC(k, x)     {E_SCAL, k, 0, x, 0}         /* scalar k = x */
#define EN(k, j, x)  {E_ENTRY, k, j, x, 0}        /* entry j of slot k = x */
#define PREC(k, p)   {E_PREC, k, 0, 0, p}         /* ref output precision */
#define ALIAS(k, j)  {E_ALIAS, k, j, 0, 0}        /* slot k is slot j */
#define SHIFT(k, e)  {E_SHIFT, k, 0, e, 0}        /* ref: entry 0 of slot k * 2^e */
#define U(n)         {E_U, 0, 0, 0, n}
#define FLAG(x)      {E_FLAG, 0, 0, x, 0}
#define X(w, j, x)   {E_X, w, j, x, 0}            /* module edit w, index j, value x */
#define XZ(w, n)     {E_X, w, 0, 0, n}            /* module edit w, size n */

typedef struct {
    const st_fn *fn;
    st_edit e[4];                /* the bad input: edits of fn->base's case */
    int expect;
    int wings;                   /* ST_BOTH, or ST_REF for ref-only arguments */
} st_row;

/* For base cases: slot k holds the n inputs v[0..n-1] / is an output of
 * n entries. */
void st_in(st_case *c, int k, size_t n, const double *v);
void st_out(st_case *c, int k, size_t n);

/* A row: ROW(function, expected status, edits...) runs in every wing the
 * function has; REF_ROW for arguments only ref has (NULL mpfr_t scalars,
 * precisions, exponents beyond binary64).  A row expecting FR_OK (an
 * extreme valid input) checks the status only: its outputs are written. */
#define ROW(fn_, expect_, ...) \
    {.fn = &(fn_), .expect = (expect_), .wings = ST_BOTH, .e = {__VA_ARGS__}}
#define REF_ROW(fn_, expect_, ...) \
    {.fn = &(fn_), .expect = (expect_), .wings = ST_REF, .e = {__VA_ARGS__}}

/* Run one row (a Check loop test calls it for row i; failures name it). */
void st_run_row(const st_row *row, size_t i);

/* An adapter records that it found an output written. */
void st_failf(st_case *c, const char *fmt, ...);

/* For bound adapters whose outputs are two scalars (rel, abs): sentinels,
 * both NULL when the function's output slot k is NULL; st_pair_done
 * records a failure if either was written, and returns st. */
typedef struct { double v[2]; int null; } st_pair;
void st_pair_init(st_pair *p, const st_fast *f, int k);
double *st_pair_at(st_pair *p, int which);
int st_pair_done(st_case *c, const st_pair *p, int st);

/* For ref adapters: the single mpfr_t of slot k (NULL if the slot is). */
mpfr_ptr st_one(st_ref *r, int k);

/* Bit-for-bit snapshots (for the adapters' own outputs, e.g. traces). */
typedef struct {
    unsigned char *p;
    size_t len, cap;
} st_bytes;
void st_bytes_raw(st_bytes *b, const void *p, size_t n);
void st_bytes_mpfr(st_bytes *b, mpfr_srcptr x);
void st_bytes_mpfrs(st_bytes *b, mpfr_t *const x, size_t n);
int st_bytes_eq(const st_bytes *a, const st_bytes *b);
void st_bytes_free(st_bytes *b);

#endif
