/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_ref.c -- fr_pdm_run (Algorithm 1 of 003 in MPFR) against an
 * independent recomputation and against the properties of the algorithm:
 *   - hand_run redoes every round from the building blocks (fr_pdm_loss,
 *     fr_prox_l1, fr_fedpdm_sensitivity, fr_gauss_sigma2_classical,
 *     fr_rng_gaussian2, fr_pdm_objective) and frng, with every other step
 *     evaluated exactly at 4096 bits (each exactness asserted) and rounded
 *     once to the working precision: the rounding that run_local.c,
 *     run.c and run_p.c document.  Traces equal bit for bit (sign of zero
 *     included) over a table of option combinations (T 1..3, N 2..4, K 1..N,
 *     Qmax 1..3, rule 11 / FIXED, start XI / X0, server ALL / 13, noise
 *     NONE / GIVEN / PAPER, clip, keep bits; 128 bits, one case at 40);
 *   - rule (11) exactly at nu: at X = 0 the first v is the batch gradient
 *     -(1/2b) sum a (dyadic), ||v||^2 a binary64 number: nu = ||v||^2 stops
 *     with Q = 1, the next double below does not;
 *   - nu = 0 caps every participant, FIXED never marks capped, a huge nu
 *     stops every one after one step;
 *   - K = N: SERVER_ALL and SERVER_PART agree bit for bit; S_0 = [N], S_t the
 *     set of frng_sample(N, K) from (seed, 1), drawn for t = 1..T-1;
 *   - noise-free SERVER_ALL: Px0 at t >= 1 below 2^(20-p) (the server step
 *     is the argmin of (8c)); SERVER_PART with K < N: Px0 far from 0;
 *   - sigma = 0 consumes no noise word (the recomputation with a noise
 *     stream advanced by one round's pairs differs, the fresh one agrees);
 *   - clip: inactive for a huge G, active for a small one with ||g|| <= G;
 *   - keep bits, the draws' layout (replayed with frng_sample), start X0
 *     vs XI (equal through round 0 only), the statuses' effect on the trace
 *     (an error after the start resets it), signed zeros. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "../test_util.h"

Suite *suite_fedpdm_run_ref(void);

#define HP 4096          /* exact evaluation (asserted) */

/* ---- a small seeded problem ---------------------------------------------- */

typedef struct {
    fr_pdm_problem P;
    size_t d[8];
    double *A;
    size_t *y;
} prob_t;

static void prob_make(prob_t *q, uint64_t seed, size_t N, size_t m, size_t n, size_t dmin, size_t dmax)
{
    ck_assert_int_eq(fr_pdm_synth_sizes(seed, N, dmin, dmax, q->d), FR_OK);
    size_t tot = 0;
    for (size_t i = 0; i < N; i++)
        tot += q->d[i];
    q->A = malloc(tot * n * sizeof *q->A);
    q->y = malloc(tot * sizeof *q->y);
    ck_assert_int_eq(fr_pdm_synth_data(seed, N, m, n, q->d, q->A, q->y), FR_OK);
    q->P = (fr_pdm_problem){.N = N, .m = m, .n = n, .d = q->d, .A = q->A, .y = q->y, .beta = 1e-2, .gamma = 1e-4};
}

static void prob_free(prob_t *q)
{
    free(q->A);
    free(q->y);
}

static fr_pdm_params base_params(const double *eta, unsigned long T, size_t K)
{
    fr_pdm_params r;
    memset(&r, 0, sizeof r);
    r.T = T;
    r.K = K;
    r.b = 2;
    r.Qmax = 2;
    r.rule = FR_PDM_RULE_11;
    r.nu = 1e-2;
    r.rho = 10;
    r.eta = eta;
    r.eps = 1;
    r.delta = 1e-5;
    r.G = 1;
    r.seed = 11;
    r.keep = FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P | FR_PDM_KEEP_F;
    return r;
}

static const double ETA[3] = {0.05, 0.04, 0.03};

/* ---- exact helpers --------------------------------------------------------- */

static mpfr_t *mv(size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    for (size_t q = 0; q < k; q++)
        mpfr_init2(a[q], p);
    return a;
}

static void mvf(mpfr_t *a, size_t k)
{
    for (size_t q = 0; q < k; q++)
        mpfr_clear(a[q]);
    free(a);
}

#define EX(call) ck_assert_int_eq((call), 0)

/* r (HP) = a + b c exactly (c may be NULL: r = a + b) */
static void hadd(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { EX(mpfr_add(r, a, b, MPFR_RNDN)); }
static void hsub(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { EX(mpfr_sub(r, a, b, MPFR_RNDN)); }
static void hmul(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { EX(mpfr_mul(r, a, b, MPFR_RNDN)); }

/* ---- the independent recomputation ------------------------------------------ */

typedef struct {
    const fr_pdm_problem *P;
    const fr_pdm_params *prm;
    size_t N, m, n, D;
    mpfr_t rho, beta, gamma, eta, nu, G;
    mpfr_t a, c, e, acc;          /* HP */
    mpfr_t *Ab;                    /* rows, 53 bits */
    size_t *yb, *idx;
    mpfr_t *g;                     /* p */
} hand_t;

static void gather(hand_t *H, size_t off, const size_t *idx, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        size_t row = off + (idx != NULL ? idx[j] : j);
        for (size_t l = 0; l < H->n; l++)
            mpfr_set_d(H->Ab[j * H->n + l], H->P->A[row * H->n + l], MPFR_RNDN);
        H->yb[j] = H->P->y[row];
    }
}

/* (21) at state s of trace h (x, lam of h; x0 given) */
static void hand_measure(hand_t *H, fr_pdm_trace *h, size_t s, mpfr_t *x0)
{
    const size_t N = H->N, D = H->D;
    const unsigned long N2 = (unsigned long)(N * N);
    mpfr_set_zero(H->acc, 1);
    for (size_t j = 0, off = 0; j < N; off += H->P->d[j], j++) {
        gather(H, off, NULL, H->P->d[j]);
        ck_assert_int_eq(fr_pdm_loss(NULL, H->g, h->x + j * D, H->m, H->n, H->Ab, H->yb, H->P->d[j], H->beta),
                         FR_OK);
        for (size_t k = 0; k < D; k++) {
            hsub(H->e, H->g[k], h->lam[j * D + k]);
            hmul(H->a, H->rho, x0[k]);
            hsub(H->e, H->e, H->a);
            hmul(H->a, H->rho, h->x[j * D + k]);
            hadd(H->e, H->e, H->a);
            hmul(H->a, H->e, H->e);
            hadd(H->acc, H->acc, H->a);
        }
    }
    mpfr_div_ui(h->Px[s], H->acc, N2, MPFR_RNDN);
    mpfr_set_zero(H->acc, 1);
    for (size_t j = 0; j < N; j++)
        for (size_t k = 0; k < D; k++) {
            hsub(H->e, x0[k], h->x[j * D + k]);
            hmul(H->a, H->e, H->e);
            hadd(H->acc, H->acc, H->a);
        }
    mpfr_div_ui(h->Plam[s], H->acc, N2, MPFR_RNDN);
    mpfr_set_zero(H->acc, 1);
    mpfr_t ng;
    mpfr_init2(ng, HP);
    EX(mpfr_mul_ui(ng, H->gamma, (unsigned long)N, MPFR_RNDN));
    for (size_t k = 0; k < D; k++) {
        mpfr_set_zero(H->c, 1);
        for (size_t j = 0; j < N; j++) {
            hadd(H->c, H->c, h->lam[j * D + k]);
            hsub(H->e, x0[k], h->x[j * D + k]);
            hmul(H->a, H->rho, H->e);
            hadd(H->c, H->c, H->a);                 /* N c_k of (21) */
        }
        int sg = mpfr_sgn(x0[k]);
        if (sg > 0)
            hadd(H->e, H->c, ng);
        else if (sg < 0)
            hsub(H->e, H->c, ng);
        else {
            mpfr_abs(H->c, H->c, MPFR_RNDN);
            hsub(H->e, H->c, ng);
            if (mpfr_sgn(H->e) < 0)
                mpfr_set_zero(H->e, 1);
        }
        hmul(H->a, H->e, H->e);
        hadd(H->acc, H->acc, H->a);
    }
    mpfr_div_ui(h->Px0[s], H->acc, N2, MPFR_RNDN);
    mpfr_clear(ng);
    hadd(H->acc, h->Px[s], h->Plam[s]);
    hadd(H->acc, H->acc, h->Px0[s]);
    mpfr_set(h->P[s], H->acc, MPFR_RNDN);
}

static void hand_state(hand_t *H, fr_pdm_trace *h, size_t s, mpfr_t *x0)
{
    if (h->keep & FR_PDM_KEEP_X0)
        for (size_t k = 0; k < H->D; k++)
            mpfr_set(h->x0[s * H->D + k], x0[k], MPFR_RNDN);
    if (h->keep & FR_PDM_KEEP_P)
        hand_measure(H, h, s, x0);
    if (h->keep & FR_PDM_KEEP_F)
        ck_assert_int_eq(fr_pdm_objective(h->F[s], x0, H->P), FR_OK);
}

/* Algorithm 1 into h (a trace from fr_pdm_trace_init, used as storage);
 * every client's noise stream first advanced by `skip` Box-Muller pairs. */
static void hand_run(fr_pdm_trace *h, const fr_pdm_problem *P, const fr_pdm_params *prm, size_t skip)
{
    hand_t H;
    const mpfr_prec_t p = mpfr_get_prec(h->x[0]);
    const size_t N = P->N, D = P->m * P->n, b = prm->b;
    H.P = P;
    H.prm = prm;
    H.N = N;
    H.m = P->m;
    H.n = P->n;
    H.D = D;
    mpfr_inits2(53, H.rho, H.beta, H.gamma, H.eta, H.nu, H.G, (mpfr_ptr)0);
    mpfr_inits2(HP, H.a, H.c, H.e, H.acc, (mpfr_ptr)0);
    mpfr_set_d(H.rho, prm->rho, MPFR_RNDN);
    mpfr_set_d(H.beta, P->beta, MPFR_RNDN);
    mpfr_set_d(H.gamma, P->gamma, MPFR_RNDN);
    mpfr_set_d(H.nu, prm->nu, MPFR_RNDN);
    mpfr_set_d(H.G, prm->G, MPFR_RNDN);
    size_t dmax = 0;
    for (size_t i = 0; i < N; i++)
        dmax = P->d[i] > dmax ? P->d[i] : dmax;
    H.Ab = mv(dmax * P->n, 53);
    H.yb = malloc(dmax * sizeof *H.yb);
    H.idx = malloc(b * sizeof *H.idx);
    H.g = mv(D, p);
    mpfr_t *x0c = mv(D, p), *x0n = mv(D, p), *u = mv(D, p), *xr = mv(D, p), *v = mv(D, p),
           *z = mv(D + 1, p), *yt = mv(N * D, p);
    mpfr_t s, sig, sig2, nrm, cc;
    mpfr_inits2(p, s, sig, sig2, nrm, cc, (mpfr_ptr)0);
    frng_t gs, *gb = malloc(N * sizeof *gb), *gn = malloc(N * sizeof *gn);
    size_t *off = malloc(N * sizeof *off), *sel = malloc(prm->K * sizeof *sel);

    for (size_t k = 0; k < D; k++) {
        if (prm->x0 != NULL)
            mpfr_set_d(x0c[k], prm->x0[k], MPFR_RNDN);
        else
            mpfr_set_zero(x0c[k], 1);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < D; k++) {
            mpfr_set(h->x[i * D + k], x0c[k], MPFR_RNDN);
            mpfr_set_zero(h->lam[i * D + k], 1);
            mpfr_set(yt[i * D + k], x0c[k], MPFR_RNDN);
        }
    frng_init(&gs, prm->seed, 1);
    for (size_t i = 0, o = 0; i < N; o += P->d[i], i++) {
        off[i] = o;
        frng_init(&gb[i], prm->seed, 2 + (uint64_t)i);
        frng_init(&gn[i], prm->seed, ((uint64_t)1 << 32) + i);
        for (size_t q = 0; q < skip; q++)
            ck_assert_int_eq(fr_rng_gaussian2(z[0], z[1], &gn[i]), FR_OK);
    }
    h->nd = 0;
    hand_state(&H, h, 0, x0c);
    for (unsigned long t = 0; t < prm->T; t++) {
        unsigned char *part = h->part + t * N;
        memset(part, 0, N);
        if (t == 0)
            memset(part, 1, N);
        else {
            ck_assert_int_eq(frng_sample(&gs, N, prm->K, sel), FR_OK);
            for (size_t j = 0; j < prm->K; j++)
                part[sel[j]] = 1;
        }
        mpfr_set_d(H.eta, prm->eta[t], MPFR_RNDN);
        for (size_t i = 0; i < N; i++) {
            size_t rec = t * N + i;
            mpfr_t *x = h->x + i * D, *lam = h->lam + i * D;
            if (!part[i]) {
                mpfr_set_zero(h->sigma[rec], 1);
                mpfr_set_nan(h->stop2[rec]);
                h->Q[rec] = 0;
                h->capped[rec] = 0;
                continue;
            }
            for (size_t k = 0; k < D; k++)
                mpfr_set(xr[k], prm->start == FR_PDM_START_XI ? x[k] : x0c[k], MPFR_RNDN);
            unsigned long Q = prm->Qmax;
            int held = 0;
            for (unsigned long r = 0; r < prm->Qmax && !held; r++) {
                ck_assert_int_eq(frng_sample(&gb[i], P->d[i], b, H.idx), FR_OK);
                if (h->keep & FR_PDM_KEEP_DRAWS)
                    for (size_t j = 0; j < b; j++)
                        h->draws[h->nd++] = H.idx[j];
                gather(&H, off[i], H.idx, b);
                ck_assert_int_eq(fr_pdm_loss(NULL, H.g, xr, P->m, P->n, H.Ab, H.yb, b, H.beta), FR_OK);
                if (prm->clip) {
                    mpfr_set_zero(H.acc, 1);
                    for (size_t k = 0; k < D; k++) {
                        hmul(H.a, H.g[k], H.g[k]);
                        hadd(H.acc, H.acc, H.a);
                    }
                    hmul(H.a, H.G, H.G);
                    if (mpfr_cmp(H.acc, H.a) > 0) {
                        mpfr_sqrt(nrm, H.acc, MPFR_RNDU);
                        mpfr_div(cc, H.G, nrm, MPFR_RNDD);
                        for (size_t k = 0; k < D; k++)
                            mpfr_mul(H.g[k], H.g[k], cc, MPFR_RNDZ);
                    }
                }
                mpfr_set_zero(H.acc, 1);
                for (size_t k = 0; k < D; k++) {       /* v = g - lam + rho (x - x0) */
                    hsub(H.e, H.g[k], lam[k]);
                    hmul(H.a, H.rho, xr[k]);
                    hadd(H.e, H.e, H.a);
                    hmul(H.a, H.rho, x0c[k]);
                    hsub(H.e, H.e, H.a);
                    mpfr_set(v[k], H.e, MPFR_RNDN);
                    hmul(H.a, v[k], v[k]);
                    hadd(H.acc, H.acc, H.a);
                }
                mpfr_set(h->stop2[rec], H.acc, MPFR_RNDN);
                for (size_t k = 0; k < D; k++) {       /* (10a) */
                    hmul(H.a, H.eta, v[k]);
                    hsub(H.e, xr[k], H.a);
                    mpfr_set(xr[k], H.e, MPFR_RNDN);
                }
                if (prm->rule == FR_PDM_RULE_11 && mpfr_cmp(H.acc, H.nu) <= 0) {
                    Q = r + 1;
                    held = 1;
                }
            }
            for (size_t k = 0; k < D; k++) {
                mpfr_set(x[k], xr[k], MPFR_RNDN);      /* (10b) */
                hmul(H.a, H.rho, x0c[k]);              /* (10c) */
                hadd(H.e, lam[k], H.a);
                hmul(H.a, H.rho, x[k]);
                hsub(H.e, H.e, H.a);
                mpfr_set(lam[k], H.e, MPFR_RNDN);
                hsub(H.e, H.a, lam[k]);                /* (10d): (rho x - lam) / rho */
                mpfr_div(yt[i * D + k], H.e, H.rho, MPFR_RNDN);
            }
            if (prm->noise == FR_PDM_NOISE_NONE)
                mpfr_set_zero(sig, 1);
            else if (prm->noise == FR_PDM_NOISE_GIVEN) {
                mpfr_set_d(sig, prm->sigma[t], MPFR_RNDU);
                if (mpfr_zero_p(sig))
                    mpfr_set_zero(sig, 1);
            } else {
                ck_assert_int_eq(fr_fedpdm_sensitivity(s, H.eta, H.rho, Q, H.G), FR_OK);
                mpfr_t e1, d1;
                mpfr_inits2(53, e1, d1, (mpfr_ptr)0);
                mpfr_set_d(e1, prm->eps, MPFR_RNDN);
                mpfr_set_d(d1, prm->delta, MPFR_RNDN);
                ck_assert_int_eq(fr_gauss_sigma2_classical(sig2, e1, d1, s), FR_OK);
                mpfr_sqrt(sig, sig2, MPFR_RNDU);
                mpfr_clears(e1, d1, (mpfr_ptr)0);
            }
            if (mpfr_sgn(sig) > 0) {
                for (size_t j = 0; 2 * j < D; j++)
                    ck_assert_int_eq(fr_rng_gaussian2(z[2 * j], z[2 * j + 1], &gn[i]), FR_OK);
                for (size_t k = 0; k < D; k++) {
                    hmul(H.a, sig, z[k]);
                    hadd(H.e, yt[i * D + k], H.a);
                    mpfr_set(yt[i * D + k], H.e, MPFR_RNDN);
                }
            }
            h->Q[rec] = Q;
            h->capped[rec] = prm->rule == FR_PDM_RULE_11 && !held;
            mpfr_set(h->sigma[rec], sig, MPFR_RNDN);
        }
        /* server */
        for (size_t k = 0; k < D; k++) {
            unsigned long c = 0;
            mpfr_set_zero(H.acc, 1);
            int first = 1;
            for (size_t i = 0; i < N; i++)
                if (prm->server == FR_PDM_SERVER_ALL || part[i]) {
                    if (first)
                        mpfr_set(H.acc, yt[i * D + k], MPFR_RNDN);   /* exact; keeps -0 */
                    else
                        hadd(H.acc, H.acc, yt[i * D + k]);
                    first = 0;
                    c++;
                }
            mpfr_div_ui(u[k], H.acc, c, MPFR_RNDN);
        }
        ck_assert_int_eq(fr_prox_l1(x0n, u, D, H.gamma, H.rho), FR_OK);
        for (size_t k = 0; k < D; k++)
            mpfr_swap(x0c[k], x0n[k]);
        hand_state(&H, h, t + 1, x0c);
    }
    h->rounds = prm->T;
    if (!(h->keep & FR_PDM_KEEP_X0))
        for (size_t k = 0; k < D; k++)
            mpfr_set(h->x0[k], x0c[k], MPFR_RNDN);
    mpfr_clears(H.rho, H.beta, H.gamma, H.eta, H.nu, H.G, H.a, H.c, H.e, H.acc, s, sig, sig2, nrm, cc,
                (mpfr_ptr)0);
    mvf(H.Ab, dmax * P->n);
    mvf(H.g, D);
    mvf(x0c, D);
    mvf(x0n, D);
    mvf(u, D);
    mvf(xr, D);
    mvf(v, D);
    mvf(z, D + 1);
    mvf(yt, N * D);
    free(H.yb);
    free(H.idx);
    free(gb);
    free(gn);
    free(off);
    free(sel);
}

/* ---- comparisons ----------------------------------------------------------- */

static int mp_same(mpfr_srcptr a, mpfr_srcptr b)
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b))
        return mpfr_nan_p(a) && mpfr_nan_p(b);
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static int vec_same(mpfr_t *a, mpfr_t *b, size_t k)
{
    for (size_t q = 0; q < k; q++)
        if (!mp_same(a[q], b[q]))
            return 0;
    return 1;
}

static size_t nx0(const fr_pdm_trace *t)
{
    return (t->keep & FR_PDM_KEEP_X0) ? (t->T + 1) * t->D : t->D;
}

/* which part differs (NULL: none) */
static const char *trace_diff(const fr_pdm_trace *a, const fr_pdm_trace *b)
{
    if (a->T != b->T || a->N != b->N || a->D != b->D || a->keep != b->keep || a->ndmax != b->ndmax)
        return "sizes";
    if (a->rounds != b->rounds || a->nd != b->nd)
        return "rounds/nd";
    size_t R = a->T * a->N, S = a->T + 1;
    if (memcmp(a->part, b->part, R) || memcmp(a->capped, b->capped, R)
        || memcmp(a->Q, b->Q, R * sizeof *a->Q))
        return "part/Q/capped";
    if (a->ndmax && memcmp(a->draws, b->draws, a->ndmax * sizeof *a->draws))
        return "draws";
    if (!vec_same(a->x0, b->x0, nx0(a)))
        return "x0";
    if (!vec_same(a->x, b->x, a->N * a->D) || !vec_same(a->lam, b->lam, a->N * a->D))
        return "x/lam";
    if (!vec_same(a->sigma, b->sigma, R))
        return "sigma";
    if (!vec_same(a->stop2, b->stop2, R))
        return "stop2";
    if (!vec_same(a->Px, b->Px, S) || !vec_same(a->Plam, b->Plam, S) || !vec_same(a->Px0, b->Px0, S)
        || !vec_same(a->P, b->P, S))
        return "P";
    if (!vec_same(a->F, b->F, S))
        return "F";
    return NULL;
}

static void run_ok(fr_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm, mpfr_prec_t p)
{
    ck_assert_int_eq(fr_pdm_trace_init(t, P, prm, p), FR_OK);
    ck_assert_int_eq(fr_pdm_run(t, P, prm), FR_OK);
}

/* E-003-13: (13) as printed divides by K while S_0 = [N].  gamma = 0 (the
 * prox is the identity), noise-free, N = 4, K = 1: x_0^1 of
 * SERVER_13_AS_PRINTED is exactly N/K = 4 times x_0^1 of SERVER_PART, which
 * is SERVER_ALL's in round 0 (both the mean of all N: one rounding of the
 * exact sum, scaled by a power of two); some entry is nonzero.  With K = N
 * the three rules give the same trace over three rounds. */
START_TEST(server_13_as_printed)
{
    prob_t q;
    prob_make(&q, 12, 4, 2, 3, 5, 8);
    q.P.gamma = 0;
    const mpfr_prec_t p = 128;
    fr_pdm_params prm = base_params(ETA, 1, 1);
    fr_pdm_trace a, b, c;
    prm.server = FR_PDM_SERVER_PART;
    run_ok(&a, &q.P, &prm, p);
    prm.server = FR_PDM_SERVER_ALL;
    run_ok(&c, &q.P, &prm, p);
    prm.server = FR_PDM_SERVER_13_AS_PRINTED;
    run_ok(&b, &q.P, &prm, p);
    const size_t D = a.D;
    int nonzero = 0;
    mpfr_t w;
    mpfr_init2(w, p);
    for (size_t k = 0; k < D; k++) {
        mpfr_mul_ui(w, a.x0[D + k], 4, MPFR_RNDN);          /* exact */
        ck_assert(mp_same(w, b.x0[D + k]));
        ck_assert(mp_same(a.x0[D + k], c.x0[D + k]));
        nonzero |= !mpfr_zero_p(w);
    }
    ck_assert(nonzero);
    mpfr_clear(w);
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    fr_pdm_trace_clear(&c);
    prm = base_params(ETA, 3, 4);
    prm.server = FR_PDM_SERVER_PART;
    run_ok(&a, &q.P, &prm, p);
    prm.server = FR_PDM_SERVER_13_AS_PRINTED;
    run_ok(&b, &q.P, &prm, p);
    ck_assert_msg(trace_diff(&a, &b) == NULL, "K = N: %s", trace_diff(&a, &b));
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    prob_free(&q);
}
END_TEST

/* fr_pdm_run vs hand_run; returns nothing, asserts equality */
static void check_hand(const fr_pdm_problem *P, const fr_pdm_params *prm, mpfr_prec_t p, const char *name)
{
    fr_pdm_trace r, h;
    run_ok(&r, P, prm, p);
    ck_assert_int_eq(fr_pdm_trace_init(&h, P, prm, p), FR_OK);
    hand_run(&h, P, prm, 0);
    const char *d = trace_diff(&r, &h);
    ck_assert_msg(d == NULL, "%s: %s differs", name, d);
    fr_pdm_trace_clear(&r);
    fr_pdm_trace_clear(&h);
}

/* ---- tests ------------------------------------------------------------------ */

START_TEST(hand_table)
{
    static const double sg[3] = {0.1, 0, 0.05};
    static const double x0g[6] = {-0.0, 0.25, 0.0, -0.5, 1e-3, 0.0};
    struct {
        size_t N, K;
        unsigned long T, Q;
        int rule;
        double nu;
        int start, server, noise, clip;
        double G;
        unsigned keep;
        int x0;
        mpfr_prec_t p;
    } C[] = {
        {2, 1, 3, 2, FR_PDM_RULE_11, 1e-2, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 0, 1, 15, 0, 128},
        {3, 2, 3, 3, FR_PDM_RULE_FIXED, 0, FR_PDM_START_X0, FR_PDM_SERVER_PART, FR_PDM_NOISE_GIVEN, 1, 0.05, 15, 0, 128},
        {4, 4, 2, 2, FR_PDM_RULE_11, 0, FR_PDM_START_XI, FR_PDM_SERVER_PART, FR_PDM_NOISE_PAPER, 1, 1, 15, 0, 128},
        {4, 1, 3, 1, FR_PDM_RULE_FIXED, 0, FR_PDM_START_X0, FR_PDM_SERVER_ALL, FR_PDM_NOISE_PAPER, 0, 0.5,
         FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS, 0, 128},
        {3, 1, 1, 3, FR_PDM_RULE_11, 1e300, FR_PDM_START_XI, FR_PDM_SERVER_PART, FR_PDM_NOISE_NONE, 0, 1, 0, 0, 128},
        {2, 2, 2, 2, FR_PDM_RULE_11, 3e-2, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_GIVEN, 0, 1,
         FR_PDM_KEEP_P | FR_PDM_KEEP_F, 1, 128},
        {3, 2, 3, 2, FR_PDM_RULE_11, 2e-2, FR_PDM_START_X0, FR_PDM_SERVER_PART, FR_PDM_NOISE_GIVEN, 1, 0.1, 15, 1, 40},
        {4, 3, 3, 2, FR_PDM_RULE_FIXED, 0, FR_PDM_START_XI, FR_PDM_SERVER_ALL, FR_PDM_NOISE_NONE, 1, 0.02, 15, 1, 128},
    };
    for (size_t c = 0; c < sizeof C / sizeof C[0]; c++) {
        prob_t q;
        prob_make(&q, 100 + c, C[c].N, 2, 3, 5, 8);
        fr_pdm_params prm = base_params(ETA, C[c].T, C[c].K);
        prm.Qmax = C[c].Q;
        prm.rule = C[c].rule;
        prm.nu = C[c].nu;
        prm.start = C[c].start;
        prm.server = C[c].server;
        prm.noise = C[c].noise;
        prm.sigma = sg;
        prm.clip = C[c].clip;
        prm.G = C[c].G;
        prm.keep = C[c].keep;
        prm.x0 = C[c].x0 ? x0g : NULL;
        prm.seed = 1000 + c;
        char name[32];
        snprintf(name, sizeof name, "case %zu", c);
        check_hand(&q.P, &prm, C[c].p, name);
        prob_free(&q);
    }
}
END_TEST

/* rule (11) exactly at nu: X = 0, lambda = 0 give v = g = -(1/2b) sum_{t in B,
 * y_t = k} a_t (the beta term vanishes at 0); a multiple of 2^-10, so
 * ||v||^2 < 2^1 is a multiple of 2^-20: exact in binary64. */
START_TEST(rule11_boundary)
{
    prob_t q;
    prob_make(&q, 7, 2, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 1, 2);
    prm.keep = FR_PDM_KEEP_DRAWS;
    frng_t g;
    size_t idx[2];
    frng_init(&g, prm.seed, FR_PDM_STREAM_BATCH + 0);
    ck_assert_int_eq(frng_sample(&g, q.d[0], 2, idx), FR_OK);
    double gr[6] = {0}, nv2 = 0;
    for (size_t j = 0; j < 2; j++)
        for (size_t l = 0; l < 3; l++)
            gr[q.y[idx[j]] * 3 + l] -= q.A[idx[j] * 3 + l] / 4;
    for (size_t k = 0; k < 6; k++)
        nv2 += gr[k] * gr[k];                          /* exact (see above) */
    ck_assert(nv2 > 0);
    fr_pdm_trace t;
    prm.nu = nv2;
    run_ok(&t, &q.P, &prm, 128);
    ck_assert_uint_eq(t.Q[0], 1);
    ck_assert_int_eq(t.capped[0], 0);
    ck_assert(mpfr_cmp_d(t.stop2[0], nv2) == 0);       /* the recorded ||v||^2 is nu */
    ck_assert_uint_eq(t.draws[0], idx[0]);
    ck_assert_uint_eq(t.draws[1], idx[1]);
    fr_pdm_trace_clear(&t);
    prm.nu = nextafter(nv2, 0);
    run_ok(&t, &q.P, &prm, 128);
    ck_assert_uint_eq(t.Q[0], 2);                      /* went on to step 2 */
    ck_assert(mpfr_cmp_d(t.stop2[0], prm.nu) <= 0 ? t.capped[0] == 0 : t.capped[0] == 1);
    fr_pdm_trace_clear(&t);
    prob_free(&q);
}
END_TEST

START_TEST(caps_and_fixed)
{
    prob_t q;
    prob_make(&q, 8, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 3, 2);
    prm.Qmax = 3;
    fr_pdm_trace t;
    for (int mode = 0; mode < 3; mode++) {
        prm.rule = mode == 2 ? FR_PDM_RULE_FIXED : FR_PDM_RULE_11;
        prm.nu = mode == 0 ? 0 : mode == 1 ? 1e300 : NAN;     /* nu unread under FIXED */
        run_ok(&t, &q.P, &prm, 128);
        for (size_t r = 0; r < t.T * t.N; r++) {
            if (!t.part[r]) {
                ck_assert(t.Q[r] == 0 && t.capped[r] == 0 && mpfr_nan_p(t.stop2[r]));
                continue;
            }
            ck_assert(mpfr_number_p(t.stop2[r]));
            if (mode == 0)
                ck_assert(t.Q[r] == 3 && t.capped[r] == 1 && mpfr_sgn(t.stop2[r]) > 0);
            if (mode == 1)
                ck_assert(t.Q[r] == 1 && t.capped[r] == 0);
            if (mode == 2)
                ck_assert(t.Q[r] == 3 && t.capped[r] == 0);
        }
        fr_pdm_trace_clear(&t);
    }
    prob_free(&q);
}
END_TEST

START_TEST(servers_and_selection)
{
    static const double sg[3] = {0.2, 0.1, 0.3};
    prob_t q;
    prob_make(&q, 9, 4, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 3, 4);
    fr_pdm_trace a, b;
    for (int noise = 0; noise < 3; noise++) {       /* K = N: (13) is (8c) */
        prm.noise = noise;
        prm.sigma = sg;
        prm.K = 4;
        prm.server = FR_PDM_SERVER_ALL;
        run_ok(&a, &q.P, &prm, 128);
        prm.server = FR_PDM_SERVER_PART;
        run_ok(&b, &q.P, &prm, 128);
        ck_assert_ptr_null(trace_diff(&a, &b));
        for (size_t r = 0; r < a.T * a.N; r++)
            ck_assert_int_eq(a.part[r], 1);
        fr_pdm_trace_clear(&a);
        fr_pdm_trace_clear(&b);
    }
    /* K < N: S_0 = [N]; S_t the set of frng_sample(N, K) of (seed, 1), t >= 1 */
    prm.noise = FR_PDM_NOISE_NONE;
    prm.K = 2;
    prm.server = FR_PDM_SERVER_ALL;
    run_ok(&a, &q.P, &prm, 128);
    frng_t g;
    frng_init(&g, prm.seed, FR_PDM_STREAM_SELECT);
    for (size_t t = 0; t < a.T; t++) {
        unsigned char want[4] = {1, 1, 1, 1};
        if (t > 0) {
            size_t s[2];
            ck_assert_int_eq(frng_sample(&g, 4, 2, s), FR_OK);
            memset(want, 0, 4);
            want[s[0]] = want[s[1]] = 1;
        }
        ck_assert(memcmp(a.part + t * 4, want, 4) == 0);
    }
    fr_pdm_trace_clear(&a);
    prob_free(&q);
}
END_TEST

/* (21)'s Px0 certifies the server step: 0 (up to rounding) for the argmin
 * of (8c); far from 0 for (13) with stale uploads (E-003-P1). */
START_TEST(px0_server)
{
    prob_t q;
    prob_make(&q, 10, 4, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 3, 2);
    fr_pdm_trace a;
    const mpfr_prec_t p = 128;
    for (int sv = 0; sv < 2; sv++) {
        prm.server = sv;
        run_ok(&a, &q.P, &prm, p);
        ck_assert(mpfr_zero_p(a.Px0[0]));                     /* x0 = x_i, lam = 0, x0 = 0 */
        ck_assert(mpfr_zero_p(a.Plam[0]));
        ck_assert(mpfr_cmp_si_2exp(a.Px0[1], 1, 20 - p) <= 0); /* round 0: all N, both servers */
        double mx = 0;
        for (size_t t = 1; t <= a.T; t++) {
            if (sv == FR_PDM_SERVER_ALL)
                ck_assert(mpfr_cmp_si_2exp(a.Px0[t], 1, 20 - p) <= 0);
            mx = fmax(mx, mpfr_get_d(a.Px0[t], MPFR_RNDN));
        }
        if (sv == FR_PDM_SERVER_PART)
            ck_assert_msg(mx > 1e-12, "Px0 max %g", mx);
        fr_pdm_trace_clear(&a);
    }
    prob_free(&q);
}
END_TEST

START_TEST(sigma_zero_no_word)
{
    static const double sg[2] = {0, 0.25};
    static const double sz[2] = {0, -0.0};
    prob_t q;
    prob_make(&q, 12, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 2, 3);
    prm.noise = FR_PDM_NOISE_GIVEN;
    prm.sigma = sg;
    fr_pdm_trace r, h;
    run_ok(&r, &q.P, &prm, 128);
    ck_assert_int_eq(fr_pdm_trace_init(&h, &q.P, &prm, 128), FR_OK);
    hand_run(&h, &q.P, &prm, 0);                     /* round 1's noise: the stream's first pairs */
    ck_assert_ptr_null(trace_diff(&r, &h));
    hand_run(&h, &q.P, &prm, 3);                     /* as if round 0 had drawn its ceil(6/2) pairs */
    ck_assert(!vec_same(r.x0 + 2 * 6, h.x0 + 2 * 6, 6));
    ck_assert(vec_same(r.x0, h.x0, 2 * 6));          /* rounds before the noise agree */
    fr_pdm_trace_clear(&h);
    /* sigma = 0 (and -0) throughout: the noise-free run, sigma records +0 */
    prm.sigma = sz;
    ck_assert_int_eq(fr_pdm_trace_init(&h, &q.P, &prm, 128), FR_OK);
    ck_assert_int_eq(fr_pdm_run(&h, &q.P, &prm), FR_OK);
    fr_pdm_trace_clear(&r);
    prm.noise = FR_PDM_NOISE_NONE;
    run_ok(&r, &q.P, &prm, 128);
    ck_assert_ptr_null(trace_diff(&r, &h));
    for (size_t k = 0; k < r.T * r.N; k++)
        ck_assert(mpfr_zero_p(h.sigma[k]) && !mpfr_signbit(h.sigma[k]));
    fr_pdm_trace_clear(&r);
    fr_pdm_trace_clear(&h);
    prob_free(&q);
}
END_TEST

START_TEST(clipping)
{
    prob_t q;
    prob_make(&q, 13, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 2, 2);
    fr_pdm_trace a, b;
    run_ok(&a, &q.P, &prm, 128);
    prm.clip = 1;
    prm.G = 1e300;                                    /* inactive */
    run_ok(&b, &q.P, &prm, 128);
    ck_assert_ptr_null(trace_diff(&a, &b));
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    /* active: T = 1, Qmax = 1, FIXED: x_i^1 = x_0^0 - eta g_clip, ||g_clip|| <= G */
    prm.T = 1;
    prm.Qmax = 1;
    prm.rule = FR_PDM_RULE_FIXED;
    prm.G = 1e-3;
    run_ok(&a, &q.P, &prm, 128);
    prm.clip = 0;
    run_ok(&b, &q.P, &prm, 128);
    mpfr_t s, d, e, hi, lo;
    mpfr_inits2(HP, s, d, e, hi, lo, (mpfr_ptr)0);
    mpfr_set_d(hi, 1e-3, MPFR_RNDN);
    mpfr_sqr(hi, hi, MPFR_RNDN);                      /* G^2, exact */
    mpfr_mul_2si(lo, hi, -100, MPFR_RNDN);
    mpfr_sub(lo, hi, lo, MPFR_RNDN);                  /* G^2 (1 - 2^-100) */
    mpfr_mul_2si(e, hi, -100, MPFR_RNDN);
    mpfr_add(hi, hi, e, MPFR_RNDN);                   /* G^2 (1 + 2^-100) */
    for (size_t i = 0; i < 3; i++) {
        mpfr_set_zero(s, 1);
        for (size_t k = 0; k < 6; k++) {
            mpfr_div_d(d, a.x[i * 6 + k], -ETA[0], MPFR_RNDN);   /* ~ g_clip, x_0^0 = 0 */
            mpfr_sqr(e, d, MPFR_RNDN);
            mpfr_add(s, s, e, MPFR_RNDN);
        }
        /* ||g|| <= G, the step's rounding aside (relative 2^-120) */
        ck_assert(mpfr_cmp(s, hi) <= 0);
        ck_assert(mpfr_cmp(s, lo) >= 0);                        /* the gradients exceed G: on the sphere */
        ck_assert(mpfr_cmp_d(b.stop2[i], 1e-6) > 0);            /* unclipped ||g||^2 > G^2 */
    }
    mpfr_clears(s, d, e, hi, lo, (mpfr_ptr)0);
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    prob_free(&q);
}
END_TEST

START_TEST(keep_bits_and_draws)
{
    prob_t q;
    prob_make(&q, 14, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 3, 2);
    prm.Qmax = 3;
    prm.nu = 8e-2;
    fr_pdm_trace a, b;
    run_ok(&a, &q.P, &prm, 128);
    prm.keep = 0;
    run_ok(&b, &q.P, &prm, 128);
    ck_assert(vec_same(b.x0, a.x0 + 3 * 6, 6));          /* x_0^T */
    ck_assert(vec_same(b.x, a.x, 18) && vec_same(b.lam, a.lam, 18));
    ck_assert(b.ndmax == 0 && b.nd == 0);
    for (size_t t = 0; t <= 3; t++) {
        ck_assert(mpfr_nan_p(b.P[t]) && mpfr_nan_p(b.Px[t]) && mpfr_nan_p(b.Plam[t]) && mpfr_nan_p(b.Px0[t])
                  && mpfr_nan_p(b.F[t]));
        ck_assert(mpfr_number_p(a.P[t]) && mpfr_number_p(a.F[t]));
        mpfr_t F;
        mpfr_init2(F, 128);
        ck_assert_int_eq(fr_pdm_objective(F, a.x0 + t * 6, &q.P), FR_OK);
        ck_assert(mp_same(F, a.F[t]));
        mpfr_clear(F);
    }
    /* draws: round t, participants in increasing i, steps r, b each */
    frng_t g[3];
    size_t idx[2], pos = 0, want = 0;
    for (size_t i = 0; i < 3; i++)
        frng_init(&g[i], prm.seed, FR_PDM_STREAM_BATCH + i);
    ck_assert_uint_eq(a.ndmax, 3 * 3 * 3 * 2);
    for (size_t t = 0; t < 3; t++)
        for (size_t i = 0; i < 3; i++)
            for (unsigned long r = 0; r < a.Q[t * 3 + i]; r++) {
                ck_assert_int_eq(frng_sample(&g[i], q.d[i], 2, idx), FR_OK);
                ck_assert(a.draws[pos] == idx[0] && a.draws[pos + 1] == idx[1]);
                pos += 2;
                want += 2;
            }
    ck_assert_uint_eq(a.nd, want);
    for (size_t k = a.nd; k < a.ndmax; k++)
        ck_assert_uint_eq(a.draws[k], SIZE_MAX);
    int some_short = 0, some_capped = 0;
    for (size_t r = 0; r < 9; r++) {
        some_short |= a.part[r] && a.Q[r] < 3;
        some_capped |= a.capped[r];
    }
    ck_assert(some_short && some_capped);              /* rule 11 shortened some loops, not all */
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    prob_free(&q);
}
END_TEST

START_TEST(start_rounds)
{
    prob_t q;
    prob_make(&q, 15, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 1, 3);
    fr_pdm_trace a, b;
    for (unsigned long T = 1; T <= 2; T++) {
        prm.T = T;
        prm.start = FR_PDM_START_XI;
        run_ok(&a, &q.P, &prm, 128);
        prm.start = FR_PDM_START_X0;
        run_ok(&b, &q.P, &prm, 128);
        if (T == 1)
            ck_assert_ptr_null(trace_diff(&a, &b));   /* x_i^0 = x_0^0 */
        else {
            ck_assert(vec_same(a.x0, b.x0, 2 * 6));
            ck_assert(!vec_same(a.x0 + 12, b.x0 + 12, 6));
            ck_assert(!vec_same(a.x, b.x, 18));
        }
        fr_pdm_trace_clear(&a);
        fr_pdm_trace_clear(&b);
    }
    prob_free(&q);
}
END_TEST

START_TEST(statuses_and_zeros)
{
    static const double x0g[6] = {-0.0, 0.0, 0.5, -0.0, -0.25, 0.0};
    prob_t q;
    prob_make(&q, 16, 2, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 2, 1);
    prm.x0 = x0g;
    fr_pdm_trace a, b, z;
    run_ok(&a, &q.P, &prm, 128);
    ck_assert_int_eq(fr_pdm_trace_init(&b, &q.P, &prm, 128), FR_OK);
    hand_run(&b, &q.P, &prm, 0);
    ck_assert_ptr_null(trace_diff(&a, &b));
    /* signed zeros: x_0^0 as given; the prox's zeros are +0; absent sigma +0 */
    ck_assert(mpfr_zero_p(a.x0[0]) && mpfr_signbit(a.x0[0]) && !mpfr_signbit(a.x0[1]));
    for (size_t k = 6; k < 18; k++)
        if (mpfr_zero_p(a.x0[k]))
            ck_assert(!mpfr_signbit(a.x0[k]));
    for (size_t r = 0; r < 4; r++)
        ck_assert(mpfr_zero_p(a.sigma[r]) && !mpfr_signbit(a.sigma[r]));
    /* a large gamma zeroes x_0^1: +0 */
    prob_t q2 = q;
    q2.P.gamma = 1e3;
    fr_pdm_trace c;
    run_ok(&c, &q2.P, &prm, 128);
    for (size_t k = 6; k < 18; k++)
        ck_assert(mpfr_zero_p(c.x0[k]) && !mpfr_signbit(c.x0[k]));
    fr_pdm_trace_clear(&c);
    /* argument errors leave the trace as it was; a reused trace gives the same run */
    fr_pdm_params bad = prm;
    bad.rho = -1;
    ck_assert_int_eq(fr_pdm_run(&a, &q.P, &bad), FR_EDOM);
    ck_assert_ptr_null(trace_diff(&a, &b));
    bad = prm;
    bad.T = 3;                                         /* a trace for other sizes */
    double eta3[3] = {0.05, 0.04, 0.03};
    bad.eta = eta3;
    ck_assert_int_eq(fr_pdm_run(&a, &q.P, &bad), FR_ESIZE);
    bad = prm;
    bad.keep = FR_PDM_KEEP_X0;
    ck_assert_int_eq(fr_pdm_run(&a, &q.P, &bad), FR_ESIZE);
    ck_assert_ptr_null(trace_diff(&a, &b));
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(fr_pdm_run(&z, &q.P, &prm), FR_ENULL);
    ck_assert_int_eq(fr_pdm_run(NULL, &q.P, &prm), FR_ENULL);
    ck_assert_int_eq(fr_pdm_trace_init(&z, &q.P, &prm, 0), FR_EPREC);
    fr_pdm_trace_clear(&z);
    fr_pdm_trace_clear(NULL);
    ck_assert_int_eq(fr_pdm_run(&a, &q.P, &prm), FR_OK);
    ck_assert_ptr_null(trace_diff(&a, &b));
    /* a fresh trace: every value NaN, counts 0 */
    ck_assert_int_eq(fr_pdm_trace_init(&z, &q.P, &prm, 64), FR_OK);
    ck_assert(z.rounds == 0 && z.nd == 0 && mpfr_nan_p(z.x0[0]) && mpfr_nan_p(z.sigma[0]) && z.Q[0] == 0);
    ck_assert_int_eq(mpfr_get_prec(z.x[0]), 64);
    fr_pdm_trace_clear(&z);
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    prob_free(&q);
}
END_TEST

/* S_t, the draws and (away from nu) Q_i^t do not depend on the precision;
 * the trajectory converges as p grows (53 vs 256 bits within 2^-40). */
START_TEST(precision_independent)
{
    static const double sg[3] = {0.1, 0.2, 0.1};
    prob_t q;
    prob_make(&q, 18, 4, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 3, 2);
    prm.Qmax = 3;
    prm.nu = 8e-2;
    prm.noise = FR_PDM_NOISE_GIVEN;
    prm.sigma = sg;
    fr_pdm_trace a, b;
    run_ok(&a, &q.P, &prm, 53);
    run_ok(&b, &q.P, &prm, 256);
    const size_t R = a.T * a.N;
    ck_assert(memcmp(a.part, b.part, R) == 0 && memcmp(a.Q, b.Q, R * sizeof *a.Q) == 0
              && memcmp(a.capped, b.capped, R) == 0);
    ck_assert(a.nd == b.nd && memcmp(a.draws, b.draws, a.ndmax * sizeof *a.draws) == 0);
    for (size_t k = 0; k < (a.T + 1) * a.D; k++)
        ck_assert(fabs(mpfr_get_d(a.x0[k], MPFR_RNDN) - mpfr_get_d(b.x0[k], MPFR_RNDN)) <= 0x1p-40);
    fr_pdm_trace_clear(&a);
    fr_pdm_trace_clear(&b);
    prob_free(&q);
}
END_TEST

/* An error after the start resets the trace: x_0^0 = 2^600 with MPFR's
 * exponent range cut to 2^900 (||v||^2 ~ 2^1200 leaves it); the trace,
 * which held a valid run, is back in fr_pdm_trace_init's state. */
START_TEST(late_error_resets)
{
    double big[6];
    for (size_t k = 0; k < 6; k++)
        big[k] = ldexp(1, 600);
    prob_t q;
    prob_make(&q, 17, 3, 2, 3, 5, 8);
    fr_pdm_params prm = base_params(ETA, 2, 2);
    fr_pdm_trace t;
    run_ok(&t, &q.P, &prm, 96);
    prm.x0 = big;
    const mpfr_exp_t emax = mpfr_get_emax();
    ck_assert_int_eq(mpfr_set_emax(900), 0);
    int st = fr_pdm_run(&t, &q.P, &prm);
    ck_assert_int_eq(mpfr_set_emax(emax), 0);
    ck_assert_msg(st != FR_OK && st != FR_ENULL && st != FR_ESIZE && st != FR_EDOM, "status %d", st);
    ck_assert(t.rounds == 0 && t.nd == 0);
    for (size_t k = 0; k < 3 * 6; k++)
        ck_assert(mpfr_nan_p(t.x0[k]) && mpfr_get_prec(t.x0[k]) == 96);
    for (size_t k = 0; k < 3 * 6; k++)
        ck_assert(mpfr_nan_p(t.x[k]) && mpfr_nan_p(t.lam[k]));
    for (size_t k = 0; k <= 2; k++)
        ck_assert(mpfr_nan_p(t.P[k]) && mpfr_nan_p(t.Px[k]) && mpfr_nan_p(t.Plam[k]) && mpfr_nan_p(t.Px0[k])
                  && mpfr_nan_p(t.F[k]));
    for (size_t r = 0; r < 6; r++)
        ck_assert(t.part[r] == 0 && t.Q[r] == 0 && t.capped[r] == 0 && mpfr_nan_p(t.sigma[r])
                  && mpfr_nan_p(t.stop2[r]));
    for (size_t k = 0; k < t.ndmax; k++)
        ck_assert_uint_eq(t.draws[k], SIZE_MAX);
    fr_pdm_trace_clear(&t);
    prob_free(&q);
}
END_TEST

Suite *suite_fedpdm_run_ref(void)
{
    Suite *s = suite_create("fedpdm_run_ref");
    TCase *tc = tcase_create("alg1_ref");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, hand_table);
    tcase_add_test(tc, rule11_boundary);
    tcase_add_test(tc, caps_and_fixed);
    tcase_add_test(tc, servers_and_selection);
    tcase_add_test(tc, px0_server);
    tcase_add_test(tc, sigma_zero_no_word);
    tcase_add_test(tc, clipping);
    tcase_add_test(tc, keep_bits_and_draws);
    tcase_add_test(tc, start_rounds);
    tcase_add_test(tc, statuses_and_zeros);
    tcase_add_test(tc, late_error_resets);
    tcase_add_test(tc, server_13_as_printed);
    tcase_add_test(tc, precision_independent);
    suite_add_tcase(s, tc);
    return s;
}
