/* SPDX-License-Identifier: Apache-2.0 */
/* pc_util.c -- exact-arithmetic helpers of the proof checks (pc_util.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pc_util.h"

/* No exact intermediate in the checks needs more bits than this; beyond it
 * something has gone wrong (a runaway exponent), so refuse rather than
 * allocate. */
#define PCU_PREC_CAP ((mpfr_prec_t)1 << 22)

static int fit(mpfr_t r, mpfr_prec_t p)
{
    if (p < MPFR_PREC_MIN)
        p = MPFR_PREC_MIN;
    if (p > PCU_PREC_CAP)
        return -1;
    mpfr_set_prec(r, p);
    return 0;
}

mpfr_exp_t pcu_lowbit(const mpfr_t x)
{
    return mpfr_get_exp(x) - (mpfr_exp_t)mpfr_min_prec(x);
}

int pcu_set(mpfr_t r, const mpfr_t a)
{
    if (!mpfr_number_p(a))
        return -1;
    if (fit(r, mpfr_zero_p(a) ? MPFR_PREC_MIN : mpfr_min_prec(a)))
        return -1;
    return mpfr_set(r, a, MPFR_RNDN) ? -1 : 0;
}

int pcu_neg(mpfr_t r, const mpfr_t a)
{
    if (pcu_set(r, a))
        return -1;
    mpfr_neg(r, r, MPFR_RNDN);
    return 0;
}

int pcu_abs(mpfr_t r, const mpfr_t a)
{
    if (pcu_set(r, a))
        return -1;
    mpfr_abs(r, r, MPFR_RNDN);
    return 0;
}

static int add_sub(mpfr_t r, const mpfr_t a, const mpfr_t b, int sub)
{
    if (!mpfr_number_p(a) || !mpfr_number_p(b))
        return -1;
    if (mpfr_zero_p(b))
        return pcu_set(r, a);
    if (mpfr_zero_p(a))
        return sub ? pcu_neg(r, b) : pcu_set(r, b);
    mpfr_exp_t ea = mpfr_get_exp(a), eb = mpfr_get_exp(b);
    mpfr_exp_t la = pcu_lowbit(a), lb = pcu_lowbit(b);
    mpfr_exp_t hi = (ea > eb ? ea : eb) + 1, lo = la < lb ? la : lb;
    if (fit(r, (mpfr_prec_t)(hi - lo)))
        return -1;
    int t = sub ? mpfr_sub(r, a, b, MPFR_RNDN) : mpfr_add(r, a, b, MPFR_RNDN);
    return t ? -1 : 0;
}

int pcu_add(mpfr_t r, const mpfr_t a, const mpfr_t b) { return add_sub(r, a, b, 0); }
int pcu_sub(mpfr_t r, const mpfr_t a, const mpfr_t b) { return add_sub(r, a, b, 1); }

int pcu_mid(mpfr_t r, const mpfr_t a, const mpfr_t b)
{
    if (pcu_add(r, a, b))
        return -1;
    return mpfr_div_2ui(r, r, 1, MPFR_RNDN) ? -1 : 0;
}

int pcu_mul(mpfr_t r, const mpfr_t a, const mpfr_t b)
{
    if (!mpfr_number_p(a) || !mpfr_number_p(b))
        return -1;
    if (mpfr_zero_p(a) || mpfr_zero_p(b)) {
        if (fit(r, MPFR_PREC_MIN))
            return -1;
        mpfr_set_zero(r, 1);
        return 0;
    }
    if (fit(r, mpfr_min_prec(a) + mpfr_min_prec(b)))
        return -1;
    return mpfr_mul(r, a, b, MPFR_RNDN) ? -1 : 0;
}

int pcu_mul_si(mpfr_t r, const mpfr_t a, long k)
{
    if (!mpfr_number_p(a))
        return -1;
    if (mpfr_zero_p(a) || k == 0) {
        if (fit(r, MPFR_PREC_MIN))
            return -1;
        mpfr_set_zero(r, 1);
        return 0;
    }
    if (fit(r, mpfr_min_prec(a) + 64))
        return -1;
    return mpfr_mul_si(r, a, k, MPFR_RNDN) ? -1 : 0;
}

