/* SPDX-License-Identifier: Apache-2.0 */
/* check.c -- the argument checks of the family (fedspec/fedepm.h): the
 * problem and its seal (fedref_common.h, rule 6), the sizes, and the
 * parameters every algorithm of 002 uses, in the class order of
 * fedref_common.h (FR_ENULL, FR_ESIZE, FR_ENONFINITE, FR_EDOM).
 * Comparisons of binary64 inputs (and tests of their bit patterns) only. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include "fedspec/fedepm.h"
#include "../internal.h"

size_t fr_logreg_samples(const fr_logreg *P)
{
    if (P == NULL || P->d == NULL)
        return 0;
    size_t D = 0;
    for (size_t i = 0; i < P->m; i++) {
        if (P->d[i] > SIZE_MAX - D)
            return 0;
        D += P->d[i];
    }
    return D;
}

static int problem_null(const fr_logreg *P)
{
    return P == NULL || P->d == NULL || P->X == NULL || P->b == NULL ? FR_ENULL : FR_OK;
}

static int problem_size(const fr_logreg *P)
{
    if (P->m == 0 || P->n == 0)
        return FR_ESIZE;
    for (size_t i = 0; i < P->m; i++)
        if (P->d[i] == 0)
            return FR_ESIZE;
    size_t D = fr_logreg_samples(P);
    if (D == 0 || P->n > FR_COUNT_MAX / D)    /* room for D x n mpfr_t as well */
        return FR_ESIZE;
    return FR_OK;
}

/* The hash of fr_logreg_seal (fedspec/fedepm.h): m, n, d, X, b, beta, D. */
static uint64_t seal_of(const fr_logreg *P)
{
    uint64_t h = spec_seal_start(0x6c6f677265673032u);   /* "logreg02" */
    h = spec_seal_u64(h, P->m);
    h = spec_seal_u64(h, P->n);
    h = spec_seal_ptr(h, P->d);
    h = spec_seal_ptr(h, P->X);
    h = spec_seal_ptr(h, P->b);
    h = spec_seal_dbl(h, P->beta);
    h = spec_seal_u64(h, fr_logreg_samples(P));
    return spec_seal_end(h);
}

int fr_logreg_sealed(const fr_logreg *P)
{
    return P != NULL && P->seal != 0 && P->seal == seal_of(P);
}

/* NaN/Inf in beta, X, b; the scans of X and b are skipped when P is
 * sealed (beta is tested either way). */
static int problem_finite(const fr_logreg *P, int sealed)
{
    const size_t D = fr_logreg_samples(P);
    if (!isfinite(P->beta))
        return FR_ENONFINITE;
    if (sealed)
        return FR_OK;
    if (!spec_all_finite(P->X, D * P->n))
        return FR_ENONFINITE;
    for (size_t t = 0; t < D; t++)
        if (!isfinite(P->b[t]))
            return FR_ENONFINITE;
    return FR_OK;
}

static int problem_domain(const fr_logreg *P, int sealed)
{
    const size_t D = fr_logreg_samples(P);
    if (!(P->beta > 0))
        return FR_EDOM;
    if (sealed)
        return FR_OK;
    for (size_t t = 0; t < D; t++)
        if (P->b[t] != 0.0 && P->b[t] != 1.0)
            return FR_EDOM;
    return FR_OK;
}

/* The full check, or (sealed) the check without the scans of X and b. */
static int problem_check(const fr_logreg *P, int sealed)
{
    int st;
    if ((st = problem_null(P)) != FR_OK || (st = problem_size(P)) != FR_OK
        || (st = problem_finite(P, sealed)) != FR_OK)
        return st;
    return problem_domain(P, sealed);
}

int fr_logreg_check(const fr_logreg *P)
{
    return problem_check(P, fr_logreg_sealed(P));
}

int fr_logreg_seal(fr_logreg *P)
{
    if (P == NULL)
        return FR_ENULL;
    const int st = problem_check(P, 0);
    P->seal = st == FR_OK ? seal_of(P) : 0;
    return st;
}

