/* SPDX-License-Identifier: Apache-2.0 */
/* surrogate_cases.h -- the seeded random instances of the surrogate
 * recursions shared by check_surrogate.c and check_momentum.c: schedules
 * rho^(t) = RN(a1 t^-alpha) with 000's a1 (1, 0.9, 0.3, 0.2), client
 * messages, iterates; exact GMP rationals of each input.  Helpers only
 * (sc_ prefix): no proof check is declared here. */
#ifndef FEDREF_PC_SSCA_SURROGATE_CASES_H
#define FEDREF_PC_SSCA_SURROGATE_CASES_H

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include "../pc_util.h"

enum { SC_TM = 6, SC_NCM = 3, SC_DM = 3 };

/* 000 Sec. VI: a1 = 0.9, 0.3, 0.2; and rho^(1) = 1, where the printed
 * forms hold. */
static const char *const sc_a1[4] = {"1", "0.9", "0.3", "0.2"};

typedef struct {
    unsigned T, nc, d;
    size_t B, N[SC_NCM];
    int a1;                                      /* index into sc_a1 */
    mpfr_t rho[SC_TM], gam[SC_TM];               /* binary64 values (53 bits) */
    mpfr_t tau, lambda;
    mpfr_t w[SC_TM][SC_DM];                      /* the iterate of round s (w[0] = w^(1)) */
    mpfr_t G[SC_TM][SC_NCM * SC_DM];             /* round s: client i's message, row-major */
    mpfr_t F[SC_TM][SC_NCM];                     /* round s: client i's constraint value */
} sc_case;

static void sc_init(sc_case *c)
{
    for (int s = 0; s < SC_TM; s++) {
        mpfr_inits2(64, c->rho[s], c->gam[s], (mpfr_ptr)0);
        for (int j = 0; j < SC_DM; j++) mpfr_init2(c->w[s][j], 64);
        for (int k = 0; k < SC_NCM * SC_DM; k++) mpfr_init2(c->G[s][k], 64);
        for (int i = 0; i < SC_NCM; i++) mpfr_init2(c->F[s][i], 64);
    }
    mpfr_inits2(64, c->tau, c->lambda, (mpfr_ptr)0);
}

static void sc_clear(sc_case *c)
{
    for (int s = 0; s < SC_TM; s++) {
        mpfr_clears(c->rho[s], c->gam[s], (mpfr_ptr)0);
        for (int j = 0; j < SC_DM; j++) mpfr_clear(c->w[s][j]);
        for (int k = 0; k < SC_NCM * SC_DM; k++) mpfr_clear(c->G[s][k]);
        for (int i = 0; i < SC_NCM; i++) mpfr_clear(c->F[s][i]);
    }
    mpfr_clears(c->tau, c->lambda, (mpfr_ptr)0);
}

/* x = RN_53(a t^-alpha), a and alpha decimal strings (computed at 256 bits,
 * then rounded once: a schedule value in binary64, as a user would have). */
static void sc_sched(mpfr_t x, const char *a, const char *alpha, unsigned t)
{
    mpfr_t y, z;
    mpfr_inits2(256, y, z, (mpfr_ptr)0);
    mpfr_set_str(y, alpha, 10, MPFR_RNDN);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_ui_pow(z, t, y, MPFR_RNDN);
    mpfr_set_str(y, a, 10, MPFR_RNDN);
    mpfr_mul(z, z, y, MPFR_RNDN);
    mpfr_set_prec(x, 53);
    mpfr_set(x, z, MPFR_RNDN);
    mpfr_clears(y, z, (mpfr_ptr)0);
}

