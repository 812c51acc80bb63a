/* SPDX-License-Identifier: Apache-2.0 */
/* check_surrogate.c -- the surrogate of 000 (3) with (7), its closed form
 * (10) / (24) / (38)-(39), and the constraint surrogate (14)-(15).
 *
 * pc_ssca_argmin_defined (erratum E-000-8).  With Fbar^(0) = 0, (3) makes
 * Fbar^(t) = sum_{s<=t} c_s q_s, c_s = rho_s prod_{r=s+1..t} (1 - rho_r),
 * q_s the round-s term sum_i N_i/(B N) sum_n fbar(w; w_s, x_n) (with (7):
 * gbar_s^T (w - w_s) + tau ||w - w_s||^2; with (33) also the linearised
 * regulariser lambda (||w_s||^2 + 2 w_s^T (w - w_s))).  Its quadratic
 * weight is tau sum_s c_s = tau (1 - P_t), P_t = prod_s (1 - rho_s), and
 * (8), (22), (34), (10), (24), (38)-(39) print tau: right iff P_t = 0,
 * i.e. (at every t) rho^(1) = 1.  000's experiments use rho^(1) = 0.9,
 * 0.3, 0.2.  Per seeded case (rho^(1) in {1, 0.9, 0.3, 0.2} as binary64,
 * rho^(t) = RN(a1 t^-alpha), t = 1..6 rounds, 1-3 clients of unequal N_i,
 * d <= 3, random dyadic messages, iterates, tau, lambda):
 *  (a) exactly (GMP rationals), Fbar^(t) is built as the explicit sum of
 *      the per-round quadratics with c_s computed as products (not by the
 *      recursion); its coefficients are read off by evaluation (a = (Q(e)
 *      + Q(-e))/2 - Q(0), b_j = (Q(e_j) - Q(-e_j))/2); Q(r) = a ||r||^2 +
 *      b^T r + Q(0) at a random r (isotropic quadratic), a = tau (1 - P_t)
 *      exactly; w* = -b/(2a) is the argmin (gradient 0);
 *  (b) fr_ssca_lin / fr_ssca_ema (beta, P) / fr_ssca_argmin at ctx->prec
 *      bits agree with w* to 2^-(prec-10) of the scale M of the terms;
 *  (c) the printed form (fr_ssca_argmin with P = 0) agrees with w* when
 *      P_t = 0, and when P_t > 0 its gradient b P_t is not 0 (exactly) and
 *      it is farther from w* than half the exact distance max_j |w*_j| P_t,
 *      whenever that distance exceeds 2^-(prec/2) M (the margin);
 *  (d) the constraint surrogate (14)-(15): the explicit sum Fbar_m(r) at a
 *      random r equals f0 + f1^T r + tau (1 - P_t) ||r||^2 exactly (f0, f1
 *      by the recursion (14) in rationals), differs from the printed f0 +
 *      f1^T r + tau ||r||^2 when P_t > 0, r != 0; fr_ssca_const /
 *      fr_ssca_lin reproduce f0, f1 to 2^-(prec-10) of their scale.
 * Smallest witness: d = nc = N = B = 1, tau = 1/2, rho^(1) = 1/2, w^(1) =
 * 0, G = 1: Fbar^(1)(w) = (w + w^2/2)/2, argmin -1; (9) gives f1 = 1/2 and
 * the printed (10) -f1/(2 tau) = -1/2.  (At t = 1 the true argmin is
 * w^(1) - gbar/(2 tau), the printed one rho^(1) times it.)
 */
#include "surrogate_cases.h"

#define STREAM_ARGMIN UINT64_C(0x70632d7373636161)   /* "pc-sscaa" */

typedef struct {
    mpq_t c[SC_TM], P, gbar[SC_TM][SC_DM], t0, t1, t2;
} exact_t;

