/* SPDX-License-Identifier: Apache-2.0 */
/* check_prox_l1.c -- the l1 proximal operator of 003 and the proof of
 * 003 (13) in Appendix A.
 *
 * pc_prox_l1_certificate: x = fr_prox_l1(u, gamma, rho) minimises
 *   gamma |x| + rho/2 (x - u)^2 (003 (13) with h = gamma ||.||_1):
 *   0 in gamma sgn(x) + rho (x - u) exactly, or x is the exact minimiser
 *   rounded to nearest (pcu_cert_rn); plus f(neighbours) >= f(x) and strict
 *   descent at exact results.
 *
 * pc_prox_l1_appendix_a: for random x_i, lambda_i (N clients, d coords),
 *   the minimiser over x0 of (9a),
 *     Phi(x0) = h(x0) + (1/N) sum_i (lambda_i^T (x0 - x_i) + rho/2 ||x0 - x_i||^2),
 *   is (A.1) prox(mean(x_i - lambda_i / rho)) = soft(ubar, gamma/rho):
 *   the candidate is checked as an exact rational P/Q against the
 *   subgradient of Phi itself (separable; per coordinate
 *   N Phi'(y) = rho N y - A + N gamma sgn(y), A = rho sum x_i - sum lambda_i),
 *   and fr_prox_l1 applied to ubar (rounded toward zero with enough guard
 *   bits) is certified against Phi directly.  Erratum E-003-A1: step (a) of
 *   Appendix A drops the 1/N of (9a); the minimiser of the objective of
 *   step (a) is soft(ubar, gamma/(N rho)), which differs from (A.1)
 *   whenever N > 1 and gamma/(N rho) < |ubar|. */
#include <stdio.h>
#include <string.h>
#include "../pc_util.h"

#define STREAM_PROX UINT64_C(0x70632d70726f78)    /* "pc-prox" */
#define STREAM_APPA UINT64_C(0x70632d61707061)    /* "pc-appa" */
#define NVEC 4

typedef struct { long m, e; } dy;  /* m * 2^e */

static void set_dy(mpfr_t x, dy v)
{
    mpfr_set_prec(x, 64);
    mpfr_set_si_2exp(x, v.m, v.e, MPFR_RNDN);
}

/* ---- shared: certify one rounded result ---------------------------------*/

typedef struct {
    pc_ctx *ctx;
    mpfr_t y, d;
    unsigned long exact, rounded;
} cstate;

/* Certificate of x against f (a pcu_prox1d), neighbours, strict descent.
 * Returns NULL when x passes, else the reason. */
static const char *certify(cstate *S, pcu_prox1d *f, const mpfr_t x,
                           int tie_any)
{
    int exact = 0;
    const char *why = "internal error";
    int rc = pcu_cert_rn(pcu_prox1d_dsign, f, x, tie_any, &exact, &why);
    if (rc != 0)
        return why;
    exact ? S->exact++ : S->rounded++;
    if (!mpfr_zero_p(x)) {
        for (int side = -1; side <= 1; side += 2) {
            mpfr_set_prec(S->y, mpfr_get_prec(x));
            mpfr_set(S->y, x, MPFR_RNDN);
            side < 0 ? mpfr_nextbelow(S->y) : mpfr_nextabove(S->y);
            int s = pcu_prox1d_fdiff(f, S->y, x);
            if (s == 2)
                return "internal error";
            /* a tie accepted with tie_any may leave a neighbour as good */
            if (s < 0 || (exact && s == 0))
                return "a p-bit neighbour has a lower objective";
        }
    }
    if (exact) {
        mpfr_exp_t e = mpfr_zero_p(x) ? -64 : mpfr_get_exp(x);
        if (mpfr_zero_p(x) && !mpfr_zero_p(f->ru))
            e = mpfr_get_exp(f->ru) - mpfr_get_exp(f->r) - 2;
        mpfr_set_prec(S->d, 2);
        mpfr_set_ui_2exp(S->d, 1, e - 2 * (mpfr_exp_t)S->ctx->prec, MPFR_RNDN);
        for (int side = -1; side <= 1; side += 2) {
            int r2 = side < 0 ? pcu_sub(S->y, x, S->d) : pcu_add(S->y, x, S->d);
            int s = r2 ? 2 : pcu_prox1d_fdiff(f, S->y, x);
            if (s != 1)
                return s == 2 ? "internal error" : "no strict descent at x";
        }
    }
    return NULL;
}

/* ---- pc_prox_l1_certificate ---------------------------------------------*/

