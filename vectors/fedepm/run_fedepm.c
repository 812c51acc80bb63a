/* SPDX-License-Identifier: Apache-2.0 */
/* run_fedepm.c -- vector function fedepm: checkpoints of FedEPM, 002 Algorithm 2
 * (the shared schema: runs.c). */
#include "runs.h"

const vrun_algo vrun_algo_fedepm = {"fedepm", fr_fedepm_run, ff_fedepm_run};
VRUN_WRAPPERS(vrun_algo_fedepm)
const vfunc vfunc_fedepm = {VRUN_FIELDS("fedepm", "002 Algorithm 2, eq. (18)-(22); docs/FEDEPM.md")};
