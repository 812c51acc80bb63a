/* SPDX-License-Identifier: Apache-2.0 */
/* flags_acct.c -- the case flags of module fedpdm's accountant and
 * whole-path sensitivity parts and their notes.  Every file's "notes" table
 * lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_fedpdm_acct[] = {
    {"acct-paper", "003 Sec. V's setting: N = 100, K = 5, T = 300, delta = 1e-5, s = 1, sigma of (5) at eps in {0.1, 1, 7, 10}"},
    {"acct-subsampled", "K < N: the RDP of K-of-N client subsampling (Wang, Balle & Kasiviswanathan 2019, Thm 9) is used where smaller"},
    {"acct-no-subsampling", "K = N (or every round before `first`): the per-round RDP is alpha mu exactly"},
    {"acct-eps-zero", "the mechanism is already (0, delta)-DP: eps = +0 exactly"},
    {"acct-per-round", "the sensitivity and noise change from round to round (rdp_rounds)"},
    {"thm3-undef", "L = 1/2: 4L - 2 = 0, B3, B8, theta1, theta2 and C0 undefined (NaN)"},
    {"thm3-fails", "a condition of Lemma 2 / Theorem 3 fails (some failure bit set)"},
    {"path-x0", "whole-path sensitivity, inner start x_0^t (reading B of E-003-S1): the bound is the sup over participation patterns"},
    {"path-xi", "whole-path sensitivity, inner start x_i^t (reading A of E-003-S1)"},
    {NULL, NULL}};
