/* SPDX-License-Identifier: Apache-2.0 */
/* pld.c -- ff_fedpdm_pld_rounds: fr_fedpdm_pld_rounds in binary64 (the
 * same construction, grid rule and bounds: ref/fedpdm/pld.c's header;
 * contract: fedfast/fedpdm.h).  Every computed quantity is widened by the
 * outward factors of acct.h (2^-50 after + - * / sqrt, 2^-40 after a libm
 * call), in the direction that raises eps (lowers eps_lower); the FFT is
 * a plain iterative radix-2 in binary64, its error bounded by Higham 2002
 * Thm 24.2 with u = 2^-53 and the twiddle error mu = 2^-39 (cos, sin
 * within 2^-40 relative, the angle within 2^-49). */
#include <math.h>
#include <stdlib.h>
#include "../internal.h"
#include "fedfast/fedpdm.h"
#include "acct.h"
#include "pld.h"

#define PLD_S_MAX ((size_t)1 << 19)
#define PLD_M_MAX 2048ul
#define PLD_PI 3.14159265358979323846

typedef struct {
    unsigned long T, m;
    int sub;
    double s, sigma;
} grp;

typedef ffi_pld_ctx ctx;

static void ctx_group(ctx *c, const grp *g, unsigned long K, unsigned long N)
{
    c->alo = ffi_pad_down(g->s / g->sigma, R_OP);
    c->ahi = ffi_pad_up(g->s / g->sigma, R_OP);
    if (!g->sub) {
        c->qlo = c->qhi = 1;
        c->plo = c->phi = 0;
        return;
    }
    const double q = (double)K / (double)N;     /* K, N < 2^53 assumed exact; else +- 2^-50 covers */
    c->qlo = ffi_pad_down(q, R_OP);
    c->qhi = ffi_pad_up(q, R_OP);
    c->plo = ffi_pad_down(1 - c->qhi, R_OP);
    c->phi = ffi_pad_up(1 - c->qlo, R_OP);
    if (c->plo < 0)
        c->plo = 0;
}

/* Phi(x) bounded above (dir > 0) or below, x a bound in the same direction */
static double phi_dir(double x, int dir)
{
    if (x == -INFINITY)
        return 0;
    double y = x * 0.70710678118654752440;
    if (dir > 0) {
        y = -ffi_pad_up(y, 0x1p-49);
        return ffi_pad_up(0.5 * erfc(y), R_LM);
    }
    y = -ffi_pad_down(y, 0x1p-49);
    double r = ffi_pad_down(0.5 * erfc(y), R_LM);
    return r > 0 ? r : 0;
}

/* dG(x) = Phi(a/2 - x/a) - e^x Phi(-a/2 - x/a), increasing in a, decreasing
 * in x >= 0: the upper bound at (x, ahi) (dir > 0) or the lower at (x, alo) */
static double dg_dir(double x, int dir, const ctx *c)
{
    if (x < 0)
        x = 0;                                  /* the exact argument is >= 0 */
    double r;
    if (dir > 0) {
        const double a = c->ahi;
        double x1 = ffi_pad_up(a / 2 - ffi_pad_down(x / a, R_OP), R_OP);
        double z = ffi_pad_up(a / 2 + ffi_pad_up(x / a, R_OP), R_OP);
        double t2 = ffi_pad_down(ffi_pad_down(exp(x), R_LM) * phi_dir(-z, -1), R_OP);
        r = ffi_pad_up(phi_dir(x1, 1) - t2, R_OP);
        if (r > 1)
            r = 1;
    } else {
        const double a = c->alo;
        double x1 = ffi_pad_down(a / 2 - ffi_pad_up(x / a, R_OP), R_OP);
        double z = ffi_pad_down(a / 2 + ffi_pad_down(x / a, R_OP), R_OP);
        double t2 = ffi_pad_up(ffi_pad_up(exp(x), R_LM) * phi_dir(-z, 1), R_OP);
        r = ffi_pad_down(phi_dir(x1, -1) - t2, R_OP);
        if (r < 0)
            r = 0;
    }
    return r;
}

