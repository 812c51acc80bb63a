/* SPDX-License-Identifier: Apache-2.0 */
/* check_problem5.c -- Problem 5 of 000 (Sec. III-B, surrogates (7) and
 * (15)) for M constraints:
 *   min t0 ||w||^2 + g0^T w + c sum s_m  s.t.  Fbar_m(w) = kappa_m + g_m^T w
 *   + tau ||w||^2 <= s_m,  s_m >= 0.
 *
 * pc_ssca_problem5, three parts on every case:
 *  (A) M = 1 is Lemma 1: with t0 = 1, g0 = 0, kappa = C - U, G = a,
 *      fr_ssca_problem5 and fr_ssca_lemma1 (certified by pc_ssca_lemma1)
 *      return the same w bit for bit (both correctly rounded, zeros +0),
 *      the same nu whenever the dual is not constant (b > 0 or U != C),
 *      and s = +0 exactly when nu < c (then Fbar(w*) <= 0).
 *  (B) M = 1, 2, 3 with d = 1, 2, 3 (M > d included), duplicated
 *      constraints, tau = 0, constraints placed near activity: an
 *      independent solution by enumerating the 3^M assignments of each
 *      multiplier to {0, c, free} (the one the ref solution suggests
 *      first): for an assignment, Newton's method at 2p + 64 bits on the
 *      square system Fbar_m(w(nu)) = 0 (m free), with the Jacobian
 *      -(g_m + 2 tau w)^T (g_k + 2 tau w) / (2 S) from w directly (no Gram
 *      matrix, no elimination: not fr_ssca_problem5's method), kept when
 *      the KKT conditions hold within the margin 2^(-p) of the data's
 *      scale (nu_free in [0, c], Fbar <= 0 on the 0-class, >= 0 on the
 *      c-class).  Any KKT point gives the unique w*, so ref's w and s must
 *      agree with it: |w_ref - w_enum| <= 2^(1-p) |w_ref| + 2^(-p-20) (1 + ||w||_inf)
 *      (the data are of order 1),
 *      |s_ref - s_enum| <= the same with the scale of Fbar's terms.
 *  (C) the certificate: the duality gap Phi(w) - D(nu) at ref's returned
 *      values, recomputed exactly here (4 S (Phi - D) as one exact sum), is
 *      >= 0 (weak duality), <= cert.gap (an upper bound), and
 *      t0 radius^2 >= gap; ||w_enum - w_ref|| <= radius + margin. */
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_P5 UINT64_C(0x70632d7035000000)     /* "pc-p5" */
#define MMAX 3
#define DMAX 3

/* ---- (A) M = 1 against Lemma 1 ------------------------------------------- */

