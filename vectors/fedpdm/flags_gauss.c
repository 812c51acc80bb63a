/* SPDX-License-Identifier: Apache-2.0 */
/* flags_gauss.c -- the case flags of module fedpdm's Gaussian calibration
 * (003 (5)/(18), the analytic Gaussian mechanism).
 * Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_fedpdm_gauss[] = {
    {"gauss-paper", "003 Sec. V's setting delta = 1e-5 with an eps of its figures"},
    {"gauss-eps-ge-1", "eps >= 1: outside Dwork & Roth Thm 3.22, the source of 003 (5), which is proved for eps < 1 only"},
    {"gauss-tiny-delta", "delta far below 1e-5 (down to 1e-300): Phi of arguments near -37, erfc in its far tail"},
    {"gauss-large-eps", "eps near or above ln(DBL_MAX) = 709.78: e^eps overflows binary64, the term e^eps Phi(.) is formed in log space"},
    {"gauss-s0", "sensitivity s = 0: no noise is needed, sigma = 0"},
    {NULL, NULL}};
