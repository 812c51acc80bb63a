/* SPDX-License-Identifier: Apache-2.0 */
/* alg_check.c -- fr_proxal_alg_check: the parameters of 004 Algorithms 1
 * and 3 (contract: fedspec/proxal.h, "Algorithms 1 and 3").  Every check
 * is made and the first failing class (fedref_common.h order) returned. */
#include <math.h>
#include "fedspec/proxal.h"

static int rank(int st)
{
    switch (st) {
    case FR_OK: return 9;
    case FR_ENULL: return 0;
    case FR_ESIZE: return 1;
    case FR_ENONFINITE: return 3;
    case FR_EDOM: return 4;
    default: return 5;
    }
}
static void keep_first(int *st, int s)
{
    if (rank(s) < rank(*st))
        *st = s;
}

int fr_proxal_alg_check(const fr_proxal_problem *P, const fr_proxal_alg_params *prm, int alg3)
{
    if (P == NULL || prm == NULL)
        return FR_ENULL;
    int st = fr_proxal_problem_check(P);
    if (prm->w0 == NULL || (!alg3 && prm->admm.rho == NULL))
        keep_first(&st, FR_ENULL);
    if (prm->kmax == 0 || prm->kmax > FR_PROXAL_TMAX)
        keep_first(&st, FR_ESIZE);
    if (alg3) {
        if (prm->admm.newton_max == 0 || prm->admm.newton_max > FR_PROXAL_TMAX)
            keep_first(&st, FR_ESIZE);
    } else if (prm->admm.rho != NULL) {
        /* the admm fields except tau (replaced by tau_k): check with tau = 1 */
        fr_proxal_admm_params a = prm->admm;
        a.tau = 1;
        keep_first(&st, fr_proxal_admm_check(&a, P->n));
    }
    if (rank(st) <= rank(FR_ESIZE))
        return st;                      /* sizes unknown: nothing more is read */
    const size_t d = P->d, mt = fr_proxal_mtot(P);
    if (!isfinite(prm->eps1) || !isfinite(prm->eps2) || !isfinite(prm->sbar) || !isfinite(prm->beta))
        keep_first(&st, FR_ENONFINITE);
    if (prm->w0 != NULL)
        for (size_t k = 0; k < d; k++)
            if (!isfinite(prm->w0[k]))
                keep_first(&st, FR_ENONFINITE);
    if (prm->mu0 != NULL)
        for (size_t j = 0; j < mt; j++)
            if (!isfinite(prm->mu0[j]))
                keep_first(&st, FR_ENONFINITE);
    if (!(prm->eps1 > 0 && prm->eps1 < 1) || !(prm->eps2 > 0 && prm->eps2 < 1) || !(prm->sbar > 0) ||
        !(prm->beta > 0) || (prm->keep & ~(unsigned)FR_PROXAL_KEEP_W) != 0)
        keep_first(&st, FR_EDOM);
    if (P->h == FR_PROXAL_H_BOX && P->lo != NULL && P->hi != NULL && prm->w0 != NULL)
        for (size_t k = 0; k < d; k++)   /* w^0 in dom h (NaN compares false: its own class) */
            if (prm->w0[k] < P->lo[k] || prm->w0[k] > P->hi[k])
                keep_first(&st, FR_EDOM);
    if (prm->mu0 != NULL) {             /* inequality multipliers >= 0 (-0 is 0) */
        size_t j = 0;
        for (size_t i = 0; i <= P->n; i++)
            for (size_t r = 0, mi = fr_proxal_mi(P, i); r < mi; r++, j++)
                if (!fr_proxal_row_eq(P, i, r) && prm->mu0[j] < 0)
                    keep_first(&st, FR_EDOM);
    }
    return st;
}
