/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgd_f.c -- vector function ssca_sgd_f: checkpoints of 000 Sec. VI's feature-based SGD
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_SGD_F)
const vfunc vfunc_ssca_sgd_f = {VSSCA_FIELDS("ssca_sgd_f", "000 Sec. VI feature-based SGD; docs/SSCA.md section 10"), .data = &vssca_data_features};
