/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_fast.c -- Check unit tests of ff_pdm_run (fast/fedpdm/run*.c),
 * Algorithm 1 of 003 as fedspec/fedpdm.h (section "Algorithm 1") states it:
 *   - an independent oracle: the algorithm re-done from the header's text
 *     in long double with naive loops (the gradient of (25) entry by entry,
 *     soft-thresholding, (21) from its formula), its draws by frng_sample
 *     and ff_rng_gaussian2 on fresh streams (docs/RNG.md 3.10), noise drawn
 *     only when sigma != 0: part, Q, capped, the draws identical, x0, x,
 *     lam, P, Px, Plam, Px0, F, stop2 within 1e-10 of their scale, for every
 *     combination of rule, start, server, noise and clip;
 *   - against ref (fr_pdm_run at 128 bits), every option combination:
 *     part, Q, capped, the draws identical; x0, x, lam, P, Px, Plam, Px0,
 *     F, sigma, stop2 within 1e-10 of their scale;
 *   - NOISE_PAPER's sigma: sigma^2 >= (18) of (19) (an exact fma residual)
 *     and sigma within one ulp of RN(sqrt);
 *   - K = N: SERVER_ALL and SERVER_PART give the same trace bit for bit;
 *     noise-free SERVER_ALL: Px0 at t >= 1 is rounding only (<= 1e-25 of
 *     the scale), Px0 at t = 0 is gamma^2 #{x_0k != 0} (c = 0);
 *   - NOISE_GIVEN with every sigma 0 equals NOISE_NONE bit for bit (no
 *     word consumed);
 *   - edges: T = 1, K = 1, Qmax = 1, rule 11 exactly at nu (stops) and one
 *     ulp below (does not), sign of zero (x_0^t, t >= 1, has no -0);
 *   - trace reuse (a second run on a used trace equals a fresh one), and
 *     argument errors leave a used trace untouched byte for byte.
 * Replayable: FEDREF_SEED=<n>. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fedpdm_run_fast(void);

#define NMAX 6
#define MMAX 3
#define NFMAX 5
#define DMAXS 7                         /* samples per client */
#define TMAX 4
#define DM (MMAX * NFMAX)

typedef long double ld;

typedef struct {
    size_t d[NMAX], y[NMAX * DMAXS];
    double A[NMAX * DMAXS * NFMAX], eta[TMAX], sigma[TMAX], x0[DM];
    fr_pdm_problem P;
    fr_pdm_params prm;
} fx_t;

/* A seeded problem: N clients of 3..DMAXS samples, m classes, n features
 * (fr_pdm_synth_*), x_0^0 with entries in [-1/2, 1/2) (some 0 and -0). */
static void fx_make(fx_t *f, uint64_t seed, size_t N, size_t m, size_t n, unsigned long T)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(fr_pdm_synth_sizes(seed, N, 3, DMAXS, f->d), FR_OK);
    ck_assert_int_eq(fr_pdm_synth_data(seed, N, m, n, f->d, f->A, f->y), FR_OK);
    frng_t g;
    frng_init(&g, seed, 77);
    for (size_t k = 0; k < m * n; k++)
        f->x0[k] = ((double)(frng_next64(&g) >> 56) - 128) / 256;
    f->x0[0] = 0;
    if (m * n > 3)
        f->x0[3] = -0.0;
    ck_assert_int_eq(fr_pdm_eta_paper(f->eta, T, 0.05), FR_OK);
    for (unsigned long t = 0; t < T; t++)
        f->sigma[t] = 0.01 * (double)(t % 3);        /* sigma[0] = 0: no draw */
    f->P = (fr_pdm_problem){.N = N, .m = m, .n = n, .d = f->d, .A = f->A, .y = f->y, .beta = 0.01,
                            .gamma = 1e-3};
    f->prm = (fr_pdm_params){.T = T, .K = N > 1 ? N / 2 : 1, .b = 2, .Qmax = 4,
                             .rule = FR_PDM_RULE_11, .nu = 0.3, .rho = 10, .eta = f->eta,
                             .start = FR_PDM_START_XI, .server = FR_PDM_SERVER_ALL,
                             .noise = FR_PDM_NOISE_NONE, .eps = 1, .delta = 1e-5, .G = 0.5,
                             .sigma = f->sigma, .clip = 0, .x0 = f->x0, .seed = seed,
                             .keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P
                                     | FR_PDM_KEEP_F};
}

static void run_fast(ff_pdm_trace *t, const fx_t *f)
{
    ck_assert_int_eq(ff_pdm_trace_init(t, &f->P, &f->prm), FR_OK);
    ck_assert_int_eq(ff_pdm_run(t, &f->P, &f->prm), FR_OK);
}

/* ---- the oracle -------------------------------------------------------------- */

