/* SPDX-License-Identifier: Apache-2.0 */
/* run_sfedavg.c -- vector function sfedavg: checkpoints of SFedAvg, 002 Algorithm 3
 * (the shared schema: runs.c). */
#include "runs.h"

const vrun_algo vrun_algo_sfedavg = {"sfedavg", fr_sfedavg_run, ff_sfedavg_run};
VRUN_WRAPPERS(vrun_algo_sfedavg)
const vfunc vfunc_sfedavg = {VRUN_FIELDS("sfedavg", "002 Algorithm 3 (SFedAvg), eq. (34)-(35), (37)-(39); docs/FEDEPM.md")};
