/* SPDX-License-Identifier: Apache-2.0 */
/* test_run_fast.c -- Check unit tests of ff_ssca_run (fast/ssca/run*.c),
 * properties that do not need ref (docs/SSCA.md section 10):
 *   - the recorded draws equal an independent frng_sample replay on the
 *     streams of docs/RNG.md 3.9 (sample-based, SGD with E batches,
 *     feature-based), FedAvg's E B = N_i draws are permutations;
 *   - one round of Algorithms 1-4 and of the baselines equals a hand
 *     computation from the building blocks (ff_ssca_net per client on the
 *     batch in draw order, ff_ssca_lin, _ema, _const, _argmin, _lemma1,
 *     _update; the feature-based messages ff_ssca_net_partial/_top/
 *     _bottom) to a few ulps of the iterate's magnitude -- this is also the
 *     check that the stacked, weighted, gathered (or in-place, B = N_i)
 *     evaluation equals the per-client sums, with the hidden-layer
 *     gradient formed in blocks of hidden cells (batches of <= 64 rows)
 *     or whole, and across two chunks of rows (3300 stacked rows);
 *   - the record pattern of T = 2 and T = 3 (cost, norm2, cons, nu, slack,
 *     branch, draws, w, msgs, rounds), the cost F(w^t) against ff_ssca_net
 *     over all N samples, in one chunk and across several chunks. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"

Suite *suite_ssca_run_fast(void);

#define NMAX 3600
#define PMAX 8
#define JMAX 4
#define LMAX 3
#define DMAX (JMAX * (LMAX + PMAX))

static double Z[NMAX * PMAX], w1[DMAX];
static size_t y[NMAX];

typedef struct {
    fr_ssca_data D;
    size_t Ni[4], Pi[4];
} prob;

/* A synthetic problem (fr_ssca_synth, fr_ssca_init_w) with nc clients. */
static void make(prob *pr, uint64_t seed, size_t N, size_t P, size_t J, size_t L, size_t nc,
                 const size_t *Ni, const size_t *Pi)
{
    ck_assert_int_eq(fr_ssca_synth(seed, N, P, L, Z, y), FR_OK);
    ck_assert_int_eq(fr_ssca_init_w(seed, L, J, P, w1), FR_OK);
    memcpy(pr->Ni, Ni, nc * sizeof *Ni);
    memcpy(pr->Pi, Pi, nc * sizeof *Pi);
    fr_ssca_data D = {N, P, J, L, Z, y, nc, pr->Ni, pr->Pi, 0};
    pr->D = D;
}

static fr_ssca_params params(int algo, unsigned long T, size_t B)
{
    fr_ssca_params p;
    memset(&p, 0, sizeof p);
    p.algo = algo;
    p.T = T;
    p.B = B;
    p.E = 1;
    p.a1 = 0.9, p.alpha1 = 0.1, p.a2 = 0.5, p.alpha2 = 0.1;
    p.tau = 0.2, p.lambda = 1e-2, p.U = 0.3, p.c = 10;
    p.lr_a = 0.3, p.lr_alpha = 0.3, p.mom = 0.1;
    p.w1 = w1;
    p.seed = 77;
    p.keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST;
    return p;
}

static int run(ff_ssca_trace *t, const prob *pr, const fr_ssca_params *p)
{
    memset(t, 0, sizeof *t);
    int st = ff_ssca_trace_init(t, &pr->D, p);
    ck_assert_int_eq(st, FR_OK);
    return ff_ssca_run(t, &pr->D, p);
}

/* |a_j - b_j| <= 64 u max_k |b_k| (+ the smallest normal) for every j. */
static void near(const double *a, const double *b, size_t n, const char *what)
{
    double m = 0;
    for (size_t j = 0; j < n; j++)
        m = fmax(m, fabs(b[j]));
    const double tol = 64 * 0x1p-53 * m + 0x1p-1022;
    for (size_t j = 0; j < n; j++)
        ck_assert_msg(fabs(a[j] - b[j]) <= tol, "%s[%zu]: %.17g vs %.17g (tol %.3g)", what, j,
                      a[j], b[j], tol);
}

/* ---- draws --------------------------------------------------------------------- */

