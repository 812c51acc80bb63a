/* SPDX-License-Identifier: Apache-2.0 */
/* check_fedepm_step.c -- the FedEPM client update of 002 (20), (23), (47).
 *
 * Per coordinate, (23) is the strictly convex one-dimensional problem
 *   f(y) = g y + mu/2 (y - wi)^2 + lambda |y - w| + eta/2 (y - w)^2
 * (the constant f_i(w) and -<g, w> dropped), with
 *   f'(y) = g + mu (y - wi) + eta (y - w) + lambda sgn(y - w).
 *
 * pc_fedepm_step_certificate: y = fr_fedepm_step(...) is the exact
 *   minimiser of f rounded to nearest-even at p bits (pcu_cert_rn, every
 *   derivative sign decided exactly); random dyadic cases, the threshold
 *   |wt| = lambda (wt = mu (wi - w) - g) exactly and just off it, huge and
 *   tiny mu, and ties at p + 1 bits.
 *
 * pc_fedepm_step_eq47: erratum E-002-47.  (20) prints
 *   w_i^{k+1} = w + soft(wt, lambda) / (eta + mu),
 *   the proof of Theorem V.1 (47) prints w - soft(wt, lambda) / (eta + mu).
 *   Both as exact rationals P/Q (Q = eta + mu): 0 is in the subdifferential
 *   of f at the (20) form on every case; at the (47) form f' = -2 wt != 0
 *   whenever |wt| > lambda (decided exactly).  Smallest witness:
 *   lambda = eta = mu = 1, wi = 3, w = g = 0: (20) gives 1 (f'(1) = 0),
 *   (47) gives -1 (f'(-1) = -6). */
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_STEP UINT64_C(0x70632d73746570)   /* "pc-step" */
#define STREAM_E47 UINT64_C(0x70632d65343700)    /* "pc-e47" */
#define NVEC 4

/* ---- the one-dimensional objective of (23) --------------------------------*/

typedef struct {
    mpfr_ptr g, mu, wi, eta, w, lambda;  /* not owned */
    mpfr_t t[8];                         /* scratch */
} step1d;

static void step1d_init(step1d *s)
{
    for (int k = 0; k < 8; k++)
        mpfr_init2(s->t[k], MPFR_PREC_MIN);
}

static void step1d_clear(step1d *s)
{
    for (int k = 0; k < 8; k++)
        mpfr_clear(s->t[k]);
}

/* sign of Q f'_side(P/Q), Q > 0 (Q == NULL: Q = 1), exactly:
 * g Q + mu P - mu wi Q + eta P - eta w Q + lambda sgn_side(P - w Q) Q. */
static int step1d_dsign_frac(step1d *s, const mpfr_t P, const mpfr_t Q, int side)
{
    mpfr_t *t = s->t;
    int e = 0;
    if (Q) {
        e |= pcu_mul(t[0], s->g, Q);
        e |= pcu_mul(t[6], s->wi, Q);
        e |= pcu_mul(t[2], s->mu, t[6]);
        e |= pcu_mul(t[7], s->w, Q);
        e |= pcu_mul(t[4], s->eta, t[7]);
        e |= pcu_mul(t[5], s->lambda, Q);
    } else {
        e |= pcu_set(t[0], s->g);
        e |= pcu_mul(t[2], s->mu, s->wi);
        e |= pcu_mul(t[4], s->eta, s->w);
        e |= pcu_set(t[5], s->lambda);
        e |= pcu_set(t[7], s->w);
    }
    e |= pcu_mul(t[1], s->mu, P);
    e |= pcu_mul(t[3], s->eta, P);
    if (e)
        return 2;
    mpfr_neg(t[2], t[2], MPFR_RNDN);
    mpfr_neg(t[4], t[4], MPFR_RNDN);
    int c = mpfr_cmp(P, t[7]);              /* sgn(P - w Q) */
    int sg = c ? (c > 0 ? 1 : -1) : side;
    if (sg < 0)
        mpfr_neg(t[5], t[5], MPFR_RNDN);
    mpfr_ptr v[6] = {t[0], t[1], t[2], t[3], t[4], t[5]};
    return pcu_sign_sum(v, 6);
}

static int step1d_dsign(void *state, const mpfr_t y, int side)
{
    return step1d_dsign_frac(state, y, NULL, side);
}

