/* SPDX-License-Identifier: Apache-2.0 */
/* rounding.h -- internal to fast: the directed-rounding helpers of binary64
 * upper and lower bounds.  Each name says its direction. */
#ifndef FEDREF_FAST_ROUNDING_H
#define FEDREF_FAST_ROUNDING_H
#include <math.h>

/* The least double > x for x finite (+Inf at DBL_MAX); +Inf stays +Inf,
 * -Inf gives -DBL_MAX, NaN stays NaN, +-0 give the least subnormal.  So for
 * x finite, ffi_next_up(x) > x: an upper bound of any real rounded to x by
 * at most one ulp. */
static inline double ffi_next_up(double x) { return nextafter(x, INFINITY); }

/* The mirror: the greatest double < x for x finite (-Inf at -DBL_MAX); -Inf
 * stays -Inf, +Inf gives DBL_MAX, NaN stays NaN, +-0 give minus the least
 * subnormal.  For x finite, ffi_next_down(x) < x. */
static inline double ffi_next_down(double x) { return nextafter(x, -INFINITY); }

/* One step down for x > 0 (to 0 from the least subnormal, never below 0),
 * else 0 (NaN, +-0 and x < 0 all give +0).  For x > 0 finite,
 * 0 <= ffi_next_down_clamp0(x) < x: a lower bound of a nonnegative
 * quantity rounded to x, itself nonnegative. */
static inline double ffi_next_down_clamp0(double x) { return x > 0 ? nextafter(x, 0.0) : 0.0; }

/* One step down for x > 0 (never below 0), else x unchanged (NaN, +-0,
 * x < 0).  For x > 0 finite, 0 <= ffi_next_down_pos(x) < x. */
static inline double ffi_next_down_pos(double x) { return x > 0 ? nextafter(x, 0.0) : x; }

/* Relative pad up: q + |q| r + 2^-1060, rounded to nearest.  For q finite,
 * r >= 2^-52 and no overflow, ffi_pad_up(q, r) > q.  Proof: if q is
 * normal, |q| r >= ulp(q), a double, so fl(|q| r) >= ulp(q) and q + fl(|q| r)
 * >= q + ulp(q) > q, a bound rounding keeps (it is monotone and q is a
 * double); if q is 0 or subnormal, q + fl(|q| r) >= q and q + 2^-1060 > q is
 * a double.  Adding 2^-1060 > 0 never lowers a sum.  NaN gives NaN, +Inf
 * +Inf, -Inf NaN. */
static inline double ffi_pad_up(double q, double r) { return q + fabs(q) * r + 0x1p-1060; }

/* Relative pad down, the mirror: q - |q| r - 2^-1060.  For q finite,
 * r >= 2^-52 and no overflow, ffi_pad_down(q, r) < q (the same proof with
 * signs exchanged).  NaN gives NaN, -Inf -Inf, +Inf NaN. */
static inline double ffi_pad_down(double q, double r) { return q - fabs(q) * r - 0x1p-1060; }

#endif
