/* SPDX-License-Identifier: Apache-2.0 */
/* check_sfedavg.c -- fr_sfedavg_check: the arguments of SFedAvg (002
 * Algorithm 3): the family's fields only; FR_NOISE_CERT is FedEPM's
 * (fedref proves no sensitivity bound for the gradient steps (35)). */
#include "fedspec/fedepm.h"

int fr_sfedavg_check(const fr_logreg *P, const fr_fedepm_params *prm)
{
    int st = fr_fedepm_check_fields(P, prm, NULL, 0, NULL, 0);
    return st == FR_OK && prm->noise == FR_NOISE_CERT ? FR_EDOM : st;
}