typedef struct {
    ld x0[(TMAX + 1) * DM], x[NMAX * DM], lam[NMAX * DM], yt[NMAX * DM];
    ld P[TMAX + 1], Px[TMAX + 1], Plam[TMAX + 1], Px0[TMAX + 1], F[TMAX + 1];
    ld sigma[TMAX * NMAX], stop2[TMAX * NMAX];
    unsigned char part[TMAX * NMAX], capped[TMAX * NMAX];
    unsigned long Q[TMAX * NMAX];
    size_t draws[TMAX * NMAX * 8 * 4], nd;
} orc_t;

static ld sq(ld a) { return a * a; }

/* (25) of client i at x on the rows rows[0..nb-1] (local indices): the
 * gradient entry by entry and the loss. */
static void o_grad(ld *g, ld *f, const fx_t *fx, size_t i, const ld *x, const size_t *rows, size_t nb)
{
    const size_t m = fx->P.m, n = fx->P.n;
    size_t off = 0;
    for (size_t j = 0; j < i; j++)
        off += fx->d[j];
    const double beta = fx->P.beta;
    ld L = 0;
    for (size_t k = 0; k < m * n; k++)
        g[k] = beta * 2 * x[k] / sq(1 + x[k] * x[k]);
    for (size_t t = 0; t < nb; t++) {
        const size_t q = off + rows[t], c = fx->y[q];
        ld u = 0;
        for (size_t l = 0; l < n; l++)
            u += x[c * n + l] * (ld)fx->A[q * n + l];
        L += logl(1 + expl(-u));
        for (size_t l = 0; l < n; l++)
            g[c * n + l] -= (ld)fx->A[q * n + l] / (1 + expl(u)) / (ld)nb;
    }
    if (f != NULL) {
        ld R = 0;
        for (size_t k = 0; k < m * n; k++)
            R += x[k] * x[k] / (1 + x[k] * x[k]);
        *f = L / (ld)nb + beta * R;
    }
}

static void o_state(orc_t *o, const fx_t *fx, size_t t, const ld *x0)
{
    const size_t N = fx->P.N, D = fx->P.m * fx->P.n;
    const ld rho = fx->prm.rho, gam = fx->P.gamma;
    size_t all[DMAXS];
    for (size_t k = 0; k < DMAXS; k++)
        all[k] = k;
    ld g[DM], c[DM] = {0}, px = 0, pl = 0, p0 = 0, F = 0, S = 0;
    for (size_t j = 0; j < N; j++) {
        ld fj;
        o_grad(g, &fj, fx, j, o->x + j * D, all, fx->d[j]);
        for (size_t k = 0; k < D; k++) {
            ld dx = x0[k] - o->x[j * D + k];
            px += sq((g[k] - o->lam[j * D + k] - rho * dx) / (ld)N);
            pl += sq(dx / (ld)N);
            c[k] += (o->lam[j * D + k] + rho * dx) / (ld)N;
        }
        /* (24): the loss part of f_j at x_0 */
        ld g0[DM];
        o_grad(g0, &fj, fx, j, x0, all, fx->d[j]);
        F += fj;
    }
    for (size_t k = 0; k < D; k++) {
        p0 += x0[k] != 0 ? sq(c[k] + (x0[k] > 0 ? gam : -gam)) : sq(fmaxl(0, fabsl(c[k]) - gam));
        S += fabsl(x0[k]);
    }
    /* F: each f_j holds beta R(x_0); the mean keeps one copy */
    o->F[t] = F / (ld)N + gam * S;
    o->Px[t] = px;
    o->Plam[t] = pl;
    o->Px0[t] = p0;
    o->P[t] = px + pl + p0;
}

