/* SPDX-License-Identifier: Apache-2.0 */
/* check_net_gradient.c -- the client messages (29)-(30) of 000 Sec. V (001
 * Sec. V-A, (14)-(15)) are the gradient of the loss (28), and fr_ssca_net
 * computes them.
 *
 * pc_ssca_net_gradient: on seeded random networks (half of the cases of the
 *   shape L = 3, J = 2, P = 4 with nb = 3 samples, the others cycling
 *   through edge shapes down to L = 2, J = P = nb = 1; weights and
 *   features random dyadics of 1..53 bits, |w| < 2, |z| < 8; adversarial
 *   cases first: w = 0, a feature that is 0 in every sample (+0 and -0),
 *   w1 scaled by 64 so that |u| reaches ~2^11 (e^-u beyond binary64),
 *   w0 = 0 (equal outputs o_l, Q uniform)):
 *   (a) the TRUE gradient and value of sum_n loss_n (28), by forward-mode
 *       jets on a literal evaluation of (28) at q = prec + 64 bits
 *       (net_oracle.h: no backpropagation formula, no closed form of S' or
 *       of the softmax derivative), against fr_ssca_net's f and g (prec
 *       bits) and against the printed (29)-(30) with the printed S'
 *       (net_oracle.c, plain MPFR at q bits):
 *         |x - x*| <= 2^-(prec-56) max(1, |x*|)  for f,
 *         |g_k - g*_k| <= 2^-(prec-56) max(1, ||g*||_inf)  for every k
 *       (2^-200 at 256 bits; both computations are within ~2^-(prec-8) of
 *       the exact values at these sizes, so the margin is 2^48 times their
 *       error); a feature that is 0 in every sample gives g_k = 0 exactly;
 *   (b) scope of (29)-(30): with a label vector that is NOT one-hot
 *       (y = e_a + e_b, two ones, a != b, each sample), the true gradient
 *       of (28) is (29)-(30) with (Q_l sum_h y_h - y_l) in place of
 *       (Q_l - y_l): checked within the same margin on every case; the
 *       printed (29)-(30) differ from it (difference counted when above
 *       2^-20 max(1, ||g*||_inf)).  The printed formulas silently assume
 *       sum_l y_{n,l} = 1 (000 Sec. V states y_n in {0,1}^L, not one-hot);
 *       fr_ssca_net takes class indices, so it is one-hot by construction.
 *       Witness: L = 2, J = P = 1, w = (w0_1, w0_2, w1) = (0, 0, 1), z = 1,
 *       y = (1, 1): o = 0, Q = (1/2, 1/2), the loss is 2 log 2 + ... with
 *       true gradient 0 (2 Q_l - 1 = 0), while (29) prints
 *       abar_l = (1/2 - 1) S(1) = -S(1)/2 = -0.3655... for l = 1, 2.
 *
 * Returns 0 when (a) holds on every case, the corrected form of (b) on
 * every case, and the printed form of (b) fails on the witness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "net_oracle.h"

#define STREAM_NETG UINT64_C(0x70632d6e657467) /* "pc-netg" */
#define LMAX 4
#define JMAX 3
#define PMAX 4
#define NBMAX 3
#define DMAX (JMAX * (LMAX + PMAX))
#define NADV 6

/* L, J, P, nb: the edge shapes (the prompt's shape 3, 2, 4, 3 is used on
 * every even case). */
static const size_t SHAPES[][4] = {
    {2, 1, 1, 1}, {2, 1, 3, 2}, {4, 3, 2, 2}, {3, 1, 4, 3}, {2, 3, 1, 3}, {4, 2, 4, 1},
};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

typedef struct {
    size_t L, J, P, nb, d;
    mpfr_t w[DMAX], Z[NBMAX * PMAX];
    size_t y[NBMAX], y2[NBMAX];    /* class; second one of the two-hot label */
    const char *kind;
} netcase;

