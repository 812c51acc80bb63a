/* SPDX-License-Identifier: Apache-2.0 */
/* run_sgd_s.c -- vector function ssca_sgd_s: checkpoints of 000 Sec. VI's sample-based SGD (FedSGD, PR-SGD, FedAvg)
 * (the shared schema: runs.c; docs/SSCA.md section 10). */
#include "runs.h"

VSSCA_WRAPPERS(FR_SSCA_SGD_S)
const vfunc vfunc_ssca_sgd_s = {VSSCA_FIELDS("ssca_sgd_s", "000 Sec. VI sample-based SGD (FedSGD E = 1, PR-SGD, FedAvg E B = N_i); docs/SSCA.md section 10"), .data = &vssca_data_samples};
