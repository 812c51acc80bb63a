/* SPDX-License-Identifier: Apache-2.0 */
/* run_check.c -- the argument check of a run of Algorithms 1-4 and the
 * baselines (fedspec/ssca.h fr_ssca_run_check, docs/SSCA.md 10), in the
 * class order of fedref_common.h: FR_ENULL, FR_ESIZE, FR_ENONFINITE,
 * FR_EDOM.  Comparisons of binary64 inputs and integer arithmetic only. */
#include <math.h>
#include "fedspec/ssca.h"
#include "../internal.h"

static int known(int algo)
{
    return algo >= FR_SSCA_ALG1 && algo <= FR_SSCA_SGDM_F;
}

/* SGD_S and SGDM_S draw E B samples per client and round. */
static int local_steps(int algo)
{
    return algo == FR_SSCA_SGD_S || algo == FR_SSCA_SGDM_S;
}

/* FR_ESIZE unless cnt[0..nc-1] are >= 1 and sum exactly to total. */
static int partition_size(const size_t *cnt, size_t nc, size_t total, size_t *min)
{
    size_t sum = 0, mn = SIZE_MAX;
    for (size_t i = 0; i < nc; i++) {
        if (cnt[i] == 0 || cnt[i] > total - sum)
            return FR_ESIZE;
        sum += cnt[i];
        mn = cnt[i] < mn ? cnt[i] : mn;
    }
    *min = mn;
    return sum == total ? FR_OK : FR_ESIZE;
}

static int sizes(const fr_ssca_data *D, const fr_ssca_params *prm, int feat)
{
    size_t d;
    if (D->N == 0 || D->P == 0 || D->J == 0 || D->L == 0 || D->nc == 0 || prm->B == 0)
        return FR_ESIZE;
    if (fr_ssca_net_dim(D->L, D->J, D->P, &d) != FR_OK || D->N > FR_COUNT_MAX / D->P)
        return FR_ESIZE;
    if (prm->T < 2 || prm->T > FR_SSCA_T_MAX)
        return FR_ESIZE;
    if (!known(prm->algo))
        return FR_OK;                         /* FR_EDOM below */
    size_t per = prm->B, mn;
    if (local_steps(prm->algo)) {
        if (prm->E == 0 || prm->E > FR_SSCA_E_MAX || prm->B > FR_COUNT_MAX / prm->E)
            return FR_ESIZE;
        per = prm->B * prm->E;
    }
    if (feat) {
        if (partition_size(D->Pi, D->nc, D->P, &mn) != FR_OK || prm->B > D->N)
            return FR_ESIZE;
    } else if (partition_size(D->Ni, D->nc, D->N, &mn) != FR_OK || per > mn) {
        return FR_ESIZE;
    }
    return FR_OK;
}

static int finite(const fr_ssca_data *D, const fr_ssca_params *prm)
{
    size_t d;
    fr_ssca_net_dim(D->L, D->J, D->P, &d);
    if ((!fr_ssca_data_sealed(D) && !spec_all_finite(D->Z, D->N * D->P))
        || !spec_all_finite(prm->w1, d))
        return FR_ENONFINITE;
    const int a = prm->algo;
    if (!known(a))
        return FR_OK;
    if (!fr_ssca_algo_baseline(a)) {
        const double f[] = {prm->a1, prm->alpha1, prm->a2, prm->alpha2, prm->tau};
        if (!spec_all_finite(f, 5))
            return FR_ENONFINITE;
    }
    if (!fr_ssca_algo_constrained(a) && !isfinite(prm->lambda))
        return FR_ENONFINITE;
    if (fr_ssca_algo_constrained(a) && (!isfinite(prm->U) || !isfinite(prm->c)))
        return FR_ENONFINITE;
    if (fr_ssca_algo_baseline(a) && (!isfinite(prm->lr_a) || !isfinite(prm->lr_alpha)))
        return FR_ENONFINITE;
    if ((a == FR_SSCA_SGDM_S || a == FR_SSCA_SGDM_F) && !isfinite(prm->mom))
        return FR_ENONFINITE;
    return FR_OK;
}

/* 1 iff every label is < L (indices: checked on every call, sealed or
 * not). */
static int labels(const fr_ssca_data *D)
{
    const size_t *y = D->y, L = D->L;
    size_t bad = 0;
    for (size_t n = 0; n < D->N; n++)
        bad |= y[n] >= L;
    return bad == 0;
}

