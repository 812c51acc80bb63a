/* SPDX-License-Identifier: Apache-2.0 */
/* msgs.c -- what crosses the network per round in mini-batch SSCA (000
 * Sec. III-A 3), III-B 3), IV-A 3), IV-B 3) and Sec. V): the counts of
 * reals of fedspec/ssca.h, in exact 64-bit integer arithmetic.  Shared by
 * both libraries (no real arithmetic). */
#include "fedspec/ssca.h"

/* r = a + b, r = a * b; 0 on overflow of 64 bits. */
static int add64(uint64_t *r, uint64_t a, uint64_t b)
{
    if (a > UINT64_MAX - b)
        return 0;
    *r = a + b;
    return 1;
}

static int mul64(uint64_t *r, uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return 0;
    *r = a * b;
    return 1;
}

/* M (1 + x): the M constraint messages (F, a gradient block of x reals). */
static int constraint_part(uint64_t *r, uint64_t x, uint64_t M)
{
    uint64_t t;
    if (M == 0) {                       /* unconstrained: none, whatever x */
        *r = 0;
        return 1;
    }
    return add64(&t, x, 1) && mul64(r, M, t);
}

int fr_ssca_msgs_sample(fr_ssca_sample_msgs *out, size_t d, size_t M)
{
    if (out == NULL)
        return FR_ENULL;
    uint64_t c, up;
    if (d == 0 || !constraint_part(&c, d, M) || !add64(&up, d, c))
        return FR_ESIZE;
    out->down = d;                      /* omega_s^(t) */
    out->up = up;                       /* sum grad f_{s,0}; M x (F, sum grad F) */
    return FR_OK;
}

int fr_ssca_msgs_feature(fr_ssca_feature_msgs *out, size_t d0, size_t di,
                         size_t H, size_t B, size_t M)
{
    if (out == NULL)
        return FR_ENULL;
    uint64_t down, peer, up, agg, c, m1;
    if (d0 == 0 || di == 0 || H == 0 || B == 0
        || !add64(&down, d0, di)                            /* omega_0, omega_i */
        || !add64(&m1, M, 1)
        || !mul64(&peer, m1, H) || !mul64(&peer, peer, B)  /* h_{m,i}, n in batch */
        || !mul64(&up, m1, di)                              /* step 6 */
        || !constraint_part(&c, d0, M) || !add64(&agg, d0, c))  /* step 5 */
        return FR_ESIZE;
    *out = (fr_ssca_feature_msgs){.down = down, .peer = peer, .up = up, .up_agg = agg};
    return FR_OK;
}
