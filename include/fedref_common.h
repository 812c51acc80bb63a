/* SPDX-License-Identifier: Apache-2.0 */
/* fedref_common.h -- the specification layer shared by ref (libfedref) and
 * fast (libfedfast): status codes and the deterministic random generator.
 *
 * Nothing numerical lives here: the integer stream of the generator is
 * shared (docs/RNG.md), the real-valued transforms (uniform -> Laplace,
 * Gaussian) are implemented twice, once in MPFR (fedref.h) and once in
 * binary64 (fedfast.h). */
#ifndef FEDREF_COMMON_H
#define FEDREF_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FEDREF_VERSION "0.1.0"

/* Status codes.  0 is success; every error is negative.  Library functions
 * never abort and never print: they return one of these. */
enum fr_status {
    FR_OK = 0,
    FR_EDOM = -1,       /* a parameter is outside the paper's domain (a < 0, lambda <= 0, ...),
                           or two outputs that must be distinct overlap */
    FR_ENONFINITE = -2, /* NaN or an infinity in a parameter or an input */
    FR_ESIZE = -3,      /* a dimension is zero, too large, or inconsistent */
    FR_ENOMEM = -4,     /* memory allocation failed */
    FR_EPREC = -5,      /* a precision outside [MPFR_PREC_MIN, FR_PREC_MAX] (libfedref) */
    FR_ENULL = -6,      /* a required pointer is NULL */
    FR_EINTERNAL = -7   /* an internal consistency check failed (a bug: please report) */
};

/* Largest number of entries of an array argument, and of a product of
 * sizes m n (room for as many mpfr_t): beyond it, FR_ESIZE in every wing. */
#define FR_COUNT_MAX (SIZE_MAX / 64)

/* ------------------------------------------------------------------------
 * Error semantics: one rule for every public function of libfedref
 * (fedref.h), libfedfast (fedfast.h) and the specification layer
 * (this file, fedspec/<module>.h).  The same bad input gives the same
 * status in ref and in fast, with the outputs untouched.
 *
 *  1. Class order.  Arguments are checked before anything is computed.
 *     When several are bad, the status is the first class that fails, in
 *     this order:
 *       FR_ENULL       a required pointer is NULL, even when a size is 0
 *                      (median(out, NULL, 0, 1) is FR_ENULL); a zeroed
 *                      (never initialised) trace;
 *       FR_ESIZE       a size is 0, inconsistent (an index >= m, a trace
 *                      initialised for other sizes), or an array of that
 *                      many entries exceeds FR_COUNT_MAX;
 *       FR_EPREC       libfedref only: a precision argument, or the
 *                      precision of an output of a function whose contract
 *                      says so, outside [MPFR_PREC_MIN, FR_PREC_MAX];
 *       FR_ENONFINITE  NaN or an infinity in a parameter or an input;
 *       FR_EDOM        a parameter outside the domain, or two outputs that
 *                      must be distinct overlap (see 4).
 *     Within a class the order does not matter (the status is the same).
 *  2. Argument errors leave every output untouched: each mpfr_t keeps its
 *     value and its precision, each double and every other output its
 *     bits, a generator (frng_t) consumes no word.  Errors found after the
 *     computation started -- FR_ENOMEM; in libfedref FR_EPREC for an exact
 *     intermediate that needs more than 2^24 bits and FR_EINTERNAL; in
 *     libfedfast FR_ENONFINITE when binary64 overflows -- leave the
 *     outputs of the closed forms untouched too (they are computed into
 *     temporaries and copied out on success).
 *  3. Runs (fr_ and ff_ fedepm_run, sfedavg_run, sfedprox_run): argument
 *     errors leave the trace untouched.  An error after the run started
 *     (a building block's status, FR_ENOMEM) leaves the trace in its reset
 *     state, the state trace_init gives it: rounds = iters = cr = 0, stop
 *     = FR_STOP_ROUNDS, every record (w, f, gnorm2, W, Z) NaN, every sel
 *     entry SIZE_MAX, snr NaN, snr_clients = 0.  After a successful run
 *     the unused rows (index >= rounds) are NaN, their sel entries
 *     SIZE_MAX.
 *  4. Aliasing.  An output may not alias an input unless the function's
 *     contract says so ("out may alias t": the very same array, entry j
 *     on entry j; any other overlap is not allowed); ref and fast allow the
 *     same aliasing.  Two outputs of one call that overlap (e.g.
 *     gaussian2's z0 == z1, stationarity's r_cons == r_sum, logreg's fi
 *     inside gi) give FR_EDOM.
 *  5. Each function's header comment lists the statuses it can return.
 *  6. Validate once (sealed problems).  Each problem struct of the
 *     specification layer (fr_logreg, fr_pdm_problem, fr_proxal_problem,
 *     fr_ssca_data) ends with a field `uint64_t seal`, which the caller
 *     zero-initialises (= {0} or designated initialisers) and never writes.
 *     fr_<problem>_seal(P) makes the problem's full check once (the O(data)
 *     scans: NaN/Inf and the value domain of the binary64 arrays) and, on
 *     FR_OK, stores in P->seal a keyed 64-bit hash of P's fields (every
 *     scalar, every pointer, the total extent of every data array); on an
 *     error it stores 0 and returns the check's status.  Every function
 *     taking P skips those scans while P->seal equals the hash of P's
 *     current fields and makes them otherwise, so a zero or stale seal
 *     costs time, never safety; what is checked per call (pointers, sizes,
 *     anything an index is computed from, the call's own arguments) is
 *     checked either way, so every status is the same sealed or not.
 *     Changing a field (a pointer, a size, a scalar) voids the seal by
 *     itself.  The contract: the contents of the binary64 arrays P points
 *     to are not changed while the seal is in use; after changing them,
 *     seal again (or set seal = 0).  Both wings honour the same seal
 *     (tests/<module>/test_seal.c).
 * ------------------------------------------------------------------------ */