static int domain(const fr_ssca_data *D, const fr_ssca_params *prm)
{
    const int a = prm->algo;
    if (!known(a) || (prm->weight != FR_SSCA_W_EXACT && prm->weight != FR_SSCA_W_PRINTED))
        return FR_EDOM;
    if (D->L < 2 || !labels(D))
        return FR_EDOM;
    if (!fr_ssca_algo_baseline(a)) {
        /* rho^(1) = a1, gamma^(1) = a2 in (0, 1] and nonincreasing
         * schedules: every rho^(t), gamma^(t) in (0, 1] */
        if (prm->tau <= 0 || !(prm->a1 > 0 && prm->a1 <= 1) || prm->alpha1 < 0
            || !(prm->a2 > 0 && prm->a2 <= 1) || prm->alpha2 < 0)
            return FR_EDOM;
    }
    if (!fr_ssca_algo_constrained(a) && prm->lambda < 0)
        return FR_EDOM;
    if (fr_ssca_algo_constrained(a) && prm->c <= 0)
        return FR_EDOM;
    if (fr_ssca_algo_baseline(a) && (prm->lr_a <= 0 || prm->lr_alpha < 0))
        return FR_EDOM;
    if ((a == FR_SSCA_SGDM_S || a == FR_SSCA_SGDM_F) && !(prm->mom >= 0 && prm->mom < 1))
        return FR_EDOM;
    if (prm->keep & ~(unsigned)(FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST))
        return FR_EDOM;
    return FR_OK;
}

int fr_ssca_run_check(const fr_ssca_data *D, const fr_ssca_params *prm)
{
    if (D == NULL || prm == NULL || D->Z == NULL || D->y == NULL || prm->w1 == NULL)
        return FR_ENULL;
    const int feat = fr_ssca_algo_feature(prm->algo);
    if (known(prm->algo) && (feat ? D->Pi == NULL : D->Ni == NULL))
        return FR_ENULL;
    int s = sizes(D, prm, feat);
    if (s == FR_OK)
        s = finite(D, prm);
    if (s == FR_OK)
        s = domain(D, prm);
    return s;
}

/* ---- the seal (fedref_common.h rule 6) ------------------------------------- */

#define SSCA_SEAL_KEY 0x737363615f646174ull        /* "ssca_dat" */

static uint64_t part_sum(const size_t *cnt, size_t nc)
{
    uint64_t s = 0;
    if (cnt != NULL)
        for (size_t i = 0; i < nc; i++)
            s += (uint64_t)cnt[i];
    return s;
}

static uint64_t seal_hash(const fr_ssca_data *D)
{
    uint64_t h = spec_seal_start(SSCA_SEAL_KEY);
    h = spec_seal_u64(h, D->N);
    h = spec_seal_u64(h, D->P);
    h = spec_seal_u64(h, D->J);
    h = spec_seal_u64(h, D->L);
    h = spec_seal_u64(h, D->nc);
    h = spec_seal_ptr(h, D->Z);
    h = spec_seal_ptr(h, D->y);
    h = spec_seal_ptr(h, D->Ni);
    h = spec_seal_ptr(h, D->Pi);
    h = spec_seal_u64(h, part_sum(D->Ni, D->nc));
    h = spec_seal_u64(h, part_sum(D->Pi, D->nc));
    return spec_seal_end(h);
}

int fr_ssca_data_sealed(const fr_ssca_data *D)
{
    return D != NULL && D->seal != 0 && D->seal == seal_hash(D);
}

/* The data's own check (fedspec/ssca.h fr_ssca_data_seal), in class order. */
static int data_check(const fr_ssca_data *D)
{
    size_t d, mn;
    if (D->Z == NULL || D->y == NULL)
        return FR_ENULL;
    if (D->N == 0 || D->P == 0 || D->J == 0 || D->L == 0 || D->nc == 0
        || fr_ssca_net_dim(D->L, D->J, D->P, &d) != FR_OK || D->N > FR_COUNT_MAX / D->P)
        return FR_ESIZE;
    if ((D->Ni != NULL && partition_size(D->Ni, D->nc, D->N, &mn) != FR_OK)
        || (D->Pi != NULL && partition_size(D->Pi, D->nc, D->P, &mn) != FR_OK))
        return FR_ESIZE;
    if (!spec_all_finite(D->Z, D->N * D->P))
        return FR_ENONFINITE;
    if (D->L < 2 || !labels(D))
        return FR_EDOM;
    return FR_OK;
}

int fr_ssca_data_seal(fr_ssca_data *D)
{
    if (D == NULL)
        return FR_ENULL;
    D->seal = 0;
    const int s = data_check(D);
    if (s == FR_OK)
        D->seal = seal_hash(D);
    return s;
}
