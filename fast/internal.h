/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h -- internal helpers of libfedfast (not installed): argument
 * checks, the sorted column of a row-major m x n matrix, a typed sort and
 * selection in the total order of binary64, and the run-time choice of
 * instruction set for the hot loops (fast/internal.c).  No numerics. */
#ifndef FEDREF_FAST_INTERNAL_H
#define FEDREF_FAST_INTERNAL_H

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fedref_common.h"
#include "rounding.h"

/* ---- instruction sets ------------------------------------------------------
 * On x86-64 with GCC or Clang a hot loop is compiled three times, for the
 * baseline (SSE2), AVX2 and AVX-512F, from one always-inline body, and the
 * widest the CPU supports is called (__builtin_cpu_supports).  The body is
 * plain C (no intrinsics, no reassociation, -ffp-contract=off): each
 * version performs the same binary64 operations in the same order on the
 * same data, only more of them per instruction, so all versions return the
 * same bits.  Elsewhere, or with -DFFI_BASELINE_ONLY (to compare the
 * versions), the baseline alone is compiled.
 * FFI_VERSIONS(ret, name, params, args) defines `static ret name params`
 * calling the body `name##_body args`. */
#define FFI_INLINE static inline __attribute__((always_inline))
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) \
    && !defined(FFI_BASELINE_ONLY)
#define FFI_VERSIONS(ret, name, params, args)                                  \
    static ret name##_base params { return name##_body args; }                 \
    __attribute__((target("avx2"))) static ret name##_avx2 params              \
    { return name##_body args; }                                               \
    __attribute__((target("avx512f"))) static ret name##_avx512 params         \
    { return name##_body args; }                                               \
    static ret name params                                                     \
    {                                                                          \
        if (__builtin_cpu_supports("avx512f"))                                 \
            return name##_avx512 args;                                         \
        if (__builtin_cpu_supports("avx2"))                                    \
            return name##_avx2 args;                                           \
        return name##_base args;                                               \
    }
#else
#define FFI_VERSIONS(ret, name, params, args)                                  \
    static ret name params { return name##_body args; }
#endif

/* 1 iff all len entries of x are finite: a branch-free scan in blocks
 * (fast/internal.c), several times faster than a test per entry. */
int ffi_all_finite(const double *x, size_t len);

/* The argument checks follow the class order of fedref_common.h
 * ("Error semantics"): all pointers (FR_ENULL), then sizes (FR_ESIZE),
 * finiteness (FR_ENONFINITE) and domain (FR_EDOM); the size limits are
 * libfedref's (FR_COUNT_MAX), so both wings give the same status. */

/* FR_OK iff m, n >= 1 and m n <= FR_COUNT_MAX. */
static inline int ffi_check_mn(size_t m, size_t n)
{
    if (m == 0 || n == 0 || n > FR_COUNT_MAX / m)
        return FR_ESIZE;
    return FR_OK;
}

/* 1 iff the byte ranges [p, p + np) and [q, q + nq) overlap (two outputs
 * that must be distinct: FR_EDOM). */
static inline int ffi_overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

/* ---- the total order of binary64 --------------------------------------------
 * On finite doubles: the numeric order, with -0 before +0 (so a sort is
 * deterministic).  ffi_key maps it to the unsigned order of 64-bit keys
 * (negative: all bits flipped; positive: the sign bit set), ffi_unkey
 * back; both are bijections on the bit patterns. */
static inline uint64_t ffi_key(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u ^ ((0 - (u >> 63)) | 0x8000000000000000u);   /* no branch */
}

static inline double ffi_unkey(uint64_t k)
{
    uint64_t u = k >> 63 ? k & 0x7fffffffffffffffu : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Sorts a[0..len-1] ascending (introsort: median-of-three quicksort,
 * insertion sort below 16 entries, heapsort past 2 log2(len) levels), so
 * O(len log len) in the worst case; no callback. */
void ffi_sort_u64(uint64_t *a, size_t len);

/* The r-th smallest (0-based, r < len) of a[0..len-1], which it permutes
 * (introselect: quickselect as above, heapsort past the depth limit);
 * O(len) expected, O(len log len) at worst. */
uint64_t ffi_select_u64(uint64_t *a, size_t len, size_t r);

/* v[0..len-1] sorted in the total order above, through the keys in
 * ws[0..len-1] (workspace). */
void ffi_sort_total(double *v, uint64_t *ws, size_t len);

/* col[0..m-1] = column j of W (row-major m x n), sorted ascending in the
 * total order (ws: m keys of workspace). */
static inline void ffi_sorted_column(double *col, uint64_t *ws, const double *W,
                                    size_t m, size_t n, size_t j)
{
    if (m <= INT_MAX && n <= INT_MAX)
        cblas_dcopy((int)m, W + j, (int)n, col, 1);   /* stride-n gather */
    else
        for (size_t i = 0; i < m; i++)
            col[i] = W[i * n + j];
    ffi_sort_total(col, ws, m);
}

#endif /* FEDREF_FAST_INTERNAL_H */