/* H(e) enclosed in [*lo, *hi], e >= 0 exact, t in [tl, th] encloses e^e */
static void h_encl(double *lo, double *hi, double e, double tl, double th, int sub, const ctx *c)
{
    if (!sub) {
        *lo = dg_dir(e, -1, c);
        *hi = dg_dir(e, 1, c);
        return;
    }
    double v = ffi_pad_down(tl - 1, R_OP);
    v = ffi_pad_down(v / (v >= 0 ? c->qhi : c->qlo), R_OP);
    double xl = ffi_pad_down(log1p(v), R_LM);
    v = ffi_pad_up(th - 1, R_OP);
    v = ffi_pad_up(v / (v >= 0 ? c->qlo : c->qhi), R_OP);
    double xh = ffi_pad_up(log1p(v), R_LM);
    double al = ffi_pad_down(c->qlo * dg_dir(xh, -1, c), R_OP), ah = ffi_pad_up(c->qhi * dg_dir(xl, 1, c), R_OP);
    double cl = ffi_pad_down(1 - ffi_pad_up(c->phi * th, R_OP), R_OP), ch = ffi_pad_up(1 - ffi_pad_down(c->plo * tl, R_OP), R_OP);
    double bl = 0, bh = 0;
    if (ch > 0 && !(cl > 0)) {
        bh = ch;
    } else if (cl > 0) {
        xl = ffi_pad_down(log(ffi_pad_down(ffi_pad_down(c->qlo * tl, R_OP) / ch, R_OP)), R_LM);
        xh = ffi_pad_up(log(ffi_pad_up(ffi_pad_up(c->qhi * th, R_OP) / cl, R_OP)), R_LM);
        bl = ffi_pad_down(cl * dg_dir(xh, -1, c), R_OP);
        bh = ffi_pad_up(ch * dg_dir(xl, 1, c), R_OP);
    }
    *lo = al > bl ? al : bl;
    *hi = ah > bh ? ah : bh;
}

static double h_upper(double e, int sub, const ctx *c)
{
    double lo, hi;
    h_encl(&lo, &hi, e, ffi_pad_down(exp(e), R_LM), ffi_pad_up(exp(e), R_LM), sub, c);
    return hi;
}

static double tail_point(double tol, int sub, const ctx *c)
{
    double e = 0x1p-40;
    while (!(h_upper(e, sub, c) <= tol) && e <= 0x1p20)
        e *= 2;
    double lo = e / 2;
    for (int k = 0; k < 8; k++) {
        double L = lo + (e - lo) / 2;
        if (h_upper(L, sub, c) <= tol)
            e = L;
        else
            lo = L;
    }
    return e;
}

/* the chord's masses from Hl[i] <= H(e_i) <= Hh[i], al[i] <= a_i <= ah[i]
 * into x[0..2m], *winf = Hh[m]; FR_EINTERNAL if w_0 is certified negative */
static int chord(double *x, double *winf, unsigned long m, const double *Hl, const double *Hh, const double *al,
                 const double *ah)
{
    double nl = 0, nh = 0, sum = 0;
    for (unsigned long i = m; i >= 1; i--) {
        const double d1 = ffi_pad_down(al[i] - ah[i - 1], R_OP), d2 = ffi_pad_up(ah[i] - al[i - 1], R_OP);
        const double tl = ffi_pad_down(Hl[i] - Hh[i - 1], R_OP), th = ffi_pad_up(Hh[i] - Hl[i - 1], R_OP);
        double sl = -INFINITY, sh = INFINITY;
        if (d1 > 0) {
            sl = ffi_pad_down(tl / (tl >= 0 ? d2 : d1), R_OP);
            sh = ffi_pad_up(th / (th >= 0 ? d1 : d2), R_OP);
        }
        double Dl = ffi_pad_down(nl - sh, R_OP), Dh = ffi_pad_up(nh - sl, R_OP);
        if (!(Dl > 0))
            Dl = 0;
        x[m - i] = Dh;
        x[m + i] = ffi_pad_up(Dh * ah[i], R_OP);
        sum = ffi_pad_down(sum + Dl, R_OP);
        sum = ffi_pad_down(sum + ffi_pad_down(Dl * al[i], R_OP), R_OP);
        nl = sl;
        nh = sh;
    }
    *winf = Hh[m];
    sum = ffi_pad_down(sum + Hl[m], R_OP);
    x[m] = ffi_pad_up(1 - sum, R_OP);
    return x[m] < 0 || !isfinite(x[m]) ? FR_EINTERNAL : FR_OK;
}

