/* SPDX-License-Identifier: Apache-2.0 */
/* rounds.c -- pieces shared by the three runs of 002 (rounds.h):
 * uploads with Laplace noise (21), (37) with the scale of (39), (27) or
 * fedref's certified rule rounded upward, the baselines' aggregation (34)
 * and stepsize (38), the records f(w^r), ||grad f(w^r)||^2, the stopping
 * rule and the SNR (Sec. VII-B/C), and the privacy accountant (the
 * sensitivity recursion, each upload's loss, the per-client totals).
 * docs/FEDEPM.md sections 1-5 and 9. */
#include <stdlib.h>
#include <string.h>
#include "rounds.h"

#define PARAM_PREC 53           /* binary64 parameters are read exactly */

int fri_fl_check(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
                 int (*check)(const fr_logreg *, const fr_fedepm_params *))
{
    const int sc = check(P, prm);
    if (sc == FR_ENULL || t == NULL || t->w == NULL || t->f == NULL || t->gnorm2 == NULL
        || t->sel == NULL || t->W == NULL || t->Z == NULL || t->nu0 == NULL || t->nu == NULL
        || t->loss0 == NULL || t->loss == NULL || t->eps_basic == NULL || t->eps_adv == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE || t->m != P->m || t->n != P->n || t->nsel != prm->nsel
        || t->cap == 0 || t->cap - 1 < prm->rounds)
        return FR_ESIZE;
    return sc;
}

int fri_fl_ctx_init(fri_fl_ctx *c, fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    memset(c, 0, sizeof *c);
    const size_t m = P->m, n = P->n, np = (n > m ? n : m) + 1;
    mpfr_t *v = malloc(4 * n * sizeof *v);
    mpfr_t *snr = malloc(m * sizeof *snr);
    mpfr_ptr *ptr = malloc(np * sizeof *ptr);
    unsigned char *up = calloc(m, 1);
    frng_t *noise = malloc(m * sizeof *noise);
    mpfr_t *S = malloc(m * sizeof *S), *lst = malloc((t->cap + 1) * sizeof *lst);
    unsigned long *steps = calloc(m, sizeof *steps);
    if (v == NULL || snr == NULL || ptr == NULL || up == NULL || noise == NULL || S == NULL
        || lst == NULL || steps == NULL) {
        free(v); free(snr); free(ptr); free(up); free(noise); free(S); free(lst); free(steps);
        return FR_ENOMEM;
    }
    c->t = t;
    c->P = P;
    c->prm = prm;
    c->m = m;
    c->n = n;
    c->p = mpfr_get_prec(t->snr);
    c->g = v;
    c->h = v + n;
    c->e = v + 2 * n;
    c->sq = v + 3 * n;
    for (size_t j = 0; j < 3 * n; j++)
        mpfr_init2(v[j], c->p);
    for (size_t j = 0; j < n; j++)
        mpfr_init2(c->sq[j], 2 * c->p);
    c->snr = snr;
    for (size_t i = 0; i < m; i++)
        mpfr_init2(snr[i], c->p);
    c->ptr = ptr;
    c->uploaded = up;
    c->noise = noise;
    c->S = S;
    c->steps = steps;
    c->lst = lst;
    for (size_t i = 0; i < m; i++)
        mpfr_init2(S[i], c->p);
    for (size_t q = 0; q <= t->cap; q++)
        mpfr_init2(lst[q], c->p);
    mpfr_init2(c->one, 2);
    mpfr_set_ui(c->one, 1, MPFR_RNDN);
    mpfr_init2(c->acct, PARAM_PREC);
    mpfr_set_d(c->acct, prm->acct_delta > 0 ? prm->acct_delta : FR_ACCT_DELTA_DEFAULT,
               MPFR_RNDN);                           /* exact */
    mpfr_inits2(PARAM_PREC, c->lambda, c->eta, c->mu0, c->c, c->alpha, c->eps, c->mu_prox,
                c->delta, (mpfr_ptr)0);
    mpfr_set_d(c->lambda, prm->lambda, MPFR_RNDN);   /* exact (NaN if unused) */
    mpfr_set_d(c->eta, prm->eta, MPFR_RNDN);
    mpfr_set_d(c->mu0, prm->mu0, MPFR_RNDN);
    mpfr_set_d(c->c, prm->c, MPFR_RNDN);
    mpfr_set_d(c->alpha, prm->alpha, MPFR_RNDN);
    mpfr_set_d(c->eps, prm->eps, MPFR_RNDN);
    mpfr_set_d(c->mu_prox, prm->mu_prox, MPFR_RNDN);
    mpfr_inits2(c->p, c->mu, c->nu, c->gamma, c->s, (mpfr_ptr)0);
    mpfr_init2(c->iv, 2 * 64 + 8);
    fri_fl_trace_reset(t);                           /* a fresh record: no rows */
    frng_init(&c->sel, prm->seed, FR_STREAM_SELECT);
    for (size_t i = 0; i < m; i++)
        frng_init(&noise[i], prm->seed, FR_STREAM_NOISE + (uint64_t)i);
    return FR_OK;
}