static void oracle(orc_t *o, const fx_t *fx)
{
    const fr_pdm_params *p = &fx->prm;
    const size_t N = fx->P.N, D = fx->P.m * fx->P.n;
    const ld rho = p->rho;
    memset(o, 0, sizeof *o);
    frng_t sel, bat[NMAX], noi[NMAX];
    frng_init(&sel, p->seed, FR_PDM_STREAM_SELECT);
    for (size_t i = 0; i < N; i++) {
        frng_init(&bat[i], p->seed, FR_PDM_STREAM_BATCH + i);
        frng_init(&noi[i], p->seed, FR_PDM_STREAM_NOISE + i);
    }
    ld x0[DM];
    for (size_t k = 0; k < D; k++)
        x0[k] = p->x0 != NULL ? p->x0[k] : 0;
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < D; k++) {
            o->x[i * D + k] = o->yt[i * D + k] = x0[k];
            o->lam[i * D + k] = 0;
        }
    for (unsigned long t = 0; t <= p->T; t++) {
        memcpy(o->x0 + t * D, x0, sizeof x0);
        o_state(o, fx, t, x0);
        if (t == p->T)
            break;
        unsigned char in[NMAX] = {0};
        size_t S[NMAX], ns = N;
        if (t == 0) {
            memset(in, 1, N);
        } else {
            ck_assert_int_eq(frng_sample(&sel, N, p->K, S), FR_OK);
            for (size_t j = 0; j < p->K; j++)
                in[S[j]] = 1;
            ns = p->K;
        }
        for (size_t i = 0; i < N; i++) {
            if (!in[i])
                continue;
            ld *x = o->x + i * D, *lam = o->lam + i * D, xr[DM], g[DM], s2 = 0;
            for (size_t k = 0; k < D; k++)
                xr[k] = p->start == FR_PDM_START_XI ? x[k] : x0[k];
            unsigned long Q = 0;
            int stop = 0;
            while (Q < p->Qmax && !stop) {
                size_t B[8];
                ck_assert_int_eq(frng_sample(&bat[i], fx->d[i], p->b, B), FR_OK);
                memcpy(o->draws + o->nd, B, p->b * sizeof *B);
                o->nd += p->b;
                o_grad(g, NULL, fx, i, xr, B, p->b);
                if (p->clip) {
                    ld nr = 0;
                    for (size_t k = 0; k < D; k++)
                        nr += g[k] * g[k];
                    nr = sqrtl(nr);
                    ld sc = fminl(1, p->G / nr);
                    for (size_t k = 0; k < D; k++)
                        g[k] *= sc;
                }
                s2 = 0;
                for (size_t k = 0; k < D; k++) {
                    ld v = g[k] - lam[k] + rho * (xr[k] - x0[k]);
                    s2 += v * v;
                    xr[k] -= p->eta[t] * v;
                }
                Q++;
                stop = p->rule == FR_PDM_RULE_11 && s2 <= p->nu;
            }
            ld sig = 0;
            if (p->noise == FR_PDM_NOISE_GIVEN) {
                sig = p->sigma[t];
            } else if (p->noise == FR_PDM_NOISE_PAPER) {
                double s, s2d;
                ck_assert_int_eq(ff_fedpdm_sensitivity(&s, p->eta[t], p->rho, Q, p->G), FR_OK);
                ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&s2d, p->eps, p->delta, s), FR_OK);
                sig = sqrtl(s2d);
            }
            for (size_t k = 0; k < D; k++) {
                x[k] = xr[k];
                lam[k] += rho * (x0[k] - x[k]);
                o->yt[i * D + k] = x[k] - lam[k] / rho;
            }
            for (size_t k = 0; sig != 0 && k < D; k += 2) {
                double z0, z1;
                ck_assert_int_eq(ff_rng_gaussian2(&z0, &z1, &noi[i]), FR_OK);
                o->yt[i * D + k] += sig * z0;
                if (k + 1 < D)
                    o->yt[i * D + k + 1] += sig * z1;
            }
            size_t R = t * N + i;
            o->part[R] = 1;
            o->Q[R] = Q;
            o->capped[R] = p->rule == FR_PDM_RULE_11 && !stop;
            o->sigma[R] = sig;
            o->stop2[R] = s2;
        }
        int all = p->server == FR_PDM_SERVER_ALL;
        for (size_t k = 0; k < D; k++) {
            ld u = 0;
            for (size_t i = 0; i < N; i++)
                if (all || in[i])
                    u += o->yt[i * D + k];
            u /= (ld)(all ? N : ns);
            ld a = fabsl(u) - fx->P.gamma / rho;
            x0[k] = a > 0 ? copysignl(a, u) : 0;
        }
    }
}

/* |a - b| <= 1e-10 (scale) for every entry */
static void near(const double *a, const ld *b, size_t n, ld scale, const char *what, int cs)
{
    for (size_t k = 0; k < n; k++)
        ck_assert_msg(fabsl((ld)a[k] - b[k]) <= 1e-10L * scale, "case %d %s[%zu]: %.17g vs %.17Lg", cs, what,
                      k, a[k], b[k]);
}

static ld vmax(const ld *b, size_t n)
{
    ld s = 0;
    for (size_t k = 0; k < n; k++)
        s = fmaxl(s, fabsl(b[k]));
    return s;
}

static orc_t ORC;

