/* SPDX-License-Identifier: Apache-2.0 */
/* logreg.c -- the logistic loss of 002 Sec. VII-A and its gradient,
 * correctly rounded.
 *
 * With u_t = <x_t, w> and v_t = (1 - 2 b_t) u_t (exact dyadic numbers),
 *   ln(1 + e^u_t) - b_t u_t = L(v_t),  L(v) = max(v, 0) + ln(1 + e^-|v|),
 *   sigma(u_t) - b_t        = (1 - 2 b_t) sigma(v_t),
 * so, for client i with samples T_i,
 *   d_i f_i        = sum_t L(v_t) + d_i beta/2 ||w||^2,
 *   d_i (g_i)_j    = sum_t c_tj sigma(v_t) + d_i beta w_j,  c_tj = (1 - 2 b_t) x_tj.
 * The v_t are formed exactly (exact products, one exact mpfr_sum).  Each
 * result is R + T: R exact (max(v, 0), sigma saturated to 0, 1/2 or 1, the
 * beta terms; a GMP rational after the divisions by d_i), T the e^-|v|
 * terms (ln(1 + e^-|v|), tau = 1/(1 + e^|v|)).  A Ziv loop encloses T: exp,
 * log1p, the divisions and the sums are rounded down for the lower end and
 * up for the upper end (every map used is monotone in the rounded
 * argument); it stops when R + T can be rounded (settle()).
 * Termination: let v_t = k_t q (q = 2^-s, k_t integers) and z = e^q,
 * transcendental when some v_t != 0 (Lindemann).
 *  - f: N f, N = lcm(d_i), is ln P(z) + rational with P a product of
 *    factors 2 and (1 + z^k); P is never a power of z, so f is irrational:
 *    never a floating-point number, never a midpoint.
 *  - g_j: with sigma(-a) = 1 - sigma(a), g_j = r + sum_a K_a sigma(a) over
 *    the distinct a = |v_t| > 0, r and K_a rational.  If some K_a != 0 this
 *    is a non-constant rational function of z (1/(1 + z^A), A the largest
 *    such a/q, alone has poles at the primitive 2A-th roots of unity), hence
 *    transcendental.  If every K_a = 0, g_j = r exactly: decided in GMP
 *    rationals and rounded once.
 * Contract: fedref.h. */
#include <gmp.h>
#include <stdlib.h>
#include "../internal.h"
#include "rounds.h"

typedef struct {
    mpfr_srcptr a;
    size_t t;
} byabs_t;

typedef struct {
    const fr_logreg *P;
    size_t i0, i1;           /* clients [i0, i1) */
    size_t off, D, n, maxd;  /* samples [off, off + D) */
    mpfr_t *w;
    size_t *cli;             /* client of each sample (absolute index) */
    mpfr_t *v;               /* D exact v_t */
    mpfr_t *lo, *hi;         /* D bounds at the working precision */
    mpfr_t *tl, *th;         /* 2 maxd + 1 summands of one client */
    mpfr_ptr *pl, *ph;
    mpfr_t *cl, *ch;         /* per-client bounds (i1 - i0) */
    mpfr_ptr *pcl, *pch;
    mpfr_t *prod;            /* n scratch products */
    mpfr_ptr *pp;
    byabs_t *ord;            /* samples sorted by |v_t| */
    mpfr_t e, na, ex, rl, rh, bw;
    int misrounded;          /* a directed operation rounded the wrong way */
} lr_t;

/* An enclosure end must be rounded away from the value it encloses: the
 * ternary value of an operation rounded up (down) is >= 0 (<= 0).  A wrong
 * direction (a bug) would leave the exact value outside [lo, hi] by less
 * than an ulp, which the Ziv loop cannot see: it is recorded here and the
 * function returns FR_EINTERNAL. */
static void directed(lr_t *L, int ternary, mpfr_rnd_t r)
{
    if (r == MPFR_RNDU ? ternary < 0 : ternary > 0)
        L->misrounded = 1;
}

static int cmp_byabs(const void *x, const void *y)
{
    const byabs_t *a = x, *b = y;
    int c = mpfr_cmpabs(a->a, b->a);
    return c != 0 ? c : (a->t > b->t) - (a->t < b->t);
}

