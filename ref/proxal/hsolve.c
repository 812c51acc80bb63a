/* SPDX-License-Identifier: Apache-2.0 */
/* hsolve.c -- min phi(x) + h(x), h = gamma ||.||_1 or a box indicator
 * (docs/PROXAL.md 4.5), in MPFR at the precision p of the problem: the
 * method of fast/proxal/hsolve.c (a proximal-gradient step with L from
 * Gershgorin's bound, doubled until the descent lemma holds up to
 * rounding, then a Newton step on the identified face by an MPFR Cholesky
 * -- none where that face's Hessian is not positive definite -- kept if
 * phi + h does not increase or the certified residual halves).
 * The residual is certified: per coordinate the table of docs/PROXAL.md
 * 1.3 on v with every operation rounded outward (|v -+ gamma| <= max(RU(v
 * -+ gamma), -RD(v -+ gamma))), plus rp_k, rounded up. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "hsolve.h"

void fri_proxal_hres(mpfr_ptr out, int h, double gamma, const double *lo, const double *hi, mpfr_t *x,
                     mpfr_t *v, mpfr_t *rp, size_t d)
{
    mpfr_t a, b;
    mpfr_inits2(mpfr_get_prec(out) + 8, a, b, (mpfr_ptr)0);
    mpfr_set_zero(out, 1);
    for (size_t k = 0; k < d; k++) {
        if (h == FR_PROXAL_H_L1 && mpfr_zero_p(x[k])) {          /* max(|v| - gamma, 0) */
            mpfr_abs(a, v[k], MPFR_RNDN);
            mpfr_sub_d(a, a, gamma, MPFR_RNDU);
            if (mpfr_sgn(a) < 0)
                mpfr_set_zero(a, 1);
        } else if (h == FR_PROXAL_H_L1) {                        /* |v -+ gamma| */
            double s = mpfr_sgn(x[k]) > 0 ? gamma : -gamma;
            mpfr_add_d(a, v[k], s, MPFR_RNDU);
            mpfr_add_d(b, v[k], s, MPFR_RNDD);
            mpfr_neg(b, b, MPFR_RNDN);
            mpfr_max(a, a, b, MPFR_RNDU);
        } else if (h == FR_PROXAL_H_BOX) {
            if (lo[k] == hi[k])
                continue;                                        /* dh_k = R */
            if (mpfr_cmp_d(x[k], lo[k]) <= 0)
                mpfr_neg(a, v[k], MPFR_RNDN);
            else if (mpfr_cmp_d(x[k], hi[k]) >= 0)
                mpfr_set(a, v[k], MPFR_RNDN);
            else
                mpfr_abs(a, v[k], MPFR_RNDN);
            if (mpfr_sgn(a) < 0)
                mpfr_set_zero(a, 1);
        } else
            mpfr_abs(a, v[k], MPFR_RNDU);
        mpfr_add(a, a, rp[k], MPFR_RNDU);
        if (!mpfr_lessequal_p(a, out))
            mpfr_set(out, a, MPFR_RNDU);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}

static void to_dom(const fri_proxal_hprob *pb, mpfr_t *x)
{
    if (pb->h == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < pb->d; k++) {
            if (mpfr_cmp_d(x[k], pb->lo[k]) < 0)
                mpfr_set_d(x[k], pb->lo[k], MPFR_RNDN);
            if (mpfr_cmp_d(x[k], pb->hi[k]) > 0)
                mpfr_set_d(x[k], pb->hi[k], MPFR_RNDN);
        }
}

/* phi + h at x (RN), from phi's value f */
static void total(const fri_proxal_hprob *pb, mpfr_t *x, mpfr_srcptr f, mpfr_ptr out, mpfr_ptr tmp)
{
    mpfr_set(out, f, MPFR_RNDN);
    if (pb->h == FR_PROXAL_H_L1)
        for (size_t k = 0; k < pb->d; k++) {
            mpfr_abs(tmp, x[k], MPFR_RNDN);
            mpfr_mul_d(tmp, tmp, pb->gamma, MPFR_RNDN);
            mpfr_add(out, out, tmp, MPFR_RNDN);
        }
}