static const char *part_a(frng_t *G, mpfr_prec_t p, char *kind)
{
    size_t d = 1 + pcu_below(G, DMAX);
    mpfr_t a[DMAX], C, U, tau, c, kap, t0, nu1, w1[DMAX], w5[DMAX], s5[1], n5[1];
    mpfr_inits2(64, C, U, tau, c, kap, t0, (mpfr_ptr)0);
    mpfr_init2(nu1, p);
    mpfr_init2(s5[0], p);
    mpfr_init2(n5[0], p);
    for (size_t j = 0; j < d; j++) {
        mpfr_init2(a[j], 64);
        mpfr_init2(w1[j], p);
        mpfr_init2(w5[j], p);
        if (pcu_below(G, 6) == 0)
            mpfr_set_zero(a[j], 1);
        else
            pcu_rand_dyadic(a[j], G, 1 + (unsigned)pcu_below(G, 40), -4, 3, 0);
    }
    unsigned long r = pcu_below(G, 6);
    pcu_rand_dyadic_nz(tau, G, 1 + (unsigned)pcu_below(G, 30), -5, 2, 1);
    pcu_rand_dyadic_nz(c, G, 1 + (unsigned)pcu_below(G, 30), -3, 8, 1);
    pcu_rand_dyadic(C, G, 1 + (unsigned)pcu_below(G, 40), -4, 3, 0);
    pcu_rand_dyadic(U, G, 1 + (unsigned)pcu_below(G, 40), -4, 3, 0);
    if (r == 0)
        mpfr_set(U, C, MPFR_RNDN);
    mpfr_set_prec(kap, 128);
    mpfr_sub(kap, C, U, MPFR_RNDN);                          /* exact at 128 bits */
    mpfr_set_ui(t0, 1, MPFR_RNDN);
    strcpy(kind, r == 0 ? "M = 1, U = C" : "M = 1");
    const char *why = NULL;
    int br;
    int st1 = fr_ssca_lemma1(nu1, w1, &br, a, d, C, tau, c, U);
    int st5 = fr_ssca_problem5(w5, s5, n5, NULL, NULL, &kap, a, 1, d, t0, tau, c);
    if (st1 != FR_OK || st5 != FR_OK) {
        why = "a status is not FR_OK";
    } else {
        int bzero = 1;
        for (size_t j = 0; j < d; j++) {
            bzero &= mpfr_zero_p(a[j]) != 0;
            if (!mpfr_equal_p(w1[j], w5[j]) && !(mpfr_zero_p(w1[j]) && mpfr_zero_p(w5[j])))
                why = "w differs from Lemma 1's";
            else if (mpfr_signbit(w1[j]) || mpfr_signbit(w5[j]) ? mpfr_zero_p(w5[j]) : 0)
                why = "a zero of w is -0";
        }
        int flat = bzero && mpfr_equal_p(C, U);
        if (!why && !flat && !mpfr_equal_p(nu1, n5[0]))
            why = "nu differs from Lemma 1's";
        if (!why && !flat && mpfr_cmp(n5[0], c) < 0 && (!mpfr_zero_p(s5[0]) || mpfr_signbit(s5[0])))
            why = "s is not +0 although nu < c";
        if (!why && mpfr_sgn(s5[0]) < 0)
            why = "s < 0";
    }
    mpfr_clears(C, U, tau, c, kap, t0, nu1, s5[0], n5[0], (mpfr_ptr)0);
    for (size_t j = 0; j < d; j++)
        mpfr_clears(a[j], w1[j], w5[j], (mpfr_ptr)0);
    return why;
}

/* ---- (B) enumeration of the active sets ------------------------------------ */

typedef struct {
    size_t M, d;
    mpfr_t g0[DMAX], kap[MMAX], G[MMAX * DMAX], t0, tau, c;
    int has_g0;
    mpfr_prec_t hp;                      /* the enumeration's precision */
    mpfr_t nu[MMAX], r[DMAX], w[DMAX], F[MMAX], J[MMAX * DMAX], S, q;
    mpfr_t A[MMAX * MMAX], x[MMAX], t1, t2;
} prob;

static void prob_init(prob *P, mpfr_prec_t hp)
{
    P->hp = hp;
    for (int j = 0; j < DMAX; j++)
        mpfr_inits2(64, P->g0[j], (mpfr_ptr)0), mpfr_inits2(hp, P->r[j], P->w[j], (mpfr_ptr)0);
    for (int m = 0; m < MMAX; m++)
        mpfr_init2(P->kap[m], 64), mpfr_inits2(hp, P->nu[m], P->F[m], P->x[m], (mpfr_ptr)0);
    for (int k = 0; k < MMAX * DMAX; k++)
        mpfr_init2(P->G[k], 64), mpfr_init2(P->J[k], hp);
    for (int k = 0; k < MMAX * MMAX; k++)
        mpfr_init2(P->A[k], hp);
    mpfr_inits2(64, P->t0, P->tau, P->c, (mpfr_ptr)0);
    mpfr_inits2(hp, P->S, P->q, P->t1, P->t2, (mpfr_ptr)0);
}

static void prob_clear(prob *P)
{
    for (int j = 0; j < DMAX; j++)
        mpfr_clears(P->g0[j], P->r[j], P->w[j], (mpfr_ptr)0);
    for (int m = 0; m < MMAX; m++)
        mpfr_clears(P->kap[m], P->nu[m], P->F[m], P->x[m], (mpfr_ptr)0);
    for (int k = 0; k < MMAX * DMAX; k++)
        mpfr_clears(P->G[k], P->J[k], (mpfr_ptr)0);
    for (int k = 0; k < MMAX * MMAX; k++)
        mpfr_clear(P->A[k]);
    mpfr_clears(P->t0, P->tau, P->c, P->S, P->q, P->t1, P->t2, (mpfr_ptr)0);
}

