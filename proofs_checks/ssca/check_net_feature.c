/* SPDX-License-Identifier: Apache-2.0 */
/* check_net_feature.c -- the feature-based messages of the two-layer
 * network, 000 Sec. V with Algorithm 3 (Steps 4-6) and the chain rule
 * (20)-(21).
 *
 * pc_ssca_net_feature: for I = 3 clients holding unequal feature blocks
 *   P_i (a random partition of P, each P_i >= 1, not all equal), with
 *   exact h_i = Zi w1_i^T (fr_ssca_net_partial at a precision that holds
 *   the dot products exactly; checked against the exact sums):
 *   (a) fr_ssca_net_top from H = (h_1, h_2, h_3) returns f and A equal,
 *       bit for bit at p bits, to fr_ssca_net's f and first L J entries of
 *       g, and fr_ssca_net_bottom returns, for each client, B_i equal to
 *       the columns P_i of g's omega_1 block: the concatenation of the
 *       messages is the sample-based gradient ((20): A; (21): B_i);
 *   (b) what crosses the network is what 000 Sec. V says: the sum over the
 *       batch of the per-sample messages, A = sum_n abar_n, B_i = sum_n
 *       bbar_n|P_i, f = sum_n loss_n (fr_ssca_net on one sample at q = p +
 *       64 bits, summed exactly), within the stated margin 2^(1-q) sum_n
 *       |x_n| + 2^(1-p) |x| (each correctly rounded value is within half
 *       an ulp), decided exactly;
 *   (c) the counts: client i sends nb J reals (Step 4), the aggregator
 *       L J (+ 1 for f, Step 5), client i J P_i (Step 6), and L J + sum_i
 *       J P_i = d = J (L + P) (fr_ssca_net_dim).
 *   Random cases (dyadic weights and features, 20-bit significands, with
 *   omega_0 = 0, omega_1 = 0, zero feature columns, equal samples with
 *   other labels, and |u|, |o| up to ~1e4 mixed in) at p = ctx->prec.
 *
 * pc_ssca_net_step4_printed: erratum E-000-V4.  000 Sec. V prints the
 *   Step-4 message of client i as the products (omega_{1,j,p}
 *   x_{n,p})_{j in J, p in P_i}: J P_i reals per sample, where (17) with
 *   this network's h_{0,i} = (sum_{p in P_i} omega_{1,j,p} x_{n,p})_j has
 *   H_0 = J (fedspec/ssca.h: peer_i = H B, H = J), and the sums are all
 *   the chain rule needs (pc_ssca_net_feature (a)).  The printed form is
 *   not the h_{0,i} of Algorithm 3 and gives away what the sums hide:
 *   on every case (J = 1, P_i = 2..3 or J = 2, P_i = 3, random nonzero
 *   omega_1, nb up to 4) data x'_n = x_n + s_n v (v an exact null vector
 *   of client i's block, s_n != 0) give exactly the same sums h_i
 *   (fr_ssca_net_partial, exact) but different printed products (decided
 *   exactly): the products determine x where the sums leave a whole line
 *   of candidates.  Smallest case: J = 1, P_i = 2, nb = 1, omega_1 =
 *   (1, 1): x = (1, 2) and x' = (2, 1) both send the sum 3; the printed
 *   message is the data itself, (1, 2) or (2, 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_FEAT UINT64_C(0x70632d6e65746600)   /* "pc-netf" */
#define STREAM_S4 UINT64_C(0x70632d6e65743400)     /* "pc-net4" */
#define NI 3
#define ML 3
#define MJ 3
#define MPI 3
#define MP (NI * MPI)
#define MNB 4
#define MD (MJ * (ML + MP))

typedef struct {
    size_t L, J, P, nb, d, Pi[NI], p0[NI];
    size_t y[MNB];
    mpfr_t w[MD], Z[MNB * MP];
    const char *kind;
} ncase;

static void ncase_init(ncase *c)
{
    for (int k = 0; k < MD; k++) mpfr_init2(c->w[k], 64);
    for (int k = 0; k < MNB * MP; k++) mpfr_init2(c->Z[k], 64);
}