int ffi_pdm_pld_chord(double *x, double *winf, unsigned long m, const double *Hl, const double *Hh, const double *al,
                      const double *ah)
{
    return chord(x, winf, m, Hl, Hh, al, ah);
}

/* the upper PMF into x[0..2m]; FR_EINTERNAL if w_0 is certified negative */
static int pmf_upper(double *x, double *winf, unsigned long m, int sub, const ctx *c, double *ws)
{
    double *Hl = ws, *Hh = ws + (m + 1), *al = ws + 2 * (m + 1), *ah = ws + 3 * (m + 1);
    for (unsigned long i = 0; i <= m; i++) {
        const double e = c->h * (double)i;     /* exact */
        al[i] = ffi_pad_down(exp(e), R_LM);
        ah[i] = ffi_pad_up(exp(e), R_LM);
        if (i == 0)
            al[i] = ah[i] = 1;
        h_encl(&Hl[i], &Hh[i], e, al[i], ah[i], sub, c);
    }
    return chord(x, winf, m, Hl, Hh, al, ah);
}

int ffi_pdm_pld_pmf_upper(double *x, double *winf, unsigned long m, int sub, const ffi_pld_ctx *c, double *ws)
{
    return pmf_upper(x, winf, m, sub, c, ws);
}

static void thresh(double *xl, double *xh, double g, const ctx *c)
{
    for (int dir = -1; dir <= 1; dir += 2) {
        double t = dir > 0 ? ffi_pad_up(exp(g), R_LM) : ffi_pad_down(exp(g), R_LM), r;
        t = dir > 0 ? ffi_pad_up(t - c->plo, R_OP) : ffi_pad_down(t - c->phi, R_OP);
        if (!(t > 0)) {
            r = -INFINITY;
        } else {
            t = dir > 0 ? ffi_pad_up(t / c->qlo, R_OP) : ffi_pad_down(t / c->qhi, R_OP);
            t = dir > 0 ? ffi_pad_up(log(t), R_LM) : ffi_pad_down(log(t), R_LM);
            const double a = dir > 0 ? c->ahi : c->alo;
            const double z = dir > 0 ? ffi_pad_up(t + ffi_pad_up(a * a / 2, R_OP), R_OP) : ffi_pad_down(t + ffi_pad_down(a * a / 2, R_OP), R_OP);
            if (dir > 0)
                r = ffi_pad_up(z / (z >= 0 ? c->alo : c->ahi), R_OP);
            else
                r = ffi_pad_down(z / (z >= 0 ? c->ahi : c->alo), R_OP);
        }
        *(dir > 0 ? xh : xl) = r;
    }
}

static double cdf_dir(double x, int order, int dir, const ctx *c)
{
    double u = phi_dir(x, dir);
    if (order != 1)
        return u;
    if (dir > 0)
        return ffi_pad_up(ffi_pad_up(c->phi * u, R_OP) + ffi_pad_up(c->qhi * phi_dir(x == -INFINITY ? x : ffi_pad_up(x - c->alo, R_OP), 1), R_OP),
                  R_OP);
    return ffi_pad_down(ffi_pad_down(c->plo * u, R_OP) + ffi_pad_down(c->qlo * phi_dir(x == -INFINITY ? x : ffi_pad_down(x - c->ahi, R_OP), -1), R_OP),
              R_OP);
}