void fri_fl_ctx_clear(fri_fl_ctx *c)
{
    if (c->g == NULL)
        return;
    for (size_t j = 0; j < 4 * c->n; j++)
        mpfr_clear(c->g[j]);
    free(c->g);
    for (size_t i = 0; i < c->m; i++) {
        mpfr_clear(c->snr[i]);
        mpfr_clear(c->S[i]);
    }
    for (size_t q = 0; q <= c->t->cap; q++)
        mpfr_clear(c->lst[q]);
    mpfr_clears(c->one, c->acct, (mpfr_ptr)0);
    free(c->snr);
    free(c->ptr);
    free(c->uploaded);
    free(c->noise);
    free(c->S);
    free(c->steps);
    free(c->lst);
    mpfr_clears(c->lambda, c->eta, c->mu0, c->c, c->alpha, c->eps, c->mu_prox, c->delta,
                c->mu, c->nu, c->gamma, c->s, c->iv, (mpfr_ptr)0);
    memset(c, 0, sizeof *c);
}

/* out = ||x||^2, correctly rounded (exact squares, one mpfr_sum). */
static void sqnorm(fri_fl_ctx *c, mpfr_ptr out, mpfr_t *const x)
{
    for (size_t j = 0; j < c->n; j++) {
        mpfr_sqr(c->sq[j], x[j], MPFR_RNDN);        /* exact at 2p */
        c->ptr[j] = c->sq[j];
    }
    mpfr_sum(out, c->ptr, c->n, MPFR_RNDN);
}

/* The privacy loss of client i's upload with scale nu (docs/FEDEPM.md
 * section 9), rounded up: +Inf under (39) (a data-dependent scale) and
 * under (27) with c > 0 once mu_{i,k+1} depends on a data-dependent w_i^k
 * (the client's second update on); otherwise 0 for a data-independent
 * state (S_i = 0), +Inf without noise or without a bound (S_i = +Inf),
 * else S_i / nu. */
static void upload_loss(fri_fl_ctx *c, size_t i, mpfr_ptr loss)
{
    const fr_fedepm_params *prm = c->prm;
    if (prm->noise == FR_NOISE_EQ39
        || (prm->noise == FR_NOISE_EQ27 && prm->c > 0 && c->steps[i] >= 2))
        mpfr_set_inf(loss, 1);
    else if (mpfr_zero_p(c->S[i]))
        mpfr_set_zero(loss, 1);
    else if (mpfr_zero_p(c->nu) || mpfr_inf_p(c->S[i]))
        mpfr_set_inf(loss, 1);
    else
        mpfr_div(loss, c->S[i], c->nu, MPFR_RNDU);
}

/* z_i = w_i + eps_i; scale nu (rounded up) of section 4 from c->g and mu
 * (the certified rule: from S_i).  nu = 0: no draws, eps_i = 0.  nu and
 * the loss are recorded in nu_out, loss_out.  after0: count the upload
 * for the SNR. */
static int upload(fri_fl_ctx *c, size_t i, mpfr_srcptr mu, int after0, mpfr_ptr nu_out,
                  mpfr_ptr loss_out)
{
    const size_t n = c->n;
    mpfr_t *wi = c->t->W + i * n, *zi = c->t->Z + i * n;
    int st = FR_OK;
    switch (c->prm->noise) {
    case FR_NOISE_EQ39:
        st = fr_laplace_scale_eq39(c->nu, c->g, n, c->eps, mu, MPFR_RNDU);
        break;
    case FR_NOISE_EQ27:
        mpfr_set_d(c->delta, c->prm->Delta[i], MPFR_RNDN);   /* exact */
        st = fr_laplace_scale(c->nu, c->delta, c->eps, mu, MPFR_RNDU);
        break;
    case FR_NOISE_CERT:                              /* nu = S_i / eps, 0 if S_i = 0 */
        if (mpfr_zero_p(c->S[i]))
            mpfr_set_zero(c->nu, 1);
        else
            st = fr_laplace_scale(c->nu, c->S[i], c->eps, c->one, MPFR_RNDU);
        break;
    default:
        mpfr_set_zero(c->nu, 1);
        break;
    }
    if (st != FR_OK)
        return st;
    mpfr_set(nu_out, c->nu, MPFR_RNDN);              /* exact: same precision */
    upload_loss(c, i, loss_out);
    if (mpfr_zero_p(c->nu)) {                        /* point mass at 0 */
        for (size_t j = 0; j < n; j++)
            mpfr_set(zi[j], wi[j], MPFR_RNDN);
        mpfr_set_inf(c->snr[i], 1);
    } else {
        for (size_t j = 0; j < n; j++)
            if ((st = fr_rng_laplace(c->e[j], &c->noise[i], c->nu)) != FR_OK)
                return st;
        for (size_t j = 0; j < n; j++)
            mpfr_add(zi[j], wi[j], c->e[j], MPFR_RNDN);
        /* SNR: log10(||w_i|| / ||eps_i||) = log10(||w_i||^2 / ||eps_i||^2) / 2 */
        sqnorm(c, c->s, wi);
        sqnorm(c, c->snr[i], c->e);                  /* > 0: Laplace draws are never 0 */
        mpfr_div(c->s, c->s, c->snr[i], MPFR_RNDN);
        mpfr_log10(c->snr[i], c->s, MPFR_RNDN);      /* -Inf when w_i = 0 */
        mpfr_div_2ui(c->snr[i], c->snr[i], 1, MPFR_RNDN);
    }
    if (after0)
        c->uploaded[i] = 1;
    return FR_OK;
}

