/* SPDX-License-Identifier: Apache-2.0 */
/* internal.c -- internal helpers of libfedfast (declared in internal.h):
 * the branch-free finiteness scan of spec/internal.h once per instruction
 * set, and the typed sort and selection of 64-bit keys (the total order of
 * binary64 through ffi_key).  No numerics: comparisons and moves only. */
#include <float.h>

#include "internal.h"
#include "../spec/internal.h"

/* ---- finiteness ----------------------------------------------------------- */

/* The scan of the specification layer (spec/internal.h), compiled once
 * per instruction set. */
FFI_INLINE int all_finite_body(const double *x, size_t len)
{
    return spec_all_finite(x, len);
}

FFI_VERSIONS(int, all_finite, (const double *x, size_t len), (x, len))

int ffi_all_finite(const double *x, size_t len)
{
    return all_finite(x, len);
}

/* ---- sort and selection of keys ------------------------------------------- */

static void insertion_u64(uint64_t *a, size_t len)
{
    for (size_t i = 1; i < len; i++) {
        uint64_t v = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static void sift_u64(uint64_t *a, size_t root, size_t len)
{
    uint64_t v = a[root];
    for (size_t c; (c = 2 * root + 1) < len; root = c) {
        if (c + 1 < len && a[c + 1] > a[c])
            c++;
        if (a[c] <= v)
            break;
        a[root] = a[c];
    }
    a[root] = v;
}

static void heapsort_u64(uint64_t *a, size_t len)
{
    for (size_t i = len / 2; i-- > 0;)
        sift_u64(a, i, len);
    for (size_t end = len; end-- > 1;) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_u64(a, 0, end);
    }
}

/* Three-way partition of a[0..len-1] (len >= 1) around the median of
 * a[0], a[len/2], a[len-1]: on return a[0..*lt) < pivot, a[*lt..*gt) ==
 * pivot, a[*gt..len) > pivot, and *lt < *gt (the pivot occurs), so both
 * outer parts are shorter than len. */
static uint64_t partition_u64(uint64_t *a, size_t len, size_t *lt, size_t *gt)
{
    uint64_t x = a[0], y = a[len / 2], z = a[len - 1];
    uint64_t piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    size_t l = 0, i = 0, g = len;
    while (i < g) {
        uint64_t v = a[i];
        if (v < piv) {
            a[i++] = a[l];
            a[l++] = v;
        } else if (v > piv) {
            a[i] = a[--g];
            a[g] = v;
        } else {
            i++;
        }
    }
    *lt = l;
    *gt = g;
    return piv;
}

static unsigned depth_limit(size_t len)
{
    unsigned d = 0;
    while (len > 1) {
        len >>= 1;
        d += 2;
    }
    return d;
}

static void introsort_u64(uint64_t *a, size_t len, unsigned depth)
{
    while (len > 16) {
        if (depth-- == 0) {
            heapsort_u64(a, len);
            return;
        }
        size_t lt, gt;
        partition_u64(a, len, &lt, &gt);
        if (lt < len - gt) {                     /* recurse on the smaller part */
            introsort_u64(a, lt, depth);
            a += gt;
            len -= gt;
        } else {
            introsort_u64(a + gt, len - gt, depth);
            len = lt;
        }
    }
    insertion_u64(a, len);
}

void ffi_sort_u64(uint64_t *a, size_t len)
{
    introsort_u64(a, len, depth_limit(len));
}

uint64_t ffi_select_u64(uint64_t *a, size_t len, size_t r)
{
    unsigned depth = depth_limit(len);
    while (len > 16) {
        if (depth-- == 0) {
            heapsort_u64(a, len);
            return a[r];
        }
        size_t lt, gt;
        uint64_t piv = partition_u64(a, len, &lt, &gt);
        if (r < lt) {
            len = lt;
        } else if (r < gt) {
            return piv;
        } else {
            a += gt;
            len -= gt;
            r -= gt;
        }
    }
    insertion_u64(a, len);
    return a[r];
}

void ffi_sort_total(double *v, uint64_t *ws, size_t len)
{
    for (size_t i = 0; i < len; i++)
        ws[i] = ffi_key(v[i]);
    ffi_sort_u64(ws, len);
    for (size_t i = 0; i < len; i++)
        v[i] = ffi_unkey(ws[i]);
}