static void compare(const ff_pdm_trace *t, const fx_t *fx, int cs)
{
    oracle(&ORC, fx);
    const size_t N = fx->P.N, D = fx->P.m * fx->P.n, T = fx->prm.T, R = T * N;
    ck_assert_uint_eq(t->rounds, T);
    ck_assert_uint_eq(t->nd, ORC.nd);
    ck_assert(memcmp(t->draws, ORC.draws, ORC.nd * sizeof *t->draws) == 0);
    ck_assert(memcmp(t->part, ORC.part, R) == 0);
    ck_assert(memcmp(t->capped, ORC.capped, R) == 0);
    ck_assert(memcmp(t->Q, ORC.Q, R * sizeof *t->Q) == 0);
    near(t->x0, ORC.x0, (T + 1) * D, 1 + vmax(ORC.x0, (T + 1) * D), "x0", cs);
    near(t->x, ORC.x, N * D, 1 + vmax(ORC.x, N * D), "x", cs);
    near(t->lam, ORC.lam, N * D, 1 + vmax(ORC.lam, N * D), "lam", cs);
    for (size_t s = 0; s <= T && (fx->prm.keep & FR_PDM_KEEP_P); s++) {
        ld sc = ORC.P[s] + 1e-30L;
        near(&t->P[s], &ORC.P[s], 1, sc, "P", cs);
        near(&t->Px[s], &ORC.Px[s], 1, sc, "Px", cs);
        near(&t->Plam[s], &ORC.Plam[s], 1, sc, "Plam", cs);
        near(&t->Px0[s], &ORC.Px0[s], 1, sc, "Px0", cs);
        near(&t->F[s], &ORC.F[s], 1, fabsl(ORC.F[s]), "F", cs);
    }
    for (size_t r = 0; r < R; r++) {
        if (!ORC.part[r]) {
            ck_assert(t->sigma[r] == 0 && !signbit(t->sigma[r]) && isnan(t->stop2[r]));
            continue;
        }
        near(&t->stop2[r], &ORC.stop2[r], 1, ORC.stop2[r], "stop2", cs);
        near(&t->sigma[r], &ORC.sigma[r], 1, ORC.sigma[r] + 1e-300L, "sigma", cs);
        if (fx->prm.noise == FR_PDM_NOISE_PAPER) {   /* never below (18) of (19), at most 1 ulp up */
            double s, s2;
            ck_assert_int_eq(ff_fedpdm_sensitivity(&s, fx->prm.eta[r / N], fx->prm.rho, t->Q[r], fx->prm.G),
                             FR_OK);
            ck_assert_int_eq(ff_gauss_sigma2_classical_upper(&s2, fx->prm.eps, fx->prm.delta, s), FR_OK);
            double sg = t->sigma[r], rn = sqrt(s2);
            ck_assert(fma(sg, sg, -s2) >= 0);
            ck_assert(sg == rn || sg == nextafter(rn, INFINITY));
        }
    }
}

/* ---- against ref ---------------------------------------------------------------- */

static ld mp(mpfr_srcptr a) { return mpfr_get_ld(a, MPFR_RNDN); }

static void near_ref(const double *a, mpfr_t *const b, size_t n, const char *what, int cs)
{
    ld sc = 0;
    for (size_t k = 0; k < n; k++)
        sc = fmaxl(sc, fabsl(mp(b[k])));
    for (size_t k = 0; k < n; k++)
        ck_assert_msg(fabsl((ld)a[k] - mp(b[k])) <= 1e-10L * (sc + 1e-300L), "case %d %s[%zu]: %.17g vs %.17Lg",
                      cs, what, k, a[k], mp(b[k]));
}

/* Every combination of rule, start, server, noise, clip (48 cases) against
 * fr_pdm_run at 128 bits on the oracle's problems (other seeds). */
START_TEST(against_ref)
{
    const int c = _i;
    fx_t fx;
    fx_make(&fx, tu_seed(11000) + (uint64_t)c, 4, 3, 5, 3);
    fx.prm.rule = c & 1 ? FR_PDM_RULE_FIXED : FR_PDM_RULE_11;
    fx.prm.start = c & 2 ? FR_PDM_START_X0 : FR_PDM_START_XI;
    fx.prm.server = c & 4 ? FR_PDM_SERVER_PART : FR_PDM_SERVER_ALL;
    fx.prm.clip = (c >> 3) & 1;
    fx.prm.noise = (c >> 4) % 3;
    if (c % 5 == 0)
        fx.prm.x0 = NULL;
    ff_pdm_trace t;
    fr_pdm_trace r;
    run_fast(&t, &fx);
    ck_assert_int_eq(fr_pdm_trace_init(&r, &fx.P, &fx.prm, 128), FR_OK);
    ck_assert_int_eq(fr_pdm_run(&r, &fx.P, &fx.prm), FR_OK);
    const size_t N = t.N, D = t.D, T = t.T, R = T * N;
    ck_assert(r.rounds == t.rounds && r.nd == t.nd && r.ndmax == t.ndmax);
    ck_assert(memcmp(t.draws, r.draws, t.nd * sizeof *t.draws) == 0);
    ck_assert(memcmp(t.part, r.part, R) == 0 && memcmp(t.capped, r.capped, R) == 0);
    ck_assert(memcmp(t.Q, r.Q, R * sizeof *t.Q) == 0);
    near_ref(t.x0, r.x0, (T + 1) * D, "x0", c);
    near_ref(t.x, r.x, N * D, "x", c);
    near_ref(t.lam, r.lam, N * D, "lam", c);
    for (size_t s = 0; s <= T; s++) {
        ld sc = mp(r.P[s]);
        ck_assert(fabsl(t.P[s] - sc) <= 1e-10L * sc && fabsl(t.Px[s] - mp(r.Px[s])) <= 1e-10L * sc
                  && fabsl(t.Plam[s] - mp(r.Plam[s])) <= 1e-10L * sc
                  && fabsl(t.Px0[s] - mp(r.Px0[s])) <= 1e-10L * sc);
        ck_assert(fabsl(t.F[s] - mp(r.F[s])) <= 1e-10L * fabsl(mp(r.F[s])));
    }
    for (size_t k = 0; k < R; k++) {
        ck_assert(fabsl(t.sigma[k] - mp(r.sigma[k])) <= 1e-10L * fabsl(mp(r.sigma[k])));
        ck_assert(t.sigma[k] != 0 || (!signbit(t.sigma[k]) && mpfr_zero_p(r.sigma[k])));
        ck_assert(isnan(t.stop2[k]) == mpfr_nan_p(r.stop2[k]));
        if (!isnan(t.stop2[k]))
            ck_assert(fabsl(t.stop2[k] - mp(r.stop2[k])) <= 1e-10L * mp(r.stop2[k]));
    }
    ff_pdm_trace_clear(&t);
    fr_pdm_trace_clear(&r);
}
END_TEST

