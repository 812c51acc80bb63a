/* SPDX-License-Identifier: Apache-2.0 */
/* flags_surrogate.c -- the case flags of the surrogate recursions of
 * module ssca (000 (3), (5), (9)-(12), (14), (35)-(39)) and their notes.
 * Every file's "notes" table lists the flags of all modules; the general
 * ones (exact, cancellation, domain, ...) are core's and fedepm's. */
#include "../vectors.h"

const vflag vflags_ssca_surrogate[] = {
    {"rho-equals-one", "rho^(t) = 1: the recursion keeps only the newest term (000 (3), (9), (35)), and P = 0 from then on"},
    {"tiny-rho", "rho^(t) far below 1 (2^-60 or less): the old value dominates and 1 - rho is not a binary64"},
    {"mass-zero", "P = 0 (some rho^(s) = 1, s <= t): the surrogate's quadratic weight is tau, and the printed closed forms (10), (24), (38)-(39) hold"},
    {"mass-positive", "P > 0 (every rho^(s) < 1, as in 000's experiments): the surrogate's quadratic weight is tau (1 - P); the printed (10), (24), (38)-(39), which take 1 - P = 1, are wrong (docs/ERRATA.md E-000-8)"},
    {"no-regulariser", "lambda = 0 or beta absent: (10) / (24) without the 2 lambda beta term of (33)"},
    {"plus-zero-result", "an exact zero result: the contract returns +0, also where IEEE 754 evaluation of the printed expression gives -0"},
    {"full-batch", "B = N_i: the client's mini-batch is all its samples (000 Sec. VI: B = 6000 = N_i)"},
    {"large-count", "B N above 2^53: the weights N_i/(B N) are not quotients of binary64 integers"},
    {"momentum-start", "the first round of (11)-(12): gamma^(0) = 0 and v^(0) = w^(1), the start that reproduces (5), (9), (10) for every rho^(1) (the printed v^(0) = 0 needs rho^(1) = 1 or w^(1) = 0, docs/ERRATA.md E-000-12)"},
    {NULL, NULL}};
