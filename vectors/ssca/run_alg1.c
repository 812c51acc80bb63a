/* SPDX-License-Identifier: Apache-2.0 */
/* run_alg1.c -- vector function ssca_alg1: checkpoints of 000 Algorithm 1 (sample-based mini-batch SSCA on (32))
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_ALG1)
const vfunc vfunc_ssca_alg1 = {VSSCA_FIELDS("ssca_alg1", "000 Algorithm 1 on (32), (9)-(10), (35)-(39); docs/SSCA.md section 10"), .data = &vssca_data_samples};
