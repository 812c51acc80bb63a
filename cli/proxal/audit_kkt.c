/* SPDX-License-Identifier: Apache-2.0 */
/* audit_kkt.c -- module proxal's section of `fedref audit`: the KKT
 * residuals of 004 Definition 1, ref (MPFR, RU at 53 and 256 bits) against
 * fast (a binary64 upper bound), on seeded random instances of four kinds:
 *   small     d <= 6, m <= 4, every branch (h = 0, l1, box; w on kinks and
 *             faces; mu = 0 and > 0), moderate magnitudes;
 *   cancel    grad_f_k = -fl(J_k1 mu_1): r_k is a rounding error;
 *   kkt       exact KKT pairs (both residuals 0);
 *   large     d = 200, m = 50 (r_k a sum of 51 terms).
 * A row fails when fast is below the exact residual (fast < ref RU_53,
 * which is the least binary64 >= the exact value), or fast - exact exceeds
 * ff_proxal_kkt_bound's abs1, or eps2 differs.  Shown: the largest relative
 * gap (fast - ref)/ref over nonzero ref, the largest (fast - ref)/abs1 (how
 * much of the proved bound is used), and fast's eps1 on the exact pairs
 * (where ref is 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "../cli.h"
#include "audit_registry.h"
#include "fedref.h"
#include "fedfast.h"

#define NKIND 4

typedef struct {
    size_t d, m;
    int h;
    double *g, *J, *c, *mu, *w, *lo, *hi, gamma;
} kinst;

static double rnd(frng_t *G, unsigned bits, int emin, int emax)
{
    uint64_t k, e, s;
    frng_below(G, (uint64_t)1 << bits, &k);
    frng_below(G, (uint64_t)(emax - emin + 1), &e);
    frng_below(G, 2, &s);
    return (s ? -1.0 : 1.0) * ldexp((double)k, emin + (int)e - (int)bits);
}

static uint64_t below(frng_t *G, uint64_t n)
{
    uint64_t r;
    frng_below(G, n, &r);
    return r;
}

/* A random instance of kind `kind` into K (arrays of room d m). */
static void draw(kinst *K, frng_t *G, int kind)
{
    size_t d = kind == 3 ? 200 : 1 + below(G, 6), m = kind == 3 ? 50 : below(G, 5);
    if (kind == 1 && m == 0) m = 1;
    K->d = d;
    K->m = m;
    K->h = (int)below(G, 3);
    K->gamma = fabs(rnd(G, 8, -3, 3));
    int small = kind == 2;                         /* exact pairs: short dyadics */
    for (size_t j = 0; j < m; j++) {
        K->mu[j] = below(G, 3) == 0 ? 0.0 : fabs(small ? rnd(G, 6, -2, 2) : rnd(G, 24, -6, 6));
        K->c[j] = small ? (K->mu[j] > 0 ? 0.0 : -fabs(rnd(G, 6, -2, 2))) : rnd(G, 30, -6, 6);
    }
    for (size_t k = 0; k < d; k++) {
        for (size_t j = 0; j < m; j++) K->J[k * m + j] = small ? rnd(G, 6, -2, 2) : rnd(G, 40, -6, 6);
        K->g[k] = rnd(G, 50, -6, 6);
        uint64_t t = below(G, 3);
        K->w[k] = t == 0 ? 0.0 : rnd(G, 10, -2, 2);
        double a = rnd(G, 10, -2, 2), b = rnd(G, 10, -2, 2);
        K->lo[k] = fmin(a, b);
        K->hi[k] = below(G, 6) == 0 ? K->lo[k] : fmax(a, b);
        if (K->h == FR_PROXAL_H_BOX) {
            t = below(G, 3);
            K->w[k] = t == 0 ? K->lo[k] : t == 1 ? K->hi[k] : K->lo[k] / 2 + K->hi[k] / 2;
        }
        if (kind == 1)
            K->g[k] = -(K->J[k * m] * K->mu[0]);
        if (kind == 2) {                           /* grad_f = -J mu - z, z in dh(w) */
            double z = 0, s = fabs(rnd(G, 6, -2, 2));
            if (K->h == FR_PROXAL_H_L1)
                z = K->w[k] > 0 ? K->gamma : K->w[k] < 0 ? -K->gamma : fmin(s, K->gamma);
            else if (K->h == FR_PROXAL_H_BOX)
                z = K->lo[k] == K->hi[k] ? rnd(G, 6, -2, 2) : K->w[k] == K->lo[k] ? -s : K->w[k] == K->hi[k] ? s : 0;
            for (size_t j = 0; j < m; j++) z += K->J[k * m + j] * K->mu[j];   /* exact: short dyadics */
            K->g[k] = -z;
        }
    }
}

