/* SPDX-License-Identifier: Apache-2.0 */
/* run_alg3.c -- vector function ssca_alg3: checkpoints of 000 Algorithm 3 (feature-based mini-batch SSCA on (32))
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_ALG3)
const vfunc vfunc_ssca_alg3 = {VSSCA_FIELDS("ssca_alg3", "000 Algorithm 3 on (32), (19)-(24); docs/SSCA.md section 10"), .data = &vssca_data_features};