/* Q(r) of (a): the explicit sum, regulariser included (lambda may be 0). */
static void q_explicit(mpq_t out, exact_t *E, const sc_case *c, const mpq_t *r)
{
    mpq_t ws, lam, tau, acc;
    mpq_inits(ws, lam, tau, acc, NULL);
    mpfr_get_q(lam, c->lambda);
    mpfr_get_q(tau, c->tau);
    mpq_set_ui(out, 0, 1);
    for (unsigned s = 0; s < c->T; s++) {
        mpq_set_ui(acc, 0, 1);
        for (unsigned j = 0; j < c->d; j++) {
            mpfr_get_q(ws, c->w[s][j]);
            mpq_sub(E->t0, r[j], ws);                       /* w - w_s */
            mpq_mul(E->t1, E->gbar[s][j], E->t0);           /* gbar (w - w_s) */
            mpq_add(acc, acc, E->t1);
            mpq_mul(E->t1, E->t0, E->t0);
            mpq_mul(E->t1, E->t1, tau);                     /* tau (w - w_s)^2 */
            mpq_add(acc, acc, E->t1);
            mpq_mul(E->t1, ws, ws);                         /* lambda (w_s^2 + 2 w_s (w - w_s)) */
            mpq_mul(E->t2, ws, E->t0);
            mpq_add(E->t1, E->t1, E->t2);
            mpq_add(E->t1, E->t1, E->t2);
            mpq_mul(E->t1, E->t1, lam);
            mpq_add(acc, acc, E->t1);
        }
        mpq_mul(acc, acc, E->c[s]);
        mpq_add(out, out, acc);
    }
    mpq_clears(ws, lam, tau, acc, NULL);
}

/* Fbar_m(r) of (d): sum_s c_s [sum_i q_i (F_si + G_si (r - w_s)) + tau ||r - w_s||^2]. */
static void qm_explicit(mpq_t out, exact_t *E, const sc_case *c, const mpq_t *r)
{
    mpq_t q, x, tau, acc;
    mpq_inits(q, x, tau, acc, NULL);
    mpfr_get_q(tau, c->tau);
    mpq_set_ui(out, 0, 1);
    for (unsigned s = 0; s < c->T; s++) {
        mpq_set_ui(acc, 0, 1);
        for (unsigned i = 0; i < c->nc; i++) {
            sc_weight(q, c, i);
            mpfr_get_q(E->t2, c->F[s][i]);
            for (unsigned j = 0; j < c->d; j++) {
                mpfr_get_q(x, c->w[s][j]);
                mpq_sub(E->t0, r[j], x);
                mpfr_get_q(x, c->G[s][i * c->d + j]);
                mpq_mul(E->t0, E->t0, x);
                mpq_add(E->t2, E->t2, E->t0);
            }
            mpq_mul(E->t2, E->t2, q);
            mpq_add(acc, acc, E->t2);
        }
        for (unsigned j = 0; j < c->d; j++) {
            mpfr_get_q(x, c->w[s][j]);
            mpq_sub(E->t0, r[j], x);
            mpq_mul(E->t0, E->t0, E->t0);
            mpq_mul(E->t0, E->t0, tau);
            mpq_add(acc, acc, E->t0);
        }
        mpq_mul(acc, acc, E->c[s]);
        mpq_add(out, out, acc);
    }
    mpq_clears(q, x, tau, acc, NULL);
}

/* The constraint recursion (14) in rationals: f0, f1 after T rounds. */
static void rec14(mpq_t f0, mpq_t *f1, const sc_case *c)
{
    mpq_t q, x, y, rho, om, tau, S;
    mpq_inits(q, x, y, rho, om, tau, S, NULL);
    mpfr_get_q(tau, c->tau);
    mpq_set_ui(f0, 0, 1);
    for (unsigned j = 0; j < c->d; j++) mpq_set_ui(f1[j], 0, 1);
    mpq_t gbar[SC_DM];
    for (unsigned j = 0; j < SC_DM; j++) mpq_init(gbar[j]);
    for (unsigned s = 0; s < c->T; s++) {
        mpfr_get_q(rho, c->rho[s]);
        mpq_set_ui(om, 1, 1);
        mpq_sub(om, om, rho);
        sc_gbar(gbar, c, s);
        mpq_set_ui(S, 0, 1);                         /* sum_i q_i (F_i - G_i^T w_s) + tau ||w_s||^2 */
        for (unsigned i = 0; i < c->nc; i++) {
            sc_weight(q, c, i);
            mpfr_get_q(y, c->F[s][i]);
            for (unsigned j = 0; j < c->d; j++) {
                mpfr_get_q(x, c->G[s][i * c->d + j]);
                mpq_t wj;
                mpq_init(wj);
                mpfr_get_q(wj, c->w[s][j]);
                mpq_mul(x, x, wj);
                mpq_sub(y, y, x);
                mpq_clear(wj);
            }
            mpq_mul(y, y, q);
            mpq_add(S, S, y);
        }
        for (unsigned j = 0; j < c->d; j++) {
            mpfr_get_q(x, c->w[s][j]);
            mpq_mul(y, x, x);
            mpq_mul(y, y, tau);
            mpq_add(S, S, y);
            /* f1_j <- (1 - rho) f1_j + rho (gbar_j - 2 tau w_j) */
            mpq_mul(y, x, tau);
            mpq_add(y, y, y);
            mpq_sub(y, gbar[j], y);
            mpq_mul(y, y, rho);
            mpq_mul(f1[j], f1[j], om);
            mpq_add(f1[j], f1[j], y);
        }
        mpq_mul(f0, f0, om);
        mpq_mul(S, S, rho);
        mpq_add(f0, f0, S);
    }
    for (unsigned j = 0; j < SC_DM; j++) mpq_clear(gbar[j]);
    mpq_clears(q, x, y, rho, om, tau, S, NULL);
}