int fri_fl_upload(fri_fl_ctx *c, size_t i, mpfr_srcptr mu)
{
    const size_t k = c->prm->nsel, *S = c->t->sel + c->row * k;
    size_t q = 0;
    while (q < k && S[q] != i)
        q++;
    if (q == k)
        return FR_EINTERNAL;                         /* i is not in S^r */
    if (!c->sens_known)
        mpfr_set_inf(c->S[i], 1);                    /* no bound for these updates */
    return upload(c, i, mu, 1, c->t->nu[c->row * k + q], c->t->loss[c->row * k + q]);
}

int fri_fl_sens(fri_fl_ctx *c, size_t i, mpfr_srcptr mu)
{
    int st = FR_OK;
    c->steps[i]++;
    if (c->prm->noise == FR_NOISE_EQ27 || c->prm->noise == FR_NOISE_CERT) {
        mpfr_set_d(c->delta, c->prm->Delta[i], MPFR_RNDN);   /* exact */
        st = fr_dp_sens_step(c->S[i], c->S[i], c->delta, c->eta, mu, MPFR_RNDU);
    } else {
        mpfr_set_inf(c->S[i], 1);
    }
    return st;
}

int fri_fl_initial_uploads(fri_fl_ctx *c)
{
    const size_t n = c->n;
    for (size_t q = 0; q < c->m * n; q++)
        mpfr_set_zero(c->t->W[q], 1);                /* w_i^0 = 0 */
    for (size_t i = 0; i < c->m; i++) {
        int st;
        mpfr_set_zero(c->S[i], 1);                   /* w_i^0 is data-independent */
        c->steps[i] = 0;
        if (c->prm->noise == FR_NOISE_EQ39
            && (st = fri_logreg_fi(NULL, c->g, c->P, i, c->t->W + i * n)) != FR_OK)
            return st;                               /* (39) at w_i^0 */
        if ((st = upload(c, i, c->mu0, 0, c->t->nu0[i], c->t->loss0[i])) != FR_OK)
            return st;
    }
    return FR_OK;
}

int fri_fl_mu(fri_fl_ctx *c, size_t i, unsigned long kp1, mpfr_t *const w)
{
    return fr_fedepm_mu(c->mu, c->mu0, c->c, c->alpha, kp1, c->t->W + i * c->n, w, c->n);
}

int fri_fl_select(fri_fl_ctx *c, size_t r)
{
    size_t k = c->prm->nsel;
    return frng_sample(&c->sel, c->m, k, c->t->sel + (r - 1) * k);
}

/* (34): the sum is correctly rounded (mpfr_sum), then one division. */
int fri_fl_mean_selected(fri_fl_ctx *c, size_t r)
{
    const size_t n = c->n, k = c->prm->nsel;
    const size_t *S = c->t->sel + (r - 1) * k;
    mpfr_t *w = c->t->w + (r - 1) * n;
    for (size_t j = 0; j < n; j++) {
        for (size_t q = 0; q < k; q++)
            c->ptr[q] = c->t->Z[S[q] * n + j];
        mpfr_sum(w[j], c->ptr, k, MPFR_RNDN);
        mpfr_div_ui(w[j], w[j], (unsigned long)k, MPFR_RNDN);
    }
    return FR_OK;
}

/* (38) with the bracket read as the ceiling: 2k0 + tau is an exact integer
 * (< 2^66), then sqrt and the quotient, each correctly rounded. */
