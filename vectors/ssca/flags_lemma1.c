/* SPDX-License-Identifier: Apache-2.0 */
/* flags_lemma1.c -- the case flags of Lemma 1 (vectors/ssca/lemma1.c) and
 * Problem 5 (vectors/ssca/problem5.c) and their notes.  The general flags
 * (boundary, cancellation, overflow, underflow, random, printed-formula-
 * fails, domain, nan, inf, size) are module core's (vectors/core/flags.c),
 * "exact" is module fedepm's.  Every file's "notes" table lists the flags
 * of all modules. */
#include "../vectors.h"

const vflag vflags_ssca_lemma1[] = {
    {"lemma1-dnonpos", "Lemma 1, D = b + 4 tau (U - C) <= 0: nu = c (000 (45) second case)"},
    {"lemma1-zero", "Lemma 1, D > 0 and U >= C: the stationary point is <= 0, nu = 0 and omega = +0"},
    {"lemma1-interior", "Lemma 1, 0 < nu < c: nu = 4 (C - U) / (D + sqrt(b D)), the stationary point of the dual"},
    {"lemma1-clip", "Lemma 1, D > 0, U < C and D (1 + tau c)^2 <= b: the stationary point is >= c, nu = c"},
    {"lemma1-flat", "Lemma 1 with b = 0 and U = C: every nu in [0, c] is optimal; fedref returns c (the printed choice), omega = 0"},
    {"lemma1-edge", "Lemma 1 at a branch boundary or one binary64 step from it (D = 0, nu^ = c, U = C): exact branch decisions matter"},
    {"paper-constants", "the constants of 000 Sec. VI: c = 1e5, tau in {0.2, 0.05, 0.03, 0.1}, U = 0.13"},
    {"zero-result", "some expected values are exact zeros, written 0 (+0); the sign of a zero result is compared"},
    {"problem5-active", "Problem 5, a constraint active with a free multiplier (0 < nu_m < c, Fbar_m(omega) = 0, s_m = 0)"},
    {"problem5-saturated", "Problem 5, a multiplier at c with a positive slack s_m = Fbar_m(omega) > 0"},
    {"problem5-inactive", "Problem 5, a constraint inactive at the solution (nu_m = 0, Fbar_m(omega) < 0)"},
    {"problem5-degenerate", "Problem 5 with duplicated or dependent constraints (or M > d): the multipliers are not unique, omega and s are"},
    {"problem5-lemma1", "Problem 5 with M = 1, t0 = 1, g0 = 0, kappa = C - U: the problem (41) of Lemma 1"},
    {NULL, NULL}};
