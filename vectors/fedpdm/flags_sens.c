/* SPDX-License-Identifier: Apache-2.0 */
/* flags_sens.c -- the case flags of module fedpdm's sensitivity part and
 * their notes.  Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_fedpdm_sens[] = {
    {"branch-point", "eta rho at or near 2 or 0, where |1 - eta rho| = 1 and (19) switches branch (or tends to its limit 4 eta Q G)"},
    {"expansive", "eta rho > 2: |1 - eta rho| > 1, the local recursion expands and (19) grows geometrically in Q"},
    {NULL, NULL}};
