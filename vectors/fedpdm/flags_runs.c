/* SPDX-License-Identifier: Apache-2.0 */
/* flags_runs.c -- the case flags of Algorithm 1 of 003 (the checkpoint
 * files fedpdm_run_*).  Every file's "notes" table lists the flags of all
 * modules. */
#include "../vectors.h"

const vflag vflags_fedpdm_runs[] = {
    {"pdm-full", "K = N: every client in every round (S_0 = [N] always; rounds t >= 1 draw a K-subset of N all the same)"},
    {"pdm-partial", "K < N: rounds t >= 1 use a K-subset S_t drawn from stream (seed, 1); absent clients keep x_i, lambda_i and their last upload"},
    {"pdm-exact-server", "the server step is the argmin of (8c) in exact arithmetic (SERVER_ALL without noise, or K = N): Px0 = 0 at every state t >= 1"},
    {"pdm-server13", "server step (13) with the participants' mean (SERVER_PART: 1/|S_t| for (13)'s 1/K, which S_0 = [N] needs): the mean over S_t only; with K < N it is not the argmin of (8c) (E-003-P1), Px0 > 0"},
    {"pdm-server13-printed", "server step (13) exactly as printed (SERVER_13_AS_PRINTED: 1/K whatever |S_t|): in round 0, S_0 = [N] and x_0^1 is N/K times the mean (E-003-13)"},
    {"pdm-start-x0", "local start x^{t,0} = x_0^t (the paper leaves it open: E-003-Q0); otherwise x_i^t"},
    {"pdm-clip", "every mini-batch gradient clipped to norm G (fedref's extension: Assumption 3 by construction)"},
    {"pdm-noise-paper", "uploads perturbed by (12) with sigma^2 = (18) of the sensitivity (19) at (eta^t, rho, Q_i^t, G), rounded up"},
    {"pdm-noise-given", "uploads perturbed by (12) with given scales sigma^t (0: no draw)"},
    {"pdm-rule11", "local loop stopped by (11) (||v||^2 <= nu, Q_i^t = r + 1) or capped at Qmax (recorded in capped)"},
    {"pdm-rule11-at-nu", "nu equal to an exact ||v||^2 (client 0's first step at x = 0, where v is dyadic): (11) holds with equality, Q = 1"},
    {NULL, NULL}};