static mpfr_t *mp_array(size_t k)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a != NULL)
        for (size_t t = 0; t < k; t++)
            mpfr_init2(a[t], MPFR_PREC_MIN);
    return a;
}

static void mp_free(mpfr_t *a, size_t k)
{
    if (a == NULL)
        return;
    for (size_t t = 0; t < k; t++)
        mpfr_clear(a[t]);
    free(a);
}

static void lr_free(lr_t *L)
{
    size_t mc = L->i1 - L->i0, ns = 2 * L->maxd + 1;
    mp_free(L->v, L->D); mp_free(L->lo, L->D); mp_free(L->hi, L->D);
    mp_free(L->tl, ns); mp_free(L->th, ns); mp_free(L->cl, mc); mp_free(L->ch, mc);
    mp_free(L->prod, L->n);
    free(L->pl); free(L->ph); free(L->pcl); free(L->pch); free(L->pp);
    free(L->ord); free(L->cli);
    mpfr_clears(L->e, L->na, L->ex, L->rl, L->rh, L->bw, (mpfr_ptr)0);
}

static int lr_init(lr_t *L, const fr_logreg *P, size_t i0, size_t i1, mpfr_t *w)
{
    *L = (lr_t){.P = P, .i0 = i0, .i1 = i1, .n = P->n, .w = w};
    for (size_t i = 0; i < i0; i++)
        L->off += P->d[i];
    for (size_t i = i0; i < i1; i++) {
        L->D += P->d[i];
        if (P->d[i] > L->maxd)
            L->maxd = P->d[i];
    }
    size_t mc = i1 - i0, ns = 2 * L->maxd + 1;
    mpfr_inits2(MPFR_PREC_MIN, L->e, L->na, L->ex, L->rl, L->rh, L->bw, (mpfr_ptr)0);
    L->v = mp_array(L->D); L->lo = mp_array(L->D); L->hi = mp_array(L->D);
    L->tl = mp_array(ns); L->th = mp_array(ns); L->cl = mp_array(mc); L->ch = mp_array(mc);
    L->prod = mp_array(L->n);
    L->pl = malloc(ns * sizeof *L->pl); L->ph = malloc(ns * sizeof *L->ph);
    L->pcl = malloc(mc * sizeof *L->pcl); L->pch = malloc(mc * sizeof *L->pch);
    L->pp = malloc(L->n * sizeof *L->pp);
    L->ord = malloc(L->D * sizeof *L->ord);
    L->cli = malloc(L->D * sizeof *L->cli);
    if (!L->v || !L->lo || !L->hi || !L->tl || !L->th || !L->cl || !L->ch || !L->prod
        || !L->pl || !L->ph || !L->pcl || !L->pch || !L->pp || !L->ord || !L->cli)
        return FR_ENOMEM;
    for (size_t i = i0, t = 0; i < i1; i++)
        for (size_t k = 0; k < P->d[i]; k++)
            L->cli[t++] = i;
    for (size_t k = 0; k < mc; k++) {
        L->pcl[k] = L->cl[k];
        L->pch[k] = L->ch[k];
    }
    /* v_t = (1 - 2 b_t) <x_t, w>, exactly */
    for (size_t t = 0; t < L->D; t++) {
        const double *x = P->X + (L->off + t) * L->n;
        for (size_t j = 0; j < L->n; j++) {
            mpfr_set_prec(L->prod[j], mpfr_get_prec(w[j]) + 53);
            mpfr_mul_d(L->prod[j], w[j], x[j], MPFR_RNDN);     /* exact */
            L->pp[j] = L->prod[j];
        }
        int st = fri_sum_exact(L->v[t], L->pp, L->n);
        if (st != FR_OK)
            return st;
        if (P->b[L->off + t] != 0.0)
            mpfr_neg(L->v[t], L->v[t], MPFR_RNDN);
    }
    return FR_OK;
}

/* e = exp(-|v_t|) rounded in direction r, at the precision of e. */
static void expneg(lr_t *L, size_t t, mpfr_rnd_t r)
{
    mpfr_set_prec(L->na, mpfr_get_prec(L->v[t]));
    mpfr_abs(L->na, L->v[t], MPFR_RNDN);
    mpfr_neg(L->na, L->na, MPFR_RNDN);
    directed(L, mpfr_exp(L->e, L->na, r), r);
}