START_TEST(draws_replay)
{
    prob pr;
    const size_t Ni[3] = {9, 14, 7}, Pi[3] = {2, 3, 1};
    make(&pr, 5, 30, 6, 2, 3, 3, Ni, Pi);
    const int algos[] = {FR_SSCA_ALG1, FR_SSCA_ALG2, FR_SSCA_SGD_S, FR_SSCA_SGDM_S,
                         FR_SSCA_ALG3, FR_SSCA_SGD_F};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
        fr_ssca_params p = params(algos[a], 4, 3);
        p.E = 2;
        ff_ssca_trace t;
        ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
        const int feat = fr_ssca_algo_feature(p.algo);
        const size_t k = (p.algo == FR_SSCA_SGD_S || p.algo == FR_SSCA_SGDM_S) ? 6 : 3;
        ck_assert_uint_eq(t.nd, feat ? 3 : 3 * k);
        if (feat) {
            frng_t g;
            frng_init(&g, 77, FR_SSCA_STREAM_BATCH);
            for (size_t r = 0; r < 3; r++) {
                size_t ref[3];
                ck_assert_int_eq(frng_sample(&g, 30, 3, ref), FR_OK);
                for (size_t q = 0; q < 3; q++)
                    ck_assert_uint_eq(t.draws[r * t.nd + q], ref[q]);
            }
        } else {
            for (size_t i = 0; i < 3; i++) {
                frng_t g;
                frng_init(&g, 77, FR_SSCA_STREAM_BATCH + i);
                for (size_t r = 0; r < 3; r++) {
                    size_t ref[6];
                    ck_assert_int_eq(frng_sample(&g, Ni[i], k, ref), FR_OK);
                    for (size_t q = 0; q < k; q++)
                        ck_assert_uint_eq(t.draws[r * t.nd + i * k + q], ref[q]);
                }
            }
        }
        ff_ssca_trace_clear(&t);
    }
}
END_TEST

/* FedAvg: E B = N_i, so every round draws a permutation of each client's data. */
START_TEST(draws_fedavg_permutation)
{
    prob pr;
    const size_t Ni[2] = {8, 8}, Pi[2] = {3, 3};
    make(&pr, 6, 16, 6, 2, 2, 2, Ni, Pi);
    fr_ssca_params p = params(FR_SSCA_SGD_S, 5, 2);
    p.E = 4;
    ff_ssca_trace t;
    ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
    for (size_t r = 0; r < 4; r++)
        for (size_t i = 0; i < 2; i++) {
            int seen[8] = {0};
            for (size_t q = 0; q < 8; q++) {
                size_t v = t.draws[r * t.nd + i * 8 + q];
                ck_assert_uint_lt(v, 8);
                seen[v]++;
            }
            for (size_t v = 0; v < 8; v++)
                ck_assert_int_eq(seen[v], 1);
        }
    ff_ssca_trace_clear(&t);
}
END_TEST

/* ---- one round against the building blocks ------------------------------------ */

/* G_i = the batch gradient sum of client i at w over its draw (rows in draw order). */
static void client_grad(double *f, double *G, const prob *pr, const double *w,
                        const size_t *draw, size_t off, size_t B)
{
    const fr_ssca_data *D = &pr->D;
    static double Zb[NMAX * PMAX];
    static size_t yb[NMAX];
    for (size_t k = 0; k < B; k++) {
        memcpy(Zb + k * D->P, D->Z + (off + draw[k]) * D->P, D->P * sizeof *Zb);
        yb[k] = D->y[off + draw[k]];
    }
    ck_assert_int_eq(ff_ssca_net(f, G, w, D->L, D->J, D->P, Zb, yb, B), FR_OK);
}

static double Wfac(const fr_ssca_params *p, double P)
{
    return p->weight == FR_SSCA_W_EXACT ? P : 0.0;         /* argmin's P */
}