int pc_ssca_argmin_defined(pc_ctx *ctx)
{
    ctx->function = "ssca_argmin";
    ctx->vector = "ssca_argmin";
    ctx->claim = "000 (3)+(7): Fbar^(t) has quadratic weight tau (1 - P_t); (8), (10), (24), (34), "
                 "(38)-(39), (14)'s Fbar_m print tau: wrong unless rho^(1) = 1";
    ctx->erratum = "E-000-8";
    ctx->ran = ctx->failed = 0;
    frng_t g;
    frng_init(&g, ctx->seed, STREAM_ARGMIN);
    const mpfr_prec_t p = ctx->prec;
    sc_case c;
    sc_init(&c);
    exact_t E;
    for (int s = 0; s < SC_TM; s++) {
        mpq_init(E.c[s]);
        for (int j = 0; j < SC_DM; j++) mpq_init(E.gbar[s][j]);
    }
    mpq_inits(E.P, E.t0, E.t1, E.t2, NULL);
    mpq_t r[SC_DM], pt[SC_DM], b[SC_DM], wstar[SC_DM], f1q[SC_DM], Q0, Qa, Qb, a, x, y, tau, f0q;
    for (int j = 0; j < SC_DM; j++) mpq_inits(r[j], pt[j], b[j], wstar[j], f1q[j], NULL);
    mpq_inits(Q0, Qa, Qb, a, x, y, tau, f0q, NULL);
    mpfr_t f1[SC_DM], beta[SC_DM], wbar[SC_DM], wpr[SC_DM], P, zero, f0, rr;
    for (int j = 0; j < SC_DM; j++) mpfr_inits2(p, f1[j], beta[j], wbar[j], wpr[j], (mpfr_ptr)0);
    mpfr_inits2(p, P, zero, f0, (mpfr_ptr)0);
    mpfr_init2(rr, 64);
    mpfr_set_zero(zero, 1);
    unsigned long refuted = 0, agreed = 0, near = 0;
    double worst_rel = 0;
    for (unsigned long k = 0; k < ctx->cases; k++) {
        sc_random(&c, &g, k);
        const unsigned d = c.d;
        int ok = 1;
        const char *why = "";
        /* (a) exact: c_s as products, P, gbar_s */
        mpq_set_ui(E.P, 1, 1);
        for (unsigned s = 0; s < c.T; s++) {
            mpfr_get_q(E.c[s], c.rho[s]);
            for (unsigned q2 = s + 1; q2 < c.T; q2++) {
                mpfr_get_q(x, c.rho[q2]);
                mpq_set_ui(y, 1, 1);
                mpq_sub(y, y, x);
                mpq_mul(E.c[s], E.c[s], y);
            }
            mpfr_get_q(x, c.rho[s]);
            mpq_set_ui(y, 1, 1);
            mpq_sub(y, y, x);
            mpq_mul(E.P, E.P, y);
            sc_gbar(E.gbar[s], &c, s);
        }
        mpfr_get_q(tau, c.tau);
        for (unsigned j = 0; j < d; j++) mpq_set_ui(pt[j], 0, 1);
        q_explicit(Q0, &E, &c, pt);
        for (unsigned j = 0; j < d; j++) {
            mpq_set_ui(pt[j], 1, 1);
            q_explicit(Qa, &E, &c, pt);
            mpq_set_si(pt[j], -1, 1);
            q_explicit(Qb, &E, &c, pt);
            mpq_set_ui(pt[j], 0, 1);
            mpq_sub(b[j], Qa, Qb);
            mpq_div_2exp(b[j], b[j], 1);
            if (j == 0) {
                mpq_add(a, Qa, Qb);
                mpq_div_2exp(a, a, 1);
                mpq_sub(a, a, Q0);
            }
        }
        /* isotropic quadratic at a random r */
        mpq_set(Qb, Q0);
        for (unsigned j = 0; j < d; j++) {
            pcu_rand_dyadic(rr, &g, 20, -3, 3, 0);
            mpfr_get_q(r[j], rr);
            mpq_mul(x, r[j], r[j]);
            mpq_mul(x, x, a);
            mpq_add(Qb, Qb, x);
            mpq_mul(x, r[j], b[j]);
            mpq_add(Qb, Qb, x);
        }
        q_explicit(Qa, &E, &c, r);
        if (!mpq_equal(Qa, Qb)) { ok = 0; why = "Fbar^(t) is not an isotropic quadratic"; }
        /* a = tau (1 - P) exactly */
        mpq_set_ui(x, 1, 1);
        mpq_sub(x, x, E.P);
        mpq_mul(x, x, tau);
        if (ok && !mpq_equal(a, x)) { ok = 0; why = "the quadratic weight is not tau (1 - P_t)"; }
        /* w* = -b/(2a); the scale M of the terms */
        double M = 0, wmax = 0;
        for (unsigned j = 0; j < d; j++) {
            mpq_div(wstar[j], b[j], a);
            mpq_div_2exp(wstar[j], wstar[j], 1);
            mpq_neg(wstar[j], wstar[j]);
            double m = 0;
            for (unsigned s = 0; s < c.T; s++)
                m += mpq_get_d(E.c[s]) * (sc_absd(E.gbar[s][j]) + 2 * (mpfr_get_d(c.tau, MPFR_RNDN)
                     + mpfr_get_d(c.lambda, MPFR_RNDN)) * fabs(mpfr_get_d(c.w[s][j], MPFR_RNDN)));
            M = fmax(M, m / (2 * mpq_get_d(a)));
            wmax = fmax(wmax, sc_absd(wstar[j]));
        }
        M = fmax(M, 0x1p-200);
        /* (b) the recursions in MPFR at p bits */
        for (unsigned j = 0; j < d; j++) {
            mpfr_set_zero(f1[j], 1);
            mpfr_set_zero(beta[j], 1);
        }
        mpfr_set_ui(P, 1, MPFR_RNDN);
        int st = FR_OK;
        for (unsigned s = 0; s < c.T && st == FR_OK; s++) {
            if ((st = fr_ssca_ema(beta, c.w[s], d, c.rho[s])) == FR_OK
                && (st = fr_ssca_lin(f1, c.w[s], c.G[s], c.N, c.nc, d, c.B, c.rho[s], c.tau)) == FR_OK)
                st = fr_ssca_ema(&P, NULL, 1, c.rho[s]);
        }
        if (st == FR_OK) st = fr_ssca_argmin(wbar, f1, beta, d, c.lambda, c.tau, P);
        if (st == FR_OK) st = fr_ssca_argmin(wpr, f1, beta, d, c.lambda, c.tau, zero);
        if (ok && st != FR_OK) { ok = 0; why = "a recursion failed"; }
        for (unsigned j = 0; j < d && ok; j++)
            if (!sc_close(wbar[j], wstar[j], M, (long)p - 10)) { ok = 0; why = "fr_ssca_argmin(P) is not the argmin"; }
        /* (c) the printed form */
        if (ok && mpq_sgn(E.P) == 0) {
            agreed++;
            for (unsigned j = 0; j < d && ok; j++)
                if (!sc_close(wpr[j], wstar[j], M, (long)p - 10)) { ok = 0; why = "P = 0 but printed != argmin"; }
        } else if (ok) {
            /* the printed point -b/(2 tau): gradient 2 a (-b/(2 tau)) + b = b P, exactly */
            int bnz = 0;
            for (unsigned j = 0; j < d; j++) bnz |= mpq_sgn(b[j]) != 0;
            double dist = wmax * mpq_get_d(E.P);
            if (bnz && dist > ldexp(M, -(int)(p / 2))) {
                int far = 0;
                for (unsigned j = 0; j < d; j++)
                    far |= !sc_close(wpr[j], wstar[j], dist, 1);
                if (!far) { ok = 0; why = "the printed form was not refuted beyond the margin"; }
                else refuted++;
                worst_rel = fmax(worst_rel, mpq_get_d(E.P));
            } else {
                near++;
            }
        }
        /* (d) the constraint surrogate */
        if (ok) {
            rec14(f0q, f1q, &c);
            qm_explicit(Qa, &E, &c, r);
            mpq_set(Qb, f0q);
            mpq_set_ui(y, 0, 1);
            for (unsigned j = 0; j < d; j++) {
                mpq_mul(x, f1q[j], r[j]);
                mpq_add(Qb, Qb, x);
                mpq_mul(x, r[j], r[j]);
                mpq_add(y, y, x);                       /* ||r||^2 */
            }
            mpq_mul(x, y, a);                           /* tau (1 - P) ||r||^2 */
            mpq_add(x, x, Qb);
            if (!mpq_equal(x, Qa)) { ok = 0; why = "(14): Fbar_m != f0 + f1^T r + tau (1 - P) ||r||^2"; }
            mpq_mul(x, y, tau);
            mpq_add(x, x, Qb);
            if (ok && (mpq_sgn(E.P) != 0 && mpq_sgn(y) != 0) == mpq_equal(x, Qa)) {
                ok = 0; why = "(14): the printed tau ||r||^2 form agrees with P > 0";
            }
            /* fr_ssca_const / fr_ssca_lin reproduce f0, f1 */
            mpfr_set_zero(f0, 1);
            for (unsigned j = 0; j < d; j++) mpfr_set_zero(f1[j], 1);
            st = FR_OK;
            for (unsigned s = 0; s < c.T && st == FR_OK; s++)
                if ((st = fr_ssca_const(f0, c.w[s], c.G[s], c.F[s], c.N, c.nc, d, c.B, c.rho[s], c.tau)) == FR_OK)
                    st = fr_ssca_lin(f1, c.w[s], c.G[s], c.N, c.nc, d, c.B, c.rho[s], c.tau);
            double S0 = 1;
            for (unsigned s = 0; s < c.T; s++) {
                for (unsigned i = 0; i < c.nc; i++) S0 += fabs(mpfr_get_d(c.F[s][i], MPFR_RNDN));
                for (unsigned k2 = 0; k2 < c.nc * d; k2++) S0 += fabs(mpfr_get_d(c.G[s][k2], MPFR_RNDN)) * 64;
                for (unsigned j = 0; j < d; j++) S0 += 64 * mpfr_get_d(c.tau, MPFR_RNDN) * 64;
            }
            if (st != FR_OK || !sc_close(f0, f0q, S0, (long)p - 10)) { ok = 0; why = "fr_ssca_const != (14)"; }
            for (unsigned j = 0; j < d && ok; j++)
                if (!sc_close(f1[j], f1q[j], S0, (long)p - 10)) { ok = 0; why = "fr_ssca_lin != (14)"; }
        }
        ctx->ran++;
        if (!ok) {
            if (!ctx->failed)
                pcu_snprintf(ctx->detail, sizeof ctx->detail, "case %lu (rho1 = %s, T = %u, nc = %u, d = %u): %s",
                             k, sc_a1[c.a1], c.T, c.nc, d, why);
            ctx->failed++;
        }
    }
    if (!ctx->failed && (refuted == 0 || agreed == 0)) {
        ctx->failed++;
        pcu_snprintf(ctx->detail, sizeof ctx->detail, "the printed form was %s", refuted ? "never right" : "never refuted");
    }
    if (!ctx->failed)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "weight tau (1 - P_t) exact on %lu cases; printed (10)/(38)-(39) right on the %lu with "
                     "rho1 = 1, refuted on %lu (P_t up to %.3g; %lu within the margin); smallest witness: "
                     "d = I = N = B = 1, tau = 1/2, rho1 = 1/2, w1 = 0, G = 1: Fbar^(1) = (w + w^2/2)/2, "
                     "argmin -1, (10) gives -1/2", ctx->ran, agreed, refuted, worst_rel, near);
    sc_clear(&c);
    for (int s = 0; s < SC_TM; s++) {
        mpq_clear(E.c[s]);
        for (int j = 0; j < SC_DM; j++) mpq_clear(E.gbar[s][j]);
    }
    mpq_clears(E.P, E.t0, E.t1, E.t2, NULL);
    for (int j = 0; j < SC_DM; j++) mpq_clears(r[j], pt[j], b[j], wstar[j], f1q[j], NULL);
    mpq_clears(Q0, Qa, Qb, a, x, y, tau, f0q, NULL);
    for (int j = 0; j < SC_DM; j++) mpfr_clears(f1[j], beta[j], wbar[j], wpr[j], (mpfr_ptr)0);
    mpfr_clears(P, zero, f0, rr, (mpfr_ptr)0);
    return ctx->failed != 0;
}