/* A short English description of a status code; never NULL. */
const char *fr_strerror(int status);

/* True for the statuses that mean "the input is not in the function's
 * domain" (FR_EDOM, FR_ENONFINITE, FR_ESIZE, FR_ENULL).  A golden-vector
 * case with "result": "invalid" passes only if the implementation returns
 * one of these. */
int fr_is_domain_error(int status);

/* Largest working precision fedref accepts, in bits. */
#define FR_PREC_MAX 65536

/* ------------------------------------------------------------------------
 * Deterministic counter-based generator (docs/RNG.md is the normative text).
 *
 * Philox4x64-10 (Salmon et al., SC'11) keyed by (seed, stream):
 *   key   = (seed, stream)                      two 64-bit words
 *   block = Philox4x64-10(counter, key)         four 64-bit words
 * with the 256-bit counter (c0, c1, c2, c3) = (b, 0, 0, 0) for block number
 * b = 0, 1, 2, ...  Words are consumed in order x0, x1, x2, x3 of block 0,
 * then of block 1, and so on.  Every purpose (client selection, noise of
 * client i, initial points, ...) uses its own stream number, so draws do not
 * depend on the order in which purposes are served.
 * ------------------------------------------------------------------------ */
typedef struct {
    uint64_t key[2];
    uint64_t block;     /* number of the next block to generate */
    uint64_t buf[4];    /* words of the current block */
    unsigned pos;       /* next unused word of buf; 4 = buffer empty */
} frng_t;

/* One Philox4x64-10 block: out = Philox(ctr, key).  Exposed for the
 * known-answer tests. */
void frng_philox4x64_10(uint64_t out[4], const uint64_t ctr[4], const uint64_t key[2]);

/* Start stream `stream` of seed `seed` at block 0.  No status: a NULL g is
 * ignored (so is a NULL argument of frng_philox4x64_10). */
void frng_init(frng_t *g, uint64_t seed, uint64_t stream);

/* Next 64-bit word of the stream.  No status: a NULL g yields 0 (also for
 * frng_u53 and frng_u52_open below). */
uint64_t frng_next64(frng_t *g);

/* Unbiased integer in [0, n) by rejection (docs/RNG.md, "integers").
 * Statuses: FR_ENULL (g, out), FR_EDOM (n == 0). */
int frng_below(frng_t *g, uint64_t n, uint64_t *out);

/* k distinct indices of [0, n), in the order drawn, by the partial
 * Fisher-Yates shuffle of docs/RNG.md.  `out` has room for k entries.
 * Statuses: FR_ENULL (g, out, also when k == 0), FR_ESIZE (n >
 * FR_COUNT_MAX: the n-entry workspace), FR_EDOM (k > n), FR_ENOMEM (the
 * workspace cannot be allocated).  k == 0 draws nothing. */
int frng_sample(frng_t *g, size_t n, size_t k, size_t *out);

/* Uniform integers behind the real-valued draws, both exact in binary64:
 *   frng_u53:      k = next64 >> 11,  u = k * 2^-53          in [0, 1)
 *   frng_u52_open: k = next64 >> 12,  u = (2k + 1) * 2^-53   in (0, 1)
 * They return k; the caller forms u exactly (binary64 or MPFR). */
uint64_t frng_u53(frng_t *g);
uint64_t frng_u52_open(frng_t *g);

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_COMMON_H */