/* w(nu) and F = Fbar(w(nu)) at P->nu, directly. */
static void prob_eval(prob *P)
{
    size_t M = P->M, d = P->d;
    mpfr_set_zero(P->t1, 1);
    for (size_t m = 0; m < M; m++)
        mpfr_add(P->t1, P->t1, P->nu[m], MPFR_RNDN);
    mpfr_fma(P->S, P->tau, P->t1, P->t0, MPFR_RNDN);
    mpfr_set_zero(P->q, 1);
    for (size_t j = 0; j < d; j++) {
        if (P->has_g0) mpfr_set(P->r[j], P->g0[j], MPFR_RNDN);
        else mpfr_set_zero(P->r[j], 1);
        for (size_t m = 0; m < M; m++)
            mpfr_fma(P->r[j], P->nu[m], P->G[m * d + j], P->r[j], MPFR_RNDN);
        mpfr_div(P->w[j], P->r[j], P->S, MPFR_RNDN);
        mpfr_div_si(P->w[j], P->w[j], -2, MPFR_RNDN);
        mpfr_fma(P->q, P->w[j], P->w[j], P->q, MPFR_RNDN);
    }
    for (size_t m = 0; m < M; m++) {
        mpfr_mul(P->F[m], P->tau, P->q, MPFR_RNDN);
        mpfr_add(P->F[m], P->F[m], P->kap[m], MPFR_RNDN);
        for (size_t j = 0; j < d; j++) {
            mpfr_fma(P->F[m], P->G[m * d + j], P->w[j], P->F[m], MPFR_RNDN);
            /* J_m = g_m + 2 tau w */
            mpfr_mul(P->t2, P->tau, P->w[j], MPFR_RNDN);
            mpfr_mul_2ui(P->t2, P->t2, 1, MPFR_RNDN);
            mpfr_add(P->J[m * d + j], P->G[m * d + j], P->t2, MPFR_RNDN);
        }
    }
}

/* Newton on Fbar_f(w(nu)) = 0 for the free f (cls 2), others fixed at 0 / c.
 * 0 on convergence, -1 if the system is singular or does not converge. */
