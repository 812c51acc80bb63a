/* SPDX-License-Identifier: Apache-2.0 */
/* flags.c -- the case flags of module fedepm and their notes (runs, noise
 * rules, participation, the logistic model).
 * Every file's "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_fedepm[] = {
    {"trajectory", "checkpoints of an iterative algorithm: every round's record, the final iterates and the random draws they used"},
    {"partial", "partial participation: |S| < m clients selected per round"},
    {"full", "full participation: |S| = m"},
    {"noise-eq39", "Laplace noise with the experiments' scale 2||g_i||_1 / (eps mu_{i,k+1}), 002 (39)"},
    {"noise-eq27", "Laplace noise with the scale Delta_i / (eps mu_{i,k+1}) of 002 (27), Delta_i given"},
    {"stopping", "the stopping rule of 002 Sec. VII-B ends the run before the last round"},
    {"unequal-sizes", "clients hold different numbers of samples d_i"},
    {"large-margin", "|<x, w>| large: a naive ln(1 + e^u) or sigma(u) overflows or loses all digits"},
    {"exact", "the exact result is a short dyadic number"},
    {"zero-scale", "a Laplace scale of 0 (no noise, or (39) with g_i = 0): the point mass at 0, no word of the noise stream consumed"},
    {"snr-special", "the SNR is not finite: +Inf (every qualifying upload noiseless) or NaN (no client uploaded after k = 0)"},
    {"never-selected", "a client is in no selection S^r of the run: it keeps w_i^0 = 0 and z_i^0"},
    {"mirrored", "data with mirrored clients (docs/FEDEPM.md section 6): each sample twice, with labels b and 1 - b, so grad f_i(0) = 0 exactly"},
    {"both-rules", "both stopping tests hold at the stopping round: stop = 1, the gradient test is decided first"},
    {NULL, NULL}};