int pcu_sum(mpfr_t r, mpfr_ptr const *v, unsigned long n)
{
    mpfr_exp_t hi = 0, lo = 0;
    int any = 0;
    for (unsigned long i = 0; i < n; i++) {
        if (!mpfr_number_p(v[i]))
            return -1;
        if (mpfr_zero_p(v[i]))
            continue;
        mpfr_exp_t e = mpfr_get_exp(v[i]), l = pcu_lowbit(v[i]);
        if (!any || e > hi)
            hi = e;
        if (!any || l < lo)
            lo = l;
        any = 1;
    }
    if (!any) {
        if (fit(r, MPFR_PREC_MIN))
            return -1;
        mpfr_set_zero(r, 1);
        return 0;
    }
    mpfr_exp_t carry = 1;
    for (unsigned long k = n; k > 1; k >>= 1)
        carry++;
    if (fit(r, (mpfr_prec_t)(hi + carry - lo)))
        return -1;
    return mpfr_sum(r, (const mpfr_ptr *)v, n, MPFR_RNDN) ? -1 : 0;
}

int pcu_sign_sum(mpfr_ptr const *v, unsigned long n)
{
    /* mpfr_sum is correctly rounded, so the rounded sum has the sign of the
     * exact sum and is zero iff the exact sum is. */
    MPFR_DECL_INIT(s, 8);
    mpfr_sum(s, (const mpfr_ptr *)v, n, MPFR_RNDN);
    return mpfr_sgn(s);
}

/* ---- random ---------------------------------------------------------------*/

unsigned long pcu_below(frng_t *g, unsigned long n)
{
    uint64_t r = 0;
    if (n <= 1)
        return 0;
    (void)frng_below(g, n, &r);
    return (unsigned long)r;
}

static void rand_dyadic(mpfr_t x, frng_t *g, unsigned bits, long emin,
                        long emax, int nonneg, int nz)
{
    if (bits < 1)
        bits = 1;
    if (bits > 64)
        bits = 64;
    uint64_t k = frng_next64(g) >> (64 - bits);
    if (nz)
        k |= 1;
    long e = emin + (long)pcu_below(g, (unsigned long)(emax - emin + 1));
    mpfr_set_uj_2exp(x, (uintmax_t)k, e - (long)bits, MPFR_RNDN); /* |x| < 2^e */
    if (!nonneg && (frng_next64(g) & 1))
        mpfr_neg(x, x, MPFR_RNDN);
}

void pcu_rand_dyadic(mpfr_t x, frng_t *g, unsigned bits, long emin, long emax,
                     int nonneg)
{
    rand_dyadic(x, g, bits, emin, emax, nonneg, 0);
}

void pcu_rand_dyadic_nz(mpfr_t x, frng_t *g, unsigned bits, long emin,
                        long emax, int nonneg)
{
    rand_dyadic(x, g, bits, emin, emax, nonneg, 1);
}

/* ---- the rounding certificate ---------------------------------------------*/

