/* SPDX-License-Identifier: Apache-2.0 */
/* problem5.c -- ff_ssca_problem5 and ff_ssca_problem5_bound: Problem 5 of
 * 000 (Sec. III-B, surrogates (7), (15)) for M constraints, in binary64
 * (the dual, its derivatives and the KKT conditions: ref/ssca/problem5.c).
 *
 * Method.  The active-set method of ref on the dual D(nu) over the box
 * [0, c]^M (p5_dual: Newton steps on the face of the free multipliers by
 * a Cholesky factorisation of the small k x k system, k <= M, with a tiny
 * Levenberg-Marquardt term, cut at the first bound met, Armijo
 * backtracking, the most violated bound released when a face is solved),
 * with w(nu) = -(g0 + G^T nu) / (2 S), S = t0 + tau sum nu, and the
 * gradient Fbar_m(w(nu)) = kappa_m + g_m^T w + tau ||w||^2 evaluated
 * directly from w (not through a Gram matrix: no cancellation of
 * ||g0 + G^T nu||^2); a face counts as solved when max |F_free| <= 2^-44
 * times the size of Fbar's terms or when steps stop improving D in
 * binary64; past P5_MAXIT(M) iterations FR_EINTERNAL (outputs untouched).
 * Outputs:
 * nu, w = w(nu) (one division per component), s_m = max(0, Fbar_m(w)) if
 * nu_m = c and s_m = +0 otherwise (complementarity: s*_m > 0 forces every
 * dual solution to nu_m = c; the bound below covers either way); exact
 * zeros are +0.  Plain loops in a fixed order (no BLAS, no threads),
 * so ff_ssca_problem5_bound, which runs the same computation, sees the
 * same bits.  A non-finite intermediate (binary64 overflow) gives
 * FR_ENONFINITE.
 *
 * The bound (a-posteriori, proved; no assumption on the solver).  For any
 * w and any nu in [0, c]^M,
 *   Phi(w) - D(nu) = sum_m [(c - nu_m) Fbar_m(w)^+ + nu_m Fbar_m(w)^-]
 *                    + S(nu) ||w - w(nu)||^2                          (G)
 * (Phi(w) = t0 ||w||^2 + g0^T w + c sum max(0, Fbar_m(w)) is the primal
 * objective with s eliminated; Phi - L(w, nu) = sum (c Fbar^+ - nu Fbar),
 * L(w, nu) - D(nu) = S ||w - w(nu)||^2), every term >= 0.  Phi is
 * 2 t0-strongly convex, so Phi(w) - Phi* >= t0 ||w - w*||^2, and
 * D(nu) <= Phi* (weak duality):  ||w - w*||_2 <= R = sqrt(gap / t0).
 * For s* = max(0, Fbar_m(w*)): |Fbar_m(w*) - Fbar_m(w)| <= E_m =
 * (||g_m|| + tau (2 ||w|| + R)) R, and if s*_m > 0 then every dual
 * solution has nu_m = c, so concavity and the KKT conditions at a dual
 * solution nu* give D(nu) <= D(nu*) - s*_m (c - nu_m): s*_m <= gap /
 * (c - nu_m) when nu_m < c.  ff_ssca_problem5_bound evaluates (G) at the
 * returned (w, nu) in interval arithmetic: every operation rounded to
 * nearest and then stepped once outward (nextafter), which encloses the
 * exact result of an operation on exact operands (half an ulp, or 2^-1075
 * when subnormal, is less than one step), and operations on enclosures in
 * the monotone direction enclose the exact value.  Then
 *   w_abs[j] = R^ >= R,   s_abs[m] = max(shi - s^_m, s^_m - slo),
 *   [slo, shi] = [max(0, Flo - E), min(max(0, Fhi + E), gap / (c - nu_m))],
 * each rounded up.  |w^_j - w*_j| <= w_abs[j] and |s^_m - s*_m| <=
 * s_abs[m] hold whenever ff_ssca_problem5 returns FR_OK (FR_EDOM if the
 * enclosure is not finite).  Size: R grows like sqrt(u) when a constraint
 * is active with a free multiplier (its term nu_m |Fbar_m(w^)| is of the
 * order of u times the size of Fbar's terms, since w^ is rounded), like u
 * when every multiplier is at a bound strictly (nu = 0 with Fbar < 0, or
 * nu = c with Fbar > 0).  The certificate (fedspec/ssca.h) is the same
 * enclosure: gap, radius = R^, and upper bounds of the residuals.
 * Contract: include/fedfast/ssca.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "fedfast.h"
#include "../internal.h"

/* One step outward from a round-to-nearest result. */