/* Every combination of rule, start, server, noise, clip (48 cases), on
 * problems of N = 4 clients, m = 3, n = 5, T = 3, K = 2 (a fresh seed
 * each). */
START_TEST(oracle_all_options)
{
    const int c = _i;
    fx_t fx;
    fx_make(&fx, tu_seed(1000) + (uint64_t)c, 4, 3, 5, 3);
    fx.prm.rule = c & 1 ? FR_PDM_RULE_FIXED : FR_PDM_RULE_11;
    fx.prm.start = c & 2 ? FR_PDM_START_X0 : FR_PDM_START_XI;
    fx.prm.server = c & 4 ? FR_PDM_SERVER_PART : FR_PDM_SERVER_ALL;
    fx.prm.clip = (c >> 3) & 1;
    fx.prm.noise = (c >> 4) % 3;
    if (c & 8)
        fx.prm.x0 = NULL;                            /* x_0^0 = 0 with clip */
    ff_pdm_trace t;
    run_fast(&t, &fx);
    compare(&t, &fx, c);
    ff_pdm_trace_clear(&t);
}
END_TEST

/* Edges against the oracle: T = 1; K = 1; K = N; Qmax = 1; b = min d_i;
 * N = 1; m = 1; n = 1 (D odd: the last z1 unused); entries of x_0^0 up
 * to 4 in magnitude (the gradient's second branch of h, |x| > 1);
 * features times 2^520 with clip (||g||^2 overflows binary64). */
START_TEST(oracle_edges)
{
    const int c = _i;
    fx_t fx;
    uint64_t seed = tu_seed(2000) + (uint64_t)c;
    size_t N = 4, m = 3, n = 5;
    unsigned long T = 3;
    if (c == 4)
        N = 1;
    if (c == 5)
        m = 1;
    if (c == 6)
        n = 1, m = 3;
    if (c == 0)
        T = 1;
    fx_make(&fx, seed, N, m, n, T);
    fx.prm.noise = FR_PDM_NOISE_GIVEN;
    for (unsigned long s = 0; s < T; s++)
        fx.sigma[s] = 0.02;
    if (c == 1)
        fx.prm.K = 1;
    if (c == 2)
        fx.prm.K = N;
    if (c == 3) {
        fx.prm.Qmax = 1;
        fx.prm.nu = 0;
    }
    if (c == 7) {
        size_t dm = DMAXS;
        for (size_t i = 0; i < N; i++)
            dm = fx.d[i] < dm ? fx.d[i] : dm;
        fx.prm.b = dm;
        fx.prm.noise = FR_PDM_NOISE_PAPER;
        fx.prm.clip = 1;
    }
    if (c == 8)                                      /* |x| > 1: h's second branch */
        for (size_t k = 0; k < m * n; k++)
            fx.x0[k] *= 8;
    if (c == 9) {                                    /* ||g||^2 overflows: the clip's scaling */
        size_t D = 0;
        for (size_t i = 0; i < N; i++)
            D += fx.d[i];
        for (size_t k = 0; k < D * n; k++)
            fx.A[k] *= 0x1p520;
        fx.prm.clip = 1;
        fx.prm.x0 = NULL;                            /* x stays >= 0: u_t >= 0, no cancellation */
        fx.prm.keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS;   /* (21) would overflow */
    }
    ff_pdm_trace t;
    run_fast(&t, &fx);
    compare(&t, &fx, 100 + c);
    /* the round pattern: S_0 = [N], then K a round */
    for (size_t s = 0; s < T; s++) {
        size_t k = 0;
        for (size_t i = 0; i < N; i++)
            k += t.part[s * N + i];
        ck_assert_uint_eq(k, s == 0 ? N : fx.prm.K);
    }
    if (c == 3)
        for (size_t r = 0; r < T * N; r++)
            ck_assert(!t.part[r] || (t.Q[r] == 1 && t.capped[r] == (t.stop2[r] > 0)));
    ff_pdm_trace_clear(&t);
}
END_TEST

