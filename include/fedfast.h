/* SPDX-License-Identifier: Apache-2.0 */
/* fedfast.h -- libfedfast, the binary64 implementation (BLAS/LAPACK where
 * they fit).  Same mathematics and same argument checks as fedref.h; see
 * there for the definitions.  The two libraries share no numerical code.
 *
 * Conventions:
 *  - Built with -ffp-contract=off: no silent a*b+c fusion; an fma() written
 *    in the source is deliberate.
 *  - Vectors are double arrays of length n; W is row-major m x n
 *    (W[i*n + j] = entry j of client i).
 *  - Errors: the one rule of fedref_common.h ("Error semantics"), the
 *    same as libfedref's: same status for the same bad input, outputs
 *    untouched, the same aliasing allowed; each function lists the
 *    statuses it can return.  No function aborts or prints.
 *  - Accuracy is stated against the exact result of the binary64 inputs;
 *    tests/ and `make run` measure it against libfedref.
 *  - Each accuracy statement is one function, ff_<name>_bound, declared next
 *    to the function it bounds: it takes the same inputs, checks them the
 *    same way (same status codes, outputs unchanged on error) and writes
 *    (rel, abs) with |computed - exact| <= rel |exact| + abs per component,
 *    or per-component absolute upper bounds (for the stopping rule, the
 *    margin beyond which its decision is exact).  Its value is an upper bound
 *    despite its own rounding; the error analysis in fast/<module>/<file>.c
 *    derives exactly what it computes.  The golden vectors' tol and the
 *    unit tests call it; nobody re-types the formula.  A bound says nothing
 *    when the function returns a non-finite value (overflow); where a proof
 *    needs more (a size or range limit) the bound function returns FR_ESIZE
 *    or FR_EDOM outside it.
 */
#ifndef FEDFAST_H
#define FEDFAST_H

/* Every module header include/fedfast/<module>.h, in module order; the list
 * is generated from that folder at build time (GNUmakefile). */
#include "fedref_common.h"
#include "fedfast_modules.h"

#endif /* FEDFAST_H */