/* wt = mu (wi - w) - g and the numerators of (20) and (47) over
 * Q = eta + mu: P20 = w Q + soft(wt), P47 = w Q - soft(wt), all exact. */
typedef struct {
    mpfr_t wt, s, Q, P20, P47, t1, t2;
} forms;

static int forms_compute(forms *F, const step1d *s)
{
    int e = pcu_sub(F->t1, s->wi, s->w) || pcu_mul(F->t2, s->mu, F->t1) ||
            pcu_sub(F->wt, F->t2, s->g) || pcu_add(F->Q, s->eta, s->mu);
    if (e)
        return -1;
    if (mpfr_cmpabs(F->wt, s->lambda) <= 0) {
        mpfr_set_prec(F->s, MPFR_PREC_MIN);
        mpfr_set_zero(F->s, 1);
    } else if (mpfr_sgn(F->wt) > 0) {
        e = pcu_sub(F->s, F->wt, s->lambda);
    } else {
        e = pcu_add(F->s, F->wt, s->lambda);
    }
    return e || pcu_mul(F->t1, s->w, F->Q) || pcu_add(F->P20, F->t1, F->s) ||
           pcu_sub(F->P47, F->t1, F->s) ? -1 : 0;
}

/* ---- random cases (shared by both checks) ---------------------------------*/

typedef struct { long m, e; } dy;   /* m * 2^e */

static void set_dy(mpfr_t x, dy v)
{
    mpfr_set_prec(x, 64);
    mpfr_set_si_2exp(x, v.m, v.e, MPFR_RNDN);
}

/* Random (lambda, eta, mu) and n coordinates (wi, w, g); coordinate 0 is
 * put on the threshold |wt| = lambda (or just off it) in some cases. */
static void random_case(frng_t *G, size_t n, mpfr_ptr lambda, mpfr_ptr eta,
                        mpfr_ptr mu, mpfr_t *wi, mpfr_t *w, mpfr_t *g,
                        mpfr_prec_t p)
{
    unsigned long r = pcu_below(G, 8);
    mpfr_set_prec(lambda, 64);
    mpfr_set_prec(eta, 64);
    mpfr_set_prec(mu, 64);
    pcu_rand_dyadic_nz(lambda, G, 1 + (unsigned)pcu_below(G, 53), -8, 4, 1);
    pcu_rand_dyadic_nz(eta, G, 1 + (unsigned)pcu_below(G, 53), -8, 4, 1);
    if (r == 0)        /* mu grows like alpha^k: huge */
        pcu_rand_dyadic_nz(mu, G, 1 + (unsigned)pcu_below(G, 53), 60, 400, 1);
    else if (r == 1)   /* tiny */
        pcu_rand_dyadic_nz(mu, G, 1 + (unsigned)pcu_below(G, 53), -300, -60, 1);
    else
        pcu_rand_dyadic_nz(mu, G, 1 + (unsigned)pcu_below(G, 53), -6, 8, 1);
    int wide = pcu_below(G, 8) == 0;
    for (size_t j = 0; j < n; j++) {
        mpfr_set_prec(wi[j], 64);
        mpfr_set_prec(w[j], 64);
        mpfr_set_prec(g[j], 64);
        pcu_rand_dyadic(wi[j], G, 1 + (unsigned)pcu_below(G, 64), wide ? -200 : -6,
                        wide ? 200 : 6, 0);
        if (pcu_below(G, 8) == 0)
            mpfr_set(w[j], wi[j], MPFR_RNDN);
        else
            pcu_rand_dyadic(w[j], G, 1 + (unsigned)pcu_below(G, 64), wide ? -200 : -6,
                            wide ? 200 : 6, 0);
        pcu_rand_dyadic(g[j], G, 1 + (unsigned)pcu_below(G, 64), -6, 4, 0);
    }
    unsigned long tm = pcu_below(G, 6);
    if (tm <= 1) {
        /* g_0 = mu (wi_0 - w_0) -+ lambda (+- eps): |wt_0| = lambda (+- eps) */
        mpfr_t d, t, e;
        mpfr_inits2(64, d, t, e, (mpfr_ptr)0);
        pcu_sub(d, wi[0], w[0]);
        pcu_mul(t, mu, d);
        pcu_set(e, lambda);
        if (pcu_below(G, 2))
            mpfr_neg(e, e, MPFR_RNDN);
        if (tm == 1) {
            mpfr_t eps, e2;
            mpfr_inits2(64, eps, e2, (mpfr_ptr)0);
            pcu_rand_dyadic_nz(eps, G, 4, mpfr_get_exp(lambda) - 2 * (long)p - 20,
                               mpfr_get_exp(lambda) - 2, 0);
            pcu_add(e2, e, eps);
            pcu_set(e, e2);
            mpfr_clears(eps, e2, (mpfr_ptr)0);
        }
        pcu_sub(d, t, e);
        mpfr_set_prec(g[0], mpfr_get_prec(d));
        mpfr_set(g[0], d, MPFR_RNDN);
        mpfr_clears(d, t, e, (mpfr_ptr)0);
    }
}

