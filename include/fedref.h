/* SPDX-License-Identifier: Apache-2.0 */
/* fedref.h -- libfedref, the reference implementation in GNU MPFR.
 *
 * Conventions (docs/ACCURACY.md defines the words used below):
 *  - Outputs are initialised mpfr_t variables; the precision of each output
 *    is the target precision (MPFR's convention).  "Correctly rounded" means
 *    rounded to nearest-even at that precision from the exact real result.
 *  - Vectors are arrays `mpfr_t *` of length n; a set of m client vectors
 *    W is row-major: W[i*n + j] is entry j of client i's vector w_i.
 *  - Errors: the one rule of fedref_common.h ("Error semantics": class
 *    order, outputs untouched on error, the trace's reset state, aliasing);
 *    each function below lists the statuses it can return.  No function
 *    aborts or prints.
 */
#ifndef FEDREF_H
#define FEDREF_H

/* Every module header include/fedref/<module>.h, in module order; the list
 * is generated from that folder at build time (GNUmakefile). */
#include "fedref_common.h"
#include "fedref_modules.h"

#endif /* FEDREF_H */
