/* SPDX-License-Identifier: Apache-2.0 */
/* pc.h -- the interface of a proof check (proofs_checks/).
 *
 * A proof check is a function `int pc_NAME(pc_ctx *ctx)` in a file
 * proofs_checks/<module>/check_*.c (the build finds it by that exact signature, on a
 * line of its own).  It checks one lemma, theorem, or closed form of a
 * paper numerically at high precision with libfedref, on seeded random and
 * adversarial cases, and returns 0 when the property holds on every case
 * (or, for an erratum check, when the printed form is shown wrong and the
 * corrected form right), non-zero otherwise.  It never prints: it fills ctx.
 */
#ifndef FEDREF_PC_H
#define FEDREF_PC_H

#include <stdint.h>
#include <mpfr.h>
#include "fedref.h"

typedef struct {
    /* inputs */
    unsigned long cases;  /* random cases to run, >= 10000 in make check */
    mpfr_prec_t prec;     /* working precision in bits, >= 200 */
    uint64_t seed;        /* seed of the frng streams the check uses */
    /* outputs */
    const char *function; /* the fedref function checked ("soft", "ens", ...) */
    const char *vector;   /* the vector function it supports (vectors/<vector>.json,
                             its row of `fedref audit`), or NULL if none */
    const char *claim;    /* one line: paper, equation, what is checked */
    const char *erratum;  /* id in docs/ERRATA.md this check proves, or NULL */
    unsigned long ran;    /* cases run (random + adversarial) */
    unsigned long failed; /* cases where the property did not hold */
    char detail[512];     /* the first failure (or the erratum witness) */
} pc_ctx;

#endif