/* Algorithms 1 and 2, round 1, with the given batch (B = N_i: in place). */
static void sample_round(int algo, int weight, size_t B, const size_t *Ni)
{
    prob pr;
    const size_t Pi[3] = {2, 2, 2};
    make(&pr, 8, Ni[0] + Ni[1] + Ni[2], 6, 3, 3, 3, Ni, Pi);
    const fr_ssca_data *D = &pr.D;
    fr_ssca_params p = params(algo, 2, B);
    p.weight = weight;
    ff_ssca_trace t;
    ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
    const size_t d = t.d, nc = 3;
    double G[3 * DMAX], F[3], f1[DMAX] = {0}, beta[DMAX] = {0}, wbar[DMAX], w[DMAX];
    size_t off = 0;
    for (size_t i = 0; i < nc; i++) {
        client_grad(&F[i], G + i * d, &pr, w1, t.draws + i * B, off, B);
        off += Ni[i];
    }
    const double rho = p.a1, gam = p.a2;                    /* t = 1 */
    double C = 0, Pp = 1;
    memcpy(w, w1, d * sizeof *w);
    if (algo == FR_SSCA_ALG2)
        ck_assert_int_eq(ff_ssca_const(&C, w, G, F, Ni, nc, d, B, rho, p.tau), FR_OK);
    ck_assert_int_eq(ff_ssca_lin(f1, w, G, Ni, nc, d, B, rho, p.tau), FR_OK);
    ck_assert_int_eq(ff_ssca_ema(beta, w, d, rho), FR_OK);
    ck_assert_int_eq(ff_ssca_ema(&Pp, NULL, 1, rho), FR_OK);
    if (algo == FR_SSCA_ALG1) {
        ck_assert_int_eq(ff_ssca_argmin(wbar, f1, beta, d, p.lambda, p.tau, Wfac(&p, Pp)),
                         FR_OK);
        ck_assert(isnan(t.nu[0]) && isnan(t.slack[0]) && t.branch[0] == 0);
    } else {
        double nu, tW = p.tau * (weight == FR_SSCA_W_EXACT ? 1 - Pp : 1.0);
        int br;
        ck_assert_int_eq(ff_ssca_lemma1(&nu, wbar, &br, f1, d, C, tW, p.c, p.U), FR_OK);
        ck_assert_int_eq(t.branch[0], br);
        ck_assert(fabs(t.nu[0] - nu) <= 1e-12 * fmax(nu, 1e-300) || t.nu[0] == nu);
        double fw = 0, n2 = 0;
        for (size_t j = 0; j < d; j++) {
            fw += f1[j] * wbar[j];
            n2 += wbar[j] * wbar[j];
        }
        double s = fmax(0, fw + tW * n2 + C - p.U);
        ck_assert(fabs(t.slack[0] - s) <= 1e-12 * (fabs(fw) + tW * n2 + fabs(C) + fabs(p.U)));
    }
    ck_assert_int_eq(ff_ssca_update(w, wbar, d, gam), FR_OK);
    near(t.w + d, w, d, "w^2");
    near(t.w, w1, d, "w^1");
    (void)D;
    ff_ssca_trace_clear(&t);
}

START_TEST(round_alg1)
{
    const size_t Ni[3] = {7, 5, 9}, Nf[3] = {4, 4, 4};
    sample_round(FR_SSCA_ALG1, FR_SSCA_W_EXACT, 4, Ni);      /* gathered */
    sample_round(FR_SSCA_ALG1, FR_SSCA_W_PRINTED, 4, Ni);
    sample_round(FR_SSCA_ALG1, FR_SSCA_W_EXACT, 4, Nf);      /* B = N_i: in place */
    const size_t Nl[3] = {1100, 1200, 1150};                 /* 3300 rows: two chunks */
    sample_round(FR_SSCA_ALG1, FR_SSCA_W_EXACT, 1100, Nl);
    const size_t Nm[3] = {40, 45, 50};                       /* 90 rows: one chunk, B formed whole */
    sample_round(FR_SSCA_ALG1, FR_SSCA_W_EXACT, 30, Nm);
}
END_TEST

START_TEST(round_alg2)
{
    const size_t Ni[3] = {7, 5, 9}, Nf[3] = {4, 4, 4};
    sample_round(FR_SSCA_ALG2, FR_SSCA_W_EXACT, 4, Ni);
    sample_round(FR_SSCA_ALG2, FR_SSCA_W_PRINTED, 4, Ni);
    sample_round(FR_SSCA_ALG2, FR_SSCA_W_EXACT, 4, Nf);
    const size_t Nl[3] = {1100, 1100, 1100};                 /* two chunks, in place */
    sample_round(FR_SSCA_ALG2, FR_SSCA_W_EXACT, 1100, Nl);
}
END_TEST

/* The batch gradient of a feature-based round through the clients'
 * messages: partial, top (f, A), bottom (B_i) into the layout of w. */
