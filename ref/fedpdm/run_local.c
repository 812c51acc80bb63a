/* SPDX-License-Identifier: Apache-2.0 */
/* run_local.c -- one participating client's round of Algorithm 1 of 003:
 * the local steps (10a) with rule (11) or FIXED, then (10b)-(10d) and the
 * noisy upload (12) (fedspec/fedpdm.h, section "Algorithm 1").
 *
 * Rounding, at the trace's precision p (RN = round to nearest):
 *   g     fr_pdm_loss on the b batch rows: each g_kl correctly rounded;
 *   clip  ||g||^2 exact; if ||g||^2 > G^2 (decided exactly): c = RD(G /
 *         RU(sqrt ||g||^2)), g_k <- RZ(g_k c); so ||g|| <= G holds exactly;
 *   v_k   = RN(g_k - lam_k + rho x_k - rho x0_k)     one rounding   (10a)
 *   ||v||^2 exact, compared with nu exactly; stop2 = RN(||v||^2)     (11)
 *   x_k   = RN(x_k - eta v_k)                        one rounding (fma)
 *   lam_k = RN(lam_k + rho x0_k - rho x_k)           one rounding   (10c)
 *   y_k   = RN((rho x_k - lam_k) / rho)              one rounding   (10d)
 *   yt_k  = RN(y_k + sigma z_k)                      one rounding (fma)  (12)
 * (rho, eta, nu, G: the binary64 parameters, exact.)  sigma: NOISE_GIVEN
 * sigma[t] rounded up to p; NOISE_PAPER RU(sqrt(RU((18)(RU((19)))))). */
#include "run.h"

static int all_num(mpfr_t *const x, size_t k)
{
    return fri_finite(x, k);
}

/* r = ||a||^2 exactly (w->sq, w->pp as scratch). */
static int norm2_exact(fri_pdm_ws *w, mpfr_ptr r, mpfr_t *const a)
{
    for (size_t k = 0; k < w->D; k++) {
        int st = fri_mul_exact(w->sq[k], a[k], a[k]);
        if (st != FR_OK)
            return st;
        w->pp[k] = w->sq[k];
    }
    return fri_sum_exact(r, w->pp, w->D);
}

/* g <- g min(1, G / ||g||), never above G in norm (the header's rounding). */
static int clip(fri_pdm_ws *w)
{
    mpfr_ptr s2 = w->tmp[0], G2 = w->tmp[1], nrm = w->tmp[2], c = w->tmp[3];
    int st = norm2_exact(w, s2, w->g);
    if (st == FR_OK)
        st = fri_mul_exact(G2, w->G, w->G);
    if (st != FR_OK || mpfr_cmp(s2, G2) <= 0)
        return st;
    mpfr_set_prec(nrm, w->p);
    mpfr_set_prec(c, w->p);
    mpfr_sqrt(nrm, s2, MPFR_RNDU);
    mpfr_div(c, w->G, nrm, MPFR_RNDD);
    for (size_t k = 0; k < w->D; k++)
        mpfr_mul(w->g[k], w->g[k], c, MPFR_RNDZ);
    return FR_OK;
}

/* r = RN(a0 - a1 + rho u - rho z), one rounding (a1 may be NULL; r may be a0). */
static int sum3(fri_pdm_ws *w, mpfr_ptr r, mpfr_srcptr a0, mpfr_srcptr a1, mpfr_srcptr u, mpfr_srcptr z)
{
    mpfr_ptr bu = w->tmp[4], cz = w->tmp[5], na = w->tmp[6];
    int st = fri_mul_exact(bu, w->rho, u);
    if (st == FR_OK)
        st = fri_mul_exact(cz, w->rho, z);
    if (st != FR_OK)
        return st;
    mpfr_neg(cz, cz, MPFR_RNDN);                              /* exact */
    mpfr_ptr t[4];
    size_t k = 0;
    t[k++] = (mpfr_ptr)a0;
    if (a1 != NULL) {
        mpfr_set_prec(na, mpfr_get_prec(a1));
        mpfr_neg(na, a1, MPFR_RNDN);                          /* exact */
        t[k++] = na;
    }
    t[k++] = bu;
    t[k++] = cz;
    mpfr_ptr q = w->tmp[3];                                    /* r may be a0 */
    mpfr_set_prec(q, mpfr_get_prec(r));
    mpfr_sum(q, t, (unsigned long)k, MPFR_RNDN);
    mpfr_set(r, q, MPFR_RNDN);                                 /* exact */
    return FR_OK;
}

