/* run_sfedprox.c -- vector function sfedprox: checkpoints of SFedProx, 002 Algorithm 3 with Algorithm 4
 * (the shared schema: runs.c). */
#include "runs.h"

VRUN_WRAPPERS(fr_sfedprox_run, ff_sfedprox_run)
const vfunc vfunc_sfedprox = {VRUN_FIELDS("sfedprox", "002 Algorithm 3 (SFedProx), eq. (36)-(39), Algorithm 4; docs/FEDEPM.md")};
