/* SPDX-License-Identifier: Apache-2.0 */
/* check_loss_stable.c -- the loss (28) and the messages (29)-(30) of 000
 * Sec. V at extreme pre-activations, |u| and |o| up to ~2^14: fr_ssca_net
 * must return FR_OK, finite values, and every output correctly rounded
 * (its contract), where binary64 overflows (e^-u, e^o beyond 709) and where
 * the results are exponentially small through cancellation:
 *   - y = argmax o: loss = -log Q_y = log(1 + sum_{l != y} e^{o_l - o_y})
 *     ~ e^-Delta and Q_y - 1 ~ -e^-Delta with Delta = o_y - max_{l != y} o_l
 *     up to ~10^4 (a literal evaluation needs ~1.45 Delta extra bits);
 *   - y = argmin o: loss ~ 10^4;
 *   - every u_j ~ -10^3 .. -10^4: S(u) ~ u e^u and S'(u) ~ (1 + u) e^u far
 *     below binary64's range (but inside MPFR's);
 *   - a mixture with a feature that is 0: its gradient entries are exactly 0.
 *
 * pc_ssca_loss_stable: 40 cases (10 per regime; seeded; L = 3, J = 2, P = 4,
 *   one sample so that no cancellation ACROSS samples enters), each against
 *   the jet oracle (net_oracle.h) on the literal (28) at
 *   q = prec + 192 + 3 ceil(max|u| + max|o|) bits, so that the cancellations
 *   above leave the oracle's relative error below 2^-(prec+64) on every
 *   output (each of them is a sum of terms of magnitude <= 2^16 in the
 *   jets' scale, the cancellation loses at most 1.45 (max|o| + max|u|)
 *   bits).  An output y (prec bits) passes when both x (1 - 2^-(prec+64))
 *   and x (1 + 2^-(prec+64)) round to y (x the oracle); when they round to
 *   different numbers the case is undecided (counted, not failed); a
 *   structural zero of the oracle must be an exact zero. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"
#include "net_oracle.h"

#define STREAM_STAB UINT64_C(0x70632d73746162) /* "pc-stab" */
#define LS 3
#define JS 2
#define PS 4
#define DS (JS * (LS + PS))
#define NCASE 40

/* 1 correctly rounded, 0 not, -1 undecided; y at its precision, x at q. */
static int cr_ok(const mpfr_t y, const mpfr_t x, mpfr_prec_t p, mpfr_t t, mpfr_t r1, mpfr_t r2)
{
    if (mpfr_zero_p(x))
        return mpfr_zero_p(y) ? 1 : 0;
    if (!mpfr_number_p(y))
        return 0;
    mpfr_set_prec(r1, p);
    mpfr_set_prec(r2, p);
    mpfr_mul_2si(t, x, -(long)(p + 64), MPFR_RNDN);
    mpfr_sub(r1, x, t, MPFR_RNDN);   /* correctly rounded x - x 2^-(p+64) */
    mpfr_add(r2, x, t, MPFR_RNDN);
    if (!mpfr_equal_p(r1, r2))
        return -1;
    return mpfr_equal_p(r1, y) ? 1 : 0;
}

