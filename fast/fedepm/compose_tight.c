/* SPDX-License-Identifier: Apache-2.0 */
/* compose_tight.c -- ff_dp_compose_tight_upper: the optimal composition of
 * k pure eps_j-DP releases in binary64 (the method of ref/fedepm/
 * compose_tight.c: every eps_j rounded up to a grid, the law of the
 * composed randomized-response loss built group by group, the least e with
 * delta(e) <= delta from suffix sums).  Outward rounding: ffi_next_up(x) =
 * nextafter(x, +Inf) after each correctly rounded + - * /, up4 (four
 * steps) after exp and log (glibc: under 4 ulps); dn the same downward for
 * the sums that enter with a minus sign (clamped at 0); a grid point h s
 * is bracketed by dn/up of its binary64 product.  Contract: fedfast.h. */
#include "fedfast.h"
#include "../internal.h"
#include "compose_tight.h"

#define TIGHT_K_MAX   ((size_t)1 << 16)
#define TIGHT_STEPS   64.0
#define TIGHT_KJ_MAX  4096.0
#define TIGHT_SUPPORT (1ul << 18)
#define TIGHT_WORK    (1ul << 27)

static double up4(double x) { return ffi_next_up(ffi_next_up(ffi_next_up(ffi_next_up(x)))); }
static double dn4(double x) { return ffi_next_down_clamp0(ffi_next_down_clamp0(ffi_next_down_clamp0(ffi_next_down_clamp0(x)))); }

typedef ffi_tight_group group;

