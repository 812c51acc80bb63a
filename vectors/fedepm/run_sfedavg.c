/* run_sfedavg.c -- vector function sfedavg: checkpoints of SFedAvg, 002 Algorithm 3
 * (the shared schema: runs.c). */
#include "runs.h"

VRUN_WRAPPERS(fr_sfedavg_run, ff_sfedavg_run)
const vfunc vfunc_sfedavg = {VRUN_FIELDS("sfedavg", "002 Algorithm 3 (SFedAvg), eq. (34)-(35), (37)-(39); docs/FEDEPM.md")};
