/* SPDX-License-Identifier: Apache-2.0 */
/* check_surrogate_app.c -- the surrogates of the application, 000 Sec. V
 * ((32)-(37) with (7); (40)-(42) with (15) and (31)), against Assumption 2
 * and the requirement fbar_1(w; w, x) = f_1(w; x) of Sec. III-B (001
 * Sec. V: (12)-(15), (19)-(20) and its A-bar).
 *
 * One round t = 1 with rho^(1) = 1 (then (34) with tau ||w||^2 is the
 * surrogate of (3)/(14) exactly; for rho^(1) < 1 see E-000-8), on seeded
 * random instances: networks of the shape L = 3, J = 2, P = 4 on even
 * cases (others cycling through smaller shapes), I = 1..3 clients with
 * N_i in [B, B + 5], B = 1..3 samples per client, the weights N_i/(B N) of
 * (29)-(31) (I = 1 is the feature-based weight 1/B), w^(1) random
 * dyadic, tau > 0 and lambda >= 0 random dyadics of <= 20 bits.  The
 * client messages come from fr_ssca_net (F_i = sum_n loss_n, G_i = sum_n
 * (abar_n, bbar_n)); (29)-(31), (35)-(37), (42) are evaluated as printed at
 * q = prec + 64 bits, and the surrogates (33)-(34), (41) as jets of w
 * (net_oracle.h); the truth F_B(w) = sum_i N_i/(BN) sum_n loss_n(w) is the
 * jet of the literal (28).  Tolerance: 2^-(prec-56) max(1, |reference|)
 * (2^-200 at 256 bits), or exact where stated.
 *
 * pc_ssca_surrogate_app: erratum E-000-31.
 *   (1) Assumption 2.1: grad Fbar_0^(1)(w1) of (33) = grad F_B(w1) + 2 lambda
 *       w1 (the gradient of (32) on the batch), and grad of the constraint
 *       surrogate Fbar^(1)(w) + C^(1) of (41) at w1 = grad F_B(w1);
 *   (2) Assumption 2.2: both Hessians are exactly 2 tau I (decided exactly:
 *       the jets of linear and quadratic terms are exact), tau > 0, so
 *       both are strongly convex with modulus 2 tau;
 *   (3) the recursions reproduce the per-sample surrogates: at a second
 *       random point w', Fbar_0^(1)(w') - Fbar_0^(1)(w1) equals
 *       sum_i N_i/(BN) sum_n [grad f_n(w1)^T (w' - w1) + tau ||w' - w1||^2]
 *       + 2 lambda w1^T (w' - w1) ((3) with (7), lambda ||w||^2 linearised
 *       as in (33)), and Fbar^(1)(w') + C^(1) equals sum_i N_i/(BN) sum_n
 *       fbar_1(w'; w1, x_n) of (15) (f_n, grad f_n from the oracle): so the
 *       single tau ||w1||^2 that (31) adds once is (15)'s per-sample
 *       tau ||w1||^2 (consistent because the weights of one round sum to
 *       1: sum_i N_i/(BN) B = 1, and 1/B times B for a = f);
 *   (4) fbar_1(w1; w1, x) = f_1(w1; x), i.e. Fbar^(1)(w1) + C^(1) = F_B(w1):
 *       holds with c-bar_n = loss_n = -sum_l y_l log Q_l; with c-bar_n =
 *       +sum_l y_l log Q_l as printed in (31) (and 001's A-bar) it equals
 *       -F_B(w1), off by 2 F_B(w1) > 0 (every case).  Witness: w1 = 0:
 *       F_B = log L, the printed constraint surrogate is -log L at w1.
 * Returns 0 when (1)-(3) and the corrected (4) hold on every case and the
 * printed (4) fails on every case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "net_oracle.h"

#define STREAM_SAPP UINT64_C(0x70632d73617070) /* "pc-sapp" */
#define LMAX 3
#define JMAX 2
#define PMAX 4
#define DMAX (JMAX * (LMAX + PMAX))
#define IMAX 3
#define BMAX 3
#define SMAX (IMAX * BMAX)

static const size_t SHAPES[][3] = {{2, 1, 1}, {2, 2, 3}, {3, 1, 2}, {2, 1, 4}};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

typedef struct {
    size_t L, J, P, d, I, B, Ni[IMAX];
    mpfr_t w1[DMAX], w2[DMAX], Z[SMAX * PMAX], tau, lam;
    size_t y[SMAX];       /* client i's samples are i*B .. i*B + B - 1 */
} inst;

