/* SPDX-License-Identifier: Apache-2.0 */
/* run_algo.c -- the classification and names of the algorithms of a run
 * (fedspec/ssca.h, enum fr_ssca_algo; docs/SSCA.md 10). */
#include "fedspec/ssca.h"

int fr_ssca_algo_feature(int algo)
{
    return algo == FR_SSCA_ALG3 || algo == FR_SSCA_ALG4 || algo == FR_SSCA_SGD_F
        || algo == FR_SSCA_SGDM_F;
}

int fr_ssca_algo_constrained(int algo)
{
    return algo == FR_SSCA_ALG2 || algo == FR_SSCA_ALG4;
}

int fr_ssca_algo_baseline(int algo)
{
    return algo >= FR_SSCA_SGD_S && algo <= FR_SSCA_SGDM_F;
}

const char *fr_ssca_algo_name(int algo)
{
    static const char *const names[] = {NULL, "alg1", "alg2", "alg3", "alg4",
                                        "sgd_s", "sgdm_s", "sgd_f", "sgdm_f"};
    return algo >= FR_SSCA_ALG1 && algo <= FR_SSCA_SGDM_F ? names[algo] : NULL;
}