/* a - b (a a lower bound of the larger CDF value, b an upper bound of the
 * smaller), or at the top 1 - b (order 1) or a (order 2), down, clamped at 0 */
static double cell_mass(double a, double b, int top, int order)
{
    const double v = !top ? ffi_pad_down(a - b, R_OP) : order == 1 ? ffi_pad_down(1 - b, R_OP) : a;
    return v > 0 ? v : 0;
}

static void pmf_lower(double *x, unsigned long m, int order, const ctx *c)
{
    double prev = 0;
    for (long j = (long)m; j >= -(long)m; j--) {
        double xl, xh, cur;
        thresh(&xl, &xh, c->h * (double)(order == 1 ? j : -j), c);
        if (order == 1) {
            cur = cdf_dir(xh, 1, 1, c);
            x[m + j] = cell_mass(prev, cur, j == (long)m, 1);
            prev = cdf_dir(xl, 1, -1, c);
        } else {
            cur = cdf_dir(xl, 2, -1, c);
            x[m + j] = cell_mass(cur, prev, j == (long)m, 2);
            prev = cdf_dir(xh, 2, 1, c);
        }
    }
}

static void fft(double *re, double *im, size_t n, int inverse, const double *wr, const double *wi)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t b = n >> 1;
        for (; j & b; b >>= 1)
            j ^= b;
        j ^= b;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        const size_t half = len / 2, stride = n / len;
        for (size_t i = 0; i < n; i += len)
            for (size_t j = 0; j < half; j++) {
                const double a = wr[j * stride], d = inverse ? -wi[j * stride] : wi[j * stride];
                const size_t p = i + j, q = p + half;
                const double tr = a * re[q] - d * im[q], ti = a * im[q] + d * re[q];
                re[q] = re[p] - tr;
                im[q] = im[p] - ti;
                re[p] += tr;
                im[p] += ti;
            }
    }
}

/* (M, E) as ref's err_mul: r4 = 4u sqrt(n) */
static void err_mul(double *M, double *E, double M2, double E2, double r4)
{
    double r = ffi_pad_up(ffi_pad_up(ffi_pad_up(*M + *E, R_OP) * ffi_pad_up(M2 + E2, R_OP), R_OP) * r4, R_OP);
    r = ffi_pad_up(r + ffi_pad_up(*M * E2, R_OP), R_OP);
    *E = ffi_pad_up(r + ffi_pad_up(ffi_pad_up(M2 + E2, R_OP) * *E, R_OP), R_OP);
    *M = ffi_pad_up(*M * M2, R_OP);
}

static void err_pow(double *M, double *E, unsigned long T, double r4)
{
    double rM = 1, rE = 0, bM = *M, bE = *E;
    for (;;) {
        if (T & 1)
            err_mul(&rM, &rE, bM, bE, r4);
        T >>= 1;
        if (T == 0)
            break;
        double m = bM, e = bE;
        err_mul(&bM, &bE, m, e, r4);
    }
    *M = rM;
    *E = rE;
}

static void cpow_ui(double *zr, double *zi, unsigned long T)
{
    double rr = 1, ri = 0, br = *zr, bi = *zi;
    for (;;) {
        if (T & 1) {
            const double a = rr * br - ri * bi, b = rr * bi + ri * br;
            rr = a, ri = b;
        }
        T >>= 1;
        if (T == 0)
            break;
        const double a = br * br - bi * bi, b = 2 * br * bi;
        br = a, bi = b;
    }
    *zr = rr, *zi = ri;
}

