/* SPDX-License-Identifier: Apache-2.0 */
/* run_alg2.c -- vector function ssca_alg2: checkpoints of 000 Algorithm 2 (sample-based mini-batch SSCA on (40), M = 1)
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

static const char *const changelog[] = {
    "2026-12-02: msgs counts the reals of the messages of (40), whose f_{a,0} is 0: a client sends 1 + d (d + (1 + d) before); no other value changed",
    NULL};

VSSCA_WRAPPERS(FR_SSCA_ALG2)
const vfunc vfunc_ssca_alg2 = {VSSCA_FIELDS("ssca_alg2", "000 Algorithm 2 on (40), (41)-(45), Lemma 1; docs/SSCA.md section 10"), .data = &vssca_data_samples,
                               .changelog = changelog};