#define P5_MAXIT(M) (200 + 40 * (unsigned long)(M))

/* The checks of ff_ssca_problem5 and ff_ssca_problem5_bound after their
 * outputs' NULL test, in class order (the outputs' overlap is FR_EDOM,
 * tested by each function after these). */
static int p5_args(const double *g0, const double *kappa, const double *G, size_t M, size_t d,
                   double t0, double tau, double c)
{
    if (!kappa || !G)
        return FR_ENULL;
    if (ffi_check_mn(M, d) != FR_OK || ffi_check_mn(M + 1, d) != FR_OK
        || ffi_check_mn(M + 1, M + 1) != FR_OK)
        return FR_ESIZE;
    if (!isfinite(t0) || !isfinite(tau) || !isfinite(c) || (g0 && !ffi_all_finite(g0, d))
        || !ffi_all_finite(kappa, M) || !ffi_all_finite(G, M * d))
        return FR_ENONFINITE;
    return t0 > 0 && tau >= 0 && c > 0 ? FR_OK : FR_EDOM;
}

typedef struct {
    const double *g0, *kappa, *G;
    size_t M, d;
    double t0, tau, c;
    double *GG;                 /* Gram of the rows of G, M x M */
    double *r, *w, *Gw;         /* r = g0 + G^T nu, w = w(nu), G w */
    double *nu, *F, *nt, *Ft, *dir, *A, *L;
    int *bind;
    size_t *idx;                /* the free multipliers of a Newton step */
    double S, ww, D;            /* at nu */
    double Fsc;                 /* max_m |kappa_m| + |g_m|^T |w| + tau ||w||^2: the size of Fbar's terms */
    unsigned long iters;
} p5f;

/* At nu: S, r, w, G w, ||w||^2, F = Fbar(w), D = kappa^T nu - S ||w||^2. */
static void p5_eval(p5f *P, const double *nu, double *F, double *S, double *ww, double *D)
{
    size_t M = P->M, d = P->d;
    double sn = 0;
    for (size_t m = 0; m < M; m++)
        sn += nu[m];
    double s = P->t0 + P->tau * sn, two = 2 * s;
    for (size_t j = 0; j < d; j++)
        P->r[j] = P->g0 ? P->g0[j] : 0;
    for (size_t m = 0; m < M; m++) {
        const double *g = P->G + m * d;
        double v = nu[m];
        if (v != 0)
            for (size_t j = 0; j < d; j++)
                P->r[j] += v * g[j];
    }
    double q = 0;
    for (size_t j = 0; j < d; j++) {
        P->w[j] = -(P->r[j] / two) + 0.0;
        q += P->w[j] * P->w[j];
    }
    double Dv = -s * q, sc = 0;
    for (size_t m = 0; m < M; m++) {
        const double *g = P->G + m * d;
        double gw = 0, ga = 0;
        for (size_t j = 0; j < d; j++) {
            gw += g[j] * P->w[j];
            ga += fabs(g[j] * P->w[j]);
        }
        P->Gw[m] = gw;
        F[m] = (P->kappa[m] + gw) + P->tau * q;
        Dv += P->kappa[m] * nu[m];
        sc = fmax(sc, fabs(P->kappa[m]) + ga + P->tau * q);
    }
    P->Fsc = sc;
    *S = s;
    *ww = q;
    *D = Dv;
}

