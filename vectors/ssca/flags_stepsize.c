/* SPDX-License-Identifier: Apache-2.0 */
/* flags_stepsize.c -- the case flags of the ssca stepsize validator
 * (vectors/ssca/stepsize.c) and their notes.  The general flags (boundary,
 * nan, inf, underflow, overflow) are module core's (vectors/core/flags.c).
 * Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_ssca_stepsize[] = {
    {"paper-schedule", "a stepsize schedule of a paper's experiments (000 Sec. VI, 001 Sec. VI), judged against the conditions its theorems assume"},
    {"conditions-hold", "a stepsize schedule satisfying every condition of 000 (4) on rho and (6) on gamma"},
    {"condition-edge", "a stepsize parameter at, or one binary64 step from, a value where a condition of 000 (4)/(6) changes (alpha = 1, alpha2 = 1/2, alpha2 = alpha1, a = 1)"},
    {"signed-zero", "a parameter is -0, which every condition treats as 0"},
    {"negative-schedule", "a negative coefficient or exponent: outside the papers' schedules, still a verdict (not a domain error)"},
    {NULL, NULL}};
