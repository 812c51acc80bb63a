/* logreg.c -- the logistic loss of 002 Sec. VII-A and its gradient,
 * correctly rounded.
 *
 * With u_t = <x_t, w> and v_t = (1 - 2 b_t) u_t (exact dyadic numbers),
 *   ln(1 + e^u_t) - b_t u_t = L(v_t),  L(v) = max(v, 0) + ln(1 + e^-|v|),
 *   sigma(u_t) - b_t        = (1 - 2 b_t) sigma(v_t),
 * so, for client i with samples T_i,
 *   d_i f_i        = sum_t L(v_t) + d_i beta/2 ||w||^2,
 *   d_i (g_i)_j    = sum_t c_tj sigma(v_t) + d_i beta w_j,  c_tj = (1 - 2 b_t) x_tj.
 * The v_t are formed exactly (exact products, one exact mpfr_sum).  A Ziv
 * loop then encloses each result: exp, log1p, the divisions and the sums are
 * rounded down for the lower end and up for the upper end (every map used
 * is monotone in the rounded argument), and the loop stops when both ends
 * round to the same number.
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
#include "internal.h"

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
} lr_t;

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
    mpfr_exp(L->e, L->na, r);
}

/* lo/hi[t] enclose ln(1 + e^-|v_t|) (log1p is increasing). */
static void bounds_log(lr_t *L, mpfr_prec_t wp)
{
    mpfr_set_prec(L->e, wp);
    for (size_t t = 0; t < L->D; t++) {
        mpfr_set_prec(L->lo[t], wp);
        mpfr_set_prec(L->hi[t], wp);
        expneg(L, t, MPFR_RNDD);
        mpfr_log1p(L->lo[t], L->e, MPFR_RNDD);
        expneg(L, t, MPFR_RNDU);
        mpfr_log1p(L->hi[t], L->e, MPFR_RNDU);
    }
}

/* lo/hi[t] enclose sigma(v_t): with e = e^-|v|, sigma = 1/(1 + e) for v >= 0
 * (decreasing in e), e/(1 + e) for v < 0 (increasing in e). */
static void bounds_sigma(lr_t *L, mpfr_prec_t wp)
{
    mpfr_set_prec(L->e, wp);
    mpfr_set_prec(L->ex, wp);
    for (size_t t = 0; t < L->D; t++) {
        mpfr_ptr lo = L->lo[t], hi = L->hi[t];
        mpfr_set_prec(lo, wp);
        mpfr_set_prec(hi, wp);
        int pos = mpfr_sgn(L->v[t]) >= 0;
        expneg(L, t, MPFR_RNDU);                           /* e_hi */
        if (pos) {
            mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDU);
            mpfr_ui_div(lo, 1, L->ex, MPFR_RNDD);
        } else {
            mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDD);
            mpfr_div(hi, L->e, L->ex, MPFR_RNDU);
        }
        expneg(L, t, MPFR_RNDD);                           /* e_lo */
        if (pos) {
            mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDD);
            mpfr_ui_div(hi, 1, L->ex, MPFR_RNDU);
        } else {
            mpfr_add_ui(L->ex, L->e, 1, MPFR_RNDU);
            mpfr_div(lo, L->e, L->ex, MPFR_RNDD);
        }
    }
}

/* [rl, rh] encloses sum_i (1/d_i) (sum of the client's summands + extra_i):
 * the summands tl/th of client i are filled by fill(). */
typedef size_t (*fill_fn)(lr_t *L, size_t i, size_t first, size_t j, mpfr_prec_t wp);

static void enclose(lr_t *L, fill_fn fill, size_t j, mpfr_prec_t wp)
{
    size_t first = 0;
    for (size_t i = L->i0; i < L->i1; i++) {
        size_t k = fill(L, i, first, j, wp);
        mpfr_ptr cl = L->cl[i - L->i0], ch = L->ch[i - L->i0];
        mpfr_set_prec(cl, wp);
        mpfr_set_prec(ch, wp);
        mpfr_sum(cl, L->pl, (unsigned long)k, MPFR_RNDD);
        mpfr_sum(ch, L->ph, (unsigned long)k, MPFR_RNDU);
        mpfr_div_ui(cl, cl, (unsigned long)L->P->d[i], MPFR_RNDD);
        mpfr_div_ui(ch, ch, (unsigned long)L->P->d[i], MPFR_RNDU);
        first += L->P->d[i];
    }
    mpfr_set_prec(L->rl, wp);
    mpfr_set_prec(L->rh, wp);
    mpfr_sum(L->rl, L->pcl, (unsigned long)(L->i1 - L->i0), MPFR_RNDD);
    mpfr_sum(L->rh, L->pch, (unsigned long)(L->i1 - L->i0), MPFR_RNDU);
}