/* P and prm: pointers and sizes (the first two classes). */
static int null_and_sizes(const fr_logreg *P, const fr_fedepm_params *prm)
{
    int st;
    if (prm == NULL || (st = problem_null(P)) != FR_OK)
        return FR_ENULL;
    if ((prm->noise == FR_NOISE_EQ27 || prm->noise == FR_NOISE_CERT) && prm->Delta == NULL)
        return FR_ENULL;
    if ((st = problem_size(P)) != FR_OK)
        return st;
    if (prm->k0 == 0 || prm->rounds == 0 || prm->nsel == 0 || prm->nsel > P->m)
        return FR_ESIZE;
    if (prm->k0 > FR_FEDEPM_K0_MAX || prm->rounds > FR_FEDEPM_ROUNDS_MAX)
        return FR_ESIZE;
    if (prm->rounds > (ULONG_MAX - 1) / prm->k0)
        return FR_ESIZE;
    return FR_OK;
}

int fr_fedepm_sizes_check(const fr_logreg *P, const fr_fedepm_params *prm)
{
    int st = null_and_sizes(P, prm);
    const int sealed = fr_logreg_sealed(P);
    if (st != FR_OK || (st = problem_finite(P, sealed)) != FR_OK)
        return st;
    return problem_domain(P, sealed);
}

static int noisy(const fr_fedepm_params *prm)
{
    return prm->noise == FR_NOISE_EQ39 || prm->noise == FR_NOISE_EQ27
        || prm->noise == FR_NOISE_CERT;
}

static int uses_delta(const fr_fedepm_params *prm)
{
    return prm->noise == FR_NOISE_EQ27 || prm->noise == FR_NOISE_CERT;
}

int fr_fedepm_check_fields(const fr_logreg *P, const fr_fedepm_params *prm,
                           const double *const *pos, size_t npos,
                           const unsigned long *const *count, size_t ncount)
{
    if ((npos > 0 && pos == NULL) || (ncount > 0 && count == NULL))
        return FR_ENULL;
    for (size_t k = 0; k < npos; k++)
        if (pos[k] == NULL)
            return FR_ENULL;
    for (size_t k = 0; k < ncount; k++)
        if (count[k] == NULL)
            return FR_ENULL;
    int st = null_and_sizes(P, prm);
    if (st != FR_OK)
        return st;
    const int sealed = fr_logreg_sealed(P);
    for (size_t k = 0; k < ncount; k++)
        if (*count[k] == 0 || *count[k] > FR_FEDEPM_ELL_MAX)
            return FR_ESIZE;
    /* non-finite: the problem, mu0, c, alpha (20)/(39), eps and Delta when
     * the noise rule uses them, the algorithm's own fields */
    if ((st = problem_finite(P, sealed)) != FR_OK)
        return st;
    if (!isfinite(prm->mu0) || !isfinite(prm->c) || !isfinite(prm->alpha)
        || !isfinite(prm->acct_delta))
        return FR_ENONFINITE;
    if (noisy(prm) && !isfinite(prm->eps))
        return FR_ENONFINITE;
    if (uses_delta(prm))
        for (size_t i = 0; i < P->m; i++)
            if (!isfinite(prm->Delta[i]))
                return FR_ENONFINITE;
    for (size_t k = 0; k < npos; k++)
        if (!isfinite(*pos[k]))
            return FR_ENONFINITE;
    /* domain */
    if ((st = problem_domain(P, sealed)) != FR_OK)
        return st;
    if (!(prm->mu0 > 0) || !(prm->c >= 0) || !(prm->alpha > 1)
        || !(prm->acct_delta >= 0 && prm->acct_delta < 1))
        return FR_EDOM;
    if (prm->noise != FR_NOISE_NONE && !noisy(prm))
        return FR_EDOM;
    if (noisy(prm) && !(prm->eps > 0))
        return FR_EDOM;
    if (prm->noise == FR_NOISE_CERT && (prm->c != 0 || prm->stopping != 0))
        return FR_EDOM;                       /* data-dependent mu or stopping */
    if (uses_delta(prm))
        for (size_t i = 0; i < P->m; i++)
            if (!(prm->Delta[i] > 0))
                return FR_EDOM;
    if (prm->stopping != 0 && prm->stopping != 1)
        return FR_EDOM;
    for (size_t k = 0; k < npos; k++)
        if (!(*pos[k] > 0))
            return FR_EDOM;
    return FR_OK;
}
