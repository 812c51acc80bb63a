/* SPDX-License-Identifier: Apache-2.0 */
/* rounds.c -- the parts of docs/FEDEPM.md shared by the three binary64
 * runs: the round loop (section 1), the initialisation (section 2), the
 * uploads (21)/(37) with the noise rules (27)/(39) and the certified rule
 * (section 4), the stopping rule and records (section 5), the SNR of 002
 * Sec. VII-C, the baselines' aggregation (34) and step size (38), the
 * privacy accountant (section 9).  Contracts: rounds.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rounds.h"

#define LOG10_2 0x1.34413509f79ffp-2   /* log10(2), correctly rounded */

double ffi_fl_sumsq(const double *x, size_t n)
{
    double M = 0;
    for (size_t j = 0; j < n; j++)
        M = fmax(M, fabs(x[j]));
    if (M == 0 || !isfinite(M))
        return M * M;
    int e;
    frexp(M, &e);                        /* |x_j| 2^-e < 1: no overflow */
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        double u = ldexp(x[j], -e);
        s += u * u;
    }
    return ldexp(s, 2 * e);              /* overflows only if the result does */
}

double ffi_fl_nrm2(const double *x, size_t n)
{
    double M = 0;
    for (size_t j = 0; j < n; j++)
        M = fmax(M, fabs(x[j]));
    if (M == 0 || !isfinite(M))
        return M;
    int e;
    frexp(M, &e);
    double s = 0;
    for (size_t j = 0; j < n; j++) {
        double u = ldexp(x[j], -e);
        s += u * u;
    }
    return ldexp(sqrt(s), e);
}

double ffi_fl_gamma38(size_t d_i, unsigned long k0, unsigned long k)
{
    const double tau = (double)fr_tau(k, k0);          /* ceil(k / k0) */
    return 2.0 * (double)d_i / sqrt(2.0 * (double)k0 + tau);
}

/* log10(a / b) for a, b >= 0 finite, without forming a / b: +Inf when
 * b = 0 (no noise), -Inf when only a = 0. */
static double log10_ratio(double a, double b)
{
    if (b == 0)
        return INFINITY;
    if (a == 0)
        return -INFINITY;
    int ea, eb;
    const double fa = frexp(a, &ea), fb = frexp(b, &eb);
    return log10(fa / fb) + (double)(ea - eb) * LOG10_2;
}

/* The noise scale of client i with mu = mu_{i,k+1} (section 4), rounded up. */
static int noise_scale(double *nu, const ffi_fl_state *s, size_t i, double mu, const double *g)
{
    const fr_fedepm_params *prm = s->prm;
    switch (prm->noise) {
    case FR_NOISE_EQ39:
        return ff_laplace_scale_eq39_upper(nu, g, s->n, prm->eps, mu);
    case FR_NOISE_EQ27:
        return ff_laplace_scale_upper(nu, prm->Delta[i], prm->eps, mu);
    case FR_NOISE_CERT:                  /* RU(S_i / eps); 0 for S_i = 0 */
        if (s->S[i] == 0) {
            *nu = 0;
            return FR_OK;
        }
        return ff_laplace_scale_upper(nu, s->S[i], prm->eps, 1.0);
    default:
        *nu = 0;
        return FR_OK;
    }
}

/* The privacy loss of client i's upload with scale nu (docs/FEDEPM.md
 * section 9), an upper bound: +Inf under (39) and under (27) with c > 0
 * from the client's second update on (mu_{i,k+1} from a data-dependent
 * w_i^k); else 0 for S_i = 0, +Inf without noise or bound, else the least
 * binary64 >= S_i / nu (ff_laplace_scale_upper with mu = 1). */