/* A = J J^T / (2S), J_m = g_m + 2 tau w: Gram + 2 tau (Gw_m + Gw_k) + 4 tau^2 ||w||^2. */
static void p5_hess(p5f *P)
{
    size_t M = P->M;
    double t2 = 2 * P->tau, h = 1 / (2 * P->S);
    for (size_t m = 0; m < M; m++)
        for (size_t k = 0; k < M; k++)
            P->A[m * M + k] = (P->GG[m * M + k] + t2 * (P->Gw[m] + P->Gw[k]) + t2 * t2 * P->ww) * h;
}

/* (A_II + mu I) x = dir_I in place (Cholesky), mu raised until it factors. */
static void p5_newton(p5f *P, double mu)
{
    size_t M = P->M, k = 0, *id = P->idx;
    double *L = P->L, diag = 0;
    for (size_t m = 0; m < M; m++)
        if (!P->bind[m]) {
            id[k++] = m;
            diag = fmax(diag, P->A[m * M + m]);
        }
    double floor = (diag > 0 ? diag : 1) * 0x1p-26;
    for (int tries = 0; tries < 200; tries++) {
        int ok = 1;
        for (size_t i = 0; i < k && ok; i++)
            for (size_t j = 0; j <= i; j++) {
                double t = P->A[id[i] * M + id[j]] + (i == j ? mu : 0);
                for (size_t l = 0; l < j; l++)
                    t -= L[i * k + l] * L[j * k + l];
                if (i == j) {
                    if (!(t > 0)) {
                        ok = 0;
                        break;
                    }
                    L[i * k + i] = sqrt(t);
                } else {
                    L[i * k + j] = t / L[j * k + j];
                }
            }
        if (ok)
            break;
        mu = fmax(16 * mu, floor);
    }
    for (size_t i = 0; i < k; i++) {
        double t = P->dir[id[i]];
        for (size_t l = 0; l < i; l++)
            t -= L[i * k + l] * P->dir[id[l]];
        P->dir[id[i]] = t / L[i * k + i];
    }
    for (size_t i = k; i-- > 0;) {
        double t = P->dir[id[i]];
        for (size_t l = i + 1; l < k; l++)
            t -= L[l * k + i] * P->dir[id[l]];
        P->dir[id[i]] = t / L[i * k + i];
    }
}

static double clampc(double x, double c) { return x < 0 ? 0.0 : x > c ? c : x + 0.0; }

/* The active-set method on the box from nu = 0 (every multiplier in the
 * working set W, at 0).  On the face of the free multipliers: a Newton
 * step (J_I J_I^T / (2S) + mu) d = F_I, mu = 2^-30 max diag (a direction
 * where D is flat, J J^T singular, gets a long step), cut at the first
 * bound it meets (that multiplier joins W, at its bound exactly), Armijo
 * backtracking on D.  When the face is solved (max |F_I| <= 2^-44 Fs, or
 * no step improves D in binary64), the multiplier of W whose gradient
 * points into the box the most (F_m > 2^-44 Fs at 0, F_m < -2^-44 Fs at c)
 * leaves W; none: optimal.  FR_OK, FR_EINTERNAL past P5_MAXIT(M)
 * iterations, FR_ENONFINITE on overflow. */