static void ncase_clear(ncase *c)
{
    for (int k = 0; k < MD; k++) mpfr_clear(c->w[k]);
    for (int k = 0; k < MNB * MP; k++) mpfr_clear(c->Z[k]);
}

/* A random case; every fourth an adversarial variant. */
static void ncase_random(ncase *c, frng_t *g, unsigned long idx)
{
    c->L = 2 + pcu_below(g, ML - 1);
    c->J = 1 + pcu_below(g, MJ);
    do {
        for (int i = 0; i < NI; i++) c->Pi[i] = 1 + pcu_below(g, MPI);
    } while (c->Pi[0] == c->Pi[1] && c->Pi[1] == c->Pi[2]);
    c->P = 0;
    for (int i = 0; i < NI; i++) { c->p0[i] = c->P; c->P += c->Pi[i]; }
    c->nb = 1 + pcu_below(g, MNB);
    c->d = c->J * (c->L + c->P);
    const size_t LJ = c->L * c->J;
    int big = idx % 8 == 3;                      /* |u|, |o| ~ 1e4 */
    for (size_t k = 0; k < c->d; k++)
        pcu_rand_dyadic(c->w[k], g, 20, big ? 6 : -4, big ? 9 : 2, 0);
    for (size_t k = 0; k < c->nb * c->P; k++)
        pcu_rand_dyadic(c->Z[k], g, 20, -3, 3, 0);
    for (size_t n = 0; n < c->nb; n++) c->y[n] = pcu_below(g, c->L);
    c->kind = big ? "large" : "random";
    switch (idx % 4 == 0 ? pcu_below(g, 4) : 4) {
    case 0:
        for (size_t k = 0; k < LJ; k++) mpfr_set_zero(c->w[k], 1);
        c->kind = "omega_0 = 0";
        break;
    case 1:
        for (size_t k = LJ; k < c->d; k++) mpfr_set_zero(c->w[k], 1);
        c->kind = "omega_1 = 0";
        break;
    case 2: {
        size_t p = pcu_below(g, c->P);
        for (size_t n = 0; n < c->nb; n++) mpfr_set_zero(c->Z[n * c->P + p], 1);
        c->kind = "a zero feature column";
        break;
    }
    case 3:
        for (size_t n = 1; n < c->nb; n++)
            for (size_t p = 0; p < c->P; p++) mpfr_set(c->Z[n * c->P + p], c->Z[p], MPFR_RNDN);
        c->kind = "equal samples";
        break;
    default:
        break;
    }
}

/* ---- (b): the sum of the per-sample messages ------------------------------- */

/* |sum_n xs[n] - x| <= 2^(1-q) sum_n |xs[n]| + 2^(1-p) |x| (the margin
 * rounded up, the comparison exact). */
static int sum_within(mpfr_t *xs, size_t nb, mpfr_srcptr x, mpfr_prec_t q, mpfr_prec_t p, mpfr_t *t)
{
    mpfr_ptr v[2 * MNB + 2];
    size_t k = 0;
    for (size_t n = 0; n < nb; n++) {                 /* margin terms and the sum */
        if (pcu_abs(t[2 * n], xs[n]) || mpfr_mul_2si(t[2 * n], t[2 * n], 1 - (long)q, MPFR_RNDN))
            return 2;
        v[k++] = t[2 * n];
    }
    if (pcu_abs(t[2 * MNB], x) || mpfr_mul_2si(t[2 * MNB], t[2 * MNB], 1 - (long)p, MPFR_RNDN))
        return 2;
    v[k++] = t[2 * MNB];
    /* the margin M, rounded up (the terms can span millions of bits:
     * e^-|u| next to the loss; a margin need not be exact) */
    mpfr_set_prec(t[2 * MNB + 1], 64);
    mpfr_sum(t[2 * MNB + 1], v, (unsigned long)k, MPFR_RNDU);
    /* |S - x| <= M  <=>  S - x - M <= 0 and x - S - M <= 0 */
    for (int s = -1; s <= 1; s += 2) {
        k = 0;
        for (size_t n = 0; n < nb; n++) {
            if (pcu_set(t[2 * n + 1], xs[n])) return 2;
            if (s < 0) mpfr_neg(t[2 * n + 1], t[2 * n + 1], MPFR_RNDN);
            v[k++] = t[2 * n + 1];
        }
        if (pcu_set(t[2 * MNB], x)) return 2;
        if (s > 0) mpfr_neg(t[2 * MNB], t[2 * MNB], MPFR_RNDN);
        v[k++] = t[2 * MNB];
        if (pcu_neg(t[2 * MNB + 2], t[2 * MNB + 1])) return 2;
        v[k++] = t[2 * MNB + 2];
        if (pcu_sign_sum(v, (unsigned long)k) > 0)
            return 1;
    }
    return 0;
}

