/* SPDX-License-Identifier: Apache-2.0 */
/* flags_model.c -- the case flags of the model of 003 Sec. V-A (loss (25),
 * test rule (26)).  Every file's "notes" table lists the flags of all
 * modules. */
#include "../vectors.h"

const vflag vflags_fedpdm_model[] = {
    {"pdm-zero-model", "X = 0: every score x_k^T a is 0, the loss part is ln 2 and every prediction a tie (class 0)"},
    {"pdm-label-edge", "labels only 0 and m - 1: the first and the last row of X"},
    {"pdm-absent-class", "a class with no sample in the batch: its gradient row is the beta term alone"},
    {"pdm-margin", "|x_k^T a| ~ 1e4: e^-u underflows binary64, ln(1 + e^-u) = -u + ln(1 + e^u) for u < 0"},
    {NULL, NULL}};