/* Adversarial coordinates: lambda, eta, mu, wi, w, g; PREC in an exponent
 * stands for the output precision p (ties at p + 1 bits). */
#define PREC 100000
static const struct { dy lambda, eta, mu, wi, w, g; } adv[] = {
    {{1, 0}, {1, 0}, {1, 0}, {3, 0}, {0, 0}, {0, 0}},    /* (20): 1, (47): -1 */
    {{1, 0}, {1, 0}, {1, 0}, {1, 0}, {0, 0}, {0, 0}},    /* |wt| = lambda: y = w */
    {{1, 0}, {1, 0}, {1, 0}, {0, 0}, {0, 0}, {-1, 0}},   /* wt = 1 = lambda */
    {{1, 0}, {1, 0}, {1, 0}, {0, 0}, {0, 0}, {-5, 0}},   /* 4/2 = 2 */
    {{1, 0}, {1, 0}, {1, 1}, {0, 0}, {0, 0}, {-2, 0}},   /* 1/3, rounded */
    {{1, 0}, {1, -1}, {1, -1}, {0, 0}, {0, 0}, {0, 0}},  /* g = -(2^p + 2): tie -> 2^p */
    {{1, 0}, {1, -1}, {1, -1}, {0, 0}, {0, 0}, {1, 1}},  /* g = -(2^p + 4): 2^p + 3 -> 2^p + 4 */
    {{1, -30}, {1, 0}, {1, 300}, {1, 0}, {-1, 0}, {0, 0}},  /* huge mu */
    {{1, 0}, {1, 0}, {1, -300}, {1, 0}, {1, 0}, {-3, 0}},   /* tiny mu */
    {{1, 0}, {1, 0}, {1, 0}, {5, 0}, {5, 0}, {0, 0}},    /* wi = w, g = 0: y = w */
};
#define NADV (sizeof adv / sizeof adv[0])

static void adv_case(unsigned k, mpfr_prec_t p, mpfr_ptr lambda, mpfr_ptr eta,
                     mpfr_ptr mu, mpfr_ptr wi, mpfr_ptr w, mpfr_ptr g)
{
    set_dy(lambda, adv[k].lambda);
    set_dy(eta, adv[k].eta);
    set_dy(mu, adv[k].mu);
    set_dy(wi, adv[k].wi);
    set_dy(w, adv[k].w);
    set_dy(g, adv[k].g);
    if (k == 5 || k == 6) {   /* g = -(2^p + 2) or -(2^p + 4): wt = -g */
        mpfr_set_prec(g, p + 8);
        mpfr_set_ui_2exp(g, 1, p, MPFR_RNDN);
        mpfr_add_ui(g, g, k == 5 ? 2 : 4, MPFR_RNDN);
        mpfr_neg(g, g, MPFR_RNDN);
    }
}

static void fmt_case(char *buf, size_t size, const step1d *s, const mpfr_t y)
{
    char b[7][80];
    pcu_fmt(b[0], sizeof b[0], s->lambda);
    pcu_fmt(b[1], sizeof b[1], s->eta);
    pcu_fmt(b[2], sizeof b[2], s->mu);
    pcu_fmt(b[3], sizeof b[3], s->wi);
    pcu_fmt(b[4], sizeof b[4], s->w);
    pcu_fmt(b[5], sizeof b[5], s->g);
    pcu_fmt(b[6], sizeof b[6], y);
    pcu_snprintf(buf, size, "lambda=%s eta=%s mu=%s wi=%s w=%s g=%s: y=%s",
                 b[0], b[1], b[2], b[3], b[4], b[5], b[6]);
}

/* ---- pc_fedepm_step_certificate -------------------------------------------*/