/* lo/hi[t] enclose ln(1 + e^-|v_t|) (log1p is increasing). */
static void bounds_log(lr_t *L, mpfr_prec_t wp)
{
    mpfr_set_prec(L->e, wp);
    for (size_t t = 0; t < L->D; t++) {
        mpfr_set_prec(L->lo[t], wp);
        mpfr_set_prec(L->hi[t], wp);
        expneg(L, t, MPFR_RNDD);
        directed(L, mpfr_log1p(L->lo[t], L->e, MPFR_RNDD), MPFR_RNDD);
        expneg(L, t, MPFR_RNDU);
        directed(L, mpfr_log1p(L->hi[t], L->e, MPFR_RNDU), MPFR_RNDU);
    }
}

/* lo/hi[t] enclose tau(v_t) = 1/(1 + e^|v_t|) = e/(1 + e), e = e^-|v_t|
 * (increasing in e): sigma(v) = tau for v < 0 and 1 - tau for v > 0. */
static void bounds_tau(lr_t *L, mpfr_prec_t wp)
{
    mpfr_set_prec(L->e, wp);
    mpfr_set_prec(L->ex, wp);
    for (size_t t = 0; t < L->D; t++) {
        mpfr_set_prec(L->lo[t], wp);
        mpfr_set_prec(L->hi[t], wp);
        expneg(L, t, MPFR_RNDU);                           /* e_hi */
        directed(L, mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDD), MPFR_RNDD);
        directed(L, mpfr_div(L->hi[t], L->e, L->ex, MPFR_RNDU), MPFR_RNDU);
        expneg(L, t, MPFR_RNDD);                           /* e_lo */
        directed(L, mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDU), MPFR_RNDU);
        directed(L, mpfr_div(L->lo[t], L->e, L->ex, MPFR_RNDD), MPFR_RNDD);
    }
}

/* A result is R + T: R = sum_i C_i / d_i with C_i an exact dyadic sum (the
 * saturated part), T = sum_i T_i / d_i with T_i a sum of terms in e^-|v_t|
 * that are only enclosed.  Keeping R exact (a GMP rational) makes the
 * width of the enclosure relative to T, not to the result: a result next to
 * a rounding boundary because every |v_t| is large is still decided. */
typedef size_t (*fill_fn)(lr_t *L, size_t i, size_t first, size_t j);

/* R = sum_i C_i / d_i, exactly; fill() points pl at client i's exact terms. */
static int exact_part(lr_t *L, fill_fn fill, size_t j, mpq_t R, mpq_t t)
{
    size_t first = 0;
    mpq_set_ui(R, 0, 1);
    for (size_t i = L->i0; i < L->i1; i++) {
        size_t k = fill(L, i, first, j);
        int st = fri_sum_exact(L->ex, L->pl, k);
        if (st != FR_OK)
            return st;
        mpfr_get_q(t, L->ex);
        mpz_mul_ui(mpq_denref(t), mpq_denref(t), (unsigned long)L->P->d[i]);
        mpq_canonicalize(t);
        mpq_add(R, R, t);
        first += L->P->d[i];
    }
    return FR_OK;
}

/* [rl, rh] encloses T; fill() points pl/ph at client i's term bounds. */
static void enclose(lr_t *L, fill_fn fill, size_t j, mpfr_prec_t wp)
{
    size_t first = 0;
    for (size_t i = L->i0; i < L->i1; i++) {
        size_t k = fill(L, i, first, j);
        mpfr_ptr cl = L->cl[i - L->i0], ch = L->ch[i - L->i0];
        mpfr_set_prec(cl, wp);
        mpfr_set_prec(ch, wp);
        if (k == 0) {
            mpfr_set_zero(cl, 1);
            mpfr_set_zero(ch, 1);
        } else {
            directed(L, mpfr_sum(cl, L->pl, (unsigned long)k, MPFR_RNDD), MPFR_RNDD);
            directed(L, mpfr_sum(ch, L->ph, (unsigned long)k, MPFR_RNDU), MPFR_RNDU);
        }
        directed(L, mpfr_div_ui(cl, cl, (unsigned long)L->P->d[i], MPFR_RNDD), MPFR_RNDD);
        directed(L, mpfr_div_ui(ch, ch, (unsigned long)L->P->d[i], MPFR_RNDU), MPFR_RNDU);
        first += L->P->d[i];
    }
    mpfr_set_prec(L->rl, wp);
    mpfr_set_prec(L->rh, wp);
    directed(L, mpfr_sum(L->rl, L->pcl, (unsigned long)(L->i1 - L->i0), MPFR_RNDD), MPFR_RNDD);
    directed(L, mpfr_sum(L->rh, L->pch, (unsigned long)(L->i1 - L->i0), MPFR_RNDU), MPFR_RNDU);
}

