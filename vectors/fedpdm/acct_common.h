/* SPDX-License-Identifier: Apache-2.0 */
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

/* The schema's bound on the work of an accountant case whose cost grows
 * with its integers: w <= vacct_work_max, w = alpha_max^2 (fedpdm_rdp: the
 * order-alpha terms of every alpha <= alpha_max), R alpha_max^2
 * (fedpdm_rdp_rounds, R the number of runs of equal consecutive (sigma_t,
 * s_t): a run is one per-round term, fedref/fedpdm.h) and T (Q + 64)
 * (fedpdm_path_sens: (19)'s Q terms and the recursion, every round), each
 * unit an operation at the checker's precision.  Beyond it a case is
 * FR_ESIZE in both wings, before the accountant runs (checked only inside
 * the function's domain, so that its own statuses are kept).
 * VACCT_WORK_MAX = 2^20 admits fedpdm_rdp's whole domain (alpha_max <=
 * 1024) and every committed case (largest: 5 x 64^2) in well under a
 * second; the fuzz target lowers vacct_work_max. */
#define VACCT_WORK_MAX (1ul << 20)
extern unsigned long vacct_work_max;

/* FR_ESIZE when the work w exceeds vacct_work_max, else FR_OK. */
static inline int acct_work(double w)
{
    return w > (double)vacct_work_max ? FR_ESIZE : FR_OK;
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