static int p5_dual(p5f *P)
{
    size_t M = P->M, d = P->d;
    for (size_t m = 0; m < M; m++) {
        P->nu[m] = 0;
        P->bind[m] = 1;
        for (size_t k = 0; k <= m; k++) {
            double s = 0;
            for (size_t j = 0; j < d; j++)
                s += P->G[m * d + j] * P->G[k * d + j];
            P->GG[m * M + k] = P->GG[k * M + m] = s;
        }
    }
    p5_eval(P, P->nu, P->F, &P->S, &P->ww, &P->D);
    P->iters = 0;
    int nnoisy = 0;
    for (;;) {
        if (!isfinite(P->D) || !isfinite(P->ww))
            return FR_ENONFINITE;
        if (P->iters >= P5_MAXIT(M))
            return FR_EINTERNAL;
        P->iters++;
        double Fs = P->Fsc, fi = 0;
        for (size_t m = 0; m < M; m++)
            if (!P->bind[m])
                fi = fmax(fi, fabs(P->F[m]));
        double tolF = 0x1p-44 * Fs;
        int solved = !(fi > tolF);
        if (!solved) {
            p5_hess(P);
            double lam = 0;
            for (size_t m = 0; m < M; m++)
                if (!P->bind[m])
                    lam = fmax(lam, P->A[m * M + m]);
            for (size_t m = 0; m < M; m++)
                P->dir[m] = P->bind[m] ? 0 : P->F[m];
            p5_newton(P, lam > 0 ? lam * 0x1p-30 : Fs / P->c);
            /* the longest step in the box and the multiplier that blocks it */
            double bmax = INFINITY;
            size_t blk = M;
            for (size_t m = 0; m < M; m++) {
                if (P->bind[m] || P->dir[m] == 0)
                    continue;
                double room = P->dir[m] > 0 ? (P->c - P->nu[m]) / P->dir[m] : -P->nu[m] / P->dir[m];
                if (room < bmax) {
                    bmax = room;
                    blk = m;
                }
            }
            double Dscale = fabs(P->D) + P->S * P->ww, kn = 0;
            for (size_t m = 0; m < M; m++)
                kn += fabs(P->kappa[m] * P->nu[m]);
            Dscale += kn;
            /* beta = min(1, bmax); D linear on the face (lam = 0): bmax */
            double beta = lam == 0 && isfinite(bmax) ? bmax : fmin(1, bmax), St = 0, wwt = 0, Dt = 0;
            int accepted = 0, noisy = 0;
            for (int ls = 0; ls < 80 && !accepted; ls++) {
                double pred = 0;
                for (size_t m = 0; m < M; m++) {
                    P->nt[m] = P->bind[m] ? P->nu[m] : clampc(P->nu[m] + beta * P->dir[m], P->c);
                    pred += P->F[m] * (P->nt[m] - P->nu[m]);
                }
                if (blk < M && beta == bmax)                 /* exactly on the bound */
                    P->nt[blk] = P->dir[blk] > 0 ? P->c : 0.0;
                if (pred > 0) {
                    p5_eval(P, P->nt, P->Ft, &St, &wwt, &Dt);
                    noisy = pred <= 0x1p-40 * Dscale;
                    accepted = Dt - P->D >= 1e-4 * pred || (ls == 0 && noisy);
                }
                if (!accepted)
                    beta /= 2;
            }
            if (accepted) {
                int hit = blk < M && beta == bmax;
                if (hit)
                    P->bind[blk] = 1;
                for (size_t m = 0; m < M; m++)
                    P->nu[m] = P->nt[m];
                p5_eval(P, P->nu, P->F, &P->S, &P->ww, &P->D);
                /* steps at the rounding level of D: the face is solved
                 * after two in a row (binary64 can do no better) */
                nnoisy = noisy && !hit ? nnoisy + 1 : 0;
                if (nnoisy < 2)
                    continue;
            }
            nnoisy = 0;
            solved = 1;                              /* no progress left in binary64 */
        }
        /* the face is solved: release the most violated multiplier of W */
        size_t rel = M;
        double worst = tolF;
        for (size_t m = 0; m < M; m++) {
            if (!P->bind[m])
                continue;
            double v = P->nu[m] == 0 ? P->F[m] : -P->F[m];
            if (v > worst) {
                worst = v;
                rel = m;
            }
        }
        if (rel == M)
            return FR_OK;
        P->bind[rel] = 0;
    }
}

