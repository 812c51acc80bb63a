/* SPDX-License-Identifier: Apache-2.0 */
/* flags_runs.c -- the case flags of the runs of Algorithms 1-4 and the
 * baselines of 000 (vectors/ssca/run_*.c) and their notes.  Every file's
 * "notes" table lists the flags of all modules. */
#include "../vectors.h"

const vflag vflags_ssca_runs[] = {
    {"ssca-paper-schedule", "000 Sec. VI's schedule rho = a1 t^-alpha, gamma = a2 t^-alpha (it fails (6): gamma/rho does not tend to 0)"},
    {"ssca-stepsize-ok", "a schedule satisfying 000 (4) and (6) (rho = t^-0.6, gamma = 0.9 t^-0.9)"},
    {"ssca-rho1", "rho^(1) = 1: the first round's surrogate forgets its zero initial state"},
    {"ssca-weight-printed", "the quadratic weight tau as printed in 000 (38)-(39), (43)-(44) (W_t = 1), not the exact minimiser's tau W_t"},
    {"ssca-u-inactive", "(40)'s bound U far above the cost: Lemma 1's multiplier nu = 0 every round"},
    {"ssca-u-active", "(40)'s bound U below the cost: Lemma 1 with an active constraint or positive slack (nu > 0)"},
    {"ssca-one-client", "one client holds all samples: the batches equal the feature-based draws of the same run seed"},
    {"ssca-fedsgd", "sample-based SGD with E = 1 local step (FedSGD)"},
    {"ssca-prsgd", "sample-based SGD with E > 1 local steps on disjoint batches (PR-SGD)"},
    {"ssca-fedavg", "sample-based SGD with E B = N_i: each round one pass over every client's data (FedAvg)"},
    {NULL, NULL}};