static int same_trace(const ff_pdm_trace *a, const ff_pdm_trace *b)
{
    const size_t R = a->T * a->N, D = a->D, nx0 = (a->keep & FR_PDM_KEEP_X0) ? (a->T + 1) * D : D;
    return a->rounds == b->rounds && a->nd == b->nd && memcmp(a->x0, b->x0, nx0 * 8) == 0
        && memcmp(a->x, b->x, a->N * D * 8) == 0 && memcmp(a->lam, b->lam, a->N * D * 8) == 0
        && memcmp(a->P, b->P, (a->T + 1) * 8) == 0 && memcmp(a->Px, b->Px, (a->T + 1) * 8) == 0
        && memcmp(a->Plam, b->Plam, (a->T + 1) * 8) == 0 && memcmp(a->Px0, b->Px0, (a->T + 1) * 8) == 0
        && memcmp(a->F, b->F, (a->T + 1) * 8) == 0 && memcmp(a->sigma, b->sigma, R * 8) == 0
        && memcmp(a->stop2, b->stop2, R * 8) == 0 && memcmp(a->part, b->part, R) == 0
        && memcmp(a->capped, b->capped, R) == 0 && memcmp(a->Q, b->Q, R * sizeof *a->Q) == 0
        && (a->draws == NULL || memcmp(a->draws, b->draws, a->ndmax * sizeof *a->draws) == 0);
}

/* K = N: S_t = [N] every round, so (13) is the mean over all N: SERVER_PART
 * and SERVER_ALL are the same computation, bit for bit; with noise too. */
/* E-003-13: (13) as printed divides by K while S_0 = [N].  gamma = 0 (the
 * prox is the identity), noise-free, N = 4, K = 1, one round: x_0^1 of
 * SERVER_13_AS_PRINTED is exactly N/K = 4 times SERVER_PART's (the same
 * sum in the same order, divided by 1 instead of 4: a power of two), which
 * is SERVER_ALL's in round 0; some entry is nonzero.  With K = N the rules
 * give the same trace. */
START_TEST(server_13_as_printed)
{
    fx_t fx;
    fx_make(&fx, tu_seed(3100), 4, 2, 3, 3);
    fx.P.gamma = 0;
    fx.prm.T = 1;
    fx.prm.K = 1;
    ff_pdm_trace a, b, c;
    fx.prm.server = FR_PDM_SERVER_PART;
    run_fast(&a, &fx);
    fx.prm.server = FR_PDM_SERVER_ALL;
    run_fast(&c, &fx);
    fx.prm.server = FR_PDM_SERVER_13_AS_PRINTED;
    run_fast(&b, &fx);
    const size_t D = 2 * 3;
    int nonzero = 0;
    for (size_t k = 0; k < D; k++) {
        ck_assert(4 * a.x0[D + k] == b.x0[D + k]);
        ck_assert(a.x0[D + k] == c.x0[D + k]);
        nonzero |= a.x0[D + k] != 0;
    }
    ck_assert(nonzero);
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
    ff_pdm_trace_clear(&c);
    fx.prm.T = 3;
    fx.prm.K = 4;
    fx.prm.server = FR_PDM_SERVER_PART;
    run_fast(&a, &fx);
    fx.prm.server = FR_PDM_SERVER_13_AS_PRINTED;
    run_fast(&b, &fx);
    ck_assert(same_trace(&a, &b));
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
}
END_TEST

START_TEST(k_eq_n_servers_agree)
{
    fx_t fx;
    fx_make(&fx, tu_seed(3000), 5, 2, 4, 4);
    fx.prm.K = 5;
    fx.prm.noise = FR_PDM_NOISE_GIVEN;
    ff_pdm_trace a, b;
    run_fast(&a, &fx);
    fx.prm.server = FR_PDM_SERVER_PART;
    run_fast(&b, &fx);
    ck_assert(same_trace(&a, &b));
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
}
END_TEST