int pc_fedepm_step_certificate(pc_ctx *ctx)
{
    frng_t G;
    mpfr_prec_t p = ctx->prec;
    mpfr_t wi[NVEC], w[NVEC], g[NVEC], y[NVEC], lambda, eta, mu;
    unsigned long exact = 0, rounded = 0, atw = 0;
    step1d S;

    ctx->function = "fedepm_step";
    ctx->vector = "fedepm_step";
    ctx->claim = "002 (20) solves (23): per coordinate argmin g y + mu/2 (y-wi)^2 + lambda|y-w| + eta/2 (y-w)^2, RN at p bits (exact certificate)";
    ctx->erratum = NULL;
    step1d_init(&S);
    mpfr_inits2(64, lambda, eta, mu, (mpfr_ptr)0);
    for (int j = 0; j < NVEC; j++) {
        mpfr_inits2(64, wi[j], w[j], g[j], (mpfr_ptr)0);
        mpfr_init2(y[j], p);
    }
    frng_init(&G, ctx->seed, STREAM_STEP);

    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        size_t n;
        if (c < NADV) {
            n = 1;
            adv_case((unsigned)c, p, lambda, eta, mu, wi[0], w[0], g[0]);
        } else {
            n = 1 + pcu_below(&G, NVEC);
            random_case(&G, n, lambda, eta, mu, wi, w, g, p);
        }
        ctx->ran++;
        const char *why = NULL;
        size_t jb = 0;
        int st = fr_fedepm_step(y, wi, w, g, n, lambda, eta, mu);
        if (st != FR_OK)
            why = fr_strerror(st);
        for (size_t j = 0; j < n && why == NULL; j++) {
            int ex = 0;
            jb = j;
            S.g = g[j]; S.mu = mu; S.wi = wi[j]; S.eta = eta; S.w = w[j];
            S.lambda = lambda;
            int rc = pcu_cert_rn(step1d_dsign, &S, y[j], 0, &ex, &why);
            if (rc == 2)
                why = "internal error";
            else if (rc == 0) {
                why = NULL;
                ex ? exact++ : rounded++;
                atw += ex && mpfr_equal_p(y[j], w[j]);
            }
        }
        if (why && ctx->failed++ == 0) {
            char b[400];
            S.g = g[jb]; S.mu = mu; S.wi = wi[jb]; S.eta = eta; S.w = w[jb];
            S.lambda = lambda;
            fmt_case(b, sizeof b, &S, y[jb]);
            pcu_snprintf(ctx->detail, sizeof ctx->detail, "p=%ld %s: %s",
                         (long)p, b, why);
        }
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "%lu coordinates exact (%lu of them y = w, the kink), "
                     "%lu correctly rounded", exact, atw, rounded);
    for (int j = 0; j < NVEC; j++)
        mpfr_clears(wi[j], w[j], g[j], y[j], (mpfr_ptr)0);
    mpfr_clears(lambda, eta, mu, (mpfr_ptr)0);
    step1d_clear(&S);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_fedepm_step_eq47 ----------------------------------------------------*/

