/* SPDX-License-Identifier: Apache-2.0 */
/* run_cases.c -- small seeded end-to-end problems for the proof checks of
 * the runs (run_cases.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run_cases.h"

mpfr_t *pcr_vec(size_t n, mpfr_prec_t p)
{
    mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
    if (v == NULL)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        mpfr_init2(v[k], p);
        mpfr_set_zero(v[k], 1);
    }
    return v;
}

void pcr_vec_free(mpfr_t *v, size_t n)
{
    if (v == NULL)
        return;
    for (size_t k = 0; k < n; k++)
        mpfr_clear(v[k]);
    free(v);
}

void pcr_prob_split(pcr_prob *pr, size_t nc)
{
    size_t o = 0;
    for (size_t i = 0; i < nc; i++) {
        pr->Ni[i] = pr->N / nc + (i < pr->N % nc);
        pr->Pi[i] = pr->P / nc + (i < pr->P % nc);
        pr->off[i] = o;
        o += pr->Ni[i];
    }
    pr->D.nc = nc;
}

int pcr_prob_init(pcr_prob *pr, uint64_t seed, size_t N, size_t P, size_t J, size_t L,
                  size_t nc)
{
    memset(pr, 0, sizeof *pr);
    pr->N = N;
    pr->P = P;
    pr->J = J;
    pr->L = L;
    pr->d = J * (L + P);
    pr->Z = malloc(N * P * sizeof *pr->Z);
    pr->w1 = malloc(pr->d * sizeof *pr->w1);
    pr->y = malloc(N * sizeof *pr->y);
    pr->yb = malloc(N * sizeof *pr->yb);
    pr->Zm = pcr_vec(N * P, 64);
    pr->Zb = pcr_vec(N * P, 64);
    if (!pr->Z || !pr->w1 || !pr->y || !pr->yb || !pr->Zm || !pr->Zb
        || fr_ssca_synth(seed, N, P, L, pr->Z, pr->y) != FR_OK
        || fr_ssca_init_w(seed, L, J, P, pr->w1) != FR_OK) {
        pcr_prob_clear(pr);
        return -1;
    }
    for (size_t k = 0; k < N * P; k++)
        mpfr_set_d(pr->Zm[k], pr->Z[k], MPFR_RNDN);   /* exact: 11-bit dyadics */
    pr->D.N = N;
    pr->D.P = P;
    pr->D.J = J;
    pr->D.L = L;
    pr->D.Z = pr->Z;
    pr->D.y = pr->y;
    pr->D.Ni = pr->Ni;
    pr->D.Pi = pr->Pi;
    pcr_prob_split(pr, nc);
    return 0;
}

void pcr_prob_clear(pcr_prob *pr)
{
    free(pr->Z);
    free(pr->w1);
    free(pr->y);
    free(pr->yb);
    pcr_vec_free(pr->Zm, pr->N * pr->P);
    pcr_vec_free(pr->Zb, pr->N * pr->P);
    memset(pr, 0, sizeof *pr);
}

void pcr_params(fr_ssca_params *prm, const pcr_prob *pr, int algo, unsigned long T, size_t B,
                uint64_t seed)
{
    memset(prm, 0, sizeof *prm);
    prm->algo = algo;
    prm->T = T;
    prm->B = B;
    prm->E = 1;
    prm->a1 = 0.9;
    prm->alpha1 = 0.1;
    prm->a2 = 0.5;
    prm->alpha2 = 0.1;
    prm->tau = 0.5;
    prm->lambda = 1.0 / 64;
    prm->U = log((double)pr->L) - 0.125;
    prm->c = 8;
    prm->lr_a = 0.3;
    prm->lr_alpha = 0.3;
    prm->mom = 0.1;
    prm->weight = FR_SSCA_W_EXACT;
    prm->seed = seed;
    prm->w1 = pr->w1;
    prm->keep = FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS;
}

int pcr_run(fr_ssca_trace *t, const pcr_prob *pr, const fr_ssca_params *prm, mpfr_prec_t p)
{
    memset(t, 0, sizeof *t);
    int st = fr_ssca_trace_init(t, &pr->D, prm, p);
    if (st == FR_OK)
        st = fr_ssca_run(t, &pr->D, prm);
    if (st != FR_OK)
        fr_ssca_trace_clear(t);
    return st;
}

int pcr_batch(mpfr_t f, mpfr_t *g, pcr_prob *pr, mpfr_t *const w, const size_t *idx, size_t nb)
{
    for (size_t n = 0; n < nb; n++) {
        for (size_t q = 0; q < pr->P; q++)
            mpfr_set(pr->Zb[n * pr->P + q], pr->Zm[idx[n] * pr->P + q], MPFR_RNDN);
        pr->yb[n] = pr->y[idx[n]];
    }
    return fr_ssca_net(f, g, w, pr->L, pr->J, pr->P, pr->Zb, pr->yb, nb);
}

void pcr_sched(mpfr_t x, double a, double alpha, unsigned long t)
{
    mpfr_t e;
    mpfr_init2(e, 53);
    mpfr_set_d(e, -alpha, MPFR_RNDN);
    mpfr_ui_pow(x, t, e, MPFR_RNDN);
    mpfr_mul_d(x, x, a, MPFR_RNDN);
    mpfr_clear(e);
}

double pcr_bits(mpfr_t *const a, mpfr_t *const b, size_t n)
{
    mpfr_t df, mx, sc;
    mpfr_inits2(64, mx, sc, (mpfr_ptr)0);
    mpfr_init2(df, 64);
    mpfr_set_zero(mx, 1);
    mpfr_set_ui(sc, 1, MPFR_RNDN);
    for (size_t k = 0; k < n; k++) {
        mpfr_sub(df, a[k], b[k], MPFR_RNDA);   /* rounded away: never below the true gap */
        mpfr_abs(df, df, MPFR_RNDN);
        if (mpfr_cmp(df, mx) > 0)
            mpfr_set(mx, df, MPFR_RNDN);
        if (mpfr_cmpabs(b[k], sc) > 0)
            mpfr_abs(sc, b[k], MPFR_RNDZ);
    }
    double r = HUGE_VAL;
    if (!mpfr_zero_p(mx)) {
        mpfr_div(mx, mx, sc, MPFR_RNDU);
        mpfr_log2(mx, mx, MPFR_RNDU);
        r = -mpfr_get_d(mx, MPFR_RNDU);
    }
    mpfr_clears(df, mx, sc, (mpfr_ptr)0);
    return r;
}

double pcr_bits1(const mpfr_t a, const mpfr_t b)
{
    mpfr_t x[1], y[1];
    x[0][0] = a[0];
    y[0][0] = b[0];
    return pcr_bits(x, y, 1);
}
