/* SPDX-License-Identifier: Apache-2.0 */
/* app_rounds.c -- vector schema of ssca_app_rounds: T rounds of the
 * server step of 000's unconstrained application (Sec. V-A, Algorithm 1
 * with (7), (32)-(39)), from given client messages, with the corrected
 * closed form (docs/ERRATA.md E-000-8).  Params tau, lambda, B; inputs N
 * (nc client sizes), w1 (d: w^(1)), G (T nc x d: row (t - 1) nc + i =
 * client i's message at round t, its batch's summed gradient (29)-(30) in
 * the layout of w, fedspec/ssca.h), rho (T: rho^(t)), gamma (T:
 * gamma^(t)); expect, after round T,
 *   f1    the (36)-(37) coefficients (A then B, the layout of w),
 *   beta  (35),
 *   P     prod_t (1 - rho^(t)),
 *   wbar  -(f1 + 2 lambda beta) / (2 tau (1 - P))  (round T),
 *   w     w^(T+1) = (1 - gamma^(T)) w^(T) + gamma^(T) wbar,
 * from f1^(0) = beta^(0) = 0, P_0 = 1.  Each round, in this order:
 *   beta <- ema(beta, w^(t)); f1 <- lin(f1, w^(t), G_t); P <- (1 - rho) P;
 *   wbar <- argmin(f1, beta, P); w <- update(w, wbar, gamma^(t)).
 * The schedules are inputs (no pow inside): the golden cases take 000's
 * rho^(t) = a1 t^-alpha, gamma^(t) = a2 t^-alpha rounded once to binary64
 * (computed in MPFR).  Certified by precision doubling (iterative: every
 * step correctly rounded at p, the composition is not); tol is the runs'
 * empirical 2^-32 (FF_RUN_DRIFT_TOL, rel and abs), not a proved bound. */
#include "surrogate_vec.h"

#define T_MAX 64                                /* rounds per case */