/* sigma_{i,t} into w->sig (precision p): the three noise modes. */
static int noise_scale(fri_pdm_ws *w, const fr_pdm_params *prm, unsigned long t, unsigned long Q)
{
    if (prm->noise == FR_PDM_NOISE_NONE) {
        mpfr_set_zero(w->sig, 1);
        return FR_OK;
    }
    if (prm->noise == FR_PDM_NOISE_GIVEN) {
        mpfr_set_d(w->sig, prm->sigma[t], MPFR_RNDU);          /* exact for p >= 53 */
        if (mpfr_zero_p(w->sig))
            mpfr_set_zero(w->sig, 1);                          /* -0: no noise, +0 */
        return FR_OK;
    }
    int st = fr_fedpdm_sensitivity(w->s, w->eta, w->rho, Q, w->G);       /* (19), RU */
    if (st == FR_OK)
        st = fr_gauss_sigma2_classical(w->sig2, w->eps, w->delta, w->s); /* (18), RU */
    if (st == FR_OK)
        mpfr_sqrt(w->sig, w->sig2, MPFR_RNDU);
    return st;
}

int fri_pdm_client(fri_pdm_ws *w, fr_pdm_trace *tr, const fr_pdm_problem *P, const fr_pdm_params *prm,
                   unsigned long t, size_t i, size_t off, mpfr_t *x, mpfr_t *lam, mpfr_t *yt,
                   mpfr_t *const x0, frng_t *gb, frng_t *gn)
{
    const size_t D = w->D, n = w->n, b = prm->b, rec = (size_t)t * w->N + i;
    mpfr_t *xr = w->xr, *g = w->g, *v = w->v;
    int st = FR_OK, held = 0;
    unsigned long Q = prm->Qmax;
    mpfr_set_d(w->eta, prm->eta[t], MPFR_RNDN);                 /* 53 bits: exact */
    mpfr_neg(w->neta, w->eta, MPFR_RNDN);
    for (size_t k = 0; k < D; k++)
        mpfr_set(xr[k], prm->start == FR_PDM_START_XI ? x[k] : x0[k], MPFR_RNDN);   /* exact */
    for (unsigned long r = 0; r < prm->Qmax; r++) {
        st = frng_sample(gb, P->d[i], b, w->idx);               /* B^{t,r} */
        if (st != FR_OK)
            return st;
        for (size_t j = 0; j < b; j++) {
            size_t row = off + w->idx[j];
            if (tr->keep & FR_PDM_KEEP_DRAWS)
                tr->draws[tr->nd++] = w->idx[j];
            for (size_t l = 0; l < n; l++)
                mpfr_set_d(w->Ab[j * n + l], P->A[row * n + l], MPFR_RNDN);   /* exact */
            w->yb[j] = P->y[row];
        }
        st = fr_pdm_loss(NULL, g, xr, w->m, n, w->Ab, w->yb, b, w->beta);
        if (st == FR_OK && prm->clip)
            st = clip(w);
        for (size_t k = 0; k < D && st == FR_OK; k++)
            st = sum3(w, v[k], g[k], lam[k], xr[k], x0[k]);      /* (10a)'s v */
        mpfr_ptr nv2 = w->tmp[7];
        if (st == FR_OK)
            st = norm2_exact(w, nv2, v);
        if (st != FR_OK)
            return st;
        mpfr_set(tr->stop2[rec], nv2, MPFR_RNDN);
        for (size_t k = 0; k < D; k++)
            mpfr_fma(xr[k], w->neta, v[k], xr[k], MPFR_RNDN);  /* (10a) */
        if (!all_num(xr, D))
            return FR_ENONFINITE;
        if (prm->rule == FR_PDM_RULE_11 && mpfr_cmp(nv2, w->nu) <= 0) {       /* (11) */
            Q = r + 1;
            held = 1;
            break;
        }
    }
    for (size_t k = 0; k < D; k++)
        mpfr_set(x[k], xr[k], MPFR_RNDN);                        /* (10b) */
    for (size_t k = 0; k < D && st == FR_OK; k++)
        st = sum3(w, lam[k], lam[k], NULL, x0[k], x[k]);         /* (10c) */
    for (size_t k = 0; k < D && st == FR_OK; k++) {              /* (10d) */
        st = fri_mul_exact(w->tmp[0], w->rho, x[k]);
        if (st == FR_OK)
            st = fri_sub_exact(w->tmp[1], w->tmp[0], lam[k]);
        if (st == FR_OK)
            mpfr_div(yt[k], w->tmp[1], w->rho, MPFR_RNDN);
    }
    if (st == FR_OK)
        st = noise_scale(w, prm, t, Q);
    if (st != FR_OK)
        return st;
    if (mpfr_sgn(w->sig) > 0) {                                  /* (12); sigma = 0: no draw */
        for (size_t j = 0; 2 * j < D && st == FR_OK; j++)
            st = fr_rng_gaussian2(w->z[2 * j], w->z[2 * j + 1], gn);
        for (size_t k = 0; k < D && st == FR_OK; k++)
            mpfr_fma(yt[k], w->sig, w->z[k], yt[k], MPFR_RNDN);
    }
    if (st != FR_OK)
        return st;
    if (!all_num(x, D) || !all_num(lam, D) || !all_num(yt, D))
        return FR_ENONFINITE;
    tr->Q[rec] = Q;
    tr->capped[rec] = prm->rule == FR_PDM_RULE_11 && !held;
    mpfr_set(tr->sigma[rec], w->sig, MPFR_RNDN);
    return FR_OK;
}