int pcu_cert_rn(pcu_dsign_fn d, void *state, const mpfr_t x, int tie_any,
                int *exact, const char **where)
{
    const char *dummy;
    int res = 2, sl, sr;
    if (where == NULL)
        where = &dummy;
    *where = "internal";
    if (exact)
        *exact = 0;
    if (!mpfr_number_p(x)) {
        *where = "result is not a finite number";
        return 1;
    }
    sl = d(state, x, -1);
    sr = d(state, x, +1);
    if (sl == 2 || sr == 2)
        return 2;
    if (sl <= 0 && sr >= 0) {         /* 0 in the subdifferential at x */
        if (exact)
            *exact = 1;
        return 0;
    }
    if (mpfr_zero_p(x)) {
        /* x* != 0, and a non-zero real rounds to a non-zero value in
         * MPFR's exponent range: the result should not be 0. */
        *where = sl > 0 ? "result 0 but f'_-(0) > 0" : "result 0 but f'_+(0) < 0";
        return 1;
    }
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t nb, L, U;
    mpfr_inits2(p, nb, (mpfr_ptr)0);
    mpfr_inits2(MPFR_PREC_MIN, L, U, (mpfr_ptr)0);
    mpfr_set(nb, x, MPFR_RNDN);
    mpfr_nextbelow(nb);
    if (pcu_mid(L, x, nb))
        goto done;
    mpfr_set(nb, x, MPFR_RNDN);
    mpfr_nextabove(nb);
    if (pcu_mid(U, x, nb))
        goto done;
    int sL = d(state, L, -1), sU = d(state, U, +1);
    if (sL == 2 || sU == 2)
        goto done;
    if (sL > 0) {
        *where = "exact minimiser below x by more than half an ulp";
        res = 1;
        goto done;
    }
    if (sU < 0) {
        *where = "exact minimiser above x by more than half an ulp";
        res = 1;
        goto done;
    }
    /* x* in [L, U].  A tie iff x* = L (f'_+(L) >= 0) or x* = U
     * (f'_-(U) <= 0). */
    int tL = d(state, L, +1), tU = d(state, U, -1);
    if (tL == 2 || tU == 2)
        goto done;
    if ((tL >= 0 || tU <= 0) && !tie_any && mpfr_min_prec(x) >= p) {
        *where = "tie rounded to the odd neighbour";
        res = 1;
        goto done;
    }
    res = 0;
done:
    mpfr_clears(nb, L, U, (mpfr_ptr)0);
    return res;
}

/* ---- f(y) = c|y| + r/2 (y - u)^2 -----------------------------------------*/

void pcu_prox1d_init(pcu_prox1d *s, mpfr_ptr c, mpfr_ptr r, mpfr_ptr ru)
{
    s->c = c;
    s->r = r;
    s->ru = ru;
    mpfr_inits2(MPFR_PREC_MIN, s->t1, s->t2, s->t3, s->t4, s->t5, s->t6,
                (mpfr_ptr)0);
}

void pcu_prox1d_clear(pcu_prox1d *s)
{
    mpfr_clears(s->t1, s->t2, s->t3, s->t4, s->t5, s->t6, (mpfr_ptr)0);
}

static int sgn_side(const mpfr_t y, int side)
{
    int s = mpfr_sgn(y);
    return s ? (s > 0 ? 1 : -1) : side;
}

int pcu_prox1d_dsign(void *state, const mpfr_t y, int side)
{
    pcu_prox1d *s = state;
    int sg = sgn_side(y, side);
    if (pcu_mul(s->t1, s->r, y) || pcu_neg(s->t2, s->ru) || pcu_set(s->t3, s->c))
        return 2;
    if (sg < 0)
        mpfr_neg(s->t3, s->t3, MPFR_RNDN);
    mpfr_ptr v[3] = {s->t1, s->t2, s->t3};
    return pcu_sign_sum(v, 3);
}

int pcu_prox1d_dsign_frac(pcu_prox1d *s, const mpfr_t P, const mpfr_t Q,
                          int side)
{
    int sg = sgn_side(P, side);
    if (pcu_mul(s->t1, s->r, P) || pcu_mul(s->t4, s->ru, Q) ||
        pcu_neg(s->t2, s->t4) || pcu_mul(s->t3, s->c, Q))
        return 2;
    if (sg < 0)
        mpfr_neg(s->t3, s->t3, MPFR_RNDN);
    mpfr_ptr v[3] = {s->t1, s->t2, s->t3};
    return pcu_sign_sum(v, 3);
}