static int prob_newton(prob *P, const int *cls)
{
    size_t M = P->M, d = P->d, f[MMAX], k = 0;
    for (size_t m = 0; m < M; m++) {
        if (cls[m] == 0) mpfr_set_zero(P->nu[m], 1);
        else if (cls[m] == 1) mpfr_set(P->nu[m], P->c, MPFR_RNDN);
        else { f[k++] = m; mpfr_div_2ui(P->nu[m], P->c, 1, MPFR_RNDN); }
    }
    prob_eval(P);
    if (k == 0)
        return 0;
    mpfr_t lim, nrm;
    mpfr_inits2(P->hp, lim, nrm, (mpfr_ptr)0);
    int ok = -1;
    for (int it = 0; it < 200; it++) {
        /* converged when max |F_f| <= 2^(16 - hp) (|kappa| + ||g|| ||w|| + tau ||w||^2 + 1) */
        mpfr_set_zero(nrm, 1);
        for (size_t i = 0; i < k; i++)
            if (mpfr_cmpabs(P->F[f[i]], nrm) > 0)
                mpfr_abs(nrm, P->F[f[i]], MPFR_RNDN);
        mpfr_set_ui(lim, 1, MPFR_RNDN);
        for (size_t m = 0; m < M; m++) {
            mpfr_abs(P->t1, P->kap[m], MPFR_RNDN);
            mpfr_add(lim, lim, P->t1, MPFR_RNDN);
        }
        mpfr_mul_2si(lim, lim, 24 - (long)P->hp, MPFR_RNDN);
        if (mpfr_cmp(nrm, lim) <= 0) {
            ok = 0;
            break;
        }
        /* A = J_F J_F^T / (2S); (A) dx = F_F; nu_F += dx (a Newton step for
         * grad D = 0, D concave: dF/dnu = -A) */
        for (size_t i = 0; i < k; i++)
            for (size_t l = 0; l < k; l++) {
                mpfr_ptr a = P->A[i * k + l];
                mpfr_set_zero(a, 1);
                for (size_t j = 0; j < d; j++)
                    mpfr_fma(a, P->J[f[i] * d + j], P->J[f[l] * d + j], a, MPFR_RNDN);
                mpfr_div(a, a, P->S, MPFR_RNDN);
                mpfr_div_2ui(a, a, 1, MPFR_RNDN);
            }
        for (size_t i = 0; i < k; i++)
            mpfr_set(P->x[i], P->F[f[i]], MPFR_RNDN);
        /* Gaussian elimination with partial pivoting (k <= 3) */
        int sing = 0;
        for (size_t col = 0; col < k && !sing; col++) {
            size_t pv = col;
            for (size_t i = col + 1; i < k; i++)
                if (mpfr_cmpabs(P->A[i * k + col], P->A[pv * k + col]) > 0) pv = i;
            mpfr_abs(P->t1, P->A[pv * k + col], MPFR_RNDN);
            mpfr_abs(P->t2, P->A[0], MPFR_RNDN);
            mpfr_mul_2si(P->t2, P->t2, -(long)P->hp / 2, MPFR_RNDN);
            if (mpfr_zero_p(P->t1) || mpfr_cmp(P->t1, P->t2) < 0) { sing = 1; break; }
            for (size_t l = 0; l < k; l++) mpfr_swap(P->A[pv * k + l], P->A[col * k + l]);
            mpfr_swap(P->x[pv], P->x[col]);
            for (size_t i = col + 1; i < k; i++) {
                mpfr_div(P->t1, P->A[i * k + col], P->A[col * k + col], MPFR_RNDN);
                for (size_t l = col; l < k; l++) {
                    mpfr_mul(P->t2, P->t1, P->A[col * k + l], MPFR_RNDN);
                    mpfr_sub(P->A[i * k + l], P->A[i * k + l], P->t2, MPFR_RNDN);
                }
                mpfr_mul(P->t2, P->t1, P->x[col], MPFR_RNDN);
                mpfr_sub(P->x[i], P->x[i], P->t2, MPFR_RNDN);
            }
        }
        if (sing)
            break;
        for (size_t i = k; i-- > 0;) {
            for (size_t l = i + 1; l < k; l++) {
                mpfr_mul(P->t2, P->A[i * k + l], P->x[l], MPFR_RNDN);
                mpfr_sub(P->x[i], P->x[i], P->t2, MPFR_RNDN);
            }
            mpfr_div(P->x[i], P->x[i], P->A[i * k + i], MPFR_RNDN);
        }
        for (size_t i = 0; i < k; i++)
            mpfr_add(P->nu[f[i]], P->nu[f[i]], P->x[i], MPFR_RNDN);
        /* keep S > 0 (D is concave there): pull back towards the box */
        prob_eval(P);
        for (int back = 0; back < 60 && mpfr_sgn(P->S) <= 0; back++) {
            for (size_t i = 0; i < k; i++) {
                mpfr_div_2ui(P->x[i], P->x[i], 1, MPFR_RNDN);
                mpfr_sub(P->nu[f[i]], P->nu[f[i]], P->x[i], MPFR_RNDN);
            }
            prob_eval(P);
        }
        if (mpfr_sgn(P->S) <= 0)
            break;
    }
    mpfr_clears(lim, nrm, (mpfr_ptr)0);
    return ok;
}

/* KKT at the enumeration's point within margin m (relative 2^-(p+8) of
 * the scale): 1 if they hold. */
static int prob_kkt(prob *P, const int *cls, mpfr_prec_t p)
{
    mpfr_t mar, sc;
    mpfr_inits2(P->hp, mar, sc, (mpfr_ptr)0);
    int ok = 1;
    for (size_t m = 0; m < P->M && ok; m++) {
        /* scale: |kappa| + sum |g w| + tau ||w||^2 + 1 */
        mpfr_abs(sc, P->kap[m], MPFR_RNDN);
        mpfr_add_ui(sc, sc, 1, MPFR_RNDN);
        for (size_t j = 0; j < P->d; j++) {
            mpfr_mul(mar, P->G[m * P->d + j], P->w[j], MPFR_RNDN);
            mpfr_abs(mar, mar, MPFR_RNDN);
            mpfr_add(sc, sc, mar, MPFR_RNDN);
        }
        mpfr_mul(mar, P->tau, P->q, MPFR_RNDN);
        mpfr_add(sc, sc, mar, MPFR_RNDN);
        mpfr_mul_2si(mar, sc, -(long)p - 8, MPFR_RNDN);
        if (cls[m] == 0) {
            ok = mpfr_cmp(P->F[m], mar) <= 0;
        } else if (cls[m] == 1) {
            mpfr_neg(mar, mar, MPFR_RNDN);
            ok = mpfr_cmp(P->F[m], mar) >= 0;
        } else {
            mpfr_mul_2si(mar, P->c, -(long)p - 8, MPFR_RNDN);
            mpfr_neg(sc, mar, MPFR_RNDN);
            mpfr_add(sc, sc, P->c, MPFR_RNDN);
            mpfr_neg(mar, mar, MPFR_RNDN);
            ok = mpfr_cmp(P->nu[m], mar) >= 0 && mpfr_cmp(P->nu[m], sc) <= 0;
        }
    }
    mpfr_clears(mar, sc, (mpfr_ptr)0);
    return ok;
}