/* M1 >= sum x_k, X2 >= sqrt(sum x_k^2), x_k >= 0 */
static void norms(double *M1, double *X2, const double *x, size_t len)
{
    double m = 0, q = 0;
    for (size_t k = 0; k < len; k++) {
        m = ffi_pad_up(m + x[k], R_OP);
        q = ffi_pad_up(q + ffi_pad_up(x[k] * x[k], R_OP), R_OP);
    }
    *M1 = m;
    *X2 = ffi_pad_up(sqrt(q), R_OP);
}

/* sqrt(n), up */
static double sqrt_up(size_t n)
{
    return ffi_pad_up(sqrt((double)n), R_OP);
}

/* c sqrt(n) X2, up */
static double spec_err(double cn, size_t n, double X2)
{
    return ffi_pad_up(ffi_pad_up(cn * sqrt_up(n), R_OP) * X2, R_OP);
}

/* E/sqrt n + c (M + E/sqrt n) + sqrt(n) 2^-1070 (the exact products' underflow), up */
static double ew_bound(double M, double E, double cn, size_t n)
{
    const double sq = sqrt_up(n);
    E = ffi_pad_up(E / ffi_pad_down(sqrt((double)n), R_OP), R_OP);
    return ffi_pad_up(ffi_pad_up(E + ffi_pad_up(cn * ffi_pad_up(M + E, R_OP), R_OP), R_OP) + ffi_pad_up(sq * 0x1p-1070, R_OP), R_OP);
}

/* Thm 24.2's c = L eta / (1 - L eta), eta = mu + gamma_4 (sqrt2 + mu), u = 2^-53, mu = 2^-39,
 * and r4 = 4u sqrt(n), up */
static void fft_consts(double *cn, double *r4, size_t n)
{
    double L = 0;
    while (((size_t)1 << (size_t)L) < n) L++;
    const double u = 0x1p-53, mu = 0x1p-39, g4 = ffi_pad_up(4 * u / (1 - 4 * u), R_OP);
    const double eta = ffi_pad_up(mu + ffi_pad_up(g4 * ffi_pad_up(1.4142135623730951 + mu, R_OP), R_OP), R_OP);
    const double Le = ffi_pad_up(L * eta, R_OP);
    *cn = ffi_pad_up(Le / ffi_pad_down(1 - Le, R_OP), R_OP);
    *r4 = ffi_pad_up(ffi_pad_up(sqrt((double)n), R_OP) * 4 * u, R_OP);
}

/* W_inf = 1 - prod_g (1 - winf_g)^{T_g}, up */
static double winf_up(const double *winf, const unsigned long *T, size_t ng)
{
    double P = 1;
    for (size_t g = 0; g < ng; g++)
        P = ffi_pad_down(P * ffi_pad_down(pow(ffi_pad_down(1 - winf[g], R_OP), (double)T[g]), R_LM), R_OP);
    return ffi_pad_up(1 - P, R_OP);
}

typedef struct {
    size_t n;
    double *re, *im, *wre, *wim, *wr, *wi, *ws, cn, r4, EW;
} ffft;

