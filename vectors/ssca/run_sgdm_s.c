/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgdm_s.c -- vector function ssca_sgdm_s: checkpoints of 000 Sec. VI's sample-based SGD with momentum (000's [7], MFL)
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_SGDM_S)
const vfunc vfunc_ssca_sgdm_s = {VSSCA_FIELDS("ssca_sgdm_s", "000 Sec. VI sample-based SGD-m (000's [7]); docs/SSCA.md section 10"), .data = &vssca_data_samples};