/* A random instance of part B. */
static void random_prob(prob *P, frng_t *G, char *kind)
{
    size_t M = 1 + pcu_below(G, MMAX), d = 1 + pcu_below(G, DMAX);
    P->M = M;
    P->d = d;
    P->has_g0 = pcu_below(G, 5) != 0;
    for (size_t j = 0; j < d; j++)
        pcu_rand_dyadic(P->g0[j], G, 1 + (unsigned)pcu_below(G, 40), -3, 2, 0);
    for (size_t k = 0; k < M * d; k++)
        pcu_rand_dyadic(P->G[k], G, 1 + (unsigned)pcu_below(G, 40), -3, 2, 0);
    pcu_rand_dyadic_nz(P->t0, G, 1 + (unsigned)pcu_below(G, 30), -4, 2, 1);
    if (pcu_below(G, 6) == 0)
        mpfr_set_zero(P->tau, 1);
    else
        pcu_rand_dyadic_nz(P->tau, G, 1 + (unsigned)pcu_below(G, 30), -5, 2, 1);
    pcu_rand_dyadic_nz(P->c, G, 1 + (unsigned)pcu_below(G, 30), -3, 6, 1);
    /* kappa: near activity at the unconstrained minimiser w0 = -g0/(2 t0)
     * (kappa = -g^T w0 - tau ||w0||^2 + small) or random */
    for (size_t m = 0; m < M; m++) {
        if (pcu_below(G, 2)) {
            mpfr_t v, t;
            mpfr_inits2(256, v, t, (mpfr_ptr)0);
            mpfr_set_zero(v, 1);
            for (size_t j = 0; j < d; j++) {
                if (!P->has_g0) break;
                mpfr_div(t, P->g0[j], P->t0, MPFR_RNDN);
                mpfr_div_si(t, t, -2, MPFR_RNDN);        /* w0_j */
                mpfr_fma(v, P->G[m * d + j], t, v, MPFR_RNDN);
                mpfr_sqr(t, t, MPFR_RNDN);
                mpfr_fma(v, P->tau, t, v, MPFR_RNDN);
            }
            pcu_rand_dyadic(t, G, 20, -6, 0, 0);
            mpfr_sub(v, t, v, MPFR_RNDN);
            mpfr_set(P->kap[m], v, MPFR_RNDN);          /* 64 bits */
            mpfr_clears(v, t, (mpfr_ptr)0);
        } else {
            pcu_rand_dyadic(P->kap[m], G, 1 + (unsigned)pcu_below(G, 40), -4, 2, 0);
        }
    }
    snprintf(kind, 80, "M=%zu d=%zu", M, d);
    if (M >= 2 && pcu_below(G, 4) == 0) {            /* a duplicated constraint */
        mpfr_set(P->kap[M - 1], P->kap[0], MPFR_RNDN);
        for (size_t j = 0; j < d; j++)
            mpfr_set(P->G[(M - 1) * d + j], P->G[j], MPFR_RNDN);
        strcpy(kind, "duplicate constraints");
    }
    if (M > d)
        strcat(kind, ", M > d");
    if (mpfr_zero_p(P->tau))
        strcat(kind, ", tau = 0");
}

/* ---- (C) the gap at ref's values, exactly ---------------------------------- */

/* 4 S (Phi(w) - D(nu)) = 4 S [t0 ||w||^2 + g0^T w + c sum max(0, F_m)
 *   - kappa^T nu] + ||g0 + G^T nu||^2, S = t0 + tau sum nu (exact sum);
 * the sign, and whether gap <= g_cert (4 S gap <= 4 S g_cert). */
