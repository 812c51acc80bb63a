/* SPDX-License-Identifier: Apache-2.0 */
/* test_lk.c -- l_k (6), P_{i,k} (10)-(11) and the multiplier update of 004
 * (module proxal) in both wings:
 *   - the hand QP of lk_fixtures.h, worked out by hand (comments): l_k,
 *     its gradient, P_0k, P_1k with their Hessians, the update; the
 *     equality row with t < 0 is NOT clipped (no [.]_+); exact in both
 *     wings (every number dyadic and short);
 *   - random QPs: ref at 200 bits against an independent evaluation at
 *     3000 bits of the printed form ((mu + beta c)^2 - mu^2)/(2 beta) (the
 *     library uses mu c + beta c^2/2); ref's gradient against central
 *     differences of ref's value and ref's Hessian of P_ik against central
 *     differences of its gradient (exact up to rounding on quadratics);
 *     the split (9) l_k = sum_i P_ik; fast against ref;
 *   - the kink t_j = 0 exactly (FAIR fixture, mu = 0 and mu = -0):
 *     inactive (the Hessian has no beta grad c grad c^T term, y_j = +0),
 *     against t_j > 0 (mu = 2^-20: active, the term present); fast's NP
 *     and FAIR gradients against central differences and the split.
 * Replayable: FEDREF_SEED=<n>; FEDREF_TEST_EFFORT multiplies the cases. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"
#include "lk_fixtures.h"

Suite *suite_proxal_lk(void);

#define DM 4
#define NM 3
#define MTM 2

static mpfr_t *fr_vec(const double *x, size_t k, mpfr_prec_t p)
{
    mpfr_t *v = malloc((k ? k : 1) * sizeof *v);
    for (size_t j = 0; j < k; j++) {
        mpfr_init2(v[j], p);
        mpfr_set_d(v[j], x[j], MPFR_RNDN);
    }
    return v;
}
static void fr_free(mpfr_t *v, size_t k)
{
    for (size_t j = 0; j < k; j++)
        mpfr_clear(v[j]);
    free(v);
}

START_TEST(hand_qp)
{
    fr_proxal_problem P = lk_hand_qp();
    const double w[2] = {1, 2}, wk[2] = {0, 1}, mu[2] = {0.5, -1}, beta = 0.5;
    /* f_1 = (2 + 16)/2 + (1 - 2) = 8;  c_0 = 1 + 2 - 1 = 2, t_0 = 0.5 + 1 =
     * 1.5, AL_0 = (2.25 - 0.25)/1 = 2;  c_1 = 1 - 2 + 0.5 = -0.5, t_1 = -1 -
     * 0.25 = -1.25 (equality: no [.]_+), AL_1 = (1.5625 - 1)/1 = 0.5625;
     * ||w - w^k||^2 = 2: l_k = 8 + 2 + 0.5625 + 2/1 = 12.5625.
     * grad: A w + b = (3, 7); t_0 C_0 = (1.5, 1.5); t_1 C_1 = (-1.25, 1.25);
     * (w - w^k)/beta = (2, 2): (5.25, 11.75).
     * P_0k = 2 + 2/(2 * 2 * 0.5) = 3, grad (1.5 + 1, 1.5 + 1),
     *   H = 0.5 [1 1; 1 1] + I = [1.5 .5; .5 1.5];
     * P_1k = 8 + 0.5625 + 1 = 9.5625, grad (3 - 1.25 + 1, 7 + 1.25 + 1),
     *   H = diag(2, 4) + 0.5 [1 -1; -1 1] + I = [3.5 -.5; -.5 5.5];
     * mu update: (t_0, t_1) = (1.5, -1.25). */
    const double lk = 12.5625, glk[2] = {5.25, 11.75}, p[2] = {3, 9.5625};
    const double gp[2][2] = {{2.5, 2.5}, {2.75, 9.25}};
    const double Hp[2][4] = {{1.5, .5, .5, 1.5}, {3.5, -.5, -.5, 5.5}}, mun[2] = {1.5, -1.25};
    double v, g[2], H[4], mn[2];
    ck_assert_int_eq(ff_proxal_lk(&v, g, &P, w, wk, mu, beta), FR_OK);
    ck_assert(v == lk && g[0] == glk[0] && g[1] == glk[1]);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(ff_proxal_pik(&v, g, H, &P, i, w, wk, mu, beta), FR_OK);
        ck_assert(v == p[i] && g[0] == gp[i][0] && g[1] == gp[i][1]);
        ck_assert(memcmp(H, Hp[i], sizeof H) == 0);
    }
    ck_assert_int_eq(ff_proxal_mu_update(mn, &P, w, mu, beta), FR_OK);
    ck_assert(mn[0] == mun[0] && mn[1] == mun[1]);
    /* ref at 24 bits: every result has <= 12 significant bits: exact */
    mpfr_t *W = fr_vec(w, 2, 53), *WK = fr_vec(wk, 2, 53), *MU = fr_vec(mu, 2, 53), *G = fr_vec(g, 2, 24),
           *HH = fr_vec(H, 4, 24), *MN = fr_vec(mn, 2, 24), B, V;
    mpfr_init2(B, 53);
    mpfr_set_d(B, beta, MPFR_RNDN);
    mpfr_init2(V, 24);
    ck_assert_int_eq(fr_proxal_lk(V, G, &P, W, WK, MU, B), FR_OK);
    ck_assert(mpfr_get_d(V, MPFR_RNDN) == lk && mpfr_get_d(G[0], MPFR_RNDN) == glk[0]
              && mpfr_get_d(G[1], MPFR_RNDN) == glk[1]);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(fr_proxal_pik(V, G, HH, &P, i, W, WK, MU, B), FR_OK);
        ck_assert(mpfr_get_d(V, MPFR_RNDN) == p[i]);
        for (size_t k = 0; k < 2; k++)
            ck_assert(mpfr_get_d(G[k], MPFR_RNDN) == gp[i][k]);
        for (size_t k = 0; k < 4; k++)
            ck_assert(mpfr_get_d(HH[k], MPFR_RNDN) == Hp[i][k]);
    }
    ck_assert_int_eq(fr_proxal_mu_update(MN, &P, W, MU, B), FR_OK);
    ck_assert(mpfr_get_d(MN[0], MPFR_RNDN) == mun[0] && mpfr_get_d(MN[1], MPFR_RNDN) == mun[1]);
    /* optional outputs: value only, gradient only; mu_next aliasing mu */
    ck_assert_int_eq(ff_proxal_lk(&v, NULL, &P, w, wk, mu, beta), FR_OK);
    ck_assert(v == lk);
    ck_assert_int_eq(ff_proxal_pik(NULL, NULL, H, &P, 0, w, wk, mu, beta), FR_OK);
    ck_assert(memcmp(H, Hp[0], sizeof H) == 0);
    double mu2[2] = {mu[0], mu[1]};
    ck_assert_int_eq(ff_proxal_mu_update(mu2, &P, w, mu2, beta), FR_OK);
    ck_assert(mu2[0] == mun[0] && mu2[1] == mun[1]);
    ck_assert_int_eq(fr_proxal_mu_update(MU, &P, W, MU, B), FR_OK);
    ck_assert(mpfr_get_d(MU[0], MPFR_RNDN) == mun[0] && mpfr_get_d(MU[1], MPFR_RNDN) == mun[1]);
    /* w = w^k, mu = 0 where c = 0: a zero gradient entry is exact (+-0) */
    fr_free(W, 2);
    fr_free(WK, 2);
    fr_free(MU, 2);
    fr_free(G, 2);
    fr_free(HH, 4);
    fr_free(MN, 2);
    mpfr_clears(B, V, (mpfr_ptr)0);
}
END_TEST