/* Both ends round to the same p-bit number: that is the correct rounding. */
static int settle(mpfr_ptr res, lr_t *L)
{
    mpfr_prec_t p = mpfr_get_prec(res);
    mpfr_t a;
    mpfr_init2(a, p);
    mpfr_set(a, L->rl, MPFR_RNDN);
    mpfr_set(res, L->rh, MPFR_RNDN);
    int ok = mpfr_equal_p(a, res);
    mpfr_clear(a);
    return ok;
}

/* ---- the loss ------------------------------------------------------------ */

/* summands of d_i f_i: max(v_t, 0) and ln(1 + e^-|v_t|) per sample, and
 * d_i beta/2 ||w||^2 (L->prod[0], exact, set by lr_loss). */
static size_t fill_f(lr_t *L, size_t i, size_t first, size_t j, mpfr_prec_t wp)
{
    (void)j; (void)wp;
    size_t k = 0;
    for (size_t t = first; t < first + L->P->d[i]; t++) {
        L->pl[k] = L->lo[t];
        L->ph[k++] = L->hi[t];
        if (mpfr_sgn(L->v[t]) > 0) {
            L->pl[k] = L->v[t];
            L->ph[k++] = L->v[t];
        }
    }
    mpfr_set_prec(L->tl[0], mpfr_get_prec(L->prod[0]) + 64);
    mpfr_mul_ui(L->tl[0], L->prod[0], (unsigned long)L->P->d[i], MPFR_RNDN);   /* exact */
    L->pl[k] = L->tl[0];
    L->ph[k++] = L->tl[0];
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

/* summands of d_i (g_i)_j: c_tj sigma(v_t) enclosed, and d_i beta w_j
 * (exact; L->bw = beta w_j). */
static size_t fill_g(lr_t *L, size_t i, size_t first, size_t j, mpfr_prec_t wp)
{
    size_t k = 0, ns = 2 * L->maxd + 1;
    for (size_t t = first; t < first + L->P->d[i]; t++) {
        size_t row = L->off + t;
        double c = L->P->b[row] != 0.0 ? -L->P->X[row * L->n + j] : L->P->X[row * L->n + j];
        if (c == 0.0)
            continue;
        mpfr_set_prec(L->tl[k], wp);
        mpfr_set_prec(L->th[k], wp);
        mpfr_mul_d(L->tl[k], c > 0 ? L->lo[t] : L->hi[t], c, MPFR_RNDD);
        mpfr_mul_d(L->th[k], c > 0 ? L->hi[t] : L->lo[t], c, MPFR_RNDU);
        L->pl[k] = L->tl[k];
        L->ph[k] = L->th[k];
        k++;
    }
    mpfr_ptr x = L->tl[ns - 1];
    mpfr_set_prec(x, mpfr_get_prec(L->bw) + 64);
    mpfr_mul_ui(x, L->bw, (unsigned long)L->P->d[i], MPFR_RNDN);      /* exact */
    L->pl[k] = x;
    L->ph[k++] = x;
    return k;
}

/* If (sum_i g_i)_j is rational (every K_a = 0, see the head comment), set q
 * to it and return 1; else return 0.  Samples are sorted by |v_t| in L->ord. */
static int grad_exact(lr_t *L, size_t j, mpq_t q, mpq_t K, mpq_t t1)
{
    const fr_logreg *P = L->P;
    /* cheap test: a group {t} of one sample with a > 0 and c_tj != 0 */
    for (size_t s = 0; s < L->D; s++) {
        size_t t = L->ord[s].t;
        if (mpfr_zero_p(L->v[t]) || P->X[(L->off + t) * L->n + j] == 0.0)
            continue;
        int alone = (s == 0 || mpfr_cmpabs(L->v[L->ord[s - 1].t], L->v[t]) != 0)
                 && (s + 1 == L->D || mpfr_cmpabs(L->v[L->ord[s + 1].t], L->v[t]) != 0);
        if (alone)
            return 0;
    }
    mpq_set_ui(q, 0, 1);
    for (size_t s = 0; s < L->D;) {
        size_t e = s + 1;
        while (e < L->D && mpfr_cmpabs(L->v[L->ord[e].t], L->v[L->ord[s].t]) == 0)
            e++;
        mpq_set_ui(K, 0, 1);
        for (size_t r = s; r < e; r++) {
            size_t t = L->ord[r].t, row = L->off + t;
            mpq_set_d(t1, P->X[row * L->n + j]);
            if (P->b[row] != 0.0)
                mpq_neg(t1, t1);
            mpz_mul_ui(mpq_denref(t1), mpq_denref(t1), (unsigned long)P->d[L->cli[t]]);
            mpq_canonicalize(t1);                          /* c_tj / d_i */
            int sg = mpfr_sgn(L->v[t]);
            if (sg == 0) {                                 /* sigma(0) = 1/2 */
                mpz_mul_2exp(mpq_denref(t1), mpq_denref(t1), 1);
                mpq_canonicalize(t1);
                mpq_add(q, q, t1);
            } else if (sg > 0) {
                mpq_add(K, K, t1);
            } else {                                       /* sigma(-a) = 1 - sigma(a) */
                mpq_add(q, q, t1);
                mpq_sub(K, K, t1);
            }
        }
        if (mpq_sgn(K) != 0)
            return 0;
        s = e;
    }
    /* + (number of clients) beta w_j */
    mpq_set_d(t1, P->beta);
    mpfr_get_q(K, L->w[j]);
    mpq_mul(t1, t1, K);
    mpq_set_ui(K, (unsigned long)(L->i1 - L->i0), 1);
    mpq_mul(t1, t1, K);
    mpq_add(q, q, t1);
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
    char *pend = NULL;
    mpfr_init2(fr, f ? mpfr_get_prec(f) : MPFR_PREC_MIN);
    if (st == FR_OK && g != NULL) {
        gr = malloc(n * sizeof *gr);
        pend = malloc(n);
        if (gr == NULL || pend == NULL)
            st = FR_ENOMEM;
        else
            for (size_t j = 0; j < n; j++)
                mpfr_init2(gr[j], mpfr_get_prec(g[j]));
    }
    mpfr_prec_t pmax = f ? mpfr_get_prec(f) : MPFR_PREC_MIN;
    int fpend = f != NULL, gpend = 0;
    if (st == FR_OK && f != NULL)
        st = half_beta_norm2(&L);
    if (st == FR_OK && g != NULL) {
        for (size_t t = 0; t < L.D; t++)
            L.ord[t] = (byabs_t){L.v[t], t};
        qsort(L.ord, L.D, sizeof *L.ord, cmp_byabs);
        mpq_t q, K, t1;
        mpq_inits(q, K, t1, NULL);
        for (size_t j = 0; j < n; j++) {
            pend[j] = !grad_exact(&L, j, q, K, t1);
            if (pend[j]) {
                gpend++;
                if (mpfr_get_prec(g[j]) > pmax)
                    pmax = mpfr_get_prec(g[j]);
            } else {
                mpfr_set_q(gr[j], q, MPFR_RNDN);            /* the one rounding */
            }
        }
        mpq_clears(q, K, t1, NULL);
    }
    /* Ziv loop; the cap is only reached if a bound cannot shrink (an
     * exponential below MPFR's exponent range next to a rounding boundary) */
    mpfr_prec_t cap = 16 * pmax + 8192;
    for (mpfr_prec_t wp = pmax + 40; st == FR_OK && (fpend || gpend); wp *= 2) {
        if (wp > cap) {
            st = FR_EINTERNAL;
            break;
        }
        if (fpend) {
            bounds_log(&L, wp);
            enclose(&L, fill_f, 0, wp);
            fpend = !settle(fr, &L);
        }
        if (gpend) {
            bounds_sigma(&L, wp);
            for (size_t j = 0; j < n; j++) {
                if (!pend[j])
                    continue;
                mpfr_set_prec(L.bw, mpfr_get_prec(w[j]) + 53);
                mpfr_mul_d(L.bw, w[j], P->beta, MPFR_RNDN);         /* exact */
                enclose(&L, fill_g, j, wp);
                if (settle(gr[j], &L)) {
                    pend[j] = 0;
                    gpend--;
                }
            }
        }
    }
    if (st == FR_OK) {
        if (f != NULL)
            mpfr_set(f, fr, MPFR_RNDN);
        if (g != NULL)
            for (size_t j = 0; j < n; j++)
                mpfr_set(g[j], gr[j], MPFR_RNDN);
    }
    if (gr != NULL && pend != NULL)
        for (size_t j = 0; j < n; j++)
            mpfr_clear(gr[j]);
    free(gr); free(pend);
    mpfr_clear(fr);
    lr_free(&L);
    return st;
}

static int check_args(mpfr_ptr f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w)
{
    int st;
    if (f == NULL && g == NULL)
        return FR_ENULL;
    if ((st = fr_logreg_check(P)) != FR_OK)
        return st;
    return fri_check_finite(w, P->n);
}

/* f_i(w) and grad f_i(w), 002 Sec. VII-A. */
int fr_logreg_fi(mpfr_t fi, mpfr_t *gi, const fr_logreg *P, size_t i, mpfr_t *const w)
{
    int st = check_args(fi, gi, P, w);
    if (st != FR_OK)
        return st;
    if (i >= P->m)
        return FR_ESIZE;
    return lr_eval(fi, gi, P, i, i + 1, w);
}

/* f = sum_i f_i and its gradient, 002 (1). */
int fr_logreg_f(mpfr_t f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w)
{
    int st = check_args(f, g, P, w);
    if (st != FR_OK)
        return st;
    return lr_eval(f, g, P, 0, P->m, w);
}