/* Case k: adversarial for k < NADV, then random. */
static void make_case(netcase *c, frng_t *g, unsigned long k)
{
    const size_t *sh = (k % 2 == 0) ? (const size_t[4]){3, 2, 4, 3}
                                    : SHAPES[(k / 2) % NSHAPES];
    c->L = sh[0];
    c->J = sh[1];
    c->P = sh[2];
    c->nb = sh[3];
    c->d = c->J * (c->L + c->P);
    c->kind = "random";
    for (size_t k2 = 0; k2 < c->d; k2++)
        pcu_rand_dyadic(c->w[k2], g, 1 + (unsigned)pcu_below(g, 53), -4, 1, 0);
    for (size_t k2 = 0; k2 < c->nb * c->P; k2++)
        pcu_rand_dyadic(c->Z[k2], g, 1 + (unsigned)pcu_below(g, 53), -3, 3, 0);
    for (size_t n = 0; n < c->nb; n++) {
        c->y[n] = (size_t)pcu_below(g, c->L);
        c->y2[n] = (c->y[n] + 1 + (size_t)pcu_below(g, c->L - 1)) % c->L;
    }
    if (k >= NADV)
        return;
    size_t LJ = c->L * c->J;
    switch (k) {
    case 0: /* w = 0: u = 0, S = 0, S' = 1/2, Q uniform */
        for (size_t k2 = 0; k2 < c->d; k2++)
            mpfr_set_zero(c->w[k2], 1);
        c->kind = "w = 0";
        break;
    case 1: /* feature 0 is zero in every sample: g of w1_{j,0} is 0 */
    case 2:
        for (size_t n = 0; n < c->nb; n++)
            mpfr_set_zero(c->Z[n * c->P], (int)(n % 2 == 0) * 2 - 1);
        c->kind = "a zero feature";
        break;
    case 3: /* |u| up to ~2^11: e^-u outside binary64 for u < -709 */
    case 5:
        for (size_t k2 = LJ; k2 < c->d; k2++)
            mpfr_mul_2ui(c->w[k2], c->w[k2], 6, MPFR_RNDN);
        c->kind = "large |u|";
        break;
    case 4: /* w0 = 0: o = 0, Q uniform, the w1 gradient is 0 */
        for (size_t k2 = 0; k2 < LJ; k2++)
            mpfr_set_zero(c->w[k2], 1);
        c->kind = "w0 = 0";
        break;
    }
}

/* max |v_k| over k < n, at least 1. */
static void scale_of(mpfr_t s, mpfr_t *v, size_t n)
{
    mpfr_set_ui(s, 1, MPFR_RNDN);
    for (size_t k = 0; k < n; k++)
        if (mpfr_cmpabs(v[k], s) > 0)
            mpfr_abs(s, v[k], MPFR_RNDU);
}

/* |x - ref| <= tol (tol already scaled), decided at q bits with the
 * difference rounded up. */
static int within(const mpfr_t x, const mpfr_t ref, const mpfr_t tol, mpfr_t t)
{
    mpfr_sub(t, x, ref, MPFR_RNDA);
    return mpfr_cmpabs(t, tol) <= 0;
}