/* Case number k: a1 cycles through sc_a1 (k mod 4), T through 1..6. */
static void sc_random(sc_case *c, frng_t *g, unsigned long k)
{
    static const char *const alphas[2] = {"0.1", "0.3"}, *const a2s[3] = {"0.5", "0.3", "1"};
    c->a1 = (int)(k % 4);
    c->T = 1 + (unsigned)((k / 4) % SC_TM);
    c->nc = 1 + (unsigned)pcu_below(g, SC_NCM);
    c->d = 1 + (unsigned)pcu_below(g, SC_DM);
    c->B = 1 + pcu_below(g, 4);
    for (unsigned i = 0; i < c->nc; i++) c->N[i] = c->B + pcu_below(g, 12);
    const char *alpha = alphas[pcu_below(g, 2)], *a2 = a2s[pcu_below(g, 3)];
    for (unsigned t = 1; t <= c->T; t++) {
        sc_sched(c->rho[t - 1], sc_a1[c->a1], alpha, t);
        sc_sched(c->gam[t - 1], a2, alpha, t);
    }
    pcu_rand_dyadic_nz(c->tau, g, 1 + (unsigned)pcu_below(g, 20), -4, 4, 1);
    if (pcu_below(g, 4) == 0) mpfr_set_zero(c->lambda, 1);
    else pcu_rand_dyadic_nz(c->lambda, g, 1 + (unsigned)pcu_below(g, 20), -20, 2, 1);
    for (unsigned s = 0; s < c->T; s++) {
        for (unsigned j = 0; j < c->d; j++)
            pcu_rand_dyadic(c->w[s][j], g, 1 + (unsigned)pcu_below(g, 30), -6, 4, 0);
        for (unsigned k2 = 0; k2 < c->nc * c->d; k2++)
            pcu_rand_dyadic(c->G[s][k2], g, 1 + (unsigned)pcu_below(g, 30), -4, 8, 0);
        for (unsigned i = 0; i < c->nc; i++)
            pcu_rand_dyadic(c->F[s][i], g, 1 + (unsigned)pcu_below(g, 30), -4, 8, 1);
    }
}

/* q = N_i / (B N) exactly. */
static void sc_weight(mpq_t q, const sc_case *c, unsigned i)
{
    size_t N = 0;
    for (unsigned k = 0; k < c->nc; k++) N += c->N[k];
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_set_ui(num, (unsigned long)c->N[i]);
    mpz_set_ui(den, (unsigned long)N);
    mpz_mul_ui(den, den, (unsigned long)c->B);
    mpq_set_num(q, num);
    mpq_set_den(q, den);
    mpq_canonicalize(q);
    mpz_clears(num, den, NULL);
}

/* gbar_j = sum_i N_i/(B N) G_{s,i,j}, exactly (round s). */
static void sc_gbar(mpq_t *gbar, const sc_case *c, unsigned s)
{
    mpq_t q, x;
    mpq_inits(q, x, NULL);
    for (unsigned j = 0; j < c->d; j++) mpq_set_ui(gbar[j], 0, 1);
    for (unsigned i = 0; i < c->nc; i++) {
        sc_weight(q, c, i);
        for (unsigned j = 0; j < c->d; j++) {
            mpfr_get_q(x, c->G[s][i * c->d + j]);
            mpq_mul(x, x, q);
            mpq_add(gbar[j], gbar[j], x);
        }
    }
    mpq_clears(q, x, NULL);
}

/* The ref library's view of a value: |x - y| <= 2^-bits scale?  (x mpfr, y
 * mpq, scale >= 0 a double), decided at 4 x's precision. */
static int sc_close(const mpfr_t x, const mpq_t y, double scale, long bits)
{
    mpfr_t a, b;
    mpfr_inits2(4 * mpfr_get_prec(x) + 64, a, b, (mpfr_ptr)0);
    mpfr_set_q(a, y, MPFR_RNDN);
    mpfr_sub(a, a, x, MPFR_RNDN);
    mpfr_abs(a, a, MPFR_RNDN);
    mpfr_set_d(b, scale, MPFR_RNDN);
    mpfr_mul_2si(b, b, -bits, MPFR_RNDN);
    int ok = mpfr_cmp(a, b) <= 0;
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

/* |x| as a double (for scales). */
static double sc_absd(const mpq_t x)
{
    return fabs(mpq_get_d(x));
}

#endif
