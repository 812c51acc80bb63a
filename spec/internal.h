/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h -- what the argument checks of spec/ share (not installed):
 * the finiteness scan of binary64 arrays and the seal of a problem.  On the bit patterns only (the
 * specification layer does no arithmetic on reals); static inline, so it
 * leaves no symbol in either library.  libfedfast's ffi_all_finite compiles
 * this same body once per instruction set (fast/internal.c). */
#ifndef FEDREF_SPEC_INTERNAL_H
#define FEDREF_SPEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 1 iff x[0..len-1] are all finite (1 for len = 0).  The exponent field
 * plus one carries into bit 63 exactly when it is all ones (+-Inf, NaN).
 * Blocks of 256 entries or-ed into 16 lanes without a branch (the compiler
 * vectorises the block), one test per block ends the scan early; the rest
 * goes 8 at a time, then one at a time, into 8 lanes. */
static inline __attribute__((always_inline)) int spec_all_finite(const double *x, size_t len)
{
    const uint64_t E = 0x7ff0000000000000u, ONE = 0x0010000000000000u;
    size_t k = 0;
    for (; k + 256 <= len; k += 256) {
        uint64_t acc[16] = {0};
        for (size_t q = 0; q < 256; q += 16)
            for (size_t l = 0; l < 16; l++) {
                uint64_t u;
                memcpy(&u, &x[k + q + l], sizeof u);
                acc[l] |= (u & E) + ONE;
            }
        uint64_t any = 0;
        for (size_t l = 0; l < 16; l++)
            any |= acc[l];
        if (any >> 63)
            return 0;
    }
    uint64_t acc[8] = {0};
    for (; k + 8 <= len; k += 8)
        for (size_t l = 0; l < 8; l++) {
            uint64_t u;
            memcpy(&u, &x[k + l], sizeof u);
            acc[l] |= (u & E) + ONE;
        }
    for (size_t l = 0; k + l < len; l++) {
        uint64_t u;
        memcpy(&u, &x[k + l], sizeof u);
        acc[l] |= (u & E) + ONE;
    }
    uint64_t any = 0;
    for (size_t l = 0; l < 8; l++)
        any |= acc[l];
    return !(any >> 63);
}

/* The seal of a problem (fedref_common.h, rule 6): a keyed hash of its
 * fields, never 0 (0 means "not sealed").  spec_seal_start(key) with a
 * key per problem type, spec_seal_u64 for each field in a fixed order
 * (spec_seal_ptr, spec_seal_dbl for pointers and binary64 scalars, by
 * their bits), spec_seal_end.  splitmix64's finaliser per word: not a
 * cryptographic hash; it guards against a changed field, not an
 * adversary who edits the seal. */
static inline uint64_t spec_seal_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static inline uint64_t spec_seal_start(uint64_t key) { return spec_seal_mix(key ^ 0x66656472656673ull); }
static inline uint64_t spec_seal_u64(uint64_t h, uint64_t v)
{
    return spec_seal_mix(h + 0x9e3779b97f4a7c15u + v);
}
static inline uint64_t spec_seal_ptr(uint64_t h, const void *p) { return spec_seal_u64(h, (uint64_t)(uintptr_t)p); }
static inline uint64_t spec_seal_dbl(uint64_t h, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return spec_seal_u64(h, u);
}
static inline uint64_t spec_seal_end(uint64_t h) { return h ? h : 1; }

#endif
