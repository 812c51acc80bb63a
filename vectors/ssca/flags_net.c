/* SPDX-License-Identifier: Apache-2.0 */
/* flags_net.c -- the case flags of the two-layer network of 000 Sec. V
 * (ssca_net, ssca_net_partial, ssca_net_top, ssca_net_bottom) and their
 * notes.  Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_ssca_net[] = {
    {"net-swish-zero", "a hidden pre-activation u is exactly 0: S(u) = 0 and S'(u) = 1/2 (omega_1 = 0, zero features, or h_i that cancel)"},
    {"net-large-u", "|u| ~ 1e4: a naive e^-u overflows binary64 and a naive S'(u) is 0 * inf"},
    {"net-large-o", "|o| ~ 1e4: a naive softmax overflows; the loss is ~1e4 or ~e^-1e4"},
    {"net-zero-w0", "omega_0 = 0: the softmax is exactly uniform and the omega_1 block of the gradient is exactly 0"},
    {"net-zero-feature", "a feature column is 0: its column of the omega_1 block of the gradient is exactly 0"},
    {"net-same-label", "every sample of the batch has the same label"},
    {"net-label-cancel", "equal samples with labels split evenly under an exactly uniform softmax: the omega_0 block cancels to exactly 0"},
    {"net-clients", "the feature-based messages of I clients with unequal feature blocks P_i (000 Sec. V, Algorithms 3-4)"},
    {NULL, NULL}};