/* Try to round R + T (T in [rl, rh], R exact) to nearest at the precision
 * of res; 1 on success.  First the plain test: both ends of
 * [RD(R) + rl, RU(R) + rh] round alike.  Else, if they round to adjacent
 * numbers r1 < r2, exactly one midpoint B lies between them and the result
 * is r2 iff R + T > B: decided from D = R - B, exact in GMP, and the bounds
 * of T (tpos: T > 0 is known, as for the loss).  R + T = B cannot happen:
 * the result is transcendental when T is not identically 0. */
static int settle(mpfr_ptr res, lr_t *L, const mpq_t R, mpq_t D, int tpos)
{
    mpfr_prec_t p = mpfr_get_prec(res), wp = mpfr_get_prec(L->rl);
    mpfr_t a, b, r1, r2;
    mpfr_inits2(wp, a, b, (mpfr_ptr)0);
    mpfr_inits2(p, r1, r2, (mpfr_ptr)0);
    mpfr_set_q(a, R, MPFR_RNDD);
    mpfr_add(a, a, L->rl, MPFR_RNDD);
    mpfr_set_q(b, R, MPFR_RNDU);
    mpfr_add(b, b, L->rh, MPFR_RNDU);
    mpfr_set(r1, a, MPFR_RNDN);
    mpfr_set(r2, b, MPFR_RNDN);
    int sgn = 0;
    if (mpfr_equal_p(r1, r2)) {
        sgn = 1;
    } else {
        mpfr_set(a, r1, MPFR_RNDN);                     /* exact: wp > p */
        mpfr_set_prec(b, p);
        mpfr_set(b, r1, MPFR_RNDN);
        mpfr_nextabove(b);
        if (mpfr_equal_p(b, r2)) {                      /* adjacent: one midpoint */
            mpfr_set_prec(b, p + 2);
            mpfr_add(b, r1, r2, MPFR_RNDN);             /* exact */
            mpfr_div_2ui(b, b, 1, MPFR_RNDN);           /* B, exact */
            mpfr_get_q(D, b);
            mpq_sub(D, R, D);                           /* D = R - B */
            mpfr_set_prec(a, wp);
            mpfr_set_prec(b, wp);
            if (mpq_sgn(D) == 0) {
                sgn = tpos || mpfr_sgn(L->rl) > 0 ? 1 : mpfr_sgn(L->rh) < 0 ? -1 : 0;
            } else {
                mpfr_set_q(a, D, MPFR_RNDD);
                mpfr_add(a, a, L->rl, MPFR_RNDD);
                mpfr_set_q(b, D, MPFR_RNDU);
                mpfr_add(b, b, L->rh, MPFR_RNDU);
                sgn = mpfr_sgn(a) > 0 ? 1 : mpfr_sgn(b) < 0 ? -1 : 0;
            }
            if (sgn < 0)
                mpfr_set(r2, r1, MPFR_RNDN);
        }
    }
    if (sgn != 0)
        mpfr_set(res, r2, MPFR_RNDN);
    mpfr_clears(a, b, r1, r2, (mpfr_ptr)0);
    return sgn != 0;
}

/* ---- the loss ------------------------------------------------------------ */

/* exact part of d_i f_i: max(v_t, 0) per sample and d_i beta/2 ||w||^2
 * (L->prod[0], exact, set by half_beta_norm2). */
static size_t fill_f_exact(lr_t *L, size_t i, size_t first, size_t j)
{
    (void)j;
    size_t k = 0;
    for (size_t t = first; t < first + L->P->d[i]; t++)
        if (mpfr_sgn(L->v[t]) > 0)
            L->pl[k++] = L->v[t];
    mpfr_set_prec(L->tl[0], mpfr_get_prec(L->prod[0]) + 64);
    mpfr_mul_ui(L->tl[0], L->prod[0], (unsigned long)L->P->d[i], MPFR_RNDN);   /* exact */
    L->pl[k++] = L->tl[0];
    return k;
}