static int compose(ffft *f, grp *gr, size_t ng, int order, ctx *c, unsigned long K, unsigned long N,
                   double *winf)
{
    const size_t n = f->n;
    double M = 1, E = 0;
    int first = 1;
    for (size_t g = 0; g < ng; g++) {
        double *xr = first ? f->re : f->wre, *xi = first ? f->im : f->wim;
        for (size_t k = 0; k < n; k++)
            xr[k] = xi[k] = 0;
        ctx_group(c, &gr[g], K, N);
        if (order == 0) {
            int st = pmf_upper(xr, &winf[g], gr[g].m, gr[g].sub, c, f->ws);
            if (st != FR_OK)
                return st;
        } else
            pmf_lower(xr, gr[g].m, order, c);
        double M1, X2;
        norms(&M1, &X2, xr, 2 * gr[g].m + 1);
        fft(xr, xi, n, 0, f->wr, f->wi);
        double E1 = spec_err(f->cn, n, X2);
        for (size_t k = 0; k < n; k++)
            cpow_ui(&xr[k], &xi[k], gr[g].T);
        err_pow(&M1, &E1, gr[g].T, f->r4);
        if (first) {
            M = M1, E = E1;
        } else {
            for (size_t k = 0; k < n; k++) {
                const double a = f->re[k] * xr[k] - f->im[k] * xi[k], b = f->re[k] * xi[k] + f->im[k] * xr[k];
                f->re[k] = a, f->im[k] = b;
            }
            err_mul(&M, &E, M1, E1, f->r4);
        }
        first = 0;
    }
    fft(f->re, f->im, n, 1, f->wr, f->wi);
    const double inv = 1 / (double)n;                  /* exact */
    for (size_t k = 0; k < n; k++)
        f->re[k] *= inv;                               /* exact but for underflow: ABS_T below */
    f->EW = ew_bound(M, E, f->cn, n);
    return FR_OK;
}

/* as ref's eps_from, with C_i = e^{(i-1)h} sum_{l >= ih} w_l e^{-l} kept
 * by C_i = e^{-h} (w_i + C_{i+1}) (no overflow of e^l, no underflow of
 * e^{-l}): profile((i-1)h) = A_i - C_i, profile(e) = A - e^{e - (i0-1)h}
 * C on the cell ((i0-1)h, i0 h]. */
static double eps_from(const ffft *f, size_t OFF, double Winf, int dir, double delta, const ctx *c)
{
    double A = Winf, C = 0, Ae = A;
    if (dir > 0 && A > delta)
        return INFINITY;
    const double eL = ffi_pad_down(exp(-c->h), R_LM), eH = ffi_pad_up(exp(-c->h), R_LM);
    size_t i0 = 0;
    for (size_t i = OFF; i >= 1; i--) {
        const double w = f->re[OFF + i];
        const double t = ffi_pad_up(ffi_pad_up(sqrt((double)(OFF - i + 1)), R_OP) * f->EW, R_OP);
        if (dir > 0) {
            A = ffi_pad_up(A + w, R_OP);
            Ae = ffi_pad_up(A + t, R_OP);
            const double x = ffi_pad_down(w + C, R_OP);
            C = ffi_pad_down(x * (x >= 0 ? eL : eH), R_OP);
            if (ffi_pad_up(Ae - C, R_OP) > delta) { i0 = i; break; }
        } else {
            A = ffi_pad_down(A + w, R_OP);
            Ae = ffi_pad_down(A - t, R_OP);
            const double x = ffi_pad_up(w + C, R_OP);
            C = ffi_pad_up(x * (x >= 0 ? eH : eL), R_OP);
            if (ffi_pad_down(Ae - C, R_OP) > delta) { i0 = i; break; }
        }
    }
    if (i0 == 0)
        return 0;
    const double hi = c->h * (double)i0, lo = c->h * (double)(i0 - 1);
    double t;
    if (dir > 0) {
        const double num = ffi_pad_up(Ae - delta, R_OP);
        t = C > 0 && 0 < num ? ffi_pad_up(lo + ffi_pad_up(log(ffi_pad_up(num / C, R_OP)), R_LM), R_OP) : hi;
    } else {
        const double num = ffi_pad_down(Ae - delta, R_OP);
        t = C > 0 && 0 < num ? ffi_pad_down(lo + ffi_pad_down(log(ffi_pad_down(num / C, R_OP)), R_LM), R_OP) : hi;
    }
    if (t > hi) t = hi;
    if (t < lo) t = lo;
    return t;
}