static int upload_loss(const ffi_fl_state *s, size_t i, double nu, double *loss)
{
    const fr_fedepm_params *prm = s->prm;
    if (prm->noise == FR_NOISE_EQ39
        || (prm->noise == FR_NOISE_EQ27 && prm->c > 0 && s->steps[i] >= 2))
        *loss = INFINITY;
    else if (s->S[i] == 0)
        *loss = 0;
    else if (nu == 0 || isinf(s->S[i]))
        *loss = INFINITY;
    else
        return ff_laplace_scale_upper(loss, s->S[i], nu, 1.0);
    return FR_OK;
}

int ffi_fl_sens(ffi_fl_state *s, size_t i, double mu)
{
    const fr_fedepm_params *prm = s->prm;
    s->steps[i]++;
    if (prm->noise == FR_NOISE_EQ27 || prm->noise == FR_NOISE_CERT)
        return ff_dp_sens_step_upper(&s->S[i], s->S[i], prm->Delta[i], prm->eta, mu);
    s->S[i] = INFINITY;
    return FR_OK;
}

/* eps_i: n Laplace(0, nu) draws j = 0..n-1 (docs/RNG.md 3.5), or exactly
 * 0 without consuming a word when nu = 0; then z_i = w_i + eps_i. */
static int draw_upload(ffi_fl_state *s, size_t i, double nu)
{
    const size_t n = s->n;
    int st;
    for (size_t j = 0; j < n; j++) {
        if (nu == 0)
            s->eps[j] = 0;
        else if ((st = ff_rng_laplace(&s->eps[j], &s->noise[i], nu)) != FR_OK)
            return st;
    }
    const double *wi = s->W + i * n;
    double *zi = s->Z + i * n;
    for (size_t j = 0; j < n; j++)
        zi[j] = wi[j] + s->eps[j];
    return FR_OK;
}

int ffi_fl_upload(ffi_fl_state *s, size_t i, double mu, const double *g)
{
    const size_t k = s->nsel, *S = s->rec_sel + s->row * k;
    size_t q = 0;
    while (q < k && S[q] != i)
        q++;
    if (q == k)
        return FR_EINTERNAL;             /* i is not in S^r */
    if (!s->sens_known)
        s->S[i] = INFINITY;              /* no bound for these updates */
    double nu;
    int st = noise_scale(&nu, s, i, mu, g);
    if (st != FR_OK || (st = upload_loss(s, i, nu, &s->rec_loss[s->row * k + q])) != FR_OK)
        return st;
    s->rec_nu[s->row * k + q] = nu;
    if ((st = draw_upload(s, i, nu)) != FR_OK)
        return st;
    s->snr_i[i] = log10_ratio(ffi_fl_nrm2(s->W + i * s->n, s->n), ffi_fl_nrm2(s->eps, s->n));
    s->up[i] = 1;
    return FR_OK;
}

/* Section 2: w_i^0 = 0, z_i^0 = eps_i^0 with the scale taken at
 * mu_{i,0} = mu0 and, for (39), g = grad f_i(w_i^0).  Not an SNR upload. */
static int initialise(ffi_fl_state *s)
{
    const size_t m = s->m, n = s->n;
    int st;
    memset(s->W, 0, m * n * sizeof *s->W);
    for (size_t i = 0; i < m; i++) {
        double nu;
        s->S[i] = 0;                     /* w_i^0 is data-independent */
        s->steps[i] = 0;
        if (s->prm->noise == FR_NOISE_EQ39
            && (st = ffi_logreg_fi(NULL, s->g, s->P, i, s->W + i * n)) != FR_OK)
            return st;
        if ((st = noise_scale(&nu, s, i, s->prm->mu0, s->g)) != FR_OK
            || (st = upload_loss(s, i, nu, &s->rec_loss0[i])) != FR_OK
            || (st = draw_upload(s, i, nu)) != FR_OK)
            return st;
        s->rec_nu0[i] = nu;
    }
    return FR_OK;
}

/* Each client's total over its uploads (z_i^0, then every block it ran,
 * rows < rounds - 1): ff_dp_compose_upper with delta' = acct_delta or
 * FR_ACCT_DELTA_DEFAULT; +Inf for all when the stopping rule is on (the
 * stopping decision depends on every client's data and is released). */