/* A random QP with n <= NM, d <= DM, mt <= MTM (A_i = B^T B symmetric). */
typedef struct {
    fr_proxal_problem P;
    double A[NM * DM * DM], b[NM * DM], C[(NM + 1) * MTM * DM], e[(NM + 1) * MTM];
    double w[DM], wk[DM], mu[(NM + 1) * MTM], beta;
} rqp;

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1p-53 * 2 - 1;
}

static void rqp_make(rqp *R, uint64_t *s)
{
    memset(R, 0, sizeof *R);
    size_t n = 1 + (size_t)((urand(s) + 1) * 1.5), d = 1 + (size_t)((urand(s) + 1) * 2),
           mt = 1 + (size_t)(urand(s) + 1);
    if (n > NM) n = NM;
    if (d > DM) d = DM;
    if (mt > MTM) mt = MTM;
    for (size_t i = 0; i < n; i++) {
        double B[DM * DM];
        for (size_t k = 0; k < d * d; k++)
            B[k] = urand(s);
        for (size_t k = 0; k < d; k++)
            for (size_t l = 0; l <= k; l++) {
                double a = 0;
                for (size_t q = 0; q < d; q++)
                    a += B[q * d + k] * B[q * d + l];
                R->A[i * d * d + k * d + l] = R->A[i * d * d + l * d + k] = a;
            }
        for (size_t k = 0; k < d; k++)
            R->b[i * d + k] = urand(s);
    }
    for (size_t k = 0; k < (n + 1) * mt * d; k++)
        R->C[k] = urand(s);
    for (size_t k = 0; k < (n + 1) * mt; k++) {
        R->e[k] = urand(s);
        R->mu[k] = 2 * urand(s);                           /* free sign: equality rows */
    }
    for (size_t k = 0; k < d; k++) {
        R->w[k] = 2 * urand(s);
        R->wk[k] = urand(s);
    }
    R->beta = 0.1 + 2 * (urand(s) + 1);
    R->P.kind = FR_PROXAL_QP;
    R->P.n = n;
    R->P.d = d;
    R->P.mt = mt;
    R->P.A = R->A;
    R->P.b = R->b;
    R->P.C = R->C;
    R->P.e = R->e;
}

