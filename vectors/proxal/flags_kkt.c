/* SPDX-License-Identifier: Apache-2.0 */
/* flags_kkt.c -- the case flags of module proxal's KKT residuals (004
 * Definition 1).  Every file's "notes" table lists the flags of all
 * modules. */
#include "../vectors.h"

const vflag vflags_proxal_kkt[] = {
    {"kkt-l1-zero-in", "h = gamma||.||_1, w_k = 0 and |r_k| <= gamma: 0 is in r_k + [-gamma, gamma], the coordinate's residual is 0"},
    {"kkt-l1-zero-out", "h = gamma||.||_1, w_k = 0 and |r_k| > gamma: the residual is |r_k| - gamma"},
    {"kkt-l1-signed", "h = gamma||.||_1, w_k != 0: dh_k = {gamma sgn w_k}, the residual is |r_k + gamma sgn w_k|"},
    {"kkt-box-face", "h = the box indicator, w_k on a face: dh_k is a half-line ((-inf, 0] at lo, [0, inf) at hi)"},
    {"kkt-box-interior", "h = the box indicator, lo_k < w_k < hi_k: dh_k = {0}, the residual is |r_k|"},
    {"kkt-box-point", "h = the box indicator, lo_k = w_k = hi_k: dh_k = R, the coordinate's residual is 0"},
    {"kkt-mu-zero", "a multiplier mu_j = 0: N(mu_j) = (-inf, 0], the residual is max(c_j, 0)"},
    {"kkt-mu-positive", "a multiplier mu_j > 0: N(mu_j) = {0}, the residual is |c_j|"},
    {"kkt-no-constraint", "m = 0: no constraint (jac_c has d empty rows, c and mu are empty), eps2 = 0"},
    {"kkt-exact-pair", "an exact KKT pair, (5): grad_f = -J mu - z with z in dh(w), complementarity; both residuals 0"},
    {NULL, NULL}};