int pc_ssca_loss_stable(pc_ctx *ctx)
{
    mpfr_prec_t p = ctx->prec;
    mpfr_t w[DS], z[PS], yv[LS], f, g[DS], u, o, t, r1, r2;
    size_t y;
    char first[300] = "";
    unsigned long checked = 0, undecided = 0, zeros = 0;
    double maxo = 0, maxq = 0;
    frng_t G;
    static const char *REG[4] = {"y = argmax o", "y = argmin o", "u << 0", "a zero feature"};

    ctx->function = "ssca_net";
    ctx->vector = NULL;
    ctx->claim = "000 (28)-(30) at |u|, |o| up to ~2^14: fr_ssca_net returns FR_OK and correctly "
                 "rounded f and g (loss ~ e^-Delta, Q_y - 1 ~ -e^-Delta, swish tails ~ u e^u)";
    ctx->erratum = NULL;
    for (size_t k = 0; k < DS; k++) {
        mpfr_init2(w[k], 64);
        mpfr_init2(g[k], p);
    }
    for (size_t k = 0; k < PS; k++)
        mpfr_init2(z[k], 64);
    for (size_t l = 0; l < LS; l++)
        mpfr_init2(yv[l], 8);
    mpfr_init2(f, p);
    mpfr_inits2(64, u, o, (mpfr_ptr)0);
    mpfr_inits2(p, t, r1, r2, (mpfr_ptr)0);
    frng_init(&G, ctx->seed, STREAM_STAB);

    unsigned long ncase = ctx->cases < NCASE ? ctx->cases : NCASE;
    for (unsigned long k = 0; k < ncase; k++) {
        const char *why = NULL;
        int reg = (int)(k % 4);
        ctx->ran++;
        /* w0 in (-8, 8), w1 with |w1| < 2^6, z with |z| < 2^6 */
        for (size_t j = 0; j < LS * JS; j++)
            pcu_rand_dyadic(w[j], &G, 1 + (unsigned)pcu_below(&G, 53), -2, 3, 0);
        for (size_t j = LS * JS; j < DS; j++)
            pcu_rand_dyadic_nz(w[j], &G, 1 + (unsigned)pcu_below(&G, 53), 3, 6, reg == 2);
        for (size_t pp = 0; pp < PS; pp++)
            pcu_rand_dyadic_nz(z[pp], &G, 1 + (unsigned)pcu_below(&G, 53), 3, 6, reg == 2);
        if (reg == 2)     /* u = w1 z < 0: w1 <= 0, z >= 0 */
            for (size_t j = LS * JS; j < DS; j++)
                mpfr_neg(w[j], w[j], MPFR_RNDN);
        if (reg == 3)
            mpfr_set_zero(z[pcu_below(&G, PS)], -1);
        /* magnitudes at 64 bits (MPFR has no overflow here) and the label */
        double mu = 0, mo = 0;
        mpfr_t Sj[JS];
        for (size_t j = 0; j < JS; j++) {
            mpfr_init2(Sj[j], 64);
            mpfr_set_zero(u, 1);
            for (size_t pp = 0; pp < PS; pp++)
                mpfr_fma(u, w[LS * JS + j * PS + pp], z[pp], u, MPFR_RNDN);
            mu = fmax(mu, fabs(mpfr_get_d(u, MPFR_RNDN)));
            mpfr_neg(o, u, MPFR_RNDN);
            mpfr_exp(o, o, MPFR_RNDN);
            mpfr_add_ui(o, o, 1, MPFR_RNDN);
            mpfr_div(Sj[j], u, o, MPFR_RNDN);
        }
        size_t amax = 0, amin = 0;
        double od[LS];
        for (size_t l = 0; l < LS; l++) {
            mpfr_set_zero(o, 1);
            for (size_t j = 0; j < JS; j++)
                mpfr_fma(o, w[l * JS + j], Sj[j], o, MPFR_RNDN);
            od[l] = mpfr_get_d(o, MPFR_RNDN);
            mo = fmax(mo, fabs(od[l]));
            amax = od[l] > od[amax] ? l : amax;
            amin = od[l] < od[amin] ? l : amin;
        }
        for (size_t j = 0; j < JS; j++)
            mpfr_clear(Sj[j]);
        y = reg == 1 ? amin : amax;
        if (mo > maxo)
            maxo = mo;
        mpfr_prec_t q = p + 192 + 3 * (mpfr_prec_t)ceil(mu + mo);
        if ((double)q > maxq)
            maxq = (double)q;
        /* the library */
        int rc = fr_ssca_net(f, g, w, LS, JS, PS, z, &y, 1);
        if (rc != FR_OK) {
            why = "fr_ssca_net did not return FR_OK";
            goto done;
        }
        /* the oracle */
        {
            pcs_net net;
            pcs_jet acc;
            mpfr_t tq, a1, a2;
            if (pcs_net_init(&net, LS, JS, PS, 1, q))
                return 2;
            if (pcs_jet_init(&acc, DS, 1, q)) {
                pcs_net_clear(&net);
                return 2;
            }
            mpfr_inits2(q, tq, a1, a2, (mpfr_ptr)0);
            for (size_t l = 0; l < LS; l++)
                mpfr_set_ui(yv[l], l == y, MPFR_RNDN);
            pcs_net_set_w(&net, w);
            if (pcs_net_add_loss(&net, &acc, z, yv, NULL))
                why = "oracle: Q_y = 0";
            for (size_t k2 = 0; k2 <= DS && why == NULL; k2++) {
                mpfr_srcptr x = k2 == DS ? acc.v : acc.g[k2];
                mpfr_srcptr yy = k2 == DS ? f : g[k2];
                int c = cr_ok(yy, x, p, tq, a1, a2);
                if (c == 0)
                    why = k2 == DS ? "f is not correctly rounded" : "a g_k is not correctly rounded";
                else if (c < 0)
                    undecided++;
                else
                    checked++;
                zeros += c == 1 && mpfr_zero_p(x);
            }
            mpfr_clears(tq, a1, a2, (mpfr_ptr)0);
            pcs_jet_clear(&acc);
            pcs_net_clear(&net);
        }
    done:
        if (why && ctx->failed++ == 0)
            pcu_snprintf(first, sizeof first, "case %lu (%s, max|u| %.4g, max|o| %.4g): %s", k,
                         REG[reg], mu, mo, why);
    }
    if (ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "%s", first);
    else
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases (4 regimes), max|o| %.4g, oracle up to %.0f bits: %lu outputs "
                     "correctly rounded (%lu exact zeros), %lu undecided",
                     ctx->ran, maxo, maxq, checked, zeros, undecided);
    for (size_t k = 0; k < DS; k++)
        mpfr_clears(w[k], g[k], (mpfr_ptr)0);
    for (size_t k = 0; k < PS; k++)
        mpfr_clear(z[k]);
    for (size_t l = 0; l < LS; l++)
        mpfr_clear(yv[l]);
    mpfr_clears(f, u, o, t, r1, r2, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}