/* Cholesky of the m x m row-major M in place (lower); FR_EDOM on a pivot <= 0 */
static int chol(mpfr_t *M, size_t m)
{
    for (size_t j = 0; j < m; j++) {
        for (size_t l = 0; l < j; l++)
            mpfr_fms(M[j * m + j], M[j * m + l], M[j * m + l], M[j * m + j], MPFR_RNDN),
                mpfr_neg(M[j * m + j], M[j * m + j], MPFR_RNDN);
        if (!(mpfr_sgn(M[j * m + j]) > 0) || !mpfr_number_p(M[j * m + j]))
            return FR_EDOM;
        mpfr_sqrt(M[j * m + j], M[j * m + j], MPFR_RNDN);
        for (size_t k = j + 1; k < m; k++) {
            for (size_t l = 0; l < j; l++)
                mpfr_fms(M[k * m + j], M[k * m + l], M[j * m + l], M[k * m + j], MPFR_RNDN),
                    mpfr_neg(M[k * m + j], M[k * m + j], MPFR_RNDN);
            mpfr_div(M[k * m + j], M[k * m + j], M[j * m + j], MPFR_RNDN);
        }
    }
    return FR_OK;
}
static void cholsolve(mpfr_t *M, mpfr_t *s, size_t m)
{
    for (size_t k = 0; k < m; k++) {
        for (size_t l = 0; l < k; l++)
            mpfr_fms(s[k], M[k * m + l], s[l], s[k], MPFR_RNDN), mpfr_neg(s[k], s[k], MPFR_RNDN);
        mpfr_div(s[k], s[k], M[k * m + k], MPFR_RNDN);
    }
    for (size_t k = m; k-- > 0;) {
        for (size_t l = k + 1; l < m; l++)
            mpfr_fms(s[k], M[l * m + k], s[l], s[k], MPFR_RNDN), mpfr_neg(s[k], s[k], MPFR_RNDN);
        mpfr_div(s[k], s[k], M[k * m + k], MPFR_RNDN);
    }
}

static int at_floor(mpfr_srcptr res, mpfr_srcptr fl, mpfr_srcptr eps, unsigned long *floors)
{
    if (mpfr_less_p(eps, fl) && mpfr_lessequal_p(res, fl)) {
        ++*floors;
        return 1;
    }
    return 0;
}