static int totals(ffi_fl_state *s, size_t rounds)
{
    const size_t k = s->nsel;
    const double dl = s->prm->acct_delta > 0 ? s->prm->acct_delta : FR_ACCT_DELTA_DEFAULT;
    for (size_t i = 0; i < s->m; i++) {
        size_t cnt = 0;
        s->lst[cnt++] = s->rec_loss0[i];
        for (size_t r = 0; r + 1 < rounds; r++)
            for (size_t q = 0; q < k; q++)
                if (s->rec_sel[r * k + q] == i)
                    s->lst[cnt++] = s->rec_loss[r * k + q];
        int st = ff_dp_compose_upper(&s->rec_eb[i], &s->rec_ea[i], s->lst, cnt, dl);
        if (st != FR_OK)
            return st;
        if (s->prm->stopping)
            s->rec_eb[i] = s->rec_ea[i] = INFINITY;
    }
    return FR_OK;
}

/* (34) for one coordinate: Neumaier's sum of v_q 2^-e, then / nsel. */
int ffi_fl_mean_aggregate(ffi_fl_state *s, const size_t *S)
{
    const size_t n = s->n, k = s->nsel;
    for (size_t j = 0; j < n; j++) {
        double M = 0;
        for (size_t q = 0; q < k; q++)
            M = fmax(M, fabs(s->Z[S[q] * n + j]));
        if (!isfinite(M))
            return FR_ENONFINITE;
        int e = 0;
        if (M > 0x1p1000)                /* the sum could overflow: scale */
            frexp(M, &e);
        double sum = 0, comp = 0;
        for (size_t q = 0; q < k; q++) {
            const double x = ldexp(s->Z[S[q] * n + j], -e), t = sum + x;
            comp += fabs(sum) >= fabs(x) ? (sum - t) + x : (x - t) + sum;
            sum = t;
        }
        s->w[j] = ldexp((sum + comp) / (double)k, e);
    }
    return FR_OK;
}

/* ---- allocation ----------------------------------------------------------- */

static void state_free(ffi_fl_state *s)
{
    free(s->W);
    free(s->Z);
    free(s->g);
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->eps);
    free(s->snr_i);
    free(s->up);
    free(s->rec_w);
    free(s->rec_f);
    free(s->rec_g2);
    free(s->rec_sel);
    free(s->noise);
    free(s->S);
    free(s->steps);
    free(s->rec_nu0);
    free(s->rec_loss0);
    free(s->rec_eb);
    free(s->rec_ea);
    free(s->rec_nu);
    free(s->rec_loss);
    free(s->lst);
}

static int state_alloc(ffi_fl_state *s, size_t cap)
{
    const size_t m = s->m, n = s->n;
    s->W = malloc(m * n * sizeof *s->W);
    s->Z = malloc(m * n * sizeof *s->Z);
    s->g = malloc(n * sizeof *s->g);
    s->a = malloc(n * sizeof *s->a);
    s->b = malloc(n * sizeof *s->b);
    s->c = malloc(n * sizeof *s->c);
    s->eps = malloc(n * sizeof *s->eps);
    s->snr_i = malloc(m * sizeof *s->snr_i);
    s->up = calloc(m, sizeof *s->up);
    s->rec_w = malloc(cap * n * sizeof *s->rec_w);
    s->rec_f = malloc(cap * sizeof *s->rec_f);
    s->rec_g2 = malloc(cap * sizeof *s->rec_g2);
    s->rec_sel = malloc(cap * s->nsel * sizeof *s->rec_sel);
    s->noise = malloc(m * sizeof *s->noise);
    s->S = malloc(m * sizeof *s->S);
    s->steps = calloc(m, sizeof *s->steps);
    s->rec_nu0 = malloc(m * sizeof *s->rec_nu0);
    s->rec_loss0 = malloc(m * sizeof *s->rec_loss0);
    s->rec_eb = malloc(m * sizeof *s->rec_eb);
    s->rec_ea = malloc(m * sizeof *s->rec_ea);
    s->rec_nu = malloc(cap * s->nsel * sizeof *s->rec_nu);
    s->rec_loss = malloc(cap * s->nsel * sizeof *s->rec_loss);
    s->lst = malloc((cap + 1) * sizeof *s->lst);
    if (!s->W || !s->Z || !s->g || !s->a || !s->b || !s->c || !s->eps || !s->snr_i
        || !s->up || !s->rec_w || !s->rec_f || !s->rec_g2 || !s->rec_sel || !s->noise
        || !s->S || !s->steps || !s->rec_nu0 || !s->rec_loss0 || !s->rec_eb || !s->rec_ea
        || !s->rec_nu || !s->rec_loss || !s->lst)
        return FR_ENOMEM;
    for (size_t q = 0; q < cap * s->nsel; q++)
        s->rec_nu[q] = s->rec_loss[q] = NAN;          /* rows without a block */
    return FR_OK;
}