/* The allocations of a solve (d + M-sized work); 0 on success. */
static int p5_alloc(p5f *P)
{
    size_t M = P->M, d = P->d;
    P->GG = malloc(M * M * sizeof *P->GG);
    P->r = malloc(d * sizeof *P->r);
    P->w = malloc(d * sizeof *P->w);
    P->Gw = malloc(M * sizeof *P->Gw);
    P->nu = malloc(M * sizeof *P->nu);
    P->F = malloc(M * sizeof *P->F);
    P->nt = malloc(M * sizeof *P->nt);
    P->Ft = malloc(M * sizeof *P->Ft);
    P->dir = malloc(M * sizeof *P->dir);
    P->A = malloc(M * M * sizeof *P->A);
    P->L = malloc(M * M * sizeof *P->L);
    P->bind = malloc(M * sizeof *P->bind);
    P->idx = malloc(M * sizeof *P->idx);
    return P->GG && P->r && P->w && P->Gw && P->nu && P->F && P->nt && P->Ft && P->dir && P->A
        && P->L && P->bind && P->idx ? 0 : -1;
}

static void p5_release(p5f *P)
{
    free(P->GG); free(P->r); free(P->w); free(P->Gw); free(P->nu); free(P->F);
    free(P->nt); free(P->Ft); free(P->dir); free(P->A); free(P->L); free(P->bind); free(P->idx);
}

/* Solve: P->w, P->nu and s (M) on FR_OK. */
static int p5_solve(p5f *P, double *s)
{
    int st = p5_dual(P);
    if (st != FR_OK)
        return st;
    for (size_t j = 0; j < P->d; j++)
        if (!isfinite(P->w[j]))
            return FR_ENONFINITE;
    for (size_t m = 0; m < P->M; m++) {
        if (!isfinite(P->F[m]))
            return FR_ENONFINITE;
        /* complementarity: s_m = 0 unless nu_m = c (then Fbar_m(w)^+) */
        s[m] = P->nu[m] == P->c && P->F[m] > 0 ? P->F[m] : 0.0;
    }
    return FR_OK;
}

/* ---- the enclosure (G) ------------------------------------------------------ */

/* [lo, hi] += x y (exact operands) */
static void acc_prod(double *lo, double *hi, double x, double y)
{
    double p = x * y;
    if (fabs(p) >= 0x1p-960 && fma(x, y, -p) == 0) {
        *lo = ffi_next_down(*lo + p);
        *hi = ffi_next_up(*hi + p);
    } else {
        *lo = ffi_next_down(*lo + ffi_next_down(p));
        *hi = ffi_next_up(*hi + ffi_next_up(p));
    }
}

typedef struct {
    double gap, R, stat, feas, comp;
} p5enc;

/* The enclosure at (w, s, nu) (binary64 values); s_abs (may be NULL)
 * receives the bounds on s.  FR_EDOM if it is not finite. */