/* The printed (6) at precision p, independently: out = l_k, g its gradient. */
static void indep_lk(mpfr_t out, mpfr_t *g, const rqp *R, mpfr_prec_t p)
{
    const fr_proxal_problem *P = &R->P;
    size_t n = P->n, d = P->d, mt = P->mt;
    mpfr_t s, t, u, c;
    mpfr_inits2(p, s, t, u, c, (mpfr_ptr)0);
    mpfr_set_zero(out, 1);
    for (size_t k = 0; k < d; k++) {
        mpfr_set_d(g[k], R->w[k], MPFR_RNDN);
        mpfr_sub_d(g[k], g[k], R->wk[k], MPFR_RNDN);
        mpfr_sqr(t, g[k], MPFR_RNDN);
        mpfr_div_d(t, t, 2 * R->beta, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
        mpfr_div_d(g[k], g[k], R->beta, MPFR_RNDN);
    }
    for (size_t i = 1; i <= n; i++)
        for (size_t k = 0; k < d; k++) {
            const double *A = R->A + (i - 1) * d * d;
            mpfr_set_d(s, R->b[(i - 1) * d + k], MPFR_RNDN);
            mpfr_add(g[k], g[k], s, MPFR_RNDN);
            mpfr_mul_d(s, s, R->w[k], MPFR_RNDN);
            mpfr_add(out, out, s, MPFR_RNDN);
            for (size_t l = 0; l < d; l++) {
                mpfr_set_d(s, A[k * d + l], MPFR_RNDN);
                mpfr_mul_d(s, s, R->w[l], MPFR_RNDN);
                mpfr_add(g[k], g[k], s, MPFR_RNDN);
                mpfr_mul_d(s, s, R->w[k] / 2, MPFR_RNDN);
                mpfr_add(out, out, s, MPFR_RNDN);
            }
        }
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j < mt; j++) {
            const double *C = R->C + (i * mt + j) * d;
            mpfr_set_d(c, R->e[i * mt + j], MPFR_RNDN);
            for (size_t k = 0; k < d; k++) {
                mpfr_set_d(s, C[k], MPFR_RNDN);
                mpfr_mul_d(s, s, R->w[k], MPFR_RNDN);
                mpfr_add(c, c, s, MPFR_RNDN);
            }
            double m = R->mu[i * mt + j];
            mpfr_mul_d(t, c, R->beta, MPFR_RNDN);
            mpfr_add_d(t, t, m, MPFR_RNDN);                /* t = mu + beta c */
            mpfr_sqr(u, t, MPFR_RNDN);
            mpfr_set_d(s, m, MPFR_RNDN);
            mpfr_sqr(s, s, MPFR_RNDN);
            mpfr_sub(u, u, s, MPFR_RNDN);
            mpfr_div_d(u, u, 2 * R->beta, MPFR_RNDN);
            mpfr_add(out, out, u, MPFR_RNDN);
            for (size_t k = 0; k < d; k++) {
                mpfr_mul_d(s, t, C[k], MPFR_RNDN);
                mpfr_add(g[k], g[k], s, MPFR_RNDN);
            }
        }
    mpfr_clears(s, t, u, c, (mpfr_ptr)0);
}