/* enclosed part of d_i f_i: ln(1 + e^-|v_t|) per sample (bounds_log). */
static size_t fill_f_T(lr_t *L, size_t i, size_t first, size_t j)
{
    (void)j;
    size_t k = 0;
    for (size_t t = first; t < first + L->P->d[i]; t++) {
        L->pl[k] = L->lo[t];
        L->ph[k++] = L->hi[t];
    }
    return k;
}

/* beta/2 ||w||^2, exactly, into L->prod[0] (the products are free again). */
static int half_beta_norm2(lr_t *L)
{
    int st;
    for (size_t j = 0; j < L->n; j++) {
        if ((st = fri_mul_exact(L->prod[j], L->w[j], L->w[j])) != FR_OK)
            return st;
        L->pp[j] = L->prod[j];
    }
    if ((st = fri_sum_exact(L->ex, L->pp, L->n)) != FR_OK)
        return st;
    mpfr_set_prec(L->prod[0], mpfr_get_prec(L->ex) + 53);
    if (mpfr_mul_d(L->prod[0], L->ex, L->P->beta, MPFR_RNDN) != 0
        || mpfr_div_2ui(L->prod[0], L->prod[0], 1, MPFR_RNDN) != 0)
        return FR_EPREC;
    return FR_OK;
}

/* ---- the gradient ---------------------------------------------------------- */

static double coef(const lr_t *L, size_t t, size_t j)       /* c_tj = (1 - 2 b_t) x_tj */
{
    size_t row = L->off + t;
    double x = L->P->X[row * L->n + j];
    return L->P->b[row] != 0.0 ? -x : x;
}

/* exact part of d_i (g_i)_j: c_tj for v_t > 0 (sigma -> 1), c_tj/2 for
 * v_t = 0, and d_i beta w_j (L->bw = beta w_j). */
static size_t fill_g_exact(lr_t *L, size_t i, size_t first, size_t j)
{
    size_t k = 0, ns = 2 * L->maxd + 1;
    for (size_t t = first; t < first + L->P->d[i]; t++) {
        double c = coef(L, t, j);
        int sg = mpfr_sgn(L->v[t]);
        if (c == 0.0 || sg < 0)
            continue;
        mpfr_set_prec(L->tl[k], 53);
        mpfr_set_d(L->tl[k], c, MPFR_RNDN);                    /* exact */
        if (sg == 0)
            mpfr_div_2ui(L->tl[k], L->tl[k], 1, MPFR_RNDN);    /* exact (no underflow here) */
        L->pl[k] = L->tl[k];
        k++;
    }
    mpfr_ptr x = L->tl[ns - 1];
    mpfr_set_prec(x, mpfr_get_prec(L->bw) + 64);
    mpfr_mul_ui(x, L->bw, (unsigned long)L->P->d[i], MPFR_RNDN);      /* exact */
    L->pl[k++] = x;
    return k;
}

/* enclosed part: -c_tj tau_t for v_t > 0, +c_tj tau_t for v_t < 0. */
static size_t fill_g_T(lr_t *L, size_t i, size_t first, size_t j)
{
    size_t k = 0;
    mpfr_prec_t wp = mpfr_get_prec(L->rl);
    for (size_t t = first; t < first + L->P->d[i]; t++) {
        double c = coef(L, t, j);
        int sg = mpfr_sgn(L->v[t]);
        if (c == 0.0 || sg == 0)
            continue;
        if (sg > 0)
            c = -c;
        mpfr_set_prec(L->tl[k], wp);
        mpfr_set_prec(L->th[k], wp);
        directed(L, mpfr_mul_d(L->tl[k], c > 0 ? L->lo[t] : L->hi[t], c, MPFR_RNDD), MPFR_RNDD);
        directed(L, mpfr_mul_d(L->th[k], c > 0 ? L->hi[t] : L->lo[t], c, MPFR_RNDU), MPFR_RNDU);
        L->pl[k] = L->tl[k];
        L->ph[k] = L->th[k];
        k++;
    }
    return k;
}

