/* SPDX-License-Identifier: Apache-2.0 */
/* run_check.c -- Algorithm 1 of 003: the argument check of a run and the
 * paper's stepsize schedule (fedspec/fedpdm.h, section "Algorithm 1"). */
#include <math.h>
#include "fedspec/fedpdm.h"

static int isfin(double x) { return x - x == 0; }

static int uses_G(const fr_pdm_params *prm)
{
    return prm->noise == FR_PDM_NOISE_PAPER || prm->clip;
}

int fr_pdm_run_check(const fr_pdm_problem *P, const fr_pdm_params *prm)
{
    if (P == NULL || prm == NULL)
        return FR_ENULL;
    int st = fr_pdm_problem_check(P);
    if (st == FR_ENULL)
        return st;
    if (prm->eta == NULL || (prm->noise == FR_PDM_NOISE_GIVEN && prm->sigma == NULL))
        return FR_ENULL;
    /* sizes */
    if (st == FR_ESIZE)
        return st;
    if (prm->T == 0 || prm->T > FR_PDM_T_MAX || prm->K == 0 || prm->K > P->N || prm->b == 0
        || prm->Qmax == 0 || prm->Qmax > FR_FEDPDM_Q_MAX)
        return FR_ESIZE;
    for (size_t i = 0; i < P->N; i++)
        if (prm->b > P->d[i])
            return FR_ESIZE;
    /* finiteness */
    if (st == FR_ENONFINITE)
        return st;
    size_t D = P->m * P->n;
    if (prm->x0 != NULL)
        for (size_t k = 0; k < D; k++)
            if (!isfin(prm->x0[k]))
                return FR_ENONFINITE;
    for (unsigned long t = 0; t < prm->T; t++)
        if (!isfin(prm->eta[t]))
            return FR_ENONFINITE;
    if (!isfin(prm->rho) || (prm->rule == FR_PDM_RULE_11 && !isfin(prm->nu)))
        return FR_ENONFINITE;
    if (prm->noise == FR_PDM_NOISE_PAPER && (!isfin(prm->eps) || !isfin(prm->delta)))
        return FR_ENONFINITE;
    if (uses_G(prm) && !isfin(prm->G))
        return FR_ENONFINITE;
    if (prm->noise == FR_PDM_NOISE_GIVEN)
        for (unsigned long t = 0; t < prm->T; t++)
            if (!isfin(prm->sigma[t]))
                return FR_ENONFINITE;
    /* domain */
    if (st != FR_OK)
        return st;
    if ((prm->rule != FR_PDM_RULE_11 && prm->rule != FR_PDM_RULE_FIXED)
        || (prm->start != FR_PDM_START_XI && prm->start != FR_PDM_START_X0)
        || (prm->server != FR_PDM_SERVER_ALL && prm->server != FR_PDM_SERVER_PART
            && prm->server != FR_PDM_SERVER_13_AS_PRINTED)
        || (prm->noise != FR_PDM_NOISE_NONE && prm->noise != FR_PDM_NOISE_PAPER
            && prm->noise != FR_PDM_NOISE_GIVEN)
        || (prm->keep & ~(unsigned)(FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P
                                    | FR_PDM_KEEP_F)) != 0)
        return FR_EDOM;
    if (!(prm->rho > 0))
        return FR_EDOM;
    for (unsigned long t = 0; t < prm->T; t++)
        if (!(prm->eta[t] > 0))
            return FR_EDOM;
    if (prm->rule == FR_PDM_RULE_11 && prm->nu < 0)
        return FR_EDOM;
    if (prm->noise == FR_PDM_NOISE_PAPER && (!(prm->eps > 0) || !(prm->delta > 0) || !(prm->delta < 1)))
        return FR_EDOM;
    if (uses_G(prm) && !(prm->G > 0))
        return FR_EDOM;
    if (prm->noise == FR_PDM_NOISE_GIVEN)
        for (unsigned long t = 0; t < prm->T; t++)
            if (prm->sigma[t] < 0)
                return FR_EDOM;
    return FR_OK;
}

int fr_pdm_eta_paper(double *eta, unsigned long T, double eta0)
{
    if (eta == NULL)
        return FR_ENULL;
    if (T == 0 || T > FR_PDM_T_MAX)
        return FR_ESIZE;
    if (!isfin(eta0))
        return FR_ENONFINITE;
    if (!(eta0 > 0))
        return FR_EDOM;
    for (unsigned long t = 0; t < T; t++)
        eta[t] = eta0 / sqrt((double)(t + 1));   /* t + 1 <= 1e5: exact */
    return FR_OK;
}
