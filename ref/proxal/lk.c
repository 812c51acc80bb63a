/* SPDX-License-Identifier: Apache-2.0 */
/* lk.c -- fr_proxal_lk, fr_proxal_pik, fr_proxal_mu_update,
 * fr_proxal_pk_fsum: the proximal AL subproblem of 004 (6), (10)-(11) in
 * MPFR.  Contract: fedref/proxal.h, fedfast/proxal.h.
 *
 * Derivation.  For owner i (0 = server, f_0 = 0) and row j of c_i, with
 * t_j(w) = mu_j + beta c_j(w):
 *   inequality row: AL_j = ([t_j]_+^2 - mu_j^2)/(2 beta);  (6), (10)-(11)
 *   equality row:   AL_j = (t_j^2 - mu_j^2)/(2 beta)        (no [.]_+).
 *   On {t_j > 0} (and always for equality rows) AL_j = mu_j c_j + beta
 *   c_j^2/2; on {t_j <= 0} AL_j = -mu_j^2/(2 beta).
 * Gradient: d/dw [t]_+^2 = 2 [t]_+ beta grad c_j (s -> [s]_+^2 is C^1 with
 * derivative 2 [s]_+), so grad AL_j = y_j grad c_j, y_j = [t_j]_+
 * (inequality) or t_j (equality): the multiplier update's value.
 * Generalised Hessian: grad AL_j = [t_j]_+ grad c_j is Lipschitz near w,
 * piecewise C^1; on {t_j > 0} its Jacobian is beta grad c_j grad c_j^T +
 * y_j Hess c_j, on {t_j < 0} it is 0 (y_j = 0).  At the kink t_j = 0 both
 * limits are elements of Clarke's generalised Hessian; the convention here
 * (and in fast) is the inactive one: active set {t_j > 0} exactly.
 * Hence
 *   grad P_{i,k} = grad f_i + sum_j y_j grad c_ij + (w - w^k)/((n+1) beta),
 *   H P_{i,k}    = Hess f_i + sum_{j active} beta grad c_ij grad c_ij^T
 *                  + sum_j y_j Hess c_ij + I/((n+1) beta),
 *   grad l_k     = sum_{i=1}^n grad f_i + sum_{i,j} y_ij grad c_ij + (w - w^k)/beta.
 * The split (9): sum_{i=0}^n P_{i,k} = sum_{i=1}^n f_i + (1/(2 beta))
 * sum_{i=0}^n (||[mu_i + beta c_i]_+||^2 - ||mu_i||^2) + (n + 1) ||w -
 * w^k||^2/(2 (n+1) beta) = l_k - h: the proximal term of (6) is split in n
 * + 1 equal parts 1/(2 (n+1) beta), nothing else is shared.
 *
 * Accuracy (Ziv).  At a working precision wp, fr_proxal_client_eval gives
 * f_i, grad f_i, c_i, grad c_i (and Hess f_i, Hess c_ij per unit weight)
 * correctly rounded to nearest at wp: each exact value lies in [prev(x),
 * next(x)] (a zero is exact), except for QP at wp >= qp_prec (below) where
 * every output is exact (a point).  Every formula above is then evaluated
 * in MPFI (outward rounding), [t]_+ as an interval ([0, sup] when t
 * straddles 0: [.]_+ is continuous, so value and gradient enclosures shrink
 * with wp); an output is written when both ends of its enclosure round to
 * nearest to the same number at the output's precision: it is then the
 * correctly rounded value.  Otherwise wp doubles, up to WP_CAP (then
 * FR_EPREC).  The Hessian needs the sign of every inequality t_j: a
 * straddling t_j also doubles wp.  QP: every client output is a sum of N
 * products of at most 3 inputs, whose bits lie in [3 min(Emin, 0) - 1, 3
 * max(Emax, 0)] (Emin, Emax: the lowest and highest bit positions of all
 * inputs), so wp >= qp_prec = 3 (max(Emax,0) - min(Emin,0)) + bitlen(N) +
 * 4 makes them exact; exact dyadic results (e.g. a zero gradient) then give
 * point enclosures as soon as the MPFI operations are exact too. */
#include <math.h>
#include <stdlib.h>
#include <mpfi.h>
#include "../internal.h"
#include "fedref/proxal.h"