void fri_fl_gamma(fri_fl_ctx *c, size_t i, unsigned long k)
{
    mpfr_set_ui(c->iv, c->prm->k0, MPFR_RNDN);       /* exact */
    mpfr_mul_2ui(c->iv, c->iv, 1, MPFR_RNDN);
    mpfr_add_ui(c->iv, c->iv, fr_tau(k, c->prm->k0), MPFR_RNDN);
    mpfr_sqrt(c->s, c->iv, MPFR_RNDN);
    mpfr_ui_div(c->gamma, (unsigned long)c->P->d[i], c->s, MPFR_RNDN);
    mpfr_mul_2ui(c->gamma, c->gamma, 1, MPFR_RNDN);  /* exact */
}

void fri_fl_step(mpfr_t *out, mpfr_t *const src, mpfr_srcptr gamma, mpfr_t *const x, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        mpfr_fms(out[j], gamma, x[j], src[j], MPFR_RNDN);   /* RN(gamma x - src) */
        mpfr_neg(out[j], out[j], MPFR_RNDN);               /* RN is odd: RN(src - gamma x) */
    }
}

int fri_fl_record(fri_fl_ctx *c, size_t r, int *stop)
{
    fr_fedepm_trace *t = c->t;
    const size_t row = r - 1;
    int st = fri_logreg_f(t->f[row], c->h, c->P, t->w + row * c->n);
    if (st != FR_OK)
        return st;
    sqnorm(c, t->gnorm2[row], c->h);
    *stop = FR_STOP_ROUNDS;
    if (c->prm->stopping)
        st = fr_stop_rule(stop, t->gnorm2[row], t->f, r, c->n);
    return st;
}

int fri_fl_finish(fri_fl_ctx *c, size_t rounds, int stop)
{
    fr_fedepm_trace *t = c->t;
    const size_t k = c->prm->nsel;
    /* each client's uploads: z_i^0, then every block it ran (rows < rounds - 1) */
    for (size_t i = 0; i < c->m; i++) {
        size_t cnt = 0;
        mpfr_set(c->lst[cnt++], t->loss0[i], MPFR_RNDN);
        for (size_t r = 0; r + 1 < rounds; r++)
            for (size_t q = 0; q < k; q++)
                if (t->sel[r * k + q] == i)
                    mpfr_set(c->lst[cnt++], t->loss[r * k + q], MPFR_RNDN);
        int st = fr_dp_compose(t->eps_basic[i], t->eps_adv[i], c->lst, cnt, c->acct, MPFR_RNDU);
        if (st != FR_OK)
            return st;
        if (c->prm->stopping) {                      /* the stopping decision is released */
            mpfr_set_inf(t->eps_basic[i], 1);
            mpfr_set_inf(t->eps_adv[i], 1);
        }
    }
    t->rounds = rounds;
    t->iters = (unsigned long)(rounds - 1) * c->prm->k0;
    t->cr = (unsigned long)(rounds - 1);
    t->stop = stop;
    t->snr_clients = 0;
    mpfr_set_nan(t->snr);
    for (size_t i = 0; i < c->m; i++) {
        if (!c->uploaded[i])
            continue;
        if (t->snr_clients == 0 || mpfr_less_p(c->snr[i], t->snr))
            mpfr_set(t->snr, c->snr[i], MPFR_RNDN);
        t->snr_clients++;
    }
    return FR_OK;
}

void fri_fl_abandon(fri_fl_ctx *c)
{
    fri_fl_trace_reset(c->t);
}

int fri_fl_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm,
               int (*check)(const fr_logreg *, const fr_fedepm_params *),
               fri_fl_aggregate_fn aggregate, fri_fl_block_fn block, int sens_known)
{
    fri_fl_ctx c;
    int st = fri_fl_check(t, P, prm, check);
    if (st != FR_OK)
        return st;                                 /* argument error: t untouched */
    if ((st = fri_fl_ctx_init(&c, t, P, prm)) != FR_OK) {
        fri_fl_trace_reset(t);                     /* after the start: reset */
        return st;
    }
    int stop = FR_STOP_ROUNDS;
    size_t r = 1;
    c.sens_known = sens_known;
    st = fri_fl_initial_uploads(&c);
    for (; st == FR_OK; r++) {
        if ((st = aggregate(&c, r)) != FR_OK || (st = fri_fl_record(&c, r, &stop)) != FR_OK)
            break;
        if (stop != FR_STOP_ROUNDS || r == (size_t)prm->rounds + 1)
            break;
        c.row = r - 1;
        st = block(&c, r, t->w + (r - 1) * P->n);
    }
    if (st == FR_OK)
        st = fri_fl_finish(&c, r, stop);
    if (st != FR_OK)
        fri_fl_abandon(&c);
    fri_fl_ctx_clear(&c);
    return st;
}

int fri_fl_select_then_mean(fri_fl_ctx *c, size_t r)
{
    int st = fri_fl_select(c, r);                  /* S^r before (34) */
    return st != FR_OK ? st : fri_fl_mean_selected(c, r);
}
