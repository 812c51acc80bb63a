/* SPDX-License-Identifier: Apache-2.0 */
/* seal.h -- the seal hash of fr_proxal_problem (fedref_common.h rule 6;
 * contract: fedspec/proxal.h, fr_proxal_problem_seal), not installed.
 * static inline, so it leaves no symbol: spec/proxal/problem.c seals with
 * it, and the runs of both wings (ref/proxal/alg.c, fast/proxal/alg.c)
 * seal their local copy of a problem they have just checked in full (P
 * with h = 0 for the smooth parts P_{i,k}: valid whenever P is), so that
 * the problem is checked once per run, not once per sub-call. */
#ifndef FEDREF_SPEC_PROXAL_SEAL_H
#define FEDREF_SPEC_PROXAL_SEAL_H
#include "fedspec/proxal.h"
#include "../internal.h"

/* The key of the seal of fr_proxal_problem ("proxalP1"). */
#define SPEC_PROXAL_SEAL_KEY 0x70726f78616c5031ull

/* The hash of P's fields (P non-NULL): every scalar, every pointer, then
 * the total extent sum cnt of X, y, grp (NP, FAIR, when cnt is non-NULL
 * and n within the limit: else nothing is read).  Two cnt arrays of the
 * same sum give the same hash; the entries are checked on every call. */
static inline uint64_t spec_proxal_seal_hash(const fr_proxal_problem *P)
{
    uint64_t h = spec_seal_start(SPEC_PROXAL_SEAL_KEY);
    h = spec_seal_u64(h, (uint64_t)(int64_t)P->kind);
    h = spec_seal_u64(h, P->n);
    h = spec_seal_u64(h, P->d);
    h = spec_seal_u64(h, P->mt);
    h = spec_seal_ptr(h, P->A);
    h = spec_seal_ptr(h, P->b);
    h = spec_seal_ptr(h, P->C);
    h = spec_seal_ptr(h, P->e);
    h = spec_seal_ptr(h, P->cnt);
    h = spec_seal_ptr(h, P->X);
    h = spec_seal_ptr(h, P->y);
    h = spec_seal_ptr(h, P->grp);
    h = spec_seal_ptr(h, P->r);
    h = spec_seal_u64(h, (uint64_t)(int64_t)P->h);
    h = spec_seal_dbl(h, P->gamma);
    h = spec_seal_ptr(h, P->lo);
    h = spec_seal_ptr(h, P->hi);
    uint64_t S = 0;
    if ((P->kind == FR_PROXAL_NP || P->kind == FR_PROXAL_FAIR) && P->cnt != NULL && P->n <= FR_PROXAL_N_MAX)
        for (size_t i = 0; i <= P->n; i++)
            S += (uint64_t)P->cnt[i];          /* wraps: a hash input, not a size */
    h = spec_seal_u64(h, S);
    return spec_seal_end(h);
}

#endif