#define WP_CAP ((mpfr_prec_t)1 << 18)
static int rank(int st)
{
    switch (st) {
    case FR_ENULL: return 0;
    case FR_ESIZE: return 1;
    case FR_EPREC: return 2;
    case FR_ENONFINITE: return 3;
    case FR_EDOM: return 4;
    default: return 5;
    }
}

/* The checks in class order (fedref_common.h), as ff's lk_args. */
static int lk_args(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t *const wk,
                   mpfr_t *const mu, mpfr_srcptr beta)
{
    if (!P || !w || !wk || !mu || !beta)
        return FR_ENULL;
    int sp = fr_proxal_problem_check(P);
    if (sp == FR_ENULL)
        return FR_ENULL;
    if (sp == FR_ESIZE || (i != SIZE_MAX && i > P->n))
        return FR_ESIZE;
    size_t d = P->d, mt = fr_proxal_mtot(P);   /* the shape is valid here */
    int st = sp;
    if (!fri_finite(w, d) || !fri_finite(wk, d) || !fri_finite(mu, mt) || !mpfr_number_p(beta))
        st = rank(st) < rank(FR_ENONFINITE) ? st : FR_ENONFINITE;
    if (st != FR_OK)
        return st;
    if (P->h != FR_PROXAL_H_ZERO || mpfr_sgn(beta) <= 0)
        return FR_EDOM;
    if (P->kind != FR_PROXAL_QP)
        for (size_t j = 0; j < mt; j++)
            if (mpfr_sgn(mu[j]) < 0)                       /* -0 is the multiplier 0 */
                return FR_EDOM;
    return FR_OK;
}

static size_t mu_off(const fr_proxal_problem *P, size_t i)
{
    size_t s = 0;
    for (size_t l = 0; l < i; l++)
        s += fr_proxal_mi(P, l);
    return s;
}

/* bit positions of a nonzero double / mpfr number */
static void bits_d(long *lo, long *hi, double x)
{
    if (x != 0) {
        int e;
        frexp(x, &e);
        if (e > *hi) *hi = e;
        if (e - 53 < *lo) *lo = e - 53;
    }
}
static void bits_fr(long *lo, long *hi, mpfr_srcptr x)
{
    if (mpfr_regular_p(x)) {
        long e = mpfr_get_exp(x);
        if (e > *hi) *hi = e;
        if (e - (long)mpfr_get_prec(x) < *lo) *lo = e - (long)mpfr_get_prec(x);
    }
}

/* qp_prec (see the head comment); 0 if P is not a QP */
static mpfr_prec_t qp_prec(const fr_proxal_problem *P, mpfr_t *const w)
{
    if (P->kind != FR_PROXAL_QP)
        return 0;
    size_t n = P->n, d = P->d, mt = P->mt;
    long lo = 0, hi = 0;
    for (size_t k = 0; k < n * d * d; k++) bits_d(&lo, &hi, P->A[k]);
    for (size_t k = 0; k < n * d; k++) bits_d(&lo, &hi, P->b[k]);
    for (size_t k = 0; k < (n + 1) * mt * d; k++) bits_d(&lo, &hi, P->C[k]);
    for (size_t k = 0; k < (n + 1) * mt; k++) bits_d(&lo, &hi, P->e[k]);
    for (size_t k = 0; k < d; k++) bits_fr(&lo, &hi, w[k]);
    size_t N = d * d + d + 1, bl = 0;
    while (N) { bl++; N >>= 1; }
    long p = 3 * (hi - lo) + (long)bl + 4;
    return p > WP_CAP ? WP_CAP : (mpfr_prec_t)p;
}

/* I = the enclosure of the exact value whose round-to-nearest at its
 * precision is x (exact: x itself) */
