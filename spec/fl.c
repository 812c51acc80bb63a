/* fl.c -- the specification layer of 002's algorithms (fedref_fl.h):
 * argument checks, the selection size, the paper's bracket tau_k, and the
 * seeded synthetic problems.  Integer arithmetic and comparisons only. */
#include <limits.h>
#include <math.h>
#include "fedref_fl.h"

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

int fr_logreg_check(const fr_logreg *P)
{
    if (P == NULL || P->d == NULL || P->X == NULL || P->b == NULL)
        return FR_ENULL;
    if (P->m == 0 || P->n == 0)
        return FR_ESIZE;
    for (size_t i = 0; i < P->m; i++)
        if (P->d[i] == 0)
            return FR_ESIZE;
    size_t D = fr_logreg_samples(P);
    if (D == 0 || P->n > SIZE_MAX / 64 / D)   /* room for D x n mpfr_t as well */
        return FR_ESIZE;
    if (!isfinite(P->beta))
        return FR_ENONFINITE;
    for (size_t t = 0; t < D * P->n; t++)
        if (!isfinite(P->X[t]))
            return FR_ENONFINITE;
    for (size_t t = 0; t < D; t++)
        if (!isfinite(P->b[t]))
            return FR_ENONFINITE;
    if (!(P->beta > 0))
        return FR_EDOM;
    for (size_t t = 0; t < D; t++)
        if (P->b[t] != 0.0 && P->b[t] != 1.0)
            return FR_EDOM;
    return FR_OK;
}

static int finite_pos(double x)
{
    return !isfinite(x) ? FR_ENONFINITE : x > 0 ? FR_OK : FR_EDOM;
}

int fr_fl_check(const fr_logreg *P, const fr_fl_params *prm, int algo)
{
    int st;
    if (prm == NULL)
        return FR_ENULL;
    if ((st = fr_logreg_check(P)) != FR_OK)
        return st;
    if (prm->k0 == 0 || prm->rounds == 0 || prm->nsel == 0 || prm->nsel > P->m)
        return FR_ESIZE;
    if (prm->rounds > (ULONG_MAX - 1) / prm->k0)
        return FR_ESIZE;
    if (algo != 0 && algo != FR_ALGO_FEDEPM && algo != FR_ALGO_SFEDAVG && algo != FR_ALGO_SFEDPROX)
        return FR_EDOM;
    if (algo == 0)
        return FR_OK;
    /* mu0, c, alpha: (20) for FedEPM and (39) for every noisy upload */
    if ((st = finite_pos(prm->mu0)) != FR_OK || (st = finite_pos(prm->c)) != FR_OK)
        return st;
    if (!isfinite(prm->alpha))
        return FR_ENONFINITE;
    if (!(prm->alpha > 1))
        return FR_EDOM;
    if (algo == FR_ALGO_FEDEPM
        && ((st = finite_pos(prm->lambda)) != FR_OK || (st = finite_pos(prm->eta)) != FR_OK))
        return st;
    if (algo == FR_ALGO_SFEDPROX) {
        if ((st = finite_pos(prm->mu_prox)) != FR_OK)
            return st;
        if (prm->ell == 0)
            return FR_ESIZE;
    }
    if (prm->noise != FR_NOISE_NONE && prm->noise != FR_NOISE_EQ39 && prm->noise != FR_NOISE_EQ27)
        return FR_EDOM;
    if (prm->noise != FR_NOISE_NONE && (st = finite_pos(prm->eps)) != FR_OK)
        return st;
    if (prm->noise == FR_NOISE_EQ27) {
        if (prm->Delta == NULL)
            return FR_ENULL;
        for (size_t i = 0; i < P->m; i++)
            if ((st = finite_pos(prm->Delta[i])) != FR_OK)
                return st;
    }
    return FR_OK;
}

int fr_selection_size(double rho, size_t m, size_t *nsel)
{
    if (nsel == NULL)
        return FR_ENULL;
    if (m == 0)
        return FR_ESIZE;
    if (!isfinite(rho))
        return FR_ENONFINITE;
    if (!(rho > 0 && rho <= 1))
        return FR_EDOM;
    double p = round(rho * (double)m);    /* nearest, ties away from zero */
    size_t k = (size_t)p;
    *nsel = k < 1 ? 1 : k > m ? m : k;
    return FR_OK;
}

unsigned long fr_tau(unsigned long k, unsigned long k0)
{
    if (k0 == 0)
        return 0;
    return k / k0 + (k % k0 != 0);       /* ceil(k / k0): the paper's bracket */
}

int fr_synth_sizes(uint64_t seed, size_t m, size_t dmin, size_t dmax, size_t *d)
{
    if (d == NULL)
        return FR_ENULL;
    if (m == 0)
        return FR_ESIZE;
    if (dmin < 1 || dmin > dmax)
        return FR_EDOM;
    frng_t g;
    frng_init(&g, seed, 0);
    for (size_t i = 0; i < m; i++) {
        uint64_t r;
        frng_below(&g, (uint64_t)(dmax - dmin) + 1, &r);
        d[i] = dmin + (size_t)r;
    }
    return FR_OK;
}

int fr_synth_data(uint64_t seed, size_t m, size_t n, const size_t *d, double *X, double *b)
{
    if (d == NULL || X == NULL || b == NULL)
        return FR_ENULL;
    if (m == 0 || n == 0 || n > 4096)
        return FR_ESIZE;
    size_t D = 0;
    for (size_t i = 0; i < m; i++) {
        if (d[i] == 0 || d[i] > SIZE_MAX / n - D)
            return FR_ESIZE;
        D += d[i];
    }
    int s = 0;
    while (s < 31 && ((size_t)1 << (2 * s)) < D)   /* least s with 4^s >= D */
        s++;
    frng_t g;
    frng_init(&g, seed, 1);
    long wstar[4096];
    uint64_t r;
    for (size_t j = 0; j < n; j++) {
        frng_below(&g, 9, &r);
        wstar[j] = (long)r - 4;
    }
    for (size_t t = 0; t < D; t++) {
        long dot = 0;
        for (size_t j = 0; j < n; j++) {
            frng_below(&g, 2049, &r);
            long k = (long)r - 1024;
            dot += k * wstar[j];                  /* |dot| <= 4096 * 1024 * 4: exact */
            X[t * n + j] = ldexp((double)k, -(10 + s));
        }
        int y = dot > 0;
        frng_below(&g, 10, &r);
        if (r == 0)
            y = !y;
        b[t] = y;
    }
    return FR_OK;
}