/* ref at precision p; 0 on success. */
static int ref_at(mpfr_t e1, mpfr_t e2, const kinst *K)
{
    size_t d = K->d, m = K->m;
    mpfr_t *all = malloc((4 * d + d * m + 2 * m + 1) * sizeof *all);
    if (all == NULL) return FR_ENOMEM;
    mpfr_t *g = all, *w = g + d, *lo = w + d, *hi = lo + d, *J = hi + d, *c = J + d * m, *mu = c + m, *gm = mu + m;
    const double *src[7] = {K->g, K->w, K->lo, K->hi, K->J, K->c, K->mu};
    size_t len[7] = {d, d, d, d, d * m, m, m};
    size_t q = 0;
    for (int a = 0; a < 7; a++)
        for (size_t i = 0; i < len[a]; i++, q++) { mpfr_init2(all[q], 53); mpfr_set_d(all[q], src[a][i], MPFR_RNDN); }
    mpfr_init2(gm[0], 53);
    mpfr_set_d(gm[0], K->gamma, MPFR_RNDN);
    int st = fr_proxal_kkt(e1, e2, g, d, m ? J : NULL, m, m ? c : NULL, m ? mu : NULL, w, K->h, gm[0], lo, hi);
    for (size_t i = 0; i <= q; i++) mpfr_clear(all[i]);
    free(all);
    return st;
}

int audit_proxal_kkt(uint64_t seed)
{
    static const char *const NAME[NKIND] = {"small", "cancel", "kkt", "large"};
    static const unsigned long N[NKIND] = {4000, 2000, 2000, 100};
    const size_t DM = 200, MM = 50;
    kinst K;
    K.g = malloc(DM * sizeof *K.g); K.w = malloc(DM * sizeof *K.w);
    K.lo = malloc(DM * sizeof *K.lo); K.hi = malloc(DM * sizeof *K.hi);
    K.J = malloc(DM * MM * sizeof *K.J); K.c = malloc(MM * sizeof *K.c); K.mu = malloc(MM * sizeof *K.mu);
    if (!K.g || !K.w || !K.lo || !K.hi || !K.J || !K.c || !K.mu) {
        free(K.g); free(K.w); free(K.lo); free(K.hi); free(K.J); free(K.c); free(K.mu);
        printf("\nKKT residuals: out of memory\n");
        return 1;
    }
    int failures = 0;
    mpfr_t r1, r2, s1, s2, t;
    mpfr_inits2(53, r1, r2, (mpfr_ptr)0);
    mpfr_inits2(256, s1, s2, t, (mpfr_ptr)0);
    printf("\nKKT residuals of 004 Definition 1 (proxal_kkt): fast (binary64 upper bound) vs ref (RU at 53 and 256 bits)\n");
    printf("  %-7s %6s %6s %12s %12s %12s %s\n", "kind", "cases", "fails", "max rel gap", "max gap/abs", "max fast@KKT",
           "fast >= exact");
    for (int kind = 0; kind < NKIND; kind++) {
        frng_t G;
        frng_init(&G, seed, 0x6b6b7400 + (uint64_t)kind);
        unsigned long fails = 0, below_exact = 0;
        double maxrel = 0, maxfrac = 0, maxkkt = 0;
        for (unsigned long i = 0; i < N[kind]; i++) {
            draw(&K, &G, kind);
            double f1, f2, a1, a2;
            int sr = ref_at(r1, r2, &K) | ref_at(s1, s2, &K);
            int sf = ff_proxal_kkt(&f1, &f2, K.g, K.d, K.J, K.m, K.c, K.mu, K.w, K.h, K.gamma, K.lo, K.hi);
            int sb = ff_proxal_kkt_bound(&a1, &a2, K.g, K.d, K.J, K.m, K.c, K.mu, K.w, K.h, K.gamma, K.lo, K.hi);
            if (sr != FR_OK || sf != FR_OK || sb != FR_OK) { fails++; continue; }
            int bad = mpfr_cmp_d(r1, f1) > 0;        /* fast below RU_53(exact): below exact */
            below_exact += bad;
            mpfr_set_d(t, f1, MPFR_RNDN);
            mpfr_sub(t, t, s1, MPFR_RNDU);           /* fast - RU_256(exact) <= fast - exact */
            double gap = mpfr_get_d(t, MPFR_RNDU);
            if (gap > a1) bad = 1;
            if (mpfr_cmp_d(r2, f2) != 0) bad = 1;
            if (kind == 2 && (!mpfr_zero_p(s1) || !mpfr_zero_p(s2))) bad = 1;   /* exact pairs give 0 */
            fails += bad;
            double ref = mpfr_get_d(s1, MPFR_RNDN);
            if (ref > 0 && gap / ref > maxrel) maxrel = gap / ref;
            if (a1 > 0 && gap / a1 > maxfrac) maxfrac = gap / a1;
            if (kind == 2 && f1 > maxkkt) maxkkt = f1;
        }
        failures += fails != 0;
        printf("  %-7s %6lu %6lu %12.3g %12.3g %12.3g %s\n", NAME[kind], N[kind], fails, maxrel, maxfrac,
               maxkkt, below_exact ? "NO" : "yes");
    }
    printf("  rel gap = (fast - ref)/ref over nonzero ref; gap/abs: the share of ff_proxal_kkt_bound's abs1 used;\n"
           "  fast@KKT: fast's eps1 at exact KKT pairs (ref: 0); eps2 is exact in both\n");
    mpfr_clears(r1, r2, s1, s2, t, (mpfr_ptr)0);
    free(K.g); free(K.w); free(K.lo); free(K.hi); free(K.J); free(K.c); free(K.mu);
    return failures;
}