static void encl(mpfi_ptr I, mpfr_srcptr x, int exact)
{
    if (exact || mpfr_zero_p(x)) {
        mpfi_set_fr(I, x);
        return;
    }
    mpfr_t a, b;
    mpfr_init2(a, mpfr_get_prec(x));
    mpfr_init2(b, mpfr_get_prec(x));
    mpfr_set(a, x, MPFR_RNDN);
    mpfr_set(b, x, MPFR_RNDN);
    mpfr_nextbelow(a);
    mpfr_nextabove(b);
    mpfi_interv_fr(I, a, b);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* 1 and out = the common nearest rounding if both ends of I round to it */
static int round_ok(mpfr_ptr out, mpfi_srcptr I)
{
    mpfr_t a, b;
    mpfr_prec_t p = mpfr_get_prec(out);
    mpfr_init2(a, p);
    mpfr_init2(b, p);
    {
        mpfr_t l, r;
        mpfr_init2(l, mpfi_get_prec(I));
        mpfr_init2(r, mpfi_get_prec(I));
        mpfi_get_left(l, I);
        mpfi_get_right(r, I);
        mpfr_set(a, l, MPFR_RNDN);
        mpfr_set(b, r, MPFR_RNDN);
        mpfr_clears(l, r, (mpfr_ptr)0);
    }
    int ok = mpfr_equal_p(a, b) || (mpfr_zero_p(a) && mpfr_zero_p(b));
    if (ok && out != NULL)
        mpfr_set(out, a, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

/* Enclosures of one evaluation at working precision wp. */
typedef struct {
    size_t d;
    mpfi_t v, *g, *H, *mu;                             /* mu: the multipliers' update */
} encs;

/* Adds owner i's part (without the proximal term) to E at wp; *amb set if
 * some inequality t_j straddles 0. */
static int owner_part(encs *E, size_t muoff, int wv, int wg, int wH, int wmu, const fr_proxal_problem *P, size_t i,
                      mpfr_t *const w, mpfr_t *const mu, mpfr_srcptr beta, mpfr_prec_t wp, int exact,
                      int *amb)
{
    size_t d = P->d, m = fr_proxal_mi(P, i);
    int needJ = wg || wH, hc = wH && P->kind != FR_PROXAL_QP && m > 0;
    size_t nf = 1 + d + (wH ? d * d : 0) + m + (needJ ? d * m : 0) + (hc ? m * (d * d + m) : 0);
    mpfr_t *x = malloc(nf * sizeof *x);
    mpfi_t *I = malloc((nf + 3 * m + 2) * sizeof *I);
    if (!x || !I) {
        free(x);
        free(I);
        return FR_ENOMEM;
    }
    for (size_t k = 0; k < nf; k++)
        mpfr_init2(x[k], wp);
    for (size_t k = 0; k < nf + 3 * m + 2; k++)
        mpfi_init2(I[k], wp);
    mpfr_t *fi = x, *gi = fi + 1, *Hi = gi + d, *ci = Hi + (wH ? d * d : 0), *Ji = ci + m,
           *Hc = Ji + (needJ ? d * m : 0), *uy = Hc + (hc ? m * d * d : 0);
    int st = fr_proxal_client_eval(P, i, w, wv ? fi[0] : NULL, wg ? gi : NULL, wH ? Hi : NULL, ci,
                                   needJ ? Ji : NULL, NULL, NULL);
    for (size_t j = 0; j < m && hc && st == FR_OK; j++) {  /* Hess c_ij: unit weights */
        for (size_t l = 0; l < m; l++)
            mpfr_set_ui(uy[l], l == j, MPFR_RNDN);
        st = fr_proxal_client_eval(P, i, w, NULL, NULL, NULL, NULL, NULL, uy, Hc + j * d * d);
    }
    if (st == FR_OK) {
        for (size_t k = 0; k < nf; k++)
            encl(I[k], x[k], exact);
        mpfi_t *Ifi = I, *Igi = Ifi + 1, *IHi = Igi + d, *Ici = IHi + (wH ? d * d : 0), *IJ = Ici + m,
               *IHc = IJ + (needJ ? d * m : 0), *It = I + nf, *Iy = It + m, *Ial = Iy + m,
               *tmp = Ial + m;
        for (size_t j = 0; j < m; j++) {
            int eq = fr_proxal_row_eq(P, i, j);
            mpfi_mul_fr(It[j], Ici[j], beta);
            mpfi_add_fr(It[j], It[j], mu[j]);              /* t_j = mu_j + beta c_j */
            int pos = mpfr_sgn(&It[j]->left) > 0, neg = mpfr_sgn(&It[j]->right) <= 0;
            if (eq || pos) {                               /* mu c + beta c^2/2 */
                mpfi_set(Iy[j], It[j]);
                mpfi_sqr(Ial[j], Ici[j]);
                mpfi_mul_fr(Ial[j], Ial[j], beta);
                mpfi_div_2ui(Ial[j], Ial[j], 1);
                mpfi_mul_fr(tmp[0], Ici[j], mu[j]);
                mpfi_add(Ial[j], Ial[j], tmp[0]);
            } else {
                if (neg) {
                    mpfi_set_ui(Iy[j], 0);
                } else {                                   /* straddles: [0, sup t] */
                    mpfr_t z;
                    mpfr_init2(z, MPFR_PREC_MIN);
                    mpfr_set_zero(z, 1);
                    mpfi_interv_fr(Iy[j], z, &It[j]->right);
                    mpfr_clear(z);
                    *amb = 1;
                }
                mpfi_sqr(Ial[j], Iy[j]);                   /* ([t]_+^2 - mu^2)/(2 beta) */
                mpfi_set_fr(tmp[0], mu[j]);
                mpfi_sqr(tmp[0], tmp[0]);
                mpfi_sub(Ial[j], Ial[j], tmp[0]);
                mpfi_div_fr(Ial[j], Ial[j], beta);
                mpfi_div_2ui(Ial[j], Ial[j], 1);
            }
            if (wv)
                mpfi_add(E->v, E->v, Ial[j]);
            if (wmu)
                mpfi_set(E->mu[muoff + j], Iy[j]);
        }
        if (wv)
            mpfi_add(E->v, E->v, Ifi[0]);
        for (size_t k = 0; k < d && wg; k++) {
            mpfi_add(E->g[k], E->g[k], Igi[k]);
            for (size_t j = 0; j < m; j++) {
                mpfi_mul(tmp[0], IJ[k * m + j], Iy[j]);
                mpfi_add(E->g[k], E->g[k], tmp[0]);
            }
        }
        for (size_t k = 0; k < d && wH; k++)
            for (size_t l = 0; l < d; l++) {
                mpfi_ptr h = E->H[k * d + l];
                mpfi_add(h, h, IHi[k * d + l]);
                for (size_t j = 0; j < m; j++) {
                    int act = fr_proxal_row_eq(P, i, j) || mpfr_sgn(&It[j]->left) > 0;
                    if (act) {                             /* beta grad c grad c^T */
                        mpfi_mul(tmp[0], IJ[k * m + j], IJ[l * m + j]);
                        mpfi_mul_fr(tmp[0], tmp[0], beta);
                        mpfi_add(h, h, tmp[0]);
                    }
                    if (hc) {                              /* y_j Hess c_j */
                        mpfi_mul(tmp[0], IHc[j * d * d + k * d + l], Iy[j]);
                        mpfi_add(h, h, tmp[0]);
                    }
                }
            }
    }
    for (size_t k = 0; k < nf; k++)
        mpfr_clear(x[k]);
    for (size_t k = 0; k < nf + 3 * m + 2; k++)
        mpfi_clear(I[k]);
    free(x);
    free(I);
    return st;
}

enum { MODE_LK, MODE_PIK, MODE_MU };

/* The Ziv loop of the three functions.  Outputs (val, g, H, mu_next) are
 * written only on FR_OK. */
static int lk_ziv(int mode, mpfr_ptr val, mpfr_t *g, mpfr_t *H, mpfr_t *mun, const fr_proxal_problem *P,
                  size_t isel, mpfr_t *const w, mpfr_t *const wk, mpfr_t *const mu, mpfr_srcptr beta)
{
    size_t d = P->d, n = P->n, mt = fr_proxal_mtot(P);
    size_t nout = (val ? 1 : 0) + (g ? d : 0) + (H ? d * d : 0) + (mun ? mt : 0);
    mpfr_prec_t pmax = MPFR_PREC_MIN;
    if (val) pmax = mpfr_get_prec(val);
    for (size_t k = 0; g && k < d; k++) if (mpfr_get_prec(g[k]) > pmax) pmax = mpfr_get_prec(g[k]);
    for (size_t k = 0; H && k < d * d; k++) if (mpfr_get_prec(H[k]) > pmax) pmax = mpfr_get_prec(H[k]);
    for (size_t k = 0; mun && k < mt; k++) if (mpfr_get_prec(mun[k]) > pmax) pmax = mpfr_get_prec(mun[k]);
    mpfr_prec_t qp = qp_prec(P, w), wp = pmax + 32;
    if (wp < qp)
        wp = qp;
    /* temporaries at the outputs' precisions */
    mpfr_t *o = malloc((nout ? nout : 1) * sizeof *o);
    if (!o)
        return FR_ENOMEM;
    {
        size_t q = 0;
        if (val) mpfr_init2(o[q++], mpfr_get_prec(val));
        for (size_t k = 0; g && k < d; k++) mpfr_init2(o[q++], mpfr_get_prec(g[k]));
        for (size_t k = 0; H && k < d * d; k++) mpfr_init2(o[q++], mpfr_get_prec(H[k]));
        for (size_t k = 0; mun && k < mt; k++) mpfr_init2(o[q++], mpfr_get_prec(mun[k]));
    }
    int st = FR_OK, done = 0;
    for (; !done && st == FR_OK; wp *= 2) {
        if (wp > WP_CAP) {
            st = FR_EPREC;
            break;
        }
        int exact = qp > 0 && wp >= qp, amb = 0;
        encs E;
        E.d = d;
        mpfi_init2(E.v, wp);
        mpfi_set_ui(E.v, 0);
        E.g = malloc(d * sizeof *E.g);
        E.H = malloc((H ? d * d : 1) * sizeof *E.H);
        E.mu = malloc((mt ? mt : 1) * sizeof *E.mu);
        if (!E.g || !E.H || !E.mu) {
            free(E.g);
            free(E.H);
            free(E.mu);
            mpfi_clear(E.v);
            st = FR_ENOMEM;
            break;
        }
        for (size_t k = 0; k < d; k++) { mpfi_init2(E.g[k], wp); mpfi_set_ui(E.g[k], 0); }
        for (size_t k = 0; H && k < d * d; k++) { mpfi_init2(E.H[k], wp); mpfi_set_ui(E.H[k], 0); }
        for (size_t k = 0; k < mt; k++) mpfi_init2(E.mu[k], wp);
        size_t i0 = mode == MODE_PIK ? isel : 0, i1 = mode == MODE_PIK ? isel : n;
        for (size_t i = i0; i <= i1 && st == FR_OK; i++) {
            size_t off = mu_off(P, i);
            st = owner_part(&E, off, val != NULL, g != NULL, H != NULL, mun != NULL, P, i, w, mu + off, beta,
                            wp, exact, &amb);
        }
        if (st == FR_OK && mode != MODE_MU) {
            /* the proximal term: ||w - w^k||^2/(2 s beta), s = 1 (6) or n + 1 (10)-(11) */
            mpfi_t a, b, c;
            mpfi_init2(a, wp);
            mpfi_init2(b, wp);
            mpfi_init2(c, wp);
            mpfi_set_ui(c, 0);
            mpfi_set_fr(b, beta);
            if (mode == MODE_PIK)
                mpfi_mul_ui(b, b, (unsigned long)(n + 1)); /* s beta (n+1 <= 4097: exact at wp) */
            for (size_t k = 0; k < d; k++) {
                mpfi_set_fr(a, w[k]);
                mpfi_sub_fr(a, a, wk[k]);
                if (g) {
                    mpfi_t q;
                    mpfi_init2(q, wp);
                    mpfi_div(q, a, b);
                    mpfi_add(E.g[k], E.g[k], q);
                    mpfi_clear(q);
                }
                mpfi_sqr(a, a);
                mpfi_add(c, c, a);
                if (H) {
                    mpfi_t q;
                    mpfi_init2(q, wp);
                    mpfi_ui_div(q, 1, b);
                    mpfi_add(E.H[k * d + k], E.H[k * d + k], q);
                    mpfi_clear(q);
                }
            }
            mpfi_div(c, c, b);
            mpfi_div_2ui(c, c, 1);
            mpfi_add(E.v, E.v, c);
            mpfi_clear(a);
            mpfi_clear(b);
            mpfi_clear(c);
        }
        if (st == FR_OK && !(H && amb)) {
            size_t q = 0;
            done = 1;
            if (val) done &= round_ok(o[q++], E.v);
            for (size_t k = 0; g && k < d; k++) done &= round_ok(o[q++], E.g[k]);
            for (size_t k = 0; H && k < d * d; k++) done &= round_ok(o[q++], E.H[k]);
            for (size_t k = 0; mun && k < mt; k++) done &= round_ok(o[q++], E.mu[k]);
        }
        mpfi_clear(E.v);
        for (size_t k = 0; k < d; k++) mpfi_clear(E.g[k]);
        for (size_t k = 0; H && k < d * d; k++) mpfi_clear(E.H[k]);
        for (size_t k = 0; k < mt; k++) mpfi_clear(E.mu[k]);
        free(E.g);
        free(E.H);
        free(E.mu);
        if (done)
            break;
    }
    if (st == FR_OK) {
        size_t q = 0;
        if (val) mpfr_set(val, o[q++], MPFR_RNDN);
        for (size_t k = 0; g && k < d; k++) mpfr_set(g[k], o[q++], MPFR_RNDN);
        for (size_t k = 0; H && k < d * d; k++) mpfr_set(H[k], o[q++], MPFR_RNDN);
        for (size_t k = 0; mun && k < mt; k++) {
            mpfr_set(mun[k], o[q++], MPFR_RNDN);
            if (mpfr_zero_p(mun[k]))
                mpfr_set_zero(mun[k], 1);              /* [.]_+ gives +0 */
        }
    }
    for (size_t k = 0; k < nout; k++)
        mpfr_clear(o[k]);
    free(o);
    return st;
}

int fr_proxal_lk(mpfr_t val, mpfr_t *g, const fr_proxal_problem *P, mpfr_t *const w,
                 mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta)
{
    int st = lk_args(P, SIZE_MAX, w, wk, mu, beta);
    if (st != FR_OK)
        return st;
    if (val && g && fri_overlap(val, sizeof(mpfr_t), g, P->d * sizeof(mpfr_t)))
        return FR_EDOM;
    if (!val && !g)
        return FR_OK;
    return lk_ziv(MODE_LK, val, g, NULL, NULL, P, SIZE_MAX, w, wk, mu, beta);
}

int fr_proxal_pik(mpfr_t val, mpfr_t *g, mpfr_t *H, const fr_proxal_problem *P, size_t i,
                  mpfr_t *const w, mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta)
{
    int st = lk_args(P, i, w, wk, mu, beta);
    if (st != FR_OK)
        return st;
    size_t d = P->d, z = sizeof(mpfr_t);
    if ((val && g && fri_overlap(val, z, g, d * z)) || (val && H && fri_overlap(val, z, H, d * d * z))
        || (g && H && fri_overlap(g, d * z, H, d * d * z)))
        return FR_EDOM;
    if (!val && !g && !H)
        return FR_OK;
    return lk_ziv(MODE_PIK, val, g, H, NULL, P, i, w, wk, mu, beta);
}

int fr_proxal_mu_update(mpfr_t *mu_next, const fr_proxal_problem *P, mpfr_t *const w,
                        mpfr_t *const mu, const mpfr_t beta)
{
    if (!mu_next)
        return FR_ENULL;
    int st = lk_args(P, SIZE_MAX, w, w, mu, beta);
    if (st != FR_OK)
        return st;
    if (fr_proxal_mtot(P) == 0)
        return FR_OK;
    return lk_ziv(MODE_MU, NULL, NULL, NULL, mu_next, P, SIZE_MAX, w, w, mu, beta);
}

static int pk_eval(void *ctx, size_t i, mpfr_t *const w, mpfr_t F, mpfr_t *g, mpfr_t *H)
{
    const fr_proxal_pk_ctx *c = ctx;
    return fr_proxal_pik(F, g, H, c->P, i, w, c->wk, c->mu, c->beta);
}

static int pk_quad(void *ctx, size_t i)
{
    (void)i;
    return ((const fr_proxal_pk_ctx *)ctx)->P->kind == FR_PROXAL_QP;
}

int fr_proxal_pk_fsum(fr_proxal_fsum *F, fr_proxal_pk_ctx *ctx, const fr_proxal_problem *P,
                      mpfr_t *const wk, mpfr_t *const mu, const mpfr_t beta)
{
    if (!F || !ctx)
        return FR_ENULL;
    int st = lk_args(P, SIZE_MAX, wk, wk, mu, beta);
    if (st != FR_OK)
        return st;
    ctx->P = P;
    ctx->wk = wk;
    ctx->mu = mu;
    ctx->beta = beta;
    F->n = P->n;
    F->d = P->d;
    F->ctx = ctx;
    F->eval = pk_eval;
    F->quad = pk_quad;
    return FR_OK;
}
