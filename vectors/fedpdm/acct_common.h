/* acct_common.h -- shared by the fedpdm accountant vector schemas: an
 * integer parameter (T, K, N, alpha_max, Q, first, start) read from its
 * binary64 field, the same way in ref and fast. */
#ifndef FEDREF_VECTORS_ACCT_COMMON_H
#define FEDREF_VECTORS_ACCT_COMMON_H
#include <math.h>
#include "../vectors.h"

/* *q = x when x is an integer in [0, big]; a non-integer or negative x gives
 * *q = bad (the caller's value that the functions reject: 0, or a too-large
 * one), x > big gives big + 1; FR_ENONFINITE for NaN or an infinity. */
static inline int acct_int(double x, unsigned long big, unsigned long bad, unsigned long *q)
{
    if (!isfinite(x)) return FR_ENONFINITE;
    if (x < 0 || x != floor(x)) *q = bad;
    else if (x > (double)big) *q = big + 1;
    else *q = (unsigned long)x;
    return FR_OK;
}

/* ref's parameter k as a binary64 (exact: the schema's params are binary64) */
static inline double acct_d(const rtensor *par, int k)
{
    return mpfr_get_d(par[k].v[0], MPFR_RNDN);
}

static inline double acct_pos(frng_t *g, int emin, int span)
{
    uint64_t e;
    frng_below(g, (uint64_t)span, &e);
    return ldexp(1 + (double)frng_u53(g) * 0x1p-53, emin + (int)e);
}
#endif