int pcu_prox1d_fdiff(pcu_prox1d *s, const mpfr_t y, const mpfr_t x)
{
    /* f(y) - f(x) = c|y| - c|x| + (r/2) y^2 - (r/2) x^2 - ru y + ru x */
    mpfr_t A, B, C, D;
    int res = 2;
    mpfr_inits2(MPFR_PREC_MIN, A, B, C, D, (mpfr_ptr)0);
    if (pcu_abs(s->t6, y) || pcu_mul(A, s->c, s->t6))
        goto done;
    if (pcu_abs(s->t6, x) || pcu_mul(s->t1, s->c, s->t6) || pcu_neg(B, s->t1))
        goto done;
    if (pcu_mul(s->t6, y, y) || pcu_mul(C, s->r, s->t6))
        goto done;
    if (pcu_mul(s->t6, x, x) || pcu_mul(s->t1, s->r, s->t6) || pcu_neg(D, s->t1))
        goto done;
    mpfr_div_2ui(C, C, 1, MPFR_RNDN);  /* exact */
    mpfr_div_2ui(D, D, 1, MPFR_RNDN);
    if (pcu_mul(s->t1, s->ru, y) || pcu_neg(s->t2, s->t1) ||
        pcu_mul(s->t3, s->ru, x))
        goto done;
    mpfr_ptr v[6] = {A, B, C, D, s->t2, s->t3};
    res = pcu_sign_sum(v, 6);
done:
    mpfr_clears(A, B, C, D, (mpfr_ptr)0);
    return res;
}

/* ---- h(y) = sum_i lambda |y - w_i| + eta/2 (y - w_i)^2 --------------------*/

int pcu_ens1d_init(pcu_ens1d *s, mpfr_ptr *w, unsigned long m,
                   mpfr_ptr lambda, mpfr_ptr eta)
{
    int rc = 0;
    s->w = w;
    s->m = m;
    s->lambda = lambda;
    s->eta = eta;
    s->last_eq = 0;
    mpfr_inits2(MPFR_PREC_MIN, s->netaS, s->etam, s->t1, s->t2, s->t3, s->t4,
                (mpfr_ptr)0);
    if (pcu_sum(s->t1, w, m) || pcu_mul(s->t2, eta, s->t1) ||
        pcu_neg(s->netaS, s->t2) || pcu_mul_si(s->etam, eta, (long)m))
        rc = -1;
    return rc;
}

void pcu_ens1d_clear(pcu_ens1d *s)
{
    mpfr_clears(s->netaS, s->etam, s->t1, s->t2, s->t3, s->t4, (mpfr_ptr)0);
}

int pcu_ens1d_dsign(void *state, const mpfr_t y, int side)
{
    pcu_ens1d *s = state;
    long k = 0, eq = 0;
    for (unsigned long i = 0; i < s->m; i++) {
        int c = mpfr_cmp(s->w[i], y);
        if (c < 0)
            k++;
        else if (c > 0)
            k--;
        else
            eq++;
    }
    s->last_eq = (unsigned long)eq;
    k += side * eq;
    if (pcu_mul_si(s->t1, s->lambda, k) || pcu_mul(s->t2, s->etam, y))
        return 2;
    mpfr_ptr v[3] = {s->t1, s->t2, s->netaS};
    return pcu_sign_sum(v, 3);
}

int pcu_ens1d_dsign_frac(pcu_ens1d *s, const mpfr_t P, const mpfr_t Q,
                         int side)
{
    long k = 0, eq = 0;
    for (unsigned long i = 0; i < s->m; i++) {
        if (pcu_mul(s->t4, s->w[i], Q))
            return 2;
        int c = mpfr_cmp(s->t4, P);
        if (c < 0)
            k++;
        else if (c > 0)
            k--;
        else
            eq++;
    }
    s->last_eq = (unsigned long)eq;
    k += side * eq;
    if (pcu_mul_si(s->t4, s->lambda, k) || pcu_mul(s->t1, s->t4, Q) ||
        pcu_mul(s->t2, s->etam, P) || pcu_mul(s->t3, s->netaS, Q))
        return 2;
    mpfr_ptr v[3] = {s->t1, s->t2, s->t3};
    return pcu_sign_sum(v, 3);
}

/* ---- random and adversarial ENS instances ---------------------------------*/

void pcu_ens_case_init(pcu_ens_case *c, mpfr_prec_t prec)
{
    memset(c, 0, sizeof *c);
    c->prec = prec;
    /* inputs carry 64 bits more than the outputs, so that adversarial
     * inputs can have minimisers that need more bits than the output has */
    mpfr_inits2(prec + 64, c->lambda, c->eta, (mpfr_ptr)0);
    c->kind = "";
}