/* 1 iff the enclosed part of (sum_i g_i)_j is exactly 0: with samples
 * grouped by a = |v_t| > 0, every K_a = sum_group sgn(v_t) c_tj / d_i is 0
 * (decided in GMP rationals).  Samples are sorted by |v_t| in L->ord. */
static int grad_exact(lr_t *L, size_t j, mpq_t K, mpq_t t1)
{
    /* cheap test: a group {t} of one sample with a > 0 and c_tj != 0 */
    for (size_t s = 0; s < L->D; s++) {
        size_t t = L->ord[s].t;
        if (mpfr_zero_p(L->v[t]) || coef(L, t, j) == 0.0)
            continue;
        int alone = (s == 0 || mpfr_cmpabs(L->v[L->ord[s - 1].t], L->v[t]) != 0)
                 && (s + 1 == L->D || mpfr_cmpabs(L->v[L->ord[s + 1].t], L->v[t]) != 0);
        if (alone)
            return 0;
    }
    for (size_t s = 0; s < L->D;) {
        size_t e = s + 1;
        while (e < L->D && mpfr_cmpabs(L->v[L->ord[e].t], L->v[L->ord[s].t]) == 0)
            e++;
        if (!mpfr_zero_p(L->v[L->ord[s].t])) {
            mpq_set_ui(K, 0, 1);
            for (size_t r = s; r < e; r++) {
                size_t t = L->ord[r].t;
                mpq_set_d(t1, coef(L, t, j));
                mpz_mul_ui(mpq_denref(t1), mpq_denref(t1), (unsigned long)L->P->d[L->cli[t]]);
                mpq_canonicalize(t1);                      /* c_tj / d_i */
                if (mpfr_sgn(L->v[t]) > 0)
                    mpq_add(K, K, t1);
                else
                    mpq_sub(K, K, t1);
            }
            if (mpq_sgn(K) != 0)
                return 0;
        }
        s = e;
    }
    return 1;
}

/* ---- driver ----------------------------------------------------------------- */

static int lr_eval(mpfr_ptr f, mpfr_t *g, const fr_logreg *P, size_t i0, size_t i1,
                   mpfr_t *w)
{
    size_t n = P->n;
    lr_t L;
    int st = lr_init(&L, P, i0, i1, w);
    mpfr_t fr;
    mpfr_t *gr = NULL;
    mpq_t *Rg = NULL;
    char *pend = NULL;
    mpq_t Rf, K, t1;
    mpq_inits(Rf, K, t1, NULL);
    mpfr_init2(fr, f ? mpfr_get_prec(f) : MPFR_PREC_MIN);
    if (st == FR_OK && g != NULL) {
        gr = malloc(n * sizeof *gr);
        Rg = malloc(n * sizeof *Rg);
        pend = malloc(n);
        if (gr == NULL || pend == NULL || Rg == NULL) {
            free(gr); free(Rg);
            gr = NULL; Rg = NULL;
            st = FR_ENOMEM;
        } else {
            for (size_t j = 0; j < n; j++) {
                mpfr_init2(gr[j], mpfr_get_prec(g[j]));
                mpq_init(Rg[j]);
            }
        }
    }
    mpfr_prec_t pmax = f ? mpfr_get_prec(f) : MPFR_PREC_MIN;
    int fpend = f != NULL, gpend = 0;
    if (st == FR_OK && f != NULL && (st = half_beta_norm2(&L)) == FR_OK)
        st = exact_part(&L, fill_f_exact, 0, Rf, t1);
    if (st == FR_OK && g != NULL) {
        for (size_t t = 0; t < L.D; t++)
            L.ord[t] = (byabs_t){L.v[t], t};
        qsort(L.ord, L.D, sizeof *L.ord, cmp_byabs);
        for (size_t j = 0; j < n && st == FR_OK; j++) {
            mpfr_set_prec(L.bw, mpfr_get_prec(w[j]) + 53);
            mpfr_mul_d(L.bw, w[j], P->beta, MPFR_RNDN);         /* exact */
            if ((st = exact_part(&L, fill_g_exact, j, Rg[j], t1)) != FR_OK)
                break;
            pend[j] = !grad_exact(&L, j, K, t1);
            if (pend[j]) {
                gpend++;
                if (mpfr_get_prec(g[j]) > pmax)
                    pmax = mpfr_get_prec(g[j]);
            } else {
                mpfr_set_q(gr[j], Rg[j], MPFR_RNDN);            /* exact result, one rounding */
            }
        }
    }
    /* Ziv loop; the cap is only reached if a bound cannot shrink (some
     * e^-|v_t| below MPFR's exponent range with the saturated part R exactly
     * on a rounding boundary) */
    mpfr_prec_t cap = 16 * pmax + 8192;
    for (mpfr_prec_t wp = pmax + 40; st == FR_OK && (fpend || gpend); wp *= 2) {
        if (wp > cap) {
            st = FR_EINTERNAL;
            break;
        }
        mpfr_set_prec(L.rl, wp);
        if (fpend) {
            bounds_log(&L, wp);
            enclose(&L, fill_f_T, 0, wp);
            fpend = !settle(fr, &L, Rf, t1, 1);
        }
        if (gpend) {
            bounds_tau(&L, wp);
            for (size_t j = 0; j < n; j++) {
                if (!pend[j])
                    continue;
                mpfr_set_prec(L.rl, wp);
                enclose(&L, fill_g_T, j, wp);
                if (settle(gr[j], &L, Rg[j], t1, 0)) {
                    pend[j] = 0;
                    gpend--;
                }
            }
        }
    }
    if (st == FR_OK && L.misrounded)
        st = FR_EINTERNAL;
    if (st == FR_OK) {
        if (f != NULL)
            mpfr_set(f, fr, MPFR_RNDN);
        if (g != NULL)
            for (size_t j = 0; j < n; j++)
                mpfr_set(g[j], gr[j], MPFR_RNDN);
    }
    if (gr != NULL)
        for (size_t j = 0; j < n; j++) {
            mpfr_clear(gr[j]);
            mpq_clear(Rg[j]);
        }
    free(gr); free(Rg); free(pend);
    mpq_clears(Rf, K, t1, NULL);
    mpfr_clear(fr);
    lr_free(&L);
    return st;
}

