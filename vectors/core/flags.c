/* SPDX-License-Identifier: Apache-2.0 */
/* flags.c -- the case flags of module core and their notes (the general vocabulary:
 * edges, special values, invalid inputs; and the closed forms' own).
 * Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_core[] = {
    {"kink", "an input at or next to a point where the function is not differentiable"},
    {"boundary", "a parameter or size at the edge of the domain (a = 0, m = 1, ...)"},
    {"tie", "equal values among the inputs"},
    {"overflow", "a naive binary64 evaluation overflows or is near the largest finite value"},
    {"underflow", "subnormal inputs or results"},
    {"cancellation", "the result is much smaller than the inputs it is computed from"},
    {"identity", "parameters under which the function is the identity"},
    {"random", "seeded random dyadic inputs (frng seed 2024, stream 0)"},
    {"even-m", "an even number of clients (the median is an interval)"},
    {"data-point", "the minimiser is one of the data values"},
    {"mean-limit", "lambda/eta tiny: the minimiser approaches the mean"},
    {"median-limit", "lambda/eta huge: the minimiser approaches the median"},
    {"printed-formula-fails", "the formula as printed in the paper gives a wrong value (docs/ERRATA.md)"},
    {"domain", "a parameter outside the paper's assumptions: a domain error is expected"},
    {"nan", "a NaN parameter or input: a domain error is expected"},
    {"inf", "an infinite parameter or input: a domain error is expected"},
    {"size", "an empty or inconsistent dimension: a domain error is expected"},
    {"even-m-clamp", "even m, lambda/eta large: the ENS minimiser is the mean clamped to the middle interval [v_(m/2), v_(m/2+1)], here an end of it, not the midpoint median"},
    {NULL, NULL}};