static const char *gap_check(const prob *P, mpfr_t *w, mpfr_t *nu, const fr_ssca_kkt *k)
{
    size_t M = P->M, d = P->d;
    enum { NT = 64 };
    mpfr_t t[NT], S, sum, lhs;
    mpfr_ptr v[NT];
    int n = 0, e = 0;
    for (int i = 0; i < NT; i++)
        mpfr_init2(t[i], MPFR_PREC_MIN);
    mpfr_inits2(MPFR_PREC_MIN, S, sum, lhs, (mpfr_ptr)0);
    /* S */
    mpfr_ptr nv[MMAX];
    for (size_t m = 0; m < M; m++)
        nv[m] = nu[m];
    e |= pcu_sum(t[0], nv, M) || pcu_mul(t[1], P->tau, t[0]) || pcu_add(S, P->t0, t[1]);
    /* the bracket: t0 ||w||^2 + g0^T w + c sum F^+ - kappa^T nu */
    int b0 = 2;
    for (size_t j = 0; j < d; j++) {
        e |= pcu_mul(t[b0], w[j], w[j]) || pcu_mul(t[b0 + 1], P->t0, t[b0]);
        v[n++] = t[b0 + 1];
        b0 += 2;
        if (P->has_g0) {
            e |= pcu_mul(t[b0], P->g0[j], w[j]);
            v[n++] = t[b0++];
        }
    }
    for (size_t m = 0; m < M; m++) {
        /* F_m(w) exactly */
        mpfr_ptr fv[DMAX + 2];
        int nf = 0;
        mpfr_t ww;
        mpfr_init2(ww, MPFR_PREC_MIN);
        for (size_t j = 0; j < d; j++) {
            e |= pcu_mul(t[b0], P->G[m * d + j], w[j]);
            fv[nf++] = t[b0++];
        }
        mpfr_ptr wv[DMAX];
        for (size_t j = 0; j < d; j++) {
            e |= pcu_mul(t[b0], w[j], w[j]);
            wv[j] = t[b0++];
        }
        e |= pcu_sum(ww, wv, d) || pcu_mul(t[b0], P->tau, ww);
        fv[nf++] = t[b0++];
        fv[nf++] = (mpfr_ptr)P->kap[m];
        e |= pcu_sum(t[b0], fv, (unsigned long)nf);
        if (mpfr_sgn(t[b0]) > 0) {
            e |= pcu_mul(t[b0 + 1], P->c, t[b0]);
            v[n++] = t[b0 + 1];
        }
        b0 += 2;
        e |= pcu_mul(t[b0], P->kap[m], nu[m]) || pcu_neg(t[b0 + 1], t[b0]);
        v[n++] = t[b0 + 1];
        b0 += 2;
        mpfr_clear(ww);
    }
    e |= pcu_sum(sum, v, (unsigned long)n);
    e |= pcu_mul(t[b0], sum, S) || pcu_mul_si(lhs, t[b0], 4);
    b0++;
    /* + ||r||^2 */
    n = 0;
    v[n++] = lhs;
    for (size_t j = 0; j < d; j++) {
        mpfr_ptr rv[MMAX + 1];
        int nr = 0;
        if (P->has_g0)
            rv[nr++] = (mpfr_ptr)P->g0[j];
        for (size_t m = 0; m < M; m++) {
            e |= pcu_mul(t[b0], nu[m], P->G[m * d + j]);
            rv[nr++] = t[b0++];
        }
        if (nr == 0) continue;
        e |= pcu_sum(t[b0], rv, (unsigned long)nr) || pcu_mul(t[b0 + 1], t[b0], t[b0]);
        v[n++] = t[b0 + 1];
        b0 += 2;
    }
    const char *why = NULL;
    if (e || b0 + 2 > NT)
        why = "internal error";
    else {
        e |= pcu_sum(sum, v, (unsigned long)n);          /* 4 S gap */
        if (e)
            why = "internal error";
        else if (mpfr_sgn(sum) < 0)
            why = "Phi(w) < D(nu): weak duality violated (not possible)";
        else {
            /* gap = sum / (4S) <= cert.gap; t0 radius^2 >= cert.gap */
            mpfr_t g, r;
            mpfr_inits2(128, g, r, (mpfr_ptr)0);
            mpfr_div(g, sum, S, MPFR_RNDU);
            mpfr_div_2ui(g, g, 2, MPFR_RNDU);
            if (mpfr_cmp_d(g, k->gap) > 0)
                why = "cert.gap below the exact gap";
            mpfr_set_d(r, k->radius, MPFR_RNDN);
            mpfr_sqr(r, r, MPFR_RNDD);
            mpfr_mul(r, r, P->t0, MPFR_RNDD);
            if (!why && mpfr_cmp_d(r, k->gap) < 0)
                why = "t0 radius^2 < gap";
            mpfr_clears(g, r, (mpfr_ptr)0);
        }
    }
    for (int i = 0; i < NT; i++)
        mpfr_clear(t[i]);
    mpfr_clears(S, sum, lhs, (mpfr_ptr)0);
    return why;
}