static int cmp_ul(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

/* as make_groups of ref/fedepm/compose_tight.c */
static size_t make_groups(unsigned long *kj, group *g, unsigned long *sum, const double *eps,
                          size_t k, double h)
{
    size_t m = 0;
    unsigned long work = 0, supp = 0;
    *sum = 0;
    for (size_t j = 0; j < k; j++) {
        double q = eps[j] / h;
        if (q > TIGHT_KJ_MAX + 1) return 0;
        double c = ceil(q);                        /* then exactly ceil(eps_j / h) */
        while (c > 0 && fma(c - 1, h, -eps[j]) >= 0) c--;
        while (fma(c, h, -eps[j]) < 0) c++;
        if (c > TIGHT_KJ_MAX) return 0;
        kj[m] = (unsigned long)c;
        if (kj[m] > 0) m++;
    }
    qsort(kj, m, sizeof *kj, cmp_ul);
    size_t ng = 0;
    for (size_t j = 0; j < m; j++) {
        if (ng == 0 || g[ng - 1].k != kj[j]) g[ng++] = (group){kj[j], 0};
        g[ng - 1].n++;
        *sum += kj[j];
        if (*sum > TIGHT_SUPPORT) return 0;
    }
    for (size_t i = 0; i < ng; i++) {
        if (i > 0) {
            unsigned long w = (2 * supp + 1) * (g[i].n + 1);
            if (w > TIGHT_WORK - work) return 0;
            work += w;
        }
        supp += g[i].k * g[i].n;
    }
    return ng;
}

/* The weights of the binomial relative to its mode m (compose_tight.h):
 * w(m) = 1, the ratios e^{+-k h} (n-b)/(b+1) outward, rounded up into wu[]
 * and down into wl[]. */
unsigned long ffi_dp_tight_weights(double *wu, double *wl, unsigned long n, unsigned long kk, double h)
{
    const double xl = ffi_next_down_clamp0((double)kk * h), xu = ffi_next_up((double)kk * h);   /* around k h */
    const double rdu = up4(exp(-xl)), rdl = dn4(exp(-xu));         /* e^{-k h} */
    const double ruu = up4(exp(xu)), rul = dn4(exp(xl));           /* e^{+k h} */
    const double p = 1.0 / (1.0 + exp(-xl));
    unsigned long m = (unsigned long)floor((double)(n + 1) * p);
    if (m > n) m = n;
    ffi_dp_tight_steps(wu, wl, n, m, ruu, rul, rdu, rdl);
    return m;
}

/* The steps from the mode m outward with the ratios given (compose_tight.h) */
void ffi_dp_tight_steps(double *wu, double *wl, unsigned long n, unsigned long m, double ruu, double rul, double rdu,
                        double rdl)
{
    wu[m] = wl[m] = 1;
    for (unsigned long i = m; i < n; i++) {        /* b = i -> i + 1 */
        wu[i + 1] = ffi_next_up(ffi_next_up(ffi_next_up(wu[i] * ruu) * (double)(n - i)) / (double)(i + 1));
        wl[i + 1] = ffi_next_down_clamp0(ffi_next_down_clamp0(ffi_next_down_clamp0(wl[i] * rul) * (double)(n - i)) / (double)(i + 1));
    }
    for (unsigned long i = m; i > 0; i--) {        /* b = i -> i - 1 */
        wu[i - 1] = ffi_next_up(ffi_next_up(ffi_next_up(wu[i] * rdu) * (double)i) / (double)(n - i + 1));
        wl[i - 1] = ffi_next_down_clamp0(ffi_next_down_clamp0(ffi_next_down_clamp0(wl[i] * rdl) * (double)i) / (double)(n - i + 1));
    }
}

/* b[c] = wu[c] / sum wl rounded up, in place of wu (compose_tight.h) */
void ffi_dp_tight_normalise(double *b, const double *wl, unsigned long n)
{
    double z = 0;
    for (unsigned long i = 0; i <= n; i++) z = ffi_next_down_clamp0(z + wl[i]);
    for (unsigned long i = 0; i <= n; i++) b[i] = ffi_next_up(b[i] / z);
}

/* upper bounds of C(n, b) p^b (1-p)^(n-b), p = 1/(1 + e^{-k h}), into
 * b[] (lo[]: scratch): P(b) <= w_up(b) / sum w_lo (p^n itself would
 * underflow for large n). */
static void binomial_up(double *b, double *lo, unsigned long n, unsigned long kk, double h)
{
    ffi_dp_tight_weights(b, lo, n, kk, h);
    ffi_dp_tight_normalise(b, lo, n);
}

/* <= e^{J h} (compose_tight.h) */
double ffi_dp_tight_exp_lo(unsigned long J, double h)
{
    return dn4(exp(ffi_next_down_clamp0((double)J * h)));
}

/* <= b + E p (compose_tight.h) */
double ffi_dp_tight_bstep(double b, double E, double p)
{
    return ffi_next_down_clamp0(b + ffi_next_down_clamp0(E * p));
}

/* >= a - E b (compose_tight.h) */
double ffi_dp_tight_dminus(double a, double E, double b)
{
    return ffi_next_up(a - ffi_next_down_clamp0(E * b));
}

static double delta_at(const double *A, const double *B, unsigned long J, unsigned long sum,
                       double h)
{
    if (J + 1 > sum) return 0;
    return ffi_dp_tight_dminus(A[J + 1], ffi_dp_tight_exp_lo(J, h), B[J + 1]);
}

/* P[s + sum] >= the masses of S (compose_tight.h) */
void ffi_dp_tight_law(double *P, double *Q, double *b, double *bl, const group *g, size_t ng, unsigned long sum,
                      double h)
{
    P[sum] = 1;
    size_t lo = sum, hi = sum;
    for (size_t i = 0; i < ng; i++) {
        const unsigned long kk = g[i].k, n = g[i].n;
        binomial_up(b, bl, n, kk, h);
        for (size_t x = lo; x <= hi; x++) {
            if (P[x] == 0) continue;
            for (unsigned long c = 0; c <= n; c++) {
                size_t y = x + 2 * c * kk - n * kk;
                Q[y] = ffi_next_up(Q[y] + ffi_next_up(P[x] * b[c]));
            }
        }
        lo -= n * kk;
        hi += n * kk;
        for (size_t x = lo; x <= hi; x++) {
            P[x] = Q[x];
            Q[x] = 0;
        }
    }
}

/* the least e >= 0 with D(e) <= delta, rounded up (compose_tight.h) */
double ffi_dp_tight_least(double *A, double *B, const double *P, unsigned long sum, double h, double delta)
{
    A[sum + 1] = B[sum + 1] = 0;
    for (unsigned long s = sum; s >= 1; s--) {
        A[s] = ffi_next_up(A[s + 1] + P[sum + s]);
        B[s] = ffi_dp_tight_bstep(B[s + 1], dn4(exp(-ffi_next_up((double)s * h))), P[sum + s]);
    }
    if (delta_at(A, B, 0, sum, h) <= delta) return 0;
    unsigned long a = 0, c = sum;
    while (c - a > 1) {
        unsigned long m = a + (c - a) / 2;
        if (delta_at(A, B, m, sum, h) <= delta) c = m; else a = m;
    }
    return ffi_dp_tight_cell(A[c], B[c], delta, c, h);
}

/* the least e in the cell (compose_tight.h) */
double ffi_dp_tight_cell(double a, double b, double delta, unsigned long c, double h)
{
    double t = ffi_next_up(a - delta), e;
    /* the cell [h (c-1), h c], its ends rounded up (delta is decreasing) */
    const double top = ffi_next_up((double)c * h), bot = ffi_next_up((double)(c - 1) * h);
    if (t <= 0 || b == 0) {
        e = top;
    } else {
        e = up4(log(ffi_next_up(t / b)));
        if (e < bot) e = bot;
        if (e > top) e = top;
    }
    return ffi_next_up(e);                                  /* a margin over ref's rounding */
}

int ff_dp_compose_tight_upper(double *eps, const double *epsj, size_t k, double delta)
{
    if (eps == NULL || epsj == NULL)
        return FR_ENULL;
    if (k == 0 || k > TIGHT_K_MAX)
        return FR_ESIZE;
    if (!isfinite(delta))
        return FR_ENONFINITE;
    int inf = 0;
    for (size_t j = 0; j < k; j++) {
        if (isnan(epsj[j]) || epsj[j] == -INFINITY)
            return FR_ENONFINITE;
        inf |= isinf(epsj[j]);
    }
    for (size_t j = 0; j < k; j++)
        if (epsj[j] < 0)
            return FR_EDOM;
    if (!(delta > 0 && delta < 1))
        return FR_EDOM;
    if (inf) {
        *eps = INFINITY;
        return FR_OK;
    }
    double emin = 0, emax = 0, tot = 0;
    for (size_t j = 0; j < k; j++) {
        if (epsj[j] == 0) continue;
        if (emin == 0 || epsj[j] < emin) emin = epsj[j];
        if (epsj[j] > emax) emax = epsj[j];
        tot = ffi_next_up(tot + epsj[j]);
    }
    if (emax == 0) {
        *eps = 0;
        return FR_OK;
    }
    /* ref's grid: both divisions are by powers of 2, exact (emin is taken
     * at least 2^-900, far above the subnormals) */
    if (emin < 0x1p-900) emin = 0x1p-900;
    double h = emin / TIGHT_STEPS;
    if (emax / (TIGHT_KJ_MAX / 2) > h) h = emax / (TIGHT_KJ_MAX / 2);
    unsigned long *kj = malloc(k * sizeof *kj), sum = 0;
    group *g = malloc(k * sizeof *g);
    double *P = NULL, *Q = NULL, *A = NULL, *B = NULL, *b = NULL, *bl = NULL;
    int st = FR_OK;
    if (kj == NULL || g == NULL) { st = FR_ENOMEM; goto out; }
    size_t ng;
    while ((ng = make_groups(kj, g, &sum, epsj, k, h)) == 0)
        h *= 2;
    const size_t len = 2 * (size_t)sum + 1;
    unsigned long nmax = 0;
    for (size_t i = 0; i < ng; i++) nmax = g[i].n > nmax ? g[i].n : nmax;
    P = calloc(len, sizeof *P);
    Q = calloc(len, sizeof *Q);
    A = calloc(sum + 2, sizeof *A);
    B = calloc(sum + 2, sizeof *B);
    b = malloc((nmax + 1) * sizeof *b);
    bl = malloc((nmax + 1) * sizeof *bl);
    if (P == NULL || Q == NULL || A == NULL || B == NULL || b == NULL || bl == NULL) { st = FR_ENOMEM; goto out; }
    ffi_dp_tight_law(P, Q, b, bl, g, ng, sum, h);
    *eps = ffi_dp_tight_least(A, B, P, sum, h, delta);
    if (tot < *eps) *eps = tot;                    /* the basic sum, as ref */
out:
    free(kj); free(g); free(P); free(Q); free(A); free(B); free(b); free(bl);
    return st;
}