int pc_ssca_net_gradient(pc_ctx *ctx)
{
    mpfr_prec_t p = ctx->prec, q = p + 64;
    netcase c;
    pcs_net on;
    pcs_jet acc;
    mpfr_t f, g[DMAX], gp[DMAX], y[LMAX], tol, tolg, big, sc, t;
    char first[400] = "", wit[300] = "";
    unsigned long onehot_ok = 0, printed_diff = 0, zero_feat = 0;
    frng_t G;

    ctx->function = "ssca_net";
    ctx->vector = NULL;
    ctx->claim = "000 (28)-(30): fr_ssca_net's f, g and the printed (29)-(30) equal the value and "
                 "true gradient of (28) (forward-mode jets) for one-hot labels; for two-hot labels "
                 "the gradient is (29)-(30) with (sum_h y_h) Q_l - y_l";
    ctx->erratum = "E-000-29";

    for (size_t k = 0; k < DMAX; k++) {
        mpfr_init2(c.w[k], 64);
        mpfr_init2(g[k], p);
        mpfr_init2(gp[k], q);
    }
    for (size_t k = 0; k < NBMAX * PMAX; k++)
        mpfr_init2(c.Z[k], 64);
    for (size_t l = 0; l < LMAX; l++)
        mpfr_init2(y[l], 8);
    mpfr_init2(f, p);
    mpfr_inits2(q, tol, tolg, big, sc, t, (mpfr_ptr)0);
    frng_init(&G, ctx->seed, STREAM_NETG);

    unsigned long ncases = ctx->cases + NADV;
    for (unsigned long k = 0; k < ncases; k++) {
        const char *why = NULL;
        make_case(&c, &G, k);
        ctx->ran++;
        size_t L = c.L, J = c.J, P = c.P, d = c.d, nb = c.nb;
        /* the oracle of this shape: order-1 jets in d variables */
        if (pcs_net_init(&on, L, J, P, 1, q))
            return 2;
        if (pcs_jet_init(&acc, d, 1, q)) {
            pcs_net_clear(&on);
            return 2;
        }
        /* (a) one-hot: oracle, fr_ssca_net, printed (29)-(30) */
        mpfr_set_zero(acc.v, 1);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_set_zero(acc.g[k2], 1);
            mpfr_set_zero(gp[k2], 1);
        }
        pcs_net_set_w(&on, c.w);
        for (size_t n = 0; n < nb && why == NULL; n++) {
            for (size_t l = 0; l < L; l++)
                mpfr_set_ui(y[l], l == c.y[n], MPFR_RNDN);
            if (pcs_net_add_loss(&on, &acc, c.Z + n * P, y, NULL))
                why = "oracle: Q_y = 0";
            pcs_net_printed_grad(gp, c.w, L, J, P, c.Z + n * P, y, 0, q);
        }
        if (why)
            goto done;
        int rc = fr_ssca_net(f, g, c.w, L, J, P, c.Z, c.y, nb);
        if (rc != FR_OK) {
            why = "fr_ssca_net failed";
            goto done;
        }
        mpfr_set_ui_2exp(tol, 1, -(long)(p - 56), MPFR_RNDN);
        mpfr_set_ui(sc, 1, MPFR_RNDN);
        if (mpfr_cmpabs(acc.v, sc) > 0)
            mpfr_abs(sc, acc.v, MPFR_RNDU);
        mpfr_mul(tolg, tol, sc, MPFR_RNDD);
        if (!within(f, acc.v, tolg, t)) {
            why = "fr_ssca_net: f differs from sum_n loss_n (28)";
            goto done;
        }
        scale_of(sc, acc.g, d);
        mpfr_mul(tolg, tol, sc, MPFR_RNDD);
        for (size_t k2 = 0; k2 < d && why == NULL; k2++) {
            if (!within(g[k2], acc.g[k2], tolg, t))
                why = "fr_ssca_net: g differs from the true gradient of (28)";
            else if (!within(gp[k2], acc.g[k2], tolg, t))
                why = "printed (29)-(30) differ from the true gradient (one-hot)";
        }
        /* a feature that is 0 in every sample: exact zeros */
        for (size_t pp = 0; pp < P && why == NULL; pp++) {
            int allz = 1;
            for (size_t n = 0; n < nb; n++)
                allz &= mpfr_zero_p(c.Z[n * P + pp]) != 0;
            if (!allz)
                continue;
            zero_feat++;
            for (size_t j = 0; j < J; j++)
                if (!mpfr_zero_p(g[L * J + j * P + pp]) || !mpfr_zero_p(acc.g[L * J + j * P + pp]))
                    why = "a feature 0 in every sample: g_k is not exactly 0";
        }
        if (why)
            goto done;
        onehot_ok++;
        /* (b) two-hot labels: the corrected form is the gradient, the printed
         * one is not */
        mpfr_set_zero(acc.v, 1);
        for (size_t k2 = 0; k2 < d; k2++) {
            mpfr_set_zero(acc.g[k2], 1);
            mpfr_set_zero(gp[k2], 1);
        }
        for (size_t n = 0; n < nb && why == NULL; n++) {
            for (size_t l = 0; l < L; l++)
                mpfr_set_ui(y[l], l == c.y[n] || l == c.y2[n], MPFR_RNDN);
            if (pcs_net_add_loss(&on, &acc, c.Z + n * P, y, NULL))
                why = "oracle: Q_y = 0";
            pcs_net_printed_grad(gp, c.w, L, J, P, c.Z + n * P, y, 1, q);
        }
        if (why)
            goto done;
        scale_of(sc, acc.g, d);
        mpfr_mul(tolg, tol, sc, MPFR_RNDD);
        for (size_t k2 = 0; k2 < d && why == NULL; k2++)
            if (!within(gp[k2], acc.g[k2], tolg, t))
                why = "two-hot labels: (Q_l sum y - y_l) form differs from the true gradient";
        if (why)
            goto done;
        for (size_t k2 = 0; k2 < d; k2++)
            mpfr_set_zero(gp[k2], 1);
        for (size_t n = 0; n < nb; n++) {
            for (size_t l = 0; l < L; l++)
                mpfr_set_ui(y[l], l == c.y[n] || l == c.y2[n], MPFR_RNDN);
            pcs_net_printed_grad(gp, c.w, L, J, P, c.Z + n * P, y, 0, q);
        }
        mpfr_mul_2si(big, sc, -20, MPFR_RNDN);
        for (size_t k2 = 0; k2 < d; k2++)
            if (!within(gp[k2], acc.g[k2], big, t)) {
                printed_diff++;
                break;
            }
    done:
        pcs_jet_clear(&acc);
        pcs_net_clear(&on);
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first,
                         "case %lu (%s, L=%zu J=%zu P=%zu nb=%zu): %s", k, c.kind, c.L, c.J,
                         c.P, c.nb, why);
    }

    /* the witness of (b): L = 2, J = P = 1, w = (0, 0, 1), z = 1, y = (1, 1) */
    {
        pcs_net W;
        mpfr_t ww[3], zz[1], yy[2], gw[3];
        int ok = pcs_net_init(&W, 2, 1, 1, 1, q) == 0;
        for (int k2 = 0; k2 < 3; k2++) {
            mpfr_init2(ww[k2], 8);
            mpfr_init2(gw[k2], q);
            mpfr_set_zero(gw[k2], 1);
            mpfr_set_ui(ww[k2], k2 == 2, MPFR_RNDN);
        }
        mpfr_init2(zz[0], 8);
        mpfr_set_ui(zz[0], 1, MPFR_RNDN);
        mpfr_inits2(8, yy[0], yy[1], (mpfr_ptr)0);
        mpfr_set_ui(yy[0], 1, MPFR_RNDN);
        mpfr_set_ui(yy[1], 1, MPFR_RNDN);
        ctx->ran++;
        if (ok) {
            pcs_jet aw;
            ok = pcs_jet_init(&aw, 3, 1, q) == 0;
            if (ok) {
                pcs_net_set_w(&W, ww);
                ok = pcs_net_add_loss(&W, &aw, zz, yy, NULL) == 0;
                pcs_net_printed_grad(gw, ww, 2, 1, 1, zz, yy, 0, q);
                /* true gradient: 0 to the oracle's precision; printed: -S(1)/2 */
                mpfr_set_ui_2exp(t, 1, -(long)(q - 16), MPFR_RNDN);
                for (int k2 = 0; k2 < 3 && ok; k2++)
                    ok = mpfr_cmpabs(aw.g[k2], t) <= 0;
                ok = ok && mpfr_cmp_d(gw[0], -0.36) < 0 && mpfr_cmp_d(gw[0], -0.37) > 0 &&
                     mpfr_equal_p(gw[0], gw[1]) && mpfr_zero_p(gw[2]);
                if (ok)
                    mpfr_snprintf(wit, sizeof wit,
                                  "L=2 J=P=1 w=(0,0,1) z=1 y=(1,1): true gradient (%.3Rg, %.3Rg, "
                                  "%.3Rg) (loss %.10Rg = 2 log 2), printed (29)-(30) "
                                  "(%.10Rg, %.10Rg, %.3Rg) = (-S(1)/2, -S(1)/2, 0)",
                                  aw.g[0], aw.g[1], aw.g[2], aw.v, gw[0], gw[1], gw[2]);
                pcs_jet_clear(&aw);
            }
            pcs_net_clear(&W);
        }
        for (int k2 = 0; k2 < 3; k2++)
            mpfr_clears(ww[k2], gw[k2], (mpfr_ptr)0);
        mpfr_clears(zz[0], yy[0], yy[1], (mpfr_ptr)0);
        if (!ok && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "the witness of the two-hot erratum did not show it");
    }

    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases: f, g of fr_ssca_net and printed (29)-(30) within 2^-%ld of the "
                     "jet gradient of (28) on %lu one-hot cases (%lu with a zero feature: exact "
                     "0); two-hot labels: (sum y) Q - y form right on all, printed (29)-(30) off "
                     "by > 2^-20 on %lu; witness %s",
                     ctx->ran, (long)(p - 56), onehot_ok, zero_feat, printed_diff, wit);

    for (size_t k = 0; k < DMAX; k++)
        mpfr_clears(c.w[k], g[k], gp[k], (mpfr_ptr)0);
    for (size_t k = 0; k < NBMAX * PMAX; k++)
        mpfr_clear(c.Z[k]);
    for (size_t l = 0; l < LMAX; l++)
        mpfr_clear(y[l]);
    mpfr_clears(f, tol, tolg, big, sc, t, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