static void feature_grad(double *f, double *g, const prob *pr, const double *w, const size_t *draw,
                         size_t B)
{
    const fr_ssca_data *D = &pr->D;
    const size_t P = D->P, J = D->J, L = D->L, nc = D->nc;
    static double Zi[NMAX * PMAX], H[4 * NMAX * JMAX], Bi[JMAX * PMAX], w1i[JMAX * PMAX];
    size_t yb[NMAX], po = 0;
    for (size_t k = 0; k < B; k++)
        yb[k] = D->y[draw[k]];
    for (size_t i = 0; i < nc; i++) {
        const size_t Pi = D->Pi[i];
        for (size_t k = 0; k < B; k++)
            memcpy(Zi + k * Pi, D->Z + draw[k] * P + po, Pi * sizeof *Zi);
        for (size_t j = 0; j < J; j++)
            memcpy(w1i + j * Pi, w + L * J + j * P + po, Pi * sizeof *w1i);
        ck_assert_int_eq(ff_ssca_net_partial(H + i * B * J, w1i, Zi, B, J, Pi), FR_OK);
        po += Pi;
    }
    ck_assert_int_eq(ff_ssca_net_top(f, g, H, nc, w, yb, B, L, J), FR_OK);
    po = 0;
    for (size_t i = 0; i < nc; i++) {
        const size_t Pi = D->Pi[i];
        for (size_t k = 0; k < B; k++)
            memcpy(Zi + k * Pi, D->Z + draw[k] * P + po, Pi * sizeof *Zi);
        ck_assert_int_eq(ff_ssca_net_bottom(Bi, H, nc, w, yb, Zi, B, L, J, Pi), FR_OK);
        for (size_t j = 0; j < J; j++)
            memcpy(g + L * J + j * P + po, Bi + j * Pi, Pi * sizeof *Bi);
        po += Pi;
    }
}

static void feature_round(int algo, size_t B)
{
    prob pr;
    const size_t Ni[3] = {10, 10, 10}, Pi[3] = {3, 1, 4};
    make(&pr, 9, 30, 8, 3, 3, 3, Ni, Pi);
    fr_ssca_params p = params(algo, 2, B);
    ff_ssca_trace t;
    ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
    const size_t d = t.d;
    double g[DMAX], F, f1[DMAX] = {0}, beta[DMAX] = {0}, wbar[DMAX], w[DMAX], C = 0, Pp = 1;
    feature_grad(&F, g, &pr, w1, t.draws, B);
    const size_t N1[1] = {B};
    const double rho = p.a1, gam = p.a2;
    memcpy(w, w1, d * sizeof *w);
    if (algo == FR_SSCA_ALG3 || algo == FR_SSCA_ALG4) {
        if (algo == FR_SSCA_ALG4)
            ck_assert_int_eq(ff_ssca_const(&C, w, g, &F, N1, 1, d, B, rho, p.tau), FR_OK);
        ck_assert_int_eq(ff_ssca_lin(f1, w, g, N1, 1, d, B, rho, p.tau), FR_OK);
        ck_assert_int_eq(ff_ssca_ema(beta, w, d, rho), FR_OK);
        ck_assert_int_eq(ff_ssca_ema(&Pp, NULL, 1, rho), FR_OK);
        if (algo == FR_SSCA_ALG3)
            ck_assert_int_eq(ff_ssca_argmin(wbar, f1, beta, d, p.lambda, p.tau, Pp), FR_OK);
        else {
            double nu;
            int br;
            ck_assert_int_eq(ff_ssca_lemma1(&nu, wbar, &br, f1, d, C, p.tau * (1 - Pp), p.c, p.U),
                             FR_OK);
            ck_assert_int_eq(t.branch[0], br);
        }
        ck_assert_int_eq(ff_ssca_update(w, wbar, d, gam), FR_OK);
    } else {                                               /* SGD_F, SGDM_F at t = 1, v = 0 */
        for (size_t j = 0; j < d; j++) {
            double step = g[j] / (double)B + 2 * p.lambda * w[j];
            w[j] = w[j] - p.lr_a * step;                   /* SGDM_F: v = 0 m + step */
        }
    }
    near(t.w + d, w, d, "w^2");
    ff_ssca_trace_clear(&t);
}

START_TEST(round_feature)
{
    const int algos[] = {FR_SSCA_ALG3, FR_SSCA_ALG4, FR_SSCA_SGD_F, FR_SSCA_SGDM_F};
    for (size_t a = 0; a < 4; a++) {
        feature_round(algos[a], 5);
        feature_round(algos[a], 30);                       /* B = N: in place */
    }
}
END_TEST

/* SGD_S and SGDM_S, round 1 (v = 0) and round 2 (SGDM_S: the averaged v),
 * E = 2 local steps, against ff_ssca_net per client. */