static const struct { dy u, gamma, rho; } adv1[] = {
    {{0, 0}, {0, 0}, {1, 0}},
    {{1, 0}, {0, 0}, {1, 0}},
    {{1, 0}, {1, 0}, {1, 0}},      /* rho|u| = gamma */
    {{-1, 0}, {3, 0}, {3, 0}},     /* rho|u| = gamma */
    {{1, 0}, {1, 0}, {3, 0}},      /* 2/3, rounded */
    {{-7, 0}, {1, 0}, {3, 0}},     /* -20/3 */
    {{1, 200}, {1, 0}, {1, -200}},
    {{-5, 0}, {1, -300}, {3, 0}},
    {{1, 0}, {1, 200}, {1, 200}},
    {{3, -200}, {1, -200}, {1, 0}},
    {{1, 0}, {1, -1}, {1, 300}},
};
#define NADV1 (sizeof adv1 / sizeof adv1[0])

int pc_prox_l1_certificate(pc_ctx *ctx)
{
    cstate S;
    frng_t g;
    mpfr_t u[NVEC], x[NVEC], ru, gamma, rho, eps, t1;
    mpfr_prec_t p = ctx->prec;
    char bu[96], bg[96], br[96], bx[96];

    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    ctx->function = "prox_l1";
    ctx->vector = "prox_l1";
    ctx->claim = "003 (13): prox(u) = argmin gamma|x| + rho/2 (x-u)^2 (exact certificate, RN at p bits)";
    mpfr_inits2(64, S.y, S.d, ru, gamma, rho, eps, t1, (mpfr_ptr)0);
    for (int i = 0; i < NVEC; i++) {
        mpfr_init2(u[i], 64);
        mpfr_init2(x[i], p);
    }
    frng_init(&g, ctx->seed, STREAM_PROX);

    for (unsigned long c = 0; c < NADV1 + ctx->cases; c++) {
        size_t n;
        if (c < NADV1) {
            n = 1;
            set_dy(u[0], adv1[c].u);
            set_dy(gamma, adv1[c].gamma);
            set_dy(rho, adv1[c].rho);
        } else {
            n = 1 + pcu_below(&g, NVEC);
            mpfr_set_prec(rho, 64);
            mpfr_set_prec(gamma, 64);
            unsigned long rm = pcu_below(&g, 16);
            long lo = rm == 0 ? 150 : rm == 1 ? -250 : -8;
            pcu_rand_dyadic_nz(rho, &g, 1 + (unsigned)pcu_below(&g, 53), lo, lo + (rm < 2 ? 100 : 16), 1);
            if (pcu_below(&g, 8) == 0)
                mpfr_set_zero(gamma, 1);
            else
                pcu_rand_dyadic_nz(gamma, &g, 1 + (unsigned)pcu_below(&g, 53), -8, 8, 1);
            long eu = (mpfr_zero_p(gamma) ? 0 : (long)mpfr_get_exp(gamma)) -
                      (long)mpfr_get_exp(rho);
            for (size_t j = 0; j < n; j++) {
                mpfr_set_prec(u[j], 64);
                if (pcu_below(&g, 8) == 0)
                    mpfr_set_zero(u[j], 1);
                else if (pcu_below(&g, 8) == 0)
                    pcu_rand_dyadic(u[j], &g, 1 + (unsigned)pcu_below(&g, 64), -300, 300, 0);
                else
                    pcu_rand_dyadic(u[j], &g, 1 + (unsigned)pcu_below(&g, 64),
                                    eu - 4, eu + 4, 0);
            }
            unsigned long tm = pcu_below(&g, 6);
            if (tm == 0 && !mpfr_zero_p(u[0])) {        /* rho |u_0| = gamma */
                pcu_mul(t1, rho, u[0]);
                pcu_abs(gamma, t1);
            } else if (tm == 1 && !mpfr_zero_p(u[0])) { /* just off it */
                pcu_mul(t1, rho, u[0]);
                pcu_abs(ru, t1);
                mpfr_set_prec(eps, 64);
                pcu_rand_dyadic_nz(eps, &g, 4, mpfr_get_exp(ru) - 2 * (long)p - 20,
                                   mpfr_get_exp(ru) - 2, 0);
                pcu_add(gamma, ru, eps);
            }
        }
        ctx->ran++;
        int st = fr_prox_l1(x, u, n, gamma, rho);
        const char *why = NULL;
        size_t j = 0;
        if (st != FR_OK) {
            why = fr_strerror(st);
        } else {
            for (j = 0; j < n && why == NULL; j++) {
                pcu_prox1d f;
                pcu_mul(ru, rho, u[j]);
                pcu_prox1d_init(&f, gamma, rho, ru);
                why = certify(&S, &f, x[j], 0);
                pcu_prox1d_clear(&f);
            }
            j = j ? j - 1 : 0;
        }
        if (why && ctx->failed++ == 0) {
            pcu_fmt(bu, sizeof bu, u[j]);
            pcu_fmt(bg, sizeof bg, gamma);
            pcu_fmt(br, sizeof br, rho);
            pcu_fmt(bx, sizeof bx, x[j]);
            pcu_snprintf(ctx->detail, sizeof ctx->detail,
                     "u=%s gamma=%s rho=%s p=%ld: prox=%s: %s", bu, bg, br,
                     (long)p, bx, why);
        }
    }
    if (ctx->failed == 0)
        pcu_snprintf(ctx->detail, sizeof ctx->detail,
                 "%lu entries exact, %lu correctly rounded", S.exact, S.rounded);
    for (int i = 0; i < NVEC; i++)
        mpfr_clears(u[i], x[i], (mpfr_ptr)0);
    mpfr_clears(S.y, S.d, ru, gamma, rho, eps, t1, (mpfr_ptr)0);
    return ctx->failed ? 1 : 0;
}

