/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgdm_f.c -- vector function ssca_sgdm_f: checkpoints of 000 Sec. VI's feature-based SGD with momentum
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_SGDM_F)
const vfunc vfunc_ssca_sgdm_f = {VSSCA_FIELDS("ssca_sgdm_f", "000 Sec. VI feature-based SGD-m; docs/SSCA.md section 10"), .data = &vssca_data_features};
