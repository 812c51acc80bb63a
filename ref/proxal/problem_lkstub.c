/* problem_lkstub.c -- TEMPORARY stand-in for h-prob's fr_proxal_client_eval
 * (branch h-lk only; QP only; deleted when h-prob is merged).  Every output
 * is one exact sum (fri_sum_exact) rounded once: correctly rounded. */
#include <stdlib.h>
#include "../internal.h"
#include "fedref/proxal.h"

/* out = RN(sum of t[0..k-1]) */
static void rsum(mpfr_ptr out, mpfr_ptr *t, size_t k)
{
    mpfr_sum(out, t, (unsigned long)k, MPFR_RNDN);
}

int fr_proxal_client_eval(const fr_proxal_problem *P, size_t i, mpfr_t *const w, mpfr_t fi,
                          mpfr_t *gi, mpfr_t *Hi, mpfr_t *ci, mpfr_t *Ji, mpfr_t *const y,
                          mpfr_t *Hy)
{
    if (!P || !w || (Hy && !y))
        return FR_ENULL;
    int st = fr_proxal_problem_check(P);
    if (st != FR_OK)
        return st;
    size_t n = P->n, d = P->d, m = fr_proxal_mi(P, i);
    if (i > n)
        return FR_ESIZE;
    if (!fri_finite(w, d))
        return FR_ENONFINITE;
    if (P->kind != FR_PROXAL_QP)
        return FR_EINTERNAL;                               /* stub: QP only */
    size_t nt = d * d + d + 1;
    mpfr_t *p = malloc(2 * nt * sizeof *p), dd[1];
    mpfr_ptr *t = malloc(nt * sizeof *t);
    if (!p || !t) {
        free(p);
        free(t);
        return FR_ENOMEM;
    }
    for (size_t k = 0; k < 2 * nt; k++)
        mpfr_init2(p[k], 53);
    mpfr_init2(dd[0], 53);
    const double *A = i ? P->A + (i - 1) * d * d : NULL, *b = i ? P->b + (i - 1) * d : NULL;
    const double *C = P->C + i * m * d, *e = P->e + i * m;
    if (fi) {
        size_t q = 0;
        for (size_t k = 0; k < d && i; k++) {
            for (size_t l = 0; l < d; l++) {
                mpfr_set_d(dd[0], A[k * d + l], MPFR_RNDN);
                mpfr_div_2ui(dd[0], dd[0], 1, MPFR_RNDN);
                st = st ? st : fri_mul_exact(p[nt + q], dd[0], w[k]);
                st = st ? st : fri_mul_exact(p[q], p[nt + q], w[l]);
                t[q] = p[q];
                q++;
            }
            mpfr_set_d(dd[0], b[k], MPFR_RNDN);
            st = st ? st : fri_mul_exact(p[q], dd[0], w[k]);
            t[q] = p[q];
            q++;
        }
        if (q == 0)
            mpfr_set_zero(fi, 1);
        else
            rsum(fi, t, q);
    }
    for (size_t k = 0; k < d && gi; k++) {
        size_t q = 0;
        for (size_t l = 0; l < d && i; l++) {
            mpfr_set_d(dd[0], A[k * d + l], MPFR_RNDN);
            st = st ? st : fri_mul_exact(p[q], dd[0], w[l]);
            t[q] = p[q];
            q++;
        }
        if (i) {
            mpfr_set_d(p[q], b[k], MPFR_RNDN);
            t[q] = p[q];
            q++;
        }
        if (q == 0)
            mpfr_set_zero(gi[k], 1);
        else
            rsum(gi[k], t, q);
    }
    for (size_t k = 0; k < d * d && Hi; k++)
        mpfr_set_d(Hi[k], i ? A[k] : 0.0, MPFR_RNDN);
    for (size_t j = 0; j < m && ci; j++) {
        size_t q = 0;
        for (size_t k = 0; k < d; k++) {
            mpfr_set_d(dd[0], C[j * d + k], MPFR_RNDN);
            st = st ? st : fri_mul_exact(p[q], dd[0], w[k]);
            t[q] = p[q];
            q++;
        }
        mpfr_set_d(p[q], e[j], MPFR_RNDN);
        t[q] = p[q];
        q++;
        rsum(ci[j], t, q);
    }
    for (size_t j = 0; j < m && Ji; j++)
        for (size_t k = 0; k < d; k++)
            mpfr_set_d(Ji[k * m + j], C[j * d + k], MPFR_RNDN);
    for (size_t k = 0; k < d * d && Hy; k++)
        mpfr_set_zero(Hy[k], 1);
    for (size_t k = 0; k < 2 * nt; k++)
        mpfr_clear(p[k]);
    mpfr_clear(dd[0]);
    free(p);
    free(t);
    return st;
}