static int p5_enclose(const p5f *P, const double *w, const double *s, const double *nu,
                      p5enc *out, double *s_abs)
{
    size_t M = P->M, d = P->d;
    double c = P->c, tau = P->tau;
    double wwlo = 0, wwhi = 0, gap = 0, feas = 0, comp = 0, stat = 0;
    for (size_t j = 0; j < d; j++)
        acc_prod(&wwlo, &wwhi, w[j], w[j]);
    double snl = 0, snh = 0;
    for (size_t m = 0; m < M; m++) {
        snl = ffi_next_down(snl + nu[m]);
        snh = ffi_next_up(snh + nu[m]);
    }
    double Slo = fmax(P->t0, ffi_next_down(P->t0 + ffi_next_down(tau * snl))), Shi = ffi_next_up(P->t0 + ffi_next_up(tau * snh));
    double *Flo = malloc(2 * M * sizeof *Flo), *Fhi = Flo ? Flo + M : NULL;
    if (Flo == NULL)
        return FR_ENOMEM;
    for (size_t m = 0; m < M; m++) {
        double lo = P->kappa[m], hi = P->kappa[m];
        for (size_t j = 0; j < d; j++)
            acc_prod(&lo, &hi, P->G[m * d + j], w[j]);
        lo = ffi_next_down(lo + ffi_next_down(tau * wwlo));
        hi = ffi_next_up(hi + ffi_next_up(tau * wwhi));
        Flo[m] = lo;
        Fhi[m] = hi;
        /* (c - nu) F^+ + nu F^- */
        gap = ffi_next_up(gap + ffi_next_up(ffi_next_up(c - nu[m]) * fmax(0, hi)));
        gap = ffi_next_up(gap + ffi_next_up(nu[m] * fmax(0, -lo)));
        /* feas: F - s; comp: |nu (F - s)|, |(c - nu) s| */
        double elo = ffi_next_down(lo - s[m]), ehi = ffi_next_up(hi - s[m]);
        feas = fmax(feas, fmax(0, ehi));
        comp = fmax(comp, ffi_next_up(nu[m] * fmax(fabs(elo), fabs(ehi))));
        comp = fmax(comp, ffi_next_up(ffi_next_up(c - nu[m]) * s[m]));
    }
    /* S ||w - w(nu)||^2 and the stationarity residual |2 S w_j + r_j| */
    double dist2 = 0;
    for (size_t j = 0; j < d; j++) {
        double rlo = P->g0 ? P->g0[j] : 0, rhi = rlo;
        for (size_t m = 0; m < M; m++)
            acc_prod(&rlo, &rhi, nu[m], P->G[m * d + j]);
        /* w(nu)_j = -r_j / (2 S) in [-hi, -lo] */
        double q1 = rlo / (2 * Slo), q2 = rlo / (2 * Shi), q3 = rhi / (2 * Slo), q4 = rhi / (2 * Shi);
        double qlo = ffi_next_down(fmin(fmin(q1, q2), fmin(q3, q4))), qhi = ffi_next_up(fmax(fmax(q1, q2), fmax(q3, q4)));
        double e = fmax(ffi_next_up(fabs(w[j] + qhi)), ffi_next_up(fabs(w[j] + qlo)));
        dist2 = ffi_next_up(dist2 + ffi_next_up(e * e));
        /* 2 S w_j + r_j in [2 w_j S + rlo, ...] over S in [Slo, Shi] */
        double a1 = 2 * w[j] * Slo, a2 = 2 * w[j] * Shi;
        double slo = ffi_next_down(ffi_next_down(fmin(a1, a2)) + rlo), shi = ffi_next_up(ffi_next_up(fmax(a1, a2)) + rhi);
        stat = fmax(stat, fmax(fabs(slo), fabs(shi)));
    }
    gap = ffi_next_up(gap + ffi_next_up(Shi * dist2));
    double R = ffi_next_up(sqrt(ffi_next_up(gap / P->t0)));
    if (!isfinite(R) || !isfinite(stat) || !isfinite(comp)) {
        free(Flo);
        return FR_EDOM;
    }
    if (s_abs) {
        double nw = ffi_next_up(sqrt(wwhi));
        for (size_t m = 0; m < M; m++) {
            double g2lo = 0, g2hi = 0;
            for (size_t j = 0; j < d; j++)
                acc_prod(&g2lo, &g2hi, P->G[m * d + j], P->G[m * d + j]);
            double E = ffi_next_up(ffi_next_up(ffi_next_up(sqrt(g2hi)) + ffi_next_up(tau * ffi_next_up(ffi_next_up(2 * nw) + R))) * R);
            double slo = fmax(0, ffi_next_down(Flo[m] - E)), shi = fmax(0, ffi_next_up(Fhi[m] + E));
            if (nu[m] < c)
                shi = fmin(shi, ffi_next_up(gap / ffi_next_down(c - nu[m])));
            if (shi < slo)
                shi = slo;                     /* cannot happen: both enclose s* */
            s_abs[m] = fmax(ffi_next_up(shi - s[m]), ffi_next_up(s[m] - slo));
            if (s_abs[m] < 0)
                s_abs[m] = 0;
        }
    }
    free(Flo);
    out->gap = gap;
    out->R = R;
    out->stat = stat;
    out->feas = feas;
    out->comp = comp;
    return FR_OK;
}