static void make_inst(inst *c, frng_t *g, unsigned long k)
{
    const size_t *sh = (k % 2 == 0) ? (const size_t[3]){3, 2, 4} : SHAPES[(k / 2) % NSHAPES];
    c->L = sh[0];
    c->J = sh[1];
    c->P = sh[2];
    c->d = c->J * (c->L + c->P);
    c->I = 1 + (size_t)pcu_below(g, IMAX);
    c->B = 1 + (size_t)pcu_below(g, BMAX);
    for (size_t i = 0; i < c->I; i++)
        c->Ni[i] = c->B + (size_t)pcu_below(g, 6);
    for (size_t j = 0; j < c->d; j++) {
        pcu_rand_dyadic(c->w1[j], g, 1 + (unsigned)pcu_below(g, 53), -4, 1, 0);
        pcu_rand_dyadic(c->w2[j], g, 1 + (unsigned)pcu_below(g, 53), -4, 1, 0);
    }
    for (size_t s = 0; s < c->I * c->B; s++) {
        for (size_t p = 0; p < c->P; p++)
            pcu_rand_dyadic(c->Z[s * c->P + p], g, 1 + (unsigned)pcu_below(g, 53), -3, 3, 0);
        c->y[s] = (size_t)pcu_below(g, c->L);
    }
    pcu_rand_dyadic_nz(c->tau, g, 1 + (unsigned)pcu_below(g, 20), -6, 3, 1);
    pcu_rand_dyadic(c->lam, g, 1 + (unsigned)pcu_below(g, 20), -8, 0, 1);
    if (k == 0) /* the witness: w1 = 0, F_B = log L */
        for (size_t j = 0; j < c->d; j++)
            mpfr_set_zero(c->w1[j], 1);
}

/* |x - ref| <= tol * max(1, |ref|)  (t: scratch at the working precision) */
static int near(const mpfr_t x, const mpfr_t ref, const mpfr_t tol, mpfr_t t, mpfr_t s)
{
    mpfr_abs(s, ref, MPFR_RNDU);
    if (mpfr_cmp_ui(s, 1) < 0)
        mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_mul(s, s, tol, MPFR_RNDD);
    mpfr_sub(t, x, ref, MPFR_RNDA);
    return mpfr_cmpabs(t, s) <= 0;
}

/* The same with the scale max(1, max_k |ref_k|) over a vector. */
static int near_vec(mpfr_t *x, mpfr_t *ref, size_t n, const mpfr_t tol, mpfr_t t, mpfr_t s)
{
    mpfr_set_ui(s, 1, MPFR_RNDN);
    for (size_t k = 0; k < n; k++)
        if (mpfr_cmpabs(ref[k], s) > 0)
            mpfr_abs(s, ref[k], MPFR_RNDU);
    mpfr_mul(s, s, tol, MPFR_RNDD);
    for (size_t k = 0; k < n; k++) {
        mpfr_sub(t, x[k], ref[k], MPFR_RNDA);
        if (mpfr_cmpabs(t, s) > 0)
            return 0;
    }
    return 1;
}

/* The quadratic surrogate lin^T w + tau ||w||^2 + c0 as an order-2 jet at
 * the point w (r: d variables). */
static void quad_jet(pcs_jet *r, pcs_jet *x, mpfr_t *w, mpfr_t *lin, const mpfr_t tau,
                     const mpfr_t c0, size_t d)
{
    pcs_jet_const(r, c0);
    for (size_t k = 0; k < d; k++) {
        pcs_jet_var(x, w[k], k);
        pcs_jet_addmul(r, x, lin[k]);
        pcs_jet_mul(x, x, x);
        pcs_jet_addmul(r, x, tau);
    }
}

