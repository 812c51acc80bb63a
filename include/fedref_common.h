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
    FR_EDOM = -1,       /* a parameter is outside the paper's domain (a < 0, lambda <= 0, ...) */
    FR_ENONFINITE = -2, /* NaN or an infinity in a parameter or an input */
    FR_ESIZE = -3,      /* a dimension is zero, too large, or inconsistent */
    FR_ENOMEM = -4,     /* memory allocation failed */
    FR_EPREC = -5,      /* a precision outside [MPFR_PREC_MIN, FR_PREC_MAX] */
    FR_ENULL = -6,      /* a required pointer is NULL */
    FR_EINTERNAL = -7   /* an internal consistency check failed (a bug: please report) */
};

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

/* Start stream `stream` of seed `seed` at block 0. */
void frng_init(frng_t *g, uint64_t seed, uint64_t stream);

/* Next 64-bit word of the stream. */
uint64_t frng_next64(frng_t *g);

/* Unbiased integer in [0, n) by rejection (docs/RNG.md, "integers").
 * FR_EDOM if n == 0. */
int frng_below(frng_t *g, uint64_t n, uint64_t *out);

/* k distinct indices of [0, n), in the order drawn, by the partial
 * Fisher-Yates shuffle of docs/RNG.md.  `out` has room for k entries.
 * FR_EDOM if k > n; FR_ENOMEM if the n-entry workspace cannot be allocated. */
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
