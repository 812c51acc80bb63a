/* SPDX-License-Identifier: Apache-2.0 */
/* run_alg4.c -- vector function ssca_alg4: checkpoints of 000 Algorithm 4 (feature-based mini-batch SSCA on (40), M = 1)
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

static const char *const changelog[] = {
    "2026-12-02: msgs counts the reals of the messages of (40), whose f_{a,0} is 0: the aggregator sends d0 + 1, client i sends d_i, the peers H B; no other value changed",
    NULL};

VSSCA_WRAPPERS(FR_SSCA_ALG4)
const vfunc vfunc_ssca_alg4 = {VSSCA_FIELDS("ssca_alg4", "000 Algorithm 4 on (40), (26)-(27), Lemma 1; docs/SSCA.md section 10"), .data = &vssca_data_features,
                               .changelog = changelog};