int pc_ssca_surrogate_app(pc_ctx *ctx)
{
    mpfr_prec_t p = ctx->prec, q = p + 64;
    inst c;
    mpfr_t F[IMAX], G[IMAX * DMAX], wt[IMAX], gbar[DMAX], A[DMAX], lin0[DMAX], beta[DMAX],
        gsum[DMAX], yv[LMAX], tol, t, s, u, cbar_p, cbar_c, C_p, C_c, nw2, fb, zero, lhs, rhs, dw;
    pcs_jet S0, S1, x, FB, fn;
    pcs_net net;
    char first[300] = "", wit[260] = "";
    unsigned long ok = 0, printed_off = 0;
    frng_t g;

    ctx->function = "ssca_net";
    ctx->vector = NULL;
    ctx->claim = "000 (33)-(37), (41)-(42) with rho^(1) = 1: Assumption 2.1-2.2 for (7) and (15); "
                 "fbar_1(w; w, x) = f_1(w; x) needs c-bar = the loss, not (31)'s +sum y log Q";
    ctx->erratum = "E-000-31";

    for (size_t k = 0; k < DMAX; k++) {
        mpfr_inits2(64, c.w1[k], c.w2[k], (mpfr_ptr)0);
        mpfr_inits2(q, gbar[k], A[k], lin0[k], beta[k], gsum[k], (mpfr_ptr)0);
    }
    for (size_t k = 0; k < IMAX * DMAX; k++)
        mpfr_init2(G[k], p);
    for (size_t i = 0; i < IMAX; i++) {
        mpfr_init2(F[i], p);
        mpfr_init2(wt[i], q);
    }
    for (size_t k = 0; k < SMAX * PMAX; k++)
        mpfr_init2(c.Z[k], 64);
    for (size_t l = 0; l < LMAX; l++)
        mpfr_init2(yv[l], 8);
    mpfr_inits2(64, c.tau, c.lam, (mpfr_ptr)0);
    mpfr_inits2(q, tol, t, s, u, cbar_p, cbar_c, C_p, C_c, nw2, fb, zero, lhs, rhs, dw, (mpfr_ptr)0);
    mpfr_set_zero(zero, 1);
    mpfr_set_ui_2exp(tol, 1, -(long)(p - 56), MPFR_RNDN);
    frng_init(&g, ctx->seed, STREAM_SAPP);

    for (unsigned long k = 0; k < ctx->cases; k++) {
        const char *why = NULL;
        make_inst(&c, &g, k);
        ctx->ran++;
        size_t L = c.L, J = c.J, P = c.P, d = c.d, I = c.I, B = c.B, N = 0;
        if (pcs_net_init(&net, L, J, P, 1, q))
            return 2;
        pcs_jet_init(&S0, d, 2, q);
        pcs_jet_init(&S1, d, 2, q);
        pcs_jet_init(&x, d, 2, q);
        pcs_jet_init(&FB, d, 1, q);
        pcs_jet_init(&fn, d, 1, q);
        /* the weights N_i / (B N) of (29)-(31) (rounded at q bits) */
        for (size_t i = 0; i < I; i++)
            N += c.Ni[i];
        for (size_t i = 0; i < I; i++) {
            mpfr_set_ui(wt[i], (unsigned long)c.Ni[i], MPFR_RNDN);
            mpfr_div_ui(wt[i], wt[i], (unsigned long)(B * N), MPFR_RNDN);
        }
        /* the client messages (Step 4 of Algorithm 2) from fr_ssca_net */
        for (size_t i = 0; i < I && why == NULL; i++)
            if (fr_ssca_net(F[i], G + i * DMAX, c.w1, L, J, P, c.Z + i * B * P, c.y + i * B, B)
                != FR_OK)
                why = "fr_ssca_net failed";
        if (why)
            goto done;
        /* (29)-(30): A-bar, B-bar = sum_i N_i/(BN) G_i;  (31): C-bar */
        mpfr_set_zero(cbar_p, 1);
        mpfr_set_zero(cbar_c, 1);
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_set_zero(gbar[k2], 1);
        for (size_t i = 0; i < I; i++) {
            for (size_t k2 = 0; k2 < d; k2++) {
                mpfr_mul(t, wt[i], G[i * DMAX + k2], MPFR_RNDN);
                mpfr_add(gbar[k2], gbar[k2], t, MPFR_RNDN);
            }
            mpfr_mul(t, wt[i], F[i], MPFR_RNDN);
            mpfr_sub(cbar_p, cbar_p, t, MPFR_RNDN);   /* printed: sum y log Q = -loss */
            mpfr_add(cbar_c, cbar_c, t, MPFR_RNDN);   /* corrected: the loss */
        }
        mpfr_set_zero(nw2, 1);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_sqr(t, c.w1[k2], MPFR_RNDN);
            mpfr_add(nw2, nw2, t, MPFR_RNDN);
        }
        mpfr_mul(t, c.tau, nw2, MPFR_RNDN);
        mpfr_add(cbar_p, cbar_p, t, MPFR_RNDN);       /* + tau ||w^(t)||^2 (31) */
        mpfr_add(cbar_c, cbar_c, t, MPFR_RNDN);
        /* rho^(1) = 1, A^(0) = B^(0) = C^(0) = 0, beta^(0) = 0:
         * (35) beta = w1; (36)-(37) A = Abar - 2 tau w1; (42) C = Cbar - gbar^T w1 */
        mpfr_set_zero(s, 1);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_set(beta[k2], c.w1[k2], MPFR_RNDN);
            mpfr_mul(t, c.tau, c.w1[k2], MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_sub(A[k2], gbar[k2], t, MPFR_RNDN);
            mpfr_mul(t, gbar[k2], c.w1[k2], MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
            /* (33): the linear term of Fbar_0 is A + 2 lambda beta */
            mpfr_mul(t, c.lam, beta[k2], MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_add(lin0[k2], A[k2], t, MPFR_RNDN);
        }
        mpfr_sub(C_p, cbar_p, s, MPFR_RNDN);
        mpfr_sub(C_c, cbar_c, s, MPFR_RNDN);
        /* the truth: F_B(w) = sum_i N_i/(BN) sum_n loss_n(w), jet at w1 */
        pcs_net_set_w(&net, c.w1);
        mpfr_set_zero(FB.v, 1);
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_set_zero(FB.g[k2], 1);
        for (size_t i = 0; i < I && why == NULL; i++)
            for (size_t n = 0; n < B && why == NULL; n++) {
                size_t sm = i * B + n;
                for (size_t l = 0; l < L; l++)
                    mpfr_set_ui(yv[l], l == c.y[sm], MPFR_RNDN);
                if (pcs_net_add_loss(&net, &FB, c.Z + sm * P, yv, wt[i]))
                    why = "oracle: Q_y = 0";
            }
        if (why)
            goto done;
        /* (1), (2) for (33): jet of Fbar_0 at w1 */
        quad_jet(&S0, &x, c.w1, lin0, c.tau, zero, d);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_mul(t, c.lam, c.w1[k2], MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_add(gsum[k2], FB.g[k2], t, MPFR_RNDN);   /* grad (32) on the batch */
        }
        if (!near_vec(S0.g, gsum, d, tol, t, s)) {
            why = "(1) grad of (33) at w1 != grad F_B + 2 lambda w1";
            goto done;
        }
        /* (1), (2) for (41)-(42), corrected constant */
        quad_jet(&S1, &x, c.w1, A, c.tau, C_c, d);
        if (!near_vec(S1.g, FB.g, d, tol, t, s)) {
            why = "(1) grad of the constraint surrogate at w1 != grad F_B";
            goto done;
        }
        mpfr_mul_2ui(u, c.tau, 1, MPFR_RNDN);  /* 2 tau, exact */
        for (size_t i2 = 0; i2 < d && why == NULL; i2++)
            for (size_t j2 = 0; j2 <= i2; j2++) {
                size_t h = pcs_hidx(i2, j2);
                int e0 = i2 == j2 ? mpfr_equal_p(S0.h[h], u) : mpfr_zero_p(S0.h[h]);
                int e1 = i2 == j2 ? mpfr_equal_p(S1.h[h], u) : mpfr_zero_p(S1.h[h]);
                if (!e0 || !e1) {
                    why = "(2) a surrogate Hessian is not exactly 2 tau I";
                    break;
                }
            }
        if (why)
            goto done;
        /* (4) the value at w1: corrected = F_B, printed = -F_B */
        if (!near(S1.v, FB.v, tol, t, s)) {
            why = "(4) corrected: Fbar(w1) + C(w1) != F_B(w1)";
            goto done;
        }
        mpfr_sub(fb, S1.v, C_c, MPFR_RNDN);
        mpfr_add(fb, fb, C_p, MPFR_RNDN);              /* printed surrogate at w1 */
        mpfr_neg(t, FB.v, MPFR_RNDN);
        if (!near(fb, t, tol, u, s)) {
            why = "(4) printed: Fbar(w1) + C(w1) != -F_B(w1)";
            goto done;
        }
        if (near(fb, FB.v, tol, u, s)) {
            why = "(4) the printed constant gives F_B(w1) (loss 0?)";
            goto done;
        }
        printed_off++;
        if (wit[0] == '\0' && mpfr_zero_p(c.w1[0]) && mpfr_zero_p(c.w1[d - 1]))
            mpfr_snprintf(wit, sizeof wit,
                          "w1 = 0, L=%zu: F_B(w1) = %.12Rg (= log L), printed Fbar^(1)(w1) + "
                          "C^(1) = %.12Rg, corrected %.12Rg",
                          L, FB.v, fb, S1.v);
        /* (3) at w' = w2: the per-sample surrogates (7) and (15) summed */
        mpfr_set_zero(lhs, 1);
        mpfr_set_zero(rhs, 1);
        for (size_t i = 0; i < I && why == NULL; i++)
            for (size_t n = 0; n < B && why == NULL; n++) {
                size_t sm = i * B + n;
                for (size_t l = 0; l < L; l++)
                    mpfr_set_ui(yv[l], l == c.y[sm], MPFR_RNDN);
                mpfr_set_zero(fn.v, 1);
                for (size_t k2 = 0; k2 < d; k2++)
                    mpfr_set_zero(fn.g[k2], 1);
                if (pcs_net_add_loss(&net, &fn, c.Z + sm * P, yv, NULL)) {
                    why = "oracle: Q_y = 0";
                    break;
                }
                /* (7): g_n^T (w2 - w1) + tau ||w2 - w1||^2; (15): f_n + that */
                mpfr_set_zero(s, 1);
                for (size_t k2 = 0; k2 < d; k2++) {
                    mpfr_sub(dw, c.w2[k2], c.w1[k2], MPFR_RNDN);
                    mpfr_mul(t, fn.g[k2], dw, MPFR_RNDN);
                    mpfr_add(s, s, t, MPFR_RNDN);
                    mpfr_sqr(t, dw, MPFR_RNDN);
                    mpfr_mul(t, t, c.tau, MPFR_RNDN);
                    mpfr_add(s, s, t, MPFR_RNDN);
                }
                mpfr_mul(t, s, wt[i], MPFR_RNDN);
                mpfr_add(lhs, lhs, t, MPFR_RNDN);
                mpfr_add(s, s, fn.v, MPFR_RNDN);
                mpfr_mul(t, s, wt[i], MPFR_RNDN);
                mpfr_add(rhs, rhs, t, MPFR_RNDN);
            }
        if (why)
            goto done;
        /* unconstrained: Fbar_0(w2) - Fbar_0(w1) vs lhs + 2 lambda w1^T (w2 - w1) */
        mpfr_set(fb, S0.v, MPFR_RNDN);
        quad_jet(&S0, &x, c.w2, lin0, c.tau, zero, d);
        mpfr_sub(fb, S0.v, fb, MPFR_RNDN);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_sub(dw, c.w2[k2], c.w1[k2], MPFR_RNDN);
            mpfr_mul(t, dw, c.w1[k2], MPFR_RNDN);
            mpfr_mul(t, t, c.lam, MPFR_RNDN);
            mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_add(lhs, lhs, t, MPFR_RNDN);
        }
        if (!near(fb, lhs, tol, t, s)) {
            why = "(3) (33)-(37) do not reproduce (3) with (7) at w'";
            goto done;
        }
        quad_jet(&S1, &x, c.w2, A, c.tau, C_c, d);
        if (!near(S1.v, rhs, tol, t, s)) {
            why = "(3) (34), (42) with the loss as c-bar do not reproduce (14) with (15) at w'";
            goto done;
        }
        ok++;
    done:
        pcs_jet_clear(&S0);
        pcs_jet_clear(&S1);
        pcs_jet_clear(&x);
        pcs_jet_clear(&FB);
        pcs_jet_clear(&fn);
        pcs_net_clear(&net);
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "case %lu (L=%zu J=%zu P=%zu I=%zu B=%zu): %s", k,
                         L, J, P, I, B, why);
    }
    if (wit[0] == '\0' && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "no witness (case 0 has w1 = 0)");
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases: Assumption 2.1 (gradients at w1 within 2^-%ld), 2.2 (Hessians "
                     "exactly 2 tau I) and the per-sample sums (7), (15) at a second point hold "
                     "on %lu; fbar_1(w1; w1, x) = f_1 with c-bar = loss on all, with (31)'s "
                     "c-bar = +sum y log Q it is -F_B (off by 2 F_B) on %lu; witness %s",
                     ctx->ran, (long)(p - 56), ok, printed_off, wit);

    for (size_t k = 0; k < DMAX; k++)
        mpfr_clears(c.w1[k], c.w2[k], gbar[k], A[k], lin0[k], beta[k], gsum[k], (mpfr_ptr)0);
    for (size_t k = 0; k < IMAX * DMAX; k++)
        mpfr_clear(G[k]);
    for (size_t i = 0; i < IMAX; i++)
        mpfr_clears(F[i], wt[i], (mpfr_ptr)0);
    for (size_t k = 0; k < SMAX * PMAX; k++)
        mpfr_clear(c.Z[k]);
    for (size_t l = 0; l < LMAX; l++)
        mpfr_clear(yv[l]);
    mpfr_clears(c.tau, c.lam, tol, t, s, u, cbar_p, cbar_c, C_p, C_c, nw2, fb, zero, lhs, rhs,
                dw, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
