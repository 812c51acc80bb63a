/* admm_check.c -- fr_proxal_admm_check: the parameters of 004 Algorithm 2
 * (contract: fedspec/proxal.h, "Algorithm 2"). */
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