void pcu_ens_case_clear(pcu_ens_case *c)
{
    for (unsigned long i = 0; i < c->cap; i++)
        mpfr_clear(c->W[i]);
    free(c->W);
    mpfr_clears(c->lambda, c->eta, (mpfr_ptr)0);
    c->W = NULL;
    c->cap = 0;
}

void pcu_ens_case_resize(pcu_ens_case *c, unsigned long m, unsigned long n)
{
    unsigned long need = m * n;
    if (need > c->cap) {
        mpfr_t *W = realloc(c->W, need * sizeof *W);
        if (W == NULL)
            abort();  /* the checks cannot run without memory */
        c->W = W;
        for (unsigned long i = c->cap; i < need; i++)
            mpfr_init2(c->W[i], c->prec + 64);
        c->cap = need;
    }
    c->m = m;
    c->n = n;
    for (unsigned long i = 0; i < need; i++)
        mpfr_set_zero(c->W[i], 1);
}

/* 1e-30 and 1e30 rounded to 64 bits: exact dyadic parameters whose ratio
 * to 1 are "tiny" and "huge". */
static void set_pow10(mpfr_t x, int e)
{
    MPFR_DECL_INIT(t, 64);
    mpfr_set_si(t, 10, MPFR_RNDN);
    mpfr_pow_si(t, t, e, MPFR_RNDN);
    mpfr_set(x, t, MPFR_RNDN);
}

/* Place the column's minimiser exactly on data value W[k] at the edge of
 * its kink: choose the free entry w_f (row m-1) so that h'_+(v) = 0
 * (above = 1, w_f > v) or h'_-(v) = 0 (above = 0, w_f < v); needs eta a
 * power of two so that the division by eta is exact. */
static void place_kink(pcu_ens_case *c, unsigned long j, unsigned long k,
                       int above)
{
    unsigned long m = c->m, n = c->n;
    mpfr_ptr v = c->W[k * n + j];
    long lt = 0, gt = 0, eq = 0;
    for (unsigned long i = 0; i + 1 < m; i++) {
        int s = mpfr_cmp(c->W[i * n + j], v);
        lt += s < 0;
        gt += s > 0;
        eq += s == 0;
    }
    long coef = above ? lt - gt - 1 + eq : lt + 1 - gt - eq;
    mpfr_t S, t1, t2, t3;
    mpfr_inits2(MPFR_PREC_MIN, S, t1, t2, t3, (mpfr_ptr)0);
    mpfr_ptr *col = malloc((m > 1 ? m - 1 : 1) * sizeof *col);
    if (col == NULL)
        abort();
    for (unsigned long i = 0; i + 1 < m; i++)
        col[i] = c->W[i * n + j];
    mpfr_exp_t ee = mpfr_get_exp(c->eta) - 1;  /* eta = 2^ee */
    if (!pcu_sum(S, col, m - 1) && !pcu_mul_si(t1, v, (long)m) &&
        !pcu_sub(t2, t1, S) && !pcu_mul_si(t3, c->lambda, coef)) {
        mpfr_mul_2si(t3, t3, -ee, MPFR_RNDN);
        if (!pcu_add(t1, t2, t3)) {
            int cmp = mpfr_cmp(t1, v);
            if ((above ? cmp > 0 : cmp < 0) &&
                mpfr_min_prec(t1) <= mpfr_get_prec(c->W[(m - 1) * n + j]))
                mpfr_set(c->W[(m - 1) * n + j], t1, MPFR_RNDN);
        }
    }
    free(col);
    mpfr_clears(S, t1, t2, t3, (mpfr_ptr)0);
}

