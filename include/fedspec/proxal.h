/* fedspec/proxal.h -- the specification layer of module proxal (paper 004,
 * the proximal augmented-Lagrangian FL algorithm with inexact ADMM), shared
 * by ref and fast: integer logic only.  docs/PROXAL.md is the normative
 * description. */
#ifndef FEDSPEC_PROXAL_H
#define FEDSPEC_PROXAL_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== KKT residuals (Definition 1) ======================================== */

/* The regulariser h of 004 (1), a closed convex function with an exact
 * prox (Assumption 2(a)), as the KKT residuals handle it:
 *   FR_PROXAL_H_ZERO  h = 0                      dh(w) = {0}
 *   FR_PROXAL_H_L1    h = gamma ||.||_1, gamma >= 0
 *   FR_PROXAL_H_BOX   h = the indicator of the box [lo, hi] (lo_k <= hi_k
 *                     finite), dh(w) = N_[lo,hi](w), dom h = [lo, hi]
 * Any other value is outside the domain (FR_EDOM).  The golden vectors
 * spell them "zero", "l1", "box" (docs/VECTORS.md). */
enum { FR_PROXAL_H_ZERO = 0, FR_PROXAL_H_L1 = 1, FR_PROXAL_H_BOX = 2 };

/* The largest number m of constraints (c: R^d -> R^m) accepted by
 * fr_proxal_kkt and ff_proxal_kkt; beyond it FR_ESIZE in both.  fast's
 * error bound for r = grad_f + J mu, a sum of m + 1 terms, is proved for
 * (m + 1) 2^-53 <= 2^-26 (fast/proxal/kkt.c). */
#define FR_PROXAL_M_MAX ((size_t)1 << 26)

/* ==== end of KKT residuals ================================================ */

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_PROXAL_H */
