/* run_fedepm.c -- vector function fedepm: checkpoints of FedEPM, 002 Algorithm 2
 * (the shared schema: runs.c). */
#include "runs.h"

VRUN_WRAPPERS(fr_fedepm_run, ff_fedepm_run)
const vfunc vfunc_fedepm = {VRUN_FIELDS("fedepm", "002 Algorithm 2, eq. (18)-(22); docs/FEDEPM.md")};