int ff_fedpdm_pld_rounds(double *eps, double *eps_lower, const double *sigma, const double *s, unsigned long T,
                         unsigned long first, unsigned long K, unsigned long N, double delta)
{
    unsigned long alpha = 0;
    int st = ffi_pdm_rdp_rounds_args(eps, &alpha, sigma, s, T, first, K, N, delta, 2);
    if (st != FR_OK)
        return st;
    if (eps == eps_lower)
        return FR_EDOM;
    grp *gr = malloc(T * sizeof *gr);
    if (gr == NULL)
        return FR_ENOMEM;
    size_t ng = 0, tot = 0;
    for (unsigned long t0 = 0; t0 < T;) {
        const int sub = t0 >= first && K < N;
        unsigned long t1 = t0 + 1;
        while (t1 < T && (t1 >= first && K < N) == sub && sigma[t1] == sigma[t0] && s[t1] == s[t0])
            t1++;
        if (s[t0] != 0) {
            gr[ng++] = (grp){t1 - t0, 0, sub, s[t0], sigma[t0]};
            tot += t1 - t0;
        }
        t0 = t1;
    }
    if (ng == 0) {
        *eps = 0;
        if (eps_lower) *eps_lower = 0;
        free(gr);
        return FR_OK;
    }
    if (2 * tot + 1 > PLD_S_MAX) {
        free(gr);
        return FR_ESIZE;
    }
    ctx c;
    const double tol = ffi_pad_down(ffi_pad_down(delta / (double)tot, R_OP) * 0x1p-12, R_OP);
    double *Lg = malloc(ng * sizeof *Lg), *winf = malloc(ng * sizeof *winf), Lmax = 0;
    unsigned long *Tg = malloc(ng * sizeof *Tg);
    if (Lg == NULL || winf == NULL || Tg == NULL) {
        free(gr), free(Lg), free(winf), free(Tg);
        return FR_ENOMEM;
    }
    for (size_t g = 0; g < ng; g++) {
        ctx_group(&c, &gr[g], K, N);
        Lg[g] = tail_point(tol, gr[g].sub, &c);
        if (Lg[g] > Lmax) Lmax = Lg[g];
    }
    double Ls = 0;
    for (size_t g = 0; g < ng; g++) Ls += Lg[g] * (double)gr[g].T;
    Ls /= (double)(PLD_S_MAX / 4);
    const double r0 = Lmax / (double)PLD_M_MAX > Ls ? Lmax / (double)PLD_M_MAX : Ls;
    int ex;
    frexp(r0, &ex);                                  /* r0 in [2^(ex-1), 2^ex) */
    c.h = ldexp(1, ex - 1);
    size_t S;
    for (;;) {
        S = 1;
        for (size_t g = 0; g < ng; g++) {
            double r = ceil(ffi_pad_up(Lg[g] / c.h, R_OP));
            gr[g].m = r > (double)PLD_S_MAX ? PLD_S_MAX : r < 1 ? 1 : (unsigned long)r;
            S += 2 * gr[g].T * gr[g].m;
        }
        if (S <= PLD_S_MAX) break;
        c.h *= 2;
    }
    const size_t OFF = (S - 1) / 2;
    ffft f;
    f.n = 2;
    while (f.n < S) f.n *= 2;
    const size_t n = f.n;
    unsigned long mmax = 1;
    for (size_t g = 0; g < ng; g++) if (gr[g].m > mmax) mmax = gr[g].m;
    f.re = malloc(n * sizeof(double));
    f.im = malloc(n * sizeof(double));
    f.wre = ng > 1 ? malloc(n * sizeof(double)) : NULL;
    f.wim = ng > 1 ? malloc(n * sizeof(double)) : NULL;
    f.wr = malloc(n / 2 * sizeof(double));
    f.wi = malloc(n / 2 * sizeof(double));
    f.ws = malloc(4 * (mmax + 1) * sizeof(double));
    if (!f.re || !f.im || (ng > 1 && (!f.wre || !f.wim)) || !f.wr || !f.wi || !f.ws)
        st = FR_ENOMEM;
    double up_eps = 0, lo_eps = 0;
    if (st == FR_OK) {
        for (size_t k = 0; k < n / 2; k++) {
            const double a = -2 * PLD_PI * (double)k / (double)n;
            f.wr[k] = cos(a);
            f.wi[k] = sin(a);
        }
        fft_consts(&f.cn, &f.r4, n);
        st = compose(&f, gr, ng, 0, &c, K, N, winf);
    }
    if (st == FR_OK) {
        for (size_t g = 0; g < ng; g++)
            Tg[g] = gr[g].T;
        const double Winf = winf_up(winf, Tg, ng);
        up_eps = eps_from(&f, OFF, Winf, 1, delta, &c);
        int orders = 0;
        if (eps_lower) {
            orders = 1;
            for (size_t g = 0; g < ng; g++) if (gr[g].sub) orders = 2;
        }
        for (int o = 1; st == FR_OK && o <= orders; o++) {
            st = compose(&f, gr, ng, o, &c, K, N, winf);
            if (st == FR_OK) {
                double l = eps_from(&f, OFF, 0, -1, delta, &c);
                if (l > lo_eps) lo_eps = l;
            }
        }
    }
    if (st == FR_OK) {
        *eps = up_eps;
        if (eps_lower) *eps_lower = lo_eps;
    }
    free(f.re), free(f.im), free(f.wre), free(f.wim), free(f.wr), free(f.wi), free(f.ws);
    free(gr), free(Lg), free(winf), free(Tg);
    return st;
}