int pc_ssca_net_feature(pc_ctx *ctx)
{
    frng_t G;
    const mpfr_prec_t p = ctx->prec, q = p + 64;
    ncase c;
    mpfr_t g[MD], f, ft, A[ML * MJ], B[MJ * MPI], H[NI * MNB * MJ], hx, w1i[MJ * MPI], Zi[MNB * MPI];
    mpfr_t gs[MNB][MD], fs[MNB], col[MNB], t[2 * MNB + 3], prod[MPI];
    mpfr_ptr pp[MPI];
    unsigned long exact_zero = 0;
    const char *why = NULL;

    ctx->function = "ssca_net_top";
    ctx->vector = "ssca_net_top";
    ctx->claim = "000 Sec. V, (20)-(21): Steps 4-6 (h_i, then f and A, then B_i, I = 3, unequal P_i) equal fr_ssca_net's "
                 "f and g bit for bit; each is the batch sum of the per-sample messages; counts nb J, L J (+1), J P_i";
    ctx->erratum = NULL;
    ncase_init(&c);
    for (int k = 0; k < MD; k++) mpfr_init2(g[k], p);
    mpfr_inits2(p, f, ft, (mpfr_ptr)0);
    mpfr_init2(hx, 64);
    for (int k = 0; k < ML * MJ; k++) mpfr_init2(A[k], p);
    for (int k = 0; k < MJ * MPI; k++) mpfr_inits2(p, B[k], (mpfr_ptr)0);
    for (int k = 0; k < MJ * MPI; k++) mpfr_init2(w1i[k], 64);
    for (int k = 0; k < MNB * MPI; k++) mpfr_init2(Zi[k], 64);
    for (int k = 0; k < NI * MNB * MJ; k++) mpfr_init2(H[k], 4 * p);
    for (int n = 0; n < MNB; n++) {
        for (int k = 0; k < MD; k++) mpfr_init2(gs[n][k], q);
        mpfr_init2(fs[n], q);
        mpfr_init2(col[n], q);
    }
    for (int k = 0; k < 2 * MNB + 3; k++) mpfr_init2(t[k], 64);
    for (int k = 0; k < MPI; k++) { mpfr_init2(prod[k], 64); pp[k] = prod[k]; }
    frng_init(&G, ctx->seed, STREAM_FEAT);

    for (unsigned long cs = 0; cs < ctx->cases; cs++) {
        ncase_random(&c, &G, cs);
        ctx->ran++;
        why = NULL;
        const size_t L = c.L, J = c.J, P = c.P, nb = c.nb, LJ = L * J, nJ = nb * J;
        size_t d = 0;
        if (fr_ssca_net_dim(L, J, P, &d) != FR_OK || d != c.d)
            why = "fr_ssca_net_dim";
        size_t sent = LJ;                                   /* (c) Steps 5 and 6 */
        for (int i = 0; i < NI; i++) sent += J * c.Pi[i];
        if (!why && sent != d)
            why = "L J + sum_i J P_i != d";
        int st = why ? FR_OK : fr_ssca_net(f, g, c.w, L, J, P, c.Z, c.y, nb);
        if (!why && st != FR_OK)
            why = "fr_ssca_net failed";
        /* Step 4: h_i, exact; checked against the exact sums */
        for (int i = 0; i < NI && !why; i++) {
            const size_t Pi = c.Pi[i], p0 = c.p0[i];
            for (size_t j = 0; j < J; j++)
                for (size_t r = 0; r < Pi; r++)
                    mpfr_set(w1i[j * Pi + r], c.w[LJ + j * P + p0 + r], MPFR_RNDN);
            for (size_t n = 0; n < nb; n++)
                for (size_t r = 0; r < Pi; r++)
                    mpfr_set(Zi[n * Pi + r], c.Z[n * P + p0 + r], MPFR_RNDN);
            if (fr_ssca_net_partial(H + i * nJ, w1i, Zi, nb, J, Pi) != FR_OK) {
                why = "fr_ssca_net_partial failed";
                break;
            }
            for (size_t k = 0; k < nJ && !why; k++) {
                size_t n = k / J, j = k % J;
                for (size_t r = 0; r < Pi; r++)
                    if (pcu_mul(prod[r], w1i[j * Pi + r], Zi[n * Pi + r])) why = "internal (an exact product of Step 4)";
                if (!why && (pcu_sum(hx, pp, (unsigned long)Pi) || !mpfr_equal_p(hx, H[i * nJ + k])))
                    why = "h_i is not the exact sum_{p in P_i} omega_1 z";
            }
        }
        /* Step 5: f and A; Step 6: B_i; against g bit for bit ((20), (21)) */
        if (!why && fr_ssca_net_top(ft, A, H, NI, c.w, c.y, nb, L, J) != FR_OK)
            why = "fr_ssca_net_top failed";
        if (!why && !mpfr_equal_p(ft, f))
            why = "top's f != fr_ssca_net's f";
        for (size_t k = 0; k < LJ && !why; k++)
            if (!mpfr_equal_p(A[k], g[k]) || mpfr_signbit(A[k]) != mpfr_signbit(g[k]))
                why = "top's A != the omega_0 block of g (20)";
        for (int i = 0; i < NI && !why; i++) {
            const size_t Pi = c.Pi[i], p0 = c.p0[i];
            for (size_t n = 0; n < nb; n++)
                for (size_t r = 0; r < Pi; r++)
                    mpfr_set(Zi[n * Pi + r], c.Z[n * P + p0 + r], MPFR_RNDN);
            if (fr_ssca_net_bottom(B, H, NI, c.w, c.y, Zi, nb, L, J, Pi) != FR_OK) {
                why = "fr_ssca_net_bottom failed";
                break;
            }
            for (size_t j = 0; j < J && !why; j++)
                for (size_t r = 0; r < Pi && !why; r++) {
                    mpfr_srcptr x = g[LJ + j * P + p0 + r];
                    if (!mpfr_equal_p(B[j * Pi + r], x) || mpfr_signbit(B[j * Pi + r]) != mpfr_signbit(x))
                        why = "bottom's B_i != the columns P_i of the omega_1 block of g (21)";
                    exact_zero += mpfr_zero_p(x);
                }
        }
        /* (b): each message is the batch sum of the per-sample ones */
        for (size_t n = 0; n < nb && !why; n++)
            if (fr_ssca_net(fs[n], gs[n], c.w, L, J, P, c.Z + n * P, c.y + n, 1) != FR_OK)
                why = "fr_ssca_net on one sample failed";
        for (size_t k = 0; k <= d && !why; k++) {
            for (size_t n = 0; n < nb; n++) mpfr_set(col[n], k < d ? gs[n][k] : fs[n], MPFR_RNDN);
            int r = sum_within(col, nb, k < d ? g[k] : f, q, p, t);
            if (r == 2) why = "internal (the margin of (b))";
            else if (r == 1) why = k < d ? "g_k != sum_n (abar_n, bbar_n)_k" : "f != sum_n loss_n";
        }
        if (why && ctx->failed++ == 0)
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu (%s, L %zu J %zu P_i %zu/%zu/%zu nb %zu): %s",
                         cs, c.kind, L, J, c.Pi[0], c.Pi[1], c.Pi[2], nb, why);
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu cases, %lu gradient entries exactly 0 matched with their sign", ctx->ran, exact_zero);
    ncase_clear(&c);
    for (int k = 0; k < MD; k++) mpfr_clear(g[k]);
    mpfr_clears(f, ft, hx, (mpfr_ptr)0);
    for (int k = 0; k < ML * MJ; k++) mpfr_clear(A[k]);
    for (int k = 0; k < MJ * MPI; k++) mpfr_clears(B[k], w1i[k], (mpfr_ptr)0);
    for (int k = 0; k < MNB * MPI; k++) mpfr_clear(Zi[k]);
    for (int k = 0; k < NI * MNB * MJ; k++) mpfr_clear(H[k]);
    for (int n = 0; n < MNB; n++) {
        for (int k = 0; k < MD; k++) mpfr_clear(gs[n][k]);
        mpfr_clears(fs[n], col[n], (mpfr_ptr)0);
    }
    for (int k = 0; k < 2 * MNB + 3; k++) mpfr_clear(t[k]);
    for (int k = 0; k < MPI; k++) mpfr_clear(prod[k]);
    return ctx->failed ? 1 : 0;
}