START_TEST(round_sgd_sample)
{
    prob pr;
    const size_t Ni[3] = {7, 6, 9}, Pi[3] = {2, 2, 2};
    make(&pr, 10, 22, 6, 3, 3, 3, Ni, Pi);
    for (int algo = FR_SSCA_SGD_S; algo <= FR_SSCA_SGDM_S; algo++) {
        fr_ssca_params p = params(algo, 3, 3);
        p.E = 2;
        ff_ssca_trace t;
        ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
        const size_t d = t.d;
        double w[DMAX], v[DMAX] = {0}, wn[DMAX], vn[DMAX], wi[DMAX], vi[DMAX], G[DMAX], f;
        memcpy(w, w1, d * sizeof *w);
        for (unsigned long r = 1; r <= 2; r++) {
            const double lr = p.lr_a * pow((double)r, -p.lr_alpha);
            size_t off = 0;
            for (size_t j = 0; j < d; j++)
                wn[j] = vn[j] = 0;
            for (size_t i = 0; i < 3; i++) {
                memcpy(wi, w, d * sizeof *wi);
                memcpy(vi, v, d * sizeof *vi);
                for (size_t e = 0; e < 2; e++) {
                    client_grad(&f, G, &pr, wi, t.draws + (r - 1) * t.nd + i * 6 + e * 3, off, 3);
                    for (size_t j = 0; j < d; j++) {
                        double step = G[j] / 3.0 + 2 * p.lambda * wi[j];
                        if (algo == FR_SSCA_SGDM_S) {
                            vi[j] = p.mom * vi[j] + step;
                            wi[j] -= lr * vi[j];
                        } else
                            wi[j] -= lr * step;
                    }
                }
                for (size_t j = 0; j < d; j++) {
                    wn[j] += (double)Ni[i] / 22.0 * wi[j];
                    vn[j] += (double)Ni[i] / 22.0 * vi[j];
                }
                off += Ni[i];
            }
            memcpy(w, wn, d * sizeof *w);
            memcpy(v, vn, d * sizeof *v);
            near(t.w + r * d, w, d, algo == FR_SSCA_SGD_S ? "sgd w" : "sgdm w");
        }
        ff_ssca_trace_clear(&t);
    }
}
END_TEST

/* ---- records -------------------------------------------------------------------- */

/* T = 2 and 3: which records are set, and the cost against ff_ssca_net
 * over all N samples; N = 2600 > 2048 rows spans two chunks of the pass. */
START_TEST(records)
{
    static const size_t Ns[2] = {40, 2600};
    for (size_t c = 0; c < 2; c++) {
        prob pr;
        const size_t N = Ns[c], Ni[2] = {N / 2, N - N / 2}, Pi[2] = {2, 3};
        make(&pr, 12, N, 5, 2, 3, 2, Ni, Pi);
        for (int algo = FR_SSCA_ALG1; algo <= FR_SSCA_SGDM_F; algo++)
            for (unsigned long T = 2; T <= 3; T++)
                for (unsigned keep = 0; keep < 8; keep++) {
                    if (c == 1 && (keep != 7 || T != 2))
                        continue;                          /* the large case once */
                    fr_ssca_params p = params(algo, T, 2);
                    p.keep = keep;
                    ff_ssca_trace t;
                    ck_assert_int_eq(run(&t, &pr, &p), FR_OK);
                    ck_assert_uint_eq(t.rounds, T - 1);
                    fr_ssca_round_msgs m;
                    ck_assert_int_eq(fr_ssca_run_msgs(&m, &pr.D, &p), FR_OK);
                    ck_assert(m.down == t.msgs.down && m.up == t.msgs.up && m.peer == t.msgs.peer);
                    const int cons = fr_ssca_algo_constrained(algo);
                    for (size_t k = 0; k < T; k++) {
                        const double *wk = (keep & FR_SSCA_KEEP_W) ? t.w + k * t.d : NULL;
                        if (wk) {
                            double n2 = 0;
                            for (size_t j = 0; j < t.d; j++)
                                n2 += wk[j] * wk[j];
                            ck_assert(fabs(t.norm2[k] - n2) <= 1e-14 * n2);
                        }
                        ck_assert(isfinite(t.norm2[k]) && t.norm2[k] > 0);
                        if (keep & FR_SSCA_KEEP_COST) {
                            ck_assert(isfinite(t.cost[k]) && t.cost[k] > 0);
                            if (wk) {
                                double f;
                                ck_assert_int_eq(ff_ssca_net(&f, NULL, wk, 3, 2, 5, Z, y, N), FR_OK);
                                ck_assert_msg(fabs(t.cost[k] - f / (double)N) <= 1e-13 * t.cost[k],
                                              "cost %.17g vs %.17g", t.cost[k], f / (double)N);
                            }
                            if (cons)
                                ck_assert(t.cons[k] == t.cost[k] - p.U);
                            else
                                ck_assert(isnan(t.cons[k]));
                        } else
                            ck_assert(isnan(t.cost[k]) && isnan(t.cons[k]));
                        if (k + 1 < T) {
                            if (cons)
                                ck_assert(isfinite(t.nu[k]) && t.nu[k] >= 0 && t.nu[k] <= p.c
                                          && t.slack[k] >= 0 && t.branch[k] >= 1
                                          && t.branch[k] <= 4);
                            else
                                ck_assert(isnan(t.nu[k]) && isnan(t.slack[k]) && t.branch[k] == 0);
                        }
                    }
                    if (keep & FR_SSCA_KEEP_W)
                        ck_assert(memcmp(t.w, w1, t.d * sizeof *w1) == 0);
                    else
                        ck_assert(isfinite(t.w[0]) && t.w[0] != w1[0]);
                    if (keep & FR_SSCA_KEEP_DRAWS) {
                        for (size_t k = 0; k < (T - 1) * t.nd; k++)
                            ck_assert_uint_lt(t.draws[k], fr_ssca_algo_feature(algo) ? N : N / 2 + 1);
                    } else
                        ck_assert(t.draws == NULL);
                    ff_ssca_trace_clear(&t);
                    ck_assert(t.w == NULL && t.T == 0);
                }
    }
}
END_TEST