/* pld.h: the white-box entry points */
void ffi_pdm_pld_ctx(ffi_pld_ctx *c, double s, double sigma, int sub, unsigned long K, unsigned long N, double h)
{
    const grp g = {1, 0, sub, s, sigma};
    ctx_group(c, &g, K, N);
    c->h = h;
}
double ffi_pdm_pld_phi(double x, int dir) { return phi_dir(x, dir); }
double ffi_pdm_pld_dg(double x, int dir, const ffi_pld_ctx *c) { return dg_dir(x, dir, c); }
void ffi_pdm_pld_h(double *lo, double *hi, double e, double tl, double th, int sub, const ffi_pld_ctx *c)
{
    h_encl(lo, hi, e, tl, th, sub, c);
}
void ffi_pdm_pld_thresh(double *xl, double *xh, double g, const ffi_pld_ctx *c) { thresh(xl, xh, g, c); }
double ffi_pdm_pld_cdf(double x, int order, int dir, const ffi_pld_ctx *c) { return cdf_dir(x, order, dir, c); }
void ffi_pdm_pld_pmf_lower(double *x, unsigned long m, int order, const ffi_pld_ctx *c) { pmf_lower(x, m, order, c); }
double ffi_pdm_pld_cell_mass(double a, double b, int top, int order) { return cell_mass(a, b, top, order); }
void ffi_pdm_pld_err_mul(double *M, double *E, double M2, double E2, double r4) { err_mul(M, E, M2, E2, r4); }
void ffi_pdm_pld_err_pow(double *M, double *E, unsigned long T, double r4) { err_pow(M, E, T, r4); }
void ffi_pdm_pld_norms(double *M1, double *X2, const double *x, size_t len) { norms(M1, X2, x, len); }
double ffi_pdm_pld_spec_err(double cn, size_t n, double X2) { return spec_err(cn, n, X2); }
double ffi_pdm_pld_ew(double M, double E, double cn, size_t n) { return ew_bound(M, E, cn, n); }
void ffi_pdm_pld_fft_consts(double *cn, double *r4, size_t n) { fft_consts(cn, r4, n); }
double ffi_pdm_pld_winf(const double *winf, const unsigned long *T, size_t ng) { return winf_up(winf, T, ng); }
double ffi_pdm_pld_eps_from(double *w, size_t OFF, double EW, double Winf, int dir, double delta, double h)
{
    ffft f;
    f.re = w;
    f.EW = EW;
    ctx c;
    c.h = h;
    return eps_from(&f, OFF, Winf, dir, delta, &c);
}