/* ---- part B and C on one instance ------------------------------------------ */

static const char *part_bc(prob *P, mpfr_prec_t p, unsigned long *hist)
{
    size_t M = P->M, d = P->d;
    mpfr_t w[DMAX], s[MMAX], nu[MMAX];
    for (size_t j = 0; j < d; j++) mpfr_init2(w[j], p);
    for (size_t m = 0; m < M; m++) mpfr_inits2(p, s[m], nu[m], (mpfr_ptr)0);
    fr_ssca_kkt k;
    const char *why = NULL;
    int st = fr_ssca_problem5(w, s, nu, &k, P->has_g0 ? P->g0 : NULL, P->kap, P->G, M, d,
                              P->t0, P->tau, P->c);
    if (st != FR_OK) {
        why = fr_strerror(st);
        goto out;
    }
    /* the assignment ref's nu suggests first, then all 3^M */
    int first[MMAX], cls[MMAX], found = 0;
    for (size_t m = 0; m < M; m++)
        first[m] = mpfr_zero_p(nu[m]) ? 0 : mpfr_equal_p(nu[m], P->c) ? 1 : 2;
    unsigned long total = 1;
    for (size_t m = 0; m < M; m++) total *= 3;
    for (unsigned long a = 0; a <= total && !found; a++) {
        if (a == 0) memcpy(cls, first, sizeof cls);
        else {
            unsigned long z = a - 1;
            for (size_t m = 0; m < M; m++) { cls[m] = (int)(z % 3); z /= 3; }
        }
        if (prob_newton(P, cls) == 0 && prob_kkt(P, cls, p)) {
            found = 1;
            hist[a == 0 ? 0 : 1]++;
        }
    }
    if (!found) {
        why = "no assignment of the multipliers satisfies KKT";
        goto out;
    }
    /* compare w and s */
    mpfr_t dlt, tol, wmax, dist;
    mpfr_inits2(P->hp, dlt, tol, wmax, dist, (mpfr_ptr)0);
    mpfr_set_zero(wmax, 1);
    mpfr_set_zero(dist, 1);
    for (size_t j = 0; j < d; j++)
        if (mpfr_cmpabs(w[j], wmax) > 0) mpfr_abs(wmax, w[j], MPFR_RNDN);
    for (size_t j = 0; j < d && !why; j++) {
        mpfr_sub(dlt, w[j], P->w[j], MPFR_RNDN);
        mpfr_fma(dist, dlt, dlt, dist, MPFR_RNDN);
        mpfr_abs(tol, w[j], MPFR_RNDN);
        mpfr_mul_2si(tol, tol, 1 - (long)p, MPFR_RNDN);
        mpfr_add_ui(dlt, wmax, 1, MPFR_RNDN);
        mpfr_mul_2si(dlt, dlt, -(long)p - 20, MPFR_RNDN);
        mpfr_add(tol, tol, dlt, MPFR_RNDN);
        mpfr_sub(dlt, w[j], P->w[j], MPFR_RNDN);
        if (mpfr_cmpabs(dlt, tol) > 0) {
            static char msg[400];
            char b[8][48];
            pcu_fmt(b[0], 48, w[j]); pcu_fmt(b[1], 48, P->w[j]); pcu_fmt(b[2], 48, nu[0]);
            pcu_fmt(b[3], 48, P->nu[0]); pcu_fmt(b[4], 48, P->kap[0]); pcu_fmt(b[5], 48, P->G[0]);
            pcu_fmt(b[6], 48, P->tau); pcu_fmt(b[7], 48, P->c);
            pcu_snprintf(msg, sizeof msg, "w differs from the enumeration's KKT point: ref w=%s nu=%s; enum w=%s nu=%s cls=%d; kap=%s g=%s tau=%s c=%s g0?%d",
                         b[0], b[2], b[1], b[3], cls[0], b[4], b[5], b[6], b[7], P->has_g0);
            why = msg;
        }
        if (mpfr_zero_p(w[j]) && mpfr_signbit(w[j]))
            why = "w_j = -0";
    }
    for (size_t m = 0; m < M && !why; m++) {
        /* s_enum = max(0, F); tolerance on the scale of F's terms */
        mpfr_set(dlt, mpfr_sgn(P->F[m]) > 0 ? P->F[m] : s[m], MPFR_RNDN);
        if (mpfr_sgn(P->F[m]) <= 0) mpfr_set_zero(dlt, 1);
        mpfr_sub(dlt, s[m], dlt, MPFR_RNDN);
        /* 2^(4-p) (1 + |kappa| + |s| + sum |g w| + tau ||w||^2) */
        mpfr_abs(tol, P->kap[m], MPFR_RNDN);
        mpfr_add_ui(tol, tol, 1, MPFR_RNDN);
        mpfr_abs(wmax, s[m], MPFR_RNDN);
        mpfr_add(tol, tol, wmax, MPFR_RNDN);
        for (size_t j = 0; j < d; j++) {
            mpfr_mul(wmax, P->G[m * d + j], P->w[j], MPFR_RNDN);
            mpfr_abs(wmax, wmax, MPFR_RNDN);
            mpfr_add(tol, tol, wmax, MPFR_RNDN);
        }
        mpfr_mul(wmax, P->tau, P->q, MPFR_RNDN);
        mpfr_add(tol, tol, wmax, MPFR_RNDN);
        mpfr_mul_2si(tol, tol, -(long)p + 4, MPFR_RNDN);
        if (mpfr_cmpabs(dlt, tol) > 0)
            why = "s differs from the enumeration's KKT point";
        if (mpfr_sgn(s[m]) < 0 || (mpfr_zero_p(s[m]) && mpfr_signbit(s[m])))
            why = "s < 0 or -0";
    }
    if (!why)
        why = gap_check(P, w, nu, &k);
    if (!why) {
        /* ||w_enum - w_ref|| <= radius + margin */
        mpfr_set_zero(wmax, 1);
        for (size_t j = 0; j < d; j++)
            if (mpfr_cmpabs(w[j], wmax) > 0) mpfr_abs(wmax, w[j], MPFR_RNDN);
        mpfr_sqrt(dist, dist, MPFR_RNDN);
        mpfr_set_d(tol, k.radius, MPFR_RNDU);
        mpfr_add_ui(dlt, wmax, 1, MPFR_RNDN);
        mpfr_mul_2si(dlt, dlt, -(long)p - 20, MPFR_RNDN);
        mpfr_add(tol, tol, dlt, MPFR_RNDU);
        if (mpfr_cmp(dist, tol) > 0)
            why = "the enumeration's w lies outside the certified radius";
    }
    mpfr_clears(dlt, tol, wmax, dist, (mpfr_ptr)0);
out:
    for (size_t j = 0; j < d; j++) mpfr_clear(w[j]);
    for (size_t m = 0; m < M; m++) mpfr_clears(s[m], nu[m], (mpfr_ptr)0);
    return why;
}

