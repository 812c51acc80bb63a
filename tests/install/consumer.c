/* SPDX-License-Identifier: Apache-2.0 */
/* consumer.c -- a program written as a user of the installed libraries
 * would write it (make install-test builds it with pkg-config, shared and
 * static): soft-thresholding and the elastic-net aggregation of 002 in both
 * wings on the same data; the two must agree (ref is correctly rounded,
 * fast is within its bound) and an invalid input must give the same status
 * in both; and the loss of 000's two-layer network on one sample, whose ref
 * uses MPFI (so a static consumer shows that fedref.pc's Libs.private
 * carries -lmpfi).  Exit 0 and "consumer: ok" on success. */
#include <math.h>
#include <stdio.h>
#include "fedref.h"
#include "fedfast.h"

int main(void)
{
    const double t[4] = {3, -0.5, 1, -2.25}, W[6] = {0, 1, 10, 2, 4, 4};
    double fs[4], fw[2];
    mpfr_t a, lam, eta, rt[4], rs[4], rW[6], rw[2];
    mpfr_inits2(53, a, lam, eta, (mpfr_ptr)0);
    for (int k = 0; k < 4; k++) { mpfr_inits2(53, rt[k], rs[k], (mpfr_ptr)0); mpfr_set_d(rt[k], t[k], MPFR_RNDN); }
    for (int k = 0; k < 6; k++) { mpfr_init2(rW[k], 53); mpfr_set_d(rW[k], W[k], MPFR_RNDN); }
    for (int k = 0; k < 2; k++) mpfr_init2(rw[k], 53);
    mpfr_set_d(a, 1, MPFR_RNDN);
    mpfr_set_d(lam, 0.5, MPFR_RNDN);
    mpfr_set_d(eta, 1, MPFR_RNDN);
    int bad = 0;
    bad |= fr_soft(rs, rt, 4, a) != FR_OK || ff_soft(fs, t, 4, 1.0) != FR_OK;
    for (int k = 0; k < 4; k++) bad |= mpfr_get_d(rs[k], MPFR_RNDN) != fs[k];
    bad |= fr_ens(rw, rW, 3, 2, lam, eta) != FR_OK || ff_ens(fw, W, 3, 2, 0.5, 1.0) != FR_OK;
    for (int k = 0; k < 2; k++) bad |= fabs(mpfr_get_d(rw[k], MPFR_RNDN) - fw[k]) > 1e-12;
    /* 000 (28) with L = 2, J = 1, P = 1, w = 0: Q = (1/2, 1/2), loss ln 2 */
    {
        const double w0[3] = {0, 0, 0}, z0[1] = {1};
        const size_t y0[1] = {1};
        double ff;
        mpfr_t rf, rw3[3], rz[1];
        mpfr_init2(rf, 53);
        mpfr_init2(rz[0], 53);
        mpfr_set_d(rz[0], 1, MPFR_RNDN);
        for (int k = 0; k < 3; k++) { mpfr_init2(rw3[k], 53); mpfr_set_zero(rw3[k], 1); }
        bad |= fr_ssca_net(rf, NULL, rw3, 2, 1, 1, rz, y0, 1) != FR_OK;
        bad |= ff_ssca_net(&ff, NULL, w0, 2, 1, 1, z0, y0, 1) != FR_OK;
        bad |= mpfr_get_d(rf, MPFR_RNDN) != log(2.0) || fabs(ff - log(2.0)) > 1e-15;
        mpfr_clear(rf);
        mpfr_clear(rz[0]);
        for (int k = 0; k < 3; k++) mpfr_clear(rw3[k]);
    }
    mpfr_set_d(a, -1, MPFR_RNDN);                          /* a < 0: FR_EDOM in both */
    bad |= fr_soft(rs, rt, 4, a) != FR_EDOM || ff_soft(fs, t, 4, -1.0) != FR_EDOM;
    printf("consumer: fedref %s, soft(3, 1) = %g, ens column 0 = %.17g: %s\n", FEDREF_VERSION, fs[0],
           fw[0], bad ? "MISMATCH" : "ok");
    mpfr_clears(a, lam, eta, (mpfr_ptr)0);
    for (int k = 0; k < 4; k++) mpfr_clears(rt[k], rs[k], (mpfr_ptr)0);
    for (int k = 0; k < 6; k++) mpfr_clear(rW[k]);
    for (int k = 0; k < 2; k++) mpfr_clear(rw[k]);
    return bad;
}