/* The last point without KEEP_W equals row T-1 with it; a run twice gives
 * the same bits (the draws restart from the streams). */
START_TEST(records_wT_repeat)
{
    prob pr;
    const size_t Ni[2] = {10, 12}, Pi[2] = {2, 2};
    make(&pr, 13, 22, 4, 2, 2, 2, Ni, Pi);
    for (int algo = FR_SSCA_ALG1; algo <= FR_SSCA_SGDM_F; algo++) {
        fr_ssca_params p = params(algo, 4, 3);
        ff_ssca_trace a, b;
        ck_assert_int_eq(run(&a, &pr, &p), FR_OK);
        p.keep = 0;
        ck_assert_int_eq(run(&b, &pr, &p), FR_OK);
        ck_assert(memcmp(a.w + 3 * a.d, b.w, a.d * sizeof *b.w) == 0);
        ck_assert_int_eq(ff_ssca_run(&b, &pr.D, &p), FR_OK);
        ck_assert(memcmp(a.w + 3 * a.d, b.w, a.d * sizeof *b.w) == 0);
        ff_ssca_trace_clear(&a);
        ff_ssca_trace_clear(&b);
    }
}
END_TEST

/* A tiny rho^(1) = 2^-80: 1 - rho^(1) rounds to 1 in binary64, so a mass
 * carried as P_t = prod (1 - rho) stays 1 and 1/(2 tau (1 - P)) is
 * infinite; W_t = 1 - P_t carried directly stays >= rho^(1).  Every SSCA
 * algorithm must run to finite iterates (as ref does, tests/ssca/
 * test_run_ref.c tiny_rho). */
START_TEST(tiny_rho)
{
    prob pr;
    const size_t Ni[2] = {12, 8}, Pi[2] = {1, 3};
    make(&pr, 11, 20, 4, 2, 3, 2, Ni, Pi);
    for (int a = FR_SSCA_ALG1; a <= FR_SSCA_ALG4; a++) {
        fr_ssca_params p = params(a, 3, 3);
        p.a1 = 0x1p-80;
        ff_ssca_trace t;
        ck_assert_msg(run(&t, &pr, &p) == FR_OK, "%s", fr_ssca_algo_name(a));
        for (size_t k = 0; k < 3 * t.d; k++)
            ck_assert(isfinite(t.w[k]));
        ff_ssca_trace_clear(&t);
    }
}
END_TEST

Suite *suite_ssca_run_fast(void)
{
    Suite *s = suite_create("ssca_run_fast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, draws_replay);
    tcase_add_test(tc, draws_fedavg_permutation);
    tcase_add_test(tc, round_alg1);
    tcase_add_test(tc, round_alg2);
    tcase_add_test(tc, round_feature);
    tcase_add_test(tc, round_sgd_sample);
    tcase_add_test(tc, records);
    tcase_add_test(tc, records_wT_repeat);
    tcase_add_test(tc, tiny_rho);
    suite_add_tcase(s, tc);
    return s;
}