void pcu_ens_case_random(pcu_ens_case *c, frng_t *g)
{
    unsigned long r = pcu_below(g, 16), m, n;
    if (r == 0)
        m = 1;
    else if (r == 1)
        m = 10 + pcu_below(g, 31);
    else
        m = 2 + pcu_below(g, 8);
    n = 1 + pcu_below(g, 3);
    pcu_ens_case_resize(c, m, n);

    unsigned long lm = pcu_below(g, 10);
    switch (lm) {
    case 0: set_pow10(c->lambda, -30); mpfr_set_ui(c->eta, 1, MPFR_RNDN);
        c->kind = "lambda/eta=1e-30"; break;
    case 1: set_pow10(c->lambda, 30); mpfr_set_ui(c->eta, 1, MPFR_RNDN);
        c->kind = "lambda/eta=1e30"; break;
    case 2: mpfr_set_ui(c->lambda, 1, MPFR_RNDN); set_pow10(c->eta, 30);
        c->kind = "lambda=1,eta=1e30"; break;
    case 3: mpfr_set_ui(c->lambda, 1, MPFR_RNDN); set_pow10(c->eta, -30);
        c->kind = "lambda=1,eta=1e-30"; break;
    default:
        pcu_rand_dyadic_nz(c->lambda, g, 1 + (unsigned)pcu_below(g, 53), -6, 6, 1);
        pcu_rand_dyadic_nz(c->eta, g, 1 + (unsigned)pcu_below(g, 53), -6, 6, 1);
        c->kind = "random";
    }

    unsigned long vm = pcu_below(g, 8);
    if (vm == 4 && m >= 2) {            /* minimiser exactly on a kink edge */
        mpfr_set_ui_2exp(c->eta, 1, (long)pcu_below(g, 9) - 4, MPFR_RNDN);
        pcu_rand_dyadic_nz(c->lambda, g, 1 + (unsigned)pcu_below(g, 20), -4, 4, 1);
        c->kind = "kink edge";
    }
    for (unsigned long j = 0; j < n; j++) {
        mpfr_t pool[8];
        unsigned long np = 1 + pcu_below(g, m < 8 ? m : 8);
        for (unsigned long q = 0; q < np; q++) {
            mpfr_init2(pool[q], 64);
            pcu_rand_dyadic(pool[q], g, 1 + (unsigned)pcu_below(g, 20), -6, 6, 0);
        }
        for (unsigned long i = 0; i < m; i++) {
            mpfr_ptr x = c->W[i * n + j];
            switch (vm) {
            case 0: case 1: case 4:
                mpfr_set(x, pool[pcu_below(g, np)], MPFR_RNDN);
                break;
            case 2:
                mpfr_set_ui(x, pcu_below(g, 4), MPFR_RNDN);
                break;
            case 3:
                pcu_rand_dyadic(x, g, 1 + (unsigned)pcu_below(g, 64), -200, 200, 0);
                break;
            default:
                pcu_rand_dyadic(x, g, 1 + (unsigned)pcu_below(g, 53), -8, 8, 0);
            }
        }
        for (unsigned long q = 0; q < np; q++)
            mpfr_clear(pool[q]);
        if (vm == 4 && m >= 2)
            place_kink(c, j, pcu_below(g, m - 1), (int)pcu_below(g, 2));
    }
    if (vm == 3)
        c->kind = "wide exponents";
}

/* Columns of the adversarial instances (one column each unless noted);
 * entries are m1 * 2^e1 + m2 * 2^e2, with e = PREC meaning the output
 * precision p (for ties at the rounding boundary). */
#define PREC 100000
typedef struct { long m1, e1, m2, e2; } pcu_term;
typedef struct {
    const char *what;
    unsigned long m;
    pcu_term w[6];
    int lam, eta;  /* 0: 1; 1: 1e-30; 2: 1e30 */
} pcu_ens_adv;