/* ---- the trace ------------------------------------------------------------ */

/* The arguments in class order: the algorithm's check reports P's and
 * prm's classes at their places among the trace's (NULL arrays: a zeroed
 * trace; sizes: a trace initialised for other m, n, nsel or fewer than
 * rounds + 1 rows; ff_fedepm_trace_init checked that its sizes fit). */
static int check_args(const ff_fedepm_trace *t, const fr_logreg *P,
                      const fr_fedepm_params *prm, const ffi_fl_algo *A)
{
    const int sc = A->check(P, prm);
    if (sc == FR_ENULL || !t || !t->w || !t->f || !t->gnorm2 || !t->sel || !t->W || !t->Z
        || !t->nu0 || !t->nu || !t->loss0 || !t->loss || !t->eps_basic || !t->eps_adv)
        return FR_ENULL;
    if (sc == FR_ESIZE || t->m != P->m || t->n != P->n || t->nsel != prm->nsel
        || (uintmax_t)t->cap < (uintmax_t)prm->rounds + 1)
        return FR_ESIZE;
    return sc;
}

/* Copy the records 0..rounds-1 and the final state into t; rows beyond
 * rounds become NaN (SIZE_MAX for sel), as after ff_fedepm_trace_init. */
static void commit(ff_fedepm_trace *t, const ffi_fl_state *s, size_t rounds,
                   unsigned long k0, int stop)
{
    const size_t m = s->m, n = s->n, k = s->nsel;
    memcpy(t->w, s->rec_w, rounds * n * sizeof *t->w);
    memcpy(t->f, s->rec_f, rounds * sizeof *t->f);
    memcpy(t->gnorm2, s->rec_g2, rounds * sizeof *t->gnorm2);
    memcpy(t->sel, s->rec_sel, rounds * k * sizeof *t->sel);
    memcpy(t->nu, s->rec_nu, rounds * k * sizeof *t->nu);     /* row rounds - 1: NaN */
    memcpy(t->loss, s->rec_loss, rounds * k * sizeof *t->loss);
    memcpy(t->nu0, s->rec_nu0, m * sizeof *t->nu0);
    memcpy(t->loss0, s->rec_loss0, m * sizeof *t->loss0);
    memcpy(t->eps_basic, s->rec_eb, m * sizeof *t->eps_basic);
    memcpy(t->eps_adv, s->rec_ea, m * sizeof *t->eps_adv);
    for (size_t r = rounds; r < t->cap; r++) {
        for (size_t j = 0; j < n; j++)
            t->w[r * n + j] = NAN;
        t->f[r] = t->gnorm2[r] = NAN;
        for (size_t q = 0; q < k; q++) {
            t->sel[r * k + q] = SIZE_MAX;
            t->nu[r * k + q] = t->loss[r * k + q] = NAN;
        }
    }
    memcpy(t->W, s->W, m * n * sizeof *t->W);
    memcpy(t->Z, s->Z, m * n * sizeof *t->Z);
    t->rounds = rounds;
    t->cr = (unsigned long)rounds - 1;
    t->iters = t->cr * k0;
    t->stop = stop;
    size_t cnt = 0;
    double snr = NAN;
    for (size_t i = 0; i < m; i++)
        if (s->up[i]) {
            snr = cnt == 0 ? s->snr_i[i] : fmin(snr, s->snr_i[i]);
            cnt++;
        }
    t->snr = snr;
    t->snr_clients = cnt;
}

