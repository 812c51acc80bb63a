/* SPDX-License-Identifier: Apache-2.0 */
/* sens_path.h -- internal to fast: the directed products of
 * ff_fedpdm_path_sens (sens_path.c), declared here so that the white-box
 * tests (tests/fedpdm/test_sens_stages.c) can check each against the exact
 * product, where one rounded the wrong way shows: in the path sensitivity
 * the products below 2^-969 are absorbed by the upward sums around them.
 * Not part of the library's interface (hidden in the shared library). */
#ifndef FEDREF_FAST_FEDPDM_SENS_PATH_H
#define FEDREF_FAST_FEDPDM_SENS_PATH_H

/* x, y >= 0 finite: ffi_path_mul_up(x, y) >= x y (+Inf on overflow) and
 * 0 <= ffi_path_mul_down(x, y) <= x y (DBL_MAX on overflow); both exact
 * when x y is a binary64 >= 2^-969, and 0 when x or y is. */
double ffi_path_mul_up(double x, double y);
double ffi_path_mul_down(double x, double y);

#endif