static const pcu_ens_adv adv[] = {
    {"W={10,0,0} (true 3, printed 11/3)", 3, {{10,0,0,0},{0,0,0,0},{0,0,0,0}}, 0, 0},
    {"m=1 W={5}", 1, {{5,0,0,0}}, 0, 0},
    {"m=1 W={0}, lambda=1e-30", 1, {{0,0,0,0}}, 1, 0},
    {"m=2 tie W={0,0}", 2, {{0,0,0,0},{0,0,0,0}}, 0, 0},
    {"W={0,1,2} (true 1)", 3, {{0,0,0,0},{1,0,0,0},{2,0,0,0}}, 0, 0},
    {"W={0,0,1,1} (true 1/2)", 4, {{0,0,0,0},{0,0,0,0},{1,0,0,0},{1,0,0,0}}, 0, 0},
    {"W={0,0,3} (true 2/3, rounded)", 3, {{0,0,0,0},{0,0,0,0},{3,0,0,0}}, 0, 0},
    {"W={0,0,1} (true 0, h'_+(0)=0)", 3, {{0,0,0,0},{0,0,0,0},{1,0,0,0}}, 0, 0},
    {"wide W", 5, {{1,200,0,0},{-1,200,0,0},{1,0,0,0},{1,-200,0,0},{0,0,0,0}}, 0, 0},
    {"median regime lambda=1e30", 3, {{1,0,0,0},{2,0,0,0},{4,0,0,0}}, 2, 0},
    {"mean regime lambda=1e-30", 3, {{1,0,0,0},{2,0,0,0},{4,0,0,0}}, 1, 0},
    {"mean regime eta=1e30", 2, {{0,0,0,0},{1,0,0,0}}, 0, 2},
    {"median regime eta=1e-30", 4, {{0,0,0,0},{1,0,0,0},{3,0,0,0},{7,0,0,0}}, 0, 1},
    {"all equal", 6, {{3,0,0,0},{3,0,0,0},{3,0,0,0},{3,0,0,0},{3,0,0,0},{3,0,0,0}}, 0, 0},
    {"tie at p+1 bits -> even 2^p", 2, {{0,0,0,0},{1,PREC+1,2,0}}, 0, 0},
    {"tie at p+1 bits -> even 2^p+4", 2, {{0,0,0,0},{1,PREC+1,6,0}}, 0, 0},
    {"minimiser just below 2^p", 2, {{0,0,0,0},{1,PREC+1,-1,-8}}, 0, 0},
    {"crossing zero, tiny", 3, {{-1,-300,0,0},{1,-300,0,0},{3,-301,0,0}}, 0, 0},
};
const unsigned pcu_ens_case_nadv = sizeof adv / sizeof adv[0];

static void set_term(mpfr_t x, const pcu_term *t, mpfr_prec_t p)
{
    MPFR_DECL_INIT(a, 64);
    MPFR_DECL_INIT(b, 64);
    long e1 = t->e1 >= PREC / 2 ? (long)p + (t->e1 - PREC) : t->e1;
    long e2 = t->e2 >= PREC / 2 ? (long)p + (t->e2 - PREC) : t->e2;
    mpfr_set_si_2exp(a, t->m1, e1, MPFR_RNDN);
    mpfr_set_si_2exp(b, t->m2, e2, MPFR_RNDN);
    mpfr_add(x, a, b, MPFR_RNDN);  /* exact: x has p + 64 bits */
}

void pcu_ens_case_adversarial(pcu_ens_case *c, unsigned k)
{
    const pcu_ens_adv *a = &adv[k % pcu_ens_case_nadv];
    pcu_ens_case_resize(c, a->m, 1);
    for (unsigned long i = 0; i < a->m; i++)
        set_term(c->W[i], &a->w[i], c->prec);
    if (a->lam == 0) mpfr_set_ui(c->lambda, 1, MPFR_RNDN);
    else set_pow10(c->lambda, a->lam == 1 ? -30 : 30);
    if (a->eta == 0) mpfr_set_ui(c->eta, 1, MPFR_RNDN);
    else set_pow10(c->eta, a->eta == 1 ? -30 : 30);
    c->kind = a->what;
}

/* ---- reporting ------------------------------------------------------------*/

void pcu_fmt(char *buf, size_t size, const mpfr_t x)
{
    if (mpfr_integer_p(x) && mpfr_cmpabs_ui(x, 1000000000UL) < 0)
        mpfr_snprintf(buf, size, "%.0Rf", x);
    else if (mpfr_zero_p(x) || mpfr_min_prec(x) > 64)
        mpfr_snprintf(buf, size, "%.20Rg", x);
    else
        mpfr_snprintf(buf, size, "%Ra", x);
}

int pcu_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