/* ---- the round loop, docs/FEDEPM.md section 1 ----------------------------- */

static int rounds_loop(ffi_fl_state *s, const ffi_fl_algo *A, size_t *rounds, int *stop)
{
    const fr_fedepm_params *prm = s->prm;
    const size_t n = s->n, k = s->nsel;
    const unsigned long k0 = prm->k0, R = prm->rounds;
    int st;
    *stop = FR_STOP_ROUNDS;
    for (unsigned long r = 1; r <= R + 1; r++) {
        const unsigned long kfirst = (r - 1) * k0;            /* k in K */
        size_t *S = s->rec_sel + (r - 1) * k;
        s->w = s->rec_w + (r - 1) * n;
        if (A->select_first && (st = frng_sample(&s->sel_rng, s->m, k, S)) != FR_OK)
            return st;
        if ((st = A->aggregate(s, S)) != FR_OK)                /* (19) / (34) */
            return st;
        if (!A->select_first && (st = frng_sample(&s->sel_rng, s->m, k, S)) != FR_OK)
            return st;
        /* records: f(w^r) and ||grad f(w^r)||^2 (s->a holds grad f) */
        if ((st = ffi_logreg_f(&s->rec_f[r - 1], s->a, s->P, s->w)) != FR_OK)
            return st;
        s->rec_g2[r - 1] = ffi_fl_sumsq(s->a, n);
        *rounds = (size_t)r;
        if (prm->stopping) {
            if ((st = ff_stop_rule(stop, s->rec_g2[r - 1], s->rec_f, (size_t)r, n)) != FR_OK)
                return st;
            if (*stop != FR_STOP_ROUNDS)
                return FR_OK;
        }
        if (r == R + 1)
            return FR_OK;
        /* local block k = kfirst .. kfirst + k0 - 1; i not in S^r keeps (22) */
        s->row = (size_t)(r - 1);
        for (size_t q = 0; q < k; q++)
            if ((st = A->client_block(s, S[q], kfirst)) != FR_OK)
                return st;
    }
    return FR_OK;
}

int ffi_fl_drive(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
                const ffi_fl_algo *A)
{
    int st = check_args(t, P, prm, A);
    if (st != FR_OK)
        return st;                         /* argument error: t untouched */

    ffi_fl_state s = {0};
    s.P = P;
    s.prm = prm;
    s.m = P->m;
    s.n = P->n;
    s.nsel = prm->nsel;
    s.sens_known = A->sens_known;
    if ((st = state_alloc(&s, (size_t)prm->rounds + 1)) == FR_OK) {
        frng_init(&s.sel_rng, prm->seed, FR_STREAM_SELECT);
        for (size_t i = 0; i < s.m; i++)
            frng_init(&s.noise[i], prm->seed, FR_STREAM_NOISE + (uint64_t)i);
        size_t rounds = 0;
        int stop = FR_STOP_ROUNDS;
        if ((st = initialise(&s)) == FR_OK
            && (st = rounds_loop(&s, A, &rounds, &stop)) == FR_OK
            && (st = totals(&s, rounds)) == FR_OK)
            commit(t, &s, rounds, prm->k0, stop);
    }
    if (st != FR_OK)
        ffi_fl_trace_reset(t);             /* an error after the start */
    state_free(&s);
    return st;
}