/* ---- the printed Step-4 message ---------------------------------------------- */

/* v = a null vector of client i's J x Pi block (J = 1: (w2, -w1, 0..);
 * J = 2, Pi = 3: the cross product of the two rows), exactly; 0 if v = 0. */
static int null_vector(mpfr_t *v, mpfr_t *const w, size_t J, size_t Pi, mpfr_t *t)
{
    for (size_t r = 0; r < Pi; r++) mpfr_set_zero(v[r], 1);
    if (J == 1) {
        if (pcu_set(v[0], w[1]) || pcu_neg(v[1], w[0])) return -1;
    } else {                                       /* rows a = w[0..2], b = w[3..5] */
        static const int i1[3] = {1, 2, 0}, i2[3] = {2, 0, 1};
        for (int r = 0; r < 3; r++)
            if (pcu_mul(t[0], w[i1[r]], w[3 + i2[r]]) || pcu_mul(t[1], w[i2[r]], w[3 + i1[r]])
                || pcu_sub(v[r], t[0], t[1]))
                return -1;
    }
    for (size_t r = 0; r < Pi; r++)
        if (!mpfr_zero_p(v[r])) return 1;
    return 0;
}

int pc_ssca_net_step4_printed(pc_ctx *ctx)
{
    frng_t G;
    mpfr_t H[MNB * MJ], H2[MNB * MJ], w1i[MJ * MPI], Zi[MNB * MPI], Z2[MNB * MPI], v[MPI], t[4], m1, m2;
    unsigned long hidden = 0;
    ctx->function = "ssca_net_partial";
    ctx->vector = "ssca_net_partial";
    ctx->claim = "000 Sec. V Step 4 prints (omega_{1,j,p} x_{n,p})_{j, p in P_i}, J P_i reals per sample: (17) has H_0 = J, "
                 "the sums h_i; data x' != x with the same sums (exact) give other printed products";
    ctx->erratum = "E-000-V4";
    mpfr_inits2(256, m1, m2, (mpfr_ptr)0);
    for (int k = 0; k < MNB * MJ; k++) mpfr_inits2(512, H[k], H2[k], (mpfr_ptr)0);
    for (int k = 0; k < MJ * MPI; k++) mpfr_init2(w1i[k], 64);
    for (int k = 0; k < MNB * MPI; k++) mpfr_inits2(64, Zi[k], Z2[k], (mpfr_ptr)0);
    for (int k = 0; k < MPI; k++) mpfr_init2(v[k], 64);
    for (int k = 0; k < 4; k++) mpfr_init2(t[k], 64);
    frng_init(&G, ctx->seed, STREAM_S4);
    /* case 0: J = 1, P_i = 2, nb = 1, omega_1 = (1, 1), x = (1, 2), x' = (2, 1) */
    for (unsigned long cs = 0; cs <= ctx->cases; cs++) {
        const char *why = NULL;
        size_t J, Pi, nb;
        if (cs == 0) {
            J = 1; Pi = 2; nb = 1;
            mpfr_set_ui(w1i[0], 1, MPFR_RNDN);
            mpfr_set_ui(w1i[1], 1, MPFR_RNDN);
            mpfr_set_ui(Zi[0], 1, MPFR_RNDN);
            mpfr_set_ui(Zi[1], 2, MPFR_RNDN);
        } else {
            J = 1 + pcu_below(&G, 2);
            Pi = J == 1 ? 2 + pcu_below(&G, 2) : 3;
            nb = 1 + pcu_below(&G, MNB);
            for (size_t k = 0; k < J * Pi; k++) pcu_rand_dyadic_nz(w1i[k], &G, 20, -4, 2, 0);
            for (size_t k = 0; k < nb * Pi; k++) pcu_rand_dyadic(Zi[k], &G, 20, -3, 3, 0);
        }
        ctx->ran++;
        int nv = null_vector(v, w1i, J, Pi, t);
        if (nv < 0) why = "internal";
        else if (nv == 0) continue;                /* dependent rows: no witness here */
        /* x'_n = x_n + s_n v, s_n != 0 dyadic, exactly */
        for (size_t n = 0; n < nb && !why; n++) {
            if (cs == 0) mpfr_set_si(t[2], 1, MPFR_RNDN);        /* (1, 2) + (1, -1) = (2, 1) */
            else pcu_rand_dyadic_nz(t[2], &G, 8, -2, 2, 0);
            for (size_t r = 0; r < Pi && !why; r++) {
                if (pcu_mul(t[3], t[2], v[r]) || pcu_add(m1, Zi[n * Pi + r], t[3])) why = "internal";
                else {
                    mpfr_set_prec(Z2[n * Pi + r], mpfr_get_prec(m1));
                    mpfr_set(Z2[n * Pi + r], m1, MPFR_RNDN);
                }
            }
        }
        if (!why && (fr_ssca_net_partial(H, w1i, Zi, nb, J, Pi) != FR_OK
                     || fr_ssca_net_partial(H2, w1i, Z2, nb, J, Pi) != FR_OK))
            why = "fr_ssca_net_partial failed";
        for (size_t k = 0; k < nb * J && !why; k++)            /* the sums agree (exact at 512 bits) */
            if (!mpfr_equal_p(H[k], H2[k])) why = "the sums h_i differ for x' (they must not)";
        /* the printed products differ: some omega_{1,j,p} x'_{n,p} != omega_{1,j,p} x_{n,p} */
        int differ = 0;
        for (size_t n = 0; n < nb && !why; n++)
            for (size_t j = 0; j < J; j++)
                for (size_t r = 0; r < Pi; r++) {
                    if (pcu_mul(m1, w1i[j * Pi + r], Zi[n * Pi + r]) || pcu_mul(m2, w1i[j * Pi + r], Z2[n * Pi + r])) {
                        why = "internal";
                        break;
                    }
                    differ |= !mpfr_equal_p(m1, m2);
                }
        if (!why && !differ) why = "the printed products do not tell x' from x";
        if (!why && cs == 0 && (mpfr_cmp_ui(H[0], 3) != 0 || mpfr_cmp_ui(Z2[0], 2) != 0 || mpfr_cmp_ui(Z2[1], 1) != 0))
            why = "the smallest case is not (1, 2) / (2, 1) with sum 3";
        hidden += !why;
        for (size_t k = 0; k < nb * Pi; k++) mpfr_set_prec(Z2[k], 64);
        if (why && ctx->failed++ == 0)
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu (J %zu, P_i %zu, nb %zu): %s", cs, J, Pi, nb, why);
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "smallest: J = 1, P_i = 2, omega_1 = (1, 1): x = (1, 2) and x' = (2, 1) have the sum 3, printed "
                     "(1, 2) vs (2, 1); %lu of %lu cases: x' != x with equal sums h_i (J reals) and different printed "
                     "products (J P_i reals)", hidden, ctx->ran);
    mpfr_clears(m1, m2, (mpfr_ptr)0);
    for (int k = 0; k < MNB * MJ; k++) mpfr_clears(H[k], H2[k], (mpfr_ptr)0);
    for (int k = 0; k < MJ * MPI; k++) mpfr_clear(w1i[k]);
    for (int k = 0; k < MNB * MPI; k++) mpfr_clears(Zi[k], Z2[k], (mpfr_ptr)0);
    for (int k = 0; k < MPI; k++) mpfr_clear(v[k]);
    for (int k = 0; k < 4; k++) mpfr_clear(t[k]);
    return ctx->failed ? 1 : 0;
}
