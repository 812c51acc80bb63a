/* SPDX-License-Identifier: Apache-2.0 */
/* model.h -- the scalar functions of the model of 003 Sec. V-A in binary64
 * (fast/fedpdm/model.c states them and their errors), shared by the model
 * (model.c) and Algorithm 1 (run_grad.c, run_vec.c, run_measure.c) so both evaluate the same bits.
 * Not installed. */
#ifndef FEDREF_FAST_FEDPDM_MODEL_H
#define FEDREF_FAST_FEDPDM_MODEL_H

#include <math.h>

static inline double r_of(double x)
{
    if (fabs(x) <= 1) {
        double q = x * x;
        return q / (1 + q);
    }
    double w = 1 / x;
    return 1 / (1 + w * w);
}

static inline double h_of(double x)
{
    if (fabs(x) <= 1) {
        double q = 1 + x * x;
        return 2 * x / (q * q);
    }
    double w = 1 / x, w2 = w * w, q = 1 + w2;
    return 2 * (w2 * w) / (q * q);
}

static inline double sp_of(double u)
{
    return fmax(-u, 0) + log1p(exp(-fabs(u)));
}

static inline double s_of(double u)
{
    double e = exp(-fabs(u));
    return u >= 0 ? e / (1 + e) : 1 / (1 + e);
}

#endif /* FEDREF_FAST_FEDPDM_MODEL_H */
