/* SPDX-License-Identifier: Apache-2.0 */
/* run_msgs.c -- the reals one round of a run moves (fedspec/ssca.h
 * fr_ssca_run_msgs, docs/SSCA.md 5 and 10), every client and direction
 * summed.  Integer arithmetic only. */
#include "fedspec/ssca.h"

/* a + b, or FR_ESIZE on 64-bit overflow. */
static int add(uint64_t *a, uint64_t b)
{
    if (b > UINT64_MAX - *a)
        return FR_ESIZE;
    *a += b;
    return FR_OK;
}

static int mul_add(uint64_t *a, uint64_t b, uint64_t k)
{
    if (k != 0 && b > UINT64_MAX / k)
        return FR_ESIZE;
    return add(a, b * k);
}

int fr_ssca_run_msgs(fr_ssca_round_msgs *out, const fr_ssca_data *D, const fr_ssca_params *prm)
{
    if (out == NULL)
        return FR_ENULL;
    int s = fr_ssca_run_check(D, prm);
    if (s != FR_OK)
        return s;
    const int a = prm->algo;
    /* (40): f_{a,0} = 0 (the objective ||w||^2 is the server's), so the
     * clients send the unconstrained messages of the loss (its gradient
     * blocks, M = 0) plus its batch sum: one real more (000 Sec. V). */
    const uint64_t loss_sum = fr_ssca_algo_constrained(a) ? 1 : 0;
    size_t d;
    fr_ssca_net_dim(D->L, D->J, D->P, &d);
    fr_ssca_round_msgs m = {0, 0, 0};
    if (!fr_ssca_algo_feature(a)) {
        fr_ssca_sample_msgs c;
        if ((s = fr_ssca_msgs_sample(&c, d, 0)) != FR_OK)
            return s;
        if (a == FR_SSCA_SGD_S || a == FR_SSCA_SGDM_S)
            c.down = c.up = (a == FR_SSCA_SGDM_S ? 2 : 1) * (uint64_t)d;   /* w (and v) */
        if ((s = mul_add(&m.down, c.down, D->nc)) != FR_OK
            || (s = mul_add(&m.up, c.up + loss_sum, D->nc)) != FR_OK)
            return s;
    } else {
        for (size_t i = 0; i < D->nc; i++) {
            fr_ssca_feature_msgs c;
            if ((s = fr_ssca_msgs_feature(&c, D->L * D->J, D->J * D->Pi[i], D->J, prm->B, 0))
                != FR_OK)
                return s;
            if ((s = add(&m.down, c.down)) != FR_OK || (s = add(&m.up, c.up)) != FR_OK
                || (s = mul_add(&m.peer, c.peer, D->nc - 1)) != FR_OK
                || (i == 0 && (s = add(&m.up, c.up_agg + loss_sum)) != FR_OK))
                return s;
        }
    }
    *out = m;
    return FR_OK;
}
