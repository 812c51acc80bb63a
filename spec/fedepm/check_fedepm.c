/* SPDX-License-Identifier: Apache-2.0 */
/* check_fedepm.c -- fr_fedepm_check: the arguments of FedEPM (002
 * Algorithm 2): the family's fields and lambda, eta > 0 of (8). */
#include "fedspec/fedepm.h"

int fr_fedepm_check(const fr_logreg *P, const fr_fedepm_params *prm)
{
    if (prm == NULL)
        return FR_ENULL;
    const double *pos[] = {&prm->lambda, &prm->eta};
    return fr_fedepm_check_fields(P, prm, pos, 2, NULL, 0);
}
