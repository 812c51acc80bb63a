/* SPDX-License-Identifier: Apache-2.0 */
/* admm_check.c -- fr_proxal_admm_check, fr_proxal_hreg_check: the
 * parameters of 004 Algorithm 2 and its regulariser h (contract:
 * fedspec/proxal.h, "Algorithm 2"). */
#include <math.h>
#include "fedspec/proxal.h"

int fr_proxal_admm_check(const fr_proxal_admm_params *prm, size_t n)
{
    if (prm == NULL || prm->rho == NULL)
        return FR_ENULL;
    if (n == 0 || n > FR_PROXAL_N_MAX || prm->tmax == 0 || prm->tmax > FR_PROXAL_TMAX ||
        prm->newton_max == 0 || prm->newton_max > FR_PROXAL_TMAX)
        return FR_ESIZE;
    if (!isfinite(prm->tau) || !isfinite(prm->q))
        return FR_ENONFINITE;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(prm->rho[i]))
            return FR_ENONFINITE;
    if (!(prm->tau > 0 && prm->tau <= 1) || !(prm->q > 0 && prm->q < 1))
        return FR_EDOM;
    for (size_t i = 0; i < n; i++)
        if (!(prm->rho[i] > 0))
            return FR_EDOM;
    if (prm->eps18 != FR_PROXAL_EPS18_PRINTED && prm->eps18 != FR_PROXAL_EPS18_CODE)
        return FR_EDOM;
    return FR_OK;
}

int fr_proxal_hreg_check(const fr_proxal_hreg *H, size_t d)
{
    if (H == NULL || (H->kind == FR_PROXAL_H_BOX && (H->lo == NULL || H->hi == NULL)))
        return FR_ENULL;
    if (d == 0 || d > FR_PROXAL_D_MAX)
        return FR_ESIZE;
    if (H->kind == FR_PROXAL_H_L1 && !isfinite(H->gamma))
        return FR_ENONFINITE;
    if (H->kind == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < d; k++)
            if (!isfinite(H->lo[k]) || !isfinite(H->hi[k]))
                return FR_ENONFINITE;
    if (H->kind != FR_PROXAL_H_ZERO && H->kind != FR_PROXAL_H_L1 && H->kind != FR_PROXAL_H_BOX)
        return FR_EDOM;
    if (H->kind == FR_PROXAL_H_L1 && H->gamma < 0)
        return FR_EDOM;
    if (H->kind == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < d; k++)
            if (H->lo[k] > H->hi[k])
                return FR_EDOM;
    return FR_OK;
}
