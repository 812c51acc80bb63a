/* SPDX-License-Identifier: Apache-2.0 */
/* check_sfedprox.c -- fr_sfedprox_check: the arguments of SFedProx (002
 * Algorithm 3 with Algorithm 4): the family's fields, mu > 0 of (36) and
 * ell >= 1 inner steps; FR_NOISE_CERT is FedEPM's (fedref proves no
 * sensitivity bound for Algorithm 4's gradient steps). */
#include "fedspec/fedepm.h"

int fr_sfedprox_check(const fr_logreg *P, const fr_fedepm_params *prm)
{
    if (prm == NULL)
        return FR_ENULL;
    const double *pos[] = {&prm->mu_prox};
    const unsigned long *count[] = {&prm->ell};
    int st = fr_fedepm_check_fields(P, prm, pos, 1, count, 1);
    return st == FR_OK && prm->noise == FR_NOISE_CERT ? FR_EDOM : st;
}