/* ---- the functions ---------------------------------------------------------- */

static int outputs_overlap(const double *w, size_t d, const double *s, const double *nu, size_t M)
{
    size_t z = sizeof(double);
    return ffi_overlap(w, d * z, s, M * z) || (nu && ffi_overlap(w, d * z, nu, M * z))
        || (nu && ffi_overlap(s, M * z, nu, M * z));
}

int ff_ssca_problem5(double *w, double *s, double *nu, fr_ssca_kkt *cert,
                     const double *g0, const double *kappa, const double *G,
                     size_t M, size_t d, double t0, double tau, double c)
{
    int st = w && s && nu ? p5_args(g0, kappa, G, M, d, t0, tau, c) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (outputs_overlap(w, d, s, nu, M))
        return FR_EDOM;
    p5f P = {.g0 = g0, .kappa = kappa, .G = G, .M = M, .d = d, .t0 = t0, .tau = tau, .c = c};
    double *ts = malloc(M * sizeof *ts);
    if (ts == NULL || p5_alloc(&P) != 0) {
        free(ts);
        p5_release(&P);
        return FR_ENOMEM;
    }
    st = p5_solve(&P, ts);
    p5enc e;
    if (st == FR_OK && cert) {
        st = p5_enclose(&P, P.w, ts, P.nu, &e, NULL);
        if (st == FR_EDOM)
            st = FR_ENONFINITE;               /* the certificate overflows */
    }
    if (st == FR_OK) {
        memcpy(w, P.w, d * sizeof *w);
        memcpy(s, ts, M * sizeof *s);
        memcpy(nu, P.nu, M * sizeof *nu);
        if (cert)
            *cert = (fr_ssca_kkt){.gap = e.gap, .radius = e.R, .stat = e.stat, .feas = e.feas,
                                  .comp = e.comp, .iters = P.iters};
    }
    free(ts);
    p5_release(&P);
    return st;
}

int ff_ssca_problem5_bound(double *w_abs, double *s_abs, const double *g0,
                           const double *kappa, const double *G, size_t M, size_t d,
                           double t0, double tau, double c)
{
    int st = w_abs && s_abs ? p5_args(g0, kappa, G, M, d, t0, tau, c) : FR_ENULL;
    if (st != FR_OK)
        return st;
    if (outputs_overlap(w_abs, d, s_abs, NULL, M))
        return FR_EDOM;
    p5f P = {.g0 = g0, .kappa = kappa, .G = G, .M = M, .d = d, .t0 = t0, .tau = tau, .c = c};
    double *ts = malloc(M * sizeof *ts), *sb = malloc(M * sizeof *sb);
    if (ts == NULL || sb == NULL || p5_alloc(&P) != 0) {
        free(ts); free(sb);
        p5_release(&P);
        return FR_ENOMEM;
    }
    st = p5_solve(&P, ts);
    if (st == FR_ENONFINITE)
        st = FR_EDOM;                         /* ff_ssca_problem5 overflows: outside the proof */
    p5enc e;
    if (st == FR_OK)
        st = p5_enclose(&P, P.w, ts, P.nu, &e, sb);
    if (st == FR_OK) {
        for (size_t j = 0; j < d; j++)
            w_abs[j] = e.R;
        memcpy(s_abs, sb, M * sizeof *s_abs);
    }
    free(ts); free(sb);
    p5_release(&P);
    return st;
}
