/* SPDX-License-Identifier: Apache-2.0 */
/* run_sfedprox.c -- vector function sfedprox: checkpoints of SFedProx, 002 Algorithm 3 with Algorithm 4
 * (the shared schema: runs.c). */
#include "runs.h"

const vrun_algo vrun_algo_sfedprox = {"sfedprox", fr_sfedprox_run, ff_sfedprox_run};
VRUN_WRAPPERS(vrun_algo_sfedprox)
const vfunc vfunc_sfedprox = {VRUN_FIELDS("sfedprox", "002 Algorithm 3 (SFedProx), eq. (36)-(39), Algorithm 4; docs/FEDEPM.md")};