static int close_rel(mpfr_srcptr a, mpfr_srcptr b, long e)
{
    mpfr_t d;
    mpfr_init2(d, 64);
    mpfr_sub(d, a, b, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_t m;
    mpfr_init2(m, 64);
    mpfr_abs(m, b, MPFR_RNDN);
    if (mpfr_cmp_d(m, 1) < 0)
        mpfr_set_d(m, 1, MPFR_RNDN);
    mpfr_mul_2si(m, m, -e, MPFR_RNDN);
    int ok = mpfr_cmp(d, m) <= 0;
    mpfr_clears(d, m, (mpfr_ptr)0);
    return ok;
}

START_TEST(random_qp)
{
    uint64_t s = tu_seed(1301);
    int cases = tu_effort(12);
    for (int cs = 0; cs < cases; cs++) {
        rqp R;
        rqp_make(&R, &s);
        const fr_proxal_problem *P = &R.P;
        size_t d = P->d, n = P->n, mt = fr_proxal_mtot(P);
        mpfr_t *W = fr_vec(R.w, d, 53), *WK = fr_vec(R.wk, d, 53), *MU = fr_vec(R.mu, mt, 53);
        mpfr_t *G = fr_vec(R.w, d, 200), *GI = fr_vec(R.w, d, 3000), B, V, VI, S;
        mpfr_inits2(200, V, S, (mpfr_ptr)0);
        mpfr_init2(VI, 3000);
        mpfr_init2(B, 53);
        mpfr_set_d(B, R.beta, MPFR_RNDN);
        ck_assert_int_eq(fr_proxal_lk(V, G, P, W, WK, MU, B), FR_OK);
        indep_lk(VI, GI, &R, 3000);
        ck_assert(close_rel(V, VI, 198));                  /* correctly rounded at 200 bits */
        for (size_t k = 0; k < d; k++)
            ck_assert(close_rel(G[k], GI[k], 198));
        /* the split (9): sum_i P_ik = l_k */
        mpfr_set_zero(S, 1);
        for (size_t i = 0; i <= n; i++) {
            mpfr_t pv;
            mpfr_init2(pv, 200);
            ck_assert_int_eq(fr_proxal_pik(pv, NULL, NULL, P, i, W, WK, MU, B), FR_OK);
            mpfr_add(S, S, pv, MPFR_RNDN);
            mpfr_clear(pv);
        }
        ck_assert(close_rel(S, V, 190));
        /* the gradient of l_k against central differences of ref's value
         * (l_k is quadratic: the difference quotient is exact up to rounding) */
        mpfr_t *Wp = fr_vec(R.w, d, 400), vp, vm, dq;
        mpfr_inits2(400, vp, vm, dq, (mpfr_ptr)0);
        for (size_t k = 0; k < d; k++) {
            mpfr_set_d(Wp[k], R.w[k], MPFR_RNDN);
            mpfr_add_d(Wp[k], Wp[k], 0x1p-100, MPFR_RNDN);
            ck_assert_int_eq(fr_proxal_lk(vp, NULL, P, Wp, WK, MU, B), FR_OK);
            mpfr_set_d(Wp[k], R.w[k], MPFR_RNDN);
            mpfr_sub_d(Wp[k], Wp[k], 0x1p-100, MPFR_RNDN);
            ck_assert_int_eq(fr_proxal_lk(vm, NULL, P, Wp, WK, MU, B), FR_OK);
            mpfr_set_d(Wp[k], R.w[k], MPFR_RNDN);
            mpfr_sub(dq, vp, vm, MPFR_RNDN);
            mpfr_mul_2si(dq, dq, 99, MPFR_RNDN);
            ck_assert(close_rel(dq, G[k], 190));
        }
        /* the Hessian of P_ik against central differences of its gradient */
        for (size_t i = 0; i <= n; i++) {
            mpfr_t *H = fr_vec(R.w, d * d, 200), *gp = fr_vec(R.w, d, 400), *gm = fr_vec(R.w, d, 400);
            ck_assert_int_eq(fr_proxal_pik(NULL, NULL, H, P, i, W, WK, MU, B), FR_OK);
            for (size_t l = 0; l < d; l++) {
                mpfr_add_d(Wp[l], Wp[l], 0x1p-100, MPFR_RNDN);
                ck_assert_int_eq(fr_proxal_pik(NULL, gp, NULL, P, i, Wp, WK, MU, B), FR_OK);
                mpfr_set_d(Wp[l], R.w[l], MPFR_RNDN);
                mpfr_sub_d(Wp[l], Wp[l], 0x1p-100, MPFR_RNDN);
                ck_assert_int_eq(fr_proxal_pik(NULL, gm, NULL, P, i, Wp, WK, MU, B), FR_OK);
                mpfr_set_d(Wp[l], R.w[l], MPFR_RNDN);
                for (size_t k = 0; k < d; k++) {
                    mpfr_sub(dq, gp[k], gm[k], MPFR_RNDN);
                    mpfr_mul_2si(dq, dq, 99, MPFR_RNDN);
                    ck_assert(close_rel(dq, H[k * d + l], 190));
                }
            }
            fr_free(H, d * d);
            fr_free(gp, d);
            fr_free(gm, d);
        }
        /* fast against ref (measured <= 2^-50 relative to max(1, |.|)) */
        double v, g[DM];
        ck_assert_int_eq(ff_proxal_lk(&v, g, P, R.w, R.wk, R.mu, R.beta), FR_OK);
        mpfr_set_d(S, v, MPFR_RNDN);
        ck_assert(close_rel(S, V, 44));
        for (size_t k = 0; k < d; k++) {
            mpfr_set_d(S, g[k], MPFR_RNDN);
            ck_assert(close_rel(S, G[k], 44));
        }
        fr_free(Wp, d);
        mpfr_clears(vp, vm, dq, (mpfr_ptr)0);
        fr_free(W, d);
        fr_free(WK, d);
        fr_free(MU, mt);
        fr_free(G, d);
        fr_free(GI, d);
        mpfr_clears(B, V, VI, S, (mpfr_ptr)0);
    }
}
END_TEST

/* The kink t_j = 0 (fast; ref too when its problem evaluator handles FAIR). */
START_TEST(kink_exact_zero)
{
    fr_proxal_problem P = lk_kink_fair();
    const double w[1] = {0}, wk[1] = {0.25}, beta = 1;
    double mu0[4] = {0, -0.0, 0, -0.0}, mua[4] = {0x1p-20, 0x1p-20, 0x1p-20, 0x1p-20};
    double H0, Ha, Hf, g0, mn[4], c[2], J[2];
    ck_assert_int_eq(ff_proxal_client_eval(&P, 1, w, NULL, NULL, &Hf, c, J, NULL, NULL), FR_OK);
    ck_assert(c[0] == 0 && c[1] == 0 && J[0] != 0);        /* t_j = mu_j + beta c_j = 0 exactly */
    ck_assert_int_eq(ff_proxal_pik(NULL, &g0, &H0, &P, 1, w, wk, mu0, beta), FR_OK);
    /* inactive at the kink: Hess f_1 + 1/((n+1) beta), y = 0: grad = grad f_1 + (w - w^k)/2 */
    ck_assert(H0 == Hf + 0.5);
    double gf;
    ck_assert_int_eq(ff_proxal_client_eval(&P, 1, w, NULL, &gf, NULL, NULL, NULL, NULL, NULL), FR_OK);
    ck_assert(g0 == gf - 0.125);
    /* t_j > 0: active, the term beta grad c grad c^T appears for both rows */
    ck_assert_int_eq(ff_proxal_pik(NULL, NULL, &Ha, &P, 1, w, wk, mua, beta), FR_OK);
    ck_assert(fabs(Ha - (H0 + beta * (J[0] * J[0] + J[1] * J[1]))) <= 1e-5);
    /* the update at the kink is +0 (never -0), also from mu = -0 */
    ck_assert_int_eq(ff_proxal_mu_update(mn, &P, w, mu0, beta), FR_OK);
    for (size_t j = 0; j < 4; j++)
        ck_assert(mn[j] == 0 && !signbit(mn[j]));
    double v;
    ck_assert_int_eq(ff_proxal_lk(&v, NULL, &P, w, wk, mu0, beta), FR_OK);
    double f1;
    ck_assert_int_eq(ff_proxal_client_eval(&P, 1, w, &f1, NULL, NULL, NULL, NULL, NULL, NULL), FR_OK);
    ck_assert(v == f1 + 0.0625 / 2);                       /* every AL_j = -0^2/2 = 0 */
    /* ref: D_i(0) = ln 2 - ln 2 = 0 exactly (fr_proxal_client_eval merges
     * samples of equal (t, y)), so t_j = 0 exactly: the same inactive
     * convention must hold.  FR_EINTERNAL would mean the evaluator could not
     * decide the cancelling sum (its contract); then ref cannot reach the
     * kink and only fast is checked. */
    mpfr_t *W = fr_vec(w, 1, 53), *WK = fr_vec(wk, 1, 53), *MU = fr_vec(mu0, 4, 53), *MN = fr_vec(mu0, 4, 53);
    mpfr_t B, HR;
    mpfr_init2(B, 53);
    mpfr_set_d(B, beta, MPFR_RNDN);
    mpfr_init2(HR, 53);
    int st = fr_proxal_pik(NULL, NULL, &HR, &P, 1, W, WK, MU, B);
    if (st != FR_EINTERNAL) {
        ck_assert_int_eq(st, FR_OK);
        ck_assert_int_eq(fr_proxal_mu_update(MN, &P, W, MU, B), FR_OK);
        for (size_t j = 0; j < 4; j++)
            ck_assert(mpfr_zero_p(MN[j]) && !mpfr_signbit(MN[j]));
        ck_assert(fabs(mpfr_get_d(HR, MPFR_RNDN) - H0) <= 1e-14);
    }
    fr_free(W, 1);
    fr_free(WK, 1);
    fr_free(MU, 4);
    fr_free(MN, 4);
    mpfr_clears(B, HR, (mpfr_ptr)0);
}
END_TEST

/* NP / FAIR: fast's gradients against central differences, the split; ref
 * against fast and ref's gradient against differences of ref's value. */
START_TEST(fast_np_fair_fd)
{
    uint64_t s = tu_seed(1302);
    size_t cnt[3] = {0, 4, 5}, cntf[3] = {3, 4, 5};
    double X[12 * 3], r[3] = {0.5, 0.7, 0.1};
    unsigned char y[12] = {0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1}, gr[12] = {0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0};
    for (size_t k = 0; k < 36; k++)
        X[k] = urand(&s);
    for (int kind = FR_PROXAL_NP; kind <= FR_PROXAL_FAIR; kind++) {
        fr_proxal_problem P = {0};
        P.kind = kind;
        P.n = 2;
        P.d = 3;
        P.cnt = kind == FR_PROXAL_NP ? cnt : cntf;
        P.X = kind == FR_PROXAL_NP ? X + 9 : X;
        P.y = kind == FR_PROXAL_NP ? y + 3 : y;
        P.grp = kind == FR_PROXAL_FAIR ? gr : NULL;
        P.r = r;
        ck_assert_int_eq(fr_proxal_problem_check(&P), FR_OK);
        size_t mt = fr_proxal_mtot(&P);
        double w[3], wk[3], mu[6], beta = 3, g[3], v, vp, vm, S = 0, pv;
        for (size_t k = 0; k < 3; k++) {
            w[k] = 2 * urand(&s);
            wk[k] = urand(&s);
        }
        for (size_t j = 0; j < mt; j++)
            mu[j] = j % 2 ? 0 : fabs(urand(&s));
        ck_assert_int_eq(ff_proxal_lk(&v, g, &P, w, wk, mu, beta), FR_OK);
        for (size_t k = 0; k < 3; k++) {
            double h = 1e-5, wp[3] = {w[0], w[1], w[2]};
            wp[k] = w[k] + h;
            ck_assert_int_eq(ff_proxal_lk(&vp, NULL, &P, wp, wk, mu, beta), FR_OK);
            wp[k] = w[k] - h;
            ck_assert_int_eq(ff_proxal_lk(&vm, NULL, &P, wp, wk, mu, beta), FR_OK);
            ck_assert(fabs((vp - vm) / (2 * h) - g[k]) <= 1e-6 * (1 + fabs(g[k])));
        }
        for (size_t i = 0; i <= P.n; i++) {
            ck_assert_int_eq(ff_proxal_pik(&pv, NULL, NULL, &P, i, w, wk, mu, beta), FR_OK);
            S += pv;
        }
        ck_assert(fabs(S - v) <= 1e-13 * (1 + fabs(v)));
        /* ref at 200 bits: fast within 2^-44 relative; ref's gradient against
         * central differences of ref's value (h = 2^-100 at 400 bits: the
         * truncation error is O(h^2) = O(2^-200)) */
        mpfr_t *W = fr_vec(w, 3, 53), *WK = fr_vec(wk, 3, 53), *MU = fr_vec(mu, mt, 53), *G = fr_vec(w, 3, 200),
               *Wp = fr_vec(w, 3, 400), B, V, T, vq, vr, dq;
        mpfr_inits2(200, V, T, (mpfr_ptr)0);
        mpfr_inits2(400, vq, vr, dq, (mpfr_ptr)0);
        mpfr_init2(B, 53);
        mpfr_set_d(B, beta, MPFR_RNDN);
        ck_assert_int_eq(fr_proxal_lk(V, G, &P, W, WK, MU, B), FR_OK);
        mpfr_set_d(T, v, MPFR_RNDN);
        ck_assert(close_rel(T, V, 44));
        for (size_t k = 0; k < 3; k++) {
            mpfr_set_d(T, g[k], MPFR_RNDN);
            ck_assert(close_rel(T, G[k], 40));
            mpfr_add_d(Wp[k], Wp[k], 0x1p-100, MPFR_RNDN);
            ck_assert_int_eq(fr_proxal_lk(vq, NULL, &P, Wp, WK, MU, B), FR_OK);
            mpfr_set_d(Wp[k], w[k], MPFR_RNDN);
            mpfr_sub_d(Wp[k], Wp[k], 0x1p-100, MPFR_RNDN);
            ck_assert_int_eq(fr_proxal_lk(vr, NULL, &P, Wp, WK, MU, B), FR_OK);
            mpfr_set_d(Wp[k], w[k], MPFR_RNDN);
            mpfr_sub(dq, vq, vr, MPFR_RNDN);
            mpfr_mul_2si(dq, dq, 99, MPFR_RNDN);
            ck_assert(close_rel(dq, G[k], 150));
        }
        fr_free(W, 3);
        fr_free(WK, 3);
        fr_free(MU, mt);
        fr_free(G, 3);
        fr_free(Wp, 3);
        mpfr_clears(B, V, T, vq, vr, dq, (mpfr_ptr)0);
    }
}
END_TEST

Suite *suite_proxal_lk(void)
{
    Suite *s = suite_create("proxal_lk");
    TCase *tc = tcase_create("lk");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, hand_qp);
    tcase_add_test(tc, random_qp);
    tcase_add_test(tc, kink_exact_zero);
    tcase_add_test(tc, fast_np_fair_fd);
    suite_add_tcase(s, tc);
    return s;
}