/* ---- pc_prox_l1_appendix_a ----------------------------------------------*/

#define NMAX 8
#define DMAX 3

static const struct {
    unsigned N, d;
    dy x[NMAX], l[NMAX];
    dy rho, gamma;
} adv2[] = {
    /* the E-003-A1 witness: (9a) gives 0, step (a) as printed gives 1/2 */
    {2, 1, {{1, 0}, {1, 0}}, {{0, 0}, {0, 0}}, {1, 0}, {1, 0}},
    {1, 1, {{3, 0}}, {{1, 0}}, {2, 0}, {1, 0}},                       /* N = 1 */
    {3, 1, {{1, 0}, {1, 0}, {1, 0}}, {{0, 0}, {0, 0}, {0, 0}}, {1, 0}, {1, 0}}, /* |A| = N gamma */
    {3, 1, {{1, 0}, {0, 0}, {0, 0}}, {{0, 0}, {0, 0}, {0, 0}}, {3, 0}, {1, 0}}, /* tie, ubar = 1/3 */
    {3, 1, {{1, 0}, {2, 0}, {4, 0}}, {{1, 0}, {-1, 0}, {1, -1}}, {3, 0}, {0, 0}}, /* gamma = 0 */
    {3, 1, {{1, 100}, {-1, 100}, {1, 0}}, {{0, 0}, {0, 0}, {1, -100}}, {1, 0}, {1, -50}},
};
#define NADV2 (sizeof adv2 / sizeof adv2[0])