/* Class order (fedref_common.h): P's own first failing class
 * (fr_logreg_check) is reported at its place among the other arguments';
 * i < m is checked when has_i. */
static int check_args(mpfr_ptr f, mpfr_t *g, const fr_logreg *P, size_t i, int has_i,
                      mpfr_t *const w)
{
    const int sp = fr_logreg_check(P);
    if (sp == FR_ENULL || w == NULL || (f == NULL && g == NULL))
        return FR_ENULL;
    if (sp == FR_ESIZE || (has_i && i >= P->m))
        return FR_ESIZE;
    if (sp == FR_ENONFINITE || !fri_finite(w, P->n))
        return FR_ENONFINITE;
    if (sp != FR_OK)
        return sp;                                  /* FR_EDOM */
    if (f != NULL && g != NULL && fri_overlap(f, sizeof(mpfr_t), g, P->n * sizeof(mpfr_t)))
        return FR_EDOM;                             /* two outputs */
    return FR_OK;
}

/* f_i(w) and grad f_i(w), 002 Sec. VII-A. */
int fr_logreg_fi(mpfr_t fi, mpfr_t *gi, const fr_logreg *P, size_t i, mpfr_t *const w)
{
    int st = check_args(fi, gi, P, i, 1, w);
    if (st != FR_OK)
        return st;
    return lr_eval(fi, gi, P, i, i + 1, w);
}

/* f = sum_i f_i and its gradient, 002 (1). */
int fr_logreg_f(mpfr_t f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w)
{
    int st = check_args(f, g, P, 0, 0, w);
    if (st != FR_OK)
        return st;
    return lr_eval(f, g, P, 0, P->m, w);
}

/* ---- the runs' path (rounds.h): P checked once per run ---------------------- */

int fri_logreg_fi(mpfr_t fi, mpfr_t *gi, const fr_logreg *P, size_t i, mpfr_t *const w)
{
    if (!fri_finite(w, P->n))
        return FR_ENONFINITE;
    return lr_eval(fi, gi, P, i, i + 1, w);
}

int fri_logreg_f(mpfr_t f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w)
{
    if (!fri_finite(w, P->n))
        return FR_ENONFINITE;
    return lr_eval(f, g, P, 0, P->m, w);
}