static const vspec params[] = {{"tau", VK_SCALAR}, {"lambda", VK_SCALAR}, {"B", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"N", VK_VECTOR}, {"w1", VK_VECTOR}, {"G", VK_MATRIX}, {"rho", VK_VECTOR},
                               {"gamma", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f1", VK_VECTOR}, {"beta", VK_VECTOR}, {"P", VK_SCALAR}, {"wbar", VK_VECTOR},
                                {"w", VK_VECTOR}, {NULL, 0}};

/* The shapes: T rounds, nc clients, d; FR_ESIZE if they disagree. */
static int shapes(size_t *T, size_t *nc, size_t *d, size_t Nc, size_t wc, size_t Gr, size_t Gc, size_t rc,
                  size_t gc)
{
    *T = rc; *nc = Nc; *d = wc;
    if (rc == 0 || rc > T_MAX || gc != rc || Nc == 0 || Gr != rc * Nc || Gc != wc) return FR_ESIZE;
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    size_t T, nc, d, B, *N = NULL;
    int st = shapes(&T, &nc, &d, in[0].cols, in[1].cols, in[2].rows, in[2].cols, in[3].cols, in[4].cols);
    if (st != FR_OK) return st;
    N = malloc(nc * sizeof *N);
    if (N == NULL) return FR_ENOMEM;
    st = sv_count_r(par[2].v[0], &B);
    for (size_t i = 0; i < nc && st == FR_OK; i++) st = sv_count_r(in[0].v[i], &N[i]);
    if (st == FR_OK && (rt_alloc(&out[0], 1, d, prec) || rt_alloc(&out[1], 1, d, prec)
                        || rt_alloc(&out[2], 1, 1, prec) || rt_alloc(&out[3], 1, d, prec)))
        st = FR_ENOMEM;
    if (st == FR_OK) st = sv_copy_r(&out[4], &in[1], prec);
    if (st == FR_OK) {
        for (size_t j = 0; j < d; j++) {
            mpfr_set_zero(out[0].v[j], 1);
            mpfr_set_zero(out[1].v[j], 1);
        }
        mpfr_set_ui(out[2].v[0], 1, MPFR_RNDN);
    }
    for (size_t t = 0; t < T && st == FR_OK; t++) {
        mpfr_ptr rho = in[3].v[t], gam = in[4].v[t];
        if ((st = fr_ssca_ema(out[1].v, out[4].v, d, rho)) == FR_OK
            && (st = fr_ssca_lin(out[0].v, out[4].v, in[2].v + t * nc * d, N, nc, d, B, rho, par[0].v[0]))
                   == FR_OK
            && (st = fr_ssca_ema(out[2].v, NULL, 1, rho)) == FR_OK
            && (st = fr_ssca_argmin(out[3].v, out[0].v, out[1].v, d, par[1].v[0], par[0].v[0], out[2].v[0]))
                   == FR_OK)
            st = fr_ssca_update(out[4].v, out[3].v, d, gam);
    }
    free(N);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t T, nc, d, B, *N = NULL;
    int st = shapes(&T, &nc, &d, in[0].cols, in[1].cols, in[2].rows, in[2].cols, in[3].cols, in[4].cols);
    if (st != FR_OK) return st;
    N = malloc(nc * sizeof *N);
    if (N == NULL) return FR_ENOMEM;
    st = sv_count(par[2].v[0], &B);
    for (size_t i = 0; i < nc && st == FR_OK; i++) st = sv_count(in[0].v[i], &N[i]);
    if (st == FR_OK && (ft_alloc(&out[0], 1, d) || ft_alloc(&out[1], 1, d) || ft_alloc(&out[2], 1, 1)
                        || ft_alloc(&out[3], 1, d)))
        st = FR_ENOMEM;                                /* zeros (calloc) */
    if (st == FR_OK) st = sv_copy_f(&out[4], &in[1]);
    if (st == FR_OK) out[2].v[0] = 1;
    for (size_t t = 0; t < T && st == FR_OK; t++) {
        double rho = in[3].v[t], gam = in[4].v[t];
        if ((st = ff_ssca_ema(out[1].v, out[4].v, d, rho)) == FR_OK
            && (st = ff_ssca_lin(out[0].v, out[4].v, in[2].v + t * nc * d, N, nc, d, B, rho, par[0].v[0]))
                   == FR_OK
            && (st = ff_ssca_ema(out[2].v, NULL, 1, rho)) == FR_OK
            && (st = ff_ssca_argmin(out[3].v, out[0].v, out[1].v, d, par[1].v[0], par[0].v[0], out[2].v[0]))
                   == FR_OK)
            st = ff_ssca_update(out[4].v, out[3].v, d, gam);
    }
    free(N);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = *abs = FF_RUN_DRIFT_TOL;      /* empirical, as the runs of 002 (docs/DESIGN.md 6) */
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    size_t T = 1 + sv_below(g, 5), nc = 1 + sv_below(g, 3), d = 1 + sv_below(g, 4), B = 1 + sv_below(g, 50);
    sv_scalar(&par[0], fabs(sv_value(g, -4, 6)));
    sv_scalar(&par[1], sv_below(g, 3) == 0 ? 0 : fabs(sv_value(g, -20, 16)));
    sv_scalar(&par[2], (double)B);
    sv_sizes(&in[0], g, nc, B);
    sv_random(&in[1], g, 1, d, -6, 8);
    sv_random(&in[2], g, T * nc, d, -6, 10);
    ft_alloc(&in[3], 1, T);
    ft_alloc(&in[4], 1, T);
    /* schedules of 000's kind (rho >= 1/8, no tiny steps: with P near 1,
     * 1 - P is ill-conditioned in binary64 and the empirical tol is not
     * meant for it) */
    for (size_t t = 0; t < T; t++) {
        in[3].v[t] = sv_below(g, 4) == 0 ? 1 : 0.125 + 0.875 * (double)frng_u53(g) * 0x1p-53;
        in[4].v[t] = sv_below(g, 4) == 0 ? 1 : 0.0625 + 0.9375 * (double)frng_u53(g) * 0x1p-53;
    }
}

/* RN(a t^-alpha) in binary64, a and alpha exact decimals, computed in MPFR
 * at 256 bits (far beyond any rounding boundary a schedule value sits on). */
static double sched(const char *a, const char *alpha, unsigned t)
{
    mpfr_t x, y;
    mpfr_inits2(256, x, y, (mpfr_ptr)0);
    mpfr_set_str(y, alpha, 10, MPFR_RNDN);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_ui_pow(x, t, y, MPFR_RNDN);
    mpfr_set_str(y, a, 10, MPFR_RNDN);
    mpfr_mul(x, x, y, MPFR_RNDN);
    double r = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clears(x, y, (mpfr_ptr)0);
    return r;
}

/* One case: T rounds, nc clients, d = 6 (L = 2, J = 2, P = 1), seeded
 * messages of magnitude ~ scale. */
static void rounds_case(vgen *g, const char *comment, const char *flags, size_t T, size_t nc,
                        const double *Nv, const char *a1, const char *a2, const char *alpha,
                        const char *alpha2, double scale)
{
    enum { D = 6, TM = 8, NCM = 3 };
    double w1[D], G[TM * NCM * D], rho[TM], gam[TM];
    for (size_t j = 0; j < D; j++) w1[j] = vg_dyadic(g, 12) / 64;
    for (size_t k = 0; k < T * nc * D; k++) G[k] = vg_dyadic(g, 16) / 1024 * scale;
    for (unsigned t = 1; t <= T; t++) {
        rho[t - 1] = sched(a1, alpha, t);
        gam[t - 1] = sched(a2, alpha2, t);
    }
    vg_case(g, comment, flags, 0,
            (ftensor[]){{1, nc, (double *)Nv}, {1, D, w1}, {T * nc, D, G}, {1, T, rho}, {1, T, gam}});
}

#define V(n, ...) {1, n, (double[]){__VA_ARGS__}}
#define M(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vg_group(g, "000 Sec. VI sample-based, B = 10: tau = RN(0.2), lambda = RN(1e-5)", (double[]){0.2, 1e-5, 10});
    rounds_case(g, "5 rounds, 2 clients N = (3000, 7000); rho^(t) = RN(0.9 t^-0.1), gamma^(t) = RN(0.5 t^-0.1): "
                "P_5 > 0, the printed (38)-(39) would give other iterates", "mass-positive,unequal-sizes,random", 5,
                2, (double[]){3000, 7000}, "0.9", "0.5", "0.1", "0.1", 10);
    rounds_case(g, "the same configuration (other seeded messages) with rho^(t) = t^-0.1 (rho^(1) = 1): P = 0, the printed (38)-(39) hold",
                "mass-zero,rho-equals-one,unequal-sizes,random", 5, 2, (double[]){3000, 7000}, "1", "0.5", "0.1",
                "0.1", 10);
    vg_group(g, "tau = RN(0.05), lambda = 0, B = 100 (000 Sec. VI, B = 100: a1 = 0.3, a2 = 0.3, alpha = 0.1)",
             (double[]){0.05, 0, 100});
    rounds_case(g, "8 rounds, 3 clients N = (6000, 6000, 100), no regulariser: beta plays no part",
                "mass-positive,no-regulariser,full-batch,random", 8, 3, (double[]){6000, 6000, 100}, "0.3", "0.3",
                "0.1", "0.1", 100);
    vg_group(g, "feature-based (23)-(24), B = 100: tau = RN(0.2), lambda = RN(1e-5) (a1 = 0.9, a2 = 0.5, "
             "alpha = 0.1)", (double[]){0.2, 1e-5, 100});
    rounds_case(g, "6 rounds, one aggregate message per round (nc = 1, N = 60000: weight 1/B)",
                "mass-positive,random", 6, 1, (double[]){60000}, "0.9", "0.5", "0.1", "0.1", 100);
    vg_group(g, "001 Sec. VI, B = 1: tau = RN(0.1), lambda = RN(1e-5) (a1 = 0.4, a2 = 0.4, alpha = 0.4; "
             "gamma^(t) = a2 t^-(alpha + 0.05))", (double[]){0.1, 1e-5, 1});
    rounds_case(g, "4 rounds, 2 clients N = (30000, 30000)", "mass-positive,random", 4, 2,
                (double[]){30000, 30000}, "0.4", "0.4", "0.4", "0.45", 1);
    vg_group(g, "tau = 1/2, lambda = 1/4, B = 1: small exact rounds", (double[]){0.5, 0.25, 1});
    vg_case(g, "2 rounds, rho = (1, 1/2), gamma = (1/2, 1/2), one client N = 1", "rho-equals-one,mass-positive", 0,
            (ftensor[]){V(1, 1), V(2, 1, -1), M(2, 2, 1, 2, -1, 0.5), V(2, 1, 0.5), V(2, 0.5, 0.5)});
    vg_case(g, "gamma has 1 entry, rho 2", "size", 1,
            (ftensor[]){V(1, 1), V(2, 1, -1), M(2, 2, 1, 2, -1, 0.5), V(2, 1, 0.5), V(1, 0.5)});
    vg_case(g, "no rounds", "size", 1,
            (ftensor[]){V(1, 1), V(2, 1, -1), {0, 0, (double[]){0}}, {1, 0, (double[]){0}}, {1, 0, (double[]){0}}});
    vg_case(g, "rho^(2) = 0", "domain", 1,
            (ftensor[]){V(1, 1), V(2, 1, -1), M(2, 2, 1, 2, -1, 0.5), V(2, 1, 0), V(2, 0.5, 0.5)});
    vg_case(g, "NaN in the round-2 message", "nan", 1,
            (ftensor[]){V(1, 1), V(2, 1, -1), M(2, 2, 1, 2, NAN, 0.5), V(2, 1, 0.5), V(2, 0.5, 0.5)});
    vg_group(g, "tau = 1/2, lambda = 1/4, B = 2", (double[]){0.5, 0.25, 2});
    vg_case(g, "B = 2 > N_1 = 1", "domain", 1,
            (ftensor[]){V(1, 1), V(2, 1, -1), M(2, 2, 1, 2, -1, 0.5), V(2, 1, 0.5), V(2, 0.5, 0.5)});
}

const vfunc vfunc_ssca_app_rounds = {"ssca_app_rounds", "000 eq. (5), (35)-(39) corrected, Sec. V-A", params,
                                     inputs, expects, ref, fast, tol, golden, sample, 2000, 1};