/* Noise-free SERVER_ALL: x_0^{t+1} is the argmin of (8c) over all N, so
 * (21)'s Px0 at t >= 1 is rounding only; at t = 0 (x_j = x_0, lambda = 0,
 * c = 0) Px0 = gamma^2 times the nonzero entries of x_0^0.  K < N and the
 * stale uploads of SERVER_PART make it positive (E-003-P1). */
START_TEST(server_all_px0)
{
    for (int start = 0; start < 2; start++) {
        fx_t fx;
        fx_make(&fx, tu_seed(4000) + (uint64_t)start, 6, 3, 5, 4);
        fx.prm.start = start;
        fx.prm.K = 2;
        ff_pdm_trace t;
        run_fast(&t, &fx);
        const size_t D = t.D;
        double scale = 0;
        for (size_t k = 0; k < D; k++)
            scale += fx.prm.rho * fx.prm.rho * t.x0[D + k] * t.x0[D + k] + fx.P.gamma * fx.P.gamma;
        size_t nz = 0;
        for (size_t k = 0; k < D; k++)
            nz += fx.x0[k] != 0;
        ck_assert(fabs(t.Px0[0] - fx.P.gamma * fx.P.gamma * (double)nz) <= 1e-15 * t.Px0[0]);
        for (size_t s = 1; s <= fx.prm.T; s++)
            ck_assert_msg(t.Px0[s] <= 1e-25 * scale, "t = %zu: Px0 %g scale %g", s, t.Px0[s], scale);
        /* SERVER_PART with K < N: the server step is not the argmin */
        fx.prm.server = FR_PDM_SERVER_PART;
        ff_pdm_trace u;
        run_fast(&u, &fx);
        ck_assert(u.Px0[2] > 1e-12 * scale);
        ff_pdm_trace_clear(&t);
        ff_pdm_trace_clear(&u);
    }
}
END_TEST

/* sigma = 0 draws nothing: NOISE_GIVEN with all sigma[t] = 0 is NOISE_NONE
 * bit for bit (then the draws of a later positive sigma start at the
 * stream's first word: the oracle cases with sigma[0] = 0). */
START_TEST(zero_sigma_no_word)
{
    fx_t fx;
    fx_make(&fx, tu_seed(5000), 4, 3, 5, 3);
    ff_pdm_trace a, b;
    run_fast(&a, &fx);
    fx.prm.noise = FR_PDM_NOISE_GIVEN;
    for (int s = 0; s < 3; s++)
        fx.sigma[s] = s == 1 ? -0.0 : 0.0;           /* -0 is no noise too, recorded +0 */
    run_fast(&b, &fx);
    ck_assert(same_trace(&a, &b));
    for (size_t r = 0; r < 12; r++)
        ck_assert(b.sigma[r] == 0 && !signbit(b.sigma[r]));
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
}
END_TEST

/* Rule (11) exactly at nu: a run with Qmax = 1 gives client 0's first
 * ||v||^2 = s; with nu = s (and Qmax = 3) client 0 stops after one step of
 * round 0 (Q = 1, not capped); with nu one ulp below s it takes a second
 * step.  The draws of round 0 do not depend on nu. */
START_TEST(rule11_at_nu)
{
    fx_t fx;
    fx_make(&fx, tu_seed(6000), 3, 2, 4, 1);
    fx.prm.rule = FR_PDM_RULE_FIXED;
    fx.prm.Qmax = 1;
    ff_pdm_trace t;
    run_fast(&t, &fx);
    const double s = t.stop2[0];
    ck_assert(s > 0 && isfinite(s));
    ff_pdm_trace_clear(&t);
    fx.prm.rule = FR_PDM_RULE_11;
    fx.prm.Qmax = 3;
    fx.prm.nu = s;
    run_fast(&t, &fx);
    ck_assert(t.Q[0] == 1 && t.capped[0] == 0 && t.stop2[0] == s);
    ff_pdm_trace_clear(&t);
    fx.prm.nu = nextafter(s, 0);
    run_fast(&t, &fx);
    ck_assert(t.Q[0] >= 2);
    ck_assert(t.Q[0] < 3 || t.capped[0] == !(t.stop2[0] <= fx.prm.nu));
    ff_pdm_trace_clear(&t);
}
END_TEST

/* Sign of zero: x_0^0 holds +0 and -0; every zero of x_0^t, t >= 1, is +0
 * (soft-thresholding's convention), also with gamma = 0 (the identity). */
START_TEST(sign_of_zero)
{
    for (int gz = 0; gz < 2; gz++) {
        fx_t fx;
        fx_make(&fx, tu_seed(7000), 3, 2, 4, 3);
        if (gz)
            fx.P.gamma = 0;
        else
            fx.P.gamma = 0.5;                        /* many zeros */
        ff_pdm_trace t;
        run_fast(&t, &fx);
        ck_assert(signbit(t.x0[3]));                 /* x_0^0 kept as given */
        size_t zeros = 0;
        for (size_t k = t.D; k < (t.T + 1) * t.D; k++)
            if (t.x0[k] == 0) {
                zeros++;
                ck_assert(!signbit(t.x0[k]));
            }
        if (!gz)
            ck_assert(zeros > 0);
        ff_pdm_trace_clear(&t);
    }
}
END_TEST