int pc_fedepm_step_eq47(pc_ctx *ctx)
{
    frng_t G;
    mpfr_prec_t p = ctx->prec;
    mpfr_t wi[NVEC], w[NVEC], g[NVEC], lambda, eta, mu, twt;
    forms F;
    step1d S;
    unsigned long coords = 0, wrong = 0, same = 0;
    char wit[300] = "", first[300] = "";

    ctx->function = "fedepm_step";
    ctx->vector = "fedepm_step";
    ctx->claim = "002 (47): w - soft(wt,lambda)/(eta+mu) is not the minimiser of (23); (20)'s w + soft(...)/(eta+mu) is";
    ctx->erratum = "E-002-47";
    step1d_init(&S);
    mpfr_inits2(64, lambda, eta, mu, twt, F.wt, F.s, F.Q, F.P20, F.P47, F.t1,
                F.t2, (mpfr_ptr)0);
    for (int j = 0; j < NVEC; j++)
        mpfr_inits2(64, wi[j], w[j], g[j], (mpfr_ptr)0);
    frng_init(&G, ctx->seed, STREAM_E47);

    for (unsigned long c = 0; c < NADV + ctx->cases; c++) {
        size_t n;
        if (c < NADV) {
            n = 1;
            adv_case((unsigned)c, p, lambda, eta, mu, wi[0], w[0], g[0]);
        } else {
            n = 1 + pcu_below(&G, NVEC);
            random_case(&G, n, lambda, eta, mu, wi, w, g, p);
        }
        ctx->ran++;
        const char *why = NULL;
        size_t jb = 0;
        for (size_t j = 0; j < n && why == NULL; j++) {
            jb = j;
            S.g = g[j]; S.mu = mu; S.wi = wi[j]; S.eta = eta; S.w = w[j];
            S.lambda = lambda;
            if (forms_compute(&F, &S)) {
                why = "internal error";
                break;
            }
            coords++;
            /* (20): 0 in [f'_-(P20/Q), f'_+(P20/Q)] */
            int l = step1d_dsign_frac(&S, F.P20, F.Q, -1);
            int r = step1d_dsign_frac(&S, F.P20, F.Q, +1);
            if (l == 2 || r == 2) {
                why = "internal error";
                break;
            }
            if (!(l <= 0 && r >= 0)) {
                why = "(20): 0 not in the subdifferential of (23)";
                break;
            }
            /* (47): wrong iff soft(wt) != 0, and then f' = -2 wt there */
            l = step1d_dsign_frac(&S, F.P47, F.Q, -1);
            r = step1d_dsign_frac(&S, F.P47, F.Q, +1);
            if (l == 2 || r == 2) {
                why = "internal error";
                break;
            }
            int opt47 = l <= 0 && r >= 0;
            if (mpfr_zero_p(F.s)) {
                same++;
                if (!opt47)
                    why = "soft = 0 but (47) = (20) is not optimal";
                continue;
            }
            if (opt47) {
                why = "soft != 0 but (47) is optimal";
                break;
            }
            /* the exact value of Q f'(P47/Q) is -2 wt Q: check its sign
             * equals that of -wt (f' is continuous there: P47 != w Q) */
            if (l != r || l != -mpfr_sgn(F.wt)) {
                why = "f' at (47) does not have the sign of -wt";
                break;
            }
            if (wrong++ == 0) {
                char b[10][64];
                pcu_fmt(b[0], sizeof b[0], lambda);
                pcu_fmt(b[1], sizeof b[1], eta);
                pcu_fmt(b[2], sizeof b[2], mu);
                pcu_fmt(b[3], sizeof b[3], wi[j]);
                pcu_fmt(b[4], sizeof b[4], w[j]);
                pcu_fmt(b[5], sizeof b[5], g[j]);
                pcu_mul_si(twt, F.wt, -2);
                pcu_fmt(b[6], sizeof b[6], twt);
                pcu_fmt(b[7], sizeof b[7], F.P20);
                pcu_fmt(b[8], sizeof b[8], F.P47);
                pcu_fmt(b[9], sizeof b[9], F.Q);
                pcu_snprintf(wit, sizeof wit,
                             "lambda=%s eta=%s mu=%s wi=%s w=%s g=%s: (20) = %s/%s "
                             "with 0 in df, (47) = %s/%s with f' = -2wt = %s",
                             b[0], b[1], b[2], b[3], b[4], b[5], b[7], b[9],
                             b[8], b[9], b[6]);
            }
        }
        if (why && ctx->failed++ == 0) {
            char b[400];
            mpfr_set_prec(twt, 64);
            mpfr_set_zero(twt, 1);
            S.g = g[jb]; S.mu = mu; S.wi = wi[jb]; S.eta = eta; S.w = w[jb];
            S.lambda = lambda;
            fmt_case(b, sizeof b, &S, twt);
            pcu_snprintf(first, sizeof first, "%s: %s", b, why);
        }
    }
    if (wrong == 0 && ctx->failed++ == 0)
        pcu_snprintf(first, sizeof first, "no case refuted (47)");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "(47) not optimal on %lu of %lu coordinates (all with |wt| > lambda; "
                 "equal to (20) = w on the %lu with |wt| <= lambda); witness %s; "
                 "(20) optimal on all%s%s",
                 wrong, coords, same, wit, first[0] ? "; FIRST FAILURE " : "", first);
    for (int j = 0; j < NVEC; j++)
        mpfr_clears(wi[j], w[j], g[j], (mpfr_ptr)0);
    mpfr_clears(lambda, eta, mu, twt, F.wt, F.s, F.Q, F.P20, F.P47, F.t1, F.t2,
                (mpfr_ptr)0);
    step1d_clear(&S);
    return ctx->failed ? 1 : 0;
}