int fri_proxal_hsolve(const fri_proxal_hprob *pb, mpfr_t *x, mpfr_srcptr eps, unsigned long nmax, mpfr_ptr res,
                      unsigned long *newton, unsigned long *fact, unsigned long *floors)
{
    const size_t d = pb->d;
    const mpfr_prec_t p = pb->p;
    mpfr_t *v = fri_vec_zero(d, p), *rp = fri_vec_zero(d, p), *y = fri_vec_zero(d, p), *vy = fri_vec_zero(d, p), *rpy = fri_vec_zero(d, p), *s = fri_vec_zero(d, p);
    mpfr_t *H = fri_vec_zero(d * d, p), *M = fri_vec_zero(d * d, p);
    size_t *idx = malloc(d * sizeof(size_t));
    mpfr_t fx, fy, fl, fly, ry, L, t, q, sq, z, th, tot0;
    mpfr_inits2(p, fx, fy, fl, fly, ry, L, t, q, sq, z, th, tot0, (mpfr_ptr)0);
    int st = FR_OK;
    if (!v || !rp || !y || !vy || !rpy || !s || !H || !M || !idx) {
        st = FR_ENOMEM;
        goto out;
    }
    to_dom(pb, x);
    if ((st = pb->eval(pb->ctx, x, fx, v, rp, fl, H)) != FR_OK)
        goto out;
    fri_proxal_hres(res, pb->h, pb->gamma, pb->lo, pb->hi, x, v, rp, d);
    if (!mpfr_lessequal_p(res, eps) && at_floor(res, fl, eps, floors))
        goto out;
    for (unsigned long it = 0; it < nmax && !mpfr_lessequal_p(res, eps); it++) {
        mpfr_t res0;
        mpfr_init2(res0, mpfr_get_prec(res));
        mpfr_set(res0, res, MPFR_RNDN);
        /* (a) the proximal-gradient step */
        mpfr_set_zero(L, 1);
        for (size_t k = 0; k < d; k++) {
            mpfr_set_zero(t, 1);
            for (size_t l = 0; l < d; l++) {
                mpfr_abs(q, H[k * d + l], MPFR_RNDN);
                mpfr_add(t, t, q, MPFR_RNDU);
            }
            mpfr_max(L, L, t, MPFR_RNDU);
        }
        if (!(mpfr_sgn(L) > 0) || !mpfr_number_p(L))
            mpfr_set_ui(L, 1, MPFR_RNDN);
        int ok = 0;
        for (int tr = 0; tr <= 60 && !ok && st == FR_OK; tr++) {
            if (tr > 0)
                mpfr_mul_2ui(L, L, 1, MPFR_RNDN);
            mpfr_d_div(th, pb->gamma, L, MPFR_RNDN);
            for (size_t k = 0; k < d; k++) {
                mpfr_div(z, v[k], L, MPFR_RNDN);
                mpfr_sub(z, x[k], z, MPFR_RNDN);
                if (pb->h == FR_PROXAL_H_L1) {
                    if (mpfr_greater_p(z, th))
                        mpfr_sub(y[k], z, th, MPFR_RNDN);
                    else if (mpfr_cmpabs(z, th) > 0)
                        mpfr_add(y[k], z, th, MPFR_RNDN);
                    else
                        mpfr_set_zero(y[k], 1);
                } else
                    mpfr_set(y[k], z, MPFR_RNDN);
            }
            to_dom(pb, y);
            if ((st = pb->eval(pb->ctx, y, fy, vy, rpy, fly, NULL)) != FR_OK)
                break;
            mpfr_set(q, fx, MPFR_RNDN);
            mpfr_set_zero(sq, 1);
            for (size_t k = 0; k < d; k++) {
                mpfr_sub(z, y[k], x[k], MPFR_RNDN);
                mpfr_fma(q, v[k], z, q, MPFR_RNDN);
                mpfr_fma(sq, z, z, sq, MPFR_RNDN);
            }
            mpfr_mul(sq, sq, L, MPFR_RNDN);
            mpfr_div_2ui(sq, sq, 1, MPFR_RNDN);
            mpfr_add(q, q, sq, MPFR_RNDN);
            /* slack 64 2^-p (|fx| + |fy| + |q|) for the roundings */
            mpfr_abs(t, fx, MPFR_RNDN);
            mpfr_abs(z, fy, MPFR_RNDN);
            mpfr_add(t, t, z, MPFR_RNDU);
            mpfr_abs(z, q, MPFR_RNDN);
            mpfr_add(t, t, z, MPFR_RNDU);
            mpfr_mul_2si(t, t, 6 - (long)p, MPFR_RNDU);
            mpfr_add(q, q, t, MPFR_RNDU);
            ok = mpfr_lessequal_p(fy, q);
        }
        if (st != FR_OK) {
            mpfr_clear(res0);
            goto out;
        }
        if (!ok) {
            mpfr_clear(res0);
            break;
        }
        for (size_t k = 0; k < d; k++)
            mpfr_set(x[k], y[k], MPFR_RNDN);
        if ((st = pb->eval(pb->ctx, x, fx, v, rp, fl, H)) != FR_OK) {
            mpfr_clear(res0);
            goto out;
        }
        fri_proxal_hres(res, pb->h, pb->gamma, pb->lo, pb->hi, x, v, rp, d);
        /* (b) Newton on the face of x, also when (a) reached eps (fast's) */
        size_t m = 0;
        for (size_t k = 0; k < d; k++) {
            int fr = pb->h == FR_PROXAL_H_L1    ? !mpfr_zero_p(x[k])
                   : pb->h == FR_PROXAL_H_BOX ? (mpfr_cmp_d(x[k], pb->lo[k]) > 0 && mpfr_cmp_d(x[k], pb->hi[k]) < 0)
                                                : 1;
            if (fr)
                idx[m++] = k;
        }
        if (m > 0) {
            for (size_t a = 0; a < m; a++)
                for (size_t b = 0; b < m; b++)
                    mpfr_set(M[a * m + b], H[idx[a] * d + idx[b]], MPFR_RNDN);
            ++*fact;
            if (chol(M, m) == FR_OK) {
                for (size_t a = 0; a < m; a++) {
                    size_t k = idx[a];
                    if (pb->h == FR_PROXAL_H_L1)
                        mpfr_add_d(s[a], v[k], mpfr_sgn(x[k]) > 0 ? pb->gamma : -pb->gamma, MPFR_RNDN);
                    else
                        mpfr_set(s[a], v[k], MPFR_RNDN);
                    mpfr_neg(s[a], s[a], MPFR_RNDN);
                }
                cholsolve(M, s, m);
                ++*newton;
                for (size_t k = 0; k < d; k++)
                    mpfr_set(y[k], x[k], MPFR_RNDN);
                for (size_t a = 0; a < m; a++) {
                    size_t k = idx[a];
                    mpfr_add(z, x[k], s[a], MPFR_RNDN);
                    if (pb->h == FR_PROXAL_H_L1 && mpfr_sgn(z) != mpfr_sgn(x[k]))
                        mpfr_set_zero(z, 1);                       /* no sign change */
                    mpfr_set(y[k], z, MPFR_RNDN);
                }
                to_dom(pb, y);
                if ((st = pb->eval(pb->ctx, y, fy, vy, rpy, fly, NULL)) != FR_OK) {
                    mpfr_clear(res0);
                    goto out;
                }
                fri_proxal_hres(ry, pb->h, pb->gamma, pb->lo, pb->hi, y, vy, rpy, d);
                total(pb, x, fx, tot0, t);
                total(pb, y, fy, q, t);
                mpfr_div_2ui(t, res, 1, MPFR_RNDN);
                if (mpfr_lessequal_p(q, tot0) || mpfr_lessequal_p(ry, t)) {
                    for (size_t k = 0; k < d; k++)
                        mpfr_set(x[k], y[k], MPFR_RNDN);
                    if ((st = pb->eval(pb->ctx, x, fx, v, rp, fl, H)) != FR_OK) {
                        mpfr_clear(res0);
                        goto out;
                    }
                    mpfr_set(res, ry, MPFR_RNDU);
                }
            }
        }
        int stuck = !mpfr_lessequal_p(res, eps) && !mpfr_less_p(res, res0);
        mpfr_clear(res0);
        if (stuck && at_floor(res, fl, eps, floors))
            goto out;
    }
    if (!mpfr_lessequal_p(res, eps) && !at_floor(res, fl, eps, floors))
        st = FR_EDOM;
out:
    fri_vec_free(v, d), fri_vec_free(rp, d), fri_vec_free(y, d), fri_vec_free(vy, d), fri_vec_free(rpy, d), fri_vec_free(s, d);
    fri_vec_free(H, d * d), fri_vec_free(M, d * d);
    free(idx);
    mpfr_clears(fx, fy, fl, fly, ry, L, t, q, sq, z, th, tot0, (mpfr_ptr)0);
    return st;
}