/* A used trace: a second run (another seed, then the first again) equals a
 * fresh trace's run; argument errors (ENULL, ESIZE, ENONFINITE, EDOM, a
 * trace for another keep) leave it untouched byte for byte. */
START_TEST(trace_reuse_and_errors)
{
    fx_t fx;
    fx_make(&fx, tu_seed(8000), 4, 3, 5, 3);
    fx.prm.noise = FR_PDM_NOISE_PAPER;
    fx.prm.clip = 1;
    ff_pdm_trace a, b, snap;
    run_fast(&a, &fx);
    fx.prm.seed += 1;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &fx.prm), FR_OK);
    fx.prm.seed -= 1;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &fx.prm), FR_OK);
    run_fast(&b, &fx);
    ck_assert(same_trace(&a, &b));
    /* a byte copy of a's records */
    run_fast(&snap, &fx);
    fr_pdm_params bad = fx.prm;
    ck_assert_int_eq(ff_pdm_run(&a, NULL, &fx.prm), FR_ENULL);
    bad.eta = NULL;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_ENULL);
    bad = fx.prm;
    bad.T = 2;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_ESIZE);
    bad = fx.prm;
    bad.keep = FR_PDM_KEEP_X0;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_ESIZE);
    bad = fx.prm;
    bad.rho = INFINITY;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_ENONFINITE);
    bad = fx.prm;
    bad.delta = 1;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_EDOM);
    bad = fx.prm;
    bad.K = 5;
    ck_assert_int_eq(ff_pdm_run(&a, &fx.P, &bad), FR_ESIZE);
    ck_assert(same_trace(&a, &snap));
    ck_assert(a.T == snap.T && a.N == snap.N && a.D == snap.D && a.keep == snap.keep && a.ndmax == snap.ndmax);
    ff_pdm_trace z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(ff_pdm_run(&z, &fx.P, &fx.prm), FR_ENULL);
    ck_assert_int_eq(ff_pdm_run(NULL, &fx.P, &fx.prm), FR_ENULL);
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
    ff_pdm_trace_clear(&snap);
}
END_TEST

/* The draws: every batch has b distinct indices below d_i (the run's replay
 * of frng_sample; the oracle compares them with frng_sample itself), and
 * without KEEP_DRAWS nothing is kept (ndmax = 0) yet the run is the same. */
START_TEST(draws_kept_or_not)
{
    fx_t fx;
    fx_make(&fx, tu_seed(9000), 4, 2, 3, 3);
    ff_pdm_trace a, b;
    run_fast(&a, &fx);
    fx.prm.keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_P | FR_PDM_KEEP_F;
    run_fast(&b, &fx);
    ck_assert(b.draws == NULL && b.ndmax == 0 && b.nd == 0);
    ck_assert(memcmp(a.x, b.x, a.N * a.D * 8) == 0 && memcmp(a.P, b.P, (a.T + 1) * 8) == 0);
    ck_assert_uint_eq(a.ndmax, fx.prm.T * 4 * fx.prm.Qmax * fx.prm.b);
    ff_pdm_trace_clear(&b);
    /* no KEEP_P, KEEP_F: NaN records, same iterates */
    fx.prm.keep = 0;
    run_fast(&b, &fx);
    ck_assert(isnan(b.P[0]) && isnan(b.F[fx.prm.T]) && memcmp(a.x, b.x, a.N * a.D * 8) == 0);
    ck_assert(memcmp(b.x0, a.x0 + fx.prm.T * a.D, a.D * 8) == 0);   /* x_0^T only */
    ff_pdm_trace_clear(&a);
    ff_pdm_trace_clear(&b);
}
END_TEST

Suite *suite_fedpdm_run_fast(void)
{
    Suite *s = suite_create("fedpdm_run_fast");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, oracle_all_options, 0, 48);
    tcase_add_loop_test(tc, oracle_edges, 0, 10);
    tcase_add_loop_test(tc, against_ref, 0, 48);
    tcase_add_test(tc, k_eq_n_servers_agree);
    tcase_add_test(tc, server_all_px0);
    tcase_add_test(tc, zero_sigma_no_word);
    tcase_add_test(tc, rule11_at_nu);
    tcase_add_test(tc, sign_of_zero);
    tcase_add_test(tc, trace_reuse_and_errors);
    tcase_add_test(tc, draws_kept_or_not);
    tcase_add_test(tc, server_13_as_printed);
    suite_add_tcase(s, tc);
    return s;
}