int pc_ssca_problem5(pc_ctx *ctx)
{
    frng_t G;
    mpfr_prec_t p = ctx->prec;
    prob P;
    unsigned long hist[2] = {0, 0};
    char kind[80];
    ctx->function = "ssca_problem5";
    ctx->vector = "ssca_problem5";
    ctx->claim = "000 Problem 5 with (7), (15): M = 1 equals Lemma 1; M = 1..3 (M > d, duplicates, "
                 "tau = 0) equals an enumeration of the active sets; the gap certificate holds";
    ctx->erratum = NULL;
    prob_init(&P, 2 * p + 64);
    frng_init(&G, ctx->seed, STREAM_P5);
    unsigned long na = 0, nb = 0;
    for (unsigned long k = 0; k < ctx->cases; k++) {
        const char *why;
        ctx->ran++;
        if (k % 3 == 0) {
            why = part_a(&G, p, kind);
            na++;
        } else {
            random_prob(&P, &G, kind);
            why = part_bc(&P, p, hist);
            nb++;
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "p=%ld case %lu [%s]: %s",
                         (long)p, k, kind, why);
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases M = 1 against Lemma 1; %lu against the enumeration (%lu at ref's "
                     "active set, %lu at another assignment: nu not unique)", na, nb, hist[0], hist[1]);
    prob_clear(&P);
    return ctx->failed ? 1 : 0;
}
