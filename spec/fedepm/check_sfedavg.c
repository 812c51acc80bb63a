/* check_sfedavg.c -- fr_sfedavg_check: the arguments of SFedAvg (002
 * Algorithm 3): the family's fields only. */
#include "fedspec/fedepm.h"

int fr_sfedavg_check(const fr_logreg *P, const fr_fedepm_params *prm)
{
    return fr_fedepm_check_fields(P, prm, NULL, 0, NULL, 0);
}