int pc_prox_l1_appendix_a(pc_ctx *ctx)
{
    cstate S;
    frng_t g;
    mpfr_prec_t p = ctx->prec;
    mpfr_t X[NMAX][DMAX], L[NMAX][DMAX], ub[DMAX], x0[DMAX];
    mpfr_t rho, gamma, Sx, Sl, A, Ng, rN, P, Pa, t1, t2;
    mpfr_ptr col[NMAX];
    unsigned long coords = 0, differ = 0, witness_ok = 0, id_fail = 0;
    char wit[200] = "";

    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    ctx->function = "prox_l1";
    ctx->vector = "prox_l1";
    ctx->claim = "003 App. A, (A.1): argmin_x0 of (9a) = prox(mean(x_i - lambda_i/rho)); step (a) drops 1/N";
    ctx->erratum = "E-003-A1";
    mpfr_inits2(64, S.y, S.d, rho, gamma, Sx, Sl, A, Ng, rN, P, Pa, t1, t2,
                (mpfr_ptr)0);
    for (int i = 0; i < NMAX; i++)
        for (int j = 0; j < DMAX; j++)
            mpfr_inits2(64, X[i][j], L[i][j], (mpfr_ptr)0);
    for (int j = 0; j < DMAX; j++) {
        mpfr_init2(ub[j], 64);
        mpfr_init2(x0[j], p);
    }
    frng_init(&g, ctx->seed, STREAM_APPA);

    for (unsigned long c = 0; c < NADV2 + ctx->cases; c++) {
        unsigned N, d;
        if (c < NADV2) {
            N = adv2[c].N;
            d = adv2[c].d;
            for (unsigned i = 0; i < N; i++) {
                set_dy(X[i][0], adv2[c].x[i]);
                set_dy(L[i][0], adv2[c].l[i]);
            }
            set_dy(rho, adv2[c].rho);
            set_dy(gamma, adv2[c].gamma);
        } else {
            N = 1 + (unsigned)pcu_below(&g, NMAX);
            d = 1 + (unsigned)pcu_below(&g, DMAX);
            int wide = pcu_below(&g, 10) == 0;
            for (unsigned i = 0; i < N; i++)
                for (unsigned j = 0; j < d; j++) {
                    mpfr_set_prec(X[i][j], 64);
                    mpfr_set_prec(L[i][j], 64);
                    pcu_rand_dyadic(X[i][j], &g, 1 + (unsigned)pcu_below(&g, 53),
                                    wide ? -100 : -6, wide ? 100 : 6, 0);
                    pcu_rand_dyadic(L[i][j], &g, 1 + (unsigned)pcu_below(&g, 53),
                                    wide ? -100 : -6, wide ? 100 : 6, 0);
                }
            mpfr_set_prec(rho, 64);
            mpfr_set_prec(gamma, 64);
            if (pcu_below(&g, 4) == 0)
                mpfr_set_ui_2exp(rho, 1, (long)pcu_below(&g, 13) - 6, MPFR_RNDN);
            else
                pcu_rand_dyadic_nz(rho, &g, 1 + (unsigned)pcu_below(&g, 53), -6, 6, 1);
            if (pcu_below(&g, 8) == 0)
                mpfr_set_zero(gamma, 1);
            else
                pcu_rand_dyadic_nz(gamma, &g, 1 + (unsigned)pcu_below(&g, 53), -4, 6, 1);
            if (pcu_below(&g, 8) == 0) {
                /* put coordinate 0 exactly on the threshold |A| = N gamma:
                 * lambda_{N-1} = rho sum x - sum_{i<N-1} lambda_i -+ N gamma */
                for (unsigned i = 0; i < N; i++)
                    col[i] = X[i][0];
                pcu_sum(Sx, col, N);
                pcu_mul(t1, rho, Sx);
                for (unsigned i = 0; i + 1 < N; i++)
                    col[i] = L[i][0];
                if (N > 1) {
                    pcu_sum(Sl, col, N - 1);
                    pcu_sub(t2, t1, Sl);
                } else {
                    pcu_set(t2, t1);
                }
                pcu_mul_si(Ng, gamma, (long)N);
                if (pcu_below(&g, 2))
                    mpfr_neg(Ng, Ng, MPFR_RNDN);
                pcu_sub(L[N - 1][0], t2, Ng);
            }
        }
        ctx->ran++;
        const char *why = NULL;
        unsigned jbad = 0;
        int inexact[DMAX];
        /* the claimed form: ubar = A / (rho N), fed to fr_prox_l1 */
        for (unsigned j = 0; j < d && why == NULL; j++) {
            for (unsigned i = 0; i < N; i++)
                col[i] = X[i][j];
            if (pcu_sum(Sx, col, N))
                why = "internal error";
            for (unsigned i = 0; i < N; i++)
                col[i] = L[i][j];
            if (pcu_sum(Sl, col, N) || pcu_mul(t1, rho, Sx) || pcu_sub(A, t1, Sl) ||
                pcu_mul_si(Ng, gamma, (long)N) || pcu_mul_si(rN, rho, (long)N))
                why = "internal error";
            /* guard bits: enough that rounding ubar cannot move the result
             * across a rounding boundary or the threshold (see header) */
            mpfr_exp_t hi = 0, lo = 0;
            if (!mpfr_zero_p(A)) {
                hi = mpfr_get_exp(A);
                lo = pcu_lowbit(A);
            }
            if (!mpfr_zero_p(Ng)) {
                if (mpfr_zero_p(A) || mpfr_get_exp(Ng) > hi)
                    hi = mpfr_get_exp(Ng);
                if (mpfr_zero_p(A) || pcu_lowbit(Ng) < lo)
                    lo = pcu_lowbit(Ng);
            }
            mpfr_set_prec(ub[j], (mpfr_prec_t)(hi - lo) + 2 * p + 64);
            inexact[j] = mpfr_div(ub[j], A, rN, MPFR_RNDZ) != 0;
            if (why)
                jbad = j;
        }
        int st = why ? FR_OK : fr_prox_l1(x0, ub, d, gamma, rho);
        if (st != FR_OK)
            why = fr_strerror(st);
        for (unsigned j = 0; j < d && why == NULL; j++) {
            jbad = j;
            for (unsigned i = 0; i < N; i++)
                col[i] = X[i][j];
            pcu_sum(Sx, col, N);
            for (unsigned i = 0; i < N; i++)
                col[i] = L[i][j];
            if (pcu_sum(Sl, col, N) || pcu_mul(t1, rho, Sx) || pcu_sub(A, t1, Sl) ||
                pcu_mul_si(Ng, gamma, (long)N) || pcu_mul_si(rN, rho, (long)N)) {
                why = "internal error";
                break;
            }
            coords++;
            pcu_prox1d phi, phia;
            pcu_prox1d_init(&phi, Ng, rN, A);     /* N * (9a) in x0_j */
            pcu_prox1d_init(&phia, gamma, rN, A); /* step (a) as printed */
            int sA = mpfr_sgn(A);
            /* (A.1) as an exact rational P / rN: soft(A/rN, gamma/rho) */
            if (mpfr_cmpabs(A, Ng) <= 0) {
                mpfr_set_prec(P, 2);
                mpfr_set_zero(P, 1);
            } else {
                pcu_set(t1, Ng);
                if (sA < 0)
                    mpfr_neg(t1, t1, MPFR_RNDN);
                pcu_sub(P, A, t1);
            }
            /* step (a)'s minimiser: soft(A/rN, gamma/(N rho)) */
            if (mpfr_cmpabs(A, gamma) <= 0) {
                mpfr_set_prec(Pa, 2);
                mpfr_set_zero(Pa, 1);
            } else {
                pcu_set(t1, gamma);
                if (sA < 0)
                    mpfr_neg(t1, t1, MPFR_RNDN);
                pcu_sub(Pa, A, t1);
            }
            int l1 = pcu_prox1d_dsign_frac(&phi, P, rN, -1);
            int r1 = pcu_prox1d_dsign_frac(&phi, P, rN, +1);
            int l2 = pcu_prox1d_dsign_frac(&phia, Pa, rN, -1);
            int r2 = pcu_prox1d_dsign_frac(&phia, Pa, rN, +1);
            int l3 = pcu_prox1d_dsign_frac(&phi, Pa, rN, -1);
            int r3 = pcu_prox1d_dsign_frac(&phi, Pa, rN, +1);
            if (l1 == 2 || r1 == 2 || l2 == 2 || r2 == 2 || l3 == 2 || r3 == 2)
                why = "internal error";
            else if (!(l1 <= 0 && r1 >= 0)) {
                why = "(A.1) is not the argmin of (9a)";
                id_fail++;
            } else if (!(l2 <= 0 && r2 >= 0))
                why = "soft(ubar, gamma/(N rho)) is not the argmin of step (a)";
            else if (mpfr_cmp(P, Pa) != 0) {
                /* step (a)'s argmin differs, so it fails (9a)'s certificate */
                if (l3 <= 0 && r3 >= 0)
                    why = "internal: distinct minimisers of a strictly convex (9a)";
                differ++;
                if (c == 0)
                    witness_ok = 1;
            }
            if (why == NULL)
                why = certify(&S, &phi, x0[j], inexact[j]);
            pcu_prox1d_clear(&phi);
            pcu_prox1d_clear(&phia);
        }
        if (why && ctx->failed++ == 0) {
            char bx[96];
            pcu_fmt(bx, sizeof bx, x0[jbad]);
            pcu_snprintf(wit, sizeof wit, "case %lu N=%u coord %u: x0=%s: %s", c, N,
                     jbad, bx, why);
        }
    }
    if (!witness_ok && ctx->failed++ == 0)
        pcu_snprintf(wit, sizeof wit, "the witness N=2 did not show the erratum");
    pcu_snprintf(ctx->detail, sizeof ctx->detail,
             "step (a) of App. A drops the 1/N of (9a): its argmin is "
             "soft(ubar,gamma/(N rho)), not (A.1) soft(ubar,gamma/rho); witness "
             "N=2 x=(1,1) lambda=(0,0) rho=gamma=1: (9a) argmin 0 = (A.1), "
             "step (a) argmin 1/2; (A.1) certified on %lu coords (%lu failed), "
             "step (a) differs on %lu%s%s",
             coords, id_fail, differ, wit[0] ? "; FIRST FAILURE " : "", wit);
    for (int i = 0; i < NMAX; i++)
        for (int j = 0; j < DMAX; j++)
            mpfr_clears(X[i][j], L[i][j], (mpfr_ptr)0);
    for (int j = 0; j < DMAX; j++)
        mpfr_clears(ub[j], x0[j], (mpfr_ptr)0);
    mpfr_clears(S.y, S.d, rho, gamma, Sx, Sl, A, Ng, rN, P, Pa, t1, t2,
                (mpfr_ptr)0);
    return ctx->failed || differ == 0 ? 1 : 0;
}
